"""Find every tile in a photo: rough outlines from a mask of the face colour, then each side snapped to its edge.

Lone tiles are one component each; a block of touching (or nearly touching) tiles is split as an R x C grid of
equal tiles. Masks at stricter thresholds are tried when the loosest one takes in a pale table too. Each tile's
four sides are then searched for locally, as the strongest straight edge near the rough side, because tiles in a
hand-laid board each lie a little off any common grid. Finally a lone tile's sides are traced to where its face
ends, and the side two touching tiles share is put on their seam, midway between where their two faces end.
"""
from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from .errors import WrongTileCount
from .geometry import (apply_homography, line_through, north_first, quad_area, quad_from_lines, rescale_points,
                       robust_line)
from .types import Photo, TileQuad

LAB_WEIGHTS = np.array([0.35, 1.0, 1.0], dtype=np.float32)  # shading changes lightness far more than hue
EDGE_WEIGHTS = np.array([1.0, 1.5, 1.5], dtype=np.float32)  # an edge may be one of lightness or of colour
CELL = 128  # pixels per tile side when a tile is rectified to search for its sides
MARGIN = 16  # pixels kept around the rectified tile, room for the side search
REACH_LONE = 0.02  # how far (of a side) a lone tile's side may lie from its outline in the face mask
REACH_BLOCK = 0.045  # how far a side of a tile split from a block may lie from the grid's estimate
EDGE_INSET = 0.025  # how far inside its outline a face region walled in by edges ends (a printed frame, blur)
FACE_THRESHOLDS = (1.0, 0.6, 0.4)
# Edge support (see edge_support) of a reading whose every tile has a clear outline; the weakest tile of a right
# reading of a generated medium photo scores 4-40, a wrong reading's under 1.5.
CONVINCING = 8.0  # of the Otsu threshold on likeness to the face colour, loosest first


def find_tiles(photo: Photo, expected: int = 9) -> list[TileQuad]:
    """The outline of each tile in the photo, in full-resolution pixels, ordered top to bottom, left to right.

    Several readings of the photo are made (face-colour masks at three strictnesses, regions walled in by edges);
    of those that give the expected number of plausible tiles, the one whose tiles' sides lie best on real edges
    wins: a tile's side is a straight edge along its whole length, a wrong outline is not.
    """
    smooth = cv2.GaussianBlur(photo.work, (5, 5), 0)
    lab = cv2.cvtColor(smooth, cv2.COLOR_RGB2LAB).astype(np.float32)
    likeness = np.linalg.norm((lab - face_colour(lab)) * LAB_WEIGHTS, axis=2)
    edges_image = lab * EDGE_WEIGHTS
    raw_lightness = cv2.cvtColor(photo.work, cv2.COLOR_RGB2LAB)[..., 0]
    counts, best, best_support = [], None, -np.inf
    refined: dict[tuple, tuple[np.ndarray, float]] = {}  # readings often share tiles: refine each tile once
    readings = itertools.chain(face_masks(likeness), enclosed_masks(raw_lightness))
    for number, mask in enumerate(readings):
        if number == len(FACE_THRESHOLDS) and best_support >= CONVINCING:
            break  # the face colour found tiles with clear outlines: no need to look for walled-in regions
        components = tile_components(mask, expected)
        rough = rough_quads(components, edges_image)
        counts.append(len(rough))
        if len(rough) != expected or not plausible([q for q, _ in rough]):
            continue
        for quad, lone in rough:
            key = (lone, *np.rint(quad / 2).astype(int).ravel())
            if key not in refined:
                tile = refine_quad(quad, edges_image, REACH_LONE if lone else REACH_BLOCK)
                refined[key] = (tile, edge_support(tile, edges_image))
        tiles = [refined[(lone, *np.rint(quad / 2).astype(int).ravel())] for quad, lone in rough]
        quads = [(tile, lone) for (tile, _), (_, lone) in zip(tiles, rough)]
        support = min(value for _, value in tiles)
        if support > best_support:
            best, best_support = quads, support
    if best is None:
        # Report the count of the first (face colour) reading: it is the one a person can check on the photo.
        raise WrongTileCount(counts[0], expected)
    # A lone tile's sides are traced to where its face ends; a seam between touching tiles is no such place, and
    # is fitted once for the two tiles it divides.
    tiles = [order_screen_clockwise(rescale_points(q, photo.scale)) for q, _ in best]
    tiles = [snap_to_face(q, photo.image, open_sides(q, tiles)) for q in tiles]
    tiles = fit_seams(tiles, photo.image)
    return reading_order([TileQuad(north_first(q)) for q in tiles])


