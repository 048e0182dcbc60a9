"""Compare edge halves so that a tile outline a few percent off does not matter.

A found outline is rarely exact: a corner a few percent of a side away, or one side stopped short at a shadow,
moves a half's picture within its band by a few pixels. Two copies of one half then differ cell by cell although
they show the same thing. Here two halves are compared at the best of a few small shifts of one against the
other, over the inner part of the half's territory (its outermost rows are where a wrong outline shows table or
loses picture).
"""
from __future__ import annotations

import cv2
import numpy as np

from ..rectify import motif_weight, territory
from .face import WHITE_LAB, motif_mask

# Moved: 3 dev 95/62/8, test 39/18/6; 5 dev 96/63/7, test 39/18/4.
CELL = 4  # pixels of a 128-pixel tile per cell of the compared picture: 3% of a side
# Shifts tried, in cells: across the edge up to 9% of a side (a side found up to 8% inside the tile), along it 6%.
# Moved: range(-2, 3) dev 95/60/7, test 39/18/6; range(-4, 5) dev 96/61/7, test 39/18/6.
SHIFTS_ACROSS = range(-3, 4)
SHIFTS_ALONG = range(-2, 3)
# Moved: 0 dev 96/65/7, test 39/18/6; 2 dev 95/63/7, test 37/17/6.
EDGE_ROWS = 1  # the cells nearest the edge, left out of the comparison


def small_pictures(flat: np.ndarray, face: np.ndarray = WHITE_LAB) -> np.ndarray:
    """Every half (flat: halves x h x w x 3, in one light, edge on top; face: the face's Lab) as a CELL-times smaller Lab picture with
    a fourth channel saying how much of each cell is motif (its silhouette): halves x h' x w' x 4, about unit
    scale."""
    height, width = flat.shape[1:3]
    size = (width // CELL, height // CELL)
    pictures = []
    for band in flat:
        lab = cv2.cvtColor(np.clip(band, 0, 1).astype(np.float32), cv2.COLOR_RGB2LAB)
        motif = motif_mask(lab, face).astype(np.float32)
        pictures.append(np.dstack([cv2.resize(lab, size, interpolation=cv2.INTER_AREA) / 100.0,
                                   cv2.resize(motif, size, interpolation=cv2.INTER_AREA)]))
    return np.stack(pictures)


def compared_cells(height: int, width: int) -> np.ndarray:
    """Which cells of a small picture are compared: the half's territory without its rows nearest the edge."""
    cells = territory(height, width)
    cells[:EDGE_ROWS] = False
    return cells


def shifted_distances(pictures: np.ndarray, centred: bool = False) -> np.ndarray:
    """Squared distance between every two halves' pictures (halves x h x w x C), per cell compared (with
    `centred`, weighed by rectify.motif_weight: about the edge's middle), at the shift of one against the other
    that brings them closest: halves x halves, symmetric, zero on the diagonal."""
    count, height, width, _ = pictures.shape
    cells = compared_cells(height, width)
    weight = (motif_weight(height, width) if centred else np.ones((height, width)))[cells]
    root = np.sqrt(weight)[:, None]
    pad = max(max(map(abs, SHIFTS_ACROSS)), max(map(abs, SHIFTS_ALONG)))
    # edge padding: a picture shifted past its band repeats its border rather than bringing in black
    padded = np.pad(pictures, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="edge")
    fixed = (pictures[:, cells] * root).reshape(count, -1)
    moved = np.stack([padded[:, pad + across: pad + across + height, pad + along: pad + along + width][:, cells]
                      * root for across in SHIFTS_ACROSS for along in SHIFTS_ALONG]).reshape(-1, fixed.shape[1])
    # one product for all shifts: many small ones stall the linear algebra library's threads on a busy machine
    squared = (np.sum(fixed**2, axis=1)[:, None] + np.sum(moved**2, axis=1)[None] - 2 * fixed @ moved.T)
    best = squared.reshape(count, -1, count).min(axis=1)
    best = np.maximum(np.minimum(best, best.T), 0.0) / weight.sum()  # either half may be the one shifted
    np.fill_diagonal(best, 0.0)
    return best
