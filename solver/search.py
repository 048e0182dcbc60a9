"""Backtracking search for every arrangement of the tiles on an R x C board.

What makes it fast, each measured in bench/solver_speed.py:
- cells are filled in an order that puts each new tile next to as many placed ones as possible
  (a spiral from the centre), so that two seams constrain a cell as early as possible;
- every (tile, turn) is indexed in advance by the edges it shows on the sides that will already have
  neighbours, so a cell only ever looks at candidates that fit;
- whole-board rotations are broken by never turning the first tile more than the board's symmetry
  allows; the other rotations of each solution are derived, not searched.
"""
from __future__ import annotations

import functools
import operator
import time
from dataclasses import dataclass

from .tiles import BORDER, Edges, Puzzle, turn_edges

N, E, S, W = range(4)
OPPOSITE = (S, W, N, E)
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}


class BoardSizeError(ValueError):
    """The tiles do not fill the board that was asked for."""


@dataclass(frozen=True)
class Placement:
    """Which tile lies in a cell, by id, and how many quarter turns clockwise it is turned."""

    tile: int
    turns: int


@dataclass(frozen=True)
class Solution:
    """One arrangement: placements row by row."""

    cells: tuple[tuple[Placement, ...], ...]

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    def edges(self, puzzle: Puzzle) -> list[list[Edges]]:
        """The edges each cell shows, after turning its tile."""
        by_id = {t.id: t.edges for t in puzzle.tiles}
        return [[turn_edges(by_id[p.tile], p.turns) for p in row] for row in self.cells]

    def rotated(self) -> "Solution":
        """The same arrangement seen after turning the whole board a quarter turn clockwise."""
        rows, cols = self.rows, self.cols
        return Solution(tuple(
            tuple(_turned(self.cells[rows - 1 - c][r]) for c in range(rows))
            for r in range(cols)
        ))


def _turned(p: Placement) -> Placement:
    return Placement(p.tile, (p.turns + 1) % 4)


@dataclass(frozen=True)
class SolveResult:
    """Every solution that differs from the others once rotations are folded, with the three counts."""

    rows: int
    cols: int
    raw: int                 # every (tile, turn) assignment, whole-board rotations counted separately
    distinct: int            # boards that look different (identical tiles not told apart)
    up_to_rotation: int      # ... and whole-board rotations folded too
    solutions: tuple[Solution, ...]  # one per class up to rotation, in the order found
    nodes: int               # placements tried
    seconds: float
    exhaustive: bool         # False when the search stopped at the first solution


def default_board(tile_count: int) -> tuple[int, int]:
    """The square board that fits the tiles, or an error that says what to do."""
    side = round(tile_count ** 0.5)
    if side * side != tile_count or tile_count == 0:
        raise BoardSizeError(
            f"{tile_count} tiles do not make a square board: give the size with --rows and --cols"
        )
    return side, side


def fill_order(rows: int, cols: int) -> list[tuple[int, int]]:
    """Cells in search order: each next cell has the most already-placed neighbours, nearest the centre first."""
    centre = ((rows - 1) / 2, (cols - 1) / 2)
    placed: set[tuple[int, int]] = set()
    order = []
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    while len(order) < len(cells):
        def score(cell):
            r, c = cell
            neighbours = sum((r + dr, c + dc) in placed for dr, dc in STEP.values())
            return (-neighbours, (r - centre[0]) ** 2 + (c - centre[1]) ** 2, r, c)
        best = min((cell for cell in cells if cell not in placed), key=score)
        placed.add(best)
        order.append(best)
    return order


