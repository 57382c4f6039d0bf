"""Reductions: sum, mean, prod, max/min (over everything, along a dim with indices, or
elementwise against another tensor), amax/amin, argmax/argmin, var/std, logsumexp,
cumsum/cumprod (and their in-place forms), all/any, and sum_to (the engine's
reduction of a broadcast gradient).

Their nodes, wiring and Python wrappers are generated from the reduce section of
derivatives.yaml (_gen_reduce.pxi, included at the end). This file holds the forwards,
the derivative helpers the formulas call (named as PyTorch's FunctionsManual), and the
Python wrappers of the overloaded functions (max, min, var, std, prod).

>>> import autograd_core as torch
>>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> x.sum(1).grad_fn.name(), x.max().grad_fn.name(), x.max(0).values.grad_fn.name()
('SumBackward1', 'MaxBackward1', 'MaxBackward0')
"""
include "_prelude.pxi"

import collections


# ================================================================ dims

cdef inline bint _is_empty_dims(object dim):
    return isinstance(dim, (tuple, list)) and len(dim) == 0


cdef list _given_dims(object dim, Py_ssize_t nd):
    """(wrapped, as given) for each dim of a dim argument: messages quote the user's
    spelling of a dim."""
    if is_all_dims(dim):
        return [(k, k) for k in range(nd)]
    items = dim if isinstance(dim, (tuple, list)) else (dim,)
    return [(wrap_dim(d, nd) if nd else 0, d) for d in items]


cdef inline object _axis(tuple dims, Py_ssize_t nd):
    """numpy's axis argument for the dims of an nd-dim input (None for 0-d)."""
    return dims if nd else None


cdef tuple _kept_shape(tuple shape, tuple dims):
    """shape with the reduced dims kept as size 1 (keepdim=True's output shape)."""
    cdef list out = list(shape)
    for d in dims:
        out[d] = 1
    return tuple(out)


cdef object _numel_over(tuple shape, tuple dims):
    cdef object n = 1
    for d in dims:
        n *= shape[d]
    return n


cdef dtype _accumulating_dtype(dtype d, object out_dtype):
    """The dtype sum / prod / cumsum / cumprod compute and return: the dtype argument,
    else the input's for floating inputs, else int64 (as PyTorch)."""
    if out_dtype is not None:
        return <dtype>out_dtype
    return d if d.category == CAT_FLOAT else int64


cdef inline object _acc_np_dtype(dtype d):
    """numpy dtype a cumulative float reduction runs in: float64 then rounded reproduces
    PyTorch's float32 cumsum/cumprod."""
    return np.float64 if d.category == CAT_FLOAT else d.np_dtype


