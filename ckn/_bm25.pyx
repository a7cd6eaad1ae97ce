"""BM25 kernel over term hashes (spec §5), the compiled twin of ``ckn/bm25.py``.

Private module: use :func:`ckn.bm25.bm25_scores_hashed`. The kernel evaluates the very same
expressions as ``ckn/bm25.py``, in the same order (distinct query terms in first-appearance
order, terms with f = 0 skipped), in IEEE double without fused multiply-add (setup.py builds
with ``-ffp-contract=off``), so its scores are bit-for-bit those of the Python version.
"""

cimport cython
from cpython cimport array
from libc.math cimport log
from cpython.mem cimport PyMem_RawFree as free, PyMem_RawMalloc as malloc
from cpython.mem cimport PyMem_RawRealloc as realloc
from libc.stdlib cimport qsort
from libc.stdint cimport uint64_t

from ckn.errors import CknMemoryError, CknValueError
from ckn._passes cimport ckn_pass, pass_capsule, run_pass
from ckn._tuning cimport NOGIL_MIN_WORK
from ckn.typedefs cimport CKN_ENOMEM, CKN_OK, hash_t, index_t

import array as _pyarray

__all__ = ["Bm25Pass", "bm25_csr"]

cdef array.array _DOUBLE_TEMPLATE = _pyarray.array("d")


cdef enum:
    _SEEN_BITS = 12                      # a 4,096-bit filter of the query terms' slots
    _SEEN_WORDS = 1 << (_SEEN_BITS - 6)
    _INSERTION_MAX = 24                  # postings of one document sorted by insertion up to this


ctypedef struct Posting:
    Py_ssize_t q        # distinct query term (its first-appearance rank)
    Py_ssize_t f        # its occurrences in the document


cdef inline Py_ssize_t _slot(hash_t h, int shift) noexcept nogil:
    return <Py_ssize_t>((h * 0x9E3779B97F4A7C15ULL) >> shift)


cdef int _by_term(const void* a, const void* b) noexcept nogil:
    cdef Py_ssize_t x = (<const Posting*>a).q, y = (<const Posting*>b).q
    return (x > y) - (x < y)


cdef void _sort_postings(Posting* p, Py_ssize_t k) noexcept nogil:
    """Sort one document's postings by query term (distinct terms: no ties)."""
    cdef Py_ssize_t i, j
    cdef Posting t
    if k > _INSERTION_MAX:
        qsort(p, <size_t>k, sizeof(Posting), _by_term)
        return
    for i in range(1, k):
        t = p[i]
        j = i
        while j > 0 and p[j - 1].q > t.q:
            p[j] = p[j - 1]
            j -= 1
        p[j] = t


