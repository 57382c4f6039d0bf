"""Pointwise ops: arithmetic with PyTorch's type promotion and broadcasting, unary
math, rounding, comparisons, logical and bitwise ops, clamp/lerp/addcmul-style
ternaries, copies and fills, random fills, and their in-place forms.

Their nodes, wiring and Python wrappers are generated from the pointwise section of
derivatives.yaml (_gen_pointwise.pxi, included at the end); this file holds the
forwards the table cannot express, the value templates (<template>_values) that
templated forwards call, the derivative helpers the formulas call (PyTorch's
FunctionsManual names: pow_backward, clamp_backward, ...), the hand-written nodes
(NotImplementedBackward, CopyBackwards) and the hand-written Python wrappers
(overloads and odd signatures; a _py_<op> gets its public name and docstring from
the table, the in-place ones here). Small contiguous float arrays skip numpy's ufunc
dispatch through the C loops of csrc/agc_kernels.c.

>>> import autograd_core as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> (x * 3 + 1).exp().grad_fn.name()
'ExpBackward0'
"""
include "_prelude.pxi"


from libc.math cimport (
    INFINITY, NAN, M_PI, copysign as c_copysign, cos as c_cos, erf as c_erf,
    erfc as c_erfc, exp as c_exp, fabs, floor as c_floor, isinf as c_isinf, lgamma as c_lgamma,
    log as c_log, modf as c_modf, pow as c_pow, sin as c_sin, sqrt as c_sqrt, tan as c_tan,
)

from autograd_core._core.tensor import (check_device as _device, from_array as _leaf_from_array,
                                      _zerotensor_like)
from autograd_core._core.tensor import memory_format as _memory_format_type
from autograd_core._core.random cimport (
    uniform_values, normal_values, random_values, exponential_values, geometric_values,
    log_normal_values, cauchy_values, bernoulli_scalar_values, bernoulli_tensor_values,
    poisson_values, binomial_values, standard_gamma_values, dirichlet_values,
    standard_gamma_grad_values, dirichlet_grad_values)

# No small-array C kernel for a templated op (the kernels are AGC_* in agc_kernels.h).
cdef enum:
    NO_KERNEL = -1

# How div rounds its quotient (PyTorch's rounding_mode None, "trunc", "floor").
cdef enum RoundingMode:
    ROUND_NONE
    ROUND_TRUNC
    ROUND_FLOOR

ctypedef double (*libm_fn)(double) noexcept nogil


# ================================================================ operands and values

cdef inline bint _is_small_float(cnp.ndarray x):
    cdef int t = cnp.PyArray_TYPE(x)
    return ((t == cnp.NPY_FLOAT or t == cnp.NPY_DOUBLE)
            and cnp.PyArray_IS_C_CONTIGUOUS(x) and cnp.PyArray_SIZE(x) <= AGC_SMALL_N)


cdef inline tuple _operand_shape(object x):
    return shape_of((<Tensor>x)._data) if isinstance(x, Tensor) else ()


cdef cnp.ndarray operand_array(object x, dtype rt):
    """An operand's values in dtype rt (a number becomes a 0-d array of rt)."""
    if isinstance(x, Tensor):
        return cast_array((<Tensor>x)._data, rt)
    if rt is bfloat16:  # (through float, Note [bfloat16 casts])
        return cast_array(<cnp.ndarray>np.asarray(np.array(x)), rt)
    return <cnp.ndarray>np.asarray(np.array(x).astype(rt.np_dtype))


cdef object broadcast_error_of(tuple operands):
    """PyTorch's error for operands (Tensors, numbers or None) that do not broadcast."""
    cdef tuple acc = None, s
    for x in operands:
        if x is None:
            continue
        s = _operand_shape(x)
        if acc is None:
            acc = s
            continue
        try:
            acc = tuple(np.broadcast_shapes(acc, s))
        except ValueError:
            return broadcast_error(acc, s)
    return RuntimeError("shapes cannot be broadcast")


cdef cnp.ndarray elementwise_values(object fn, tuple operands, dtype rt, int n_inputs=-1):
    """fn(*operands' arrays in rt), broadcast, quiet, as an array of dtype rt laid out as
    PyTorch's (Note [Pointwise output layout]; the op's TensorIterator inputs are the
    first n_inputs operands, by default all: addcmul's value, a number weight of lerp
    or a number bound of clamp_min is not one)."""
    arrays = [operand_array(x, rt) for x in operands]
    try:
        with quiet():
            r = fn(*arrays)
    except ValueError:
        raise broadcast_error_of(operands) from None
    cdef cnp.ndarray out = as_array(r)
    if cnp.PyArray_TYPE(out) != rt.typenum:
        out = <cnp.ndarray>out.astype(rt.np_dtype)
    return pointwise_output(out, operands if n_inputs < 0 else operands[:n_inputs],
                            rt.typenum, 0)


# Above this many elements a C loop runs with the GIL released (as numpy's loops do):
# other threads run meanwhile; below it the release would cost more than the loop.
cdef enum:
    NOGIL_N = 16384


# Over larger arrays the loops run on the thread pool (csrc/agc_parallel.h), split into
# ranges of elements: elementwise, so bitwise the one-thread result.
ctypedef struct _ew_args:
    int kernel
    bint f32, scalar_first
    char *a
    char *b
    char *out
    double s
    Py_ssize_t itemsize


cdef void _unary_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) noexcept nogil:
    cdef _ew_args *g = <_ew_args *>ctx
    cdef Py_ssize_t off = begin * g.itemsize
    _unary_loop(g.f32, g.kernel, g.a + off, g.out + off, end - begin)


cdef void _binary_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) noexcept nogil:
    cdef _ew_args *g = <_ew_args *>ctx
    cdef Py_ssize_t off = begin * g.itemsize
    _binary_loop(g.f32, g.kernel, g.a + off, g.b + off, g.out + off, end - begin)


cdef void _binary_scalar_range(void *ctx, Py_ssize_t begin, Py_ssize_t end) noexcept nogil:
    cdef _ew_args *g = <_ew_args *>ctx
    cdef Py_ssize_t off = begin * g.itemsize
    _binary_scalar_loop(g.f32, g.kernel, g.a + off, g.s, g.scalar_first, g.out + off, end - begin)


cdef inline void _unary_loop(bint f32, int kernel, void *x, void *out, size_t n) noexcept nogil:
    if f32:
        agc_unary_f32(kernel, <float *>x, <float *>out, n)
    else:
        agc_unary_f64(kernel, <double *>x, <double *>out, n)


cdef cnp.ndarray _unary_kernel(cnp.ndarray x, int kernel):
    """kernel (an AGC_* unary op) over a contiguous float array (small ones, but for
    relu, whose loop beats numpy's at every size)."""
    cdef cnp.ndarray out = empty_like_array(x)
    cdef bint f32 = cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT
    cdef void *px = cnp.PyArray_DATA(x)
    cdef void *po = cnp.PyArray_DATA(out)
    cdef size_t n = cnp.PyArray_SIZE(x)
    cdef _ew_args args
    if n <= NOGIL_N:
        _unary_loop(f32, kernel, px, po, n)
    else:
        args.kernel, args.f32, args.a, args.out = kernel, f32, <char *>px, <char *>po
        args.itemsize = 4 if f32 else 8
        with nogil:
            parallel_for(n, AGC_PARALLEL_GRAIN, _unary_range, &args)
    return out


cdef inline void _binary_loop(bint f32, int kernel, void *a, void *b, void *out,
                              size_t n) noexcept nogil:
    if f32:
        agc_binary_f32(kernel, <float *>a, <float *>b, <float *>out, n)
    else:
        agc_binary_f64(kernel, <double *>a, <double *>b, <double *>out, n)


cdef cnp.ndarray _binary_kernel(cnp.ndarray a, cnp.ndarray b, int kernel,
                                cnp.ndarray out=None):
    """kernel (an AGC_* binary op) over two contiguous float arrays of one dtype and
    shape, into out (a new array by default; a itself may be it)."""
    if out is None:
        out = empty_like_array(a)
    cdef bint f32 = cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT
    cdef void *pa = cnp.PyArray_DATA(a)
    cdef void *pb = cnp.PyArray_DATA(b)
    cdef void *po = cnp.PyArray_DATA(out)
    cdef size_t n = cnp.PyArray_SIZE(out)
    cdef _ew_args args
    if n <= NOGIL_N:
        _binary_loop(f32, kernel, pa, pb, po, n)
    else:
        args.kernel, args.f32, args.a, args.b, args.out = kernel, f32, <char *>pa, <char *>pb, <char *>po
        args.itemsize = 4 if f32 else 8
        with nogil:
            parallel_for(n, AGC_PARALLEL_GRAIN, _binary_range, &args)
    return out


cdef cnp.ndarray _binary_scalar_kernel(cnp.ndarray a, double s, bint scalar_first,
                                       int kernel, cnp.ndarray out=None):
    """kernel (an AGC_* binary op) over a contiguous float array and a number, into out
    (a new array by default; a itself may be it)."""
    if out is None:
        out = empty_like_array(a)
    cdef bint f32 = cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT
    cdef void *pa = cnp.PyArray_DATA(a)
    cdef void *po = cnp.PyArray_DATA(out)
    cdef size_t n = cnp.PyArray_SIZE(out)
    cdef _ew_args args
    if n <= NOGIL_N:
        _binary_scalar_loop(f32, kernel, pa, s, scalar_first, po, n)
    else:
        args.kernel, args.f32, args.a, args.out = kernel, f32, <char *>pa, <char *>po
        args.s, args.scalar_first, args.itemsize = s, scalar_first, 4 if f32 else 8
        with nogil:
            parallel_for(n, AGC_PARALLEL_GRAIN, _binary_scalar_range, &args)
    return out


cdef inline void _binary_scalar_loop(bint f32, int kernel, void *a, double s,
                                     bint scalar_first, void *out, size_t n) noexcept nogil:
    if f32:
        agc_binary_scalar_f32(kernel, <float *>a, s, scalar_first, <float *>out, n)
    else:
        agc_binary_scalar_f64(kernel, <double *>a, s, scalar_first, <double *>out, n)


cdef inline bint _fused_pair(cnp.ndarray a, cnp.ndarray b):
    """Whether a binary kernel can take a and b (same float dtype and shape, both
    C-contiguous), whatever their size."""
    cdef int t = cnp.PyArray_TYPE(a)
    return (t == cnp.PyArray_TYPE(b) and (t == cnp.NPY_FLOAT or t == cnp.NPY_DOUBLE)
            and cnp.PyArray_IS_C_CONTIGUOUS(a) and cnp.PyArray_IS_C_CONTIGUOUS(b)
            and same_shape(a, b))


cdef inline bint _kernel_pair(cnp.ndarray a, cnp.ndarray b):
    """Whether a forward's binary kernel takes a and b: a _fused_pair of small arrays
    (on large ones numpy's vectorised loops are as fast)."""
    return cnp.PyArray_SIZE(a) <= AGC_SMALL_N and _fused_pair(a, b)


# ================================================================ value templates
# <template>_values(<tensor args>, <template args>) for `forward: <template>(...)`.

# The kernels that call libm once per element (expf, tanhf, ...: agc_unary_calls_libm,
# the flag column of AGC_UNARY_OPS in csrc/agc_kernels.h): past this many
# elements numpy's vectorised loops win over the scalar calls, by 7x for tanh at 1,024,
# even with numpy's per-call cost (the kernels' arithmetic ones win at any small size).
cdef enum:
    LIBM_KERNEL_N = 128


cdef cnp.ndarray unary_float_values(Tensor self, object ufunc, int kernel):
    """A float-valued unary op: integer and bool inputs compute in the default float."""
    cdef cnp.ndarray x = self._data
    if not is_float_array(x) and not cnp.PyArray_ISCOMPLEX(x):
        x = cast_array(x, default_float)
    elif cnp.PyArray_TYPE(x) == bfloat16.typenum or cnp.PyArray_TYPE(x) == float16.typenum:
        if ufunc in _NO_REDUCED_FLOAT_KERNEL:
            raise not_implemented_for(_NO_REDUCED_FLOAT_KERNEL[ufunc], dtype_of(x))
        if cnp.PyArray_TYPE(x) == bfloat16.typenum:
            # in double, rounded to float, then to bfloat16 (Note [bfloat16 compute])
            with quiet():
                r = as_array(ufunc(cast_array(x, float64))).astype(np.float32)
            return pointwise_output(cast_array(r, bfloat16), (self,), bfloat16.typenum, 0)
    if kernel != NO_KERNEL and _is_small_float(x) and (
            cnp.PyArray_SIZE(x) <= LIBM_KERNEL_N or not agc_unary_calls_libm(kernel)):
        return _unary_kernel(x, kernel)
    with quiet():
        return pointwise_output(as_array(ufunc(x)), (self,), cnp.PyArray_TYPE(x), 0)


cdef cnp.ndarray float_promoting_binary_values(object self, object other, object ufunc):
    """A float-valued binary op (atan2, copysign): promoted, integer and bool operands
    compute in the default float (float_only_binary_values refuses them)."""
    return elementwise_values(ufunc, (self, other), float_or_default(result_type((self, other))))


cdef cnp.ndarray binary_promoted_values(object self, object other, object ufunc):
    """A binary op computed in the promoted dtype (maximum, minimum)."""
    return elementwise_values(ufunc, (self, other), result_type((self, other)))


cdef cnp.ndarray rounding_values(Tensor self, object ufunc, str kernel):
    """floor/ceil/trunc/round: integers are already whole (a copy), bool has no kernel."""
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x)
    check_not_bool_kernel(d, kernel)
    if d.category == CAT_INT:
        return pointwise_output(<cnp.ndarray>x.copy(), (self,), -1, 0)
    with quiet():
        return pointwise_output(as_array(ufunc(x)), (self,), -1, 0)


cdef cnp.ndarray signs_values(Tensor self):
    """sign/sgn: bool as is, PyTorch's (0 < x) - (x < 0) for floats (sign(nan) == 0)."""
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x)
    if d.category == CAT_BOOL:
        r = x.copy()
    elif d.category == CAT_INT:
        r = np.sign(x)
    elif d.category == CAT_COMPLEX:
        # z / |z|, and 0 at 0 (PyTorch's sgn)
        with quiet():
            a = np.abs(x)
            r = np.where(a == 0, 0, x / np.where(a == 0, 1, a)).astype(x.dtype)
    else:
        r = (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)
    return pointwise_output(as_array(r), (self,), -1, 0)


cdef Tensor op_angle(Tensor self):
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x)
    with quiet():
        if d.category == CAT_COMPLEX:
            r = np.angle(x)
        else:
            x = cast_array(x, float_or_default(d))
            # PyTorch's angle of a real number: pi below zero, else 0 (nan stays nan)
            r = np.where(np.isnan(x), x, np.where(x < 0, np.pi, 0.)).astype(x.dtype)
    # PyTorch's complex angle writes into a new contiguous real tensor (its
    # complex-to-float unary path), the real one follows the input as other unary ops
    cdef Tensor result = make(as_contiguous(as_array(r)) if d.category == CAT_COMPLEX
                              else pointwise_output(as_array(r), (self,), -1, 0))
    record_AngleBackward0(result, self)
    return result


cdef cnp.ndarray compare_values(Tensor self, object other, object ufunc):
    """A comparison in the promoted dtype: a bool array."""
    cdef dtype rt = result_type((self, other))
    oa = cast_array(self._data, rt)
    ob = cast_array((<Tensor>other)._data, rt) if isinstance(other, Tensor) else other
    try:
        with quiet():
            r = ufunc(oa, ob)
    except ValueError:
        raise broadcast_error(shape_of(self._data), _operand_shape(other)) from None
    return pointwise_output(as_array(r), (self, other), rt.typenum, 0)


cdef cnp.ndarray logical_values(Tensor self, Tensor other, object ufunc):
    """A logical op on the truth values (nonzero is True): a bool array."""
    try:
        r = ufunc(self._data != 0, other._data != 0)
    except ValueError:
        raise broadcast_error(shape_of(self._data), shape_of(other._data)) from None
    return pointwise_output(as_array(r), (self, other), result_type((self, other)).typenum, 0)


cdef cnp.ndarray bitwise_values(Tensor self, object other, object ufunc, str kernel):
    """A bitwise op on integer or bool operands, in the promoted dtype."""
    cdef dtype rt = result_type((self, other))
    if rt.category == CAT_FLOAT:
        raise not_implemented_for(kernel, rt)
    try:
        return elementwise_values(ufunc, (self, other), rt)
    except OverflowError:
        raise value_overflow_error(rt.value_type_name) from None


cdef cnp.ndarray predicate_values(Tensor self, object ufunc):
    """isnan & co: integer and bool values are tested as floats (finite, no sign bit
    unless negative)."""
    cdef cnp.ndarray x = self._data
    if not is_float_array(x) and not cnp.PyArray_ISCOMPLEX(x):
        x = <cnp.ndarray>x.astype(np.float64)
    cdef bint composed = ufunc is np.isinf or ufunc is np.isfinite
    if ufunc is _ufunc_isreal or (composed and x is not self._data):
        # (PyTorch: ones_like/zeros_like(self) for isreal, and isinf/isfinite of integers)
        return as_preserved(as_array(ufunc(x)), self._data)
    cdef cnp.ndarray r = pointwise_output(as_array(ufunc(x)), (self,), -1, 0)
    cdef Tensor t
    if composed:
        # (PyTorch's isinf is abs(self) == inf, a comparison with a number, and isfinite
        # (self == self) * (abs(self) != inf): the layouts of those steps)
        t = make(r)
        r2 = pointwise_output(r, (t, 0.0), -1, 0)
        if ufunc is np.isfinite:
            r2 = pointwise_output(r2, (t, make(r2)), -1, 0)
        r = r2
    return r


# ---------------------------------------------------------------- ufuncs numpy lacks

cdef cnp.ndarray _libm_values(cnp.ndarray x, libm_fn fn):
    """fn over x's values in double (the C library's accuracy), rounded to x's dtype."""
    cdef cnp.ndarray buf = np.array(x, dtype=np.float64, order="C", copy=True)
    cdef double *p = <double *>cnp.PyArray_DATA(buf)
    cdef Py_ssize_t i, n = cnp.PyArray_SIZE(buf)
    with nogil:
        for i in range(n):
            p[i] = fn(p[i])
    return <cnp.ndarray>buf.astype(x.dtype, copy=False)


def _ufunc_erf(x):
    return _libm_values(x, c_erf)


def _ufunc_erfc(x):
    return _libm_values(x, c_erfc)


def _ufunc_rsqrt(x):
    cdef cnp.ndarray r = as_array(np.sqrt(x))
    return np.reciprocal(r, out=r)


def _ufunc_sigmoid(x):
    # 1 / (1 + exp(-x)) overflows quietly to the right limits
    cdef cnp.ndarray r = as_array(np.exp(np.negative(x)))
    np.add(r, 1, out=r)
    return np.reciprocal(r, out=r)


def _ufunc_log10(x):
    # numpy's float32 log10 is 1 ulp off at powers of ten (log10(100) != 2); rounding
    # the double result gives PyTorch's values
    if x.dtype == np.float64 or x.dtype == np.complex128:
        return np.log10(x)
    wide = np.complex128 if x.dtype == np.complex64 else np.float64
    return np.log10(x.astype(wide)).astype(x.dtype)


