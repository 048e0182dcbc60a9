"""Half-types paired into motifs when the motifs are one figure in several colourings.

A dev art family's easy photo (emoji animals: four lions whose manes differ in colour, a plain white face), cut at
its true corners and each half given its true type, so that only the pairing is tested. A lion's top meets the top
of a lion of another mane at the cut about as well as its own bottom (the figure is symmetric, and the cut runs
through the face both share), so the cut alone pairs wrongly, and summed as squared distances its confident wrong
verdict outweighs the colours. The colours that few types show (the manes) say which bottom is a top's own.
"""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.scenes.evaluate import edges_right_up_to_renaming
from photosolve.vision.read.descriptors import describe_halves
from photosolve.vision.read.pairing import (beyond_alternatives, cheapest_pairings, distinct_colour_costs, motif_labels,
                                            pairing_costs, pairing_of, ranking_costs)
from photosolve.vision.read.trials import labels_fit

from .test_selflabel_dearer import read_family_photo
from .test_selflabel_print import halves_at_true_corners

FAMILY, MOTIFS, SEED = "emoji-animals", 4, 20010


@pytest.fixture(scope="module")
def typed():
    bands, face, edges = halves_at_true_corners(FAMILY, MOTIFS, SEED, "easy")
    descriptors = describe_halves(bands.reshape(-1, *bands.shape[2:]), face)
    values = sorted(set(edges.ravel().tolist()))
    types = np.searchsorted(values, edges.ravel())
    true_pairing = pairing_of([tuple(t for t, value in enumerate(values) if abs(value) == motif)
                               for motif in sorted({abs(value) for value in values})])
    return descriptors, types, edges, true_pairing


def first_laid_out(costs: np.ndarray, types: np.ndarray, edges: np.ndarray) -> frozenset:
    """The cheapest pairing by `costs` that the tiles can be laid out with."""
    for _, pairs in cheapest_pairings(costs, int(types.max() + 1) % 2, keep=60):
        if labels_fit(motif_labels(types, pairs).reshape(edges.shape), 3, 3):
            return pairing_of(pairs)
    raise AssertionError("no pairing of the true types lays out")


def test_the_cut_alone_and_the_squared_sum_pair_wrongly(typed):
    descriptors, types, edges, true_pairing = typed
    meets, colours = pairing_costs(descriptors, types)
    assert first_laid_out(meets, types, edges) != true_pairing
    assert first_laid_out(meets + colours, types, edges) != true_pairing


def test_distinct_colours_pair_the_tops_with_their_own_bottoms(typed):
    descriptors, types, edges, true_pairing = typed
    meets, _ = pairing_costs(descriptors, types)
    distinct = distinct_colour_costs(descriptors.colours, types)
    assert first_laid_out(distinct, types, edges) == true_pairing
    assert first_laid_out(ranking_costs(meets, distinct), types, edges) == true_pairing


def test_a_colour_every_type_shows_weighs_nothing():
    shares = np.array([[0.5, 0.5, 0.0], [0.3, 0.0, 0.7], [0.9, 0.1, 0.0]])  # colour 0 in every type, in any share
    costs = distinct_colour_costs(np.sqrt(shares), np.arange(3))
    only_rare = distinct_colour_costs(np.sqrt(shares * [0.0, 1.0, 1.0]), np.arange(3))
    assert np.allclose(costs, only_rare)


def test_a_cue_counts_by_how_it_singles_a_pair_out():
    """Each pair's cost over what its two types cost with their next best partners: a pair both types prefer by far
    is far below 1, a pair no better than its types' alternatives is 1, and a pair of types each with a far cheaper
    partner elsewhere is above 1, however cheap it is on its own scale."""
    costs = np.array([[0.0, 0.1, 1.0, 1.0],
                      [0.1, 0.0, 1.0, 1.0],
                      [1.0, 1.0, 0.0, 1.0],
                      [1.0, 1.0, 1.0, 0.0]])
    ratios = beyond_alternatives(costs)
    assert np.isclose(ratios[0, 1], 0.1)
    assert np.isclose(ratios[2, 3], 1.0)
    assert np.isclose(ratios[0, 2], 1.0 / np.sqrt(0.1))
    assert np.allclose(ratios, ratios.T)
    assert np.allclose(beyond_alternatives(np.array([[0.0, 0.3], [0.3, 0.0]]))[0, 1], 1.0)  # no alternative at all


def test_pigs_whose_tops_all_meet_alike_pair_by_their_accent_colours():
    """Emoji animals, easy (dev), whole pipeline: pigs whose ears and snouts differ in colour, their eyes starting
    right below the cut. Every top is plain skin where it is cut, so the tops meet one another there almost
    perfectly, far better than their own bottoms; weighed on its own scale that outvoted the accent colours, and
    two tops were read as one motif's halves (31 of 36 edges right). Counted against each type's next best partner
    the cut says nothing either way, and every edge is read right."""
    read, truth = read_family_photo("emoji-animals", 4, 10000, "easy")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
