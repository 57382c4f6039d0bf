# Neural-network ops (autograd_core.nn.functional): activations, softmax, losses,
# linear, padding, normalisation layers, embedding, dropout, convolution and pooling,
# each with its backward node. As everywhere, derivatives are written with the
# library's own ops so create_graph and higher orders work.
#
# Note [Gradient ops that take the input]
# PyTorch's backward of several nn ops (leaky_relu, hardtanh, nll_loss, pooling,
# reflection padding ...) is an op of its own whose inputs are the incoming gradient
# AND the forward input, with a zero derivative for the latter. Under create_graph the
# first-order gradient therefore requires grad and its second derivative w.r.t. the
# input is a zero tensor (not None). _NnGradOp reproduces that: its value is linear in
# the gradient (a map given by `kind`), and it gives zeros for the input.
#
# Node classes whose PyTorch names a sibling op file might also define are created
# with type() over a private cdef base (as _MatmulCloneBackward0 in _ops_reduce.pxi),
# so that their C names cannot clash.

from libc.math cimport erf as _c_erf

cdef double _NN_SQRT1_2 = 0.70710678118654752440
cdef double _NN_INV_SQRT_2PI = 0.39894228040143267794
cdef double _NN_SQRT_2_PI = 0.79788456080286535588   # sqrt(2 / pi)
cdef double _NN_GELU_C = 0.044715


# ================================================================ helpers

cdef inline Tensor _nn_arg(object x, str fname, str argname="input", int pos=1):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fname}(): argument '{argname}' (position {pos}) must be Tensor, "
                        f"not {type(x).__name__}")
    return <Tensor>x


cdef inline Tensor _nn_opt(object x, str fname, str argname, int pos):
    if x is None:
        return None
    return _nn_arg(x, fname, argname, pos)


cdef void _nn_require_float(Tensor x, str kernel) except *:
    cdef dtype d = _dtype_of(x._data)
    if d.category != 2:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_legacy_scalar_name(d)}'")


cdef inline Tensor _nn_adds(Tensor a, object s):
    return _binary_record(AGC_ADD, a, s, 1)


cdef inline Tensor _nn_sub(Tensor a, Tensor b):
    return _binary_record(AGC_SUB, a, b, 1)


cdef inline Tensor _nn_sumdim(Tensor x, object dims, bint keepdim):
    return _sum(x, dims, keepdim, None)


cdef inline Tensor _nn_sum_all(Tensor x):
    return _sum(x, None, False, None)


cdef inline cnp.ndarray _nn_cast(object arr, cnp.ndarray like):
    """arr with like's dtype (numpy may widen a scalar result)."""
    cdef cnp.ndarray a = _as_array(arr)
    if cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(like):
        a = a.astype(like.dtype)
    return a


cdef inline void _nn_save_input(_SavedNode node, Tensor x):
    node.self_ = x
    node.self_version = _version_for_save(x)


cdef inline long _nn_ver(Tensor t):
    return _version_for_save(t) if t is not None else 0


cdef inline Tensor _nn_unpack(Node node, Tensor t, long version):
    if t is None:
        if node.released:
            raise RuntimeError(_MSG_BACKWARD_TWICE)
        return None
    return _unpack(node, t, version)


cdef int _nn_reduction(object reduction) except -1:
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")


cdef Tensor _nn_reduce(Tensor loss, int red):
    if red == 1:
        return _mean(loss, None, False, None)
    if red == 2:
        return _sum(loss, None, False, None)
    return loss


cdef cnp.ndarray _nn_reduce_values(cnp.ndarray loss, int red):
    if red == 0:
        return loss
    with _quiet():
        if red == 1:
            return _nn_cast(np.mean(loss) if loss.size else np.asarray(np.nan, loss.dtype), loss)
        return _nn_cast(np.sum(loss), loss)


cdef void _nn_not_differentiable(str fname, str arg, Tensor t) except *:
    if t is not None and t._requires_grad and _grad_on():
        raise RuntimeError(
            f"The function '{fname}' is not differentiable with respect to argument '{arg}'. "
            "This input cannot have requires_grad True.")


cdef class _NnNode(_SavedNode):
    """A node that saves up to three tensors (self_, other, third) and parameters."""
    cdef Tensor other
    cdef long other_version
    cdef Tensor third
    cdef long third_version
    cdef object params
    cdef object extra

    cdef void release_saved(self):
        self.other = None
        self.third = None
        self.extra = None
        _SavedNode.release_saved(self)

    cdef inline Tensor get_other(self):
        return _nn_unpack(self, self.other, self.other_version)

    cdef inline Tensor get_third(self):
        return _nn_unpack(self, self.third, self.third_version)


cdef inline void _nn_save_other(_NnNode node, Tensor t):
    node.other = t
    node.other_version = _nn_ver(t)


cdef inline void _nn_save_third(_NnNode node, Tensor t):
    node.third = t
    node.third_version = _nn_ver(t)


# ---------------------------------------------------------------- gradient ops
# (Note [Gradient ops that take the input])

cdef enum:
    _GK_MUL = 0        # g.reshape(gb_shape) * coef
    _GK_GATHER = 1     # g.reshape(rows, -1) scattered-added at flat indices (pool backward)
    _GK_AVGPOOL = 2    # avg-pool backward: fold of g / divisor
    _GK_INDEX = 3      # g scattered-added at an advanced index key (padding backward)


cdef class _NnGradOp(Node):
    cdef int kind
    cdef object coef         # _GK_MUL: the constant factor (ndarray)
    cdef object params       # the other kinds' parameters
    cdef tuple g_shape       # the incoming gradient's shape
    cdef tuple gb_shape      # _GK_MUL: g's shape as broadcast against coef
    cdef tuple x_shape
    cdef dtype x_dtype

    cdef tuple apply(self, tuple grads):
        cdef Tensor gg = grads[0]
        ga = gx = None
        if _needs(self, 0):
            ga = _nn_gradop_adjoint(self, gg)
        if _needs(self, 1):
            gx = _zeros(self.x_shape, self.x_dtype)
        return (ga, gx)


cdef Tensor _nn_gradop_adjoint(_NnGradOp node, Tensor gg):
    """The derivative of a gradient op w.r.t. its incoming gradient (the transpose map)."""
    cdef int k = node.kind
    if k == _GK_MUL:
        return _reshape(_sum_to(_mul(gg, _make(node.coef)), node.gb_shape), node.g_shape)
    if k == _GK_GATHER:
        rows, idx, out_shape = node.params
        return _reshape(_nn_gather_flat(_reshape(gg, (rows, -1)), idx), out_shape)
    if k == _GK_AVGPOOL:
        return _nn_avg_pool_from_params(gg, node.params)
    if k == _GK_INDEX:
        key, = node.params
        return _index_recorded(gg, key, True)
    raise RuntimeError("unknown gradient op")


cdef Tensor _nn_gradop(Tensor value, Tensor g, Tensor x, type cls, int kind, object coef,
                       tuple gb_shape, object params):
    """Attach a gradient op node (cls, a display subclass of _NnGradOp) to value."""
    cdef _NnGradOp node
    if _grad_on() and (g._requires_grad or (x is not None and x._requires_grad)):
        node = <_NnGradOp>cls.__new__(cls)
        node.kind = kind
        node.coef = coef
        node.params = params
        node.g_shape = _shp(g._data)
        node.gb_shape = gb_shape
        if x is not None:
            node.x_shape = _shp(x._data)
            node.x_dtype = _dtype_of(x._data)
            _record2(node, value, g, x)
        else:
            _record1(node, value, g)
    return value


cdef Tensor _nn_mul_grad(Tensor g, Tensor x, cnp.ndarray coef, type cls):
    """g * coef for an elementwise op whose derivative coef is piecewise constant."""
    cdef Tensor r = _make(_nn_cast(g._data * coef, g._data))
    return _nn_gradop(r, g, x, cls, _GK_MUL, coef, _shp(g._data), None)


cdef class _NnLinkNode(Node):
    """value linked to other tensors it does not depend on: zero gradients for them.

    PyTorch's multi-output backward ops (native_batch_norm_backward) make every gradient
    they return depend on all their inputs; under create_graph this reproduces that."""
    cdef list shapes
    cdef tuple none_grads   # per linked tensor: give it None (not zeros)

    cdef tuple apply(self, tuple grads):
        out = [grads[0]]
        for i in range(1, len(self.next_nodes)):
            if _needs(self, i) and not self.none_grads[i - 1]:
                shape, d = self.shapes[i - 1]
                out.append(_zeros(shape, d))
            else:
                out.append(None)
        return tuple(out)


cdef Tensor _nn_link(Tensor value, list others, type cls, tuple none_grads):
    cdef Tensor t
    if not _grad_on():
        return value
    if not (value._requires_grad or any((<Tensor>u)._requires_grad for u in others)):
        return value
    cdef Tensor r = _make(value._data)
    node = <_NnLinkNode>cls.__new__(cls)
    node.shapes = [(_shp(t._data), _dtype_of(t._data)) for t in others]
    node.none_grads = none_grads
    _record_n(node, r, [value] + others)
    return r


_NnBatchNormBB = type("NativeBatchNormBackwardBackward0", (_NnLinkNode,), {"__slots__": ()})
_NnLayerNormBB = type("NativeLayerNormBackwardBackward0", (_NnLinkNode,), {"__slots__": ()})
_NnConvolutionBB = type("ConvolutionBackwardBackward0", (_NnLinkNode,), {"__slots__": ()})


def _nn_display(name):
    return type(name, (_NnGradOp,), {"__slots__": ()})


_NnLeakyReluBB = _nn_display("LeakyReluBackwardBackward0")
_NnHardtanhBB = _nn_display("HardtanhBackwardBackward0")
_NnNllLossBB = _nn_display("NllLossBackwardBackward0")
_NnNllLoss2dBB = _nn_display("NllLoss2DBackwardBackward0")
_NnMaxPoolBB = _nn_display("MaxPool2DWithIndicesBackwardBackward0")
_NnAvgPoolBB = _nn_display("AvgPool2DBackwardBackward0")
_NnReflectionPad1dBB = _nn_display("ReflectionPad1DBackwardBackward0")
_NnReflectionPad2dBB = _nn_display("ReflectionPad2DBackwardBackward0")
_NnReflectionPad3dBB = _nn_display("ReflectionPad3DBackwardBackward0")
_NnReplicationPad1dBB = _nn_display("ReplicationPad1DBackwardBackward0")
_NnReplicationPad2dBB = _nn_display("ReplicationPad2DBackwardBackward0")
_NnReplicationPad3dBB = _nn_display("ReplicationPad3DBackwardBackward0")


# ---------------------------------------------------------------- in-place helper

cdef enum:
    _ACT_RELU = 0
    _ACT_LEAKY = 1
    _ACT_ELU = 2
    _ACT_HARDTANH = 3
    _ACT_SILU = 4
    _ACT_CELU = 5
    _ACT_SELU = 6


cdef Tensor _nn_inplace_act(Tensor x, int act, tuple params):
    """x modified in place by an activation, with PyTorch's leaf rules and history."""
    _check_inplace(x)
    if _grad_on() and (x._requires_grad or (x._base is not None and x._base._requires_grad)):
        return _rebase_history(x, _nn_act(_snapshot(x), act, params, True))
    cdef Tensor r = _nn_act(x, act, params, True)
    _write_values(x, r._data)
    _bump_version(x)
    return x


cdef Tensor _nn_act(Tensor x, int act, tuple params, bint inplace):
    if act == _ACT_RELU:
        return _unary(x, AGC_RELU)
    if act == _ACT_LEAKY:
        return _nn_leaky_relu(x, params[0], inplace)
    if act == _ACT_ELU:
        return _nn_elu(x, params[0], params[1], params[2], inplace, 0)
    if act == _ACT_CELU:
        return _nn_elu(x, params[0], params[1], params[2], inplace, 1)
    if act == _ACT_SELU:
        return _nn_elu(x, params[0], params[1], params[2], inplace, 2)
    if act == _ACT_HARDTANH:
        return _nn_hardtanh(x, params[0], params[1])
    if act == _ACT_SILU:
        return _nn_silu(x)
    raise RuntimeError("unknown activation")


# ================================================================ activations

cdef class LeakyReluBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        x = self.input()
        coef = np.where(x._data > 0, 1, self.params).astype(x._data.dtype)
        return (_nn_mul_grad(grads[0], x, coef, _NnLeakyReluBB),)


cdef class LeakyReluBackward1(_NnNode):
    """leaky_relu_: the derivative is read off the saved result."""
    cdef tuple apply(self, tuple grads):
        y = self.output()
        coef = np.where(y._data > 0, 1, self.params).astype(y._data.dtype)
        return (_nn_mul_grad(grads[0], y, coef, _NnLeakyReluBB),)


cdef Tensor _nn_leaky_relu(Tensor x, object slope, bint inplace):
    _nn_require_float(x, "leaky_relu_cpu")
    cdef cnp.ndarray xa = x._data
    cdef Tensor r = _make(_nn_cast(np.where(xa > 0, xa, xa * slope), xa))
    cdef _NnNode node
    if _grad_on() and x._requires_grad:
        if inplace:
            node = <LeakyReluBackward1>LeakyReluBackward1.__new__(LeakyReluBackward1)
            _save_own_output(node, r)
        else:
            node = <LeakyReluBackward0>LeakyReluBackward0.__new__(LeakyReluBackward0)
            _nn_save_input(node, x)
        node.params = slope
        _record1(node, r, x)
    return r


cdef class EluBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        alpha, scale, iscale = self.params
        # x > 0: g * scale;  else g * alpha * scale * iscale * exp(x * iscale)
        neg = _mul_scalar(_unary(_mul_scalar(x, iscale) if iscale != 1 else x, AGC_EXP),
                          alpha * scale * iscale)
        pos = _mul_scalar(g, scale) if scale != 1 else g
        return (_where(x._data > 0, pos, _mul(g, neg)),)


