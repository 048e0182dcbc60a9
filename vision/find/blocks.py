"""A block of touching (or nearly touching) tiles: its outline, the R x C grid of tiles it is split into, or the
lone tiles it parts into where only thin bridges of mask join them across their gaps."""
from __future__ import annotations

import math

import cv2
import numpy as np

from ..geometry import apply_homography, fit_line, mean_side, quad_area, quad_from_lines
from .quads import enclosing_quad, rough_quad
from .sides import edge_strength, order_screen_clockwise, rectified

# Moved: 0.9 dev 46, test 34; 1.5 dev 46, test 32.
UNEVEN = 1.2  # how much stronger the edges of cells with gaps between them must be than those of the even split
# Moved to 0.675 or 0.95: dev and test as set.
NARROWEST = 0.9  # of a cell: the smallest tile in a block; wider gaps show the table and part the tiles' masks
# Of the block's median difference from the table: the most a gap between its cells may differ from the table. A
# gap shows the table (or a crack's shadow); between a printed border's inner edges lies more of the tiles: on
# generated photos of faces with a 7% red border, those 'gaps' differ 0.94-1.9 times as much as the block. On 20
# generated hard photos of plain faces, the gaps of the uneven splits that won on edges lay at 0.17-1.2 (mostly cells
# on the printed frame line 1.4% inside each tile); the even split taken instead refines as exactly (59/60 exact).
# Moved: 0.375 dev 46, test 34; 0.625 dev 46, test 34.
GAP_TABLE = 0.5
# Moved to 0.0375 or 0.0625: dev and test as set.
BRIDGE = 0.05  # of a tile's side: the widest a bridge of mask across a gap between two tiles is cut
# Moved: 0.375 dev 46, test 33; 0.625 dev 46, test 32.
PIECE = 0.5  # of a tile's area: the least a piece parted from a block must hold to be a tile (not a motif's scrap)
# Moved: 0.015 dev 46, test 33; 0.025 dev 46, test 32.
SEAM = 0.02  # of a tile's side: pieces this near each other meet (touching tiles' regions are a seam apart)
# Moved to 0.2625 or 0.4375: dev and test as set.
CONTACT = 0.35  # of a tile's side: the longest a bridge between two tiles is; touching tiles meet all along a side
# Moved to 0.6375 or 0.925: dev and test as set.
WHOLE = 0.85  # of a block's mask: how much of it its pieces must keep, so no tile is lost in parting them


def block_outline(mask: np.ndarray, hull: np.ndarray) -> np.ndarray:
    """The four corners of a block of tiles: each side the straight line most of the mask's boundary lies on,
    near the side of the block's hull.

    Things on the table in the face's colour (a checked cloth's white squares, a sheet of paper) join the block's
    mask in places and pull its convex hull out; the block's own sides stay the longest straight runs of its
    boundary. A tile missing from a corner of the mask (a face region not walled in, glare) cuts that corner off
    the hull: the block's sides are then sought near the smallest quad the hull's own side lines bound, and the
    outline whose sides more of the boundary lies on wins.
    """
    points = boundary_points(mask, hull)
    if len(points) < 40:
        return hull
    roughs = [rough_quad(hull)]
    enclosing = enclosing_quad(hull)
    if enclosing is not None:
        roughs.append(order_screen_clockwise(enclosing))
    outlines = [outline for outline in (sides_near(points, rough) for rough in roughs) if outline is not None]
    if not outlines:
        return hull
    return max(outlines, key=lambda outline: outline[1])[0]


def sides_near(points: np.ndarray, rough: np.ndarray) -> tuple[np.ndarray, int] | None:
    """The quad of the dominant boundary lines near each side of a rough quad, and how many boundary points lie
    on them; None when a side has no such line or the lines bound a quad far from the rough one."""
    found = [dominant_line(points, rough[i], rough[(i + 1) % 4]) for i in range(4)]
    if any(line is None for line in found):
        return None
    try:
        quad = quad_from_lines([line for line, _ in found])
    except ValueError:
        return None
    # The lines must still bound a quad like the rough one: no corner far from where it put it.
    side = mean_side(rough)
    if np.max(np.linalg.norm(quad - rough, axis=1)) > 0.25 * side:
        return None
    return quad, sum(count for _, count in found)


def parted(mask: np.ndarray, hull: np.ndarray, tile_area: float) -> list[np.ndarray] | None:
    """The convex outlines of the pieces a block's mask parts into once thin bridges are cut; None when it stays
    one piece, or parts into scraps.

    Tiles laid in a grid with narrow gaps, twisted a little each, are often joined in a mask only by a bridge
    across a gap (glare, a shadow, a motif of the face's colour): their own outlines are then far better than
    any grid cut through the block, which cannot follow each tile's twist. Eroding the mask by a little more
    each time cuts the thinnest bridges first; each piece is then grown back within the mask.
    """
    x, y, w, h = cv2.boundingRect(hull.astype(np.int32))
    pad = 2
    inside = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.fillConvexPoly(inside, (hull - (x - pad, y - pad)).astype(np.int32), 255)
    window = np.zeros_like(inside)
    window[pad:pad + h, pad:pad + w] = mask[y:y + h, x:x + w]
    window &= inside
    total = cv2.countNonZero(window)
    least = PIECE * tile_area
    eroded = window
    for radius in range(1, max(1, int(round(BRIDGE * math.sqrt(tile_area)))) + 1):
        eroded = cv2.erode(eroded, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(eroded, connectivity=8)
        big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= least * 0.5]
        if len(big) < 2:
            if not big:
                return None
            continue
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        pieces = [cv2.dilate((labels == i).astype(np.uint8) * 255, grow) & window for i in big]
        side = math.sqrt(tile_area)
        if longest_contact(pieces, max(1, int(round(SEAM * side)))) > CONTACT * side:
            return None  # pieces that meet all along a side: touching tiles, a seam or a wall between them
        areas = [cv2.countNonZero(piece) for piece in pieces]
        if min(areas) < least or sum(areas) < WHOLE * total:
            return None  # a tile broken up by its motifs, or bridges as thick as the tiles' own necks
        outlines = [piece_outline(piece) + (x - pad, y - pad) for piece in pieces]
        # Only a block whose every piece is one tile is parted: pieces still holding several tiles would have to
        # be split by a grid all the same, and leave too few lone tiles to tell a tile's size by.
        return outlines if all(one_tile(outline, tile_area) for outline in outlines) else None
    return None


