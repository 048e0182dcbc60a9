"""A tile outline with one side eaten away, rebuilt from the square the tile is.

Where a mask loses a strip of a tile (glare, or a motif in the table's colour along one edge), the outline's
convex hull cuts that side short or across, and the side search, which only looks near the outline, cannot
reach the tile's real edge. The side opposite is then still right, and a tile is a square: the square standing
on each side is a candidate outline, and the one whose sides lie best on edges wins.

Where a patchy mask (white tiles on a white desk) cuts a side across the face instead, two neighbouring corners
are far from square; the same outline with those sides turned square to the other two is then likelier the tile.
"""
from __future__ import annotations

import numpy as np

from ..geometry import line_through, quad_from_lines, side_lengths
from .sides import REACH_BLOCK, REACH_LONE, edge_support, order_screen_clockwise, refine_quad

# Moved to 0.795 or 1.325: dev and test as set.
SQUARE = 1.06  # sides this close in length: the outline is a whole tile, seen at a slant at most
# Moved to 1.125 or 1.875: dev and test as set.
CLEARLY = 1.5  # how many times better a square's edge support must be than the outline's
# Moved to 0.375 or 0.625: dev and test as set.
WEAK = 0.5  # of the reading's typical tile's edge support: a tile this weakly outlined may have lost a strip
# Degrees from a right angle at two neighbouring corners: a side that may cut across the tile's face, as a patchy
# mask's hull does (white tiles on a white desk: 10-28 degrees)...
# Moved to 7.5 or 12.5: dev and test as set.
SKEWED = 10.0
# ...and how well the trued outline must lie on edges, of the skewed one's support: a faint tile's real edges lie
# little better than the cut, but a square outline is far likelier a tile's.
# Moved: 0.6 dev 46, test 33; 1.0 dev 46, test 35.
TRUED = 0.8
# Edge support under which a skewed outline may be such a cut: white tiles on a white desk score 0.4-1.9. A tilted
# camera skews a tile as much (up to 27 degrees on 200 generated hard photos), and a clear tile's sides lie on its
# edges (4-40); trued, one outlined wrong at 2.3 was put on a motif's straight line.
# Moved: 1.5 dev 46, test 36; 2.5 dev 46, test 31.
FAINT = 2.0


def square_on_side(quad: np.ndarray, side: int) -> np.ndarray:
    """The square standing on side `side` of a quad (corners clockwise on screen, side i from corner i to i+1),
    reaching into the quad: the quad as it would be if only that side were right."""
    start, end = quad[side], quad[(side + 1) % 4]
    along = end - start
    inward = np.array([-along[1], along[0]])  # clockwise on screen (y down): the inside is on the right
    corners = {side: start, (side + 1) % 4: end, (side + 2) % 4: end + inward, (side + 3) % 4: start + inward}
    return np.array([corners[i] for i in range(4)], dtype=np.float64)


def best_square(quad: np.ndarray, image: np.ndarray, reach: float) -> tuple[np.ndarray, float]:
    """The outline, among the quad and the squares standing on each of its sides, each refined onto the edges
    within `reach`, whose sides lie best on edges; and that edge support."""
    quad = order_screen_clockwise(quad)
    lengths = side_lengths(quad)
    squares = [square_on_side(quad, side) for side in range(4)] if lengths.max() > SQUARE * lengths.min() else []
    candidates = [quad] + squares
    refined = [refine_quad(candidate, image, reach) for candidate in candidates]
    support = np.array([edge_support(candidate, image) for candidate in refined])
    # A square may also stand on a neighbour's edge across a narrow gap: it must beat the outline clearly.
    support[1:] /= CLEARLY
    best = int(np.argmax(support))
    return refined[best], float(support[best] * (CLEARLY if best else 1.0))


def squared_where_weak(tiles: list[tuple[np.ndarray, float]], rough: list[tuple[np.ndarray, bool]],
                       image: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """A reading's refined tiles with their edge support, each lone tile outlined far more weakly than the
    reading's typical tile replaced by the best of its squares (best_square, from its rough outline), and then
    each skewed tile by its trued outline where that lies on edges as well (trued)."""
    typical = float(np.median([support for _, support in tiles]))
    return [trued(*(best_square(quad, image, REACH_LONE) if lone and support < WEAK * typical else (tile, support)),
                  image) for (tile, support), (quad, lone) in zip(tiles, rough)]


def corner_skew(quad: np.ndarray) -> np.ndarray:
    """How far (degrees) each corner of a quad (clockwise on screen) is from a right angle."""
    before, after = np.roll(quad, 1, axis=0) - quad, np.roll(quad, -1, axis=0) - quad
    cosine = np.sum(before * after, axis=1) / (np.linalg.norm(before, axis=1) * np.linalg.norm(after, axis=1))
    return np.abs(np.degrees(np.arccos(np.clip(cosine, -1, 1))) - 90)


def askew(quad: np.ndarray, degrees: float = SKEWED) -> bool:
    """Whether two neighbouring corners of a quad are each `degrees` or more off a right angle (the side between
    them may cut across a face; a tilted camera skews a tile so too, but its sides then lie on its edges)."""
    skew = corner_skew(order_screen_clockwise(quad))
    return bool(np.any(np.minimum(skew, np.roll(skew, -1)) >= degrees))


def turned_square(quad: np.ndarray, kept: int) -> np.ndarray:
    """The quad with sides kept+1 and kept+3 turned about their middles to cross sides kept and kept+2 (kept as
    they are) at right angles to their mean direction."""
    lines = [line_through(quad[i], quad[(i + 1) % 4]) for i in range(4)]
    along = (quad[(kept + 1) % 4] - quad[kept]) - (quad[(kept + 3) % 4] - quad[(kept + 2) % 4])  # both one way
    along /= np.linalg.norm(along)
    for side in ((kept + 1) % 4, (kept + 3) % 4):
        middle = (quad[side] + quad[(side + 1) % 4]) / 2
        lines[side] = line_through(middle, middle + np.array([-along[1], along[0]]))
    return quad_from_lines(lines)


def trued(tile: np.ndarray, support: float, image: np.ndarray) -> tuple[np.ndarray, float]:
    """A faint tile whose outline is skewed (two neighbouring corners SKEWED or more off a right angle: a side cut
    across the face) outlined as the tile it more likely is: with the sides meeting there turned square to the
    other two, refined onto the edges near them, if that lies on edges about as well (TRUED); else as it was."""
    if support >= FAINT or not askew(tile):
        return tile, support
    quad = order_screen_clockwise(tile)
    best, best_support = tile, support * TRUED
    for kept in (0, 1):
        try:  # a side turned about its middle lies a few percent off the edge at its ends: a block's reach
            candidate = refine_quad(turned_square(quad, kept), image, REACH_BLOCK)
        except ValueError:
            continue
        candidate_support = edge_support(candidate, image)
        if np.all(corner_skew(order_screen_clockwise(candidate)) < SKEWED) and candidate_support >= best_support:
            best, best_support = candidate, candidate_support
    return best, (best_support if best is not tile else support)
