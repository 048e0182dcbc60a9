"""Ward's hierarchical clustering of a photo's few dozen halves, as scipy.cluster.hierarchy computes it.

scipy's linkage and fcluster give the same answers, but importing scipy.cluster costs a command-line run
0.3-1.5 s on this kind of machine, more than all of the clustering: for 36 halves the plain greedy merge is
instant. The tree is scipy's linkage matrix, so either can read it.
"""
from __future__ import annotations

import numpy as np


def ward_tree(distances: np.ndarray) -> np.ndarray:
    """The linkage matrix of Ward's clustering of n items from their distance matrix (n x n): row i
    merges clusters a < b (items are 0..n-1, the cluster made by row i is n+i) at height h into c items:
    [a, b, h, c], heights ascending, as scipy.cluster.hierarchy.linkage(..., "ward") gives it."""
    n = len(distances)
    between = np.triu(np.asarray(distances, dtype=np.float64), 1)  # the upper triangle, as scipy's squareform
    between += between.T
    np.fill_diagonal(between, np.inf)
    alive = np.ones(n, dtype=bool)
    ids = np.arange(n)  # the cluster each slot holds now
    sizes = np.ones(n)
    tree = np.zeros((n - 1, 4))
    for row in range(n - 1):
        masked = np.where(alive[:, None] & alive[None, :], between, np.inf)
        x, y = divmod(int(np.argmin(masked)), n)
        x, y = min(x, y), max(x, y)
        height = between[x, y]
        tree[row] = [min(ids[x], ids[y]), max(ids[x], ids[y]), height, sizes[x] + sizes[y]]
        # Lance-Williams for Ward, written as scipy writes it (heights agree to rounding: scipy merges in another
        # order, the nearest-neighbour chain's, which ends in the same tree).
        others = alive.copy()
        others[[x, y]] = False
        size_i = sizes[others]
        t = 1.0 / (sizes[x] + sizes[y] + size_i)
        merged = np.sqrt((size_i + sizes[x]) * t * between[x, others] * between[x, others]
                         + (size_i + sizes[y]) * t * between[y, others] * between[y, others]
                         - size_i * t * height * height)
        between[y, others] = between[others, y] = merged  # slot y holds the merged cluster, slot x is dropped
        alive[x] = False
        sizes[y] += sizes[x]
        ids[y] = n + row
    return tree


def cut_tree(tree: np.ndarray, count: int) -> np.ndarray:
    """Each item's cluster (0-based) when the tree is cut into at most `count` clusters, numbered as
    scipy.cluster.hierarchy.fcluster(tree, count, "maxclust") - 1 numbers them."""
    n = len(tree) + 1
    highest = np.zeros(n - 1)  # the highest merge within each merged cluster
    for row, (a, b, height, _) in enumerate(tree):
        highest[row] = max([height, *(highest[int(c) - n] for c in (a, b) if c >= n)])
    candidates = np.sort(highest)
    low, high = 0, n - 2
    while low < high:  # the lowest cut that leaves no more than `count` clusters
        middle = (low + high) // 2
        if len(set(cut_at(tree, highest, candidates[middle]))) > count:
            low = middle + 1
        else:
            high = middle
    return cut_at(tree, highest, candidates[high])


def cut_at(tree: np.ndarray, highest: np.ndarray, threshold: float) -> np.ndarray:
    """Clusters of the items when every merge no higher than `threshold` is kept, numbered as fcluster numbers
    them: walking from the root, a merged child before a lone item, the left before the right."""
    n = len(tree) + 1
    labels = np.zeros(n, dtype=int)
    clusters = 0

    def walk(row: int, label: int | None) -> None:
        nonlocal clusters
        if label is None and highest[row] <= threshold:
            clusters += 1
            label = clusters - 1
        children = [int(child) for child in tree[row, :2]]
        for child in children:
            if child >= n:
                walk(child - n, label)
        for child in children:
            if child < n:
                if label is None:
                    clusters += 1
                labels[child] = clusters - 1 if label is None else label

    walk(n - 2, None)
    return labels
