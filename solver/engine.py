"""The engines that walk a plan: the compiled one (_engine.c) when it was built, else its Python twin.

Both keep an explicit stack, so a search runs in slices (`run(budget)`) and the caller can show progress, stop
on Ctrl-C or a timeout and still have every count so far. Both find the same solutions in the same order and
count the same placements; PHOTOSOLVE_ENGINE=python picks the twin (tests compare the two).
"""
from __future__ import annotations

import os
from array import array

from .plan import (ENTRY_NEED, ENTRY_SHOWN, ENTRY_STRIDE, ENTRY_TILE, STEP_BUCKETS, STEP_EXTRA, STEP_EXTRAS,
                   STEP_KEY_A, STEP_KEY_B, STEP_SIDE_A, STEP_SIDE_B, STEP_STRIDE, Plan)

RUNNING, DONE, FOUND_FIRST = 0, 1, 2

try:
    from . import _engine as compiled
except ImportError:  # no compiler when photosolve was installed: the Python twin does the same work
    compiled = None


def engine_name(requested: str | None = None) -> str:
    """'c' or 'python': what a search will run on."""
    wanted = requested or os.environ.get("PHOTOSOLVE_ENGINE", "")
    if wanted == "python" or compiled is None:
        return "python"
    return "c"


def start_search(plan: Plan, prefix: tuple[int, ...] = (), *, keep: int, first: bool = False,
                 engine: str | None = None, seed: int = 0):
    """A search over the plan from a prefix of placed candidates (one per step), ready to `run`.

    seed (not 0): every cell's candidates are tried in a random order of the tiles drawn from it (one order for
    the whole board, each tile's turns as in the plan), the same in both engines;
    the tree and its solutions are the same, found in another order (restarts for a first solution). Solutions
    are still given as the plan's candidate numbers."""
    if engine_name(engine) == "c":
        entries, steps, buckets = _as_arrays(plan)
        return compiled.Search(entries, steps, buckets, plan.tiles, plan.colours, array("i", prefix), keep, first,
                               seed)
    return PySearch(plan, prefix, keep, first, seed)


_last: tuple = (None, None)  # the last plan handed to the C engine, and its tables as arrays


def _as_arrays(plan: Plan) -> tuple[array, array, array]:
    """The plan's tables as the C engine reads them, made once per plan: restarts for a first solution start a
    search hundreds of times a second, and making the arrays took ~0.1 ms of each on Brendan 8x8 (the engine
    copies them, so they are shared safely)."""
    global _last
    if _last[0] is not plan:
        _last = (plan, (array("i", plan.entries), array("i", plan.steps), array("i", plan.buckets)))
    return _last[1]


MASK = (1 << 64) - 1


def tile_order(tiles: int, seed: int) -> list[int]:
    """_engine.c's tile_order: each tile's place in a random order of the tiles drawn from the seed."""
    order = list(range(tiles))
    state = (seed * 0x9E3779B97F4A7C15 + 1) & MASK
    for i in range(tiles - 1, 0, -1):
        state ^= (state << 13) & MASK
        state ^= state >> 7
        state ^= (state << 17) & MASK
        j = state % (i + 1)
        order[i], order[j] = order[j], order[i]
    place = [0] * tiles
    for i, tile in enumerate(order):
        place[tile] = i
    return place


def shuffle_buckets(entries: list[int], buckets: list[int], tiles: int, seed: int) -> tuple[list[int], list[int]]:
    """_engine.c's sort_buckets: every bucket's candidates in the seed's order of the tiles (each tile's turns as
    before), and where each came from."""
    place = tile_order(tiles, seed)
    origin: list[int] = []
    for lo, hi in zip(buckets, buckets[1:]):
        origin.extend(sorted(range(lo, hi), key=lambda i: place[entries[i * ENTRY_STRIDE + ENTRY_TILE]]))
    shuffled = [v for i in origin for v in entries[i * ENTRY_STRIDE:(i + 1) * ENTRY_STRIDE]]
    return shuffled, origin


