# Software prefetch into the L2 for ckn's passes over memory that Python objects own (the float
# objects of an embedding list, the code points of a text): internal to ckn, not part of the C
# API. The hint is the L2's (x86: prefetcht1), not the L1's: a prefetch into the L1 holds one of
# its few miss buffers until the line arrives, so fewer lines are in flight (a list pool read
# cold validated in ~0.75 ms instead of ~0.95 ms on a Zen 4 host). A prefetch never faults: any
# address may be given.
cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define ckn_prefetch(p) __builtin_prefetch((p), 0, 2)
    #else
    #define ckn_prefetch(p) ((void)(p))
    #endif
    /* The first min(bytes, 4096) bytes at p, one 64-byte line at a time: the start of the text
       a pass reads next, whose first lines the hardware prefetcher would miss (it follows a
       stream only after a few misses, and only within a page). */
    static inline void ckn_prefetch_start(const void* p, Py_ssize_t bytes) {
        const char* c = (const char*)p;
        Py_ssize_t o;
        if (bytes > 4096) bytes = 4096;
        for (o = 0; o < bytes; o += 64) ckn_prefetch(c + o);
    }
    """
    void ckn_prefetch(const void* p) noexcept nogil
    void ckn_prefetch_start(const void* p, Py_ssize_t bytes) noexcept nogil
