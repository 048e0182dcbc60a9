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

NO_TEMPLATES = "none"  # --templates none: read the puzzle from the photo alone
# A bundled set fits a photo when its halves lie this close to the set's examples (in the set's own spread).
FIT_LIMIT = 2.5


@dataclass(frozen=True)
class Halves:
    """The tiles found in a photo and their edge halves, ready to be read."""

    quads: list[TileQuad]
    squares: np.ndarray  # (tiles, size, size, 3) uint8, N on top
    bands: np.ndarray  # (tiles, 4, h, w, 3) float, white-balanced, edge on top
    features: np.ndarray  # (tiles, 4, F)


@dataclass(frozen=True)
class EdgeReading:
    """What was read, against which templates, and how the set was chosen (for the person)."""

    reading: Reading
    templates: TemplateSet
    how: str  # one line: which set and why


def cut_halves(photo: Photo, expected: int) -> Halves:
    """Segment the photo, rectify each tile, and describe its four halves."""
    quads = find_tiles(photo, expected)
    squares = rectify_all(photo, quads)
    bands = white_bands(squares)
    return Halves(quads, squares, bands, band_features(bands))


def rank_bundled(features: np.ndarray) -> list[tuple[str, float]]:
    """Every bundled set with how well it fits the photo's halves, best first (lower is better)."""
    return sorted(((name, fit_score(features, load_templates(name))) for name in bundled_names()),
                  key=lambda item: item[1])


def choose_templates(features: np.ndarray, wanted: str | Path | None) -> tuple[TemplateSet, list[tuple[str, float]]]:
    """The template set asked for, or the bundled set that fits the photo's halves best, with every set's fit."""
    if wanted is not None:
        return load_templates(wanted), []
    fits = rank_bundled(features)
    if not fits:
        raise TemplateError("no template sets are installed: give one with --templates DIR")
    return load_templates(fits[0][0]), fits


def read_edges(halves: Halves, templates: TemplateSet) -> Reading:
    return read_halves(halves.features, templates)


def read_photo_edges(halves: Halves, wanted: str | None, rows: int, cols: int) -> EdgeReading:
    """Read every half: with the set asked for, else with the bundled set that fits, else from the photo alone."""
    from .selflabel import self_label

    if wanted is not None and str(wanted).lower() == NO_TEMPLATES:
        found = self_label(halves.bands, rows, cols)
        return EdgeReading(found.reading, found.templates,
                           f"templates: none; {found.motifs} motifs found in the photo itself")
    if wanted is not None:
        templates = load_templates(wanted)
        return EdgeReading(read_edges(halves, templates), templates, f"templates: {templates.name}")
    fits = rank_bundled(halves.features)
    if fits and fits[0][1] <= FIT_LIMIT:
        templates = load_templates(fits[0][0])
        others = "".join(f", {name} {fit:.1f}" for name, fit in fits[1:])
        return EdgeReading(read_edges(halves, templates), templates,
                           f"templates: {templates.name} (the best fit of the bundled sets: {fits[0][1]:.1f}{others})")
    found = self_label(halves.bands, rows, cols)
    near = f" (closest bundled set: {fits[0][0]}, fit {fits[0][1]:.1f})" if fits else ""
    return EdgeReading(found.reading, found.templates,
                       f"templates: none fits{near}; {found.motifs} motifs found in the photo itself")


def edge_posteriors(reading: Reading) -> list[list[dict[int, float]]]:
    """The reading's probabilities as the solver's repair takes them: per tile, per side, label -> probability."""
    labels = [int(v) for v in reading.candidates]
    return [[dict(zip(labels, map(float, side))) for side in tile] for tile in reading.posterior]
