"""Running a plan: in slices, so a long search shows progress, obeys a timeout and Ctrl-C, and keeps its counts;
on several processes, each counting whole subtrees (the first placements), the counts added up exactly.

The solver's own records are NamedTuples, not dataclasses: a dataclass takes ~0.5-1.5 ms to create at import,
and the seven here and in plan.py, formats.py and cli/solve_cmd.py made `photosolve solve` start 5 ms slower.
"""
from __future__ import annotations

import os
import time
from typing import Callable, NamedTuple

from .engine import DONE, FOUND_FIRST, engine_name, start_search
from .plan import STEP_STRIDE, Plan

SLICE_SECONDS = 0.05    # between looks at the clock: Ctrl-C and timeouts are obeyed within about this
FIRST_BUDGET = 20_000   # placements in the first slice: a 3x3 puzzle is done in it (seed puzzles: < 3,000)
AUTO_PROBE_SECONDS = 0.3  # --jobs unset: a search still running after this much is started again on all cores
SUBTREES_PER_JOB = 16   # enough that the slowest subtree does not leave the other processes idle long


class Progress(NamedTuple):
    """How far a search has come, for a progress line."""

    nodes: int
    seconds: float
    deepest: int           # most cells filled at once
    deepest_cell: tuple[int, int]
    cells: int
    found: int             # whole boards searched out so far (each stands for `symmetry` raw ones)
    subtrees: tuple[int, int] | None = None  # (done, total) when split over processes


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


def run_plan(plan: Plan, *, first: bool = False, keep: int, jobs: int | None = 1, engine: str | None = None,
             watch: Watch | None = None) -> Run:
    """Search the whole plan; jobs None means all cores once a search outlasts a short probe."""
    watch = watch or Watch()
    started = time.perf_counter()
    name = engine_name(engine)
    cores = os.cpu_count() or 1
    if first or jobs == 1 or (jobs is None and cores == 1):
        return _single(plan, first, keep, name, watch, started, None)
    if jobs is None:
        probe = _single(plan, first, keep, name, watch, started, AUTO_PROBE_SECONDS)
        if probe.stopped != "probe":
            return probe
        jobs = cores
    from .parallel import run_split  # multiprocessing is imported only for searches worth splitting

    return run_split(plan, keep=keep, jobs=jobs, engine=name, watch=watch, started=started,
                     frontier=lambda depth: frontier(plan, depth, name))


def _single(plan, first, keep, name, watch, started, probe_seconds) -> Run:
    search = start_search(plan, keep=keep, first=first, engine=name)
    budget = FIRST_BUDGET
    next_report = started + watch.every
    stopped = None
    try:
        while True:
            slice_start = time.perf_counter()
            state = search.run(budget)
            now = time.perf_counter()
            if state == DONE:
                break
            if state == FOUND_FIRST:
                stopped = "first"
                break
            # Slices of about SLICE_SECONDS whatever the engine's speed.
            budget = max(1000, min(budget * 4, int(budget * SLICE_SECONDS / max(now - slice_start, 1e-6))))
            if probe_seconds is not None and now - started > probe_seconds:
                stopped = "probe"
                break
            if watch.timeout is not None and now - started > watch.timeout:
                stopped = "timeout"
                break
            if watch.progress is not None and now >= next_report:
                watch.progress(_progress(plan, search.nodes, now - started, search.deepest, search.found))
                next_report = now + watch.every
    except KeyboardInterrupt:
        stopped = "interrupted"
    return Run(search.found, search.kept(), search.nodes, search.deepest, stopped, name, 1)


def _progress(plan: Plan, nodes: int, seconds: float, deepest: int, found: int, subtrees=None) -> Progress:
    cell = plan.cells[max(deepest, 1) - 1]
    return Progress(nodes, seconds, deepest, cell, len(plan.cells), found, subtrees)


def frontier(plan: Plan, depth: int, name: str) -> tuple[list[tuple[int, ...]], int]:
    """Every way to fill the first `depth` steps (the roots of the subtrees), and the placements that took."""
    shallow = plan._replace(cells=plan.cells[:depth], steps=plan.steps[:depth * STEP_STRIDE])
    search = start_search(shallow, keep=1 << 62, engine=name)
    while search.run(1 << 30) != DONE:
        pass
    return search.kept(), search.nodes
