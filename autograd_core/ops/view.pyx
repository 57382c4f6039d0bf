"""View ops: reshaping, reordering and broadcasting views (view, reshape, squeeze,
transpose, permute, expand, ...), selecting views (narrow/slice, select), multi-output
views (unbind, split, chunk), joins (cat, stack) and the copies that repeat or reorder
(repeat, tile, flip, roll).

A view shares its base's memory and version counter (make_view), so in-place writes
through it go through the core's region machinery (Note [Writing into a region]).
Nodes, wiring and Python wrappers are generated from the view section of
derivatives.yaml (_gen_view.pxi, included at the end); this file holds the forwards,
the derivative helpers the formulas call (named as PyTorch's FunctionsManual), the
hand-written nodes of list inputs and multi-output views, and the Python wrappers of
the varargs methods (x.view(2, 3)) and overloads.

>>> import autograd_core as torch
>>> x = torch.arange(6., requires_grad=True)
>>> x.view(2, 3).t().grad_fn.name()
'TBackward0'
"""
include "_prelude.pxi"


from autograd_core._core.numpy_api cimport strided_array_over
from autograd_core._core.tensor import _forget_accumulator

# Note [Conjugate and negative views] (_core/_conj.pxi): conj() and _neg_view() are
# views over a twin array the core keeps equal to conj(x) / -x.
from autograd_core._core.tensor import (
    _lazy_view, _lazy_bits, _set_lazy_view_regenerator)

cdef enum:
    LAZY_CONJ = 1    # (the core's bits, _core/_conj.pxi)
    LAZY_NEG = 2


# ================================================================ helpers

