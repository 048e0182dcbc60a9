"""Every arrangement of the tiles on an R x C board: the search set up, run, and its solutions counted.

What makes it fast, each measured in bench/solver_speed.py and bench/solver_eternity.py:
- cells are filled in a fixed order: a spiral from the centre for signed halves (each new tile next to as
  many placed ones as possible), rows for equal colours (the frame is met at once);
- every (tile, turn) is indexed in advance by the edges it shows on the sides that will already have
  neighbours, so a cell only ever looks at candidates that fit (plan.py);
- whole-board rotations are broken (a corner tile kept in one corner, or one tile's turns limited); the other
  rotations of each solution are derived, not searched;
- the loop itself is compiled C with an explicit stack (_engine.c), its Python twin the fallback (engine.py);
  on boards of up to 64 tiles in row order the tiles in use are a 64-bit mask and each bucket's tiles masks, so
  a cell's free candidates are one AND and a tile in use is never looked at (Brendan 8x8: 1.4 such looks per
  placement before; 23 -> 42 M placements/s by turns on a loaded machine, 65-72 M/s on a quieter one);
- a first solution is looked for by restarts in random orders of the tiles, raced on several processes
  (search_run.py).

Tried on Brendan 8x8 and not kept (Knuth's estimate of the row-scan tree, 1 M random probes: 8.8e11 placements):
diagonal order 1e14, frame first 1e15, columns about the same as rows; choosing the most constrained cell at each
step (forward checking on bitsets) 5.5e11 to 7e11 (Brendan 6x6: 11.9 M placements against 14.5 M), each placement
dearer; a colour-count look-ahead (the tiles left must still hold every colour the open edges and the frame's inner
sides need) 7e11 to 1e12 (6x6: 11.2 M), no gain. The dead ends come from the tiles running out, not from one cell.
A CDCL solver on Heule's SAT encoding (bench/solver_sat.py: (tile, turn) per cell, seam colours, a corner fixed;
python-sat's Glucose 4 and CaDiCaL 1.9.5, on this 2-core machine under a load of about 5) found no 8x8 board in
300, 420 and 900 s; on 7x7, Glucose with 9 variable orders found one in 0.45, 2.1, 6.1, 20 and 57 s and none in
40-60 s for the other 4 (the search: about 1 s); a first 6x6 board took it 0.7-2.5 s. Colour counts and
Gallicchio's checkerboard counts added to it did not help on 7x7 (1 to 2 of 4 orders under 40 s). Most of the row
scan's tree lies in rows 4-6 (~1e11 placements per cell, Knuth's estimate), where nearly every board dies.
Measured again for issue 19 (Knuth, 300,000 probes each, row scan 8.4e11): columns 8.4e11, rows snaking 9.0e11,
two-row strips 3.7e12, a square grown from the corner 6.0e12, each row's frame cells first 1.3e12, the right
frame cell first 1.7e12, diagonals 1.2e14. A row look-ahead (after each placement the rest of the row must still
chain, tiles in use left out) halves the tree (3.9e11), but done with masks it is some 7 cells x 64 colour pairs of
AND at every placement against ~15 ns for a placement: not built, as it would cost more than it saves. Transpositions (two partial boards with the same tiles and the
same open edges, whose subtrees are one) are too rare to store: 1.009 boards per state at the end of row 2.
"""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass

from .plan import STEP, Clue, build_plan
from .search_run import Watch, run_plan
from .tiles import Edges, Puzzle, turn_edges

KEEP = 20_000  # solutions kept for folding: 20,000 of a 7x7 board fold in about a second


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

    def seams_match(self, puzzle: Puzzle) -> bool:
        """Whether every inner seam of this arrangement joins two edges that fit in `puzzle` (its tiles, by id,
        may be read otherwise than the puzzle it was solved from): +k meets -k, or like meets like."""
        grid = self.edges(puzzle)
        fit = (lambda a, b: a + b == 0) if puzzle.match == "signed" else (lambda a, b: a == b)
        return all((c + 1 >= self.cols or fit(grid[r][c][1], grid[r][c + 1][3]))
                   and (r + 1 >= self.rows or fit(grid[r][c][2], grid[r + 1][c][0]))
                   for r in range(self.rows) for c in range(self.cols))

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
    distinct: int | None     # boards that look different (identical tiles not told apart); None: not counted
    up_to_rotation: int | None     # ... and whole-board rotations folded too
    solutions: tuple[Solution, ...]  # one per class up to rotation, in the order found
    nodes: int               # placements tried
    seconds: float
    exhaustive: bool         # False when the search stopped early: the counts are then lower bounds
    stopped: str | None = None  # why it stopped early: 'first', 'timeout' or 'interrupted'
    match: str = "signed"    # how edges fit: 'signed' (+k meets -k) or 'equal'
    deepest: int = 0         # most cells filled at once
    engine: str = "python"   # what ran the search: 'c' or 'python'
    jobs: int = 1            # processes that searched


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


