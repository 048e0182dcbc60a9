"""Learn a template set from one photo of a puzzle and its tile list, typed in any order and any rotation.

Which photographed tile is which listed tile, and how it is turned, is found by alternating two steps, as in
k-means: given the mean look of every label, match photo tiles to listed tiles (Hungarian assignment over the
best turn of each pair); given the match, recompute the mean look of every label. Many random starts; the
match that leaves the halves of each label most alike wins.

Alike in two looks: their features (colours and coarse layout) and their registered print (structure.py, about
the edge's middle). Copies of one half are one print; where two matches explain the colours about equally (halves
alike in colour, a detail that differs, a busy face seen at the same side of every tile), the print decides. Each
look's spread is taken relative to itself (the two multiply), so neither needs a weight: a match must leave the
halves of each label more alike in one look by a larger share than it leaves them less alike in the other.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from .assignment import linear_sum_assignment

from ...solver.tiles import Puzzle, turn_edges
from .face import WHITE_LAB
from .templates import TemplateSet, example_prints


# Moved (classify.py's learned readings, 2026-11-30): 3 or 5, dev and test families as set.
POLISHED = 4  # how many of the best k-means matches are polished by pairwise swaps


@dataclass(frozen=True)
class Match:
    """Photo tile i is listed tile `tiles[i]` (1-based id) turned `turns[i]` quarter turns clockwise."""

    tiles: np.ndarray
    turns: np.ndarray
    spread: float  # how unlike the halves of each label are (explained): lower is a better match
    runner_up_spread: float  # the best spread among matches that differ from this one


def turned_labels(puzzle: Puzzle) -> np.ndarray:
    """(listed tiles, 4 turns, 4 sides) signed labels of every listed tile in every turn."""
    return np.array([[turn_edges(tile.edges, t) for t in range(4)] for tile in puzzle.tiles])


def match_tiles(features: np.ndarray, puzzle: Puzzle, prints: np.ndarray | None = None, random_starts: int = 20,
                seed: int = 0) -> Match:
    """The assignment of photo tiles (features: tiles x 4 x F) to listed tiles and turns that explains them best,
    in their features and, given `prints` (halves x halves print distances, halves in tile order), their print.

    Starts: every listed tile anchored on every photo tile in every turn, so that some start begins with four
    labels' looks right; plus a few random starts.
    """
    if len(puzzle.tiles) != len(features):
        raise ValueError(f"the photo shows {len(features)} tiles but the list has {len(puzzle.tiles)}")
    options = turned_labels(puzzle)
    labels = np.array(sorted({int(v) for v in options.ravel()}))
    index = np.searchsorted(labels, options)  # (listed, turns, sides) -> label column
    rng = np.random.default_rng(seed)
    # Every distinct listed tile is an anchor: with one anchor alone, k-means can settle in a wrong match
    # (as some 6-motif random puzzles showed); one start in ~36 begins with four labels' looks right.
    anchors = list({tuple(tile.edges): j for j, tile in enumerate(puzzle.tiles)}.values())
    starts = [(j, i, t) for j in anchors for i in range(len(features)) for t in range(4)] + [None] * random_starts
    results = {}
    for start in starts:
        if start is None:
            means = label_means(features, index[rng.permutation(len(features)), rng.integers(0, 4, len(features))],
                                len(labels))
        else:
            means = np.full((len(labels), features.shape[-1]), np.nan)
            anchor, photo_tile, turn = start
            means[index[anchor, turn]] = features[photo_tile]
        tiles = turns = None
        for _ in range(30):
            cost, best_turn = pair_costs(features, means, index)
            rows, listed = linear_sum_assignment(cost)
            new_tiles, new_turns = listed, best_turn[rows, listed]
            if tiles is not None and np.array_equal(new_tiles, tiles) and np.array_equal(new_turns, turns):
                break
            tiles, turns = new_tiles, new_turns
            means = label_means(features, index[tiles, turns], len(labels))
        results[(tuple(tiles), tuple(turns))] = explained(features, prints, index[tiles, turns], len(labels))
    # Polishing is the slow part: only the few best distinct matches are worth it.
    for (tiles, turns), _ in sorted(results.items(), key=lambda item: item[1])[:POLISHED]:
        tiles, turns = polish(features, prints, index, np.array(tiles), np.array(turns), len(labels))
        results[(tuple(tiles), tuple(turns))] = explained(features, prints, index[tiles, turns], len(labels))
    ranked = sorted(results.items(), key=lambda item: item[1])
    (tiles, turns), best = ranked[0]
    # Identical listed tiles swap freely; only a match that reads some half differently is a real rival.
    best_reading = options[list(tiles), list(turns)]
    rival = next((s for (t, k), s in ranked[1:] if not np.array_equal(options[list(t), list(k)], best_reading)),
                 np.inf)
    return Match(np.array(tiles) + 1, np.array(turns), float(best), float(rival))


def polish(features: np.ndarray, prints: np.ndarray | None, index: np.ndarray, tiles: np.ndarray, turns: np.ndarray,
           count: int) -> tuple[np.ndarray, np.ndarray]:
    """Swap pairs of photo tiles (each in its best turn) while that makes the labels' halves more alike."""
    tiles, turns = tiles.copy(), turns.copy()
    best = explained(features, prints, index[tiles, turns], count)
    improved = True
    while improved:
        improved = False
        for a in range(len(tiles)):
            for b in range(a + 1, len(tiles)):
                trial_tiles = tiles.copy()
                trial_tiles[[a, b]] = tiles[[b, a]]
                for turn_a in range(4):
                    for turn_b in range(4):
                        trial_turns = turns.copy()
                        trial_turns[[a, b]] = turn_a, turn_b
                        value = explained(features, prints, index[trial_tiles, trial_turns], count)
                        if value < best - 1e-12:
                            best, tiles, turns, improved = value, trial_tiles, trial_turns, True
                            trial_tiles = tiles.copy()
                            trial_tiles[[a, b]] = tiles[[a, b]]
    return tiles, turns


