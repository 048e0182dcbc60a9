"""Property-based tests of the tile-file parser and the solver: any text either parses or gets a one-line error;
every solution found is a valid board of all the tiles; the counts do not depend on the order the tiles are listed
in, nor on how each is turned. Boards stay at 4 cells or fewer, where any tiles at all are searched in milliseconds
(six like tiles on 2x3 take 2 s), so the whole file runs in seconds."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from photosolve.cli.main import app
from photosolve.solver.search import solve
from photosolve.solver.tilefile import TileFileError, parse_tiles
from photosolve.solver.tiles import Puzzle, turn_edges

from .solver_checks import board_is_valid, brute_counts, turned

QUICK = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Tokens a person (or a program) might put on a tile line: good edges, near misses and junk.
TOKENS = st.one_of(
    st.integers(-4, 4).map(str),
    st.sampled_from(["+1", "-0", "brown+", "brown-", "grey+", "grey-", "brown", "+", "-", "1.5", "0x1", "--1",
                     "#", "\t", "\u2212" "2", "\ufeff", "\x00", "1234567", "é+", "_a+"]),
    st.text(min_size=1, max_size=4),
)
LINES = st.one_of(st.lists(TOKENS, min_size=0, max_size=6).map(" ".join), st.text(max_size=20))
# At most five lines: a square board of at most 4 tiles, so the solver is never the slow part.
TEXTS = st.lists(LINES, max_size=5).map("\n".join)


@QUICK
@given(TEXTS)
def test_any_text_parses_or_gets_a_one_line_error_naming_the_file(text):
    try:
        puzzle = parse_tiles(text, "any.tiles")
    except TileFileError as error:
        message = str(error)
        assert message.startswith("any.tiles") and "\n" not in message and message.isprintable()
        return
    assert 1 <= len(puzzle.tiles) <= 5
    assert all(len(tile.edges) == 4 and all(isinstance(e, int) for e in tile.edges) for tile in puzzle.tiles)


@QUICK
@given(st.one_of(TEXTS.map(lambda text: text.encode("utf-8")), st.binary(max_size=60)))
def test_photosolve_solve_on_any_input_exits_0_1_or_2_and_never_with_a_traceback(data):
    result = CliRunner().invoke(app, ["solve", "-"], input=data)
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.stderr
    if result.exit_code == 2:
        assert result.stdout == ""
        assert len(result.stderr.splitlines()) == 1, result.stderr


BOARDS = st.sampled_from([(1, 1), (1, 2), (2, 1), (1, 3), (1, 4), (2, 2)])


@st.composite
def tiles_on_a_board(draw):
    """Any tiles (a few motifs and the border edge, so that solutions are common), with a board to fill."""
    rows, cols = draw(BOARDS)
    motifs = draw(st.integers(1, 3))
    edge = st.integers(-motifs, motifs)
    tiles = draw(st.lists(st.tuples(edge, edge, edge, edge), min_size=rows * cols, max_size=rows * cols))
    return Puzzle.from_edges(tiles), rows, cols


@st.composite
def solvable(draw):
    """Tiles cut from a board whose seams were drawn at random, then shuffled and turned: at least one solution."""
    rows, cols = draw(BOARDS)
    motifs = draw(st.integers(1, 4))
    half = st.integers(1, motifs).flatmap(lambda k: st.sampled_from([k, -k]))
    east = [[draw(half) for _ in range(cols - 1)] for _ in range(rows)]
    south = [[draw(half) for _ in range(cols)] for _ in range(rows - 1)]
    cells = []
    for r in range(rows):
        for c in range(cols):
            cells.append((-south[r - 1][c] if r else 0, east[r][c] if c + 1 < cols else 0,
                          south[r][c] if r + 1 < rows else 0, -east[r][c - 1] if c else 0))
    order = draw(st.permutations(range(len(cells))))
    turns = draw(st.lists(st.integers(0, 3), min_size=len(cells), max_size=len(cells)))
    return Puzzle.from_edges([turned(cells[i], k) for i, k in zip(order, turns)]), rows, cols


def check_solutions(puzzle: Puzzle, result) -> None:
    edges_of = {tile.id: tile.edges for tile in puzzle.tiles}
    for solution in result.solutions:
        grid = [[turned(edges_of[p.tile], p.turns) for p in row] for row in solution.cells]
        assert board_is_valid(grid)
        assert sorted(p.tile for row in solution.cells for p in row) == sorted(edges_of)


@QUICK
@given(st.one_of(tiles_on_a_board(), solvable()))
def test_every_solution_is_a_valid_board_of_all_the_tiles_and_the_counts_are_exact(case):
    puzzle, rows, cols = case
    result = solve(puzzle, rows, cols)
    check_solutions(puzzle, result)
    assert len(result.solutions) == result.up_to_rotation
    assert (result.raw, result.distinct, result.up_to_rotation) == brute_counts(
        [t.edges for t in puzzle.tiles], rows, cols)


@QUICK
@given(solvable())
def test_tiles_cut_from_a_board_always_have_a_solution(case):
    puzzle, rows, cols = case
    result = solve(puzzle, rows, cols)
    assert result.raw >= 1 and result.solutions
    check_solutions(puzzle, result)


@QUICK
@given(st.one_of(tiles_on_a_board(), solvable()), st.data())
def test_counts_do_not_depend_on_the_order_or_the_turn_of_the_tiles(case, data):
    puzzle, rows, cols = case
    edges = [t.edges for t in puzzle.tiles]
    order = data.draw(st.permutations(range(len(edges))))
    turns = data.draw(st.lists(st.integers(0, 3), min_size=len(edges), max_size=len(edges)))
    again = Puzzle.from_edges([turn_edges(edges[i], k) for i, k in zip(order, turns)])
    first, second = solve(puzzle, rows, cols), solve(again, rows, cols)
    assert (first.raw, first.distinct, first.up_to_rotation) == (second.raw, second.distinct, second.up_to_rotation)
    check_solutions(again, second)
