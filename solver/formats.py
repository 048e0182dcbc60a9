"""The plain formats edge-matching puzzles are shared in, beside photosolve's own tile file.

- a header line `W H`, then one tile per line, four edges (Brendan's and Wikunia's benchmark boards);
- Gallicchio's `.puz`: `cols [rows]`, then `north east south west` per tile and an optional `+`/`-` sign, with
  clue files of `tile col row rot` (0-based; rot in quarter turns anticlockwise);
- JSON {"w", "h", "signed", "pieces": [[n, e, s, w], ...]}, or a suite of such puzzles by name (FILE#NAME);
- the tile file (tilefile.py), also headerless boards like Eternity2Puzzles.jl's `top right bottom left`.
Equal-colour puzzles (0 the frame colour) are told from signed ones by what every puzzle of each kind shows: a
signed puzzle that can be laid out at all has a -k for each +k, so a file with border edges and no negative
edge is one of equal colours.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import NamedTuple

from .plan import Clue
from .tilefile import INTEGER, MAX_TILES, TileFileError, parse_tiles
from .tiles import BORDER, Puzzle, Tile


class Loaded(NamedTuple):
    """A puzzle as read, with the board size and matching its format says (None: not said)."""

    puzzle: Puzzle
    rows: int | None = None
    cols: int | None = None


def read_puzzle_text(text: str, source: str, order: str = "NESW", match: str | None = None) -> Loaded:
    """Any of the formats above, told apart by the text (and a .puz name); match forces how edges fit."""
    if text.lstrip().startswith("{"):
        loaded = _json(text, source, suite_member(source)[1])
    elif source.lower().endswith(".puz"):
        loaded = _puz(text, source)
    else:
        loaded = _headed_or_tile_file(text, source, order)
    if match and match != loaded.puzzle.match:
        return loaded._replace(puzzle=replace(loaded.puzzle, match=match))
    return loaded


def suite_member(path: str) -> tuple[str, str | None]:
    """FILE.json#NAME (one puzzle of a suite) as the file and the name; any other path as itself and None."""
    file, hash_sign, name = path.rpartition("#")
    if hash_sign and file.lower().endswith(".json"):
        return file, name
    return path, None


def guess_match(edges) -> str:
    """'equal' for border edges and no negative one (no signed puzzle that fits looks so), else 'signed'."""
    values = [v for e in edges for v in e]
    return "equal" if BORDER in values and min(values) >= 0 else "signed"


def _headed_or_tile_file(text: str, source: str, order: str) -> Loaded:
    lines = text.splitlines()
    rows = cols = None
    for number, line in enumerate(lines):
        tokens = line.split("#", 1)[0].split()
        if not tokens:
            continue
        if len(tokens) == 2 and all(INTEGER.fullmatch(t) for t in tokens):
            cols, rows = int(tokens[0]), int(tokens[1])
            if rows <= 0 or cols <= 0:
                raise TileFileError(source, number + 1, f"a board of {cols}x{rows}: write the header as `W H`, both positive")
            lines[number] = ""  # the tiles keep their line numbers
        break
    puzzle = parse_tiles("\n".join(lines), source, order)
    if rows is not None and rows * cols != len(puzzle.tiles):
        raise TileFileError(source, None, f"the header says {cols}x{rows} = {rows * cols} tiles, "
                                          f"the file has {len(puzzle.tiles)}")
    match = "equal" if rows is not None and not puzzle.motif_names else guess_match(t.edges for t in puzzle.tiles)
    return Loaded(replace(puzzle, match=match), rows, cols)


