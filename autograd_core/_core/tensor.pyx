"""The core of autograd_core: Tensor, Node, SavedTensor, AccumulateGrad, the ways ops
record themselves and write in place, and the op table through which modules call
each other's ops (Note [Op table]).

Its parts live in the included files:

- _messages.pxi  every user-facing message and the argument checks
- _node.pxi      VersionCounter, SavedTensor, Node, AccumulateGrad, recording
- _inplace.pxi   the in-place driver and writes through views (CopySlices)
- _tensor.pxi    the Tensor type

>>> import autograd_core as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> (x * x).sum().backward()
>>> x.grad
tensor([2., 4.])
"""
cimport cython
cimport numpy as cnp
from cpython.bool cimport PyBool_Check
from cpython.complex cimport PyComplex_Check
from cpython.float cimport PyFloat_AS_DOUBLE, PyFloat_AsDouble, PyFloat_Check, PyFloat_CheckExact
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_Check, PyLong_CheckExact
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_REFCNT
from cpython.sequence cimport (
    PySequence_Check, PySequence_Fast, PySequence_Fast_GET_SIZE, PySequence_Fast_ITEMS,
    PySequence_GetItem,
)
from cpython.type cimport PyType_Modified
from cpython.pythread cimport (
    NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_release_lock,
    PyThread_type_lock, WAIT_LOCK,
)
from libc.stdint cimport INT64_MAX, int64_t, uint64_t

# the thread pool and the thread-local modes, the two C files linked into this module only
from autograd_core._core.csrc cimport (
    agc_fw_active, agc_fw_enter, agc_fw_exit, agc_fw_generation, agc_fw_grad_enabled,
    agc_fw_level, agc_fw_level_on, agc_get_num_threads, agc_grad_enabled,
    agc_grad_layout_enforced, agc_inference_mode, agc_parallel_blas_called, agc_parallel_for,
    agc_recording, agc_set_fw_grad_enabled, agc_set_grad_enabled, agc_set_grad_layout_enforced,
    agc_set_inference_mode, agc_set_num_threads,
)

from autograd_core._core.dtype cimport (
    CAT_BOOL, CAT_FLOAT, CAT_INT, DTYPES_BY_RANK, DTYPES_BY_TYPENUM, NO_RANK, bool_,
    bfloat16, combine_categories, default_float, dtype, dtype_from_numpy, dtype_of, float16,
    float32, is_float_array, is_grad_array,
    float64, int8, int16, int32, int64, promote, promote_rank, scalar_rank, to_dtype, uint8,
)
from autograd_core._core.dtype cimport (
    CAT_COMPLEX, complex64, complex128, default_complex, complex_of, real_of,
    is_guarded_array, uint16, uint32, uint64, is_wide_unsigned, is_reduced_float,
)
from autograd_core._core.dtype import to_dtype_named

import builtins
import sys
import types
import warnings
import weakref

import numpy as np

from autograd_core._tensor_str import tensor_repr

cnp.import_array()

# Note [Op table]
# Ops live in family modules (autograd_core/ops/*.pyx) that depend on this core only.
# Whatever calls an op from outside its family (the Tensor operators below, the
# engine, derivative formulas, other families) calls it through OPS, a struct of C
# function pointers declared from the derivative table (_op_table.pxi, generated) and
# filled by each family module when it is imported: a C-level call, no Python
# dispatch. autograd_core/__init__.py imports every family before anything can run,
# and check_op_table() verifies that no slot was left empty.
cdef OpTable OPS


cdef agc_parallel_for_fn parallel_for_entry() noexcept:
    return agc_parallel_for


cdef void parallel_for(Py_ssize_t n, Py_ssize_t grain, agc_range_fn fn, void *ctx) noexcept nogil:
    agc_parallel_for(n, grain, fn, ctx)


cdef void blas_called(double multiply_adds) noexcept nogil:
    agc_parallel_blas_called(multiply_adds)


def _set_num_threads(int n):
    """The number of threads the C loops may use (torch.set_num_threads calls this)."""
    agc_set_num_threads(n)


def _get_num_threads():
    return agc_get_num_threads()


cdef int intra_op_threads() noexcept:
    return agc_get_num_threads()


cdef bint grad_enabled() noexcept:
    return agc_grad_enabled()


cdef void set_grad_enabled(bint mode) noexcept:
    agc_set_grad_enabled(mode)


cdef bint inference_mode_enabled() noexcept:
    return agc_inference_mode()


cdef bint recording() noexcept:
    """Whether ops record: grad mode on, inference mode off (thread-local)."""
    return agc_recording()