def label_means(features: np.ndarray, columns: np.ndarray, count: int) -> np.ndarray:
    """Mean feature of each label column, given the label column of every half (tiles x 4)."""
    flat, which = features.reshape(-1, features.shape[-1]), columns.ravel()
    # A one-hot product, not np.add.at: this runs some 100,000 times while polishing a match.
    sums = np.eye(count)[:, which] @ flat
    counts = np.bincount(which, minlength=count)[:, None]
    overall = flat.mean(axis=0)
    return np.where(counts > 0, sums / np.maximum(counts, 1), overall)


def pair_costs(features: np.ndarray, means: np.ndarray, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cost of photo tile i being listed tile j (at its best turn), and that turn: both photo x listed."""
    # squared[i, s, l]: half s of photo tile i against the mean of label l; a label with no look yet costs
    # what a typical known label costs, so it neither attracts nor repels.
    squared = np.sum((features[:, :, None, :] - means[None, None]) ** 2, axis=3)
    unknown = np.isnan(squared)
    if unknown.any():
        squared[unknown] = np.nanmedian(squared) if (~unknown).any() else 0.0
    sides = np.arange(4)
    # per[i, j, t] = sum over sides of squared[i, s, index[j, t, s]]
    per = squared[:, sides[None, None, :], index].sum(axis=-1)
    return per.min(axis=2), per.argmin(axis=2)


def spread(features: np.ndarray, columns: np.ndarray, count: int) -> float:
    """Mean squared distance of a half's features to its label's mean."""
    means = label_means(features, columns, count)
    return float(np.mean(np.sum((features - means[columns]) ** 2, axis=2)))


def print_spread(prints: np.ndarray, columns: np.ndarray, count: int) -> float:
    """The same for distances between halves (prints: halves x halves, as squared distances would be): a label's
    halves' summed distances to their mean are the sum over their pairs over their number."""
    one_hot = np.eye(count)[:, columns.ravel()]
    within = np.einsum("ln,nm,lm->l", one_hot, prints, one_hot) / 2
    return float(np.sum(within / np.maximum(one_hot.sum(axis=1), 1)) / columns.size)


def explained(features: np.ndarray, prints: np.ndarray | None, columns: np.ndarray, count: int) -> float:
    """How unlike the halves of each label are, in features times, where given, in print."""
    value = spread(features, columns, count)
    return value if prints is None else value * print_spread(prints, columns, count)


def learn_templates(bands: np.ndarray, features: np.ndarray, puzzle: Puzzle, name: str,
                    source: str = "", face: np.ndarray = WHITE_LAB) -> tuple[TemplateSet, Match]:
    """A template set from a photo's halves (bands: tiles x 4 x h x w x 3, their face's Lab `face`) and the
    puzzle's tile list."""
    flat = bands.reshape(-1, *bands.shape[2:])
    prints = example_prints(flat)  # the set's own TemplateSet.prints, halves in tile order
    match = match_tiles(features, puzzle, prints)
    options = turned_labels(puzzle)
    labels = options[match.tiles - 1, match.turns]  # (tiles, 4) label of every photographed half
    templates = TemplateSet(name=name, motif_names=dict(puzzle.motif_names), labels=labels.ravel(),
                            bands=flat, source=source, stored_prints=prints,
                            tiles=tuple(tile.edges for tile in puzzle.tiles),
                            face=tuple(float(v) for v in face))
    return templates, match
