"""Read every edge half of a photo as a signed motif number, with a probability and the runner-up.

Each half is compared with the template examples of every label (its nearest example per label); the
distances become probabilities with a softmax whose width comes from the template set itself. Then the whole
photo is used: the halves read confidently become extra examples, so colours as this camera saw them count.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .templates import TemplateSet

CONFIDENT = 0.9


@dataclass(frozen=True)
class Reading:
    """What was read on every edge of every tile: parallel arrays of shape (tiles, 4), sides N E S W."""

    labels: np.ndarray  # signed motif numbers
    probabilities: np.ndarray  # probability of each label
    runner_up: np.ndarray  # the second most likely label
    runner_up_probabilities: np.ndarray
    candidates: np.ndarray  # (label_count,) the signed labels the columns of `posterior` stand for
    posterior: np.ndarray  # (tiles, 4, label_count) probability of every label on every edge
    templates: str = ""


def label_distances(features: np.ndarray, examples: np.ndarray, example_labels: np.ndarray,
                    candidates: np.ndarray) -> np.ndarray:
    """For each half (N x F), the distance to the nearest example of each candidate label: N x labels."""
    squared = (np.sum(features**2, axis=1)[:, None] + np.sum(examples**2, axis=1)[None, :]
               - 2.0 * features @ examples.T)
    distances = np.sqrt(np.maximum(squared, 0.0))
    result = np.full((len(features), len(candidates)), np.inf)
    for column, label in enumerate(candidates):
        mine = example_labels == label
        if mine.any():
            result[:, column] = distances[:, mine].min(axis=1)
    return result


def softmax_width(examples: np.ndarray, labels: np.ndarray) -> float:
    """A distance scale from the set itself: the typical distance from an example to its nearest same-label one."""
    squared = np.sum((examples[:, None] - examples[None]) ** 2, axis=2)
    np.fill_diagonal(squared, np.inf)
    same = np.where(labels[:, None] == labels[None], squared, np.inf).min(axis=1)
    finite = same[np.isfinite(same)]
    return float(np.sqrt(np.median(finite))) if len(finite) else 1.0


def posterior_from(distances: np.ndarray, width: float) -> np.ndarray:
    """Probabilities over labels from distances: a softmax on -(d / width)^2 / 2, computed stably."""
    logits = -0.5 * (distances / max(width, 1e-6)) ** 2
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=1, keepdims=True)


def read_halves(features: np.ndarray, templates: TemplateSet, adapt: bool = True) -> Reading:
    """Classify every half of every tile (features: tiles x 4 x F) against the template set."""
    tiles = features.shape[0]
    flat = features.reshape(tiles * 4, -1)
    examples, example_labels = templates.features, templates.labels
    candidates = np.array(sorted(set(int(v) for v in example_labels)))
    width = softmax_width(examples, example_labels)
    posterior = posterior_from(label_distances(flat, examples, example_labels, candidates), width)
    if adapt:
        # The photo's own confident halves join the examples: its light and camera then speak for themselves.
        confident = posterior.max(axis=1) >= CONFIDENT
        if confident.any():
            own_labels = candidates[posterior.argmax(axis=1)[confident]]
            examples = np.concatenate([examples, flat[confident]])
            example_labels = np.concatenate([example_labels, own_labels])
            distances = label_distances(flat, examples, example_labels, candidates)
            # A half must not vote for itself: use its distance to the *other* examples only.
            distances = leave_self_out(flat, examples, example_labels, candidates, confident, distances)
            posterior = posterior_from(distances, width)
    return reading_from(posterior.reshape(tiles, 4, -1), candidates, templates.name)


def leave_self_out(flat, examples, example_labels, candidates, confident, distances):
    """Distances recomputed for the confident halves without themselves among the examples."""
    own_rows = np.flatnonzero(confident)
    offset = len(examples) - len(own_rows)
    for k, row in enumerate(own_rows):
        keep = np.ones(len(examples), bool)
        keep[offset + k] = False
        distances[row] = label_distances(flat[row:row + 1], examples[keep], example_labels[keep], candidates)[0]
    return distances


def reading_from(posterior: np.ndarray, candidates: np.ndarray, templates: str = "") -> Reading:
    """Best and runner-up labels from a (tiles, 4, labels) posterior."""
    order = np.argsort(-posterior, axis=2)
    best, second = order[..., 0], order[..., 1]
    take = lambda index: np.take_along_axis(posterior, index[..., None], axis=2)[..., 0]
    return Reading(labels=candidates[best], probabilities=take(best), runner_up=candidates[second],
                   runner_up_probabilities=take(second), candidates=candidates, posterior=posterior,
                   templates=templates)


def fit_score(features: np.ndarray, templates: TemplateSet) -> float:
    """How well a template set explains a photo's halves: mean distance to the nearest example, in set widths."""
    flat = features.reshape(-1, features.shape[-1])
    examples = templates.features
    width = softmax_width(examples, templates.labels)
    squared = np.sum(flat**2, 1)[:, None] + np.sum(examples**2, 1)[None] - 2 * flat @ examples.T
    return float(np.mean(np.sqrt(np.maximum(squared.min(axis=1), 0))) / max(width, 1e-6))
