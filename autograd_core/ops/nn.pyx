"""Neural-network ops (autograd_core.nn.functional's compiled part): activations,
softmax, losses, linear, padding, normalisation layers, embedding, dropout,
im2col/col2im, convolution and pooling.

Their nodes, wiring and Python wrappers are generated from the nn section of
derivatives.yaml (_gen_nn.pxi, included at the end); this file holds the forwards and
the derivative helpers the formulas call (named like PyTorch's FunctionsManual). As
everywhere, the helpers are written in the library's own ops (through OPS), so
create_graph and higher orders work; a few compute plain numpy values when grad mode
is off (outside create_graph), where no graph is wanted.

Note [Gradient ops that take the input]
PyTorch's backward of several nn ops (leaky_relu, hardtanh, nll_loss, pooling,
reflection padding ...) is an op of its own whose inputs are the incoming gradient AND
the forward input, with a zero derivative for the latter. Under create_graph the
first-order gradient therefore requires grad and its second derivative w.r.t. the
input is a zero tensor (not None). Those backward ops are table entries here
(leaky_relu_backward, nll_loss_backward, ...) with `self: zeros_like(grad)`.

Note [Backward links]
PyTorch's layer_norm, batch_norm and convolution backwards are ops of their own too
(native_layer_norm_backward, ...), whose nodes (NativeLayerNormBackwardBackward0, ...)
make every gradient they return depend on all their inputs. Here those first-order
gradients are computed in differentiable ops, and under create_graph each is passed
through a link op (_layer_norm_backward_link, ...) that records PyTorch's node: the
gradient flows through unchanged, and the input and weight edges get what PyTorch's
double-backward formulas give them beyond that (None, or zeros).

>>> import autograd_core as torch
>>> import autograd_core.nn.functional as F
>>> x = torch.tensor([[1., 2.]], requires_grad=True)
>>> F.log_softmax(x, 1).grad_fn.name()
'LogSoftmaxBackward0'
"""
include "_prelude.pxi"
from autograd_core._core.random cimport bernoulli_scalar_values, random_values
from libc.math cimport fabs, sqrt
from libc.stdint cimport int64_t, uint8_t

from cpython.pycapsule cimport PyCapsule_New
from libc.string cimport strcpy

cdef extern from "numpy/arrayobject.h":
    object PyDataMem_SetHandler(object handler)
    ctypedef struct PyDataMemAllocator:
        void *ctx
        void *(*malloc)(void *ctx, size_t size)
        void *(*calloc)(void *ctx, size_t nelem, size_t elsize)
        void *(*realloc)(void *ctx, void *ptr, size_t size)
        void (*free)(void *ctx, void *ptr, size_t size)
    ctypedef struct PyDataMem_Handler:
        char name[127]
        uint8_t version
        PyDataMemAllocator allocator

import itertools
import math

# the C loops of csrc/agc_nn.c run on the process's thread pool (csrc/agc_parallel.h)
agc_nn_set_parallel_for(parallel_for_entry())

cdef double SQRT1_2 = 0.70710678118654752440
cdef double INV_SQRT_2PI = 0.39894228040143267794
cdef double SQRT_2_PI = 0.79788456080286535588   # sqrt(2 / pi)
cdef double GELU_C = 0.044715

# PyTorch's reduction enum (at::Reduction)
cdef enum Reduction:
    REDUCTION_NONE = 0
    REDUCTION_MEAN = 1
    REDUCTION_SUM = 2

# the non-constant padding modes
cdef enum PadMode:
    PAD_REFLECT = 0
    PAD_REPLICATE = 1
    PAD_CIRCULAR = 2


# ================================================================ helpers

cdef inline cnp.ndarray cast_like(object arr, cnp.ndarray like):
    """arr with like's dtype (numpy may widen a scalar result)."""
    cdef cnp.ndarray a = as_array(arr)
    if cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(like):
        a = cast_array(a, dtype_of(like))  # (bfloat16 through float)
    return a


cdef inline Tensor const(object arr):
    """A constant (no history) from numpy values."""
    return make(as_array(arr))


cdef Tensor reduce_loss(Tensor loss, object reduction):
    """A loss tensor reduced as reduction says (recorded: MeanBackward0 / SumBackward0)."""
    if reduction == REDUCTION_MEAN:
        return OPS.mean(loss, None, False, None)
    if reduction == REDUCTION_SUM:
        return OPS.sum(loss, None, False, None)
    return loss


cdef cnp.ndarray reduce_loss_values(cnp.ndarray loss, object reduction):
    if reduction == REDUCTION_NONE:
        return loss
    # PyTorch reduces these losses with its mean / sum: the same summation order
    # (Note [Sum order] in csrc/agc_sum.h), through the reduce family's forwards
    if reduction == REDUCTION_MEAN:
        return cast_like(OPS.mean(const(loss), None, False, None)._data, loss)
    return cast_like(OPS.sum(const(loss), None, False, None)._data, loss)


cdef void check_not_differentiable(str fname, str arg, Tensor t) except *:
    if t is not None and requires_grad_of(t) and grad_enabled():
        raise RuntimeError(
            f"The function '{fname}' is not differentiable with respect to argument '{arg}'. "
            "This input cannot have requires_grad True.")


cdef tuple pair(object v, str name, int n=2):
    """An int or a sequence of n (or 1) ints as a tuple of n ints."""
    if isinstance(v, Tensor):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        if len(v) == 1:
            return tuple([int(v[0])] * n)
        if len(v) != n:
            raise RuntimeError(f"{name} must be a number or a tuple of {n} numbers")
        return tuple([int(a) for a in v])
    return tuple([int(v)] * n)


cdef inline Py_ssize_t floor_div(Py_ssize_t a, Py_ssize_t b):
    return a // b if a >= 0 else -((-a + b - 1) // b)


cdef inline Py_ssize_t conv_out(Py_ssize_t size, Py_ssize_t p_total, Py_ssize_t k,
                                Py_ssize_t d, Py_ssize_t s):
    return floor_div(size + p_total - d * (k - 1) - 1, s) + 1


# ================================================================ activations

# ---------------------------------------------------------------- leaky_relu

cdef cnp.ndarray leaky_relu_values(Tensor x, object slope):
    check_float_kernel(dtype_of(x._data), "leaky_relu_cpu")
    cdef cnp.ndarray xa = x._data
    with quiet():
        return cast_like(np.where(xa > 0, xa, xa * slope), xa)


cdef Tensor op_leaky_relu(Tensor self, object negative_slope):
    cdef Tensor result = make(pointwise_output(leaky_relu_values(self, negative_slope), (self,),
                                               -1, 0))
    record_LeakyReluBackward0(result, self, negative_slope)
    return result


cdef Tensor op_leaky_relu_(Tensor self, object negative_slope):
    # records LeakyReluBackward1 (saving the result), so not the generic in-place form
    cdef Tensor src = inplace_source(self, ())
    cdef Tensor result = make(leaky_relu_values(src, negative_slope))
    record_LeakyReluBackward1(result, src, negative_slope)
    return inplace_commit(self, result)


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


cdef Tensor op_rrelu_with_noise(Tensor self, Tensor noise, object lower, object upper,
                                bint training):
    """Leaky ReLU with slope (lower + upper) / 2, or in training a random slope per element
    <= 0: PyTorch's kernel draws, in order, one double uniform on [lower, upper) (bounds in
    the input's type) per such element and writes the slopes (1 elsewhere) into noise."""
    cdef cnp.ndarray x = self._data, slopes
    check_float_kernel(dtype_of(x), "rrelu_with_noise_out_cpu")
    if not training:
        values = leaky_relu_values(self, (float(lower) + float(upper)) / 2)
    else:
        neg = np.ascontiguousarray(x <= 0)
        bits = random_values(None, np.empty(int(neg.sum()), dtype=np.int64), -2 ** 63, None)
        u = (bits.view(np.uint64) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
        lo, hi = [float(np.asarray(b, dtype=x.dtype)) for b in (lower, upper)]
        slopes = np.ones(shape_of(x), dtype=x.dtype)
        slopes[neg] = u * (hi - lo) + lo
        if shape_of(noise._data) != shape_of(x):
            raise RuntimeError(f"rrelu_with_noise: noise of size {shape_str(shape_of(noise._data))}"
                               f" does not match the input's {shape_str(shape_of(x))}")
        noise._data[...] = slopes
        with quiet():
            values = cast_like(x * slopes, x)
    cdef Tensor result = make(values)
    record_RreluWithNoiseBackward0(result, self, noise, lower, upper, training)
    return result


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
    check_float_kernel(dtype_of(x._data), "elu_cpu")
    cdef cnp.ndarray xa = x._data
    with quiet():
        neg = np.expm1(xa * input_scale if input_scale != 1 else xa) * (alpha * scale)
        pos = xa * scale if scale != 1 else xa
        return cast_like(np.where(xa > 0, pos, neg), xa)


cdef Tensor op_elu(Tensor self, object alpha, object scale, object input_scale):
    cdef Tensor result = make(pointwise_output(elu_values(self, alpha, scale, input_scale),
                                               (self,), -1, 0))
    record_EluBackward0(result, self, alpha, scale, input_scale)
    return result


cdef Tensor op_elu_(Tensor self, object alpha, object scale, object input_scale):
    # records EluBackward1 (saving the result), so not the generic in-place form
    cdef Tensor src = inplace_source(self, ())
    cdef Tensor result = make(elu_values(src, alpha, scale, input_scale))
    record_EluBackward1(result, src, alpha, scale, input_scale)
    return inplace_commit(self, result)


cdef object celu_input_scale(object alpha):
    """The input scale of celu's derivative: PyTorch's 1 / alpha.toFloat() (alpha
    rounded to float32)."""
    return 1.0 / float(np.float32(alpha))


cdef Tensor op_celu(Tensor self, object alpha):
    cdef Tensor result = make(elu_values(self, alpha, 1.0, 1.0 / alpha))
    record_CeluBackward0(result, self, alpha)
    return result


cdef Tensor op_celu_(Tensor self, object alpha):
    cdef Tensor src = inplace_source(self, ())
    cdef Tensor result = make(elu_values(src, alpha, 1.0, 1.0 / alpha))
    record_CeluBackward1(result, src, alpha)
    return inplace_commit(self, result)


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
    cdef dtype d = dtype_of(x._data)
    check_not_bool_kernel(d, "hardtanh_cpu")
    cdef cnp.ndarray xa = x._data
    if d.category == CAT_INT:
        lo, hi = int(lo), int(hi)
    return cast_like(np.minimum(np.maximum(xa, lo), hi), xa)


cdef Tensor op_hardtanh(Tensor self, object min_val, object max_val):
    # (PyTorch's hardtanh writes into empty_like(self))
    cdef Tensor result = make(as_preserved(hardtanh_values(self, min_val, max_val), self._data))
    record_HardtanhBackward0(result, self, min_val, max_val)
    return result


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


cdef cnp.ndarray relu6_shifted_values(cnp.ndarray x):
    """min(max(x + 3, 0), 6) (NaN stays NaN), the core of both ops' kernels."""
    with quiet():
        return as_array(np.minimum(np.maximum(x + 3, 0), 6))


cdef Tensor op_hardsigmoid(Tensor self):
    cdef cnp.ndarray x = self._data
    check_float_kernel(dtype_of(x), "hardsigmoid_cpu")
    with quiet():
        out = cast_like(relu6_shifted_values(x) / 6, x)
    cdef Tensor result = make(pointwise_output(out, (self,), -1, 0))
    record_HardsigmoidBackward0(result, self)
    return result


cdef Tensor op_hardsigmoid_backward(Tensor grad_output, Tensor self):
    """grad_output / 6 inside (-3, 3), selected (a NaN gradient stays out of the flat
    parts); PyTorch has no derivative for it: its NotImplemented node."""
    cdef cnp.ndarray x = self._data, g = grad_output._data
    with quiet():
        out = np.where((x > -3) & (x < 3), g * SIXTH_F32, np.zeros((), g.dtype))
    cdef Tensor result = make(pointwise_output(cast_like(out, g), (grad_output, self), -1, 0))
    OPS.not_implemented_node(result, (grad_output, self), "hardsigmoid_backward")
    return result


cdef Tensor op_hardswish(Tensor self):
    cdef cnp.ndarray x = self._data
    check_float_kernel(dtype_of(x), "hardswish_cpu")
    with quiet():
        out = cast_like(x * relu6_shifted_values(x) / 6, x)
    cdef Tensor result = make(pointwise_output(out, (self,), -1, 0))
    record_HardswishBackward0(result, self)
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


cdef cnp.ndarray _threshold_values(cnp.ndarray x, object threshold, object value):
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


cdef Tensor _threshold_result(Tensor self, object threshold, object value):
    """threshold's values laid out as PyTorch's (Note [Pointwise output layout])."""
    return make(pointwise_output(_threshold_values(self._data, threshold, value), (self,),
                                 -1, 0))


cdef Tensor op_threshold(Tensor self, object threshold, object value):
    cdef Tensor result = _threshold_result(self, threshold, value)
    record_ThresholdBackward0(result, self, threshold, value)
    return result


cdef Tensor op_threshold_(Tensor self, object threshold, object value):
    cdef Tensor src = inplace_source(self, ())
    cdef Tensor result = make(_threshold_values(src._data, threshold, value))
    record_ThresholdBackward1(result, src, threshold, value)
    return inplace_commit(self, result)


cdef Tensor op_hardshrink(Tensor self, object lambd):
    cdef cnp.ndarray x = self._data
    check_float_kernel(dtype_of(x), "hardshrink_cpu")
    with quiet():
        out = np.where((x >= -lambd) & (x <= lambd), np.zeros((), x.dtype), x)
    cdef Tensor result = make(pointwise_output(as_array(out), (self,), -1, 0))
    record_HardshrinkBackward0(result, self, lambd)
    return result


cdef Tensor op_hardshrink_backward(Tensor grad_out, Tensor self, object lambd):
    cdef cnp.ndarray x = self._data, g = grad_out._data
    with quiet():
        out = np.where((x >= -lambd) & (x <= lambd), np.zeros((), g.dtype), g)
    cdef Tensor result = make(pointwise_output(as_array(out), (grad_out, self), -1, 0))
    record_HardshrinkBackwardBackward0(result, grad_out, self, lambd)
    return result


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


cdef Tensor op_softshrink_backward(Tensor grad_output, Tensor self, object lambd):
    cdef cnp.ndarray x = self._data, g = grad_output._data
    with quiet():
        out = np.where((x >= -lambd) & (x <= lambd), np.zeros((), g.dtype), g)
    cdef Tensor result = make(pointwise_output(as_array(out), (grad_output, self), -1, 0))
    record_SoftshrinkBackwardBackward0(result, grad_output, self, lambd)
    return result


# ---------------------------------------------------------------- silu, softplus

cdef Tensor op_silu(Tensor self):
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
    check_float_kernel(dtype_of(self._data), "softplus_cpu")
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

cdef Tensor op_mish(Tensor self):
    cdef cnp.ndarray x = self._data
    check_float_kernel(dtype_of(x), "mish_cpu")
    with quiet():
        out = cast_like(x * np.tanh(np.log1p(np.exp(x))), x)
    cdef Tensor result = make(pointwise_output(out, (self,), -1, 0))
    record_MishBackward0(result, self)
    return result


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


cdef Tensor op_logsigmoid(Tensor self):
    cdef cnp.ndarray x = self._data
    check_float_kernel(dtype_of(x), "log_sigmoid_cpu")
    with quiet():
        out = cast_like(np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x))), x)
    cdef Tensor result = make(pointwise_output(out, (self,), -1, 0))
    record_LogSigmoidBackward0(result, self)
    return result


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
    check_float_kernel(dtype_of(x._data), "log_softmax_lastdim_kernel_impl" if log
                       else "softmax_lastdim_kernel_impl")
    cdef cnp.ndarray xa = x._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    cdef Py_ssize_t k = wrap_dim(dim, nd)
    cdef cnp.ndarray w = opmath(xa.reshape(1) if nd == 0 else xa)
    if k == cnp.PyArray_NDIM(w) - 1 and c_float(w) and cnp.PyArray_IS_C_CONTIGUOUS(w):
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


cdef Tensor op__softmax_backward_data(Tensor grad_output, Tensor output, object dim,
                                      dtype input_dtype):
    cdef cnp.ndarray ga = opmath(grad_output._data), ya = opmath(output._data)
    if softmax_rows_pair(ga, ya, dim):
        out = softmax_rows(ga, ya, False)
    else:
        with quiet():
            out = ya * (ga - sum_keep(ga * ya, dim))
    cdef Tensor result = make(cast_like(out, grad_output._data))
    record_SoftmaxBackwardDataBackward0(result, grad_output, output, dim, input_dtype)
    return result


cdef Tensor op__log_softmax_backward_data(Tensor grad_output, Tensor output, object dim,
                                          dtype input_dtype):
    cdef cnp.ndarray ga = opmath(grad_output._data), ya = opmath(output._data)
    if softmax_rows_pair(ga, ya, dim):
        out = softmax_rows(ga, ya, True)
    else:
        with quiet():
            out = ga - np.exp(ya) * sum_keep(ga, dim)
    cdef Tensor result = make(cast_like(out, grad_output._data))
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


# ================================================================ scaled_dot_product_attention

# Note [CPU flash attention]
# F.scaled_dot_product_attention takes PyTorch's CPU flash kernel where PyTorch would
# (nn.functional's _cpu_flash_attention decides): one node,
# ScaledDotProductFlashAttentionForCpuBackward0, saving query, key, value, the output and
# each row's logsumexp, where the math path records matmul and softmax. The backward
# recomputes the attention weights as exp(scores - logsumexp) instead of keeping them.
# A fully masked row (every score -inf) attends to nothing: output 0 and logsumexp 0 (the
# kernel's values, not the math path's NaN), so its weights recompute to 0 too. Half
# precision computes in float, as the kernel's accumulation type.

cdef tuple _flash_operands(Tensor query, Tensor key, Tensor value):
    """query, key and value as arrays of the computation's dtype, key and value repeated
    over the query's heads (grouped-query attention: each key/value head serves
    Hq / Hk consecutive query heads), and that repeat count."""
    cdef cnp.ndarray q = query._data
    ct = np.float32 if q.itemsize < 4 else q.dtype
    q = q.astype(ct, copy=False)
    k = key._data.astype(ct, copy=False)
    v = value._data.astype(ct, copy=False)
    cdef Py_ssize_t reps = q.shape[1] // k.shape[1]
    if reps > 1:
        k = np.repeat(k, reps, axis=1)
        v = np.repeat(v, reps, axis=1)
    return q, k, v, reps


cdef cnp.ndarray _flash_scores(cnp.ndarray q, cnp.ndarray k, Tensor attn_mask, bint is_causal,
                               double scale):
    """scale * q k^T with the additive mask, -inf above the diagonal when causal (aligned
    top-left, as the kernel's)."""
    cdef cnp.ndarray s = np.matmul(q, np.swapaxes(k, -1, -2))
    s *= scale
    if is_causal:
        s[..., ~np.tril(np.ones((s.shape[2], s.shape[3]), dtype=bool))] = -np.inf
    if attn_mask is not None:
        s += attn_mask._data.astype(s.dtype, copy=False)
    return s


cdef cnp.ndarray _heads_inner(object values, object dtype):
    """values (B, H, n, ...) as dtype, stored (B, n, H, ...): the kernel allocates its
    logsumexp and gradients so and returns them transposed."""
    shape = values.shape
    cdef cnp.ndarray out = np.empty((shape[0], shape[2], shape[1]) + shape[3:],
                                    dtype=dtype).swapaxes(1, 2)
    out[...] = values
    return out


cdef double _flash_scale(Tensor query, object scale):
    """sdp::calculate_scale: 1 / sqrt(head size) unless given."""
    return 1.0 / math.sqrt(cnp.PyArray_DIMS(query._data)[3]) if scale is None else scale


cdef tuple op__scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value,
                                                          object dropout_p, bint is_causal,
                                                          Tensor attn_mask, object scale):
    """(output, logsumexp) of (B, Hq, L, E) query, (B, Hk, S, E) key and value
    (Note [CPU flash attention]); dropout_p is 0 on this path."""
    cdef cnp.ndarray qa = query._data
    q, k, v, reps = _flash_operands(query, key, value)
    with quiet():
        s = _flash_scores(q, k, attn_mask, is_causal, _flash_scale(query, scale))
        m = s.max(-1, keepdims=True)
        empty = np.isneginf(m)
        m[empty] = 0
        e = np.exp(s - m)
        total = e.sum(-1, keepdims=True)
        total[empty] = 1
        o = np.matmul(e, v) / total
        o[np.broadcast_to(empty, o.shape)] = 0
        lse = m + np.log(total)
    # the kernel's results: output as empty_like(query) (Note [Composite output layout]),
    # logsumexp stored (B, L, H)
    cdef Tensor output = make(as_preserved(o.astype(qa.dtype, copy=False), qa))
    cdef Tensor logsumexp = make(_heads_inner(lse[..., 0], q.dtype))
    record_ScaledDotProductFlashAttentionForCpuBackward0(output, logsumexp, query, key, value,
                                                         dropout_p, is_causal, attn_mask, scale)
    return (output, logsumexp)


