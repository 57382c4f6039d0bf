# Reductions and linear algebra beyond sum/mean/max/matmul, each op with its backward
# node (PyTorch's names) and its derivative written in the library's own ops, so
# create_graph and higher orders work:
#
#   reductions  prod, elementwise max/min (maximum/minimum), amax/amin, argmax/argmin,
#               var/std, logsumexp, norm (linalg.vector_norm / matrix_norm / norm),
#               cumsum/cumprod, all/any
#   linalg      bmm, dot, mv, outer/ger, addmm, einsum, tensordot, trace, diag,
#               tril/triu, linalg.inv/inverse, linalg.det/det, linalg.solve, and an
#               internal SVD (LinalgSvdBackward0) for the matrix 2-norm and nuclear norm
#
# Note: this module defines torch-like functions named max, min, sum, abs, pow (and
# all_/any_): the Python builtins of those names are not usable in this file.

# ================================================================ shared helpers

cdef tuple _rl_all_dims(Py_ssize_t nd):
    return tuple(range(nd))


cdef bint _rl_is_empty_dims(object dim):
    return isinstance(dim, (tuple, list)) and len(dim) == 0


cdef tuple _rl_dims(object dim, Py_ssize_t nd):
    """A reduction's dims (sorted, non-negative); None or () mean all dims."""
    if dim is None or _rl_is_empty_dims(dim):
        return _rl_all_dims(nd)
    if nd == 0:
        if isinstance(dim, (tuple, list)):
            seen = set()
            for d in dim:
                w = _wrap_dim(d, 0)
                if w in seen:
                    raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
                seen.add(w)
        else:
            _wrap_dim(dim, 0)
        return ()
    return _normalize_dims(dim, nd)


cdef list _rl_given_dims(object dim, Py_ssize_t nd):
    """(wrapped, as given) for each dim of a dim argument (error messages quote the
    user's spelling)."""
    if dim is None or _rl_is_empty_dims(dim):
        return [(k, k) for k in range(nd)]
    items = dim if isinstance(dim, (tuple, list)) else (dim,)
    return [(_wrap_dim(d, nd if nd else 1) if nd else 0, d) for d in items]


cdef object _rl_axis(tuple dims, Py_ssize_t nd):
    return dims if nd else None


cdef tuple _rl_kept_shape(tuple in_shape, tuple dims):
    shape = list(in_shape)
    for d in dims:
        shape[d] = 1
    return tuple(shape)


cdef Tensor _rl_unsqueeze_dims(Tensor g, tuple in_shape, tuple dims, bint keepdim):
    """A reduction's output (or gradient) with the reduced dims restored as size 1."""
    if keepdim or len(in_shape) == 0:
        return g
    return _reshape(g, _rl_kept_shape(in_shape, dims))


cdef inline Tensor _rl_sub(Tensor a, Tensor b):
    return _binary_record(AGC_SUB, a, b, 1)


cdef inline Tensor _rl_abs(Tensor x):
    """|x| as sgn(x) * x: differentiable to any order."""
    return _mul(_rl_sgn(x), x)


cdef inline Tensor _rl_mT(Tensor x):
    return _transpose(x, -2, -1)


cdef inline Tensor _rl_cast_if(Tensor x, dtype d):
    return x if _dtype_of(x._data) is d else _cast(x, d)


cdef Tensor _rl_flip(Tensor x, Py_ssize_t dim):
    """x reversed along dim (an indexing copy, differentiable)."""
    cdef Py_ssize_t n = _shp(x._data)[dim]
    return _index_recorded(x, (slice(None),) * dim + (np.arange(n - 1, -1, -1),), True)


cdef Tensor _rl_narrow(Tensor x, Py_ssize_t dim, Py_ssize_t start, Py_ssize_t length):
    return _index_values_recorded(x, (slice(None),) * dim + (slice(start, start + length),))


cdef class _RlSgnNode(Node):
    """sign(x): its derivative is zero (PyTorch's SgnBackward0 for real inputs)."""
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        return (_zeros(_shp(g._data), _dtype_of(g._data)),)


_RlSgnBackward0 = type("SgnBackward0", (_RlSgnNode,), {"__slots__": ()})


cdef Tensor _rl_sgn(Tensor x):
    """x.sgn(), recorded (a formula using it keeps requires_grad, as PyTorch's do)."""
    cdef Tensor r = _make(_as_array(np.sign(x._data)))
    if _grad_on() and x._requires_grad:
        _record1(<Node>_RlSgnBackward0.__new__(_RlSgnBackward0), r, x)
    return r


cdef inline object _acc_dtype(dtype d):
    """numpy dtype to accumulate a cumulative float reduction in (float64 then rounded
    reproduces PyTorch's float32 cumsum/cumprod; its prod/norm match numpy's own loops)."""
    return np.float64 if d.category == 2 else d.np_dtype


cdef Tensor _rl_scalar_like(object value, Tensor like):
    return _make(np.asarray(value, dtype=like._data.dtype))


cdef str _rl_fmt_number(object v):
    """A number as PyTorch's C++ Scalar prints it (3.0 -> '3', inf -> 'inf')."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    f = float(v)
    if f != f:
        return "nan"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    if f == int(f) and _rl_abs_double(f) < 1e16:
        return str(int(f))
    return repr(f)


cdef inline double _rl_abs_double(double f):
    return -f if f < 0 else f


cdef Tensor _inplace_unary_op(Tensor self, object fn, bint other_grad=False):
    """self.op_(): fn(tensor) -> result; PyTorch's in-place rules (leaf checks, version
    bump, history rebase), as _inplace_binary."""
    _check_inplace(self)
    cdef Tensor r
    if _grad_on() and (self._requires_grad or other_grad or
                       (self._base is not None and self._base._requires_grad)):
        r = fn(_snapshot(self))
        if _shp(r._data) != _shp(self._data):
            raise RuntimeError(
                f"output with shape {_shape_str(_shp(self._data))} doesn't match the broadcast "
                f"shape {_shape_str(_shp(r._data))}")
        if r._data.dtype != self._data.dtype:
            r = _cast(r, _dtype_of(self._data))
        return _rebase_history(self, r)
    r = fn(_make(self._data))
    if _shp(r._data) != _shp(self._data):
        raise RuntimeError(
            f"output with shape {_shape_str(_shp(self._data))} doesn't match the broadcast "
            f"shape {_shape_str(_shp(r._data))}")
    _write_values(self, r._data)
    _bump_version(self)
    return self


# ================================================================ prod

cdef class ProdBackward0(_SavedNode):
    """prod() of all elements."""
    cdef dtype out_dtype

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = _rl_cast_if(self.input(), self.out_dtype)
        r = self.output()
        return (_prod_backward(g, x, r),)


cdef class ProdBackward1(_SavedNode):
    """prod(dim)."""
    cdef Py_ssize_t dim
    cdef bint keepdim
    cdef dtype out_dtype

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = _rl_cast_if(self.input(), self.out_dtype)
        r = self.output()
        if cnp.PyArray_NDIM(x._data) == 0:
            return (g,)
        if not self.keepdim:
            g = _unsqueeze(g, self.dim)
            r = _unsqueeze(r, self.dim)
        if not (x._data == 0).any():
            return (_mul(g, _div(r, x)),)
        return (_prod_safe_zeros_backward(g, x, self.dim),)


cdef Tensor _prod_backward(Tensor g, Tensor x, Tensor r):
    """PyTorch's prod_backward: result / input, or products of the other elements
    where the input has zeros."""
    if cnp.PyArray_NDIM(x._data) == 0:
        return g
    cdef Py_ssize_t nzero = np.count_nonzero(x._data == 0)
    if nzero == 0:
        return _mul(g, _div(r, x))
    if nzero > 1 and not _grad_on():
        return _zeros(_shp(x._data), _dtype_of(g._data))
    return _reshape(_prod_safe_zeros_backward(g, _reshape(x, (-1,)), 0), _shp(x._data))


cdef Tensor _prod_safe_zeros_backward(Tensor g, Tensor inp, Py_ssize_t dim):
    """g times the product of all other elements along dim (exclusive cumprods from
    both ends; no division, so zeros are handled)."""
    cdef tuple shape = _shp(inp._data)
    if cnp.PyArray_SIZE(inp._data) == 0:
        return _expand(g, shape)
    cdef Py_ssize_t n = shape[dim]
    if n == 1:
        return g
    ones = _make(np.ones(_rl_kept_shape(shape, (dim,)), dtype=inp._data.dtype))
    excl_normal = _cumprod(cat([ones, _rl_narrow(inp, dim, 0, n - 1)], dim), dim, None)
    rest = _rl_flip(_rl_narrow(inp, dim, 1, n - 1), dim)
    excl_reverse = _rl_flip(_cumprod(cat([ones, rest], dim), dim, None), dim)
    return _mul(g, _mul(excl_normal, excl_reverse))


cdef Tensor _prod(Tensor x, object dim, bint keepdim, object dtype_arg):
    cdef dtype d = _dtype_of(x._data)
    cdef dtype od
    if dtype_arg is not None:
        od = _to_dtype(dtype_arg)
    else:
        od = d if d.category == 2 else int64
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data), dd = 0
    cdef cnp.ndarray xa = _cast_array(x._data, od)
    cdef Tensor r
    if dim is None:
        with _quiet():
            r = _make(_as_array(np.prod(xa, dtype=od.np_dtype)))
    else:
        if isinstance(dim, (tuple, list)):
            raise TypeError(
                "prod() received an invalid combination of arguments - got (tuple), but "
                "expected one of:\n * (*, torch.dtype dtype = None)\n * (int dim, bool "
                "keepdim = False, *, torch.dtype dtype = None)\n")
        dd = _wrap_dim(dim, nd)
        with _quiet():
            r = _make(_as_array(np.prod(xa, axis=dd if nd else None, keepdims=keepdim,
                                        dtype=od.np_dtype)))
    if not (_grad_on() and x._requires_grad and od.category == 2):
        return r
    cdef _SavedNode node
    if dim is None:
        node = <ProdBackward0>ProdBackward0.__new__(ProdBackward0)
        (<ProdBackward0>node).out_dtype = od
    else:
        node = <ProdBackward1>ProdBackward1.__new__(ProdBackward1)
        (<ProdBackward1>node).dim = dd
        (<ProdBackward1>node).keepdim = keepdim
        (<ProdBackward1>node).out_dtype = od
    node.self_ = x
    node.self_version = _version_for_save(x)
    _save_own_output(node, r)
    _record1(node, r, x)
    if od is not d:
        node.input_shapes = ((_shp(x._data), d),)
    return r


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Product of all elements, or along dim.

    >>> import autograd_core as torch
    >>> torch.prod(torch.tensor([[1., 2.], [3., 4.]]), 1)
    tensor([ 2., 12.])
    """
    return _prod(_arg(input, "prod"), dim, keepdim, dtype)


@_tensor_method("prod")
def _tensor_prod(self, dim=None, keepdim=False, *, dtype=None):
    return _prod(self, dim, keepdim, dtype)


# ================================================================ elementwise max / min

cdef class _MaxMinBackward(_BinaryNode):
    """max(a, b) / min(a, b): PyTorch's MaximumBackward0 / MinimumBackward0 (the classes
    are made with type() so that they don't clash with the elementwise part's)."""
    cdef bint is_max

    cdef tuple apply(self, tuple grads):
        return _maximum_minimum_backward(self, grads[0], self.is_max)


_RlMaximumBackward0 = type("MaximumBackward0", (_MaxMinBackward,), {"__slots__": ()})
_RlMinimumBackward0 = type("MinimumBackward0", (_MaxMinBackward,), {"__slots__": ()})


cdef tuple _maximum_minimum_backward(_BinaryNode node, Tensor g, bint is_max):
    """Ties share the gradient (half each); NaN positions pass it to both (PyTorch)."""
    a = _unpack(node, node.self_, node.self_version)
    b = _unpack(node, node.other, node.other_version)
    av, bv = np.broadcast_arrays(a._data, b._data)
    z = _zeros((), _dtype_of(g._data))
    half = _where(av == bv, _div_scalar(g, 2), g)
    ga = gb = None
    if _needs(node, 0):
        ga = _where((av < bv) if is_max else (av > bv), z, half)
    if _needs(node, 1):
        gb = _where((av > bv) if is_max else (av < bv), z, half)
    return (ga, gb)


