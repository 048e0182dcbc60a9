"""How well two halves meet at the cut: the compatibility jigsaw solvers use between neighbouring pieces.

A motif is one picture cut in two along a tile's edge, so wherever its two halves meet, the figure's outline
and colours run on across the seam: the rows of one half nearest its edge are, mirrored, the rows of the other
half nearest its edge. Mirrored because a neighbour's band is turned half round: along the edge, one half's
profile runs the other way. Nothing here assumes a motif's halves share their colours overall (a face and its
trousers): only that they agree where they meet.
"""
from __future__ import annotations

import cv2
import numpy as np

from .face import WHITE_LAB, motif_mask

# The rows compared, in pixels of a 128-pixel tile: as near the cut as can be, 1-3 (0.8-2.3% of a side), where
# the figure runs on across the seam; and the same rows up to 4 pixels further in on either half (DEPTHS), where an
# outline lies a little inside the tile, or a printed frame line covers the nearest rows. Measured on the dev art
# families at their true corners, on the 39 of 72 medium/hard photos whose halves group right: pairings right by
# the cut alone 22 at 2-6% (the rows used before), 29 at 1-3%, 30 with DEPTHS; by cut and colour together 31, 35,
# 35. Whole pipeline, no templates, every edge right of 36 (easy/medium/hard): dev families 15/17/13 -> 17/19/15,
# test families (never tuned on) 11/12/4 -> 14/12/4;
# never-seen generated photos at true corners 100% medium as before, hard 96.7% -> 93.3% (one photo of 30), the
# same with corners 3% off.
CUT_ROWS = (1, 3)
# Moved: range(0, 4) dev 96/61/6, test 38/18/5; range(0, 7) dev 99/59/6, test 38/16/4.
DEPTHS = range(0, 5)
# Moved: 24 dev 97/61/6, test 39/17/4; 40 dev 98/60/6, test 39/18/4.
CELLS = 32  # cells along the edge: 4 pixels of a 128-pixel tile each
# Moved: range(-1, 2) dev 98/61/6, test 39/18/5; range(-3, 4) dev 97/61/6, test 39/18/4.
SHIFTS = range(-2, 3)  # cells along the edge one profile may slide against the other: 6% of a side, as outlines err


def cut_profiles(flat: np.ndarray, face: np.ndarray = WHITE_LAB) -> np.ndarray:
    """Every half's profiles along its edge (flat: halves x h x w x 3, in one light, edge on top; face: the face's
    Lab): the mean Lab (over 100) and share of motif (not face) of CUT_ROWS, and of them moved in by each of
    DEPTHS, in CELLS cells: halves x depths x CELLS x 4."""
    width = flat.shape[2]
    scale = width / 128.0
    return np.stack([rows_profile(flat, int(round((CUT_ROWS[0] + depth) * scale)),
                                  int(round((CUT_ROWS[1] + depth) * scale)), face) for depth in DEPTHS], axis=1)


def rows_profile(flat: np.ndarray, first: int, last: int, face: np.ndarray) -> np.ndarray:
    """The halves' profile along the edge over rows first..last: halves x CELLS x 4."""
    width = flat.shape[2]
    rows = np.clip(flat[:, first:max(last, first + 1)], 0, 1).astype(np.float32)
    lab = cv2.cvtColor(rows.reshape(-1, width, 3), cv2.COLOR_RGB2LAB).reshape(rows.shape)
    motif = motif_mask(lab, face).astype(np.float32)
    along = np.concatenate([lab / 100.0, motif[..., None]], axis=3).mean(axis=1)  # halves x width x 4
    return np.stack([cv2.resize(profile[None], (CELLS, 1), interpolation=cv2.INTER_AREA)[0] for profile in along])


def cut_distances(profiles: np.ndarray) -> np.ndarray:
    """How unlike every two halves are where they would meet (halves x halves, symmetric): the mean squared
    difference per cell between one's profile and the other's mirrored, at the depths (one's outline may lie a
    little inside the tile, the other's not) and the slide along the edge that bring them closest."""
    count, depths, cells = profiles.shape[:3]
    best = np.full((count, count), np.inf)
    for one_depth in range(depths):
        for other_depth in range(depths):
            ones, others = profiles[:, one_depth], profiles[:, other_depth, ::-1]
            for shift in SHIFTS:
                one = ones[:, max(shift, 0): cells + min(shift, 0)].reshape(count, -1)
                other = others[:, max(-shift, 0): cells + min(-shift, 0)].reshape(count, -1)
                squared = np.sum(one**2, axis=1)[:, None] + np.sum(other**2, axis=1)[None] - 2 * one @ other.T
                best = np.minimum(best, np.maximum(squared, 0.0) / (cells - abs(shift)))
    return np.minimum(best, best.T)
