# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Activations (PyTorch's native/Activation.cpp and SoftMax.cpp): the relu family
# (leaky_relu, prelu, rrelu), elu/celu (selu is an elu), hardtanh, hardsigmoid,
# hardswish, threshold and the shrinks, silu, softplus, mish, logsigmoid, gelu; then
# softmax, log_softmax and _safe_softmax with their backward ops, double backwards and
# jvps. (glu, softmin, relu6, tanhshrink ... are compositions in nn/functional.py.)
# An op whose row in ops/derivatives.yaml has a `forward:` template (leaky_relu, elu,
# celu, hardtanh, threshold, rrelu_with_noise and their in-place forms) has only its
# <template>_values function here: the generated forward records the node.


# ================================================================ activations

# ---------------------------------------------------------------- leaky_relu

cdef cnp.ndarray leaky_relu_kernel(cnp.ndarray xa, object slope):
    """xa where xa > 0, else xa * slope, laid out as numpy chose (rrelu's eval mode)."""
    with quiet():
        return cast_like(np.where(xa > 0, xa, xa * slope), xa)


cdef cnp.ndarray leaky_relu_values(Tensor x, object slope):
    """leaky_relu's (and leaky_relu_'s, from the table) values, laid out as PyTorch's
    (Note [Pointwise output layout])."""
    cdef dtype d = dtype_of(x._data)
    check_float_kernel(d, "leaky_relu_cpu")
    # (a complex slope: Note [Complex Scalar arguments]; likewise in the kernels below)
    slope = scalar_in(slope, d, True)
    return pointwise_output(leaky_relu_kernel(x._data, slope), (x,), -1, 0)


cdef Tensor op_leaky_relu_backward(Tensor grad_output, Tensor self, object negative_slope,
                                   bint self_is_result):
    cdef cnp.ndarray xa = self._data, ga = grad_output._data
    with quiet():
        coef = np.where(xa > 0, 1, negative_slope).astype(xa.dtype)
        out = pointwise_output(cast_like(ga * coef, ga), (grad_output, self), -1, 0)
    cdef Tensor result = make(out)
    record_LeakyReluBackwardBackward0(result, grad_output, self, negative_slope, self_is_result)
    return result


# ---------------------------------------------------------------- prelu, rrelu

