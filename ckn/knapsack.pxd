# Public C API of ckn.knapsack: exact 0/1 knapsack within a memory cap (spec §8).
# Every function is `noexcept nogil`: it never raises, never allocates, never touches Python
# objects, so it can be called inside `with nogil:` from other extensions. See docs/c-api.md.
from libc.stdint cimport uint8_t

from ckn.typedefs cimport index_t, value_t, weight_t


# Bytes of workspace knapsack_solve() needs for these weights and budget: the O(n) index list
# and scratch (reduction, branch and bound), then a DP area of the keep-bitset table's size
# (1 bit per fitting item x capacity cell, two rows) or max_memory, whichever is smaller. Never
# more than max_memory + O(n). Returns 0 when the arguments are invalid (n < 0, budget < 0, a
# negative weight).
cdef size_t knapsack_workspace_size(const weight_t* weights, index_t n, weight_t budget,
                                    size_t max_memory) noexcept nogil

# Choose the subset of items 0..n-1 maximising the sum of values subject to the sum of
# weights <= budget. Ties: fewest total weight; then the lexicographically greatest indicator
# vector (take lower-indexed items first). Items heavier than budget are never taken. Exact for
# every int64 input (no intermediate sum overflows).
# weights, values: n int64 each, >= 0, sum of values <= INT64_MAX (read only; may be NULL if
# n == 0). workspace: caller-owned, 8-byte aligned, workspace_size bytes (contents ignored and
# overwritten); the solver uses the DP that fits in it (keep-bitset table, DP over values,
# divide and conquer) and otherwise branch and bound in the O(n) scratch. selected:
# caller-owned, n bytes, set to 1 for chosen items and 0 otherwise. total_value, total_weight:
# set to the sums over the chosen items.
# Returns CKN_OK, CKN_EINVAL (n < 0, budget < 0, negative weight or value),
# CKN_EOVERFLOW (sum of values > INT64_MAX) or CKN_ENOMEM (no DP fits in the workspace and
# branch and bound did not finish within its node allowance, or the workspace lacks the O(n)
# scratch; a larger workspace helps). Thread-safe for distinct output/workspace buffers.
cdef int knapsack_solve(const weight_t* weights, const value_t* values, index_t n,
                        weight_t budget, void* workspace, size_t workspace_size,
                        uint8_t* selected, value_t* total_value,
                        weight_t* total_weight) noexcept nogil
