"""Printed artwork of edge-matching puzzles: which motifs a puzzle has and how a tile's face looks.

Each motif is drawn whole once in a canonical frame (see figures.py) and cut at y = 0; the + half is
the part above the cut, the - half the part below. A tile shows each half with its cut on the edge,
so two matching tiles laid side by side show the whole figure across the seam.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from photosolve.solver.tiles import Edges

from . import figures, pictures
from .faces import FacePrint, face_rgb
from .figures import DEPTH, FIGURES, HALF_WIDTH, Pen
from .pictures import Picture

RGB = tuple[int, int, int]

CORNER_RADIUS = 0.03  # of the side
BORDER_INSET = 0.014  # centre line of the printed border, from the outline
BORDER_WIDTH = 0.005
CORNER_CLEAR = 0.05  # margin kept between a half and the diagonals, so neighbouring halves never touch


@dataclass(frozen=True)
class Motif:
    """One motif of a puzzle: a figure drawing in its colours, and what its two halves are called."""

    name: str
    figure: str
    colours: tuple[RGB, ...]  # main, secondary, accents
    plus_half: str = "head"
    minus_half: str = "tail"
    picture: Picture | None = None  # an emoji or photo shown instead of the figure drawing
    extent: float = 1.0  # the half's frame (DEPTH, HALF_WIDTH) scaled: figures covering more of the tile


@dataclass(frozen=True)
class Artwork:
    """The printed look of one puzzle: its motifs by number, face colour and border line colour."""

    name: str
    motifs: dict[int, Motif] = field(hash=False)  # a dict reads naturally; hashing uses `key`
    face: RGB = (244, 240, 228)
    border: RGB = (60, 60, 60)
    key: tuple = field(default=(), repr=False)  # what makes two artworks of one name differ (seed)
    design: FacePrint | None = None  # a face printed other than plain `face` (strong, bordered, busy)

    @property
    def motif_names(self) -> dict[int, str]:
        return {k: m.name for k, m in sorted(self.motifs.items())}

    @property
    def half_names(self) -> dict[str, dict[str, str]]:
        return {m.name: {"+": m.plus_half, "-": m.minus_half} for _, m in sorted(self.motifs.items())}


def _motifs(figure_of, names, colours, plus="head", minus="tail") -> dict[int, Motif]:
    return {i + 1: Motif(n, figure_of(n), tuple(c), plus, minus) for i, (n, c) in enumerate(zip(names, colours))}


_PUZZLES: dict[str, Artwork] = {
    "dogs": Artwork("dogs", _motifs(
        lambda n: "spotted_dog" if n == "spotted" else "dog",
        ("brown", "grey", "spotted", "umber"),
        (((166, 98, 52), (206, 150, 98), (60, 30, 20)),
         ((140, 140, 146), (196, 196, 200), (40, 40, 44)),
         ((178, 140, 96), (128, 74, 38), (60, 36, 20)),
         ((112, 80, 52), (150, 116, 84), (40, 26, 16))))),
    "insects": Artwork("insects", _motifs(
        lambda n: n,
        ("mantis", "beetle", "dragonfly", "ant"),
        (((112, 182, 58), (176, 222, 110), (40, 80, 20)),
         ((150, 40, 150), (70, 20, 90), (240, 200, 60)),
         ((30, 150, 200), (190, 225, 245), (20, 60, 110)),
         ((170, 50, 30), (60, 24, 16), (30, 20, 20)))),
        face=(246, 246, 238)),
    "nsa": Artwork("nsa", _motifs(
        lambda n: "badge",
        ("airforce", "army", "marines", "navy"),
        (((36, 70, 190), (196, 200, 210), (255, 255, 255)),
         ((32, 32, 32), (214, 176, 56), (120, 110, 80)),
         ((196, 22, 34), (220, 180, 60), (255, 255, 255)),
         ((16, 32, 92), (214, 176, 56), (255, 255, 255))),
        plus="top", minus="bottom"),
        face=(236, 240, 246)),
    "cats": Artwork("cats", _motifs(
        lambda n: n,
        ("tiger", "lion", "panther", "jaguar"),
        (((236, 128, 30), (30, 24, 20), (250, 240, 220)),
         ((206, 164, 98), (140, 84, 36), (250, 236, 200)),
         ((38, 36, 42), (90, 90, 100), (190, 210, 60)),
         ((226, 184, 72), (40, 30, 20), (160, 100, 40))),
        plus="front", minus="back"),
        face=(248, 244, 232)),
}

PUZZLE_ARTWORK = ("dogs", "insects", "nsa", "cats")


def artwork(name: str) -> Artwork:
    """The artwork of one of the known puzzles (PUZZLE_ARTWORK)."""
    if name not in _PUZZLES:
        raise ValueError(f"unknown artwork {name!r}: choose one of {', '.join(PUZZLE_ARTWORK)}")
    return _PUZZLES[name]


# Named colours a person would use; random artworks pick well-separated ones.
NAMED_COLOURS: dict[str, RGB] = {
    "red": (214, 40, 40), "orange": (240, 130, 20), "yellow": (242, 206, 30), "lime": (150, 210, 40),
    "green": (40, 150, 60), "teal": (20, 140, 140), "cyan": (40, 190, 225), "blue": (40, 80, 210),
    "navy": (24, 34, 100), "purple": (120, 50, 170), "magenta": (210, 40, 160), "pink": (245, 140, 180),
    "brown": (130, 80, 40), "grey": (128, 128, 134), "black": (30, 30, 34), "olive": (120, 120, 30),
    "maroon": (120, 20, 40), "ochre": (200, 150, 50), "violet": (170, 130, 230), "mint": (140, 230, 180),
}

FAMILIES: dict[str, tuple[str, ...]] = {
    "dogs": ("dog", "spotted_dog"),
    "insects": ("mantis", "beetle", "dragonfly", "ant"),
    "badges": ("badge",),
    "cats": ("tiger", "lion", "panther", "jaguar"),
}


def _lab(rgb) -> np.ndarray:
    px = np.asarray(rgb, dtype=np.float32).reshape(-1, 1, 3) / 255.0
    return cv2.cvtColor(px, cv2.COLOR_RGB2Lab).reshape(-1, 3)


def colour_distance(a: RGB, b: RGB) -> float:
    """CIE76 colour difference (Delta E) between two RGB colours."""
    la, lb = _lab([a, b])
    return float(np.linalg.norm(la - lb))


def _pick_colours(count: int, face: RGB, rng: np.random.Generator) -> list[str]:
    """Names of `count` named colours, far apart from each other and from the face, greedily."""
    names = [n for n, c in NAMED_COLOURS.items() if colour_distance(c, face) > 25]
    labs = dict(zip(names, _lab([NAMED_COLOURS[n] for n in names])))
    chosen = [names[int(rng.integers(len(names)))]]
    while len(chosen) < count:
        rest = [n for n in names if n not in chosen]
        gaps = np.array([min(np.linalg.norm(labs[n] - labs[c]) for c in chosen) for n in rest])
        # a little noise so different seeds give different sets, but never a close pair
        score = gaps + rng.uniform(0, 12, len(rest))
        chosen.append(rest[int(np.argmax(score))])
    return chosen


def random_artwork(motifs: int, seed: int) -> Artwork:
    """A never-seen artwork: `motifs` motifs (1..12) of one figure family in new colours, on a
    random light face."""
    if not 1 <= motifs <= 12:
        raise ValueError(f"random artwork needs 1 to 12 motifs, not {motifs}")
    rng = np.random.default_rng([seed, motifs, 7919])
    family = list(FAMILIES)[int(rng.integers(len(FAMILIES)))]
    hue = rng.uniform(0, 180)
    face_hsv = np.uint8([[[hue, rng.uniform(0, 40), rng.uniform(236, 252)]]])
    face = tuple(int(v) for v in cv2.cvtColor(face_hsv, cv2.COLOR_HSV2RGB)[0, 0])
    names = _pick_colours(motifs, face, rng)
    figs = FAMILIES[family]
    plus, minus = ("top", "bottom") if family == "badges" else ("head", "tail")
    out = {}
    for i, n in enumerate(names):
        main = NAMED_COLOURS[n]
        secondary = figures.shade(main, 0.55) if np.mean(main) > 110 else figures.shade(main, 1.5)
        accent = NAMED_COLOURS[names[(i + 1) % len(names)]] if family == "badges" else figures.shade(main, 0.35)
        out[i + 1] = Motif(n, figs[i % len(figs)], (main, secondary, accent), plus, minus)
    return Artwork(f"random-{motifs}-{seed}", out, face=face, border=figures.shade(face, 0.3),
                   key=(seed, motifs))


# ---------------------------------------------------------------------------------------------
# Drawing

def _half_size(size: int, extent: float = 1.0) -> tuple[int, int]:
    """(depth, width) in pixels of one half; width has the parity of `size` so halves centre exactly."""
    width = int(round(2 * HALF_WIDTH * extent * size))
    if (size - width) % 2:
        width -= 1
    return int(round(min(DEPTH * extent, 0.5 - CORNER_CLEAR) * size)), width


def _motif_seed(m: Motif) -> int:
    # crc32, not hash(): str hashes change between runs and the print must not
    return zlib.crc32(f"{m.figure}|{m.name}|{m.colours}".encode())


@lru_cache(maxsize=256)
def _whole_figure(m: Motif, size: int) -> np.ndarray:
    """The whole figure, premultiplied float32 RGBA (2*depth, width, 4), cut between the two halves."""
    if m.picture is None and m.figure not in FIGURES:
        raise ValueError(f"no drawing for figure {m.figure!r} of motif {m.name!r}")
    depth, width = _half_size(size, m.extent)
    ss = 3 if size < 256 else 2  # supersample; cv2 anti-aliasing alone is too soft on thin lines
    reach = 0.5 - CORNER_CLEAR
    if m.picture is not None:
        canvas = pictures.whole(m.picture, 2 * depth * ss, width * ss, size * ss, reach)
    else:
        canvas = np.zeros((2 * depth * ss, width * ss, 4), np.uint8)
    pen = Pen(canvas, size * ss, (width * ss / 2 - 0.5, depth * ss - 0.5))
    if m.picture is None:
        FIGURES[m.figure](pen, m.colours, np.random.default_rng(_motif_seed(m)))
    # keep the figure inside its triangle towards the tile centre, clear of the corners
    mask = np.zeros(canvas.shape[:2], np.uint8)
    tri = [(-reach, 0), (0, -reach), (reach, 0), (0, reach)]
    cv2.fillPoly(mask, [np.array([pen.pt(x, y) for x, y in tri], np.int32)], 255, cv2.LINE_AA, 4)
    canvas = cv2.multiply(canvas, cv2.merge([mask] * 4), scale=1 / 255)
    small = cv2.resize(canvas, (width, 2 * depth), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255


def visible_halves(picture: Picture, size: int = 96, extent: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The two halves of a picture motif as printed on tiles of `size` pixels (premultiplied RGBA float 0..1,
    the + half above the cut, the - half below it, each clipped to its triangle)."""
    whole = _whole_figure(Motif("", "picture", (), picture=picture, extent=extent), size)
    depth = whole.shape[0] // 2
    return whole[:depth], whole[depth:]


