"""Cosine similarity of dense embeddings (spec §5), pure Python, numpy not required.

``cosine(u, v) = (Σ u_i·v_i) / (sqrt(Σ u_i²) · sqrt(Σ v_i²))``, clamped to [−1, 1]; a zero
vector has similarity 0.0 with everything. Vectors may be lists, tuples, ``array.array``,
``memoryview`` or any one-dimensional buffer (numpy arrays included, read through
``memoryview`` without importing numpy), or any other iterable of real numbers.

Determinism: every sum is a plain left-to-right float loop in index order (not ``sum()``,
which is compensated since Python 3.12, nor ``math.fsum``), so results do not depend on the
Python version and a compiled port can reproduce them bit for bit. If a squared norm falls
outside [2^-900, 2^900] (overflow or underflow risk), both vectors are first divided by their
largest magnitude, which leaves the cosine unchanged.
"""

import math
from collections.abc import Callable, Iterable, Sequence

from .errors import CknTypeError, CknValueError

from . import _columns  # compiled one-pass paths for float lists and float64 buffers

__all__ = ["cosine_similarity", "cosine_scores"]

# memoryview.tolist() handles these native formats; anything else is read element by element.
_NATIVE_REAL_FORMATS = frozenset("bBhHiIlLqQnNfd?")
# Squared norms inside [_LOW, _HIGH] are summed without overflow or significant underflow.
_LOW, _HIGH = 2.0**-900, 2.0**900

Vector = Iterable[float]  # list, tuple, array.array, memoryview, numpy array, ...


def _as_list(x: object, name: str) -> Sequence[float]:
    """``x`` as a list or tuple of real numbers, without copying lists and tuples."""
    if isinstance(x, (list, tuple)):
        return x
    if isinstance(x, (str, bytes, bytearray)):
        raise CknTypeError(f"{name}: expected a vector of numbers, got {type(x).__name__}")
    try:
        view = memoryview(x)  # type: ignore[arg-type]
    except TypeError:
        view = None
    if view is not None:
        if view.ndim != 1:
            raise CknValueError(f"{name}: expected a one-dimensional vector, got ndim={view.ndim}")
        if view.format.lstrip("@") in _NATIVE_REAL_FORMATS:
            return view.tolist()
    if not isinstance(x, Iterable):
        raise CknTypeError(f"{name}: expected a vector of numbers, got {type(x).__name__}")
    return [float(e) for e in x]


def _dot(u: Sequence[float], v: Sequence[float]) -> float:
    """Σ u_i·v_i, summed left to right in index order."""
    total = 0.0
    for a, c in zip(u, v):
        total += a * c
    return total


def _rescaled(u: Sequence[float], name: str) -> list[float]:
    """``u`` divided by its largest magnitude; non-finite entries are an error."""
    if not all(map(math.isfinite, u)):
        raise CknValueError(f"{name}: expected finite numbers, found NaN or infinity")
    top = max(map(abs, u))
    return [a / top for a in u]


def _cosine(u: Sequence[float], u_sq: float, v: Sequence[float], names: tuple[str, str]) -> float:
    """Cosine of two equal-length, non-zero vectors, given ``u_sq`` = Σ u_i²."""
    v_sq = _dot(v, v)
    if not (_LOW <= u_sq <= _HIGH and _LOW <= v_sq <= _HIGH):
        u, v = _rescaled(u, names[0]), _rescaled(v, names[1])
        u_sq, v_sq = _dot(u, u), _dot(v, v)
    value = _dot(u, v) / (math.sqrt(u_sq) * math.sqrt(v_sq))
    return max(-1.0, min(1.0, value))


def cosine_similarity(u: Vector, v: Vector, /) -> float:
    """Cosine similarity of two vectors, in [−1, 1] (dimensionless).

    Parameters
    ----------
    u, v : vector
        Equal-length one-dimensional vectors of finite real numbers (see module docstring for
        the accepted types).

    Returns
    -------
    float
        ``Σ u_i·v_i / (|u|·|v|)`` clamped to [−1, 1]; 0.0 if either vector is all zeros.

    Raises
    ------
    CknValueError
        Lengths differ, a buffer is not one-dimensional, or a value is NaN or infinite.
    CknTypeError
        An argument is a str/bytes or not iterable.

    Notes
    -----
    O(n) time; lists and tuples are read in place, buffers copied once.

    Examples
    --------
    >>> round(cosine_similarity([1.0, 0.0], [1.0, 1.0]), 6)
    0.707107
    >>> cosine_similarity([0.0, 0.0], [1.0, 1.0])
    0.0
    """
    u, v = _as_list(u, "u"), _as_list(v, "v")
    if len(u) != len(v):
        raise CknValueError(f"v: expected length {len(u)} (the length of u), got {len(v)}")
    if not any(u) or not any(v):
        return 0.0
    return _cosine(u, _dot(u, u), v, ("u", "v"))


def cosine_scores(query: Vector, embeddings: Iterable[Vector | None], /) -> list[float | None]:
    """Cosine similarity of ``query`` with each embedding; a ``None`` embedding stays ``None``.

    ``None`` marks a candidate without an embedding: it is absent from the dense list (spec §3,
    §5). Each value equals ``cosine_similarity(query, embedding)`` exactly; the query's norm is
    summed once. O(n·d) time for n embeddings of dimension d.

    Raises
    ------
    CknValueError
        ``embeddings[i]`` has a length other than the query's, or a value is not finite.

    Examples
    --------
    >>> cosine_scores([1.0, 0.0], [[2.0, 0.0], None, [0.0, 0.0]])
    [1.0, None, 0.0]
    """
    embeddings = list(embeddings)
    if _columns is not None:
        fast = _columns.cosine_scores(query, embeddings, score_fallback(query))
        if fast is not None:
            return fast
    q = _as_list(query, "query")
    q_zero = not any(q)
    q_sq = _dot(q, q)
    return [None if e is None else _score(q, q_zero, q_sq, i, e) for i, e in enumerate(embeddings)]


def score_fallback(query: Vector) -> Callable[[int, Vector], float]:
    """``f(i, embedding)``: entry ``i`` of ``cosine_scores(query, ...)`` the Python way (and
    its errors), for the rows the compiled kernels leave to Python; the query is read once,
    on first use."""
    prepared: list = []

    def fallback(i: int, embedding: Vector) -> float:
        if not prepared:
            q = _as_list(query, "query")
            prepared.extend((q, not any(q), _dot(q, q)))
        return _score(*prepared, i, embedding)

    return fallback


def _score(q: Sequence[float], q_zero: bool, q_sq: float, i: int, embedding: Vector) -> float:
    """Entry ``i`` of :func:`cosine_scores`, given the query, whether it is zero and Σ q_i²."""
    name = f"embeddings[{i}]"
    e = _as_list(embedding, name)
    if len(e) != len(q):
        raise CknValueError(f"{name}: expected length {len(q)} (the query's), got {len(e)}")
    return 0.0 if q_zero or not any(e) else _cosine(q, q_sq, e, ("query", name))
