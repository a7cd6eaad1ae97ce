"""MinHash near-duplicate detection, exactly as spec §7 defines it (Broder 1997).

Text → :func:`ckn.terms.terms` → FNV-1a-64 term hashes → shingle hashes ``x = s mod p``
(``p = 2**31 - 1``) → signatures ``slot_i = min (a_i·x + b_i) mod p`` → estimated similarity
(fraction of equal slots) → the dedup pass in rank order. Everything is deterministic: no
Python ``hash()``, a fixed seed (0x5EED), so signatures agree across processes and machines.

The C kernels are declared in ``ckn/minhash.pxd`` (``noexcept nogil``, caller-owned buffers);
the ``def`` functions here validate, allocate Python-owned buffers, release the GIL and map
status codes to :mod:`ckn.errors`. The dedup pass's fast paths and :func:`dedup` are in
``ckn/_dedup.pyx`` (re-exported here), the argument checks and the SIMD choice in
``ckn/_minhash_common.pyx``, the SIMD kernels in ``ckn/minhash_simd.h``. See docs/algorithms.md.
"""

cimport cython
from cpython cimport array
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_WRITABLE
from cpython.object cimport Py_SIZE
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

import array as _pyarray
from operator import index as _index
import threading as _threading

from ckn.errors import CknMemoryError, CknTypeError, CknValueError
from ckn.scanner import scan as _scan, text_hashes as _text_hashes
from ckn._minhash_common cimport (
    _HASH_TEMPLATE, _INDEX_TEMPLATE, _SLOT_CODE, _SLOT_FORMAT, _SLOT_TC, _SLOT_TEMPLATE, _USE_AVX2,
    _USE_AVX512, _USE_FIXED, _check_offsets, _check_signatures, _first_at_least_p, _first_row_from,
    _hashes, _hp, _offsets_array, _positive_int, _rows_array, _shingle_set, _slots, _sorted_unique,
    _sp)
from ckn._minhash_ops cimport _dedup_all_pairs, _equal_slots, _jaccard, _mix64, _sort_unique
from ckn._passes cimport ckn_pass, pass_capsule, run_pass
from ckn.typedefs cimport CKN_OK, CKN_EINVAL, CKN_ENOMEM, hash_t, index_t, slot_t

__all__ = [
    "PRIME",
    "SEED",
    "DedupResult",
    "DroppedChunk",
    "MinHasher",
    "SignatureMatrix",
    "dedup",
    "fnv1a64",
    "jaccard",
    "shingle_hashes",
    "similarity",
    "term_hashes",
    "text_shingles",
]

PRIME = MINHASH_PRIME
SEED = MINHASH_SEED

# Compile-time constants (enums become C literals; module-level cdef variables would not).
cdef enum:
    _P = MINHASH_PRIME


# ---------------------------------------------------------------------------------------------
# Kernels (declared in minhash.pxd): pure computation on caller-owned buffers.
# ---------------------------------------------------------------------------------------------

cdef hash_t minhash_fnv1a64(const unsigned char* data, Py_ssize_t n) noexcept nogil:
    cdef hash_t h = 0xCBF29CE484222325ULL
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ data[i]) * 0x100000001B3ULL
    return h


cdef inline slot_t _mod_p(hash_t s) noexcept nogil:
    # s mod p by two Mersenne folds (2**31 = p + 1) and one conditional subtraction: the first
    # fold leaves < 2**33 + 2**31, the second < 2**31 + 5.
    cdef uint64_t t = (s & <uint64_t>_P) + (s >> 31)
    t = (t & <uint64_t>_P) + (t >> 31)
    return <slot_t>(t - <uint64_t>_P if t >= <uint64_t>_P else t)


cdef hash_t minhash_mix64(hash_t z) noexcept nogil:
    return _mix64(z)


cdef hash_t minhash_shingle_hash(const hash_t* term_hashes, Py_ssize_t n) noexcept nogil:
    cdef hash_t s = 0
    cdef Py_ssize_t i
    for i in range(n):
        s = _mix64(s ^ term_hashes[i])
    return s


cdef void minhash_parameters(Py_ssize_t permutations, slot_t* a, slot_t* b) noexcept nogil:
    cdef uint64_t state = MINHASH_SEED
    cdef Py_ssize_t i
    for i in range(permutations):
        state = state + 0x9E3779B97F4A7C15ULL
        a[i] = <slot_t>(1 + minhash_mix64(state) % <uint64_t>(_P - 1))
        state = state + 0x9E3779B97F4A7C15ULL
        b[i] = <slot_t>(minhash_mix64(state) % <uint64_t>_P)


cdef Py_ssize_t minhash_shingle_count(Py_ssize_t n_terms, Py_ssize_t shingle_size) noexcept nogil:
    if shingle_size < 1:
        return CKN_EINVAL
    if n_terms <= 0:
        return 0
    if n_terms < shingle_size:
        return 1
    return n_terms - shingle_size + 1


