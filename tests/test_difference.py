"""Halves compared by where they differ most, lined up (vision/read/difference.py). Real generated photos, cut at
their true corners."""
from __future__ import annotations

import cv2
import numpy as np

from photosolve.vision.read.difference import PAIRS_AT_ONCE, largest_differences, shifted_by, with_shifts
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


def test_a_copy_under_glare_is_nearer_than_a_half_with_a_white_detail():
    bands, _, truth = halves_at_true_corners("emoji-animals", 4, 10008, "medium")
    flat = bands.reshape(-1, *bands.shape[2:])
    half = flat[int(np.argmax(truth.ravel() == truth.ravel()[0]))]
    height, width = half.shape[:2]
    # a lamp's glare: white mixed in, strongest at one end of the edge, as a glossy print reflects it
    strength = np.linspace(0.6, 0.0, width)[None, :, None] * np.ones((height, 1, 1))
    glared = half + strength * (1.0 - half)
    detail = half.copy()  # a white patch of 4% of the band where the figure is darkest: a white hat, not glare
    darkness = cv2.blur((1.0 - half).sum(axis=2), (12, 6))
    darkness[:4], darkness[height // 2:] = 0, 0  # within the figure's half nearest the edge, off the outline's rows
    top, left = np.unravel_index(np.argmax(darkness[:, 6:-6]), darkness[:, 6:-6].shape)
    detail[top - 3: top + 3, left: left + 12] = 1.0
    distances = largest_differences(np.stack([half, glared, detail]))
    assert distances[0, 2] > 10 * distances[0, 1]  # compared as they are, 6 times


def test_copies_are_nearer_each_other_than_any_other_half():
    bands, _, truth = halves_at_true_corners("emoji-food", 6, 10001, "hard")
    distances = largest_differences(bands.reshape(-1, *bands.shape[2:]))
    labels = truth.ravel()
    same = (labels[:, None] == labels[None]) & ~np.eye(len(labels), dtype=bool)
    nearest_other = np.where(labels[:, None] != labels[None], distances, np.inf).min(axis=1)
    has_copy = same.any(axis=1)
    nearest_copy = np.where(same, distances, np.inf).min(axis=1)
    assert np.mean(nearest_copy[has_copy] < nearest_other[has_copy]) > 0.95


def test_a_picture_shifted_alone_is_the_one_among_every_shift():
    bands, _, _ = halves_at_true_corners("emoji-animals", 4, 10008, "medium")
    pictures = bands.reshape(-1, *bands.shape[2:])[:5]
    shifts = np.array([(across, along) for across in range(-3, 4) for along in range(-3, 4)])
    cells = np.ones(pictures.shape[1:3], bool)
    cells[::3] = False  # some rows left out: with_shifts gives the rest, in order
    every = with_shifts(pictures, shifts, cells)  # pictures x shifts x cells x 3
    which, chosen = np.array([0, 4, 2, 2]), np.array([0, 48, 3, 45])  # shift 0 is (-3, -3), 48 is (3, 3)
    assert np.array_equal(shifted_by(pictures, which, shifts[chosen])[:, cells], every[which, chosen])
    assert not np.array_equal(every[2, 3], every[2, 24])  # shift 24 is (0, 0): the shifts do move the picture


def test_a_pair_differs_as_much_whichever_halves_are_compared_beside_it():
    """The pairs are compared a few dozen at a time (PAIRS_AT_ONCE): a photo's 630 pairs fall into several batches,
    and each pair's difference is its own, as when the two are compared alone."""
    bands, _, _ = halves_at_true_corners("emoji-food", 6, 10001, "hard")
    flat = bands.reshape(-1, *bands.shape[2:])
    every = largest_differences(flat)
    assert len(flat) * (len(flat) - 1) // 2 > 2 * PAIRS_AT_ONCE
    for one, other in ((0, 1), (3, 30), (34, 35)):  # the first pair, one in a middle batch, the last
        alone = largest_differences(flat[[one, other]])
        assert np.isclose(alone[0, 1], every[one, other], rtol=1e-3)
