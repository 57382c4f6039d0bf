# The Tensor type: its attributes, autograd flags, metadata, conversions and operator
# slots. Methods naming ops (t.exp(), t.sum(), ...) are defined with their ops in the
# family modules and installed into this class when those are imported
# (install_methods); the operators call the ops through OPS (Note [Op table]).

cdef Tensor make_view(Tensor base, cnp.ndarray arr):
    """A tensor over base's memory: it shares base's version counter, and requires grad
    when base does (requires_grad_of: as in PyTorch, even when made under no_grad,
    though then no gradient flows to base through it). A view of an inference tensor is
    one too, a leaf that does not require grad, and not a view to autograd (no _base:
    PyTorch tracks no views of inference tensors); a view of a normal tensor is normal,
    even inside inference_mode."""
    cdef Tensor t = Tensor.__new__(Tensor)
    gc_untrack(t)  # Note [Untracked by the cycle collector]
    t._data = arr
    if base._inference:
        t._inference = True
        return t
    t._vc = version_counter(base)
    t._view_version = t._vc.version
    t._base = base._base if base._base is not None else base
    cdef tuple steps = view_steps_of(base)
    if steps is not None:  # Note [View replay steps]
        tensor_extra(t).view_steps = steps + ((0, arr),)
    set_creation_meta(t, base, CM_INFERENCE_MODE if agc_inference_mode() else
                      (CM_DEFAULT if agc_grad_enabled() else CM_NO_GRAD_MODE))
    return t


cdef Tensor make_alias(Tensor t, cnp.ndarray arr):
    """A leaf over arr (t's memory) without history that shares t's version counter and
    is no view to autograd: what detach() and view(dtype) make. An inference tensor's
    alias is one too."""
    cdef Tensor a = make(arr)
    a._vc = version_counter(t)
    a._inference = t._inference
    return a


cdef dtype _grad_dtype_of(Tensor t):
    """t's grad_dtype: its own dtype unless set; None: any dtype."""
    gd = grad_dtype_field(t)
    if gd is None:
        return dtype_of(t._data)
    if gd is False:
        return None
    return <dtype>gd


cdef object _grad_fn_repr_name(Tensor t):
    """The grad_fn name repr shows: "Invalid" when reading it raises (a view made
    under no_grad whose base was modified in place), as PyTorch's."""
    try:
        fn = grad_fn_of(t)
    except RuntimeError:
        return "Invalid"
    if fn is None:
        return None
    name = type(fn).__name__
    # (a node of PyTorch's generic C++ type prints by its C++ name: grad_fn=<Identity>)
    return fn.name().rsplit("::", 1)[-1] if name == "CppFunction" else name


cdef void set_creation_meta(Tensor view, Tensor base, int meta) noexcept:
    """view, made from base, was made as meta says; a view of a view keeps the special
    way its base was made unless meta is special too (PyTorch's
    propagate_creation_meta: inference mode wins)."""
    cdef int prev = base._creation_meta if base._base is not None else CM_DEFAULT
    if meta == CM_DEFAULT or prev == CM_INFERENCE_MODE:
        meta = prev
    view._creation_meta = meta


# ---------------------------------------------------------------- data -> tensor

cdef str _MSG_NUMPY_TYPES = (
    "The only supported types are: float64, float32, float16, complex64, complex128, "
    "int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.")


cdef void _check_numpy_dtype(object arr) except *:
    """An ndarray a tensor can be made from (from_numpy, as_tensor, tensor): a dtype of
    ours, native byte order, no negative strides (PyTorch refuses the last two rather
    than copy silently)."""
    if dtype_from_numpy(arr.dtype) is None:
        raise TypeError(f"can't convert np.ndarray of type "
                        f"{arr.dtype.type.__module__}.{arr.dtype.type.__name__}. "
                        + _MSG_NUMPY_TYPES)
    if not arr.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte "
                         "order. Conversion between byte orders is currently not supported.")
    if isinstance(arr, np.ndarray) and any(st < 0 for st in arr.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with "
            "negative strides are not currently supported. (You can probably work around "
            "this by making a copy of your array  with array.copy().) ")


# Note [Tensors from Python data]
# tensor(), as_tensor(), asarray(), Tensor.new_tensor() and the legacy constructors
# (Tensor(seq), FloatTensor(seq), t.new(seq)) read Python data as PyTorch's
# internal_new_from_data does, in three passes over it:
#   1. the shape: the lengths along the first elements, each level any Python sequence
#      (list, tuple, deque, range, array.array, bytearray, a class with __len__ and
#      __getitem__; a Tensor or a number ends it; a str is refused or, inside a list,
#      nests until "too many dimensions 'str'");
#   2. the dtype (unless given): every element's, promoted (Python float -> the default
#      float, int -> int64, bool -> bool, a Tensor, ndarray or numpy scalar -> its own);
#      an object that is neither number nor sequence: "Could not infer dtype of X";
#   3. the values, stored element by element as that dtype with PyTorch's converters
#      (a float from anything with __float__, an int from __index__ or a float in range,
#      a bool from any number), each level checked against the shape.
# Errors therefore come where PyTorch's come: a ragged list fails its length check in
# pass 3, a list holding a set fails pass 2, a set given with a dtype fails pass 3.
# numpy would parse differently (ragged or object arrays, other promotion), so numpy
# only casts the filled buffer.

cdef int _MAX_DIMS = 128
cdef bint _warned_list_of_arrays = False
cdef int _max_data_depth = 1000     # set per call from sys.getrecursionlimit()


cdef str _tp_name(object obj):
    """The type's name as PyTorch's messages print it (Py_TYPE(obj)->tp_name)."""
    t = type(obj)
    return (<bytes>(<PyTypeObject *>t).tp_name).decode()


cdef dtype _numpy_data_dtype(object np_dtype):
    """Our dtype of a numpy dtype met among the data, refused as PyTorch refuses it."""
    cdef dtype d = dtype_from_numpy(np_dtype)
    if d is None:
        raise TypeError(f"can't convert np.ndarray of type {np_dtype.type.__module__}."
                        f"{np_dtype.type.__name__}. " + _MSG_NUMPY_TYPES)
    return d


cdef inline bint _is_sequence(object obj):
    """PySequence_Check as PyTorch's sees it: its Tensor is no sequence (ours has the
    sequence slot Cython fills for __getitem__), so a Tensor inside data is a number."""
    return PySequence_Check(obj) and not isinstance(obj, Tensor)


cdef list _data_sizes(object seq):
    """Pass 1 (PyTorch's compute_sizes)."""
    cdef list sizes = []
    cdef Py_ssize_t n
    while _is_sequence(seq):
        n = len(seq)
        sizes.append(n)
        if len(sizes) > _MAX_DIMS:
            raise ValueError(f"too many dimensions '{_tp_name(seq)}'")
        if n == 0:
            break
        try:
            seq = PySequence_GetItem(seq, 0)
        except Exception:
            raise ValueError(f"could not determine the shape of object type "
                             f"'{_tp_name(seq)}'") from None
    return sizes


