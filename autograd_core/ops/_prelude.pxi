# What every op family module starts with: the core's vocabulary (tensor.pxd:
# making tensors, argument checks, saving, recording, the in-place driver, OPS).
cimport cython
cimport numpy as cnp

from autograd_core._core.csrc cimport *
from autograd_core._core.dtype cimport *
from autograd_core._core.tensor cimport *

import builtins
import warnings

import numpy as np

from autograd_core._core.tensor import name_node_types

cnp.import_array()


cdef str cpp_number(object x):
    """A number as PyTorch's C++ messages print it (ostream: -1 for -1.0, 1e-07)."""
    return format(x, "g") if isinstance(x, float) else str(x)


# Note [Saved index keys]: PyTorch's index nodes save their indices as SavedVariables
# (None for a full slice): grad_fn._saved_indices shows a tuple of tensors and None,
# _raw_saved_indices their SavedTensors (whose hooks apply, and whose versions are
# checked). A table op's `Any indices` is a numpy advanced key (index arrays, boolean
# masks, full slices): saved so, each array as a SavedTensor and each full slice as None.

cdef tuple save_key(object key):
    return tuple([None if isinstance(k, slice) else save(make(<cnp.ndarray>k))
                  for k in (key if isinstance(key, tuple) else (key,))])


cdef tuple _saved_key(Node owner, object saved):
    if saved is None:                  # freed by backward
        raise RuntimeError(MSG_BACKWARD_TWICE)
    return saved


cdef tuple unpack_key(Node owner, object saved):
    """The numpy key save_key kept."""
    return tuple([slice(None) if s is None else unpack_saved(<SavedTensor>s, owner)._data
                  for s in _saved_key(owner, saved)])


cdef tuple key_tensors(Node owner, object saved):
    return tuple([None if s is None else unpack_saved(<SavedTensor>s, owner)
                  for s in _saved_key(owner, saved)])


cdef tuple raw_saved_key(Node owner, object saved):
    return tuple([raw_saved(owner, s) for s in _saved_key(owner, saved)])


# Note [Named results]: an op with several named returns (linalg.qr's Q and R, ...)
# gives PyTorch's torch.return_types.<op> named tuple; its C implementation returns a
# plain tuple and the generated Python wrapper names it.
cdef dict _NAMED_RESULT_TYPES = {}


cdef object named_result(str name, tuple fields, tuple values):
    cls = _NAMED_RESULT_TYPES.get(name)
    if cls is None:
        import collections

        def __repr__(self):
            body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
            return f"autograd_core.return_types.{type(self).__name__}(\n{body})"

        cls = type(name, (collections.namedtuple(name, fields),),
                   {"__slots__": (), "__repr__": __repr__})
        cls.__module__ = "autograd_core.return_types"
        _NAMED_RESULT_TYPES[name] = cls
    return cls(*values)


# Note [out= arguments]: a torch.* function whose table row has `out: true` takes
# PyTorch's out= (one tensor, or a tuple of tensors for several returns). The generated
# wrapper checks out first (out_check), computes the result as without out, and
# writes it into out (out_write): out is resized to the result's
# shape (PyTorch's deprecation warning when it had elements), the result is cast to
# out's dtype by the in-place commit (PyTorch's "can't be cast" error when the cast
# would narrow the dtype's category), and out's version counter is bumped. As
# PyTorch's, the autograd error names the ATen op that runs (`out: gather` on
# take_along_dim's row), and an op without a derivative (eq, argmax) takes inputs that
# require grad. Like
# PyTorch, out= functions record no graph: with grad mode on, an input or out that
# requires grad is an error.
cdef int out_check(str name, object out, Py_ssize_t n) except -1:
    if n == 1:
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__}")
        outs = (out,)
    else:
        if not isinstance(out, (tuple, list)) or len(out) != n or not all(
                isinstance(o, Tensor) for o in out):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                            f"{type(out).__name__}")
        outs = tuple(out)
    if grad_enabled() and any_requires_grad(outs):
        _out_grad_error(name)
    return 0


cdef int _out_grad_error(str name) except -1:
    raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                       f"automatic differentiation, but one of the arguments requires grad.")


