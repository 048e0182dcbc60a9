"""Random puzzles for tests and benchmarks: uniform random edges, or with a planted solution."""
from __future__ import annotations

import random

from .search import Placement, Solution
from .tiles import BORDER, Puzzle, turn_edges


def _signed(rng: random.Random, motifs: int) -> int:
    return rng.randint(1, motifs) * rng.choice((1, -1))


def uniform_puzzle(rows: int, cols: int, motifs: int, rng: random.Random) -> Puzzle:
    """Every edge of every tile drawn uniformly from the 2*motifs halves (seed 000's experiment)."""
    return Puzzle.from_edges([tuple(_signed(rng, motifs) for _ in range(4)) for _ in range(rows * cols)])


def planted_puzzle(rows: int, cols: int, motifs: int, rng: random.Random,
                   border: bool = False, match: str = "signed") -> tuple[Puzzle, Solution]:
    """A puzzle with at least one solution: random seams on a board, then the tiles shuffled and turned.

    With `border`, the frame is flat (0) as in Eternity-style puzzles; otherwise outer edges are random halves.
    match 'equal': seams of colours 1..motifs that meet their like, and always a flat frame.
    Returns the puzzle and the planted solution (in terms of the shuffled tile ids and turns).
    """
    equal = match == "equal"
    border = border or equal
    draw = (lambda: rng.randint(1, motifs)) if equal else (lambda: _signed(rng, motifs))
    meets = (lambda v: v) if equal else (lambda v: -v)
    # south[r][c]: the edge on the south side of cell (r, c); the cell below shows what meets it on its north.
    south = [[draw() for _ in range(cols)] for _ in range(rows)]
    east = [[draw() for _ in range(cols)] for _ in range(rows)]
    north_frame = [draw() for _ in range(cols)]
    west_frame = [draw() for _ in range(rows)]
    board = []
    for r in range(rows):
        for c in range(cols):
            n = meets(south[r - 1][c]) if r > 0 else (BORDER if border else north_frame[c])
            w = meets(east[r][c - 1]) if c > 0 else (BORDER if border else west_frame[r])
            e = BORDER if border and c == cols - 1 else east[r][c]
            s = BORDER if border and r == rows - 1 else south[r][c]
            board.append((n, e, s, w))
    order = list(range(rows * cols))
    rng.shuffle(order)
    turns = [rng.randrange(4) for _ in order]
    # Tile i as given is the board's cell order[i] turned back by turns[i]; placing it needs turns[i].
    given = [turn_edges(board[cell], -turns[i]) for i, cell in enumerate(order)]
    cells = [[None] * cols for _ in range(rows)]
    for i, cell in enumerate(order):
        cells[cell // cols][cell % cols] = Placement(i + 1, turns[i])
    return Puzzle.from_edges(given, match=match), Solution(tuple(tuple(row) for row in cells))