cdef Tensor _maximum_minimum(Tensor a, Tensor b, bint is_max):
    """max(a, b) / min(a, b) elementwise: torch.maximum / torch.minimum."""
    cdef dtype rt = _result_type2(a, b)
    try:
        with _quiet():
            out = (np.maximum if is_max else np.minimum)(_cast_array(a._data, rt),
                                                          _cast_array(b._data, rt))
    except ValueError:
        raise _broadcast_error(_shp(a._data), _shp(b._data)) from None
    cdef Tensor r = _make(_as_array(out))
    cdef _MaxMinBackward node
    if _grad_on() and (a._requires_grad or b._requires_grad) and rt.category == 2:
        cls = _RlMaximumBackward0 if is_max else _RlMinimumBackward0
        node = <_MaxMinBackward>cls.__new__(cls)
        node.is_max = is_max
        _save_operands(node, a, b, True, True)
        _record2(node, r, a, b)
        ma = _meta_if_differs(a, r._data)
        mb = _meta_if_differs(b, r._data)
        if ma is not None or mb is not None:
            node.input_shapes = (ma, mb)
    return r


# ================================================================ amax / amin

cdef class AmaxBackward0(_SavedNode):
    """The gradient is shared evenly among the positions equal to the result."""
    cdef tuple dims
    cdef bint keepdim

    cdef tuple apply(self, tuple grads):
        x = self.input()
        r = self.output()
        cdef tuple shape = _shp(x._data)
        g = _rl_unsqueeze_dims(grads[0], shape, self.dims, self.keepdim)
        rr = r._data if (self.keepdim or not shape) else r._data.reshape(_rl_kept_shape(shape, self.dims))
        mask = rr == x._data
        count = mask.sum(axis=_rl_axis(self.dims, len(shape)), keepdims=True)
        dt = g._data.dtype
        return (_mul(_div(g, _make(np.asarray(count, dtype=dt))), _make(np.asarray(mask, dtype=dt))),)


cdef class AminBackward0(AmaxBackward0):
    pass


cdef Tensor _amax_amin(Tensor x, object dim, bint keepdim, bint is_max):
    cdef str name = "amax" if is_max else "amin"
    cdef cnp.ndarray xa = x._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    cdef bint full = dim is None or _rl_is_empty_dims(dim)
    cdef tuple dims = _rl_dims(dim, nd)
    if cnp.PyArray_SIZE(xa) == 0:
        if full:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        for d, given in _rl_given_dims(dim, nd):
            if nd and _shp(xa)[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {given} to have non-zero size.")
    with _quiet():
        out = (np.amax if is_max else np.amin)(xa, axis=_rl_axis(dims, nd), keepdims=keepdim)
    cdef Tensor r = _make(_as_array(out))
    if _grad_on() and x._requires_grad:
        node = <AmaxBackward0>(AmaxBackward0.__new__(AmaxBackward0) if is_max
                               else AminBackward0.__new__(AminBackward0))
        node.dims = dims
        node.keepdim = keepdim
        node.self_ = x
        node.self_version = _version_for_save(x)
        _save_own_output(node, r)
        _record1(node, r, x)
    return r


def amax(input, dim=(), keepdim=False):
    """Largest values over dim (all dims by default); ties share the gradient.

    >>> import autograd_core as torch
    >>> torch.amax(torch.tensor([[1., 5.], [7., 2.]]), 1)
    tensor([5., 7.])
    """
    return _amax_amin(_arg(input, "amax"), dim, keepdim, True)


def amin(input, dim=(), keepdim=False):
    """Smallest values over dim (all dims by default); ties share the gradient.

    >>> import autograd_core as torch
    >>> torch.amin(torch.tensor([[1., 5.], [7., 2.]]), 0)
    tensor([1., 2.])
    """
    return _amax_amin(_arg(input, "amin"), dim, keepdim, False)


@_tensor_method("amax")
def _tensor_amax(self, dim=(), keepdim=False):
    return _amax_amin(self, dim, keepdim, True)


@_tensor_method("amin")
def _tensor_amin(self, dim=(), keepdim=False):
    return _amax_amin(self, dim, keepdim, False)


# ================================================================ argmax / argmin

cdef Tensor _argmax_argmin(Tensor x, object dim, bint keepdim, bint is_max):
    cdef str name = "argmax" if is_max else "argmin"
    cdef cnp.ndarray xa = x._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa), d
    if _dtype_of(xa).category == 0:
        raise RuntimeError(f"{name}(): does not support bool input")
    fn = np.argmax if is_max else np.argmin
    if dim is None:
        if cnp.PyArray_SIZE(xa) == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        out = np.asarray(fn(xa), dtype=np.int64)
        if keepdim:
            out = out.reshape((1,) * nd)
        return _make(out)
    d = _wrap_dim(dim, nd)
    if nd == 0:
        return _make(np.zeros((), dtype=np.int64))
    if _shp(xa)[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return _make(_as_array(fn(xa, axis=d, keepdims=keepdim)).astype(np.int64, copy=False))


def argmax(input, dim=None, keepdim=False):
    """Index of the largest element (of the flattened input, or along dim).

    >>> import autograd_core as torch
    >>> torch.argmax(torch.tensor([[1., 5.], [7., 2.]]), dim=1)
    tensor([1, 0])
    """
    return _argmax_argmin(_arg(input, "argmax"), dim, keepdim, True)


def argmin(input, dim=None, keepdim=False):
    """Index of the smallest element (of the flattened input, or along dim).

    >>> import autograd_core as torch
    >>> torch.argmin(torch.tensor([[1., 5.], [7., 2.]]))
    tensor(0)
    """
    return _argmax_argmin(_arg(input, "argmin"), dim, keepdim, False)


@_tensor_method("argmax")
def _tensor_argmax(self, dim=None, keepdim=False):
    return _argmax_argmin(self, dim, keepdim, True)


@_tensor_method("argmin")
def _tensor_argmin(self, dim=None, keepdim=False):
    return _argmax_argmin(self, dim, keepdim, False)


# ================================================================ var / std

cdef class VarBackward0(_SavedNode):
    cdef object dims          # None: no dim argument (reduce all); else the reduced dims
    cdef bint keepdim
    cdef object correction

    cdef tuple apply(self, tuple grads):
        return (_var_backward(grads[0], self.input(), self.dims, self.correction, self.keepdim),)


cdef class StdBackward0(VarBackward0):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        r = self.output()
        gv = _where(r._data == 0, _zeros((), _dtype_of(g._data)), _div(g, _mul_scalar(r, 2)))
        return (_var_backward(gv, self.input(), self.dims, self.correction, self.keepdim),)


cdef object _rl_two_over(object dof):
    """2 / dof as C++ doubles divide (2 / 0 is inf)."""
    if dof == 0:
        return float("inf")
    return 2.0 / dof


cdef Tensor _var_backward(Tensor g, Tensor x, object dims, object correction, bint keepdim):
    """PyTorch's var_backward: 2 / (N - correction) * grad * (x - mean)."""
    cdef tuple shape = _shp(x._data)
    cdef Py_ssize_t nd = len(shape)
    if nd == 0 or dims is None:
        dof = cnp.PyArray_SIZE(x._data) - correction
        if dof <= 0:
            m = np.mean(x._data) if cnp.PyArray_SIZE(x._data) else np.nan
            with _quiet():
                fill = np.where(x._data == m, np.nan, np.inf).astype(x._data.dtype)
            return _mul(g, _make(_as_array(fill)))
        return _mul(_mul_scalar(g, _rl_two_over(dof)), _rl_sub(x, _mean(x, None, False, None)))
    cdef tuple dd = <tuple>dims      # () when dim=() was given: PyTorch then uses N = 1
    if not keepdim and nd > 1 and dd:
        g = _reshape(g, _rl_kept_shape(shape, dd))
    rnumel = 1
    for k in dd:
        rnumel *= shape[k]
    return _mul(_mul_scalar(g, _rl_two_over(rnumel - correction)),
                _rl_sub(x, _mean(x, dd, True, None)))


cdef Tensor _var_std(Tensor x, object dim, object unbiased, bint keepdim, object correction,
                     bint is_std):
    cdef str name = "std" if is_std else "var"
    if isinstance(dim, bool):          # var(input, unbiased)
        unbiased = dim
        dim = None
    if unbiased is not None and correction is not None:
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (correction="
            f"{type(correction).__name__}, unbiased=bool, ), but expected one of:\n"
            " * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
            " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)\n"
            " * (bool unbiased = True)\n")
    if correction is None:
        correction = 0 if (unbiased is not None and not unbiased) else 1
    cdef dtype d = _dtype_of(x._data)
    if d.category != 2:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    cdef cnp.ndarray xa = x._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    cdef tuple dims = _rl_dims(dim, nd)
    n = 1
    for k in dims:
        n *= _shp(xa)[k]
    if nd == 0:
        n = 1
    dof = n - correction
    if dof <= 0:
        warnings.warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than "
            "the reduction factor (input numel divided by output numel).", UserWarning,
            stacklevel=3)
    axis = _rl_axis(dims, nd)
    xa = xa.astype(np.float64)
    with _quiet():
        mean = np.mean(xa, axis=axis, keepdims=True)
        dev = xa - mean
        ss = np.sum(dev * dev, axis=axis, keepdims=keepdim)
        out = ss / (dof if dof > 0 else 0.0)
        if is_std:
            out = np.sqrt(out)
    cdef Tensor r = _make(_as_array(out).astype(d.np_dtype, copy=False))
    if _grad_on() and x._requires_grad:
        node = <VarBackward0>(StdBackward0.__new__(StdBackward0) if is_std
                              else VarBackward0.__new__(VarBackward0))
        node.dims = None if dim is None else (() if _rl_is_empty_dims(dim) else dims)
        node.keepdim = keepdim
        node.correction = correction
        node.self_ = x
        node.self_version = _version_for_save(x)
        if is_std:
            _save_own_output(node, r)
        _record1(node, r, x)
    return r


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """Variance over dim (all by default), with Bessel's correction unless
    ``unbiased=False`` / ``correction=0``.

    >>> import autograd_core as torch
    >>> torch.var(torch.tensor([1., 2., 3., 4.]))
    tensor(1.6667)
    """
    return _var_std(_arg(input, "var"), dim, unbiased, keepdim, correction, False)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """Standard deviation over dim (all by default); see var.

    >>> import autograd_core as torch
    >>> torch.std(torch.tensor([1., 3.]))
    tensor(1.4142)
    """
    return _var_std(_arg(input, "std"), dim, unbiased, keepdim, correction, True)


@_tensor_method("var")
def _tensor_var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _var_std(self, dim, unbiased, keepdim, correction, False)


@_tensor_method("std")
def _tensor_std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _var_std(self, dim, unbiased, keepdim, correction, True)


# ================================================================ logsumexp

cdef class LogsumexpBackward0(_SavedNode):
    cdef tuple dims
    cdef bint keepdim

    cdef tuple apply(self, tuple grads):
        x = self.input()
        r = self.output()
        cdef tuple shape = _shp(x._data)
        g = _rl_unsqueeze_dims(grads[0], shape, self.dims, self.keepdim)
        r = _rl_unsqueeze_dims(r, shape, self.dims, self.keepdim)
        return (_mul(g, _unary(_rl_sub(x, r), AGC_EXP)),)


