"""The faster stand-ins segmentation uses for numpy and OpenCV idioms give the very same numbers, to the bit: the
readings of a photo must not move when they are made faster."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from photosolve.vision.geometry import cross, line_through, quad_area, quantile, robust_line, side_lengths
from photosolve.vision.find.masks import boundary_points
from photosolve.vision.find.quads import densify
from photosolve.vision.find.sides import channel_norm, channel_sum, edge_support, remembered_support


@pytest.mark.parametrize("q", [0.7, 0.25, 0.75, 0.5, 0.0, 1.0, 0.123])
def test_quantile_is_numpys(q):
    rng = np.random.default_rng(1)
    for n in [1, 2, 3, 7, 48, 101, 300]:
        for values in (rng.normal(size=n), np.round(rng.normal(size=n), 1), np.abs(rng.normal(size=n)) * 1e4):
            assert quantile(values, q) == np.quantile(values, q)
    assert np.isnan(quantile(np.array([1.0, np.nan, 2.0]), q))


def test_cross_and_line_through_are_numpys():
    rng = np.random.default_rng(2)
    for _ in range(500):
        a, b = rng.normal(size=3) * 100, rng.normal(size=3) * 100
        assert np.array_equal(cross(a, b), np.cross(a, b))
        p, r = rng.normal(size=2) * 500, rng.normal(size=2) * 500
        line = np.cross(np.r_[p, 1.0], np.r_[r, 1.0])
        assert np.array_equal(line_through(p, r), line / np.hypot(line[0], line[1]))


def test_channel_sums_and_norms_are_numpys():
    rng = np.random.default_rng(3)
    for shape in [(160, 160, 3), (4, 64, 72, 3), (300, 3), (5, 7, 2)]:
        for dtype in (np.float32, np.float64):
            values = (rng.normal(size=shape) * 50).astype(dtype)
            assert np.array_equal(channel_sum(values), values.sum(axis=-1))
            assert np.array_equal(channel_norm(values), np.linalg.norm(values, axis=-1))
            assert np.array_equal(channel_norm(values[..., 1:]), np.linalg.norm(values[..., 1:], axis=-1))


def test_polygon_helpers_are_the_rolled_formulas():
    rng = np.random.default_rng(4)
    for n in range(3, 40):
        for polygon in (rng.integers(0, 1200, size=(n, 2)).astype(np.int32), rng.random((n, 2)) * 1200):
            rolled = np.roll(polygon, -1, axis=0)
            assert np.array_equal(side_lengths(polygon), np.linalg.norm(polygon - rolled, axis=1))
            x, y = polygon.astype(np.float64).T
            assert quad_area(polygon) == 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))
            points = []
            for start, end in zip(polygon, rolled):
                count = max(1, int(np.linalg.norm(end - start)))
                points.append(start + np.arange(count)[:, None] / count * (end - start))
            assert np.array_equal(densify(polygon), np.concatenate(points))


def test_robust_line_stopping_early_fits_the_same_line():
    """Stopping once a round keeps the points the last one kept gives the line all rounds give."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        x = np.arange(80.0)
        points = np.c_[x, 0.3 * x + rng.normal(0, 0.5, 80) + (rng.random(80) < 0.2) * 6]
        line = np.linalg.svd(points - points.mean(axis=0), full_matrices=False)[2][-1]
        line = np.r_[line, -line @ points.mean(axis=0)]
        for _ in range(3):
            distance = np.abs(points @ line[:2] + line[2])
            nearest = points[distance <= np.quantile(distance, 0.7)]
            centre = nearest.mean(axis=0)
            normal = np.linalg.svd(nearest - centre, full_matrices=False)[2][-1]
            line = np.r_[normal, -normal @ centre]
        assert np.array_equal(robust_line(points), line)


def test_a_regions_hull_from_its_boundary_is_opencvs_hull_of_all_its_pixels():
    """Same points, same order, same starting corner: later steps (approxPolyDP) depend on where a hull starts."""
    rng = np.random.default_rng(6)
    for _ in range(100):
        region = np.zeros((90, 110), np.uint8)
        centre = rng.uniform(30, 70, size=2)
        size = rng.uniform(12, 30)
        square = cv2.boxPoints(((centre[0], centre[1]), (size, size * rng.uniform(0.7, 1.3)), rng.uniform(0, 90)))
        cv2.fillConvexPoly(region, np.rint(square).astype(np.int32), 1)
        for _ in range(int(rng.integers(0, 5))):  # bites out of the face, as its motifs take
            cv2.circle(region, tuple(int(v) for v in rng.integers(0, 90, 2)), int(rng.integers(3, 12)), 0, -1)
        count, labels = cv2.connectedComponents(region, connectivity=4)
        for label in range(1, count):
            part = (labels == label).astype(np.uint8)
            if part.sum() < 3:
                continue
            every_pixel = np.column_stack(np.nonzero(part))[:, ::-1].astype(np.int32)
            assert np.array_equal(cv2.convexHull(boundary_points(part)), cv2.convexHull(every_pixel))


def test_remembered_support_is_edge_support():
    rng = np.random.default_rng(7)
    image = cv2.GaussianBlur((rng.random((200, 240, 3)) * 60).astype(np.float32), (5, 5), 0)
    cv2.rectangle(image, (60, 50), (150, 140), (255, 200, 200), -1)
    support = remembered_support(image)
    quad = np.array([[60.0, 50.0], [150.0, 50.0], [150.0, 140.0], [60.0, 140.0]])
    assert support(quad) == edge_support(quad, image) == support(quad[[2, 3, 0, 1]])
