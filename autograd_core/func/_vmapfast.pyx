"""vmap's compiled dispatch and the shared-weight linear's compiled node.

Note [Compiled vmap dispatch]: under one vmap level (per-sample gradients: vmap(grad(f)))
the common batched calls (linear, relu and the other unary pointwise ops, cross_entropy /
nll_loss with one row per sample, unsqueeze, view/reshape, full sum/mean, add/sub/mul/div
of two batched operands of one rank or of a batched operand and a number) are answered
here, before the generic machinery of func/_vmap.py runs (the protocol's argument scan in
overrides.py, BatchedTensor.__torch_function__, _dispatch, the Python rule). Each fast
rule computes exactly what its generic rule computes on these arguments (the same op
calls on the same physical values), so the generic rules stay the one definition; a
call the fast rule does not recognise returns NotImplemented and takes the generic path
unchanged. The fast path never applies under nested vmap (more than one active level),
with a dual level active (forward AD), with an argument of any other type overriding
__torch_function__ (a Tensor subclass, another protocol type), with a BatchedTensor of
another level or wrapping anything but a plain Tensor, or with a list argument.
Entries: overrides._handle_call/_handle_call_py (the wrappers' protocol entry) and
_vmap._dispatch (BatchedTensor's methods and operators).

The shared-weight linear (Note [grad under vmap]: grad's per-sample copies of a shared
weight are one matrix expanded along the batch) records _SharedWeightLinearBackward, a
compiled node named as the autograd.Function's node it replaces: its backward gives each sample's weight gradient as an outer product (one
pass in C) and the input gradient by one matrix product; under create_graph it runs the
differentiable formulas of func/_vmap.py (_shared_weight_linear_grads, shared with the
autograd.Function that stays for forward AD and other dtypes).
"""
cimport numpy as cnp
from autograd_core._core.tensor cimport (
    Tensor, Node, make, save_operand, unpack_operand, raw_saved, record, should_record,
    needs_input_grad, set_released, requires_grad_of, grad_enabled, fw_active, NoGradGuard, OPS,
    blas_called,
)

import numpy as np

cnp.import_array()

# set by init() (func/_vmap.py, once imported)
cdef object BT = None                # the BatchedTensor class
cdef list LEVELS = None              # the active vmap levels, [level, size, randomness]
cdef object DISABLED = None          # overrides._disabled_torch_function_impl
cdef object PY_SHARED = None         # _vmap._shared_weight_linear (autograd.Function path)
cdef object PY_GRADS = None          # _vmap._shared_weight_linear_grads (create_graph)
cdef object PER_SAMPLE_OUTER = None  # ops.nn._per_sample_outer
cdef dict RULES = {}                 # function or method -> rule code
cdef object VIEW = Tensor.view
cdef object RESHAPE = Tensor.reshape

cdef enum:
    R_LINEAR = 1
    R_UNARY = 2
    R_UNSQUEEZE = 3
    R_VIEW = 4
    R_RESHAPE = 8
    R_REDUCE = 5
    R_BINARY = 6
    R_CLASS_LOSS = 7


def init(batched_tensor, levels, disabled, py_shared, py_grads, per_sample_outer, rules):
    """Called once by func/_vmap.py: its types and helpers, and the functions each fast
    rule answers ({function: rule name})."""
    global BT, LEVELS, DISABLED, PY_SHARED, PY_GRADS, PER_SAMPLE_OUTER
    BT, LEVELS, DISABLED = batched_tensor, levels, disabled
    PY_SHARED, PY_GRADS, PER_SAMPLE_OUTER = py_shared, py_grads, per_sample_outer
    codes = {"linear": R_LINEAR, "unary": R_UNARY, "unsqueeze": R_UNSQUEEZE,
             "view": R_VIEW, "reshape": R_RESHAPE, "reduce": R_REDUCE, "binary": R_BINARY,
             "class_loss": R_CLASS_LOSS}
    RULES.clear()
    for f, kind in rules.items():
        RULES[f] = codes[kind]


# ---------------------------------------------------------------- arguments

cdef inline bint _plain(object a):
    """An argument the fast rules may see as it is: a plain tensor (nn.Parameter's
    disabled protocol included), a number, a string, None."""
    cdef type t = type(a)
    if t is Tensor or a is None or t is int or t is float or t is bool or t is str:
        return True
    if isinstance(a, Tensor):
        return getattr(t, "__torch_function__", None) is DISABLED
    return False


cdef inline int _kind(object a, object level) except -2:
    """1: a BatchedTensor of level over a plain Tensor; 0: a plain argument; -1: anything
    else (the generic path)."""
    if type(a) is BT:
        if a._level == level and type(a._value) is Tensor:
            return 1
        return -1
    return 0 if _plain(a) else -1


