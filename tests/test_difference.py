"""Halves compared by where they differ most, lined up (vision/read/difference.py). Real generated photos, cut at
their true corners."""
from __future__ import annotations

import numpy as np

from photosolve.vision.read.difference import largest_differences
from .test_selflabel_print import halves_at_true_corners


def test_a_copy_moved_a_little_is_near_and_a_small_detail_changed_is_far():
    bands, _, truth = halves_at_true_corners("emoji-animals", 4, 10008, "medium")
    flat = bands.reshape(-1, *bands.shape[2:])
    half = flat[int(np.argmax(truth.ravel() == truth.ravel()[0]))]
    height, width = half.shape[:2]
    moved = np.roll(half, (1, 2), axis=(0, 1))  # an outline found a pixel or two off
    detail = half.copy()  # a patch of 4% of the band, about the edge's middle, in another colour
    rows, cols = slice(height // 4, height // 4 + 6), slice(width // 2 - 6, width // 2 + 6)
    detail[rows, cols] = 1.0 - detail[rows, cols].mean(axis=(0, 1))  # the opposite of what is there
    distances = largest_differences(np.stack([half, moved, detail]))
    assert np.allclose(distances, distances.T) and np.all(np.diag(distances) == 0)
    assert distances[0, 2] > 10 * distances[0, 1]


def test_copies_are_nearer_each_other_than_any_other_half():
    bands, _, truth = halves_at_true_corners("emoji-food", 6, 10001, "hard")
    distances = largest_differences(bands.reshape(-1, *bands.shape[2:]))
    labels = truth.ravel()
    same = (labels[:, None] == labels[None]) & ~np.eye(len(labels), dtype=bool)
    nearest_other = np.where(labels[:, None] != labels[None], distances, np.inf).min(axis=1)
    has_copy = same.any(axis=1)
    nearest_copy = np.where(same, distances, np.inf).min(axis=1)
    assert np.mean(nearest_copy[has_copy] < nearest_other[has_copy]) > 0.95
