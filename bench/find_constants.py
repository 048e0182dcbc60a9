"""How tile finding's constants move it: segmentation alone over the same dev and test family photos, once as set and
once per --set of constants in photosolve.vision.find.

    python bench/find_constants.py [--set segment.RIVAL=0.45 [--set masks.SOLID=0.8,table.NOT_TABLE=2.5 ...]]
                                   [--seeds 2] [--first-seed 20000] [--tiers medium hard] [--cache DIR]

The photos are bench/segment_accuracy.py's `--families` photos: each DEV and each TEST family (scenes/families.py),
tiers medium and hard, all four layouts, seeds 20000 and 20001 by default: 48 photos per split, about 40-60 s of
segmentation a line on this 2-core machine. A photo counts when find_tiles' segmentation gives the right count and
every tile exact (every corner within 5% of a side: scenes/evaluate.py's CORNER_TOLERANCE), as segment_accuracy
scores it. The first line is find as set; each --set (`module.NAME=VALUE[,module.NAME=VALUE]`, the value a Python
literal, tuples allowed) changes those constants together for one more line, then puts them back, in every module
that bound them (bench/constants.py). Each line: dev exact / photos, test exact / photos, seconds of segmentation, and
under it the photos that turned (+ now exact, - no longer). Tune on dev only; test is for
reporting. `--cache DIR` keeps the photos (JPEG + truth), so they are made once.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from photosolve.scenes.families import DEV, TEST
from photosolve.scenes.scene import LAYOUTS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from constants import PACKAGE, moved, parsed, vision_modules  # noqa: E402
from segment_accuracy import run_case  # noqa: E402  (the family photos and their scoring, as segment_accuracy has them)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[],
                        help="module.NAME=VALUE[,module.NAME=VALUE]: one more line (module in photosolve.vision.find)")
    parser.add_argument("--seeds", type=int, default=2, help="seeds per family, tier and layout")
    parser.add_argument("--first-seed", type=int, default=20_000)
    parser.add_argument("--tiers", nargs="+", default=["medium", "hard"])
    parser.add_argument("--cache", type=Path)
    args = parser.parse_args()
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    modules = vision_modules()
    # every --set checked before running
    settings = [(setting, parsed(setting, modules, (f"{PACKAGE}.find", PACKAGE))) for setting in args.set]
    photos = [(split, family, tier, layout, seed)
              for split, families in (("dev", DEV), ("test", TEST)) for family in families
              for tier in args.tiers for layout in LAYOUTS
              for seed in range(args.first_seed, args.first_seed + args.seeds)]
    counts = {split: sum(p[0] == split for p in photos) for split in ("dev", "test")}
    print(f"find constants, segmentation alone — {counts['dev']} dev and {counts['test']} test photos "
          f"(tiers {' '.join(args.tiers)}, all layouts, seeds {args.first_seed}-{args.first_seed + args.seeds - 1}), "
          f"{time.strftime('%Y-%m-%d %H:%M')}")
    print("setting: per split, photos with every tile exact / photos; seconds of segmentation")
    as_set_exact: set[tuple] | None = None
    for setting, changes in [("", []), *settings]:
        exact, seconds, failed = set(), 0.0, []
        with moved(changes):
            for photo in photos:
                split, family, tier, layout, seed = photo
                try:
                    outcome = run_case(f"family:{family}", seed, tier, layout, args.cache)
                except Exception as error:  # a moved constant may break an assumption: that photo counts as missed
                    failed.append(f"{' '.join(map(str, photo))}: {type(error).__name__}")
                    continue
                seconds += outcome["seconds"]
                if outcome["exact"]:
                    exact.add(photo)
        line = "  ".join(f"{split} {sum(p[0] == split for p in exact):>3} / {counts[split]}" for split in counts)
        print(f"{setting or 'as set':<44} {line}  {seconds:5.1f} s", flush=True)
        if failed:
            print("    raised: " + "; ".join(failed), flush=True)
        if as_set_exact is None:
            as_set_exact = exact
            continue
        turned = [("+", p) for p in sorted(exact - as_set_exact)] + [("-", p) for p in sorted(as_set_exact - exact)]
        if turned:
            print("    " + "; ".join(f"{sign} {' '.join(map(str, p))}" for sign, p in turned), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
