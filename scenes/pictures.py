"""Motifs that are pictures, not drawings: an emoji glyph or a photo crop, laid whole across the cut.

artwork.py draws a motif whole in a frame (2 * depth tall, width wide, the cut across its middle) and cuts it; a
Picture fills that frame. An emoji is scaled as large as fits inside the half's triangle (so it is never clipped and
neighbouring halves never touch) and centred on the cut; a photo fills the frame, shaped by an oval, a rounded box or
the whole triangle (figures covering most of the tile). A Recolour moves one band of hues, which makes one figure in
several colours, or a variant that differs in small details only (a band or two, seen on both halves).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import emoji, photoart

PHOTO_SHAPES = ("triangle", "oval", "rounded")


@dataclass(frozen=True)
class Recolour:
    """Pixels whose hue lies within `width` degrees of `hue` (and that have colour at all) get hue `to`."""

    hue: float
    width: float
    to: float
    value: float = 1.0  # brightness factor of the moved pixels (a darker or paler variant)


@dataclass(frozen=True)
class Picture:
    """What a picture motif shows: source 'emoji' (key: the emoji) or 'photo' (key: photoart name, box)."""

    source: str
    key: str
    box: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)
    shape: str = "triangle"  # photos only: PHOTO_SHAPES
    recolour: tuple[Recolour, ...] = ()  # bands of hues moved, in turn


def _hsv(rgb: np.ndarray) -> np.ndarray:
    """Float HSV: hue in degrees 0..360, saturation and value 0..1."""
    return cv2.cvtColor(rgb.astype(np.float32) / 255, cv2.COLOR_RGB2HSV)


def hue_bands(rgba: np.ndarray) -> list[tuple[float, float]]:
    """The picture's coloured hue bands, (hue in degrees, share of the inked pixels), largest first: where a
    Recolour can change the whole figure's colour (the largest) or a small detail (a band of a few percent)."""
    hsv = _hsv(rgba[..., :3])
    inked = rgba[..., 3] > 128
    coloured = inked & (hsv[..., 1] > 0.35) & (hsv[..., 2] > 0.25)
    counts, _ = np.histogram(hsv[..., 0][coloured], bins=24, range=(0, 360))
    total = max(1, int(inked.sum()))
    bands = []
    for i in range(24):
        around = counts[[(i - 1) % 24, (i + 1) % 24]]
        if counts[i] > 0 and counts[i] >= around.max() and counts[i] > around.min():
            share = (counts[i] + around.sum()) / total
            bands.append((15.0 * i + 7.5, float(share)))
    return sorted(bands, key=lambda b: -b[1])


def recoloured(rgb: np.ndarray, change: Recolour | None) -> np.ndarray:
    """RGB uint8 with one band of hues moved (soft at the band's edges, so no seams appear)."""
    if change is None:
        return rgb
    hsv = _hsv(rgb)
    distance = np.abs((hsv[..., 0] - change.hue + 180) % 360 - 180)
    weight = np.clip((change.width - distance) / (0.3 * change.width), 0, 1)
    weight *= np.clip((hsv[..., 1] - 0.15) / 0.15, 0, 1)
    shift = (change.to - change.hue) * weight
    hsv[..., 0] = (hsv[..., 0] + shift) % 360
    hsv[..., 2] *= 1 + (change.value - 1) * weight
    out = cv2.cvtColor(np.clip(hsv, 0, [360, 1, 1]).astype(np.float32), cv2.COLOR_HSV2RGB)
    return np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)


def source_rgba(picture: Picture, aspect: float) -> np.ndarray:
    """The picture before scaling, straight-alpha RGBA uint8 (photos cropped to width/height = aspect)."""
    if picture.source == "emoji":
        rgba = np.array(emoji.glyph(picture.key))
    elif picture.source == "photo":
        rgb = photoart.crop(picture.key, picture.box, aspect)
        rgba = np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)])
    else:
        raise ValueError(f"unknown picture source {picture.source!r}: 'emoji' or 'photo'")
    for change in picture.recolour:
        rgba[..., :3] = recoloured(rgba[..., :3], change)
    return rgba


def whole(picture: Picture, height: int, width: int, scale: float, reach: float) -> np.ndarray:
    """The whole picture in a frame of `height` x `width` pixels with the cut across its middle, premultiplied
    RGBA uint8; `scale` is pixels per tile side and `reach` how far (in sides, |x| + |y|) a half may extend."""
    rgba = source_rgba(picture, width / height)
    if picture.source == "emoji":
        return _fitted(rgba, height, width, scale * reach)
    alpha = np.zeros((height, width), np.uint8)
    if picture.shape == "oval":
        cv2.ellipse(alpha, (((width - 1) / 2, (height - 1) / 2), (width - 2, height - 2), 0), 255, -1, cv2.LINE_AA)
    elif picture.shape == "rounded":
        r = int(0.18 * min(width, height))
        cv2.rectangle(alpha, (r, 1), (width - 1 - r, height - 2), 255, -1)
        cv2.rectangle(alpha, (1, r), (width - 2, height - 1 - r), 255, -1)
        for cx, cy in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
            cv2.circle(alpha, (cx, cy), r - 1, 255, -1, cv2.LINE_AA)
    elif picture.shape == "triangle":
        alpha[:] = 255  # artwork clips every half to its triangle: the photo fills it
    else:
        raise ValueError(f"unknown photo shape {picture.shape!r}: choose one of {', '.join(PHOTO_SHAPES)}")
    rgb = cv2.resize(rgba[..., :3], (width, height), interpolation=cv2.INTER_AREA
                     if rgba.shape[1] > width else cv2.INTER_CUBIC)
    return _premultiplied(np.dstack([rgb, alpha]))


def _fitted(rgba: np.ndarray, height: int, width: int, reach: float) -> np.ndarray:
    """The glyph as large as fits the frame and the diamond |x| + |y| <= reach (pixels) about the frame's
    centre, centred on it."""
    ys, xs = np.nonzero(rgba[..., 3] > 24)
    u = np.abs(xs + 0.5 - rgba.shape[1] / 2)
    v = np.abs(ys + 0.5 - rgba.shape[0] / 2)
    s = 0.98 * min(width / 2 / u.max(), height / 2 / v.max(), reach / (u + v).max())
    w, h = max(1, int(round(rgba.shape[1] * s))), max(1, int(round(rgba.shape[0] * s)))
    small = cv2.resize(_premultiplied(rgba), (w, h), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    out = np.zeros((height, width, 4), np.uint8)
    y0, x0 = (height - h) // 2, (width - w) // 2
    out[max(0, y0):y0 + h, max(0, x0):x0 + w] = small[max(0, -y0):max(0, -y0) + min(h, height),
                                                      max(0, -x0):max(0, -x0) + min(w, width)]
    return out


def _premultiplied(rgba: np.ndarray) -> np.ndarray:
    out = rgba.copy()
    out[..., :3] = (rgba[..., :3].astype(np.uint16) * rgba[..., 3:4] // 255).astype(np.uint8)
    return out
