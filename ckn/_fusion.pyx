"""Compiled fusion (spec §5): ranks of a score list, RRF scores and the fused order.

Private module, used by ``ckn/fusion.py``: each function handles lists of exact floats / ints
in one C pass and returns ``None`` for anything else, so the Python code keeps every error
message and edge case; results equal the Python loops bit for bit. Sorts are a merge sort on
a total order (score descending, then ranks and index), so every run gives the same order.
"""

from cpython.object cimport PyObject
from libc.stdint cimport int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from ckn._tuning cimport NOGIL_MIN_WORK


cdef extern from "Python.h":
    # Borrowed references, no reference counting in the loops.
    PyObject* PyList_GET_ITEM(object o, Py_ssize_t i)
    Py_ssize_t PyList_GET_SIZE(object o)
    bint PyFloat_CheckExact(PyObject* o)
    bint PyLong_CheckExact(PyObject* o)
    double PyFloat_AS_DOUBLE(PyObject* o)
    PyObject* Py_None
    object PyLong_FromDouble(double v)
    long long PyLong_AsLongLongAndOverflow(object o, int* overflow) except? -1
    object PyLong_FromLongLong(long long v)


ctypedef struct _ScoreKey:
    double score
    Py_ssize_t index


ctypedef struct _FusedKey:
    double score
    Py_ssize_t rb
    Py_ssize_t rd
    Py_ssize_t index


ctypedef fused _SortKey:
    _ScoreKey
    _FusedKey


cdef inline bint _before(const _SortKey* x, const _SortKey* y) noexcept nogil:
    """x sorts before y: score descending (no NaN here, so equal when neither is greater:
    0.0 and -0.0 tie), then rb, rd (fused keys) and index ascending. A total order (indices
    are distinct), so every correct sort gives the same array."""
    if x.score != y.score:
        return x.score > y.score
    if _SortKey is _FusedKey:
        if x.rb != y.rb:
            return x.rb < y.rb
        if x.rd != y.rd:
            return x.rd < y.rd
    return x.index < y.index


cdef int _sort_keys(_SortKey* keys, Py_ssize_t n) except -1 nogil:
    """Sort ``keys`` by ``_before``: insertion sort of runs of 16, then bottom-up merges
    through a scratch array (the comparison inlined, unlike qsort's callback). O(n log n)."""
    cdef Py_ssize_t i, j, run, lo, mid, hi, a, b, k
    cdef _SortKey v
    cdef _SortKey* src = keys
    cdef _SortKey* dst
    cdef _SortKey* scratch
    lo = 0
    while lo < n:
        hi = lo + 16 if lo + 16 < n else n
        for i in range(lo + 1, hi):
            v = keys[i]
            j = i
            while j > lo and _before(&v, &keys[j - 1]):
                keys[j] = keys[j - 1]
                j -= 1
            keys[j] = v
        lo = hi
    if n <= 16:
        return 0
    scratch = <_SortKey*>malloc(n * sizeof(_SortKey))
    if scratch == NULL:
        with gil:
            raise MemoryError()
    dst = scratch
    run = 16
    while run < n:
        lo = 0
        while lo < n:
            mid = lo + run if lo + run < n else n
            hi = lo + 2 * run if lo + 2 * run < n else n
            a, b, k = lo, mid, lo
            while a < mid and b < hi:
                if _before(&src[b], &src[a]):
                    dst[k] = src[b]
                    b += 1
                else:
                    dst[k] = src[a]
                    a += 1
                k += 1
            while a < mid:
                dst[k] = src[a]
                a += 1
                k += 1
            while b < hi:
                dst[k] = src[b]
                b += 1
                k += 1
            lo = hi
        src, dst = dst, src
        run *= 2
    if src != keys:
        memcpy(keys, src, n * sizeof(_SortKey))
    free(scratch)
    return 0


cdef int _sort_fused(_FusedKey* keys, Py_ssize_t n) except -1:
    """``_sort_keys``, releasing the GIL for long arrays only."""
    if 8 * n >= NOGIL_MIN_WORK:
        with nogil:
            _sort_keys(keys, n)
    else:
        _sort_keys(keys, n)
    return 0


cdef Py_ssize_t _ABSENT = <Py_ssize_t>((<size_t>-1) >> 1)   # PY_SSIZE_T_MAX: after every rank