cdef object _reduction_error(str fname, cnp.ndarray x, object dim, bint full):
    """PyTorch's error for a max/min-like reduction of nothing, or None."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    if cnp.PyArray_SIZE(x) != 0:
        return None
    if full:
        return RuntimeError(
            f"{fname}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument.")
    for d, given in _given_dims(dim, nd):
        if nd and shape_of(x)[d] == 0:
            return IndexError(f"{fname}(): Expected reduction dim {given} to have non-zero size.")
    return None


# ================================================================ derivative helpers
# Called from the formulas of derivatives.yaml; written in differentiable ops, so
# create_graph and higher orders work.

cdef inline Tensor _as_dtype(Tensor t, dtype d):
    """t in dtype d (a recorded cast when it differs)."""
    if dtype_of(t._data) is d:
        return t
    return OPS._to_copy(t, d)


cdef Tensor cast_back(Tensor grad, dtype input_dtype):
    """A gradient computed in an op's dtype argument, cast back to its input's dtype
    (what PyTorch's engine does for inputs an op converted)."""
    return _as_dtype(grad, input_dtype)


cdef Tensor _restore_reduced_dims(Tensor g, tuple shape, tuple dims, bint keepdim):
    """A reduction's output (or gradient) with the reduced dims back as size 1."""
    if keepdim or len(shape) == 0:
        return g
    return OPS.reshape(g, _kept_shape(shape, dims))


cdef Tensor sum_backward(Tensor grad, tuple sizes, tuple dims, bint keepdim):
    """The gradient of sum over dims: broadcast back over the reduced dims."""
    if dims:
        grad = _restore_reduced_dims(grad, sizes, dims, keepdim)
    return OPS.expand(grad, sizes)


cdef object reduced_numel(tuple sizes, object dims):
    """How many elements each output of a reduction over dims (None: all) averages."""
    return _numel_over(sizes, tuple(range(len(sizes))) if dims is None else <tuple>dims)


cdef Tensor evenly_distribute_backward(Tensor grad, Tensor self, Tensor result):
    """max() / min() of everything: the gradient is shared evenly among the elements
    equal to the result (NaN counts as equal to a NaN result), as PyTorch."""
    cdef cnp.ndarray x = self._data, r = result._data
    mask = as_array((x == r) | (np.isnan(x) & np.isnan(r)))
    count = int(mask.sum())
    return OPS.mul(OPS.expand(OPS.div_scalar(grad, count), shape_of(x)),
                   make(mask.astype(x.dtype)))


cdef Tensor value_selecting_reduction_backward(Tensor grad, object dim, Tensor indices,
                                               tuple sizes, bint keepdim):
    """max(dim) / min(dim): the gradient goes to the selected index of each slice."""
    cdef Py_ssize_t nd = len(sizes)
    if nd == 0:
        return grad          # a 0-d input is its own max
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef cnp.ndarray idx = indices._data
    if not keepdim:
        grad = OPS.unsqueeze(grad, d)
        idx = np.expand_dims(idx, d)
    return OPS.scatter_add(zeros(sizes, dtype_of(grad._data)), d, make(idx), grad)


cdef Tensor amax_amin_backward(Tensor grad, Tensor self, Tensor result, tuple dims,
                               bint keepdim):
    """amax / amin: the gradient is shared evenly among the positions equal to the
    result (PyTorch's scale_grad_by_count(restore_reduced_dims(grad), result == self))."""
    cdef cnp.ndarray x = self._data, r = result._data
    cdef tuple shape = shape_of(x)
    cdef Tensor g = _restore_reduced_dims(grad, shape, dims, keepdim)
    if not (keepdim or len(shape) == 0):
        r = r.reshape(_kept_shape(shape, dims))
    mask = r == x
    count = mask.sum(axis=_axis(dims, len(shape)), keepdims=True)
    dt = g._data.dtype
    return OPS.mul(OPS.div(g, make(np.asarray(count, dtype=dt)), None),
                   make(np.asarray(mask, dtype=dt)))


cdef Tensor prod_backward(Tensor grad, Tensor self, Tensor result, object dim=None,
                          bint keepdim=False):
    """PyTorch's prod_backward (of everything, or along dim): result / input, or where
    the input has zeros, the products of the other elements."""
    cdef Tensor x = _as_dtype(self, dtype_of(grad._data))
    cdef tuple shape = shape_of(x._data)
    cdef Py_ssize_t nd = len(shape), nzero, d
    if nd == 0:
        return grad
    if dim is None:
        nzero = np.count_nonzero(x._data == 0)
        if nzero == 0:
            return OPS.mul(grad, OPS.div(result, x, None))
        if nzero > 1 and not grad_enabled():
            return zeros(shape, dtype_of(grad._data))
        return OPS.reshape(prod_safe_zeros_backward(grad, OPS.reshape(x, (-1,)), 0), shape)
    d = wrap_dim(dim, nd)
    if not keepdim:
        grad = OPS.unsqueeze(grad, d)
        result = OPS.unsqueeze(result, d)
    if not (x._data == 0).any():
        return OPS.mul(grad, OPS.div(result, x, None))
    return prod_safe_zeros_backward(grad, x, d)


cdef Tensor prod_safe_zeros_backward(Tensor grad, Tensor inp, Py_ssize_t dim):
    """grad times the product of all other elements along dim: exclusive cumulative
    products from both ends (no division, so zeros are exact)."""
    cdef tuple shape = shape_of(inp._data)
    if cnp.PyArray_SIZE(inp._data) == 0:
        return OPS.expand(grad, shape)
    cdef Py_ssize_t n = shape[dim]
    if n == 1:
        return grad
    ones = make(np.ones(_kept_shape(shape, (dim,)), dtype=inp._data.dtype))
    excl_normal = op_cumprod(OPS.cat([ones, OPS.narrow(inp, dim, 0, n - 1)], dim), dim, None)
    rest = OPS.flip(OPS.narrow(inp, dim, 1, n - 1), (dim,))
    excl_reverse = OPS.flip(op_cumprod(OPS.cat([ones, rest], dim), dim, None), (dim,))
    return OPS.mul(grad, OPS.mul(excl_normal, excl_reverse))


cdef object _two_over(object dof):
    """2 / dof as C++ doubles divide (2 / 0 is inf)."""
    if dof == 0:
        return float("inf")
    return 2.0 / dof


cdef Tensor var_backward(Tensor grad, Tensor self, object dims, object correction,
                         bint keepdim):
    """PyTorch's var_backward: 2 / (N - correction) * grad * (self - mean). dims is None
    when no dim was given (all reduced), () when dim=() was (PyTorch then takes N = 1)."""
    cdef tuple shape = shape_of(self._data)
    cdef Py_ssize_t nd = len(shape)
    if nd == 0 or dims is None:
        dof = cnp.PyArray_SIZE(self._data) - correction
        if dof <= 0:
            m = np.mean(self._data) if cnp.PyArray_SIZE(self._data) else np.nan
            with quiet():
                fill = np.where(self._data == m, np.nan, np.inf).astype(self._data.dtype)
            return OPS.mul(grad, make(as_array(fill)))
        return OPS.mul(OPS.mul(grad, _two_over(dof)),
                       OPS.sub(self, op_mean(self, None, False, None), 1))
    cdef tuple dd = <tuple>dims
    if not keepdim and nd > 1 and dd:
        grad = OPS.reshape(grad, _kept_shape(shape, dd))
    return OPS.mul(OPS.mul(grad, _two_over(_numel_over(shape, dd) - correction)),
                   OPS.sub(self, op_mean(self, dd, True, None), 1))


cdef Tensor std_backward(Tensor result, Tensor grad, Tensor self, object dims,
                         object correction, bint keepdim):
    """PyTorch's std_backward: var_backward of grad / (2 * std), zero where std is 0."""
    cdef Tensor gv = OPS.where(make(as_array(result._data == 0)), zeros((), dtype_of(grad._data)),
                               OPS.div(grad, OPS.mul(result, 2), None))
    return var_backward(gv, self, dims, correction, keepdim)


cdef Tensor logsumexp_backward(Tensor grad, Tensor self, Tensor result, tuple dims,
                               bint keepdim):
    """grad * exp(self - result), the reduced dims restored."""
    cdef tuple shape = shape_of(self._data)
    grad = _restore_reduced_dims(grad, shape, dims, keepdim)
    result = _restore_reduced_dims(result, shape, dims, keepdim)
    return OPS.mul(grad, OPS.exp(OPS.sub(self, result, 1)))


cdef Tensor cumsum_backward(Tensor grad, Py_ssize_t dim):
    """The reversed cumulative sum along dim (flip, cumsum, flip)."""
    if cnp.PyArray_SIZE(grad._data) <= 1 or cnp.PyArray_NDIM(grad._data) == 0 \
            or shape_of(grad._data)[dim] == 1:
        return grad
    return OPS.flip(op_cumsum(OPS.flip(grad, (dim,)), dim, None), (dim,))


cdef Tensor cumprod_backward(Tensor grad, Tensor self, Py_ssize_t dim, Tensor result):
    """PyTorch's cumprod_backward: d input_k = sum over outputs i >= k of grad_i times
    the product of the inputs up to i but k. Without zeros that is
    reversed_cumsum(result * grad) / input; with zeros, _cumprod_backward_zeros."""
    cdef Tensor x = _as_dtype(self, dtype_of(grad._data))
    if cnp.PyArray_SIZE(x._data) <= 1 or cnp.PyArray_NDIM(x._data) == 0:
        return grad
    if shape_of(x._data)[dim] == 1:
        return grad
    if not (x._data == 0).any():
        return OPS.div(cumsum_backward(OPS.mul(result, grad), dim), x, None)
    if not grad_enabled():
        return make(_cumprod_backward_zeros(grad._data, x._data, result._data, dim))
    return _cumprod_backward_differentiable(grad, x, dim)


cdef cnp.ndarray _cumprod_backward_zeros(cnp.ndarray g, cnp.ndarray x, cnp.ndarray out,
                                         Py_ssize_t dim):
    """cumprod's gradient where inputs have zeros, in O(n) (PyTorch's path outside
    create_graph). Along each slice, with z the first zero: before z, reversed_cumsum
    (out * g) / x; at z, the sum over i >= z of g_i times the cumulative product with
    x_z taken as 1; after z, zero (every product holds x_z)."""
    acc = _acc_np_dtype(dtype_of(x))
    is_zero = x == 0
    zeros_so_far = np.cumsum(is_zero, axis=dim)
    before = zeros_so_far == 0
    first_zero = is_zero & (zeros_so_far == 1)
    with quiet():
        w = np.where(before, out * g, 0)
        rc = np.flip(np.cumsum(np.flip(w, dim), axis=dim, dtype=acc), dim)
        res = np.where(before, rc / np.where(before, x, 1), 0)
        cp = np.cumprod(np.where(first_zero, 1, x), axis=dim, dtype=acc)
        at_zero = np.sum(np.where(zeros_so_far >= 1, g * cp, 0), axis=dim, keepdims=True)
        res = np.where(first_zero, at_zero, res)
    return as_array(res).astype(g.dtype, copy=False)


cdef Tensor _cumprod_backward_differentiable(Tensor grad, Tensor x, Py_ssize_t dim):
    """cumprod's gradient where inputs have zeros, in differentiable ops (create_graph):
    every position k along dim at once, on a new leading axis: the cumulative products
    of the input with element k taken as 1, times grad, summed over the outputs i >= k."""
    cdef tuple shape = shape_of(x._data)
    cdef Py_ssize_t nd = len(shape), n = shape[dim]
    k = np.arange(n).reshape((n,) + (1,) * nd)
    pos = np.arange(n).reshape((1,) + tuple([n if a == dim else 1 for a in range(nd)]))
    xk = OPS.expand(OPS.unsqueeze(x, 0), (n,) + shape)
    omitted = op_cumprod(OPS.where(make(as_array(pos == k)), make_scalar(1, dtype_of(x._data)), xk),
                         dim + 1, None)
    terms = OPS.where(make(as_array(pos < k)), zeros((), dtype_of(grad._data)),
                      OPS.mul(OPS.unsqueeze(grad, 0), omitted))
    summed = op_sum(terms, (dim + 1,), True, None)           # k on axis 0, 1 at dim + 1
    return OPS.reshape(OPS.transpose(summed, 0, dim + 1), shape)


# ================================================================ sum / mean / sum_to

cdef Tensor op_sum(Tensor self, object dim, bint keepdim, object out_dtype):
    cdef cnp.ndarray x = self._data
    cdef dtype od = _accumulating_dtype(dtype_of(x), out_dtype)
    cdef Tensor result
    cdef tuple dims
    if dim is None and not keepdim:
        result = make(as_array(np.add.reduce(x, axis=None, dtype=od.np_dtype)))
        record_SumBackward0(result, self, None, False, out_dtype)
        return result
    dims = reduction_dims(dim, cnp.PyArray_NDIM(x))
    result = make(as_array(np.add.reduce(x, axis=dims, dtype=od.np_dtype, keepdims=keepdim)))
    record_SumBackward1(result, self, dims, keepdim, out_dtype)
    return result


cdef cnp.ndarray _mean_values(cnp.ndarray x, tuple dims, bint full, bint keepdim):
    """numpy's mean over dims (all of them when full), step for step, in x's dtype: a
    float16 input sums in float32; the sum is divided by the count in double precision
    and rounded as numpy does (once for a single value, through the sum's dtype for an
    array). Without numpy's overhead and its warning on empty slices."""
    acc = np.float32 if dtype_of(x) is float16 else None
    s = np.add.reduce(x, axis=None if full else dims, dtype=acc, keepdims=keepdim)
    count = _numel_over(shape_of(x), dims)
    if not cnp.PyArray_Check(s) and count:
        return np.asarray(float(s) / count, dtype=x.dtype)
    with quiet():
        q = np.true_divide(s, np.intp(count))
    return as_array(q).astype(as_array(s).dtype, copy=False).astype(x.dtype, copy=False)


cdef Tensor op_mean(Tensor self, object dim, bint keepdim, object out_dtype):
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x) if out_dtype is None else <dtype>out_dtype
    if d.category != CAT_FLOAT:
        which = "Input" if out_dtype is None else "Optional"
        raise RuntimeError(
            f"mean(): could not infer output dtype. {which} dtype must be either a floating "
            f"point or complex dtype. Got: {d.scalar_name}")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef tuple dims = reduction_dims(dim, nd)
    cdef bint full = dim is None
    cdef Tensor result = make(_mean_values(cast_array(x, d), dims, full, keepdim))
    if full and not keepdim:
        record_MeanBackward0(result, self, None, False, out_dtype)
    else:
        record_MeanBackward1(result, self, dims, keepdim, out_dtype)
    return result


