"""One search on several processes: the tree is cut below its first placements into independent subtrees, each
counted whole by one process; the counts add up to the single-process ones exactly, and the solutions are put
back in the order one process finds them. A first solution is raced for instead: every process restarts the
whole search in its own random orders, and the first to find one (or to walk the whole tree: none) ends the race.
"""
from __future__ import annotations

import itertools
import multiprocessing
import signal
import time

from .engine import DONE, start_search
from .search_run import SEED_STRIDE, SUBTREES_PER_JOB, Run, Watch, _progress, _single

RACE_SEEDS = 1 << 20  # the racers' seeds start here, clear of those the single-process probe used

_plan = None  # the plan, handed to each worker once (fork shares it; spawn pickles it once per worker)
_keep = 0
_engine = "c"
_live = None  # shared with the parent: placements so far (in all processes, or per racer), and the deepest step
SLICE = 1 << 21  # placements between updates of the shared counts: ~0.05 s in C


def _start_worker(plan, keep, engine, live) -> None:
    global _plan, _keep, _engine, _live
    _plan, _keep, _engine, _live = plan, keep, engine, live
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the pool


def _count_subtree(task):
    index, prefix = task
    search = start_search(_plan, prefix, keep=_keep, engine=_engine)
    reported = 0
    while True:
        state = search.run(SLICE)
        with _live.get_lock():  # the parent's progress line and a stopped count see work still in progress
            _live[0] += search.nodes - reported
            _live[1] = max(_live[1], search.deepest)
        reported = search.nodes
        if state == DONE:
            return index, search.found, search.kept(), search.nodes, search.deepest


def _race(task):
    """One racer: restarts in orders drawn from its own seeds, its placements and restarts shown to the parent."""
    index, seed = task
    jobs = (len(_live) - 1) // 2

    def report(progress) -> None:
        _live[index], _live[jobs + index] = progress.nodes, progress.restarts
        with _live.get_lock():
            _live[2 * jobs] = max(_live[2 * jobs], progress.deepest)

    seeds = itertools.count(seed * SEED_STRIDE + RACE_SEEDS + index, jobs)
    run = _single(_plan, True, _keep, _engine, Watch(progress=report, every=0.05), time.perf_counter(), None,
                  seeds, plain=False)
    return index, run


def _pool(plan, keep, engine, jobs, live_slots):
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    live = context.Array("q", live_slots)
    return context.Pool(jobs, initializer=_start_worker, initargs=(plan, keep, engine, live)), live


def final_counts(live) -> list[int]:
    """The shared counts once the pool has ended, read without their lock: a worker stopped by Ctrl-C or a
    timeout may have been killed holding it, and waiting for it would hang the command for good."""
    return list(live.get_obj())


def run_race(plan, *, keep: int, jobs: int, engine: str, watch: Watch, started: float, probe: Run,
             seed: int = 0) -> Run:
    """`jobs` processes restart the search in their own orders; the first solution (or a whole tree walked) wins."""
    pool, live = _pool(plan, keep, engine, jobs, 2 * jobs + 1)  # placements and restarts per racer, deepest step
    winner, won, stopped = None, None, None
    next_report = started + watch.every
    try:
        pending = pool.imap_unordered(_race, [(index, seed) for index in range(jobs)])
        while won is None:
            now = time.perf_counter()
            wait = watch.every if watch.timeout is None else min(watch.every, started + watch.timeout - now)
            try:
                winner, won = pending.next(timeout=max(wait, 0.01))
            except multiprocessing.TimeoutError:
                pass
            now = time.perf_counter()
            if won is None and watch.timeout is not None and now - started > watch.timeout:
                stopped = "timeout"
                break
            if watch.progress is not None and now >= next_report:
                watch.progress(_progress(plan, probe.nodes + sum(live[:jobs]), now - started,
                                         max(probe.deepest, live[2 * jobs]), 0, restarts=sum(live[jobs:2 * jobs])))
                next_report = now + watch.every
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        pool.terminate()
        pool.join()
    counts = final_counts(live)
    nodes, deepest = probe.nodes + sum(counts[:jobs]), max(probe.deepest, counts[2 * jobs])
    if won is None:
        return Run(0, [], nodes, deepest, stopped, engine, jobs)
    nodes += won.nodes - counts[winner]  # the winner's last report is up to 0.05 s old
    return Run(won.found, won.kept, nodes, max(deepest, won.deepest), won.stopped, engine, jobs)


def split_depth(plan, frontier, wanted: int):
    """The shallowest depth with at least `wanted` subtrees (or the deepest short of whole boards), and the
    placements it takes to reach them (those above the subtrees: the subtrees count the rest)."""
    for depth in range(1, len(plan.cells)):
        roots, spent = frontier(depth)
        if len(roots) >= wanted or depth == len(plan.cells) - 1:
            return roots, spent
    return [()], 0


def run_split(plan, *, keep: int, jobs: int, engine: str, watch: Watch, started: float, frontier) -> Run:
    roots, nodes = split_depth(plan, frontier, jobs * SUBTREES_PER_JOB)
    # Solutions are counted by whole subtrees (a stopped count gives those of the subtrees finished); placements
    # and the deepest cell as they happen.
    results: dict[int, tuple] = {}
    deepest = len(roots[0]) if roots else 0
    stopped = None
    above = nodes
    pool, live = _pool(plan, keep, engine, jobs, 2)  # placements in the subtrees, deepest step
    try:
        pending = pool.imap_unordered(_count_subtree, list(enumerate(roots)), chunksize=1)
        next_report = started + watch.every
        while len(results) < len(roots):
            now = time.perf_counter()
            wait = watch.every if watch.timeout is None else min(watch.every, started + watch.timeout - now)
            try:
                index, found, kept, _, _ = pending.next(timeout=max(wait, 0.01))
                results[index] = (found, kept)
            except multiprocessing.TimeoutError:
                pass
            nodes, deepest = above + live[0], max(deepest, live[1])
            now = time.perf_counter()
            if watch.timeout is not None and now - started > watch.timeout:
                stopped = "timeout"
                break
            if watch.progress is not None and now >= next_report:
                found_so_far = sum(found for found, _ in results.values())
                watch.progress(_progress(plan, nodes, now - started, deepest, found_so_far,
                                         (len(results), len(roots))))
                next_report = now + watch.every
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        if stopped is None:
            pool.close()
        else:
            pool.terminate()
        pool.join()
    counts = final_counts(live)
    nodes, deepest = above + counts[0], max(deepest, counts[1])
    kept: list = []
    for index in sorted(results):
        kept.extend(results[index][1][:max(keep - len(kept), 0)])
    found = sum(found for found, _ in results.values())
    return Run(found, kept, nodes, deepest, stopped, engine, jobs)
