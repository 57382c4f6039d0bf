# Reductions and matrix products, with their backward nodes.

cdef tuple _normalize_dims(object dim, Py_ssize_t ndim):
    """dim as an int, tuple or list -> sorted tuple of non-negative ints, checked."""
    if isinstance(dim, (tuple, list)):
        dims = tuple(_wrap_dim(d, ndim) for d in dim)
        if len(set(dims)) != len(dims):
            for d in dims:
                if dims.count(d) > 1:
                    raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        return tuple(sorted(dims))
    return (_wrap_dim(dim, ndim),)


cdef Tensor _expand_reduced(Tensor g, tuple in_shape, tuple dims, bint keepdim):
    """Broadcast a reduction's gradient back over the reduced dims."""
    if not keepdim and dims:
        shape = list(in_shape)
        for d in dims:
            shape[d] = 1
        if len(in_shape) == 0:
            shape = []
        g = _reshape(g, tuple(shape))
    return _expand(g, in_shape)


cdef class _ReduceNode(Node):
    cdef tuple in_shape
    cdef tuple dims       # reduced dims (all dims for a full reduction)
    cdef bint keepdim


cdef class SumBackward0(_ReduceNode):
    cdef tuple apply(self, tuple grads):
        return (_expand(grads[0], self.in_shape),)


cdef class SumBackward1(_ReduceNode):
    cdef tuple apply(self, tuple grads):
        return (_expand_reduced(grads[0], self.in_shape, self.dims, self.keepdim),)


cdef class MeanBackward0(_ReduceNode):
    cdef object count

    cdef tuple apply(self, tuple grads):
        return (_div_scalar(_expand(grads[0], self.in_shape), self.count),)


cdef class MeanBackward1(MeanBackward0):
    cdef tuple apply(self, tuple grads):
        return (_div_scalar(_expand_reduced(grads[0], self.in_shape, self.dims, self.keepdim),
                            self.count),)


cdef Tensor _sum_dims(Tensor x, tuple dims, bint keepdim, bint full, object dtype_arg):
    cdef dtype d = _dtype_of(x._data)
    cdef dtype od
    if dtype_arg is not None:
        od = _to_dtype(dtype_arg)
    elif d.category != 2:
        od = int64  # integer and bool sums accumulate in int64, as PyTorch
    else:
        od = d
    cdef Tensor r = _make(_as_array(np.sum(x._data, axis=dims, keepdims=keepdim,
                                           dtype=od.np_dtype)))
    if _grad_on() and x._requires_grad and od.category == 2:
        node = <_ReduceNode>(SumBackward0.__new__(SumBackward0) if full
                             else SumBackward1.__new__(SumBackward1))
        node.in_shape = _shp(x._data)
        node.dims = dims
        node.keepdim = keepdim
        _record1(node, r, x)
        if od is not d:
            node.input_shapes = ((_shp(x._data), d),)
    return r


cdef Tensor _sum(Tensor x, object dim, bint keepdim, object dtype_arg):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if dim is None:
        return _sum_dims(x, None if not keepdim else tuple(range(nd)), keepdim, True, dtype_arg) \
            if keepdim else _sum_dims(x, None, False, True, dtype_arg)
    dims = _normalize_dims(dim, nd) if not (isinstance(dim, (tuple, list)) and len(dim) == 0) \
        else tuple(range(nd))
    if nd == 0:
        dims = ()
    return _sum_dims(x, dims, keepdim, False, dtype_arg)


cdef Tensor _mean(Tensor x, object dim, bint keepdim, object dtype_arg):
    cdef dtype d = _dtype_of(x._data) if dtype_arg is None else _to_dtype(dtype_arg)
    if d.category != 2:
        which = "Input" if dtype_arg is None else "Optional"
        raise RuntimeError(
            f"mean(): could not infer output dtype. {which} dtype must be either a floating "
            f"point or complex dtype. Got: {_legacy_scalar_name(d)}")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef tuple dims
    cdef bint full = dim is None
    if full:
        dims = tuple(range(nd))
    elif isinstance(dim, (tuple, list)) and len(dim) == 0:
        dims = tuple(range(nd))
    else:
        dims = _normalize_dims(dim, nd) if nd else ()
    xa = _cast_array(x._data, d)
    with _quiet():
        out = np.mean(xa, axis=None if full else dims, keepdims=keepdim and not full)
    if full and keepdim:
        out = np.reshape(out, (1,) * nd)
    cdef Tensor r = _make(_as_array(out).astype(d.np_dtype, copy=False))
    count = 1
    for k in dims:
        count *= _shp(x._data)[k]
    if _grad_on() and x._requires_grad:
        node = <MeanBackward0>(MeanBackward0.__new__(MeanBackward0) if full and not keepdim
                               else MeanBackward1.__new__(MeanBackward1))
        node.in_shape = _shp(x._data)
        node.dims = dims
        node.keepdim = keepdim
        node.count = count
        _record1(node, r, x)
        if d is not _dtype_of(x._data):
            node.input_shapes = ((_shp(x._data), _dtype_of(x._data)),)
    return r


