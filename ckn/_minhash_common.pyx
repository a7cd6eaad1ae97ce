"""What :mod:`ckn.minhash` and :mod:`ckn._dedup` share: the SIMD level chosen at import and the
coercion and validation of their arguments (buffers of slots, hashes and indices; signatures;
thresholds). Internal: declared in ``ckn/_minhash_common.pxd``, not part of the C API.
"""

from cpython cimport array
from libc.string cimport memcpy

import array as _pyarray
from numbers import Real as _Real
from operator import index as _index
import os as _os

from ckn.errors import CknTypeError, CknValueError
from ckn.minhash cimport MINHASH_PRIME
from ckn._minhash_ops cimport _sort_unique
from ckn.typedefs cimport hash_t, index_t, slot_t


cdef extern from "minhash_cpu.h":
    int ckn_mh_have_avx2() noexcept nogil
    int ckn_mh_have_avx512() noexcept nogil
    int ckn_mh_have_avx512bw() noexcept nogil
    int ckn_mh_is_amd() noexcept nogil


def _typecode(size_t itemsize, str candidates):
    for code in candidates:
        if _pyarray.array(code).itemsize == itemsize:
            return code
    raise ImportError(f"no array typecode among {candidates!r} has itemsize {itemsize}")


# Set once at import (CKN_NO_SIMD=1 in the environment forces the portable path and
# CKN_NO_AVX512=1 the AVX2 one, for tests; CKN_MH_KERNEL=fixed or fold picks the AVX-512
# signature kernel, else the CPU's vendor does).
_USE_AVX2 = ckn_mh_have_avx2() != 0 and _os.environ.get("CKN_NO_SIMD") != "1"
_USE_AVX512 = (_USE_AVX2 and ckn_mh_have_avx512() != 0
               and _os.environ.get("CKN_NO_AVX512") != "1")
_USE_AVX512BW = _USE_AVX512 and ckn_mh_have_avx512bw() != 0
_USE_FIXED = _USE_AVX512 and {"fixed": True, "fold": False}.get(
    _os.environ.get("CKN_MH_KERNEL"), ckn_mh_is_amd() != 0)

_SLOT_CODE = _typecode(sizeof(slot_t), "ILH")
_HASH_CODE = _typecode(sizeof(hash_t), "QL")
_INDEX_CODE = _typecode(sizeof(index_t), "qli")
cdef bytes _SLOT_FORMAT_BYTES = _SLOT_CODE.encode("ascii")
cdef char* _SLOT_FORMAT = _SLOT_FORMAT_BYTES
cdef array.array _SLOT_TEMPLATE = _pyarray.array(_SLOT_CODE)
cdef char _SLOT_TC = ord(_SLOT_CODE)
cdef array.array _HASH_TEMPLATE = _pyarray.array(_HASH_CODE)
cdef array.array _INDEX_TEMPLATE = _pyarray.array(_INDEX_CODE)
cdef array.array _BYTE_TEMPLATE = _pyarray.array("B")
cdef array.array _DOUBLE_TEMPLATE = _pyarray.array("d")


cdef const slot_t[::1] _slots(object obj, str name):
    """``obj`` as a contiguous uint32 view: any matching buffer as is, else converted."""
    cdef const slot_t[::1] view
    if obj is None or isinstance(obj, (str, bytes)):
        raise CknTypeError(f"{name}: expected a sequence of unsigned 32-bit integers, "
                           f"got {type(obj).__name__}")
    try:
        view = obj
        return view
    except (TypeError, ValueError, BufferError):
        pass
    try:
        return _pyarray.array(_SLOT_CODE, obj)
    except TypeError as exc:
        raise CknTypeError(f"{name}: expected a sequence of unsigned 32-bit integers, "
                           f"got {type(obj).__name__} ({exc})") from None
    except OverflowError:
        raise CknValueError(f"{name}: every value must be in [0, 2**32)") from None


cdef const hash_t[::1] _hashes(object obj, str name):
    """``obj`` as a contiguous uint64 view: any matching buffer as is, else converted."""
    cdef const hash_t[::1] view
    if obj is None or isinstance(obj, (str, bytes)):
        raise CknTypeError(f"{name}: expected a sequence of unsigned 64-bit integers, "
                           f"got {type(obj).__name__}")
    try:
        view = obj
        return view
    except (TypeError, ValueError, BufferError):
        pass
    try:
        return _pyarray.array(_HASH_CODE, obj)
    except TypeError as exc:
        raise CknTypeError(f"{name}: expected a sequence of unsigned 64-bit integers, "
                           f"got {type(obj).__name__} ({exc})") from None
    except OverflowError:
        raise CknValueError(f"{name}: every value must be in [0, 2**64)") from None


cdef array.array _offsets_array(object offsets):
    """CSR ``offsets`` as an index array (values are checked by ``_check_offsets``)."""
    if offsets is None or isinstance(offsets, (str, bytes)):
        raise CknTypeError(f"offsets: expected a sequence of integers, "
                           f"got {type(offsets).__name__}")
    try:
        return _pyarray.array(_INDEX_CODE, offsets)
    except (TypeError, OverflowError) as exc:
        raise CknTypeError(f"offsets: expected a sequence of integers ({exc})") from None


cdef array.array _rows_array(object rows, Py_ssize_t n):
    """``rows`` as an index array of sequence indices, each in [0, n)."""
    cdef array.array out
    cdef index_t* rp
    cdef Py_ssize_t k
    if isinstance(rows, (str, bytes)):
        raise CknTypeError(f"rows: expected a sequence of integers, got {type(rows).__name__}")
    try:
        out = _pyarray.array(_INDEX_CODE, rows)
    except (TypeError, OverflowError) as exc:
        raise CknTypeError(f"rows: expected a sequence of integers ({exc})") from None
    rp = <index_t*>out.data.as_voidptr
    for k in range(len(out)):
        if not 0 <= rp[k] < n:
            raise CknValueError(f"rows[{k}]: must be in [0, {n}) (a sequence index), got {rp[k]}")
    return out


