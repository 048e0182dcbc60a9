"""A tile outline with one side eaten away, rebuilt from the square the tile is.

Where a mask loses a strip of a tile (glare, or a motif in the table's colour along one edge), the outline's
convex hull cuts that side short or across, and the side search, which only looks near the outline, cannot
reach the tile's real edge. The side opposite is then still right, and a tile is a square: the square standing
on each side is a candidate outline, and the one whose sides lie best on edges wins.
"""
from __future__ import annotations

import numpy as np

from .geometry import side_lengths
from .sides import REACH_LONE, edge_support, order_screen_clockwise, refine_quad

SQUARE = 1.06  # sides this close in length: the outline is a whole tile, seen at a slant at most
CLEARLY = 1.5  # how many times better a square's edge support must be than the outline's
WEAK = 0.5  # of the reading's typical tile's edge support: a tile this weakly outlined may have lost a strip


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
    reading's typical tile replaced by the best of its squares (best_square, from its rough outline)."""
    typical = float(np.median([support for _, support in tiles]))
    return [best_square(quad, image, REACH_LONE) if lone and support < WEAK * typical else (tile, support)
            for (tile, support), (quad, lone) in zip(tiles, rough)]
