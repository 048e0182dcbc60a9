"""Pictures for people: the solved board built from the photo's own tiles, and the photo annotated with what was read.

Drawing is kept apart from reading: these functions take the results and return RGB arrays.
"""
from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..solver.search import Solution
from .rectify import rectify_tile
from .types import TileQuad

MAX_CELL = 400  # pixels per tile in solved.png: the photo's resolution, up to this (a 1200 px board for 3x3)


def solved_board(image: np.ndarray, quads: list[TileQuad], solution: Solution, cell: int | None = None) -> np.ndarray:
    """The solution as one picture: each tile cut from the full-resolution photo, turned, and laid in its cell."""
    if cell is None:
        cell = int(min(MAX_CELL, max(64, np.median([q.side for q in quads]))))
    rows, cols = len(solution.cells), len(solution.cells[0])
    board = np.zeros((rows * cell, cols * cell, 3), np.uint8)
    for r, row in enumerate(solution.cells):
        for c, placement in enumerate(row):
            crop = rectify_tile(image, quads[placement.tile - 1], cell)
            board[r * cell:(r + 1) * cell, c * cell:(c + 1) * cell] = np.rot90(crop, -placement.turns)
    return board


def font(size: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType: fixed-size bitmap font
        return ImageFont.load_default()


def annotate(image: np.ndarray, quads: list[TileQuad], labels: list[list[str]], doubtful: np.ndarray | None = None,
             places: list[str] | None = None, max_side: int = 2000) -> np.ndarray:
    """The photo with each tile's outline, number, read labels (doubtful ones in red) and where it goes."""
    scale = min(1.0, max_side / max(image.shape[:2]))
    canvas = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image.copy()
    picture = Image.fromarray(canvas)
    draw = ImageDraw.Draw(picture)
    side = float(np.median([q.side for q in quads])) * scale if quads else 100.0
    big, small = font(max(14, int(side / 5))), font(max(10, int(side / 17)))
    for number, quad in enumerate(quads, start=1):
        corners = quad.corners * scale
        draw.line([tuple(p) for p in np.vstack([corners, corners[:1]])], fill=(255, 40, 40), width=max(2, int(side / 120)))
        center = corners.mean(axis=0)
        draw_text(draw, center - np.array([0, side * 0.06]), str(number), big, (255, 255, 255))
        for s in range(4):
            middle = (corners[s] + corners[(s + 1) % 4]) / 2
            sure = doubtful is None or not doubtful[number - 1, s]
            text = f"{'NESW'[s]} {labels[number - 1][s]}" + ("" if sure else " ?")
            draw_text(draw, label_spot(draw, text, small, middle, center, side), text, small,
                      (255, 255, 255) if sure else (255, 220, 0))
        if places:
            draw_text(draw, center + np.array([0, side * 0.16]), places[number - 1], small, (120, 255, 120))
    return np.asarray(picture)


def label_spot(draw: ImageDraw.ImageDraw, text: str, typeface, middle: np.ndarray, center: np.ndarray,
               side: float) -> np.ndarray:
    """Where a side's label goes: just in from the middle of that side, its whole box inside its own tile, so that
    the labels of two touching tiles' facing sides do not run into each other (a long label on an east or west
    side reaches further in)."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=typeface)
    inward = center - middle
    length = max(float(np.linalg.norm(inward)), 1e-9)
    unit = inward / length
    # half the box's extent along the way in, as the box is drawn upright whatever the tile's turn
    reach = 0.5 * (abs(unit[0]) * (right - left) + abs(unit[1]) * (bottom - top))
    return middle + unit * min(0.03 * side + reach, 0.4 * length)  # never over the centre's notes


def draw_text(draw: ImageDraw.ImageDraw, center: np.ndarray, text: str, typeface, colour) -> None:
    """Text centred on a point, on a dark box so it reads on any tile."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=typeface)
    width, height = right - left, bottom - top
    x, y = center[0] - width / 2, center[1] - height / 2
    pad = max(2, height // 5)
    draw.rectangle([x - pad, y - pad, x + width + pad, y + height + pad], fill=(0, 0, 0))
    draw.text((x - left, y - top), text, font=typeface, fill=colour, align="center")