cdef const slot_t[::1] _shingle_set(object obj, str name):
    """A shingle-hash set: uint32 values, each < p."""
    cdef const slot_t[::1] xs = _slots(obj, name)
    cdef Py_ssize_t bad = -1
    cdef Py_ssize_t m = xs.shape[0]
    if m > 0:
        with nogil:
            bad = _first_at_least_p(&xs[0], m)
    if bad >= 0:
        raise CknValueError(f"{name}[{bad}]: shingle hashes must be < 2**31 - 1, "
                            f"got {xs[bad]}")
    return xs


cdef Py_ssize_t _positive_int(object value, str name) except -1:
    if isinstance(value, bool):
        raise CknTypeError(f"{name}: expected an integer, got bool")
    try:
        value = _index(value)
    except TypeError:
        raise CknTypeError(f"{name}: expected an integer, got {type(value).__name__}") from None
    if value < 1:
        raise CknValueError(f"{name}: must be >= 1, got {value}")
    if value > (1 << 40):
        raise CknValueError(f"{name}: must be <= 2**40, got {value}")
    return value


cdef double _threshold(object value) except -1.0:
    if isinstance(value, bool) or not isinstance(value, _Real):
        raise CknTypeError(f"threshold: expected a number, got {type(value).__name__}")
    cdef double t = value
    if not (t > 0.0 and t <= 1.0):
        raise CknValueError(f"threshold: must be in (0, 1], got {value!r}")
    return t


cdef int _check_offsets(array.array off, Py_ssize_t m) except -1:
    """CSR offsets: n + 1 >= 1 entries, non-decreasing, from 0 to m."""
    cdef Py_ssize_t n = len(off) - 1, k
    cdef index_t* op = <index_t*>off.data.as_voidptr
    if n < 0:
        raise CknValueError("offsets: expected n + 1 >= 1 entries, got none")
    if op[0] != 0 or op[n] != m:
        raise CknValueError(f"offsets: must start at 0 and end at len(values) = {m}, "
                            f"got {op[0]} and {op[n]}")
    for k in range(n):
        if op[k + 1] < op[k]:
            raise CknValueError(f"offsets[{k + 1}]: must be >= offsets[{k}], "
                                f"got {op[k + 1]} < {op[k]}")
    return 0


cdef Py_ssize_t _first_row_from(const index_t* off, Py_ssize_t n, index_t target) noexcept:
    """The first row k in [0, n] with off[k] >= target (off non-decreasing; binary search)."""
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if off[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef array.array _sorted_unique(const slot_t[::1] xs):
    """The distinct values of ``xs``, ascending, in a new array."""
    cdef Py_ssize_t m = xs.shape[0]
    cdef array.array out = array.clone(_SLOT_TEMPLATE, m, False)
    cdef slot_t* p = _sp(out)
    if m > 0:
        with nogil:
            memcpy(p, &xs[0], m * sizeof(slot_t))
            m = _sort_unique(p, m)
    array.resize(out, m)
    return out


cdef Py_ssize_t _first_at_least_p(const slot_t* xs, Py_ssize_t n) noexcept nogil:
    # The first i with xs[i] >= p, else -1. x >= p = 2**31 - 1 exactly when x or x + 1 (mod
    # 2**32) has bit 31 set, so blocks of 1024 are screened by an OR (a loop without an exit,
    # which GCC vectorises) and only a block that fails is searched.
    cdef Py_ssize_t i0 = 0, i, end
    cdef slot_t seen
    while i0 < n:
        end = min(i0 + 1024, n)
        seen = 0
        for i in range(i0, end):
            seen |= xs[i] | (xs[i] + 1)
        if seen >> 31:
            for i in range(i0, end):
                if xs[i] >= MINHASH_PRIME:
                    return i
        i0 = end
    return -1


cdef Py_ssize_t _first_invalid_row(const slot_t* sig, Py_ssize_t n, Py_ssize_t perms) noexcept nogil:
    """The first of n rows of perms slots that no set gives (a slot above p, or p = every slot of
    an empty set beside other values), else -1. O(n · perms), one read."""
    cdef Py_ssize_t k, i, empty
    cdef slot_t x
    for k in range(n):
        empty = 0
        for i in range(perms):
            x = sig[k * perms + i]
            if x > MINHASH_PRIME:
                return k
            empty += x == MINHASH_PRIME
        if 0 < empty < perms:
            return k
    return -1


cdef int _check_signatures(const slot_t* sig, Py_ssize_t n, Py_ssize_t perms, str name) except -1:
    """CknValueError naming the first row k (``name.format(k)``) that no set gives."""
    cdef Py_ssize_t k = _first_invalid_row(sig, n, perms), i
    if k < 0:
        return 0
    for i in range(perms):
        if sig[k * perms + i] > MINHASH_PRIME:
            raise CknValueError(f"{name.format(k)}[{i}]: slots must be <= 2**31 - 1, got "
                                f"{sig[k * perms + i]}; not a ckn signature")
    raise CknValueError(f"{name.format(k)}: mixes 2**31 - 1 (the value of every slot of an empty "
                        f"set) with other slots; not a ckn signature")


cdef bint _strictly_increasing(const slot_t* xs, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(1, n):
        if xs[i] <= xs[i - 1]:
            return False
    return True
