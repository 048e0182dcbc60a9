"""The real photos as another camera, hand or light would have taken them, read with no templates.

    python bench/realphoto_variants.py [--folder DIR] [--only NAME...] [--variants NAME...] [--draw DIR]

Each variant is made from the upright photo (smaller cameras, the phone turned or tilted, other light, a phone's
shadow, a lamp's glare, a worse JPEG, a shaking hand, a tight crop) and read exactly as bench/realphotos.py reads
the photo itself. Its truth moves with it: every tile's centre and corners go through the same geometry, and a
tile's edges are turned by however many quarter turns its north side moved, so a tile is scored against the true
tile whose centre lies nearest. Grids have no hand-marked centres: theirs are the tiles found in the photo itself,
which reads all 36 edges right there (the first row says so), numbered row by row as grid_rc numbers them.

With --draw, each variant that is not read right is written to DIR with the outlines found on it.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realphotos import HEADER, ROOT, Scored, read_and_score  # noqa: E402

from photosolve.scenes.photograph import cast_shadow  # noqa: E402
from photosolve.vision.geometry import order_clockwise  # noqa: E402
from photosolve.vision.load import load_photo, photo_from_array  # noqa: E402
from photosolve.vision.pipeline import cut_halves  # noqa: E402

TRUTH_SIDE = 1600  # the truth's centres and corners are in the photo scaled to this longer side


@dataclass(frozen=True)
class Variant:
    """An image made from the photo, and where a point of the photo lands in it (None: it does not move)."""

    image: np.ndarray
    moved: np.ndarray | None = None  # 2 x 3 affine or 3 x 3 perspective map from photo pixels to variant pixels


# ---- the variants ------------------------------------------------------------------------------------------------

def scaled(factor: float) -> Callable[[np.ndarray], Variant]:
    def make(rgb: np.ndarray) -> Variant:
        small = cv2.resize(rgb, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        return Variant(small, np.array([[factor, 0, 0], [0, factor, 0]], float))
    return make


def rotated(degrees: float, tiles: np.ndarray) -> Callable[[np.ndarray], Variant]:
    """The phone turned clockwise by `degrees`. A quarter turn moves whole pixels. Any other turn is cropped to the
    largest upright rectangle inside the turned photo, as a phone held askew frames the table around the tiles;
    where that would cut a tile (tiles near the photo's edge), the canvas grows to hold the whole photo instead and
    each pixel of its empty corners takes the colour of the photo's border pixel nearest it: the table going on as
    it meets the border, desk beside desk and carpet beside carpet, without its grain (mirroring the border would
    mirror the tiles that touch it). One colour for all four corners (the border's median, as this bench once
    filled them) is no colour a real photo of the table shows: on a pale desk it was a brown that filled the border
    a background estimate reads the table from, so the desk itself passed for a tile."""
    def make(rgb: np.ndarray) -> Variant:
        height, width = rgb.shape[:2]
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), -degrees, 1.0)  # OpenCV turns counter-clockwise
        if degrees % 90 == 0:
            image = np.ascontiguousarray(np.rot90(rgb, -int(degrees) // 90))
            turn[:, 2] += (np.array(image.shape[1::-1]) - (width, height)) / 2
            return Variant(image, turn)
        cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
        size = np.array([width * cos + height * sin, width * sin + height * cos])
        turn[:, 2] += (size - (width, height)) / 2
        image = cv2.warpAffine(rgb, turn, tuple(int(round(v)) for v in size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
        inner = np.array(inscribed(width, height, np.radians(degrees)))
        low, high = np.ceil((size - inner) / 2).astype(int), np.floor((size + inner) / 2).astype(int)
        moved = tiles @ turn[:, :2].T + turn[:, 2]
        keep = 0.01 * inner
        if np.all(moved >= low + keep) and np.all(moved <= high - keep):
            turn[:, 2] -= low
            return Variant(np.ascontiguousarray(image[low[1]:high[1], low[0]:high[0]]), turn)
        return Variant(image, turn)
    return make


def inscribed(width: float, height: float, angle: float) -> tuple[float, float]:
    """Width and height of the largest upright rectangle inside a width x height rectangle turned by `angle`."""
    sin, cos = abs(np.sin(angle)), abs(np.cos(angle))
    long, short = max(width, height), min(width, height)
    if short <= 2 * sin * cos * long:
        half = 0.5 * short
        return (half / sin, half / cos) if width >= height else (half / cos, half / sin)
    cos2 = cos * cos - sin * sin
    return (width * cos - height * sin) / cos2, (height * cos - width * sin) / cos2


def light(gain: tuple[float, float, float] = (1, 1, 1), lift: float = 0.0) -> Callable[[np.ndarray], Variant]:
    """Every channel scaled (a colour cast, under-exposure) and lifted (haze, flat contrast)."""
    def make(rgb: np.ndarray) -> Variant:
        return Variant(np.clip(rgb * np.array(gain) + lift, 0, 255).astype(np.uint8))
    return make


def shaded(darkest: float = 0.6) -> Callable[[np.ndarray], Variant]:
    """Light falling off smoothly from the top-left corner to the bottom-right, which gets `darkest` of it."""
    def make(rgb: np.ndarray) -> Variant:
        height, width = rgb.shape[:2]
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        along = (xs / width + ys / height) / 2
        return Variant(np.clip(rgb * (1 - (1 - darkest) * along)[:, :, None], 0, 255).astype(np.uint8))
    return make


def jpeg(quality: int) -> Callable[[np.ndarray], Variant]:
    def make(rgb: np.ndarray) -> Variant:
        _, data = cv2.imencode(".jpg", rgb[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, quality])
        return Variant(np.ascontiguousarray(cv2.imdecode(data, cv2.IMREAD_COLOR)[:, :, ::-1]))
    return make


def blurred(sigma: float) -> Callable[[np.ndarray], Variant]:
    def make(rgb: np.ndarray) -> Variant:
        return Variant(cv2.GaussianBlur(rgb, (0, 0), sigma))
    return make


def cropped(margin: float, tiles: np.ndarray) -> Callable[[np.ndarray], Variant]:
    """Framed tightly: `margin` of the photo's size left around the tiles' corners (or less, at the photo's edge)."""
    def make(rgb: np.ndarray) -> Variant:
        height, width = rgb.shape[:2]
        pad = margin * np.array([width, height])
        low = np.maximum(np.floor(tiles.min(axis=0) - pad), 0).astype(int)
        high = np.minimum(np.ceil(tiles.max(axis=0) + pad), [width, height]).astype(int)
        image = np.ascontiguousarray(rgb[low[1]:high[1], low[0]:high[0]])
        return Variant(image, np.array([[1, 0, -low[0]], [0, 1, -low[1]]], float))
    return make


def tilted(narrower: float) -> Callable[[np.ndarray], Variant]:
    """The phone tilted towards the table's far side: the photo's top edge `narrower` shorter than its bottom, the
    space beside it going on as the photo's border does."""
    def make(rgb: np.ndarray) -> Variant:
        height, width = rgb.shape[:2]
        inset = narrower * width / 2
        source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        target = np.float32([[inset, 0], [width - inset, 0], [width, height], [0, height]])
        tilt = cv2.getPerspectiveTransform(source, target)
        return Variant(cv2.warpPerspective(rgb, tilt, (width, height), flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_REPLICATE), tilt)
    return make


def shadowed(depth: float) -> Callable[[np.ndarray], Variant]:
    """A phone's soft shadow over the middle left of the photo, `depth` of the light left in it."""
    return lambda rgb: Variant(cast_shadow(rgb, (0.4, 0.45), 0.25, depth))


def glared(strength: float) -> Callable[[np.ndarray], Variant]:
    """A lamp reflected off the glossy print near the middle: a soft round patch washed towards white."""
    def make(rgb: np.ndarray) -> Variant:
        height, width = rgb.shape[:2]
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        reach = 0.12 * max(height, width)
        patch = strength * np.exp(-((xs - 0.55 * width) ** 2 + (ys - 0.5 * height) ** 2) / (2 * reach**2))
        return Variant(np.clip(rgb + (255 - rgb.astype(np.float32)) * patch[..., None], 0, 255).astype(np.uint8))
    return make


def variants(tile_corners: np.ndarray) -> dict[str, Callable[[np.ndarray], Variant]]:
    return {
        "as taken": lambda rgb: Variant(rgb),
        "scale 50%": scaled(0.5),
        "scale 25%": scaled(0.25),
        "turned 90": rotated(90, tile_corners),
        "turned 180": rotated(180, tile_corners),
        "turned 7": rotated(7, tile_corners),
        "turned -7": rotated(-7, tile_corners),
        "warm light": light((1.0, 0.86, 0.66)),
        "cool shade": light((0.80, 0.90, 1.0)),
        "dim": light((0.55, 0.55, 0.55)),
        "flat haze": light((0.65, 0.65, 0.65), 70),
        "shade 40%": shaded(0.6),
        "tilted 25%": tilted(0.25),
        "phone shadow": shadowed(0.45),
        "lamp glare": glared(0.8),
        "jpeg 60": jpeg(60),
        "blur 1.5": blurred(1.5),
        "crop 3%": cropped(0.03, tile_corners),
    }


# ---- the truth, moved with the photo -----------------------------------------------------------------------------

def placed_truth(truth: dict, photo) -> tuple[dict, np.ndarray]:
    """The truth with every tile's centre and corners in the photo's pixels, and all those corners (n x 4 x 2).

    Grids take their tiles' places from the photo's own reading, numbered row by row as grid_rc is."""
    tiles = truth["tiles"]
    if "grid_rc" in tiles[0]:
        quads = cut_halves(photo, len(tiles)).quads
        if len(quads) != len(tiles):
            raise SystemExit(f"{photo.source}: {len(quads)} tiles found, so the grid's tiles have no places")
        ordered = sorted(tiles, key=lambda t: tuple(t["grid_rc"]))
        placed = [dict(tile, quad=np.asarray(quad.corners, float)) for tile, quad in zip(ordered, quads)]
    else:
        scale = max(photo.size) / TRUTH_SIDE
        placed = [dict(tile, quad=np.asarray(tile["quad_1600"], float) * scale) for tile in tiles]
    return dict(truth, tiles=placed), np.concatenate([t["quad"] for t in placed])


def north_side(corners: np.ndarray) -> int:
    """Which side of clockwise corners (side i runs from corner i to i+1) faces most nearly up."""
    direction = np.roll(corners, -1, axis=0) - corners
    upness = direction[:, 0] / np.linalg.norm(direction, axis=1)  # outward normal (dy, -dx), up is -y: dx
    return int(np.argmax(upness))


def moved_truth(placed: dict, variant: Variant, photo_size: tuple[int, int]) -> dict:
    """The truth of the variant, in bench/realphotos.py's terms for a scattered photo (centre at 1600 px)."""
    height, width = variant.image.shape[:2]
    moved = np.eye(3) if variant.moved is None else variant.moved
    moved = np.vstack([moved, [0, 0, 1]]) if moved.shape[0] == 2 else moved
    to_truth = TRUTH_SIDE / max(width, height)
    tiles = []
    for tile in placed["tiles"]:
        corners = order_clockwise(tile["quad"])
        # turning, scaling and a camera tilted towards the tiles keep the corners clockwise
        turned = cv2.perspectiveTransform(corners[None].astype(np.float64), moved)[0]
        edges = np.roll(tile["edges"], north_side(corners) - north_side(turned)).tolist()
        tiles.append({"edges": edges, "center_1600": (turned.mean(axis=0) * to_truth).tolist(),
                      "quad_1600": (turned * to_truth).tolist()})
    return dict(placed, tiles=tiles)


# ---- running and drawing -----------------------------------------------------------------------------------------

def drawn(image: np.ndarray, scored: Scored, truth: dict) -> np.ndarray:
    """The variant with the outlines found (green) and the true centres (red)."""
    canvas = np.ascontiguousarray(image[:, :, ::-1])
    thick = max(2, round(max(image.shape[:2]) / 500))
    for quad in scored.quads:
        cv2.polylines(canvas, [np.round(quad.corners).astype(np.int32)], True, (0, 255, 0), thick)
        cv2.circle(canvas, tuple(np.round(quad.corners[0]).astype(int)), 3 * thick, (255, 0, 0), -1)
    scale = max(image.shape[:2]) / TRUTH_SIDE
    for tile in truth["tiles"]:
        cv2.circle(canvas, tuple(np.round(np.array(tile["center_1600"]) * scale).astype(int)), 3 * thick,
                   (0, 0, 255), -1)
    return cv2.resize(canvas, None, fx=1000 / max(image.shape[:2]), fy=1000 / max(image.shape[:2]),
                      interpolation=cv2.INTER_AREA)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, default=ROOT.parent / "shared" / "realphotos")
    parser.add_argument("--only", nargs="*", help="photo names (stems) to run")
    parser.add_argument("--variants", nargs="*", help="variant names to run (as printed)")
    parser.add_argument("--draw", type=Path, help="write the variants not read right here, outlines drawn")
    args = parser.parse_args()
    folder = args.folder
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png")) \
        if folder.is_dir() else []
    photos = [p for p in photos if not args.only or p.stem in args.only]
    if not photos:
        print(f"no photos in {folder}")
        return 1
    print(f"photosolve on real photos made otherwise, no templates — {folder}, {time.strftime('%Y-%m-%d %H:%M')}")
    print(HEADER)
    tally: dict[str, list[int]] = {}
    for path in photos:
        photo = load_photo(path)
        placed, corners = placed_truth(json.loads(path.with_suffix(".truth.json").read_text()), photo)
        for name, make in variants(corners).items():
            if args.variants and name not in args.variants:
                continue
            variant = make(photo.image)
            truth = moved_truth(placed, variant, photo.size)
            scored = read_and_score(lambda: photo_from_array(variant.image, f"{path.stem} {name}"), truth)
            good = scored.verdict == "true" and scored.questions == 0
            tally.setdefault(name, []).append(good)
            print(scored.row(f"{path.stem[:14]} {name}"), flush=True)
            if args.draw and not (good and scored.right == scored.total):
                args.draw.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(args.draw / f"{path.stem}_{name.replace(' ', '_').replace('%', '')}.png"),
                            drawn(variant.image, scored, truth))
    print("solved true with no question: " + ", ".join(f"{name} {sum(v)}/{len(v)}" for name, v in tally.items()))
    print(f"all: {sum(map(sum, tally.values()))}/{sum(map(len, tally.values()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
