"""How square an outline is, and a longer outline (a tile joined to a strip of cloth) not taken for a square one
(the whole photos this fixed are in tests/test_segment.py)."""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.vision.find.sides import elongation, no_less_square


def test_elongation_of_squares_and_strips():
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=float)
    assert elongation(square) == pytest.approx(1.0)
    assert elongation(square * [1.0, 1.25]) == pytest.approx(1.25)
    turned = square @ np.array([[np.cos(0.4), np.sin(0.4)], [-np.sin(0.4), np.cos(0.4)]])
    assert elongation(turned) == pytest.approx(1.0)


def test_a_longer_outline_does_not_replace_a_square_one():
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=float)
    joined = square * [1.0, 1.3]  # the tile and a strip of cloth beside it
    better = square + 0.2  # the same square, shifted a little
    kept = no_less_square([(joined, True), (better, True)], [(square, True), (square, True)])
    assert kept[0][0] is square and kept[1][0] is better
