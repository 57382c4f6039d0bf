# The Tensor type: attributes, autograd flags, methods and operator slots.
# Every op a method names is implemented once, in _ops.pxi.

cdef inline tuple _shp(object arr):
    """An array's shape as a Python tuple (typed ndarrays expose a C pointer)."""
    return arr.shape


cdef inline cnp.ndarray _as_array(object r):
    """numpy returns scalars from 0-d operations; the core always holds arrays."""
    if cnp.PyArray_Check(r):
        return <cnp.ndarray>r
    return <cnp.ndarray>np.asarray(r)


cdef inline Tensor _make(cnp.ndarray arr):
    cdef Tensor t = Tensor.__new__(Tensor)
    _gc_untrack(t)  # Note [Untracked by the cycle collector]
    t._data = arr
    if agc_inference_mode():
        t._inference = True
    return t


cdef inline Tensor _make_view(Tensor base, cnp.ndarray arr):
    """A tensor over base's memory: it shares base's version counter, and (as in
    PyTorch, even under no_grad) base's requires_grad."""
    cdef Tensor t = Tensor.__new__(Tensor)
    _gc_untrack(t)  # Note [Untracked by the cycle collector]
    t._data = arr
    t._vc = _vc_of(base)
    t._requires_grad = base._requires_grad
    t._base = base._base if base._base is not None else base
    return t


cdef inline Tensor _as_tensor_operand(object x):
    if isinstance(x, Tensor):
        return <Tensor>x
    return None


cdef bint _is_number(object x):
    return isinstance(x, (int, float, bool)) or isinstance(x, (np.integer, np.floating, np.bool_))


cdef object _nested_to_arrays(object data):
    """Replace Tensors inside nested lists by their arrays (torch.tensor([t1, t2]))."""
    if isinstance(data, Tensor):
        return (<Tensor>data)._data
    if isinstance(data, (list, tuple)):
        return [_nested_to_arrays(x) for x in data]
    return data


cdef cnp.ndarray _array_from_data(object data, object dtype_arg):
    """A fresh array for tensor(data): PyTorch's dtype inference, numpy's parsing."""
    cdef dtype d = None if dtype_arg is None else _to_dtype(dtype_arg)
    if isinstance(data, Tensor):
        arr = (<Tensor>data)._data
        return np.array(arr, dtype=d.np_dtype if d is not None else None, copy=True)
    if isinstance(data, np.ndarray) or isinstance(data, np.generic):
        src = np.asarray(data)
        if _BY_TYPENUM[src.dtype.num] is None if src.dtype.num < 64 else True:
            raise TypeError(
                f"can't convert np.ndarray of type {src.dtype.type.__module__}.{src.dtype.type.__name__}. "
                "The only supported types are: float64, float32, float16, complex64, complex128, "
                "int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.")
        return np.array(src, dtype=d.np_dtype if d is not None else None, copy=True)
    if isinstance(data, (list, tuple)):
        data = _nested_to_arrays(data)
    elif data is None:
        raise RuntimeError("Could not infer dtype of NoneType")
    elif isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    elif not _is_number(data):
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
    if isinstance(data, list):
        _check_ragged(data, 0)
    try:
        arr = np.array(data)
    except ValueError as e:
        raise ValueError(f"expected sequence of equal-length lists: {e}") from None
    if arr.dtype == object or arr.dtype.kind in "USV":
        raise TypeError(f"Could not infer dtype of {type(data).__name__}" if arr.dtype == object
                        else f"new(): invalid data type '{arr.dtype.kind and 'str'}'")
    if d is None:
        kind = arr.dtype.kind
        if kind == "f":
            d = _default_float if not (isinstance(data, (list, tuple)) and _contains_array_dtype(data, arr.dtype)) else _dtype_of(arr)
        elif kind == "b":
            d = bool_
        elif kind in "iu":
            d = int64 if not (isinstance(data, (list, tuple)) and _contains_array_dtype(data, arr.dtype)) else _to_dtype(arr.dtype)
        else:
            raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    return np.array(arr, dtype=d.np_dtype, order="C", copy=None)


