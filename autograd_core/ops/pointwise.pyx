"""Pointwise ops: arithmetic with PyTorch's type promotion and broadcasting, unary
math, comparisons and logical ops, and their in-place forms.

Their nodes, wiring and Python wrappers are generated from the pointwise section of
derivatives.yaml (_gen_pointwise.pxi, included at the end); this file holds the
forwards the table cannot express and the value templates (<template>_values) that
templated forwards call. Small contiguous float arrays skip numpy's ufunc dispatch
through the C loops of csrc/agc_kernels.c.

>>> import autograd_core as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> (x * 3 + 1).exp().grad_fn.name()
'ExpBackward0'
"""
include "_prelude.pxi"

# No small-array C kernel for a templated op (the kernels are AGC_* in agc_kernels.h).
cdef enum:
    NO_KERNEL = -1


# ================================================================ value templates

cdef inline bint _is_small_float(cnp.ndarray x):
    cdef int t = cnp.PyArray_TYPE(x)
    return ((t == cnp.NPY_FLOAT or t == cnp.NPY_DOUBLE)
            and cnp.PyArray_IS_C_CONTIGUOUS(x) and cnp.PyArray_SIZE(x) <= AGC_SMALL_N)


cdef cnp.ndarray _unary_kernel(cnp.ndarray x, int kernel):
    """kernel (an AGC_* unary op) over a small contiguous float array."""
    cdef cnp.ndarray out = empty_like_array(x)
    if cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT:
        agc_unary_f32(kernel, <float *>cnp.PyArray_DATA(x), <float *>cnp.PyArray_DATA(out),
                      cnp.PyArray_SIZE(x))
    else:
        agc_unary_f64(kernel, <double *>cnp.PyArray_DATA(x), <double *>cnp.PyArray_DATA(out),
                      cnp.PyArray_SIZE(x))
    return out


cdef cnp.ndarray unary_float_values(Tensor self, object ufunc, int kernel):
    """A float-valued unary op: integer and bool inputs compute in the default float."""
    cdef cnp.ndarray x = self._data
    if not cnp.PyArray_ISFLOAT(x):
        x = cast_array(x, default_float)
    if kernel != NO_KERNEL and _is_small_float(x):
        return _unary_kernel(x, kernel)
    with quiet():
        return as_array(ufunc(x))


cdef object _wrap_int_scalar(object s, dtype rt):
    """A Python int outside an integer dtype's range wraps around, as PyTorch casts it."""
    if type(s) is int:
        info = np.iinfo(rt.np_dtype)
        if s < info.min or s > info.max:
            return np.array(s & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64).astype(rt.np_dtype)
    return s


# the numpy ufuncs of the AGC_* binary kernels, by kernel
cdef tuple _BINARY_UFUNCS = (np.add, np.subtract, np.multiply, np.true_divide)


