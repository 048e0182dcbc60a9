"""When self-labelling's first look is a guess, a later look replaces it only where it is the better-founded reading.

A dev art family's easy photo (emoji food: pizza slices in four colourings of their toppings, on a printed brick
face): lined up, the halves sort into their eight types (a jump of 1.55), and the tiles lay out so, but another
pairing of those types lays out too, so the reading is a guess. Compared again about the edge's middle (the centred
look) the halves sort otherwise, a guess too, with a weaker jump (1.13): no surer and less sharp, it would not replace
the first. Self-labelling reads the photo right, and surely: the lined-up difference sets no types apart sharply, so
the first look weighs all six distances, and with the print registered in small turns and scalings too
(structure.POSES) that reading is no guess (before, it was one, and asked about). Halves are cut at the true corners,
so only self-labelling is tested.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from photosolve.vision.read.descriptors import describe_halves
from photosolve.vision.read.selflabel import MOTIF_RANGE, choose_trial, self_label, surer

from .test_selflabel_print import halves_at_true_corners, read_right

FAMILY, MOTIFS, SEED = "emoji-food", 4, 10006


@pytest.fixture(scope="module")
def looks():
    bands, face, truth = halves_at_true_corners(FAMILY, MOTIFS, SEED, "easy")
    flat = bands.reshape(-1, *bands.shape[2:])
    first = choose_trial(describe_halves(flat, face), 3, 3, 9, MOTIF_RANGE)
    centred = choose_trial(describe_halves(flat, face, centred=True), 3, 3, 9, MOTIF_RANGE)
    return bands, face, truth, first, centred


def test_the_first_look_reads_it_right_but_as_a_guess(looks):
    _, _, truth, first, _ = looks
    assert first.fits and not first.coherent
    assert first.trial.types == 2 * MOTIFS
    assert read_right(first.trial.reading.labels, truth)


def test_the_centred_look_is_a_guess_too_and_less_sharp(looks):
    _, _, truth, first, centred = looks
    assert centred.fits and not centred.coherent
    assert not read_right(centred.trial.reading.labels, truth)
    assert centred.trial.gap < first.trial.gap
    assert not surer(centred, first)


def test_self_label_reads_it_right_and_surely(looks):
    bands, face, truth, _, _ = looks
    found = self_label(bands, 3, 3, face=face)
    assert read_right(found.reading.labels, truth)
    assert found.fits and not found.guessed


def test_a_surer_look_replaces_a_guess_whatever_its_jump(looks):
    _, _, _, first, centred = looks
    sure = replace(centred, coherent=True)  # the same weaker jump, but no guess
    assert surer(sure, first)
    assert not surer(first, sure)
