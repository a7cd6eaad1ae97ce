/* Filling a slotted class's instances slot by slot from C (ckn/_pipeline.pyx build_chunks):
   object.__new__ and the member descriptors' offsets, without the frozen class's __setattr__. */
#ifndef CKN_CHUNK_SLOTS_H
#define CKN_CHUNK_SLOTS_H

#include <Python.h>
#include <structmember.h>
/* object.__new__(cls) for a class that does not override __new__ */
static PyObject* ckn_object_new(PyObject* cls, PyObject* args) {
    return PyBaseObject_Type.tp_new((PyTypeObject*)cls, args, NULL);
}
/* The byte offset of a writable object slot of cls's instances (a __slots__ member
   descriptor of cls or a base class), else -1. */
static Py_ssize_t ckn_slot_offset(PyObject* cls, PyObject* descr) {
    PyMemberDef* m;
    if (Py_TYPE(descr) != &PyMemberDescr_Type) return -1;
    if (!PyType_IsSubtype((PyTypeObject*)cls, PyDescr_TYPE(descr))) return -1;
    m = ((PyMemberDescrObject*)descr)->d_member;
    if (m->type != T_OBJECT_EX || (m->flags & READONLY)) return -1;
    return m->offset;
}
/* Store a new reference to v in the slot at offset (what the member descriptor's
   __set__ does, without the frozen class's __setattr__). */
static void ckn_set_slot(PyObject* obj, Py_ssize_t offset, PyObject* v) {
    PyObject** p = (PyObject**)((char*)obj + offset);
    Py_INCREF(v);
    Py_XSETREF(*p, v);
}

#endif
