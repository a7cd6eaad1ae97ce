/* Reading Python float objects, lists and buffers from C, for ckn's compiled validation
   and cosine (ckn/_columns.pyx). Every function reads borrowed references only: the caller
   holds the GIL and keeps the objects alive. */
#ifndef CKN_PYOBJECTS_H
#define CKN_PYOBJECTS_H

#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ckn_prefetch.h"

/* A list's item array (borrowed; valid until the list is resized). */
#define ckn_list_items(o) (((PyListObject*)(o))->ob_item)
/* *v = the exact float e's value, its finiteness folded into *special (the exponent
   field plus one carries into bit 63 only when it is all ones): 1; 0 if e is not an
   exact float. */
static inline int ckn_float_value(PyObject* e, double* v, uint64_t* special) {
    uint64_t bits;
    if (Py_TYPE(e) != &PyFloat_Type) return 0;
    *v = PyFloat_AS_DOUBLE(e);
    memcpy(&bits, v, sizeof bits);
    *special |= (bits & 0x7FF0000000000000ULL) + 0x0010000000000000ULL;
    return 1;
}
/* row[i] = the value of list's item i for i < d (a list of length d) when every item is
   an exact float and finite: 1; else 0. The float objects `ahead` items on are
   prefetched. */
static int ckn_exact_float_row(PyObject* list, double* row, Py_ssize_t d,
                               Py_ssize_t ahead) {
    PyObject** items = ckn_list_items(list);
    uint64_t special = 0;
    Py_ssize_t i;
    if (ahead > d) ahead = d;
    for (i = 0; i < d; i++) {
        ckn_prefetch(items[i + ahead < d ? i + ahead : i]);
        if (!ckn_float_value(items[i], &row[i], &special)) return 0;
    }
    return special >> 63 == 0;
}
/* The cosine's two sums of each list: for k < m (each list of length d) and j = at[k],
   sums[2j] = the sum of q[i] * value and sums[2j + 1] = the sum of value * value over
   lists[k]'s items, each left to right (as _cosine_sums computes them from a row), when
   every item is an exact float and each sum of squares is finite (so is every item): 1;
   else 0. Two lists are read side by side (a
   list's sums are chains of dependent additions, two lists' are independent), the float
   objects `ahead` items on prefetched, into the lists after them near their end, and the
   next two lists' item arrays a line per 8 items as these are read (read cold, the
   objects are memory-bound and the hardware prefetcher stops at page ends; an object's
   prefetch first loads its pointer, so the arrays must be in cache before).
   Not inlined: inlined, it spilled its registers. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int ckn_exact_float_sums(PyObject** lists, const Py_ssize_t* at, Py_ssize_t m,
                                Py_ssize_t d, Py_ssize_t ahead, const double* q,
                                double* sums) {
    Py_ssize_t k, i;
    if (ahead > d) ahead = d;
    for (k = 0; k < m; k += 2) {    /* lists k and k + 1 (k again when m is odd) */
        Py_ssize_t k2 = k + 1 < m ? k + 1 : k;
        PyObject** a = ckn_list_items(lists[k]);
        PyObject** b = ckn_list_items(lists[k2]);
        /* the next lists' items (the last lists: their own, already read) */
        PyObject** next_a = k + 2 < m ? ckn_list_items(lists[k + 2]) : a;
        PyObject** next_b = k2 + 2 < m ? ckn_list_items(lists[k2 + 2]) : b;
        PyObject *ea, *eb;
        double uv_a = 0.0, vsq_a = 0.0, uv_b = 0.0, vsq_b = 0.0, x, y;
        for (i = 0; i < d; i++) {
            if ((i & 7) == 0) {         /* one 64-byte line of pointers */
                ckn_prefetch(next_a + i);
                ckn_prefetch(next_b + i);
            }
            if (i < d - ahead) {
                ckn_prefetch(a[i + ahead]);
                ckn_prefetch(b[i + ahead]);
            } else {                    /* past the end: item i + ahead - d of the next */
                ckn_prefetch(next_a[i + ahead - d]);
                ckn_prefetch(next_b[i + ahead - d]);
            }
            ea = a[i];
            eb = b[i];
            if (Py_TYPE(ea) != &PyFloat_Type || Py_TYPE(eb) != &PyFloat_Type) return 0;
            x = PyFloat_AS_DOUBLE(ea);
            y = PyFloat_AS_DOUBLE(eb);
            vsq_a += x * x;
            uv_a += q[i] * x;
            vsq_b += y * y;
            uv_b += q[i] * y;
        }
        /* a sum of squares is finite exactly when every value is finite and nothing
           overflowed (NaN and infinity carry through it): else the rows' path decides */
        if (!isfinite(vsq_a) || !isfinite(vsq_b)) return 0;
        sums[2 * at[k]] = uv_a;
        sums[2 * at[k] + 1] = vsq_a;
        sums[2 * at[k2]] = uv_b;
        sums[2 * at[k2] + 1] = vsq_b;
    }
    return 1;
}

/* A float64 (code 'd') or float32 ('f') format string in native byte order: "d" or "@d",
   and with ``explicit_order`` also "=d" and "<d" / ">d" as the machine's order is. */
static int ckn_is_native_real_format(const char* f, char code, int explicit_order) {
    if (f == NULL) return 0;
    if (f[0] == '@' || (explicit_order && (f[0] == '=' || f[0] == (PY_LITTLE_ENDIAN ? '<' : '>')))) f++;
    return f[0] == code && f[1] == 0;
}
static void ckn_buffer_clear(Py_buffer* view) { view->obj = NULL; }
/* Release the buffer if one is held (obj set); a no-op for a cleared view. */
static void ckn_buffer_release(Py_buffer* view) { if (view->obj != NULL) PyBuffer_Release(view); }

#endif
