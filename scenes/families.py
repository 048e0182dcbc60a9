"""Art families of puzzles unlike the drawn ones, split into DEV families (fit and tune on these only) and TEST
families (never tuned on; only reported).

    make_scene("family:emoji-animals", seed, tier="hard")      # 4 motifs on 3x3
    make_scene("family:photos-b:6", seed, tier="medium")       # 6 motifs

A family's artwork is decided by (family, motifs, seed): which pictures are the motifs (emoji from Noto Color Emoji,
or crops of skimage's photos), how they are alike (distinct figures; figures of one colour; one figure recoloured,
two colours close; variants differing only in a small detail), how large they are, and what the face is printed
with (plain, a strong colour, a coloured border, a busy picture). Each puzzle mixes these, seeded. Photos of a family
also take tables and photo sizes beyond the standard tiers: granite, white desks, dark tables (dark tiles on a dark
table in the hard tier), 0.8 to 12 megapixels.
"""
from __future__ import annotations

import unicodedata
import zlib
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Callable

import numpy as np

from . import emoji, photoart
from .artwork import Artwork, Motif, colour_distance, visible_halves
from .faces import BUSY_PATTERNS, FacePrint
from .figures import shade
from .pictures import PHOTO_SHAPES, Picture, Recolour, hue_bands

RGB = tuple[int, int, int]
MOTIF_KINDS = ("distinct", "alike", "recoloured", "detail")

# Strong face colours real puzzles print on (yellow, green, purple, black and the like).
STRONG_FACES: dict[str, RGB] = {
    "yellow": (250, 212, 40), "green": (56, 150, 72), "purple": (108, 52, 150), "black": (26, 26, 30),
    "red": (196, 40, 44), "blue": (36, 88, 186), "orange": (240, 140, 32), "teal": (24, 132, 136),
    "navy": (22, 30, 78), "pink": (238, 150, 186),
}


@dataclass(frozen=True)
class Family:
    """One art family: its name, whether it is for development or only for testing, and how its motifs are made
    (`motifs(count, kind, rng)` gives count (name, Picture) pairs)."""

    name: str
    split: str  # "dev" | "test"
    about: str
    motifs: Callable[[int, str, np.random.Generator], list[tuple[str, Picture]]]
    extent: tuple[float, float]  # range of the motif frame's scale (1 = the drawn figures' frame)
    needs_font: bool


# ---------------------------------------------------------------------------------------------
# Motifs

def _emoji_name(text: str) -> str:
    """'dog' for 🐶, 'adult rocket' for 🧑‍🚀: the Unicode names of its characters, modifiers left out."""
    words = []
    for ch in text:
        if ch in "\u200d\ufe0f" or ch in emoji.SKIN_TONES:
            continue
        words.append(unicodedata.name(ch, f"u{ord(ch):x}").lower().replace(" face", ""))
    return " ".join(words)


def _pick(pool, count: int, rng: np.random.Generator) -> list:
    return [pool[i] for i in rng.choice(len(pool), size=min(count, len(pool)), replace=False)]


def _hues(count: int, rng: np.random.Generator, start: float | None = None, close: bool = True) -> list[float]:
    """`count` hues spread round the circle from `start` (the picture's own hue, kept as the first, so no
    variant repeats the original); with `close`, the last is only 20-30 degrees from the first (close colours)."""
    start = rng.uniform(0, 360) if start is None else start
    spread = count - 1 if close and count > 1 else count
    hues = [start] + [(start + 360 * i / spread + rng.uniform(-8, 8)) % 360 for i in range(1, spread)]
    if close and count > 1:
        hues.append((start + rng.choice([-1, 1]) * rng.uniform(20, 30)) % 360)
    return hues[:count]


