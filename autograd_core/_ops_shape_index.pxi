# Shape and indexing ops (part shape_index): unflatten, broadcast_to, repeat/tile, flip,
# roll, split/chunk (multi-output views), narrow, select, index_select, gather,
# scatter/scatter_add (and in place), masked_fill (and in place), masked_select,
# movedim/moveaxis. Their nodes sit beside them; derivatives use the library's own ops
# so that create_graph and higher orders work.

# ---------------------------------------------------------------- argument helpers

cdef tuple _int_tuple(object v, str fname, str argname, int pos):
    """A 'tuple of ints' argument (a list or tuple of ints, or ints given separately)."""
    if isinstance(v, Tensor) or not isinstance(v, (list, tuple)):
        raise TypeError(f"{fname}(): argument '{argname}' (position {pos}) must be tuple of ints, "
                        f"not {type(v).__name__}")
    out = []
    for s in v:
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise TypeError(f"{fname}(): argument '{argname}' (position {pos}) must be tuple of "
                            f"ints, but found element of type {type(s).__name__} at pos {len(out)}")
        out.append(s.__index__())
    return tuple(out)


cdef tuple _varargs_ints(tuple args, str fname, str argname):
    """Method sizes given as f(2, 3) or f((2, 3))."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return _int_tuple(args[0], fname, argname, 1)
    for s in args:
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise TypeError(f"{fname}(): argument '{argname}' must be tuple of ints, but found "
                            f"element of type {type(s).__name__} at pos 0")
    return tuple(s.__index__() for s in args)


cdef inline Py_ssize_t _index_int(object v, str fname, str argname, int pos) except? -1:
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError(f"{fname}(): argument '{argname}' (position {pos}) must be int, not "
                        f"{type(v).__name__}")
    return v.__index__()


cdef str _cpp_type_name(dtype d):
    """The C++ scalar name PyTorch prints in some messages (``long int``)."""
    return {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
            "int16": "short int", "int32": "int", "int64": "long int", "float16": "c10::Half",
            "float32": "float", "float64": "double"}[d.name]


cdef inline bint _records(Tensor x):
    return _grad_on() and x._requires_grad and _dtype_of(x._data).category == 2


# ---------------------------------------------------------------- unflatten

cdef tuple _unflatten_sizes(tuple sizes, Py_ssize_t n, Py_ssize_t d):
    """PyTorch's infer_size for unflatten, with unflatten's messages."""
    cdef Py_ssize_t known = 1, infer = -1, i
    for i in range(len(sizes)):
        s = sizes[i]
        if s == -1:
            if infer >= 0:
                raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
            infer = i
        elif s >= 0:
            known *= s
        else:
            raise RuntimeError(f"unflatten got an unexpected error:\ninvalid shape dimension {s} at "
                               f"index {i} of shape {_shape_str(sizes)}")
    if infer >= 0:
        if known == 0:
            raise RuntimeError(
                f"unflatten got an unexpected error:\ncannot reshape tensor of {n} elements into "
                f"shape {_shape_str(sizes)} because the unspecified dimension size -1 can be any "
                "value and is ambiguous")
        if n % known == 0:
            return sizes[:infer] + (n // known,) + sizes[infer + 1:]
    elif known == n:
        return sizes
    raise RuntimeError(f"unflatten: Provided sizes {_shape_str(sizes)} don't multiply up to the "
                       f"size of dim {d} ({n}) in the input tensor")


cdef Tensor _unflatten(Tensor x, object dim, object sizes):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef tuple sz = _int_tuple(sizes, "unflatten", "sizes", 3)
    if not sz:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if nd == 0:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but "
                           "tensor has no dimensions")
    shape = _shp(x._data)
    sz = _unflatten_sizes(sz, shape[d], d)
    return _view(x, shape[:d] + sz + shape[d + 1:])


def unflatten(input, dim, sizes):
    """Expand dimension ``dim`` into ``sizes`` (one entry may be -1).

    >>> import autograd_core as torch
    >>> torch.unflatten(torch.zeros(2, 6), 1, (3, -1)).shape
    autograd_core.Size([2, 3, 2])
    """
    return _unflatten(_arg(input, "unflatten"), dim, sizes)


@_tensor_method("unflatten")
def _m_unflatten(self, dim, sizes):
    return _unflatten(self, dim, sizes)


# ---------------------------------------------------------------- broadcast_to

def broadcast_to(input, size):
    """``input`` expanded (as a view) to ``size``.

    >>> import autograd_core as torch
    >>> torch.broadcast_to(torch.tensor([1., 2.]), (3, 2)).shape
    autograd_core.Size([3, 2])
    """
    return _expand(_arg(input, "broadcast_to"), _int_tuple(size, "broadcast_to", "size", 2))


@_tensor_method("broadcast_to")
def _m_broadcast_to(self, *size):
    return _expand(self, _varargs_ints(size, "broadcast_to", "size"))


# ---------------------------------------------------------------- repeat / tile

cdef class RepeatBackward0(Node):
    cdef tuple in_shape
    cdef tuple repeats

    cdef tuple apply(self, tuple grads):
        return (_repeat_backward(grads[0], self.in_shape, self.repeats),)


cdef Tensor _repeat_backward(Tensor g, tuple in_shape, tuple repeats):
    """Sum the tiled copies of g back onto one: view g as (r0, s0, r1, s1, ...)."""
    cdef Py_ssize_t lead = len(repeats) - len(in_shape), k
    padded = (1,) * lead + in_shape
    inter = []
    dims = []
    for k in range(len(repeats)):
        inter.append(repeats[k])
        inter.append(padded[k])
        dims.append(2 * k)
        if k < lead:
            dims.append(2 * k + 1)
    if not dims:
        return _reshape(g, in_shape)
    g = _reshape(g, tuple(inter))
    g = _sum_dims(g, tuple(dims), False, False, None)
    if _shp(g._data) != in_shape:
        g = _reshape(g, in_shape)
    return g


cdef Tensor _repeat(Tensor x, tuple repeats):
    cdef tuple shape = _shp(x._data)
    cdef Py_ssize_t nd = len(shape), lead = len(repeats) - nd, k
    if lead < 0:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    padded = (1,) * lead + shape
    target = tuple(padded[k] * repeats[k] for k in range(len(repeats)))
    for k in range(len(repeats)):
        if target[k] < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {target[k]}: "
                               f"{_shape_str(target)}")
    out = np.tile(np.reshape(x._data, padded), repeats) if repeats else x._data.copy()
    cdef Tensor r = _make(_as_array(out))
    if _records(x):
        node = <RepeatBackward0>RepeatBackward0.__new__(RepeatBackward0)
        node.in_shape = shape
        node.repeats = repeats
        _record1(node, r, x)
    return r


@_tensor_method("repeat")
def _m_repeat(self, *repeats):
    """Tile the tensor: ``x.repeat(2, 1)`` stacks two copies along dim 0."""
    if len(repeats) == 1 and isinstance(repeats[0], (list, tuple)):
        reps = _int_tuple(repeats[0], "repeat", "repeats", 1)
    else:
        for s in repeats:
            if isinstance(s, bool) or not hasattr(s, "__index__"):
                raise TypeError(f"repeat() takes 1 positional argument but {len(repeats)} were given"
                                if len(repeats) > 1 else
                                f"repeat(): argument 'repeats' (position 1) must be tuple of ints, "
                                f"not {type(s).__name__}")
        reps = tuple(s.__index__() for s in repeats)
    return _repeat(self, reps)


cdef Tensor _tile(Tensor x, tuple dims):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if len(dims) < nd:
        dims = (1,) * (nd - len(dims)) + dims
    return _repeat(x, dims)


def tile(input, dims):
    """Repeat ``input`` ``dims[k]`` times along dim k (missing leading dims count as 1).

    >>> import autograd_core as torch
    >>> torch.tile(torch.tensor([1., 2.]), (2,))
    tensor([1., 2., 1., 2.])
    """
    return _tile(_arg(input, "tile"), _int_tuple(dims, "tile", "dims", 2))


@_tensor_method("tile")
def _m_tile(self, *dims):
    return _tile(self, _varargs_ints(dims, "tile", "dims"))


# ---------------------------------------------------------------- flip

cdef class FlipBackward0(Node):
    cdef tuple dims

    cdef tuple apply(self, tuple grads):
        return (_flip(grads[0], self.dims),)


cdef tuple _distinct_dims(tuple dims, Py_ssize_t nd):
    wrapped = []
    for d in dims:
        w = _wrap_dim(d, nd)
        if w in wrapped:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        wrapped.append(w)
    return tuple(wrapped)


cdef Tensor _flip(Tensor x, tuple dims):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef tuple wd = _distinct_dims(dims, nd)
    if nd == 0 or not wd:
        out = x._data.copy()
    else:
        out = np.flip(x._data, wd).copy()
    cdef Tensor r = _make(_as_array(out))
    if _records(x):
        node = <FlipBackward0>FlipBackward0.__new__(FlipBackward0)
        node.dims = wd
        _record1(node, r, x)
    return r


def flip(input, dims):
    """Reverse the order of elements along ``dims`` (a copy).

    >>> import autograd_core as torch
    >>> torch.flip(torch.tensor([1., 2., 3.]), (0,))
    tensor([3., 2., 1.])
    """
    return _flip(_arg(input, "flip"), _int_tuple(dims, "flip", "dims", 2))


@_tensor_method("flip")
def _m_flip(self, *dims):
    return _flip(self, _varargs_ints(dims, "flip", "dims"))


# ---------------------------------------------------------------- roll

cdef class RollBackward0(Node):
    cdef tuple shifts
    cdef tuple dims

    cdef tuple apply(self, tuple grads):
        return (_roll(grads[0], tuple(-s for s in self.shifts), self.dims),)


cdef Tensor _roll(Tensor x, tuple shifts, tuple dims):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if not (len(dims) == 0 and len(shifts) == 1) and len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    wd = tuple(_wrap_dim(d, nd) if nd else _wrap_dim_strict(d) for d in dims)
    if cnp.PyArray_SIZE(x._data) == 0:
        return _clone(x)
    if not wd:
        out = np.roll(x._data, shifts[0])
    else:
        out = np.roll(x._data, shifts, wd)
    cdef Tensor r = _make(_as_array(out).copy())
    if _records(x):
        node = <RollBackward0>RollBackward0.__new__(RollBackward0)
        node.shifts = shifts
        node.dims = wd
        _record1(node, r, x)
    return r


cdef Py_ssize_t _wrap_dim_strict(object d) except? -1:
    # roll on a 0-d tensor: any explicit dim is out of range
    raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")


cdef tuple _ints_or_int(object v, str fname, str argname, int pos):
    if isinstance(v, (list, tuple)):
        return _int_tuple(v, fname, argname, pos)
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError(f"{fname}(): argument '{argname}' (position {pos}) must be tuple of ints, "
                        f"not {type(v).__name__}")
    return (v.__index__(),)


def roll(input, shifts, dims=None):
    """Roll elements along ``dims`` by ``shifts`` (the flattened tensor when dims is None).

    >>> import autograd_core as torch
    >>> torch.roll(torch.tensor([1., 2., 3.]), 1)
    tensor([3., 1., 2.])
    """
    return _roll(_arg(input, "roll"), _ints_or_int(shifts, "roll", "shifts", 2),
                 () if dims is None else _ints_or_int(dims, "roll", "dims", 3))


@_tensor_method("roll")
def _m_roll(self, shifts, dims=None):
    return _roll(self, _ints_or_int(shifts, "roll", "shifts", 1),
                 () if dims is None else _ints_or_int(dims, "roll", "dims", 2))


# ---------------------------------------------------------------- split / chunk

cdef class _SplitNode(Node):
    """One node for all the outputs of a split; output i is the i-th piece along dim."""
    cdef Py_ssize_t dim
    cdef tuple sizes       # each piece's length along dim
    cdef tuple shape       # the input's shape

    cdef int num_outputs(self):
        return len(self.sizes)

    cdef tuple apply(self, tuple grads):
        cdef Tensor ref = None
        for g in grads:
            if g is not None:
                ref = g
                break
        parts = []
        for i, n in enumerate(self.sizes):
            g = grads[i] if i < len(grads) else None
            if g is None:
                shp = self.shape[:self.dim] + (n,) + self.shape[self.dim + 1:]
                g = _zeros(shp, _dtype_of(ref._data))
            parts.append(g)
        return (cat(parts, self.dim),)


cdef class SplitBackward0(_SplitNode):
    pass


cdef class SplitWithSizesBackward0(_SplitNode):
    pass


cdef tuple _split_views(Tensor x, Py_ssize_t d, tuple sizes, type cls):
    outs = []
    cdef Tensor r
    cdef _SplitNode node = None
    if _records(x):
        node = <_SplitNode>cls.__new__(cls)
        node.dim = d
        node.sizes = sizes
        node.shape = _shp(x._data)
        _record1(node, _make(x._data), x)  # edges only; the outputs attach below
    cdef Py_ssize_t start = 0, i
    for i in range(len(sizes)):
        key = (slice(None),) * d + (slice(start, start + sizes[i]),)
        start += sizes[i]
        r = _make_view(x, x._data[key])
        if node is not None:
            r._grad_fn = node
            r._output_nr = i
            r._requires_grad = True
        outs.append(r)
    return tuple(outs)


cdef tuple _split_size(Tensor x, object split_size, object dim):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if nd == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    cdef Py_ssize_t s = _index_int(split_size, "split", "split_size", 1)
    if s < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={s}")
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef Py_ssize_t n = _shp(x._data)[d], k
    if s == 0 and n != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {n}")
    cdef Py_ssize_t num = 1
    if s != 0:
        num = (n + s - 1) // s
        if num < 1:
            num = 1
    last = s - (s * num - n)
    sizes = tuple([s] * (num - 1) + [last])
    return _split_views(x, d, sizes, SplitBackward0)


cdef tuple _split_with_sizes(Tensor x, object split_sizes, object dim):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef tuple sizes = _int_tuple(split_sizes, "split_with_sizes", "split_sizes", 1)
    if nd == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef Py_ssize_t n = _shp(x._data)[d]
    for s in sizes:
        if s < 0:
            raise RuntimeError("split_with_sizes expects split_sizes have only non-negative "
                               f"entries, but got split_sizes={_shape_str(sizes)}")
    total = 0
    for s in sizes:
        total += s
    if total != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input "
                           f"tensor's size at dimension {dim}), but got split_sizes="
                           f"{_shape_str(sizes)}")
    return _split_views(x, d, sizes, SplitWithSizesBackward0)


cdef tuple _split(Tensor x, object split_size_or_sections, object dim):
    if isinstance(split_size_or_sections, (list, tuple)):
        return _split_with_sizes(x, split_size_or_sections, dim)
    return _split_size(x, split_size_or_sections, dim)


def split(tensor, split_size_or_sections, dim=0):
    """Split into views of ``split_size`` along dim (the last may be smaller), or into
    pieces of the listed sizes.

    >>> import autograd_core as torch
    >>> [t.shape[0] for t in torch.split(torch.zeros(5, 2), 2)]
    [2, 2, 1]
    """
    return _split(_arg(tensor, "split"), split_size_or_sections, dim)


@_tensor_method("split")
def _m_split(self, split_size, dim=0):
    return _split(self, split_size, dim)


@_tensor_method("split_with_sizes")
def _m_split_with_sizes(self, split_sizes, dim=0):
    return _split_with_sizes(self, split_sizes, dim)


cdef tuple _chunk(Tensor x, object chunks, object dim):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if nd == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    cdef Py_ssize_t c = _index_int(chunks, "chunk", "chunks", 1)
    if c <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {c}")
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef Py_ssize_t n = _shp(x._data)[d]
    cdef Py_ssize_t s = (n + c - 1) // c
    if s == 0 and n == 0:
        sizes = [0] * c
        return _split_views(x, d, tuple(sizes), SplitWithSizesBackward0)
    return _split_size(x, s, d)


def chunk(input, chunks, dim=0):
    """Split into ``chunks`` views of (nearly) equal size along dim.

    >>> import autograd_core as torch
    >>> [t.shape[0] for t in torch.chunk(torch.zeros(5), 3)]
    [2, 2, 1]
    """
    return _chunk(_arg(input, "chunk"), chunks, dim)


@_tensor_method("chunk")
def _m_chunk(self, chunks, dim=0):
    return _chunk(self, chunks, dim)


# ---------------------------------------------------------------- narrow / select

cdef Tensor _basic_view(Tensor x, tuple key, type cls):
    """x[key] for an internal basic key, recorded as the view node cls (an _IndexNode)."""
    cdef Tensor r = _make_view(x, _as_array(x._data[key]))
    if _records(x):
        node = <_IndexNode>cls.__new__(cls)
        node.in_shape = _shp(x._data)
        node.key = key
        node.advanced = False
        _record1(node, r, x)
    return r


cdef Tensor _narrow(Tensor x, object dim, object start, object length):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    if isinstance(start, Tensor):
        if (<Tensor>start)._data.ndim != 0 or _dtype_of((<Tensor>start)._data).category != 1:
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int((<Tensor>start)._data)
    cdef Py_ssize_t st = _index_int(start, "narrow", "start", 2)
    cdef Py_ssize_t ln = _index_int(length, "narrow", "length", 3)
    if nd == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if ln < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef Py_ssize_t n = _shp(x._data)[d]
    if st != n:
        if st < -n or st > n:
            raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but "
                             f"got {st})")
        if st < 0:
            st += n
    if st + ln > n:
        raise RuntimeError(f"start ({st}) + length ({ln}) exceeds dimension size ({n}).")
    return _basic_view(x, (slice(None),) * d + (slice(st, st + ln),), SliceBackward0)


def narrow(input, dim, start, length):
    """The view ``input[..., start:start + length, ...]`` along dim.

    >>> import autograd_core as torch
    >>> torch.narrow(torch.arange(5.), 0, 1, 2)
    tensor([1., 2.])
    """
    return _narrow(_arg(input, "narrow"), dim, start, length)


@_tensor_method("narrow")
def _m_narrow(self, dim, start, length):
    return _narrow(self, dim, start, length)


cdef Tensor _select(Tensor x, object dim, object index):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t i = _index_int(index, "select", "index", 2)
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef Py_ssize_t n = _shp(x._data)[d]
    if i < -n or i >= n:
        raise IndexError(f"select(): index {i} out of range for tensor of size "
                         f"{_shape_str(_shp(x._data))} at dimension {d}")
    if i < 0:
        i += n
    return _basic_view(x, (slice(None),) * d + (i,), SelectBackward0)


def select(input, dim, index):
    """The view of ``input`` at ``index`` along dim (that dim removed).

    >>> import autograd_core as torch
    >>> torch.select(torch.tensor([[1., 2.], [3., 4.]]), 1, 0)
    tensor([1., 3.])
    """
    return _select(_arg(input, "select"), dim, index)


@_tensor_method("select")
def _m_select(self, dim, index):
    return _select(self, dim, index)


# ---------------------------------------------------------------- index_select

cdef class IndexSelectBackward0(Node):
    cdef tuple in_shape
    cdef Py_ssize_t dim
    cdef cnp.ndarray index

    cdef tuple apply(self, tuple grads):
        return (_index_add_zeros(grads[0], self.in_shape, self.dim, self.index),)


cdef class IndexAddBackward0(Node):
    """zeros.index_add(dim, index, source): the source's gradient is index_select."""
    cdef Py_ssize_t dim
    cdef cnp.ndarray index

    cdef tuple apply(self, tuple grads):
        g = grads[0]
        return (g if _needs(self, 0) else None,
                _index_select_values(g, self.dim, self.index) if _needs(self, 1) else None)


