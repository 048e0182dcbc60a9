"""Every tile of a puzzle is the same square: an outline wider or narrower than the others is brought to their size.

One homography takes the table's plane, seen through the camera, to a plane where every tile is a unit square
(fitted to all the outlines at once, a robust loss letting the few wrong ones stand out). An outline a shadow, a
neighbour's gap or the table's pattern widened (or a face's strip narrowed) is then wider (narrower) than 1 there
across one pair of sides; one of the two sides is off, and it is the one whose new place, a unit apart from the
other, lies on a clear edge: the tile's own. A side on a seam is only moved inwards: moved out, it would lie over the
neighbour's face (on the real skiers' photo in cool light, a seam moved out by 6% of a side cost 4 edges).
"""
from __future__ import annotations

import numpy as np

from ..geometry import apply_homography, rescale_points
from .sides import ALONG_PIXELS, CELL, MARGIN, edge_strength, order_screen_clockwise, rectified
from .snap import open_sides

UNIT_SQUARE = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
# Fitted on the dev families' 288 photos, with the test families' 214 beside them; the figures are photos with every
# tile found within 5% of a side (before this step: dev 269, test 195; as set: dev 271, test 199, outlines moved
# dev 24, 16 of them nearer their tile by 0.5% of a side or more and 3 farther; test 13, 11 and 1).
# Of a side: corners this far off the common plane of unit squares weigh half as much (a Cauchy loss).
# Moved to 0.01: dev 270, test 199.
LOSS_SCALE = 0.005
# Of a side: a width this far from the others' is a side off its edge. Outlines within 1.5% of their tile are within
# 0.01 of 1 on 95% of dev tiles; those with a side 3% or more off, 0.024 from it (median).
# Moved to 0.025: dev 272, test 198, moving 53 and 31 outlines, 4 and 5 of them farther off; 0.045: dev 269, test 198.
OFF_SIZE = 0.035
# Of the edge under the side it replaces: the least a moved side's edge must have.
# Moved to 0.375: dev 272, test 199 (4 and 3 moved farther off); 0.75: dev 270, test 197.
NEW_EDGE = 0.5


def to_size(tiles: list[np.ndarray], edges_image: np.ndarray, scale: float) -> list[np.ndarray]:
    """The tiles (full-resolution pixels) with each outline off the others' size across a pair of sides given the
    others' width by moving the side whose new place lies on the clearer edge (`edges_image`, work pixels, which
    are `scale` full-resolution pixels each)."""
    if len(tiles) < 4:
        return tiles  # too few to tell the tiles' size from an odd one's
    corners = [order_screen_clockwise(np.asarray(t, dtype=np.float64)) for t in tiles]
    to_plane = unit_plane(np.array(corners))
    sized = [resized(quad, to_plane, edges_image, scale, open_sides(quad, corners)) for quad in corners]
    return [tile if new is old else new for tile, new, old in zip(tiles, sized, corners)]


def unit_plane(quads: np.ndarray, iterations: int = 40) -> np.ndarray:
    """The homography taking the quads (n x 4 x 2, corners in order) nearest to unit squares, each placed and turned
    freely: Levenberg-Marquardt on the corners' distances to their squares, reweighted by a Cauchy loss so that a
    few wrong outlines do not bend it (scipy.optimize.least_squares would do, but importing it costs a run half a
    second)."""
    count = len(quads)
    side = float(np.median(np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2)))
    centre = quads.reshape(-1, 2).mean(axis=0)
    normalise = np.array([[1 / side, 0, -centre[0] / side], [0, 1 / side, -centre[1] / side], [0, 0, 1]])
    points = apply_homography(normalise, quads.reshape(-1, 2))

    def homographies(xs: np.ndarray) -> np.ndarray:
        return np.concatenate([xs + [1, 0, 0, 0, 1, 0, 0, 0], np.ones((len(xs), 1))], axis=1).reshape(-1, 3, 3)

    def residuals(xs: np.ndarray) -> np.ndarray:
        """Each parameter vector's (rows of xs) corner residuals, all at once."""
        mapped = np.einsum("mij,pj->mpi", homographies(xs), np.column_stack([points, np.ones(len(points))]))
        mapped = (mapped[..., :2] / mapped[..., 2:]).reshape(-1, 4, 2)
        return (mapped - nearest_squares(mapped)).reshape(len(xs), -1)

    x, damping, probe = np.zeros(8), 1e-3, 1e-6
    r = residuals(x[None])[0]
    for _ in range(iterations):
        weights = np.repeat(1 / (1 + (r.reshape(-1, 2) ** 2).sum(axis=1) / LOSS_SCALE**2), 2)
        jacobian = ((residuals(x + probe * np.eye(8)) - r) / probe).T
        normal = jacobian.T @ (weights[:, None] * jacobian)
        step = np.linalg.solve(normal + damping * np.diag(np.diag(normal) + 1e-12), -jacobian.T @ (weights * r))
        trial = residuals((x + step)[None])[0]
        if (weights * trial**2).sum() < (weights * r**2).sum():
            x, r, damping = x + step, trial, damping * 0.3
            if np.abs(step).max() < 1e-7:
                break
        else:
            damping *= 10
    return homographies(x[None])[0] @ normalise