def longest_contact(pieces: list[np.ndarray], near: int) -> float:
    """The longest stretch (pixels) along which two pieces of a mask lie within 2 * `near` pixels of each other:
    the area they share, each grown by `near`, over that band's width."""
    reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * near + 1, 2 * near + 1))
    grown = [cv2.dilate(piece, reach) for piece in pieces]
    longest = 0.0
    for a in range(len(grown)):
        for b in range(a + 1, len(grown)):
            longest = max(longest, cv2.countNonZero(grown[a] & grown[b]) / (2 * near + 1))
    return longest


def one_tile(outline: np.ndarray, tile_area: float) -> bool:
    """Whether a piece's outline is one tile: square on its longest side, not much bigger than a tile."""
    (_, _), (width, height), _ = cv2.minAreaRect(outline.astype(np.float32))
    return max(width, height) <= 1.4 * max(min(width, height), 1.0) and width * height <= 1.7 * tile_area


def piece_outline(piece: np.ndarray) -> np.ndarray:
    """The convex outline (x, y) of a piece of mask: of its largest region."""
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.convexHull(max(contours, key=cv2.contourArea)).reshape(-1, 2).astype(np.float64)


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
                  tolerance: float = 1.5) -> tuple[np.ndarray, int] | None:
    """The line, within `turn` degrees of the side from start to end and near it, on which the most boundary
    points lie (within `tolerance` pixels), refitted to those points; and how many lie on it."""
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
    return (fit_line(inliers), len(inliers)) if len(inliers) >= 2 else None


def grid_shape(count: int, quad: np.ndarray) -> tuple[int, int]:
    """Rows and columns of a block of `count` touching tiles, from the block's aspect ratio."""
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    width, height = max(width, 1.0), max(height, 1.0)  # a quad fitted to a sliver of mask can be flat
    shapes = [(r, count // r) for r in range(1, count + 1) if count % r == 0]
    return min(shapes, key=lambda rc: abs(math.log((width / rc[1]) / (height / rc[0]))))


def split_grid(block: np.ndarray, count: int, image: np.ndarray, difference: np.ndarray | None = None,
               cell: int = 96) -> list[np.ndarray]:
    """Rough outlines of the tiles of a block of touching (or nearly touching) tiles, as an R x C grid.

    The block is rectified so each tile is about `cell` pixels square; the tile size and the place of each
    inner row and column are those whose edges are strongest in the block's edge profiles. Gaps between tiles
    are allowed where they show the table (`difference`: each pixel's difference from it, if known): tiles are
    all one size, the gaps need not be.
    """
    rows, cols = grid_shape(count, block)
    canvas, from_canvas = rectified(image, block, cols * cell, rows * cell, 0)
    across_x, across_y = edge_strength(canvas)
    table_x = table_y = None
    if difference is not None:
        apart, _ = rectified(difference.astype(np.float32, copy=False), block, cols * cell, rows * cell, 0)
        table_x, table_y = (np.median(apart, axis=axis) / max(float(np.median(apart)), 1e-6) for axis in (0, 1))
    starts_x, side_x = place_cells(across_x.mean(axis=0), cols, cell, table_x)
    starts_y, side_y = place_cells(across_y.mean(axis=1), rows, cell, table_y)
    quads = []
    for top in starts_y:
        for left in starts_x:
            corners = np.array([[left, top], [left + side_x, top], [left + side_x, top + side_y],
                                [left, top + side_y]])
            quads.append(apply_homography(from_canvas, corners))
    return quads


def place_cells(profile: np.ndarray, count: int, cell: int,
                difference: np.ndarray | None = None) -> tuple[list[float], float]:
    """Where `count` equal cells start along a block `count * cell` long, and their size, from an edge profile.

    The first cell starts at 0 and the last ends at the block's end; between them each cell sits where its two
    edges are strongest. Cells with gaps between them must be clearly better placed than the even split: where
    the seams of touching tiles hardly show, a motif's or a printed frame's straight edges would otherwise place
    the cells; and their gaps must show the table (`difference`: the difference from it along the block, of the
    block's median), or they are a printed border's band between its inner edges.
    """
    span = count * cell
    if count == 1:
        return [0.0], float(cell)
    positions = np.arange(len(profile), dtype=np.float64)

    def strength(x: np.ndarray) -> np.ndarray:
        return np.interp(x, positions, profile)

    best, best_score = ([float(c * cell) for c in range(count)], float(cell)), -np.inf
    # no wider than `cell`: count cells of a side over it would not fit in the block (nowhere to place the inner ones)
    for side in np.minimum(np.arange(NARROWEST * cell, cell + 0.25, 0.5), cell):
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
    even = ([float(c * cell) for c in range(count)], float(cell))
    if best_score <= UNEVEN * even_score:
        return even
    starts, side = best
    gaps = [(int(round(start + side)), int(round(following))) for start, following in zip(starts, starts[1:])]
    if difference is not None and any(high - low >= 2 and np.mean(difference[low:high]) > GAP_TABLE
                                      for low, high in gaps):
        return even
    return best