cdef Tensor _index_add_zeros(Tensor g, tuple shape, Py_ssize_t dim, cnp.ndarray index):
    """zeros(shape) with g's slices added at index along dim (differentiable in g)."""
    out = np.zeros(shape, dtype=g._data.dtype)
    if len(shape) == 0:
        out = out + g._data.reshape(())
    else:
        moved = np.moveaxis(out, dim, 0)
        np.add.at(moved, index.reshape(-1), np.moveaxis(g._data, dim, 0))
    cdef Tensor r = _make(_as_array(out))
    cdef Tensor z
    if _grad_on() and g._requires_grad:
        node = <IndexAddBackward0>IndexAddBackward0.__new__(IndexAddBackward0)
        node.dim = dim
        node.index = index
        z = _zeros(shape, _dtype_of(g._data))
        _record2(node, r, z, g)
    return r


cdef Tensor _index_select_values(Tensor x, Py_ssize_t d, cnp.ndarray idx):
    cdef cnp.ndarray xa = x._data
    if xa.ndim == 0:
        out = xa.copy()
    else:
        out = np.take(xa, idx.reshape(-1), axis=d)
    cdef Tensor r = _make(_as_array(out))
    if _records(x):
        node = <IndexSelectBackward0>IndexSelectBackward0.__new__(IndexSelectBackward0)
        node.in_shape = _shp(xa)
        node.dim = d
        node.index = idx
        _record1(node, r, x)
    return r