cdef Tensor op_sum_to(Tensor self, object size):
    """Sum a broadcast gradient back to `size` (the one place broadcasting is undone:
    the engine and ExpandBackward0 call it)."""
    cdef tuple gs = shape_of(self._data), shape = tuple(size)
    if gs == shape:
        return self
    cdef Py_ssize_t lead = len(gs) - len(shape), i
    cdef list dims = list(range(lead))
    for i in range(len(shape)):
        if shape[i] == 1 and gs[lead + i] != 1:
            dims.append(lead + i)
    cdef Tensor g = self
    if dims:
        g = op_sum(g, tuple(dims), True, None)
    if shape_of(g._data) != shape:
        g = OPS.reshape(g, shape)
    return g


# ================================================================ prod

cdef Tensor op_prod(Tensor self, object dim, bint keepdim, object out_dtype):
    cdef dtype od = _accumulating_dtype(dtype_of(self._data), out_dtype)
    cdef cnp.ndarray xa = cast_array(self._data, od)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa), d
    cdef Tensor result
    if dim is None:
        with quiet():
            result = make(as_array(np.prod(xa, dtype=od.np_dtype)))
        record_ProdBackward0(result, self, None, keepdim, out_dtype)
        return result
    d = wrap_dim(dim, nd)
    with quiet():
        result = make(as_array(np.prod(xa, axis=d if nd else None, keepdims=keepdim,
                                       dtype=od.np_dtype)))
    record_ProdBackward1(result, self, d, keepdim, out_dtype)
    return result


