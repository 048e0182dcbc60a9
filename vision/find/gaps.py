"""A block's tile taken off the gaps beside it: a tile is what differs from the table, and the table shows between
hand-laid tiles.

A block of tiles in a grid with narrow gaps is split as an even grid of equal cells (blocks.py), but each tile of
a hand-laid board lies a little off any common grid: a cell's side can cross the gap into its neighbour, and its
edge search then settles on the neighbour's edge or a printed frame's. Where the band just inside a cell's side
looks like the table, that side is moved in to where the table ends, then put on the edge there. On a face that
looks like the table in places (dark print on a dark table), a gap is the table along a side far more than the face
shows it, and it ends where the first run of table from the side does: the face's own dark patches lie beyond.
"""
from __future__ import annotations

import numpy as np

from ..geometry import apply_homography, line_through, mean_side, quad_area, quad_from_lines, robust_line
from .sides import ALONG, CELL, MARGIN, REACH_LONE, order_screen_clockwise, rectified, refine_quad
from .table import INSIDE, NOT_TABLE

# Moved to 0.09 or 0.15: dev and test as set.
GAP_DEPTH = 0.12  # of a side: the deepest a cell's side is looked into for a gap it crossed (an even grid's error)
# Of a side's length: the least share of the band just inside a side that looks like the table for the side to
# be taken off it. Cells of the dev families' grids that crossed a gap: 0.4-0.45 (a wedge); a tile's own: 0-0.01.
# Moved to 0.15 or 0.25: dev and test as set.
ON_TABLE = 0.2
# A gap runs along a whole side, its end on a straight line; a motif's patch in the table's colour (a white shark
# by a side on a white desk) does neither. Gaps the dev families' even grids crossed were seen at 0.85-1.0 of the
# places along a side (0.42-0.52 on a steep hard photo and a gap a tile's corner nearly closed), their ends a median
# 0.2-0.66 pixels (of 128 a side) off a line; white motifs beside a side in a solved board, at 0.54-0.58 of the
# places, 0.94-3.1 pixels off.
# Moved to 0.3 or 0.5: dev and test as set.
GAP_SEEN = 0.4  # of the places along a side: the fewest where the gap is seen
# Moved to 0.0045 or 0.0075: dev and test as set.
GAP_STRAIGHT = 0.006  # of a side: the most the gap's end may lie off a straight line (median)
# Of a cell's inside: the most that may look like the table for the gaps to be read as any table next to a side. A
# face more like the table than that (dark print on a dark table) is mottled: a gap must show along a side far more
# than the face shows the table, and ends where the first run of table from the side does. (Moved to 0.0375 or
# 0.0625 when no gap was looked for beside a mottled face: dev and test as set; not moved since.)
FACE_CLEAR = 0.05
# Moved to 0.5625 or 0.9375: dev and test as set.
SHRUNK = 0.75  # of its area: the least a cell may keep once taken off the gaps (else the table was its face)


def off_gaps(quad: np.ndarray, facing: list[bool], difference: np.ndarray, level: float,
             edges_image: np.ndarray) -> np.ndarray:
    """A block's cell (work pixels) with each side facing another cell (`facing`, N E S W once ordered clockwise
    on screen) that took in the gap between them moved in to where the gap ends, and each that stopped short of
    a gap near it moved out to where the gap begins, then put on the strongest edge there (`difference`: each work
    pixel's difference from the table, `level`: the table's own, table.table_level; `edges_image`: as for
    sides.refine_quad). The block's outer sides were fitted to its outline against the table already."""
    corners = order_screen_clockwise(quad)
    margin = canvas_margin()
    canvas, from_canvas = rectified(difference.astype(np.float32, copy=False), corners, CELL, CELL, margin)
    table = canvas <= NOT_TABLE * level
    inner = slice(margin + int(0.1 * CELL), margin + int(0.9 * CELL))
    face_share = float(table[inner, inner].mean())
    mottled = face_share > FACE_CLEAR  # then a gap is the table along a side, far more than the face's own share
    crossing = (1.0 + face_share) / 2 if mottled else ON_TABLE
    along = np.rint(ALONG * CELL).astype(int)
    depth = np.arange(int(round(GAP_DEPTH * CELL)) + 1)
    band = slice(int(round(INSIDE[0] * CELL)), int(round(INSIDE[1] * CELL)) + 1)
    lines, moved = [], False
    for side in range(4):
        inside, outside = (seen_at(table, side, along, depth * way) for way in (1, -1))
        line = None
        if not facing[side]:
            pass
        elif inside[:, band].mean() >= crossing:  # the side crossed a gap: in to where the gap ends
            line = gap_line(inside, side, along, depth, from_canvas, deepest=True, first_run=mottled)
        elif not mottled and outside[:, band].mean() < ON_TABLE:  # no gap just outside: out to where one begins
            line = gap_line(outside, side, along, -depth, from_canvas, deepest=False)
        moved |= line is not None
        if line is None:
            ends = side_points(side, along[[0, -1]], 0).astype(np.float64)
            line = line_through(*apply_homography(from_canvas, ends))
        lines.append(line)
    if not moved:
        return quad
    try:
        taken = quad_from_lines(lines)
    except ValueError:
        return quad
    if quad_area(taken) < SHRUNK * quad_area(corners) or np.max(np.linalg.norm(taken - corners, axis=1)) > \
            2 * GAP_DEPTH * mean_side(corners):
        return quad
    return refine_quad(taken, edges_image, REACH_LONE)