# ================================================================ arithmetic

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
    cdef cnp.ndarray out = _binary_values(a, b, kernel)
    # only a read-only array can be a ZeroTensor: two flag tests on the common path
    if ((isinstance(a, Tensor) and not cnp.PyArray_ISWRITEABLE((<Tensor>a)._data))
            or (isinstance(b, Tensor) and not cnp.PyArray_ISWRITEABLE((<Tensor>b)._data))):
        return _zerotensor_result(a, b, kernel, out)
    return out


cdef cnp.ndarray _zerotensor_result(object a, object b, int kernel, cnp.ndarray out):
    """PyTorch's ZeroTensor kernels of mul, div, add and sub (Note [ZeroTensor] in
    _core/_node.pxi): a product with a ZeroTensor, a ZeroTensor divided by an ordinary
    tensor or number, and a sum or difference of two ZeroTensors are ZeroTensors."""
    cdef bint za = isinstance(a, Tensor) and a._is_zerotensor()
    cdef bint zb = isinstance(b, Tensor) and b._is_zerotensor()
    if ((kernel == AGC_MUL and (za or zb)) or (kernel == AGC_DIV and za and not zb)
            or ((kernel == AGC_ADD or kernel == AGC_SUB) and za and zb)):
        return (<Tensor>_zerotensor_like(make(out)))._data
    cdef cnp.ndarray keep
    if (kernel == AGC_ADD or kernel == AGC_SUB) and za != zb:
        # PyTorch's add_zerotensor copies the other operand (expanded to the result's
        # shape) keeping its layout: a forward formula's `zero + self_t * c` is laid out
        # as self_t, which fw_finish then needs no copy for (AddBackward0, not
        # CopyBackwards, ends a jvp tangent); its values are the operand's own (negated
        # for zero - b), not zero + b, which would turn a -0 into +0
        other = b if za else a
        if isinstance(other, Tensor) and same_shape((<Tensor>other)._data, out):
            keep = np.empty_like((<Tensor>other)._data, dtype=out.dtype)
            if za and kernel == AGC_SUB:
                np.negative((<Tensor>other)._data, out=keep, casting="unsafe")
            else:
                keep[...] = (<Tensor>other)._data
            return keep
    return out


cdef cnp.ndarray _row_broadcast_kernel(cnp.ndarray a, cnp.ndarray b, int kernel):
    """a OP b (an AGC_ADD..DIV kernel) for two small C-contiguous float arrays of one
    dtype where one, of shape (..., n), meets either one row of n values ((n,) or
    (1, n): a bias) or one value per row ((..., 1): a max or sum kept as a dim): row by
    row through the kernels. PyTorch lays the result out in C order, as the larger
    operand (Note [Pointwise output layout]). None for anything else."""
    cdef int t = cnp.PyArray_TYPE(a), nd, sd, i
    if (t != cnp.PyArray_TYPE(b) or (t != cnp.NPY_FLOAT and t != cnp.NPY_DOUBLE)
            or not cnp.PyArray_IS_C_CONTIGUOUS(a) or not cnp.PyArray_IS_C_CONTIGUOUS(b)):
        return None
    cdef bint big_first = cnp.PyArray_SIZE(a) >= cnp.PyArray_SIZE(b)
    cdef cnp.ndarray big = a if big_first else b, small = b if big_first else a
    nd, sd = cnp.PyArray_NDIM(big), cnp.PyArray_NDIM(small)
    if nd == 0 or sd == 0 or sd > nd or cnp.PyArray_SIZE(big) > NOGIL_N:
        return None
    cdef cnp.npy_intp *bs = cnp.PyArray_DIMS(big)
    cdef cnp.npy_intp *ss = cnp.PyArray_DIMS(small)
    cdef Py_ssize_t n = bs[nd - 1], rows, r
    if n == 0 or cnp.PyArray_SIZE(big) == cnp.PyArray_SIZE(small):
        return None
    rows = cnp.PyArray_SIZE(big) // n
    cdef bint per_row = sd == nd and ss[sd - 1] == 1
    if per_row:                  # (..., 1) against (..., n)
        for i in range(nd - 1):
            if ss[i] != bs[i]:
                return None
    else:                        # (1, .., 1, n) against (..., n)
        if ss[sd - 1] != n:
            return None
        for i in range(sd - 1):
            if ss[i] != 1:
                return None
    cdef cnp.ndarray out = empty_like_array(big)
    cdef bint f32 = t == cnp.NPY_FLOAT
    cdef Py_ssize_t row_bytes = n * (4 if f32 else 8)
    cdef char *pb = <char *>cnp.PyArray_DATA(big)
    cdef char *ps = <char *>cnp.PyArray_DATA(small)
    cdef char *po = <char *>cnp.PyArray_DATA(out)
    cdef double v
    for r in range(rows):
        if per_row:
            v = (<float *>ps)[r] if f32 else (<double *>ps)[r]
            _binary_scalar_loop(f32, kernel, pb + r * row_bytes, v, not big_first,
                                po + r * row_bytes, n)
        elif big_first:
            _binary_loop(f32, kernel, pb + r * row_bytes, ps, po + r * row_bytes, n)
        else:
            _binary_loop(f32, kernel, ps, pb + r * row_bytes, po + r * row_bytes, n)
    return out


cdef cnp.ndarray _binary_values(object a, object b, int kernel):
    cdef cnp.ndarray xa, xb, out
    cdef bint ta = isinstance(a, Tensor), tb = isinstance(b, Tensor)
    cdef dtype rt
    if ta and tb:
        xa = (<Tensor>a)._data
        xb = (<Tensor>b)._data
        if _kernel_pair(xa, xb):
            return _binary_kernel(xa, xb, kernel)
        out = _row_broadcast_kernel(xa, xb, kernel)
        if out is not None:
            return out
    elif ta or tb:
        xa = (<Tensor>(a if ta else b))._data
        s = b if ta else a
        # (a number beside xa: PyTorch's layout follows xa's very strides, size-1 dims
        # too, Note [Pointwise output layout]; the kernel writes C order)
        if (_is_small_float(xa) and (type(s) is float or type(s) is int)
                and has_contiguous_strides(xa) and cnp.PyArray_SIZE(xa) != 0):
            return _binary_scalar_kernel(xa, <double>s, not ta, kernel)
    rt = result_type((a, b))
    if kernel == AGC_DIV and rt.category < CAT_FLOAT:
        rt = default_float
    if kernel == AGC_SUB and ((ta and dtype_of((<Tensor>a)._data).category == CAT_BOOL)
                              or (tb and dtype_of((<Tensor>b)._data).category == CAT_BOOL)
                              or type(a) is bool or type(b) is bool):
        # (a Python bool is a bool operand too: bool_t - True is two bool tensors')
        if rt.category == CAT_BOOL:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    if rt is bfloat16 and (kernel == AGC_MUL or kernel == AGC_DIV) and ta and (not tb or (
            cnp.PyArray_NDIM((<Tensor>b)._data) == 0
            and cnp.PyArray_TYPE((<Tensor>b)._data) != bfloat16.typenum)):
        return _bfloat16_scalar_values(<Tensor>a, b, kernel)
    oa = cast_array((<Tensor>a)._data, rt) if ta else a
    ob = cast_array((<Tensor>b)._data, rt) if tb else b
    if rt.category == CAT_INT:
        oa = _wrap_int_scalar(oa, rt)
        ob = _wrap_int_scalar(ob, rt)
    try:
        with quiet():
            r = (<object>_BINARY_UFUNCS[kernel])(oa, ob)
    except ValueError:
        raise broadcast_error(_operand_shape(a), _operand_shape(b)) from None
    out = as_array(r)
    if cnp.PyArray_TYPE(out) != rt.typenum:
        out = out.astype(rt.np_dtype)
    return pointwise_output(out, (a, b), rt.typenum, 0)


cdef cnp.ndarray _bfloat16_scalar_values(Tensor a, object b, int kernel):
    """a * b or a / b for a bfloat16 a and a scalar second operand (a number or a 0-d
    tensor of another dtype): PyTorch's CPU mul and div kernels read that scalar in
    float, unrounded (add and sub round it to bfloat16 first), compute in float (a
    division as a product with the scalar's reciprocal) and round once
    (Note [bfloat16 compute])."""
    cdef cnp.ndarray xa = cast_array(a._data, float32)
    s = np.float32((<Tensor>b)._data[()] if isinstance(b, Tensor) else b)
    with quiet():
        r = np.multiply(xa, np.float32(1) / s if kernel == AGC_DIV else s)
    return pointwise_output(cast_array(as_array(r), bfloat16), (a, b), bfloat16.typenum, 0)


cdef object _scaled(object self, object other, object alpha):
    """alpha * other, for add/sub with alpha (a number, or a tensor's values), in the
    dtype self and other promote to (PyTorch scales in the result's precision)."""
    cdef Tensor o
    cdef dtype rt = result_type((self, other))
    if isinstance(alpha, float) and not (rt.is_floating_point or rt.category == CAT_COMPLEX):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if isinstance(other, Tensor):
        o = <Tensor>other
        if dtype_of(o._data) is not rt:
            o = make(cast_array(o._data, rt))
        return make(binary_values(o, alpha, AGC_MUL))
    return other * alpha


cdef inline bint _is_bool_operand(object x):
    return type(x) is bool or (isinstance(x, Tensor)
                                and dtype_of((<Tensor>x)._data).category == CAT_BOOL)


cdef cnp.ndarray binary_alpha_values(object a, object b, object alpha, int kernel):
    """a + alpha * b or a - alpha * b: one op in PyTorch, whose layout follows a and b
    (Note [Pointwise output layout]), not the scaled temporary."""
    cdef dtype rt
    if type(alpha) is complex:
        # PyTorch's alpha_check (Note [Complex Scalar arguments]), even for alpha 1+0j
        rt = result_type((a, b))
        if kernel == AGC_SUB and rt.category == CAT_BOOL:
            return binary_values(a, b, kernel)   # (raises PyTorch's bool subtraction error)
        if rt.category < CAT_FLOAT:
            raise RuntimeError("For integral input tensors, argument alpha must not be a "
                               "floating point number.")
        if rt.category != CAT_COMPLEX:
            raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                               "complex number.")
    if alpha == 1 or (kernel == AGC_SUB and (_is_bool_operand(a) or _is_bool_operand(b))):
        # (a bool operand: sub's check sees the operands before alpha scales one)
        return binary_values(a, b, kernel)
    return pointwise_output(binary_values(a, _scaled(a, b, alpha), kernel), (a, b),
                            result_type((a, b)).typenum, 0)


cdef cnp.ndarray rsub_values(Tensor self, object other, object alpha):
    """other - alpha * self."""
    return binary_alpha_values(other, self, alpha, AGC_SUB)




cdef Tensor op_div(Tensor self, object other, object rounding_mode):
    if rounding_mode is not None:
        return op__div_mode(self, other, rounding_mode)
    cdef Tensor result = make(binary_values(self, other, AGC_DIV))
    record_DivBackward0(result, self, other, rounding_mode)
    return result


cdef Tensor op_div_scalar(Tensor self, object other):
    # div.Scalar has no ZeroTensor kernel in PyTorch: a ZeroTensor self gives an ordinary
    # result (mean's backward), unlike div.Tensor's (Note [ZeroTensor])
    cdef Tensor result = make(_binary_values(self, other, AGC_DIV))
    record_DivBackward1(result, self, other)
    return result


# ---------------------------------------------------------------- div with rounding_mode

cdef RoundingMode _rounding_mode(object mode) except *:
    if mode is None:
        return ROUND_NONE
    if mode == "trunc":
        return ROUND_TRUNC
    if mode == "floor":
        return ROUND_FLOOR
    raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                       f"but found '{mode}'")


cdef void _check_int_zero_division(dtype rt, cnp.ndarray b) except *:
    if rt.category < CAT_FLOAT and cnp.PyArray_SIZE(b) and not np.all(b):
        raise RuntimeError("ZeroDivisionError")


cdef object _trunc_int_div(cnp.ndarray a, cnp.ndarray b):
    q = np.floor_divide(a, b)
    adjust = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return q + adjust.astype(q.dtype)


cdef cnp.ndarray _div_values(object a, object b, RoundingMode mode):
    """a / b, true or rounded by mode (rounded quotients keep integer dtypes)."""
    cdef dtype rt = result_type((a, b))
    if mode == ROUND_NONE:
        return elementwise_values(np.true_divide, (a, b), float_or_default(rt))
    check_not_bool_kernel(rt, "div_floor_cpu" if mode == ROUND_FLOOR else "div_trunc_cpu")
    cdef cnp.ndarray xa = operand_array(a, rt), xb = operand_array(b, rt)
    try:
        if rt.category == CAT_INT:
            _check_int_zero_division(rt, xb)
            r = np.floor_divide(xa, xb) if mode == ROUND_FLOOR else _trunc_int_div(xa, xb)
        else:
            with quiet():
                r = np.floor_divide(xa, xb) if mode == ROUND_FLOOR \
                    else np.trunc(np.true_divide(xa, xb))
    except ValueError:
        raise broadcast_error_of((a, b)) from None
    cdef cnp.ndarray out = as_array(r)
    if cnp.PyArray_TYPE(out) != rt.typenum:
        out = <cnp.ndarray>out.astype(rt.np_dtype)
    return pointwise_output(out, (a, b), rt.typenum, 0)


cdef Tensor op__div_mode(object self, object other, object rounding_mode):
    cdef Tensor result = make(_div_values(self, other, _rounding_mode(rounding_mode)))
    record_DivBackward2(result, self, other, rounding_mode)
    return result


# div() without rounding_mode is div.Tensor (DivBackward0); with one, even None,
# div.Tensor_mode (DivBackward2), as in PyTorch
cdef object _NO_ROUNDING_MODE = object()


cdef tuple _div_mode_operands(object input, object other):
    a = arg_operand(input)
    b = arg_operand(other)
    if a is NotImplemented or b is NotImplemented or \
            not (isinstance(a, Tensor) or isinstance(b, Tensor)):
        raise TypeError("div(): argument 'other' must be Tensor or Number")
    return a, b


def _py_div(input, other, *, out=None, rounding_mode=_NO_ROUNDING_MODE):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_div, (input, other, ), {"out": out, "rounding_mode": rounding_mode})
    if rounding_mode is _NO_ROUNDING_MODE:
        if not isinstance(input, Tensor) and isinstance(other, Tensor) and is_number(input):
            # number / tensor: PyTorch computes it as reciprocal(tensor) * number
            res = OPS.mul(OPS.reciprocal(<Tensor>other), arg_number(input))
            return with_out("div", out, res)
        res = OPS.div(arg_tensor(input, "div", "input", 1),
                     arg_tensor_or_scalar(other, "div", "other", 2), None)
        return with_out("div", out, res)
    if complex_arg(input) or complex_arg(other):
        check_complex_args("div" if rounding_mode is None else
                           "div_" + str(rounding_mode), (input, other))  # Note [Dtype guard]
    a, b = _div_mode_operands(input, other)
    res = OPS._div_mode(a, b, None if rounding_mode is None
                       else arg_str(rounding_mode, "div", "rounding_mode", 3))
    return with_out("div", out, res)


def _py_div_(input, other, *, rounding_mode=_NO_ROUNDING_MODE):
    """In-place input / other (see div)."""
    if (type(input) is not Tensor and has_torch_function(input)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_div_, (input, other, ), {"rounding_mode": rounding_mode})
    cdef Tensor self = arg_tensor(input, "div_", "input", 1)
    other = arg_tensor_or_scalar(other, "div_", "other", 2)
    if rounding_mode is _NO_ROUNDING_MODE:
        return OPS.div_(self, other, None)
    mode = None if rounding_mode is None else arg_str(rounding_mode, "div_", "rounding_mode", 3)
    if complex_arg(self) or complex_scalar_arg(other):
        # (the kernel of the out-of-place mode: Note [Dtype guard])
        check_complex_args("div" if mode is None else "div_" + mode, (self, other))
    return OPS._div_mode_(self, other, mode)


_py_div_.__name__ = _py_div_.__qualname__ = "div_"


# ---------------------------------------------------------------- neg, abs, sign

cdef Tensor op_neg(Tensor self):
    cdef cnp.ndarray x = self._data
    if dtype_of(x).category == CAT_BOOL:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    cdef Tensor result = make(_unary_kernel(x, AGC_NEG) if _is_small_float(x)
                              else pointwise_output(as_array(np.negative(x)), (self,), -1, 0))
    record_NegBackward0(result, self)
    return result


cdef Tensor op_abs(Tensor self):
    cdef cnp.ndarray x = self._data
    check_not_bool_kernel(dtype_of(x), "abs_cpu")
    cdef Tensor result = make(_unary_kernel(x, AGC_ABS) if _is_small_float(x)
                              else pointwise_output(as_array(np.abs(x)), (self,), -1, 0))
    record_AbsBackward0(result, self)
    return result


# ---------------------------------------------------------------- pow

cdef void _check_int_pow(dtype rt, object exponent_values) except *:
    if rt.category < CAT_FLOAT and np.any(np.asarray(exponent_values) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")


cdef object _int_power(cnp.ndarray base, cnp.ndarray exponent):
    """Integer power where negative exponents give 1/base**-e truncated (0, 1 or -1)."""
    neg = exponent < 0
    if not neg.any():
        return np.power(base, exponent)
    out = np.power(base, np.where(neg, 0, exponent))
    inv = np.where(base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0))
    return np.where(neg, inv, out).astype(out.dtype)


# Note [Complex power of zero]
# PyTorch's complex pow is std::pow, exp(y * log(x)): with x = 0, log(x) = -inf, so
# an exponent of real part < 0 gives inf+nanj and one of real part 0 gives nan+nanj
# (0 ** 0j too, for a tensor exponent: only a Scalar exponent of 0 is special-cased to
# ones). numpy's power gives nan+nanj, and 1 for 0 ** 0j; the zero bases with an
# exponent of real part <= 0 are recomputed as PyTorch's formula (a positive real part
# gives zero both ways). The gradients follow: their formulas call pow.
cdef object _complex_zero_base(object out, object base, object exponent):
    """out (numpy's complex base ** exponent) with PyTorch's values where base is 0
    and exponent's real part is <= 0 (Note [Complex power of zero])."""
    with quiet():
        fix = np.logical_and(base == 0, np.real(exponent) <= 0)
        if not np.any(fix):
            return out
        return np.where(fix, np.exp(exponent * np.log(base)), out)


cdef cnp.ndarray _pow_scalar_values(Tensor x, object p):
    """x ** p for a number p (pow.Tensor_Scalar)."""
    cdef dtype rt = result_type((x, p))
    _check_int_pow(rt, p)
    if rt.category == CAT_INT and type(p) is int and _wrap_int_scalar(p, rt) is not p:
        raise value_overflow_error(rt.value_type_name)
    cdef cnp.ndarray xa = cast_array(x._data, rt)
    with quiet():
        out = np.multiply(xa, xa) if p == 2 else np.power(xa, p)
    if rt.category == CAT_COMPLEX and p != 0:   # (0 ** 0 is 1: PyTorch fills ones)
        out = _complex_zero_base(out, xa, p)
    return pointwise_output(<cnp.ndarray>as_array(out).astype(rt.np_dtype, copy=False), (x,),
                            rt.typenum, 0)


