"""Tiles found by what is true of every such photo: the table shows between hand-laid tiles, the table's colours are
the photo's border's (not a tile's that reaches it), all tiles are about one size, and a tile outlined alike by
masks made in different ways is outlined right."""
from __future__ import annotations

import cv2
import numpy as np

from photosolve.vision.find.background import DIFFERENCE_THRESHOLDS, table_difference
from photosolve.vision.find.gaps import off_gaps
from photosolve.vision.find.outlines import sized, tiles_held
from photosolve.vision.find.segment import EDGE_WEIGHTS
from photosolve.vision.find.sides import agreed_outlines, order_screen_clockwise
from photosolve.vision.find.table import table_level

TABLE = (118, 82, 52)  # a wooden table's brown
FACE = (236, 232, 222)
FRAME = (170, 180, 230)  # a pale blue frame printed along each tile's edge


def noisy(image: np.ndarray, seed: int = 0) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def lab_of(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32)


def square(x: float, y: float, side: float) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], dtype=np.float64)


def draw_tile(image: np.ndarray, corners: np.ndarray) -> None:
    """A tile with a frame printed along its edge, 5 pixels wide."""
    cv2.fillConvexPoly(image, np.rint(corners).astype(np.int32), FRAME)
    centre = corners.mean(axis=0)
    inner = centre + (corners - centre) * (1 - 10 / np.ptp(corners[:, 0]))
    cv2.fillConvexPoly(image, np.rint(inner).astype(np.int32), FACE)


def two_tiles_on_the_table(gap: int, paint=None):
    """Two framed tiles 200 pixels a side, `gap` apart, on the wooden table (`paint(image)` adds to them): the left
    tile's true outline, the Lab image, its difference from the table, and the table's level."""
    image = np.zeros((400, 700, 3), np.uint8)
    image[:] = TABLE
    left, right = square(100, 100, 200), square(300 + gap, 100, 200)
    for tile in (left, right):
        draw_tile(image, tile)
    if paint is not None:
        paint(image)
    lab = lab_of(noisy(image))
    difference = table_difference(lab)
    return left, lab, difference, table_level([left, right], difference)


def moved_off_gaps(cell: np.ndarray, lab: np.ndarray, difference: np.ndarray, level: float) -> np.ndarray:
    """The left tile's cell, its east side facing the right tile, taken off the gaps."""
    return order_screen_clockwise(off_gaps(cell, [False, True, False, False], difference, level, lab * EDGE_WEIGHTS))


def test_a_cell_that_crossed_the_gap_into_its_neighbour_is_taken_back_to_its_tile():
    # Two hand-laid tiles 200 pixels a side, a gap of 10 between them showing the table; the even grid's cell for the
    # left tile reaches across the gap onto the right one's frame.
    left, lab, difference, level = two_tiles_on_the_table(10)
    cell = left + np.array([[0, 0], [13, 0], [13, 0], [0, 0]])
    assert np.max(np.linalg.norm(moved_off_gaps(cell, lab, difference, level) - left, axis=1)) < 0.02 * 200


def test_a_motif_in_the_table_colour_by_a_side_is_no_gap():
    # A blob the table's colour just inside a side that faces a neighbour (a white shark by a solved board's seam on
    # a white desk): no gap runs straight along the side there, so the side stays.
    left, lab, difference, level = two_tiles_on_the_table(
        0, lambda image: cv2.ellipse(image, (285, 200), (12, 40), 0, 0, 360, TABLE, -1))
    assert np.max(np.linalg.norm(moved_off_gaps(left, lab, difference, level) - left, axis=1)) < 0.01 * 200


def test_a_dark_tile_reaching_near_the_photos_edge_is_not_taken_for_the_table():
    # A white desk, dark tiles; one tile's corner 9 pixels from the photo's edge reaches into the ring of border
    # colours: its colour was taken for one of the table's, and every dark tile looked like the table.
    image = np.zeros((450, 600, 3), np.uint8)
    image[:] = (222, 222, 218)
    diamond = np.array([[9, 200], [87, 122], [165, 200], [87, 278]], dtype=np.float64)
    tiles = [diamond, square(250, 170, 110), square(420, 60, 110)]
    for tile in tiles:
        cv2.fillConvexPoly(image, np.rint(tile).astype(np.int32), (30, 28, 34))
    difference = table_difference(lab_of(noisy(image)))
    for tile in tiles[1:]:
        x, y = np.rint(tile.mean(axis=0)).astype(int)
        assert difference[y, x] > max(DIFFERENCE_THRESHOLDS)


def rectangle(width: float, height: float, x: float = 0.0) -> np.ndarray:
    return np.array([[x, 0], [x + width, 0], [x + width, height], [x, height]], dtype=np.float64)


def test_a_block_of_four_and_a_pair_beside_lone_tiles_count_nine():
    # A grid whose mask joined four tiles and two: the lone tiles, each just under a quarter of the block, are no
    # longer left out of the tile size (the median of a block of four and a pair is no tile's size).
    hulls = [rectangle(396, 396), rectangle(196, 396, 500), rectangle(195, 195, 800), rectangle(195, 195, 1100),
             rectangle(195, 195, 1400)]
    hulls, areas, local = sized(hulls, 9)
    assert [tiles_held(h, a / here, 9) for h, a, here in zip(hulls, areas, local)] == [4, 2, 1, 1, 1]


def test_the_outline_more_kinds_of_reading_agree_on_replaces_the_chosen_one():
    right = square(100, 100, 200)
    wrong = right + np.array([[0, 0], [12, 0], [12, 0], [0, 0]])  # a side on a printed frame 6% off
    support = lambda quad: 1.0  # noqa: E731 - every outline on edges as sharp: only agreement decides
    kinds = [[[(wrong, True)]], [[(right, True)]], [[(right + 1, True)]]]
    agreed = agreed_outlines([(wrong, True)], kinds, support)
    assert np.allclose(order_screen_clockwise(agreed[0][0]), right)
    # As many kinds each way: the chosen outline stays.
    kinds = [[[(wrong, True)]], [[(right, True)]]]
    assert agreed_outlines([(wrong, True)], kinds, support)[0][0] is wrong


def test_a_face_in_the_table_colour_past_a_seam_is_no_gap():
    # A solved board on marble: a stripe of the left tile's face, the table's colour, runs along its seam deeper than
    # any gap between hand-laid tiles; no gap ends there, so the side stays on the seam.
    left, lab, difference, level = two_tiles_on_the_table(
        0, lambda image: cv2.rectangle(image, (272, 110), (294, 290), TABLE, -1))
    assert np.max(np.linalg.norm(moved_off_gaps(left, lab, difference, level) - left, axis=1)) < 0.01 * 200
