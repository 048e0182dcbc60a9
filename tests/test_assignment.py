"""The Hungarian method against scipy's, on square and rectangular matrices, with ties and large values."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment as scipy_assignment

from photosolve.vision.read.assignment import linear_sum_assignment


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (5, 5), (9, 9), (36, 36), (4, 7), (7, 4), (9, 36)])
def test_same_total_cost_as_scipy(shape):
    rng = np.random.default_rng(sum(shape))
    for trial in range(20):
        cost = rng.random(shape) * 100
        if trial % 3 == 0:
            cost = np.round(cost / 20)  # many ties
        rows, cols = linear_sum_assignment(cost)
        expected_rows, expected_cols = scipy_assignment(cost)
        assert len(rows) == min(shape) and len(set(cols.tolist())) == len(cols)
        assert np.all(np.diff(rows) > 0)
        assert cost[rows, cols].sum() == pytest.approx(cost[expected_rows, expected_cols].sum())


def test_a_known_assignment():
    cost = np.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    rows, cols = linear_sum_assignment(cost)
    assert rows.tolist() == [0, 1, 2] and cols.tolist() == [1, 0, 2]
