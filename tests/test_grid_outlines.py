"""Tiles laid in a grid with narrow gaps: an L of tiles joined in the mask and the tile in its crook are one block."""
from __future__ import annotations

import numpy as np

from photosolve.vision.find.outlines import tile_components

SIDE = 100  # pixels, each square tile below


def mask_of(boxes: list[tuple[int, int, int, int]], shape=(400, 500)) -> np.ndarray:
    """A mask of axis-aligned boxes, each (left, top, width, height)."""
    mask = np.zeros(shape, np.uint8)
    for left, top, width, height in boxes:
        mask[top:top + height, left:left + width] = 255
    return mask


def test_an_l_of_tiles_and_the_tile_in_its_crook_are_one_block():
    # A 2 x 2 grid with narrow gaps: the right column's tiles touch, the bottom left one lies 2 px from them, the
    # top left one 10 px from all. The outline of the L of three reaches over the top left tile: counted apart,
    # the L would pass for a block of four and the grid for five tiles.
    mask = mask_of([(50, 50, SIDE, SIDE), (160, 50, SIDE, 2 * SIDE), (58, 160, SIDE, SIDE)])
    assert [count for _, count in tile_components(mask, 4)[0]] == [4]
