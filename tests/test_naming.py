"""Motifs read from the photo alone are named by colour, as a person would call them (vision/read/naming.py): by the
everyday colour that most of their pixels about the edge's middle are nearest to."""
from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from photosolve.cli.main import app, with_default_command
from photosolve.vision.read.naming import COLOUR_NAMES, colour_name, most_seen_colour

from .conftest import SAMPLES


def test_a_figure_is_named_by_the_colour_most_of_it_shows_not_by_a_mix_of_its_colours():
    # a red emblem with a gold rim and a dark red shade: the median of each of their Lab channels is brown
    red, gold, shade = (np.array(COLOUR_NAMES[name], float) for name in ("red", "yellow", "brown"))
    pixels = np.vstack([np.tile(red, (45, 1)), np.tile(gold, (30, 1)), np.tile(shade, (25, 1))])
    assert most_seen_colour(pixels) == "red"
    assert colour_name(np.median(pixels, axis=0)) == "brown"  # as the names were taken before


def test_the_red_emblem_of_the_nsa_sample_is_named_red():
    """The bundled NSA photo read with no templates: of its four emblems (red, black, navy and blue, each in a gold
    or silver rim), one is named red (before, by the median colour: 'brown2')."""
    result = CliRunner().invoke(app, with_default_command([str(SAMPLES / "nsa.jpg"), "--templates", "none",
                                                           "--json"]))
    assert result.exit_code == 0, result.output
    names = json.loads(result.stdout[result.stdout.index("{"):])["motifs"].values()
    assert "red" in names, names
