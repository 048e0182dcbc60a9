"""A reading's tiles mended with tiles other readings saw alone in their place.

Readings are chosen whole, but one mask can join a tile to a patch of the table in the face's colour (a checked
cloth's pale squares, glare) or lose a corner of it to a shadow, while another mask, wrong in its count elsewhere,
sees that tile on its own.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..geometry import mean_side, quad_area
from .outlines import lone_quad, plausible, tile_shaped
from .quads import rough_quad
from .sides import REACH_LONE, order_screen_clockwise, refine_quad

# Moved: 1.125 dev 46, test 32; 1.875 dev 46, test 35.
CLEARLY_BETTER = 1.5  # how much better on edges a tile another reading saw alone must lie to replace the chosen one
# Moved: 0.1125 dev 46, test 31; 0.1875 dev 46, test 35.
ELSEWHERE = 0.15  # of a side: how far one of its corners must lie from the chosen tile's for it to replace it
# Moved to 0.6 or 1.0: dev and test as set.
PIECE = 0.8  # of a tile's area: a misshapen outline smaller than this is a piece of it, not the tile missing a corner
# Moved to 0.225 or 0.375: dev and test as set.
NEAR = 0.3  # of a side: how near a tile's centre another reading's outline must lie to be the same tile


def mended(quads: list[tuple[np.ndarray, bool]], number: int, seen: list[tuple[int, np.ndarray]],
           edges_image: np.ndarray, support: Callable[[np.ndarray], float]) -> list[tuple[np.ndarray, bool]]:
    """The chosen reading's tiles (work pixels, each marked whether lone), each replaced by a lone tile another
    reading saw in its place whose sides lie clearly better on edges; `seen` holds (reading, outline) pairs, and
    `support` gives a quad's edge support on `edges_image` (sides.remembered_support).

    A side on the tile's own edge all along outscores one cutting across the table by far. Outlines a few percent
    apart are a side on the edge and one on a printed frame line or a side band, which edge support does not tell
    apart reliably (and which tracing the face settles later): only an outline far from the chosen one replaces it.
    """
    others = [hull for reading, hull in seen if reading != number]
    if not others:
        return quads
    centres = np.array([hull.mean(axis=0) for hull in others])
    result = list(quads)
    alternatives: dict[tuple, tuple[np.ndarray, float]] = {}  # readings often see the same tile: refine it once
    for index, (quad, _) in enumerate(quads):
        side = mean_side(quad)
        near = np.flatnonzero(np.linalg.norm(centres - quad.mean(axis=0), axis=1) < NEAR * side)
        near = [k for k in near if not alike(others[k], quad, side) and not piece(others[k], quad)]
        if not near:
            continue
        best, best_support = None, CLEARLY_BETTER * support(quad)
        for k in near:
            tile, value = seen_tile(others[k], edges_image, alternatives, support)
            apart = np.max(np.linalg.norm(order_screen_clockwise(tile) - order_screen_clockwise(quad), axis=1))
            if value > best_support and apart > ELSEWHERE * side:
                best, best_support = tile, value
        if best is not None and plausible_with(result, index, best):
            result[index] = (best, True)
    return result


def patched(rough: list[tuple[np.ndarray, bool]], number: int, seen: list[tuple[int, np.ndarray]],
            edges_image: np.ndarray, support: Callable[[np.ndarray], float]) -> list[tuple[np.ndarray, bool]] | None:
    """A reading's rough tiles with each one that is no tile's shape (a corner lost to a shadow or glare, too
    deep for the outline's own sides to restore) replaced by the best-supported tile-shaped outline another
    reading saw in its place; None when some misshapen tile has no such stand-in."""
    quads = np.array([quad for quad, _ in rough])
    misshapen = np.flatnonzero(~tile_shaped(np.array([order_screen_clockwise(q) for q in quads])))
    others = [hull for reading, hull in seen if reading != number]
    if not len(misshapen) or not others:
        return None
    side = float(np.median(np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)))
    centres = np.array([hull.mean(axis=0) for hull in others])
    result = list(rough)
    alternatives: dict[tuple, tuple[np.ndarray, float]] = {}
    for index in misshapen:
        near = np.flatnonzero(np.linalg.norm(centres - quads[index].mean(axis=0), axis=1) < NEAR * side)
        stand_ins = [seen_tile(others[k], edges_image, alternatives, support) for k in near]
        stand_ins = [(tile, value) for tile, value in stand_ins if tile_shaped(order_screen_clockwise(tile))]
        if not stand_ins:
            return None
        result[index] = (max(stand_ins, key=lambda found: found[1])[0], True)
    return result


def alike(hull: np.ndarray, quad: np.ndarray, side: float) -> bool:
    """Whether an outline's rough corners all lie near a tile's: then it is the outline that tile came from, or
    one like it, and cannot give a tile far from it (checked before the costlier fit and side search)."""
    corners = order_screen_clockwise(rough_quad(hull))
    return bool(np.max(np.linalg.norm(corners - order_screen_clockwise(quad), axis=1)) < ELSEWHERE / 2 * side)


def piece(hull: np.ndarray, quad: np.ndarray) -> bool:
    """Whether an outline is a piece of a tile (a stricter mask broke the tile up): misshapen and smaller than
    what a tile missing a corner leaves."""
    return bool(quad_area(hull) < PIECE * quad_area(quad) and not tile_shaped(order_screen_clockwise(rough_quad(hull))))


def seen_tile(hull: np.ndarray, edges_image: np.ndarray, alternatives: dict[tuple, tuple[np.ndarray, float]],
              support: Callable[[np.ndarray], float]) -> tuple[np.ndarray, float]:
    """A lone tile's outline from another reading, its sides put on their edges, and its edge support (kept in
    `alternatives` by rough outline, so each is refined once)."""
    rough = lone_quad(hull, edges_image)
    key = tuple(np.rint(rough / 2).astype(int).ravel())
    if key not in alternatives:
        tile = refine_quad(rough, edges_image, REACH_LONE)
        alternatives[key] = (tile, support(tile))
    return alternatives[key]


def plausible_with(quads: list[tuple[np.ndarray, bool]], index: int, quad: np.ndarray) -> bool:
    """Whether the tiles are still plausible with tile `index` replaced by `quad`."""
    return plausible([quad if i == index else q for i, (q, _) in enumerate(quads)])
