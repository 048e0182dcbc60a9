"""The most probable consistent reading: when edges read from a photo admit no solution, which to change.

Every edge comes with a probability for each label. An arrangement of the tiles is scored by what its inner
seams cost: a seam needs halves +k and -k, and costs the probability given up on both sides to make them so
(in log units, 0 when both halves were read as the matching pair), plus a small price per changed edge so that
fewer changes win among near-equal ones. A depth-first branch and bound over arrangements finds the cheapest,
exploring cheap seams first; the frame's edges are free (they meet nothing). Pure Python, like the solver.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

from .plan import OPPOSITE, STEP
from .search import Placement, Solution, _fill_order

FLOOR = 1e-6  # no label is impossible: the smallest probability a label is given
CHANGE_PRICE = 0.05  # log units per changed edge: of two equally likely repairs, the one changing fewer edges
DEFAULT_BUDGET = 12.0  # log units: no repair that gives up more probability than e^-12 is looked for
NODE_LIMIT = 2_000_000

Posterior = dict[int, float]  # label -> probability, for one edge


@dataclass(frozen=True)
class EdgeChange:
    """One edge that the repair reads differently from the photo reader's first choice."""

    tile: int  # 1-based
    side: int  # 0..3, N E S W as read
    read: int
    read_probability: float
    taken: int
    taken_probability: float

    def describe(self, name=str) -> str:
        return (f"tile {self.tile}, {('north', 'east', 'south', 'west')[self.side]} edge: read {name(self.read)} "
                f"({self.read_probability:.2f}), taken as {name(self.taken)} ({self.taken_probability:.2f})")


@dataclass(frozen=True)
class Repair:
    """The cheapest arrangement found and the reading it implies."""

    solution: Solution | None  # None: nothing within the budget
    edges: tuple[tuple[int, int, int, int], ...]  # every tile's edges N E S W as the repair reads them
    changes: tuple[EdgeChange, ...]
    cost: float  # log probability given up, plus the change prices
    nodes: int
    seconds: float
    exhaustive: bool  # False when the node limit stopped the search early
    rival_cost: float = math.inf  # the cheapest consistent reading that differs (searched for with rival=True)
    rival_edges: tuple[tuple[int, int, int, int], ...] | None = None

    def doubtful(self, margin: float) -> list[tuple[int, int]]:
        """(tile index, side) of the edges on which the best reading and a rival nearly as likely disagree."""
        if self.rival_edges is None or self.rival_cost - self.cost >= margin:
            return []
        return [(t, s) for t, (mine, theirs) in enumerate(zip(self.edges, self.rival_edges))
                for s in range(4) if mine[s] != theirs[s]]


def best_label(posterior: Posterior) -> int:
    return max(posterior, key=posterior.get)


def seam_cost(first: Posterior, second: Posterior) -> tuple[float, int]:
    """Cheapest way to make two halves a pair: (cost, label taken by `first`; `second` takes its negation)."""
    return cheapest_pair(label_prices(first), label_prices(second))


def label_prices(posterior: Posterior) -> dict[int, float]:
    """What taking each label costs one half: the log probability given up against its best reading, plus the
    change price when it is not the best. Computed once per half, as every half meets every other."""
    top, best = math.log(max(max(posterior.values()), FLOOR)), best_label(posterior)
    return {label: top - math.log(max(p, FLOOR)) + CHANGE_PRICE * (label != best)
            for label, p in posterior.items() if label != 0}


def cheapest_pair(first: dict[int, float], second: dict[int, float]) -> tuple[float, int]:
    """seam_cost from two halves' label_prices."""
    best = (math.inf, 0)
    for label, price in first.items():
        other = second.get(-label)
        if other is not None and price + other < best[0]:
            best = (price + other, label)
    return best