cdef dtype _infer_data_dtype(object obj, int depth):
    """Pass 2 (PyTorch's infer_scalar_type). depth counts the nesting walked so far:
    PyTorch recurses into every element however deep (past the shape's dims too) and
    only the C stack limits it; here Python's recursion limit does."""
    if PyFloat_CheckExact(obj):
        return default_float
    if PyLong_CheckExact(obj):
        return int64
    if isinstance(obj, cnp.ndarray) or isinstance(obj, cnp.generic):
        return _numpy_data_dtype(obj.dtype)
    if PyFloat_Check(obj):
        return default_float
    if PyBool_Check(obj):
        return bool_
    if PyLong_Check(obj):
        return int64
    if PyComplex_Check(obj):
        return default_complex()
    if isinstance(obj, Tensor):
        return dtype_of((<Tensor>obj)._data)
    if isinstance(obj, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{_tp_name(obj)}'")
    if not _is_sequence(obj):
        raise RuntimeError(f"Could not infer dtype of {_tp_name(obj)}")
    cdef Py_ssize_t i, n = len(obj)
    if n == 0:
        return default_float
    cdef dtype result = None, d
    cdef PyObject **items = NULL
    if type(obj) is list or type(obj) is tuple:
        items = PySequence_Fast_ITEMS(obj)  # the common case, without a call per item
    if depth >= _max_data_depth:
        raise RecursionError("maximum recursion depth exceeded while inferring a tensor's "
                             "dtype")
    for i in range(n):
        item = <object>items[i] if items != NULL else PySequence_GetItem(obj, i)
        if item is obj:
            raise TypeError("new(): self-referential lists are incompatible")
        d = _infer_data_dtype(item, depth + 1)
        if d is not result:
            result = d if result is None else promote(result, d)
    return result


cdef enum _StoreKind:
    STORE_DOUBLE, STORE_INT, STORE_BOOL, STORE_COMPLEX


@cython.final
cdef class _DataStore:
    """Pass 3 (PyTorch's recursive_store and store_scalar): the values in C order into
    a buffer of double, int64 or bool, which numpy then casts to the dtype (float32 and
    float16 round from double as PyTorch's converters do; int8..int32 wrap from int64
    as its static_cast does, after the same range check)."""
    cdef list sizes
    cdef Py_ssize_t ndim, pos
    cdef _StoreKind kind
    cdef double *dbl                   # (STORE_COMPLEX: real and imaginary parts in turn)
    cdef int64_t *i64
    cdef cnp.npy_bool *flag
    cdef int64_t int_lo, int_hi        # the ints the dtype takes (uint8 wraps negatives)
    cdef double float_lo, float_hi     # the floats it takes (overflows<To>(double))
    cdef bint ints_only                # uint64: Python ints only, as PyTorch's unpacking
    cdef str name

    cdef int store(self, object obj, Py_ssize_t dim) except -1:
        global _warned_list_of_arrays
        cdef Py_ssize_t i, n
        cdef PyObject **items
        if dim == self.ndim:
            return self.store_scalar(obj)
        n = self.sizes[dim]
        seq = PySequence_Fast(obj, "not a sequence")
        if PySequence_Fast_GET_SIZE(seq) != n:
            raise ValueError(f"expected sequence of length {n} at dim {dim} "
                             f"(got {PySequence_Fast_GET_SIZE(seq)})")
        items = PySequence_Fast_ITEMS(seq)
        for i in range(n):
            item = <object>items[i]
            if not _warned_list_of_arrays and isinstance(item, cnp.ndarray):
                _warned_list_of_arrays = True
                warnings.warn(
                    "Creating a tensor from a list of numpy.ndarrays is extremely slow. "
                    "Please consider converting the list to a single numpy.ndarray with "
                    "numpy.array() before converting to a tensor.", UserWarning, stacklevel=4)
            self.store(item, dim + 1)
        return 0

    cdef int store_scalar(self, object obj) except -1:
        cdef double v
        cdef long long k
        cdef int overflow = 0
        if self.kind == STORE_DOUBLE:
            if PyComplex_Check(obj):
                raise TypeError("must be real number, not complex")
            self.dbl[self.pos] = PyFloat_AS_DOUBLE(obj) if PyFloat_CheckExact(obj) \
                else PyFloat_AsDouble(obj)
        elif self.kind == STORE_COMPLEX:
            c = complex(obj.item() if isinstance(obj, (Tensor, cnp.generic)) else obj)
            self.dbl[2 * self.pos] = c.real
            self.dbl[2 * self.pos + 1] = c.imag
        elif self.kind == STORE_INT:
            if self.ints_only and not PyLong_Check(obj):
                raise TypeError("an integer is required")
            if PyFloat_Check(obj):
                v = PyFloat_AS_DOUBLE(obj)
                if not (self.float_lo <= v <= self.float_hi):  # NaN and inf too
                    self.overflow()
                self.i64[self.pos] = <int64_t>v
            else:
                k = PyLong_AsLongLongAndOverflow(obj, &overflow)
                if overflow:
                    raise ValueError("Overflow when unpacking long long")
                if not (self.int_lo <= k <= self.int_hi):
                    self.overflow()
                self.i64[self.pos] = k
        else:
            if PyFloat_Check(obj):
                self.flag[self.pos] = PyFloat_AS_DOUBLE(obj) != 0
            elif isinstance(obj, np.bool_):  # numpy's bool has no __index__
                self.flag[self.pos] = bool(obj)
            elif PyComplex_Check(obj):
                self.flag[self.pos] = obj != 0
            else:
                # an int past int64 reads as true (numpy's rule, which PyTorch keeps)
                k = PyLong_AsLongLongAndOverflow(obj, &overflow)
                self.flag[self.pos] = overflow != 0 or k != 0
        self.pos += 1
        return 0

    cdef int overflow(self) except -1:
        raise value_overflow_error(self.name)


cdef cnp.ndarray _store_data(object data, list sizes, dtype d):
    """Pass 3 over data of the given shape, as an array of dtype d."""
    cdef _DataStore st = _DataStore.__new__(_DataStore)
    cdef Py_ssize_t n = 1
    for s in sizes:
        n *= <Py_ssize_t>s
    st.sizes = sizes
    st.ndim = len(sizes)
    st.name = d.name
    if d is bool_:
        st.kind = STORE_BOOL
        buf = np.empty(n, dtype=np.bool_)
        st.flag = <cnp.npy_bool *>cnp.PyArray_DATA(buf)
    elif d.category == CAT_COMPLEX:
        st.kind = STORE_COMPLEX
        buf = np.empty(n, dtype=np.complex128)
        st.dbl = <double *>cnp.PyArray_DATA(buf)
    elif d.is_floating_point:
        st.kind = STORE_DOUBLE
        buf = np.empty(n, dtype=np.float64)
        st.dbl = <double *>cnp.PyArray_DATA(buf)
    else:
        st.kind = STORE_INT
        info = np.iinfo(d.np_dtype)
        # (uint64 values past int64 come as Python ints through _creation's own path)
        st.int_hi = min(info.max, INT64_MAX)
        # c10's overflows<To>: an unsigned type takes negative ints down to -max (they
        # wrap, two's complement), but no negative float
        st.int_lo = info.min if d.is_signed else -st.int_hi
        st.ints_only = d is uint64
        st.float_lo = <double>info.min
        st.float_hi = <double>info.max
        buf = np.empty(n, dtype=np.int64)
        st.i64 = <int64_t *>cnp.PyArray_DATA(buf)
    if n:
        st.store(data, 0)
    if is_reduced_float(d):
        buf = buf.astype(np.float32)  # c10::Half/BFloat16 are made from a float: round there first
    with quiet():
        return buf.astype(d.np_dtype, copy=False).reshape(tuple(sizes))


cdef cnp.ndarray _array_from_data(object data, object dtype_arg):
    """A fresh array for tensor(data) (Note [Tensors from Python data]); dtype_arg
    None infers the dtype from data."""
    global _max_data_depth
    cdef dtype d = None if dtype_arg is None else to_dtype(dtype_arg)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{_tp_name(data)}'")
    if isinstance(data, Tensor):
        arr = (<Tensor>data)._data
        return np.array(arr, dtype=d.np_dtype if d is not None else None, copy=True)
    if isinstance(data, np.ndarray):
        _check_numpy_dtype(data)
        return np.array(data, dtype=d.np_dtype if d is not None else None, copy=True)
    if hasattr(type(data), "__dlpack__"):
        # another library's tensor (PyTorch's, say): its values through DLPack, copied
        arr = array_from_dlpack_capsule(dlpack_capsule_of(data))
        return np.array(arr, dtype=d.np_dtype if d is not None else None, copy=True)
    sizes = _data_sizes(data)
    if d is None:
        _max_data_depth = sys.getrecursionlimit()
        d = _infer_data_dtype(data, 0)
    return _store_data(data, sizes, d)


def legacy_array_from_data(data, d):
    """The legacy constructors' data (Tensor(seq), FloatTensor(seq), t.new(seq)): a
    sequence, read as tensor() reads it with dtype d."""
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{_tp_name(data)}'")
    if not PySequence_Check(data):
        raise TypeError(f"new(): data must be a sequence (got {_tp_name(data)})")
    return _array_from_data(data, d)


cdef void _check_requires_grad_dtype(Tensor t, bint flag, str msg=MSG_NOT_FLOAT_GRAD) except *:
    if flag and not dtype_of(t._data).is_floating_point:
        if cnp.PyArray_ISCOMPLEX(t._data):
            note_complex_grad()  # Note [Complex autograd]
            return
        raise RuntimeError(msg)


def tensor_from_data(data, dtype=None, requires_grad=False):
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
    cdef Tensor t = make(_array_from_data(data, dtype))
    _check_requires_grad_dtype(t, requires_grad)
    t._requires_grad = requires_grad
    return t


cdef inline object _readable(cnp.ndarray arr):
    """arr, or for bfloat16 its float32 copy (exact): what item() and tolist() read, so
    that they give Python floats as PyTorch's do, not ml_dtypes scalars."""
    return arr.astype(np.float32) if cnp.PyArray_TYPE(arr) == bfloat16.typenum else arr


cdef int _check_numpy_exportable(Tensor t) except -1:
    """PyTorch's numpy() and __array__ refuse bfloat16 (numpy has no such type); the
    library's own Python code reads such tensors through array_of()."""
    if cnp.PyArray_TYPE(t._data) == bfloat16.typenum:
        raise TypeError("Got unsupported ScalarType BFloat16")
    cdef int bits = lazy_bits(t)
    if bits & LAZY_CONJ:
        raise RuntimeError("Can't call numpy() on Tensor that has conjugate bit set. Use "
                           "tensor.resolve_conj().numpy() instead.")
    if bits & LAZY_NEG:
        raise RuntimeError("Can't call numpy() on Tensor that has negative bit set. Use "
                           "tensor.resolve_neg().numpy() instead.")
    return 0


cdef Tensor _setter_value(object value, Tensor like):
    """The value assigned to Tensor.real / Tensor.imag as a tensor (a Python number
    becomes one of like's real dtype, as PyTorch's copy_ takes it)."""
    if isinstance(value, Tensor):
        return <Tensor>value
    return make(np.asarray(value))


def array_of(Tensor t):
    """The array holding t's values, whatever its dtype (bfloat16 included, which
    numpy() refuses as PyTorch's does): for the library's Python layer only."""
    if type(t) is not Tensor and type(t) is _sparse_type:
        refuse_sparse("_to_copy")   # a sparse tensor's array is a placeholder
    return t._data


def from_array(arr, requires_grad=False):
    """A leaf over an existing array, sharing its memory (from_numpy, as_tensor)."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    _check_numpy_dtype(arr)
    cdef Tensor t = make(arr)
    _check_requires_grad_dtype(t, requires_grad)
    t._requires_grad = requires_grad
    return t


def parse_size(args, fname):
    """Sizes as given to zeros(2, 3) / zeros((2, 3)) / zeros(Size), as a tuple."""
    return parse_shape(tuple(args), fname)


def to_dtype_py(d, fname=None):
    """A dtype argument checked and normalised (for the Python layer); fname, the
    function whose argument it is, prefixes its TypeError as PyTorch's parser does."""
    if fname is None or isinstance(d, dtype):
        return to_dtype(d)
    return to_dtype_named(d, fname)


cdef bint _warned_float_requires_grad = False  # float(t) of a tensor requiring grad warned
# Called (tensor, what) when Python reads a tensor's values (bool(), item(), tolist(),
# numpy(), printing, ...) while compiled mode records a call: such a read is a graph break
# (Note [Compiled mode], autograd_core/_dynamo/__init__.py). None otherwise: one pointer
# check per conversion, nothing on any op's path.
cdef object _value_read_hook = None


def _set_value_read_hook(hook):
    """Install (or with None remove) the hook told of Python reads of tensor values."""
    global _value_read_hook
    _value_read_hook = hook


cdef object _real_item(Tensor t, str ctype):
    """t's one value for float(t) / int(t): a complex value only when its imaginary
    part is zero (PyTorch's checked conversion)."""
    v = t._data.item()
    if isinstance(v, complex):
        if v.imag != 0:
            raise value_overflow_error(ctype)
        return v.real
    return v


# ---------------------------------------------------------------- Size

class Size(tuple):
    """A tensor's shape: a tuple of ints that prints as ``autograd_core.Size([2, 3])``.

    >>> import autograd_core as torch
    >>> torch.zeros(2, 3).shape
    autograd_core.Size([2, 3])
    """

    def __repr__(self):
        return "autograd_core.Size([" + ", ".join([str(s) for s in self]) + "])"

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))