def _py_prod(input, dim=None, keepdim=False, *, dtype=None):
    cdef Tensor self = arg_tensor(input, "prod", "input", 1)
    if isinstance(dim, (tuple, list)):
        raise TypeError(
            "prod() received an invalid combination of arguments - got (tuple), but "
            "expected one of:\n * (*, autograd_core.dtype dtype = None)\n * (int dim, bool "
            "keepdim = False, *, autograd_core.dtype dtype = None)\n")
    return op_prod(self, None if dim is None else arg_int(dim, "prod", "dim", 2),
                   arg_bool(keepdim, "prod", "keepdim", 3),
                   None if dtype is None else to_dtype(dtype))


# ================================================================ max / min

class _ReturnTypeMixin:
    """A (values, indices) result, a named tuple printed as PyTorch's return types."""
    __slots__ = ()

    def __repr__(self):
        return (f"autograd_core.return_types.{type(self).__name__}(\nvalues={self.values!r},\n"
                f"indices={self.indices!r})")


class _MaxResult(_ReturnTypeMixin, collections.namedtuple("max", ["values", "indices"])):
    __slots__ = ()


class _MinResult(_ReturnTypeMixin, collections.namedtuple("min", ["values", "indices"])):
    __slots__ = ()


for _cls, _name in ((_MaxResult, "max"), (_MinResult, "min")):
    _cls.__name__ = _cls.__qualname__ = _name
    _cls.__module__ = "autograd_core.return_types"
