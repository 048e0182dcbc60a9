"""A tile's sides put on the strongest straight edges near them, and how well a quad's sides lie on edges."""
from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from ..geometry import apply_homography, line_through, mean_side, quad_from_lines, quantile, side_lengths

CELL = 128  # pixels per tile side when a tile is rectified to search for its sides
MARGIN = 16  # pixels kept around the rectified tile, room for the side search
# Moved: 0.015 dev 45, test 32; 0.025 dev 46, test 33.
REACH_LONE = 0.02  # how far (of a side) a lone tile's side may lie from its outline in the face mask
# Moved: 0.0338 dev 46, test 40; 0.0562 dev 45, test 33.
REACH_BLOCK = 0.045  # how far a side of a tile split from a block may lie from the grid's estimate
# Where along a side its edge is sampled (of the side; the rounded corners left out), and those places' pixels in
# the rectified tile: the same for every tile, so made once.
ALONG = np.linspace(0.1, 0.9, 48)
ALONG_PIXELS = np.rint(MARGIN + ALONG * CELL).astype(int)


def order_screen_clockwise(points: np.ndarray) -> np.ndarray:
    offset = points - points.sum(axis=0) / len(points)  # points.mean(axis=0) to the bit, without its overhead
    return points[np.argsort(np.arctan2(offset[:, 1], offset[:, 0]))]


