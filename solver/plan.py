"""The search plan: a puzzle on a board turned into flat integer tables that any engine can walk.

Each step of the search fills one cell. Its candidates are every (tile, turn) that may lie there, pre-turned and
bucketed by the colours its already-placed neighbours ask for (at most two of them make the key; a third or fourth,
which only a spiral order has, is checked per candidate). The frame, the clues and the symmetry breaking are all
folded into these tables, so the engines (the C one in _engine.c and engine.py's Python twin) only look things up.

Colours are numbered densely (0..K-1) over every edge and every edge's complement, so a key is a small integer.
"""
from __future__ import annotations

from typing import NamedTuple

from .tiles import BORDER, Edges, turn_edges

N, E, S, W = range(4)
OPPOSITE = (S, W, N, E)
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}
MATCHES = ("signed", "equal")

# One candidate: tile index, turns, the colour shown on each side, and the colour its neighbour there must show.
ENTRY_TILE, ENTRY_TURNS, ENTRY_SHOWN, ENTRY_NEED, ENTRY_STRIDE = 0, 1, 2, 6, 10
# One step: where its buckets start, the two key constraints (step, side of that step's tile; -1 if none), and
# up to two more constraints (step, side of that step's tile, side of this step's tile).
(STEP_BUCKETS, STEP_KEY_A, STEP_SIDE_A, STEP_KEY_B, STEP_SIDE_B, STEP_EXTRAS, STEP_EXTRA) = range(7)
STEP_STRIDE = 13


class ClueError(ValueError):
    """Clues that cannot all hold: off the board, two in one cell, one tile twice."""


class Clue(NamedTuple):
    """A tile fixed in a cell: tile index (0-based, as listed), cell, and quarter turns clockwise."""

    tile: int
    row: int
    col: int
    turns: int


class Plan(NamedTuple):
    """Everything an engine needs, as flat lists of ints; `cells` says which cell each step fills."""

    cells: tuple[tuple[int, int], ...]
    tiles: int
    colours: int
    entries: list[int]   # ENTRY_STRIDE ints per candidate
    steps: list[int]     # STEP_STRIDE ints per step
    buckets: list[int]   # per step's table: colours ** keys + 1 offsets into entries (candidate numbers)
    symmetry: int        # the board's rotation symmetry (4 square, 2 not): with it broken, how many whole-board
    #                      rotations each searched solution stands for

    def placement(self, entry: int) -> tuple[int, int]:
        """(tile index, turns) of a candidate."""
        base = entry * ENTRY_STRIDE
        return self.entries[base + ENTRY_TILE], self.entries[base + ENTRY_TURNS]


def build_plan(tile_edges: list[Edges], rows: int, cols: int, cells: list[tuple[int, int]], *,
               match: str = "signed", break_symmetry: bool = True, clues: tuple[Clue, ...] = ()) -> Plan:
    """The plan for filling the cells in the given order."""
    if match not in MATCHES:
        raise ValueError(f"match must be one of {MATCHES}, not {match!r}")
    _check_clues(clues, rows, cols, len(tile_edges))
    need = (lambda v: -v) if match == "signed" else (lambda v: v)
    values = sorted({v for e in tile_edges for v in e} | {need(v) for e in tile_edges for v in e})
    colour = {v: i for i, v in enumerate(values)}
    all_turns = [[turn_edges(edges, k) for k in range(4)] for edges in tile_edges]
    has_border = any(BORDER in e for e in tile_edges)
    # Equal colours: 0 is the frame colour, always on the frame and only there. Signed halves: a flat edge only
    # on the frame, and the whole frame flat only when there are just enough flat edges to line it.
    frame_forced = match == "equal" or sum(e.count(BORDER) for e in tile_edges) == 2 * (rows + cols)
    on_frame_check = has_border or match == "equal"

    symmetry, allowed = _symmetry_breaking(tile_edges, all_turns, rows, cols, cells, match, frame_forced,
                                           break_symmetry, clues)
    clue_at = {(c.row, c.col): c for c in clues}
    clued_tiles = {c.tile for c in clues}

    # Every (tile, turn) once: what it shows, and its plan entry (colours numbered, and what each side needs).
    turned = [(ti, turns, shown, (ti, turns, *(colour[v] for v in shown), *(colour[need(v)] for v in shown)))
              for ti, tile_turns in enumerate(all_turns) for turns, shown in enumerate(tile_turns)]
    step_of = {cell: i for i, cell in enumerate(cells)}
    entries: list[int] = []
    steps: list[int] = []
    buckets: list[int] = []
    tables: dict[tuple, int] = {}
    for i, (r, c) in enumerate(cells):
        constraints = []  # (neighbour step, its side facing us, our side)
        for side, (dr, dc) in STEP.items():
            j = step_of.get((r + dr, c + dc))
            if j is not None and j < i:
                constraints.append((j, OPPOSITE[side], side))
        keyed, extra = constraints[:2], constraints[2:]
        on_frame = (r == 0, c == cols - 1, r == rows - 1, c == 0) if on_frame_check else None
        clue = clue_at.get((r, c))
        allow = allowed.get((r, c), allowed.get(None))
        signature = (tuple(side for _, _, side in keyed), on_frame, clue, allow)
        if signature not in tables:
            tables[signature] = len(buckets)
            keyed_sides = [2 + side for _, _, side in keyed]  # where the entry holds the shown colour
            size = len(values) ** len(keyed)
            by_key: list[list] = [[] for _ in range(size)]
            for ti, turns, shown, entry in turned:
                if clue is not None:
                    if ti != clue.tile or turns != clue.turns:
                        continue
                elif ti in clued_tiles:
                    continue
                if allow is not None and not allow(ti, turns):
                    continue
                if on_frame is not None and not _fits_frame(shown, on_frame, frame_forced):
                    continue
                key = 0
                for at in keyed_sides:
                    key = key * len(values) + entry[at]
                by_key[key].append(entry)
            running = len(entries) // ENTRY_STRIDE
            buckets.append(running)
            for bucket in by_key:  # tiles and turns keep their order within a bucket
                running += len(bucket)
                buckets.append(running)
                for entry in bucket:
                    entries.extend(entry)
        row = [tables[signature], -1, 0, -1, 0, len(extra), -1, 0, 0, -1, 0, 0]
        for slot, (j, their_side, _) in enumerate(keyed):
            row[STEP_KEY_A + 2 * slot], row[STEP_SIDE_A + 2 * slot] = j, their_side
        for slot, (j, their_side, our_side) in enumerate(extra):
            row[STEP_EXTRA + 3 * slot: STEP_EXTRA + 3 * slot + 3] = [j, their_side, our_side]
        steps.extend(row + [0] * (STEP_STRIDE - len(row)))
    return Plan(tuple(cells), len(tile_edges), len(values), entries, steps, buckets, symmetry)