cdef cnp.ndarray _index_array(object index, str fname, str expected):
    if not isinstance(index, Tensor):
        raise TypeError(f"{fname}(): argument 'index' (position 2) must be Tensor, not "
                        f"{type(index).__name__}")
    cdef cnp.ndarray a = (<Tensor>index)._data
    if a.dtype != np.int64 and a.dtype != np.int32:
        raise RuntimeError(f"{fname}(): Expected dtype {expected} for index")
    return a


cdef Tensor _index_select(Tensor x, object dim, object index):
    cdef cnp.ndarray idx = _index_array(index, "index_select", "int32 or int64")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data)
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    flat = idx.reshape(-1).astype(np.int64)
    if nd == 0:
        if flat.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{flat.size} value(s)")
        if flat[0] != 0:
            raise IndexError("index out of range in self")
        return _index_select_values(x, 0, flat)
    n = _shp(x._data)[d]
    bad = np.nonzero((flat < 0) | (flat >= n))[0]
    if bad.size:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(flat[bad[0]])} "
                           f"axis_dim={n}")
    return _index_select_values(x, d, flat)


def index_select(input, dim, index):
    """The slices of ``input`` along dim at the positions in the 1-D ``index``.

    >>> import autograd_core as torch
    >>> torch.index_select(torch.tensor([1., 2., 3.]), 0, torch.tensor([2, 0]))
    tensor([3., 1.])
    """
    return _index_select(_arg(input, "index_select"), dim, index)


