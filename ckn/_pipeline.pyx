"""Compiled steps of the pack flow (ckn/pipeline.py): running the text passes in one GIL-free
stretch, the sanitized survivors, and the Chunk records.

Private module, used by ``ckn/pipeline.py`` only. The C helpers that fill a slotted class's
instances are in ``chunk_slots.h``.
"""

from cpython.object cimport PyObject
from libc.stdint cimport uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memchr, memcmp
from cpython.unicode cimport (Py_UNICODE_ISSPACE, PyUnicode_1BYTE_KIND, PyUnicode_DATA,
                              PyUnicode_KIND, PyUnicode_READ)

from ckn._passes cimport ckn_pass, pass_of
from ckn._tuning cimport NOGIL_MIN_WORK
from ckn.typedefs cimport CKN_OK


cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(PyObject* o)


cdef bint _holds(const char* p, Py_ssize_t n, const char* needle, Py_ssize_t m) noexcept nogil:
    """``needle[:m]`` (m >= 1) occurs in ``p[:n]``: a memchr for its first byte, then a memcmp."""
    cdef const char* last = p + (n - m)       # the last place a match can start
    while n >= m and p <= last:
        p = <const char*>memchr(p, needle[0], <size_t>(last - p + 1))
        if p == NULL:
            return False
        if memcmp(p, needle, <size_t>m) == 0:
            return True
        p += 1
    return False


cdef void _mark_holders(const char** data, const Py_ssize_t* lengths, Py_ssize_t n,
                        const char* needle, Py_ssize_t m, uint8_t* holds) noexcept nogil:
    """``holds[k] = needle in text k`` for the 1-byte-kind texts (``data[k]`` not NULL)."""
    cdef Py_ssize_t k
    for k in range(n):
        if data[k] != NULL:
            holds[k] = _holds(data[k], lengths[k], needle, m)


cdef bint _blank(str text) noexcept:
    """``not text or text.isspace()``: stops at the first non-whitespace code point."""
    cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(<PyObject*>text)
    cdef unsigned int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    for i in range(n):
        if not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
            return False
    return True


def sanitized_survivors(list order, list texts, dict changed, str marker, content_of, hashes_of,
                        list clean_texts, list redactions):
    """spec §6's drop rule over a sanitized pool, in fused order.

    For fused position ``pos`` (candidate ``i = order[pos]``) the sanitized text is
    ``changed[i].text`` where the sanitizer changed candidate ``i`` (its ``.redactions`` go to
    ``redactions[pos]``), else ``texts[i]``; it goes to ``clean_texts[pos]``. Its content is
    ``content_of(text)`` when the text holds ``marker`` (non-empty ASCII), else the text.
    Returns ``(survivors, rows, replaced, empty)``: the fused positions whose content has a
    non-whitespace character, their candidate indices, ``{k: hashes_of(content)}`` for each
    survivor ``k`` whose content is not ``texts[i]``, and the positions whose content is blank.
    A memchr per text (GIL released) and O(1) blank test for the usual text; O(total length)
    at worst."""
    if not marker or not marker.isascii():
        raise ValueError("sanitized_survivors: expected a non-empty ASCII marker")
    cdef Py_ssize_t n = len(order), pos, i
    if len(texts) != n or len(clean_texts) != n or len(redactions) != n:
        raise ValueError("sanitized_survivors: columns of different lengths")
    cdef list survivors = [], rows = [], empty = []
    cdef dict replaced = {}
    cdef str raw, text, content
    cdef object cleaned
    cdef Py_ssize_t total = 0, m = len(marker)
    cdef const char* needle = <const char*>PyUnicode_DATA(marker)
    # the marker test reads every text (1-byte kind: Latin-1 code units are bytes, so a byte
    # search is exact): one pass with the GIL released when they are long enough together
    cdef const char** data = <const char**>malloc((n if n > 0 else 1) * sizeof(char*))
    cdef Py_ssize_t* lengths = <Py_ssize_t*>malloc((n if n > 0 else 1) * sizeof(Py_ssize_t))
    cdef uint8_t* holds = <uint8_t*>malloc(n if n > 0 else 1)
    try:
        if data == NULL or lengths == NULL or holds == NULL:
            raise MemoryError()
        for pos in range(n):
            i = order[pos]
            if not (0 <= i < n):
                raise IndexError("sanitized_survivors: order out of range")
            raw = texts[i]
            cleaned = changed.get(i) if changed else None
            if cleaned is None:
                text = raw
            else:
                text = cleaned.text
                redactions[pos] = cleaned.redactions
            clean_texts[pos] = text   # holds the text while the pass below reads it
            if PyUnicode_KIND(text) == PyUnicode_1BYTE_KIND:
                data[pos] = <const char*>PyUnicode_DATA(text)
                lengths[pos] = PyUnicode_GET_LENGTH(<PyObject*>text)
                total += lengths[pos]
            else:
                data[pos] = NULL
                holds[pos] = marker in text
        if total >= NOGIL_MIN_WORK:
            with nogil:
                _mark_holders(data, lengths, n, needle, m, holds)
        else:
            _mark_holders(data, lengths, n, needle, m, holds)
        for pos in range(n):
            text = clean_texts[pos]
            content = content_of(text) if holds[pos] else text
            if _blank(content):
                empty.append(pos)
                continue
            raw = texts[order[pos]]
            if content is not raw and content != raw:
                replaced[len(survivors)] = hashes_of(content)
            survivors.append(pos)
            rows.append(order[pos])
        return survivors, rows, replaced, empty
    finally:
        free(data)
        free(lengths)
        free(holds)


