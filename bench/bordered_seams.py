"""How fitting the seam between two bordered tiles moves the corners found (vision/find/seams.py, bordered_seams).

    python bench/bordered_seams.py [--split dev|test] [--per-family 12] [--first-seed 20000]

Each family's photos (tiers easy, medium and hard, seeds from first-seed, the layout each seed draws) are segmented twice:
as set, and with a border's seam refused (BORDERS_APART 0, no trace SEAM_DEPTH_BORDERS deep), as before it was
fitted. Per face kind and layout: photos with every tile exact (every corner within 5% of a side), the mean corner
error in % of a side, and photos whose mean corner error moved by more than 0.3% either way; then each such photo.
Tune on the dev families only.
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from photosolve.scenes.evaluate import CORNER_TOLERANCE, pair_tiles, turn_to_found
from photosolve.scenes.families import DEV, TEST, face_kind, family_artwork
from photosolve.scenes.scene import make_scene
from photosolve.vision.errors import VisionError
from photosolve.vision.find import seams
from photosolve.vision.find.segment import find_tiles
from photosolve.vision.load import photo_from_array

sys.path.insert(0, str(Path(__file__).resolve().parent))
from families import MOTIF_CYCLE  # noqa: E402  (the motif counts bench/families.py gives its seeds)

MOVED = 0.3  # % of a side: a photo whose mean corner error moves more than this has turned


def corner_errors(quads: list[np.ndarray], truth: dict) -> list[float]:
    """Each true tile's worst corner distance from the found tile paired with it, in % of its side (as
    scenes/evaluate.score_reading pairs and turns them); a true tile no found tile lies on is left out."""
    centres = np.array([quad.mean(axis=0) for quad in quads])
    errors = []
    for tile, found in zip(truth["tiles"], pair_tiles(centres, truth)):
        if found is None:
            continue
        true = np.asarray(tile["corners"], dtype=float)
        true = np.roll(true, -turn_to_found(quads[found], true), axis=0)
        side = np.mean(np.linalg.norm(true - np.roll(true, 1, axis=0), axis=1))
        errors.append(float(np.max(np.linalg.norm(quads[found] - true, axis=1)) / side * 100))
    return errors


def run_photo(job: tuple[str, int, str]) -> dict:
    family, seed, tier = job
    motifs = MOTIF_CYCLE[seed % len(MOTIF_CYCLE)]
    scene = make_scene(f"family:{family}:{motifs}", seed, tier=tier)
    photo = photo_from_array(scene.image)
    kept = (seams.BORDERS_APART, seams.SEAM_DEPTH_BORDERS)
    errors = {}
    for way, setting in (("as set", kept), ("refused", (0.0, seams.SEAM_DEPTH_WIDE))):
        seams.BORDERS_APART, seams.SEAM_DEPTH_BORDERS = setting
        try:
            quads = find_tiles(photo, len(scene.truth["tiles"]))
            errors[way] = corner_errors([quad.corners for quad in quads], scene.truth)
        except VisionError:
            errors[way] = None
        finally:
            seams.BORDERS_APART, seams.SEAM_DEPTH_BORDERS = kept
    face = face_kind(family_artwork(family, motifs, seed))
    return {"name": f"{family} {seed} {tier}", "face": face, "layout": scene.truth["layout"], **errors}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--per-family", type=int, default=12)
    parser.add_argument("--first-seed", type=int, default=20_000)
    args = parser.parse_args()
    jobs = [(family, args.first_seed + i, tier) for family in (DEV if args.split == "dev" else TEST)
            for i in range(args.per_family) for tier in ("easy", "medium", "hard")]
    with Pool(2) as pool:
        outcomes = pool.map(run_photo, jobs, chunksize=1)
    groups: dict[str, list[dict]] = defaultdict(list)
    for outcome in outcomes:
        for key in ("all", f"face {outcome['face']}", f"layout {outcome['layout']}"):
            groups[key].append(outcome)
    print(f"bordered seams, {args.split} families, {len(outcomes)} photos: refused -> as set")
    for key, items in sorted(groups.items()):
        found = [o for o in items if o["as set"] is not None and o["refused"] is not None]
        exact = {way: sum(max(o[way]) <= 100 * CORNER_TOLERANCE for o in found) for way in ("refused", "as set")}
        mean = {way: np.mean([np.mean(o[way]) for o in found]) for way in ("refused", "as set")}
        shift = [np.mean(o["as set"]) - np.mean(o["refused"]) for o in found]
        print(f"  {key:18} n {len(items):3}  exact {exact['refused']} -> {exact['as set']}  mean corner error "
              f"{mean['refused']:.2f} -> {mean['as set']:.2f}%  better {sum(s < -MOVED for s in shift)} "
              f"worse {sum(s > MOVED for s in shift)}")
    for o in outcomes:
        if o["as set"] is not None and o["refused"] is not None \
                and abs(np.mean(o["as set"]) - np.mean(o["refused"])) > MOVED:
            print(f"    {o['name']} {o['layout']} {o['face']}: mean {np.mean(o['refused']):.2f} -> "
                  f"{np.mean(o['as set']):.2f}%, worst {max(o['refused']):.1f} -> {max(o['as set']):.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
