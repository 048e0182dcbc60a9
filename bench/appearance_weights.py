"""Refit the weights of self-labelling's weighed appearance (descriptors.APPEARANCE_WEIGHTS) and print how well each
appearance sorts the halves.

    python bench/appearance_weights.py [--per-tier 12] [--tiers easy medium hard] [--cache DIR]

The photos of `bench/families.py` (seeds 20000 and 10000 on, its motif counts), cut where the pipeline finds the
tiles (pipeline.cut_halves); only photos whose tiles are all found exactly count. For every two halves of a photo,
its six distances (descriptors.appearance_distances) and whether the two are copies of one half. The weights are a
logistic regression of that on the logs of the distances, fitted over the DEV families' pairs only and scaled to sum
to 1 (as descriptors.weighed_appearance takes them); also fitted for each dev family on the other three. Printed per
split: photos whose halves Ward's clustering sorts right at the true number of half-types (each type one true half,
and the reverse), and of those, photos where that number is where the appearance jumps most (type_count_gaps), for
the lined-up difference alone, the weights set, the weights refitted and (dev) each family's weights fitted without
it; then the set and refitted weights. Also, as measured and not taken: with a seventh distance, the keypoints two
halves share at one place (keypoints.py), weighed KEYPOINT_WEIGHT against the six as set, and all seven refitted.
--cache keeps each photo's distances (.npz) for a second run.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from photosolve.scenes.evaluate import score_reading, true_edges_as_found
from photosolve.scenes.families import FAMILIES
from photosolve.vision.read.descriptors import (APPEARANCE_FLOOR, APPEARANCE_WEIGHTS, appearance_distances,
                                              on_typical_scale, weighed_appearance)
from photosolve.vision.read.selflabel import MOTIF_RANGE
from photosolve.vision.read.trials import type_count_gaps, types_range
from photosolve.vision.read.ward import cut_tree, ward_tree

sys.path.insert(0, str(Path(__file__).resolve().parent))
from families import MOTIF_CYCLE, photo_halves  # noqa: E402  (bench/families.py's photos, cut as it cuts them)
from keypoints import keypoint_distances  # noqa: E402

NAMES = tuple(APPEARANCE_WEIGHTS)
# the keypoints' weight against the six as set (1 - this), chosen on dev at the true number of types' sharpest jump
# (0.1 / 0.15 / 0.2 / 0.3: dev 214 / 218 / 221 / 219 of 270, as set 212)
KEYPOINT_WEIGHT = 0.2


def photo_distances(family: str, seed: int, tier: str, cache: Path | None) -> tuple[dict, np.ndarray] | None:
    """One family photo's distances (the six and the keypoints) and its halves' true labels, or None when its tiles are
    not found exactly."""
    path = cache / f"{family}_{tier}_{seed}_keypoints.npz" if cache else None
    if path is not None and path.exists():
        stored = np.load(path)
        return ({name: stored[name] for name in NAMES + ("keypoints",)}, stored["truth"]) if "truth" in stored else None
    # the halves cut as bench/families.py cuts them, kept in the same cache when there is one
    cut = photo_halves(family, seed, tier, MOTIF_CYCLE[seed % len(MOTIF_CYCLE)], None, 0, cache)
    truth, halves = cut["truth"], cut["halves"]
    found = None
    if halves is not None:
        corners = [q.corners for q in halves.quads]
        if score_reading(corners, None, truth).all_tiles_exact:
            flat = halves.bands.reshape(-1, *halves.bands.shape[2:])
            distances = appearance_distances(flat, halves.face)
            distances["keypoints"] = on_typical_scale(keypoint_distances(flat))
            found = distances, true_edges_as_found(corners, truth).ravel()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **({**found[0], "truth": found[1]} if found else {}))
    return found


def sorts_right(appearance: np.ndarray, truth: np.ndarray) -> tuple[bool, bool]:
    """Whether Ward's clustering of the appearance sorts the halves right at the true number of types, and whether
    that number is also where it jumps most."""
    tree = ward_tree(np.sqrt(appearance))
    types = len(set(truth.tolist()))
    right = len(set(zip(cut_tree(tree, types).tolist(), truth.tolist()))) == types
    gaps = type_count_gaps(tree, types_range(MOTIF_RANGE, len(truth)))
    return right, right and max(gaps, key=gaps.get) == types


def pair_rows(distances: dict, truth: np.ndarray, names: tuple = NAMES) -> tuple[np.ndarray, np.ndarray]:
    """Every two halves' log distances (pairs x names) and whether they are copies of one half."""
    upper = np.triu_indices(len(truth), 1)
    logs = np.stack([np.log(np.maximum(distances[name][upper], APPEARANCE_FLOOR)) for name in names], axis=1)
    return logs, (truth[:, None] == truth[None])[upper]