cdef Py_ssize_t minhash_shingles(const hash_t* term_hashes, Py_ssize_t n_terms,
                                 Py_ssize_t shingle_size, slot_t* out) noexcept nogil:
    if shingle_size < 1 or n_terms < 0:
        return CKN_EINVAL
    cdef Py_ssize_t count = minhash_shingle_count(n_terms, shingle_size)
    cdef Py_ssize_t width = shingle_size if shingle_size < n_terms else n_terms
    cdef Py_ssize_t k = 0, i
    cdef hash_t h
    if width == 3:  # the default shingle size, unrolled (8 at a time with AVX-512)
        if _USE_AVX512:
            k = ckn_mh_shingles3_avx512(term_hashes, count, out)
        for k in range(k, count):
            out[k] = _mod_p(_mix64(_mix64(_mix64(term_hashes[k]) ^ term_hashes[k + 1])
                                   ^ term_hashes[k + 2]))
        return count
    for k in range(count):
        h = 0
        for i in range(width):
            h = _mix64(h ^ term_hashes[k + i])
        out[k] = _mod_p(h)
    return count


cdef Py_ssize_t minhash_sort_unique(slot_t* xs, Py_ssize_t n) noexcept nogil:
    return _sort_unique(xs, n)


cdef enum:
    _BLOCK = 16     # permutations per register block in _signature_portable
    _AVX512_PASS = 64   # permutations per pass of the AVX-512 kernel over a set
    # Bulk signatures use one more thread per this many shingle × permutation evaluations.
    _WORK_PER_THREAD = 1 << 21


cdef extern from "minhash_simd.h":
    Py_ssize_t ckn_mh_signature_avx2(const slot_t* xs, Py_ssize_t m, const slot_t* a,
                                     const slot_t* b, Py_ssize_t perms, slot_t* out) noexcept nogil
    Py_ssize_t ckn_mh_signature_fold_avx512(const slot_t* xs, Py_ssize_t m, const slot_t* a,
                                            const slot_t* b, Py_ssize_t perms,
                                            slot_t* out) noexcept nogil
    void ckn_mh_signature_fixed_avx512(const slot_t* xs, Py_ssize_t m, const uint64_t* A,
                                       const uint64_t* B, Py_ssize_t perms,
                                       slot_t* out) noexcept nogil
    void ckn_mh_fixed_params(const slot_t* a, const slot_t* b, Py_ssize_t n, uint64_t* A,
                             uint64_t* B) noexcept nogil
    Py_ssize_t ckn_mh_shingles3_avx512(const hash_t* t, Py_ssize_t count, slot_t* out) noexcept nogil


cdef inline uint64_t _reduce_x(uint32_t x) noexcept nogil:
    # x < 2**32 -> x' ≡ x (mod p) with x' <= p + 1 (one subtraction).
    return x - <uint32_t>_P if x >= <uint32_t>_P else x


cdef inline uint32_t _permute(uint64_t a, uint64_t x, uint64_t b) noexcept nogil:
    # (a*x + b) mod p without division, for a, b <= p - 1 and x <= p + 1 (see _reduce_x).
    cdef uint64_t y = a * x + b                     # <= p**2 + p - 2 < 2**62
    # One Mersenne fold (2**31 ≡ 1): y & p <= p and y >> 31 <= (p**2 + p - 2) / (p + 1) < p,
    # so h ≡ y (mod p) and h <= 2p - 1 = 2**32 - 3.
    cdef uint32_t h = <uint32_t>((y & <uint64_t>_P) + (y >> 31))
    return (h + ((h + 1) >> 31)) & <uint32_t>_P     # h - p if h >= p (valid for h < 2**32 - 1)


cdef void minhash_signature(const slot_t* xs, Py_ssize_t m, const slot_t* a, const slot_t* b,
                            Py_ssize_t permutations, slot_t* out) noexcept nogil:
    # On x86-64 (CPU checked at import) the fixed-point AVX-512 kernel takes every
    # permutation, 64 per pass over the set (_signature_rows of this one set); else whole
    # blocks of 16 take the fold AVX-512 kernel, then blocks of 8 the AVX2 one, and the
    # portable code below does the rest, or everything elsewhere.
    cdef Py_ssize_t done = 0
    cdef index_t bounds[2]
    if _USE_FIXED:
        bounds[0] = 0
        bounds[1] = m
        _signature_rows(xs, bounds, 1, a, b, permutations, out, False)
        return
    if _USE_AVX512 and permutations >= 16:
        done = ckn_mh_signature_fold_avx512(xs, m, a, b, permutations, out)
    if _USE_AVX2 and permutations - done >= 8:
        done += ckn_mh_signature_avx2(xs, m, a + done, b + done, permutations - done, out + done)
    if done < permutations:
        _signature_portable(xs, m, a + done, b + done, permutations - done, out + done)


cdef void _signature_portable(const slot_t* xs, Py_ssize_t m, const slot_t* a, const slot_t* b,
                              Py_ssize_t permutations, slot_t* out) noexcept nogil:
    # Permutations are processed in blocks of _BLOCK held in local arrays (no aliasing, fixed
    # trip count): for each shingle x the innermost loop over the block is a straight-line
    # 64-bit multiply-add, one Mersenne fold and an unsigned min, which GCC -O3 vectorises
    # (SSE2 by default, wider with -march); check with CFLAGS=-fopt-info-vec-optimized.
    cdef Py_ssize_t i0, i, j, k
    cdef uint64_t x
    cdef uint32_t h
    cdef uint32_t blk_a[_BLOCK]
    cdef uint32_t blk_b[_BLOCK]
    cdef uint32_t blk_o[_BLOCK]
    i0 = 0
    while i0 + _BLOCK <= permutations:
        for j in range(_BLOCK):
            blk_a[j] = a[i0 + j]
            blk_b[j] = b[i0 + j]
            blk_o[j] = _P
        for k in range(m):
            x = _reduce_x(xs[k])
            for j in range(_BLOCK):
                h = _permute(blk_a[j], x, blk_b[j])
                blk_o[j] = h if h < blk_o[j] else blk_o[j]
        for j in range(_BLOCK):
            out[i0 + j] = blk_o[j]
        i0 += _BLOCK
    for i in range(i0, permutations):      # the last permutations % _BLOCK, one at a time
        out[i] = _P
        for k in range(m):
            h = _permute(a[i], _reduce_x(xs[k]), b[i])
            out[i] = h if h < out[i] else out[i]


