"""A tile's face made white when a bright light cuts one channel off at the camera's top (vision/read/features.py).

A bluish face under strong light reads 255 in blue wherever the light is strong while red and green still fall
off across the tile; fitted as it reads, blue's plane lies flat and the face turns yellow on its bright side.
"""
from __future__ import annotations

import numpy as np

from photosolve.scenes.evaluate import edges_right_up_to_renaming
from photosolve.scenes.scene import make_scene
from photosolve.vision.read.features import white_balanced
from photosolve.vision.read.selflabel import self_label

from .test_selflabel import motif_count, true_halves


def shaded_tile(size: int = 128) -> np.ndarray:
    """A bluish face lit brightly from the left, blue cut off at 255 on most of it, with a grey bar for motif."""
    x = (np.arange(size) + 0.5) / size - 0.5
    light = np.exp(-0.5 * x)[None, :, None] * np.ones((size, 1, 1))
    face = np.array([170.0, 185.0, 290.0])  # blue above the top where the light is strong
    tile = light * face
    tile[50:78, 20:108] = light[50:78, 20:108] * np.array([90.0, 90.0, 90.0])  # a neutral grey motif
    return np.clip(np.round(tile), 0, 255).astype(np.uint8)


def test_a_face_cut_off_in_one_channel_stays_neutral_across_the_tile():
    balanced = white_balanced(shaded_tile())
    for columns in (slice(4, 20), slice(108, 124)):  # the bright and the dark side of the face
        red, _, blue = balanced[4:40, columns].reshape(-1, 3).mean(axis=0)
        assert abs(blue - red) < 0.02


def test_a_light_falling_across_tiles_no_longer_splits_a_half_type():
    # Never-seen, hard: a mantis head on a tile whose blue is cut off turned yellow and was read, with its
    # neighbour half, as a fourth motif (3 motifs read as 4).
    scene = make_scene("random:3", 10044, tier="hard")
    bands, edges = true_halves(scene)
    found = self_label(bands, scene.truth["rows"], scene.truth["cols"])
    assert found.motifs == motif_count(edges)
    assert edges_right_up_to_renaming(found.reading.labels, edges) == edges.size
