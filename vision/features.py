"""Numbers that describe an edge half: its colours and its shape, after the tile's own face is made white.

The face colour of each tile is the white reference (it absorbs white balance, shading and vignetting); what
differs from it is the motif. A half is described by a small colour thumbnail of its territory (shape and
colour layout) and by a histogram of its motif's colours (colour and pattern, whatever the pose).
"""
from __future__ import annotations

import cv2
import numpy as np

from .rectify import edge_bands, territory

THUMB = (8, 16)  # rows, columns of the colour thumbnail
HUE_BINS = 8
CHROMA_BINS = 3
LIGHT_BINS = 4


def white_balanced(square: np.ndarray) -> np.ndarray:
    """A tile as float RGB in [0, 1.2] with its face colour (the bright, common colour) mapped to white."""
    pixels = square.reshape(-1, 3).astype(np.float32)
    brightness = pixels.sum(axis=1)
    bright = pixels[brightness >= np.quantile(brightness, 0.75)]
    white = np.median(bright, axis=0)
    return np.clip(square.astype(np.float32) / np.maximum(white, 1.0), 0.0, 1.2)


def white_bands(squares: np.ndarray) -> np.ndarray:
    """Every tile's four halves N E S W, white-balanced, edge on top: (tiles, 4, height, width, 3) float."""
    return np.asarray([edge_bands(white_balanced(square)) for square in squares], dtype=np.float32)


def band_features(bands: np.ndarray) -> np.ndarray:
    """Feature vectors of halves: bands (..., height, width, 3) give features (..., F)."""
    flat = bands.reshape(-1, *bands.shape[-3:])
    features = np.stack([half_features(band) for band in flat]).astype(np.float32)
    return features.reshape(*bands.shape[:-3], -1)


def half_features(band: np.ndarray) -> np.ndarray:
    """Thumbnail and colour histogram of one half (edge on top), concatenated."""
    inside = territory(*band.shape[:2])
    neutral = np.where(inside[:, :, None], band, 1.0).astype(np.float32)
    thumb = cv2.resize(neutral, (THUMB[1], THUMB[0]), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(np.clip(neutral, 0, 1), cv2.COLOR_RGB2LAB)  # L in [0, 100], a/b about [-128, 127]
    lightness, a, b = lab[inside].T
    chroma = np.hypot(a, b)
    motif = (chroma > 12) | (lightness < 75)  # what is not the face
    weight = max(1, int(inside.sum()))
    hue = (np.arctan2(b, a) + np.pi) / (2 * np.pi)
    colourful = motif & (chroma > 12)
    hue_hist = np.histogram2d(hue[colourful], np.minimum(chroma[colourful] / 40, 0.999),
                              bins=(HUE_BINS, CHROMA_BINS), range=((0, 1), (0, 1)))[0].ravel()
    grey = motif & ~colourful
    light_hist = np.histogram(lightness[grey] / 100, bins=LIGHT_BINS, range=(0, 1))[0]
    histogram = np.sqrt(np.concatenate([hue_hist, light_hist]) / weight)  # Hellinger: small shares still count
    return np.concatenate([thumb.ravel() * 0.5, histogram * 1.5])
