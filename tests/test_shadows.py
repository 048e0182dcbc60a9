"""A shadow cast across tiles (a phone or a hand between lamp and table): the tiles found in it (segment.py's
shade_likeness), and the shadow taken off their faces (vision/read/shading.py).

The face plane alone leaves a shadowed part of a tile dark, and a half under it is read as another motif's half.
"""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.scenes.evaluate import edges_right_up_to_renaming, score_reading, true_edges_as_found
from photosolve.scenes.photograph import cast_shadow
from photosolve.scenes.scene import make_scene
from photosolve.vision.read.features import face_plane, white_balanced, white_field
from photosolve.vision.load import load_photo, photo_from_array
from photosolve.vision.pipeline import cut_halves, read_photo_edges
from photosolve.vision.find.segment import find_tiles
from photosolve.vision.read.shading import shadow_field

from .test_realphotos import REAL, grid_edges, truth_of

FACE = np.array([236.0, 230.0, 218.0])
RED = np.array([190.0, 40.0, 36.0])
GREY = 0.5 * FACE  # a grey motif: as dark as a deep shadow, and as colourless


def tile_with_motifs(size: int = 128) -> np.ndarray:
    """A plain face with two like red motifs (one on the left, one on the right) and a grey bar across the top,
    each with a dark outline, as printed art has."""
    tile = np.ones((size, size, 1)) * FACE
    for left in (16, 76):
        tile[60:96, left - 2:left + 38] = 30.0
        tile[62:94, left:left + 36] = RED
    tile[12:30, 30:98] = 30.0
    tile[14:28, 32:96] = GREY
    return tile


def shadowed(tile: np.ndarray, depth: float = 0.5) -> np.ndarray:
    """The tile with a soft-edged shadow over its left half (depth: the light left in it)."""
    x = np.arange(tile.shape[1]) + 0.5
    light = 1 - (1 - depth) / (1 + np.exp((x - 64) / 6))
    return np.clip(np.round(tile * light[None, :, None]), 0, 255).astype(np.uint8)


def test_a_shadow_over_half_a_tile_is_taken_off_its_face_and_motifs():
    balanced = white_balanced(shadowed(tile_with_motifs()))
    face = np.concatenate([balanced[40:56, 4:124].reshape(-1, 3), balanced[100:124, 4:124].reshape(-1, 3)])
    assert np.all(np.abs(face.mean(axis=0) - 1) < 0.04)
    assert np.percentile(np.abs(face - 1), 95) < 0.08  # the shadow's edge too
    in_shadow, lit = balanced[66:90, 20:48].mean(axis=(0, 1)), balanced[66:90, 80:108].mean(axis=(0, 1))
    # the two red motifs read nearly alike (the face plane alone: 0.51 against 0.86 in red)
    assert np.all(np.abs(in_shadow - lit) < 0.1)


def test_a_grey_motif_is_not_taken_for_shadowed_face():
    balanced = white_balanced(tile_with_motifs().clip(0, 255).astype(np.uint8))
    assert np.all(np.abs(balanced[16:26, 36:92].mean(axis=(0, 1)) - 0.5) < 0.04)


def test_a_tile_in_even_light_is_balanced_by_its_plane_alone():
    x = (np.arange(128) + 0.5) / 128 - 0.5
    tile = tile_with_motifs() * np.exp(-0.4 * x)[None, :, None]  # light falling off across it: a plane
    square = np.clip(np.round(tile), 0, 255).astype(np.uint8)
    plane = face_plane(square)
    assert shadow_field(square, white_field(square, plane)) is None


@pytest.mark.parametrize("seed", [105, 106])
def test_a_never_seen_puzzle_under_a_shadow_is_read_right(seed):
    """Easy photos of random puzzles in a grid, a phone's shadow over the middle: with the face plane alone 31
    and 27 of 36 edges were read right."""
    scene = make_scene(f"random:{3 + seed % 4}", seed, tier="easy")
    halves = cut_halves(photo_from_array(cast_shadow(scene.image, (0.4, 0.45), 0.25, 0.45)), 9)
    read = read_photo_edges(halves, "none", 3, 3)
    true = true_edges_as_found([q.corners for q in halves.quads], scene.truth)
    assert edges_right_up_to_renaming(read.reading.labels, true) == 36


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/realphotos is not beside the project")
@pytest.mark.parametrize("name, depth", [("solution1.jpeg", 0.35), ("board.jpeg", 0.55)])
def test_real_turtles_under_a_shadow_are_read_right(name, depth):
    """The solved turtles under a deep shadow had been solved wrongly with no question (34 of 36 edges), the
    board under a lighter one wrongly behind a question (30 of 36): a shadowed red turtle read as a dark one."""
    photo = load_photo(REAL / name)
    halves = cut_halves(photo_from_array(cast_shadow(photo.image, (0.35, 0.4), 0.3, depth, softness=0.1)), 9)
    read = read_photo_edges(halves, "none", 3, 3)
    assert edges_right_up_to_renaming(read.reading.labels, grid_edges(truth_of(name))) == 36


def test_tiles_in_a_shadow_are_found():
    """Scattered tiles with a phone's shadow over some: their darkened faces no longer look like the face colour
    (with the likeness that costs all lightness lost, 8 of 9 tiles were found)."""
    scene = make_scene("random:5", 102, tier="easy")
    quads = find_tiles(photo_from_array(cast_shadow(scene.image, (0.65, 0.6), 0.25, 0.45)), 9)
    assert score_reading([q.corners for q in quads], None, scene.truth).exact == 9


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/realphotos is not beside the project")
def test_the_real_turtle_board_in_a_phone_shadow_is_cut_into_its_nine_tiles_and_read():
    """The board with a phone's shadow over its middle (realphoto_variants' 'phone shadow'): 7 tiles were found."""
    photo = load_photo(REAL / "board.jpeg")
    halves = cut_halves(photo_from_array(cast_shadow(photo.image, (0.4, 0.45), 0.25, 0.45)), 9)
    read = read_photo_edges(halves, "none", 3, 3)
    assert edges_right_up_to_renaming(read.reading.labels, grid_edges(truth_of("board.jpeg"))) == 36