cdef void _check_ragged(list data, int dim) except *:
    """PyTorch's message for nested lists of unequal lengths."""
    if not data or not isinstance(data[0], (list, tuple)):
        return
    n = len(data[0])
    for x in data:
        if not isinstance(x, (list, tuple)) or len(x) != n:
            got = len(x) if isinstance(x, (list, tuple)) else type(x).__name__
            raise ValueError(f"expected sequence of length {n} at dim {dim + 1} (got {got})")
    for x in data:
        if isinstance(x, list):
            _check_ragged(x, dim + 1)


cdef bint _contains_array_dtype(object data, object dt):
    """Whether nested data holds arrays or numpy scalars whose dtype then decides."""
    for x in data:
        if isinstance(x, (np.ndarray, np.generic)):
            return True
        if isinstance(x, (list, tuple)) and len(x) and _contains_array_dtype(x, dt):
            return True
    return False


cdef void _check_requires_grad_dtype(Tensor t, bint flag, str msg=_MSG_NOT_FLOAT_GRAD) except *:
    if flag and not _dtype_of(t._data).is_floating_point:
        raise RuntimeError(msg)


def _tensor(data, dtype=None, requires_grad=False):
    """Implementation of autograd_core.tensor (a copy of data, a new leaf)."""
    if not isinstance(requires_grad, bool):
        raise TypeError("tensor(): argument 'requires_grad' must be bool, not "
                        + type(requires_grad).__name__)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
            ".requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning, stacklevel=2)
    cdef Tensor t = _make(_array_from_data(data, dtype))
    _check_requires_grad_dtype(t, requires_grad)
    t._requires_grad = requires_grad
    return t


def _from_array(arr, requires_grad=False):
    """A leaf over an existing array, sharing its memory (from_numpy, as_tensor)."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    if arr.dtype.num >= 64 or _BY_TYPENUM[arr.dtype.num] is None:
        raise TypeError(
            f"can't convert np.ndarray of type {arr.dtype.type.__module__}.{arr.dtype.type.__name__}. "
            "The only supported types are: float64, float32, float16, complex64, complex128, "
            "int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.")
    cdef Tensor t = _make(arr)
    _check_requires_grad_dtype(t, requires_grad)
    t._requires_grad = requires_grad
    return t


cdef tuple _parse_shape(tuple args, str fname):
    """Sizes given as f(2, 3), f((2, 3)) or f(Size)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    out = []
    for s in args:
        if isinstance(s, Tensor):
            s = s.item()
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise TypeError(f"{fname}(): argument 'size' must be tuple of ints, but found "
                            f"element of type {type(s).__name__}")
        out.append(s.__index__())
    return tuple(out)