del _cls, _name


cdef Tensor op_max(Tensor self):
    cdef cnp.ndarray x = self._data
    err = _reduction_error("max", x, None, True)
    if err is not None:
        raise err
    with quiet():
        values = as_array(np.max(x))
    cdef Tensor result = make(values)
    record_MaxBackward1(result, self)
    return result


cdef Tensor op_min(Tensor self):
    cdef cnp.ndarray x = self._data
    err = _reduction_error("min", x, None, True)
    if err is not None:
        raise err
    with quiet():
        values = as_array(np.min(x))
    cdef Tensor result = make(values)
    record_MinBackward1(result, self)
    return result


cdef tuple _select_along(cnp.ndarray x, Py_ssize_t d, bint keepdim, object arg_fn, str fname):
    """(values, indices) of max/min along dim d (arg_fn: np.argmax or np.argmin)."""
    if cnp.PyArray_NDIM(x) == 0:
        return x.copy(), np.zeros((), dtype=np.int64)
    if shape_of(x)[d] == 0:
        raise IndexError(f"{fname}(): Expected reduction dim {d} to have non-zero size.")
    idx = arg_fn(x, axis=d, keepdims=True)
    vals = np.take_along_axis(x, idx, axis=d)
    if not keepdim:
        idx = np.squeeze(idx, axis=d)
        vals = np.squeeze(vals, axis=d)
    return as_array(vals).copy(), as_array(idx).astype(np.int64, copy=False)


