"""Selection (SPEC §8): knapsack values from adjusted utilities, and the exact choice.

The knapsack maximises a sum, so a chunk's value must say how much more a reader gains from it
than from a lower-ranked one. Fused RRF scores are nearly flat (with ``rrf_k = 60`` the 1st and
the 100th differ by a factor of ~2.6), and a sum of flat values rewards *many short* chunks over
the relevant ones. The value of survivor i is therefore its adjusted utility relative to the
pool's best, sharpened by ``relevance_power`` p::

    value_i = floor(utility_scale · (u_i / u_max)^p + 0.5)

p = 1 is proportional to the utility; larger p keeps the fused scores' spread: a chunk worth
90 % of the best is worth 0.9^p of it. Chunks whose scores tie keep equal values, whatever p.

Every function here is plain data in, plain data out. Complexity: O(n) plus the solve.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from .knapsack import solve

__all__ = ["knapsack_values", "choose", "choose_within"]


def knapsack_values(utilities: Sequence[float], *, power: float, scale: float) -> list[int]:
    """Integer values ``floor(scale · (u / max(u))^power + 0.5)``, each in [0, scale + 0.5];
    all 0 when max(u) is 0. ``utilities`` are finite and >= 0."""
    top = max(utilities, default=0.0)
    if not top > 0.0:
        return [0] * len(utilities)
    return [math.floor(scale * (u / top) ** power + 0.5) for u in utilities]


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
