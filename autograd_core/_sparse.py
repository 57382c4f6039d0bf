"""Sparse tensors on CPU: COO (``torch.sparse_coo``) and CSR (``torch.sparse_csr``).

Note [Sparse tensors]
A sparse tensor is an instance of ``SparseTensor``, a Python subclass of Tensor. Its
values live in ``_sp_values`` (a plain dense Tensor: nnz rows, then the dense dims), its
coordinates in ``_sp_indices`` (a numpy int64 array, sparse_dim x nnz; a CSR tensor keeps
them sorted by row, and its crow/col arrays are derived from them). The Tensor's own array
is a read-only, zero-strided placeholder of the dense shape and dtype, so that the core
sees the right ``shape``/``dtype`` (the engine's gradient checks, ``requires_grad``) and
never the values. The autograd identity (requires_grad, grad_fn, .grad) is the
SparseTensor's own; ops on it are autograd Functions whose nodes bear PyTorch's names.

No path may compute on the placeholder:
- every generated wrapper hands a SparseTensor argument to ``__torch_function__``
  (Note [__torch_function__ in the wrappers]), which runs the sparse op or raises
  PyTorch's "Could not run 'aten::X' with arguments from the 'SparseCPU' backend";
- every other Tensor attribute (the core's own methods, operators) is replaced in the
  subclass by the same refusal unless it is implemented here or only reads metadata
  (``_SAFE``);
- the engine adds gradients of this type through the hook it calls for any gradient
  whose type is not exactly Tensor (Note [Sparse gradients] in ``_core/_node.pxi``).

>>> import autograd_core as torch
>>> s = torch.sparse_coo_tensor([[0, 1], [1, 0]], [1., 2.], (2, 2))
>>> s.to_dense()
tensor([[0., 1.],
        [2., 0.]])
"""
import copyreg
import os
import sys
import warnings

import numpy as np

import autograd_core as _ag
from autograd_core._core import tensor as _core
from autograd_core._core.dtype import SCALAR_NAMES as _SCALAR_NAMES
from autograd_core.autograd.function import Function as _Function
from autograd_core.autograd.function import once_differentiable as _once_differentiable
from autograd_core import _tensor_str

Tensor = _core.Tensor
layout = _core.layout
strided = _core.strided
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_LAYOUT_NAMES = {sparse_coo: "Sparse", sparse_csr: "SparseCsr", strided: "Strided"}
_LAYOUTS = {l.name: l for l in (strided, sparse_coo, sparse_csr, sparse_csc, sparse_bsr,
                                sparse_bsc)}


def _layout_from_name(name):
    return _LAYOUTS[name]


# a layout pickles by name (the core's reducer knows strided only)
copyreg.pickle(layout, lambda l: (_layout_from_name, (l.name,)))

_BACKEND_MSG = ("Could not run 'aten::{0}' with arguments from the 'SparseCPU' backend. This "
                "could be because the operator doesn't exist for this backend, or was omitted "
                "during the selective/custom build process (if using custom build). If you are "
                "a Facebook employee using PyTorch on mobile, please visit "
                "https://fburl.com/ptmfixes for possible resolutions.")
_CSR_BACKEND_MSG = _BACKEND_MSG.replace("'SparseCPU'", "'SparseCsrCPU'")


def _not_supported(name, t=None):
    msg = _CSR_BACKEND_MSG if (t is not None and t._sp_layout is sparse_csr) else _BACKEND_MSG
    return NotImplementedError(msg.format(name))


def _layout_of(t):
    return t._sp_layout if isinstance(t, SparseTensor) else strided


def _expect_layout(t, name, want):
    """PyTorch's "<name> expected sparse coordinate tensor layout but got X"."""
    if _layout_of(t) is not want:
        what = {sparse_coo: "sparse coordinate tensor", sparse_csr: "sparse row compressed tensor"}
        raise RuntimeError(f"{name} expected {what[want]} layout but got "
                           f"{_LAYOUT_NAMES[_layout_of(t)]}")


def _np(t):
    return t.detach().numpy()


def _from_np(arr):
    return _ag.from_numpy(np.ascontiguousarray(arr))


# ---------------------------------------------------------------- construction

def _make(lay, indices, values, size, coalesced):
    """A new SparseTensor (no autograd history): indices a numpy int64 (sparse_dim, nnz)
    array, values a dense Tensor (detached) of shape (nnz,) + dense dims."""
    if lay is sparse_csr:
        _warn_csr_beta()
    t = Tensor.__new__(SparseTensor)
    t.data = _ag.zeros((), dtype=values.dtype).expand(*size) if size else \
        _ag.zeros((), dtype=values.dtype)
    t._sp_layout = lay
    t._sp_indices = np.ascontiguousarray(indices, dtype=np.int64)
    t._sp_values = values.detach()
    t._sp_size = tuple(int(s) for s in size)
    t._sp_coalesced = bool(coalesced)
    return t


def _coalesced_parts(indices, values_np, size):
    """Sorted unique coordinates (row-major) and the summed values of each."""
    sd = indices.shape[0]
    nnz = indices.shape[1]
    if nnz == 0:
        return indices, values_np
    if sd == 0:
        return indices[:, :1], values_np.sum(axis=0, keepdims=True)
    flat = np.ravel_multi_index(tuple(indices), size[:sd]) if all(s > 0 for s in size[:sd]) \
        else np.zeros(nnz, dtype=np.int64)
    uniq, inverse = np.unique(flat, return_inverse=True)
    # summed in order of appearance per coordinate, as PyTorch's coalesce
    out = _segment_sum(inverse.reshape(-1), values_np, len(uniq))
    new_idx = np.array(np.unravel_index(uniq, size[:sd]), dtype=np.int64).reshape(sd, -1)
    return new_idx, out


def _coo_from_dense_np(arr, sparse_dim):
    lead = arr.shape[:sparse_dim]
    if sparse_dim == arr.ndim:
        mask = arr != 0
    else:
        mask = (arr.reshape(lead + (-1,)) != 0).any(axis=-1) if arr.size else \
            np.zeros(lead, dtype=bool)
    idx = np.array(np.nonzero(mask), dtype=np.int64).reshape(sparse_dim, -1)
    vals = arr[tuple(idx)] if sparse_dim else arr[None]
    return idx, vals


def _as_index_array(indices, name="indices"):
    if isinstance(indices, Tensor):
        if isinstance(indices, SparseTensor):
            raise _not_supported("_to_copy", indices)
        arr = indices.detach().numpy()
    else:
        arr = np.asarray(indices)
    if arr.dtype.kind == "f" or arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "iu":
        arr = arr.astype(np.int64)
    return arr.astype(np.int64)


def _as_values(values, dtype):
    if isinstance(values, Tensor):
        v = values
        if dtype is not None and v.dtype != dtype:
            v = v.to(dtype)
        return v
    return _ag.tensor(values, dtype=dtype)


def sparse_coo_tensor(indices=None, values=None, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None,
                      is_coalesced=None):
    """A sparse tensor in COO format: values at the given coordinates (indices:
    sparse_dim x nnz), zero elsewhere. Duplicate coordinates are summed by coalesce().

    >>> import autograd_core as torch
    >>> torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3)).to_dense()
    tensor([[0., 0., 3.],
            [4., 0., 5.]])
    """
    if values is None:
        # PyTorch's third overload, sparse_coo_tensor(size): an empty tensor of that size
        if size is None and isinstance(indices, (tuple, list)):
            indices, size = None, indices
        if indices is not None or size is None:
            raise TypeError(
                "sparse_coo_tensor() received an invalid combination of arguments - expected "
                "(indices, values, size=None, ...) or (size, ...)")
        size = tuple(int(n) for n in size)
        indices = _ag.zeros((len(size), 0), dtype=_ag.int64)
        values = _ag.zeros((0,), dtype=dtype)
    if check_invariants is None:
        check_invariants = _invariants_default()
    idx = _as_index_array(indices)
    v = _as_values(values, dtype)
    if idx.ndim == 1:
        # PyTorch reads a 1-D indices tensor as sparse_dim coordinates of one element
        idx = idx.reshape(-1, 1) if idx.size else idx.reshape(1, 0)
    if idx.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(idx.shape)}")
    sd = idx.shape[0]
    nnz = idx.shape[1]
    if v.dim() == 0:
        raise RuntimeError("values must be at least 1-dimensional")
    dense_shape = tuple(v.shape[1:])
    if size is not None and len(tuple(size)) != sd + len(dense_shape):
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: "
                           f"len(size) = {len(tuple(size))}, sparse_dim = {sd}, dense_dim = "
                           f"{len(dense_shape)}")
    if v.shape[0] != nnz:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: "
                           f"{nnz}, nnz from values: {v.shape[0]}")
    if size is None:
        if nnz and idx.min() < 0:
            raise RuntimeError(f"found negative index {int(idx.min())} for dim 0")
        sp = tuple(int(m) + 1 for m in idx.max(axis=1)) if nnz else (0,) * sd
        size = sp + dense_shape
    else:
        size = tuple(int(s) for s in size)
        if len(size) != sd + len(dense_shape):
            raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: "
                               f"len(size) = {len(size)}, sparse_dim = {sd}, dense_dim = "
                               f"{len(dense_shape)}")
        if check_invariants:
            _check_coo_invariants(idx, size, sd)
    return _with_history(sparse_coo, idx, v, size, bool(is_coalesced) if nnz > 1 else True,
                         requires_grad, "SparseCooTensorWithDimsAndTensorsBackward0")


