"""Numbers that describe an edge half: its colours and its shape, after the tile's own face is made white.

The face colour of each tile is the white reference (it absorbs white balance, shading and vignetting), fitted
as a plane across the tile so that light falling off across it is absorbed too, and followed into a shadow cast
over part of it (shading.py); what differs from it is the motif. A half is described by a small Lab thumbnail of
its territory (shape and colour layout) and by a soft histogram of its motif's colours (colour and pattern,
whatever the pose).
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from ..rectify import edge_bands, territory
from .shading import shadow_field

THUMB = (8, 16)  # rows, columns of the colour thumbnail
WHITE_GRID = 16  # the face's white is fitted on a WHITE_GRID x WHITE_GRID summary of the tile
AB_CENTRES = np.linspace(-60, 60, 7)  # soft histogram bin centres on each of Lab's a and b axes
AB_SIGMA = 12.0
LIGHT_CENTRES = np.linspace(10, 90, 5)  # soft histogram of the lightness of the motif's grey parts
LIGHT_SIGMA = 12.0
THUMB_WEIGHT = 1.0  # per unit of Lab / 100
HIST_WEIGHT = 1.5
TOP = 255.0  # the camera's top: a face brighter than this reads this
CUT_OFF = 250.0  # a channel this bright (noise aside) may be cut off at the top
TOP_SHARE = 0.1  # the share of the face at the top in a channel for it to be taken as cut off
MIN_BELOW_CELLS = 4  # face cells wholly below the top that give a cut-off channel its level
# Template sets store their halves' features with this stamp: change it whenever band_features' numbers change,
# and stored features of another version are computed again (tests check the bundled ones are current).
FEATURES_VERSION = 1


def face_plane(square: np.ndarray) -> np.ndarray:
    """The face's colour across a tile as a plane per channel in log: 3 coefficients (1, x, y) x 3 channels.

    Light falls off across a tile and drifts in colour; a plane fitted to the face cells follows it, so a half
    on the dark side of a tile is not read as a darker motif. A bright face is often cut off at the camera's top
    in one channel (a bluish face under strong light reads 255 in blue wherever the light is strong): fitted as
    it reads, that channel's plane lies flat while the others fall, and the face turns yellow on one side of the
    tile. Such a channel takes its fall-off from the two that are not cut off (shading has no colour) and only
    its level from its own cells below the top (with_top_channels).
    """
    pixels = square.astype(np.float32)
    cells = cv2.resize(pixels, (WHITE_GRID, WHITE_GRID), interpolation=cv2.INTER_AREA)
    cells = np.log(np.maximum(cells.reshape(-1, 3), 1.0))
    at_top = cv2.resize((pixels >= CUT_OFF).astype(np.float32), (WHITE_GRID, WHITE_GRID),
                        interpolation=cv2.INTER_AREA).reshape(-1, 3)  # the share of each cell at the top
    design = _white_design(WHITE_GRID)
    brightness = cells.sum(axis=1)
    face = brightness >= np.quantile(brightness, 0.6)  # the face is most of a tile and its brightest part
    for _ in range(3):
        coefficients = np.linalg.lstsq(design[face], cells[face], rcond=None)[0]
        residual = cells - design @ coefficients
        # cells that hold some motif are darker than the plane: keep those within a few percent of it
        trial = np.all(np.abs(residual) < 0.06, axis=1)
        if trial.sum() < 12:
            break
        face = trial
    coefficients = np.linalg.lstsq(design[face], cells[face], rcond=None)[0]
    return with_top_channels(coefficients, design, cells, face, at_top)


def with_top_channels(coefficients: np.ndarray, design: np.ndarray, cells: np.ndarray, face: np.ndarray,
                      at_top: np.ndarray) -> np.ndarray:
    """The face plane with a channel cut off at the top on part of the face refitted: the fall-off of the
    other two, its level from its cells below the top (or at the top everywhere, if none is). When two channels
    are cut off, one is too little to tell the fall-off from a drift in the light's colour (a pink lamp), and
    the plane is kept as fitted."""
    # a channel is cut off when a good share of the face reads the top in it, not a few noisy pixels
    top_channels = (at_top[face] > 0.5).mean(axis=0) >= TOP_SHARE
    if top_channels.sum() != 1:  # the fall-off is taken where two channels show it, as they do under white light
        return coefficients
    fall_off = coefficients[1:, ~top_channels].mean(axis=1)
    shading = design[:, 1:] @ fall_off
    planes = coefficients.copy()
    for channel in np.flatnonzero(top_channels):
        below = face & (at_top[:, channel] == 0)
        level = (float(np.mean(cells[below, channel] - shading[below])) if below.sum() >= MIN_BELOW_CELLS
                 else np.log(TOP) - float(shading[face].min()))
        planes[:, channel] = [level, *fall_off]
    return planes


@lru_cache(maxsize=4)
def _white_design(size: int) -> np.ndarray:
    """Rows (1, x, y) for the pixel centres of a size x size grid, x and y in [-0.5, 0.5]."""
    y, x = (np.mgrid[0:size, 0:size].reshape(2, -1) + 0.5) / size - 0.5
    return np.stack([np.ones_like(x), x, y], axis=1)


def white_field(square: np.ndarray, plane: np.ndarray | None = None) -> np.ndarray:
    """The face's colour at every pixel of a tile (size x size x 3 float): its plane (face_plane), and any shadow
    cast across it (shading.shadow_field)."""
    if plane is None:
        plane = face_plane(square)
    size = square.shape[0]
    steps = ((np.arange(size) + 0.5) / size - 0.5)[:, None]
    # the plane is separable: exp(c0 + c1 x + c2 y) = exp(c0) * exp(c1 x) * exp(c2 y)
    across = np.exp(plane[0] + steps * plane[1])  # (x, channel)
    down = np.exp(steps * plane[2])  # (y, channel)
    # where the plane rises above the top the face reads at the top, so that is its colour there
    white = np.minimum(down[:, None, :] * across[None, :, :], TOP).astype(np.float32)
    shadow = shadow_field(square, white)
    return white if shadow is None else (white * np.exp(shadow)[:, :, None]).astype(np.float32)


def white_balanced(square: np.ndarray, plane: np.ndarray | None = None) -> np.ndarray:
    """A tile as float RGB in [0, 1.2] with its face colour (the bright, common colour) mapped to white."""
    return np.clip(square.astype(np.float32) / np.maximum(white_field(square, plane), 1.0), 0.0, 1.2)


def white_bands(squares: np.ndarray) -> np.ndarray:
    """Every tile's four halves N E S W, white-balanced, edge on top: (tiles, 4, height, width, 3) float."""
    return np.asarray([edge_bands(white_balanced(square)) for square in squares], dtype=np.float32)