cdef Tensor _logsumexp(Tensor x, object dim, bint keepdim):
    cdef cnp.ndarray xa = x._data
    if _dtype_of(xa).category != 2:
        xa = _cast_array(xa, _default_float)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    if _rl_is_empty_dims(dim) and nd and not keepdim and cnp.PyArray_SIZE(xa):
        # PyTorch reduces nothing, then fails to write the reduced result
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape "
                           f"[{', '.join(['1'] * nd)}]")
    cdef tuple dims = _rl_dims(dim, nd)
    axis = _rl_axis(dims, nd)
    rdt = xa.dtype
    cdef bint empty_reduce = False
    for k in dims:
        if _shp(xa)[k] == 0:
            empty_reduce = True
    with _quiet():
        if empty_reduce or cnp.PyArray_SIZE(xa) == 0:
            m = np.zeros(_rl_kept_shape(_shp(xa), dims), dtype=xa.dtype)
        else:
            m = np.amax(xa, axis=axis, keepdims=True)
            m = np.where(np.isinf(m), np.zeros((), dtype=xa.dtype), m)
        out = np.log(np.sum(np.exp(xa - m), axis=axis, keepdims=True)) + m
        if not keepdim and nd:
            out = np.squeeze(out, axis=dims)
        elif not keepdim:
            out = np.reshape(out, ())
    cdef Tensor r = _make(_as_array(out).astype(rdt, copy=False))
    if _grad_on() and x._requires_grad:
        node = <LogsumexpBackward0>LogsumexpBackward0.__new__(LogsumexpBackward0)
        node.dims = dims
        node.keepdim = keepdim
        node.self_ = x
        node.self_version = _version_for_save(x)
        _save_own_output(node, r)
        _record1(node, r, x)
    return r


def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(input), dim)), computed stably.

    >>> import autograd_core as torch
    >>> torch.logsumexp(torch.tensor([0., 0.]), 0)
    tensor(0.6931)
    """
    return _logsumexp(_arg(input, "logsumexp"), dim, keepdim)


@_tensor_method("logsumexp")
def _tensor_logsumexp(self, dim, keepdim=False):
    return _logsumexp(self, dim, keepdim)


# ================================================================ vector norms

cdef class LinalgVectorNormBackward0(_SavedNode):
    cdef object ord
    cdef tuple dims
    cdef bint keepdim
    cdef dtype out_dtype

    cdef tuple apply(self, tuple grads):
        x = _rl_cast_if(self.input(), self.out_dtype)
        return (_norm_backward(grads[0], x, self.ord, self.output(), self.dims, self.keepdim),)


cdef object _norm_backward(Tensor g, Tensor x, object ord, Tensor norm, tuple dims, bint keepdim):
    """PyTorch's norm_backward (zero where the norm is zero, per p)."""
    cdef tuple shape = _shp(x._data)
    cdef double p = float(ord)
    if p == 0.0:
        return None                  # PyTorch returns no gradient (an undefined tensor)
    g = _rl_unsqueeze_dims(g, shape, dims, keepdim)
    norm = _rl_unsqueeze_dims(norm, shape, dims, keepdim)
    z = _zeros((), _dtype_of(x._data))
    if p == 1.0:
        return _mul(_rl_sgn(x), g)
    if p == 2.0:
        return _mul(g, _where(norm._data == 0, z, _div(x, norm)))
    if p == float("inf") or p == float("-inf"):
        xabs = np.abs(x._data)
        mask = (xabs == norm._data) | np.isnan(xabs)
        count = mask.sum(axis=_rl_axis(dims, len(shape)), keepdims=True)
        dt = x._data.dtype
        return _mul(_rl_sgn(x), _mul(_div(g, _make(np.asarray(count, dtype=dt))), _make(np.asarray(mask, dtype=dt))))
    if p < 1.0:
        scaled = _mul(_rl_sgn(x), _where(x._data == 0, z, _pow_scalar(_rl_abs(x), p - 1)))
        return _mul(_mul(scaled, g), _pow_scalar(norm, 1 - p))
    scale_v = _where(norm._data == 0, z, _div(g, _pow_scalar(norm, p - 1)))
    if p < 2.0:
        return _mul(_mul(_rl_sgn(x), _pow_scalar(_rl_abs(x), p - 1)), scale_v)
    return _mul(_mul(x, _pow_scalar(_rl_abs(x), p - 2)), scale_v)


cdef dtype _rl_check_norm_dtype(object dtype_arg, dtype d, str fname):
    """PyTorch's check_linalg_norm_dtype: the dtype a norm computes in."""
    if dtype_arg is None:
        return d
    cdef dtype od = _to_dtype(dtype_arg)
    if od.category != 2:
        raise RuntimeError(f"{fname}: dtype should be floating point or complex, but got "
                           f"{_legacy_scalar_name(od)}")
    if od.rank < d.rank:
        raise RuntimeError(
            f"{fname}: the dtype of the input ({_legacy_scalar_name(d)}) should be convertible "
            f"without narrowing to the specified dtype ({_legacy_scalar_name(od)})")
    return od


cdef Tensor _vector_norm(Tensor x, object ord, object dim, bint keepdim, object dtype_arg):
    cdef str fname = "linalg.vector_norm"
    if isinstance(ord, str) or not _is_number(ord):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                        f"not {type(ord).__name__}")
    cdef dtype d = _dtype_of(x._data)
    if d.category != 2:
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. "
                           f"Got {_legacy_scalar_name(d)}")
    cdef dtype od = _rl_check_norm_dtype(dtype_arg, d, fname)
    cdef double p = float(ord)
    cdef cnp.ndarray xa = _cast_array(x._data, od)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    if isinstance(dim, int) and not isinstance(dim, bool):
        dim = (dim,)
    cdef tuple dims = _rl_dims(dim, nd)
    if cnp.PyArray_SIZE(xa) == 0 and (p < 0 or p == float("inf")):
        if dim is not None and not _rl_is_empty_dims(dim):
            for k, given in _rl_given_dims(dim, nd):
                if nd and _shp(xa)[k] == 0:
                    raise RuntimeError(
                        f"{fname} cannot compute the {_rl_fmt_number(ord)} norm on the dimension "
                        f"{given}because this dimension is empty and the operation does not have "
                        "an identity")
        else:
            raise RuntimeError(
                f"{fname} cannot compute the {_rl_fmt_number(ord)} norm on an empty tensor "
                "because the operation does not have an identity")
    axis = _rl_axis(dims, nd)
    with _quiet():
        a = np.abs(xa)
        if p == 0.0:
            out = np.sum(a != 0, axis=axis, keepdims=keepdim).astype(od.np_dtype)
        elif p == float("inf"):
            out = np.amax(a, axis=axis, keepdims=keepdim)
        elif p == float("-inf"):
            out = np.amin(a, axis=axis, keepdims=keepdim)
        elif p == 1.0:
            out = np.sum(a, axis=axis, keepdims=keepdim)
        elif p == 2.0:
            out = np.sqrt(np.sum(a * a, axis=axis, keepdims=keepdim))
        else:
            out = np.power(np.sum(np.power(a, p), axis=axis, keepdims=keepdim), 1.0 / p)
    if nd == 0 and keepdim:
        out = np.reshape(out, ())
    cdef Tensor r = _make(_as_array(out).astype(od.np_dtype, copy=False))
    if _grad_on() and x._requires_grad:
        node = <LinalgVectorNormBackward0>LinalgVectorNormBackward0.__new__(LinalgVectorNormBackward0)
        node.ord = ord
        node.dims = dims
        node.keepdim = keepdim
        node.out_dtype = od
        node.self_ = x
        node.self_version = _version_for_save(x)
        _save_own_output(node, r)
        _record1(node, r, x)
        if od is not d:
            node.input_shapes = ((_shp(x._data), d),)
    return r


# ================================================================ SVD (matrix 2-norm, nuclear norm, det)

cdef class LinalgSvdBackward0(Node):
    """A = U diag(S) Vh (reduced): three outputs; U and Vh stay internal unless asked."""
    cdef cnp.ndarray U
    cdef cnp.ndarray S
    cdef cnp.ndarray Vh
    cdef VersionCounter vc
    cdef long version

    cdef int num_outputs(self):
        return 3

    cdef void release_saved(self):
        self.U = None
        self.S = None
        self.Vh = None
        self.released = True

    cdef Tensor _output(self, int k, cnp.ndarray arr):
        if self.released:
            raise RuntimeError(_MSG_BACKWARD_TWICE)
        cdef Tensor t = _make(arr)
        if agc_grad_enabled():
            t._grad_fn = self
            t._output_nr = k
            t._requires_grad = True
        return t

    cdef tuple apply(self, tuple grads):
        if self.released:
            raise RuntimeError(_MSG_BACKWARD_TWICE)
        if self.vc is not None and self.vc.version != self.version:
            t = _make(self.S)
            t._vc = self.vc
            raise _modified_error(t, self.version, self, 1)
        U = self._output(0, self.U)
        S = self._output(1, self.S)
        Vh = self._output(2, self.Vh)
        return (_svd_backward(grads[0], grads[1], grads[2], U, S, Vh),)


cdef object _svd_backward(object gU, object gS, object gVh, Tensor U, Tensor S, Tensor Vh):
    """PyTorch's svd_backward for real inputs and reduced U, Vh (distinct singular values)."""
    if gU is None and gS is None and gVh is None:
        return None
    cdef Py_ssize_t m = _shp(U._data)[-2], n = _shp(Vh._data)[-1]
    if gU is None and gVh is None:
        if m >= n:
            return _matmul(U, _mul(_unsqueeze(<Tensor>gS, -1), Vh))
        return _matmul(_mul(U, _unsqueeze(<Tensor>gS, -2)), Vh)
    UhgU = VhgV = None
    if gU is not None:
        t = _matmul(_rl_mT(U), <Tensor>gU)
        UhgU = _rl_sub(t, _rl_mT(t))
    if gVh is not None:
        t = _matmul(Vh, _rl_mT(<Tensor>gVh))
        VhgV = _rl_sub(t, _rl_mT(t))
    S2 = _mul(S, S)
    cdef Py_ssize_t k = _shp(S._data)[-1]
    E = _where(np.eye(k, dtype=bool), _rl_scalar_like(1, S),
               _rl_sub(_unsqueeze(S2, -2), _unsqueeze(S2, -1)))
    if UhgU is not None and VhgV is not None:
        gA = _div(_add(_mul(UhgU, _unsqueeze(S, -2)), _mul(_unsqueeze(S, -1), VhgV)), E)
    elif UhgU is None:
        gA = _div(_mul(_unsqueeze(S, -1), VhgV), E)
    else:
        gA = _div(_mul(UhgU, _unsqueeze(S, -2)), E)
    if gS is not None:
        gA = _add(gA, _rl_diag_embed_last(<Tensor>gS))
    if m > n and gU is not None:
        gA = _matmul(U, gA)
        gUSinv = _div(<Tensor>gU, _unsqueeze(S, -2))
        gA = _rl_sub(_add(gA, gUSinv), _matmul(U, _matmul(_rl_mT(U), gUSinv)))
        gA = _matmul(gA, Vh)
    elif m < n and gVh is not None:
        gA = _matmul(gA, Vh)
        SinvgVh = _div(<Tensor>gVh, _unsqueeze(S, -1))
        gA = _rl_sub(_add(gA, SinvgVh), _matmul(_matmul(SinvgVh, _rl_mT(Vh)), Vh))
        gA = _matmul(U, gA)
    elif m >= n:
        gA = _matmul(U, _matmul(gA, Vh))
    else:
        gA = _matmul(_matmul(U, gA), Vh)
    return gA


cdef Tensor _rl_diag_embed_last(Tensor v):
    """Batches of diagonal matrices from the last dim of v (differentiable)."""
    cdef Py_ssize_t k = _shp(v._data)[-1]
    return _mul(_unsqueeze(v, -1), _make(np.eye(k, dtype=v._data.dtype)))


cdef void _rl_check_low_precision(Tensor A, str fname, bint lu=False) except *:
    cdef dtype d = _dtype_of(A._data)
    if d.category != 2:
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. "
                           f"Got {_legacy_scalar_name(d)}")
    if d.rank < float32.rank:
        if lu:   # det and solve reach PyTorch's LU kernel, which has no half version
            raise NotImplementedError(f"\"lu_cpu\" not implemented for '{_legacy_scalar_name(d)}'")
        raise RuntimeError(f"{fname}: Low precision dtypes not supported. Got {_legacy_scalar_name(d)}")


