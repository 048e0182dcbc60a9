"""The side two touching tiles share, fitted once for both on their seam."""
from __future__ import annotations

import cv2
import numpy as np

from ..geometry import line_through, mean_side, quad_from_lines, robust_line
from .snap import SNAP_WEIGHTS, agreeing

# Moved to 0.0015 or 0.0025: dev and test as set.
SEAM_STEP = 0.002  # of a side, between samples of a trace across a seam
# Moved to 24 or 40: dev and test as set.
SEAM_POSITIONS = 32  # places along a seam where it is traced across
# Moved to 0.105 or 0.175: dev and test as set.
SEAM_DEPTH = 0.14  # of a side, how far each trace reaches into either tile
# Of a side: how far, where traces that deep found no seam along both ends of it; a block's grid cut, each tile's
# side then put on the strongest straight edge near it, can still lie 5-9% off the seam at one end.
# Moved to 0.165 or 0.275: dev and test as set.
SEAM_DEPTH_WIDE = 0.22
# Moved to 0.06 or 0.1: dev and test as set.
SEAM_REFERENCE = 0.08  # of a side: a trace's stretch deeper than this into a tile is that tile's face
# Moved: 0.0525 dev 46, test 33; 0.0875 dev 46, test 32.
SEAM_APART = 0.07  # of a side: faces ending farther apart than this are not across one seam
# Moved to 0.0188 or 0.0312: dev and test as set.
SEAM_WIDTH = 0.025  # of a side: the widest a seam's dark line is (1-2% seen); a gap showing the table is wider
# Of a side: the farthest apart two faces printed with a border (a band of one colour along the tile's edge, up to
# 9% of a side on the generator's faces) end across one seam: both borders and the seam between them. Against no
# border seams at all (0, bench/bordered_seams.py, easy, medium and hard, seeds 20000-20011, the layout each
# draws): mean corner error on bordered faces dev 2.08 -> 1.46% of a side (13 photos better, none worse), test
# families (never tuned on) 2.02 -> 1.61% (9 better, none worse); nothing moves on other faces. Moved
# (bench/find_constants.py, as set dev 55/64, test 34/48 exact; 0 test 33): 0.15 and 0.25 as set.
BORDERS_APART = 0.2
# Of a side: how far, where traces SEAM_DEPTH_WIDE deep found no seam: both tiles' sides may lie on one border's
# inner edge (the strongest edge near them), a border's width off the seam, so the other face starts up to two
# borders away, and a trace must reach past it by SEAM_REFERENCE. Moved to 0.225 or 0.375: dev and test as set.
SEAM_DEPTH_BORDERS = 0.3


def fit_seams(tiles: list[np.ndarray], image: np.ndarray) -> list[np.ndarray]:
    """The quads (full-resolution pixels, clockwise on screen) with each side shared with a touching neighbour
    moved onto their seam, one straight line for both tiles.

    Across a seam each face ends either at the seam itself (real tiles), at a printed frame line as far inside
    its own edge as the other's (generated ones), or at a printed border's inner edge, a border's width inside
    (bordered_seams): either way the seam lies midway between where the two faces end. Fitting it once for both
    tiles keeps neighbours from overlapping or leaving a sliver between them.
    """
    lines = [[line_through(q[s], q[(s + 1) % 4]) for s in range(4)] for q in tiles]
    for a, i, b, j in neighbour_sides(tiles):
        seam = seam_line(tiles[a], i, tiles[b], j, image)
        if seam is None:
            seam = seam_line(tiles[a], i, tiles[b], j, image, SEAM_DEPTH_WIDE)
        if seam is None:
            seam = seam_line(tiles[a], i, tiles[b], j, image, SEAM_DEPTH_BORDERS)
        if seam is not None:
            lines[a][i] = lines[b][j] = seam
    result = []
    for quad, sides in zip(tiles, lines):
        try:
            moved = quad_from_lines(sides)
        except ValueError:
            moved = quad
        side = mean_side(quad)
        result.append(moved if np.max(np.linalg.norm(moved - quad, axis=1)) < 0.15 * side else quad)
    return result


