"""``torch.sparse``: operations on sparse COO/CSR tensors (Note [Sparse tensors] in
``autograd_core/_sparse.py``).

>>> import autograd_core as torch
>>> s = torch.sparse_coo_tensor([[0, 1], [1, 0]], [1., 2.], (2, 2))
>>> torch.sparse.mm(s, torch.ones(2, 1))
tensor([[1.],
        [2.]])
"""
import contextlib

import autograd_core as _ag
from autograd_core import _sparse
from autograd_core._sparse import SparseTensor as _SparseTensor

__all__ = ["addmm", "check_sparse_tensor_invariants", "log_softmax", "mm", "softmax", "sum"]


def _require_sparse(name, t):
    if not isinstance(t, _SparseTensor):
        raise _sparse._not_supported(name).__class__(
            f"Could not run 'aten::{name}' with arguments from the 'CPU' backend. This could be "
            f"because the operator doesn't exist for this backend, or was omitted during the "
            f"selective/custom build process (if using custom build). If you are a Facebook "
            f"employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
            f"possible resolutions.")


def mm(mat1, mat2, reduce="sum"):
    """Matrix product of a sparse mat1 and a dense (or sparse) mat2. The gradient of a
    sparse mat1 is sparse, with mat1's pattern (PyTorch's SparseAddmmBackward0).

    >>> import autograd_core as torch
    >>> s = torch.sparse_coo_tensor([[0], [1]], [2.], (2, 2))
    >>> torch.sparse.mm(s, torch.tensor([[1.], [3.]]))
    tensor([[6.],
            [0.]])
    """
    if reduce != "sum":
        raise RuntimeError(f"torch.sparse.mm: reduce={reduce!r} is not supported here")
    if not isinstance(mat1, _SparseTensor):
        return _ag.mm(mat1, mat2)
    return _sparse._mm(mat1, mat2, "sparse")


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    """beta * mat + alpha * (mat1 @ mat2) for a sparse mat1 and dense mat and mat2; the
    gradient of mat1 is sparse (mat1's pattern).

    >>> import autograd_core as torch
    >>> s = torch.sparse_coo_tensor([[0], [1]], [2.], (2, 2))
    >>> torch.sparse.addmm(torch.ones(2, 1), s, torch.tensor([[1.], [3.]]))
    tensor([[7.],
            [1.]])
    """
    _require_sparse("_sparse_addmm", mat1)
    return _sparse._mm(mat1, mat2, "sparse", mat, beta, alpha)


def sum(input, dim=None, dtype=None):
    """Sum of a sparse tensor's values: a dense scalar with no dim, else a sparse tensor
    (dense when every sparse dim is reduced) without the summed dims.

    >>> import autograd_core as torch
    >>> s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
    >>> torch.sparse.sum(s)
    tensor(12.)
    """
    _require_sparse("_sparse_sum", input)
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        return _sparse._SparseSumAll.apply(input)
    dims = [dim] if isinstance(dim, int) else list(dim)
    n = input.dim()
    dims = sorted({_sparse._wrap_dim(d, n) for d in dims})
    return _sparse._SparseSumDims.apply(input, dims)


def _softmax(fn, name, input, dim, dtype):
    _require_sparse(name, input)
    if dtype is not None:
        input = input.to(dtype)
    d = _sparse._wrap_dim(dim, input.dim())
    if d >= input.sparse_dim():
        raise RuntimeError(f"{name}: a softmax over a dense dim of a hybrid sparse tensor is "
                           f"not supported here")
    return fn.apply(input, d)


def softmax(input, dim, *, dtype=None):
    """Softmax over dim of a sparse COO tensor's specified entries (the unspecified ones
    count as -inf, not 0); the result has the input's pattern.

    >>> import autograd_core as torch
    >>> s = torch.sparse_coo_tensor([[0, 0], [0, 2]], [1., 1.], (1, 3))
    >>> torch.sparse.softmax(s, 1).to_dense()
    tensor([[0.5000, 0.0000, 0.5000]])
    """
    return _softmax(_sparse._SparseSoftmax, "_sparse_softmax", input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    """log of :func:`softmax` over dim of a sparse COO tensor's specified entries.

    >>> import autograd_core as torch
    >>> s = torch.sparse_coo_tensor([[0, 0], [0, 2]], [1., 1.], (1, 3))
    >>> torch.sparse.log_softmax(s, 1).values()
    tensor([-0.6931, -0.6931])
    """
    return _softmax(_sparse._SparseLogSoftmax, "_sparse_log_softmax", input, dim, dtype)


class check_sparse_tensor_invariants(contextlib.ContextDecorator):
    """Checks the invariants of the sparse tensors constructed inside it (indices within
    size), as PyTorch's context manager; ``enable()``/``disable()``/``is_enabled()`` set
    and read the process-wide default.

    >>> import autograd_core as torch
    >>> torch.sparse.check_sparse_tensor_invariants.is_enabled()
    False
    """

    def __init__(self, enable=True):
        self.state = enable
        self.saved_state = None

    @staticmethod
    def is_enabled():
        return _sparse._INVARIANTS["enabled"]

    @staticmethod
    def enable():
        _sparse._INVARIANTS.update(enabled=True, explicit=True)

    @staticmethod
    def disable():
        _sparse._INVARIANTS.update(enabled=False, explicit=True)

    def __enter__(self):
        self.saved_state = _sparse._INVARIANTS["enabled"]
        _sparse._INVARIANTS.update(enabled=self.state, explicit=True)
        return self

    def __exit__(self, *exc):
        _sparse._INVARIANTS.update(enabled=self.saved_state, explicit=True)
        return False
