"""The cheapest one-to-one assignment of rows to columns (the Hungarian method), in numpy.

scipy has one, but importing scipy.optimize costs a command-line run about half a second on this kind of
machine, more than everything else photosolve does to a photo but decoding it; the matrices here are tiny.
"""
from __future__ import annotations

import numpy as np


def linear_sum_assignment(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of the assignment of least total cost, as scipy.optimize.linear_sum_assignment.

    Rows are given in increasing order; a rectangular matrix assigns every row (or every column, whichever
    are fewer). Shortest augmenting paths with potentials (Kuhn-Munkres, Jonker-Volgenant style): O(n^2 m).
    """
    cost = np.asarray(cost, dtype=np.float64)
    transposed = cost.shape[0] > cost.shape[1]
    if transposed:
        cost = cost.T
    rows, cols = cost.shape
    row_potential = np.zeros(rows + 1)
    col_potential = np.zeros(cols + 1)
    owner = np.zeros(cols + 1, dtype=int)  # owner[j]: the row (1-based) holding column j; column 0 is a sentinel
    previous = np.zeros(cols + 1, dtype=int)
    for row in range(1, rows + 1):
        owner[0], column = row, 0
        slack = np.full(cols + 1, np.inf)
        visited = np.zeros(cols + 1, dtype=bool)
        while True:  # grow a tree of tight edges from `row` until it reaches a free column
            visited[column] = True
            current = owner[column]
            reduced = cost[current - 1] - row_potential[current] - col_potential[1:]
            open_columns = ~visited[1:]
            improves = open_columns & (reduced < slack[1:])
            slack[1:][improves] = reduced[improves]
            previous[1:][improves] = column
            candidates = np.where(open_columns, slack[1:], np.inf)
            nearest = int(np.argmin(candidates)) + 1
            delta = candidates[nearest - 1]
            row_potential[owner[visited]] += delta
            col_potential[visited] -= delta
            slack[1:][open_columns] -= delta
            column = nearest
            if owner[column] == 0:
                break
        while column:  # flip the path: each column on it passes to the row before
            before = previous[column]
            owner[column] = owner[before]
            column = before
    assigned = np.flatnonzero(owner[1:]) + 1
    row_index, col_index = owner[assigned] - 1, assigned - 1
    order = np.argsort(row_index)
    row_index, col_index = row_index[order], col_index[order]
    if transposed:
        order = np.argsort(col_index)
        return col_index[order], row_index[order]
    return row_index, col_index