def outward_normal(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    direction = (end - start) / np.linalg.norm(end - start)
    return np.array([direction[1], -direction[0]])  # clockwise on screen (y down): the outside is on the left


def neighbour_sides(tiles: list[np.ndarray]) -> list[tuple[int, int, int, int]]:
    """Pairs of facing sides (tile a, side i, tile b, side j), a < b, of tiles that lie side by side: b's centre
    about a side's length straight out from a's side i, and j the side of b turned most nearly against it."""
    centres = np.array([q.mean(axis=0) for q in tiles])
    pairs = []
    for a, quad in enumerate(tiles):
        side = mean_side(quad)
        for i in range(4):
            start, end = quad[i], quad[(i + 1) % 4]
            normal = outward_normal(start, end)
            direction = (end - start) / np.linalg.norm(end - start)
            middle = (start + end) / 2
            away, along = (centres - middle) @ normal, (centres - middle) @ direction
            near = np.flatnonzero((away > 0.3 * side) & (away < 0.75 * side) & (np.abs(along) < 0.3 * side))
            for b in near[near > a]:
                other = tiles[b]
                facing = [outward_normal(other[k], other[(k + 1) % 4]) @ normal for k in range(4)]
                pairs.append((a, i, int(b), int(np.argmin(facing))))
    return pairs


def seam_line(first: np.ndarray, i: int, second: np.ndarray, j: int, image: np.ndarray,
              reach: float = SEAM_DEPTH) -> np.ndarray | None:
    """The seam between side i of one quad and side j of its neighbour (quads clockwise on screen), as a line
    (a, b, c), traced up to `reach` (of a side) into either tile; None where the faces do not clearly end on both
    sides of one seam along most of it."""
    ends = np.array([first[i], first[(i + 1) % 4]])
    facing = np.array([second[(j + 1) % 4], second[j]])  # clockwise quads run along a shared side in turn
    guess = (ends + facing) / 2  # first guess: midway between the two sides
    length = float(np.linalg.norm(guess[1] - guess[0]))
    direction, normal = (guess[1] - guess[0]) / length, outward_normal(*guess)
    side = mean_side(first)
    # The stretch both sides share.
    shared = np.sort(np.clip((np.r_[ends, facing] - guess[0]) @ direction, 0, length).reshape(2, 2), axis=1)
    low, high = shared[:, 0].max(), shared[:, 1].min()
    if high - low < 0.5 * side:
        return None
    # Motif halves sit on the middle of the side and may reach the seam: the faces are traced near the ends.
    fractions = np.linspace(0.05, 0.2, SEAM_POSITIONS // 2)
    along = low + np.r_[fractions, 1 - fractions[::-1]] * (high - low)
    depth = np.arange(-reach, reach + SEAM_STEP / 2, SEAM_STEP) * side
    where = (guess[0] + along[:, None, None] * direction + depth[None, :, None] * normal).astype(np.float32)
    samples = cv2.remap(image, where[..., 0], where[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    traces = cv2.cvtColor(samples, cv2.COLOR_RGB2LAB).astype(np.float32) * SNAP_WEIGHTS
    # Where each face ends, traced from deep inside it towards the other: the seam lies midway.
    near_end, off_near = face_end(traces)
    far_end, off_far = face_end(traces[:, ::-1])
    far_end = len(depth) - 1 - far_end
    apart = far_end - near_end
    valid = np.isfinite(apart) & (apart > 0) & (apart < SEAM_APART / SEAM_STEP)
    # A seam is a thin dark line (with printed frames, a face's thin strip on either side of it); the table
    # showing through a gap between tiles is wider, and each tile's edge is then its own.
    between = (np.arange(len(depth)) > near_end[:, None]) & (np.arange(len(depth)) < far_end[:, None])
    neither = off_near & off_far[:, ::-1] & between
    valid &= longest_run(neither) <= SEAM_WIDTH / SEAM_STEP
    # Two faces printed with a border end a border's width inside each tile: the band between them is one border,
    # the seam, the other border, the same print mirrored about a thin line; a gap showing the table is not.
    valid |= bordered_seams(traces, near_end, far_end)
    middle = np.interp(np.where(valid, (near_end + far_end) / 2, 0), np.arange(len(depth)), depth)
    offsets = np.where(valid, middle, np.nan)
    good = np.concatenate([agreeing(half, 0.01 * side) for half in np.split(offsets, 2)])
    if not good[: len(good) // 2].any() or not good[len(good) // 2:].any():
        return None  # both ends are needed to set the seam's slope
    return robust_line(guess[0] + along[good, None] * direction + offsets[good, None] * normal)


def bordered_seams(traces: np.ndarray, near_end: np.ndarray, far_end: np.ndarray) -> np.ndarray:
    """Which traces (faces ending at near_end and far_end, sample indices) cross two printed borders and the seam
    between them: the faces end more than SEAM_APART and less than BORDERS_APART apart; the band between them reads
    alike mirrored about its middle (each border is the same print); and its middle, and no more than a seam's width,
    is unlike the rest (a line where the tiles meet; a plain table in a gap has none or a wide one, a textured one
    does not mirror)."""
    apart = far_end - near_end
    candidates = np.isfinite(apart) & (apart > SEAM_APART / SEAM_STEP) & (apart < BORDERS_APART / SEAM_STEP)
    half_line = max(1, int(round(SEAM_WIDTH / SEAM_STEP / 2)))
    found = np.zeros(len(traces), bool)
    for row in np.flatnonzero(candidates):
        band = traces[row, int(np.ceil(near_end[row])) + 1: int(np.floor(far_end[row]))]
        centre = len(band) // 2
        if centre <= 2 * half_line:
            continue
        one, other = band[: centre - half_line], band[::-1][: centre - half_line]
        sides = np.concatenate([one, other])
        border = np.median(sides, axis=0)
        tolerance = clear_step(float(np.median(np.linalg.norm(sides - border, axis=1))))
        mirrored = float(np.median(np.linalg.norm(one - other, axis=1))) < tolerance
        unlike = np.linalg.norm(band - border, axis=1) > tolerance
        # a line, and a thin one: the table in a gap between two bordered tiles is unlike the borders too
        line = unlike[centre - half_line: centre + half_line + 1].any()
        found[row] = mirrored and line and longest_run(unlike[None])[0] <= SEAM_WIDTH / SEAM_STEP
    return found


def face_end(traces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where (sub-sample index) each trace, starting deep in a face, first leaves the face colour for two samples
    in a row, NaN where the start is not plain face; and which samples are off that face."""
    off, distance, threshold, ok = off_face(traces)
    count = len(traces)
    left = off[:, :-1] & off[:, 1:]
    left[:, : int(round(SEAM_REFERENCE / SEAM_STEP))] = False
    first = np.argmax(left, axis=1)
    place = np.arange(count)
    d0, d1 = distance[place, np.maximum(first - 1, 0)], distance[place, first]
    crossing = first - 1 + np.clip((threshold - d0) / np.maximum(d1 - d0, 1e-6), 0, 1)
    return np.where(ok & left.any(axis=1), crossing, np.nan), off


def off_face(traces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Which samples of each trace are off the face its start lies on; the distance from that face's colour and
    the threshold it is judged by; and whether the start is plain face."""
    start = int(round(SEAM_REFERENCE / SEAM_STEP))
    reference = np.median(traces[:, :start], axis=1)
    distance = np.sqrt(np.square(traces - reference[:, None]).sum(axis=2))
    noise = np.median(distance[:, :start], axis=1)
    tile_noise = float(np.median(noise))
    # A frame line or the seam: a clear step off the face, part way to the darkest point between the faces.
    threshold = np.maximum(clear_step(tile_noise), 0.4 * distance[:, start:-start].max(axis=1))
    off = distance > threshold[:, None]
    # A motif in the reference stretch is far noisier than the face; an over-exposed face has no noise at all.
    ok = (noise <= 2 * tile_noise + 4) & ~off[:, :start].any(axis=1)
    return off, distance, threshold, ok


def clear_step(noise: float) -> float:
    """How far off a colour a sample must lie to be off it, for colours this noisy (weighed Lab)."""
    return max(4 * noise, 8.0)


def longest_run(flags: np.ndarray) -> np.ndarray:
    """The longest run of True in each row."""
    counts = np.cumsum(flags, axis=1)
    runs = counts - np.maximum.accumulate(np.where(flags, 0, counts), axis=1)
    return runs.max(axis=1)