cdef inline double _rrf(Py_ssize_t rb, Py_ssize_t rd, double k, double w_bm25,
                        double w_dense) noexcept nogil:
    """Spec §5's fused score of ranks ``rb`` (BM25) and ``rd`` (dense); an _ABSENT rank adds 0."""
    cdef double score = 0.0
    if rb != _ABSENT:
        score += w_bm25 / (k + <double>rb)
    if rd != _ABSENT:
        score += w_dense / (k + <double>rd)
    return score


cdef int _ranks(object scores, Py_ssize_t* ranks) except -1:
    """ranks[i] = 1-based rank of scores[i] (descending, ties by index), _ABSENT for None.
    Returns 1, or 0 when a score is not an exact float/int that is not NaN (Python path)."""
    cdef Py_ssize_t n = PyList_GET_SIZE(scores), i, m = 0
    cdef PyObject* e
    cdef double v
    cdef _ScoreKey* keys = <_ScoreKey*>malloc((n if n > 0 else 1) * sizeof(_ScoreKey))
    if keys == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            e = PyList_GET_ITEM(scores, i)
            if e == Py_None:
                ranks[i] = _ABSENT
                continue
            if PyFloat_CheckExact(e):
                v = PyFloat_AS_DOUBLE(e)
            else:
                return 0
            if v != v:
                return 0
            keys[m].score = v
            keys[m].index = i
            m += 1
        if 8 * m >= NOGIL_MIN_WORK:
            with nogil:
                _sort_keys(keys, m)
        else:
            _sort_keys(keys, m)
        for i in range(m):
            ranks[keys[i].index] = i + 1
        return 1
    finally:
        free(keys)


cdef list _rank_list(const Py_ssize_t* ranks, Py_ssize_t n):
    cdef list out = [None] * n
    cdef Py_ssize_t i
    for i in range(n):
        if ranks[i] != _ABSENT:
            out[i] = ranks[i]
    return out


def rank_positions(scores):
    """``ckn.fusion.rank_positions`` for a list of exact floats / ``None``; ``None`` when the
    input needs the Python path (other types, NaN)."""
    if type(scores) is not list:
        return None
    cdef Py_ssize_t n = PyList_GET_SIZE(scores)
    cdef Py_ssize_t* ranks = <Py_ssize_t*>malloc((n if n > 0 else 1) * sizeof(Py_ssize_t))
    if ranks == NULL:
        raise MemoryError()
    try:
        if not _ranks(scores, ranks):
            return None
        return _rank_list(ranks, n)
    finally:
        free(ranks)


def fuse(bm25, dense, double k, double w_bm25, double w_dense):
    """Ranks, RRF scores and fused order (spec §5) in one pass, or ``None`` for the Python path.

    ``bm25`` and ``dense`` are equal-length lists of exact floats (``dense`` may hold ``None``,
    or be ``None``: BM25 alone). ``k`` and the weights must be floats the caller checked are
    exactly the Python values (floats, or ints of at most 2**53), so that
    ``w / (k + rank)`` equals Python's. Returns ``(bm25_ranks, dense_ranks, rrf, order)`` as
    lists, equal to ``rank_positions``, ``rrf_unchecked`` and ``fused_order_unchecked``.
    """
    if type(bm25) is not list or (dense is not None and type(dense) is not list):
        return None
    cdef Py_ssize_t n = PyList_GET_SIZE(bm25), i
    if dense is not None and PyList_GET_SIZE(dense) != n:
        return None
    cdef Py_ssize_t* rb = <Py_ssize_t*>malloc((2 * n if n > 0 else 1) * sizeof(Py_ssize_t))
    cdef _FusedKey* keys = <_FusedKey*>malloc((n if n > 0 else 1) * sizeof(_FusedKey))
    cdef Py_ssize_t* rd = rb + n
    cdef double score
    try:
        if rb == NULL or keys == NULL:
            raise MemoryError()
        if not _ranks(bm25, rb):
            return None
        if dense is None:
            for i in range(n):
                rd[i] = _ABSENT
        elif not _ranks(dense, rd):
            return None
        rrf = [None] * n
        for i in range(n):
            score = _rrf(rb[i], rd[i], k, w_bm25, w_dense)
            keys[i].score = score
            keys[i].rb = rb[i]
            keys[i].rd = rd[i]
            keys[i].index = i
            rrf[i] = score
        _sort_fused(keys, n)
        order = [None] * n
        for i in range(n):
            order[i] = keys[i].index
        return _rank_list(rb, n), _rank_list(rd, n), rrf, order
    finally:
        free(rb)
        free(keys)


