"""One text pass: SPEC §4 terms straight to SPEC §7 term hashes, without a Python string per term.

``text_hashes(text)`` equals ``ckn.minhash.term_hashes(ckn.terms.terms(text))`` for every
``str``; ``scan(texts)`` does the same for a whole pool into one CSR pair of arrays, which
BM25 (:func:`ckn.bm25.bm25_scores_hashed`) and the MinHash shingles
(:func:`ckn.minhash.shingle_hashes`) both read.

How: a pure-ASCII ``str`` (CPython stores it as its own UTF-8) is scanned in place by a
``noexcept nogil`` kernel; for ASCII, NFKC and invisible-character removal change nothing,
casefold is lowercase and ``\\w`` is ``[A-Za-z0-9_]``. Any other text is first normalised by
:func:`ckn.terms.normalize` (NFKC, invisible characters removed, casefold: CPython's own code,
so exactly SPEC §4), then scanned in C over its code points with CPython's
``Py_UNICODE_ISALNUM`` (which is what ``re``'s Unicode ``\\w`` tests, plus ``_``), splitting
Han/Hiragana/Katakana runs into bigrams and hashing each piece's UTF-8 bytes as it goes. All
scanning of a batch runs with the GIL released. See docs/algorithms.md, "One text pass".
"""

from cpython cimport array
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy

import array as _pyarray
from typing import NamedTuple

from ckn.errors import CknMemoryError, CknTypeError
from ckn.terms import normalize as _normalize
from ckn.typedefs cimport hash_t, index_t

__all__ = ["TermHashes", "scan", "text_hashes", "term_counts"]


cdef extern from "Python.h":
    # CPython's Unicode tables: pure lookups, safe without the GIL. `re`'s `\w` for str
    # patterns is Py_UNICODE_ISALNUM(ch) || ch == '_' (Modules/_sre/sre.c, SRE_UNI_IS_WORD).
    bint Py_UNICODE_ISALNUM(uint32_t ch) nogil
    bint PyUnicode_IS_ASCII(object o)
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)


cdef enum:
    _KIND_ASCII = 0
    _KIND_1 = 1
    _KIND_2 = 2
    _KIND_4 = 4

# ASCII byte -> its lowercase form if it is a \w character ([A-Za-z0-9_]), else 0.
cdef unsigned char _ASCII_WORD[256]


cdef void _init_tables() noexcept:
    cdef int c
    for c in range(256):
        _ASCII_WORD[c] = 0
    for c in range(ord("0"), ord("9") + 1):
        _ASCII_WORD[c] = c
    for c in range(ord("a"), ord("z") + 1):
        _ASCII_WORD[c] = c
        _ASCII_WORD[c - 32] = c
    _ASCII_WORD[ord("_")] = ord("_")


_init_tables()

cdef uint64_t _FNV_OFFSET = 0xCBF29CE484222325ULL
cdef uint64_t _FNV_PRIME = 0x100000001B3ULL


# ---------------------------------------------------------------------------------------------
# Kernels.
# ---------------------------------------------------------------------------------------------

cdef Py_ssize_t scanner_ascii_max_terms(Py_ssize_t n) noexcept nogil:
    return (n + 1) // 2 if n > 0 else 0


cdef Py_ssize_t scanner_ascii_terms(const unsigned char* data, Py_ssize_t n,
                                    hash_t* out) noexcept nogil:
    cdef Py_ssize_t i = 0, count = 0
    cdef unsigned char c
    cdef hash_t h
    while i < n:
        c = _ASCII_WORD[data[i]]
        i += 1
        if c == 0:
            continue
        h = (0xCBF29CE484222325ULL ^ c) * 0x100000001B3ULL
        while i < n:
            c = _ASCII_WORD[data[i]]
            if c == 0:
                break
            h = (h ^ c) * 0x100000001B3ULL
            i += 1
        out[count] = h
        count += 1
    return count


cdef inline uint32_t _at(const void* data, int kind, Py_ssize_t i) noexcept nogil:
    if kind == _KIND_2:
        return (<const unsigned short*>data)[i]
    if kind == _KIND_4:
        return (<const uint32_t*>data)[i]
    return (<const unsigned char*>data)[i]


cdef inline bint _is_word(uint32_t c) noexcept nogil:
    if c < 128:
        return _ASCII_WORD[c] != 0
    return Py_UNICODE_ISALNUM(c)


cdef inline bint _is_cjk(uint32_t c) noexcept nogil:
    # SPEC §4: Han, Hiragana, Katakana ranges.
    return ((0x3040 <= c <= 0x30FF) or (0x3400 <= c <= 0x4DBF) or (0x4E00 <= c <= 0x9FFF)
            or (0xF900 <= c <= 0xFAFF) or (0x20000 <= c <= 0x2FA1F))