class PySearch:
    """The compiled loop, line for line, in Python."""

    def __init__(self, plan: Plan, prefix: tuple[int, ...], keep: int, first: bool, seed: int = 0):
        steps = len(plan.cells)
        if len(prefix) > steps:
            raise ValueError("the prefix is longer than the plan")
        if seed and prefix:
            raise ValueError("a seeded (shuffled) search starts from the empty board")
        self.entries, self.steps, self.buckets = plan.entries, plan.steps, plan.buckets
        self.origin = None
        if seed:
            self.entries, self.origin = shuffle_buckets(plan.entries, plan.buckets, plan.tiles, seed)
        self.colours, self.first, self.keep_limit = plan.colours, first, keep
        self.placed = list(prefix) + [0] * (steps - len(prefix))
        self.used = [False] * plan.tiles
        for p in prefix:
            self.used[self.entries[p * ENTRY_STRIDE + ENTRY_TILE]] = True
        self.pos = [0] * (steps + 1)
        self.end = [0] * (steps + 1)
        self.base = self.depth = self.deepest = len(prefix)
        self.last = steps - 1
        self.nodes = self.found = 0
        self.state = RUNNING
        self._kept: list[tuple[int, ...]] = []
        if self.base == steps:
            self.found = 1
            self._kept.append(tuple(self.placed))
            self.state = DONE
        else:
            self._enter(self.base)

    def _enter(self, d: int) -> None:
        st = d * STEP_STRIDE
        steps, entries, placed = self.steps, self.entries, self.placed
        key = 0
        if steps[st + STEP_KEY_A] >= 0:
            key = entries[placed[steps[st + STEP_KEY_A]] * ENTRY_STRIDE + ENTRY_NEED + steps[st + STEP_SIDE_A]]
            if steps[st + STEP_KEY_B] >= 0:
                key = key * self.colours + entries[placed[steps[st + STEP_KEY_B]] * ENTRY_STRIDE + ENTRY_NEED
                                                   + steps[st + STEP_SIDE_B]]
        at = steps[st + STEP_BUCKETS] + key
        self.pos[d], self.end[d] = self.buckets[at], self.buckets[at + 1]

    def run(self, budget: int) -> int:
        if self.state != RUNNING:
            return self.state
        entries, steps, pos, end, placed, used = self.entries, self.steps, self.pos, self.end, self.placed, self.used
        d, last, base = self.depth, self.last, self.base
        nodes = self.nodes
        limit = nodes + max(budget, 1)
        state = RUNNING
        try:
            while True:
                p = pos[d]
                if p < end[d]:
                    pos[d] = p + 1
                    e = p * ENTRY_STRIDE
                    tile = entries[e + ENTRY_TILE]
                    if used[tile]:
                        continue
                    st = d * STEP_STRIDE
                    extras = steps[st + STEP_EXTRAS]
                    if extras and any(
                            entries[placed[steps[x]] * ENTRY_STRIDE + ENTRY_NEED + steps[x + 1]]
                            != entries[e + ENTRY_SHOWN + steps[x + 2]]
                            for x in range(st + STEP_EXTRA, st + STEP_EXTRA + 3 * extras, 3)):
                        continue
                    nodes += 1
                    placed[d] = p
                    if d == last:
                        self.found += 1
                        if len(self._kept) < self.keep_limit:
                            self._kept.append(tuple(placed) if self.origin is None
                                              else tuple(self.origin[p] for p in placed))
                        if self.first:
                            state = FOUND_FIRST
                            break
                        continue
                    used[tile] = True
                    d += 1
                    if d > self.deepest:
                        self.deepest = d
                    self._enter(d)
                    if nodes >= limit:
                        break
                else:
                    d -= 1
                    if d < base:
                        state, d = DONE, base
                        break
                    used[entries[placed[d] * ENTRY_STRIDE + ENTRY_TILE]] = False
        finally:  # a Ctrl-C inside the loop leaves a state that can still be read (and resumed)
            self.depth, self.nodes, self.state = d, nodes, state
        return state

    def kept(self) -> list[tuple[int, ...]]:
        return list(self._kept)
