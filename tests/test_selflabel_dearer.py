"""A never-seen puzzle's half-types paired into motifs: where the cheapest plausible pairing does not let the tiles
lay out and a dearer one does, the reading is an open guess (vision/read/selflabel.py, Trial.dearer).

The photos go through the whole pipeline (segmentation included), as bench/families.py reads them with no templates.
"""
from __future__ import annotations

import numpy as np

from photosolve.scenes.evaluate import edges_right_up_to_renaming, true_edges_as_found
from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import NO_TEMPLATES, cut_halves, read_photo_edges

from .test_guess_settled import read_scene


def read_family_photo(family: str, motifs: int, seed: int, tier: str):
    """A dev art family's photo read with no templates: the reading and the true edges in found tile order."""
    scene, halves, read = read_scene(family, motifs, seed, tier)
    return read, np.array(true_edges_as_found([quad.corners for quad in halves.quads], scene.truth))


def test_a_dearer_pairing_that_lays_out_is_asked_about():
    """Emoji animals, medium (dev): the halves sorted into six types and paired the cheapest plausible way leave the
    tiles no layout; a dearer pairing among the few cheapest lays out, but reads 22 of 36 edges (the puzzle shows
    four motifs, not three). Given unasked it would be a wrong solution; the motifs are a guess with no known
    readings it lies between, so photosolve asks."""
    read, truth = read_family_photo("emoji-animals", 4, 20004, "medium")
    assert edges_right_up_to_renaming(read.reading.labels, truth) < truth.size
    assert read.guess and read.rivals is None
    assert "less likely" in read.guess  # the reason the person is told


def test_a_reading_whose_cheapest_pairing_lays_out_is_no_guess():
    """Emoji animals, easy (dev): the cheapest pairing lays out and is the puzzle's; nothing is asked."""
    read, truth = read_family_photo("emoji-animals", 4, 20000, "easy")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
    assert not read.guess


def test_a_pairing_beyond_the_cheapest_few_is_found_where_the_types_stand_apart_sharply():
    """Emoji animals, medium (dev): twelve half-types stand apart sharply (a jump of 4.7), but none of the few
    cheapest pairings lets the tiles lay out; the true one is the 48th cheapest. The halves were read as six types
    instead, a coarser reading that lays out anywhere. Now the cheapest plausible pairing of the twelve that lays out
    is searched for further down (trials.deeper_fitting): every edge is read right, and photosolve asks, as for
    any pairing dearer than one that does not lay out."""
    read, truth = read_family_photo("emoji-animals", 6, 20003, "medium")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
    assert read.guess and read.rivals is None
    assert "less likely" in read.guess


def test_no_pairing_beyond_the_cheapest_few_is_taken_that_leaves_a_type_unpaired():
    """Emoji animals, medium (dev): penguins in four colourings. The halves jump sharply at seven types too, and a
    far-down pairing of those, one type left unpaired, lets the tiles lay out (an unpaired type lies on the frame,
    where nothing checks it). Taken, it reads 7 types where the puzzle shows 8 (27 of 36 edges); the search further
    down is only for pairings of every type, and the eight are read right."""
    read, truth = read_family_photo("emoji-animals", 4, 20006, "medium")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size


def test_a_pairing_far_down_does_not_displace_a_finer_reading_that_lays_out_with_a_cheap_one():
    """A drawn never-seen puzzle, hard, touching tiles: the halves jump sharply at eight types, and the 5th-64th
    cheapest pairings of those include one that lets the tiles lay out, by chance (22 of 36 edges). The true nine
    types lay out with their cheapest pairing: a coarser reading lays out wherever a finer one does, and a pairing
    found far down is weaker evidence than a cheap one, so the search further down gives way to it."""
    scene = make_scene("random:5", 10014, tier="hard")
    halves = cut_halves(photo_from_array(scene.image), 9)
    read = read_photo_edges(halves, NO_TEMPLATES, 3, 3)
    truth = np.array(true_edges_as_found([quad.corners for quad in halves.quads], scene.truth))
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
