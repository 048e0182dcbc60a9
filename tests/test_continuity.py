"""Arrangements ranked by how well the photo's figures run on across their seams (vision/read/continuity.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from photosolve.scenes.evaluate import arrangement_fits
from photosolve.solver import Puzzle, solve
from photosolve.vision.load import load_photo
from photosolve.vision.pipeline import cut_halves, seams_first
from photosolve.vision.read.continuity import inner_seams

REAL = Path(__file__).resolve().parents[2] / "shared" / "realphotos"


def test_inner_seams_name_the_halves_the_solver_joins(load_sample):
    puzzle = load_sample("dogs")
    halves = np.array([tile.edges for tile in puzzle.tiles]).ravel()  # tile * 4 + side, as read
    solutions = solve(puzzle, 3, 3).solutions
    assert solutions
    for solution in solutions:
        seams = inner_seams(solution)
        assert len(seams) == 12
        assert all(halves[a] + halves[b] == 0 for a, b in seams)  # every inner seam joins +k and -k


def merged(labels: np.ndarray, keep: int, gone: int, way: int) -> np.ndarray:
    """The labels with motif `gone` read as motif `keep` (way 1: + as +; -1: crossed)."""
    return np.where(np.abs(labels) == gone, way * np.sign(labels) * keep, labels)


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/realphotos is not beside the project")
@pytest.mark.parametrize("name", ["board.jpeg", "solution1.jpeg", "SkiierExample.jpg"])
def test_two_motifs_read_as_one_the_seams_pick_a_true_arrangement(name):
    # Read as one, two motifs let the tiles lie in true and wrong ways alike; the photo's seams tell them apart.
    truth = json.loads((REAL / f"{Path(name).stem}.truth.json").read_text())
    labels = np.array([t["edges"] for t in sorted(truth["tiles"], key=lambda t: tuple(t["grid_rc"]))])
    halves = cut_halves(load_photo(REAL / name), 9)
    motifs = sorted({abs(int(v)) for v in labels.ravel()})
    mixed = solver_right = 0
    for i, keep in enumerate(motifs):
        for gone in motifs[i + 1:]:
            for way in (1, -1):
                edges = merged(labels, keep, gone, way)
                solutions = solve(Puzzle.from_edges([tuple(int(v) for v in e) for e in edges]), 3, 3).solutions
                true = [arrangement_fits(s, labels) for s in solutions]
                if all(true) or not any(true):
                    continue
                mixed += 1
                solver_right += true[0]
                assert arrangement_fits(seams_first(solutions, halves)[0], labels), (keep, gone, way)
    assert mixed >= 6  # the photo's motifs merge into readings that admit wrong arrangements
    assert solver_right < mixed  # and the solver's own order would give a wrong one first
