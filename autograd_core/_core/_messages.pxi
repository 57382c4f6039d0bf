# One place for each user-facing message (the texts are PyTorch's) and for checking
# the arguments users pass. Op modules raise through these; the generated Python
# wrappers check arguments with them.

cdef str MSG_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the "
    "graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")

cdef str MSG_NOT_FLOAT_GRAD = (
    "Only Tensors of floating point and complex dtype can require gradients")
cdef str MSG_NOT_FLOAT_GRAD_SETTER = (
    "only Tensors of floating point and complex dtype can require gradients")
cdef str MSG_NOT_FLOAT_GRAD_INPLACE = (
    "only Tensors of floating point dtype can require gradients")

cdef str MSG_NONLEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a "
    "computed variable in a subgraph that doesn't require differentiation use "
    "var_no_grad = var.detach().")

cdef str MSG_LEAF_INPLACE = (
    "a leaf Variable that requires grad is being used in an in-place operation.")

cdef str MSG_LEAF_VIEW_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation.")

cdef str MSG_NUMPY_REQUIRES_GRAD = (
    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")

cdef str MSG_NONLEAF_GRAD_ACCESS = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
    ".grad attribute won't be populated during autograd.backward(). If you indeed want "
    "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
    "non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
    "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
    "information.")

cdef str MSG_VIEW_NOT_COMPATIBLE = (
    "view size is not compatible with input tensor's size and stride (at least one "
    "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")

cdef str MSG_INFERENCE_SAVE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make "
    "a clone to get a normal tensor and use it in autograd, or use "
    "`autograd_core.no_grad()` instead of `autograd_core.inference_mode()`.")

cdef str MSG_INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
    "a clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")

cdef str MSG_PARTIAL_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor "
    "refer to a single memory location. Please clone() the tensor before performing the "
    "operation.")

cdef str MSG_ZEROTENSOR_WRITE = (
    "ZeroTensors are immutable. Please use the materialized zero tensor obtained using "
    ".clone() if you want a mutable tensor.")
# (copy_, and so a basic setitem that is not fill_, words it differently)
cdef str MSG_ZEROTENSOR_COPY = (
    "ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you "
    "want a mutable zero tensor.")
cdef str MSG_ZEROTENSOR_NUMPY = (
    " Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array.")
cdef str MSG_ZEROTENSOR_TOLIST = (
    "tolist() shouldn't be called on a tensor with unallocated storage")
