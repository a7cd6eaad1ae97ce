"""Compiled pool validation and cosine: reading candidate dicts, float lists and buffers.

Private module, used by ``ckn/pool.py`` (``candidate_columns``, ``float64_array``) and
``ckn/similarity.py`` (``cosine_scores``). Each function handles the common case (lists of
Python floats, float64 and float32 buffers, JSON-shaped candidate dicts) in one C pass and
returns ``None`` (or calls the caller's ``fallback``) for anything else, so every error message,
edge case and result stays exactly that of the pure-Python code. Sums are plain left-to-right
loops in index order without fused multiply-add (setup.py: ``-ffp-contract=off``), so results
match the Python loops bit for bit; the cosine kernels interleave four rows (each row's sums
keep their own order) and run with the GIL released. The C helpers that read Python objects
are in ``pyobjects.h``.
"""

from cpython cimport array
from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBuffer_Release, PyObject_GetBuffer
from cpython.object cimport PyObject
from libc.math cimport isfinite, sqrt
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memchr, memcmp, memcpy
from cpython.unicode cimport (Py_UNICODE_ISSPACE, PyUnicode_1BYTE_KIND, PyUnicode_DATA,
                              PyUnicode_KIND, PyUnicode_READ)

from ckn._prefetch cimport ckn_prefetch
from ckn._tuning cimport NOGIL_MIN_WORK
from ckn.typedefs cimport CKN_OK

import array as _pyarray

from ckn.errors import CknValueError

__all__ = ["float64_array", "cosine_scores", "candidate_columns"]

cdef array.array _DOUBLE_TEMPLATE = _pyarray.array("d")
cdef double _LOW = 2.0 ** -900
cdef double _HIGH = 2.0 ** 900


cdef extern from "Python.h":
    # Borrowed references, no reference counting in the loops.
    PyObject* PyList_GET_ITEM(object o, Py_ssize_t i)
    Py_ssize_t PyList_GET_SIZE(object o)
    bint PyFloat_CheckExact(PyObject* o)
    bint PyLong_CheckExact(PyObject* o)
    bint PyDict_CheckExact(PyObject* o)
    bint PyUnicode_CheckExact(PyObject* o)
    bint PyList_CheckExact(PyObject* o)
    Py_ssize_t PyUnicode_GET_LENGTH(PyObject* o)
    double PyFloat_AS_DOUBLE(PyObject* o)
    PyObject* PyDict_GetItem(object d, object key)   # borrowed; NULL when missing, no error
    PyObject* Py_None
    object PyLong_FromDouble(double v)
    long long PyLong_AsLongLongAndOverflow(object o, int* overflow) except? -1
    object PyLong_FromLongLong(long long v)


def float64_array(x):
    """``array('d', x)`` if ``x`` is a non-empty list of finite floats / ints (no bools) or a
    C-contiguous 1-D native float64 or float32 buffer of finite values (``_real_buffer``), else
    ``None`` (the caller then runs its full validation for the exact error)."""
    cdef Py_ssize_t n
    cdef array.array out
    cdef double* p
    cdef Py_buffer view
    if type(x) is list:
        n = PyList_GET_SIZE(x)
        if n == 0:
            return None
        out = array.clone(_DOUBLE_TEMPLATE, n, False)
        return out if _float_row(x, out.data.as_doubles, n) else None
    if not _real_buffer(x, &view, -1, True, True):
        return None
    try:
        n = view.shape[0]
        if n == 0:
            return None
        out = array.clone(_DOUBLE_TEMPLATE, n, False)
        p = out.data.as_doubles
        return out if _copy_finite_rows(&view, &p, 1, n) else None
    finally:
        PyBuffer_Release(&view)