# torch.sparse.check_sparse_tensor_invariants' process-wide default, and whether the
# program set it (PyTorch warns once when a constructor runs with it implicitly off)
_INVARIANTS = {"enabled": False, "explicit": False, "warned": False, "csr_warned": False}
_INVARIANTS_MSG = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur "
    "when operating on a sparse tensor which violates the invariants, but checks incur "
    "performance overhead. To silence this warning, explicitly opt in or out. See "
    "`autograd_core.sparse.check_sparse_tensor_invariants.__doc__` for guidance. ")
_CSR_BETA_MSG = (
    "Sparse CSR tensor support is in beta state. If you miss a functionality in the sparse "
    "tensor support, please submit a feature request to https://github.com/pytorch/pytorch/"
    "issues.")


_PACKAGE_DIR = os.path.dirname(os.path.abspath(_ag.__file__))


def _user_stacklevel():
    """The stacklevel of the first frame outside autograd_core: PyTorch's warnings come
    from its C++ kernels and point at the user's line, whatever path led there."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def _invariants_default():
    if not _INVARIANTS["explicit"] and not _INVARIANTS["warned"]:
        _INVARIANTS["warned"] = True
        warnings.warn(_INVARIANTS_MSG, UserWarning, stacklevel=_user_stacklevel())
    return _INVARIANTS["enabled"]


def _warn_csr_beta():
    if not _INVARIANTS["csr_warned"]:
        _INVARIANTS["csr_warned"] = True
        warnings.warn(_CSR_BETA_MSG, UserWarning, stacklevel=_user_stacklevel())


def _check_coo_invariants(idx, size, sd):
    for d in range(sd):
        if idx.shape[1] and idx[d].min() < 0:
            raise RuntimeError(f"found negative index {int(idx[d].min())} for dim {d}")
        if idx.shape[1] and idx[d].max() >= size[d]:
            raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is "
                               f"{size[d]} but found index {int(idx[d].max())}")


def _with_history(lay, idx, v, size, coalesced, requires_grad, node_name):
    if requires_grad:
        if not (v.is_floating_point() or v.is_complex()):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
    if v.requires_grad and _ag.is_grad_enabled():
        out = _FROM_VALUES[node_name].apply(v, lay, idx, size, coalesced)
    else:
        out = _make(lay, idx, v, size, coalesced)
    if requires_grad:
        out.requires_grad_(True)
    return out


def _csr_to_coo(crow, col, nrows):
    rows = np.repeat(np.arange(nrows, dtype=np.int64), np.diff(crow))
    return np.stack([rows, col.astype(np.int64)])


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None):
    """A sparse tensor in CSR format (2-D): row i's values are values[crow[i]:crow[i+1]]
    at columns col_indices[crow[i]:crow[i+1]].

    >>> import autograd_core as torch
    >>> torch.sparse_csr_tensor([0, 1, 2], [1, 0], [1., 2.], (2, 2)).to_dense()
    tensor([[0., 1.],
            [2., 0.]])
    """
    if check_invariants is None:
        check_invariants = _invariants_default()
    crow = _as_index_array(crow_indices)
    col = _as_index_array(col_indices)
    v = _as_values(values, dtype)
    if crow.ndim != 1 or col.ndim != 1:
        raise RuntimeError(f"Expected crow_indices and col_indices to be 1-D tensors (batched "
                           f"CSR tensors are not supported here), but got crow_indices of "
                           f"shape {list(crow.shape)} and col_indices of shape {list(col.shape)}")
    if v.dim() != 1:
        raise RuntimeError("sparse_csr_tensor: values must be 1-D (hybrid CSR tensors are not "
                           "supported here)")
    if len(col) != v.shape[0]:
        raise RuntimeError(f"col_indices and values must have the same number of elements, but "
                           f"got {len(col)} and {v.shape[0]}")
    nrows = len(crow) - 1
    if size is None:
        ncols = int(col.max()) + 1 if len(col) else 0
        size = (nrows, ncols)
    size = tuple(int(s) for s in size)
    if len(size) != 2:
        raise RuntimeError(f"sparse_csr_tensor: size must have 2 dims here (batched or hybrid CSR "
                           f"tensors are not supported), got {len(size)}")
    if nrows != size[0]:
        raise RuntimeError(f"crow_indices.size(-1) must be equal to size[-2] + 1 (that is "
                           f"{size[0] + 1}), but got: {nrows + 1}")
    if len(crow) and (crow[0] != 0 or crow[-1] != len(col) or np.any(np.diff(crow) < 0)):
        raise RuntimeError("sparse_csr_tensor: crow_indices must start at 0, be non-decreasing "
                           f"and end at nnz ({len(col)})")
    idx = _csr_to_coo(crow, col, nrows)
    return _with_history(sparse_csr, idx, v, size, True, requires_grad,
                         "SparseCsrTensorBackward0")


# ---------------------------------------------------------------- autograd Functions

def _named(cls, node_name):
    """Gives a Function's node class PyTorch's node name (the grad_fn users see). Its
    backward computes in numpy: once differentiable (a second differentiation raises
    PyTorch's error instead of giving a gradient that ignores this node)."""
    cls._backward_cls.__name__ = node_name
    cls._backward_cls.__qualname__ = node_name
    cls.backward = staticmethod(_once_differentiable(cls.backward))
    return cls


def _is_sparse(x):
    return isinstance(x, SparseTensor)


def _values_at(grad, t):
    """The values of grad (sparse or dense) at the coordinates of the sparse t, in t's
    order: the gradient of t's values."""
    idx = t._sp_indices
    if _is_sparse(grad):
        g = grad.coalesce() if grad._sp_layout is sparse_coo else grad
        gi, gv = g._sp_indices, _np(g._sp_values)
        sd = idx.shape[0]
        shape = t._sp_size[:sd]
        if idx.shape[1] == 0:
            return _from_np(np.zeros((0,) + gv.shape[1:], dtype=gv.dtype))
        keys = np.ravel_multi_index(tuple(idx), shape) if sd else np.zeros(idx.shape[1], np.int64)
        gkeys = np.ravel_multi_index(tuple(gi), shape) if sd and gi.shape[1] else \
            np.zeros(gi.shape[1], np.int64)
        out = np.zeros((idx.shape[1],) + gv.shape[1:], dtype=gv.dtype)
        if gi.shape[1]:
            pos = np.searchsorted(gkeys, keys)
            pos = np.clip(pos, 0, len(gkeys) - 1)
            hit = gkeys[pos] == keys
            out[hit] = gv[pos[hit]]
        return _from_np(out)
    return grad[tuple(_from_np(i) for i in idx)]


def _grad_for(t, grad, coalesced=False):
    """The gradient of the sparse input t from grad (sparse or dense), as PyTorch hands
    it: at t's distinct coordinates in sorted order (an uncoalesced t's duplicates once
    each), valued as grad there."""
    idx = t._sp_indices
    if idx.shape[1] > 1 and not t._sp_coalesced:
        sd = idx.shape[0]
        if sd and all(t._sp_size[:sd]):
            keys = np.unique(np.ravel_multi_index(tuple(idx), t._sp_size[:sd]))
            idx = np.array(np.unravel_index(keys, t._sp_size[:sd]), dtype=np.int64).reshape(sd, -1)
    holder = _make(sparse_coo, idx, t._sp_values, t._sp_size, True)
    return _make(t._sp_layout, idx, _values_at(grad, holder), t._sp_size, coalesced)


def _like(t, values, coalesced=None):
    return _make(t._sp_layout, t._sp_indices, values, t._sp_size,
                 t._sp_coalesced if coalesced is None else coalesced)


def _make_from_values(node_name):
    class _FromValues(_Function):
        @staticmethod
        def forward(ctx, v, lay, idx, size, coalesced):
            ctx.idx = idx
            return _make(lay, idx, v, size, coalesced)

        @staticmethod
        def backward(ctx, grad):
            holder = _make(sparse_coo, ctx.idx, grad._sp_values if _is_sparse(grad) else
                           _ag.zeros(ctx.idx.shape[1]), grad.shape, False)
            return _values_at(grad, holder), None, None, None, None
    return _named(_FromValues, node_name)


_FROM_VALUES = {n: _make_from_values(n) for n in (
    "SparseCooTensorWithDimsAndTensorsBackward0", "SparseCsrTensorBackward0")}


class _ToDense(_Function):
    @staticmethod
    def forward(ctx, s):
        ctx.s = _like(s, s._sp_values)
        return _to_dense_raw(s)

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's to_dense_backward: the gradient masked to the input's pattern
        return _grad_for(ctx.s, grad)


_named(_ToDense, "ToDenseBackward0")


def _to_dense_raw(s):
    v = _np(s._sp_values)
    sd = s._sp_indices.shape[0]
    lead = s._sp_size[:sd]
    n = int(np.prod(lead)) if sd else 1
    if s._sp_indices.shape[1] and n:
        flat = np.ravel_multi_index(tuple(s._sp_indices), lead) if sd else \
            np.zeros(s._sp_indices.shape[1], np.int64)
        out = _segment_sum(flat, v, n)
    else:
        out = np.zeros((n,) + v.shape[1:], dtype=v.dtype)
    return _from_np(out.reshape(s._sp_size))


class _ToSparse(_Function):
    @staticmethod
    def forward(ctx, x, lay, sparse_dim):
        arr = _np(x)
        idx, vals = _coo_from_dense_np(arr, sparse_dim)
        return _make(lay, idx, _from_np(vals.copy()), tuple(arr.shape), True)

    @staticmethod
    def backward(ctx, grad):
        return (grad.to_dense() if _is_sparse(grad) else grad), None, None


_named(_ToSparse, "ToSparseBackward0")


def _unary_values(node_name, fn, grad_fn):
    """A Function applying fn to a sparse tensor's values (the pattern kept); grad_fn
    maps the values' gradient back."""
    class _Op(_Function):
        @staticmethod
        def forward(ctx, s, arg):
            ctx.s = _like(s, s._sp_values)
            ctx.arg = arg
            return _like(s, fn(s._sp_values, arg))

        @staticmethod
        def backward(ctx, grad):
            g = _grad_for(ctx.s, grad)
            return _like(g, grad_fn(g._sp_values, ctx.arg)), None
    return _named(_Op, node_name)


_MulScalar = _unary_values("MulBackward0", lambda v, a: v * a, lambda g, a: g * a)
_DivScalar = _unary_values("DivBackward0", lambda v, a: v / a, lambda g, a: g / a)
_Neg = _unary_values("NegBackward0", lambda v, a: -v, lambda g, a: -g)


class _Coalesce(_Function):
    @staticmethod
    def forward(ctx, s):
        ctx.s = _like(s, s._sp_values)
        idx, vals = _coalesced_parts(s._sp_indices, _np(s._sp_values), s._sp_size)
        return _make(sparse_coo, idx, _from_np(vals), s._sp_size, True)

    @staticmethod
    def backward(ctx, grad):
        # a sparse gradient already has the coalesced pattern: passed on as it is
        return grad if _is_sparse(grad) else _grad_for(ctx.s, grad)


_named(_Coalesce, "CoalesceBackward0")


def _merge_add(ai, av, bi, bv, size):
    """PyTorch's CPU sparse add: one merge walk over the two coordinate lists in their
    stored order, equal coordinates met side by side summed, the others kept in order
    (so two coalesced operands give a coalesced sum, others an uncoalesced one)."""
    sd = ai.shape[0]
    shape = size[:sd]
    def keys(i):
        if i.shape[1] == 0 or sd == 0 or not all(shape):
            return np.zeros(i.shape[1], dtype=np.int64)
        return np.ravel_multi_index(tuple(i), shape, mode="clip")
    ka, kb = keys(ai).tolist(), keys(bi).tolist()
    na, nb = len(ka), len(kb)
    sa, sb = [], []
    x = y = 0
    while x < na and y < nb:
        if ka[x] == kb[y]:
            sa.append(x); sb.append(y); x += 1; y += 1
        elif ka[x] < kb[y]:
            sa.append(x); sb.append(-1); x += 1
        else:
            sa.append(-1); sb.append(y); y += 1
    sa += list(range(x, na)); sb += [-1] * (na - x)
    sa += [-1] * (nb - y); sb += list(range(y, nb))
    sa, sb = np.array(sa, dtype=np.int64), np.array(sb, dtype=np.int64)
    dt = np.result_type(av, bv)
    vals = np.zeros((len(sa),) + av.shape[1:], dtype=dt)
    ha, hb = sa >= 0, sb >= 0
    vals[ha] += av[sa[ha]]
    vals[hb] += bv[sb[hb]]
    idx = np.where(ha[None, :], ai[:, np.maximum(sa, 0)] if na else 0,
                   bi[:, np.maximum(sb, 0)] if nb else 0).astype(np.int64).reshape(sd, -1)
    return idx, vals


class _AddSparse(_Function):
    @staticmethod
    def forward(ctx, a, b, alpha):
        ctx.alpha = alpha
        bv = _np(b._sp_values) * alpha if alpha != 1 else _np(b._sp_values)
        if a._sp_values.is_contiguous() and b._sp_values.is_contiguous():
            idx, vals = _merge_add(a._sp_indices, _np(a._sp_values), b._sp_indices, bv,
                                   a._sp_size)
            coalesced = (a._sp_coalesced and b._sp_coalesced) or idx.shape[1] <= 1
        else:
            # PyTorch's kernel for non-contiguous values appends b's entries to a's
            idx = np.concatenate([a._sp_indices, b._sp_indices], axis=1)
            vals = np.concatenate([_np(a._sp_values), bv.astype(_np(a._sp_values).dtype)])
            coalesced = idx.shape[1] <= 1
        out = _make(sparse_coo, idx, _from_np(vals), a._sp_size, coalesced)
        return out if a._sp_layout is sparse_coo else _to_csr_raw(out)

    @staticmethod
    def backward(ctx, grad):
        return grad, (grad * ctx.alpha if ctx.alpha != 1 else grad), None


_named(_AddSparse, "AddBackward0")


class _DenseAddSparse(_Function):
    @staticmethod
    def forward(ctx, d, s, alpha):
        ctx.alpha = alpha
        out = _to_dense_raw(s)
        return d.detach() + out * alpha if alpha != 1 else d.detach() + out

    @staticmethod
    def backward(ctx, grad):
        return grad, (grad * ctx.alpha if ctx.alpha != 1 else grad), None


_named(_DenseAddSparse, "AddBackward0")


def _segment_sum(target, contrib, n):
    """out[t] = the sum of contrib[k] over the k with target[k] == t (out of n rows), in
    the order of k within each row, as PyTorch's CPU loops add them: a stable sort by
    target and one reduceat (numpy's add.at is ~50x slower)."""
    out = np.zeros((n,) + contrib.shape[1:], dtype=contrib.dtype)
    if len(target):
        if np.any(target[1:] < target[:-1]):
            order = np.argsort(target, kind="stable")
            target, contrib = target[order], contrib[order]
        starts = np.flatnonzero(np.concatenate([[True], target[1:] != target[:-1]]))
        out[target[starts]] = np.add.reduceat(contrib, starts, axis=0)
    return out


def _spmm_np(s, d):
    """s (sparse 2-D) @ d (numpy 2-D): numpy result."""
    rows, cols = s._sp_indices
    v = _np(s._sp_values)
    dt = np.result_type(v, d)
    return _segment_sum(rows, (v[:, None] * d[cols]).astype(dt, copy=False), s._sp_size[0])


def _spmm_t_np(s, g):
    """s.t() @ g for s sparse 2-D and g numpy 2-D."""
    rows, cols = s._sp_indices
    v = _np(s._sp_values)
    dt = np.result_type(v, g)
    return _segment_sum(cols, (v[:, None] * g[rows]).astype(dt, copy=False), s._sp_size[1])


def _make_addmm(node_name, sparse_grad):
    """beta * M + alpha * (S @ D) for S sparse, D dense. The gradient of S is masked to
    S's pattern (sparse) for torch.sparse.mm/addmm, dense for mm/addmm/matmul (PyTorch's
    MmBackward0/AddmmBackward0 formulas)."""
    class _Addmm(_Function):
        @staticmethod
        def forward(ctx, m, s, d, beta, alpha):
            ctx.s = _like(s, s._sp_values)
            ctx.d = d.detach()
            ctx.beta, ctx.alpha = beta, alpha
            ctx.m_shape = None if m is None else tuple(m.shape)
            out = _spmm_np(s, _np(d))
            if alpha != 1:
                out = out * alpha
            res = _from_np(out)
            if m is not None:
                res = (m.detach() * beta if beta != 1 else m.detach()) + res
            return res

        @staticmethod
        def backward(ctx, grad):
            g = grad.to_dense() if _is_sparse(grad) else grad
            gnp = _np(g)
            gm = gs = gd = None
            if ctx.needs_input_grad[0] and ctx.m_shape is not None:
                gm = g * ctx.beta if ctx.beta != 1 else g
            if ctx.needs_input_grad[1]:
                dnp = _np(ctx.d)
                if sparse_grad:
                    pattern = _grad_for(ctx.s, _ag.zeros(()).expand(ctx.s.shape))
                    rows, cols = pattern._sp_indices
                    vals = (gnp[rows] * dnp[cols]).sum(axis=1) * ctx.alpha
                    gs = _like(pattern, _from_np(vals.astype(gnp.dtype)))
                else:
                    gs = g.mm(ctx.d.t())
                    if ctx.alpha != 1:
                        gs = gs * ctx.alpha
            if ctx.needs_input_grad[2]:
                gd = _from_np(_spmm_t_np(ctx.s, gnp))
                if ctx.alpha != 1:
                    gd = gd * ctx.alpha
            return gm, gs, gd, None, None
    return _named(_Addmm, node_name)


class _Mv(_Function):
    @staticmethod
    def forward(ctx, s, vec):
        ctx.s, ctx.vec = _like(s, s._sp_values), vec.detach()
        return _from_np(_spmm_np(s, _np(vec)[:, None])[:, 0])

    @staticmethod
    def backward(ctx, grad):
        g = grad.to_dense() if _is_sparse(grad) else grad
        gs = g.unsqueeze(1) * ctx.vec.unsqueeze(0) if ctx.needs_input_grad[0] else None
        gv = _from_np(_spmm_t_np(ctx.s, _np(g)[:, None])[:, 0]) if ctx.needs_input_grad[1] \
            else None
        return gs, gv


_named(_Mv, "MvBackward0")


class _DenseMm(_Function):
    """dense @ sparse (PyTorch's MmBackward0: both gradients dense)."""
    @staticmethod
    def forward(ctx, d, s):
        ctx.s, ctx.d = _like(s, s._sp_values), d.detach()
        return _from_np(_spmm_t_np(s, _np(d).T).T)

    @staticmethod
    def backward(ctx, grad):
        g = grad.to_dense() if _is_sparse(grad) else grad
        gd = _from_np(_spmm_np(ctx.s, _np(g).T).T) if ctx.needs_input_grad[0] else None
        gs = ctx.d.t().mm(g) if ctx.needs_input_grad[1] else None
        return gd, gs


_named(_DenseMm, "MmBackward0")


_Mm = _make_addmm("MmBackward0", False)
_AddmmDense = _make_addmm("AddmmBackward0", False)
_SparseAddmm = _make_addmm("SparseAddmmBackward0", True)


class _SparseSumAll(_Function):
    @staticmethod
    def forward(ctx, s):
        ctx.s = _like(s, s._sp_values)
        return s._sp_values.sum()

    @staticmethod
    def backward(ctx, grad):
        pattern = _grad_for(ctx.s, _ag.zeros((), dtype=grad.dtype).expand(ctx.s.shape), True)
        v = pattern._sp_values
        return _like(pattern, grad.expand(v.shape).clone())


_named(_SparseSumAll, "SumBackward0")


class _SparseSumDims(_Function):
    @staticmethod
    def forward(ctx, s, dims):
        ctx.s = _like(s, s._sp_values)
        sd = s._sp_indices.shape[0]
        sparse_dims = [d for d in dims if d < sd]
        dense_dims = [d - sd + 1 for d in dims if d >= sd]
        vals = s._sp_values
        if dense_dims:
            vals = vals.sum(dim=dense_dims)
        keep = [d for d in range(sd) if d not in sparse_dims]
        size = tuple(n for i, n in enumerate(s._sp_size) if i not in dims)
        ctx.keep = keep
        if not keep:
            return vals.sum(0)
        idx = s._sp_indices[keep]
        idx, v = _coalesced_parts(idx, _np(vals), size)
        return _make(sparse_coo, idx, _from_np(v), size, True)

    @staticmethod
    def backward(ctx, grad):
        s = _grad_for(ctx.s, _ag.zeros((), dtype=grad.dtype).expand(ctx.s.shape))
        zeros = _ag.zeros_like(s._sp_values)
        if not ctx.keep:
            return _like(s, zeros + grad), None
        holder = _make(sparse_coo, s._sp_indices[ctx.keep], s._sp_values,
                       tuple(s._sp_size[d] for d in ctx.keep) + tuple(grad.shape[len(ctx.keep):]),
                       False)
        gv = _values_at(grad, holder)
        return _like(s, zeros + gv.reshape(gv.shape + (1,) * (zeros.dim() - gv.dim()))), None


_named(_SparseSumDims, "SparseSumBackward0")


def _group_keys(s, dim):
    """Per nonzero, the key of its slice along dim (the coordinates of the other sparse
    dims), for softmax over the specified entries."""
    idx = s._sp_indices
    other = [d for d in range(idx.shape[0]) if d != dim]
    if not other:
        return np.zeros(idx.shape[1], dtype=np.int64)
    shape = tuple(s._sp_size[d] for d in other)
    return np.ravel_multi_index(tuple(idx[other]), shape)


def _make_softmax(node_name, log):
    class _Softmax(_Function):
        @staticmethod
        def forward(ctx, s, dim):
            sc = s if s._sp_coalesced else s.coalesce()
            v = _np(sc._sp_values).astype(np.float64 if sc.dtype == _ag.float64 else np.float32)
            keys = _group_keys(sc, dim)
            _, inv = np.unique(keys, return_inverse=True)
            inv = inv.reshape(-1)
            ng = inv.max() + 1 if len(inv) else 0
            mx = np.full((ng,) + v.shape[1:], -np.inf, dtype=v.dtype)
            np.maximum.at(mx, inv, v)
            e = np.exp(v - mx[inv])
            tot = np.zeros((ng,) + v.shape[1:], dtype=v.dtype)
            np.add.at(tot, inv, e)
            out = (v - mx[inv] - np.log(tot[inv])) if log else e / tot[inv]
            ctx.inv, ctx.ng = inv, ng
            res = _like(sc, _from_np(out.astype(v.dtype)), True)
            ctx.res = _like(res, res._sp_values)
            return res

        @staticmethod
        def backward(ctx, grad):
            r = ctx.res
            g = _np(_values_at(grad, r))
            y = _np(r._sp_values)
            inv = ctx.inv
            if log:
                tot = np.zeros((ctx.ng,) + g.shape[1:], dtype=g.dtype)
                np.add.at(tot, inv, g)
                gi = g - np.exp(y) * tot[inv]
            else:
                tot = np.zeros((ctx.ng,) + g.shape[1:], dtype=g.dtype)
                np.add.at(tot, inv, g * y)
                gi = y * (g - tot[inv])
            return _like(r, _from_np(gi.astype(y.dtype)), False), None
    return _named(_Softmax, node_name)


_SparseSoftmax = _make_softmax("SparseSoftmaxBackward0", False)
_SparseLogSoftmax = _make_softmax("SparseLogSoftmaxBackward0", True)


class _Values(_Function):
    @staticmethod
    def forward(ctx, s):
        ctx.s = _like(s, s._sp_values)
        return s._sp_values.view_as(s._sp_values)

    @staticmethod
    def backward(ctx, grad):
        return _like(ctx.s, grad)


_named(_Values, "ValuesBackward0")


class _Transpose(_Function):
    @staticmethod
    def forward(ctx, s, d0, d1):
        ctx.dims = (d0, d1)
        return _transpose_raw(s, d0, d1)

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims), None, None


