# numpy C API that numpy's own .pxd leaves out, declared once: what the core and the view
# family call, with the one helper that builds a strided array over another array's
# memory; and the memory handler API the nn family's buffer cache installs
# (ops/_nn_linear.pxi, Note [Buffer cache]).
#
# PyArray_NewFromDescr is declared with its C types (PyTypeObject *, PyArray_Descr *),
# not as `object`: Cython would otherwise pass PyObject * where numpy's header expects
# those, which GCC 14 and clang reject (-Werror=incompatible-pointer-types).
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF
cimport numpy as cnp
from libc.stdint cimport uint8_t

cdef extern from "numpy/arrayobject.h":
    PyTypeObject PyArray_Type
    # steals a reference to descr (numpy's own .pxd has it commented out)
    object PyArray_NewFromDescr(PyTypeObject *subtype, cnp.dtype descr, int nd,
                                cnp.npy_intp *dims, cnp.npy_intp *strides, void *data,
                                int flags, object obj)
    object PyDataMem_SetHandler(object handler)
    ctypedef struct PyDataMemAllocator:
        void *ctx
        void *(*malloc)(void *ctx, size_t size)
        void *(*calloc)(void *ctx, size_t nelem, size_t elsize)
        void *(*realloc)(void *ctx, void *ptr, size_t size)
        void (*free)(void *ctx, void *ptr, size_t size)
    ctypedef struct PyDataMem_Handler:
        char name[127]
        uint8_t version
        PyDataMemAllocator allocator


cdef inline cnp.ndarray strided_array_over(cnp.ndarray owner, cnp.dtype descr, int nd,
                                           cnp.npy_intp *dims, cnp.npy_intp *byte_strides,
                                           void *data, bint writeable):
    """A plain ndarray of dtype descr over memory owned by `owner` (data points into it),
    with the given sizes and byte strides; owner becomes its base. Writeable only if
    asked and owner is."""
    Py_INCREF(descr)                   # the reference PyArray_NewFromDescr steals
    cdef int flags = cnp.NPY_ARRAY_WRITEABLE if writeable and cnp.PyArray_ISWRITEABLE(owner) else 0
    cdef cnp.ndarray out = PyArray_NewFromDescr(&PyArray_Type, descr, nd, dims, byte_strides,
                                                data, flags, None)
    cnp.set_array_base(out, owner)
    return out
