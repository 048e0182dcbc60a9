"""Figures from Google's Noto Color Emoji font (SIL Open Font License 1.1; Debian's fonts-noto-color-emoji):
each glyph rendered once as an RGBA bitmap, cropped to its ink, for pictures.py to scale and cut.

The font holds colour bitmaps (CBDT) drawn at 109 px; Pillow renders them only at that size, so glyphs are
rendered there once and scaled afterwards.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import numpy as np

FONT_PATHS = (
    os.environ.get("PHOTOSOLVE_EMOJI_FONT", ""),
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    "/usr/share/fonts/noto/NotoColorEmoji.ttf",
)
BITMAP_SIZE = 109  # the only size the font's colour bitmaps (136 x 128) are drawn at


class EmojiFontMissing(RuntimeError):
    """The colour emoji font is not installed: the emoji families cannot be drawn."""


def font_path() -> Path | None:
    """Where the Noto Color Emoji font is, or None."""
    for path in FONT_PATHS:
        if path and Path(path).is_file():
            return Path(path)
    return None


def available() -> bool:
    return font_path() is not None


@lru_cache(maxsize=1)
def _font():
    from PIL import ImageFont

    path = font_path()
    if path is None:
        raise EmojiFontMissing("the emoji families need Noto Color Emoji: apt-get install fonts-noto-color-emoji "
                               "(or set PHOTOSOLVE_EMOJI_FONT to the .ttf)")
    return ImageFont.truetype(str(path), BITMAP_SIZE)


@lru_cache(maxsize=256)
def glyph(text: str) -> np.ndarray:
    """One emoji (a character or a sequence such as a skin-tone variant) as straight-alpha RGBA uint8,
    cropped to its ink. Read-only: the cache hands the same array to every caller."""
    from PIL import Image, ImageDraw

    canvas = Image.new("RGBA", (176, 168), (0, 0, 0, 0))
    ImageDraw.Draw(canvas).text((20, 20), text, font=_font(), embedded_color=True)
    rgba = np.asarray(canvas).copy()
    ys, xs = np.nonzero(rgba[..., 3] > 8)
    if not len(ys):
        raise ValueError(f"the emoji font has no picture for {text!r}")
    out = np.ascontiguousarray(rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    out.setflags(write=False)
    return out


# Pools the families draw from. Groups of one colour are for "motifs alike in colour that differ in shape".
ANIMALS = ("🐶", "🐱", "🦊", "🐻", "🐼", "🐯", "🦁", "🐮", "🐷", "🐸", "🐵", "🐔", "🐧", "🦉", "🐴", "🦄",
           "🐝", "🦋", "🐌", "🐞", "🐢", "🐍", "🦖", "🐙", "🦀", "🐠", "🐬", "🐳", "🦈", "🦜", "🦩", "🐘")
BROWN_ANIMALS = ("🐻", "🐴", "🐵", "🦔", "🦫", "🦌", "🐿️", "🦥", "🐕", "🐒", "🦬", "🐫")
FOOD = ("🍎", "🍐", "🍊", "🍋", "🍌", "🍉", "🍇", "🍓", "🍒", "🍑", "🍍", "🥝", "🍅", "🥑", "🍆", "🥕",
        "🌽", "🥦", "🍄", "🍞", "🥐", "🧀", "🍔", "🍟", "🍕", "🌭", "🌮", "🍦", "🍩", "🍪", "🎂", "🧁")
BROWN_FOOD = ("🍞", "🥐", "🥖", "🥨", "🍪", "🍩", "🥔", "🥜", "🌰", "🥯", "🧇", "🍗")
VEHICLES = ("🚗", "🚕", "🚙", "🚌", "🚓", "🚑", "🚒", "🚐", "🛻", "🚚", "🚜", "🏍️", "🛵", "🚲", "🛴", "🚂",
            "✈️", "🚁", "🚀", "🛸", "⛵", "🚤", "🛳️", "🚢", "🏎️", "🚛")
RED_VEHICLES = ("🚗", "🚒", "🏎️", "🛻", "🏍️", "🚘")
PEOPLE = ("👩", "👨", "🧑", "👧", "👦", "👶", "🧓", "👴", "👵", "👮", "👷", "💂", "🕵️", "🧙", "🧛", "🧜",
          "🦸", "🦹", "🧝", "🤴", "👸", "🎅")
BODIES = ("🧍", "🚶", "🏃", "🕺", "💃", "🧑‍🚀", "🧑‍🍳", "🧑‍🚒", "🧑‍⚕️", "🧑‍🎨", "🧑‍🔧", "🧑‍🌾")
NATURE = ("🌵", "🌲", "🌳", "🌴", "🌻", "🌼", "🌷", "🌹", "🌺", "🍀", "🍁", "🍂", "🌾", "🌈", "☀️", "🌙",
          "⭐", "☁️", "⚡", "❄️", "🔥", "💧", "🌊", "🌍", "🪐", "🌋", "⛄", "🐚", "🪨", "🌸", "🪴", "🍃")
GREEN_NATURE = ("🌵", "🌲", "🌳", "🌴", "🍀", "🌿", "🌱", "☘️", "🎄", "🎋", "🪴", "🥬")
SKIN_TONES = ("\U0001F3FB", "\U0001F3FC", "\U0001F3FD", "\U0001F3FE", "\U0001F3FF")


def with_skin_tone(base: str, tone: int) -> str:
    """The emoji sequence of a person emoji in one of the five Fitzpatrick skin tones (0..4): the modifier goes
    after the first character (before any zero-width joiner)."""
    return base[0] + SKIN_TONES[tone] + base[1:].replace("\uFE0F", "")