cdef Tensor op_prelu(Tensor self, Tensor weight):
    """PyTorch's prelu: checks, weight viewed to broadcast over self's channels (dim 1),
    then _prelu_kernel (the node PyTorch records)."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data), wn = weight._data.size
    cdef dtype xd = dtype_of(self._data), wd = dtype_of(weight._data)
    if xd is not wd:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {xd.scalar_name} and "
                           f"{wd.scalar_name}")
    if wn != 1:
        if nd == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = shape_of(self._data)[1] if nd > 1 else 1
        if channels != wn:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {wn} and channel size = {channels}.")
    if cnp.PyArray_NDIM(weight._data) > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {cnp.PyArray_NDIM(weight._data)}")
    cdef Tensor w = weight
    if nd != cnp.PyArray_NDIM(weight._data):
        dims = [1] * nd
        if nd > 1:
            dims[1] = wn
        w = OPS.reshape(weight, tuple(dims))
    return op__prelu_kernel(self, w)


cdef Tensor op__prelu_kernel(Tensor self, Tensor weight):
    cdef cnp.ndarray x = self._data, w = weight._data
    check_float_kernel(dtype_of(x), "prelu_cpu")
    with quiet():
        out = cast_like(np.where(x > 0, x, w * x), x)
    cdef Tensor result = make(out)
    record_PreluKernelBackward0(result, self, weight)
    return result


cdef cnp.ndarray rrelu_with_noise_values(Tensor self, Tensor noise, object lower, object upper,
                                        bint training):
    """Leaky ReLU with slope (lower + upper) / 2, or in training a random slope per element
    <= 0: PyTorch's kernel draws, in order, one double uniform on [lower, upper) (bounds in
    the input's type) per such element and writes the slopes (1 elsewhere) into noise.
    Contiguous, as PyTorch's result (empty_like(self, LEGACY_CONTIGUOUS_MEMORY_FORMAT)).
    rrelu_with_noise and rrelu_with_noise_ (in place) come from the table."""
    cdef cnp.ndarray x = self._data, slopes
    if float(lower) > float(upper):   # (PyTorch's first check, before the dtype's)
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    # (out of training PyTorch's kernel is leaky_relu's, its error naming it)
    check_float_kernel(dtype_of(x), "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu")
    if not training:
        values = leaky_relu_kernel(x, (float(lower) + float(upper)) / 2)
    else:
        # (boolean indexing walks the elements in PyTorch's contiguous order; an
        # ascontiguousarray would make a 0-d mask 1-d)
        neg = np.asarray(x <= 0)
        bits = random_values(None, np.empty(int(neg.sum()), dtype=np.int64), -2 ** 63, None)
        u = (bits.view(np.uint64) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
        lo, hi = [float(np.asarray(b, dtype=x.dtype)) for b in (lower, upper)]
        slopes = np.ones(shape_of(x), dtype=x.dtype)
        slopes[neg] = u * (hi - lo) + lo
        if shape_of(noise._data) != shape_of(x):
            raise RuntimeError(f"rrelu_with_noise: noise of size {shape_str(shape_of(noise._data))}"
                               f" does not match the input's {shape_str(shape_of(x))}")
        # an output argument, its version not bumped, as PyTorch's: see Note [In-place ops]
        noise._data[...] = slopes
        with quiet():
            values = cast_like(x * slopes, x)
    return as_contiguous(values)


cdef Tensor _rrelu_with_noise_inplace(Tensor self, Tensor noise, object lower, object upper,
                                      bint training):
    cdef Tensor _self_source = inplace_source(self, (noise, ))
    cdef Tensor result = make(cast_array(rrelu_with_noise_values(_self_source, noise, lower,
                                                                 upper, training),
                                         dtype_of(self._data)))
    record_RreluWithNoiseBackward1(result, _self_source, noise, lower, upper, training)
    return inplace_commit(self, result)


cdef Tensor op_rrelu_with_noise_(Tensor self, Tensor noise, object lower, object upper,
                                 bint training):
    # PyTorch's in-place op has no forward derivative and refuses only after writing self
    # (its values and version change, its tangent does not: Note [Forward AD refusals
    # before the kernel] in _core/_fw.pxi)
    if not (fw_active() and fw_grad_of(self) is not None):
        return _rrelu_with_noise_inplace(self, noise, lower, upper, training)
    with FwSuspend():
        _rrelu_with_noise_inplace(self, noise, lower, upper, training)
    raise fw_not_implemented("rrelu_with_noise_")


cdef Tensor op_rrelu_with_noise_backward(Tensor grad_output, Tensor self, Tensor noise,
                                         object lower, object upper, bint training,
                                         bint self_is_result):
    cdef cnp.ndarray g = grad_output._data, x = self._data
    with quiet():
        if training:
            out = cast_like(g * noise._data, g)
        else:
            slope = (float(lower) + float(upper)) / 2
            out = cast_like(g * np.where(x > 0, 1, slope).astype(x.dtype), g)
    cdef Tensor result = make(out)
    record_RreluWithNoiseBackwardBackward0(result, grad_output, self, noise, lower, upper,
                                           training, self_is_result)
    return result


# ---------------------------------------------------------------- elu, celu (selu is an elu)

cdef cnp.ndarray elu_values(Tensor x, object alpha, object scale, object input_scale):
    """The values of elu, elu_, celu, celu_ (from the table; selu is elu's), laid out as
    PyTorch's (Note [Pointwise output layout])."""
    cdef dtype d = dtype_of(x._data)
    check_float_kernel(d, "elu_cpu")
    alpha, scale, input_scale = (scalar_in(alpha, d, True), scalar_in(scale, d, True),
                                 scalar_in(input_scale, d, True))
    cdef cnp.ndarray xa = x._data
    with quiet():
        neg = np.expm1(xa * input_scale if input_scale != 1 else xa) * (alpha * scale)
        pos = xa * scale if scale != 1 else xa
        out = cast_like(np.where(xa > 0, pos, neg), xa)
    return pointwise_output(out, (x,), -1, 0)


cdef object celu_forward_scale(object alpha):
    """celu's input scale 1 / alpha, after PyTorch's check of alpha (its message keeps
    the Python exception's name, in a RuntimeError)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return 1.0 / alpha


cdef object celu_input_scale(object alpha):
    """The input scale of celu's derivative: PyTorch's 1 / alpha.toFloat() (alpha
    rounded to float32)."""
    return 1.0 / float(np.float32(alpha))


cdef Tensor op_elu_backward(Tensor grad_output, object alpha, object scale, object input_scale,
                            bint is_result, Tensor self_or_result):
    cdef cnp.ndarray ga = grad_output._data, xa = self_or_result._data
    with quiet():
        if is_result:
            neg = ga * input_scale * (xa + alpha * scale)
        else:
            neg = ga * (input_scale * alpha * scale) * np.exp(xa * input_scale)
        out = np.where(xa <= 0, neg, ga * scale)
    cdef Tensor result = make(cast_like(out, ga))
    record_EluBackwardBackward0(result, grad_output, alpha, scale, input_scale, is_result,
                                self_or_result)
    return result


cdef Tensor elu_double_backward(Tensor grad, Tensor grad_output, object alpha, object scale,
                                object input_scale, bint is_result, Tensor self_or_result):
    """d elu_backward / d self_or_result (PyTorch's elu_double_backward): the negative
    branch's derivative times the 0/1 mask self_or_result < 0. PyTorch multiplies by the
    mask (so a NaN or inf upstream gradient gives NaN where it is 0, and the derivative is
    0 at 0 itself): kept as a product."""
    cdef Tensor neg = make(as_array(self_or_result._data < 0).astype(grad._data.dtype))
    cdef Tensor g = OPS.mul(OPS.mul(grad, grad_output), input_scale)
    if is_result:
        return OPS.mul(g, neg)
    return OPS.mul(op_elu_backward(g, alpha, scale, input_scale, False, self_or_result), neg)


# ---------------------------------------------------------------- hardtanh

cdef cnp.ndarray hardtanh_values(Tensor x, object lo, object hi):
    """x clipped to [lo, hi] (hardtanh, from the table), laid out as empty_like(x), which
    PyTorch's hardtanh writes into."""
    cdef dtype d = dtype_of(x._data)
    if d.category == CAT_BOOL:   # (PyTorch's hardtanh checks before its kernel)
        raise RuntimeError("Bool inputs not supported for hardtanh")
    cdef cnp.ndarray xa = x._data
    # (PyTorch's hardtanh is a clamp: floating bounds are read as double)
    lo, hi = (scalar_in(lo, float64 if d.category == CAT_FLOAT else d),
              scalar_in(hi, float64 if d.category == CAT_FLOAT else d))
    if d.category == CAT_INT:
        lo, hi = int(lo), int(hi)
    return as_preserved(cast_like(np.minimum(np.maximum(xa, lo), hi), xa), xa)


cdef Tensor op_hardtanh_backward(Tensor grad_output, Tensor self, object min_val,
                                 object max_val):
    # selected, not multiplied by a 0/1 mask: a NaN or inf gradient stays out of the
    # clipped positions, as PyTorch's kernel. (At a NaN input PyTorch's scalar loop
    # passes the gradient and its vectorised loop, which runs from 8 doubles or 16
    # floats up, gives 0: this is the vectorised loop's choice.)
    cdef cnp.ndarray xa = self._data, ga = grad_output._data
    with quiet():
        out = np.where((xa > min_val) & (xa < max_val), ga, np.zeros((), ga.dtype))
    cdef Tensor result = make(pointwise_output(cast_like(out, ga), (grad_output, self), -1, 0))
    record_HardtanhBackwardBackward0(result, grad_output, self, min_val, max_val)
    return result


# ---------------------------------------------------------------- hardsigmoid, hardswish

# PyTorch's hardsigmoid_backward scales by the float32 constant 1.0f / 6.0f, even for float64
cdef double SIXTH_F32 = <float>(1.0 / 6.0)


# The float_activation template (derivatives.yaml): an activation of float dtypes only
# (other dtypes raise naming PyTorch's kernel) whose values are one array function of x,
# cast back to x's dtype
ctypedef object (*activation_fn)(cnp.ndarray)


cdef cnp.ndarray float_activation_values(Tensor self, activation_fn fn, str kernel):
    cdef cnp.ndarray x = self._data
    check_float_kernel(dtype_of(x), kernel)
    with quiet():
        out = cast_like(fn(x), x)
    return pointwise_output(out, (self,), -1, 0)


cdef cnp.ndarray relu6_shifted_values(cnp.ndarray x):
    """min(max(x + 3, 0), 6) (NaN stays NaN), the core of both ops' kernels."""
    with quiet():
        return as_array(np.minimum(np.maximum(x + 3, 0), 6))


cdef object hardsigmoid_of(cnp.ndarray x):
    return relu6_shifted_values(x) / 6


cdef object hardswish_of(cnp.ndarray x):
    return x * relu6_shifted_values(x) / 6


cdef Tensor op_hardsigmoid_backward(Tensor grad_output, Tensor self):
    """grad_output / 6 inside (-3, 3), selected (a NaN gradient stays out of the flat
    parts); PyTorch has no derivative for it: its NotImplemented node."""
    cdef cnp.ndarray x = self._data, g = grad_output._data
    with quiet():
        out = np.where((x > -3) & (x < 3), g * SIXTH_F32, np.zeros((), g.dtype))
    cdef Tensor result = make(pointwise_output(cast_like(out, g), (grad_output, self), -1, 0))
    OPS.not_implemented_node(result, (grad_output, self), "hardsigmoid_backward")
    return result


cdef Tensor op_hardswish_backward(Tensor grad_output, Tensor self):
    """PyTorch's kernel, selected: 0 up to -3, grad * (x / 3 + 1/2) below 3, grad above
    (and where x is NaN)."""
    cdef cnp.ndarray x = self._data, g = grad_output._data
    with quiet():
        out = np.where(x <= -3, np.zeros((), g.dtype), np.where(x < 3, g * (x / 3 + 0.5), g))
    cdef Tensor result = make(pointwise_output(cast_like(out, g), (grad_output, self), -1, 0))
    record_HardswishBackwardBackward0(result, grad_output, self)
    return result


# ---------------------------------------------------------------- threshold, shrinks

# Above this many elements a C loop runs with the GIL released (ops/pointwise.pyx's too).
cdef enum:
    NOGIL_N = 16384


cdef inline bint c_number(object v):
    """A Python number a C loop takes as a double (PyTorch converts it to the tensor's type)."""
    return isinstance(v, float) or (isinstance(v, int) and -2**62 < v < 2**62)


cdef cnp.ndarray threshold_kernel(cnp.ndarray x, object threshold, object value):
    """value where x <= threshold, else x (NaN too), as PyTorch's threshold kernel."""
    cdef cnp.ndarray out
    cdef double th, v
    cdef size_t n
    cdef void *px
    cdef void *po
    if c_float(x) and cnp.PyArray_IS_C_CONTIGUOUS(x) and c_number(threshold) and c_number(value):
        th, v = threshold, value
        out = empty_like_array(x)
        px, po, n = cnp.PyArray_DATA(x), cnp.PyArray_DATA(out), cnp.PyArray_SIZE(x)
        if cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT32:
            if n <= NOGIL_N:
                agc_threshold_f32(<float *>px, th, v, <float *>po, n)
            else:
                with nogil:
                    agc_threshold_f32(<float *>px, th, v, <float *>po, n)
        elif n <= NOGIL_N:
            agc_threshold_f64(<double *>px, th, v, <double *>po, n)
        else:
            with nogil:
                agc_threshold_f64(<double *>px, th, v, <double *>po, n)
        return out
    with quiet():
        return as_array(np.where(x <= threshold, np.asarray(value).astype(x.dtype), x))


cdef cnp.ndarray threshold_values(Tensor x, object threshold, object value):
    """threshold's and threshold_'s values (from the table) laid out as PyTorch's
    (Note [Pointwise output layout])."""
    cdef dtype d = dtype_of(x._data)
    check_not_bool_kernel(d, "threshold_cpu")
    threshold, value = scalar_in(threshold, d, True), scalar_in(value, d, True)
    return pointwise_output(threshold_kernel(x._data, threshold, value), (x,), -1, 0)


cdef Tensor op_hardshrink(Tensor self, object lambd):
    cdef cnp.ndarray x = self._data
    check_float_kernel(dtype_of(x), "hardshrink_cpu")
    lambd = scalar_in(lambd, dtype_of(x), True)
    with quiet():
        out = np.where((x >= -lambd) & (x <= lambd), np.zeros((), x.dtype), x)
    cdef Tensor result = make(pointwise_output(as_array(out), (self,), -1, 0))
    record_HardshrinkBackward0(result, self, lambd)
    return result


cdef cnp.ndarray shrink_backward_values(Tensor grad, Tensor self, object lambd):
    """Both shrinks' backward: grad where |x| > lambd, else 0 (NaN passes grad through).
    (the table's shrink_backward(lambd) forward of each)"""
    cdef cnp.ndarray x = self._data, g = grad._data
    with quiet():
        out = np.where((x >= -lambd) & (x <= lambd), np.zeros((), g.dtype), g)
    return pointwise_output(as_array(out), (grad, self), -1, 0)


cdef Tensor op_softshrink(Tensor self, object lambd):
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x)
    check_float_kernel(d, "softshrink_check")
    if not 0 <= lambd <= float(np.finfo(d.np_dtype).max):
        raise RuntimeError(f"lambda must be in range [0, {float(np.finfo(d.np_dtype).max):g}] "
                           f"for input dtype {d.scalar_name}, but found {lambd:g}")
    lam = np.asarray(lambd, dtype=x.dtype)
    with quiet():
        out = np.where(x > lam, x - lam, np.where(x < -lam, x + lam, np.zeros((), x.dtype)))
    cdef Tensor result = make(pointwise_output(as_array(out.astype(x.dtype, copy=False)),
                                               (self,), -1, 0))
    record_SoftshrinkBackward0(result, self, lambd)
    return result


# ---------------------------------------------------------------- silu, softplus

cdef Tensor op_silu(Tensor self):
    # PyTorch's kernel takes floating and complex dtypes (x / (1 + exp(-x)) either way);
    # the complex derivative stays refused (Note [Complex autograd]): PyTorch's silu
    # refuses it and its silu_ returns grad * s * (1 + x * (1 - s)) unconjugated, not
    # the conjugate Wirtinger derivative its own convention asks for
    if not cnp.PyArray_ISCOMPLEX(self._data):
        check_float_kernel(dtype_of(self._data), "silu_cpu")
    cdef cnp.ndarray xa = opmath(self._data)
    with quiet():
        out = xa / (1 + np.exp(-xa))
    cdef Tensor result = make(pointwise_output(cast_like(out, self._data), (self,), -1, 0))
    record_SiluBackward0(result, self)
    return result


cdef Tensor infinitely_differentiable_silu_backward(Tensor grad, Tensor self):
    """grad * s * (1 + x * (1 - s)), s = sigmoid(x)."""
    cdef cnp.ndarray xa
    if not grad_enabled() and not fw_active():
        xa = opmath(self._data)
        with quiet():
            s = 1 / (1 + np.exp(-xa))
            return make(cast_like(opmath(grad._data) * (s * (1 + xa * (1 - s))), grad._data))
    # PyTorch's grad * sigmoid * (1 + self * (1 - sigmoid)), in the ops it records
    # (1 - s: SubBackward0 of a filled tensor; 1 + t: add.Scalar, AddBackward1)
    cdef Tensor sg = OPS.sigmoid(self)
    cdef Tensor one = make(np.ones((), dtype=self._data.dtype))
    return OPS.mul(OPS.mul(grad, sg),
                   OPS.add_scalar(OPS.mul(self, OPS.sub(one, sg, 1)), 1, 1))


cdef Tensor op_softplus(Tensor self, object beta, object threshold):
    cdef dtype d = dtype_of(self._data)
    check_float_kernel(d, "softplus_cpu")
    beta, threshold = scalar_in(beta, d, True), scalar_in(threshold, d, True)
    cdef cnp.ndarray xa = self._data
    with quiet():
        bx = xa * beta
        out = np.where(bx > threshold, xa, np.log1p(np.exp(bx)) / beta)
    cdef Tensor result = make(pointwise_output(cast_like(out, xa), (self,), -1, 0))
    record_SoftplusBackward0(result, self, beta, threshold)
    return result


cdef Tensor op_softplus_backward(Tensor grad_output, Tensor self, object beta, object threshold):
    cdef cnp.ndarray xa = self._data, ga = grad_output._data
    with quiet():
        bx = xa * beta
        z = np.exp(bx)
        out = np.where(bx > threshold, ga, ga * z / (z + 1))
    cdef Tensor result = make(pointwise_output(cast_like(out, ga), (grad_output, self), -1, 0))
    record_SoftplusBackwardBackward0(result, grad_output, self, beta, threshold)
    return result


cdef Tensor softplus_double_backward(Tensor grad, Tensor self, object beta, object threshold):
    """d softplus_backward / d self, times grad (grad * grad_output): beta * s * (1 - s)
    with s = sigmoid(beta * x), times the 0/1 mask beta * x < threshold. A product, as
    PyTorch's (a NaN or inf grad gives NaN in the linear part too)."""
    cdef Tensor s = OPS.sigmoid(OPS.mul(self, beta) if beta != 1 else self)
    cdef Tensor d = OPS.mul(OPS.mul(s, OPS.rsub(s, 1, 1)), beta)
    with quiet():
        below = make(as_array(self._data * beta < threshold).astype(grad._data.dtype))
    return OPS.mul(OPS.mul(grad, d), below)


# ---------------------------------------------------------------- mish, logsigmoid

cdef object mish_of(cnp.ndarray x):
    return x * np.tanh(np.log1p(np.exp(x)))


cdef object logsigmoid_of(cnp.ndarray x):
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


cdef Tensor mish_backward(Tensor grad, Tensor self):
    """grad * (t + x * s * (1 - t^2)), t = tanh(log1p(exp(x))), s = sigmoid(x): one
    product with grad (an inf gradient meets the derivative once, as in PyTorch's
    kernel); under create_graph PyTorch's infinitely_differentiable_mish_backward, in
    its ops."""
    cdef cnp.ndarray x
    if not grad_enabled() and not fw_active():
        x = self._data
        with quiet():
            tv = np.tanh(np.log1p(np.exp(x)))
            sv = 1 / (1 + np.exp(-x))
            return make(cast_like(grad._data * (tv + x * sv * (1 - tv * tv)), grad._data))
    cdef Tensor sg = OPS.sigmoid(self)
    cdef Tensor t = OPS.tanh(OPS.log1p(OPS.exp(self)))
    cdef Tensor one = make(np.ones((), dtype=self._data.dtype))
    cdef Tensor inner = OPS.add(t, OPS.mul(OPS.mul(self, sg), OPS.sub(one, OPS.mul(t, t), 1)), 1)
    return OPS.mul(grad, inner)


cdef Tensor op_log_sigmoid_backward(Tensor grad_output, Tensor self):
    """PyTorch's kernel: grad * (m - sign * z / (1 + z)), z = exp(-|x|), m and sign 1
    below 0, else 0 and -1: one product with grad."""
    cdef cnp.ndarray x = self._data, g = grad_output._data
    with quiet():
        z = np.exp(-np.abs(x))
        neg = x < 0
        out = cast_like(g * (neg.astype(x.dtype) - np.where(neg, 1, -1) * (z / (1 + z))), g)
    cdef Tensor result = make(pointwise_output(out, (grad_output, self), -1, 0))
    record_LogSigmoidBackwardBackward0(result, grad_output, self)
    return result


cdef Tensor log_sigmoid_double_backward(Tensor grad, Tensor self):
    """grad * (z - 1) * z, z = sigmoid(x) (PyTorch's log_sigmoid_double_backward)."""
    cdef Tensor z = OPS.sigmoid(self)
    return OPS.mul(OPS.mul(grad, OPS.sub(z, 1, 1)), z)


# ---------------------------------------------------------------- gelu

cdef inline cnp.ndarray erf_values(cnp.ndarray x):
    """erf elementwise: the pointwise family's erf on a constant."""
    return OPS.erf(make(x))._data


cdef bint gelu_is_tanh(object approximate) except -1:
    if approximate == "tanh":
        return True
    if approximate == "none":
        return False
    raise RuntimeError("approximate argument must be either none or tanh.")


cdef cnp.ndarray gelu_values(cnp.ndarray x, bint tanh_approx):
    cdef cnp.ndarray xd = x.astype(np.float64)
    with quiet():
        if tanh_approx:
            out = 0.5 * xd * (1 + np.tanh(SQRT_2_PI * (xd + GELU_C * xd * xd * xd)))
        else:
            out = 0.5 * xd * (1 + erf_values(as_array(xd * SQRT1_2)))
    return cast_like(out, x)


cdef cnp.ndarray gelu_derivative_values(cnp.ndarray x, bint tanh_approx):
    cdef cnp.ndarray xd = x.astype(np.float64)
    with quiet():
        if tanh_approx:
            x2 = xd * xd
            t = np.tanh(SQRT_2_PI * (xd + GELU_C * x2 * xd))
            du = SQRT_2_PI * (1 + 3 * GELU_C * x2)
            out = 0.5 * (1 + t) + 0.5 * xd * (1 - t * t) * du
        else:
            cdf = 0.5 * (1 + erf_values(as_array(xd * SQRT1_2)))
            out = cdf + xd * np.exp(-0.5 * xd * xd) * INV_SQRT_2PI
    return cast_like(out, x)


cdef Tensor op_gelu(Tensor self, object approximate):
    cdef bint tanh_approx = gelu_is_tanh(approximate)
    check_float_kernel(dtype_of(self._data), "GeluKernelImpl")
    cdef Tensor result = make(pointwise_output(
        cast_like(gelu_values(opmath(self._data), tanh_approx), self._data), (self,), -1, 0))
    record_GeluBackward0(result, self, approximate)
    return result


cdef Tensor op_gelu_backward(Tensor grad_output, Tensor self, object approximate):
    cdef cnp.ndarray ga = grad_output._data
    cdef Tensor result = make(pointwise_output(
        cast_like(opmath(ga) * gelu_derivative_values(opmath(self._data),
                                                      gelu_is_tanh(approximate)), ga),
        (grad_output, self), -1, 0))
    record_GeluBackwardBackward0(result, grad_output, self, approximate)
    return result


cdef Tensor gelu_double_backward(Tensor grad, Tensor grad_output, Tensor self, object approximate):
    """grad * grad_output * gelu''(x), in library ops."""
    cdef Tensor x = self, x2 = OPS.mul(self, self), second
    if not gelu_is_tanh(approximate):
        pdf = OPS.mul(OPS.exp(OPS.mul(x2, -0.5)), INV_SQRT_2PI)
        second = OPS.mul(pdf, OPS.rsub(x2, 2, 1))
    else:
        k, c = SQRT_2_PI, GELU_C
        t = OPS.tanh(OPS.mul(OPS.add(x, OPS.mul(OPS.mul(x2, x), c), 1), k))
        s = OPS.rsub(OPS.mul(t, t), 1, 1)
        du = OPS.mul(OPS.add(OPS.mul(x2, 3 * c), 1, 1), k)
        # (1 - t^2) * (du - x t du^2 + 3 k c x^2)
        inner = OPS.add(OPS.sub(du, OPS.mul(OPS.mul(x, t), OPS.mul(du, du)), 1),
                        OPS.mul(x2, 3 * k * c), 1)
        second = OPS.mul(s, inner)
    return OPS.mul(OPS.mul(grad, grad_output), second)


# ================================================================ softmax

cdef Tensor softmax_impl(Tensor self, object dim, object dtype_arg, bint log,
                         bint safe=False):
    """softmax (log_softmax when log; _safe_softmax's zeros for rows that are -inf
    throughout when safe) along dim, computed in dtype_arg when given."""
    cdef Tensor x = self
    cdef dtype d
    if dtype_arg is not None:
        d = to_dtype(dtype_arg)
        if d is not dtype_of(x._data):
            x = OPS._to_copy(x, d)
    cdef cnp.ndarray xa = x._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    cdef Py_ssize_t k = wrap_dim(dim, nd)
    # PyTorch's kernels, named in its error for a non-float (complex, integer) dtype: one
    # for the last dim (and 0-d), one for any other (a complex input reaches here only
    # without a real dtype= to compute in)
    check_float_kernel(dtype_of(xa), ("log_" if log else "") + (
        "softmax_lastdim_kernel_impl" if nd == 0 or k == nd - 1 else "softmax_kernel_impl"))
    cdef cnp.ndarray w = opmath(xa.reshape(1) if nd == 0 else xa)
    cdef dtype xd = dtype_of(xa)
    cdef bint lastdim = k == cnp.PyArray_NDIM(w) - 1
    if is_reduced_float(xd):
        # Note [Reduced-float softmax roundings]
        if cnp.PyArray_TYPE(w) != cnp.NPY_FLOAT32:
            w = cast_array(w, float32)
        if log == lastdim:
            out = softmax_reduced(w, k, log, xd)
        elif lastdim and cnp.PyArray_IS_C_CONTIGUOUS(w):
            out = softmax_rows(w, None, log)
        else:
            out = softmax_numpy(w, k, log)
    elif lastdim and c_float(w) and cnp.PyArray_IS_C_CONTIGUOUS(w):
        out = softmax_rows(w, None, log)
    else:
        out = softmax_numpy(w, k, log)
    cdef cnp.ndarray oa = cast_like(out, xa)
    if nd == 0:
        oa = oa.reshape(())
    elif not cnp.PyArray_IS_C_CONTIGUOUS(oa):
        oa = np.ascontiguousarray(oa)  # PyTorch's result is contiguous whatever the input's
    if safe and cnp.PyArray_SIZE(xa):
        masked = np.isneginf(np.max(xa, axis=k, keepdims=True)) if nd else np.isneginf(xa)
        if masked.any():
            oa = np.where(masked, 0, oa).astype(oa.dtype, copy=False)
    cdef Tensor result = make(oa)
    if safe:
        record_SafeSoftmaxBackward0(result, x, k, dtype_arg)
    elif log:
        record_LogSoftmaxBackward0(result, x, k, dtype_arg)
    else:
        record_SoftmaxBackward0(result, x, k, dtype_arg)
    return result


cdef object softmax_numpy(cnp.ndarray w, Py_ssize_t k, bint log):
    with quiet():
        if cnp.PyArray_SIZE(w) == 0:
            return np.empty_like(w)
        m = np.max(w, axis=k, keepdims=True)
        sh = w - m
        e = np.exp(sh)
        s = np.sum(e, axis=k, keepdims=True)
        return sh - np.log(s) if log else e / s


# Note [Reduced-float softmax roundings]
# PyTorch's CPU (log_)softmax kernels compute bfloat16 and float16 data in float, but two
# of them round an intermediate to the input's dtype (found by experiment: bitwise equal
# on random inputs of several shapes): log_softmax over the last dim (and of a 0-d
# tensor) rounds the sum of exponentials, and then its log, before x - max - log(sum),
# and softmax over any other dim stores exp(x - max) in the output's dtype before
# dividing it by the float sum. log_softmax over another dim and softmax over the last
# dim round once, at the end (softmax_rows / softmax_numpy on the float32 values).
cdef object softmax_reduced(cnp.ndarray w, Py_ssize_t k, bint log, dtype rd):
    """(log_)softmax of the float32 values w of a bfloat16/float16 tensor along k, with
    PyTorch's intermediate roundings to rd (log_softmax over the last dim, softmax over
    another)."""
    with quiet():
        if cnp.PyArray_SIZE(w) == 0:
            return np.empty_like(w)
        sh = w - np.max(w, axis=k, keepdims=True)
        e = np.exp(sh)
        s = np.sum(e, axis=k, keepdims=True)
        if log:
            return sh - _round_through(np.log(_round_through(s, rd)), rd)
        return _round_through(e, rd) / s


cdef inline cnp.ndarray _round_through(cnp.ndarray a, dtype rd):
    """float32 values a rounded to rd and back."""
    return cast_array(cast_array(a, rd), float32)


cdef cnp.ndarray softmax_rows(cnp.ndarray a, cnp.ndarray y, bint log):
    """(log_)softmax over the last dim of a C-contiguous float array, one pass per row
    (y None), or its backward for the incoming gradient a and the saved output y
    (C-contiguous, a's dtype and shape). The row sums accumulate in double."""
    cdef cnp.ndarray out = np.empty_like(a)
    cdef Py_ssize_t n = cnp.PyArray_DIM(a, cnp.PyArray_NDIM(a) - 1)
    cdef Py_ssize_t rows = cnp.PyArray_SIZE(a) // n if n else 0
    cdef bint f32 = cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT32
    cdef void *pa = cnp.PyArray_DATA(a)
    cdef void *py = cnp.PyArray_DATA(y) if y is not None else NULL
    cdef void *po = cnp.PyArray_DATA(out)
    if rows == 0:
        return out
    with nogil:
        if py == NULL and f32:
            agc_softmax_rows_f32(<float *>pa, <float *>po, rows, n, log)
        elif py == NULL:
            agc_softmax_rows_f64(<double *>pa, <double *>po, rows, n, log)
        elif f32:
            agc_softmax_backward_rows_f32(<float *>pa, <float *>py, <float *>po, rows, n, log)
        else:
            agc_softmax_backward_rows_f64(<double *>pa, <double *>py, <double *>po, rows, n, log)
    return out


cdef inline bint softmax_rows_pair(cnp.ndarray ga, cnp.ndarray ya, object dim):
    """Whether softmax_rows takes a backward: over the last dim, one float dtype and
    shape, both C-contiguous."""
    cdef int nd = cnp.PyArray_NDIM(ya)
    return (nd > 0 and dim == nd - 1 and c_float(ga) and cnp.PyArray_TYPE(ga) == cnp.PyArray_TYPE(ya)
            and cnp.PyArray_IS_C_CONTIGUOUS(ga) and cnp.PyArray_IS_C_CONTIGUOUS(ya)
            and same_shape(ga, ya))


cdef Tensor op_softmax(Tensor self, object dim, object dtype):
    return softmax_impl(self, dim, dtype, False)


cdef Tensor op_log_softmax(Tensor self, object dim, object dtype):
    return softmax_impl(self, dim, dtype, True)


cdef Tensor op__safe_softmax(Tensor self, object dim, object dtype):
    return softmax_impl(self, dim, dtype, False, True)


cdef inline object sum_keep(object a, object dim):
    return np.sum(a, axis=dim, keepdims=True) if np.ndim(a) else a


cdef cnp.ndarray _softmax_backward_values(Tensor grad_output, Tensor output, object dim,
                                          bint log_):
    """The gradient of (log_)softmax's input from its output's gradient and its output:
    y * (g - sum(g * y)), or g - exp(y) * sum(g) for log_softmax; rows in C when they
    can be (softmax_rows_pair), in grad_output's dtype."""
    cdef cnp.ndarray ga = opmath(grad_output._data), ya = opmath(output._data)
    if softmax_rows_pair(ga, ya, dim):
        out = softmax_rows(ga, ya, log_)
    else:
        with quiet():
            out = (ga - np.exp(ya) * sum_keep(ga, dim) if log_
                   else ya * (ga - sum_keep(ga * ya, dim)))
    return cast_like(out, grad_output._data)


cdef Tensor op__softmax_backward_data(Tensor grad_output, Tensor output, object dim,
                                      dtype input_dtype):
    cdef Tensor result = make(_softmax_backward_values(grad_output, output, dim, False))
    record_SoftmaxBackwardDataBackward0(result, grad_output, output, dim, input_dtype)
    return result


cdef Tensor op__log_softmax_backward_data(Tensor grad_output, Tensor output, object dim,
                                          dtype input_dtype):
    cdef Tensor result = make(_softmax_backward_values(grad_output, output, dim, True))
    record_LogSoftmaxBackwardDataBackward0(result, grad_output, output, dim, input_dtype)
    return result


cdef inline Tensor sum_dim_keep(Tensor t, object dim):
    if cnp.PyArray_NDIM(t._data) == 0:
        return t
    return OPS.sum(t, (dim,), True, None)


cdef Tensor softmax_double_backward(Tensor grad, Tensor grad_output, object dim, Tensor output):
    """d _softmax_backward_data / d output: grad_output * grad
    - sum(output * grad_output) * grad - grad_output * sum(output * grad)."""
    return OPS.sub(OPS.sub(OPS.mul(grad_output, grad),
                           OPS.mul(sum_dim_keep(OPS.mul(output, grad_output), dim), grad), 1),
                   OPS.mul(grad_output, sum_dim_keep(OPS.mul(output, grad), dim)), 1)


cdef Tensor log_softmax_backward_grad_output(Tensor grad, Tensor output, object dim):
    """d _log_softmax_backward_data / d grad_output (the adjoint of
    g -> g - exp(output) * sum(g)): grad - sum(grad * exp(output))."""
    return OPS.sub(grad, sum_dim_keep(OPS.mul(grad, OPS.exp(output)), dim), 1)


cdef Tensor log_softmax_double_backward(Tensor grad, Tensor grad_output, object dim,
                                        Tensor output):
    """d _log_softmax_backward_data / d output: -sum(grad_output) * exp(output) * grad."""
    return OPS.mul(OPS.mul(OPS.neg(sum_dim_keep(grad_output, dim)), OPS.exp(output)), grad)


cdef Tensor _logsumexp_jvp_keep(Tensor self_p, Tensor self_t, object dim):
    """PyTorch's logsumexp_jvp (keepdim) along dim: the tangent's mean weighted by
    exp(self - max(self)), sum(w * t) / sum(w). For a constant tangent the two sums are
    the same sum, so the quotient is exactly 1 (softmax's tangent exactly 0)."""
    cdef Tensor w
    if cnp.PyArray_SIZE(self_p._data) > 0 and cnp.PyArray_NDIM(self_p._data) > 0:
        w = OPS.exp(OPS.sub(self_p, OPS.amax(self_p, (dim,), True), 1))
    elif cnp.PyArray_SIZE(self_p._data) > 0:
        w = OPS.exp(OPS.sub(self_p, self_p, 1))
    else:
        w = OPS.exp(self_p)
    return OPS.div(sum_dim_keep(OPS.mul(w, self_t), dim), sum_dim_keep(w, dim), None)


cdef inline Tensor _in_dtype(Tensor t, object dtype_arg):
    """t in softmax's dtype= argument (PyTorch converts the input before _softmax, and
    its tangent with it)."""
    if dtype_arg is None:
        return t
    cdef dtype d = to_dtype(dtype_arg)
    return t if d is dtype_of(t._data) else OPS._to_copy(t, d)


cdef Tensor softmax_jvp(Tensor result, Tensor self_p, Tensor self_t, object dim,
                        object dtype_arg):
    """PyTorch's _softmax forward derivative: result * (t - logsumexp_jvp(self, t)), a
    MulBackward0 when it has a history (reverse over forward)."""
    self_p, self_t = _in_dtype(self_p, dtype_arg), _in_dtype(self_t, dtype_arg)
    return OPS.mul(result, OPS.sub(self_t, _logsumexp_jvp_keep(self_p, self_t, dim), 1))


cdef Tensor log_softmax_jvp(Tensor self_p, Tensor self_t, object dim, object dtype_arg):
    """PyTorch's _log_softmax forward derivative: t - logsumexp_jvp(self, t). It does not
    read the result, so writing into the result later leaves its tangent's backward
    valid (seed 18001394)."""
    self_p, self_t = _in_dtype(self_p, dtype_arg), _in_dtype(self_t, dtype_arg)
    return OPS.sub(self_t, _logsumexp_jvp_keep(self_p, self_t, dim), 1)