cdef int _bm25_kernel(const hash_t* values, const index_t* offsets, Py_ssize_t n_docs,
                      const hash_t* query, Py_ssize_t nq, double k1, double b,
                      hash_t* keys, Py_ssize_t* slots, int bits, Py_ssize_t* last,
                      Py_ssize_t* doc_freq, double* idf, double* out) noexcept nogil:
    """Scores into ``out``; CKN_ENOMEM when the postings cannot be allocated.

    keys/slots: open-addressing table of 2**bits entries; last, doc_freq, idf: nq entries each.
    Each document's terms are looked up once; its distinct query terms become postings
    (term, occurrences), sorted by term: O(T) memory for the pool's T terms (at most one
    posting per term) instead of a documents x query terms table. The score then adds the
    postings in term order, the same additions in the same order as the dense evaluation."""
    cdef Py_ssize_t size = (<Py_ssize_t>1) << bits
    cdef Py_ssize_t mask = size - 1
    cdef int shift = 64 - bits
    cdef Py_ssize_t i, j, d, pos, q, used = 0, start
    cdef hash_t h
    cdef index_t total = offsets[n_docs] - offsets[0]
    cdef double avgdl, norm, score, f
    cdef Posting* postings
    cdef Posting* grown
    cdef Py_ssize_t* begin
    cdef Py_ssize_t held
    for i in range(size):
        slots[i] = -1
    cdef uint64_t seen[_SEEN_WORDS]
    for i in range(_SEEN_WORDS):
        seen[i] = 0
    for q in range(nq):
        pos = _slot(query[q], 64 - _SEEN_BITS)
        seen[pos >> 6] |= 1ULL << (pos & 63)
        pos = _slot(query[q], shift) if bits > 0 else 0
        while slots[pos] >= 0:
            pos = (pos + 1) & mask
        keys[pos] = query[q]
        slots[pos] = q
        last[q] = -1
        doc_freq[q] = 0
    if total == 0:
        for d in range(n_docs):
            out[d] = 0.0
        return CKN_OK
    # postings: at most one per term of the pool (and per document and query term), grown by
    # doubling as needed; begin[d]: where document d's start
    held = total if total < 4096 else 4096
    postings = <Posting*>malloc(<size_t>held * sizeof(Posting))
    begin = <Py_ssize_t*>malloc(<size_t>(n_docs + 1) * sizeof(Py_ssize_t))
    if postings == NULL or begin == NULL:
        free(postings)
        free(begin)
        return CKN_ENOMEM
    for d in range(n_docs):
        start = used
        begin[d] = start
        for j in range(offsets[d], offsets[d + 1]):
            h = values[j]
            pos = _slot(h, 64 - _SEEN_BITS)
            if not (seen[pos >> 6] >> (pos & 63)) & 1:  # most terms: no query term has h
                continue
            pos = _slot(h, shift) if bits > 0 else 0
            while slots[pos] >= 0:
                if keys[pos] == h:
                    q = slots[pos]
                    if last[q] >= start:       # seen earlier in this document
                        postings[last[q]].f += 1
                    else:
                        if used == held:
                            held = 2 * held if 2 * held < total else total
                            grown = <Posting*>realloc(postings, <size_t>held * sizeof(Posting))
                            if grown == NULL:
                                free(postings)
                                free(begin)
                                return CKN_ENOMEM
                            postings = grown
                        last[q] = used
                        postings[used].q = q
                        postings[used].f = 1
                        used += 1
                    break
                pos = (pos + 1) & mask
        _sort_postings(postings + start, used - start)
        for i in range(start, used):
            doc_freq[postings[i].q] += 1
    begin[n_docs] = used
    # Python: avgdl = total / n_docs (int / int, correctly rounded; exact inputs below 2**53)
    avgdl = <double>total / <double>n_docs
    for q in range(nq):
        if doc_freq[q]:
            idf[q] = log(1.0 + (<double>(n_docs - doc_freq[q]) + 0.5) / (<double>doc_freq[q] + 0.5))
    for d in range(n_docs):
        norm = k1 * (1.0 - b + b * <double>(offsets[d + 1] - offsets[d]) / avgdl)
        score = 0.0
        for i in range(begin[d], begin[d + 1]):
            q = postings[i].q
            f = <double>postings[i].f
            score += idf[q] * f * (k1 + 1.0) / (f + norm)
        out[d] = score
    free(postings)
    free(begin)
    return CKN_OK


ctypedef struct _Bm25State:
    const hash_t* values
    const index_t* offsets
    Py_ssize_t n_docs
    const hash_t* query
    Py_ssize_t nq
    double k1
    double b
    hash_t* keys
    Py_ssize_t* slots
    int bits
    Py_ssize_t* last
    Py_ssize_t* doc_freq
    double* idf
    double* out
    bint ran
    int status


cdef int _bm25_run(void* state) noexcept nogil:
    cdef _Bm25State* s = <_Bm25State*>state
    s.status = CKN_OK
    if s.n_docs > 0:
        s.status = _bm25_kernel(s.values, s.offsets, s.n_docs, s.query, s.nq, s.k1, s.b, s.keys,
                                s.slots, s.bits, s.last, s.doc_freq, s.idf, s.out)
    s.ran = True
    return s.status


