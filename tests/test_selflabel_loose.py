"""A reading with a pair that meets at the cut and shares colours only loosely (beyond selflabel.MEETS).

Such a pair is usually forced by a wrong grouping, and the reading is then a guess. But where the halves' appearance
jumps sharply at the number of types read (selflabel.SHARP_JUMP), every type is paired and no other plausible
pairing of them lets the tiles lay out, the loose pair is a true motif whose halves meet and share colours only
loosely (emoji nature and emoji animals, dev), and the reading is taken unasked. Where another plausible pairing
also lays out (emoji food, dev), it is still asked about. Halves are cut at the true corners, so only self-labelling is tested.
"""
from __future__ import annotations

import pytest

from photosolve.vision.read.descriptors import describe_halves
from photosolve.vision.read.selflabel import MEETS, MOTIF_RANGE, SHARP_JUMP, choose_trial, self_label

from .test_selflabel_print import halves_at_true_corners, read_right


def first_look_and_reading(family: str, motifs: int, seed: int):
    bands, face, truth = halves_at_true_corners(family, motifs, seed, "medium")
    flat = bands.reshape(-1, *bands.shape[2:])
    first = choose_trial(describe_halves(flat, face), 3, 3, 9, MOTIF_RANGE)
    return first, self_label(bands, 3, 3, face=face), truth


@pytest.mark.parametrize("family, motifs, seed", [("emoji-nature", 5, 10005), ("emoji-animals", 5, 10005)])
def test_a_loose_pair_of_sharp_types_that_alone_lays_out_is_taken(family, motifs, seed):
    first, found, truth = first_look_and_reading(family, motifs, seed)
    assert first.fits and first.trial.incoherence > MEETS and first.trial.gap >= SHARP_JUMP
    assert first.coherent
    assert read_right(found.reading.labels, truth) and not found.guessed


def test_a_loose_pair_is_asked_about_where_another_pairing_lays_out_too():
    first, found, truth = first_look_and_reading("emoji-food", 4, 20004)
    assert first.fits and first.trial.incoherence > MEETS and first.trial.gap >= SHARP_JUMP
    assert not first.coherent
    assert found.guessed and read_right(found.reading.labels, truth)
