from __future__ import annotations

import random

import pytest

from photosolve.solver import Puzzle, solve
from photosolve.solver.generate import planted_puzzle, uniform_puzzle
from photosolve.solver.search import BoardSizeError, fill_order
from photosolve.solver.tiles import turn_edges

from .solver_checks import board_is_valid, brute_counts

KNOWN_COUNTS = {
    "dogs": (16, 8, 2),
    "insects": (4, 4, 1),
    "nsa": (4, 4, 1),
    "cats": (4, 4, 1),
}


@pytest.mark.parametrize("name", sorted(KNOWN_COUNTS))
def test_seed_puzzles_have_their_known_counts(load_sample, name):
    result = solve(load_sample(name))
    assert (result.raw, result.distinct, result.up_to_rotation) == KNOWN_COUNTS[name]
    assert len(result.solutions) == result.up_to_rotation
    assert result.nodes > 0 and result.exhaustive


@pytest.mark.parametrize("name", sorted(KNOWN_COUNTS))
def test_every_solution_is_checked_edge_by_edge(load_sample, name):
    puzzle = load_sample(name)
    result = solve(puzzle)
    for solution in result.solutions:
        assert board_is_valid(solution.edges(puzzle))
        ids = sorted(p.tile for row in solution.cells for p in row)
        assert ids == [t.id for t in puzzle.tiles]


def test_every_eight_of_the_nine_cats_tiles_make_a_2x4_board(load_sample):
    cats = load_sample("cats")
    for left_out in range(9):
        eight = Puzzle(tuple(t for i, t in enumerate(cats.tiles) if i != left_out))
        result = solve(eight, 2, 4, first=True)
        assert result.raw >= 1, f"without tile {left_out + 1}"
        assert board_is_valid(result.solutions[0].edges(eight))


def test_search_options_do_not_change_the_counts(load_sample):
    dogs = load_sample("dogs")
    counts = {
        (order, breaking): (lambda r: (r.raw, r.distinct, r.up_to_rotation))(solve(dogs, order=order, break_symmetry=breaking))
        for order in ("spiral", "rows") for breaking in (True, False)
    }
    assert set(counts.values()) == {KNOWN_COUNTS["dogs"]}


@pytest.mark.parametrize("rows,cols,motifs", [(2, 2, 2), (2, 2, 3), (1, 3, 2), (2, 3, 2), (2, 3, 3), (1, 1, 2)])
def test_counts_agree_with_exhaustive_enumeration(rows, cols, motifs):
    rng = random.Random(rows * 100 + cols * 10 + motifs)
    trials = 40 if rows * cols <= 4 else 6
    solvable = 0
    for _ in range(trials):
        if rng.random() < 0.5:
            puzzle = uniform_puzzle(rows, cols, motifs, rng)
        else:
            puzzle = planted_puzzle(rows, cols, motifs, rng)[0]
        tiles = [t.edges for t in puzzle.tiles]
        result = solve(puzzle, rows, cols)
        assert (result.raw, result.distinct, result.up_to_rotation) == brute_counts(tiles, rows, cols), tiles
        solvable += result.raw > 0
    assert solvable > 0


def test_identical_and_symmetric_tiles_are_folded_in_distinct_counts():
    # Four copies of one symmetric tile: every raw arrangement looks the same.
    puzzle = Puzzle.from_edges([(1, -1, 1, -1)] * 4)
    result = solve(puzzle)
    raw, distinct, classes = brute_counts([t.edges for t in puzzle.tiles], 2, 2)
    assert (result.raw, result.distinct, result.up_to_rotation) == (raw, distinct, classes)
    assert result.distinct < result.raw


def test_planted_puzzles_contain_their_planted_solution():
    rng = random.Random(7)
    for rows, cols, motifs in [(3, 3, 4), (4, 4, 4), (2, 4, 3), (5, 5, 8)]:
        puzzle, planted = planted_puzzle(rows, cols, motifs, rng)
        assert board_is_valid(planted.edges(puzzle))
        result = solve(puzzle, rows, cols)
        assert result.raw >= 1
        for solution in result.solutions:
            assert board_is_valid(solution.edges(puzzle))


def test_bordered_puzzle_puts_flat_edges_on_the_frame():
    rng = random.Random(3)
    puzzle, _ = planted_puzzle(4, 4, 3, rng, border=True)
    result = solve(puzzle)
    assert result.raw >= 4
    for solution in result.solutions:
        grid = solution.edges(puzzle)
        assert board_is_valid(grid)
        assert all(grid[0][c][0] == 0 and grid[3][c][2] == 0 for c in range(4))


def test_first_stops_after_one_solution(load_sample):
    result = solve(load_sample("dogs"), first=True)
    assert not result.exhaustive
    assert len(result.solutions) == 1
    assert result.nodes < solve(load_sample("dogs")).nodes


def test_uniform_random_3x3_puzzles_match_the_expected_mean():
    """Seed 000: mean raw solutions 9! 4^9 / 8^12 ~ 1.38 for 4 motifs, and most puzzles have none."""
    rng = random.Random(2024)
    results = [solve(uniform_puzzle(3, 3, 4, rng)).raw for _ in range(600)]
    expected = 362880 * 4 ** 9 / 8 ** 12
    assert abs(sum(results) / len(results) - expected) < 0.45
    assert sum(r == 0 for r in results) / len(results) > 0.6
    assert all(r % 4 == 0 for r in results)


def test_board_that_does_not_hold_the_tiles_is_an_error(load_sample):
    with pytest.raises(BoardSizeError, match="give the size"):
        solve(Puzzle.from_edges([(1, 2, 3, 4)] * 8))
    with pytest.raises(BoardSizeError):
        solve(load_sample("dogs"), 2, 4)


def test_turning_is_clockwise_and_cyclic():
    edges = (1, 2, 3, 4)
    assert turn_edges(edges, 1) == (4, 1, 2, 3)
    for k in range(-5, 9):
        assert turn_edges(turn_edges(edges, k), 4 - k % 4) == edges


@pytest.mark.parametrize("rows,cols", [(3, 3), (4, 4), (2, 4), (5, 5), (6, 6)])
def test_fill_order_visits_every_cell_once_and_each_touches_a_placed_one(rows, cols):
    order = fill_order(rows, cols)
    assert sorted(order) == [(r, c) for r in range(rows) for c in range(cols)]
    for i, (r, c) in enumerate(order[1:], start=1):
        assert any(abs(r - r2) + abs(c - c2) == 1 for r2, c2 in order[:i])


def test_an_arrangement_is_checked_against_the_tiles_read_otherwise(load_sample):
    puzzle = load_sample("cats")
    solution = solve(puzzle, 3, 3, first=True).solutions[0]
    assert solution.seams_match(puzzle)
    rows = [list(t.edges) for t in sorted(puzzle.tiles, key=lambda t: t.id)]
    centre = solution.cells[1][1].tile - 1  # every side of the centre tile lies on an inner seam
    rows[centre][0] = -rows[centre][0]
    assert not solution.seams_match(Puzzle.from_edges([tuple(r) for r in rows]))
