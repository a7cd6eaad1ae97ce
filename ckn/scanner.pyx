"""One text pass: spec §4 terms straight to spec §7 term hashes, without a Python string per term.

``text_hashes(text)`` equals ``ckn.minhash.term_hashes(ckn.terms.terms(text))`` for every
``str``; ``scan(texts)`` does the same for a whole pool into one CSR pair of arrays, which
BM25 (:func:`ckn.bm25.bm25_scores_hashed`) and the MinHash shingles
(:func:`ckn.minhash.shingle_hashes`) both read.

How: a pure-ASCII ``str`` (CPython stores it as its own UTF-8) is scanned in place by a
``noexcept nogil`` kernel (on AVX2 CPUs: word edges from 64-byte masks, then each word hashed
without a branch on its length); for ASCII, NFKC and invisible-character removal change nothing,
casefold is lowercase and ``\\w`` is ``[A-Za-z0-9_]``. Any other text is first normalised by
:func:`ckn.terms.normalize` (NFKC, invisible characters removed, casefold: CPython's own code,
so exactly spec §4), then scanned in C over its code points with CPython's
``Py_UNICODE_ISALNUM`` (which is what ``re``'s Unicode ``\\w`` tests, plus ``_``), splitting
Han/Hiragana/Katakana runs into bigrams and hashing each piece's UTF-8 bytes as it goes. All
scanning of a batch runs with the GIL released. See docs/algorithms.md, "One text pass".
"""

cimport cython
from cpython cimport array
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

import array as _pyarray
from typing import NamedTuple

from ckn.errors import CknMemoryError, CknTypeError
from ckn.terms import normalize as _normalize
from ckn._passes cimport ckn_pass, pass_capsule, run_pass
from ckn._prefetch cimport ckn_prefetch_start
from ckn._tuning cimport NOGIL_MIN_WORK
from ckn.typedefs cimport CKN_ENOMEM, CKN_OK, hash_t, index_t

__all__ = ["SIMD", "TermHashes", "scan", "text_hashes", "term_counts"]


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


cdef extern from "scanner_simd.h":
    int64_t ckn_sc_ascii_terms_avx2(const unsigned char* d, int64_t n, uint64_t* out,
                                    const unsigned char* tbl, int wide) noexcept nogil
    int ckn_sc_have_avx2() noexcept nogil
    int ckn_sc_have_avx512() noexcept nogil
    int ckn_sc_have_vbmi2() noexcept nogil


import os as _os

# Set once at import (CKN_NO_SIMD=1 in the environment forces the portable path,
# CKN_NO_AVX512=1 the AVX2 one and CKN_NO_VBMI2=1 AVX-512 without VBMI2, as on CPUs that lack
# it: for tests).
cdef bint _USE_AVX2 = ckn_sc_have_avx2() != 0 and _os.environ.get("CKN_NO_SIMD") != "1"
cdef bint _USE_AVX512 = (_USE_AVX2 and ckn_sc_have_avx512() != 0
                         and _os.environ.get("CKN_NO_AVX512") != "1")
# 2: the word bounds with AVX-512 VBMI2 too, 1: AVX-512 hashing only, 0: AVX2
cdef int _WIDE = (0 if not _USE_AVX512 else 2 if ckn_sc_have_vbmi2() != 0
                  and _os.environ.get("CKN_NO_VBMI2") != "1" else 1)
SIMD = ("avx512-vbmi2" if _WIDE == 2 else "avx512" if _USE_AVX512 else "avx2" if _USE_AVX2
        else "portable")
cdef Py_ssize_t _AVX2_MAX_LENGTH = 0xFFFFFFFF    # word bounds are packed in 32 bits each


cdef Py_ssize_t scanner_ascii_terms(const unsigned char* data, Py_ssize_t n,
                                    hash_t* out) noexcept nogil:
    if _USE_AVX2 and 0 < n < _AVX2_MAX_LENGTH and sizeof(hash_t) == 8:
        return ckn_sc_ascii_terms_avx2(data, n, <uint64_t*>out, _ASCII_WORD, _WIDE)
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
    # spec §4: Han, Hiragana, Katakana ranges.
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