cdef cnp.ndarray _pow_tensor_values(Tensor x, Tensor y):
    """x ** y for two tensors (pow.Tensor_Tensor)."""
    cdef dtype rt = result_type((x, y))
    if rt.category == CAT_BOOL:
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    try:
        with quiet():
            if rt.category == CAT_INT:
                out = _int_power(cast_array(x._data, rt), cast_array(y._data, rt))
            else:
                xa, ya = cast_array(x._data, rt), cast_array(y._data, rt)
                out = np.power(xa, ya)
                if rt.category == CAT_COMPLEX:
                    out = _complex_zero_base(out, xa, ya)
    except ValueError:
        raise broadcast_error(shape_of(x._data), shape_of(y._data)) from None
    return pointwise_output(as_array(out), (x, y), rt.typenum, 0)


cdef cnp.ndarray _rpow_values(object b, Tensor y):
    """b ** y for a number b (pow.Scalar)."""
    cdef dtype rt = result_type((b, y))
    if rt.category == CAT_BOOL:
        # (a bool base with a bool exponent: pow.Scalar runs pow.Tensor_Tensor's kernel)
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    with quiet():
        if rt.category < CAT_FLOAT:
            out = _int_power(np.array(b).astype(rt.np_dtype), cast_array(y._data, rt))
        else:
            ya = cast_array(y._data, rt)
            out = np.power(b, ya)
            if rt.category == CAT_COMPLEX and b == 0:
                out = _complex_zero_base(out, np.asarray(b, rt.np_dtype), ya)
    # (pow.Scalar allocates a contiguous result itself, then runs pow.Tensor_Tensor)
    return pointwise_output(<cnp.ndarray>as_array(out).astype(rt.np_dtype, copy=False), (),
                            -1, 0)


cdef Tensor op_pow(object self, object exponent):
    cdef Tensor result
    if isinstance(self, Tensor):
        if isinstance(exponent, Tensor):
            result = make(_pow_tensor_values(<Tensor>self, <Tensor>exponent))
            record_PowBackward1(result, self, exponent)
        else:
            result = make(_pow_scalar_values(<Tensor>self, exponent))
            record_PowBackward0(result, self, exponent)
        return result
    if not isinstance(exponent, Tensor):
        raise TypeError("pow(): at least one of input and exponent must be a Tensor")
    result = make(_rpow_values(self, <Tensor>exponent))
    record_PowBackward2(result, self, exponent)
    return result


cdef Tensor op_pow_(Tensor self, object exponent):
    cdef Tensor src = inplace_source(self, (exponent,))
    if inplace_in_order(self, (exponent,)):   # Note [Overlapping operands]
        return inplace_commit_in_order(self, op_pow(src, exponent), _pow_in_order, (exponent,))
    return inplace_commit(self, op_pow(src, exponent))


def _pow_in_order(self, exponent):
    return op_pow(self, exponent)


def _py_pow(input, exponent, *, out=None):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(exponent) is not Tensor and has_torch_function(exponent)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_pow, (input, exponent, ), {"out": out})
    if complex_arg(input) or complex_arg(exponent):
        check_complex_args("pow", (input, exponent))  # Note [Dtype guard]
    if not isinstance(input, Tensor) and isinstance(exponent, Tensor):
        # (pow.Scalar's base promotes the result: a complex number gives a complex one)
        base = (<object>input if type(input) is complex
                else arg_scalar(input, "pow", "self", 1))
        return with_out("pow", out, OPS.pow(base, exponent))
    res = OPS.pow(arg_tensor(input, "pow", "input", 1),
                 arg_tensor_or_scalar(exponent, "pow", "exponent", 2))
    return with_out("pow", out, res)




cdef Tensor pow_backward(Tensor grad, Tensor self, object exponent):
    """d/dself of self ** exponent for a number exponent."""
    if exponent == 0:
        return zeros_like(self)
    # PyTorch's grad * (exponent * self.pow(exponent - 1)): a Tensor times a number is
    # mul.Scalar there (MulBackward1 under create_graph)
    return OPS.mul(grad, cj(OPS.mul_scalar(OPS.pow(self, exponent - 1), exponent)))


cdef Tensor pow_backward_self(Tensor grad, Tensor self, Tensor exponent):
    """d/dself of self ** exponent (tensors): zero where the exponent is 0."""
    cdef Tensor d = OPS.mul(grad, cj(OPS.mul(exponent, OPS.pow(self, OPS.sub(exponent, 1, 1)))))
    return OPS.where(OPS.eq(exponent, 0.0), 0.0, d)


cdef Tensor pow_backward_exponent(Tensor grad, object self, Tensor exponent, Tensor result):
    """d/dexponent of self ** exponent (self a tensor or a number): result * log(self),
    taken as 0 where self == 0 and exponent >= 0."""
    cdef cnp.ndarray zero_base
    cdef cnp.ndarray e = exponent._data
    if isinstance(self, Tensor):
        with quiet():
            # (a complex exponent counts as >= 0 when it is real and >= 0, as PyTorch's)
            zero_base = as_array(((<Tensor>self)._data == 0) & (
                ((e.imag == 0) & (e.real >= 0)) if cnp.PyArray_ISCOMPLEX(e) else (e >= 0)))
        return OPS.mul(grad, OPS.where(make(zero_base), 0.0,
                                       cj(OPS.mul(result, OPS.log(<Tensor>self)))))
    cdef double log_base
    with quiet():
        log_base = float(np.log(np.float64(self)))
    if self == 0:
        with quiet():
            zero_base = as_array(((e.imag == 0) & (e.real >= 0)) if cnp.PyArray_ISCOMPLEX(e)
                                 else (e >= 0))
        return OPS.mul(grad, OPS.where(make(zero_base), 0.0, cj(OPS.mul(result, log_base))))
    return OPS.mul(grad, cj(OPS.mul(result, log_base)))


# ---------------------------------------------------------------- floor_divide, remainder, fmod

@cython.final
cdef class NotImplementedBackward(Node):
    """PyTorch's `NotImplemented` node (table entry floor_divide; also recorded by
    number % tensor, bincount and histogram with weights, ldl_factor): an op PyTorch has
    no derivative for. Its edges are the inputs
    that require grad, as PyTorch's; backward through it raises, naming the op.

    Its printed type name is PyTorch's `NotImplemented` (name_node_types reads
    torch_name); the class keeps a different Python name so that the module does not
    shadow Python's builtin NotImplemented.
    """
    torch_name = "NotImplemented"
    cdef str op_name

    def name(self):
        return "torch::autograd::NotImplemented"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        # (set_, a hand-written kernel in PyTorch, is named without its namespace)
        name = self.op_name if self.op_name == "set_" else "aten::" + self.op_name
        raise RuntimeError(f"derivative for {name} is not implemented")


cdef void _record_not_implemented(Tensor result, tuple operands, str op_name) except *:
    if not should_record(operands, result._data, op_name):
        return
    cdef NotImplementedBackward node = NotImplementedBackward.__new__(NotImplementedBackward)
    node.op_name = op_name
    record(node, result, tuple([x for x in operands if _input_requires_grad(x)]))
    run_when_ready(node)


cdef object op_not_implemented_node(Tensor result, object operands, object op_name):
    _record_not_implemented(result, tuple(operands), op_name)
    return None


cdef cnp.ndarray mod_values(object a, object b, object ufunc, str kernel):
    """remainder (np.remainder: the divisor's sign) or fmod (np.fmod: the dividend's)."""
    cdef dtype rt = result_type((a, b))
    check_not_bool_kernel(rt, kernel)
    if rt.category == CAT_INT:
        _check_int_zero_division(rt, operand_array(b, rt))
    return elementwise_values(ufunc, (a, b), rt)


cdef tuple _two_operands(object input, object other, str fname):
    """Two operands of which at least one is a Tensor (the other may be a number)."""
    a = arg_operand(input)
    b = arg_operand(other)
    if a is NotImplemented or (not isinstance(a, Tensor) and not isinstance(b, Tensor)):
        raise not_tensor_error(fname, "input", 1, input)
    if b is NotImplemented:
        raise not_tensor_error(fname, "other", 2, other)
    return a, b


cdef Tensor op_floor_divide(object self, object other):
    cdef Tensor result = make(_div_values(self, other, ROUND_FLOOR))
    _record_not_implemented(result, (self, other), "floor_divide")
    return result


def _py_floor_divide(input, other, *, out=None):
    # PyTorch's autograd fallback (Note [Forward AD refusals before the kernel])
    fw_refuse_fallback("floor_divide", (input, other, out))
    if complex_scalar_arg(input) or complex_scalar_arg(other):
        check_complex_args("floor_divide", (input, other,))  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_floor_divide, (input, other, ), {"out": out})
    a, b = _two_operands(input, other, "floor_divide")
    return with_out("floor_divide", out, OPS.floor_divide(a, b))




cdef Tensor op_remainder(object self, object other):
    cdef Tensor result = make(mod_values(self, other, np.remainder, "remainder_cpu"))
    if not isinstance(self, Tensor):
        _record_not_implemented(result, (self, other), "remainder")  # PyTorch has none
    elif isinstance(other, Tensor):
        record_RemainderBackward1(result, self, other)
    else:
        record_RemainderBackward0(result, self, other)
    return result


def _py_remainder(input, other, *, out=None):
    if complex_scalar_arg(input) or complex_scalar_arg(other):
        check_complex_args("remainder", (input, other,))  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_remainder, (input, other, ), {"out": out})
    a, b = _two_operands(input, other, "remainder")
    return with_out("remainder", out, OPS.remainder(a, b))






cdef str _TENSOR_OR_NUMBER_OTHER = (
    " * (Tensor input, Tensor other, *, Tensor out = None)\n"
    " * (Tensor input, Number other, *, Tensor out = None)")


cdef object _fmod_other(str fname, object input, object other):
    o = arg_operand(other)
    if o is NotImplemented:
        raise type_error_combination(fname, (input, other), _TENSOR_OR_NUMBER_OTHER)
    return o


def _py_fmod(input, other, *, out=None):
    if complex_scalar_arg(input) or complex_scalar_arg(other):
        check_complex_args("fmod", (input, other,))  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_fmod, (input, other, ), {"out": out})
    if not isinstance(input, Tensor):
        raise type_error_combination("fmod", (input, other), _TENSOR_OR_NUMBER_OTHER)
    return with_out("fmod", out, OPS.fmod(input, _fmod_other("fmod", input, other)))


def _py_fmod_(input, other):
    """In-place fmod."""
    if (type(input) is not Tensor and has_torch_function(input)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_fmod_, (input, other, ), {})
    cdef Tensor self = arg_tensor(input, "fmod_", "input", 1)
    if complex_arg(self) or complex_scalar_arg(other):
        check_complex_args("fmod_", (self, other))  # Note [Dtype guard]
    return OPS.fmod_(self, _fmod_other("fmod_", input, other))


_py_fmod_.__name__ = _py_fmod_.__qualname__ = "fmod_"


# ================================================================ clamp

cdef object _clamp_values(cnp.ndarray x, object lo, object hi):
    r = x
    if lo is not None:
        r = np.maximum(r, lo)
    if hi is not None:
        r = np.minimum(r, hi)
    return r if r is not x else x.copy()


cdef Tensor op_clamp(Tensor self, object min, object max):
    if min is None and max is None:
        raise RuntimeError("autograd_core.clamp: At least one of 'min' or 'max' must not be None")
    cdef dtype rt = result_type((self, min, max))
    cdef cnp.ndarray xa = cast_array(self._data, rt)
    lo = None if min is None else operand_array(min, rt)
    hi = None if max is None else operand_array(max, rt)
    with quiet():
        out = pointwise_output(as_array(_clamp_values(xa, lo, hi)), (self,), rt.typenum, 0)
    cdef Tensor result = make(out)
    record_ClampBackward1(result, self, min, max)
    return result


cdef Tensor op__clamp_tensor(Tensor self, Tensor min, Tensor max):
    if min is None and max is None:
        raise RuntimeError("autograd_core.clamp: At least one of 'min' or 'max' must not be None")
    cdef dtype rt = result_type((self, min, max))
    cdef cnp.ndarray xa = cast_array(self._data, rt)
    try:
        with quiet():
            out = as_array(_clamp_values(xa, None if min is None else cast_array(min._data, rt),
                                         None if max is None else cast_array(max._data, rt)))
    except ValueError:
        raise broadcast_error_of((self, min, max)) from None
    cdef Tensor result = make(pointwise_output(out, (self, min, max), rt.typenum, 0))
    record_ClampBackward0(result, self, min, max)
    return result


cdef cnp.ndarray clamp_bound_values(Tensor self, object bound, object ufunc):
    """clamp_min / clamp_max (ufunc: np.maximum or np.minimum) against one bound, a
    tensor or a number."""
    return elementwise_values(ufunc, (self, bound), result_type((self, bound)),
                              2 if isinstance(bound, Tensor) else 1)


cdef inline object _values_of(object b):
    return (<Tensor>b)._data if isinstance(b, Tensor) else b


cdef Tensor clamp_backward(Tensor grad, Tensor self, object min, object max):
    """grad where min <= self <= max (bounds numbers or tensors, either may be None)."""
    cdef cnp.ndarray xd = self._data
    with quiet():
        if min is not None and max is not None:
            keep = (xd >= _values_of(min)) & (xd <= _values_of(max))
        elif min is not None:
            keep = xd >= _values_of(min)
        elif max is not None:
            keep = xd <= _values_of(max)
        else:
            return grad
    return OPS.where(make(as_array(keep)), grad, 0)


cdef Tensor clamp_backward_min(Tensor grad, Tensor self, Tensor min, Tensor max):
    """The gradient of a tensor min bound: grad where self < min (and min < max)."""
    cdef cnp.ndarray xd = self._data
    with quiet():
        if max is not None:
            take = (xd < min._data) & (min._data < max._data)
        else:
            take = xd < min._data
    return OPS.where(make(as_array(take)), grad, 0)


cdef Tensor clamp_backward_max(Tensor grad, Tensor self, Tensor min, Tensor max):
    """The gradient of a tensor max bound: grad where self > max (or max < min)."""
    cdef cnp.ndarray xd = self._data
    with quiet():
        if min is not None:
            take = (xd > max._data) | (max._data < min._data)
        else:
            take = xd > max._data
    return OPS.where(make(as_array(take)), grad, 0)


cdef str _CLAMP_SIGNATURES = (
    " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n"
    " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)")


cdef object _clamp_type_error(str fname, object min, object max):
    kws = []
    if min is not None:
        kws.append(("min", min))
    if max is not None:
        kws.append(("max", max))
    got = ", ".join(["Tensor"] + [f"{k}={'Tensor' if isinstance(v, Tensor) else type(v).__name__}"
                                  for k, v in kws])
    return TypeError(f"{fname}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{_CLAMP_SIGNATURES}\n")


cdef tuple _clamp_bounds(str fname, object min, object max):
    """(bounds are tensors, min, max): clamp's overloads take two tensor bounds or two
    number bounds (None for either)."""
    cdef bint t_min = isinstance(min, Tensor), t_max = isinstance(max, Tensor)
    if t_min or t_max:
        if (min is not None and not t_min) or (max is not None and not t_max):
            raise _clamp_type_error(fname, min, max)
        return True, min, max
    smin = None if min is None else _clamp_scalar(min)
    smax = None if max is None else _clamp_scalar(max)
    if (min is not None and smin is None) or (max is not None and smax is None):
        raise _clamp_type_error(fname, min, max)
    return False, smin, smax


cdef str _CLAMP_COMPLEX = "clamp is not supported for complex types"


cdef tuple _clamp_number_bounds(Tensor self, object lo, object hi, bint inplace):
    """clamp's number bounds as its Scalar kernel reads them (Note [Complex Scalar
    arguments]): a floating self reads a complex bound as a double (its real part, or
    PyTorch's overflow error); any other self promotes with it to a complex type, which
    clamp refuses. An in-place clamp first checks that the result type casts to self's,
    naming self's C++ type (clamp_scalar's check; tensor bounds' in-place check names
    the ScalarType)."""
    cdef dtype d = dtype_of(self._data), rt
    cdef bint cx = type(lo) is complex or type(hi) is complex
    if cx and d.category == CAT_FLOAT:
        lo, hi = scalar_in(lo, float64), scalar_in(hi, float64)
        cx = False
    if inplace and d.category != CAT_COMPLEX:
        rt = complex64 if cx else result_type((self, lo, hi))
        if rt.category > d.category:
            raise RuntimeError(f"result type {rt.scalar_name} can't be cast to the desired "
                               f"output type {d.cpp_name}")
    if cx:
        raise NotImplementedError(_CLAMP_COMPLEX)
    return lo, hi


cdef object _clamp_scalar(object x):
    """A number bound of clamp: a number, a complex Python number included (PyTorch's
    Scalar), else None."""
    if type(x) is complex:
        return x
    return arg_number(x)


cdef int _clamp_guard(str fname, object input, object min, object max) except -1:
    """Note [Dtype guard] for clamp's overloads (clamp, clamp_min, clamp_max and their
    in-place forms; min or max None for the last two), for a guarded input or (out of
    place) a guarded tensor bound. A refusal gets the error of the kernel PyTorch's
    overload runs: number bounds clamp_scalar_cpu / clamp_min_scalar_cpu /
    clamp_max_scalar_cpu, tensor bounds clamp_cpu / maximum_cpu / minimum_cpu on the
    operands' common dtype (the guard knows one name per op). clamp refuses a complex
    input in its own words first; clamp_min and clamp_max have no such check."""
    try:
        check_complex_args(fname, (input, min, max))
    except NotImplementedError:
        t = isinstance(min, Tensor) or isinstance(max, Tensor)
        if (cnp.PyArray_ISCOMPLEX((<Tensor>input)._data) or type(min) is complex
                or type(max) is complex):
            if not t or type(min) is complex or type(max) is complex or (
                    cnp.PyArray_ISCOMPLEX((<Tensor>input)._data)
                    and not fname.startswith(("clamp_min", "clamp_max"))):
                raise
        if min is not None and max is not None:
            kernel = "clamp_cpu" if t else "clamp_scalar_cpu"
        elif max is None:
            kernel = "maximum_cpu" if t else "clamp_min_scalar_cpu"
        else:
            kernel = "minimum_cpu" if t else "clamp_max_scalar_cpu"
        # (the tensor overloads promote first: PyTorch's error for uint16 with complex)
        raise not_implemented_for(kernel, result_type((input, min, max)) if t
                                  else dtype_of((<Tensor>input)._data)) from None
    return 0


cdef inline bint _clamp_guarded(object input, object min, object max, bint inplace):
    """Whether clamp's overloads call _clamp_guard: a guarded input, or out of place a
    guarded tensor bound of a tensor input (in place, a complex bound of a real self is
    the op's cast error)."""
    return complex_arg(input) or (not inplace and isinstance(input, Tensor)
                                  and (complex_arg(min) or complex_arg(max)))