cdef void minhash_signatures(const slot_t* values, const index_t* offsets, Py_ssize_t n,
                             const slot_t* a, const slot_t* b, Py_ssize_t permutations,
                             slot_t* out) noexcept nogil:
    _signature_rows(values, offsets, n, a, b, permutations, out, False)


cdef Py_ssize_t _signature_rows(const slot_t* values, const index_t* offsets, Py_ssize_t n,
                                const slot_t* a, const slot_t* b, Py_ssize_t permutations,
                                slot_t* out, bint check) noexcept nogil:
    # minhash_signatures; with `check`, each set is first searched for a value >= p while it
    # is about to be read anyway, and the first such value's index in `values` is returned
    # (the rows from there on are not computed), else -1. With the fixed-point kernel the
    # parameters of each 64 permutations are derived once for all the sets.
    cdef Py_ssize_t k, c0, width, bad
    cdef uint64_t fa[_AVX512_PASS]
    cdef uint64_t fb[_AVX512_PASS]
    c0 = 0
    while c0 < permutations:
        width = min(<Py_ssize_t>_AVX512_PASS, permutations - c0)
        if _USE_FIXED:
            ckn_mh_fixed_params(a + c0, b + c0, width, fa, fb)
        else:  # one pass: minhash_signature gives each set's whole signature
            width = permutations
        for k in range(n):
            if check and c0 == 0:
                bad = _first_at_least_p(values + offsets[k], offsets[k + 1] - offsets[k])
                if bad >= 0:
                    return offsets[k] + bad
            if _USE_FIXED:
                ckn_mh_signature_fixed_avx512(values + offsets[k], offsets[k + 1] - offsets[k],
                                              fa, fb, width, out + k * permutations + c0)
            else:
                minhash_signature(values + offsets[k], offsets[k + 1] - offsets[k], a, b,
                                  permutations, out + k * permutations)
        c0 += width
    return -1


cdef double minhash_similarity(const slot_t* s1, const slot_t* s2,
                               Py_ssize_t permutations) noexcept nogil:
    return <double>_equal_slots(s1, s2, permutations) / <double>permutations


cdef double minhash_jaccard(const slot_t* x1, Py_ssize_t n1,
                            const slot_t* x2, Py_ssize_t n2) noexcept nogil:
    return _jaccard(x1, n1, x2, n2)


cdef int minhash_dedup(const slot_t* signatures, Py_ssize_t n, Py_ssize_t permutations,
                       double threshold, const index_t* set_offsets, const slot_t* set_values,
                       uint8_t* kept, index_t* duplicate_of, double* similarity,
                       double* exact_jaccard) noexcept nogil:
    return _dedup_all_pairs(signatures, n, permutations, threshold, set_offsets, set_values, kept,
                            duplicate_of, similarity, exact_jaccard)


# ---------------------------------------------------------------------------------------------
# Private helpers (not part of the C API).
# ---------------------------------------------------------------------------------------------

cdef void _csr_shingle_sets(const hash_t* hashes, const index_t* term_offsets,
                           const index_t* rows, Py_ssize_t n, Py_ssize_t shingle_size,
                           slot_t* values, index_t* offsets) noexcept nogil:
    # The shingle hashes of each of n documents in text order (duplicates kept: a signature is
    # the same for a multiset and its set, so no sort is needed): document k (the term-hash
    # sequence rows[k], or k when rows is NULL) gives values[offsets[k] .. offsets[k+1]).
    # values must hold the sum of the shingle counts.
    cdef Py_ssize_t k, r, w = 0
    offsets[0] = 0
    for k in range(n):
        r = k if rows == NULL else rows[k]
        w += minhash_shingles(hashes + term_offsets[r], term_offsets[r + 1] - term_offsets[r],
                              shingle_size, values + w)
        offsets[k + 1] = w


