"""Reading a never-seen puzzle from the photo alone (vision/read/selflabel.py), on generated photos of random puzzles.

Halves are cut at the true tile corners, so only self-labelling is tested: the halves sorted into half-types,
the types paired into motifs, and the solver choosing among the readings. Labels are compared with the
truth up to renaming the motifs and swapping which half is +, as a puzzle read on its own names them itself.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from photosolve.cli.photo_cmd import DOUBT_MARGIN
from photosolve.scenes.evaluate import arrangement_fits, edges_right_up_to_renaming
from photosolve.scenes.scene import make_scene
from photosolve.solver.repair import repair
from photosolve.vision.read.descriptors import describe_halves
from photosolve.vision.read.features import white_bands
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import edge_posteriors
from photosolve.vision.rectify import rectify_all
from photosolve.vision.read.pairing import (cheapest_pairings, distinct_colour_costs, motif_labels, pairing_costs,
                                            ranking_costs)
from photosolve.vision.read.posterior import group_mean_distances, type_posterior_from_distances
from photosolve.vision.read.selflabel import MOTIF_RANGE, repair_cost, self_label
from photosolve.vision.read.trials import (PAIRINGS_TRIED, appearance_tree, fits_as_read, labels_fit, type_count_gaps,
                                           types_range)
from photosolve.vision.read import halfmatch
from photosolve.vision.read.halfmatch import shifted_distances, small_pictures
from photosolve.vision.types import TileQuad

def true_halves(scene, corner_error: float = 0.0, inset: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A scene's halves cut at the true corners, and the true edges N E S W of each tile.

    With corner_error, each corner is moved up to that fraction of a side, and every third tile has one side
    moved inward by `inset` of a side: outlines as a segmentation a few percent off finds them.
    """
    rng = np.random.default_rng(scene.truth["seed"])
    quads = []
    for number, tile in enumerate(scene.truth["tiles"]):
        corners = np.array(tile["corners"], float)
        side = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
        moved = corners + rng.uniform(-corner_error, corner_error, size=(4, 2)) * side
        if number % 3 == 0:
            edge = number % 4  # side k runs from corner k to k+1, towards the opposite corners k+3 and k+2
            moved[edge] += inset * (corners[(edge + 3) % 4] - corners[edge])
            moved[(edge + 1) % 4] += inset * (corners[(edge + 2) % 4] - corners[(edge + 1) % 4])
        quads.append(TileQuad(moved))
    return (white_bands(rectify_all(photo_from_array(scene.image), quads))[0],
            np.array([tile["edges"] for tile in scene.truth["tiles"]]))


def motif_count(edges: np.ndarray) -> int:
    return len(set(np.abs(edges).ravel().tolist()) - {0})


# One photo per layout, as the never-seen bench makes them (bench/selflabel_accuracy.py): 3 to 6 motifs, insects
# and dogs. Each but the dogs was misread when motifs were grouped by colour first: the insects' heads and tails
# differ in colour (a beetle's dark shell, its pale legs), so one motif was taken for two (3 motifs read as 4 or
# 5), and in the grid one motif shows only one of its halves (6 motifs read as 5).
CASES = [(10044, "scattered"), (10003, "grid"), (10052, "touching"), (10011, "solved")]


@pytest.fixture(scope="module", params=CASES, ids=[f"{layout}-{seed}" for seed, layout in CASES])
def photographed(request):
    seed, layout = request.param
    scene = make_scene(f"random:{3 + seed % 4}", seed, tier="medium")
    assert scene.truth["layout"] == layout
    bands, edges = true_halves(scene)
    return bands, edges, scene.truth, self_label(bands, scene.truth["rows"], scene.truth["cols"])


def test_every_edge_is_read_and_the_solution_is_true(photographed):
    _, edges, truth, found = photographed
    assert found.motifs == motif_count(edges)
    assert edges_right_up_to_renaming(found.reading.labels, edges) == edges.size
    checked = repair(edge_posteriors(found.reading), truth["rows"], truth["cols"], rival=True)
    assert checked.solution is not None and arrangement_fits(checked.solution, edges)
    assert checked.changes == ()  # the reading itself has the solution: nothing had to be read otherwise


def test_the_types_are_where_appearance_jumps_most(photographed):
    bands, edges, _, _ = photographed
    descriptors = describe_halves(bands.reshape(-1, *bands.shape[2:]))
    gaps = type_count_gaps(appearance_tree(descriptors), types_range(MOTIF_RANGE, edges.size))
    assert max(gaps, key=gaps.get) == len(set(edges.ravel().tolist()))


def test_true_half_types_pair_into_the_true_motifs(photographed):
    """The pairing on its own: given each half's true type, the first of the cheapest pairings (by how halves meet
    at the cut and by their distinct colours) that the tiles can be laid out with pairs head with tail."""
    bands, edges, truth, _ = photographed
    descriptors = describe_halves(bands.reshape(-1, *bands.shape[2:]))
    values = sorted(set(edges.ravel().tolist()))
    types = np.searchsorted(values, edges.ravel())
    meets, _ = pairing_costs(descriptors, types)
    costs = ranking_costs(meets, distinct_colour_costs(descriptors.colours, types))
    pairings = cheapest_pairings(costs, len(values) % 2, keep=PAIRINGS_TRIED)
    fitting = [motif_labels(types, pairs) for _, pairs in pairings
               if labels_fit(motif_labels(types, pairs).reshape(edges.shape), truth["rows"], truth["cols"])]
    assert fitting and edges_right_up_to_renaming(fitting[0], edges) == edges.size


