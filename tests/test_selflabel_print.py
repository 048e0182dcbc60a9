"""The third look of self-labelling: the halves sorted by their registered print alone (descriptors.print_alone).

A dev art family's hard photo (emoji food, six motifs alike in colour, printed borders, glare): sorted by colours,
pictures and print together over the whole band (the blended look), some half-types are mixed, and no reading is
sure; about the edge's middle, with the print registered in small turns and scalings (structure.POSES), that look
now reads it right and surely (before, it mixed types too). Sorted by the print alone, about the edge's middle,
every half falls with its copies, and the tiles lay out with that reading. (Self-labelling's first look, the halves
lined up by where they differ most, now reads this photo right and sure.) As the print alone is blind to colour (a
figure printed in two colours is one print), such a reading is taken but asked about. And where colours give a sure
reading of fewer half-types than the print alone surely reads (figures alike in colour: two motifs taken for one
still lay out; a medium photo of the same family, where the blended look surely reads nine half-types and the print
twelve), the reading is a guess. Halves are cut at the true corners, so only self-labelling is tested.
"""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.scenes.evaluate import edges_right_up_to_renaming
from photosolve.scenes.families import family_artwork, motif_kind
from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.read.descriptors import blended, describe_halves, print_alone
from photosolve.vision.read.features import white_bands
from photosolve.vision.read.selflabel import MOTIF_RANGE, choose_trial, self_label, sureness
from photosolve.vision.rectify import rectify_all
from photosolve.vision.types import TileQuad

FAMILY, MOTIFS, SEED = "emoji-food", 6, 10001


def halves_at_true_corners(family: str, motifs: int, seed: int, tier: str):
    """A family photo's bands at the true corners (tiles x 4 x h x w x 3, in one light), the face's Lab, the true
    edges."""
    scene = make_scene(f"family:{family}:{motifs}", seed, tier=tier)
    quads = [TileQuad(np.array(tile["corners"], float)) for tile in scene.truth["tiles"]]
    bands, face = white_bands(rectify_all(photo_from_array(scene.image), quads))
    return bands, face, np.array([tile["edges"] for tile in scene.truth["tiles"]])


@pytest.fixture(scope="module")
def halves():
    return halves_at_true_corners(FAMILY, MOTIFS, SEED, "hard")


def read_right(labels: np.ndarray, truth: np.ndarray) -> bool:
    return edges_right_up_to_renaming(labels.reshape(truth.shape), truth) == truth.size


def test_the_photo_is_of_motifs_alike_in_colour():
    assert motif_kind(family_artwork(FAMILY, MOTIFS, SEED)) == "alike"


def test_colours_and_pictures_over_the_band_leave_no_sure_reading(halves):
    bands, face, truth = halves
    flat = bands.reshape(-1, *bands.shape[2:])
    choice = choose_trial(blended(describe_halves(flat, face)), 3, 3, 9, MOTIF_RANGE)
    assert not (all(sureness(choice)) and read_right(choice.trial.reading.labels, truth))


def test_about_the_middle_with_the_print_registered_they_read_it_surely(halves):
    bands, face, truth = halves
    flat = bands.reshape(-1, *bands.shape[2:])
    choice = choose_trial(blended(describe_halves(flat, face), centred=True), 3, 3, 9, MOTIF_RANGE)
    assert all(sureness(choice)) and read_right(choice.trial.reading.labels, truth)


def test_the_print_alone_reads_every_half_and_the_tiles_lay_out(halves):
    bands, face, truth = halves
    flat = bands.reshape(-1, *bands.shape[2:])
    choice = choose_trial(print_alone(describe_halves(flat, face)), 3, 3, 9, MOTIF_RANGE)
    assert all(sureness(choice)) and choice.trial.types == 2 * MOTIFS
    assert read_right(choice.trial.reading.labels, truth)


def test_self_label_reads_it_right_and_sure_lined_up(halves):
    bands, face, truth = halves
    found = self_label(bands, 3, 3, face=face)
    assert read_right(found.reading.labels, truth)
    assert not found.guessed and found.fits


def test_a_sure_reading_coarser_than_the_print_is_a_guess():
    bands, face, truth = halves_at_true_corners(FAMILY, MOTIFS, 10000, "medium")
    assert motif_kind(family_artwork(FAMILY, MOTIFS, 10000)) == "alike"
    flat = bands.reshape(-1, *bands.shape[2:])
    descriptors = blended(describe_halves(flat, face))
    by_colour = choose_trial(descriptors, 3, 3, 9, MOTIF_RANGE)
    by_print = choose_trial(print_alone(descriptors), 3, 3, 9, MOTIF_RANGE)
    assert all(sureness(by_colour)) and not read_right(by_colour.trial.reading.labels, truth)
    assert all(sureness(by_print)) and by_print.trial.types > by_colour.trial.types
    assert self_label(bands, 3, 3, face=face).guessed
