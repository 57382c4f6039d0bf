# cython: language_level=3
"""The compiled core of autograd_core: dtypes, Tensor, Node, the engine and the ops.

One extension module so that ops, nodes and the engine call each other at C level;
its parts live in the included .pxi files:

- _tensor.pxi  the Tensor type (attributes, methods, operator slots)
- _node.pxi    Node, AccumulateGrad, saved-tensor checks
- _engine.pxi  the backward engine
- _ops.pxi     every op with its backward node, side by side
"""
cimport cython
cimport numpy as cnp
from cpython.object cimport PyObject
from cpython.ref cimport Py_REFCNT
from libc.stdint cimport int32_t, uint64_t
from autograd_core._csrc cimport *

import builtins as _builtins  # this module defines max, min, sum, abs, pow, all, any
import threading
import warnings
import weakref

import numpy as np

from autograd_core._tensor_str import tensor_repr as _tensor_repr

cnp.import_array()


# ---------------------------------------------------------------- dtypes

cdef class dtype:
    """A tensor element type, as ``torch.dtype``: ``autograd_core.float32`` etc.

    >>> import autograd_core as torch
    >>> torch.tensor([1.5]).dtype
    autograd_core.float32
    """

    def __repr__(self):
        return "autograd_core." + self.name

    def __reduce__(self):
        return (_dtype_by_name, (self.name,))

    @property
    def is_complex(self):
        return False

    def to_complex(self):
        raise TypeError("complex dtypes are not supported by autograd_core")


# The promotion lattice: PyTorch's promote_types is the max rank, except that
# uint8 with int8 gives int16 (see _promote).
_DTYPE_SPECS = (
    # name, numpy name, rank, category, signed
    ("bool", "bool", 0, 0, False),
    ("uint8", "uint8", 1, 1, False),
    ("int8", "int8", 2, 1, True),
    ("int16", "int16", 3, 1, True),
    ("int32", "int32", 4, 1, True),
    ("int64", "int64", 5, 1, True),
    ("float16", "float16", 6, 2, True),
    ("float32", "float32", 7, 2, True),
    ("float64", "float64", 8, 2, True),
)

cdef list _DTYPES = []          # by rank
cdef dict _DTYPE_BY_NAME = {}
cdef list _BY_TYPENUM = [None] * 64

for _name, _npname, _rank, _cat, _signed in _DTYPE_SPECS:
    _d = dtype.__new__(dtype)
    (<dtype>_d).name = _name
    (<dtype>_d).np_dtype = np.dtype(_npname)
    (<dtype>_d).is_floating_point = _cat == 2
    (<dtype>_d).is_signed = _signed
    (<dtype>_d).itemsize = np.dtype(_npname).itemsize
    (<dtype>_d).rank = _rank
    (<dtype>_d).category = _cat
    _DTYPES.append(_d)
    _DTYPE_BY_NAME[_name] = _d
    _BY_TYPENUM[np.dtype(_npname).num] = _d
# numpy has two 64-bit integer type numbers on LP64 platforms.
_BY_TYPENUM[np.dtype(np.longlong).num] = _DTYPE_BY_NAME["int64"]
_BY_TYPENUM[np.dtype(np.intc).num] = _DTYPE_BY_NAME["int32"]

cdef dtype bool_ = _DTYPE_BY_NAME["bool"]
cdef dtype int64 = _DTYPE_BY_NAME["int64"]
cdef dtype float32 = _DTYPE_BY_NAME["float32"]
cdef dtype float64 = _DTYPE_BY_NAME["float64"]
cdef dtype _default_float = float32


def _dtype_by_name(name):
    return _DTYPE_BY_NAME[name]


def dtypes():
    """All supported dtypes, by name."""
    return dict(_DTYPE_BY_NAME)


cdef inline dtype _dtype_of(cnp.ndarray arr):
    return <dtype>_BY_TYPENUM[cnp.PyArray_TYPE(arr)]


cdef dtype _to_dtype(object d):
    """Normalise a user's dtype argument (ours, a numpy dtype, or a Python type)."""
    if isinstance(d, dtype):
        return <dtype>d
    if d is float:
        return _default_float
    if d is int:
        return int64
    if d is bool:
        return bool_
    try:
        nd = np.dtype(d)
    except TypeError:
        raise TypeError(f"expected a dtype, but got {type(d).__name__}") from None
    r = _BY_TYPENUM[nd.num] if nd.num < 64 else None
    if r is None:
        raise TypeError(f"dtype {nd} is not supported by autograd_core")
    return <dtype>r


def get_default_dtype():
    """The dtype of floating-point data created without one (float32 at start)."""
    return _default_float


def set_default_dtype(d):
    """Set the default floating-point dtype (float32 or float64, as PyTorch allows)."""
    global _default_float
    cdef dtype dd = _to_dtype(d)
    if not dd.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = dd


cdef inline int _promote_rank(int a, int b):
    if a < 0:
        return b
    if b < 0:
        return a
    if (a == 1 and b == 2) or (a == 2 and b == 1):
        return 3  # uint8 with int8 needs int16
    return a if a > b else b


cdef inline int _category_of_rank(int r):
    return 0 if r == 0 else (2 if r >= 6 else 1)


cdef int _combine_categories(int higher, int lower):
    # PyTorch's combine_categories: a higher operand group decides the result unless
    # a lower group brings a higher category (an int tensor times a float scalar).
    if higher >= 0 and _category_of_rank(higher) == 2:
        return higher
    if higher == 0 or (lower >= 0 and _category_of_rank(lower) == 2):
        return _promote_rank(higher, lower)
    if higher >= 0:
        return higher
    return lower


