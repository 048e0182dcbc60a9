"""A shadow across a tile: the face's light where it is not a plane (a phone or a hand between lamp and table).

The face plane (features.face_plane) follows light that falls off evenly across a tile. A shadow cast over part
of the tile is no plane, and a half under it reads darker, as another motif's half would (a red turtle as a dark
red one). The face is followed into the shadow from the lit face: a shadow darkens every channel alike (it has
no colour) and leaves the face plain (no motif edges), and across its soft edge the light falls by degrees, so
a face cell is one alike in every channel against the plane, plain, and within STEP of a neighbouring face cell.
A motif bounded by its outline or a colour is not reached. Under a motif the shadow is the one of the face around
it. Most tiles lie in even light: a field nowhere MATTERS deep is none, and the plane is used alone.

Measured on the real photos with a soft shadow cast over them: the solved turtles under three shadows and the board
under a light one, each solved wrongly with the plane alone (once with no question), are read right with it; 1 tile
of 225 on 25 generated hard photos (no cast shadows there) has a field at all.
"""
from __future__ import annotations

import cv2
import numpy as np

GRID = 32  # cells a side: a shadow's edge is followed to 1/32 of a tile
# Moved (cut and balanced again): 0.06 dev 96/60/6, test 39/18/6; 0.1 dev 97/60/6, test 39/18/6.
NEUTRAL = 0.08  # log units: a face cell's channels differ from the plane's by as much, give or take this
# Moved (cut and balanced again): 0.0375 dev 96/59/7, test 39/18/6; 0.0625 dev 96/60/6, test 39/16/6.
PLAIN = 0.05  # log units: the spread of lightness within a face cell, at most (a motif's edges spread more)
# Moved (cut and balanced again) to 0.045 or 0.075: dev and test as set.
LIT = 0.06  # log units: a face cell this near the plane is lit face, where the following begins
# Moved (cut and balanced again): 0.09 dev 97/60/6, test 39/18/6; 0.15 dev 96/60/6, test 39/16/6.
STEP = 0.12  # log units: a shadow's edge falls by at most this from one cell to the next
# Moved (cut and balanced again): 0.075 dev 96/60/6, test 39/18/6; 0.125 dev 95/59/7, test 39/18/6.
MATTERS = 0.10  # log units: a field no deeper than this anywhere is no shadow
# Moved (cut and balanced again): (1.5,4.5) dev 96/60/6, test 39/18/6; (2.5,7.5) dev 98/60/5, test 39/18/6.
REACH = (2.0, 6.0)  # cells: how far the face cells' shading is spread over a motif, near first then far


def shadow_field(square: np.ndarray, white: np.ndarray) -> np.ndarray | None:
    """The shadow over a tile (square: size x size x 3) beyond its face plane (white: the plane's colour at every
    pixel), as a log factor at every pixel, or None when the tile lies in the plane's light."""
    size = square.shape[0]
    pixels = square.astype(np.float32)
    residual = (np.log(np.maximum(to_cells(pixels), 1.0)) - np.log(np.maximum(to_cells(white), 1.0)))
    level = residual.mean(axis=2)
    alike = np.ptp(residual, axis=2) < NEUTRAL
    lightness = np.log(np.maximum(pixels.mean(axis=2), 1.0))
    spread = np.sqrt(np.maximum(to_cells(lightness**2) - to_cells(lightness) ** 2, 0.0))
    face_like = alike & (spread < PLAIN)
    face = followed(face_like & (np.abs(level) < LIT), face_like, level)
    field = spread_over_motifs(level.astype(np.float32), face)
    if np.abs(field).max() <= MATTERS:
        return None
    return cv2.resize(field, (size, size), interpolation=cv2.INTER_LINEAR)


def to_cells(image: np.ndarray) -> np.ndarray:
    return cv2.resize(image, (GRID, GRID), interpolation=cv2.INTER_AREA)


def followed(taken: np.ndarray, allowed: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Cells reached from `taken` through `allowed` ones, each step between neighbours whose levels differ by
    less than STEP."""
    down = np.abs(np.diff(level, axis=0)) < STEP  # between row i and row i + 1
    across = np.abs(np.diff(level, axis=1)) < STEP
    while True:
        reached = taken.copy()
        reached[1:] |= taken[:-1] & down
        reached[:-1] |= taken[1:] & down
        reached[:, 1:] |= taken[:, :-1] & across
        reached[:, :-1] |= taken[:, 1:] & across
        reached &= allowed
        reached |= taken
        if np.array_equal(reached, taken):
            return taken
        taken = reached


def spread_over_motifs(levels: np.ndarray, face: np.ndarray) -> np.ndarray:
    """The face cells' levels, and elsewhere their weighted mean nearby (REACH: the nearest scale that has face
    cells); 0 where none is near."""
    weight = face.astype(np.float32)
    field = np.where(face, levels, 0.0).astype(np.float32)  # the face cells' own, and 0 until filled
    unknown = ~face
    for sigma in REACH:
        total = cv2.GaussianBlur(field * weight, (0, 0), sigma)
        share = cv2.GaussianBlur(weight, (0, 0), sigma)
        known = unknown & (share > 0.05)
        field[known] = total[known] / share[known]
        unknown &= ~known
    return field
