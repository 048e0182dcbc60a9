"""Masks of where tiles may be: likeness to the tiles' face colour, and regions walled in by edges."""
from __future__ import annotations

import cv2
import numpy as np

from .outlines import four_cornered, perspective_scale
from .sides import channel_norm

# Moved (bench/find_constants.py, 2026-11-30): lightness 0.26 dev 55, test 32; 0.44 dev 56, test 36 (as set 55, 34).
LAB_WEIGHTS = np.array([0.35, 1.0, 1.0], dtype=np.float32)  # shading changes lightness far more than hue
# Moved: 0.0188 dev 45, test 33; 0.0312 dev 46, test 34.
EDGE_INSET = 0.025  # how far inside its outline a face region walled in by edges ends (a printed frame, blur)
# Moved to (0.75,0.45,0.3) or (1.25,0.75,0.5): dev and test as set.
FACE_THRESHOLDS = (1.0, 0.6, 0.4)  # of the Otsu threshold on likeness to the face colour, loosest first
# Of the face's lightness: how much of it a shadow over the tiles (a phone's, a hand's) may take away and leave the
# face still like the face colour (shade_likeness); and that likeness's one strictness tried (each costs a reading).
# Moved to 0.45 or 0.75: dev and test as set.
SHADE_DEPTH = 0.6
# Moved to (0.45,) or (0.75,): dev and test as set.
SHADE_THRESHOLDS = (0.6,)
# Of its convex hull: the most a face region walled in by edges fills. Every tile has a half-motif on each edge,
# walled in apart from the face, so a face region has four bites out of it (tiles' fill at most 0.77 on 200
# generated hard photos); a region filling its hull is something plain: a checked cloth's square, a sheet of paper.
# Moved to 0.6375 or 0.925: dev and test as set.
SOLID = 0.85
# Of the typical face region's area (the median of the expected number of biggest): smaller regions are no tile's
# face (the least of 3,500 faces on 200 generated hard photos was 0.54 of it, bar regions spanning two tiles), but
# a checked cloth's square, lying beside a face, would join its outline.
# Moved to 0.225 or 0.375: dev and test as set.
SMALLEST_FACE = 0.3
# Of its width: the longest a region walled in by edges may be. A far tile in a steeply tilted photo looks up to 1.9
# times as long as wide; two tiles walled in as one (twice as long) are left out (2.5 let one join a grid's block).
# Moved to 1.5 or 2.5: dev and test as set.
LONGEST = 2.0
# Moved to 0.075 or 0.125: dev and test as set.
NECK = 0.1  # of the square root of a region's area: necks this narrow between parts of a region are cut
# Moved: 0.3 dev 46, test 34; 0.5 dev 46, test 34.
LEAST_FILL = 0.4  # of its convex hull: the least a face region walled in by edges fills (motifs take the rest)
# Moved to (15,38) or (25,62): dev and test as set.
CLEAR_EDGES = (20, 50)  # Canny's thresholds for the walls around faces
# Moved: (2,4) dev 46, test 32; (4,6) dev 46, test 33.
WALLS = (3, 5)  # pixels: thin walls first; then thicker ones, which close the gaps a faint outline leaves
# For photos where clear edges wall in too few faces: glare can leave a tile's outline a rim only 5-15 grey levels
# darker than a saturated table. Faint walls also follow a stone's veins and the table's grain, so they are only
# tried when every other reading failed.
# Moved to (8,22) or (12,38): dev and test as set.
FAINT_EDGES = (10, 30)