def gap_line(seen: np.ndarray, side: int, along: np.ndarray, depth: np.ndarray, from_canvas: np.ndarray,
             deepest: bool, first_run: bool = False) -> np.ndarray | None:
    """The line (image pixels) along where a gap seen beside side `side` ends (`deepest`: its pixel farthest from
    the side, plus one; with `first_run`, just past the first run of table from the side) or begins (its nearest),
    at the places it is seen (`seen`: places x depths, table or not); None when it is seen at too few places along
    the side."""
    crossed = seen.any(axis=1)
    if crossed.mean() < GAP_SEEN:
        return None
    if deepest and first_run:
        # where the run goes on past reach, a table-like patch of the face joins the gap there: those places left out
        index = first_run_ends(seen[crossed])
        ends = index < seen.shape[1]
        if ends.sum() < GAP_SEEN * len(seen):
            return None
        crossed[crossed] = ends
        index = index[ends]
    elif deepest:
        index = seen.shape[1] - np.argmax(seen[crossed, ::-1], axis=1)
        if np.median(index) >= seen.shape[1]:
            return None  # no end within reach: a face in the table's colour (marble on marble), not a gap
        index = np.minimum(index, seen.shape[1] - 1)
    else:
        index = np.argmax(seen[crossed], axis=1)
    # A gap runs straight along the side (square to it or turned a little): where it ends lies on a line.
    places = along[crossed].astype(np.float64)
    residual = index - np.polyval(np.polyfit(places, index, 1), places)
    if np.median(np.abs(residual)) > GAP_STRAIGHT * CELL:
        return None
    points = side_points(side, along[crossed], depth[index])
    return robust_line(apply_homography(from_canvas, points.astype(np.float64)))


def first_run_ends(seen: np.ndarray) -> np.ndarray:
    """Per place (row of `seen`: depths, table or not), the depth just past the first run of table: where a gap
    seen from a side ends, before the face's own table-like patches beyond it."""
    start = np.argmax(seen, axis=1)
    after = np.arange(seen.shape[1])[None, :] >= start[:, None]
    ended = after & ~seen
    return np.where(ended.any(axis=1), np.argmax(ended, axis=1), seen.shape[1])


def seen_at(table: np.ndarray, side: int, along: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Whether the table is seen `depth` inside side `side` (outside, where negative), at each place `along` it."""
    points = side_points(side, along[:, None], depth[None, :])
    return table[points[..., 1], points[..., 0]]


def canvas_margin() -> int:
    """Pixels kept around the rectified cell: the side search's, or more, so a gap looked for GAP_DEPTH outside a
    side stays on the canvas."""
    return max(MARGIN, int(round(GAP_DEPTH * CELL)) + 1)


def side_points(side: int, along: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Canvas pixels (x, y) `depth` inside side `side` (N E S W of the rectified tile) at `along` from its start."""
    along, depth = np.broadcast_arrays(along, depth)
    margin = canvas_margin()
    near, far = margin + depth, margin + CELL - depth
    x, y = {0: (margin + along, near), 1: (far, margin + along), 2: (margin + along, far),
            3: (near, margin + along)}[side]
    return np.stack([x, y], axis=-1).astype(int)
