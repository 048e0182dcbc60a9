"""Score what the photo pipeline found against a scene's ground truth: tiles located, edges read, board solved.

Found tiles are paired with true tiles by their centres; a tile counts as found exactly when every corner lies
within a small fraction of the tile's side of the true corner. Which side is N is a convention that a tile turned
near 45 degrees leaves open: found tiles are compared with the truth turned the way they were found.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CORNER_TOLERANCE = 0.05  # of the tile side: a corner farther off than this was not found exactly


@dataclass(frozen=True)
class Score:
    """How one photo was read, compared with its truth."""

    tiles: int  # true tiles
    found: int  # tiles found at all (paired with a true tile)
    exact: int  # tiles whose four corners are all within CORNER_TOLERANCE
    edges: int  # true edges
    edges_right: int  # edges read with the true label, on tiles that were paired
    worst_corner: float  # largest corner error among paired tiles, in tile sides

    @property
    def all_tiles_exact(self) -> bool:
        return self.exact == self.tiles and self.found == self.tiles

    @property
    def all_edges_right(self) -> bool:
        return self.edges_right == self.edges


def pair_tiles(centres: np.ndarray, truth: dict) -> list[int | None]:
    """For each true tile, the index of the found tile whose centre is nearest it (within a third of a side)."""
    true_tiles = truth["tiles"]
    if not len(centres):
        return [None] * len(true_tiles)
    pairs: list[int | None] = []
    for tile in true_tiles:
        corners = np.asarray(tile["corners"], dtype=float)
        side = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
        distance = np.linalg.norm(np.asarray(centres) - np.asarray(tile["center"]), axis=1)
        nearest = int(np.argmin(distance))
        pairs.append(nearest if distance[nearest] < side / 3 else None)
    return pairs


def turn_to_found(found: np.ndarray, true_corners: np.ndarray) -> int:
    """Which true corner the found tile's first corner is (0-3): the turn of the true corners nearest the found.

    A tile turned near 45 degrees has two sides about equally "up", and the found tile may name the other one N
    than the truth does; it is found just as well, and its sides as read are the true sides turned by as much.
    """
    errors = [np.max(np.linalg.norm(np.asarray(found) - np.roll(true_corners, -k, axis=0), axis=1)) for k in range(4)]
    return int(np.argmin(errors))


def true_edges_as_found(corners: list[np.ndarray], truth: dict) -> np.ndarray:
    """The true edges of each found tile (found x 4), N E S W as the found tile names its sides; zeros where a
    found tile was not paired with a true one."""
    centres = np.array([np.mean(c, axis=0) for c in corners]) if len(corners) else np.zeros((0, 2))
    edges = np.zeros((len(corners), 4), int)
    for tile, found in zip(truth["tiles"], pair_tiles(centres, truth)):
        if found is not None:
            turn = turn_to_found(corners[found], np.asarray(tile["corners"], dtype=float))
            edges[found] = np.roll(tile["edges"], -turn)
    return edges


def score_reading(corners: list[np.ndarray], labels: np.ndarray | None, truth: dict) -> Score:
    """Compare found tile corners (each 4 x 2, W/N corner first) and read labels (tiles x 4, N E S W) with truth.

    `labels` may be None when only the tiles were found; labels are compared exactly as signed motif numbers, so
    the reading must use the truth's numbering (a template set learned for the same puzzle does).
    """
    centres = np.array([np.mean(c, axis=0) for c in corners]) if corners else np.zeros((0, 2))
    pairs = pair_tiles(centres, truth)
    exact = right = 0
    worst = 0.0
    for tile, found in zip(truth["tiles"], pairs):
        if found is None:
            continue
        true_corners = np.asarray(tile["corners"], dtype=float)
        turn = turn_to_found(corners[found], true_corners)
        true_corners, true_edges = np.roll(true_corners, -turn, axis=0), np.roll(tile["edges"], -turn)
        side = float(np.mean(np.linalg.norm(true_corners - np.roll(true_corners, -1, axis=0), axis=1)))
        error = float(np.max(np.linalg.norm(np.asarray(corners[found]) - true_corners, axis=1))) / side
        worst = max(worst, error)
        exact += error <= CORNER_TOLERANCE
        if labels is not None:
            right += int(np.sum(np.asarray(labels[found]) == true_edges))
    paired = [p for p in pairs if p is not None]
    return Score(tiles=len(truth["tiles"]), found=len(set(paired)), exact=exact, edges=4 * len(truth["tiles"]),
                 edges_right=right, worst_corner=worst)


def renaming(read: np.ndarray, truth: np.ndarray) -> dict[int, int]:
    """The renaming of read motifs (and which half is +) that agrees with the truth on the most edges.

    A puzzle read without templates numbers its motifs in its own order and picks its own + half; this maps
    each read motif to a true motif, one to one, each with its best sign (Hungarian assignment).
    """
    from scipy.optimize import linear_sum_assignment

    read, truth = np.asarray(read).ravel(), np.asarray(truth).ravel()
    read_motifs = sorted(set(np.abs(read[read != 0]).tolist()))
    true_motifs = sorted(set(np.abs(truth[truth != 0]).tolist()))
    same = np.zeros((len(read_motifs), len(true_motifs)))
    flipped = np.zeros_like(same)
    for i, p in enumerate(read_motifs):
        for j, t in enumerate(true_motifs):
            same[i, j] = np.sum((read == p) & (truth == t)) + np.sum((read == -p) & (truth == -t))
            flipped[i, j] = np.sum((read == p) & (truth == -t)) + np.sum((read == -p) & (truth == t))
    rows, cols = linear_sum_assignment(-np.maximum(same, flipped))
    mapping = {0: 0}
    for i, j in zip(rows, cols):
        sign = 1 if same[i, j] >= flipped[i, j] else -1
        mapping[read_motifs[i]], mapping[-read_motifs[i]] = sign * true_motifs[j], -sign * true_motifs[j]
    return mapping


def edges_right_up_to_renaming(read: np.ndarray, truth: np.ndarray) -> int:
    """Edges read right once the read motifs are renamed (and their halves swapped) to fit the truth best."""
    mapping = renaming(read, truth)
    renamed = np.array([mapping.get(int(v), 10**6) for v in np.asarray(read).ravel()])
    return int(np.sum(renamed == np.asarray(truth).ravel()))


def in_truth_numbers(labels: np.ndarray, motif_names: dict[int, str], truth: dict) -> np.ndarray:
    """Read labels renumbered by motif name into the truth's numbering (a set may number its motifs otherwise)."""
    number_of = {name: int(k) for k, name in truth["motifs"].items()}
    mapping = {k: number_of.get(name, 10**6 + k) for k, name in motif_names.items()}
    signs = np.sign(labels)
    return signs * np.array([mapping.get(abs(int(v)), 10**6 + abs(int(v))) for v in np.ravel(labels)]).reshape(
        np.shape(labels))


def arrangement_fits(solution, edges: np.ndarray) -> bool:
    """Whether every inner seam of an arrangement (a Solution) joins two true halves of one motif, `edges` being
    the true edges N E S W of the tiles it places, by tile id - 1."""
    from ..solver.tiles import turn_edges

    grid = [[turn_edges(tuple(int(v) for v in edges[p.tile - 1]), p.turns) for p in row] for row in solution.cells]
    rows, cols = len(grid), len(grid[0])
    return all((c + 1 >= cols or grid[r][c][1] + grid[r][c + 1][3] == 0) and
               (r + 1 >= rows or grid[r][c][2] + grid[r + 1][c][0] == 0) for r in range(rows) for c in range(cols))


def listed_puzzle(truth: dict):
    """The puzzle's tile list back from a scene's truth: each tile as seen, turned back, in the order of its id."""
    from ..solver.tiles import Puzzle, turn_edges

    tiles = sorted(truth["tiles"], key=lambda t: t["id"])
    return Puzzle.from_edges([turn_edges(tuple(t["edges"]), -t["turns"]) for t in tiles],
                             {int(k): v for k, v in truth.get("motifs", {}).items()})