cdef inline object _wrap(object out, object level):
    if type(out) is Tensor:
        return BT(out, level)
    return NotImplemented


def dispatch(func, args, kwargs):
    """func(*args, **kwargs) by a compiled rule (Note [Compiled vmap dispatch]), or
    NotImplemented."""
    if LEVELS is None or len(LEVELS) != 1:
        return NotImplemented
    if type(args) is not tuple or type(kwargs) is not dict:
        return NotImplemented
    try:
        code = RULES.get(func)
    except TypeError:                    # (an unhashable callable: none of the rules')
        return NotImplemented
    if code is None or fw_active():
        return NotImplemented
    level = (<list>LEVELS[0])[0]
    cdef int c = code
    if c == R_LINEAR:
        return _linear(func, args, kwargs, level)
    if c == R_UNARY:
        return _unary(func, args, kwargs, level)
    if c == R_UNSQUEEZE:
        return _unsqueeze(args, kwargs, level)
    if c == R_VIEW or c == R_RESHAPE:
        # (the generic rule calls the method whichever spelling was used)
        return _view(VIEW if c == R_VIEW else RESHAPE, args, kwargs, level)
    if c == R_REDUCE:
        return _reduce(func, args, kwargs, level)
    if c == R_BINARY:
        return _binary(func, args, kwargs, level)
    if c == R_CLASS_LOSS:
        return _class_loss(func, args, kwargs, level)
    return NotImplemented


# ---------------------------------------------------------------- rules

cdef object _linear(func, tuple args, dict kwargs, level):
    # (F.linear's wrapper passes (input, weight, bias) positionally)
    if kwargs or len(args) != 3:
        return NotImplemented
    x, w, b = args
    cdef int kx = _kind(x, level), kw = _kind(w, level), kb = _kind(b, level)
    if kx != 1 or kw < 0 or kb < 0:
        return NotImplemented
    if kw == 0 and kb == 0:
        return _wrap(func(x._value, w, b), level)    # the batch is one more leading dim
    if kw != 1:
        return NotImplemented
    cdef Tensor xv = x._value, wv = w._value
    cdef cnp.ndarray wa = wv._data
    if cnp.PyArray_NDIM(wa) != 3 or cnp.PyArray_STRIDES(wa)[0] != 0 or \
            cnp.PyArray_NDIM(xv._data) < 2:
        return NotImplemented
    if kb == 0 and (b is None or type(b) is Tensor and b.dim() == 1):
        return BT(shared_weight_linear(xv, wv, b, False), level)
    if kb == 1 and cnp.PyArray_NDIM((<Tensor>b._value)._data) == 2:
        return BT(shared_weight_linear(xv, wv, b._value, True), level)
    return NotImplemented


cdef object _unary(func, tuple args, dict kwargs, level):
    if len(args) != 1 or _kind(args[0], level) != 1:
        return NotImplemented
    for k, v in kwargs.items():
        if k == "inplace":
            if v:
                return NotImplemented
        elif not _plain(v) or isinstance(v, Tensor):
            return NotImplemented
    return _wrap(func(args[0]._value, **kwargs), level)


cdef object _unsqueeze(tuple args, dict kwargs, level):
    if kwargs or len(args) != 2 or type(args[1]) is not int or _kind(args[0], level) != 1:
        return NotImplemented
    cdef Tensor v = args[0]._value
    cdef Py_ssize_t n = cnp.PyArray_NDIM(v._data)       # logical dims + 1
    cdef Py_ssize_t d = args[1]
    if d < -n or d > n - 1:
        return NotImplemented                            # (the generic path's error)
    if d < 0:
        d += n
    return _wrap(OPS.unsqueeze(v, d + 1), level)


cdef object _view(func, tuple args, dict kwargs, level):
    if kwargs or len(args) < 2 or _kind(args[0], level) != 1:
        return NotImplemented
    shape = args[1:]
    if len(shape) == 1 and type(shape[0]) is not int:
        shape = shape[0]
        if type(shape) is not tuple and type(shape) is not list:
            return NotImplemented                        # view(dtype), a Size: generic
    for s in shape:
        if type(s) is not int:
            return NotImplemented
    cdef Tensor v = args[0]._value
    return _wrap(func(v, cnp.PyArray_DIMS(v._data)[0], *shape), level)


cdef object _reduce(func, tuple args, dict kwargs, level):
    # the full reduction (sum(), mean()) of a batched tensor of one dim or more
    if kwargs or len(args) != 1 or _kind(args[0], level) != 1:
        return NotImplemented
    cdef Tensor v = args[0]._value
    cdef Py_ssize_t n = cnp.PyArray_NDIM(v._data) - 1
    if n < 1:
        return NotImplemented
    return _wrap(func(v, dim=tuple(range(1, n + 1))), level)


