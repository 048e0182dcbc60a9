"""Which of the arrangements a reading allows the photo favours: the one whose seams the figures run on across.

The solver sees labels only. When a reading lets the tiles be laid out in several ways (two motifs read as one, a
puzzle with several solutions), every way fits as read and the solver lists them in the order it meets them. The
photo can tell them apart: wherever the two halves of one motif meet, the figure's outline and colours run on
across the seam (cut.py), so the true arrangement's inner seams meet better, summed, than a wrong one's.

Measured (2026-11-27, bench/continuity.py) by reading two motifs of a photo as one, each two motifs both ways, where
the tiles then lie in true and wrong ways alike: the real dev photos (../shared/realphotos; halves where photosolve
finds the tiles, motifs as the truth says) 39 of 40 times the way whose seams meet best is a true one (the solver's
first 8 of 40); the bundled samples, read as photosolve reads them, 44 of 44 (1 of 44); the art families' photos
(seeds 20000 and 10000, 12 a tier) dev 1518 of 1922 (79%; the solver's first 434), test families (never tuned on)
1551 of 1912 (81%; 442): a small detail or a close colour barely shows at the cut, and outlines found 5% off move
the rows compared. Comparing rows further from the cut (cut.DEPTHS to 8 or 12 pixels, SHIFTS to 3 or 5 cells) did
no better on the dev families.
Whole pipeline, no templates (bench/families.py, seeds 20000 and 10000, 36 photos per split and tier; against the
arrangement the repair meets first, as judged before, same day): solved right dev 136 -> 139 of 216, test families
(never tuned on) 114 -> 123; wrong solutions given unasked dev 4 -> 4, test 9 -> 5; every edge and every question
as before (the reading is not changed, only which of its arrangements is given).
"""
from __future__ import annotations

import numpy as np

from ...solver.search import Solution
from .cut import cut_distances, cut_profiles
from .face import WHITE_LAB

SIDES = 4  # halves per tile, N E S W as read
# The cut profiles' channels compared here (cut.py: Lab lightness, a, b, each over 100, then the share of motif): the
# colours only. The share of motif only thresholds those colours, and where a figure's edge nears the threshold it
# flips. Measured on the merges above (halves stored at half precision), the seams pick a true way on dev 1411 ->
# 1491 of 1922, on the test families (never tuned on) 1394 -> 1551 of 1912; real dev photos 39 of 40 either way, the
# samples 37 -> 44 of 44. Chroma counted twice besides (the light changes more from tile to tile than a print's hue)
# gave dev 1529, test 1543, but real photos 38.
SEAM_CHANNELS = slice(0, 3)
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3  # sides, as read and on the board


def meeting_costs(bands: np.ndarray, face: np.ndarray = WHITE_LAB) -> np.ndarray:
    """How unlike every two halves are where they would meet (bands: tiles x 4 x h x w x 3, in one light, edge on
    top): (tiles * 4) x (tiles * 4), half (tile, side) at tile * 4 + side."""
    flat = bands.reshape(-1, *bands.shape[2:])
    return cut_distances(cut_profiles(flat, face)[..., SEAM_CHANNELS])


def inner_seams(solution: Solution) -> list[tuple[int, int]]:
    """The pairs of halves that meet on the board's inner seams, as indices tile * 4 + side (tiles 0-based, sides as
    read): a tile turned k quarter turns clockwise shows on its board side g its own side g - k."""
    cells = solution.cells
    half = lambda placement, side: (placement.tile - 1) * SIDES + (side - placement.turns) % SIDES
    seams = []
    for r, row in enumerate(cells):
        for c, placement in enumerate(row):
            if c + 1 < len(row):
                seams.append((half(placement, EAST), half(row[c + 1], WEST)))
            if r + 1 < len(cells):
                seams.append((half(placement, SOUTH), half(cells[r + 1][c], NORTH)))
    return seams


def seam_cost(solution: Solution, meeting: np.ndarray) -> float:
    """How badly an arrangement's inner seams meet, summed (meeting: from meeting_costs)."""
    return float(sum(meeting[a, b] for a, b in inner_seams(solution)))


def by_continuity(solutions: tuple[Solution, ...], meeting: np.ndarray) -> tuple[Solution, ...]:
    """The arrangements, those whose seams meet best first (ties keep the solver's order)."""
    return tuple(sorted(solutions, key=lambda solution: seam_cost(solution, meeting)))