def _transpose_raw(s, d0, d1):
    idx = s._sp_indices.copy()
    idx[[d0, d1]] = idx[[d1, d0]]
    size = list(s._sp_size)
    size[d0], size[d1] = size[d1], size[d0]
    return _make(sparse_coo, idx, s._sp_values, tuple(size), False)


_named(_Transpose, "TransposeBackward0")


def _to_csr_raw(s):
    idx, vals = _coalesced_parts(s._sp_indices, _np(s._sp_values), s._sp_size)
    return _make(sparse_csr, idx, _from_np(vals), s._sp_size, True)


class _ToCsr(_Function):
    @staticmethod
    def forward(ctx, x):
        if _is_sparse(x):
            return _to_csr_raw(x)
        arr = _np(x)
        idx, vals = _coo_from_dense_np(arr, 2)
        return _make(sparse_csr, idx, _from_np(vals.copy()), tuple(arr.shape), True)

    @staticmethod
    def backward(ctx, grad):
        return grad.to_dense() if _is_sparse(grad) else grad


_named(_ToCsr, "ToSparseCsrBackward0")


# ---------------------------------------------------------------- the sparse type

def _wrap_dim(d, n):
    if not -max(n, 1) <= d < max(n, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(n, 1)}, {max(n, 1) - 1}], but got {d})")
    return d % max(n, 1)


