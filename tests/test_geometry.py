"""Geometry of tile outlines, checked against independent formulas, without images."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from photosolve.vision.find.blocks import grid_shape
from photosolve.vision.geometry import (apply_homography, fit_line, intersect, north_first, order_clockwise,
                                        quad_area, quad_from_lines, robust_line, square_homography)
from photosolve.vision.find.quads import densify, fit_quad
from photosolve.vision.find.squaring import square_on_side


def square(center=(200.0, 150.0), side=100.0, degrees=0.0) -> np.ndarray:
    """Corners of a square turned `degrees` clockwise on screen, starting from its (turned) top-left corner."""
    angle = math.radians(degrees)
    rotation = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    return unit @ rotation.T + np.array(center)


def is_clockwise_on_screen(points: np.ndarray) -> bool:
    # With y pointing down, a positive shoelace sum means clockwise as seen on screen.
    x, y = points.T
    return float(x @ np.roll(y, -1) - y @ np.roll(x, -1)) > 0


@pytest.mark.parametrize("degrees", [0, 10, 30, 44, 45, 46, 60, 89, 90, 135, 181, 270, 315, 359])
def test_north_first_starts_at_the_corner_between_west_and_north(degrees):
    corners = square(degrees=degrees)
    shuffled = corners[[2, 0, 3, 1]]
    ordered = north_first(shuffled)
    assert is_clockwise_on_screen(ordered)
    # The N side (corner 0 to corner 1) is the side whose outward normal points most nearly up.
    center = ordered.mean(axis=0)
    midpoints = (ordered + np.roll(ordered, -1, axis=0)) / 2
    upness = -(midpoints - center)[:, 1]
    assert int(np.argmax(upness)) == 0 or math.isclose(upness[0], upness.max(), abs_tol=1e-9)


def test_order_clockwise_keeps_every_point():
    corners = square(degrees=45)
    ordered = order_clockwise(corners[::-1])
    assert sorted(map(tuple, ordered.round(6))) == sorted(map(tuple, corners.round(6)))
    assert is_clockwise_on_screen(ordered)


def test_fit_line_on_exact_points():
    points = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 5.0], [3.0, 7.0]])  # y = 2x + 1
    a, b, c = fit_line(points)
    assert np.allclose(points @ np.array([a, b]) + c, 0, atol=1e-9)
    assert math.isclose(a * a + b * b, 1.0)


def test_robust_line_ignores_outliers():
    rng = np.random.default_rng(0)
    x = np.linspace(0, 100, 200)
    points = np.c_[x, 0.5 * x + 10 + rng.normal(0, 0.2, len(x))]
    points[50:80, 1] += 15  # a motif dents the outline
    a, b, c = robust_line(points)
    slope, offset = -a / b, -c / b
    assert abs(slope - 0.5) < 0.01 and abs(offset - 10) < 0.5


def test_intersect_matches_the_solution_of_two_equations():
    first, second = np.array([1.0, -1.0, 0.0]), np.array([1.0, 1.0, -4.0])  # y = x and y = 4 - x
    assert np.allclose(intersect(first, second), [2.0, 2.0])
    with pytest.raises(ValueError):
        intersect(first, np.array([2.0, -2.0, 5.0]))


def test_quad_from_lines_recovers_corners():
    corners = square(degrees=20)
    lines = [np.cross(np.r_[corners[i], 1], np.r_[corners[(i + 1) % 4], 1]) for i in range(4)]
    assert np.allclose(quad_from_lines(lines), corners)


def test_homography_round_trip():
    quad = np.array([[10.0, 20.0], [300.0, 40.0], [280.0, 330.0], [30.0, 290.0]])
    matrix = square_homography(quad, 100)
    assert np.allclose(apply_homography(matrix, quad), [[0, 0], [100, 0], [100, 100], [0, 100]], atol=1e-3)
    back = apply_homography(np.linalg.inv(matrix), [[50.0, 50.0], [0.0, 100.0]])
    assert np.allclose(apply_homography(matrix, back), [[50, 50], [0, 100]], atol=1e-3)


def test_quad_area_of_a_turned_square():
    assert math.isclose(quad_area(square(side=30, degrees=33)), 900.0)


@pytest.mark.parametrize("degrees", [0, 17, 45, 80])
def test_fit_quad_finds_sharp_corners_of_a_rounded_square(degrees):
    corners = square(side=200, degrees=degrees)
    # Round every corner off by 12 px: the outline a rounded cardboard tile gives.
    outline = []
    for i in range(4):
        start, end = corners[i], corners[(i + 1) % 4]
        direction = (end - start) / np.linalg.norm(end - start)
        outline.append(start + 12 * direction)
        outline.append(end - 12 * direction)
    found = north_first(fit_quad(densify(np.array(outline))))
    assert np.max(np.linalg.norm(found - north_first(corners), axis=1)) < 0.5


def test_grid_shape_from_aspect_ratio():
    wide = np.array([[0, 0], [400, 0], [400, 200], [0, 200]], dtype=float)
    assert grid_shape(8, wide) == (2, 4)
    assert grid_shape(9, square(side=300)) == (3, 3)


def test_a_square_stands_on_each_side_of_an_outline():
    # An outline that lost its right part: the square on its left side (side 3, running up) is the whole tile.
    cut = np.array([[0.0, 0.0], [60.0, 0.0], [60.0, 100.0], [0.0, 100.0]])
    assert np.allclose(square_on_side(cut, 3), [[0, 0], [100, 0], [100, 100], [0, 100]])
    for side in range(4):
        square = square_on_side(cut, side)
        lengths = np.linalg.norm(square - np.roll(square, -1, axis=0), axis=1)
        assert np.allclose(lengths, lengths[0])
        assert np.allclose(square[side], cut[side]) and np.allclose(square[(side + 1) % 4], cut[(side + 1) % 4])
        assert cv2.pointPolygonTest(square.astype(np.float32), (30.0, 50.0), False) >= 0  # it reaches inward
