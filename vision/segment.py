"""Find every tile in a photo: rough outlines from a mask of the face colour, then each side snapped to its edge.

Lone tiles are one component each; a block of touching (or nearly touching) tiles is split as an R x C grid of
equal tiles. Masks at stricter thresholds are tried when the loosest one takes in a pale table too. Each tile's
four sides are then searched for locally, as the strongest straight edge near the rough side, because tiles in a
hand-laid board each lie a little off any common grid. Finally a lone tile's sides are traced to where its face
ends, and the side two touching tiles share is put on their seam, midway between where their two faces end.
"""
from __future__ import annotations

import itertools

import cv2
import numpy as np

from .background import background_masks
from .errors import WrongTileCount
from .geometry import north_first, rescale_points
from .masks import FACE_THRESHOLDS, LAB_WEIGHTS, enclosed_masks, face_colour, face_masks
from .outlines import plausible, rough_quads, tile_components
from .seams import fit_seams
from .sides import REACH_BLOCK, REACH_LONE, edge_support, order_screen_clockwise, refine_quad
from .snap import open_sides, snap_to_face
from .squaring import squared_where_weak
from .types import Photo, TileQuad

EDGE_WEIGHTS = np.array([1.0, 1.5, 1.5], dtype=np.float32)  # an edge may be one of lightness or of colour
# Edge support (see edge_support) of a reading whose every tile has a clear outline; the weakest tile of a right
# reading of a generated medium photo scores 4-40, a wrong reading's under 1.5.
CONVINCING = 8.0


def find_tiles(photo: Photo, expected: int = 9) -> list[TileQuad]:
    """The outline of each tile in the photo, in full-resolution pixels, ordered top to bottom, left to right.

    Several readings of the photo are made (face-colour masks at three strictnesses, regions walled in by edges);
    of those that give the expected number of plausible tiles, the one whose tiles' sides lie best on real edges
    wins: a tile's side is a straight edge along its whole length, a wrong outline is not.
    """
    smooth = cv2.GaussianBlur(photo.work, (5, 5), 0)
    lab = cv2.cvtColor(smooth, cv2.COLOR_RGB2LAB).astype(np.float32)
    likeness = np.linalg.norm((lab - face_colour(lab)) * LAB_WEIGHTS, axis=2)
    edges_image = lab * EDGE_WEIGHTS
    raw_lightness = cv2.cvtColor(photo.work, cv2.COLOR_RGB2LAB)[..., 0]
    counts, best, best_support = [], None, -np.inf
    refined: dict[tuple, tuple[np.ndarray, float]] = {}  # readings often share tiles: refine each tile once
    readings = itertools.chain(face_masks(likeness), enclosed_masks(raw_lightness), background_masks(lab))
    for number, mask in enumerate(readings):
        if number == len(FACE_THRESHOLDS) and best_support >= CONVINCING:
            break  # the face colour found tiles with clear outlines: no need to look for walled-in regions
        components = tile_components(mask, expected)
        rough = rough_quads(components, edges_image)
        counts.append(len(rough))
        if len(rough) != expected or not plausible([q for q, _ in rough]):
            continue
        for quad, lone in rough:
            key = (lone, *np.rint(quad / 2).astype(int).ravel())
            if key not in refined:
                tile = refine_quad(quad, edges_image, REACH_LONE if lone else REACH_BLOCK)
                refined[key] = (tile, edge_support(tile, edges_image))
        tiles = [refined[(lone, *np.rint(quad / 2).astype(int).ravel())] for quad, lone in rough]
        if number >= len(FACE_THRESHOLDS):  # masks other than the face colour's often eat a strip of a tile
            tiles = squared_where_weak(tiles, rough, edges_image)
        quads = [(tile, lone) for (tile, _), (_, lone) in zip(tiles, rough)]
        support = min(value for _, value in tiles)
        if support > best_support:
            best, best_support = quads, support
    if best is None:
        # Report the count of the first (face colour) reading: it is the one a person can check on the photo.
        raise WrongTileCount(counts[0], expected)
    # A lone tile's sides are traced to where its face ends; a seam between touching tiles is no such place, and
    # is fitted once for the two tiles it divides.
    tiles = [order_screen_clockwise(rescale_points(q, photo.scale)) for q, _ in best]
    tiles = [snap_to_face(q, photo.image, open_sides(q, tiles)) for q in tiles]
    tiles = fit_seams(tiles, photo.image)
    return reading_order([TileQuad(north_first(q)) for q in tiles])


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
