"""Rank lists and Reciprocal Rank Fusion (spec §5).

RRF (Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and individual
Rank Learning Methods", SIGIR 2009)::

    rrf_score = w_bm25 / (rrf_k + bm25_rank) + w_dense / (rrf_k + dense_rank)

with ranks counted from 1; a candidate absent from a list gets no term from it. Fused order:
``rrf_score`` descending, then ``bm25_rank``, then ``dense_rank`` (an absent rank counts after
every present one), then input order. Ranks and scores are plain lists indexed by candidate.
"""

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from .errors import CknTypeError, CknValueError

from . import _fusion  # compiled ranks, RRF and fused order for float lists

__all__ = ["DEFAULT_RRF_WEIGHTS", "rank_positions", "reciprocal_rank_fusion", "fused_order"]

DEFAULT_RRF_WEIGHTS: Mapping[str, float] = MappingProxyType({"bm25": 1.0, "dense": 1.0})


def _is_real(x: object) -> bool:
    """An int or float, but not a bool."""
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def rank_positions(scores: Sequence[float | None], /) -> list[int | None]:
    """1-based rank of each score, highest first; equal scores keep input order.

    ``None`` marks a candidate absent from the list: its rank is ``None`` and it takes no
    position, so present candidates are ranked 1..m. O(n log n).

    Raises
    ------
    CknValueError
        A score is NaN (it has no place in a descending order).

    Examples
    --------
    >>> rank_positions([0.2, None, 0.9, 0.2])
    [2, None, 1, 3]
    """
    if _fusion is not None:
        fast = _fusion.rank_positions(scores)  # lists of floats / None; None: the checks below
        if fast is not None:
            return fast
    present = [i for i, s in enumerate(scores) if s is not None]
    for i in present:
        if scores[i] != scores[i]:
            raise CknValueError(f"scores[{i}]: expected a number, got NaN")
    ranks: list[int | None] = [None] * len(scores)
    # sorted() is stable, also with reverse=True: equal scores stay in input order.
    for rank, i in enumerate(sorted(present, key=scores.__getitem__, reverse=True), start=1):
        ranks[i] = rank
    return ranks


def _check_ranks(ranks: Sequence[int | None], name: str, n: int) -> None:
    if len(ranks) != n:
        raise CknValueError(f"{name}: expected {n} ranks (one per candidate), got {len(ranks)}")
    for i, r in enumerate(ranks):
        if r is not None and not (isinstance(r, int) and not isinstance(r, bool) and r >= 1):
            raise CknValueError(f"{name}[{i}]: expected None or an integer rank >= 1, got {r!r}")


def reciprocal_rank_fusion(
    bm25_ranks: Sequence[int | None],
    dense_ranks: Sequence[int | None] | None = None,
    /,
    *,
    k: float = 60,
    weights: Mapping[str, float] = DEFAULT_RRF_WEIGHTS,
) -> list[float]:
    """RRF score of each candidate from its BM25 and dense ranks (spec §5).

    Parameters
    ----------
    bm25_ranks : sequence of int or None
        1-based lexical ranks (``None`` = absent from the list).
    dense_ranks : sequence of int or None, or None
        1-based dense ranks, same length; ``None`` for the whole list means BM25-only ranking.
    k : float, keyword-only, default 60
        The RRF constant ``rrf_k``, finite and ≥ 0.
    weights : mapping, keyword-only, default ``{"bm25": 1.0, "dense": 1.0}``
        Per-list weights, finite and ≥ 0; a missing key keeps its default of 1.0.

    Returns
    -------
    list of float
        ``w_bm25/(k + bm25_rank) + w_dense/(k + dense_rank)`` per candidate, the BM25 term
        added first; a candidate absent from both lists scores 0.0. O(n).

    Raises
    ------
    CknValueError
        Bad ``k``, weights, list lengths or ranks.
    CknTypeError
        ``weights`` is not a mapping.

    Examples
    --------
    >>> reciprocal_rank_fusion([1, 2], [2, 1]) == [1 / 61 + 1 / 62] * 2
    True
    """
    if not (_is_real(k) and math.isfinite(k) and k >= 0):
        raise CknValueError(f"k: expected a finite number >= 0, got {k!r}")
    if not isinstance(weights, Mapping):
        raise CknTypeError(f"weights: expected a mapping, got {type(weights).__name__}")
    unknown = sorted(set(weights) - DEFAULT_RRF_WEIGHTS.keys(), key=repr)
    if unknown:
        allowed = ", ".join(map(repr, DEFAULT_RRF_WEIGHTS))
        raise CknValueError(f"weights: unknown key {unknown[0]!r}; expected {allowed}")
    w = {**DEFAULT_RRF_WEIGHTS, **weights}
    for name, value in w.items():
        if not (_is_real(value) and math.isfinite(value) and value >= 0):
            raise CknValueError(f"weights[{name!r}]: expected a finite number >= 0, got {value!r}")
    if _fusion is not None and _exact_double(k) and _exact_double(w["bm25"]) and _exact_double(
            w["dense"]):
        fast = _fusion.rrf_scores(bm25_ranks, dense_ranks, k, w["bm25"], w["dense"])
        if fast is not None:  # lists of valid ranks; anything else: the checks below
            return fast
    n = len(bm25_ranks)
    _check_ranks(bm25_ranks, "bm25_ranks", n)
    if dense_ranks is None:
        dense_ranks = [None] * n
    _check_ranks(dense_ranks, "dense_ranks", n)
    return rrf_unchecked(bm25_ranks, dense_ranks, k, w["bm25"], w["dense"])


