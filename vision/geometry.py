"""Plane geometry for tile outlines: corner order, robust side lines and their intersections, homographies."""
from __future__ import annotations

import numpy as np


def order_clockwise(points: np.ndarray) -> np.ndarray:
    """Four points sorted clockwise on screen (y down) by their angle around the centroid."""
    points = np.asarray(points, dtype=np.float64)
    offset = points - points.mean(axis=0)
    return points[np.argsort(np.arctan2(offset[:, 1], offset[:, 0]))]


def north_first(corners: np.ndarray) -> np.ndarray:
    """Clockwise corners rotated to start at the W/N corner, N being the side whose outward normal points most up.

    Side i runs from corner i to corner i+1; with clockwise corners on screen, the outward normal of a side
    from p to q is (dy, -dx).
    """
    corners = order_clockwise(corners)
    following = np.roll(corners, -1, axis=0)
    direction = following - corners
    normals = np.stack([direction[:, 1], -direction[:, 0]], axis=1)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    upness = -normals[:, 1]  # screen "up" is -y
    return np.roll(corners, -int(np.argmax(upness)), axis=0)


def fit_line(points: np.ndarray) -> np.ndarray:
    """The total-least-squares line through points, as (a, b, c) with a*x + b*y + c = 0 and a^2 + b^2 = 1."""
    points = np.asarray(points, dtype=np.float64)
    centroid = points.sum(axis=0) / len(points)  # points.mean(axis=0) to the bit, without its overhead
    _, _, vt = np.linalg.svd(points - centroid, full_matrices=False)
    normal = vt[-1]
    return np.array([normal[0], normal[1], -normal @ centroid])


def robust_line(points: np.ndarray, rounds: int = 3, keep: float = 0.7) -> np.ndarray:
    """A line fitted, then refitted to the `keep` fraction of points nearest it: art and rounded corners are outliers."""
    points = np.asarray(points, dtype=np.float64)
    line = fit_line(points)
    kept = None
    for _ in range(rounds):
        distance = np.abs(points @ line[:2] + line[2])
        nearest = distance <= quantile(distance, keep)
        if nearest.sum() < 2:
            break
        if kept is not None and np.array_equal(nearest, kept):
            break  # the same points as last round: every further round would fit the same line again
        kept = nearest
        line = fit_line(points[nearest])
    return line


def quantile(values: np.ndarray, q: float) -> float:
    """np.quantile(values, q) (its default, linear interpolation) to the bit, for the small arrays of a tile's
    sides, where np.quantile's own overhead costs thirty times the partition it needs."""
    values = np.ravel(values)
    if np.isnan(values).any():
        return float("nan")
    index = (len(values) - 1) * q  # as numpy computes it: which sorted values are interpolated, and how
    if index >= len(values) - 1:
        return float(np.max(values))
    below = int(np.floor(index))
    low, high = np.partition(values, (below, below + 1))[below:below + 2]
    gamma = index - below
    step = high - low
    return float(high - step * (1 - gamma) if gamma >= 0.5 else low + step * gamma)


def cross(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The cross product of two 3-vectors, as np.cross computes it, without its overhead (it is called per side)."""
    a0, a1, a2 = first
    b0, b1, b2 = second
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def intersect(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The point where two lines (a, b, c) cross."""
    point = cross(first, second)
    if abs(point[2]) < 1e-12:
        raise ValueError("parallel lines do not intersect")
    return point[:2] / point[2]


def quad_from_lines(lines: list[np.ndarray]) -> np.ndarray:
    """Corners of the quadrilateral bounded by four lines given in order around it: corner i = lines[i-1] x lines[i]."""
    return np.array([intersect(lines[i - 1], lines[i]) for i in range(4)])


def square_homography(corners: np.ndarray, size: int) -> np.ndarray:
    """The homography taking the quad (clockwise from its top-left corner) onto the square [0, size]^2."""
    import cv2

    target = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float32)
    return cv2.getPerspectiveTransform(np.asarray(corners, dtype=np.float32), target)


def apply_homography(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N x 2) mapped through a 3 x 3 homography."""
    points = np.asarray(points, dtype=np.float64)
    mapped = np.column_stack([points, np.ones(len(points))]) @ np.asarray(matrix, dtype=np.float64).T
    return mapped[:, :2] / mapped[:, 2:3]


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """The lengths of a quad's four sides, side i running from corner i to corner i+1."""
    step = following(quad) - quad
    return np.sqrt(step[:, 0] * step[:, 0] + step[:, 1] * step[:, 1])  # np.linalg.norm(axis=1) to the bit


def mean_side(quad: np.ndarray) -> float:
    """A quad's mean side length: a tile's size in pixels, whatever its tilt."""
    return float(np.mean(side_lengths(quad)))


def quad_area(corners: np.ndarray) -> float:
    """Area of a simple polygon by the shoelace formula."""
    x, y = np.asarray(corners, dtype=np.float64).T
    return 0.5 * abs(float(x @ following(y) - y @ following(x)))


def following(points: np.ndarray) -> np.ndarray:
    """Each point's successor around a closed polygon: np.roll(points, -1, axis=0) without its overhead (this
    runs for every side of every outline)."""
    return np.concatenate((points[1:], points[:1]))


def line_through(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The line (a, b, c) through two points, scaled so that a^2 + b^2 = 1 (then a*x + b*y + c is a distance)."""
    (x0, y0), (x1, y1) = np.asarray(first, dtype=np.float64), np.asarray(second, dtype=np.float64)
    line = cross((x0, y0, 1.0), (x1, y1, 1.0))
    return line / np.hypot(line[0], line[1])


def rescale_points(points: np.ndarray, scale: float) -> np.ndarray:
    """Points in a copy of an image downscaled by `scale` mapped to the full image (pixel centres at integers)."""
    return (np.asarray(points, dtype=np.float64) + 0.5) * scale - 0.5
