"""Whether the table lies around a reading's tiles: a tile is an object on the table, whatever is printed on it.

A mask of the face colour outlines what is plain face; on a face with a printed coloured border, or figures
covering most of it, that is a patch inside the tile, with more of the object (not the table) just outside it.
Around a whole tile's open sides lies the table, whose colours the photo's border shows (background.py).
"""
from __future__ import annotations

import cv2
import numpy as np

from .sides import CELL, MARGIN, order_screen_clockwise, rectified
from .snap import open_sides

# Of a side, outside it: where the table is looked for. Past the tile's own side band and the darkest of its cast
# shadow (thickness up to 3% of a side on generated hard photos), inside the narrowest printed border we drew (7%).
# Moved: (0.03,0.0675) dev 46, test 33; (0.05,0.1125) dev 46, test 32.
RING = (0.04, 0.09)
ALONG = (0.1, 0.9)  # of a side: the stretch of it looked along (the rounded corners left out)
# How far around the reading's tiles (of their size, from their centre) the table's own level is measured beyond.
# Moved to 0.975 or 1.625: dev and test as set.
AROUND = 1.3
# The table's difference from its own border colours, in the ring outside a true tile's open side, on 24 generated
# hard photos (all backgrounds, all layouts): at most 2.2 times the table's level elsewhere (the checked cloth's,
# under uneven light); outside a face-colour outline of a face with a printed border, 5 to 30 times.
# Moved: 2.25 dev 46, test 33; 3.75 dev 46, test 32.
NOT_TABLE = 3.0
# Moved: 1.5 dev 46, test 33; 2.5 dev 46, test 32.
LEAST_LEVEL = 2.0  # the table's level counted as at least this much: a plain table differs from itself by 1-1.5
# Moved to (0.0075,0.03) or (0.0125,0.05): dev and test as set.
INSIDE = (0.01, 0.04)  # of a side, inside it: the band of face along each side, past its rounded edge
# Of a side: how deep a strip of what differs from the table an outline standing in for a tile may leave out of the
# one it replaces, along any side (its mean depth along that side), or leave running on outside it (reaching_beyond).
# A tile's cast shadow is up to 3% deep on generated hard photos; the outline on a printed border's inner edge leaves
# out the border, 4-9% (scenes/families.py).
# Moved to 0.03 or 0.05: dev and test as set.
LEFT_OUT = 0.04


def nearest_sides(size: int) -> np.ndarray:
    """For each pixel of a size x size square, the side it lies nearest: 0 N, 1 E, 2 S, 3 W."""
    y, x = np.mgrid[0:size, 0:size]
    return np.argmin(np.stack([y, size - 1 - x, size - 1 - y, x]), axis=0)


NEAREST_SIDE = nearest_sides(CELL)  # of the rectified cell a tile's outline is measured in


def unbounded(quads: list[np.ndarray], difference: np.ndarray) -> int:
    """How many of the quads (work pixels) have an open side (one no other quad lies across) with no table just
    outside it; `difference`: each work pixel's difference from the table (background.table_difference)."""
    outlines = [order_screen_clockwise(np.asarray(q, dtype=np.float64)) for q in quads]
    level = table_level(outlines, difference)
    return sum(without_table(outline, outlines, difference, level) for outline in outlines)


def without_table(outline: np.ndarray, outlines: list[np.ndarray], difference: np.ndarray, level: float) -> bool:
    """Whether an outline (clockwise on screen) has an open side, one none of `outlines` lies across, with no table
    just outside it; `level`: the table's own (table_level)."""
    outside = ring_differences(outline, difference)
    return bool(np.any((outside > NOT_TABLE * level) & np.array(open_sides(outline, outlines))))


def table_level(outlines: list[np.ndarray], difference: np.ndarray, step: int = 4) -> float:
    """The table's typical difference from its own border colours (at least LEAST_LEVEL): the median away from the
    outlines (each grown AROUND times about its centre), sampled every `step` pixels."""
    sample = np.ascontiguousarray(difference[::step, ::step])
    around = np.zeros(sample.shape, np.uint8)
    for outline in outlines:
        centre = outline.mean(axis=0)
        grown = (centre + (outline - centre) * AROUND) / step
        cv2.fillConvexPoly(around, np.rint(grown).astype(np.int32), 1)
    table = sample[around == 0]
    return max(float(np.median(table)) if table.size else 0.0, LEAST_LEVEL)


