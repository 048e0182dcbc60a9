"""Cut each tile out of the full-resolution photo as an upright square, and each edge's half as a band.

A band is the part of the tile nearer to one edge than to any other (a triangle from the edge to the centre),
turned so that its edge lies on top: one canonical pose, so a template needs one pose and head and tail stay
distinct.
"""
from __future__ import annotations

import cv2
import numpy as np

from .geometry import square_homography
from .types import Photo, TileQuad

SQUARE = 128  # pixels per side of the square a tile is read at
BAND_DEPTH = 0.45  # how far into the tile a band reaches, as a fraction of the side


def rectify_tile(image: np.ndarray, quad: TileQuad, size: int = SQUARE) -> np.ndarray:
    """The tile's face as a size x size RGB square, N edge on top; downsampled without aliasing."""
    oversample = 2 if quad.side > 1.5 * size else 1
    matrix = square_homography(quad.corners, size * oversample)
    square = cv2.warpPerspective(image, matrix, (size * oversample, size * oversample), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    if oversample > 1:
        square = cv2.resize(square, (size, size), interpolation=cv2.INTER_AREA)
    return square


def rectify_all(photo: Photo, quads: list[TileQuad], size: int = SQUARE) -> np.ndarray:
    """All tiles as an N x size x size x 3 array, in the order of `quads`."""
    return np.stack([rectify_tile(photo.image, q, size) for q in quads])


def edge_bands(square: np.ndarray) -> list[np.ndarray]:
    """The four edge halves N, E, S, W of an upright square tile, each turned so its edge is on top."""
    return [top_band(np.rot90(square, side)) for side in range(4)]


def top_band(square: np.ndarray) -> np.ndarray:
    """The rows of a square nearest its top edge, down to BAND_DEPTH of the side."""
    return np.ascontiguousarray(square[: int(round(square.shape[0] * BAND_DEPTH))])


def territory(height: int, width: int) -> np.ndarray:
    """Boolean mask of a top band's pixels nearer its top edge than the left or right edge (a trapezoid)."""
    y, x = np.mgrid[0:height, 0:width] + 0.5
    return (y <= x) & (y <= width - x)
