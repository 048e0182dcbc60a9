"""Tiles and the one convention for edges and turns used everywhere in photosolve.

Edges are listed clockwise from the top: N E S W. A turn is a quarter turn clockwise: after one turn
the edge that faced W faces N, so (n, e, s, w) becomes (w, n, e, s). Motif k's two halves are +k and
-k; two edges match when they sum to zero. 0 is a flat border edge that may only lie on the frame.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SIDES = ("N", "E", "S", "W")
BORDER = 0

Edges = tuple[int, int, int, int]


def turn_edges(edges: Edges, turns: int) -> Edges:
    """The edges of a tile turned `turns` quarter turns clockwise."""
    k = turns % 4
    if k == 0:
        return edges
    return edges[-k:] + edges[:-k]  # type: ignore[return-value]


@dataclass(frozen=True)
class Tile:
    """One tile as given: its edges N E S W, its 1-based id, and where it came from."""

    id: int
    edges: Edges
    line: int | None = None  # line number in the tile file, if it came from one


@dataclass(frozen=True)
class Puzzle:
    """The tiles to arrange and the names of the motifs, if the input named them."""

    tiles: tuple[Tile, ...]
    motif_names: dict[int, str] = field(default_factory=dict)  # motif number -> name ('brown')
    source: str = "<tiles>"
    match: str = "signed"  # how edges fit: 'signed' (+k meets -k) or 'equal' (like colours; 0 the frame colour)

    @classmethod
    def from_edges(cls, rows_of_edges, motif_names: dict[int, str] | None = None, match: str = "signed",
                   source: str = "<tiles>") -> "Puzzle":
        """A puzzle from plain edge tuples, ids numbered from 1."""
        tiles = tuple(Tile(i + 1, tuple(int(v) for v in e)) for i, e in enumerate(rows_of_edges))
        return cls(tiles, dict(motif_names or {}), source, match)

    def label(self, edge: int) -> str:
        """How an edge is written for a person: 'brown+' where the motif has a name, else '-3'."""
        name = self.motif_names.get(abs(edge))
        if edge == BORDER:
            return "0" if name is None else name
        if name is None:
            return str(edge)
        return f"{name}{'+' if edge > 0 else '-'}"

    def labels(self, edges: Edges) -> list[str]:
        return [self.label(e) for e in edges]
