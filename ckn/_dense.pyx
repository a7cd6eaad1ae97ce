"""Compiled fast paths for dense vectors: pool validation and cosine (SPEC §3, §5).

Private module, used by ``ckn/pool.py`` and ``ckn/similarity.py``. Each function handles the
common case (lists of Python floats, float64 buffers) in one C pass and returns ``None`` (or
calls the caller's ``fallback``) for anything else, so every error message, edge case and
result stays exactly that of the pure-Python code. Sums are plain left-to-right loops in index
order without fused multiply-add (setup.py: ``-ffp-contract=off``), so results match the
Python loops bit for bit.
"""

from cpython cimport array
from cpython.object cimport PyObject
from libc.math cimport isfinite, sqrt

import array as _pyarray

__all__ = ["float64_array", "cosine_scores"]

cdef array.array _DOUBLE_TEMPLATE = _pyarray.array("d")
cdef double _LOW = 2.0 ** -900
cdef double _HIGH = 2.0 ** 900


cdef extern from "Python.h":
    # Borrowed references, no reference counting in the loops.
    PyObject* PyList_GET_ITEM(object o, Py_ssize_t i)
    Py_ssize_t PyList_GET_SIZE(object o)
    bint PyFloat_CheckExact(PyObject* o)
    bint PyLong_CheckExact(PyObject* o)
    double PyFloat_AS_DOUBLE(PyObject* o)


def float64_array(x):
    """``array('d', x)`` if ``x`` is a non-empty list of finite floats / ints (no bools) or a
    C-contiguous 1-D float64 buffer of finite values, else ``None`` (the caller then runs its
    full validation for the exact error)."""
    cdef Py_ssize_t n, i
    cdef array.array out
    cdef double* p
    cdef const double[::1] mv
    if type(x) is not list:
        if isinstance(x, (str, bytes, bytearray)):
            return None
        try:
            mv = x
        except (TypeError, ValueError, BufferError):
            return None
        n = mv.shape[0]
        if n == 0:
            return None
        out = array.clone(_DOUBLE_TEMPLATE, n, False)
        p = out.data.as_doubles
        for i in range(n):
            if not isfinite(mv[i]):
                return None
            p[i] = mv[i]
        return out
    n = PyList_GET_SIZE(x)
    if n == 0:
        return None
    out = array.clone(_DOUBLE_TEMPLATE, n, False)
    p = out.data.as_doubles
    cdef double v
    cdef PyObject* e
    for i in range(n):
        e = PyList_GET_ITEM(x, i)
        if PyFloat_CheckExact(e):
            v = PyFloat_AS_DOUBLE(e)
        elif PyLong_CheckExact(e):
            try:
                v = <object>e
            except OverflowError:
                return None
        else:
            return None
        if not isfinite(v):
            return None
        p[i] = v
    return out


cdef int _view(object x, double** ptr, Py_ssize_t* n, list keep) except -1:
    """Point *ptr at x's doubles: a list of exact floats is copied into a new array kept alive
    by ``keep``; a C-contiguous 1-D float64 buffer is read in place. Returns 1, or 0 when x
    needs the Python path."""
    cdef Py_ssize_t m, i
    cdef array.array arr
    cdef const double[::1] mv
    cdef PyObject* e
    if type(x) is list:
        m = PyList_GET_SIZE(x)
        arr = array.clone(_DOUBLE_TEMPLATE, m, False)
        for i in range(m):
            e = PyList_GET_ITEM(x, i)
            if not PyFloat_CheckExact(e):
                return 0
            arr.data.as_doubles[i] = PyFloat_AS_DOUBLE(e)
        keep.append(arr)
        ptr[0] = arr.data.as_doubles
        n[0] = m
        return 1
    if isinstance(x, (str, bytes, bytearray, tuple)):
        return 0
    try:
        mv = x
    except (TypeError, ValueError, BufferError):
        return 0
    keep.append(mv)
    n[0] = mv.shape[0]
    ptr[0] = <double*>&mv[0] if mv.shape[0] > 0 else NULL
    return 1


cdef inline double _dot(const double* u, const double* v, Py_ssize_t n) noexcept nogil:
    cdef double total = 0.0
    cdef Py_ssize_t i
    for i in range(n):
        total += u[i] * v[i]
    return total


cdef inline bint _all_zero(const double* u, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if u[i] != 0.0:       # NaN is not zero, as for Python's any()
            return False
    return True


cdef int _cosine_kernel(const double* q, Py_ssize_t d, double q_sq, const double* e,
                        double* out) noexcept nogil:
    # 0 = result in *out; 1 = a squared norm is out of range: the caller takes the Python path.
    cdef double v_sq = 0.0, uv = 0.0, value
    cdef Py_ssize_t i
    for i in range(d):          # two independent left-to-right sums, interleaved
        v_sq += e[i] * e[i]
        uv += q[i] * e[i]
    if not (_LOW <= q_sq <= _HIGH and _LOW <= v_sq <= _HIGH):
        return 1
    value = uv / (sqrt(q_sq) * sqrt(v_sq))
    value = value if value < 1.0 else 1.0        # min(1.0, value)
    out[0] = value if value > -1.0 else -1.0     # max(-1.0, ...)
    return 0


def cosine_scores(query, list embeddings, fallback):
    """``ckn.similarity.cosine_scores`` for a float query; ``None`` if the query needs the
    Python path. ``fallback(i, embedding)`` computes one entry the Python way (and raises its
    errors); it is used for embeddings that are not float lists/buffers, have the wrong length,
    or need rescaling."""
    cdef list keep = []
    cdef double* q
    cdef double* e
    cdef Py_ssize_t d, m, i, n = len(embeddings)
    if not _view(query, &q, &d, keep):
        return None
    cdef double q_sq
    cdef bint q_zero
    with nogil:
        q_zero = _all_zero(q, d)
        q_sq = _dot(q, q, d)
    cdef list scores = [None] * n
    cdef double value
    cdef int status
    cdef list ekeep = []
    for i in range(n):
        emb = embeddings[i]
        if emb is None:
            continue
        if not _view(emb, &e, &m, ekeep) or m != d:
            scores[i] = fallback(i, emb)
            ekeep.clear()
            continue
        with nogil:
            if q_zero or _all_zero(e, d):
                value = 0.0
                status = 0
            else:
                status = _cosine_kernel(q, d, q_sq, e, &value)
        ekeep.clear()
        scores[i] = value if status == 0 else fallback(i, emb)
    return scores