cdef Tensor sdpa_flash_backward(Tensor grad, Tensor query, Tensor key, Tensor value,
                                Tensor output, Tensor logsumexp, object dropout_p,
                                object is_causal, Tensor attn_mask, object scale, int which):
    """The gradient of _scaled_dot_product_flash_attention_for_cpu for query (which 0), key
    (1) or value (2), stored (B, n, H, E) as the kernel's. With W the recomputed weights
    and D = rowsum(grad * output): dV = W^T grad, dS = W * (grad V^T - D),
    dQ = scale dS K, dK = scale dS^T Q; a grouped key/value head sums over its query heads.
    PyTorch has no derivative for it: its NotImplemented node."""
    q, k, v, reps = _flash_operands(query, key, value)
    cdef double sc = _flash_scale(query, scale)
    ct = q.dtype
    g = grad._data.astype(ct, copy=False)
    with quiet():
        w = np.exp(_flash_scores(q, k, attn_mask, is_causal, sc)
                   - logsumexp._data.astype(ct, copy=False)[..., None])
        if which == 2:
            d = np.matmul(np.swapaxes(w, -1, -2), g)
        else:
            ds = np.matmul(g, np.swapaxes(v, -1, -2))
            ds -= (g * output._data.astype(ct, copy=False)).sum(-1, keepdims=True)
            ds *= w
            d = np.matmul(ds, k) if which == 0 else np.matmul(np.swapaxes(ds, -1, -2), q)
            d *= sc
    if which and reps > 1:     # (summed before the cast to the input's dtype)
        d = d.reshape(d.shape[0], d.shape[1] // reps, reps, d.shape[2], d.shape[3]).sum(2)
    cdef Tensor result = make(_heads_inner(d, (query, key, value)[which]._data.dtype))
    OPS.not_implemented_node(result, (grad, query, key, value, output, logsumexp),
                             "_scaled_dot_product_flash_attention_for_cpu_backward")
    return result


def scaled_dot_product_flash_attention_cpu(Tensor query, Tensor key, Tensor value,
                                           Tensor attn_mask, bint is_causal, object scale):
    """F.scaled_dot_product_attention on PyTorch's CPU flash path: nn.functional has
    checked the arguments and chosen the path (Note [CPU flash attention]); a boolean
    mask comes as its additive float form.

    >>> import autograd_core as torch
    >>> from autograd_core.ops import nn
    >>> q = torch.ones(1, 1, 2, 2, requires_grad=True)
    >>> nn.scaled_dot_product_flash_attention_cpu(q, q, q, None, False, None).grad_fn.name()
    'ScaledDotProductFlashAttentionForCpuBackward0'
    """
    return op__scaled_dot_product_flash_attention_for_cpu(
        query, key, value, 0.0, is_causal, attn_mask, None if scale is None else float(scale))[0]



def check_sdpa_input(Tensor query, Tensor key, Tensor value, Tensor attn_mask):
    """PyTorch's validate_sdpa_input, before either path: its checks, order and messages
    (the C++ dtype names, the doubled spaces included).

    >>> import autograd_core as torch
    >>> from autograd_core.ops import nn
    >>> nn.check_sdpa_input(torch.ones(2, 2), torch.ones(2, 2), torch.ones(2, 2), None)
    """
    cdef dtype dq = dtype_of(query._data), dk = dtype_of(key._data), dv = dtype_of(value._data)
    if dq is not dk or dq is not dv:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {dq.cpp_name} key.dtype: {dk.cpp_name} and "
                           f"value.dtype: {dv.cpp_name} instead.")
    if (cnp.PyArray_NDIM(query._data) < 2 or cnp.PyArray_NDIM(key._data) < 2
            or cnp.PyArray_NDIM(value._data) < 2):
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {cnp.PyArray_NDIM(query._data)} key.dim: "
                           f"{cnp.PyArray_NDIM(key._data)} and value.dim: "
                           f"{cnp.PyArray_NDIM(value._data)} instead.")
    if attn_mask is None:
        return
    cdef dtype dm = dtype_of(attn_mask._data)
    if dm is not bool_ and dm is not float32 and dm is not dq:
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {dm.cpp_name} and  query.dtype: "
                           f"{dq.cpp_name} instead.")


def scaled_dot_product_attention_math(Tensor query, Tensor key, Tensor value,
                                      Tensor attn_bias, double dropout_p, double scale):
    """F.scaled_dot_product_attention off the flash path, as PyTorch's math composite
    records it: query and key are each scaled by sqrt(scale) before their product (so
    the product's node saves those copies, not the caller's tensors: a later in-place
    write into a query that needs no gradient is no error), the additive mask is added
    in place, and a row masked throughout gives zeros (_safe_softmax). key and value
    come with their heads repeated for GQA already.

    >>> import autograd_core as torch
    >>> from autograd_core.ops import nn
    >>> q = torch.ones(1, 2, 2, requires_grad=True)
    >>> nn.scaled_dot_product_attention_math(q, q, q, None, 0.0, 0.5).grad_fn.name()
    'UnsafeViewBackward0'
    """
    cdef double f = sqrt(fabs(scale))
    cdef Tensor attn = OPS.matmul(OPS.mul_scalar(query, -f if scale < 0 else f),
                                  OPS.mul_scalar(OPS.transpose(key, -2, -1), f))
    if attn_bias is not None:
        attn = OPS.add_(attn, attn_bias, 1)
    attn = op__safe_softmax(attn, -1, None)
    if dropout_p > 0.0:
        attn = OPS.dropout(attn, dropout_p, True)
    return OPS.matmul(attn, value)


# ================================================================ losses

cdef inline object numel(Tensor t):
    return cnp.PyArray_SIZE(t._data)


cdef cnp.ndarray difference_values(Tensor x, Tensor t):
    """x - t with PyTorch's promotion (F broadcast them already)."""
    cdef dtype rt = result_type((x, t))
    with quiet():
        return cast_array(as_array(cast_array(x._data, rt) - cast_array(t._data, rt)), rt)


# ---------------------------------------------------------------- mse, smooth l1, huber

cdef Tensor op_mse_loss(Tensor self, Tensor target, object reduction):
    check_float_kernel(dtype_of(self._data), "mse_cpu")
    cdef cnp.ndarray d = difference_values(self, target)
    cdef Tensor result
    with quiet():
        result = make(reduce_loss_values(cast_like(d * d, d), reduction))
    record_MseLossBackward0(result, self, target, reduction)
    return result


# Note [Loss backwards are ops]
# As in PyTorch, the first derivative of mse_loss, smooth_l1_loss and huber_loss is an
# op of its own (its kernel: the difference's derivative times grad_output, divided by
# the count for a mean), so that under create_graph it records PyTorch's
# *LossBackwardBackward0 node, whose formulas are PyTorch's: d/dself multiplies
# grad * grad_output by the 0/1 mask of the quadratic part (a NaN or inf gradient
# spreads to the linear part as in PyTorch), d/dgrad_output is the op again
# (reduction none) or (op(grad_output=1) * grad).sum().

cdef inline object loss_norm(Tensor self, object reduction, double scale):
    """scale, divided by the element count for a mean (NaN for an empty mean)."""
    cdef object n = numel(self)
    if reduction == REDUCTION_MEAN:
        return scale / n if n else float("nan")
    return scale


cdef Tensor ones_as(Tensor t):
    """A constant of ones with t's shape and dtype."""
    return make(np.ones(shape_of(t._data), dtype=t._data.dtype))


cdef Tensor reduced_loss_grad_output(Tensor grad, Tensor r):
    """(r * grad).sum(): d(loss backward)/d grad_output of a reduced loss, r being the
    backward at grad_output = 1 (Note [Loss backwards are ops])."""
    return OPS.sum(OPS.mul(r, grad), None, False, None)


cdef Tensor loss_masked_double_backward(Tensor grad, Tensor self, Tensor target,
                                        object reduction, object bound, bint by_bound):
    """grad * (|self - target| < bound) (/ bound if by_bound) (/ numel for a mean):
    PyTorch's smooth_l1 (by_bound; zeros for beta 0) and huber double backwards. A
    product, not a selection, as PyTorch's (Note [Loss backwards are ops])."""
    if by_bound and bound == 0:
        return zeros_like(grad)
    cdef cnp.ndarray d = difference_values(self, target)
    with quiet():
        inside = make(as_array((np.abs(d) < bound).astype(grad._data.dtype)))
    cdef Tensor g = OPS.mul(grad, inside)
    if by_bound:
        g = OPS.div_scalar(g, bound)
    if reduction == REDUCTION_MEAN:
        g = OPS.div_scalar(g, numel(self))
    return g


cdef Tensor mse_loss_double_backward(Tensor grad, Tensor self, object reduction):
    """2 * grad (/ numel for a mean), PyTorch's mse_loss_double_backward."""
    cdef Tensor g = OPS.mul_scalar(grad, 2)
    if reduction == REDUCTION_MEAN:
        g = OPS.div_scalar(g, numel(self))
    return g


cdef Tensor op_mse_loss_backward(Tensor grad_output, Tensor self, Tensor target,
                                 object reduction):
    """2 * (self - target) * grad_output (/ numel for a mean)."""
    cdef cnp.ndarray d = difference_values(self, target)
    with quiet():
        out = cast_like(d * loss_norm(self, reduction, 2.0) * grad_output._data, d)
    cdef Tensor result = make(out)
    record_MseLossBackwardBackward0(result, grad_output, self, target, reduction)
    return result


cdef Tensor op_smooth_l1_loss(Tensor self, Tensor target, object reduction, object beta):
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    check_float_kernel(dtype_of(self._data), "smooth_l1_cpu")
    cdef cnp.ndarray d = difference_values(self, target)
    with quiet():
        ad = np.abs(d)
        loss = np.where(ad < beta, 0.5 * d * d / beta, ad - 0.5 * beta)
    cdef Tensor result = make(reduce_loss_values(cast_like(loss, d), reduction))
    record_SmoothL1LossBackward0(result, self, target, reduction, beta)
    return result


cdef Tensor op_smooth_l1_loss_backward(Tensor grad_output, Tensor self, Tensor target,
                                      object reduction, object beta):
    """(self - target) / beta where |self - target| < beta, else its sign, times
    grad_output (/ numel for a mean)."""
    cdef cnp.ndarray d = difference_values(self, target)
    with quiet():
        coef = np.where(np.abs(d) < beta, d / beta if beta else d, np.sign(d))
        out = cast_like(coef * grad_output._data * loss_norm(self, reduction, 1.0), d)
    cdef Tensor result = make(out)
    record_SmoothL1LossBackwardBackward0(result, grad_output, self, target, reduction, beta)
    return result


cdef Tensor op_huber_loss(Tensor self, Tensor target, object reduction, object delta):
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    check_float_kernel(dtype_of(self._data), "huber_cpu")
    cdef cnp.ndarray d = difference_values(self, target)
    with quiet():
        ad = np.abs(d)
        loss = np.where(ad < delta, 0.5 * d * d, delta * (ad - 0.5 * delta))
    cdef Tensor result = make(reduce_loss_values(cast_like(loss, d), reduction))
    record_HuberLossBackward0(result, self, target, reduction, delta)
    return result


cdef Tensor op_huber_loss_backward(Tensor grad_output, Tensor self, Tensor target,
                                  object reduction, object delta):
    """(self - target) where |self - target| < delta, else delta * its sign, times
    grad_output (/ numel for a mean)."""
    cdef cnp.ndarray d = difference_values(self, target)
    with quiet():
        coef = np.where(np.abs(d) < delta, d, np.sign(d) * delta)
        out = cast_like(coef * grad_output._data * loss_norm(self, reduction, 1.0), d)
    cdef Tensor result = make(out)
    record_HuberLossBackwardBackward0(result, grad_output, self, target, reduction, delta)
    return result


# ---------------------------------------------------------------- binary cross entropy

cdef double BCE_EPS = 1e-12


cdef Tensor op_binary_cross_entropy(Tensor self, Tensor target, Tensor weight, object reduction):
    check_float_kernel(dtype_of(self._data), "binary_cross_entropy")
    check_not_differentiable("binary_cross_entropy", "weight", weight)
    cdef cnp.ndarray xa = self._data, ta = cast_array(target._data, dtype_of(xa))
    if np.any((xa < 0) | (xa > 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    with quiet():
        loss = -(ta * np.maximum(np.log(xa), -100) + (1 - ta) * np.maximum(np.log1p(-xa), -100))
        if weight is not None:
            loss = loss * weight._data
    cdef Tensor result = make(reduce_loss_values(cast_like(loss, xa), reduction))
    record_BinaryCrossEntropyBackward0(result, self, target, weight, reduction)
    return result


cdef Tensor bce_scale(Tensor grad, Tensor weight, object reduction, object n):
    """grad (/ n for a mean), times weight."""
    cdef Tensor scale = OPS.div(grad, n, None) if reduction == REDUCTION_MEAN else grad
    return OPS.mul(scale, weight) if weight is not None else scale


cdef Tensor op_binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target,
                                             Tensor weight, object reduction):
    cdef cnp.ndarray xa = self._data
    with quiet():
        v = (xa - target._data) / np.maximum((1 - xa) * xa, BCE_EPS) * grad_output._data
        if weight is not None:
            v = v * weight._data
        if reduction == REDUCTION_MEAN:
            v = v / cnp.PyArray_SIZE(xa)
    if np.shape(v) != shape_of(xa):
        v = np.broadcast_to(v, shape_of(xa)).copy()
    cdef Tensor result = make(cast_like(v, xa))
    record_BinaryCrossEntropyBackwardBackward0(result, grad_output, self, target, weight, reduction)
    return result


cdef Tensor binary_cross_entropy_target_backward(Tensor grad, Tensor self, Tensor target,
                                                 Tensor weight, object reduction):
    """-log(self / (1 - self)) * grad (* weight, / numel for a mean)."""
    return OPS.mul(OPS.neg(OPS.log(OPS.div(self, OPS.rsub(self, 1, 1), None))),
                   bce_scale(grad, weight, reduction, numel(self)))


cdef Tensor binary_cross_entropy_double_backward_grad_output(
        Tensor grad, Tensor self, Tensor target, Tensor weight, object reduction):
    """d binary_cross_entropy_backward / d grad_output (PyTorch's formula, with its eps)."""
    cdef Tensor ggo = OPS.div(OPS.sub(self, target, 1),
                              OPS.mul(OPS.add(self, BCE_EPS, 1), OPS.rsub(self, 1 + BCE_EPS, 1)),
                              None)
    if weight is not None:
        ggo = OPS.mul(ggo, weight)
    return reduce_loss(OPS.mul(ggo, grad), reduction)


cdef Tensor binary_cross_entropy_double_backward(Tensor grad_output, Tensor grad, Tensor self,
                                                 Tensor target, Tensor weight, object reduction):
    """d binary_cross_entropy_backward / d self."""
    cdef Tensor num = OPS.add(OPS.sub(OPS.mul(self, self), OPS.mul(OPS.mul(self, target), 2), 1),
                              target, 1)
    cdef Tensor den = OPS.mul(OPS.pow(OPS.add(self, BCE_EPS, 1), 2),
                              OPS.pow(OPS.rsub(self, 1 + BCE_EPS, 1), 2))
    cdef Tensor gx = OPS.mul(OPS.div(num, den, None), OPS.mul(grad, grad_output))
    if weight is not None:
        gx = OPS.mul(gx, weight)
    if reduction == REDUCTION_MEAN:
        gx = OPS.div(gx, numel(self), None)
    return gx


cdef Tensor binary_cross_entropy_double_backward_target(Tensor grad, Tensor grad_output,
                                                        Tensor self, Tensor target,
                                                        Tensor weight, object reduction):
    """d binary_cross_entropy_backward / d target."""
    cdef Tensor res = OPS.neg(OPS.mul(grad, grad_output))
    if weight is not None:
        res = OPS.mul(res, weight)
    cdef cnp.ndarray xa = self._data
    with quiet():
        denom = const(np.maximum((1 - xa) * xa, BCE_EPS).astype(xa.dtype))
    cdef Tensor gt = OPS.div(res, denom, None)
    if reduction == REDUCTION_MEAN:
        gt = OPS.div(gt, numel(self), None)
    return gt


cdef Tensor op_binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor weight,
                                                Tensor pos_weight, object reduction):
    check_float_kernel(dtype_of(self._data), "binary_cross_entropy_with_logits")
    check_not_differentiable("binary_cross_entropy_with_logits", "weight", weight)
    check_not_differentiable("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    cdef cnp.ndarray xa = self._data, ta = cast_array(target._data, dtype_of(xa))
    with quiet():
        log_sigmoid = np.minimum(xa, 0) - np.log1p(np.exp(-np.abs(xa)))
        if pos_weight is not None:
            log_sigmoid = log_sigmoid * ((pos_weight._data - 1) * ta + 1)
        loss = (1 - ta) * xa - log_sigmoid
        if weight is not None:
            loss = loss * weight._data
    cdef Tensor result = make(reduce_loss_values(cast_like(loss, xa), reduction))
    record_BinaryCrossEntropyWithLogitsBackward0(result, self, target, weight, pos_weight,
                                                 reduction)
    return result


cdef object bce_logits_count(Tensor self, Tensor target, Tensor weight, Tensor pos_weight):
    """The number of loss elements (the inputs broadcast together)."""
    shapes = [shape_of(t._data) for t in (self, target, weight, pos_weight) if t is not None]
    return int(np.prod(np.broadcast_shapes(*shapes), dtype=np.int64))


cdef Tensor binary_cross_entropy_with_logits_backward(Tensor grad, Tensor self, Tensor target,
                                                      Tensor weight, Tensor pos_weight,
                                                      object reduction):
    """(sigmoid(x) - t) * scale, or with pos_weight ((pw * t + 1 - t) * sigmoid(x) - pw * t)."""
    cdef Tensor scale = bce_scale(grad, weight, reduction,
                                  bce_logits_count(self, target, weight, pos_weight))
    cdef Tensor s = OPS.sigmoid(self), gx, pt
    if pos_weight is not None:
        pt = OPS.mul(pos_weight, target)
        gx = OPS.sub(OPS.mul(OPS.sub(OPS.add(pt, 1, 1), target, 1), s), pt, 1)
    else:
        gx = OPS.sub(s, target, 1)
    return OPS.sum_to(OPS.mul(gx, scale), shape_of(self._data))


cdef Tensor binary_cross_entropy_with_logits_target_backward(Tensor grad, Tensor self,
                                                             Tensor target, Tensor weight,
                                                             Tensor pos_weight,
                                                             object reduction):
    """-x * scale, or with pos_weight (pw * softplus(-x) - softplus(x)) * scale."""
    cdef Tensor scale = bce_scale(grad, weight, reduction,
                                  bce_logits_count(self, target, weight, pos_weight))
    cdef Tensor gt
    if pos_weight is not None:
        gt = OPS.sub(OPS.mul(pos_weight, op_softplus(OPS.neg(self), 1, 20)),
                     op_softplus(self, 1, 20), 1)
    else:
        gt = OPS.neg(self)
    return OPS.sum_to(OPS.mul(gt, scale), shape_of(target._data))


# ---------------------------------------------------------------- nll_loss

cdef tuple nll_rows(Tensor self, Tensor target, Tensor weight, object ignore_index):
    """The rows of a 1-D, 2-D or 4-D nll_loss: (the input as (M, C), targets (M,)
    clamped to a class, valid (M,), per-row weights (M,))."""
    cdef cnp.ndarray xa = self._data
    cdef int nd = cnp.PyArray_NDIM(xa)
    cdef tuple xs = shape_of(xa)
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
    if weight is not None:
        wv = np.where(valid, weight._data.astype(xa.dtype)[ts], 0).astype(xa.dtype)
    else:
        wv = valid.astype(xa.dtype)
    return xm, ts, valid, wv


cdef tuple nll_c_operands(Tensor self, Tensor target, Tensor weight, object ignore_index):
    """The operands of the C loops of nll_loss and its gradient, when they take this input
    (a float input, an ignore_index that fits int64): (x C-contiguous, targets as C-contiguous
    int64, weight in x's dtype or None, N, C, S) for x as (N, C, S); else None."""
    cdef cnp.ndarray xa = self._data
    cdef int nd = cnp.PyArray_NDIM(xa)
    if not c_float(xa) or type(ignore_index) is not int or not (-2**63 <= ignore_index < 2**63):
        return None
    cdef tuple xs = shape_of(xa)
    cdef Py_ssize_t N = xs[0] if nd >= 2 else 1
    cdef Py_ssize_t C = xs[1] if nd >= 2 else xs[0]
    cdef Py_ssize_t S = xs[2] * xs[3] if nd == 4 else 1
    wa = None
    if weight is not None:
        wa = np.ascontiguousarray(weight._data, dtype=xa.dtype)
    return (np.ascontiguousarray(xa), np.ascontiguousarray(target._data, dtype=np.int64), wa,
            N, C, S)


cdef Tensor nll_loss_core(Tensor self, Tensor target, Tensor weight, object reduction,
                          object ignore_index):
    """nll_loss of a 1-D, 2-D (NllLossBackward0) or 4-D (NllLoss2DBackward0) input."""
    cdef cnp.ndarray xa = self._data
    cdef tuple ops = nll_c_operands(self, target, weight, ignore_index)
    if ops is not None:
        out = nll_loss_c(ops, ignore_index, reduction, shape_of(target._data))
    else:
        out = nll_loss_numpy(self, target, weight, reduction, ignore_index)
    cdef Tensor result = make(cast_like(out, xa))
    if cnp.PyArray_NDIM(xa) == 4:
        record_NllLoss2DBackward0(result, self, target, weight, reduction, ignore_index)
    else:
        record_NllLossBackward0(result, self, target, weight, reduction, ignore_index)
    return result


cdef object nll_loss_numpy(Tensor self, Tensor target, Tensor weight, object reduction,
                           object ignore_index):
    cdef cnp.ndarray xa = self._data
    xm, ts, valid, wv = nll_rows(self, target, weight, ignore_index)
    cdef Py_ssize_t M = ts.shape[0]
    with quiet():
        picked = xm[np.arange(M), ts] if M else np.zeros(0, xa.dtype)
        li = np.where(valid, -wv * picked, 0).astype(xa.dtype)
        if reduction == REDUCTION_NONE:
            return li.reshape(shape_of(target._data))
        if reduction == REDUCTION_SUM:
            return np.sum(li)
        return np.sum(li) / np.sum(wv)


cdef cnp.ndarray nll_loss_c(tuple ops, object ignore_index, object reduction, tuple out_shape):
    """nll_loss through the C loop in one pass over the targets (see nll_c_operands)."""
    cdef cnp.ndarray xc = ops[0], tc = ops[1], wa = ops[2]
    cdef Py_ssize_t N = ops[3], C = ops[4], S = ops[5], bad
    cdef int64_t ignore = ignore_index
    cdef int red = reduction
    cdef cnp.ndarray out = np.empty(out_shape if red == REDUCTION_NONE else (), dtype=xc.dtype)
    cdef void *pw = cnp.PyArray_DATA(wa) if wa is not None else NULL
    if cnp.PyArray_TYPE(xc) == cnp.NPY_FLOAT32:
        bad = agc_nll_loss_f32(<float *>cnp.PyArray_DATA(xc), <int64_t *>cnp.PyArray_DATA(tc),
                               <float *>pw, ignore, N, C, S, red, <float *>cnp.PyArray_DATA(out))
    else:
        bad = agc_nll_loss_f64(<double *>cnp.PyArray_DATA(xc), <int64_t *>cnp.PyArray_DATA(tc),
                               <double *>pw, ignore, N, C, S, red, <double *>cnp.PyArray_DATA(out))
    if bad >= 0:
        raise IndexError(f"Target {int((<int64_t *>cnp.PyArray_DATA(tc))[bad])} is out of bounds.")
    return out


cdef Tensor op_nll_loss(Tensor self, Tensor target, Tensor weight, object reduction,
                        object ignore_index):
    cdef int nd = cnp.PyArray_NDIM(self._data)
    cdef dtype td = dtype_of(target._data)
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    if td is not int64 and td is not uint8:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {td.scalar_name}")
    cdef tuple xs = shape_of(self._data), tsh = shape_of(target._data)
    if nd >= 2 and (len(tsh) == 0 or tsh[0] != xs[0]):
        raise ValueError(f"Expected input batch_size ({xs[0]}) to match target batch_size "
                         f"({tsh[0] if tsh else 0}).")
    if nd <= 2 and len(tsh) > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if nd == 1 and len(tsh) != 0 and not (len(tsh) == 1 and tsh[0] == 1):
        raise RuntimeError(f"Expected target size [], got {shape_str(tsh)}")
    cdef Py_ssize_t C = xs[1] if nd >= 2 else xs[0]
    if weight is not None and cnp.PyArray_SIZE(weight._data) != C:
        raise RuntimeError(
            f"weight tensor should be defined either for all {C} classes or no classes but got "
            f"weight tensor of shape: {shape_str(shape_of(weight._data))}")
    check_not_differentiable("nll_loss2d_forward" if nd >= 3 else "nll_loss_forward", "weight",
                             weight)
    check_float_kernel(dtype_of(self._data), "nll_loss_out_frame")
    if nd <= 2 or nd == 4:
        if nd == 4 and tsh[1:] != xs[2:]:
            raise RuntimeError(
                f"size mismatch (got input: {shape_str(xs)} , target: {shape_str(tsh)}")
        if nd == 1 and len(tsh) == 1:
            target = make(target._data.reshape(()))
        return nll_loss_core(self, target, weight, reduction, ignore_index)
    # (N, C, d1, ..., dk), k != 2: as (N, C, 1, d1*...*dk), PyTorch's nll_loss_nd
    out_size = (xs[0],) + xs[2:]
    if tsh[1:] != xs[2:]:
        raise RuntimeError(f"Expected target size {shape_str(out_size)}, got {shape_str(tsh)}")
    cdef Tensor x4 = (self if cnp.PyArray_IS_C_CONTIGUOUS(self._data)
                      else OPS.clone(self, _contiguous_format))
    if cnp.PyArray_SIZE(self._data) > 0:
        x4 = OPS.view(x4, (xs[0], C, 1, -1))
        t4 = make(np.ascontiguousarray(target._data).reshape(xs[0], 1, -1))
    else:
        x4 = OPS.view(x4, (xs[0], C, 0, 0))
        t4 = make(np.ascontiguousarray(target._data).reshape(xs[0], 0, 0))
    cdef Tensor r = nll_loss_core(x4, t4, weight, reduction, ignore_index)
    if reduction == REDUCTION_NONE:
        r = OPS.view(r, out_size)
    return r


cdef Tensor op_nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor weight,
                                 object reduction, object ignore_index):
    """The gradient of nll_loss: grad_output times -weight[target] at each target (divided
    by the total weight for a mean)."""
    cdef cnp.ndarray xa = self._data
    cdef int nd = cnp.PyArray_NDIM(xa)
    cdef tuple xs = shape_of(xa)
    if nd == 1 and cnp.PyArray_NDIM(target._data) == 1:
        target = make(target._data.reshape(()))
    cdef tuple ops = nll_c_operands(self, target, weight, ignore_index)
    cdef cnp.ndarray go = grad_output._data
    cdef bint per_element = reduction == REDUCTION_NONE
    if ops is not None and cnp.PyArray_SIZE(go) == (cnp.PyArray_SIZE(target._data)
                                                    if per_element else 1):
        out = nll_loss_backward_c(ops, cast_like(go, xa), ignore_index, reduction, xs)
    else:
        out = nll_loss_backward_numpy(grad_output, self, target, weight, reduction, ignore_index)
    cdef Tensor result = make(out)
    if nd == 4:
        record_NllLoss2DBackwardBackward0(result, grad_output, self, target, weight, reduction,
                                          ignore_index)
    else:
        record_NllLossBackwardBackward0(result, grad_output, self, target, weight, reduction,
                                        ignore_index)
    return result


