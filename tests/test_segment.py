"""Tiles found in generated photos (fixed seeds) where the truth says, and the count error when tiles are missing."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.scene import make_scene
from photosolve.vision.errors import WrongTileCount
from photosolve.vision.load import load_photo, photo_from_array
from photosolve.vision.segment import find_tiles

REAL = Path(__file__).resolve().parents[2] / "shared" / "realphotos"


@lru_cache(maxsize=None)
def scene_of(puzzle: str, seed: int, tier: str, layout: str):
    return make_scene(puzzle, seed, tier=tier, layout=layout)


def found_where_the_truth_says(scene, tolerance: float) -> None:
    quads = find_tiles(photo_from_array(scene.image), len(scene.truth["tiles"]))
    score = score_reading([q.corners for q in quads], None, scene.truth)
    assert score.found == score.tiles
    assert score.worst_corner < tolerance, f"worst corner off by {score.worst_corner:.3f} of a side"


# Each case was checked to be found exactly by the current segmentation; the tolerance (of a side) leaves room
# for the printed frame near a touching tile's edge, which the seam search may take for the seam.
@pytest.mark.parametrize("puzzle, seed, tier, layout", [
    ("dogs", 0, "easy", "scattered"),
    ("insects", 1, "easy", "grid"),
    ("nsa", 2, "easy", "touching"),
    ("cats", 3, "easy", "solved"),
    ("random:5", 12, "medium", "scattered"),
    ("dogs", 14, "medium", "grid"),
    ("insects", 15, "medium", "touching"),
])
def test_tiles_found_within_a_few_percent_of_a_side(puzzle, seed, tier, layout):
    found_where_the_truth_says(scene_of(puzzle, seed, tier, layout), 0.05)


# Lone tiles whose sides the edge search alone put 5-11% of a side off (a printed frame line or a motif's straight
# stretch taken for the edge, a side tilted between them): tracing each face to where it ends puts them within 4%
# (a side whose traces disagree keeps its edge-search place, hence not closer).
@pytest.mark.parametrize("puzzle, seed, tier, layout", [
    ("cats", 17, "medium", "scattered"),
    ("random:4", 4, "medium", "grid"),
])
def test_lone_tiles_traced_to_where_their_faces_end(puzzle, seed, tier, layout):
    found_where_the_truth_says(scene_of(puzzle, seed, tier, layout), 0.04)


def test_a_tile_cut_off_by_the_frame_is_a_count_error():
    scene = scene_of("dogs", 0, "easy", "scattered")
    tiles = scene.truth["tiles"]
    # Crop the photo through the middle of the tile nearest its left border.
    leftmost = min(tiles, key=lambda t: t["center"][0])
    cut = int(round(leftmost["center"][0]))
    with pytest.raises(WrongTileCount) as error:
        find_tiles(photo_from_array(np.ascontiguousarray(scene.image[:, cut:])), len(tiles))
    assert error.value.found == len(tiles) - 1 and error.value.expected == len(tiles)


def test_too_few_tiles_is_a_count_error():
    scene = scene_of("dogs", 0, "easy", "scattered")
    with pytest.raises(WrongTileCount) as error:
        find_tiles(photo_from_array(scene.image), 12)
    assert error.value.found == 9 and "expected 12" in str(error.value)


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/realphotos is not beside the project")
@pytest.mark.parametrize("name", ["board.jpeg", "solution1.jpeg"])
def test_real_grids_give_nine_tiles_of_one_size(name):
    quads = find_tiles(load_photo(REAL / name), 9)
    sides = np.array([q.side for q in quads])
    assert len(quads) == 9 and sides.max() / sides.min() < 1.15
