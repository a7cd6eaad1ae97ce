/* Software prefetch into the L2 (see ckn/_prefetch.pxd). Internal: not part of the C API. */
#ifndef CKN_PREFETCH_H
#define CKN_PREFETCH_H
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
#endif /* CKN_PREFETCH_H */