def _scalar_of(x):
    if isinstance(x, (bool, int, float)):
        return x
    if isinstance(x, Tensor) and not isinstance(x, SparseTensor) and x.dim() == 0:
        return x.item()
    return None


def _add(a, b, alpha=1):
    """a + alpha * b with PyTorch's rules for sparse operands."""
    if _is_sparse(a) and _is_sparse(b):
        if a._sp_size != b._sp_size:
            raise RuntimeError(f"add: expected sizes of 'self' and 'other' to match, but "
                               f"{list(a._sp_size)} != {list(b._sp_size)}")
        return _AddSparse.apply(a, b, alpha)
    if _is_sparse(a):
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
    if isinstance(a, Tensor):
        if tuple(a.shape) != b._sp_size:
            raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has "
                               f"size {list(a.shape)} while other has size {list(b._sp_size)} "
                               f"(FYI: dense-sparse addition does not currently support "
                               f"broadcasting)")
        return _DenseAddSparse.apply(a, b, alpha)
    raise _not_supported("add.Tensor", b)


def _mm(a, b, kind="mm", m=None, beta=1, alpha=1):
    if _is_sparse(b) and not _is_sparse(a) and kind == "mm" and m is None:
        if a.dim() != 2 or b.dim() != 2:
            raise RuntimeError(f"mm: 2D tensors expected, got {a.dim()}D and {b.dim()}D tensors")
        if a.shape[1] != b._sp_size[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                               f"{a.shape[1]} and {b._sp_size[0]}x{b._sp_size[1]})")
        return _DenseMm.apply(a, b)
    if _is_sparse(b) and not _is_sparse(a):
        raise _not_supported("addmm", b)
    if not _is_sparse(a):
        raise _not_supported("mm", b)
    if _is_sparse(b):
        raise _not_supported("mm", a)  # sparse @ sparse: not implemented here
    if a.dim() != 2 or b.dim() != 2 or a._sp_indices.shape[0] != 2:
        raise RuntimeError(f"{kind}: 2D tensors expected, got {a.dim()}D and {b.dim()}D tensors")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {_SCALAR_NAMES[a.dtype.name]} but "
                           f"found {_SCALAR_NAMES[b.dtype.name]}")
    if a._sp_size[1] != b.shape[0]:
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {a._sp_size[1]}, "
                           f"got {b.shape[0]}")
    if kind == "sparse":
        fn = _SparseAddmm
    elif m is None:
        fn = _Mm
    else:
        fn = _AddmmDense
    if m is not None:
        m = m.expand(a._sp_size[0], b.shape[1]) if tuple(m.shape) != (a._sp_size[0], b.shape[1]) \
            else m
    return fn.apply(m, a, b, beta, alpha)


