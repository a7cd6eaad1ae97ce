# Public C API of ckn.knapsack: exact 0/1 knapsack by dynamic programming (SPEC §8).
# Every function is `noexcept nogil`: it never raises, never allocates, never touches Python
# objects, so it can be called inside `with nogil:` from other extensions. See docs/c-api.md.
from libc.stdint cimport uint8_t

from ckn.typedefs cimport index_t, value_t, weight_t


# Bytes of workspace knapsack_solve() needs for these weights and budget: the O(n) index list
# and bound-reduction scratch, then the DP area. The keep-bitset table (1 bit per item x
# capacity cell) is used when it fits in max_memory; otherwise the DP area is the
# O(capacity) divide-and-conquer workspace plus whatever of max_memory is left for bitset
# base cases. Returns 0 when the arguments are invalid (n < 0,
# budget < 0, a negative weight) and SIZE_MAX when the size does not fit in size_t.
cdef size_t knapsack_workspace_size(const weight_t* weights, index_t n, weight_t budget,
                                    size_t max_memory) noexcept nogil

# Choose the subset of items 0..n-1 maximising the sum of values subject to the sum of
# weights <= budget. Ties: fewest total weight; then the lexicographically greatest indicator
# vector (take lower-indexed items first). Items heavier than budget are never taken.
# weights, values: n int64 each, >= 0, sum of values <= INT64_MAX (read only; may be NULL if
# n == 0). workspace: caller-owned, 8-byte aligned, workspace_size bytes (contents ignored and
# overwritten). selected: caller-owned, n bytes, set to 1 for chosen items and 0 otherwise.
# total_value, total_weight: set to the sums over the chosen items.
# Returns CKN_OK, CKN_EINVAL (n < 0, budget < 0, negative weight or value),
# CKN_EOVERFLOW (sum of values > INT64_MAX) or CKN_ENOMEM (workspace_size too small for the
# DP; a workspace without room for the reduction scratch is accepted and the reduction skipped).
# Thread-safe for distinct output/workspace buffers.
cdef int knapsack_solve(const weight_t* weights, const value_t* values, index_t n,
                        weight_t budget, void* workspace, size_t workspace_size,
                        uint8_t* selected, value_t* total_value,
                        weight_t* total_weight) noexcept nogil