@cython.freelist(256)
@cython.trashcan(True)
cdef class Tensor:
    """A multi-dimensional array that can record operations for automatic differentiation.

    >>> import autograd_core as torch
    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> y = (x * x).sum()
    >>> y.backward()
    >>> x.grad
    tensor([2., 4., 6.])
    """

    # numpy defers binary operators to the Tensor (ndarray * Tensor -> Tensor.__rmul__)
    __array_priority__ = 1000

    def __init__(self, *args):
        # torch.Tensor(data) or torch.Tensor(*sizes): always the default float dtype.
        if len(args) == 1 and not isinstance(args[0], int):
            self._data = _array_from_data(args[0], _default_float)
        else:
            shape = _parse_shape(args, "Tensor")
            self._data = np.empty(shape, dtype=_default_float.np_dtype)

    # ---- autograd attributes

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        self._set_requires_grad(value, _MSG_NOT_FLOAT_GRAD_SETTER)

    cdef _set_requires_grad(self, bint value, str msg):
        if self._grad_fn is not None:
            if not value:
                raise RuntimeError(_MSG_NONLEAF_REQUIRES_GRAD)
            return
        _check_requires_grad_dtype(self, value, msg)
        if value and self._inference and not agc_inference_mode():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = value

    def requires_grad_(self, requires_grad=True):
        """Set requires_grad in place (leaves only) and return self."""
        if not isinstance(requires_grad, bool):
            raise TypeError("requires_grad_(): argument 'requires_grad' must be bool, not "
                            + type(requires_grad).__name__)
        self._set_requires_grad(requires_grad, _MSG_NOT_FLOAT_GRAD_INPLACE)
        return self

    @property
    def grad_fn(self):
        return self._grad_fn

    @property
    def is_leaf(self):
        return self._grad_fn is None

    @property
    def grad(self):
        if self._grad_fn is not None and not self._retains_grad:
            warnings.warn(_MSG_NONLEAF_GRAD_ACCESS, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is None:
            self._grad = None
            return
        if not isinstance(value, Tensor):
            raise TypeError("assigned grad expected to be a Tensor or None but got grad of type "
                            + type(value).__name__)
        if cnp.PyArray_TYPE((<Tensor>value)._data) != cnp.PyArray_TYPE(self._data):
            raise RuntimeError("assigned grad has data of a different type")
        if not _same_shape((<Tensor>value)._data, self._data):
            raise RuntimeError(
                f"attempting to assign a gradient of size '{_shape_str(_shp((<Tensor>value)._data))}' "
                f"to a tensor of size '{_shape_str(_shp(self._data))}'. Please ensure that the "
                "gradient and the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Keep this non-leaf tensor's gradient in ``.grad`` during backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:
            return
        if self._grad_fn.retained is None:
            self._grad_fn.retained = {}
        self._grad_fn.retained[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    @property
    def output_nr(self):
        return self._output_nr

    @property
    def _version(self):
        return 0 if self._vc is None else self._vc.version

    @property
    def _base(self):
        return self._base

    def _is_view(self):
        return self._base is not None

    def register_hook(self, hook):
        """Register ``hook(grad)`` to run when this tensor's gradient is computed.

        The hook may return a replacement gradient. Returns a handle with ``remove()``.
        """
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is None:
            if self._hooks is None:
                self._hooks = []
                _gc_track(self)
            self._hooks.append(hook)
            return RemovableHandle(self._hooks, hook)
        if self._grad_fn.pre_hooks is None:
            self._grad_fn.pre_hooks = []
            _gc_track(self._grad_fn)
        wrapper = _TensorHook(self._output_nr, hook)
        self._grad_fn.pre_hooks.append(wrapper)
        return RemovableHandle(self._grad_fn.pre_hooks, wrapper)

    def register_post_accumulate_grad_hook(self, hook):
        """Run ``hook(tensor)`` after a gradient is accumulated into this leaf's ``.grad``."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_acc_hooks is None:
            self._post_acc_hooks = []
            _gc_track(self)
        self._post_acc_hooks.append(hook)
        return RemovableHandle(self._post_acc_hooks, hook)

    @property
    def data(self):
        # A detached alias with its own version counter: changes through .data are
        # invisible to autograd, as in PyTorch.
        return _make(self._data)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        self._data = (<Tensor>value)._data

    def detach(self):
        """A new leaf sharing this tensor's memory and version counter, without history."""
        cdef Tensor t = _make(self._data)
        t._vc = _vc_of(self)
        return t

    def detach_(self):
        """Detach this tensor from the graph in place."""
        if self._base is not None and self._grad_fn is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are "
                               "using DistributedDataParallel (DDP) for training, and "
                               "gradient_as_bucket_view is set as True, gradients are views "
                               "of DDP buckets, and hence detach_() cannot be called on these "
                               "gradients. To fix this error, please refer to the "
                               "Optimizer.zero_grad() function in torch/optim/optimizer.py "
                               "as the solution.")
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. the graph leaves (PyTorch's signature)."""
        _run_backward((self,), (gradient,), retain_graph, create_graph, inputs,
                      allow_unused=True, accumulate=True)

    # ---- shape and metadata

    @property
    def shape(self):
        return Size(_shp(self._data))

    def size(self, dim=None):
        """The shape as a Size, or one dimension's length."""
        if dim is None:
            return Size(_shp(self._data))
        return _shp(self._data)[_wrap_dim(dim, cnp.PyArray_NDIM(self._data))]

    def dim(self):
        return cnp.PyArray_NDIM(self._data)

    def ndimension(self):
        return cnp.PyArray_NDIM(self._data)

    @property
    def ndim(self):
        return cnp.PyArray_NDIM(self._data)

    def numel(self):
        return cnp.PyArray_SIZE(self._data)

    def nelement(self):
        return cnp.PyArray_SIZE(self._data)

    @property
    def dtype(self):
        return _dtype_of(self._data)

    @property
    def device(self):
        return _CPU

    @property
    def is_cuda(self):
        return False

    def is_floating_point(self):
        return _dtype_of(self._data).is_floating_point

    def is_complex(self):
        return False

    def element_size(self):
        return self._data.itemsize

    def is_contiguous(self, memory_format=None):
        return bool(cnp.PyArray_IS_C_CONTIGUOUS(self._data))

    def stride(self, dim=None):
        st = tuple(s // self._data.itemsize for s in (<object>self._data).strides)
        if dim is None:
            return st
        return st[_wrap_dim(dim, cnp.PyArray_NDIM(self._data))]

    def type(self, dtype=None):
        if dtype is None:
            return _legacy_type_name(self)
        return self.to(dtype)

    def is_inference(self):
        return self._inference

    # ---- conversion

    def item(self):
        """The single value of a one-element tensor as a Python number."""
        if cnp.PyArray_SIZE(self._data) != 1:
            raise RuntimeError(
                f"a Tensor with {cnp.PyArray_SIZE(self._data)} elements cannot be converted to Scalar")
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self, *, force=False):
        """The values as a numpy array sharing memory (only without requires_grad)."""
        if self._requires_grad and not force:
            raise RuntimeError(_MSG_NUMPY_REQUIRES_GRAD)
        return self._data

    def __array__(self, dtype=None, copy=None):
        if self._requires_grad:
            raise RuntimeError(_MSG_NUMPY_REQUIRES_GRAD)
        if dtype is not None:
            return self._data.astype(dtype, copy=bool(copy))
        return self._data.copy() if copy else self._data

    def __len__(self):
        if cnp.PyArray_NDIM(self._data) == 0:
            raise TypeError("len() of a 0-d tensor")
        return _shp(self._data)[0]

    def __iter__(self):
        if cnp.PyArray_NDIM(self._data) == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(_unbind(self, 0))

    def __bool__(self):
        if cnp.PyArray_SIZE(self._data) != 1:
            if cnp.PyArray_SIZE(self._data) == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.item())

    def __float__(self):
        if cnp.PyArray_SIZE(self._data) != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(self._data.item())

    def __int__(self):
        if cnp.PyArray_SIZE(self._data) != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self._data.item())

    def __index__(self):
        if cnp.PyArray_SIZE(self._data) != 1 or _dtype_of(self._data).category != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.item())

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return _tensor_repr(
            self._data, _dtype_of(self._data).name,
            grad_fn_name=type(self._grad_fn).__name__ if self._grad_fn is not None else None,
            requires_grad=self._requires_grad)

    def __reduce_ex__(self, proto):
        return (_rebuild_tensor, (np.array(self._data), self._requires_grad))

    def __deepcopy__(self, memo):
        if self._grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        cdef Tensor t = _make(self._data.copy())
        t._requires_grad = self._requires_grad
        if self._grad is not None:
            t._grad = _make(self._grad._data.copy())
        memo[id(self)] = t
        return t

    # ---- dtype conversion (differentiable)

    def to(self, *args, dtype=None, copy=False, **kwargs):
        """Convert to a dtype (``to(dtype)``, ``to(device, dtype)``, ``to(other)``)."""
        for a in args:
            if isinstance(a, dtype_cls):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = _dtype_of((<Tensor>a)._data)
            elif isinstance(a, (str, Device)):
                _check_device(a)
            else:
                raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
        if "device" in kwargs:
            _check_device(kwargs.pop("device"))
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if dtype is None or _to_dtype(dtype) is _dtype_of(self._data):
            return _clone(self) if copy else self
        return _cast(self, _to_dtype(dtype))

    def cpu(self):
        return self

    def float(self):
        return self.to(float32)

    def double(self):
        return self.to(float64)

    def half(self):
        return self.to(_DTYPE_BY_NAME["float16"])

    def long(self):
        return self.to(int64)

    def int(self):
        return self.to(_DTYPE_BY_NAME["int32"])

    def bool(self):
        return self.to(bool_)

    def clone(self, *, memory_format=None):
        return _clone(self)

    def contiguous(self, memory_format=None):
        if cnp.PyArray_IS_C_CONTIGUOUS(self._data):
            return self
        return _clone(self)

    # ---- in-place ops

    def zero_(self):
        return _inplace_fill(self, 0, True)

    def fill_(self, value):
        return _inplace_fill(self, value)

    def add_(self, other, *, alpha=1):
        return _inplace_binary(self, other, 0, alpha)

    def sub_(self, other, *, alpha=1):
        return _inplace_binary(self, other, 1, alpha)

    def mul_(self, other):
        return _inplace_binary(self, other, 2, 1)

    def div_(self, other, **rounding_mode):
        return _div_inplace(self, other, _rounding_mode_kw(rounding_mode))

    def copy_(self, src, non_blocking=False):
        return _inplace_copy(self, src)

    # ---- operators

    def __add__(self, other):
        return _binop(self, other, _add_any(self, other, 1), "+", False)

    def __radd__(self, other):
        return _binop(self, other, _add_any(self, other, 1), "+", True)

    def __iadd__(self, other):
        return _inplace_binary(self, other, 0, 1)

    def __sub__(self, other):
        return _binop(self, other, _sub_any(self, other), "-", False)

    def __rsub__(self, other):
        return _binop(self, other, _rsub_scalar(self, other), "-", True)

    def __isub__(self, other):
        return _inplace_binary(self, other, 1, 1)

    def __mul__(self, other):
        return _binop(self, other, _mul_any(self, other), "*", False)

    def __rmul__(self, other):
        return _binop(self, other, _mul_any(self, other), "*", True)

    def __imul__(self, other):
        return _inplace_binary(self, other, 2, 1)

    def __truediv__(self, other):
        return _binop(self, other, _div_any(self, other), "/", False)

    def __rtruediv__(self, other):
        return _binop(self, other, _rdiv_scalar(self, other), "/", True)

    def __itruediv__(self, other):
        return _inplace_binary(self, other, 3, 1)

    def __pow__(self, other, mod):
        return _binop(self, other, _pow_any(self, other), "** or pow()", False)

    def __rpow__(self, other, mod):
        return _binop(self, other, _rpow_scalar(self, other), "** or pow()", True)

    def __matmul__(self, other):
        return _matmul(self, _require_tensor(other, "matmul"))

    def __rmatmul__(self, other):
        return _matmul(_require_tensor(other, "matmul"), self)

    def __neg__(self):
        return _unary(self, AGC_NEG)

    def __pos__(self):
        return self

    def __abs__(self):
        return _unary(self, AGC_ABS)

    def __floordiv__(self, other):
        return _binop(self, other, _floordiv_op(self, other), "//", False)

    def __rfloordiv__(self, other):
        return _binop(self, other, _floordiv_op(other, self), "//", True)

    def __ifloordiv__(self, other):
        return _inplace_apply(self, lambda s, o: _floor_divide(s, o), (_check_operand(other),))

    def __mod__(self, other):
        return _binop(self, other, _mod_operator(self, other), "%", False)

    def __rmod__(self, other):
        return _binop(self, other, _mod_operator(other, self), "%", True)

    def __imod__(self, other):
        return _inplace_apply(self, lambda s, o: _mod_op(s, o, True), (_check_operand(other),))

    def __eq__(self, other):
        return _compare(self, other, np.equal)

    def __ne__(self, other):
        return _compare(self, other, np.not_equal)

    def __lt__(self, other):
        return _compare(self, other, np.less)

    def __le__(self, other):
        return _compare(self, other, np.less_equal)

    def __gt__(self, other):
        return _compare(self, other, np.greater)

    def __ge__(self, other):
        return _compare(self, other, np.greater_equal)

    def __invert__(self):
        if _dtype_of(self._data).category == 2:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return _make(_as_array(np.invert(self._data)))

    def __and__(self, other):
        return _nondiff_binary(self, other, np.bitwise_and, "bitwise_and")

    def __or__(self, other):
        return _nondiff_binary(self, other, np.bitwise_or, "bitwise_or")

    def __xor__(self, other):
        return _nondiff_binary(self, other, np.bitwise_xor, "bitwise_xor")

    def __getitem__(self, key):
        return _torch_getitem(self, key)

    def __setitem__(self, key, value):
        _torch_setitem(self, key, value)

    # ---- methods naming ops (implemented in _ops.pxi)

    def add(self, other, *, alpha=1):
        return _add_any(self, other, alpha)

    def sub(self, other, *, alpha=1):
        return _sub_any(self, other) if alpha == 1 else _add_any(self, other, -alpha)

    def mul(self, other):
        return _mul_any(self, other)

    def div(self, other, **rounding_mode):
        return _div_method(self, other, _rounding_mode_kw(rounding_mode))

    def pow(self, exponent):
        return _pow_any(self, exponent)

    def neg(self):
        return _unary(self, AGC_NEG)

    def abs(self):
        return _unary(self, AGC_ABS)

    def exp(self):
        return _unary(self, AGC_EXP)

    def log(self):
        return _unary(self, AGC_LOG)

    def sqrt(self):
        return _unary(self, AGC_SQRT)

    def sin(self):
        return _unary(self, AGC_SIN)

    def cos(self):
        return _unary(self, AGC_COS)

    def tanh(self):
        return _unary(self, AGC_TANH)

    def sigmoid(self):
        return _unary(self, AGC_SIGMOID)

    def relu(self):
        return _unary(self, AGC_RELU)

    def sum(self, dim=None, keepdim=False, *, dtype=None):
        return _sum(self, dim, keepdim, dtype)

    def mean(self, dim=None, keepdim=False, *, dtype=None):
        return _mean(self, dim, keepdim, dtype)

    def max(self, dim=None, keepdim=False):
        return _max_min(self, dim, keepdim, True)

    def min(self, dim=None, keepdim=False):
        return _max_min(self, dim, keepdim, False)

    def matmul(self, other):
        return _matmul(self, _require_tensor(other, "matmul"))

    def mm(self, other):
        return _mm(self, _require_tensor(other, "mm"))

    def reshape(self, *shape):
        return _reshape(self, _parse_shape(shape, "reshape"))

    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (dtype_cls, type, np.dtype)):
            raise NotImplementedError("view(dtype) is not supported by autograd_core")
        return _view(self, _parse_shape(shape, "view"))

    def view_as(self, other):
        return _view(self, _shp((<Tensor>_require_tensor(other, "view_as"))._data))

    def reshape_as(self, other):
        return _reshape(self, _shp((<Tensor>_require_tensor(other, "reshape_as"))._data))

    def flatten(self, start_dim=0, end_dim=-1):
        return _flatten(self, start_dim, end_dim)

    def transpose(self, dim0, dim1):
        return _transpose(self, dim0, dim1)

    def swapaxes(self, axis0, axis1):
        return _transpose(self, axis0, axis1)

    def t(self):
        return _t(self)

    @property
    def T(self):
        return _T(self)

    @property
    def mT(self):
        if cnp.PyArray_NDIM(self._data) < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                               f"Got {cnp.PyArray_NDIM(self._data)}-D tensor.")
        return _transpose(self, -2, -1)

    def permute(self, *dims):
        return _permute(self, _parse_shape(dims, "permute"))

    def squeeze(self, dim=None):
        return _squeeze(self, dim)

    def unsqueeze(self, dim):
        return _unsqueeze(self, dim)

    def expand(self, *sizes):
        return _expand(self, _parse_shape(sizes, "expand"))

    def expand_as(self, other):
        return _expand(self, _shp((<Tensor>_require_tensor(other, "expand_as"))._data))

    def unbind(self, dim=0):
        return _unbind(self, dim)

    def __getattr__(self, name):
        # Methods registered with @_tensor_method (ops defined outside this class body).
        # Only reached when normal lookup fails, so the methods above pay nothing.
        fn = _TENSOR_METHODS.get(name)
        if fn is None:
            raise AttributeError(f"'Tensor' object has no attribute '{name}'")
        return _BoundMethod(fn, self)


