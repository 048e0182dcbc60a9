"""Self-labelling's first look weighed of six distances (descriptors.weighed_appearance), taken where the lined-up
difference alone sets no half-types apart sharply (selflabel.sets_types_apart).

Real generated photos through the real descriptors; the halves are cut at the true tile corners, so only the
comparison is tested.
"""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.vision.read.descriptors import APPEARANCE_WEIGHTS, describe_halves, weighed_appearance
from photosolve.vision.read.selflabel import sets_types_apart

from .test_structure import groups_right_by, halves_at_true_corners


@pytest.fixture(scope="module")
def busy_face():
    """Four photographic motifs (a dev family) on tiles printed with diagonal stripes."""
    flat, face, truth = halves_at_true_corners("photos-a", 4, 20008)
    return describe_halves(flat, face), truth


def test_the_distances_weighed_are_one_distance_on_its_typical_scale(busy_face):
    descriptors, _ = busy_face
    weighed = weighed_appearance(descriptors.distances)
    assert set(descriptors.distances) == set(APPEARANCE_WEIGHTS)
    assert np.allclose(weighed, weighed.T) and np.all(np.diag(weighed) == 0)
    assert np.median(weighed[np.triu_indices(len(weighed), 1)]) == pytest.approx(1.0)
    # one distance weighed alone is that distance
    assert np.allclose(weighed_appearance(descriptors.distances, {"lined_up": 1.0}), descriptors.appearance)


def test_halves_the_lined_up_difference_sets_apart_weakly_sort_right_weighed(busy_face):
    # every half's band shows stripes and the corners of the tile's other halves, at other places on every copy:
    # lined up, the largest difference is the face's, and no number of types stands apart sharply
    descriptors, truth = busy_face
    assert not sets_types_apart(descriptors)
    assert not groups_right_by(descriptors.appearance, truth)
    assert groups_right_by(weighed_appearance(descriptors.distances), truth)