cdef tuple _linalg_svd(Tensor A, bint need_uv):
    """(U, S, Vh) of A (reduced); U and Vh are None when not needed and A needs no grad."""
    _rl_check_low_precision(A, "linalg.svd")
    cdef bint record = _grad_on() and A._requires_grad
    cdef Tensor s
    if not (record or need_uv):
        with _quiet():
            return (None, _make(_as_array(np.linalg.svd(A._data, compute_uv=False))), None)
    with _quiet():
        u, sv, vh = np.linalg.svd(A._data, full_matrices=False)
    cdef Tensor tu = _make(_as_array(u)), ts = _make(_as_array(sv)), tvh = _make(_as_array(vh))
    if record:
        node = <LinalgSvdBackward0>LinalgSvdBackward0.__new__(LinalgSvdBackward0)
        node.U = tu._data
        node.S = ts._data
        node.Vh = tvh._data
        node.vc = _vc_of(ts)
        node.version = node.vc.version
        _record1(node, ts, A)
        ts._output_nr = 1
        for k, t in ((0, tu), (2, tvh)):
            (<Tensor>t)._grad_fn = node
            (<Tensor>t)._output_nr = k
            (<Tensor>t)._requires_grad = True
    return (tu, ts, tvh)


cdef Tensor _svdvals(Tensor A):
    return <Tensor>_linalg_svd(A, False)[1]


# ================================================================ matrix norms

cdef tuple _rl_backshift_permutation(Py_ssize_t d0, Py_ssize_t d1, Py_ssize_t nd):
    perm = [k for k in range(nd) if k != d0 and k != d1]
    return tuple(perm + [d0, d1])


cdef tuple _rl_inverse_permutation(tuple perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


cdef Tensor _matrix_norm(Tensor A, object ord, object dim, bint keepdim, object dtype_arg):
    cdef str fname = "linalg.matrix_norm"
    cdef bint is_str = isinstance(ord, str)
    cdef double p = 0.0, absp = 0.0
    if is_str:
        if ord != "fro" and ord != "nuc":
            raise RuntimeError(f"{fname}: Order {ord} not supported.")
    else:
        p = float(ord)
        absp = -p if p < 0 else p
        if not (absp == 2.0 or absp == 1.0 or absp == float("inf")):
            raise RuntimeError(f"{fname}: Order {_rl_fmt_number(ord)} not supported.")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(A._data)
    if nd < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    cdef dtype d = _dtype_of(A._data)
    cdef bint low_ok = (is_str and ord == "fro") or (not is_str and absp != 2.0)
    if d.category != 2:
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. "
                           f"Got {_legacy_scalar_name(d)}")
    if not low_ok and d.rank < float32.rank:
        raise RuntimeError(f"{fname}: Low precision dtypes not supported. Got {_legacy_scalar_name(d)}")
    dims = list(dim)
    if len(dims) != 2:
        raise RuntimeError(f"{fname}: dim must be a 2-tuple. Got " + " ".join(str(x) for x in dims))
    cdef Py_ssize_t d0 = _wrap_dim(dims[0], nd), d1 = _wrap_dim(dims[1], nd)
    if d0 == d1:
        raise RuntimeError(f"{fname}: dims must be different. Got ({d0}, {d1})")
    cdef dtype od = _rl_check_norm_dtype(dtype_arg, d, fname)
    if is_str and ord == "fro":
        return _vector_norm(A, 2, (d0, d1), keepdim, dtype_arg)
    if not is_str and cnp.PyArray_SIZE(A._data) == 0 and p > 0 and absp != 1.0:
        # PyTorch: an empty matrix has 2- and inf-norm 0 (a constant, no history)
        shape = list(_shp(A._data))
        for k in sorted((d0, d1), reverse=True):
            if keepdim:
                shape[k] = 1
            else:
                del shape[k]
        return _zeros(tuple(shape), od)
    cdef tuple perm
    cdef Tensor r, A_
    if is_str or absp == 2.0:
        perm = _rl_backshift_permutation(d0, d1, nd)
        A_ = _rl_cast_if(A, od)
        sv = _svdvals(_permute(A_, perm))
        if is_str:
            r = _sum(sv, -1, keepdim, None)
        else:
            r = _amax_amin(sv, -1, keepdim, p > 0)
        if keepdim:
            r = _permute(_unsqueeze(r, -1), _rl_inverse_permutation(perm))
        return r
    if absp == float("inf"):
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    return _amax_amin(_vector_norm(A, 1.0, (d0,), keepdim, dtype_arg), d1, keepdim, p > 0)


