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

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.stdint cimport int64_t

# (pointwise is imported first: autograd_core/__init__.py)
from autograd_core.ops.pointwise import _complex_log_add_exp
from autograd_core._autocast import autocast_args as _autocast_args


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
    return d if d.category >= CAT_FLOAT else int64


cdef inline object _acc_np_dtype(dtype d):
    """numpy dtype a cumulative float reduction runs in: float64 then rounded reproduces
    PyTorch's float32 cumsum/cumprod."""
    return np.float64 if d.category == CAT_FLOAT else (
        np.complex128 if d.category == CAT_COMPLEX else d.np_dtype)


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
    """max() / min() / median() of everything: the gradient is shared evenly among the
    elements equal to the result (the NaNs when the result is NaN), written only there
    (PyTorch's masked_fill: a NaN gradient reaches those elements only)."""
    cdef cnp.ndarray x = self._data, r = result._data
    mask = as_array(np.isnan(x) if np.isnan(r) else (x == r))
    count = int(mask.sum())
    # grad / mask.sum(): a division by a tensor (DivBackward0 under create_graph)
    return OPS.masked_fill(zeros(shape_of(x), dtype_of(grad._data)), make(mask),
                           OPS.div(grad, make(np.asarray(count, dtype=np.int64)), None))


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
    # the selected indices of a slice are distinct: PyTorch's scatter (ScatterBackward0)
    return OPS.scatter(zeros(sizes, dtype_of(grad._data)), d, make(idx), grad, None)


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
    the input has zeros, the products of the other elements. Complex: those products
    conjugated (the formula is a product of the other elements; its conjugate is the
    product of the conjugates), so x and result enter conjugated."""
    cdef Tensor x = <Tensor>cj(_as_dtype(self, dtype_of(grad._data)))
    result = <Tensor>cj(result)
    cdef tuple shape = shape_of(x._data)
    cdef Py_ssize_t nd = len(shape), nzero, d
    if nd == 0:
        return grad
    if dim is None:
        nzero = np.count_nonzero(x._data == 0)
        if nzero == 0:
            return OPS.mul(grad, OPS.div(result, x, None))
        if nzero > 1 and not grad_enabled() and not fw_active():
            return zeros(shape, dtype_of(grad._data))
        return OPS.reshape(prod_safe_zeros_backward(grad, OPS.reshape(x, (-1,)), 0), shape)
    d = wrap_dim(dim, nd)
    if not keepdim:
        grad = OPS.unsqueeze(grad, d)
        result = OPS.unsqueeze(result, d)
    if not (x._data == 0).any():
        return OPS.mul(grad, OPS.div(result, x, None))
    return prod_safe_zeros_backward(grad, x, d)


cdef Tensor prod_jvp(Tensor self, Tensor self_t, Tensor result, object dim=None,
                     bint keepdim=False):
    """PyTorch's prod forward derivative: sum(conj(g) t) over the reduced elements, g =
    prod_backward for a unit cotangent (the conjugated products of the other elements:
    exact with zeros too)."""
    cdef Tensor g = prod_backward(make(np.ones(shape_of(result._data), result._data.dtype)),
                                  self, result, dim, keepdim)
    cdef Tensor t = OPS.mul(<Tensor>cj(g), self_t)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(t._data)
    if nd == 0:
        return t
    if dim is None:
        return OPS.sum(t, tuple(range(nd)), False, None)
    return OPS.sum(t, (wrap_dim(dim, nd),), keepdim, None)


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
    """PyTorch's std_backward: var_backward of grad / (2 * std), zero where std is 0
    (masked in place as there: a ZeroTensor grad, Note [ZeroTensor], raises)."""
    cdef Tensor gv = OPS.div(grad, OPS.mul(result, 2), None)
    OPS.masked_fill_(gv, make(as_array(result._data == 0)), 0)
    return var_backward(gv, self, dims, correction, keepdim)


cdef Tensor logsumexp_backward(Tensor grad, Tensor self, Tensor result, tuple dims,
                               bint keepdim):
    """grad * conj(exp(self - result)), the reduced dims restored."""
    cdef tuple shape = shape_of(self._data)
    grad = _restore_reduced_dims(grad, shape, dims, keepdim)
    result = _restore_reduced_dims(result, shape, dims, keepdim)
    return OPS.mul(grad, cj(OPS.exp(OPS.sub(self, result, 1))))


cdef Tensor logsumexp_jvp(Tensor self_t, Tensor self, Tensor result, tuple dims,
                          bint keepdim):
    """PyTorch's logsumexp_jvp: sum(e * self_t) / sum(e) over dims, e = exp(self shifted);
    shifted by the result (any shift cancels; exp(self - result) is at most 1 in
    magnitude), so that complex inputs need no maximum. An empty reduction gives 0 / 0,
    as there."""
    cdef Tensor e = OPS.exp(OPS.sub(self, _restore_reduced_dims(
        result, shape_of(self._data), dims, keepdim), 1))
    return OPS.div(OPS.sum(OPS.mul(e, self_t), dims, keepdim, None),
                   OPS.sum(e, dims, keepdim, None), None)


cdef Tensor cumsum_backward(Tensor grad, Py_ssize_t dim):
    """The reversed cumulative sum along dim (flip, cumsum, flip)."""
    if cnp.PyArray_SIZE(grad._data) <= 1 or cnp.PyArray_NDIM(grad._data) == 0 \
            or shape_of(grad._data)[dim] == 1:
        return grad
    return OPS.flip(op_cumsum(OPS.flip(grad, (dim,)), dim, None), (dim,))


cdef Tensor cumprod_backward(Tensor grad, Tensor self, Py_ssize_t dim, Tensor result):
    """PyTorch's cumprod_backward: d input_k = sum over outputs i >= k of grad_i times
    the product of the inputs up to i but k. Without zeros that is
    reversed_cumsum(result * grad) / input; with zeros, _cumprod_backward_zeros.
    Complex: every factor conjugated (x and result enter conjugated). A complex input
    computed in a real dtype= (its real part) takes the gradient in its own dtype, with
    itself as the factors (PyTorch's formula: grad.to(self.scalar_type()))."""
    if cnp.PyArray_ISCOMPLEX(self._data) and not cnp.PyArray_ISCOMPLEX(grad._data):
        grad = OPS._to_copy(grad, dtype_of(self._data))
    cdef Tensor x = <Tensor>cj(_as_dtype(self, dtype_of(grad._data)))
    result = <Tensor>cj(result)
    if cnp.PyArray_SIZE(x._data) <= 1 or cnp.PyArray_NDIM(x._data) == 0:
        return grad
    if shape_of(x._data)[dim] == 1:
        return grad
    if not (x._data == 0).any():
        return OPS.div(cumsum_backward(OPS.mul(result, grad), dim), x, None)
    if not grad_enabled() and not fw_active():
        return make(_cumprod_backward_zeros(grad._data, x._data, result._data, dim))
    return _cumprod_backward_differentiable(grad, x, dim)


cdef Tensor cumprod_jvp(Tensor self_t, Tensor self_p, Tensor result, object dim,
                        object dtype_arg):
    """PyTorch's cumprod_jvp: cumsum(t / x) * result, and where x has zeros, from the
    first zero on along dim the cumulative product with that zero replaced by its
    tangent (zero after a second zero); for a 0-d x, t where x is 0 (masked_fill_).
    Then in the result's dtype."""
    cdef Tensor g = OPS.mul(op_cumsum(OPS.div(self_t, self_p, None), dim, None), result)
    cdef Tensor zero_mask, first_zero, after
    if cnp.PyArray_NDIM(self_p._data) == 0:
        OPS.masked_fill_(g, OPS.eq(self_p, 0), self_t)
    else:
        zero_mask = OPS.eq(self_p, 0)
        first_zero = OPS.logical_and(zero_mask, OPS.eq(op_cumsum(zero_mask, dim, None), 1))
        after = op_cumsum(first_zero, dim, None)
        g = OPS.where(OPS.ne(after, 0),
                      op_cumprod(OPS.where(first_zero, self_t, self_p), dim, None), g)
    if dtype_arg is not None and to_dtype(dtype_arg) is not dtype_of(g._data):
        g = OPS._to_copy(g, to_dtype(dtype_arg))
    return g


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

# Vectorized<T>'s size in bytes in the kernel PyTorch's sum runs: 32 on every x86 CPU
# (see Note [Sum order] in csrc/agc_sum.h for why not 64 on AVX512)
cdef enum:
    _SUM_VECTOR_BYTES = 32


cdef int _emulated_threads(Py_ssize_t numel):
    """The intra-op thread count PyTorch's sum would split a reduction over: it only
    matters from GRAIN_SIZE elements on (smaller sums run serially)."""
    if numel < 32768:
        return 1
    return intra_op_threads()


cdef cnp.ndarray _sum_input(cnp.ndarray x, int typenum):
    """x in the dtype a sum accumulates in, laid out as PyTorch's self.to(dtype) would
    be: dense strides in the order of x's (infer_dense_strides; numpy's order="K").
    Negative strides, which a PyTorch tensor cannot have (its flip copies), become
    C-contiguous as flip's result is."""
    cdef Py_ssize_t i
    for i in range(cnp.PyArray_NDIM(x)):
        if cnp.PyArray_STRIDES(x)[i] < 0:
            return <cnp.ndarray>np.ascontiguousarray(x, dtype=cnp.PyArray_DescrFromType(typenum))
    if cnp.PyArray_TYPE(x) == typenum:
        return x
    return <cnp.ndarray>x.astype(cnp.PyArray_DescrFromType(typenum), order="K")


cdef object _ordered_sum(cnp.ndarray x, tuple dims, bint keepdim, int typenum,
                         bint ignore_nan):
    """The sum of x over dims (all of them when dims is None), in dtype typenum, in
    PyTorch's addition order (csrc/agc_sum.c) when that is float32 or float64: a
    C-contiguous array, 0-d for a full reduction without keepdim. None for other dtypes
    (integer sums are exact in any order; float16 sums are left to numpy)."""
    cdef int is_double
    if typenum == cnp.NPY_DOUBLE:
        is_double = 1
    elif typenum == cnp.NPY_FLOAT:
        is_double = 0
    elif typenum == bfloat16.typenum:
        # PyTorch's bfloat16 sum accumulates in float and rounds once
        r = _ordered_sum(x, dims, keepdim, cnp.NPY_FLOAT, ignore_nan)
        return None if r is None else cast_array(<cnp.ndarray>r, bfloat16)
    else:
        return None
    cdef int nd = cnp.PyArray_NDIM(x), i, k = 0
    if nd > 64:
        return None
    x = _sum_input(x, typenum)
    cdef unsigned char mask[64]
    cdef int64_t shape[64]
    cdef int64_t strides[64]
    cdef cnp.npy_intp out_dims[64]
    for i in range(nd):
        mask[i] = dims is None
        shape[i] = cnp.PyArray_DIMS(x)[i]
        strides[i] = cnp.PyArray_STRIDES(x)[i]
    if dims is not None:
        for d in dims:
            mask[<int>d] = 1
    for i in range(nd):
        if not mask[i]:
            out_dims[k] = shape[i]
            k += 1
        elif keepdim:
            out_dims[k] = 1
            k += 1
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(k, out_dims, typenum, 0)
    cdef int nthreads = _emulated_threads(cnp.PyArray_SIZE(x))
    cdef const char *src = <const char *>cnp.PyArray_DATA(x)
    cdef char *dst = <char *>cnp.PyArray_DATA(out)
    cdef int rc
    with nogil:
        rc = agc_sum(src, nd, shape, strides, mask, keepdim, dst, is_double, ignore_nan,
                     _SUM_VECTOR_BYTES, nthreads)
    if rc != 0:
        raise MemoryError("sum: out of memory")
    return out


cdef inline cnp.ndarray _dense(object out):
    """A reduction's or scan's values in a C-contiguous array, as PyTorch allocates its
    result whatever the input's layout (numpy follows the input's: a mean over dim 0 of
    a transposed input would be transposed, and its view()s would differ)."""
    # (as_contiguous: numpy's C order leaves the strides of size-1 dims free, PyTorch's
    # are those of the contiguous layout, which a keepdim sum's views and layout checks see)
    return as_contiguous(as_array(out))


cdef Tensor op_sum(Tensor self, object dim, bint keepdim, object out_dtype):
    cdef cnp.ndarray x = self._data
    cdef dtype od = _accumulating_dtype(dtype_of(x), out_dtype)
    if is_wide_unsigned(od):
        # (only a dtype argument, or out's, asks for these: the wide unsigned inputs
        # sum in int64 otherwise; PyTorch's sum_cpu has no kernel for them)
        raise not_implemented_for("sum_cpu", od)
    cdef Tensor result
    cdef tuple dims
    cdef object r
    if dim is None and not keepdim:
        r = _ordered_sum(x, None, False, od.typenum, False)
        if r is None:
            r = as_array(np.add.reduce(x, axis=None, dtype=od.np_dtype))
        result = make(r)
        record_SumBackward0(result, self, None, False, out_dtype)
        return result
    dims = reduction_dims(dim, cnp.PyArray_NDIM(x))
    r = _ordered_sum(x, dims, keepdim, od.typenum, False)
    if r is None:
        r = _dense(np.add.reduce(x, axis=dims, dtype=od.np_dtype, keepdims=keepdim))
    result = make(r)
    record_SumBackward1(result, self, dims, keepdim, out_dtype)
    return result


cdef cnp.ndarray _mean_values(cnp.ndarray x, tuple dims, bint full, bint keepdim):
    """numpy's mean over dims (all of them when full), step for step, in x's dtype: a
    float16 input sums in float32; the sum is divided by the count in double precision
    and rounded as numpy does (once for a single value, through the sum's dtype for an
    array). Without numpy's overhead and its warning on empty slices."""
    acc = np.float32 if is_reduced_float(dtype_of(x)) else None
    # PyTorch's CPU mean is sum (float16 in float32) then a division: the sum in its order
    s = _ordered_sum(x, None if full else dims, keepdim,
                     cnp.NPY_FLOAT if acc is not None else cnp.PyArray_TYPE(x), False)
    if s is None:
        s = np.add.reduce(x, axis=None if full else dims, dtype=acc, keepdims=keepdim)
    elif not cnp.PyArray_NDIM(<cnp.ndarray>s):
        s = (<cnp.ndarray>s)[()]
    count = _numel_over(shape_of(x), dims)
    if not cnp.PyArray_Check(s) and count:
        # through the sum's dtype: PyTorch divides a float16 mean's float32 sum in float32
        v = complex(s) / count if isinstance(s, np.complexfloating) else float(s) / count
        return np.asarray(v, dtype=s.dtype).astype(x.dtype, copy=False)
    with quiet():
        q = np.true_divide(s, np.intp(count))
    return _dense(as_array(q).astype(as_array(s).dtype, copy=False).astype(x.dtype, copy=False))


cdef Tensor op_mean(Tensor self, object dim, bint keepdim, object out_dtype):
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x) if out_dtype is None else <dtype>out_dtype
    if d.category < CAT_FLOAT:
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
    if not shape:
        return op_sum(self, None, False, None)  # PyTorch's sum(): no view (as below)
    cdef Py_ssize_t lead = len(gs) - len(shape), i
    cdef list dims = list(range(lead))
    for i in range(len(shape)):
        if shape[i] == 1 and gs[lead + i] != 1:
            dims.append(lead + i)
    cdef Tensor g = self
    if lead and len(dims) == lead and not (recording() and requires_grad_of(g)):
        # only leading dims to drop (a bias's gradient) and no graph to record (whose nodes
        # would be PyTorch's sum then view): one reduction, whose result is still a view of
        # the keepdim sum as PyTorch's (detach_ refuses it; AccumulateGrad steals it)
        g = op_sum(g, tuple(dims), True, None)
        return make_view(g, g._data.reshape(shape))
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
        result = make(_dense(np.prod(xa, axis=d if nd else None, keepdims=keepdim,
                                     dtype=od.np_dtype)))
    record_ProdBackward1(result, self, d, keepdim, out_dtype)
    return result