def rectified(image: np.ndarray, quad: np.ndarray, width: int, height: int, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """The quad's neighbourhood warped so the quad fills [margin, margin + width] x [margin, margin + height];
    also the homography taking those pixels back to the image."""
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32) + margin
    to_canvas = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    size = (width + 2 * margin, height + 2 * margin)
    canvas = cv2.warpPerspective(image, to_canvas, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return canvas, np.linalg.inv(to_canvas)


def edge_strength(canvas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How strongly each pixel changes across x and across y, summed over the colour channels."""
    across_x = np.abs(cv2.Sobel(canvas, cv2.CV_32F, 1, 0, ksize=3))
    across_y = np.abs(cv2.Sobel(canvas, cv2.CV_32F, 0, 1, ksize=3))
    if across_x.ndim == 3:
        across_x, across_y = channel_sum(across_x), channel_sum(across_y)
    return across_x, across_y


def channel_sum(values: np.ndarray) -> np.ndarray:
    """The channels (the last axis, a colour's few) added, as values.sum(axis=-1) adds them, to the bit, at a tenth
    of its cost: numpy reduces a short last axis slowly."""
    total = values[..., 0]
    for channel in range(1, values.shape[-1]):
        total = total + values[..., channel]
    return total


def channel_norm(values: np.ndarray) -> np.ndarray:
    """np.linalg.norm(values, axis=-1), to the bit, at a fraction of its cost for a short last axis (a colour)."""
    return np.sqrt(channel_sum(values * values))


def refine_quad(quad: np.ndarray, image: np.ndarray, reach: float) -> np.ndarray:
    """The quad with each side moved to the tile's own edge near it: the strongest straight edge within reach.

    The tile is rectified (CELL pixels a side); each side is searched as a line free at both ends within `reach`
    (of a side) of where it was thought to be.
    """
    corners = order_screen_clockwise(quad)
    canvas, from_canvas = rectified(image, corners, CELL, CELL, MARGIN)
    across_x, across_y = edge_strength(canvas)
    lines = []
    for side, (strength, base, outward) in enumerate([(across_y, MARGIN, -1), (across_x, MARGIN + CELL, 1),
                                                      (across_y, MARGIN + CELL, 1), (across_x, MARGIN, -1)]):
        start, end = side_offsets(strength if side % 2 else strength.T, base, outward, reach)
        # Side 0 runs along x at y = base, side 1 along y at x = base, and so on: points back in canvas (x, y).
        ends = [(MARGIN, base + outward * start), (MARGIN + CELL, base + outward * end)]
        if side % 2:
            ends = [(y, x) for x, y in ends]
        lines.append(line_through(*apply_homography(from_canvas, np.array(ends, dtype=np.float64))))
    try:
        refined = quad_from_lines(lines)  # corner i is where side i-1 meets side i: W/N, N/E, E/S, S/W
    except ValueError:
        return corners
    side = mean_side(corners)
    # Each side moved at most `reach`, so a corner that moved far means nearly parallel neighbouring sides.
    return refined if np.max(np.linalg.norm(refined - corners, axis=1)) < 3 * reach * side else corners


def side_offsets(strength: np.ndarray, base: int, outward: int, reach: float) -> tuple[float, float]:
    """Outward offsets, at the side's start and end, of the tile's own edge near the line `base` of `strength`.

    `strength` is indexed [along the side, across it]. Every line from offset a at the start to offset b at the
    end within reach is scored by its edge strength along it (the rounded corners left out); the strongest is the
    face's edge.
    """
    reach = max(1, int(round(reach * CELL)))
    offsets = np.arange(-reach, reach + 1)
    t, along = ALONG, ALONG_PIXELS
    a, b = np.meshgrid(offsets, offsets, indexing="ij")
    across = base + outward * (a[..., None] + (b - a)[..., None] * t)  # (a, b, samples)
    across = np.clip(np.rint(across).astype(int), 0, strength.shape[1] - 1)
    # A tile's edge runs its whole length; a motif's straight stretch only part of it: score by the weaker half.
    values = np.sort(strength[along, across], axis=2)
    score = values[..., : values.shape[2] // 2].mean(axis=2)
    # Lines far from the rough side, or turned from it, are trusted a little less, so a printed frame, a motif's
    # straight stretch or a neighbour's edge does not win by a hair.
    score = score * (1 - 0.25 * ((a + b) / (2 * reach)) ** 2 - 0.5 * ((b - a) / (2 * reach)) ** 2)
    # Profile over the line's mean offset (half-pixel steps), each taking its best slope, for a sub-pixel peak.
    middle = (a + b + 2 * reach).ravel()
    profile = np.full(4 * reach + 1, -np.inf)
    np.maximum.at(profile, middle, score.ravel())
    pick = int(np.argmax(profile))
    flat = np.flatnonzero(middle == pick)
    k = flat[int(np.argmax(score.ravel()[flat]))]
    start, end = float(a.ravel()[k]), float(b.ravel()[k])
    if 0 < pick < len(profile) - 1:  # sub-pixel: a parabola through the peak and its neighbours
        left, centre, right = profile[pick - 1], profile[pick], profile[pick + 1]
        curve = left - 2 * centre + right
        if curve < 0:
            shift = 0.5 * (left - right) / curve * 0.5
            start, end = start + shift, end + shift
    return start, end


def edge_support(quad: np.ndarray, image: np.ndarray) -> float:
    """How well a quad's sides lie on edges: the weakest side's edge strength along its weaker half, relative to
    the strength just inside the tile (so a faint photo's tiles count as much as a crisp one's)."""
    corners = order_screen_clockwise(quad)
    canvas, _ = rectified(image, corners, CELL, CELL, MARGIN)
    across_x, across_y = edge_strength(canvas)
    along = ALONG_PIXELS
    near, far = MARGIN, MARGIN + CELL
    sides = [across_y[near - 2:near + 3, along].max(axis=0), across_x[along, far - 2:far + 3].max(axis=1),
             across_y[far - 2:far + 3, along].max(axis=0), across_x[along, near - 2:near + 3].max(axis=1)]
    weaker_halves = [np.sort(side)[: len(side) // 2].mean() for side in sides]
    inside = np.median(across_x[MARGIN + 8:MARGIN + CELL - 8, MARGIN + 8:MARGIN + CELL - 8]) + 1.0
    return float(min(weaker_halves) / inside)


def remembered_support(image: np.ndarray) -> Callable[[np.ndarray], float]:
    """edge_support on `image` as a function of the quad alone, each outline measured once: readings share
    outlines, and the chosen reading's are weighed again against the others' (sharpest_outlines, mending)."""
    known: dict[bytes, float] = {}

    def support(quad: np.ndarray) -> float:
        corners = order_screen_clockwise(np.asarray(quad, dtype=np.float64))
        key = corners.tobytes()
        if key not in known:
            known[key] = edge_support(corners, image)
        return known[key]

    return support


# Moved to 0.06 or 0.1: dev and test as set.
SAME_TILE = 0.08  # of a side: the farthest corner of two readings' outlines of one tile
# Moved to 0.0112 or 0.0187: dev and test as set.
NEARLY_SAME = 0.015  # of a side: outlines whose corners all lie this near are one outline
# Moved to 1.125 or 1.875: dev and test as set.
CLEARLY_SHARPER = 1.5  # how much better on edges another reading's outline of a tile must lie to replace it
# Moved: 0.0375 dev 46, test 33; 0.0625 dev 46, test 32.
LESS_SQUARE = 0.05  # this much more elongated (length over width) than the outline it replaces: a patch joined on


def sharpest_outlines(tiles: list[tuple[np.ndarray, bool]], others: list[list[tuple[np.ndarray, bool]]],
                      support: Callable[[np.ndarray], float],
                      whole: Callable[[np.ndarray, np.ndarray], bool] | None = None) -> list[tuple[np.ndarray, bool]]:
    """A reading's tiles (each marked whether lone), each lone tile replaced by another reading's outline of the
    same tile (every corner near) whose sides lie clearly better on edges (`support`: a quad's edge_support) and
    that is a whole tile in place of the one it replaces (`whole(outline, replaced)`, if given: a patch inside a
    tile, within a printed border, lies on edges as sharp).

    Readings are chosen by their weakest tile, so the chosen one may outline some other tile worse than another
    reading does: a mask that takes in a patch of the table by one corner tilts that side, which the side
    search, looking only near the outline, cannot straighten.
    """
    outlines = [order_screen_clockwise(other) for reading in others for other, other_lone in reading if other_lone]
    result = []
    for quad, lone in tiles:
        if not lone:  # a block's tiles are outlined with the block
            result.append((quad, lone))
            continue
        corners = order_screen_clockwise(quad)
        side = mean_side(corners)
        # Readings mostly share their outline of a tile: each other outline is weighed once, and those within a
        # pixel or two of this one not at all (they cannot lie clearly better on edges).
        same: dict[tuple, np.ndarray] = {}
        for other in outlines:
            apart = np.max(np.linalg.norm(other - corners, axis=1))
            if NEARLY_SAME * side < apart < SAME_TILE * side:
                same.setdefault(tuple(np.rint(other).astype(int).ravel()), other)
        best = quad
        if same:
            best_support = CLEARLY_SHARPER * support(corners)
            longest = elongation(corners) + LESS_SQUARE
            for other in same.values():
                value = support(other)
                if value > best_support and elongation(other) <= longest and (whole is None or whole(other, quad)):
                    best, best_support = other, value
        result.append((best, lone))
    return result


# Moved: 0.015 dev 46, test 34; 0.025 dev 46, test 34.
AGREE = 0.02  # of a side: two readings' outlines of a tile whose corners all lie this near say the same
# Of a side: the farthest corner of another reading's outline of the same tile that is weighed in agreed_outlines.
# Wrong outlines chosen on the dev families' photos (a side on a printed frame or a shadow) lay 5-9% off.
# Moved: 0.09 dev 46, test 34; 0.15 dev 46, test 33.
SAME_TILE_WIDE = 0.12


def agreed_outlines(tiles: list[tuple[np.ndarray, bool]], others: list[list[list[tuple[np.ndarray, bool]]]],
                    support: Callable[[np.ndarray], float],
                    whole: Callable[[np.ndarray, np.ndarray], bool] | None = None) -> list[tuple[np.ndarray, bool]]:
    """A reading's tiles (each marked whether lone), each replaced by the outline of the same tile (every corner
    within SAME_TILE_WIDE of a side) that more kinds of reading agree on, within AGREE of a side, than on its own;
    `others`: the sound readings' tiles, grouped by kind (segment.by_kind), the chosen reading among them.

    The kinds are masks made in different ways (face colour, edges, table difference, texture); each errs on some
    tile in its own way (a side on a printed frame, a shadow, a motif's straight edge), rarely on the same tile the
    same way. A reading is chosen by its weakest tile, often by a hair among near equals; tile by tile, the outline
    most kinds share is the tile's own. Between outlines as many kinds share, the one more readings share; ties keep
    the chosen outline. `whole(outline, replaced)`, if given: the new outline must have the table around it and
    take in no more of it than the one it replaces (segment.whole_tile).

    A tile cut from a block is not given an outline that lies clearly worse on edges (CLEARLY_SHARPER) than its own:
    its sides were put on the edges between the block's tiles, and taken off the gaps (gaps.py), after which no
    reading shares its outline any more; masks outline such a tile across a gap or a seam, on no edge. A lone tile
    may be: the plain face inside a printed border lies on sharper edges than the tile's own against the table.
    """
    kinds = [[order_screen_clockwise(other) for reading in kind for other, _ in reading] for kind in others]
    result = []
    for quad, lone in tiles:
        corners = order_screen_clockwise(quad)
        side = mean_side(corners)
        same = [[o for o in kind if np.max(np.linalg.norm(o - corners, axis=1)) < SAME_TILE_WIDE * side]
                for kind in kinds]

        def agreeing(outline: np.ndarray) -> tuple[int, int]:  # how many kinds of reading, and readings, say so
            near = [[np.max(np.linalg.norm(o - outline, axis=1)) < AGREE * side for o in kind] for kind in same]
            return sum(any(kind) for kind in near), sum(sum(kind) for kind in near)

        own, own_support = agreeing(corners), support(corners)
        best, best_key = quad, (*own, own_support)
        for other in (o for kind in same for o in kind):
            key = (*agreeing(other), support(other))
            if key[:2] > own and key > best_key and (lone or CLEARLY_SHARPER * key[2] >= own_support) and \
                    (whole is None or whole(other, quad)):
                best, best_key = other, key
        result.append((best, lone))
    return result


def elongation(quad: np.ndarray) -> float:
    """How much longer a quad is than wide: the ratio of its mean lengths across the two pairs of opposite sides
    (1 for a square; a phone's tilt foreshortens a tile by up to about a fifth)."""
    lengths = side_lengths(quad)
    pairs = lengths[[0, 1]] + lengths[[2, 3]]
    return float(pairs.max() / pairs.min())


def no_less_square(tiles: list[tuple[np.ndarray, bool]],
                   before: list[tuple[np.ndarray, bool]]) -> list[tuple[np.ndarray, bool]]:
    """Each tile, unless it is clearly more elongated than the outline it replaced (`before`, in the same order),
    then that one: a cloth's pale square beside a tile joins it in some mask into a longer outline, whose far side
    lies on a sharper edge (the cloth's own) than the tile's."""
    return [(quad, lone) if elongation(order_screen_clockwise(quad)) <= elongation(order_screen_clockwise(old))
            + LESS_SQUARE else (old, old_lone) for (quad, lone), (old, old_lone) in zip(tiles, before)]


RUN_CELL = 64  # pixels per tile side when a tile is rectified to look across its sides
RUN_PLACES = 24  # places along each side where it is looked across
# Moved to (0.0225,0.0525) or (0.0375,0.0875): dev and test as set.
RUN_INSIDE = (0.03, 0.07)  # of a side: the stretch inside a side whose colour is the face's there (past a frame line)
# Moved to 0.075 or 0.125: dev and test as set.
RUN_OUTSIDE = 0.10  # of a side: how far past the side the face's colour must run on, unbroken
# Moved to (4.5,9.0) or (7.5,15.0): dev and test as set.
RUN_TOLERANCE = (6.0, 12.0)  # weighted Lab: the least and most a colour may differ from the face's and be it


def face_runs_on(quad: np.ndarray, image: np.ndarray) -> np.ndarray:
    """For each side of a quad (clockwise on screen from order_screen_clockwise's first corner), at how many of
    RUN_PLACES places along it the plain face just inside runs on unbroken, in colour, to RUN_OUTSIDE beyond it.

    Few or none for a lone tile's own outline, whose face ends at a step to its side band, shadow or the table.
    A mask that lost a shaded strip of a face cuts across it, and such a side can lie on a motif's straight edges
    as well as a tile's own does (`image`: weighted Lab, as for edge_support)."""
    corners = order_screen_clockwise(quad)
    margin = int(round((RUN_OUTSIDE + 0.05) * RUN_CELL))
    canvas, _ = rectified(image, corners, RUN_CELL, RUN_CELL, margin)
    along = np.rint(margin + np.linspace(0.1, 0.9, RUN_PLACES) * RUN_CELL).astype(int)
    depth = np.arange(-int(round(RUN_INSIDE[1] * RUN_CELL)), int(round(RUN_OUTSIDE * RUN_CELL)) + 1)
    # Side k is the top row of the canvas turned k times, its outside above it.
    traces = np.stack([np.rot90(canvas, side)[margin - depth[None, :], along[:, None]] for side in range(4)])
    inside = depth <= -RUN_INSIDE[0] * RUN_CELL
    reference = np.median(traces[:, :, inside], axis=2)
    distance = channel_norm(traces - reference[:, :, None])
    spread = distance[:, :, inside].max(axis=2)
    # Motifs make many places noisy: the face's own noise is that of the plainest places. A small or blurred tile's
    # edge blurs into the stretch inside it; the tolerance stays below the step from a dark motif to a dark table.
    tolerance = float(np.clip(4 * quantile(spread, 0.25), *RUN_TOLERANCE))
    return np.sum((spread < tolerance) & (distance[:, :, ~inside].max(axis=2) < tolerance), axis=1)
