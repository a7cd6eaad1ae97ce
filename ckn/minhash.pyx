"""MinHash near-duplicate detection, exactly as SPEC §7 defines it (Broder 1997).

Text → :func:`ckn.terms.terms` → FNV-1a-64 term hashes → shingle hashes ``x = s mod p``
(``p = 2**31 - 1``) → signatures ``slot_i = min (a_i·x + b_i) mod p`` → estimated similarity
(fraction of equal slots) → the dedup pass in rank order. Everything is deterministic: no
Python ``hash()``, a fixed seed (0x5EED), so signatures agree across processes and machines.

The C kernels are declared in ``ckn/minhash.pxd`` (``noexcept nogil``, caller-owned buffers);
the ``def`` functions here validate, allocate Python-owned buffers, release the GIL and map
status codes to :mod:`ckn.errors`. See docs/minhash.md.
"""

cimport cython
from cpython cimport array
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_WRITABLE
from cpython.object cimport Py_SIZE
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.math cimport INFINITY
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

import array as _pyarray
from numbers import Real as _Real
from operator import index as _index
import threading as _threading
from typing import NamedTuple

from ckn.errors import CknMemoryError, CknTypeError, CknValueError
from ckn.scanner import scan as _scan, text_hashes as _text_hashes
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


cdef inline hash_t _mix64(hash_t z) noexcept nogil:
    z = z ^ (z >> 30)
    z = z * 0xBF58476D1CE4E5B9ULL
    z = z ^ (z >> 27)
    z = z * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


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


cdef inline void _sift_down(slot_t* xs, Py_ssize_t root, Py_ssize_t end) noexcept nogil:
    # Max-heap sift-down over xs[0..end).
    cdef Py_ssize_t child
    cdef slot_t tmp
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and xs[child + 1] > xs[child]:
            child += 1
        if xs[root] >= xs[child]:
            return
        tmp = xs[root]
        xs[root] = xs[child]
        xs[child] = tmp
        root = child


cdef Py_ssize_t minhash_sort_unique(slot_t* xs, Py_ssize_t n) noexcept nogil:
    # Insertion sort for short runs, heapsort otherwise: in place, no allocation, O(n log n).
    cdef Py_ssize_t i, j, k
    cdef slot_t v, tmp
    if n <= 0:
        return 0
    if n <= 32:
        for i in range(1, n):
            v = xs[i]
            j = i
            while j > 0 and xs[j - 1] > v:
                xs[j] = xs[j - 1]
                j -= 1
            xs[j] = v
    else:
        i = n // 2
        while i > 0:
            i -= 1
            _sift_down(xs, i, n)
        i = n
        while i > 1:
            i -= 1
            tmp = xs[0]
            xs[0] = xs[i]
            xs[i] = tmp
            _sift_down(xs, 0, i)
    k = 1
    for i in range(1, n):
        if xs[i] != xs[k - 1]:
            xs[k] = xs[i]
            k += 1
    return k


cdef enum:
    _BLOCK = 16     # permutations per register block in _signature_portable
    _AVX512_PASS = 64   # permutations per pass of the AVX-512 kernel over a set
    # Bulk signatures use one more thread per this many shingle × permutation evaluations.
    _WORK_PER_THREAD = 1 << 21


cdef extern from "minhash_simd.h":
    Py_ssize_t ckn_mh_signature_avx2(const slot_t* xs, Py_ssize_t m, const slot_t* a,
                                     const slot_t* b, Py_ssize_t perms, slot_t* out) noexcept nogil
    int ckn_mh_have_avx2() noexcept nogil
    Py_ssize_t ckn_mh_signature_fold_avx512(const slot_t* xs, Py_ssize_t m, const slot_t* a,
                                            const slot_t* b, Py_ssize_t perms,
                                            slot_t* out) noexcept nogil
    void ckn_mh_signature_fixed_avx512(const slot_t* xs, Py_ssize_t m, const uint64_t* A,
                                       const uint64_t* B, Py_ssize_t perms,
                                       slot_t* out) noexcept nogil
    int ckn_mh_is_amd() noexcept nogil
    void ckn_mh_fixed_params(const slot_t* a, const slot_t* b, Py_ssize_t n, uint64_t* A,
                             uint64_t* B) noexcept nogil
    int ckn_mh_have_avx512() noexcept nogil
    Py_ssize_t ckn_mh_shingles3_avx512(const hash_t* t, Py_ssize_t count, slot_t* out) noexcept nogil
    void ckn_mh_row_counts_avx512(const slot_t* sig, Py_ssize_t perms, const slot_t* row,
                                  const index_t* rows, Py_ssize_t m, index_t* counts) noexcept nogil
    void ckn_mh_row_bounds_avx512(const uint8_t* fp, const uint8_t* row, const index_t* rows,
                                  Py_ssize_t m, index_t* bounds) noexcept nogil
    int ckn_mh_have_avx512bw() noexcept nogil


# Set once at import (CKN_NO_SIMD=1 in the environment forces the portable path and
# CKN_NO_AVX512=1 the AVX2 one, for tests; CKN_MH_KERNEL=fixed or fold picks the AVX-512
# signature kernel, else the CPU's vendor does).
cdef bint _USE_AVX2 = False
cdef bint _USE_AVX512 = False
cdef bint _USE_FIXED = False     # the AVX-512 signatures in fixed point (else the fold kernel)
cdef bint _USE_AVX512BW = False  # byte fingerprints bound the pairs pass's counts (64 slots)
# Slots one compare of two signatures covers (_dedup_indexed's choice of _dedup_pairs).
cdef Py_ssize_t _PAIR_LANES = 4
# Cost of one chain step of _dedup_indexed (a dependent load, usually a cache miss) in
# compares of _PAIR_LANES slots of _dedup_pairs: measured 20 to 80, growing with the pool.
cdef double _CHAIN_STEP = 60.0


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


cdef inline Py_ssize_t _equal_slots(const slot_t* s1, const slot_t* s2,
                                    Py_ssize_t permutations) noexcept nogil:
    # Slots equal to p (an empty set) never count as a match; vectorises.
    cdef Py_ssize_t i
    cdef Py_ssize_t eq = 0
    for i in range(permutations):
        eq += (s1[i] == s2[i]) & (s1[i] != MINHASH_PRIME)
    return eq