def _recoloured(pool, count: int, rng: np.random.Generator, small: bool) -> list[tuple[str, Picture]]:
    """One emoji in `count` variants: its main colour moved (small=False) or small coloured details moved, seen on
    both halves (small=True)."""
    if small:
        for text in _pick(pool, len(pool), rng):
            bands = [hue for hue, share in hue_bands(np.asarray(emoji.glyph(text))) if 0.02 <= share <= 0.15]
            # details in clearly different colours, the original among them
            targets = _hues(count, rng, start=bands[0] if bands else 0.0, close=False)
            values = [1.0 if i % 2 == 0 else float(rng.uniform(0.75, 1.0)) for i in range(count)]
            for moved in _band_choices(bands):
                variants = [Picture("emoji", text, recolour=_moves(moved, 22.0, to - targets[0], value))
                            for to, value in zip(targets, values)]
                if _differ_on_both_halves(variants):
                    return [(f"{_emoji_name(text)} {i + 1}", p) for i, p in enumerate(variants)]
        raise ValueError("no emoji in the pool has small details seen on both halves to recolour")
    for text in _pick(pool, len(pool), rng):
        bands = hue_bands(np.asarray(emoji.glyph(text)))
        fitting = [b for b in bands if b[1] >= 0.25]
        if fitting:
            break
    else:
        raise ValueError("no emoji in the pool has a colour band to recolour")
    hue = fitting[0][0]
    out = []
    for i, to in enumerate(_hues(count, rng)):  # a whole figure in new colours, two of them close
        value = 1.0 if i % 2 == 0 else float(rng.uniform(0.75, 1.0))
        change = (Recolour(hue, 22.0, float(to), value),)
        out.append((f"{_emoji_name(text)} {i + 1}", Picture("emoji", text, recolour=change)))
    return out


def _band_choices(hues: list[float]) -> list[tuple[float, ...]]:
    """Which bands of hues a detail variant may move: one band, else two (a hat and a shoe)."""
    return [(h,) for h in hues] + list(combinations(hues, 2))


def _moves(hues: tuple[float, ...], width: float, shift: float, value: float = 1.0) -> tuple[Recolour, ...]:
    """Each band moved round the hue circle by `shift` degrees (none for a shift of 0: the original)."""
    if abs(shift) % 360 < 1e-9:
        return ()
    return tuple(Recolour(h, width, float((h + shift) % 360), value) for h in hues)


# Every two variants of a detail motif differ on at least this share of each half's figure: a real puzzle's motifs
# differ on both halves (were two motifs' tails one print, a head could take either tail and nobody, person or
# program, could tell which tail a tile shows).
DETAIL_SHOWS = 0.02


def _differ_on_both_halves(variants: list[Picture]) -> bool:
    """Whether every two variants differ, as printed, on DETAIL_SHOWS of each half's figure at least."""
    halves = [visible_halves(p) for p in variants]
    for one, other in combinations(halves, 2):
        for a, b in zip(one, other):
            figure = np.maximum(a[..., 3], b[..., 3]) > 0.5
            differs = np.abs(a[..., :3] - b[..., :3]).sum(axis=-1) > 60 / 255
            if (differs & figure).sum() < DETAIL_SHOWS * max(1, figure.sum()):
                return False
    return True


def _emoji_motifs(pool, alike, detail=None) -> Callable:
    """Motif maker of an emoji family: `pool` of figures, `alike` ones of one colour, `detail` the person
    emoji whose variants (skin tones) differ in small details only."""
    def make(count: int, kind: str, rng: np.random.Generator) -> list[tuple[str, Picture]]:
        if kind == "distinct":
            chosen = _pick(pool, count, rng)
        elif kind == "alike":
            chosen = _pick(alike, count, rng)
        elif kind == "recoloured":
            return _recoloured(pool, count, rng, small=False)
        elif kind == "detail":
            if detail is None:
                return _recoloured(pool, count, rng, small=True)
            base = detail[int(rng.integers(len(detail)))]
            tones = rng.permutation(5)[:count]
            out = [(f"{_emoji_name(base)} tone {t + 1}", Picture("emoji", emoji.with_skin_tone(base, int(t))))
                   for t in tones]
            return out + _recoloured(pool, count - len(out), rng, small=True)[:count - len(out)]
        else:
            raise ValueError(f"unknown motif kind {kind!r}: choose one of {', '.join(MOTIF_KINDS)}")
        return [(_emoji_name(t), Picture("emoji", t)) for t in chosen]
    return make


