"""Compare halves registered, by where they differ most: does one show something the other does not?

Copies of one half are one print: lined up at the small shift that brings them closest (found outlines are a few
pixels off), their pictures differ nowhere by more than noise and the odd line a pixel off. Two different halves
differ somewhere: in a whole figure, or only in a hat, a collar, a window. Sums of differences over the whole half,
and colour histograms, dilute such a detail among the pixels that agree, and a busy printed face, different behind
every copy, adds to every sum. So here two halves are as far apart as the largest difference of their lined-up
colour pictures, smoothed a little so that one noisy pixel does not decide. A lamp's glare on a glossy tile mixes
white into the print, strongly in one place and less around it, so that a copy under glare differs from its
siblings; each of two halves is therefore first washed toward white by the smooth field of glare that best explains
the other, and the smaller difference kept. A white hat where the other half has a red one is a sharp patch, which
a field smooth over the half does not explain.

Measured on the dev families' medium and hard photos at their true corners (seeds 10000-10011 and 20000-20011, 192
photos; test families never tuned on, 144), halves grouped right at the true number of types: with self-labelling's
appearance before (histograms, pictures, structure, now its blended second look) dev 128, test 78; lined up, glare
left in, dev 154, test 94; with the glare taken out dev 162, test 97. At the outlines the pipeline finds (same
photos, medium / hard): blended dev 61/47, test 42/27; glare left in dev 81/60, test 56/30; taken out dev 80/66,
test 55/33. Busy faces at found corners: blended dev 12 of 44, test 10 of 35; now dev 27, test 18.
Tried and not taken (dev true corners / found medium, hard): glare mixed in linear RGB, as light adds, dev 154/80/64
(test 99/57/34: chosen on dev, not on test); a field free within 4 pixels instead of one plane, dev 159/76/65; the
shift chosen on pictures of evened contrast, dev 160/80/65.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..rectify import territory

# The settings below were chosen on the dev families at their true corners (halves grouped right at the true number
# of types, of 192 dev / 144 test photos; test families never tuned on), before the glare was taken out: as set then
# dev 154, test 94. Moved one at a time:
SCALE = 0.5  # halves compared at half the rectified size, as structure.py's (not moved)
# Lightness differs more than colour between copies (shading left over after the light is evened, glare): it
# counts half. Moved: 1.0 dev 151, test 98; 0.25 dev 153, test 93.
LIGHTNESS_WEIGHT = 0.5
# Pixels (at SCALE) the squared difference is smoothed over. Moved: 0.5 dev 154, test 98; 1.5 dev 147, test 87.
BLUR = 1.0
# Pixels (at SCALE) a colour may lie off in the other picture and still count as shown there. Moved: 0 dev 145,
# test 91; 2 dev 147, test 88.
TOLERANCE = 1
# Shifts tried, in pixels at SCALE, across and along the edge: up to 5% of a side, as structure.py's. Moved:
# range(-2, 3) dev 155, test 94; range(-4, 5) dev 152, test 94.
SHIFTS = range(-3, 4)
# Rows nearest the edge left out, where a wrong outline shows table (structure.EDGE_ROWS). Moved: 1 dev 156, test 95;
# 3 dev 150, test 92 (2: the found outlines of the whole pipeline are further off than the true ones).
EDGE_ROWS = 2
# The largest difference, not a high quantile of the differences: 0.995 dev 150, 0.99 dev 148.
WHITE = np.array([LIGHTNESS_WEIGHT, 0.0, 0.0], np.float32)  # Lab white in colour_pictures' units
# Glare washes a print at most this far toward white (where it is whiter still, nothing of the print is left).
# Moved (halves grouped right, dev true corners / found medium / found hard; as set 162/80/66, test 97/55/33): 0.6 and
# 0.97 dev as set; test 97/55/32 and as set.
MOST_GLARE = 0.9
# Pairs of halves compared at a time, so that their pictures (64 x 29 x 64 x 3 floats, 1.4 MB, for a 128-pixel
# tile) stay in the processor's cache, where all 630 pairs of a 3x3 puzzle were 14 MB a stack, a dozen at once. Same
# differences (within float rounding, 4e-5 of the largest; halves grouped right as before on all 471 family photos
# whose tiles are found exactly): largest_differences 0.63 times the time, 12 MP never-seen photo whole process
# (farm-bench, 9 runs by turns) wall 0.86 times, peak memory 550 -> 234 MiB.
PAIRS_AT_ONCE = 64


def colour_pictures(flat: np.ndarray) -> np.ndarray:
    """Every half (flat: halves x h x w x 3, in one light, edge on top) as a Lab picture at SCALE, lightness
    weighed by LIGHTNESS_WEIGHT, about unit scale: halves x h' x w' x 3."""
    height, width = flat.shape[1:3]
    size = (int(round(width * SCALE)), int(round(height * SCALE)))
    units = np.array([100.0 / LIGHTNESS_WEIGHT, 100.0, 100.0], np.float32)
    return np.stack([cv2.resize(cv2.cvtColor(np.clip(band, 0, 1).astype(np.float32), cv2.COLOR_RGB2LAB), size,
                                interpolation=cv2.INTER_AREA) for band in flat]) / units


def largest_differences(flat: np.ndarray) -> np.ndarray:
    """The largest smoothed squared difference between every two halves' colour pictures over the half's territory,
    each pair lined up at the shift that brings them closest on average, each pixel's difference only what lies
    outside the colours the other picture shows within TOLERANCE of it (a line a pixel off is no difference), and
    either half washed out by the glare that best explains the other (the smaller difference kept): halves x
    halves, symmetric, zero on the diagonal."""
    pictures = colour_pictures(flat)
    count, height, width, _ = pictures.shape
    cells = territory(height, width)
    cells[:EDGE_ROWS] = False
    kernel = np.ones((2 * TOLERANCE + 1, 2 * TOLERANCE + 1), np.uint8)
    lows = np.stack([cv2.erode(picture, kernel, borderType=cv2.BORDER_REPLICATE) for picture in pictures])
    highs = np.stack([cv2.dilate(picture, kernel, borderType=cv2.BORDER_REPLICATE) for picture in pictures])
    shifts = np.array([(across, along) for across in SHIFTS for along in SHIFTS])
    # the shift of each half against each later one that brings them closest on average: one product for all
    fixed = pictures[:, cells].reshape(count, -1)
    moved = with_shifts(pictures, shifts, cells).reshape(count * len(shifts), -1)
    squared = np.sum(fixed**2, axis=1)[:, None] + np.sum(moved**2, axis=1)[None] - 2 * fixed @ moved.T
    first, second = np.triu_indices(count, 1)
    best = shifts[squared.reshape(count, count, -1).argmin(axis=2)[first, second]]
    largest = np.zeros((count, count))
    # a few dozen pairs at a time, so that their pictures stay in the processor's cache through the many steps below
    for start in range(0, len(first), PAIRS_AT_ONCE):
        ones, others, moves = (part[start: start + PAIRS_AT_ONCE] for part in (first, second, best))
        one = (pictures[ones], lows[ones], highs[ones])
        other = tuple(shifted_by(stack, others, moves) for stack in (pictures, lows, highs))
        largest[ones, others] = np.minimum(largest_outside(one, washed(other, one[0], cells), cells),
                                           largest_outside(washed(one, other[0], cells), other, cells))
    return largest + largest.T


def largest_outside(one: tuple, other: tuple, cells: np.ndarray) -> np.ndarray:
    """Per pair of lined-up pictures (each given as pictures, and their colours' lows and highs within TOLERANCE:
    pairs x h x w x 3), the largest smoothed squared difference over cells of what either shows outside the other's
    colours: pairs."""
    (a, a_low, a_high), (b, b_low, b_high) = one, other
    # a colour lies above the other's highs or below its lows, not both: the larger of the two, if positive
    outside = np.maximum(np.maximum(a - b_high, b_low - a), 0) ** 2
    outside += np.maximum(np.maximum(b - a_high, a_low - b), 0) ** 2
    return smoothed(outside.sum(axis=-1))[:, cells].max(axis=1)


def washed(pictures: tuple, looks: np.ndarray, cells: np.ndarray) -> tuple:
    """The pictures (and their lows and highs) washed toward white by the glare that best explains `looks`, per
    pair: glare mixes white into a print, smoothly over a tile, so the glare is a field over the half, affine
    (a + b row + c column), found by least squares over cells; where it would darken, none."""
    picture = pictures[0]
    height, width = picture.shape[1:3]
    rows, columns = np.mgrid[0:height, 0:width].astype(np.float32)
    basis = np.stack([np.ones_like(rows), rows / height - 0.5, columns / width - 0.5], axis=-1)[cells]  # cells x 3
    inside = picture[:, cells]
    toward = WHITE - inside  # pairs x cells x 3: what full glare would add
    wanted = looks[:, cells] - inside
    # least squares for the field's coefficients: sum over cells and channels of (wanted - field * toward)^2; the
    # normal matrices of all pairs as one product with the basis' outer products (cells x 9)
    weight = np.einsum("pnc,pnc->pn", toward, toward)
    outer = (basis[:, :, None] * basis[:, None, :]).reshape(len(basis), 9)
    normal = (weight @ outer).reshape(-1, 3, 3) + 1e-6 * np.eye(3, dtype=np.float32)
    right = np.einsum("pnc,pnc->pn", toward, wanted) @ basis
    coefficients = np.linalg.solve(normal, right[..., None])[..., 0]
    field = np.zeros(picture.shape[:3], np.float32)
    field[:, cells] = np.clip(coefficients @ basis.T, 0.0, MOST_GLARE)
    # x + field (WHITE - x), with WHITE nonzero in lightness only
    kept = (1.0 - field)[..., None]
    washed_out = []
    for x in pictures:
        mixed = x * kept
        mixed[..., 0] += field * WHITE[0]
        washed_out.append(mixed)
    return tuple(washed_out)


def with_shifts(pictures: np.ndarray, shifts: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Every picture's cells (pictures: n x h x w x C; cells: h x w) with the picture moved by each shift (across,
    along; shifts x 2), its border repeated where it moves past it: n x shifts x cells x C."""
    pad = int(np.abs(shifts).max())
    padded = np.pad(pictures, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="edge")
    rows, columns = np.nonzero(cells)
    width = padded.shape[2]
    # one index into each picture's pixels in a row: np.take lays the result out in order, where indexing by rows
    # and columns leaves it strided and every later reshape copies it
    index = (pad + shifts[:, :1] + rows) * width + pad + shifts[:, 1:] + columns
    return np.take(padded.reshape(len(pictures), -1, pictures.shape[3]), index, axis=1)


