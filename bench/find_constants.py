"""How tile finding's constants move it: segmentation alone over the same dev and test family photos, once as set and
once per --set of constants in photosolve.vision.find.

    python bench/find_constants.py [--set segment.RIVAL=0.45 [--set masks.SOLID=0.8,table.NOT_TABLE=2.5 ...]]
                                   [--seeds 2] [--first-seed 20000] [--tiers medium hard] [--cache DIR]

The photos are bench/segment_accuracy.py's `--families` photos: each DEV and each TEST family (scenes/families.py),
tiers medium and hard, all four layouts, seeds 20000 and 20001 by default: 48 photos per split, about 40-60 s of
segmentation a line on this 2-core machine. A photo counts when find_tiles' segmentation gives the right count and
every tile exact (every corner within 5% of a side: scenes/evaluate.py's CORNER_TOLERANCE), as segment_accuracy
scores it. The first line is find as set; each --set (`module.NAME=VALUE[,module.NAME=VALUE]`, the value a Python
literal, tuples allowed) changes those constants together for one more line, then puts them back. The find modules
import each other's constants by name, so a constant is changed in its own module and in every module of
photosolve.vision that imported it from there. Each line: dev exact / photos, test exact / photos, seconds of
segmentation, and under it the photos that turned (+ now exact, - no longer). Tune on dev only; test is for
reporting. `--cache DIR` keeps the photos (JPEG + truth), so they are made once.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import inspect
import pkgutil
import sys
import time
from pathlib import Path

import photosolve.vision
from photosolve.scenes.families import DEV, TEST
from photosolve.scenes.scene import LAYOUTS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from segment_accuracy import run_case  # noqa: E402  (the family photos and their scoring, as segment_accuracy has them)

PACKAGE = "photosolve.vision"


def vision_modules() -> dict[str, object]:
    """Every module of photosolve.vision, imported, by its full name."""
    for info in pkgutil.walk_packages(photosolve.vision.__path__, PACKAGE + "."):
        importlib.import_module(info.name)
    return {name: module for name, module in sys.modules.items()
            if (name == PACKAGE or name.startswith(PACKAGE + ".")) and module is not None}


def importers(defining: str, name: str, modules: dict[str, object]) -> list[object]:
    """The modules that bound `name` from module `defining` (`from .masks import NAME`), the defining one first."""
    found = [modules[defining]]
    for module_name, module in modules.items():
        if module_name == defining or not hasattr(module, name):
            continue
        package = module_name if hasattr(module, "__path__") else module_name.rpartition(".")[0]
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any(alias.name == name and alias.asname is None
                                                        for alias in node.names):
                source = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                if source == defining:
                    found.append(module)
                    break
    return found


def parsed(setting: str, modules: dict[str, object]) -> list[tuple[list[object], str, object]]:
    """One --set's changes: (the modules that hold the name, the name, the new value) for each."""
    changes = []
    for item in filter(None, split_top(setting)):
        target, _, text = item.partition("=")
        module_name, _, name = target.strip().rpartition(".")
        defining = module_name if module_name.startswith(PACKAGE) else f"{PACKAGE}.find.{module_name}"
        if defining not in modules:
            defining = f"{PACKAGE}.{module_name}"
        if defining not in modules or not hasattr(modules[defining], name):
            raise SystemExit(f"no constant {target.strip()} in {PACKAGE}.find or {PACKAGE}")
        changes.append((importers(defining, name, modules), name, ast.literal_eval(text.strip())))
    return changes


def split_top(setting: str) -> list[str]:
    """A setting split at the commas outside brackets: `masks.FACE_THRESHOLDS=(1.0,0.6),masks.SOLID=0.8`."""
    items, depth, start = [], 0, 0
    for i, char in enumerate(setting):
        depth += (char in "([") - (char in ")]")
        if char == "," and depth == 0:
            items.append(setting[start:i])
            start = i + 1
    return [*items, setting[start:]]


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
    settings = [(setting, parsed(setting, modules)) for setting in args.set]  # every --set checked before running
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
        kept = [(module, name, getattr(module, name)) for holders, name, _ in changes for module in holders]
        for holders, name, value in changes:
            for module in holders:
                setattr(module, name, value)
        try:
            exact, seconds = set(), 0.0
            for photo in photos:
                split, family, tier, layout, seed = photo
                outcome = run_case(f"family:{family}", seed, tier, layout, args.cache)
                seconds += outcome["seconds"]
                if outcome["exact"]:
                    exact.add(photo)
        finally:
            for module, name, value in kept:
                setattr(module, name, value)
        line = "  ".join(f"{split} {sum(p[0] == split for p in exact):>3} / {counts[split]}" for split in counts)
        print(f"{setting or 'as set':<44} {line}  {seconds:5.1f} s", flush=True)
        if as_set_exact is None:
            as_set_exact = exact
            continue
        turned = [("+", p) for p in sorted(exact - as_set_exact)] + [("-", p) for p in sorted(as_set_exact - exact)]
        if turned:
            print("    " + "; ".join(f"{sign} {' '.join(map(str, p))}" for sign, p in turned), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