@_tensor_method("index_select")
def _m_index_select(self, dim, index):
    return _index_select(self, dim, index)


# ---------------------------------------------------------------- gather / scatter

cdef inline Py_ssize_t _ne1(Py_ssize_t n):
    return n if n > 0 else 1


cdef inline tuple _nonempty(tuple shape):
    return shape if len(shape) else (1,)


cdef tuple _along_key(tuple idx_shape, cnp.ndarray idx, Py_ssize_t dim):
    """numpy key: for each position p of idx, the element at coordinate idx[p] along dim
    and p's own coordinates along the other dims (gather/scatter's addressing)."""
    cdef Py_ssize_t nd = len(idx_shape), k
    key = []
    for k in range(nd):
        if k == dim:
            key.append(idx)
        else:
            shp = [1] * nd
            shp[k] = idx_shape[k]
            key.append(np.arange(idx_shape[k]).reshape(shp))
    return tuple(key)


cdef void _check_index_bounds(cnp.ndarray idx, Py_ssize_t dim, Py_ssize_t n) except *:
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        v = int(idx[bad].reshape(-1)[0])
        raise RuntimeError(f"index {v} is out of bounds for dimension {dim} with size {n}")


cdef Tensor _gather_values(Tensor x, Py_ssize_t dim, cnp.ndarray idx):
    """x.gather(dim, idx) for checked arguments, recorded (GatherBackward0)."""
    cdef tuple ishape = _shp(idx)
    cdef tuple ne = _nonempty(ishape)
    idx1 = idx.reshape(ne).astype(np.int64)
    xa = x._data.reshape(_nonempty(_shp(x._data)))
    out = np.asarray(xa[_along_key(ne, idx1, dim)]).reshape(ishape)
    cdef Tensor r = _make(_as_array(out))
    if _records(x):
        node = <GatherBackward0>GatherBackward0.__new__(GatherBackward0)
        node.in_shape = _shp(x._data)
        node.dim = dim
        node.indices = idx
        _record1(node, r, x)
    return r


cdef class ScatterAddBackward0(Node):
    cdef Py_ssize_t dim
    cdef cnp.ndarray index
    cdef tuple src_shape

    cdef tuple apply(self, tuple grads):
        g = grads[0]
        gs = None
        if _needs(self, 1):
            gs = _gather_values(g, self.dim, self.index)
        return (g if _needs(self, 0) else None, gs)


cdef Tensor _scatter_add_zeros(Tensor g, tuple shape, Py_ssize_t dim, cnp.ndarray idx):
    """zeros(shape).scatter_add(dim, idx, g) (the gradient of gather), differentiable in g."""
    cdef Tensor z = _zeros(shape, _dtype_of(g._data))
    return _scatter_values(z, dim, idx, g, None, True)


cdef Tensor _scatter_values(Tensor x, Py_ssize_t dim, cnp.ndarray idx, Tensor src,
                            object value, bint add):
    """x with src's (or value's) elements written (or added) at idx along dim; recorded."""
    cdef tuple ishape = _shp(idx)
    cdef tuple ne = _nonempty(ishape)
    out = x._data.copy()
    view = out.reshape(_nonempty(_shp(out)))
    idx1 = idx.reshape(ne).astype(np.int64)
    key = _along_key(ne, idx1, dim)
    if src is not None:
        sa = src._data.reshape(_nonempty(_shp(src._data)))
        vals = sa[tuple(slice(0, s) for s in ne)]
        vals = _cast_array(_as_array(vals), _dtype_of(out))
    else:
        vals = np.asarray(value).astype(out.dtype)
    if add:
        np.add.at(view, key, vals)
    else:
        view[key] = vals
    cdef Tensor r = _make(_as_array(out))
    cdef bint src_grad = src is not None and src._requires_grad
    if not (_grad_on() and (x._requires_grad or src_grad)) or _dtype_of(out).category != 2:
        return r
    if add:
        node = <ScatterAddBackward0>ScatterAddBackward0.__new__(ScatterAddBackward0)
        node.dim = dim
        node.index = idx
        _record2(node, r, x, src)
    elif src is not None:
        node0 = <ScatterBackward0>ScatterBackward0.__new__(ScatterBackward0)
        node0.dim = dim
        node0.index = idx
        _record2(node0, r, x, src)
        if ishape != _shp(src._data):
            # PyTorch's derivative gives src a gradient of index's shape: the engine's
            # shape validation then raises as PyTorch does.
            node0.input_shapes = (None, (_shp(src._data), _dtype_of(src._data)))
    else:
        node1 = <ScatterBackward1>ScatterBackward1.__new__(ScatterBackward1)
        node1.dim = dim
        node1.index = idx
        _record1(node1, r, x)
    return r


cdef class ScatterBackward0(Node):
    cdef Py_ssize_t dim
    cdef cnp.ndarray index

    cdef tuple apply(self, tuple grads):
        g = grads[0]
        gx = gs = None
        if _needs(self, 0):
            gx = _scatter_values(g, self.dim, self.index, None, 0, False)
        if _needs(self, 1):
            gs = _gather_values(g, self.dim, self.index)
        return (gx, gs)


cdef class ScatterBackward1(Node):
    cdef Py_ssize_t dim
    cdef cnp.ndarray index

    cdef tuple apply(self, tuple grads):
        return (_scatter_values(grads[0], self.dim, self.index, None, 0, False),)


cdef Py_ssize_t _check_gather_args(Tensor x, Py_ssize_t nd, object dim, cnp.ndarray idx) except? -1:
    cdef Py_ssize_t d = _wrap_dim(dim, nd), k
    if _ne1(nd) != _ne1(idx.ndim):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    xs = _nonempty(_shp(x._data))
    ishape = _nonempty(_shp(idx))
    for k in range(len(xs)):
        if k != d and ishape[k] > xs[k]:
            raise RuntimeError(
                f"Size does not match at dimension {k} expected index {_shape_str(_shp(idx))} to "
                f"be no larger than self {_shape_str(_shp(x._data))} apart from dimension {d}")
    _check_index_bounds(idx, d, xs[d])
    return d


def gather(input, dim, index, *, sparse_grad=False):
    """Values of ``input`` along dim at ``index`` (``out[i][j] = input[index[i][j]][j]`` for dim 0).

    >>> import autograd_core as torch
    >>> torch.gather(torch.tensor([[1., 2.], [3., 4.]]), 1, torch.tensor([[1], [0]]))
    tensor([[2.],
            [3.]])
    """
    cdef Tensor x = _arg(input, "gather")
    cdef cnp.ndarray idx = _index_array(index, "gather", "int32/int64")
    d = _check_gather_args(x, cnp.PyArray_NDIM(x._data), dim, idx)
    return _gather_values(x, d, idx)


