"""Compare halves by their fine structure, registered: is this the same print?

Copies of one half are one print: every line, star and hair of one lies where it lies in the other, up to the few
pixels a found outline is off. Two different halves alike in colour and coarse shape (two crops of one starry sky,
two brown animals, a cookie and a bun) differ there. The colour pictures of halfmatch are too coarse to see it (a
cell is 3% of a side). Here each half's detail (its Lab picture less its blurred self: the light, a cast and glare's
slow wash taken out) is compared with every other's by normalised correlation at the shift that lines them up best,
as image alignment does: 1 - correlation is 0 for two copies, near 1 for unrelated prints. The settings below
were chosen on the dev families at their true corners (grouping right 48-52 of 72 across the scales, blurs and
shift ranges tried, 39 without); descriptors.describe_halves gives the figures.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..rectify import motif_weight, territory

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
# Template sets store their examples' print distances (centred) with this stamp: change it whenever
# structure_distances' numbers change, and stored ones of another version are computed again.
STRUCTURE_VERSION = 1


def detail_pictures(flat: np.ndarray) -> np.ndarray:
    """Every half's detail (flat: halves x h x w x 3, in one light, edge on top): its Lab at SCALE less its blur,
    halves x h' x w' x 3."""
    height, width = flat.shape[1:3]
    size = (int(round(width * SCALE)), int(round(height * SCALE)))
    details = []
    for band in flat:
        lab = cv2.cvtColor(np.clip(band, 0, 1).astype(np.float32), cv2.COLOR_RGB2LAB)
        small = cv2.resize(lab, size, interpolation=cv2.INTER_AREA)
        details.append(small - cv2.GaussianBlur(small, (0, 0), BLUR))
    return np.stack(details)


def structure_distances(flat: np.ndarray, centred: bool = False) -> np.ndarray:
    """1 - the normalised correlation of every two halves' detail over the half's territory (with `centred`,
    weighed by rectify.motif_weight: about the edge's middle), at the shift of one against the other that lines
    them up best: halves x halves, symmetric, zero on the diagonal."""
    details = detail_pictures(flat)
    best = _best_correlations(details, details, centred)
    distances = np.maximum(1.0 - np.maximum(best, best.T), 0.0)  # either half may be the one shifted
    np.fill_diagonal(distances, 0.0)
    return distances.astype(np.float64)


def structure_distances_between(one: np.ndarray, other: np.ndarray, centred: bool = False) -> np.ndarray:
    """structure_distances between two sets of halves of one size (one x other: a photo's halves and a template
    set's examples), each of one's halves shifted against the other's. One way, not both: half the work, and the
    same learned readings of the dev and test art families (one question more on 72 hard test photos)."""
    return np.maximum(1.0 - _best_correlations(detail_pictures(other), detail_pictures(one), centred).T,
                      0.0).astype(np.float64)


def _best_correlations(fixed: np.ndarray, moved: np.ndarray, centred: bool) -> np.ndarray:
    """The normalised correlation of each fixed detail picture with each moved one, at the best shift of the
    moved one: fixed x moved."""
    height, width = fixed.shape[1:3]
    cells = territory(height, width)
    cells[:EDGE_ROWS] = False
    # float32, as the pictures: float64 weights would make every product float64, twice the work
    weights = np.sqrt(motif_weight(height, width)[cells] if centred else np.ones(cells.sum()))[:, None]
    weights = weights.astype(np.float32)
    pad = max(max(map(abs, SHIFTS_ACROSS)), max(map(abs, SHIFTS_ALONG)))
    padded = np.pad(moved, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="edge")
    still = _unit_rows((fixed[:, cells] * weights).reshape(len(fixed), -1))
    shifted = np.concatenate([_unit_rows((padded[:, pad + across: pad + across + height,
                                                 pad + along: pad + along + width][:, cells] * weights)
                                         .reshape(len(moved), -1))
                              for across in SHIFTS_ACROSS for along in SHIFTS_ALONG])
    # one product for all shifts: many small ones stall the linear algebra library's threads on a busy machine
    return (still @ shifted.T).reshape(len(fixed), -1, len(moved)).max(axis=1)


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    """Each row less its mean, scaled to length 1 (a flat row stays 0: it correlates with nothing)."""
    centred = rows - rows.mean(axis=1, keepdims=True)
    return (centred / np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-6)).astype(np.float32)