cdef int _view(object x, Py_buffer* view, double** ptr, Py_ssize_t* n, list keep) except -1:
    """Point *ptr at x's doubles: a list of exact floats is copied into a new array kept alive
    by ``keep``; a C-contiguous 1-D native float64 buffer (``array('d')``, numpy) is read in
    place, held open in ``view`` (so it cannot be resized or freed while a kernel reads it
    without the GIL; the caller releases it when ``view.obj`` is set); a float32 one is widened
    exactly into a new array kept by ``keep``. Returns 1, or 0 when x needs the Python path."""
    cdef Py_ssize_t m, i
    cdef array.array arr
    cdef PyObject* e
    ckn_buffer_clear(view)
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
    if not _real_buffer(x, view, -1, False, True):
        return 0
    n[0] = view.shape[0]
    if view.itemsize == 4:  # float32: widened exactly into a copy, the buffer let go
        arr = array.clone(_DOUBLE_TEMPLATE, n[0], False)
        _widen(<const float*>view.buf, arr.data.as_doubles, n[0])
        PyBuffer_Release(view)
        keep.append(arr)
        ptr[0] = arr.data.as_doubles
        return 1
    ptr[0] = <double*>view.buf if n[0] > 0 else NULL
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


def cosine_scores(query, list embeddings, fallback):
    """``ckn.similarity.cosine_scores`` for a float query; ``None`` if the query needs the
    Python path. ``fallback(i, embedding)`` computes one entry the Python way (and raises its
    errors); it is used for embeddings that are not float lists/buffers, have the wrong length,
    or need rescaling."""
    cdef list keep = []
    cdef Py_buffer qview
    cdef double* q
    cdef double* e
    cdef Py_ssize_t d, m, i, n = len(embeddings)
    cdef const double** rows = NULL
    cdef double* values = NULL
    cdef unsigned char* status = NULL
    cdef Py_buffer* views = NULL
    cdef Py_ssize_t opened = 0           # views[:opened] are initialised (obj NULL or held)
    cdef array.array scratch
    cdef list scores
    ckn_buffer_clear(&qview)
    try:
        if not _view(query, &qview, &q, &d, keep):
            return None
        # Point at every row first (holding the GIL), then one nogil pass over all of them.
        rows = <const double**>malloc((n if n > 0 else 1) * sizeof(double*))
        values = <double*>malloc((n if n > 0 else 1) * sizeof(double))
        status = <unsigned char*>malloc(n if n > 0 else 1)
        views = <Py_buffer*>malloc((n if n > 0 else 1) * sizeof(Py_buffer))
        if rows == NULL or values == NULL or status == NULL or views == NULL:
            raise MemoryError()
        scratch = array.clone(_DOUBLE_TEMPLATE, 3 * n + 1, False)
        scores = [None] * n
        for i in range(n):
            emb = embeddings[i]
            ckn_buffer_clear(&views[i])
            opened = i + 1
            if emb is None:
                status[i] = 2                   # None stays None
            elif not _view(emb, &views[i], &e, &m, keep) or m != d:
                status[i] = 1                   # the Python path (and its errors)
            else:
                rows[i] = e
                status[i] = 0
        if n * d >= NOGIL_MIN_WORK:
            with nogil:
                _cosine_all(q, d, rows, n, values, status, scratch.data.as_doubles)
        else:
            _cosine_all(q, d, rows, n, values, status, scratch.data.as_doubles)
        for i in range(n):
            if status[i] == 0:
                scores[i] = values[i]
            elif status[i] == 1:
                scores[i] = fallback(i, embeddings[i])
        return scores
    finally:
        ckn_buffer_release(&qview)
        for i in range(opened):
            ckn_buffer_release(&views[i])
        free(views)
        free(rows)
        free(values)
        free(status)


# ---------------------------------------------------------------------------------------------
# Pool validation into columns (ckn.pool._columns), cosine over the rows, fusion.
# ---------------------------------------------------------------------------------------------

cdef extern from "pyobjects.h":
    PyObject** ckn_list_items(PyObject* o) noexcept
    bint ckn_exact_float_row(PyObject* list, double* row, Py_ssize_t d,
                             Py_ssize_t ahead) noexcept
    bint ckn_exact_float_sums(PyObject** lists, const Py_ssize_t* at, Py_ssize_t m,
                              Py_ssize_t d, Py_ssize_t ahead, const double* q,
                              double* sums) noexcept


cdef enum:
    _PREFETCH_AHEAD = 128  # items of each of two lists: ~8 KiB of float objects ahead in all