@_tensor_method("gather")
def _m_gather(self, dim, index, *, sparse_grad=False):
    return gather(self, dim, index)


cdef tuple _scatter_args(Tensor x, object dim, object index, object src, object value,
                         str fname, bint add):
    """Checked (dim, index array, src Tensor or None, value) for scatter/scatter_add."""
    cdef cnp.ndarray idx = _index_array(index, fname, "int32/int64")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data), k
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef Tensor s = None
    if src is not None:
        s = src
        if _dtype_of(s._data) is not _dtype_of(x._data):
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if _ne1(nd) != _ne1(idx.ndim):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if s is not None and _ne1(s._data.ndim) != _ne1(idx.ndim):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    xs = _nonempty(_shp(x._data))
    ishape = _nonempty(_shp(idx))
    if cnp.PyArray_SIZE(idx) == 0:
        return d, idx, s, value
    ok = all(k == d or ishape[k] <= xs[k] for k in range(len(xs)))
    if s is not None:
        ss = _nonempty(_shp(s._data))
        if not ok or any(ishape[k] > ss[k] for k in range(len(ss))):
            raise RuntimeError(
                f"Expected index {_shape_str(_shp(idx))} to be no larger than self "
                f"{_shape_str(_shp(x._data))} apart from dimension {d} and to be no larger size "
                f"than src {_shape_str(_shp(s._data))}")
    elif not ok:
        raise RuntimeError(f"Expected index {_shape_str(_shp(idx))} to be no larger than self "
                           f"{_shape_str(_shp(x._data))} apart from dimension {d}")
    _check_index_bounds(idx, d, xs[d])
    return d, idx, s, value


cdef tuple _scatter_src_or_value(str fname, object src, object value):
    """scatter's fourth argument: a Tensor src or a number (positional or value=)."""
    if src is not None and value is not None:
        raise TypeError(f"{fname}() got multiple values for argument 'value'")
    if src is None and value is None:
        raise TypeError(f"{fname}() missing required argument 'src' or 'value'")
    if src is not None and not isinstance(src, Tensor):
        value, src = src, None
    if value is not None:
        if isinstance(value, Tensor) or not _is_number(value):
            raise TypeError(f"{fname}(): argument 'value' must be Number, not {type(value).__name__}")
    return src, value


cdef Tensor _scatter(Tensor x, object dim, object index, object src, object value,
                     object reduce, bint add, bint inplace, str fname):
    if reduce is not None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError(f"reduce argument must be either add or multiply. Got {reduce}")
    d, idx, s, v = _scatter_args(x, dim, index, src, value, fname, add)
    if inplace:
        _check_inplace(x)
    cdef bint needs_graph = _grad_on() and (x._requires_grad or (s is not None and (<Tensor>s)._requires_grad)
                                             or (x._base is not None and x._base._requires_grad))
    if reduce is not None:
        r = _scatter_reduce_values(x, d, idx, s, v, reduce, fname)
    elif not inplace or needs_graph:
        r = _scatter_values(_snapshot(x) if inplace else x, d, idx, s, v, add)
    else:
        r = None
    if not inplace:
        return r
    if r is None:
        r = _scatter_values(_make(x._data), d, idx, s, v, add)
        _write_values(x, (<Tensor>r)._data)
        _bump_version(x)
        return x
    return _rebase_history(x, r)


cdef Tensor _scatter_reduce_values(Tensor x, Py_ssize_t d, cnp.ndarray idx, Tensor s, object v,
                                   str reduce, str fname):
    """scatter with reduce='add'/'multiply': PyTorch has no derivative for it."""
    cdef tuple ne = _nonempty(_shp(idx))
    out = x._data.copy()
    view = out.reshape(_nonempty(_shp(out)))
    key = _along_key(ne, idx.reshape(ne).astype(np.int64), d)
    if s is not None:
        vals = s._data.reshape(_nonempty(_shp(s._data)))[tuple(slice(0, k) for k in ne)]
    else:
        vals = np.broadcast_to(np.asarray(v).astype(out.dtype), ne)
    if reduce == "add":
        np.add.at(view, key, vals)
    else:
        np.multiply.at(view, key, vals)
    cdef Tensor r = _make(_as_array(out))
    if _grad_on() and (x._requires_grad or (s is not None and s._requires_grad)) \
            and _dtype_of(out).category == 2:
        node = <_NotImplementedBackward>_NotImplementedBackward.__new__(_NotImplementedBackward)
        node.op_name = fname
        _record_n(node, r, [t for t in (x, s) if t is not None])
    return r


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """``input`` with ``src``'s elements (or ``value``) written at ``index`` along dim.

    >>> import autograd_core as torch
    >>> torch.scatter(torch.zeros(3), 0, torch.tensor([2, 0]), torch.tensor([5., 6.]))
    tensor([6., 0., 5.])
    """
    src, value = _scatter_src_or_value("scatter", src, value)
    return _scatter(_arg(input, "scatter"), dim, index, src, value, reduce, False, False, "scatter")


@_tensor_method("scatter")
def _m_scatter(self, dim, index, src=None, value=None, *, reduce=None):
    src, value = _scatter_src_or_value("scatter", src, value)
    return _scatter(self, dim, index, src, value, reduce, False, False, "scatter")


@_tensor_method("scatter_")
def _m_scatter_(self, dim, index, src=None, value=None, *, reduce=None):
    src, value = _scatter_src_or_value("scatter_", src, value)
    return _scatter(self, dim, index, src, value, reduce, False, True, "scatter_")


cdef Tensor _check_scatter_add_src(str fname, object src):
    if not isinstance(src, Tensor):
        raise TypeError(f"{fname}(): argument 'src' (position 3) must be Tensor, not "
                        f"{type(src).__name__}")
    return <Tensor>src


def scatter_add(input, dim, index, src):
    """``input`` with ``src``'s elements added at ``index`` along dim (repeats add up).

    >>> import autograd_core as torch
    >>> torch.scatter_add(torch.zeros(3), 0, torch.tensor([2, 2]), torch.tensor([5., 6.]))
    tensor([ 0.,  0., 11.])
    """
    s = _check_scatter_add_src("scatter_add", src)
    return _scatter(_arg(input, "scatter_add"), dim, index, s, None, None, True, False, "scatter_add")


@_tensor_method("scatter_add")
def _m_scatter_add(self, dim, index, src):
    s = _check_scatter_add_src("scatter_add", src)
    return _scatter(self, dim, index, s, None, None, True, False, "scatter_add")


@_tensor_method("scatter_add_")
def _m_scatter_add_(self, dim, index, src):
    s = _check_scatter_add_src("scatter_add_", src)
    return _scatter(self, dim, index, s, None, None, True, True, "scatter_add_")


# ---------------------------------------------------------------- masked_fill

cdef class MaskedFillBackward0(Node):
    cdef cnp.ndarray mask

    cdef tuple apply(self, tuple grads):
        g = grads[0]
        return (_where(self.mask, _zeros((), _dtype_of((<Tensor>g)._data)), g),)


cdef class MaskedFillBackward1(Node):
    cdef cnp.ndarray mask

    cdef tuple apply(self, tuple grads):
        g = grads[0]
        z = _zeros((), _dtype_of((<Tensor>g)._data))
        gx = _where(self.mask, z, g) if _needs(self, 0) else None
        gv = _sum(_where(self.mask, g, z), None, False, None) if _needs(self, 1) else None
        return (gx, gv)


