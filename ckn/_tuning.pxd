# Tuning constants of ckn's kernels: internal, not part of the C API (a .pxd-only module).

# Elementary steps (comparisons, multiply-adds, bytes; ~50 us) below which a kernel keeps the GIL:
# under contention, releasing it and taking it back can cost a whole switch interval (5 ms)
# of waiting for the other thread, far more than such short work.
cdef enum:
    NOGIL_MIN_WORK = 1 << 16