def run_passes(tuple passes, Py_ssize_t work):
    """Run prepared passes (``ckn._passes``: ``ScanPass``, ``Bm25Pass``, ``CandidatesPass``,
    ``SignaturePass``) in order, in one stretch with the GIL released when ``work`` (about the
    code points they read) is at least ``NOGIL_MIN_WORK``, stopping at the first that fails;
    each one's ``finish()`` then gives its result or raises. A pass may read what an earlier
    one wrote (a BM25 pass the scan's term hashes)."""
    cdef list capsules = []  # (the passes hold their own state)
    cdef ckn_pass** ps = _pass_array(passes, capsules)
    cdef Py_ssize_t n = len(passes)
    try:
        if work >= NOGIL_MIN_WORK:
            with nogil:
                _run_all(ps, n)
        else:
            _run_all(ps, n)
    finally:
        free(ps)


cdef ckn_pass** _pass_array(tuple passes, list capsules) except NULL:
    """The passes' C halves, malloc'd (the caller frees it); ``capsules`` holds their capsules."""
    cdef Py_ssize_t n = len(passes), i
    capsules.extend([p._pass() for p in passes])
    cdef ckn_pass** ps = <ckn_pass**>malloc((n if n > 0 else 1) * sizeof(ckn_pass*))
    if ps == NULL:
        raise MemoryError()
    for i in range(n):
        ps[i] = pass_of(capsules[i])
    return ps


cdef void _run_all(ckn_pass** ps, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if ps[i].run(ps[i].state) != CKN_OK:
            return




cdef extern from "chunk_slots.h":
    object ckn_object_new(object cls, object args)
    Py_ssize_t ckn_slot_offset(object cls, object descr)
    void ckn_set_slot(object obj, Py_ssize_t offset, object v)


def build_chunks(cls, tuple keys, list order, list ids, list bm25, list bm25_ranks, list dense,
                 list dense_ranks, list rrf, list status, list reason, list texts,
                 list redactions, dict duplicate, list tokens, list overlap, list utility,
                 list value):
    """One ``cls`` instance per fused position, its 19 slots (the fields named by ``keys``, in
    order) set directly: ``ckn.pipeline.Chunk`` (a frozen, slotted dataclass) without its
    frozen ``__init__``. Columns indexed by candidate: ids, bm25, bm25_ranks, dense,
    dense_ranks, rrf; by fused position: the rest; ``duplicate`` maps a position to
    ``(duplicate_of, estimate, exact_jaccard)``. O(n)."""
    cdef Py_ssize_t n = len(order), pos, i, f
    cdef Py_ssize_t off[19]
    if len(keys) != 19:
        raise ValueError("build_chunks: expected 19 keys")
    for col in (ids, bm25, bm25_ranks, dense, dense_ranks, rrf, status, reason, texts,
                redactions, tokens, overlap, utility, value):
        if len(col) != n:
            raise ValueError("build_chunks: columns of different lengths")
    if not isinstance(cls, type) or cls.__new__ is not object.__new__:
        raise TypeError("build_chunks: expected a class using object.__new__")
    for f in range(19):
        descr = cls.__dict__.get(keys[f])
        off[f] = -1 if descr is None else ckn_slot_offset(cls, descr)
        if off[f] < 0:
            raise TypeError(f"build_chunks: {keys[f]!r} is not a slot of {cls.__name__}")
    cdef tuple no_args = ()
    cdef list out = [None] * n
    cdef object obj, dup
    for pos in range(n):
        i = order[pos]
        if not (0 <= i < n):
            raise IndexError("build_chunks: order out of range")
        obj = ckn_object_new(cls, no_args)                   # object.__new__(cls): empty slots
        ckn_set_slot(obj, off[0], ids[i])
        ckn_set_slot(obj, off[1], i)
        ckn_set_slot(obj, off[2], pos + 1)
        ckn_set_slot(obj, off[3], bm25[i])
        ckn_set_slot(obj, off[4], bm25_ranks[i])
        ckn_set_slot(obj, off[5], dense[i])
        ckn_set_slot(obj, off[6], dense_ranks[i])
        ckn_set_slot(obj, off[7], rrf[i])
        ckn_set_slot(obj, off[8], status[pos])
        ckn_set_slot(obj, off[9], reason[pos])
        ckn_set_slot(obj, off[10], texts[pos])
        ckn_set_slot(obj, off[11], redactions[pos])
        dup = duplicate.get(pos) if duplicate else None
        if dup is None:
            dup = (None, None, None)
        ckn_set_slot(obj, off[12], dup[0])
        ckn_set_slot(obj, off[13], dup[1])
        ckn_set_slot(obj, off[14], dup[2])
        ckn_set_slot(obj, off[15], tokens[pos])
        ckn_set_slot(obj, off[16], overlap[pos])
        ckn_set_slot(obj, off[17], utility[pos])
        ckn_set_slot(obj, off[18], value[pos])
        out[pos] = obj
    return tuple(out)