cdef cnp.ndarray nll_loss_backward_c(tuple ops, cnp.ndarray go, object ignore_index,
                                     object reduction, tuple xs):
    """nll_loss's gradient through the C loop (see nll_c_operands); go in x's dtype."""
    cdef cnp.ndarray xc = ops[0], tc = ops[1], wa = ops[2]
    cdef Py_ssize_t N = ops[3], C = ops[4], S = ops[5], bad
    cdef int64_t ignore = ignore_index
    cdef int red = reduction
    cdef cnp.ndarray gc = np.ascontiguousarray(go)
    cdef cnp.ndarray gx = np.empty(xs, dtype=xc.dtype)
    cdef void *pw = cnp.PyArray_DATA(wa) if wa is not None else NULL
    if cnp.PyArray_TYPE(xc) == cnp.NPY_FLOAT32:
        bad = agc_nll_loss_backward_f32(<float *>cnp.PyArray_DATA(gc),
                                        <int64_t *>cnp.PyArray_DATA(tc), <float *>pw, ignore,
                                        N, C, S, red, <float *>cnp.PyArray_DATA(gx))
    else:
        bad = agc_nll_loss_backward_f64(<double *>cnp.PyArray_DATA(gc),
                                        <int64_t *>cnp.PyArray_DATA(tc), <double *>pw, ignore,
                                        N, C, S, red, <double *>cnp.PyArray_DATA(gx))
    if bad >= 0:
        raise IndexError(f"Target {int((<int64_t *>cnp.PyArray_DATA(tc))[bad])} is out of bounds.")
    return gx


cdef cnp.ndarray nll_loss_backward_numpy(Tensor grad_output, Tensor self, Tensor target,
                                         Tensor weight, object reduction, object ignore_index):
    cdef cnp.ndarray xa = self._data
    cdef int nd = cnp.PyArray_NDIM(xa)
    cdef tuple xs = shape_of(xa)
    cdef Py_ssize_t C = xs[1] if nd >= 2 else xs[0]
    xm, ts, valid, wv = nll_rows(self, target, weight, ignore_index)
    cdef Py_ssize_t M = ts.shape[0]
    coef = np.zeros((M, C), dtype=xa.dtype)
    with quiet():
        vals = -wv / np.sum(wv) if reduction == REDUCTION_MEAN else -wv
    rows = np.arange(M)
    coef[rows[valid], ts[valid]] = vals[valid]
    cdef bint per_element = reduction == REDUCTION_NONE
    if nd == 1:
        coef = coef.reshape(C)
        gb = ()
    elif nd == 2:
        gb = (xs[0], 1) if per_element else ()
    else:
        coef = np.moveaxis(coef.reshape((xs[0],) + xs[2:] + (C,)), -1, 1)
        gb = ((xs[0], 1) + xs[2:]) if per_element else ()
    with quiet():
        out = grad_output._data.reshape(gb) * coef
    return np.ascontiguousarray(cast_like(out, xa))


# ---------------------------------------------------------------- cross_entropy

cdef Tensor class_weight_view(Tensor weight, int nd, int class_dim, Py_ssize_t C):
    shape = [1] * nd
    shape[class_dim] = C
    return OPS.view(weight, tuple(shape))


cdef Tensor op_cross_entropy(Tensor self, Tensor target, Tensor weight, object reduction,
                             object ignore_index, object label_smoothing):
    """PyTorch's cross_entropy_loss, composed of the ops it records."""
    if not (0.0 <= label_smoothing <= 1.0):
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    cdef int nd = cnp.PyArray_NDIM(self._data)
    if nd == 0:
        raise dim_error(1, 0)
    cdef int class_dim = 0 if nd == 1 else 1
    cdef Py_ssize_t C = shape_of(self._data)[class_dim]
    cdef dtype td = dtype_of(target._data)
    cdef Tensor ls, t, prod, s, nll, smooth, ret
    if shape_of(target._data) == shape_of(self._data):
        # class probabilities: PyTorch chooses them by the shapes, then checks the dtype
        if td.category != CAT_FLOAT:
            raise RuntimeError(f"Expected floating point type for target with class "
                               f"probabilities, got {td.scalar_name}")
        if ignore_index != -100:
            raise RuntimeError("ignore_index is not supported for floating point target")
        ls = op_log_softmax(self, class_dim, None)
        t = target
        if label_smoothing > 0:
            t = OPS.add(OPS.mul(target, 1 - label_smoothing), label_smoothing / C, 1)
        prod = OPS.mul(ls, t)
        if weight is not None:
            prod = OPS.mul(prod, class_weight_view(weight, nd, class_dim, C))
        if reduction == REDUCTION_NONE:
            return OPS.neg(OPS.sum(prod, (class_dim,), False, None))
        s = OPS.neg(OPS.sum(prod, None, False, None))
        if reduction == REDUCTION_SUM:
            return s
        if cnp.PyArray_SIZE(self._data) == 0:
            return make(np.asarray(np.nan, dtype=self._data.dtype))
        return OPS.div_scalar(s, cnp.PyArray_SIZE(self._data) // C)
    ls = op_log_softmax(self, class_dim, None)
    nll = op_nll_loss(ls, target, weight, reduction, ignore_index)
    if label_smoothing <= 0:
        return nll
    ignore_mask = target._data == ignore_index
    if weight is not None:
        smooth = OPS.neg(OPS.sum(OPS.mul(ls, class_weight_view(weight, nd, class_dim, C)),
                                 (class_dim,), False, None))
    else:
        smooth = OPS.neg(OPS.sum(ls, (class_dim,), False, None))
    smooth = OPS.where(make(as_array(ignore_mask)), zeros((), dtype_of(smooth._data)), smooth)
    if reduction == REDUCTION_MEAN:
        if weight is not None:
            tsel = target._data[~ignore_mask].reshape(-1)
            denom = const(as_array(np.sum(weight._data[tsel])).astype(weight._data.dtype))
        else:
            denom = const(as_array(np.sum(~ignore_mask)).astype(np.int64))
        ret = OPS.div(OPS.sum(smooth, None, False, None), denom, None)
    elif reduction == REDUCTION_SUM:
        ret = OPS.sum(smooth, None, False, None)
    else:
        ret = smooth
    return OPS.add(OPS.mul(nll, 1 - label_smoothing), OPS.mul(ret, label_smoothing / C), 1)


# ================================================================ linear

cdef Tensor op_linear(Tensor input, Tensor weight, Tensor bias):
    """PyTorch's linear: addmm for a 2-D input with a bias (and for a contiguous 3-D one,
    flattened), else matmul then add."""
    cdef int nd = cnp.PyArray_NDIM(input._data)
    cdef tuple xs = shape_of(input._data)
    cdef Tensor wt = OPS.t(weight), r
    if nd == 2 and bias is not None:
        return OPS.addmm(bias, input, wt, 1, 1)
    if bias is not None and nd >= 1 and cnp.PyArray_IS_C_CONTIGUOUS(input._data) and \
            (nd == 3 or cnp.PyArray_NDIM(bias._data) == 1):
        r = OPS.addmm(bias, OPS.reshape(input, (shape_numel(xs[:-1]), xs[-1])), wt, 1, 1)
        return OPS.view(r, xs[:-1] + (shape_of(r._data)[1],))
    r = OPS.matmul(input, wt)
    if bias is not None:
        r = OPS.add(r, bias, 1)
    return r


# ================================================================ padding

cdef Tensor op_constant_pad_nd(Tensor self, object pad, object value):
    cdef cnp.ndarray xa = self._data
    cdef int nd = cnp.PyArray_NDIM(xa), k, i
    pad = tuple(pad)
    cdef int npad = len(pad)
    if npad % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if npad > 2 * nd:
        raise RuntimeError(
            "Length of pad should be no more than twice the number of dimensions of the input. "
            f"Pad length is {npad} while the input has {nd} dimensions.")
    crop = [slice(None)] * nd
    widths = [(0, 0)] * nd
    new_shape = list(shape_of(xa))
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
    # (np.pad keeps the input's layout: PyTorch's writes its suggested memory format)
    cdef Tensor result = make(in_suggested_format(cast_like(out, xa), xa))
    record_ConstantPadNdBackward0(result, self, pad, value)
    return result


cdef Tensor constant_pad_nd_backward(Tensor grad, object pad):
    """The gradient of a constant pad: the grad cropped back (a pad by -pad)."""
    return op_constant_pad_nd(grad, tuple([-p for p in pad]), 0)


cdef list pad_index_key(tuple xs, tuple pad, PadMode mode):
    """The gather key (an advanced index) that pads the last len(pad) // 2 dims of an
    array of shape xs by reflection, replication or wrapping."""
    cdef int nd = len(xs), npad = len(pad), nsp = npad // 2, i, k
    idxs = []
    for i in range(nsp):
        k = nd - nsp + i                      # the dim; pad pairs start from the last dim
        lo, hi = pad[2 * (nsp - 1 - i)], pad[2 * (nsp - 1 - i) + 1]
        size = xs[k]
        if mode == PAD_REFLECT:
            if lo >= size or hi >= size:
                raise RuntimeError(
                    f"Argument #4: Padding size should be less than the corresponding input "
                    f"dimension, but got: padding ({lo}, {hi}) at dimension {k} of input "
                    f"{shape_str(xs)}")
        elif mode == PAD_CIRCULAR:
            if lo > size or hi > size:
                raise RuntimeError("Padding value causes wrapping around more than once.")
        elif size == 0:
            raise RuntimeError(f"input tensor must have non-zero size at dimension {k}")
        j = np.arange(-lo, size + hi)
        if mode == PAD_REFLECT:
            j = np.abs(j)
            j = np.where(j >= size, 2 * (size - 1) - j, j)
        elif mode == PAD_REPLICATE:
            j = np.clip(j, 0, size - 1)
        else:
            j = np.mod(j, size)
        idxs.append(j.astype(np.int64))
    return idxs


cdef cnp.ndarray pad_index_values(cnp.ndarray xa, list idxs):
    key = (Ellipsis,) + tuple(np.ix_(*idxs))
    return np.ascontiguousarray(xa[key])


cdef cnp.ndarray pad_index_backward_values(cnp.ndarray ga, tuple in_shape, list idxs):
    """The transpose of pad_index_values: g summed back into in_shape."""
    out = np.zeros(in_shape, dtype=ga.dtype)
    np.add.at(out, (Ellipsis,) + tuple(np.ix_(*idxs)), ga)
    return out


# the record_<Node> of a padding op and of its backward op (one per number of padded dims)
ctypedef int (*record_pad_fn)(Tensor, Tensor, object) except -1
ctypedef int (*record_pad_backward_fn)(Tensor, Tensor, Tensor, object) except -1


cdef Tensor index_pad(Tensor self, object padding, PadMode mode, record_pad_fn record_1d,
                      record_pad_fn record_2d, record_pad_fn record_3d):
    """Reflection or replication padding of the last len(padding) // 2 dims, recorded
    with the node of that many dims."""
    padding = tuple(padding)
    cdef list idxs = pad_index_key(shape_of(self._data), padding, mode)
    cdef Tensor result = make(in_suggested_format(pad_index_values(self._data, idxs),
                                                  self._data))
    cdef Py_ssize_t nsp = len(padding) // 2
    (record_1d if nsp == 1 else record_2d if nsp == 2 else record_3d)(result, self, padding)
    return result


cdef Tensor index_pad_backward(Tensor grad_output, Tensor self, object padding, PadMode mode,
                               record_pad_backward_fn record_1d,
                               record_pad_backward_fn record_2d,
                               record_pad_backward_fn record_3d):
    """The backward op of index_pad (grad_output summed back into self's shape), recorded
    with the node of that many dims."""
    padding = tuple(padding)
    cdef tuple xs = shape_of(self._data)
    cdef Tensor result = make(pad_index_backward_values(
        grad_output._data, xs, pad_index_key(xs, padding, mode)))
    cdef Py_ssize_t nsp = len(padding) // 2
    (record_1d if nsp == 1 else record_2d if nsp == 2 else record_3d)(
        result, grad_output, self, padding)
    return result


cdef Tensor op_reflection_pad(Tensor self, object padding):
    return index_pad(self, padding, PAD_REFLECT, record_ReflectionPad1DBackward0,
                     record_ReflectionPad2DBackward0, record_ReflectionPad3DBackward0)


cdef Tensor op_reflection_pad_backward(Tensor grad_output, Tensor self, object padding):
    return index_pad_backward(grad_output, self, padding, PAD_REFLECT,
                              record_ReflectionPad1DBackwardBackward0,
                              record_ReflectionPad2DBackwardBackward0,
                              record_ReflectionPad3DBackwardBackward0)


cdef Tensor op_replication_pad(Tensor self, object padding):
    return index_pad(self, padding, PAD_REPLICATE, record_ReplicationPad1DBackward0,
                     record_ReplicationPad2DBackward0, record_ReplicationPad3DBackward0)


cdef Tensor op_replication_pad_backward(Tensor grad_output, Tensor self, object padding):
    return index_pad_backward(grad_output, self, padding, PAD_REPLICATE,
                              record_ReplicationPad1DBackwardBackward0,
                              record_ReplicationPad2DBackwardBackward0,
                              record_ReplicationPad3DBackwardBackward0)


cdef Tensor op__pad_circular(Tensor self, object padding):
    """Circular padding. PyTorch builds it by writes into the output (its grad_fn is
    CopySlices); here the wrapped input (gathered along each padded dim with
    index_select) is written into the output through the core's write_region."""
    padding = tuple(padding)
    cdef tuple xs = shape_of(self._data)
    cdef list idxs = pad_index_key(xs, padding, PAD_CIRCULAR)
    cdef Tensor result = make(pad_index_values(self._data, idxs))
    if fw_active():  # Note [Forward AD]: padding is linear, the same padding of the tangent
        t = fw_grad_of(self)
        if t is not None and is_float_array(self._data):
            with FwSuspend():
                fw_finish(result, op__pad_circular(<Tensor>t, padding))
    if not (recording() and requires_grad_of(self)):
        return result
    cdef int nd = len(xs), nsp = len(idxs), i
    cdef Tensor wrapped = self
    for i in range(nsp):
        wrapped = OPS.index_select(wrapped, nd - nsp + i, make(idxs[i]))
    write_region(result, region_of(result), wrapped, False)
    return result


# ================================================================ normalize, cosine_similarity

cdef Tensor op_normalize(Tensor input, object p, object dim, object eps):
    """input / max(||input||_p, eps) as PyTorch's F.normalize records it:
    linalg_vector_norm, clamp_min, expand, div."""
    cdef int nd = cnp.PyArray_NDIM(input._data)
    dims = (wrap_dim(dim, nd),) if nd else None
    cdef Tensor denom = OPS.clamp_min(OPS.linalg_vector_norm(input, p, dims, True, None), eps)
    return OPS.div(input, OPS.expand(denom, shape_of(input._data)), None)


cdef Tensor op_cosine_similarity(Tensor x1, Tensor x2, object dim, object eps):
    """PyTorch's cosine_similarity: each input divided by its norm, clamped at eps in
    place on a clone with grad mode off (unseen by autograd), then multiplied and summed."""
    cdef Tensor a = x1, b = x2, n1, n2
    cdef tuple sa = shape_of(a._data), sb = shape_of(b._data)
    cdef tuple shape = broadcast_shapes(sa, sb)
    if sa != shape:
        a = OPS.expand(a, shape)
    if sb != shape:
        b = OPS.expand(b, shape)
    cdef int nd = len(shape)
    d = (wrap_dim(dim, nd),) if nd else None
    n1 = OPS.clone(OPS.linalg_vector_norm(a, 2, d, True, None), None)
    n2 = OPS.clone(OPS.linalg_vector_norm(b, 2, d, True, None), None)
    with NoGradGuard():
        inplace_commit(n1, OPS.clamp_min(inplace_source(n1, ()), eps))
        inplace_commit(n2, OPS.clamp_min(inplace_source(n2, ()), eps))
    return OPS.sum(OPS.mul(OPS.div(a, n1, None), OPS.div(b, n2, None)), d, False, None)


# ================================================================ layer_norm, batch_norm

cdef Tensor op_layer_norm(Tensor input, object normalized_shape, Tensor weight, Tensor bias,
                          object eps):
    ns = tuple(normalized_shape)
    cdef int k = len(ns), nd = cnp.PyArray_NDIM(input._data)
    cdef tuple xs = shape_of(input._data)
    if k < 1:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    if weight is not None and shape_of(weight._data) != ns:
        raise RuntimeError(
            f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
            f"{shape_str(shape_of(weight._data))} and normalized_shape = {shape_str(ns)}")
    if bias is not None and shape_of(bias._data) != ns:
        raise RuntimeError(
            f"Expected bias to be of same shape as normalized_shape, but got bias of shape "
            f"{shape_str(shape_of(bias._data))} and normalized_shape = {shape_str(ns)}")
    if nd < k or xs[nd - k:] != ns:
        raise RuntimeError(
            f"Given normalized_shape={shape_str(ns)}, expected input with shape "
            f"[*, {', '.join([str(s) for s in ns])}], but got input of size"
            f"{shape_str(xs)}")
    check_float_kernel(dtype_of(input._data), "LayerNormKernelImpl")
    cdef cnp.ndarray xa = opmath(input._data)
    dims = tuple(range(nd - k, nd))
    with quiet():
        mean = np.mean(xa, axis=dims, keepdims=True)
        xc = xa - mean
        var = np.mean(xc * xc, axis=dims, keepdims=True)
        y = xc * (1.0 / np.sqrt(var + eps))
        if weight is not None:
            y = y * opmath(weight._data)
        if bias is not None:
            y = y + opmath(bias._data)
    # (PyTorch's kernel writes a contiguous result whatever the input's layout)
    cdef Tensor result = make(as_contiguous(cast_like(y, input._data)))
    record_NativeLayerNormBackward0(result, input, ns, weight, bias, eps)
    return result


cdef tuple batch_stats_normalized(Tensor x, tuple dims, object eps):
    """(x - mean) * rstd with the statistics over dims, and rstd, in library ops."""
    cdef Tensor mean = OPS.mean(x, dims, True, None)
    cdef Tensor xc = OPS.sub(x, mean, 1)
    cdef Tensor var = OPS.mean(OPS.mul(xc, xc), dims, True, None)
    cdef Tensor rstd = OPS.pow(OPS.add(var, eps, 1), -0.5)
    return OPS.mul(xc, rstd), rstd


cdef Tensor normalized_input_backward(Tensor grad, Tensor xhat, Tensor rstd, Tensor wb,
                                      tuple dims):
    """The input gradient of (x - mean(x)) * rstd(x) * w over dims."""
    cdef Tensor dxhat = OPS.mul(grad, wb) if wb is not None else grad
    return OPS.mul(rstd, OPS.sub(OPS.sub(dxhat, OPS.mean(dxhat, dims, True, None), 1),
                                 OPS.mul(xhat, OPS.mean(OPS.mul(dxhat, xhat), dims, True, None)),
                                 1))


cdef inline tuple layer_norm_dims(Tensor input, object normalized_shape):
    cdef int nd = cnp.PyArray_NDIM(input._data)
    return tuple(range(nd - len(normalized_shape), nd))


cdef inline Tensor _opmath_const(Tensor t):
    """t's values as a float32 constant (Note [bfloat16 compute]); None stays None."""
    return None if t is None else make(opmath(t._data))


cdef Tensor layer_norm_backward_input(Tensor grad, Tensor input, object normalized_shape,
                                      Tensor weight, object eps):
    if cnp.PyArray_TYPE(input._data) == bfloat16.typenum and not grad_enabled():
        # PyTorch's backward kernel computes in float and rounds once
        return make(cast_array(layer_norm_backward_input(
            _opmath_const(grad), _opmath_const(input), normalized_shape,
            _opmath_const(weight), eps)._data, bfloat16))
    cdef tuple dims = layer_norm_dims(input, normalized_shape)
    xhat, rstd = batch_stats_normalized(input, dims, eps)
    cdef Tensor g = normalized_input_backward(grad, xhat, rstd, weight, dims)
    if grad_enabled():  # Note [Backward links]
        g = op__layer_norm_backward_link(g, input, weight)
    return g


cdef Tensor layer_norm_backward_weight(Tensor grad, Tensor input, object normalized_shape,
                                       Tensor weight, object eps):
    if cnp.PyArray_TYPE(input._data) == bfloat16.typenum and not grad_enabled():
        return make(cast_array(layer_norm_backward_weight(
            _opmath_const(grad), _opmath_const(input), normalized_shape,
            _opmath_const(weight), eps)._data, bfloat16))
    xhat, _ = batch_stats_normalized(input, layer_norm_dims(input, normalized_shape), eps)
    cdef Tensor g = OPS.sum_to(OPS.mul(grad, xhat), shape_of(weight._data))
    if grad_enabled():  # Note [Backward links]
        g = op__layer_norm_backward_link(g, input, weight)
    return g


cdef Tensor layer_norm_backward_bias(Tensor grad, Tensor input, object normalized_shape,
                                     Tensor weight, Tensor bias):
    cdef Tensor g = OPS.sum_to(grad, shape_of(bias._data))
    if grad_enabled():  # Note [Backward links]
        g = op__layer_norm_backward_link(g, input, weight)
    return g


cdef Tensor op__layer_norm_backward_link(Tensor grad_input, Tensor input, Tensor weight):
    # Note [Backward links]
    cdef Tensor result = make(grad_input._data)
    record_NativeLayerNormBackwardBackward0(result, grad_input, input, weight)
    return result if result._grad_fn is not None else grad_input


cdef tuple op_native_group_norm(Tensor input, Tensor weight, Tensor bias, object N, object C,
                                object HxW, object group, object eps):
    cdef cnp.ndarray xa = input._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(xa)
    if group <= 0 or C % group:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {shape_str(shape_of(xa))} and "
                           f"num_groups={group}")
    if cnp.PyArray_SIZE(xa) != N * C * HxW:
        raise RuntimeError(f"Expected input to have {N * C * HxW} elements, but got "
                           f"{cnp.PyArray_SIZE(xa)}")
    for t, name in ((weight, "weight"), (bias, "bias")):
        if t is not None and (cnp.PyArray_NDIM((<Tensor>t)._data) != 1
                              or cnp.PyArray_SIZE((<Tensor>t)._data) != C):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape "
                               f"{shape_str(shape_of((<Tensor>t)._data))} and input of shape "
                               f"{shape_str(shape_of(xa))}")
    check_float_kernel(dtype_of(xa), "GroupNormKernelImpl")
    with quiet():
        x = xa.reshape(N, group, -1)
        mean = np.mean(x, axis=2, keepdims=True)
        xc = x - mean
        rstd = 1.0 / np.sqrt(np.mean(xc * xc, axis=2, keepdims=True) + eps)
        y = (xc * rstd).reshape(N, C, -1)
        if weight is not None:
            y = y * weight._data.reshape(C, 1)
        if bias is not None:
            y = y + bias._data.reshape(C, 1)
    cdef Tensor result = make(in_suggested_format(cast_like(y.reshape(shape_of(xa)), xa), xa))
    cdef Tensor m = make(cast_like(mean.reshape(N, group), xa))
    cdef Tensor r = make(cast_like(rstd.reshape(N, group), xa))
    record_NativeGroupNormBackward0(result, m, r, input, weight, bias, N, C, HxW, group, eps)
    return (result, m, r)