cdef tuple _infer_size(tuple shape, Py_ssize_t numel):
    """shape with its -1 entry (at most one) filled in, checked against numel elements
    (PyTorch's infer_size, with its messages)."""
    cdef Py_ssize_t infer = -1, i
    known = 1  # a Python int: sizes near int64's limit multiply past it
    for i in range(len(shape)):
        s = shape[i]
        if s == -1:
            if infer >= 0:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {shape_str(shape)}")
        else:
            known *= s
    if infer >= 0:
        if known == 0:
            if numel == 0:
                raise RuntimeError(
                    f"cannot reshape tensor of 0 elements into shape {shape_str(shape)} because "
                    "the unspecified dimension size -1 can be any value and is ambiguous")
            raise RuntimeError(f"shape '{shape_str(shape)}' is invalid for input of size {numel}")
        if numel % known != 0:
            raise RuntimeError(f"shape '{shape_str(shape)}' is invalid for input of size {numel}")
        return shape[:infer] + (numel // known,) + shape[infer + 1:]
    if known != numel:
        raise RuntimeError(f"shape '{shape_str(shape)}' is invalid for input of size {numel}")
    return shape


cdef cnp.ndarray _strided_view(cnp.ndarray x, int n, cnp.npy_intp *dims, cnp.npy_intp *strides,
                               bint writeable):
    """A view of x's memory with the given sizes and byte strides (writeable only if x
    is and writeable is set)."""
    return strided_array_over(x, <cnp.dtype>cnp.PyArray_DESCR(x), n, dims, strides,
                              cnp.PyArray_DATA(x), writeable)


cdef object _viewed(cnp.ndarray x, tuple shape):
    """x as a view of the given shape (x's number of elements), with the strides
    PyTorch's view gives (computeStride), or None when x's strides do not allow it."""
    cdef int n = len(shape), nd = cnp.PyArray_NDIM(x), view_d, tensor_d, i
    cdef cnp.npy_intp dims[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp strides[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp item = cnp.PyArray_ITEMSIZE(x), chunk_base, tensor_numel, view_numel
    if n > cnp.NPY_MAXDIMS:
        raise RuntimeError(f"view: a tensor can have at most {cnp.NPY_MAXDIMS} dimensions")
    for i in range(n):
        dims[i] = shape[i]
    if nd == 0:
        for i in range(n):
            strides[i] = item
        return _strided_view(x, n, dims, strides, True)
    if cnp.PyArray_SIZE(x) == 0:
        if shape == shape_of(x):
            return x.view()
        chunk_base = item  # arbitrary for no elements: contiguous strides, as PyTorch
        for i in range(n - 1, -1, -1):
            strides[i] = chunk_base
            chunk_base *= dims[i] if dims[i] > 1 else 1
        return _strided_view(x, n, dims, strides, True)
    view_d = n - 1
    chunk_base = cnp.PyArray_STRIDE(x, nd - 1)
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(nd - 1, -1, -1):
        tensor_numel *= cnp.PyArray_DIM(x, tensor_d)
        # the end of a chunk of dims contiguous with each other
        if tensor_d == 0 or (cnp.PyArray_DIM(x, tensor_d - 1) != 1 and
                             cnp.PyArray_STRIDE(x, tensor_d - 1) != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or dims[view_d] == 1):
                strides[view_d] = view_numel * chunk_base
                view_numel *= dims[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base = cnp.PyArray_STRIDE(x, tensor_d - 1)
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return _strided_view(x, n, dims, strides, True)


cdef inline tuple _along(Py_ssize_t dim, object k):
    """The numpy key applying k (an int or a slice) at dim."""
    return (slice(None),) * dim + (k, Ellipsis)


cdef cnp.ndarray _joined(list arrays, Py_ssize_t axis, tuple shape, dtype rt):
    """arrays concatenated along axis into a new C-contiguous array (numpy would follow
    its inputs' layout; PyTorch's cat gives a contiguous result)."""
    cdef cnp.ndarray out = np.empty(shape, dtype=rt.np_dtype)
    np.concatenate(arrays, axis=axis, out=out)
    return out


cdef tuple _sizes_varargs(tuple args, object kw, str fname, str argname="size"):
    """Sizes given to a method as f(2, 3), f((2, 3)), f(Size) or by keyword."""
    if kw is not None:
        if args:
            raise TypeError(f"{fname}() got multiple values for its sizes")
        args = (kw,)
    return parse_shape(args, fname, argname)


cdef tuple _ints_varargs(tuple args, object kw, str fname, str argname):
    """Ints given to a method as f(0, 1), f((0, 1)) or by keyword (flip, tile, repeat)."""
    if kw is not None:
        if args:
            raise TypeError(f"{fname}() got multiple values for argument '{argname}'")
        return arg_int_sequence(kw, fname, argname, 1)
    if len(args) == 1 and (isinstance(args[0], (list, tuple)) or isinstance(args[0], float)):
        return arg_int_sequence(args[0], fname, argname, 1)
    return arg_int_list(args, fname, argname, 1)


# ================================================================ reshaping views

# the record_<Node> of a view op: (result, self, the sizes or dims it was given)
ctypedef int (*record_view_fn)(Tensor, Tensor, object) except -1


cdef Tensor _view_recorded_as(Tensor self, object size, record_view_fn record_node):
    """self viewed with another shape (one size may be -1), or PyTorch's error when its
    strides do not allow a view; recorded with record_node."""
    cdef tuple shape = _infer_size(tuple(size), cnp.PyArray_SIZE(self._data))
    out = _viewed(self._data, shape)
    if out is None:
        raise RuntimeError(MSG_VIEW_NOT_COMPATIBLE)
    cdef Tensor result = make_view(self, <cnp.ndarray>out)
    record_node(result, self, shape)
    return result


cdef Tensor op_view_dtype(Tensor self, dtype d):
    """self's memory read as dtype d (PyTorch's view.dtype). Elements of another size
    rescale the last dim, which must then be dense (stride 1), and the strides and
    offset must fall on whole new elements; the checks and messages are PyTorch's, in
    its order. view.dtype is not differentiable in PyTorch: the result is a leaf that
    does not require grad and no view to autograd, but it shares self's memory and
    version counter, as detach() does."""
    cdef cnp.ndarray x = self._data
    cdef dtype src = dtype_of(x)
    cdef int ndim = cnp.PyArray_NDIM(x), i
    cdef Py_ssize_t ratio = 1, old_size, new_size = src.itemsize, want = d.itemsize
    if d is not src:
        lazy = _lazy_bits(self)
        if lazy & LAZY_CONJ:
            raise RuntimeError("torch.Tensor.view is not supported for conjugate view tensors "
                               "when converting to a different dtype.")
        if lazy & LAZY_NEG:
            raise RuntimeError("torch.Tensor.view is not supported for tensors with negative "
                               "bit set when converting to a different dtype.")
    if new_size == want:
        return make_alias(self, x.view(d.np_dtype))
    tail = f"to view {src.scalar_name} as {d.scalar_name} (different element sizes)"
    if ndim == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {tail}")
    strides = self.stride()
    if new_size < want:
        ratio = want // new_size
        old_size = cnp.PyArray_DIMS(x)[ndim - 1]
        if old_size % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {tail}, but got "
                               f"{old_size}")
        offset = self.storage_offset()
        if offset % ratio:
            raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {tail}, "
                               f"but got {offset}")
    if strides[ndim - 1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {tail}, but got {strides[ndim - 1]}")
    if new_size < want:
        for i in range(ndim - 1):
            if strides[i] % ratio:
                raise RuntimeError(f"self.stride({i}) must be divisible by {ratio} {tail}, "
                                   f"but got {strides[i]}")
    # the same bytes: every stride in bytes stays, the last dim counts new elements
    cdef cnp.npy_intp dims[64]
    cdef cnp.npy_intp byte_strides[64]
    for i in range(ndim):
        dims[i] = cnp.PyArray_DIMS(x)[i]
        byte_strides[i] = cnp.PyArray_STRIDES(x)[i]
    dims[ndim - 1] = dims[ndim - 1] * new_size // want
    byte_strides[ndim - 1] = want
    return make_alias(self, strided_array_over(x, d.np_dtype, ndim, dims, byte_strides,
                                               cnp.PyArray_DATA(x), True))


def _pym_view(self, *shape, size=None, **kwargs):
    """A view of the tensor with another shape (one size may be -1), or of its memory
    as another dtype (view(dtype)).

    >>> import autograd_core as torch
    >>> torch.arange(6.).view(3, 2).shape
    autograd_core.Size([3, 2])
    >>> torch.tensor([1.]).view(torch.int32)
    tensor([1065353216], dtype=autograd_core.int32)
    """
    cdef Tensor t = arg_tensor(self, "view", "self", 0)
    for k in kwargs:
        if k != "dtype":
            raise TypeError(f"view() got an unexpected keyword argument '{k}'")
    if kwargs:
        if shape or size is not None:
            raise TypeError("view() received an invalid combination of arguments")
        return op_view_dtype(t, to_dtype(kwargs["dtype"]))
    if len(shape) == 1 and size is None and (isinstance(shape[0], dtype) or
                                             shape[0] in (float, int, bool)):
        return op_view_dtype(t, to_dtype(shape[0]))
    if len(shape) == 1 and size is None and not isinstance(shape[0], (list, tuple, Tensor)) \
            and (isinstance(shape[0], float) or not hasattr(shape[0], "__index__")):
        # neither overload takes it: PyTorch names both
        bad = ("      didn't match because some of the arguments have invalid types: "
               f"(!{type(shape[0]).__name__}!)")
        raise type_error_combination(
            "view", shape, f" * (autograd_core.dtype dtype)\n{bad}\n * (tuple of ints size)\n{bad}")
    if len(shape) > 1 and size is None and isinstance(shape[0], dtype):
        # a dtype with more arguments: neither overload takes it
        got = ", ".join(["autograd_core.dtype" if isinstance(a, dtype) else
                         "Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in shape])
        raise TypeError(f"view() received an invalid combination of arguments - got ({got}), "
                        "but expected one of:\n * (autograd_core.dtype dtype)\n"
                        " * (tuple of ints size)\n")
    return OPS.view(t, _sizes_varargs(shape, size, "view"))


cdef Tensor op_reshape(Tensor self, object shape):
    """A view when the strides allow it (ViewBackward0 for a contiguous input,
    ReshapeAliasBackward0 otherwise), else _unsafe_view of a contiguous clone."""
    cdef cnp.ndarray x = self._data
    cdef tuple sizes = _infer_size(tuple(shape), cnp.PyArray_SIZE(x))
    out = _viewed(x, sizes)
    if out is None:
        return op__unsafe_view(OPS.clone(self, _contiguous_format), sizes)
    cdef Tensor result = make_view(self, <cnp.ndarray>out)
    if cnp.PyArray_IS_C_CONTIGUOUS(x):
        record_ViewBackward0(result, self, sizes)
    else:
        record_ReshapeAliasBackward0(result, self, sizes)
    return result


def _pym_reshape(self, *args, shape=None):
    """input with another shape: a view when the memory allows it, else a copy.

    >>> import autograd_core as torch
    >>> torch.arange(6.).reshape(2, -1).shape
    autograd_core.Size([2, 3])
    """
    return OPS.reshape(arg_tensor(self, "reshape", "self", 0),
                      _sizes_varargs(args, shape, "reshape", "shape"))


cdef Tensor op__unsafe_view(Tensor self, object size):
    """self's values with another shape, not tracked as a view (PyTorch's _unsafe_view:
    the result of an op that made a fresh tensor, such as reshape's clone or matmul)."""
    cdef tuple sizes = _infer_size(tuple(size), cnp.PyArray_SIZE(self._data))
    out = _viewed(self._data, sizes)
    cdef Tensor result = make(<cnp.ndarray>out if out is not None
                              else as_array(np.reshape(self._data, sizes)))
    record_UnsafeViewBackward0(result, self, sizes)
    return result


cdef Tensor op_flatten(Tensor self, object start_dim, object end_dim):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t s = wrap_dim(start_dim, nd), e = wrap_dim(end_dim, nd)
    if nd == 0:
        return op_reshape(self, (1,))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return self
    cdef tuple shape = shape_of(self._data)
    return op_reshape(self, shape[:s] + (shape_numel(shape[s:e + 1]),) + shape[e + 1:])


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
                               f"index {i} of shape {shape_str(sizes)}")
    if infer >= 0:
        if known == 0:
            raise RuntimeError(
                f"unflatten got an unexpected error:\ncannot reshape tensor of {n} elements into "
                f"shape {shape_str(sizes)} because the unspecified dimension size -1 can be any "
                "value and is ambiguous")
        if n % known == 0:
            return sizes[:infer] + (n // known,) + sizes[infer + 1:]
    elif known == n:
        return sizes
    raise RuntimeError(f"unflatten: Provided sizes {shape_str(sizes)} don't multiply up to the "
                       f"size of dim {d} ({n}) in the input tensor")


cdef Tensor op_unflatten(Tensor self, object dim, object sizes):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef tuple sz = tuple(sizes)
    if not sz:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if nd == 0:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but "
                           "tensor has no dimensions")
    cdef tuple shape = shape_of(self._data)
    sz = _unflatten_sizes(sz, shape[d], d)
    return op_view(self, shape[:d] + sz + shape[d + 1:])


# ---------------------------------------------------------------- squeeze / unsqueeze

cdef tuple _squeezed_dims(Tensor self, object dim):
    """The dims squeeze(dim) removes (ascending): dim None, an int or a tuple of ints."""
    cdef tuple shape = shape_of(self._data)
    cdef Py_ssize_t nd = len(shape), k
    if dim is None:
        return tuple([k for k in range(nd) if shape[k] == 1])
    if isinstance(dim, (tuple, list)):
        wanted = wrap_dims(dim, nd)
    else:
        wanted = (wrap_dim(dim, nd),)
    if nd == 0:
        return ()
    return tuple([k for k in wanted if shape[k] == 1])


cdef cnp.ndarray _squeeze_values(cnp.ndarray x, tuple dims):
    """x without the (size 1) dims, the others keeping their strides."""
    cdef int nd = cnp.PyArray_NDIM(x), i, n = 0
    cdef cnp.npy_intp sizes[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp strides[cnp.NPY_MAXDIMS]
    for i in range(nd):
        if i not in dims:
            sizes[n] = cnp.PyArray_DIM(x, i)
            strides[n] = cnp.PyArray_STRIDE(x, i)
            n += 1
    return _strided_view(x, n, sizes, strides, True)


cdef record_view_fn _squeeze_node(object dim, record_view_fn all_node, record_view_fn int_node,
                                   record_view_fn dims_node) noexcept:
    """The node of the squeeze overload dim selects: None (all dims of size 1), an int,
    or a tuple of ints."""
    if dim is None:
        return all_node
    if isinstance(dim, (tuple, list)):
        return dims_node
    return int_node


cdef object _squeeze_dim_arg(object dim, str fname, int pos):
    """squeeze's dim argument checked for its overload (None, an int or a tuple)."""
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return arg_int_sequence(dim, fname, "dim", pos)
    return arg_int(dim, fname, "dim", pos)


cdef Tensor op_squeeze(Tensor self, object dim):
    """squeeze's three overloads: dim None (all dims of size 1), an int, or a tuple."""
    cdef tuple dims = _squeezed_dims(self, dim)
    cdef Tensor result = make_view(self, _squeeze_values(self._data, dims))
    _squeeze_node(dim, record_SqueezeBackward0, record_SqueezeBackward1,
                  record_SqueezeBackward2)(result, self, dims)
    return result


def _py_squeeze(input, dim=None):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_squeeze, (input, dim, ), {})
    cdef Tensor x = arg_tensor(input, "squeeze", "input", 1)
    return OPS.squeeze(x, _squeeze_dim_arg(dim, "squeeze", 2))


cdef Tensor op_squeeze_(Tensor self, object dim):
    """squeeze in place: self takes the squeezed shape, and a node over its old history
    (an in-place view op changes metadata only: no values are written)."""
    cdef Tensor src = inplace_source(self, ())
    cdef tuple dims = _squeezed_dims(self, dim)
    keep_counter(self)  # before its memory changes: Note [Counters made by the node]
    cdef cnp.ndarray old = self._data
    self._data = _squeeze_values(self._data, dims)
    bump_version(self)  # a view op rebinds, writes no values: see Note [In-place ops]
    if fw_active():
        _fw_restride(self, old, self._data)
    if src is self:
        return self
    self._output_nr = 0  # the node below is self's history now
    _squeeze_node(dim, record_SqueezeBackward3, record_SqueezeBackward4,
                  record_SqueezeBackward5)(self, src, dims)
    _inplace_view_done(self)
    return self


cdef void _inplace_view_done(Tensor self) noexcept:
    """An in-place view op recorded self's new history: for a view, it is current
    (Note [View + in-place]); sibling views see the bumped version and rebuild theirs."""
    if self._base is not None:
        self._view_version = self._vc.version


def _py_squeeze_(self, dim=None):
    cdef Tensor x = arg_tensor(self, "squeeze_", "self", 0)
    return OPS.squeeze_(x, _squeeze_dim_arg(dim, "squeeze_", 1))



cdef cnp.ndarray _unsqueeze_values(cnp.ndarray x, int d):
    """x with a dim of size 1 at d, with PyTorch's stride for it (inferUnsqueezeGeometry:
    the size times the stride of the dim it precedes, 1 at the end)."""
    cdef int nd = cnp.PyArray_NDIM(x), i
    cdef cnp.npy_intp dims[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp strides[cnp.NPY_MAXDIMS]
    if nd + 1 > cnp.NPY_MAXDIMS:
        raise RuntimeError(f"unsqueeze: a tensor can have at most {cnp.NPY_MAXDIMS} dimensions")
    for i in range(nd):
        dims[i + (i >= d)] = cnp.PyArray_DIM(x, i)
        strides[i + (i >= d)] = cnp.PyArray_STRIDE(x, i)
    dims[d] = 1
    strides[d] = (cnp.PyArray_DIM(x, d) * cnp.PyArray_STRIDE(x, d) if d < nd
                  else cnp.PyArray_ITEMSIZE(x))
    return _strided_view(x, nd + 1, dims, strides, True)


cdef Tensor op_unsqueeze(Tensor self, object dim):
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(self._data) + 1)
    cdef Tensor result = make_view(self, _unsqueeze_values(self._data, <int>d))
    record_UnsqueezeBackward0(result, self, d)
    return result


# ================================================================ reordering views

cdef Tensor op_transpose(Tensor self, object dim0, object dim1):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t d0 = wrap_dim(dim0, nd), d1 = wrap_dim(dim1, nd)
    cdef Tensor result = make_view(self, self._data.swapaxes(d0, d1) if nd else self._data.view())
    record_TransposeBackward0(result, self, d0, d1)
    return result


cdef Tensor op_t(Tensor self):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    cdef Tensor result = make_view(self, self._data.T)
    record_TBackward0(result, self)
    return result


cdef Tensor op_permute(Tensor self, object dims):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if len(dims) != nd:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal "
            f"to len(dims) = {len(dims)}")
    cdef tuple wrapped = tuple([wrap_dim(d, nd) for d in dims])
    if len(set(wrapped)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    cdef Tensor result = make_view(self, self._data.transpose(wrapped))
    record_PermuteBackward0(result, self, wrapped)
    return result


def _pym_permute(self, *args, dims=None):
    """A view with the dims in the order given.

    >>> import autograd_core as torch
    >>> torch.zeros(2, 3, 4).permute(2, 0, 1).shape
    autograd_core.Size([4, 2, 3])
    """
    return OPS.permute(arg_tensor(self, "permute", "self", 0),
                      _sizes_varargs(args, dims, "permute", "dims"))


cdef Tensor permute_backwards(Tensor grad, tuple dims):
    return op_permute(grad, inverse_permutation(dims))


cdef Tensor op_movedim(Tensor self, object source, object destination):
    """source and destination: tuples of dims of the same length."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data), k
    cdef tuple src = tuple(source), dst = tuple(destination)
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({shape_str(src)} dims) should "
            f"contain the same number of dims as destination ({shape_str(dst)} dims)")
    cdef tuple ws = tuple([wrap_dim(d, nd) for d in src])
    cdef tuple wd = tuple([wrap_dim(d, nd) for d in dst])
    if len(set(ws)) != len(ws):
        raise RuntimeError(f"movedim: repeated dim in `source` ({shape_str(src)})")
    if len(set(wd)) != len(wd):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({shape_str(dst)})")
    if nd == 0:
        return op_alias(self)
    cdef list order = [-1] * nd
    for k in range(len(ws)):
        order[wd[k]] = ws[k]
    rest = iter([k for k in range(nd) if k not in ws])
    for k in range(nd):
        if order[k] == -1:
            order[k] = next(rest)
    return op_permute(self, tuple(order))


cdef object _movedim_py(object input, object source, object destination, str fname):
    """movedim's two overloads: (int source, int destination) or two tuples."""
    cdef Tensor x = arg_tensor(input, fname, "input", 1)
    src_seq = isinstance(source, (list, tuple))
    if src_seq != isinstance(destination, (list, tuple)):
        raise TypeError(
            f"{fname}() received an invalid combination of arguments - got "
            f"({type(source).__name__}, {type(destination).__name__}), but expected one of:\n"
            " * (int source, int destination)\n * (tuple of ints source, tuple of ints destination)\n")
    if src_seq:
        return op_movedim(x, arg_int_sequence(source, fname, "source", 1),
                          arg_int_sequence(destination, fname, "destination", 2))
    return op_movedim(x, (arg_int(source, fname, "source", 1),),
                      (arg_int(destination, fname, "destination", 2),))


def _py_movedim(input, source, destination):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(source) is not Tensor and has_torch_function(source)) or (type(destination) is not Tensor and has_torch_function(destination)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_movedim, (input, source, destination, ), {})
    return _movedim_py(input, source, destination, "movedim")


def _py_moveaxis(input, source, destination):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(source) is not Tensor and has_torch_function(source)) or (type(destination) is not Tensor and has_torch_function(destination)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_moveaxis, (input, source, destination, ), {})
    return _movedim_py(input, source, destination, "moveaxis")


cdef Tensor op_alias(Tensor self):
    cdef Tensor result = make_view(self, self._data.view())
    record_AliasBackward0(result, self)
    return result


cdef cnp.ndarray _diagonal_values(cnp.ndarray x, Py_ssize_t offset, Py_ssize_t d1, Py_ssize_t d2):
    """A view of x's diagonal, writable when x is (numpy's diagonal views are read-only)."""
    cdef cnp.ndarray out = np.diagonal(x, offset, d1, d2)
    if cnp.PyArray_ISWRITEABLE(x):
        out.flags.writeable = True
    return out


cdef Tensor op_diagonal(Tensor self, object offset, object dim1, object dim2):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t d1 = wrap_dim(dim1, nd), d2 = wrap_dim(dim2, nd), k = offset
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    cdef Tensor result = make_view(self, _diagonal_values(self._data, k, d1, d2))
    record_DiagonalBackward0(result, self, k, d1, d2)
    return result


cdef Tensor op_diagonal_backward(Tensor grad_output, object input_sizes, object offset,
                                 object dim1, object dim2):
    """zeros(input_sizes) with grad_output on the diagonal."""
    cdef cnp.ndarray out = np.zeros(tuple(input_sizes), dtype=grad_output._data.dtype)
    _diagonal_values(out, offset, dim1, dim2)[...] = grad_output._data
    cdef Tensor result = make(out)
    record_DiagonalBackwardBackward0(result, grad_output, input_sizes, offset, dim1, dim2)
    return result


# ================================================================ broadcasting views

cdef cnp.ndarray _broadcast_values(cnp.ndarray x, tuple shape):
    """x expanded to shape, with PyTorch's strides (inferExpandGeometry): a broadcast dim
    gets stride 0 and a new dim of size 1 the stride of the dims after it (0 after the
    last, so a 0-d x expands to strides all 0). Built
    directly (numpy's broadcast_to costs several numpy calls, and expand is on the
    backward path of every reduction). Writes into it are checked by its strides
    (has_internal_overlap), as PyTorch's: one element of it may be written."""
    cdef int n = len(shape), nd = cnp.PyArray_NDIM(x), i, k
    cdef cnp.npy_intp dims[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp strides[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp size, stride
    if n > cnp.NPY_MAXDIMS:
        raise RuntimeError(f"expand: a tensor can have at most {cnp.NPY_MAXDIMS} dimensions")
    for i in range(n - 1, -1, -1):
        dims[i] = shape[i]
        k = i - (n - nd)
        if k >= 0:
            size = cnp.PyArray_DIM(x, k)
            stride = cnp.PyArray_STRIDE(x, k)
        else:
            size = 1
            # (x 0-d: every dim is new and of stride 0, as PyTorch's; a 0-d expand(1)
            # then shares the strides of a [0::2] of it: copy_ between them is no
            # partial overlap, fuzzer seed 610018)
            stride = dims[i + 1] * strides[i + 1] if i + 1 < n else 0
        if size != dims[i]:
            stride = 0
        strides[i] = stride
    return _strided_view(x, n, dims, strides, True)


cdef Tensor op_expand(Tensor self, object size):
    cdef tuple shape = shape_of(self._data), sizes = tuple(size)
    cdef Py_ssize_t nd = len(shape), n = len(sizes), i, k
    if n < nd:
        raise RuntimeError(
            f"expand({legacy_type_name(self)}{{{shape_str(shape)}}}, size={shape_str(sizes)}): the "
            f"number of sizes provided ({n}) must be greater or equal to the number of "
            f"dimensions in the tensor ({nd})")
    cdef list target = list(sizes)
    for i in range(n - 1, -1, -1):  # from the last dim, as PyTorch's (which error it names)
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
                f"{shape_str(sizes)}.  Tensor sizes: {shape_str(shape)}")
    cdef tuple t = tuple(target)
    if any(x < 0 for x in t):
        # PyTorch's size check multiplies the sizes as unsigned numbers
        raise RuntimeError("numel: integer multiplication overflow")
    cdef Tensor result = make_view(self, _broadcast_values(self._data, t))
    record_ExpandBackward0(result, self, t)
    return result


def _pym_expand(self, *sizes, size=None):
    """A view with dims of size 1 repeated (-1 keeps a dim; new dims go first).

    >>> import autograd_core as torch
    >>> torch.zeros(3, 1).expand(2, -1, 4).shape
    autograd_core.Size([2, 3, 4])
    """
    return OPS.expand(arg_tensor(self, "expand", "self", 0), _sizes_varargs(sizes, size, "expand"))


def _pym_broadcast_to(self, *args, size=None):
    """The tensor expanded (as a view) to the sizes given.

    >>> import autograd_core as torch
    >>> torch.zeros(1, 4).broadcast_to(3, 4).shape
    autograd_core.Size([3, 4])
    """
    return OPS.expand(arg_tensor(self, "broadcast_to", "self", 0),
                     _ints_varargs(args, size, "broadcast_to", "size"))


# ================================================================ repeat / tile / flip / roll

cdef Tensor op_repeat(Tensor self, object repeats):
    cdef tuple shape = shape_of(self._data), reps = tuple(repeats)
    cdef Py_ssize_t nd = len(shape), lead = len(reps) - nd, k
    if lead < 0:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    cdef tuple padded = (1,) * lead + shape
    cdef tuple target = tuple([padded[k] * reps[k] for k in range(len(reps))])
    for k in range(len(reps)):
        if target[k] < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {target[k]}: "
                               f"{shape_str(target)}")
    cdef Tensor result = make(as_contiguous(np.tile(self._data.reshape(padded), reps)) if reps
                              else as_contiguous(self._data.copy()))
    record_RepeatBackward0(result, self, reps)
    return result


def _pym_repeat(self, *args, repeats=None):
    """Tile the tensor: ``x.repeat(2, 1)`` stacks two copies along dim 0.

    >>> import autograd_core as torch
    >>> torch.tensor([1., 2.]).repeat(2)
    tensor([1., 2., 1., 2.])
    """
    return OPS.repeat(arg_tensor(self, "repeat", "self", 0),
                     _ints_varargs(args, repeats, "repeat", "repeats"))


cdef Tensor repeat_backward(Tensor grad, tuple repeats, tuple input_shape):
    """Sum the tiled copies of grad back onto one: grad viewed as (r0, s0, r1, s1, ...)
    and summed over the r's (and the new leading dims)."""
    cdef Py_ssize_t lead = len(repeats) - len(input_shape), k
    cdef tuple padded = (1,) * lead + input_shape
    cdef list inter = [], dims = []
    for k in range(len(repeats)):
        inter.append(repeats[k])
        inter.append(padded[k])
        dims.append(2 * k)
        if k < lead:
            dims.append(2 * k + 1)
    if not dims:
        return op_reshape(grad, input_shape)
    grad = OPS.sum(op_reshape(grad, tuple(inter)), tuple(dims), False, None)
    if shape_of(grad._data) != input_shape:
        grad = op_reshape(grad, input_shape)
    return grad


cdef Tensor op_tile(Tensor self, object dims):
    cdef tuple reps = tuple(dims)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if len(reps) < nd:
        reps = (1,) * (nd - len(reps)) + reps
    return op_repeat(self, reps)


def _pym_tile(self, *args, dims=None):
    """Repeat the tensor dims[k] times along dim k (missing leading dims count as 1).

    >>> import autograd_core as torch
    >>> torch.tensor([[1., 2.]]).tile(2).shape
    autograd_core.Size([1, 4])
    """
    return OPS.tile(arg_tensor(self, "tile", "self", 0), _ints_varargs(args, dims, "tile", "dims"))


# Note [Unsigned flip]
# PyTorch's flip kernel has no uint16/32/64 variant, yet it copies without it in two
# cases: nothing to reverse (no flipped dim of size > 1, or at most one element), and
# the "vertical flip" of its CPU kernel, a memcpy of rows taken when, in the order its
# TensorIterator walks the dims (sorted by the output's strides, then coalesced),
# the innermost dim is unflipped and contiguous and the next one is flipped.
# _flip_computes replays that walk (checked against PyTorch on random shapes, strides and
# dims); fliplr, flipud and rot90 are flips (rot90 as PyTorch spells it: one flip, then a
# transpose), so op_flip and op_rot90 make the one check (Note [Dtype guard]).
cdef bint _flip_computes(cnp.ndarray x, object flipped):
    cdef tuple shape = shape_of(x)
    cdef Py_ssize_t nd = len(shape), item = cnp.PyArray_ITEMSIZE(x), d, k
    strides = [s // item for s in (<object>x).strides]
    work = [d in flipped and shape[d] > 1 and strides[d] != 0 for d in range(nd)]
    if not any(work) or cnp.PyArray_SIZE(x) <= 1:
        return True  # (PyTorch copies)
    out = _preserved_strides(shape, strides)
    ops = [list(out), list(strides), [0 if work[d] else strides[d] for d in range(nd)]]
    perm = list(range(nd - 1, -1, -1))
    for k in range(1, nd):      # TensorIterator's reorder_dimensions (insertion sort)
        d1 = k
        for d0 in range(k - 1, -1, -1):
            c = _stride_order(ops, perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    sh = [shape[d] for d in perm]
    st = [[o[d] for d in perm] for o in ops]
    prev = 0
    for d in range(1, nd):      # and its coalesce_dimensions
        if sh[prev] == 1 or sh[d] == 1 or all([sh[prev] * o[prev] == o[d] for o in st]):
            if sh[prev] == 1:
                for o in st:
                    o[prev] = o[d]
            sh[prev] *= sh[d]
        else:
            prev += 1
            if prev != d:
                for o in st:
                    o[prev] = o[d]
                sh[prev] = sh[d]
    n = prev + 1 if nd else 0
    o_s, i_s, w_s = st
    rev = [w_s[d] == 0 and i_s[d] != 0 for d in range(n)]
    return (n > 1 and not rev[0] and rev[1] and i_s[0] == 1 and o_s[0] == 1)


cdef int _stride_order(list ops, Py_ssize_t d0, Py_ssize_t d1):
    for o in ops:
        a, b = o[d0], o[d1]
        if a == 0 or b == 0:
            continue
        if a != b:
            return -1 if a < b else 1
    return 0


cdef tuple _preserved_strides(tuple shape, list strides):
    """The strides (in elements) of empty_like(x): x's when x is non-overlapping and
    dense, else contiguous ones."""
    cdef Py_ssize_t nd = len(shape), d
    expected = 1
    dense = True
    for d in sorted(range(nd), key=lambda i: strides[i]):
        if shape[d] == 1:
            continue
        if strides[d] != expected:
            dense = False
            break
        expected *= shape[d]
    if dense:
        return tuple(strides)
    out = [0] * nd
    cur = 1
    for d in range(nd - 1, -1, -1):
        out[d] = cur
        cur *= max(shape[d], 1)
    return tuple(out)


cdef int _check_unsigned_flip(Tensor self, object flipped) except -1:
    """Raise PyTorch's flip error for a wide unsigned self whose flip PyTorch's kernel
    does not copy (Note [Unsigned flip])."""
    cdef cnp.ndarray x = self._data
    if is_guarded_array(x) and not cnp.PyArray_ISCOMPLEX(x) and not _flip_computes(x, flipped):
        refuse_complex("flip", self)
    return 0


cdef Tensor op_flip(Tensor self, object dims):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple wd = wrap_dims(tuple(dims), nd)
    _check_unsigned_flip(self, wd)
    # PyTorch's flip keeps the layout (empty_like)
    cdef cnp.ndarray out = empty_preserving(self._data, self._data.dtype)
    cdef Py_ssize_t i
    np.copyto(out, self._data[tuple([slice(None, None, -1) if i in wd else slice(None)
                                     for i in range(nd)])])
    cdef Tensor result = make(out)
    record_FlipBackward0(result, self, wd)
    return result


def _pym_flip(self, *args, dims=None):
    """Reverse the order of elements along the dims given (a copy).

    >>> import autograd_core as torch
    >>> torch.tensor([[1., 2.], [3., 4.]]).flip(0, 1)
    tensor([[4., 3.],
            [2., 1.]])
    """
    if complex_arg(self):   # (an unsigned self: op_flip, Note [Unsigned flip])
        check_complex_op("flip", self)  # Note [Dtype guard]
    return OPS.flip(arg_tensor(self, "flip", "self", 0), _ints_varargs(args, dims, "flip", "dims"))


cdef Tensor op_roll(Tensor self, object shifts, object dims):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple sh = tuple(shifts), ds = tuple(dims)
    if not sh:
        raise RuntimeError("`shifts` required")
    if not (len(ds) == 0 and len(sh) == 1) and len(sh) != len(ds):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:{len(ds)}")
    if nd == 0 and ds:
        raise IndexError(f"Dimension specified as {ds[0]} but tensor has no dimensions")
    cdef tuple wd = tuple([wrap_dim(d, nd) for d in ds])
    cdef cnp.ndarray x = self._data
    if cnp.PyArray_SIZE(x) == 0:
        out = x.copy()
    elif not wd:
        out = np.roll(x, sh[0])
    else:
        out = np.roll(x, sh, wd)
    cdef Tensor result = make(as_contiguous(out))
    record_RollBackward0(result, self, sh, wd)
    return result


cdef Tensor roll_backward(Tensor grad, tuple shifts, tuple dims):
    return op_roll(grad, tuple([-s for s in shifts]), dims)


# ================================================================ cat / stack

@cython.final
cdef class CatBackward0(Node):
    """Backward of cat (table entry cat: its inputs are a list): each input's gradient
    is its slice of grad, grad.narrow(dim, offset, size) (PyTorch's
    cat_tensors_backward); a skipped 1-D empty input gets an empty gradient."""
    cdef Py_ssize_t dim
    cdef tuple sizes            # each input's size along dim; -1: a skipped 1-D empty input

    cdef tuple apply(self, tuple grads):
        cdef Tensor grad = grads[0]
        cdef list out = []
        cdef Py_ssize_t offset = 0, i, n
        for i in range(len(self.sizes)):
            n = self.sizes[i]
            if n < 0:
                out.append(zeros((0,), dtype_of(grad._data)) if needs_input_grad(self, i) else None)
                continue
            out.append(op_narrow(grad, self.dim, offset, n) if needs_input_grad(self, i) else None)
            offset += n
        return tuple(out)

    @property
    def _saved_dim(self):
        return self.dim


cdef inline bint _is_legacy_empty(cnp.ndarray x):
    """A 1-D empty tensor, which cat skips whatever the other shapes (PyTorch's legacy)."""
    return cnp.PyArray_NDIM(x) == 1 and cnp.PyArray_DIM(x, 0) == 0


cdef void _set_cast_meta(Node node, list tensors, dtype rt):
    """The engine casts an input's gradient back to the input's dtype (promoted joins)."""
    cdef list metas = None
    cdef Tensor t
    cdef Py_ssize_t i
    for i in range(len(tensors)):
        t = tensors[i]
        if dtype_of(t._data) is not rt:
            if metas is None:
                metas = [None] * len(tensors)
            metas[i] = (shape_of(t._data), dtype_of(t._data))
    if metas is not None:
        set_input_meta(node, tuple(metas))


cdef Tensor op_cat(list tensors, object dim):
    if not tensors:
        raise ValueError("autograd_core.cat(): expected a non-empty list of Tensors")
    cdef Tensor t, ref = None
    cdef Py_ssize_t i, k
    for i in range(len(tensors)):
        if cnp.PyArray_NDIM((<Tensor>tensors[i])._data) == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    for t in tensors:
        if not _is_legacy_empty(t._data):
            ref = t
            break
    if ref is None:
        ref = tensors[0]
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(ref._data)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef tuple rshape = shape_of(ref._data), shape
    cdef dtype rt = result_type_of_tensors(tensors)
    cdef list arrays = [], sizes = []
    for i in range(len(tensors)):
        t = tensors[i]
        if _is_legacy_empty(t._data) and t is not ref:
            sizes.append(-1)
            continue
        if cnp.PyArray_NDIM(t._data) != nd:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {nd} and "
                               f"{cnp.PyArray_NDIM(t._data)}")
        shape = shape_of(t._data)
        for k in range(nd):
            if k != d and shape[k] != rshape[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{rshape[k]} but got size {shape[k]} for tensor number {i} in the list.")
        arrays.append(cast_array(t._data, rt))
        sizes.append(shape[d])
    cdef Py_ssize_t total = 0
    for k in sizes:
        if k > 0:
            total += k
    out = _joined(arrays, d, rshape[:d] + (total,) + rshape[d + 1:], rt)
    # PyTorch's cat writes the memory format all its inputs suggest (channels-last when
    # each is), else contiguous (compute_output_memory_format)
    fmt = suggested_format(arrays[0])
    for a in arrays:
        if suggested_format(a) != fmt:
            fmt = 0
            break
    if fmt:
        out = in_suggested_format(out, arrays[0])
    cdef Tensor result = make(out)
    if fw_active():
        _fw_join(result, tensors, d, False)
    cdef tuple inputs = tuple(tensors)
    cdef CatBackward0 node
    if should_record(inputs, result._data, "cat"):
        node = CatBackward0.__new__(CatBackward0)
        node.dim = d
        node.sizes = tuple(sizes)
        record(node, result, inputs)
        _set_cast_meta(node, tensors, rt)
    return result


@cython.final
cdef class StackBackward0(Node):
    """Backward of stack (table entry stack: its inputs are a list): input i's gradient
    is grad.select(dim, i) (PyTorch's stack_tensors_backward)."""
    cdef Py_ssize_t dim

    cdef tuple apply(self, tuple grads):
        cdef Tensor grad = grads[0]
        cdef Py_ssize_t i
        return tuple([op_select(grad, self.dim, i) if needs_input_grad(self, i) else None
                      for i in range(n_edges(self))])

    @property
    def _saved_dim(self):
        return self.dim


cdef Tensor op_stack(list tensors, object dim):
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    cdef Tensor t, first = tensors[0]
    cdef tuple shape = shape_of(first._data)
    cdef Py_ssize_t i
    for i in range(len(tensors)):
        t = tensors[i]
        if shape_of(t._data) != shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {shape_str(shape)} at "
                f"entry 0 and {shape_str(shape_of(t._data))} at entry {i}")
    cdef Py_ssize_t d = wrap_dim(dim, len(shape) + 1)
    cdef dtype rt = result_type_of_tensors(tensors)
    cdef tuple unit = shape[:d] + (1,) + shape[d:]
    cdef Tensor result = make(_joined([cast_array(t._data, rt).reshape(unit) for t in tensors],
                                      d, shape[:d] + (len(tensors),) + shape[d:], rt))
    if fw_active():
        _fw_join(result, tensors, d, True)
    cdef tuple inputs = tuple(tensors)
    cdef StackBackward0 node
    if should_record(inputs, result._data, "stack"):
        node = StackBackward0.__new__(StackBackward0)
        node.dim = d
        record(node, result, inputs)
        _set_cast_meta(node, tensors, rt)
    return result


# ================================================================ multi-output views

cdef tuple _grads_or_zeros(tuple grads, tuple shapes):
    """The outputs' gradients, zeros for those that got none (the unused outputs);
    None when no output got one."""
    cdef Tensor ref = None
    for g in grads:
        if g is not None:
            ref = g
            break
    if ref is None:
        return None
    cdef dtype dt = dtype_of(ref._data)
    cdef Py_ssize_t i
    return tuple([grads[i] if i < len(grads) and grads[i] is not None else zeros(shapes[i], dt)
                  for i in range(len(shapes))])


cdef void _mark_multi_output(tuple views, Tensor base) noexcept:
    """The outputs of an op returning several views may not be written in place while
    recording (PyTorch's CreationMeta::MULTI_OUTPUT_NODE)."""
    if grad_enabled() and not inference_mode_enabled():
        for v in views:
            set_creation_meta(<Tensor>v, base, CM_MULTI_OUTPUT_NODE)


cdef Tensor unbind_backward(tuple grads, tuple output_shape, Py_ssize_t n, Py_ssize_t dim):
    cdef tuple parts = _grads_or_zeros(grads, (output_shape,) * n)
    return None if parts is None else op_stack(list(parts), dim)


@cython.final
cdef class UnbindBackward0(Node):
    """Backward of unbind (table entry unbind: one node for all its output views): the
    outputs' gradients stacked, zeros for the unused ones."""
    cdef Py_ssize_t dim
    cdef Py_ssize_t n
    cdef tuple output_shape

    cdef int num_outputs(self) noexcept:
        return <int>self.n

    cdef tuple apply(self, tuple grads):
        return (unbind_backward(grads, self.output_shape, self.n, self.dim),)

    @property
    def _saved_dim(self):
        return self.dim


cdef tuple op_unbind(Tensor self, object dim):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    if nd == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    cdef Py_ssize_t d = wrap_dim(dim, nd), i, n = cnp.PyArray_DIM(x, d)
    cdef tuple outs = tuple([make_view(self, as_array(x[_along(d, i)])) for i in range(n)])
    _mark_multi_output(outs, self)
    if fw_active():
        st = fw_grad_of(self)
        if st is not None and is_grad_array(x):
            with FwSuspend():
                for i in range(n):
                    fw_finish(<Tensor>outs[i], OPS.select(<Tensor>st, d, i))
    cdef UnbindBackward0 node
    if should_record((self,), x, "unbind"):
        node = UnbindBackward0.__new__(UnbindBackward0)
        node.dim = d
        node.n = n
        node.output_shape = shape_of(x)[:d] + shape_of(x)[d + 1:]
        record_outputs(node, outs, (self,))
    return outs


cdef Tensor split_with_sizes_backward(tuple grads, tuple split_sizes, Py_ssize_t dim,
                                      tuple input_shape):
    """The outputs' gradients joined back along dim, zeros for the unused ones."""
    cdef Py_ssize_t i
    cdef tuple shapes = tuple([input_shape[:dim] + (split_sizes[i],) + input_shape[dim + 1:]
                               for i in range(len(split_sizes))])
    cdef tuple parts = _grads_or_zeros(grads, shapes)
    return None if parts is None else op_cat(list(parts), dim)


cdef class _SplitNode(Node):
    """What the backward of split and of split_with_sizes share: one node for all the
    output views, whose gradients are joined back along dim."""
    cdef Py_ssize_t dim
    cdef tuple sizes             # each output's size along dim
    cdef tuple input_shape

    cdef int num_outputs(self) noexcept:
        return <int>len(self.sizes)

    cdef tuple apply(self, tuple grads):
        return (split_with_sizes_backward(grads, self.sizes, self.dim, self.input_shape),)

    @property
    def _saved_dim(self):
        return self.dim


cdef class _SplitSizeNode(_SplitNode):
    """The node of a split by one size (split, unsafe_split, split_copy)."""
    cdef Py_ssize_t split_size

    @property
    def _saved_split_size(self):
        return self.split_size


cdef class _SplitSizesNode(_SplitNode):
    """The node of a split by a list of sizes (split_with_sizes and its twins)."""

    @property
    def _saved_split_sizes(self):
        return self.sizes


@cython.final
cdef class SplitBackward0(_SplitSizeNode):
    """Backward of split (table entry split)."""


@cython.final
cdef class SplitWithSizesBackward0(_SplitSizesNode):
    """Backward of split_with_sizes (table entry split_with_sizes)."""


@cython.final
cdef class UnsafeSplitBackward0(_SplitSizeNode):
    """Backward of unsafe_split (table entry unsafe_split)."""


@cython.final
cdef class UnsafeSplitWithSizesBackward0(_SplitSizesNode):
    """Backward of unsafe_split_with_sizes (table entry unsafe_split_with_sizes)."""


@cython.final
cdef class SplitBackward0_copy(_SplitSizeNode):
    """Backward of split_copy (table entry split_copy)."""


@cython.final
cdef class SplitWithSizesBackward0_copy(_SplitSizesNode):
    """Backward of split_with_sizes_copy (table entry split_with_sizes_copy)."""


# what the split ops return: views, pieces not tracked as views (unsafe_*), copies (*_copy)
cdef enum:
    PIECES_VIEWS = 0
    PIECES_UNSAFE = 1
    PIECES_COPIES = 2


cdef _SplitNode _split_node(int kind, Py_ssize_t split_size):
    """The node of a split op: by what it returns, and split (split_size >= 0) or
    split_with_sizes (split_size -1)."""
    cdef _SplitNode node
    if split_size < 0:
        node = (SplitWithSizesBackward0.__new__(SplitWithSizesBackward0) if kind == PIECES_VIEWS
                else UnsafeSplitWithSizesBackward0.__new__(UnsafeSplitWithSizesBackward0)
                if kind == PIECES_UNSAFE
                else SplitWithSizesBackward0_copy.__new__(SplitWithSizesBackward0_copy))
    else:
        node = (SplitBackward0.__new__(SplitBackward0) if kind == PIECES_VIEWS
                else UnsafeSplitBackward0.__new__(UnsafeSplitBackward0)
                if kind == PIECES_UNSAFE
                else SplitBackward0_copy.__new__(SplitBackward0_copy))
        (<_SplitSizeNode>node).split_size = split_size
    return node


cdef tuple _split_views(Tensor self, Py_ssize_t d, tuple sizes, Py_ssize_t split_size,
                        int kind):
    """The pieces of self along d of the given sizes (views, untracked aliases or copies
    by kind), with one node for all of them (_split_node)."""
    cdef cnp.ndarray x = self._data
    cdef list outs = []
    cdef Py_ssize_t start = 0, i
    for i in range(len(sizes)):
        piece = as_array(x[_along(d, slice(start, start + sizes[i]))])
        if kind == PIECES_VIEWS:
            outs.append(make_view(self, piece))
        elif kind == PIECES_UNSAFE:
            outs.append(make(piece))
        else:
            outs.append(make(as_contiguous(piece.copy())))
        start += sizes[i]
    cdef tuple views = tuple(outs)
    if fw_active():
        _fw_pieces(self, views, d, sizes)
    if kind == PIECES_VIEWS:
        _mark_multi_output(views, self)
    cdef _SplitNode node
    if should_record((self,), x, "split"):
        node = _split_node(kind, split_size)
        node.dim = d
        node.sizes = sizes
        node.input_shape = shape_of(x)
        record_outputs(node, views, (self,))
    return views


cdef tuple _split(Tensor self, object split_size, object dim, int kind):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if nd == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    cdef Py_ssize_t s = split_size
    if s < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={s}")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n = cnp.PyArray_DIM(self._data, d)
    if s == 0 and n != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {n}")
    cdef Py_ssize_t num = 1
    if s != 0:
        num = (n + s - 1) // s
        if num < 1:
            num = 1
    return _split_views(self, d, tuple([s] * (num - 1) + [s - (s * num - n)]), s, kind)


cdef tuple _split_with_sizes(Tensor self, object split_sizes, object dim, int kind):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple sizes = tuple(split_sizes)
    if nd == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n = cnp.PyArray_DIM(self._data, d)
    for s in sizes:
        if s < 0:
            raise RuntimeError("split_with_sizes expects split_sizes have only non-negative "
                               f"entries, but got split_sizes={shape_str(sizes)}")
    if builtins.sum(sizes) != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input "
                           f"tensor's size at dimension {dim}), but got split_sizes="
                           f"{shape_str(sizes)}")
    return _split_views(self, d, sizes, -1, kind)


cdef tuple _chunk(Tensor self, object chunks, object dim, int kind):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if nd == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    cdef Py_ssize_t c = chunks
    if c <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {c}")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n = cnp.PyArray_DIM(self._data, d)
    cdef Py_ssize_t s = (n + c - 1) // c
    if s == 0 and n == 0:
        return _split_with_sizes(self, (0,) * c, d, kind)
    return _split(self, s, d, kind)


def _py_split(tensor, split_size_or_sections, dim=0):
    """torch.split: PyTorch's Python function, which hands its arguments on to
    Tensor.split (a non-tensor has no such method: AttributeError)."""
    if (type(tensor) is not Tensor and has_torch_function(tensor)) or (type(split_size_or_sections) is not Tensor and has_torch_function(split_size_or_sections)) or (type(dim) is not Tensor and has_torch_function(dim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi; _VF.split's parser
        # consults every argument)
        return handle_torch_function(_py_split, (tensor, split_size_or_sections, dim, ), {})
    if not isinstance(tensor, Tensor):
        raise AttributeError(f"'{type(tensor).__name__}' object has no attribute 'split'")
    return _split_method(<Tensor>tensor, split_size_or_sections, dim)


def _pym_split(self, split_size, dim=0):
    """Split into views of ``split_size`` along dim (the last may be smaller), or into
    pieces of the listed sizes (Tensor.split; torch.split names its argument
    split_size_or_sections).

    >>> import autograd_core as torch
    >>> [t.shape[0] for t in torch.zeros(5, 2).split(2)]
    [2, 2, 1]
    """
    if (type(self) is not Tensor and has_torch_function(self)) or (type(split_size) is not Tensor and has_torch_function(split_size)) or (type(dim) is not Tensor and has_torch_function(dim)):
        return handle_torch_function(_pym_split, (self, split_size, dim, ), {})
    return _split_method(arg_tensor(self, "split", "self", 0), split_size, dim)


cdef str _SPLIT_SIGNATURES = (" * (Tensor input, int split_size, int dim = 0)\n{}\n"
                              " * (Tensor input, tuple of ints split_size, int dim = 0)\n{}")


cdef bint _int_arg_ok(object x):
    """Whether PyTorch's overloaded parser takes x as an int (bool is no int there)."""
    return type(x) is not bool and not isinstance(x, float) and hasattr(x, "__index__")


cdef tuple _split_method(Tensor x, object split_size, object dim):
    """PyTorch's Tensor.split: a tensor split_size is read as an int where it can be;
    an int goes to the split overloads (int split_size), anything else to
    split_with_sizes, with their argument errors."""
    if isinstance(split_size, Tensor):
        try:
            split_size = int(split_size)
        except ValueError:
            pass
    if isinstance(split_size, int):
        if type(split_size) is bool or not _int_arg_ok(dim):
            # neither overload of split takes the arguments: PyTorch's parser marks each
            # argument it refuses and each one given for a parameter with a default (Note
            # [stft's argument errors] in _stft.py)
            names = ["Tensor", type(split_size).__name__,
                     "Tensor" if isinstance(dim, Tensor) else type(dim).__name__]
            ok_size = type(split_size) is not bool
            first = ", ".join([names[0], names[1] if ok_size else f"!{names[1]}!",
                               f"!{names[2]}!"])
            second = ", ".join([names[0], f"!{names[1]}!", f"!{names[2]}!"])
            bad = "      didn't match because some of the arguments have invalid types: "
            raise type_error_combination(
                "split", (x, split_size, dim),
                _SPLIT_SIGNATURES.format(bad + f"({first})", bad + f"({second})"))
        return OPS.split(x, arg_int(split_size, "split", "split_size", 2),
                         arg_int(dim, "split", "dim", 3))
    return OPS.split_with_sizes(
        x, arg_int_sequence(split_size, "split_with_sizes", "split_sizes", 2),
        arg_int(dim, "split_with_sizes", "dim", 3))


# ---------------------------------------------------------------- tensor_split and co

cdef tuple op_tensor_split(Tensor self, object indices_or_sections, object dim):
    """PyTorch's tensor_split: `sections` pieces of (nearly) equal size, or the pieces
    between the given indices, each a slice of self along dim."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data), i, n, start, size, extra
    if nd == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef object ios = indices_or_sections
    cdef Tensor t
    if isinstance(ios, Tensor):
        t = ios
        if cnp.PyArray_NDIM(t._data) > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a "
                               "zero-dimensional or one-dimensional tensor, but got a tensor with "
                               f"{cnp.PyArray_NDIM(t._data)} dims")
        if dtype_of(t._data) is not int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {dtype_of(t._data).scalar_name}")
        ios = int(t._data) if cnp.PyArray_NDIM(t._data) == 0 else t._data.tolist()
    cdef list out = []
    if isinstance(ios, (list, tuple)):
        indices = arg_int_sequence(ios, "tensor_split", "indices", 1)
        start = 0
        for i in indices:
            out.append(op_slice(self, d, start, i, 1))
            start = i
        out.append(op_slice(self, d, start, None, 1))
        return tuple(out)
    cdef Py_ssize_t sections = arg_int(ios, "tensor_split", "sections", 1)
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    n = cnp.PyArray_DIM(self._data, d)
    size = n // sections
    extra = n % sections
    start = 0
    for i in range(sections):
        out.append(op_slice(self, d, start, start + size + (1 if i < extra else 0), 1))
        start += size + (1 if i < extra else 0)
    return tuple(out)


def _py_tensor_split(input, indices_or_sections, dim=0):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(indices_or_sections) is not Tensor and has_torch_function(indices_or_sections)) or (type(dim) is not Tensor and has_torch_function(dim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_tensor_split, (input, indices_or_sections, dim, ), {})
    cdef Tensor x = arg_tensor(input, "tensor_split", "input", 1)
    return OPS.tensor_split(x, indices_or_sections, arg_int(dim, "tensor_split", "dim", 2))


cdef tuple _split_along(Tensor self, object indices_or_sections, str fname, int min_dims,
                        Py_ssize_t dim):
    """hsplit/vsplit/dsplit: tensor_split along dim, sections dividing its size."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if nd < min_dims:
        raise RuntimeError(f"autograd_core.{fname} requires a tensor with at least {min_dims} dimension, "
                           f"but got a tensor with {nd} dimensions!")
    if not isinstance(indices_or_sections, (list, tuple, Tensor)):
        s = arg_int(indices_or_sections, fname, "sections", 1)
        n = cnp.PyArray_DIM(self._data, dim)
        if s == 0 or n % s != 0:
            raise RuntimeError(f"autograd_core.{fname} attempted to split along dimension {dim}, but the "
                               f"size of the dimension {n} is not divisible by the split_size "
                               f"{s}!")
        indices_or_sections = s
    return op_tensor_split(self, indices_or_sections, dim)


cdef tuple op_hsplit(Tensor self, object indices_or_sections):
    return _split_along(self, indices_or_sections, "hsplit", 1,
                        1 if cnp.PyArray_NDIM(self._data) > 1 else 0)


def _py_hsplit(input, indices_or_sections):
    return OPS.hsplit(arg_tensor(input, "hsplit", "input", 1), indices_or_sections)


def _py_vsplit(input, indices_or_sections):
    return OPS.vsplit(arg_tensor(input, "vsplit", "input", 1), indices_or_sections)


def _py_dsplit(input, indices_or_sections):
    return OPS.dsplit(arg_tensor(input, "dsplit", "input", 1), indices_or_sections)


# ================================================================ selecting views

cdef Tensor op_narrow(Tensor self, object dim, object start, object length):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t st = start, ln = length
    if nd == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if ln < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n = cnp.PyArray_DIM(self._data, d)
    if st != n:
        if st < -n or st > n:
            raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but "
                             f"got {st})")
        if st < 0:
            st += n
    if st + ln > n:
        raise RuntimeError(f"start ({st}) + length ({ln}) exceeds dimension size ({n}).")
    return op_slice(self, d, st, st + ln, 1)


def _py_narrow(input, dim, start, length):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(start) is not Tensor and has_torch_function(start)) or (type(length) is not Tensor and has_torch_function(length)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_narrow, (input, dim, start, length, ), {})
    cdef Tensor x = arg_tensor(input, "narrow", "input", 1)
    if isinstance(start, Tensor):  # narrow.Tensor: a 0-d integral start
        if cnp.PyArray_NDIM((<Tensor>start)._data) != 0 or \
                dtype_of((<Tensor>start)._data).category != CAT_INT:
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int((<Tensor>start)._data)
    return OPS.narrow(x, arg_int(dim, "narrow", "dim", 2), arg_int(start, "narrow", "start", 3),
                     arg_int(length, "narrow", "length", 4))


cdef Tensor op_slice(Tensor self, object dim, object start, object end, object step):
    """self[..., start:end:step, ...] along dim, PyTorch's slice: start and end clamped
    into the dim, step positive."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if nd == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    cdef Py_ssize_t d = wrap_dim(dim, nd), n = cnp.PyArray_DIM(self._data, d)
    cdef Py_ssize_t sp = step
    if sp <= 0:
        raise RuntimeError("slice step must be positive")
    cdef Py_ssize_t s = 0 if start is None else start, e = n if end is None else end
    if s < 0:
        s += n
    if e < 0:
        e += n
    s = 0 if s < 0 else (n if s > n else s)
    e = s if e < s else (n if e > n else e)
    cdef Tensor result = make_view(self, as_array(self._data[_along(d, slice(s, e, sp))]))
    record_SliceBackward0(result, self, d, s, e, sp)
    return result


cdef Tensor _zeros_with_at(Tensor grad_output, object input_sizes, tuple key):
    """zeros(input_sizes) with grad_output's values at key (the backward of a selecting
    view)."""
    cdef cnp.ndarray out = np.zeros(tuple(input_sizes), dtype=grad_output._data.dtype)
    out[key] = grad_output._data
    return make(out)


cdef Tensor op_slice_backward(Tensor grad_output, object input_sizes, object dim, object start,
                              object end, object step):
    """zeros(input_sizes) with grad_output at [start:end:step] along dim."""
    cdef Tensor result = _zeros_with_at(grad_output, input_sizes,
                                        _along(dim, slice(start, end, step)))
    record_SliceBackwardBackward0(result, grad_output, input_sizes, dim, start, end, step)
    return result


cdef Tensor op_select(Tensor self, object dim, object index):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t i = index
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n = cnp.PyArray_DIM(self._data, d)
    if i < -n or i >= n:
        raise IndexError(f"select(): index {i} out of range for tensor of size "
                         f"{shape_str(shape_of(self._data))} at dimension {d}")
    if i < 0:
        i += n
    cdef Tensor result = make_view(self, as_array(self._data[_along(d, i)]))
    record_SelectBackward0(result, self, d, i)
    return result


cdef Tensor op_select_backward(Tensor grad_output, object input_sizes, object dim, object index):
    """zeros(input_sizes) with grad_output at index along dim."""
    cdef Tensor result = _zeros_with_at(grad_output, input_sizes, _along(dim, index))
    record_SelectBackwardBackward0(result, grad_output, input_sizes, dim, index)
    return result


# ================================================================ in-place view ops

cdef Tensor _restride_(Tensor self, cnp.ndarray values):
    """Give self the view `values` of its own memory (an in-place view op); returns
    the source of its old history to record the op's node on, or None when nothing
    records (Note [In-place ops])."""
    check_inference_inplace(self)
    cdef Tensor src = inplace_source(self, ())
    keep_counter(self)  # before its memory changes: Note [Counters made by the node]
    cdef cnp.ndarray old = self._data
    self._data = values
    bump_version(self)  # a view op rebinds, writes no values: see Note [In-place ops]
    if fw_active():
        _fw_restride(self, old, values)
    if src is self:
        return None
    self._output_nr = 0  # the node the caller records is self's history now
    return src


cdef Tensor op_unsqueeze_(Tensor self, object dim):
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(self._data) + 1)
    cdef Tensor src = _restride_(self, _unsqueeze_values(self._data, <int>d))
    if src is not None:
        record_UnsqueezeBackward1(self, src, d)
        _inplace_view_done(self)
    return self


cdef Tensor op_transpose_(Tensor self, object dim0, object dim1):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef Py_ssize_t d0 = wrap_dim(dim0, nd), d1 = wrap_dim(dim1, nd)
    cdef Tensor src = _restride_(self, self._data.swapaxes(d0, d1) if nd else self._data.view())
    if src is not None:
        record_TransposeBackward1(self, src, d0, d1)
        _inplace_view_done(self)
    return self


cdef Tensor op_t_(Tensor self):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if nd > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {nd}D")
    cdef Tensor src = _restride_(self, self._data.T)
    if src is not None:
        record_TBackward1(self, src)
        _inplace_view_done(self)
    return self


cdef cnp.ndarray _as_strided_values(Tensor self, tuple size, tuple stride, object offset):
    """The array as_strided(size, stride, storage_offset) gives: a view of the memory of
    self's root tensor (its storage here), with PyTorch's checks and messages."""
    cdef Tensor root = self._base if self._base is not None else self
    cdef cnp.ndarray rd = root._data
    cdef Py_ssize_t item = cnp.PyArray_ITEMSIZE(rd), i, n = len(size), required = 1
    cdef cnp.npy_intp dims[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp strides[cnp.NPY_MAXDIMS]
    for i in range(cnp.PyArray_NDIM(rd)):
        if cnp.PyArray_STRIDE(rd, i) < 0:
            raise RuntimeError("as_strided of a tensor whose memory is in reverse order is not "
                               "supported by autograd_core")
    if not is_non_overlapping_and_dense(rd):
        raise RuntimeError("as_strided of a tensor whose memory is not dense is not supported "
                           "by autograd_core")
    if n != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if n > cnp.NPY_MAXDIMS:
        raise RuntimeError(f"as_strided: a tensor can have at most {cnp.NPY_MAXDIMS} dimensions")
    for st in stride:
        if st < 0:
            raise RuntimeError("as_strided: Negative strides are not supported at the moment, "
                               f"got strides: {list(stride)}")
    for sz in size:
        if sz < 0:
            raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                               f"strides={list(stride)}")
    cdef Py_ssize_t off = ((<char *>cnp.PyArray_DATA(self._data) - <char *>cnp.PyArray_DATA(rd))
                           // item if offset is None else offset)
    if off < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {off}")
    for i in range(n):
        if size[i] == 0:
            required = 0
            break
        required += (size[i] - 1) * stride[i]
    if required and off + required > cnp.PyArray_SIZE(rd):
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {off}, and "
            f"itemsize {item} requiring a storage size of {(off + required) * item} are out of "
            f"bounds for storage of size {cnp.PyArray_SIZE(rd) * item}")
    for i in range(n):
        dims[i] = size[i]
        strides[i] = stride[i] * item
    return strided_array_over(rd, <cnp.dtype>cnp.PyArray_DESCR(rd), n, dims, strides,
                              <char *>cnp.PyArray_DATA(rd) + (off * item if required else 0),
                              True)


cdef Py_ssize_t _storage_offset_of(Tensor self, object offset):
    cdef Tensor root = self._base if self._base is not None else self
    if offset is not None:
        return offset
    return ((<char *>cnp.PyArray_DATA(self._data) - <char *>cnp.PyArray_DATA(root._data))
            // cnp.PyArray_ITEMSIZE(self._data))


cdef Tensor op_as_strided(Tensor self, object size, object stride, object storage_offset):
    cdef tuple sz = tuple(size), st = tuple(stride)
    cdef cnp.ndarray values = _as_strided_values(self, sz, st, storage_offset)
    cdef Tensor result = make_view(self, values)
    if fw_active():  # Note [Forward AD]: the same as_strided of the tangent
        t = fw_grad_of(self)
        if t is not None and is_grad_array(values):
            with FwSuspend():
                fw_finish(result, op_as_strided(<Tensor>t, size, stride, storage_offset))
    if recording() and requires_grad_of(self):
        record_as_strided(result, self, region_within(values, self), sz, st,
                          _storage_offset_of(self, storage_offset), False)
    return result


cdef Tensor op_as_strided_(Tensor self, object size, object stride, object storage_offset):
    cdef tuple sz = tuple(size), st = tuple(stride)
    cdef cnp.ndarray values = _as_strided_values(self, sz, st, storage_offset)
    cdef Py_ssize_t off = _storage_offset_of(self, storage_offset)
    cdef cnp.ndarray region = None
    cdef Tensor src = inplace_source(self, ())
    if src is not self:
        region = region_within(values, self)
    keep_counter(self)  # before its memory changes: Note [Counters made by the node]
    self._data = values
    bump_version(self)  # a view op rebinds, writes no values: see Note [In-place ops]
    if fw_active():  # Note [Forward AD]: the tangent is restrided in place too
        t = fw_grad_of(self)
        if t is not None:
            with FwSuspend():
                op_as_strided_(<Tensor>t, size, stride, storage_offset)
    if src is not self:
        self._output_nr = 0
        record_as_strided(self, src, region, sz, st, off, True)
        _inplace_view_done(self)
    return self


# ================================================================ unfold

cdef Tensor op_unfold(Tensor self, object dimension, object size, object step):
    cdef cnp.ndarray x = self._data
    cdef int nd = cnp.PyArray_NDIM(x), i
    cdef Py_ssize_t d = wrap_dim(dimension, nd if nd else 1), sz = size, st = step
    cdef Py_ssize_t n = cnp.PyArray_DIM(x, d) if nd else 1
    if sz > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {sz}")
    if st <= 0:
        raise RuntimeError(f"step is {st} but must be > 0")
    if sz < 0:
        raise RuntimeError(f"size is {sz} but must be >= 0")
    cdef cnp.npy_intp dims[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp strides[cnp.NPY_MAXDIMS]
    if nd == 0:
        dims[0] = sz
        strides[0] = cnp.PyArray_ITEMSIZE(x)
        out = _strided_view(x, 1, dims, strides, True)
    else:
        if nd + 1 > cnp.NPY_MAXDIMS:
            raise RuntimeError(f"unfold: a tensor can have at most {cnp.NPY_MAXDIMS} dimensions")
        for i in range(nd):
            dims[i] = cnp.PyArray_DIM(x, i)
            strides[i] = cnp.PyArray_STRIDE(x, i)
        dims[d] = (n - sz) // st + 1
        strides[d] = cnp.PyArray_STRIDE(x, d) * st
        dims[nd] = sz
        strides[nd] = cnp.PyArray_STRIDE(x, d)
        out = _strided_view(x, nd + 1, dims, strides, True)
    cdef Tensor result = make_view(self, <cnp.ndarray>out)
    record_UnfoldBackward0(result, self, d, sz, st)
    return result


cdef Tensor op_unfold_backward(Tensor grad_in, object input_sizes, object dim, object size,
                               object step):
    """zeros(input_sizes) with each window of grad_in added back where unfold took it."""
    cdef tuple shape = tuple(input_sizes)
    cdef cnp.ndarray g = grad_in._data
    cdef cnp.ndarray out = np.zeros(shape, dtype=g.dtype)
    cdef Py_ssize_t d = dim, sz = size, st = step, k
    if len(shape) == 0:
        if sz:
            out[...] = g.reshape(-1)[0]
    else:
        with quiet():
            for k in range(g.shape[d]):
                out[_along(d, slice(k * st, k * st + sz))] += np.moveaxis(g[_along(d, k)], -1, d)
    cdef Tensor result = make(out)
    record_UnfoldBackwardBackward0(result, grad_in, input_sizes, dim, size, step)
    return result


# ================================================================ complex views

cdef Tensor contiguous_of(Tensor t):
    """t in contiguous memory (PyTorch's contiguous(): t itself when it is), as
    view_as_real/view_as_complex's gradients take it."""
    if cnp.PyArray_IS_C_CONTIGUOUS(t._data):
        return t
    return OPS.clone(t, _contiguous_format)



cdef Tensor op_conj(Tensor self):
    if cnp.PyArray_ISCOMPLEX(self._data):
        result = <Tensor>_lazy_view(self, LAZY_CONJ)
        record_ConjBackward0(result, self)
        return result
    return self


cdef Tensor conj_view_backward(Tensor grad):
    """ConjBackward0's gradient: grad's conj view, as PyTorch's grad.conj() (a gradient
    reaching AccumulateGrad, a hook or autograd.grad through it has is_conj(), as
    PyTorch's: Note [Conjugate and negative views])."""
    return OPS.conj(grad)


cdef Tensor op__neg_view(Tensor self):
    check_not_bool_kernel(dtype_of(self._data), "neg_cpu")
    cdef Tensor result = <Tensor>_lazy_view(self, LAZY_NEG)
    record_NegViewBackward0(result, self)
    return result


def _regenerate_lazy_view(Tensor out, cnp.ndarray source, int bits):
    """out's history read afresh (Note [View + in-place]) when out is a conj/neg view:
    out already holds the as_strided history of `source` (the memory it mirrors); its
    own ConjBackward0 / NegViewBackward0 goes on top, as PyTorch's view replay."""
    cdef Node node
    cdef Tensor src
    for bit in (LAZY_NEG, LAZY_CONJ):
        if not bits & bit:
            continue
        src = make(source)
        src._grad_fn = out._grad_fn
        src._output_nr = out._output_nr
        src._requires_grad = True
        node = (ConjBackward0.__new__(ConjBackward0) if bit == LAZY_CONJ
                else NegViewBackward0.__new__(NegViewBackward0))
        record(node, out, (src,))
        out._output_nr = 0
    return out._grad_fn


_set_lazy_view_regenerator(_regenerate_lazy_view)


cdef Tensor op_conj_physical(Tensor self):
    if not cnp.PyArray_ISCOMPLEX(self._data):
        return self
    cdef Tensor result = make(as_array(np.conjugate(self._data)))  # (0-d stays 0-d)
    record_ConjPhysicalBackward0(result, self)
    return result


cdef Tensor op_resolve_conj(Tensor self):
    if _lazy_bits(self) & LAZY_CONJ:
        return OPS.clone(self, None)    # (new memory: no bit; CloneBackward0, as PyTorch's)
    return self


cdef Tensor op_resolve_neg(Tensor self):
    if _lazy_bits(self) & LAZY_NEG:
        return OPS.clone(self, None)
    return self


cdef Tensor op_real(Tensor self):
    if cnp.PyArray_ISCOMPLEX(self._data):
        # PyTorch's real: the select of view_as_real (SelectBackward0 under autograd)
        return op_select(_view_as_real(self), -1, 0)
    return self


cdef Tensor op_imag(Tensor self):
    if cnp.PyArray_ISCOMPLEX(self._data):
        return op_select(_view_as_real(self), -1, 1)
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


cdef Tensor op_view_as_real(Tensor self):
    if not cnp.PyArray_ISCOMPLEX(self._data):
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if _lazy_bits(self) & LAZY_CONJ:
        raise RuntimeError(
            "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
            "conjugate tensor so you can view it as real, use self.resolve_conj(); however, "
            "be warned that the resulting tensor will NOT alias the original.")
    return _view_as_real(self)


cdef Tensor _view_as_real(Tensor self):
    """view_as_real without the conjugate bit's refusal (real and imag of a conj view
    are views of its parts: the imaginary ones carry the negative bit)."""
    cdef cnp.ndarray a = self._data
    # a new last axis of one complex element, reinterpreted as its two parts
    cdef Tensor result = make_view(self, a[..., None].view(real_of(dtype_of(a)).np_dtype))
    record_ViewAsRealBackward0(result, self)
    return result


cdef Tensor op_view_as_complex(Tensor self):
    cdef cnp.ndarray a = self._data
    cdef dtype d = dtype_of(a)
    if d is float16:
        raise RuntimeError("complex32 (ComplexHalf) is not supported by autograd_core")
    if d is not float32 and d is not float64:
        raise RuntimeError(f"view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: {d.scalar_name}")
    if a.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if a.shape[a.ndim - 1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    cdef Py_ssize_t item = a.itemsize
    if a.strides[a.ndim - 1] != item:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    for i in range(a.ndim - 1):
        if (a.strides[i] // item) % 2 != 0:
            raise RuntimeError("Tensor must have a stride divisible by 2 for all but last "
                               "dimension")
    if self.storage_offset() % 2 != 0:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    cdef Tensor result = make_view(self, a.view(complex_of(d).np_dtype)[..., 0])
    record_ViewAsComplexBackward0(result, self)
    return result


cdef dtype _complex_parts_dtype(Tensor a, Tensor b):
    cdef dtype da = dtype_of(a._data), db = dtype_of(b._data)
    if da.category != CAT_FLOAT or db.category != CAT_FLOAT:
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{da.scalar_name} and {db.scalar_name}")
    if da is not db:
        raise RuntimeError(f"Expected object of scalar type {da.scalar_name} but got scalar "
                           f"type {db.scalar_name} for second argument")
    if da is float16:
        raise RuntimeError("complex32 (ComplexHalf) is not supported by autograd_core")
    sa, sb = shape_of(a._data), shape_of(b._data)
    if sa != sb:
        broadcast_shapes(sa, sb)  # PyTorch's error when they do not broadcast
    return complex_of(da)


cdef cnp.ndarray complex_parts_values(Tensor a, Tensor b, bint polar):
    """complex(real, imag), or (polar) polar(abs, angle): abs * (cos + i sin)(angle)."""
    cdef dtype d = _complex_parts_dtype(a, b)
    cdef cnp.ndarray x = a._data, y = b._data
    out = np.empty(broadcast_shapes(shape_of(x), shape_of(y)), dtype=d.np_dtype)
    if polar:
        with quiet():
            out.real = x * np.cos(y)
            out.imag = x * np.sin(y)
    else:
        out.real = x
        out.imag = y
    return out


# ================================================================ resize_ / set_

cdef Tensor op_resize_(Tensor self, object size):
    """self with another shape, keeping its first elements: a view of its own memory
    when they fit, else new memory (PyTorch grows the storage; new elements are
    uninitialised)."""
    if requires_grad_of(self) and not inference_mode_enabled():
        # (PyTorch's check is in the autograd kernel, which inference mode skips)
        raise RuntimeError("cannot resize variables that require grad")
    check_inplace(self, ())
    cdef tuple shape = tuple(size)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{list(shape)}")
    if shape == shape_of(self._data):
        return self
    cdef Py_ssize_t n = shape_numel(shape), have = cnp.PyArray_SIZE(self._data)
    cdef cnp.ndarray x = self._data, out
    if n <= have and cnp.PyArray_IS_C_CONTIGUOUS(x):
        out = as_contiguous(x.reshape(-1)[:n].reshape(shape))
    else:
        out = np.empty(n, dtype=x.dtype)
        out[:builtins.min(n, have)] = x.reshape(-1)[:builtins.min(n, have)]
        out = as_contiguous(out.reshape(shape))
    keep_counter(self)  # before its memory changes: Note [Counters made by the node]
    self._data = out
    bump_version(self)  # resize_ rebinds, not the driver's whole write: see Note [In-place ops]
    return self


def _py_resize_(self, *sizes, memory_format=None):
    cdef Tensor x = arg_tensor(self, "resize_", "self", 0)
    return OPS.resize_(x, parse_shape(sizes, "resize_"))


def factory_out(str name, object out, object dtype_arg, Tensor result, bint requires_grad):
    """The out= of a factory function (zeros, ones, full, empty, arange, linspace, eye):
    result, computed in out's dtype unless dtype_arg names one, written into out. Unlike an
    op's out= (Note [out= arguments]), a factory resizes out without a warning."""
    if not isinstance(out, Tensor):
        raise not_tensor_error(name, "out", 0, out)
    cdef Tensor o = <Tensor>out
    cdef dtype od = dtype_of(o._data)
    if dtype_arg is not None and to_dtype(dtype_arg) is not od:
        raise RuntimeError(f"dtype {to_dtype(dtype_arg).scalar_name} does not match dtype of out "
                           f"parameter ({od.scalar_name})")
    if grad_enabled() and requires_grad_of(o):
        raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't support "
                           f"automatic differentiation, but one of the arguments requires grad.")
    cdef tuple shape = shape_of(result._data)
    if shape_of(o._data) != shape:
        # (all of out is written next: no values to keep, and no write of its own)
        o._data = np.empty(shape, dtype=o._data.dtype)
    inplace_commit(o, result)
    if requires_grad:
        o.requires_grad_()
    return o


def _py_resize_as_(self, the_template, *, memory_format=None):
    return OPS.resize_as_(arg_tensor(self, "resize_as_", "self", 0),
                         arg_tensor(the_template, "resize_as_", "the_template", 1))


cdef Tensor op_set_(Tensor self, Tensor source):
    """self takes source's memory, shape and strides (source None: no memory)."""
    return _set_to(self, source, None if source is None else source._data.view())


cdef Tensor _set_to(Tensor self, Tensor source, cnp.ndarray new):
    """set_ with the array self is to look at: the version counter is bumped and, while
    recording, self's history becomes PyTorch's NotImplemented node (set_ has no
    derivative: backward through it raises)."""
    check_inplace(self, (source,) if source is not None else ())
    if source is not None and dtype_of(source._data) is not dtype_of(self._data):
        raise RuntimeError(f"Could not set tensor of type {dtype_of(source._data).cpp_name} to "
                           f"a tensor of type {dtype_of(self._data).cpp_name}")
    if new is None:   # (PyTorch's stride (1,); numpy gives an empty array stride 0)
        new = np.lib.stride_tricks.as_strided(np.empty((0,), dtype=self._data.dtype), (0,),
                                              (cnp.PyArray_ITEMSIZE(self._data),))
    cdef Tensor snap = None
    if recording() and (requires_grad_of(self) or
                        (source is not None and requires_grad_of(source))):
        snap = make(self._data)     # self's history before the write
        snap._grad_fn = grad_fn_of(self)
        snap._output_nr = self._output_nr
        snap._requires_grad = self._requires_grad
    # a view set_ to other memory no longer lies in its base's: from now on it is read
    # as a tensor of its own (PyTorch keeps ._base, whose memory it no longer uses)
    self._base = None
    if self._x is not None:  # (Note [Tensor layout])
        self._x.view_steps = None
    keep_counter(self)  # before its memory changes: Note [Counters made by the node]
    self._data = new
    if self._grad_fn is None:
        # a leaf's AccumulateGrad belongs to its old memory: edges taken before (a
        # graph, get_gradient_edge) no longer lead to it, as PyTorch's (the field is
        # reset through the core: Note [Borrowed accumulator])
        _forget_accumulator(self)
    bump_version(self)  # set_ rebinds, not the driver's whole write: see Note [In-place ops]
    cdef Tensor out
    if snap is not None:
        out = make(new)
        OPS.not_implemented_node(out, (snap, source) if source is not None else (snap,),
                                 "set_")
        self._grad_fn = out._grad_fn
        self._output_nr = 0
        self._requires_grad = True
    return self


cdef str _SET_SIGNATURES = (
    " * ()\n"
    " * (Tensor source)\n"
    " * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)")


cdef cnp.ndarray _strided_in_memory_of(Tensor src, object storage_offset, object size,
                                       object stride):
    """set_(source, storage_offset, size, stride)'s array: size and stride (in elements)
    from storage_offset elements past source's first element, within the memory source
    lies in (its base's). That memory cannot grow here (PyTorch resizes the storage): a
    view reaching past it raises."""
    cdef Tensor root = src._base if src._base is not None else src
    cdef cnp.ndarray mem = root._data
    cdef Py_ssize_t item = cnp.PyArray_ITEMSIZE(mem), i
    cdef tuple shape = tuple([int(n) for n in size])
    cdef tuple strides
    if stride is None:  # contiguous
        acc = 1
        strides = ()
        for n in reversed(shape):
            strides = (acc,) + strides
            acc *= builtins.max(n, 1)
    else:
        strides = tuple([int(st) for st in stride])
        if len(strides) != len(shape):
            raise RuntimeError(f"mismatch in length of strides and shape")
    if builtins.any([n < 0 for n in shape]):
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{builtins.min(shape)}: {list(shape)}")
    if storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    if not (cnp.PyArray_IS_C_CONTIGUOUS(mem) or cnp.PyArray_IS_F_CONTIGUOUS(mem)):
        raise RuntimeError("set_(): source lies in memory that is not one block")
    cdef Py_ssize_t start = storage_offset
    if cnp.PyArray_SIZE(src._data):
        start += (<char *>cnp.PyArray_DATA(src._data) - <char *>cnp.PyArray_DATA(mem)) // item
    cdef Py_ssize_t numel = 1, lo = start, hi = start
    for i in range(len(shape)):
        numel *= shape[i]
        if shape[i] > 0:
            if strides[i] > 0:
                hi += (shape[i] - 1) * strides[i]
            else:
                lo += (shape[i] - 1) * strides[i]
    if numel == 0:
        return np.empty(shape, dtype=mem.dtype)
    if lo < 0 or hi >= cnp.PyArray_SIZE(mem):
        raise RuntimeError(
            f"set_(): a tensor of size {list(shape)}, stride {list(strides)} and storage "
            f"offset {start} reaches past the {cnp.PyArray_SIZE(mem)} elements of source's "
            "memory (autograd_core cannot grow memory that other tensors share)")
    # (within mem, checked above; a negative stride reaches back from start)
    return np.lib.stride_tricks.as_strided(mem.reshape(-1, order="A")[start:], shape,
                                           tuple([st * item for st in strides]))


def _py_set_(self, source=None, storage_offset=None, size=None, stride=None):
    cdef Tensor x = arg_tensor(self, "set_", "self", 0)
    args = tuple([a for a in (source, storage_offset, size, stride) if a is not None])
    if not (source is None or isinstance(source, Tensor)) or (
            storage_offset is None) != (size is None) or (
            storage_offset is None and stride is not None) or (
            storage_offset is not None and (isinstance(storage_offset, bool) or
                                            not isinstance(storage_offset, (int, np.integer))
                                            or not isinstance(size, (tuple, list)))):
        raise type_error_combination("set_", args, _SET_SIGNATURES)
    if source is None:
        return OPS.set_(x, None)
    if storage_offset is None:
        return OPS.set_(x, <Tensor>source)
    return _set_to(x, <Tensor>source,
                   _strided_in_memory_of(<Tensor>source, storage_offset, size, stride))


# ================================================================ copies of views

cdef Tensor _copy_of(Tensor view):
    """A view's values in a fresh contiguous tensor (the *_copy ops)."""
    return make(as_contiguous(np.array(view._data, copy=True)))


cdef Tensor op_view_as_real_copy(Tensor self):
    cdef Tensor result
    if not cnp.PyArray_ISCOMPLEX(self._data):
        raise RuntimeError("view_as_real is only supported for complex tensors")
    with NoGradGuard():
        result = _copy_of(_view_as_real(self))
    record_ViewAsRealBackward0_copy(result, self)
    return result


cdef Tensor op_view_as_complex_copy(Tensor self):
    cdef Tensor result
    with NoGradGuard():
        result = _copy_of(op_view_as_complex(self))
    if recording() and requires_grad_of(self) and not self._inference:
        raise complex_output_autograd_error("view_as_complex_copy")
    return result


cdef Tensor op_transpose_copy(Tensor self, object dim0, object dim1):
    cdef Tensor result
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    with NoGradGuard():
        result = _copy_of(op_transpose(self, dim0, dim1))
    record_TransposeBackward0_copy(result, self, wrap_dim(dim0, nd), wrap_dim(dim1, nd))
    return result


cdef Tensor op_unsqueeze_copy(Tensor self, object dim):
    cdef Tensor result
    with NoGradGuard():
        result = _copy_of(op_unsqueeze(self, dim))
    record_UnsqueezeBackward0_copy(result, self,
                                   wrap_dim(dim, cnp.PyArray_NDIM(self._data) + 1))
    return result


cdef Tensor op_select_copy(Tensor self, object dim, object index):
    cdef Tensor result
    with NoGradGuard():
        result = _copy_of(op_select(self, dim, index))
    cdef Py_ssize_t d = wrap_dim(dim, cnp.PyArray_NDIM(self._data)), i = index
    if i < 0:
        i += cnp.PyArray_DIM(self._data, d)
    record_SelectBackward0_copy(result, self, d, i)
    return result


cdef Tensor op_permute_copy(Tensor self, object dims):
    cdef Tensor result
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    with NoGradGuard():
        result = _copy_of(op_permute(self, dims))
    record_PermuteBackward0_copy(result, self, tuple([wrap_dim(d, nd) for d in dims]))
    return result


cdef Tensor op_diagonal_copy(Tensor self, object offset, object dim1, object dim2):
    cdef Tensor result
    with NoGradGuard():
        result = _copy_of(op_diagonal(self, offset, dim1, dim2))
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    record_DiagonalBackward0_copy(result, self, offset, wrap_dim(dim1, nd), wrap_dim(dim2, nd))
    return result


# the hand-written methods under their public names (the generator names the _py_ ones)
for _fn, _name in ((_pym_view, "view"), (_pym_reshape, "reshape"), (_pym_permute, "permute"),
                   (_pym_expand, "expand"), (_pym_broadcast_to, "broadcast_to"),
                   (_pym_repeat, "repeat"), (_pym_tile, "tile"), (_pym_flip, "flip")):
    _fn.__name__ = _fn.__qualname__ = _name
del _fn, _name



# ================================================================ stacking and arranging
# Composed of the ops above, as PyTorch composes them: their graphs hold the same nodes.

cdef Tensor _atleast(Tensor t, int n):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(t._data)
    if nd >= n:
        return t
    if nd == 0:
        return op_reshape(t, (1,) * n)
    if n == 2:
        return op_unsqueeze(t, 0)
    if nd == 1:
        return op_unsqueeze(op_unsqueeze(t, 0), -1)
    return op_unsqueeze(t, -1)


cdef object _atleast_py(tuple args, str fname, int n):
    if has_torch_function_list(args):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function({1: _py_atleast_1d, 2: _py_atleast_2d,
                                      3: _py_atleast_3d}[n], args, {})
    if len(args) == 1 and isinstance(args[0], Tensor):
        return _atleast(<Tensor>args[0], n)
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    return tuple([_atleast(arg_tensor(t, fname, "tensors", 1), n) for t in args])


def _py_atleast_1d(*tensors):
    return _atleast_py(tensors, "atleast_1d", 1)


def _py_atleast_2d(*tensors):
    return _atleast_py(tensors, "atleast_2d", 2)


def _py_atleast_3d(*tensors):
    return _atleast_py(tensors, "atleast_3d", 3)


cdef void _check_nonempty_list(list tensors, str fname) except *:
    if not tensors:
        raise RuntimeError(f"{fname} expects a non-empty TensorList")


cdef Tensor op_hstack(list tensors):
    _check_nonempty_list(tensors, "hstack")
    cdef list ts = [_atleast(<Tensor>t, 1) for t in tensors]
    return op_cat(ts, 0 if cnp.PyArray_NDIM((<Tensor>ts[0])._data) == 1 else 1)


cdef Tensor op_vstack(list tensors):
    _check_nonempty_list(tensors, "vstack")
    return op_cat([_atleast(<Tensor>t, 2) for t in tensors], 0)


cdef Tensor op_dstack(list tensors):
    _check_nonempty_list(tensors, "dstack")
    return op_cat([_atleast(<Tensor>t, 3) for t in tensors], 2)


cdef Tensor op_column_stack(list tensors):
    _check_nonempty_list(tensors, "column_stack")
    cdef list ts = []
    cdef Tensor t
    for o in tensors:
        t = <Tensor>o
        if cnp.PyArray_NDIM(t._data) <= 1:
            t = op_reshape(t, (cnp.PyArray_SIZE(t._data), 1))
        ts.append(t)
    return op_cat(ts, 1)


cdef tuple op_broadcast_tensors(list tensors):
    cdef tuple shape = ()
    for t in tensors:
        shape = broadcast_shapes(shape, shape_of((<Tensor>t)._data))
    return tuple([t if shape_of((<Tensor>t)._data) == shape else op_expand(<Tensor>t, shape)
                  for t in tensors])


cdef list _varargs_tensors(tuple args, str fname):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    return [arg_tensor(t, fname, "tensors", 1) for t in args]


def _py_broadcast_tensors(*tensors):
    return OPS.broadcast_tensors(_varargs_tensors(tensors, "broadcast_tensors"))


cdef tuple op_meshgrid(list tensors, object indexing):
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"autograd_core.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                           f"received: {indexing}")
    cdef Py_ssize_t n = len(tensors), i
    if n == 0:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for i in range(n - 1):   # (PyTorch's first check; it does not promote)
        if cnp.PyArray_TYPE((<Tensor>tensors[i])._data) != \
                cnp.PyArray_TYPE((<Tensor>tensors[i + 1])._data):
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    for i in range(n):
        if cnp.PyArray_NDIM((<Tensor>tensors[i])._data) > 1:
            from autograd_core._tensor_str import cpp_str
            raise RuntimeError(f"autograd_core.meshgrid: Expected 0D or 1D tensor in the tensor "
                               f"list but got: {cpp_str(tensors[i])}")
    cdef list ts = list(tensors)
    cdef bint swap = indexing == "xy" and n >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple([cnp.PyArray_SIZE((<Tensor>t)._data) for t in ts])
    out = []
    for i in range(n):
        view = [1] * n
        view[i] = -1
        out.append(op_expand(op_view(<Tensor>ts[i], tuple(view)), shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


def _py_meshgrid(*tensors, indexing=None):
    """torch.meshgrid, PyTorch's Python function: the tensors (or one list of them) go to
    _VF.meshgrid as its list argument 0, indexing by keyword (a str, or bytes, as
    PyTorch's parser reads them), and only when given (else the warning)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    if isinstance(indexing, bytes):
        indexing = indexing.decode()
    return OPS.meshgrid(list(tensors),
                        None if indexing is None else arg_str(indexing, "meshgrid", "indexing", 0))


cdef Tensor op_cartesian_prod(list tensors):
    for t in tensors:
        if cnp.PyArray_NDIM((<Tensor>t)._data) != 1:
            raise RuntimeError("Expect a 1D vector, but got shape "
                               f"{shape_str(shape_of((<Tensor>t)._data))}")
    if len(tensors) == 1:
        return tensors[0]
    grids = op_meshgrid(tensors, "ij")
    return op_stack([op_reshape(<Tensor>g, (-1,)) for g in grids], 1)


def _py_cartesian_prod(*tensors):
    return OPS.cartesian_prod(_varargs_tensors(tensors, "cartesian_prod"))


cdef Tensor op_rot90(Tensor self, object k, object dims):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple dd = tuple(dims)
    if len(dd) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dd)}")
    if nd < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {nd}")
    cdef Py_ssize_t d0 = wrap_dim(dd[0], nd), d1 = wrap_dim(dd[1], nd)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and "
                           f"dim1 = {d1}")
    kk = k % 4      # PyTorch flips dim1, both, or dim0 (then transposes)
    if kk:
        flipped = [d1] if kk == 1 else [d0, d1] if kk == 2 else [d0]
        _check_unsigned_flip(self, flipped)
    cdef Tensor result = make(np.array(np.rot90(self._data, k, axes=(d0, d1)), copy=True))
    record_Rot90Backward0(result, self, k, dims)
    return result


cdef Tensor op_fliplr(Tensor self):
    if cnp.PyArray_NDIM(self._data) < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return op_flip(self, (1,))


cdef Tensor op_flipud(Tensor self):
    if cnp.PyArray_NDIM(self._data) < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return op_flip(self, (0,))


cdef Tensor op_ravel(Tensor self):
    cdef Tensor t = self
    if not cnp.PyArray_IS_C_CONTIGUOUS(self._data):
        t = OPS.clone(self, _contiguous_format)       # PyTorch's contiguous()
    return op_view(t, (-1,))


cdef Tensor _repeat_counts(Tensor repeats, object output_size):
    """repeat_interleave(repeats): each index i repeated repeats[i] times."""
    cdef cnp.ndarray r = repeats._data
    if cnp.PyArray_NDIM(r) != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if dtype_of(r) is not int64 and dtype_of(r) is not int32:
        raise RuntimeError("repeats has to be Long or Int tensor")
    if r.size and r.min() < 0:
        raise RuntimeError("repeats can not be negative")
    out = np.repeat(np.arange(r.size, dtype=r.dtype), r)
    if output_size is not None and out.size != output_size:
        raise RuntimeError("allocated size does not match required size")
    return make(as_array(out))


cdef Tensor op_repeat_interleave(Tensor self, object repeats, object dim, object output_size):
    cdef Tensor x = self, rep
    cdef Py_ssize_t d, n
    if repeats is None:
        return _repeat_counts(self, output_size)
    if dim is None:
        x = op_flatten(self, 0, -1)
        d = 0
    else:
        d = wrap_dim(dim, cnp.PyArray_NDIM(self._data))
    cdef tuple shape = shape_of(x._data)
    if not isinstance(repeats, Tensor):
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        if cnp.PyArray_NDIM(x._data) == 0:
            x = op_reshape(x, (1,))
            shape = (1,)
        expanded = list(shape)
        expanded.insert(d + 1, repeats)
        # (contiguous as PyTorch's: a copy preserving a transposed x's layout would not
        # merge dims d and d + 1 in the view below)
        y = OPS.clone(op_expand(op_unsqueeze(x, d + 1), tuple(expanded)), _contiguous_format)
        new = list(shape)
        new[d] = shape[d] * repeats
        return op_view(y, tuple(new))
    rep = <Tensor>repeats
    n = shape[d] if shape else 1
    if cnp.PyArray_NDIM(rep._data) == 0 or (cnp.PyArray_NDIM(rep._data) == 1
                                            and cnp.PyArray_SIZE(rep._data) == 1):
        rep = make(np.broadcast_to(rep._data.reshape(1), (n,)).copy())
    elif cnp.PyArray_NDIM(rep._data) == 1:
        if cnp.PyArray_SIZE(rep._data) != n:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {cnp.PyArray_SIZE(rep._data)} and input.size("
                               f"{d}) = {n}")
    else:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    return OPS.index_select(x, d, _repeat_counts(rep, output_size))


def _py_repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(repeats) is not Tensor and has_torch_function(repeats)) or (type(dim) is not Tensor and has_torch_function(dim)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_repeat_interleave, (input, repeats, dim, ), {"output_size": output_size})
    cdef Tensor self = arg_tensor(input, "repeat_interleave", "input", 1)
    if repeats is not None and not isinstance(repeats, Tensor):
        repeats = arg_int(repeats, "repeat_interleave", "repeats", 2)
    return OPS.repeat_interleave(
        self, repeats, None if dim is None else arg_int(dim, "repeat_interleave", "dim", 3),
        None if output_size is None else arg_int(output_size, "repeat_interleave", "output_size", 4))



# ================================================================ block_diag / combinations

@cython.final
cdef class BlockDiagBackward0(Node):
    """Backward of block_diag (table entry block_diag: its inputs are a list): input i's
    gradient is its block of grad, in the input's own shape (PyTorch's
    block_diag_backward)."""
    cdef tuple shapes           # each input's shape
    cdef tuple blocks           # each input's (row, col, rows, cols) block

    cdef tuple apply(self, tuple grads):
        cdef Tensor grad = grads[0]
        out = []
        for i in range(len(self.shapes)):
            if not needs_input_grad(self, i):
                out.append(None)
                continue
            r, c, nr, nc = self.blocks[i]
            g = op_narrow(op_narrow(grad, 0, r, nr), 1, c, nc)
            if shape_of(g._data) != self.shapes[i]:
                g = op_reshape(g, self.shapes[i])
            out.append(g)
        return tuple(out)


cdef Tensor op_block_diag(list tensors):
    cdef Py_ssize_t i, r = 0, c = 0, nr, nc
    cdef Tensor t
    blocks = []
    for i in range(len(tensors)):
        t = tensors[i]
        nd = cnp.PyArray_NDIM(t._data)
        if nd > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {i} has {nd} dimensions")
        shp = shape_of(t._data)
        nr, nc = (1, 1) if nd == 0 else ((1, shp[0]) if nd == 1 else shp)
        blocks.append((r, c, nr, nc))
        r += nr
        c += nc
    cdef dtype rt = result_type_of_tensors(tensors) if tensors else default_float
    cdef cnp.ndarray out = np.zeros((r, c), dtype=rt.np_dtype)
    for i in range(len(tensors)):
        br, bc, nr, nc = blocks[i]
        out[br:br + nr, bc:bc + nc] = cast_array((<Tensor>tensors[i])._data, rt).reshape(nr, nc)
    cdef Tensor result = make(out)
    if fw_active():  # Note [Forward AD]: linear, the block_diag of the tangents
        ts = [fw_grad_of(<Tensor>x) for x in tensors]
        if any([x is not None for x in ts]) and is_grad_array(out):
            with FwSuspend():
                fw_finish(result, op_block_diag([fw_zeros(tensors[i]) if ts[i] is None
                                                 else ts[i] for i in range(len(ts))]))
    cdef tuple inputs = tuple(tensors)
    cdef BlockDiagBackward0 node
    if should_record(inputs, out, "block_diag"):
        node = BlockDiagBackward0.__new__(BlockDiagBackward0)
        node.shapes = tuple([shape_of((<Tensor>o)._data) for o in tensors])
        node.blocks = tuple(blocks)
        record(node, result, inputs)
        _set_cast_meta(node, tensors, rt)
    return result


def _py_block_diag(*tensors):
    return OPS.block_diag([arg_tensor(t, "block_diag", "tensors", i + 1)
                          for i, t in enumerate(tensors)])


cdef Tensor op_combinations(Tensor self, object r, bint with_replacement):
    if cnp.PyArray_NDIM(self._data) != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {shape_str(shape_of(self._data))}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return make(np.empty((0,), dtype=self._data.dtype))
    cdef Py_ssize_t n = cnp.PyArray_SIZE(self._data), k
    grids = op_meshgrid([self] * r, "ij")
    # the index tuples in order: i1 < i2 < ... (<= with replacement)
    ar = [np.arange(n).reshape(tuple([n if j == k else 1 for j in range(r)])) for k in range(r)]
    mask = np.ones((n,) * r, dtype=bool)
    for k in range(r - 1):
        mask &= (ar[k] <= ar[k + 1]) if with_replacement else (ar[k] < ar[k + 1])
    if mask.any() and is_guarded_array(self._data) and not cnp.PyArray_ISCOMPLEX(self._data):
        # PyTorch's masked_select has no wide unsigned kernel; no combination skips it
        refuse_complex("combinations", self)
    cdef Tensor m = make(mask)
    return op_stack([OPS.masked_select(<Tensor>g, m) for g in grids], 1)



# ================================================================ diag_embed / diagflat

cdef Tensor op_diag_embed(Tensor self, object offset, object dim1, object dim2):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x) + 1
    cdef Py_ssize_t d1 = wrap_dim(dim1, nd), d2 = wrap_dim(dim2, nd), k = offset
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    cdef tuple shape = shape_of(x)
    cdef Py_ssize_t n = shape[-1] if shape else 1
    cdef Py_ssize_t m = n + (k if k >= 0 else -k)
    out = np.zeros(shape[:-1] + (m, m), dtype=x.dtype)
    ar = np.arange(n)
    out[..., ar + (-k if k < 0 else 0), ar + (k if k > 0 else 0)] = x.reshape(shape[:-1] + (n,))
    cdef Tensor result = make(np.ascontiguousarray(np.moveaxis(out, (-2, -1), (d1, d2))))
    record_DiagEmbedBackward0(result, self, offset, d1, d2)
    return result


cdef Tensor op_diagflat(Tensor self, object offset):
    cdef Tensor flat = self if cnp.PyArray_NDIM(self._data) == 1 else op_reshape(self, (-1,))
    return op_diag_embed(flat, offset, 0, 1)


include "_gen_view.pxi"


# ---------------------------------------------------------------- forward AD
# The forward derivatives of the hand-written nodes (Note [Forward AD] in
# _core/_fw.pxi): joins and splits are linear, the op on the tangents.

cdef int _fw_join(Tensor result, list tensors, Py_ssize_t d, bint stack) except -1:
    """cat/stack: the join of the inputs' tangents (zeros for inputs without one)."""
    cdef list ts = [fw_grad_of(<Tensor>t) for t in tensors]
    if all([t is None for t in ts]) or not is_grad_array(result._data):
        return 0
    with FwSuspend():
        ts = [fw_zeros(tensors[i]) if ts[i] is None else ts[i] for i in range(len(ts))]
        fw_finish(result, OPS.stack(ts, d) if stack else OPS.cat(ts, d))
    return 0


cdef int _fw_pieces(Tensor self, tuple pieces, Py_ssize_t d, tuple sizes) except -1:
    """split's pieces: the same pieces of self's tangent."""
    st = fw_grad_of(self)
    if st is None or not is_grad_array(self._data):
        return 0
    cdef Py_ssize_t start = 0, i
    with FwSuspend():
        for i in range(len(sizes)):
            fw_finish(<Tensor>pieces[i], OPS.slice(<Tensor>st, d, start, start + sizes[i], 1))
            start += sizes[i]
    return 0


cdef int _fw_restride(Tensor self, cnp.ndarray old, cnp.ndarray new) except -1:
    """An in-place view op (squeeze_, unsqueeze_, transpose_, t_) took self from the view
    `old` of its memory to `new` (same first element): its tangent takes the same view of
    its own memory, in place (PyTorch's self_t.squeeze_(), ...; the node's formula is then
    self_t). A tangent laid out otherwise than old is first copied into old's layout."""
    t = fw_grad_of(self)
    if t is None:
        return 0
    cdef Tensor tt = <Tensor>t
    cdef cnp.ndarray a = tt._data
    cdef Py_ssize_t oi = cnp.PyArray_ITEMSIZE(old), ti = cnp.PyArray_ITEMSIZE(a)
    if tuple([s // ti for s in (<object>a).strides]) != tuple(
            [s // oi for s in (<object>old).strides]):
        a = np.empty_like(old, dtype=a.dtype, order="K") if cnp.PyArray_SIZE(old) else a
        if cnp.PyArray_SIZE(old):
            np.copyto(a, tt._data)
    from numpy.lib.stride_tricks import as_strided
    keep_counter(tt)
    tt._data = as_strided(a, shape=shape_of(new),
                          strides=tuple([s // oi * ti for s in (<object>new).strides]))
    return 0
