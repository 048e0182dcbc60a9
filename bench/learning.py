"""How often `photosolve learn` matches a photo's tiles to the listed tiles right, by features alone and with print.

    python bench/learning.py [--split dev] [--first-seeds 10000 20000 30000] [--seeds-each 24]

Each photo is the one bench/families.py learns its templates from: a medium, scattered photo of an art family's
puzzle (seed + 100000), its tile list typed in another order and turn. Photos whose tiles are not all found where
they lie are left out (the match cannot be judged there). Per way of matching: photos with any half labelled
wrong, halves labelled wrong, the time spent matching, and how the margin `photosolve learn` warns by (the best
match's spread against the best other's) falls on photos learned right and wrong.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from photosolve.scenes.evaluate import listed_puzzle, true_edges_as_found
from photosolve.scenes.families import FAMILIES, family_artwork
from photosolve.scenes.scene import make_scene
from photosolve.vision.errors import VisionError
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import cut_halves
from photosolve.vision.read.learn import match_tiles, turned_labels
from photosolve.vision.read.templates import example_prints

from photosolve.cli.learn_cmd import CLOSE_MATCH
from families import MOTIF_CYCLE, teacher_scene  # bench/families.py, beside this script


def teacher(family: str, seed: int):
    """The photo bench/families.py learns from for this seed: its halves, tile list and true labels as found;
    None where its tiles are not all found where they lie (true_edges_as_found leaves the others 0)."""
    motifs = MOTIF_CYCLE[seed % len(MOTIF_CYCLE)]
    truth = make_scene(f"family:{family}:{motifs}", seed, tier="easy").truth
    puzzle = listed_puzzle(truth)
    scene = teacher_scene(truth, family_artwork(family, motifs, seed), seed)
    try:
        halves = cut_halves(photo_from_array(scene.image), len(puzzle.tiles))
    except VisionError:
        return None
    labels = np.array(true_edges_as_found([q.corners for q in halves.quads], scene.truth))
    return (halves, puzzle, labels) if labels.all() else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--first-seeds", nargs="+", type=int, default=[10_000, 20_000, 30_000])
    parser.add_argument("--seeds-each", type=int, default=24, help="seeds from each first seed (default 24)")
    args = parser.parse_args()
    families = [name for name, family in FAMILIES.items() if family.split == args.split]
    ways = {"features": lambda halves, puzzle: match_tiles(halves.features, puzzle),
            "features and print": lambda halves, puzzle: match_tiles(
                halves.features, puzzle, example_prints(halves.bands.reshape(-1, *halves.bands.shape[2:])))}
    outcomes = {way: [] for way in ways}  # (halves wrong, margin) per photo judged
    seconds = dict.fromkeys(ways, 0.0)
    left_out = 0
    for family in families:
        for seed in (first + i for first in args.first_seeds for i in range(args.seeds_each)):
            photo = teacher(family, seed)
            if photo is None:
                left_out += 1
                continue
            halves, puzzle, truth = photo
            options = turned_labels(puzzle)
            for way, match_of in ways.items():
                began = time.perf_counter()
                match = match_of(halves, puzzle)
                seconds[way] += time.perf_counter() - began
                wrong = int((options[match.tiles - 1, match.turns] != truth).sum())
                outcomes[way].append((wrong, match.runner_up_spread / max(match.spread, 1e-12)))
    judged = len(next(iter(outcomes.values())))
    print(f"photosolve learn: {args.split} families ({', '.join(families)}), {judged} teacher photos judged, "
          f"{left_out} left out (tiles not all found where they lie), {time.strftime('%Y-%m-%d %H:%M')}")
    for way, results in outcomes.items():
        wrong = [margin for halves_wrong, margin in results if halves_wrong]
        right = [margin for halves_wrong, margin in results if not halves_wrong]
        print(f"  {way:<19} photos learned wrong {len(wrong):>3}, halves wrong {sum(w for w, _ in results):>4}; "
              f"margin under {CLOSE_MATCH}: {sum(m < CLOSE_MATCH for m in wrong)} of those learned wrong, "
              f"{sum(m < CLOSE_MATCH for m in right)} of {len(right)} learned right; "
              f"{seconds[way] / max(judged, 1):.2f} s a photo matching")
    return 0


if __name__ == "__main__":
    sys.exit(main())