cdef object _binary(func, tuple args, dict kwargs, level):
    # two batched operands of one physical rank (no padding, no logical-0-d promotion:
    # Note [Promotion of logically 0-d samples]), or a batched operand and a number
    if kwargs or len(args) != 2:
        return NotImplemented
    a, b = args
    cdef int ka = _kind(a, level), kb = _kind(b, level)
    if ka < 0 or kb < 0 or ka + kb == 0:
        return NotImplemented
    if ka == 1 and kb == 1:
        if cnp.PyArray_NDIM((<Tensor>a._value)._data) != \
                cnp.PyArray_NDIM((<Tensor>b._value)._data):
            return NotImplemented
        return _wrap(func(a._value, b._value), level)
    bt, other = (a, b) if ka == 1 else (b, a)
    if type(other) is not int and type(other) is not float:
        return NotImplemented
    # Note [Empty batch of scalars]: an empty batch goes the generic way
    if cnp.PyArray_DIMS((<Tensor>bt._value)._data)[0] == 0:
        return NotImplemented
    if ka == 1:
        return _wrap(func(a._value, b), level)
    return _wrap(func(a, b._value), level)


cdef bint _any_equal(cnp.ndarray t, object value) except -1:
    if cnp.PyArray_TYPE(t) == cnp.NPY_INT64 and cnp.PyArray_ISCARRAY_RO(t) and \
            type(value) is int and -(1 << 62) < value < (1 << 62):
        return _any_equal_i64(<const long long *>cnp.PyArray_DATA(t), cnp.PyArray_SIZE(t),
                              value)
    return bool((t == value).any())


cdef bint _any_equal_i64(const long long *p, Py_ssize_t n, long long v) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if p[i] == v:
            return True
    return False


cdef object _class_loss(func, tuple args, dict kwargs, level):
    # cross_entropy / nll_loss (nn.functional's, called with every keyword) of one row
    # per sample: logical input (1, C), target (1,) of integer classes, both batched
    if len(args) != 2:
        return NotImplemented
    inp, target = args
    if _kind(inp, level) != 1 or _kind(target, level) != 1:
        return NotImplemented
    red = kwargs.get("reduction", "mean")
    ignore = kwargs.get("ignore_index", -100)
    for k, v in kwargs.items():
        if k == "reduction" or k == "ignore_index":
            continue
        if k == "label_smoothing":
            if v != 0.0:
                return NotImplemented
        elif v is not None:
            return NotImplemented
    if red != "mean" and red != "sum" or type(ignore) is not int:
        return NotImplemented
    cdef Tensor vi = inp._value, vt = target._value
    cdef cnp.ndarray ia = vi._data, ta = vt._data
    if cnp.PyArray_NDIM(ia) != 3 or cnp.PyArray_NDIM(ta) != 2 or \
            cnp.PyArray_DIMS(ia)[1] != 1 or cnp.PyArray_DIMS(ta)[1] != 1 or \
            cnp.PyArray_DIMS(ta)[0] != cnp.PyArray_DIMS(ia)[0] or \
            not cnp.PyArray_ISINTEGER(ta):
        return NotImplemented
    # one row per sample: its sum is itself, and so is its mean unless its target is
    # ignored (then 0 / 0, as PyTorch's mean over no target: the generic rule divides)
    if red == "mean" and _any_equal(ta, ignore):
        return NotImplemented
    cdef Py_ssize_t B = cnp.PyArray_DIMS(ia)[0]
    kw = dict(kwargs)
    kw["reduction"] = "none"
    return _wrap(func(OPS.reshape(vi, (B, cnp.PyArray_DIMS(ia)[2])), OPS.reshape(vt, (B,)),
                      **kw), level)


# ---------------------------------------------------------------- the shared-weight linear

def forward_ad_active():
    """Whether a dual level is active (the shared-weight linear is then left to the
    product of the generic rule, whose ops carry tangents)."""
    return fw_active()


