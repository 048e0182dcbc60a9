"""Independent checks for solver tests: a brute-force enumerator and an edge-by-edge validator."""
from __future__ import annotations

import itertools


def turned(edges, k):
    """(n, e, s, w) after k quarter turns clockwise, written out longhand on purpose."""
    n, e, s, w = edges
    for _ in range(k % 4):
        n, e, s, w = w, n, e, s
    return (n, e, s, w)


def board_is_valid(grid, match="signed") -> bool:
    """Every seam joins a half with its complement ('equal': with the same colour, and the frame is all 0);
    border edges (0) only on the frame."""
    rows, cols = len(grid), len(grid[0])
    seam = (lambda a, b: a + b == 0) if match == "signed" else (lambda a, b: a == b)
    for r in range(rows):
        for c in range(cols):
            n, e, s, w = grid[r][c]
            if c + 1 < cols and not seam(e, grid[r][c + 1][3]):
                return False
            if r + 1 < rows and not seam(s, grid[r + 1][c][0]):
                return False
            inner = (r > 0 and n == 0, c + 1 < cols and e == 0, r + 1 < rows and s == 0, c > 0 and w == 0)
            if any(inner):
                return False
            frame = (r == 0 and n != 0, c + 1 == cols and e != 0, r + 1 == rows and s != 0, c == 0 and w != 0)
            if match == "equal" and any(frame):
                return False
    return True


def brute_force(tiles, rows, cols, match="signed"):
    """Every (permutation, turns) that forms a valid board: the raw arrangements, as tuples of (index, turns).

    match 'signed': a seam joins k and -k; 'equal': a seam joins equal colours and the frame is all 0.

    Each permutation's 4^n turn choices are walked in row-major order, dropping a prefix as soon as its last
    cell fails a seam, which skips no valid board; no symmetry or indexing is shared with the solver.
    """
    found = []
    cells = rows * cols
    seam = (lambda a, b: a + b == 0) if match == "signed" else (lambda a, b: a == b)
    for perm in itertools.permutations(range(len(tiles))):
        def extend(prefix):
            i = len(prefix)
            if i == cells:
                found.append(tuple(zip(perm, (k for _, k in prefix))))
                return
            r, c = divmod(i, cols)
            for k in range(4):
                edges = turned(tiles[perm[i]], k)
                grid_row = [e for e, _ in prefix[r * cols:i]] + [edges]
                above = prefix[i - cols][0] if r > 0 else None
                if c > 0 and not seam(grid_row[-2][1], edges[3]):
                    continue
                if above is not None and not seam(above[2], edges[0]):
                    continue
                frame = (r == 0, c + 1 == cols, r + 1 == rows, c == 0)
                if match == "equal" and any(on and e != 0 for on, e in zip(frame, edges)):
                    continue
                if (r > 0 and edges[0] == 0) or (c > 0 and edges[3] == 0):
                    continue
                if (c + 1 < cols and edges[1] == 0) or (r + 1 < rows and edges[2] == 0):
                    continue
                extend(prefix + [(edges, k)])
        extend([])
    return found


def looks(tiles, arrangement, rows, cols):
    return tuple(tuple(turned(tiles[i], k) for i, k in arrangement[r * cols:(r + 1) * cols]) for r in range(rows))


def rotate_look(look):
    """The look of a board turned a quarter turn clockwise."""
    rows, cols = len(look), len(look[0])
    return tuple(tuple(turned(look[rows - 1 - c][r], 1) for c in range(rows)) for r in range(cols))


def brute_counts(tiles, rows, cols, match="signed"):
    raw = brute_force(tiles, rows, cols, match)
    seen = {looks(tiles, a, rows, cols) for a in raw}
    classes = set()
    for look in seen:
        orbit = [look]
        for _ in range(3):
            orbit.append(rotate_look(orbit[-1]))
        same_shape = [o for o in orbit if len(o) == rows and len(o[0]) == cols]
        classes.add(min(same_shape))
    return len(raw), len(seen), len(classes)