cdef Tensor _group_normalized(Tensor input, Tensor mean, Tensor rstd, object N, object group):
    """(x - mean) * rstd per (sample, group), as (N, group, D), from the forward's saved
    statistics: PyTorch's backward reads them, so its gradients depend on them."""
    cdef Tensor x = OPS.reshape(input, (N, group, -1))
    return OPS.mul(OPS.sub(x, OPS.unsqueeze(mean, 2), 1), OPS.unsqueeze(rstd, 2))


cdef object group_norm_backward_input(object grad, object gmean, object grstd, Tensor input,
                                      Tensor mean, Tensor rstd, Tensor weight, object N,
                                      object C, object group):
    """The input gradient of group normalisation from the output's gradient and the mean's
    and rstd's (PyTorch's infinitely_differentiable_native_group_norm_backward), in library
    ops: differentiable again."""
    cdef tuple xs = shape_of(input._data)
    cdef Tensor xhat = _group_normalized(input, mean, rstd, N, group), dy
    cdef Tensor rstd3 = OPS.unsqueeze(rstd, 2)
    cdef Py_ssize_t D = shape_of(xhat._data)[2]
    out = None
    if grad is not None:
        dy = OPS.reshape(<Tensor>grad, (N, C, -1))
        if weight is not None:
            dy = OPS.mul(dy, OPS.reshape(weight, (C, 1)))
        out = normalized_input_backward(OPS.reshape(dy, (N, group, -1)), xhat, rstd3, None, (2,))
    if gmean is not None:   # d mean / dx = 1 / D
        gm = OPS.expand(OPS.div(OPS.reshape(<Tensor>gmean, (N, group, 1)), D, None),
                        shape_of(xhat._data))
        out = gm if out is None else OPS.add(out, gm, 1)
    if grstd is not None:   # d rstd / dx = -rstd^3 (x - mean) / D = -rstd^2 xhat / D
        gr = OPS.mul(OPS.div(OPS.mul(OPS.reshape(<Tensor>grstd, (N, group, 1)),
                                     OPS.mul(rstd3, rstd3)), -D, None), xhat)
        out = gr if out is None else OPS.add(out, gr, 1)
    return None if out is None else OPS.reshape(out, xs)


cdef object group_norm_backward_weight(object grad, Tensor input, Tensor mean, Tensor rstd,
                                       object N, object C, object group):
    if grad is None:
        return None
    cdef Tensor xhat = _group_normalized(input, mean, rstd, N, group)
    cdef Tensor prod = OPS.mul(OPS.reshape(<Tensor>grad, (N, C, -1)),
                               OPS.reshape(xhat, (N, C, -1)))
    return OPS.sum(prod, (0, 2), False, None)


cdef object group_norm_backward_bias(object grad, object C):
    if grad is None:
        return None
    return OPS.sum(OPS.reshape(<Tensor>grad, (shape_of((<Tensor>grad)._data)[0], C, -1)), (0, 2),
                   False, None)


cdef tuple group_norm_jvp(Tensor input, object input_t, object weight, object weight_t,
                          object bias_t, Tensor mean, Tensor rstd, object N, object C,
                          object group):
    """The tangents of (output, mean, rstd) (PyTorch's group_norm_jvp, group_norm_mean_jvp,
    group_norm_invstd_jvp, from the forward's saved statistics): per (sample, group) of D
    elements, dmean = mean(dx), drstd = -rstd^3 mean((x - mean) dx),
    dxhat = (dx - dmean) rstd + (x - mean) drstd; dy = dxhat w + xhat dw + db."""
    cdef tuple xs = shape_of(input._data)
    cdef Tensor xhat = _group_normalized(input, mean, rstd, N, group)
    cdef Tensor dx = OPS.reshape(<Tensor>input_t, (N, group, -1))
    cdef Py_ssize_t D = shape_of(xhat._data)[2]
    cdef Tensor r = OPS.unsqueeze(rstd, 2)
    cdef Tensor dmean = OPS.mean(dx, (2,), True, None)
    # (x - mean) = xhat / rstd: drstd = -rstd^2 mean(xhat dx)
    cdef Tensor drstd = OPS.neg(OPS.mul(OPS.mul(r, r), OPS.mean(OPS.mul(xhat, dx), (2,), True,
                                                                None)))
    cdef Tensor dxhat = OPS.add(OPS.mul(OPS.sub(dx, dmean, 1), r),
                                OPS.mul(OPS.div(xhat, r, None), drstd), 1)
    cdef Tensor dy = OPS.reshape(dxhat, (N, C, -1))
    if weight is not None:
        dy = OPS.mul(dy, OPS.reshape(<Tensor>weight, (C, 1)))
        if isinstance(weight_t, Tensor):
            dy = OPS.add(dy, OPS.mul(OPS.reshape(xhat, (N, C, -1)),
                                     OPS.reshape(<Tensor>weight_t, (C, 1))), 1)
    if isinstance(bias_t, Tensor):   # (0 when there is no bias: Note [Forward AD])
        dy = OPS.add(dy, OPS.reshape(<Tensor>bias_t, (C, 1)), 1)
    return (OPS.reshape(dy, xs), OPS.reshape(dmean, shape_of(mean._data)),
            OPS.reshape(drstd, shape_of(rstd._data)))


cdef Tensor op_batch_norm(Tensor input, Tensor running_mean, Tensor running_var, Tensor weight,
                          Tensor bias, bint training, object momentum, object eps):
    cdef int nd = cnp.PyArray_NDIM(input._data)
    if nd < 2:
        raise ValueError(f"expected 2D or 3D input (got {nd}D input)")
    check_float_kernel(dtype_of(input._data), "batch_norm")
    cdef cnp.ndarray xa = input._data
    cdef tuple xs = shape_of(xa)
    C = xs[1]
    for t, name in ((weight, "weight"), (bias, "bias"), (running_mean, "running_mean"),
                    (running_var, "running_var")):
        if t is not None and cnp.PyArray_SIZE((<Tensor>t)._data) != C:
            raise RuntimeError(f"{name} should contain {C} elements not "
                               f"{cnp.PyArray_SIZE((<Tensor>t)._data)}")
    dims = (0,) + tuple(range(2, nd))
    wshape = (1, C) + (1,) * (nd - 2)
    with quiet():
        if training:
            mean = np.mean(xa, axis=dims, keepdims=True)
            xc = xa - mean
            var = np.mean(xc * xc, axis=dims, keepdims=True)
            rstd = 1.0 / np.sqrt(var + eps)
            # PyTorch updates the running statistics in place without a version bump
            n = cnp.PyArray_SIZE(xa) // C if C else 0
            if running_mean is not None:
                write_values(running_mean, as_array(
                    (1 - momentum) * running_mean._data
                    + momentum * mean.reshape(shape_of(running_mean._data))))
            if running_var is not None:
                unbiased = var * (n / (n - 1)) if n > 1 else var * float("inf")
                write_values(running_var, as_array(
                    (1 - momentum) * running_var._data
                    + momentum * unbiased.reshape(shape_of(running_var._data))))
        else:
            if running_mean is None:
                raise RuntimeError("running_mean must be defined in evaluation mode")
            if running_var is None:
                raise RuntimeError("running_var must be defined in evaluation mode")
            mean, rstd = batch_norm_eval_stats(xa, running_mean, running_var, wshape, eps)
            xc = xa - mean
        y = xc * rstd
        if weight is not None:
            y = y * weight._data.reshape(wshape)
        if bias is not None:
            y = y + bias._data.reshape(wshape)
    # (numpy's broadcasting keeps xa's layout; PyTorch's kernel writes a new tensor in
    # the input's suggested memory format)
    cdef Tensor result = make(in_suggested_format(cast_like(y, xa), xa))
    record_NativeBatchNormBackward0(result, input, running_mean, running_var, weight, bias,
                                    training, momentum, eps)
    return result


cdef tuple batch_norm_eval_stats(cnp.ndarray xa, Tensor running_mean, Tensor running_var,
                                 tuple wshape, object eps):
    """The running statistics as (mean, 1 / sqrt(var + eps)) arrays in xa's dtype."""
    with quiet():
        m = running_mean._data.reshape(wshape).astype(xa.dtype)
        rs = (1.0 / np.sqrt(running_var._data.astype(np.float64) + eps)).reshape(wshape).astype(
            xa.dtype)
    return m, rs


cdef inline tuple batch_norm_dims(Tensor input):
    return (0,) + tuple(range(2, cnp.PyArray_NDIM(input._data)))


cdef inline tuple batch_norm_wshape(Tensor input):
    cdef int nd = cnp.PyArray_NDIM(input._data)
    return (1, shape_of(input._data)[1]) + (1,) * (nd - 2)


cdef tuple batch_norm_normalized(Tensor input, Tensor running_mean, Tensor running_var,
                                 bint training, object eps):
    """(x̂, rstd) of batch norm, in library ops (the running statistics are constants)."""
    if training:
        return batch_stats_normalized(input, batch_norm_dims(input), eps)
    m, rs = batch_norm_eval_stats(input._data, running_mean, running_var,
                                  batch_norm_wshape(input), eps)
    cdef Tensor rstd = const(rs)
    return OPS.mul(OPS.sub(input, const(m), 1), rstd), rstd


cdef Tensor batch_norm_backward_input(Tensor grad, Tensor input, Tensor running_mean,
                                      Tensor running_var, Tensor weight, bint training,
                                      object eps):
    cdef tuple dims = batch_norm_dims(input)
    xhat, rstd = batch_norm_normalized(input, running_mean, running_var, training, eps)
    cdef Tensor wb = OPS.reshape(weight, batch_norm_wshape(input)) if weight is not None else None
    cdef Tensor g
    if training:
        g = normalized_input_backward(grad, xhat, rstd, wb, dims)
    else:
        g = OPS.mul(OPS.mul(grad, wb) if wb is not None else grad, rstd)
    if grad_enabled():  # Note [Backward links]
        g = op__batch_norm_backward_link(g, input, weight, training)
    return g


cdef Tensor batch_norm_backward_weight(Tensor grad, Tensor input, Tensor running_mean,
                                       Tensor running_var, Tensor weight, bint training,
                                       object eps):
    xhat, _ = batch_norm_normalized(input, running_mean, running_var, training, eps)
    cdef Tensor g = OPS.reshape(OPS.sum_to(OPS.mul(grad, xhat), batch_norm_wshape(input)),
                                shape_of(weight._data))
    if grad_enabled():  # Note [Backward links]
        g = op__batch_norm_backward_link(g, input, weight, training)
    return g


cdef Tensor batch_norm_backward_bias(Tensor grad, Tensor input, Tensor weight, Tensor bias):
    cdef Tensor g = OPS.reshape(OPS.sum_to(grad, batch_norm_wshape(input)), shape_of(bias._data))
    if grad_enabled():  # Note [Backward links]
        g = op__batch_norm_backward_link(g, input, weight, False)
    return g


cdef Tensor op__batch_norm_backward_link(Tensor grad_input, Tensor input, Tensor weight,
                                         bint training):
    # Note [Backward links]
    cdef Tensor result = make(grad_input._data)
    record_NativeBatchNormBackwardBackward0(result, grad_input, input, weight, training)
    return result if result._grad_fn is not None else grad_input


# ================================================================ embedding

cdef Tensor op_embedding(Tensor weight, Tensor indices, object padding_idx,
                         bint scale_grad_by_freq, bint sparse):
    cdef dtype d = dtype_of(indices._data)
    if d is not int64 and d is not int32:
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got {legacy_type_name(indices)} instead (while checking arguments "
            "for embedding)")
    if cnp.PyArray_NDIM(weight._data) != 2:
        raise RuntimeError("'weight' must be 2-D")
    cdef tuple ws = shape_of(weight._data)
    flat = indices._data.reshape(-1).astype(np.int64)
    if flat.size and (flat.min() < 0 or flat.max() >= ws[0]):
        raise IndexError("index out of range in self")
    cdef Tensor result = make(np.ascontiguousarray(
        weight._data[flat].reshape(shape_of(indices._data) + (ws[1],))))
    record_EmbeddingBackward0(result, weight, indices, padding_idx, scale_grad_by_freq, sparse)
    return result


cdef Tensor embedding_backward(Tensor grad, Tensor indices, tuple weight_shape,
                               object padding_idx, bint scale_grad_by_freq):
    """The rows of grad summed into the rows of a zero weight they came from (the
    padding row gets none; scale_grad_by_freq divides by each index's count)."""
    flat = indices._data.reshape(-1).astype(np.int64)
    cdef Tensor g2 = OPS.reshape(grad, (-1, weight_shape[1]))
    if (padding_idx is not None and padding_idx >= 0) or scale_grad_by_freq:
        scale = np.ones((flat.size, 1), dtype=grad._data.dtype)
        if scale_grad_by_freq:
            counts = np.bincount(flat, minlength=weight_shape[0])
            scale[:, 0] = 1.0 / counts[flat]
        if padding_idx is not None and padding_idx >= 0:
            scale[flat == padding_idx] = 0
        g2 = OPS.mul(g2, const(scale))
    index = np.ascontiguousarray(np.broadcast_to(flat[:, None], (flat.size, weight_shape[1])))
    return OPS.scatter_add(zeros(weight_shape, dtype_of(grad._data)), 0, make(index), g2)


cdef Tensor op_embedding_renorm_(Tensor self, Tensor indices, object max_norm, object norm_type):
    cdef Tensor src = inplace_source(self, ())
    rows = np.unique(indices._data.reshape(-1).astype(np.int64))
    cdef cnp.ndarray values = np.array(src._data, copy=True)
    sub = values[rows].astype(np.float64)
    with quiet():
        norms = np.sum(np.abs(sub) ** norm_type, axis=1) ** (1.0 / norm_type)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    values[rows] = (sub * scale[:, None]).astype(values.dtype)
    return inplace_commit(self, make(values))


# ================================================================ dropout

cdef Tensor dropout_noise(Tensor x, object p, bint feature):
    """The mask divided by 1 - p (zeros where dropped), as a constant."""
    cdef cnp.ndarray xa = x._data
    cdef dtype d = dtype_of(xa)
    if d.category != CAT_FLOAT:
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{d.scalar_name}")
    if p == 1:
        return zeros((), d)
    if feature:
        nshape = shape_of(xa)[:2] + (1,) * (cnp.PyArray_NDIM(xa) - 2)
    else:
        nshape = shape_of(xa)
    # PyTorch: noise = empty_like(input) (input's layout) or a contiguous (N, C, 1, ...)
    # for feature dropout; noise.bernoulli_(1 - p); noise.div_(1 - p)
    like = np.empty(nshape, dtype=xa.dtype) if feature else xa
    keep = bernoulli_scalar_values(None, like, 1 - p)
    return const((keep / xa.dtype.type(1 - p)).astype(xa.dtype))


cdef Tensor dropout_impl(Tensor input, object p, bint train, bint feature, bint inplace):
    """input times the noise (MulBackward0, in place: the in-place mul), or input itself
    when nothing is dropped."""
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or cnp.PyArray_SIZE(input._data) == 0:
        return input
    cdef Tensor noise = dropout_noise(input, p, feature)
    return OPS.mul_(input, noise) if inplace else OPS.mul(input, noise)


cdef Tensor op_dropout(Tensor input, object p, bint train):
    return dropout_impl(input, p, train, False, False)


cdef Tensor op_dropout_(Tensor input, object p, bint train):
    return dropout_impl(input, p, train, False, True)


cdef Tensor op_feature_dropout(Tensor input, object p, bint train):
    return dropout_impl(input, p, train, True, False)


cdef Tensor op_feature_dropout_(Tensor input, object p, bint train):
    return dropout_impl(input, p, train, True, True)


# ================================================================ im2col / col2im
# A 4-D input (N, C, H, W) unfolds to columns (N, C*KH*KW, OH*OW): one strided view of
# the padded input and one copy (no loops over pixels). col2im is its transpose: a
# scatter-add of the columns back into the padded input, one strided add per kernel
# offset. Each is the other's backward (Im2ColBackward0, Col2ImBackward0), which makes
# convolution and pooling differentiable to any order.
#
# geometry = (hw, k, d, pad_tl, s, out_hw): input H, W; kernel; dilation; top/left
# padding; stride; output size. Bottom/right padding is whatever the output size needs.

cdef tuple pad_bottom_right(tuple geometry):
    hw, k, d, ptl, s, ohw = geometry
    pb = (ohw[0] - 1) * s[0] + d[0] * (k[0] - 1) + 1 - hw[0] - ptl[0]
    pr = (ohw[1] - 1) * s[1] + d[1] * (k[1] - 1) + 1 - hw[1] - ptl[1]
    return (pb if pb > 0 else 0, pr if pr > 0 else 0)


cdef object padded_copy(cnp.ndarray x, tuple geometry, object fill):
    """x (N, C, H, W) inside the padding the geometry needs (x itself without any)."""
    hw, k, d, ptl, s, ohw = geometry
    cdef Py_ssize_t N = x.shape[0], C = x.shape[1], H = hw[0], W = hw[1]
    cdef Py_ssize_t pt = ptl[0], pl = ptl[1]
    pb, pr = pad_bottom_right(geometry)
    if not (pt or pl or pb or pr):
        return x
    xp = np.full((N, C, H + pt + pb, W + pl + pr), fill, dtype=x.dtype)
    xp[:, :, pt:pt + H, pl:pl + W] = x
    return xp


cdef object sliding_windows(cnp.ndarray x, tuple geometry, object fill):
    """A read-only view (N, C, KH, KW, OH, OW) of x (N, C, H, W) padded with fill as the
    geometry needs: [n, c, i, j, oh, ow] is the element under kernel offset (i, j) of
    output position (oh, ow). im2col and pooling copy it in the order they need."""
    hw, k, d, ptl, s, ohw = geometry
    cdef Py_ssize_t N = x.shape[0], C = x.shape[1]
    xp = padded_copy(x, geometry, fill)
    st = xp.strides
    return np.lib.stride_tricks.as_strided(
        xp, (N, C, k[0], k[1], ohw[0], ohw[1]),
        (st[0], st[1], st[2] * d[0], st[3] * d[1], st[2] * s[0], st[3] * s[1]), writeable=False)