cdef str MSG_OVERLAPPING_WRITE = (
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation.")

# PyTorch writes into memory numpy marked read-only (it warns at from_numpy that this is
# undefined behaviour); numpy's memory cannot be written here, so the write is refused
# with what is wrong and how to fix it.
cdef str MSG_READ_ONLY_WRITE = (
    "cannot write into this tensor: its memory is a read-only NumPy array, which "
    "from_numpy() and as_tensor() share rather than copy. Copy the array (array.copy()) or "
    "clone() the tensor before modifying it in place.")


cdef str shape_str(tuple shape):
    return "[" + ", ".join([str(s) for s in shape]) + "]"


def py_shape_str(shape):
    """shape_str for the Python layers (nn.functional's messages): any sequence of ints,
    printed as PyTorch prints a shape, [2, 3]."""
    return shape_str(tuple(shape))


def py_broadcast_shapes(a, b):
    """broadcast_shapes for the Python layers: the shape two shapes broadcast to, or
    PyTorch's "The size of tensor a (..) must match the size of tensor b (..)" error
    (torch.broadcast_shapes, _settings.py, raises its own, different message)."""
    return broadcast_shapes(tuple(a), tuple(b))


cdef str legacy_type_name(Tensor t):
    """PyTorch's legacy tensor type name: autograd_core.FloatTensor."""
    return "autograd_core." + dtype_of(t._data).scalar_name + "Tensor"


cdef object dim_error(Py_ssize_t dim, Py_ssize_t ndim):
    cdef Py_ssize_t n = ndim if ndim > 0 else 1
    return IndexError(
        f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")


cdef object broadcast_error(tuple sa, tuple sb):
    cdef Py_ssize_t na = len(sa), nb = len(sb), n = na if na > nb else nb, i, off, x, y
    for i in range(n - 1, -1, -1):
        off = n - 1 - i
        x = sa[na - 1 - off] if na - 1 - off >= 0 else 1
        y = sb[nb - 1 - off] if nb - 1 - off >= 0 else 1
        if x != y and x != 1 and y != 1:
            return RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                f"at non-singleton dimension {i}")
    return RuntimeError(f"shapes {list(sa)} and {list(sb)} cannot be broadcast")


# Note [Scalar conversion overflow]
# PyTorch's checked conversion of a Scalar into the C type a kernel reads it as (a
# complex number with a nonzero imaginary part into a real type, an int or float past
# an int type's range, inf/NaN into an int type) fails with one message naming that C
# type ("double", "float", "int64_t", "uint8_t", ...). This is its one constructor: the
# core's checks (scalar_in, _real_scalar, tensor()'s data store, float(t)/int(t)), the
# ops' (ops cimport it from tensor.pxd) and the Python layer's (_creation.py) call it.
cpdef object value_overflow_error(str type_name):
    """PyTorch's RuntimeError for a value that C type type_name cannot hold."""
    return RuntimeError(f"value cannot be converted to type {type_name} without overflow")


cdef object not_implemented_for(str kernel, dtype d):
    """PyTorch's error for a kernel without an implementation for a dtype."""
    return NotImplementedError(f"\"{kernel}\" not implemented for '{d.scalar_name}'")


# Note [Complex autograd]
# Complex values get a history only through the ops whose derivative formulas carry
# PyTorch's conjugations and were compared with PyTorch's gradients (the set
# COMPLEX_AUTOGRAD_OPS of autograd_core/_complex.py, installed here at import). Every
# recorder asks check_complex_grad before it records a node that has a complex input or
# output: a generated _rec_<Node> (ops/_codegen.py) when its result is complex
# (recordable_array: the one type-number test a real op already makes) or, once
# complex_grad_flag is set, when an input is complex; a hand-written recorder through
# should_record. Any other op raises (never a silently wrong gradient). The flag is
# set when a complex tensor first requires grad or gets a history, so real programs
# pay one C int test per recorded node. Formulas conjugate with cj() (tensor.pxd):
# the tensor itself for a real tensor or number, conj() for a complex one.
cdef set _complex_grad_ops = set()
cdef int _complex_grad_flag = 0


def set_complex_grad_ops(ops):
    """Install the names of the ops that differentiate complex values (Note [Complex
    autograd]; autograd_core/_complex.py, at import)."""
    global _complex_grad_ops
    _complex_grad_ops = set(ops)


def complex_grad_ops():
    """The names of the ops whose derivatives take complex values (Note [Complex
    autograd])."""
    return frozenset(_complex_grad_ops)


cdef const int *complex_grad_flag() noexcept:
    return &_complex_grad_flag


cdef void note_complex_grad() noexcept:
    global _complex_grad_flag
    _complex_grad_flag = 1


# Note [Complex outputs PyTorch does not differentiate]
# PyTorch's autograd codegen refuses, at the call, to record an op outside its list of
# complex-differentiable ops when an output is complex (throw_error_for_complex_autograd):
# a RuntimeError naming the op as ATen spells it, even where the op computes complex
# values (conv_tbc, select_scatter, embedding, silu, ...). complex_output_autograd_error
# is the one owner of that text: check_complex_grad raises it for every op outside
# COMPLEX_AUTOGRAD_OPS (Note [Complex autograd]), and the hand-written ops that know
# PyTorch refuses them (geqrf, nan_to_num, view_as_complex_copy, ...) raise it directly.
# The names below are the ops' internal overload names whose ATen name PyTorch prints.
cdef dict _ATEN_NAMES = {
    "add_scalar": "add", "mul_scalar": "mul", "div_scalar": "div", "_div_mode": "div",
    "_norm_all": "norm", "_norm_dim": "norm", "max_dim": "max", "min_dim": "min",
    "median_dim": "median", "nanmedian_dim": "nanmedian", "_clamp_tensor": "clamp",
    "_lerp_tensor": "lerp", "polygamma_": "polygamma"}


cdef object complex_output_autograd_error(str op):
    """PyTorch's error for recording op with a complex output it does not differentiate
    (Note [Complex outputs PyTorch does not differentiate])."""
    return RuntimeError(f"{_ATEN_NAMES.get(op, op)} does not support automatic "
                        "differentiation for outputs with complex dtype.")


cdef int check_complex_grad(str op) except -1:
    """Raise unless op (None: a recorder that names none) differentiates complex values
    (Note [Complex autograd]); the error is PyTorch's RuntimeError (Note [Complex outputs
    PyTorch does not differentiate]), also for the few ops refused here that PyTorch
    differentiates (silu_, whose gradient in PyTorch lacks the conjugation) and for
    forward mode."""
    global _complex_grad_flag
    if op is None or op not in _complex_grad_ops:
        raise complex_output_autograd_error(op if op is not None else "this op")
    _complex_grad_flag = 1
    return 0


cdef object fw_grad_size_error(tuple shape, tuple grad_shape):
    """PyTorch's error for a forward gradient (tangent) whose size is not its tensor's:
    raised by make_dual, a custom Function's jvp and the jvps that set a tangent."""
    return RuntimeError(
        "Trying to set a forward gradient that has a different size than that of the "
        f"original Tensor, this is not supported. Tensor is of size {shape_str(shape)} "
        f"while the given forward gradient is of size {shape_str(grad_shape)}.")


def forward_grad_size_error(shape, grad_shape):
    """fw_grad_size_error for the Python layer (vmap's make_dual of logical shapes)."""
    return fw_grad_size_error(tuple(shape), tuple(grad_shape))


cdef object type_error_combination(str fname, tuple args, str signatures):
    """PyTorch's error when no overload of a function takes the given arguments."""
    got = ", ".join(["Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args])
    return TypeError(f"{fname}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{signatures}\n")


cdef object modified_error(Tensor t, long saved_version, Node node, int output_nr):
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: [{legacy_type_name(t)} {shape_str(shape_of(t._data))}]"
        + (f", which is output {output_nr} of {op_name(node)}," if node is not None else "")
        + f" is at version {t._vc.version}; expected version {saved_version} instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with autograd_core.autograd.set_detect_anomaly(True, check_nan=False).")


cdef str op_name(Node node):
    """A node's op name as PyTorch's messages give it: ExpBackward0 -> Exp, but
    PowBackward1 -> Pow1; a node with a C++ name (CopySlices) by that name."""
    name = type(node).__name__
    if name.startswith("Copy"):
        cpp_name = node.name()
        if cpp_name.startswith("torch::"):
            return cpp_name
    i = name.rfind("Backward")
    if i <= 0:
        return name
    suffix = name[i + 8:]
    return name[:i] + ("" if suffix == "0" else suffix)


# ---------------------------------------------------------------- argument checks

cdef inline str _at(int pos):
    """An argument's position as PyTorch's parser quotes it: " (position 2)", or nothing
    for pos 0, an argument given by keyword or a keyword-only one such as out= (Note
    [Keyword or positional] in ops/_prelude.pxi)."""
    return f" (position {pos})" if pos > 0 else ""


cpdef object not_tensor_error(str fname, str argname, int pos, object x):
    """PyTorch's argument parser's TypeError for ``x`` given where a Tensor is required:
    every "must be Tensor, not ..." is this message (pos 0: given by keyword, or a
    keyword-only argument such as out=, which PyTorch names without a position)."""
    return TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be Tensor, not "
                     f"{type(x).__name__}")


cdef Tensor arg_tensor(object x, str fname, str argname, int pos):
    """A Tensor argument, or PyTorch's TypeError naming the function and argument."""
    if not isinstance(x, Tensor):
        raise not_tensor_error(fname, argname, pos, x)
    if type(x) is not Tensor and type(x) is _sparse_type:
        refuse_sparse(fname)
    return <Tensor>x


# The sparse tensor type (Note [Sparse tensors], autograd_core/_sparse.py), set when it is
# imported: its array is a placeholder, so the argument checkers of the hand-written
# wrappers refuse it with PyTorch's error (the generated wrappers hand it to its
# __torch_function__ before any check). A plain Tensor pays one pointer comparison.
cdef object _sparse_type = None


def _set_sparse_type(t):
    global _sparse_type
    _sparse_type = t


cdef int refuse_sparse(str fname) except -1:
    raise NotImplementedError(
        f"Could not run 'aten::{fname}' with arguments from the 'SparseCPU' backend. This could "
        f"be because the operator doesn't exist for this backend, or was omitted during the "
        f"selective/custom build process (if using custom build). If you are a Facebook "
        f"employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for "
        f"possible resolutions.")


# Note [Complex guard]
# Complex tensors reach only the ops that compute them as PyTorch does. Every generated
# Python wrapper (ops/_codegen.py, gen_wrapper) checks its tensor arguments with
# complex_arg (one C macro per tensor argument; a real program pays nothing else) and,
# when one is complex, asks check_complex_op whether the op is in the set of ops that
# support complex (autograd_core/_complex.py fills it at import: one list, the op names
# of the derivative table). An op outside it raises PyTorch's error for that op
# (_COMPLEX_MESSAGES) or its generic '"<op>" not implemented for 'ComplexFloat''.
# The Tensor operators without complex support (<, //, %, ~, &, ...) check the same way,
# and hand-written wrappers call check_complex_args.
#
# Note [Dtype guard]
# The same guard serves every dtype family whose op support in PyTorch is limited: the
# complex dtypes and the wide unsigned ints (uint16/32/64, Note [Wide unsigned dtypes]).
# complex_arg is true for a tensor of any of them (one bit test of its numpy type
# number, dtype.pxd's is_guarded_array), and check_complex_op looks the op up in the set
# of that tensor's family: _guarded_ops["complex"] or _guarded_ops["unsigned"], filled by
# autograd_core/_complex.py (one module owns the allowlists and PyTorch's messages).
#
# An op that PyTorch computes on its operands' common dtype (a TensorIterator kernel:
# arithmetic, comparisons, clamp, ...) dispatches on that dtype, not on the unsigned
# operand's: uint16 + 2.5 runs the float32 kernel. The ops of _float_promoting (per
# family; only "unsigned" has any) therefore pass the guard when another operand is
# floating or complex (a tensor, even 0-d, or a Python number: either wins the
# promotion over an unsigned int); a complex operand is still judged by its own family.
cdef dict _guarded_ops = {"complex": set(), "unsigned": set()}
cdef dict _guarded_messages = {"complex": {}, "unsigned": {}}
cdef dict _float_promoting = {"complex": set(), "unsigned": set()}


def set_guarded_ops(family, ops, messages, float_promoting=()):
    """Install the names of the ops that support a dtype family ("complex" or
    "unsigned"), PyTorch's errors of those that do not, and the ops that compute in
    the common dtype and so pass with a floating operand (autograd_core/_complex.py,
    at import)."""
    if family not in _guarded_ops:
        raise ValueError(f"unknown dtype family {family!r}")
    _guarded_ops[family] = set(ops)
    _guarded_messages[family] = dict(messages)
    _float_promoting[family] = set(float_promoting)


def float_promoting_ops(family):
    """The ops of a dtype family that pass its guard with a floating operand."""
    return frozenset(_float_promoting[family])


cdef bint _has_float_operand(tuple args):
    """Whether an operand promotes the computation to a floating or complex dtype."""
    for x in args:
        if isinstance(x, Tensor):
            if is_grad_array((<Tensor>x)._data):
                return True
        elif isinstance(x, (float, complex, np.floating, np.complexfloating)):
            return True
    return False


def set_complex_ops(ops, messages):
    """set_guarded_ops for the complex family."""
    set_guarded_ops("complex", ops, messages)


def complex_ops():
    """The names of the ops that take complex tensors (Note [Complex guard])."""
    return frozenset(_guarded_ops["complex"])


def guarded_ops(family):
    """The names of the ops that take tensors of a dtype family (Note [Dtype guard])."""
    return frozenset(_guarded_ops[family])


cdef str _family_of(object x):
    """The guarded family of an argument (Note [Dtype guard])."""
    if isinstance(x, Tensor) and not cnp.PyArray_ISCOMPLEX((<Tensor>x)._data):
        return "unsigned"
    return "complex"


cdef int refuse_complex(str name, object x) except -1:
    """Raise the error PyTorch gives for op name on a guarded argument x (complex or
    wide unsigned)."""
    cdef dtype d = complex64
    if isinstance(x, Tensor) and is_guarded_array((<Tensor>x)._data):
        d = dtype_of((<Tensor>x)._data)
    return _refuse_guarded(name, x, d.scalar_name)


cdef int _refuse_guarded(str name, object x, str scalar_name) except -1:
    entry = (<dict>_guarded_messages[_family_of(x)]).get(name)
    if entry is None:
        raise NotImplementedError(f"\"{name}\" not implemented for '{scalar_name}'")
    exc, msg = entry
    raise exc(msg.replace("{dtype}", scalar_name))


cdef bint _promotes_past_unsigned(str fam, tuple args) except -1:
    """Whether the operands of a wide unsigned op that computes in their common dtype
    promote to a dtype its kernel has (a 0-d uint16 with an int64 vector: int64).
    PyTorch promotes before its kernel refuses, so two integer dtypes in one group
    (dimensioned, or 0-d) raise the promotion error here first (result_type)."""
    cdef dtype t
    if fam != "unsigned":
        return False
    for x in args:
        if not (x is None or isinstance(x, Tensor) or is_number(x)):
            return False
    t = result_type(args)
    return not is_wide_unsigned(t)


cdef str _complex_number_type(tuple args):
    """The ScalarType name of the complex type a complex number promotes the tensors
    of args to, as PyTorch's kernel errors name it: ComplexDouble with a double (or
    complex double) tensor, ComplexHalf with half tensors only, else ComplexFloat."""
    cdef bint half = False, other = False
    cdef dtype t
    for x in args:
        if isinstance(x, Tensor):
            t = dtype_of((<Tensor>x)._data)
            if t is float64 or t is complex128:
                return "ComplexDouble"
            if t is float16:
                half = True
            else:
                other = True
    return "ComplexHalf" if half and not other else "ComplexFloat"


cdef int check_complex_op(str name, object x) except -1:
    """Called when an argument of op name is of a guarded dtype (complex or wide
    unsigned): raise unless the op supports that dtype family."""
    if name not in <set>_guarded_ops[_family_of(x)]:
        refuse_complex(name, x)
    return 0


cdef inline int check_complex_operands(str name, object a, object b) except -1:
    """check_complex_args for the two operands of a Tensor operator (Note [Complex
    guard]): the usual real operands cost two C checks and no tuple."""
    if complex_scalar_arg(a) or complex_scalar_arg(b):
        check_complex_args(name, (a, b))
    return 0


cdef int check_complex_args(str name, tuple args) except -1:
    """check_complex_op for a hand-written wrapper: args are its tensor arguments (or
    lists of tensors), and the number operands of the ops that promote."""
    cdef str fam
    for x in args:
        if complex_scalar_arg(x):
            fam = _family_of(x)
            if name in <set>_float_promoting[fam] and (
                    _has_float_operand(args) or _promotes_past_unsigned(fam, args)):
                continue  # computed in the common dtype (Note [Dtype guard])
            if PyComplex_Check(x) and name not in <set>_guarded_ops[fam]:
                # a complex number: the kernel PyTorch refuses is the promoted type's
                _refuse_guarded(name, x, _complex_number_type(args))
            check_complex_op(name, x)
        elif isinstance(x, (list, tuple)):
            for y in x:
                if complex_arg(y):
                    check_complex_op(name, y)
    return 0


cdef bint is_number(object x):
    return isinstance(x, (int, float, np.integer, np.floating, np.bool_))


cdef object arg_number(object x):
    """A Python number from a number-like argument (numpy scalars too), else None."""
    if type(x) is float or type(x) is int or type(x) is bool:
        return x
    if isinstance(x, Tensor) or x is None:
        return None
    if isinstance(x, (np.integer, np.floating, np.bool_)):
        return x.item()
    if isinstance(x, (int, float)):
        return x
    return None


cdef object arg_operand(object x):
    """An operand of an arithmetic op: a Tensor, a Python number (numpy scalars become
    numbers, an ndarray of a supported dtype a tensor, as PyTorch accepts), else
    NotImplemented."""
    if isinstance(x, Tensor):
        return x
    if type(x) is float or type(x) is int or type(x) is bool:
        return x
    if isinstance(x, (np.integer, np.floating, np.bool_)):
        return x.item()
    if isinstance(x, (int, float)):
        return x
    if isinstance(x, complex):
        return complex(x)  # (np.complex128 is a complex: as a Python number)
    if isinstance(x, np.complexfloating):
        return x.item()
    if isinstance(x, np.ndarray) and dtype_from_numpy(x.dtype) is not None:
        return make(x)
    return NotImplemented


cdef bint arg_bool(object x, str fname, str argname, int pos) except -1:
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    raise TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be bool, not "
                    f"{type(x).__name__}")


