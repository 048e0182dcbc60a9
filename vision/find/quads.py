"""A convex outline fitted with four corners: lines fitted to its sides and intersected, or, where a corner was
lost, the smallest tile-shaped quad its side lines bound."""
from __future__ import annotations

import itertools

import cv2
import numpy as np

from ..geometry import following, line_through, quad_from_lines, robust_line
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
    outline = hull.astype(np.float32)
    perimeter = cv2.arcLength(outline, True)
    low, high = 0.0, 0.2 * perimeter
    best = None
    for _ in range(30):
        epsilon = (low + high) / 2
        poly = cv2.approxPolyDP(outline, epsilon, True).reshape(-1, 2)
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
    starts = np.asarray(polygon)
    sides = following(starts) - starts
    # Each side's length as np.linalg.norm measures it (the root of a dot product), so the counts are the same.
    counts = [max(1, int(np.sqrt(side.dot(side)) / step)) for side in sides.astype(np.float64)]
    # Point k of a side with n points lies k / n of the way along it.
    t = np.concatenate([np.arange(count) for count in counts]) / np.repeat(counts, counts)
    return np.repeat(starts, counts, axis=0) + t[:, None] * np.repeat(sides, counts, axis=0)


def signed_area(polygon: np.ndarray) -> float:
    """Area of a polygon, positive when it runs clockwise on screen (y down)."""
    x, y = polygon.T
    return 0.5 * float(x @ np.roll(y, -1) - y @ np.roll(x, -1))


def enclosing_quad(hull: np.ndarray, most_sides: int = 12) -> np.ndarray | None:
    """The smallest tile-shaped quad bounded by four of the lines along a convex outline's sides (simplified to
    at most `most_sides` sides), which holds the whole outline; None when no four of them bound one.

    Tile-shaped: sides within a factor 1.5 of each other, corners between 50 and 130 degrees (what a square
    looks like under any tilt a phone photo of a table has); a line cutting a corner off bounds no such quad."""
    outline = hull.reshape(-1, 2).astype(np.float32)
    perimeter = cv2.arcLength(outline, True)
    simple = outline
    for fraction in (0.005, 0.01, 0.02, 0.04):
        simple = cv2.approxPolyDP(outline, fraction * perimeter, True).reshape(-1, 2).astype(np.float64)
        if len(simple) <= most_sides:
            break
    if len(simple) < 4 or len(simple) > most_sides:
        return None
    if signed_area(simple) < 0:
        simple = simple[::-1]
    following = np.roll(simple, -1, axis=0)
    lines = np.array([line_through(a, b) for a, b in zip(simple, following)])
    heading = np.arctan2(*(following - simple).T[::-1])
    chosen = np.array(list(itertools.combinations(range(len(simple)), 4)))
    # The four sides bound a quad when each turns less than half a turn to the next.
    turns = np.mod(np.diff(heading[np.c_[chosen, chosen[:, :1]]], axis=1), 2 * np.pi)
    chosen = chosen[np.all(turns < np.pi - 1e-6, axis=1)]
    if not len(chosen):
        return None
    # Corner i where side i-1 meets side i, as in quad_from_lines.
    points = np.cross(lines[np.roll(chosen, 1, axis=1)], lines[chosen])
    with np.errstate(divide="ignore", invalid="ignore"):  # parallel sides meet nowhere: not tile-shaped
        quads = points[..., :2] / points[..., 2:3]
    shaped = tile_shaped(quads)
    if not shaped.any():
        return None
    quads = quads[shaped]
    x, y = quads[..., 0], quads[..., 1]
    areas = np.abs(np.einsum("qi,qi->q", x, np.roll(y, -1, axis=1)) - np.einsum("qi,qi->q", y, np.roll(x, -1, axis=1)))
    return quads[int(np.argmin(areas))]


def tile_shaped(quads: np.ndarray) -> np.ndarray:
    """Which quads (... x 4 x 2) could be a square tile seen by a phone: sides alike, no corner far from square."""
    sides = quads - np.roll(quads, 1, axis=-2)
    lengths = np.linalg.norm(sides, axis=-1)
    alike = lengths.max(axis=-1) <= 1.5 * lengths.min(axis=-1)
    cosines = np.einsum("...ij,...ij->...i", -sides, np.roll(sides, -1, axis=-2)) / np.maximum(
        lengths * np.roll(lengths, -1, axis=-1), 1e-9)
    return alike & np.all(np.abs(cosines) < np.cos(np.radians(50)), axis=-1) & np.all(np.isfinite(quads), axis=(-1, -2))