cdef cnp.ndarray sum_windows(object windows, tuple geometry):
    """The transpose of sliding_windows: windows (N, C, KH, KW, OH, OW) summed into
    the (N, C, H, W) positions they view."""
    hw, k, d, ptl, s, ohw = geometry
    cdef Py_ssize_t N = windows.shape[0], C = windows.shape[1]
    cdef Py_ssize_t H = hw[0], W = hw[1], pt = ptl[0], pl = ptl[1], i, j
    cdef Py_ssize_t OH = ohw[0], OW = ohw[1]
    pb, pr = pad_bottom_right(geometry)
    xp = np.zeros((N, C, H + pt + pb, W + pl + pr), dtype=windows.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            xp[:, :, i * d[0]:i * d[0] + s[0] * (OH - 1) + 1:s[0],
               j * d[1]:j * d[1] + s[1] * (OW - 1) + 1:s[1]] += windows[:, :, i, j]
    if pt or pl or pb or pr:
        return np.ascontiguousarray(xp[:, :, pt:pt + H, pl:pl + W])
    return xp


cdef cnp.ndarray im2col_values(cnp.ndarray x, tuple geometry, object fill):
    if cnp.PyArray_NDIM(x) == 3:   # unbatched
        return im2col_values(x[None], geometry, fill)[0]
    k, ohw = geometry[1], geometry[5]
    # always a copy: when the windows tile x exactly (kernel = input, no padding) the
    # read-only window view is itself C-contiguous, and ascontiguousarray would hand back
    # x's own memory, read-only (F.unfold's result then refused exp_(); fuzzer seed 8002685)
    return np.array(sliding_windows(x, geometry, fill), order="C").reshape(
        x.shape[0], x.shape[1] * k[0] * k[1], ohw[0] * ohw[1])


cdef cnp.ndarray col2im_values(cnp.ndarray cols, tuple geometry):
    if cnp.PyArray_NDIM(cols) == 2:   # unbatched
        return col2im_values(cols[None], geometry)[0]
    k, ohw = geometry[1], geometry[5]
    cdef Py_ssize_t N = cols.shape[0], C = cols.shape[1] // (k[0] * k[1])
    return sum_windows(cols.reshape(N, C, k[0], k[1], ohw[0], ohw[1]), geometry)


cdef tuple conv_geometry(tuple hw, tuple k, tuple d, tuple p, tuple s):
    """The geometry of sliding k over an (H, W) input padded by p on every side."""
    ohw = (conv_out(hw[0], 2 * p[0], k[0], d[0], s[0]),
           conv_out(hw[1], 2 * p[1], k[1], d[1], s[1]))
    return (hw, k, d, p, s, ohw)


cdef Tensor op_im2col(Tensor self, object kernel_size, object dilation, object padding,
                      object stride):
    cdef int nd = cnp.PyArray_NDIM(self._data)
    if nd != 3 and nd != 4:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{shape_str(shape_of(self._data))}")
    k, d = pair(kernel_size, "kernel_size"), pair(dilation, "dilation")
    p, s = pair(padding, "padding"), pair(stride, "stride")
    cdef tuple xs = shape_of(self._data)
    geometry = conv_geometry((xs[nd - 2], xs[nd - 1]), k, d, p, s)
    ohw = geometry[5]
    if ohw[0] < 1 or ohw[1] < 1:
        raise RuntimeError(
            f"Given input with spatial size ({xs[nd - 2]}, {xs[nd - 1]}), kernel_size=({k[0]}, "
            f"{k[1]}), dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), calculated shape of "
            f"the array of sliding blocks as ({ohw[0]}, {ohw[1]}), but its components must be at "
            f"least one.")
    cdef Tensor result = make(im2col_values(self._data, geometry, 0))
    record_Im2ColBackward0(result, self, kernel_size, dilation, padding, stride)
    return result


cdef Tensor op_col2im(Tensor self, object output_size, object kernel_size, object dilation,
                      object padding, object stride):
    cdef int nd = cnp.PyArray_NDIM(self._data)
    if nd != 2 and nd != 3:
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{shape_str(shape_of(self._data))}")
    hw = pair(output_size, "output_size")
    k, d = pair(kernel_size, "kernel_size"), pair(dilation, "dilation")
    p, s = pair(padding, "padding"), pair(stride, "stride")
    cdef tuple cs = shape_of(self._data) if nd == 3 else (1,) + shape_of(self._data)
    if cs[1] % (k[0] * k[1]):
        raise RuntimeError(
            f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
            f"but got input.size(1)={cs[1]} and kernel_size=({k[0]}, {k[1]})")
    geometry = conv_geometry(hw, k, d, p, s)
    ohw = geometry[5]
    if ohw[0] * ohw[1] != cs[2]:
        raise RuntimeError(
            f"Given output_size=({hw[0]}, {hw[1]}), kernel_size=({k[0]}, {k[1]}), "
            f"dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), "
            f"expected size of input's dimension 2 to match the calculated number of sliding "
            f"blocks {ohw[0]} * {ohw[1]} = {ohw[0] * ohw[1]}, but got input.size(2)={cs[2]}.")
    cdef Tensor result = make(col2im_values(self._data, geometry))
    record_Col2ImBackward0(result, self, output_size, kernel_size, dilation, padding, stride)
    return result


# ================================================================ convolution
# One GEMM per group over the whole batch: the columns are laid out K-major,
# (G, C/G*KH*KW, N*OH*OW). conv1d is a conv2d of height 1.

cdef inline bint c_float(cnp.ndarray a):
    """float32 or float64: the dtypes the C loops of csrc/agc_nn.c are written for."""
    cdef int t = cnp.PyArray_TYPE(a)
    return t == cnp.NPY_FLOAT32 or t == cnp.NPY_FLOAT64



# numpy's memory handler over the buffer cache (Note [Buffer cache]): static, as the
# capsule refers to it for the life of the process
cdef PyDataMem_Handler _buffer_cache_handler
strcpy(_buffer_cache_handler.name, b"autograd_core_buffer_cache")
_buffer_cache_handler.version = 1
_buffer_cache_handler.allocator.ctx = NULL
_buffer_cache_handler.allocator.malloc = agc_buf_malloc
_buffer_cache_handler.allocator.calloc = agc_buf_calloc
_buffer_cache_handler.allocator.realloc = agc_buf_realloc
_buffer_cache_handler.allocator.free = agc_buf_free
_BUFFER_CACHE = PyCapsule_New(&_buffer_cache_handler, "mem_handler", NULL)


def _buffer_cache_bytes():
    """Bytes the buffer cache holds now (Note [Buffer cache]; for the tests)."""
    return agc_buf_cached_bytes()


def _buffer_cache_release():
    """Frees every block the buffer cache holds (Note [Buffer cache])."""
    agc_buf_release()


def _per_sample_outer(Tensor g, Tensor x):
    """out[b, o, i] = g[b, o] * x[b, i] for g (B, O) and x (B, I): the per-sample weight
    gradients of a linear layer with one row per sample (vmap's per-sample gradients,
    func/_vmap.py), in one pass. Values only, no graph: the caller runs it with grad
    mode off."""
    cdef cnp.ndarray ga = g._data, xa = x._data, out
    if cnp.PyArray_NDIM(ga) != 2 or cnp.PyArray_NDIM(xa) != 2 or \
            cnp.PyArray_DIMS(ga)[0] != cnp.PyArray_DIMS(xa)[0]:
        raise RuntimeError("_per_sample_outer: expected g (B, O) and x (B, I)")
    if not (c_float(ga) and cnp.PyArray_TYPE(ga) == cnp.PyArray_TYPE(xa)):
        with quiet():
            return make(as_array(np.multiply(ga[:, :, None], xa[:, None, :])))
    ga = np.ascontiguousarray(ga)
    xa = np.ascontiguousarray(xa)
    cdef Py_ssize_t B = cnp.PyArray_DIMS(ga)[0], O = cnp.PyArray_DIMS(ga)[1]
    cdef Py_ssize_t I = cnp.PyArray_DIMS(xa)[1]
    # fresh memory on every call, dropped by the caller before the next: from the buffer
    # cache (Note [Buffer cache] in csrc/agc_bufcache.h)
    previous = PyDataMem_SetHandler(_BUFFER_CACHE)
    try:
        out = np.empty((B, O, I), dtype=ga.dtype)
    finally:
        PyDataMem_SetHandler(previous)
    if cnp.PyArray_TYPE(ga) == cnp.NPY_FLOAT32:
        with nogil:
            agc_rows_outer_f32(<float *>cnp.PyArray_DATA(ga), <float *>cnp.PyArray_DATA(xa),
                               <float *>cnp.PyArray_DATA(out), B, O, I)
    else:
        with nogil:
            agc_rows_outer_f64(<double *>cnp.PyArray_DATA(ga), <double *>cnp.PyArray_DATA(xa),
                               <double *>cnp.PyArray_DATA(out), B, O, I)
    return make(out)

cdef agc_geom2d c_geometry(tuple geometry):
    hw, k, d, p, s, ohw = geometry
    cdef agc_geom2d g
    g.H, g.W, g.KH, g.KW, g.DH, g.DW = hw[0], hw[1], k[0], k[1], d[0], d[1]
    g.PH, g.PW, g.SH, g.SW, g.OH, g.OW = p[0], p[1], s[0], s[1], ohw[0], ohw[1]
    return g


cdef cnp.ndarray im2col_kmajor(cnp.ndarray x, tuple geometry):
    """Columns of a 4-D input laid out (C*KH*KW, N*OH*OW)."""
    k, ohw = geometry[1], geometry[5]
    cdef agc_geom2d g
    cdef cnp.ndarray xc, cols
    cdef Py_ssize_t N = x.shape[0], C = x.shape[1]
    if c_float(x):          # one pass, straight from the input (no padded copy)
        g = c_geometry(geometry)
        xc = np.ascontiguousarray(x)
        cols = np.empty((C * g.KH * g.KW, N * g.OH * g.OW), dtype=x.dtype)
        if cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT32:
            with nogil:
                agc_im2col_kmajor_f32(<float *>cnp.PyArray_DATA(xc), <float *>cnp.PyArray_DATA(cols),
                                      N, C, &g)
        else:
            with nogil:
                agc_im2col_kmajor_f64(<double *>cnp.PyArray_DATA(xc), <double *>cnp.PyArray_DATA(cols),
                                      N, C, &g)
        return cols
    windows = sliding_windows(x, geometry, 0).transpose(1, 2, 3, 0, 4, 5)
    return np.ascontiguousarray(windows).reshape(x.shape[1] * k[0] * k[1],
                                                 x.shape[0] * ohw[0] * ohw[1])


cdef cnp.ndarray col2im_kmajor(object cols, tuple nc, tuple geometry):
    """The transpose of im2col_kmajor: columns (.., C*KH*KW, N*L) summed into (N, C, H, W)."""
    k, ohw = geometry[1], geometry[5]
    cdef agc_geom2d g
    cdef cnp.ndarray cc, x
    cdef Py_ssize_t N = nc[0], C = nc[1]
    if isinstance(cols, cnp.ndarray) and c_float(cols):
        g = c_geometry(geometry)
        cc = np.ascontiguousarray(cols)
        x = np.empty((N, C, g.H, g.W), dtype=cols.dtype)
        if cnp.PyArray_TYPE(cc) == cnp.NPY_FLOAT32:
            with nogil:
                agc_col2im_kmajor_f32(<float *>cnp.PyArray_DATA(cc), <float *>cnp.PyArray_DATA(x), N, C, &g)
        else:
            with nogil:
                agc_col2im_kmajor_f64(<double *>cnp.PyArray_DATA(cc), <double *>cnp.PyArray_DATA(x), N, C, &g)
        return x
    return sum_windows(cols.reshape(nc[1], k[0], k[1], nc[0], ohw[0], ohw[1]).transpose(
        3, 0, 1, 2, 4, 5), geometry)


cdef class ConvolutionBackward0(Node):
    """Backward of convolution, plain or transposed, of 1, 2 or 3 spatial dims (table entry
    `convolution`, written by hand: for the plain 1-D/2-D case it keeps the forward's
    im2col columns for the weight's gradient, one GEMM per group). Outside create_graph
    that case takes fused numpy GEMMs; otherwise the gradients are convolutions themselves
    (a convolution's input gradient is the transposed convolution and vice versa, its
    weight gradient a convolution of input and grad), so they are differentiable and
    linked (Note [Backward links])."""
    cdef SavedTensor saved_input
    cdef SavedTensor saved_weight
    cdef object cols            # (G, Kg, N*L) columns of the input (when weight needs grad)
    cdef tuple x4_shape         # the input as (N, C, H, W) (fast 2-D case)
    cdef tuple w4_shape         # the weight as (OC, C/G, KH, KW) (fast 2-D case)
    cdef tuple geometry
    cdef tuple stride, padding, dilation, output_padding
    cdef bint transposed, fast2d
    cdef Py_ssize_t groups
    cdef bint has_bias

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        cdef Tensor x = unpack_saved(self.saved_input, self)
        cdef Tensor w = unpack_saved(self.saved_weight, self)
        if self.fast2d and not grad_enabled() and not fw_active():
            return self.fast_apply(g, x, w)
        cdef tuple xs = shape_of(x._data), ws = shape_of(w._data), gs = shape_of(g._data)
        cdef int nsp = len(ws) - 2, i
        cdef Py_ssize_t G = self.groups
        s, p, d = self.stride, self.padding, self.dilation
        k = ws[2:]
        gx = gw = gb = None
        if needs_input_grad(self, 0):
            if self.transposed:
                gx = convolution_impl(g, w, None, s, p, d, False, (0,) * nsp, G)
                gx = crop_to(gx, xs[2:])
            else:
                opad = tuple([xs[2 + i] + 2 * p[i] - d[i] * (k[i] - 1) - 1 - (gs[2 + i] - 1) * s[i]
                              for i in range(nsp)])
                gx = convolution_impl(g, w, None, s, p, d, True, opad, G)
            gx = op__convolution_backward_link(gx, x, w)
        if needs_input_grad(self, 1):
            gw = (conv_weight_grad(g, x, ws, s, p, d, G) if self.transposed else
                  conv_weight_grad(x, g, ws, s, p, d, G))
            gw = op__convolution_backward_link(gw, x, w)
        if self.has_bias and needs_input_grad(self, 2):
            gb = op__convolution_backward_link(
                OPS.sum(g, tuple([0] + list(range(2, 2 + nsp))), False, None), x, w)
        return (gx, gw, gb) if self.has_bias else (gx, gw)

    cdef tuple fast_apply(self, Tensor g, Tensor x, Tensor w):
        """The gradients as plain arrays (no create_graph): one GEMM per group."""
        N, C, H, W = self.x4_shape
        OC, Cg, KH, KW = self.w4_shape
        G = self.groups
        OCg, Kg = OC // G, Cg * KH * KW
        L = self.geometry[5][0] * self.geometry[5][1]
        cdef cnp.ndarray ga = g._data, gT, gba
        gx = gw = gb = None
        cdef bint want_gb = self.has_bias and needs_input_grad(self, 2)
        cdef Py_ssize_t cN = N, cOC = OC, cL = L
        cdef void *gbp = NULL
        if c_float(ga):     # the transpose and the bias gradient in one pass
            ga = np.ascontiguousarray(ga)
            gT = np.empty((OC, N * L), dtype=ga.dtype)
            gba = np.empty(OC if want_gb else 0, dtype=ga.dtype)
            if want_gb:
                gbp = cnp.PyArray_DATA(gba)
            if cnp.PyArray_TYPE(ga) == cnp.NPY_FLOAT32:
                with nogil:
                    agc_conv_grad_t_f32(<float *>cnp.PyArray_DATA(ga), <float *>cnp.PyArray_DATA(gT),
                                        <float *>gbp, cN, cOC, cL)
            else:
                with nogil:
                    agc_conv_grad_t_f64(<double *>cnp.PyArray_DATA(ga), <double *>cnp.PyArray_DATA(gT),
                                        <double *>gbp, cN, cOC, cL)
            gT = gT.reshape(G, OCg, N * L)
            if want_gb:
                gb = make(gba)
        else:
            gT = np.ascontiguousarray(ga.reshape(N, G, OCg, L).transpose(1, 2, 0, 3)).reshape(
                G, OCg, N * L)
        if needs_input_grad(self, 0):
            gcols = np.matmul(w._data.reshape(G, OCg, Kg).transpose(0, 2, 1), gT)  # (G, Kg, N*L)
            blas_called(G * Kg * OCg * N * L)      # Note [Sharing the cores with BLAS]
            gx = make(cast_like(col2im_kmajor(gcols, (N, C), self.geometry), ga).reshape(
                shape_of(x._data)))
        if needs_input_grad(self, 1):
            cols = self.cols
            if cols is None:
                cols = self.columns(x)
            # np.dot multiplies by the transposed view through BLAS's transpose flag
            gw = make(cast_like(np.dot(gT[0], cols[0].T) if G == 1 else
                                np.matmul(gT, cols.transpose(0, 2, 1)), ga).reshape(shape_of(w._data)))
            blas_called(G * OCg * N * L * Kg)      # Note [Sharing the cores with BLAS]
        if want_gb and gb is None:
            gb = make(cast_like(ga.reshape(N, OC, L).sum(axis=(0, 2)), ga))
        return (gx, gw, gb) if self.has_bias else (gx, gw)

    cdef object columns(self, Tensor x):
        N, C, H, W = self.x4_shape
        OC, Cg, KH, KW = self.w4_shape
        L = self.geometry[5][0] * self.geometry[5][1]
        return im2col_kmajor(x._data.reshape(self.x4_shape), self.geometry).reshape(
            self.groups, Cg * KH * KW, N * L)

    cdef void release_saved(self) noexcept:
        self.saved_input = None
        self.saved_weight = None
        self.cols = None
        set_released(self)

    @property
    def _saved_input(self):
        return unpack_saved(self.saved_input, self)

    @property
    def _saved_weight(self):
        return unpack_saved(self.saved_weight, self)


cdef Tensor crop_to(Tensor t, tuple size):
    """t's spatial dims narrowed to size (a gradient through a convolution whose windows
    leave some trailing elements unvisited is a few elements too long)."""
    cdef int i
    for i in range(len(size)):
        if shape_of(t._data)[2 + i] != size[i]:
            t = OPS.narrow(t, 2 + i, 0, size[i])
    return t


cdef Tensor conv_weight_grad(Tensor x, Tensor g, tuple ws, tuple s, tuple p, tuple d,
                             Py_ssize_t G):
    """The weight gradient (ws) of convolution(x, weight, s, p, d, G) given grad g: itself a
    convolution, over the batch, of x (as G*N channels of Cg) with g (as G*OCg filters),
    stride and dilation swapped. For a transposed convolution call it with x and g swapped."""
    cdef tuple xs = shape_of(x._data), gs = shape_of(g._data)
    cdef int nsp = len(xs) - 2, i
    cdef Py_ssize_t N = xs[0], Cg = xs[1] // G, OCg = gs[1] // G
    sp = list(range(3, 3 + nsp))
    xt = OPS.reshape(OPS.permute(OPS.reshape(x, (N, G, Cg) + xs[2:]), [2, 1, 0] + sp),
                     (Cg, G * N) + xs[2:])
    gt = OPS.reshape(OPS.permute(OPS.reshape(g, (N, G, OCg) + gs[2:]), [1, 2, 0] + sp),
                     (G * OCg, N) + gs[2:])
    r = crop_to(convolution_impl(xt, gt, None, d, p, s, False, (0,) * nsp, G), ws[2:])
    # (G*OCg, Cg, *k): (OC, C/G, *k), or transposed (Cin, OC/G, *k); PyTorch's weight
    # gradient is a fresh contiguous tensor (a later view(-1) of it works)
    return OPS.clone(OPS.transpose(r, 0, 1), _contiguous_format)


cdef tuple conv_geometry_nd(tuple insz, tuple k, tuple d, tuple p, tuple s, tuple osz):
    """The 2-D geometry of csrc/agc_nn.c for a 1-D (height 1) or 2-D convolution whose
    sliding windows give osz (given: a transposed convolution's may be one short)."""
    if len(k) == 1:
        return ((1, insz[0]), (1, k[0]), (1, d[0]), (0, p[0]), (1, s[0]), (1, osz[0]))
    return (insz, k, d, p, s, osz)


cdef object im2col_nd(cnp.ndarray x, tuple k, tuple d, tuple p, tuple s, tuple osz):
    """Columns (C*prod(k), N*prod(osz)) of x (N, C, *insz), K-major (one C pass for 1-D/2-D)."""
    cdef int nsp = len(k), i
    cdef tuple xs = shape_of(x)
    N, C = xs[0], xs[1]
    if nsp <= 2:
        geometry = conv_geometry_nd(xs[2:], k, d, p, s, osz)
        return im2col_kmajor(x.reshape((N, C) + geometry[0]), geometry)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(v, v) for v in p]) if any(p) else x
    st = xp.strides
    win = np.lib.stride_tricks.as_strided(
        xp, (N, C) + k + osz, st[:2] + tuple([st[2 + i] * d[i] for i in range(nsp)]) +
        tuple([st[2 + i] * s[i] for i in range(nsp)]), writeable=False)
    perm = [1] + list(range(2, 2 + nsp)) + [0] + list(range(2 + nsp, 2 + 2 * nsp))
    return np.ascontiguousarray(win.transpose(perm)).reshape(
        C * int(np.prod(k)), N * int(np.prod(osz)))


cdef cnp.ndarray col2im_nd(object cols, Py_ssize_t N, Py_ssize_t C, tuple insz, tuple k,
                           tuple d, tuple p, tuple s, tuple osz):
    """The transpose of im2col_nd: columns (C*prod(k), N*prod(osz)) summed into (N, C, *insz)."""
    cdef int nsp = len(k), i
    if nsp <= 2:
        geometry = conv_geometry_nd(insz, k, d, p, s, osz)
        return col2im_kmajor(cols, (N, C), geometry).reshape((N, C) + insz)
    xp = np.zeros((N, C) + tuple([insz[i] + 2 * p[i] for i in range(nsp)]), dtype=cols.dtype)
    win = cols.reshape((C,) + k + (N,) + osz)
    for off in itertools.product(*[range(v) for v in k]):
        sl = tuple([slice(off[i] * d[i], off[i] * d[i] + s[i] * (osz[i] - 1) + 1, s[i])
                    for i in range(nsp)])
        xp[(slice(None), slice(None)) + sl] += np.swapaxes(win[(slice(None),) + off], 0, 1)
    return np.ascontiguousarray(
        xp[(slice(None), slice(None)) + tuple([slice(p[i], p[i] + insz[i]) for i in range(nsp)])])


cdef Tensor op_convolution(Tensor input, Tensor weight, Tensor bias, object stride,
                           object padding, object dilation, object groups):
    """Convolution of a batched input with symmetric padding (conv1d/2d/3d handle
    'same'/'valid', unbatched inputs and asymmetric padding first)."""
    cdef int nsp = cnp.PyArray_NDIM(weight._data) - 2
    return convolution_impl(input, weight, bias, pair(stride, "stride", nsp),
                            pair(padding, "padding", nsp), pair(dilation, "dilation", nsp),
                            False, (0,) * nsp, groups)


cdef tuple _real_imag(Tensor t):
    cdef Tensor r = OPS.view_as_real(OPS.resolve_conj(t))
    return OPS.select(r, -1, 0), OPS.select(r, -1, 1)