# Note [Complex Scalar arguments]
# PyTorch's Scalar arguments take a complex number (and a 0-d tensor's value), which the
# op's kernel then converts to the type it computes in: a complex tensor's op uses it,
# a real one raises "value cannot be converted to type float without overflow" unless
# its imaginary part is zero (add/sub's alpha_check raises first, its own messages).
# arg_scalar passes complex numbers to the ops that make that conversion
# (_COMPLEX_SCALAR_OPS; their forwards call scalar_in, or binary_alpha_values'
# alpha_check; masked_fill's value, parsed by its own wrapper in ops/index.pyx, too).
# The Scalars of _REAL_SCALAR_OPS never promote the result's dtype, so a complex number
# with a zero imaginary part is its real part here (the node saves a real number, as
# PyTorch computes with one), and otherwise, by the op's rule:
#   _KERNEL: passed on; the kernel raises scalar_in's error after its own dtype check
#            (elu on an int tensor is "elu_cpu" first, as PyTorch's), or uses the number
#            where it computes complex values (index_add, constant_pad_nd);
#   _DOUBLE: PyTorch converts it to double before any dtype check (celu's 1 / alpha,
#            softshrink's range check, histc's bounds, rrelu's bounds);
#   _OP:     passed on as given, 2+0j too: the op refuses it after its input's dtype
#            check, as PyTorch reads the order there (vector_norm's and dist's order);
#   a str:   PyTorch's own RuntimeError for that op (renorm's p, maxnorm; {arg} is the
#            argument's name).
# Any other Scalar argument refuses a complex number with the argument TypeError.
cdef frozenset _COMPLEX_SCALAR_OPS = frozenset((
    "add", "add_", "sub", "sub_", "rsub", "addcmul", "addcmul_", "addcdiv", "addcdiv_",
    "addmm", "addmm_", "addmv", "addmv_", "addr", "addr_", "baddbmm", "baddbmm_",
    "addbmm", "addbmm_"))