cdef Tensor _out_write_one(Tensor out, Tensor result):
    cdef tuple shape = shape_of(result._data)
    cdef VersionCounter vc
    check_inplace(out, ())     # (an inference tensor outside inference mode)
    if shape_of(out._data) != shape:
        # PyTorch checks the cast before resizing: a refused cast leaves out as it was
        inplace_commit(make(np.empty(shape, dtype=out._data.dtype)), result)
        if cnp.PyArray_SIZE(out._data) != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(shape_of(out._data))}, which does not match the required output "
                f"shape {list(shape)}. This behavior is deprecated, and in a future PyTorch "
                f"release outputs will not be resized unless they have zero elements. You "
                f"can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                f"elements with t.resize_(0).", UserWarning, stacklevel=3)
        # PyTorch's resize_output: not a write of its own (only the values' is counted)
        vc = version_counter(out)
        v = vc.version
        OPS.resize_(out, shape)
        vc.version = v
    return inplace_commit(out, result)


cdef int out_check_list(str name, object out, int pos) except -1:
    """out= of an op returning Tensor[] (split_copy): a sequence of tensors (pos: its
    argument index in PyTorch's messages)."""
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                        f"{type(out).__name__}")
    for i, o in enumerate(out):
        if not isinstance(o, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {pos}, but got "
                            f"{type(o).__name__}")
    return 0


cdef object out_write_list(str kernel, object out, object compute):
    """out= of an op returning Tensor[]: PyTorch's kernels run below autograd (no graph,
    no autograd error) and return None. compute() gives the pieces; kernel names
    PyTorch's kernel. split_copy's copies each piece into its out tensor as copy_ does
    (a cast, no resize); split_with_sizes_copy's wants each out of the piece's dtype and
    resizes it as other outs are."""
    cdef list pieces
    cdef bint exact = kernel.startswith("split_with_sizes")
    with NoGradGuard():
        pieces = list(compute())
        if len(out) != len(pieces):
            raise RuntimeError(f"{kernel} expected an out= argument of size {len(pieces)}, "
                               f"got size {len(out)}")
        if not exact:
            for o, piece in zip(out, pieces):
                OPS.copy_(<Tensor>o, <Tensor>piece, False)
            return None
        for o, piece in zip(out, pieces):
            _out_dtype_exact(<Tensor>o, <Tensor>piece)
        for o, piece in zip(out, pieces):
            _out_write_one(<Tensor>o, <Tensor>piece)
    return None


cdef int _out_dtype_exact(Tensor o, Tensor r) except -1:
    if o._data.dtype != r._data.dtype:
        raise RuntimeError(
            f"Expected out tensor to have dtype "
            f"{_C10_TYPE_NAMES.get(r._data.dtype.name, r._data.dtype.name)}, but got "
            f"{_C10_TYPE_NAMES.get(o._data.dtype.name, o._data.dtype.name)} instead")
    return 0


# c10's names of the dtypes, which PyTorch's exact-dtype out checks quote
cdef dict _C10_TYPE_NAMES = {"float64": "double", "float32": "float", "float16": "c10::Half",
                             "int64": "long int", "int32": "int", "int16": "short int",
                             "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


cdef object with_out(str name, object out, object result, object fields=None,
                     bint exact=False):
    """result, or with out given, result written into out: the hand-written wrappers
    (python: manual) compute as without out, then hand the result here."""
    if out is None:
        return result
    out_check(name, out, 1 if isinstance(result, Tensor) else len(result))
    return out_write(name, out, result if isinstance(result, Tensor) else tuple(result),
                     fields, exact)


cdef int no_out(str name, object out) except -1:
    """An overload PyTorch gives no out= (sum(input), where(cond, number, t), ...): its
    argument parser's TypeError."""
    if out is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got an "
                        f"unexpected keyword argument 'out' for this overload")
    return 0


cdef object out_write(str name, object out, object result, object fields, bint exact=False):
    """exact: out must have the result's dtype (the value-and-index kernels: sort, topk,
    max(dim)), no cast."""
    # a result that requires grad: a differentiable op had an input requiring grad
    # (PyTorch's static rule, here read off the computed result, so that the ops
    # written as compositions need no flag)
    if grad_enabled() and (requires_grad_of(<Tensor>result) if isinstance(result, Tensor)
                           else any_requires_grad(tuple(result))):
        _out_grad_error(name)
    if exact:
        for o, r in (((out, result),) if isinstance(result, Tensor) else zip(out, result)):
            _out_dtype_exact(<Tensor>o, <Tensor>r)
    if isinstance(result, Tensor):
        return _out_write_one(<Tensor>out, <Tensor>result)
    cdef tuple outs = tuple([_out_write_one(<Tensor>o, <Tensor>r) for o, r in zip(out, result)])
    if fields is None:
        return outs
    return named_result(name + "_out", fields, outs)
