"""Exact 0/1 knapsack: bound-based reduction, then a DP within a memory cap (spec §8).

Python surface: :func:`solve` and :class:`KnapsackResult`. C surface (``cimport ckn.knapsack``):
``knapsack_workspace_size`` and ``knapsack_solve``, documented in ``knapsack.pxd`` and
``docs/c-api.md``.

Method (overview in docs/algorithms.md). Items that fit the budget are
kept in input order; when they all fit at once they are taken without any table. Reduction:
zero-weight items are taken and positive-weight, zero-value items dropped; the rest are sorted
by efficiency v/w, the Dantzig (LP) bound and a lower bound (greedy, then exact DPs over a
growing core around the break item) are computed, and every item whose LP bound with its
break-solution value flipped is strictly below the lower bound is fixed, because every optimal
solution agrees on it. Bounds use exact 128-bit products, so any int64 input is exact. The
tie-rule choice then runs over the free items only, capacity = budget minus the fixed-in
weight, by the first method that fits in ``max_memory``:

- the weight DP with a keep-bitset: a suffix DP ``G_i(c)`` (best value of items i..m-1 within
  capacity c), one in-place row (int32 cells when the values' sum fits, AVX2 or SSE2 kernels
  chosen at run time), ``O(m · C)`` time; the optimum V is ``G_0(C)``, the fewest-tokens weight
  ``W*`` the smallest c with ``G_0(c) = V``, and walking items first to last from ``W*``, taking
  an item whenever taking it still reaches the optimum, gives the lexicographically greatest
  indicator vector among optimal, fewest-token subsets (a reachability bitset replaces the
  value DP when every free item has one common efficiency);
- the DP over values (least weight per value, ``O(m · Σ v)``) with the same walk;
- Hirschberg-style divide and conquer over the weight DP, O(C) working memory;
- branch and bound (``knapsack_fallback.h``), O(n) memory, up to ``BRANCH_NODES`` nodes.
"""

from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc
from libc.stdint cimport INT32_MAX, INT64_MAX, SIZE_MAX, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from ckn._tuning cimport NOGIL_MIN_WORK
from ckn.typedefs cimport CKN_EINVAL, CKN_ENOMEM, CKN_EOVERFLOW, CKN_OK, index_t, value_t, weight_t

from typing import NamedTuple

from ckn.errors import CknMemoryError, CknTypeError, CknValueError

__all__ = ["BRANCH_NODES", "DEFAULT_MAX_MEMORY", "KnapsackResult", "solve"]

DEFAULT_MAX_MEMORY = 256 * 1024 * 1024
BRANCH_NODES = CKN_KP_BB_NODES   # branch and bound's node allowance per solve


# ----------------------------------------------------------------------------- plan and sizes

cdef extern from "knapsack_fallback.h":
    int ckn_kp_cmp_products(uint64_t a, uint64_t b, uint64_t c, uint64_t d) nogil
    uint64_t ckn_kp_muldiv(uint64_t a, uint64_t b, uint64_t c) nogil
    uint64_t ckn_kp_sat_add(uint64_t a, uint64_t b) nogil
    size_t ckn_kp_value_bytes(index_t m, uint64_t S) nogil
    void ckn_kp_value_select(const int64_t* w, const int64_t* v, const index_t* elig, index_t m,
                             uint64_t cap, uint64_t S, void* area, uint8_t* selected) nogil
    size_t ckn_kp_bb_bytes(index_t m) nogil
    int ckn_kp_bb_select(const int64_t* w, const int64_t* v, const index_t* elig, index_t m,
                         uint64_t cap, void* scratch, uint8_t* selected, int64_t nodes) nogil
    int64_t CKN_KP_BB_NODES


cdef struct Plan:
    index_t m          # items with weight <= budget
    weight_t g         # gcd of their weights (1 when all are zero)
    weight_t cap       # min(budget, Σ weights of the fitting items), unscaled
    bint fits_all      # Σ weights of the fitting items <= budget


cdef inline weight_t _gcd(weight_t a, weight_t b) noexcept nogil:
    cdef weight_t t
    while b:
        t = a % b
        a = b
        b = t
    return a


cdef bint _make_plan(const weight_t* weights, index_t n, weight_t budget, Plan* plan) noexcept nogil:
    """Fill ``plan``; False when the arguments are invalid."""
    cdef index_t i
    cdef weight_t w, g = 0, total = 0
    if n < 0 or budget < 0:
        return False
    plan.m = 0
    plan.fits_all = True
    for i in range(n):
        w = weights[i]
        if w < 0:
            return False
        if w <= budget:
            plan.m += 1
            g = _gcd(g, w)
            if plan.fits_all:
                if w > budget - total:   # (total <= budget: no overflow on either side)
                    plan.fits_all = False
                else:
                    total += w
    plan.g = g if g > 0 else 1
    plan.cap = total if plan.fits_all else budget
    return True


