"""Masks of what differs from the photo's background: for tiles whose face is close to the table's colour.

The face-colour masks fail when the table is as pale as the faces (white tiles on a white desk): the lightest
colour in the photo is then the table's. But the table is what the photo's border shows, and tiles lie inside
it: whatever differs from every colour along the border, even a little (a cool white on a warm one, motifs on
both), is a tile or something else on the table. Motif pieces that happen to be a border colour leave holes,
which are filled. A speckled table (granite) shares its colours with dark printed faces pixel by pixel; over a
few speckles, in mean and spread, it does not (texture_masks).

A tile whose face is the table's colour (a black face on a dark slate) still differs from it along its outline:
a thin light line (a bevel, or a frame printed just inside the edge), broken in places, and the motifs reaching
the edge. Closed across such breaks and filled, that ring is the tile, near enough for its sides to be searched
for on their edges (rim_masks).
"""
from __future__ import annotations

import cv2
import numpy as np

from .masks import LAB_WEIGHTS, odd

# Moved: 0.0225 dev 46, test 34; 0.0375 dev 45, test 39.
BORDER = 0.03  # of the photo's longer side: the ring along the border whose colours are the background's
# Moved: 6 dev 46, test 35; 10 dev 44, test 35.
BORDER_COLOURS = 8  # a table, its grain or stripes, and things lying on it at the border
# Of the ring's pixels: a colour this rare there is something lying across the border, not the table. A dark tile
# whose corner reached 18 pixels from a white desk's edge made four colours of 0.3-0.8% (dev photos-a easy 20007).
# Only the colours are weighed so: a texture this rare at the border was a speckled table's (dev emoji-food easy
# 20011 lost its tiles to the texture reading when it was left out).
# Moved to 0.0075 or 0.0125: dev and test as set.
FEW_AT_BORDER = 0.01
# Moved: (4.5,6.0,8.25) dev 46, test 33; (7.5,10.0,13.75) dev 44, test 36.
DIFFERENCE_THRESHOLDS = (6.0, 8.0, 11.0)  # weighted Lab distance from the nearest border colour, loosest first
# Moved to 0.0019 or 0.0031: dev and test as set.
CLOSE = 0.0025  # of the photo's longer side: cracks closed within a tile, far narrower than a gap between tiles
# Moved: 0.003 dev 46, test 33; 0.005 dev 44, test 35.
OPEN = 0.004  # of the photo's longer side: thin bridges (a cable, a shadow line) between tiles cut
# Moved: 0.0075 dev 46, test 37; 0.0125 dev 46, test 38.
TEXTURE_WINDOW = 0.01  # of the photo's longer side: a few of a granite's speckles, a tenth of a tile's side
# Of the photo's longer side: breaks closed in a tile's outline ring (rim_masks). The light rings of black faces on
# dark slate and granite broke in places 3-8 work pixels long (0.003-0.007; dev photos-a medium and hard 20007);
# the gaps of a hand-laid board close too, and its block is split as a grid.
# Moved: 0.0075 dev 45, test 33; 0.0125 dev 45, test 33.
RIM_CLOSE = 0.01
# How many times more than the table's own neighbourhoods along the border differ from its main ones (their median)
# a neighbourhood must differ to be something on the table. On 25 dev photos of busy pale faces on a white desk
# (grey bricks, pale prints; all tiers), 99% of the table away from the tiles lay under 2-3.6 times that level but
# for a lit patch (up to 6.1); a face's inner three quarters over 2.5-10 times (the hard tier's noise raises the
# level), its outline band (bevel, shadow) higher still. 3 and 5 found as many tiles exactly, 6 fewer.
# Moved to 3.0 or 5.0: dev and test as set.
TEXTURE_BEYOND_TABLE = 4.0
# The table's own level counted as at least this: a flat desk's lay at 0.6-2.2 on those photos; a table flat to the
# bit would otherwise take its every speck of noise for a tile.
# Moved to 0.375 or 0.625: dev and test as set.
LEAST_TEXTURE_LEVEL = 0.5
# Moved: 0.75 dev 46, test 36; 1.25 dev 46, test 34.
SPREAD_WEIGHT = 1.0  # a neighbourhood's spread of lightness weighs as its colour does, and thrice its mean lightness


