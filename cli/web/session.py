"""The review page's logic, apart from HTTP: the reading under review, the person's corrections (with undo), the
solver's verdict on the tiles as now labelled, and the pictures and files the page shows and saves.

Every function here is plain: values in, values out (the server keeps the one current Corrections).
"""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable

import numpy as np

from ...solver.search import BoardSizeError, SolveResult, solve
from ...solver.tiles import Puzzle
from ...vision.rectify import edge_bands, territory
from ..photo_cmd import edge_posteriors_of
from ..photo_cmd import puzzle_of as tiles_puzzle
from ..photo_outputs import DOUBTFUL, save_image, save_tile_file

Edges = tuple[int, int, int, int]
SIDES = ("north", "east", "south", "west")
PAGE_PHOTO_SIDE = 1600  # the photo goes to the page at most this long: sharp on a laptop screen, a few 100 kB
PAGE_CELL = 160  # pixels a tile in the solved picture on the page (the saved one has the photo's resolution)
HALF_WIDTH = 120  # pixels: the width of a label's small picture
MOST_SOLUTIONS_LISTED = 20  # where the tiles go is sent for this many solutions; the count is always exact


class ReviewError(ValueError):
    """A correction that cannot be made: no such tile, side or label."""


@dataclass(frozen=True)
class Reviewed:
    """What the page reviews, fixed for the session: the photo, its tiles, and what was read on them."""

    image: np.ndarray  # the full-resolution RGB photo
    quads: list  # TileQuad per tile; the page numbers tiles as photosolve does (1-based, in this order)
    squares: np.ndarray  # (tiles, size, size, 3) the tiles rectified, N on top: the halves' pictures come from here
    reading: object  # vision.read.classify.Reading: every label's probability on every edge
    first: tuple[Edges, ...]  # the edges the page starts from: as read, after any repair
    motif_names: dict[int, str]
    decisive: tuple[tuple[int, int], ...]  # (tile index, side) where a nearly as likely reading changes the solution
    rows: int
    cols: int
    source: str  # the photo's path
    how: str  # how the edges were read (which templates), for the tile file's header


@dataclass(frozen=True)
class Corrections:
    """The edges as the page now shows them, those the person has set or confirmed, and the step before."""

    edges: tuple[Edges, ...]
    checked: frozenset[tuple[int, int]] = frozenset()  # (tile index, side) the person set: taken as certain
    previous: Corrections | None = None  # what undo goes back to


def start(reviewed: Reviewed) -> Corrections:
    return Corrections(reviewed.first)


def labels_of(reviewed: Reviewed) -> list[int]:
    """The labels an edge can be given, as the terminal review lists them: motif by motif, + before -."""
    return sorted({int(v) for v in reviewed.reading.candidates}, key=lambda v: (abs(v), -v))


def puzzle_of(reviewed: Reviewed, edges: tuple[Edges, ...]) -> Puzzle:
    return tiles_puzzle(edges, reviewed.motif_names, reviewed.source)


def set_edges(reviewed: Reviewed, corrections: Corrections, changes: Iterable[tuple[int, int, int]]) -> Corrections:
    """The edges with each (tile index, side, label) set, as one step that undo takes back. Setting an edge to the
    label it has confirms it: the person has looked, and their word is certain."""
    edges, checked = [list(tile) for tile in corrections.edges], set(corrections.checked)
    labels = set(labels_of(reviewed))
    for tile, side, label in changes:
        if not 0 <= tile < len(edges):
            raise ReviewError(f"there is no tile {tile + 1}: the photo shows {len(edges)}")
        if side not in range(4):
            raise ReviewError(f"a tile has sides 0 to 3 (N E S W), not {side}")
        if label not in labels:
            raise ReviewError(f"{label} is not a label of this puzzle")
        edges[tile][side] = label
        checked.add((tile, side))
    after = Corrections(tuple(tuple(tile) for tile in edges), frozenset(checked), corrections)
    if (after.edges, after.checked) == (corrections.edges, corrections.checked):
        return corrections
    return after


def undo(corrections: Corrections) -> Corrections:
    return corrections.previous or corrections


def changed(reviewed: Reviewed, edges: tuple[Edges, ...]) -> set[tuple[int, int]]:
    """(tile index, side) of the edges whose label differs from the one the page started with."""
    return {(t, s) for t, (now, then) in enumerate(zip(edges, reviewed.first)) for s in range(4) if now[s] != then[s]}


