"""Every tile is the same square (vision/find/same_size.py): one homography takes all the outlines to unit squares,
and an outline a shadow widened is brought back to the others' size on the tile's own edge."""
from __future__ import annotations

import cv2
import numpy as np

from photosolve.vision.find.same_size import to_size, unit_plane, widths
from photosolve.vision.find.segment import EDGE_WEIGHTS
from photosolve.vision.geometry import apply_homography

SIDE = 150  # pixels on the table's plane
CAMERA = np.array([[0.95, 0.08, 60.0], [-0.04, 0.9, 40.0], [0.00012, 0.00018, 1.0]])  # a tilted phone's view


def squares_on_table() -> list[np.ndarray]:
    """Nine tile outlines on the table's plane, scattered and turned, corners clockwise on screen."""
    rng = np.random.default_rng(5)
    tiles = []
    for row in range(3):
        for col in range(3):
            angle = np.radians(rng.uniform(-20, 20))
            turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
            corners = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * SIDE / 2) @ turn.T
            tiles.append(corners + [130 + 230 * col, 130 + 220 * row])
    return tiles


def photo_of(tiles: list[np.ndarray], shadow: int) -> np.ndarray:
    """The tiles drawn on a wooden-brown table, each casting a dark shadow `shadow` pixels wide beyond its right
    side (table plane), then seen through CAMERA."""
    rng = np.random.default_rng(7)
    table = np.clip(rng.normal([150, 120, 90], 6, (720, 760, 3)), 0, 255).astype(np.uint8)
    for tile in tiles:
        cast = tile.copy()
        cast[[1, 2]] += shadow * (tile[1] - tile[0]) / np.linalg.norm(tile[1] - tile[0])
        cv2.fillPoly(table, [np.rint(cast).astype(np.int32)], (70, 56, 42))
        cv2.fillPoly(table, [np.rint(tile).astype(np.int32)], (235, 228, 210))
        centre = tile.mean(axis=0)
        cv2.fillPoly(table, [np.rint(centre + 0.45 * (tile - centre)).astype(np.int32)], (40, 90, 170))
    return cv2.warpPerspective(table, CAMERA, (900, 760), flags=cv2.INTER_LINEAR)


def edges_of(image: np.ndarray) -> np.ndarray:
    """The image as segment.py weighs it for edges."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    return lab * EDGE_WEIGHTS


def test_the_plane_of_unit_squares_is_found_through_a_tilted_camera():
    seen = [apply_homography(CAMERA, tile) for tile in squares_on_table()]
    to_plane = unit_plane(np.array(seen))
    assert all(np.allclose(widths(quad, to_plane), 1, atol=2e-3) for quad in seen)


def test_an_outline_widened_by_its_shadow_is_brought_back_to_the_tiles_edge():
    table_tiles = squares_on_table()
    image = photo_of(table_tiles, shadow=12)
    true = [apply_homography(CAMERA, tile) for tile in table_tiles]
    found = [quad.copy() for quad in true]
    # the fifth tile outlined to its shadow's far edge: 8% of a side too wide
    widened = table_tiles[4].copy()
    widened[[1, 2]] += 12 * (widened[1] - widened[0]) / SIDE
    found[4] = apply_homography(CAMERA, widened)
    sized = to_size(found, edges_of(image), 1.0)
    assert all(sized[i] is found[i] for i in range(9) if i != 4)  # the right ones are given back untouched
    side = np.linalg.norm(true[4][1] - true[4][0])
    assert np.abs(sized[4] - true[4]).max() < 0.015 * side < np.abs(found[4] - true[4]).max()


def test_outlines_of_one_size_are_left_as_they_are():
    table_tiles = squares_on_table()
    true = [apply_homography(CAMERA, tile) for tile in table_tiles]
    sized = to_size(true, edges_of(photo_of(table_tiles, shadow=12)), 1.0)
    assert all(new is old for new, old in zip(sized, true))