cdef int _int_value(PyObject* e, double* out) except -1:
    """``*out`` = the exact int ``e`` as a double: 1, or 0 when it does not fit one."""
    try:
        out[0] = <object>e
    except OverflowError:
        return 0
    return 1


cdef int _float_rows(PyObject** lists, double** rows, Py_ssize_t m, Py_ssize_t d) except -1:
    """Copy each ``lists[k]`` (a list of exact finite floats, or ints that fit a double) into
    ``rows[k]``, for k < m; 1 on success, 0 when one holds anything else or is not of length
    ``d`` (the caller takes the Python path). The float objects ``_PREFETCH_AHEAD`` items
    ahead, into the next list, are prefetched: read cold, the objects are memory-bound, and
    the hardware prefetcher stops at page ends."""
    cdef Py_ssize_t i, k, ahead = _PREFETCH_AHEAD if _PREFETCH_AHEAD < d else d, pf_off
    cdef PyObject** items
    cdef PyObject** pf_items
    cdef PyObject* e
    cdef double* row
    cdef double v
    for k in range(m):
        if PyList_GET_SIZE(<object>lists[k]) != d:
            return 0
    if m:
        items = ckn_list_items(lists[0])
        for i in range(ahead):
            ckn_prefetch(items[i])
    for k in range(m):
        items = ckn_list_items(lists[k])
        row = rows[k]
        pf_items, pf_off = items, ahead     # prefetch pf_items[i + pf_off]
        for i in range(d):
            if i == d - ahead:              # from here on, the next list's first items
                pf_items = ckn_list_items(lists[k + 1]) if k + 1 < m else items
                pf_off = ahead - d if k + 1 < m else 0
            ckn_prefetch(pf_items[i + pf_off])
            e = items[i]
            if PyFloat_CheckExact(e):
                v = PyFloat_AS_DOUBLE(e)
            elif not PyLong_CheckExact(e) or not _int_value(e, &v):
                return 0
            if not isfinite(v):
                return 0
            row[i] = v
    return 1


cdef inline int _float_row(object x, double* row, Py_ssize_t d) except -1:
    """``_float_rows`` of the one list ``x`` (first by ``ckn_exact_float_row``)."""
    cdef PyObject* one = <PyObject*>x
    if PyList_GET_SIZE(x) == d and ckn_exact_float_row(one, row, d, _PREFETCH_AHEAD):
        return 1
    return _float_rows(&one, &row, 1, d)


cdef extern from "pyobjects.h":
    bint ckn_is_native_real_format(const char* f, char code, bint explicit_order)
    void ckn_buffer_clear(Py_buffer* view)
    void ckn_buffer_release(Py_buffer* view)