def probability(reviewed: Reviewed, tile: int, side: int, label: int) -> float:
    """How likely the reader found `label` on this edge."""
    columns = [int(v) for v in reviewed.reading.candidates]
    return float(reviewed.reading.posterior[tile, side, columns.index(label)]) if label in columns else 0.0


def doubt_order(reviewed: Reviewed) -> list[tuple[int, int]]:
    """The edges worth a look, most doubtful first: those whose other reading changes the solution, then those
    read with less than DOUBTFUL probability."""
    sure = lambda ts: probability(reviewed, *ts, reviewed.first[ts[0]][ts[1]])
    decisive = sorted(reviewed.decisive, key=sure)
    unsure = sorted(((t, s) for t in range(len(reviewed.first)) for s in range(4)
                     if (t, s) not in reviewed.decisive and sure((t, s)) < DOUBTFUL), key=sure)
    return decisive + unsure


def solve_now(reviewed: Reviewed, edges: tuple[Edges, ...]) -> SolveResult | str:
    """Every solution of the tiles as now labelled, or why the solver cannot try."""
    try:
        return solve(puzzle_of(reviewed, edges), reviewed.rows, reviewed.cols)
    except BoardSizeError as error:
        return str(error)


def suggestion(reviewed: Reviewed, corrections: Corrections) -> list[tuple[int, int, int]]:
    """When the tiles as labelled have no solution: the fewest, likeliest changes that give one (solver/repair.py),
    the edges the person set taken as certain. Empty when none is found within the repair's budget."""
    edges = corrections.edges
    from ...solver.repair import repair

    answers = {(tile, side): edges[tile][side] for tile, side in corrections.checked}
    found = repair(edge_posteriors_of(reviewed.reading, answers), reviewed.rows, reviewed.cols)
    if found.solution is None:
        return []
    return [(t, s, found.edges[t][s]) for t in range(len(edges)) for s in range(4)
            if found.edges[t][s] != edges[t][s]]


def corrected_reading(reviewed: Reviewed, corrections: Corrections):
    """The reading with the page's edges: each edge's probability is the reader's for the label it now has, and 1
    where the person set it (their word is certain), as the tile file's comments and the command's output show."""
    labels = np.array(corrections.edges)
    chance = np.array([[probability(reviewed, t, s, labels[t, s]) for s in range(4)] for t in range(len(labels))])
    for tile, side in corrections.checked:
        chance[tile, side] = 1.0
    return replace(reviewed.reading, labels=labels, probabilities=chance)


def placements(result: SolveResult) -> list[list[dict]]:
    """For each solution listed, where each photographed tile goes: row, column (1-based) and quarter turns."""
    listed = []
    for solution in result.solutions[:MOST_SOLUTIONS_LISTED]:
        places = {}
        for r, row in enumerate(solution.cells):
            for c, placement in enumerate(row):
                places[placement.tile] = {"row": r + 1, "col": c + 1, "turns": placement.turns}
        listed.append([places[number] for number in sorted(places)])
    return listed


def outcome_document(result: SolveResult | str) -> dict:
    """What the page says about the solution: how many there are (up to rotation), and where the tiles go."""
    if isinstance(result, str):
        return {"count": 0, "text": result, "places": []}
    count = result.up_to_rotation
    text = "no solution" if count == 0 else "one solution" if count == 1 else f"{count} solutions"
    return {"count": count, "raw": result.raw, "text": text, "places": placements(result),
            "milliseconds": round(1000 * result.seconds, 1)}


def page_document(reviewed: Reviewed, corrections: Corrections, result: SolveResult | str, page_scale: float,
                  suggested: list[tuple[int, int, int]], save_targets: list[str]) -> dict:
    """Everything the page draws, as JSON: tiles with their outlines (in the page photo's pixels) and edges, the
    labels, the doubtful edges in order, the solver's verdict and a suggested repair when there is no solution."""
    puzzle = puzzle_of(reviewed, corrections.edges)
    order = doubt_order(reviewed)
    labels = labels_of(reviewed)
    tiles = []
    for t, quad in enumerate(reviewed.quads):
        edges = []
        for s in range(4):
            now, first, read = corrections.edges[t][s], reviewed.first[t][s], int(reviewed.reading.labels[t, s])
            chances = sorted(((label, probability(reviewed, t, s, label)) for label in labels),
                             key=lambda item: -item[1])
            edges.append({"label": now, "first": first, "read": read,
                          "probability": round(probability(reviewed, t, s, now), 4),
                          "set_by_hand": (t, s) in corrections.checked, "repaired": first != read,
                          "decisive": (t, s) in reviewed.decisive, "unsure": (t, s) in order,
                          "choices": [[label, round(p, 4)] for label, p in chances]})
        tiles.append({"number": t + 1, "corners": (np.asarray(quad.corners) * page_scale).round(1).tolist(),
                      "edges": edges})
    return {
        "source": reviewed.source, "rows": reviewed.rows, "cols": reviewed.cols, "photo_scale": page_scale,
        "labels": [{"value": label, "name": shown_label(puzzle, label)} for label in labels],
        "tiles": tiles,
        "doubtful": [{"tile": t, "side": s} for t, s in order],
        "outcome": outcome_document(result),
        "suggestion": [{"tile": t, "side": s, "label": label} for t, s, label in suggested],
        "can_undo": corrections.previous is not None,
        "changed": len(changed(reviewed, corrections.edges)),
        "checked": len(corrections.checked),
        "save_targets": save_targets,
        # names the edges shown, so that the page's pictures of one set of edges are not taken for another's
        "version": hashlib.sha1(repr(corrections.edges).encode()).hexdigest()[:12],
    }


