"""Okapi BM25 scores of a candidate pool against one query (spec §5), pure Python.

Variant: Okapi BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and
Beyond", Foundations and Trends in IR 3(4), 2009) with the Lucene IDF, named after Kamphuis,
de Vries, Boytsov & Lin, "Which BM25 Do You Mean? A Large-Scale Reproducibility Study of Scoring
Variants", ECIR 2020. For each *distinct* query term ``t``::

    idf(t)  = ln(1 + (N − n_t + 0.5) / (n_t + 0.5))                  (always > 0)
    score  += idf(t) · f·(k1 + 1) / (f + k1·(1 − b + b·|d| / avgdl))

``N`` = number of documents in the pool, ``n_t`` = documents containing ``t``, ``f`` =
occurrences of ``t`` in the document, ``|d|`` = its number of terms, ``avgdl`` = mean ``|d|``
over the pool. Scores are dimensionless and never negative; a term with ``f = 0`` adds nothing.
"""

import math
from array import array
from collections import Counter
from collections.abc import Sequence

from .errors import CknTypeError, CknValueError
from ._bm25 import bm25_csr

__all__ = ["bm25_scores", "bm25_scores_hashed"]


def _is_real(x: object) -> bool:
    """An int or float, but not a bool."""
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _check_params(k1: float, b: float) -> None:
    if not (_is_real(k1) and math.isfinite(k1) and k1 >= 0):
        raise CknValueError(f"k1: expected a finite number >= 0, got {k1!r}")
    if not (_is_real(b) and 0 <= b <= 1):
        raise CknValueError(f"b: expected a number in [0, 1], got {b!r}")


def bm25_scores(
    documents: Sequence[Sequence[str]],
    query: Sequence[str],
    /,
    *,
    k1: float = 1.5,
    b: float = 0.75,
) -> list[float]:
    """BM25 score of every document for ``query``, in document order (spec §5).

    Parameters
    ----------
    documents : sequence of sequences of str
        The pool, each document already split into terms (e.g. by :func:`ckn.terms`).
        The pool is the whole collection: ``N``, ``n_t`` and ``avgdl`` are computed over it.
    query : sequence of str
        Query terms; repeated terms count once.
    k1 : float, keyword-only, default 1.5
        Term-frequency saturation, finite and ≥ 0.
    b : float, keyword-only, default 0.75
        Length normalisation, 0 ≤ b ≤ 1.

    Returns
    -------
    list of float
        One score ≥ 0 per document. An empty pool gives ``[]``; if ``avgdl`` is 0 (every
        document empty) every score is 0.0. Each score sums its terms in the order in which
        the distinct query terms first appear in ``query``.

    Raises
    ------
    CknTypeError
        ``query`` or a document is a ``str`` (a string is not a list of terms).
    CknValueError
        ``k1`` or ``b`` is out of range.

    Notes
    -----
    O(Σ|d| + N·|q|) time and O(N·|q|) extra memory: each document is counted once, keeping
    only the query's terms; the pool's vocabulary is never built.

    Examples
    --------
    >>> [round(s, 4) for s in bm25_scores([["x", "y"], ["y", "y", "z", "w"]], ["x", "y"])]
    [1.03, 0.2353]
    """
    if isinstance(query, str):
        raise CknTypeError("query: expected a sequence of terms, got a str")
    _check_params(k1, b)
    wanted = dict.fromkeys(query)
    n_docs = len(documents)
    lengths: list[int] = []
    counts: list[Counter[str]] = []
    doc_freq = dict.fromkeys(wanted, 0)
    for i, doc in enumerate(documents):
        if isinstance(doc, str):
            raise CknTypeError(f"documents[{i}]: expected a sequence of terms, got a str")
        lengths.append(len(doc))
        found = Counter(filter(wanted.__contains__, doc))
        counts.append(found)
        for term in found:
            doc_freq[term] += 1
    total = sum(lengths)
    if total == 0:
        return [0.0] * n_docs
    avgdl = total / n_docs
    idf = {
        term: math.log(1.0 + (n_docs - n + 0.5) / (n + 0.5))
        for term, n in doc_freq.items()
        if n
    }
    scores: list[float] = []
    for length, found in zip(lengths, counts):
        norm = k1 * (1.0 - b + b * length / avgdl)
        score = 0.0
        for term, weight in idf.items():
            f = found[term]
            if f:
                score += weight * f * (k1 + 1.0) / (f + norm)
        scores.append(score)
    return scores


def bm25_scores_hashed(
    documents: "TermHashes",
    query: Sequence[int],
    /,
    *,
    k1: float = 1.5,
    b: float = 0.75,
) -> list[float]:
    """:func:`bm25_scores` over term hashes, compiled: the pool as the CSR pair that
    :func:`ckn.scanner.scan` returns, the query as its term hashes.

    Term identities are the spec §7 FNV-1a-64 term hashes (spec §7 allows BM25 to use them).
    The kernel evaluates the same expressions in the same order as :func:`bm25_scores`, so
    ``bm25_scores_hashed(scan(texts), text_hashes(q))`` equals
    ``bm25_scores([terms(t) for t in texts], terms(q))`` bit for bit (barring a 64-bit hash
    collision between two distinct terms of one pool). O(Σ|d| log |q| + |q|) time and
    O(Σ|d| + |q|) memory (sparse postings, never a documents × query-terms table); runs
    without the GIL.

    Parameters
    ----------
    documents : TermHashes
        ``(values, offsets)``: document ``d`` is ``values[offsets[d]:offsets[d + 1]]``
        (``values`` a uint64 buffer, ``offsets`` an ``index_t`` buffer of N + 1 entries).
    query : sequence of int
        Query term hashes; repeated hashes count once.
    k1, b : float, keyword-only
        As for :func:`bm25_scores`.

    Examples
    --------
    >>> from ckn.scanner import scan, text_hashes
    >>> [round(s, 4) for s in bm25_scores_hashed(scan(["x y", "y y z w"]), text_hashes("x y"))]
    [1.03, 0.2353]
    """
    if isinstance(query, str):
        raise CknTypeError("query: expected a sequence of term hashes, got a str")
    _check_params(k1, b)
    try:
        values, offsets = documents
    except (TypeError, ValueError):
        raise CknTypeError("documents: expected a (values, offsets) pair, e.g. ckn.scanner.scan(...)"
                           ) from None
    try:
        memoryview(values)
    except TypeError:
        values = array("Q", values)
    try:
        memoryview(offsets)
    except TypeError:
        offsets = array("q", offsets)
    distinct = array("Q", dict.fromkeys(query))
    return bm25_csr(values, offsets, distinct, float(k1), float(b))