cdef cnp.ndarray binary_values(object a, object b, int kernel):
    """Values of a OP b (Tensors or numbers, at least one Tensor; OP an AGC_ADD..DIV
    kernel): PyTorch's type promotion and broadcasting, C loops for small contiguous
    float arrays."""
    cdef cnp.ndarray xa, xb, out
    cdef bint ta = isinstance(a, Tensor), tb = isinstance(b, Tensor)
    cdef int typ
    cdef dtype rt
    if ta and tb:
        xa = (<Tensor>a)._data
        xb = (<Tensor>b)._data
        typ = cnp.PyArray_TYPE(xa)
        if typ == cnp.PyArray_TYPE(xb) and _is_small_float(xa) and _is_small_float(xb) \
                and same_shape(xa, xb):
            out = empty_like_array(xa)
            if typ == cnp.NPY_FLOAT:
                agc_binary_f32(kernel, <float *>cnp.PyArray_DATA(xa), <float *>cnp.PyArray_DATA(xb),
                               <float *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
            else:
                agc_binary_f64(kernel, <double *>cnp.PyArray_DATA(xa), <double *>cnp.PyArray_DATA(xb),
                               <double *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
            return out
    elif ta or tb:
        xa = (<Tensor>(a if ta else b))._data
        s = b if ta else a
        if _is_small_float(xa) and (type(s) is float or type(s) is int):
            out = empty_like_array(xa)
            if cnp.PyArray_TYPE(xa) == cnp.NPY_FLOAT:
                agc_binary_scalar_f32(kernel, <float *>cnp.PyArray_DATA(xa), <double>s, not ta,
                                      <float *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
            else:
                agc_binary_scalar_f64(kernel, <double *>cnp.PyArray_DATA(xa), <double>s, not ta,
                                      <double *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
            return out
    rt = result_type((a, b))
    if kernel == AGC_DIV and rt.category != CAT_FLOAT:
        rt = default_float
    if kernel == AGC_SUB and ((ta and dtype_of((<Tensor>a)._data).category == CAT_BOOL)
                              or (tb and dtype_of((<Tensor>b)._data).category == CAT_BOOL)
                              or type(a) is bool or type(b) is bool):
        if ta and tb and rt.category == CAT_BOOL:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    oa = cast_array((<Tensor>a)._data, rt) if ta else a
    ob = cast_array((<Tensor>b)._data, rt) if tb else b
    if rt.category == CAT_INT:
        oa = _wrap_int_scalar(oa, rt)
        ob = _wrap_int_scalar(ob, rt)
    try:
        with quiet():
            r = (<object>_BINARY_UFUNCS[kernel])(oa, ob)
    except ValueError:
        raise broadcast_error(shape_of((<Tensor>a)._data) if ta else (),
                              shape_of((<Tensor>b)._data) if tb else ()) from None
    out = as_array(r)
    if cnp.PyArray_TYPE(out) != rt.typenum:
        out = out.astype(rt.np_dtype)
    return out


cdef object _scaled(object other, object alpha):
    """alpha * other, for add/sub with alpha (a number, or a tensor's values)."""
    if isinstance(other, Tensor):
        return make(binary_values(other, alpha, AGC_MUL))
    return other * alpha


# ================================================================ arithmetic

cdef Tensor op_add(Tensor self, object other, object alpha):
    cdef Tensor result = make(binary_values(self, other if alpha == 1 else _scaled(other, alpha),
                                            AGC_ADD))
    record_AddBackward0(result, self, other, alpha)
    return result


cdef Tensor op_sub(Tensor self, object other, object alpha):
    cdef Tensor result = make(binary_values(self, other if alpha == 1 else _scaled(other, alpha),
                                            AGC_SUB))
    record_SubBackward0(result, self, other, alpha)
    return result


cdef Tensor op_rsub(Tensor self, object other, object alpha):
    cdef Tensor result = make(binary_values(other, self if alpha == 1 else _scaled(self, alpha),
                                            AGC_SUB))
    if isinstance(other, Tensor):
        record_RsubBackward0(result, self, other, alpha)
    else:
        record_RsubBackward1(result, self, other, alpha)
    return result


cdef Tensor op_mul(Tensor self, object other):
    cdef Tensor result = make(binary_values(self, other, AGC_MUL))
    record_MulBackward0(result, self, other)
    return result


cdef Tensor op_div(Tensor self, object other, object rounding_mode):
    if rounding_mode is not None:
        raise NotImplementedError("div(rounding_mode=...): not ported yet")
    cdef Tensor result = make(binary_values(self, other, AGC_DIV))
    record_DivBackward0(result, self, other, rounding_mode)
    return result


cdef Tensor op_neg(Tensor self):
    cdef cnp.ndarray x = self._data
    if dtype_of(x).category == CAT_BOOL:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    cdef Tensor result = make(_unary_kernel(x, AGC_NEG) if _is_small_float(x)
                              else as_array(np.negative(x)))
    record_NegBackward0(result, self)
    return result


cdef Tensor op_abs(Tensor self):
    cdef cnp.ndarray x = self._data
    if dtype_of(x).category == CAT_BOOL:
        raise not_implemented_for("abs_cpu", bool_)
    cdef Tensor result = make(_unary_kernel(x, AGC_ABS) if _is_small_float(x)
                              else as_array(np.abs(x)))
    record_AbsBackward0(result, self)
    return result


cdef Tensor op_sgn(Tensor self):
    cdef Tensor result = make(as_array(np.sign(self._data)))
    record_SgnBackward0(result, self)
    return result


cdef Tensor op_tanh_backward(Tensor grad_output, Tensor output):
    """tanh's derivative as an op of its own (as in PyTorch): one fused kernel for the
    first derivative, and a node for the second."""
    cdef cnp.ndarray ga = grad_output._data, ya = output._data, out
    if cnp.PyArray_TYPE(ga) == cnp.PyArray_TYPE(ya) and _is_small_float(ga) \
            and _is_small_float(ya) and same_shape(ga, ya):
        out = empty_like_array(ga)
        if cnp.PyArray_TYPE(ga) == cnp.NPY_FLOAT:
            agc_binary_f32(AGC_TANH_BACKWARD, <float *>cnp.PyArray_DATA(ga),
                           <float *>cnp.PyArray_DATA(ya), <float *>cnp.PyArray_DATA(out),
                           cnp.PyArray_SIZE(out))
        else:
            agc_binary_f64(AGC_TANH_BACKWARD, <double *>cnp.PyArray_DATA(ga),
                           <double *>cnp.PyArray_DATA(ya), <double *>cnp.PyArray_DATA(out),
                           cnp.PyArray_SIZE(out))
    else:
        out = as_array(ga * (1 - ya * ya))
    cdef Tensor result = make(out)
    record_TanhBackwardBackward0(result, grad_output, output)
    return result


# ================================================================ copies

cdef Tensor op_clone(Tensor self, object memory_format):
    cdef Tensor result = make(np.array(self._data, copy=True, order="C"))
    record_CloneBackward0(result, self, memory_format)
    return result


cdef Tensor op__to_copy(Tensor self, dtype dtype):
    cdef Tensor result = make(self._data.astype(dtype.np_dtype))
    record_ToCopyBackward0(result, self, dtype)
    return result


cdef class CopyBackwards(Node):
    """The differentiable .grad written by backward(create_graph=True): its gradient
    flows to the gradient it copies."""

    def name(self):
        return "torch::autograd::CopyBackwards"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        return (grads[0],)


cdef Tensor op__copy_backwards(Tensor self, bint copy):
    cdef Tensor result = make(np.array(self._data, copy=True) if copy else self._data)
    if self._requires_grad:
        record(CopyBackwards.__new__(CopyBackwards), result, (self,))
    return result


# ================================================================ not yet ported

cdef object _todo(str name):
    raise NotImplementedError(f"{name}: not ported yet")


cdef Tensor op_fill_(Tensor self, object value):
    return _todo("fill_")


cdef Tensor op_copy_(Tensor self, Tensor src, bint non_blocking):
    return _todo("copy_")


cdef Tensor op_pow(object self, object exponent):
    return _todo("pow")


cdef Tensor op_pow_(Tensor self, object exponent):
    return _todo("pow_")


cdef Tensor op_floor_divide(object self, object other):
    return _todo("floor_divide")


cdef Tensor op_floor_divide_(Tensor self, object other):
    return _todo("floor_divide_")


cdef Tensor op_remainder(object self, object other):
    return _todo("remainder")


cdef Tensor op_remainder_(Tensor self, object other):
    return _todo("remainder_")


cdef Tensor op_eq(Tensor self, object other):
    return _todo("eq")


cdef Tensor op_ne(Tensor self, object other):
    return _todo("ne")


cdef Tensor op_lt(Tensor self, object other):
    return _todo("lt")


cdef Tensor op_le(Tensor self, object other):
    return _todo("le")


cdef Tensor op_gt(Tensor self, object other):
    return _todo("gt")


cdef Tensor op_ge(Tensor self, object other):
    return _todo("ge")


cdef Tensor op_bitwise_not(Tensor self):
    return _todo("bitwise_not")


cdef Tensor op_bitwise_and(Tensor self, object other):
    return _todo("bitwise_and")


cdef Tensor op_bitwise_or(Tensor self, object other):
    return _todo("bitwise_or")


cdef Tensor op_bitwise_xor(Tensor self, object other):
    return _todo("bitwise_xor")


def _py_pow(input, exponent):
    return _todo("pow")


def _py_floor_divide(input, other):
    return _todo("floor_divide")


def _py_remainder(input, other):
    return _todo("remainder")


cdef Tensor op_where(Tensor condition, object self, object other):
    return _todo("where")


def _py_where(*args, **kwargs):
    return _todo("where")


cdef Tensor op_clamp_min(Tensor self, object min):
    return _todo("clamp_min")


cdef Tensor op_maximum(Tensor self, Tensor other):
    return _todo("maximum")


cdef Tensor op_sign(Tensor self):
    return _todo("sign")


cdef Tensor op_sqrt(Tensor self):
    return _todo("sqrt")


cdef Tensor op_log(Tensor self):
    return _todo("log")


cdef Tensor op_sigmoid(Tensor self):
    return _todo("sigmoid")


cdef Tensor op_relu(Tensor self):
    return _todo("relu")


cdef Tensor op_erf(Tensor self):
    return _todo("erf")


cdef Tensor op_minimum(Tensor self, Tensor other):
    return _todo("minimum")


cdef Tensor op_div_scalar(Tensor self, object other):
    return _todo("div_scalar")


include "_gen_pointwise.pxi"
