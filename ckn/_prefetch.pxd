# Software prefetch into the L2 for ckn's passes over memory that Python objects own (the float
# objects of an embedding list, the code points of a text): internal to ckn, not part of the C
# API. The hint is the L2's (x86: prefetcht1), not the L1's: a prefetch into the L1 holds one of
# its few miss buffers until the line arrives, so fewer lines are in flight (a list pool read
# cold validated in ~0.75 ms instead of ~0.95 ms on a Zen 4 host). A prefetch never faults: any
# address may be given.
cdef extern from "ckn_prefetch.h":
    void ckn_prefetch(const void* p) noexcept nogil
    void ckn_prefetch_start(const void* p, Py_ssize_t bytes) noexcept nogil