cdef object _KERNEL = None
cdef object _DOUBLE = 1
cdef object _OP = 2
cdef dict _REAL_SCALAR_OPS = {
    "elu": _KERNEL, "elu_": _KERNEL, "leaky_relu": _KERNEL, "leaky_relu_": _KERNEL,
    "softplus": _KERNEL, "threshold": _KERNEL, "threshold_": _KERNEL,
    "hardtanh": _KERNEL, "hardtanh_": _KERNEL, "hardshrink": _KERNEL,
    "index_add": _KERNEL, "index_add_": _KERNEL, "constant_pad_nd": _KERNEL,
    "celu": _DOUBLE, "celu_": _DOUBLE, "softshrink": _DOUBLE, "histc": _DOUBLE,
    "rrelu_with_noise": _DOUBLE, "rrelu_with_noise_": _DOUBLE,
    "linalg_vector_norm": _OP, "dist": _OP,
    "renorm": "renorm: {arg} must be real-valued",
    "renorm_": "renorm: {arg} must be real-valued"}


cdef object _real_scalar(object n, str fname, str argname):
    """A complex Scalar argument of an op of _REAL_SCALAR_OPS (Note [Complex Scalar
    arguments])."""
    rule = _REAL_SCALAR_OPS[fname]
    if type(rule) is str:
        raise RuntimeError((<str>rule).replace("{arg}", argname))
    if rule is _OP:
        return n
    if n.imag == 0:
        return n.real
    if rule is _DOUBLE:
        raise value_overflow_error("double")
    return n


