"""Read a puzzle never seen before: group the photo's own halves into motifs and their two halves, no templates.

The two halves of one motif share its colours (a red beetle's head and tail are both red) but differ in shape
(head against tail). So the halves are grouped by colour into M motifs (Ward's hierarchical clustering of
colour histograms), and each motif's halves are split in two by shape. The number of motifs M is not known:
too few merges two motifs, which still lets the tiles fit; too many splits one, which breaks seams. The solver
decides: each M's reading is repaired (solver/repair.py), and the largest M whose reading is nearly consistent
wins. Probabilities come from distances to each half-type's mean, as for template reads, so review and repair
work the same.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage

from ..solver.repair import repair
from .classify import Reading, posterior_from, reading_from
from .rectify import territory
from .templates import TemplateSet

SELF_READ_NAME = "learned from the photo"  # the name of the set a photo read on its own amounts to
MOTIF_RANGE = range(3, 9)  # how many motifs a puzzle may have
CONSISTENT = 3.0  # log units: a reading repaired for less than this counts as consistent
TRIAL_NODES = 100_000  # a trial reading's repair is cut short here: about 0.2 s
NEAR_EQUAL = 0.8  # a number of motifs whose colour jump is this close to the largest is also tried
SHAPE_THUMB = (12, 24)  # rows, columns of a half's silhouette thumbnail


@dataclass(frozen=True)
class SelfReading:
    """What the photo's halves say about themselves: the reading, the set it amounts to, and how M was chosen."""

    reading: Reading
    templates: TemplateSet
    motifs: int
    repair_costs: dict[int, float]  # number of motifs tried -> cost of the cheapest consistent reading