cdef str _legacy_scalar_name(dtype d):
    return {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
            "int64": "Long", "float16": "Half", "float32": "Float", "float64": "Double"}[d.name]


# ---------------------------------------------------------------- max / min

cdef class MaxBackward1(_SavedNode):
    """max() over all elements: the gradient is shared evenly among ties (PyTorch)."""
    cdef tuple apply(self, tuple grads):
        x = self.input()
        r = self.output()
        mask = _as_array((x._data == r._data) | (np.isnan(x._data) & np.isnan(r._data)))
        count = int(mask.sum())
        return (_mul(_expand(_div_scalar(grads[0], count), _shp(x._data)),
                     _make(mask.astype(x._data.dtype))),)


cdef class MinBackward1(MaxBackward1):
    pass


cdef class MaxBackward0(Node):
    """max(dim): the gradient goes to the selected index of each slice."""
    cdef tuple in_shape
    cdef Py_ssize_t dim
    cdef bint keepdim
    cdef cnp.ndarray indices

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        if not self.in_shape:
            return (g,)  # a 0-d input is its own max
        if not self.keepdim:
            g = _unsqueeze(g, self.dim)
        idx = self.indices if self.keepdim else np.expand_dims(self.indices, self.dim)
        return (_scatter_along(g, self.in_shape, self.dim, idx),)


cdef class MinBackward0(MaxBackward0):
    pass


cdef class _ScatterAlongBackward(Node):
    cdef Py_ssize_t dim
    cdef cnp.ndarray indices

    cdef tuple apply(self, tuple grads):
        return (_gather_along(grads[0], self.dim, self.indices),)


cdef class GatherBackward0(Node):
    cdef tuple in_shape
    cdef Py_ssize_t dim
    cdef cnp.ndarray indices

    cdef tuple apply(self, tuple grads):
        # scatter_add: repeated indices (gather's) add up
        return (_scatter_add_zeros(grads[0], self.in_shape, self.dim, self.indices),)


cdef Tensor _scatter_along(Tensor g, tuple shape, Py_ssize_t dim, cnp.ndarray idx):
    """zeros(shape) with g added at idx along dim (differentiable in g)."""
    out = np.zeros(shape, dtype=g._data.dtype)
    np.put_along_axis(out, idx, g._data, axis=dim)
    cdef Tensor r = _make(out)
    if _grad_on() and g._requires_grad:
        node = <_ScatterAlongBackward>_ScatterAlongBackward.__new__(_ScatterAlongBackward)
        node.dim = dim
        node.indices = idx
        _record1(node, r, g)
    return r


cdef Tensor _gather_along(Tensor x, Py_ssize_t dim, cnp.ndarray idx):
    cdef Tensor r = _make(_as_array(np.take_along_axis(x._data, idx, axis=dim)))
    if _grad_on() and x._requires_grad:
        node = <GatherBackward0>GatherBackward0.__new__(GatherBackward0)
        node.in_shape = _shp(x._data)
        node.dim = dim
        node.indices = idx
        _record1(node, r, x)
    return r


