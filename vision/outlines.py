"""Rough tile outlines from a mask: one quad per lone tile, an R x C grid of them per block of touching tiles."""
from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from .geometry import apply_homography, fit_line, line_through, quad_area, quad_from_lines, robust_line
from .sides import REACH_LONE, edge_strength, edge_support, order_screen_clockwise, rectified, refine_quad


def rough_quads(components: list[tuple[np.ndarray, int]], image: np.ndarray) -> list[tuple[np.ndarray, bool]]:
    """Rough tile outlines (work pixels) of components, each marked whether it was a lone tile (not split from a
    block): one per lone tile, a grid of them per block."""
    quads: list[tuple[np.ndarray, bool]] = []
    for hull, count in components:
        if count == 1:
            quads.append((lone_quad(hull, image), True))
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
    local = tile_area * perspective_scale(hulls, areas, tile_area)
    components = []
    for hull, area, here in zip(hulls, areas, local):
        if area < 0.4 * here:
            continue
        count = tiles_held(hull, area / here, expected)
        if count > 1:
            hull = block_outline(mask, hull)
        components.append((hull, count))
    return components


def block_outline(mask: np.ndarray, hull: np.ndarray) -> np.ndarray:
    """The four corners of a block of tiles: each side the straight line most of the mask's boundary lies on,
    near the side of the block's hull.

    Things on the table in the face's colour (a checked cloth's white squares, a sheet of paper) join the block's
    mask in places and pull its convex hull out; the block's own sides stay the longest straight runs of its
    boundary.
    """
    points = boundary_points(mask, hull)
    rough = rough_quad(hull)
    if len(points) < 40:
        return hull
    lines = [dominant_line(points, rough[i], rough[(i + 1) % 4]) for i in range(4)]
    if any(line is None for line in lines):
        return hull
    try:
        quad = quad_from_lines(lines)
    except ValueError:
        return hull
    # The lines must still bound a quad like the hull's: no corner far from where the hull put it.
    side = float(np.mean(np.linalg.norm(rough - np.roll(rough, -1, axis=0), axis=1)))
    if np.max(np.linalg.norm(quad - rough, axis=1)) > 0.25 * side:
        return hull
    return quad