cdef int _real_buffer(object x, Py_buffer* view, Py_ssize_t d, bint explicit_order,
                      bint float32) except -1:
    """Acquire ``x``'s buffer into ``view`` if it is a C-contiguous 1-D float64 buffer (or, with
    ``float32``, float32: ``view.itemsize`` tells which) of ``d`` values (any length when ``d``
    < 0) in native byte order (format ``d`` or ``@d``, ``f`` or ``@f``; also ``=d`` and ``<d``
    on little-endian machines with ``explicit_order``, which pool validation accepts and
    ``ckn.similarity`` does not): 1 (the caller releases it), else 0 with nothing held
    (``view.obj`` NULL, so ``ckn_buffer_release`` does nothing)."""
    try:
        PyObject_GetBuffer(x, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    except (TypeError, ValueError, BufferError):
        ckn_buffer_clear(view)  # whatever a failing exporter left there
        return 0
    if view.ndim == 1 and (d < 0 or view.shape[0] == d) and (
            (view.itemsize == 8 and ckn_is_native_real_format(view.format, b"d", explicit_order))
            or (float32 and view.itemsize == 4
                and ckn_is_native_real_format(view.format, b"f", explicit_order))):
        return 1
    PyBuffer_Release(view)
    return 0


cdef inline void _widen(const float* src, double* row, Py_ssize_t d) noexcept nogil:
    """row[i] = src[i] for i < d: float32 to float64 is exact (array('d', x) gives the same)."""
    cdef Py_ssize_t i
    for i in range(d):
        row[i] = src[i]


cdef bint _copy_finite_rows(Py_buffer* views, double** rows, Py_ssize_t m, Py_ssize_t d) noexcept nogil:
    """Copy each buffer's d doubles (float32 buffers: widened) into its row; False if any value
    is not finite (checked on the copies, see ``_all_finite``)."""
    cdef Py_ssize_t k
    cdef bint finite = True
    for k in range(m):
        if views[k].itemsize == 4:
            _widen(<const float*>views[k].buf, rows[k], d)
        else:
            memcpy(rows[k], views[k].buf, d * sizeof(double))
        finite &= _all_finite(rows[k], d)
    return finite


cdef bint _all_finite(const double* x, Py_ssize_t d) noexcept nogil:
    """True if no value is inf or NaN (all exponent bits set), tested on the bit patterns
    with an AND, an add and an OR per value, so the loop vectorises even with SSE2 (which has
    no 64-bit compare): the exponent field plus one carries into bit 63 only when it is all
    ones."""
    cdef const uint64_t* bits = <const uint64_t*>x
    cdef uint64_t special = 0
    cdef Py_ssize_t i
    for i in range(d):
        special |= (bits[i] & 0x7FF0000000000000ULL) + 0x0010000000000000ULL
    return special >> 63 == 0


cdef bint _check_and_score(const double* q, Py_ssize_t d, const double** rows, Py_ssize_t n,
                           double* out, unsigned char* status, double* scratch,
                           const float** narrow, const double* given) noexcept nogil:
    """Rows with status 4 are first widened from their float32 buffer ``narrow[k]``; those and
    the rows with status 3 (float64 buffers read in place) must be finite: False if one is
    not. Then ``_cosine_all`` over the rows, in batches of 32 so each batch is checked and
    scored while it is in cache (every row's sums are independent, so batching changes no
    value). A row with status 5 has no doubles: its sums were taken as its list was read
    (``given[2k]``, ``given[2k + 1]``, see ``ckn_exact_float_sums``); it is scored from them
    (status 0), or left to the Python path with status 6 where ``_cosine_all`` would look at
    its values (a squared norm out of range: Python gives 0.0 for a zero row, as the kernel
    does, and rescales the others)."""
    cdef Py_ssize_t k0, k, m
    cdef double q_sq = _dot(q, q, d)
    cdef bint q_zero = _all_zero(q, d), q_ok = _LOW <= q_sq <= _HIGH
    for k0 in range(0, n, 32):
        m = n - k0 if n - k0 < 32 else 32
        for k in range(k0, k0 + m):
            if status[k] == 4:
                _widen(narrow[k], <double*>rows[k], d)
                status[k] = 3
            if status[k] == 3:
                if not _all_finite(rows[k], d):
                    return False
                status[k] = 0
        _cosine_all(q, d, rows + k0, m, out + k0, status + k0, scratch)
        for k in range(k0, k0 + m):
            if status[k] == 5:
                if q_zero:
                    out[k] = 0.0
                elif q_ok and _LOW <= given[2 * k + 1] <= _HIGH:
                    out[k] = _clamped_cosine(given[2 * k], q_sq, given[2 * k + 1])
                else:
                    status[k] = 6
                    continue
                status[k] = 0
    return True


cdef inline double _clamped_cosine(double uv, double q_sq, double vsq) noexcept nogil:
    """uv / (|q|·|v|) clamped to [-1, 1], from the sums (both squared norms in range)."""
    cdef double value = uv / (sqrt(q_sq) * sqrt(vsq))
    value = value if value < 1.0 else 1.0        # min(1.0, value)
    return value if value > -1.0 else -1.0       # max(-1.0, ...)


cdef double* _block_row(double** block, Py_ssize_t rows_left, Py_ssize_t dim,
                       Py_ssize_t* used) except NULL:
    """The next row of ``dim`` doubles of ``*block``, allocated for ``rows_left`` rows on first
    use; ``*used`` counts the rows handed out."""
    if block[0] == NULL:
        block[0] = <double*>malloc(rows_left * dim * sizeof(double))
        if block[0] == NULL:
            raise MemoryError()
    used[0] += 1
    return block[0] + (used[0] - 1) * dim


def candidate_columns(raw, Py_ssize_t dim, array.array query=None, fallback=None):
    """The common case of spec §3 candidate validation in one pass, or ``None``.

    ``raw`` must be a list of exact dicts, each with an exact non-empty str ``id`` (all
    distinct), an exact int ``tokens`` >= 0, an exact str ``text`` and, when ``dim`` > 0, an
    optional ``embedding``: ``None``, a list of ``dim`` finite floats / ints (no bools) or a
    C-contiguous 1-D native float64 or float32 buffer of ``dim`` finite values
    (``array('d')``, ``array('f')``, numpy);
    when ``dim`` == 0 no candidate may carry an embedding. Anything else returns ``None`` and
    the caller runs the full Python validation, which accepts it or raises the exact error.

    Float lists are read while holding the GIL (each value is a Python object), after the
    dicts, in one pass that prefetches ahead (``ckn_exact_float_sums``, ``_float_rows``); buffers
    are held open, then checked and copied (float32 widened exactly to float64) in one pass
    with the GIL released.

    Returns ``(ids, tokens, texts, embeddings)``: four lists, ``embeddings[k]`` a new
    ``array('d')`` or ``None``. With ``query`` (an ``array('d')`` of ``dim`` values) the fourth
    list holds instead each embedding's ``cosine_scores`` value (``None`` stays ``None``): the
    float64 buffers are checked and scored in place, float32 buffers widened into one block,
    lists of exact floats summed as they are read (the cosine's two sums, without a copy;
    other lists are copied into the block), no row arrays are made; ``fallback(k, row)``
    scores a row the kernel leaves to Python (a squared norm out of range, see
    ``_cosine_all``; for a summed list, ``row`` is the list).
    """
    if type(raw) is not list:
        return None
    cdef bint score = query is not None
    if score and (query.ob_descr.typecode != b"d" or len(query) != dim or dim == 0):
        raise ValueError("candidate_columns: expected query as array('d') of dim > 0 values")
    cdef Py_ssize_t n = PyList_GET_SIZE(raw), k, held = 0, listed = 0
    cdef list ids = [None] * n, tokens = [None] * n, texts = [None] * n
    cdef list embeddings = [None] * n
    cdef array.array row
    cdef PyObject* c
    cdef PyObject* pid
    cdef PyObject* ptok
    cdef PyObject* ptext
    cdef PyObject* pemb
    cdef bint finite
    cdef long long tv
    cdef int ovf
    cdef Py_ssize_t size = n if n > 0 else 1
    # Buffers held open until the copy pass (at most one per candidate); the rows: copy
    # targets by buffer (columns), or every candidate's doubles with its status (scores).
    cdef Py_buffer* views = <Py_buffer*>malloc(size * sizeof(Py_buffer))
    cdef double** rows = <double**>malloc(size * sizeof(double*))
    cdef unsigned char* status = <unsigned char*>malloc(size) if score else NULL
    cdef double* values = <double*>malloc(size * sizeof(double)) if score else NULL
    cdef double* block = NULL          # score mode: float lists' and float32 buffers' doubles
    cdef const float** narrow = <const float**>malloc(size * sizeof(float*)) if score else NULL
    # score mode: the float lists (held in ``embeddings``), their candidates and rows, read
    # after the dicts; the cosine's sums of candidate k's list at 2k, 2k + 1 of ``given``
    cdef PyObject** lists = <PyObject**>malloc(size * sizeof(PyObject*)) if score else NULL
    cdef Py_ssize_t* list_k = <Py_ssize_t*>malloc(size * sizeof(Py_ssize_t)) if score else NULL
    cdef double** list_rows = <double**>malloc(size * sizeof(double*)) if score else NULL
    cdef double* given = <double*>malloc(2 * size * sizeof(double)) if score else NULL
    cdef Py_ssize_t n_lists = 0, j, summed
    cdef array.array scratch
    try:
        if views == NULL or rows == NULL or (score and (status == NULL or values == NULL
                                                        or narrow == NULL or lists == NULL
                                                        or list_k == NULL or list_rows == NULL
                                                        or given == NULL)):
            raise MemoryError()
        for k in range(n):
            c = PyList_GET_ITEM(raw, k)
            if not PyDict_CheckExact(c):
                return None
            pid = PyDict_GetItem(<object>c, "id")
            ptok = PyDict_GetItem(<object>c, "tokens")
            ptext = PyDict_GetItem(<object>c, "text")
            if pid == NULL or ptok == NULL or ptext == NULL:
                return None
            if not PyUnicode_CheckExact(pid) or PyUnicode_GET_LENGTH(pid) == 0:
                return None
            if not PyLong_CheckExact(ptok):
                return None
            tv = PyLong_AsLongLongAndOverflow(<object>ptok, &ovf)
            if ovf < 0 or (ovf == 0 and tv < 0):  # negative (ovf > 0: above int64, kept)
                return None
            if not PyUnicode_CheckExact(ptext):
                return None
            pemb = PyDict_GetItem(<object>c, "embedding")
            if score:
                status[k] = 2                                    # no embedding: None
            if pemb != NULL and pemb != Py_None:
                if dim == 0:
                    return None
                if PyList_CheckExact(pemb):
                    if PyList_GET_SIZE(<object>pemb) != dim:
                        return None
                    if score:  # read below, all lists in one pass
                        rows[k] = _block_row(&block, n - k, dim, &listed)
                        lists[n_lists] = pemb
                        list_k[n_lists] = k
                        list_rows[n_lists] = rows[k]
                        n_lists += 1
                        embeddings[k] = <object>pemb  # held: a key's __eq__ may drop it
                        status[k] = 0
                    else:
                        row = array.clone(_DOUBLE_TEMPLATE, dim, False)
                        if not _float_row(<object>pemb, row.data.as_doubles, dim):
                            return None
                        embeddings[k] = row
                elif _real_buffer(<object>pemb, &views[held], dim, True, True):
                    held += 1  # released in ``finally`` from now on, even if clone fails
                    if score and views[held - 1].itemsize == 4:
                        rows[k] = _block_row(&block, n - k, dim, &listed)
                        narrow[k] = <const float*>views[held - 1].buf
                        status[k] = 4                            # to widen, then check
                    elif score:
                        rows[k] = <double*>views[held - 1].buf
                        status[k] = 3                            # to check, in place
                    else:
                        row = array.clone(_DOUBLE_TEMPLATE, dim, False)
                        rows[held - 1] = row.data.as_doubles
                        embeddings[k] = row
                else:  # not a float64 / float32 buffer of dim values: the Python checks decide
                    return None
            ids[k] = <object>pid
            # a new int of the same value (small ones are shared): the pack reads the 500
            # counts again at its end, and new ints lie together, the input's are scattered
            tokens[k] = PyLong_FromLongLong(tv) if ovf == 0 else <object>ptok
            texts[k] = <object>ptext
        if score:
            # exact finite floats only (the common case): their sums as they are read, without
            # rows (status 5); else their rows, ints included, scored with the others
            summed = 0  # rows whose sums are taken: what is left for them is O(1) each
            for j in range(n_lists):  # (a key's __eq__ may have resized one since the walk)
                if PyList_GET_SIZE(<object>lists[j]) != dim:
                    return None
            if n_lists and ckn_exact_float_sums(lists, list_k, n_lists, dim, _PREFETCH_AHEAD,
                                                query.data.as_doubles, given):
                for j in range(n_lists):
                    status[list_k[j]] = 5
                summed = n_lists
            elif n_lists and not _float_rows(lists, list_rows, n_lists, dim):
                return None
            scratch = array.clone(_DOUBLE_TEMPLATE, 3 * 32 + 1, False)
            if (n - summed) * dim >= NOGIL_MIN_WORK:
                with nogil:
                    finite = _check_and_score(query.data.as_doubles, dim, <const double**>rows,
                                              n, values, status, scratch.data.as_doubles, narrow,
                                              given)
            else:
                finite = _check_and_score(query.data.as_doubles, dim, <const double**>rows, n,
                                          values, status, scratch.data.as_doubles, narrow, given)
        elif held * dim >= NOGIL_MIN_WORK:
            with nogil:
                finite = _copy_finite_rows(views, rows, held, dim)
        else:
            finite = _copy_finite_rows(views, rows, held, dim)
        if not finite or len(set(ids)) != n:
            return None
        if score:
            for k in range(n):
                if status[k] == 0:
                    embeddings[k] = values[k]
                elif status[k] == 1:
                    row = array.clone(_DOUBLE_TEMPLATE, dim, False)
                    memcpy(row.data.as_doubles, rows[k], dim * sizeof(double))
                    embeddings[k] = fallback(k, row)
                elif status[k] == 6:  # the list itself (held in embeddings[k]), read again
                    embeddings[k] = fallback(k, embeddings[k])
        return ids, tokens, texts, embeddings
    finally:
        for k in range(held):
            PyBuffer_Release(&views[k])
        free(views)
        free(rows)
        free(status)
        free(values)
        free(block)
        free(narrow)
        free(lists)
        free(list_k)
        free(list_rows)
        free(given)


cdef void _cosine_sums(const double* q, Py_ssize_t d, const double** rows, Py_ssize_t n,
                       double* uv, double* vsq) noexcept nogil:
    """uv[k] = Σ q_i·rows[k][i], vsq[k] = Σ rows[k][i]², each a plain left-to-right sum (four
    rows interleaved for instruction-level parallelism; every sum keeps its own order)."""
    cdef Py_ssize_t k = 0, i
    cdef double a0, a1, a2, a3, s0, s1, s2, s3, x0, x1, x2, x3, qi
    cdef const double* r0
    cdef const double* r1
    cdef const double* r2
    cdef const double* r3
    while k + 4 <= n:
        r0 = rows[k]
        r1 = rows[k + 1]
        r2 = rows[k + 2]
        r3 = rows[k + 3]
        a0 = a1 = a2 = a3 = s0 = s1 = s2 = s3 = 0.0
        for i in range(d):
            qi = q[i]
            x0 = r0[i]
            x1 = r1[i]
            x2 = r2[i]
            x3 = r3[i]
            s0 += x0 * x0
            a0 += qi * x0
            s1 += x1 * x1
            a1 += qi * x1
            s2 += x2 * x2
            a2 += qi * x2
            s3 += x3 * x3
            a3 += qi * x3
        uv[k] = a0
        uv[k + 1] = a1
        uv[k + 2] = a2
        uv[k + 3] = a3
        vsq[k] = s0
        vsq[k + 1] = s1
        vsq[k + 2] = s2
        vsq[k + 3] = s3
        k += 4
    while k < n:
        r0 = rows[k]
        a0 = s0 = 0.0
        for i in range(d):
            x0 = r0[i]
            s0 += x0 * x0
            a0 += q[i] * x0
        uv[k] = a0
        vsq[k] = s0
        k += 1


cdef void _cosine_all(const double* q, Py_ssize_t d, const double** rows, Py_ssize_t n,
                      double* out, unsigned char* status, double* scratch) noexcept nogil:
    """The cosine of q with each rows[k] whose status[k] is 0, into out[k]; status[k] becomes
    1 where a squared norm is out of range (the caller's Python path rescales). ``scratch``:
    3n doubles. Same values as _cosine_kernel (zero vectors give 0.0)."""
    cdef double* uv = scratch
    cdef double* vsq = scratch + n
    cdef const double** live = <const double**>(scratch + 2 * n)   # n pointers fit in n doubles
    cdef Py_ssize_t k, m = 0
    cdef bint q_zero = _all_zero(q, d)
    cdef double q_sq = _dot(q, q, d)
    cdef bint q_ok = _LOW <= q_sq <= _HIGH
    for k in range(n):
        if status[k] == 0:
            live[m] = rows[k]
            m += 1
    if not q_zero:
        _cosine_sums(q, d, live, m, uv, vsq)
    m = 0
    for k in range(n):
        if status[k] != 0:
            continue
        if q_zero:
            out[k] = 0.0
        elif q_ok and _LOW <= vsq[m] <= _HIGH:
            out[k] = _clamped_cosine(uv[m], q_sq, vsq[m])
        elif _all_zero(rows[k], d):
            out[k] = 0.0
        else:
            status[k] = 1
        m += 1