class SparseTensor(Tensor):
    """A sparse COO or CSR tensor (Note [Sparse tensors]); made by
    ``torch.sparse_coo_tensor``, ``torch.sparse_csr_tensor``, ``Tensor.to_sparse()``.

    >>> import autograd_core as torch
    >>> torch.tensor([[0., 2.], [3., 0.]]).to_sparse().values()
    tensor([2., 3.])
    """

    _agc_sparse = True   # the engine's test (Note [Sparse gradients])

    @staticmethod
    def _agc_buffer_sum(old, new):
        """The engine's sum of two gradients for one input (Note [Sparse gradients]):
        PyTorch's InputBuffer adds the later arrival to the earlier one (new + old) when
        the earlier is sparse, else old + new."""
        return _add(new, old) if _is_sparse(old) else _add(old, new)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if name.startswith("_py_"):     # a hand-written wrapper's own name
            name = name[4:]
        impl = _FUNCTIONS.get(name)
        if impl is not None:
            return impl(*args, **kwargs)
        first = next((a for a in list(args) + list(kwargs.values()) if _is_sparse(a)), None)
        raise _not_supported(name, first)

    # ---- metadata
    @property
    def layout(self):
        return self._sp_layout

    @property
    def is_sparse(self):
        return self._sp_layout is sparse_coo

    @property
    def is_sparse_csr(self):
        return self._sp_layout is sparse_csr

    def sparse_dim(self):
        return int(self._sp_indices.shape[0])

    def dense_dim(self):
        return self._sp_values.dim() - 1

    def _nnz(self):
        return int(self._sp_indices.shape[1])

    def is_coalesced(self):
        _expect_layout(self, "is_coalesced", sparse_coo)
        return self._sp_coalesced

    def _coalesced_(self, coalesced):
        _expect_layout(self, "_coalesced_", sparse_coo)
        self._sp_coalesced = bool(coalesced)
        return self

    def coalesce(self):
        _expect_layout(self, "coalesce", sparse_coo)
        if self._sp_coalesced:
            return self
        return _Coalesce.apply(self)

    def _indices(self):
        _expect_layout(self, "_indices", sparse_coo)
        return _ag.from_numpy(self._sp_indices)

    def indices(self):
        _expect_layout(self, "indices", sparse_coo)
        if not self._sp_coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return _ag.from_numpy(self._sp_indices.copy())

    def _values(self):
        _expect_layout(self, "_values", sparse_coo)
        return _Values.apply(self) if self.requires_grad and _ag.is_grad_enabled() \
            else self._sp_values

    def values(self):
        if self._sp_layout is sparse_coo and not self._sp_coalesced:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call "
                               ".coalesce() first")
        return _Values.apply(self) if self.requires_grad and _ag.is_grad_enabled() \
            else self._sp_values

    def crow_indices(self):
        _expect_layout(self, "crow_indices", sparse_csr)
        rows = self._sp_indices[0]
        counts = np.bincount(rows, minlength=self._sp_size[0])
        return _ag.from_numpy(np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))

    def col_indices(self):
        _expect_layout(self, "col_indices", sparse_csr)
        return _ag.from_numpy(self._sp_indices[1].copy())

    # ---- conversions
    def to_dense(self, dtype=None, *, masked_grad=None):
        if dtype is not None:
            if not isinstance(dtype, _ag.dtype):
                raise TypeError(f"to_dense(): argument 'dtype' (position 1) must be "
                                f"autograd_core.dtype, not {type(dtype).__name__}")
            raise RuntimeError("dtype argument is not supported by sparse_to_dense")
        return _ToDense.apply(self) if self.requires_grad and _ag.is_grad_enabled() \
            else _to_dense_raw(self)

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
        if layout is sparse_csr:
            return self.to_sparse_csr()
        if self._sp_layout is sparse_coo:
            if sparse_dim is not None and sparse_dim != self.sparse_dim():
                raise RuntimeError("sparse_to_sparse: conversion between sparse dims is not "
                                   "supported here")
            return self
        return _make(sparse_coo, self._sp_indices, self._sp_values, self._sp_size, True)

    def to_sparse_csr(self, dense_dim=None):
        if dense_dim is not None:
            if not isinstance(dense_dim, int) or isinstance(dense_dim, bool):
                raise TypeError(f"to_sparse_csr(): argument 'dense_dim' (position 1) must be "
                                f"int, not {type(dense_dim).__name__}")
            raise RuntimeError("coo_to_sparse_csr: conversion from Sparse to SparseCsr with "
                               "dense_dim argument given is not supported")
        if self._sp_layout is sparse_csr:
            return self
        if self.dim() != 2 or self.dense_dim():
            raise RuntimeError(f"to_sparse_csr: expected a 2-D tensor with no dense dims, got "
                               f"{self.dim()}-D")
        return _ToCsr.apply(self)

    def to_sparse_coo(self):
        return self.to_sparse()

    # ---- autograd-side plumbing
    def detach(self):
        return _make(self._sp_layout, self._sp_indices, self._sp_values, self._sp_size,
                     self._sp_coalesced)

    def detach_(self):
        Tensor.detach_(self)
        return self

    @property
    def data(self):
        return self.detach()

    @data.setter
    def data(self, value):
        Tensor.data.__set__(self, value)

    def clone(self, *, memory_format=None):
        out = _make(self._sp_layout, self._sp_indices.copy(), self._sp_values.clone(),
                    self._sp_size, self._sp_coalesced)
        if self.requires_grad and _ag.is_grad_enabled():
            return _MulScalar.apply(self, 1)
        return out

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, _ag.dtype):
                dtype = a
        if kwargs.get("layout") not in (None, self._sp_layout) or \
                kwargs.get("memory_format") is not None:
            raise RuntimeError("to(options) doesn't support converting to a different layout, "
                               "but got self.layout being " + _LAYOUT_NAMES[self._sp_layout] +
                               " and options.layout set as " + repr(kwargs.get("layout")))
        if dtype is None or dtype == self.dtype:
            return self
        return _make(self._sp_layout, self._sp_indices, self._sp_values.to(dtype), self._sp_size,
                     self._sp_coalesced)

    def double(self):
        return self.to(_ag.float64)

    def float(self):
        return self.to(_ag.float32)

    def half(self):
        return self.to(_ag.float16)

    def long(self):
        return self.to(_ag.int64)

    def int(self):
        return self.to(_ag.int32)

    def bool(self):
        return self.to(_ag.bool)

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            # (PyTorch's legacy sparse classes: these three dtypes only)
            name = self.dtype.name
            return "torch.sparse." + (_SCALAR_NAMES[name] + "Tensor" if name in (
                "float32", "float64", "int64") else "Tensor")
        return self.to(dtype)

    def cpu(self, *args, **kwargs):
        return self

    def coalesce_(self):
        raise _not_supported("coalesce_", self)

    # ---- arithmetic PyTorch supports on sparse tensors
    def __add__(self, other):
        return _add(self, other)

    def __radd__(self, other):
        if isinstance(other, Tensor):
            return _add(other, self)
        raise _not_supported("add.Tensor", self)

    def add(self, other, *, alpha=1):
        return _add(self, other, alpha)

    def __sub__(self, other):
        return _add(self, other, -1)

    def __rsub__(self, other):
        raise _not_supported("rsub.Tensor", self)

    def sub(self, other, *, alpha=1):
        return _add(self, other, -alpha)

    def add_(self, other, *, alpha=1):
        if not _is_sparse(other):
            raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                               "instead.")
        with _ag.no_grad():
            r = _add(self.detach(), other.detach(), alpha)
        self._sp_indices, self._sp_values = r._sp_indices, r._sp_values
        self._sp_coalesced = r._sp_coalesced
        return self

    def __mul__(self, other):
        s = _scalar_of(other)
        if s is None:
            if _is_sparse(other) and other._sp_size == self._sp_size:
                return _mul_sparse(self, other)
            raise _not_supported("mul.Tensor", self)
        return _MulScalar.apply(self, s)

    __rmul__ = __mul__
    mul = __mul__

    def mul_(self, other):
        s = _scalar_of(other)
        if s is None:
            raise _not_supported("mul_.Tensor", self)
        self._sp_values = self._sp_values * s
        return self

    def __truediv__(self, other):
        s = _scalar_of(other)
        if s is None:
            raise _not_supported("div.Tensor", self)
        return _DivScalar.apply(self, s)

    div = __truediv__

    def div_(self, other):
        s = _scalar_of(other)
        if s is None:
            raise _not_supported("div_.Tensor", self)
        self._sp_values = self._sp_values / s
        return self

    def __neg__(self):
        return _Neg.apply(self, None)

    neg = __neg__

    def zero_(self):
        self._sp_indices = np.zeros((self._sp_indices.shape[0], 0), dtype=np.int64)
        self._sp_values = _ag.zeros((0,) + tuple(self._sp_values.shape[1:]),
                                    dtype=self._sp_values.dtype)
        self._sp_coalesced = True
        return self

    def __matmul__(self, other):
        if isinstance(other, Tensor) and not _is_sparse(other) and other.dim() == 1:
            if self.dim() != 2 or self._sp_size[1] != other.shape[0]:
                raise RuntimeError(f"size mismatch, got input ({self._sp_size[0]}x"
                                   f"{self._sp_size[-1]}), vec ({other.shape[0]})")
            return _Mv.apply(self, other)
        return _mm(self, other)

    def __rmatmul__(self, other):
        return _mm(other, self)

    matmul = __matmul__
    mm = __matmul__

    def t(self):
        if self.dim() > 2 or self.sparse_dim() != self.dim():
            raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but "
                               f"got {self.sparse_dim()} sparse and {self.dense_dim()} dense "
                               f"dimensions")
        if self.dim() < 2:
            return self
        return self.transpose(0, 1)

    def transpose(self, dim0, dim1):
        _expect_layout(self, "transpose", sparse_coo) if self._sp_layout is not sparse_coo else None
        n = self.dim()
        d0, d1 = _wrap_dim(dim0, n), _wrap_dim(dim1, n)
        if d0 >= self.sparse_dim() or d1 >= self.sparse_dim():
            raise RuntimeError("transpose: only the sparse dims of a sparse tensor can be "
                               "transposed here")
        if d0 == d1:
            return self
        if self.requires_grad and _ag.is_grad_enabled():
            return _Transpose.apply(self, d0, d1)
        return _transpose_raw(self, d0, d1)

    def sparse_mask(self, mask):
        raise _not_supported("sparse_mask", self)

    def sum(self, dim=None, keepdim=False, dtype=None):
        if dim is None:
            return _SparseSumAll.apply(self)
        raise _not_supported("sum.dim_IntList", self)

    # ---- what no sparse op can do
    def numpy(self, *, force=False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() "
                        "first.")

    def __array__(self, dtype=None, copy=None):
        return self.numpy()

    def tolist(self):
        raise _not_supported("tolist", self)

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to "
                               f"Scalar")
        return self.to_dense().item()

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def data_ptr(self):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def storage(self):
        raise NotImplementedError("Cannot access storage of SparseTensorImpl")

    untyped_storage = storage

    def stride(self, dim=None):
        # PyTorch reports zero strides for a sparse COO tensor
        if self._sp_layout is sparse_csr:
            raise RuntimeError("Sparse CSR tensors do not have strides")
        if dim is None:
            return (0,) * self.dim()
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise TypeError(f"stride(): argument 'dim' (position 1) must be int, not "
                            f"{type(dim).__name__}")
        _wrap_dim(dim, self.dim())
        return 0

    def is_shared(self):
        raise NotImplementedError("Cannot access storage of SparseTensorImpl")

    def is_contiguous(self, memory_format=None):
        raise RuntimeError("Sparse tensors do not have is_contiguous")

    def contiguous(self, memory_format=None):
        raise RuntimeError("unsupported memory format option Contiguous")

    def reshape(self, *shape):
        raise RuntimeError("reshape is not implemented for sparse tensors")

    def __reduce_ex__(self, proto):
        return (_rebuild_sparse, (self._sp_layout.name, self._sp_indices, self._sp_values,
                                  self._sp_size, self._sp_coalesced, self.requires_grad))

    def __deepcopy__(self, memo):
        out = _make(self._sp_layout, self._sp_indices.copy(), self._sp_values.clone(),
                    self._sp_size, self._sp_coalesced)
        if self.requires_grad:
            out.requires_grad_(True)
        memo[id(self)] = out
        return out

    def __repr__(self, *, tensor_contents=None):
        return _repr(self)

    __str__ = __repr__

    def __format__(self, spec):
        return format(repr(self), spec)

    def __hash__(self):
        return id(self)