cdef object arg_scalar(object x, str fname, str argname, int pos):
    """A 'Number' argument as a Python number (a 0-d tensor that does not require grad
    gives its value, as PyTorch's parser reads it); complex numbers: Note [Complex Scalar
    arguments]."""
    cdef object n = arg_number(x)
    if n is not None:
        return n
    if (isinstance(x, Tensor) and cnp.PyArray_NDIM((<Tensor>x)._data) == 0
            and not requires_grad_of(<Tensor>x)):
        n = (<Tensor>x)._data.item()
        if not isinstance(n, complex):
            return n
    elif isinstance(x, complex) and not isinstance(x, np.complexfloating):
        # (a numpy complex scalar stays refused: PyTorch reads it as a real number,
        # dropping its imaginary part with numpy's ComplexWarning)
        n = complex(x)
    if n is not None:
        if fname in _COMPLEX_SCALAR_OPS:
            return n
        if fname in _REAL_SCALAR_OPS:
            return _real_scalar(n, fname, argname)
    if isinstance(x, Tensor):
        raise TypeError(f"{fname}(): argument '{argname}' must be Number, not Tensor")
    raise TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be Number, "
                    f"not {type(x).__name__}")


cdef object arg_tensor_or_scalar(object x, str fname, str argname, int pos):
    """A 'Tensor or Number' argument (an operand): a Tensor or a Python number."""
    cdef object o = arg_operand(x)
    if o is NotImplemented:
        raise not_tensor_error(fname, argname, pos, x)
    return o


