"""A reading made with no templates that the same photo, saved once more, reads otherwise is asked about
(vision/read/steadiness.py).

The photos go through the whole pipeline (segmentation included), as bench/families.py reads them with no templates.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from photosolve.scenes.evaluate import edges_right_up_to_renaming
from photosolve.vision.read.features import white_bands
from photosolve.vision.read.selflabel import self_label
from photosolve.vision.read.steadiness import resaved, unless_unsteady

from .test_guess_settled import read_scene

from .test_selflabel_dearer import read_family_photo


def test_a_reading_a_second_save_sorts_otherwise_is_asked_about():
    """Emoji animals, easy (dev): the halves are read surely, with edges wrong (30 of 36, a wrong solution); the
    tiles saved once more as a JPEG sort otherwise. Photosolve asks, and says why. (The photo this was found on,
    photos-a hard 10011, is asked about for its pairing since the first look is weighed where it is not sharp.)"""
    read, truth = read_family_photo("emoji-animals", 4, 10008, "easy")
    assert edges_right_up_to_renaming(read.reading.labels, truth) < truth.size
    assert read.guess and "saved once more" in read.guess
    assert read.rivals is None  # open: neither side of a near-tie need be true


def test_a_second_save_changes_the_pixels_as_a_phone_would_and_no_more():
    """The re-save is invisible: a few grey levels on average, but not nothing (else it would test nothing)."""
    rng = np.random.default_rng(0)
    squares = np.clip(rng.normal(128, 40, (3, 128, 128, 3)), 0, 255).astype(np.uint8)
    squares[:, 32:96, 32:96] = (200, 40, 30)  # a figure on the noisy face
    again = resaved(squares)
    assert again.shape == squares.shape and again.dtype == np.uint8
    change = np.abs(again.astype(int) - squares.astype(int)).mean()
    assert 0.5 < change < 20


def test_a_second_save_that_reads_alike_only_with_a_pairing_found_far_down_makes_the_reading_a_guess():
    """Emoji animals, easy (dev): read surely, and alike after a second save. Had the second save reached the same
    reading only through a pairing found beyond the cheapest few (trials.deeper_fitting), the pairing taken first
    as the cheapest that lays out would have been a near-tie: the reading is then an open guess. Read alike and
    surely, it stays sure."""
    scene, halves, _ = read_scene("emoji-animals", 4, 20000, "easy")
    rows, cols = scene.truth["rows"], scene.truth["cols"]
    found = self_label(halves.bands, rows, cols, face=halves.face)
    bands, face = white_bands(resaved(halves.squares))
    again = self_label(bands, rows, cols, face=face)
    assert not found.guessed and not again.guessed and not again.dearer
    assert unless_unsteady(found, again) is found
    reached_far_down = replace(again, guessed=True, dearer=True, far_down=True, rivals=None)
    doubted = unless_unsteady(found, reached_far_down)
    assert doubted.guessed and doubted.unsteady and doubted.rivals is None


def test_the_second_save_is_read_for_its_labels_only_and_they_are_the_same():
    """Emoji animals, easy (dev): a sure reading that the print alone or the blended look makes a guess. The second
    save is read without those looks (doubting=False), which only add doubt: its labels and far_down are those of
    the full reading, and only the doubt is left out."""
    scene, halves, _ = read_scene("emoji-animals", 4, 10006, "easy")
    rows, cols = scene.truth["rows"], scene.truth["cols"]
    doubted = self_label(halves.bands, rows, cols, face=halves.face)
    labels_only = self_label(halves.bands, rows, cols, face=halves.face, doubting=False)
    assert doubted.guessed and doubted.rivals is not None  # the other looks saw another reading
    assert not labels_only.guessed
    assert np.array_equal(labels_only.reading.labels, doubted.reading.labels)
    assert labels_only.far_down == doubted.far_down