cdef int _scalar_rank(object x):
    if isinstance(x, bool):
        return 0
    if isinstance(x, int):
        return 5
    return _default_float.rank


cdef dtype _result_type2(object a, object b):
    """PyTorch's result_type for two operands (Tensors or Python numbers)."""
    cdef int dim_r = -1, zero_r = -1, wrapped_r = -1, r
    for x in (a, b):
        if isinstance(x, Tensor):
            r = _dtype_of((<Tensor>x)._data).rank
            if cnp.PyArray_NDIM((<Tensor>x)._data) == 0:
                zero_r = _promote_rank(zero_r, r)
            else:
                dim_r = _promote_rank(dim_r, r)
        else:
            wrapped_r = _promote_rank(wrapped_r, _scalar_rank(x))
    return <dtype>_DTYPES[_combine_categories(dim_r, _combine_categories(zero_r, wrapped_r))]


def result_type(a, b):
    """The dtype PyTorch's type promotion gives for ``a op b``.

    >>> import autograd_core as torch
    >>> torch.result_type(torch.tensor([1, 2]), 2.5)
    autograd_core.float32
    """
    return _result_type2(a, b)


def promote_types(a, b):
    """The smallest dtype both ``a`` and ``b`` convert to without losing category."""
    return _DTYPES[_promote_rank(_to_dtype(a).rank, _to_dtype(b).rank)]


# ---------------------------------------------------------------- Size

class Size(tuple):
    """A tensor's shape: a tuple of ints that prints as ``autograd_core.Size([2, 3])``.

    >>> import autograd_core as torch
    >>> torch.zeros(2, 3).shape
    autograd_core.Size([2, 3])
    """

    def __repr__(self):
        return "autograd_core.Size([" + ", ".join(str(s) for s in self) + "])"

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))


def _shape_str(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


# ---------------------------------------------------------------- grad mode

def is_grad_enabled():
    """True when operations are being recorded for autograd (thread-local)."""
    return bool(agc_grad_enabled())


def _set_grad_enabled(bint mode):
    agc_set_grad_enabled(mode)


def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (thread-local)."""
    return bool(agc_inference_mode())


def _set_inference_mode(bint mode):
    agc_set_inference_mode(mode)


cdef uint64_t _next_sequence_nr = 0

cdef inline uint64_t _new_sequence_nr():
    global _next_sequence_nr
    _next_sequence_nr += 1
    return _next_sequence_nr


# Note [Untracked by the cycle collector]
# A graph is built from Tensors and Nodes whose references point from outputs toward
# leaves only, so they cannot form reference cycles and die by refcount. Keeping them
# out of the cyclic GC's lists halves the cost of a recorded op (every op allocates
# both). An object is tracked again (_gc_track) as soon as it holds something a user
# gave it — hooks, metadata — since that is where cycles can appear. The exception, as
# in PyTorch, is backward(create_graph=True) into a leaf's .grad, which links the
# leaf to its own graph: PyTorch warns that it leaks, and so do we.
cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *op)
    void PyObject_GC_Track(void *op)
    int PyObject_GC_IsTracked(object op)


cdef inline void _gc_untrack(object o):
    PyObject_GC_UnTrack(<void *>o)


cdef inline void _gc_track(object o):
    if not PyObject_GC_IsTracked(o):
        PyObject_GC_Track(<void *>o)


# Anomaly mode (autograd.detect_anomaly): nodes record their forward stack and the
# engine checks every derivative's outputs for NaN.
cdef bint _anomaly_enabled = False
cdef bint _anomaly_check_nan = True


include "_errors.pxi"
include "_node.pxi"
include "_tensor.pxi"
include "_engine.pxi"
include "_ops.pxi"
include "_ops_reduce.pxi"
include "_ops_shape.pxi"
include "_function.pxi"


def _to_dtype_py(d):
    return _to_dtype(d)
include "_ops_elementwise.pxi"
include "_ops_shape_index.pxi"
include "_ops_reduce_linalg.pxi"
include "_ops_nn.pxi"


# Type names as PyTorch shows them: print(type(x)) gives <class 'autograd_core.Tensor'>
# (PyTorch: torch.Tensor) and a node's type <class 'MulBackward0'>. Extension types take
# their printed name from tp_name, which we point at names kept alive here.
from cpython.object cimport PyTypeObject
from cpython.type cimport PyType_Modified

cdef list _TYPE_NAME_BYTES = []


cdef void _rename_type(type t, str name):
    b = name.encode()
    _TYPE_NAME_BYTES.append(b)
    (<PyTypeObject *>t).tp_name = <const char *>b
    PyType_Modified(t)


_rename_type(Tensor, "autograd_core.Tensor")
_rename_type(dtype, "autograd_core.dtype")
for _obj in list(globals().values()):
    if isinstance(_obj, type) and issubclass(_obj, Node) and not _obj.__name__.startswith("_"):
        if _obj.__flags__ & (1 << 9):  # Py_TPFLAGS_HEAPTYPE: a Python-level subclass
            _obj.__module__ = "builtins"
        else:
            _rename_type(_obj, _obj.__name__)
Size.__module__ = "autograd_core"
Device.__name__ = Device.__qualname__ = "device"
Device.__module__ = "autograd_core"
