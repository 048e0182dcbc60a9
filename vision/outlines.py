"""Rough tile outlines from a mask: one quad per lone tile, an R x C grid of them per block of touching tiles."""
from __future__ import annotations

import math

import cv2
import numpy as np

from .geometry import apply_homography, quad_area, quad_from_lines, robust_line
from .sides import edge_strength, order_screen_clockwise, rectified


def rough_quads(components: list[tuple[np.ndarray, int]], image: np.ndarray) -> list[tuple[np.ndarray, bool]]:
    """Rough tile outlines (work pixels) of components, each marked whether it was a lone tile (not split from a
    block): one per lone tile, a grid of them per block."""
    quads: list[tuple[np.ndarray, bool]] = []
    for hull, count in components:
        if count == 1:
            quads.append((fit_quad(hull), True))
        else:
            quads.extend((q, False) for q in split_grid(fit_quad(hull), count, image))
    return quads


def tile_components(mask: np.ndarray, expected: int) -> list[tuple[np.ndarray, int]]:
    """Convex outlines of the regions big enough to be tiles, each with how many tiles it holds.

    Regions touching the photo's border are the table or things on it, not tiles (a tile cut off by the frame
    cannot be read anyway). Regions whose outlines nearly touch are one block: the seams of touching tiles
    break the mask only in places.
    """
    hulls = [h for h in cluster_hulls(outline_hulls(mask), mask.shape) if not touches_border(h, mask.shape)]
    if not hulls:
        return []
    areas = np.array([quad_area(h) for h in hulls])
    order = np.argsort(-areas)
    hulls, areas = [hulls[i] for i in order], areas[order]
    total = areas[: expected].sum()
    # The typical tile: the median of the biggest components, unless one component holds them all.
    big = areas[areas > 0.25 * areas[0]]
    tile_area = float(np.median(big[: expected]))
    if areas[0] > 0.5 * total and len(big) < expected:
        tile_area = areas[0] / max(1, expected - (len(big) - 1))
    components = []
    for hull, area in zip(hulls, areas):
        count = int(round(area / tile_area))
        if count < 1 or area < 0.4 * tile_area:
            continue
        components.append((hull, count))
    return components


def outline_hulls(mask: np.ndarray) -> list[np.ndarray]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hulls = [cv2.convexHull(c).reshape(-1, 2) for c in contours if len(c) >= 3 and cv2.contourArea(c) >= 16]
    return [h for h in hulls if len(h) >= 3]


def cluster_hulls(hulls: list[np.ndarray], shape: tuple[int, ...], reach: int = 3) -> list[np.ndarray]:
    """Hulls that overlap or lie within `reach` pixels of each other, merged into the hull of their union when
    they fill it (pieces of one block do; neighbouring lone tiles joined by a speck do not)."""
    if not hulls:
        return []
    areas = np.array([quad_area(h) for h in hulls])
    hulls = [h for h, area in zip(hulls, areas) if area >= 0.02 * areas.max()]  # specks bridge nothing
    canvas = np.zeros(shape[:2], np.uint8)
    for hull in hulls:
        cv2.fillConvexPoly(canvas, hull.astype(np.int32), 255)
    canvas = cv2.dilate(canvas, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1)))
    _, labels = cv2.connectedComponents(canvas, connectivity=8)
    groups: dict[int, list[np.ndarray]] = {}
    for hull in hulls:
        x, y = hull[0].astype(int)
        groups.setdefault(int(labels[y, x]), []).append(hull)
    merged = []
    for group in groups.values():
        union = cv2.convexHull(np.concatenate(group).astype(np.int32)).reshape(-1, 2).astype(np.float64)
        filled = sum(quad_area(h) for h in group) >= 0.8 * quad_area(union)
        merged.extend([union] if len(group) == 1 or filled else [h.astype(np.float64) for h in group])
    return [m for m in merged if len(m) >= 4]


def touches_border(hull: np.ndarray, shape: tuple[int, ...], margin: float = 2.0) -> bool:
    height, width = shape[:2]
    return bool(hull.min() < margin or hull[:, 0].max() > width - 1 - margin or hull[:, 1].max() > height - 1 - margin)


def plausible(quads: list[np.ndarray]) -> bool:
    """Whether rough quads can be tiles of one set: similar sizes, roughly square, none overlapping another."""
    sides = np.array([np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1) for q in quads])
    mean = sides.mean(axis=1)
    if mean.max() > 1.8 * mean.min():  # perspective makes near tiles bigger, never by this much
        return False
    if np.any(sides.max(axis=1) > 1.8 * sides.min(axis=1)):
        return False
    centres = np.array([q.mean(axis=0) for q in quads])
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(quads)) * 1e9
    return bool(distance.min() > 0.6 * mean.min())


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


def grid_shape(count: int, quad: np.ndarray) -> tuple[int, int]:
    """Rows and columns of a block of `count` touching tiles, from the block's aspect ratio."""
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    shapes = [(r, count // r) for r in range(1, count + 1) if count % r == 0]
    return min(shapes, key=lambda rc: abs(math.log((width / rc[1]) / (height / rc[0]))))


def split_grid(block: np.ndarray, count: int, image: np.ndarray, cell: int = 96) -> list[np.ndarray]:
    """Rough outlines of the tiles of a block of touching (or nearly touching) tiles, as an R x C grid.

    The block is rectified so each tile is about `cell` pixels square; the tile size and the place of each
    inner row and column are those whose edges are strongest in the block's edge profiles. Gaps between tiles
    are allowed: tiles are all one size, the gaps need not be.
    """
    rows, cols = grid_shape(count, block)
    canvas, from_canvas = rectified(image, block, cols * cell, rows * cell, 0)
    across_x, across_y = edge_strength(canvas)
    starts_x, side_x = place_cells(across_x.mean(axis=0), cols, cell)
    starts_y, side_y = place_cells(across_y.mean(axis=1), rows, cell)
    quads = []
    for top in starts_y:
        for left in starts_x:
            corners = np.array([[left, top], [left + side_x, top], [left + side_x, top + side_y],
                                [left, top + side_y]])
            quads.append(apply_homography(from_canvas, corners))
    return quads


def place_cells(profile: np.ndarray, count: int, cell: int) -> tuple[list[float], float]:
    """Where `count` equal cells start along a block `count * cell` long, and their size, from an edge profile.

    The first cell starts at 0 and the last ends at the block's end; between them each cell sits where its two
    edges are strongest.
    """
    span = count * cell
    if count == 1:
        return [0.0], float(cell)
    positions = np.arange(len(profile), dtype=np.float64)

    def strength(x: np.ndarray) -> np.ndarray:
        return np.interp(x, positions, profile)

    best, best_score = ([float(c * cell) for c in range(count)], float(cell)), -np.inf
    for side in np.arange(0.8 * cell, cell + 0.25, 0.5):
        starts = [0.0]
        score = 0.0
        for c in range(1, count - 1):
            options = np.arange(c * side, span - (count - c) * side + 0.25, 0.5)
            value = strength(options) + strength(options + side)
            pick = int(np.argmax(value))
            starts.append(float(options[pick]))
            score += float(value[pick])
        if count > 1:
            starts.append(span - side)
            score += float(strength(np.array([side, span - side])).sum())
        if score > best_score:
            best, best_score = (starts, float(side)), score
    return best