Size.__module__ = "autograd_core"


# ---------------------------------------------------------------- device

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip",
                 "ve", "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")


class device:
    """A device, as PyTorch names them (``device("cuda:1")`` is a valid name); tensors
    live on the CPU only: using any other device raises PyTorch's error for a build
    without it (``check_device``).

    >>> import autograd_core as torch
    >>> torch.device("cpu")
    device(type='cpu')
    """

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        elif not isinstance(type, str):
            if isinstance(type, int) and not isinstance(type, bool):
                raise RuntimeError("Cannot access accelerator device when none is available.")
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({type.__class__.__name__}, )")
        else:
            kind, sep, idx = type.partition(":")
            # PyTorch's device string grammar: letters/underscores, then ":<index>"
            if not (kind and kind.replace("_", "a").isalpha() and kind.isascii()) or (
                    sep and not (idx.isdigit() and idx.isascii() and (idx == "0" or idx[0] != "0"))):
                raise RuntimeError(f"Invalid device string: '{type}'")
            if kind not in _DEVICE_TYPES:
                raise RuntimeError(
                    "Expected one of " + ", ".join(_DEVICE_TYPES)
                    + f" device type at start of device string: {kind}")
            type = kind
            if sep:
                index = int(idx)
        # the CPU's index is not kept (PyTorch prints device(type='cpu') for "cpu:0" too)
        self.type = type
        self.index = None if type == "cpu" else index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                other = device(other)
            except (RuntimeError, TypeError):
                return False
        return isinstance(other, device) and other.type == self.type and other.index == self.index

    def __hash__(self):
        return hash(str(self))


def check_device(d):
    """A device argument: the CPU, or the error PyTorch raises when a program asks for a
    device this build does not have (an AssertionError for CUDA, as PyTorch's
    lazy CUDA initialisation raises)."""
    dev = d if isinstance(d, device) else device(d)
    if dev.type == "cpu":
        return dev
    if dev.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if dev.type == "meta":
        raise RuntimeError("autograd_core has no meta tensors: tensors live on the CPU only")
    raise RuntimeError(f"PyTorch is not linked with support for {dev.type} devices")


device.__module__ = "autograd_core"
cdef object _CPU = device("cpu")


# ---------------------------------------------------------------- to()'s arguments
# Note [to() overloads]: Tensor.to and nn.Module.to read their arguments with one parser,
# as PyTorch's (torch._C._nn._parse_to is Module.to's): the first of three signatures
# that takes them wins, (device, dtype, non_blocking, copy), (dtype, non_blocking, copy)
# and (tensor, non_blocking, copy), each with keyword-only memory_format; a Python
# number is a tensor there (its dtype: to(1.5) is float64), a Python type a dtype.

_TO_SIGNATURES = (
    " * (autograd_core.device device = None, autograd_core.dtype dtype = None, "
    "bool non_blocking = False, bool copy = False, *, "
    "autograd_core.memory_format memory_format = None)\n"
    " * (autograd_core.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "autograd_core.memory_format memory_format = None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
    "autograd_core.memory_format memory_format = None)\n")
cdef tuple _TO_PARAMS = (("device", "dtype", "non_blocking", "copy"),
                         ("dtype", "non_blocking", "copy"),
                         ("tensor", "non_blocking", "copy"))


cdef str _to_type_name(object x):
    if isinstance(x, Tensor):
        return "Tensor"
    if isinstance(x, (_dtype_type, device, layout, memory_format)):
        return "autograd_core." + type(x).__name__
    return type(x).__name__


cdef bint _to_accepts(str param, object x, bint first):
    if param == "device":
        return x is None or isinstance(x, (str, device)) or (
            isinstance(x, int) and not isinstance(x, bool))
    if param == "dtype":
        return (x is None and first) or isinstance(x, _dtype_type) or x in (float, int, bool)
    if param == "tensor":
        return isinstance(x, (Tensor, float, bool, complex))
    return isinstance(x, bool)          # non_blocking, copy


cdef object _to_dtype_of(object x):
    """The dtype an accepted dtype or tensor argument asks for."""
    if x is None:
        return None
    if isinstance(x, Tensor):
        return dtype_of((<Tensor>x)._data)
    if isinstance(x, bool):
        return bool_
    if isinstance(x, float):
        return float64
    if isinstance(x, complex):
        return to_dtype(complex)
    return to_dtype(x)


def _parse_to(tuple args, dict kwargs):
    """(device, dtype, non_blocking, copy (None if not given), memory_format) of a to() call
    (Note [to() overloads]); the device is checked (only the CPU exists here)."""
    cdef tuple params
    cdef dict got
    cdef Py_ssize_t n = len(args), i
    cdef bint ok
    if not kwargs and n == 1:       # to(dtype) / to(None) / to(other): the common calls
        if isinstance(args[0], _dtype_type):
            return None, args[0], False, None, None
        if args[0] is None:
            return None, None, False, None, None
        if isinstance(args[0], Tensor):
            return None, dtype_of((<Tensor>args[0])._data), False, None, None
    if n > 4:
        raise TypeError(f"to() takes from 0 to 4 positional arguments but {n} were given")
    mf = kwargs.get("memory_format") if kwargs else None
    if mf is None or isinstance(mf, memory_format):
        for params in _TO_PARAMS:
            if n > len(params):
                continue
            got = {}
            for i in range(n):
                got[params[i]] = args[i]
            ok = True
            if kwargs:
                for k, v in kwargs.items():
                    if k == "memory_format":
                        continue
                    if k not in params or k in got:
                        ok = False
                        break
                    got[k] = v
            if ok:
                for k, v in got.items():
                    if not _to_accepts(k, v, params[0] == "device"):
                        ok = False
                        break
            if not ok:
                continue
            dev = got.get("device")
            if dev is not None and not (dev is _CPU or (isinstance(dev, str) and dev == "cpu")):
                if isinstance(dev, int) and dev < 0:
                    raise RuntimeError("Device index must not be negative")
                dev = check_device(dev)
            elif dev is not None:
                dev = _CPU
            return (dev, _to_dtype_of(got.get("tensor", got.get("dtype"))),
                    got.get("non_blocking", False), got.get("copy"), mf)
    names = [_to_type_name(a) for a in args]
    kw = [f"{k}={_to_type_name(v)}" for k, v in kwargs.items()]
    # (PyTorch's spelling: keywords alone end in ", ")
    shown = ", ".join(names + kw) if names else "".join(k + ", " for k in kw)
    raise TypeError(f"to() received an invalid combination of arguments - got ({shown}), but "
                    f"expected one of:\n{_TO_SIGNATURES}")