def lab_of(band: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A white-balanced half's territory mask, its Lab pixels, and which of them are motif (not face)."""
    inside = territory(*band.shape[:2])
    neutral = np.where(inside[:, :, None], band, 1.0).astype(np.float32)
    lab = cv2.cvtColor(np.clip(neutral, 0, 1), cv2.COLOR_RGB2LAB)
    lightness, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    motif = ((np.hypot(a, b) > 12) | (lightness < 75)) & inside
    return inside, lab, motif


def colour_descriptor(band: np.ndarray) -> np.ndarray:
    """The motif's colours as a Lab histogram (4 lightness x 6 x 6 chroma bins), square-rooted (Hellinger)."""
    _, lab, motif = lab_of(band)
    counts = np.histogramdd(lab[motif], bins=(4, 6, 6), range=((0, 100), (-60, 60), (-60, 60)))[0].ravel()
    return np.sqrt(counts / max(counts.sum(), 1.0))


def shape_descriptor(band: np.ndarray) -> np.ndarray:
    """The motif's silhouette and its dark parts as small thumbnails: what tells a head from a tail."""
    inside, lab, motif = lab_of(band)
    size = (SHAPE_THUMB[1], SHAPE_THUMB[0])
    silhouette = cv2.resize(motif.astype(np.float32), size, interpolation=cv2.INTER_AREA)
    dark = cv2.resize(((lab[..., 0] < 45) & inside).astype(np.float32), size, interpolation=cv2.INTER_AREA)
    return np.concatenate([silhouette.ravel(), dark.ravel()])


def group_by_colour(colours: np.ndarray, motifs: int) -> np.ndarray:
    """Each half's motif group, 0..motifs-1, by Ward's clustering of colour descriptors."""
    groups = fcluster(linkage(colours, "ward"), motifs, "maxclust") - 1
    return groups


def split_in_two(shapes: np.ndarray) -> np.ndarray:
    """Two-means of shape descriptors, the best of starts from every pair of halves: True for the second part.

    Every pair is tried because a motif may have one head and several tails: a single start from the two most
    different halves can split the tails among themselves instead.
    """
    count = len(shapes)
    if count < 2:
        return np.zeros(count, bool)
    best, best_inertia = np.zeros(count, bool), np.inf
    for first in range(count):
        for second in range(first + 1, count):
            side = two_means(shapes, shapes[[first, second]])
            if side.all() or not side.any():
                continue
            inertia = sum(float(np.sum((shapes[part] - shapes[part].mean(0)) ** 2)) for part in (side, ~side))
            if inertia < best_inertia - 1e-9:
                best, best_inertia = side, inertia
    return best if best[0] else ~best  # the part holding the first half is "first": a stable numbering


def two_means(points: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Lloyd's iterations from two given centres: True for points nearer the second centre."""
    side = np.zeros(len(points), bool)
    for _ in range(20):
        new_side = np.sum((points - centres[1]) ** 2, 1) < np.sum((points - centres[0]) ** 2, 1)
        if new_side.all() or not new_side.any() or np.array_equal(new_side, side):
            return new_side
        side = new_side
        centres = np.stack([points[~side].mean(0), points[side].mean(0)])
    return side


def labelling(colours: np.ndarray, shapes: np.ndarray, motifs: int) -> np.ndarray:
    """Signed motif numbers for every half: motif k = colour group k, + and - its two shapes."""
    groups = group_by_colour(colours, motifs)
    labels = np.zeros(len(colours), int)
    for group in range(motifs):
        members = np.flatnonzero(groups == group)
        second = split_in_two(shapes[members])
        labels[members] = np.where(second, -(group + 1), group + 1)
    return labels


def type_posterior(features: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Probability of every label for every half, from its distance to each label's mean (its own left out).

    A half alone in its type has no other member to be near: its distance to its own type is taken as the
    typical distance of a half to its own type's other members.
    """
    candidates = np.array(sorted(set(int(v) for v in labels)))
    columns = np.searchsorted(candidates, labels)
    distances = np.zeros((len(features), len(candidates)))
    alone = np.zeros(len(features), bool)
    for column, label in enumerate(candidates):
        members = labels == label
        total, count = features[members].sum(axis=0), int(members.sum())
        distances[:, column] = np.linalg.norm(features - total / count, axis=1)
        own = np.flatnonzero(members)
        if count > 1:  # a half must not vote for its own type: its type's mean without it
            distances[own, column] = np.linalg.norm(features[own] - (total[None] - features[own]) / (count - 1),
                                                    axis=1)
        else:
            alone[own] = True
    rows = np.arange(len(features))
    typical = float(np.median(distances[rows[~alone], columns[~alone]])) if (~alone).any() else 1.0
    distances[rows[alone], columns[alone]] = typical
    return posterior_from(distances, typical or 1.0), candidates


def combined_features(colours: np.ndarray, shapes: np.ndarray) -> np.ndarray:
    """Colour and shape on one scale: each part divided by its typical spread, so both count."""
    scale = lambda part: part / max(float(np.median(np.linalg.norm(part - part.mean(0), axis=1))), 1e-6)
    return np.concatenate([scale(colours), scale(shapes)], axis=1)


def motif_count_gaps(colours: np.ndarray, motif_range=MOTIF_RANGE) -> dict[int, float]:
    """For each plausible number of motifs M, how much more merging M groups into M-1 costs than M+1 into M.

    Distinct motifs are far apart in colour, and halves of one motif close: at the true M the Ward merge height
    jumps. Returns M -> height(M to M-1) / height(M+1 to M).
    """
    heights = linkage(colours, "ward")[::-1, 2]  # heights[k]: merging k+2 groups into k+1
    gaps = {}
    for motifs in motif_range:
        if motifs >= len(heights) or 4 * motifs > len(colours):
            break
        gaps[motifs] = float(heights[motifs - 2] / max(heights[motifs - 1], 1e-9))
    return gaps


def self_label(bands: np.ndarray, rows: int, cols: int, motif_range=MOTIF_RANGE) -> SelfReading:
    """Read the halves (bands: tiles x 4 x h x w x 3, white-balanced, edge on top) with no template set.

    The number of motifs is the one where colours jump most (motif_count_gaps); among numbers whose jump is
    nearly as large, the solver prefers one whose reading the tiles can be laid out with.
    """
    tiles = bands.shape[0]
    flat = bands.reshape(-1, *bands.shape[2:])
    colours = np.stack([colour_descriptor(band) for band in flat])
    shapes = np.stack([shape_descriptor(band) for band in flat])
    features = combined_features(colours, shapes)
    gaps = motif_count_gaps(colours, motif_range)
    best_gap = max(gaps.values())
    tried: dict[int, tuple[float, np.ndarray, np.ndarray]] = {}
    for motifs in sorted(gaps, key=gaps.get, reverse=True):
        if gaps[motifs] < NEAR_EQUAL * best_gap:
            break
        labels = labelling(colours, shapes, motifs)
        posterior, candidates = type_posterior(features, labels)
        posteriors = [[dict(zip(candidates.tolist(), posterior[t * 4 + s].tolist())) for s in range(4)]
                      for t in range(tiles)]
        tried[motifs] = (repair(posteriors, rows, cols, budget=3 * CONSISTENT, node_limit=TRIAL_NODES).cost,
                          posterior, candidates)
        if tried[motifs][0] <= CONSISTENT:
            break
    motifs = min(tried, key=lambda m: tried[m][0]) if all(c > CONSISTENT for c, _, _ in tried.values()) else \
        next(m for m, (cost, _, _) in tried.items() if cost <= CONSISTENT)
    _, posterior, candidates = tried[motifs]
    reading = reading_from(posterior.reshape(tiles, 4, -1), candidates, "none (read from the photo itself)")
    names = motif_names(flat, reading.labels.ravel())
    templates = TemplateSet(name=SELF_READ_NAME, motif_names=names, labels=reading.labels.ravel(),
                            bands=flat, half_names={name: {"+": "a", "-": "b"} for name in names.values()})
    return SelfReading(reading, templates, motifs, {m: cost for m, (cost, _, _) in tried.items()})


# Colour names a person would use, with their Lab (D65) coordinates.
COLOUR_NAMES = {
    "red": (50, 70, 50), "orange": (65, 40, 65), "yellow": (88, -5, 80), "green": (55, -50, 45),
    "teal": (50, -30, -8), "blue": (45, 10, -55), "navy": (25, 15, -45), "purple": (40, 45, -40),
    "pink": (70, 45, -5), "brown": (40, 20, 30), "tan": (70, 8, 30), "grey": (55, 0, 0), "black": (15, 0, 0),
}


def colour_name(lab: np.ndarray) -> str:
    """The nearest everyday colour name to a Lab colour."""
    names = list(COLOUR_NAMES)
    reference = np.array([COLOUR_NAMES[n] for n in names], float)
    return names[int(np.argmin(np.linalg.norm(reference - lab, axis=1)))]


def motif_names(bands: np.ndarray, labels: np.ndarray) -> dict[int, str]:
    """Each motif named by the typical colour of its halves ('red', 'blue'), numbered where two share a name."""
    names: dict[int, str] = {}
    for motif in sorted(set(abs(int(v)) for v in labels)):
        pixels = np.concatenate([lab[motif_mask] for _, lab, motif_mask in
                                 (lab_of(band) for band in bands[np.abs(labels) == motif])])
        colourful = pixels[np.hypot(pixels[:, 1], pixels[:, 2]) > 20]  # not outlines, wheels, eyes
        typical = colourful if len(colourful) > 0.2 * len(pixels) else pixels
        name = colour_name(np.median(typical, axis=0)) if len(typical) else f"motif{motif}"
        base, n = name, 2
        while name in names.values():
            name, n = f"{base}{n}", n + 1
        names[motif] = name
    return names
