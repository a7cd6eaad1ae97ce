# A downstream extension as a consumer would write it: cimport ckn's C API and call the kernels
# without the GIL. tests/test_cimport.py compiles this file against the installed ckn.
from libc.stdint cimport int64_t, uint8_t
from libc.stdlib cimport free, malloc

from ckn.knapsack cimport knapsack_solve, knapsack_workspace_size
from ckn.minhash cimport (minhash_fnv1a64, minhash_parameters, minhash_shingle_count,
                          minhash_shingles, minhash_signature, minhash_similarity)
from ckn.scanner cimport scanner_ascii_max_terms, scanner_ascii_terms
from ckn.typedefs cimport CKN_ENOMEM, CKN_OK, hash_t, slot_t


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


def minhash(list texts, Py_ssize_t permutations):
    """(signatures, similarity of the first two): each text is a list of terms; the hashing,
    shingling (size 3), signatures and similarity all run inside ``with nogil``."""
    cdef Py_ssize_t k, i, n_terms, count
    cdef slot_t* a = <slot_t*>malloc(permutations * sizeof(slot_t))
    cdef slot_t* b = <slot_t*>malloc(permutations * sizeof(slot_t))
    cdef slot_t* sigs = <slot_t*>malloc(2 * permutations * sizeof(slot_t))
    cdef hash_t hashes[64]
    cdef slot_t xs[64]
    cdef bytes word
    cdef double sim
    with nogil:
        minhash_parameters(permutations, a, b)
    for k in range(2):
        n_terms = len(texts[k])
        for i in range(n_terms):
            word = texts[k][i].encode("utf-8")
            hashes[i] = minhash_fnv1a64(<const unsigned char*><char*>word, len(word))
        with nogil:
            count = minhash_shingles(hashes, n_terms, 3, xs)
            minhash_signature(xs, count, a, b, permutations, sigs + k * permutations)
    with nogil:
        sim = minhash_similarity(sigs, sigs + permutations, permutations)
    result = ([[sigs[k * permutations + i] for i in range(permutations)] for k in range(2)], sim)
    free(a)
    free(b)
    free(sigs)
    return result


def ascii_term_hashes(bytes text):
    """spec §4 term hashes of a pure-ASCII text, scanned inside ``with nogil``."""
    cdef Py_ssize_t n = len(text), count
    cdef const unsigned char* data = <const unsigned char*><char*>text
    cdef hash_t* out = <hash_t*>malloc(max(scanner_ascii_max_terms(n), 1) * sizeof(hash_t))
    with nogil:
        count = scanner_ascii_terms(data, n, out)
    result = [out[i] for i in range(count)]
    free(out)
    return result


OK = CKN_OK
ENOMEM = CKN_ENOMEM