@lru_cache(maxsize=512)
def _half(m: Motif, plus: bool, side: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """One half placed on one side (0..3 = N E S W): premultiplied RGB (0..255) and 1 - alpha,
    laid out as the region of the tile it covers."""
    whole = _whole_figure(m, size)
    depth = whole.shape[0] // 2
    # on the north edge the + half (above the cut) is turned half round so its cut is on top;
    # every other side is the north placement turned clockwise with the tile
    half = whole[:depth][::-1, ::-1] if plus else whole[depth:]
    half = np.ascontiguousarray(np.rot90(half, -side))
    rgb, keep = half[..., :3] * 255, 1 - half[..., 3:]
    rgb.setflags(write=False)
    keep.setflags(write=False)
    return rgb, keep


def _region(side: int, size: int, extent: float = 1.0) -> tuple[slice, slice]:
    """Rows and columns of the tile that the half on `side` covers."""
    depth, width = _half_size(size, extent)
    x0 = (size - width) // 2
    along, inward = slice(x0, x0 + width), (slice(0, depth), slice(size - depth, size))
    return [(inward[0], along), (along, inward[1]), (inward[1], along), (along, inward[0])][side]


def _rounded_distance(size: int) -> np.ndarray:
    """Signed distance (px) of each pixel centre to the rounded tile outline, negative inside."""
    r = CORNER_RADIUS * size
    c = (np.arange(size) + 0.5 - size / 2)
    q = np.abs(c) - (size / 2 - r)
    qx, qy = q[None, :], q[:, None]
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    return outside + np.minimum(np.maximum(qx, qy), 0) - r


@lru_cache(maxsize=32)
def _blank(face: RGB, border: RGB, size: int, design: FacePrint | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The empty printed face (float RGB 0..255) with its border line, and the outline's alpha."""
    d = _rounded_distance(size)
    alpha = np.clip(255 * (0.5 - d) + 0.5, 0, 255).astype(np.uint8)
    inset, width = BORDER_INSET * size, max(1.0, BORDER_WIDTH * size)
    line = np.clip(width / 2 + 0.5 - np.abs(d + inset), 0, 1)[..., None]
    card = np.asarray(face, np.float32) if design is None else face_rgb(design, size)
    rgb = (card * (1 - line) + np.asarray(border, np.float32) * line).astype(np.float32)
    rgb.setflags(write=False)
    alpha.setflags(write=False)
    return rgb, alpha


def draw_tile(edges: Edges, art: Artwork, size: int = 512) -> np.ndarray:
    """The printed top face of one tile, N edge on top: (size, size, 4) uint8 RGBA, transparent
    outside its rounded corners. Edge 0 shows no motif."""
    for e in edges:
        if e != 0 and abs(e) not in art.motifs:
            raise ValueError(f"artwork {art.name!r} has no motif {abs(e)} (edge {e}); "
                             f"it has {sorted(art.motifs)}")
    blank, alpha = _blank(tuple(art.face), tuple(art.border), size, art.design)
    rgb = blank.copy()
    for side, e in enumerate(edges):
        if e == 0:
            continue
        motif = art.motifs[abs(e)]
        colour, keep = _half(motif, e > 0, side, size)
        region = rgb[_region(side, size, motif.extent)]
        region *= keep
        region += colour
    out = np.empty((size, size, 4), np.uint8)
    out[..., :3] = cv2.convertScaleAbs(rgb)  # rounds and saturates
    out[..., 3] = alpha
    return out
