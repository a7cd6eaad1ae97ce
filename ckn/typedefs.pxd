# Shared C types and status codes of ckn's C API (a .pxd-only module: nothing to compile).
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t

ctypedef int64_t weight_t   # token count of one item
ctypedef int64_t value_t    # integer knapsack value of one item
ctypedef uint64_t hash_t    # 64-bit term / shingle hash
ctypedef uint32_t slot_t    # one MinHash signature slot, in [0, 2**31 - 1]
ctypedef Py_ssize_t index_t # item / chunk index

# Status codes returned by fallible C functions: 0 = success, negative = error.
cdef enum:
    CKN_OK = 0
    CKN_EINVAL = -1      # an argument breaks a documented precondition
    CKN_ENOMEM = -2      # the caller-supplied workspace is too small
    CKN_EOVERFLOW = -3   # a sum would overflow int64