cdef tuple op_max_dim(Tensor self, object dim, bint keepdim):
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(self._data))
    vals, idx = _select_along(self._data, d, keepdim, np.argmax, "max")
    cdef Tensor values = make(vals), indices = make(idx)
    record_MaxBackward0(values, indices, self, d, keepdim)
    return (values, indices)


cdef tuple op_min_dim(Tensor self, object dim, bint keepdim):
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(self._data))
    vals, idx = _select_along(self._data, d, keepdim, np.argmin, "min")
    cdef Tensor values = make(vals), indices = make(idx)
    record_MinBackward0(values, indices, self, d, keepdim)
    return (values, indices)


cdef void _check_no_keepdim_with_other(str fname, object keepdim) except *:
    if keepdim is not False:
        raise TypeError(f"{fname}(): argument 'dim' (position 1) must be int, not Tensor")


# The table's max / min entries: max(input), max(input, dim, keepdim=False) (MaxBackward0,
# through max_dim), max(input, other) (the pointwise family's maximum).
def _py_max(input, dim=None, keepdim=False, *, other=None):
    cdef Tensor self = arg_tensor(input, "max", "input", 1)
    if other is not None:
        dim = other
    if isinstance(dim, Tensor):
        _check_no_keepdim_with_other("max", keepdim)
        return OPS.maximum(self, <Tensor>dim)
    if dim is None:
        return op_max(self)
    return _MaxResult(*op_max_dim(self, arg_int(dim, "max", "dim", 2),
                                  arg_bool(keepdim, "max", "keepdim", 3)))


def _py_min(input, dim=None, keepdim=False, *, other=None):
    cdef Tensor self = arg_tensor(input, "min", "input", 1)
    if other is not None:
        dim = other
    if isinstance(dim, Tensor):
        _check_no_keepdim_with_other("min", keepdim)
        return OPS.minimum(self, <Tensor>dim)
    if dim is None:
        return op_min(self)
    return _MinResult(*op_min_dim(self, arg_int(dim, "min", "dim", 2),
                                  arg_bool(keepdim, "min", "keepdim", 3)))


# ================================================================ amax / amin

cdef tuple _amax_amin_values(Tensor self, object dim, bint keepdim, object reduce_fn, str fname):
    """(values, reduced dims) of amax / amin (reduce_fn: np.amax or np.amin)."""
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef tuple dims = reduction_dims(dim, nd)
    err = _reduction_error(fname, x, dim, is_all_dims(dim))
    if err is not None:
        raise err
    with quiet():
        out = reduce_fn(x, axis=_axis(dims, nd), keepdims=keepdim)
    return as_array(out), dims


cdef Tensor op_amax(Tensor self, object dim, bint keepdim):
    out, dims = _amax_amin_values(self, dim, keepdim, np.amax, "amax")
    cdef Tensor result = make(out)
    record_AmaxBackward0(result, self, dims, keepdim)
    return result


cdef Tensor op_amin(Tensor self, object dim, bint keepdim):
    out, dims = _amax_amin_values(self, dim, keepdim, np.amin, "amin")
    cdef Tensor result = make(out)
    record_AminBackward0(result, self, dims, keepdim)
    return result


