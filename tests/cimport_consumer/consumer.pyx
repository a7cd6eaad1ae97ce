# A downstream extension as a consumer would write it: cimport ckn's C API and call the kernels
# without the GIL. tests/test_cimport.py compiles this file against the installed ckn.
from libc.stdint cimport int64_t, uint8_t
from libc.stdlib cimport free, malloc

from ckn.knapsack cimport knapsack_solve, knapsack_workspace_size
from ckn.typedefs cimport CKN_ENOMEM, CKN_OK


def knapsack(weights, values, int64_t budget, size_t max_memory):
    """(status, chosen indices, total value, total weight), solved inside ``with nogil``."""
    cdef Py_ssize_t n = len(weights), i
    cdef int64_t* w = <int64_t*>malloc(max(n, 1) * sizeof(int64_t))
    cdef int64_t* v = <int64_t*>malloc(max(n, 1) * sizeof(int64_t))
    cdef uint8_t* chosen = <uint8_t*>malloc(max(n, 1))
    cdef void* workspace = NULL
    cdef size_t size
    cdef int status
    cdef int64_t total_value = -1, total_weight = -1
    for i in range(n):
        w[i] = weights[i]
        v[i] = values[i]
    with nogil:
        size = knapsack_workspace_size(w, n, budget, max_memory)
        workspace = malloc(size)
        status = knapsack_solve(w, v, n, budget, workspace, size, chosen, &total_value,
                                &total_weight)
        free(workspace)
    result = (status, [i for i in range(n) if chosen[i]], total_value, total_weight)
    free(w)
    free(v)
    free(chosen)
    return result


def knapsack_small_workspace(weights, values, int64_t budget):
    """Status of a solve given one byte of workspace (must be CKN_ENOMEM)."""
    cdef Py_ssize_t n = len(weights), i
    cdef int64_t w[16]
    cdef int64_t v[16]
    cdef uint8_t chosen[16]
    cdef char workspace[8]
    cdef int64_t total_value, total_weight
    cdef int status
    for i in range(n):
        w[i] = weights[i]
        v[i] = values[i]
    with nogil:
        status = knapsack_solve(w, v, n, budget, workspace, 1, chosen, &total_value,
                                &total_weight)
    return status


OK = CKN_OK
ENOMEM = CKN_ENOMEM
