"""What is printed on a tile's face behind the motifs: plain card, a strong colour, a coloured border, or a busy
picture or pattern. Real puzzles print all of these; a tile finder must not rely on a pale, plain face.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from . import photoart

RGB = tuple[int, int, int]
FACE_KINDS = ("plain", "strong", "border", "busy")
BUSY_PATTERNS = ("brick", "grass", "gravel", "photo", "dots", "stripes")


@dataclass(frozen=True)
class FacePrint:
    """A face design: `colour` is the face's own colour (of the card, or the inside of a border); `accent` the
    border's or the pattern's second colour; `pattern` which busy picture; `seed` fixes its placement."""

    kind: str = "plain"
    colour: RGB = (244, 240, 228)
    accent: RGB = (60, 60, 60)
    pattern: str = ""
    band: float = 0.07  # a border's width, of the side
    seed: int = 0


@lru_cache(maxsize=32)
def face_rgb(design: FacePrint, size: int) -> np.ndarray:
    """The face as printed, before the motifs: float32 RGB 0..255 (size x size), read-only."""
    if design.kind not in FACE_KINDS:
        raise ValueError(f"unknown face kind {design.kind!r}: choose one of {', '.join(FACE_KINDS)}")
    rgb = np.empty((size, size, 3), np.float32)
    rgb[:] = np.asarray(design.colour, np.float32)
    if design.kind == "busy":
        rgb = _busy(design, size)
    elif design.kind == "border":
        c = np.abs(np.arange(size) + 0.5 - size / 2)
        inward = size / 2 - np.maximum(c[None, :], c[:, None])  # distance from the outline, pixels
        band = np.clip(design.band * size - inward + 0.5, 0, 1)[..., None]
        rgb = rgb * (1 - band) + np.asarray(design.accent, np.float32) * band
    rgb.setflags(write=False)
    return rgb


def _busy(design: FacePrint, size: int) -> np.ndarray:
    rng = np.random.default_rng([design.seed, 4099])
    pattern = design.pattern
    if pattern in photoart.TEXTURES:
        return photoart.tinted_texture(pattern, (size, size), design.accent, design.colour, rng)
    if pattern == "photo":
        # a landscape-like print: a photo softened towards the face colour, as a picture behind figures is
        name = ("hubble", "coffee", "chelsea", "retina")[int(rng.integers(4))]
        image = photoart.photo(name)
        side = min(image.shape[:2])
        y, x = (int(rng.integers(0, image.shape[0] - side + 1)), int(rng.integers(0, image.shape[1] - side + 1)))
        square = cv2.resize(np.ascontiguousarray(image[y:y + side, x:x + side]), (size, size),
                            interpolation=cv2.INTER_AREA if side > size else cv2.INTER_LINEAR)
        fade = rng.uniform(0.15, 0.5)
        return square.astype(np.float32) * (1 - fade) + np.asarray(design.colour, np.float32) * fade
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    if pattern == "dots":
        pitch = rng.uniform(0.06, 0.11)
        angle = rng.uniform(0, np.pi)
        u = (np.cos(angle) * xx + np.sin(angle) * yy) / pitch
        v = (-np.sin(angle) * xx + np.cos(angle) * yy) / pitch
        d = np.hypot(u - np.round(u), v - np.round(v))
        ink = np.clip((0.28 - d) * size * pitch + 0.5, 0, 1)
    elif pattern == "stripes":
        pitch = rng.uniform(0.05, 0.12)
        angle = rng.uniform(0, np.pi)
        u = (np.cos(angle) * xx + np.sin(angle) * yy) / pitch
        ink = np.clip((np.abs(u - np.round(u)) - 0.25) * size * pitch + 0.5, 0, 1)
    else:
        raise ValueError(f"unknown busy pattern {pattern!r}: choose one of {', '.join(BUSY_PATTERNS)}")
    ink = ink[..., None]
    return np.asarray(design.colour, np.float32) * (1 - ink) + np.asarray(design.accent, np.float32) * ink