cdef Py_ssize_t _RANK_MAX = 2 ** 52      # ranks up to this are doubles exactly, also plus k


cdef int _int_ranks(object ranks, Py_ssize_t n, Py_ssize_t* out) except -1:
    """out[i] = ranks[i] for a list of n exact ints in [1, 2**52] or None (_ABSENT); returns 0
    for anything else (the Python checks then run and raise their exact errors)."""
    cdef PyObject* e
    cdef Py_ssize_t i
    cdef long long v
    if type(ranks) is not list or PyList_GET_SIZE(ranks) != n:
        return 0
    for i in range(n):
        e = PyList_GET_ITEM(ranks, i)
        if e == Py_None:
            out[i] = _ABSENT
            continue
        if not PyLong_CheckExact(e):
            return 0
        try:
            v = <object>e
        except OverflowError:
            return 0
        if v < 1 or v > _RANK_MAX:
            return 0
        out[i] = <Py_ssize_t>v
    return 1


cdef int _rank_pair(object bm25_ranks, object dense_ranks, Py_ssize_t n, Py_ssize_t* rb,
                    Py_ssize_t* rd) except -1:
    """:func:`_int_ranks` of both lists into ``rb`` and ``rd`` (``dense_ranks`` ``None``: every
    dense rank _ABSENT); 0 when either is not such a list."""
    cdef Py_ssize_t i
    if not _int_ranks(bm25_ranks, n, rb):
        return 0
    if dense_ranks is None:
        for i in range(n):
            rd[i] = _ABSENT
        return 1
    return _int_ranks(dense_ranks, n, rd)


def rrf_scores(bm25_ranks, dense_ranks, double k, double w_bm25, double w_dense):
    """``ckn.fusion.rrf_unchecked`` for lists of exact int ranks in [1, 2**52] / ``None``
    (``dense_ranks`` may be ``None``: no dense list), with ``k`` and the weights exactly
    representable (the caller checks); ``None`` for anything else."""
    if type(bm25_ranks) is not list:
        return None
    cdef Py_ssize_t n = PyList_GET_SIZE(bm25_ranks), i
    cdef Py_ssize_t* rb = <Py_ssize_t*>malloc((2 * n if n > 0 else 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* rd = rb + n
    if rb == NULL:
        raise MemoryError()
    try:
        if not _rank_pair(bm25_ranks, dense_ranks, n, rb, rd):
            return None
        out = [None] * n
        for i in range(n):
            out[i] = _rrf(rb[i], rd[i], k, w_bm25, w_dense)
        return out
    finally:
        free(rb)


def fused_order(rrf, bm25_ranks, dense_ranks):
    """``ckn.fusion.fused_order`` for a list of exact floats (no NaN) and lists of exact int
    ranks in [1, 2**52] / ``None`` (``dense_ranks`` may be ``None``); ``None`` for anything else
    (the Python path then checks and raises)."""
    if type(rrf) is not list:
        return None
    cdef Py_ssize_t n = PyList_GET_SIZE(rrf), i
    cdef Py_ssize_t* rb = <Py_ssize_t*>malloc((2 * n if n > 0 else 1) * sizeof(Py_ssize_t))
    cdef _FusedKey* keys = <_FusedKey*>malloc((n if n > 0 else 1) * sizeof(_FusedKey))
    cdef Py_ssize_t* rd = rb + n
    cdef PyObject* e
    try:
        if rb == NULL or keys == NULL:
            raise MemoryError()
        for i in range(n):
            e = PyList_GET_ITEM(rrf, i)
            if not PyFloat_CheckExact(e) or PyFloat_AS_DOUBLE(e) != PyFloat_AS_DOUBLE(e):
                return None
            keys[i].score = PyFloat_AS_DOUBLE(e)
        if not _rank_pair(bm25_ranks, dense_ranks, n, rb, rd):
            return None
        for i in range(n):
            keys[i].rb = rb[i]
            keys[i].rd = rd[i]
            keys[i].index = i
        _sort_fused(keys, n)
        order = [None] * n
        for i in range(n):
            order[i] = keys[i].index
        return order
    finally:
        free(rb)
        free(keys)
