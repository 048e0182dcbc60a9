"""Doubt from a tile's outline: what is read on a tile whose sides lie on no clear edge is not to be trusted.

A tile found where no tile lies (a checked cloth's pale squares taken in, two tiles' halves joined) is read just
as confidently as a true one: the reader sees only the square it is given. How well the tile's four sides lie on
edges in the photo (sides.edge_support), against how well the photo's other tiles' do, tells the two apart. The
comparison is within the photo: tiles printed to their edges on a desk of like colour (the real skiers) lie on
faint edges all alike (support 1.0-2.0, where a generated photo's true tiles score 2.9 and up). On 1,701 tiles of
200 generated hard photos, 14 had under a quarter of their photo's median support, all more than 5% of a side
off; the true tiles' least was 0.35 of it. Such a tile's edges are read with their probabilities flattened, so that
the repair may change them and a person is asked rather than told a solution built on them.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..find.segment import EDGE_WEIGHTS
from ..find.sides import edge_support
from ..geometry import rescale_points
from ..types import Photo, TileQuad
from .classify import Reading, reading_from

# Moved (bench/families.py, whole pipeline, no templates, seeds 20000, 108 photos a split, 2026-11-27): WEAK_OUTLINE
# 0.1875 or 0.3125, LEAST_TRUST 0.075 or 0.125: dev and test as set in every figure (photos, edges, solved, asked,
# wrong unasked): no family photo's outline lies near the line. Fitted on the drawn hard photos (see above).
WEAK_OUTLINE = 0.25  # of the photo's median tile support: below this a tile's outline is doubted (see above)
LEAST_TRUST = 0.1  # the flattening's least power: the reader's own order of labels is kept


def edges_image(photo: Photo) -> np.ndarray:
    """The photo's work copy as segmentation measures edges on it: smoothed Lab, colour weighted."""
    smooth = cv2.GaussianBlur(photo.work, (5, 5), 0)
    return cv2.cvtColor(smooth, cv2.COLOR_RGB2LAB).astype(np.float32) * EDGE_WEIGHTS


def outline_supports(photo: Photo, quads: list[TileQuad]) -> np.ndarray:
    """How well each tile's sides lie on edges in the photo (sides.edge_support), per tile."""
    image = edges_image(photo)
    return np.array([edge_support(rescale_points(q.corners, 1 / photo.scale), image) for q in quads])


def outline_trust(supports: np.ndarray) -> np.ndarray:
    """How far each tile's outline is trusted, 0-1: its support over WEAK_OUTLINE of the photo's median, at most 1."""
    return np.minimum(supports / max(WEAK_OUTLINE * float(np.median(supports)), 1e-9), 1.0)


def weak_outlines(supports: np.ndarray) -> list[int]:
    """The tiles (0-based) whose outlines are doubted."""
    return [int(i) for i in np.flatnonzero(outline_trust(supports) < 1.0)]


def with_outline_doubt(reading: Reading, supports: np.ndarray) -> Reading:
    """The reading with each weakly outlined tile's edge probabilities flattened towards even odds: raised to the
    power of its outline_trust (at least LEAST_TRUST), so a tile whose sides lie on nothing says little about its
    edges, though its best label stays the best."""
    weak = weak_outlines(supports)
    if not weak:
        return reading
    trust = outline_trust(supports)
    posterior = reading.posterior.copy()
    for tile in weak:
        flattened = posterior[tile] ** max(float(trust[tile]), LEAST_TRUST)
        posterior[tile] = flattened / flattened.sum(axis=1, keepdims=True)
    return reading_from(posterior, reading.candidates, reading.templates)
