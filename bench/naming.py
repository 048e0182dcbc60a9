"""How self-labelling names the motifs of a puzzle never seen: by colour, as a person would call them.

    python bench/naming.py [--count 30] [--first-seed 30000] [--tier medium]

The never-seen photos of `bench/vision_accuracy.py --never-seen` (random puzzles of 3 to 6 motifs, each motif one
figure drawn in a named main colour, a darker or lighter second one and an accent), halves cut at the TRUE tile
corners and grouped by the TRUE edges, so that only the naming is judged (vision/read/naming.py). A motif is named
right when its name, less a number added to tell two apart, is the everyday colour name (naming.COLOUR_NAMES)
nearest the colour its figure was drawn in; names that needed a number are counted too, as "tan, tan2" says little.
"""
from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from photosolve.scenes.artwork import random_artwork
from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.read.features import white_bands
from photosolve.vision.read.naming import colour_name, motif_names
from photosolve.vision.rectify import rectify_all
from photosolve.vision.types import TileQuad


def lab_of_rgb(rgb) -> np.ndarray:
    return cv2.cvtColor(np.float32([[rgb]]) / 255.0, cv2.COLOR_RGB2LAB)[0, 0]


def run_photo(seed: int, tier: str) -> list[tuple[str, str]]:
    """(name given, name expected) of every motif of the seed's photo."""
    motifs = 3 + seed % 4
    scene = make_scene(f"random:{motifs}", seed, tier=tier)
    quads = [TileQuad(np.array(tile["corners"], float)) for tile in scene.truth["tiles"]]
    bands, face = white_bands(rectify_all(photo_from_array(scene.image), quads))
    labels = np.array([tile["edges"] for tile in scene.truth["tiles"]]).ravel()
    names = motif_names(bands.reshape(-1, *bands.shape[2:]), labels, face)
    art = random_artwork(motifs, seed)  # the scene's own (scene._resolve_puzzle)
    return [(names[k], colour_name(lab_of_rgb(art.motifs[k].colours[0]))) for k in sorted(names)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=30_000)
    parser.add_argument("--tier", default="medium")
    args = parser.parse_args()
    print(f"photosolve motif names — never-seen {args.tier} photos, seeds {args.first_seed}-"
          f"{args.first_seed + args.count - 1}, true corners, {time.strftime('%Y-%m-%d %H:%M')}")
    pairs = [pair for seed in range(args.first_seed, args.first_seed + args.count)
             for pair in run_photo(seed, args.tier)]
    right = sum(given.rstrip("0123456789") == expected for given, expected in pairs)
    numbered = sum(given[-1].isdigit() for given, _ in pairs)
    print(f"  named right {right} of {len(pairs)} motifs; numbered to tell apart {numbered}")
    wrong = {}
    for given, expected in pairs:
        if given.rstrip("0123456789") != expected:
            key = f"{expected} -> {given.rstrip('0123456789')}"
            wrong[key] = wrong.get(key, 0) + 1
    print("  misnamed: " + ", ".join(f"{k} x{v}" for k, v in sorted(wrong.items(), key=lambda kv: -kv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