cdef double minhash_similarity(const slot_t* s1, const slot_t* s2,
                               Py_ssize_t permutations) noexcept nogil:
    return <double>_equal_slots(s1, s2, permutations) / <double>permutations


cdef double minhash_jaccard(const slot_t* x1, Py_ssize_t n1,
                            const slot_t* x2, Py_ssize_t n2) noexcept nogil:
    cdef Py_ssize_t i = 0, j = 0, common = 0
    if n1 + n2 == 0:
        return 0.0
    while i < n1 and j < n2:
        if x1[i] < x2[j]:
            i += 1
        elif x1[i] > x2[j]:
            j += 1
        else:
            common += 1
            i += 1
            j += 1
    return <double>common / <double>(n1 + n2 - common)


cdef struct _Best:
    Py_ssize_t top       # most equal slots against any earlier kept chunk
    Py_ssize_t eq        # equal slots of the chosen duplicate (-1: none yet)
    Py_ssize_t j         # the chosen kept chunk (-1: none)
    double exact         # its exact Jaccard (-1: not computed)


cdef inline void _best_reset(_Best* b) noexcept nogil:
    b.top = 0
    b.eq = -1
    b.j = -1
    b.exact = -1.0


cdef inline void _best_offer(_Best* b, Py_ssize_t i, Py_ssize_t j, Py_ssize_t eq,
                             Py_ssize_t permutations, double threshold,
                             const index_t* set_offsets, const slot_t* set_values) noexcept nogil:
    """Consider kept chunk j < i with ``eq`` equal slots (candidates come in ascending j, so a
    tie keeps the higher-ranked one); with sets, the exact Jaccard must also qualify."""
    cdef double exact
    if eq > b.top:
        b.top = eq
    if eq <= b.eq:
        return
    if not (<double>eq / <double>permutations >= threshold):
        return
    if set_offsets != NULL:
        exact = minhash_jaccard(
            set_values + set_offsets[i], set_offsets[i + 1] - set_offsets[i],
            set_values + set_offsets[j], set_offsets[j + 1] - set_offsets[j])
        if not (exact >= threshold):
            return
        b.exact = exact
    b.eq = eq
    b.j = j


cdef inline void _best_write(const _Best* b, Py_ssize_t i, Py_ssize_t permutations, uint8_t* kept,
                             index_t* duplicate_of, double* similarity,
                             double* exact_jaccard) noexcept nogil:
    """Chunk i's dedup outputs (see minhash_dedup in minhash.pxd)."""
    if b.j < 0:
        kept[i] = 1
        duplicate_of[i] = -1
        similarity[i] = <double>b.top / <double>permutations
        exact_jaccard[i] = -1.0
    else:
        kept[i] = 0
        duplicate_of[i] = b.j
        similarity[i] = <double>b.eq / <double>permutations
        exact_jaccard[i] = b.exact


cdef int minhash_dedup(const slot_t* signatures, Py_ssize_t n, Py_ssize_t permutations,
                       double threshold, const index_t* set_offsets, const slot_t* set_values,
                       uint8_t* kept, index_t* duplicate_of, double* similarity,
                       double* exact_jaccard) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef _Best best
    cdef const slot_t* row
    if n < 0 or permutations < 1 or not (threshold > 0.0 and threshold <= 1.0):
        return CKN_EINVAL
    for i in range(n):
        row = signatures + i * permutations
        _best_reset(&best)
        for j in range(i):
            if not kept[j]:
                continue
            _best_offer(&best, i, j, _equal_slots(row, signatures + j * permutations, permutations),
                        permutations, threshold, set_offsets, set_values)
        _best_write(&best, i, permutations, kept, duplicate_of, similarity, exact_jaccard)
    return CKN_OK


# ---------------------------------------------------------------------------------------------
# Private helpers (not part of the C API).
# ---------------------------------------------------------------------------------------------

cdef enum:
    _AUTO = 0         # _dedup_indexed's path: switch to _dedup_pairs when the rows share a lot
    _INDEX_ONLY = 1   # (tests) never switch
    _PAIRS_ONLY = 2   # (tests) compare all pairs from the start
    _BANDED = 3       # _dedup_run: _dedup_indexed if its chains are short, else _dedup_banded
    _LINEAR = 4       # _dedup_indexed only if T <= 2 n permutations, else return _NOT_LINEAR
    _BANDS_ONLY = 5   # (tests) _dedup_banded always
    _NOT_LINEAR = -100


cdef Py_ssize_t _band_width(Py_ssize_t permutations, double threshold) noexcept nogil:
    """Slots per band r for ``threshold``: the widest r whose b = permutations // r bands
    outnumber d = permutations - least, the most slots in which two signatures that qualify
    (at least ``least`` equal slots, none equal to p) can disagree; then some band of r slots
    is equal in both (pigeonhole). r = 1 always works (least >= 1 since threshold > 0); 0 when
    no count qualifies. At 64 slots and 0.75: least = 48, d = 16, r = 3, b = 21."""
    cdef Py_ssize_t least = _least_qualifying(permutations, threshold), r = permutations
    if least > permutations:
        return 0
    while permutations // r <= permutations - least:
        r -= 1
    return r


cdef inline uint64_t _band_hash(const slot_t* band, Py_ssize_t r) noexcept nogil:
    cdef uint64_t h = 0
    cdef Py_ssize_t k
    for k in range(r):
        h = _mix64(h ^ band[k])
    return h


cdef inline bint _band_indexable(const slot_t* band, Py_ssize_t r) noexcept nogil:
    """False when a slot equals p (an empty set's: such slots never count as equal)."""
    cdef Py_ssize_t k
    for k in range(r):
        if band[k] == MINHASH_PRIME:
            return False
    return True


cdef inline bint _band_equal(const slot_t* x, const slot_t* y, Py_ssize_t r) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(r):
        if x[k] != y[k]:
            return False
    return True