cdef object _max_min(Tensor x, object dim, bint keepdim, bint is_max):
    cdef str name = "max" if is_max else "min"
    cdef cnp.ndarray xa = x._data
    cdef Tensor r
    cdef MaxBackward1 node1
    cdef MaxBackward0 node
    if dim is None:
        if cnp.PyArray_SIZE(xa) == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        with _quiet():
            r = _make(_as_array(np.max(xa) if is_max else np.min(xa)))
        if _grad_on() and x._requires_grad:
            node1 = <MaxBackward1>(MaxBackward1.__new__(MaxBackward1) if is_max
                                   else MinBackward1.__new__(MinBackward1))
            node1.self_ = x
            node1.self_version = _version_for_save(x)
            _save_own_output(node1, r)
            _record1(node1, r, x)
        return r
    if isinstance(dim, Tensor):
        # max(other): elementwise maximum (in _ops_reduce_linalg.pxi)
        if keepdim:
            raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not Tensor")
        return _maximum_minimum(x, <Tensor>dim, is_max)
    cdef Py_ssize_t d = _wrap_dim(dim, cnp.PyArray_NDIM(xa))
    if cnp.PyArray_NDIM(xa) == 0:
        idx = np.zeros((), dtype=np.int64)
        vals = xa.copy()
    else:
        if xa.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        idx = np.argmax(xa, axis=d, keepdims=True) if is_max else np.argmin(xa, axis=d, keepdims=True)
        vals = np.take_along_axis(xa, idx, axis=d)
        if not keepdim:
            idx = np.squeeze(idx, axis=d)
            vals = np.squeeze(vals, axis=d)
    r = _make(_as_array(vals).copy())
    cdef Tensor ri = _make(_as_array(idx).astype(np.int64))
    if _grad_on() and x._requires_grad:
        node = <MaxBackward0>(MaxBackward0.__new__(MaxBackward0) if is_max
                              else MinBackward0.__new__(MinBackward0))
        node.in_shape = _shp(xa)
        node.dim = d
        node.keepdim = keepdim or cnp.PyArray_NDIM(xa) == 0
        node.indices = ri._data if cnp.PyArray_NDIM(xa) else ri._data.reshape(())
        _record1(node, r, x)
    return (_MAX_RESULT if is_max else _MIN_RESULT)(r, ri)


import collections as _collections


class _ReturnTypeMixin:
    def __repr__(self):
        cls = type(self).__name__
        return (f"autograd_core.return_types.{cls}(\nvalues={self.values!r},\n"
                f"indices={self.indices!r})")


_MAX_RESULT = type("max", (_ReturnTypeMixin, _collections.namedtuple("max", ["values", "indices"])), {})
_MIN_RESULT = type("min", (_ReturnTypeMixin, _collections.namedtuple("min", ["values", "indices"])), {})


# ---------------------------------------------------------------- matmul

cdef class _MatmulNode(Node):
    """a @ b in any of matmul's forms; gradients broadcast back by the engine."""
    cdef Tensor a
    cdef Tensor b
    cdef long a_version
    cdef long b_version
    cdef int na             # operand ranks (an operand is saved only when needed)
    cdef int nb

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        a = _unpack(self, self.a, self.a_version)
        b = _unpack(self, self.b, self.b_version)
        cdef int na = self.na, nb = self.nb
        ga = gb = None
        if na == 1 and nb == 1:
            if _needs(self, 0):
                ga = _mul(g, b)
            if _needs(self, 1):
                gb = _mul(g, a)
        elif nb == 1:
            if _needs(self, 0):
                ga = _matmul(_unsqueeze(g, -1), _unsqueeze(b, 0))
            if _needs(self, 1):
                gb = _squeeze(_matmul(_transpose(a, -1, -2), _unsqueeze(g, -1)), -1)
        elif na == 1:
            if _needs(self, 0):
                ga = _squeeze(_matmul(b, _unsqueeze(g, -1)), -1)
            if _needs(self, 1):
                gb = _matmul(_unsqueeze(a, -1), _unsqueeze(g, -2))
        else:
            if _needs(self, 0):
                ga = _matmul(g, _transpose(b, -1, -2))
            if _needs(self, 1):
                gb = _matmul(_transpose(a, -1, -2), g)
        return (ga, gb)

    cdef void release_saved(self):
        self.a = None
        self.b = None
        self.released = True


cdef class MmBackward0(_MatmulNode):
    pass


cdef class MvBackward0(_MatmulNode):
    pass


cdef class DotBackward0(_MatmulNode):
    pass


cdef class SqueezeBackward4(_MatmulNode):
    pass


cdef class UnsafeViewBackward0(_MatmulNode):
    pass


# PyTorch names a matrix times a batch of matrices by its last internal op.
_MatmulCloneBackward0 = type("CloneBackward0", (_MatmulNode,), {"__slots__": ()})