cdef Tensor _complex_convolution(Tensor x, Tensor w, Tensor b, tuple s, tuple p, tuple d,
                                 bint transposed, tuple op, object groups):
    """PyTorch's complex_convolution: three real convolutions (Gauss's trick),
    (a + ib)(c + id) = (ac - bd) + i((a + b)(c + d) - ac - bd), composed of
    differentiable ops, so the graph and gradients are PyTorch's."""
    xr, xi = _real_imag(x)
    wr, wi = _real_imag(w)
    cdef Tensor ac, bd, cross
    if b is None:
        ac = convolution_impl(xr, wr, None, s, p, d, transposed, op, groups)
        bd = convolution_impl(xi, wi, None, s, p, d, transposed, op, groups)
        cross = convolution_impl(OPS.add(xr, xi, 1), OPS.add(wr, wi, 1), None, s, p, d,
                                 transposed, op, groups)
    else:
        br, bi = _real_imag(b)
        ac = convolution_impl(xr, wr, br, s, p, d, transposed, op, groups)
        bd = convolution_impl(xi, wi, None, s, p, d, transposed, op, groups)
        cross = convolution_impl(OPS.add(xr, xi, 1), OPS.add(wr, wi, 1), OPS.add(br, bi, 1),
                                 s, p, d, transposed, op, groups)
    return OPS.add(OPS.sub(ac, bd, 1),
                   OPS.mul_scalar(OPS.sub(OPS.sub(cross, ac, 1), bd, 1), 1j), 1)


cdef Tensor convolution_impl(Tensor input, Tensor weight, Tensor bias, tuple s, tuple p,
                             tuple d, bint transposed, tuple op, object groups):
    """The one convolution (PyTorch's aten::convolution) of a batched input: plain, or
    transposed (the input gradient of the plain one; weight (Cin, OC/G, *k)); 1-3 spatial
    dims. Records ConvolutionBackward0."""
    cdef Tensor x = input, w = weight, b = bias
    cdef int nsp = cnp.PyArray_NDIM(w._data) - 2, i
    cdef dtype xd = dtype_of(x._data), wd = dtype_of(w._data)
    if xd is not wd:
        raise RuntimeError(f"expected scalar type {xd.scalar_name} but found {wd.scalar_name}")
    if b is not None and dtype_of(b._data) is not xd:
        raise RuntimeError(f"Input type ({xd.cpp_name}) and bias type "
                           f"({(<dtype>dtype_of(b._data)).cpp_name}) should be the same")
    if xd.category == CAT_COMPLEX:
        return _complex_convolution(x, w, b, s, p, d, transposed, op, groups)
    check_float_kernel(xd, f"slow_conv_transpose{max(nsp, 2)}d_cpu" if transposed else
                       ("slow_conv3d_cpu" if nsp == 3 else "slow_conv2d_cpu"))
    cdef Py_ssize_t G = groups
    if G <= 0:
        raise RuntimeError("non-positive groups is not supported")
    cdef tuple xs = shape_of(x._data), ws = shape_of(w._data)
    k = ws[2:]
    if any([v <= 0 for v in s]):
        raise RuntimeError("non-positive stride is not supported")
    if any([v <= 0 for v in d]):
        raise RuntimeError("dilation should be greater than zero")
    if any([v < 0 for v in p]):
        raise RuntimeError("negative padding is not supported")
    if any([v < 0 for v in op]):
        raise RuntimeError("negative output_padding is not supported")
    if ws[0] % G:
        raise RuntimeError(
            f"Given groups={G}, expected weight to be divisible by {G} at dimension 0, but got "
            f"weight of size [{shape_str(ws)}] instead")
    cdef Py_ssize_t N = xs[0], C = xs[1]
    cdef Py_ssize_t OC = ws[1] * G if transposed else ws[0]
    if transposed:
        if C != ws[0]:
            raise RuntimeError(
                f"Given transposed=1, weight of size {shape_str(ws)}, expected input"
                f"{shape_str(xs)} to have {ws[0]} channels, but got {C} channels instead")
        if any([op[i] >= s[i] and op[i] >= d[i] for i in range(nsp)]):
            raise RuntimeError(
                f"output padding must be smaller than either stride or dilation, but got "
                f"output_padding_height: {op[0]} output_padding_width: {op[nsp - 1]} "
                f"stride_height: {s[0]} stride_width: {s[nsp - 1]} dilation_height: {d[0]} "
                f"dilation_width: {d[nsp - 1]}")
    elif C != ws[1] * G:
        raise RuntimeError(
            f"Given groups={G}, weight of size {shape_str(ws)}, expected input{shape_str(xs)} to "
            f"have {ws[1] * G} channels, but got {C} channels instead")
    if b is not None and (cnp.PyArray_NDIM(b._data) != 1 or shape_of(b._data)[0] != OC):
        raise RuntimeError(
            f"Given {'transposed=1, ' if transposed else ''}weight of size {shape_str(ws)}, "
            f"expected bias to be 1-dimensional with {OC} elements, but got bias of size "
            f"{shape_str(shape_of(b._data))} instead")
    cdef tuple insz = xs[2:], osz
    if transposed:
        osz = tuple([(insz[i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + 1 + op[i]
                     for i in range(nsp)])
        if any([v <= 0 for v in osz]):
            lead = (1,) if nsp == 1 else ()      # PyTorch runs 1-D as 2-D of height 1
            raise RuntimeError(
                f"Given input size per channel: ({' x '.join([str(v) for v in lead + insz])}). "
                f"Calculated output size per channel: "
                f"({' x '.join([str(v) for v in lead + osz])}). Output size is too small")
    else:
        padded = tuple([insz[i] + 2 * p[i] for i in range(nsp)])
        eff = tuple([d[i] * (k[i] - 1) + 1 for i in range(nsp)])
        if any([padded[i] < eff[i] for i in range(nsp)]):
            raise RuntimeError(
                f"Calculated padded input size per channel: "
                f"({' x '.join([str(v) for v in padded])}). Kernel size: "
                f"({' x '.join([str(v) for v in eff])}). Kernel size can't be greater "
                f"than actual input size")
        osz = tuple([conv_out(insz[i], 2 * p[i], k[i], d[i], s[i]) for i in range(nsp)])
    cdef cnp.ndarray xa = x._data, wa = w._data
    cdef Py_ssize_t K = int(np.prod(k)), OCg = OC // G, Cg = C // G
    cdef Py_ssize_t L = int(np.prod(osz)), Lin = int(np.prod(insz))
    cols = None
    if transposed:
        # the input gradient of the plain convolution: W^T x per group, summed back by col2im
        xg = np.ascontiguousarray(xa.reshape(N, G, Cg, Lin).transpose(1, 2, 0, 3)).reshape(
            G, Cg, N * Lin)
        ycols = np.matmul(wa.reshape(G, Cg, OCg * K).transpose(0, 2, 1), xg)
        blas_called(G * OCg * K * Cg * N * Lin)      # Note [Sharing the cores with BLAS]
        out = col2im_nd(ycols.reshape(OC * K, N * Lin), N, OC, osz, k, d, p, s, insz)
        if b is not None:
            out += b._data.reshape((OC,) + (1,) * nsp)
    else:
        cols = im2col_nd(xa, k, d, p, s, osz).reshape(G, Cg * K, N * L)
        out = np.matmul(wa.reshape(G, OCg, Cg * K), cols)             # (G, OCg, N*L)
        blas_called(G * OCg * Cg * K * N * L)      # Note [Sharing the cores with BLAS]
        out = conv_out_layout(out, b, N, OC, L).reshape((N, OC) + osz)
    # PyTorch's convolution writes channels-last when the input, or else the weight,
    # suggests it, otherwise contiguous (_determine_backend_memory_format); its 3-d
    # kernels for other dtypes than float32 (slow3d: no mkldnn) always write contiguous
    out = cast_like(out, x._data)
    cdef Tensor result = make(
        as_contiguous(out) if nsp == 3 and cnp.PyArray_TYPE(xa) != cnp.NPY_FLOAT32 else
        in_suggested_format(out, xa if suggested_format(xa) else wa))
    if fw_active():
        _fw_convolution(result, x, w, b, s, p, d, transposed, op, groups)
    cdef tuple inputs = (x, w, b) if b is not None else (x, w)
    if not should_record(inputs, result._data, None):
        return result
    cdef ConvolutionBackward0 node = ConvolutionBackward0.__new__(ConvolutionBackward0)
    node.saved_input = save(x)
    node.saved_weight = save(w)
    node.stride, node.padding, node.dilation, node.output_padding = s, p, d, op
    node.transposed = transposed
    node.groups = G
    node.has_bias = b is not None
    node.fast2d = not transposed and nsp <= 2
    if node.fast2d:
        node.geometry = conv_geometry_nd(insz, k, d, p, s, osz)
        node.x4_shape = (N, C) + node.geometry[0]
        node.w4_shape = (OC, ws[1]) + node.geometry[1]
        if requires_grad_of(w):
            node.cols = cols
    record(node, result, inputs)
    return result


cdef object conv_out_layout(object out, Tensor b, Py_ssize_t N, Py_ssize_t OC, Py_ssize_t L):
    """GEMM output (G, OCg, N*L) as (N, OC, L), plus the bias (one C pass for floats)."""
    cdef cnp.ndarray prod, outa
    cdef void *bp = NULL
    if c_float(out) and (b is None or cnp.PyArray_TYPE(b._data) == cnp.PyArray_TYPE(out)):
        prod = np.ascontiguousarray(out)
        outa = np.empty((N, OC, L), dtype=out.dtype)
        ba = np.ascontiguousarray(b._data) if b is not None else None
        if ba is not None:
            bp = cnp.PyArray_DATA(<cnp.ndarray>ba)
        if cnp.PyArray_TYPE(prod) == cnp.NPY_FLOAT32:
            with nogil:
                agc_conv_out_f32(<float *>cnp.PyArray_DATA(prod), <float *>bp,
                                 <float *>cnp.PyArray_DATA(outa), N, OC, L)
        else:
            with nogil:
                agc_conv_out_f64(<double *>cnp.PyArray_DATA(prod), <double *>bp,
                                 <double *>cnp.PyArray_DATA(outa), N, OC, L)
        return outa
    res = np.ascontiguousarray(out.reshape(OC, N, L).transpose(1, 0, 2))
    if b is not None:
        res += b._data.reshape(OC, 1)
    return res


cdef Tensor op__convolution_backward_link(Tensor grad_input, Tensor input, Tensor weight):
    # Note [Backward links]
    cdef Tensor result = make(grad_input._data)
    record_ConvolutionBackwardBackward0(result, grad_input, input, weight)
    return result if result._grad_fn is not None else grad_input


cdef wrong_weight_dims(Tensor weight, object stride, int nsp):
    """PyTorch sizes the int[] arguments by the weight's dims first: a weight whose dims do
    not match the function's fails there, naming the stride (a single value still passes)."""
    cdef int wnd = cnp.PyArray_NDIM(weight._data)
    s = pair(stride, "stride", nsp)
    if wnd >= 3 and len(s) != 1:
        raise RuntimeError(
            f"expected stride to be a single integer value or a list of {wnd - 2} values to "
            f"match the convolution dimensions, but got stride=[{', '.join([str(v) for v in s])}]")


cdef Tensor conv_nd(Tensor input, Tensor weight, Tensor bias, object stride, object padding,
                    object dilation, object groups, int nsp):
    """conv1d / conv2d / conv3d: unbatched inputs, and padding 'valid' / 'same' (asymmetric 'same'
    padding pads the input first, as PyTorch's _convolution_same_mode)."""
    cdef str fname = f"conv{nsp}d"
    cdef int nd = cnp.PyArray_NDIM(input._data), wnd = cnp.PyArray_NDIM(weight._data), i
    if nd != nsp + 1 and nd != nsp + 2:
        raise RuntimeError(
            f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to {fname}, but got "
            f"input of size: {shape_str(shape_of(input._data))}")
    if nd == nsp + 1:
        return OPS.squeeze(conv_nd(OPS.unsqueeze(input, 0), weight, bias, stride, padding,
                                   dilation, groups, nsp), 0)
    if wnd != nsp + 2:
        wrong_weight_dims(weight, stride, nsp)
        raise RuntimeError(
            "weight should have at least three dimensions" if wnd < 3 else
            f"Expected {nsp + 2}-dimensional weight for {nsp + 2}-dimensional input "
            f"{shape_str(shape_of(input._data))}, but got {wnd}-dimensional weight of size "
            f"{shape_str(shape_of(weight._data))} instead")
    if not isinstance(padding, str):
        return op_convolution(input, weight, bias, stride, padding, dilation, groups)
    s = pair(stride, "stride", nsp)
    d = pair(dilation, "dilation", nsp)
    if padding == "valid":
        return op_convolution(input, weight, bias, s, (0,) * nsp, d, groups)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any([v != 1 for v in s]):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    k = shape_of(weight._data)[2:]
    total = [d[i] * (k[i] - 1) for i in range(nsp)]
    left = [t // 2 for t in total]
    if any([t % 2 for t in total]):
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may "
                      "require a zero-padded copy of the input be created", UserWarning,
                      stacklevel=3)
        pad_nd = [0] * (2 * nsp)
        for i in range(nsp):
            delta = (total[i] - left[i]) - left[i]
            if delta > 0:
                pad_nd[2 * (nsp - 1 - i) + 1] = delta
        input = op_constant_pad_nd(input, tuple(pad_nd), 0)
    return op_convolution(input, weight, bias, s, tuple(left), d, groups)


cdef Tensor op_conv1d(Tensor input, Tensor weight, Tensor bias, object stride, object padding,
                      object dilation, object groups):
    return conv_nd(input, weight, bias, stride, padding, dilation, groups, 1)


cdef Tensor op_conv2d(Tensor input, Tensor weight, Tensor bias, object stride, object padding,
                      object dilation, object groups):
    return conv_nd(input, weight, bias, stride, padding, dilation, groups, 2)


def _py_conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution (cross-correlation) of a (N, C, L) input with (OC, C/groups, K)
    filters; padding a number, a tuple, 'valid' or 'same'.

    >>> import autograd_core as torch
    >>> torch.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2)).tolist()
    [[[2.0, 2.0, 2.0]]]
    """
    if (type(input) is not Tensor and has_torch_function(input)) or (type(weight) is not Tensor and has_torch_function(weight)) or (type(bias) is not Tensor and has_torch_function(bias)) or (type(stride) is not Tensor and has_torch_function(stride)) or (type(padding) is not Tensor and has_torch_function(padding)) or (type(dilation) is not Tensor and has_torch_function(dilation)) or (type(groups) is not Tensor and has_torch_function(groups)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_conv1d, (input, weight, bias, stride, padding, dilation, groups, ), {})
    return OPS.conv1d(arg_tensor(input, "conv1d", "input", 1),
                     arg_tensor(weight, "conv1d", "weight", 2),
                     None if bias is None else arg_tensor(bias, "conv1d", "bias", 3),
                     stride, padding, dilation, arg_int(groups, "conv1d", "groups", 7))


def _py_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution (cross-correlation) of a (N, C, H, W) input with
    (OC, C/groups, KH, KW) filters; padding a number, a tuple, 'valid' or 'same'.

    >>> import autograd_core as torch
    >>> torch.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2)).tolist()
    [[[[4.0, 4.0], [4.0, 4.0]]]]
    """
    if (type(input) is not Tensor and has_torch_function(input)) or (type(weight) is not Tensor and has_torch_function(weight)) or (type(bias) is not Tensor and has_torch_function(bias)) or (type(stride) is not Tensor and has_torch_function(stride)) or (type(padding) is not Tensor and has_torch_function(padding)) or (type(dilation) is not Tensor and has_torch_function(dilation)) or (type(groups) is not Tensor and has_torch_function(groups)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_conv2d, (input, weight, bias, stride, padding, dilation, groups, ), {})
    return OPS.conv2d(arg_tensor(input, "conv2d", "input", 1),
                     arg_tensor(weight, "conv2d", "weight", 2),
                     None if bias is None else arg_tensor(bias, "conv2d", "bias", 3),
                     stride, padding, dilation, arg_int(groups, "conv2d", "groups", 7))


