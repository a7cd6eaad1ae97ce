"""The dedup pass of spec §7 over MinHash signatures in rank order: :func:`dedup`.

Three exact paths give the same decisions as the all-pairs reference (``minhash_dedup`` in
``ckn/minhash.pxd``): an inverted index of slot values (fast when few rows share values),
banding (cost independent of how many rows a duplicate shares values with) and all pairs with
bounds (when rows share a lot). :func:`dedup` is re-exported by :mod:`ckn.minhash`.
"""

from cpython cimport array
from libc.math cimport INFINITY
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from typing import NamedTuple

from ckn.errors import CknTypeError, CknValueError
from ckn.minhash cimport MINHASH_PRIME
from ckn._minhash_common cimport (
    _BYTE_TEMPLATE, _DOUBLE_TEMPLATE, _INDEX_TEMPLATE, _SLOT_TEMPLATE, _USE_AVX512, _USE_AVX512BW,
    _check_signatures, _shingle_set, _slots, _sorted_unique, _sp, _strictly_increasing, _threshold)
from ckn._minhash_ops cimport (_Best, _best_offer, _best_reset, _best_write, _dedup_all_pairs,
                               _equal_slots, _mix64)
from ckn.typedefs cimport CKN_EINVAL, CKN_ENOMEM, CKN_OK, index_t, slot_t

__all__ = ["DedupResult", "DroppedChunk", "dedup"]


cdef extern from "dedup_simd.h":
    void ckn_mh_row_counts_avx512(const slot_t* sig, Py_ssize_t perms, const slot_t* row,
                                  const index_t* rows, Py_ssize_t m, index_t* counts) noexcept nogil
    void ckn_mh_row_bounds_avx512(const uint8_t* fp, const uint8_t* row, const index_t* rows,
                                  Py_ssize_t m, index_t* bounds) noexcept nogil


# Slots one compare of two signatures covers (_dedup_indexed's choice of _dedup_pairs).
cdef Py_ssize_t _PAIR_LANES = 16 if _USE_AVX512 else 4
# Cost of one chain step of _dedup_indexed (a dependent load, usually a cache miss) in
# compares of _PAIR_LANES slots of _dedup_pairs: measured 20 to 80, growing with the pool.
cdef double _CHAIN_STEP = 60.0


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
# Both are public as ckn.minhash.DedupResult / DroppedChunk (which pickle looks them up by).
DroppedChunk.__module__ = DedupResult.__module__ = "ckn.minhash"


def dedup(signatures, /, threshold, *, exact_sets=None):
    """The dedup pass of spec §7 over signatures in rank order (row 0 = highest-ranked).

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
            status = _dedup_all_pairs(sig, n, perms, t, off, val, kept.data.as_uchars,
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
