# Forward-mode AD: tangents on tensors, the dual level, and the helpers the generated
# forward derivatives call.
#
# Note [Forward AD]
# A dual level is process-wide and one at a time (PyTorch: "Nested forward mode AD is
# not supported at the moment"); csrc/agc_mode.c holds it, with a generation number
# unique to each level entered. A tensor's tangent is a FwGrad in Tensor._fw, valid
# only while its generation is the active one: exiting the level clears every tangent at
# once (a stale FwGrad is dropped when next read), as PyTorch deletes the level's grads.
#
# Every recorded op calls its generated record_<Node>() (ops/_codegen.py); the first
# thing that does is `if fw_active(): fw_<Node>(...)`, one C-level check when no level
# is active (the per-op cost of the feature when it is off). fw_<Node> reads the
# tangents of the op's tensor inputs (fw_grad_of), and when one exists evaluates the
# table's `result:` formula with forward AD suspended (FwSuspend: the formula's own ops
# compute no tangents of their own, but with grad mode as it is they record the
# backward graph of the tangent: reverse-over-forward) and sets the output's tangent
# (fw_finish). An op without a formula raises PyTorch's NotImplementedError
# (fw_not_implemented). Ops without a node (comparisons, integer results) give no
# tangent, as PyTorch's non-differentiable outputs.
#
# Views: a view op's formula (auto_linear) is the same view of the input's tangent. A
# view made while its base had no tangent gets one when read later, if its base has one
# by then: the same view of the base's tangent (_view_of_base_tangent), as PyTorch's
# lazily created view fw grads. An in-place op on a dual tensor, or on a view of one,
# writes the new tangent into the old one in place (fw_inplace, from inplace_commit), so
# the base's tangent and every view's see the write.
#
# Saved outputs: a node saving its own output inline keeps only the array
# (Note [Saved outputs inline]); under forward AD a dual output is saved as a
# SavedTensor whose `fw` keeps the tangent, so a backward run inside the level
# (forward-over-reverse) sees dual saved values.


cdef class FwGrad:
    pass


cdef const int *fw_level_flag() noexcept:
    """The address of the process-wide 'a dual level is active' flag (read per op by the
    family modules: Note [Forward AD])."""
    return &agc_fw_level_on


cdef bint fw_active() noexcept:
    """Whether ops compute tangents: a dual level is active and forward grad mode on."""
    return agc_fw_active()


cdef class FwSuspend:
    """Forward AD off for a ``with`` block (a tangent's own computation)."""

    def __enter__(self):
        self.prev = agc_fw_grad_enabled()
        agc_set_fw_grad_enabled(0)

    def __exit__(self, *exc):
        agc_set_fw_grad_enabled(self.prev)


cdef inline FwGrad _new_fw(object tangent, long generation):
    cdef FwGrad f = FwGrad.__new__(FwGrad)
    f.tangent = tangent
    f.generation = generation
    return f


cdef object fw_grad_of(Tensor t):
    """t's tangent at the active level, or None."""
    cdef long gen = agc_fw_generation()
    if gen == 0:
        return None
    cdef FwGrad f = t._fw
    if f is not None:
        if f.generation == gen:
            return f.tangent
        t._fw = None  # a tangent of a level since exited
    if t._base is not None:
        bt = fw_grad_of(t._base)
        if bt is not None:
            v = _view_of_base_tangent(t, <Tensor>bt)
            if v is not None:
                t._fw = _new_fw(v, gen)
                return v
    return None


cdef int set_fw_grad(Tensor t, object tangent) except -1:
    """Give t this tangent (None: decidedly none) at the active level; a placeholder of
    fw_prepare is filled (the node's saved outputs share it)."""
    cdef long gen = agc_fw_generation()
    cdef FwGrad f = t._fw
    if f is not None and f.generation == gen and f.tangent is None and tangent is not None:
        f.tangent = tangent
        return 0
    t._fw = _new_fw(tangent, gen)
    return 0


cdef int fw_prepare(tuple outputs, tuple inputs) except -1:
    """Before an op records its node under forward AD: when an input is dual, each
    floating output gets an empty FwGrad, which a saved output shares and the op's
    forward derivative fills after the recording (Note [Forward AD])."""
    cdef long gen = agc_fw_generation()
    for x in inputs:
        if isinstance(x, Tensor) and fw_grad_of(<Tensor>x) is not None:
            break
    else:
        return 0
    for o in outputs:
        # (an output that is an input keeps its tangent: the formula reads it)
        if (isinstance(o, Tensor) and is_grad_array((<Tensor>o)._data)
                and not any([o is x for x in inputs])):
            (<Tensor>o)._fw = _new_fw(None, gen)
    return 0


