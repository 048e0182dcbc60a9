"""The JSON document photosolve prints with --json; the photo pipeline adds its own keys to the same shape."""
from __future__ import annotations

from ..solver.search import SolveResult
from ..solver.tiles import Puzzle

SCHEMA_VERSION = 1


def solution_document(puzzle: Puzzle, result: SolveResult) -> dict:
    """Tiles, board size, counts (null: not counted), search effort and the solutions distinct up to rotation."""
    return {
        "schema": SCHEMA_VERSION,
        "source": puzzle.source,
        "motifs": {str(k): name for k, name in sorted(puzzle.motif_names.items())},
        "tiles": [
            {"id": t.id, "line": t.line, "edges": list(t.edges), "labels": puzzle.labels(t.edges)}
            for t in puzzle.tiles
        ],
        "rows": result.rows,
        "cols": result.cols,
        "counts": {"raw": result.raw, "distinct": result.distinct, "up_to_rotation": result.up_to_rotation},
        "exhaustive": result.exhaustive,
        "stopped": result.stopped,  # why not exhaustive: 'first', 'timeout', 'interrupted'; null when exhaustive
        "match": result.match,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "solutions": [
            {"cells": [[{"tile": p.tile, "turns": p.turns} for p in row] for row in s.cells]}
            for s in result.solutions
        ],
    }