cdef int _dedup_banded(const slot_t* signatures, Py_ssize_t n, Py_ssize_t permutations,
                       double threshold, const index_t* set_offsets, const slot_t* set_values,
                       uint8_t* kept, index_t* duplicate_of, double* similarity,
                       double* exact_jaccard) noexcept nogil:
    # minhash_dedup's decisions and outputs in two passes.
    # 1. Decisions. The signature is cut into b bands of r slots (_band_width): two signatures
    #    that qualify agree on every slot of some band, so row i need only be compared with
    #    the kept rows that share one of its bands (per band, a hash table of band values ->
    #    kept rows; bands holding p are not indexed, they can never be that band). Those are
    #    offered in ascending row order as in minhash_dedup, and every qualifying row is among
    #    them: the same choice. Dropped rows are never indexed. O(n * b) lookups plus the
    #    compares of the rows found.
    # 2. The kept rows' maximum estimate against the earlier kept rows (all pairs, not just
    #    those that qualify): _kept_overlaps, over the kept rows alone.
    # Memory: b tables of >= 2n 4-byte entries, 8 bytes per (kept row, band), then
    # _kept_overlaps'. Returns CKN_OK or CKN_ENOMEM (outputs partly written; the caller runs
    # another path, which writes them all).
    cdef Py_ssize_t r = _band_width(permutations, threshold)
    cdef Py_ssize_t bands = permutations // r if r > 0 else 0
    cdef Py_ssize_t size = 64, bits = 6, i, j, k, q, nc, m = 0, pos
    cdef uint32_t used = 0, node
    cdef int status
    cdef const slot_t* row
    cdef const slot_t* band
    cdef uint32_t* table
    cdef _Best best
    if n == 0:
        return CKN_OK
    if <double>n * <double>(bands + 1) >= 2147483647.0:   # node numbers fit 32 bits
        return CKN_ENOMEM
    while size < 2 * n:
        size *= 2
        bits += 1
    # tables[k * size + h]: 1 + the newest node of band k's value at h (0: empty)
    cdef uint32_t* tables = <uint32_t*>calloc(<size_t>(bands * size if bands else 1),
                                              sizeof(uint32_t))
    # node t: row nodes_row[t]; nodes_next[t]: 1 + the next (older) node of the same value
    cdef uint32_t* nodes_row = <uint32_t*>malloc(<size_t>(bands * n if bands else 1)
                                                 * sizeof(uint32_t))
    cdef uint32_t* nodes_next = <uint32_t*>malloc(<size_t>(bands * n if bands else 1)
                                                  * sizeof(uint32_t))
    cdef index_t* stamp = <index_t*>malloc(n * sizeof(index_t))
    cdef index_t* cand = <index_t*>malloc(n * sizeof(index_t))
    cdef index_t* rows = <index_t*>malloc(n * sizeof(index_t))
    if (tables == NULL or nodes_row == NULL or nodes_next == NULL or stamp == NULL
            or cand == NULL or rows == NULL):
        free(tables)
        free(nodes_row)
        free(nodes_next)
        free(stamp)
        free(cand)
        free(rows)
        return CKN_ENOMEM
    for i in range(n):
        stamp[i] = -1
    for i in range(n):
        row = signatures + i * permutations
        nc = 0
        for k in range(bands):
            band = row + k * r
            if not _band_indexable(band, r):
                continue
            table = tables + k * size
            pos = <Py_ssize_t>(_band_hash(band, r) >> (64 - bits))
            while table[pos]:
                node = table[pos] - 1
                if _band_equal(signatures + <Py_ssize_t>nodes_row[node] * permutations + k * r,
                               band, r):
                    while True:
                        j = nodes_row[node]
                        if stamp[j] != i:
                            stamp[j] = i
                            cand[nc] = j
                            nc += 1
                        if nodes_next[node] == 0:
                            break
                        node = nodes_next[node] - 1
                    break
                pos = (pos + 1) & (size - 1)
        _sort_indices(cand, nc)
        _best_reset(&best)
        for q in range(nc):
            j = cand[q]
            _best_offer(&best, i, j, _equal_slots(row, signatures + j * permutations, permutations),
                        permutations, threshold, set_offsets, set_values)
        _best_write(&best, i, permutations, kept, duplicate_of, similarity, exact_jaccard)
        if not kept[i]:
            continue
        rows[m] = i
        m += 1
        for k in range(bands):
            band = row + k * r
            if not _band_indexable(band, r):
                continue
            table = tables + k * size
            pos = <Py_ssize_t>(_band_hash(band, r) >> (64 - bits))
            while table[pos] and not _band_equal(
                    signatures + <Py_ssize_t>nodes_row[table[pos] - 1] * permutations + k * r,
                    band, r):
                pos = (pos + 1) & (size - 1)
            nodes_row[used] = <uint32_t>i
            nodes_next[used] = table[pos]
            used += 1
            table[pos] = used
    free(tables)
    free(nodes_row)
    free(nodes_next)
    free(stamp)
    free(cand)
    status = _kept_overlaps(signatures, permutations, rows, m, similarity)
    free(rows)
    return status


cdef int _kept_overlaps(const slot_t* signatures, Py_ssize_t permutations, const index_t* rows,
                        Py_ssize_t m, double* similarity) noexcept nogil:
    # similarity[rows[q]] = the maximum estimate of row rows[q] against rows[0..q) (rows
    # ascending; all pairs, not only those that qualify): _dedup_indexed over a copy of those
    # rows with nothing qualifying (threshold infinite): O(the equal (row, earlier row, slot)
    # triples among the rows), all pairs of them when they share many values. 4 bytes per
    # (row, slot) for the copy and _dedup_indexed's 12. CKN_OK or CKN_ENOMEM.
    cdef slot_t* sub = <slot_t*>malloc(<size_t>(m * permutations if m else 1) * sizeof(slot_t))
    cdef uint8_t* k_out = <uint8_t*>malloc(<size_t>(m if m else 1))
    cdef index_t* d_out = <index_t*>malloc(<size_t>(m if m else 1) * sizeof(index_t))
    cdef double* s_out = <double*>malloc(<size_t>(m if m else 1) * sizeof(double))
    cdef double* e_out = <double*>malloc(<size_t>(m if m else 1) * sizeof(double))
    cdef Py_ssize_t q
    cdef int status = CKN_ENOMEM
    if sub != NULL and k_out != NULL and d_out != NULL and s_out != NULL and e_out != NULL:
        for q in range(m):
            memcpy(sub + q * permutations, signatures + rows[q] * permutations,
                   <size_t>permutations * sizeof(slot_t))
        status = _dedup_indexed(sub, m, permutations, INFINITY, NULL, NULL, k_out, d_out, s_out,
                                e_out, _AUTO)
        if status == CKN_OK:
            for q in range(m):
                similarity[rows[q]] = s_out[q]
    free(sub)
    free(k_out)
    free(d_out)
    free(s_out)
    free(e_out)
    return status