cdef class EluBackward1(_NnNode):
    """elu_ / celu_ / selu_: the derivative from the saved result."""
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        y = self.output()
        alpha, scale, iscale = self.params
        # for y <= 0: d/dx = iscale * (y + alpha * scale)
        neg = _mul_scalar(_nn_adds(y, alpha * scale), iscale)
        pos = _mul_scalar(g, scale) if scale != 1 else g
        return (_where(y._data > 0, pos, _mul(g, neg)),)


cdef class CeluBackward0(EluBackward0):
    pass


cdef class CeluBackward1(EluBackward1):
    pass


_NN_SELU_ALPHA = 1.6732632423543772848170429916717
_NN_SELU_SCALE = 1.0507009873554804934193349852946


cdef Tensor _nn_elu(Tensor x, object alpha, object scale, object iscale, bint inplace, int which):
    _nn_require_float(x, "elu_cpu")
    cdef cnp.ndarray xa = x._data
    with _quiet():
        neg = np.expm1(xa * iscale if iscale != 1 else xa) * (alpha * scale)
        pos = xa * scale if scale != 1 else xa
        out = np.where(xa > 0, pos, neg)
    cdef Tensor r = _make(_nn_cast(out, xa))
    cdef _NnNode node
    if _grad_on() and x._requires_grad:
        if inplace:
            node = <_NnNode>(CeluBackward1.__new__(CeluBackward1) if which == 1
                             else EluBackward1.__new__(EluBackward1))
            _save_own_output(node, r)
        else:
            node = <_NnNode>(CeluBackward0.__new__(CeluBackward0) if which == 1
                             else EluBackward0.__new__(EluBackward0))
            _nn_save_input(node, x)
        # PyTorch's celu derivative uses 1 / float(alpha) (alpha rounded to float32)
        node.params = (alpha, scale, 1.0 / float(np.float32(alpha)) if which == 1 else iscale)
        _record1(node, r, x)
    return r


cdef class HardtanhBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        x = self.input()
        lo, hi = self.params
        coef = _as_array(((x._data > lo) & (x._data < hi)).astype(x._data.dtype))
        return (_nn_mul_grad(grads[0], x, coef, _NnHardtanhBB),)


cdef Tensor _nn_hardtanh(Tensor x, object lo, object hi):
    cdef dtype d = _dtype_of(x._data)
    if d.category == 0:
        raise NotImplementedError("\"hardtanh_cpu\" not implemented for 'Bool'")
    cdef cnp.ndarray xa = x._data
    if d.category == 1:
        lo_v, hi_v = int(lo), int(hi)
    else:
        lo_v, hi_v = lo, hi
    cdef Tensor r = _make(_nn_cast(np.minimum(np.maximum(xa, lo_v), hi_v), xa))
    if d.category == 2:
        # NaN stays NaN (np.maximum already propagates it)
        pass
    if _grad_on() and x._requires_grad:
        node = <HardtanhBackward0>HardtanhBackward0.__new__(HardtanhBackward0)
        _nn_save_input(node, x)
        node.params = (lo, hi)
        _record1(node, r, x)
    return r


cdef class SiluBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        x = self.input()
        s = _unary(x, AGC_SIGMOID)
        # d/dx x*s(x) = s * (1 + x * (1 - s))
        return (_mul(grads[0], _mul(s, _nn_adds(_mul(x, _rsub_scalar(s, 1)), 1))),)


cdef Tensor _nn_silu(Tensor x):
    _nn_require_float(x, "silu_cpu")
    cdef cnp.ndarray xa = x._data
    with _quiet():
        out = xa / (1 + np.exp(-xa))
    cdef Tensor r = _make(_nn_cast(out, xa))
    if _grad_on() and x._requires_grad:
        node = <SiluBackward0>SiluBackward0.__new__(SiluBackward0)
        _nn_save_input(node, x)
        _record1(node, r, x)
    return r


cdef class SoftplusBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        beta, threshold = self.params
        with _quiet():
            linear = (x._data * beta) > threshold
        z = _unary(_mul_scalar(x, beta) if beta != 1 else x, AGC_SIGMOID)
        return (_where(linear, g, _mul(g, z)),)


cdef Tensor _nn_softplus(Tensor x, object beta, object threshold):
    _nn_require_float(x, "softplus_cpu")
    cdef cnp.ndarray xa = x._data
    with _quiet():
        bx = xa * beta
        out = np.where(bx > threshold, xa, np.log1p(np.exp(bx)) / beta)
    cdef Tensor r = _make(_nn_cast(out, xa))
    if _grad_on() and x._requires_grad:
        node = <SoftplusBackward0>SoftplusBackward0.__new__(SoftplusBackward0)
        _nn_save_input(node, x)
        node.params = (beta, threshold)
        _record1(node, r, x)
    return r


# ---------------------------------------------------------------- gelu

@cython.boundscheck(False)
@cython.wraparound(False)
cdef cnp.ndarray _nn_erf_values(object x):
    """erf elementwise (C's erf, computed in double)."""
    cdef cnp.ndarray xd = np.array(x, dtype=np.float64, order="C", ndmin=1)
    cdef cnp.ndarray out = np.empty_like(xd)
    cdef double[::1] a = xd.reshape(-1)
    cdef double[::1] o = out.reshape(-1)
    cdef Py_ssize_t i, n = a.shape[0]
    with nogil:
        for i in range(n):
            o[i] = _c_erf(a[i])
    return out.reshape(np.shape(x))


cdef cnp.ndarray _nn_gelu_values(cnp.ndarray x, bint tanh_approx):
    cdef cnp.ndarray xd = x.astype(np.float64)
    with _quiet():
        if tanh_approx:
            out = 0.5 * xd * (1 + np.tanh(_NN_SQRT_2_PI * (xd + _NN_GELU_C * xd * xd * xd)))
        else:
            out = 0.5 * xd * (1 + _nn_erf_values(xd * _NN_SQRT1_2))
    return _nn_cast(out, x)


cdef cnp.ndarray _nn_gelu_deriv_values(cnp.ndarray x, bint tanh_approx):
    """d/dx gelu(x), as values."""
    cdef cnp.ndarray xd = x.astype(np.float64)
    with _quiet():
        if tanh_approx:
            x2 = xd * xd
            t = np.tanh(_NN_SQRT_2_PI * (xd + _NN_GELU_C * x2 * xd))
            du = _NN_SQRT_2_PI * (1 + 3 * _NN_GELU_C * x2)
            out = 0.5 * (1 + t) + 0.5 * xd * (1 - t * t) * du
        else:
            cdf = 0.5 * (1 + _nn_erf_values(xd * _NN_SQRT1_2))
            out = cdf + xd * np.exp(-0.5 * xd * xd) * _NN_INV_SQRT_2PI
    return _nn_cast(out, x)


cdef Tensor _nn_gelu_second(Tensor x, bint tanh_approx):
    """d2/dx2 gelu(x), in library ops (differentiable)."""
    x2 = _mul(x, x)
    if not tanh_approx:
        pdf = _mul_scalar(_unary(_mul_scalar(x2, -0.5), AGC_EXP), _NN_INV_SQRT_2PI)
        return _mul(pdf, _rsub_scalar(x2, 2))
    k = _NN_SQRT_2_PI
    c = _NN_GELU_C
    t = _unary(_mul_scalar(_add(x, _mul_scalar(_mul(x2, x), c)), k), AGC_TANH)
    s = _rsub_scalar(_mul(t, t), 1)
    du = _mul_scalar(_nn_adds(_mul_scalar(x2, 3 * c), 1), k)
    # (1 - t^2) * (du - x t du^2 + 3 k c x^2)
    inner = _add(_nn_sub(du, _mul(_mul(x, t), _mul(du, du))), _mul_scalar(x2, 3 * k * c))
    return _mul(s, inner)


cdef class GeluBackwardBackward0(_NnNode):
    """gelu_backward(grad, self): its own op, so second derivatives have a node."""
    cdef tuple apply(self, tuple grads):
        cdef Tensor gg = grads[0]
        g = self.get_other()
        x = self.input()
        approx = self.params
        ga = gx = None
        if _needs(self, 0):
            ga = _nn_gelu_backward(gg, x, approx)
        if _needs(self, 1):
            gx = _mul(_mul(gg, g), _nn_gelu_second(x, approx))
        return (ga, gx)


cdef Tensor _nn_gelu_backward(Tensor g, Tensor x, bint approx):
    cdef Tensor r = _make(_nn_cast(g._data * _nn_gelu_deriv_values(x._data, approx), g._data))
    if _grad_on() and (g._requires_grad or x._requires_grad):
        node = <GeluBackwardBackward0>GeluBackwardBackward0.__new__(GeluBackwardBackward0)
        _nn_save_input(node, x)
        _nn_save_other(node, g)
        node.params = approx
        _record2(node, r, g, x)
    return r


cdef class GeluBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        return (_nn_gelu_backward(grads[0], self.input(), self.params),)


cdef Tensor _nn_gelu(Tensor x, object approximate):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _nn_require_float(x, "GeluKernelImpl")
    cdef bint approx = approximate == "tanh"
    cdef Tensor r = _make(_nn_gelu_values(x._data, approx))
    if _grad_on() and x._requires_grad:
        node = <GeluBackward0>GeluBackward0.__new__(GeluBackward0)
        _nn_save_input(node, x)
        node.params = approx
        _record1(node, r, x)
    return r


# ================================================================ softmax

cdef class SoftmaxBackward0(_NnNode):
    cdef Py_ssize_t dim

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        y = self.output()
        return (_mul(y, _nn_sub(g, _nn_sumdim(_mul(g, y), self.dim, True))),)


cdef class LogSoftmaxBackward0(_NnNode):
    cdef Py_ssize_t dim

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        y = self.output()
        return (_nn_sub(g, _mul(_unary(y, AGC_EXP), _nn_sumdim(g, self.dim, True))),)


cdef Tensor _nn_softmax(Tensor x, object dim, object dtype_arg, bint log):
    if dtype_arg is not None:
        x = _cast(x, _to_dtype(dtype_arg)) if _to_dtype(dtype_arg) is not _dtype_of(x._data) else x
    _nn_require_float(x, "log_softmax_lastdim_kernel_impl" if log else "softmax_lastdim_kernel_impl")
    cdef cnp.ndarray xa = x._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    cdef Py_ssize_t d = _wrap_dim(dim, nd)
    cdef cnp.ndarray w = xa.reshape(1) if nd == 0 else xa
    with _quiet():
        if cnp.PyArray_SIZE(w) == 0:
            out = np.empty_like(w)
        else:
            m = np.max(w, axis=d, keepdims=True)
            sh = w - m
            e = np.exp(sh)
            s = np.sum(e, axis=d, keepdims=True)
            out = sh - np.log(s) if log else e / s
    cdef cnp.ndarray oa = _nn_cast(out, xa)
    if nd == 0:
        oa = oa.reshape(())
    cdef Tensor r = _make(oa)
    cdef _NnNode node
    if _grad_on() and x._requires_grad:
        if log:
            node = <LogSoftmaxBackward0>LogSoftmaxBackward0.__new__(LogSoftmaxBackward0)
            (<LogSoftmaxBackward0>node).dim = d
        else:
            node = <SoftmaxBackward0>SoftmaxBackward0.__new__(SoftmaxBackward0)
            (<SoftmaxBackward0>node).dim = d
        _save_own_output(node, r)
        _record1(node, r, x)
    return r


def softmax(input, dim, dtype=None):
    """Softmax along ``dim``: exp(x) / exp(x).sum(dim).

    >>> import autograd_core as torch
    >>> torch.softmax(torch.tensor([0., 0.]), 0)
    tensor([0.5000, 0.5000])
    """
    return _nn_softmax(_nn_arg(input, "softmax"), dim, dtype, False)


def log_softmax(input, dim, dtype=None):
    """log(softmax(input, dim)), computed stably.

    >>> import autograd_core as torch
    >>> torch.log_softmax(torch.tensor([0., 0.]), 0).exp()
    tensor([0.5000, 0.5000])
    """
    return _nn_softmax(_nn_arg(input, "log_softmax"), dim, dtype, True)


@_tensor_method("softmax")
def _tm_softmax(self, dim, dtype=None):
    return _nn_softmax(self, dim, dtype, False)


@_tensor_method("log_softmax")
def _tm_log_softmax(self, dim, dtype=None):
    return _nn_softmax(self, dim, dtype, True)


def _nn_activation(name, input, *params):
    """F's activations: name in relu, leaky_relu, elu, celu, selu, hardtanh, silu,
    softplus, gelu; params as F passes them."""
    cdef Tensor x = _nn_arg(input, name)
    if name == "leaky_relu":
        return _nn_leaky_relu(x, params[0], False)
    if name == "elu":
        return _nn_elu(x, params[0], 1.0, 1.0, False, 0)
    if name == "celu":
        return _nn_elu(x, params[0], 1.0, 1.0 / params[0], False, 1)
    if name == "selu":
        return _nn_elu(x, _NN_SELU_ALPHA, _NN_SELU_SCALE, 1.0, False, 0)
    if name == "hardtanh":
        return _nn_hardtanh(x, params[0], params[1])
    if name == "silu":
        return _nn_silu(x)
    if name == "softplus":
        return _nn_softplus(x, params[0], params[1])
    if name == "gelu":
        return _nn_gelu(x, params[0])
    if name == "relu":
        return _unary(x, AGC_RELU)
    raise ValueError(name)