cdef class SignatureMatrix:
    """Read-only n × permutations matrix of uint32 signatures (row-major), from
    :meth:`MinHasher.signatures`.

    It exposes the buffer protocol (format ``"I"``, 2-D, read-only), so ``memoryview(m)`` and
    ``numpy.asarray(m)`` view it without a copy; numpy is not required. ``m[i]`` is row i as a
    read-only 1-D memoryview, ``len(m)`` the number of rows, ``m.tolist()`` nested lists.
    """

    cdef array.array _data
    cdef Py_ssize_t _shape[2]
    cdef Py_ssize_t _strides[2]

    def __cinit__(self, array.array data, Py_ssize_t rows, Py_ssize_t cols):
        if len(data) != rows * cols:
            raise CknValueError(f"SignatureMatrix: {len(data)} slots for {rows} x {cols}")
        self._data = data
        self._shape[0] = rows
        self._shape[1] = cols
        self._strides[0] = cols * <Py_ssize_t>sizeof(slot_t)
        self._strides[1] = sizeof(slot_t)

    def __getbuffer__(self, Py_buffer* buf, int flags):
        if flags & PyBUF_WRITABLE:
            raise BufferError("SignatureMatrix is read-only")
        buf.buf = self._data.data.as_voidptr
        buf.obj = self
        buf.len = self._shape[0] * self._shape[1] * <Py_ssize_t>sizeof(slot_t)
        buf.readonly = 1
        buf.itemsize = sizeof(slot_t)
        buf.format = _SLOT_FORMAT if (flags & PyBUF_FORMAT) else NULL
        buf.ndim = 2
        buf.shape = self._shape
        buf.strides = self._strides
        buf.suboffsets = NULL
        buf.internal = NULL

    def __releasebuffer__(self, Py_buffer* buf):
        pass

    @property
    def shape(self):
        """``(n, permutations)``."""
        return (self._shape[0], self._shape[1])

    def __len__(self):
        return self._shape[0]

    def __getitem__(self, index):
        """Row ``index`` as a read-only 1-D memoryview; a slice gives a new SignatureMatrix."""
        cdef Py_ssize_t n = self._shape[0], cols = self._shape[1]
        cdef array.array rows
        if isinstance(index, slice):
            rows = array.clone(_SLOT_TEMPLATE, 0, False)
            picked = range(n)[index]
            for r in picked:
                rows.extend(self._data[r * cols:(r + 1) * cols])
            return SignatureMatrix(rows, len(picked), cols)
        cdef Py_ssize_t i = _index(index)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"SignatureMatrix index {index} out of range for {n} rows")
        return memoryview(self._data)[i * cols:(i + 1) * cols].toreadonly()

    def __iter__(self):
        cdef Py_ssize_t i
        for i in range(self._shape[0]):
            yield self[i]

    def tolist(self):
        """The signatures as a list of lists of int."""
        cdef list flat = self._data.tolist()
        cdef Py_ssize_t cols = self._shape[1], i
        return [flat[i * cols:(i + 1) * cols] for i in range(self._shape[0])]

    def __eq__(self, other):
        if not isinstance(other, SignatureMatrix):
            return NotImplemented
        return (self.shape == (<SignatureMatrix>other).shape
                and self._data == (<SignatureMatrix>other)._data)

    __hash__ = None

    def __repr__(self):
        return f"<SignatureMatrix {self._shape[0]} x {self._shape[1]} uint32>"

    def __reduce__(self):
        return (SignatureMatrix, (self._data, self._shape[0], self._shape[1]))

    def _gather(self, list rows, dict replaced):
        """A new matrix whose row k is ``replaced[k]`` (a 1-row SignatureMatrix of as many
        columns) where present, else row ``rows[k]`` of this one (the pack flow's survivors,
        in fused order, from the signatures of the whole pool). O(len(rows) x columns)."""
        cdef Py_ssize_t n = len(rows), cols = self._shape[1], k, r
        cdef array.array out = array.clone(_SLOT_TEMPLATE, n * cols, False)
        cdef slot_t* o = _sp(out)
        cdef const slot_t* src
        cdef SignatureMatrix one
        for k in range(n):
            if replaced and k in replaced:
                one = replaced[k]
                if one._shape[0] != 1 or one._shape[1] != cols:
                    raise ValueError("SignatureMatrix._gather: replacement of another shape")
                src = _sp(one._data)
            else:
                r = rows[k]
                if not 0 <= r < self._shape[0]:
                    raise IndexError(f"SignatureMatrix._gather: row {r} out of range")
                src = _sp(self._data) + r * cols
            memcpy(o + k * cols, src, cols * sizeof(slot_t))
        return SignatureMatrix(out, n, cols)


cdef array.array _shingles_from_hashes(const hash_t[::1] hashes, Py_ssize_t shingle_size):
    cdef Py_ssize_t n = hashes.shape[0]
    cdef Py_ssize_t count = minhash_shingle_count(n, shingle_size)
    cdef array.array out = array.clone(_SLOT_TEMPLATE, count, False)
    cdef slot_t* p = _sp(out)
    if count > 0:
        with nogil:
            minhash_shingles(&hashes[0], n, shingle_size, p)
            count = minhash_sort_unique(p, count)
    array.resize(out, count)
    return out


# ---------------------------------------------------------------------------------------------
# Python API.
# ---------------------------------------------------------------------------------------------

from ckn._dedup import DedupResult, DroppedChunk, _dedup_by, dedup

# The SIMD level in use ("avx512", "avx2" or "portable") and the signature kernel
# ("avx512-fixed", "avx512-fold", "avx2" or "portable"), chosen at import (ckn._minhash_common).
SIMD = "avx512" if _USE_AVX512 else "avx2" if _USE_AVX2 else "portable"
SIGNATURE_KERNEL = ("avx512-fixed" if _USE_FIXED else "avx512-fold") if _USE_AVX512 else SIMD


def fnv1a64(term, /):
    """FNV-1a-64 of the UTF-8 bytes of ``term`` (spec §7's term hash ``t``).

    >>> hex(fnv1a64("durable"))
    '0xa26817d891ff02e8'
    """
    if not isinstance(term, str):
        raise CknTypeError(f"term: expected str, got {type(term).__name__}")
    cdef bytes data
    try:
        data = (<str>term).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CknValueError(f"term: not encodable as UTF-8 ({exc.reason})") from None
    return minhash_fnv1a64(<const unsigned char*><char*>data, len(data))