# ---------------------------------------------------------------- layout, memory_format

class layout:
    """How a tensor's elements are stored: always ``strided`` here (PyTorch's dense
    layout).

    >>> import autograd_core as torch
    >>> torch.zeros(1).layout
    autograd_core.strided
    """

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "autograd_core." + self.name

    def __reduce__(self):
        return (_layout_by_name, (self.name,))


class memory_format:
    """The order of a tensor's dims in memory that contiguous(), clone() and the
    creation functions may ask for: ``contiguous_format`` (row-major),
    ``channels_last`` (NHWC for a 4-d NCHW tensor), ``channels_last_3d`` (NDHWC) or
    ``preserve_format`` (as the input).

    >>> import autograd_core as torch
    >>> torch.zeros(1, 2, 3, 4).contiguous(memory_format=torch.channels_last).stride()
    (24, 1, 8, 2)
    """

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "autograd_core." + self.name

    def __reduce__(self):
        return (_memory_format_by_name, (self.name,))


layout.__module__ = memory_format.__module__ = "autograd_core"
strided = layout("strided")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


def _layout_by_name(name):
    return strided


def _memory_format_by_name(name):
    return {"contiguous_format": contiguous_format, "preserve_format": preserve_format,
            "channels_last": channels_last, "channels_last_3d": channels_last_3d}[name]


cdef tuple _channels_last_order(object fmt, Py_ssize_t nd):
    """The order of dims from outermost to innermost in memory that fmt asks for
    (None: row-major), raising as PyTorch does for a rank fmt cannot have."""
    if fmt is channels_last:
        if nd != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        return (0, 2, 3, 1)
    if fmt is channels_last_3d:
        if nd != 5:
            raise RuntimeError("required rank 5 tensor to use channels_last_3d format")
        return (0, 2, 3, 4, 1)
    return None


cdef object _check_memory_format(object fmt, str fname):
    if fmt is not None and not isinstance(fmt, memory_format):
        raise TypeError(f"{fname}(): argument 'memory_format' must be "
                        f"autograd_core.memory_format, not {type(fmt).__name__}")
    return fmt


cdef bint _is_contiguous_as(cnp.ndarray arr, tuple order):
    """Whether arr is laid out densely in the dim order given (size-1 dims may have any
    stride, as in PyTorch's checks)."""
    cdef Py_ssize_t expected = arr.itemsize, d
    shape = shape_of(arr)
    strides = (<object>arr).strides
    for d in reversed(order):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _rebuild_tensor(arr, requires_grad):
    cdef Tensor t = make(arr)
    t._requires_grad = requires_grad
    return t


cdef cnp.ndarray _deepcopy_values(cnp.ndarray values, dict memo):
    """A copy of values for copy.deepcopy: the memory values lies in is copied once per
    deepcopy (memo, keyed by the owning ndarray's id), so that tensors sharing memory
    before share it after, as PyTorch's storages do."""
    cdef object root = values
    if cnp.PyArray_SIZE(values) == 0:
        # nothing to share; the copy keeps the strides (Note [Strides of empty tensors])
        return np.lib.stride_tricks.as_strided(values.copy(), shape_of(values),
                                              (<object>values).strides)
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not (root.flags.c_contiguous or root.flags.f_contiguous):
        return values.copy()  # memory not owned by an ndarray laid out densely: no sharing
    cdef object root_copy = memo.get(id(root))
    if root_copy is None:
        root_copy = root.copy(order="K")
        memo[id(root)] = root_copy
    if values is root:
        return root_copy
    cdef Py_ssize_t offset = (<char*>cnp.PyArray_DATA(values)
                              - <char*>cnp.PyArray_DATA(<cnp.ndarray>root))
    cdef object v = values
    return np.ndarray(v.shape, v.dtype, root_copy.ravel(order="K").view(np.uint8), offset,
                      v.strides)


# ---------------------------------------------------------------- Tensor methods

cdef dict _INSTALLED_METHODS = {}


cdef int install_methods(dict methods) except -1:
    """Make each function a Tensor method (a real class attribute: dir(), help(),
    inspect and subclass overrides work). A name is installed once: two modules
    defining the same method is a bug (one owner per op)."""
    cdef dict tp_dict = <dict>(<PyTypeObject *>Tensor).tp_dict
    for name, fn in methods.items():
        if name in tp_dict or name in _INSTALLED_METHODS:
            raise ImportError(f"Tensor.{name} is defined twice")
        tp_dict[name] = fn
        _INSTALLED_METHODS[name] = fn
    PyType_Modified(Tensor)


def installed_methods():
    """{name: function} of the Tensor methods the op modules installed."""
    return dict(_INSTALLED_METHODS)


def _install_methods(methods):
    """install_methods for the Python layer (autograd_core/*.py)."""
    install_methods(dict(methods))


cdef Tensor _conj_transpose(Tensor self):
    """The last two dims swapped, conjugated if complex (Tensor.mH / Tensor.H), through
    differentiable ops (transpose, conj) so the result has PyTorch's history."""
    cdef Tensor t = OPS.transpose(self, -2, -1)
    if cnp.PyArray_ISCOMPLEX(self._data):
        return OPS.conj(t)
    return t


# Note [Operators with builtin operands]
# An operator that cannot take its operand (a str, None, a list, ...) returns
# NotImplemented, as PyTorch's Python operators do, and Python writes the TypeError
# itself: it names the type 'Tensor' (Note [Tensor's type names]), and the sequences
# keep their own protocol (s * t repeats s by t.__index__(); s + t is the sequence's
# concatenation error).


cdef int _inplace_castable(Tensor self, object o) except -1:
    """An in-place bitwise operator's first check, as PyTorch's: the promoted type must
    be castable to self's (t &= 2.5 on an int64 t), before the kernel's dtype check."""
    _check_castable(result_type((self, o)), self)
    return 0


cdef object _arith_operand(Tensor self, object other, str name):
    """The operand of an arithmetic operator (+ - * / **) after the complex check of
    name (Note [Dtype guard]); for an operand no numeric protocol takes,
    NotImplemented, which the operator returns (Note [Operators with builtin
    operands])."""
    cdef object o = arg_operand(other)
    if o is NotImplemented:
        return NotImplemented
    check_complex_operands(name, self, o)
    return o


cdef dict _INPLACE_ATEN = {"+=": "add_.Tensor", "-=": "sub_.Tensor", "*=": "mul_.Tensor",
                          "/=": "div_.Tensor"}


cdef object _inplace_operand(object other, str symbol):
    if type(other) is not Tensor and type(other) is _sparse_type:
        # a sparse operand of an in-place operator (Note [Sparse tensors])
        refuse_sparse(_INPLACE_ATEN.get(symbol, symbol))
    cdef object o = arg_operand(other)
    if o is NotImplemented:
        raise TypeError(f"unsupported operand type(s) for {symbol}: 'Tensor' and "
                        f"'{type(other).__name__}'")
    return o


