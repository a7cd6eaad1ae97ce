# GIL-free passes: how ckn's modules hand prepared C work to one runner, so that the pack flow
# releases the GIL once for all of its text work (scan, BM25, the sanitizer's compiled pass,
# MinHash) and a second thread's GIL-held work fits beside that stretch instead of queueing
# between short ones (docs/performance.md). Internal to ckn: not part of the C API.
#
# A pass object (a cdef class) prepares everything with the GIL held (validation, buffers),
# holds a `ckn_pass` whose `run(state)` does the work without touching Python objects and
# returns CKN_OK or a negative status (ckn/typedefs.pxd), and turns the result into Python
# objects afterwards (its `finish()`, which raises on a failed or missing run).
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_New

ctypedef int (*pass_run_t)(void* state) noexcept nogil

ctypedef struct ckn_pass:
    pass_run_t run
    void* state


cdef inline int run_pass(ckn_pass* p, bint release) noexcept:
    """p.run(p.state), with the GIL released when `release`."""
    cdef int status
    if release:
        with nogil:
            status = p.run(p.state)
    else:
        status = p.run(p.state)
    return status


cdef inline object pass_capsule(ckn_pass* p):
    """A capsule of p (named "ckn.pass") for ckn._pipeline.run_passes; valid while p's owner is."""
    return PyCapsule_New(<void*>p, b"ckn.pass", NULL)


cdef inline ckn_pass* pass_of(object capsule) except NULL:
    return <ckn_pass*>PyCapsule_GetPointer(capsule, b"ckn.pass")
