# Public C API of ckn.minhash: spec §7 MinHash (term hashes, shingles, signatures, dedup pass).
#
#     from ckn.minhash cimport minhash_signature, minhash_similarity
#
# Every function is `noexcept nogil`: it never raises, never touches Python objects, never
# allocates, and may run with the GIL released on any thread (it writes only to the buffers the
# caller passes). All buffers are owned by the caller and must stay valid for the duration of the
# call; nothing is retained after it returns. Fallible functions return an `int` status from
# ckn/typedefs.pxd (CKN_OK = 0, negative = error) or a negative count; the rest are infallible
# under their documented preconditions (breaking one is undefined behaviour, not an error).
# Changing any declaration here breaks binary compatibility: see docs/c-api.md.
from libc.stdint cimport uint8_t
from ckn.typedefs cimport hash_t, slot_t, index_t

cdef enum:
    MINHASH_PRIME = 2147483647        # p = 2**31 - 1; also the value of every slot of an empty set
    MINHASH_SEED = 0x5EED             # splitmix64 seed of the permutation parameters

# FNV-1a-64 of n bytes (offset 0xCBF29CE484222325, prime 0x100000001B3). SPEC's term hash `t`
# is this over the UTF-8 bytes of the term. data may be NULL only when n == 0. n >= 0.
cdef hash_t minhash_fnv1a64(const unsigned char* data, Py_ssize_t n) noexcept nogil

# The splitmix64 finaliser (z ^= z>>30; z *= 0xBF58476D1CE4E5B9; z ^= z>>27;
# z *= 0x94D049BB133111EB; z ^= z>>31), all mod 2**64.
cdef hash_t minhash_mix64(hash_t z) noexcept nogil

# The 64-bit shingle hash `s` of n consecutive term hashes: s = 0; s = mix64(s ^ t) per term.
# (The shingle's set element is x = s mod p.) n >= 0; term_hashes may be NULL only when n == 0.
cdef hash_t minhash_shingle_hash(const hash_t* term_hashes, Py_ssize_t n) noexcept nogil

# Writes the permutation parameters a[0..permutations), b[0..permutations): splitmix64 seeded
# 0x5EED (state += 0x9E3779B97F4A7C15; output = mix64(state)); for each i in order,
# a_i = 1 + next() mod (p-1), then b_i = next() mod p. So 1 <= a_i < p and 0 <= b_i < p.
# Preconditions: permutations >= 0; a and b each hold `permutations` slots.
cdef void minhash_parameters(Py_ssize_t permutations, slot_t* a, slot_t* b) noexcept nogil

# Number of shingles minhash_shingles writes for n_terms terms: 0 if n_terms <= 0,
# 1 if 0 < n_terms < shingle_size, else n_terms - shingle_size + 1. Returns CKN_EINVAL (-1)
# if shingle_size < 1. Use it to size `out` below.
cdef Py_ssize_t minhash_shingle_count(Py_ssize_t n_terms, Py_ssize_t shingle_size) noexcept nogil

# Writes x = s mod p of every run of `shingle_size` consecutive term hashes, in text order, to
# out (duplicates kept, not sorted; see minhash_sort_unique). Fewer terms than shingle_size ->
# one shingle of all terms; no terms -> nothing. Returns the number written
# (= minhash_shingle_count(n_terms, shingle_size)), or CKN_EINVAL (-1) if shingle_size < 1 or
# n_terms < 0 (nothing written). out must hold minhash_shingle_count(...) slots.
cdef Py_ssize_t minhash_shingles(const hash_t* term_hashes, Py_ssize_t n_terms,
                                 Py_ssize_t shingle_size, slot_t* out) noexcept nogil

# Sorts xs[0..n) ascending in place and removes duplicates; returns the number of distinct
# values, now in xs[0..k). n >= 0 (n <= 0 returns 0 and touches nothing).
cdef Py_ssize_t minhash_sort_unique(slot_t* xs, Py_ssize_t n) noexcept nogil

