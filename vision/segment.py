"""Find every tile in a photo: a mask of the tiles' face colour, one convex outline per tile, corners from side lines.

Tiles lying apart become one component each; tiles touching each other (a grid, a solved board) form one
component that is split along the seams of an R x C grid.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .errors import WrongTileCount
from .geometry import apply_homography, north_first, quad_area, quad_from_lines, robust_line
from .types import Photo, TileQuad

LAB_WEIGHTS = np.array([0.35, 1.0, 1.0], dtype=np.float32)  # shading changes lightness far more than hue


def find_tiles(photo: Photo, expected: int = 9) -> list[TileQuad]:
    """The outline of each tile in the photo, in full-resolution pixels, ordered top to bottom, left to right."""
    lab = cv2.cvtColor(cv2.GaussianBlur(photo.work, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    face = face_colour(lab)
    likeness = np.linalg.norm((lab - face) * LAB_WEIGHTS, axis=2)
    mask = face_mask(likeness)
    quads: list[np.ndarray] = []
    for hull, count in tile_components(mask, expected):
        if count == 1:
            quads.append(fit_quad(hull))
        else:
            quads.extend(split_grid(fit_quad(hull), count, likeness))
    if len(quads) != expected:
        raise WrongTileCount(len(quads), expected)
    tiles = [TileQuad(north_first(q * photo.scale)) for q in quads]
    return reading_order(tiles)


def face_colour(lab: np.ndarray) -> np.ndarray:
    """The tiles' face colour (Lab): the lightest, least coloured of the main colours in the photo's middle."""
    height, width = lab.shape[:2]
    middle = lab[height // 6: 5 * height // 6, width // 6: 5 * width // 6].reshape(-1, 3)[::5]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(7)
    _, labels, centers = cv2.kmeans(middle, 6, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    share = np.bincount(labels.ravel(), minlength=6) / len(labels)
    chroma = np.hypot(centers[:, 1] - 128, centers[:, 2] - 128)
    score = centers[:, 0] - 2.0 * chroma
    score[share < 0.08] = -np.inf
    return centers[int(np.argmax(score))]


def face_mask(likeness: np.ndarray) -> np.ndarray:
    """Pixels of the face colour, as uint8 0/255, with small specks removed."""
    level, _ = cv2.threshold(np.clip(likeness * 4, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = min(max(level / 4, 8.0), 30.0)
    mask = (likeness < threshold).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def tile_components(mask: np.ndarray, expected: int) -> list[tuple[np.ndarray, int]]:
    """Convex outlines of the face-coloured regions big enough to be tiles, each with how many tiles it holds."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hulls = [cv2.convexHull(c).reshape(-1, 2).astype(np.float64) for c in contours if len(c) >= 5]
    hulls = [h for h in hulls if len(h) >= 4]
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


def order_screen_clockwise(points: np.ndarray) -> np.ndarray:
    offset = points - points.mean(axis=0)
    return points[np.argsort(np.arctan2(offset[:, 1], offset[:, 0]))]


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


def split_grid(block: np.ndarray, count: int, likeness: np.ndarray, cell: int = 96) -> list[np.ndarray]:
    """Split a block of touching tiles into its cells along the seams, each seam found where it really runs.

    The block is rectified to an R x C grid of `cell`-pixel squares; each inner seam line is searched for as the
    line (free at both ends, within a tenth of a tile) along which the face colour is least present.
    """
    rows, cols = grid_shape(count, block)
    width, height = cols * cell, rows * cell
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    to_grid = cv2.getPerspectiveTransform(block.astype(np.float32), target)
    seamness = cv2.warpPerspective(likeness, to_grid, (width, height), flags=cv2.INTER_LINEAR)
    xs = [(0.0, 0.0)] + [best_seam(seamness, c * cell, cell, axis=1) for c in range(1, cols)] + [(width, width)]
    ys = [(0.0, 0.0)] + [best_seam(seamness, r * cell, cell, axis=0) for r in range(1, rows)] + [(height, height)]
    from_grid = np.linalg.inv(to_grid)
    quads = []
    for r in range(rows):
        for c in range(cols):
            lines = [grid_line(ys[r], width, horizontal=True), grid_line(xs[c + 1], height, horizontal=False),
                     grid_line(ys[r + 1], width, horizontal=True), grid_line(xs[c], height, horizontal=False)]
            corners = quad_from_lines(lines)
            quads.append(apply_homography(from_grid, corners))
    return quads


def best_seam(seamness: np.ndarray, position: int, cell: int, axis: int) -> tuple[float, float]:
    """Offsets (at the start and the end) of the seam line near `position` that crosses the least face colour."""
    image = seamness if axis == 1 else seamness.T
    span = image.shape[0]
    reach = max(2, cell // 10)
    samples = np.linspace(0, span - 1, 64)
    best, best_score = (float(position), float(position)), -np.inf
    for start in range(position - reach, position + reach + 1):
        for end in range(position - reach, position + reach + 1):
            x = np.clip(np.rint(start + (end - start) * samples / (span - 1)).astype(int), 0, image.shape[1] - 1)
            score = float(np.mean(image[samples.astype(int), x]))
            if score > best_score:
                best, best_score = (float(start), float(end)), score
    return best


def grid_line(ends: tuple[float, float], span: float, horizontal: bool) -> np.ndarray:
    """The line (a, b, c) through a seam given by its offsets at both ends of the block."""
    if horizontal:
        p, q = np.array([0.0, ends[0], 1.0]), np.array([span, ends[1], 1.0])
    else:
        p, q = np.array([ends[0], 0.0, 1.0]), np.array([ends[1], span, 1.0])
    line = np.cross(p, q)
    return line / np.hypot(line[0], line[1])


def reading_order(tiles: list[TileQuad]) -> list[TileQuad]:
    """Tiles numbered as a person reads the photo: by rows of similar height, then left to right."""
    if not tiles:
        return tiles
    side = float(np.median([t.side for t in tiles]))
    remaining = sorted(tiles, key=lambda t: t.center[1])
    ordered: list[TileQuad] = []
    while remaining:
        top = remaining[0].center[1]
        row = [t for t in remaining if t.center[1] < top + 0.6 * side]
        ordered.extend(sorted(row, key=lambda t: t.center[0]))
        remaining = [t for t in remaining if t.center[1] >= top + 0.6 * side]
    return ordered
