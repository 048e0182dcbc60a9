"""Compare halves by their fine structure, registered: is this the same print?

Copies of one half are one print: every line, star and hair of one lies where it lies in the other, up to the few
pixels a found outline is off. Two different halves alike in colour and coarse shape (two crops of one starry sky,
two brown animals, a cookie and a bun) differ there. The colour pictures of halfmatch are too coarse to see it (a
cell is 3% of a side). Here each half's detail (its Lab picture less its blurred self: the light, a cast and glare's
slow wash taken out) is compared with every other's by normalised correlation at the shift (and, within a photo,
the small turn and scaling: POSES) that lines them up best, as image alignment does: 1 - correlation is 0 for two
copies, near 1 for unrelated prints. The settings below were chosen on the dev families at their true corners
(grouping right 48-52 of 72 across the scales, blurs and shift ranges tried, 39 without); descriptors.describe_halves
gives the figures.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..rectify import motif_weight, posed, territory
from .difference import with_shifts

# Moved: 0.375 dev 98/61/6, test 37/17/8; 0.625 dev 99/62/5, test 37/18/8.
SCALE = 0.5  # halves compared at half the rectified size: 64 pixels a side of a 128-pixel tile
# Moved: 1.5 dev 98/60/7, test 36/17/6; 2.5 dev 98/61/6, test 38/17/7.
BLUR = 2.0  # pixels (at SCALE): what is slower than this is light, not print
# Shifts tried, in pixels at SCALE: across the edge and along it up to 5-6% of a side, as halfmatch's
SHIFTS_ACROSS = range(-3, 4)
# Moved: range(-3, 4) dev 97/60/6, test 39/18/6; range(-5, 6) dev 97/61/6, test 39/18/6.
SHIFTS_ALONG = range(-4, 5)
# Moved: 1 dev 96/60/6, test 37/17/8; 3 dev 96/60/6, test 38/18/6.
EDGE_ROWS = 2  # rows nearest the edge left out, where a wrong outline shows table (halfmatch.EDGE_ROWS's 3%)
# The poses (a turn in degrees, a scaling, about the tile's centre: rectify.posed) one half is tried in against
# another among a photo's own halves, besides the shifts: a found outline a few pixels off at its corners turns and
# scales a half as well as moving it, and a print compared pixel by pixel sees that. Fitted on nothing: one step of
# 2 degrees and 3% either way (corners 2-3 pixels off on a 128-pixel tile). Halves sorted right at the true number of
# types by the print alone about the edge's middle (photos whose tiles are found exactly, bench/families.py's
# photos, seeds 20000 + 10000): as cut dev 199 of 272, test families (never tuned on) 121 of 199; these five poses
# dev 212, test 133; all nine of the turns and scalings dev 214, test 134 (for 1.8 times the work). Template sets
# are compared as cut (structure_distances_between): their reading is as before.
POSES = ((0.0, 1.0), (-2.0, 1.0), (2.0, 1.0), (0.0, 0.97), (0.0, 1.03))
UNMOVED = ((0.0, 1.0),)
# Template sets store their examples' print distances (centred) with this stamp: change it whenever
# structure_distances' numbers change, and stored ones of another version are computed again.
STRUCTURE_VERSION = 1


def detail_pictures(flat: np.ndarray) -> np.ndarray:
    """Every half's detail (flat: halves x h x w x 3, in one light, edge on top): its Lab at SCALE less its blur,
    halves x h' x w' x 3."""
    return posed_details(flat, UNMOVED)[0]


def posed_details(flat: np.ndarray, poses: tuple) -> np.ndarray:
    """Every half's detail (as detail_pictures) in each of the poses (rectify.posed): poses x halves x h' x w' x 3."""
    height, width = flat.shape[1:3]
    size = (int(round(width * SCALE)), int(round(height * SCALE)))
    labs = np.stack([cv2.cvtColor(np.clip(band, 0, 1).astype(np.float32), cv2.COLOR_RGB2LAB) for band in flat])
    details = []
    for pose in poses:
        small = np.stack([cv2.resize(lab, size, interpolation=cv2.INTER_AREA)
                          for lab in (labs if pose == UNMOVED[0] else posed(labs, *pose))])
        details.append(small - np.stack([cv2.GaussianBlur(picture, (0, 0), BLUR) for picture in small]))
    return np.stack(details)


