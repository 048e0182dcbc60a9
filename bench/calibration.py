"""Fit the softmax temperatures of template reading so that its probabilities are calibrated.

    python bench/calibration.py [--photos 60] [--tiers medium hard] [--first-seed 20000] [--pairs 1.5:0.5 ...]

Generated photos of the four seed puzzles are read with their bundled sets (the tiles as found, not the true
corners: what a user gets) for a grid of (HALF_TEMPERATURE, TILE_TEMPERATURE). For each pair it prints the mean
negative log-likelihood of the true label of every edge, the expected calibration error (the gap between the
probability and the share right, weighted over ten bins), and what `photosolve PHOTO` would then do: the share of
photos solved truly with no question, the questions asked (median, 95th percentile) and the wrong solutions given
with no question. Seeds start at 20000 so that the fit is not made on the accuracy bench's photos (10000 on).
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np

import photosolve.vision.read.classify as classify
from photosolve.cli.photo_cmd import DOUBT_MARGIN
from photosolve.scenes.artwork import PUZZLE_ARTWORK
from photosolve.scenes.evaluate import arrangement_fits, in_truth_numbers, true_edges_as_found
from photosolve.scenes.scene import make_scene
from photosolve.solver.repair import repair
from photosolve.vision.errors import VisionError
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import cut_halves, edge_posteriors
from photosolve.vision.read.templates import load_templates

HALF_GRID = (1.0, 1.5, 2.0, 3.0)
TILE_GRID = (0.5, 0.7, 1.0, 1.5)


def read_case(seed: int, tier: str):
    """A seed puzzle's photo cut into halves, its bundled set, and the true edges of each found tile."""
    kind = PUZZLE_ARTWORK[seed % 4]
    scene = make_scene(kind, seed, tier=tier)
    truth = scene.truth
    try:
        halves = cut_halves(photo_from_array(scene.image), len(truth["tiles"]))
    except VisionError:
        return None
    return halves, load_templates(kind), true_edges_as_found([q.corners for q in halves.quads], truth), truth


def evaluate(cases: list, half: float, tile: float) -> dict:
    classify.HALF_TEMPERATURE, classify.TILE_TEMPERATURE = half, tile
    probabilities, rights, losses, outcomes = [], [], [], []
    for halves, templates, true_edges, truth in cases:
        reading = classify.read_halves(halves.features, templates, bands=halves.bands)  # as the pipeline reads
        truth_labels = in_truth_numbers(reading.labels, templates.motif_names, truth)
        # The set numbers its motifs its own way: each true label in the set's numbers, through the motif names.
        as_truth = in_truth_numbers(reading.candidates, templates.motif_names, truth)
        to_set = {int(t): int(c) for c, t in zip(reading.candidates, as_truth)}
        known = true_edges != 0
        for (i, side) in zip(*np.nonzero(known)):
            probabilities.append(reading.probabilities[i, side])
            rights.append(truth_labels[i, side] == true_edges[i, side])
            column = list(reading.candidates).index(to_set[int(true_edges[i, side])])
            losses.append(-np.log(max(reading.posterior[i, side, column], 1e-6)))
        checked = repair(edge_posteriors(reading), truth["rows"], truth["cols"], rival=True)
        questions = len(checked.doubtful(DOUBT_MARGIN))
        true_solution = checked.solution is not None and arrangement_fits(
            checked.solution, np.vectorize(lambda v: to_set.get(int(v), 10**6))(true_edges))
        outcomes.append((questions, true_solution))
    probabilities, rights = np.array(probabilities), np.array(rights)
    bins = np.minimum((probabilities * 10).astype(int), 9)
    ece = sum(abs(probabilities[bins == b].mean() - rights[bins == b].mean()) * (bins == b).mean()
              for b in range(10) if (bins == b).any())
    questions = np.array([q for q, _ in outcomes])
    return {"nll": float(np.mean(losses)), "ece": float(ece),
            "unasked": float(np.mean([t and q == 0 for q, t in outcomes])),
            "silent_wrong": sum(q == 0 and not t for q, t in outcomes),
            "q_median": float(np.median(questions)), "q_95": float(np.percentile(questions, 95))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=60, help="photos per tier")
    parser.add_argument("--tiers", nargs="+", default=["medium", "hard"])
    parser.add_argument("--first-seed", type=int, default=20_000)
    parser.add_argument("--pairs", nargs="*", default=None, metavar="HALF:TILE",
                        help="temperature pairs to try (default: the whole grid)")
    args = parser.parse_args()
    pairs = [tuple(float(v) for v in pair.split(":")) for pair in args.pairs] if args.pairs else \
        list(itertools.product(HALF_GRID, TILE_GRID))
    started = time.perf_counter()
    print(f"photosolve calibration fit — {args.photos} photos per tier, {time.strftime('%Y-%m-%d %H:%M')}")
    print(f"  now: HALF_TEMPERATURE {classify.HALF_TEMPERATURE}, TILE_TEMPERATURE {classify.TILE_TEMPERATURE}")
    for tier in args.tiers:
        cases = [case for seed in range(args.first_seed, args.first_seed + args.photos)
                 if (case := read_case(seed, tier)) is not None]
        print(f"\n== {tier}: {len(cases)} of {args.photos} photos segmented into the right number of tiles")
        print("  half  tile   NLL/edge   ECE    true, no question   questions med/p95   silent wrong")
        for half, tile in pairs:
            r = evaluate(cases, half, tile)
            print(f"  {half:4.1f}  {tile:4.1f}   {r['nll']:7.4f}  {r['ece']:6.4f}   {r['unasked']:10.1%}"
                  f"          {r['q_median']:3.0f} / {r['q_95']:3.0f}        {r['silent_wrong']}")
    print(f"\n({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