def linalg_vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.vector_norm: the ord-norm of x's elements (over dim, or all).

    >>> import autograd_core as torch
    >>> torch.linalg.vector_norm(torch.tensor([3., 4.]))
    tensor(5.)
    """
    return _vector_norm(_arg(x, "linalg_vector_norm"), ord, dim, keepdim, dtype)


def linalg_matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """torch.linalg.matrix_norm: 'fro', 'nuc', or ord in 1, -1, 2, -2, inf, -inf.

    >>> import autograd_core as torch
    >>> torch.linalg.matrix_norm(torch.tensor([[3., 0.], [0., 4.]]), 'nuc')
    tensor(7.)
    """
    return _matrix_norm(_arg(A, "linalg_matrix_norm"), ord, dim, keepdim, dtype)


def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """torch.linalg.norm: a vector or a matrix norm depending on ord and dim.

    >>> import autograd_core as torch
    >>> torch.linalg.norm(torch.tensor([[1., 2.], [2., 4.]]))
    tensor(5.)
    """
    cdef Tensor x = _arg(A, "linalg_norm")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if isinstance(dim, int) and not isinstance(dim, bool):
        dim = (dim,)
    if dim is not None:
        dim = tuple(dim)
        if len(dim) != 1 and len(dim) != 2:
            raise RuntimeError(
                "linalg.norm: If dim is specified, it must be of length 1 or 2. Got "
                f"[{', '.join(str(k) for k in dim)}]")
    elif ord is not None and nd != 1 and nd != 2:
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {nd}D.")
    if isinstance(ord, str):
        return _matrix_norm(x, ord, dim if dim is not None else (0, 1), keepdim, dtype)
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and nd == 2)):
        return _matrix_norm(x, ord, dim if dim is not None else (0, 1), keepdim, dtype)
    return _vector_norm(x, 2.0 if ord is None else ord, dim, keepdim, dtype)


cdef Tensor _norm(Tensor x, object p, object dim, bint keepdim, object dtype_arg):
    """torch.norm / Tensor.norm (as torch/functional.py dispatches them)."""
    if isinstance(dim, int) and not isinstance(dim, bool):
        dim = (dim,)
    if isinstance(p, str):
        if p == "fro" and (dim is None or len(dim) <= 2):
            return _vector_norm(x, 2, dim, keepdim, dtype_arg)
        if dim is None:
            dim = tuple(range(cnp.PyArray_NDIM(x._data)))
        return _matrix_norm(x, p, dim, keepdim, dtype_arg)
    return _vector_norm(x, 2.0 if p is None else p, dim, keepdim, dtype_arg)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """The p-norm of input (over dim, or all elements); 'fro' and 'nuc' for matrices.

    >>> import autograd_core as torch
    >>> torch.norm(torch.tensor([3., 4.]))
    tensor(5.)
    """
    return _norm(_arg(input, "norm"), p, dim, keepdim, dtype)


@_tensor_method("norm")
def _tensor_norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    return _norm(self, p, dim, keepdim, dtype)


# ================================================================ cumsum / cumprod

cdef class CumsumBackward0(Node):
    cdef Py_ssize_t dim

    cdef tuple apply(self, tuple grads):
        return (_cumsum_backward(grads[0], self.dim),)


cdef Tensor _cumsum_backward(Tensor g, Py_ssize_t dim):
    """The reversed cumulative sum (flip, cumsum, flip)."""
    if cnp.PyArray_SIZE(g._data) <= 1 or cnp.PyArray_NDIM(g._data) == 0 or _shp(g._data)[dim] == 1:
        return g
    return _rl_flip(_cumsum(_rl_flip(g, dim), dim, None), dim)


cdef Tensor _cumsum(Tensor x, object dim, object dtype_arg):
    cdef dtype d = _dtype_of(x._data)
    cdef dtype od
    if dtype_arg is not None:
        od = _to_dtype(dtype_arg)
    else:
        od = d if d.category == 2 else int64
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t dd = _wrap_dim(dim, nd)
    cdef cnp.ndarray xa = _cast_array(x._data, od)
    with _quiet():
        out = np.cumsum(xa, axis=dd, dtype=_acc_dtype(od)) if nd else xa.copy()
    cdef Tensor r = _make(_as_array(out).astype(od.np_dtype, copy=False))
    if _grad_on() and x._requires_grad and od.category == 2:
        node = <CumsumBackward0>CumsumBackward0.__new__(CumsumBackward0)
        node.dim = dd
        _record1(node, r, x)
        if od is not d:
            node.input_shapes = ((_shp(x._data), d),)
    return r


cdef class CumprodBackward0(_SavedNode):
    cdef Py_ssize_t dim
    cdef dtype out_dtype

    cdef tuple apply(self, tuple grads):
        x = _rl_cast_if(self.input(), self.out_dtype)
        return (_cumprod_backward(grads[0], x, self.dim, self.output()),)


cdef Tensor _cumprod_backward(Tensor g, Tensor x, Py_ssize_t dim, Tensor out):
    """d cumprod: reversed_cumsum(out * g) / x without zeros; with zeros, the products
    of the elements up to each output omitting the differentiated one (O(n^2), exact)."""
    if cnp.PyArray_SIZE(x._data) <= 1 or cnp.PyArray_NDIM(x._data) == 0:
        return g
    cdef Py_ssize_t n = _shp(x._data)[dim], k, nd = cnp.PyArray_NDIM(x._data)
    if n == 1:
        return g
    if not (x._data == 0).any():
        return _div(_cumsum_backward(_mul(out, g), dim), x)
    idx_shape = [1] * nd
    idx_shape[dim] = n
    idx = np.arange(n).reshape(idx_shape)
    one = _rl_scalar_like(1, x)
    zero = _zeros((), _dtype_of(g._data))
    parts = []
    for k in range(n):
        omitted = _cumprod(_where(idx == k, one, x), dim, None)
        term = _where(idx < k, zero, _mul(g, omitted))
        parts.append(_sum(term, dim, True, None))
    return cat(parts, dim)


cdef Tensor _cumprod(Tensor x, object dim, object dtype_arg):
    cdef dtype d = _dtype_of(x._data)
    cdef dtype od
    if dtype_arg is not None:
        od = _to_dtype(dtype_arg)
    else:
        od = d if d.category == 2 else int64
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t dd = _wrap_dim(dim, nd)
    cdef cnp.ndarray xa = _cast_array(x._data, od)
    with _quiet():
        out = np.cumprod(xa, axis=dd, dtype=_acc_dtype(od)) if nd else xa.copy()
    cdef Tensor r = _make(_as_array(out).astype(od.np_dtype, copy=False))
    if _grad_on() and x._requires_grad and od.category == 2:
        node = <CumprodBackward0>CumprodBackward0.__new__(CumprodBackward0)
        node.dim = dd
        node.out_dtype = od
        node.self_ = x
        node.self_version = _version_for_save(x)
        _save_own_output(node, r)
        _record1(node, r, x)
        if od is not d:
            node.input_shapes = ((_shp(x._data), d),)
    return r


def cumsum(input, dim, *, dtype=None):
    """Cumulative sum along dim.

    >>> import autograd_core as torch
    >>> torch.cumsum(torch.tensor([1., 2., 3.]), 0)
    tensor([1., 3., 6.])
    """
    return _cumsum(_arg(input, "cumsum"), dim, dtype)


def cumprod(input, dim, *, dtype=None):
    """Cumulative product along dim (zeros handled exactly in the gradient).

    >>> import autograd_core as torch
    >>> torch.cumprod(torch.tensor([1., 2., 3.]), 0)
    tensor([1., 2., 6.])
    """
    return _cumprod(_arg(input, "cumprod"), dim, dtype)


@_tensor_method("cumsum")
def _tensor_cumsum(self, dim, *, dtype=None):
    return _cumsum(self, dim, dtype)


@_tensor_method("cumprod")
def _tensor_cumprod(self, dim, *, dtype=None):
    return _cumprod(self, dim, dtype)


@_tensor_method("cumsum_")
def _tensor_cumsum_(self, dim, *, dtype=None):
    return _inplace_unary_op(self, lambda t: _cumsum(t, dim, dtype))


@_tensor_method("cumprod_")
def _tensor_cumprod_(self, dim, *, dtype=None):
    return _inplace_unary_op(self, lambda t: _cumprod(t, dim, dtype))


# ================================================================ all / any

cdef Tensor _all_any(Tensor x, object dim, bint keepdim, bint is_all):
    cdef cnp.ndarray xa = x._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    fn = np.all if is_all else np.any
    if dim is None:
        out = fn(xa, axis=None, keepdims=keepdim)
    elif _rl_is_empty_dims(dim):
        out = xa != 0                      # dim=(): nothing is reduced
    else:
        out = fn(xa, axis=_rl_axis(_rl_dims(dim, nd), nd), keepdims=keepdim)
    out = _as_array(out)
    if cnp.PyArray_TYPE(xa) == cnp.NPY_UINT8:
        out = out.astype(np.uint8)
    return _make(out)


def all_(input, dim=None, keepdim=False):
    """True when every element (along dim) is nonzero; uint8 input gives uint8.

    >>> import autograd_core as torch
    >>> torch.all(torch.tensor([[True, False], [True, True]]), dim=1)
    tensor([False,  True])
    """
    return _all_any(_arg(input, "all"), dim, keepdim, True)


def any_(input, dim=None, keepdim=False):
    """True when some element (along dim) is nonzero; uint8 input gives uint8.

    >>> import autograd_core as torch
    >>> torch.any(torch.tensor([[0, 0], [0, 3]]), 1)
    tensor([False,  True])
    """
    return _all_any(_arg(input, "any"), dim, keepdim, False)


@_tensor_method("all")
def _tensor_all(self, dim=None, keepdim=False):
    return _all_any(self, dim, keepdim, True)


@_tensor_method("any")
def _tensor_any(self, dim=None, keepdim=False):
    return _all_any(self, dim, keepdim, False)


# ================================================================ bmm, dot, mv, outer

cdef class BmmBackward0(Node):
    cdef Tensor a
    cdef Tensor b
    cdef long a_version
    cdef long b_version

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        ga = gb = None
        if _needs(self, 0):
            ga = _bmm(g, _transpose(_unpack(self, self.b, self.b_version), 1, 2))
        if _needs(self, 1):
            gb = _bmm(_transpose(_unpack(self, self.a, self.a_version), 1, 2), g)
        return (ga, gb)

    cdef void release_saved(self):
        self.a = None
        self.b = None
        self.released = True


cdef Tensor _bmm(Tensor a, Tensor b):
    cdef cnp.ndarray aa = a._data, ba = b._data
    if cnp.PyArray_NDIM(aa) != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if cnp.PyArray_NDIM(ba) != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    sa, sb = _shp(aa), _shp(ba)
    if sa[0] != sb[0] or sa[2] != sb[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{sa[0]}, {sa[2]}] "
            f"but got: [{sb[0]}, {sb[1]}].")
    if cnp.PyArray_TYPE(aa) != cnp.PyArray_TYPE(ba):
        raise RuntimeError(f"expected scalar type {_legacy_scalar_name(_dtype_of(aa))} but found "
                           f"{_legacy_scalar_name(_dtype_of(ba))}")
    cdef Tensor r = _make(_as_array(np.matmul(aa, ba)))
    if _grad_on() and (a._requires_grad or b._requires_grad) and _dtype_of(aa).category == 2:
        node = <BmmBackward0>BmmBackward0.__new__(BmmBackward0)
        if b._requires_grad:
            node.a = a
            node.a_version = _version_for_save(a)
        if a._requires_grad:
            node.b = b
            node.b_version = _version_for_save(b)
        _record2(node, r, a, b)
    return r


cdef Tensor _dot(Tensor a, Tensor b):
    cdef int na = cnp.PyArray_NDIM(a._data), nb = cnp.PyArray_NDIM(b._data)
    if na != 1 or nb != 1:
        raise RuntimeError(f"1D tensors expected, but got {na}D and {nb}D tensors")
    if cnp.PyArray_TYPE(a._data) != cnp.PyArray_TYPE(b._data):
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found "
            f"{_legacy_scalar_name(_dtype_of(a._data))} and {_legacy_scalar_name(_dtype_of(b._data))}")
    cdef Py_ssize_t n = _shp(a._data)[0], m = _shp(b._data)[0]
    if n != m:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
            f"number of elements, but got {n} and {m} elements respectively")
    return _matmul(a, b)


cdef Tensor _mv(Tensor m, Tensor v):
    cdef int nm = cnp.PyArray_NDIM(m._data), nv = cnp.PyArray_NDIM(v._data)
    if nm == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if nm != 2 or nv != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {nm}, {nv}")
    sm, sv = _shp(m._data), _shp(v._data)
    if sm[1] != sv[0]:
        raise RuntimeError(f"size mismatch, got input ({sm[0]}), mat ({sm[0]}x{sm[1]}), vec ({sv[0]})")
    if cnp.PyArray_TYPE(m._data) != cnp.PyArray_TYPE(v._data):
        vn = _legacy_scalar_name(_dtype_of(v._data))
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {vn}, "
                           f"{_legacy_scalar_name(_dtype_of(m._data))}, and {vn}")
    return _matmul(m, v)


cdef Tensor _outer(Tensor a, Tensor b):
    cdef int na = cnp.PyArray_NDIM(a._data), nb = cnp.PyArray_NDIM(b._data)
    if na != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {na}-D")
    if nb != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {nb}-D")
    return _mul(_reshape(a, (_shp(a._data)[0], 1)), b)


def bmm(input, mat2):
    """Batched matrix product of two 3-D tensors.

    >>> import autograd_core as torch
    >>> torch.bmm(torch.ones(2, 1, 3), torch.ones(2, 3, 1)).shape
    autograd_core.Size([2, 1, 1])
    """
    return _bmm(_arg(input, "bmm"), _require_tensor(mat2, "bmm"))


def dot(input, tensor):
    """Inner product of two 1-D tensors of the same dtype.

    >>> import autograd_core as torch
    >>> torch.dot(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor(11.)
    """
    return _dot(_arg(input, "dot"), _require_tensor(tensor, "dot"))


def mv(input, vec):
    """Matrix-vector product.

    >>> import autograd_core as torch
    >>> torch.mv(torch.eye(2), torch.tensor([1., 2.]))
    tensor([1., 2.])
    """
    return _mv(_arg(input, "mv"), _require_tensor(vec, "mv"))


def outer(input, vec2):
    """Outer product of two 1-D tensors.

    >>> import autograd_core as torch
    >>> torch.outer(torch.tensor([1., 2.]), torch.tensor([1., 10.]))
    tensor([[ 1., 10.],
            [ 2., 20.]])
    """
    return _outer(_arg(input, "outer"), _require_tensor(vec2, "outer"))


def ger(input, vec2):
    """Alias of outer.

    >>> import autograd_core as torch
    >>> torch.ger(torch.tensor([1., 2.]), torch.tensor([3.]))
    tensor([[3.],
            [6.]])
    """
    return _outer(_arg(input, "ger"), _require_tensor(vec2, "ger"))


@_tensor_method("bmm")
def _tensor_bmm(self, mat2):
    return _bmm(self, _require_tensor(mat2, "bmm"))


@_tensor_method("dot")
def _tensor_dot(self, tensor):
    return _dot(self, _require_tensor(tensor, "dot"))


@_tensor_method("mv")
def _tensor_mv(self, vec):
    return _mv(self, _require_tensor(vec, "mv"))


@_tensor_method("outer", "ger")
def _tensor_outer(self, vec2):
    return _outer(self, _require_tensor(vec2, "outer"))


# ================================================================ addmm

cdef class AddmmBackward0(Node):
    cdef Tensor mat1
    cdef Tensor mat2
    cdef long mat1_version
    cdef long mat2_version
    cdef object beta
    cdef object alpha

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        gi = g1 = g2 = None
        if _needs(self, 0):
            gi = g if self.beta == 1 else _mul_scalar(g, self.beta)
        if _needs(self, 1):
            g1 = _matmul(g, _t(_unpack(self, self.mat2, self.mat2_version)))
            if self.alpha != 1:
                g1 = _mul_scalar(g1, self.alpha)
        if _needs(self, 2):
            g2 = _matmul(_t(_unpack(self, self.mat1, self.mat1_version)), g)
            if self.alpha != 1:
                g2 = _mul_scalar(g2, self.alpha)
        return (gi, g1, g2)

    cdef void release_saved(self):
        if self.mat1 is not None or self.mat2 is not None:
            self.released = True      # saved nothing (only input needed a grad): reusable
        self.mat1 = None
        self.mat2 = None


cdef Tensor _addmm(Tensor inp, Tensor m1, Tensor m2, object beta, object alpha):
    cdef int n1 = cnp.PyArray_NDIM(m1._data), n2 = cnp.PyArray_NDIM(m2._data)
    if n1 != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {n1}-D tensor")
    if n2 != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {n2}-D tensor")
    cdef dtype di = _dtype_of(inp._data), d1 = _dtype_of(m1._data), d2 = _dtype_of(m2._data)
    if di is not d2:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{_legacy_scalar_name(di)} and {_legacy_scalar_name(d2)}")
    if d1 is not d2:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{_legacy_scalar_name(d1)} and {_legacy_scalar_name(d2)}")
    s1, s2 = _shp(m1._data), _shp(m2._data)
    if s1[1] != s2[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({s1[0]}x{s1[1]} and {s2[0]}x{s2[1]})")
    cdef tuple out_shape = (s1[0], s2[1])
    if _shp(inp._data) != out_shape:
        try:
            ok = np.broadcast_shapes(_shp(inp._data), out_shape) == out_shape
        except ValueError:
            ok = False
        if not ok:
            _expand(inp, out_shape)   # raises PyTorch's expand error
    with _quiet():
        mm = np.matmul(m1._data, m2._data)
        if alpha != 1:
            mm = mm * alpha
        if beta == 0:
            out = mm
        elif beta == 1:
            out = mm + inp._data
        else:
            out = mm + inp._data * beta
    cdef Tensor r = _make(np.ascontiguousarray(np.broadcast_to(out, out_shape)).astype(d2.np_dtype, copy=False))
    if _grad_on() and (inp._requires_grad or m1._requires_grad or m2._requires_grad) \
            and d2.category == 2:
        node = <AddmmBackward0>AddmmBackward0.__new__(AddmmBackward0)
        node.beta = beta
        node.alpha = alpha
        if m2._requires_grad:
            node.mat1 = m1
            node.mat1_version = _version_for_save(m1)
        if m1._requires_grad:
            node.mat2 = m2
            node.mat2_version = _version_for_save(m2)
        _record_n(node, r, [inp, m1, m2])
        mi = _meta_if_differs(inp, r._data)
        if mi is not None:
            node.input_shapes = (mi, None, None)
    return r


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta * input + alpha * (mat1 @ mat2), input broadcast to the product's shape.

    >>> import autograd_core as torch
    >>> torch.addmm(torch.ones(2), torch.eye(2), torch.eye(2), beta=0.5)
    tensor([[1.5000, 0.5000],
            [0.5000, 1.5000]])
    """
    return _addmm(_arg(input, "addmm"), _require_tensor(mat1, "addmm"),
                  _require_tensor(mat2, "addmm"), beta, alpha)


@_tensor_method("addmm")
def _tensor_addmm(self, mat1, mat2, *, beta=1, alpha=1):
    return _addmm(self, _require_tensor(mat1, "addmm"), _require_tensor(mat2, "addmm"), beta, alpha)


@_tensor_method("addmm_")
def _tensor_addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    m1 = _require_tensor(mat1, "addmm_")
    m2 = _require_tensor(mat2, "addmm_")
    return _inplace_unary_op(self, lambda t: _addmm(t, m1, m2, beta, alpha),
                             (<Tensor>m1)._requires_grad or (<Tensor>m2)._requires_grad)


# ================================================================ einsum

cdef int _EINSUM_ELLIPSIS = 52


cdef class _EinsumBackward(Node):
    """out = einsum over integer labels; each operand's gradient is an einsum of the
    output gradient with the other operands (_einsum_backward). The concrete classes
    carry PyTorch's name for the op einsum ends with (ViewBackward0, PermuteBackward0,
    SumBackward1 or MulBackward0, see _einsum_node_name)."""
    cdef list operands        # saved Tensors (None where not needed)
    cdef list versions
    cdef list labels          # per operand: list of int labels (repeats = diagonals)
    cdef list out_labels
    cdef dict sizes           # label -> broadcast size
    cdef list shapes          # per operand: its shape

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        cdef Py_ssize_t k, n = len(self.labels)
        if self.released:
            raise RuntimeError(_MSG_BACKWARD_TWICE)
        ops = []
        for k in range(n):
            t = self.operands[k]
            ops.append(None if t is None else _unpack(self, <Tensor>t, self.versions[k]))
        out = []
        for k in range(n):
            out.append(_einsum_backward(self, g, ops, k) if _needs(self, k) else None)
        return tuple(out)

    cdef void release_saved(self):
        # a node that saved nothing (one operand) stays usable, as PyTorch's views
        for t in self.operands or ():
            if t is not None:
                self.released = True
        self.operands = [None] * len(self.labels)


_EinsumViewBackward0 = type("ViewBackward0", (_EinsumBackward,), {"__slots__": ()})
_EinsumPermuteBackward0 = type("PermuteBackward0", (_EinsumBackward,), {"__slots__": ()})
_EinsumSumBackward1 = type("SumBackward1", (_EinsumBackward,), {"__slots__": ()})
_EinsumMulBackward0 = type("MulBackward0", (_EinsumBackward,), {"__slots__": ()})
_EINSUM_NODE_TYPES = {"ViewBackward0": _EinsumViewBackward0,
                      "PermuteBackward0": _EinsumPermuteBackward0,
                      "SumBackward1": _EinsumSumBackward1,
                      "MulBackward0": _EinsumMulBackward0}


cdef Tensor _einsum_backward(_EinsumBackward node, Tensor g, list ops, Py_ssize_t k):
    """The gradient of operand k: einsum of g (output labels) with every other operand,
    into operand k's labels. A label repeated in operand k (a diagonal) gets a fresh
    label tied to the first by an identity matrix; a label only operand k has (summed
    away) gets a ones vector; broadcast (size-1) dims are summed back."""
    cdef list labels_k = node.labels[k]
    used = set(node.out_labels)
    for lab in node.labels:
        used.update(lab)
    fresh = [l for l in range(_EINSUM_ELLIPSIS) if l not in used]
    cdef list terms = [g]
    cdef list term_labels = [list(node.out_labels)]
    cdef Py_ssize_t j
    for j in range(len(ops)):
        if j != k:
            terms.append(ops[j])
            term_labels.append(list(node.labels[j]))
    present = set()
    for lab in term_labels:
        present.update(lab)
    dt = g._data.dtype
    grad_labels = []
    seen = set()
    for l in labels_k:
        if l in seen:
            if not fresh:
                raise RuntimeError("einsum(): too many subscripts to differentiate this equation")
            f = fresh.pop(0)
            grad_labels.append(f)
            terms.append(_make(np.eye(node.sizes[l], dtype=dt)))
            term_labels.append([l, f])
        else:
            seen.add(l)
            grad_labels.append(l)
            if l not in present:
                terms.append(_make(np.ones(node.sizes[l], dtype=dt)))
                term_labels.append([l])
                present.add(l)
    cdef Tensor gk = _einsum_core(terms, term_labels, grad_labels)
    cdef tuple shape = node.shapes[k]
    cdef tuple gshape = _shp(gk._data)
    if gshape != shape:
        # operand k broadcast a size-1 dim (sum it back), or another operand did (expand)
        red = tuple(1 if s == 1 else gs for s, gs in zip(shape, gshape))
        if red != gshape:
            gk = _sum_to(gk, red)
        if _shp(gk._data) != shape:
            gk = _expand(gk, shape)
    return gk


cdef str _einsum_node_name(list shapes, list labels, list out_labels):
    """The grad_fn PyTorch's einsum leaves on its output: it contracts the operands
    left to right (sumproduct_pair: mul when nothing is summed, else bmm + permute),
    then views away summed dims; one operand is permuted (and summed)."""
    out_set = set(out_labels)
    all_labels = set()
    for lab in labels:
        all_labels.update(lab)
    contraction = sorted(l for l in all_labels if l not in out_set)
    if len(labels) == 1:
        return "SumBackward1" if contraction else "PermuteBackward0"
    cdef list ops = []
    counts = dict.fromkeys(contraction, 0)
    for shape, lab in zip(shapes, labels):
        sizes = {}
        for l, s in zip(lab, shape):
            sizes[l] = s
        ops.append(sizes)
        for l in contraction:
            if sizes.get(l, 1) != 1:
                counts[l] += 1
    last = "MulBackward0"
    while len(ops) > 1:
        a = ops.pop(0)
        b = ops.pop(0)
        sum_dims = []
        for l in contraction:
            sa = a.get(l, 1)
            sb = b.get(l, 1)
            if sa != 1 and sb != 1:
                counts[l] -= 1
                if counts[l] == 1:
                    sum_dims.append(l)
                    counts[l] = 0
            elif counts[l] == 1:
                if sa != 1:
                    a[l] = 1
                    counts[l] = 0
                elif sb != 1:
                    b[l] = 1
                    counts[l] = 0
        res = dict(a)
        for l, s in b.items():
            if res.get(l, 1) == 1:
                res[l] = s
        for l in sum_dims:
            res[l] = 1
        last = "PermuteBackward0" if sum_dims else "MulBackward0"
        ops.insert(0, res)
    return "ViewBackward0" if contraction else last


cdef Tensor _einsum_core(list tensors, list labels, list out_labels, str name=None):
    """einsum of tensors with integer labels (numpy's sublist form), recorded."""
    cdef Tensor t
    cdef Py_ssize_t k
    sizes = {}
    cdef bint broadcast = False
    for k in range(len(tensors)):
        t = tensors[k]
        for l, s in zip(labels[k], _shp(t._data)):
            prev = sizes.get(l)
            if prev is None or prev == 1:
                if prev == 1 and s != 1:
                    broadcast = True
                sizes[l] = s
            elif s != prev:
                broadcast = True
    args = []
    for k in range(len(tensors)):
        args.append((<Tensor>tensors[k])._data)
        args.append(list(labels[k]))
    args.append(list(out_labels))
    total = 0
    for t in tensors:
        total += cnp.PyArray_SIZE(t._data)
    # numpy's optimized path (BLAS contractions) pays off beyond tiny operands; it is
    # used only when no size-1 dim broadcasts
    cdef bint opt = (not broadcast) and len(tensors) > 1 and (len(tensors) > 2 or total > 4096)
    with _quiet():
        out = np.einsum(*args, optimize=opt)
    cdef cnp.ndarray oa = _as_array(out)
    cdef Tensor r
    if len(tensors) == 1 and np.may_share_memory(oa, (<Tensor>tensors[0])._data):
        r = _make_view(<Tensor>tensors[0], oa)
        r._requires_grad = (<Tensor>tensors[0])._requires_grad   # a view, even under no_grad
    else:
        r = _make(oa)
    cdef bint any_grad = False
    for t in tensors:
        if t._requires_grad:
            any_grad = True
    if not (_grad_on() and any_grad and _dtype_of(oa).category == 2):
        return r
    if name is None:
        name = _einsum_node_name([_shp((<Tensor>u)._data) for u in tensors], labels, out_labels)
    cls = _EINSUM_NODE_TYPES[name]
    node = <_EinsumBackward>cls.__new__(cls)
    node.labels = [list(lab) for lab in labels]
    node.out_labels = list(out_labels)
    node.sizes = sizes
    node.shapes = [_shp((<Tensor>u)._data) for u in tensors]
    node.operands = []
    node.versions = []
    for k in range(len(tensors)):
        t = tensors[k]
        needed = False
        for j in range(len(tensors)):
            if j != k and (<Tensor>tensors[j])._requires_grad:
                needed = True
        node.operands.append(t if needed else None)
        node.versions.append(_version_for_save(t) if needed else 0)
    _record_n(node, r, list(tensors))
    metas = tuple(_meta_if_differs(<Tensor>u, oa) if _dtype_of((<Tensor>u)._data) is not _dtype_of(oa)
                  else None for u in tensors)
    for m in metas:
        if m is not None:
            node.input_shapes = metas
            break
    return r


cdef inline int _label_id(str c):
    return (ord(c) - 65) if c < "a" else (ord(c) - 97 + 26)


cdef inline str _label_char(int s):
    return chr(s + 65) if s < 26 else chr(s - 26 + 97)


cdef inline bint _is_label_char(str c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


cdef Tensor _einsum_eq(str equation, list operands):
    """Parse and check equation as PyTorch's einsum does (its messages), map ellipsis
    dims to free labels, and run _einsum_core."""
    cdef Py_ssize_t num_ops = len(operands), i, j, curr = 0
    if num_ops == 0:
        raise RuntimeError("einsum(): must provide at least one operand")
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels = [[] for _ in range(num_ops)]
    cdef bint ell_in_input = False
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_in_input:
                raise RuntimeError(f"einsum(): found '.' for operand {curr} for which an ellipsis "
                                   "was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {curr} that is not part of "
                                   "any ellipsis")
            i += 2
            op_labels[curr].append(_EINSUM_ELLIPSIS)
            ell_in_input = True
        elif c == ",":
            curr += 1
            if curr >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                                   "equation")
            ell_in_input = False
        else:
            if not _is_label_char(c):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   "equation string, subscripts must be in [a-zA-Z]")
            op_labels[curr].append(_label_id(c))
        i += 1
    if curr != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")

    label_count = [0] * _EINSUM_ELLIPSIS
    cdef Py_ssize_t ell_num_dim = 0, ndims, nlabels
    cdef bint has_ell
    for i in range(num_ops):
        ndims = cnp.PyArray_NDIM((<Tensor>operands[i])._data)
        nlabels = len(op_labels[i])
        has_ell = False
        for l in op_labels[i]:
            if l == _EINSUM_ELLIPSIS:
                nlabels -= 1
                has_ell = True
                if ndims - nlabels > ell_num_dim:
                    ell_num_dim = ndims - nlabels
            else:
                label_count[l] += 1
        if (nlabels > ndims) if has_ell else (nlabels != ndims):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({nlabels}) "
                + ("is more than" if has_ell else "does not match")
                + f" the number of dimensions ({ndims}) for operand {i}"
                + ("" if has_ell else " and no ellipsis was given"))

    # output labels (explicit, or implicit: ellipsis then labels seen once, sorted)
    out_spec = []            # labels, with _EINSUM_ELLIPSIS for the ellipsis block
    cdef bint ell_in_output = False
    if arrow < 0:
        ell_in_output = True
        out_spec.append(_EINSUM_ELLIPSIS)
        for l in range(_EINSUM_ELLIPSIS):
            if label_count[l] == 1:
                out_spec.append(l)
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                       "already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                       "ellipsis (...)")
                i += 2
                ell_in_output = True
                out_spec.append(_EINSUM_ELLIPSIS)
            else:
                if not _is_label_char(c):
                    raise RuntimeError(f"einsum(): invalid subscript given at index "
                                       f"{len(lhs) + 2 + i} in the equation string, subscripts "
                                       "must be in [a-zA-Z]")
                l = _label_id(c)
                if not (label_count[l] > 0 and l not in out_spec):
                    raise RuntimeError(
                        f"einsum(): output subscript {c}"
                        + (" appears more than once in the output" if l in out_spec
                           else " does not appear in the equation for any input operand"))
                out_spec.append(l)
            i += 1

    # ellipsis dims become free labels (right-aligned across operands)
    used = set(l for l in range(_EINSUM_ELLIPSIS) if label_count[l] > 0)
    free = [l for l in range(_EINSUM_ELLIPSIS) if l not in used]
    if ell_num_dim > len(free):
        raise RuntimeError("einsum(): too many dimensions (at most 52 labels are supported)")
    ell_labels = free[:ell_num_dim]

    # sizes: PyTorch's checks (broadcast of size-1 dims, repeated labels' sizes)
    label_size = {}
    ell_sizes = [1] * ell_num_dim
    labels = []
    cdef Tensor op
    cdef tuple shape
    cdef Py_ssize_t dim, nell
    for i in range(num_ops):
        op = operands[i]
        shape = _shp(op._data)
        lab = []
        first_dim = {}
        dim = 0
        for l in op_labels[i]:
            if l == _EINSUM_ELLIPSIS:
                nell = len(shape) - (len(op_labels[i]) - 1)
                for j in range(ell_num_dim - nell, ell_num_dim):
                    s = shape[dim]
                    if s != 1:
                        if not (ell_sizes[j] == 1 or ell_sizes[j] == s):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {i}"
                                f"has size {s} which does not broadcast with previously seen "
                                f"ellipsis with size {ell_sizes[j]} for the respective dimension")
                        ell_sizes[j] = s
                    lab.append(ell_labels[j])
                    dim += 1
            elif l not in first_dim:
                s = shape[dim]
                if s != 1:
                    prev = label_size.get(l, 1)
                    if not (prev == 1 or prev == s):
                        raise RuntimeError(
                            f"einsum(): subscript {_label_char(l)} has size {s} for operand {i} "
                            f"which does not broadcast with previously seen size {prev}")
                    label_size[l] = s
                first_dim[l] = dim
                lab.append(l)
                dim += 1
            else:
                s = shape[dim]
                if s != shape[first_dim[l]]:
                    raise RuntimeError(
                        f"einsum(): subscript {_label_char(l)} is repeated for operand {i} but "
                        f"the sizes don't match, {s} != {shape[first_dim[l]]}")
                lab.append(l)
                dim += 1
        labels.append(lab)

    out_labels = []
    for l in out_spec:
        if l == _EINSUM_ELLIPSIS:
            out_labels.extend(ell_labels)
        else:
            out_labels.append(l)

    # dtypes: PyTorch multiplies operands (promoting) or bmm's them (same dtype only)
    cdef dtype d0 = _dtype_of((<Tensor>operands[0])._data)
    cdef dtype rt = d0
    cdef bint mixed = False
    for i in range(1, num_ops):
        if _dtype_of((<Tensor>operands[i])._data) is not d0:
            mixed = True
            rt = _DTYPES[_promote_rank(rt.rank, _dtype_of((<Tensor>operands[i])._data).rank)]
    if mixed:
        name = _einsum_node_name([_shp((<Tensor>u)._data) for u in operands], labels, out_labels)
        if name != "MulBackward0":
            for i in range(1, num_ops):
                di = _dtype_of((<Tensor>operands[i])._data)
                if di is not d0:
                    raise RuntimeError(f"expected scalar type {_legacy_scalar_name(d0)} but found "
                                       f"{_legacy_scalar_name(di)}")
        operands = [_rl_cast_if(<Tensor>u, rt) for u in operands]
    return _einsum_core(operands, labels, out_labels)