def _py_clamp(input, min=None, max=None, *, out=None):
    if _clamp_guarded(input, min, max, False) and type(min) is not complex \
            and type(max) is not complex:
        # (the bounds promote: Note [Dtype guard]; a complex bound: _clamp_number_bounds)
        _clamp_guard("clamp", input, min, max)  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(min) is not Tensor and has_torch_function(min)) or (type(max) is not Tensor and has_torch_function(max)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_clamp, (input, min, max, ), {"out": out})
    cdef Tensor self = arg_tensor(input, "clamp", "input", 1)
    tensors, lo, hi = _clamp_bounds("clamp", min, max)
    # (Note [out= rules]: with tensor bounds out takes a cast, with number bounds
    # PyTorch's structured kernel wants out of the result's dtype)
    if tensors:
        return with_out("clamp", out, OPS._clamp_tensor(self, lo, hi))
    lo, hi = _clamp_number_bounds(self, lo, hi, False)
    return with_out("clamp", out, OPS.clamp(self, lo, hi), None, OUT_FOUND)


def _py_clamp_(input, min=None, max=None):
    """In-place clamp."""
    if complex_arg(input) and type(min) is not complex and type(max) is not complex:
        # (the bounds promote: Note [Dtype guard]; a complex bound: _clamp_number_bounds)
        _clamp_guard("clamp_", input, min, max)  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(min) is not Tensor and has_torch_function(min)) or (type(max) is not Tensor and has_torch_function(max)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_clamp_, (input, min, max, ), {})
    cdef Tensor self = arg_tensor(input, "clamp_", "input", 1)
    tensors, lo, hi = _clamp_bounds("clamp_", min, max)
    if tensors:
        return OPS._clamp_tensor_(self, lo, hi)
    lo, hi = _clamp_number_bounds(self, lo, hi, True)
    return OPS.clamp_(self, lo, hi)


cdef object _clamp_bound(str fname, str argname, Tensor self, object bound):
    """clamp_min/clamp_max's bound: a Tensor or a number (clamp_min.Scalar promotes
    with a complex number, which clamp refuses, in place too)."""
    if isinstance(bound, Tensor):
        return bound
    if type(bound) is complex:
        raise NotImplementedError(_CLAMP_COMPLEX)
    n = arg_number(bound)
    if n is None:
        raise type_error_combination(
            fname, (self, bound),
            f" * (Tensor input, Tensor {argname}, *, Tensor out = None)\n"
            f" * (Tensor input, Number {argname}, *, Tensor out = None)")
    if fname.endswith("_"):
        _clamp_number_bounds(self, n, None, True)   # (its cast check)
    return n


ctypedef Tensor (*_bound_op)(Tensor, object)


cdef object _clamp_one_bound(object pyfunc, str name, str argname, _bound_op op,
                             object input, object bound, object out, bint inplace):
    """clamp_min's and clamp_max's wrappers (and their in-place forms, which take no
    out): a Tensor or Number bound."""
    if _clamp_guarded(input, bound, None, inplace):  # (the bound promotes: Note [Dtype guard])
        _clamp_guard(name, input, bound if argname == "min" else None,
                     bound if argname == "max" else None)  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(bound) is not Tensor and has_torch_function(bound)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(pyfunc, (input, bound, ), {} if inplace else {"out": out})
    cdef Tensor self = arg_tensor(input, name, "input", 1)
    res = op(self, _clamp_bound(name, argname, self, bound))
    if inplace:
        return res
    return with_out(name, out, res, None, 0 if isinstance(bound, Tensor) else OUT_FOUND)


def _py_clamp_min(input, min, *, out=None):
    return _clamp_one_bound(_py_clamp_min, "clamp_min", "min", OPS.clamp_min, input, min, out,
                            False)


def _py_clamp_min_(input, min):
    """In-place clamp_min."""
    return _clamp_one_bound(_py_clamp_min_, "clamp_min_", "min", OPS.clamp_min_, input, min,
                            None, True)


def _py_clamp_max(input, max, *, out=None):
    return _clamp_one_bound(_py_clamp_max, "clamp_max", "max", OPS.clamp_max, input, max, out,
                            False)


def _py_clamp_max_(input, max):
    """In-place clamp_max."""
    return _clamp_one_bound(_py_clamp_max_, "clamp_max_", "max", OPS.clamp_max_, input, max,
                            None, True)


_py_clamp_.__name__ = _py_clamp_.__qualname__ = "clamp_"
_py_clamp_min_.__name__ = _py_clamp_min_.__qualname__ = "clamp_min_"
_py_clamp_max_.__name__ = _py_clamp_max_.__qualname__ = "clamp_max_"


# ================================================================ lerp, addcmul, addcdiv

def _lerp_ufunc(a, b, w):
    # PyTorch's formula: exact at both ends, stable for |w| < 0.5 and >= 0.5
    diff = b - a
    return np.where(np.abs(w) < 0.5, a + w * diff, b - diff * (1 - w))


cdef dtype _check_lerp(Tensor self, Tensor end, object weight):
    """lerp's dtype rules: end (and a tensor weight) in self's dtype, a float or complex
    dtype."""
    cdef dtype d = dtype_of(self._data), e = dtype_of(end._data), w
    if e is not d:
        raise RuntimeError(f"expected dtype {d.cpp_name} for `end` but got dtype {e.cpp_name}")
    cdef bint w_tensor = isinstance(weight, Tensor)
    if w_tensor:
        w = dtype_of((<Tensor>weight)._data)
        if w is not d:
            raise RuntimeError(f"expected dtype {d.cpp_name} for `weight` but got dtype "
                               f"{w.cpp_name}")
    if d.category != CAT_COMPLEX:
        check_float_kernel(d, "lerp_kernel_tensor" if w_tensor else "lerp_kernel_scalar")
    if (not w_tensor and type(weight) is complex and d.category != CAT_COMPLEX
            and (<complex>weight).imag != 0):
        # (a complex number weight: PyTorch's Scalar-to-dtype conversion error; one with
        # a zero imaginary part is its real part, Note [Complex Scalar arguments])
        raise value_overflow_error(d.cpp_name)
    return d


cdef Tensor op_lerp(Tensor self, Tensor end, object weight):
    cdef dtype d = _check_lerp(self, end, weight)
    if type(weight) is complex and d.category != CAT_COMPLEX:
        weight = (<complex>weight).real
    cdef Tensor result = make(elementwise_values(_lerp_ufunc, (self, end, weight), d, 2))
    record_LerpBackward0(result, self, end, weight)
    return result


cdef Tensor op__lerp_tensor(Tensor self, Tensor end, Tensor weight):
    cdef dtype d = _check_lerp(self, end, weight)
    cdef Tensor result = make(elementwise_values(_lerp_ufunc, (self, end, weight), d))
    record_LerpBackward1(result, self, end, weight)
    return result


cdef object _lerp_weight(str fname, object weight):
    if isinstance(weight, Tensor):
        return weight
    w = arg_number(weight)
    if w is None and isinstance(weight, (complex, np.complexfloating)):
        w = complex(weight)   # a complex weight (Note [Complex guard]: complex tensors)
    if w is None:
        raise TypeError(f"{fname}(): argument 'weight' must be Number or Tensor, not "
                        f"{type(weight).__name__}")
    return w


def _py_lerp(input, end, weight, *, out=None):
    if complex_scalar_arg(input) or complex_scalar_arg(end) or complex_scalar_arg(weight):
        # (a tensor weight runs PyTorch's lerp_kernel_tensor, a number lerp_kernel_scalar)
        check_complex_args("_lerp_tensor" if isinstance(weight, Tensor) else "lerp",
                           (input, end, weight,))  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(end) is not Tensor and has_torch_function(end)) or (type(weight) is not Tensor and has_torch_function(weight)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_lerp, (input, end, weight, ), {"out": out})
    cdef Tensor self = arg_tensor(input, "lerp", "input", 1)
    cdef Tensor e = arg_tensor(end, "lerp", "end", 2)
    w = _lerp_weight("lerp", weight)
    # (Note [out= rules]: a number weight casts into out, a tensor weight's structured
    # kernel wants out of the result's dtype)
    if isinstance(w, Tensor):
        return with_out("lerp", out, OPS._lerp_tensor(self, e, w), None, OUT_FOUND)
    return with_out("lerp", out, OPS.lerp(self, e, w))


def _py_lerp_(input, end, weight):
    """In-place lerp."""
    if (type(input) is not Tensor and has_torch_function(input)) or (type(end) is not Tensor and has_torch_function(end)) or (type(weight) is not Tensor and has_torch_function(weight)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_lerp_, (input, end, weight, ), {})
    cdef Tensor self = arg_tensor(input, "lerp_", "input", 1)
    cdef Tensor e = arg_tensor(end, "lerp_", "end", 2)
    w = _lerp_weight("lerp_", weight)
    if isinstance(w, Tensor):
        return OPS._lerp_tensor_(self, e, w)
    return OPS.lerp_(self, e, w)


_py_lerp_.__name__ = _py_lerp_.__qualname__ = "lerp_"


def _addcmul_ufunc(a, b, c, v):
    return np.add(a, np.multiply(np.multiply(v, b), c))


def _addcdiv_ufunc(a, b, c, v):
    return np.add(a, np.true_divide(np.multiply(v, b), c))


# PyTorch's error for addcdiv of two integral tensors (torch. spelled autograd_core., as
# every message here); _complex.py's unsigned-dtype guard raises this one too
ADDCDIV_INT_MSG = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
    "be implemented as (input + value * autograd_core.trunc(tensor1 / tensor2)).to(input.dtype) "
    "for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes.")


cdef Tensor op_addcmul(Tensor self, Tensor tensor1, Tensor tensor2, object value):
    cdef tuple operands = (self, tensor1, tensor2)
    cdef dtype rt = result_type(operands)
    check_not_bool_kernel(rt, "addcmul_cpu_out")
    value = scalar_in(value, rt, True)
    cdef Tensor result = make(elementwise_values(_addcmul_ufunc, operands + (value,), rt, 3))
    record_AddcmulBackward0(result, self, tensor1, tensor2, value)
    return result


cdef Tensor op_addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, object value):
    cdef tuple operands = (self, tensor1, tensor2)
    cdef dtype rt = result_type(operands)
    # (PyTorch's test: both integral or bool, before its kernel's dtype check)
    if dtype_of(tensor1._data).category <= CAT_INT and \
            dtype_of(tensor2._data).category <= CAT_INT:
        raise RuntimeError(ADDCDIV_INT_MSG)
    check_not_bool_kernel(rt, "addcdiv_cpu_out")
    value = scalar_in(value, rt, True)
    cdef Tensor result = make(elementwise_values(_addcdiv_ufunc, operands + (value,), rt, 3))
    record_AddcdivBackward0(result, self, tensor1, tensor2, value)
    return result


# ================================================================ where

cdef Tensor op_where(Tensor condition, object self, object other):
    cdef dtype c = dtype_of(condition._data)
    if c.category != CAT_BOOL:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {c.scalar_name}")
    cdef dtype rt = result_type((self, other))
    try:
        out = np.where(condition._data, operand_array(self, rt), operand_array(other, rt))
    except ValueError:
        # (TensorIterator broadcasts its inputs in order: condition, self, other)
        shape = broadcast_shapes(shape_of(condition._data), _operand_shape(self))
        broadcast_shapes(shape, _operand_shape(other))
        raise
    cdef Tensor result = make(pointwise_output(as_array(out), (condition, self, other),
                                               rt.typenum, 1))
    record_WhereBackward0(result, condition, self, other)
    return result


cdef Tensor _where_args(object condition, object input, object other):
    if not isinstance(condition, Tensor):
        raise not_tensor_error("where", "condition", 1, condition)
    return op_where(condition, arg_tensor_or_scalar(input, "where", "input", 2),
                    arg_tensor_or_scalar(other, "where", "other", 3))


def _py_where(condition, input, other, *, out=None):
    if (type(condition) is not Tensor and has_torch_function(condition)) or (type(input) is not Tensor and has_torch_function(input)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_where, (condition, input, other, ), {"out": out})
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
        no_out("where", out)      # (PyTorch's overloads with a number take no out=)
    return with_out("where", out, _where_args(condition, input, other), None, True)


def _pym_where(self, condition, other):
    """self where condition is True, else other (Tensor.where(condition, other)).

    >>> import autograd_core as torch
    >>> x = torch.tensor([1., -2.])
    >>> x.where(x > 0, 0.)
    tensor([1., 0.])
    """
    if (type(self) is not Tensor and has_torch_function(self)) or (type(condition) is not Tensor and has_torch_function(condition)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_pym_where, (self, condition, other, ), {})
    return _where_args(condition, self, other)


_pym_where.__name__ = _pym_where.__qualname__ = "where"


# ================================================================ unary ops

# asinh_, acosh_ and atanh_: values in place; with grad, a node whose backward raises
# (PyTorch's AsinhBackward1 & co)
ctypedef Tensor (*unary_op_fn)(Tensor)
ctypedef int (*record_unary_fn)(Tensor, Tensor) except -1


cdef Tensor _inplace_recorded_as(Tensor self, unary_op_fn values_op, record_unary_fn record_node):
    """self.op_() whose values are op's but whose node is record_node's (the in-place
    driver, Note [In-place ops])."""
    cdef Tensor src = inplace_source(self, ())
    cdef Tensor result
    with NoGradGuard():
        result = values_op(src)
    record_node(result, src)
    return inplace_commit(self, result)


cdef Tensor op_relu(Tensor self):
    cdef cnp.ndarray x = self._data, out
    cdef dtype d = dtype_of(x)
    if d.category == CAT_BOOL:
        raise RuntimeError("Boolean inputs not supported for relu")
    if (cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT or cnp.PyArray_TYPE(x) == cnp.NPY_DOUBLE) \
            and cnp.PyArray_IS_C_CONTIGUOUS(x):
        out = _unary_kernel(x, AGC_RELU)
    elif d.category == CAT_INT:
        out = as_array(np.maximum(x, 0))
    else:
        # torch.relu is clamp_min(x, 0): NaN and -0.0 stay as they are
        out = as_array(np.where(x < 0, np.zeros((), x.dtype), x))
    cdef Tensor result = make(pointwise_output(out, (self,), -1, 0))
    record_ReluBackward0(result, self)
    return result


# The first derivatives of relu, tanh and sigmoid (and mul's, mul_tensor_backward)
# are one fused C pass at every size, written into the incoming gradient when the
# engine hands over the only reference to it (Note [Stealing the gradient]: 2, the
# engine's grads tuple and the generated apply's grad; the check comes before any
# local reference to its array). Their second derivatives are the nodes they record
# (only under create_graph, when nothing is written in place).

cdef Tensor op_threshold_backward(Tensor grad_output, Tensor self, object threshold):
    """relu's derivative as an op of its own: 0 where self <= threshold (also where
    grad_output is nan), else grad_output (also where self is nan), as PyTorch's."""
    cdef bint owned = grad_is_owned(grad_output, 2)
    cdef cnp.ndarray ga = grad_output._data, ya = self._data, out
    if threshold == 0 and _fused_pair(ga, ya):
        out = _binary_kernel(ga, ya, AGC_THRESHOLD_BACKWARD, ga if owned else None)
    else:
        with quiet():
            out = pointwise_output(
                as_array(np.where(ya <= threshold, np.zeros((), ga.dtype), ga)),
                (grad_output, self), cnp.PyArray_TYPE(ga), 0)
    cdef Tensor result = make(out)
    record_ThresholdBackwardBackward0(result, grad_output, self, threshold)
    return result


cdef cnp.ndarray _output_backward_values(Tensor grad_output, Tensor output, int kernel,
                                         bint owned):
    """tanh_backward (kernel AGC_TANH_BACKWARD): grad_output * (1 - output**2), or
    sigmoid_backward: grad_output * (1 - output) * output; owned: grad_output may be
    written (its op asks, at the reference count it knows: Note [Stealing the gradient])."""
    cdef cnp.ndarray ga = grad_output._data, ya = output._data
    if _fused_pair(ga, ya):
        return _binary_kernel(ga, ya, kernel, ga if owned else None)
    d = (1 - ya * ya) if kernel == AGC_TANH_BACKWARD else (1 - ya) * ya
    return pointwise_output(as_array(ga * d), (grad_output, output), cnp.PyArray_TYPE(ga), 0)


cdef Tensor op_tanh_backward(Tensor grad_output, Tensor output):
    """tanh's derivative as an op of its own (as in PyTorch)."""
    cdef Tensor result = make(_output_backward_values(grad_output, output, AGC_TANH_BACKWARD,
                                                      grad_is_owned(grad_output, 2)))
    record_TanhBackwardBackward0(result, grad_output, output)
    return result


cdef Tensor op_sigmoid_backward(Tensor grad_output, Tensor output):
    """sigmoid's derivative as an op of its own, as tanh_backward."""
    cdef Tensor result = make(_output_backward_values(grad_output, output,
                                                      AGC_SIGMOID_BACKWARD,
                                                      grad_is_owned(grad_output, 2)))
    record_SigmoidBackwardBackward0(result, grad_output, output)
    return result


cdef Tensor mul_tensor_backward(Tensor grad, object other):
    """grad * other, the gradient of one factor of mul (PyTorch's
    mul_tensor_backward): one C pass when other is a number or a tensor of grad's
    dtype and shape, into grad when the engine hands it over. A read-only grad (a
    ZeroTensor, Note [ZeroTensor]) goes through mul, PyTorch's ZeroTensor kernel."""
    cdef bint owned = grad_is_owned(grad, 2)  # (before ga takes a reference to the array)
    cdef cnp.ndarray ga = grad._data, oa
    if <void *>OPS.mul != <void *>op_mul or not cnp.PyArray_ISWRITEABLE(ga):
        # (the table hooked, profiled or batched: PyTorch's formula is an aten::mul, Note
        # [Op hook], Note [Batched backward])
        return OPS.mul(grad, other)
    cdef int t = cnp.PyArray_TYPE(ga)
    if (type(other) is float or type(other) is int) and (t == cnp.NPY_FLOAT or t == cnp.NPY_DOUBLE) \
            and cnp.PyArray_IS_C_CONTIGUOUS(ga) and not grad_enabled() and not fw_active():
        return make(_binary_scalar_kernel(ga, <double>other, False, AGC_MUL,
                                          ga if owned else None))
    if isinstance(other, Tensor) and not grad_enabled() and not fw_active():
        oa = (<Tensor>other)._data
        # (a read-only other may be a ZeroTensor, a tangent's zero: mul's ZeroTensor
        # kernel then, whose zero product a leaf's .grad keeps, seed 19017392)
        if cnp.PyArray_ISWRITEABLE(oa) and _fused_pair(ga, oa):
            return make(_binary_kernel(ga, oa, AGC_MUL, ga if owned else None))
    return OPS.mul(grad, other)


cdef Tensor op_round(Tensor self, object decimals):
    cdef Tensor result
    if cnp.PyArray_ISCOMPLEX(self._data):
        # (round passes the complex guard, _complex.py, so that the kernel its decimals
        # select is the one named: round.decimals runs round_cpu unless decimals is 0)
        refuse_complex("round_vml_cpu" if decimals is None or decimals == 0 else "round_cpu",
                       self)
    if decimals is None:
        result = make(rounding_values(self, np.rint, "round_vml_cpu"))
        record_RoundBackward0(result, self, decimals)
    else:
        result = make(pointwise_output(_round_decimals_values(self, decimals), (self,), -1, 0))
        record_RoundBackward1(result, self, decimals)
    return result


