"""A tile's face running on past a side of its outline: how a mask that lost a shaded strip of a face is told from
the tile's own outline."""
from __future__ import annotations

import cv2
import numpy as np

from photosolve.vision.find.segment import EDGE_WEIGHTS
from photosolve.vision.find.sides import face_runs_on


def weighted_lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32) * EDGE_WEIGHTS


def photo_of_a_tile() -> np.ndarray:
    """A white tile, 200 pixels a side, on a pale beige table, its lower fifth a little shaded, with a dark motif
    half on its left side."""
    tile = np.full((200, 200, 3), 235, np.uint8)
    tile[160:] = 231  # shading: a strict face mask loses this strip
    cv2.circle(tile, (0, 100), 40, (30, 30, 120), -1)
    image = np.full((400, 400, 3), (205, 195, 175), np.uint8)
    image[100:300, 100:300] = tile
    return image


def test_a_tile_outline_has_no_face_beyond_it():
    tile = np.array([[100, 100], [300, 100], [300, 300], [100, 300]], dtype=float)
    assert face_runs_on(tile, weighted_lab(photo_of_a_tile())).sum() == 0


def test_an_outline_cut_short_of_a_shaded_strip_has_the_face_beyond_its_side():
    cut = np.array([[100, 100], [300, 100], [300, 260], [100, 260]], dtype=float)
    runs = face_runs_on(cut, weighted_lab(photo_of_a_tile()))
    assert runs[2] >= 12 and runs[0] == runs[1] == runs[3] == 0  # the bottom side, clockwise from the top
