"""How well the halves of an art family's photos sort into half-types, before any pairing or solving.

    python bench/grouping.py [--per-tier 12] [--tiers medium hard] [--split dev|test] [--first-seed 20000]
                             [--look first|weighed|blended] [--corners true|found]

The photos of `bench/families.py` (same seeds and motif counts), cut at the TRUE tile corners (with --corners found:
at the outlines the pipeline finds, pipeline.cut_halves; a photo where some tile is not found counts as grouped
wrongly, its figures left out) and put in one light as the pipeline does (features.white_bands). Their halves are
sorted by Ward's clustering of their appearance (self-labelling's first look, descriptors.describe_halves: the
largest difference of two halves lined up, difference.py; with --look weighed, six distances weighed, the first
look where the lined-up difference sets no types apart sharply, descriptors.weighed; with --look blended,
descriptors.blended: colours, pictures and structure, the first look before) cut at the TRUE number of half-types,
so only the descriptors are judged: photos whose halves group exactly right, halves misplaced (not in their group's
majority type), how many halves have a nearest neighbour of their own type, and the median over halves of (nearest
other type) / (farthest own type) distance, above 1 where the types stand apart. Per face kind and motif kind, as
these are where reading fails.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from photosolve.scenes.evaluate import true_edges_as_found
from photosolve.scenes.families import DEV, TEST, face_kind, family_artwork, motif_kind
from photosolve.scenes.scene import make_scene
from photosolve.vision.errors import VisionError
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import cut_halves
from photosolve.vision.read.descriptors import blended, describe_halves, weighed
from photosolve.vision.read.features import white_bands
from photosolve.vision.read.ward import cut_tree, ward_tree
from photosolve.vision.rectify import rectify_all
from photosolve.vision.types import TileQuad

sys.path.insert(0, str(Path(__file__).resolve().parent))
from families import MOTIF_CYCLE  # noqa: E402  (the motif counts bench/families.py gives its seeds)


def grouping(appearance: np.ndarray, truth: np.ndarray) -> dict:
    """How the halves (squared appearance distances) group at the true number of types (truth: their labels)."""
    # as trials.appearance_tree builds it: Ward's clustering of the distances
    types = cut_tree(ward_tree(np.sqrt(np.maximum(appearance, 0.0))), len(set(truth.tolist())))
    majority = Counter()
    for group in set(types.tolist()):
        majority[group] = Counter(truth[types == group].tolist()).most_common(1)[0][1]
    others = appearance + np.diag(np.full(len(truth), np.inf))  # a half is not its own neighbour
    same = truth[:, None] == truth[None]
    np.fill_diagonal(same, False)
    farthest_own = np.where(same, appearance, -np.inf).max(axis=1)
    nearest_other = np.where(truth[:, None] != truth[None], appearance, np.inf).min(axis=1)
    has_own = np.isfinite(farthest_own)
    exact = len(set(zip(types.tolist(), truth.tolist()))) == len(set(truth.tolist())) == len(set(types.tolist()))
    return {"right": exact,
            "misplaced": len(truth) - sum(majority.values()),
            "neighbour": float(np.mean(truth[np.argmin(others, axis=1)] == truth)),
            "apart": float(np.median(nearest_other[has_own] / np.maximum(farthest_own[has_own], 1e-9)))}


def run_photo(family: str, seed: int, tier: str, look: str = "first", corners: str = "true") -> dict:
    motifs = MOTIF_CYCLE[seed % len(MOTIF_CYCLE)]
    scene = make_scene(f"family:{family}:{motifs}", seed, tier=tier)
    art = family_artwork(family, motifs, seed)
    kinds = {"face": face_kind(art), "kind": motif_kind(art), "family": family}
    bands_and_truth = true_cut(scene) if corners == "true" else found_cut(scene)
    if bands_and_truth is None:
        return {"right": False, "misplaced": np.nan, "neighbour": np.nan, "apart": np.nan, **kinds}
    bands, face, truth = bands_and_truth
    flat = bands.reshape(-1, *bands.shape[2:])
    first = describe_halves(flat, face)
    appearance = {"blended": blended(first), "weighed": weighed(first)}.get(look, first).appearance
    return {**grouping(appearance, truth), **kinds}


def true_cut(scene) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The photo's bands cut at the true corners, their face, and their true labels (flat)."""
    quads = [TileQuad(np.array(tile["corners"], float)) for tile in scene.truth["tiles"]]
    bands, face = white_bands(rectify_all(photo_from_array(scene.image), quads))
    return bands, face, np.array([tile["edges"] for tile in scene.truth["tiles"]]).ravel()


def found_cut(scene) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """As true_cut, at the outlines the pipeline finds; None where some tile is not found."""
    try:
        halves = cut_halves(photo_from_array(scene.image), len(scene.truth["tiles"]))
    except VisionError:
        return None
    truth = true_edges_as_found([quad.corners for quad in halves.quads], scene.truth).ravel()
    return None if not truth.all() else (halves.bands, halves.face, truth)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-tier", type=int, default=12)
    parser.add_argument("--tiers", nargs="+", default=["medium", "hard"])
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--first-seed", type=int, default=20_000)
    parser.add_argument("--look", choices=["first", "weighed", "blended"], default="first",
                        help="the appearance judged")
    parser.add_argument("--corners", choices=["true", "found"], default="true", help="where the tiles are cut")
    args = parser.parse_args()
    families = DEV if args.split == "dev" else TEST
    print(f"photosolve grouping at {args.corners} corners ({args.look} look) — {args.split} families, "
          f"{args.per_tier} photos per family and tier, {time.strftime('%Y-%m-%d %H:%M')}")
    outcomes = [run_photo(family, args.first_seed + i, tier, args.look, args.corners)
                for family in families for tier in args.tiers for i in range(args.per_tier)]
    groups: dict[str, list[dict]] = defaultdict(list)
    for outcome in outcomes:
        for key in ("family", "face", "kind"):
            groups[f"{key} {outcome[key]}"].append(outcome)
    print(f"  {'':<24} {'n':>3} {'right':>6} {'misplaced':>10} {'neighbour':>10} {'apart':>6}")
    for name, items in [("all", outcomes), *sorted(groups.items())]:
        print(f"  {name:<24} {len(items):>3} {sum(o['right'] for o in items):>6} "
              f"{np.nansum([o['misplaced'] for o in items]):>10.0f} "
              f"{np.nanmean([o['neighbour'] for o in items]):>10.3f} {np.nanmedian([o['apart'] for o in items]):>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
