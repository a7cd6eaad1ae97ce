"""Slow, obviously-correct oracles the tests compare ckn's kernels against.

Append new oracles as separate functions; keep each one short enough to check by eye.
"""

from itertools import combinations


def knapsack_brute_force(weights, values, budget):
    """Every subset: the SPEC §8 choice as a sorted index tuple (n ≤ ~16).

    Maximise Σ values under Σ weights ≤ budget; ties: fewest total weight; then the
    lexicographically greatest indicator vector (x_0, x_1, …), i.e. prefer lower indices.
    """
    n = len(weights)
    best_key, best = None, ()
    for r in range(n + 1):
        for subset in combinations(range(n), r):
            weight = sum(weights[i] for i in subset)
            if weight > budget:
                continue
            value = sum(values[i] for i in subset)
            indicator = tuple(1 if i in subset else 0 for i in range(n))
            key = (value, -weight, indicator)
            if best_key is None or key > best_key:
                best_key, best = key, subset
    return best