def _py_prod(input, dim=None, keepdim=False, *, out=None, dtype=None, axis=None, keepdims=None):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(keepdim) is not Tensor and has_torch_function(keepdim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_prod, (input, dim, keepdim, ), {"out": out, "dtype": dtype, "axis": axis, "keepdims": keepdims})
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    cdef Tensor self = arg_tensor(input, "prod", "input", 1)
    if isinstance(dim, (tuple, list)):
        raise TypeError(
            "prod() received an invalid combination of arguments - got (tuple), but "
            "expected one of:\n * (*, autograd_core.dtype dtype = None)\n * (int dim, bool "
            "keepdim = False, *, autograd_core.dtype dtype = None)\n")
    if dim is None:
        no_out("prod", out)       # (prod(input) has no out=)
    elif out is not None:
        out_check("prod", out, 1)
        dtype = out_compute_dtype("prod", out, dtype, self)   # Note [out= rules]
    res = OPS.prod(self, None if dim is None else arg_int(dim, "prod", "dim", 2),
                  arg_bool(keepdim, "prod", "keepdim", 3),
                  None if dtype is None else to_dtype(dtype))
    return with_out("prod", out, res)


# ================================================================ max / min

_MaxResult = named_result_type("max", ("values", "indices"))
_MinResult = named_result_type("min", ("values", "indices"))


cdef cnp.ndarray extremum_all_values(Tensor self, object reduce_fn, str fname):
    """max() / min() of the whole tensor (reduce_fn: np.max or np.min), refusing an
    empty one as PyTorch does."""
    cdef cnp.ndarray x = self._data
    err = _reduction_error(fname, x, None, True)
    if err is not None:
        raise err
    with quiet():
        return as_array(reduce_fn(x))


ctypedef fused _real:
    float
    double


cdef void _select_rows(const _real *x, _real *values, int64_t *indices, Py_ssize_t rows,
                       Py_ssize_t n, bint is_max) noexcept nogil:
    """np.argmax's (is_max) or np.argmin's choice in each row of n values, and the value
    there: the first extreme, or the first NaN when a row has one."""
    cdef Py_ssize_t r, j, best
    cdef const _real *row
    for r in range(rows):
        row = x + r * n
        best = 0
        for j in range(1, n):
            if row[best] != row[best]:
                break
            if row[j] != row[j] or (row[j] > row[best] if is_max else row[j] < row[best]):
                best = j
        values[r] = row[best]
        indices[r] = best


cdef tuple _select_along(cnp.ndarray x, Py_ssize_t d, bint keepdim, object arg_fn, str fname):
    """(values, indices) of max/min along dim d (arg_fn: np.argmax or np.argmin)."""
    if cnp.PyArray_NDIM(x) == 0:
        return x.copy(), np.zeros((), dtype=np.int64)
    cdef tuple xs = shape_of(x)
    cdef Py_ssize_t n = xs[d], rows
    if n == 0:
        raise IndexError(f"{fname}(): Expected reduction dim {d} to have non-zero size.")
    cdef int t = cnp.PyArray_TYPE(x)
    cdef cnp.ndarray vals_out, idx_out
    if (d == len(xs) - 1 and cnp.PyArray_IS_C_CONTIGUOUS(x)
            and (t == cnp.NPY_FLOAT or t == cnp.NPY_DOUBLE)):
        # the common last dim of a contiguous float tensor: one pass, values and indices
        oshape = xs[:d] + (1,) if keepdim else xs[:d]
        vals_out = np.empty(oshape, dtype=x.dtype)
        idx_out = np.empty(oshape, dtype=np.int64)
        rows = cnp.PyArray_SIZE(x) // n
        if t == cnp.NPY_FLOAT:
            _select_rows(<float *>cnp.PyArray_DATA(x), <float *>cnp.PyArray_DATA(vals_out),
                         <int64_t *>cnp.PyArray_DATA(idx_out), rows, n, arg_fn is np.argmax)
        else:
            _select_rows(<double *>cnp.PyArray_DATA(x), <double *>cnp.PyArray_DATA(vals_out),
                         <int64_t *>cnp.PyArray_DATA(idx_out), rows, n, arg_fn is np.argmax)
        return vals_out, idx_out
    idx = arg_fn(x, axis=d, keepdims=True)
    vals = np.take_along_axis(x, idx, axis=d)
    if not keepdim:
        idx = np.squeeze(idx, axis=d)
        vals = np.squeeze(vals, axis=d)
    return as_array(vals).copy(), as_array(idx).astype(np.int64, copy=False)


cdef tuple select_along_values(Tensor self, object dim, bint keepdim, object arg_fn, str fname):
    """(values, indices, wrapped dim) of max(dim) / min(dim) (arg_fn: np.argmax or
    np.argmin)."""
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(self._data))
    vals, idx = _select_along(self._data, d, keepdim, arg_fn, fname)
    return vals, idx, d


cdef void _check_no_keepdim_with_other(str fname, object keepdim) except *:
    if keepdim is not False:
        raise TypeError(f"{fname}(): argument 'dim' (position 1) must be int, not Tensor")


cdef object _max_or_min(bint is_max, object input, object dim, object keepdim, object other,
                        object out, object axis, object keepdims):
    """max's or min's three overloads: the whole tensor, along dim (values and indices),
    or elementwise against other (the pointwise family's maximum / minimum)."""
    cdef str fname = "max" if is_max else "min"
    cdef str pairwise = "maximum" if is_max else "minimum"
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    cdef Tensor self = arg_tensor(input, fname, "input", 1)
    if other is not None:
        dim = other
    if isinstance(dim, Tensor):
        _check_no_keepdim_with_other(fname, keepdim)
        result = OPS.maximum(self, <Tensor>dim) if is_max else OPS.minimum(self, <Tensor>dim)
        return with_out(pairwise, out, result)   # Note [out= arguments]
    if dim is None:
        result = op_max(self) if is_max else op_min(self)
        return with_out(fname, out, result)
    if out is not None:
        out_check(fname, out, 2)
    d = arg_int(dim, fname, "dim", 2)
    cdef bint kd = arg_bool(keepdim, fname, "keepdim", 3)
    values = op_max_dim(self, d, kd) if is_max else op_min_dim(self, d, kd)
    if out is not None:
        return with_out(fname, out, values, ("values", "indices"), OUT_EXACT)
    return _MaxResult(*values) if is_max else _MinResult(*values)


cdef int _guard_max_min(str name, Tensor input, object dim, object axis) except -1:
    """Note [Complex guard] for max / min; a wide unsigned input (Note [Dtype guard]) as
    PyTorch's three kernels take it: max(input, other) is maximum (computed in a floating
    other's dtype), max(input, dim) copies a 0-d input and has its own kernel, max(input)
    reduces all. A complex input is refused by the overload PyTorch picks: maximum's
    error, max_all's, or max.dim's own RuntimeError (even for a 0-d input)."""
    if isinstance(dim, Tensor):
        return check_complex_args("maximum" if name == "max" else "minimum", (input, dim))
    if dim is None and axis is None:
        return check_complex_op(name, input)
    if cnp.PyArray_ISCOMPLEX(input._data) or cnp.PyArray_NDIM(input._data):
        refuse_complex(name + "_dim", input)
    return 0


# The table's max / min entries: max(input), max(input, dim, keepdim=False) (MaxBackward0,
# through max_dim), max(input, other) (the pointwise family's maximum).
cdef object _max_min_entry(bint is_max, object public, object input, object dim,
                           object keepdim, object other, object out, object axis,
                           object keepdims):
    """The body of torch.max / torch.min, public being the function itself (what
    __torch_function__ hands over)."""
    if complex_arg(input):
        _guard_max_min("max" if is_max else "min", input, dim if other is None else other,
                       axis)
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(keepdim) is not Tensor and has_torch_function(keepdim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(public, (input, dim, keepdim, ), {"other": other, "out": out, "axis": axis, "keepdims": keepdims})
    return _max_or_min(is_max, input, dim, keepdim, other, out, axis, keepdims)


def _py_max(input, dim=None, keepdim=False, *, other=None, out=None, axis=None,
            keepdims=None):
    return _max_min_entry(True, _py_max, input, dim, keepdim, other, out, axis, keepdims)


def _py_min(input, dim=None, keepdim=False, *, other=None, out=None, axis=None,
            keepdims=None):
    return _max_min_entry(False, _py_min, input, dim, keepdim, other, out, axis, keepdims)


# ================================================================ amax / amin

cdef tuple reduction_with_dims_values(Tensor self, object dim, bint keepdim, object reduce_fn, str fname):
    """(values, reduced dims) of amax / amin (reduce_fn: np.amax or np.amin)."""
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef tuple dims = reduction_dims(dim, nd)
    err = _reduction_error(fname, x, dim, is_all_dims(dim))
    if err is not None:
        raise err
    with quiet():
        out = reduce_fn(x, axis=_axis(dims, nd), keepdims=keepdim)
    return _dense(out), dims


# ================================================================ argmax / argmin

cdef cnp.ndarray arg_extremum_values(Tensor self, object dim, bint keepdim, object arg_fn, str fname):
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
        return as_array(out)
    d = wrap_dim(dim, nd)
    if nd == 0:
        return np.zeros((), dtype=np.int64)
    if shape_of(x)[d] == 0:
        raise IndexError(f"{fname}(): Expected reduction dim {d} to have non-zero size.")
    return as_array(arg_fn(x, axis=d, keepdims=keepdim)).astype(np.int64, copy=False)


# ================================================================ var / std

cdef tuple _variance(Tensor self, object dim, object correction, bint keepdim, str fname):
    """(variance as float64 values, the dims its node keeps, the correction): the dims
    are None when no dim was given, () when dim=() was (see var_backward), else the
    reduced dims. Of a complex tensor, the mean squared modulus of the deviation (a real
    variance, as PyTorch's: the real and imaginary parts' variances summed)."""
    cdef cnp.ndarray x = self._data
    cdef bint cplx = dtype_of(x).category == CAT_COMPLEX
    if dtype_of(x).category != CAT_FLOAT and not cplx:
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
    xa = x.astype(np.complex128 if cplx else np.float64)
    with quiet():
        dev = xa - np.mean(xa, axis=axis, keepdims=True)
        sq = dev.real * dev.real + dev.imag * dev.imag if cplx else dev * dev
        out = np.sum(sq, axis=axis, keepdims=keepdim) / (dof if dof > 0 else 0.0)
    return (_dense(out), None if dim is None else (() if _is_empty_dims(dim) else dims),
            correction)


cdef object _variance_dtype(Tensor self):
    """The dtype of a variance or standard deviation: self's, or its real counterpart."""
    return real_of(dtype_of(self._data)).np_dtype


cdef Tensor op_var(Tensor self, object dim, object correction, bint keepdim):
    out, dims, correction = _variance(self, dim, correction, keepdim, "var")
    cdef Tensor result = make(out.astype(_variance_dtype(self), copy=False))
    record_VarBackward0(result, self, dims, correction, keepdim)
    return result


cdef Tensor op_std(Tensor self, object dim, object correction, bint keepdim):
    out, dims, correction = _variance(self, dim, correction, keepdim, "std")
    cdef Tensor result = make(as_array(np.sqrt(out)).astype(_variance_dtype(self), copy=False))
    record_StdBackward0(result, self, dims, correction, keepdim)
    return result


cdef tuple _var_std_args(str fname, object input, object dim, object unbiased,
                         object keepdim, object correction, object axis, object keepdims):
    """(self, dim, correction, keepdim) from the overloads var, std, var_mean and std_mean
    share: (dim, unbiased, keepdim), (dim, *, correction, keepdim) and (unbiased), with
    numpy's axis= / keepdims= spellings, as PyTorch accepts them."""
    if axis is not None:
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    cdef Tensor self = arg_tensor(input, fname, "input", 1)
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
    return (self, None if dim is None else arg_int_list(dim, fname, "dim", 2), correction,
            arg_bool(keepdim, fname, "keepdim", 4))


cdef object _var_std_call(str fname, object pyfunc, object input, object dim,
                          object unbiased, object keepdim, object out, object correction,
                          object axis, object keepdims):
    """The Python wrappers of var, std (which take out=), var_mean and std_mean: the
    guards of the generated wrappers, the overloads (_var_std_args), the op."""
    if complex_arg(input):
        check_complex_op(fname, input)  # Note [Complex guard]
    if ((type(input) is not Tensor and has_torch_function(input))
            or (type(dim) is not Tensor and has_torch_function(dim))
            or (type(unbiased) is not Tensor and has_torch_function(unbiased))
            or (type(keepdim) is not Tensor and has_torch_function(keepdim))):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        kwargs = {"correction": correction, "axis": axis, "keepdims": keepdims}
        if fname in ("var", "std"):
            kwargs = {"out": out, **kwargs}
        return handle_torch_function(pyfunc, (input, dim, unbiased, keepdim, ), kwargs)
    self, dims, correction, kd = _var_std_args(fname, input, dim, unbiased, keepdim,
                                               correction, axis, keepdims)
    if fname == "var":
        return with_out(fname, out, OPS.var(self, dims, correction, kd))
    if fname == "std":
        return with_out(fname, out, OPS.std(self, dims, correction, kd))
    if fname == "var_mean":
        return OPS.var_mean(self, dims, correction, kd)
    return OPS.std_mean(self, dims, correction, kd)


# The table's var / std entries, with PyTorch's overloads (an unbiased flag, or correction).
def _py_var(input, dim=None, unbiased=None, keepdim=False, *, out=None, correction=None,
            axis=None, keepdims=None):
    return _var_std_call("var", _py_var, input, dim, unbiased, keepdim, out, correction,
                         axis, keepdims)


def _py_std(input, dim=None, unbiased=None, keepdim=False, *, out=None, correction=None,
            axis=None, keepdims=None):
    return _var_std_call("std", _py_std, input, dim, unbiased, keepdim, out, correction,
                         axis, keepdims)


# ================================================================ logsumexp

cdef Tensor op_logsumexp(Tensor self, object dim, bint keepdim):
    cdef cnp.ndarray xa = self._data
    if dtype_of(xa).category != CAT_FLOAT and dtype_of(xa).category != CAT_COMPLEX:
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
            m = np.zeros(_kept_shape(shape_of(xa), dims), dtype=xa.real.dtype)
        else:
            # complex: the largest real part shifts (PyTorch's amax(real(self)))
            m = np.amax(xa.real, axis=axis, keepdims=True)
            m = np.where(np.isinf(m), np.zeros((), dtype=m.dtype), m)
        out = np.log(np.sum(np.exp(xa - m), axis=axis, keepdims=True)) + m
        if not keepdim and nd:
            out = np.squeeze(out, axis=dims)
        elif not keepdim:
            out = np.reshape(out, ())
    cdef Tensor result = make(_dense(as_array(out).astype(xa.dtype, copy=False)))
    record_LogsumexpBackward0(result, self, dims, keepdim)
    return result


# ================================================================ cumsum / cumprod

cdef tuple cumulative_values(Tensor self, object dim, object out_dtype, object ufunc,
                             str kernel):
    """(values, wrapped dim) of cumsum / cumprod (ufunc: np.cumsum or np.cumprod),
    accumulated in the dtype PyTorch's kernel uses (kernel: its name, for bool)."""
    cdef dtype od = _accumulating_dtype(dtype_of(self._data), out_dtype)
    check_not_bool_kernel(od, kernel)   # (dtype=torch.bool, or a bool out=)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef cnp.ndarray xa = cast_array(self._data, od)
    with quiet():
        out = ufunc(xa, axis=d, dtype=_acc_np_dtype(od)) if nd else xa.copy()
    return _dense(as_array(out).astype(od.np_dtype, copy=False)), d


# ================================================================ all / any

cdef cnp.ndarray all_any_values(Tensor self, object dim, bint keepdim, object reduce_fn):
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
    return out



# ================================================================ sorting and selection
# Ties: sort is stable, as PyTorch's CPU sort; median takes the element the stable order
# puts at the position (PyTorch's nth_element there breaks ties by index). topk and
# kthvalue are not stable in PyTorch: Note [Selection order].

_SortResult = named_result_type("sort", ("values", "indices"))
_TopkResult = named_result_type("topk", ("values", "indices"))
_KthvalueResult = named_result_type("kthvalue", ("values", "indices"))
_MedianResult = named_result_type("median", ("values", "indices"))
_NanmedianResult = named_result_type("nanmedian", ("values", "indices"))
_ModeResult = named_result_type("mode", ("values", "indices"))
_CummaxResult = named_result_type("cummax", ("values", "indices"))
_CumminResult = named_result_type("cummin", ("values", "indices"))
_AminmaxResult = named_result_type("aminmax", ("min", "max"))


cdef cnp.ndarray _stable_argsort(cnp.ndarray x, Py_ssize_t d, bint descending):
    """int64 indices of a stable sort of x along d; NaN sorts as the largest value
    (last ascending, first descending); equal values keep their order either way."""
    cdef Py_ssize_t n
    if not descending:
        return as_array(np.argsort(x, axis=d, kind="stable")).astype(np.int64, copy=False)
    # descending and stable: sort the reversed input ascending, reverse the order back
    n = shape_of(x)[d]
    idx = np.flip(np.argsort(np.flip(x, d), axis=d, kind="stable"), d)
    return as_array((n - 1) - idx).astype(np.int64, copy=False)


cdef tuple _sorted_along(cnp.ndarray x, Py_ssize_t d, bint descending):
    """(values, indices) of a stable sort along d (a 0-d input is its own sort)."""
    if cnp.PyArray_NDIM(x) == 0:
        return x.copy(), np.zeros((), dtype=np.int64)
    idx = _stable_argsort(x, d, descending)
    return as_array(np.take_along_axis(x, idx, d)), idx


cdef tuple op_sort(Tensor self, object dim, bint descending, object stable):
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(self._data))
    vals, idx = _sorted_along(self._data, d, descending)
    # (PyTorch sorts into empty_like(self): numpy's result is contiguous)
    cdef Tensor values = make(as_preserved(vals, self._data))
    cdef Tensor indices = make(as_preserved(idx, self._data))
    if stable is None:
        record_SortBackward0(values, indices, self, d, descending, stable)
    else:       # PyTorch's sort.stable overload
        record_SortBackward1(values, indices, self, d, descending, stable)
    return (values, indices)


