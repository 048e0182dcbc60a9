"""Self-labelling alone: never-seen puzzles read with no templates, halves cut at the TRUE tile corners.

    python bench/selflabel_accuracy.py [--per-tier 60] [--tiers medium hard] [--first-seed 10000]

The photos are those of `bench/vision_accuracy.py --never-seen` (random puzzles with 3 to 6 motifs, same seeds),
but the tiles are cut where the truth says they are, so segmentation does not enter: what remains wrong is
self-labelling's own (vision/selflabel.py). Per tier and layout: motif count right, every edge right up to
renaming the motifs (and swapping which half is +), the reading's repair a true solution, and the same with no
question asked; then what went wrong on each photo not read right: the number of motifs, the grouping of halves
into motifs by colour, or the split of a motif's halves into head and tail.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict

import numpy as np

from photosolve.cli.photo_cmd import DOUBT_MARGIN
from photosolve.scenes.evaluate import arrangement_fits, edges_right_up_to_renaming
from photosolve.scenes.scene import make_scene
from photosolve.solver.repair import repair
from photosolve.vision.features import white_bands
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import edge_posteriors
from photosolve.vision.rectify import rectify_all
from photosolve.vision.selflabel import self_label
from photosolve.vision.types import TileQuad


def true_bands(scene) -> tuple[np.ndarray, np.ndarray]:
    """The scene's halves cut at the true corners (as the pipeline cuts found ones), and the true edges."""
    quads = [TileQuad(np.array(tile["corners"], float)) for tile in scene.truth["tiles"]]
    bands = white_bands(rectify_all(photo_from_array(scene.image), quads))
    return bands, np.array([tile["edges"] for tile in scene.truth["tiles"]])


def same_partition(first: np.ndarray, second: np.ndarray) -> bool:
    """Whether two labellings group the items the same way, whatever their names."""
    first, second = np.ravel(first), np.ravel(second)
    return len(set(zip(first.tolist(), second.tolist()))) == len(set(first.tolist())) == len(set(second.tolist()))


def failure_kind(read: np.ndarray, truth: np.ndarray) -> str:
    """What is wrong with a reading that is not right up to renaming: the count, the grouping or head/tail."""
    read_motifs, true_motifs = np.abs(read), np.abs(truth)
    if len(set(read_motifs.ravel().tolist())) != len(set(true_motifs.ravel().tolist())):
        return "count"
    if not same_partition(read_motifs, true_motifs):
        return "grouping"
    return "head/tail"


def run_case(seed: int, tier: str) -> dict:
    scene = make_scene(f"random:{3 + seed % 4}", seed, tier=tier)
    truth = scene.truth
    rows, cols = truth["rows"], truth["cols"]
    bands, edges = true_bands(scene)
    started = time.perf_counter()
    found = self_label(bands, rows, cols)
    seconds = time.perf_counter() - started
    labels = found.reading.labels
    true_motifs = len(set(np.abs(edges).ravel().tolist()) - {0})
    right = edges_right_up_to_renaming(labels, edges) == edges.size
    checked = repair(edge_posteriors(found.reading), rows, cols, rival=True)
    true_solution = checked.solution is not None and arrangement_fits(checked.solution, edges)
    questions = len(checked.doubtful(DOUBT_MARGIN))
    return {"seed": seed, "layout": truth["layout"], "motifs": true_motifs, "read_motifs": found.motifs,
            "count": found.motifs == true_motifs, "edges": right,
            "edges_right": edges_right_up_to_renaming(labels, edges), "edge_count": edges.size,
            "solved": true_solution, "unasked": true_solution and questions == 0,
            "silent_wrong": checked.solution is not None and not true_solution and questions == 0,
            "kind": None if right else failure_kind(labels, edges), "seconds": seconds,
            "costs": found.repair_costs}


def report_tier(tier: str, outcomes: list[dict]) -> None:
    share = lambda key, items: sum(bool(o[key]) for o in items) / max(1, len(items))
    print(f"\n== {tier}: {len(outcomes)} photos, halves cut at the true corners")
    groups: dict[str, list[dict]] = defaultdict(list)
    for outcome in outcomes:
        groups[f"layout {outcome['layout']}"].append(outcome)
        groups[f"motifs {outcome['motifs']}"].append(outcome)
    print(f"  {'':<18} {'n':>3} {'count':>7} {'edges':>7} {'solved':>7} {'no ask':>7} {'silent':>6}")
    for name, items in [("all", outcomes), *sorted(groups.items())]:
        print(f"  {name:<18} {len(items):>3} {share('count', items):7.1%} {share('edges', items):7.1%} "
              f"{share('solved', items):7.1%} {share('unasked', items):7.1%} "
              f"{sum(o['silent_wrong'] for o in items):>6}")
    kinds = Counter(o["kind"] for o in outcomes if o["kind"])
    print("  failures by kind: " + (", ".join(f"{kind} {n}" for kind, n in kinds.most_common()) or "none"))
    print(f"  self_label time median {np.median([o['seconds'] for o in outcomes]) * 1000:.0f} ms, "
          f"most {max(o['seconds'] for o in outcomes) * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-tier", type=int, default=60)
    parser.add_argument("--tiers", nargs="+", default=["medium", "hard"])
    parser.add_argument("--first-seed", type=int, default=10_000)
    args = parser.parse_args()
    print(f"photosolve self-labelling accuracy — {args.per_tier} never-seen puzzles per tier, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    failures = []
    for tier in args.tiers:
        outcomes = [run_case(args.first_seed + i, tier) for i in range(args.per_tier)]
        report_tier(tier, outcomes)
        failures += [(tier, o) for o in outcomes if not (o["edges"] and o["unasked"])]
    print("\nphotos not read right with no question (tier, seed, layout, motifs true/read, edges, kind, "
          "solved, solver price per number of half-types tried):")
    for tier, o in failures:
        costs = " ".join(f"{m}:{c:.1f}" for m, c in o["costs"].items())
        print(f"  {tier:<6} {o['seed']} {o['layout']:<9} {o['motifs']}/{o['read_motifs']} "
              f"{o['edges_right']:>2}/{o['edge_count']} {o['kind'] or '-':<9} solved={o['solved']} [{costs}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
