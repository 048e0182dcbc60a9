"""Ward's clustering (vision/read/ward.py) against scipy's, which it stands in for to spare the import."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import pdist, squareform

from photosolve.vision.read.ward import cut_tree, ward_tree


@pytest.mark.parametrize("seed", range(40))
def test_tree_and_cuts_are_scipys(seed):
    rng = np.random.default_rng(seed)
    count, groups = int(rng.integers(5, 60)), int(rng.integers(2, 12))
    centres = rng.normal(size=(groups, 6)) * 3
    points = centres[rng.integers(0, groups, count)] + rng.normal(size=(count, 6)) * rng.uniform(0.1, 2)
    distances = squareform(pdist(points))
    theirs, mine = linkage(pdist(points), "ward"), ward_tree(distances)
    assert np.array_equal(theirs[:, [0, 1, 3]], mine[:, [0, 1, 3]])
    assert np.allclose(theirs[:, 2], mine[:, 2], rtol=1e-12)
    for clusters in range(2, min(count, 14)):
        assert np.array_equal(fcluster(theirs, clusters, "maxclust") - 1, cut_tree(mine, clusters))


def test_two_clear_groups_are_cut_apart():
    points = np.array([[0.0], [0.1], [0.2], [10.0], [10.1]])
    labels = cut_tree(ward_tree(np.abs(points - points.T)), 2)
    assert len(set(labels[:3])) == 1 and len(set(labels[3:])) == 1 and labels[0] != labels[3]