def repair(posteriors: list[list[Posterior]], rows: int, cols: int, budget: float = DEFAULT_BUDGET,
           node_limit: int = NODE_LIMIT, rival: bool = False) -> Repair:
    """The arrangement whose seams agree at the least cost, with the reading it implies.

    With `rival`, the search goes on for the cheapest consistent reading that differs from the best one (not just
    another arrangement of the same reading): how close it comes is how sure the best reading is.
    """
    started = time.perf_counter()
    count = len(posteriors)
    halves = [half for tile in posteriors for half in tile]  # half h = tile * 4 + side as read
    prices = [label_prices(half) for half in halves]
    pair = [[cheapest_pair(a, b) for b in prices] for a in prices]
    cells = _fill_order(rows, cols)
    step_of = {cell: i for i, cell in enumerate(cells)}
    needs = []  # per step: (earlier step, direction here) for each placed neighbour
    for i, (r, c) in enumerate(cells):
        needs.append([(step_of[(r + dr, c + dc)], side) for side, (dr, dc) in STEP.items()
                      if step_of.get((r + dr, c + dc), count) < i])
    # Turning the whole board changes no seam, so one tile's turns can be limited as in the solver: the centre
    # cell's tile (the first step) where there is a centre, else the first tile; 1 of 4 turns on a square board.
    kept_turns = 1 if rows == cols else 2
    centred = rows % 2 == 1 and cols % 2 == 1

    used = [False] * count
    placed = [(0, 0)] * count  # per step: (tile index, turns)
    keep = 2 if rival else 1
    leaves: list[tuple[float, tuple, list]] = []  # (cost, reading, assignment): distinct readings, cheapest first
    best = [budget]  # a branch is pruned once it costs this much: the dearest reading kept, when all are found
    nodes = 0

    def record(cost: float) -> None:
        reading = _implied_edges(posteriors, placed, needs, pair)
        for i, (other_cost, other_reading, _) in enumerate(leaves):
            if other_reading == reading:
                if cost < other_cost:
                    leaves[i] = (cost, reading, placed[:])
                break
        else:
            leaves.append((cost, reading, placed[:]))
        leaves.sort(key=lambda leaf: leaf[0])
        del leaves[keep:]
        if len(leaves) == keep:
            best[0] = leaves[-1][0]

    def half_at(tile: int, turns: int, direction: int) -> int:
        return tile * 4 + (direction - turns) % 4

    def place(step: int, spent: float) -> bool:
        nonlocal nodes
        options = []
        for tile in range(count):
            if used[tile]:
                continue
            limited = step == 0 if centred else tile == 0
            for turns in range(kept_turns if limited else 4):
                cost = spent
                for earlier, direction in needs[step]:
                    other, other_turns = placed[earlier]
                    cost += pair[half_at(other, other_turns, OPPOSITE[direction])][half_at(tile, turns, direction)][0]
                    if cost >= best[0]:
                        break
                if cost < best[0]:
                    options.append((cost, tile, turns))
        options.sort()
        for cost, tile, turns in options:
            if cost >= best[0]:
                break
            nodes += 1
            if nodes > node_limit:
                return True
            placed[step] = (tile, turns)
            if step == count - 1:
                record(cost)
                continue
            used[tile] = True
            stop = place(step + 1, cost)
            used[tile] = False
            if stop:
                return True
        return False

    stopped = place(0, 0.0)
    if not leaves:
        read = tuple(tuple(best_label(p) for p in tile) for tile in posteriors)
        return Repair(None, read, (), math.inf, nodes, time.perf_counter() - started, not stopped)
    cost, _, assignment = leaves[0]
    found = _reading_of(posteriors, assignment, cells, needs, pair, cost, nodes, started, not stopped)
    if len(leaves) > 1:
        found = replace(found, rival_cost=leaves[1][0], rival_edges=leaves[1][1])
    return found


def _implied_edges(posteriors, assignment, needs, pair) -> tuple:
    """The reading an arrangement implies: each seam as its cheapest pair, every other edge as read."""
    edges = [[best_label(p) for p in tile] for tile in posteriors]
    for step, earlier_list in enumerate(needs):
        tile, turns = assignment[step]
        for earlier, direction in earlier_list:
            other, other_turns = assignment[earlier]
            other_side, side = (OPPOSITE[direction] - other_turns) % 4, (direction - turns) % 4
            _, label = pair[other * 4 + other_side][tile * 4 + side]
            edges[other][other_side], edges[tile][side] = label, -label
    return tuple(tuple(e) for e in edges)


def _reading_of(posteriors, assignment, cells, needs, pair, cost, nodes, started, exhaustive) -> Repair:
    """The labels an arrangement implies (each seam as its cheapest pair, the frame as read) and the changes."""
    edges = _implied_edges(posteriors, assignment, needs, pair)
    changes = []
    for t, tile in enumerate(posteriors):
        for side, posterior in enumerate(tile):
            read = best_label(posterior)
            if edges[t][side] != read:
                changes.append(EdgeChange(t + 1, side, read, posterior[read], edges[t][side],
                                          posterior.get(edges[t][side], 0.0)))
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    grid = [[None] * cols for _ in range(rows)]
    for (r, c), (tile, turns) in zip(cells, assignment):
        grid[r][c] = Placement(tile + 1, turns)
    solution = Solution(tuple(tuple(row) for row in grid))
    changes.sort(key=lambda change: change.read_probability)
    return Repair(solution, edges, tuple(changes), cost, nodes, time.perf_counter() - started, exhaustive)


__all__ = ["EdgeChange", "Repair", "repair", "seam_cost"]