cdef class _SharedWeightLinearBackward(Node):
    """Backward of the shared-weight linear under vmap(grad) (Note [Compiled vmap
    dispatch]): x (B, ..., I), w (B, O, I) one matrix expanded along the batch."""
    cdef object saved_x
    cdef object saved_w
    cdef bint b_batched

    cdef tuple apply(self, tuple grads):
        g = grads[0]
        cdef bint nx = needs_input_grad(self, 0), nw = needs_input_grad(self, 1)
        cdef bint nb = needs_input_grad(self, 2)
        x = unpack_operand(self, self.saved_x) if nw else None
        w = unpack_operand(self, self.saved_w) if nx else None
        if g is None:
            return (None, None, None)
        if grad_enabled():        # create_graph: the differentiable formulas
            if x is None:
                x = unpack_operand(self, self.saved_x)
            if w is None:
                w = unpack_operand(self, self.saved_w)
            return tuple(PY_GRADS(x, w, g, (nx, nw, nb), self.b_batched, True))
        cdef cnp.ndarray ga = (<Tensor>g)._data, xa, wa
        cdef tuple shape = (<object>ga).shape
        cdef Py_ssize_t B = shape[0], O = shape[len(shape) - 1], rows = 1, I, k
        for k in range(1, len(shape) - 1):
            rows *= shape[k]
        gx = gw = gb = None
        if nx:
            wa = (<Tensor>w)._data
            gx = make(np.matmul(ga, wa[0]))
            blas_called(<double>B * rows * O * cnp.PyArray_DIMS(wa)[2])
        if nw:
            xa = (<Tensor>x)._data
            I = cnp.PyArray_DIMS(xa)[cnp.PyArray_NDIM(xa) - 1]
            if rows == 1:          # an outer product per sample, in one pass
                gw = PER_SAMPLE_OUTER(make(ga.reshape(B, O)), make(xa.reshape(B, I)))
            else:
                gw = make(np.matmul(ga.reshape(B, rows, O).transpose(0, 2, 1),
                                    xa.reshape(B, rows, I)))
                blas_called(<double>B * rows * O * I)
        if nb:
            if not self.b_batched:
                gb = make(ga.reshape(B * rows, O)).sum(0)
            elif rows == 1:
                gb = make(ga.reshape(B, O))
            else:
                gb = make(ga.reshape(B, rows, O)).sum(1)
        return (gx, gw, gb)

    cdef void release_saved(self) noexcept:
        if self.saved_x is not None or self.saved_w is not None:
            set_released(self)
        self.saved_x = None
        self.saved_w = None

    @property
    def _saved_x(self):
        return unpack_operand(self, self.saved_x)

    @property
    def _saved_w(self):
        return unpack_operand(self, self.saved_w)

    @property
    def _raw_saved_x(self):
        return raw_saved(self, self.saved_x)

    @property
    def _raw_saved_w(self):
        return raw_saved(self, self.saved_w)


cdef inline bint _float_array(cnp.ndarray a, int typenum) noexcept:
    return cnp.PyArray_TYPE(a) == typenum and (typenum == cnp.NPY_FLOAT32 or
                                               typenum == cnp.NPY_FLOAT64)


cpdef object shared_weight_linear(Tensor x, Tensor w, object b, bint b_batched):
    """x @ w[0].T + b for a batch of samples whose weights w (B, out, in) are one matrix
    expanded along the batch (Note [grad under vmap]); b is None, unbatched (out,) or
    batched (B, out). float32/float64 record _SharedWeightLinearBackward; other dtypes
    take the autograd.Function of func/_vmap.py (as does forward AD, which the rule
    sends elsewhere)."""
    cdef cnp.ndarray xa = x._data, wa = w._data, ba = None
    cdef int typenum = cnp.PyArray_TYPE(xa)
    if b is not None:
        ba = (<Tensor>b)._data
    if fw_active() or not _float_array(xa, typenum) or not _float_array(wa, typenum) or \
            (ba is not None and not _float_array(ba, typenum)):
        return PY_SHARED(x, w, b, b_batched)
    cdef Tensor out, w0 = make(wa[0])
    cdef Py_ssize_t B = cnp.PyArray_DIMS(xa)[0]
    with NoGradGuard():
        if b is None or not b_batched:
            out = OPS.linear(x, w0, b)
        elif cnp.PyArray_STRIDES(ba)[0] == 0:
            out = OPS.linear(x, w0, make(ba[0]))
        else:
            out = OPS.linear(x, w0, None)
            oa = out._data.reshape(B, -1, cnp.PyArray_DIMS(out._data)[
                cnp.PyArray_NDIM(out._data) - 1])
            np.add(oa, ba[:, None, :], out=oa)
    inputs = (x, w, b)
    if not should_record(inputs, out._data, "linear"):
        return out
    cdef _SharedWeightLinearBackward node = \
        _SharedWeightLinearBackward.__new__(_SharedWeightLinearBackward)
    node.b_batched = b_batched
    if requires_grad_of(w):
        node.saved_x = save_operand(x)
    if requires_grad_of(x):
        node.saved_w = save_operand(w)
    record(node, out, inputs)
    return out