cdef cnp.ndarray _check_bool_mask(object mask, str msg_prefix):
    if not isinstance(mask, Tensor):
        raise TypeError(f"{msg_prefix}(): argument 'mask' (position 1) must be Tensor, not "
                        f"{type(mask).__name__}")
    return (<Tensor>mask)._data


cdef Tensor _masked_fill(Tensor x, object mask, object value, bint inplace):
    cdef cnp.ndarray m = _check_bool_mask(mask, "masked_fill")
    cdef dtype md = _dtype_of(m)
    if md is not bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           + _cpp_type_name(md))
    cdef Tensor v = None
    if isinstance(value, Tensor):
        v = value
        if v._data.ndim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                               f"tensor with {v._data.ndim} dimension(s).")
    elif not _is_number(value):
        raise TypeError(f"masked_fill() received an invalid combination of arguments - got "
                        f"(Tensor, {type(value).__name__}), but expected one of:\n"
                        " * (Tensor mask, Tensor value)\n * (Tensor mask, Number value)\n")
    xs = _shp(x._data)
    try:
        bshape = np.broadcast_shapes(_shp(m), xs)
    except ValueError:
        raise _broadcast_error(_shp(m), xs) from None
    if inplace:
        if bshape != xs:
            raise RuntimeError(f"output with shape {_shape_str(xs)} doesn't match the broadcast "
                               f"shape {_shape_str(bshape)}")
        _check_inplace(x)
    cdef dtype xd = _dtype_of(x._data)
    vals = np.asarray(v._data if v is not None else value).astype(xd.np_dtype)
    cdef bint vgrad = v is not None and v._requires_grad
    cdef bint needs_graph = _grad_on() and xd.category == 2 and (
        x._requires_grad or vgrad or (inplace and x._base is not None and x._base._requires_grad))
    if inplace and not needs_graph:
        if not cnp.PyArray_ISWRITEABLE(x._data):
            _write_values(x, x._data)
        mb = np.broadcast_to(m, xs)
        x._data[mb] = vals
        _bump_version(x)
        return x
    src = _snapshot(x) if inplace else x
    out = np.array(np.broadcast_to(src._data, bshape), copy=True)
    out[np.broadcast_to(m, bshape)] = vals
    cdef Tensor r = _make(_as_array(out))
    if needs_graph:
        mask_b = np.array(np.broadcast_to(m, bshape), copy=True)
        if v is None:
            node = <MaskedFillBackward0>MaskedFillBackward0.__new__(MaskedFillBackward0)
            node.mask = mask_b
            _record1(node, r, src)
            meta = _meta_if_differs(src, out)
            if meta is not None:
                node.input_shapes = (meta,)
        else:
            node1 = <MaskedFillBackward1>MaskedFillBackward1.__new__(MaskedFillBackward1)
            node1.mask = mask_b
            _record2(node1, r, src, v)
            ma = _meta_if_differs(src, out)
            mv = None if _dtype_of(v._data) is xd else ((), _dtype_of(v._data))
            if ma is not None or mv is not None:
                node1.input_shapes = (ma, mv)
    if inplace:
        return _rebase_history(x, r)
    return r


def masked_fill(input, mask, value):
    """``input`` with ``value`` where the boolean ``mask`` (broadcast) is True.

    >>> import autograd_core as torch
    >>> x = torch.tensor([1., 2., 3.])
    >>> torch.masked_fill(x, x > 1, 0.)
    tensor([1., 0., 0.])
    """
    return _masked_fill(_arg(input, "masked_fill"), mask, value, False)


@_tensor_method("masked_fill")
def _m_masked_fill(self, mask, value):
    return _masked_fill(self, mask, value, False)


@_tensor_method("masked_fill_")
def _m_masked_fill_(self, mask, value):
    return _masked_fill(self, mask, value, True)


# ---------------------------------------------------------------- masked_select

cdef class MaskedSelectBackward0(Node):
    cdef cnp.ndarray mask      # broadcast to the (broadcast) input shape

    cdef tuple apply(self, tuple grads):
        return (_masked_scatter_zeros(grads[0], self.mask),)


cdef class MaskedScatterBackward0(Node):
    """zeros.masked_scatter(mask, source): the source's gradient is masked_select."""
    cdef cnp.ndarray mask
    cdef tuple src_shape

    cdef tuple apply(self, tuple grads):
        g = grads[0]
        gs = None
        if _needs(self, 1):
            gs = _masked_select_values(g, self.mask)
        return (None, gs)


cdef Tensor _masked_scatter_zeros(Tensor g, cnp.ndarray mask):
    out = np.zeros(_shp(mask), dtype=g._data.dtype)
    out[mask] = g._data
    cdef Tensor r = _make(out)
    cdef Tensor z
    if _grad_on() and g._requires_grad:
        node = <MaskedScatterBackward0>MaskedScatterBackward0.__new__(MaskedScatterBackward0)
        node.mask = mask
        node.src_shape = _shp(g._data)
        z = _zeros(_shp(mask), _dtype_of(g._data))
        _record2(node, r, z, g)
    return r


cdef Tensor _masked_select_values(Tensor x, cnp.ndarray mask_b):
    """x (broadcast to mask_b's shape) at mask_b, recorded."""
    xb = np.broadcast_to(x._data, _shp(mask_b))
    cdef Tensor r = _make(_as_array(xb[mask_b]))
    if _records(x):
        node = <MaskedSelectBackward0>MaskedSelectBackward0.__new__(MaskedSelectBackward0)
        node.mask = mask_b
        _record1(node, r, x)
        if _shp(x._data) != _shp(mask_b):
            node.input_shapes = ((_shp(x._data), _dtype_of(x._data)),)
    return r


cdef Tensor _masked_select(Tensor x, object mask):
    cdef cnp.ndarray m = _check_bool_mask(mask, "masked_select")
    if _dtype_of(m) is not bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    try:
        bshape = np.broadcast_shapes(_shp(m), _shp(x._data))
    except ValueError:
        raise _broadcast_error(_shp(m), _shp(x._data)) from None
    return _masked_select_values(x, np.array(np.broadcast_to(m, bshape), copy=True))


def masked_select(input, mask):
    """The 1-D tensor of ``input``'s elements where the boolean ``mask`` is True.

    >>> import autograd_core as torch
    >>> x = torch.tensor([1., 2., 3.])
    >>> torch.masked_select(x, x > 1)
    tensor([2., 3.])
    """
    return _masked_select(_arg(input, "masked_select"), mask)


@_tensor_method("masked_select")
def _m_masked_select(self, mask):
    return _masked_select(self, mask)


# ---------------------------------------------------------------- movedim / moveaxis