cdef cnp.ndarray _round_decimals_values(Tensor self, object decimals):
    cdef cnp.ndarray xa = self._data
    cdef dtype d = dtype_of(xa)
    cdef int dec = decimals
    # (PyTorch's round.decimals with decimals=0 runs the plain round kernel)
    check_float_kernel(d, "round_cpu" if dec != 0 else "round_vml_cpu")
    # (the kernel computes a half or bfloat16 input in float, rounding once at the end)
    op_dt = np.float32 if is_reduced_float(d) else xa.dtype
    a = xa.astype(op_dt, copy=False)
    with quiet():
        if dec < 0:
            ten = np.asarray(10.0 ** (-dec), dtype=op_dt)
            v = np.rint(a / ten) * ten
        else:
            ten = np.asarray(10.0 ** dec, dtype=op_dt)
            v = np.rint(a * ten) / ten
    return <cnp.ndarray>np.asarray(v).astype(xa.dtype, copy=False)


cdef Tensor op_frac(Tensor self):
    cdef cnp.ndarray x = self._data
    check_float_kernel(dtype_of(x), "frac_cpu")
    cdef Tensor result
    with quiet():
        result = make(pointwise_output(as_array(x - np.trunc(x)), (self,), -1, 0))
    record_FracBackward0(result, self)
    return result


cdef Tensor op_logit(Tensor self, object eps):
    cdef cnp.ndarray xa = cast_array(self._data, float_or_default(dtype_of(self._data)))
    with quiet():
        if eps is not None:
            lo = float(eps)
            z = np.clip(xa, np.asarray(lo, dtype=xa.dtype), np.asarray(1.0 - lo, dtype=xa.dtype))
        else:
            z = xa
        v = np.log(z / (1 - z))
    cdef Tensor result = make(pointwise_output(
        <cnp.ndarray>np.asarray(v).astype(xa.dtype, copy=False), (self,), cnp.PyArray_TYPE(xa), 0))
    record_LogitBackward0(result, self, eps)
    return result


cdef Tensor logit_backward(Tensor grad, Tensor self, object eps):
    """grad / (self * (1 - self)); outside [eps, 1 - eps] 0, outside [0, 1] nan
    without eps (PyTorch's logit_backward)."""
    cdef cnp.ndarray xd = self._data
    cdef double lo = 0.0 if eps is None else eps
    cdef double hi = 1.0 - lo
    with quiet():
        outside = (xd < lo) | (xd > hi)
    return OPS.where(make(as_array(outside)), float("nan") if eps is None else 0.0,
                     OPS.div(grad, OPS.mul(self, OPS.rsub(self, 1, 1)), None))


cdef Tensor nan_to_num_forward(Tensor self, object nan, object posinf, object neginf,
                               bint inplace):
    """nan_to_num's values and node; a complex tensor has its real and imaginary parts
    replaced separately (the part dtype's extremes by default), as PyTorch's kernel.
    Only nan_to_num_ records complex outputs (the generated op_nan_to_num refuses them:
    Note [Complex autograd of the in-place variant only] in ops/_codegen.py)."""
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x)
    # (nan_to_num writes into empty_like(self) / returns self.clone(): preserve_format)
    if d.category != CAT_FLOAT and d.category != CAT_COMPLEX:
        return make(as_preserved(<cnp.ndarray>x.copy(), x))
    info = np.finfo(d.np_dtype)  # (a complex dtype's: its parts')
    with quiet():
        v = np.nan_to_num(x, copy=True, nan=0.0 if nan is None else nan,
                          posinf=info.max if posinf is None else posinf,
                          neginf=info.min if neginf is None else neginf)
    cdef Tensor result = make(as_preserved(as_array(v), x))
    record_NanToNumBackward0(result, self, nan, posinf, neginf)
    return result


# ================================================================ comparisons, logical, bitwise

cdef Tensor op_logical_not(Tensor self):
    return make(pointwise_output(as_array(self._data == 0), (self,), -1, 0))


cdef Tensor op_bitwise_not(Tensor self):
    cdef dtype d = dtype_of(self._data)
    if d.category == CAT_FLOAT or is_wide_unsigned(d):
        # (the wide unsigned ints: PyTorch's kernel has no case for them either)
        raise not_implemented_for("bitwise_not_cpu", d)
    return make(pointwise_output(as_array(np.invert(self._data)), (self,), -1, 0))


# ================================================================ copies and fills

cdef Tensor op_clone(Tensor self, object memory_format):
    cdef Tensor result
    if memory_format is not None and not isinstance(memory_format, _memory_format_type):
        raise TypeError(f"clone(): argument 'memory_format' must be autograd_core.memory_format, "
                        f"not {type(memory_format).__name__}")
    cdef str fmt = memory_format.name if memory_format is not None else None
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if fmt == "channels_last" or fmt == "channels_last_3d":
        # NCHW values stored NHWC (NCDHW as NDHWC): the channel dim innermost
        if nd != (4 if fmt == "channels_last" else 5):
            raise RuntimeError(f"required rank {4 if fmt == 'channels_last' else 5} tensor "
                               f"to use {fmt} format")
        order = (0,) + tuple(range(2, nd)) + (1,)
        result = make(np.ascontiguousarray(self._data.transpose(order)).transpose(
            np.argsort(order)))
    elif fmt == "contiguous_format":
        result = make(np.array(self._data, copy=True, order="C"))
    elif has_contiguous_strides(self._data) and cnp.PyArray_SIZE(self._data) != 0:
        # preserve_format of a C-ordered x (the common case, numpy's fastest copy; a
        # size-1 dim of another stride, or no elements, goes to empty_preserving)
        result = make(np.array(self._data, copy=True, order="C"))
    else:   # preserve_format
        out = empty_preserving(self._data, self._data.dtype)
        out[...] = self._data
        result = make(out)
    record_CloneBackward0(result, self, memory_format)
    return result


cdef bint _warned_complex_to_real = False


cdef cnp.ndarray complex_to_real(cnp.ndarray a, dtype d):
    """a (complex) cast to the real dtype d: its real parts, with PyTorch's warning
    (once per process, as its TORCH_WARN_ONCE)."""
    global _warned_complex_to_real
    if not _warned_complex_to_real:
        _warned_complex_to_real = True
        warnings.warn("Casting complex values to real discards the imaginary part",
                      UserWarning, stacklevel=3)
    cdef cnp.ndarray re = a.real, r
    with quiet():
        r = cast_array(re, d)
    return <cnp.ndarray>r.copy(order="K") if r is re else r  # (re is a view of a)


cdef Tensor op__to_copy(Tensor self, dtype dtype):
    # (.to() copies with preserve_format; numpy's astype lays out as it likes)
    cdef cnp.ndarray x = self._data
    cdef cnp.ndarray r
    if cnp.PyArray_ISCOMPLEX(x) and dtype.category != CAT_COMPLEX:
        r = complex_to_real(x, dtype)
    else:
        with quiet():   # (overflow to inf is silent in PyTorch's casts)
            r = cast_array(x, dtype)
        if r is x:
            r = <cnp.ndarray>x.copy(order="K")
    cdef Tensor result = make(as_preserved(r, x))
    record_ToCopyBackward0(result, self, dtype)
    return result


@cython.final
cdef class CopyBackwards(Node):
    """The node of copy_ (table entry copy_; inputs: self's old history, which gets a
    zero gradient, and src, which gets the gradient), and of the differentiable .grad
    that backward(create_graph=True) writes (_copy_backwards; one input, the gradient
    it copies). Hand-written: one PyTorch node name for two ops."""

    def name(self):
        return "torch::autograd::CopyBackwards"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        if n_edges(self) == 1:
            return (g,)
        return (zeros_like(g) if needs_input_grad(self, 0) else None,
                g if needs_input_grad(self, 1) else None)


cdef Tensor op__copy_backwards(Tensor self, bint copy):
    cdef Tensor result = make(np.array(self._data, copy=True) if copy else self._data)
    if requires_grad_of(self):
        record(CopyBackwards.__new__(CopyBackwards), result, (self,))
    return result


cdef cnp.ndarray _filled_like(Tensor self, cnp.ndarray values):
    """values broadcast to self's shape, in self's dtype, as a new array."""
    cdef tuple shape = shape_of(self._data)
    try:
        b = np.broadcast_to(values, shape)
    except ValueError:
        try:
            out_shape = tuple(np.broadcast_shapes(shape, shape_of(values)))
        except ValueError:
            raise broadcast_error(shape, shape_of(values)) from None
        raise RuntimeError(f"output with shape {shape_str(shape)} doesn't match the broadcast "
                           f"shape {shape_str(out_shape)}") from None
    return <cnp.ndarray>np.array(b, dtype=self._data.dtype, order="C")


cdef Tensor op_copy_(Tensor self, Tensor src, bint non_blocking):
    if is_zerotensor(self):
        raise RuntimeError(MSG_ZEROTENSOR_COPY)
    cdef cnp.ndarray sv = src._data
    if cnp.PyArray_ISCOMPLEX(sv) and not cnp.PyArray_ISCOMPLEX(self._data):
        sv = complex_to_real(sv, dtype_of(self._data))
    cdef cnp.ndarray values = _filled_like(self, sv)
    cdef Tensor old = inplace_source(self, (src,))
    cdef Tensor result = make(values)
    if fw_active():  # Note [Forward AD]: self's tangent becomes src's (fw_inplace)
        fw_finish(result, fw_grad_of(src))
    cdef tuple inputs = (old, src)
    if should_record(inputs, values, "copy_"):
        record_broadcast(CopyBackwards.__new__(CopyBackwards), result, inputs)
    # src the very elements of self: allowed even where they overlap
    cdef bint same = same_elements(self._data, src._data)
    if not same and inplace_in_order(self, (src,)):
        # Note [Overlapping operands]: PyTorch copies in memory order
        return inplace_commit_in_order(self, result, _copied_value, (src,))
    return inplace_commit(self, result, same)


def _copied_value(self, src):
    return src


def _py_copy_(self, src, non_blocking=False):
    """Copy src's values (broadcast, cast) into the tensor; src may be a Python number
    (PyTorch wraps it in a 0-d tensor).

    >>> import autograd_core as torch
    >>> torch.zeros(2).copy_(torch.tensor([1., 2.]))
    tensor([1., 2.])
    """
    if (type(self) is not Tensor and has_torch_function(self)) or (type(src) is not Tensor and has_torch_function(src)) or (type(non_blocking) is not Tensor and has_torch_function(non_blocking)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_copy_, (self, src, non_blocking, ), {})
    cdef Tensor self_ = arg_tensor(self, "copy_", "input", 0)
    if is_number(src):
        src = make(_fill_value_array(src, dtype_of(self_._data)))
    return OPS.copy_(self_, arg_tensor(src, "copy_", "src", 1),
                    arg_bool(non_blocking, "copy_", "non_blocking", 2))


cdef cnp.ndarray _fill_value_array(object value, dtype d):
    """A number as a 0-d array of dtype d, with PyTorch's overflow checks (a complex
    number into a real dtype: scalar_in's)."""
    value = scalar_in(value, d)
    overflow = value_overflow_error(d.value_type_name)
    if type(value) is int and not -(1 << 63) <= value < (1 << 63):
        raise OverflowError("int too big to convert")  # PyTorch's Python ints are int64
    if d.category == CAT_INT:
        if isinstance(value, float) and not np.isfinite(value):
            raise overflow
        v = int(value)
        info = np.iinfo(d.np_dtype)
        if v < info.min or v > info.max:
            raise overflow
    elif d.category == CAT_FLOAT and np.isfinite(value) and \
            builtins.abs(value) > float(np.finfo(d.np_dtype).max):
        raise overflow
    return <cnp.ndarray>np.asarray(value, dtype=d.np_dtype)


cdef cnp.ndarray _fill_value(Tensor self, object value):
    """fill's value: a 0-d tensor's array, or the number in self's dtype."""
    if not isinstance(value, Tensor):
        return _fill_value_array(value, dtype_of(self._data))
    cdef cnp.ndarray v = (<Tensor>value)._data
    if cnp.PyArray_NDIM(v) != 0:
        raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{cnp.PyArray_NDIM(v)} dimensions.")
    return v


cdef Tensor op_fill_(Tensor self, object value):
    cdef cnp.ndarray v = _fill_value(self, value)
    if isinstance(value, Tensor) and has_internal_overlap(self._data):
        # PyTorch fills from a tensor through an elementwise loop that refuses an
        # expanded target (a number value fills without that check)
        raise RuntimeError(MSG_OVERLAPPING_WRITE)
    cdef Tensor old = inplace_source(self, (value,), True)
    cdef Tensor result = make(_filled_like(self, v))
    if isinstance(value, Tensor):
        record_FillBackward3(result, old, value)
    else:
        record_FillBackward2(result, old, value)
    return inplace_commit(self, result, True)  # one value: overlapping memory is fine


cdef Tensor op_fill(Tensor self, object value):
    cdef Tensor result = make(_filled_like(self, _fill_value(self, value)))
    if isinstance(value, Tensor):
        record_FillBackward1(result, self, value)
    else:
        record_FillBackward0(result, self, value)
    return result


cdef Tensor op_zero_(Tensor self):
    cdef Tensor old = inplace_source(self, ())
    cdef Tensor result = make(<cnp.ndarray>np.zeros(shape_of(self._data), dtype=self._data.dtype))
    record_ZeroBackward0(result, old)
    return inplace_commit(self, result, True)  # one value: overlapping memory is fine


# ================================================================ random values
# (the draws: _core/random.pyx, Note [Random streams])

cdef Tensor _random_fill(Tensor self, Tensor old, cnp.ndarray values, record_unary_fn record_node):
    """Write sampled values into self (old: its inplace_source, taken before sampling);
    with grad, PyTorch's zero-derivative node."""
    cdef Tensor result = make(values)
    record_node(result, old)
    return inplace_commit(self, result)


cdef int _record_RandomBackward0(Tensor result, Tensor self) except -1:
    record_RandomBackward0(result, self, None, None, None)


cdef int _record_RandomBackward1(Tensor result, Tensor self) except -1:
    record_RandomBackward1(result, self, None, None, None)


cdef int _record_RandomBackward2(Tensor result, Tensor self) except -1:
    record_RandomBackward2(result, self, None, None, None)


# The samplers' checks (the table's random_sampler forwards call them before the draw)

cdef int _normal_check(Tensor self, object mean, object std) except -1:
    cdef dtype d = dtype_of(self._data)
    if d.category != CAT_COMPLEX:     # (complex: Note [Complex samplers], _core/random.pyx)
        check_float_kernel(d, "normal_kernel_cpu")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {cpp_number(std)}")


cdef int _uniform_check(Tensor self, object from_, object to) except -1:
    cdef dtype d = dtype_of(self._data)
    if d.category != CAT_COMPLEX:     # (complex: Note [Complex samplers], _core/random.pyx)
        check_float_kernel(d, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={cpp_number(from_)} > to={cpp_number(to)}")


cdef Tensor op_random_(Tensor self, object from_, object to, object generator):
    """random_(from, to) (from_ given), random_(to), random_(): integers in [from, to),
    to defaulting to the largest the dtype holds exactly, stored in self's dtype."""
    cdef dtype d = dtype_of(self._data)
    cdef record_unary_fn node = (_record_RandomBackward0 if from_ is not None else
                                 _record_RandomBackward1 if to is not None else
                                 _record_RandomBackward2)
    if from_ is not None or to is not None:
        lo = 0 if from_ is None else from_
        hi = to
        if hi is None:
            if d.category == CAT_FLOAT:
                hi = (1 << (np.finfo(d.np_dtype).nmant + 1)) + 1
            elif d.category == CAT_BOOL:
                hi = 2
            else:
                hi = int(np.iinfo(d.np_dtype).max) + 1
        if lo >= hi:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={lo} "
                               f">= to={hi}")
    cdef Tensor old = inplace_source(self, ())
    return _random_fill(self, old, random_values(generator, self._data, from_, to), node)


cdef int _record_BernoulliBackward2(Tensor result, Tensor self) except -1:
    record_BernoulliBackward2(result, self, 0.5, None)


cdef int _exponential_check(Tensor self, object lambd) except -1:
    cdef dtype d = dtype_of(self._data)
    if not (lambd > 0 and lambd != float("inf")):
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={float(lambd):g}")
    if d.category != CAT_FLOAT:
        raise RuntimeError("Exponential distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified {d.scalar_name}")


cdef int _geometric_check(Tensor self, object p) except -1:
    if not (0 < p < 1):
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={float(p):g}")
    check_not_bool_kernel(dtype_of(self._data), "geometric_cpu")


cdef int _log_normal_check(Tensor self, object mean, object std) except -1:
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={float(std):g}")
    check_float_kernel(dtype_of(self._data), "log_normal_cpu")


cdef int _cauchy_check(Tensor self, object median, object sigma) except -1:
    cdef dtype d = dtype_of(self._data)
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    if d.category != CAT_FLOAT:
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified {d.cpp_name}")


cdef cnp.ndarray _bernoulli_p_values(object generator, cnp.ndarray like, Tensor p):
    """bernoulli with per-element probabilities p (broadcast to like's shape); PyTorch
    draws a double uniform for float64 p and a float one otherwise."""
    cdef cnp.ndarray pa = p._data
    cdef dtype pd = dtype_of(pa)
    check_float_kernel(pd, "bernoulli_tensor_cpu_p_")
    try:
        pb = np.broadcast_to(pa, shape_of(like))
    except ValueError:
        target, have = shape_of(like), shape_of(pa)
        raise RuntimeError(f"The expanded size of the tensor ({target[-1] if target else 1}) "
                           f"must match the existing size ({have[-1]}) at non-singleton "
                           f"dimension {len(target) - 1}.  Target sizes: "
                           f"[{', '.join(str(x) for x in target)}].  Tensor sizes: "
                           f"[{', '.join(str(x) for x in have)}]")
    with quiet():
        bad = not bool(np.all((pb >= 0) & (pb <= 1)))
    if bad:
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    src = np.ascontiguousarray(pb, dtype=np.float64 if pd is float64 else np.float32)
    return bernoulli_tensor_values(generator, like, src)


cdef Tensor op_bernoulli_(Tensor self, object p, object generator):
    cdef Tensor old, result
    if isinstance(p, Tensor):
        old = inplace_source(self, (p,))
        result = make(_bernoulli_p_values(generator, self._data, <Tensor>p))
        record_BernoulliBackward1(result, old, p, None)
        return inplace_commit(self, result)
    p = arg_float(p, "bernoulli_", "p", 1)
    if not (0 <= p <= 1):
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={float(p):g}")
    old = inplace_source(self, ())
    return _random_fill(self, old, bernoulli_scalar_values(generator, self._data, p),
                        _record_BernoulliBackward2)