# ================================================================ argmax / argmin

cdef Tensor _arg_extremum(Tensor self, object dim, bint keepdim, object arg_fn, str fname):
    """argmax / argmin (arg_fn: np.argmax or np.argmin); integer results, no node."""
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), d
    if dtype_of(x).category == CAT_BOOL:
        raise RuntimeError(f"{fname}(): does not support bool input")
    if dim is None:
        if cnp.PyArray_SIZE(x) == 0:
            raise IndexError(
                f"{fname}(): Expected reduction dim to be specified for input.numel() == 0.")
        out = np.asarray(arg_fn(x), dtype=np.int64)
        if keepdim:
            out = out.reshape((1,) * nd)
        return make(out)
    d = wrap_dim(dim, nd)
    if nd == 0:
        return make(np.zeros((), dtype=np.int64))
    if shape_of(x)[d] == 0:
        raise IndexError(f"{fname}(): Expected reduction dim {d} to have non-zero size.")
    return make(as_array(arg_fn(x, axis=d, keepdims=keepdim)).astype(np.int64, copy=False))


cdef Tensor op_argmax(Tensor self, object dim, bint keepdim):
    return _arg_extremum(self, dim, keepdim, np.argmax, "argmax")


cdef Tensor op_argmin(Tensor self, object dim, bint keepdim):
    return _arg_extremum(self, dim, keepdim, np.argmin, "argmin")


# ================================================================ var / std

cdef tuple _variance(Tensor self, object dim, object correction, bint keepdim, str fname):
    """(variance as float64 values, the dims its node keeps, the correction): the dims
    are None when no dim was given, () when dim=() was (see var_backward), else the
    reduced dims."""
    cdef cnp.ndarray x = self._data
    if dtype_of(x).category != CAT_FLOAT:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if correction is None:
        correction = 1
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef tuple dims = reduction_dims(dim, nd)
    n = _numel_over(shape_of(x), dims) if nd else 1
    dof = n - correction
    if dof <= 0:
        warnings.warn(
            f"{fname}(): degrees of freedom is <= 0. Correction should be strictly less than "
            "the reduction factor (input numel divided by output numel).", UserWarning,
            stacklevel=1)
    axis = _axis(dims, nd)
    xa = x.astype(np.float64)
    with quiet():
        dev = xa - np.mean(xa, axis=axis, keepdims=True)
        out = np.sum(dev * dev, axis=axis, keepdims=keepdim) / (dof if dof > 0 else 0.0)
    return (as_array(out), None if dim is None else (() if _is_empty_dims(dim) else dims),
            correction)


cdef Tensor op_var(Tensor self, object dim, object correction, bint keepdim):
    out, dims, correction = _variance(self, dim, correction, keepdim, "var")
    cdef Tensor result = make(out.astype(self._data.dtype, copy=False))
    record_VarBackward0(result, self, dims, correction, keepdim)
    return result


cdef Tensor op_std(Tensor self, object dim, object correction, bint keepdim):
    out, dims, correction = _variance(self, dim, correction, keepdim, "std")
    cdef Tensor result = make(as_array(np.sqrt(out)).astype(self._data.dtype, copy=False))
    record_StdBackward0(result, self, dims, correction, keepdim)
    return result


cdef tuple _var_std_args(str fname, object dim, object unbiased, object correction):
    """(dim, correction) from var/std's overloads: (dim, unbiased, keepdim),
    (dim, *, correction, keepdim) and (unbiased)."""
    if isinstance(dim, bool):          # var(input, unbiased)
        unbiased = dim
        dim = None
    if unbiased is not None and correction is not None:
        raise TypeError(
            f"{fname}() received an invalid combination of arguments - got (correction="
            f"{type(correction).__name__}, unbiased=bool, ), but expected one of:\n"
            " * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
            " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)\n"
            " * (bool unbiased = True)\n")
    if correction is None:
        correction = 0 if (unbiased is not None
                           and not arg_bool(unbiased, fname, "unbiased", 3)) else 1
    else:
        correction = arg_scalar(correction, fname, "correction", 3)
    return (None if dim is None else arg_int_list(dim, fname, "dim", 2), correction)


