"""Solutions as text a person can lay out at the table: boxed tiles with their edge labels."""
from __future__ import annotations

from .search import Solution
from .tiles import Puzzle

TURN_NAMES = ("as given", "turned 90° clockwise", "turned 180°", "turned 90° anticlockwise")


def render_board(puzzle: Puzzle, solution: Solution) -> str:
    """The board as boxes: each shows its N label on top, W and E at the sides, S below, and tile id and turn."""
    edges = solution.edges(puzzle)
    labels = [[puzzle.labels(cell) for cell in row] for row in edges]
    tags = [[f"#{p.tile}" + (f" {90 * p.turns}°" if p.turns else "") for p in row] for row in solution.cells]
    side = max(len(text) for row in labels for cell in row for text in cell)
    width = max(2 * side + max(len(tag) for row in tags for tag in row) + 4, 15)  # W, tag and E, spaced
    rule = "+" + "+".join("-" * width for _ in range(solution.cols)) + "+"
    out = [rule]
    for row_labels, row_tags in zip(labels, tags):
        tops, middles, bottoms = [], [], []
        for (n, e, s, w), tag in zip(row_labels, row_tags):
            tops.append(n.center(width))
            gap = width - 2 - len(w) - len(e)
            middles.append(" " + w + tag.center(gap) + e + " ")
            bottoms.append(s.center(width))
        for cells in (tops, middles, bottoms):
            out.append("|" + "|".join(cells) + "|")
        out.append(rule)
    return "\n".join(out)


def describe_placements(puzzle: Puzzle, solution: Solution) -> list[str]:
    """One line per cell: which input tile goes there and how it is turned."""
    lines_of = {t.id: t.line for t in puzzle.tiles}
    out = []
    for r, row in enumerate(solution.cells, start=1):
        for c, p in enumerate(row, start=1):
            where = f" (line {lines_of[p.tile]})" if lines_of[p.tile] is not None else ""
            out.append(f"row {r}, col {c}: tile {p.tile}{where}, {TURN_NAMES[p.turns]}")
    return out