# MinHash signature of the set xs[0..m) (duplicates and order do not matter):
# out[i] = min over x of (a[i]*x + b[i]) mod p for i in [0, permutations); m == 0 (empty set)
# -> every slot = p. Preconditions: m >= 0, permutations >= 0; every x < 2**32 (an x >= p acts
# as x mod p, so callers should pass x < p, as minhash_shingles produces); a[i] < p, b[i] < p
# (as minhash_parameters produces); out holds `permutations` slots and does not overlap the
# inputs. Vectorised across permutations.
cdef void minhash_signature(const slot_t* xs, Py_ssize_t m, const slot_t* a, const slot_t* b,
                            Py_ssize_t permutations, slot_t* out) noexcept nogil

# Signatures of n sets given in CSR form: set k is values[offsets[k] .. offsets[k+1]).
# out is row-major n x permutations: row k = minhash_signature of set k. Preconditions as for
# minhash_signature, plus offsets holds n + 1 non-decreasing entries, offsets[0] >= 0.
cdef void minhash_signatures(const slot_t* values, const index_t* offsets, Py_ssize_t n,
                             const slot_t* a, const slot_t* b, Py_ssize_t permutations,
                             slot_t* out) noexcept nogil

# Estimated similarity: (number of slots i with s1[i] == s2[i] != p) / permutations, as a double.
# For valid signatures (a non-empty set never has a slot equal to p) this is the fraction of
# equal slots, and 0.0 when either signature is empty (all slots == p). permutations >= 1.
cdef double minhash_similarity(const slot_t* s1, const slot_t* s2,
                               Py_ssize_t permutations) noexcept nogil

# Exact Jaccard |A & B| / |A | B| of two sets given as strictly increasing arrays
# x1[0..n1), x2[0..n2) (as minhash_sort_unique leaves them); 0.0 when both are empty.
cdef double minhash_jaccard(const slot_t* x1, Py_ssize_t n1,
                            const slot_t* x2, Py_ssize_t n2) noexcept nogil

# The dedup pass (spec §7) over n signatures in rank order (row-major n x permutations, row 0 is
# the highest-ranked chunk). Chunk i is compared with every kept chunk j < i; it *qualifies*
# against j when minhash_similarity >= threshold and, if set_offsets is not NULL, also
# minhash_jaccard of their shingle sets >= threshold (`dedup_exact`). If some j qualifies, i is
# dropped as a duplicate of the qualifying j with the highest estimate (ties: the lowest j, i.e.
# the higher-ranked); otherwise i is kept. Row 0 is always kept.
# Inputs: signatures as minhash_signature writes them; set_offsets (n + 1 non-decreasing
# entries, offsets[0] >= 0) and set_values give each chunk's strictly increasing shingle set
# in CSR form, or set_offsets is NULL for estimate-only dedup.
# Outputs (caller-owned, n entries each, every entry written):
#   kept[i]          1 if kept, 0 if dropped;
#   duplicate_of[i]  the kept j that i duplicates, or -1 if i is kept;
#   similarity[i]    kept: max estimate against earlier kept chunks (0.0 for none);
#                    dropped: the estimate against duplicate_of[i];
#   exact_jaccard[i] dropped with set_offsets != NULL: the exact Jaccard against duplicate_of[i];
#                    otherwise -1.0.
# set_values may be NULL only when every set is empty.
# Returns CKN_OK, or CKN_EINVAL (outputs untouched) if n < 0, permutations < 1 or threshold is
# not in (0, 1] (NaN included).
# No workspace needed. Cost O(n * kept * permutations) plus the merges of flagged pairs.
cdef int minhash_dedup(const slot_t* signatures, Py_ssize_t n, Py_ssize_t permutations,
                       double threshold, const index_t* set_offsets, const slot_t* set_values,
                       uint8_t* kept, index_t* duplicate_of, double* similarity,
                       double* exact_jaccard) noexcept nogil