def _check_clues(clues, rows, cols, tiles) -> None:
    for clue in clues:
        if not (0 <= clue.row < rows and 0 <= clue.col < cols):
            raise ClueError(f"a clue puts tile {clue.tile + 1} at row {clue.row + 1}, col {clue.col + 1}, "
                            f"off the {rows}x{cols} board")
        if not 0 <= clue.tile < tiles:
            raise ClueError(f"a clue names tile {clue.tile + 1}; the tiles are 1 to {tiles}")
    if len({(c.row, c.col) for c in clues}) < len(clues) or len({c.tile for c in clues}) < len(clues):
        raise ClueError("two clues share a cell or a tile: give each tile and each cell at most once")


def _fits_frame(shown: Edges, on_frame: tuple[bool, ...], frame_forced: bool) -> bool:
    """A border edge only on the frame; when the frame must be all border, no other edge there."""
    for side in range(4):
        if shown[side] == BORDER and not on_frame[side]:
            return False
        if frame_forced and on_frame[side] and shown[side] != BORDER:
            return False
    return True


def _symmetry_breaking(tile_edges, all_turns, rows, cols, cells, match, frame_forced, break_symmetry, clues):
    """How many board rotations each searched solution stands for, and which placements are kept to say so.

    Quarter turns map a square board onto itself, a half turn any rectangle; a clue pins the board, so nothing
    is folded. Each rule keeps exactly one solution of every rotation orbit:
    - a corner tile (the frame is forced) stays in one corner (a square) or in the top row's corners (a
      rectangle): the board's rotations carry it round the four corners. The first cell filled is a corner,
      so this prunes at the root, which is what fixed-corner solvers do;
    - else the centre cell (odd by odd) is turned at most 4/symmetry - 1 times: rotations turn it through all four;
    - else the first tile is: rotations turn every tile, so it too goes through all four turns.
    Returned as the symmetry and {cell or None (every cell): allowed(tile, turns)}.
    """
    if clues:
        return 1, {}
    symmetry = 4 if rows == cols else 2
    if not break_symmetry:
        return symmetry, {}
    kept = range(4 // symmetry)
    corner = _corner_tile(tile_edges, all_turns) if frame_forced and rows > 1 and cols > 1 else None
    centre = (rows // 2, cols // 2) if rows % 2 and cols % 2 else None
    if corner is not None and not (centre is not None and cells[0] == centre):
        if symmetry == 4:
            start = cells[0] if cells[0] in _corners(rows, cols) else (0, 0)
            away = [cell for cell in _corners(rows, cols) if cell != start]
        else:
            away = [(rows - 1, 0), (rows - 1, cols - 1)]
        allowed = {cell: (lambda t, k: t != corner) for cell in away}
        if symmetry == 4:
            allowed[start] = lambda t, k: t == corner
        return symmetry, allowed
    if centre is not None:
        return symmetry, {centre: lambda t, k: k in kept}
    return symmetry, {None: lambda t, k: t != 0 or k in kept}


def _corners(rows, cols):
    return [(0, 0), (0, cols - 1), (rows - 1, cols - 1), (rows - 1, 0)]


def _corner_tile(tile_edges, all_turns) -> int | None:
    """The first tile with two neighbouring border edges: with the frame forced it can only lie in a corner."""
    for ti, turned in enumerate(all_turns):
        if any(shown[N] == BORDER and shown[W] == BORDER for shown in turned) and tile_edges[ti].count(BORDER) == 2:
            return ti
    return None