def _puz(text: str, source: str) -> Loaded:
    lines = text.splitlines()
    header = next(((i, line.split()) for i, line in enumerate(lines) if line.strip()), None)
    if header is None or not 1 <= len(header[1]) <= 2 or not all(t.isdigit() and int(t) > 0 for t in header[1]):
        raise TileFileError(source, header[0] + 1 if header else None,
                            "a .puz file starts with `cols [rows]`, both positive whole numbers")
    cols = int(header[1][0])
    rows = int(header[1][1]) if len(header[1]) == 2 else cols
    tiles = []
    for number in range(header[0] + 1, len(lines)):
        tokens = lines[number].split()
        if not tokens:
            continue
        if tokens[-1] in "+-" and len(tokens) == 5:
            tokens = tokens[:4]  # a tile's sign: which pieces may mirror, no matter for an exact count
        if len(tokens) != 4 or not all(t.isdigit() for t in tokens):
            raise TileFileError(source, number + 1, f"a tile is four colours, 0 or more, and an optional sign: "
                                                    f"got '{' '.join(tokens)[:60]}'")
        tiles.append(Tile(len(tiles) + 1, tuple(int(t) for t in tokens), number + 1))
    if len(tiles) != rows * cols:
        raise TileFileError(source, None, f"the header says {cols}x{rows} = {rows * cols} tiles, the file has {len(tiles)}")
    _not_too_many(len(tiles), source)
    return Loaded(Puzzle(tuple(tiles), {}, source, "equal"), rows, cols)


def _not_too_many(count: int, source: str) -> None:
    if count > MAX_TILES:
        raise TileFileError(source, None, f"{count} tiles: photosolve solves boards of up to {MAX_TILES} tiles (20 x 20)")


def _json(text: str, source: str, name: str | None) -> Loaded:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise TileFileError(source, error.lineno, f"not JSON: {error.msg}") from None
    if isinstance(document, dict) and "pieces" not in document and all(isinstance(v, dict) for v in document.values()):
        if name not in document:
            names = ", ".join(sorted(document))[:200]
            raise TileFileError(source, None, f"a suite of {len(document)} puzzles ({names}): "
                                              "pick one as FILE.json#NAME")
        document = document[name]
    pieces = document.get("pieces") if isinstance(document, dict) else None
    if not isinstance(pieces, list) or not pieces or not all(
            isinstance(p, list) and len(p) == 4 and all(isinstance(v, int) for v in p) for p in pieces):
        raise TileFileError(source, None, 'expected {"w": W, "h": H, "signed": true|false, '
                                          '"pieces": [[n, e, s, w], ...]} with whole-number edges')
    _not_too_many(len(pieces), source)
    rows, cols = document.get("h"), document.get("w")
    if not (isinstance(rows, int) and isinstance(cols, int) and rows > 0 and cols > 0 and rows * cols == len(pieces)):
        rows = cols = None
    match = "signed" if document.get("signed", guess_match(pieces) == "signed") else "equal"
    return Loaded(Puzzle.from_edges(pieces, match=match, source=source), rows, cols)


def read_clues(text: str, source: str, tile_count: int) -> tuple[Clue, ...]:
    """Gallicchio's clue file: `tile col row rot` per line, 0-based, rot in quarter turns anticlockwise."""
    clues = []
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = line.split("#", 1)[0].split()
        if not tokens:
            continue
        if len(tokens) != 4 or not all(t.isdigit() for t in tokens):
            raise TileFileError(source, number, "a clue is `tile col row rot`: four whole numbers, 0-based")
        tile, col, row, anticlockwise = (int(t) for t in tokens)
        if tile >= tile_count:
            raise TileFileError(source, number, f"tile {tile} does not exist (0-based, {tile_count} tiles)")
        clues.append(Clue(tile, row, col, (4 - anticlockwise % 4) % 4))
    return tuple(clues)


def parse_clue(text: str, tile_count: int) -> Clue:
    """A clue as typed: `TILE,ROW,COL[,TURNS]`, tile and cell counted from 1 as photosolve prints them,
    turns clockwise quarter turns (0-3)."""
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    if len(parts) not in (3, 4) or not all(p.isdigit() for p in parts):
        raise ValueError(f"clue '{text}': write TILE,ROW,COL[,TURNS], e.g. 1,1,1,0 (tile 1 in the top-left corner, as given)")
    tile, row, col = (int(p) for p in parts[:3])
    turns = int(parts[3]) if len(parts) == 4 else 0
    if not 1 <= tile <= tile_count or row < 1 or col < 1 or turns > 3:
        raise ValueError(f"clue '{text}': tile from 1 to {tile_count}, row and column from 1, turns 0 to 3")
    return Clue(tile - 1, row - 1, col - 1, turns)
