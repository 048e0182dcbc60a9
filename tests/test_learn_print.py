"""Learning a template set: which photo tile is which listed tile is decided by the halves' print too.

Matched by features alone (colours and coarse layout), two matches can explain a photo's halves about equally:
halves alike in colour, figures that differ in a detail, a busy face seen at the same side of every tile. The
halves' registered print (structure.py) tells copies of one half from the others there. Photos of two dev art
families (crops of one starry photograph on a busy face; food figures), through the real pipeline.
"""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.scenes.evaluate import listed_puzzle, true_edges_as_found
from photosolve.scenes.families import family_artwork
from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import cut_halves
from photosolve.vision.read.learn import learn_templates, match_tiles, turned_labels

CASES = [("photos-a", 3, 10009), ("emoji-food", 5, 10017)]


def teacher_photo(family: str, motifs: int, seed: int):
    """A medium, scattered photo of a family's puzzle, its halves and its tile list in another order and turn."""
    puzzle_scene = make_scene(f"family:{family}:{motifs}", seed, tier="easy")
    puzzle = listed_puzzle(puzzle_scene.truth)
    art = family_artwork(family, motifs, seed)
    scene = make_scene(puzzle, seed + 100_000, tier="medium", layout="scattered", art=art)
    halves = cut_halves(photo_from_array(scene.image), len(puzzle.tiles))
    truth = np.array(true_edges_as_found([q.corners for q in halves.quads], scene.truth))
    return puzzle, halves, truth


@pytest.fixture(scope="module", params=CASES, ids=[f"{f}-{s}" for f, _, s in CASES])
def teacher(request):
    return teacher_photo(*request.param)


def test_the_features_alone_leave_two_matches_close(teacher):
    puzzle, halves, truth = teacher
    match = match_tiles(halves.features, puzzle)
    assert truth.all()  # every tile found where it lies
    assert not np.array_equal(turned_labels(puzzle)[match.tiles - 1, match.turns], truth)
    assert match.runner_up_spread < 1.1 * match.spread


def test_with_the_print_every_half_is_learned_right(teacher):
    puzzle, halves, truth = teacher
    templates, _ = learn_templates(halves.bands, halves.features, puzzle, "learned", face=halves.face)
    assert np.array_equal(templates.labels.reshape(truth.shape), truth)