def _py_bernoulli(input, p=None, *, generator=None, out=None):
    """bernoulli(input): 0/1 with probabilities input; bernoulli(input, p): 0/1 with
    probability p, shaped and typed like input (no derivative, as PyTorch)."""
    if (type(input) is not Tensor and has_torch_function(input)) or (type(p) is not Tensor and has_torch_function(p)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_bernoulli, (input, p, ), {"generator": generator, "out": out})
    cdef Tensor self = arg_tensor(input, "bernoulli", "input", 1)
    if p is None:
        return with_out("bernoulli", out, OPS.bernoulli(self, generator))
    no_out("bernoulli", out)      # (bernoulli(input, p) has no out=)
    p = arg_float(p, "bernoulli", "p", 2)
    if not (0 <= p <= 1):
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={float(p):g}")
    cdef cnp.ndarray like = np.empty(shape_of(self._data), dtype=self._data.dtype)
    cdef Tensor result = make(bernoulli_scalar_values(generator, like, p))
    _record_not_implemented(result, (self,), "bernoulli")
    return result


cdef Tensor op_bernoulli(Tensor self, object generator):
    # PyTorch: empty_like(self) (contiguous) then bernoulli_(self)
    cdef cnp.ndarray like = np.empty(shape_of(self._data), dtype=self._data.dtype)
    cdef Tensor result = make(_bernoulli_p_values(generator, like, self))
    record_BernoulliBackward0(result, self, None)
    return result


cdef Tensor op_normal(object mean, object std, object generator):
    """normal(Tensor mean, float std), normal(float mean, Tensor std), normal(Tensor,
    Tensor): PyTorch draws normal_(0, std) then adds mean, or normal_(0, 1), multiplies
    by std and adds mean, in the output's dtype (mean's; std's when mean is a number)."""
    cdef bint mean_t = isinstance(mean, Tensor), std_t = isinstance(std, Tensor)
    cdef cnp.ndarray m, sd, vals
    cdef dtype d
    cdef Tensor result
    if mean_t and not std_t:
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {cpp_number(std)}")
        m = (<Tensor>mean)._data
        d = dtype_of(m)
        check_float_kernel(d, "normal_kernel_cpu")
        vals = normal_values(generator, np.empty(shape_of(m), dtype=d.np_dtype), 0.0, std)
        result = make(as_array((vals + m).astype(d.np_dtype)))
        record_NormalBackward1(result, mean, std, None)
        return result
    sd = (<Tensor>std)._data
    if cnp.PyArray_SIZE(sd) and not bool(np.all(sd >= 0)):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if not mean_t:
        d = dtype_of(sd)
        check_float_kernel(d, "normal_kernel_cpu")
        vals = normal_values(generator, np.empty(shape_of(sd), dtype=d.np_dtype), 0.0, 1.0)
        vals = as_array((vals * sd).astype(d.np_dtype))  # 0-d: numpy gives a scalar
        result = make(as_array((vals + d.np_dtype.type(mean)).astype(d.np_dtype)))
        record_NormalBackward2(result, mean, std, None)
        return result
    m = (<Tensor>mean)._data
    d = dtype_of(m)
    check_float_kernel(d, "normal_kernel_cpu")
    shape = broadcast_shapes(shape_of(m), shape_of(sd))
    vals = normal_values(generator, np.empty(shape, dtype=d.np_dtype), 0.0, 1.0)
    vals = as_array((vals * sd).astype(d.np_dtype))  # 0-d: numpy gives a scalar
    result = make(as_array((vals + m).astype(d.np_dtype)))
    record_NormalBackward3(result, mean, std, None)
    return result


_NORMAL_SIGNATURES = (
    " * (Tensor mean, Tensor std, *, autograd_core.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, autograd_core.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, autograd_core.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, autograd_core.Generator generator = None, "
    "Tensor out = None, autograd_core.dtype dtype = None, autograd_core.layout layout = None, "
    "autograd_core.device device = None, bool pin_memory = False, bool requires_grad = False)")


def _py_normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None,
               device=None, pin_memory=False, requires_grad=False):
    if (type(mean) is not Tensor and has_torch_function(mean)) or \
            (type(std) is not Tensor and has_torch_function(std)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_normal, (mean, std, size), {
            "generator": generator, "out": out, "dtype": dtype, "layout": layout,
            "device": device, "pin_memory": pin_memory, "requires_grad": requires_grad})
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if size is not None:
            raise type_error_combination("normal", (mean, std, size), _NORMAL_SIGNATURES)
        return OPS.normal(mean if isinstance(mean, Tensor) else arg_float(mean, "normal", "mean", 1),
                         std if isinstance(std, Tensor) else arg_float(std, "normal", "std", 2),
                         generator)
    if size is None or arg_number(mean) is None or arg_number(std) is None:
        # (no overload takes them: a complex mean or std included)
        raise type_error_combination("normal", (mean, std) if size is None
                                     else (mean, std, size), _NORMAL_SIGNATURES)
    if device is not None:
        _device(device)
    mean = arg_float(mean, "normal", "mean", 1)
    std = arg_float(std, "normal", "std", 2)
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {cpp_number(std)}")
    out_dtype = default_float if dtype is None else to_dtype(dtype)
    check_float_kernel(out_dtype, "normal_kernel_cpu")
    shape = parse_shape(tuple(size) if isinstance(size, (tuple, list)) else (size,), "normal")
    like = np.empty(shape, dtype=out_dtype.np_dtype)
    return _leaf_from_array(normal_values(generator, like, mean, std), requires_grad)


cdef Tensor op_poisson(Tensor self, object generator):
    cdef cnp.ndarray rates = self._data
    check_float_kernel(dtype_of(rates), "poisson_cpu")
    with quiet():
        bad = cnp.PyArray_SIZE(rates) and not bool(np.all(rates >= 0))
    if bad:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    cdef Tensor result = make(poisson_values(generator, np.ascontiguousarray(rates)))
    record_PoissonBackward0(result, self, None)
    return result


cdef Tensor op_binomial(Tensor count, Tensor prob, object generator):
    cdef cnp.ndarray c = count._data, p = prob._data
    cdef dtype d = dtype_of(c)
    if d.category != CAT_FLOAT:
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{d.scalar_name}")
    if dtype_of(p) is not d:
        raise RuntimeError(f"Found dtype {dtype_of(p).scalar_name} but expected {d.scalar_name}")
    shape = broadcast_shapes(shape_of(c), shape_of(p))
    cdef Tensor result = make(binomial_values(
        generator, np.ascontiguousarray(np.broadcast_to(c, shape)),
        np.ascontiguousarray(np.broadcast_to(p, shape))))
    _record_not_implemented(result, (count, prob), "binomial")
    return result


cdef inline int _check_float_or_double(dtype d, str kernel) except -1:
    # ATen's AT_DISPATCH_FLOATING_TYPES kernels: float and double only
    if d is not float32 and d is not float64:
        raise not_implemented_for(kernel, d)
    return 0


cdef tuple _same_dtype_broadcast(tuple tensors, tuple shape):
    """The arrays of tensors (one float dtype, as TensorIterator's common-dtype check
    demands) broadcast to shape; shape None: their broadcast shape."""
    cdef Tensor first = tensors[0]
    cdef dtype d = dtype_of(first._data)
    cdef Tensor t
    for t in tensors[1:]:
        if dtype_of(t._data) is not d:
            raise RuntimeError(f"Found dtype {dtype_of(t._data).scalar_name} but expected "
                               f"{d.scalar_name}")
    if shape is None:
        shape = shape_of(first._data)
        for t in tensors[1:]:
            shape = broadcast_shapes(shape, shape_of(t._data))
    else:
        for t in tensors[1:]:
            broadcast_shapes(shape, shape_of(t._data))
    return tuple([np.broadcast_to((<Tensor>t)._data, shape) for t in tensors])


cdef Tensor op__standard_gamma(Tensor self, object generator):
    _check_float_or_double(dtype_of(self._data), "gamma_cpu")
    cdef Tensor result = make(standard_gamma_values(generator, self._data))
    record_StandardGammaBackward0(result, self, generator)
    return result


cdef Tensor op__standard_gamma_grad(Tensor self, Tensor output):
    _check_float_or_double(dtype_of(self._data), "_standard_gamma_grad_cpu")
    # the result has self's shape; output must broadcast to it
    a, x = _same_dtype_broadcast((self, output), shape_of(self._data))
    cdef Tensor result = make(standard_gamma_grad_values(a, x))
    record_StandardGammaGradBackward0(result, self, output)
    return result


cdef Tensor op__sample_dirichlet(Tensor self, object generator):
    _check_float_or_double(dtype_of(self._data), "dirichlet")
    cdef Tensor result = make(dirichlet_values(generator, self._data))
    _record_not_implemented(result, (self,), "_sample_dirichlet")
    return result


cdef Tensor op__dirichlet_grad(Tensor x, Tensor alpha, Tensor total):
    _check_float_or_double(dtype_of(x._data), "_dirichlet_grad_cpu")
    xv, a, t = _same_dtype_broadcast((x, alpha, total), shape_of(x._data))
    cdef Tensor result = make(dirichlet_grad_values(xv, a, t))
    _record_not_implemented(result, (x, alpha, total), "_dirichlet_grad")
    return result


def _py_uniform_(input, *args, generator=None, **kwargs):
    """Fill with samples uniform on [from, to): ``uniform_(from=0, to=1)``."""
    cdef Tensor self = arg_tensor(input, "uniform_", "input", 1)
    if len(args) > 2:
        raise TypeError(f"uniform_() takes at most 2 positional arguments ({len(args)} given)")
    lo = args[0] if len(args) > 0 else kwargs.pop("from", 0)
    hi = args[1] if len(args) > 1 else kwargs.pop("to", 1)
    if kwargs:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return OPS.uniform_(self, _uniform_bound(lo, "from", 1), _uniform_bound(hi, "to", 2),
                        generator)


cdef object _uniform_bound(object x, str argname, int pos):
    """uniform_'s bounds are PyTorch 'float' arguments (a 0-d tensor gives its value)."""
    if isinstance(x, Tensor):
        return arg_scalar(x, "uniform_", argname, pos)
    return arg_float(x, "uniform_", argname, pos)


def _py_random_(input, *args, generator=None, **kwargs):
    """random_() / random_(to) / random_(from, to): integers, stored in self's dtype."""
    cdef Tensor self = arg_tensor(input, "random_", "input", 1)
    if len(args) > 2:
        raise TypeError(f"random_() takes at most 2 positional arguments ({len(args)} given)")
    if "from" in kwargs or len(args) == 2:
        lo = args[0] if args else kwargs.pop("from")
        hi = args[1] if len(args) > 1 else kwargs.pop("to", None)
        lo = arg_int(lo, "random_", "from", 1)
    else:
        lo = None
        hi = args[0] if args else kwargs.pop("to", None)
        if hi is None and (args or "to" in kwargs):
            raise TypeError("random_(): argument 'to' must be int, not NoneType")
    if kwargs:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return OPS.random_(self, lo, None if hi is None else arg_int(hi, "random_", "to", 2),
                      generator)




cdef Tensor op_rand_like(Tensor self, object dtype, object layout, object device,
                         bint requires_grad, object memory_format, object generator):
    return _sample_like(self, dtype, device, requires_grad, generator, False)


cdef Tensor op_randn_like(Tensor self, object dtype, object layout, object device,
                          bint requires_grad, object memory_format, object generator):
    return _sample_like(self, dtype, device, requires_grad, generator, True)


cdef Tensor _sample_like(Tensor self, object dtype_arg, object device_arg, bint requires_grad,
                         object generator, bint normal):
    """A new leaf of samples with self's shape and strides (PyTorch's empty_like keeps
    them, and draws in memory order), and self's dtype unless dtype_arg."""
    if device_arg is not None:
        _device(device_arg)
    cdef dtype d = dtype_of(self._data) if dtype_arg is None else to_dtype(dtype_arg)
    check_float_kernel(d, "normal_kernel_cpu" if normal else "check_uniform_bounds")
    # empty_like(self) (preserve_format), then drawn into in its memory order
    like = empty_preserving(self._data, d.np_dtype)
    like[...] = (normal_values(generator, like, 0.0, 1.0) if normal else
                 uniform_values(generator, like, 0.0, 1.0))
    return _leaf_from_array(like, requires_grad)


cdef Tensor op_randint_like(Tensor self, object low, object high, object dtype, object layout,
                            object device, bint requires_grad, object memory_format,
                            object generator):
    return _randint_like(self, low, high, dtype, device, requires_grad, generator)


cdef Tensor _randint_like(Tensor self, object low, object high, object dtype_arg,
                          object device_arg, bint requires_grad, object generator):
    if device_arg is not None:
        _device(device_arg)
    cdef dtype d = dtype_of(self._data) if dtype_arg is None else to_dtype(dtype_arg)
    if high is None:
        low, high = 0, low
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                           f"from={low} >= to={high}")
    like = empty_preserving(self._data, d.np_dtype)
    like[...] = random_values(generator, like, low, high)
    return _leaf_from_array(like, requires_grad)


def _py_randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None,
                     requires_grad=False, memory_format=None, generator=None):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(low) is not Tensor and has_torch_function(low)) or (type(high) is not Tensor and has_torch_function(high)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_randint_like, (input, low, high, ), {"dtype": dtype, "layout": layout, "device": device, "requires_grad": requires_grad, "memory_format": memory_format, "generator": generator})
    cdef Tensor self = arg_tensor(input, "randint_like", "input", 1)
    return OPS.randint_like(self, arg_int(low, "randint_like", "low", 2),
                           None if high is None else arg_int(high, "randint_like", "high", 3),
                           dtype, layout, device,
                           arg_bool(requires_grad, "randint_like", "requires_grad", 4),
                           memory_format, generator)




# ================================================================ special functions
# Scalar kernels in double (the float dtypes round the result): the algorithms
# PyTorch's ATen/native/Math.h uses (Cephes' Hurwitz zeta, the asymptotic series of
# digamma and trigamma, erfinv's rational start refined by Newton), so that values
# agree to rounding; the incomplete gamma functions by series / continued fraction.

ctypedef double (*libm2_fn)(double, double) noexcept nogil

cdef double _MACHEP = 1.11022302462515654042e-16


@cython.cdivision(True)
cdef double _digamma(double x) noexcept nogil:
    cdef double result = 0, q, r, z, y
    if x == 0:
        return c_copysign(INFINITY, -x)
    if x < 0:
        if x == c_floor(x):
            return NAN
        r = c_modf(x, &q)
        return _digamma(1 - x) - M_PI / c_tan(M_PI * r)
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + 2.25175258906672110764
    y = 0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        y = z * (8.33333333333333333333e-2 + z * (-8.33333333333333333333e-3 + z * (
            3.96825396825396825397e-3 + z * (-4.16666666666666666667e-3 + z * (
                7.57575757575757575758e-3 + z * (-2.10927960927960927961e-2
                                                 + z * 8.33333333333333333333e-2))))))
    return result + c_log(x) - 0.5 / x - y


@cython.cdivision(True)
cdef double _trigamma(double x) noexcept nogil:
    cdef double sign = 1, result = 0, s, ixx
    cdef int i
    if x < 0.5:
        sign = -1
        s = c_sin(M_PI * x)
        result -= M_PI * M_PI / (s * s)
        x = 1 - x
    for i in range(6):
        result += 1 / (x * x)
        x += 1
    ixx = 1 / (x * x)
    result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x
    return sign * result


cdef double[12] _ZETA_A = [
    12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
    -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
    1.8152105401943546773e17, -7.1661652561756670113e18]


@cython.cdivision(True)
cdef double _zeta(double x, double q) noexcept nogil:
    """The Hurwitz zeta function sum_k (k + q) ** -x (Euler-Maclaurin, as Cephes)."""
    cdef double a, b, k, s, t, w
    cdef int i
    if x == 1:
        return INFINITY
    if x < 1:
        return NAN
    if q <= 0:
        if q == c_floor(q):
            return INFINITY
        if x != c_floor(x):
            return NAN
    s = c_pow(q, -x)
    a = q
    i = 0
    b = 0
    while i < 9 or a <= 9:
        i += 1
        a += 1
        b = c_pow(a, -x)
        s += b
        if fabs(b / s) < _MACHEP:
            return s
    w = a
    s += b * w / (x - 1)
    s -= 0.5 * b
    a = 1
    k = 0
    for i in range(12):
        a *= x + k
        b /= w
        t = a * b / _ZETA_A[i]
        s = s + t
        if fabs(t / s) < _MACHEP:
            return s
        k += 1
        a *= x + k
        b /= w
        k += 1
    return s


@cython.cdivision(True)
cdef double _polygamma(long n, double x) noexcept nogil:
    if n == 0:
        return _digamma(x)
    if n == 1:
        return _trigamma(x)
    return (1.0 if n % 2 else -1.0) * c_exp(c_lgamma(n + 1.0)) * _zeta(n + 1.0, x)


@cython.cdivision(True)
cdef double _erfinv(double y) noexcept nogil:
    cdef double y_abs = fabs(y), x, z, num, dem
    if y != y or y_abs > 1:
        return NAN
    if y_abs == 1:
        return c_copysign(INFINITY, y)
    if y_abs <= 0.7:
        z = y * y
        num = ((-0.140543331 * z + 0.914624893) * z + -1.645349621) * z + 0.886226899
        dem = (((0.012229801 * z + -0.329097515) * z + 1.442710462) * z + -2.118377725) * z + 1
        x = y * num / dem
    else:
        z = c_sqrt(-c_log((1 - y_abs) / 2))
        num = ((1.641345311 * z + 3.429567803) * z + -1.624906493) * z + -1.970840454
        dem = (1.637067800 * z + 3.543889200) * z + 1
        x = c_copysign(num / dem, y)
    # two Newton steps on erf(x) = y
    x = x - (c_erf(x) - y) / (1.1283791670955126 * c_exp(-x * x))
    x = x - (c_erf(x) - y) / (1.1283791670955126 * c_exp(-x * x))
    return x


cdef double _igamma_prefactor(double a, double x) noexcept nogil:
    return c_exp(-x + a * c_log(x) - c_lgamma(a))


@cython.cdivision(True)
cdef double _igamma_series(double a, double x) noexcept nogil:
    """P(a, x) by its series (x < a + 1)."""
    cdef double ap = a, d = 1 / a, total = d
    cdef int n
    for n in range(100000):
        ap += 1
        d *= x / ap
        total += d
        if fabs(d) < fabs(total) * _MACHEP:
            break
    return total * _igamma_prefactor(a, x)


@cython.cdivision(True)
cdef double _igammac_fraction(double a, double x) noexcept nogil:
    """Q(a, x) by its continued fraction (x >= a + 1, modified Lentz)."""
    cdef double b = x + 1 - a, c = 1e300, d = 1 / b, h = d, an, delta
    cdef int i
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if fabs(d) < 1e-300:
            d = 1e-300
        c = b + an / c
        if fabs(c) < 1e-300:
            c = 1e-300
        d = 1 / d
        delta = d * c
        h *= delta
        if fabs(delta - 1) < _MACHEP:
            break
    return _igamma_prefactor(a, x) * h


cdef double _igamma_either(double a, double x, bint upper) noexcept nogil:
    """The regularized lower incomplete gamma P(a, x), or (upper) Q(a, x) = 1 - P(a, x):
    one set of edge cases, each answered for P and mirrored for Q."""
    if x < 0 or a < 0:
        return NAN
    cdef double p, q
    if a == 0:
        if not x > 0:
            return NAN
        p = 1.0
    elif x == 0:
        p = 0.0
    elif c_isinf(a):
        if c_isinf(x):
            return NAN
        p = 0.0
    elif c_isinf(x):
        p = 1.0
    elif x != x or a != a:
        return NAN
    elif x < a + 1:
        p = _igamma_series(a, x)
    else:
        # Q from the continued fraction, as Cephes (P is 1 - Q)
        q = _igammac_fraction(a, x)
        return q if upper else 1 - q
    return 1 - p if upper else p


