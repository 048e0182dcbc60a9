"""Accuracy of segmentation alone (find_tiles) on generated photos, per tier and layout, with failure kinds.

    python bench/segment_accuracy.py [--per-layout 10] [--tiers medium hard] [--first-seed 0] [--cache DIR]
                                     [--layouts scattered grid touching solved] [--backgrounds tablecloth ...]
                                     [--show N] [--families emoji-animals ...]

For each tier and layout, photos with seeds first-seed, first-seed + 1, ... cycle through the four seed puzzles
and random puzzles (4-6 motifs); `--layouts drawn` makes each seed's photo as bench/vision_accuracy.py does
(the tier draws the layout), so the two benches' figures compare. Only the tiles are found (no edge reading). Reported per tier and layout: the
count right, all tiles exact (every corner within 5% of a side), the distribution of the worst corner error (in %
of a side), and what went wrong: a wrong count (with what each reading gave), the right count but not every
tile where a true one lies, or corners off (with the reading chosen and the photo's tilt and glare). `--cache DIR` keeps the generated photos (JPEG + truth) between runs.
`--backgrounds` pins the table (each seed's photo is made once per background given; the tier still draws the
rest), for sets of one hard background such as the checked tablecloth. `--families` photographs puzzles of those art
families (scenes/families.py: emoji, photographs; faces strong, bordered, busy) instead, each reported on its own;
tune on the DEV families only.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from photosolve.scenes.evaluate import CORNER_TOLERANCE, score_reading
from photosolve.scenes.photograph import BACKGROUNDS, decode_jpeg
from photosolve.scenes.scene import LAYOUTS, make_scene, save_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.find.background import DIFFERENCE_THRESHOLDS
from photosolve.vision.find.masks import FACE_THRESHOLDS, SHADE_THRESHOLDS, WALLS
from photosolve.vision.find.segment import segment

PUZZLES = ("dogs", "insects", "nsa", "cats")
DRAWN = "drawn"  # the layout the tier draws for each seed, as bench/vision_accuracy.py makes its photos


def reading_name(number: int | None) -> str:
    """A reading's place in find_tiles' order, in words: face-colour masks, regions walled in by clear edges, what
    differs from the border's colours, the face colour in a shadow, what differs from the table's texture, and (a
    last resort) regions walled in by faint edges, and (where none gave the count) what differs from the table's
    texture beyond the table's own."""
    if number is None:
        return "none"
    kinds = [("face", len(FACE_THRESHOLDS)), ("enclosed", len(WALLS)), ("background", len(DIFFERENCE_THRESHOLDS)),
             ("shade", len(SHADE_THRESHOLDS)), ("texture", 1), ("rims", 1),
             ("faint", len(WALLS)), ("beyond", 1)]
    for kind, count in kinds:
        if number < count:
            return f"face{FACE_THRESHOLDS[number]:g}" if kind == "face" else f"{kind}{number}"
        number -= count
    return f"reading{number}"


def puzzle_for(seed: int) -> str:
    return PUZZLES[seed % 5] if seed % 5 < 4 else f"random:{4 + seed % 3}"


def scene_image(puzzle: str, seed: int, tier: str, layout: str, cache: Path | None,
                background: str | None = None) -> tuple[np.ndarray, dict]:
    """The photo and truth of a scene (on `background` if given, else the tier's), from the cache when it holds
    them."""
    if cache is not None:
        # Photos on a pinned background are other photos than the tier's own: their names must differ.
        pinned_name = f"-{background}" if background else ""
        path = cache / f"{tier}-{layout}{pinned_name}-{puzzle.replace(':', '')}-{seed}.jpg"
        if path.is_file():
            return decode_jpeg(path.read_bytes()), json.loads(path.with_suffix(".truth.json").read_text())
    pinned = {} if layout == DRAWN else {"layout": layout}
    if background:
        pinned["background"] = background
    scene = make_scene(puzzle, seed, tier=tier, **pinned)
    if cache is not None:
        save_scene(scene, path)
    return scene.image, scene.truth


def run_case(puzzle: str, seed: int, tier: str, layout: str, cache: Path | None,
             background: str | None = None) -> dict:
    image, truth = scene_image(puzzle, seed, tier, layout, cache, background)
    expected = len(truth["tiles"])
    started = time.perf_counter()
    found = segment(photo_from_array(image), expected)
    seconds = time.perf_counter() - started
    conditions = truth["conditions"]
    outcome = {"puzzle": puzzle, "seed": seed, "tier": tier, "layout": truth["layout"], "seconds": seconds,
               "reading": reading_name(found.reading), "counts": found.counts, "expected": expected,
               "tilt": conditions["tilt"], "glare": conditions["glare"], "background": conditions["background"],
               "returned": found.tiles is not None, "count_right": found.tiles is not None, "exact": False,
               "worst": np.inf, "inexact": 0}
    if found.tiles is not None:
        score = score_reading([q.corners for q in found.tiles], None, truth)
        outcome.update(count_right=score.found == score.tiles, exact=score.all_tiles_exact,
                       worst=score.worst_corner if score.found == score.tiles else np.inf,
                       inexact=score.tiles - score.exact)
    return outcome


