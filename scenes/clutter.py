"""Things on the table beside the tiles, as real desks have them: a pen, a note, a coin, a phone.

Each differs from the table as a tile does, so a photo with them asks tile finding to tell a tile from an object that
is not one. They are laid in the table plane (so the camera's tilt and the light treat them as the tiles), never on a
tile, and wholly inside the photo.
"""
from __future__ import annotations

import cv2
import numpy as np

from . import photograph as ph

KINDS = ("pen", "note", "coin", "phone")


def thing_outline(kind: str, side: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One thing's outline about the origin (table pixels, turned at random) and its colour (RGB 0..1)."""
    if kind == "pen":
        length, width = side * rng.uniform(0.8, 1.1), side * rng.uniform(0.04, 0.06)
        colour = rng.choice([[0.10, 0.12, 0.35], [0.05, 0.05, 0.06], [0.60, 0.08, 0.08], [0.85, 0.85, 0.82]])
    elif kind == "note":
        length = width = side * rng.uniform(0.45, 0.7)
        colour = rng.choice([[0.98, 0.93, 0.45], [0.97, 0.97, 0.95], [0.60, 0.85, 0.95]])
    elif kind == "phone":
        length, width = side * rng.uniform(0.9, 1.1), side * rng.uniform(0.45, 0.55)
        colour = rng.choice([[0.06, 0.06, 0.07], [0.85, 0.85, 0.87]])
    else:  # a coin
        radius = side * rng.uniform(0.08, 0.14)
        angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        return np.c_[np.cos(angles), np.sin(angles)] * radius, np.array([0.72, 0.60, 0.35])
    corners = np.array([[-length, -width], [length, -width], [length, width], [-length, width]]) / 2
    turn = rng.uniform(0, np.pi)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    return corners @ rotation.T, np.asarray(colour, dtype=np.float64)


def lay_clutter(table: np.ndarray, footprints: list[np.ndarray], side: float, count: int, to_photo: np.ndarray,
                photo_size: tuple[int, int], away: np.ndarray, shadow: float, rng: np.random.Generator) -> int:
    """Lay up to `count` things on the table canvas (H x W x 3 float32) where no tile lies (footprints: the tiles'
    outlines on the canvas, a fifth of a side kept clear around each) and the photo sees them whole; returns how many
    found a place."""
    height, width = table.shape[:2]
    taken = np.zeros((height, width), np.uint8)
    clearance = np.ones((2 * max(1, int(0.2 * side)) + 1,) * 2, np.uint8)  # a fifth of a side all round
    for outline in footprints:
        cv2.fillPoly(taken, [np.round(outline).astype(np.int32)], 255)
    taken = cv2.dilate(taken, clearance)
    photo_width, photo_height = photo_size
    margin = 0.03 * min(photo_size)
    laid = 0
    for _ in range(count):
        outline, colour = thing_outline(KINDS[int(rng.integers(len(KINDS)))], side, rng)
        for _attempt in range(60):
            placed = outline + rng.uniform([0, 0], [width, height])
            seen = ph.apply_homography(to_photo, placed)
            if (seen.min() < margin or seen[:, 0].max() > photo_width - margin
                    or seen[:, 1].max() > photo_height - margin):
                continue
            mask = np.zeros_like(taken)
            cv2.fillPoly(mask, [np.round(placed).astype(np.int32)], 255)
            if np.any(mask & taken):
                continue
            ph.lay_shadows(table, [placed], side, away, shadow)
            ph.lay_band(table, placed, colour.astype(np.float32))
            taken |= cv2.dilate(mask, clearance)
            laid += 1
            break
    return laid