cdef class NoGradGuard:
    """Grad mode off for a ``with`` block; the previous mode is restored after it."""

    def __enter__(self):
        self.prev = agc_grad_enabled()
        agc_set_grad_enabled(0)

    def __exit__(self, *exc):
        agc_set_grad_enabled(self.prev)


include "_messages.pxi"
include "_node.pxi"
include "_inplace.pxi"
include "_conj.pxi"
include "_fw.pxi"
include "_dlpack.pxi"
include "_tensor.pxi"
include "_profiler.pxi"


# ---------------------------------------------------------------- grad mode

def is_grad_enabled():
    """True when operations are being recorded for autograd (thread-local).

    >>> import autograd_core as torch
    >>> torch.is_grad_enabled()
    True
    """
    return bool(agc_grad_enabled())


def _set_grad_enabled(bint mode):
    agc_set_grad_enabled(mode)


def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (thread-local).

    >>> import autograd_core as torch
    >>> torch.is_inference_mode_enabled()
    False
    """
    return bool(agc_inference_mode())


def _set_inference_mode(bint mode):
    agc_set_inference_mode(mode)


# ---------------------------------------------------------------- anomaly mode

def _set_anomaly_enabled(bint mode, bint check_nan=True):
    global anomaly_enabled, anomaly_check_nan
    anomaly_enabled = mode
    anomaly_check_nan = check_nan


def _is_anomaly_enabled():
    return anomaly_enabled


def _is_anomaly_check_nan_enabled():
    return anomaly_check_nan


# ---------------------------------------------------------------- type names

# Note [Tensor's type names]
# PyTorch's Tensor is a Python class: print(type(t)) gives <class 'torch.Tensor'>, and
# the messages Python writes itself name it by its bare name ("'Tensor' object has no
# attribute 'foo'", "'<' not supported between instances of 'Tensor' and 'str'").
# An extension type's tp_name serves both, so Tensor's is the bare 'Tensor' and its
# module and printed form come from its metaclass, _TensorMeta (PyTorch's metaclass
# has the same name): a static type's __module__ would otherwise be read off tp_name.
# A node's type prints <class 'MulBackward0'>. tp_name points at bytes kept alive here.
# The metaclass itself prints as PyTorch's does, <class 'autograd_core._C._TensorMeta'>,
# and lives in autograd_core._C: its __module__ entry is the property above, not a
# string, so type.__repr__ prints its tp_name, which _rename_type sets to the dotted
# name (its __name__ stays _TensorMeta).
cdef list _TYPE_NAME_BYTES = []

cdef extern from "Python.h":
    void Py_SET_TYPE(PyObject *ob, PyTypeObject *tp)


class _TensorMeta(type):
    """Tensor's metaclass: its module and printed form (Note [Tensor's type names])."""

    @property
    def __module__(cls):
        if cls is Tensor:
            return "autograd_core"
        return cls.__dict__.get("__module__", "builtins")

    def __repr__(cls):
        if cls is Tensor:
            return "<class 'autograd_core.Tensor'>"
        return type.__repr__(cls)


cdef void _rename_type(type t, str name):
    b = name.encode()
    _TYPE_NAME_BYTES.append(b)
    (<PyTypeObject *>t).tp_name = <const char *>b
    PyType_Modified(t)


def name_node_types(dict namespace):
    """Give every public Node class in a module's namespace its bare PyTorch name: its
    class name, or its own `torch_name` class attribute when PyTorch's name cannot be
    a module-level name (PyTorch's node `NotImplemented` would shadow the builtin)."""
    for obj in list(namespace.values()):
        if isinstance(obj, type) and issubclass(obj, Node) and not obj.__name__.startswith("_"):
            _rename_type(obj, obj.__dict__.get("torch_name", obj.__name__))


_rename_type(Tensor, "Tensor")
_rename_type(_TensorMeta, "autograd_core._C._TensorMeta")
Py_INCREF(_TensorMeta)
Py_SET_TYPE(<PyObject *>Tensor, <PyTypeObject *>_TensorMeta)
PyType_Modified(Tensor)
_rename_type(dtype, "autograd_core.dtype")
_rename_type(FwPrimalIdentity, "CppFunction")   # (a C++ node of PyTorch: _fw.pxi)
name_node_types(globals())


def check_op_table():
    """Raise if an op of the derivative table has no implementation registered."""
    missing = [name for name, addr in op_table_addresses().items() if addr == 0]
    if missing:
        raise ImportError("ops without an implementation: " + ", ".join(sorted(missing)))


include "_op_table_check.pxi"