def _nn_activation_(name, input, *params):
    """In-place forms (F's inplace=True and the trailing-underscore functions)."""
    cdef Tensor x = _nn_arg(input, name + "_")
    if name == "relu":
        return _inplace_core_unary(x, AGC_RELU)  # Tensor.relu_, one implementation
    if name == "leaky_relu":
        return _nn_inplace_act(x, _ACT_LEAKY, (params[0],))
    if name == "elu":
        return _nn_inplace_act(x, _ACT_ELU, (params[0], 1.0, 1.0))
    if name == "celu":
        return _nn_inplace_act(x, _ACT_CELU, (params[0], 1.0, 1.0 / params[0]))
    if name == "selu":
        return _nn_inplace_act(x, _ACT_SELU, (_NN_SELU_ALPHA, _NN_SELU_SCALE, 1.0))
    if name == "hardtanh":
        return _nn_inplace_act(x, _ACT_HARDTANH, (params[0], params[1]))
    if name == "silu":
        return _nn_inplace_act(x, _ACT_SILU, ())
    raise ValueError(name)


# ================================================================ losses

cdef class MseLossBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        t = self.get_other()
        red, n = self.params
        norm = (2.0 / n if n else float("nan")) if red == 1 else 2.0
        gx = _mul(_mul_scalar(_nn_sub(x, t), norm), g)
        return (gx if _needs(self, 0) else None, _neg(gx) if _needs(self, 1) else None)


cdef Tensor _nn_mse_loss(Tensor x, Tensor t, int red):
    _nn_require_float(x, "mse_cpu")
    cdef cnp.ndarray d = _binary_values(x, t, AGC_SUB)
    cdef Tensor r
    with _quiet():
        r = _make(_nn_reduce_values(_nn_cast(d * d, d), red))
    if _grad_on() and (x._requires_grad or t._requires_grad) and _dtype_of(d).category == 2:
        node = <MseLossBackward0>MseLossBackward0.__new__(MseLossBackward0)
        _nn_save_input(node, x)
        _nn_save_other(node, t)
        node.params = (red, cnp.PyArray_SIZE(d))
        _record2(node, r, x, t)
    return r


cdef class SmoothL1LossBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        t = self.get_other()
        red, n, beta = self.params
        d = _nn_sub(x, t)
        small = np.abs(d._data) < beta
        coef = _where(small, _div_scalar(d, beta), _make(_as_array(np.sign(d._data))))
        if red == 1:
            coef = _div_scalar(coef, n)
        gx = _mul(coef, g)
        return (gx if _needs(self, 0) else None, _neg(gx) if _needs(self, 1) else None)


cdef Tensor _nn_smooth_l1_loss(Tensor x, Tensor t, int red, object beta):
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return _nn_reduce(_unary(_nn_sub(x, t), AGC_ABS), red)
    _nn_require_float(x, "smooth_l1_cpu")
    cdef cnp.ndarray d = _binary_values(x, t, AGC_SUB)
    with _quiet():
        ad = np.abs(d)
        loss = np.where(ad < beta, 0.5 * d * d / beta, ad - 0.5 * beta)
    cdef Tensor r = _make(_nn_reduce_values(_nn_cast(loss, d), red))
    if _grad_on() and (x._requires_grad or t._requires_grad):
        node = <SmoothL1LossBackward0>SmoothL1LossBackward0.__new__(SmoothL1LossBackward0)
        _nn_save_input(node, x)
        _nn_save_other(node, t)
        node.params = (red, cnp.PyArray_SIZE(d), beta)
        _record2(node, r, x, t)
    return r


cdef class HuberLossBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        t = self.get_other()
        red, n, delta = self.params
        d = _nn_sub(x, t)
        small = np.abs(d._data) <= delta
        coef = _where(small, d, _make(_as_array(np.sign(d._data) * np.asarray(delta, d._data.dtype))))
        if red == 1:
            coef = _div_scalar(coef, n)
        gx = _mul(coef, g)
        return (gx if _needs(self, 0) else None, _neg(gx) if _needs(self, 1) else None)


cdef Tensor _nn_huber_loss(Tensor x, Tensor t, int red, object delta):
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _nn_require_float(x, "huber_cpu")
    cdef cnp.ndarray d = _binary_values(x, t, AGC_SUB)
    with _quiet():
        ad = np.abs(d)
        loss = np.where(ad < delta, 0.5 * d * d, delta * (ad - 0.5 * delta))
    cdef Tensor r = _make(_nn_reduce_values(_nn_cast(loss, d), red))
    if _grad_on() and (x._requires_grad or t._requires_grad):
        node = <HuberLossBackward0>HuberLossBackward0.__new__(HuberLossBackward0)
        _nn_save_input(node, x)
        _nn_save_other(node, t)
        node.params = (red, cnp.PyArray_SIZE(d), delta)
        _record2(node, r, x, t)
    return r


cdef Tensor _nn_l1_loss(Tensor x, Tensor t, int red):
    return _nn_reduce(_unary(_nn_sub(x, t), AGC_ABS), red)


# ---------------------------------------------------------------- binary cross entropy

cdef class BinaryCrossEntropyBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        t = self.get_other()
        w = self.get_third()
        red, n = self.params
        scale = _div_scalar(g, n) if red == 1 else g
        if w is not None:
            scale = _mul(scale, w)
        gx = gt = None
        if _needs(self, 0):
            gx = _nn_bce_backward(g, x, t, w, red)
        if _needs(self, 1):
            gt = _mul(_neg(_log(_div(x, _rsub_scalar(x, 1)))), scale)
        return (gx, gt)


cdef class _NnBceBackwardNode(_NnNode):
    """binary_cross_entropy_backward(grad, self, target, weight): PyTorch's double
    backward formulas (with their eps)."""
    cdef tuple apply(self, tuple grads):
        cdef Tensor gg = grads[0]
        g = self.get_third()
        x = self.input()
        t = self.get_other()
        w, red = self.params
        n = cnp.PyArray_SIZE(x._data)
        eps = 1e-12
        ga = gx = gt = None
        if _needs(self, 0):
            ggo = _div(_nn_sub(x, t), _mul(_nn_adds(x, eps), _rsub_scalar(x, 1 + eps)))
            if w is not None:
                ggo = _mul(ggo, w)
            ga = _nn_reduce(_mul(ggo, gg), red)
        if _needs(self, 1):
            num = _add(_nn_sub(_mul(x, x), _mul_scalar(_mul(x, t), 2)), t)
            den = _mul(_pow_scalar(_nn_adds(x, eps), 2), _pow_scalar(_rsub_scalar(x, 1 + eps), 2))
            gx = _mul(_div(num, den), _mul(gg, g))
            if w is not None:
                gx = _mul(gx, w)
            if red == 1:
                gx = _div_scalar(gx, n)
        if _needs(self, 2):
            res = _neg(_mul(gg, g))
            if w is not None:
                res = _mul(res, w)
            denom = _mul(_rsub_scalar(x, 1), x)
            denom = _make(_as_array(np.maximum(denom._data, eps)).astype(x._data.dtype))
            gt = _div(res, denom)
            if red == 1:
                gt = _div_scalar(gt, n)
        return (ga, gx, gt)


_NnBceBackwardBackward0 = type("BinaryCrossEntropyBackwardBackward0", (_NnBceBackwardNode,),
                               {"__slots__": ()})


cdef Tensor _nn_bce_backward(Tensor g, Tensor x, Tensor t, Tensor w, int red):
    cdef cnp.ndarray xa = x._data
    with _quiet():
        v = (xa - t._data) / np.maximum((1 - xa) * xa, 1e-12) * g._data
        if w is not None:
            v = v * w._data
        if red == 1:
            v = v / cnp.PyArray_SIZE(xa)
    cdef Tensor r = _make(_nn_cast(np.broadcast_to(v, _shp(xa)).copy() if np.shape(v) != _shp(xa)
                                   else v, xa))
    cdef _NnBceBackwardNode node
    if _grad_on() and (g._requires_grad or x._requires_grad or t._requires_grad):
        node = <_NnBceBackwardNode>_NnBceBackwardBackward0.__new__(_NnBceBackwardBackward0)
        _nn_save_input(node, x)
        _nn_save_other(node, t)
        _nn_save_third(node, g)
        node.params = (w, red)
        _record_n(node, r, [g, x, t])
    return r


cdef Tensor _nn_binary_cross_entropy(Tensor x, Tensor t, Tensor w, int red):
    _nn_require_float(x, "binary_cross_entropy")
    _nn_not_differentiable("binary_cross_entropy", "weight", w)
    cdef cnp.ndarray xa = x._data, ta = _cast_array(t._data, _dtype_of(xa))
    if np.any((xa < 0) | (xa > 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    with _quiet():
        loss = -(ta * np.maximum(np.log(xa), -100) + (1 - ta) * np.maximum(np.log1p(-xa), -100))
        if w is not None:
            loss = loss * w._data
    cdef Tensor r = _make(_nn_reduce_values(_nn_cast(loss, xa), red))
    if _grad_on() and (x._requires_grad or t._requires_grad):
        node = <BinaryCrossEntropyBackward0>BinaryCrossEntropyBackward0.__new__(BinaryCrossEntropyBackward0)
        _nn_save_input(node, x)
        _nn_save_other(node, t)
        _nn_save_third(node, w)
        node.params = (red, cnp.PyArray_SIZE(xa))
        _record2(node, r, x, t)
    return r


cdef cnp.ndarray _nn_log_sigmoid_values(cnp.ndarray x):
    with _quiet():
        return _nn_cast(np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x))), x)


cdef class BinaryCrossEntropyWithLogitsBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        t = self.get_other()
        w = self.get_third()
        red, n, pw = self.params
        scale = _div_scalar(g, n) if red == 1 else g
        if w is not None:
            scale = _mul(scale, w)
        gx = gt = None
        if _needs(self, 0):
            s = _unary(x, AGC_SIGMOID)
            if pw is not None:
                pt = _mul(pw, t)
                gx = _nn_sub(_mul(_nn_sub(_nn_adds(pt, 1), t), s), pt)
            else:
                gx = _nn_sub(s, t)
            gx = _sum_to(_mul(gx, scale), _shp(x._data))
        if _needs(self, 1):
            if pw is not None:
                # log sigmoid(-x) - pw * log sigmoid(x) = -softplus(x) + pw * softplus(-x)
                gt = _nn_sub(_mul(pw, _nn_softplus(_neg(x), 1, 20)), _nn_softplus(x, 1, 20))
            else:
                gt = _neg(x)
            gt = _sum_to(_mul(gt, scale), _shp(t._data))
        return (gx, gt)


cdef Tensor _nn_bce_with_logits(Tensor x, Tensor t, Tensor w, Tensor pw, int red):
    _nn_require_float(x, "binary_cross_entropy_with_logits")
    _nn_not_differentiable("binary_cross_entropy_with_logits", "weight", w)
    _nn_not_differentiable("binary_cross_entropy_with_logits", "pos_weight", pw)
    cdef cnp.ndarray xa = x._data, ta = _cast_array(t._data, _dtype_of(xa))
    ls = _nn_log_sigmoid_values(xa)
    with _quiet():
        if pw is not None:
            ls = ls * ((pw._data - 1) * ta + 1)
        loss = (1 - ta) * xa - ls
        if w is not None:
            loss = loss * w._data
    loss = _nn_cast(loss, xa)
    cdef Tensor r = _make(_nn_reduce_values(loss, red))
    if _grad_on() and (x._requires_grad or t._requires_grad):
        node = <BinaryCrossEntropyWithLogitsBackward0>BinaryCrossEntropyWithLogitsBackward0.__new__(
            BinaryCrossEntropyWithLogitsBackward0)
        _nn_save_input(node, x)
        _nn_save_other(node, t)
        _nn_save_third(node, w)
        node.params = (red, cnp.PyArray_SIZE(loss), pw)
        _record2(node, r, x, t)
    return r


# ---------------------------------------------------------------- nll_loss / cross_entropy

cdef class NllLossBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        coef, gb_shape = self.params
        value = _make(_nn_cast(g._data.reshape(gb_shape) * coef, coef))
        return (_nn_gradop(value, g, x, self.extra, _GK_MUL, coef, gb_shape, None),)


cdef class NllLoss2DBackward0(NllLossBackward0):
    pass


cdef Tensor _nn_nll_core(Tensor x, Tensor target, Tensor w, int red, object ignore_index):
    """nll_loss for a 1-D, 2-D or 4-D input (PyTorch's nll_loss / nll_loss2d)."""
    cdef cnp.ndarray xa = x._data
    cdef int nd = cnp.PyArray_NDIM(xa)
    cdef tuple xs = _shp(xa)
    cdef Py_ssize_t C = xs[1] if nd >= 2 else xs[0]
    ta = target._data.astype(np.int64).reshape(-1)
    if nd == 1:
        xm = xa.reshape(1, C)
    elif nd == 2:
        xm = xa
    else:
        xm = np.moveaxis(xa, 1, -1).reshape(-1, C)
    valid = ta != ignore_index
    bad = valid & ((ta < 0) | (ta >= C))
    if np.any(bad):
        raise IndexError(f"Target {int(ta[bad][0])} is out of bounds.")
    ts = np.where(valid, ta, 0)
    cdef Py_ssize_t M = ts.shape[0]
    if w is not None:
        wv = np.where(valid, w._data.astype(xa.dtype)[ts], 0).astype(xa.dtype)
    else:
        wv = valid.astype(xa.dtype)
    rows = np.arange(M)
    with _quiet():
        picked = xm[rows, ts] if M else np.zeros(0, xa.dtype)
        li = np.where(valid, -wv * picked, 0).astype(xa.dtype)
        if red == 0:
            out = li.reshape(_shp(target._data))
        elif red == 2:
            out = np.sum(li)
        else:
            tw = np.sum(wv)
            out = np.sum(li) / tw
    cdef Tensor r = _make(_nn_cast(out, xa))
    if _grad_on() and x._requires_grad:
        coef = np.zeros((M, C), dtype=xa.dtype)
        with _quiet():
            vals = -wv / tw if red == 1 else -wv
        coef[rows[valid], ts[valid]] = vals[valid]
        if nd == 1:
            coef = coef.reshape(C)
            gb = ()
        elif nd == 2:
            gb = (xs[0], 1) if red == 0 else ()
        else:
            coef = np.moveaxis(coef.reshape((xs[0],) + xs[2:] + (C,)), -1, 1)
            gb = ((xs[0], 1) + xs[2:]) if red == 0 else ()
        if nd == 4:
            node = <NllLossBackward0>NllLoss2DBackward0.__new__(NllLoss2DBackward0)
            node.extra = _NnNllLoss2dBB
        else:
            node = <NllLossBackward0>NllLossBackward0.__new__(NllLossBackward0)
            node.extra = _NnNllLossBB
        _nn_save_input(node, x)
        node.params = (np.ascontiguousarray(coef), gb)
        _record1(node, r, x)
    return r


