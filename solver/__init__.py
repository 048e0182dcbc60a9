"""The solver stage: tiles with signed edges in, every arrangement out.

Pure Python on purpose: `photosolve solve` must start fast and must not load numpy or OpenCV.
"""
from .tiles import SIDES, Puzzle, Tile, turn_edges
from .search import Placement, Solution, SolveResult, solve

__all__ = ["SIDES", "Puzzle", "Tile", "turn_edges", "Placement", "Solution", "SolveResult", "solve"]