def test_the_solver_tells_a_true_reading_from_a_misread_one(photographed):
    bands, edges, truth, found = photographed
    rows, cols = truth["rows"], truth["cols"]
    assert fits_as_read(found.reading, rows, cols)
    # Halves read as their motif's other half, surely, one more at a time until the tiles have no solution.
    candidates = list(found.reading.candidates)
    labels, posterior = found.reading.labels.copy(), found.reading.posterior.copy()
    for tile, side in np.ndindex(*labels.shape):
        labels[tile, side] = -labels[tile, side]
        posterior[tile, side] = np.eye(len(candidates))[candidates.index(labels[tile, side])]
        misread = replace(found.reading, labels=labels, posterior=posterior)
        if not fits_as_read(misread, rows, cols):
            break
    assert not fits_as_read(misread, rows, cols)
    # Being sure of the misread halves, the repair cannot cheaply read them back.
    assert repair_cost(misread, rows, cols) > 5.0


@pytest.mark.parametrize("seed, tier", [(10044, "medium"), (10003, "hard")])
def test_outlines_a_few_percent_off_are_read_as_surely_as_true_ones(seed, tier):
    """Corners up to 4% of a side off and a side of every third tile 8% inside it: halves are compared at their
    best small shift, so every edge is still read and the solution is given with no question and no repair."""
    scene = make_scene(f"random:{3 + seed % 4}", seed, tier=tier)
    bands, edges = true_halves(scene, corner_error=0.04, inset=0.08)
    rows, cols = scene.truth["rows"], scene.truth["cols"]
    found = self_label(bands, rows, cols)
    assert edges_right_up_to_renaming(found.reading.labels, edges) == edges.size
    checked = repair(edge_posteriors(found.reading), rows, cols, rival=True)
    assert checked.solution is not None and arrangement_fits(checked.solution, edges)
    assert checked.changes == () and checked.doubtful(DOUBT_MARGIN) == []


def test_pairings_come_cheapest_first_with_a_lone_type_when_their_number_is_odd():
    # Types 0-1, 2-3 and 4 (alone) belong together; pairing 4 with anything costs more than leaving it alone.
    costs = np.full((5, 5), 10.0)
    costs[0, 1] = costs[1, 0] = 1.0
    costs[2, 3] = costs[3, 2] = 2.0
    costs[1, 2] = costs[2, 1] = 1.5
    pairings = cheapest_pairings(costs, singles=1, keep=3)
    assert pairings[0] == (3.0, [(0, 1), (2, 3), (4,)])
    assert [cost for cost, _ in pairings] == sorted(cost for cost, _ in pairings)
    assert all(sum(len(pair) == 1 for pair in pairs) == 1 for _, pairs in pairings)
    assert len({tuple(pairs) for _, pairs in pairings}) == 3


def test_motif_labels_number_motifs_by_first_appearance():
    types = np.array([2, 0, 1, 2, 3, 0])
    assert motif_labels(types, [(0, 3), (1, 2)]).tolist() == [1, 2, -1, 1, -2, 2]


def test_type_means_from_pairwise_distances_are_the_euclidean_ones():
    """Without features, only distances: a half's distance to each type's mean (its own left out) is recovered
    from the squared distances between halves, as for points in space."""
    rng = np.random.default_rng(5)
    points = rng.normal(size=(12, 3))
    labels = np.array([1, 1, 1, -1, -1, 2, 2, 2, 2, -2, -2, 3])
    squared = np.sum((points[:, None] - points[None]) ** 2, axis=2)
    _, candidates = type_posterior_from_distances(squared, labels)
    for label in candidates[candidates != 3]:  # 3 has one half only: it has no mean without it
        members = np.flatnonzero(labels == label)
        for half in range(len(points)):
            rest = members[members != half]
            expected = np.sum((points[half] - points[rest].mean(axis=0)) ** 2)
            got = group_mean_distances(squared, labels == label)[half]
            assert got == pytest.approx(expected)


def test_a_half_moved_a_few_pixels_is_compared_as_itself(monkeypatch):
    scene = make_scene("random:4", 10044, tier="medium")
    bands, edges = true_halves(scene)
    flat, labels = bands.reshape(-1, *bands.shape[2:])[:8], edges.ravel()[:8]
    moved = np.roll(flat, (5, -6), axis=(1, 2))  # 4% of a side down, 5% along: as a corner found that far off
    pictures = small_pictures(np.concatenate([flat, moved]))
    distances = shifted_distances(pictures)
    to_itself = distances[np.arange(8), np.arange(8) + 8]
    assert np.all(to_itself < np.min(distances[:8, :8][labels[:, None] != labels[None]]))
    monkeypatch.setattr(halfmatch, "SHIFTS_ACROSS", range(1))  # compared cell by cell, as before
    monkeypatch.setattr(halfmatch, "SHIFTS_ALONG", range(1))
    cell_by_cell = shifted_distances(pictures)[np.arange(8), np.arange(8) + 8]
    assert np.all(to_itself < 0.3 * cell_by_cell)