cdef inline size_t _cells(weight_t cap, weight_t g) noexcept nogil:
    """DP cells of capacity ``cap`` in units of ``g``: cap / g + 1 (at most 2**63, saturating
    where size_t is narrower)."""
    cdef uint64_t c = <uint64_t>(cap // g) + 1
    return <size_t>c if c <= <uint64_t>SIZE_MAX else SIZE_MAX


cdef inline size_t _words(size_t span) noexcept nogil:
    return span // 64 + (1 if span % 64 else 0)


cdef size_t _mul(size_t a, size_t b) noexcept nogil:
    """a * b, saturating at SIZE_MAX."""
    if a != 0 and b > SIZE_MAX // a:
        return SIZE_MAX
    return a * b


cdef size_t _add(size_t a, size_t b) noexcept nogil:
    """a + b, saturating at SIZE_MAX."""
    if b > SIZE_MAX - a:
        return SIZE_MAX
    return a + b


cdef inline size_t _bitset_bytes(index_t items, size_t span) noexcept nogil:
    """Two DP rows plus the keep-bitset of ``items`` rows."""
    return _add(_mul(2 * sizeof(int64_t), span), _mul(_mul(<size_t>items, _words(span)), 8))


cdef inline size_t _dc_bytes(size_t span) noexcept nogil:
    """Six O(span) int64 arrays and one byte array: the divide-and-conquer working set."""
    return _add(_mul(6 * sizeof(int64_t), span), _mul(span // 8 + 1, 8))


cdef inline size_t _scratch_bytes(index_t m) noexcept nogil:
    """O(m) scratch after the index list: the reduction's, then branch and bound's."""
    cdef size_t a = _reduce_bytes(m), b = ckn_kp_bb_bytes(m)
    return a if a > b else b


cdef size_t knapsack_workspace_size(const weight_t* weights, index_t n, weight_t budget,
                                    size_t max_memory) noexcept nogil:
    cdef Plan plan
    cdef size_t table
    if not _make_plan(weights, n, budget, &plan):
        return 0
    # The DP area: the keep-bitset table of every fitting item if it fits in max_memory (what
    # the reduction leaves free is not known before it runs), else max_memory, which the
    # solver uses as it can (divide and conquer, the DP over values, branch and bound).
    table = _bitset_bytes(plan.m, _cells(plan.cap, plan.g))
    return _add(_add(_mul(<size_t>plan.m, sizeof(index_t)), _scratch_bytes(plan.m)),
                table if table < max_memory else max_memory)


# ----------------------------------------------------------------------------- row kernels (C)

cdef extern from "knapsack_rows.h":
    void ckn_kp_row_i64_c(int64_t* f, index_t span, index_t w, int64_t v, uint64_t* bits) nogil
    void ckn_kp_row_i32_c(int32_t* f, index_t span, index_t w, int32_t v, uint64_t* bits) nogil
    void ckn_kp_row_i64_avx2(int64_t* f, index_t span, index_t w, int64_t v, uint64_t* bits) nogil
    void ckn_kp_row_i32_avx2(int32_t* f, index_t span, index_t w, int32_t v, uint64_t* bits) nogil
    int ckn_kp_have_avx2() nogil

# ----------------------------------------------------------------------------- DP rows

cdef inline void _row_step(const int64_t* src, int64_t* dst, index_t span, index_t w,
                           int64_t v) noexcept nogil:
    """dst[c] = max(src[c], src[c - w] + v); -1 marks an unreachable cell."""
    cdef index_t c
    cdef int64_t base, cand, cur
    if w > span:
        w = span
    memcpy(dst, src, <size_t>w * sizeof(int64_t))
    for c in range(w, span):
        base = src[c - w]
        cand = base + v if base >= 0 else -1
        cur = src[c]
        dst[c] = cand if cand >= cur else cur


cdef inline void _row_step_bits(const int64_t* src, int64_t* dst, index_t span, index_t w,
                                int64_t v, uint64_t* bits) noexcept nogil:
    """As _row_step, also setting bit c of ``bits`` where taking the item is (one of) the best."""
    cdef index_t c, end
    cdef int64_t base, cand, cur
    cdef uint64_t mask, t
    memset(bits, 0, _words(span) * 8)
    if w > span:
        w = span
    memcpy(dst, src, <size_t>w * sizeof(int64_t))
    c = w
    while c < span:
        end = (c | 63) + 1
        if end > span:
            end = span
        mask = 0
        while c < end:
            base = src[c - w]
            cand = base + v if base >= 0 else -1
            cur = src[c]
            t = cand >= cur
            dst[c] = cand if t else cur
            mask |= t << (c & 63)
            c += 1
        bits[(end - 1) >> 6] = mask


cdef int64_t* _suffix_rows(const weight_t* weights, const value_t* values, const index_t* elig,
                           index_t lo, index_t hi, weight_t g, index_t span, bint exact,
                           int64_t* row_a, int64_t* row_b, uint64_t* bits) noexcept nogil:
    """Suffix DP over items elig[lo:hi] (last to first); returns the row of G_lo.

    ``exact``: cell c is the best value of a subset weighing exactly c (end node 0), otherwise
    of weight <= c. ``bits`` (may be NULL) receives one keep row per item, row k - lo for item k.
    """
    cdef index_t k, words = <index_t>_words(span)
    cdef int64_t* tmp
    if exact:
        row_a[0] = 0
        for k in range(1, span):
            row_a[k] = -1
    else:
        memset(row_a, 0, <size_t>span * sizeof(int64_t))
    for k in range(hi - 1, lo - 1, -1):
        if bits != NULL:
            _row_step_bits(row_a, row_b, span, <index_t>(weights[elig[k]] // g), values[elig[k]],
                           bits + (k - lo) * words)
        else:
            _row_step(row_a, row_b, span, <index_t>(weights[elig[k]] // g), values[elig[k]])
        tmp = row_a
        row_a = row_b
        row_b = tmp
    return row_a


cdef void _walk_bits(const weight_t* weights, const index_t* elig, index_t lo, index_t hi,
                     weight_t g, index_t span, index_t start, const uint64_t* bits,
                     uint8_t* selected) noexcept nogil:
    """Follow the keep-bitset from cell ``start``, first item to last."""
    cdef index_t k, c = start, words = <index_t>_words(span)
    cdef const uint64_t* row
    for k in range(lo, hi):
        row = bits + (k - lo) * words
        if (row[c >> 6] >> (c & 63)) & 1:
            selected[elig[k]] = 1
            c -= <index_t>(weights[elig[k]] // g)


# ----------------------------------------------------------------------------- divide and conquer

cdef struct Arena:
    int64_t* f0       # forward values, current layer
    int64_t* f1       # forward values, next layer
    int64_t* r0       # lexicographic rank of each reachable cell's best prefix
    int64_t* r1
    int64_t* i0       # cells in rank order
    int64_t* i1
    uint8_t* take     # 1 where the best prefix into the cell takes the current item
    size_t spare      # bytes beyond the working set: bitset base cases must fit in this


cdef int64_t* _forward_ranked(const weight_t* weights, const value_t* values,
                              const index_t* elig, index_t lo, index_t hi, weight_t g,
                              index_t span, Arena* ar, int64_t** ranks) noexcept nogil:
    """Forward DP from the top cell over items elig[lo:hi] with exact weights.

    Cell d of the result is the best value of a subset weighing exactly (span - 1 - d); among
    equal values the cell keeps the lexicographically greatest prefix, and ``ranks`` orders the
    cells by those prefixes (0 = greatest).
    """
    cdef int64_t* f0 = ar.f0
    cdef int64_t* f1 = ar.f1
    cdef int64_t* r0 = ar.r0
    cdef int64_t* r1 = ar.r1
    cdef int64_t* i0 = ar.i0
    cdef int64_t* i1 = ar.i1
    cdef int64_t* tmp
    cdef uint8_t* take = ar.take
    cdef index_t k, d, w, p, r, count = 1, fresh
    cdef int64_t v, skip_gain, take_gain
    for d in range(span):
        f0[d] = -1
    f0[span - 1] = 0
    r0[span - 1] = 0
    i0[0] = span - 1
    for k in range(lo, hi):
        w = <index_t>(weights[elig[k]] // g)
        v = values[elig[k]]
        for d in range(span):
            skip_gain = f0[d]
            take[d] = 0
            f1[d] = skip_gain
            if d + w < span and f0[d + w] >= 0:
                take_gain = f0[d + w] + v
                if (skip_gain < 0 or take_gain > skip_gain
                        or (take_gain == skip_gain and r0[d + w] <= r0[d])):
                    take[d] = 1
                    f1[d] = take_gain
        # New ranks: by parent rank, a take child before a skip child.
        fresh = 0
        for r in range(count):
            p = i0[r]
            d = p - w
            if d >= 0 and take[d]:
                r1[d] = fresh
                i1[fresh] = d
                fresh += 1
            if w > 0 and not take[p]:
                r1[p] = fresh
                i1[fresh] = p
                fresh += 1
        count = fresh
        tmp = f0; f0 = f1; f1 = tmp
        tmp = r0; r0 = r1; r1 = tmp
        tmp = i0; i0 = i1; i1 = tmp
    ranks[0] = r0
    return f0


cdef void _divide(const weight_t* weights, const value_t* values, const index_t* elig,
                  index_t lo, index_t hi, weight_t g, index_t top, index_t bottom,
                  Arena* ar, uint8_t* selected) noexcept nogil:
    """Select the lexicographically greatest best path of items elig[lo:hi] that goes from
    scaled capacity ``top`` down to exactly ``bottom``."""
    cdef index_t span = top - bottom + 1, mid, d, best = -1, w
    cdef int64_t* fwd
    cdef int64_t* ranks
    cdef int64_t* bwd
    cdef int64_t target = -1
    cdef uint64_t* bits
    if hi <= lo:
        return
    if _bitset_bytes(hi - lo, span) <= ar.spare:
        bits = <uint64_t*>(ar.f0 + 2 * span)
        _suffix_rows(weights, values, elig, lo, hi, g, span, True, ar.f0, ar.f0 + span, bits)
        _walk_bits(weights, elig, lo, hi, g, span, span - 1, bits, selected)
        return
    if hi - lo == 1:
        w = <index_t>(weights[elig[lo]] // g)
        if w == span - 1:
            selected[elig[lo]] = 1
        return
    mid = lo + (hi - lo) // 2
    fwd = _forward_ranked(weights, values, elig, lo, mid, g, span, ar, &ranks)
    # The forward values and ranks occupy one f and one r array; the backward pass takes the
    # other f array and i0 (cell orders are no longer needed).
    bwd = _suffix_rows(weights, values, elig, mid, hi, g, span, True,
                       ar.f1 if fwd == ar.f0 else ar.f0, ar.i0, NULL)
    for d in range(span):
        if fwd[d] >= 0 and bwd[d] >= 0:
            if fwd[d] + bwd[d] > target or (fwd[d] + bwd[d] == target and ranks[d] < ranks[best]):
                target = fwd[d] + bwd[d]
                best = d
    _divide(weights, values, elig, lo, mid, g, top, bottom + best, ar, selected)
    _divide(weights, values, elig, mid, hi, g, bottom + best, bottom, ar, selected)


# ----------------------------------------------------------------------------- exact DP over a list

# Private path switches (bit flags) for tests and benchmarks; knapsack_solve uses 0 (all on).
cdef enum:
    _NO_REDUCTION = 1   # skip the bound-based reduction: plain dense DP over every fitting item
    _NO_INT32 = 2       # int64 DP cells even when the values' sum fits in int32
    _NO_SIMD = 4        # no AVX2 kernels (SSE2 int32 / scalar int64 only)
    _NO_PROPORTIONAL = 8  # no reachability-bitset path for items of one common efficiency
    _ALLOCATE = 16      # the workspace holds the head only: the DP area is allocated once the
                        # reduction has left its items (solve()'s path; see _solve_flags)
    _NO_TABLE = 32      # no keep-bitset table (nor bitset base cases in divide and conquer)
    _NO_VALUES = 64     # no DP over values
    _NO_DIVIDE = 128    # no divide and conquer (with the two above: branch and bound)


cdef inline void _row(void* f, bint i32, bint avx2, index_t span, index_t w, int64_t v,
                      uint64_t* bits) noexcept nogil:
    if i32:
        if avx2:
            ckn_kp_row_i32_avx2(<int32_t*>f, span, w, <int32_t>v, bits)
        else:
            ckn_kp_row_i32_c(<int32_t*>f, span, w, <int32_t>v, bits)
    elif avx2:
        ckn_kp_row_i64_avx2(<int64_t*>f, span, w, v, bits)
    else:
        ckn_kp_row_i64_c(<int64_t*>f, span, w, v, bits)


cdef index_t _value_row(const weight_t* weights, const value_t* values, const index_t* elig,
                        index_t m, weight_t g, index_t span, void* row, uint64_t* bits,
                        int flags) noexcept nogil:
    """Suffix DP (<= formulation) over items elig[0:m], last to first, in one in-place row.

    ``bits`` (may be NULL) receives the keep row of item k at ``bits + k * words``. Returns the
    fewest-tokens cell: the smallest c holding the row's maximum.
    """
    cdef index_t k, c, words = <index_t>_words(span)
    cdef int64_t total = 0
    cdef bint i32, avx2 = not (flags & _NO_SIMD) and ckn_kp_have_avx2()
    for k in range(m):
        total += values[elig[k]]
    i32 = not (flags & _NO_INT32) and total <= INT32_MAX
    memset(row, 0, <size_t>span * (4 if i32 else 8))
    for k in range(m - 1, -1, -1):
        _row(row, i32, avx2, span, <index_t>(weights[elig[k]] // g), values[elig[k]],
             bits + k * words if bits != NULL else NULL)
    c = span - 1
    if i32:
        while c > 0 and (<int32_t*>row)[c - 1] == (<int32_t*>row)[span - 1]:
            c -= 1
    else:
        while c > 0 and (<int64_t*>row)[c - 1] == (<int64_t*>row)[span - 1]:
            c -= 1
    return c


cdef bint _proportional(const weight_t* weights, const value_t* values, const index_t* elig,
                       index_t m) noexcept nogil:
    """True when every item has positive weight and v/w equals one common positive ratio
    (exact: all weights and values below 2**31, cross products in int64)."""
    cdef index_t k, i, first = elig[0]
    cdef int64_t w0 = weights[first], v0 = values[first]
    if w0 <= 0 or v0 <= 0 or w0 > INT32_MAX or v0 > INT32_MAX:
        return False
    for k in range(1, m):
        i = elig[k]
        if (weights[i] <= 0 or weights[i] > INT32_MAX or values[i] > INT32_MAX
                or values[i] * w0 != v0 * weights[i]):
            return False
    return True


cdef inline void _shift_or(const uint64_t* src, uint64_t* dst, index_t words, index_t w,
                           uint64_t tail) noexcept nogil:
    """dst = (src | src << w) restricted to the row's cells (``tail`` masks the last word)."""
    cdef index_t j, ws = w >> 6
    cdef int bs = <int>(w & 63)
    if ws >= words:
        memcpy(dst, src, <size_t>words * 8)
        return
    if bs == 0:
        for j in range(words - 1, ws - 1, -1):
            dst[j] = src[j] | src[j - ws]
    else:
        for j in range(words - 1, ws, -1):
            dst[j] = src[j] | (src[j - ws] << bs) | (src[j - ws - 1] >> (64 - bs))
        dst[ws] = src[ws] | (src[0] << bs)
    memcpy(dst, src, <size_t>ws * 8)
    dst[words - 1] &= tail


cdef void _select_proportional(const weight_t* weights, const index_t* elig, index_t m,
                               weight_t g, index_t span, uint64_t* rows,
                               uint8_t* selected) noexcept nogil:
    """The spec §8 choice when value = r · weight for one r > 0 (e.g. subset sum).

    Then the most valuable subsets are the heaviest ones that fit, all of one weight T, so only
    reachability matters: R_k = the weights reachable with items k..m-1, one bit per cell,
    R_k = R_(k+1) | (R_(k+1) << w_k). T is the highest bit of R_0 and the walk takes item k
    whenever the remaining capacity minus w_k is in R_(k+1): the lexicographically greatest
    subset of weight T, as the value DP's walk would take. Rows are checkpointed every
    K = isqrt(m) items and recomputed per segment during the walk (about m / K + K rows, at
    most the m + 1 rows of ``rows``; twice the shift-or work, a fraction of the memory traffic).
    """
    cdef index_t words = <index_t>_words(span), k, c, w, K = 1, nseg, seg, lo, hi
    cdef uint64_t* ckpt = rows                 # ckpt row j: R_(min((j + 1) K, m))
    cdef uint64_t* buf                         # segment rows: buf row k - lo - 1 is R_(k + 1)
    cdef uint64_t* src
    cdef uint64_t* r0
    cdef uint64_t tail = (~<uint64_t>0) >> ((64 - (span & 63)) & 63) if span & 63 else ~<uint64_t>0
    while (K + 1) * (K + 1) <= m:
        K += 1
    nseg = (m + K - 1) // K
    buf = rows + nseg * words
    r0 = buf                                   # R_0 is needed only before the walk
    # Backward pass: R_m = {0}, checkpoint each segment's end, R_0 last.
    src = ckpt + (nseg - 1) * words
    memset(src, 0, <size_t>words * 8)
    src[0] = 1
    for seg in range(nseg - 1, -1, -1):
        lo = seg * K
        hi = lo + K if lo + K < m else m
        for k in range(hi - 1, lo - 1, -1):
            w = <index_t>(weights[elig[k]] // g)
            if k == lo:
                _shift_or(src, ckpt + (seg - 1) * words if seg > 0 else r0, words, w, tail)
                src = ckpt + (seg - 1) * words if seg > 0 else r0
            else:
                # Within the segment, alternate between two scratch rows of the buffer.
                _shift_or(src, buf + ((k & 1) + 1) * words, words, w, tail)
                src = buf + ((k & 1) + 1) * words
    c = span - 1
    while not ((r0[c >> 6] >> (c & 63)) & 1):
        c -= 1
    # Forward walk, one segment at a time.
    for seg in range(nseg):
        if c == 0:
            return
        lo = seg * K
        hi = lo + K if lo + K < m else m
        # buf row (hi - 1 - lo) would be R_hi = ckpt[seg]; rebuild R_(hi-1) .. R_(lo+1).
        src = ckpt + seg * words
        for k in range(hi - 2, lo - 1, -1):
            _shift_or(src, buf + (k - lo) * words, words, <index_t>(weights[elig[k + 1]] // g),
                      tail)
            src = buf + (k - lo) * words
        for k in range(lo, hi):
            w = <index_t>(weights[elig[k]] // g)
            src = ckpt + seg * words if k == hi - 1 else buf + (k - lo) * words
            if w <= c and (src[(c - w) >> 6] >> ((c - w) & 63)) & 1:
                selected[elig[k]] = 1
                c -= w


cdef void _select_table(const weight_t* weights, const value_t* values, const index_t* elig,
                        index_t m, weight_t g, index_t span, void* area, uint8_t* selected,
                        int flags) noexcept nogil:
    """The spec §8 choice among elig[0:m] within scaled capacity span - 1 by the weight DP and
    its keep-bitset; ``area`` holds ``_bitset_bytes(m, span)``."""
    cdef uint64_t* bits = <uint64_t*>area
    cdef index_t start
    if not (flags & _NO_PROPORTIONAL) and _proportional(weights, values, elig, m):
        _select_proportional(weights, elig, m, g, span, bits, selected)
        return
    start = _value_row(weights, values, elig, m, g, span, bits + <size_t>m * _words(span), bits,
                       flags)
    _walk_bits(weights, elig, 0, m, g, span, start, bits, selected)


cdef void _select_divided(const weight_t* weights, const value_t* values, const index_t* elig,
                          index_t m, weight_t g, index_t span, void* area, size_t area_size,
                          uint8_t* selected, int flags) noexcept nogil:
    """The same choice by divide and conquer; ``area`` holds at least ``_dc_bytes(span)``, the
    rest serves bitset base cases (none with ``_NO_TABLE``)."""
    cdef int64_t* rows = <int64_t*>area
    cdef index_t start = _value_row(weights, values, elig, m, g, span, rows, NULL, flags)
    cdef Arena ar
    ar.f0 = rows
    ar.f1 = rows + span
    ar.r0 = rows + 2 * span
    ar.r1 = rows + 3 * span
    ar.i0 = rows + 4 * span
    ar.i1 = rows + 5 * span
    ar.take = <uint8_t*>(rows + 6 * span)
    ar.spare = 0 if flags & _NO_TABLE else area_size - _dc_bytes(span)
    _divide(weights, values, elig, 0, m, g, start, 0, &ar, selected)


cdef struct Outcome:
    int method         # the method that chose (a _METHOD_* value)
    index_t items      # items left after the reduction
    size_t table       # bytes of their keep-bitset table
    size_t divided     # bytes of their divide-and-conquer working set
    size_t by_value    # bytes of their DP over values


cdef enum:
    _METHOD_ALL_FIT = 0
    _METHOD_REDUCED = 5   # the reduction fixed every item
    _METHOD_TABLE = 1
    _METHOD_VALUES = 2
    _METHOD_DIVIDE = 3
    _METHOD_BRANCH = 4
    _GAVE_UP = -100     # branch and bound ran out of nodes (knapsack_solve: CKN_ENOMEM)


cdef int _select(const weight_t* weights, const value_t* values, const index_t* elig, index_t m,
                 weight_t g, weight_t cap, void* area, size_t area_size, void* scratch,
                 uint8_t* selected, int flags, int64_t nodes, Outcome* out) noexcept nogil:
    """Set selected[elig[k]] = 1 for the spec §8 choice among items elig[0:m] (index order)
    within capacity ``cap`` (weights all multiples of ``g``), with at most ``area_size`` bytes
    of DP area: the keep-bitset table if it fits, else the DP over values, else divide and
    conquer, else branch and bound in ``scratch`` (NULL: none). With ``_ALLOCATE`` the area
    (``area`` NULL) is allocated for the chosen method and freed. Returns CKN_OK, CKN_ENOMEM
    (nothing fits and no scratch) or _GAVE_UP."""
    cdef size_t span = _cells(cap, g), need
    cdef uint64_t value_sum = 0
    cdef index_t k
    cdef int method, status = CKN_OK
    cdef bint allocated = False
    for k in range(m):
        value_sum += <uint64_t>values[elig[k]]
    out.items = m
    out.table = _bitset_bytes(m, span)
    out.divided = _dc_bytes(span)
    out.by_value = ckn_kp_value_bytes(m, value_sum)
    if not (flags & _NO_TABLE) and out.table <= area_size:
        method, need = _METHOD_TABLE, out.table
    elif not (flags & _NO_VALUES) and out.by_value <= area_size:
        method, need = _METHOD_VALUES, out.by_value
    elif not (flags & _NO_DIVIDE) and out.divided <= area_size:
        method, need = _METHOD_DIVIDE, area_size   # what is left serves bitset base cases
    else:
        method, need = _METHOD_BRANCH, 0
    if method != _METHOD_BRANCH and flags & _ALLOCATE:
        area = PyMem_RawMalloc(need)
        allocated = True
        if area == NULL:                # cannot have the memory after all: branch and bound
            method, allocated = _METHOD_BRANCH, False
    out.method = method
    if method == _METHOD_TABLE:
        _select_table(weights, values, elig, m, g, <index_t>span, area, selected, flags)
    elif method == _METHOD_VALUES:
        ckn_kp_value_select(weights, values, elig, m, <uint64_t>cap, value_sum, area, selected)
    elif method == _METHOD_DIVIDE:
        _select_divided(weights, values, elig, m, g, <index_t>span, area, need, selected, flags)
    elif scratch == NULL:
        status = CKN_ENOMEM
    elif ckn_kp_bb_select(weights, values, elig, m, <uint64_t>cap, scratch, selected, nodes) < 0:
        status = _GAVE_UP
    if allocated:
        PyMem_RawFree(area)
    return status


# ----------------------------------------------------------------------------- reduction

cdef inline size_t _reduce_bytes(index_t m) noexcept nogil:
    """Scratch of the reduction: order and merge buffer (m index_t), prefix sums (2 (m + 1))."""
    return _add(_mul(<size_t>m, 2 * sizeof(index_t)), _mul(<size_t>(m + 1), 2 * sizeof(int64_t)))


cdef inline bint _better(const weight_t* weights, const value_t* values, index_t i,
                         index_t j) noexcept nogil:
    """Item i strictly before item j: higher efficiency v/w, then lower index (exact 128-bit
    cross products)."""
    cdef int s = ckn_kp_cmp_products(<uint64_t>values[i], <uint64_t>weights[j],
                                     <uint64_t>values[j], <uint64_t>weights[i])
    return s > 0 or (s == 0 and i < j)


cdef void _sort_by_efficiency(const weight_t* weights, const value_t* values, index_t* a,
                              index_t* tmp, index_t p) noexcept nogil:
    """Bottom-up merge sort of a[0:p] (item indices), most efficient first."""
    cdef index_t width = 1, lo, mid, hi, i, j, k
    cdef index_t* src = a
    cdef index_t* dst = tmp
    cdef index_t* t
    while width < p:
        lo = 0
        while lo < p:
            mid = lo + width if lo + width < p else p
            hi = lo + 2 * width if lo + 2 * width < p else p
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                if _better(weights, values, src[j], src[i]):
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo = hi
        t = src
        src = dst
        dst = t
        width *= 2
    if src != a:
        memcpy(a, src, <size_t>p * sizeof(index_t))


cdef inline index_t _last_fitting(const uint64_t* W, index_t lo, index_t hi, uint64_t cap) noexcept nogil:
    """Largest k in [lo, hi] with W[k] <= cap, given W[lo] <= cap and W increasing."""
    cdef index_t mid
    while lo < hi:
        mid = hi - (hi - lo) // 2
        if W[mid] <= cap:
            lo = mid
        else:
            hi = mid - 1
    return lo


cdef int64_t _flipped_bound(const weight_t* weights, const value_t* values, const index_t* order,
                            const uint64_t* W, const int64_t* V, index_t p, index_t b,
                            weight_t c, index_t pos) noexcept nogil:
    """Dantzig (LP) upper bound of the best value with item order[pos] flipped from its break
    solution value (out if pos < b, in if pos >= b); -1 when that is infeasible.

    Exact for all int64 inputs: c + w < 2**64; W saturates at 2**64 - 1, above every capacity
    it is compared with, and W[k] <= cap wherever cap - W[k] is taken; that remainder is below
    w_q (W[k + 1] > cap), so the fraction (128-bit product) is below v_q and every value sum
    is a sum of distinct items' values (<= Σ values <= INT64_MAX; for pos >= b, k < pos since
    W[b] + w_b > c)."""
    cdef index_t i = order[pos], k, q
    cdef int64_t v = values[i]
    cdef uint64_t w = <uint64_t>weights[i], cap
    if pos < b:
        cap = <uint64_t>c + w             # the items before k, minus item i, fill up to c
        k = _last_fitting(W, b, p, cap)
        if k == p:
            return V[p] - v
        q = order[k]
        return V[k] - v + <int64_t>ckn_kp_muldiv(cap - W[k], <uint64_t>values[q], <uint64_t>weights[q])
    if w > <uint64_t>c:
        return -1
    cap = <uint64_t>c - w
    k = _last_fitting(W, 0, b, cap)       # W[0] = 0 <= cap; items 0..b-1 never include pos
    q = order[k]
    return v + V[k] + <int64_t>ckn_kp_muldiv(cap - W[k], <uint64_t>values[q], <uint64_t>weights[q])


cdef int64_t _core_value(const weight_t* weights, const value_t* values, const index_t* order,
                         index_t lo, index_t hi, weight_t g, weight_t cap, void* row,
                         int flags) noexcept nogil:
    """Best value of items order[lo:hi] within capacity cap (value only, one row)."""
    cdef index_t span = <index_t>(cap // g) + 1, k
    cdef int64_t total = 0
    cdef bint i32, avx2 = not (flags & _NO_SIMD) and ckn_kp_have_avx2()
    for k in range(lo, hi):
        total += values[order[k]]
    i32 = not (flags & _NO_INT32) and total <= INT32_MAX
    memset(row, 0, <size_t>span * (4 if i32 else 8))
    for k in range(lo, hi):
        _row(row, i32, avx2, span, <index_t>(weights[order[k]] // g), values[order[k]], NULL)
    if i32:
        return (<int32_t*>row)[span - 1]
    return (<int64_t*>row)[span - 1]


cdef index_t _reduce(const weight_t* weights, const value_t* values, index_t* elig, index_t m,
                     weight_t c, weight_t g, void* scratch, void* row, size_t row_bytes,
                     bint allocate, uint8_t* selected, weight_t* residual) noexcept nogil:
    """Fix every item whose value is the same in all optimal solutions; keep the rest.

    Marks fixed-in items in ``selected``, compacts elig[0:m] to the free items (index order)
    and returns their count, with ``residual`` = c minus the fixed-in weight. The core DPs'
    row takes at most ``row_bytes``: at ``row`` or, with ``allocate``, allocated as large as
    the largest core needs and freed on return. A core whose row does not fit is not solved
    (the lower bound stays the one found so far; the answer is the same).
    """
    cdef size_t held = 0
    if allocate:
        row = NULL
    cdef index_t* order = <index_t*>scratch
    cdef index_t* tmp = order + m
    cdef uint64_t* W = <uint64_t*>(tmp + m)
    cdef int64_t* V = <int64_t*>(W + (m + 1))
    cdef index_t j, i, p = 0, b, pos, lo, hi, half = 8, free, k
    cdef int64_t lb, ub, cap, best, fixed_in
    cdef double free_cells, core_cells, free_w   # cost estimates (double: no overflow)
    cdef int64_t prev_lb = -1
    cdef uint64_t sum_w = 0
    # Zero weight: always taken (taking never costs weight). Positive weight, zero value: never
    # taken (dropping it keeps the value and lowers the weight). Both rules match the dense DP.
    for j in range(m):
        i = elig[j]
        if weights[i] == 0:
            selected[i] = 1
        elif values[i] > 0:
            order[p] = i
            sum_w = ckn_kp_sat_add(sum_w, <uint64_t>weights[i])
            p += 1
    if sum_w <= <uint64_t>c:
        for j in range(p):
            selected[order[j]] = 1
        residual[0] = c - <int64_t>sum_w
        return 0
    _sort_by_efficiency(weights, values, order, tmp, p)
    W[0] = 0
    V[0] = 0
    for j in range(p):
        W[j + 1] = ckn_kp_sat_add(W[j], <uint64_t>weights[order[j]])
        V[j + 1] = V[j] + values[order[j]]
    b = _last_fitting(W, 0, p, <uint64_t>c)  # items order[0:b] fit, order[b] does not (b < p)
    ub = V[b] + <int64_t>ckn_kp_muldiv(<uint64_t>c - W[b], <uint64_t>values[order[b]],
                                       <uint64_t>weights[order[b]])
    # Lower bound: greedy fill, then exact DPs over growing cores around the break item (the
    # items outside the core keep their break-solution values), while that looks worth it.
    lb = V[b]
    cap = c - <int64_t>W[b]
    for pos in range(b + 1, p):
        if weights[order[pos]] <= cap:
            cap -= weights[order[pos]]
            lb += values[order[pos]]
    while True:
        lo = b - half if b > half else 0
        hi = b + half if b + half < p else p
        cap = c - <int64_t>W[lo]             # (W[lo] <= W[b] <= c)
        if <uint64_t>cap > W[hi] - W[lo]:   # (a saturated W[hi] leaves cap as it is)
            cap = <int64_t>(W[hi] - W[lo])
        if <uint64_t>(cap // g) >= row_bytes // sizeof(int64_t):
            break                           # the core's row does not fit in row_bytes
        if allocate and held < <size_t>(cap // g + 1) * sizeof(int64_t):
            PyMem_RawFree(row)
            held = <size_t>(cap // g + 1) * sizeof(int64_t)
            row = PyMem_RawMalloc(held)
            if row == NULL:
                break
        best = V[lo] + _core_value(weights, values, order, lo, hi, g, cap, row, 0)
        if best > lb:
            lb = best
        # Size of the exact DP that the reduction with this bound would leave.
        fixed_in = 0
        free = 0
        free_w = 0.0
        for pos in range(p):
            if _flipped_bound(weights, values, order, W, V, p, b, c, pos) < lb:
                if pos < b:
                    fixed_in += weights[order[pos]]
            else:
                free += 1
                free_w += <double>weights[order[pos]]
        free_cells = <double>free * ((<double>(c - fixed_in) if c - fixed_in < free_w else free_w)
                                     / <double>g + 1.0)
        core_cells = <double>(hi - lo) * <double>(cap // g + 1)
        # Stop when the bound cannot or did not improve, or the next (doubled) core would cost
        # more than 1/16 of the DP this bound leaves.
        if (lb >= ub or lb == prev_lb or (lo == 0 and hi == p)
                or 4.0 * core_cells > free_cells / 16.0):
            break
        prev_lb = lb
        half *= 2
    if allocate:
        PyMem_RawFree(row)
    # Fix: an item whose flipped bound is below a feasible value is fixed in every optimum.
    fixed_in = 0
    for pos in range(p):
        i = order[pos]
        if _flipped_bound(weights, values, order, W, V, p, b, c, pos) < lb:
            if pos < b:
                selected[i] = 1
                fixed_in += weights[i]
        else:
            selected[i] = 2
    k = 0
    for j in range(m):
        i = elig[j]
        if selected[i] == 2:
            selected[i] = 0
            elig[k] = i
            k += 1
    residual[0] = c - fixed_in
    return k


# ----------------------------------------------------------------------------- entry point

cdef int knapsack_solve(const weight_t* weights, const value_t* values, index_t n,
                        weight_t budget, void* workspace, size_t workspace_size,
                        uint8_t* selected, value_t* total_value,
                        weight_t* total_weight) noexcept nogil:
    cdef int status = _solve_flags(weights, values, n, budget, workspace, workspace_size,
                                   selected, total_value, total_weight, 0, 0, CKN_KP_BB_NODES,
                                   NULL)
    return CKN_ENOMEM if status == _GAVE_UP else status


cdef int _solve_flags(const weight_t* weights, const value_t* values, index_t n,
                      weight_t budget, void* workspace, size_t workspace_size,
                      uint8_t* selected, value_t* total_value, weight_t* total_weight,
                      int flags, size_t max_memory, int64_t nodes, Outcome* out) noexcept nogil:
    """``knapsack_solve`` with test flags, a node allowance for branch and bound and, in
    ``out`` (may be NULL), what it did.

    The workspace holds the index list, then (when there is room) the O(m) scratch of the
    reduction and of branch and bound, then the DP area. With ``_ALLOCATE`` the workspace
    needs only the index list and the scratch: the reduction's core row (at most
    ``max_memory``) is allocated and freed before the DP area (at most ``max_memory``) is
    allocated for the items the reduction leaves free (``PyMem_RawMalloc``, no GIL needed).
    Either way the solver holds at most the workspace plus ``max_memory`` bytes at once.
    """
    cdef Plan plan
    cdef Outcome local
    cdef index_t i, k, m
    cdef value_t value_sum = 0
    cdef weight_t weight_sum = 0, residual, g
    cdef uint64_t free_w
    cdef index_t* elig
    cdef size_t head, rest, scratch_size, area_size
    cdef char* area
    cdef void* scratch = NULL
    cdef bint allocate = flags & _ALLOCATE
    cdef int status = CKN_OK
    if out == NULL:
        out = &local
    out.method = _METHOD_ALL_FIT
    out.items = 0
    out.table = out.divided = out.by_value = 0
    if not _make_plan(weights, n, budget, &plan):
        return CKN_EINVAL
    for i in range(n):
        if values[i] < 0:
            return CKN_EINVAL
        if values[i] > INT64_MAX - value_sum:
            return CKN_EOVERFLOW
        value_sum += values[i]
    head = _mul(<size_t>plan.m, sizeof(index_t))
    if workspace_size < head:
        return CKN_ENOMEM
    rest = workspace_size - head
    scratch_size = _scratch_bytes(plan.m)
    area = <char*>workspace + head
    if rest >= scratch_size:
        scratch = area
        area += scratch_size
        rest -= scratch_size
    area_size = max_memory if allocate else rest
    memset(selected, 0, <size_t>n)
    elig = <index_t*>workspace
    k = 0
    for i in range(n):
        if weights[i] <= budget:
            elig[k] = i
            k += 1
    if plan.fits_all:
        # Every fitting item fits at once: take all but the positive-weight, zero-value ones
        # (they would only add weight), as every method would.
        for k in range(plan.m):
            i = elig[k]
            selected[i] = weights[i] == 0 or values[i] > 0
    else:
        m = -1
        if (not (flags & _NO_REDUCTION) and scratch != NULL
                and (flags & _NO_PROPORTIONAL or not _proportional(weights, values, elig, plan.m))):
            # (With one common efficiency every flipped bound equals the LP bound: nothing
            # could be fixed, so the reduction is skipped.)
            m = _reduce(weights, values, elig, plan.m, plan.cap, plan.g, scratch, area, area_size,
                        allocate, selected, &residual)
            out.method = _METHOD_REDUCED
        if m < 0:  # no reduction: every fitting item
            m, g, residual = plan.m, plan.g, plan.cap
        else:  # the free items, within what the fixed-in items leave
            g = 0
            free_w = 0
            for k in range(m):
                g = _gcd(g, weights[elig[k]])
                free_w = ckn_kp_sat_add(free_w, <uint64_t>weights[elig[k]])
            if g == 0:
                g = 1
            if <uint64_t>residual > free_w:
                residual = <weight_t>free_w
        if m > 0:
            status = _select(weights, values, elig, m, g, residual, NULL if allocate else area,
                             area_size, scratch, selected, flags, nodes, out)
            if status != CKN_OK:
                return status
    value_sum = 0
    for i in range(n):
        if selected[i]:
            value_sum += values[i]
            weight_sum += weights[i]
    total_value[0] = value_sum
    total_weight[0] = weight_sum
    return CKN_OK


# ----------------------------------------------------------------------------- Python wrapper

class KnapsackResult(NamedTuple):
    """The chosen items (ascending indices) and their value and weight sums."""

    indices: tuple
    total_value: int
    total_weight: int


cdef object _exact_ints(seq):
    """int64 array of a list/tuple whose items are all exactly ``int`` and fit int64, else None
    (the caller's slow path then produces the precise error message)."""
    cdef Py_ssize_t i, n = len(seq)
    from array import array
    out = array("q", bytes(8 * n))
    cdef int64_t[::1] view = out
    for i in range(n):
        x = seq[i]
        if type(x) is not int:
            return None
        try:
            view[i] = x
        except OverflowError:
            return None
    return out


def _as_int64(obj, str name):
    """A C-contiguous int64 buffer for ``obj`` (a list, array.array, numpy array, ...)."""
    cdef const int64_t[::1] view
    if obj is None:
        raise CknTypeError(f"{name}: expected a sequence of integers, got NoneType")
    if type(obj) is list or type(obj) is tuple:
        fast = _exact_ints(obj)
        if fast is not None:
            return fast
    try:
        view = obj
        return view
    except (TypeError, ValueError, BufferError):
        pass
    try:
        items = list(obj)
    except TypeError:
        raise CknTypeError(f"{name}: expected a sequence of integers, got {type(obj).__name__}") from None
    from array import array
    out = array("q", bytes(8 * len(items)))
    for i, x in enumerate(items):
        if isinstance(x, bool) or type(x).__name__ == "bool_":
            raise CknTypeError(f"{name}[{i}]: expected an integer, got a boolean")
        try:
            x = x.__index__()
        except (AttributeError, TypeError):
            raise CknTypeError(f"{name}[{i}]: expected an integer, got {x!r}") from None
        if x < 0:
            raise CknValueError(f"{name}[{i}]: expected a non-negative integer, got {x}")
        if x > INT64_MAX:
            raise CknValueError(f"{name}[{i}]: {x} does not fit in int64")
        out[i] = x
    return out


def solve(weights, values, budget, /, *, max_memory=DEFAULT_MAX_MEMORY):
    """Exact 0/1 knapsack: the subset maximising Σ values with Σ weights ≤ budget (spec §8).

    Parameters
    ----------
    weights, values : sequence or buffer of non-negative integers, same length n
        Lists, ``array.array`` or numpy arrays (int64 buffers are used without copying); the
        values' sum must fit in int64.
    budget : int
        Non-negative capacity, in the same units as the weights (tokens); above 2**63 - 1 it
        is capped there.
    max_memory : int, keyword-only
        Bytes the solver may hold beyond O(n) (default ``DEFAULT_MAX_MEMORY``, 256 MiB), for
        its DP tables: the keep-bitset table when it fits, else the DP over values, else
        divide and conquer (O(budget) rows), else branch and bound in O(n) memory.

    Returns
    -------
    KnapsackResult
        ``indices`` (ascending), ``total_value``, ``total_weight``. Ties: fewest total weight,
        then prefer lower indices lexicographically.

    Raises
    ------
    CknMemoryError
        When no DP fits in ``max_memory`` and branch and bound does not finish within its
        node allowance; the message names the memory that would let a DP solve it.

    Complexity: O(n log n) for the reduction, then O(k · C') for the k items it leaves free and
    C' = min(budget - fixed-in weight, Σ free weights) / gcd (or O(k · Σ free values) by
    values); branch and bound is exponential at worst. Same answer on every path.

    Examples
    --------
    >>> solve([95, 75, 175], [1624, 1572, 1639], 180)
    KnapsackResult(indices=(0, 1), total_value=3196, total_weight=170)
    """
    return _run(weights, values, budget, max_memory, _ALLOCATE)


def _solve_paths(weights, values, budget, /, *, max_memory=DEFAULT_MAX_MEMORY, reduction=True,
                 int32=True, simd=True, proportional=True, allocate=True, table=True,
                 by_value=True, divide=True, nodes=None, report=None):
    """:func:`solve` with internal paths switched off, for tests and benchmarks (private).

    ``reduction=False`` runs the plain dense DP over every fitting item; ``int32=False`` keeps
    int64 DP cells; ``simd=False`` avoids the AVX2 kernels; ``proportional=False`` skips the
    reachability-bitset path for items of one common efficiency; ``allocate=False`` solves in
    one workspace of ``knapsack_workspace_size`` bytes, as the C API's callers do;
    ``table=False`` skips the keep-bitset table (and divide and conquer's bitset base cases),
    ``by_value=False`` the DP over values, ``divide=False`` divide and conquer (all three off:
    branch and bound). Every combination returns the same selection as :func:`solve`.
    ``nodes`` replaces branch and bound's node allowance (``BRANCH_NODES``). A list
    passed as ``report`` receives the method that chose ("all_fit", "reduced", "table",
    "by_value", "divide" or "branch").
    """
    return _run(weights, values, budget, max_memory,
                (0 if reduction else _NO_REDUCTION) | (0 if int32 else _NO_INT32)
                | (0 if simd else _NO_SIMD) | (0 if proportional else _NO_PROPORTIONAL)
                | (_ALLOCATE if allocate else 0) | (0 if table else _NO_TABLE)
                | (0 if by_value else _NO_VALUES) | (0 if divide else _NO_DIVIDE),
                BRANCH_NODES if nodes is None else nodes, report)


_METHODS = {_METHOD_ALL_FIT: "all_fit", _METHOD_REDUCED: "reduced", _METHOD_TABLE: "table", _METHOD_VALUES: "by_value",
            _METHOD_DIVIDE: "divide", _METHOD_BRANCH: "branch"}


def _run(weights, values, budget, max_memory, int flags, int64_t nodes=CKN_KP_BB_NODES,
         list method=None):
    if isinstance(budget, bool) or not hasattr(budget, "__index__"):
        raise CknTypeError(f"budget: expected a non-negative integer, got {budget!r}")
    budget = budget.__index__()
    if budget < 0:
        raise CknValueError(f"budget: expected a non-negative integer, got {budget}")
    if budget > INT64_MAX:
        budget = INT64_MAX
    if isinstance(max_memory, bool) or not isinstance(max_memory, int) or max_memory < 0:
        raise CknValueError(f"max_memory: expected a non-negative integer, got {max_memory!r}")
    cdef const int64_t[::1] w = _as_int64(weights, "weights")
    cdef const int64_t[::1] v = _as_int64(values, "values")
    cdef index_t n = w.shape[0], i
    if v.shape[0] != n:
        raise CknValueError(f"weights and values differ in length: {n} != {v.shape[0]}")
    for i in range(n):
        if w[i] < 0:
            raise CknValueError(f"weights[{i}]: expected a non-negative integer, got {w[i]}")
        if v[i] < 0:
            raise CknValueError(f"values[{i}]: expected a non-negative integer, got {v[i]}")
    cdef const weight_t* wp = &w[0] if n > 0 else NULL
    cdef const value_t* vp = &v[0] if n > 0 else NULL
    cdef weight_t c_budget = budget
    cdef size_t cap = <size_t>min(max_memory, SIZE_MAX)
    cdef size_t size
    cdef int status
    cdef value_t total_value = 0
    cdef weight_t total_weight = 0
    cdef Outcome out
    selected = bytearray(n)
    cdef uint8_t[::1] sel = selected
    cdef uint8_t* sp = &sel[0] if n > 0 else NULL
    # With _ALLOCATE: the index list and the O(n) scratch; the DP areas are allocated inside,
    # within max_memory. Without: one workspace of knapsack_workspace_size bytes, as the C
    # API's callers allocate it.
    cdef Plan plan
    if not _make_plan(wp, n, c_budget, &plan):  # (the checks above exclude this)
        raise CknValueError("weights and budget must be non-negative")
    if flags & _ALLOCATE:
        size = _add(_mul(<size_t>plan.m, sizeof(index_t)), _scratch_bytes(plan.m))
    else:
        size = knapsack_workspace_size(wp, n, c_budget, cap)
    cdef void* workspace = PyMem_RawMalloc(size if size > 0 else 1)
    if workspace == NULL:
        raise CknMemoryError(f"cannot allocate {size} bytes of knapsack workspace for {n} items")
    try:
        # the work is between about n log n and n * budget; measured, it grows with n (a
        # 500-chunk pool with a 4,000-token budget: ~60 us). From a few hundred items it is
        # past NOGIL_MIN_WORK's ~50 us, and another thread (a second packer) can run meanwhile
        if n >= 256 or <double>n * c_budget >= 256.0 * NOGIL_MIN_WORK:
            with nogil:
                status = _solve_flags(wp, vp, n, c_budget, workspace, size, sp,
                                      &total_value, &total_weight, flags, cap, nodes, &out)
        else:
            status = _solve_flags(wp, vp, n, c_budget, workspace, size, sp,
                                  &total_value, &total_weight, flags, cap, nodes, &out)
    finally:
        PyMem_RawFree(workspace)
    if status == CKN_EOVERFLOW:
        raise CknValueError("values: their sum overflows int64")
    if status == _GAVE_UP or status == CKN_ENOMEM:
        least = min(out.table, out.by_value, out.divided)
        raise CknMemoryError(
            f"the exact knapsack over {out.items} items (of {n}) within a budget of {budget} "
            f"needs a DP of at least {least} bytes, more than max_memory={max_memory}, and "
            f"branch and bound did not finish within {nodes} nodes; raise max_memory "
            f"to {least} or more (bytes), or lower the budget")
    if status != CKN_OK:
        raise CknValueError(f"knapsack_solve failed with status {status}")
    if method is not None:
        method.append(_METHODS[out.method])
    chosen = []
    for i in range(n):
        if sp[i]:
            chosen.append(i)
    indices = tuple(chosen)
    return KnapsackResult(indices, total_value, total_weight)