def rrf_unchecked(bm25_ranks, dense_ranks, k: float, w_bm25: float, w_dense: float) -> list[float]:
    """:func:`reciprocal_rank_fusion` without argument checks, for ranks that
    :func:`rank_positions` made (or lists of ``None``); the same floats, bit for bit."""
    scores: list[float] = []
    for rb, rd in zip(bm25_ranks, dense_ranks):
        score = 0.0
        if rb is not None:
            score += w_bm25 / (k + rb)
        if rd is not None:
            score += w_dense / (k + rd)
        scores.append(score)
    return scores


def fused_order(
    rrf_scores: Sequence[float],
    bm25_ranks: Sequence[int | None],
    dense_ranks: Sequence[int | None] | None = None,
    /,
) -> list[int]:
    """Candidate indices in fused order (spec §5).

    Sort key: ``rrf_score`` descending, then ``bm25_rank``, then ``dense_rank`` (a ``None``
    rank, or ``dense_ranks=None``, sorts after every present rank), then input index.
    O(n log n).

    Raises
    ------
    CknValueError
        A score is NaN, or a rank list has the wrong length or a rank below 1.

    Examples
    --------
    >>> fused_order([1 / 61 + 1 / 62, 1 / 62 + 1 / 61], [2, 1], [1, 2])
    [1, 0]
    """
    if _fusion is not None:
        fast = _fusion.fused_order(rrf_scores, bm25_ranks, dense_ranks)
        if fast is not None:  # valid float scores and ranks; anything else: the checks below
            return fast
    n = len(rrf_scores)
    for i, s in enumerate(rrf_scores):
        if s != s:
            raise CknValueError(f"rrf_scores[{i}]: expected a number, got NaN")
    if dense_ranks is None:
        dense_ranks = [None] * n
    _check_ranks(bm25_ranks, "bm25_ranks", n)
    _check_ranks(dense_ranks, "dense_ranks", n)
    return fused_order_unchecked(rrf_scores, bm25_ranks, dense_ranks)


def fused_order_unchecked(rrf_scores, bm25_ranks, dense_ranks) -> list[int]:
    """:func:`fused_order` without argument checks (no NaN, equal lengths, ranks >= 1)."""
    inf = math.inf
    keys = [(-s, inf if rb is None else rb, inf if rd is None else rd, i)
            for i, (s, rb, rd) in enumerate(zip(rrf_scores, bm25_ranks, dense_ranks))]
    keys.sort()
    return [key[3] for key in keys]


_EXACT_INT = 2**52  # ints up to this size are doubles exactly, also after adding a rank


def _exact_double(x) -> bool:
    """True when C arithmetic on ``float(x)`` gives Python's results for ``x / (k + rank)``."""
    return type(x) is float or (type(x) is int and -_EXACT_INT <= x <= _EXACT_INT)


def fuse_unchecked(bm25_scores, dense_scores, k: float, w_bm25: float, w_dense: float):
    """``(bm25_ranks, dense_ranks, rrf_scores, order)`` of validated inputs (spec §5):
    :func:`rank_positions` of each list, :func:`rrf_unchecked` and
    :func:`fused_order_unchecked`, bit for bit, in one compiled pass where possible.
    ``dense_scores`` is ``None`` for BM25-only ranking (then ``dense_ranks`` is all ``None``).
    """
    if (_fusion is not None and _exact_double(k) and _exact_double(w_bm25)
            and _exact_double(w_dense)):
        fast = _fusion.fuse(bm25_scores, dense_scores, k, w_bm25, w_dense)
        if fast is not None:
            return fast
    bm25_ranks = rank_positions(bm25_scores)
    if dense_scores is None:
        dense_ranks = [None] * len(bm25_scores)
    else:
        dense_ranks = rank_positions(dense_scores)
    rrf = rrf_unchecked(bm25_ranks, dense_ranks, k, w_bm25, w_dense)
    return bm25_ranks, dense_ranks, rrf, fused_order_unchecked(rrf, bm25_ranks, dense_ranks)