_py_conv1d.__name__ = _py_conv1d.__qualname__ = "conv1d"
_py_conv2d.__name__ = _py_conv2d.__qualname__ = "conv2d"


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution (cross-correlation) of a (N, C, D, H, W) input with
    (OC, C/groups, KD, KH, KW) filters; padding a number, a tuple, 'valid' or 'same'.

    >>> import autograd_core as torch
    >>> torch.conv3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 2, 2, 2)).flatten().tolist()
    [8.0]
    """
    return conv_nd(arg_tensor(input, "conv3d", "input", 1),
                   arg_tensor(weight, "conv3d", "weight", 2),
                   None if bias is None else arg_tensor(bias, "conv3d", "bias", 3),
                   stride, padding, dilation, arg_int(groups, "conv3d", "groups", 7), 3)


def conv_transpose(int nsp, input, weight, bias, stride, padding, output_padding, groups,
                   dilation):
    """conv_transpose{nsp}d: the input gradient of conv{nsp}d, weight (Cin, OC/groups, *k);
    unbatched inputs too.

    >>> import autograd_core as torch
    >>> from autograd_core.ops import nn
    >>> nn.conv_transpose(1, torch.ones(1, 1, 2), torch.ones(1, 1, 2), None, 1, 0, 0, 1, 1).tolist()
    [[[1.0, 2.0, 1.0]]]
    """
    cdef str fname = f"conv_transpose{nsp}d"
    cdef Tensor x = arg_tensor(input, fname, "input", 1)
    cdef Tensor w = arg_tensor(weight, fname, "weight", 2)
    cdef Tensor b = None if bias is None else arg_tensor(bias, fname, "bias", 3)
    cdef int nd = cnp.PyArray_NDIM(x._data), wnd = cnp.PyArray_NDIM(w._data)
    if nd != nsp + 1 and nd != nsp + 2:
        raise RuntimeError(
            f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to {fname}, but got "
            f"input of size: {shape_str(shape_of(x._data))}")
    if wnd != nsp + 2:
        wrong_weight_dims(weight, stride, nsp)
        raise RuntimeError(
            "weight should have at least three dimensions" if wnd < 3 else
            f"Expected {nsp + 2}-dimensional weight for {nsp + 2}-dimensional input "
            f"{shape_str(shape_of(x._data))}, but got {wnd}-dimensional weight of size "
            f"{shape_str(shape_of(w._data))} instead")
    if isinstance(padding, str):
        raise TypeError(f"{fname}(): argument 'padding' must be tuple of ints, not str")
    cdef bint unbatched = nd == nsp + 1
    if unbatched:
        x = OPS.unsqueeze(x, 0)
    out = convolution_impl(x, w, b, pair(stride, "stride", nsp), pair(padding, "padding", nsp),
                           pair(dilation, "dilation", nsp),
                           True, pair(output_padding, "output_padding", nsp),
                           arg_int(groups, fname, "groups", 7))
    return OPS.squeeze(out, 0) if unbatched else out


# ================================================================ pairwise_distance

cdef Tensor op_pairwise_distance(Tensor x1, Tensor x2, object p, object eps, bint keepdim):
    cdef Py_ssize_t nd = max(cnp.PyArray_NDIM(x1._data), cnp.PyArray_NDIM(x2._data))
    return OPS._norm_dim(OPS.add_scalar(OPS.sub(x1, x2, 1), eps, 1), p, (nd - 1,), keepdim)


# ================================================================ pixel and channel shuffles

cdef Tensor op_pixel_shuffle(Tensor self, object upscale_factor):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), r = upscale_factor
    if nd < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got "
                           f"input with {nd} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    cdef tuple shape = shape_of(x)
    c, h, w = shape[nd - 3], shape[nd - 2], shape[nd - 1]
    if c % (r * r):
        raise RuntimeError(
            f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    batch = shape[:nd - 3]
    nb = nd - 3
    out = x.reshape(batch + (c // (r * r), r, r, h, w)).transpose(
        tuple(range(nb)) + (nb, nb + 3, nb + 1, nb + 4, nb + 2))
    cdef Tensor result = make(np.ascontiguousarray(out).reshape(batch + (c // (r * r), h * r, w * r)))
    record_PixelShuffleBackward0(result, self, upscale_factor)
    return result


cdef Tensor op_pixel_unshuffle(Tensor self, object downscale_factor):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), r = downscale_factor
    if nd < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but "
                           f"got input with {nd} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    cdef tuple shape = shape_of(x)
    c, h, w = shape[nd - 3], shape[nd - 2], shape[nd - 1]
    if h % r:
        raise RuntimeError(f"pixel_unshuffle expects height to be divisible by downscale_factor, "
                           f"but input.size(-2)={h} is not divisible by {r}")
    if w % r:
        raise RuntimeError(f"pixel_unshuffle expects width to be divisible by downscale_factor, "
                           f"but input.size(-1)={w} is not divisible by {r}")
    batch = shape[:nd - 3]
    nb = nd - 3
    out = x.reshape(batch + (c, h // r, r, w // r, r)).transpose(
        tuple(range(nb)) + (nb, nb + 2, nb + 4, nb + 1, nb + 3))
    cdef Tensor result = make(np.ascontiguousarray(out).reshape(batch + (c * r * r, h // r, w // r)))
    record_PixelUnshuffleBackward0(result, self, downscale_factor)
    return result


cdef cnp.ndarray channel_shuffle_values(Tensor self, object groups):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), g = groups
    if nd <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {shape_str(shape_of(x))}")
    if g <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{g}")
    cdef tuple shape = shape_of(x)
    c = shape[1]
    if c % g:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {g} groups.")
    out = x.reshape((shape[0], g, c // g) + shape[2:]).swapaxes(1, 2)
    return np.ascontiguousarray(out).reshape(shape)


cdef Tensor op_channel_shuffle(Tensor self, object groups):
    cdef Tensor result = make(channel_shuffle_values(self, groups))
    record_ChannelShuffleBackward0(result, self, groups)
    return result


cdef Tensor channel_shuffle_backward(Tensor grad, object groups):
    # the inverse shuffle: channel_shuffle by the group size
    return op_channel_shuffle(grad, shape_of(grad._data)[1] // groups)


cdef Tensor op_native_channel_shuffle(Tensor self, object groups):
    cdef Tensor result = make(channel_shuffle_values(self, groups))
    OPS.not_implemented_node(result, (self,), "native_channel_shuffle")  # (PyTorch has none)
    return result


# ================================================================ conv_tbc

cdef Tensor op_conv_tbc(Tensor self, Tensor weight, Tensor bias, object pad):
    cdef cnp.ndarray x = self._data, w = weight._data, b = bias._data
    if cnp.PyArray_NDIM(x) != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if cnp.PyArray_NDIM(w) != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                           "out_channels.")
    if cnp.PyArray_NDIM(b) != 1:
        raise RuntimeError("Bias must be 1-D")
    cdef tuple xs = shape_of(x), ws = shape_of(w)
    if xs[2] != ws[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if ws[2] != shape_of(b)[0]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    cdef Py_ssize_t T = xs[0], K = ws[0], p = pad, t_out = T + 2 * p - K + 1, k
    if t_out < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {t_out}: "
                           f"[{t_out}, {xs[1]}, {ws[2]}]")
    if p < 0:
        raise RuntimeError(f"conv_tbc: negative padding {p}")
    with quiet():
        xp = np.pad(x, ((p, p), (0, 0), (0, 0))) if p else x
        out = np.empty((t_out, xs[1], ws[2]), dtype=np.result_type(x, w, b))
        out[...] = b
        # PyTorch's order: the bias, then one product per kernel offset
        for k in range(K):
            out += np.matmul(xp[k:k + t_out], w[k])
    cdef Tensor result = make(cast_like(out, x))
    record_ConvTbcBackward0(result, self, weight, bias, pad)
    return result


cdef Tensor conv_tbc_backward_input(Tensor grad, Tensor self, Tensor weight, object pad):
    """Each kernel offset's product spread back over the padded time axis, the padding
    cut off: library ops, differentiable again."""
    cdef Py_ssize_t T = shape_of(self._data)[0], K = shape_of(weight._data)[0], p = pad, k
    cdef Py_ssize_t t_out = shape_of(grad._data)[0]
    total = None
    for k in range(K):
        part = OPS.matmul(grad, OPS.transpose(OPS.select(weight, 0, k), 0, 1))
        part = OPS.constant_pad_nd(part, [0, 0, 0, 0, k, K - 1 - k], 0)
        total = part if total is None else OPS.add(total, part, 1)
    return OPS.narrow(total, 0, p, T) if p else total


cdef Tensor conv_tbc_backward_weight(Tensor grad, Tensor self, Tensor weight, object pad):
    cdef Py_ssize_t K = shape_of(weight._data)[0], p = pad, k
    cdef Py_ssize_t t_out = shape_of(grad._data)[0], B = shape_of(grad._data)[1]
    cdef Tensor xp = OPS.constant_pad_nd(self, [0, 0, 0, 0, p, p], 0) if p else self
    cdef Tensor g2 = OPS.reshape(grad, (t_out * B, -1))
    parts = []
    for k in range(K):
        xk = OPS.reshape(OPS.narrow(xp, 0, k, t_out), (t_out * B, -1))
        parts.append(OPS.matmul(OPS.transpose(xk, 0, 1), g2))
    return OPS.stack(parts, 0)


# ================================================================ pooling

cdef Py_ssize_t pool_out(Py_ssize_t size, Py_ssize_t k, Py_ssize_t p, Py_ssize_t s,
                         Py_ssize_t d, bint ceil_mode):
    cdef Py_ssize_t out = floor_div(size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0),
                                    s) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


cdef inline tuple pool_stride(object stride, tuple k, str name):
    if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0):
        return k
    return pair(stride, name)


cdef tuple pool_geometry(Tensor x, str fname, object kernel_size, object stride,
                         object padding, object dilation, bint ceil_mode,
                         object divisor_override):
    """The im2col geometry of max_pool2d or avg_pool2d (fname), with PyTorch's checks in
    its order; avg_pool2d has no dilation (None: 1) and max_pool2d no divisor (None)."""
    k = pair(kernel_size, fname + ": kernel_size")
    s = pool_stride(stride, k, fname + ": stride")
    p = pair(padding, fname + ": padding")
    d = (1, 1) if dilation is None else pair(dilation, fname + ": dilation")
    cdef int nd = cnp.PyArray_NDIM(x._data)
    if nd != 3 and nd != 4:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if any([v <= 0 for v in k]):
        raise RuntimeError(f"{fname}: kernel_size must be greater than zero, but got kH: "
                           f"{k[0]} kW: {k[1]}")
    if any([v <= 0 for v in s]):
        raise RuntimeError(f"{fname}: stride must be greater than zero, but got dH: {s[0]} "
                           f"dW: {s[1]}")
    if any([v <= 0 for v in d]):
        raise RuntimeError(f"{fname}: dilation must be greater than zero, but got dilationH: "
                           f"{d[0]} dilationW: {d[1]}")
    for i in range(2):
        if p[i] > ((k[i] - 1) * d[i] + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p[i]}, "
                f"kernel_size={k[i]} and dilation={d[i]}")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    cdef tuple xs = shape_of(x._data)
    C, H, W = xs[nd - 3], xs[nd - 2], xs[nd - 1]
    OH = pool_out(H, k[0], p[0], s[0], d[0], ceil_mode)
    OW = pool_out(W, k[1], p[1], s[1], d[1], ceil_mode)
    if OH < 1 or OW < 1:
        raise RuntimeError(f"Given input size: ({C}x{H}x{W}). Calculated output size: "
                           f"({C}x{OH}x{OW}). Output size is too small")
    return ((H, W), k, d, p, s, (OH, OW))


cdef tuple op_max_pool2d_with_indices(Tensor self, object kernel_size, object stride,
                                      object padding, object dilation, bint ceil_mode):
    geometry = pool_geometry(self, "max_pool2d", kernel_size, stride, padding, dilation,
                             ceil_mode, None)
    check_float_kernel(dtype_of(self._data), "max_pool2d")
    cdef int nd = cnp.PyArray_NDIM(self._data)
    cdef cnp.ndarray xa = self._data if nd == 4 else self._data[None]
    N, C, H, W = shape_of(xa)
    hw, k, d, p, s, ohw = geometry
    OH, OW = ohw
    K, L = k[0] * k[1], OH * OW
    out_shape = (N, C, OH, OW) if nd == 4 else (C, OH, OW)
    cdef agc_geom2d g
    cdef cnp.ndarray xc, va, ia
    cdef Py_ssize_t planes = N * C
    if c_float(xa):         # values and indices in one pass over the input
        g = c_geometry(geometry)
        xc = np.ascontiguousarray(xa)
        va = np.empty(out_shape, dtype=xa.dtype)
        ia = np.empty(out_shape, dtype=np.int64)
        if cnp.PyArray_TYPE(xc) == cnp.NPY_FLOAT32:
            with nogil:
                agc_maxpool2d_f32(<float *>cnp.PyArray_DATA(xc), <float *>cnp.PyArray_DATA(va),
                                  <int64_t *>cnp.PyArray_DATA(ia), planes, &g)
        else:
            with nogil:
                agc_maxpool2d_f64(<double *>cnp.PyArray_DATA(xc), <double *>cnp.PyArray_DATA(va),
                                  <int64_t *>cnp.PyArray_DATA(ia), planes, &g)
        # (the kernel reads and writes NCHW; PyTorch's writes the input's memory format)
        r0, r1 = make(in_suggested_format(va, xa)), make(in_suggested_format(ia, xa))
        record_MaxPool2DWithIndicesBackward0(r0, r1, self, kernel_size, stride, padding,
                                             dilation, ceil_mode)
        return (r0, r1)
    # windows as the last axis of a contiguous (N, C, L, K) copy: argmax runs along memory
    win = np.ascontiguousarray(sliding_windows(xa, geometry, -np.inf).transpose(
        0, 1, 4, 5, 2, 3)).reshape(N, C, L, K)
    am = np.argmax(win, axis=3)
    vals = np.take_along_axis(win, am[:, :, :, None], axis=3)[:, :, :, 0]
    # flat input index of each (output position, window offset)
    lin = np.arange(L)
    kk = np.arange(K)
    table = (((lin // OW) * s[0] - p[0])[:, None] + (kk // k[1] * d[0])[None, :]) * W + \
        (((lin % OW) * s[1] - p[1])[:, None] + (kk % k[1] * d[1])[None, :])
    idx = table.reshape(-1)[(lin * K)[None, None, :] + am]
    cdef Tensor result0 = make(in_suggested_format(
        np.ascontiguousarray(vals).reshape(out_shape), xa))
    cdef Tensor result1 = make(in_suggested_format(
        np.ascontiguousarray(idx.reshape(out_shape)), xa))
    record_MaxPool2DWithIndicesBackward0(result0, result1, self, kernel_size, stride, padding,
                                         dilation, ceil_mode)
    return (result0, result1)


cdef Tensor op_max_pool2d(Tensor self, object kernel_size, object stride, object padding,
                          object dilation, bint ceil_mode):
    return op_max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


cdef Tensor op_max_pool2d_with_indices_backward(Tensor grad_output, Tensor self,
                                                object kernel_size, object stride,
                                                object padding, object dilation,
                                                bint ceil_mode, Tensor indices):
    """grad_output summed into the input positions its maxima came from."""
    cdef tuple xs = shape_of(self._data)
    cdef Py_ssize_t nd = len(xs)
    cdef Py_ssize_t width = xs[nd - 1] * xs[nd - 2]
    cdef cnp.ndarray ga = grad_output._data, gc, ic, gx
    cdef Py_ssize_t planes, L
    cdef int bad = 0
    cdef tuple ish = shape_of(indices._data)
    if c_float(ga) and shape_of(ga) == ish and cnp.PyArray_TYPE(indices._data) == cnp.NPY_INT64 \
            and len(ish) >= 2 and shape_numel(ish[:-2]) == shape_numel(xs[:-2]):
        # zeros, then each gradient added at its maximum: one pass
        gc, ic = np.ascontiguousarray(ga), np.ascontiguousarray(indices._data)
        L = ish[len(ish) - 1] * ish[len(ish) - 2]
        planes = shape_numel(ish) // L if L else 0
        gx = np.empty(xs, dtype=ga.dtype)
        if cnp.PyArray_TYPE(gc) == cnp.NPY_FLOAT32:
            with nogil:
                bad = agc_maxpool2d_backward_f32(<float *>cnp.PyArray_DATA(gc), <int64_t *>cnp.PyArray_DATA(ic),
                                                 <float *>cnp.PyArray_DATA(gx), planes, L, width)
        else:
            with nogil:
                bad = agc_maxpool2d_backward_f64(<double *>cnp.PyArray_DATA(gc), <int64_t *>cnp.PyArray_DATA(ic),
                                                 <double *>cnp.PyArray_DATA(gx), planes, L, width)
        if bad == 0 and L:
            res = make(gx)
            record_MaxPool2DWithIndicesBackwardBackward0(res, grad_output, self, kernel_size,
                                                         stride, padding, dilation, ceil_mode, indices)
            return res
    idx = indices._data.reshape(-1, shape_of(indices._data)[-1] * shape_of(indices._data)[-2])
    rows = idx.shape[0]
    gidx = (idx + (np.arange(rows, dtype=np.int64) * width)[:, None]).reshape(-1)
    out = np.bincount(gidx, weights=ga.reshape(-1), minlength=rows * width)
    cdef Tensor result = make(out.astype(ga.dtype).reshape(xs))
    record_MaxPool2DWithIndicesBackwardBackward0(result, grad_output, self, kernel_size, stride,
                                                 padding, dilation, ceil_mode, indices)
    return result


cdef Tensor max_pool_double_backward(Tensor grad, Tensor indices):
    """grad gathered at the maxima: grad.flatten(-2).gather(-1, indices.flatten(-2))."""
    cdef tuple ish = shape_of(indices._data)
    return OPS.view(OPS.gather(OPS.flatten(grad, -2, -1), -1,
                               make(indices._data.reshape(ish[:-2] + (-1,)))), ish)


cdef tuple window_max(cnp.ndarray x, Py_ssize_t nsp, list pos, list valid):
    """(values, flat indices) of the maximum of each window of x's last nsp dims: per dim
    i, pos[i] (O_i, K_i) the input positions of each output's window, valid[i] which are
    inside it. PyTorch's CPU rule: the first valid element, then each later one that is
    greater or NaN (so a NaN wins, the last NaN of the window)."""
    cdef tuple xs = shape_of(x)
    cdef Py_ssize_t nd = len(xs), lead = nd - nsp, i
    spatial = xs[lead:]
    outs = tuple([pp.shape[0] for pp in pos])
    best = None
    bidx = np.zeros(xs[:lead] + outs, dtype=np.int64)
    have = np.zeros(outs, dtype=bool)
    with quiet():
        for off in itertools.product(*[range(pp.shape[1]) for pp in pos]):
            vals = x
            flat = np.zeros(outs, dtype=np.int64)
            ok = np.ones(outs, dtype=bool)
            for i in range(nsp):
                col = pos[i][:, off[i]]
                vals = np.take(vals, np.clip(col, 0, spatial[i] - 1), axis=lead + i)
                shape = [1] * nsp
                shape[i] = outs[i]
                flat = flat * spatial[i] + np.clip(col, 0, spatial[i] - 1).reshape(shape)
                ok = ok & valid[i][:, off[i]].reshape(shape)
            if best is None:
                best = np.array(vals, copy=True)
                upd = np.broadcast_to(ok, vals.shape)
            else:
                upd = ok & (~have | (vals > best) | (vals != vals))
            best = np.where(upd, vals, best)
            bidx = np.where(upd, flat, bidx)
            have = have | ok
    return as_array(best).astype(x.dtype, copy=False), as_array(bidx)


cdef Py_ssize_t pool_out_len(Py_ssize_t length, Py_ssize_t k, Py_ssize_t s, Py_ssize_t p,
                             Py_ssize_t d, bint ceil_mode):
    cdef Py_ssize_t num = length + 2 * p - d * (k - 1) - 1
    cdef Py_ssize_t out = floor_div(num + (s - 1 if ceil_mode else 0), s) + 1
    if ceil_mode and (out - 1) * s >= length + p:
        out -= 1
    return out


cdef tuple op_max_pool3d_with_indices(Tensor self, object kernel_size, object stride,
                                      object padding, object dilation, bint ceil_mode):
    cdef cnp.ndarray x = self._data
    cdef tuple xs = shape_of(x)
    cdef Py_ssize_t nd = len(xs), i, o
    pos, valid = [], []
    for i in range(3):
        length = xs[nd - 3 + i]
        k, st, p, d = kernel_size[i], stride[i], padding[i], dilation[i]
        o = pool_out_len(length, k, st, p, d, ceil_mode)
        if o <= 0:
            raise RuntimeError(f"Given input size: ({'x'.join([str(v) for v in xs[1:]])}). "
                               "Calculated output size: (0x0x0). Output size is too small")
        col = np.arange(o)[:, None] * st - p + np.arange(k)[None, :] * d
        pos.append(col)
        valid.append((col >= 0) & (col < length))
    vals, idx = window_max(x, 3, pos, valid)
    cdef Tensor result0 = make(in_suggested_format(vals, x))
    cdef Tensor result1 = make(in_suggested_format(idx, x))
    record_MaxPool3DWithIndicesBackward0(result0, result1, self, kernel_size, stride, padding,
                                         dilation, ceil_mode)
    return (result0, result1)


cdef tuple op_adaptive_max_pool2d(Tensor self, object output_size):
    cdef cnp.ndarray x = self._data
    cdef tuple xs = shape_of(x)
    cdef Py_ssize_t nd = len(xs), i
    sizes = [output_size] * 2 if isinstance(output_size, int) else list(output_size)
    if len(sizes) == 1:
        sizes = sizes * 2
    pos, valid = [], []
    for i in range(2):
        length = xs[nd - 2 + i]
        o = sizes[i] if sizes[i] is not None else length
        oi = np.arange(o)
        start = (oi * length) // o
        end = -((-(oi + 1) * length) // o)
        kmax = int((end - start).max()) if o else 1
        col = start[:, None] + np.arange(kmax)[None, :]
        pos.append(col)
        valid.append(col < end[:, None])
    vals, idx = window_max(x, 2, pos, valid)
    cdef Tensor result0 = make(in_suggested_format(vals, x))
    cdef Tensor result1 = make(in_suggested_format(idx, x))
    record_AdaptiveMaxPool2DBackward0(result0, result1, self, output_size)
    return (result0, result1)


cdef cnp.ndarray adaptive_window_matrix(Py_ssize_t length, Py_ssize_t o, object np_dtype):
    """(o, length): row i is 1 / count on PyTorch's adaptive window i (floor(i*L/o) ..
    ceil((i+1)*L/o)), 0 elsewhere."""
    oi = np.arange(o)
    start = (oi * length) // o
    end = -((-(oi + 1) * length) // o)
    cols = np.arange(length)[None, :]
    inside = (cols >= start[:, None]) & (cols < end[:, None])
    return as_array(inside / (end - start)[:, None]).astype(np_dtype)


cdef tuple adaptive_avg_matrices(tuple xs, object output_size, object np_dtype):
    cdef Py_ssize_t nd = len(xs)
    sizes = [output_size] * 2 if isinstance(output_size, int) else list(output_size)
    if len(sizes) == 1:
        sizes = sizes * 2
    oh = sizes[0] if sizes[0] is not None else xs[nd - 2]
    ow = sizes[1] if sizes[1] is not None else xs[nd - 1]
    return (adaptive_window_matrix(xs[nd - 2], oh, np_dtype),
            adaptive_window_matrix(xs[nd - 1], ow, np_dtype))


cdef Tensor op__adaptive_avg_pool2d(Tensor self, object output_size):
    cdef cnp.ndarray x = self._data
    cdef tuple xs = shape_of(x)
    if len(xs) not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{shape_str(xs)}")
    check_float_kernel(dtype_of(x), "adaptive_avg_pool2d")
    ah, aw = adaptive_avg_matrices(xs, output_size, x.dtype)
    with quiet():
        out = np.matmul(np.matmul(ah, x), aw.T)
    cdef Tensor result = make(in_suggested_format(cast_like(out, x), x))
    record_AdaptiveAvgPool2DBackward0(result, self, output_size)
    return result


cdef Tensor op__adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self):
    cdef cnp.ndarray g = grad_output._data
    cdef tuple gs = shape_of(g)
    ah, aw = adaptive_avg_matrices(shape_of(self._data), (gs[len(gs) - 2], gs[len(gs) - 1]),
                                   g.dtype)
    with quiet():
        out = np.matmul(np.matmul(ah.T, g), aw)
    cdef Tensor result = make(cast_like(out, g))
    record_AdaptiveAvgPool2DBackwardBackward0(result, grad_output, self)
    return result


cdef Tensor adaptive_avg_pool2d_double_backward(Tensor grad, Tensor grad_output):
    cdef tuple gs = shape_of(grad_output._data)
    return op__adaptive_avg_pool2d(grad, (gs[len(gs) - 2], gs[len(gs) - 1]))


cdef Tensor op_max_pool_nd_backward(Tensor grad_output, Tensor self, Tensor indices,
                                    object nsp):
    """grad_output summed into the input positions (flat over self's last nsp dims) its
    maxima came from."""
    cdef tuple xs = shape_of(self._data), ish = shape_of(indices._data)
    cdef Py_ssize_t lead = len(ish) - nsp
    planes = int(np.prod(ish[:lead], dtype=np.int64))
    width = int(np.prod(xs[len(xs) - nsp:], dtype=np.int64))
    flat_g = np.ascontiguousarray(grad_output._data).reshape(planes, -1)
    flat_i = np.ascontiguousarray(indices._data).reshape(planes, -1)
    gx = np.zeros((planes, width), dtype=grad_output._data.dtype)
    np.add.at(gx, (np.arange(planes)[:, None], flat_i), flat_g)
    cdef Tensor result = make(gx.reshape(xs))
    if nsp == 3:
        record_MaxPool3DWithIndicesBackwardBackward0(result, grad_output, self, indices, nsp)
    else:
        record_AdaptiveMaxPool2DBackwardBackward0(result, grad_output, self, indices, nsp)
    return result


cdef Tensor max_pool_nd_double_backward(Tensor grad, Tensor indices, object nsp):
    """grad gathered at the maxima: grad.flatten(-nsp).gather(-1, indices.flatten(-nsp))."""
    cdef tuple ish = shape_of(indices._data)
    return OPS.view(OPS.gather(OPS.flatten(grad, -nsp, -1), -1,
                               make(indices._data.reshape(ish[:len(ish) - nsp] + (-1,)))), ish)


cdef cnp.ndarray avg_pool_divisor(tuple geometry, bint count_include_pad,
                                  object divisor_override, object np_dtype):
    """Each output position's divisor, flat (OH*OW)."""
    (H, W), k, _, p, s, (OH, OW) = geometry
    hs = np.arange(OH) * s[0] - p[0]
    he = np.minimum(hs + k[0], H + p[0])
    ws = np.arange(OW) * s[1] - p[1]
    we = np.minimum(ws + k[1], W + p[1])
    if divisor_override is not None:
        div = np.full((OH, OW), float(divisor_override))
    elif count_include_pad:
        div = np.outer(he - hs, we - ws).astype(np.float64)
    else:
        div = np.outer(np.minimum(he, H) - np.maximum(hs, 0),
                       np.minimum(we, W) - np.maximum(ws, 0)).astype(np.float64)
    return div.reshape(OH * OW).astype(np_dtype)


cdef Tensor op_avg_pool2d(Tensor self, object kernel_size, object stride, object padding,
                          bint ceil_mode, bint count_include_pad, object divisor_override):
    geometry = pool_geometry(self, "avg_pool2d", kernel_size, stride, padding, None, ceil_mode,
                             divisor_override)
    check_float_kernel(dtype_of(self._data), "avg_pool2d_out_frame")
    cdef int nd = cnp.PyArray_NDIM(self._data)
    cdef cnp.ndarray xa = self._data if nd == 4 else self._data[None]
    N, C, H, W = shape_of(xa)
    k, (OH, OW) = geometry[1], geometry[5]
    div = avg_pool_divisor(geometry, count_include_pad, divisor_override, xa.dtype)
    cols = im2col_values(xa, geometry, 0).reshape(N, C, k[0] * k[1], OH * OW)
    with quiet():
        out = np.sum(cols, axis=2) / div
    out_shape = (N, C, OH, OW) if nd == 4 else (C, OH, OW)
    cdef Tensor result = make(in_suggested_format(cast_like(out, xa).reshape(out_shape), xa))
    record_AvgPool2DBackward0(result, self, kernel_size, stride, padding, ceil_mode,
                              count_include_pad, divisor_override)
    return result


cdef Tensor op_avg_pool2d_backward(Tensor grad_output, Tensor self, object kernel_size,
                                   object stride, object padding, bint ceil_mode,
                                   bint count_include_pad, object divisor_override):
    """Each window's gradient divided by its divisor and spread over the window (col2im)."""
    geometry = pool_geometry(self, "avg_pool2d", kernel_size, stride, padding, None, ceil_mode,
                             divisor_override)
    cdef cnp.ndarray ga = grad_output._data
    gs = shape_of(ga)
    N = 1 if len(gs) == 3 else gs[0]
    C = gs[len(gs) - 3]
    K = geometry[1][0] * geometry[1][1]
    L = gs[len(gs) - 1] * gs[len(gs) - 2]
    div = avg_pool_divisor(geometry, count_include_pad, divisor_override, ga.dtype)
    with quiet():
        gd = ga.reshape(N, C, 1, L) / div
    gcols = np.broadcast_to(gd, (N, C, K, L)).reshape(N, C * K, L)
    cdef Tensor result = make(col2im_values(cast_like(gcols, ga), geometry).reshape(
        shape_of(self._data)))
    record_AvgPool2DBackwardBackward0(result, grad_output, self, kernel_size, stride, padding,
                                      ceil_mode, count_include_pad, divisor_override)
    return result


# ================================================================ affine_grid, grid_sample

cdef cnp.ndarray _linspace_from_neg_one(Py_ssize_t steps, bint align_corners, object np_dtype):
    """PyTorch's grid coordinates along one dim: -1..1 (pixel centres unless
    align_corners), 0 for a single step."""
    if steps <= 1:
        return np.zeros(max(steps, 0), dtype=np_dtype)
    r = np.linspace(-1.0, 1.0, steps)
    if not align_corners:
        r = r * (steps - 1) / steps
    return r.astype(np_dtype)


cdef cnp.ndarray _base_grid(tuple size, bint align_corners, object np_dtype):
    """(N, H, W, 3) or (N, D, H, W, 4): the (x, y[, z], 1) coordinates of each output point."""
    cdef tuple spatial = size[2:]
    cdef int d = len(spatial)
    axes = [_linspace_from_neg_one(s, align_corners, np_dtype) for s in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")   # spatial order (D,) H, W
    comps = [mesh[d - 1 - k] for k in range(d)] + [np.ones(spatial, dtype=np_dtype)]
    base = np.stack(comps, axis=-1)
    return as_array(np.broadcast_to(base, (size[0],) + spatial + (d + 1,)).copy())


cdef tuple _affine_grid_size(object size):
    return tuple(int(s) for s in size)


cdef Tensor op_affine_grid_generator(Tensor theta, object size, bint align_corners):
    cdef tuple sz = _affine_grid_size(size)
    cdef int d = len(sz) - 2
    if d not in (2, 3):
        raise RuntimeError(f"AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    cdef cnp.ndarray th = theta._data
    base = _base_grid(sz, align_corners, (<object>th).dtype)
    n = sz[0]
    flat = base.reshape(n, -1, d + 1)
    with quiet():
        out = np.matmul(flat, np.swapaxes(th, 1, 2)).reshape(sz[:1] + sz[2:] + (d,))
    cdef Tensor result = make(as_array(out.astype((<object>th).dtype, copy=False)))
    record_AffineGridGeneratorBackward0(result, theta, size, align_corners)
    return result


cdef Tensor affine_grid_generator_backward(Tensor grad, object size, bint align_corners):
    """d grid / d theta: base_grid^T @ grad per sample (PyTorch composes it of bmm)."""
    cdef tuple sz = _affine_grid_size(size)
    cdef int d = len(sz) - 2
    cdef Tensor base = make(_base_grid(sz, align_corners, grad._data.dtype)
                            .reshape(sz[0], -1, d + 1))
    cdef Tensor g = OPS.reshape(grad, (sz[0], -1, d))
    return OPS.transpose(OPS.bmm(OPS.transpose(base, 1, 2), g), 1, 2)


# ---- grid_sample: coordinates

cdef object _unnormalize(object coord, Py_ssize_t size, bint align_corners):
    """Grid values in [-1, 1] to pixel coordinates, and d(pixel)/d(grid)."""
    if align_corners:
        return (coord + 1) / 2 * (size - 1), (size - 1) / 2.0
    return ((coord + 1) * size - 1) / 2, size / 2.0


cdef tuple _reflect(object x, double twice_low, double twice_high):
    """x reflected into [twice_low / 2, twice_high / 2], and dx'/dx (+1 or -1)."""
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    lo = twice_low / 2
    span = (twice_high - twice_low) / 2
    shifted = x - lo
    sign = np.where(shifted < 0, -1.0, 1.0)
    a = np.abs(shifted)
    extra = np.fmod(a, span)
    flips = np.floor(a / span)
    even = np.fmod(flips, 2) == 0
    out = np.where(even, extra + lo, span - extra + lo)
    return out.astype(x.dtype, copy=False), np.where(even, sign, -sign)


cdef tuple _source_coords(object coord, Py_ssize_t size, int padding_mode, bint align_corners):
    """Pixel coordinates after padding_mode (0 zeros, 1 border, 2 reflection), with the
    derivative of the whole map from the grid value."""
    x, mult = _unnormalize(coord, size, align_corners)
    return _pad_coords(x, np.full(x.shape, mult, dtype=np.float64), size, padding_mode,
                       align_corners)


cdef tuple _pad_coords(object x, object grad, Py_ssize_t size, int padding_mode,
                       bint align_corners):
    """PyTorch's compute_coordinates: pixel coordinates x mapped by padding_mode, and grad
    (dx/dgrid so far) times the map's derivative."""
    if padding_mode == 1:
        inside = (x > 0) & (x < size - 1)
        x = np.clip(x, 0, size - 1)
        grad = np.where(inside, grad, 0.0)
    elif padding_mode == 2:
        if align_corners:
            x, g = _reflect(x, 0, 2 * (size - 1))
        else:
            x, g = _reflect(x, -1, 2 * size - 1)
        grad = grad * g
        inside = (x > 0) & (x < size - 1)
        x = np.clip(x, 0, size - 1)
        grad = np.where(inside, grad, 0.0)
    return x, grad


cdef tuple _sampling(Tensor input, Tensor grid, int padding_mode, bint align_corners):
    """Per spatial dim k (input's order: (D,) H, W): the source pixel coordinates of every
    output point and their derivative w.r.t. the grid value that feeds them. (Bicubic
    passes padding_mode 0: it pads each tap instead, _cubic_positions.)"""
    cdef cnp.ndarray inp = input._data, g = grid._data
    cdef int d = cnp.PyArray_NDIM(inp) - 2
    coords, mults = [], []
    for k in range(d):
        c, m = _source_coords(g[..., d - 1 - k], shape_of(inp)[2 + k], padding_mode,
                              align_corners)
        coords.append(c)
        mults.append(m)
    return coords, mults


cdef double _CUBIC_A = -0.75   # PyTorch's cubic convolution constant (as upsample_bicubic2d)


def _cubic_coefficients(t):
    """The cubic convolution weights of the taps at floor(x) - 1 .. floor(x) + 2 for
    t = x - floor(x) (PyTorch's get_cubic_upsample_coefficients); t is an ndarray or a
    Tensor, so the same polynomials serve grid_sample's values, its differentiable
    backward and interpolate's bicubic mode (nn.functional)."""
    cdef double a = _CUBIC_A
    u = 1 - t
    return [((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
            ((a + 2) * t - (a + 3)) * t * t + 1,
            ((a + 2) * u - (a + 3)) * u * u + 1,
            ((a * (u + 1) - 5 * a) * (u + 1) + 8 * a) * (u + 1) - 4 * a]


cdef list _cubic_coefficient_grads(object t):
    """d/dt of _cubic_coefficients(t)."""
    cdef double a = _CUBIC_A
    u = 1 - t
    return [(3 * a * (t + 1) - 10 * a) * (t + 1) + 8 * a,
            (3 * (a + 2) * t - 2 * (a + 3)) * t,
            -((3 * (a + 2) * u - 2 * (a + 3)) * u),
            -((3 * a * (u + 1) - 10 * a) * (u + 1) + 8 * a)]


cdef tuple _cubic_positions(list coords, tuple spatial, int padding_mode, bint align_corners):
    """Bicubic's taps: per dim the floor of the (unpadded) coordinate, and the pixel index
    of each of the 4 taps floor - 1 .. floor + 2 after padding_mode, which PyTorch applies
    to every tap (compute_coordinates in get_value_bounded)."""
    lows, pos = [], []
    for k in range(len(coords)):
        lo = np.floor(coords[k])
        lows.append(lo)
        pos.append([_pad_coords(lo + (o - 1), 1.0, spatial[k], padding_mode,
                                align_corners)[0].astype(np.int64) for o in range(4)])
    return lows, pos


cdef list _corners(list coords, tuple spatial, int mode, int padding_mode, bint align_corners):
    """(indices per dim, in-bounds mask, weight) per tap: the 2^d linear-interpolation
    corners (mode 0), the nearest pixel (mode 1, rounding half to even as PyTorch) or the
    4^d cubic-convolution taps (mode 2)."""
    cdef int d = len(coords), k
    if mode == 2:
        lows, pos = _cubic_positions(coords, spatial, padding_mode, align_corners)
        coefs = [_cubic_coefficients(coords[k] - lows[k]) for k in range(d)]
        taps = []
        for corner in itertools.product(range(4), repeat=d):
            idx = [pos[k][corner[k]] for k in range(d)]
            mask = np.ones(coords[0].shape, dtype=bool)
            weight = None
            for k in range(d):
                mask &= (idx[k] >= 0) & (idx[k] < spatial[k])
                w = coefs[k][corner[k]]
                weight = w if weight is None else weight * w
            taps.append((idx, mask, weight))
        return taps
    if mode == 1:
        idx = [np.rint(c).astype(np.int64) for c in coords]
        mask = np.ones(coords[0].shape, dtype=bool)
        for k in range(d):
            mask &= (idx[k] >= 0) & (idx[k] < spatial[k])
        return [(idx, mask, np.ones(coords[0].shape, dtype=coords[0].dtype))]
    taps = []
    lo = [np.floor(c) for c in coords]
    for corner in itertools.product((0, 1), repeat=d):
        idx = []
        weight = None
        mask = np.ones(coords[0].shape, dtype=bool)
        for k in range(d):
            i = (lo[k] + corner[k]).astype(np.int64)
            mask &= (i >= 0) & (i < spatial[k])
            idx.append(i)
            # a tap's weight along dim k: 1 - |coord - tap| for the two taps around coord
            w = coords[k] - lo[k] if corner[k] else lo[k] + 1 - coords[k]
            weight = w if weight is None else weight * w
        taps.append((idx, mask, weight))
    return taps


cdef tuple _tap_index(cnp.ndarray inp, list idx, object mask):
    """The advanced index of the taps into input moved channels-last (N, *S, C)."""
    n = shape_of(inp)[0]
    nshape = (n,) + (1,) * (idx[0].ndim - 1)
    return (np.arange(n).reshape(nshape),) + tuple(np.where(mask, i, 0) for i in idx)


cdef void _check_grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int d) except *:
    cdef cnp.ndarray inp = input._data, g = grid._data
    if dtype_of(inp) is not dtype_of(g):
        raise RuntimeError(f"expected scalar type {dtype_of(inp).scalar_name} but found "
                           f"{dtype_of(g).scalar_name}")
    if cnp.PyArray_NDIM(inp) != d + 2 or cnp.PyArray_NDIM(g) != d + 2:
        raise RuntimeError(f"grid_sampler(): expected {d + 2}D input and grid with same number "
                           f"of dimensions, but got input with sizes {shape_str(shape_of(inp))} "
                           f"and grid with sizes {shape_str(shape_of(g))}")
    if shape_of(inp)[0] != shape_of(g)[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got input with sizes {shape_str(shape_of(inp))} and grid with "
                           f"sizes {shape_str(shape_of(g))}")
    if shape_of(g)[-1] != d:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {d} in last dimension, "
                           f"but got grid with sizes {shape_str(shape_of(g))}")
    for s in shape_of(inp)[2:]:
        if s <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {shape_str(shape_of(inp))} with "
                               f"dimension 2 being empty")
    if interpolation_mode == 2 and d == 3:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if interpolation_mode not in (0, 1, 2):
        raise RuntimeError(f"grid_sampler(): unknown interpolation mode {interpolation_mode}")


cdef cnp.ndarray _grid_sample_values(Tensor input, Tensor grid, int mode, int padding_mode,
                                     bint align_corners):
    cdef cnp.ndarray inp = input._data
    cdef int d = cnp.PyArray_NDIM(inp) - 2
    with quiet():
        coords, _ = _sampling(input, grid, 0 if mode == 2 else padding_mode, align_corners)
        last = np.moveaxis(inp, 1, -1)
        out = np.zeros(shape_of(grid._data)[:-1] + (shape_of(inp)[1],), dtype=(<object>inp).dtype)
        for idx, mask, weight in _corners(coords, tuple(shape_of(inp)[2:]), mode, padding_mode,
                                          align_corners):
            vals = last[_tap_index(inp, idx, mask)]
            out += vals * (weight * mask)[..., None].astype((<object>inp).dtype)
    return as_array(np.ascontiguousarray(np.moveaxis(out, -1, 1)))


cdef Tensor _grid_sampler(Tensor input, Tensor grid, object interpolation_mode,
                          object padding_mode, bint align_corners, int d):
    _check_grid_sampler(input, grid, interpolation_mode, d)
    return make(_grid_sample_values(input, grid, interpolation_mode, padding_mode, align_corners))


cdef Tensor op_grid_sampler_2d(Tensor input, Tensor grid, object interpolation_mode,
                               object padding_mode, bint align_corners):
    cdef Tensor result = _grid_sampler(input, grid, interpolation_mode, padding_mode,
                                       align_corners, 2)
    record_GridSampler2DBackward0(result, input, grid, interpolation_mode, padding_mode,
                                  align_corners)
    return result


cdef Tensor op_grid_sampler_3d(Tensor input, Tensor grid, object interpolation_mode,
                               object padding_mode, bint align_corners):
    cdef Tensor result = _grid_sampler(input, grid, interpolation_mode, padding_mode,
                                       align_corners, 3)
    record_GridSampler3DBackward0(result, input, grid, interpolation_mode, padding_mode,
                                  align_corners)
    return result


cdef Tensor op_grid_sampler(Tensor input, Tensor grid, object interpolation_mode,
                            object padding_mode, bint align_corners):
    if cnp.PyArray_NDIM(input._data) == 5:
        return op_grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners)
    return op_grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)