# Note [Ints past int64]
# PyTorch reads every int argument (a size, a dim, an index, a start) as int64_t: an
# int past that range is its ValueError when the argument is one int, and a TypeError
# saying the list failed to unpack when it is an element of a list of ints (a message
# PyTorch leaves without its closing quote). The checkers below are where ints enter,
# so no Python OverflowError ("too large to convert to C ssize_t") reaches the user.
cdef str MSG_INT64_OVERFLOW = "Overflow when unpacking long long"


cdef inline bint _fits_int64(object i):
    cdef int overflow = 0
    PyLong_AsLongLongAndOverflow(i, &overflow)
    return overflow == 0


cdef object checked_int64(object i):
    """i, an int, or PyTorch's ValueError when int64 cannot hold it."""
    if not _fits_int64(i):
        raise ValueError(MSG_INT64_OVERFLOW)
    return i


cdef object _list_overflow(str fname, str argname, Py_ssize_t pos):
    return TypeError(f"{fname}(): argument '{argname}' failed to unpack the object at pos "
                     f"{pos} with error \"{MSG_INT64_OVERFLOW}")


cdef object arg_int(object x, str fname, str argname, int pos):
    """An 'int' argument (anything with __index__ but bool... as PyTorch, bools pass)."""
    if type(x) is int:
        return checked_int64(x)
    if isinstance(x, float) or not hasattr(x, "__index__"):
        raise TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be int, not "
                        f"{type(x).__name__}")
    return checked_int64(x.__index__())


cdef tuple arg_int_list(object x, str fname, str argname, int pos):
    """A 'tuple of ints' argument: a sequence of ints, or a single int."""
    if type(x) is int:
        return (checked_int64(x),)
    if isinstance(x, Tensor) or not isinstance(x, (list, tuple)):
        if not isinstance(x, float) and hasattr(x, "__index__") and not isinstance(x, Tensor):
            return (checked_int64(x.__index__()),)
        raise TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be tuple of ints, "
                        f"not {type(x).__name__}")
    out = []
    for s in x:
        if isinstance(s, (bool, float)) or not hasattr(s, "__index__"):
            raise TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be tuple of "
                            f"ints, but found element of type {type(s).__name__} at pos {len(out)}")
        s = s.__index__()
        if not _fits_int64(s):
            raise _list_overflow(fname, argname, len(out) + 1)
        out.append(s)
    return tuple(out)


cdef tuple arg_int_sequence(object x, str fname, str argname, int pos):
    """A 'tuple of ints' argument that must be a sequence (PyTorch's int[] without a
    size: flip(x, 1) is a TypeError where sum(x, 1) is not)."""
    if isinstance(x, Tensor) or not isinstance(x, (list, tuple)):
        raise TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be tuple of ints, "
                        f"not {type(x).__name__}")
    return arg_int_list(x, fname, argname, pos)


cdef double arg_float(object x, str fname, str argname, int pos) except? -1.0:
    cdef object n = arg_number(x)
    if n is None:
        raise TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be float, not "
                        f"{type(x).__name__}")
    return <double>n


cdef str arg_str(object x, str fname, str argname, int pos):
    if not isinstance(x, str):
        raise TypeError(f"{fname}(): argument '{argname}'{_at(pos)} must be str, not "
                        f"{type(x).__name__}")
    return <str>x