def _mul_sparse_raw(a, b):
    """a * b for two sparse COO tensors of one size, as PyTorch's CPU kernel: the entries
    of the operand with fewer (a on a tie), as they are stored, times the other's
    (summed) value there (0 where it specifies none)."""
    with _ag.no_grad():
        it, other = (a, b) if a._nnz() <= b._nnz() else (b, a)
        vals = it._sp_values * _values_at(other.coalesce(), it)
        return _like(it, vals, False)


class _MulSparse(_Function):
    """sparse * sparse with PyTorch's derivative: grad * other for each operand, on the
    operand's own pattern (the product had no history: its operands got no gradient)."""
    @staticmethod
    def forward(ctx, a, b):
        ctx.a, ctx.b = _like(a, a._sp_values), _like(b, b._sp_values)
        return _mul_sparse_raw(a, b)

    @staticmethod
    def backward(ctx, grad):
        ga = _mul_sparse_raw(_grad_for(ctx.a, grad), ctx.b) if ctx.needs_input_grad[0] else None
        gb = _mul_sparse_raw(_grad_for(ctx.b, grad), ctx.a) if ctx.needs_input_grad[1] else None
        return ga, gb


_named(_MulSparse, "MulBackward0")


def _mul_sparse(a, b):
    return _MulSparse.apply(a, b)


