"""Tiles found as objects on the table, whatever is printed on their faces: a printed coloured border makes the
face-colour mask outline only the plain patch inside it, which the table around a true tile tells apart."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from photosolve.scenes.artwork import artwork
from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.faces import FacePrint
from photosolve.scenes.scene import make_scene
from photosolve.vision.find.background import table_difference
from photosolve.vision.find.segment import Reading, choose_reading, find_tiles
from photosolve.vision.find.table import unbounded
from photosolve.vision.load import photo_from_array

BAND = 0.07  # the printed border's width, of a side
RED_BORDER = FacePrint("border", colour=(244, 240, 228), accent=(200, 30, 40), band=BAND)


def bordered_scene(layout: str):
    art = replace(artwork("dogs"), design=RED_BORDER)
    return make_scene("dogs", 1000, tier="medium", layout=layout, art=art, size=(1200, 900))


@pytest.mark.parametrize("layout", ["scattered", "solved"])
def test_tiles_with_a_printed_border_are_found_whole(layout):
    # Before the table was looked for around each tile, every tile here was outlined on its border's inner edge
    # (worst corner 10-11% of a side); the solved board's cells were placed on those edges too.
    scene = bordered_scene(layout)
    tiles = find_tiles(photo_from_array(scene.image), len(scene.truth["tiles"]))
    score = score_reading([t.corners for t in tiles], None, scene.truth)
    assert score.all_tiles_exact, f"worst corner {score.worst_corner:.1%} of a side"


def test_the_table_lies_around_true_tiles_and_not_around_the_patch_inside_the_border():
    scene = bordered_scene("scattered")
    photo = photo_from_array(scene.image)
    lab = cv2.cvtColor(cv2.GaussianBlur(photo.work, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    difference = table_difference(lab)
    to_work = photo.work.shape[1] / scene.image.shape[1]
    true = [np.array(t["corners"], dtype=np.float64) * to_work for t in scene.truth["tiles"]]
    inside = [q.mean(axis=0) + (q - q.mean(axis=0)) * (1 - 2 * BAND) for q in true]
    assert unbounded(true, difference) == 0
    assert unbounded(inside, difference) == len(inside)


def reading(number: int, support: float, unbounded: int) -> Reading:
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=np.float64)
    return Reading(number, [(square + 20 * i, True) for i in range(9)], support, unbounded=unbounded)


def test_a_reading_with_the_table_around_its_tiles_wins_only_on_clear_edges():
    # The tiles' outer edges against the table lie less sharply than their printed border's inner edge...
    assert choose_reading([reading(0, 16.0, 9), reading(1, 6.8, 0)]).number == 1
    # ...but a reading on no clear edge is not taken for having the table around it (a checked cloth's square).
    assert choose_reading([reading(0, 7.7, 1), reading(1, 0.8, 0)]).number == 0
    # With every reading faint, the best on edges is still chosen.
    assert choose_reading([reading(0, 1.2, 1), reading(1, 0.8, 0)]).number == 0