# The table's var / std entries, with PyTorch's overloads (an unbiased flag, or correction).
def _py_var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    cdef Tensor self = arg_tensor(input, "var", "input", 1)
    dim, correction = _var_std_args("var", dim, unbiased, correction)
    return op_var(self, dim, correction, arg_bool(keepdim, "var", "keepdim", 4))


def _py_std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    cdef Tensor self = arg_tensor(input, "std", "input", 1)
    dim, correction = _var_std_args("std", dim, unbiased, correction)
    return op_std(self, dim, correction, arg_bool(keepdim, "std", "keepdim", 4))


# ================================================================ logsumexp

cdef Tensor op_logsumexp(Tensor self, object dim, bint keepdim):
    cdef cnp.ndarray xa = self._data
    if dtype_of(xa).category != CAT_FLOAT:
        xa = cast_array(xa, default_float)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    if _is_empty_dims(dim) and nd and not keepdim and cnp.PyArray_SIZE(xa):
        # PyTorch reduces nothing, then fails to write the reduced result
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape "
                           f"[{', '.join(['1'] * nd)}]")
    cdef tuple dims = reduction_dims(dim, nd)
    axis = _axis(dims, nd)
    cdef bint empty_reduce = cnp.PyArray_SIZE(xa) == 0
    for k in dims:
        if shape_of(xa)[k] == 0:
            empty_reduce = True
    with quiet():
        if empty_reduce:
            m = np.zeros(_kept_shape(shape_of(xa), dims), dtype=xa.dtype)
        else:
            m = np.amax(xa, axis=axis, keepdims=True)
            m = np.where(np.isinf(m), np.zeros((), dtype=xa.dtype), m)
        out = np.log(np.sum(np.exp(xa - m), axis=axis, keepdims=True)) + m
        if not keepdim and nd:
            out = np.squeeze(out, axis=dims)
        elif not keepdim:
            out = np.reshape(out, ())
    cdef Tensor result = make(as_array(out).astype(xa.dtype, copy=False))
    record_LogsumexpBackward0(result, self, dims, keepdim)
    return result


# ================================================================ cumsum / cumprod

cdef Tensor op_cumsum(Tensor self, object dim, object out_dtype):
    cdef dtype od = _accumulating_dtype(dtype_of(self._data), out_dtype)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef cnp.ndarray xa = cast_array(self._data, od)
    with quiet():
        out = np.cumsum(xa, axis=d, dtype=_acc_np_dtype(od)) if nd else xa.copy()
    cdef Tensor result = make(as_array(out).astype(od.np_dtype, copy=False))
    record_CumsumBackward0(result, self, d, out_dtype)
    return result


cdef Tensor op_cumprod(Tensor self, object dim, object out_dtype):
    cdef dtype od = _accumulating_dtype(dtype_of(self._data), out_dtype)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef cnp.ndarray xa = cast_array(self._data, od)
    with quiet():
        out = np.cumprod(xa, axis=d, dtype=_acc_np_dtype(od)) if nd else xa.copy()
    cdef Tensor result = make(as_array(out).astype(od.np_dtype, copy=False))
    record_CumprodBackward0(result, self, d, out_dtype)
    return result


# ================================================================ all / any

cdef Tensor _all_any(Tensor self, object dim, bint keepdim, object reduce_fn):
    """all / any (reduce_fn: np.all or np.any): bool results (uint8 for uint8 input)."""
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    if dim is None:
        out = reduce_fn(x, axis=None, keepdims=keepdim)
    elif _is_empty_dims(dim):
        out = x != 0                      # dim=(): nothing is reduced
    else:
        out = reduce_fn(x, axis=_axis(reduction_dims(dim, nd), nd), keepdims=keepdim)
    out = as_array(out)
    if cnp.PyArray_TYPE(x) == cnp.NPY_UINT8:
        out = out.astype(np.uint8)
    return make(out)


cdef Tensor op_all(Tensor self, object dim, bint keepdim):
    return _all_any(self, dim, keepdim, np.all)


cdef Tensor op_any(Tensor self, object dim, bint keepdim):
    return _all_any(self, dim, keepdim, np.any)


include "_gen_reduce.pxi"
