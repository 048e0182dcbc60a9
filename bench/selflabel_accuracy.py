"""Self-labelling alone: never-seen puzzles read with no templates, halves cut at the TRUE tile corners.

    python bench/selflabel_accuracy.py [--per-tier 60] [--tiers medium hard] [--first-seed 10000]
                                       [--jitter 0 0.02 0.04] [--inset 0.08] [--family NAME]

The photos are those of `bench/vision_accuracy.py --never-seen` (random puzzles with 3 to 6 motifs, same seeds),
but the tiles are cut where the truth says they are, so segmentation does not enter: what remains wrong is
self-labelling's own (vision/read/selflabel.py). With --family, the photos are an art family's instead (those of
`bench/families.py`, seeds from 20000 there: 3 to 6 motifs as it cycles them). Per tier and layout: motif count right, every edge right up to
renaming the motifs (and swapping which half is +), the reading's repair a true solution, and the same with no
question asked; then what went wrong on each photo not read right: the number of motifs, the grouping of halves
into motifs, or the split of a motif's halves into head and tail.

Found outlines are a few percent off the true ones, so the true corners can be perturbed to see how quickly
self-labelling falls with corner error: --jitter J moves every corner by up to J of a side in each direction,
--inset S moves one side of every third tile (chosen at random) inward by up to S of a side, as a segmentation
that stops at a shadow or a dark border does. Each jitter value given is one run over the same photos.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from photosolve.cli.photo_cmd import questions_before_solving
from photosolve.scenes.evaluate import arrangement_fits, edges_right_up_to_renaming
from photosolve.scenes.families import FAMILIES
from photosolve.scenes.scene import make_scene
from photosolve.solver.repair import repair
from photosolve.vision.read.features import white_bands
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import edge_posteriors
from photosolve.vision.rectify import rectify_all
from photosolve.vision.read.selflabel import self_label
from photosolve.vision.types import TileQuad

sys.path.insert(0, str(Path(__file__).resolve().parent))
from families import MOTIF_CYCLE  # noqa: E402  (the motif counts bench/families.py gives its seeds)


def perturbed(corners: np.ndarray, rng: np.random.Generator, jitter: float, inset: float) -> np.ndarray:
    """A tile's corners (clockwise from its NW corner) moved as a found outline is off: each corner by up to
    `jitter` of a side in x and y, and, on about one tile in three, one side moved inward by up to `inset`."""
    side = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
    moved = corners + rng.uniform(-jitter, jitter, size=(4, 2)) * side
    if inset > 0 and rng.random() < 1 / 3:
        edge = int(rng.integers(4))  # side k runs from corner k to corner k+1; the opposite side is k+3 to k+2
        share = rng.uniform(0, inset)
        first, second = edge, (edge + 1) % 4
        moved[first] += share * (corners[(edge + 3) % 4] - corners[first])
        moved[second] += share * (corners[(edge + 2) % 4] - corners[second])
    return moved


def true_bands(scene, jitter: float = 0.0, inset: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scene's halves cut at the true corners, perturbed when asked (perturbed, the same for one seed
    whatever the jitter), as the pipeline cuts found ones; the face's Lab in them; and the true edges."""
    rng = np.random.default_rng([scene.truth["seed"], 7])
    quads = [TileQuad(perturbed(np.array(tile["corners"], float), rng, jitter, inset))
             for tile in scene.truth["tiles"]]
    bands, face = white_bands(rectify_all(photo_from_array(scene.image), quads))
    return bands, face, np.array([tile["edges"] for tile in scene.truth["tiles"]])


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


def scene_for(seed: int, tier: str, family: str | None = None):
    """The never-seen bench's photo for a seed: a random puzzle of 3 to 6 motifs; or the art family's photo that
    bench/families.py reads for that seed."""
    if family is not None:
        return make_scene(f"family:{family}:{MOTIF_CYCLE[seed % len(MOTIF_CYCLE)]}", seed, tier=tier)
    return make_scene(f"random:{3 + seed % 4}", seed, tier=tier)


