"""The tile face: what every tile of a puzzle has printed behind its motifs, found across the whole photo.

Every tile of a puzzle is the same card: its face (plain card, a strong colour, a printed border or picture) is
one print, while each motif is on a few tiles only. So the face is the colour that the tiles share where motifs
seldom reach: their corners and centre, which no edge's half covers. Knowing it, each tile's light is measured
on its own face (whatever colour that is, not the tile's brightest part), and what differs from the face is motif.

The tiles are then brought into one light. A card face is the light's white: ink on card reflects less than the
bare card in every channel, so nothing on such tiles is brighter than their face but glare. A face printed in a
colour (purple, black, a picture) is not: motifs printed beside it are brighter in some channel, and mapping the
face to white would push them past white. Such a face keeps its colour under the photo's white (white_point).
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from ..rectify import territory

GRID = 16  # cells a side, as the face plane's (features.WHITE_GRID)
# Moved (cut and balanced again): 0.06 dev 95/61/7, test 36/17/3; 0.1 dev 97/62/8, test 39/17/4.
CHROMA_TOLERANCE = 0.08  # log units: cells of one print differ in colour (log ratios between channels) by less,
# log units: and in brightness by less than this, as the light across a photo differs from tile to tile
# Moved (cut and balanced again): 0.26 dev 92/61/6, test 39/18/5; 0.44 dev 98/64/6, test 39/19/4.
# 0.44 does not carry to the whole pipeline (bench/families.py, seeds 20000: every edge right dev 75 -> 74, test
# 59 -> 58 of 108).
LIGHT_TOLERANCE = 0.35
# The face is card when less than PRINT_SHARE of the tiles' pixels are BRIGHTER times brighter than it in some
# channel (ink is darker than card; glare and noise aside). Measured on dev photos at their true corners, 72 of the
# dev families (medium, hard) and 36 generated ones: card faces 0-0.054 (glare), printed strong, bordered and busy
# faces 0.099-0.63 (a few busy and bordered ones with a light card inside read 0: card, rightly). Whole pipeline, no
# templates, photos with every edge right (bench/families.py, 36 per tier, easy/medium/hard), the face model as a
# whole: dev 8/10/9 -> 15/17/13; test families, never tuned on, 6/9/2 -> 11/12/4.
BRIGHTER = 1.3
# Moved (cut and balanced again) to 0.056 or 0.094: dev and test as set.
PRINT_SHARE = 0.075
# Moved (cut and balanced again): 0.99 dev 96/60/7, test 38/18/6; 0.998 dev 94/59/7, test 37/18/5.
WHITE_SHARE = 0.995  # the photo's white: the brightness its tiles reach, all but this share of their pixels
# A pixel is motif when it is at least this unlike the face in chroma (Lab a, b) or in lightness: on a white face,
# a chroma of 12 or a lightness under 75, as the halves have always been told apart from card.
# Moved: 9.0 dev 90/63/7, test 37/15/2; 15.0 dev 93/61/7, test 36/18/6.
MOTIF_CHROMA = 12.0
# Moved: 19.0 dev 96/62/5, test 38/18/6; 31.0 dev 96/61/8, test 38/18/6.
MOTIF_LIGHT = 25.0
WHITE_LAB = np.array([100.0, 0.0, 0.0], np.float32)


@lru_cache(maxsize=2)
def zone(size: int = GRID) -> np.ndarray:
    """Which cells of a tile's size x size grid motifs seldom reach: a block inside each corner and the centre
    (the outermost ring is left out: there a tile's outline, a bevel or a printed frame line lies)."""
    cells = np.zeros((size, size), bool)
    near, far = slice(1, 4), slice(size - 4, size - 1)
    for rows in (near, far):
        for cols in (near, far):
            cells[rows, cols] = True
    middle = slice(size // 2 - 1, size // 2 + 1)
    cells[middle, middle] = True
    cells.flags.writeable = False
    return cells.ravel()


def log_cells(square: np.ndarray, size: int = GRID) -> np.ndarray:
    """A tile's colour on a size x size grid of cells, in log: (size * size, 3)."""
    cells = cv2.resize(square.astype(np.float32), (size, size), interpolation=cv2.INTER_AREA)
    return np.log(np.maximum(cells.reshape(-1, 3), 1.0))


def colour_and_light(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Log colours split into their colour (each channel over their mean) and their brightness (the mean)."""
    light = cells.mean(axis=-1, keepdims=True)
    return cells - light, light[..., 0]


def alike(cells: np.ndarray, colour: np.ndarray, tolerance: float = 1.0, light_tolerance: float = LIGHT_TOLERANCE
          ) -> np.ndarray:
    """Which log cells are of the face colour `colour` (log RGB), in any of the photo's lights (as bright as it
    within light_tolerance)."""
    hue, light = colour_and_light(cells)
    own_hue, own_light = colour_and_light(colour[None])
    return ((np.linalg.norm(hue - own_hue, axis=1) < CHROMA_TOLERANCE * tolerance)
            & (np.abs(light - own_light) < light_tolerance))


def face_colour(squares: np.ndarray) -> np.ndarray:
    """The face's colour (log RGB): of the cells where motifs seldom reach (zone), on all tiles, the colour most
    of them share, in whatever light each lies."""
    cells = np.concatenate([log_cells(square)[zone()] for square in squares])
    hue, light = colour_and_light(cells)
    neighbours = ((np.linalg.norm(hue[:, None] - hue[None], axis=2) < CHROMA_TOLERANCE)
                  & (np.abs(light[:, None] - light[None]) < LIGHT_TOLERANCE))
    densest = int(np.argmax(neighbours.sum(axis=1)))
    return np.median(cells[neighbours[densest]], axis=0)


def is_card(evened: list[np.ndarray]) -> bool:
    """Whether the face is card, the light's white, from tiles divided by their face's colour (face = 1)."""
    pixels = np.concatenate([tile.reshape(-1, 3) for tile in evened])
    return float(np.mean(pixels.max(axis=1) > BRIGHTER)) < PRINT_SHARE


def lab(rgb: np.ndarray) -> np.ndarray:
    """Lab of one RGB colour in [0, 1]."""
    pixel = np.clip(np.asarray(rgb, np.float32), 0, 1).reshape(1, 1, 3)
    return cv2.cvtColor(pixel, cv2.COLOR_RGB2LAB).reshape(3)


def white_point(evened: list[np.ndarray]) -> np.ndarray:
    """The photo's white from tiles in one light (divided by their face's colour): per channel the brightness its
    tiles reach, all but a few pixels (the white of eyes and teeth; or, where nothing is white, the brightest colour
    printed, which keeps every colour below the top), in units of the face's colour."""
    pixels = np.concatenate([tile.reshape(-1, 3) for tile in evened])
    return np.maximum(np.quantile(pixels, WHITE_SHARE, axis=0), 1.0)


def motif_mask(lab_pixels: np.ndarray, face: np.ndarray = WHITE_LAB) -> np.ndarray:
    """Which Lab pixels are motif, not face (face: the face's Lab in the same balanced colours)."""
    lightness, a, b = lab_pixels[..., 0], lab_pixels[..., 1], lab_pixels[..., 2]
    return ((np.hypot(a - face[1], b - face[2]) > MOTIF_CHROMA)
            | (np.abs(lightness - face[0]) > MOTIF_LIGHT))


def lab_of(band: np.ndarray, face: np.ndarray = WHITE_LAB) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A half's territory mask, its Lab pixels, and which of them are motif (not face; face: its Lab)."""
    inside = band_territory(*band.shape[:2])
    neutral = np.where(inside[:, :, None], band, 1.0).astype(np.float32)
    lab = cv2.cvtColor(np.clip(neutral, 0, 1), cv2.COLOR_RGB2LAB)
    motif = motif_mask(lab, face) & inside
    return inside, lab, motif


@lru_cache(maxsize=8)
def band_territory(height: int, width: int) -> np.ndarray:
    """rectify.territory, made once per band size: every half of a photo has the same (read only, never written)."""
    inside = territory(height, width)
    inside.flags.writeable = False
    return inside
