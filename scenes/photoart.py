"""Photographs to print on tiles: colour photos bundled with scikit-image (skimage.data), all free to use.

Licences, as skimage.data's docstrings state them:
  astronaut  NASA Great Images, public domain          chelsea    CC0 (Stefan van der Walt)
  coffee     CC0 (Rachel Michetti)                     rocket     SpaceX, public domain
  hubble     NASA, public domain                       ihc        immunohistochemistry, no known copyright
  retina     Wikimedia, CC0 1.0                        textures   brick, grass, gravel: CC0 / public domain
A photographic motif is a crop of one of these (a box in fractions of the photo), so several motifs can come from
one photo: alike in colour, different in shape, as the hard photographic puzzles are.
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

# Each photo with the boxes (x0, y0, x1, y1 in fractions) that hold a subject worth a motif; measured by eye on
# the bundled images, so a crop is a thing (a face, a cup, a galaxy), not a patch of sky.
PHOTOS: dict[str, tuple[tuple[float, float, float, float], ...]] = {
    "astronaut": ((0.30, 0.05, 0.70, 0.60), (0.00, 0.00, 0.35, 0.45), (0.35, 0.55, 0.95, 1.00),
                  (0.55, 0.00, 1.00, 0.45)),
    "chelsea": ((0.20, 0.05, 0.75, 0.90), (0.35, 0.15, 0.60, 0.55), (0.55, 0.30, 1.00, 1.00)),
    "coffee": ((0.10, 0.05, 0.75, 0.95), (0.20, 0.20, 0.55, 0.75), (0.55, 0.00, 1.00, 0.60)),
    "rocket": ((0.35, 0.00, 0.65, 1.00), (0.00, 0.40, 0.40, 1.00), (0.60, 0.30, 1.00, 0.95)),
    "hubble": ((0.00, 0.00, 0.45, 0.45), (0.50, 0.05, 0.95, 0.50), (0.05, 0.50, 0.50, 0.95),
               (0.50, 0.50, 0.95, 0.95)),
    "ihc": ((0.00, 0.00, 0.50, 0.50), (0.50, 0.00, 1.00, 0.50), (0.00, 0.50, 0.50, 1.00),
            (0.50, 0.50, 1.00, 1.00)),
    "retina": ((0.15, 0.15, 0.85, 0.85), (0.30, 0.30, 0.70, 0.70), (0.50, 0.20, 0.95, 0.80)),
}
TEXTURES = ("brick", "grass", "gravel")  # grey photos, tinted to print a busy face behind the figures


@lru_cache(maxsize=16)
def photo(name: str) -> np.ndarray:
    """One bundled photo (or grey texture), RGB uint8, read-only."""
    from skimage import data

    loaders = {"astronaut": data.astronaut, "chelsea": data.chelsea, "coffee": data.coffee, "rocket": data.rocket,
               "hubble": data.hubble_deep_field, "ihc": data.immunohistochemistry, "retina": data.retina,
               "brick": data.brick, "grass": data.grass, "gravel": data.gravel}
    if name not in loaders:
        raise ValueError(f"unknown photo {name!r}: choose one of {', '.join(loaders)}")
    image = np.asarray(loaders[name]())
    if image.ndim == 2:
        image = np.repeat(image[..., None], 3, axis=2)
    image = np.ascontiguousarray(image[..., :3])
    image.setflags(write=False)
    return image


def crop(name: str, box: tuple[float, float, float, float], aspect: float) -> np.ndarray:
    """The photo's box, narrowed about its centre to width/height = `aspect` (RGB uint8)."""
    image = photo(name)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = box[0] * w, box[1] * h, box[2] * w, box[3] * h
    bw, bh = x1 - x0, y1 - y0
    if bw / bh > aspect:
        bw = bh * aspect
    else:
        bh = bw / aspect
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r0, c0 = int(round(cy - bh / 2)), int(round(cx - bw / 2))
    return image[max(0, r0):r0 + max(1, int(round(bh))), max(0, c0):c0 + max(1, int(round(bw)))]


def tinted_texture(name: str, shape: tuple[int, int], dark: tuple[int, int, int], light: tuple[int, int, int],
                   rng: np.random.Generator) -> np.ndarray:
    """A grey texture photo tiled over `shape` (H, W) and mapped from `dark` to `light` (float RGB 0..255)."""
    grey = cv2.cvtColor(photo(name), cv2.COLOR_RGB2GRAY).astype(np.float32) / 255
    h, w = shape
    scale = rng.uniform(0.5, 1.2) * max(h, w) / max(grey.shape)
    grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    reps = (h // grey.shape[0] + 1, w // grey.shape[1] + 1)
    grey = np.tile(grey, reps)[:h, :w]
    grey = (grey - grey.mean()) / (grey.std() + 1e-6) * 0.22 + 0.5
    t = np.clip(grey, 0, 1)[..., None]
    return np.asarray(dark, np.float32) * (1 - t) + np.asarray(light, np.float32) * t