def _rebuild_sparse(layout_name, indices, values, size, coalesced, requires_grad):
    lay = {"sparse_coo": sparse_coo, "sparse_csr": sparse_csr}[layout_name]
    t = _make(lay, indices, values, size, coalesced)
    if requires_grad:
        t.requires_grad_(True)
    return t


# ---------------------------------------------------------------- printing

def _body(arr, indent):
    """The bracketed values of arr as PyTorch's _tensor_str prints them at indent."""
    opts = _tensor_str._OPTS
    if arr.size == 0:
        return "[]"
    summarize = arr.size > opts.threshold
    values = _tensor_str._summarized_values(arr) if summarize else arr.reshape(-1)
    return _tensor_str._nested_str(arr, indent, summarize, _tensor_str._formatter(values))


def _repr(t):
    prefix = "tensor("
    indent = len(prefix)
    dname = repr(t.dtype).split(".")[-1]
    default = _ag.get_default_dtype()
    suffixes = [f"size={t._sp_size}", f"nnz={t._nnz()}"]
    dsuffix = None
    if t.dtype not in (default, _ag.int64, _ag.bool) and not (
            t.dtype.is_complex and t.dtype == (_ag.complex128 if default == _ag.float64
                                               else _ag.complex64)):
        dsuffix = f"dtype=autograd_core.{dname}"
        suffixes.append(dsuffix)
    values = _np(t._sp_values)
    if t._sp_layout is sparse_coo:
        parts = [("indices=tensor(", t._sp_indices), ("values=tensor(", values)]
    else:
        parts = [("crow_indices=tensor(", _np(t.crow_indices())),
                 ("col_indices=tensor(", t._sp_indices[1]), ("values=tensor(", values)]
    chunks = []
    for p, arr in parts:
        s = _body(arr, indent + len(p))
        if arr.size == 0:
            s += f", size={tuple(arr.shape)}"
        chunks.append(p + s + ")")
    body = (",\n" + " " * indent).join(chunks)
    suffixes.append(f"layout=autograd_core.{t._sp_layout.name}")
    gf = t.grad_fn
    if gf is not None:
        suffixes.append(f"grad_fn=<{type(gf).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    # lengths as PyTorch's ("torch." is 4 characters shorter than "autograd_core.")
    pairs = [(s, len(s.replace("autograd_core.", "torch."))) for s in suffixes]
    return _tensor_str._add_suffixes(prefix + body, pairs, indent,
                                     force_newline=t._sp_layout is sparse_coo)


# ---------------------------------------------------------------- the refusal of every other op

# Tensor attributes that only read metadata, or that go through the autograd core without
# touching values: inherited as they are.
_SAFE = {
    "shape", "size", "dim", "ndim", "ndimension", "dtype", "device", "requires_grad",
    "requires_grad_", "grad", "grad_fn", "is_leaf", "backward", "register_hook", "retain_grad",
    "retains_grad", "is_floating_point", "is_complex", "numel", "nelement", "element_size",
    "itemsize", "__len__", "_version", "is_cuda", "is_cpu", "is_meta", "is_quantized",
    "output_nr", "name", "names", "get_device", "is_mkldnn", "is_mps", "is_xpu", "is_nested",
    "is_inference", "is_signed", "_is_view", "_base", "register_post_accumulate_grad_hook",
    "grad_dtype", "_grad_fn", "dim_order", "_backward_hooks", "_post_accumulate_grad_hooks",
    "__class__", "__new__", "__init__", "__getattribute__", "__setattr__", "__delattr__",
    "__dir__", "__sizeof__", "__init_subclass__", "__subclasshook__", "__doc__", "__module__",
    "__dict__", "__weakref__", "__torch_function__", "__reduce__", "__eq__", "__ne__",
    "__lt__", "__le__", "__gt__", "__ge__", "is_pinned", "is_sparse", "is_sparse_csr",
    "layout", "__cuda_array_interface__", "__array_priority__", "_agc_sparse",
}


def _refusal(name):
    aten = name.strip("_") if name.startswith("__") else name

    def refuse(self, *args, **kwargs):
        raise _not_supported(aten, self)
    refuse.__name__ = name
    return refuse


def _install_refusals():
    own = set(SparseTensor.__dict__)
    for name in dir(Tensor):
        if name in own or name in _SAFE:
            continue
        attr = getattr(Tensor, name, None)
        if isinstance(attr, property) or type(attr).__name__ == "getset_descriptor":
            setattr(SparseTensor, name, property(_refusal(name)))
        elif callable(attr):
            setattr(SparseTensor, name, _refusal(name))


_install_refusals()
# the comparisons are Tensor methods PyTorch refuses on sparse operands too
for _n in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(SparseTensor, _n, _refusal({"__eq__": "eq.Tensor", "__ne__": "ne.Tensor",
                                        "__lt__": "lt.Tensor", "__le__": "le.Tensor",
                                        "__gt__": "gt.Tensor", "__ge__": "ge.Tensor"}[_n]))
SparseTensor.__hash__ = lambda self: id(self)


# ---------------------------------------------------------------- the namespace functions

def _dense_or_sparse_add(input, other, *, alpha=1, out=None):
    return _add(input, other, alpha)


def _dense_add_(self, other, *, alpha=1):
    """dense.add_(sparse): the sparse values scattered into self."""
    if _is_sparse(self):
        return self.add_(other, alpha=alpha)
    if tuple(self.shape) != other._sp_size:
        raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has "
                           f"size {list(self.shape)} while other has size {list(other._sp_size)} "
                           f"(FYI: dense-sparse addition does not currently support broadcasting)")
    if other.requires_grad and _ag.is_grad_enabled() or \
            (self.requires_grad and _ag.is_grad_enabled()):
        upd = _DenseAddSparse.apply(_ag.zeros_like(self), other, alpha)
        return Tensor.add_(self, upd)
    dense = _to_dense_raw(other)
    return Tensor.add_(self, dense, alpha=alpha)