def einsum(*args):
    """Einstein summation over the operands' labelled dimensions (PyTorch's rules:
    implicit or explicit output, ellipsis, repeated labels, size-1 broadcasting).

    >>> import autograd_core as torch
    >>> torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(3, 1))
    tensor([[3.],
            [3.]])
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        def sub(n):
            if n is Ellipsis:
                return "..."
            if 0 <= n < 26:
                return chr(ord("A") + n)
            if 26 <= n < 52:
                return chr(ord("a") + n - 26)
            raise ValueError("einsum(): subscript in subscript list is not within the valid "
                             "range [0, 52)")
        equation = ",".join("".join(sub(s) for s in l) for l in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(sub(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation = args[0]
        operands = args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    for k, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, but found "
                            f"element of type {type(t).__name__} at pos {k}")
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' must be str, not {type(equation).__name__}")
    return _einsum_eq(equation, list(operands))


# ================================================================ tensordot

cdef Tensor _tensordot(Tensor a, Tensor b, list dims1, list dims2):
    if len(dims1) != len(dims2):
        raise RuntimeError("both dimension lists should have same length")
    if _dtype_of(a._data) is not _dtype_of(b._data):
        raise RuntimeError("both inputs should have same dtype")
    cdef Py_ssize_t na = cnp.PyArray_NDIM(a._data), nb = cnp.PyArray_NDIM(b._data), i
    sa, sb = _shp(a._data), _shp(b._data)
    for i in range(len(dims1)):
        for n, d in ((na, dims1[i]), (nb, dims2[i])):
            if n == 0:
                raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    w1 = [_wrap_dim(d, na) for d in dims1]
    w2 = [_wrap_dim(d, nb) for d in dims2]
    _normalize_dims(w1, na)
    _normalize_dims(w2, nb)
    cdef Tensor t1 = a, t2 = b
    csize = 1
    for i in range(len(w1)):
        s1 = sa[w1[i]]
        s2 = sb[w2[i]]
        if s2 == 1:
            t1 = _sum(t1, w1[i], True, None)
        elif s1 == 1:
            t2 = _sum(t2, w2[i], True, None)
        else:
            if s1 != s2:
                raise RuntimeError(
                    f"contracted dimensions need to match, but first has size {s1} in dim "
                    f"{dims1[i]} and second has size {s2} in dim {dims2[i]}")
            csize *= s1
    p1 = []
    p2 = list(w2)
    rsizes = []
    size1 = size2 = 1
    for i in range(na):
        if i not in w1:
            p1.append(i)
            size1 *= _shp(t1._data)[i]
            rsizes.append(_shp(t1._data)[i])
    p1 += w1
    for i in range(nb):
        if i not in w2:
            p2.append(i)
            size2 *= _shp(t2._data)[i]
            rsizes.append(_shp(t2._data)[i])
    t1 = _reshape(_permute(t1, tuple(p1)), (size1, csize))
    t2 = _reshape(_permute(t2, tuple(p2)), (csize, size2))
    return _reshape(_mm(t1, t2), tuple(rsizes))


def tensordot(a, b, dims=2, out=None):
    """Contract a's dims with b's (an int n: a's last n with b's first n; or two lists).

    >>> import autograd_core as torch
    >>> torch.tensordot(torch.ones(2, 3), torch.ones(3, 4), dims=1).shape
    autograd_core.Size([2, 4])
    """
    cdef Tensor ta = _arg(a, "tensordot"), tb = _require_tensor(b, "tensordot")
    if out is not None:
        raise NotImplementedError("tensordot(out=...) is not supported by autograd_core")
    if not isinstance(dims, (tuple, list, Tensor, int)) or isinstance(dims, bool):
        raise RuntimeError(
            "tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
            f"containing two lists, but got dims={dims}")
    dims_a = []
    dims_b = []
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
        dims_a = [int(d) for d in (dims_a if isinstance(dims_a, (tuple, list)) else [dims_a])]
        dims_b = [int(d) for d in (dims_b if isinstance(dims_b, (tuple, list)) else [dims_b])]
    elif isinstance(dims, Tensor):
        if (<Tensor>dims)._data.size > 1:
            dims_a = [int(v) for v in (<Tensor>dims)._data[0].tolist()]
            dims_b = [int(v) for v in (<Tensor>dims)._data[1].tolist()]
        else:
            n = int((<Tensor>dims)._data.item())
            if n < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            dims_a = list(range(-n, 0))
            dims_b = list(range(n))
    else:
        n = int(dims)
        if n < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        na = cnp.PyArray_NDIM(ta._data)
        nb = cnp.PyArray_NDIM(tb._data)
        if n > (na if na < nb else nb):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a = list(range(-n, 0))
        dims_b = list(range(n))
    return _tensordot(ta, tb, dims_a, dims_b)


# ================================================================ trace, diag, tril / triu

cdef class TraceBackward0(Node):
    cdef tuple in_shape

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        eye = np.eye(self.in_shape[0], self.in_shape[1], dtype=bool)
        return (_where(eye, g, _zeros((), _dtype_of(g._data))),)


cdef Tensor _trace(Tensor x):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if nd != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {nd}")
    cdef dtype d = _dtype_of(x._data)
    if d.category == 0:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    cdef dtype od = d if d.category == 2 else int64
    cdef Tensor r = _make(_as_array(np.trace(x._data, dtype=od.np_dtype)))
    if _grad_on() and x._requires_grad:
        node = <TraceBackward0>TraceBackward0.__new__(TraceBackward0)
        node.in_shape = _shp(x._data)
        _record1(node, r, x)
    return r


def trace(input):
    """Sum of the main diagonal of a 2-D tensor.

    >>> import autograd_core as torch
    >>> torch.trace(torch.tensor([[1., 2.], [3., 4.]]))
    tensor(5.)
    """
    return _trace(_arg(input, "trace"))


@_tensor_method("trace")
def _tensor_trace(self):
    return _trace(self)


cdef class DiagEmbedBackward0(Node):
    """diag(vector): the gradient is the matrix's diagonal (offset)."""
    cdef object key

    cdef tuple apply(self, tuple grads):
        return (_index_recorded(grads[0], self.key, True),)


