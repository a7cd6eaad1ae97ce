"""Selection (spec §8): knapsack values from relevance, and the exact choice.

The knapsack maximises a sum, so a chunk's value must say how much more a reader gains from it
than from a lower-ranked one. The fused ranking's RRF scores (``rrf_k = 60``) are nearly flat:
the 1st and the 100th differ by a factor of ~2.6, and a sum of flat values rewards *many short*
low-ranked chunks over the relevant ones. A chunk's knapsack value is therefore its relevance,
an RRF score with a small constant ``k_r`` (``relevance_k``) relative to the best possible one
(ranked first in every list), sharpened by ``relevance_power`` p and discounted by its overlap
with higher-ranked survivors::

    r_i     = Σ_lists w / (k_r + rank_i)          r_best = Σ_lists w / (k_r + 1)
    value_i = floor(utility_scale · (r_i / r_best)^p · (1 − λ · overlap_i) + 0.5)

Chunks with the same pair of ranks (in either order) have the same relevance, so RRF ties stay
ties. Measured on SQuAD (docs/performance.md), k_r = 6 and p = 8 make the exact knapsack pick
what a reader needs at least as often as greedy top-k at every budget tried.

Every function here is plain data in, plain data out. Complexity: O(n) plus the solve.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from .knapsack import solve

__all__ = ["knapsack_values", "choose", "choose_within"]


def knapsack_values(ranks: Sequence[tuple[int | None, int | None]],
                    overlaps: Sequence[float], *, weights: tuple[float, float], k: float,
                    power: float, lam: float, scale: float, dense: bool) -> list[int]:
    """Integer values ``floor(scale · (r / r_best)^power · (1 − lam · overlap) + 0.5)`` for
    survivors with per-list ``ranks`` ``(bm25_rank, dense_rank)`` (None: absent from that
    list); ``dense`` says whether the pool has a dense list. Each value is in
    [0, scale + 0.5]; all 0 when every list weight is 0."""
    w_bm25, w_dense = weights
    best = w_bm25 / (k + 1) + (w_dense / (k + 1) if dense else 0.0)
    if not best > 0.0:
        return [0] * len(ranks)
    values = []
    for (rb, rd), overlap in zip(ranks, overlaps):
        r = (0.0 if rb is None else w_bm25 / (k + rb)) + (0.0 if rd is None else w_dense / (k + rd))
        values.append(math.floor(scale * (r / best) ** power * (1.0 - lam * overlap) + 0.5))
    return values


def choose(weights: Sequence[int], values: Sequence[int], budget: int, *,
           max_memory: int | None = None) -> tuple[int, ...]:
    """Indices (ascending) of the exact knapsack optimum over the items that fit ``budget``.

    Ties: fewest total weight, then lower indices first (``ckn.knapsack.solve``)."""
    if budget < 0:
        return ()
    fit = [i for i, w in enumerate(weights) if w <= budget]
    kwargs = {} if max_memory is None else {"max_memory": max_memory}
    chosen = solve([weights[i] for i in fit], [values[i] for i in fit], budget, **kwargs)
    return tuple(fit[k] for k in chosen.indices)


def choose_within(weights: Sequence[int], values: Sequence[int], budget: int, fixed: int,
                  measure: Callable[[tuple[int, ...]], int], *,
                  max_memory: int | None = None) -> tuple[tuple[int, ...], int]:
    """:func:`choose` such that ``measure(chosen) <= budget`` holds for the real output.

    ``fixed + Σ weights`` estimates what ``measure`` (e.g. the token count of the rendered
    context) will count, and ``measure(()) <= budget`` must hold. The first solve uses the
    capacity ``budget - fixed``; when the measured choice still exceeds ``budget``, the solve is
    repeated with the capacity lowered by the excess. The capacity strictly decreases, so this
    ends, at worst with nothing chosen. Returns the choice and its measure."""
    effective = budget - fixed
    while True:
        chosen = choose(weights, values, effective, max_memory=max_memory)
        size = measure(chosen)
        if size <= budget or not chosen:
            return chosen, size
        effective -= size - budget
