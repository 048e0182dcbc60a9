"""Doubt from a tile's outline: measured on a real generated photo, with one outline moved off its tile."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from photosolve.scenes.scene import make_scene
from photosolve.vision.read.classify import reading_from
from photosolve.vision.read.doubt import (WEAK_OUTLINE, outline_supports, outline_trust, weak_outlines,
                                         with_outline_doubt)
from photosolve.vision.load import photo_from_array
from photosolve.vision.types import TileQuad


@lru_cache(maxsize=None)
def photo_and_true_quads():
    scene = make_scene("dogs", 3, tier="medium", layout="scattered")
    quads = [TileQuad(np.asarray(tile["corners"], dtype=float)) for tile in scene.truth["tiles"]]
    return photo_from_array(scene.image), quads


def test_true_outlines_lie_on_clear_edges():
    photo, quads = photo_and_true_quads()
    supports = outline_supports(photo, quads)
    assert supports.min() > 2 * WEAK_OUTLINE * np.median(supports) and weak_outlines(supports) == []


def test_an_outline_moved_a_third_of_a_side_is_doubted():
    photo, quads = photo_and_true_quads()
    moved = list(quads)
    tile = quads[4]
    moved[4] = TileQuad(tile.corners + (tile.corners[1] - tile.corners[0]) / 3)  # a third of a side along its top
    assert weak_outlines(outline_supports(photo, moved)) == [4]


def test_only_a_doubted_tiles_edges_lose_confidence():
    candidates = np.array([-2, -1, 1, 2])
    posterior = np.tile([0.01, 0.01, 0.97, 0.01], (5, 4, 1))
    reading = reading_from(posterior, candidates)
    supports = np.array([10.0, 12.0, 8.0, 0.5 * WEAK_OUTLINE * 10.0, 0.0])  # the median tile's support is 8
    assert np.allclose(outline_trust(supports), [1, 1, 1, 0.625, 0])
    doubted = with_outline_doubt(reading, supports)
    assert np.allclose(doubted.probabilities[:3], 0.97)  # a clear outline keeps its reading
    assert np.all(doubted.labels == 1)  # the best label stays the best
    assert np.all((doubted.probabilities[3] < 0.9) & (doubted.probabilities[3] > 0.3))
    assert np.all(doubted.probabilities[4] < 0.4)  # an outline on nothing says little