cdef Tensor _view_of_base_tangent(Tensor view, Tensor bt):
    """The tangent of view: the same view of its base's tangent bt, when bt is laid out
    as the base (it is unless make_dual gave the base an odd one); else None."""
    cdef Tensor base = view._base
    cdef cnp.ndarray b = base._data, t = bt._data, v = view._data
    if not same_shape(b, t) or _elem_strides(b) != _elem_strides(t):
        return None
    cdef Py_ssize_t bi = cnp.PyArray_ITEMSIZE(b), ti = cnp.PyArray_ITEMSIZE(t)
    cdef Py_ssize_t off = (<char *>cnp.PyArray_DATA(v) - <char *>cnp.PyArray_DATA(b)) // bi
    if off < 0:
        return None
    from numpy.lib.stride_tricks import as_strided
    start = as_strided(t, shape=(off + 1,), strides=(ti,))[off:]
    arr = as_strided(start, shape=shape_of(v),
                     strides=tuple([s // bi * ti for s in (<object>v).strides]))
    return make_view(bt, arr)


# Note [Zero tangents of numbers]
# PyTorch's add/sub/mul/div take a Python number as a 0-d "wrapped number" tensor (of
# float64 for a float), and their forward formulas (self_t + other_t, other_t * self_p
# + self_t * other_p, (self_t - other_t * result) / other_p) read other_t, a ZeroTensor
# made with the wrapped tensor's options. Under torch.func's jvp (and jacfwd) that zero
# takes part in type promotion as a 0-d float64 tensor, not as a wrapped number: for a
# 0-d float32 primal, the result of `u + 0.25` is float32 but its tangent float64 (a
# primal of one dimension or more wins the promotion and keeps its dtype), and the
# wider tangent flows on through the formulas that follow. Under plain forward_ad
# (make_dual / unpack_dual) the tangent stays float32: there the zero promotes as the
# number itself does. _fw_numbers_as_tensors says which (func/_forward.py sets it while
# jvp's function runs). fw_finish therefore never narrows a floating tangent to the
# result's dtype; it widens (or converts) one that is narrower, as when the formula
# summed only the dual inputs' terms (auto_element_wise) of a result promoted by a
# non-dual input.
cdef bint _numbers_as_tensors = False


def _fw_numbers_as_tensors(bint on):
    """Whether a Python number's zero tangent is a 0-d tensor of its wrapped dtype
    (torch.func's jvp) rather than a number (forward_ad): Note [Zero tangents of
    numbers]. Returns the previous setting."""
    global _numbers_as_tensors
    prev = _numbers_as_tensors
    _numbers_as_tensors = on
    return prev


cdef object fw_zeros(object primal):
    """The tangent of an input without one, where a formula reads it: PyTorch's
    efficient zero tensor (a ZeroTensor, Note [ZeroTensor]: a product with it is zero
    even where the other factor is inf or NaN) of the input's shape and dtype; for a
    Python number, the 0-d ZeroTensor of the tensor PyTorch wraps it in (float64 for a
    float, int64 for an int, ...) under torch.func's jvp, else one that promotes as the
    number would (Note [Zero tangents of numbers]): of the narrowest dtype of its kind,
    which never widens a floating tensor it meets (bool for a bool, int8 for an int,
    float16 for a float)."""
    if isinstance(primal, Tensor):
        return _zerotensor_like(<Tensor>primal)
    if primal is None:
        # an absent optional tensor (group_norm without a bias): formulas test for it
        return 0
    if isinstance(primal, bool):
        np_dtype = np.bool_
    elif isinstance(primal, int):
        np_dtype = np.int64 if _numbers_as_tensors else np.int8
    elif isinstance(primal, complex):
        np_dtype = np.complex128 if _numbers_as_tensors else np.complex64
    else:
        np_dtype = np.float64 if _numbers_as_tensors else np.float16
    return _zerotensor_like(make(np.zeros((), dtype=np_dtype)))


# Note [ZeroTensor tangents]
# A forward formula may give a ZeroTensor (Note [ZeroTensor] in _node.pxi): sgn_backward
# of a real input (sgn's tangent), or what PyTorch's ZeroTensor kernels make of one (a
# product with it, exp's self_t * result, views of it). PyTorch's set_fw_grad keeps a
# tangent only when it has its primal's layout (has_same_meta), and its storage check
# sees a ZeroTensor's storage as one element: a ZeroTensor tangent stays one exactly
# when the result's memory holds one element (a 0-d or one-element result, or a view of
# one), and is copied into ordinary zeros otherwise. A kept one is immutable as any
# ZeroTensor: writing into the tangent raises, and so does an in-place op on its primal
# after writing the primal's values (fw_inplace's copy_ or zero_ of the tangent), both
# with PyTorch's messages.
cdef bint _memory_of_one_element(cnp.ndarray a):
    """Whether the memory a views holds exactly one element (its root array's size)."""
    root = <object>a
    while isinstance(getattr(root, "base", None), np.ndarray):
        root = root.base
    return root.size == 1 and root.itemsize == a.itemsize


cdef int fw_finish(Tensor result, object tangent) except -1:
    """Set result's tangent from a formula's value: broadcast to result's shape when the
    formula's terms did not make it so (an input broadcast against a non-dual one), and
    cast to result's dtype unless it is a wider floating dtype (Note [Zero tangents of
    numbers]); a ZeroTensor stays one only for a result of one element (Note [ZeroTensor
    tangents]), else it becomes an ordinary tensor (a tangent can be written in place);
    none for a non-floating result."""
    if not is_grad_array(result._data):
        return 0
    if tangent is None:
        return 0
    cdef Tensor t
    cdef int tt, rt
    with FwSuspend():
        if not isinstance(tangent, Tensor):
            t = make(np.full(shape_of(result._data), tangent, dtype=result._data.dtype))
        else:
            t = <Tensor>tangent
            if not same_shape(t._data, result._data):
                t = OPS.clone(OPS.expand(t, shape_of(result._data)), None)
            tt, rt = cnp.PyArray_TYPE(t._data), cnp.PyArray_TYPE(result._data)
            if tt != rt and not (
                    is_float_array(t._data) and not cnp.PyArray_ISCOMPLEX(t._data)
                    and not cnp.PyArray_ISCOMPLEX(result._data)
                    and cnp.PyArray_ITEMSIZE(t._data) > cnp.PyArray_ITEMSIZE(result._data)):
                t = OPS._to_copy(t, dtype_of(result._data))
            elif is_zerotensor(t) and not _memory_of_one_element(result._data):
                t = OPS.clone(t, None)
            if (result._base is None and cnp.PyArray_SIZE(t._data) > 1
                    and not _same_layout(t._data, result._data)):
                # PyTorch's set_fw_grad: a tangent not laid out as its primal is copied
                # into one that is (its history then ends in CopyBackwards)
                t = OPS.copy_(make(_strided_like(result._data, t._data.dtype)), t, False)
    set_fw_grad(result, t)
    return 0


cdef bint _same_layout(cnp.ndarray a, cnp.ndarray b):
    """Whether a and b (same shape) step through memory alike along every dimension of
    more than one element."""
    cdef int i
    for i in range(cnp.PyArray_NDIM(a)):
        if (cnp.PyArray_DIM(a, i) > 1 and cnp.PyArray_STRIDE(a, i) // cnp.PyArray_ITEMSIZE(a)
                != cnp.PyArray_STRIDE(b, i) // cnp.PyArray_ITEMSIZE(b)):
            return False
    return True


# Note [Complex forward AD]
# Complex tangents go through the forward formulas of the ops that differentiate complex
# values (COMPLEX_AUTOGRAD_OPS, Note [Complex autograd]) and of those PyTorch refuses to
# differentiate backward on complex values but evaluates forward: its refusal
# (throw_error_for_complex_autograd) guards the recording of a backward node only, so
# select_copy, select_scatter, embedding, ... compute complex tangents
# (COMPLEX_FORWARD_AD_OPS of autograd_core/_complex.py, installed here at import).
# check_complex_fw is the forward formulas' check (ops/_codegen.py); a complex output
# that requires grad still meets check_complex_grad when its node is recorded.
cdef set _complex_fw_ops = set()


def set_complex_fw_ops(ops):
    """Install the names of the ops whose forward derivatives take complex values beyond
    those that differentiate them backward (Note [Complex forward AD])."""
    global _complex_fw_ops
    _complex_fw_ops = set(ops)


cdef int check_complex_fw(str op) except -1:
    """Raise unless op's forward derivative takes complex values (Note [Complex forward
    AD]): PyTorch's error for the ops it does not differentiate on complex values."""
    if op in _complex_fw_ops:
        return 0
    return check_complex_grad(op)


# PyTorch's message for an in-place op whose forward formula gives no tangent while
# self has one (its self_t.copy_(undefined))
cdef str MSG_UNDEFINED_TANGENT_COPY = (
    "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument "
    "#1 'src'")


cdef object fw_not_implemented(str op):
    # PyTorch's refusal of an in-place op (after its kernel wrote self: rrelu_with_noise_,
    # index_reduce_) ends at "prioritize its implementation."; that of a functional op
    # (before its kernel) goes on (Note [Forward AD refusals before the kernel])
    return NotImplementedError(
        f"Trying to use forward AD with {op} that does not support it because it has not "
        "been implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so "
        "that we can prioritize its implementation" + (
            "." if op.endswith("_") and not op.endswith("__") else
            " or submit a PR adding the implementation to derivatives.yaml"))


# Note [Forward AD refusals before the kernel]
# PyTorch refuses forward AD in two ways, both before the op computes anything (so
# before its own argument and dtype checks: conv_tbc on a dual input of the wrong rank
# raises the refusal, not the shape error):
#  - an op with a derivative but no forward formula: its autograd kernel raises
#    fw_not_implemented(<op>) when a differentiable input has a tangent; the op named is
#    the one that has the node (cdist names _cdist_forward or _euclidean_dist, the
#    composite it went through). Its in-place variant refuses only after its kernel
#    wrote self (rrelu_with_noise_: self's values and version change, its tangent not),
#    which the generated fw_<Node> does at record time.
#  - an op with no derivative at all (floor_divide, heaviside, nonzero_static) runs
#    through PyTorch's autograd fallback, which refuses any tensor argument with a
#    tangent, out= included, in each form (functional, in-place, out=) with
#    fw_not_supported("aten::<name>"), before even the complex guard's dtype error.
# fw_refuse / fw_refuse_fallback are the checks those ops make first.

cdef object fw_not_supported(str op):
    """PyTorch's autograd fallback's refusal (an op without any derivative)."""
    return NotImplementedError(f"Trying to use forward AD with {op} that does not support it.")


cdef bint _any_dual(tuple tensors):
    for t in tensors:
        if isinstance(t, Tensor) and fw_grad_of(<Tensor>t) is not None:
            return True
    return False


cdef int fw_refuse(str op, tuple tensors) except -1:
    """An op without a forward derivative, before its kernel: raise fw_not_implemented
    when one of its differentiable inputs has a tangent (Note [Forward AD refusals
    before the kernel])."""
    if fw_active() and _any_dual(tensors):
        raise fw_not_implemented(op)
    return 0


cdef int fw_refuse_fallback(str op, tuple tensors) except -1:
    """An op without any derivative (PyTorch's autograd fallback), before anything else:
    raise fw_not_supported("aten::" + op) when a tensor argument has a tangent (Note
    [Forward AD refusals before the kernel])."""
    if fw_active() and _any_dual(tensors):
        raise fw_not_supported("aten::" + op)
    return 0


cdef Tensor _zeros_laid_out(Tensor t):
    """Zeros with t's shape, dtype and strides (a tangent made for t in place)."""
    cdef cnp.ndarray a = t._data
    if has_contiguous_strides(a):
        return make(np.zeros(shape_of(a), dtype=a.dtype))
    return make(np.zeros_like(a, order="K"))


cdef Tensor fw_tangent_for_write(Tensor self):
    """self's tangent, to be written in place: made when self has none (zeros, or for a
    view the view of its base's tangent, made zero for a base without one)."""
    st = fw_grad_of(self)
    if st is not None:
        return <Tensor>st
    cdef Tensor base = self._base
    if base is not None:
        bt = fw_grad_of(base)
        if bt is None:
            bt = _zeros_laid_out(base)
            set_fw_grad(base, bt)
        st = _view_of_base_tangent(self, <Tensor>bt)
    if st is None:
        st = _zeros_laid_out(self)
    set_fw_grad(self, st)
    return <Tensor>st


cdef int fw_inplace(Tensor self, Tensor result) except -1:
    """An in-place op wrote result's values into self: its tangent (None: zero) goes
    into self's tangent in place; a view without one first gets the view of its base's,
    made zero for a base without one (Note [Forward AD]). Returns 1, leaving self's
    tangent as it is, when the op's formula gave result no tangent although self has
    one: PyTorch then copies an undefined tangent into self's, which raises
    MSG_UNDEFINED_TANGENT_COPY once the values are written (inplace_commit). Returns 2
    (3) when the new tangent would be copied (zeroed) into an immutable ZeroTensor
    tangent (Note [ZeroTensor tangents]): inplace_commit writes the values, then raises
    fw_inplace_error; 0 else."""
    cdef FwGrad rf = result._fw
    cdef long gen = agc_fw_generation()
    rt = rf.tangent if rf is not None and rf.generation == gen else None
    st = fw_grad_of(self)
    if rt is None and st is None:
        return 0
    if rt is None and rf is not None and rf.generation == gen and is_grad_array(self._data):
        # fw_prepare's placeholder left unfilled: an input was dual and the formula gave
        # no tangent (scatter_reduce's prod, as PyTorch's scatter_reduce_jvp)
        return 1
    if not is_grad_array(self._data):
        return 0
    if st is not None and rt is not st and is_zerotensor(<Tensor>st):
        return 3 if rt is None else 2
    with FwSuspend():
        if st is None:
            st = fw_tangent_for_write(self)
            if rt is not None:
                OPS.copy_(<Tensor>st, <Tensor>rt, False)
            return 0
        if rt is None:
            OPS.zero_(<Tensor>st)
        elif rt is not st:
            OPS.copy_(<Tensor>st, <Tensor>rt, False)
    return 0


cdef object fw_inplace_error(int code):
    """The error of fw_inplace's code (1, 2, 3), raised once the values are written."""
    return RuntimeError(MSG_UNDEFINED_TANGENT_COPY if code == 1 else
                        MSG_ZEROTENSOR_COPY if code == 2 else MSG_ZEROTENSOR_WRITE)


# ---------------------------------------------------------------- the Python API
# (autograd/forward_ad.py is the public face: PyTorch's torch._make_dual, _unpack_dual,
# _enter_dual_level, _exit_dual_level and torch._C._is_fwd_grad_enabled /
# _set_fwd_grad_enabled)

def _enter_dual_level():
    """Enter the (single) forward AD level; returns its index, 0."""
    if agc_fw_level() >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    agc_fw_enter()
    return 0


def _exit_dual_level(level):
    """Exit the active level: every tangent of it is gone."""
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != agc_fw_level():
        raise RuntimeError("Trying to exit a forward AD level that was not the last one "
                           "that was created. This is not supported.")
    agc_fw_exit()


def _current_dual_level():
    return agc_fw_level()


def _is_fwd_grad_enabled():
    return bool(agc_fw_grad_enabled())


def _set_fwd_grad_enabled(mode):
    agc_set_fw_grad_enabled(1 if mode else 0)


def _make_dual(Tensor tensor, Tensor tangent, level, bint alias=False):
    """A view of tensor with tangent as its tangent at the level (copied into tensor's
    layout when its strides differ), as torch._make_dual. alias: the view is an alias
    (AliasBackward0, whose backward hands the gradient on as it is, not as a view of
    it), as torch.func.jvp's inputs are under functorch."""
    if level != agc_fw_level() or level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level "
                           "exists, make sure to enter_dual_level() first.")
    if fw_grad_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a "
                           f"forward gradient at the same level {level} is not supported.")
    if not same_shape(tensor._data, tangent._data):
        raise fw_grad_size_error(shape_of(tensor._data), shape_of(tangent._data))
    cdef Tensor result, laid
    with FwSuspend():
        result = OPS.alias(tensor) if alias else OPS.view(tensor, shape_of(tensor._data))
        if (cnp.PyArray_NDIM(tangent._data) and cnp.PyArray_SIZE(tangent._data) > 1
                and _elem_strides(tangent._data) != _elem_strides(tensor._data)):
            # PyTorch keeps the tangent as is only with the primal's layout
            laid = make(_strided_like(tensor._data, tangent._data.dtype))
            tangent = OPS.copy_(laid, tangent, False)
    set_fw_grad(result, tangent)
    return result


cdef cnp.ndarray _strided_like(cnp.ndarray like, object np_dtype):
    """A zero array over fresh memory with like's shape and (element) strides."""
    cdef tuple st = _elem_strides(like)
    cdef Py_ssize_t n = 1, i
    for i in range(cnp.PyArray_NDIM(like)):
        if cnp.PyArray_DIM(like, i) == 0:
            n = 0
            break
        n += (cnp.PyArray_DIM(like, i) - 1) * st[i]
    buf = np.zeros(builtins.max(n, 1), dtype=np_dtype)
    from numpy.lib.stride_tricks import as_strided
    return as_strided(buf, shape=shape_of(like),
                      strides=tuple([s * buf.itemsize for s in st]))


@cython.final
cdef class FwPrimalIdentity(Node):
    """The grad_fn of the primal unpack_dual hands back (PyTorch's _fw_primal): PyTorch's
    C++ node Identity, whose Python type is the generic CppFunction (renamed so in
    tensor.pyx), whose name() is torch::autograd::Identity and which tensors print as
    grad_fn=<Identity>. Its backward hands the gradient on as it is."""

    def name(self):
        return "torch::autograd::Identity"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        return (grads[0] if needs_input_grad(self, 0) else None,)


def _unpack_dual(Tensor tensor, level, bint alias=False):
    """(primal, tangent): a view of tensor without a tangent (whether or not tensor has
    one, as PyTorch's _fw_primal), and its tangent as is. The view's node is Identity;
    alias: AliasBackward0, as torch.func.jvp's outputs have under functorch."""
    if level != agc_fw_level() or level < 0:
        return (tensor, None)
    tangent = fw_grad_of(tensor)
    cdef Tensor primal
    if alias:
        with FwSuspend():
            primal = OPS.alias(tensor)
    else:
        primal = make_view(tensor, tensor._data.view())
        if (recording() and _input_requires_grad(tensor) and not inference_input(tensor)
                and recordable_array(primal._data, "alias")):
            record1(FwPrimalIdentity.__new__(FwPrimalIdentity), primal, tensor)
    if tangent is not None:
        set_fw_grad(primal, None)
    return (primal, tangent)


def _fw_grad(Tensor tensor):
    """tensor's tangent at the active level, or None."""
    return fw_grad_of(tensor)


# ---------------------------------------------------------------- backward_transpose
# A table row may give `result: backward_transpose`: the jvp as the transpose of the
# row's backward formula, which is linear in grad: with u a zero cotangent of the
# output, g(u) = J^T u, and the vector-Jacobian product of g at u for the input's
# tangent t is J t. The backward formulas are written in differentiable ops (their
# gradients are checked by gradgradcheck), so this is exact; it records a small graph
# per op, so rows keep PyTorch's closed-form formula where one is transcribed.

cdef Tensor fw_seed(Tensor like):
    """u: a zero cotangent for like, a leaf that requires grad."""
    cdef Tensor u = make(np.zeros(shape_of(like._data), dtype=like._data.dtype))
    u._requires_grad = True
    return u


cdef object fw_transpose(object g, Tensor u, object t, str op, bint create_graph):
    """J t from g = J^T u (see above); None when g does not depend on u (J is zero)."""
    if g is None:
        return None
    if not isinstance(g, Tensor):
        raise fw_not_implemented(op)
    if not requires_grad_of(<Tensor>g):
        return None
    cdef Tensor gt = <Tensor>g, tt = <Tensor>t
    if not same_shape(tt._data, gt._data):
        tt = OPS.expand(tt, shape_of(gt._data))
    if cnp.PyArray_TYPE(tt._data) != cnp.PyArray_TYPE(gt._data):
        tt = OPS._to_copy(tt, dtype_of(gt._data))
    from autograd_core.autograd import grad as _grad
    try:
        r = _grad((gt,), (u,), (tt,), retain_graph=True, create_graph=create_graph,
                  allow_unused=True)[0]
    except NotImplementedError:
        raise fw_not_implemented(op) from None
    except RuntimeError as e:
        # the backward formula has no derivative itself ("the derivative for ... is not
        # implemented"): neither has the op a forward one here
        if "not implemented" in str(e):
            raise fw_not_implemented(op) from None
        raise
    return r
