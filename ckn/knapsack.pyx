"""Exact 0/1 knapsack by dynamic programming over integer weights (SPEC §8).

Python surface: :func:`solve` and :class:`KnapsackResult`. C surface (``cimport ckn.knapsack``):
``knapsack_workspace_size`` and ``knapsack_solve``, documented in ``knapsack.pxd`` and
``docs/c-api.md``.

Method. Items that fit the budget are kept in input order; weights are divided by their gcd.
A suffix DP ``G_i(c)`` (best value of items i..m-1 within capacity c) is built from the last
item to the first, ``O(m · C)`` time for capacity ``C = min(budget, Σ fitting weights) / gcd``.
The optimum V is ``G_0(C)`` and the fewest-tokens weight ``W*`` the smallest c with
``G_0(c) = V``. Walking items first to last from capacity ``W*`` and taking an item whenever
taking it still reaches the optimum gives the lexicographically greatest indicator vector among
optimal, fewest-token subsets. The walk reads a keep-bitset (1 bit per item and cell); when that
table would exceed ``max_memory``, a Hirschberg-style divide and conquer finds the same path
with O(C) working memory in O(m · C) time (see docs/knapsack.md).
"""

from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc
from libc.stdint cimport INT64_MAX, SIZE_MAX, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from ckn.typedefs cimport CKN_EINVAL, CKN_ENOMEM, CKN_EOVERFLOW, CKN_OK, index_t, value_t, weight_t

from typing import NamedTuple

from ckn.errors import CknMemoryError, CknTypeError, CknValueError

__all__ = ["DEFAULT_MAX_MEMORY", "KnapsackResult", "solve"]

DEFAULT_MAX_MEMORY = 256 * 1024 * 1024


# ----------------------------------------------------------------------------- plan and sizes