@cython.final
cdef class Bm25Pass:
    """BM25 scores of the CSR documents ``values[offsets[d]:offsets[d+1]]`` (``d < n_docs``)
    for the *distinct* query hashes ``query``, prepared (query tables allocated) to run without
    the GIL (``ckn._passes``); the run allocates the pool's postings (16 bytes per term at
    most), so memory is O(terms of the pool + distinct query terms). The documents are read when the pass runs, so ``values`` and
    ``offsets`` may be a :class:`ckn.scanner.ScanPass`'s arrays, filled by that pass first.
    Inputs are trusted (``bm25_csr`` checks them)."""

    cdef ckn_pass c
    cdef _Bm25State s
    cdef const hash_t[::1] values   # held until finish()
    cdef const index_t[::1] offsets
    cdef const hash_t[::1] query
    cdef array.array out

    def __cinit__(self, const hash_t[::1] values, const index_t[::1] offsets, Py_ssize_t n_docs,
                  const hash_t[::1] query, double k1, double b):
        if not 0 <= n_docs < offsets.shape[0]:
            raise ValueError("Bm25Pass: n_docs out of range")
        self.c.run = _bm25_run
        self.c.state = &self.s
        self.values, self.offsets, self.query = values, offsets, query
        cdef Py_ssize_t nq = query.shape[0]
        self.s.values = &values[0] if values.shape[0] > 0 else NULL
        self.s.offsets = &offsets[0]
        self.s.n_docs = n_docs
        self.s.query = &query[0] if nq > 0 else NULL
        self.s.nq = nq
        self.s.k1 = k1
        self.s.b = b
        self.s.bits = 0
        while ((<Py_ssize_t>1) << self.s.bits) < 8 * nq or self.s.bits < 6:  # sparse: a miss
            self.s.bits += 1                                                  # stops at once
        cdef Py_ssize_t size = (<Py_ssize_t>1) << self.s.bits
        self.s.keys = <hash_t*>malloc(size * sizeof(hash_t))
        self.s.slots = <Py_ssize_t*>malloc(size * sizeof(Py_ssize_t))
        self.s.last = <Py_ssize_t*>malloc((nq + 1) * sizeof(Py_ssize_t))
        self.s.doc_freq = <Py_ssize_t*>malloc((nq + 1) * sizeof(Py_ssize_t))
        self.s.idf = <double*>malloc((nq + 1) * sizeof(double))
        if (self.s.keys == NULL or self.s.slots == NULL or self.s.last == NULL
                or self.s.doc_freq == NULL or self.s.idf == NULL):
            raise CknMemoryError("bm25: out of memory")
        self.out = array.clone(_DOUBLE_TEMPLATE, n_docs, False)
        self.s.out = self.out.data.as_doubles

    def __dealloc__(self):
        free(self.s.keys)
        free(self.s.slots)
        free(self.s.last)
        free(self.s.doc_freq)
        free(self.s.idf)

    def _pass(self):
        return pass_capsule(&self.c)

    def finish(self):
        """The scores, a list of float in document order."""
        if not self.s.ran:
            raise RuntimeError("Bm25Pass.finish: the pass has not run")
        if self.s.status == CKN_ENOMEM:
            raise CknMemoryError("bm25: out of memory for the pool's postings")
        self.values = self.offsets = self.query = None  # (the scan may trim its arrays now)
        return self.out.tolist()


def bm25_csr(const hash_t[::1] values, const index_t[::1] offsets, const hash_t[::1] query,
             double k1, double b):
    """BM25 scores (list of float) of the CSR documents ``values[offsets[d]:offsets[d+1]]`` for
    the *distinct* query hashes ``query`` (already deduplicated, first-appearance order).
    Inputs are trusted (checked by ``ckn.bm25.bm25_scores_hashed``)."""
    cdef Py_ssize_t n_docs = offsets.shape[0] - 1
    cdef Py_ssize_t d
    if n_docs < 0:
        raise CknValueError("documents: offsets must have n + 1 >= 1 entries, got none")
    for d in range(n_docs + 1):     # the kernel reads values[offsets[0] .. offsets[n])
        if offsets[d] < 0 or offsets[d] > values.shape[0] or (d and offsets[d] < offsets[d - 1]):
            raise CknValueError(f"documents: offsets[{d}] = {offsets[d]} breaks 0 <= "
                                f"offsets[0] <= ... <= offsets[n] <= len(values) = "
                                f"{values.shape[0]}")
    if n_docs == 0:
        return []
    cdef Bm25Pass p = Bm25Pass(values, offsets, n_docs, query, k1, b)
    run_pass(&p.c, values.shape[0] * 4 + query.shape[0] >= NOGIL_MIN_WORK)
    return p.finish()
