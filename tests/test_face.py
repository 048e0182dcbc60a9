"""The tile face found across the photo (vision/read/face.py): a card face reads white, a printed colour keeps its
colour, each tile is evened in its face's light, and copies of one half then group together whatever the face."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from photosolve.scenes.families import face_kind, family_artwork
from photosolve.scenes.scene import make_scene
from photosolve.solver import Puzzle
from photosolve.vision.load import photo_from_array
from photosolve.vision.read.descriptors import describe_halves
from photosolve.vision.read.face import WHITE_LAB, lab, motif_mask
from photosolve.vision.read.features import band_features, white_bands
from photosolve.vision.read.learn import learn_templates
from photosolve.vision.read.trials import appearance_tree
from photosolve.vision.read.templates import load_templates, save_templates
from photosolve.vision.read.ward import cut_tree
from photosolve.vision.rectify import rectify_all
from photosolve.vision.types import TileQuad

# A dev photo whose face is printed green (photos-a, 4 motifs, seed 20004): halves of the old per-tile white
# balance (the tile's brightest part made white) grouped wrongly at the true number of types; these group right.
GREEN = ("family:photos-a:4", 20004)


def squares_at_true_corners(scene) -> np.ndarray:
    quads = [TileQuad(np.array(tile["corners"], float)) for tile in scene.truth["tiles"]]
    return rectify_all(photo_from_array(scene.image), quads)


@pytest.fixture(scope="module")
def green():
    scene = make_scene(GREEN[0], GREEN[1], tier="medium")
    assert face_kind(family_artwork("photos-a", 4, GREEN[1])) == "strong"
    edges = np.array([tile["edges"] for tile in scene.truth["tiles"]])
    return squares_at_true_corners(scene), edges


def test_a_card_face_reads_white():
    bands, face = white_bands(squares_at_true_corners(make_scene("dogs", 3, tier="medium", size=(1600, 1200))))
    assert np.array_equal(face, WHITE_LAB)
    corners = bands[:, :, 2:6, 2:6]  # the band's top left: a tile's corner, face on card
    assert np.median(corners) > 0.9


def test_a_printed_face_keeps_its_colour_and_is_told_from_the_motifs(green):
    squares, _ = green
    bands, face = white_bands(squares)
    printed = lab(np.median(squares[:, 20:30, 20:30].reshape(-1, 3), axis=0) / 255.0)  # inside each corner
    assert face[0] < 80 and np.hypot(face[1], face[2]) > 20  # a strong colour, not white
    hue = np.degrees(np.arctan2(face[2], face[1]))
    printed_hue = np.degrees(np.arctan2(printed[2], printed[1]))
    assert abs((hue - printed_hue + 180) % 360 - 180) < 25  # green stays green
    corner_lab = cv2.cvtColor(np.ascontiguousarray(bands[:, :, 4:12, 4:12].reshape(-1, 8, 3)), cv2.COLOR_RGB2LAB)
    assert motif_mask(corner_lab, face).mean() < 0.2  # the tiles' corners are face
    assert motif_mask(corner_lab).mean() > 0.8  # which a white face's mask would call motif


def test_copies_of_one_half_group_together_on_a_printed_face(green):
    squares, edges = green
    bands, face = white_bands(squares)
    truth = edges.ravel()
    descriptors = describe_halves(bands.reshape(-1, *bands.shape[2:]), face)
    types = cut_tree(appearance_tree(descriptors), len(set(truth.tolist())))
    pairs = set(zip(types.tolist(), truth.tolist()))
    assert len(pairs) == len(set(truth.tolist())) == len(set(types.tolist()))


def test_a_set_learned_on_a_printed_face_keeps_it(green, tmp_path):
    squares, edges = green
    bands, face = white_bands(squares)
    features = band_features(bands, face)
    listed = Puzzle.from_edges([tuple(int(v) for v in tile) for tile in edges])
    templates, _ = learn_templates(bands, features, listed, "green", face=face)
    assert np.allclose(templates.features, features.reshape(-1, features.shape[-1]), atol=1e-5)
    loaded = load_templates(save_templates(templates, tmp_path / "green"))
    assert np.allclose(loaded.face, face, atol=1e-2)
    # stored 8-bit, the halves' features stay those of the photo (as a set saved from a card face's do)
    assert np.abs(loaded.features - templates.features).max() < 0.1
