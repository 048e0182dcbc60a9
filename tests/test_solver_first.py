"""A first solution on boards too big to count: the same tree walked in other orders (seeded restarts), and
processes racing for it; counts and engines stay exact."""
from __future__ import annotations

import random
import time

import pytest

from photosolve.solver import Puzzle, search_run, solve
from photosolve.solver.engine import DONE, compiled, start_search
from photosolve.solver.generate import planted_puzzle
from photosolve.solver.plan import build_plan
from photosolve.solver.search import row_major_order
from photosolve.solver.search_run import Watch

from .solver_checks import board_is_valid

ENGINES = ["python"] + (["c"] if compiled is not None else [])


def walk(plan, engine, seed):
    search = start_search(plan, keep=1 << 20, engine=engine, seed=seed)
    while search.run(1 << 20) != DONE:
        pass
    return search.nodes, search.found, search.kept()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_seeded_search_walks_the_same_tree_in_another_order(engine):
    puzzle, _ = planted_puzzle(4, 4, 3, random.Random(5), match="equal")
    plan = build_plan([t.edges for t in puzzle.tiles], 4, 4, row_major_order(4, 4), match="equal")
    nodes, found, kept = walk(plan, engine, 0)
    assert found > 1
    orders = set()
    for seed in (1, 2, 3):
        seeded_nodes, seeded_found, seeded_kept = walk(plan, engine, seed)
        assert (seeded_nodes, seeded_found, sorted(seeded_kept)) == (nodes, found, sorted(kept))
        orders.add(tuple(seeded_kept))
    assert len(orders | {tuple(kept)}) > 1  # some seed finds the solutions in another order


@pytest.mark.skipif(compiled is None, reason="the C engine was not built")
def test_both_engines_shuffle_alike():
    puzzle, _ = planted_puzzle(5, 5, 4, random.Random(2), match="equal")
    plan = build_plan([t.edges for t in puzzle.tiles], 5, 5, row_major_order(5, 5), match="equal")
    for seed in (7, 1 << 40):
        runs = [start_search(plan, keep=5, first=True, engine=engine, seed=seed) for engine in ("c", "python")]
        for search in runs:
            search.run(3000)  # stopped part way: the same placements tried in the same order
        assert runs[0].nodes == runs[1].nodes and runs[0].deepest == runs[1].deepest


def valid(puzzle, result):
    return all(board_is_valid(solution.edges(puzzle), puzzle.match) for solution in result.solutions)


def test_first_restarts_in_other_orders_until_it_finds_one(monkeypatch):
    monkeypatch.setattr(search_run, "PLAIN_FIRST", 500)  # so that this small board needs restarts
    monkeypatch.setattr(search_run, "RESTART_UNIT", 100)
    puzzle, _ = planted_puzzle(6, 6, 4, random.Random(3), match="equal")
    reports = []
    result = solve(puzzle, first=True, jobs=1, watch=Watch(progress=reports.append, every=0))
    assert result.stopped == "first" and result.raw == 4 and len(result.solutions) == 1
    assert valid(puzzle, result)
    assert reports and reports[-1].restarts > 0
    again = solve(puzzle, first=True, jobs=1)  # one process: the same seeds, the same solution
    assert again.solutions == result.solutions and again.nodes == result.nodes


def test_each_seed_restarts_in_its_own_orders_the_same_every_run(monkeypatch):
    monkeypatch.setattr(search_run, "PLAIN_FIRST", 500)
    monkeypatch.setattr(search_run, "RESTART_UNIT", 100)
    puzzle, _ = planted_puzzle(6, 6, 4, random.Random(3), match="equal")
    runs = {seed: solve(puzzle, first=True, jobs=1, seed=seed) for seed in (0, 1, 2)}
    assert all(r.stopped == "first" and valid(puzzle, r) for r in runs.values())
    assert len({r.nodes for r in runs.values()}) > 1  # other seeds, other orders
    again = solve(puzzle, first=True, jobs=1, seed=2)
    assert again.solutions == runs[2].solutions and again.nodes == runs[2].nodes


def test_restarts_that_walk_the_whole_tree_prove_there_is_none(monkeypatch):
    monkeypatch.setattr(search_run, "PLAIN_FIRST", 10)
    monkeypatch.setattr(search_run, "RESTART_UNIT", 10)
    puzzle, _ = planted_puzzle(4, 4, 3, random.Random(5), match="equal")
    edges = [t.edges for t in puzzle.tiles]
    inner = next(i for i, e in enumerate(edges) if 0 not in e)
    edges[inner] = (99,) + edges[inner][1:]  # a colour no other edge shows: no seam can take it
    broken = Puzzle.from_edges(edges, match="equal")
    result = solve(broken, first=True, jobs=1)
    assert (result.raw, result.exhaustive, result.stopped) == (0, True, None)
    assert result.nodes > 0


def test_processes_race_for_a_first_solution(monkeypatch):
    monkeypatch.setattr(search_run, "AUTO_PROBE_SECONDS", 0.0)  # race at once
    monkeypatch.setattr(search_run, "PLAIN_FIRST", 500)
    puzzle, _ = planted_puzzle(7, 7, 4, random.Random(1), match="equal")
    started = time.perf_counter()
    result = solve(puzzle, first=True, jobs=2)
    assert result.jobs == 2 and result.stopped == "first" and result.raw == 4
    assert valid(puzzle, result)
    assert time.perf_counter() - started < 30
