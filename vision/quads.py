"""A convex outline fitted with the four corners of a tile: lines fitted to its sides, then intersected."""
from __future__ import annotations

import cv2
import numpy as np

from .geometry import quad_from_lines, robust_line
from .sides import order_screen_clockwise

def fit_quad(hull: np.ndarray) -> np.ndarray:
    """Four corners of a convex outline: lines fitted to its four sides, then intersected (corners are rounded)."""
    rough = rough_quad(hull)
    outline = densify(hull)
    lines = []
    for i in range(4):
        start, end = rough[i], rough[(i + 1) % 4]
        direction = end - start
        length = float(np.linalg.norm(direction))
        along = (outline - start) @ direction / length**2
        normal = np.array([direction[1], -direction[0]]) / length
        away = np.abs((outline - start) @ normal)
        near = outline[(along > 0.15) & (along < 0.85) & (away < 0.08 * length)]
        lines.append(robust_line(near) if len(near) >= 4 else robust_line(np.array([start, end])))
    try:
        return quad_from_lines(lines)
    except ValueError:
        return rough


def rough_quad(hull: np.ndarray) -> np.ndarray:
    """The hull simplified to four vertices, clockwise on screen."""
    perimeter = cv2.arcLength(hull.astype(np.float32), True)
    low, high = 0.0, 0.2 * perimeter
    best = None
    for _ in range(30):
        epsilon = (low + high) / 2
        poly = cv2.approxPolyDP(hull.astype(np.float32), epsilon, True).reshape(-1, 2)
        if len(poly) > 4:
            low = epsilon
        elif len(poly) < 4:
            high = epsilon
        else:
            best = poly
            high = epsilon
    if best is None:
        best = cv2.boxPoints(cv2.minAreaRect(hull.astype(np.float32)))
    return order_screen_clockwise(best.astype(np.float64))


def densify(polygon: np.ndarray, step: float = 1.0) -> np.ndarray:
    """Points every `step` pixels along a closed polygon's sides."""
    points = []
    for start, end in zip(polygon, np.roll(polygon, -1, axis=0)):
        count = max(1, int(np.linalg.norm(end - start) / step))
        t = np.arange(count)[:, None] / count
        points.append(start + t * (end - start))
    return np.concatenate(points)


def signed_area(polygon: np.ndarray) -> float:
    """Area of a polygon, positive when it runs clockwise on screen (y down)."""
    x, y = polygon.T
    return 0.5 * float(x @ np.roll(y, -1) - y @ np.roll(x, -1))