def ring_differences(outline: np.ndarray, difference: np.ndarray) -> np.ndarray:
    """The median difference from the table in the RING just outside each side of an outline (clockwise on screen,
    sides N E S W of the rectified tile)."""
    canvas, _ = rectified(difference.astype(np.float32, copy=False), outline, CELL, CELL, MARGIN)
    near, far = int(round(RING[0] * CELL)), int(round(RING[1] * CELL))
    lo, hi = MARGIN + int(round(ALONG[0] * CELL)), MARGIN + int(round(ALONG[1] * CELL))
    before, after = slice(MARGIN - far, MARGIN - near), slice(MARGIN + CELL + near, MARGIN + CELL + far)
    return np.array([np.median(canvas[before, lo:hi]), np.median(canvas[lo:hi, after]),
                     np.median(canvas[after, lo:hi]), np.median(canvas[lo:hi, before])])


def reaching_beyond(quads: list[np.ndarray], difference: np.ndarray) -> int:
    """How many of the quads (work pixels) the object goes on past: what differs from the table runs on outside an
    open side (one no other quad lies across) deeper than LEFT_OUT, as a printed border does outside the face
    inside it. A border narrower than RING is not seen by `unbounded`: the table lies in its ring."""
    outlines = [order_screen_clockwise(np.asarray(q, dtype=np.float64)) for q in quads]
    level = table_level(outlines, difference)
    return sum(object_beyond(outline, open_sides(outline, outlines), difference, level) > LEFT_OUT
               for outline in outlines)


def object_beyond(outline: np.ndarray, open_side: list[bool], difference: np.ndarray, level: float) -> float:
    """How deep (in sides, the deepest over the open sides, clockwise on screen) what differs from the table (more
    than NOT_TABLE times its `level`, along most of a side) runs on outside an outline: a tile's own side band and
    cast shadow at most, a printed border too where the outline is the face inside it."""
    canvas, _ = rectified(difference.astype(np.float32, copy=False), outline, CELL, CELL, MARGIN)
    differs = canvas > NOT_TABLE * level
    lo, hi = MARGIN + int(round(ALONG[0] * CELL)), MARGIN + int(round(ALONG[1] * CELL))
    outward = [differs[MARGIN - 1::-1, lo:hi].mean(axis=1), differs[lo:hi, MARGIN + CELL:].mean(axis=0),
               differs[MARGIN + CELL:, lo:hi].mean(axis=1), differs[lo:hi, MARGIN - 1::-1].mean(axis=0)]
    runs = [int(np.argmax(share < 0.5)) if np.any(share < 0.5) else len(share)
            for share, is_open in zip(outward, open_side) if is_open]
    return max(runs, default=0) / CELL


def table_within(outline: np.ndarray, difference: np.ndarray, level: float) -> float:
    """The most, over an outline's sides (clockwise on screen), of the share of the band just INSIDE it that looks
    like the table (differs from it no more than NOT_TABLE times its `level`): none for a tile's own outline, a
    wedge for one that took in a gap between tiles or the table beside it."""
    canvas, _ = rectified(difference.astype(np.float32, copy=False), outline, CELL, CELL, MARGIN)
    table = canvas <= NOT_TABLE * level
    near, far = int(round(INSIDE[0] * CELL)), int(round(INSIDE[1] * CELL))
    lo, hi = MARGIN + int(round(ALONG[0] * CELL)), MARGIN + int(round(ALONG[1] * CELL))
    first, last = slice(MARGIN + near, MARGIN + far), slice(MARGIN + CELL - far, MARGIN + CELL - near)
    return float(max(table[first, lo:hi].mean(), table[lo:hi, last].mean(), table[last, lo:hi].mean(),
                     table[lo:hi, first].mean()))


def object_left_out(outline: np.ndarray, replaced: np.ndarray, difference: np.ndarray, level: float,
                    open_side: list[bool]) -> float:
    """How deep (in sides, the deepest over the open sides of `replaced`, clockwise on screen: `open_side`, those no
    other tile lies across) a strip of what differs from the table (more than NOT_TABLE times its `level`) lies
    inside `replaced` but outside `outline`: an outline that leaves out part of the object (a printed border within
    the tile's edge), not a patch of table taken in. Across a seam the object beyond a side is the neighbour."""
    canvas, from_canvas = rectified(difference.astype(np.float32, copy=False), replaced, CELL, CELL, MARGIN)
    corners = cv2.perspectiveTransform(order_screen_clockwise(outline).reshape(-1, 1, 2).astype(np.float64),
                                       np.linalg.inv(from_canvas)).reshape(-1, 2) - MARGIN
    within_outline = np.zeros((CELL, CELL), np.uint8)
    cv2.fillConvexPoly(within_outline, np.rint(corners).astype(np.int32), 1)
    left_out = (within_outline == 0) & (canvas[MARGIN:MARGIN + CELL, MARGIN:MARGIN + CELL] > NOT_TABLE * level)
    return float(max((np.sum(left_out & (NEAREST_SIDE == side)) for side in range(4) if open_side[side]),
                     default=0) / (CELL * CELL))
