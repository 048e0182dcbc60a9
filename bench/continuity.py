"""How often the photo's seams pick a true arrangement where a reading lets the tiles lie in true and wrong ways.

    python bench/continuity.py [--real DIR] [--per-tier 12] [--first-seeds 20000 10000] [--tiers easy medium hard]
                               [--no-families]

Each photo's halves are cut where photosolve finds the tiles; their true edges are then read with two motifs taken
for one (each two motifs, both ways: +b as +a, or crossed). Where the tiles so read lie in true and wrong ways
alike (and in at most MOST_WAYS ways), the way photosolve gives (continuity.by_continuity: the seams the figures
run on across best) is judged against the truth, beside the solver's first way. Photos: the real ones in
../shared/realphotos (the grids' truth by grid_rc; the scattered cars' by the tiles' centres), the bundled samples
(their edges as photosolve reads them, which is right), and the art families' photos of bench/families.py, per split
(dev: tune on these; test: report only).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from photosolve.scenes.evaluate import arrangement_fits, true_edges_as_found
from photosolve.scenes.families import FAMILIES
from photosolve.scenes.scene import make_scene
from photosolve.solver import Puzzle, solve
from photosolve.vision.errors import VisionError
from photosolve.vision.load import load_photo, photo_from_array
from photosolve.vision.pipeline import cut_halves, read_photo_edges
from photosolve.vision.read.continuity import by_continuity, meeting_costs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from families import MOTIF_CYCLE  # noqa: E402  (the motif counts bench/families.py gives its seeds)
from realphotos import true_edges  # noqa: E402  (the real photos' truth, as bench/realphotos.py reads it)

ROOT = Path(__file__).resolve().parents[1]
MOST_WAYS = 400  # readings that let the tiles lie in more ways are left out (listing them all is slow)


def merges(edges: np.ndarray, halves, rows: int, cols: int) -> list[tuple[bool, bool]]:
    """For every two motifs read as one, both ways, where true and wrong ways both lay out: (seams' way true,
    solver's first way true)."""
    motifs = sorted({abs(int(v)) for v in edges.ravel()} - {0})
    meeting = meeting_costs(halves.bands, halves.face)  # once a photo: every merge's ways are ranked by it
    out = []
    for i, keep in enumerate(motifs):
        for gone in motifs[i + 1:]:
            for way in (1, -1):
                merged = np.where(np.abs(edges) == gone, way * np.sign(edges) * keep, edges)
                solutions = solve(Puzzle.from_edges([tuple(int(v) for v in e) for e in merged]), rows, cols).solutions
                if len(solutions) > MOST_WAYS:
                    continue
                true = [arrangement_fits(s, edges) for s in solutions]
                if any(true) and not all(true):
                    out.append((arrangement_fits(by_continuity(solutions, meeting)[0], edges), true[0]))
    return out


def line(name: str, found: list[tuple[bool, bool]]) -> str:
    seams, solver = sum(s for s, _ in found), sum(f for _, f in found)
    share = f"{seams / len(found):6.1%}" if found else "     -"
    return f"  {name:<34} {len(found):>6} {seams:>6} {share} {solver:>7}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, default=ROOT.parent / "shared" / "realphotos")
    parser.add_argument("--per-tier", type=int, default=12)
    parser.add_argument("--first-seeds", type=int, nargs="+", default=[20_000, 10_000])
    parser.add_argument("--tiers", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--no-families", action="store_true", help="the real photos and the samples only")
    args = parser.parse_args()
    print(f"{'':2}{'photos':<34} {'merges':>6} {'seams':>6} {'share':>6} {'solver':>7}   (true ways first)")
    everything = []
    for path in sorted(args.real.glob("*.truth.json")) if args.real.is_dir() else []:
        truth = json.loads(path.read_text())
        image = next(p for p in path.parent.glob(path.name.replace(".truth.json", ".*")) if p.suffix != ".json")
        photo = load_photo(image)
        halves = cut_halves(photo, len(truth["tiles"]))
        found = merges(true_edges(truth, halves.quads, photo), halves, 3, 3)
        everything += found
        print(line(f"real {image.name}", found), flush=True)
    for sample in ("dogs", "cats", "insects", "nsa"):
        halves = cut_halves(load_photo(ROOT / "samples" / f"{sample}.jpg"), 9)
        found = merges(read_photo_edges(halves, None, 3, 3).reading.labels, halves, 3, 3)
        everything += found
        print(line(f"sample {sample}", found), flush=True)
    print(line("real photos and samples", everything))
    if args.no_families:
        return 0
    by_split = defaultdict(list)
    for family, about in FAMILIES.items():
        for tier in args.tiers:
            found = []
            for first in args.first_seeds:
                for seed in range(first, first + args.per_tier):
                    scene = make_scene(f"family:{family}:{MOTIF_CYCLE[seed % len(MOTIF_CYCLE)]}", seed, tier=tier)
                    rows, cols = scene.truth["rows"], scene.truth["cols"]
                    try:
                        halves = cut_halves(photo_from_array(scene.image), rows * cols)
                    except VisionError:
                        continue
                    edges = true_edges_as_found([q.corners for q in halves.quads], scene.truth)
                    if (edges == 0).any():  # a tile found where none lies, or one missed
                        continue
                    found += merges(edges, halves, rows, cols)
            by_split[about.split] += found
            print(line(f"{family} {tier} ({about.split})", found), flush=True)
    for split, found in by_split.items():
        print(line(f"all {split}", found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