def structure_distances(flat: np.ndarray, centred: bool = False, poses: tuple = UNMOVED) -> np.ndarray:
    """1 - the normalised correlation of every two halves' detail over the half's territory (with `centred`,
    weighed by rectify.motif_weight: about the edge's middle), at the pose (POSES, or the halves as cut) and shift
    of one against the other that line them up best: halves x halves, symmetric, zero on the diagonal."""
    return print_distances(flat, poses, (centred,))[0]


def print_distances(flat: np.ndarray, poses: tuple = UNMOVED, centrings: tuple = (False, True)) -> list[np.ndarray]:
    """structure_distances for each of the centrings, each pose's shifted pictures made once for all of them. With
    the five POSES, both centrings (12 MP never-seen photo, whole process, farm-bench, 9 runs by turns, against the
    halves as cut): wall 1.04 times, cpu 1.07 times, peak memory 235 -> 260 MiB; as cut, these products make the
    same distances (within 1e-6) in half the time the shifted copies weighed and centred one by one took."""
    details = posed_details(flat, poses)
    unmoved = details[poses.index(UNMOVED[0])]
    best = np.max([_best_correlations(unmoved, moved, centrings) for moved in details], axis=0)
    found = []
    for correlations in best:
        distances = np.maximum(1.0 - np.maximum(correlations, correlations.T), 0.0)  # either half may be shifted
        np.fill_diagonal(distances, 0.0)
        found.append(distances.astype(np.float64))
    return found


def structure_distances_between(one: np.ndarray, other: np.ndarray, centred: bool = False) -> np.ndarray:
    """structure_distances between two sets of halves of one size (one x other: a photo's halves and a template
    set's examples), each of one's halves shifted against the other's. One way, not both: half the work, and the
    same learned readings of the dev and test art families (one question more on 72 hard test photos)."""
    return np.maximum(1.0 - _best_correlations(detail_pictures(other), detail_pictures(one), (centred,))[0].T,
                      0.0).astype(np.float64)


def _best_correlations(fixed: np.ndarray, moved: np.ndarray, centrings: tuple) -> np.ndarray:
    """The normalised correlation of each fixed detail picture with each moved one, at the best shift of the
    moved one, weighed as each of the centrings says (unweighed, or about the edge's middle): centrings x fixed x
    moved."""
    height, width = fixed.shape[1:3]
    cells = territory(height, width)
    cells[:EDGE_ROWS] = False
    shifts = np.array([(across, along) for across in SHIFTS_ACROSS for along in SHIFTS_ALONG])
    # each moved picture at each shift, unweighed and uncentred, made once for every weighing: its correlation with
    # a still row (which sums to 0) is that row's product with it weighed, over its weighed spread about its mean,
    # both found by products rather than by a weighed, centred copy of these many rows
    shifted = with_shifts(moved, shifts, cells).reshape(len(moved) * len(shifts), -1)
    squared = shifted * shifted
    found = []
    for centred in centrings:
        # float32, as the pictures: float64 weights would make every product float64, twice the work
        weights = np.sqrt(motif_weight(height, width)[cells] if centred else np.ones(cells.sum())).astype(np.float32)
        still = _unit_rows((fixed[:, cells] * weights[:, None]).reshape(len(fixed), -1))
        spread = np.repeat(weights, moved.shape[3])
        sums, squares = shifted @ spread, squared @ (spread * spread)
        norms = np.sqrt(np.maximum(squares - sums * sums / shifted.shape[1], 0.0))
        # one product for all shifts: many small ones stall the linear algebra library's threads on a busy machine
        correlations = (still * spread) @ shifted.T / np.maximum(norms, 1e-6)
        found.append(correlations.reshape(len(fixed), len(moved), len(shifts)).max(axis=2))
    return np.stack(found)


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    """Each row less its mean, scaled to length 1 (a flat row stays 0: it correlates with nothing)."""
    centred = rows - rows.mean(axis=1, keepdims=True)
    return (centred / np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-6)).astype(np.float32)