cdef inline hash_t _fnv_cp(hash_t h, uint32_t c) noexcept nogil:
    # FNV-1a-64 over the UTF-8 bytes of code point c (never a surrogate: those are not \w).
    if c < 0x80:
        return (h ^ c) * 0x100000001B3ULL
    if c < 0x800:
        h = (h ^ (0xC0 | (c >> 6))) * 0x100000001B3ULL
        return (h ^ (0x80 | (c & 0x3F))) * 0x100000001B3ULL
    if c < 0x10000:
        h = (h ^ (0xE0 | (c >> 12))) * 0x100000001B3ULL
        h = (h ^ (0x80 | ((c >> 6) & 0x3F))) * 0x100000001B3ULL
        return (h ^ (0x80 | (c & 0x3F))) * 0x100000001B3ULL
    h = (h ^ (0xF0 | (c >> 18))) * 0x100000001B3ULL
    h = (h ^ (0x80 | ((c >> 12) & 0x3F))) * 0x100000001B3ULL
    h = (h ^ (0x80 | ((c >> 6) & 0x3F))) * 0x100000001B3ULL
    return (h ^ (0x80 | (c & 0x3F))) * 0x100000001B3ULL


cdef Py_ssize_t _ucs_terms(const void* data, int kind, Py_ssize_t n, hash_t* out) noexcept nogil:
    # Term hashes of an already normalised text of n code points (at most n terms).
    cdef Py_ssize_t i = 0, s, e, j, r, m, count = 0
    cdef hash_t h
    while i < n:
        if not _is_word(_at(data, kind, i)):
            i += 1
            continue
        s = i
        i += 1
        while i < n and _is_word(_at(data, kind, i)):
            i += 1
        e = i
        # the \w+ match is [s, e): split out CJK runs
        j = s
        while j < e:
            if _is_cjk(_at(data, kind, j)):
                r = j + 1
                while r < e and _is_cjk(_at(data, kind, r)):
                    r += 1
                if r - j == 1:
                    out[count] = _fnv_cp(_FNV_OFFSET, _at(data, kind, j))
                    count += 1
                else:
                    for m in range(j, r - 1):
                        h = _fnv_cp(_FNV_OFFSET, _at(data, kind, m))
                        out[count] = _fnv_cp(h, _at(data, kind, m + 1))
                        count += 1
            else:
                h = _FNV_OFFSET
                r = j
                while r < e and not _is_cjk(_at(data, kind, r)):
                    h = _fnv_cp(h, _at(data, kind, r))
                    r += 1
                out[count] = h
                count += 1
            j = r
    return count


cdef inline Py_ssize_t _max_terms(int kind, Py_ssize_t n) noexcept nogil:
    return scanner_ascii_max_terms(n) if kind == _KIND_ASCII else n


cdef Py_ssize_t _scan_all(const void** data, const int* kinds, const Py_ssize_t* lengths,
                          Py_ssize_t n, hash_t** buf, Py_ssize_t* cap,
                          index_t* offsets) noexcept nogil:
    # Scans n texts into *buf (grown with realloc as needed); offsets gets n + 1 entries.
    # Returns the number of hashes written, or -1 if memory ran out (*buf stays valid).
    cdef Py_ssize_t k, need, used = 0, new_cap
    cdef hash_t* grown
    offsets[0] = 0
    for k in range(n):
        need = _max_terms(kinds[k], lengths[k])
        if used + need > cap[0]:
            new_cap = 2 * cap[0]
            if new_cap < used + need:
                new_cap = used + need
            grown = <hash_t*>realloc(buf[0], (new_cap if new_cap > 0 else 1) * sizeof(hash_t))
            if grown == NULL:
                return -1
            buf[0] = grown
            cap[0] = new_cap
        if kinds[k] == _KIND_ASCII:
            used += scanner_ascii_terms(<const unsigned char*>data[k], lengths[k], buf[0] + used)
        else:
            used += _ucs_terms(data[k], kinds[k], lengths[k], buf[0] + used)
        offsets[k + 1] = used
    return used


# ---------------------------------------------------------------------------------------------
# Python API.
# ---------------------------------------------------------------------------------------------

def _typecode(size_t itemsize, str candidates):
    for code in candidates:
        if _pyarray.array(code).itemsize == itemsize:
            return code
    raise ImportError(f"no array typecode among {candidates!r} has itemsize {itemsize}")


