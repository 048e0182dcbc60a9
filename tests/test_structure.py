"""Halves compared by their fine structure, registered (vision/read/structure.py), on a real generated photo.

The photo's motifs are crops of one photograph (a dev art family, 'alike'): alike in colour and coarse shape, so the
colour pictures and histograms confuse them, while each copy of a half is the same print down to its details.
Halves are cut at the true tile corners, so only the comparison is tested.
"""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.scenes.families import family_artwork, motif_kind
from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.read.features import white_bands
from photosolve.vision.read.selflabel import describe_halves
from photosolve.vision.read.structure import structure_distances
from photosolve.vision.read.ward import cut_tree, ward_tree
from photosolve.vision.rectify import rectify_all
from photosolve.vision.types import TileQuad


@pytest.fixture(scope="module")
def crops_of_one_photo():
    """The halves (flat, in one light), the face's Lab and the true labels of a photo of six motifs cut from one
    photograph."""
    scene = make_scene("family:photos-a:6", 20003, tier="medium")
    assert motif_kind(family_artwork("photos-a", 6, 20003)) == "alike"
    quads = [TileQuad(np.array(tile["corners"], float)) for tile in scene.truth["tiles"]]
    bands, face = white_bands(rectify_all(photo_from_array(scene.image), quads))
    truth = np.array([tile["edges"] for tile in scene.truth["tiles"]]).ravel()
    return bands.reshape(-1, *bands.shape[2:]), face, truth


def test_every_half_is_nearest_a_copy_of_itself(crops_of_one_photo):
    flat, _, truth = crops_of_one_photo
    distances = structure_distances(flat)
    assert distances.shape == (len(truth), len(truth))
    assert np.allclose(distances, distances.T) and np.all(np.diag(distances) == 0)
    nearest = np.argmin(distances + np.diag(np.full(len(truth), np.inf)), axis=1)
    assert np.all(truth[nearest] == truth)


def test_a_half_moved_a_few_pixels_is_still_itself(crops_of_one_photo):
    flat, _, truth = crops_of_one_photo
    moved = np.roll(flat[:4], 3, axis=2)  # 3 pixels along the edge, 2% of a side: an outline a little off
    distances = structure_distances(np.concatenate([flat[:4], moved]))
    own = distances[np.arange(4), np.arange(4) + 4]
    others = structure_distances(flat)[:4][truth[:4, None] != truth[None]]
    assert own.max() < others.min()


def test_halves_alike_in_colour_sort_into_their_true_types(crops_of_one_photo):
    flat, face, truth = crops_of_one_photo
    appearance = describe_halves(flat, face).appearance
    types = cut_tree(ward_tree(np.sqrt(np.maximum(appearance, 0.0))), len(set(truth.tolist())))
    assert len(set(zip(types.tolist(), truth.tolist()))) == len(set(truth.tolist()))
