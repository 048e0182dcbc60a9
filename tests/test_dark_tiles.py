"""Tiles whose faces are the table's colour (black faces on a dark slate) found by the outline that differs from
the table: a thin light bevel, broken in places."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.scene import make_scene
from photosolve.vision.find.background import rim_masks, table_difference
from photosolve.vision.find.outlines import tile_components
from photosolve.vision.find.segment import find_tiles
from photosolve.vision.load import photo_from_array


def dark_board(tier: str = "medium", table: str = "slate"):
    # The dev photos-a family's black faces (5 motifs, as bench/families.py draws them for seed 20007) in a grid
    # on a dark table: each face-colour, edge, table and texture reading sees pieces of faces, none the 9 tiles
    # (on hard granite, one reading's 9 pieces lie on no clear edge).
    return make_scene("family:photos-a:5", 20007, tier=tier, size=(1200, 900), layout="grid", background=table)


def test_the_closed_rims_of_a_dark_board_hold_its_nine_tiles():
    scene = dark_board()
    photo = photo_from_array(scene.image)
    lab = cv2.cvtColor(cv2.GaussianBlur(photo.work, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    mask = next(rim_masks(table_difference(lab)))
    assert sum(count for _, count in tile_components(mask, 9)[0]) == 9


@pytest.mark.parametrize("tier, table", [("medium", "slate"), ("hard", "granite")])
def test_every_tile_of_a_dark_board_is_found_where_it_lies(tier, table):
    # Before the rims were read, 1 (slate) and 0 (granite) of the 9 tiles returned lay where a true tile does.
    scene = dark_board(tier, table)
    tiles = find_tiles(photo_from_array(scene.image), len(scene.truth["tiles"]))
    score = score_reading([t.corners for t in tiles], None, scene.truth)
    assert score.found == score.tiles