def board_for(count: int, rows: int | None, cols: int | None) -> tuple[int, int]:
    """The board asked for, completed from the tile count, or an error that says what to give."""
    for name, value in (("rows", rows), ("cols", cols)):
        if value is not None and value <= 0:
            raise BoardSizeError(f"--{name} must be a positive number, got {value}")
    if rows is None and cols is None:
        return default_board(count)
    given, name = (rows, "rows") if rows is not None else (cols, "columns")
    if count % given:
        raise BoardSizeError(f"{count} tiles do not fill a board with {given} {name}: "
                             "check the tile count or the board size")
    rows, cols = rows or count // cols, cols or count // rows
    if rows * cols != count:
        raise BoardSizeError(f"{count} tiles do not fill a {rows}x{cols} board: give a size that holds exactly {count} tiles")
    return rows, cols


def solve(
    puzzle: Puzzle,
    rows: int | None = None,
    cols: int | None = None,
    *,
    first: bool = False,
    order: str | None = None,
    break_symmetry: bool = True,
    match: str | None = None,
    clues: tuple[Clue, ...] = (),
    jobs: int | None = 1,
    engine: str | None = None,
    watch: Watch | None = None,
    seed: int = 0,
) -> SolveResult:
    """Find every arrangement of the puzzle's tiles on a rows x cols board (or the first one).

    match: 'signed' (+k meets -k) or 'equal' (like colours meet, 0 is the frame); default the puzzle's.
    order: 'spiral' (from the centre; signed puzzles' default) or 'rows' (equal colours' default: the frame
    is met at once). clues: tiles fixed in cells (then rotations are not folded). jobs: processes that count
    subtrees in parallel (None: all cores once the search outlasts a short probe). seed: the random orders
    of a first solution's restarts (each seed its own, reproducible in one process). watch: progress, timeout and Ctrl-C (search_run.Watch); a stopped search returns
    what it found with exhaustive False and `stopped` saying why.
    """
    started = time.perf_counter()
    rows, cols = board_for(len(puzzle.tiles), rows, cols)
    match = match or puzzle.match
    order = order or ("spiral" if match == "signed" else "rows")
    cells = list(_fill_order(rows, cols)) if order == "spiral" else row_major_order(rows, cols)
    tile_edges = [t.edges for t in puzzle.tiles]
    plan = build_plan(tile_edges, rows, cols, cells, match=match, break_symmetry=break_symmetry, clues=clues)
    # Every solution is kept to fold identical tiles; beyond KEEP, only when no two tiles look alike can the
    # distinct counts still be given (then every raw arrangement looks different).
    run = run_plan(plan, first=first, keep=KEEP, jobs=jobs, engine=engine, watch=watch, seed=seed)

    grids = [_grid(plan, assignment, rows, cols) for assignment in run.kept]
    per_searched = plan.symmetry if break_symmetry else 1
    raw = run.found * per_searched
    distinct, classes = _fold(puzzle, grids, plan.symmetry)
    if run.found > len(grids):
        if _all_tiles_told_apart(tile_edges) and break_symmetry:
            distinct = raw
            up_to_rotation: int | None = run.found
        else:
            distinct, up_to_rotation = None, None
    else:
        up_to_rotation = len(classes)
    return SolveResult(
        rows=rows, cols=cols, raw=raw, distinct=distinct, up_to_rotation=up_to_rotation,
        solutions=tuple(classes), nodes=run.nodes, seconds=time.perf_counter() - started,
        exhaustive=run.stopped is None, stopped=run.stopped, match=match, deepest=run.deepest,
        engine=run.engine, jobs=run.jobs,
    )


def _all_tiles_told_apart(tile_edges) -> bool:
    """No tile looks like another in any turn, and none looks the same turned: every arrangement looks unique."""
    seen = set()
    for edges in tile_edges:
        turns = {turn_edges(edges, k) for k in range(4)}
        if len(turns) < 4 or turns & seen:
            return False
        seen |= turns
    return True


def _grid(plan, assignment, rows: int, cols: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A searched solution as rows of (tile index, turns)."""
    grid = [[(0, 0)] * cols for _ in range(rows)]
    for (r, c), entry in zip(plan.cells, assignment):
        grid[r][c] = plan.placement(entry)
    return tuple(tuple(row) for row in grid)


def _fold(puzzle: Puzzle, grids: list, symmetry: int) -> tuple[int, list[Solution]]:
    """The distinct count, and one solution per class up to rotation, from the searched solutions.

    Works on plain tuples (a 49-cell board's orbit in ~0.1 ms); Solution objects only for the ones kept.
    """
    shown = [[turn_edges(t.edges, k) for k in range(4)] for t in puzzle.tiles]
    ids = [t.id for t in puzzle.tiles]
    looks_seen: set = set()
    classes_seen: set = set()
    classes = []
    for grid in grids:
        look = tuple(tuple(shown[ti][k] for ti, k in row) for row in grid)
        orbit = [look]
        for _ in range(3 if symmetry == 4 else 0):
            orbit.append(_rotated_look(orbit[-1]))
        if symmetry == 2:
            orbit.append(_rotated_look(_rotated_look(look)))
        looks_seen.update(orbit)
        canonical = min(orbit)
        if canonical not in classes_seen:
            classes_seen.add(canonical)
            classes.append(Solution(tuple(tuple(Placement(ids[ti], k) for ti, k in row) for row in grid)))
    return len(looks_seen), classes


def _rotated_look(look: tuple) -> tuple:
    """The edges every cell shows after turning the whole board a quarter turn clockwise."""
    rows, cols = len(look), len(look[0])
    return tuple(tuple(turn_edges(look[rows - 1 - c][r], 1) for c in range(rows)) for r in range(cols))
