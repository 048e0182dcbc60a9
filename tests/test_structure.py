"""Halves compared by their fine structure, registered (vision/read/structure.py), on a real generated photo.

The first photo's motifs are crops of one photograph (a dev art family, 'alike'): alike in colour and coarse shape, so the
colour pictures and histograms confuse them, while each copy of a half is the same print down to its details.
The second's tiles are printed with a busy striped face around photographic
motifs: there the halves group right only when compared where their own print lies, about their edge's middle
(rectify.motif_weight).
Halves are cut at the true tile corners, so only the comparison is tested.
"""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.scenes.families import family_artwork, motif_kind
from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.read.descriptors import describe_halves
from photosolve.vision.read.features import white_bands
from photosolve.vision.read.structure import POSES, print_distances, structure_distances
from photosolve.vision.read.ward import cut_tree, ward_tree
from photosolve.vision.rectify import motif_weight, posed, rectify_all
from photosolve.vision.types import TileQuad


def halves_at_true_corners(family: str, motifs: int, seed: int):
    """The halves (flat, in one light), the face's Lab and the true labels of a dev family's medium photo."""
    scene = make_scene(f"family:{family}:{motifs}", seed, tier="medium")
    quads = [TileQuad(np.array(tile["corners"], float)) for tile in scene.truth["tiles"]]
    bands, face = white_bands(rectify_all(photo_from_array(scene.image), quads))
    truth = np.array([tile["edges"] for tile in scene.truth["tiles"]]).ravel()
    return bands.reshape(-1, *bands.shape[2:]), face, truth


def groups_right(flat: np.ndarray, face: np.ndarray, truth: np.ndarray, centred: bool = False) -> bool:
    """Whether Ward's clustering of the halves' appearance, cut at the true number of types, gives the true types."""
    return groups_right_by(describe_halves(flat, face, centred).appearance, truth)


def groups_right_by(appearance: np.ndarray, truth: np.ndarray) -> bool:
    """Whether Ward's clustering of an appearance (halves x halves), cut at the true number of types, gives the true
    types."""
    types = cut_tree(ward_tree(np.sqrt(np.maximum(appearance, 0.0))), len(set(truth.tolist())))
    return len(set(zip(types.tolist(), truth.tolist()))) == len(set(truth.tolist())) == len(set(types.tolist()))


@pytest.fixture(scope="module")
def crops_of_one_photo():
    """A photo of six motifs cut from one photograph."""
    assert motif_kind(family_artwork("photos-a", 6, 20003)) == "alike"
    return halves_at_true_corners("photos-a", 6, 20003)


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
    assert groups_right(*crops_of_one_photo)


def test_a_half_counts_most_about_its_edges_middle():
    weight = motif_weight(56, 128)
    assert weight[0, 64] > 0.99 and weight[0, 64] == weight.max()
    assert weight[0, 0] < 0.01 and weight[-1, 64] < 0.01  # a band's corner and its far end: face, other halves
    assert np.allclose(weight, weight[:, ::-1])  # left and right alike


def test_halves_on_a_busy_printed_face_sort_into_their_true_types():
    # four distinct photographic motifs on tiles printed with diagonal stripes: every half's band also shows
    # stripes and the corners of the tile's other halves, at other places on every copy; compared everywhere
    # alike, copies of one half do not group together; compared about their edge's middle, they do
    assert motif_kind(family_artwork("photos-a", 4, 20008)) == "distinct"
    halves = halves_at_true_corners("photos-a", 4, 20008)
    assert not groups_right(*halves)
    assert groups_right(*halves, centred=True)


def test_a_half_turned_and_scaled_a_little_is_itself_in_some_pose(crops_of_one_photo):
    flat, _, truth = crops_of_one_photo
    turned = posed(flat[:4], 1.5, 1.025)  # an outline whose corners are 2-3 pixels off on a 128-pixel tile
    both = np.concatenate([flat[:4], turned])
    pairs = np.arange(4), np.arange(4) + 4
    as_cut, registered = structure_distances(both)[pairs], structure_distances(both, poses=POSES)[pairs]
    assert np.all(registered < as_cut)
    others = structure_distances(flat, poses=POSES)[:4][truth[:4, None] != truth[None]]
    assert registered.max() < others.min()


def test_print_distances_are_structure_distances_made_together(crops_of_one_photo):
    flat = crops_of_one_photo[0][:12]
    over_band, centred = print_distances(flat, POSES)
    assert np.allclose(over_band, structure_distances(flat, poses=POSES), atol=1e-6)
    assert np.allclose(centred, structure_distances(flat, centred=True, poses=POSES), atol=1e-6)
