# Shape ops, indexing, joining, casts, clone and in-place ops, with their nodes.

# ---------------------------------------------------------------- reshape family

cdef class _ReshapeNode(Node):
    cdef tuple in_shape

    cdef tuple apply(self, tuple grads):
        return (_reshape(grads[0], self.in_shape),)


cdef class ViewBackward0(_ReshapeNode):
    pass


# reshape that had to copy: PyTorch's _unsafe_view
_ReshapeUnsafeViewBackward0 = type("UnsafeViewBackward0", (_ReshapeNode,), {"__slots__": ()})


cdef class ReshapeAliasBackward0(_ReshapeNode):
    # reshape of a non-contiguous tensor that could still be viewed
    pass


cdef class SqueezeBackward0(_ReshapeNode):
    pass


cdef class SqueezeBackward1(_ReshapeNode):
    pass


cdef class SqueezeBackward2(_ReshapeNode):
    pass


cdef class UnsqueezeBackward0(_ReshapeNode):
    pass


cdef tuple _infer_shape(tuple shape, Py_ssize_t numel):
    cdef Py_ssize_t known = 1, infer = -1, i
    for i in range(len(shape)):
        s = shape[i]
        if s == -1:
            if infer >= 0:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {_shape_str(shape)}")
        else:
            known *= s
    if infer >= 0:
        if known == 0:
            raise RuntimeError(
                f"cannot reshape tensor of {numel} elements into shape {_shape_str(shape)} because "
                "the unspecified dimension size -1 can be any value and is ambiguous"
                if numel == 0 else f"shape '{_shape_str(shape)}' is invalid for input of size {numel}")
        if numel % known != 0:
            raise RuntimeError(f"shape '{_shape_str(shape)}' is invalid for input of size {numel}")
        shape = shape[:infer] + (numel // known,) + shape[infer + 1:]
    elif known != numel:
        raise RuntimeError(f"shape '{_shape_str(shape)}' is invalid for input of size {numel}")
    return shape


cdef Tensor _reshape_node(Tensor x, cnp.ndarray out, Node node, bint is_view):
    cdef Tensor r = _make_view(x, out) if is_view else _make(out)
    if _grad_on() and x._requires_grad:
        (<_ReshapeNode?>node).in_shape = _shp(x._data)
        _record1(node, r, x)
    return r


cdef Tensor _reshape(Tensor x, tuple shape):
    cdef cnp.ndarray xa = x._data
    shape = _infer_shape(shape, cnp.PyArray_SIZE(xa))
    try:
        out = np.reshape(xa, shape, copy=False)
        is_view = True
    except ValueError:
        out = np.reshape(xa, shape)
        is_view = False
    if not (_grad_on() and x._requires_grad):
        return _make_view(x, out) if is_view else _make(out)
    if is_view:
        node = ViewBackward0.__new__(ViewBackward0) if cnp.PyArray_IS_C_CONTIGUOUS(xa) else \
            ReshapeAliasBackward0.__new__(ReshapeAliasBackward0)
    else:
        node = _ReshapeUnsafeViewBackward0.__new__(_ReshapeUnsafeViewBackward0)
    return _reshape_node(x, out, node, is_view)


cdef Tensor _view(Tensor x, tuple shape):
    cdef cnp.ndarray xa = x._data
    shape = _infer_shape(shape, cnp.PyArray_SIZE(xa))
    try:
        out = np.reshape(xa, shape, copy=False)
    except ValueError:
        raise RuntimeError(_MSG_VIEW_NOT_COMPATIBLE) from None
    return _reshape_node(x, out, ViewBackward0.__new__(ViewBackward0), True)


cdef Tensor _flatten(Tensor x, object start_dim, object end_dim):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t s = _wrap_dim(start_dim, nd), e = _wrap_dim(end_dim, nd)
    if nd == 0:
        return _reshape(x, (1,))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return x
    shape = _shp(x._data)
    n = 1
    for k in range(s, e + 1):
        n *= shape[k]
    return _reshape(x, shape[:s] + (n,) + shape[e + 1:])


cdef Tensor _squeeze(Tensor x, object dim):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    shape = _shp(x._data)
    if dim is None:
        new = tuple(s for s in shape if s != 1)
        node = <SqueezeBackward0>SqueezeBackward0.__new__(SqueezeBackward0)
    elif isinstance(dim, (tuple, list)):
        dims = set(_wrap_dim(d, nd) for d in dim)
        new = tuple(s for k, s in enumerate(shape) if not (k in dims and s == 1))
        node = <SqueezeBackward2>SqueezeBackward2.__new__(SqueezeBackward2)
    else:
        d = _wrap_dim(dim, nd)
        new = tuple(s for k, s in enumerate(shape) if not (k == d and s == 1)) if nd else ()
        node = <SqueezeBackward1>SqueezeBackward1.__new__(SqueezeBackward1)
    return _reshape_node(x, np.reshape(x._data, new), node, True)


cdef Tensor _unsqueeze(Tensor x, object dim):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t d = _wrap_dim(dim, nd + 1)
    return _reshape_node(x, np.expand_dims(x._data, d),
                         UnsqueezeBackward0.__new__(UnsqueezeBackward0), True)


# ---------------------------------------------------------------- transpose / permute

cdef class TransposeBackward0(Node):
    cdef Py_ssize_t dim0
    cdef Py_ssize_t dim1

    cdef tuple apply(self, tuple grads):
        return (_transpose(grads[0], self.dim0, self.dim1),)


cdef class TBackward0(Node):
    cdef tuple apply(self, tuple grads):
        return (_t(grads[0]),)


cdef class PermuteBackward0(Node):
    cdef tuple dims

    cdef tuple apply(self, tuple grads):
        inverse = [0] * len(self.dims)
        for i, d in enumerate(self.dims):
            inverse[d] = i
        return (_permute(grads[0], tuple(inverse)),)


cdef Tensor _transpose(Tensor x, object dim0, object dim1):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t d0 = _wrap_dim(dim0, nd), d1 = _wrap_dim(dim1, nd)
    cdef Tensor r = _make_view(x, np.swapaxes(x._data, d0, d1) if nd else x._data)
    if _grad_on() and x._requires_grad:
        node = <TransposeBackward0>TransposeBackward0.__new__(TransposeBackward0)
        node.dim0 = d0
        node.dim1 = d1
        _record1(node, r, x)
    return r


cdef Tensor _t(Tensor x):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    cdef Tensor r = _make_view(x, x._data.T)
    if _grad_on() and x._requires_grad:
        _record1(TBackward0.__new__(TBackward0), r, x)
    return r


cdef Tensor _T(Tensor x):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if nd != 2 and nd != 0:
        warnings.warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` "
            "to reverse the dimensions of a tensor.", UserWarning, stacklevel=2)
    return _permute(x, tuple(range(nd - 1, -1, -1)))


cdef Tensor _permute(Tensor x, tuple dims):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if len(dims) != nd:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal "
            f"to len(dims) = {len(dims)}")
    wrapped = tuple(_wrap_dim(d, nd) for d in dims)
    if len(set(wrapped)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    cdef Tensor r = _make_view(x, np.transpose(x._data, wrapped))
    if _grad_on() and x._requires_grad:
        node = <PermuteBackward0>PermuteBackward0.__new__(PermuteBackward0)
        node.dims = wrapped
        _record1(node, r, x)
    return r


# ---------------------------------------------------------------- expand / sum_to

cdef class ExpandBackward0(Node):
    cdef tuple in_shape

    cdef tuple apply(self, tuple grads):
        return (_sum_to(grads[0], self.in_shape),)


cdef Tensor _expand(Tensor x, tuple sizes):
    cdef tuple shape = _shp(x._data)
    cdef Py_ssize_t nd = len(shape), n = len(sizes), i, k
    if n < nd:
        raise RuntimeError(
            f"expand({_legacy_type_name(x)}{{{_shape_str(shape)}}}, size={_shape_str(sizes)}): the "
            "number of sizes provided (" f"{n}) must be greater or equal to the number of "
            f"dimensions in the tensor ({nd})")
    target = list(sizes)
    for i in range(n):
        k = i - (n - nd)
        if target[i] == -1:
            if k < 0:
                raise RuntimeError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {i}")
            target[i] = shape[k]
        elif k >= 0 and shape[k] != 1 and shape[k] != target[i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[i]}) must match the existing size "
                f"({shape[k]}) at non-singleton dimension {i}.  Target sizes: "
                f"{_shape_str(sizes)}.  Tensor sizes: {_shape_str(shape)}")
    target = tuple(target)
    if target == shape:
        out = x._data
    else:
        out = np.broadcast_to(x._data, target)
    cdef Tensor r = _make_view(x, out)
    if _grad_on() and x._requires_grad:
        node = <ExpandBackward0>ExpandBackward0.__new__(ExpandBackward0)
        node.in_shape = shape
        _record1(node, r, x)
    return r


cdef Tensor _sum_to(Tensor g, tuple shape):
    """Sum a broadcast gradient back to `shape` (the one place broadcasting is undone)."""
    cdef tuple gs = _shp(g._data)
    if gs == shape:
        return g
    cdef Py_ssize_t lead = len(gs) - len(shape), i
    dims = list(range(lead))
    for i in range(len(shape)):
        if shape[i] == 1 and gs[lead + i] != 1:
            dims.append(lead + i)
    if dims:
        g = _sum_dims(g, tuple(dims), True, False, None)
    if _shp(g._data) != shape:
        g = _reshape(g, shape)
    return g


# ---------------------------------------------------------------- indexing

cdef class _IndexNode(Node):
    """x[key]: the gradient is scattered back into zeros of x's shape."""
    cdef tuple in_shape
    cdef object key          # normalised numpy key
    cdef bint advanced       # integer-array or mask parts: repeated positions add up

    cdef tuple apply(self, tuple grads):
        return (_index_put_zeros(grads[0], self.in_shape, self.key, self.advanced),)


cdef class SelectBackward0(_IndexNode):
    pass


cdef class SliceBackward0(_IndexNode):
    pass


cdef class AliasBackward0(_IndexNode):
    pass


cdef class IndexBackward0(_IndexNode):
    pass


cdef class _IndexPutZerosBackward(Node):
    cdef object key

    cdef tuple apply(self, tuple grads):
        return (_index_values(grads[0], self.key, False),)


cdef Tensor _index_put_zeros(Tensor g, tuple shape, object key, bint accumulate):
    """zeros(shape) with g placed (or, for advanced keys, added) at key."""
    out = np.zeros(shape, dtype=g._data.dtype)
    if accumulate:
        np.add.at(out, key, g._data)
    else:
        out[key] = g._data
    cdef Tensor r = _make(out)
    if _grad_on() and g._requires_grad:
        node = <_IndexPutZerosBackward>_IndexPutZerosBackward.__new__(_IndexPutZerosBackward)
        node.key = key
        _record1(node, r, g)
    return r


# x[None] is recorded as an index node that PyTorch names after its unsqueeze.
_IndexUnsqueezeBackward0 = type("UnsqueezeBackward0", (_IndexNode,), {"__slots__": ()})


cdef object _index_error(Exception e, Tensor x, tuple key):
    msg = str(e)
    import re
    m = re.match(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", msg)
    if m:
        return IndexError(f"index {m.group(1)} is out of bounds for dimension {m.group(2)} "
                          f"with size {m.group(3)}")
    m = re.match(r"boolean index did not match indexed array along (?:axis|dimension) (\d+); "
                 r"size of (?:axis|dimension) is (\d+) but size of corresponding boolean "
                 r"(?:axis|dimension) is (\d+)", msg)
    if m:
        for k in key:
            if isinstance(k, np.ndarray) and k.dtype == np.bool_:
                d = int(m.group(1))
                return IndexError(
                    f"The shape of the mask {_shape_str(k.shape)} at index {0} does not match "
                    f"the shape of the indexed tensor {_shape_str(_shp(x._data)[d:d + k.ndim])} "
                    f"at index {d}")
    if "too many indices" in msg:
        return IndexError(f"too many indices for tensor of dimension {cnp.PyArray_NDIM(x._data)}")
    if "shape mismatch" in msg:
        return IndexError(msg.replace("shape mismatch: indexing arrays could not be broadcast together with shapes",
                                      "shape mismatch: indexing tensors could not be broadcast together with shapes"))
    return IndexError(msg)


cdef Tensor _index_values(Tensor x, object key, bint advanced):
    """x[key] for a normalised key, recorded."""
    cdef cnp.ndarray xa = x._data
    if not advanced and not _builtins.any(k is Ellipsis for k in key):
        key = key + (Ellipsis,)  # a full integer key then gives a 0-d view, not a scalar
    try:
        out = xa[key]
    except IndexError as e:
        raise _index_error(e, x, key if isinstance(key, tuple) else (key,)) from None
    cdef cnp.ndarray arr = _as_array(out)
    # Basic keys give views (shared memory and version); advanced keys give copies.
    return _make(arr) if advanced else _make_view(x, arr)


cdef Tensor _index_recorded(Tensor x, tuple nkey, bint advanced):
    cdef Tensor r = _index_values(x, nkey, advanced)
    if _grad_on() and x._requires_grad:
        node = <IndexBackward0>IndexBackward0.__new__(IndexBackward0)
        node.in_shape = _shp(x._data)
        node.key = nkey
        node.advanced = advanced
        _record1(node, r, x)
    return r


# ---------------------------------------------------------------- index_put (setitem)

# Note [Writing into a region]
# setitem and in-place ops on views change part of a tensor (the "base"). Its new
# history is a CopySlices node over two inputs: the base's old history (whose gradient
# is zero inside the region) and the written values (which get the gradient at the
# region). The region is a flat index array into the base, computed once from the key
# or from the view's strides, so every such write shares this one node type.

cdef class CopySlices(Node):
    cdef cnp.ndarray region     # flat indices into the base, in the values' shape
    cdef tuple base_shape

    def name(self):
        return "torch::autograd::CopySlices"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        gb = gv = None
        if _needs(self, 0):
            keep = np.ones(cnp.PyArray_SIZE(g._data), dtype=bool)
            keep[self.region.reshape(-1)] = False
            gb = _where(keep.reshape(self.base_shape), g, _zeros((), _dtype_of(g._data)))
        if _needs(self, 1):
            gv = _index_recorded(_reshape(g, (-1,)), (self.region,), True)
        return (gb, gv)


cdef class IndexPutBackward0(CopySlices):
    def name(self):
        return "IndexPutBackward0"


cdef class AsStridedBackward0(Node):
    """A view rebuilt over its base's new history after an in-place write."""
    cdef cnp.ndarray region
    cdef tuple base_shape

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        n = 1
        for s in self.base_shape:
            n *= s
        flat = _index_put_zeros(g, (n,), (self.region,), True)
        return (_reshape(flat, self.base_shape),)


cdef cnp.ndarray _region_of(Tensor t):
    """Flat indices into t's base (or t itself) of t's elements, in t's shape."""
    if t._base is None:
        return np.arange(cnp.PyArray_SIZE(t._data), dtype=np.int64).reshape(_shp(t._data))
    return _view_region(t, t._base)


cdef void _write_region(Tensor target, cnp.ndarray region, Tensor values, bint advanced) except *:
    """Record that target's base now holds `values` at `region` (Note [Writing into a region]).

    The caller has already written the values into memory."""
    cdef Tensor base = target._base if target._base is not None else target
    node = <CopySlices>(IndexPutBackward0.__new__(IndexPutBackward0) if advanced
                        else CopySlices.__new__(CopySlices))
    node.region = region
    node.base_shape = _shp(base._data)
    node.next_nodes = (_edge_node(base), _edge_node(values))
    if base._output_nr or values._output_nr:
        node.next_nrs = (base._output_nr, values._output_nr)
    node.seq = _new_sequence_nr()
    if _dtype_of(values._data) is not _dtype_of(base._data):
        node.input_shapes = (None, (_shp(values._data), _dtype_of(values._data)))
    base._grad_fn = node
    base._output_nr = 0
    base._requires_grad = True
    if target is not base:
        view_node = <AsStridedBackward0>AsStridedBackward0.__new__(AsStridedBackward0)
        view_node.region = _region_of(target)
        view_node.base_shape = _shp(base._data)
        view_node.next_nodes = (node,)
        view_node.seq = _new_sequence_nr()
        target._grad_fn = view_node
        target._output_nr = 0
        target._requires_grad = True


# ---------------------------------------------------------------- cat / stack / unbind

cdef class CatBackward0(Node):
    cdef Py_ssize_t dim
    cdef tuple sizes      # each input's length along dim
    cdef tuple shapes     # each input's shape (for dtype/shape metadata)

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        out = []
        cdef Py_ssize_t start = 0
        for i, n in enumerate(self.sizes):
            if self.next_nodes[i] is not None:
                key = (slice(None),) * self.dim + (slice(start, start + n),)
                out.append(_index_values_recorded(g, key))
            else:
                out.append(None)
            start += n
        return tuple(out)


cdef Tensor _index_values_recorded(Tensor g, tuple key):
    """g[key] for a basic key built internally (recorded as a slice)."""
    cdef Tensor r = _index_values(g, key, False)
    if _grad_on() and g._requires_grad:
        node = <SliceBackward0>SliceBackward0.__new__(SliceBackward0)
        node.in_shape = _shp(g._data)
        node.key = key
        node.advanced = False
        _record1(node, r, g)
    return r


cdef dtype _result_type_list(list tensors):
    cdef int r = -1
    cdef Tensor t
    for t in tensors:
        r = _promote_rank(r, _dtype_of(t._data).rank)
    return _DTYPES[r]


cdef list _check_tensor_list(object tensors, str fname):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{fname}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {list(tensors).index(t)} in argument 0, "
                            f"but got {type(t).__name__}")
    return list(tensors)


def cat(tensors, dim=0):
    """Concatenate tensors along an existing dimension.

    >>> import autograd_core as torch
    >>> torch.cat([torch.zeros(1, 2), torch.ones(1, 2)]).shape
    autograd_core.Size([2, 2])
    """
    cdef list ts = _check_tensor_list(tensors, "cat")
    if not ts:
        raise ValueError("autograd_core.cat(): expected a non-empty list of Tensors")
    cdef Tensor t, ref = None
    # PyTorch skips 1-D empty tensors (legacy behaviour) when joining.
    for i, t in enumerate(ts):
        if cnp.PyArray_NDIM(t._data) == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    for t in ts:
        if not (cnp.PyArray_NDIM(t._data) == 1 and _shp(t._data)[0] == 0):
            ref = t
            break
    if ref is None:
        ref = ts[0]
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(ref._data)
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef dtype rt = _result_type_list(ts)
    arrays = []
    used = []
    for i, t in enumerate(ts):
        if cnp.PyArray_NDIM(t._data) == 1 and _shp(t._data)[0] == 0 and t is not ref:
            continue
        if cnp.PyArray_NDIM(t._data) != nd:
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {nd} and {cnp.PyArray_NDIM(t._data)}")
        for k in range(nd):
            if k != d and _shp(t._data)[k] != _shp(ref._data)[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{_shp(ref._data)[k]} but got size {_shp(t._data)[k]} for tensor number {i} in the list.")
        arrays.append(_cast_array(t._data, rt))
        used.append(t)
    cdef Tensor r = _make(np.concatenate(arrays, axis=d))
    if _grad_on() and _builtins.any((<Tensor>u)._requires_grad for u in used) and rt.category == 2:
        node = <CatBackward0>CatBackward0.__new__(CatBackward0)
        node.dim = d
        node.sizes = tuple(_shp((<Tensor>u)._data)[d] for u in used)
        _record_n(node, r, used)
        metas = tuple(None if _dtype_of((<Tensor>u)._data) is rt else (_shp((<Tensor>u)._data), _dtype_of((<Tensor>u)._data)) for u in used)
        if _builtins.any(m is not None for m in metas):
            node.input_shapes = metas
    return r


cdef class StackBackward0(Node):
    cdef Py_ssize_t dim

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        out = []
        for i in range(len(self.next_nodes)):
            if self.next_nodes[i] is not None:
                key = (slice(None),) * self.dim + (i,)
                out.append(_select_recorded(g, key))
            else:
                out.append(None)
        return tuple(out)


cdef Tensor _select_recorded(Tensor g, tuple key):
    cdef Tensor r = _index_values(g, key, False)
    if _grad_on() and g._requires_grad:
        node = <SelectBackward0>SelectBackward0.__new__(SelectBackward0)
        node.in_shape = _shp(g._data)
        node.key = key
        node.advanced = False
        _record1(node, r, g)
    return r


def stack(tensors, dim=0):
    """Join tensors of equal shape along a new dimension.

    >>> import autograd_core as torch
    >>> torch.stack([torch.zeros(2), torch.ones(2)], dim=1).shape
    autograd_core.Size([2, 2])
    """
    cdef list ts = _check_tensor_list(tensors, "stack")
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    cdef Tensor t, first = ts[0]
    for i, t in enumerate(ts):
        if _shp(t._data) != _shp(first._data):
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got "
                f"{_shape_str(_shp(first._data))} at entry 0 and {_shape_str(_shp(t._data))} at entry {i}")
    cdef Py_ssize_t d = _wrap_dim(dim, cnp.PyArray_NDIM(first._data) + 1)
    cdef dtype rt = _result_type_list(ts)
    cdef Tensor r = _make(np.stack([_cast_array(t._data, rt) for t in ts], axis=d))
    if _grad_on() and _builtins.any((<Tensor>u)._requires_grad for u in ts) and rt.category == 2:
        node = <StackBackward0>StackBackward0.__new__(StackBackward0)
        node.dim = d
        _record_n(node, r, ts)
        metas = tuple(None if _dtype_of((<Tensor>u)._data) is rt else (_shp((<Tensor>u)._data), _dtype_of((<Tensor>u)._data)) for u in ts)
        if _builtins.any(m is not None for m in metas):
            node.input_shapes = metas
    return r


cdef class UnbindBackward0(Node):
    cdef Py_ssize_t dim
    cdef int n
    cdef tuple shape

    cdef int num_outputs(self):
        return self.n

    cdef tuple apply(self, tuple grads):
        cdef Tensor ref = None
        for g in grads:
            if g is not None:
                ref = g
                break
        parts = [g if g is not None else _zeros(_shp(ref._data), _dtype_of(ref._data)) for g in grads]
        return (stack(parts, self.dim),)


cdef tuple _unbind(Tensor x, object dim):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if nd == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    cdef Py_ssize_t d = _wrap_dim(dim, nd), i, n = _shp(x._data)[d]
    outs = []
    cdef Tensor r
    cdef UnbindBackward0 node = None
    if _grad_on() and x._requires_grad:
        node = <UnbindBackward0>UnbindBackward0.__new__(UnbindBackward0)
        node.dim = d
        node.n = n
        node.shape = _shp(x._data)
        _record1(node, _make(x._data), x)  # edges only; the outputs attach below
    for i in range(n):
        key = (slice(None),) * d + (i, Ellipsis)
        r = _make_view(x, x._data[key])
        if node is not None:
            r._grad_fn = node
            r._output_nr = i
            r._requires_grad = True
        outs.append(r)
    return tuple(outs)


def unbind(input, dim=0):
    """Split a tensor into the tuple of its slices along dim."""
    return _unbind(_require_tensor(input, "unbind"), dim)


# ---------------------------------------------------------------- cast / clone

cdef class ToCopyBackward0(Node):
    cdef dtype in_dtype

    cdef tuple apply(self, tuple grads):
        return (_cast(grads[0], self.in_dtype),)


cdef Tensor _cast(Tensor x, dtype d):
    cdef Tensor r = _make(x._data.astype(d.np_dtype))
    if _grad_on() and x._requires_grad and d.category == 2:
        node = <ToCopyBackward0>ToCopyBackward0.__new__(ToCopyBackward0)
        node.in_dtype = _dtype_of(x._data)
        _record1(node, r, x)
    return r


cdef class CloneBackward0(Node):
    cdef tuple apply(self, tuple grads):
        return (grads[0],)


cdef class CopyBackwards(Node):
    """copy_(src) on a tensor that records history (inputs: the old self, src), and the
    differentiable .grad written by backward(create_graph=True) (input: the grad)."""

    def name(self):
        return "torch::autograd::CopyBackwards"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        if len(self.next_nodes) == 1:
            return (g,)
        return (_zeros(_shp(g._data), _dtype_of(g._data)) if _needs(self, 0) else None,
                g if _needs(self, 1) else None)


cdef class ZeroBackward0(Node):
    """zero_() / fill_(number): the old values get a zero gradient."""

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        return (_zeros(_shp(g._data), _dtype_of(g._data)),)


cdef class FillBackward2(ZeroBackward0):
    pass


cdef class FillBackward3(Node):
    """fill_(0-d tensor): the value gets the sum of the gradient."""

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        return (_zeros(_shp(g._data), _dtype_of(g._data)) if _needs(self, 0) else None,
                _sum(g, None, False, None) if _needs(self, 1) else None)


cdef Tensor _overwrite_result(Tensor self, object values, Node node, Tensor other):
    """A tensor holding `values` (broadcast to self), recorded with `node` over self's
    current history (and other's): what an in-place overwrite of self computes."""
    cdef Tensor r = _make(np.array(np.broadcast_to(values, _shp(self._data)), dtype=self._data.dtype))
    if other is None:
        _record1(node, r, self)
    else:
        _record2(node, r, self, other)
        m = _meta_if_differs(other, r._data)
        if m is not None:
            node.input_shapes = (None, m)
    return r


cdef Tensor _copy_backwards(Tensor x, bint copy):
    cdef Tensor r = _make(np.array(x._data, copy=True) if copy else x._data)
    if x._requires_grad:
        _record1(<Node>CopyBackwards.__new__(CopyBackwards), r, x)
    return r


cdef Tensor _clone(Tensor x):
    cdef Tensor r = _make(np.array(x._data, copy=True, order="C"))
    if _grad_on() and x._requires_grad:
        _record1(CloneBackward0.__new__(CloneBackward0), r, x)
    return r


# ---------------------------------------------------------------- in-place ops

cdef void _check_inplace(Tensor t) except *:
    """PyTorch's leaf rules for in-place ops (only while grad mode records)."""
    if t._inference and not agc_inference_mode():
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
            "a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details.")
    if not _grad_on():
        return
    if t._grad_fn is None and t._requires_grad:
        raise RuntimeError(_MSG_LEAF_INPLACE)
    if t._base is not None and t._base._grad_fn is None and t._base._requires_grad:
        raise RuntimeError(_MSG_LEAF_VIEW_INPLACE)


cdef void _check_castable(dtype result, Tensor t) except *:
    cdef dtype d = _dtype_of(t._data)
    if result.category > d.category:
        raise RuntimeError(f"result type {_legacy_scalar_name(result)} can't be cast to the "
                           f"desired output type {_legacy_scalar_name(d)}")


cdef void _write_values(Tensor t, cnp.ndarray values) except *:
    if not cnp.PyArray_ISWRITEABLE(t._data):
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.")
    try:
        np.copyto(t._data, values, casting="unsafe")
    except ValueError:
        raise RuntimeError(
            f"output with shape {_shape_str(_shp(t._data))} doesn't match the broadcast shape "
            f"{_shape_str(np.broadcast_shapes(_shp(t._data), _shp(values)))}") from None


cdef Tensor _snapshot(Tensor t):
    """t's value and history before an in-place op (its node may save it)."""
    cdef Tensor s = _make(t._data.copy())
    s._grad_fn = t._grad_fn
    s._output_nr = t._output_nr
    s._requires_grad = t._requires_grad
    if t._grad_fn is None and t._requires_grad:
        s._accumulator = t._accumulator
    return s


cdef Tensor _rebase_history(Tensor t, Tensor result):
    """Make t (modified in place) take result's values and history; for a view, its
    base's history is rewritten instead (Note [Writing into a region])."""
    cdef Tensor base = t._base
    if base is not None and (base._requires_grad or result._requires_grad) and _grad_on():
        _write_values(t, result._data)
        _write_region(t, _region_of(t), result, False)
    else:
        _write_values(t, result._data)
        if result._grad_fn is not None:
            t._grad_fn = result._grad_fn
            t._output_nr = result._output_nr
            t._requires_grad = True
    _bump_version(t)
    return t


cdef object _view_region(Tensor view, Tensor base):
    """Flat indices into base of each element of view (base must be C-contiguous)."""
    cdef cnp.ndarray b = base._data, v = view._data
    if not cnp.PyArray_IS_C_CONTIGUOUS(b):
        raise RuntimeError("in-place modification of a view of a non-contiguous tensor that "
                           "requires grad is not supported by autograd_core")
    itemsize = b.itemsize
    offset = (v.__array_interface__["data"][0] - b.__array_interface__["data"][0]) // itemsize
    positions = np.arange(b.size, dtype=np.int64)
    return np.lib.stride_tricks.as_strided(
        positions[offset:], shape=_shp(v),
        strides=tuple(s // itemsize * positions.itemsize for s in (<object>v).strides)).copy()


cdef Tensor _inplace_binary(Tensor self, object other, int op, object alpha):
    other = _check_operand(other)
    if other is NotImplemented:
        raise TypeError(f"unsupported operand type for in-place op: {type(other).__name__}")
    _check_inplace(self)
    cdef dtype rt = _result_type2(self, other)
    if op == AGC_DIV and rt.category != 2:
        rt = _default_float
    _check_castable(rt, self)
    cdef bint other_grad = isinstance(other, Tensor) and (<Tensor>other)._requires_grad
    if _grad_on() and (self._requires_grad or other_grad or
                       (self._base is not None and self._base._requires_grad)):
        src = _snapshot(self)
        if op == AGC_ADD or op == AGC_SUB:
            r = _binary_record(op, src, other, alpha)
        else:
            r = _binary_record(op, src, other, 1)
        if _shp(r._data) != _shp(self._data):
            raise RuntimeError(
                f"output with shape {_shape_str(_shp(self._data))} doesn't match the broadcast "
                f"shape {_shape_str(_shp(r._data))}")
        if r._data.dtype != self._data.dtype:
            r = _cast(r, _dtype_of(self._data))
        return _rebase_history(self, r)
    if alpha != 1:
        other = other * alpha if not isinstance(other, Tensor) else _make(_binary_values(other, alpha, AGC_MUL))
    values = _binary_values(self, other, op)
    if _shp(values) != _shp(self._data):
        raise RuntimeError(
            f"output with shape {_shape_str(_shp(self._data))} doesn't match the broadcast "
            f"shape {_shape_str(_shp(values))}")
    _write_values(self, values)
    _bump_version(self)
    return self


cdef Tensor _inplace_fill(Tensor self, object value, bint zero=False):
    cdef Tensor v
    if isinstance(value, Tensor):
        if cnp.PyArray_NDIM((<Tensor>value)._data) != 0:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{cnp.PyArray_NDIM((<Tensor>value)._data)} dimensions.")
        v = value
    else:
        v = _make(np.asarray(value, dtype=self._data.dtype))
    _check_inplace(self)
    if _grad_on() and (self._requires_grad or v._requires_grad
                       or (self._base is not None and self._base._requires_grad)):
        if v._requires_grad:
            node = FillBackward3.__new__(FillBackward3)
            return _rebase_history(self, _overwrite_result(self, v._data, <Node>node, v))
        node = ZeroBackward0.__new__(ZeroBackward0) if zero else FillBackward2.__new__(FillBackward2)
        return _rebase_history(self, _overwrite_result(self, v._data, <Node>node, None))
    _write_values(self, v._data)
    _bump_version(self)
    return self


cdef Tensor _inplace_copy(Tensor self, object src):
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' (position 1) must be Tensor, not {type(src).__name__}")
    _check_inplace(self)
    cdef Tensor s = src
    _expand(s, _shp(self._data))  # PyTorch's error when src does not broadcast to self
    if _grad_on() and (s._requires_grad or self._requires_grad
                       or (self._base is not None and self._base._requires_grad)):
        node = CopyBackwards.__new__(CopyBackwards)
        return _rebase_history(self, _overwrite_result(self, s._data, <Node>node, s))
    _write_values(self, s._data)
    _bump_version(self)
    return self