cdef double _igamma(double a, double x) noexcept nogil:
    return _igamma_either(a, x, False)


cdef double _igammac(double a, double x) noexcept nogil:
    return _igamma_either(a, x, True)


cdef cnp.ndarray _libm2_values(cnp.ndarray a, cnp.ndarray b, libm2_fn fn):
    """fn over a and b (broadcast, one float dtype) in double, rounded to a's dtype."""
    ba, bb = np.broadcast_arrays(a, b)
    cdef cnp.ndarray xa = np.array(ba, dtype=np.float64, order="C", copy=True)
    cdef cnp.ndarray xb = np.ascontiguousarray(bb, dtype=np.float64)
    cdef double *pa = <double *>cnp.PyArray_DATA(xa)
    cdef double *pb = <double *>cnp.PyArray_DATA(xb)
    cdef Py_ssize_t i, n = cnp.PyArray_SIZE(xa)
    with nogil:
        for i in range(n):
            pa[i] = fn(pa[i], pb[i])
    return <cnp.ndarray>xa.astype(a.dtype, copy=False)


cdef double _lgamma_fn(double x) noexcept nogil:
    return c_lgamma(x)


cdef double _digamma_fn(double x) noexcept nogil:
    return _digamma(x)


cdef double _erfinv_fn(double x) noexcept nogil:
    return _erfinv(x)


@cython.cdivision(True)
cdef double _sinc_fn(double x) noexcept nogil:
    cdef double p
    if x == 0:
        return 1.0
    p = M_PI * x
    return c_sin(p) / p


def _ufunc_lgamma(x):
    return _libm_values(x, _lgamma_fn)


def _ufunc_digamma(x):
    return _libm_values(x, _digamma_fn)


def _ufunc_erfinv(x):
    return _libm_values(x, _erfinv_fn)


def _ufunc_i0(cnp.ndarray x):
    """I0: float32 evaluated in float as PyTorch's calc_i0<float> (agc_i0f), the other
    dtypes through numpy's i0 (Cephes' series in double) rounded to x's dtype."""
    cdef cnp.ndarray buf
    cdef float *p
    cdef Py_ssize_t i, n
    if cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT:
        buf = np.array(x, dtype=np.float32, order="C", copy=True)
        p = <float *>cnp.PyArray_DATA(buf)
        n = cnp.PyArray_SIZE(buf)
        with nogil:
            for i in range(n):
                p[i] = agc_i0f(p[i])
        return buf
    with quiet():
        return np.asarray(np.i0(x)).astype(x.dtype, copy=False)


def _ufunc_i1(x):
    return _libm_values(x, agc_i1)


def _ufunc_sinc(x):
    if x.dtype.kind == "c":
        # PyTorch's complex sinc: sin(pi z) / (pi z) in z's dtype, 1 at 0
        p = np.multiply(x, x.real.dtype.type(M_PI))
        return np.where(x == 0, x.dtype.type(1), np.sin(p) / p)
    if x.dtype == np.float64:
        return _libm_values(x, _sinc_fn)
    # PyTorch's sin(pi x) / (pi x) in float (the op math of float32 and the half types):
    # pi x rounded to float makes sinc(1) -2.78e-08, not the double's 3.9e-17
    f = x.astype(np.float32)
    p = f * np.float32(M_PI)
    with quiet():
        s = np.sin(p.astype(np.float64)).astype(np.float32)
        return np.where(f == 0, np.float32(1), s / p).astype(x.dtype, copy=False)


def _c10_log1p(z):
    """c10's complex log1p (c10/util/complex_math.h): log|1 + z| through log1p when
    |z| < 1/2, the angle through atan2."""
    x, y = z.real, z.imag
    theta = np.arctan2(y, x + 1)
    r = x * (x + 2) + y * y
    small = np.abs(z) < 0.5
    mag = np.where(small, np.where(r == 0, x, 0.5 * np.log1p(r)), np.log(np.hypot(x + 1, y)))
    out = np.empty(np.shape(z), dtype=z.dtype)
    out.real = mag
    out.imag = theta
    return out


def _complex_log_add_exp(x, y):
    """log(exp(x) + exp(y)) of complex arrays as PyTorch's _log_add_exp_helper
    (ATen/native/cpu/LogAddExp.h; logaddexp and logcumsumexp): a NaN part anywhere gives
    nan+nanj; the operand of smaller real part is min (y on ties); equal infinite real
    parts give min when -inf, log(exp(min) + exp(max)) when +inf; otherwise
    log1p(exp(min - max)) + max."""
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    nan_x = np.isnan(x.real) | np.isnan(x.imag)
    nan_y = np.isnan(y.real) | np.isnan(y.imag)
    x_lo = x.real < y.real
    lo = np.where(x_lo, x, y)
    hi = np.where(x_lo, y, x)
    out = _c10_log1p(np.exp(lo - hi)) + hi
    inf_tie = ~np.isfinite(lo.real) & (lo.real == hi.real)
    out = np.where(inf_tie & (lo.real < 0), lo, out)
    out = np.where(inf_tie & (lo.real > 0), np.log(np.exp(lo) + np.exp(hi)), out)
    return np.where(nan_x | nan_y, x.dtype.type(complex(NAN, NAN)), out).astype(x.dtype)


def _ufunc_deg2rad(x):
    return np.multiply(x, x.dtype.type(M_PI / 180))


def _ufunc_rad2deg(x):
    return np.multiply(x, x.dtype.type(180 / M_PI))


def _ufunc_ldexp(a, b):
    return np.multiply(a, np.exp2(b))


def _ufunc_igamma(a, x):
    return _libm2_values(a, x, _igamma)


def _ufunc_igammac(a, x):
    return _libm2_values(a, x, _igammac)


cdef cnp.ndarray _polygamma_values(cnp.ndarray x, long n):
    cdef cnp.ndarray buf = np.array(x, dtype=np.float64, order="C", copy=True)
    cdef double *p = <double *>cnp.PyArray_DATA(buf)
    cdef Py_ssize_t i, size = cnp.PyArray_SIZE(buf)
    with nogil:
        for i in range(size):
            p[i] = _polygamma(n, p[i])
    return <cnp.ndarray>buf.astype(x.dtype, copy=False)


# ---------------------------------------------------------------- torch.special

# The kernels are csrc/agc_special.c's (Cephes' approximations, as PyTorch's); the ops
# are rows of the table (special_*). The unary ones go through unary_float with these:

def _ufunc_airy_ai(x):
    return _libm_values(x, agc_airy_ai)


def _ufunc_bessel_j0(x):
    return _libm_values(x, agc_bessel_j0)


def _ufunc_bessel_j1(x):
    return _libm_values(x, agc_bessel_j1)


def _ufunc_bessel_y0(x):
    return _libm_values(x, agc_bessel_y0)


def _ufunc_bessel_y1(x):
    return _libm_values(x, agc_bessel_y1)


def _ufunc_modified_bessel_i0(x):
    return _libm_values(x, agc_modified_bessel_i0)


def _ufunc_modified_bessel_i1(x):
    return _libm_values(x, agc_modified_bessel_i1)


def _ufunc_modified_bessel_k0(x):
    return _libm_values(x, agc_modified_bessel_k0)


def _ufunc_modified_bessel_k1(x):
    return _libm_values(x, agc_modified_bessel_k1)


def _ufunc_scaled_modified_bessel_k0(x):
    return _libm_values(x, agc_scaled_modified_bessel_k0)


def _ufunc_scaled_modified_bessel_k1(x):
    return _libm_values(x, agc_scaled_modified_bessel_k1)


def _ufunc_spherical_bessel_j0(x):
    return _libm_values(x, agc_spherical_bessel_j0)


def _ufunc_i0e(x):
    return _libm_values(x, agc_i0e)


def _ufunc_i1e(x):
    return _libm_values(x, agc_i1e)


def _ufunc_erfcx(x):
    return _libm_values(x, agc_erfcx)


def _ufunc_ndtri(x):
    return _libm_values(x, agc_ndtri)


def _ufunc_log_ndtr(x):
    return _libm_values(x, agc_log_ndtr)


# The special-function kernels PyTorch has no float16 or bfloat16 loop of (it raises
# "<kernel> not implemented for 'Half'/'BFloat16'"), by their ufunc: unary_float_values
# refuses those dtypes before its bfloat16 branch computes in double
_NO_REDUCED_FLOAT_KERNEL = {
    _ufunc_airy_ai: "airy_ai_cpu",
    _ufunc_bessel_j0: "bessel_j0_cpu",
    _ufunc_bessel_j1: "bessel_j1_cpu",
    _ufunc_bessel_y0: "bessel_y0_cpu",
    _ufunc_bessel_y1: "bessel_y1_cpu",
    _ufunc_modified_bessel_i0: "modified_bessel_i0_cpu",
    _ufunc_modified_bessel_i1: "modified_bessel_i1_cpu",
    _ufunc_modified_bessel_k0: "modified_bessel_k0_cpu",
    _ufunc_modified_bessel_k1: "modified_bessel_k1_cpu",
    _ufunc_scaled_modified_bessel_k0: "scaled_modified_bessel_k0_cpu",
    _ufunc_scaled_modified_bessel_k1: "scaled_modified_bessel_k1_cpu",
    _ufunc_spherical_bessel_j0: "spherical_bessel_j0_cpu",
    _ufunc_erfcx: "erfcx_cpu",
    _ufunc_ndtri: "ndtri_cpu",
    _ufunc_log_ndtr: "log_ndtr_cpu",
}


def _ufunc_entr(x):
    return _libm_values(x, agc_entr)


cdef cnp.ndarray special_binary_values(object x, object y, libm2_fn fn, libm2_fn fn32,
                                      str kernel, bint half=False):
    """A binary special function over two operands (one may be a number), promoted as
    PyTorch's (integers and bools compute in the default float), computed by fn, or by
    fn32 for a float32 result (the polynomials' float recurrences); kernel: the name of
    PyTorch's kernel, in its errors for complex and (unless half) float16 and bfloat16."""
    cdef dtype rt = float_or_default(result_type((x, y)))
    if rt.category == CAT_COMPLEX or (is_reduced_float(rt) and not half):
        raise not_implemented_for(kernel, rt)
    cdef libm2_fn f = fn32 if rt.typenum == cnp.NPY_FLOAT else fn
    return elementwise_values(lambda a, b: _libm2_values(a, b, f), (x, y), rt)


cdef tuple _special_operands(object x, object y, str fname, str xname, str yname):
    """The two operands of a binary special function: PyTorch's overloads (Tensor,
    Tensor), (Number, Tensor), (Tensor, Number)."""
    a = arg_operand(x)
    b = arg_operand(y)
    if (a is NotImplemented or b is NotImplemented
            or (not isinstance(a, Tensor) and not isinstance(b, Tensor))):
        raise type_error_combination(fname, (x, y), (
            f" * (Tensor {xname}, Tensor {yname}, *, Tensor out = None)\n"
            f" * (Number {'self' if xname == 'input' else xname}, Tensor {yname}, *, "
            f"Tensor out = None)\n * (Tensor {xname}, Number {yname}, *, Tensor out = None)"))
    return a, b


cdef Tensor op_special_ndtr(Tensor self):
    """(1 + erf(x / sqrt(2))) / 2, composed as PyTorch's (its graph holds those nodes)."""
    return OPS.mul_scalar(OPS.add_scalar(OPS.erf(OPS.mul_scalar(self, 0.7071067811865476)),
                                         1, 1), 0.5)


ctypedef Tensor (*_binary_op)(object, object)


cdef object _special_binary(object pyfunc, str name, _binary_op op, object x, object y,
                            object out, str xname="x", str yname="n"):
    """The wrapper of a binary special function (xlog1py, zeta, the polynomials: these
    not differentiable, no node, as PyTorch's):
    __torch_function__ (Note [__torch_function__ in the wrappers], ops/_prelude.pxi),
    PyTorch's three overloads (_special_operands), then op, written into out if given."""
    if ((type(x) is not Tensor and has_torch_function(x))
            or (type(y) is not Tensor and has_torch_function(y))):
        return handle_torch_function(pyfunc, (x, y), {"out": out})
    a, b = _special_operands(x, y, name, xname, yname)
    if out is not None and fw_active():
        # (PyTorch's out= kernel refuses a dual argument before computing, in its
        # out= words: zeta's functional form has no forward derivative at all)
        out_forward_ad_check(name, (a, b, out))
    return with_out(name, out, op(a, b))


def _py_special_xlog1py(input, other, *, out=None):
    return _special_binary(
        _py_special_xlog1py, "special_xlog1py",
        OPS.special_xlog1py, input, other, out, "input", "other")


def _py_special_zeta(input, other, *, out=None):
    return _special_binary(
        _py_special_zeta, "special_zeta",
        OPS.special_zeta, input, other, out, "input", "other")


def _py_special_chebyshev_polynomial_t(x, n, *, out=None):
    return _special_binary(
        _py_special_chebyshev_polynomial_t, "special_chebyshev_polynomial_t",
        OPS.special_chebyshev_polynomial_t, x, n, out)


def _py_special_chebyshev_polynomial_u(x, n, *, out=None):
    return _special_binary(
        _py_special_chebyshev_polynomial_u, "special_chebyshev_polynomial_u",
        OPS.special_chebyshev_polynomial_u, x, n, out)


def _py_special_chebyshev_polynomial_v(x, n, *, out=None):
    return _special_binary(
        _py_special_chebyshev_polynomial_v, "special_chebyshev_polynomial_v",
        OPS.special_chebyshev_polynomial_v, x, n, out)


def _py_special_chebyshev_polynomial_w(x, n, *, out=None):
    return _special_binary(
        _py_special_chebyshev_polynomial_w, "special_chebyshev_polynomial_w",
        OPS.special_chebyshev_polynomial_w, x, n, out)


def _py_special_shifted_chebyshev_polynomial_t(x, n, *, out=None):
    return _special_binary(
        _py_special_shifted_chebyshev_polynomial_t, "special_shifted_chebyshev_polynomial_t",
        OPS.special_shifted_chebyshev_polynomial_t, x, n, out)


def _py_special_shifted_chebyshev_polynomial_u(x, n, *, out=None):
    return _special_binary(
        _py_special_shifted_chebyshev_polynomial_u, "special_shifted_chebyshev_polynomial_u",
        OPS.special_shifted_chebyshev_polynomial_u, x, n, out)


def _py_special_shifted_chebyshev_polynomial_v(x, n, *, out=None):
    return _special_binary(
        _py_special_shifted_chebyshev_polynomial_v, "special_shifted_chebyshev_polynomial_v",
        OPS.special_shifted_chebyshev_polynomial_v, x, n, out)


def _py_special_shifted_chebyshev_polynomial_w(x, n, *, out=None):
    return _special_binary(
        _py_special_shifted_chebyshev_polynomial_w, "special_shifted_chebyshev_polynomial_w",
        OPS.special_shifted_chebyshev_polynomial_w, x, n, out)


def _py_special_hermite_polynomial_h(x, n, *, out=None):
    return _special_binary(
        _py_special_hermite_polynomial_h, "special_hermite_polynomial_h",
        OPS.special_hermite_polynomial_h, x, n, out)


def _py_special_hermite_polynomial_he(x, n, *, out=None):
    return _special_binary(
        _py_special_hermite_polynomial_he, "special_hermite_polynomial_he",
        OPS.special_hermite_polynomial_he, x, n, out)


def _py_special_laguerre_polynomial_l(x, n, *, out=None):
    return _special_binary(
        _py_special_laguerre_polynomial_l, "special_laguerre_polynomial_l",
        OPS.special_laguerre_polynomial_l, x, n, out)


def _py_special_legendre_polynomial_p(x, n, *, out=None):
    return _special_binary(
        _py_special_legendre_polynomial_p, "special_legendre_polynomial_p",
        OPS.special_legendre_polynomial_p, x, n, out)


# ---------------------------------------------------------------- more value templates

cdef cnp.ndarray float_only_binary_values(object self, object other, object ufunc, str kernel):
    """A binary op defined for float dtypes only (logaddexp, nextafter, hypot, igamma):
    integer and bool operands raise, naming PyTorch's kernel, where
    float_promoting_binary_values computes them in the default float."""
    cdef dtype rt = result_type((self, other))
    check_float_kernel(rt, kernel)
    return elementwise_values(ufunc, (self, other), rt)


cdef cnp.ndarray float_or_complex_binary_values(object self, object other, object ufunc,
                                                object complex_fn, str kernel):
    """float_only_binary_values, with complex operands through complex_fn (logaddexp:
    PyTorch's complex kernel, where numpy's ufunc has none)."""
    cdef dtype rt = result_type((self, other))
    if rt.category == CAT_COMPLEX:
        return elementwise_values(complex_fn, (self, other), rt)
    return float_only_binary_values(self, other, ufunc, kernel)


cdef cnp.ndarray integer_binary_values(object self, object other, object ufunc, str kernel):
    """A binary op defined for integer dtypes only (gcd, lcm)."""
    cdef dtype rt = result_type((self, other))
    if rt.category != CAT_INT:
        raise not_implemented_for(kernel, rt)
    return elementwise_values(ufunc, (self, other), rt)


# ---------------------------------------------------------------- derivative helpers

cdef Tensor sgn_backward(Tensor self, Tensor grad, Tensor result):
    """PyTorch's sgn_backward: for real tensors a ZeroTensor (Note [ZeroTensor] in
    _core/_node.pxi; it takes self and result so that the node saves them as PyTorch's
    does: a later in-place change of either makes backward raise, as there); for
    complex ones (grad - sgn**2 * conj(grad)) / (2 |self|), 0 where self is 0."""
    if not cnp.PyArray_ISCOMPLEX(self._data):
        return _zerotensor_like(result)
    cdef Tensor a = OPS.abs(self)
    cdef Tensor r = OPS.div(OPS.sub(grad, OPS.mul(OPS.mul(result, result), cj(grad)), 1),
                            OPS.mul(a, 2.0), None)
    return OPS.masked_fill(r, OPS.eq(a, 0.0), 0.0)


cdef Tensor angle_backward(Tensor grad, Tensor self):
    """PyTorch's angle_backward: zeros for a real input; for a complex one
    grad * self / |self|**2 * 1j, 0 where self is 0."""
    if not cnp.PyArray_ISCOMPLEX(self._data):
        return zeros_like(grad)
    cdef Tensor d = OPS.mul(OPS.div(OPS.mul(grad, self), OPS.pow(OPS.abs(self), 2), None), 1j)
    return OPS.where(OPS.eq(self, 0.0), 0.0, d)


cdef Tensor to_copy_backward(Tensor grad, dtype self_dtype):
    """PyTorch's _to_copy_backward: the gradient cast back to the input's dtype, its
    real part when the input is real and the gradient complex."""
    if cnp.PyArray_ISCOMPLEX(grad._data) and self_dtype.category != CAT_COMPLEX:
        grad = OPS.real(grad)
    return OPS._to_copy(grad, self_dtype)