def failure_kind(outcome: dict) -> str:
    if not outcome["returned"]:
        return "wrong count"
    if not outcome["count_right"]:
        return "wrong tiles"  # as many tiles as expected, not all of them where true tiles lie
    if outcome["worst"] <= CORNER_TOLERANCE:
        return "ok"
    return "corners 5-10%" if outcome["worst"] <= 2 * CORNER_TOLERANCE else "corners >10%"


def report(outcomes: list[dict], title: str) -> None:
    n = len(outcomes)
    counted = [o for o in outcomes if o["count_right"]]
    worst = np.array([o["worst"] for o in counted]) * 100
    exact = sum(o["exact"] for o in outcomes)
    line = f"  {title:<22} n={n:<4} tiles found {len(counted) / n:6.1%}  exact {exact / n:6.1%}"
    if len(worst):
        line += (f"  worst corner %: median {np.median(worst):4.1f}  90th {np.percentile(worst, 90):5.1f}"
                 f"  max {worst.max():5.1f}")
    print(line)
    kinds = Counter(failure_kind(o) for o in outcomes if not o["exact"])
    readings = Counter(o["reading"] for o in outcomes)
    print(f"  {'':<22} failures: {dict(kinds) or '-'}   readings chosen: {dict(readings)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-layout", type=int, default=10)
    parser.add_argument("--tiers", nargs="+", default=["medium", "hard"])
    parser.add_argument("--layouts", nargs="+", default=list(LAYOUTS), choices=[*LAYOUTS, DRAWN],
                        help=f"'{DRAWN}': each seed's photo as bench/vision_accuracy.py makes it, layout drawn by the tier")
    parser.add_argument("--backgrounds", nargs="+", default=[None], choices=BACKGROUNDS,
                        help="pin the table to each of these in turn (default: the tier draws it)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--show", type=int, default=40, help="how many failed photos to list")
    parser.add_argument("--families", nargs="+", default=[None],
                        help="photograph puzzles of these art families (scenes/families.py) instead of the drawn ones")
    parser.add_argument("--outcomes", type=Path, default=None,
                        help="write every photo's outcome here (JSON), to compare two runs photo by photo")
    args = parser.parse_args()
    print(f"photosolve segmentation accuracy — {args.per_layout} photos per tier and layout, seeds from "
          f"{args.first_seed}, {time.strftime('%Y-%m-%d %H:%M')}"
          + (f", table pinned to {', '.join(args.backgrounds)}" if args.backgrounds != [None] else ""))
    failures, outcomes = [], []
    for tier, family in itertools.product(args.tiers, args.families):
        by_layout: dict[str, list[dict]] = defaultdict(list)
        for layout, background in itertools.product(args.layouts, args.backgrounds):
            for i in range(args.per_layout):
                seed = args.first_seed + i
                puzzle = f"family:{family}" if family else puzzle_for(seed)
                outcome = run_case(puzzle, seed, tier, layout, args.cache, background)
                by_layout[outcome["layout"]].append(outcome)
                outcomes.append(outcome)
                if not outcome["exact"]:
                    failures.append(outcome)
        everything = [o for items in by_layout.values() for o in items]
        print(f"\n== {tier}" + (f" {family}" if family else ""))
        report(everything, "all layouts")
        for layout, items in by_layout.items():
            report(items, layout)
        bins = np.array([o["worst"] for o in everything if o["count_right"]]) * 100
        edges = [0, 1, 2, 3, 5, 7.5, 10, 20, np.inf]
        histogram = np.histogram(bins, edges)[0]
        print("  worst corner % of a side: " + "  ".join(
            f"[{lo:g},{hi:g}) {count}" for lo, hi, count in zip(edges[:-1], edges[1:], histogram)))
        print(f"  segment time median {np.median([o['seconds'] for o in everything]) * 1000:.0f} ms")
    if args.outcomes is not None:
        args.outcomes.write_text(json.dumps(outcomes, default=float, indent=0))
    print(f"\nphotos not segmented exactly ({len(failures)}; tier layout puzzle seed: kind, worst corner %, "
          "tiles off, reading, counts per reading, tilt, glare, background):")
    for o in failures[: args.show]:
        print(f"  {o['tier']:<6} {o['layout']:<9} {o['puzzle']:<9} {o['seed']:<6} {failure_kind(o):<13} "
              f"{o['worst'] * 100:6.1f}  {o['inexact']}  {o['reading']:<11} {o['counts']}  tilt {o['tilt']:4.1f}"
              f"  glare {o['glare']:.2f}  {o['background']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