def _photo_motifs(names: tuple[str, ...]) -> Callable:
    """Motif maker of a photographic family: crops of the named photos."""
    boxes = [(n, b) for n in names for b in photoart.PHOTOS[n]]

    def make(count: int, kind: str, rng: np.random.Generator) -> list[tuple[str, Picture]]:
        shape = PHOTO_SHAPES[int(rng.integers(len(PHOTO_SHAPES)))]
        if kind == "recoloured":
            # one crop in several colours: its main band of hues moved, two of the colours close
            name, box = boxes[int(rng.integers(len(boxes)))]
            rgb = photoart.crop(name, box, 1.4)
            main = hue_bands(np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)]))[:1] or [(30.0, 1.0)]
            hue = main[0][0]
            return [(f"{name} {i + 1}", Picture("photo", name, box, shape, _moves((hue,), 45.0, to - hue)))
                    for i, to in enumerate(_hues(count, rng, start=hue))]
        if kind == "distinct":
            # one crop from each photo first, so the motifs differ in colour as far as the set allows
            order = rng.permutation(len(boxes))
            firsts = {}
            for i in order:
                firsts.setdefault(boxes[i][0], boxes[i])
            chosen = list(firsts.values()) + [boxes[i] for i in order if boxes[i] not in firsts.values()]
            chosen = chosen[:count]
        elif kind == "alike":
            # crops of one photo: alike in colour, differing in shape
            photo = max(names, key=lambda n: (len(photoart.PHOTOS[n]) >= count, rng.random()))
            own = [b for b in boxes if b[0] == photo]
            chosen = [own[i % len(own)] for i in rng.permutation(max(count, len(own)))][:count]
            if len(own) < count:
                chosen = own + _pick([b for b in boxes if b[0] != photo], count - len(own), rng)
        elif kind == "detail":
            # one crop whose variants differ in small details seen on both halves
            for i in rng.permutation(len(boxes)):
                name, box = boxes[i]
                rgb = photoart.crop(name, box, 1.4)
                bands = hue_bands(np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)]))
                small = [b[0] for b in bands if 0.02 <= b[1] <= 0.2] or [b[0] for b in bands[-1:]]
                targets = _hues(count, rng, start=small[0] if small else 0.0, close=False)
                for moved in _band_choices(small):
                    variants = [Picture("photo", name, box, shape, _moves(moved, 20.0, to - targets[0]))
                                for to in targets]
                    if _differ_on_both_halves(variants):
                        return [(f"{name} {j + 1}", p) for j, p in enumerate(variants)]
            raise ValueError("no crop of the family's photos has small details seen on both halves to recolour")
        else:
            raise ValueError(f"unknown motif kind {kind!r}: choose one of {', '.join(MOTIF_KINDS)}")
        labels = [f"{n} {photoart.PHOTOS[n].index(b) + 1}" for n, b in chosen]
        return [(label, Picture("photo", n, b, shape)) for label, (n, b) in zip(labels, chosen)]
    return make


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("emoji-animals", "dev", "Noto emoji animals: distinct, all brown, one animal recoloured",
           _emoji_motifs(emoji.ANIMALS, emoji.BROWN_ANIMALS), (1.0, 1.15), True),
    Family("emoji-food", "dev", "Noto emoji food: distinct, all brown (bread, cookies), one dish recoloured",
           _emoji_motifs(emoji.FOOD, emoji.BROWN_FOOD), (1.0, 1.15), True),
    Family("emoji-nature", "dev", "Noto emoji plants, weather and sky: distinct, all green (trees, leaves), one "
           "recoloured", _emoji_motifs(emoji.NATURE, emoji.GREEN_NATURE), (1.0, 1.15), True),
    Family("photos-a", "dev", "crops of skimage's astronaut, coffee and Hubble photos, covering most of the tile",
           _photo_motifs(("astronaut", "coffee", "hubble")), (1.05, 1.2), False),
    Family("emoji-vehicles", "test", "Noto emoji vehicles: distinct, all red, one car in four colours (two close)",
           _emoji_motifs(emoji.VEHICLES, emoji.RED_VEHICLES), (1.0, 1.15), True),
    Family("emoji-people", "test", "Noto emoji people: whole bodies (face and trousers), skin-tone variants",
           _emoji_motifs(emoji.PEOPLE + emoji.BODIES, emoji.BODIES, emoji.BODIES + emoji.PEOPLE[:8]),
           (1.0, 1.15), True),
    Family("photos-b", "test", "crops of skimage's cat, rocket, tissue and retina photos, covering most of the tile",
           _photo_motifs(("chelsea", "rocket", "ihc", "retina")), (1.05, 1.2), False),
)}
DEV = tuple(n for n, f in FAMILIES.items() if f.split == "dev")
TEST = tuple(n for n, f in FAMILIES.items() if f.split == "test")


def family(name: str) -> Family:
    if name not in FAMILIES:
        raise ValueError(f"unknown art family {name!r}: choose one of {', '.join(FAMILIES)}")
    return FAMILIES[name]


# ---------------------------------------------------------------------------------------------
# Faces

def _light(rng: np.random.Generator) -> RGB:
    import cv2

    hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(0, 40), rng.uniform(228, 252)]]])
    return tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0])


def _strong(rng: np.random.Generator, unlike: RGB | None = None) -> RGB:
    names = [n for n, c in STRONG_FACES.items() if unlike is None or colour_distance(c, unlike) > 40]
    return STRONG_FACES[names[int(rng.integers(len(names)))]]


