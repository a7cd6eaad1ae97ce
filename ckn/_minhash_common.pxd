# Declarations of ckn/_minhash_common.pyx: internal to ckn.minhash and ckn._dedup, not part of
# the C API.
from cpython cimport array

from ckn.typedefs cimport hash_t, index_t, slot_t

cdef bint _USE_AVX2
cdef bint _USE_AVX512
cdef bint _USE_FIXED       # the AVX-512 signatures in fixed point (else the fold kernel)
cdef bint _USE_AVX512BW    # byte fingerprints bound the pairs pass's counts (64 slots)

cdef object _SLOT_CODE
cdef char* _SLOT_FORMAT
cdef char _SLOT_TC
cdef array.array _SLOT_TEMPLATE
cdef array.array _HASH_TEMPLATE
cdef array.array _INDEX_TEMPLATE
cdef array.array _BYTE_TEMPLATE
cdef array.array _DOUBLE_TEMPLATE


cdef inline slot_t* _sp(array.array arr) noexcept:
    return <slot_t*>arr.data.as_voidptr


cdef inline hash_t* _hp(array.array arr) noexcept:
    return <hash_t*>arr.data.as_voidptr


cdef const slot_t[::1] _slots(object obj, str name)
cdef const hash_t[::1] _hashes(object obj, str name)
cdef array.array _offsets_array(object offsets)
cdef array.array _rows_array(object rows, Py_ssize_t n)
cdef const slot_t[::1] _shingle_set(object obj, str name)
cdef Py_ssize_t _positive_int(object value, str name) except -1
cdef double _threshold(object value) except -1.0
cdef int _check_offsets(array.array off, Py_ssize_t m) except -1
cdef Py_ssize_t _first_row_from(const index_t* off, Py_ssize_t n, index_t target) noexcept
cdef array.array _sorted_unique(const slot_t[::1] xs)
cdef Py_ssize_t _first_at_least_p(const slot_t* xs, Py_ssize_t n) noexcept nogil
cdef Py_ssize_t _first_invalid_row(const slot_t* sig, Py_ssize_t n, Py_ssize_t perms) noexcept nogil
cdef int _check_signatures(const slot_t* sig, Py_ssize_t n, Py_ssize_t perms, str name) except -1
cdef bint _strictly_increasing(const slot_t* xs, Py_ssize_t n) noexcept nogil
