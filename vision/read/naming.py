"""Name a puzzle's motifs as a person would: by the typical colour of their halves ('red', 'teal2').

A puzzle read from the photo alone has no names for its motifs; the colour where each motif is cut, about the
edge's middle, is what a person would call it by.
"""
from __future__ import annotations

import numpy as np

from ..rectify import motif_weight
from .face import WHITE_LAB, lab_of

# A motif is named by its colours where the edge's middle weighs at least this (rectify.motif_weight: within
# two of its sigmas, 0.2 of a side, of the middle). Measured on drawn never-seen medium photos (seeds 30000-30029,
# names compared with the drawn colours' up to synonyms): 115 of 130 motifs named right, 113 over the whole band; a
# busy-faced dev family photo's six brown animals: 'tan'/'grey', three 'teal' (the printed leaves) before.
NAMED_WITHIN = float(np.exp(-2.0))
# Colour names a person would use, with their Lab (D65) coordinates.
COLOUR_NAMES = {
    "red": (50, 70, 50), "orange": (65, 40, 65), "yellow": (88, -5, 80), "green": (55, -50, 45),
    "teal": (50, -30, -8), "blue": (45, 10, -55), "navy": (25, 15, -45), "purple": (40, 45, -40),
    "pink": (70, 45, -5), "brown": (40, 20, 30), "tan": (70, 8, 30), "grey": (55, 0, 0), "black": (15, 0, 0),
}


def colour_name(lab: np.ndarray) -> str:
    """The nearest everyday colour name to a Lab colour."""
    return most_seen_colour(np.atleast_2d(lab))


def most_seen_colour(pixels: np.ndarray) -> str:
    """The everyday colour name that most of these Lab pixels (n x 3) are nearest to."""
    names = list(COLOUR_NAMES)
    reference = np.array([COLOUR_NAMES[n] for n in names], float)
    nearest = np.argmin(np.linalg.norm(pixels[:, None, :] - reference[None], axis=2), axis=1)
    return names[int(np.bincount(nearest, minlength=len(names)).argmax())]


def motif_names(bands: np.ndarray, labels: np.ndarray, face: np.ndarray = WHITE_LAB) -> dict[int, str]:
    """Each motif named by the typical colour of its halves ('red', 'blue'), numbered where two share a name.

    The colour is taken about the edge's middle (rectify.motif_weight), where every motif is cut and its figure
    lies: further out a busy printed face or the corners of the tile's other halves fill the band. It is the name
    most of those pixels are nearest to, the colour a person sees most of, not the name of their median colour: a
    red emblem in a gold rim with a dark red shade has a brown median. bench/naming.py (never-seen photos, true
    corners and edges), named right median -> most seen: medium seeds 30000-30029 106 -> 110 of 131 motifs, hard
    seeds 50000-50029 108 -> 109 of 132.
    """
    height, width = bands.shape[1:3]
    middle = motif_weight(height, width) >= NAMED_WITHIN
    names: dict[int, str] = {}
    for motif in sorted(set(abs(int(v)) for v in labels)):
        pixels = np.concatenate([lab[motif_mask & middle] for _, lab, motif_mask in
                                 (lab_of(band, face) for band in bands[np.abs(labels) == motif])])
        colourful = pixels[np.hypot(pixels[:, 1], pixels[:, 2]) > 20]  # not outlines, wheels, eyes
        typical = colourful if len(colourful) > 0.2 * len(pixels) else pixels
        name = most_seen_colour(typical) if len(typical) else f"motif{motif}"
        base, n = name, 2
        while name in names.values():
            name, n = f"{base}{n}", n + 1
        names[motif] = name
    return names