def main_colours(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The six main colours (Lab) of the photo's middle and the share of pixels each holds."""
    height, width = lab.shape[:2]
    middle = lab[height // 6: 5 * height // 6, width // 6: 5 * width // 6].reshape(-1, 3)
    middle = np.ascontiguousarray(middle[:: max(1, len(middle) // 20000)])  # 20k samples settle six colours
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(7)
    _, labels, centers = cv2.kmeans(middle, 6, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    return centers, np.bincount(labels.ravel(), minlength=6) / len(labels)


def face_colour(lab: np.ndarray) -> np.ndarray:
    """The tiles' face colour (Lab): the lightest, least coloured of the main colours in the photo's middle."""
    centers, share = main_colours(lab)
    chroma = np.hypot(centers[:, 1] - 128, centers[:, 2] - 128)
    score = centers[:, 0] - 2.0 * chroma
    score[share < 0.08] = -np.inf
    return centers[int(np.argmax(score))]


def face_likeness(lab: np.ndarray, face: np.ndarray) -> np.ndarray:
    """How unlike the face colour (Lab) each pixel of a Lab image is, lightness weighed less (LAB_WEIGHTS)."""
    return channel_norm((lab - face) * LAB_WEIGHTS)


def shade_likeness(lab: np.ndarray, face: np.ndarray) -> np.ndarray:
    """face_likeness where the face may lie in a shadow: lightness below the face's costs only beyond SHADE_DEPTH
    of it. A phone's shadow over the tiles darkens their faces but leaves their colour; the table keeps its own."""
    lightness = lab[..., 0]
    lost = np.maximum(face[0] - lightness - SHADE_DEPTH * face[0], 0.0) + np.maximum(lightness - face[0], 0.0)
    return channel_norm(np.stack([lost, lab[..., 1] - face[1], lab[..., 2] - face[2]], axis=-1) * LAB_WEIGHTS)


def face_masks(likeness: np.ndarray, factors: tuple[float, ...] = FACE_THRESHOLDS):
    """Masks of the face colour (uint8 0/255, specks removed), from the loosest likely one to stricter ones.

    The loosest threshold splits the photo's likeness to the face colour in two (Otsu); a pale table falls under
    it too, and then only a stricter one tells the table from the faces.
    """
    level, _ = cv2.threshold(np.clip(likeness * 4, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = min(max(level / 4, 8.0), 30.0)
    for factor in factors:
        mask = (likeness < max(threshold * factor, 4.0)).astype(np.uint8) * 255
        yield cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def enclosed_masks(lightness: np.ndarray, expected: int = 9, edges: tuple[int, int] = CLEAR_EDGES):
    """Masks of the regions that edges enclose and that look like a tile's face: bright, square, solid enough,
    and not far smaller than the `expected` biggest such regions.

    Used when no face-colour mask gives the tiles (a pale table, a face colour shared with the table): a tile's
    face is walled in by its own outline (and a printed frame) whatever the colours are. The regions stop short
    of the outline, so each is grown by EDGE_INSET of its side before the sides are snapped to their edges.
    """
    smooth = cv2.GaussianBlur(lightness.astype(np.uint8), (5, 5), 0)
    for wall in WALLS:
        walls = cv2.dilate(cv2.Canny(smooth, *edges), np.ones((wall, wall), np.uint8))
        faces = face_regions((walls == 0).astype(np.uint8))
        mask = np.zeros(lightness.shape, np.uint8)
        if faces:
            outlines = [outline for outline, _ in faces]
            areas = np.array([area for _, area in faces])
            typical = float(np.median(np.sort(areas)[::-1][:expected]))
            # A far tile of a steeply tilted photo is far smaller than the typical face, a cloth's square beside it
            # smaller still: the size to expect is the one perspective gives where the region lies.
            here = typical * perspective_scale([o.astype(np.float64) for o in outlines], areas, typical)
            for outline, area, local in zip(outlines, areas, here):
                if area >= SMALLEST_FACE * local:
                    cv2.fillConvexPoly(mask, outline, 255)
        yield mask


def face_regions(open_space: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The regions of `open_space` (uint8 1 where no edge walls it in) that look like a tile's face: each as its
    convex hull grown by EDGE_INSET (int32 points) and that hull's area."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(open_space, connectivity=4)
    height, width = open_space.shape
    faces = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area < 0.002 * height * width or area > 0.2 * height * width:
            continue
        if x == 0 or y == 0 or x + w >= width or y + h >= height:
            continue
        region = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        face = face_outline(region, (x, y))
        if face is None:
            # A face may leak into a pale square of a checked cloth through a short gap in its outline: cut the
            # region at its narrow necks and try its biggest part.
            face = face_outline(biggest_part(region), (x, y))
        if face is not None:
            faces.append(face)
    return faces


def face_outline(region: np.ndarray, offset: tuple[int, int]) -> tuple[np.ndarray, float] | None:
    """A region's (uint8 1 inside, placed at `offset`) convex hull grown by EDGE_INSET (int32 points) and that
    hull's area, if the region looks like a tile's face; else None."""
    area = cv2.countNonZero(region)
    if area < 3:
        return None
    hull = cv2.convexHull(boundary_points(region) + np.array(offset, dtype=np.int32))
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(hull)
    # A face: not too long, the motifs leave much of it but not all, and four-cornered. A tilted camera makes
    # a far tile a trapezoid that fills its bounding rectangle little, so its own four corners are the test.
    hull_area = cv2.contourArea(hull)
    if max(rw, rh) > LONGEST * min(rw, rh) or area < LEAST_FILL * hull_area or area > SOLID * hull_area:
        return None
    if not four_cornered(hull.reshape(-1, 2)):
        return None
    # The hull itself, not its bounding rectangle: a tilted camera makes a tile a trapezoid.
    grow = EDGE_INSET * (rw + rh) / 2
    outline = hull.reshape(-1, 2).astype(np.float64)
    grown = (cx, cy) + (outline - (cx, cy)) * (1 + 2 * grow / ((rw + rh) / 2))
    return np.rint(grown).astype(np.int32), hull_area


def boundary_points(region: np.ndarray) -> np.ndarray:
    """The pixels (x, y, int32) along the outside of a region (uint8 1 inside), each once, in row-major order.

    Their convex hull is the region's: a face's hull from a few hundred points instead of every one of its ten
    thousand pixels. Given in the order np.nonzero lists all of them, OpenCV returns the very hull it returns for
    all of them, starting at the same corner (it turns its hull to follow the order points were given in where
    it can, and where later steps depend on the starting corner).
    """
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    points = np.concatenate(contours).reshape(-1, 2)
    width = region.shape[1]
    places = np.unique(points[:, 1] * width + points[:, 0])  # row-major, each pixel once
    return np.column_stack([places % width, places // width]).astype(np.int32)


def biggest_part(region: np.ndarray) -> np.ndarray:
    """The biggest part (uint8 1 inside) of a region opened by a disk of NECK of its size: parts joined only
    through necks narrower than that come apart."""
    size = odd(NECK * np.sqrt(region.sum()))
    opened = cv2.morphologyEx(region, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=4)
    if count < 2:
        return opened
    return (labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)


def odd(size: float) -> int:
    """The odd kernel size nearest `size`, at least 3."""
    return max(3, int(round(size)) | 1)
