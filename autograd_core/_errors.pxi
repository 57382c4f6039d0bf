# One place for each user-facing error message; the texts are PyTorch's.

cdef str _MSG_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the "
    "graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")

cdef str _MSG_NOT_FLOAT_GRAD = (
    "Only Tensors of floating point and complex dtype can require gradients")

cdef str _MSG_NONLEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a "
    "computed variable in a subgraph that doesn't require differentiation use "
    "var_no_grad = var.detach().")

cdef str _MSG_LEAF_INPLACE = (
    "a leaf Variable that requires grad is being used in an in-place operation.")

cdef str _MSG_LEAF_VIEW_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation.")

cdef str _MSG_NUMPY_REQUIRES_GRAD = (
    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")

cdef str _MSG_IMPLICIT_GRAD = "grad can be implicitly created only for scalar outputs"

cdef str _MSG_NONLEAF_GRAD_ACCESS = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
    ".grad attribute won't be populated during autograd.backward(). If you indeed want "
    "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
    "non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
    "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
    "information.")

cdef str _MSG_CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this "
    "function, make sure to reset the .grad fields of your parameters to None after use "
    "to break the cycle and avoid the leak.")

cdef str _MSG_VIEW_NOT_COMPATIBLE = (
    "view size is not compatible with input tensor's size and stride (at least one "
    "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


cdef object _no_grad_fn_error(int i):
    return RuntimeError(
        f"element {i} of tensors does not require grad and does not have a grad_fn")


cdef object _dim_error(Py_ssize_t dim, Py_ssize_t ndim):
    cdef Py_ssize_t n = ndim if ndim > 0 else 1
    return IndexError(
        f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")


cdef Py_ssize_t _wrap_dim(object dim, Py_ssize_t ndim) except? -1:
    """A dim argument checked against ndim and made non-negative (0-d counts as 1-d)."""
    cdef Py_ssize_t d, n = ndim if ndim > 0 else 1
    if not isinstance(dim, int) or isinstance(dim, bool):
        try:
            d = dim.__index__()
        except AttributeError:
            raise TypeError(f"dim must be an int, not {type(dim).__name__}") from None
    else:
        d = dim
    if d < -n or d >= n:
        raise _dim_error(d, ndim)
    return d + n if d < 0 else d


cdef object _broadcast_error(tuple sa, tuple sb):
    cdef Py_ssize_t na = len(sa), nb = len(sb), n = _builtins.max(na, nb), i, off, x, y
    for i in range(n - 1, -1, -1):
        off = n - 1 - i
        x = sa[na - 1 - off] if na - 1 - off >= 0 else 1
        y = sb[nb - 1 - off] if nb - 1 - off >= 0 else 1
        if x != y and x != 1 and y != 1:
            return RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                f"at non-singleton dimension {i}")
    return RuntimeError(f"shapes {list(sa)} and {list(sb)} cannot be broadcast")


cdef object _modified_error(Tensor t, long saved_version, Node node, int output_nr):
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: [{_legacy_type_name(t)} {_shape_str(_shp(t._data))}]"
        + (f", which is output {output_nr} of {_op_name(node)}," if node is not None else "")
        + f" is at version {t._vc.version}; expected version {saved_version} instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with autograd_core.autograd.set_detect_anomaly(True, check_nan=False).")


cdef str _op_name(Node node):
    """A node's op name as PyTorch's messages give it: ExpBackward0 -> Exp."""
    name = type(node).__name__
    i = name.rfind("Backward")
    return name[:i] if i > 0 else name


cdef str _legacy_type_name(Tensor t):
    return {
        "bool": "autograd_core.BoolTensor", "uint8": "autograd_core.ByteTensor", "int8": "autograd_core.CharTensor",
        "int16": "autograd_core.ShortTensor", "int32": "autograd_core.IntTensor", "int64": "autograd_core.LongTensor",
        "float16": "autograd_core.HalfTensor", "float32": "autograd_core.FloatTensor",
        "float64": "autograd_core.DoubleTensor",
    }[_dtype_of(t._data).name]