def term_hashes(terms, /):
    """FNV-1a-64 of every term, in order, as ``array('Q')``.

    >>> list(term_hashes(["durable"])) == [fnv1a64("durable")]
    True
    """
    if terms is None or isinstance(terms, (str, bytes)):
        raise CknTypeError(f"terms: expected a sequence of str, got {type(terms).__name__}")
    cdef list items = list(terms)
    cdef Py_ssize_t n = len(items), k
    cdef array.array out = array.clone(_HASH_TEMPLATE, n, False)
    cdef bytes data
    for k in range(n):
        term = items[k]
        if not isinstance(term, str):
            raise CknTypeError(f"terms[{k}]: expected str, got {type(term).__name__}")
        try:
            data = (<str>term).encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CknValueError(f"terms[{k}]: not encodable as UTF-8 ({exc.reason})") from None
        _hp(out)[k] = minhash_fnv1a64(<const unsigned char*><char*>data, len(data))
    return out


def shingle_hashes(term_hashes, /, shingle_size=3):
    """Sorted distinct shingle hashes ``x = s mod p`` of a term-hash sequence, as ``array('I')``.

    Every run of ``shingle_size`` (default 3) consecutive term hashes is one shingle; fewer
    terms than ``shingle_size`` make one shingle of all of them; no terms, no shingles.

    >>> list(shingle_hashes(term_hashes(["durable", "object", "sqlite"])))
    [1689487649]
    """
    cdef Py_ssize_t size = _positive_int(shingle_size, "shingle_size")
    return _shingles_from_hashes(_hashes(term_hashes, "term_hashes"), size)


def text_shingles(text, /, shingle_size=3):
    """Sorted distinct shingle hashes of ``ckn.terms.terms(text)``, as ``array('I')``.

    >>> list(text_shingles("Durable Object SQLite"))
    [1689487649]
    """
    if not isinstance(text, str):
        raise CknTypeError(f"text: expected str, got {type(text).__name__}")
    cdef Py_ssize_t size = _positive_int(shingle_size, "shingle_size")
    # One text pass (ckn.scanner): term hashes without a Python string per term.
    return _shingles_from_hashes(_text_hashes(text), size)


