"""Plain values that flow through the photo pipeline, from the loaded photo to the read edges."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import mean_side


@dataclass(frozen=True)
class Photo:
    """An upright RGB photo (EXIF orientation applied) and a downscaled copy to search in."""

    image: np.ndarray  # H x W x 3 uint8 RGB, full resolution
    work: np.ndarray  # the same photo downscaled so its longer side is at most WORK_SIDE
    scale: float  # full-resolution pixels per work pixel
    source: str

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in full-resolution upright pixels."""
        return self.image.shape[1], self.image.shape[0]


@dataclass(frozen=True)
class TileQuad:
    """Where one tile lies in the photo: its top face's corners in full-resolution pixels.

    Corners run clockwise from the corner between the tile's W and N sides, N being the side that faces
    most nearly up in the photo.
    """

    corners: np.ndarray  # 4 x 2 float (x, y)

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def side(self) -> float:
        """Mean side length in pixels."""
        return mean_side(self.corners)


@dataclass(frozen=True)
class EdgeRead:
    """One edge half as read: its signed label, how sure, and the best other label."""

    label: int
    probability: float
    runner_up: int
    runner_up_probability: float
