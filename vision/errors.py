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
        board = board_of(found)
        size = f" (for {found} tiles: --rows {board[0]} --cols {board[1]})" if board else " with --rows/--cols"
        advice = hint or ("photograph the tiles from above on a plain table, with a little gap between them and "
                          f"none cut by the photo's edge, or give the board size{size}")
        super().__init__(f"found {found} tiles, expected {expected}: {advice}")


def board_of(count: int) -> tuple[int, int] | None:
    """The most nearly square board of at least 2 x 2 that `count` tiles fill, if any: the size to suggest when a
    photo shows another number of tiles than asked for."""
    rows = max((r for r in range(2, int(count ** 0.5) + 1) if count % r == 0), default=None)
    return (rows, count // rows) if rows else None


class TemplateError(VisionError):
    """A template set that is missing, malformed, or does not fit the photo."""
