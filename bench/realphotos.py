"""Real photos read with no templates: tiles found, edges right (up to renaming motifs), solution true, questions.

    python bench/realphotos.py [FOLDER]        # default: ../shared/realphotos beside the project

Each photo's truth (`<name>.truth.json`) gives every tile's edges N E S W as seen, and where tiles lie (grid_rc
for grids, centre and corners at 1600 px for scattered photos). The read is `photosolve PHOTO --templates none`
in-process; the solution is checked against the true edges of the tiles it places.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from photosolve.cli.photo_cmd import questions_before_solving
from photosolve.scenes.evaluate import arrangement_fits, edges_right_up_to_renaming
from photosolve.solver import solve
from photosolve.solver.repair import repair
from photosolve.vision.errors import VisionError
from photosolve.vision.load import load_photo
from photosolve.vision.pipeline import (as_puzzle, cut_halves, edge_posteriors, guess_settled, read_photo_edges,
                                        seams_first)
from photosolve.vision.types import Photo

ROOT = Path(__file__).resolve().parents[1]


def true_edges(truth: dict, quads, photo) -> np.ndarray:
    """The true edges of each found tile, in the order photosolve numbers them."""
    tiles = truth["tiles"]
    if "grid_rc" in tiles[0]:  # photosolve numbers a grid row by row, as grid_rc does
        return np.array([t["edges"] for t in sorted(tiles, key=lambda t: tuple(t["grid_rc"]))])
    scale = max(photo.size) / 1600
    return np.array([min(tiles, key=lambda t: np.linalg.norm(np.array(t["center_1600"]) * scale - q.center))["edges"]
                     for q in quads])


@dataclass(frozen=True)
class Scored:
    """One photo read with no templates and scored against its truth."""

    tiles: int
    right: int
    total: int
    motifs: int
    verdict: str  # true, FALSE (a solution the truth refutes) or none
    questions: int
    seconds: float
    quads: list = field(default_factory=list)
    error: str = ""

    def row(self, name: str) -> str:
        if self.error:
            return (f"  {name:<28} {'-':>5} {'-':>11} {'-':>6} {'-':>9} {'-':>9} {self.seconds:7.2f}  "
                    f"({self.error})")
        return (f"  {name:<28} {self.tiles:>5} {self.right:>7} / {self.total:<3} {self.motifs:>6} {self.verdict:>9} "
                f"{self.questions:>9} {self.seconds:7.2f}")


HEADER = (f"  {'photo':<28} {'tiles':>5} {'edges right':>11} {'motifs':>6} {'solution':>9} {'questions':>9} "
          f"{'seconds':>7}")


def read_and_score(load: Callable[[], Photo], truth: dict) -> Scored:
    """Load a photo, read it with no templates as `photosolve PHOTO --templates none` does, and score it; the
    seconds include the loading."""
    started = time.perf_counter()
    try:
        photo = load()
        halves = cut_halves(photo, len(truth["tiles"]))
    except VisionError as error:
        return Scored(0, 0, 0, 0, "-", 0, time.perf_counter() - started, error=str(error))
    read = read_photo_edges(halves, "none", 3, 3)
    seconds = time.perf_counter() - started
    truth_edges = true_edges(truth, halves.quads, photo)
    right = edges_right_up_to_renaming(read.reading.labels, truth_edges)
    # What `photosolve PHOTO` would ask: edges on which a nearly as likely reading changes the solution, and how
    # many motifs there are when they are a guess that could change the solution drawn.
    settled = bool(read.guess) and guess_settled(read, halves, 3, 3)
    guessed = bool(read.guess) and not settled
    # the arrangement photosolve gives: of those the reading allows, the one whose seams meet best (of those right
    # under every reading a settled guess lies between)
    result = solve(as_puzzle(read.reading.labels), 3, 3)
    given = seams_first(result.solutions, halves, read.rivals if settled else None)
    verdict = "true" if given and arrangement_fits(given[0], truth_edges) else ("none" if not given else "FALSE")
    questions = questions_before_solving(repair(edge_posteriors(read.reading), 3, 3, rival=True), guessed)
    return Scored(len(halves.quads), right, int(truth_edges.size),
                  len(set(np.abs(read.reading.labels).ravel().tolist())), verdict, questions, seconds,
                  list(halves.quads))


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "realphotos"
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png")) if folder.is_dir() else []
    if not photos:
        print(f"no photos in {folder}")
        return 1
    print(f"photosolve on real photos, no templates — {folder}, {time.strftime('%Y-%m-%d %H:%M')}")
    print(HEADER)
    for path in photos:
        truth = json.loads(path.with_suffix(".truth.json").read_text())
        print(read_and_score(lambda: load_photo(path), truth).row(path.name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
