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

# The rows compared, in pixels of a 128-pixel tile: 2-6% of the side in from the edge. Nearer the edge lie the
# tile's printed border (1.4% in on the generated faces) and, where an outline is a little off, table; further
# in, the halves move apart from the cut. Measured on never-seen medium photos (plain and with a motif's halves
# in different colours), true corners: every half-type nearest its true partner at 2-6%; at 1-5% the border
# line also counts.
CUT_ROWS = (3, 8)
CELLS = 32  # cells along the edge: 4 pixels of a 128-pixel tile each
SHIFTS = range(-2, 3)  # cells along the edge one profile may slide against the other: 6% of a side, as outlines err
DEPTHS = range(0, 1)  # pixels of a 128-pixel tile the compared rows may lie further in, on either half


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