# (no trashcan of its own: every long chain of deallocations runs through Nodes --
# a tensor's grad_fn, a saved input's history -- whose trashcan, set in tensor.pxd,
# bounds the recursion; Note [Tensor layout] for what a tensor's freeing costs)
@cython.freelist(256)
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
            self._data = legacy_array_from_data(args[0], default_float)
        else:
            shape = parse_shape(args, "Tensor")
            self._data = np.empty(shape, dtype=default_float.np_dtype)

    # ---- autograd attributes

    @property
    def requires_grad(self):
        return requires_grad_of(self)

    @requires_grad.setter
    def requires_grad(self, value):
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        self._set_requires_grad(value, MSG_NOT_FLOAT_GRAD_SETTER)

    @requires_grad.deleter
    def requires_grad(self):
        raise RuntimeError("requires_grad must be a bool")

    cdef _set_requires_grad(self, bint value, str msg):
        if grad_fn_of(self) is not None:
            if not value:
                raise RuntimeError(MSG_NONLEAF_REQUIRES_GRAD)
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
        self._set_requires_grad(requires_grad, MSG_NOT_FLOAT_GRAD_INPLACE)
        return self

    @property
    def grad_fn(self):
        return grad_fn_of(self)

    @property
    def _grad_fn(self):
        return grad_fn_of(self)

    @_grad_fn.deleter
    def _grad_fn(self):
        raise RuntimeError("Deletion of _grad_fn not allowed. Detach tensor instead!")

    @property
    def _backward_hooks(self):
        """The tensor hooks registered on this tensor since its history last changed, by
        handle order (Note [Tensor hooks live on the tensor]); None if none were, empty
        once they are all removed, as PyTorch's."""
        grad_fn_of(self)  # a view's history read afresh forgets them
        hooks = tensor_hooks(self)
        return None if hooks is None else dict(enumerate(hooks))

    @_backward_hooks.deleter
    def _backward_hooks(self):
        raise RuntimeError("Deletion of _backwards_hooks not allowed!")

    @property
    def volatile(self):
        warnings.warn("volatile was removed (Variable.volatile is always False)",
                      UserWarning, stacklevel=2)
        return False

    @property
    def is_leaf(self):
        return grad_fn_of(self) is None

    @property
    def grad(self):
        try:
            leaf = grad_fn_of(self) is None
        except RuntimeError:  # a view whose history cannot be rebuilt: no leaf either
            leaf = False
        if not leaf and not retains_grad_of(self):
            warnings.warn(MSG_NONLEAF_GRAD_ACCESS, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is None:
            self._grad = None
            return
        if not isinstance(value, Tensor):
            raise TypeError("assigned grad expected to be a Tensor or None but got grad of type "
                            + type(value).__name__)
        if value is self:
            raise RuntimeError("can't assign Variable as its own grad")
        cdef dtype want = _grad_dtype_of(self)
        if want is not None and dtype_of((<Tensor>value)._data) is not want:
            raise RuntimeError(
                f"attempting to assign a gradient with dtype "
                f"'{dtype_of((<Tensor>value)._data).cpp_name}' to a tensor with grad_dtype "
                f"'{want.scalar_name}'. The gradient must match the tensor's grad_dtype "
                "(defaults to the tensor's dtype). You can set the tensor's grad_dtype "
                "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype "
                "with caution. Diverging the dtypes of a tensor and its gradient may break "
                "downstream systems that assume they match.")
        if not same_shape((<Tensor>value)._data, self._data):
            raise RuntimeError(
                f"attempting to assign a gradient of size '{shape_str(shape_of((<Tensor>value)._data))}' "
                f"to a tensor of size '{shape_str(shape_of(self._data))}'. Please ensure that the "
                "gradient and the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def grad_dtype(self):
        """The dtype a leaf's gradient is given (accumulated gradients are cast to it,
        an assigned .grad must have it): the tensor's dtype unless set; None allows any.

        >>> import autograd_core as torch
        >>> x = torch.tensor([1., 2.], requires_grad=True)
        >>> x.grad_dtype = torch.float64
        >>> (x * 2).sum().backward()
        >>> x.grad
        tensor([2., 2.], dtype=autograd_core.float64)
        """
        if grad_fn_of(self) is not None:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        return _grad_dtype_of(self)

    @grad_dtype.setter
    def grad_dtype(self, value):
        if grad_fn_of(self) is not None:
            raise RuntimeError("grad_dtype can only be set on leaf tensors.")
        if value is not None and not isinstance(value, dtype):
            raise RuntimeError("grad_dtype must be a autograd_core.dtype or None, but got "
                               + type(value).__name__)
        if value is not None and self._grad is not None and \
                dtype_of(self._grad._data) is not value:
            raise RuntimeError(
                f"Cannot set grad_dtype to '{(<dtype>value).scalar_name}' because there is "
                f"already a gradient with dtype '{dtype_of(self._grad._data).cpp_name}'. "
                "Please clear the gradient (.grad = None) before changing grad_dtype, or "
                "ensure the new grad_dtype matches the existing gradient's dtype.")
        tensor_extra(self).grad_dtype = False if value is None else value

    @property
    def retains_grad(self):
        return retains_grad_of(self)

    def retain_grad(self):
        """Keep this non-leaf tensor's gradient in ``.grad`` during backward."""
        if not requires_grad_of(self):
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        # a leaf by its own history (PyTorch's C++ is_leaf): a view made in no_grad mode,
        # even one whose base was written since (its grad_fn would raise), is left alone
        if self._grad_fn is None or retains_grad_of(self):
            return
        if grad_fn_of(self) is None:
            return
        cdef NodeExtra x = user_extra(self._grad_fn)
        if x.retained is None:
            x.retained = {}
        x.retained[self._output_nr] = weakref.ref(self)
        tensor_extra(self).retains_grad = True

    @property
    def output_nr(self):
        grad_fn_of(self)
        return self._output_nr

    def data_ptr(self):
        """The address of the first element (0 for a tensor without elements)."""
        if _value_read_hook is not None:
            _value_read_hook(self, "data_ptr")
        if cnp.PyArray_SIZE(self._data) == 0:
            return 0
        return <size_t>cnp.PyArray_DATA(map_to_source(self._data))

    @property
    def _version(self):
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        # a tensor with history may share a counter its grad_fn made (Note [Counters
        # made by the node]): an unpacked saved output bumped in place
        keep_counter(self)
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
        if not requires_grad_of(self):
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        # Note [Tensor hooks live on the tensor]: as PyTorch's (the tensor's hooks_, which
        # its AccumulateGrad reads when it runs), every hook is kept on the tensor, a
        # non-leaf's on its grad_fn too: a leaf made non-leaf by detach_() and an in-place
        # op is still the variable of the AccumulateGrad that graphs recorded before lead
        # to, and that node runs the hooks registered on it since (fuzzer seed 416870).
        # A new history forgets them (move_retained_grad, PyTorch's
        # update_tensor_hooks_on_new_gradfn); the old grad_fn keeps its own.
        cdef TensorExtra tx = tensor_extra(self)
        if tx.hooks is None:
            tx.hooks = []
            gc_track(self)  # Note [Tensor layout]: a hook may refer to its tensor
            gc_track(tx)
        tx.hooks.append(hook)
        if grad_fn_of(self) is None:
            return RemovableHandle(tx.hooks, hook)
        cdef NodeExtra x = user_extra(self._grad_fn)
        if x.pre_hooks is None:
            x.pre_hooks = []
        wrapper = TensorHook(self._output_nr, hook)
        x.pre_hooks.append(wrapper)
        return RemovableHandle(x.pre_hooks, wrapper, tx.hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Run ``hook(tensor)`` after a gradient is accumulated into this leaf's ``.grad``."""
        if not requires_grad_of(self):
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if grad_fn_of(self) is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        cdef TensorExtra tx = tensor_extra(self)
        if tx.post_acc_hooks is None:
            tx.post_acc_hooks = []
            gc_track(self)  # Note [Tensor layout]
            gc_track(tx)
        tx.post_acc_hooks.append(hook)
        return RemovableHandle(tx.post_acc_hooks, hook)

    @property
    def data(self):
        # A detached alias with its own version counter: changes through .data are
        # invisible to autograd, as in PyTorch.
        return make(self._data)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and not is_grad_array((<Tensor>value)._data):
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        keep_counter(self)  # the counter stays (Note [Counters made by the node])
        self._data = (<Tensor>value)._data

    @data.deleter
    def data(self):
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

    def detach(self):
        """A new leaf sharing this tensor's memory and version counter, without history
        (an inference tensor exactly when this one is: detach is a view op)."""
        return make_alias(self, self._data)

    def detach_(self):
        """Detach this tensor from the graph in place."""
        if self._base is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are "
                               "using DistributedDataParallel (DDP) for training, and "
                               "gradient_as_bucket_view is set as True, gradients are views "
                               "of DDP buckets, and hence detach_() cannot be called on these "
                               "gradients. To fix this error, please refer to the "
                               "Optimizer.zero_grad() function in torch/optim/optimizer.py "
                               "as the solution.")
        keep_counter(self)  # Note [Counters made by the node]
        self._grad_fn = None
        self._output_nr = 0
        self._fw = None  # detach_ drops the tangent too, as PyTorch's
        self._requires_grad = False
        return self

    # ---- shape and metadata

    @property
    def shape(self):
        return Size(shape_of(self._data))

    def size(self, dim=None):
        """The shape as a Size, or one dimension's length."""
        if dim is None:
            return Size(shape_of(self._data))
        return shape_of(self._data)[wrap_dim(dim, cnp.PyArray_NDIM(self._data))]

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
        return dtype_of(self._data)

    @property
    def device(self):
        return _CPU

    @property
    def is_cuda(self):
        return False

    def is_floating_point(self):
        return dtype_of(self._data).is_floating_point

    def is_complex(self):
        """Whether the dtype is complex (complex64, complex128).

        >>> import autograd_core as torch
        >>> torch.tensor([1j]).is_complex(), torch.tensor([1.]).is_complex()
        (True, False)
        """
        return cnp.PyArray_ISCOMPLEX(self._data)

    def is_signed(self):
        return dtype_of(self._data).is_signed

    # ---- complex views of a real tensor (no complex dtypes; conj, resolve_conj,
    # resolve_neg, real and imag are view ops of the view family)

    def is_nonzero(self):
        if _value_read_hook is not None:
            _value_read_hook(self, "is_nonzero")
        cdef Py_ssize_t n = cnp.PyArray_SIZE(self._data)
        if n == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if n > 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.item() != 0)

    def is_same_size(self, other):
        if not isinstance(other, Tensor):
            raise not_tensor_error("is_same_size", "other", 1, other)
        return shape_of(self._data) == shape_of((<Tensor>other)._data)

    def equal(self, other):
        """True when other has input's shape and equal values (nan is never equal)."""
        if _value_read_hook is not None:
            _value_read_hook(self, "equal")
        if not isinstance(other, Tensor):
            raise not_tensor_error("equal", "other", 1, other)
        if shape_of(self._data) != shape_of((<Tensor>other)._data):
            return False
        return bool(np.all(OPS.eq(self, other)._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """Whether isclose(input, other, rtol, atol, equal_nan) holds everywhere."""
        if _value_read_hook is not None:
            _value_read_hook(self, "allclose")
        if not isinstance(other, Tensor):
            raise not_tensor_error("allclose", "other", 1, other)
        return bool(np.all(OPS.isclose(self, other, rtol, atol, equal_nan)._data))

    def element_size(self):
        return self._data.itemsize

    def is_contiguous(self, memory_format=None):
        _check_memory_format(memory_format, "is_contiguous")
        cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
        if memory_format is channels_last or memory_format is channels_last_3d:
            if nd != (4 if memory_format is channels_last else 5):
                return False
            return _is_contiguous_as(self._data, _channels_last_order(memory_format, nd))
        return bool(cnp.PyArray_IS_C_CONTIGUOUS(self._data))

    def storage_offset(self):
        """Where the first element lies in the memory the tensor shares with its base,
        in elements (0 for a tensor that is not a view)."""
        if self._base is None or cnp.PyArray_SIZE(self._data) == 0:
            return 0
        return _storage_offset(self)

    @property
    def nbytes(self):
        return cnp.PyArray_NBYTES(self._data)

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def layout(self):
        return strided

    def as_subclass(self, cls):
        """This tensor as an instance of the Tensor subclass cls (an alias: the same
        memory and, when recorded, an AliasBackward0 node)."""
        if not (isinstance(cls, type) and issubclass(cls, Tensor)):
            raise TypeError("Creating a Tensor subclass from a class that does not inherit "
                            "from Tensor is not possible. Make sure your class inherits from "
                            "Tensor.")
        cdef Tensor a = OPS.alias(self)
        cdef Tensor t = Tensor.__new__(cls)
        t._data = a._data
        t._requires_grad = a._requires_grad
        t._grad_fn = a._grad_fn
        t._output_nr = a._output_nr
        t._vc = a._vc
        t._base = a._base
        t._view_version = a._view_version
        set_view_steps(t, view_steps_of(a))
        t._creation_meta = a._creation_meta
        t._inference = a._inference
        return t

    def stride(self, dim=None):
        """The step in elements between neighbours along each dim (or along dim).

        >>> import autograd_core as torch
        >>> torch.zeros(2, 3).t().stride()
        (1, 3)
        """
        st = tuple([s // self._data.itemsize for s in (<object>self._data).strides])
        if dim is None:
            return st
        return st[wrap_dim(dim, cnp.PyArray_NDIM(self._data))]

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """The legacy type name ('autograd_core.FloatTensor'), or a copy converted to a
        dtype, a legacy type (torch.DoubleTensor) or a legacy type's name."""
        if dtype is None:
            return legacy_type_name(self)
        if not isinstance(dtype, _dtype_type):
            if not isinstance(dtype, (str, type)):
                raise TypeError("dtype must be a type, str, or dtype object")
            from autograd_core._legacy import dtype_of_legacy
            d = dtype_of_legacy(dtype)
            if d is None:
                raise ValueError(f"invalid type: '{dtype.__name__}'")
            dtype = d
        return self.to(dtype)

    def is_inference(self):
        return self._inference

    # ---- conversion

    def item(self):
        """The single value of a one-element tensor as a Python number."""
        if _value_read_hook is not None:
            _value_read_hook(self, "item")
        if cnp.PyArray_SIZE(self._data) != 1:
            raise RuntimeError(
                f"a Tensor with {cnp.PyArray_SIZE(self._data)} elements cannot be converted to Scalar")
        return _readable(self._data).item()

    def tolist(self):
        """The values as (nested) Python numbers.

        >>> import autograd_core as torch
        >>> torch.tensor([[1, 2]]).tolist()
        [[1, 2]]
        """
        if _value_read_hook is not None:
            _value_read_hook(self, "tolist")
        if is_zerotensor(self) and self._data.size:
            # a ZeroTensor has no storage in PyTorch (Note [ZeroTensor] in _node.pxi)
            raise RuntimeError(MSG_ZEROTENSOR_TOLIST)
        return _readable(self._data).tolist()

    def numpy(self, *, force=False):
        """The values as a numpy array sharing memory (only without requires_grad)."""
        if _value_read_hook is not None:
            _value_read_hook(self, "numpy")
        if requires_grad_of(self) and agc_grad_enabled() and not force:
            raise RuntimeError(MSG_NUMPY_REQUIRES_GRAD)
        if not force and is_zerotensor(self):
            raise RuntimeError(MSG_ZEROTENSOR_NUMPY)
        if force and lazy_bits(self):   # (PyTorch's force resolves the bits: a copy)
            return self._data.copy()
        _check_numpy_exportable(self)
        return self._data

    def _is_zerotensor(self):
        """Whether this is an immutable zero gradient (Note [ZeroTensor] in _node.pxi):
        what sgn's backward gives for real inputs.

        >>> import autograd_core as torch
        >>> x = torch.tensor([1.5, -2.0], requires_grad=True)
        >>> torch.sgn(x).sum().backward()
        >>> x.grad._is_zerotensor(), x.grad
        (True, tensor([0., 0.]))
        """
        return is_zerotensor(self)

    def __array__(self, dtype=None, copy=None):
        """numpy's array protocol (numpy 2's contract): the values as an ndarray sharing
        memory when it can; ``copy=True`` always copies, ``copy=False`` raises
        ValueError when a dtype change needs a copy.

        >>> import numpy as np, autograd_core as torch
        >>> np.asarray(torch.tensor([1.5, 2.0]), dtype=np.float32)
        array([1.5, 2. ], dtype=float32)
        """
        if _value_read_hook is not None:
            _value_read_hook(self, "__array__")
        if requires_grad_of(self) and agc_grad_enabled():
            raise RuntimeError(MSG_NUMPY_REQUIRES_GRAD)
        if is_zerotensor(self):
            raise RuntimeError(MSG_ZEROTENSOR_NUMPY)
        _check_numpy_exportable(self)
        cdef cnp.ndarray arr = self._data
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """A numpy ufunc applied to a tensor gives a tensor, as PyTorch's (whose bool
        results come back as uint8).

        >>> import numpy as np, autograd_core as torch
        >>> np.exp(torch.tensor([0.0]))
        tensor([1.])
        """
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        return from_array(np.ascontiguousarray(array) if array.strides and min(array.strides) < 0
                          else array)

    def __dlpack__(self, *, stream=-1, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule sharing this tensor's memory, for another library's
        ``from_dlpack`` (Note [DLPack]).

        >>> import numpy as np, autograd_core as torch
        >>> t = torch.arange(3.)
        >>> a = np.from_dlpack(t); a[0] = 7
        >>> t
        tensor([7., 1., 2.])
        """
        if _value_read_hook is not None:
            _value_read_hook(self, "__dlpack__")
        return tensor_dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        """The DLPack device: (kDLCPU, 0)."""
        return (DLDeviceType.kDLCPU, 0)

    def __len__(self):
        if cnp.PyArray_NDIM(self._data) == 0:
            raise TypeError("len() of a 0-d tensor")
        return shape_of(self._data)[0]

    def __iter__(self):
        if cnp.PyArray_NDIM(self._data) == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(OPS.unbind(self, 0))

    def __bool__(self):
        if _value_read_hook is not None:
            _value_read_hook(self, "__bool__")
        if cnp.PyArray_SIZE(self._data) != 1:
            if cnp.PyArray_SIZE(self._data) == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.item())

    def __float__(self):
        global _warned_float_requires_grad
        if _value_read_hook is not None:
            _value_read_hook(self, "__float__")
        if cnp.PyArray_SIZE(self._data) != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if requires_grad_of(self) and agc_grad_enabled() and not _warned_float_requires_grad:
            # PyTorch warns once per process (TORCH_WARN_ONCE)
            _warned_float_requires_grad = True
            warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to "
                          "unexpected behavior.\nConsider using tensor.detach() first.",
                          UserWarning, stacklevel=2)
        return float(_real_item(self, "double"))

    def __complex__(self):
        if _value_read_hook is not None:
            _value_read_hook(self, "__complex__")
        if cnp.PyArray_SIZE(self._data) != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return complex(self._data.item())

    def __int__(self):
        if _value_read_hook is not None:
            _value_read_hook(self, "__int__")
        if cnp.PyArray_SIZE(self._data) != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(_real_item(self, "int64_t"))

    def __index__(self):
        if _value_read_hook is not None:
            _value_read_hook(self, "__index__")
        # bool counts as integral here, as in PyTorch ([a, b][torch.tensor(True)] is b)
        if cnp.PyArray_SIZE(self._data) != 1 or dtype_of(self._data).category >= CAT_FLOAT:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.item())

    def __hash__(self):
        return id(self)

    def __repr__(self):
        if _value_read_hook is not None:
            _value_read_hook(self, "__repr__")
        return tensor_repr(
            self._data, dtype_of(self._data).name,
            grad_fn_name=_grad_fn_repr_name(self), requires_grad=requires_grad_of(self),
            tangent=fw_grad_of(self))

    def __format__(self, format_spec):
        if _value_read_hook is not None:
            _value_read_hook(self, "__format__")
        # PyTorch formats a plain 0-d tensor as its Python number (f"{loss:.4f}", and
        # f"{loss}" prints 2.17, not tensor(2.17)); anything else goes to object's rule
        if cnp.PyArray_NDIM(self._data) == 0 and type(self) is Tensor:
            return self._data.item().__format__(format_spec)
        if format_spec:
            raise TypeError(f"unsupported format string passed to {type(self).__name__}.__format__")
        return str(self)

    def __reduce_ex__(self, proto):
        return (_rebuild_tensor, (np.array(self._data), self._requires_grad))

    def __deepcopy__(self, memo):
        if grad_fn_of(self) is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol at the moment.  If you were "
                               "attempting to deepcopy a module, this may be because of a "
                               "autograd_core.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        cdef Tensor t = make(_deepcopy_values(self._data, memo))
        t._requires_grad = self._requires_grad
        if self._grad is not None:
            t._grad = make(_deepcopy_values(self._grad._data, memo))
        memo[id(self)] = t
        return t

    # ---- dtype conversion (differentiable)

    def to(self, *args, **kwargs):
        """Convert to a dtype: ``to(dtype, non_blocking=False, copy=False)``,
        ``to(device=None, dtype=None, non_blocking=False, copy=False)`` or
        ``to(other, non_blocking=False, copy=False)`` (other's dtype), each with
        ``memory_format=``; self when nothing changes, unless copy=True.

        >>> import autograd_core as torch
        >>> x = torch.ones(2)
        >>> x.to(None) is x, x.to("cpu", torch.float64).dtype
        (True, autograd_core.float64)
        """
        dev, dtype, _, copy, memory_format = _parse_to(args, kwargs)
        if dev is not None and dev.index is not None:
            copy = True     # PyTorch's "cpu:0" is not self's device "cpu": a copy
        cdef tuple order = None
        if memory_format is not None:
            order = _channels_last_order(_check_memory_format(memory_format, "to"),
                                         cnp.PyArray_NDIM(self._data))
        cdef object target = dtype_of(self._data) if dtype is None else to_dtype(dtype)
        if target is dtype_of(self._data) and (order is None or _is_contiguous_as(self._data,
                                                                                 order)):
            # (copy=True: PyTorch's _to_copy all the same, recorded as ToCopyBackward0)
            return OPS._to_copy(self, target) if copy else self
        cdef Tensor r = OPS._to_copy(self, target)
        if order is not None:  # the cast's values laid out as asked (recorded as the cast)
            r._data = np.ascontiguousarray(r._data.transpose(order)).transpose(
                np.argsort(order))
        return r

    def cpu(self):
        return self

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        check_device("cuda")

    def float(self):
        return self.to(float32)

    def double(self):
        return self.to(float64)

    def half(self):
        return self.to(float16)

    def bfloat16(self):
        """``self.to(torch.bfloat16)``.

        >>> import autograd_core as torch
        >>> torch.tensor([1.00390625]).bfloat16()
        tensor([1.], dtype=autograd_core.bfloat16)
        """
        return self.to(bfloat16)

    def long(self):
        return self.to(int64)

    def int(self):
        return self.to(int32)

    def bool(self):
        return self.to(bool_)

    def byte(self):
        return self.to(uint8)

    def char(self):
        return self.to(int8)

    def short(self):
        return self.to(int16)

    def cfloat(self):
        """This tensor as complex64 (self when it is one).

        >>> import autograd_core as torch
        >>> torch.tensor([1.5]).cfloat()
        tensor([1.5000+0.j])
        """
        return self.to(complex64)

    def cdouble(self):
        """This tensor as complex128 (self when it is one)."""
        return self.to(complex128)

    def type_as(self, other):
        if not isinstance(other, Tensor):
            raise not_tensor_error("type_as", "other", 1, other)
        return self.to(dtype_of((<Tensor>other)._data))

    def contiguous(self, memory_format=None):
        cdef tuple order = _channels_last_order(
            _check_memory_format(memory_format, "contiguous"), cnp.PyArray_NDIM(self._data))
        if order is not None:
            return self if _is_contiguous_as(self._data, order) else OPS.clone(self, memory_format)
        if cnp.PyArray_IS_C_CONTIGUOUS(self._data):
            return self
        return OPS.clone(self, contiguous_format)

    @property
    def T(self):
        cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
        if nd != 2 and nd != 0:
            warnings.warn(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` "
                "to reverse the dimensions of a tensor.", UserWarning, stacklevel=2)
        return OPS.permute(self, tuple(range(nd - 1, -1, -1)))

    @property
    def real(self):
        return OPS.real(self)

    @real.setter
    def real(self, value):
        # PyTorch's setter: a copy_ into the view of the real parts (recorded as one)
        OPS.copy_(OPS.real(self), _setter_value(value, self), False)

    @property
    def imag(self):
        return OPS.imag(self)

    @imag.setter
    def imag(self, value):
        OPS.copy_(OPS.imag(self), _setter_value(value, self), False)

    def is_conj(self):
        """Whether this is a lazily conjugated view (x.conj() of a complex x): Note
        [Conjugate and negative views].

        >>> import autograd_core as torch
        >>> torch.tensor([1j]).conj().is_conj()
        True
        """
        return bool(lazy_bits(self) & LAZY_CONJ)

    def is_neg(self):
        """Whether this is a lazily negated view (torch._neg_view(x), x.conj().imag).

        >>> import autograd_core as torch
        >>> torch.tensor([1j]).conj().imag.is_neg()
        True
        """
        return bool(lazy_bits(self) & LAZY_NEG)

    @property
    def mT(self):
        if cnp.PyArray_NDIM(self._data) == 0:
            warnings.warn("Tensor.mT is deprecated on 0-D tensors. This function is the "
                          "identity in these cases.", UserWarning, stacklevel=2)
            return self
        if cnp.PyArray_NDIM(self._data) < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                               f"Got {cnp.PyArray_NDIM(self._data)}-D tensor.")
        return OPS.transpose(self, -2, -1)

    @property
    def mH(self):
        cdef int nd = cnp.PyArray_NDIM(self._data)
        if nd == 0:
            warnings.warn("Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().",
                          UserWarning, stacklevel=2)
            return OPS.conj(self)
        if nd < 2:
            raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                               f"Got {nd}-D tensor.")
        return _conj_transpose(self)

    @property
    def H(self):
        cdef int nd = cnp.PyArray_NDIM(self._data)
        if nd == 0:
            warnings.warn("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().",
                          UserWarning, stacklevel=2)
            return OPS.conj(self)
        if nd != 2:
            hint = ". For batches of matrices, consider using tensor.mH" if nd > 2 else "."
            raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). "
                               f"Got {nd}-D tensor{hint}")
        return _conj_transpose(self)

    # ---- operators (Note [Op table])

    def __add__(self, other):
        o = _arith_operand(self, other, "add")
        return o if o is NotImplemented else OPS.add(self, o, 1)

    def __radd__(self, other):
        o = _arith_operand(self, other, "add")
        return o if o is NotImplemented else OPS.add(self, o, 1)

    def __iadd__(self, other):
        o = _inplace_operand(other, "+=")
        check_complex_operands("add_", self, o)
        return OPS.add_(self, o, 1)

    def __sub__(self, other):
        o = _arith_operand(self, other, "sub")
        return o if o is NotImplemented else OPS.sub(self, o, 1)

    def __rsub__(self, other):
        if isinstance(other, Tensor):
            # Note [Reflected ops of a subclass]: Python tries a subclass's reflected
            # slot first (tensor - parameter reaches parameter.__rsub__, as Tensor is a C
            # type here); PyTorch computes tensor.__sub__(parameter) (SubBackward0)
            return other.__sub__(self)
        o = _arith_operand(self, other, "rsub")
        return o if o is NotImplemented else OPS.rsub(self, o, 1)

    def __isub__(self, other):
        o = _inplace_operand(other, "-=")
        check_complex_operands("sub_", self, o)
        return OPS.sub_(self, o, 1)

    def __mul__(self, other):
        o = _arith_operand(self, other, "mul")
        return o if o is NotImplemented else OPS.mul(self, o)

    def __rmul__(self, other):
        o = _arith_operand(self, other, "mul")
        return o if o is NotImplemented else OPS.mul(self, o)

    def __imul__(self, other):
        o = _inplace_operand(other, "*=")
        check_complex_operands("mul_", self, o)
        return OPS.mul_(self, o)

    def __truediv__(self, other):
        o = _arith_operand(self, other, "div")
        return o if o is NotImplemented else OPS.div(self, o, None)

    def __rtruediv__(self, other):
        if isinstance(other, Tensor):
            return other.__truediv__(self)    # (Note [Reflected ops of a subclass])
        o = _arith_operand(self, other, "reciprocal")
        # PyTorch computes number / tensor as reciprocal(tensor) * number
        return o if o is NotImplemented else OPS.mul(OPS.reciprocal(self), o)

    def __itruediv__(self, other):
        o = _inplace_operand(other, "/=")
        check_complex_operands("div_", self, o)
        return OPS.div_(self, o, None)

    def __pow__(self, other, mod):
        o = _arith_operand(self, other, "pow")
        return o if o is NotImplemented else OPS.pow(self, o)

    def __rpow__(self, other, mod):
        o = _arith_operand(self, other, "pow")
        return o if o is NotImplemented else OPS.pow(o, self)

    def __ipow__(self, other):
        o = _inplace_operand(other, "**=")
        check_complex_operands("pow_", self, o)
        return OPS.pow_(self, o)

    def __floordiv__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        fw_refuse_fallback("floor_divide", (self, o))  # Note [Forward AD refusals before the kernel]
        check_complex_operands("floor_divide", self, other)
        return OPS.floor_divide(self, o)

    def __rfloordiv__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        fw_refuse_fallback("floor_divide", (self, o))
        check_complex_operands("floor_divide", self, other)
        return OPS.floor_divide(o, self)

    def __ifloordiv__(self, other):
        # PyTorch's order: the operand's type, the autograd fallback's refusal, the result
        # type's cast to self's (a complex operand on a real self), the complex kernel
        o = _inplace_operand(other, "//=")
        fw_refuse_fallback("floor_divide_", (self, o))
        _check_castable(result_type((self, o)), self)
        check_complex_operands("floor_divide_", self, o)
        return OPS.floor_divide_(self, o)

    def __mod__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("remainder", self, other)
        return OPS.remainder(self, o)

    def __rmod__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("remainder", self, other)
        return OPS.remainder(o, self)

    def __imod__(self, other):
        # (as __ifloordiv__; remainder has a derivative, so no fallback refusal)
        o = _inplace_operand(other, "%=")
        _check_castable(result_type((self, o)), self)
        check_complex_operands("remainder_", self, o)
        return OPS.remainder_(self, o)

    def __matmul__(self, other):
        if not isinstance(other, Tensor):
            if hasattr(type(other), "__torch_function__"):
                return NotImplemented    # its __rmatmul__ (vmap's BatchedTensor)
            if type(other).__module__ == "builtins":
                return NotImplemented
            raise not_tensor_error("matmul", "other", 1, other)
        check_complex_operands("matmul", self, other)
        return OPS.matmul(self, other)

    def __rmatmul__(self, other):
        if not isinstance(other, Tensor):
            if hasattr(type(other), "__torch_function__"):
                return NotImplemented
            if type(other).__module__ == "builtins":
                return NotImplemented
            raise not_tensor_error("matmul", "other", 1, other)
        check_complex_operands("matmul", self, other)
        return OPS.matmul(other, self)

    def __imatmul__(self, other):
        # (PyTorch has none: t @= m is t = t @ m, and an operand @ cannot take is
        # Python's error for @=, naming 'Tensor': Note [Operators with builtin operands])
        if not isinstance(other, Tensor) and type(other).__module__ == "builtins":
            raise TypeError(f"unsupported operand type(s) for @=: 'Tensor' and "
                            f"'{type(other).__name__}'")
        return NotImplemented

    def __neg__(self):
        if complex_arg(self):
            check_complex_op("neg", self)
        return OPS.neg(self)

    def __pos__(self):
        if complex_arg(self):
            check_complex_op("positive", self)
        return OPS.positive(self)

    def __abs__(self):
        if complex_arg(self):
            check_complex_op("abs", self)
        return OPS.abs(self)

    def __invert__(self):
        if dtype_of(self._data).category >= CAT_FLOAT:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                            "tensors")
        return OPS.bitwise_not(self)

    def __and__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_and", self, other)
        return OPS.bitwise_and(self, o)

    def __rand__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_and", self, other)
        return OPS.bitwise_and(self, o)

    def __or__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_or", self, other)
        return OPS.bitwise_or(self, o)

    def __ror__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_or", self, other)
        return OPS.bitwise_or(self, o)

    def __xor__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_xor", self, other)
        return OPS.bitwise_xor(self, o)

    def __rxor__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_xor", self, other)
        return OPS.bitwise_xor(self, o)

    def __iand__(self, other):
        o = _inplace_operand(other, "&=")
        _inplace_castable(self, o)
        check_complex_operands("bitwise_and_", self, o)
        return OPS.bitwise_and_(self, o)

    def __ior__(self, other):
        o = _inplace_operand(other, "|=")
        _inplace_castable(self, o)
        check_complex_operands("bitwise_or_", self, o)
        return OPS.bitwise_or_(self, o)

    def __ixor__(self, other):
        o = _inplace_operand(other, "^=")
        _inplace_castable(self, o)
        check_complex_operands("bitwise_xor_", self, o)
        return OPS.bitwise_xor_(self, o)

    def __lshift__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_left_shift", self, other)
        return OPS.bitwise_left_shift(self, o)

    def __rlshift__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_left_shift", self, other)
        return OPS.bitwise_left_shift(o, self)

    def __ilshift__(self, other):
        o = _inplace_operand(other, "<<=")
        _inplace_castable(self, o)
        check_complex_operands("bitwise_left_shift_", self, o)
        return OPS.bitwise_left_shift_(self, o)

    def __rshift__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_right_shift", self, other)
        return OPS.bitwise_right_shift(self, o)

    def __rrshift__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return NotImplemented
        check_complex_operands("bitwise_right_shift", self, other)
        return OPS.bitwise_right_shift(o, self)

    def __irshift__(self, other):
        o = _inplace_operand(other, ">>=")
        _inplace_castable(self, o)
        check_complex_operands("bitwise_right_shift_", self, o)
        return OPS.bitwise_right_shift_(self, o)

    def __eq__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return o
        return OPS.eq(self, o)

    def __ne__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return o
        return OPS.ne(self, o)

    def __lt__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return o
        check_complex_operands("lt", self, other)
        return OPS.lt(self, o)

    def __le__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return o
        check_complex_operands("le", self, other)
        return OPS.le(self, o)

    def __gt__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return o
        check_complex_operands("gt", self, other)
        return OPS.gt(self, o)

    def __ge__(self, other):
        o = arg_operand(other)
        if o is NotImplemented:
            return o
        check_complex_operands("ge", self, other)
        return OPS.ge(self, o)

    def __getitem__(self, key):
        return OPS._getitem(self, key)

    def __setitem__(self, key, value):
        OPS._setitem(self, key, value)


cdef object _dtype_type = dtype


cdef cnp.ndarray dense_empty(cnp.ndarray arr):
    """arr (empty) as a view with the dense strides of its shape (Note [Strides of empty
    tensors]); an array with a stride set (a layout computed for it) is kept."""
    cdef Py_ssize_t k, step = arr.itemsize
    cdef list steps = [0] * cnp.PyArray_NDIM(arr)
    for k in range(cnp.PyArray_NDIM(arr)):
        if cnp.PyArray_STRIDES(arr)[k]:
            return arr
    for k in range(cnp.PyArray_NDIM(arr) - 1, -1, -1):
        steps[k] = step
        step *= max(cnp.PyArray_DIM(arr, k), 1)
    return np.lib.stride_tricks.as_strided(arr, shape_of(arr), tuple(steps),
                                          writeable=cnp.PyArray_ISWRITEABLE(arr))