def table_difference(lab: np.ndarray) -> np.ndarray:
    """How much each pixel of a Lab image differs from the table: its weighted Lab distance from the nearest main
    colour of the photo's border, smoothed."""
    difference = distance_from_border_colours(lab)
    # A median settles the table's grain and the JPEG noise without rounding a tile's corners much.
    return cv2.medianBlur(np.clip(difference * 4, 0, 255).astype(np.uint8), 5) / 4.0


def texture_difference(lab: np.ndarray) -> np.ndarray:
    """How much each pixel's neighbourhood differs from the table's, in its mean colour and its lightness's spread
    (a window TEXTURE_WINDOW of the photo's longer side), against the main neighbourhoods along the photo's border.

    A speckled stone (granite) is as dark and as light as a dark tile with stars printed on it, pixel by pixel;
    in the mean and spread over a few speckles they differ.
    """
    height, width = lab.shape[:2]
    small = cv2.resize(lab, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_AREA)
    window = odd(TEXTURE_WINDOW * max(small.shape[:2]))
    mean = cv2.blur(small, (window, window))
    lightness = small[..., 0]
    spread = np.sqrt(np.maximum(cv2.blur(lightness * lightness, (window, window)) - mean[..., 0] ** 2, 0))
    features = np.dstack([mean * LAB_WEIGHTS, spread * SPREAD_WEIGHT]).astype(np.float32)
    return distance_to_nearest(features, border_colours(features), (width, height))


def texture_masks(texture: np.ndarray):
    """A mask (uint8 0/255) of the neighbourhoods that differ from the table's (`texture`, see texture_difference),
    split from the table at the difference's Otsu threshold: what differs from a speckled or grained table."""
    scaled = np.clip(texture * 4, 0, 255).astype(np.uint8)
    level, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    yield solid_regions(scaled > level)


def texture_beyond_table_masks(texture: np.ndarray):
    """A mask (uint8 0/255) of the neighbourhoods that differ from the table's (`texture`, see texture_difference)
    TEXTURE_BEYOND_TABLE times more than the table's own neighbourhoods along the photo's border do.

    Otsu's threshold splits the photo's most different neighbourhoods from the rest: where bright motifs lie on a
    busy face nearly the table's colour (grey bricks on a white desk), the motifs from the faces and the table. The
    table's own spread says how much differing is the table's doing, whatever the faces hold.
    """
    level = max(float(np.median(border_ring(texture))), LEAST_TEXTURE_LEVEL)
    yield solid_regions(texture > TEXTURE_BEYOND_TABLE * level)


def border_ring(values: np.ndarray) -> np.ndarray:
    """The values (h x w, or h x w x C: then one row per pixel) in the ring BORDER wide along the photo's border."""
    height, width = values.shape[:2]
    ring = max(4, int(round(BORDER * max(height, width))))
    channels = values.shape[2:]
    strips = (values[:ring], values[-ring:], values[ring:-ring, :ring], values[ring:-ring, -ring:])
    return np.concatenate([strip.reshape(-1, *channels) for strip in strips])


def background_masks(difference: np.ndarray):
    """Masks (uint8 0/255) of the pixels that differ from the table (`difference`, see table_difference), from the
    loosest threshold to stricter ones."""
    for threshold in DIFFERENCE_THRESHOLDS:
        yield solid_regions(difference > threshold)


def rim_masks(difference: np.ndarray):
    """A mask (uint8 0/255) of what the outlines that differ from the table (`difference`, at its loosest
    threshold) enclose once their breaks (RIM_CLOSE) are closed: tiles whose faces are the table's colour."""
    yield solid_regions(difference > DIFFERENCE_THRESHOLDS[0], RIM_CLOSE)