_HASH_CODE = _typecode(sizeof(hash_t), "QL")
_INDEX_CODE = _typecode(sizeof(index_t), "qli")
cdef array.array _HASH_TEMPLATE = _pyarray.array(_HASH_CODE)
cdef array.array _INDEX_TEMPLATE = _pyarray.array(_INDEX_CODE)


TermHashes = NamedTuple("TermHashes", [("values", _pyarray.array), ("offsets", _pyarray.array)])
TermHashes.__doc__ = (
    "Term hashes of many texts in CSR form: text k's hashes, in order, are "
    "values[offsets[k]:offsets[k + 1]] (values is array('Q'), offsets array('q') of n + 1).")


cdef _scan_list(list texts, str name):
    cdef Py_ssize_t n = len(texts), k, total = 0, used
    cdef list keep = [None] * n
    cdef const void** data = <const void**>malloc((n if n > 0 else 1) * sizeof(void*))
    cdef int* kinds = <int*>malloc((n if n > 0 else 1) * sizeof(int))
    cdef Py_ssize_t* lengths = <Py_ssize_t*>malloc((n if n > 0 else 1) * sizeof(Py_ssize_t))
    cdef array.array offsets = array.clone(_INDEX_TEMPLATE, n + 1, False)
    cdef hash_t* buf = NULL
    cdef Py_ssize_t cap = 0
    cdef array.array values
    try:
        if data == NULL or kinds == NULL or lengths == NULL:
            raise CknMemoryError(f"{name}: out of memory")
        for k in range(n):
            t = texts[k]
            if not isinstance(t, str):
                raise CknTypeError(f"{name}: expected str, got {type(t).__name__}" if name == "text"
                                   else f"{name}[{k}]: expected str, got {type(t).__name__}")
            if type(t) is not str or not PyUnicode_IS_ASCII(t):
                t = _normalize(t)
            keep[k] = t
            lengths[k] = PyUnicode_GET_LENGTH(t)
            data[k] = PyUnicode_DATA(t)
            kinds[k] = _KIND_ASCII if PyUnicode_IS_ASCII(t) else PyUnicode_KIND(t)
            total += lengths[k]
        cap = total // 4 + 16
        buf = <hash_t*>malloc(cap * sizeof(hash_t))
        if buf == NULL:
            raise CknMemoryError(f"{name}: out of memory")
        with nogil:
            used = _scan_all(data, kinds, lengths, n, &buf, &cap,
                             <index_t*>offsets.data.as_voidptr)
        if used < 0:
            raise CknMemoryError(f"{name}: out of memory")
        values = array.clone(_HASH_TEMPLATE, used, False)
        if used > 0:
            memcpy(values.data.as_voidptr, buf, used * sizeof(hash_t))
        return TermHashes(values, offsets)
    finally:
        free(buf)
        free(data)
        free(kinds)
        free(lengths)


def scan(texts, /):
    """SPEC §4 term hashes of every text, as :class:`TermHashes` (CSR: ``values``, ``offsets``).

    Text k's hashes are ``values[offsets[k]:offsets[k + 1]]``, equal to
    ``ckn.minhash.term_hashes(ckn.terms.terms(texts[k]))``. O(total length); the scanning
    itself runs with the GIL released.

    >>> from ckn.minhash import fnv1a64
    >>> th = scan(["Durable Object", "", "東京"])
    >>> list(th.offsets), th.values[0] == fnv1a64("durable"), th.values[2] == fnv1a64("東京")
    ([0, 2, 2, 3], True, True)
    """
    if texts is None or isinstance(texts, (str, bytes)):
        raise CknTypeError(f"texts: expected a sequence of str, got {type(texts).__name__}")
    return _scan_list(list(texts), "texts")


def text_hashes(text, /):
    """SPEC §4 term hashes of one text, in order, as ``array('Q')``.

    >>> from ckn.minhash import term_hashes
    >>> from ckn.terms import terms
    >>> text_hashes("abc東京タ") == term_hashes(terms("abc東京タ"))
    True
    """
    return _scan_list([text], "text").values


def term_counts(text, /):
    """``(counts, length)``: occurrences of each term hash in ``text``, and its number of terms.

    ``counts`` maps each distinct term hash to its frequency ``f`` (SPEC §5); ``length`` is
    ``|d|``.

    >>> from ckn.minhash import fnv1a64
    >>> counts, length = term_counts("a b a")
    >>> counts[fnv1a64("a")], counts[fnv1a64("b")], length
    (2, 1, 3)
    """
    cdef array.array values = _scan_list([text], "text").values
    counts = {}
    for h in values:
        counts[h] = counts.get(h, 0) + 1
    return counts, len(values)