def shifted_by(pictures: np.ndarray, which: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Picture which[k] moved by shifts[k] (across, along), its border repeated where it moves past it, for every k:
    k x h x w x C. with_shifts for the few pictures and shifts wanted, not every picture at every shift."""
    height, width = pictures.shape[1:3]
    pad = int(np.abs(shifts).max(initial=0))
    padded = np.pad(pictures, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="edge")
    moved = np.empty((len(which), *pictures.shape[1:]), pictures.dtype)
    # a slice per distinct shift (a few dozen), not an index per pixel
    distinct, inverse = np.unique(shifts, axis=0, return_inverse=True)
    for k, (across, along) in enumerate(distinct):
        chosen = np.flatnonzero(inverse.ravel() == k)
        moved[chosen] = padded[which[chosen], pad + across: pad + across + height, pad + along: pad + along + width]
    return moved


def smoothed(maps: np.ndarray) -> np.ndarray:
    """Each of many small maps (n x h x w) blurred by BLUR, each on its own: OpenCV blurs the columns of the maps
    laid side by side, then the rows of them stacked, so that no map's blur reaches into another's."""
    count, height, width = maps.shape
    kernel = cv2.getGaussianKernel(2 * int(np.ceil(3 * BLUR)) + 1, BLUR).astype(np.float32)
    one = np.ones((1, 1), np.float32)
    side_by_side = np.ascontiguousarray(maps.astype(np.float32).transpose(1, 0, 2).reshape(height, -1))
    columns = cv2.sepFilter2D(side_by_side, -1, one, kernel, borderType=cv2.BORDER_REFLECT)
    stacked = np.ascontiguousarray(columns.reshape(height, count, width).transpose(1, 0, 2).reshape(-1, width))
    rows = cv2.sepFilter2D(stacked, -1, kernel, one, borderType=cv2.BORDER_REFLECT)
    return rows.reshape(count, height, width)