def shown_label(puzzle: Puzzle, label: int) -> str:
    """A label as the page shows it: its name ('grey+'), or for an unnamed motif its number with its sign ('+2'),
    so that the two halves of a motif never look alike."""
    text = puzzle.label(label)
    return f"+{text}" if label > 0 and text == str(label) else text


def save(reviewed: Reviewed, corrections: Corrections, result: SolveResult | str, tiles_target: Path | None,
         solved_target: Path | None) -> list[str]:
    """Write the corrected tile file and the solved picture (each atomically) where the command line said; what
    was written, and what could not be, one line each."""
    said = []
    if tiles_target is not None:
        header = (f"read from {reviewed.source} ({reviewed.how}); {len(changed(reviewed, corrections.edges))} "
                  f"edge(s) changed and {len(corrections.checked)} checked on the review page (probability 1.00); "
                  f"tile numbers as on the page")
        save_tile_file(puzzle_of(reviewed, corrections.edges), corrected_reading(reviewed, corrections),
                       header, tiles_target)
        said.append(f"tiles written to {tiles_target}")
    if solved_target is not None:
        if isinstance(result, str) or not result.solutions:
            said.append(f"no solution, so no solved picture written to {solved_target}")
        else:
            from ...vision.render import solved_board

            save_image(solved_board(reviewed.image, reviewed.quads, result.solutions[0]), solved_target)
            said.append(f"solved picture written to {solved_target}")
    return said


def page_photo(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo as the page shows it (at most PAGE_PHOTO_SIDE long), and its pixels per photo pixel."""
    import cv2

    scale = min(1.0, PAGE_PHOTO_SIDE / max(image.shape[:2]))
    if scale == 1.0:
        return image, 1.0
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


def half_picture(reviewed: Reviewed, label: int) -> np.ndarray:
    """A small picture of a motif half, cut from the photo: the edge read as `label` with the most probability
    (among those the page started with that label, else among all), turned so that its edge is on top."""
    columns = [int(v) for v in reviewed.reading.candidates]
    chance = reviewed.reading.posterior[..., columns.index(label)].copy()
    first = np.array(reviewed.first)
    if (first == label).any():
        chance[first != label] = -1.0
    tile, side = np.unravel_index(int(np.argmax(chance)), chance.shape)
    band = edge_bands(reviewed.squares[tile])[int(side)].astype(np.float32)  # that edge on top
    # The half is the triangle between the edge and the tile's centre: the neighbouring halves beside it are paled.
    outside = ~territory(*band.shape[:2])
    band[outside] = 255 - 0.3 * (255 - band[outside])
    band = band.round().astype(np.uint8)
    from PIL import Image

    height = max(1, round(band.shape[0] * HALF_WIDTH / band.shape[1]))
    return np.asarray(Image.fromarray(band).resize((HALF_WIDTH, height), Image.LANCZOS))


def solved_picture(reviewed: Reviewed, result: SolveResult | str, number: int = 0) -> np.ndarray | None:
    """The solved board on the page, built from the photo's tiles; None without a solution."""
    from ...vision.render import solved_board

    if isinstance(result, str) or not 0 <= number < len(result.solutions):
        return None
    return solved_board(reviewed.image, reviewed.quads, result.solutions[number], cell=PAGE_CELL)


def encoded(rgb: np.ndarray, kind: str = "PNG") -> bytes:
    """An RGB picture as PNG or JPEG bytes, to send."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format=kind, **({"quality": 88} if kind == "JPEG" else {"compress_level": 1}))
    return buffer.getvalue()