cdef Tensor _movedim(Tensor x, object source, object destination, str fname):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data), k
    src_int = not isinstance(source, (list, tuple))
    dst_int = not isinstance(destination, (list, tuple))
    if src_int != dst_int:
        raise TypeError(
            f"{fname}() received an invalid combination of arguments - got "
            f"({type(source).__name__}, {type(destination).__name__}), but expected one of:\n"
            " * (int source, int destination)\n * (tuple of ints source, tuple of ints destination)\n")
    src = (_index_int(source, fname, "source", 1),) if src_int else \
        _int_tuple(source, fname, "source", 1)
    dst = (_index_int(destination, fname, "destination", 2),) if dst_int else \
        _int_tuple(destination, fname, "destination", 2)
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({_shape_str(src)} dims) should "
            f"contain the same number of dims as destination ({_shape_str(dst)} dims)")
    ws = tuple(_wrap_dim(d, nd) for d in src)
    wdst = tuple(_wrap_dim(d, nd) for d in dst)
    if len(set(ws)) != len(ws):
        raise RuntimeError(f"movedim: repeated dim in `source` ({_shape_str(src)})")
    if len(set(wdst)) != len(wdst):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({_shape_str(dst)})")
    if nd == 0:
        return _basic_view(x, (Ellipsis,), AliasBackward0)
    order = [-1] * nd
    for k in range(len(ws)):
        order[wdst[k]] = ws[k]
    rest = [k for k in range(nd) if k not in ws]
    it = iter(rest)
    for k in range(nd):
        if order[k] == -1:
            order[k] = next(it)
    return _permute(x, tuple(order))


def movedim(input, source, destination):
    """Move dims ``source`` to positions ``destination`` (the others keep their order).

    >>> import autograd_core as torch
    >>> torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape
    autograd_core.Size([3, 4, 2])
    """
    return _movedim(_arg(input, "movedim"), source, destination, "movedim")


def moveaxis(input, source, destination):
    """Alias of movedim."""
    return _movedim(_arg(input, "moveaxis"), source, destination, "moveaxis")


@_tensor_method("movedim")
def _m_movedim(self, source, destination):
    return _movedim(self, source, destination, "movedim")


@_tensor_method("moveaxis")
def _m_moveaxis(self, source, destination):
    return _movedim(self, source, destination, "moveaxis")


# ---------------------------------------------------------------- x[key] and x[key] = v
#
# Note [PyTorch indexing]
# PyTorch applies a key in two steps (python_variable_indexing.cpp): first the basic
# parts one after another on views (an int selects, a slice slices, None and a bool
# unsqueeze), then, if any tensors/lists/bools remain, one advanced `index` over the
# sliced view with those tensors at the dims they sit on. numpy's combined semantics
# differ (an int between two index arrays makes them "separated"), so the key is split
# the same way: `key1`, a numpy basic key on x, and `key2`, a numpy advanced key on
# x[key1]. The grad_fn is the last basic op (SelectBackward0, SliceBackward0,
# UnsqueezeBackward0, AliasBackward0 for a key that does nothing), then IndexBackward0.

cdef class _IndexKey:
    cdef list key1          # numpy basic key on x
    cdef type last          # the node of the last basic op, or None
    cdef list records       # (result dim, index array, is_mask) for the advanced step
    cdef tuple key2         # numpy advanced key on x[key1], or None


cdef str _py_type_name(object k):
    t = type(k)
    mod = getattr(t, "__module__", "builtins")
    return t.__name__ if mod == "builtins" else f"{mod}.{t.__name__}"


cdef bint _treat_sequence_as_tuple(object key):
    # PyTorch's (and numpy's old) heuristic for a non-tuple sequence key
    if isinstance(key, tuple):
        return True
    if isinstance(key, (Tensor, np.ndarray, str)) or not isinstance(key, (list,)):
        return False
    if len(key) >= 32:
        return False
    for o in key:
        if isinstance(o, (Tensor, list, tuple, slice, np.ndarray)) or o is Ellipsis or o is None:
            return True
    return False


cdef object _seq_index_array(object seq):
    """A list (or numpy array) inside a key, as PyTorch's indexing tensor: bool or int64."""
    try:
        arr = np.asarray(_nested_to_arrays(seq) if not isinstance(seq, np.ndarray) else seq)
    except ValueError:
        raise IndexError("too many indices") from None
    if arr.dtype == object or arr.dtype.kind in "USV":
        raise TypeError(f"new(): invalid data type 'str'" if arr.dtype.kind in "USV"
                        else "too many indices")
    if arr.dtype == np.bool_:
        return arr
    if arr.dtype.kind not in "iuf" and arr.size:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return arr.astype(np.int64)


cdef _IndexKey _parse_key(Tensor x, object key, bint slice_node):
    cdef cnp.ndarray xa = x._data
    cdef Py_ssize_t nd = xa.ndim
    cdef tuple shape = _shp(xa)
    cdef _IndexKey pk = _IndexKey.__new__(_IndexKey)
    pk.key1 = []
    pk.records = []
    pk.last = None
    pk.key2 = None
    if isinstance(key, tuple):
        items = key
    elif isinstance(key, list) and _treat_sequence_as_tuple(key):
        items = tuple(key)
    elif isinstance(key, str):
        raise TypeError("new(): invalid data type 'str'")
    else:
        items = (key,)
        if nd == 0 and isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        if nd == 0 and isinstance(key, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    # normalise items: Tensors and sequences to arrays (or ints for 0-d integer tensors)
    norm = []
    cdef Py_ssize_t specified = 0
    for k in items:
        if isinstance(k, Tensor):
            a = (<Tensor>k)._data
            cat = _dtype_of(a).category
            dn = _dtype_of(a).name
            if cat == 2 or (cat == 1 and a.ndim and dn in ("int8", "int16")):
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            if dn in ("bool", "uint8"):
                if dn == "uint8":
                    warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use "
                                  "a dtype torch.bool instead.", UserWarning, stacklevel=3)
                if a.ndim == 0:
                    norm.append(bool(a))
                    continue
                norm.append(("mask", a.astype(bool)))
                specified += a.ndim
            elif a.ndim == 0:
                norm.append(int(a))
                specified += 1
            else:
                norm.append(("idx", a.astype(np.int64)))
                specified += 1
        elif isinstance(k, bool):
            norm.append(k)
        elif isinstance(k, (int, np.integer)):
            norm.append(int(k))
            specified += 1
        elif k is None or k is Ellipsis:
            norm.append(k)
        elif isinstance(k, slice):
            norm.append(k)
            specified += 1
        elif isinstance(k, (list, tuple, np.ndarray)):
            arr = _seq_index_array(k)
            if arr.dtype == np.bool_ and arr.ndim:
                norm.append(("mask", arr))
                specified += arr.ndim
            elif arr.dtype == np.bool_:
                norm.append(bool(arr))
            else:
                norm.append(("idx", arr))
                specified += 1
        elif isinstance(k, str):
            raise TypeError("new(): invalid data type 'str'")
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             f"Variables are valid indices (got {_py_type_name(k)})")
    if specified > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    cdef Py_ssize_t odim = 0, rdim = 0, real = 0, n, i, j
    for k in norm:
        if k is None:
            pk.key1.append(None)
            pk.last = _IndexUnsqueezeBackward0
            rdim += 1
            real += 1
        elif k is Ellipsis:
            j = nd - specified
            i = j if j < nd - odim else nd - odim
            pk.key1.extend([slice(None)] * i)
            odim += i
            rdim += j
            real += j
        elif isinstance(k, bool):
            pk.key1.append(None)
            pk.last = _IndexUnsqueezeBackward0
            pk.records.append((rdim, np.zeros(1 if k else 0, dtype=np.int64), False))
            rdim += 1
            real += 1
        elif isinstance(k, int):
            n = shape[odim]
            i = k
            if i < -n or i >= n:
                raise IndexError(f"index {i} is out of bounds for dimension {real} with size {n}")
            pk.key1.append(i + n if i < 0 else i)
            pk.last = SelectBackward0
            odim += 1
            real += 1
        elif isinstance(k, slice):
            vals = []
            for v in (k.start, k.stop, k.step):
                if v is not None and (isinstance(v, bool) or not hasattr(v, "__index__")):
                    raise TypeError("slice indices must be integers or None or have an __index__ method")
                vals.append(None if v is None else v.__index__())
            if vals[2] is not None and vals[2] == 0:
                raise ValueError("slice step cannot be zero")
            if vals[2] is not None and vals[2] < 0:
                raise ValueError("step must be greater than zero")
            s = slice(vals[0], vals[1], vals[2])
            n = shape[odim]
            if s.indices(n) != (0, n, 1) or slice_node:
                pk.last = SliceBackward0
            pk.key1.append(s)
            odim += 1
            rdim += 1
            real += 1
        else:
            kind, arr = k
            pk.records.append((rdim, arr, kind == "mask"))
            j = arr.ndim if kind == "mask" else 1
            pk.key1.extend([slice(None)] * j)
            odim += j
            rdim += j
            real += j
    if pk.records:
        pk.key2 = _advanced_key(pk, _shp(xa[tuple(pk.key1)]))
    return pk