cdef inline Py_ssize_t _scan_one(const void* data, int kind, Py_ssize_t n,
                                 hash_t* out) noexcept nogil:
    # The term hashes of one text into out (which holds _max_terms(kind, n)); how many.
    if kind == _KIND_ASCII:
        return scanner_ascii_terms(<const unsigned char*>data, n, out)
    return _ucs_terms(data, kind, n, out)


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


ctypedef struct _ScanState:
    const void** data       # each text's PEP 393 data (ASCII texts as bytes)
    int* kinds              # _KIND_ASCII or the PEP 393 kind
    Py_ssize_t* lengths     # code points
    Py_ssize_t n
    hash_t* out             # room for cap hashes
    Py_ssize_t cap
    index_t* offsets        # n + 1
    Py_ssize_t next         # the first text not scanned; -1 until the pass has run
    Py_ssize_t used         # hashes written
    hash_t* spill           # a text whose worst case outgrows the room left is scanned here
    Py_ssize_t spill_cap


cdef enum:
    _NEEDS_ROOM = 1         # the scan's status when the texts' terms outgrew its room


cdef int _scan_run(void* state) noexcept nogil:
    # Scans texts next, next + 1, ... into out; stops at a text whose terms do not fit the
    # room left (_NEEDS_ROOM: the owner grows out, with the GIL, and runs it again).
    cdef _ScanState* s = <_ScanState*>state
    cdef Py_ssize_t k, worst, count
    cdef hash_t* grown
    if s.next < 0:
        s.next = s.used = 0
        s.offsets[0] = 0
    for k in range(s.next, s.n):
        if k + 1 < s.n:  # the next text's first lines while this one is scanned (a kind is
            # its bytes per code point; ASCII's, 0, stands for 1)
            ckn_prefetch_start(s.data[k + 1], s.lengths[k + 1] * max(s.kinds[k + 1], 1))
        worst = _max_terms(s.kinds[k], s.lengths[k])
        if s.used + worst <= s.cap:
            count = _scan_one(s.data[k], s.kinds[k], s.lengths[k], s.out + s.used)
        else:  # its actual terms may still fit: scanned aside, then copied
            if s.spill_cap < worst:
                grown = <hash_t*>realloc(s.spill, worst * sizeof(hash_t))
                if grown == NULL:
                    s.next = k
                    return CKN_ENOMEM
                s.spill, s.spill_cap = grown, worst
            count = _scan_one(s.data[k], s.kinds[k], s.lengths[k], s.spill)
            if s.used + count > s.cap:
                s.next = k
                return _NEEDS_ROOM
            memcpy(s.out + s.used, s.spill, count * sizeof(hash_t))
        s.used += count
        s.offsets[k + 1] = s.used
    s.next = s.n
    return CKN_OK