def _sum(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return input.sum()
    raise _not_supported("sum.dim_IntList", input)


_FUNCTIONS = {
    "add": _dense_or_sparse_add,
    "add_": _dense_add_,
    "sub": lambda a, b, *, alpha=1, out=None: _add(a, b, -alpha),
    "mul": lambda a, b, *, out=None: (a * b) if _is_sparse(a) else (b * a if _scalar_of(a)
                                                                    is not None else
                                                                    _raise_mul(b)),
    "neg": lambda a, *, out=None: -a,
    "mm": lambda a, b, *, out=None: _mm(a, b),
    "spmm": lambda a, b: _mm(a, b),
    "mv": lambda a, b, *, out=None: a.__matmul__(b) if _is_sparse(a) else _raise_mul(b),
    "matmul": lambda a, b, *, out=None: a.__matmul__(b) if _is_sparse(a) else _mm(a, b),
    "addmm": lambda m, a, b, *, beta=1, alpha=1, out=None: _mm(a, b, "addmm", m, beta, alpha),
    "t": lambda a: a.t(),
    "transpose": lambda a, d0, d1: a.transpose(d0, d1),
    "to_dense": lambda a, dtype=None, *, masked_grad=None: a.to_dense(dtype),
    "sum": _sum,
    "clone": lambda a, *, memory_format=None: a.clone(),
    "detach": lambda a: a.detach(),
    "numel": lambda a: a.numel(),
    "is_floating_point": lambda a: a.is_floating_point(),
    "is_complex": lambda a: a.is_complex(),
    "zeros_like": lambda a, **kw: _make(a._sp_layout, np.zeros((a.sparse_dim(), 0), np.int64),
                                        _ag.zeros((0,) + tuple(a._sp_values.shape[1:]),
                                                  dtype=kw.get("dtype") or a.dtype),
                                        a._sp_size, True),
}


def _raise_mul(b):
    raise _not_supported("mul.Tensor", b)


# ---------------------------------------------------------------- dense Tensor methods

def _to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
    """This dense tensor as a sparse COO tensor (or CSR with layout=torch.sparse_csr); its
    first sparse_dim dims are sparse (all by default).

    >>> import autograd_core as torch
    >>> torch.tensor([[0., 1.], [2., 0.]]).to_sparse().indices()
    tensor([[0, 1],
            [1, 0]])
    """
    if layout is sparse_csr:
        return _to_sparse_csr(self)
    if layout not in (None, sparse_coo):
        raise RuntimeError(f"to_sparse: layout {layout!r} is not supported here")
    n = self.dim()
    if sparse_dim is None:
        sparse_dim = n
    if not 0 <= sparse_dim <= n:
        raise RuntimeError(f"dense_to_sparse: sparse_dim argument must be in [0,{n}] range, but "
                           f"{sparse_dim} is given")
    if self.requires_grad and _ag.is_grad_enabled():
        return _ToSparse.apply(self, sparse_coo, sparse_dim)
    idx, vals = _coo_from_dense_np(_np(self), sparse_dim)
    return _make(sparse_coo, idx, _from_np(vals.copy()), tuple(self.shape), True)


def _to_sparse_csr(self, dense_dim=None):
    """This 2-D dense tensor in CSR format.

    >>> import autograd_core as torch
    >>> torch.tensor([[0., 1.], [2., 0.]]).to_sparse_csr().crow_indices()
    tensor([0, 1, 2])
    """
    if self.dim() != 2:
        raise RuntimeError(f"to_sparse_csr: expected a 2-D tensor, got {self.dim()}-D (batched "
                           f"CSR tensors are not supported here)")
    return _ToCsr.apply(self)


def _dense_to_dense(self, dtype=None, *, masked_grad=None):
    """A strided tensor's to_dense(): itself (PyTorch's)."""
    return self if dtype is None else self.to(dtype)


def _dense_expect(name, want):
    def method(self, *args, **kwargs):
        _expect_layout(self, name, want)
    method.__name__ = name
    return method


def _dense_values(self):
    raise RuntimeError("values expected sparse tensor layout but got Strided")


def _dense_nnz(self):
    raise NotImplementedError(_BACKEND_MSG.replace("'SparseCPU'", "'CPU'").format("_nnz"))


def _dense_sparse_mask(self, mask):
    """The values of this dense tensor at the sparse mask's coordinates, as a sparse tensor
    with mask's indices.

    >>> import autograd_core as torch
    >>> m = torch.sparse_coo_tensor([[0], [1]], [1.], (2, 2))
    >>> torch.ones(2, 2).sparse_mask(m).values()
    tensor([1.])
    """
    if not _is_sparse(mask):
        raise RuntimeError("sparse_mask expects mask to be a sparse tensor")
    vals = _values_at(self, mask)
    return _like(mask, vals)


_core._install_methods({
    "to_sparse": _to_sparse,
    "to_sparse_coo": lambda self: _to_sparse(self),
    "to_sparse_csr": _to_sparse_csr,
    "to_dense": _dense_to_dense,
    "is_sparse": property(lambda self: False),
    "is_sparse_csr": property(lambda self: False),
    "indices": _dense_expect("indices", sparse_coo),
    "_indices": _dense_expect("_indices", sparse_coo),
    "coalesce": _dense_expect("coalesce", sparse_coo),
    "is_coalesced": _dense_expect("is_coalesced", sparse_coo),
    "crow_indices": _dense_expect("crow_indices", sparse_csr),
    "col_indices": _dense_expect("col_indices", sparse_csr),
    "values": _dense_values,
    "_values": _dense_values,
    "_nnz": _dense_nnz,
    "sparse_dim": lambda self: 0,
    "dense_dim": lambda self: self.dim(),
    "sparse_mask": _dense_sparse_mask,
})


# ---------------------------------------------------------------- gradient accumulation

def _accumulate(var, g):
    """The engine's hook (Note [Sparse gradients]): True when it has accumulated g into
    var.grad (PyTorch's AccumulateGrad rules for a sparse gradient or .grad); False to
    let the engine go on (neither is sparse)."""
    old = var.grad
    if not _is_sparse(g) and not _is_sparse(old):
        return False
    create_graph = _ag.is_grad_enabled()
    if old is None:
        # PyTorch keeps a sparse gradient with contiguous parts as it is, else a copy
        if _is_sparse(g) and not g._sp_values.is_contiguous():
            g = _make(g._sp_layout, g._sp_indices, g._sp_values.contiguous(), g._sp_size,
                      g._sp_coalesced)
        var.grad = g
        return True
    if _is_sparse(old) and _is_sparse(g):
        var.grad = old + g if create_graph else _add(old.detach(), g.detach())
        return True
    if _is_sparse(g):          # dense .grad += sparse gradient (in place, as PyTorch)
        if create_graph:
            var.grad = _add(old, g)
        else:
            _dense_add_(old, g.detach())
        return True
    # sparse .grad, dense gradient: the sum is dense
    var.grad = _add(g, old) if create_graph else _add(g.detach(), old.detach())
    return True


_core._set_sparse_accumulate(_accumulate)


# ---------------------------------------------------------------- sparse embedding gradients

class _EmbeddingSparse(_Function):
    @staticmethod
    def forward(ctx, weight, ids, padding_idx, scale_grad_by_freq):
        ctx.ids, ctx.padding_idx, ctx.scale = ids, padding_idx, scale_grad_by_freq
        ctx.shape = tuple(weight.shape)
        return _ag.embedding(weight.detach(), _from_np(ids), padding_idx, scale_grad_by_freq,
                             False)

    @staticmethod
    def backward(ctx, grad):
        if ctx.scale:
            raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse "
                               "gradients")
        ids = ctx.ids.reshape(-1)
        rows = grad.reshape(-1, ctx.shape[1])
        keep = ids != ctx.padding_idx
        if keep.all():
            # the gradient's rows as they are (a view of an expanded gradient keeps its
            # strides, which decide how PyTorch adds two such gradients)
            vals, kept = rows.detach(), ids
        else:
            vals, kept = _from_np(_np(rows)[keep]), ids[keep]
        return (_make(sparse_coo, kept.reshape(1, -1), vals, ctx.shape, len(kept) <= 1),
                None, None, None)


_named(_EmbeddingSparse, "EmbeddingBackward0")


def embedding_sparse(input, weight, padding_idx, scale_grad_by_freq):
    """F.embedding(..., sparse=True): the rows of weight, whose gradient is a sparse COO
    tensor with one row per looked-up index (padding_idx left out), as PyTorch's."""
    ids = _np(input).astype(np.int64)
    if not (weight.requires_grad and _ag.is_grad_enabled()):
        return _ag.embedding(weight, input, padding_idx, scale_grad_by_freq, False)
    return _EmbeddingSparse.apply(weight, ids, padding_idx, scale_grad_by_freq)


class _EmbeddingBagSparse(_Function):
    @staticmethod
    def forward(ctx, weight, per_sample_weights, run, ids, bags, scale, positions):
        ctx.ids, ctx.bags, ctx.scale, ctx.positions = ids, bags, scale, positions
        ctx.shape = tuple(weight.shape)
        ctx.weight = weight.detach()
        ctx.psw = None if per_sample_weights is None else per_sample_weights.detach()
        with _ag.no_grad():
            return run(weight.detach(), ctx.psw)

    @staticmethod
    def backward(ctx, grad):
        g = _np(grad)
        vals = g[ctx.bags] * ctx.scale[:, None].astype(g.dtype)
        gw = _make(sparse_coo, ctx.ids.reshape(1, -1), _from_np(vals.astype(g.dtype)),
                   ctx.shape, len(ctx.ids) <= 1) if ctx.needs_input_grad[0] else None
        gp = None
        if ctx.needs_input_grad[1]:
            w = _np(ctx.weight)
            per = (g[ctx.bags] * w[ctx.ids]).sum(axis=1)
            gp = _ag.zeros(ctx.psw.shape, dtype=grad.dtype).reshape(-1)
            flat = np.zeros(gp.shape[0], dtype=g.dtype)
            flat[ctx.positions] = per
            gp = _from_np(flat).reshape(ctx.psw.shape)
        return gw, gp, None, None, None, None, None


_named(_EmbeddingBagSparse, "EmbeddingBagBackward0")


def embedding_bag_sparse(weight, per_sample_weights, run, ids, positions, bags, scale):
    """F.embedding_bag(..., sparse=True): run(weight, per_sample_weights) computes the bags;
    the gradient of weight is a sparse COO tensor with one row per bag member in input
    order (ids), the bag's gradient times its scale (1/bag size for mean, the per-sample
    weight for sum), as PyTorch's."""
    psw = per_sample_weights
    if not ((weight.requires_grad or (psw is not None and psw.requires_grad))
            and _ag.is_grad_enabled()):
        return run(weight, psw)
    return _EmbeddingBagSparse.apply(weight, psw, run, ids, bags, scale, positions)


_core._set_sparse_type(SparseTensor)
