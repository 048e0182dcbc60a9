"""Compare halves by their keypoints: does one show the same marks as the other, at the same places? (Measured as a
seventh distance of self-labelling's weighed look by bench/appearance_weights.py, and not taken: the halves sort
right more often, but the whole pipeline gained one photo a split and one wrong solution unasked, for 0.3 s a photo;
README.md's "Keypoints" paragraph gives the figures.)

Copies of one half are one print, and a print's corners, blobs and line ends are found again wherever it is
photographed, whatever the light: SIFT keypoints (the scale-invariant feature transform, Lowe 2004) and their
descriptors, as image alignment and near-duplicate search use them. Halves are rectified into one frame (edge on
top), so a copy's keypoint lies within a few pixels of the other copy's; two halves are as alike as the number of
keypoints of one whose best match in the other is a clear one (Lowe's ratio test) and lies at the same place.
Lightness alone, its local contrast evened (CLAHE), so that faint lines in a photographic print (vessels, grain,
hair) give keypoints too: the top and bottom of one photograph cut in half share colours and texture, and differ
there. Colour is the other distances' job.
"""
from __future__ import annotations

import cv2
import numpy as np

from photosolve.vision.rectify import territory

KEEP = 60  # keypoints a half keeps, its strongest: about 1 per 8 x 8 pixels of a 128-pixel tile's half
RADIUS = 8.0  # pixels of a 128-pixel tile a copy's keypoint may lie off: 6% of a side, as halfmatch's shifts
RATIO = 0.85  # a match counts when its descriptor is this much nearer than the second best (Lowe's ratio test)
EDGE_ROWS = 3  # rows nearest the edge left out, where a wrong outline shows table (halfmatch.EDGE_ROWS's 3%)
CONTRAST = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(4, 4))


def half_keypoints(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every half's strongest keypoints (flat: halves x h x w x 3, in one light, edge on top): their places
    (halves x KEEP x 2, pixels), RootSIFT descriptors (halves x KEEP x 128) and which are found (halves x KEEP;
    a half with fewer keypoints has the rest unfound)."""
    height, width = flat.shape[1:3]
    inside = territory(height, width)
    inside[:EDGE_ROWS] = False
    mask = inside.astype(np.uint8) * 255
    sift = cv2.SIFT_create(nfeatures=KEEP)
    places = np.zeros((len(flat), KEEP, 2), np.float32)
    descriptors = np.zeros((len(flat), KEEP, 128), np.float32)
    found = np.zeros((len(flat), KEEP), bool)
    for index, band in enumerate(flat):
        lightness = cv2.cvtColor(np.clip(band, 0, 1).astype(np.float32), cv2.COLOR_RGB2LAB)[..., 0]
        points, described = sift.detectAndCompute(CONTRAST.apply(np.uint8(np.clip(lightness * 2.55, 0, 255))), mask)
        count = min(len(points), KEEP)
        if described is None or count == 0:
            continue
        # RootSIFT (Arandjelovic and Zisserman 2012): unit rows whose products compare histograms by Hellinger
        described = described[:count]
        descriptors[index, :count] = np.sqrt(described / np.maximum(described.sum(1, keepdims=True), 1e-9))
        places[index, :count] = [point.pt for point in points[:count]]
        found[index, :count] = True
    return places, descriptors, found


def keypoint_matches(places: np.ndarray, descriptors: np.ndarray, found: np.ndarray) -> np.ndarray:
    """How many keypoints of each half find a clear best match at the same place in each other half, the smaller of
    the two ways: halves x halves, symmetric, zero on the diagonal."""
    halves, keep = found.shape
    flat = descriptors.reshape(halves * keep, -1)
    squared = (2.0 - 2.0 * flat @ flat.T).reshape(halves, keep, halves, keep)
    squared = np.where(found[None, None], squared, np.inf)  # to unfound keypoints: no match
    nearest_two = np.partition(squared, 1, axis=3)[..., :2]  # halves x keep x halves x 2
    best = np.argmin(squared, axis=3)
    best_places = places[np.arange(halves)[None, None, :], best]  # halves x keep x halves x 2
    same_place = np.linalg.norm(places[:, :, None] - best_places, axis=3) < RADIUS
    clear = nearest_two[..., 0] < RATIO**2 * nearest_two[..., 1]
    matched = (clear & same_place & found[:, :, None]).sum(axis=1).astype(np.float64)
    matched = np.minimum(matched, matched.T)
    np.fill_diagonal(matched, 0.0)
    return matched


def keypoint_distances(flat: np.ndarray) -> np.ndarray:
    """1 / (1 + the keypoints two halves share at the same place): 1 for halves that share none, near 0 for copies
    of a print rich in marks: halves x halves, zero on the diagonal."""
    distances = 1.0 / (1.0 + keypoint_matches(*half_keypoints(flat)))
    np.fill_diagonal(distances, 0.0)
    return distances