# PyTorch's two signatures of sort / argsort, as its argument parser lists them for the
# function and for the Tensor method (which has neither input nor out=): the .stable
# overload (stable keyword-only and required) and the plain one.
_SORT_SIGS = {
    ("sort", False): (
        "(Tensor input, *, bool stable, int dim = -1, bool descending = False, tuple of "
        "Tensors out = None)",
        "(Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None)"),
    ("argsort", False): (
        "(Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = None)",
        "(Tensor input, int dim = -1, bool descending = False)"),
    ("sort", True): ("(*, bool stable, int dim = -1, bool descending = False)",
                     "(int dim = -1, bool descending = False)"),
    ("argsort", True): ("(*, bool stable, int dim = -1, bool descending = False)",
                        "(int dim = -1, bool descending = False)"),
}


cdef _sort_parser_error(str fname, tuple args, dict kwargs, bint method):
    """The TypeError of PyTorch's parser when neither signature of sort / argsort takes
    the call (too many positionals, or dim given by position next to stable). Its rule:
    a signature is plausible when the count of all given arguments lies in its
    [min, max]; exactly one plausible signature raises its own error (here the .stable
    one: 'takes from <required> to <positional> ...'), else the overloads are listed."""
    cdef Py_ssize_t npos = len(args) + (0 if method else 1)
    cdef Py_ssize_t num = npos + len(kwargs)
    cdef Py_ssize_t lo_a = 1 + (0 if method else 1)       # (input,) stable
    cdef Py_ssize_t hi_a = 3 if method else 5
    cdef Py_ssize_t hi_b = 2 if method else (4 if fname == "sort" else 3)
    a_fits = lo_a <= num <= hi_a
    b_fits = lo_a - 1 <= num <= hi_b
    if a_fits and not b_fits:
        raise TypeError(f"{fname}() takes from {lo_a} to {lo_a - 1} positional arguments but "
                        f"{npos} were given")
    sig_a, sig_b = _SORT_SIGS[(fname, method)]
    got = ([] if method else ["Tensor"]) + [type(a).__name__ for a in args] + \
        [f"{k}={type(v).__name__}" for k, v in kwargs.items()]
    hint_a = hint_b = ""
    if "stable" in kwargs:
        if method or fname == "argsort":
            hint_b = "      didn't match because some of the keywords were incorrect: stable\n"
    elif method:
        # the .stable signature's parameters in order against the positionals: a type
        # that fits (bool for int, as the parser's matching allows) stays bare
        marks = []
        for i, a in enumerate(args):
            want = ("bool", "int", "bool")[i] if i < 3 else None
            ok = want is not None and (isinstance(a, bool) or
                                       (want == "int" and isinstance(a, int)))
            marks.append(type(a).__name__ if ok else f"!{type(a).__name__}!")
        hint_a = ("      didn't match because some of the arguments have invalid types: ("
                  + ", ".join(marks) + ")\n")
    raise TypeError(f"{fname}() received an invalid combination of arguments - got ("
                    + ", ".join(got) + "), but expected one of:\n * " + sig_a + "\n" + hint_a
                    + " * " + sig_b + "\n" + hint_b)


cdef tuple _sort_args(str fname, tuple args, object dim, object descending, object stable,
                      object out, bint method):
    """(dim, descending) of sort / argsort: with stable given (PyTorch's .stable
    overloads) dim and descending are keyword-only. The method's and the function's
    parser errors differ (their signatures do)."""
    if len(args) > 2 or (args and stable is not None):
        kwargs = {k: v for k, v in (("dim", dim), ("descending", descending),
                                    ("stable", stable), ("out", out)) if v is not None}
        _sort_parser_error(fname, args, kwargs, method)
    if len(args) >= 1:
        if dim is not None:
            raise TypeError(f"{fname}() got multiple values for argument 'dim'")
        dim = args[0]
    if len(args) == 2:
        if descending is not None:
            raise TypeError(f"{fname}() got multiple values for argument 'descending'")
        descending = args[1]
    return (-1 if dim is None else arg_int(dim, fname, "dim", 2),
            False if descending is None else arg_bool(descending, fname, "descending", 3))


cdef _sort_impl(input, tuple args, object dim, object descending, object stable, object out,
                object axis, bint method):
    cdef Tensor self = arg_tensor(input, "sort", "input", 1)
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    d, desc = _sort_args("sort", args, dim, descending, stable, out, method)
    if complex_arg(input):   # (after PyTorch's parser picked an overload)
        check_complex_op("sort", input)  # Note [Complex guard]
    if out is not None:   # Note [out= arguments]
        out_check("sort", out, 2)
    values = OPS.sort(self, d, desc, None if stable is None else arg_bool(stable, "sort", "stable", 2))
    if out is not None:
        return with_out("sort", out, values, ("values", "indices"), OUT_EXACT)
    return _SortResult(*values)


def _py_sort(input, *args, dim=None, descending=None, stable=None, out=None, axis=None):
    return _sort_impl(input, args, dim, descending, stable, out, axis, False)


def _pym_sort(self, *args, dim=None, descending=None, stable=None, axis=None):
    # (PyTorch's methods take no out=: Note [out= arguments])
    return _sort_impl(self, args, dim, descending, stable, None, axis, True)


cdef _argsort_impl(input, tuple args, object out, object dim, object descending, object stable,
                   object axis, bint method):
    cdef Tensor self = arg_tensor(input, "argsort", "input", 1)
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    d, desc = _sort_args("argsort", args, dim, descending, stable, out, method)
    if complex_arg(input):   # (after PyTorch's parser picked an overload)
        check_complex_op("argsort", input)  # Note [Complex guard]
    if stable is None:
        no_out("argsort", out)    # (only argsort(input, *, stable, ...) has out=)
    res = OPS.argsort(self, d, desc, False if stable is None else
                     arg_bool(stable, "argsort", "stable", 2))
    return with_out("argsort", out, res, None, True)


def _py_argsort(input, *args, out=None, dim=None, descending=None, stable=None, axis=None):
    return _argsort_impl(input, args, out, dim, descending, stable, axis, False)


def _pym_argsort(self, *args, dim=None, descending=None, stable=None, axis=None):
    return _argsort_impl(self, args, None, dim, descending, stable, axis, True)


_pym_sort.__name__ = _pym_sort.__qualname__ = "sort"
_pym_argsort.__name__ = _pym_argsort.__qualname__ = "argsort"


cdef Tensor op_argsort(Tensor self, object dim, bint descending, bint stable):
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(self._data))
    return make(as_preserved(_sorted_along(self._data, d, descending)[1], self._data))


# Note [Selection order]
# Which of several equal elements topk and kthvalue return (their indices, and the order
# of topk's values with sorted=False) is observable, and PyTorch's CPU kernels are not
# stable: topk (TopKImpl.h) runs libstdc++'s std::partial_sort when k * 64 <= n, else
# std::nth_element at k - 1 followed (sorted=True) by std::sort of the first k - 1, on
# (value, index) pairs compared by value alone, NaN above everything; kthvalue
# (Sorting.cpp) runs the Sedgewick quickselect of TH (median of three, swapping values
# and indices together). The loops below replay those algorithms step by step on each
# row's dense ranks (equal values, NaNs included, share a rank; -0.0 ranks with 0.0), so
# every comparison decides as PyTorch's does and the same element lands at each place.

cdef inline bint _sel_before(const double *key, bint largest, int64_t a, int64_t b) noexcept nogil:
    return key[a] > key[b] if largest else key[a] < key[b]