def face_design(rng: np.random.Generator) -> tuple[RGB, RGB, FacePrint | None]:
    """(face colour, outline line colour, printed design or None for plain card), seeded."""
    kind = str(rng.choice(["plain", "strong", "border", "busy"], p=[0.25, 0.25, 0.25, 0.25]))
    seed = int(rng.integers(1 << 30))
    if kind == "plain":
        face = _light(rng)
        return face, shade(face, 0.3), None
    if kind == "strong":
        face = _strong(rng)
        return face, _line(face), FacePrint("strong", face, seed=seed)
    if kind == "border":
        face = _light(rng) if rng.random() < 0.5 else _strong(rng)
        band = _strong(rng, unlike=face)
        return face, _line(band), FacePrint("border", face, band, band=float(rng.uniform(0.04, 0.09)), seed=seed)
    pattern = BUSY_PATTERNS[int(rng.integers(len(BUSY_PATTERNS)))]
    face = _light(rng) if rng.random() < 0.6 else _strong(rng)
    accent = shade(face, float(rng.uniform(0.45, 0.75))) if rng.random() < 0.6 else _strong(rng, unlike=face)
    return face, _line(face), FacePrint("busy", face, accent, pattern, seed=seed)


def _line(colour: RGB) -> RGB:
    return shade(colour, 0.3) if np.mean(colour) > 70 else shade(colour, 1.6)


# ---------------------------------------------------------------------------------------------
# Artwork and photo conditions

def family_artwork(name: str, motifs: int, seed: int) -> Artwork:
    """The artwork of one puzzle of a family: `motifs` picture motifs and a face design, decided by the seed."""
    fam = family(name)
    if not 1 <= motifs <= 12:
        raise ValueError(f"a family artwork needs 1 to 12 motifs, not {motifs}")
    if fam.needs_font and not emoji.available():
        raise emoji.EmojiFontMissing(f"family {name!r} needs the Noto Color Emoji font: "
                                     "apt-get install fonts-noto-color-emoji")
    rng = np.random.default_rng([seed, motifs, zlib.crc32(name.encode())])
    kind = str(rng.choice(MOTIF_KINDS, p=[0.35, 0.2, 0.2, 0.25]))
    pictures = fam.motifs(motifs, kind, rng)
    names: list[str] = []
    for label, _ in pictures:  # names must differ: they number the motifs
        names.append(label if label not in names else f"{label} {len(names) + 1}")
    extent = float(rng.uniform(*fam.extent))
    out = {i + 1: Motif(n, "picture", (), "top", "bottom", picture=p, extent=extent)
           for i, (n, (_, p)) in enumerate(zip(names, pictures))}
    face, line, design = face_design(rng)
    return Artwork(f"family:{name}:{motifs}:{seed}", out, face=face, border=line, key=(name, seed, motifs, kind),
                   design=design)


def motif_kind(art: Artwork) -> str:
    """Which kind of motifs a family artwork has (MOTIF_KINDS)."""
    return art.key[3] if len(art.key) > 3 else "distinct"


def face_kind(art: Artwork) -> str:
    return art.design.kind if art.design is not None else "plain"


# Tables by tier: the standard tiers' tables and granite, white desks and dark tables besides.
TABLES = {
    "easy": ("wood", "darkwood", "cloth", "stone", "granite", "whitedesk"),
    "medium": ("wood", "darkwood", "cloth", "stone", "laminate", "marble", "granite", "whitedesk", "slate"),
    "hard": ("tablecloth", "marble", "stone", "laminate", "darkwood", "wood", "cloth", "granite", "whitedesk",
             "slate"),
}
DARK_TABLES = ("slate", "darkwood", "granite")


def vary_conditions(conditions, tier: str, art: Artwork, rng: np.random.Generator):
    """A tier's conditions widened for the families: their own tables, photos from 0.8 to 12 megapixels
    (medium and hard), and in the hard tier dark tiles on a dark table more often than not."""
    table = TABLES.get(tier, TABLES["medium"])
    background = str(table[int(rng.integers(len(table)))])
    dark_face = np.mean(art.face) < 90
    if tier == "hard" and dark_face and rng.random() < 0.7:
        background = str(DARK_TABLES[int(rng.integers(len(DARK_TABLES)))])
    size = conditions.size
    if tier in ("medium", "hard"):
        low, high = (1200, 3200) if tier == "medium" else (1032, 4000)  # 4:3 photos of 0.8 .. 12 MP
        w = int(rng.integers(low // 8, high // 8 + 1)) * 8
        size = (w, w * 3 // 4) if rng.random() >= 0.3 else (w * 3 // 4, w)
    return replace(conditions, background=background, size=size)