def edge_support(quad: np.ndarray, image: np.ndarray) -> float:
    """How well a quad's sides lie on edges: the weakest side's edge strength along its weaker half, relative to
    the strength just inside the tile (so a faint photo's tiles count as much as a crisp one's)."""
    corners = order_screen_clockwise(quad)
    canvas, _ = rectified(image, corners, CELL, CELL, MARGIN)
    across_x, across_y = edge_strength(canvas)
    along = np.rint(MARGIN + np.linspace(0.1, 0.9, 48) * CELL).astype(int)
    near, far = MARGIN, MARGIN + CELL
    sides = [across_y[near - 2:near + 3, along].max(axis=0), across_x[along, far - 2:far + 3].max(axis=1),
             across_y[far - 2:far + 3, along].max(axis=0), across_x[along, near - 2:near + 3].max(axis=1)]
    weaker_halves = [np.sort(side)[: len(side) // 2].mean() for side in sides]
    inside = np.median(across_x[MARGIN + 8:MARGIN + CELL - 8, MARGIN + 8:MARGIN + CELL - 8]) + 1.0
    return float(min(weaker_halves) / inside)


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


def face_masks(likeness: np.ndarray):
    """Masks of the face colour (uint8 0/255, specks removed), from the loosest likely one to stricter ones.

    The loosest threshold splits the photo's likeness to the face colour in two (Otsu); a pale table falls under
    it too, and then only a stricter one tells the table from the faces.
    """
    level, _ = cv2.threshold(np.clip(likeness * 4, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    threshold = min(max(level / 4, 8.0), 30.0)
    for factor in FACE_THRESHOLDS:
        mask = (likeness < max(threshold * factor, 4.0)).astype(np.uint8) * 255
        yield cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def enclosed_masks(lightness: np.ndarray):
    """Masks of the regions that edges enclose and that look like a tile's face: bright, square, solid enough.

    Used when no face-colour mask gives the tiles (a pale table, a face colour shared with the table): a tile's
    face is walled in by its own outline (and a printed frame) whatever the colours are. The regions stop short
    of the outline, so each is grown by EDGE_INSET of its side before the sides are snapped to their edges.
    """
    smooth = cv2.GaussianBlur(lightness.astype(np.uint8), (5, 5), 0)
    # Thin walls first; then thicker ones, which close the gaps a faint outline leaves.
    for low, high, wall in ((20, 50, 3), (20, 50, 5)):
        walls = cv2.dilate(cv2.Canny(smooth, low, high), np.ones((wall, wall), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats((walls == 0).astype(np.uint8), connectivity=4)
        height, width = lightness.shape
        mask = np.zeros((height, width), np.uint8)
        for i in range(1, count):
            x, y, w, h, area = stats[i]
            if area < 0.002 * height * width or area > 0.2 * height * width:
                continue
            if x == 0 or y == 0 or x + w >= width or y + h >= height:
                continue
            points = np.column_stack(np.nonzero(labels[y:y + h, x:x + w] == i))[:, ::-1] + (x, y)
            hull = cv2.convexHull(points.astype(np.int32))
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(hull)
            # A face: its hull mostly fills its bounding rectangle (a tilted camera makes it a trapezoid), not too
            # long, and the motifs leave much of it.
            if cv2.contourArea(hull) < 0.75 * rw * rh or max(rw, rh) > 1.7 * min(rw, rh) or area < 0.4 * rw * rh:
                continue
            grow = EDGE_INSET * (rw + rh) / 2
            box = cv2.boxPoints(((cx, cy), (rw + 2 * grow, rh + 2 * grow), angle))
            cv2.fillConvexPoly(mask, np.rint(box).astype(np.int32), 255)
        yield mask


def rough_quads(components: list[tuple[np.ndarray, int]], image: np.ndarray) -> list[tuple[np.ndarray, bool]]:
    """Rough tile outlines (work pixels) of components, each marked whether it was a lone tile (not split from a
    block): one per lone tile, a grid of them per block."""
    quads: list[tuple[np.ndarray, bool]] = []
    for hull, count in components:
        if count == 1:
            quads.append((fit_quad(hull), True))
        else:
            quads.extend((q, False) for q in split_grid(fit_quad(hull), count, image))
    return quads


def tile_components(mask: np.ndarray, expected: int) -> list[tuple[np.ndarray, int]]:
    """Convex outlines of the regions big enough to be tiles, each with how many tiles it holds.

    Regions touching the photo's border are the table or things on it, not tiles (a tile cut off by the frame
    cannot be read anyway). Regions whose outlines nearly touch are one block: the seams of touching tiles
    break the mask only in places.
    """
    hulls = [h for h in cluster_hulls(outline_hulls(mask), mask.shape) if not touches_border(h, mask.shape)]
    if not hulls:
        return []
    areas = np.array([quad_area(h) for h in hulls])
    order = np.argsort(-areas)
    hulls, areas = [hulls[i] for i in order], areas[order]
    total = areas[: expected].sum()
    # The typical tile: the median of the biggest components, unless one component holds them all.
    big = areas[areas > 0.25 * areas[0]]
    tile_area = float(np.median(big[: expected]))
    if areas[0] > 0.5 * total and len(big) < expected:
        tile_area = areas[0] / max(1, expected - (len(big) - 1))
    components = []
    for hull, area in zip(hulls, areas):
        count = int(round(area / tile_area))
        if count < 1 or area < 0.4 * tile_area:
            continue
        components.append((hull, count))
    return components


def outline_hulls(mask: np.ndarray) -> list[np.ndarray]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hulls = [cv2.convexHull(c).reshape(-1, 2) for c in contours if len(c) >= 3 and cv2.contourArea(c) >= 16]
    return [h for h in hulls if len(h) >= 3]


def cluster_hulls(hulls: list[np.ndarray], shape: tuple[int, ...], reach: int = 3) -> list[np.ndarray]:
    """Hulls that overlap or lie within `reach` pixels of each other, merged into the hull of their union when
    they fill it (pieces of one block do; neighbouring lone tiles joined by a speck do not)."""
    if not hulls:
        return []
    areas = np.array([quad_area(h) for h in hulls])
    hulls = [h for h, area in zip(hulls, areas) if area >= 0.02 * areas.max()]  # specks bridge nothing
    canvas = np.zeros(shape[:2], np.uint8)
    for hull in hulls:
        cv2.fillConvexPoly(canvas, hull.astype(np.int32), 255)
    canvas = cv2.dilate(canvas, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1)))
    _, labels = cv2.connectedComponents(canvas, connectivity=8)
    groups: dict[int, list[np.ndarray]] = {}
    for hull in hulls:
        x, y = hull[0].astype(int)
        groups.setdefault(int(labels[y, x]), []).append(hull)
    merged = []
    for group in groups.values():
        union = cv2.convexHull(np.concatenate(group).astype(np.int32)).reshape(-1, 2).astype(np.float64)
        filled = sum(quad_area(h) for h in group) >= 0.8 * quad_area(union)
        merged.extend([union] if len(group) == 1 or filled else [h.astype(np.float64) for h in group])
    return [m for m in merged if len(m) >= 4]


def touches_border(hull: np.ndarray, shape: tuple[int, ...], margin: float = 2.0) -> bool:
    height, width = shape[:2]
    return bool(hull.min() < margin or hull[:, 0].max() > width - 1 - margin or hull[:, 1].max() > height - 1 - margin)


def plausible(quads: list[np.ndarray]) -> bool:
    """Whether rough quads can be tiles of one set: similar sizes, roughly square, none overlapping another."""
    sides = np.array([np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1) for q in quads])
    mean = sides.mean(axis=1)
    if mean.max() > 1.8 * mean.min():  # perspective makes near tiles bigger, never by this much
        return False
    if np.any(sides.max(axis=1) > 1.8 * sides.min(axis=1)):
        return False
    centres = np.array([q.mean(axis=0) for q in quads])
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(quads)) * 1e9
    return bool(distance.min() > 0.6 * mean.min())


def fit_quad(hull: np.ndarray) -> np.ndarray:
    """Four corners of a convex outline: lines fitted to its four sides, then intersected (corners are rounded)."""
    rough = rough_quad(hull)
    outline = densify(hull)
    lines = []
    for i in range(4):
        start, end = rough[i], rough[(i + 1) % 4]
        direction = end - start
        length = float(np.linalg.norm(direction))
        along = (outline - start) @ direction / length**2
        normal = np.array([direction[1], -direction[0]]) / length
        away = np.abs((outline - start) @ normal)
        near = outline[(along > 0.15) & (along < 0.85) & (away < 0.08 * length)]
        lines.append(robust_line(near) if len(near) >= 4 else robust_line(np.array([start, end])))
    try:
        return quad_from_lines(lines)
    except ValueError:
        return rough


def rough_quad(hull: np.ndarray) -> np.ndarray:
    """The hull simplified to four vertices, clockwise on screen."""
    perimeter = cv2.arcLength(hull.astype(np.float32), True)
    low, high = 0.0, 0.2 * perimeter
    best = None
    for _ in range(30):
        epsilon = (low + high) / 2
        poly = cv2.approxPolyDP(hull.astype(np.float32), epsilon, True).reshape(-1, 2)
        if len(poly) > 4:
            low = epsilon
        elif len(poly) < 4:
            high = epsilon
        else:
            best = poly
            high = epsilon
    if best is None:
        best = cv2.boxPoints(cv2.minAreaRect(hull.astype(np.float32)))
    return order_screen_clockwise(best.astype(np.float64))


def order_screen_clockwise(points: np.ndarray) -> np.ndarray:
    offset = points - points.mean(axis=0)
    return points[np.argsort(np.arctan2(offset[:, 1], offset[:, 0]))]


def densify(polygon: np.ndarray, step: float = 1.0) -> np.ndarray:
    """Points every `step` pixels along a closed polygon's sides."""
    points = []
    for start, end in zip(polygon, np.roll(polygon, -1, axis=0)):
        count = max(1, int(np.linalg.norm(end - start) / step))
        t = np.arange(count)[:, None] / count
        points.append(start + t * (end - start))
    return np.concatenate(points)


def grid_shape(count: int, quad: np.ndarray) -> tuple[int, int]:
    """Rows and columns of a block of `count` touching tiles, from the block's aspect ratio."""
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    shapes = [(r, count // r) for r in range(1, count + 1) if count % r == 0]
    return min(shapes, key=lambda rc: abs(math.log((width / rc[1]) / (height / rc[0]))))


def rectified(image: np.ndarray, quad: np.ndarray, width: int, height: int, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """The quad's neighbourhood warped so the quad fills [margin, margin + width] x [margin, margin + height];
    also the homography taking those pixels back to the image."""
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32) + margin
    to_canvas = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    size = (width + 2 * margin, height + 2 * margin)
    canvas = cv2.warpPerspective(image, to_canvas, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return canvas, np.linalg.inv(to_canvas)


def edge_strength(canvas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How strongly each pixel changes across x and across y, summed over the colour channels."""
    across_x = np.abs(cv2.Sobel(canvas, cv2.CV_32F, 1, 0, ksize=3))
    across_y = np.abs(cv2.Sobel(canvas, cv2.CV_32F, 0, 1, ksize=3))
    if across_x.ndim == 3:
        across_x, across_y = across_x.sum(axis=2), across_y.sum(axis=2)
    return across_x, across_y


def split_grid(block: np.ndarray, count: int, image: np.ndarray, cell: int = 96) -> list[np.ndarray]:
    """Rough outlines of the tiles of a block of touching (or nearly touching) tiles, as an R x C grid.

    The block is rectified so each tile is about `cell` pixels square; the tile size and the place of each
    inner row and column are those whose edges are strongest in the block's edge profiles. Gaps between tiles
    are allowed: tiles are all one size, the gaps need not be.
    """
    rows, cols = grid_shape(count, block)
    canvas, from_canvas = rectified(image, block, cols * cell, rows * cell, 0)
    across_x, across_y = edge_strength(canvas)
    starts_x, side_x = place_cells(across_x.mean(axis=0), cols, cell)
    starts_y, side_y = place_cells(across_y.mean(axis=1), rows, cell)
    quads = []
    for top in starts_y:
        for left in starts_x:
            corners = np.array([[left, top], [left + side_x, top], [left + side_x, top + side_y],
                                [left, top + side_y]])
            quads.append(apply_homography(from_canvas, corners))
    return quads


def place_cells(profile: np.ndarray, count: int, cell: int) -> tuple[list[float], float]:
    """Where `count` equal cells start along a block `count * cell` long, and their size, from an edge profile.

    The first cell starts at 0 and the last ends at the block's end; between them each cell sits where its two
    edges are strongest.
    """
    span = count * cell
    if count == 1:
        return [0.0], float(cell)
    positions = np.arange(len(profile), dtype=np.float64)

    def strength(x: np.ndarray) -> np.ndarray:
        return np.interp(x, positions, profile)

    best, best_score = ([float(c * cell) for c in range(count)], float(cell)), -np.inf
    for side in np.arange(0.8 * cell, cell + 0.25, 0.5):
        starts = [0.0]
        score = 0.0
        for c in range(1, count - 1):
            options = np.arange(c * side, span - (count - c) * side + 0.25, 0.5)
            value = strength(options) + strength(options + side)
            pick = int(np.argmax(value))
            starts.append(float(options[pick]))
            score += float(value[pick])
        if count > 1:
            starts.append(span - side)
            score += float(strength(np.array([side, span - side])).sum())
        if score > best_score:
            best, best_score = (starts, float(side)), score
    return best


def refine_quad(quad: np.ndarray, image: np.ndarray, reach: float) -> np.ndarray:
    """The quad with each side moved to the tile's own edge near it: the strongest straight edge within reach.

    The tile is rectified (CELL pixels a side); each side is searched as a line free at both ends within `reach`
    (of a side) of where it was thought to be.
    """
    corners = order_screen_clockwise(quad)
    canvas, from_canvas = rectified(image, corners, CELL, CELL, MARGIN)
    across_x, across_y = edge_strength(canvas)
    lines = []
    for side, (strength, base, outward) in enumerate([(across_y, MARGIN, -1), (across_x, MARGIN + CELL, 1),
                                                      (across_y, MARGIN + CELL, 1), (across_x, MARGIN, -1)]):
        start, end = side_offsets(strength if side % 2 else strength.T, base, outward, reach)
        # Side 0 runs along x at y = base, side 1 along y at x = base, and so on: points back in canvas (x, y).
        ends = [(MARGIN, base + outward * start), (MARGIN + CELL, base + outward * end)]
        if side % 2:
            ends = [(y, x) for x, y in ends]
        lines.append(line_through(*apply_homography(from_canvas, np.array(ends, dtype=np.float64))))
    try:
        refined = quad_from_lines(lines)  # corner i is where side i-1 meets side i: W/N, N/E, E/S, S/W
    except ValueError:
        return corners
    side = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
    # Each side moved at most `reach`, so a corner that moved far means nearly parallel neighbouring sides.
    return refined if np.max(np.linalg.norm(refined - corners, axis=1)) < 3 * reach * side else corners


def side_offsets(strength: np.ndarray, base: int, outward: int, reach: float) -> tuple[float, float]:
    """Outward offsets, at the side's start and end, of the tile's own edge near the line `base` of `strength`.

    `strength` is indexed [along the side, across it]. Every line from offset a at the start to offset b at the
    end within reach is scored by its edge strength along it (the rounded corners left out); the strongest is the
    face's edge.
    """
    reach = max(1, int(round(reach * CELL)))
    offsets = np.arange(-reach, reach + 1)
    t = np.linspace(0.1, 0.9, 48)
    along = np.rint(MARGIN + t * CELL).astype(int)
    a, b = np.meshgrid(offsets, offsets, indexing="ij")
    across = base + outward * (a[..., None] + (b - a)[..., None] * t)  # (a, b, samples)
    across = np.clip(np.rint(across).astype(int), 0, strength.shape[1] - 1)
    # A tile's edge runs its whole length; a motif's straight stretch only part of it: score by the weaker half.
    values = np.sort(strength[along, across], axis=2)
    score = values[..., : values.shape[2] // 2].mean(axis=2)
    # Lines far from the rough side, or turned from it, are trusted a little less, so a printed frame, a motif's
    # straight stretch or a neighbour's edge does not win by a hair.
    score = score * (1 - 0.25 * ((a + b) / (2 * reach)) ** 2 - 0.5 * ((b - a) / (2 * reach)) ** 2)
    # Profile over the line's mean offset (half-pixel steps), each taking its best slope, for a sub-pixel peak.
    middle = (a + b + 2 * reach).ravel()
    profile = np.full(4 * reach + 1, -np.inf)
    np.maximum.at(profile, middle, score.ravel())
    pick = int(np.argmax(profile))
    flat = np.flatnonzero(middle == pick)
    k = flat[int(np.argmax(score.ravel()[flat]))]
    start, end = float(a.ravel()[k]), float(b.ravel()[k])
    if 0 < pick < len(profile) - 1:  # sub-pixel: a parabola through the peak and its neighbours
        left, centre, right = profile[pick - 1], profile[pick], profile[pick + 1]
        curve = left - 2 * centre + right
        if curve < 0:
            shift = 0.5 * (left - right) / curve * 0.5
            start, end = start + shift, end + shift
    return start, end


def reading_order(tiles: list[TileQuad]) -> list[TileQuad]:
    """Tiles numbered as a person reads the photo: by rows of similar height, then left to right."""
    if not tiles:
        return tiles
    side = float(np.median([t.side for t in tiles]))
    remaining = sorted(tiles, key=lambda t: t.center[1])
    ordered: list[TileQuad] = []
    while remaining:
        top = remaining[0].center[1]
        row = [t for t in remaining if t.center[1] < top + 0.6 * side]
        ordered.extend(sorted(row, key=lambda t: t.center[0]))
        remaining = [t for t in remaining if t.center[1] >= top + 0.6 * side]
    return ordered


SNAP_CELL = 256  # pixels per tile side in the rectified canvas where a tile's face is traced
SNAP_MARGIN = 0.3  # of a side, around the tile in that canvas (only traced pixels are sampled)
SNAP_POSITIONS = 64  # places along each side where the face is traced outward
SNAP_REACH = int(round(0.08 * SNAP_CELL))  # how far the face's edge may lie from the side found by edge strength
SNAP_INNER = int(round(0.1 * SNAP_CELL))  # traces start this far inside the side
SNAP_OUTER = SNAP_REACH + int(round(0.1 * SNAP_CELL))  # and end this far outside: past the edge, the face
# colour must not come back for a while
SNAP_WEIGHTS = np.array([1.0, 1.5, 1.5], dtype=np.float32)


def snap_to_face(quad: np.ndarray, image: np.ndarray, sides: list[bool] | None = None) -> np.ndarray:
    """The quad (full-resolution pixels, clockwise on screen) with each side moved to where the tile's top face
    ends, traced outward across the side; a side stays where too few traces agree on a straight edge.

    A tile's face is one colour near its edge, save a thin printed frame line; outward of the edge lie the
    darker side band, the shadow or the table, and the face colour does not come back for a while. So, across
    the side at many places, the edge is where the face colour is left for good; a motif that reaches the edge,
    or a neighbour's face beyond a seam, only leaves some places without an answer. Only the `sides` marked
    True are traced (all by default).
    """
    traces, along, from_canvas = face_traces(quad, image)
    margin, size = snap_canvas()
    side_length = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    lines = []
    for side in range(4):
        offsets = face_edge_offsets(traces[side])
        good = np.concatenate([agreeing(half) for half in np.split(offsets, 2)])
        line = line_through(quad[side], quad[(side + 1) % 4])
        if good.any() and (sides is None or sides[side]):
            edge = np.column_stack([along[good], margin - offsets[good]])
            line = robust_line(apply_homography(from_canvas, unturn(edge, side, size)))
        lines.append(line)
    try:
        snapped = quad_from_lines(lines)
    except ValueError:
        return quad
    return snapped if np.max(np.linalg.norm(snapped - quad, axis=1)) < 3 * SNAP_REACH / SNAP_CELL * side_length else quad


def open_sides(quad: np.ndarray, tiles: list[np.ndarray], gap: float = 0.15) -> list[bool]:
    """For each side of a quad (clockwise on screen), whether no other tile lies across it within `gap` of a side:
    across a seam or a narrow gap a neighbour's face comes back, and the face cannot be traced to its end."""
    side_length = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    centres = np.array([t.mean(axis=0) for t in tiles if t is not quad]).reshape(-1, 2)
    result = []
    for start, end in zip(quad, np.roll(quad, -1, axis=0)):
        length = float(np.linalg.norm(end - start))
        direction = (end - start) / length
        outward = np.array([direction[1], -direction[0]])  # clockwise on screen (y down): the outside is on the left
        along, away = (centres - start) @ direction, (centres - start) @ outward
        across = (along > 0) & (along < length) & (away > 0) & (away < (0.5 + gap) * side_length + length / 2)
        result.append(not across.any())
    return result


def agreeing(offsets: np.ndarray, tolerance: float = 0.012 * SNAP_CELL) -> np.ndarray:
    """Which of one end's traced edge offsets agree, within `tolerance`, on where the edge is; none unless most
    traces found it and they agree closely (at a seam, or where the face colour is the table's, they scatter)."""
    found = np.isfinite(offsets)
    if found.sum() < 0.4 * len(offsets):
        return np.zeros(len(offsets), dtype=bool)
    middle = np.median(offsets[found])
    near = found & (np.abs(np.where(found, offsets, np.inf) - middle) <= tolerance)
    return near if near.sum() >= 0.3 * len(offsets) else np.zeros(len(offsets), dtype=bool)


def snap_canvas() -> tuple[int, int]:
    """The margin and size of the square canvas a tile is rectified to for tracing its face."""
    margin = int(round(SNAP_MARGIN * SNAP_CELL))
    return margin, SNAP_CELL + 2 * margin


def face_traces(quad: np.ndarray, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted Lab traces across each side of the quad (side, place, depth, channel), from SNAP_INNER inside the
    side outward; the places' positions along the side in the rectified canvas; and the homography from the
    canvas to the image.

    Side k is traced in the canvas turned k times (np.rot90), where it is the top row at the margin, running left
    to right with the outside above it; only the traced pixels are sampled, straight from the full photo.
    """
    margin, size = snap_canvas()
    target = np.array([[0, 0], [SNAP_CELL, 0], [SNAP_CELL, SNAP_CELL], [0, SNAP_CELL]], dtype=np.float32) + margin
    from_canvas = np.linalg.inv(cv2.getPerspectiveTransform(quad.astype(np.float32), target))
    # Motif halves sit on the middle of each side and may reach the edge: the face is traced near the ends.
    ends = np.linspace(0.05, 0.2, SNAP_POSITIONS // 2)
    along = margin + np.r_[ends, 1 - ends[::-1]] * SNAP_CELL
    across = margin + SNAP_INNER - np.arange(SNAP_INNER + SNAP_OUTER + 1, dtype=np.float64)
    turned = np.stack(np.meshgrid(along, across, indexing="ij"), axis=-1).reshape(-1, 2)
    points = np.concatenate([apply_homography(from_canvas, unturn(turned, side, size)) for side in range(4)])
    where = points.reshape(4 * SNAP_POSITIONS, len(across), 2).astype(np.float32)
    samples = cv2.remap(image, where[..., 0], where[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(samples, cv2.COLOR_RGB2LAB).astype(np.float32) * SNAP_WEIGHTS
    return lab.reshape(4, SNAP_POSITIONS, len(across), 3), along, from_canvas


def unturn(points: np.ndarray, turns: int, size: int) -> np.ndarray:
    """Points (x, y) of a square canvas np.rot90-ed `turns` times, back in the canvas's own (x, y)."""
    points = np.asarray(points, dtype=np.float64)
    for _ in range(turns % 4):
        # np.rot90 once: new[i, j] = old[j, size - 1 - i], i.e. old x = size - 1 - new y, old y = new x.
        points = np.column_stack([size - 1 - points[:, 1], points[:, 0]])
    return points


def face_edge_offsets(profiles: np.ndarray) -> np.ndarray:
    """Outward offsets (pixels from the side) where the face colour ends for good along each trace across a side;
    NaN where a trace starts off the face, finds no clear end within SNAP_REACH, or sees a face come back.

    `profiles` holds weighted Lab traces (places x depth x 3), from SNAP_INNER pixels inside the side outward.
    """
    profiles = np.ascontiguousarray(profiles)
    places, length = profiles.shape[:2]
    depth = np.arange(length)
    # A printed frame line is a thin dark dip in lightness (its colour is the face's, darker): closed over, so
    # the face seems to run on to the edge. A side band is as thick or thicker, and differs in colour too.
    close = cv2.getStructuringElement(cv2.MORPH_RECT, (int(round(0.02 * SNAP_CELL)) | 1, 1))
    profiles[..., 0] = cv2.morphologyEx(np.ascontiguousarray(profiles[..., 0]), cv2.MORPH_CLOSE, close)
    start = int(round(0.05 * SNAP_CELL))  # the reference stretch: 5-10% inside, past any printed frame
    reference = np.median(profiles[:, :start], axis=1)
    distance = np.linalg.norm(profiles - reference[:, None], axis=2)
    noise = np.median(distance[:, :start], axis=1)
    tile_noise = np.median(noise)
    tolerance = max(4 * tile_noise, 6.0)
    # Face-like: nearer the face than half way to what lies outside (a pale table is near the face colour).
    outside = np.median(distance[:, SNAP_INNER + int(round(0.03 * SNAP_CELL)):], axis=1)
    face = distance < np.maximum(tolerance, 0.5 * outside)[:, None]
    run = int(round(0.025 * SNAP_CELL))  # off the face this long: the face left for good, not a printed line
    off = np.pad(~face, ((0, 0), (0, run)), constant_values=True).astype(np.int32)
    sums = np.cumsum(np.pad(off, ((0, 0), (1, 0))), axis=1)
    gone = (sums[:, run:run + length] - sums[:, :length] == run) & (depth >= start)
    leave = np.argmax(gone, axis=1)
    valid = gone.any(axis=1) & (leave <= SNAP_INNER + SNAP_REACH) & face[:, :start].all(axis=1)
    valid &= noise <= 2 * tile_noise + 1  # a motif's texture in the reference stretch
    # Beyond a seam or a narrow gap lies a neighbour's face: its colour comes back soon. Judged loosely in
    # lightness, as the neighbour may lie in other light.
    change = np.abs(profiles - reference[:, None])
    alike = (change[..., 0] < max(tolerance, 15.0)) & (np.linalg.norm(change[..., 1:], axis=2) < tolerance)
    later = np.clip(leave[:, None] + np.arange(SNAP_OUTER - SNAP_REACH), 0, length - 1)
    valid &= np.take_along_axis(alike, later, axis=1).mean(axis=1) < 0.3
    # The edge: where the trace rises through half its step off the face, just inward of where it left.
    window = np.clip(leave[:, None] + np.arange(run), 0, length - 1)
    half = np.median(np.take_along_axis(distance, window, axis=1), axis=1) / 2
    below = (distance <= half[:, None]) & (depth < leave[:, None])
    last_below = np.max(np.where(below, depth, start - 1), axis=1)
    j = np.clip(last_below + 1, 1, length - 1)
    place = np.arange(places)
    d0, d1 = distance[place, j - 1], distance[place, j]
    crossing = (j - 1) + np.clip((half - d0) / np.maximum(d1 - d0, 1e-6), 0, 1)
    return np.where(valid, crossing - SNAP_INNER, np.nan)


SEAM_STEP = 0.002  # of a side, between samples of a trace across a seam
SEAM_POSITIONS = 32  # places along a seam where it is traced across
SEAM_DEPTH = 0.14  # of a side, how far each trace reaches into either tile
SEAM_REFERENCE = 0.08  # of a side: a trace's stretch deeper than this into a tile is that tile's face
SEAM_APART = 0.07  # of a side: faces ending farther apart than this are not across one seam
SEAM_WIDTH = 0.025  # of a side: the widest a seam's dark line is (1-2% seen); a gap showing the table is wider


def fit_seams(tiles: list[np.ndarray], image: np.ndarray) -> list[np.ndarray]:
    """The quads (full-resolution pixels, clockwise on screen) with each side shared with a touching neighbour
    moved onto their seam, one straight line for both tiles.

    Across a seam each face ends either at the seam itself (real tiles) or at a printed frame line as far inside
    its own edge as the other's (generated ones): either way the seam lies midway between where the two faces
    end. Fitting it once for both tiles keeps neighbours from overlapping or leaving a sliver between them.
    """
    lines = [[line_through(q[s], q[(s + 1) % 4]) for s in range(4)] for q in tiles]
    for a, i, b, j in neighbour_sides(tiles):
        seam = seam_line(tiles[a], i, tiles[b], j, image)
        if seam is not None:
            lines[a][i] = lines[b][j] = seam
    result = []
    for quad, sides in zip(tiles, lines):
        try:
            moved = quad_from_lines(sides)
        except ValueError:
            moved = quad
        side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
        result.append(moved if np.max(np.linalg.norm(moved - quad, axis=1)) < 0.15 * side else quad)
    return result


def outward_normal(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    direction = (end - start) / np.linalg.norm(end - start)
    return np.array([direction[1], -direction[0]])  # clockwise on screen (y down): the outside is on the left


def neighbour_sides(tiles: list[np.ndarray]) -> list[tuple[int, int, int, int]]:
    """Pairs of facing sides (tile a, side i, tile b, side j), a < b, of tiles that lie side by side: b's centre
    about a side's length straight out from a's side i, and j the side of b turned most nearly against it."""
    centres = np.array([q.mean(axis=0) for q in tiles])
    pairs = []
    for a, quad in enumerate(tiles):
        side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
        for i in range(4):
            start, end = quad[i], quad[(i + 1) % 4]
            normal = outward_normal(start, end)
            direction = (end - start) / np.linalg.norm(end - start)
            middle = (start + end) / 2
            away, along = (centres - middle) @ normal, (centres - middle) @ direction
            near = np.flatnonzero((away > 0.3 * side) & (away < 0.75 * side) & (np.abs(along) < 0.3 * side))
            for b in near[near > a]:
                other = tiles[b]
                facing = [outward_normal(other[k], other[(k + 1) % 4]) @ normal for k in range(4)]
                pairs.append((a, i, int(b), int(np.argmin(facing))))
    return pairs


def seam_line(first: np.ndarray, i: int, second: np.ndarray, j: int, image: np.ndarray) -> np.ndarray | None:
    """The seam between side i of one quad and side j of its neighbour (quads clockwise on screen), as a line
    (a, b, c); None where the faces do not clearly end on both sides of one seam along most of it."""
    ends = np.array([first[i], first[(i + 1) % 4]])
    facing = np.array([second[(j + 1) % 4], second[j]])  # clockwise quads run along a shared side in turn
    guess = (ends + facing) / 2  # first guess: midway between the two sides
    length = float(np.linalg.norm(guess[1] - guess[0]))
    direction, normal = (guess[1] - guess[0]) / length, outward_normal(*guess)
    side = float(np.mean(np.linalg.norm(first - np.roll(first, -1, axis=0), axis=1)))
    # The stretch both sides share.
    shared = np.sort(np.clip((np.r_[ends, facing] - guess[0]) @ direction, 0, length).reshape(2, 2), axis=1)
    low, high = shared[:, 0].max(), shared[:, 1].min()
    if high - low < 0.5 * side:
        return None
    # Motif halves sit on the middle of the side and may reach the seam: the faces are traced near the ends.
    fractions = np.linspace(0.05, 0.2, SEAM_POSITIONS // 2)
    along = low + np.r_[fractions, 1 - fractions[::-1]] * (high - low)
    depth = np.arange(-SEAM_DEPTH, SEAM_DEPTH + SEAM_STEP / 2, SEAM_STEP) * side
    where = (guess[0] + along[:, None, None] * direction + depth[None, :, None] * normal).astype(np.float32)
    samples = cv2.remap(image, where[..., 0], where[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    traces = cv2.cvtColor(samples, cv2.COLOR_RGB2LAB).astype(np.float32) * SNAP_WEIGHTS
    # Where each face ends, traced from deep inside it towards the other: the seam lies midway.
    near_end, off_near = face_end(traces)
    far_end, off_far = face_end(traces[:, ::-1])
    far_end = len(depth) - 1 - far_end
    apart = far_end - near_end
    valid = np.isfinite(apart) & (apart > 0) & (apart < SEAM_APART / SEAM_STEP)
    middle = np.interp(np.where(valid, (near_end + far_end) / 2, 0), np.arange(len(depth)), depth)
    # A seam is a thin dark line (with printed frames, a face's thin strip on either side of it); the table
    # showing through a gap between tiles is wider, and each tile's edge is then its own.
    between = (np.arange(len(depth)) > near_end[:, None]) & (np.arange(len(depth)) < far_end[:, None])
    neither = off_near & off_far[:, ::-1] & between
    valid &= longest_run(neither) <= SEAM_WIDTH / SEAM_STEP
    offsets = np.where(valid, middle, np.nan)
    good = np.concatenate([agreeing(half, 0.01 * side) for half in np.split(offsets, 2)])
    if not good[: len(good) // 2].any() or not good[len(good) // 2:].any():
        return None  # both ends are needed to set the seam's slope
    return robust_line(guess[0] + along[good, None] * direction + offsets[good, None] * normal)


def face_end(traces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where (sub-sample index) each trace, starting deep in a face, first leaves the face colour for two samples
    in a row, NaN where the start is not plain face; and which samples are off that face."""
    off, distance, threshold, ok = off_face(traces)
    count = len(traces)
    left = off[:, :-1] & off[:, 1:]
    left[:, : int(round(SEAM_REFERENCE / SEAM_STEP))] = False
    first = np.argmax(left, axis=1)
    place = np.arange(count)
    d0, d1 = distance[place, np.maximum(first - 1, 0)], distance[place, first]
    crossing = first - 1 + np.clip((threshold - d0) / np.maximum(d1 - d0, 1e-6), 0, 1)
    return np.where(ok & left.any(axis=1), crossing, np.nan), off


def off_face(traces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Which samples of each trace are off the face its start lies on; the distance from that face's colour and
    the threshold it is judged by; and whether the start is plain face."""
    start = int(round(SEAM_REFERENCE / SEAM_STEP))
    reference = np.median(traces[:, :start], axis=1)
    distance = np.sqrt(np.square(traces - reference[:, None]).sum(axis=2))
    noise = np.median(distance[:, :start], axis=1)
    tile_noise = float(np.median(noise))
    # A frame line or the seam: a clear step off the face, part way to the darkest point between the faces.
    threshold = np.maximum(max(4 * tile_noise, 8.0), 0.4 * distance[:, start:-start].max(axis=1))
    off = distance > threshold[:, None]
    # A motif in the reference stretch is far noisier than the face; an over-exposed face has no noise at all.
    ok = (noise <= 2 * tile_noise + 4) & ~off[:, :start].any(axis=1)
    return off, distance, threshold, ok


def longest_run(flags: np.ndarray) -> np.ndarray:
    """The longest run of True in each row."""
    counts = np.cumsum(flags, axis=1)
    runs = counts - np.maximum.accumulate(np.where(flags, 0, counts), axis=1)
    return runs.max(axis=1)