def solid_regions(differs: np.ndarray, close: float = CLOSE) -> np.ndarray:
    """A mask (uint8 0/255) of where the table is not (boolean), cleaned: cracks within a tile closed (`close`, of
    the photo's longer side), holes filled, thin bridges between tiles cut."""
    closing, opening = (cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
                        for size in (odd_size(close, differs), odd_size(OPEN, differs)))
    mask = cv2.morphologyEx(differs.astype(np.uint8) * 255, cv2.MORPH_CLOSE, closing)
    return cv2.morphologyEx(filled(mask), cv2.MORPH_OPEN, opening)


def odd_size(fraction: float, image: np.ndarray) -> int:
    """An odd kernel size, at least 3, of `fraction` of the image's longer side."""
    return odd(fraction * max(image.shape[:2]))


def filled(mask: np.ndarray) -> np.ndarray:
    """The mask with every hole filled: motif pieces of a border colour leave holes in a tile."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    solid = np.zeros_like(mask)
    cv2.drawContours(solid, contours, -1, 255, thickness=cv2.FILLED)
    return solid


def border_colours(lab: np.ndarray, rare: float = 0.0) -> np.ndarray:
    """The main colours (Lab, or other features) of a ring along the photo's border, leaving out any that fewer
    than `rare` of its pixels have."""
    pixels = border_ring(lab)
    pixels = np.ascontiguousarray(pixels[:: max(1, len(pixels) // 20000)], dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(7)
    _, labels, centres = cv2.kmeans(pixels, BORDER_COLOURS, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    # A tile lying across the ring by a corner is a few of its pixels; the table, even a speckled one, is far more.
    shares = np.bincount(labels.ravel(), minlength=len(centres)) / len(labels)
    return centres[shares >= min(rare, shares.max())]


def distance_from_border_colours(lab: np.ndarray) -> np.ndarray:
    """Each pixel's weighted Lab distance from the nearest of the border's main colours.

    Measured at half resolution and scaled back up: the distance is smoothed afterwards anyway, and the sides
    are put on the photo's own edges later.
    """
    height, width = lab.shape[:2]
    small = cv2.resize(lab, (max(1, width // 2), max(1, height // 2)), interpolation=cv2.INTER_AREA)
    table_colours = border_colours(lab, FEW_AT_BORDER)
    return distance_to_nearest(small * LAB_WEIGHTS, table_colours * LAB_WEIGHTS, (width, height))


def distance_to_nearest(features: np.ndarray, colours: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Each pixel's distance from the nearest of the colours (features: h x w x C, colours: K x C), scaled up
    to `size` (width, height)."""
    pixels = features.reshape(-1, features.shape[-1])
    nearest = np.concatenate([nearest_squared_distance(pixels[start:start + SLICE], colours)
                              for start in range(0, len(pixels), SLICE)])
    distance = np.sqrt(np.maximum(nearest, 0)).reshape(features.shape[:2])
    return cv2.resize(distance, size, interpolation=cv2.INTER_LINEAR)


# Pixels per matrix product: small enough that the linear algebra library does the product on one thread. Waking
# its threads for the whole photo at once cost ten times the arithmetic on a busy two-core machine; each pixel's
# products are the same either way.
SLICE = 8192


def nearest_squared_distance(pixels: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """Each pixel's squared distance to the nearest of the colours (both weighted Lab, N x 3 and K x 3)."""
    # |p - c|^2 = |p|^2 - 2 p.c + |c|^2, for all colours at once: one matrix product instead of a pass per colour.
    squared = np.einsum("ij,ij->i", pixels, pixels)[:, None] - 2 * pixels @ colours.T + (colours**2).sum(axis=1)
    return np.minimum.reduce(squared.T)  # squared.min(axis=1), faster: numpy reduces a short last axis slowly