cdef tuple _grid_pieces(Tensor input, Tensor grid, int mode, int padding_mode,
                        bint align_corners):
    """grid_sample's taps as differentiable pieces: per tap (the flat index (N, C, P) into
    input viewed as (N, C, S), the in-bounds mask (N, 1, P), the corner: 0/1 per dim
    (bilinear), 0..3 per dim (bicubic's tap floor - 1 + corner) or None for the nearest
    pixel); per dim the source coordinate (N, 1, P) as a Tensor
    differentiable in grid, the floor of its value and its derivative w.r.t. the grid
    value. A source coordinate is piecewise linear in its grid value g:
    mult * g + (x0 - mult * g0) with the values at g0, so the interpolation weights,
    written in ops of it, have exact derivatives of every order."""
    cdef cnp.ndarray inp = input._data, g = grid._data
    cdef int d = cnp.PyArray_NDIM(inp) - 2, k
    n, c = shape_of(inp)[0], shape_of(inp)[1]
    spatial = tuple(shape_of(inp)[2:])
    p = int(np.prod(shape_of(g)[1:-1], dtype=np.int64))
    strides = [int(np.prod(spatial[k + 1:], dtype=np.int64)) for k in range(d)]
    dt = (<object>g).dtype
    with quiet():
        coords, mults = _sampling(input, grid, 0 if mode == 2 else padding_mode, align_corners)
    taps = []
    if mode == 1:
        corners = [None]
        bases = [np.rint(cd) for cd in coords]
    elif mode == 2:
        corners = list(itertools.product(range(4), repeat=d))
        with quiet():
            bases, pos = _cubic_positions(coords, spatial, padding_mode, align_corners)
    else:
        corners = list(itertools.product((0, 1), repeat=d))
        bases = [np.floor(cd) for cd in coords]
    for corner in corners:
        flat = np.zeros(bases[0].shape, dtype=np.int64)
        mask = np.ones(bases[0].shape, dtype=bool)
        idx = []
        for k in range(d):
            if mode == 2:
                i = pos[k][corner[k]]
            else:
                i = (bases[k] + (corner[k] if corner is not None else 0)).astype(np.int64)
            mask &= (i >= 0) & (i < spatial[k])
            idx.append(i)
        for k in range(d):
            flat += np.where(mask, idx[k], 0) * strides[k]
        index = make(as_array(np.ascontiguousarray(
            np.broadcast_to(flat.reshape(n, 1, p), (n, c, p)))))
        taps.append((index, make(as_array(mask.reshape(n, 1, p).astype(dt))), corner))
    xs, lows, ms = [], [], []
    for k in range(d):
        mult = np.asarray(mults[k]).astype(dt).reshape(n, 1, p)
        ms.append(make(as_array(mult)))
        lows.append(make(as_array(bases[k].astype(dt).reshape(n, 1, p))))
        gk = OPS.reshape(OPS.select(grid, -1, d - 1 - k), (n, 1, p))
        with quiet():
            offset = (np.asarray(coords[k]) - mults[k] * g[..., d - 1 - k]).astype(dt)
        xs.append(OPS.add(OPS.mul(gk, ms[k]), make(as_array(offset.reshape(n, 1, p))), 1))
    return taps, xs, lows, ms


cdef tuple _tap_weights(list xs, list lows, int mode):
    """Per dim, the interpolation weight of each tap offset as a Tensor differentiable in
    grid, and its derivative w.r.t. the source coordinate: linear (mode 0) floor(x) + 1 - x
    and x - floor(x) with derivatives -1, +1 (as Python ints); cubic (mode 2) the 4
    cubic-convolution weights and their polynomial derivatives."""
    weights, grads = [], []
    for k in range(len(xs)):
        t = OPS.sub(xs[k], lows[k], 1)
        if mode == 2:
            weights.append(_cubic_coefficients(t))
            grads.append(_cubic_coefficient_grads(t))
        else:
            weights.append([OPS.rsub(t, 1, 1), t])
            grads.append([-1, 1])
    return weights, grads


cdef Tensor _product(list factors, Tensor start):
    cdef Tensor out = start
    for f in factors:
        out = OPS.mul(out, f)
    return out


cdef Tensor op__grid_sampler_2d_backward_link(Tensor grad_input, Tensor grad_output,
                                              Tensor input, Tensor grid):
    # Note [Backward links]
    cdef Tensor result = make(grad_input._data)
    record_GridSampler2DBackwardBackward0(result, grad_input, grad_output, input, grid)
    return result if result._grad_fn is not None else grad_input


cdef Tensor op__grid_sampler_3d_backward_link(Tensor grad_input, Tensor grad_output,
                                              Tensor input, Tensor grid):
    # Note [Backward links]
    cdef Tensor result = make(grad_input._data)
    record_GridSampler3DBackwardBackward0(result, grad_input, grad_output, input, grid)
    return result if result._grad_fn is not None else grad_input


cdef Tensor grid_sampler_backward(Tensor grad, Tensor input, Tensor grid, object mode,
                                  object padding_mode, bint align_corners, object which):
    """grid_sampler's gradient w.r.t. input (which 0) or grid (which 1), under
    create_graph passed through PyTorch's double-backward node (Note [Backward links])."""
    cdef Tensor g = _grid_sampler_vjp(grad, input, grid, mode, padding_mode, align_corners,
                                      which)
    if grad_enabled():
        if cnp.PyArray_NDIM(input._data) == 5:
            return op__grid_sampler_3d_backward_link(g, grad, input, grid)
        return op__grid_sampler_2d_backward_link(g, grad, input, grid)
    return g


cdef Tensor _grid_sampler_vjp(Tensor grad, Tensor input, Tensor grid, object mode,
                              object padding_mode, bint align_corners, object which):
    """grid_sampler's gradient w.r.t. input (which 0: grad times each tap's weight,
    scattered onto the taps) or grid (which 1: the taps' values times the weights'
    derivatives), written in differentiable ops (gather, scatter_add), so that second
    derivatives follow."""
    cdef cnp.ndarray inp = input._data
    cdef int d = cnp.PyArray_NDIM(inp) - 2, k, j
    n, c = shape_of(inp)[0], shape_of(inp)[1]
    s = int(np.prod(shape_of(inp)[2:], dtype=np.int64))
    p = int(np.prod(shape_of(grid._data)[1:-1], dtype=np.int64))
    taps, xs, lows, ms = _grid_pieces(input, grid, mode, padding_mode, align_corners)
    cdef Tensor g = OPS.reshape(grad, (n, c, p))
    weights, dweights = _tap_weights(xs, lows, mode) if mode != 1 else (None, None)
    if which == 0:
        srcs, indices = [], []
        for index, mask, corner in taps:
            weight = mask if corner is None else _product(
                [weights[k][corner[k]] for k in range(d)], mask)
            srcs.append(OPS.mul(g, weight))
            indices.append((<Tensor>index)._data)
        zeros = make(np.zeros((n, c, s), dtype=(<object>inp).dtype))
        out = OPS.scatter_add(zeros, 2, make(as_array(np.concatenate(indices, 2))),
                              OPS.cat(srcs, 2))
        return OPS.reshape(out, shape_of(inp))
    if mode == 1:
        return zeros_like(grid)
    cdef Tensor flat = OPS.reshape(input, (n, c, s))
    comps = [None] * d
    for index, mask, corner in taps:
        v = OPS.mul(OPS.sum(OPS.mul(OPS.gather(flat, 2, index), g), 1, True, None), mask)
        for k in range(d):
            dk = _product([weights[j][corner[j]] for j in range(d) if j != k], v)
            dw = dweights[k][corner[k]]
            if isinstance(dw, Tensor):
                dk = OPS.mul(dk, dw)
            elif dw < 0:
                dk = OPS.neg(dk)
            comps[k] = dk if comps[k] is None else OPS.add(comps[k], dk, 1)
    out_shape = shape_of(grid._data)[:-1]
    return OPS.stack([OPS.reshape(OPS.mul(comps[k], ms[k]), out_shape)
                      for k in range(d - 1, -1, -1)], -1)


include "_gen_nn.pxi"


cdef int _fw_convolution(Tensor result, Tensor x, Tensor w, Tensor b, tuple s, tuple p,
                         tuple d, bint transposed, tuple op, object groups) except -1:
    """The forward derivative of convolution (Note [Forward AD] in _core/_fw.pxi): it is
    bilinear in (input, weight) plus the bias, as PyTorch's
    convolution(input_t, weight) + convolution(input, weight_t) + bias_t."""
    xt = fw_grad_of(x)
    wt = fw_grad_of(w)
    bt = fw_grad_of(b) if b is not None else None
    if xt is None and wt is None and bt is None:
        return 0
    cdef int nsp = cnp.PyArray_NDIM(w._data) - 2
    t = None
    with FwSuspend():
        if xt is not None:
            t = convolution_impl(<Tensor>xt, w, None, s, p, d, transposed, op, groups)
        if wt is not None:
            t = fw_sum(t, convolution_impl(x, <Tensor>wt, None, s, p, d, transposed, op,
                                           groups))
        if bt is not None:
            t = fw_sum(t, OPS.view(<Tensor>bt, (-1,) + (1,) * nsp))
    fw_finish(result, t)
    return 0
