"""Which bundled template set reads a photo, if any (vision/pipeline.py): one that fits its own puzzle's photo far
better than the other bundled sets do, never one that fits a photo of another puzzle no better than the rest."""
from __future__ import annotations

from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import DISTINCT, cut_halves, rank_bundled, read_photo_edges
from photosolve.vision.read.selflabel import SELF_READ_NAME


def test_a_photo_of_another_puzzle_that_every_bundled_set_fits_alike_is_read_from_itself():
    # Dev emoji-animals (seed 20004, easy): lions on tiles printed with a photo of a bowl of soup. Its halves differ so
    # much among themselves that every bundled set fits within FIT_LIMIT (2.8-3.0); the cats' set was taken.
    scene = make_scene("family:emoji-animals:4", 20004, tier="easy")
    halves = cut_halves(photo_from_array(scene.image), 9)
    fits = rank_bundled(halves.features)
    assert fits[1][1] < DISTINCT * fits[0][1]
    read = read_photo_edges(halves, None, 3, 3)
    assert read.templates.name == SELF_READ_NAME and "another puzzle" in read.how


def test_a_photo_of_a_bundled_puzzle_is_read_with_its_own_set():
    scene = make_scene("cats", 20000, tier="hard")  # of 96 such photos, the one its own set stood out least for
    halves = cut_halves(photo_from_array(scene.image), 9)
    fits = rank_bundled(halves.features)
    assert fits[0][0] == "cats" and fits[1][1] >= DISTINCT * fits[0][1]
    assert read_photo_edges(halves, None, 3, 3).templates.name == "cats"
