"""Reading with a template set: each half is read by its registered print too, not by its features alone.

Features (colours and coarse layout) read figures alike in colour, or differing in a detail, about equally; the
halves' registered print (structure.py) tells copies of one half from the others there. The two looks are averaged,
not added: where they disagree the reading is unsure and the person is asked. Photos of two dev art families read
with the set learned from another photo of the same puzzle, through the real pipeline.
"""
from __future__ import annotations

import numpy as np

from photosolve.cli.photo_cmd import questions_before_solving
from photosolve.scenes.evaluate import arrangement_fits, in_truth_numbers, true_edges_as_found
from photosolve.scenes.scene import make_scene
from photosolve.solver import Puzzle, solve
from photosolve.solver.repair import repair
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import cut_halves, doubted, edge_posteriors, read_edges
from photosolve.vision.read.classify import read_halves
from photosolve.vision.read.learn import learn_templates

from .test_learn_print import teacher_photo


def photo_and_set(family: str, motifs: int, seed: int, tier: str):
    """A family's photo, its halves and true edges as found, and the set learned from another photo of it (the
    one test_learn_print learns from)."""
    puzzle, taught, _ = teacher_photo(family, motifs, seed)
    templates, _ = learn_templates(taught.bands, taught.features, puzzle, "learned", face=taught.face)
    scene = make_scene(f"family:{family}:{motifs}", seed, tier=tier)
    halves = cut_halves(photo_from_array(scene.image), len(puzzle.tiles))
    truth = true_edges_as_found([q.corners for q in halves.quads], scene.truth)
    return halves, truth, templates, scene.truth


def by_features_alone(halves, templates):
    return doubted(read_halves(halves.features, templates), halves)


def labels_in_truth(reading, templates, truth_dict):
    return in_truth_numbers(reading.labels, templates.motif_names, truth_dict)


def test_print_reads_the_halves_features_alone_misread():
    halves, truth, templates, truth_dict = photo_and_set("photos-a", 4, 10001, "hard")
    assert truth.all()  # every tile found where it lies
    alone = labels_in_truth(by_features_alone(halves, templates), templates, truth_dict)
    both = labels_in_truth(read_edges(halves, templates), templates, truth_dict)
    assert (alone != truth).sum() >= 2
    assert np.array_equal(both, truth)


def test_a_near_tie_between_two_alike_halves_is_asked_not_given():
    halves, truth, templates, truth_dict = photo_and_set("emoji-animals", 4, 10008, "medium")
    outcomes = []
    for reading in (by_features_alone(halves, templates), read_edges(halves, templates)):
        checked = repair(edge_posteriors(reading), 3, 3, rival=True)
        solution = solve(Puzzle.from_edges([tuple(int(v) for v in t) for t in checked.edges]), 3, 3).solutions[0]
        outcomes.append((arrangement_fits(solution, truth), questions_before_solving(checked, False)))
    (alone_right, alone_asked), (both_right, both_asked) = outcomes
    assert not alone_right and alone_asked == 0  # features alone: a wrong solution, given unasked
    assert both_right or both_asked > 0
