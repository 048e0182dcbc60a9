"""How sure a reading from the photo alone is of each half: the probability of every half-type for every half.

A half's type is as likely as it lies near that type's other members, against how far copies of one half lie from
each other in this photo (the typical distance), so review, repair and doubt treat a self-read half as they treat one
read against a template set (classify.posterior_from); a half far from every type says little by which it is nearest.
"""
from __future__ import annotations

import numpy as np

from .classify import posterior_from
from .descriptors import HalfDescriptors, squared_distances

CALIBRATION_RANGE = (1.0, 4.0)  # independent_directions is held within this
# A half further than this many typical distances from every type is doubted the more. Moved: 1.2 dev 89/60/7,
# test 35/18/5; 2.0 dev 90/62/7, test 35/18/7. With the third look (--balance; as set dev 96/60/6, test 39/18/6):
# 1.2 dev 95/59/7, test 39/18/4; 2.0 dev 96/61/6, test as set.
OUTLIER = 1.5


def half_posterior(descriptors: HalfDescriptors, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Probability of every label for every half: how like each half-type it looks, times how like each motif's
    colours its colours are. The second keeps a half that looks somewhat like another motif's half (a car's front
    like another car's) from being doubted when its colours are plainly its own motif's."""
    by_type, candidates = type_posterior_from_distances(descriptors.appearance, labels)
    by_motif, motifs = type_posterior(descriptors.colours, np.abs(labels))
    joint = by_type * by_motif[:, np.searchsorted(motifs, np.abs(candidates))]
    return joint / joint.sum(axis=1, keepdims=True), candidates


def type_posterior(features: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Probability of every label for every half, from its distance to each label's mean (its own left out)."""
    return type_posterior_from_distances(squared_distances(features), labels)


def type_posterior_from_distances(squared: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Probability of every label for every half, from its distance to each label's mean (its own left out),
    given only the squared distances between halves (group_mean_distances).

    A half alone in its type has no other member to be near: its distance to its own type is taken as the
    typical distance of a half to its own type's other members.
    """
    candidates = np.array(sorted(set(int(v) for v in labels)))
    columns = np.searchsorted(candidates, labels)
    distances = np.zeros((len(squared), len(candidates)))
    alone = np.zeros(len(squared), bool)
    for column, label in enumerate(candidates):
        members = labels == label
        if members.sum() == 1:
            alone[members] = True
        distances[:, column] = np.sqrt(np.maximum(group_mean_distances(squared, members), 0.0))
    rows = np.arange(len(squared))
    own = distances[rows[~alone], columns[~alone]]
    typical = float(np.median(own)) if (~alone).any() else 1.0
    distances[rows[alone], columns[alone]] = typical
    # A half far from every type (washed out by glare, half off its tile) is unlike all of them: which it is
    # nearest says little, so its distances are shrunk, as far as it lies beyond OUTLIER typical distances.
    unlike = np.maximum(distances.min(axis=1) / (OUTLIER * (typical or 1.0)), 1.0)
    width = (typical or 1.0) / np.sqrt(independent_directions(own**2))
    return posterior_from(distances / unlike[:, None], width), candidates


def group_mean_distances(squared: np.ndarray, members: np.ndarray) -> np.ndarray:
    """Every half's squared distance to the mean of a group of halves (members: boolean), a member's to the mean
    of the others, from squared distances alone: the mean squared distance to the members less half their mean
    squared distance among themselves. A lone member gets 0 (it has no others)."""
    count = int(members.sum())
    to_members = squared[:, members].sum(axis=1)  # a member's own term is zero
    spread = squared[np.ix_(members, members)].sum()
    centre = to_members / count - spread / (2 * count**2)
    if count > 1:  # a half must not vote for its own type: its type's mean without it
        own, rest = np.flatnonzero(members), count - 1
        centre[own] = to_members[own] / rest - (spread - 2 * to_members[own]) / (2 * rest**2)
    else:
        centre[members] = 0.0
    return centre


def independent_directions(own: np.ndarray) -> float:
    """How many independent directions the halves' spread about their types' means spans, from how alike those
    squared distances (own) are: for noise spread over k directions they vary by sqrt(2 / k) of their mean.

    Noise over many pixels adds up to about the same distance for every half, so a half twice that far from
    another type is far less likely of that type than a one-direction bell curve says. Taken from the medians
    (robust to the odd half under glare) and held within CALIBRATION_RANGE, as the odd outlier must stay doubtful.
    """
    if len(own) < 4:
        return 1.0
    centre = float(np.median(own))
    spread = 1.4826 * float(np.median(np.abs(own - centre)))
    return float(np.clip(2 * (centre / max(spread, 1e-9)) ** 2, *CALIBRATION_RANGE))