def nearest_squares(quads: np.ndarray) -> np.ndarray:
    """For each quad (n x 4 x 2), the unit square placed and turned (or mirrored) nearest to its corners."""
    centres = quads.mean(axis=1, keepdims=True)
    u, _, vt = np.linalg.svd(np.einsum("ki,nkj->nij", UNIT_SQUARE, quads - centres))
    return UNIT_SQUARE @ (u @ vt) + centres


def widths(quad: np.ndarray, to_plane: np.ndarray) -> np.ndarray:
    """The quad's width in the unit plane across each pair of opposite sides (0 and 2, 1 and 3)."""
    plane = apply_homography(to_plane, quad)
    out = []
    for i in (0, 1):
        start, end = plane[i], plane[i + 1]
        normal = np.array([end[1] - start[1], start[0] - end[0]]) / np.linalg.norm(end - start)
        out.append(abs(np.dot((plane[i + 2] + plane[(i + 3) % 4]) / 2 - (start + end) / 2, normal)))
    return np.array(out)


def resized(quad: np.ndarray, to_plane: np.ndarray, edges_image: np.ndarray, scale: float,
            open_: list[bool]) -> np.ndarray:
    """The quad (full-resolution pixels) given unit width across each pair of sides where it is OFF_SIZE or more
    off, by moving the side whose new place lies on the clearer edge, if that edge is clear enough. A side no
    other tile lies across (`open_`, snap.open_sides) may move either way, one on a seam only inwards."""
    excess = widths(quad, to_plane) - 1
    if np.all(np.abs(excess) < OFF_SIZE):
        return quad
    canvas, from_canvas = rectified(edges_image, rescale_points(quad, 1 / scale), CELL, CELL, MARGIN)
    across_x, across_y = edge_strength(canvas)
    # Each side's place across the canvas (side 0 at the top, then clockwise) and its edge strength at any place.
    places = np.array([MARGIN, MARGIN + CELL, MARGIN + CELL, MARGIN], dtype=np.float64)
    inward = np.array([1, -1, -1, 1])
    profiles = (across_y[:, ALONG_PIXELS].T, across_x[ALONG_PIXELS, :])  # sides 0 and 2 run along x, 1 and 3 along y
    moved = places.copy()
    for pair, off in zip(((0, 2), (1, 3)), excess):
        if abs(off) < OFF_SIZE:
            continue
        shift = off / (1 + off) * CELL  # canvas pixels; inward when too wide, outward when too narrow
        choices = []
        for side in pair:
            if off < 0 and not open_[side]:
                continue  # a side on a seam moved out would lie over the neighbour's face
            strength, new = edge_along(profiles[side % 2], places[side] + inward[side] * shift)
            choices.append((strength, edge_along(profiles[side % 2], places[side])[0], side, new))
        if not choices:
            continue
        strength, was, side, new = max(choices)
        if strength >= NEW_EDGE * was:
            moved[side] = new
    if np.array_equal(moved, places):
        return quad
    top, right, bottom, left = moved
    square = np.array([[left, top], [right, top], [right, bottom], [left, bottom]])
    return rescale_points(apply_homography(from_canvas, square), scale)


def edge_along(profile: np.ndarray, place: float, search: int = 2) -> tuple[float, float]:
    """The clearest line parallel to a side within `search` pixels of `place`: its edge strength (the weaker half
    of its samples, as a tile's edge runs its whole length and a motif's straight stretch only part of it) and
    place. `profile` is indexed [along the side, across it]."""
    best = (0.0, place)
    for at in range(int(round(place)) - search, int(round(place)) + search + 1):
        if 0 <= at < profile.shape[1]:
            values = np.sort(profile[:, at])
            best = max(best, (float(values[: len(values) // 2].mean()), float(at)))
    return best

