"""The photo pipeline end to end, one stage after another: tiles found, cut out, described, read."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .classify import Reading, fit_score, read_halves
from .errors import TemplateError
from .features import band_features, white_bands
from .rectify import rectify_all
from .segment import find_tiles
from .templates import TemplateSet, bundled_names, load_templates
from .types import Photo, TileQuad


@dataclass(frozen=True)
class Halves:
    """The tiles found in a photo and their edge halves, ready to be read."""

    quads: list[TileQuad]
    squares: np.ndarray  # (tiles, size, size, 3) uint8, N on top
    bands: np.ndarray  # (tiles, 4, h, w, 3) float, white-balanced, edge on top
    features: np.ndarray  # (tiles, 4, F)


def cut_halves(photo: Photo, expected: int) -> Halves:
    """Segment the photo, rectify each tile, and describe its four halves."""
    quads = find_tiles(photo, expected)
    squares = rectify_all(photo, quads)
    bands = white_bands(squares)
    return Halves(quads, squares, bands, band_features(bands))


def choose_templates(features: np.ndarray, wanted: str | Path | None) -> tuple[TemplateSet, list[tuple[str, float]]]:
    """The template set asked for, or the bundled set that fits the photo's halves best, with every set's fit."""
    if wanted is not None:
        return load_templates(wanted), []
    names = bundled_names()
    if not names:
        raise TemplateError("no template sets are installed: give one with --templates DIR")
    fits = sorted(((name, fit_score(features, load_templates(name))) for name in names), key=lambda item: item[1])
    return load_templates(fits[0][0]), fits


def read_edges(halves: Halves, templates: TemplateSet) -> Reading:
    return read_halves(halves.features, templates)