cdef class DiagonalBackward0_copy(Node):
    """diag(matrix): the gradient is zeros with g on the diagonal (offset)."""
    cdef tuple in_shape
    cdef object key

    cdef tuple apply(self, tuple grads):
        return (_index_put_zeros(grads[0], self.in_shape, self.key, False),)


cdef tuple _rl_diag_key(Py_ssize_t length, Py_ssize_t k):
    ar = np.arange(length, dtype=np.int64)
    if k >= 0:
        return (ar, ar + k)
    return (ar - k, ar)


cdef Tensor _diag(Tensor x, object diagonal):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t k = diagonal, n, length
    cdef Tensor r
    cdef tuple key
    if nd == 1:
        n = _shp(x._data)[0]
        size = n + (k if k >= 0 else -k)
        out = np.zeros((size, size), dtype=x._data.dtype)
        key = _rl_diag_key(n, k)
        out[key] = x._data
        r = _make(out)
        if _grad_on() and x._requires_grad:
            node = <DiagEmbedBackward0>DiagEmbedBackward0.__new__(DiagEmbedBackward0)
            node.key = key
            _record1(node, r, x)
        return r
    if nd == 2:
        out = np.diagonal(x._data, k).copy()
        key = _rl_diag_key(_shp(out)[0], k)
        r = _make(out)
        if _grad_on() and x._requires_grad:
            node2 = <DiagonalBackward0_copy>DiagonalBackward0_copy.__new__(DiagonalBackward0_copy)
            node2.in_shape = _shp(x._data)
            node2.key = key
            _record1(node2, r, x)
        return r
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")


