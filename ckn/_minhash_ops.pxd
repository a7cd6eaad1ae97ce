# Inline kernels that ckn.minhash and ckn._dedup share (a .pxd-only module: each compiles its
# own copy). Internal, not part of the C API: the public entry points are in ckn/minhash.pxd.
from libc.stdint cimport uint8_t

from ckn.minhash cimport MINHASH_PRIME
from ckn.typedefs cimport CKN_EINVAL, CKN_OK, hash_t, index_t, slot_t


cdef inline hash_t _mix64(hash_t z) noexcept nogil:
    z = z ^ (z >> 30)
    z = z * 0xBF58476D1CE4E5B9ULL
    z = z ^ (z >> 27)
    z = z * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


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


cdef inline void _insertion_sort(slot_t* xs, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef slot_t v
    for i in range(1, n):
        v = xs[i]
        j = i
        while j > 0 and xs[j - 1] > v:
            xs[j] = xs[j - 1]
            j -= 1
        xs[j] = v


cdef inline void _heap_sort(slot_t* xs, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i = n // 2
    cdef slot_t tmp
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


cdef inline void _intro_sort(slot_t* xs, Py_ssize_t n, int depth) noexcept nogil:
    # Quicksort (median of three, Hoare partition; recursion on the smaller side, so O(log n)
    # stack), insertion sort below 24 values, heapsort past ``depth`` levels: O(n log n) always.
    cdef Py_ssize_t i, j
    cdef slot_t pivot, tmp
    while n > 24:
        if depth == 0:
            _heap_sort(xs, n)
            return
        depth -= 1
        # xs[0] <= xs[n // 2] <= xs[n - 1]: the ends stop both scans, and both sides are shorter
        # than n
        if xs[n // 2] < xs[0]:
            tmp = xs[0]
            xs[0] = xs[n // 2]
            xs[n // 2] = tmp
        if xs[n - 1] < xs[n // 2]:
            tmp = xs[n - 1]
            xs[n - 1] = xs[n // 2]
            xs[n // 2] = tmp
            if xs[n // 2] < xs[0]:
                tmp = xs[0]
                xs[0] = xs[n // 2]
                xs[n // 2] = tmp
        pivot = xs[n // 2]
        i = 0
        j = n - 1
        while True:
            i += 1
            while xs[i] < pivot:
                i += 1
            j -= 1
            while xs[j] > pivot:
                j -= 1
            if i >= j:
                break
            tmp = xs[i]
            xs[i] = xs[j]
            xs[j] = tmp
        # xs[0..j] <= pivot <= xs[j+1..n)
        if j + 1 < n - j - 1:
            _intro_sort(xs, j + 1, depth)
            xs += j + 1
            n -= j + 1
        else:
            _intro_sort(xs + j + 1, n - j - 1, depth)
            n = j + 1
    _insertion_sort(xs, n)


# Sorts xs[0..n) ascending in place and removes duplicates (minhash_sort_unique).
cdef inline Py_ssize_t _sort_unique(slot_t* xs, Py_ssize_t n) noexcept nogil:
    # Introsort: in place, no allocation, O(n log n).
    cdef Py_ssize_t i, k
    cdef int depth = 0
    if n <= 0:
        return 0
    i = n
    while i > 0:
        depth += 2
        i >>= 1
    _intro_sort(xs, n, depth)
    k = 1
    for i in range(1, n):
        if xs[i] != xs[k - 1]:
            xs[k] = xs[i]
            k += 1
    return k


cdef inline Py_ssize_t _equal_slots(const slot_t* s1, const slot_t* s2,
                                    Py_ssize_t permutations) noexcept nogil:
    # Slots equal to p (an empty set) never count as a match; vectorises.
    cdef Py_ssize_t i
    cdef Py_ssize_t eq = 0
    for i in range(permutations):
        eq += (s1[i] == s2[i]) & (s1[i] != MINHASH_PRIME)
    return eq


# Exact Jaccard of two strictly increasing arrays (minhash_jaccard).
cdef inline double _jaccard(const slot_t* x1, Py_ssize_t n1,
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


# Row i's best duplicate so far among the kept rows offered to it (minhash_dedup's rule).
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
        exact = _jaccard(
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


# The all-pairs dedup pass (minhash_dedup): every row against every kept row before it.
cdef inline int _dedup_all_pairs(const slot_t* signatures, Py_ssize_t n,
                                 Py_ssize_t permutations, double threshold,
                                 const index_t* set_offsets, const slot_t* set_values,
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