cdef inline void _sel_swap(int64_t *q, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    cdef int64_t t = q[i]
    q[i] = q[j]
    q[j] = t


cdef inline void _sel_swap_key(double *v, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    cdef double t = v[i]
    v[i] = v[j]
    v[j] = t


cdef inline Py_ssize_t _floor_log2(Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t r = -1
    while n:
        n >>= 1
        r += 1
    return r


cdef void _sel_median_to_first(int64_t *q, Py_ssize_t res, Py_ssize_t a, Py_ssize_t b,
                               Py_ssize_t c, const double *key, bint lg) noexcept nogil:
    if _sel_before(key, lg, q[a], q[b]):
        if _sel_before(key, lg, q[b], q[c]):
            _sel_swap(q, res, b)
        elif _sel_before(key, lg, q[a], q[c]):
            _sel_swap(q, res, c)
        else:
            _sel_swap(q, res, a)
    elif _sel_before(key, lg, q[a], q[c]):
        _sel_swap(q, res, a)
    elif _sel_before(key, lg, q[b], q[c]):
        _sel_swap(q, res, c)
    else:
        _sel_swap(q, res, b)


cdef Py_ssize_t _sel_partition_pivot(int64_t *q, Py_ssize_t first, Py_ssize_t last,
                                     const double *key, bint lg) noexcept nogil:
    # (the bounds only matter for mode's NaNs, which make '<' no ordering: libstdc++
    # would read past the range there)
    cdef Py_ssize_t pivot = first, end = last
    _sel_median_to_first(q, first, first + 1, first + (last - first) // 2, last - 1, key, lg)
    first += 1
    while True:
        while first < end - 1 and _sel_before(key, lg, q[first], q[pivot]):
            first += 1
        last -= 1
        while last > pivot and _sel_before(key, lg, q[pivot], q[last]):
            last -= 1
        if not first < last:
            return first
        _sel_swap(q, first, last)
        first += 1


cdef void _sel_linear_insert(int64_t *q, Py_ssize_t last, const double *key,
                             bint lg) noexcept nogil:
    cdef int64_t val = q[last]
    while last > 0 and _sel_before(key, lg, val, q[last - 1]):
        q[last] = q[last - 1]
        last -= 1
    q[last] = val


cdef void _sel_insertion_sort(int64_t *q, Py_ssize_t first, Py_ssize_t last,
                              const double *key, bint lg) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef int64_t val
    if first == last:
        return
    for i in range(first + 1, last):
        if _sel_before(key, lg, q[i], q[first]):
            val = q[i]
            j = i
            while j > first:
                q[j] = q[j - 1]
                j -= 1
            q[first] = val
        else:
            _sel_linear_insert(q, i, key, lg)


cdef void _sel_adjust_heap(int64_t *q, Py_ssize_t first, Py_ssize_t hole, Py_ssize_t n,
                           int64_t value, const double *key, bint lg) noexcept nogil:
    cdef Py_ssize_t top = hole, second = hole, parent
    while second < (n - 1) // 2:
        second = 2 * (second + 1)
        if _sel_before(key, lg, q[first + second], q[first + second - 1]):
            second -= 1
        q[first + hole] = q[first + second]
        hole = second
    if (n & 1) == 0 and second == (n - 2) // 2:
        second = 2 * (second + 1)
        q[first + hole] = q[first + second - 1]
        hole = second - 1
    parent = (hole - 1) // 2
    while hole > top and _sel_before(key, lg, q[first + parent], value):
        q[first + hole] = q[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    q[first + hole] = value


cdef void _sel_pop_heap(int64_t *q, Py_ssize_t first, Py_ssize_t last, Py_ssize_t result,
                        const double *key, bint lg) noexcept nogil:
    cdef int64_t value = q[result]
    q[result] = q[first]
    _sel_adjust_heap(q, first, 0, last - first, value, key, lg)


cdef void _sel_heap_select(int64_t *q, Py_ssize_t first, Py_ssize_t middle, Py_ssize_t last,
                           const double *key, bint lg) noexcept nogil:
    cdef Py_ssize_t n = middle - first, parent, i
    if n >= 2:
        parent = (n - 2) // 2
        while True:
            _sel_adjust_heap(q, first, parent, n, q[first + parent], key, lg)
            if parent == 0:
                break
            parent -= 1
    for i in range(middle, last):
        if _sel_before(key, lg, q[i], q[first]):
            _sel_pop_heap(q, first, middle, i, key, lg)


cdef void _sel_partial_sort(int64_t *q, Py_ssize_t first, Py_ssize_t middle, Py_ssize_t last,
                            const double *key, bint lg) noexcept nogil:
    _sel_heap_select(q, first, middle, last, key, lg)
    while middle - first > 1:
        middle -= 1
        _sel_pop_heap(q, first, middle, middle, key, lg)


cdef void _sel_sort(int64_t *q, Py_ssize_t first, Py_ssize_t last, const double *key,
                    bint lg) noexcept nogil:
    """std::sort: introsort down to runs of 16, then one insertion sort."""
    cdef Py_ssize_t i
    if first == last:
        return
    _sel_introsort(q, first, last, _floor_log2(last - first) * 2, key, lg)
    if last - first > 16:
        _sel_insertion_sort(q, first, first + 16, key, lg)
        for i in range(first + 16, last):
            _sel_linear_insert(q, i, key, lg)
    else:
        _sel_insertion_sort(q, first, last, key, lg)


cdef void _sel_introsort(int64_t *q, Py_ssize_t first, Py_ssize_t last, Py_ssize_t depth,
                         const double *key, bint lg) noexcept nogil:
    # the recursion is into the right part only and at most 2 log2(n) deep (then heapsort)
    cdef Py_ssize_t cut
    while last - first > 16:
        if depth == 0:
            _sel_partial_sort(q, first, last, last, key, lg)
            return
        depth -= 1
        cut = _sel_partition_pivot(q, first, last, key, lg)
        _sel_introsort(q, cut, last, depth, key, lg)
        last = cut


cdef void _sel_nth_element(int64_t *q, Py_ssize_t first, Py_ssize_t nth, Py_ssize_t last,
                           const double *key, bint lg) noexcept nogil:
    cdef Py_ssize_t depth, cut
    if first == last or nth == last:
        return
    depth = _floor_log2(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _sel_heap_select(q, first, nth + 1, last, key, lg)
            _sel_swap(q, first, nth)
            return
        depth -= 1
        cut = _sel_partition_pivot(q, first, last, key, lg)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _sel_insertion_sort(q, first, last, key, lg)


cdef void _topk_row(int64_t *q, Py_ssize_t n, Py_ssize_t k, const double *key, bint largest,
                    bint sorted) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(n):
        q[j] = j
    if k * 64 <= n:
        _sel_partial_sort(q, 0, k, n, key, largest)
    else:
        _sel_nth_element(q, 0, k - 1, n, key, largest)
        if sorted:
            _sel_sort(q, 0, k - 1, key, largest)


cdef void _kthvalue_row(int64_t *q, double *v, Py_ssize_t n, Py_ssize_t k) noexcept nogil:
    """TH's quickselect of the k-th (0-based) smallest: v holds the keys, q the indices,
    swapped together."""
    cdef Py_ssize_t L = 0, R = n - 1, i, j
    cdef double piv
    for j in range(n):
        q[j] = j
    while R > L:
        if R == L + 1:
            if v[L] > v[R]:
                _sel_swap_key(v, L, R)
                _sel_swap(q, L, R)
            return
        i = (L + R) >> 1
        _sel_swap_key(v, i, L + 1)
        _sel_swap(q, i, L + 1)
        if v[L + 1] > v[R]:
            _sel_swap_key(v, L + 1, R)
            _sel_swap(q, L + 1, R)
        if v[L] > v[R]:
            _sel_swap_key(v, L, R)
            _sel_swap(q, L, R)
        if v[L + 1] > v[L]:
            _sel_swap_key(v, L + 1, L)
            _sel_swap(q, L + 1, L)
        i = L + 1
        j = R
        piv = v[L]
        while True:
            i += 1
            while piv > v[i]:
                i += 1
            j -= 1
            while v[j] > piv:
                j -= 1
            if j < i:
                break
            _sel_swap_key(v, i, j)
            _sel_swap(q, i, j)
        _sel_swap_key(v, L, j)
        _sel_swap(q, L, j)
        if j <= k:
            L = i
        if j >= k:
            R = j - 1


cdef cnp.ndarray _dense_ranks(cnp.ndarray rows, bint nan_is_largest):
    """float64 keys ordered and tied as the values (-0.0 with 0.0): with nan_is_largest,
    every NaN is one key above every number (PyTorch's NaN-aware comparisons; np.unique
    sorts NaN last and folds them into one); else NaNs stay NaN (a plain '<')."""
    flat = rows.reshape(-1)
    inv = np.unique(flat, return_inverse=True)[1].reshape(shape_of(rows)).astype(np.float64)
    if not nan_is_largest and flat.dtype.kind == "f":
        inv[np.isnan(rows)] = np.nan
    return np.ascontiguousarray(inv)


cdef tuple op_topk(Tensor self, object k, object dim, bint largest, bint sorted):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n = shape_of(x)[d] if nd else 1
    cdef Py_ssize_t kk, r, nrows
    if k < 0 or k > n:
        raise RuntimeError("selected index k out of range")
    if dtype_of(x).category == CAT_BOOL:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    kk = k
    if nd == 0 or kk == 0 or n == 1:
        idx = np.zeros(shape_of(x)[:d] + (kk,) + shape_of(x)[d + 1:] if nd else (), np.int64)
    else:
        rows = np.moveaxis(x, d, -1)
        lead = shape_of(as_array(rows))[:-1]
        keys = _dense_ranks(as_array(rows), True).reshape(-1, n)
        order = np.empty((keys.shape[0], n), dtype=np.int64)
        nrows = keys.shape[0]
        _topk_rows(keys, order, nrows, n, kk, largest, sorted)
        idx = np.moveaxis(order[:, :kk].reshape(lead + (kk,)), -1, d)
    idx = as_array(idx).copy()
    vals = np.take_along_axis(x, idx, d) if nd else x.copy()
    cdef Tensor values = make(as_array(vals)), indices = make(idx)
    record_TopkBackward0(values, indices, self, k, d, largest, sorted)
    return (values, indices)


cdef void _topk_rows(cnp.ndarray keys, cnp.ndarray order, Py_ssize_t nrows, Py_ssize_t n,
                     Py_ssize_t k, bint largest, bint sorted):
    cdef double *kp = <double *>cnp.PyArray_DATA(keys)
    cdef int64_t *op = <int64_t *>cnp.PyArray_DATA(order)
    cdef Py_ssize_t r
    with nogil:
        for r in range(nrows):
            _topk_row(op + r * n, n, k, kp + r * n, largest, sorted)


cdef void _kthvalue_rows(cnp.ndarray keys, cnp.ndarray pos, Py_ssize_t nrows, Py_ssize_t n,
                         Py_ssize_t k):
    """pos[r] = the index kthvalue picks in row r (keys are overwritten)."""
    cdef double *kp = <double *>cnp.PyArray_DATA(keys)
    cdef int64_t *pp = <int64_t *>cnp.PyArray_DATA(pos)
    cdef int64_t *q = <int64_t *>PyMem_Malloc(max(n, 1) * sizeof(int64_t))
    cdef Py_ssize_t r
    if q == NULL:
        raise MemoryError()
    with nogil:
        for r in range(nrows):
            _kthvalue_row(q, kp + r * n, n, k)
            pp[r] = q[k]
    PyMem_Free(q)


cdef tuple _take_sorted(cnp.ndarray x, Py_ssize_t d, object pos, bint keepdim):
    """(values, indices) of the elements at sorted positions pos (one per slice) along
    d of a stable sort of x (NaN last); a 0-d x is its own."""
    if cnp.PyArray_NDIM(x) == 0:
        return x.copy(), np.zeros((), dtype=np.int64)
    vals, idx = _sorted_along(x, d, False)
    p = np.expand_dims(np.asarray(pos, dtype=np.int64), d)
    v = np.take_along_axis(vals, p, d)
    i = np.take_along_axis(idx, p, d)
    if not keepdim:
        v = np.squeeze(v, d)
        i = np.squeeze(i, d)
    return as_array(v).copy(), as_array(i).copy()


cdef tuple _reduced_shape(cnp.ndarray x, Py_ssize_t d):
    return tuple([shape_of(x)[k] for k in range(cnp.PyArray_NDIM(x)) if k != d])


cdef tuple op_kthvalue(Tensor self, object k, object dim, bint keepdim):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n = shape_of(x)[d] if nd else 1
    if k < 1 or k > n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if dtype_of(x).category == CAT_BOOL:
        raise not_implemented_for("kthvalue_cpu", dtype_of(x))
    if nd == 0:
        idx = np.zeros((), dtype=np.int64)
    else:
        rows = np.moveaxis(x, d, -1)
        lead = shape_of(as_array(rows))[:-1]
        keys = _dense_ranks(as_array(rows), True).reshape(-1, n)
        pos = np.empty(keys.shape[0], dtype=np.int64)
        _kthvalue_rows(keys, pos, keys.shape[0], n, k - 1)
        idx = np.expand_dims(pos.reshape(lead), d)
    vals = np.take_along_axis(x, idx, d) if nd else x.copy()
    if nd and not keepdim:
        vals = np.squeeze(vals, d)
        idx = np.squeeze(idx, d)
    cdef Tensor values = make(as_array(vals).copy())
    cdef Tensor indices = make(as_array(idx).copy())
    record_KthvalueBackward0(values, indices, self, k, d, keepdim)
    return (values, indices)


cdef object _nan_count(cnp.ndarray v, Py_ssize_t d):
    if v.dtype.kind != "f":
        return np.zeros(np.delete(shape_of(v), d), dtype=np.int64)
    return np.count_nonzero(np.isnan(v), axis=d)


cdef cnp.ndarray median_all_values(Tensor self, bint ignore_nan):
    """median() / nanmedian() of the whole tensor (ignore_nan: nanmedian's)."""
    cdef cnp.ndarray flat = self._data.reshape(-1)
    if flat.dtype.kind == "f":
        nan = np.isnan(flat)
        if not ignore_nan and nan.any():
            return np.asarray(np.nan, dtype=flat.dtype)
        flat = flat[~nan]
    if flat.size == 0:
        return np.asarray(np.nan, dtype=self._data.dtype)
    s = np.sort(flat, kind="stable")
    return as_array(s[(flat.size - 1) // 2]).copy()


cdef tuple median_along_values(Tensor self, object dim, bint keepdim, bint ignore_nan, str fname):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    if nd and shape_of(x)[d] == 0:
        raise IndexError(f"{fname}(): Expected reduction dim {d} to have non-zero size.")
    if nd == 0:
        return x.copy(), np.zeros((), dtype=np.int64), d
    n = shape_of(x)[d]
    nans = _nan_count(x, d)
    if ignore_nan:
        pos = np.maximum(n - nans - 1, 0) // 2
    else:
        # a slice with a NaN has it as its median: the first NaN, which the stable
        # sort puts at position n - nans
        pos = np.where(nans > 0, n - nans, (n - 1) // 2)
    vals, idx = _take_sorted(x, d, pos, keepdim)
    if ignore_nan and nd and (nans == n).any():
        # an all-NaN slice: PyTorch's std::nth_element sees n equivalent elements and
        # leaves one that depends on n alone at the front (Note [Selection order])
        all_nan = np.expand_dims(nans == n, d) if keepdim else nans == n
        idx[all_nan] = _front_of_equivalent(n)
    return vals, idx, d


cdef int64_t _front_of_equivalent(Py_ssize_t n):
    """The index std::nth_element(first, first, last) leaves at the front of n elements
    no two of which compare less."""
    cdef cnp.ndarray q = np.arange(n, dtype=np.int64), keys = np.zeros(n)
    _sel_nth_element(<int64_t *>cnp.PyArray_DATA(q), 0, 0, n, <double *>cnp.PyArray_DATA(keys),
                     False)
    return q[0]


cdef object _median_or_nanmedian(str name, object input, object dim, object keepdim, object out,
                                 object axis, object keepdims):
    """median and nanmedian's shared overloads: the whole tensor (no out=), or along dim
    (values and indices, out= as a pair)."""
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    cdef Tensor self = arg_tensor(input, name, "input", 1)
    cdef bint nan = name == "nanmedian"
    if dim is None:
        no_out(name, out)
        return op_nanmedian(self) if nan else op_median(self)
    dim = arg_int(dim, name, "dim", 2)
    keepdim = arg_bool(keepdim, name, "keepdim", 3)
    res = (_NanmedianResult(*op_nanmedian_dim(self, dim, keepdim)) if nan
           else _MedianResult(*op_median_dim(self, dim, keepdim)))
    return with_out(name, out, res, ('values', 'indices'), True)


cdef object _median_entry(str name, object public, object input, object dim, object keepdim,
                          object out, object axis, object keepdims):
    """The body of torch.median / torch.nanmedian (name), public being the function
    itself (what __torch_function__ hands over)."""
    if complex_arg(input):
        # (with a dim, PyTorch's median_out kernel refuses, else median_cpu)
        check_complex_op(name if dim is None and axis is None else name + "_dim",
                         input)  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(keepdim) is not Tensor and has_torch_function(keepdim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(public, (input, dim, keepdim, ), {"out": out, "axis": axis, "keepdims": keepdims})
    return _median_or_nanmedian(name, input, dim, keepdim, out, axis, keepdims)


def _py_median(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    return _median_entry("median", _py_median, input, dim, keepdim, out, axis, keepdims)


def _py_nanmedian(input, dim=None, keepdim=False, *, out=None, axis=None, keepdims=None):
    return _median_entry("nanmedian", _py_nanmedian, input, dim, keepdim, out, axis,
                         keepdims)


cdef void _mode_rows(cnp.ndarray keys, cnp.ndarray pos, Py_ssize_t nrows, Py_ssize_t n):
    """pos[r] = the index mode returns for row r: PyTorch's CPU kernel std::sorts the
    (value, index) pairs by value ('<', so NaNs are unordered and never equal) and takes the
    last pair of the first longest run (Note [Selection order])."""
    cdef double *kp = <double *>cnp.PyArray_DATA(keys)
    cdef int64_t *pp = <int64_t *>cnp.PyArray_DATA(pos)
    cdef int64_t *q = <int64_t *>PyMem_Malloc(max(n, 1) * sizeof(int64_t))
    cdef Py_ssize_t r, i, run, best
    cdef double *key
    if q == NULL:
        raise MemoryError()
    with nogil:
        for r in range(nrows):
            key = kp + r * n
            for i in range(n):
                q[i] = i
            _sel_sort(q, 0, n, key, False)
            run = best = 0
            for i in range(n):
                run += 1
                if i == n - 1 or key[q[i]] != key[q[i + 1]]:
                    if run > best:
                        pp[r] = q[i]
                        best = run
                    run = 0
    PyMem_Free(q)


cdef tuple op_mode(Tensor self, object dim, bint keepdim):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n
    if nd and shape_of(x)[d] == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    if nd == 0:
        idx = np.zeros((), dtype=np.int64)
    else:
        n = shape_of(x)[d]
        rows = np.moveaxis(x, d, -1)
        lead = shape_of(as_array(rows))[:-1]
        keys = _dense_ranks(as_array(rows), False).reshape(-1, n)
        pos = np.empty(keys.shape[0], dtype=np.int64)
        _mode_rows(keys, pos, keys.shape[0], n)
        idx = np.expand_dims(pos.reshape(lead), d)
    vals = np.take_along_axis(x, idx, d) if nd else x.copy()
    if nd and not keepdim:
        vals = np.squeeze(vals, d)
        idx = np.squeeze(idx, d)
    cdef Tensor values = make(as_array(vals).copy()), indices = make(as_array(idx).copy())
    record_ModeBackward0(values, indices, self, d, keepdim)
    return (values, indices)


def _py_topk(input, k, dim=-1, largest=True, sorted=True, *, out=None, axis=None):
    if complex_arg(input):
        check_complex_op("topk", input)  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(k) is not Tensor and has_torch_function(k)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(largest) is not Tensor and has_torch_function(largest)) or (type(sorted) is not Tensor and has_torch_function(sorted)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_topk, (input, k, dim, largest, sorted, ), {"out": out, "axis": axis})
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    cdef Tensor self = arg_tensor(input, "topk", "input", 1)
    if out is not None:   # Note [out= arguments]
        out_check("topk", out, 2)
    values = OPS.topk(self, arg_int(k, "topk", "k", 2), arg_int(dim, "topk", "dim", 3),
                     arg_bool(largest, "topk", "largest", 4), arg_bool(sorted, "topk", "sorted", 5))
    if out is not None:
        return with_out("topk", out, values, ("values", "indices"), OUT_EXACT)
    return _TopkResult(*values)


def _py_kthvalue(input, k, dim=-1, keepdim=False, *, out=None, axis=None, keepdims=None):
    if complex_arg(input):
        check_complex_op("kthvalue", input)  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(k) is not Tensor and has_torch_function(k)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(keepdim) is not Tensor and has_torch_function(keepdim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_kthvalue, (input, k, dim, keepdim, ), {"out": out, "axis": axis, "keepdims": keepdims})
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    cdef Tensor self = arg_tensor(input, "kthvalue", "input", 1)
    res = _KthvalueResult(*OPS.kthvalue(self, arg_int(k, "kthvalue", "k", 2),
                                       arg_int(dim, "kthvalue", "dim", 3),
                                       arg_bool(keepdim, "kthvalue", "keepdim", 4)))
    return with_out("kthvalue", out, res, ('values', 'indices'), True)


def _py_mode(input, dim=-1, keepdim=False, *, out=None, axis=None, keepdims=None):
    if complex_arg(input):
        check_complex_op("mode", input)  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(keepdim) is not Tensor and has_torch_function(keepdim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_mode, (input, dim, keepdim, ), {"out": out, "axis": axis, "keepdims": keepdims})
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    cdef Tensor self = arg_tensor(input, "mode", "input", 1)
    res = _ModeResult(*OPS.mode(self, arg_int(dim, "mode", "dim", 2),
                               arg_bool(keepdim, "mode", "keepdim", 3)))
    return with_out("mode", out, res, ('values', 'indices'), True)


cdef bint _scan_without_kernel(object input):
    """Whether cummax/cummin on input never reaches PyTorch's dtype dispatch: an empty or
    0-d tensor (its result is the input itself and index 0), which PyTorch computes for
    every dtype (complex, wide unsigned) before it looks for a kernel."""
    if not isinstance(input, Tensor):
        return False
    cdef cnp.ndarray x = (<Tensor>input)._data
    return cnp.PyArray_NDIM(x) == 0 or cnp.PyArray_SIZE(x) == 0


ctypedef tuple (*_scan_op)(Tensor, object)


cdef object _cum_extreme(object pyfunc, str name, _scan_op op, object result_type,
                         object input, object dim, object out, object axis):
    """cummax's and cummin's wrappers: (values, indices) as result_type."""
    if complex_arg(input) and not _scan_without_kernel(input):
        check_complex_op(name, input)  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(pyfunc, (input, dim, ), {"out": out, "axis": axis})
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    if dim is None:   # (PyTorch's parser's words: Note [Keyword or positional])
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    cdef Tensor self = arg_tensor(input, name, "input", 1)
    res = result_type(*op(self, arg_int(dim, name, "dim", 2)))
    return with_out(name, out, res, ('values', 'indices'), True)


def _py_cummax(input, dim=None, *, out=None, axis=None):
    return _cum_extreme(_py_cummax, "cummax", OPS.cummax, _CummaxResult, input, dim, out, axis)


def _py_cummin(input, dim=None, *, out=None, axis=None):
    return _cum_extreme(_py_cummin, "cummin", OPS.cummin, _CumminResult, input, dim, out, axis)


cdef Tensor _as_float_mask(cnp.ndarray mask, cnp.ndarray like):
    return make(as_array(mask).astype(like.dtype))


cdef Tensor nansum_backward(Tensor grad, Tensor self, object dims, bint keepdim):
    """sum's gradient, zero where the input is NaN."""
    cdef tuple shape = shape_of(self._data)
    cdef tuple dd = reduction_dims(dims, len(shape))
    g = sum_backward(grad, shape, dd, keepdim)
    return OPS.mul(g, _as_float_mask(np.asarray(~np.isnan(self._data)), grad._data))


cdef Tensor op_nansum(Tensor self, object dim, bint keepdim, object out_dtype):
    cdef cnp.ndarray x = self._data
    cdef dtype od = _accumulating_dtype(dtype_of(x), out_dtype)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef tuple dims = reduction_dims(dim, nd)
    # the NaNs are masked as the kernel loads (float16 is left to numpy, NaNs zeroed)
    r = _ordered_sum(x, dims, keepdim, od.typenum, dtype_of(x).category == CAT_FLOAT)
    if r is None:
        xa = np.where(np.isnan(x), np.zeros((), dtype=x.dtype), x) if x.dtype.kind == "f" else x
        r = as_array(np.add.reduce(xa, axis=_axis(dims, nd), dtype=od.np_dtype,
                                   keepdims=keepdim))
    cdef Tensor result = make(r)
    record_NansumBackward0(result, self, dims, keepdim, out_dtype)
    return result


cdef Tensor op_nanmean(Tensor self, object dim, bint keepdim, object out_dtype):
    cdef dtype d = dtype_of(self._data) if out_dtype is None else <dtype>out_dtype
    if dtype_of(self._data).category != CAT_FLOAT:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {dtype_of(self._data).scalar_name}")
    if d.category != CAT_FLOAT:
        raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be "
                           f"either a floating point or complex dtype. Got: {d.scalar_name}")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple dims = reduction_dims(dim, nd)
    count = np.add.reduce(~np.isnan(self._data), axis=_axis(dims, nd), dtype=np.int64,
                          keepdims=keepdim)
    return OPS.div(op_nansum(self, dim, keepdim, out_dtype), make(as_array(count)), None)


cdef Tensor _mean_backward_part(Tensor grad, tuple shape, object dims, bint keepdim):
    cdef tuple dd = tuple(range(len(shape))) if dims is None else <tuple>dims
    if not dd:
        dd = tuple(range(len(shape)))
    return OPS.div_scalar(sum_backward(grad, shape, dd, keepdim), _numel_over(shape, dd))


cdef object var_mean_backward(object gvar, object gmean, Tensor self, object dims,
                              object correction, bint keepdim):
    """PyTorch's var_mean_backward: var's gradient plus mean's."""
    out = None
    if gvar is not None:
        out = var_backward(<Tensor>gvar, self, dims, correction, keepdim)
    if gmean is not None:
        gm = _mean_backward_part(<Tensor>gmean, shape_of(self._data), dims, keepdim)
        out = gm if out is None else OPS.add(out, gm, 1)
    return out


cdef object std_mean_backward(object gstd, object gmean, Tensor self, Tensor std, object dims,
                              object correction, bint keepdim):
    """PyTorch's std_mean_backward: std's gradient plus mean's."""
    out = None
    if gstd is not None:
        out = std_backward(std, <Tensor>gstd, self, dims, correction, keepdim)
    if gmean is not None:
        gm = _mean_backward_part(<Tensor>gmean, shape_of(self._data), dims, keepdim)
        out = gm if out is None else OPS.add(out, gm, 1)
    return out


cdef Tensor _mean_of(Tensor self, object dim, bint keepdim):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    return make(_mean_values(x, reduction_dims(dim, nd), dim is None or nd == 0, keepdim))


cdef tuple op_var_mean(Tensor self, object dim, object correction, bint keepdim):
    out, dims, correction = _variance(self, dim, correction, keepdim, "var_mean")
    cdef Tensor var = make(out.astype(_variance_dtype(self), copy=False))
    cdef Tensor mean = _mean_of(self, dim, keepdim)
    record_VarMeanBackward0(var, mean, self, dims, correction, keepdim)
    return (var, mean)


cdef tuple op_std_mean(Tensor self, object dim, object correction, bint keepdim):
    out, dims, correction = _variance(self, dim, correction, keepdim, "std_mean")
    cdef Tensor std = make(as_array(np.sqrt(out)).astype(_variance_dtype(self), copy=False))
    cdef Tensor mean = _mean_of(self, dim, keepdim)
    record_StdMeanBackward0(std, mean, self, dims, correction, keepdim)
    return (std, mean)


def _py_var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None, keepdims=None):
    return _var_std_call("var_mean", _py_var_mean, input, dim, unbiased, keepdim, None,
                         correction, axis, keepdims)


def _py_std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None, keepdims=None):
    return _var_std_call("std_mean", _py_std_mean, input, dim, unbiased, keepdim, None,
                         correction, axis, keepdims)


cdef Tensor op_count_nonzero(Tensor self, object dim):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    if (dim is None or not dim) and is_guarded_array(x) and not cnp.PyArray_ISCOMPLEX(x):
        # PyTorch counts over dims with (x != 0).sum(dims), which takes the wide unsigned
        # ints, and over all of x with a kernel without them (Note [Dtype guard])
        refuse_complex("count_nonzero", self)
    if dim is None:
        return make(np.asarray(np.count_nonzero(x), dtype=np.int64))
    cdef tuple dims = wrap_dims(dim, nd)
    if nd == 0 or not dims:
        return make(np.asarray(np.count_nonzero(x), dtype=np.int64))
    return make(as_array(np.count_nonzero(x, axis=dims)).astype(np.int64, copy=False)
                if dims else as_array(x != 0).astype(np.int64))


cdef tuple op_aminmax(Tensor self, object dim, bint keepdim):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef tuple dims = (wrap_dim(dim, nd),) if dim is not None else tuple(range(nd))
    if nd == 0:
        dims = ()
    if cnp.PyArray_SIZE(x) == 0 and (dim is None or shape_of(x)[dims[0]] == 0):
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    with quiet():
        lo = as_array(np.amin(x, axis=_axis(dims, nd), keepdims=keepdim))
        hi = as_array(np.amax(x, axis=_axis(dims, nd), keepdims=keepdim))
    if dim is None and keepdim and nd == 0:
        lo, hi = lo.reshape(()), hi.reshape(())
    cdef Tensor mn = make(lo), mx = make(hi)
    record_AminmaxBackward0(mn, mx, self, dim, keepdim)
    return (mn, mx)


def _py_aminmax(input, *, out=None, dim=None, keepdim=False, axis=None, keepdims=None):
    if complex_arg(input):
        check_complex_op("aminmax", input)  # Note [Complex guard]
    if type(input) is not Tensor and has_torch_function(input):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_aminmax, (input, ), {"out": out, "dim": dim,
                                     "keepdim": keepdim, "axis": axis, "keepdims": keepdims})
    if axis is not None:   # numpy's spelling, as PyTorch accepts it
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    cdef Tensor self = arg_tensor(input, "aminmax", "input", 1)
    res = _AminmaxResult(*OPS.aminmax(
        self, None if dim is None else arg_int(dim, "aminmax", "dim", 2),
        arg_bool(keepdim, "aminmax", "keepdim", 3)))
    return with_out("aminmax", out, res, ('min', 'max'), True)


cdef object aminmax_backward(Tensor self, object dim, bint keepdim, object gmin, object gmax,
                             Tensor mn, Tensor mx):
    """PyTorch's aminmax_backward: amin's and amax's gradients, added."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple dims = () if nd == 0 else (
        (wrap_dim(dim, nd),) if dim is not None else tuple(range(nd)))
    out = None
    for g, r in ((gmin, mn), (gmax, mx)):
        if g is not None:
            part = amax_amin_backward(<Tensor>g, self, r, dims, keepdim)
            out = part if out is None else OPS.add(out, part, 1)
    return out


# ---- forward derivatives of the multi-output reductions (Note [Forward AD] in
# _core/_fw.pxi). Each output o of these is a reduction whose tangent is the sum, over the
# reduced dims, of the input's tangent weighted by d o / d input: that weight is the
# op's backward formula applied to a gradient of ones (exact, as those formulas are
# the Jacobian's entries), so the jvp shares the backward's edge cases (zero dof, ties).

cdef Tensor _reduction_jvp(Tensor weights, Tensor t, object dims, bint keepdim, Tensor out):
    """sum(weights * t) over dims (None or (): all), shaped as out."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(t._data)
    cdef Tensor prod = OPS.mul(weights, t)
    if nd:
        # summed last, as PyTorch's jvps (a tangent with a history has SumBackward1)
        prod = OPS.sum(prod, tuple(range(nd)) if not dims else tuple(dims), keepdim, None)
    if shape_of(prod._data) != shape_of(out._data):
        prod = OPS.reshape(prod, shape_of(out._data))
    return prod


cdef Tensor _real_reduction_jvp(Tensor weights, Tensor t, object dims, bint keepdim,
                               Tensor out):
    """The tangent of a real reduction of a possibly complex input (a variance):
    sum(real(conj(t) * weights)) = real(sum(conj(weights) * t)); _reduction_jvp's for a
    real one."""
    if not complex_arg(weights) and not complex_arg(t):
        return _reduction_jvp(weights, t, dims, keepdim, out)
    return OPS.real(_reduction_jvp(OPS.conj(weights), t, dims, keepdim, out))


cdef inline Tensor _ones_as(Tensor out):
    return make(np.ones(shape_of(out._data), dtype=out._data.dtype))


cdef Tensor var_jvp(Tensor self_t, Tensor self, object dims, object correction,
                    bint keepdim, Tensor var):
    """PyTorch's var_jvp: 2 / (N - correction) * sum(real(conj(self_t) * (self - mean)))
    (a real tangent for a complex self too)."""
    return _real_reduction_jvp(var_backward(_ones_as(var), self, dims, correction, keepdim),
                               self_t, dims, keepdim, var)


cdef Tensor std_jvp(Tensor self_t, Tensor self, object dims, object correction,
                    bint keepdim, Tensor std):
    """std's tangent is var's over 2 * std (zero where std is 0, as PyTorch's masked_fill)."""
    return _real_reduction_jvp(std_backward(std, _ones_as(std), self, dims, correction,
                                            keepdim), self_t, dims, keepdim, std)


cdef Tensor _mean_of_tangent(Tensor self_t, Tensor self, object dims, bint keepdim,
                             Tensor mean):
    """The forward derivative of var_mean's / std_mean's mean."""
    return _reduction_jvp(_mean_backward_part(_ones_as(mean), shape_of(self._data), dims,
                                              keepdim), self_t, dims, keepdim, mean)


cdef tuple var_mean_jvp(Tensor self_t, Tensor self, object dims, object correction,
                        bint keepdim, Tensor var, Tensor mean):
    """var_jvp and the mean of the tangent."""
    return (var_jvp(self_t, self, dims, correction, keepdim, var),
            _mean_of_tangent(self_t, self, dims, keepdim, mean))


cdef tuple std_mean_jvp(Tensor self_t, Tensor self, object dims, object correction,
                        bint keepdim, Tensor std, Tensor mean):
    """std_jvp and the mean of the tangent."""
    return (std_jvp(self_t, self, dims, correction, keepdim, std),
            _mean_of_tangent(self_t, self, dims, keepdim, mean))


cdef tuple aminmax_jvp(Tensor self_t, Tensor self, object dim, bint keepdim, Tensor mn,
                       Tensor mx):
    """PyTorch's amaxamin_jvp for each output: the mean of the tangent over the positions
    equal to the result."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple dims = () if nd == 0 else (
        (wrap_dim(dim, nd),) if dim is not None else tuple(range(nd)))
    return (_reduction_jvp(amax_amin_backward(_ones_as(mn), self, mn, dims, keepdim),
                           self_t, dims, keepdim, mn),
            _reduction_jvp(amax_amin_backward(_ones_as(mx), self, mx, dims, keepdim),
                           self_t, dims, keepdim, mx))


# ================================================================ cummax / cummin / logcumsumexp

cdef tuple cumulative_extremum_values(Tensor self, object dim, object accumulate):
    """(values, indices) of cummax / cummin (accumulate: np.maximum or np.minimum's):
    the index of the last element equal to the running value (a NaN stays, at the
    index of the latest NaN), as PyTorch's >= / <= scan."""
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    # (numpy's accumulate keeps the input's layout; PyTorch's results are contiguous)
    if nd == 0:
        return as_contiguous(x.copy()), as_contiguous(np.zeros((), dtype=np.int64)), d
    with quiet():
        vals = as_array(accumulate(x, axis=d))
        update = x == vals
        if x.dtype.kind == "f":
            update |= np.isnan(x)
    pos = np.arange(shape_of(x)[d], dtype=np.int64).reshape(
        tuple([-1 if k == d else 1 for k in range(nd)]))
    idx = np.maximum.accumulate(np.where(update, pos, 0), axis=d)
    return as_contiguous(vals), as_contiguous(as_array(idx).astype(np.int64, copy=False)), d


cdef Tensor cummaxmin_backward(Tensor grad, Tensor self, Tensor indices, object dim):
    """The gradient of each output added at the index it was taken from."""
    if cnp.PyArray_SIZE(self._data) == 0:
        return grad
    return OPS.scatter_add(zeros(shape_of(self._data), dtype_of(grad._data)), dim, indices, grad)


cdef Tensor op_logcumsumexp(Tensor self, object dim):
    cdef cnp.ndarray x = self._data
    cdef bint cplx = cnp.PyArray_ISCOMPLEX(x)
    if not cplx:
        check_float_kernel(dtype_of(x), "logcumsumexp_out_cpu")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    with quiet():
        if not nd:
            out = x.copy()
        elif cplx:
            out = _complex_logcumsumexp(x, d)
        else:
            out = np.logaddexp.accumulate(x.astype(np.float64), axis=d)
    cdef Tensor result = make(as_contiguous(as_array(out).astype(x.dtype, copy=False)))
    record_LogcumsumexpBackward0(result, self, d)
    return result


cdef object _complex_logcumsumexp(cnp.ndarray x, Py_ssize_t d):
    """PyTorch's complex logcumsumexp kernel: the running value, from -inf, folded with
    each element by its complex _log_add_exp_helper (_complex_log_add_exp), accumulated
    in complex128 (the CPU acc_type of both complex dtypes)."""
    xs = np.moveaxis(x.astype(np.complex128), d, 0)
    out = np.empty(xs.shape, dtype=np.complex128)
    cum = np.full(xs.shape[1:], complex(-np.inf, 0.0))
    for i in range(xs.shape[0]):
        cum = _complex_log_add_exp(xs[i], cum)
        out[i] = cum
    return np.moveaxis(out, 0, d)


cdef Tensor logcumsumexp_backward(Tensor grad, Tensor self, Tensor result, object dim):
    """PyTorch's logcumsumexp_backward: the positive and negative parts of grad, each
    through a reversed logcumsumexp in log space; a complex grad needs no split:
    conj(exp(rev_logcumsumexp(log(conj(grad)) - result) + self))."""
    if cnp.PyArray_NDIM(grad._data) == 0 or cnp.PyArray_SIZE(grad._data) == 0:
        return grad
    cdef tuple flipd = (dim,)
    if cnp.PyArray_ISCOMPLEX(grad._data):
        with quiet():
            log_grad = OPS.log(OPS.conj_physical(grad))
        rev = OPS.flip(op_logcumsumexp(OPS.flip(OPS.sub(log_grad, result, 1), flipd), dim),
                       flipd)
        return OPS.conj_physical(OPS.exp(OPS.add(rev, self, 1)))
    cdef dtype gd = dtype_of(grad._data)
    cdef Tensor lowest = make_scalar(float(np.finfo(gd.np_dtype).min), gd)
    with quiet():
        log_abs = OPS.log(OPS.abs(grad))
    pos = OPS.where(OPS.gt(grad, 0), log_abs, lowest)
    neg = OPS.where(OPS.lt(grad, 0), log_abs, lowest)
    out = []
    for part in (pos, neg):
        rev = OPS.flip(op_logcumsumexp(OPS.flip(OPS.sub(part, result, 1), flipd), dim), flipd)
        out.append(OPS.exp(OPS.add(rev, self, 1)))
    return OPS.sub(out[0], out[1], 1)


# ================================================================ diff / sum_to_size

cdef Tensor op_diff(Tensor self, object n, object dim, Tensor prepend, Tensor append):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if nd == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Tensor x = self
    for other in (prepend, append):   # (PyTorch's diff_check_compatible_shape)
        if other is None:
            continue
        if cnp.PyArray_NDIM((<Tensor>other)._data) != nd:
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        for k, (a, b) in enumerate(zip(shape_of(self._data), shape_of((<Tensor>other)._data))):
            if k != d and a != b:
                raise RuntimeError(
                    f"diff expects the shape of tensor to prepend or append to match that of "
                    f"input except along the differencing dimension; input.size({k}) = {a}, "
                    f"but got tensor.size({k}) = {b}")
    if prepend is not None or append is not None:
        parts = [t for t in (prepend, self, append) if t is not None]
        x = OPS.cat(parts, d)
    if n == 0:
        out = zeros_like(x)
        return OPS.copy_(out, x, False)
    cdef Py_ssize_t size = shape_of(x._data)[d], length = size - 1, i
    cdef bint is_bool = dtype_of(x._data) is bool_
    for i in range(min(n, size)):
        hi = OPS.narrow(x, d, 1, length)
        lo = OPS.narrow(x, d, 0, length)
        x = OPS.logical_xor(hi, lo) if is_bool else OPS.sub(hi, lo, 1)
        length -= 1
    return x


cdef Tensor op_sum_to_size(Tensor self, object size):
    cdef tuple shape = tuple(size), xs = shape_of(self._data)
    if not broadcasts_to(shape, xs):
        raise RuntimeError(f"size {{{shape_str(shape)}}} is not expandable to size "
                           f"{{{shape_str(xs)}}}.")
    return OPS.sum_to(self, shape)


def _py_sum_to_size(self, *size, **kwargs):
    """``self`` summed to ``size`` (which ``self`` must broadcast from).

    >>> import autograd_core as torch
    >>> torch.ones(2, 3).sum_to_size(1, 3)
    tensor([[2., 2., 2.]])
    """
    if complex_arg(self):
        check_complex_op("sum_to_size", self)  # Note [Complex guard]
    if kwargs:
        if size or list(kwargs) != ["size"]:
            raise TypeError("sum_to_size() received an invalid combination of arguments")
        size = (kwargs["size"],)
    return OPS.sum_to_size(self, parse_shape(size, "sum_to_size"))


# ================================================================ histc / bincount / search / unique

cdef int _histogram_kernels(dtype d, bint ranged, str finder) except -1:
    """The error of the first kernel without dtype d on PyTorch's histogram path (histc,
    and histogram / histogramdd given bin counts): without a range, the one that finds it
    (finder: histc's aminmax_cpu, which has the bool and signed int dtypes, or
    histogramdd, floating types only); then linspace_cpu, which makes the bin edges in
    d (no bool, no wide unsigned ints); then histogram_cpu (floating types only)."""
    if d.category == CAT_FLOAT:
        return 0
    if not ranged and (finder == "histogramdd" or d.category == CAT_COMPLEX
                       or d is uint16 or d is uint32 or d is uint64):
        raise not_implemented_for(finder, d)
    if d is bool_ or d is uint16 or d is uint32 or d is uint64:
        raise not_implemented_for("linspace_cpu", d)
    raise not_implemented_for("histogram_cpu", d)


cdef Tensor op_histc(Tensor self, object bins, object min, object max):
    cdef cnp.ndarray x = self._data
    if bins <= 0:
        raise RuntimeError(f"autograd_core.histogram(): bins must be > 0, but got {bins} for dimension 0")
    lo, hi = float(min), float(max)
    if lo > hi:
        raise RuntimeError("autograd_core.histc: max must be larger than min")
    # (histc passes the dtype guard so that the kernel its range selects is the one named)
    _histogram_kernels(dtype_of(x), lo != hi, "aminmax_cpu")
    flat = x.reshape(-1)
    if lo == hi and flat.size:
        # the data's range, NaN and infinities included (PyTorch's aminmax), so that
        # they are refused below rather than silently dropped
        lo, hi = float(np.min(flat)), float(np.max(flat))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"autograd_core.histc: range of [{cpp_number(lo)}, {cpp_number(hi)}] "
                           "is not finite")
    dt = x.dtype
    inside = flat[(flat >= dt.type(lo)) & (flat <= dt.type(hi))]
    with quiet():
        pos = ((inside - dt.type(lo)) * dt.type(bins) / (dt.type(hi) - dt.type(lo))).astype(np.int64)
    pos = np.clip(pos, 0, bins - 1)
    return make(np.bincount(pos, minlength=bins).astype(dt))


cdef Tensor op_bincount(Tensor self, Tensor weights, object minlength):
    cdef cnp.ndarray x = self._data
    if dtype_of(x).category == CAT_FLOAT or dtype_of(x) is bool_:
        raise not_implemented_for("bincount_cpu", dtype_of(x))
    if cnp.PyArray_NDIM(x) != 1 or (x.size and x.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return make(np.bincount(x, minlength=minlength).astype(np.int64))
    cdef cnp.ndarray w = weights._data
    if cnp.PyArray_NDIM(w) != 1 or shape_of(w)[0] != shape_of(x)[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out_dt = np.float32 if w.dtype == np.float32 else np.float64
    cdef Tensor result = make(np.bincount(x, weights=w.astype(np.float64),
                                          minlength=minlength).astype(out_dt))
    OPS.not_implemented_node(result, (weights,), "bincount")   # (PyTorch has no derivative)
    return result


cdef Tensor _search(cnp.ndarray seq, object values, bint right, bint out_int32, Tensor sorter,
                    str fname):
    """searchsorted's indices: per row of seq's last dim when seq is N-d."""
    scalar = not isinstance(values, Tensor)
    vals = np.asarray(values) if scalar else (<Tensor>values)._data
    side = "right" if right else "left"
    if sorter is not None:
        srt = (<Tensor>sorter)._data
        if srt.size and ((srt < 0) | (srt >= (shape_of(seq)[-1] if seq.ndim else 1))).any():
            raise RuntimeError("autograd_core.searchsorted(): sorter index out of range")
        seq = np.take_along_axis(seq, srt, -1) if seq.ndim else seq
    if seq.ndim <= 1:
        out = np.searchsorted(seq.reshape(-1), vals, side=side)
    else:
        if scalar or vals.ndim != seq.ndim or shape_of(vals)[:-1] != shape_of(seq)[:-1]:
            raise RuntimeError(
                f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                f"dimensions of boundaries tensor and input value tensor must match, but we got "
                f"boundaries tensor {shape_str(shape_of(seq))} and input value tensor "
                f"{shape_str(shape_of(vals))}")
        s2 = seq.reshape(-1, shape_of(seq)[-1])
        v2 = vals.reshape(-1, vals.shape[-1])
        out = np.stack([np.searchsorted(s2[r], v2[r], side=side) for r in range(s2.shape[0])]
                       ).reshape(shape_of(vals)) if s2.shape[0] else np.zeros(shape_of(vals))
    return make(np.asarray(out, dtype=np.int32 if out_int32 else np.int64))


cdef bint _side_right(object side, bint right, str fname) except -1:
    if side is None:
        return right
    if side not in ("left", "right"):
        raise RuntimeError(f"{fname}(): side can only be 'left' or 'right' but got {side}")
    if right and side == "left":
        raise RuntimeError(f"{fname}(): side and right can't be set to opposites, got side of "
                           f"left while right was True")
    return side == "right"


cdef Tensor op_searchsorted(Tensor sorted_sequence, object self, bint out_int32, bint right,
                            object side, Tensor sorter):
    right = _side_right(side, right, "torch.searchsorted")
    return _search(sorted_sequence._data, self, right, out_int32, sorter, "searchsorted")


def _py_searchsorted(sorted_sequence, input, *, out=None, out_int32=False, right=False,
                     side=None, sorter=None):
    if complex_arg(sorted_sequence) or complex_arg(input):
        check_complex_args("searchsorted", (sorted_sequence, input))  # Note [Complex guard]
    cdef Tensor seq = arg_tensor(sorted_sequence, "searchsorted", "sorted_sequence", 1)
    v = arg_tensor_or_scalar(input, "searchsorted", "input", 2)
    res = OPS.searchsorted(seq, v, arg_bool(out_int32, "searchsorted", "out_int32", 3),
                          arg_bool(right, "searchsorted", "right", 4), side,
                          None if sorter is None else
                          arg_tensor(sorter, "searchsorted", "sorter", 6))
    return with_out("searchsorted", out, res, None, True)


cdef Tensor op_bucketize(object self, Tensor boundaries, bint out_int32, bint right):
    if cnp.PyArray_NDIM(boundaries._data) != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{cnp.PyArray_NDIM(boundaries._data)})")
    return _search(boundaries._data, self, right, out_int32, None, "bucketize")


def _py_bucketize(input, boundaries, *, out=None, out_int32=False, right=False):
    if complex_scalar_arg(input):   # (a complex number too: its promoted type's error)
        check_complex_args("bucketize", (input, boundaries))  # Note [Complex guard]
    v = arg_tensor_or_scalar(input, "bucketize", "input", 1)
    if not isinstance(v, Tensor):
        no_out("bucketize", out)  # (bucketize(number, boundaries) has no out=)
    res = OPS.bucketize(v, arg_tensor(boundaries, "bucketize", "boundaries", 2),
                       arg_bool(out_int32, "bucketize", "out_int32", 3),
                       arg_bool(right, "bucketize", "right", 4))
    return with_out("bucketize", out, res, None, True)


cdef tuple _unique_values(cnp.ndarray x, object dim, bint consecutive):
    """(values, inverse, counts) of unique / unique_consecutive, over elements or the
    slices along dim."""
    cdef Py_ssize_t d
    if dim is None:
        flat = x.reshape(-1)
        if consecutive:
            if flat.size == 0:
                return flat.copy(), np.zeros(shape_of(x), np.int64), np.zeros(0, np.int64)
            starts = np.concatenate([[True], flat[1:] != flat[:-1]])
            vals = flat[starts]
            inv = (np.cumsum(starts) - 1).reshape(shape_of(x))
            counts = np.diff(np.append(np.nonzero(starts)[0], flat.size))
            return vals, inv, counts
        # (each NaN its own value, as in PyTorch)
        vals, inv, counts = np.unique(flat, return_inverse=True, return_counts=True,
                                      equal_nan=False)
        return vals, inv.reshape(shape_of(x)), counts
    d = wrap_dim(dim, cnp.PyArray_NDIM(x))
    moved = np.moveaxis(x, d, 0)
    n = moved.shape[0]
    rows = moved.reshape(n, -1)
    if consecutive:
        if n == 0:
            return x.copy(), np.zeros(0, np.int64), np.zeros(0, np.int64)
        starts = np.concatenate([[True], np.any(rows[1:] != rows[:-1], axis=1)])
        keep = np.nonzero(starts)[0]
        inv = np.cumsum(starts) - 1
        counts = np.diff(np.append(keep, n))
    else:
        if n == 0:
            return x.copy(), np.zeros(0, np.int64), np.zeros(0, np.int64)
        order = np.lexsort(rows.T[::-1]) if rows.shape[1] else np.arange(n)
        srt = rows[order]
        starts = np.concatenate([[True], np.any(srt[1:] != srt[:-1], axis=1)])
        keep = order[np.nonzero(starts)[0]]
        group = np.cumsum(starts) - 1
        inv = np.empty(n, np.int64)
        inv[order] = group
        counts = np.diff(np.append(np.nonzero(starts)[0], n))
    # PyTorch's unique_dim stacks the kept slices contiguously along a leading dim and
    # moves it back to d: the result's dim d is outermost in memory
    vals = np.moveaxis(np.ascontiguousarray(moved[keep]), 0, d)
    return vals, inv, counts


cdef object _unique_impl(Tensor self, bint return_inverse, bint return_counts, object dim,
                         bint consecutive):
    if dim is not None:
        if cnp.PyArray_NDIM(self._data) == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        wrap_dim(dim, cnp.PyArray_NDIM(self._data))   # (its range error)
    vals, inv, counts = _unique_values(self._data, dim, consecutive)
    cdef Tensor values = make(as_array(vals).astype(self._data.dtype, copy=False))
    cdef Tensor inverse = make(as_array(inv).astype(np.int64, copy=False))
    cdef Tensor cnt = make(as_array(counts).astype(np.int64, copy=False))
    if consecutive:     # PyTorch's node for unique_consecutive with or without dim
        record_UniqueConsecutiveBackward0(values, self, return_inverse, return_counts, dim)
    elif dim is None:
        record_Unique2Backward0(values, self, True, return_inverse, return_counts, dim)
    else:
        record_UniqueDimBackward0(values, self, True, return_inverse, return_counts, dim)
    out = [values]
    if return_inverse:
        out.append(inverse)
    if return_counts:
        out.append(cnt)
    return values if len(out) == 1 else tuple(out)


cdef Tensor op_unique(Tensor self, bint sorted, bint return_inverse, bint return_counts,
                      object dim):
    return _unique_impl(self, False, False, dim, False)


cdef Tensor op_unique_consecutive(Tensor self, bint return_inverse, bint return_counts,
                                  object dim):
    return _unique_impl(self, False, False, dim, True)


cdef int _unique_guard(str name, object input, object dim, bint consecutive) except -1:
    """Note [Complex guard] for unique and unique_consecutive: a complex input reaches
    PyTorch's unique_dim kernel when a dim is given (but unique_consecutive's dim 0 of
    a vector, which takes the kernel without one); the wide unsigned ints have both."""
    if (dim is not None and cnp.PyArray_ISCOMPLEX((<Tensor>input)._data) and not (
            consecutive and dim == 0 and cnp.PyArray_NDIM((<Tensor>input)._data) == 1)):
        name = "unique_dim"
    return check_complex_op(name, input)


def _py_unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique, PyTorch's Python function: its arguments go by keyword to
    torch._unique2, or with dim to unique_dim (whose errors name them so, in their
    order: input, dim, sorted, return_inverse, return_counts)."""
    if complex_arg(input):
        _unique_guard("unique", input, dim, False)  # Note [Complex guard]
    cdef str kernel = "_unique2" if dim is None else "unique_dim"
    cdef Tensor self = arg_tensor(input, kernel, "input", 1)
    d = None if dim is None else arg_int(dim, kernel, "dim", 2)
    arg_bool(sorted, kernel, "sorted", 0)   # (sorted or not, PyTorch's CPU result is sorted)
    return _unique_impl(self, arg_bool(return_inverse, kernel, "return_inverse", 0),
                        arg_bool(return_counts, kernel, "return_counts", 0), d, False)


def _py_unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    if complex_arg(input):
        _unique_guard("unique_consecutive", input, dim, True)  # Note [Complex guard]
    cdef Tensor self = arg_tensor(input, "unique_consecutive", "input", 1)
    # (PyTorch's Python function passes them on by keyword: its errors give no position)
    return _unique_impl(self, arg_bool(return_inverse, "unique_consecutive", "return_inverse", 0),
                        arg_bool(return_counts, "unique_consecutive", "return_counts", 0),
                        None if dim is None else arg_int(dim, "unique_consecutive", "dim", 0), True)


# ================================================================ trapezoid / gradient
# Composed of the ops above as PyTorch composes them (its graphs hold the same nodes).

cdef Tensor op_mul_scalar(Tensor self, object other):
    # PyTorch's promotion with a number (an int tensor times 0.5 is of the default dtype)
    cdef object np_dtype = result_type((self, other)).np_dtype
    cdef Tensor result = make(as_array(self._data.astype(np_dtype, copy=False)
                                       * np.asarray(other, dtype=np_dtype)))
    record_MulBackward1(result, self, other)
    return result


cdef Tensor _zeros_except(Tensor y, Py_ssize_t d):
    cdef tuple s = shape_of(y._data)
    return zeros(s[:d] + s[d + 1:], dtype_of(y._data))


cdef Tensor _spacing_view(Tensor x, Tensor y, Py_ssize_t d, str fname):
    """x viewed so its differences broadcast against y's along d (PyTorch's x_viewed)."""
    cdef Py_ssize_t ny = cnp.PyArray_NDIM(y._data), nx = cnp.PyArray_NDIM(x._data)
    if nx == 1:
        if shape_of(x._data)[0] != shape_of(y._data)[d]:
            raise RuntimeError(f"{fname}: There must be one `x` value for each sample point")
        sizes = [1] * ny
        sizes[d] = shape_of(x._data)[0]
        return OPS.view(x, tuple(sizes))
    if nx < ny:
        return OPS.view(x, (1,) * (ny - nx) + shape_of(x._data))
    return x


cdef tuple _trapezoid_args(str fname, Tensor y, object x, object dx, object dim):
    if x is not None and dx is not None:
        raise RuntimeError(f"{fname}: received both x and dx")
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(y._data))
    if dtype_of(y._data) is bool_:
        raise RuntimeError(f"{fname}: received a bool input for `y`, but bool is not supported")
    if x is not None and dtype_of((<Tensor>x)._data) is bool_:
        raise RuntimeError(f"{fname}: received a bool input for `x`, but bool is not supported")
    return d, (1 if dx is None else dx)


cdef Tensor op_trapezoid(Tensor y, Tensor x, object dx, object dim):
    d, step = _trapezoid_args("trapezoid", y, x, dx, dim)
    if shape_of(y._data)[d] == 0:
        return _zeros_except(y, d)
    for t in (y, x):    # (only an empty y skips PyTorch's add: Note [Dtype guard])
        if t is not None and is_guarded_array((<Tensor>t)._data) and \
                not cnp.PyArray_ISCOMPLEX((<Tensor>t)._data):
            refuse_complex("trapezoid", t)
    cdef Tensor dxt, left, right
    if x is None:
        # (y.sum(dim) - (y[0] + y[-1]) * 0.5) * dx
        ends = OPS.add(OPS.select(y, d, 0), OPS.select(y, d, -1), 1)
        return op_mul_scalar(OPS.sub(op_sum(y, (d,), False, None), op_mul_scalar(ends, 0.5), 1),
                             float(step))
    xv = _spacing_view(x, y, d, "trapezoid")
    dxt = OPS.sub(OPS.slice(xv, d, 1, None, 1), OPS.slice(xv, d, 0, -1, 1), 1)
    left = OPS.slice(y, d, 0, -1, 1)
    right = OPS.slice(y, d, 1, None, 1)
    return OPS.div_scalar(op_sum(OPS.mul(OPS.add(left, right, 1), dxt), (d,), False, None), 2.0)


cdef Tensor op_cumulative_trapezoid(Tensor y, Tensor x, object dx, object dim):
    d, step = _trapezoid_args("cumulative_trapezoid", y, x, dx, dim)
    cdef Tensor left = OPS.slice(y, d, 0, -1, 1), right = OPS.slice(y, d, 1, None, 1)
    if x is None:
        return op_cumsum(op_mul_scalar(OPS.add(left, right, 1), float(step) / 2.0), d, None)
    xv = _spacing_view(x, y, d, "cumulative_trapezoid")
    dxt = OPS.sub(OPS.slice(xv, d, 1, None, 1), OPS.slice(xv, d, 0, -1, 1), 1)
    return OPS.div_scalar(op_cumsum(OPS.mul(OPS.add(left, right, 1), dxt), d, None), 2.0)


cdef tuple _trapezoid_py(str fname, object y, tuple args, object x, object dx, object dim):
    cdef Tensor yt = arg_tensor(y, fname, "y", 1)
    if args:
        if len(args) > 1 or x is not None:
            raise TypeError(f"{fname}() takes at most 2 positional arguments")
        x = args[0]
    if x is not None and not isinstance(x, Tensor):
        raise TypeError(
            f"{fname}() received an invalid combination of arguments - got (Tensor, "
            f"{type(x).__name__}), but expected one of:\n * (Tensor y, Tensor x, *, int dim = -1)\n"
            f" * (Tensor y, *, Number dx = 1, int dim = -1)\n")
    if isinstance(dx, bool):
        raise RuntimeError(f"{fname}: Currently, we only support dx as a real number.")
    return yt, x, None if dx is None else arg_scalar(dx, fname, "dx", 2), arg_int(dim, fname, "dim", 3)


def _py_trapezoid(y, *args, x=None, dx=None, dim=-1):
    if complex_arg(y):
        check_complex_op("trapezoid", y)  # Note [Complex guard]
    yt, xt, d, dm = _trapezoid_py("trapezoid", y, args, x, dx, dim)
    return OPS.trapezoid(yt, xt, d, dm)


def _py_cumulative_trapezoid(y, *args, x=None, dx=None, dim=-1):
    if complex_arg(y):
        check_complex_op("cumulative_trapezoid", y)  # Note [Complex guard]
    yt, xt, d, dm = _trapezoid_py("cumulative_trapezoid", y, args, x, dx, dim)
    return OPS.cumulative_trapezoid(yt, xt, d, dm)


cdef Tensor _edge_slice(Tensor t, Py_ssize_t d, object start, object end):
    return OPS.slice(t, d, start, end, 1)


cdef tuple op_gradient(Tensor self, object spacing, object dim, object edge_order):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data), i
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dim is None:
        dims = list(range(nd))
        given_dim = False
    else:
        dims = [dim] if not isinstance(dim, (list, tuple)) else list(dim)
        given_dim = True
    dims = [wrap_dim(k, nd) for k in dims]
    if isinstance(spacing, (list, tuple)):
        sp = list(spacing)
        if len(sp) != len(dims):
            if given_dim:
                raise RuntimeError(
                    f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing "
                    f"and dim arguments to have the same length, but got a spacing argument of "
                    f"length {len(sp)} and a dim argument of length {len(dims)}.")
            raise RuntimeError(
                f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
                f"equal to 'self.dim() = {nd}', since dim argument was not given, but got a list "
                f"of length {len(sp)}")
    else:
        sp = [spacing] * len(dims)
    for i in range(len(dims)):
        if shape_of(self._data)[dims[i]] < edge_order + 1:
            raise RuntimeError(
                "torch.gradient expected each dimension size to be at least edge_order+1")
    out = []
    for i in range(len(dims)):
        d = dims[i]
        s = sp[i]
        if isinstance(s, Tensor):
            out.append(_gradient_coordinates(self, <Tensor>s, d, edge_order))
        else:
            out.append(_gradient_uniform(self, arg_scalar(s, "gradient", "spacing", 2), d,
                                         edge_order))
    return tuple(out)


cdef Tensor _gradient_uniform(Tensor x, object h, Py_ssize_t d, object edge_order):
    center = OPS.div_scalar(OPS.div_scalar(OPS.sub(_edge_slice(x, d, 2, None),
                                                    _edge_slice(x, d, 0, -2), 1), h), 2.0)
    if edge_order == 1:
        pre = OPS.div_scalar(OPS.sub(_edge_slice(x, d, 1, 2), _edge_slice(x, d, 0, 1), 1), h)
        app = OPS.div_scalar(OPS.sub(_edge_slice(x, d, -1, None), _edge_slice(x, d, -2, -1), 1), h)
    else:
        pre = OPS.div_scalar(OPS.sub(OPS.add(op_mul_scalar(_edge_slice(x, d, 0, 1), -1.5),
                                             op_mul_scalar(_edge_slice(x, d, 1, 2), 2.0), 1),
                                     op_mul_scalar(_edge_slice(x, d, 2, 3), 0.5), 1), h)
        app = OPS.div_scalar(OPS.add(OPS.sub(op_mul_scalar(_edge_slice(x, d, -3, -2), 0.5),
                                             op_mul_scalar(_edge_slice(x, d, -2, -1), 2.0), 1),
                                     op_mul_scalar(_edge_slice(x, d, -1, None), 1.5), 1), h)
    return OPS.cat([pre, center, app], d)


cdef Tensor _gradient_coordinates(Tensor x, Tensor coords, Py_ssize_t d, object edge_order):
    """PyTorch's gradient_helper: second-order central differences over unevenly
    spaced coordinates."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if cnp.PyArray_NDIM(coords._data) != 1 or shape_of(coords._data)[0] != shape_of(x._data)[d]:
        raise RuntimeError(f"torch.gradient expected each tensor to be on the same device, "
                           f"and of one dimension with size {shape_of(x._data)[d]}")
    shape = [1] * nd
    shape[d] = -1
    shape = tuple(shape)
    ax_dx = op_diff(coords, 1, 0, None, None)
    dx1 = OPS.slice(ax_dx, 0, 0, -1, 1)
    dx2 = OPS.slice(ax_dx, 0, 1, None, 1)
    s12 = OPS.add(dx1, dx2, 1)
    a = OPS.reshape(OPS.div(OPS.neg(dx2), OPS.mul(dx1, s12), None), shape)
    b = OPS.reshape(OPS.div(OPS.sub(dx2, dx1, 1), OPS.mul(dx1, dx2), None), shape)
    c = OPS.reshape(OPS.div(dx1, OPS.mul(dx2, s12), None), shape)
    center = OPS.add(OPS.add(OPS.mul(a, _edge_slice(x, d, 0, -2)),
                             OPS.mul(b, _edge_slice(x, d, 1, -1)), 1),
                     OPS.mul(c, _edge_slice(x, d, 2, None)), 1)
    if edge_order == 1:
        pre = OPS.div(OPS.sub(_edge_slice(x, d, 1, 2), _edge_slice(x, d, 0, 1), 1),
                      OPS.select(ax_dx, 0, 0), None)
        app = OPS.div(OPS.sub(_edge_slice(x, d, -1, None), _edge_slice(x, d, -2, -1), 1),
                      OPS.select(ax_dx, 0, -1), None)
    else:
        d1, d2 = OPS.select(ax_dx, 0, 0), OPS.select(ax_dx, 0, 1)
        s = OPS.add(d1, d2, 1)
        a0 = OPS.neg(OPS.div(OPS.add(op_mul_scalar(d1, 2.0), d2, 1), OPS.mul(d1, s), None))
        b0 = OPS.div(s, OPS.mul(d1, d2), None)
        c0 = OPS.neg(OPS.div(d1, OPS.mul(d2, s), None))
        pre = OPS.add(OPS.add(OPS.mul(a0, _edge_slice(x, d, 0, 1)),
                              OPS.mul(b0, _edge_slice(x, d, 1, 2)), 1),
                      OPS.mul(c0, _edge_slice(x, d, 2, 3)), 1)
        d1, d2 = OPS.select(ax_dx, 0, -2), OPS.select(ax_dx, 0, -1)
        s = OPS.add(d1, d2, 1)
        a1 = OPS.div(d2, OPS.mul(d1, s), None)
        b1 = OPS.neg(OPS.div(s, OPS.mul(d1, d2), None))
        c1 = OPS.div(OPS.add(op_mul_scalar(d2, 2.0), d1, 1), OPS.mul(d2, s), None)
        app = OPS.add(OPS.add(OPS.mul(a1, _edge_slice(x, d, -3, -2)),
                              OPS.mul(b1, _edge_slice(x, d, -2, -1)), 1),
                      OPS.mul(c1, _edge_slice(x, d, -1, None)), 1)
    return OPS.cat([pre, center, app], d)


cdef bint _unsigned_gradient_computes(Tensor input, object spacing, object edge_order):
    """Whether PyTorch computes gradient on a wide unsigned input (Note [Dtype guard]):
    with coordinate tensors and edge_order=2 its formulas only multiply the input by
    float coefficients (computed in the float dtype), where its other forms subtract
    slices of the input (add_stub, which it refuses)."""
    if cnp.PyArray_ISCOMPLEX(input._data) or edge_order != 2:
        return False
    if isinstance(spacing, Tensor):
        return True
    return (isinstance(spacing, (list, tuple)) and len(spacing) > 0
            and all(isinstance(s, Tensor) for s in spacing))


def _py_gradient(input, *, spacing=1, dim=None, edge_order=1):
    if complex_arg(input) and not _unsigned_gradient_computes(input, spacing, edge_order):
        check_complex_op("gradient", input)  # Note [Complex guard]
    cdef Tensor self = arg_tensor(input, "gradient", "input", 1)
    if isinstance(spacing, Tensor):
        spacing = [spacing]     # one coordinate tensor: for the one dim
    return OPS.gradient(self, spacing, dim, arg_int(edge_order, "gradient", "edge_order", 4))


# ================================================================ quantile / nanquantile

cdef tuple _QUANTILE_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


cdef Tensor _quantile(Tensor self, object q, object dim, bint keepdim, str interpolation,
                      bint ignore_nan):
    cdef str fname = "quantile()"     # (PyTorch's words for nanquantile too)
    cdef cnp.ndarray x = self._data
    cdef Tensor sorted_, result
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), d
    if cnp.PyArray_SIZE(x) == 0:
        raise RuntimeError(f"{fname} input tensor must be non-empty")
    if dtype_of(x) is not float32 and dtype_of(x) is not float64:
        raise RuntimeError(f"{fname} input tensor must be either float or double dtype")
    if isinstance(q, Tensor):
        qa = (<Tensor>q)._data
        if qa.ndim > 1:
            raise RuntimeError(f"{fname} q must be a scalar or 1D tensor")
        if dtype_of(qa) is not dtype_of(x):
            raise RuntimeError(f"{fname} q tensor must be same dtype as the input tensor")
    else:
        qa = np.asarray(q, dtype=x.dtype)
    if interpolation not in _QUANTILE_MODES:
        # (PyTorch's one reader of the mode names quantile(), for nanquantile too)
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    if qa.size and ((qa < 0) | (qa > 1)).any():
        if not isinstance(q, Tensor):
            raise RuntimeError(f"{fname} q must be in the range [0, 1] but got {cpp_number(q)}")
        raise RuntimeError(f"{fname} q values must be in the range [0, 1]")
    # the output's shape and the sorted input (PyTorch's quantile_impl)
    if dim is None:
        out_shape = [1] * nd if keepdim else []
        sorted_ = op_sort(OPS.reshape(self, (-1,)), -1, False, None)[0]
    else:
        d = wrap_dim(dim, nd)
        out_shape = list(shape_of(x))
        if nd:
            if keepdim:
                out_shape[d] = 1
            else:
                del out_shape[d]
        if nd == 0 or d == nd - 1:
            sorted_ = op_sort(self, -1, False, None)[0]
        else:
            sorted_ = op_sort(OPS.transpose(OPS.unsqueeze(self, -1), d, -1), -1, False, None)[0]
    if qa.ndim == 0:
        out_shape.insert(0, 1)
    else:
        out_shape.insert(0, qa.size)
    # the sorted values viewed as (*out_shape[1:], n): the reduced elements last
    in_shape = tuple(out_shape[1:]) + (shape_of(sorted_._data)[-1],)
    sorted_ = OPS.view(sorted_, in_shape)
    sv = sorted_._data
    n = shape_of(sv)[-1]
    qv = qa.reshape(-1).astype(x.dtype)
    nan_mask = np.isnan(sv)
    with quiet():
        if ignore_nan:
            ranks = qv * (np.sum(~nan_mask, axis=-1, keepdims=True) - 1).astype(x.dtype)
            ranks = np.where(ranks < 0, np.zeros((), x.dtype), ranks)
        else:
            ranks = np.broadcast_to(qv * x.dtype.type(n - 1), shape_of(sv)[:-1] + (qv.size,))
            ranks = np.where(np.any(nan_mask, axis=-1, keepdims=True), x.dtype.type(n - 1), ranks)
        ranks = np.asarray(ranks, dtype=x.dtype)
        if interpolation == "lower":
            ranks = np.floor(ranks)
        elif interpolation == "higher":
            ranks = np.ceil(ranks)
        elif interpolation == "nearest":
            ranks = np.round(ranks)
    below = ranks.astype(np.int64)
    result = OPS.gather(sorted_, -1, make(np.ascontiguousarray(below)))
    if interpolation in ("linear", "midpoint"):
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else \
            (ranks - below.astype(x.dtype)).astype(x.dtype)
        above = OPS.gather(sorted_, -1, make(np.ascontiguousarray(np.ceil(ranks).astype(np.int64))))
        result = OPS._lerp_tensor(result, above, make(np.ascontiguousarray(weights)))
    if qa.ndim == 0:
        return OPS.squeeze_(result, -1)
    result = OPS.transpose(OPS.unsqueeze(result, 0), 0, -1)
    return OPS.squeeze_(result, -1)


cdef str _QUANTILE_SIGNATURES = (
    ' * (Tensor input, Tensor q, int dim = None, bool keepdim = False, *, '
    'str interpolation = "linear", Tensor out = None)\n'
    ' * (Tensor input, float q, int dim = None, bool keepdim = False, *, '
    'str interpolation = "linear", Tensor out = None)')


cdef int _check_quantile_q(str fname, object input, object q) except -1:
    """q is a Tensor or a real number: PyTorch's parser finds no overload for anything
    else (a complex number included), before any dtype check."""
    if not isinstance(q, Tensor) and arg_number(q) is None:
        raise type_error_combination(fname, (input, q), _QUANTILE_SIGNATURES)
    return 0


cdef object _quantile_wrapper(str name, bint ignore_nan, object input, object q, object dim,
                              object keepdim, object out, object interpolation, object axis,
                              object keepdims):
    """quantile's and nanquantile's arguments (numpy's spelling as PyTorch accepts it)."""
    _check_quantile_q(name, input, q)
    if complex_arg(input):
        check_complex_op(name, input)  # Note [Complex guard]
    if axis is not None:
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    cdef Tensor self = arg_tensor(input, name, "input", 1)
    # (quantile reaches no op hook as one op: CPU autocast's float32 cast, here)
    self, q = _autocast_args(name, self, q)
    res = _quantile(self, q if isinstance(q, Tensor) else arg_scalar(q, name, "q", 2),
                    None if dim is None else arg_int(dim, name, "dim", 3),
                    arg_bool(keepdim, name, "keepdim", 4),
                    arg_str(interpolation, name, "interpolation", 5), ignore_nan)
    if isinstance(out, Tensor) and dtype_of((<Tensor>out)._data) is not dtype_of(self._data):
        # (after the input's and q's checks; nanquantile's words are quantile's)
        raise RuntimeError("quantile() out tensor must be same dtype as the input tensor")
    # (PyTorch's out= composes the op and copies into out: its graph and its tangent)
    return with_out(name, out, res, None, OUT_EXACT | OUT_GRAD_COPY | OUT_FW_COPY)


def _py_quantile(input, q, dim=None, keepdim=False, *, out=None, interpolation="linear",
                 axis=None, keepdims=None):
    return _quantile_wrapper("quantile", False, input, q, dim, keepdim, out, interpolation,
                             axis, keepdims)


def _py_nanquantile(input, q, dim=None, keepdim=False, *, out=None, interpolation="linear",
                    axis=None, keepdims=None):
    return _quantile_wrapper("nanquantile", True, input, q, dim, keepdim, out, interpolation,
                             axis, keepdims)


cdef Tensor op_quantile(Tensor self, object q, object dim, bint keepdim, object interpolation):
    return _quantile(self, q, dim, keepdim, interpolation, False)


cdef Tensor op_nanquantile(Tensor self, object q, object dim, bint keepdim, object interpolation):
    return _quantile(self, q, dim, keepdim, interpolation, True)


# ================================================================ histogram

_HistogramResult = named_result_type("histogram", ("hist", "bin_edges"))


cdef cnp.ndarray _histogram_edges(object bins, object dt):
    """Given bin edges (a tensor) as an array in the input's dtype."""
    edges = (<Tensor>bins)._data
    if edges.ndim != 1 or edges.size < 1:
        raise RuntimeError("autograd_core.histogram(): bins tensor should have one dimension")
    return edges.astype(dt)


# Note [histogram's checks with bin counts]
# Given bin counts, PyTorch's histogram and histogramdd find the outer edges
# (select_outer_bin_edges: range's length; without a range a non-empty input's min and
# max, whose kernel, histogramdd, has floating types only; then per dim a finite range,
# then min <= max), make the edges with linspace (its steps >= 0 check, then its kernel's
# dtypes), check the inputs (each edges tensor has an element, the weight's dtype, then
# its shape) and run histogram_cpu (floating types only). histogram checks its bin
# count first (histogramdd_prepare_out, after out's dtypes); histogramdd its bin counts'
# number after the outer edges and each count after the input checks. The messages
# print the range's doubles as C++ streams them (%g).

cdef list _outer_edges(cnp.ndarray points, object range, Py_ssize_t D):
    """PyTorch's select_outer_bin_edges of the (M, D) points: [(lo, hi)] per dim."""
    cdef Py_ssize_t k
    if range is not None:
        if len(range) != 2 * D:
            raise RuntimeError(f"autograd_core.histogramdd: for a {D}-dimensional histogram range should "
                               f"have {2 * D} elements, but got {len(range)}")
        lohi = [(float(range[2 * k]), float(range[2 * k + 1])) for k in builtins.range(D)]
    elif points.size:
        _histogram_kernels(dtype_of(points), False, "histogramdd")
        lohi = [(float(points[:, k].min()), float(points[:, k].max())) for k in builtins.range(D)]
    else:
        lohi = [(0.0, 1.0)] * D     # (an empty input: PyTorch's [0, 1])
    for k in builtins.range(D):
        lo, hi = lohi[k]
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise RuntimeError(f"autograd_core.histogramdd: dimension {k}'s range [{lo:g}, {hi:g}] is not "
                               f"finite")
        if lo > hi:
            raise RuntimeError(f"autograd_core.histogramdd: min should not exceed max, but got min {lo:g} "
                               f"max {hi:g} for dimension {k}")
        if lo == hi:
            lohi[k] = (lo - 0.5, hi + 0.5)
    return lohi


cdef cnp.ndarray _linspace_edges(tuple lohi, object bins, dtype d, object dt):
    """bins + 1 edges over lohi as PyTorch's linspace makes them in the input's dtype d."""
    if bins + 1 < 0:
        raise RuntimeError("number of steps must be non-negative")
    if d is bool_ or d is uint16 or d is uint32 or d is uint64:
        raise not_implemented_for("linspace_cpu", d)
    return as_array(np.linspace(lohi[0], lohi[1], bins + 1)).astype(dt)


cdef int _check_count_edges(list edges) except -1:
    """histogramdd_check_inputs on edges made from bin counts (a count of -1: none)."""
    for k, e in enumerate(edges):
        if (<cnp.ndarray>e).size < 1:
            raise RuntimeError(f"autograd_core.histogramdd: bins tensor should have at least 1 element, but "
                               f"got 0 elements in the bins tensor for dimension {k}")
    return 0


cdef int _check_bin_count(object bins, Py_ssize_t dim) except -1:
    if bins <= 0:
        raise RuntimeError(f"autograd_core.histogram(): bins must be > 0, but got {bins} for dimension "
                           f"{dim}")
    return 0


cdef tuple _histogram_counts(cnp.ndarray points, list edges, object w, bint density, object dt):
    """The histogram of points (n, D) over the D dims' edges: a point counts in the bin
    whose edges bracket it (the last bin closed), the others are ignored."""
    cdef Py_ssize_t D = len(edges), k
    nbins = tuple([e.size - 1 for e in edges])
    inside = np.ones(shape_of(points)[0], dtype=bool)
    pos = []
    for k in range(D):
        col = points[:, k]
        e = edges[k]
        inside &= (col >= e[0]) & (col <= e[-1]) if nbins[k] > 0 else False
        pos.append(np.minimum(np.searchsorted(e, col, side="right") - 1, max(nbins[k] - 1, 0)))
    n = shape_numel(nbins)
    flat = np.ravel_multi_index(tuple([p[inside] for p in pos]), nbins) if n else \
        np.zeros(0, np.int64)
    if w is None:
        hist = np.bincount(flat, minlength=n).astype(dt)
    else:
        hist = np.bincount(flat, weights=np.asarray(w)[inside].astype(np.float64),
                           minlength=n).astype(dt)
    hist = hist.reshape(nbins)
    if density:
        with quiet():
            hist = hist / hist.sum()
            for k in range(D):
                shp = [1] * D
                shp[k] = nbins[k]
                hist = hist / np.diff(edges[k]).reshape(shp)
            hist = hist.astype(dt)
    return as_array(hist), edges


cdef object _histogram_weight(Tensor self, Tensor weight, tuple want, str fname):
    """The weight as a flat array, checked as PyTorch's histogramdd checks it: its
    shape (a 0-d weight counting as [1]) is the input's without the innermost dim;
    histogram passes the input as (numel, 1) and the weight flattened, so there only
    the numbers of elements need agree."""
    if weight is None:
        return None
    cdef cnp.ndarray w = weight._data
    cdef tuple wshape = shape_of(w) or (1,)
    cdef list input_shape = list(shape_of(self._data))
    if fname == "histogram":
        wshape, want = (cnp.PyArray_SIZE(w),), (cnp.PyArray_SIZE(self._data),)
        input_shape = [cnp.PyArray_SIZE(self._data), 1]
    if wshape != want:
        raise RuntimeError(f"autograd_core.histogramdd: if weight tensor is provided it should have "
                           f"the same shape as the input tensor excluding its innermost dimension, "
                           f"but got input with shape {input_shape} and weight with shape "
                           f"{list(wshape) if fname == 'histogram' else list(shape_of(w))}")
    return w.reshape(-1)


cdef tuple op_histogram(Tensor self, object bins, object range, Tensor weight, bint density):
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x)
    flat = x.reshape(-1)
    if isinstance(bins, Tensor):
        edges = _histogram_edges(bins, x.dtype)
        _histogram_kernels(d, True, "histogramdd")
    else:   # Note [histogram's checks with bin counts]
        _check_bin_count(bins, 0)
        edges = _linspace_edges(_outer_edges(flat.reshape(-1, 1), range, 1)[0], bins, d, x.dtype)
        _histogram_dtypes(self, None, weight)
    w = _histogram_weight(self, weight, shape_of(x), "histogram")
    _histogram_kernels(d, True, "histogramdd")
    hist, e = _histogram_counts(flat.reshape(-1, 1), [edges], w, density, x.dtype)
    cdef Tensor h = make(hist), be = make(np.array(edges, copy=True))
    for r in (h, be):   # PyTorch has no derivative: its NotImplemented node on each
        OPS.not_implemented_node(r, (self, weight), "histogram")
    return h, be


cdef int _histogram_dtypes(Tensor self, object edges, Tensor weight) except -1:
    """PyTorch's histogramdd_check_inputs on dtypes: each tensor of bin edges (edges: a
    list of them, or None for bin counts) and the weight have the input's dtype."""
    cdef dtype d = dtype_of(self._data), e
    for k, b in enumerate(edges or ()):
        e = dtype_of((<Tensor>b)._data)
        if e is not d:
            raise RuntimeError(f"autograd_core.histogramdd: input tensor and bins tensors should have "
                               f"the same dtype, but got input with dtype {d.cpp_name} and bins for "
                               f"dimension {k} with dtype {e.cpp_name}")
    if weight is not None and dtype_of(weight._data) is not d:
        raise RuntimeError(f"autograd_core.histogramdd: if weight tensor is provided, input tensor and "
                           f"weight tensor should have the same dtype, but got input({d.cpp_name}), "
                           f"and weight({dtype_of(weight._data).cpp_name})")
    return 0


cdef int _histogram_checks(str name, Tensor self, object edges, Tensor weight,
                           object range) except -1:
    """histogram's and histogramdd's checks in PyTorch's order (Note [Complex guard]):
    given bin edges, their dtypes and the weight's before the kernel's dtype (named
    histogram_cpu for histogram); given bin counts and no range, the kernel that finds
    the outer edges refuses a guarded input first (named histogramdd), then the weight's
    dtype; given a range, the op names the kernels that make and fill the bins
    (_histogram_kernels)."""
    if edges is not None:
        _histogram_dtypes(self, edges, weight)
        if complex_arg(self):
            check_complex_op(name, self)
    else:
        if complex_arg(self) and range is None:
            check_complex_op("histogramdd", self)
        _histogram_dtypes(self, None, weight)
    return 0


def _py_histogram(input, bins=100, *, out=None, range=None, weight=None, density=False):
    cdef Tensor self = arg_tensor(input, "histogram", "input", 1)
    if not isinstance(bins, Tensor):
        bins = arg_int(bins, "histogram", "bins", 2)
    cdef Tensor w = None if weight is None else arg_tensor(weight, "histogram", "weight", 4)
    if isinstance(bins, Tensor):
        _histogram_checks("histogram", self, [bins], w, range)
    elif out is not None:   # (histogramdd_prepare_out: out's dtypes, before the bin count)
        out_check("histogram", out, 2)
        for name, o in zip(("hist", "bin_edges"), out):
            if dtype_of((<Tensor>o)._data) is not dtype_of(self._data):
                raise RuntimeError(
                    f"autograd_core.histogram: input tensor and {name} tensor should have the same dtype, "
                    f"but got input {dtype_of(self._data).cpp_name} and {name} "
                    f"{dtype_of((<Tensor>o)._data).cpp_name}"
                    + (" for dimension 0" if name == "bin_edges" else ""))
    res = _HistogramResult(*OPS.histogram(self, bins, range, w,
                                          arg_bool(density, "histogram", "density", 5)))
    return with_out("histogram", out, res, ('hist', 'bin_edges'), True)




# ================================================================ histogramdd

_HistogramddResult = named_result_type("histogramdd", ("hist", "bin_edges"))


cdef tuple op_histogramdd(Tensor self, object bins, object range, Tensor weight, bint density):
    cdef cnp.ndarray x = self._data
    if cnp.PyArray_NDIM(x) < 2:   # (PyTorch's first check, before the dtype's)
        raise RuntimeError("autograd_core.histogramdd: input tensor should have at least 2 dimensions")
    cdef dtype d = dtype_of(x)
    cdef Py_ssize_t D = shape_of(x)[-1], k
    points = x.reshape(-1, D)
    bl = list(bins) if isinstance(bins, (list, tuple)) else [bins] * D
    if bl and all([isinstance(b, Tensor) for b in bl]):
        if range is None:
            _histogram_kernels(d, False, "histogramdd")
        if len(bl) != D:
            raise RuntimeError(f"autograd_core.histogramdd: expected {D} sequences of bin edges for a "
                               f"{D}-dimensional histogram but got {len(bl)}")
        edges = [_histogram_edges(b, x.dtype) for b in bl]
        w = _histogram_weight(self, weight, shape_of(x)[:-1], "histogramdd")
    else:   # Note [histogram's checks with bin counts]
        lohi = _outer_edges(points, range, D)
        if len(bl) != D:
            raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                               "dimension of the input.")
        edges = [_linspace_edges(lohi[k], bl[k], d, x.dtype) for k in builtins.range(D)]
        _check_count_edges(edges)
        _histogram_dtypes(self, None, weight)
        w = _histogram_weight(self, weight, shape_of(x)[:-1], "histogramdd")
        for k in builtins.range(D):
            _check_bin_count(bl[k], k)
    _histogram_kernels(d, True, "histogramdd")
    hist, e = _histogram_counts(points, edges, w, density, x.dtype)
    return make(hist), tuple([make(np.array(a, copy=True)) for a in e])


def _py_histogramdd(input, bins=10, *, range=None, weight=None, density=False):
    cdef Tensor self = arg_tensor(input, "histogramdd", "input", 1)
    if isinstance(bins, (list, tuple)):
        bins = [b if isinstance(b, Tensor) else arg_int(b, "histogramdd", "bins", 2) for b in bins]
    elif not isinstance(bins, Tensor):
        bins = arg_int(bins, "histogramdd", "bins", 2)
    cdef Tensor w = None if weight is None else arg_tensor(weight, "histogramdd", "weight", 4)
    cdef object edges = None
    if isinstance(bins, list) and bins and all(isinstance(b, Tensor) for b in bins):
        edges = bins
    elif isinstance(bins, Tensor):
        edges = [bins]
    if cnp.PyArray_NDIM(self._data) >= 2:
        # (PyTorch checks the rank first: op_histogramdd's error for a 1-d input)
        if edges is not None and len(edges) == shape_of(self._data)[-1]:
            _histogram_checks("histogramdd", self, edges, w, range)
        elif edges is not None and complex_arg(self):
            check_complex_op("histogramdd", self)
    return _HistogramddResult(*OPS.histogramdd(self, bins, range, w,
                                               arg_bool(density, "histogramdd", "density", 5)))

include "_gen_reduce.pxi"