@cython.final
cdef class ScanPass:
    """:func:`scan` of a list of texts, prepared (texts checked and normalised, the result's
    arrays allocated: room for a term per 4 code points, as a word of 3 letters and a space
    take, plus 16), to be run without the GIL (``ckn._passes``) and read by later passes
    (``values``, ``offsets``) before :meth:`finish` trims it. A text whose worst case (a term
    every other byte of ASCII, one per code point otherwise) outgrows the room left is scanned
    aside and copied when its terms fit; when they do not, the pass stops there (``complete``
    is False) and :meth:`run` grows the room and goes on (so a later pass that holds the arrays
    must let them go first: growing them under it is a ``BufferError``)."""

    cdef ckn_pass c
    cdef _ScanState s
    cdef list keep                   # the (normalised) strings the pass reads
    cdef str name
    cdef readonly array.array values
    cdef readonly array.array offsets
    cdef readonly Py_ssize_t length  # code points of all texts

    def __cinit__(self, list texts, str name):
        cdef Py_ssize_t n = len(texts), k
        self.name = name
        self.s.next = -1
        self.s.n = n
        self.c.run = _scan_run
        self.c.state = &self.s
        self.keep = [None] * n
        self.s.data = <const void**>malloc((n if n > 0 else 1) * sizeof(void*))
        self.s.kinds = <int*>malloc((n if n > 0 else 1) * sizeof(int))
        self.s.lengths = <Py_ssize_t*>malloc((n if n > 0 else 1) * sizeof(Py_ssize_t))
        if self.s.data == NULL or self.s.kinds == NULL or self.s.lengths == NULL:
            raise CknMemoryError(f"{name}: out of memory")
        for k in range(n):
            t = texts[k]
            if not isinstance(t, str):
                raise CknTypeError(f"{name}: expected str, got {type(t).__name__}" if name == "text"
                                   else f"{name}[{k}]: expected str, got {type(t).__name__}")
            if type(t) is not str or not PyUnicode_IS_ASCII(t):
                t = _normalize(t)
            self.keep[k] = t
            self.s.lengths[k] = PyUnicode_GET_LENGTH(t)
            self.s.data[k] = PyUnicode_DATA(t)
            self.s.kinds[k] = _KIND_ASCII if PyUnicode_IS_ASCII(t) else PyUnicode_KIND(t)
            self.length += self.s.lengths[k]
        self.s.cap = self.length // 4 + 16
        try:
            self.values = array.clone(_HASH_TEMPLATE, self.s.cap, False)
            self.offsets = array.clone(_INDEX_TEMPLATE, n + 1, False)
        except MemoryError:
            raise CknMemoryError(f"{name}: out of memory") from None
        self.s.out = <hash_t*>self.values.data.as_voidptr
        self.s.offsets = <index_t*>self.offsets.data.as_voidptr

    def __dealloc__(self):
        free(self.s.data)
        free(self.s.kinds)
        free(self.s.lengths)
        free(self.s.spill)

    def _pass(self):
        return pass_capsule(&self.c)

    @property
    def complete(self):
        """Whether every text has been scanned."""
        return self.s.next == self.s.n

    def run(self):
        """Run the pass, or what is left of it, here (the GIL released when the texts are long
        enough), growing the room as needed."""
        cdef int status
        cdef Py_ssize_t cap
        while True:
            status = run_pass(&self.c, self.length >= NOGIL_MIN_WORK)  # (a query's few words:
            if status == CKN_OK:                                       # not worth it)
                return
            if status == CKN_ENOMEM:
                raise CknMemoryError(f"{self.name}: out of memory")
            cap = max(2 * self.s.cap, self.s.used + _max_terms(self.s.kinds[self.s.next],
                                                               self.s.lengths[self.s.next]))
            try:  # (frombytes refuses while another pass holds the array)
                self.values.frombytes(bytes((cap - self.s.cap) * sizeof(hash_t)))
            except MemoryError:
                raise CknMemoryError(f"{self.name}: out of memory") from None
            self.s.cap = cap
            self.s.out = <hash_t*>self.values.data.as_voidptr

    def finish(self):
        """The :class:`TermHashes` (``values`` trimmed to the hashes written)."""
        if self.s.next != self.s.n:
            raise RuntimeError("ScanPass.finish: the pass has not run to its end")
        if len(self.values) != self.s.used:  # (BufferError while a later pass still reads it)
            del self.values[self.s.used:]
        return TermHashes(self.values, self.offsets)


cdef _scan_list(list texts, str name):
    cdef ScanPass p = ScanPass(texts, name)
    p.run()
    return p.finish()


def scan(texts, /):
    """spec §4 term hashes of every text, as :class:`TermHashes` (CSR: ``values``, ``offsets``).

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
    """spec §4 term hashes of one text, in order, as ``array('Q')``.

    >>> from ckn.minhash import term_hashes
    >>> from ckn.terms import terms
    >>> text_hashes("abc東京タ") == term_hashes(terms("abc東京タ"))
    True
    """
    return _scan_list([text], "text").values


def term_counts(text, /):
    """``(counts, length)``: occurrences of each term hash in ``text``, and its number of terms.

    ``counts`` maps each distinct term hash to its frequency ``f`` (spec §5); ``length`` is
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