cdef class MinHasher:
    """Reusable spec §7 MinHash with ``permutations`` slots (default 64); holds the a/b parameters.

    >>> mh = MinHasher(64)
    >>> list(mh.a[:3]), list(mh.b[:3])
    ([733519913, 203582676, 693907666], [1176792226, 1590135143, 1386770210])
    >>> MinHasher(0)
    Traceback (most recent call last):
    ...
    ckn.errors.CknValueError: permutations: must be >= 1, got 0
    """

    cdef readonly Py_ssize_t permutations
    cdef array.array _a
    cdef array.array _b

    def __init__(self, permutations=64):
        cdef Py_ssize_t n = _positive_int(permutations, "permutations")
        self.permutations = n
        try:
            self._a = array.clone(_SLOT_TEMPLATE, n, False)
            self._b = array.clone(_SLOT_TEMPLATE, n, False)
        except MemoryError:
            raise CknMemoryError(f"permutations: cannot allocate the parameters of {n:,} "
                                 f"permutations ({8 * n:,} bytes)") from None
        cdef slot_t* a = _sp(self._a)
        cdef slot_t* b = _sp(self._b)
        with nogil:
            minhash_parameters(n, a, b)

    @property
    def a(self):
        """Multipliers ``a_i`` (a copy, ``array('I')``)."""
        return _pyarray.array(_SLOT_CODE, self._a)

    @property
    def b(self):
        """Offsets ``b_i`` (a copy, ``array('I')``)."""
        return _pyarray.array(_SLOT_CODE, self._b)

    def __repr__(self):
        return f"MinHasher(permutations={self.permutations})"

    def __reduce__(self):
        return (MinHasher, (self.permutations,))

    def signature(self, shingles, /):
        """Signature (``array('I')`` of ``permutations`` slots) of one set of shingle hashes.

        Duplicates and order do not matter; every value must be < p = 2**31 - 1. The empty set
        has every slot = p.
        """
        cdef const slot_t[::1] xs = _shingle_set(shingles, "shingles")
        cdef Py_ssize_t m = xs.shape[0]
        cdef Py_ssize_t n = self.permutations
        cdef array.array out = array.clone(_SLOT_TEMPLATE, n, False)
        cdef const slot_t* xp = &xs[0] if m > 0 else NULL
        cdef slot_t* a = _sp(self._a)
        cdef slot_t* b = _sp(self._b)
        cdef slot_t* op = _sp(out)
        with nogil:
            minhash_signature(xp, m, a, b, n, op)
        return out

    def signatures(self, shingle_sets, /, *, threads=1):
        """Signatures of many shingle sets, as a :class:`SignatureMatrix` (n × permutations).

        ``numpy.asarray(result)`` and ``memoryview(result)`` view the uint32 buffer without a
        copy; ``result[i]`` is row i; ``result.tolist()`` gives nested lists. ``threads``: at
        most this many threads compute the rows (see :meth:`signatures_flat`).
        """
        cdef Py_ssize_t nthreads = _positive_int(threads, "threads")
        if shingle_sets is None or isinstance(shingle_sets, (str, bytes)):
            raise CknTypeError(f"shingle_sets: expected a sequence of shingle sets, "
                               f"got {type(shingle_sets).__name__}")
        cdef list sets = []
        cdef array.array arr
        cdef const slot_t[::1] xs
        cdef Py_ssize_t n, k, m, bad, total = 0
        for k, item in enumerate(shingle_sets):
            if type(item) is array.array and (<array.array>item).ob_descr.typecode == _SLOT_TC:
                arr = <array.array>item         # the common case: no memoryview, no copy
                m = Py_SIZE(arr)
                bad = _first_at_least_p(_sp(arr), m) if m > 0 else -1
                if bad >= 0:
                    raise CknValueError(f"shingle_sets[{k}][{bad}]: shingle hashes must be "
                                        f"< 2**31 - 1, got {_sp(arr)[bad]}")
            else:
                xs = _shingle_set(item, f"shingle_sets[{k}]")
                m = xs.shape[0]
                arr = array.clone(_SLOT_TEMPLATE, m, False)
                if m > 0:
                    memcpy(_sp(arr), &xs[0], m * sizeof(slot_t))
            sets.append(arr)
            total += m
        n = len(sets)
        cdef array.array values = array.clone(_SLOT_TEMPLATE, total, False)
        cdef array.array offsets = array.clone(_INDEX_TEMPLATE, n + 1, False)
        cdef index_t* off = <index_t*>offsets.data.as_voidptr
        cdef slot_t* val = _sp(values)
        off[0] = 0
        for k in range(n):
            arr = <array.array>sets[k]
            m = Py_SIZE(arr)
            if m > 0:
                memcpy(val + off[k], _sp(arr), m * sizeof(slot_t))
            off[k + 1] = off[k] + m
        del sets
        return self._csr_signatures(values, offsets, n, nthreads)

    cdef SignatureMatrix _csr_signatures(self, const slot_t[::1] values, array.array offsets,
                                         Py_ssize_t n, Py_ssize_t threads, str check=None):
        # The rows in `parts` contiguous ranges of about equal shingle counts: ranges 1.. on new
        # threads (or here, if one cannot be started), range 0 here. rows() holds references
        # to the buffers (an exported buffer cannot be resized), so they outlive a worker even
        # if the join below is interrupted. With `check` (the argument's name) each worker
        # also searches its values for one >= p (see _signature_rows): CknValueError for the
        # first in `values`.
        cdef Py_ssize_t perms = self.permutations
        cdef array.array out = array.clone(_SLOT_TEMPLATE, n * perms, False)
        cdef index_t* off = <index_t*>offsets.data.as_voidptr
        cdef Py_ssize_t parts, t
        cdef list bad = []

        def rows(Py_ssize_t lo, Py_ssize_t hi):
            cdef const slot_t* val = &values[0] if values.shape[0] > 0 else NULL
            cdef const index_t* row_off = <index_t*>offsets.data.as_voidptr + lo
            cdef const slot_t* a = _sp(self._a)
            cdef const slot_t* b = _sp(self._b)
            cdef slot_t* op = _sp(out) + lo * perms
            cdef Py_ssize_t first
            with nogil:
                first = _signature_rows(val, row_off, hi - lo, a, b, perms, op, check is not None)
            if first >= 0:
                bad.append(first)

        total = <object>off[n]      # Python ints: no overflow for any size
        parts = max(1, min(threads, n, total * perms // _WORK_PER_THREAD))
        bounds = [0]
        for t in range(1, parts):
            bounds.append(_first_row_from(off, n, total * t // parts))
        bounds.append(n)
        workers = []
        for t in range(1, parts):
            if bounds[t] == bounds[t + 1]:
                continue
            worker = _threading.Thread(target=rows, args=(bounds[t], bounds[t + 1]),
                                       name="ckn-minhash-signatures")
            try:
                worker.start()
            except RuntimeError:        # no thread available: this range runs here instead
                rows(bounds[t], bounds[t + 1])
            else:
                workers.append(worker)
        rows(0, bounds[1])
        for worker in workers:
            worker.join()
        if bad:
            t = min(bad)
            raise CknValueError(f"{check}[{t}]: shingle hashes must be < 2**31 - 1, "
                                f"got {values[t]}")
        return SignatureMatrix(out, n, perms)

    def signatures_flat(self, values, offsets, /, *, threads=1):
        """Signatures of n shingle sets given in CSR form, as a :class:`SignatureMatrix`.

        Set k is ``values[offsets[k]:offsets[k + 1]]`` (uint32 values < p; duplicates and order
        do not matter); ``offsets`` holds n + 1 non-decreasing integers from 0 to
        ``len(values)``. The one-call form of :meth:`signatures` for bulk work.

        ``threads`` (default 1: no thread is started): at most this many threads, the calling
        one included, compute the rows, each thread a contiguous range with about the same
        number of shingles, with the GIL released. One thread is used per 2**21 shingle ×
        permutation evaluations (~0.15 ms of AVX-512 kernel time, ~0.4 ms of AVX2; starting a
        thread costs ~0.1 ms) and per row at most. The result does not depend on ``threads``.

        >>> mh = MinHasher(8)
        >>> mh.signatures_flat([1, 2, 3, 4, 5], [0, 3, 5]) == mh.signatures([[1, 2, 3], [4, 5]])
        True
        """
        cdef Py_ssize_t nthreads = _positive_int(threads, "threads")
        cdef const slot_t[::1] xs = _slots(values, "values")
        cdef array.array off = _offsets_array(offsets)
        cdef Py_ssize_t n = len(off) - 1, m = xs.shape[0]
        _check_offsets(off, m)
        return self._csr_signatures(xs, off, n, nthreads, "values")

    def text_signatures(self, texts, /, shingle_size=3, *, threads=1):
        """Signatures of many texts (``text_shingles`` of each), as a :class:`SignatureMatrix`.

        One text pass (:func:`ckn.scanner.scan`), then shingling and hashing of every set in C
        with the GIL released. Row k equals ``self.text_signature(texts[k], shingle_size)``.
        ``threads``: at most this many threads compute the signatures (see
        :meth:`signatures_flat`).

        >>> mh = MinHasher(8)
        >>> mh.text_signatures(["a b c d", ""])[0] == mh.text_signature("a b c d")
        True
        """
        cdef Py_ssize_t size = _positive_int(shingle_size, "shingle_size")
        cdef Py_ssize_t nthreads = _positive_int(threads, "threads")
        if texts is None or isinstance(texts, (str, bytes)):
            raise CknTypeError(f"texts: expected a sequence of str, got {type(texts).__name__}")
        th = _scan(texts)
        return self._term_hash_signatures(th.values, th.offsets, size, nthreads)

    def term_hash_signatures(self, values, offsets, /, shingle_size=3, *, threads=1, rows=None):
        """Signatures of the shingle sets of n term-hash sequences in CSR form.

        Sequence k is ``values[offsets[k]:offsets[k + 1]]`` (uint64 term hashes, e.g. from
        :func:`ckn.scanner.scan`); row k equals ``self.signature(shingle_hashes(sequence k,
        shingle_size))``. Shingling and hashing run in C with the GIL released. ``threads``: at
        most this many threads compute the signatures (see :meth:`signatures_flat`).
        ``rows`` (optional): sequence indices; row k of the result is then that of sequence
        ``rows[k]`` (a subset or reordering of a pool without copying its hashes).

        >>> from ckn.scanner import scan
        >>> mh = MinHasher(8)
        >>> th = scan(["a b c d", "x"])
        >>> mh.term_hash_signatures(th.values, th.offsets) == mh.text_signatures(["a b c d", "x"])
        True
        """
        cdef Py_ssize_t size = _positive_int(shingle_size, "shingle_size")
        cdef Py_ssize_t nthreads = _positive_int(threads, "threads")
        cdef const hash_t[::1] hv = _hashes(values, "values")
        cdef array.array off = _offsets_array(offsets)
        _check_offsets(off, hv.shape[0])
        return self._term_hash_signatures(hv, off, size, nthreads,
                                          None if rows is None else _rows_array(rows, len(off) - 1))

    cdef SignatureMatrix _term_hash_signatures(self, const hash_t[::1] hashes, array.array toff,
                                               Py_ssize_t size, Py_ssize_t threads,
                                               array.array rows=None):
        cdef SignaturePass one
        if threads == 1:  # shingles and signatures in one GIL-free stretch
            one = SignaturePass(self, hashes, toff, size, rows)
            run_pass(&one.c, True)
            return one.finish()
        cdef Py_ssize_t n = len(toff) - 1 if rows is None else len(rows), k, r, total = 0
        cdef index_t* tp = <index_t*>toff.data.as_voidptr
        cdef const index_t* rp = NULL if rows is None else <index_t*>rows.data.as_voidptr
        for k in range(n):
            r = k if rp == NULL else rp[k]
            total += minhash_shingle_count(tp[r + 1] - tp[r], size)
        cdef array.array values = array.clone(_SLOT_TEMPLATE, total, False)
        cdef array.array offsets = array.clone(_INDEX_TEMPLATE, n + 1, False)
        cdef const hash_t* hp = &hashes[0] if hashes.shape[0] > 0 else NULL
        cdef slot_t* vp = _sp(values)
        cdef index_t* op = <index_t*>offsets.data.as_voidptr
        with nogil:
            _csr_shingle_sets(hp, tp, rp, n, size, vp, op)
        return self._csr_signatures(values, offsets, n, threads)

    def text_signature(self, text, /, shingle_size=3):
        """Signature of ``text_shingles(text, shingle_size)``."""
        return self.signature(text_shingles(text, shingle_size))


ctypedef struct _SignatureState:
    const hash_t* hashes
    const index_t* term_offsets
    const index_t* rows          # NULL: every sequence, in order
    Py_ssize_t n                 # result rows
    Py_ssize_t shingle_size
    const slot_t* a
    const slot_t* b
    Py_ssize_t permutations
    slot_t* out                  # n x permutations
    int status                   # 1 until the pass has run


cdef enum:
    _BLOCK_SHINGLES = 8192  # shingle values made at a time by a signature pass (32 KiB)


cdef int _signature_run(void* state) noexcept nogil:
    # The term offsets are read here, not when the pass is made: a scan pass may fill them
    # first in the same stretch. The shingle sets are made and signed a block of rows at a
    # time (about _BLOCK_SHINGLES values, more for a row that holds more), so that they stay in
    # the cache between the two steps and a pool's sets never take its size in memory.
    cdef _SignatureState* s = <_SignatureState*>state
    cdef Py_ssize_t k0 = 0, k1, r, count, total, cap = _BLOCK_SHINGLES, most = 0
    for k1 in range(s.n):
        r = k1 if s.rows == NULL else s.rows[k1]
        count = minhash_shingle_count(s.term_offsets[r + 1] - s.term_offsets[r], s.shingle_size)
        most = count if count > most else most
    cap = most if most > cap else cap
    cdef slot_t* values = <slot_t*>malloc(cap * sizeof(slot_t))
    cdef index_t* offsets = <index_t*>malloc((s.n + 1) * sizeof(index_t))
    s.status = CKN_ENOMEM if values == NULL or offsets == NULL else CKN_OK
    while s.status == CKN_OK and k0 < s.n:
        total, k1 = 0, k0
        while k1 < s.n:  # rows k0 .. k1 - 1: at least one, within cap values
            r = k1 if s.rows == NULL else s.rows[k1]
            count = minhash_shingle_count(s.term_offsets[r + 1] - s.term_offsets[r],
                                          s.shingle_size)
            if total + count > cap:
                break
            total += count
            k1 += 1
        if s.rows == NULL:  # rows k0.. of the sequences: offsets from k0 on
            _csr_shingle_sets(s.hashes, s.term_offsets + k0, NULL, k1 - k0, s.shingle_size,
                              values, offsets)
        else:
            _csr_shingle_sets(s.hashes, s.term_offsets, s.rows + k0, k1 - k0, s.shingle_size,
                              values, offsets)
        minhash_signatures(values, offsets, k1 - k0, s.a, s.b, s.permutations,
                           s.out + k0 * s.permutations)
        k0 = k1
    free(values)
    free(offsets)
    return s.status


@cython.final
cdef class SignaturePass:
    """``MinHasher.term_hash_signatures(hashes, term_offsets, shingle_size, rows=rows)`` (one
    thread) prepared to run without the GIL (``ckn._passes``): the result allocated, the inputs
    held and trusted (checked by the caller), the term offsets read only when it runs, so that
    they may be a :class:`ckn.scanner.ScanPass`'s, filled by that pass first."""

    cdef ckn_pass c
    cdef _SignatureState s
    cdef MinHasher hasher
    cdef const hash_t[::1] hashes        # held until finish()
    cdef const index_t[::1] term_offsets
    cdef array.array rows
    cdef array.array out

    def __cinit__(self, MinHasher hasher not None, const hash_t[::1] hashes,
                  const index_t[::1] term_offsets, Py_ssize_t shingle_size,
                  array.array rows=None):
        self.c.run = _signature_run
        self.c.state = &self.s
        self.s.status = 1
        self.hasher, self.hashes, self.term_offsets, self.rows = hasher, hashes, term_offsets, rows
        self.s.n = term_offsets.shape[0] - 1 if rows is None else len(rows)
        self.s.hashes = &hashes[0] if hashes.shape[0] > 0 else NULL
        self.s.term_offsets = &term_offsets[0]
        self.s.rows = NULL if rows is None else <index_t*>rows.data.as_voidptr
        self.s.shingle_size = shingle_size
        self.s.a = _sp(hasher._a)
        self.s.b = _sp(hasher._b)
        self.s.permutations = hasher.permutations
        self.out = array.clone(_SLOT_TEMPLATE, self.s.n * hasher.permutations, False)
        self.s.out = _sp(self.out)

    def _pass(self):
        return pass_capsule(&self.c)

    def finish(self):
        """The :class:`SignatureMatrix` (n x permutations)."""
        if self.s.status == 1:
            raise RuntimeError("SignaturePass.finish: the pass has not run")
        if self.out is None:
            raise RuntimeError("SignaturePass.finish: the matrix was handed out already")
        self.hashes = self.term_offsets = None  # (the scan may trim its arrays now)
        if self.s.status != CKN_OK:
            raise CknMemoryError(f"signatures: out of memory for the shingles of {self.s.n:,} "
                                 f"sequences")
        out, self.out = self.out, None  # (the matrix owns it now)
        return SignatureMatrix(out, self.s.n, self.s.permutations)


def similarity(sig1, sig2, /):
    """Estimated similarity of two signatures: the fraction of equal slots (0.0 if either is empty).

    A signature with a slot above 2**31 − 1, or mixing 2**31 − 1 (every slot of an empty set)
    with other values, comes from no set: CknValueError.

    >>> mh = MinHasher(8)
    >>> similarity(mh.signature([1, 2, 3]), mh.signature([1, 2, 3]))
    1.0
    >>> similarity(mh.signature([]), mh.signature([]))
    0.0
    """
    cdef const slot_t[::1] s1 = _slots(sig1, "sig1")
    cdef const slot_t[::1] s2 = _slots(sig2, "sig2")
    cdef Py_ssize_t n = s1.shape[0]
    if n != s2.shape[0]:
        raise CknValueError(f"sig1, sig2: signatures have different lengths "
                            f"({n} and {s2.shape[0]}); were they made with the same permutations?")
    if n == 0:
        raise CknValueError("sig1, sig2: signatures must have at least one slot")
    _check_signatures(&s1[0], 1, n, "sig1")
    _check_signatures(&s2[0], 1, n, "sig2")
    cdef double out
    with nogil:
        out = minhash_similarity(&s1[0], &s2[0], n)
    return out


def jaccard(set1, set2, /):
    """Exact Jaccard similarity of two shingle-hash sets (0.0 when both are empty)."""
    cdef array.array x1 = _sorted_unique(_slots(set1, "set1"))
    cdef array.array x2 = _sorted_unique(_slots(set2, "set2"))
    cdef Py_ssize_t n1 = len(x1), n2 = len(x2)
    cdef double out
    with nogil:
        out = minhash_jaccard(x1.data.as_uints, n1, x2.data.as_uints, n2)
    return out