def run_case(scene, jitter: float = 0.0, inset: float = 0.0) -> dict:
    seed = scene.truth["seed"]
    truth = scene.truth
    rows, cols = truth["rows"], truth["cols"]
    bands, face, edges = true_bands(scene, jitter, inset)
    started = time.perf_counter()
    found = self_label(bands, rows, cols, face=face)
    seconds = time.perf_counter() - started
    labels = found.reading.labels
    true_motifs = len(set(np.abs(edges).ravel().tolist()) - {0})
    right = edges_right_up_to_renaming(labels, edges) == edges.size
    checked = repair(edge_posteriors(found.reading), rows, cols, rival=True)
    true_solution = checked.solution is not None and arrangement_fits(checked.solution, edges)
    questions = questions_before_solving(checked, found.guessed)
    return {"seed": seed, "layout": truth["layout"], "motifs": true_motifs, "read_motifs": found.motifs,
            "count": found.motifs == true_motifs, "edges": right,
            "edges_right": edges_right_up_to_renaming(labels, edges), "edge_count": edges.size,
            "solved": true_solution, "unasked": true_solution and questions == 0,
            "silent_wrong": checked.solution is not None and not true_solution and questions == 0,
            "kind": None if right else failure_kind(labels, edges), "seconds": seconds,
            "costs": found.repair_costs}


def share(key: str, items: list[dict]) -> float:
    return sum(bool(o[key]) for o in items) / max(1, len(items))


def report_tier(tier: str, outcomes: list[dict], how: str) -> None:
    print(f"\n== {tier}: {len(outcomes)} photos, halves cut at {how}")
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
    parser.add_argument("--family", choices=list(FAMILIES), help="an art family's photos instead (scenes/families.py)")
    parser.add_argument("--jitter", type=float, nargs="+", default=[0.0],
                        help="corner error, as a fraction of a side; one run per value")
    parser.add_argument("--inset", type=float, nargs="+", default=[0.0],
                        help="one side of about every third tile moved inward by up to this fraction of a side; "
                             "one run per value and jitter")
    args = parser.parse_args()
    print(f"photosolve self-labelling accuracy — {args.per_tier} never-seen puzzles per tier, "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    errors = [(jitter, inset) for inset in args.inset for jitter in args.jitter]
    runs: dict[tuple[float, float, str], list[dict]] = defaultdict(list)
    for tier in args.tiers:
        for i in range(args.per_tier):
            scene = scene_for(args.first_seed + i, tier, args.family)  # made once, cut with every corner error
            for jitter, inset in errors:
                runs[jitter, inset, tier].append(run_case(scene, jitter, inset))
    curve = []
    for jitter, inset in errors:
        how = ("the true corners" if jitter == 0 and inset == 0 else
               f"corners moved up to {jitter:.0%} of a side, one side in three tiles in by up to {inset:.0%}")
        failures = []
        for tier in args.tiers:
            outcomes = runs[jitter, inset, tier]
            report_tier(tier, outcomes, how)
            curve.append((jitter, inset, tier, outcomes))
            failures += [(tier, o) for o in outcomes if not (o["edges"] and o["unasked"])]
        print("\nphotos not read right with no question (tier, seed, layout, motifs true/read, edges, kind, "
              "solved, solver price per number of half-types tried):")
        for tier, o in failures:
            costs = " ".join(f"{m}:{c:.1f}" for m, c in o["costs"].items())
            print(f"  {tier:<6} {o['seed']} {o['layout']:<9} {o['motifs']}/{o['read_motifs']} "
                  f"{o['edges_right']:>2}/{o['edge_count']} {o['kind'] or '-':<9} solved={o['solved']} [{costs}]"
                  f"{'  WRONG SOLUTION GIVEN UNASKED' if o['silent_wrong'] else ''}")
    print("\ncorner error curve: jitter, inset, tier, every edge right, true solution with no question, "
          "wrong solution unasked")
    for jitter, inset, tier, outcomes in curve:
        print(f"  {jitter:5.3f} {inset:5.3f} {tier:<7} {share('edges', outcomes):7.1%} "
              f"{share('unasked', outcomes):7.1%} "
              f"{sum(o['silent_wrong'] for o in outcomes):>3}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