# name -> function(tensor, *args, **kwargs), for methods defined with their op in the
# op files (see _tensor_method); Tensor.__getattr__ finds them.
cdef dict _TENSOR_METHODS = {}


def _tensor_method(*names):
    """Register a function as Tensor method(s): ``@_tensor_method("exp2")``."""
    def register(fn):
        for n in (names or (fn.__name__,)):
            _TENSOR_METHODS[n] = fn
        return fn
    return register


import types as _types
_BoundMethod = _types.MethodType


dtype_cls = dtype


class Device:
    """The only device autograd_core has: ``device(type='cpu')``."""

    def __init__(self, type="cpu", index=None):
        if isinstance(type, Device):
            type = type.type
        if type.split(":")[0] != "cpu":
            raise RuntimeError(f"autograd_core runs on the CPU only; got device '{type}'")
        self.type = "cpu"
        self.index = None

    def __repr__(self):
        return "device(type='cpu')"

    def __str__(self):
        return "cpu"

    def __eq__(self, other):
        return isinstance(other, Device) or other == "cpu"

    def __hash__(self):
        return hash("cpu")


_CPU = Device("cpu")


cdef void _check_device(object d) except *:
    Device(d)


def _rebuild_tensor(arr, requires_grad):
    cdef Tensor t = _make(arr)
    t._requires_grad = requires_grad
    return t


cdef class _TensorHook:
    """A non-leaf tensor's hook, kept among its grad_fn's pre-hooks for one output."""
    cdef int output_nr
    cdef object fn

    def __init__(self, int output_nr, fn):
        self.output_nr = output_nr
        self.fn = fn


cdef object _binop(Tensor self, object other, object result, str symbol, bint reflected):
    """An operator's result; for operands of builtin types that no numeric protocol can
    take (str, None, list, ...), PyTorch's TypeError naming the type 'Tensor'."""
    if result is NotImplemented and type(other).__module__ == "builtins":
        a, b = ("Tensor", type(other).__name__) if not reflected else (type(other).__name__, "Tensor")
        raise TypeError(f"unsupported operand type(s) for {symbol}: '{a}' and '{b}'")
    return result


cdef object _require_tensor(object x, str fname):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fname}(): argument 'other' (position 1) must be Tensor, not {type(x).__name__}")
    return x
