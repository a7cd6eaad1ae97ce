"""Seeded knapsack instances across shapes, plus hypothesis strategies.

Every instance is a pure function of ``(seed, index)``: ``generate(seed, index)`` rebuilds it
exactly, so a failure is reproduced from the two integers printed with it (or from the JSON file
saved under ``verify/failures/``).

Shapes (``KINDS``), cycled by index so every run covers each of them:

* ``uncorrelated``   values and weights independent, uniform in [1, R]
* ``weak``           value = weight ± R/10 (clipped at 0)
* ``strong``         value = weight + R/10 (the classic hard case for branch and bound)
* ``subset_sum``     value = weight (every tie in value is a tie in tokens too)
* ``ties``           weights and values from tiny sets, duplicated items: many optimal subsets
* ``zeros``          zero weights, zero values and zero/zero items mixed into uncorrelated ones
* ``edges``          budget 0, items weighing exactly the budget, items heavier than it
* ``pipeline``       values are ckn's scaled adjusted utilities of a random pool (spec §8)

Sizes: n from 0 to 300 (about a third with n <= 16 so that the tie rules can be checked by
enumeration), weight ranges R from 5 to 50,000, budgets from 0 to 50,000.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field

__all__ = [
    "HUGE_KINDS",
    "KINDS",
    "MAX_BUDGET",
    "MAX_N",
    "Instance",
    "generate",
    "generate_huge",
    "pipeline_values",
    "sweep",
    "knapsack_instances",
]

KINDS = ("uncorrelated", "weak", "strong", "subset_sum", "ties", "zeros", "edges", "pipeline")
MAX_N = 300
MAX_BUDGET = 50_000
_RANGES = (5, 20, 100, 1000, 10_000, 50_000)


@dataclass(frozen=True)
class Instance:
    """One 0/1 knapsack instance; ``seed``/``index`` say how to rebuild it."""

    weights: tuple[int, ...]
    values: tuple[int, ...]
    budget: int
    kind: str = "custom"
    seed: int | None = None
    index: int | None = None
    note: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.weights)

    def to_json(self) -> dict:
        d = asdict(self)
        d["weights"] = list(self.weights)
        d["values"] = list(self.values)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Instance":
        return cls(
            weights=tuple(int(x) for x in d["weights"]),
            values=tuple(int(x) for x in d["values"]),
            budget=int(d["budget"]),
            kind=d.get("kind", "custom"),
            seed=d.get("seed"),
            index=d.get("index"),
            note=dict(d.get("note", {})),
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)


def _rng(seed: int, index: int) -> random.Random:
    # A string seed is hashed with SHA-512 by random.Random: stable across processes and
    # Python versions (unlike hash()).
    return random.Random(f"ckn-verify:{seed}:{index}")


def _size(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.03:
        return 0
    if r < 0.36:
        return rng.randint(1, 16)
    if r < 0.70:
        return rng.randint(17, 80)
    return rng.randint(81, MAX_N)


def _budget(rng: random.Random, weights: list[int]) -> int:
    total = sum(weights)
    r = rng.random()
    if r < 0.04:
        b = 0
    elif r < 0.14:
        b = rng.randint(0, MAX_BUDGET)
    elif r < 0.20:
        b = total  # everything fits (capped below)
    else:
        b = int(total * rng.choice((0.05, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9)))
    return max(0, min(b, MAX_BUDGET))


def _sprinkle_edges(rng: random.Random, weights: list[int], values: list[int], budget: int,
                    value_range: int) -> None:
    """Overwrite a few items with weight 0, weight == budget and weight > budget."""
    n = len(weights)
    if n == 0:
        return
    for _ in range(rng.randint(1, max(1, n // 8))):
        i = rng.randrange(n)
        which = rng.randrange(3)
        if which == 0:
            weights[i] = 0
        elif which == 1:
            weights[i] = budget
        else:
            weights[i] = budget + rng.randint(1, max(1, budget))
        values[i] = rng.randint(0, value_range)


def generate(seed: int, index: int) -> Instance:
    """The instance number ``index`` of the sweep seeded with ``seed`` (deterministic)."""
    rng = _rng(seed, index)
    kind = KINDS[index % len(KINDS)]
    if kind == "pipeline":
        return _pipeline_instance(rng, seed, index)
    n = _size(rng)
    R = rng.choice(_RANGES)
    if kind == "ties":
        R = rng.choice((3, 5, 8))
        scale = rng.choice((1, 1, 7, 100))
        weights = [scale * rng.randint(1, R) for _ in range(n)]
        values = [scale * rng.randint(0, R) for _ in range(n)]
        if n >= 2:  # duplicate some items outright
            for _ in range(n // 3):
                i, j = rng.randrange(n), rng.randrange(n)
                weights[j], values[j] = weights[i], values[i]
    else:
        weights = [rng.randint(1, R) for _ in range(n)]
        if kind in ("uncorrelated", "zeros", "edges"):
            values = [rng.randint(1, R) for _ in range(n)]
        elif kind == "weak":
            d = max(1, R // 10)
            values = [max(0, w + rng.randint(-d, d)) for w in weights]
        elif kind == "strong":
            values = [w + max(1, R // 10) for w in weights]
        elif kind == "subset_sum":
            values = list(weights)
        else:  # pragma: no cover - KINDS is closed
            raise AssertionError(kind)
        if kind == "zeros":
            for i in range(n):
                r = rng.random()
                if r < 0.15:
                    weights[i] = 0
                elif r < 0.30:
                    values[i] = 0
                elif r < 0.36:
                    weights[i] = values[i] = 0
    budget = _budget(rng, weights)
    if kind == "edges" or (n and rng.random() < 0.15):
        if kind == "edges" and rng.random() < 0.25:
            budget = 0
        _sprinkle_edges(rng, weights, values, budget, R)
    return Instance(tuple(weights), tuple(values), budget, kind, seed, index, {"R": R})


def sweep(seed: int, count: int, start: int = 0):
    """Instances ``start .. start+count-1`` of the sweep seeded with ``seed``."""
    for index in range(start, start + count):
        yield generate(seed, index)


# ----------------------------------------------------------------------------- huge numbers

# Shapes of the huge-number sweep (``generate_huge``), cycled by index:
#
# * ``huge_uncorrelated``  weights log-uniform up to 2**60, values uniform up to 2**30
# * ``huge_weak``          value = weight / 2**30 ± 10% (weakly correlated, big weights)
# * ``huge_pool``          tokens around 2**30 .. 2**40 per item, values of pipeline size (≤ 10**5)
# * ``huge_overflow``      weights near 2**62 .. 2**63 - 1, budget 2**63 - 1: the fitting
#                          weights' sum overflows int64
# * ``huge_all_fit``       everything fits a budget up to 2**62 (taken without any table)
#
# n from 0 to 60 (about a third with n <= 16, checked by enumeration), budgets up to 2**62
# (2**63 - 1 for huge_overflow), values' sums below 2**53 so that CBC holds them exactly; the
# weights are not multiples of a common large divisor, so no DP over the budget can run.
HUGE_KINDS = ("huge_uncorrelated", "huge_weak", "huge_pool", "huge_overflow", "huge_all_fit")
HUGE_MAX_N = 60


def generate_huge(seed: int, index: int) -> Instance:
    """The instance number ``index`` of the huge-number sweep seeded with ``seed``."""
    rng = random.Random(f"ckn-verify-huge:{seed}:{index}")
    kind = HUGE_KINDS[index % len(HUGE_KINDS)]
    r = rng.random()
    n = 0 if r < 0.03 else rng.randint(1, 16) if r < 0.36 else rng.randint(17, HUGE_MAX_N)
    if kind == "huge_overflow":
        weights = [rng.randint(2**62, 2**63 - 1) for _ in range(n)]
        values = [rng.randint(0, 2**30) for _ in range(n)]
        budget = 2**63 - 1 if rng.random() < 0.7 else rng.randint(2**62, 2**63 - 1)
        return Instance(tuple(weights), tuple(values), budget, kind, seed, index, {})
    if kind == "huge_pool":
        weights = [rng.randint(2**30, 2**rng.randint(31, 40)) for _ in range(n)]
        values = [rng.randint(1, 100_000) for _ in range(n)]
    else:
        weights = [rng.randint(1, 2**rng.randint(1, 60)) for _ in range(n)]
        if kind == "huge_weak":
            values = [max(0, (w >> 30) + rng.randint(-(w >> 33), w >> 33)) for w in weights]
        else:
            values = [rng.randint(0, 2**30) for _ in range(n)]
    total = sum(weights)
    if kind == "huge_all_fit":
        budget = min(2**62, total + rng.randint(0, 2**40))
    else:
        budget = min(2**62, int(total * rng.choice((0.1, 0.25, 0.5, 0.75, 0.9))))
    return Instance(tuple(weights), tuple(values), budget, kind, seed, index, {})


def sweep_huge(seed: int, count: int, start: int = 0):
    """Instances ``start .. start+count-1`` of the huge-number sweep seeded with ``seed``."""
    for index in range(start, start + count):
        yield generate_huge(seed, index)


# ----------------------------------------------------------------------------- pipeline values

_VOCAB = (
    "durable object sqlite alarm retry storage queue worker cache token budget context chunk "
    "query vector index shard replica lease timeout backoff jitter stream batch commit log "
    "schema migration rollback snapshot compaction bloom filter hash ring gossip quorum"
).split()


def _random_text(rng: random.Random, base: list[str] | None = None) -> str:
    if base and rng.random() < 0.8:
        words = list(base)
        for _ in range(rng.randint(0, max(1, len(words) // 3))):  # mutate a near-copy
            words[rng.randrange(len(words))] = rng.choice(_VOCAB)
        return " ".join(words)
    return " ".join(rng.choice(_VOCAB) for _ in range(rng.randint(0, 60)))


def pipeline_values(rng: random.Random, n: int, *, lam: float = 0.35, scale: int = 100_000,
                    threshold: float = 0.75):
    """Knapsack weights, values and budget of a random pool as ``ckn.pack`` computes them.

    The pool goes through ``ckn.pack`` and the instance is its per-chunk diagnostics: surviving
    chunks in fused order, ``tokens`` as weights, ``value`` (the integer knapsack value of spec
    §8) as values; the chunks it selected are recorded in ``note["pack_selected"]`` so that the
    check also confirms pack picked the knapsack's optimum. Returns
    ``(weights, values, budget, note)``.
    """
    import ckn

    texts: list[str] = []
    for _ in range(n):
        base = rng.choice(texts).split() if texts and rng.random() < 0.2 else None
        texts.append(_random_text(rng, base))
    query = " ".join(rng.choice(_VOCAB) for _ in range(rng.randint(1, 6)))
    dim = rng.randint(2, 8)
    q_emb = [rng.uniform(-1, 1) for _ in range(dim)]
    dense = rng.random() < 0.8
    embs = [None if rng.random() < 0.1 else [rng.uniform(-1, 1) for _ in range(dim)]
            for _ in range(n)]
    tokens = [len(t.split()) + rng.randint(0, 40) for t in texts]
    budget = min(MAX_BUDGET, int(sum(tokens) * rng.choice((0.0, 0.1, 0.25, 0.5, 0.75, 1.0))))
    candidates = []
    for i in range(n):
        c = {"id": f"c{i}", "tokens": tokens[i], "text": texts[i]}
        if dense and embs[i] is not None:
            c["embedding"] = embs[i]
        candidates.append(c)
    pool = {"query": query, "candidates": candidates, "token_budget": budget,
            "redundancy_lambda": lam, "utility_scale": scale, "near_dup_threshold": threshold}
    if dense:
        pool["query_embedding"] = q_emb
    result = ckn.pack(pool)
    survivors = [c for c in result.chunks if c.value is not None]
    weights = [c.tokens for c in survivors]
    values = [c.value for c in survivors]
    selected = [k for k, c in enumerate(survivors) if c.status == "selected"]
    return weights, values, budget, {"values_source": "ckn.pack", "pool": n,
                                     "survivors": len(survivors), "pack_selected": selected}


def _pipeline_instance(rng: random.Random, seed: int, index: int) -> Instance:
    weights, values, budget, note = pipeline_values(rng, _size(rng))
    return Instance(tuple(weights), tuple(values), budget, "pipeline", seed, index, note)


# ----------------------------------------------------------------------------- hypothesis

def knapsack_instances(max_n: int = 40, max_weight: int = 60, max_value: int = 60,
                       max_budget: int = 200):
    """A hypothesis strategy of :class:`Instance` (imports hypothesis lazily).

    Small ranges on purpose: they make equal values and equal weights frequent, so shrinking
    finds tie-rule bugs; weights may be 0, equal to the budget or above it.
    """
    from hypothesis import strategies as st

    @st.composite
    def build(draw):
        n = draw(st.integers(0, max_n))
        weights = draw(st.lists(st.integers(0, max_weight), min_size=n, max_size=n))
        values = draw(st.lists(st.integers(0, max_value), min_size=n, max_size=n))
        budget = draw(st.one_of(
            st.integers(0, max_budget),
            st.sampled_from(weights) if weights else st.just(0),
            st.just(sum(weights) // 2),
        ))
        return Instance(tuple(weights), tuple(values), budget, "hypothesis")

    return build()