cdef Py_ssize_t wrap_dim(object dim, Py_ssize_t ndim) except? -1:
    """A dim argument checked against ndim and made non-negative (0-d counts as 1-d)."""
    cdef Py_ssize_t d, n = ndim if ndim > 0 else 1
    if type(dim) is int:
        d = checked_int64(dim)
    elif isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError(f"dim must be an int, not {type(dim).__name__}")
    else:
        d = checked_int64(dim.__index__())
    if d < -n or d >= n:
        raise dim_error(d, ndim)
    return d + n if d < 0 else d


cdef tuple wrap_dims(object dims, Py_ssize_t ndim):
    """dims as an int, tuple or list -> sorted tuple of non-negative ints, checked
    (each at most once)."""
    if not isinstance(dims, (tuple, list)):
        return (wrap_dim(dims, ndim),)
    out = []
    for d in dims:
        w = wrap_dim(d, ndim)
        if w in out:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        out.append(w)
    return tuple(sorted(out))


cdef tuple reduction_dims(object dim, Py_ssize_t ndim):
    """A reduction's dims, sorted and non-negative: None or () mean all dims; a 0-d
    input has none to reduce (its dims are still checked: 0 and -1 are valid)."""
    if is_all_dims(dim):
        return tuple(range(ndim))
    cdef tuple dims = wrap_dims(dim, ndim)
    return dims if ndim else ()


cdef str _type_name_in_messages(object x):
    """A type's name as PyTorch's argument parser prints it (its tp_name: a dtype is
    "torch.dtype" there, so "autograd_core.dtype" here)."""
    return "autograd_core.dtype" if isinstance(x, dtype) else type(x).__name__


cdef tuple parse_shape(tuple args, str fname, str argname="size"):
    """Sizes given as f(2, 3), f((2, 3)) or f(Size); argname is PyTorch's name of the
    argument in its messages ("size", reshape's "shape", permute's "dims")."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    elif len(args) == 1 and not isinstance(args[0], Tensor) and (
            isinstance(args[0], bool) or not hasattr(args[0], "__index__")):
        raise TypeError(f"{fname}(): argument '{argname}' (position 1) must be tuple of ints, "
                        f"not {type(args[0]).__name__}")
    out = []
    for s in args:
        if isinstance(s, Tensor):
            s = s.item()
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise TypeError(f"{fname}(): argument '{argname}' failed to unpack the object at "
                            f"pos {len(out) + 1} with error \"type must be tuple of ints,but got "
                            f"{_type_name_in_messages(s)}\"")
        s = s.__index__()
        if not _fits_int64(s):
            raise _list_overflow(fname, argname, len(out) + 1)
        out.append(s)
    return tuple(out)


cdef list arg_tensor_list(object tensors, str fname):
    """A 'tuple of Tensors' argument, as a list."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{fname}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, "
                            f"but got {type(t).__name__}")
        if type(t) is not Tensor and type(t) is _sparse_type:
            refuse_sparse(fname)
    return list(tensors)


# ---------------------------------------------------------------- arrays and tensors

cdef cnp.ndarray as_array(object r):
    """numpy returns scalars from 0-d operations; the core always holds arrays."""
    if cnp.PyArray_Check(r):
        return <cnp.ndarray>r
    return <cnp.ndarray>np.asarray(r)


cdef cnp.ndarray cast_array(cnp.ndarray x, dtype d):
    cdef int t = cnp.PyArray_TYPE(x)
    if t == d.typenum:
        return x
    if (d is bfloat16 or t == bfloat16.typenum) and t != cnp.NPY_FLOAT and d is not float32:
        # Note [bfloat16 casts]: PyTorch converts bfloat16 from and to any other type
        # through float (c10::BFloat16 is made from a float and reads as one), so
        # float64 -> bfloat16 rounds twice and bfloat16 -> int64 is float's cast;
        # ml_dtypes' direct casts differ (one rounding; 0 for out-of-range ints)
        with quiet():
            return <cnp.ndarray>x.astype(np.float32).astype(d.np_dtype)
    return <cnp.ndarray>x.astype(d.np_dtype)


cdef object quiet():
    """numpy warns on overflow, 0/0, log(-1); PyTorch silently gives inf/nan."""
    return np.errstate(all="ignore")