cdef Tensor _nn_nll_loss(Tensor x, Tensor target, Tensor w, int red, object ignore_index):
    cdef int nd = cnp.PyArray_NDIM(x._data)
    cdef dtype td = _dtype_of(target._data)
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    if td.name not in ("int64", "uint8"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_legacy_scalar_name(td)}")
    cdef tuple xs = _shp(x._data), tsh = _shp(target._data)
    if nd >= 2 and (len(tsh) == 0 or tsh[0] != xs[0]):
        raise ValueError(f"Expected input batch_size ({xs[0]}) to match target batch_size "
                         f"({tsh[0] if tsh else 0}).")
    if nd <= 2 and len(tsh) > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if nd == 1 and len(tsh) != 0 and not (len(tsh) == 1 and tsh[0] == 1):
        raise RuntimeError(f"Expected target size [], got {_shape_str(tsh)}")
    cdef Py_ssize_t C = xs[1] if nd >= 2 else xs[0]
    if w is not None and cnp.PyArray_SIZE(w._data) != C:
        raise RuntimeError(
            f"weight tensor should be defined either for all {C} classes or no classes but got "
            f"weight tensor of shape: {_shape_str(_shp(w._data))}")
    _nn_not_differentiable("nll_loss2d_forward" if nd >= 3 else "nll_loss_forward", "weight", w)
    if not _dtype_of(x._data).is_floating_point:
        raise NotImplementedError(
            f"\"nll_loss_out_frame\" not implemented for '{_legacy_scalar_name(_dtype_of(x._data))}'")
    if nd <= 2 or nd == 4:
        if nd == 4 and tsh[1:] != xs[2:]:
            raise RuntimeError(
                f"size mismatch (got input: {_shape_str(xs)} , target: {_shape_str(tsh)}")
        if nd == 1 and len(tsh) == 1:
            target = _make(target._data.reshape(()))
        return _nn_nll_core(x, target, w, red, ignore_index)
    out_size = (xs[0],) + xs[2:]
    if tsh[1:] != xs[2:]:
        raise RuntimeError(f"Expected target size {_shape_str(out_size)}, got {_shape_str(tsh)}")
    cdef Tensor x4 = x if cnp.PyArray_IS_C_CONTIGUOUS(x._data) else _clone(x)
    if cnp.PyArray_SIZE(x._data) > 0:
        x4 = _view(x4, (xs[0], C, 1, -1))
        t4 = _make(np.ascontiguousarray(target._data).reshape(xs[0], 1, -1))
    else:
        x4 = _view(x4, (xs[0], C, 0, 0))
        t4 = _make(np.ascontiguousarray(target._data).reshape(xs[0], 0, 0))
    r = _nn_nll_core(x4, t4, w, red, ignore_index)
    if red == 0:
        r = _view(r, out_size)
    return r