@functools.lru_cache(maxsize=64)
def _fill_order(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    return tuple(fill_order(rows, cols))


def row_major_order(rows: int, cols: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(rows) for c in range(cols)]


def solve(
    puzzle: Puzzle,
    rows: int | None = None,
    cols: int | None = None,
    *,
    first: bool = False,
    order: str = "spiral",
    break_symmetry: bool = True,
) -> SolveResult:
    """Find every arrangement of the puzzle's tiles on a rows x cols board (or the first one)."""
    started = time.perf_counter()
    count = len(puzzle.tiles)
    if rows is None and cols is None:
        rows, cols = default_board(count)
    elif rows is None or cols is None:
        rows, cols = (count // cols, cols) if rows is None else (rows, count // rows)
    if rows * cols != count or rows <= 0 or cols <= 0:
        raise BoardSizeError(f"{count} tiles do not fill a {rows}x{cols} board: give a size that holds exactly {count} tiles")

    cells = _fill_order(rows, cols) if order == "spiral" else row_major_order(rows, cols)
    tile_edges = [t.edges for t in puzzle.tiles]
    # Quarter turns of the board map a square board onto itself, a half turn any rectangle. Each
    # solution's rotations turn the centre cell (or, without one, the first tile) through every
    # quarter turn, so limiting its turns keeps exactly one solution of each rotation orbit.
    symmetry = 4 if rows == cols else 2
    kept_turns = range(4 // symmetry)
    centre = (rows // 2, cols // 2) if rows % 2 and cols % 2 else None
    has_border = any(BORDER in e for e in tile_edges)
    frame_forced = sum(e.count(BORDER) for e in tile_edges) == 2 * (rows + cols)
    all_turns = [[turn_edges(edges, k) for k in range(4)] for edges in tile_edges]

    step_of = {cell: i for i, cell in enumerate(cells)}
    tables: dict[tuple, dict] = {}
    plans = []  # per step: which placed edges it must match, and its candidates keyed by them
    for i, (r, c) in enumerate(cells):
        on_frame = (r == 0, c == cols - 1, r == rows - 1, c == 0) if has_border else None
        constraints = []
        for side, (dr, dc) in STEP.items():
            j = step_of.get((r + dr, c + dc))
            if j is not None and j < i:
                constraints.append((side, j, OPPOSITE[side]))
        sides = tuple(side for side, _, _ in constraints)
        limited = break_symmetry and (r, c) == centre
        signature = (sides, on_frame, limited)
        if signature not in tables:
            tables[signature] = _candidates(all_turns, sides, on_frame, frame_forced,
                                            kept_turns if limited else None,
                                            kept_turns if break_symmetry and centre is None else None)
        needs = tuple((j, opp) for _, j, opp in constraints)
        first_need = needs[0] if needs else (0, 0)
        second_need = needs[1] if len(needs) > 1 else (0, 0)
        plans.append((len(needs), *first_need, *second_need, needs, tables[signature]))

    found: list[list[tuple[int, int]]] = []
    used = [False] * count
    shown_at: list[Edges] = [()] * count  # type: ignore[list-item]
    chosen: list[tuple[int, int]] = [(0, 0)] * count
    nodes = 0
    last = count - 1

    def place(step: int) -> bool:
        nonlocal nodes
        n_needs, j, o, k, p, needs, table = plans[step]
        # Keys are built by hand for the common cases: this runs once per node.
        if n_needs == 1:
            key = -shown_at[j][o]
        elif n_needs == 2:
            key = (-shown_at[j][o], -shown_at[k][p])
        else:
            key = tuple(-shown_at[j][o] for j, o in needs)
        for ti, turns, shown in table.get(key, ()):
            if used[ti]:
                continue
            nodes += 1
            chosen[step] = (ti, turns)
            if step == last:
                found.append(chosen[:])
                if first:
                    return True
                continue
            used[ti] = True
            shown_at[step] = shown
            stop = place(step + 1)
            used[ti] = False
            if stop:
                return True
        return False

    place(0)

    ids = [t.id for t in puzzle.tiles]
    searched = []
    for assignment in found:
        grid = [[None] * cols for _ in range(rows)]
        for (r, c), (ti, turns) in zip(cells, assignment):
            grid[r][c] = Placement(ids[ti], turns)
        searched.append(Solution(tuple(tuple(row) for row in grid)))
    if not break_symmetry:
        searched = [s for s in searched if _broken_turns(s, centre, ids[0]) in kept_turns]
    raw, distinct, classes = _fold(puzzle, searched, symmetry)
    return SolveResult(
        rows=rows, cols=cols, raw=raw, distinct=distinct, up_to_rotation=len(classes),
        solutions=tuple(classes), nodes=nodes, seconds=time.perf_counter() - started,
        exhaustive=not first,
    )


def _candidates(all_turns, sides, on_frame, frame_forced, centre_turns, first_tile_turns) -> dict:
    """Every (tile, turn) that may lie in a cell, keyed by the edges it shows on its constrained sides."""
    table: dict = {}
    # itemgetter gives one edge for one side and a tuple for several: the keys `place` builds by hand.
    key_of = operator.itemgetter(*sides) if sides else (lambda shown: ())
    for ti, turned in enumerate(all_turns):
        turns_here = centre_turns or (first_tile_turns if ti == 0 and first_tile_turns else range(4))
        for turns in turns_here:
            shown = turned[turns]
            if on_frame is not None and not _fits_frame(shown, on_frame, frame_forced):
                continue
            table.setdefault(key_of(shown), []).append((ti, turns, shown))
    return table


def _fits_frame(shown: Edges, on_frame: tuple[bool, ...], frame_forced: bool) -> bool:
    """A border edge only on the frame; when there are just enough border edges, the whole frame is border."""
    for side in range(4):
        if shown[side] == BORDER and not on_frame[side]:
            return False
        if frame_forced and on_frame[side] and shown[side] != BORDER:
            return False
    return True


def _broken_turns(solution: Solution, centre, tile_id: int) -> int:
    """The turns that symmetry breaking limits: the centre cell's, or the first tile's."""
    if centre is not None:
        return solution.cells[centre[0]][centre[1]].turns
    return next(p.turns for row in solution.cells for p in row if p.tile == tile_id)


def _fold(puzzle: Puzzle, searched: list[Solution], symmetry: int) -> tuple[int, int, list[Solution]]:
    """Raw and distinct counts, and one solution per class up to rotation, from the symmetry-broken search."""
    looks_seen: set = set()
    classes_seen: set = set()
    classes = []
    for solution in searched:
        orbit = [solution]
        for _ in range(3 if symmetry == 4 else 0):
            orbit.append(orbit[-1].rotated())
        if symmetry == 2:
            orbit.append(solution.rotated().rotated())
        looks = [_look(puzzle, s) for s in orbit]
        looks_seen.update(looks)
        canonical = min(looks)
        if canonical not in classes_seen:
            classes_seen.add(canonical)
            classes.append(solution)
    return len(searched) * symmetry, len(looks_seen), classes


def _look(puzzle: Puzzle, solution: Solution) -> tuple:
    """What a person sees: the edges of every cell, so identical tiles cannot be told apart."""
    return tuple(tuple(row) for row in solution.edges(puzzle))