cdef Tensor atan2_recip(Tensor self, Tensor other):
    """1 / (self ** 2 + other ** 2), 0 where that is infinite (at the origin), as
    PyTorch's atan2_backward."""
    cdef Tensor r = OPS.reciprocal(OPS.add(OPS.mul(self, self), OPS.mul(other, other), 1))
    return OPS.where(OPS.isinf(r), 0.0, r)


cdef Tensor sinc_backward(Tensor grad, Tensor self):
    """(pi x cos(pi x) - sin(pi x)) / (pi x ** 2), 0 at 0 (PyTorch's sinc_backward)."""
    cdef Tensor self_pi = OPS.mul(self, M_PI)
    cdef Tensor self_squared_pi = OPS.mul(OPS.mul(self, self), M_PI)
    cdef Tensor out
    if cnp.PyArray_ISCOMPLEX(self._data):  # grad times the conjugate derivative
        out = OPS.mul(grad, cj(OPS.div(OPS.sub(OPS.mul(self_pi, OPS.cos(self_pi)),
                                               OPS.sin(self_pi), 1), self_squared_pi, None)))
    else:
        out = OPS.div(OPS.mul(grad, OPS.sub(OPS.mul(self_pi, OPS.cos(self_pi)),
                                            OPS.sin(self_pi), 1)),
                      self_squared_pi, None)
    return OPS.where(OPS.eq(self_squared_pi, 0.0), 0.0, out)


cdef cnp.ndarray _mvlgamma_offsets(object p, object np_dtype):
    """-(p - 1) / 2, ..., -1 / 2, 0: the shifts of mvlgamma's p gamma arguments (a
    p-element array, as PyTorch's arange: a p too large to allocate raises as there)."""
    if not -(1 << 63) <= p < (1 << 63):
        raise ValueError("Overflow when unpacking long long")
    try:
        return <cnp.ndarray>np.arange(-p / 2.0 + 0.5, 0.5, 0.5)[:p].astype(np_dtype)
    except (MemoryError, ValueError):
        raise RuntimeError(f"DefaultCPUAllocator: can't allocate memory: you tried to "
                           f"allocate {p * 8} bytes.") from None


cdef Tensor mvlgamma_backward(Tensor grad, Tensor self, object p):
    """grad * sum_j digamma(self - j / 2), j < p (PyTorch's mvlgamma_backward)."""
    cdef Tensor args = OPS.add(OPS.unsqueeze(self, -1),
                               make(_mvlgamma_offsets(p, self._data.dtype)), 1)
    return OPS.mul(grad, OPS.sum(OPS.digamma(args), -1, False, None))


cdef Tensor i1_backward(Tensor grad, Tensor self, Tensor result):
    """i0(x) - i1(x) / x, 1/2 at 0 (PyTorch's i1_backward: x is kept off 0 where tiny)."""
    cdef double eps = float(np.finfo(self._data.dtype).eps)
    cdef Tensor not_tiny = OPS.gt(OPS.abs(self), eps)
    cdef Tensor safe = OPS.where(not_tiny, self, eps)
    cdef Tensor gradx = OPS.sub(OPS.i0(safe), OPS.mul(result, OPS.reciprocal(safe)), 1)
    return OPS.mul(grad, OPS.where(not_tiny, gradx, 0.5))


cdef Tensor i1e_backward(Tensor grad, Tensor self, Tensor result):
    """i0e(x) - i1e(x) (sgn(x) + 1 / x), 1/2 at 0 (PyTorch's i1e_backward)."""
    cdef double eps = float(np.finfo(self._data.dtype).eps)
    cdef Tensor not_tiny = OPS.gt(OPS.abs(self), eps)
    cdef Tensor safe = OPS.where(not_tiny, self, eps)
    cdef Tensor gradx = OPS.sub(OPS.special_i0e(safe),
                                OPS.mul(result, OPS.add(OPS.sgn(safe), OPS.reciprocal(safe), 1)), 1)
    return OPS.mul(grad, OPS.where(not_tiny, gradx, 0.5))


# ---------------------------------------------------------------- the ops



cdef dtype _float_power_dtype(object self, object exponent):
    """float_power computes in complex128 when either operand is complex, else float64."""
    for x in (self, exponent):
        if (isinstance(x, Tensor) and cnp.PyArray_ISCOMPLEX((<Tensor>x)._data)
                or isinstance(x, complex)):
            return complex128
    return float64


cdef object _as_dtype(object x, dtype d):
    if isinstance(x, Tensor) and dtype_of((<Tensor>x)._data) is not d:
        return OPS._to_copy(<Tensor>x, d)
    return x


cdef Tensor op_float_power(object self, object exponent):
    if not isinstance(self, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError("float_power(): at least one of input and exponent must be a Tensor")
    cdef dtype d = _float_power_dtype(self, exponent)
    return OPS.pow(_as_dtype(self, d), _as_dtype(exponent, d))


cdef Tensor op_float_power_(Tensor self, object exponent):
    cdef dtype d = dtype_of(self._data)
    cdef dtype want = _float_power_dtype(self, exponent)
    if d is not want:
        raise RuntimeError(f"the base given to float_power_ has dtype {d.scalar_name} but the "
                           f"operation's result requires dtype {want.scalar_name}")
    return OPS.pow_(self, _as_dtype(exponent, want))


def _py_float_power(input, exponent, *, out=None):
    if complex_scalar_arg(input) or complex_scalar_arg(exponent):
        check_complex_args("float_power", (input, exponent,))  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(exponent) is not Tensor and has_torch_function(exponent)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_float_power, (input, exponent, ), {"out": out})
    if not isinstance(input, Tensor) and isinstance(exponent, Tensor):
        res = OPS.float_power(arg_scalar(input, "float_power", "self", 1), exponent)
        return with_out("float_power", out, res, None, True)
    res = OPS.float_power(arg_tensor(input, "float_power", "input", 1),
                         arg_tensor_or_scalar(exponent, "float_power", "exponent", 2))
    return with_out("float_power", out, res, None, True)


cdef Tensor op_heaviside(Tensor self, Tensor values):
    cdef dtype d = dtype_of(self._data)
    if dtype_of(values._data) is not d:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    cdef cnp.ndarray x = self._data
    try:
        with quiet():
            out = np.where(x == 0, values._data, x > 0).astype(d.np_dtype)
    except ValueError:
        raise broadcast_error(shape_of(x), shape_of(values._data)) from None
    cdef Tensor result = make(pointwise_output(as_array(out), (self, values), -1, 0))
    _record_not_implemented(result, (self, values), "heaviside")
    return result


def _xlogy_ufunc(x, y):
    r = np.multiply(x, np.log(y))
    return np.where((x == 0) & ~np.isnan(y), np.zeros((), r.dtype), r)




def _py_xlogy(input, other, *, out=None):
    if complex_scalar_arg(input) or complex_scalar_arg(other):
        check_complex_args("xlogy", (input, other,))  # Note [Complex guard]
    if (type(input) is not Tensor and has_torch_function(input)) or (type(other) is not Tensor and has_torch_function(other)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_xlogy, (input, other, ), {"out": out})
    a, b = _two_operands(input, other, "xlogy")
    return with_out("xlogy", out, OPS.xlogy(a, b))


cdef cnp.ndarray shift_values(object a, object b, bint left):
    """a << b or a >> b for integer operands: 0 (left, or unsigned right) or the sign
    (signed right) when b is negative or not less than the bit width, as PyTorch."""
    cdef dtype rt = result_type((a, b))
    if rt.category != CAT_INT or is_wide_unsigned(rt):
        raise not_implemented_for("lshift_cpu" if left else "rshift_cpu", rt)
    cdef cnp.ndarray xa = operand_array(a, rt), xb = operand_array(b, rt)
    npd = np.dtype(rt.np_dtype)
    bits = npd.itemsize * 8
    try:
        with quiet():
            bad = (xb < 0) | (xb >= bits)
            sh = np.where(bad, np.zeros((), npd), xb)
            if left:
                r = np.where(bad, np.zeros((), npd), np.left_shift(xa, sh))
            elif npd.kind == "i":
                r = np.where(bad, np.right_shift(xa, bits - 1), np.right_shift(xa, sh))
            else:
                r = np.where(bad, np.zeros((), npd), np.right_shift(xa, sh))
    except ValueError:
        raise broadcast_error_of((a, b)) from None
    return <cnp.ndarray>as_array(r).astype(npd, copy=False)


def _py_bitwise_left_shift(input, other, *, out=None):
    a, b = _two_operands(input, other, "bitwise_left_shift")
    return with_out("bitwise_left_shift", out, OPS.bitwise_left_shift(a, b))


def _py_bitwise_right_shift(input, other, *, out=None):
    a, b = _two_operands(input, other, "bitwise_right_shift")
    return with_out("bitwise_right_shift", out, OPS.bitwise_right_shift(a, b))


cdef object zero_tangent_in_place(Tensor result):
    """The forward derivative of the in-place samplers (uniform_, normal_, random_, ...),
    PyTorch's self_t.zero_(): result gets no tangent (the placeholder fw_prepare gave it
    is dropped), so that inplace_commit zeroes self's tangent in place (fw_inplace in
    _core/_fw.pxi), and raises, once the values are written, for an immutable ZeroTensor
    tangent, with the words of zero_ on it rather than those of a copy into it."""
    result._fw = None
    return None


cdef Tensor op_polygamma(object n, Tensor self):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    cdef cnp.ndarray x = self._data
    if cnp.PyArray_ISCOMPLEX(x):
        # (polygamma passes the complex guard, _complex.py, so that the kernel n selects
        # is the one named, after n's check, as PyTorch's)
        refuse_complex("digamma" if n == 0 else "trigamma" if n == 1 else "polygamma", self)
    if not is_float_array(x):
        x = cast_array(x, default_float)
    cdef Tensor result = make(_polygamma_values(x, n))
    record_PolygammaBackward0(result, n, self)
    return result


cdef Tensor op_polygamma_(Tensor self, object n):
    cdef Tensor src = inplace_source(self, ())
    cdef Tensor result
    with NoGradGuard():
        result = op_polygamma(n, src)
    record_PolygammaBackward1(result, src, n)
    return inplace_commit(self, result)


cdef int _complex_out_cast(Tensor x, Tensor out) except -1:
    """Note [Out checks before a complex refusal]: TensorIterator's check of the cast of a
    complex input's result type into a real out."""
    if cnp.PyArray_ISCOMPLEX(x._data) and not cnp.PyArray_ISCOMPLEX(out._data):
        raise RuntimeError(f"result type {dtype_of(x._data).scalar_name} can't be cast to "
                           f"the desired output type {dtype_of(out._data).scalar_name}")
    return 0


# Note [Out checks before a complex refusal]
# digamma, lgamma and polygamma refuse complex input in their CPU kernels, which run
# after PyTorch's autograd layer has checked out= (a Tensor that does not require grad)
# and after TensorIterator has checked that the result type casts into out: so with
# out= those errors come first (polygamma's n check before the cast's). Their wrappers
# below check in that order, then refuse complex input (the guard, or op_polygamma).

def _py_polygamma(n, input, *, out=None):
    cdef object n_ = arg_int(n, "polygamma", "n", 1)
    cdef Tensor x = arg_tensor(input, "polygamma", "input", 2)
    if out is not None:
        out_check("polygamma", out, 1)
        if n_ >= 0:
            _complex_out_cast(x, out)
    return with_out("polygamma", out, OPS.polygamma(n_, x))


cdef object _gamma_function(str name, object pyfunc, object a0, object input, object out):
    """torch.digamma / torch.lgamma (Note [Out checks before a complex refusal])."""
    input = bind_arg(a0, input, name, "input")
    if input is ARG_MISSING:
        raise missing_arguments(name, (('input', input), ))
    if type(input) is not Tensor and has_torch_function(input):
        return handle_torch_function(pyfunc, (input, ), {"out": out})
    cdef Tensor self_ = arg_tensor(input, name, "input", 1 if a0 is not ARG_MISSING else 0)
    if out is not None:
        out_check(name, out, 1)
        if fw_active():
            out_forward_ad_check(name, (self_, out))
        _complex_out_cast(self_, out)
    if complex_arg(self_):
        check_complex_args(name, (self_, ))
    res = OPS.digamma(self_) if name == "digamma" else OPS.lgamma(self_)
    return res if out is None else out_write(name, out, res, None)


cdef object _gamma_inplace(str name, object pyfunc, object a0, object input):
    """Tensor.digamma_ / lgamma_ (torch.digamma_ too)."""
    input = bind_arg(a0, input, name, "input")
    if input is ARG_MISSING:
        raise missing_arguments(name, (('input', input), ))
    if type(input) is not Tensor and has_torch_function(input):
        return handle_torch_function(pyfunc, (input, ), {})
    cdef Tensor self_ = arg_tensor(input, name, "input", 1 if a0 is not ARG_MISSING else 0)
    if complex_arg(self_):
        check_complex_args(name, (self_, ))
    return OPS.digamma_(self_) if name == "digamma_" else OPS.lgamma_(self_)


def _py_digamma(_a0=ARG_MISSING, /, *, input=ARG_MISSING, out=None):
    return _gamma_function("digamma", _py_digamma, _a0, input, out)


def _py_digamma_(_a0=ARG_MISSING, /, *, input=ARG_MISSING):
    return _gamma_inplace("digamma_", _py_digamma_, _a0, input)


def _py_lgamma(_a0=ARG_MISSING, /, *, input=ARG_MISSING, out=None):
    return _gamma_function("lgamma", _py_lgamma, _a0, input, out)


def _py_lgamma_(_a0=ARG_MISSING, /, *, input=ARG_MISSING):
    return _gamma_inplace("lgamma_", _py_lgamma_, _a0, input)


_py_digamma.__signature__ = _py_lgamma.__signature__ = wrapper_signature('input, *, out=None')
_py_digamma_.__signature__ = _py_lgamma_.__signature__ = wrapper_signature('input')
_py_digamma_.__name__ = _py_digamma_.__qualname__ = "digamma_"
_py_lgamma_.__name__ = _py_lgamma_.__qualname__ = "lgamma_"


def _pym_polygamma(self, n):
    """polygamma(n, self) (Tensor.polygamma(n)).

    >>> import autograd_core as torch
    >>> torch.tensor([1.]).polygamma(1)
    tensor([1.6449])
    """
    return OPS.polygamma(arg_int(n, "polygamma", "n", 1), arg_tensor(self, "polygamma", "input", 0))


_pym_polygamma.__name__ = _pym_polygamma.__qualname__ = "polygamma"


cdef Tensor op_mvlgamma(Tensor self, object p):
    if dtype_of(self._data) is bool_:      # (PyTorch's mvlgamma_check, before p's)
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    cdef cnp.ndarray x = self._data
    cdef dtype d = dtype_of(x)
    if d.category != CAT_FLOAT:
        x = cast_array(x, default_float)
    cdef cnp.ndarray offsets = _mvlgamma_offsets(p, np.float64)
    with quiet():
        args = as_array(x.astype(np.float64)[..., None] + offsets)
        total = _libm_values(args, _lgamma_fn).sum(-1) + p * (p - 1) / 4.0 * np.log(np.pi)
    cdef Tensor result = make(as_array(np.asarray(total).astype(x.dtype)))
    record_MvlgammaBackward0(result, self, p)
    return result


_FrexpResult = named_result_type("frexp", ("mantissa", "exponent"))


cdef tuple op_frexp(Tensor self):
    cdef cnp.ndarray x = self._data
    if dtype_of(x).category != CAT_FLOAT:
        raise RuntimeError("autograd_core.frexp() only supports floating-point dtypes")
    with quiet():
        m, e = np.frexp(x)
    cdef Tensor mantissa = make(as_array(m)), exponent = make(as_array(e.astype(np.int32)))
    record_FrexpBackward0(mantissa, exponent, self)
    return (mantissa, exponent)


def _py_frexp(input, *, out=None):
    res = _FrexpResult(*OPS.frexp(arg_tensor(input, "frexp", "input", 1)))
    return with_out("frexp", out, res, ('mantissa', 'exponent'), True)


cdef Tensor op_positive(Tensor self):
    if dtype_of(self._data).category == CAT_BOOL:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


# ---------------------------------------------------------------- closeness and membership

def _ufunc_isreal(x):
    return np.ones(shape_of(x), dtype=np.bool_)


cdef Tensor op_isclose(Tensor self, Tensor other, object rtol, object atol, bint equal_nan):
    cdef dtype d = dtype_of(self._data), e = dtype_of(other._data)
    if d is not e:
        raise RuntimeError(f"{d.scalar_name} did not match {e.scalar_name}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    cdef cnp.ndarray a = self._data, b = other._data
    try:
        with quiet():
            close = a == b
            if equal_nan and d.category >= CAT_FLOAT:
                close = close | (np.isnan(a) & np.isnan(b))
            if rtol != 0 or atol != 0:
                # PyTorch's arithmetic: bool as the default float, rtol * other in other's
                # float dtype (the default float for integers), the difference exact
                if d.category == CAT_BOOL:
                    a = cast_array(a, default_float)
                    b = cast_array(b, default_float)
                ft = np.dtype(float_or_default(dtype_of(b)).np_dtype).type
                allowed = np.abs(b.astype(ft) * ft(rtol)) + ft(atol)
                actual = np.abs(a - b)
                close = close | (np.isfinite(actual) & (actual <= allowed))
    except ValueError:
        raise broadcast_error(shape_of(self._data), shape_of(other._data)) from None
    return make(as_array(close))


cdef str _ISIN_SIGNATURES = (
    " * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert = "
    "False, Tensor out = None)\n"
    " * (Number element, Tensor test_elements, *, bool assume_unique = False, bool invert = "
    "False, Tensor out = None)\n"
    " * (Tensor elements, Number test_element, *, bool assume_unique = False, bool invert = "
    "False, Tensor out = None)")


cdef Tensor op_isin(object elements, object test_elements, bint assume_unique, bint invert):
    cdef dtype rt = result_type((elements, test_elements))
    for x in (elements, test_elements):
        if isinstance(x, Tensor) and dtype_of((<Tensor>x)._data).category == CAT_BOOL:
            raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    a = operand_array(elements, rt)
    b = operand_array(test_elements, rt)
    with quiet():
        out = np.isin(a, b, invert=invert)
    return make(as_array(np.asarray(out, dtype=np.bool_)))


def _py_isin(elements, test_elements, *, out=None, assume_unique=False, invert=False):
    if (type(elements) is not Tensor and has_torch_function(elements)) or \
            (type(test_elements) is not Tensor and has_torch_function(test_elements)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_isin, (elements, test_elements), {
            "out": out, "assume_unique": assume_unique, "invert": invert})
    if complex_scalar_arg(elements) or complex_scalar_arg(test_elements):
        check_complex_args("isin", (elements, test_elements,))  # Note [Complex guard]
    a = arg_operand(elements)
    b = arg_operand(test_elements)
    if a is NotImplemented or b is NotImplemented or \
            not (isinstance(a, Tensor) or isinstance(b, Tensor)):
        raise type_error_combination("isin", (elements, test_elements), _ISIN_SIGNATURES)
    res = OPS.isin(a, b, arg_bool(assume_unique, "isin", "assume_unique", 3),
                  arg_bool(invert, "isin", "invert", 4))
    return with_out("isin", out, res, None, True)


include "_gen_pointwise.pxi"
