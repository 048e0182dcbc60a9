"""Brendan's boards as satisfiability problems (CNF) for a CDCL solver: measured as a way to a first solution
on boards too big for the search to meet one, and not kept in the solver (issue 19; figures in solver/search.py).

`python bench/solver_sat.py [--boards brendan_7x7.txt ...] [--solver glucose4] [--seeds 0 1 2] [--timeout 60]`
needs python-sat (`pip install python-sat`, a wheel; not a photosolve dependency). Each try reorders the
variables and clauses by its seed (0: as encoded), since CDCL times on one formula spread over orders of
magnitude; a model found is decoded and checked seam by seam by solver_eternity.py's own check.

The encoding follows Heule, "Solving edge-matching problems with satisfiability solvers" (2009): a variable per
(tile, turn) in a cell, one per (tile, cell) joining a tile's turns there, and one per (seam, colour). Exactly one
tile per cell and one cell per tile; a placed tile sets the colour of each seam it touches, and a seam's colour
needs a tile on each side that shows it. The frame and the symmetry breaking (a corner tile kept in the top-left
corner) are the search plan's own rules (plan.py). --sign adds Gallicchio's checkerboard constraint: every seam
joins a cell with r + c even and one with r + c odd, so each colour shows as often on the ones as on the others.
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

from photosolve.solver.formats import read_puzzle_text
from photosolve.solver.plan import OPPOSITE, STEP, Clue, _fits_frame, _symmetry_breaking
from photosolve.solver.search import Placement, Solution
from photosolve.solver.tiles import BORDER, Edges, turn_edges

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver_eternity import DEFAULT_BENCH, equal_colour_board_is_valid  # noqa: E402


class Encoding(NamedTuple):
    """The clauses (DIMACS literals) and, for decoding, which variable places which (tile, turns) in which cell."""

    clauses: list[list[int]]
    variables: int
    placements: dict[int, tuple[int, int, int, int]]  # variable -> (row, col, tile index, turns)
    at: dict[tuple[int, int], list[tuple[int, int]]]  # cell -> (tile index, its (tile, cell) variable)


def encode(tile_edges: list[Edges], rows: int, cols: int, *, match: str = "equal",
           break_symmetry: bool = True, clues: tuple[Clue, ...] = ()) -> Encoding:
    """The CNF whose models are exactly the arrangements the search would count (up to its symmetry rule)."""
    need = (lambda v: -v) if match == "signed" else (lambda v: v)
    all_turns = [[turn_edges(edges, k) for k in range(4)] for edges in tile_edges]
    has_border = any(BORDER in e for e in tile_edges)
    frame_forced = match == "equal" or sum(e.count(BORDER) for e in tile_edges) == 2 * (rows + cols)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    _, allowed = _symmetry_breaking(tile_edges, all_turns, rows, cols, cells, match, frame_forced,
                                    break_symmetry, clues)
    clue_at = {(c.row, c.col): c for c in clues}
    clued_tiles = {c.tile for c in clues}

    count = 0

    def new() -> int:
        nonlocal count
        count += 1
        return count

    clauses: list[list[int]] = []
    placements: dict[int, tuple[int, int, int, int]] = {}
    shows: dict[tuple[int, int], list[tuple[int, Edges]]] = {}  # cell -> (variable, edges shown)
    at_cell: dict[tuple[int, int], list[int]] = {}    # cell -> its (tile, cell) variables
    of_tile: list[list[int]] = [[] for _ in tile_edges]
    tile_at: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r, c in cells:
        on_frame = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        clue = clue_at.get((r, c))
        allow = allowed.get((r, c), allowed.get(None))
        shows[(r, c)], at_cell[(r, c)] = [], []
        for ti, turned in enumerate(all_turns):
            turns = []
            for k, shown in enumerate(turned):
                if clue is not None and (ti != clue.tile or k != clue.turns):
                    continue
                if clue is None and ti in clued_tiles:
                    continue
                if allow is not None and not allow(ti, k):
                    continue
                if (has_border or match == "equal") and not _fits_frame(shown, on_frame, frame_forced):
                    continue
                if any(turned[j] == shown for j, _ in turns):
                    continue  # a symmetric tile looks the same turned: one of its turns is enough
                turns.append((k, shown))
            if not turns:
                continue
            here = new()
            at_cell[(r, c)].append(here)
            tile_at.setdefault((r, c), []).append((ti, here))
            of_tile[ti].append(here)
            chosen = []
            for k, shown in turns:
                v = new()
                placements[v] = (r, c, ti, k)
                shows[(r, c)].append((v, shown))
                chosen.append(v)
                clauses.append([-v, here])
            clauses.append([-here] + chosen)
            clauses.extend(_at_most_one(chosen))
    for group in list(at_cell.values()) + of_tile:
        clauses.append(list(group))  # empty when a cell or a tile has nowhere to go: no solution
        clauses.extend(_at_most_one(group))

    # Each seam between two cells, once, from the cell above or on the left: its colour is the one that cell
    # shows; the other side shows what that colour needs.
    for r, c in cells:
        for side in (1, 2):  # E, S
            dr, dc = STEP[side]
            other = (r + dr, c + dc)
            if other not in shows:
                continue
            back = OPPOSITE[side]
            first = {}
            for v, shown in shows[(r, c)]:
                first.setdefault(shown[side], []).append(v)
            second = {}
            for v, shown in shows[other]:
                second.setdefault(need(shown[back]), []).append(v)
            colours = []
            for colour in set(first) | set(second):
                seam = new()
                colours.append(seam)
                for v in first.get(colour, ()):
                    clauses.append([-v, seam])
                for v in second.get(colour, ()):
                    clauses.append([-v, seam])
                clauses.append([-seam] + first.get(colour, []))
                clauses.append([-seam] + second.get(colour, []))
            clauses.extend(_at_most_one(colours))
    return Encoding(clauses, count, placements, tile_at)


def _at_most_one(literals: list[int]) -> list[list[int]]:
    """Pairwise: at most a few hundred clauses per group here, and the strongest propagation."""
    return [[-a, -b] for i, a in enumerate(literals) for b in literals[i + 1:]]


def decode(encoding: Encoding, model, rows: int, cols: int) -> list[list[tuple[int, int]]]:
    """The board a model describes, as rows of (tile index, turns)."""
    grid: list[list[tuple[int, int] | None]] = [[None] * cols for _ in range(rows)]
    for literal in model:
        placed = encoding.placements.get(literal) if literal > 0 else None
        if placed is not None:
            r, c, ti, k = placed
            grid[r][c] = (ti, k)
    return grid  # type: ignore[return-value]


def checkerboard(encoding: Encoding, tile_edges: list[Edges], top: int) -> tuple[list[list[int]], int]:
    """Clauses saying each colour lies as often on cells with r + c even as on the others (a tile's variable: it
    lies on an even cell), with cardinality constraints from python-sat; and the last variable used."""
    from pysat.card import CardEnc, EncType

    clauses, even = [], {}
    for (r, c), pairs in encoding.at.items():
        if (r + c) % 2 == 0:
            for ti, v in pairs:
                even.setdefault(ti, []).append(v)
    sign = {}
    for ti in range(len(tile_edges)):
        top += 1
        sign[ti] = top
        clauses.append([-top] + even.get(ti, []))
        clauses.extend([-v, top] for v in even.get(ti, []))
    colours = collections.Counter(v for e in tile_edges for v in e if v != BORDER)
    for colour, total in colours.items():
        lits = [sign[ti] for ti, e in enumerate(tile_edges) for v in e if v == colour]
        cnf = CardEnc.equals(lits=lits, bound=total // 2, top_id=top, encoding=EncType.seqcounter)
        top = max(top, cnf.nv)
        clauses.extend(cnf.clauses)
    return clauses, top


def shuffled(clauses: list[list[int]], top: int, seed: int) -> tuple[list[list[int]], list[int]]:
    """The same formula with its variables renamed and its clauses reordered by the seed, and the renaming."""
    rnd = random.Random(seed)
    rename = list(range(1, top + 1))
    rnd.shuffle(rename)
    rename = [0] + rename
    out = [[rename[abs(v)] if v > 0 else -rename[abs(v)] for v in clause] for clause in clauses]
    rnd.shuffle(out)
    return out, rename


def attempt(loaded, solver: str, seed: int, timeout: float, sign: bool) -> tuple[str, float, int]:
    """One try: 'found, valid' / 'INVALID' / 'unsatisfiable' / 'timeout', seconds, conflicts."""
    from pysat.solvers import Solver

    tile_edges = [t.edges for t in loaded.puzzle.tiles]
    rows, cols = loaded.rows, loaded.cols
    encoding = encode(tile_edges, rows, cols, match=loaded.puzzle.match)
    clauses, top = encoding.clauses, encoding.variables
    if sign:
        more, top = checkerboard(encoding, tile_edges, top)
        clauses = clauses + more
    rename = list(range(top + 1))
    if seed:
        clauses, rename = shuffled(clauses, top, seed)
    started = time.perf_counter()
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        timer = threading.Timer(timeout, sat.interrupt)
        timer.start()
        try:
            answer = sat.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - started
        conflicts = sat.accum_stats().get("conflicts", 0)
        if answer is None:
            return "timeout", seconds, conflicts
        if not answer:
            return "unsatisfiable", seconds, conflicts
        back = {rename[v]: v for v in range(1, top + 1)}
        model = [back[v] if v > 0 else -back[-v] for v in sat.get_model() if abs(v) in back]
    grid = decode(encoding, model, rows, cols)
    ids = [t.id for t in loaded.puzzle.tiles]
    solution = Solution(tuple(tuple(Placement(ids[ti], k) for ti, k in row) for row in grid))
    valid = equal_colour_board_is_valid(loaded.puzzle, solution)
    return ("found, valid" if valid else "INVALID"), seconds, conflicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=Path, default=DEFAULT_BENCH)
    parser.add_argument("--boards", nargs="+", default=["brendan_7x7.txt", "brendan_8x8.txt"])
    parser.add_argument("--solver", default="glucose4", help="a python-sat solver name (glucose4, cadical195, ...)")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per try")
    parser.add_argument("--sign", action="store_true", help="add the checkerboard colour constraint")
    args = parser.parse_args()
    try:
        import pysat  # noqa: F401
    except ImportError:
        print("python-sat is not installed: pip install python-sat")
        return
    print(f"{args.solver}{' + checkerboard' if args.sign else ''}, {args.timeout:g} s per try")
    for name in args.boards:
        path = args.bench / name
        loaded = read_puzzle_text(path.read_text(), str(path))
        for seed in args.seeds:
            status, seconds, conflicts = attempt(loaded, args.solver, seed, args.timeout, args.sign)
            print(f"  {name:<20} seed {seed:<3} {status:<14} {seconds:8.2f} s  {conflicts:>9} conflicts", flush=True)


if __name__ == "__main__":
    main()