def boundary_points(mask: np.ndarray, hull: np.ndarray) -> np.ndarray:
    """Every pixel of the outer boundary of the mask's pieces within the hull, taken together (x, y).

    The pieces are closed into one first: the mask breaks along seams and motifs, and the boundaries inside a
    block (a ski pole's straight edge) must not pass for its sides.
    """
    x, y, w, h = cv2.boundingRect(hull.astype(np.int32))
    pad = max(3, int(round(0.03 * math.sqrt(quad_area(hull)))))
    inside = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.fillConvexPoly(inside, (hull - (x - pad, y - pad)).astype(np.int32), 255)
    inside = cv2.dilate(inside, np.ones((3, 3), np.uint8))
    window = np.zeros_like(inside)
    window[pad:pad + h, pad:pad + w] = mask[y:y + h, x:x + w]
    window &= inside
    window = cv2.morphologyEx(window, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pad | 1, pad | 1)))
    contours, _ = cv2.findContours(window, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return np.zeros((0, 2))
    outer = max(contours, key=cv2.contourArea)
    return outer.reshape(-1, 2).astype(np.float64) + (x - pad, y - pad)


def dominant_line(points: np.ndarray, start: np.ndarray, end: np.ndarray, turn: float = 8.0,
                  tolerance: float = 1.5) -> np.ndarray | None:
    """The line, within `turn` degrees of the side from start to end and near it, on which the most boundary
    points lie (within `tolerance` pixels); refitted to those points."""
    direction = end - start
    length = float(np.linalg.norm(direction))
    if length < 1:
        return None
    heading = math.atan2(direction[1], direction[0])
    relative = points - start
    best_count, best = 0, None
    for angle in heading + np.radians(np.arange(-turn, turn + 0.25, 0.5)):
        unit = np.array([math.cos(angle), math.sin(angle)])
        along = relative @ unit
        offset = relative @ np.array([unit[1], -unit[0]])
        near = (along > -0.05 * length) & (along < 1.05 * length) & (np.abs(offset) < 0.2 * length)
        if not near.any():
            continue
        bins = np.rint((offset[near] + 0.2 * length) / tolerance).astype(int)
        votes = np.bincount(bins)
        votes = votes + np.r_[votes[1:], 0]  # a line may straddle two bins
        peak = int(np.argmax(votes))
        if votes[peak] > best_count:
            centre = (peak + 0.5) * tolerance - 0.2 * length
            best_count, best = int(votes[peak]), (unit, centre)
    if best is None or best_count < 0.3 * length:
        return None
    unit, centre = best
    offset = relative @ np.array([unit[1], -unit[0]])
    along = relative @ unit
    inliers = points[(np.abs(offset - centre) <= tolerance) & (along > -0.05 * length) & (along < 1.05 * length)]
    return fit_line(inliers) if len(inliers) >= 2 else None


def perspective_scale(hulls: list[np.ndarray], areas: np.ndarray, tile_area: float) -> np.ndarray:
    """How much bigger than `tile_area` a tile looks where each hull lies: 1 everywhere, unless enough single
    tiles are seen to fit how their size changes across the photo.

    A steeply tilted camera sees the far tiles at a third of the near ones' area; size alone then takes a far
    tile for a speck and a near one for two. Across a table the log of a tile's area changes nearly linearly
    with its place in the photo, so a plane fitted to the single-looking regions gives the size to expect.
    """
    centres = np.array([h.mean(axis=0) for h in hulls])
    aspect = np.array([max(w, h) / max(min(w, h), 1.0) for (_, (w, h), _) in
                       (cv2.minAreaRect(h.astype(np.float32)) for h in hulls)])
    single = (aspect < 1.5) & (areas > 0.3 * tile_area) & (areas < 2.5 * tile_area)  # not specks, not blocks
    if single.sum() < 5:
        return np.ones(len(hulls))
    design = np.c_[np.ones(len(hulls)), centres / max(1.0, float(np.abs(centres).max()))]
    logs = np.log(areas / tile_area)
    use = single
    for _ in range(2):  # refit without the regions the plane explains worst (a block, a tile missing a piece)
        coefficients, *_ = np.linalg.lstsq(design[use], logs[use], rcond=None)
        residual = np.abs(design @ coefficients - logs)
        use = single & (residual < max(0.3, float(np.quantile(residual[single], 0.75))))
        if use.sum() < 5:
            return np.ones(len(hulls))
    return np.clip(np.exp(design @ coefficients), 0.2, 2.0)


def tiles_held(hull: np.ndarray, size: float, most: int) -> int:
    """How many tiles a component `size` typical tiles big holds: the count, at most `most`, whose grid of
    square cells best fits both its size and its shape.

    Size alone misleads in a tilted photo: a near tile looks twice as big as a far one. A lone tile is square,
    two touching tiles are twice as long as wide, so the shape settles it.
    """
    (_, _), (width, height), _ = cv2.minAreaRect(hull.astype(np.float32))
    width, height = max(width, height), max(min(width, height), 1.0)
    best, best_misfit = 1, np.inf
    for count in range(1, max(1, most) + 1):
        if count > 1 and size / count < 0.6:
            break  # tiles this much smaller than the tiles around them are not tiles of the set
        shapes = [(r, count // r) for r in range(1, count + 1) if count % r == 0]
        # Cells' squareness weighs double: perspective changes a tile's size far more than its shape.
        squareness = min(abs(math.log((width / cols) / (height / rows))) for rows, cols in shapes)
        misfit = abs(math.log(size / count)) + 2 * squareness
        if misfit < best_misfit:
            best, best_misfit = count, misfit
    return best


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
    # Perspective makes near tiles bigger, by more than this only in a steeply tilted photo, where it does so
    # steadily across the photo.
    if mean.max() > 1.8 * mean.min() and not steady_sizes(quads, mean):
        return False
    if np.any(sides.max(axis=1) > 1.8 * sides.min(axis=1)):
        return False
    centres = np.array([q.mean(axis=0) for q in quads])
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(quads)) * 1e9
    return bool(distance.min() > 0.6 * mean.min())


def steady_sizes(quads: list[np.ndarray], sizes: np.ndarray, spread: float = 1.3) -> bool:
    """Whether the quads' sizes change steadily across the photo, as perspective makes them: within `spread`
    of a plane fitted to the log of the size over the photo."""
    if len(quads) < 5:
        return False
    centres = np.array([q.mean(axis=0) for q in quads])
    design = np.c_[np.ones(len(quads)), centres / max(1.0, float(np.abs(centres).max()))]
    logs = np.log(sizes)
    coefficients, *_ = np.linalg.lstsq(design, logs, rcond=None)
    ratio = np.exp(logs - design @ coefficients)
    return bool(ratio.max() <= spread * ratio.min())


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


LOST_CORNER = 0.03  # of a tile's area: the least face a corner lost to glare or shadow takes from its outline


def lone_quad(hull: np.ndarray, image: np.ndarray) -> np.ndarray:
    """A lone tile's four corners from its outline in a mask: the quad fitted to the outline's sides, or, where a
    corner of the face was lost (to glare, a shadow, a motif reaching it), the smallest quad of the outline's own
    side lines that holds it, whichever lies better on edges once refined.

    Glare or a shadow can take a corner off the face's mask: the outline then has a fifth side cutting the corner,
    and the fitted quad takes it for a side; the two sides beside it, extended, meet at the lost corner.
    """
    fitted = fit_quad(hull)
    enclosing = enclosing_quad(hull)
    # Only an outline missing a corner's worth of face, whose fitted quad is then no tile's shape, is in doubt; a
    # ragged or rounded one is fitted as it is.
    if enclosing is None or quad_area(enclosing) < (1 + LOST_CORNER) * quad_area(hull) or tile_shaped(fitted):
        return fitted
    candidates = [fitted, order_screen_clockwise(enclosing)]
    support = [edge_support(refine_quad(q, image, REACH_LONE), image) for q in candidates]
    return candidates[int(np.argmax(support))]


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


def signed_area(polygon: np.ndarray) -> float:
    """Area of a polygon, positive when it runs clockwise on screen (y down)."""
    x, y = polygon.T
    return 0.5 * float(x @ np.roll(y, -1) - y @ np.roll(x, -1))


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


UNEVEN = 1.2  # how much stronger the edges of cells with gaps between them must be than those of the even split
NARROWEST = 0.9  # of a cell: the smallest tile in a block; wider gaps show the table and part the tiles' masks


def place_cells(profile: np.ndarray, count: int, cell: int) -> tuple[list[float], float]:
    """Where `count` equal cells start along a block `count * cell` long, and their size, from an edge profile.

    The first cell starts at 0 and the last ends at the block's end; between them each cell sits where its two
    edges are strongest. Cells with gaps between them must be clearly better placed than the even split: where
    the seams of touching tiles hardly show, a motif's or a printed frame's straight edges would otherwise place
    the cells.
    """
    span = count * cell
    if count == 1:
        return [0.0], float(cell)
    positions = np.arange(len(profile), dtype=np.float64)

    def strength(x: np.ndarray) -> np.ndarray:
        return np.interp(x, positions, profile)

    best, best_score = ([float(c * cell) for c in range(count)], float(cell)), -np.inf
    for side in np.arange(NARROWEST * cell, cell + 0.25, 0.5):
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
    seams = np.arange(1, count) * float(cell)
    even_score = 2 * float(strength(seams).sum())
    return best if best_score > UNEVEN * even_score else ([float(c * cell) for c in range(count)], float(cell))