cdef int _dedup_indexed(const slot_t* signatures, Py_ssize_t n, Py_ssize_t permutations,
                        double threshold, const index_t* set_offsets, const slot_t* set_values,
                        uint8_t* kept, index_t* duplicate_of, double* similarity,
                        double* exact_jaccard, int path) noexcept nogil:
    # The same decisions and outputs as minhash_dedup, from an inverted index instead of all
    # pairs: for every slot, each row is chained to the previous row with the same value there
    # (one pass per slot through an open-addressing table of value -> last row), so row i meets
    # only the earlier rows that share at least one slot value with it (its equal-slot count
    # with every other row is 0, which never qualifies nor raises the maximum). The candidates
    # are then examined in ascending row order, exactly as minhash_dedup's loop does.
    # O(n * permutations + T) for the T (row, earlier row, slot) triples with equal values,
    # which the table counts exactly as the chains are built. When T would cost more than
    # comparing all pairs of rows (a chain step, a cache miss, costs tens of compares of
    # _PAIR_LANES slots: ``_CHAIN_STEP``; texts sharing many shingles: boilerplate, repeated
    # sentences), ``_dedup_pairs`` decides instead: O(n^2 * permutations / 16) with AVX-512,
    # and the build stops as soon as the count passes that. Returns CKN_OK,
    # CKN_ENOMEM if scratch memory is unavailable (nothing written; the caller falls back to
    # minhash_dedup), or CKN_EINVAL like minhash_dedup (a threshold above 1, infinity included,
    # is accepted here: nothing qualifies, the outputs are the maximum estimates).
    if n < 0 or permutations < 1 or not (threshold > 0.0):
        return CKN_EINVAL
    if n == 0:
        return CKN_OK
    if path == _PAIRS_ONLY:
        return _dedup_pairs(signatures, n, permutations, threshold, set_offsets, set_values,
                            kept, duplicate_of, similarity, exact_jaccard, 0)
    if <uint64_t>n >= 0xFFFFFFFFULL:  # a row + 1 must fit a table entry's 32 bits
        return _dedup_pairs(signatures, n, permutations, threshold, set_offsets, set_values,
                            kept, duplicate_of, similarity, exact_jaccard, 0)
    cdef Py_ssize_t size = 64, bits = 6
    while size < 8 * n:             # load factor <= 1/8: a probe rarely meets another value
        size *= 2
        bits += 1
    # columns[s * n + i]: row i's value in slot s (each slot's values in one run)
    cdef slot_t* columns = <slot_t*>malloc(n * permutations * sizeof(slot_t))
    # chain[s * n + i]: the previous row with row i's value in slot s, or -1
    cdef index_t* chain = <index_t*>malloc(n * permutations * sizeof(index_t))
    # open addressing, value -> 1 + the last row with it (0: empty), and how many rows have it;
    # at[i]: row i's entry
    cdef uint32_t* table = <uint32_t*>calloc(size, sizeof(uint32_t))
    cdef uint32_t* held = <uint32_t*>calloc(size, sizeof(uint32_t))
    cdef Py_ssize_t* at = <Py_ssize_t*>malloc(n * sizeof(Py_ssize_t))
    cdef index_t* counts = <index_t*>malloc(n * sizeof(index_t))
    cdef index_t* touched = <index_t*>malloc(n * sizeof(index_t))
    cdef Py_ssize_t s, i, j, q, h, n_touched
    cdef const slot_t* column
    cdef index_t* link
    cdef _Best best
    cdef slot_t value
    cdef uint32_t entry
    # the chain steps the walk will take (T), and what comparing all pairs of rows would cost
    # in chain steps (a compare of two rows: (slots per compare) / _CHAIN_STEP steps)
    cdef double steps = 0.0
    cdef double budget = (<double>((permutations + _PAIR_LANES - 1) // _PAIR_LANES) / _CHAIN_STEP
                          * (<double>n * <double>(n - 1) / 2.0))
    if path == _INDEX_ONLY:
        budget = INFINITY
    elif path == _LINEAR:
        budget = 2.0 * <double>n * <double>permutations
    if (columns == NULL or chain == NULL or table == NULL or held == NULL or at == NULL
            or counts == NULL or touched == NULL):
        free(columns)
        free(chain)
        free(table)
        free(held)
        free(at)
        free(counts)
        free(touched)
        return CKN_ENOMEM
    for i in range(n):
        for s in range(permutations):
            columns[s * n + i] = signatures[i * permutations + s]
    for s in range(permutations):
        column = columns + s * n
        link = chain + s * n
        for i in range(n):
            value = column[i]
            h = <Py_ssize_t>((<uint64_t>value * 0x9E3779B97F4A7C15ULL) >> (64 - bits))
            entry = table[h]
            while entry != 0 and column[entry - 1] != value:
                h = (h + 1) & (size - 1)
                entry = table[h]
            link[i] = <index_t>entry - 1
            if entry == 0:
                held[h] = 1
            else:
                if value != MINHASH_PRIME:  # (the walk skips slots equal to p)
                    steps += held[h]
                held[h] += 1
            table[h] = <uint32_t>(i + 1)
            at[i] = h
        for i in range(n):          # empty again for the next slot
            table[at[i]] = 0
            held[at[i]] = 0
        if steps > budget:
            break                   # the rows share many values: all pairs (below)
    free(columns)
    free(table)
    free(held)
    free(at)
    if steps > budget:
        free(chain)
        free(counts)
        free(touched)
        if path == _LINEAR:
            return _NOT_LINEAR
        return _dedup_pairs(signatures, n, permutations, threshold, set_offsets, set_values,
                            kept, duplicate_of, similarity, exact_jaccard, 0)
    memset(counts, 0, n * sizeof(index_t))
    for i in range(n):
        n_touched = 0
        for s in range(permutations):
            if signatures[i * permutations + s] == MINHASH_PRIME:  # a slot equal to p never counts
                continue
            link = chain + s * n
            j = link[i]
            while j >= 0:
                if kept[j]:
                    if counts[j] == 0:
                        touched[n_touched] = j
                        n_touched += 1
                    counts[j] += 1
                j = link[j]
        _sort_indices(touched, n_touched)
        _best_reset(&best)
        for q in range(n_touched):
            j = touched[q]
            _best_offer(&best, i, j, counts[j], permutations, threshold, set_offsets, set_values)
            counts[j] = 0
        _best_write(&best, i, permutations, kept, duplicate_of, similarity, exact_jaccard)
    free(chain)
    free(counts)
    free(touched)
    return CKN_OK


cdef int _dedup_pairs(const slot_t* signatures, Py_ssize_t n, Py_ssize_t permutations,
                      double threshold, const index_t* set_offsets, const slot_t* set_values,
                      uint8_t* kept, index_t* duplicate_of, double* similarity,
                      double* exact_jaccard, Py_ssize_t start) noexcept nogil:
    # minhash_dedup's decisions for rows start..n-1 (rows before ``start`` are decided: their
    # ``kept`` flags are read) by comparing each row with the kept rows before it, their
    # equal-slot counts computed in one call per row (``ckn_mh_row_counts_avx512``, or
    # ``_equal_slots``); only rows with a shared slot are offered, as in _dedup_indexed.
    # With 64 slots and AVX-512BW, a row is first compared by its slots' low bytes (one
    # compare per row pair, ``_offer_bounded``). Returns CKN_OK or CKN_ENOMEM (rows from
    # ``start`` on not written).
    cdef index_t* rows = <index_t*>malloc((n if n > 0 else 1) * sizeof(index_t))
    cdef index_t* counts = <index_t*>malloc((n if n > 0 else 1) * sizeof(index_t))
    cdef bint bounded = _USE_AVX512BW and permutations == 64
    cdef uint8_t* fp = <uint8_t*>malloc(n * 64 if bounded and n > 0 else 1)
    cdef Py_ssize_t i, q, m = 0, least = _least_qualifying(permutations, threshold)
    cdef const slot_t* row
    cdef _Best best
    if rows == NULL or counts == NULL or fp == NULL:
        free(rows)
        free(counts)
        free(fp)
        return CKN_ENOMEM
    if bounded:
        for i in range(n * 64):
            fp[i] = <uint8_t>signatures[i]
    for i in range(start):
        if kept[i]:
            rows[m] = i
            m += 1
    for i in range(start, n):
        row = signatures + i * permutations
        _best_reset(&best)
        if bounded:
            ckn_mh_row_bounds_avx512(fp, fp + i * 64, rows, m, counts)
            _offer_bounded(&best, signatures, i, rows, counts, m, least, threshold,
                           set_offsets, set_values)
        else:
            if _USE_AVX512:
                ckn_mh_row_counts_avx512(signatures, permutations, row, rows, m, counts)
            else:
                for q in range(m):
                    counts[q] = _equal_slots(row, signatures + rows[q] * permutations,
                                             permutations)
            for q in range(m):
                if counts[q]:
                    _best_offer(&best, i, rows[q], counts[q], permutations, threshold,
                                set_offsets, set_values)
        _best_write(&best, i, permutations, kept, duplicate_of, similarity, exact_jaccard)
        if kept[i]:
            rows[m] = i
            m += 1
    free(rows)
    free(counts)
    free(fp)
    return CKN_OK


cdef Py_ssize_t _least_qualifying(Py_ssize_t permutations, double threshold) noexcept nogil:
    """The fewest equal slots of ``permutations`` whose fraction reaches ``threshold`` (as
    ``_best_offer`` tests it), or ``permutations + 1`` when none does."""
    cdef Py_ssize_t eq
    for eq in range(permutations + 1):
        if <double>eq / <double>permutations >= threshold:
            return eq
    return permutations + 1


cdef void _offer_bounded(_Best* best, const slot_t* signatures, Py_ssize_t i, const index_t* rows,
                         const index_t* bounds, Py_ssize_t m, Py_ssize_t least, double threshold,
                         const index_t* set_offsets, const slot_t* set_values) noexcept nogil:
    # Row i's offers in ascending q as in _dedup_pairs, 64 slots, from ``bounds`` (equal
    # fingerprints: at least the equal slots): a row whose bound is at most the best count so
    # far and below ``least`` can neither raise the best count nor qualify, so its exact count
    # (``_best_offer`` would change nothing) is not taken. The same outputs, far fewer slot
    # compares when many rows share values.
    cdef Py_ssize_t q
    cdef index_t eq
    for q in range(m):
        if bounds[q] == 0 or (bounds[q] <= best.top and bounds[q] < least):
            continue
        ckn_mh_row_counts_avx512(signatures, 64, signatures + i * 64, rows + q, 1, &eq)
        if eq:
            _best_offer(best, i, rows[q], eq, 64, threshold, set_offsets, set_values)


cdef void _sort_indices(index_t* xs, Py_ssize_t n) noexcept nogil:
    # Ascending; insertion sort for short lists (the usual case), heapsort-free shell sort
    # otherwise (gaps 701, 301, 132, 57, 23, 10, 4, 1: Ciura).
    cdef Py_ssize_t gaps[8]
    gaps[0] = 701; gaps[1] = 301; gaps[2] = 132; gaps[3] = 57
    gaps[4] = 23; gaps[5] = 10; gaps[6] = 4; gaps[7] = 1
    cdef Py_ssize_t g, gap, i, j
    cdef index_t v
    for g in range(8):
        gap = gaps[g]
        if gap >= n:
            continue
        for i in range(gap, n):
            v = xs[i]
            j = i
            while j >= gap and xs[j - gap] > v:
                xs[j] = xs[j - gap]
                j -= gap
            xs[j] = v


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


cdef Py_ssize_t _first_at_least_p(const slot_t* xs, Py_ssize_t n) noexcept nogil:
    # The first i with xs[i] >= p, else -1. x >= p = 2**31 - 1 exactly when x or x + 1 (mod
    # 2**32) has bit 31 set, so blocks of 1024 are screened by an OR (a loop without an exit,
    # which GCC vectorises) and only a block that fails is searched.
    cdef Py_ssize_t i0 = 0, i, end
    cdef slot_t seen
    while i0 < n:
        end = min(i0 + 1024, n)
        seen = 0
        for i in range(i0, end):
            seen |= xs[i] | (xs[i] + 1)
        if seen >> 31:
            for i in range(i0, end):
                if xs[i] >= MINHASH_PRIME:
                    return i
        i0 = end
    return -1


cdef Py_ssize_t _first_invalid_row(const slot_t* sig, Py_ssize_t n, Py_ssize_t perms) noexcept nogil:
    """The first of n rows of perms slots that no set gives (a slot above p, or p = every slot of
    an empty set beside other values), else -1. O(n · perms), one read."""
    cdef Py_ssize_t k, i, empty
    cdef slot_t x
    for k in range(n):
        empty = 0
        for i in range(perms):
            x = sig[k * perms + i]
            if x > MINHASH_PRIME:
                return k
            empty += x == MINHASH_PRIME
        if 0 < empty < perms:
            return k
    return -1


cdef int _check_signatures(const slot_t* sig, Py_ssize_t n, Py_ssize_t perms, str name) except -1:
    """CknValueError naming the first row k (``name.format(k)``) that no set gives."""
    cdef Py_ssize_t k = _first_invalid_row(sig, n, perms), i
    if k < 0:
        return 0
    for i in range(perms):
        if sig[k * perms + i] > MINHASH_PRIME:
            raise CknValueError(f"{name.format(k)}[{i}]: slots must be <= 2**31 - 1, got "
                                f"{sig[k * perms + i]}; not a ckn signature")
    raise CknValueError(f"{name.format(k)}: mixes 2**31 - 1 (the value of every slot of an empty "
                        f"set) with other slots; not a ckn signature")


cdef bint _strictly_increasing(const slot_t* xs, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(1, n):
        if xs[i] <= xs[i - 1]:
            return False
    return True


def _typecode(size_t itemsize, str candidates):
    for code in candidates:
        if _pyarray.array(code).itemsize == itemsize:
            return code
    raise ImportError(f"no array typecode among {candidates!r} has itemsize {itemsize}")


import os as _os

_USE_AVX2 = ckn_mh_have_avx2() != 0 and _os.environ.get("CKN_NO_SIMD") != "1"
_USE_AVX512 = (_USE_AVX2 and ckn_mh_have_avx512() != 0
               and _os.environ.get("CKN_NO_AVX512") != "1")
_USE_AVX512BW = _USE_AVX512 and ckn_mh_have_avx512bw() != 0
_USE_FIXED = _USE_AVX512 and {"fixed": True, "fold": False}.get(
    _os.environ.get("CKN_MH_KERNEL"), ckn_mh_is_amd() != 0)
SIMD = "avx512" if _USE_AVX512 else "avx2" if _USE_AVX2 else "portable"
# The signature kernel in use: "avx512-fixed", "avx512-fold", "avx2" or "portable".
SIGNATURE_KERNEL = ("avx512-fixed" if _USE_FIXED else "avx512-fold") if _USE_AVX512 else SIMD
_PAIR_LANES = 16 if _USE_AVX512 else 4

_SLOT_CODE = _typecode(sizeof(slot_t), "ILH")
_HASH_CODE = _typecode(sizeof(hash_t), "QL")
_INDEX_CODE = _typecode(sizeof(index_t), "qli")
cdef bytes _SLOT_FORMAT_BYTES = _SLOT_CODE.encode("ascii")
cdef char* _SLOT_FORMAT = _SLOT_FORMAT_BYTES
cdef array.array _SLOT_TEMPLATE = _pyarray.array(_SLOT_CODE)
cdef char _SLOT_TC = ord(_SLOT_CODE)
cdef array.array _HASH_TEMPLATE = _pyarray.array(_HASH_CODE)
cdef array.array _INDEX_TEMPLATE = _pyarray.array(_INDEX_CODE)
cdef array.array _BYTE_TEMPLATE = _pyarray.array("B")
cdef array.array _DOUBLE_TEMPLATE = _pyarray.array("d")


cdef inline slot_t* _sp(array.array arr) noexcept:
    return <slot_t*>arr.data.as_voidptr


cdef inline hash_t* _hp(array.array arr) noexcept:
    return <hash_t*>arr.data.as_voidptr


cdef const slot_t[::1] _slots(object obj, str name):
    """``obj`` as a contiguous uint32 view: any matching buffer as is, else converted."""
    cdef const slot_t[::1] view
    if obj is None or isinstance(obj, (str, bytes)):
        raise CknTypeError(f"{name}: expected a sequence of unsigned 32-bit integers, "
                           f"got {type(obj).__name__}")
    try:
        view = obj
        return view
    except (TypeError, ValueError, BufferError):
        pass
    try:
        return _pyarray.array(_SLOT_CODE, obj)
    except TypeError as exc:
        raise CknTypeError(f"{name}: expected a sequence of unsigned 32-bit integers, "
                           f"got {type(obj).__name__} ({exc})") from None
    except OverflowError:
        raise CknValueError(f"{name}: every value must be in [0, 2**32)") from None


cdef const hash_t[::1] _hashes(object obj, str name):
    """``obj`` as a contiguous uint64 view: any matching buffer as is, else converted."""
    cdef const hash_t[::1] view
    if obj is None or isinstance(obj, (str, bytes)):
        raise CknTypeError(f"{name}: expected a sequence of unsigned 64-bit integers, "
                           f"got {type(obj).__name__}")
    try:
        view = obj
        return view
    except (TypeError, ValueError, BufferError):
        pass
    try:
        return _pyarray.array(_HASH_CODE, obj)
    except TypeError as exc:
        raise CknTypeError(f"{name}: expected a sequence of unsigned 64-bit integers, "
                           f"got {type(obj).__name__} ({exc})") from None
    except OverflowError:
        raise CknValueError(f"{name}: every value must be in [0, 2**64)") from None


cdef array.array _offsets_array(object offsets):
    """CSR ``offsets`` as an index array (values are checked by ``_check_offsets``)."""
    if offsets is None or isinstance(offsets, (str, bytes)):
        raise CknTypeError(f"offsets: expected a sequence of integers, "
                           f"got {type(offsets).__name__}")
    try:
        return _pyarray.array(_INDEX_CODE, offsets)
    except (TypeError, OverflowError) as exc:
        raise CknTypeError(f"offsets: expected a sequence of integers ({exc})") from None


cdef array.array _rows_array(object rows, Py_ssize_t n):
    """``rows`` as an index array of sequence indices, each in [0, n)."""
    cdef array.array out
    cdef index_t* rp
    cdef Py_ssize_t k
    if isinstance(rows, (str, bytes)):
        raise CknTypeError(f"rows: expected a sequence of integers, got {type(rows).__name__}")
    try:
        out = _pyarray.array(_INDEX_CODE, rows)
    except (TypeError, OverflowError) as exc:
        raise CknTypeError(f"rows: expected a sequence of integers ({exc})") from None
    rp = <index_t*>out.data.as_voidptr
    for k in range(len(out)):
        if not 0 <= rp[k] < n:
            raise CknValueError(f"rows[{k}]: must be in [0, {n}) (a sequence index), got {rp[k]}")
    return out


cdef const slot_t[::1] _shingle_set(object obj, str name):
    """A shingle-hash set: uint32 values, each < p."""
    cdef const slot_t[::1] xs = _slots(obj, name)
    cdef Py_ssize_t bad = -1
    cdef Py_ssize_t m = xs.shape[0]
    if m > 0:
        with nogil:
            bad = _first_at_least_p(&xs[0], m)
    if bad >= 0:
        raise CknValueError(f"{name}[{bad}]: shingle hashes must be < 2**31 - 1, "
                            f"got {xs[bad]}")
    return xs


cdef Py_ssize_t _positive_int(object value, str name) except -1:
    if isinstance(value, bool):
        raise CknTypeError(f"{name}: expected an integer, got bool")
    try:
        value = _index(value)
    except TypeError:
        raise CknTypeError(f"{name}: expected an integer, got {type(value).__name__}") from None
    if value < 1:
        raise CknValueError(f"{name}: must be >= 1, got {value}")
    if value > (1 << 40):
        raise CknValueError(f"{name}: must be <= 2**40, got {value}")
    return value


cdef double _threshold(object value) except -1.0:
    if isinstance(value, bool) or not isinstance(value, _Real):
        raise CknTypeError(f"threshold: expected a number, got {type(value).__name__}")
    cdef double t = value
    if not (t > 0.0 and t <= 1.0):
        raise CknValueError(f"threshold: must be in (0, 1], got {value!r}")
    return t


cdef int _check_offsets(array.array off, Py_ssize_t m) except -1:
    """CSR offsets: n + 1 >= 1 entries, non-decreasing, from 0 to m."""
    cdef Py_ssize_t n = len(off) - 1, k
    cdef index_t* op = <index_t*>off.data.as_voidptr
    if n < 0:
        raise CknValueError("offsets: expected n + 1 >= 1 entries, got none")
    if op[0] != 0 or op[n] != m:
        raise CknValueError(f"offsets: must start at 0 and end at len(values) = {m}, "
                            f"got {op[0]} and {op[n]}")
    for k in range(n):
        if op[k + 1] < op[k]:
            raise CknValueError(f"offsets[{k + 1}]: must be >= offsets[{k}], "
                                f"got {op[k + 1]} < {op[k]}")
    return 0


cdef Py_ssize_t _first_row_from(const index_t* off, Py_ssize_t n, index_t target) noexcept:
    """The first row k in [0, n] with off[k] >= target (off non-decreasing; binary search)."""
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if off[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


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


cdef array.array _sorted_unique(const slot_t[::1] xs):
    cdef Py_ssize_t m = xs.shape[0]
    cdef array.array out = array.clone(_SLOT_TEMPLATE, m, False)
    cdef slot_t* p = _sp(out)
    if m > 0:
        with nogil:
            memcpy(p, &xs[0], m * sizeof(slot_t))
            m = minhash_sort_unique(p, m)
    array.resize(out, m)
    return out


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

def fnv1a64(term, /):
    """FNV-1a-64 of the UTF-8 bytes of ``term`` (SPEC §7's term hash ``t``).

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
    """Reusable SPEC §7 MinHash with ``permutations`` slots (default 64); holds the a/b parameters.

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


DroppedChunk = NamedTuple("DroppedChunk", [
    ("index", int), ("duplicate_of", int), ("estimate", float), ("exact_jaccard", object)])
DroppedChunk.__doc__ = (
    "One dropped near-duplicate: its index, the kept higher-ranked chunk it duplicates, the "
    "estimated similarity of the pair, and their exact Jaccard (None unless exact_sets was given).")

DedupResult = NamedTuple("DedupResult", [
    ("kept", tuple), ("dropped", tuple), ("max_similarity", tuple)])
DedupResult.__doc__ = (
    "Result of dedup(): kept indices (ascending), DroppedChunk tuples (ascending index), and for "
    "each kept chunk (aligned with kept) its max estimated similarity to earlier kept chunks.")


def dedup(signatures, /, threshold, *, exact_sets=None):
    """The dedup pass of SPEC §7 over signatures in rank order (row 0 = highest-ranked).

    Chunk i is dropped when its estimated similarity to some *kept* chunk j < i is
    ``>= threshold`` (with ``exact_sets``: and the exact Jaccard of their shingle sets too).
    It is reported as a duplicate of the qualifying kept chunk with the highest estimate, ties
    going to the higher-ranked one. ``signatures`` is a 2-D uint32 buffer (n × P) or a sequence
    of equal-length signatures; ``exact_sets`` (``dedup_exact``) is a sequence of n shingle-hash
    sets. Returns a :class:`DedupResult`. A signature with a slot above 2**31 − 1, or mixing
    2**31 − 1 (an empty set's slots) with other values, comes from no set: CknValueError.

    >>> mh = MinHasher(16)
    >>> sigs = mh.signatures([[1, 2, 3], [4, 5], [1, 2, 3]])
    >>> dedup(sigs, 0.75)
    DedupResult(kept=(0, 1), dropped=(DroppedChunk(index=2, duplicate_of=0, estimate=1.0, exact_jaccard=None),), max_similarity=(0.0, 0.0))
    """
    return _dedup_run(signatures, threshold, exact_sets, _BANDED)


_PATHS = {"banded": _BANDS_ONLY, "auto": _AUTO, "index": _INDEX_ONLY, "pairs": _PAIRS_ONLY}


def _dedup_by(signatures, threshold, exact_sets=None, *, str path):
    """:func:`dedup` along one path only (for tests and benchmarks): ``"banded"`` (decisions
    by banding, then the kept rows' overlaps), ``"auto"`` (the inverted index, switching to
    all pairs when rows share a lot), ``"index"`` (the inverted index, never switching) or
    ``"pairs"`` (every row compared with the kept rows before it). :func:`dedup` runs the
    index when its chains are short (few equal slot values), else the banded pass."""
    if path not in _PATHS:
        raise ValueError(f"path: expected one of {sorted(_PATHS)}, got {path!r}")
    return _dedup_run(signatures, threshold, exact_sets, _PATHS[path])


cdef _dedup_run(signatures, threshold, exact_sets, int path):
    cdef double t = _threshold(threshold)
    cdef const slot_t[:, ::1] grid
    cdef const slot_t[::1] row
    cdef Py_ssize_t n, perms, k, bad
    cdef array.array flat = None
    cdef const slot_t* sig = NULL
    if signatures is None or isinstance(signatures, (str, bytes)):
        raise CknTypeError(f"signatures: expected a 2-D buffer or a sequence of signatures, "
                           f"got {type(signatures).__name__}")
    try:
        grid = signatures
    except (TypeError, ValueError, BufferError):
        rows = [_slots(r, f"signatures[{k}]") for k, r in enumerate(signatures)]
        n = len(rows)
        perms = 1
        if n:
            row = rows[0]
            perms = row.shape[0]
        flat = array.clone(_SLOT_TEMPLATE, n * perms, False)
        for k in range(n):
            row = rows[k]
            if row.shape[0] != perms:
                raise CknValueError(
                    f"signatures[{k}]: has {row.shape[0]} slots, signatures[0] has {perms}; "
                    f"all signatures must come from the same MinHasher")
            if perms > 0:
                memcpy(_sp(flat) + k * perms, &row[0], perms * sizeof(slot_t))
        sig = _sp(flat)
    else:
        n = grid.shape[0]
        perms = grid.shape[1]
        sig = &grid[0, 0] if n > 0 and perms > 0 else NULL
    if perms < 1:
        raise CknValueError("signatures: every signature must have at least one slot")
    _check_signatures(sig, n, perms, "signatures[{}]")  # one read: keeps the GIL

    cdef array.array set_values = None
    cdef array.array set_offsets = None
    cdef const slot_t[::1] xs
    cdef index_t* off = NULL
    cdef const slot_t* val = NULL
    cdef list sets
    if exact_sets is not None:
        if isinstance(exact_sets, (str, bytes)):
            raise CknTypeError("exact_sets: expected a sequence of shingle-hash sets, got str")
        sets = []
        for k, item in enumerate(exact_sets):
            xs = _shingle_set(item, f"exact_sets[{k}]")
            if not _strictly_increasing(&xs[0] if xs.shape[0] else NULL, xs.shape[0]):
                xs = _sorted_unique(xs)
            sets.append(xs)
        if len(sets) != n:
            raise CknValueError(f"exact_sets: has {len(sets)} sets for {n} signatures")
        set_offsets = array.clone(_INDEX_TEMPLATE, n + 1, False)
        off = <index_t*>set_offsets.data.as_voidptr
        off[0] = 0
        for k in range(n):
            xs = sets[k]
            off[k + 1] = off[k] + xs.shape[0]
        set_values = array.clone(_SLOT_TEMPLATE, off[n], False)
        for k in range(n):
            xs = sets[k]
            if xs.shape[0]:
                memcpy(_sp(set_values) + off[k], &xs[0], xs.shape[0] * sizeof(slot_t))
        val = _sp(set_values)

    cdef array.array kept = array.clone(_BYTE_TEMPLATE, n, False)
    cdef array.array dup = array.clone(_INDEX_TEMPLATE, n, False)
    cdef array.array sim = array.clone(_DOUBLE_TEMPLATE, n, False)
    cdef array.array exact = array.clone(_DOUBLE_TEMPLATE, n, False)
    cdef int status
    with nogil:
        status = CKN_ENOMEM
        if path == _BANDED:
            # Few equal slot values (chains no longer than the index itself): the index
            # decides at once; else the banded pass, whose cost does not grow with the
            # chunks that duplicates share values with.
            status = _dedup_indexed(sig, n, perms, t, off, val, kept.data.as_uchars,
                                    <index_t*>dup.data.as_voidptr, sim.data.as_doubles,
                                    exact.data.as_doubles, _LINEAR)
        if status == _NOT_LINEAR or path == _BANDS_ONLY:
            status = _dedup_banded(sig, n, perms, t, off, val, kept.data.as_uchars,
                                   <index_t*>dup.data.as_voidptr, sim.data.as_doubles,
                                   exact.data.as_doubles)
        if status == CKN_ENOMEM:
            status = _dedup_indexed(sig, n, perms, t, off, val, kept.data.as_uchars,
                                    <index_t*>dup.data.as_voidptr, sim.data.as_doubles,
                                    exact.data.as_doubles,
                                    _AUTO if path == _BANDED or path == _BANDS_ONLY else path)
        if status == CKN_ENOMEM:    # no scratch memory: the all-pairs kernel needs none
            status = minhash_dedup(sig, n, perms, t, off, val, kept.data.as_uchars,
                                   <index_t*>dup.data.as_voidptr, sim.data.as_doubles,
                                   exact.data.as_doubles)
    if status != CKN_OK:  # unreachable after the checks above; kept as a guard
        raise CknValueError(f"dedup: invalid arguments (status {status})")
    kept_ids = []
    dropped = []
    max_sim = []
    cdef index_t* dp = <index_t*>dup.data.as_voidptr
    for k in range(n):
        if kept.data.as_uchars[k]:
            kept_ids.append(k)
            max_sim.append(sim.data.as_doubles[k])
        else:
            dropped.append(DroppedChunk(
                k, dp[k], sim.data.as_doubles[k],
                exact.data.as_doubles[k] if exact_sets is not None else None))
    return DedupResult(tuple(kept_ids), tuple(dropped), tuple(max_sim))