cdef Tensor _nn_cross_entropy(Tensor x, Tensor target, Tensor w, int red, object ignore_index,
                              object label_smoothing):
    if not (0.0 <= label_smoothing <= 1.0):
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    cdef int nd = cnp.PyArray_NDIM(x._data)
    cdef int class_dim = 0 if nd == 1 else 1
    if nd == 0:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    cdef Py_ssize_t C = _shp(x._data)[class_dim]
    cdef dtype td = _dtype_of(target._data)
    cdef Tensor ls, t, wv, prod, s
    if td.category == 2:
        # class probabilities
        if ignore_index != -100:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if _shp(target._data) != _shp(x._data):
            raise RuntimeError(
                f"Expected input batch_size ({_shp(x._data)[0]}) to match target batch_size "
                f"({_shp(target._data)[0] if target._data.ndim else 0}).")
        ls = _nn_softmax(x, class_dim, None, True)
        t = target
        if label_smoothing > 0:
            t = _nn_adds(_mul_scalar(target, 1 - label_smoothing), label_smoothing / C)
        prod = _mul(ls, t)
        if w is not None:
            wshape = [1] * nd
            wshape[class_dim] = C
            prod = _mul(prod, _view(w, tuple(wshape)))
        if red == 0:
            return _neg(_nn_sumdim(prod, class_dim, False))
        s = _neg(_nn_sum_all(prod))
        if red == 2:
            return s
        if cnp.PyArray_SIZE(x._data) == 0:
            return _make(np.asarray(np.nan, dtype=x._data.dtype))
        return _nn_div_scalar1(s, cnp.PyArray_SIZE(x._data) // C)
    ls = _nn_softmax(x, class_dim, None, True)
    if label_smoothing <= 0:
        return _nn_nll_loss(ls, target, w, red, ignore_index)
    nll = _nn_nll_loss(ls, target, w, red, ignore_index)
    ignore_mask = target._data == ignore_index
    if w is not None:
        wshape = [1] * nd
        wshape[class_dim] = C
        smooth = _neg(_nn_sumdim(_mul(ls, _view(w, tuple(wshape))), class_dim, False))
    else:
        smooth = _neg(_nn_sumdim(ls, class_dim, False))
    smooth = _where(ignore_mask, _zeros((), _dtype_of(smooth._data)), smooth)
    if red == 1:
        if w is not None:
            tsel = target._data[~ignore_mask].reshape(-1)
            denom = _make(_as_array(np.sum(w._data[tsel])).astype(w._data.dtype))
        else:
            denom = _make(_as_array(np.sum(~ignore_mask)).astype(np.int64))
        ret = _div(_nn_sum_all(smooth), denom)
    elif red == 2:
        ret = _nn_sum_all(smooth)
    else:
        ret = smooth
    return _add(_mul_scalar(nll, 1 - label_smoothing), _mul_scalar(ret, label_smoothing / C))


cdef class _NnDivScalarNode(Node):
    cdef object divisor

    cdef tuple apply(self, tuple grads):
        return (_div_scalar(grads[0], self.divisor),)


_NnDivBackward1 = type("DivBackward1", (_NnDivScalarNode,), {"__slots__": ()})


cdef Tensor _nn_div_scalar1(Tensor x, object s):
    """x / s for a number s as PyTorch's div.Scalar (DivBackward1)."""
    cdef Tensor r = _make(_nn_cast(x._data / s, x._data))
    cdef _NnDivScalarNode node
    if _grad_on() and x._requires_grad:
        node = <_NnDivScalarNode>_NnDivBackward1.__new__(_NnDivBackward1)
        node.divisor = s
        _record1(node, r, x)
    return r


def _nn_loss(name, input, target, *args):
    """The losses of F, after F normalised their arguments (reduction as a string)."""
    cdef Tensor x = _nn_arg(input, name)
    cdef Tensor t = _nn_arg(target, name, "target", 2)
    if name == "mse_loss":
        return _nn_mse_loss(x, t, _nn_reduction(args[0]))
    if name == "l1_loss":
        return _nn_l1_loss(x, t, _nn_reduction(args[0]))
    if name == "smooth_l1_loss":
        return _nn_smooth_l1_loss(x, t, _nn_reduction(args[0]), args[1])
    if name == "huber_loss":
        return _nn_huber_loss(x, t, _nn_reduction(args[0]), args[1])
    if name == "binary_cross_entropy":
        return _nn_binary_cross_entropy(x, t, _nn_opt(args[0], name, "weight", 3),
                                        _nn_reduction(args[1]))
    if name == "binary_cross_entropy_with_logits":
        return _nn_bce_with_logits(x, t, _nn_opt(args[0], name, "weight", 3),
                                   _nn_opt(args[1], name, "pos_weight", 4), _nn_reduction(args[2]))
    if name == "nll_loss":
        return _nn_nll_loss(x, t, _nn_opt(args[0], name, "weight", 3), _nn_reduction(args[1]),
                            args[2])
    if name == "cross_entropy":
        return _nn_cross_entropy(x, t, _nn_opt(args[0], name, "weight", 3),
                                 _nn_reduction(args[1]), args[2], args[3])
    raise ValueError(name)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    """torch.binary_cross_entropy_with_logits (reduction as PyTorch's enum: 0 none, 1 mean, 2 sum;
    called this way PyTorch's default is 0).

    >>> import autograd_core as torch
    >>> torch.binary_cross_entropy_with_logits(torch.zeros(2), torch.ones(2), reduction=1)
    tensor(0.6931)
    """
    return _nn_loss("binary_cross_entropy_with_logits", input, target, weight, pos_weight,
                    ("none", "mean", "sum")[reduction])


# ================================================================ linear

cdef class _NnAddmmNode(Node):
    """addmm(bias, m1, m2) = bias + m1 @ m2."""
    cdef Tensor m1
    cdef Tensor m2
    cdef long m1_version
    cdef long m2_version
    cdef tuple bias_shape

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        gb = g1 = g2 = None
        if _needs(self, 0):
            gb = _sum_to(g, self.bias_shape)
        if _needs(self, 1):
            g1 = _matmul(g, _t(_unpack(self, self.m2, self.m2_version)))
        if _needs(self, 2):
            g2 = _matmul(_t(_unpack(self, self.m1, self.m1_version)), g)
        return (gb, g1, g2)

    cdef void release_saved(self):
        self.m1 = None
        self.m2 = None
        self.released = True


_NnAddmmBackward0 = type("AddmmBackward0", (_NnAddmmNode,), {"__slots__": ()})


cdef Tensor _nn_addmm(Tensor bias, Tensor m1, Tensor m2):
    cdef tuple s1 = _shp(m1._data), s2 = _shp(m2._data)
    if len(s1) != 2 or len(s2) != 2:
        raise RuntimeError("mat1 must be a matrix, got " f"{len(s1)}-D tensor" if len(s1) != 2
                           else f"mat2 must be a matrix, got {len(s2)}-D tensor")
    if s1[1] != s2[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({s1[0]}x{s1[1]} and "
                           f"{s2[0]}x{s2[1]})")
    if cnp.PyArray_TYPE(m1._data) != cnp.PyArray_TYPE(m2._data):
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got "
            f"{_legacy_scalar_name(_dtype_of(m1._data))} and {_legacy_scalar_name(_dtype_of(m2._data))}")
    if cnp.PyArray_TYPE(bias._data) != cnp.PyArray_TYPE(m1._data):
        raise RuntimeError(
            f"self and mat2 must have the same dtype, but got "
            f"{_legacy_scalar_name(_dtype_of(bias._data))} and {_legacy_scalar_name(_dtype_of(m2._data))}")
    out = np.matmul(m1._data, m2._data)
    try:
        out = out + bias._data
    except ValueError:
        raise _broadcast_error(_shp(bias._data), _shp(out)) from None
    if _shp(out) != (s1[0], s2[1]):
        raise RuntimeError(f"The expanded size of the tensor ({s2[1]}) must match the existing "
                           f"size ({_shp(bias._data)[-1]}) at non-singleton dimension 1.")
    cdef Tensor r = _make(_nn_cast(out, m1._data))
    cdef _NnAddmmNode node
    if _grad_on() and (bias._requires_grad or m1._requires_grad or m2._requires_grad):
        node = <_NnAddmmNode>_NnAddmmBackward0.__new__(_NnAddmmBackward0)
        node.bias_shape = _shp(bias._data)
        if m2._requires_grad:
            node.m1 = m1
            node.m1_version = _version_for_save(m1)
        if m1._requires_grad:
            node.m2 = m2
            node.m2_version = _version_for_save(m2)
        _record_n(node, r, [bias, m1, m2])
    return r


cdef Tensor _nn_linear(Tensor x, Tensor w, Tensor b):
    cdef int nd = cnp.PyArray_NDIM(x._data)
    cdef tuple xs = _shp(x._data)
    if nd == 2 and b is not None:
        return _nn_addmm(b, x, _t(w))
    cdef Tensor r
    if b is not None and nd >= 1 and cnp.PyArray_IS_C_CONTIGUOUS(x._data) and \
            (nd == 3 or cnp.PyArray_NDIM(b._data) == 1):
        n = 1
        for k in xs[:-1]:
            n *= k
        r = _nn_addmm(b, _reshape(x, (n, xs[-1])), _t(w))
        return _view(r, xs[:-1] + (_shp(r._data)[1],))
    r = _matmul(x, _t(w))
    if b is not None:
        r = _add(r, b)
    return r


def _nn_linear_fn(input, weight, bias=None):
    return _nn_linear(_nn_arg(input, "linear"), _nn_arg(weight, "linear", "weight", 2),
                      _nn_opt(bias, "linear", "bias", 3))


# ================================================================ pad

cdef class ConstantPadNdBackward0(Node):
    cdef tuple pad

    cdef tuple apply(self, tuple grads):
        return (_nn_constant_pad(grads[0], tuple(-p for p in self.pad), 0),)


cdef Tensor _nn_constant_pad(Tensor x, tuple pad, object value):
    cdef cnp.ndarray xa = x._data
    cdef int nd = cnp.PyArray_NDIM(xa), k, i
    cdef int npad = len(pad)
    if npad % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if npad > 2 * nd:
        raise RuntimeError(
            "Length of pad should be no more than twice the number of dimensions of the input. "
            f"Pad length is {npad} while the input has {nd} dimensions.")
    crop = [slice(None)] * nd
    widths = [(0, 0)] * nd
    new_shape = list(_shp(xa))
    for i in range(npad // 2):
        k = nd - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        size = new_shape[k] + lo + hi
        if new_shape[k] + (lo if lo < 0 else 0) + (hi if hi < 0 else 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        if size < 0:
            raise RuntimeError(
                f"The input size {new_shape[k]}, plus negative padding {lo} and {hi} resulted in a "
                f"negative output size, which is invalid. Check dimension {k} of your input.")
        crop[k] = slice(-lo if lo < 0 else 0, new_shape[k] + hi if hi < 0 else None)
        widths[k] = (lo if lo > 0 else 0, hi if hi > 0 else 0)
        new_shape[k] = size
    v = xa[tuple(crop)]
    if value is None:
        value = 0
    out = np.pad(v, widths, mode="constant", constant_values=value) if any(
        w != (0, 0) for w in widths) else np.array(v)
    cdef Tensor r = _make(_nn_cast(out, xa))
    if _grad_on() and x._requires_grad:
        node = <ConstantPadNdBackward0>ConstantPadNdBackward0.__new__(ConstantPadNdBackward0)
        node.pad = tuple(pad)
        _record1(node, r, x)
    return r


cdef class _NnPadIndexNode(_NnNode):
    """Reflection / replication / circular padding: a gather with a fixed index key."""
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        key, in_shape, cls = self.params
        if cls is None:
            if self.released:
                raise RuntimeError(_MSG_BACKWARD_TWICE)
            return (_index_put_zeros(g, in_shape, key, True),)
        x = self.input()
        out = np.zeros(in_shape, dtype=g._data.dtype)
        np.add.at(out, key, g._data)
        return (_nn_gradop(_make(out), g, x, cls, _GK_INDEX, None, None, (key,)),)


_NnReflectionPad1d = type("ReflectionPad1DBackward0", (_NnPadIndexNode,), {"__slots__": ()})
_NnReflectionPad2d = type("ReflectionPad2DBackward0", (_NnPadIndexNode,), {"__slots__": ()})
_NnReflectionPad3d = type("ReflectionPad3DBackward0", (_NnPadIndexNode,), {"__slots__": ()})
_NnReplicationPad1d = type("ReplicationPad1DBackward0", (_NnPadIndexNode,), {"__slots__": ()})
_NnReplicationPad2d = type("ReplicationPad2DBackward0", (_NnPadIndexNode,), {"__slots__": ()})
_NnReplicationPad3d = type("ReplicationPad3DBackward0", (_NnPadIndexNode,), {"__slots__": ()})
_NnCircularPad = type("CopySlices", (_NnPadIndexNode,), {"__slots__": ()})


cdef Tensor _nn_index_pad(Tensor x, tuple pad, str mode):
    cdef cnp.ndarray xa = x._data
    cdef int nd = cnp.PyArray_NDIM(xa), npad = len(pad), k, i, nsp = npad // 2
    cdef tuple xs = _shp(xa)
    idxs = []
    for i in range(nsp):
        k = nd - nsp + i                      # the dim; pad pairs start from the last dim
        lo, hi = pad[2 * (nsp - 1 - i)], pad[2 * (nsp - 1 - i) + 1]
        size = xs[k]
        if mode == "reflect":
            if lo >= size or hi >= size:
                raise RuntimeError(
                    f"Argument #4: Padding size should be less than the corresponding input "
                    f"dimension, but got: padding ({lo}, {hi}) at dimension {k} of input "
                    f"{_shape_str(xs)}")
        elif mode == "circular":
            if lo > size or hi > size:
                raise RuntimeError(
                    "Padding value causes wrapping around more than once.")
        elif size == 0:
            raise RuntimeError(f"input tensor must have non-zero size at dimension {k}")
        j = np.arange(-lo, size + hi)
        if mode == "reflect":
            j = np.abs(j)
            j = np.where(j >= size, 2 * (size - 1) - j, j)
        elif mode == "replicate":
            j = np.clip(j, 0, size - 1)
        else:
            j = np.mod(j, size)
        idxs.append(j.astype(np.int64))
    key = (Ellipsis,) + tuple(np.ix_(*idxs))
    cdef Tensor r = _make(np.ascontiguousarray(xa[key]))
    cdef _NnNode node
    if _grad_on() and x._requires_grad:
        if mode == "circular":
            node = <_NnNode>_NnCircularPad.__new__(_NnCircularPad)
            cls = None
        elif mode == "reflect":
            node = <_NnNode>(_NnReflectionPad1d, _NnReflectionPad2d, _NnReflectionPad3d)[nsp - 1].__new__(
                (_NnReflectionPad1d, _NnReflectionPad2d, _NnReflectionPad3d)[nsp - 1])
            cls = (_NnReflectionPad1dBB, _NnReflectionPad2dBB, _NnReflectionPad3dBB)[nsp - 1]
        else:
            node = <_NnNode>(_NnReplicationPad1d, _NnReplicationPad2d, _NnReplicationPad3d)[nsp - 1].__new__(
                (_NnReplicationPad1d, _NnReplicationPad2d, _NnReplicationPad3d)[nsp - 1])
            cls = (_NnReplicationPad1dBB, _NnReplicationPad2dBB, _NnReplicationPad3dBB)[nsp - 1]
        if cls is not None:
            _nn_save_input(node, x)
        node.params = (key, xs, cls)
        _record1(node, r, x)
    return r


def _nn_pad(input, pad, mode="constant", value=None):
    cdef Tensor x = _nn_arg(input, "pad")
    pad = tuple(int(p) for p in pad)
    cdef int nd = cnp.PyArray_NDIM(x._data)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * nd:
        raise RuntimeError(
            f"Padding length should be less than or equal to two times the input dimension but got "
            f"padding length {len(pad)} and input of dimension {nd}")
    if mode == "constant":
        return _nn_constant_pad(x, pad, value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if not ((len(pad) == 2 and nd in (2, 3)) or (len(pad) == 4 and nd in (3, 4))
            or (len(pad) == 6 and nd in (4, 5))):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {nd}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    return _nn_index_pad(x, pad, mode)


# ================================================================ norms used by normalize

cdef class _NnVectorNormNode(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        p, dims, keepdim = self.params
        n = self.output()
        if not keepdim:
            for d in dims:
                g = _unsqueeze(g, d)
                n = _unsqueeze(n, d)
        zero = _zeros((), _dtype_of(x._data))
        if p == 0:
            return (_zeros(_shp(x._data), _dtype_of(x._data)),)
        if p == 1:
            return (_mul(_make(_as_array(np.sign(x._data))), g),)
        if p == 2:
            return (_where(np.broadcast_to(n._data == 0, _shp(x._data)), zero,
                           _mul(x, _div(g, n))),)
        if p == float("inf") or p == float("-inf"):
            mask = (np.abs(x._data) == n._data).astype(x._data.dtype)
            count = np.sum(mask, axis=dims, keepdims=True)
            return (_mul(_make(_as_array(np.sign(x._data) * mask)), _div(g, _make(_as_array(count)))),)
        scale = _div(g, _pow_scalar(n, p - 1))
        gx = _mul(_mul(x, _pow_scalar(_unary(x, AGC_ABS), p - 2)), scale)
        return (_where(np.broadcast_to(n._data == 0, _shp(x._data)), zero, gx),)


_NnLinalgVectorNormBackward0 = type("LinalgVectorNormBackward0", (_NnVectorNormNode,),
                                    {"__slots__": ()})


cdef Tensor _nn_vector_norm(Tensor x, object p, tuple dims, bint keepdim):
    cdef cnp.ndarray xa = x._data
    with _quiet():
        ax = np.abs(xa)
        if p == float("inf"):
            out = np.max(ax, axis=dims, keepdims=keepdim) if xa.size else np.zeros(())
        elif p == float("-inf"):
            out = np.min(ax, axis=dims, keepdims=keepdim)
        elif p == 0:
            out = np.sum(ax != 0, axis=dims, keepdims=keepdim)
        elif p == 1:
            out = np.sum(ax, axis=dims, keepdims=keepdim)
        elif p == 2:
            out = np.sqrt(np.sum(xa * xa, axis=dims, keepdims=keepdim))
        else:
            out = np.sum(ax ** p, axis=dims, keepdims=keepdim) ** (1.0 / p)
    cdef Tensor r = _make(_nn_cast(out, xa))
    if _grad_on() and x._requires_grad:
        node = <_NnVectorNormNode>_NnLinalgVectorNormBackward0.__new__(_NnLinalgVectorNormBackward0)
        _nn_save_input(node, x)
        _save_own_output(node, r)
        node.params = (p, dims, keepdim)
        _record1(node, r, x)
    return r


cdef class _NnClampMinNode(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        return (_where(x._data >= self.params, g, _zeros((), _dtype_of(g._data))),)


_NnClampMinBackward0 = type("ClampMinBackward0", (_NnClampMinNode,), {"__slots__": ()})


cdef Tensor _nn_clamp_min(Tensor x, object lo):
    cdef Tensor r
    with _quiet():
        r = _make(_nn_cast(np.where(np.isnan(x._data), x._data, np.maximum(x._data, lo)), x._data))
    if _grad_on() and x._requires_grad:
        node = <_NnClampMinNode>_NnClampMinBackward0.__new__(_NnClampMinBackward0)
        _nn_save_input(node, x)
        node.params = lo
        _record1(node, r, x)
    return r


cdef class _NnPassNode(Node):
    """A value changed without autograd seeing it (PyTorch's in-place clamp under no_grad
    in cosine_similarity): the gradient passes through unchanged."""
    cdef tuple apply(self, tuple grads):
        return (grads[0],)


cdef Tensor _nn_clamp_min_unseen(Tensor x, object lo):
    cdef Tensor r
    with _quiet():
        r = _make(_nn_cast(np.where(np.isnan(x._data), x._data, np.maximum(x._data, lo)), x._data))
    if _grad_on() and x._requires_grad:
        _record1(_NnPassNode.__new__(_NnPassNode), r, x)
    return r


def _nn_normalize(input, p=2.0, dim=1, eps=1e-12):
    cdef Tensor x = _nn_arg(input, "normalize")
    cdef int nd = cnp.PyArray_NDIM(x._data)
    dims = _normalize_dims(dim, nd) if nd else ()
    denom = _nn_clamp_min(_nn_vector_norm(x, p, dims, True), eps)
    return _div(x, _expand(denom, _shp(x._data)))


def _nn_cosine_similarity(x1, x2, dim=1, eps=1e-8):
    cdef Tensor a = _nn_arg(x1, "cosine_similarity", "x1", 1)
    cdef Tensor b = _nn_arg(x2, "cosine_similarity", "x2", 2)
    try:
        shape = np.broadcast_shapes(_shp(a._data), _shp(b._data))
    except ValueError:
        raise _broadcast_error(_shp(a._data), _shp(b._data)) from None
    if _shp(a._data) != shape:
        a = _expand(a, shape)
    if _shp(b._data) != shape:
        b = _expand(b, shape)
    cdef int nd = len(shape)
    d = (_wrap_dim(dim, nd),) if nd else ()
    n1 = _nn_clamp_min_unseen(_nn_vector_norm(a, 2, d, True), eps)
    n2 = _nn_clamp_min_unseen(_nn_vector_norm(b, 2, d, True), eps)
    return _nn_sumdim(_mul(_div(a, n1), _div(b, n2)), d[0] if d else None, False)


# ================================================================ layer_norm / batch_norm

cdef class _NnNormLayerNode(_NnNode):
    """native_layer_norm / native_batch_norm: self_ = input, other = weight (or None).

    params: (dims, eps, wshape, stats) with wshape the shape weight/bias broadcast
    as, and stats None (batch statistics) or (mean, rstd) arrays (eval mode)."""
    cdef tuple present   # which of (input, weight, bias) were recorded
    cdef object extra2   # batch norm: the display class linking its gradients

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        w = self.get_other()
        dims, eps, wshape, stats = self.params
        wb = _reshape(w, wshape) if w is not None else None
        if stats is None:
            mean = _mean(x, dims, True, None)
            xc = _nn_sub(x, mean)
            var = _mean(_mul(xc, xc), dims, True, None)
            rstd = _pow_scalar(_nn_adds(var, eps), -0.5)
        else:
            xc = _nn_sub(x, _make(stats[0]))
            rstd = _make(stats[1])
        xhat = _mul(xc, rstd)
        out = []
        k = 0
        for which in self.present:
            if not _needs(self, k):
                out.append(None)
            elif which == 0:
                dxhat = _mul(g, wb) if wb is not None else g
                if stats is None:
                    gx = _mul(rstd, _nn_sub(_nn_sub(dxhat, _mean(dxhat, dims, True, None)),
                                            _mul(xhat, _mean(_mul(dxhat, xhat), dims, True, None))))
                else:
                    gx = _mul(dxhat, rstd)
                out.append(gx)
            elif which == 1:
                out.append(_reshape(_sum_to(_mul(g, xhat), wshape), _shp(w._data)))
            else:
                b_shape = self.extra
                out.append(_reshape(_sum_to(g, wshape), b_shape))
            k += 1
        if _grad_on():
            links = [x] if w is None else [x, w]
            # batch norm in training links with zero gradients, the others with None
            # (what PyTorch's double-backward formulas give)
            if stats is not None or self.extra2 is _NnLayerNormBB:
                none_grads = (True, True)
            else:
                none_grads = (False, True)
            out = [None if o is None else _nn_link(o, links, self.extra2, none_grads)
                   for o in out]
        return tuple(out)


cdef class NativeLayerNormBackward0(_NnNormLayerNode):
    pass


cdef class NativeBatchNormBackward0(_NnNormLayerNode):
    pass


cdef Tensor _nn_norm_layer(Tensor x, Tensor w, Tensor b, tuple dims, object eps, tuple wshape,
                           object stats, type cls):
    cdef cnp.ndarray xa = x._data
    with _quiet():
        if stats is None:
            mean = np.mean(xa, axis=dims, keepdims=True)
            xc = xa - mean
            var = np.mean(xc * xc, axis=dims, keepdims=True)
            rstd = 1.0 / np.sqrt(var + eps)
        else:
            xc = xa - stats[0]
            rstd = stats[1]
        y = xc * rstd
        if w is not None:
            y = y * w._data.reshape(wshape)
        if b is not None:
            y = y + b._data.reshape(wshape)
    cdef Tensor r = _make(_nn_cast(y, xa))
    cdef _NnNormLayerNode node
    if _grad_on() and (x._requires_grad or (w is not None and w._requires_grad)
                       or (b is not None and b._requires_grad)):
        node = <_NnNormLayerNode>cls.__new__(cls)
        _nn_save_input(node, x)
        _nn_save_other(node, w)
        node.params = (dims, eps, wshape, stats)
        present = [0]
        inputs = [x]
        if w is not None:
            present.append(1)
            inputs.append(w)
        if b is not None:
            present.append(2)
            inputs.append(b)
            node.extra = _shp(b._data)
        node.present = tuple(present)
        node.extra2 = _NnBatchNormBB if cls is NativeBatchNormBackward0 else _NnLayerNormBB
        _record_n(node, r, inputs)
    return r


def _nn_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    cdef Tensor x = _nn_arg(input, "layer_norm")
    cdef Tensor w = _nn_opt(weight, "layer_norm", "weight", 3)
    cdef Tensor b = _nn_opt(bias, "layer_norm", "bias", 4)
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    ns = tuple(int(s) for s in normalized_shape)
    cdef int k = len(ns), nd = cnp.PyArray_NDIM(x._data)
    if k < 1:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    if w is not None and _shp(w._data) != ns:
        raise RuntimeError(
            f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
            f"{_shape_str(_shp(w._data))} and normalized_shape = {_shape_str(ns)}")
    if b is not None and _shp(b._data) != ns:
        raise RuntimeError(
            f"Expected bias to be of same shape as normalized_shape, but got bias of shape "
            f"{_shape_str(_shp(b._data))} and normalized_shape = {_shape_str(ns)}")
    if nd < k or _shp(x._data)[nd - k:] != ns:
        raise RuntimeError(
            f"Given normalized_shape={_shape_str(ns)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in ns)}], but got input of size"
            f"{_shape_str(_shp(x._data))}")
    _nn_require_float(x, "LayerNormKernelImpl")
    return _nn_norm_layer(x, w, b, tuple(range(nd - k, nd)), eps, ns, None,
                          NativeLayerNormBackward0)


def _nn_batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
                   momentum=0.1, eps=1e-5):
    cdef Tensor x = _nn_arg(input, "batch_norm")
    cdef Tensor rm = _nn_opt(running_mean, "batch_norm", "running_mean", 2)
    cdef Tensor rv = _nn_opt(running_var, "batch_norm", "running_var", 3)
    cdef Tensor w = _nn_opt(weight, "batch_norm", "weight", 4)
    cdef Tensor b = _nn_opt(bias, "batch_norm", "bias", 5)
    cdef int nd = cnp.PyArray_NDIM(x._data)
    if nd < 2:
        raise ValueError(f"expected 2D or 3D input (got {nd}D input)")
    _nn_require_float(x, "batch_norm")
    cdef tuple xs = _shp(x._data)
    C = xs[1]
    for t, nm in ((w, "weight"), (b, "bias"), (rm, "running_mean"), (rv, "running_var")):
        if t is not None and cnp.PyArray_SIZE((<Tensor>t)._data) != C:
            raise RuntimeError(f"{nm} should contain {C} elements not "
                               f"{cnp.PyArray_SIZE((<Tensor>t)._data)}")
    dims = (0,) + tuple(range(2, nd))
    wshape = (1, C) + (1,) * (nd - 2)
    stats = None
    if training:
        if rm is not None or rv is not None:
            n = cnp.PyArray_SIZE(x._data) // C if C else 0
            with _quiet():
                mean = np.mean(x._data, axis=dims)
                var = np.var(x._data, axis=dims)
                if rm is not None:
                    # (PyTorch updates the running statistics without a version bump)
                    rm._data[...] = (1 - momentum) * rm._data + momentum * mean.reshape(_shp(rm._data))
                if rv is not None:
                    unbiased = var * (n / (n - 1)) if n > 1 else var * float("inf")
                    rv._data[...] = (1 - momentum) * rv._data + momentum * unbiased.reshape(_shp(rv._data))
    else:
        if rm is None:
            raise RuntimeError("running_mean must be defined in evaluation mode")
        if rv is None:
            raise RuntimeError("running_var must be defined in evaluation mode")
        with _quiet():
            m = rm._data.reshape(wshape).astype(x._data.dtype)
            rs = (1.0 / np.sqrt(rv._data.astype(np.float64) + eps)).reshape(wshape).astype(x._data.dtype)
        stats = (m, rs)
    return _nn_norm_layer(x, w, b, dims, eps, wshape, stats, NativeBatchNormBackward0)


# ================================================================ embedding

cdef class EmbeddingBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        if self.released:
            raise RuntimeError(_MSG_BACKWARD_TWICE)
        flat, wshape, scale = self.params
        g2 = _reshape(g, (-1, wshape[1]))
        if scale is not None:
            g2 = _mul(g2, _make(scale))
        return (_index_put_zeros(g2, wshape, (flat,), True),)


def _nn_embedding(input, weight, padding_idx=-1, scale_grad_by_freq=False):
    cdef Tensor idx = _nn_arg(input, "embedding", "indices", 2)
    cdef Tensor w = _nn_arg(weight, "embedding", "weight", 1)
    cdef dtype d = _dtype_of(idx._data)
    if d.name not in ("int64", "int32"):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got {_legacy_type_name(idx)} instead (while checking arguments for "
            "embedding)")
    if cnp.PyArray_NDIM(w._data) != 2:
        raise RuntimeError("'weight' must be 2-D")
    cdef tuple ws = _shp(w._data)
    flat = idx._data.reshape(-1).astype(np.int64)
    if flat.size and (flat.min() < 0 or flat.max() >= ws[0]):
        raise IndexError("index out of range in self")
    cdef Tensor r = _make(np.ascontiguousarray(w._data[flat].reshape(_shp(idx._data) + (ws[1],))))
    if _grad_on() and w._requires_grad:
        node = <EmbeddingBackward0>EmbeddingBackward0.__new__(EmbeddingBackward0)
        scale = None
        if padding_idx is not None and padding_idx >= 0 or scale_grad_by_freq:
            scale = np.ones((flat.size, 1), dtype=w._data.dtype)
            if scale_grad_by_freq:
                counts = np.bincount(flat, minlength=ws[0])
                scale[:, 0] = 1.0 / counts[flat]
            if padding_idx is not None and padding_idx >= 0:
                scale[flat == padding_idx] = 0
        node.params = (flat, ws, scale)
        _record1(node, r, w)
    return r


def _nn_embedding_renorm_(weight, input, max_norm, norm_type):
    cdef Tensor w = _nn_arg(weight, "embedding_renorm_")
    cdef Tensor idx = _nn_arg(input, "embedding_renorm_", "indices", 2)
    rows = np.unique(idx._data.reshape(-1).astype(np.int64))
    sub = w._data[rows].astype(np.float64)
    with _quiet():
        norms = np.sum(np.abs(sub) ** norm_type, axis=1) ** (1.0 / norm_type)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    w._data[rows] = (sub * scale[:, None]).astype(w._data.dtype)
    _bump_version(w)
    return w


# ================================================================ dropout

cdef object _nn_rng():
    import sys
    return sys.modules["autograd_core._creation"]._rng


cdef Tensor _nn_dropout(Tensor x, object p, bint train, bint inplace, int feature):
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    cdef cnp.ndarray xa = x._data
    if p == 0 or not train or cnp.PyArray_SIZE(xa) == 0:
        return x
    cdef dtype d = _dtype_of(xa)
    if d.category != 2:
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_legacy_scalar_name(d)}")
    if p == 1:
        noise = _zeros((), d)
    else:
        if feature:
            nshape = _shp(xa)[:2] + (1,) * (cnp.PyArray_NDIM(xa) - 2)
        else:
            nshape = _shp(xa)
        keep = _nn_rng().random(nshape) < (1 - p)
        noise = _make((keep.astype(xa.dtype) / xa.dtype.type(1 - p)).astype(xa.dtype))
    if inplace:
        return _inplace_binary(x, noise, AGC_MUL, 1)
    return _mul(x, noise)


def dropout(input, p=0.5, train=True):
    """torch.dropout: zero elements with probability p and scale the rest by 1/(1-p).

    >>> import autograd_core as torch
    >>> torch.dropout(torch.ones(3), 0.0, True)
    tensor([1., 1., 1.])
    """
    return _nn_dropout(_nn_arg(input, "dropout"), p, train, False, 0)


def _nn_dropout_fn(input, p, training, inplace, feature=0):
    return _nn_dropout(_nn_arg(input, "dropout"), p, training, inplace, feature)


# ================================================================ im2col / col2im
# A 4-D input (N, C, H, W) unfolds to columns (N, C*KH*KW, OH*OW): one strided view of
# the padded input and one copy (no loops over pixels). col2im is its transpose: a
# scatter-add of the columns back into the padded input, one strided add per kernel
# offset. Both are ops (Im2ColBackward0 / Col2ImBackward0 are each other's backward),
# which is what makes convolution and pooling differentiable to any order.
#
# geometry = (hw, k, d, pad_tl, s, out_hw): input H, W; kernel; dilation; top/left
# padding; stride; output size. Bottom/right padding is whatever the output size needs.

cdef tuple _nn_pad_br(tuple geometry):
    hw, k, d, ptl, s, ohw = geometry
    pb = (ohw[0] - 1) * s[0] + d[0] * (k[0] - 1) + 1 - hw[0] - ptl[0]
    pb = pb if pb > 0 else 0
    pr = (ohw[1] - 1) * s[1] + d[1] * (k[1] - 1) + 1 - hw[1] - ptl[1]
    pr = pr if pr > 0 else 0
    return (pb, pr)


cdef cnp.ndarray _nn_im2col_values(cnp.ndarray x, tuple geometry, object fill):
    if cnp.PyArray_NDIM(x) == 3:   # unbatched
        return _nn_im2col_values(x[None], geometry, fill)[0]
    hw, k, d, ptl, s, ohw = geometry
    cdef Py_ssize_t N = x.shape[0], C = x.shape[1], H = hw[0], W = hw[1]
    cdef Py_ssize_t pt = ptl[0], pl = ptl[1]
    pb, pr = _nn_pad_br(geometry)
    if pt or pl or pb or pr:
        xp = np.full((N, C, H + pt + pb, W + pl + pr), fill, dtype=x.dtype)
        xp[:, :, pt:pt + H, pl:pl + W] = x
    else:
        xp = x
    st = xp.strides
    view = np.lib.stride_tricks.as_strided(
        xp, (N, C, k[0], k[1], ohw[0], ohw[1]),
        (st[0], st[1], st[2] * d[0], st[3] * d[1], st[2] * s[0], st[3] * s[1]), writeable=False)
    return np.ascontiguousarray(view).reshape(N, C * k[0] * k[1], ohw[0] * ohw[1])


cdef cnp.ndarray _nn_col2im_values(cnp.ndarray cols, tuple geometry):
    if cnp.PyArray_NDIM(cols) == 2:   # unbatched
        return _nn_col2im_values(cols[None], geometry)[0]
    hw, k, d, ptl, s, ohw = geometry
    cdef Py_ssize_t N = cols.shape[0], K = k[0] * k[1], C = cols.shape[1] // K
    cdef Py_ssize_t H = hw[0], W = hw[1], pt = ptl[0], pl = ptl[1], i, j
    cdef Py_ssize_t OH = ohw[0], OW = ohw[1]
    pb, pr = _nn_pad_br(geometry)
    xp = np.zeros((N, C, H + pt + pb, W + pl + pr), dtype=cols.dtype)
    c6 = cols.reshape(N, C, k[0], k[1], OH, OW)
    for i in range(k[0]):
        for j in range(k[1]):
            xp[:, :, i * d[0]:i * d[0] + s[0] * (OH - 1) + 1:s[0],
               j * d[1]:j * d[1] + s[1] * (OW - 1) + 1:s[1]] += c6[:, :, i, j]
    if pt or pl or pb or pr:
        return np.ascontiguousarray(xp[:, :, pt:pt + H, pl:pl + W])
    return xp


cdef class Im2ColBackward0(Node):
    cdef tuple geometry

    cdef tuple apply(self, tuple grads):
        return (_nn_col2im(grads[0], self.geometry),)


cdef class Col2ImBackward0(Node):
    cdef tuple geometry

    cdef tuple apply(self, tuple grads):
        return (_nn_im2col(grads[0], self.geometry),)


cdef Tensor _nn_im2col(Tensor x, tuple geometry):
    cdef Tensor r = _make(_nn_im2col_values(x._data, geometry, 0))
    if _grad_on() and x._requires_grad:
        node = <Im2ColBackward0>Im2ColBackward0.__new__(Im2ColBackward0)
        node.geometry = geometry
        _record1(node, r, x)
    return r


cdef Tensor _nn_col2im(Tensor cols, tuple geometry):
    cdef Tensor r = _make(_nn_col2im_values(cols._data, geometry))
    if _grad_on() and cols._requires_grad:
        node = <Col2ImBackward0>Col2ImBackward0.__new__(Col2ImBackward0)
        node.geometry = geometry
        _record1(node, r, cols)
    return r


cdef tuple _nn_pair(object v, str name, int n=2):
    if isinstance(v, Tensor):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        if len(v) == 1:
            return tuple(int(v[0]) for _ in range(n))
        if len(v) != n:
            raise RuntimeError(f"{name} must be a number or a tuple of {n} numbers")
        return tuple(int(a) for a in v)
    return tuple(int(v) for _ in range(n))


cdef inline Py_ssize_t _nn_conv_out(Py_ssize_t size, Py_ssize_t p_total, Py_ssize_t k,
                                    Py_ssize_t d, Py_ssize_t s):
    cdef Py_ssize_t num = size + p_total - d * (k - 1) - 1
    return (num // s if num >= 0 else -((-num + s - 1) // s)) + 1


def _nn_unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    cdef Tensor x = _nn_arg(input, "unfold")
    cdef int nd = cnp.PyArray_NDIM(x._data)
    if nd not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported (got {nd}D)")
    k, d = _nn_pair(kernel_size, "kernel_size"), _nn_pair(dilation, "dilation")
    p, s = _nn_pair(padding, "padding"), _nn_pair(stride, "stride")
    xs = _shp(x._data) if nd == 4 else (1,) + _shp(x._data)
    ohw = (_nn_conv_out(xs[2], 2 * p[0], k[0], d[0], s[0]),
           _nn_conv_out(xs[3], 2 * p[1], k[1], d[1], s[1]))
    if ohw[0] < 1 or ohw[1] < 1:
        raise RuntimeError(
            f"Given input with spatial size ({xs[2]}, {xs[3]}), kernel_size=({k[0]}, {k[1]}), "
            f"dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), calculated shape of the array "
            f"of sliding blocks as ({ohw[0]}, {ohw[1]}), but its components must be at least one.")
    return _nn_im2col(x, ((xs[2], xs[3]), k, d, p, s, ohw))


def _nn_fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    cdef Tensor c = _nn_arg(input, "fold")
    cdef int nd = cnp.PyArray_NDIM(c._data)
    if nd not in (2, 3):
        raise RuntimeError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are "
                           f"supported (got {nd}D)")
    hw = _nn_pair(output_size, "output_size")
    k, d = _nn_pair(kernel_size, "kernel_size"), _nn_pair(dilation, "dilation")
    p, s = _nn_pair(padding, "padding"), _nn_pair(stride, "stride")
    cs = _shp(c._data) if nd == 3 else (1,) + _shp(c._data)
    if cs[1] % (k[0] * k[1]):
        raise RuntimeError(
            f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
            f"but got input.size(1)={cs[1]} and kernel_size=({k[0]}, {k[1]})")
    ohw = (_nn_conv_out(hw[0], 2 * p[0], k[0], d[0], s[0]),
           _nn_conv_out(hw[1], 2 * p[1], k[1], d[1], s[1]))
    if ohw[0] * ohw[1] != cs[2]:
        raise RuntimeError(
            f"Given output_size=({hw[0]}, {hw[1]}), kernel_size=({k[0]}, {k[1]}), "
            f"dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), "
            f"expected size of input's dimension 2 to match the calculated number of sliding "
            f"blocks {ohw[0]} * {ohw[1]} = {ohw[0] * ohw[1]}, but got input.size(2)={cs[2]}.")
    return _nn_col2im(c, (hw, k, d, p, s, ohw))


# ================================================================ convolution

cdef class ConvolutionBackward0(_NnNode):
    """params: (x4_shape, w4_shape, geometry, groups); extra: the forward's columns."""
    cdef tuple present

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        w = self.get_other()
        x4s, w4s, geometry, G = self.params
        N, C, H, W = x4s
        OC, Cg, KH, KW = w4s
        OH, OW = geometry[5]
        OCg = OC // G
        Kg = Cg * KH * KW
        L = OH * OW
        if not _grad_on() and self.extra is not None or not _grad_on() and not _needs(self, 1):
            return self.fast_apply(g, x, w)
        gr = _reshape(g, (N, G, OCg, L))
        out = []
        k = 0
        for which in self.present:
            if not _needs(self, k):
                out.append(None)
            elif which == 0:
                w3 = _reshape(w, (G, OCg, Kg))
                gcols = _reshape(_matmul(_transpose(w3, -1, -2), gr), (N, C * KH * KW, L))
                out.append(_reshape(_nn_col2im(gcols, geometry), _shp(x._data)))
            elif which == 1:
                cols = _nn_im2col(_reshape(x, x4s), geometry)
                cols4 = _reshape(cols, (N, G, Kg, L))
                gw = _sum(_matmul(gr, _transpose(cols4, -1, -2)), 0, False, None)
                out.append(_reshape(gw, _shp(w._data)))
            else:
                out.append(_sum(_reshape(g, (N, OC, L)), (0, 2), False, None))
            k += 1
        if _grad_on():
            out = [None if o is None else _nn_link(o, [x, w], _NnConvolutionBB, (True, True)) for o in out]
        return tuple(out)

    cdef tuple fast_apply(self, Tensor g, Tensor x, Tensor w):
        """The gradients as plain arrays (no create_graph): one GEMM per group."""
        x4s, w4s, geometry, G = self.params
        N, C, H, W = x4s
        OC, Cg, KH, KW = w4s
        OCg = OC // G
        Kg = Cg * KH * KW
        L = geometry[5][0] * geometry[5][1]
        cdef cnp.ndarray ga = g._data
        gT = np.ascontiguousarray(ga.reshape(N, G, OCg, L).transpose(1, 2, 0, 3)).reshape(
            G, OCg, N * L)
        out = []
        k = 0
        for which in self.present:
            if not _needs(self, k):
                out.append(None)
            elif which == 0:
                w3 = w._data.reshape(G, OCg, Kg)
                gcols = np.matmul(w3.transpose(0, 2, 1), gT)         # (G, Kg, N*L)
                gx = _nn_col2im_kmajor(gcols, (N, C), geometry)
                out.append(_make(_nn_cast(gx, ga).reshape(_shp(x._data))))
            elif which == 1:
                cols = self.extra                                     # (G, Kg, N*L)
                gw = np.matmul(gT, cols.transpose(0, 2, 1))           # (G, OCg, Kg)
                out.append(_make(_nn_cast(gw, ga).reshape(_shp(w._data))))
            else:
                out.append(_make(_nn_cast(ga.reshape(N, OC, L).sum(axis=(0, 2)), ga)))
            k += 1
        return tuple(out)

    cdef void release_saved(self):
        self.extra = None
        _NnNode.release_saved(self)


cdef cnp.ndarray _nn_im2col_kmajor(cnp.ndarray x, tuple geometry):
    """Columns of a 4-D input laid out (C*KH*KW, N*OH*OW) (for one GEMM over the batch)."""
    hw, k, d, ptl, s, ohw = geometry
    cdef Py_ssize_t N = x.shape[0], C = x.shape[1], H = hw[0], W = hw[1]
    cdef Py_ssize_t pt = ptl[0], pl = ptl[1]
    pb, pr = _nn_pad_br(geometry)
    if pt or pl or pb or pr:
        xp = np.zeros((N, C, H + pt + pb, W + pl + pr), dtype=x.dtype)
        xp[:, :, pt:pt + H, pl:pl + W] = x
    else:
        xp = x
    st = xp.strides
    view = np.lib.stride_tricks.as_strided(
        xp, (C, k[0], k[1], N, ohw[0], ohw[1]),
        (st[1], st[2] * d[0], st[3] * d[1], st[0], st[2] * s[0], st[3] * s[1]), writeable=False)
    return np.ascontiguousarray(view).reshape(C * k[0] * k[1], N * ohw[0] * ohw[1])


cdef cnp.ndarray _nn_col2im_kmajor(object cols, tuple nc, tuple geometry):
    """The transpose of _nn_im2col_kmajor: columns (.., C*KH*KW, N*L) summed into (N, C, H, W)."""
    hw, k, d, ptl, s, ohw = geometry
    cdef Py_ssize_t N = nc[0], C = nc[1], H = hw[0], W = hw[1], pt = ptl[0], pl = ptl[1], i, j
    cdef Py_ssize_t OH = ohw[0], OW = ohw[1]
    pb, pr = _nn_pad_br(geometry)
    xp = np.zeros((N, C, H + pt + pb, W + pl + pr), dtype=cols.dtype)
    c6 = cols.reshape(C, k[0], k[1], N, OH, OW)
    for i in range(k[0]):
        for j in range(k[1]):
            xp[:, :, i * d[0]:i * d[0] + s[0] * (OH - 1) + 1:s[0],
               j * d[1]:j * d[1] + s[1] * (OW - 1) + 1:s[1]] += c6[:, i, j].transpose(1, 0, 2, 3)
    if pt or pl or pb or pr:
        return np.ascontiguousarray(xp[:, :, pt:pt + H, pl:pl + W])
    return xp


cdef Tensor _nn_conv(Tensor x, Tensor w, Tensor b, object stride, object padding,
                     object dilation, object groups, int nsp):
    cdef str fname = "conv1d" if nsp == 1 else "conv2d"
    cdef int nd = cnp.PyArray_NDIM(x._data)
    if nd != nsp + 1 and nd != nsp + 2:
        raise RuntimeError(
            f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to {fname}, but got "
            f"input of size: {_shape_str(_shp(x._data))}")
    if nd == nsp + 1:
        return _squeeze(_nn_conv(_unsqueeze(x, 0), w, b, stride, padding, dilation, groups, nsp), 0)
    if cnp.PyArray_NDIM(w._data) != nsp + 2:
        raise RuntimeError(
            f"weight should have at least three dimensions" if cnp.PyArray_NDIM(w._data) < 3 else
            f"Expected {nsp + 2}-dimensional weight for {nsp + 2}-dimensional input "
            f"{_shape_str(_shp(x._data))}, but got {cnp.PyArray_NDIM(w._data)}-dimensional weight "
            f"of size {_shape_str(_shp(w._data))} instead")
    cdef dtype xd = _dtype_of(x._data), wd = _dtype_of(w._data)
    if xd is not wd:
        raise RuntimeError(f"expected scalar type {_legacy_scalar_name(xd)} but found "
                           f"{_legacy_scalar_name(wd)}")
    if b is not None and _dtype_of(b._data) is not xd:
        raise RuntimeError(f"Input type ({_nn_c_type(xd)}) and bias type "
                           f"({_nn_c_type(_dtype_of(b._data))}) should be the same")
    if xd.category != 2:
        raise NotImplementedError(f"\"slow_conv2d_cpu\" not implemented for '{_legacy_scalar_name(xd)}'")
    cdef int G = groups
    if G <= 0:
        raise RuntimeError("non-positive groups is not supported")
    xs, ws = _shp(x._data), _shp(w._data)
    s = _nn_pair(stride, "stride", nsp)
    d = _nn_pair(dilation, "dilation", nsp)
    k = ws[2:]
    if any(v <= 0 for v in s):
        raise RuntimeError("non-positive stride is not supported")
    if any(v <= 0 for v in d):
        raise RuntimeError("dilation should be greater than zero")
    if isinstance(padding, str):
        if padding == "valid":
            plo = phi = (0,) * nsp
        elif padding == "same":
            if any(v != 1 for v in s):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            tot = tuple(d[i] * (k[i] - 1) for i in range(nsp))
            plo = tuple(t // 2 for t in tot)
            phi = tuple(tot[i] - plo[i] for i in range(nsp))
            if any(t % 2 for t in tot):
                warnings.warn("Using padding='same' with even kernel lengths and odd dilation may "
                              "require a zero-padded copy of the input be created", UserWarning,
                              stacklevel=3)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        plo = phi = _nn_pair(padding, "padding", nsp)
    if any(v < 0 for v in plo):
        raise RuntimeError("negative padding is not supported")
    if ws[0] % G:
        raise RuntimeError(
            f"Given groups={G}, expected weight to be divisible by {G} at dimension 0, but got "
            f"weight of size [{_shape_str(ws)}] instead")
    if xs[1] != ws[1] * G:
        raise RuntimeError(
            f"Given groups={G}, weight of size {_shape_str(ws)}, expected input{_shape_str(xs)} to "
            f"have {ws[1] * G} channels, but got {xs[1]} channels instead")
    if b is not None and (cnp.PyArray_NDIM(b._data) != 1 or _shp(b._data)[0] != ws[0]):
        raise RuntimeError(
            f"Given weight of size {_shape_str(ws)}, expected bias to be 1-dimensional with "
            f"{ws[0]} elements, but got bias of size {_shape_str(_shp(b._data))} instead")
    padded = tuple(xs[2 + i] + plo[i] + phi[i] for i in range(nsp))
    eff = tuple(d[i] * (k[i] - 1) + 1 for i in range(nsp))
    if any(padded[i] < eff[i] for i in range(nsp)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(str(v) for v in padded)}). "
            f"Kernel size: ({' x '.join(str(v) for v in eff)}). Kernel size can't be greater than "
            f"actual input size")
    # the 2-D geometry (conv1d is a conv2d of height 1)
    cdef cnp.ndarray xa = x._data, wa = w._data
    if nsp == 1:
        xa = xa[:, :, None, :]
        wa = wa[:, :, None, :]
        k2, d2, s2, ptl = (1, k[0]), (1, d[0]), (1, s[0]), (0, plo[0])
        hw = (1, xs[2])
        ohw = (1, (padded[0] - eff[0]) // s[0] + 1)
    else:
        k2, d2, s2, ptl = tuple(k), d, s, plo
        hw = (xs[2], xs[3])
        ohw = ((padded[0] - eff[0]) // s[0] + 1, (padded[1] - eff[1]) // s[1] + 1)
    geometry = (hw, k2, d2, ptl, s2, ohw)
    N, C, OC = xs[0], xs[1], ws[0]
    OCg, Kg, L = OC // G, ws[1] * k2[0] * k2[1], ohw[0] * ohw[1]
    # one GEMM per group over the whole batch: columns laid out (G, Kg, N*L)
    cols = _nn_im2col_kmajor(xa, geometry).reshape(G, Kg, N * L)
    out = np.matmul(wa.reshape(G, OCg, Kg), cols)             # (G, OCg, N*L)
    out = np.ascontiguousarray(out.reshape(OC, N, L).transpose(1, 0, 2))
    out = out.reshape((N, OC) + ((ohw[1],) if nsp == 1 else ohw))
    if b is not None:
        out += b._data.reshape((OC,) + (1,) * nsp)
    cdef Tensor r = _make(_nn_cast(out, x._data))
    cdef ConvolutionBackward0 node
    if _grad_on() and (x._requires_grad or w._requires_grad or (b is not None and b._requires_grad)):
        node = <ConvolutionBackward0>ConvolutionBackward0.__new__(ConvolutionBackward0)
        _nn_save_input(node, x)
        _nn_save_other(node, w)
        node.params = ((N, C) + hw, (OC, ws[1]) + k2, geometry, G)
        if w._requires_grad:
            node.extra = cols
        present = [0, 1]
        inputs = [x, w]
        if b is not None:
            present.append(2)
            inputs.append(b)
        node.present = tuple(present)
        _record_n(node, r, inputs)
    return r


cdef str _nn_c_type(dtype d):
    return {"float32": "float", "float64": "double", "float16": "c10::Half"}.get(d.name, d.name)


def _nn_conv_fn(nsp, input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    fname = "conv1d" if nsp == 1 else "conv2d"
    return _nn_conv(_nn_arg(input, fname), _nn_arg(weight, fname, "weight", 2),
                    _nn_opt(bias, fname, "bias", 3), stride, padding, dilation, groups, nsp)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution (cross-correlation) of a (N, C, L) input with (OC, C/groups, K) filters.

    >>> import autograd_core as torch
    >>> torch.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2)).tolist()
    [[[2.0, 2.0, 2.0]]]
    """
    return _nn_conv_fn(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution (cross-correlation) of a (N, C, H, W) input with (OC, C/groups, KH, KW) filters.

    >>> import autograd_core as torch
    >>> torch.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2)).tolist()
    [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    return _nn_conv_fn(2, input, weight, bias, stride, padding, dilation, groups)


# ================================================================ pooling

cdef Py_ssize_t _nn_pool_out(Py_ssize_t size, Py_ssize_t k, Py_ssize_t p, Py_ssize_t s,
                             Py_ssize_t d, bint ceil_mode):
    cdef Py_ssize_t num = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    # floor division (C's / truncates towards zero)
    cdef Py_ssize_t out = (num // s if num >= 0 else -((-num + s - 1) // s)) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


cdef class _NnGatherFlatNode(Node):
    cdef object idx
    cdef Py_ssize_t width

    cdef tuple apply(self, tuple grads):
        return (_nn_scatter_flat(grads[0], self.idx, self.width),)


cdef class _NnScatterFlatNode(Node):
    cdef object idx

    cdef tuple apply(self, tuple grads):
        return (_nn_gather_flat(grads[0], self.idx),)


cdef Tensor _nn_gather_flat(Tensor t, object idx):
    """t (rows, width) gathered at idx (rows, L) along dim 1."""
    cdef Tensor r = _make(np.ascontiguousarray(np.take_along_axis(t._data, idx, axis=1)))
    if _grad_on() and t._requires_grad:
        node = <_NnGatherFlatNode>_NnGatherFlatNode.__new__(_NnGatherFlatNode)
        node.idx = idx
        node.width = _shp(t._data)[1]
        _record1(node, r, t)
    return r


cdef cnp.ndarray _nn_scatter_flat_values(cnp.ndarray g, object idx, Py_ssize_t width):
    cdef Py_ssize_t rows = idx.shape[0]
    gidx = (idx + (np.arange(rows, dtype=np.int64) * width)[:, None]).reshape(-1)
    out = np.bincount(gidx, weights=g.reshape(-1), minlength=rows * width)
    return out.astype(g.dtype).reshape(rows, width)


cdef Tensor _nn_scatter_flat(Tensor g, object idx, Py_ssize_t width):
    """zeros (rows, width) with g (rows, L) added at idx (rows, L)."""
    cdef Tensor r = _make(_nn_scatter_flat_values(g._data, idx, width))
    if _grad_on() and g._requires_grad:
        node = <_NnScatterFlatNode>_NnScatterFlatNode.__new__(_NnScatterFlatNode)
        node.idx = idx
        _record1(node, r, g)
    return r


cdef class MaxPool2DWithIndicesBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        idx, rows, width = self.params
        value = _nn_scatter_flat_values(g._data.reshape(rows, -1), idx, width)
        return (_nn_gradop(_make(value.reshape(_shp(x._data))), g, x, _NnMaxPoolBB, _GK_GATHER,
                           None, None, (rows, idx, _shp(g._data))),)


cdef tuple _nn_pool_args(object kernel_size, object stride, object padding, object dilation):
    k = _nn_pair(kernel_size, "max_pool2d: kernel_size")
    s = k if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else \
        _nn_pair(stride, "max_pool2d: stride")
    return k, s, _nn_pair(padding, "max_pool2d: padding"), _nn_pair(dilation, "max_pool2d: dilation")


cdef object _nn_max_pool2d(Tensor x, object kernel_size, object stride, object padding,
                           object dilation, bint ceil_mode, bint return_indices):
    k, s, p, d = _nn_pool_args(kernel_size, stride, padding, dilation)
    cdef int nd = cnp.PyArray_NDIM(x._data)
    if nd not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if any(v <= 0 for v in k):
        raise RuntimeError(f"max_pool2d: kernel_size must be greater than zero, but got kH: "
                           f"{k[0]} kW: {k[1]}")
    if any(v <= 0 for v in s):
        raise RuntimeError(f"max_pool2d: stride must be greater than zero, but got dH: {s[0]} "
                           f"dW: {s[1]}")
    if any(v <= 0 for v in d):
        raise RuntimeError(f"max_pool2d: dilation must be greater than zero, but got dilationH: "
                           f"{d[0]} dilationW: {d[1]}")
    for i in range(2):
        if p[i] > ((k[i] - 1) * d[i] + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p[i]}, "
                f"kernel_size={k[i]} and dilation={d[i]}")
    _nn_require_float(x, "max_pool2d")
    cdef cnp.ndarray xa = x._data if nd == 4 else x._data[None]
    N, C, H, W = _shp(xa)
    OH = _nn_pool_out(H, k[0], p[0], s[0], d[0], ceil_mode)
    OW = _nn_pool_out(W, k[1], p[1], s[1], d[1], ceil_mode)
    if OH < 1 or OW < 1:
        raise RuntimeError(f"Given input size: ({C}x{H}x{W}). Calculated output size: "
                           f"({C}x{OH}x{OW}). Output size is too small")
    geometry = ((H, W), k, d, p, s, (OH, OW))
    K = k[0] * k[1]
    L = OH * OW
    # windows as the last axis of a contiguous (N, C, L, K) copy: argmax runs along memory
    pb, pr = _nn_pad_br(geometry)
    if p[0] or p[1] or pb or pr:
        xp = np.full((N, C, H + p[0] + pb, W + p[1] + pr), -np.inf, dtype=xa.dtype)
        xp[:, :, p[0]:p[0] + H, p[1]:p[1] + W] = xa
    else:
        xp = xa
    st = xp.strides
    win = np.ascontiguousarray(np.lib.stride_tricks.as_strided(
        xp, (N, C, OH, OW, k[0], k[1]),
        (st[0], st[1], st[2] * s[0], st[3] * s[1], st[2] * d[0], st[3] * d[1]),
        writeable=False)).reshape(N, C, L, K)
    am = np.argmax(win, axis=3)
    vals = np.take_along_axis(win, am[:, :, :, None], axis=3)[:, :, :, 0]
    # flat input index of each (output position, window offset)
    lin = np.arange(L)
    kk = np.arange(K)
    table = (((lin // OW) * s[0] - p[0])[:, None] + (kk // k[1] * d[0])[None, :]) * W + \
        (((lin % OW) * s[1] - p[1])[:, None] + (kk % k[1] * d[1])[None, :])
    idx = table.reshape(-1)[(lin * K)[None, None, :] + am]
    out_shape = (N, C, OH, OW) if nd == 4 else (C, OH, OW)
    cdef Tensor r = _make(np.ascontiguousarray(vals).reshape(out_shape))
    cdef Tensor ri = _make(idx.reshape(out_shape))
    if _grad_on() and x._requires_grad:
        node = <MaxPool2DWithIndicesBackward0>MaxPool2DWithIndicesBackward0.__new__(
            MaxPool2DWithIndicesBackward0)
        _nn_save_input(node, x)
        node.params = (idx.reshape(N * C, L), N * C, H * W)
        _record1(node, r, x)
    if return_indices:
        return (r, ri)
    return r


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """torch.max_pool2d: the largest value of each (dilated) window.

    >>> import autograd_core as torch
    >>> torch.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2).tolist()
    [[[[5.0, 7.0], [13.0, 15.0]]]]
    """
    return _nn_max_pool2d(_nn_arg(input, "max_pool2d"), kernel_size, stride, padding, dilation,
                          ceil_mode, False)


def _nn_max_pool2d_fn(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                      return_indices=False):
    return _nn_max_pool2d(_nn_arg(input, "max_pool2d"), kernel_size, stride, padding, dilation,
                          ceil_mode, return_indices)


cdef class AvgPool2DBackward0(_NnNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.input()
        geometry, div, pool_params = self.params
        gs = _shp(g._data)
        N = 1 if len(gs) == 3 else gs[0]
        C = gs[-3]
        K = geometry[1][0] * geometry[1][1]
        L = gs[-1] * gs[-2]
        gd = g._data.reshape(N, C, 1, L) / div
        gcols = np.broadcast_to(gd, (N, C, K, L)).reshape(N, C * K, L)
        value = _nn_col2im_values(_nn_cast(gcols, g._data), geometry).reshape(_shp(x._data))
        return (_nn_gradop(_make(value), g, x, _NnAvgPoolBB, _GK_AVGPOOL, None, None,
                           pool_params),)


cdef Tensor _nn_avg_pool_from_params(Tensor g, tuple params):
    return _nn_avg_pool2d(g, params[0], params[1], params[2], params[3], params[4], params[5])


cdef Tensor _nn_avg_pool2d(Tensor x, object kernel_size, object stride, object padding,
                           bint ceil_mode, bint count_include_pad, object divisor_override):
    k = _nn_pair(kernel_size, "avg_pool2d: kernel_size")
    s = k if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else \
        _nn_pair(stride, "avg_pool2d: stride")
    p = _nn_pair(padding, "avg_pool2d: padding")
    cdef int nd = cnp.PyArray_NDIM(x._data)
    if nd not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if any(v <= 0 for v in k):
        raise RuntimeError(f"avg_pool2d: kernel_size must be greater than zero, but got kH: "
                           f"{k[0]} kW: {k[1]}")
    if any(v <= 0 for v in s):
        raise RuntimeError(f"avg_pool2d: stride must be greater than zero, but got dH: {s[0]} "
                           f"dW: {s[1]}")
    for i in range(2):
        if p[i] > k[i] // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p[i]}, "
                f"kernel_size={k[i]} and dilation=1")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _nn_require_float(x, "avg_pool2d_out_frame")
    cdef cnp.ndarray xa = x._data if nd == 4 else x._data[None]
    N, C, H, W = _shp(xa)
    OH = _nn_pool_out(H, k[0], p[0], s[0], 1, ceil_mode)
    OW = _nn_pool_out(W, k[1], p[1], s[1], 1, ceil_mode)
    if OH < 1 or OW < 1:
        raise RuntimeError(f"Given input size: ({C}x{H}x{W}). Calculated output size: "
                           f"({C}x{OH}x{OW}). Output size is too small")
    geometry = ((H, W), k, (1, 1), p, s, (OH, OW))
    K = k[0] * k[1]
    L = OH * OW
    hs = np.arange(OH) * s[0] - p[0]
    he = np.minimum(hs + k[0], H + p[0])
    ws_ = np.arange(OW) * s[1] - p[1]
    we = np.minimum(ws_ + k[1], W + p[1])
    if divisor_override is not None:
        div = np.full((OH, OW), float(divisor_override))
    elif count_include_pad:
        div = np.outer(he - hs, we - ws_).astype(np.float64)
    else:
        hc = np.minimum(he, H) - np.maximum(hs, 0)
        wc = np.minimum(we, W) - np.maximum(ws_, 0)
        div = np.outer(hc, wc).astype(np.float64)
    div = div.reshape(L).astype(xa.dtype)
    cols = _nn_im2col_values(xa, geometry, 0).reshape(N, C, K, L)
    with _quiet():
        out = np.sum(cols, axis=2) / div
    out_shape = (N, C, OH, OW) if nd == 4 else (C, OH, OW)
    cdef Tensor r = _make(_nn_cast(out, xa).reshape(out_shape))
    if _grad_on() and x._requires_grad:
        node = <AvgPool2DBackward0>AvgPool2DBackward0.__new__(AvgPool2DBackward0)
        _nn_save_input(node, x)
        node.params = (geometry, div, (kernel_size, stride, padding, ceil_mode,
                                       count_include_pad, divisor_override))
        _record1(node, r, x)
    return r


def _nn_avg_pool2d_fn(input, kernel_size, stride=None, padding=0, ceil_mode=False,
                      count_include_pad=True, divisor_override=None):
    return _nn_avg_pool2d(_nn_arg(input, "avg_pool2d"), kernel_size, stride, padding, ceil_mode,
                          count_include_pad, divisor_override)