cdef object _matmul_error(Tensor a, Tensor b):
    cdef int na = cnp.PyArray_NDIM(a._data), nb = cnp.PyArray_NDIM(b._data)
    sa, sb = _shp(a._data), _shp(b._data)
    if na == 0 or nb == 0:
        return RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {na}D and {nb}D")
    if na == 1 and nb == 1:
        return RuntimeError(
            f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] to have the "
            "same number of elements, but got " f"{sa[0]} and {sb[0]} elements respectively")
    if na == 2 and nb == 1:
        return RuntimeError(f"size mismatch, got input ({sa[0]}), mat ({sa[0]}x{sa[1]}), vec ({sb[0]})")
    if na == 2 and nb == 2:
        return RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({sa[0]}x{sa[1]} and {sb[0]}x{sb[1]})")
    if na == 1 and nb == 2:
        return RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied (1x{sa[0]} and {sb[0]}x{sb[1]})")
    ka = sa[-1]
    kb = sb[-2] if nb >= 2 else sb[0]
    if ka != kb:
        return RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{int(np.prod(sa[:-2])) if na > 2 else 1}, {ka}] but got: "
            f"[{int(np.prod(sb[:-2])) if nb > 2 else 1}, {kb}].")
    return RuntimeError(
        "The size of tensor a must match the size of tensor b at non-singleton dimension "
        f"(batch dimensions {list(sa[:-2])} and {list(sb[:-2])})")


cdef Tensor _matmul(Tensor a, Tensor b):
    cdef cnp.ndarray aa = a._data, ba = b._data
    cdef int na = cnp.PyArray_NDIM(aa), nb = cnp.PyArray_NDIM(ba)
    if na == 0 or nb == 0:
        raise _matmul_error(a, b)
    if cnp.PyArray_TYPE(aa) != cnp.PyArray_TYPE(ba):
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: "
            f"{_dtype_of(aa).name.replace('float32', 'float').replace('float64', 'double').replace('int64', 'long int')} "
            f"!= {_dtype_of(ba).name.replace('float32', 'float').replace('float64', 'double').replace('int64', 'long int')}")
    try:
        out = np.matmul(aa, ba)
    except ValueError:
        raise _matmul_error(a, b) from None
    cdef Tensor r = _make(_as_array(out))
    if not (_grad_on() and (a._requires_grad or b._requires_grad)):
        return r
    cdef _MatmulNode node
    if na == 2 and nb == 2:
        node = <MmBackward0>MmBackward0.__new__(MmBackward0)
    elif na == 1 and nb == 1:
        node = <DotBackward0>DotBackward0.__new__(DotBackward0)
    elif na == 2 and nb == 1:
        node = <MvBackward0>MvBackward0.__new__(MvBackward0)
    elif na == 1 and nb == 2:
        node = <SqueezeBackward4>SqueezeBackward4.__new__(SqueezeBackward4)
    elif na == 2:
        node = <_MatmulNode?>_MatmulCloneBackward0.__new__(_MatmulCloneBackward0)
    else:
        node = <UnsafeViewBackward0>UnsafeViewBackward0.__new__(UnsafeViewBackward0)
    node.na = na
    node.nb = nb
    if b._requires_grad:
        node.a = a
        node.a_version = _version_for_save(a)
    if a._requires_grad:
        node.b = b
        node.b_version = _version_for_save(b)
    _record2(node, r, a, b)
    if na > 2 or nb > 2 or (na == 1) != (nb == 1):
        node.input_shapes = ((_shp(aa), _dtype_of(aa)), (_shp(ba), _dtype_of(ba)))
    return r


cdef Tensor _mm(Tensor a, Tensor b):
    if cnp.PyArray_NDIM(a._data) != 2:
        raise RuntimeError(f"self must be a matrix")
    if cnp.PyArray_NDIM(b._data) != 2:
        raise RuntimeError(f"mat2 must be a matrix")
    return _matmul(a, b)


def matmul(input, other):
    """Matrix product with numpy/PyTorch broadcasting (1-D, 2-D, batched).

    >>> import autograd_core as torch
    >>> torch.matmul(torch.ones(2, 3), torch.ones(3)).tolist()
    [3.0, 3.0]
    """
    return _matmul(_require_tensor(input, "matmul"), _require_tensor(other, "matmul"))


def mm(input, mat2):
    """Product of two 2-D tensors."""
    return _mm(_require_tensor(input, "mm"), _require_tensor(mat2, "mm"))