@lru_cache(maxsize=4)
def _territory(height: int, width: int) -> np.ndarray:
    return territory(height, width)


def band_features(bands: np.ndarray) -> np.ndarray:
    """Feature vectors of halves: bands (..., height, width, 3) give features (..., F)."""
    flat = bands.reshape(-1, *bands.shape[-3:])
    if not len(flat):
        return np.zeros((*bands.shape[:-3], feature_length()), np.float32)
    height, width = flat.shape[1:3]
    inside = _territory(height, width)
    neutral = np.where(inside[None, :, :, None], np.clip(flat, 0, 1), 1.0).astype(np.float32)
    # Lab of all halves at once: stacked as one tall image for OpenCV
    lab = cv2.cvtColor(neutral.reshape(-1, width, 3), cv2.COLOR_RGB2LAB).reshape(neutral.shape)
    thumbs = np.stack([cv2.resize(half, (THUMB[1], THUMB[0]), interpolation=cv2.INTER_AREA) for half in lab])
    # colours need no full resolution: half of it in each direction keeps every motif colour's share
    small = np.stack([cv2.resize(half, (width // 2, height // 2), interpolation=cv2.INTER_AREA) for half in lab])
    histograms = colour_histograms(small[:, _territory(height // 2, width // 2)])
    features = np.concatenate([thumbs.reshape(len(flat), -1) * np.float32(THUMB_WEIGHT / 100),
                               histograms * HIST_WEIGHT], axis=1).astype(np.float32)
    return features.reshape(*bands.shape[:-3], -1)


def feature_length() -> int:
    return THUMB[0] * THUMB[1] * 3 + len(AB_CENTRES) ** 2 + len(LIGHT_CENTRES)


def colour_histograms(pixels: np.ndarray) -> np.ndarray:
    """Soft histograms of the motif's colours (pixels: N x P x 3 Lab), square-rooted (Hellinger).

    Colourful pixels vote in a grid over a and b; grey motif pixels (black, grey) in lightness bins. Soft votes
    keep a colour near a bin boundary from jumping between bins with the light.
    """
    lightness, a, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    chroma = np.hypot(a, b)
    motif = (chroma > 12) | (lightness < 75)  # what is not the face
    colourful = np.clip((chroma - 8) / 12, 0, 1) * motif  # a soft split between grey and colourful
    grey = (1 - colourful) * motif
    wa = np.exp(-0.5 * ((a[..., None] - AB_CENTRES) / AB_SIGMA) ** 2).astype(np.float32)  # N x P x bins
    wb = np.exp(-0.5 * ((b[..., None] - AB_CENTRES) / AB_SIGMA) ** 2).astype(np.float32)
    ab = np.einsum("npi,npj->nij", wa * colourful[..., None], wb).reshape(len(pixels), -1)
    wl = np.exp(-0.5 * ((lightness[..., None] - LIGHT_CENTRES) / LIGHT_SIGMA) ** 2).astype(np.float32)
    light = np.einsum("np,npi->ni", grey, wl)
    counts = np.concatenate([ab, light], axis=1)
    return np.sqrt(np.maximum(counts, 0) / pixels.shape[1])
