"""The typed-in tile format: one tile per line, four edges, `#` comments.

An edge is a signed integer (`3`, `-3`: the two halves of motif 3; `0`: a flat border edge) or a named
half (`brown+`, `brown-`), whose motifs are numbered in order of first appearance. Files are UTF-8, with or
without the byte-order mark Windows Notepad writes, or UTF-16/32 with a byte-order mark ("Unicode" in Notepad).
"""
from __future__ import annotations

import codecs
import re

from .tiles import SIDES, Edges, Puzzle, Tile

INTEGER = re.compile(r"[+-]?\d{1,6}")  # a motif number up to 999999: more than any board photosolve takes needs
NAMED_HALF = re.compile(r"([^\W\d_][\w.]*)([+-])")  # a name in any alphabet (grün+), then its sign
# 400 tiles (20 x 20) is beyond every puzzle sold (Eternity II, the largest, has 256); the search keeps its own
# stack (solver/engine.py), so no recursion limit bounds it.
MAX_TILES = 400
# 400 tiles with a long comment on each line (a --save-tiles file's is 40 characters) take some 50 kB: a file
# larger than this is no tile file, and is not read into memory.
MAX_TEXT_BYTES = 1_000_000
MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})  # a word processor's minus and en dash, as typed
# Byte-order marks, longest first: UTF-32's begins with UTF-16's.
ENCODINGS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
             (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


class TileFileError(ValueError):
    """Input that is not a tile list; the message names the place and says what to write instead."""

    def __init__(self, source: str, line: int | None, message: str):
        self.source, self.line = source, line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


def decode_tile_text(data: bytes, source: str) -> str:
    """A tile file's bytes as text: by its byte-order mark if it has one, else UTF-8; binary files refused."""
    if len(data) > MAX_TEXT_BYTES:
        raise TileFileError(source, None, f"more than {MAX_TEXT_BYTES // 1000} kB: no tile file is that long "
                                          f"({MAX_TILES} tiles at most)")
    encoding = next((name for bom, name in ENCODINGS if data.startswith(bom)), "utf-8")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        text = None
    # Some binary files are valid UTF-8, but no tile file holds a NUL.
    if text is None or "\x00" in text:
        photo = "" if source.startswith("<") else f" (is it a photo? use `photosolve {source}`)"
        raise TileFileError(source, None, f"not a text tile file in UTF-8 or UTF-16{photo}")
    return text


def parse_order(order: str, source: str = "--order") -> tuple[int, ...]:
    """For an edge-order string like 'NWES', the side (index into N E S W) of each written edge."""
    letters = order.strip().upper()
    if sorted(letters) != sorted(SIDES):
        raise TileFileError(source, None, f"edge order '{_shown(order)}' is not a permutation of NESW: "
                                          "write e.g. NESW or NWES")
    return tuple(SIDES.index(letter) for letter in letters)


def _shown(token: str, longest: int = 40) -> str:
    """A token as it can be printed on one short line: control characters (from a binary file, say) escaped, and
    cut after `longest` characters."""
    shown = token if token.isprintable() else token.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= longest else shown[:longest] + "..."


class TileReader:
    """Reads tile lines one at a time, remembering motif names, so a prompt can check each line as typed."""

    def __init__(self, source: str = "<stdin>", order: str = "NESW"):
        self.source = source
        self.sides = parse_order(order, source)
        self.names: dict[str, int] = {}
        self.integers_seen: set[int] = set()
        self.tiles: list[Tile] = []

    def read_line(self, text: str, line: int | None = None) -> Tile | None:
        """The tile on one line, or None for a blank or comment line."""
        tokens = text.split("#", 1)[0].translate(MINUS_SIGNS).split()
        if not tokens:
            return None
        if len(self.tiles) == MAX_TILES:
            raise TileFileError(self.source, line, f"more than {MAX_TILES} tiles: photosolve solves boards of up to "
                                                   f"{MAX_TILES} tiles (20 x 20)")
        if len(tokens) != 4:
            raise TileFileError(self.source, line,
                                f"a tile needs 4 edges, found {len(tokens)} ({_shown(' '.join(tokens))}): "
                                "write one tile per line, edges clockwise from the top")
        written = [self._edge(token, line) for token in tokens]
        edges = [0, 0, 0, 0]
        for side, value in zip(self.sides, written):
            edges[side] = value
        tile = Tile(len(self.tiles) + 1, tuple(edges), line)  # type: ignore[arg-type]
        self.tiles.append(tile)
        return tile

    def puzzle(self) -> Puzzle:
        return Puzzle(tuple(self.tiles), {k: name for name, k in self.names.items()}, self.source)

    def _edge(self, token: str, line: int | None) -> int:
        if INTEGER.fullmatch(token):
            value = int(token)
            if abs(value) in self.names.values() and value != 0:
                name = next(n for n, k in self.names.items() if k == abs(value))
                raise TileFileError(self.source, line,
                                    f"'{token}' is motif {abs(value)}, already named '{name}': use names or numbers, not both")
            self.integers_seen.add(abs(value))
            return value
        named = NAMED_HALF.fullmatch(token)
        if not named:
            raise TileFileError(self.source, line,
                                f"'{_shown(token)}' is not an edge: write a signed integer (3, -3, 0 for a border; "
                                "at most 6 digits) or a named half (brown+, brown-)")
        name, sign = named.groups()
        if name not in self.names:
            number = len(self.names) + 1
            if number in self.integers_seen:
                raise TileFileError(self.source, line,
                                    f"'{token}' would be motif {number}, which is already written as a number: "
                                    "use names or numbers, not both")
            self.names[name] = number
        return self.names[name] if sign == "+" else -self.names[name]


def parse_tiles(text: str, source: str = "<stdin>", order: str = "NESW") -> Puzzle:
    """All tiles in a tile file's text."""
    reader = TileReader(source, order)
    for number, line in enumerate(text.splitlines(), start=1):
        reader.read_line(line, number)
    if not reader.tiles:
        raise TileFileError(source, None, "no tiles found: write one tile per line, four edges N E S W")
    return reader.puzzle()


def format_tiles(puzzle: Puzzle, edges: list[Edges] | None = None, notes: list[str] | None = None,
                 header: str = "") -> str:
    """A tile file for the puzzle (or for other edges of the same tiles), with an optional note per tile."""
    lines = [f"# {row}" for row in header.splitlines()] if header else []
    lines.append("# one tile per line, edges clockwise from the top: N E S W")
    rows = edges if edges is not None else [t.edges for t in puzzle.tiles]
    for i, row in enumerate(rows):
        text = "  ".join(f"{label:>8}" for label in puzzle.labels(row))
        # A note is a comment: a line break inside it would start a line the parser reads as a tile.
        note = " ".join((notes[i] if notes else "").split())
        lines.append(f"{text}  # {note}" if note else text)
    return "\n".join(lines) + "\n"