cdef struct Plan:
    index_t m          # items with weight <= budget
    weight_t g         # gcd of their weights (1 when all are zero)
    index_t span       # DP cells: scaled capacity + 1


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
    for i in range(n):
        w = weights[i]
        if w < 0:
            return False
        if w <= budget:
            plan.m += 1
            g = _gcd(g, w)
            if total <= budget:
                total += w      # each w <= budget, so this cannot overflow before the check
    if g == 0:
        g = 1
    if total > budget:
        total = budget
    plan.g = g
    plan.span = <index_t>(total // g) + 1
    return True


cdef inline size_t _words(index_t span) noexcept nogil:
    return <size_t>((span + 63) // 64)


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


cdef inline size_t _bitset_bytes(index_t items, index_t span) noexcept nogil:
    """Two DP rows plus the keep-bitset of ``items`` rows."""
    return _add(_mul(2 * sizeof(int64_t), <size_t>span), _mul(_mul(<size_t>items, _words(span)), 8))


cdef inline size_t _dc_bytes(index_t span) noexcept nogil:
    """Six O(span) int64 arrays and one byte array: the divide-and-conquer working set."""
    return _add(_mul(6 * sizeof(int64_t), <size_t>span), _mul(<size_t>((span + 7) // 8), 8))


cdef size_t knapsack_workspace_size(const weight_t* weights, index_t n, weight_t budget,
                                    size_t max_memory) noexcept nogil:
    cdef Plan plan
    if not _make_plan(weights, n, budget, &plan):
        return 0
    cdef size_t head = _mul(<size_t>plan.m, sizeof(index_t))
    cdef size_t bitset = _bitset_bytes(plan.m, plan.span)
    if bitset <= max_memory:
        return _add(head, bitset)
    cdef size_t dc = _dc_bytes(plan.span)
    return _add(head, dc if dc > max_memory else max_memory)


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


# ----------------------------------------------------------------------------- entry point

cdef int knapsack_solve(const weight_t* weights, const value_t* values, index_t n,
                        weight_t budget, void* workspace, size_t workspace_size,
                        uint8_t* selected, value_t* total_value,
                        weight_t* total_weight) noexcept nogil:
    cdef Plan plan
    cdef index_t i, k, start
    cdef value_t value_sum = 0
    cdef weight_t weight_sum = 0
    cdef index_t* elig
    cdef int64_t* rows
    cdef int64_t* final
    cdef uint64_t* bits
    cdef size_t head, rest
    cdef Arena ar
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
    if rest < _bitset_bytes(plan.m, plan.span) and rest < _dc_bytes(plan.span):
        return CKN_ENOMEM
    memset(selected, 0, <size_t>n)
    elig = <index_t*>workspace
    k = 0
    for i in range(n):
        if weights[i] <= budget:
            elig[k] = i
            k += 1
    rows = <int64_t*>(<char*>workspace + head)
    if rest >= _bitset_bytes(plan.m, plan.span):
        bits = <uint64_t*>(rows + 2 * plan.span)
        final = _suffix_rows(weights, values, elig, 0, plan.m, plan.g, plan.span, False,
                             rows, rows + plan.span, bits)
        start = _fewest_tokens_cell(final, plan.span)
        _walk_bits(weights, elig, 0, plan.m, plan.g, plan.span, start, bits, selected)
    else:
        final = _suffix_rows(weights, values, elig, 0, plan.m, plan.g, plan.span, False,
                             rows, rows + plan.span, NULL)
        start = _fewest_tokens_cell(final, plan.span)
        ar.f0 = rows
        ar.f1 = rows + plan.span
        ar.r0 = rows + 2 * plan.span
        ar.r1 = rows + 3 * plan.span
        ar.i0 = rows + 4 * plan.span
        ar.i1 = rows + 5 * plan.span
        ar.take = <uint8_t*>(rows + 6 * plan.span)
        ar.spare = rest - _dc_bytes(plan.span)
        _divide(weights, values, elig, 0, plan.m, plan.g, start, 0, &ar, selected)
    value_sum = 0
    for i in range(n):
        if selected[i]:
            value_sum += values[i]
            weight_sum += weights[i]
    total_value[0] = value_sum
    total_weight[0] = weight_sum
    return CKN_OK


cdef index_t _fewest_tokens_cell(const int64_t* row, index_t span) noexcept nogil:
    """Smallest cell holding the row's maximum (rows of the <= formulation are non-decreasing)."""
    cdef index_t c = span - 1
    cdef int64_t best = row[span - 1]
    while c > 0 and row[c - 1] == best:
        c -= 1
    return c


# ----------------------------------------------------------------------------- Python wrapper

class KnapsackResult(NamedTuple):
    """The chosen items (ascending indices) and their value and weight sums."""

    indices: tuple
    total_value: int
    total_weight: int


def _as_int64(obj, str name):
    """A C-contiguous int64 buffer for ``obj`` (a list, array.array, numpy array, ...)."""
    cdef const int64_t[::1] view
    if obj is None:
        raise CknTypeError(f"{name}: expected a sequence of integers, got NoneType")
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
    """Exact 0/1 knapsack: the subset maximising Σ values with Σ weights ≤ budget (SPEC §8).

    Parameters
    ----------
    weights, values : sequence or buffer of non-negative integers, same length n
        Lists, ``array.array`` or numpy arrays (int64 buffers are used without copying).
    budget : int
        Non-negative capacity, in the same units as the weights (tokens).
    max_memory : int, keyword-only
        Byte cap for the keep-bitset table (default 256 MiB). Above it the solver returns the
        identical answer with O(n + capacity) memory by divide and conquer.

    Returns
    -------
    KnapsackResult
        ``indices`` (ascending), ``total_value``, ``total_weight``. Ties: fewest total weight,
        then prefer lower indices lexicographically.

    Complexity: O(n · C) time for C = min(budget, Σ fitting weights) / gcd(weights).

    Examples
    --------
    >>> solve([95, 75, 175], [1624, 1572, 1639], 180)
    KnapsackResult(indices=(0, 1), total_value=3196, total_weight=170)
    """
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
    selected = bytearray(n)
    cdef uint8_t[::1] sel = selected
    cdef uint8_t* sp = &sel[0] if n > 0 else NULL
    with nogil:
        size = knapsack_workspace_size(wp, n, c_budget, cap)
    if size == SIZE_MAX:
        raise CknMemoryError("knapsack workspace size overflows size_t; the budget is too large")
    cdef void* workspace = PyMem_RawMalloc(size if size > 0 else 1)
    if workspace == NULL:
        raise CknMemoryError(f"cannot allocate {size} bytes of knapsack workspace")
    try:
        with nogil:
            status = knapsack_solve(wp, vp, n, c_budget, workspace, size, sp,
                                    &total_value, &total_weight)
    finally:
        PyMem_RawFree(workspace)
    if status == CKN_EOVERFLOW:
        raise CknValueError("values: their sum overflows int64")
    if status != CKN_OK:
        raise CknValueError(f"knapsack_solve failed with status {status}")
    indices = tuple(i for i in range(n) if sel[i])
    return KnapsackResult(indices, total_value, total_weight)
