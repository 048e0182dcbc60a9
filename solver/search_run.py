"""Running a plan: in slices, so a long search shows progress, obeys a timeout and Ctrl-C, and keeps its counts;
on several processes, each counting whole subtrees (the first placements), the counts added up exactly.

A first solution is looked for with restarts: the plain search first, then the same tree again and again with
each bucket's candidates in another random order (engine.start_search's seed), each try given a budget on the
Luby schedule (1, 1, 2, 1, 1, 2, 4, ... units), so a search stuck under an early wrong placement is left for
another order; on several processes, each with its own seeds, racing. A try that ends without a solution has
walked the whole tree: then there is none.

The solver's own records are NamedTuples, not dataclasses: a dataclass takes ~0.5-1.5 ms to create at import,
and the seven here and in plan.py, formats.py and cli/solve_cmd.py made `photosolve solve` start 5 ms slower.
"""
from __future__ import annotations

import itertools
import os
import time
from typing import Callable, Iterator, NamedTuple

from .engine import DONE, FOUND_FIRST, engine_name, start_search
from .plan import STEP_STRIDE, Plan

SLICE_SECONDS = 0.05    # between looks at the clock: Ctrl-C and timeouts are obeyed within about this
FIRST_BUDGET = 20_000   # placements in the first slice: a 3x3 puzzle is done in it (seed puzzles: < 3,000)
AUTO_PROBE_SECONDS = 0.3  # --jobs unset: a search still running after this much is started again on all cores
SUBTREES_PER_JOB = 16   # enough that the slowest subtree does not leave the other processes idle long
PLAIN_FIRST = 4_000_000  # placements the plain search gets before restarts (~0.1 s): 7x7 and smaller boards
#                          mostly finish in it, and then give the same first solution every time
RESTART_UNIT = 10_000    # placements per Luby unit. Brendan 7x7, 20 seeds each, mean placements to a first solution:
#                          units 1e3 9.3 M, 1e4 12 M, 1e5 14 M, 1e6 17 M, no restarts 19 M; below 1e4 the restarts
#                          themselves (~0.1 ms each) cost more than the placements saved


class Progress(NamedTuple):
    """How far a search has come, for a progress line."""

    nodes: int
    seconds: float
    deepest: int           # most cells filled at once
    deepest_cell: tuple[int, int]
    cells: int
    found: int             # whole boards searched out so far (each stands for `symmetry` raw ones)
    subtrees: tuple[int, int] | None = None  # (done, total) when split over processes
    restarts: int = 0      # tries in another order so far (a first solution)


class Watch(NamedTuple):
    """What the caller wants while a search runs: a deadline, and progress reports every `every` seconds."""

    timeout: float | None = None
    progress: Callable[[Progress], None] | None = None
    every: float = 0.5


class Run(NamedTuple):
    found: int
    kept: list[tuple[int, ...]]
    nodes: int
    deepest: int
    stopped: str | None   # None (finished), 'first', 'timeout' or 'interrupted'
    engine: str
    jobs: int


SEED_STRIDE = 1 << 32  # --seed N draws its restarts' orders from N * SEED_STRIDE on: no two seeds share one


def run_plan(plan: Plan, *, first: bool = False, keep: int, jobs: int | None = 1, engine: str | None = None,
             watch: Watch | None = None, seed: int = 0) -> Run:
    """Search the whole plan; jobs None means all cores once a search outlasts a short probe. seed: where a first
    solution's restarts draw their orders from."""
    watch = watch or Watch()
    started = time.perf_counter()
    name = engine_name(engine)
    cores = os.cpu_count() or 1
    seeds = itertools.count(1 + seed * SEED_STRIDE) if first else None
    if jobs == 1 or (jobs is None and cores == 1):
        return _single(plan, first, keep, name, watch, started, None, seeds)
    if jobs is None or first:  # a first solution is raced for only once the plain search has had its probe
        probe = _single(plan, first, keep, name, watch, started, AUTO_PROBE_SECONDS, seeds)
        if probe.stopped != "probe":
            return probe
        jobs = jobs or cores
    from .parallel import run_race, run_split  # multiprocessing only for searches worth splitting

    if first:
        return run_race(plan, keep=keep, jobs=jobs, engine=name, watch=watch, started=started, probe=probe,
                        seed=seed)
    return run_split(plan, keep=keep, jobs=jobs, engine=name, watch=watch, started=started,
                     frontier=lambda depth: frontier(plan, depth, name))


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: within a constant factor
    of the best restart schedule when nothing is known of how long a try needs (Luby, Sinclair, Zuckerman 1993)."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def _single(plan, first, keep, name, watch, started, probe_seconds, seeds: Iterator[int] | None,
            plain: bool = True) -> Run:
    """One process: the plain search (unless `plain` is False), and for a first solution, restarts drawn from
    `seeds` once a try has used its budget."""
    seed = 0 if plain or seeds is None else next(seeds)
    search = start_search(plan, keep=keep, first=first, engine=name, seed=seed)
    cutoff = PLAIN_FIRST if plain else RESTART_UNIT
    restarts = earlier = deepest = 0  # tries given up, and their placements and deepest step
    budget = FIRST_BUDGET
    next_report = started + watch.every
    stopped = None
    try:
        while True:
            slice_start, placed = time.perf_counter(), search.nodes
            state = search.run(min(budget, cutoff - search.nodes) if seeds is not None else budget)
            now = time.perf_counter()
            placed = search.nodes - placed
            if state == DONE:
                break
            if state == FOUND_FIRST:
                stopped = "first"
                break
            if seeds is not None and search.nodes >= cutoff:  # this try has had its budget: another order
                restarts += 1
                earlier += search.nodes
                deepest = max(deepest, search.deepest)
                search = start_search(plan, keep=keep, first=first, engine=name, seed=next(seeds))
                cutoff = RESTART_UNIT * luby(restarts)
            # Slices of about SLICE_SECONDS whatever the engine's speed.
            budget = max(1000, min(budget * 4, int(max(placed, 1) * SLICE_SECONDS / max(now - slice_start, 1e-6))))
            if probe_seconds is not None and now - started > probe_seconds:
                stopped = "probe"
                break
            if watch.timeout is not None and now - started > watch.timeout:
                stopped = "timeout"
                break
            if watch.progress is not None and now >= next_report:
                watch.progress(_progress(plan, earlier + search.nodes, now - started,
                                         max(deepest, search.deepest), search.found, restarts=restarts))
                next_report = now + watch.every
    except KeyboardInterrupt:
        stopped = "interrupted"
    return Run(search.found, search.kept(), earlier + search.nodes, max(deepest, search.deepest), stopped, name, 1)


def _progress(plan: Plan, nodes: int, seconds: float, deepest: int, found: int, subtrees=None,
              restarts: int = 0) -> Progress:
    cell = plan.cells[max(deepest, 1) - 1]
    return Progress(nodes, seconds, deepest, cell, len(plan.cells), found, subtrees, restarts)


def frontier(plan: Plan, depth: int, name: str) -> tuple[list[tuple[int, ...]], int]:
    """Every way to fill the first `depth` steps (the roots of the subtrees), and the placements that took."""
    shallow = plan._replace(cells=plan.cells[:depth], steps=plan.steps[:depth * STEP_STRIDE])
    search = start_search(shallow, keep=1 << 62, engine=name)
    while search.run(1 << 30) != DONE:
        pass
    return search.kept(), search.nodes
