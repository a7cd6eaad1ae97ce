# Internal C interface of ckn._directive for ckn._linescan (private: no compatibility promise,
# unlike the public .pxd files of docs/c-api.md): the directive model's weight sum over plain-ASCII
# views, without the GIL.
from libc.stdint cimport int32_t, uint8_t, uint64_t

ctypedef struct DirectiveTables:
    uint64_t* word_hash      # word slots: hash, word number (-1: empty)
    int32_t* word_slot_id
    Py_ssize_t word_mask
    uint8_t* word_bytes      # word k is word_bytes[word_start[k]:word_start[k + 1]]
    Py_ssize_t* word_start
    int32_t* word_rank       # rank of "w:<word k>", -1: not a feature
    uint64_t* pair_key       # pair slots: (a << 32) | b, _EMPTY when empty
    int32_t* pair_rank
    Py_ssize_t pair_mask
    double* weight_of_rank   # weight of the feature of each rank
    double bias              # the model's bias and threshold (AsciiScorer's arguments)
    double threshold

# int32 slots of the ranks scratch of directive_weight_sum for views of total bytes in all.
cdef Py_ssize_t directive_ranks_room(Py_ssize_t total) noexcept nogil

# The weights of the distinct known features of the n_views ASCII views (views[v], sizes[v]
# bytes), added in sorted feature order from 0.0, into out; 0, or -1 (out untouched) when a view
# holds what directive_score._tokens may rewrite as an address. ranks: directive_ranks_room of
# the views' total length. O(total length + k log k) for k features found.
cdef int directive_weight_sum(const DirectiveTables* t, const uint8_t* const* views,
                              const Py_ssize_t* sizes, Py_ssize_t n_views, int32_t* ranks,
                              double* out) noexcept nogil

cdef class AsciiScorer:
    cdef DirectiveTables t
    cdef object _wide_weight_sum(self, views)