def diag(input, diagonal=0):
    """A 1-D tensor as a (k-th) diagonal matrix, or a matrix's (k-th) diagonal.

    >>> import autograd_core as torch
    >>> torch.diag(torch.tensor([1., 2.]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    return _diag(_arg(input, "diag"), diagonal)


@_tensor_method("diag")
def _tensor_diag(self, diagonal=0):
    return _diag(self, diagonal)


cdef class TrilBackward0(Node):
    cdef Py_ssize_t diagonal

    cdef tuple apply(self, tuple grads):
        return (_tril_triu(grads[0], self.diagonal, True),)


cdef class TriuBackward0(Node):
    cdef Py_ssize_t diagonal

    cdef tuple apply(self, tuple grads):
        return (_tril_triu(grads[0], self.diagonal, False),)


cdef Tensor _tril_triu(Tensor x, object diagonal, bint lower):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if nd < 2:
        raise RuntimeError(f"{'tril' if lower else 'triu'}: input tensor must have at least 2 "
                           "dimensions")
    cdef Py_ssize_t k = diagonal
    cdef Tensor r = _make(_as_array(np.tril(x._data, k) if lower else np.triu(x._data, k)))
    if _grad_on() and x._requires_grad:
        if lower:
            node = <TrilBackward0>TrilBackward0.__new__(TrilBackward0)
            node.diagonal = k
            _record1(node, r, x)
        else:
            node2 = <TriuBackward0>TriuBackward0.__new__(TriuBackward0)
            node2.diagonal = k
            _record1(node2, r, x)
    return r


def tril(input, diagonal=0):
    """The lower triangle (on and below the k-th diagonal) of the last two dims.

    >>> import autograd_core as torch
    >>> torch.tril(torch.ones(2, 2))
    tensor([[1., 0.],
            [1., 1.]])
    """
    return _tril_triu(_arg(input, "tril"), diagonal, True)


def triu(input, diagonal=0):
    """The upper triangle (on and above the k-th diagonal) of the last two dims.

    >>> import autograd_core as torch
    >>> torch.triu(torch.ones(2, 2), 1)
    tensor([[0., 1.],
            [0., 0.]])
    """
    return _tril_triu(_arg(input, "triu"), diagonal, False)


@_tensor_method("tril")
def _tensor_tril(self, diagonal=0):
    return _tril_triu(self, diagonal, True)


@_tensor_method("triu")
def _tensor_triu(self, diagonal=0):
    return _tril_triu(self, diagonal, False)


@_tensor_method("tril_")
def _tensor_tril_(self, diagonal=0):
    return _inplace_unary_op(self, lambda t: _tril_triu(t, diagonal, True))


@_tensor_method("triu_")
def _tensor_triu_(self, diagonal=0):
    return _inplace_unary_op(self, lambda t: _tril_triu(t, diagonal, False))


# ================================================================ inv, det, solve

class _LinAlgError(RuntimeError):
    """Raised for singular matrices (autograd_core.linalg.LinAlgError, as torch's)."""


cdef void _rl_square_check(Tensor A, str fname) except *:
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(A._data)
    if nd < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    s = _shp(A._data)
    if s[-1] != s[-2]:
        raise RuntimeError(f"{fname}: A must be batches of square matrices, but they are "
                           f"{s[-2]} by {s[-1]} matrices")


cdef Py_ssize_t _rl_first_zero_pivot(object a):
    """1-based index of the first exactly-zero pivot of a's LU factorisation with
    partial pivoting (LAPACK getrf's info), or 0."""
    m = np.array(a, dtype=np.float64)
    cdef Py_ssize_t n = m.shape[0], j, p
    cdef Py_ssize_t info = 0
    for j in range(n):
        p = j + int(np.argmax(np.abs(m[j:, j])))
        if m[p, j] == 0:
            if info == 0:
                info = j + 1
            continue
        if p != j:
            m[[j, p]] = m[[p, j]]
        m[j + 1:, j] /= m[j, j]
        m[j + 1:, j + 1:] -= np.outer(m[j + 1:, j], m[j, j + 1:])
    return info


cdef object _rl_singular_batch(cnp.ndarray A, tuple batch):
    """(batch index, pivot info) of the first singular matrix in A's (broadcast) batch."""
    s = _shp(A)
    mats = np.broadcast_to(A, tuple(batch) + s[-2:]).reshape((-1,) + s[-2:])
    cdef Py_ssize_t i
    for i in range(mats.shape[0]):
        info = _rl_first_zero_pivot(mats[i])
        if info:
            return i, info
        try:
            np.linalg.inv(mats[i])
        except np.linalg.LinAlgError:
            return i, mats.shape[-1]
    return 0, mats.shape[-1]


cdef class LinalgInvExBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        Ainv = _rl_mT(self.output())
        return (_neg(_matmul(Ainv, _matmul(grads[0], Ainv))),)


cdef Tensor _linalg_inv(Tensor A):
    _rl_square_check(A, "linalg.inv")
    _rl_check_low_precision(A, "linalg.inv")
    try:
        with _quiet():
            out = np.linalg.inv(A._data)
    except np.linalg.LinAlgError:
        s = _shp(A._data)
        b, info = _rl_singular_batch(A._data, s[:-2])
        prefix = f"(Batch element {b}): " if len(s) > 2 else ""
        raise _LinAlgError(f"linalg.inv: {prefix}The diagonal element {info} is zero, the "
                           "inversion could not be completed because the input matrix is "
                           "singular.") from None
    cdef Tensor r = _make(_as_array(out))
    if _grad_on() and A._requires_grad:
        node = <LinalgInvExBackward0>LinalgInvExBackward0.__new__(LinalgInvExBackward0)
        _save_own_output(node, r)
        _record1(node, r, A)
    return r


cdef class LinalgDetBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_det_backward(grads[0], self.output(), self.input()),)


cdef Tensor _det_backward(Tensor g, Tensor det, Tensor A):
    """PyTorch's linalg_det_backward: det * A^{-T} (a solve) for invertible A; for
    (nearly) singular A under create_graph, the cofactors from an SVD; without grad
    mode an exactly singular A (det == 0) gets zeros, as PyTorch's perturbed LU gives."""
    cdef tuple shape = _shp(A._data)
    cdef Py_ssize_t n = shape[-1]
    if n == 0:
        return _zeros(shape, _dtype_of(A._data))
    if n == 1:
        return _expand(_unsqueeze(_unsqueeze(g, -1), -1), shape)
    d = _mul(g, det)
    if not _grad_on():
        dd = np.broadcast_to(d._data, shape[:-2])
        out = np.zeros(shape, dtype=A._data.dtype)
        nz = dd != 0
        if nz.any():
            At = np.swapaxes(A._data, -1, -2)
            rhs = dd[nz][..., None, None] * np.eye(n, dtype=A._data.dtype)
            with _quiet():
                out[nz] = np.linalg.solve(At[nz] if At.ndim > 2 else At, rhs if At.ndim > 2 else rhs[0])
        return _make(out)
    eps = np.finfo(A._data.dtype).eps
    singular = np.abs(det._data) < 100 * eps
    if not singular.any():
        return _det_nonsingular(A, d)
    if singular.all() or cnp.PyArray_NDIM(A._data) == 2:
        return _det_singular(A, g)
    mask = np.asarray(singular)
    ks = tuple(np.nonzero(mask))          # batch positions of the singular matrices
    kn = tuple(np.nonzero(~mask))
    gs = _det_singular(_index_recorded(A, ks, True), _index_recorded(g, ks, True))
    gn = _det_nonsingular(_index_recorded(A, kn, True), _index_recorded(d, kn, True))
    return _add(_index_put_zeros(gs, shape, ks, False), _index_put_zeros(gn, shape, kn, False))


cdef Tensor _det_nonsingular(Tensor A, Tensor d):
    cdef Py_ssize_t n = _shp(A._data)[-1]
    eye = _make(np.eye(n, dtype=A._data.dtype))
    return _linalg_solve(_rl_mT(A), _mul(_unsqueeze(_unsqueeze(d, -1), -1), eye), True)


cdef Tensor _det_singular(Tensor A, Tensor g):
    U, S, Vh = _linalg_svd(A, True)
    alpha = _mul(_linalg_det(<Tensor>U), _linalg_det(<Tensor>Vh))
    cdef Tensor s = <Tensor>S
    D = _prod_safe_zeros_backward(_unsqueeze(_mul(g, alpha), -1), s, cnp.PyArray_NDIM(s._data) - 1)
    return _matmul(_mul(<Tensor>U, _unsqueeze(D, -2)), <Tensor>Vh)


cdef Tensor _linalg_det(Tensor A):
    _rl_square_check(A, "linalg.det")
    _rl_check_low_precision(A, "linalg.det", True)
    with _quiet():
        out = np.linalg.det(A._data)
    cdef Tensor r = _make(_as_array(out).astype(A._data.dtype, copy=False))
    if _grad_on() and A._requires_grad:
        node = <LinalgDetBackward0>LinalgDetBackward0.__new__(LinalgDetBackward0)
        node.self_ = A
        node.self_version = _version_for_save(A)
        _save_own_output(node, r)
        _record1(node, r, A)
    return r


cdef class LinalgSolveExBackward0(_SavedNode):
    cdef bint left
    cdef bint vector

    cdef tuple apply(self, tuple grads):
        cdef Tensor gX = grads[0]
        A = self.input()
        X = self.output()
        gXm = _unsqueeze(gX, -1) if self.vector else gX
        gB_ = _linalg_solve(_rl_mT(A), gXm, self.left)
        gA = gB = None
        if _needs(self, 0):
            Xm = _unsqueeze(X, -1) if self.vector else X
            gA = _neg(_matmul(gB_, _rl_mT(Xm)) if self.left else _matmul(_rl_mT(Xm), gB_))
        if _needs(self, 1):
            gB = _squeeze(gB_, -1) if self.vector else gB_
        return (gA, gB)


cdef Tensor _linalg_solve(Tensor A, Tensor B, bint left):
    cdef str fname = "linalg.solve"
    cdef dtype da = _dtype_of(A._data), db = _dtype_of(B._data)
    if da.category != 2:
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. "
                           f"Got {_legacy_scalar_name(da)}")
    if da is not db:
        raise RuntimeError(f"{fname}: Expected A and B to have the same dtype, but found A of type "
                           f"{_legacy_scalar_name(da)} and B of type {_legacy_scalar_name(db)} instead")
    cdef Py_ssize_t na = cnp.PyArray_NDIM(A._data), nb = cnp.PyArray_NDIM(B._data)
    sa, sb = _shp(A._data), _shp(B._data)
    cdef bint vector = nb == 1 or (na - 1 == nb and sb == sa[:-1])
    _rl_square_check(A, fname)
    _rl_check_low_precision(A, fname, True)
    Ba = B._data[..., None] if vector else B._data
    sbm = _shp(Ba)
    if len(sbm) < 2:
        raise RuntimeError(f"{fname}: The input tensor B must have at least 2 dimensions.")
    if (sa[-2] != sbm[-2]) if left else (sa[-1] != sbm[-1]):
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({sa[-2]}x{sa[-1]} and {sbm[-2]}x{sbm[-1]})")
    if not left and vector:
        raise RuntimeError(
            f"{fname}: Vector broadcasting of the left hand side is not supported for left=False. "
            "In this case linalg.solve is equivalent to B / A.squeeze(-1)")
    try:
        batch = np.broadcast_shapes(sa[:-2], sbm[:-2])
    except ValueError:
        raise _broadcast_error(sbm[:-2], sa[:-2]) from None
    try:
        with _quiet():
            if left:
                out = np.linalg.solve(A._data, Ba)
            else:
                out = np.swapaxes(np.linalg.solve(np.swapaxes(A._data, -1, -2),
                                                  np.swapaxes(Ba, -1, -2)), -1, -2)
    except np.linalg.LinAlgError:
        b, _ = _rl_singular_batch(A._data, batch)
        prefix = f"(Batch element {b}): " if len(batch) else ""
        raise _LinAlgError(f"autograd_core.linalg.solve: {prefix}The solver failed because the "
                           "input matrix is singular.") from None
    if vector:
        out = out[..., 0]
    cdef Tensor r = _make(np.ascontiguousarray(out))
    if _grad_on() and (A._requires_grad or B._requires_grad):
        node = <LinalgSolveExBackward0>LinalgSolveExBackward0.__new__(LinalgSolveExBackward0)
        node.left = left
        node.vector = vector
        node.self_ = A
        node.self_version = _version_for_save(A)
        _save_own_output(node, r)
        _record2(node, r, A, B)
        node.input_shapes = ((sa, da), (sb, db))
    return r


def linalg_inv(A):
    """torch.linalg.inv: the inverse of a (batch of) square matrix.

    >>> import autograd_core as torch
    >>> torch.linalg.inv(torch.tensor([[2., 0.], [0., 4.]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.2500]])
    """
    return _linalg_inv(_arg(A, "linalg_inv"))


def inverse(input):
    """Alias of linalg.inv.

    >>> import autograd_core as torch
    >>> torch.inverse(torch.tensor([[4.]]))
    tensor([[0.2500]])
    """
    return _linalg_inv(_arg(input, "inverse"))


def linalg_det(A):
    """torch.linalg.det: the determinant of a (batch of) square matrix.

    >>> import autograd_core as torch
    >>> torch.linalg.det(torch.tensor([[2., 1.], [1., 3.]]))
    tensor(5.)
    """
    return _linalg_det(_arg(A, "linalg_det"))


def det(input):
    """Alias of linalg.det.

    >>> import autograd_core as torch
    >>> torch.det(torch.eye(3) * 2)
    tensor(8.)
    """
    return _linalg_det(_arg(input, "det"))


def linalg_solve(A, B, *, left=True):
    """torch.linalg.solve: X with A X = B (or X A = B when left=False).

    >>> import autograd_core as torch
    >>> torch.linalg.solve(torch.tensor([[2., 0.], [0., 4.]]), torch.tensor([2., 2.]))
    tensor([1.0000, 0.5000])
    """
    return _linalg_solve(_arg(A, "linalg_solve"), _require_tensor(B, "linalg_solve"), left)


@_tensor_method("inverse")
def _tensor_inverse(self):
    return _linalg_inv(self)


@_tensor_method("det")
def _tensor_det(self):
    return _linalg_det(self)