cdef object allocation_error(tuple shape, Py_ssize_t itemsize):
    """PyTorch's error for a tensor too large to create: its byte count overflows int64,
    or the allocator refuses it (numpy's MemoryError and "array is too big" must not
    reach a user)."""
    cdef object nbytes = itemsize
    for s in shape:
        nbytes *= s
    if nbytes >= (1 << 63):
        return RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    return RuntimeError(f"DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                        f"{nbytes} bytes. Error code 12 (Cannot allocate memory)")


def new_array_error(tuple shape, object np_dtype):
    """allocation_error for the Python layer."""
    return allocation_error(shape, np.dtype(np_dtype).itemsize)


cdef object scalar_in(object value, dtype d, bint opmath=False):
    """A Scalar argument as a kernel computing in dtype d reads it (Note [Complex Scalar
    arguments]): a complex number into a real dtype is its real part when its imaginary
    part is zero (bool: whether it is nonzero), else PyTorch's error naming the C type
    converted to (float for float16/bfloat16 in a kernel that computes them in float:
    opmath). The one conversion of the ops' Scalars and the creation functions' fills."""
    if type(value) is not complex or d is None or d.category == CAT_COMPLEX:
        return value
    if d.category == CAT_BOOL:
        return value != 0
    if value.imag != 0:
        name = "float" if opmath and d.category == CAT_FLOAT and d.itemsize == 2 \
            else d.value_type_name
        raise value_overflow_error(name)
    return int(value.real) if d.category == CAT_INT else value.real


cdef inline object _fill_in(object fill, object np_dtype):
    """A fill value as an array of np_dtype takes it (scalar_in)."""
    if type(fill) is not complex:
        return fill
    return scalar_in(fill, dtype_from_numpy(np.dtype(np_dtype)))


def new_array(tuple shape, object np_dtype, object fill=None):
    """A new array for a creation function: filled with fill (uninitialised if None), or
    PyTorch's error when it is too large (or a complex fill cannot be converted)."""
    fill = _fill_in(fill, np_dtype)
    try:
        if fill is None:
            return np.empty(shape, dtype=np_dtype)
        if fill == 0 and not isinstance(fill, str):
            return np.zeros(shape, dtype=np_dtype)
        return np.full(shape, fill, dtype=np_dtype)
    except (MemoryError, ValueError) as e:
        if isinstance(e, ValueError) and "too big" not in str(e) and "dimension" not in str(e):
            raise
        raise allocation_error(shape, np.dtype(np_dtype).itemsize) from None


def new_array_like(Tensor x, object np_dtype, object fill=None):
    """new_array for a *_like function with preserve_format: laid out as a copy of x
    (empty_preserving)."""
    try:
        out = empty_preserving(x._data, np_dtype)
    except (MemoryError, ValueError):
        return new_array(shape_of(x._data), np_dtype, fill)   # (its error)
    if fill is not None:
        out[...] = _fill_in(fill, np_dtype)
    return out


cdef Tensor make_scalar(object value, dtype d):
    """A 0-d tensor of dtype d."""
    return make(np.asarray(value, dtype=d.np_dtype))


cdef Tensor zeros(tuple shape, dtype d):
    return make(np.zeros(shape, dtype=d.np_dtype))


cdef Tensor zeros_like(Tensor t):
    return make(np.zeros(shape_of(t._data), dtype=t._data.dtype))


cdef tuple broadcast_shapes(tuple a, tuple b):
    """The shape arrays of shapes a and b broadcast to, or PyTorch's error."""
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        raise broadcast_error(a, b) from None


cdef bint broadcasts_to(tuple shape, tuple target):
    """Whether an array of this shape broadcasts to target: each trailing dim equal to
    target's or 1, and no more dims. (A C loop: addmm asks this for every nn.Linear
    call, and np.broadcast_shapes costs microseconds of Python-level code.)"""
    cdef Py_ssize_t n = len(shape), m = len(target), i, s
    if n > m:
        return False
    for i in range(1, n + 1):
        s = shape[n - i]
        if s != 1 and s != <Py_ssize_t>target[m - i]:
            return False
    return True


cdef Py_ssize_t shape_numel(tuple shape) except? -1:
    """How many elements an array of this shape holds."""
    cdef Py_ssize_t n = 1
    for s in shape:
        n *= <Py_ssize_t>s
    return n


cdef tuple inverse_permutation(tuple perm):
    """The permutation of dims that undoes perm."""
    cdef list inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


cdef dtype result_type(tuple operands):
    """PyTorch's result_type over operands: Tensors (dimensioned, or 0-d) and Python
    numbers, each group promoting separately (None entries are skipped)."""
    cdef int dim_r = NO_RANK, zero_r = NO_RANK, wrapped_r = NO_RANK, r
    cdef cnp.ndarray arr
    for x in operands:
        if x is None:
            continue
        if isinstance(x, Tensor):
            arr = (<Tensor>x)._data
            r = dtype_of(arr).rank
            if cnp.PyArray_NDIM(arr) == 0:
                zero_r = promote_rank(zero_r, r)
            else:
                dim_r = promote_rank(dim_r, r)
        else:
            wrapped_r = promote_rank(wrapped_r, scalar_rank(x))
    return <dtype>DTYPES_BY_RANK[combine_categories(dim_r, combine_categories(zero_r, wrapped_r))]


cdef dtype result_type_of_tensors(object tensors):
    """The promoted dtype of a list of Tensors, all treated alike (cat, stack)."""
    cdef int r = NO_RANK
    for t in tensors:
        r = promote_rank(r, dtype_of((<Tensor>t)._data).rank)
    return <dtype>DTYPES_BY_RANK[r]


def _result_type(tensor, other):
    """The dtype PyTorch's type promotion gives for ``tensor op other``.

    >>> import autograd_core as torch
    >>> torch.result_type(torch.tensor([1, 2]), 2.5)
    autograd_core.float32
    """
    return result_type((tensor, other))


_result_type.__name__ = _result_type.__qualname__ = "result_type"
