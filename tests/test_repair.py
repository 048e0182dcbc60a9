"""The repair search on readings with injected errors: one, two, three wrong edges."""
from __future__ import annotations

import math
import random

import pytest

from photosolve.solver import Puzzle, solve, turn_edges
from photosolve.solver.generate import planted_puzzle
from photosolve.solver.repair import CHANGE_PRICE, repair, seam_cost

from .solver_checks import board_is_valid


def posteriors_for(edges, motifs, wrong=None, sure=0.9):
    """Per-edge probabilities as a reader would give them: the read label likely, the true one (if misread) next."""
    wrong = wrong or {}
    labels = [sign * k for k in range(1, motifs + 1) for sign in (1, -1)]
    result = []
    for t, tile in enumerate(edges):
        row = []
        for s, true in enumerate(tile):
            weights = {label: 0.02 for label in labels}
            if (t, s) in wrong:
                weights[wrong[t, s]], weights[true] = 0.55, 0.35
            else:
                weights[true] = sure
            total = sum(weights.values())
            row.append({label: w / total for label, w in weights.items()})
        result.append(row)
    return result


def inner_sides(solution, rows, cols):
    """(tile index, side as given) of every half that lies on an inner seam of the planted solution."""
    inner = []
    for r, row in enumerate(solution.cells):
        for c, placement in enumerate(row):
            for direction, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    inner.append((placement.tile - 1, (direction - placement.turns) % 4))
    return inner


def arrangement_is_true(puzzle: Puzzle, solution) -> bool:
    """The arrangement, laid with the true tiles, fits on every seam."""
    by_id = {t.id: t.edges for t in puzzle.tiles}
    return board_is_valid([[turn_edges(by_id[p.tile], p.turns) for p in row] for row in solution.cells])


def test_a_reading_that_solves_needs_no_change(load_sample):
    puzzle = load_sample("dogs")
    fixed = repair(posteriors_for([t.edges for t in puzzle.tiles], 4), 3, 3)
    assert fixed.changes == () and fixed.cost == 0.0
    assert arrangement_is_true(puzzle, fixed.solution)


# Share of unsolvable misreadings whose repair is the true arrangement, with these flat probabilities (each misread
# edge 0.55 against the true label's 0.35): measured over 60 puzzles as 31/31, 28/39 and 15/36. More misread
# edges leave cheaper wrong repairs; the reader's real probabilities are sharper than this.
@pytest.mark.parametrize("wrong_count, share", [(1, 1.0), (2, 0.6), (3, 0.3)])
def test_misread_inner_edges_are_repaired(wrong_count, share):
    repaired = needed = 0
    for seed in range(24):
        rng = random.Random(seed)
        puzzle, planted = planted_puzzle(3, 3, 4, rng)
        edges = [t.edges for t in puzzle.tiles]
        wrong = {}
        for t, s in rng.sample(inner_sides(planted, 3, 3), wrong_count):
            wrong[t, s] = rng.choice([v for v in (1, -1, 2, -2, 3, -3, 4, -4) if v != edges[t][s]])
        misread = [list(e) for e in edges]
        for (t, s), label in wrong.items():
            misread[t][s] = label
        fixed = repair(posteriors_for(edges, 4, wrong), 3, 3)
        assert fixed.solution is not None and fixed.exhaustive
        # The true reading is one consistent reading; the repair's is at least as probable.
        true_cost = len(wrong) * (math.log(0.55 / 0.35) + CHANGE_PRICE)
        assert fixed.cost <= true_cost + 1e-9
        # The repaired reading is a solution of the board...
        assert arrangement_is_true(Puzzle.from_edges(fixed.edges), fixed.solution)
        if solve(Puzzle.from_edges(misread), 3, 3, first=True).solutions:
            assert fixed.cost == 0.0  # the misread still solves: the reading stands (reported as doubtful)
            continue
        needed += 1
        assert 1 <= len(fixed.changes) <= wrong_count
        assert all(c.read_probability < 0.6 for c in fixed.changes)  # only the doubtful edges were changed
        # ...and, where the misread did not solve, usually the true arrangement.
        repaired += arrangement_is_true(puzzle, fixed.solution)
    assert needed >= 8 and repaired >= share * needed


def test_the_report_names_the_edge_and_both_readings():
    posteriors = posteriors_for([(1, 2, -3, -4)] * 1, 4, {(0, 1): -2})
    change_text = None
    fixed = repair(posteriors + posteriors_for([(3, 4, -1, -2)], 4), 1, 2)
    for change in fixed.changes:
        change_text = change.describe(lambda label: f"m{label}")
    assert fixed.solution is not None
    assert change_text is None or ("east edge" in change_text and "taken as" in change_text)


def test_nothing_within_the_budget_gives_no_solution():
    # Four tiles whose every half is certainly motif 1 head: no seam can close, whatever is changed cheaply.
    certain = [[{1: 0.999, -1: 0.001} for _ in range(4)] for _ in range(4)]
    fixed = repair(certain, 2, 2, budget=3.0)
    assert fixed.solution is None and fixed.cost == float("inf")


def test_seam_cost_is_zero_for_a_read_pair_and_grows_with_doubt():
    head, tail = {1: 0.9, -1: 0.1}, {1: 0.1, -1: 0.9}
    assert seam_cost(head, tail) == (0.0, 1)
    unsure = {1: 0.6, -1: 0.4}
    cost, label = seam_cost(head, unsure)
    assert label == 1 and cost > 0
    assert seam_cost(head, {1: 0.9, -1: 0.1})[0] > cost


def certain(label, labels, p=0.96):
    rest = (1 - p) / (len(labels) - 1)
    return {other: (p if other == label else rest) for other in labels}


def test_a_rival_reading_nearly_as_likely_marks_its_edges_doubtful():
    labels = [v for k in range(2, 12) for v in (k, -k)]
    # Tile 1's east edge is read 2 or 3 (0.55 / 0.45); tile 2 has both a -2 and a -3 to meet it.
    first = [certain(7, labels), {**certain(2, labels, 0.55), 3: 0.45 - 0.45 / 19}, certain(8, labels),
             certain(9, labels)]
    second = [certain(-2, labels), certain(10, labels), certain(-3, labels), certain(11, labels)]
    fixed = repair([first, second], 1, 2, rival=True)
    assert fixed.solution is not None and fixed.cost == 0.0 and fixed.edges[0][1] == 2
    assert fixed.rival_edges is not None and fixed.rival_edges[0][1] == 3
    assert 0 < fixed.rival_cost < 1.0
    assert fixed.doubtful(margin=3.0) == [(0, 1)]  # only that edge differs; tile 2 is turned another way
    assert fixed.doubtful(margin=0.1) == []


def test_a_sure_reading_has_no_doubt(load_sample):
    puzzle = load_sample("dogs")
    fixed = repair(posteriors_for([t.edges for t in puzzle.tiles], 4, sure=0.98), 3, 3, rival=True)
    assert fixed.cost == 0.0
    assert fixed.rival_cost - fixed.cost > 3.0 and fixed.doubtful(margin=3.0) == []
