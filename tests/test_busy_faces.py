"""A puzzle printed on a busy face, read with no templates through the whole pipeline (vision/read/selflabel.py).

A dev art family's photo: six figures, alike, on tiles printed with a busy picture. Compared everywhere in their bands
the halves give only a guess (the print lies at another place around every copy); compared again about their edge's
middle, where every motif is cut (rectify.motif_weight), they are read right with no guess, and named by the colours
there, not by the printed face's.
"""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.scenes.evaluate import edges_right_up_to_renaming, true_edges_as_found
from photosolve.scenes.families import face_kind, family_artwork
from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import NO_TEMPLATES, cut_halves, read_photo_edges


@pytest.fixture(scope="module")
def busy_photo():
    assert face_kind(family_artwork("emoji-animals", 6, 20009)) == "busy"
    scene = make_scene("family:emoji-animals:6", 20009, tier="medium")
    halves = cut_halves(photo_from_array(scene.image), 9)
    truth = np.array(true_edges_as_found([quad.corners for quad in halves.quads], scene.truth))
    return read_photo_edges(halves, NO_TEMPLATES, 3, 3), truth


def test_halves_on_a_busy_face_are_read_right_with_no_guess(busy_photo):
    read, truth = busy_photo
    assert not read.guess
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size


def test_motifs_on_a_busy_face_are_named_by_their_own_colours(busy_photo):
    """Six brown animals (monkey, deer, chipmunk, bison, hedgehog, dog) on a face printed with green leaves: named
    over their whole bands, three were 'teal' (the leaves)."""
    read, _ = busy_photo
    names = [name.rstrip("0123456789") for name in read.templates.motif_names.values()]
    assert len(names) == 6
    assert not {"teal", "green", "blue", "navy"} & set(names), names
