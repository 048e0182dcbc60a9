"""What can go wrong in reading a photo, each with a message a person can act on."""
from __future__ import annotations


class VisionError(Exception):
    """A photo that photosolve cannot read as asked; the message says what to do."""


class UnreadableImage(VisionError):
    """The file is not an image photosolve can decode."""


class WrongTileCount(VisionError):
    """Segmentation found a different number of tiles than the board needs."""

    def __init__(self, found: int, expected: int, hint: str = ""):
        self.found, self.expected = found, expected
        advice = hint or ("photograph the tiles from above on a plain table, with a little gap between them, "
                          "or give the board size with --rows/--cols")
        super().__init__(f"found {found} tiles, expected {expected}: {advice}")


class TemplateError(VisionError):
    """A template set that is missing, malformed, or does not fit the photo."""
