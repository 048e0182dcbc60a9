"""Regenerate the sample photos in samples/ bit for bit: `python -m photosolve.scenes.samples [--check]`.

Each sample is a simulated photo (see scene.py) of one of the seed puzzles, with its ground truth beside
it; contact.jpg shows them small, with one scene of each difficulty tier.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .photograph import decode_jpeg, encode_jpeg
from .scene import SAMPLES, Conditions, Scene, _atomic_write, make_scene, truth_json


@dataclass(frozen=True)
class Sample:
    """One sample photo: which puzzle, which seed, and how it was photographed."""

    name: str
    puzzle: str
    seed: int
    conditions: Conditions


SAMPLE_SET = (
    # the 12 MP headline photo: scattered on oak, a little tilted, lamp to one side; the phone's white
    # balance leaves the white card a little blue-grey, as in real photos
    Sample("dogs", "dogs", 4, Conditions(
        layout="scattered", size=(4032, 3024), tilt=9.0, light=0.35, background="wood", noise=2.8, blur=0.9,
        jpeg_quality=90, white_balance=(0.98, 1.0, 1.03), exposure=0.94, tile_fraction=0.23, shadow=0.5,
        sharpen=0.6)),
    Sample("insects", "insects", 7, Conditions(
        layout="scattered", size=(1920, 1440), tilt=6.0, light=0.3, background="darkwood", noise=2.0, blur=0.6,
        jpeg_quality=88, white_balance=(1.0, 1.0, 0.97), exposure=1.02)),
    Sample("nsa", "nsa", 3, Conditions(
        layout="grid", size=(1920, 1440), tilt=12.0, light=0.4, background="cloth", noise=2.5, blur=0.6,
        jpeg_quality=88, white_balance=(0.97, 1.0, 1.04), exposure=1.0)),
    Sample("cats", "cats", 2, Conditions(
        layout="solved", size=(1440, 1920), tilt=7.0, light=0.3, background="stone", noise=2.0, blur=0.6,
        jpeg_quality=88, white_balance=(1.02, 1.0, 0.97), exposure=1.0)),
)

# one scene per tier for the contact sheet (random puzzles too, to show random_artwork)
TIER_SHOTS = (
    ("easy", "random:5", 11, {}),
    ("medium", "insects", 12, {"layout": "touching"}),
    ("hard", "random:6", 13, {"layout": "scattered"}),
    ("hard", "cats", 14, {"layout": "grid"}),
)
CONTACT_WIDTH = 1600


def sample_scene(sample: Sample) -> Scene:
    return make_scene(sample.puzzle, sample.seed, "sample", conditions=sample.conditions)


def contact_sheet(photos: list[tuple[str, np.ndarray]], width: int = CONTACT_WIDTH, columns: int = 4) -> bytes:
    """Thumbnails in a grid with a caption each, as one small JPEG."""
    cell_w = width // columns
    cell_h = cell_w * 3 // 4 + 24
    rows = -(-len(photos) // columns)
    sheet = np.full((rows * cell_h, columns * cell_w, 3), 250, np.uint8)
    for i, (caption, image) in enumerate(photos):
        r, c = divmod(i, columns)
        h, w = image.shape[:2]
        scale = min((cell_w - 8) / w, (cell_h - 32) / h)
        thumb = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        y0 = r * cell_h + 4 + (cell_h - 32 - thumb.shape[0]) // 2
        x0 = c * cell_w + (cell_w - thumb.shape[1]) // 2
        sheet[y0:y0 + thumb.shape[0], x0:x0 + thumb.shape[1]] = thumb
        cv2.putText(sheet, caption, (c * cell_w + 8, (r + 1) * cell_h - 9), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (40, 40, 40), 1, cv2.LINE_AA)
    return encode_jpeg(sheet, 82)


def build(names: set[str] | None = None) -> dict[str, bytes]:
    """Every sample file's bytes by file name (only the named samples, and no contact sheet, if `names`)."""
    files: dict[str, bytes] = {}
    thumbs = []
    for sample in SAMPLE_SET:
        if names is not None and sample.name not in names:
            continue
        scene = sample_scene(sample)
        files[f"{sample.name}.jpg"] = scene.jpeg
        files[f"{sample.name}.truth.json"] = truth_json(scene.truth).encode()
        c = sample.conditions
        thumbs.append((f"{sample.name}: {c.layout}, {c.size[0]}x{c.size[1]}", scene.image))
    if names is None:
        for tier, puzzle, seed, overrides in TIER_SHOTS:
            scene = make_scene(puzzle, seed, tier, size=(1200, 900), **overrides)
            thumbs.append((f"{tier}: {puzzle}, {scene.truth['layout']}, seed {seed}", decode_jpeg(scene.jpeg)))
        files["contact.jpg"] = contact_sheet(thumbs)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m photosolve.scenes.samples", description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="regenerate in memory and compare with the files; exit 1 if any differ")
    parser.add_argument("--only", default="", help="comma-separated sample names (skips the contact sheet)")
    parser.add_argument("--out", type=Path, default=SAMPLES, help="folder to write into (default: samples/)")
    args = parser.parse_args(argv)
    names = {n.strip() for n in args.only.split(",") if n.strip()} or None
    files = build(names)
    if args.check:
        stale = [n for n, data in files.items()
                 if not (args.out / n).is_file() or (args.out / n).read_bytes() != data]
        for n in stale:
            print(f"{args.out / n}: differs from what the generator makes now", file=sys.stderr)
        print(f"{len(files) - len(stale)} of {len(files)} sample files match", file=sys.stderr)
        return 1 if stale else 0
    for n, data in files.items():
        _atomic_write(args.out / n, data)
        print(f"wrote {args.out / n} ({len(data) / 1024:.0f} KB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