def fitted_weights(logs: np.ndarray, same: np.ndarray, steps: int = 50, names: tuple = NAMES) -> dict[str, float]:
    """A logistic regression of `same` on the logs (Newton's method, a little ridge), its weights scaled to sum to 1
    (the sign turned: a larger distance says less alike)."""
    design = np.hstack([logs, np.ones((len(logs), 1))])
    beta = np.zeros(design.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-design @ beta))
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + 1e-6 * np.eye(len(beta))
        step = np.linalg.solve(hessian, design.T @ (same - p))
        beta += step
        if np.abs(step).max() < 1e-8:
            break
    weights = -beta[:-1]
    return dict(zip(names, weights / weights.sum()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-tier", type=int, default=12)
    parser.add_argument("--tiers", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--cache", type=Path, help="keep each photo's distances here for the next run")
    args = parser.parse_args()
    photos = {}  # (family, tier, seed) -> (distances, truth)
    for first in (20_000, 10_000):
        for family in FAMILIES:
            for tier in args.tiers:
                for seed in range(first, first + args.per_tier):
                    found = photo_distances(family, seed, tier, args.cache)
                    if found is not None:
                        photos[(family, tier, seed)] = found
    dev = [f for f in FAMILIES if FAMILIES[f].split == "dev"]

    def fit(families, names: tuple = NAMES) -> dict[str, float]:
        rows = [pair_rows(*found, names) for (family, _, _), found in photos.items() if family in families]
        return fitted_weights(np.vstack([r[0] for r in rows]), np.concatenate([r[1] for r in rows]), names=names)

    refitted = fit(dev)
    without = {family: fit([f for f in dev if f != family]) for family in dev}
    with_keypoints = {**{name: (1 - KEYPOINT_WEIGHT) * weight for name, weight in APPEARANCE_WEIGHTS.items()},
                      "keypoints": KEYPOINT_WEIGHT}
    seven_refitted = fit(dev, NAMES + ("keypoints",))
    ways = {"lined up alone": lambda d, family: d["lined_up"],
            "weights set": lambda d, family: weighed_appearance(d),
            "weights refitted": lambda d, family: weighed_appearance(d, refitted),
            "family left out": lambda d, family: weighed_appearance(d, without.get(family, refitted)),
            "keypoints too": lambda d, family: weighed_appearance(d, with_keypoints),
            "seven refitted": lambda d, family: weighed_appearance(d, seven_refitted)}
    print(f"photos whose tiles are found exactly: {len(photos)}")
    print(f"{'appearance':<18} {'split':<5} {'photos':>6} {'sorted right':>13} {'at sharpest jump':>17}")
    for name, way in ways.items():
        for split in ("dev", "test"):
            if name == "family left out" and split == "test":
                continue
            outcomes = [sorts_right(way(d, family), truth) for (family, _, _), (d, truth) in photos.items()
                        if FAMILIES[family].split == split]
            print(f"{name:<18} {split:<5} {len(outcomes):>6} {sum(r for r, _ in outcomes):>13} "
                  f"{sum(s for _, s in outcomes):>17}")
    for name, weights in (("set", APPEARANCE_WEIGHTS), ("refitted on dev", refitted),
                          ("seven refitted", seven_refitted)):
        print(f"weights {name:<16} " + "  ".join(f"{k} {v:+.2f}" for k, v in weights.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
