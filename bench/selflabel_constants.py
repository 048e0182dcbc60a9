"""How self-labelling's constants move its reading: each setting read over the same art family photos at their TRUE
tile corners, so that only self_label (vision/read/selflabel.py) and the checks after it enter.

    python bench/selflabel_constants.py [--set MEETS=0.45 [--set RIVAL=0.6,structure.BLUR=1.5 ...]]
                                        [--dev-seeds 10000 20000] [--test-seeds 20000] [--per-tier 12]
                                        [--tiers medium hard] [--cache DIR]

The photos are those of bench/families.py (same seeds and motif counts), cut where the truth says the tiles lie and
put in one light as the pipeline does (features.white_bands). The first line is selflabel as set; each --set names
constants to change together for one more line: a bare NAME is selflabel's, `module.NAME` another module's of
photosolve.vision.read or photosolve.vision (`structure.BLUR=1.5`, `rectify.BAND_DEPTH=0.4`; self-labelling's own
also live in trials, descriptors, pairing and posterior: `posterior.OUTLIER=2.0`; a bare name selflabel imports, such
as PLAUSIBLE, is set in trials, which defines it), changed wherever it was bound by name (bench/constants.py). Per
split (dev families: tune on these; test: report only): photos with every edge right (up to renaming the motifs), of
those how many no question is asked of, wrong solutions given unasked, and photos asked about, as bench/families.py
counts them. `--cache DIR` keeps each photo's halves (npz) so that later runs skip making the photos. With
`--balance` the cache keeps the rectified tiles instead, and every line cuts and white-balances them again, so that
constants acting there can be moved too (rectify.BAND_DEPTH, face.CHROMA_TOLERANCE, shading.STEP, ...); a little
slower a line.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from photosolve.cli.photo_cmd import questions_before_solving
from photosolve.scenes.evaluate import renaming
from photosolve.scenes.families import DEV, TEST
from photosolve.scenes.scene import make_scene
from photosolve.solver.repair import repair
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import edge_posteriors
from photosolve.vision.read import selflabel
from photosolve.vision.read.features import white_bands
from photosolve.vision.rectify import rectify_all
from photosolve.vision.types import TileQuad

sys.path.insert(0, str(Path(__file__).resolve().parent))
from constants import PACKAGE, moved, parsed, vision_modules  # noqa: E402
from families import MOTIF_CYCLE  # noqa: E402  (the motif counts bench/families.py gives its seeds)


def tiles_at_true_corners(family: str, seed: int, tier: str, cache: Path | None):
    """The photo's tiles rectified where the truth says they lie (tiles x size x size x 3) and the true labels."""
    stored = cache / f"{family}-{tier}-{seed}.tiles.npz" if cache else None
    if stored and stored.exists():
        data = np.load(stored)
        return data["squares"], data["truth"]
    scene = make_scene(f"family:{family}:{MOTIF_CYCLE[seed % len(MOTIF_CYCLE)]}", seed, tier=tier)
    quads = [TileQuad(np.array(tile["corners"], float)) for tile in scene.truth["tiles"]]
    squares = rectify_all(photo_from_array(scene.image), quads)
    truth = np.array([tile["edges"] for tile in scene.truth["tiles"]])
    if stored:
        stored_whole(stored, squares=squares, truth=truth)
    return squares, truth


def stored_whole(path: Path, **arrays) -> None:
    """np.savez_compressed to a new file first, then renamed: two runs sharing a cache never read half a file."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    with open(part, "wb") as file:
        np.savez_compressed(file, **arrays)
    os.replace(part, path)


def halves_at_true_corners(family: str, seed: int, tier: str, cache: Path | None, balance: bool = False):
    """The photo's bands in one light (tiles x 4 x h x w x 3), the face's Lab and the true labels (tiles x 4).
    balance: cut and balanced now from the rectified tiles (those cached, not the halves)."""
    if balance:
        squares, truth = tiles_at_true_corners(family, seed, tier, cache)
        bands, face = white_bands(squares)
        return bands, face, truth
    stored = cache / f"{family}-{tier}-{seed}.npz" if cache else None
    if stored and stored.exists():
        data = np.load(stored)
        return data["bands"].astype(np.float32), data["face"], data["truth"]
    squares, truth = tiles_at_true_corners(family, seed, tier, None)
    bands, face = white_bands(squares)
    bands = bands.astype(np.float16)  # as cached: every line of a run reads the very same halves
    if stored:
        stored_whole(stored, bands=bands, face=face, truth=truth)
    return bands.astype(np.float32), face, truth


def judged(bands: np.ndarray, face: np.ndarray, truth: np.ndarray) -> tuple[bool, bool, bool]:
    """Read the halves on their own: (every edge right, a question asked, a wrong solution given unasked)."""
    side = int(round(np.sqrt(len(bands))))  # the families' boards are square
    found = selflabel.self_label(bands, side, side, face=face)
    mapping = renaming(found.reading.labels, truth)
    right = all(mapping.get(int(v), None) == int(t) for v, t in zip(found.reading.labels.ravel(), truth.ravel()))
    checked = repair(edge_posteriors(found.reading), side, side, rival=True)
    asked = questions_before_solving(checked, found.guessed) > 0
    return right, asked, checked.solution is not None and not right and not asked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[],
                        help="[module.]NAME=VALUE[,...]: one more line (a bare NAME is selflabel's)")
    parser.add_argument("--dev-seeds", type=int, nargs="+", default=[10_000, 20_000])
    parser.add_argument("--test-seeds", type=int, nargs="+", default=[20_000])
    parser.add_argument("--per-tier", type=int, default=12)
    parser.add_argument("--tiers", nargs="+", default=["medium", "hard"])
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--balance", action="store_true",
                        help="cut and white-balance the halves on every line (the cache keeps the rectified tiles)")
    args = parser.parse_args()
    if args.cache:
        args.cache.mkdir(parents=True, exist_ok=True)
    photos = [(split, family, seed, tier)
              for split, families, firsts in (("dev", DEV, args.dev_seeds), ("test", TEST, args.test_seeds))
              for first in firsts for family in families for tier in args.tiers
              for seed in range(first, first + args.per_tier)]
    print(f"selflabel constants at true corners — {len(photos)} photos, {time.strftime('%Y-%m-%d %H:%M')}")
    print("setting: per split, every edge right / of those with no question / wrong solutions unasked / asked")
    modules = vision_modules()
    packages = (f"{PACKAGE}.read", PACKAGE)
    # every --set checked before running
    settings = [(setting, parsed(setting, modules, packages, selflabel.__name__)) for setting in args.set]
    for setting, changes in [("", []), *settings]:
        totals = {"dev": np.zeros(4, int), "test": np.zeros(4, int)}
        with moved(changes):
            for split, family, seed, tier in photos:
                right, asked, wrong = judged(*halves_at_true_corners(family, seed, tier, args.cache, args.balance))
                totals[split] += (right, right and not asked, wrong, asked)
        line = "  ".join(f"{split} {' / '.join(str(v) for v in counts)}" for split, counts in totals.items())
        print(f"{setting or 'as set':<36} {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