cdef tuple _advanced_key(_IndexKey pk, tuple yshape):
    """The numpy advanced key over x[key1], checked as PyTorch's index checks it."""
    out = []
    shapes = []
    cdef Py_ssize_t pos = 0, ordinal = 0, j, r
    for r, arr, is_mask in pk.records:
        while pos < r:
            out.append(slice(None))
            pos += 1
        if is_mask:
            for j in range(arr.ndim):
                if arr.shape[j] != yshape[r + j]:
                    raise IndexError(
                        f"The shape of the mask {_shape_str(arr.shape)} at index {j} does not "
                        f"match the shape of the indexed tensor {_shape_str(yshape)} at index {r + j}")
            nnz = int(np.count_nonzero(arr))
            shapes.extend([(nnz,)] * arr.ndim)
            ordinal += arr.ndim
            pos += arr.ndim
        else:
            n = yshape[r]
            bad = (arr < -n) | (arr >= n)
            if bad.any():
                raise IndexError(f"index {int(arr[bad].reshape(-1)[0])} is out of bounds for "
                                 f"dimension {ordinal} with size {n}")
            shapes.append(arr.shape)
            ordinal += 1
            pos += 1
        out.append(arr)
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with "
                         "shapes " + ", ".join(_shape_str(s) for s in shapes)) from None
    return tuple(out)


cdef Tensor _torch_getitem(Tensor x, object key):
    cdef _IndexKey pk = _parse_key(x, key, isinstance(key, slice))
    cdef tuple k1 = tuple(pk.key1)
    cdef Tensor y = x
    cdef type cls = pk.last
    if cls is None and not pk.records:
        cls = AliasBackward0
    if cls is not None:
        y = _basic_view(x, k1, cls)
    if pk.records:
        return _index_recorded(y, pk.key2, True)
    return y


cdef tuple _strip_leading_ones(tuple s):
    cdef Py_ssize_t i = 0
    while i < len(s) and s[i] == 1:
        i += 1
    return s[i:]


cdef void _torch_setitem(Tensor self, object key, object value) except *:
    if key is False:
        return
    cdef Tensor v
    cdef dtype sd = _dtype_of(self._data)
    if isinstance(value, Tensor):
        v = value
    elif _is_number(value):
        with _quiet():
            v = _make(np.asarray(value).astype(sd.np_dtype))
    else:
        raise TypeError(f"can't assign a {type(value).__name__} to a {_legacy_type_name(self)}")
    cdef _IndexKey pk = _parse_key(self, key, False)
    cdef tuple k1 = tuple(pk.key1)
    cdef bint has_view = pk.last is not None
    cdef bint adv = bool(pk.records)
    # pos: flat positions of the written elements in self; region: the same in self's
    # base (Note [Writing into a region])
    pos = np.arange(cnp.PyArray_SIZE(self._data), dtype=np.int64).reshape(_shp(self._data))[k1]
    region = _region_of(self)[k1]
    if adv:
        pos = pos[pk.key2]
        region = region[pk.key2]
    target = _shp(pos)
    vs = _shp(v._data)
    if adv:
        ok = False
        for cand in (vs, _strip_leading_ones(vs)):
            try:
                ok = ok or np.broadcast_shapes(cand, target) == target
            except ValueError:
                pass
        if not ok:
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {_shape_str(vs)} cannot be broadcast to "
                f"indexing result of shape {_shape_str(target)}")
    elif vs != target and len(vs) != 0:
        stripped = _strip_leading_ones(vs)
        with no_grad_ctx():
            _expand(_make(np.empty(stripped, dtype=v._data.dtype)), target)
    # leaf checks: a key with a basic op works on a view of self
    if _grad_on() and self._grad_fn is None and self._requires_grad:
        raise RuntimeError(_MSG_LEAF_VIEW_INPLACE if has_view else _MSG_LEAF_INPLACE)
    _check_inplace(self)
    cdef bint graph = _grad_on() and (self._requires_grad or v._requires_grad or (
        self._base is not None and self._base._requires_grad))
    if len(vs) > len(target):
        v = _reshape(v, _strip_leading_ones(vs)[-len(target):] if target else ())
    if not graph:
        with _quiet():
            if cnp.PyArray_SIZE(self._data):
                flat_key = np.unravel_index(pos, _shp(self._data)) if self._data.ndim else ()
                if not cnp.PyArray_ISWRITEABLE(self._data):
                    _write_values(self, self._data)
                self._data[flat_key] = _cast_array(v._data, sd)
        _bump_version(self)
        return
    cdef Tensor src = _snapshot(self)
    cdef Tensor r
    if not has_view and not adv:
        # the whole tensor: PyTorch's copy_to: fill_ with a 0-d value, else copy_
        with _quiet():
            out = np.empty(_shp(self._data), dtype=sd.np_dtype)
            out[...] = _cast_array(v._data, sd)
        r = _make(out)
        if v._data.ndim == 0 and target != ():
            fnode = <FillBackward3>FillBackward3.__new__(FillBackward3)
            _record2(fnode, r, src, v)
            if _dtype_of(v._data) is not sd:
                fnode.input_shapes = (None, ((), _dtype_of(v._data)))
        else:
            ve = _expand(v, target) if _shp(v._data) != target else v
            cnode = <CopyBackwards>CopyBackwards.__new__(CopyBackwards)
            _record2(cnode, r, src, ve)
            if _dtype_of(ve._data) is not sd:
                cnode.input_shapes = (None, (target, _dtype_of(ve._data)))
        _rebase_history(self, r)
        return
    flat_key = np.unravel_index(pos, _shp(self._data)) if self._data.ndim else ()
    cdef Tensor vals = v if _dtype_of(v._data) is sd else _cast(v, sd)
    if _shp(vals._data) != target:
        vals = _expand(vals, target)
    with _quiet():
        self._data[flat_key] = vals._data
    _write_region(self, np.asarray(region), vals, not has_view)
    _bump_version(self)


cdef class _NoGrad:
    cdef bint prev

    def __enter__(self):
        self.prev = agc_grad_enabled()
        agc_set_grad_enabled(False)

    def __exit__(self, *exc):
        agc_set_grad_enabled(self.prev)


cdef inline _NoGrad no_grad_ctx():
    return _NoGrad.__new__(_NoGrad)
