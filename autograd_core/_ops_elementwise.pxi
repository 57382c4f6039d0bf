# Elementwise ops beyond the core arithmetic of _ops.pxi: unary math (exp2 ... erfc,
# rounding, logit, nan_to_num), binary/ternary ops (div with rounding_mode, floor_divide,
# remainder, fmod, atan2, maximum/minimum, hypot, clamp, lerp, addcmul, addcdiv),
# comparisons and logical ops, the in-place forms of all of them (and of exp/log/...),
# and random sampling (rand_like ..., normal_/uniform_/random_).
#
# Every op follows PyTorch's type promotion (_result_type_n: tensors, 0-d tensors and
# Python numbers), computes in the result dtype (float16/32/64 each in its own
# precision), and records a node named as PyTorch's only when grad mode is on, an input
# requires grad and the output is floating point. Derivatives are written with the
# library's own ops, so create_graph and higher orders work.

from libc.math cimport erf as _c_erf, erfc as _c_erfc

cdef double _LN2 = 0.6931471805599453
cdef double _LN10 = 2.3025850929940456
cdef double _TWO_OVER_SQRT_PI = 1.1283791670955126


# ================================================================ helpers

cdef dtype _result_type_n(tuple operands):
    """PyTorch's result_type over any number of operands (Tensors, numbers, or None)."""
    cdef int dim_r = -1, zero_r = -1, wrapped_r = -1, r
    for x in operands:
        if x is None:
            continue
        if isinstance(x, Tensor):
            r = _dtype_of((<Tensor>x)._data).rank
            if cnp.PyArray_NDIM((<Tensor>x)._data) == 0:
                zero_r = _promote_rank(zero_r, r)
            else:
                dim_r = _promote_rank(dim_r, r)
        else:
            wrapped_r = _promote_rank(wrapped_r, _scalar_rank(x))
    return <dtype>_DTYPES[_combine_categories(dim_r, _combine_categories(zero_r, wrapped_r))]


cdef inline dtype _floatify(dtype d):
    """Integer/bool results of float-valued ops are computed in the default float."""
    return d if d.category == 2 else _default_float


cdef cnp.ndarray _opnd(object x, dtype rt):
    """An operand's values in dtype rt (a number becomes a 0-d array of rt)."""
    if isinstance(x, Tensor):
        return _cast_array((<Tensor>x)._data, rt)
    return <cnp.ndarray>np.asarray(np.array(x).astype(rt.np_dtype))


cdef tuple _shape_of(object x):
    return _shp((<Tensor>x)._data) if isinstance(x, Tensor) else ()


cdef object _nary_broadcast_error(tuple operands):
    cdef tuple acc = None
    for x in operands:
        if x is None:
            continue
        s = _shape_of(x)
        if acc is None:
            acc = s
            continue
        try:
            acc = tuple(np.broadcast_shapes(acc, s))
        except ValueError:
            return _broadcast_error(acc, s)
    return RuntimeError("shapes cannot be broadcast")


cdef cnp.ndarray _ew_values(object fn, tuple operands, dtype rt):
    """fn(*operands' arrays in rt), broadcast, quiet, as an array of dtype rt."""
    arrays = [_opnd(x, rt) for x in operands]
    try:
        with _quiet():
            r = fn(*arrays)
    except ValueError:
        raise _nary_broadcast_error(operands) from None
    cdef cnp.ndarray out = _as_array(r)
    if cnp.PyArray_TYPE(out) != rt.np_dtype.num:
        out = <cnp.ndarray>out.astype(rt.np_dtype)
    return out


cdef bint _any_requires_grad(tuple operands):
    for x in operands:
        if isinstance(x, Tensor) and (<Tensor>x)._requires_grad:
            return True
    return False


cdef inline bint _should_record(tuple operands, cnp.ndarray out):
    return (_grad_on() and _any_requires_grad(operands)
            and _dtype_of(out).category == 2)


cdef void _record_opt(Node node, Tensor out, tuple inputs):
    """Record node with one edge per forward input; None (or a number) gets no edge."""
    cdef bint any_nr = False
    cdef Tensor t
    nodes = []
    nrs = []
    for x in inputs:
        if isinstance(x, Tensor):
            t = <Tensor>x
            nodes.append(_edge_node(t))
            nrs.append(t._output_nr)
            any_nr = any_nr or t._output_nr != 0
        else:
            nodes.append(None)
            nrs.append(0)
    node.next_nodes = tuple(nodes)
    node.next_nrs = tuple(nrs) if any_nr else None
    node.seq = _new_sequence_nr()
    out._grad_fn = node
    out._requires_grad = True
    if _anomaly_enabled:
        _record_trace(node)
    # gradients the op broadcast (or promoted) are reduced/cast by the engine
    metas = []
    cdef bint any_meta = False
    for x in inputs:
        m = _meta_if_differs(<Tensor>x, out._data) if isinstance(x, Tensor) else None
        any_meta = any_meta or m is not None
        metas.append(m)
    if any_meta:
        node.input_shapes = tuple(metas)


cdef str _c_type_name(dtype d):
    return {"bool": "bool", "uint8": "unsigned char", "int8": "signed char",
            "int16": "short int", "int32": "int", "int64": "long int",
            "float16": "c10::Half", "float32": "float", "float64": "double"}[d.name]


cdef object _not_implemented_for(str kernel, dtype d):
    return NotImplementedError(f"\"{kernel}\" not implemented for '{_legacy_scalar_name(d)}'")


cdef object _type_error_combination(str fname, tuple args, str signatures):
    got = ", ".join(_arg_type_name(a) for a in args)
    return TypeError(f"{fname}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{signatures}\n")


cdef str _arg_type_name(object a):
    if isinstance(a, Tensor):
        return "Tensor"
    return type(a).__name__


cdef inline Tensor _add_s(Tensor a, object s):
    return _binary_record(AGC_ADD, a, s, 1)


cdef inline Tensor _sub(Tensor a, Tensor b):
    return _binary_record(AGC_SUB, a, b, 1)


cdef inline Tensor _rsub_s(Tensor a, object s):
    """s - a."""
    return <Tensor>_rsub_scalar(a, s)


cdef inline Tensor _zeros_like_t(Tensor g):
    return _zeros(_shp(g._data), _dtype_of(g._data))


cdef inline Tensor _mask(object arr):
    """A non-differentiable bool mask as a Tensor."""
    return _make(_as_array(np.asarray(arr, dtype=bool)))


cdef Tensor _require_t(object x, str fname, str argname, int pos):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fname}(): argument '{argname}' (position {pos}) must be Tensor, not "
                        f"{type(x).__name__}")
    return <Tensor>x


cdef object _scalar_arg(object x):
    """A Python number from a number-like argument (numpy scalars too), else None."""
    if isinstance(x, Tensor) or x is None:
        return None
    if isinstance(x, (bool, int, float)):
        return x
    if isinstance(x, (np.integer, np.floating, np.bool_)):
        return x.item()
    return None


cdef class _no_grad_ctx:
    """Grad mode off for a block (C level, no Python import)."""
    cdef int prev

    def __enter__(self):
        self.prev = agc_grad_enabled()
        agc_set_grad_enabled(0)

    def __exit__(self, *exc):
        agc_set_grad_enabled(self.prev)


# ---------------------------------------------------------------- node bases

cdef class _EwNode(Node):
    """Saved state of this file's nodes: up to three input Tensors, the node's own
    output (as array + version counter, Note [Saved tensor versions]) and constants."""
    cdef Tensor s0
    cdef Tensor s1
    cdef Tensor s2
    cdef long v0
    cdef long v1
    cdef long v2
    cdef cnp.ndarray result
    cdef VersionCounter vc
    cdef long version
    cdef object c0
    cdef object c1

    cdef void release_saved(self):
        # Nodes that saved only numbers stay usable (as in PyTorch).
        if self.s0 is not None or self.s1 is not None or self.s2 is not None \
                or self.result is not None:
            self.s0 = self.s1 = self.s2 = None
            self.result = None
            self.released = True

    cdef inline Tensor t0(self):
        return _unpack(self, self.s0, self.v0)

    cdef inline Tensor t1(self):
        return _unpack(self, self.s1, self.v1)

    cdef inline Tensor t2(self):
        return _unpack(self, self.s2, self.v2)

    cdef inline Tensor out(self):
        return _unpack_output(self, self.result, self.vc, self.version)

    cdef inline void save0(self, object t):
        if isinstance(t, Tensor):
            self.s0 = <Tensor>t
            self.v0 = _version_for_save(<Tensor>t)

    cdef inline void save1(self, object t):
        if isinstance(t, Tensor):
            self.s1 = <Tensor>t
            self.v1 = _version_for_save(<Tensor>t)

    cdef inline void save2(self, object t):
        if isinstance(t, Tensor):
            self.s2 = <Tensor>t
            self.v2 = _version_for_save(<Tensor>t)

    cdef inline void save_out(self, Tensor out):
        cdef VersionCounter vc = _vc_of(out)
        self.result = out._data
        self.vc = vc
        self.version = vc.version


cdef class _ZeroGradNode(Node):
    """A node whose derivative is zero for every input (rounding, sign, comparisons
    written in place, random fills): zeros_like(grad), with no history."""

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        out = []
        for i in range(len(self.next_nodes)):
            out.append(_zeros_like_t(g) if _needs(self, i) else None)
        return tuple(out)


cdef class _InplaceNotImplementedNode(Node):
    """PyTorch's AsinhBackward1 & co: in-place versions without a derivative."""
    cdef str what

    cdef tuple apply(self, tuple grads):
        raise NotImplementedError(f"the derivative for '{self.what}' is not implemented.")


cdef class _NotImplementedNode(Node):
    """PyTorch's `NotImplemented` node (floor_divide, scalar % tensor): backward raises."""
    cdef str op_name

    cdef tuple apply(self, tuple grads):
        raise RuntimeError(f"derivative for aten::{self.op_name} is not implemented")


# the class name users see is PyTorch's: NotImplemented (a Python subclass, since the
# module-level name NotImplemented must stay Python's constant)
_NotImplementedType = type("NotImplemented", (_NotImplementedNode,), {"__slots__": ()})


cdef void _record_not_implemented(Tensor r, tuple operands, str op_name):
    """PyTorch records only the inputs that require grad as the node's edges."""
    if not _should_record(operands, r._data):
        return
    node = <_NotImplementedNode>_NotImplementedType.__new__(_NotImplementedType)
    node.op_name = op_name
    _record_n(node, r, [x for x in operands if isinstance(x, Tensor) and (<Tensor>x)._requires_grad])


# ================================================================ unary ops

cdef enum:
    U_EXP2, U_EXPM1, U_LOG2, U_LOG10, U_LOG1P, U_RSQRT, U_TAN, U_ASIN, U_ACOS, U_ATAN,
    U_SINH, U_COSH, U_ASINH, U_ACOSH, U_ATANH, U_ERF, U_ERFC,
    U_FLOAT_END,
    U_FLOOR, U_CEIL, U_TRUNC, U_ROUND, U_FRAC, U_SIGN, U_SGN

_U_UFUNCS = {
    U_EXP2: np.exp2, U_EXPM1: np.expm1, U_LOG2: np.log2, U_LOG10: np.log10,
    U_LOG1P: np.log1p, U_TAN: np.tan, U_ASIN: np.arcsin, U_ACOS: np.arccos,
    U_ATAN: np.arctan, U_SINH: np.sinh, U_COSH: np.cosh, U_ASINH: np.arcsinh,
    U_ACOSH: np.arccosh, U_ATANH: np.arctanh, U_FLOOR: np.floor, U_CEIL: np.ceil,
    U_TRUNC: np.trunc, U_ROUND: np.rint,
}

_U_NAMES = {
    U_FLOOR: "floor", U_CEIL: "ceil", U_TRUNC: "trunc", U_ROUND: "round", U_FRAC: "frac",
    U_ASINH: "asinh", U_ACOSH: "acosh", U_ATANH: "atanh",
}


cdef cnp.ndarray _erf_values(cnp.ndarray x, bint complement):
    """erf/erfc by the C library, in double, rounded to x's dtype."""
    cdef cnp.ndarray buf = np.array(x, dtype=np.float64, order="C", copy=True)
    cdef double *p = <double *>cnp.PyArray_DATA(buf)
    cdef Py_ssize_t i, n = cnp.PyArray_SIZE(buf)
    if complement:
        for i in range(n):
            p[i] = _c_erfc(p[i])
    else:
        for i in range(n):
            p[i] = _c_erf(p[i])
    return <cnp.ndarray>buf.astype(x.dtype, copy=False)


cdef cnp.ndarray _sign_values(cnp.ndarray x):
    cdef dtype d = _dtype_of(x)
    if d.category == 0:
        return x.copy()
    if d.category == 1:
        return _as_array(np.sign(x))
    # PyTorch: (0 < x) - (x < 0), so sign(nan) == 0
    return _as_array((x > 0).astype(x.dtype) - (x < 0).astype(x.dtype))


cdef cnp.ndarray _unary_ew_values(cnp.ndarray x, int code):
    cdef cnp.ndarray r
    with _quiet():
        if code == U_RSQRT:
            r = _as_array(np.sqrt(x))
            return _as_array(np.reciprocal(r, out=r) if cnp.PyArray_NDIM(r) else np.reciprocal(r))
        if code == U_ERF or code == U_ERFC:
            return _erf_values(x, code == U_ERFC)
        if code == U_FRAC:
            return _as_array(x - np.trunc(x))
        if code == U_SIGN or code == U_SGN:
            return _sign_values(x)
        if code == U_LOG10 and cnp.PyArray_TYPE(x) != cnp.NPY_DOUBLE:
            # numpy's float32 log10 is 1 ulp off at powers of ten (log10(100) != 2);
            # rounding the double result gives PyTorch's values
            return _as_array(np.log10(x.astype(np.float64)).astype(x.dtype))
        return _as_array(_U_UFUNCS[code](x))


cdef Tensor _unary_ew(Tensor x, int code):
    """The unary ops of this file (code U_*), recorded with PyTorch's nodes."""
    cdef cnp.ndarray xa = x._data
    cdef dtype d = _dtype_of(xa)
    if code < U_FLOAT_END:
        if d.category != 2:
            xa = _cast_array(xa, _default_float)
    elif code == U_FRAC:
        if d.category != 2:
            raise _not_implemented_for("frac_cpu", d)
    elif code == U_FLOOR or code == U_CEIL or code == U_TRUNC or code == U_ROUND:
        if d.category == 0:
            raise _not_implemented_for(_U_NAMES[code] + "_vml_cpu", d)
        if d.category == 1:
            return _make(xa.copy())  # integers are already whole
    cdef Tensor r = _make(_unary_ew_values(xa, code))
    if not (_grad_on() and x._requires_grad and _dtype_of(r._data).category == 2):
        return r
    cdef _EwNode node
    cdef Node znode
    if code == U_FLOOR or code == U_CEIL or code == U_TRUNC or code == U_ROUND \
            or code == U_SIGN or code == U_SGN:
        if code == U_FLOOR:
            znode = FloorBackward0.__new__(FloorBackward0)
        elif code == U_CEIL:
            znode = CeilBackward0.__new__(CeilBackward0)
        elif code == U_TRUNC:
            znode = TruncBackward0.__new__(TruncBackward0)
        elif code == U_ROUND:
            znode = RoundBackward0.__new__(RoundBackward0)
        elif code == U_SIGN:
            znode = SignBackward0.__new__(SignBackward0)
        else:
            znode = SgnBackward0.__new__(SgnBackward0)
        _record1(znode, r, x)
        return r
    if code == U_FRAC:
        _record1(FracBackward0.__new__(FracBackward0), r, x)
        return r
    if code == U_EXP2:
        node = <Exp2Backward0>Exp2Backward0.__new__(Exp2Backward0)
    elif code == U_EXPM1:
        node = <Expm1Backward0>Expm1Backward0.__new__(Expm1Backward0)
    elif code == U_LOG2:
        node = <Log2Backward0>Log2Backward0.__new__(Log2Backward0)
    elif code == U_LOG10:
        node = <Log10Backward0>Log10Backward0.__new__(Log10Backward0)
    elif code == U_LOG1P:
        node = <Log1PBackward0>Log1PBackward0.__new__(Log1PBackward0)
    elif code == U_RSQRT:
        node = <RsqrtBackward0>RsqrtBackward0.__new__(RsqrtBackward0)
    elif code == U_TAN:
        node = <TanBackward0>TanBackward0.__new__(TanBackward0)
    elif code == U_ASIN:
        node = <AsinBackward0>AsinBackward0.__new__(AsinBackward0)
    elif code == U_ACOS:
        node = <AcosBackward0>AcosBackward0.__new__(AcosBackward0)
    elif code == U_ATAN:
        node = <AtanBackward0>AtanBackward0.__new__(AtanBackward0)
    elif code == U_SINH:
        node = <SinhBackward0>SinhBackward0.__new__(SinhBackward0)
    elif code == U_COSH:
        node = <CoshBackward0>CoshBackward0.__new__(CoshBackward0)
    elif code == U_ASINH:
        node = <AsinhBackward0>AsinhBackward0.__new__(AsinhBackward0)
    elif code == U_ACOSH:
        node = <AcoshBackward0>AcoshBackward0.__new__(AcoshBackward0)
    elif code == U_ATANH:
        node = <AtanhBackward0>AtanhBackward0.__new__(AtanhBackward0)
    elif code == U_ERF:
        node = <ErfBackward0>ErfBackward0.__new__(ErfBackward0)
    else:
        node = <ErfcBackward0>ErfcBackward0.__new__(ErfcBackward0)
    if code == U_EXP2 or code == U_EXPM1 or code == U_RSQRT or code == U_TAN:
        node.save_out(r)
    else:
        node.save0(x)
    _record1(node, r, x)
    return r


cdef inline Tensor _rsqrt(Tensor x):
    return _unary_ew(x, U_RSQRT)


@cython.final
cdef class Exp2Backward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_mul_scalar(_mul(grads[0], self.out()), _LN2),)


@cython.final
cdef class Expm1Backward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(grads[0], _add_s(self.out(), 1)),)


@cython.final
cdef class Log2Backward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_div(grads[0], _mul_scalar(self.t0(), _LN2)),)


@cython.final
cdef class Log10Backward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_div(grads[0], _mul_scalar(self.t0(), _LN10)),)


@cython.final
cdef class Log1PBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_div(grads[0], _add_s(self.t0(), 1)),)


@cython.final
cdef class RsqrtBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(_mul_scalar(grads[0], -0.5), _pow_scalar(self.out(), 3)),)


@cython.final
cdef class TanBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(grads[0], _add_s(_pow_scalar(self.out(), 2), 1)),)


@cython.final
cdef class AsinBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        x = self.t0()
        return (_mul(grads[0], _rsqrt(_rsub_s(_mul(x, x), 1))),)


@cython.final
cdef class AcosBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        x = self.t0()
        return (_mul(grads[0], _neg(_rsqrt(_rsub_s(_mul(x, x), 1)))),)


@cython.final
cdef class AtanBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        x = self.t0()
        return (_div(grads[0], _add_s(_mul(x, x), 1)),)


@cython.final
cdef class SinhBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(grads[0], _unary_ew(self.t0(), U_COSH)),)


@cython.final
cdef class CoshBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(grads[0], _unary_ew(self.t0(), U_SINH)),)


@cython.final
cdef class AsinhBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(grads[0], _rsqrt(_add_s(_pow_scalar(self.t0(), 2), 1))),)


@cython.final
cdef class AcoshBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        x = self.t0()
        return (_mul(grads[0], _rsqrt(_sub_scalar(_mul(x, x), 1))),)


@cython.final
cdef class AtanhBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_div(grads[0], _rsub_s(_pow_scalar(self.t0(), 2), 1)),)


cdef Tensor _erf_backward(Tensor g, Tensor x, double c):
    # c * exp(-x^2) * g
    return _mul(_mul_scalar(_unary(_neg(_pow_scalar(x, 2)), AGC_EXP), c), g)


@cython.final
cdef class ErfBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_erf_backward(grads[0], self.t0(), _TWO_OVER_SQRT_PI),)


@cython.final
cdef class ErfcBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        return (_erf_backward(grads[0], self.t0(), -_TWO_OVER_SQRT_PI),)


cdef class FloorBackward0(_ZeroGradNode):
    pass


cdef class CeilBackward0(_ZeroGradNode):
    pass


cdef class TruncBackward0(_ZeroGradNode):
    pass


cdef class RoundBackward0(_ZeroGradNode):
    pass


cdef class RoundBackward1(_ZeroGradNode):
    pass


cdef class SignBackward0(_ZeroGradNode):
    pass


cdef class FracBackward0(Node):
    cdef tuple apply(self, tuple grads):
        return (grads[0],)


cdef class AsinhBackward1(_InplaceNotImplementedNode):
    pass


cdef class AcoshBackward1(_InplaceNotImplementedNode):
    pass


cdef class AtanhBackward1(_InplaceNotImplementedNode):
    pass


# ---------------------------------------------------------------- round(decimals)

cdef Tensor _round_decimals(Tensor x, object decimals):
    cdef dtype d = _dtype_of(x._data)
    if d.category != 2:
        raise _not_implemented_for("round_cpu" if d.category == 1 else "round_vml_cpu", d)
    cdef int dec = decimals
    xa = x._data
    op_dt = np.float32 if d.name == "float16" else xa.dtype
    a = xa.astype(op_dt, copy=False)
    with _quiet():
        if dec < 0:
            ten = np.asarray(10.0 ** (-dec), dtype=op_dt)
            v = np.rint(a / ten) * ten
        else:
            ten = np.asarray(10.0 ** dec, dtype=op_dt)
            v = np.rint(a * ten) / ten
    cdef Tensor r = _make(_as_array(np.asarray(v).astype(xa.dtype, copy=False)))
    if _grad_on() and x._requires_grad:
        _record1(RoundBackward1.__new__(RoundBackward1), r, x)
    return r


# ---------------------------------------------------------------- logit

@cython.final
cdef class LogitBackward0(_EwNode):
    # c0: eps (None or a number)
    cdef tuple apply(self, tuple grads):
        x = self.t0()
        cdef Tensor g = grads[0]
        xd = x._data
        if self.c0 is None:
            lo, hi = 0.0, 1.0
            fill = _scalar_tensor(float("nan"), _dtype_of(xd))
        else:
            lo, hi = float(self.c0), 1.0 - float(self.c0)
            fill = _zeros((), _dtype_of(xd))
        inside = (xd >= lo) & (xd <= hi)
        return (_where(inside, _div(g, _mul(x, _rsub_s(x, 1))), fill),)


cdef Tensor _logit(Tensor x, object eps):
    cdef dtype d = _floatify(_dtype_of(x._data))
    cdef cnp.ndarray xa = _cast_array(x._data, d)
    with _quiet():
        if eps is not None:
            lo = float(eps)
            z = np.clip(xa, np.asarray(lo, dtype=xa.dtype), np.asarray(1.0 - lo, dtype=xa.dtype))
        else:
            z = xa
        v = np.log(z / (1 - z))
    cdef Tensor r = _make(_as_array(np.asarray(v).astype(xa.dtype, copy=False)))
    if _grad_on() and x._requires_grad:
        node = <LogitBackward0>LogitBackward0.__new__(LogitBackward0)
        node.save0(x)
        node.c0 = eps
        _record1(node, r, x)
    return r


# ---------------------------------------------------------------- nan_to_num

@cython.final
cdef class NanToNumBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        x = self.t0()
        return (_mul(grads[0], _mask(np.isfinite(x._data))),)


cdef Tensor _nan_to_num(Tensor x, object nan, object posinf, object neginf):
    cdef dtype d = _dtype_of(x._data)
    if d.category != 2:
        return _make(x._data.copy())
    info = np.finfo(d.np_dtype)
    with _quiet():
        v = np.nan_to_num(x._data, copy=True, nan=0.0 if nan is None else nan,
                          posinf=info.max if posinf is None else posinf,
                          neginf=info.min if neginf is None else neginf)
    cdef Tensor r = _make(_as_array(v))
    if _grad_on() and x._requires_grad:
        node = <NanToNumBackward0>NanToNumBackward0.__new__(NanToNumBackward0)
        node.save0(x)
        _record1(node, r, x)
    return r


# ---------------------------------------------------------------- reciprocal / square

cdef Tensor _reciprocal_any(Tensor x):
    if _dtype_of(x._data).category != 2:
        x = _make(_cast_array(x._data, _default_float))
    return _reciprocal(x)


cdef Tensor _square(Tensor x):
    return _pow_scalar(x, 2)


# ================================================================ in-place machinery

cdef void _repoint_saved_output(Tensor self, Tensor r):
    """An in-place op's node saves the modified tensor itself as its result (PyTorch):
    a later in-place change of self is then caught by backward."""
    node = self._grad_fn
    if self._base is not None or node is None:
        return
    cdef VersionCounter vc = _vc_of(self)
    if isinstance(node, _EwNode) and (<_EwNode>node).result is r._data:
        (<_EwNode>node).result = self._data
        (<_EwNode>node).vc = vc
        (<_EwNode>node).version = vc.version
    elif isinstance(node, _SavedNode) and (<_SavedNode>node).result is r._data:
        (<_SavedNode>node).result = self._data
        (<_SavedNode>node).vc = vc
        (<_SavedNode>node).version = vc.version


cdef bint _inplace_needs_grad(Tensor self, tuple others):
    if not _grad_on():
        return False
    if self._requires_grad or (self._base is not None and self._base._requires_grad):
        return True
    return _any_requires_grad(others)


cdef void _check_inplace_shape(Tensor self, Tensor r) except *:
    if _shp(r._data) != _shp(self._data):
        raise RuntimeError(
            f"output with shape {_shape_str(_shp(self._data))} doesn't match the broadcast "
            f"shape {_shape_str(_shp(r._data))}")


cdef Tensor _inplace_apply(Tensor self, object compute, tuple others):
    """self.op_(*others): compute(self_value, *others) out of place, then write it into
    self and make self take its history (leaf/view rules as _inplace_binary)."""
    _check_inplace(self)
    cdef bint need = _inplace_needs_grad(self, others)
    cdef Tensor src = _snapshot(self) if need else self
    cdef Tensor r = compute(src, *others)
    _check_inplace_shape(self, r)
    _check_castable(_dtype_of(r._data), self)
    if need:
        if cnp.PyArray_TYPE(r._data) != cnp.PyArray_TYPE(self._data):
            r = _cast(r, _dtype_of(self._data))
        _rebase_history(self, r)
        _repoint_saved_output(self, r)
        return self
    _write_values(self, r._data)
    _bump_version(self)
    return self


cdef Tensor _inplace_unary_ew(Tensor self, int code):
    return _inplace_apply(self, lambda s: _unary_ew(<Tensor>s, code), ())


cdef Tensor _inplace_not_implemented(Tensor self, int code):
    """asinh_/acosh_/atanh_: values in place; with grad, a node that raises (PyTorch)."""
    _check_inplace(self)
    cdef bint need = _inplace_needs_grad(self, ())
    cdef Tensor src = _snapshot(self) if need else self
    cdef Tensor r
    with _no_grad_ctx():
        r = _unary_ew(src, code)
    _check_castable(_dtype_of(r._data), self)
    if need and _dtype_of(r._data).category == 2:
        if code == U_ASINH:
            node = <_InplaceNotImplementedNode>AsinhBackward1.__new__(AsinhBackward1)
        elif code == U_ACOSH:
            node = <_InplaceNotImplementedNode>AcoshBackward1.__new__(AcoshBackward1)
        else:
            node = <_InplaceNotImplementedNode>AtanhBackward1.__new__(AtanhBackward1)
        node.what = "inplace version of " + _U_NAMES[code]
        _record1(node, r, src)
        return _rebase_history(self, r)
    _write_values(self, r._data)
    _bump_version(self)
    return self


cdef void _check_not_bool(Tensor x, int agc_op) except *:
    cdef dtype d = _dtype_of(x._data)
    if d.category != 0:
        return
    if agc_op == AGC_ABS:
        raise _not_implemented_for("abs_cpu", d)
    if agc_op == AGC_RELU:
        raise RuntimeError("Boolean inputs not supported for relu")


cdef Tensor _inplace_core_unary(Tensor self, int agc_op):
    _check_not_bool(self, agc_op)
    return _inplace_apply(self, lambda s: _unary(<Tensor>s, agc_op), ())


# ================================================================ unary: public API

def exp2(input):
    """2 ** input, elementwise.

    >>> import autograd_core as torch
    >>> torch.exp2(torch.tensor([0., 1., 3.]))
    tensor([1., 2., 8.])
    """
    return _unary_ew(_arg(input, "exp2"), U_EXP2)


def expm1(input):
    """exp(input) - 1, accurate near 0.

    >>> import autograd_core as torch
    >>> torch.expm1(torch.tensor([0.]))
    tensor([0.])
    """
    return _unary_ew(_arg(input, "expm1"), U_EXPM1)


def log2(input):
    """Base-2 logarithm.

    >>> import autograd_core as torch
    >>> torch.log2(torch.tensor([1., 8.]))
    tensor([0., 3.])
    """
    return _unary_ew(_arg(input, "log2"), U_LOG2)


def log10(input):
    """Base-10 logarithm.

    >>> import autograd_core as torch
    >>> torch.log10(torch.tensor([1., 100.]))
    tensor([0., 2.])
    """
    return _unary_ew(_arg(input, "log10"), U_LOG10)


def log1p(input):
    """log(1 + input), accurate near 0.

    >>> import autograd_core as torch
    >>> torch.log1p(torch.tensor([0.]))
    tensor([0.])
    """
    return _unary_ew(_arg(input, "log1p"), U_LOG1P)


def rsqrt(input):
    """1 / sqrt(input).

    >>> import autograd_core as torch
    >>> torch.rsqrt(torch.tensor([4., 0.25]))
    tensor([0.5000, 2.0000])
    """
    return _unary_ew(_arg(input, "rsqrt"), U_RSQRT)


def tan(input):
    """Tangent.

    >>> import autograd_core as torch
    >>> torch.tan(torch.tensor([0.]))
    tensor([0.])
    """
    return _unary_ew(_arg(input, "tan"), U_TAN)


def asin(input):
    """Arcsine.

    >>> import autograd_core as torch
    >>> torch.asin(torch.tensor([0., 1.]))
    tensor([0.0000, 1.5708])
    """
    return _unary_ew(_arg(input, "asin"), U_ASIN)


def acos(input):
    """Arccosine.

    >>> import autograd_core as torch
    >>> torch.acos(torch.tensor([1.]))
    tensor([0.])
    """
    return _unary_ew(_arg(input, "acos"), U_ACOS)


def atan(input):
    """Arctangent.

    >>> import autograd_core as torch
    >>> torch.atan(torch.tensor([0., 1.]))
    tensor([0.0000, 0.7854])
    """
    return _unary_ew(_arg(input, "atan"), U_ATAN)


def sinh(input):
    """Hyperbolic sine.

    >>> import autograd_core as torch
    >>> torch.sinh(torch.tensor([0.]))
    tensor([0.])
    """
    return _unary_ew(_arg(input, "sinh"), U_SINH)


def cosh(input):
    """Hyperbolic cosine.

    >>> import autograd_core as torch
    >>> torch.cosh(torch.tensor([0.]))
    tensor([1.])
    """
    return _unary_ew(_arg(input, "cosh"), U_COSH)


def asinh(input):
    """Inverse hyperbolic sine.

    >>> import autograd_core as torch
    >>> torch.asinh(torch.tensor([0.]))
    tensor([0.])
    """
    return _unary_ew(_arg(input, "asinh"), U_ASINH)


def acosh(input):
    """Inverse hyperbolic cosine (input >= 1).

    >>> import autograd_core as torch
    >>> torch.acosh(torch.tensor([1.]))
    tensor([0.])
    """
    return _unary_ew(_arg(input, "acosh"), U_ACOSH)


def atanh(input):
    """Inverse hyperbolic tangent (|input| < 1).

    >>> import autograd_core as torch
    >>> torch.atanh(torch.tensor([0.]))
    tensor([0.])
    """
    return _unary_ew(_arg(input, "atanh"), U_ATANH)


def erf(input):
    """The error function.

    >>> import autograd_core as torch
    >>> torch.erf(torch.tensor([0., 1.]))
    tensor([0.0000, 0.8427])
    """
    return _unary_ew(_arg(input, "erf"), U_ERF)


def erfc(input):
    """1 - erf(input).

    >>> import autograd_core as torch
    >>> torch.erfc(torch.tensor([0.]))
    tensor([1.])
    """
    return _unary_ew(_arg(input, "erfc"), U_ERFC)


def reciprocal(input):
    """1 / input (integers give the default float dtype).

    >>> import autograd_core as torch
    >>> torch.reciprocal(torch.tensor([2., 4.]))
    tensor([0.5000, 0.2500])
    """
    return _reciprocal_any(_arg(input, "reciprocal"))


def square(input):
    """input ** 2 (recorded as pow, like PyTorch).

    >>> import autograd_core as torch
    >>> torch.square(torch.tensor([-2., 3.]))
    tensor([4., 9.])
    """
    return _square(_arg(input, "square"))


def sign(input):
    """-1, 0 or 1 by the sign of each element (0 for nan).

    >>> import autograd_core as torch
    >>> torch.sign(torch.tensor([-2., 0., 3.]))
    tensor([-1.,  0.,  1.])
    """
    return _unary_ew(_arg(input, "sign"), U_SIGN)


def sgn(input):
    """sign for real tensors.

    >>> import autograd_core as torch
    >>> torch.sgn(torch.tensor([-2., 3.]))
    tensor([-1.,  1.])
    """
    return _unary_ew(_arg(input, "sgn"), U_SGN)


def floor(input):
    """Largest integer <= input, elementwise.

    >>> import autograd_core as torch
    >>> torch.floor(torch.tensor([-1.5, 1.5]))
    tensor([-2.,  1.])
    """
    return _unary_ew(_arg(input, "floor"), U_FLOOR)


def ceil(input):
    """Smallest integer >= input, elementwise.

    >>> import autograd_core as torch
    >>> torch.ceil(torch.tensor([-1.5, 1.5]))
    tensor([-1.,  2.])
    """
    return _unary_ew(_arg(input, "ceil"), U_CEIL)


def trunc(input):
    """input rounded toward zero.

    >>> import autograd_core as torch
    >>> torch.trunc(torch.tensor([-1.5, 1.5]))
    tensor([-1.,  1.])
    """
    return _unary_ew(_arg(input, "trunc"), U_TRUNC)


fix = trunc


def round(input, *, decimals=None):
    """Round half to even; with ``decimals``, to that many decimal places.

    >>> import autograd_core as torch
    >>> torch.round(torch.tensor([0.5, 1.5, 2.25]))
    tensor([0., 2., 2.])
    >>> torch.round(torch.tensor([1.2345]), decimals=2)
    tensor([1.2300])
    """
    x = _arg(input, "round")
    if decimals is None:
        return _unary_ew(x, U_ROUND)
    return _round_decimals(x, decimals)


def frac(input):
    """input - trunc(input).

    >>> import autograd_core as torch
    >>> torch.frac(torch.tensor([-1.25, 2.5]))
    tensor([-0.2500,  0.5000])
    """
    return _unary_ew(_arg(input, "frac"), U_FRAC)


def logit(input, eps=None):
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given.

    >>> import autograd_core as torch
    >>> torch.logit(torch.tensor([0.5]))
    tensor([0.])
    """
    return _logit(_arg(input, "logit"), eps)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """nan, +inf and -inf replaced by numbers (the dtype's extremes by default).

    >>> import autograd_core as torch
    >>> torch.nan_to_num(torch.tensor([float('nan'), 1.]), nan=2.)
    tensor([2., 1.])
    """
    return _nan_to_num(_arg(input, "nan_to_num"), nan, posinf, neginf)


# Tensor methods and in-place forms of the unary ops

def _register_unary_methods():
    names = {
        "exp2": U_EXP2, "expm1": U_EXPM1, "log2": U_LOG2, "log10": U_LOG10,
        "log1p": U_LOG1P, "rsqrt": U_RSQRT, "tan": U_TAN, "asin": U_ASIN, "acos": U_ACOS,
        "atan": U_ATAN, "sinh": U_SINH, "cosh": U_COSH, "asinh": U_ASINH,
        "acosh": U_ACOSH, "atanh": U_ATANH, "erf": U_ERF, "erfc": U_ERFC,
        "sign": U_SIGN, "sgn": U_SGN, "floor": U_FLOOR, "ceil": U_CEIL, "trunc": U_TRUNC,
        "frac": U_FRAC,
        "arcsin": U_ASIN, "arccos": U_ACOS, "arctan": U_ATAN, "arcsinh": U_ASINH,
        "arccosh": U_ACOSH, "arctanh": U_ATANH, "fix": U_TRUNC,
    }
    for name, code in names.items():
        _TENSOR_METHODS[name] = _unary_method(code)
        if code == U_ASINH or code == U_ACOSH or code == U_ATANH:
            _TENSOR_METHODS[name + "_"] = _unary_inplace_not_implemented(code)
        else:
            _TENSOR_METHODS[name + "_"] = _unary_inplace(code)
    core = {"exp": AGC_EXP, "log": AGC_LOG, "sqrt": AGC_SQRT, "sin": AGC_SIN,
            "cos": AGC_COS, "tanh": AGC_TANH, "sigmoid": AGC_SIGMOID, "relu": AGC_RELU,
            "neg": AGC_NEG, "negative": AGC_NEG, "abs": AGC_ABS, "absolute": AGC_ABS}
    for name, code in core.items():
        _TENSOR_METHODS[name + "_"] = _core_inplace(code)
    _TENSOR_METHODS["negative"] = lambda self: _unary(self, AGC_NEG)
    _TENSOR_METHODS["absolute"] = lambda self: _unary(self, AGC_ABS)


def _unary_method(int code):
    def method(self):
        return _unary_ew(self, code)
    return method


def _unary_inplace(int code):
    def method(self):
        return _inplace_unary_ew(self, code)
    return method


def _unary_inplace_not_implemented(int code):
    def method(self):
        return _inplace_not_implemented(self, code)
    return method


def _core_inplace(int agc_op):
    def method(self):
        return _inplace_core_unary(self, agc_op)
    return method


_register_unary_methods()


def negative(input):
    """-input (alias of neg).

    >>> import autograd_core as torch
    >>> torch.negative(torch.tensor([1., -2.]))
    tensor([-1.,  2.])
    """
    return _unary(_arg(input, "negative"), AGC_NEG)


def absolute(input):
    """|input| (alias of abs).

    >>> import autograd_core as torch
    >>> torch.absolute(torch.tensor([1., -2.]))
    tensor([1., 2.])
    """
    return _unary(_arg(input, "absolute"), AGC_ABS)


arcsin = asin
arccos = acos
arctan = atan
arcsinh = asinh
arccosh = acosh
arctanh = atanh


@_tensor_method("reciprocal")
def _m_reciprocal(self):
    return _reciprocal_any(self)


@_tensor_method("reciprocal_")
def _m_reciprocal_(self):
    return _inplace_apply(self, lambda s: _reciprocal_any(<Tensor>s), ())


@_tensor_method("square")
def _m_square(self):
    return _square(self)


@_tensor_method("square_")
def _m_square_(self):
    return _inplace_apply(self, lambda s: _square(<Tensor>s), ())


@_tensor_method("round")
def _m_round(self, *, decimals=None):
    if decimals is None:
        return _unary_ew(self, U_ROUND)
    return _round_decimals(self, decimals)


@_tensor_method("round_")
def _m_round_(self, *, decimals=None):
    if decimals is None:
        return _inplace_unary_ew(self, U_ROUND)
    return _inplace_apply(self, lambda s: _round_decimals(<Tensor>s, decimals), ())


@_tensor_method("logit")
def _m_logit(self, eps=None):
    return _logit(self, eps)


@_tensor_method("logit_")
def _m_logit_(self, eps=None):
    return _inplace_apply(self, lambda s: _logit(<Tensor>s, eps), ())


@_tensor_method("nan_to_num")
def _m_nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    return _nan_to_num(self, nan, posinf, neginf)


@_tensor_method("nan_to_num_")
def _m_nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    return _inplace_apply(self, lambda s: _nan_to_num(<Tensor>s, nan, posinf, neginf), ())


# ================================================================ division family

cdef object _DIV_DEFAULT = object()   # div(..) without rounding_mode: PyTorch's DivBackward0


cdef object _rounding_mode_kw(dict kwargs):
    """rounding_mode from Tensor.div(other, **kwargs) (_tensor.pxi), _DIV_DEFAULT if absent."""
    if not kwargs:
        return _DIV_DEFAULT
    for k in kwargs:
        if k != "rounding_mode":
            raise TypeError(f"div() got an unexpected keyword argument '{k}'")
    return kwargs["rounding_mode"]


cdef void _check_int_zero_division(dtype rt, cnp.ndarray b) except *:
    if rt.category != 2 and cnp.PyArray_SIZE(b) and not np.all(b):
        raise RuntimeError("ZeroDivisionError")


cdef object _trunc_int_div(cnp.ndarray a, cnp.ndarray b):
    q = np.floor_divide(a, b)
    adjust = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return q + adjust.astype(q.dtype)


cdef cnp.ndarray _div_mode_values(object a, object b, str mode):
    """a / b rounded as mode ('trunc' or 'floor'), in the promoted dtype."""
    cdef dtype rt = _result_type_n((a, b))
    if rt.category == 0:
        raise _not_implemented_for("div_floor_cpu" if mode == "floor" else "div_trunc_cpu", rt)
    cdef cnp.ndarray xa = _opnd(a, rt), xb = _opnd(b, rt)
    try:
        if rt.category != 2:
            _check_int_zero_division(rt, xb)
            r = np.floor_divide(xa, xb) if mode == "floor" else _trunc_int_div(xa, xb)
        else:
            with _quiet():
                r = np.floor_divide(xa, xb) if mode == "floor" else np.trunc(np.true_divide(xa, xb))
    except ValueError:
        raise _nary_broadcast_error((a, b)) from None
    cdef cnp.ndarray out = _as_array(r)
    if cnp.PyArray_TYPE(out) != rt.np_dtype.num:
        out = <cnp.ndarray>out.astype(rt.np_dtype)
    return out


@cython.final
cdef class DivBackward2(_EwNode):
    # s0 self (saved when other needs a grad), s1 other (a Tensor), c0 other as a number,
    # c1 rounding_mode
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        ga = gb = None
        if self.c1 is not None:  # trunc/floor: zero derivative
            return (_zeros_like_t(g) if _needs(self, 0) else None,
                    _zeros_like_t(g) if _needs(self, 1) else None)
        other = self.t1()
        if _needs(self, 0):
            ga = _div(g, other)
        if _needs(self, 1):
            a = self.t0()
            gb = _neg(_mul(g, _div(_div(a, other), other)))
        return (ga, gb)


cdef Tensor _div_mode(object a, object b, object mode):
    """div(a, b, rounding_mode=mode): DivBackward2 (a or b may be a number)."""
    if mode is not None and mode != "trunc" and mode != "floor":
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{mode}'")
    cdef cnp.ndarray out
    if mode is None:
        rt = _floatify(_result_type_n((a, b)))
        out = _ew_values(np.true_divide, (a, b), rt)
    else:
        out = _div_mode_values(a, b, mode)
    cdef Tensor r = _make(out)
    if not _should_record((a, b), out):
        return r
    node = <DivBackward2>DivBackward2.__new__(DivBackward2)
    node.c1 = mode
    # PyTorch saves other (a number as a wrapped 0-d tensor) and, when other needs a
    # gradient, self
    node.save1(b if isinstance(b, Tensor) else _make(_as_array(np.asarray(b))))
    if isinstance(b, Tensor) and (<Tensor>b)._requires_grad:
        node.save0(a if isinstance(a, Tensor) else _make(_as_array(np.asarray(a))))
    _record_opt(node, r, (a, b))
    return r


cdef Tensor _floor_divide(object a, object b):
    cdef Tensor r = _make(_div_mode_values(a, b, "floor"))
    _record_not_implemented(r, (a, b), "floor_divide")
    return r


cdef object _floordiv_op(object a, object b):
    """a // b for the operators (either side may be a number)."""
    a = _check_operand(a)
    b = _check_operand(b)
    if a is NotImplemented or b is NotImplemented:
        return NotImplemented
    return _floor_divide(a, b)


def div(input, other, *, rounding_mode=_DIV_DEFAULT):
    """input / other; rounding_mode 'trunc' or 'floor' rounds the quotient (and keeps
    integer dtypes), None is true division.

    >>> import autograd_core as torch
    >>> torch.div(torch.tensor([7., -7.]), 2, rounding_mode='floor')
    tensor([ 3., -4.])
    >>> torch.div(torch.tensor([7, -7]), 2, rounding_mode='trunc')
    tensor([ 3, -3])
    """
    if rounding_mode is _DIV_DEFAULT:
        if not isinstance(input, Tensor):
            return _rdiv_scalar(_arg(other, "div"), input)
        return _div_any(<Tensor>input, other)
    return _div_mode_checked(input, other, rounding_mode, "div")


cdef Tensor _div_mode_checked(object input, object other, object mode, str fname):
    input = _check_operand(input)
    other = _check_operand(other)
    if input is NotImplemented or other is NotImplemented or \
            not (isinstance(input, Tensor) or isinstance(other, Tensor)):
        raise TypeError(f"{fname}(): argument 'other' must be Tensor or Number")
    return _div_mode(input, other, mode)


divide = div


def true_divide(input, other):
    """input / other, always true division (alias of div).

    >>> import autograd_core as torch
    >>> torch.true_divide(torch.tensor([1, 2]), 2)
    tensor([0.5000, 1.0000])
    """
    if not isinstance(input, Tensor):
        return _rdiv_scalar(_arg(other, "true_divide"), input)
    return _div_any(<Tensor>input, other)


def floor_divide(input, other):
    """input // other: the quotient rounded down (Python's //); not differentiable.

    >>> import autograd_core as torch
    >>> torch.floor_divide(torch.tensor([7, -7]), 2)
    tensor([ 3, -4])
    """
    input = _check_operand(input)
    other = _check_operand(other)
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("floor_divide(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return _floor_divide(input, other)


cdef Tensor _div_method(Tensor self, object other, object rounding_mode):
    """Tensor.div(other, rounding_mode=...) (called by the method in _tensor.pxi)."""
    if rounding_mode is _DIV_DEFAULT:
        r = _div_any(self, other)
        if r is NotImplemented:
            raise TypeError(f"div(): argument 'other' must be Tensor or Number, not "
                            f"{type(other).__name__}")
        return r
    return _div_mode_checked(self, other, rounding_mode, "div")


cdef Tensor _div_inplace(Tensor self, object other, object rounding_mode):
    """Tensor.div_(other, rounding_mode=...)."""
    if rounding_mode is _DIV_DEFAULT:
        return _inplace_binary(self, other, AGC_DIV, 1)
    return _inplace_apply(self, lambda s, o: _div_mode_checked(s, o, rounding_mode, "div"),
                          (_check_operand(other),))


@_tensor_method("divide")
def _m_divide(self, other, *, rounding_mode=_DIV_DEFAULT):
    return _div_method(self, other, rounding_mode)


@_tensor_method("divide_")
def _m_divide_(self, other, *, rounding_mode=_DIV_DEFAULT):
    return _div_inplace(self, other, rounding_mode)


@_tensor_method("true_divide")
def _m_true_divide(self, other):
    return _div_method(self, other, _DIV_DEFAULT)


@_tensor_method("true_divide_")
def _m_true_divide_(self, other):
    return _inplace_binary(self, other, AGC_DIV, 1)


@_tensor_method("floor_divide")
def _m_floor_divide(self, other):
    return floor_divide(self, other)


@_tensor_method("floor_divide_")
def _m_floor_divide_(self, other):
    return _inplace_apply(self, lambda s, o: _floor_divide(s, o), (_check_operand(other),))


# ---------------------------------------------------------------- remainder / fmod

@cython.final
cdef class RemainderBackward0(Node):
    cdef tuple apply(self, tuple grads):
        return (grads[0],)


@cython.final
cdef class FmodBackward0(Node):
    cdef tuple apply(self, tuple grads):
        return (grads[0],)


cdef class _ModTensorNode(_EwNode):
    # s0 self, s1 other; c1: the rounding mode of the quotient in d/d other
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        ga = g if _needs(self, 0) else None
        gb = None
        if _needs(self, 1):
            gb = _mul(_neg(g), _div_mode(self.t0(), self.t1(), self.c1))
        return (ga, gb)


@cython.final
cdef class RemainderBackward1(_ModTensorNode):
    pass


@cython.final
cdef class FmodBackward1(_ModTensorNode):
    pass


cdef Tensor _mod_op(object a, object b, bint python_mod):
    """remainder (python_mod: result has the divisor's sign) or fmod (the dividend's)."""
    cdef dtype rt = _result_type_n((a, b))
    if rt.category == 0:
        raise _not_implemented_for("remainder_cpu" if python_mod else "fmod_cpu", rt)
    if rt.category != 2:
        _check_int_zero_division(rt, _opnd(b, rt))
    cdef cnp.ndarray out = _ew_values(np.remainder if python_mod else np.fmod, (a, b), rt)
    cdef Tensor r = _make(out)
    if not _should_record((a, b), out):
        return r
    if not isinstance(a, Tensor):  # number % tensor: no derivative in PyTorch
        _record_not_implemented(r, (a, b), "remainder")
        return r
    cdef _ModTensorNode node
    if not isinstance(b, Tensor):
        _record_opt(RemainderBackward0.__new__(RemainderBackward0) if python_mod
                    else FmodBackward0.__new__(FmodBackward0), r, (a,))
        return r
    if python_mod:
        node = <RemainderBackward1>RemainderBackward1.__new__(RemainderBackward1)
        node.c1 = "floor"
    else:
        node = <FmodBackward1>FmodBackward1.__new__(FmodBackward1)
        node.c1 = "trunc"
    node.save0(a)
    node.save1(b)
    _record_opt(node, r, (a, b))
    return r


cdef object _mod_operator(object a, object b):
    """a % b for the operators (either side may be a number)."""
    a = _check_operand(a)
    b = _check_operand(b)
    if a is NotImplemented or b is NotImplemented:
        return NotImplemented
    return _mod_op(a, b, True)


def remainder(input, other):
    """Python's modulus: the result has the sign of the divisor.

    >>> import autograd_core as torch
    >>> torch.remainder(torch.tensor([-3., 3.]), 2)
    tensor([1., 1.])
    """
    input = _check_operand(input)
    other = _check_operand(other)
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("remainder(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return _mod_op(input, other, True)


def fmod(input, other):
    """C's fmod: the result has the sign of the dividend.

    >>> import autograd_core as torch
    >>> torch.fmod(torch.tensor([-3., 3.]), 2)
    tensor([-1.,  1.])
    """
    if not isinstance(input, Tensor):
        raise _type_error_combination(
            "fmod", (input, other),
            " * (Tensor input, Tensor other, *, Tensor out = None)\n"
            " * (Tensor input, Number other, *, Tensor out = None)")
    return _mod_op(input, _check_operand(other), False)


@_tensor_method("remainder")
def _m_remainder(self, other):
    return remainder(self, other)


@_tensor_method("remainder_")
def _m_remainder_(self, other):
    return _inplace_apply(self, lambda s, o: _mod_op(s, o, True), (_check_operand(other),))


@_tensor_method("fmod")
def _m_fmod(self, other):
    return fmod(self, other)


@_tensor_method("fmod_")
def _m_fmod_(self, other):
    return _inplace_apply(self, lambda s, o: _mod_op(s, o, False), (_check_operand(other),))


# ================================================================ binary ops on two tensors

cdef Tensor _two_tensors(object input, object other, str fname):
    _require_t(input, fname, "input", 1)
    return _require_t(other, fname, "other", 2)


@cython.final
cdef class Atan2Backward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        a = self.t0()
        b = self.t1()
        recip = _reciprocal_any(_add(_mul(a, a), _mul(b, b)))
        ga = _mul(_mul(g, b), recip) if _needs(self, 0) else None
        gb = _mul(_mul(g, _neg(a)), recip) if _needs(self, 1) else None
        return (ga, gb)


cdef Tensor _atan2(Tensor a, Tensor b):
    cdef dtype rt = _floatify(_result_type_n((a, b)))
    cdef cnp.ndarray out = _ew_values(np.arctan2, (a, b), rt)
    cdef Tensor r = _make(out)
    if _should_record((a, b), out):
        node = <Atan2Backward0>Atan2Backward0.__new__(Atan2Backward0)
        node.save0(a)
        node.save1(b)
        _record_opt(node, r, (a, b))
    return r


def atan2(input, other):
    """The angle of the point (other, input): arctan(input / other) in the right quadrant.

    >>> import autograd_core as torch
    >>> torch.atan2(torch.tensor([1.]), torch.tensor([-1.]))
    tensor([2.3562])
    """
    _two_tensors(input, other, "atan2")
    return _atan2(input, other)


arctan2 = atan2


@_tensor_method("atan2", "arctan2")
def _m_atan2(self, other):
    return _atan2(self, _require_t(other, "atan2", "other", 1))


@_tensor_method("atan2_", "arctan2_")
def _m_atan2_(self, other):
    return _inplace_apply(self, lambda s, o: _atan2(s, o),
                          (_require_t(other, "atan2_", "other", 1),))


cdef class _MaxMinNode(_EwNode):
    cdef bint is_max

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        a = self.t0()
        b = self.t1()
        with _quiet():
            eq = a._data == b._data
            a_loses = (a._data < b._data) if self.is_max else (a._data > b._data)
            b_loses = (a._data > b._data) if self.is_max else (a._data < b._data)
        zero = _zeros((), _dtype_of(g._data))
        shared = _where(eq, _div_scalar(g, 2), g)
        ga = _where(a_loses, zero, shared) if _needs(self, 0) else None
        gb = _where(b_loses, zero, shared) if _needs(self, 1) else None
        return (ga, gb)


@cython.final
cdef class MaximumBackward0(_MaxMinNode):
    pass


@cython.final
cdef class MinimumBackward0(_MaxMinNode):
    pass


cdef Tensor _maximum(Tensor a, Tensor b, bint is_max):
    cdef dtype rt = _result_type_n((a, b))
    cdef cnp.ndarray out = _ew_values(np.maximum if is_max else np.minimum, (a, b), rt)
    cdef Tensor r = _make(out)
    cdef _MaxMinNode node
    if _should_record((a, b), out):
        if is_max:
            node = <MaximumBackward0>MaximumBackward0.__new__(MaximumBackward0)
        else:
            node = <MinimumBackward0>MinimumBackward0.__new__(MinimumBackward0)
        node.is_max = is_max
        node.save0(a)
        node.save1(b)
        _record_opt(node, r, (a, b))
    return r


def maximum(input, other):
    """Elementwise maximum of two tensors (nan propagates).

    >>> import autograd_core as torch
    >>> torch.maximum(torch.tensor([1., 4.]), torch.tensor([3., 2.]))
    tensor([3., 4.])
    """
    _two_tensors(input, other, "maximum")
    return _maximum(input, other, True)


def minimum(input, other):
    """Elementwise minimum of two tensors (nan propagates).

    >>> import autograd_core as torch
    >>> torch.minimum(torch.tensor([1., 4.]), torch.tensor([3., 2.]))
    tensor([1., 2.])
    """
    _two_tensors(input, other, "minimum")
    return _maximum(input, other, False)


@_tensor_method("maximum")
def _m_maximum(self, other):
    return _maximum(self, _require_t(other, "maximum", "other", 1), True)


@_tensor_method("minimum")
def _m_minimum(self, other):
    return _maximum(self, _require_t(other, "minimum", "other", 1), False)


@cython.final
cdef class HypotBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        r = self.out()
        ga = _div(_mul(g, self.t0()), r) if _needs(self, 0) else None
        gb = _div(_mul(g, self.t1()), r) if _needs(self, 1) else None
        return (ga, gb)


cdef Tensor _hypot(Tensor a, Tensor b):
    cdef dtype rt = _result_type_n((a, b))
    if rt.category != 2:
        raise _not_implemented_for("hypot_cpu", rt)
    cdef cnp.ndarray out = _ew_values(np.hypot, (a, b), rt)
    cdef Tensor r = _make(out)
    if _should_record((a, b), out):
        node = <HypotBackward0>HypotBackward0.__new__(HypotBackward0)
        node.save0(a)
        node.save1(b)
        node.save_out(r)
        _record_opt(node, r, (a, b))
    return r


def hypot(input, other):
    """sqrt(input ** 2 + other ** 2) without overflow.

    >>> import autograd_core as torch
    >>> torch.hypot(torch.tensor([3.]), torch.tensor([4.]))
    tensor([5.])
    """
    _two_tensors(input, other, "hypot")
    return _hypot(input, other)


@_tensor_method("hypot")
def _m_hypot(self, other):
    return _hypot(self, _require_t(other, "hypot", "other", 1))


@_tensor_method("hypot_")
def _m_hypot_(self, other):
    return _inplace_apply(self, lambda s, o: _hypot(s, o), (_require_t(other, "hypot_", "other", 1),))


# ================================================================ clamp

cdef class ClampBackward1(_EwNode):
    """clamp with number bounds: c0 min, c1 max (either may be None)."""
    cdef tuple apply(self, tuple grads):
        x = self.t0()
        xd = x._data
        with _quiet():
            if self.c0 is not None and self.c1 is not None:
                keep = (xd >= self.c0) & (xd <= self.c1)
            elif self.c0 is not None:
                keep = xd >= self.c0
            else:
                keep = xd <= self.c1
        cdef Tensor g = grads[0]
        return (_where(keep, g, _zeros((), _dtype_of(g._data))),)


cdef class ClampMinBackward0(ClampBackward1):
    pass


cdef class ClampMaxBackward0(ClampBackward1):
    pass


cdef class ClampBackward0(_EwNode):
    """clamp with tensor bounds: s0 self, s1 min, s2 max (either bound may be None)."""
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.t0()
        mn = self.t1()
        mx = self.t2()
        xd = x._data
        zero = _zeros((), _dtype_of(g._data))
        g_self = g_min = g_max = None
        with _quiet():
            if mn is not None and mx is not None:
                if _needs(self, 0):
                    g_self = _where((xd >= mn._data) & (xd <= mx._data), g, zero)
                if _needs(self, 1):
                    g_min = _where((xd < mn._data) & (mn._data < mx._data), g, zero)
                if _needs(self, 2):
                    g_max = _where((xd > mx._data) | (mx._data < mn._data), g, zero)
            elif mn is not None:
                if _needs(self, 0):
                    g_self = _where(xd >= mn._data, g, zero)
                if _needs(self, 1):
                    g_min = _where(xd < mn._data, g, zero)
            else:
                if _needs(self, 0):
                    g_self = _where(xd <= mx._data, g, zero)
                if _needs(self, 2):
                    g_max = _where(xd > mx._data, g, zero)
        return (g_self, g_min, g_max)


cdef class ClampMinBackward1(_EwNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.t0()
        b = self.t1()
        zero = _zeros((), _dtype_of(g._data))
        with _quiet():
            ga = _where(x._data >= b._data, g, zero) if _needs(self, 0) else None
            gb = _where(x._data < b._data, g, zero) if _needs(self, 1) else None
        return (ga, gb)


cdef class ClampMaxBackward1(_EwNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = self.t0()
        b = self.t1()
        zero = _zeros((), _dtype_of(g._data))
        with _quiet():
            ga = _where(x._data <= b._data, g, zero) if _needs(self, 0) else None
            gb = _where(x._data > b._data, g, zero) if _needs(self, 1) else None
        return (ga, gb)


cdef object _clamp_values(cnp.ndarray x, object mn, object mx):
    r = x
    if mn is not None:
        r = np.maximum(r, mn)
    if mx is not None:
        r = np.minimum(r, mx)
    return r if r is not x else x.copy()


cdef Tensor _clamp_scalar(Tensor x, object mn, object mx, int kind):
    """kind 0: clamp (ClampBackward1), 1: clamp_min, 2: clamp_max."""
    cdef dtype rt = _result_type_n((x, mn, mx))
    cdef cnp.ndarray xa = _cast_array(x._data, rt)
    lo = None if mn is None else _opnd(mn, rt)
    hi = None if mx is None else _opnd(mx, rt)
    with _quiet():
        out = _as_array(_clamp_values(xa, lo, hi))
    cdef Tensor r = _make(out)
    cdef ClampBackward1 node
    if _should_record((x,), out):
        if kind == 0:
            node = <ClampBackward1>ClampBackward1.__new__(ClampBackward1)
        elif kind == 1:
            node = <ClampMinBackward0>ClampMinBackward0.__new__(ClampMinBackward0)
        else:
            node = <ClampMaxBackward0>ClampMaxBackward0.__new__(ClampMaxBackward0)
        node.save0(x)
        node.c0 = mn
        node.c1 = mx
        _record_opt(node, r, (x,))
    return r


cdef Tensor _clamp_tensor(Tensor x, object mn, object mx):
    cdef dtype rt = _result_type_n((x, mn, mx))
    cdef cnp.ndarray out = _ew_values(
        lambda a, *bounds: _clamp_values(a, bounds[0] if mn is not None else None,
                                         bounds[-1] if mx is not None else None),
        tuple(t for t in (x, mn, mx) if t is not None), rt)
    cdef Tensor r = _make(out)
    if _should_record((x, mn, mx), out):
        node = <ClampBackward0>ClampBackward0.__new__(ClampBackward0)
        node.save0(x)
        node.save1(mn)
        node.save2(mx)
        _record_opt(node, r, (x, mn, mx))
    return r


cdef Tensor _clamp_minmax_tensor(Tensor x, Tensor b, bint is_min):
    cdef dtype rt = _result_type_n((x, b))
    cdef cnp.ndarray out = _ew_values(np.maximum if is_min else np.minimum, (x, b), rt)
    cdef Tensor r = _make(out)
    cdef _EwNode node
    if _should_record((x, b), out):
        if is_min:
            node = <ClampMinBackward1>ClampMinBackward1.__new__(ClampMinBackward1)
        else:
            node = <ClampMaxBackward1>ClampMaxBackward1.__new__(ClampMaxBackward1)
        node.save0(x)
        node.save1(b)
        _record_opt(node, r, (x, b))
    return r


_CLAMP_SIGS = (" * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)\n"
               " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)")


cdef Tensor _clamp(object input, object min, object max, str fname):
    cdef Tensor x = _require_t(input, fname, "input", 1)
    if min is None and max is None:
        raise RuntimeError(f"autograd_core.{fname}: At least one of 'min' or 'max' must not be None")
    t_min = isinstance(min, Tensor)
    t_max = isinstance(max, Tensor)
    if t_min or t_max:
        if (min is not None and not t_min) or (max is not None and not t_max):
            raise _clamp_type_error(fname, x, min, max)
        return _clamp_tensor(x, min, max)
    smin = _scalar_arg(min)
    smax = _scalar_arg(max)
    if (min is not None and smin is None) or (max is not None and smax is None):
        raise _clamp_type_error(fname, x, min, max)
    return _clamp_scalar(x, smin, smax, 0)


cdef object _clamp_type_error(str fname, Tensor x, object min, object max):
    args = [x]
    kws = []
    if min is not None:
        kws.append(("min", min))
    if max is not None:
        kws.append(("max", max))
    got = ", ".join(["Tensor"] + [f"{k}={_arg_type_name(v)}" for k, v in sorted(kws)])
    return TypeError(f"{fname}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{_CLAMP_SIGS}\n")


def clamp(input, min=None, max=None):
    """Each element limited to [min, max] (numbers or tensors; either may be None).

    >>> import autograd_core as torch
    >>> torch.clamp(torch.tensor([-2., 0.5, 3.]), min=-1, max=1)
    tensor([-1.0000,  0.5000,  1.0000])
    """
    return _clamp(input, min, max, "clamp")


def clip(input, min=None, max=None):
    """Alias of clamp.

    >>> import autograd_core as torch
    >>> torch.clip(torch.tensor([-2., 3.]), -1, 1)
    tensor([-1.,  1.])
    """
    return _clamp(input, min, max, "clip")


cdef Tensor _clamp_one(object input, object bound, bint is_min):
    fname = "clamp_min" if is_min else "clamp_max"
    cdef Tensor x = _require_t(input, fname, "input", 1)
    if isinstance(bound, Tensor):
        return _clamp_minmax_tensor(x, <Tensor>bound, is_min)
    s = _scalar_arg(bound)
    if s is None:
        raise _type_error_combination(
            fname, (x, bound),
            f" * (Tensor input, Tensor {'min' if is_min else 'max'}, *, Tensor out = None)\n"
            f" * (Tensor input, Number {'min' if is_min else 'max'}, *, Tensor out = None)")
    return _clamp_scalar(x, s if is_min else None, None if is_min else s, 1 if is_min else 2)


def clamp_min(input, min):
    """max(input, min) elementwise.

    >>> import autograd_core as torch
    >>> torch.clamp_min(torch.tensor([-2., 3.]), 0)
    tensor([0., 3.])
    """
    return _clamp_one(input, min, True)


def clamp_max(input, max):
    """min(input, max) elementwise.

    >>> import autograd_core as torch
    >>> torch.clamp_max(torch.tensor([-2., 3.]), 0)
    tensor([-2.,  0.])
    """
    return _clamp_one(input, max, False)


cdef Tensor _clamp_inplace(Tensor self, object min, object max, str fname):
    others = tuple(t for t in (min, max) if isinstance(t, Tensor))
    return _inplace_apply(self, lambda s, *o: _clamp(s, min, max, fname), others)


@_tensor_method("clamp")
def _m_clamp(self, min=None, max=None):
    return _clamp(self, min, max, "clamp")


@_tensor_method("clip")
def _m_clip(self, min=None, max=None):
    return _clamp(self, min, max, "clip")


@_tensor_method("clamp_")
def _m_clamp_(self, min=None, max=None):
    return _clamp_inplace(self, min, max, "clamp")


@_tensor_method("clip_")
def _m_clip_(self, min=None, max=None):
    return _clamp_inplace(self, min, max, "clip")


@_tensor_method("clamp_min")
def _m_clamp_min(self, min):
    return _clamp_one(self, min, True)


@_tensor_method("clamp_max")
def _m_clamp_max(self, max):
    return _clamp_one(self, max, False)


@_tensor_method("clamp_min_")
def _m_clamp_min_(self, min):
    others = (min,) if isinstance(min, Tensor) else ()
    return _inplace_apply(self, lambda s, *o: _clamp_one(s, min, True), others)


@_tensor_method("clamp_max_")
def _m_clamp_max_(self, max):
    others = (max,) if isinstance(max, Tensor) else ()
    return _inplace_apply(self, lambda s, *o: _clamp_one(s, max, False), others)


# ================================================================ lerp

@cython.final
cdef class LerpBackward0(_EwNode):
    # c0: weight (a number)
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        w = float(self.c0)
        ga = _mul_scalar(g, 1.0 - w) if _needs(self, 0) else None
        gb = _mul_scalar(g, self.c0) if _needs(self, 1) else None
        return (ga, gb)


@cython.final
cdef class LerpBackward1(_EwNode):
    # s0 self, s1 end, s2 weight
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        ga = gb = gw = None
        if _needs(self, 0) or _needs(self, 1):
            w = self.t2()
            if _needs(self, 0):
                ga = _mul(g, _rsub_s(w, 1))
            if _needs(self, 1):
                gb = _mul(g, w)
        if _needs(self, 2):
            gw = _mul(g, _sub(self.t1(), self.t0()))
        return (ga, gb, gw)


cdef object _lerp_values(cnp.ndarray a, cnp.ndarray b, object w):
    # PyTorch's formula: exact at both ends, stable for |w| < 0.5 and >= 0.5
    diff = b - a
    small = np.abs(w) < 0.5
    return np.where(small, a + w * diff, b - diff * (1 - w))


cdef Tensor _lerp(object input, object end, object weight):
    cdef Tensor a = _require_t(input, "lerp", "input", 1)
    cdef Tensor b = _require_t(end, "lerp", "end", 2)
    cdef dtype d = _dtype_of(a._data)
    if _dtype_of(b._data) is not d:
        raise RuntimeError(f"expected dtype {_c_type_name(d)} for `end` but got dtype "
                           f"{_c_type_name(_dtype_of(b._data))}")
    cdef bint w_tensor = isinstance(weight, Tensor)
    if w_tensor and _dtype_of((<Tensor>weight)._data) is not d:
        raise RuntimeError(f"expected dtype {_c_type_name(d)} for `weight` but got dtype "
                           f"{_c_type_name(_dtype_of((<Tensor>weight)._data))}")
    if d.category != 2:
        raise _not_implemented_for("lerp_kernel_tensor" if w_tensor else "lerp_kernel_scalar", d)
    if not w_tensor:
        sw = _scalar_arg(weight)
        if sw is None:
            raise TypeError(f"lerp(): argument 'weight' must be Number or Tensor, not "
                            f"{type(weight).__name__}")
        weight = sw
    operands = (a, b, weight)
    out = _ew_values(lambda x, y, w: _lerp_values(x, y, w), operands, d)
    cdef Tensor r = _make(out)
    cdef _EwNode node
    if _should_record(operands, out):
        if w_tensor:
            node = <LerpBackward1>LerpBackward1.__new__(LerpBackward1)
            node.save0(a)
            node.save1(b)
            node.save2(weight)
            _record_opt(node, r, operands)
        else:
            node = <LerpBackward0>LerpBackward0.__new__(LerpBackward0)
            node.c0 = weight
            _record_opt(node, r, (a, b))
    return r


def lerp(input, end, weight):
    """input + weight * (end - input): linear interpolation (weight a number or tensor).

    >>> import autograd_core as torch
    >>> torch.lerp(torch.tensor([0., 10.]), torch.tensor([10., 20.]), 0.25)
    tensor([ 2.5000, 12.5000])
    """
    return _lerp(input, end, weight)


@_tensor_method("lerp")
def _m_lerp(self, end, weight):
    return _lerp(self, end, weight)


@_tensor_method("lerp_")
def _m_lerp_(self, end, weight):
    others = tuple(t for t in (end, weight) if isinstance(t, Tensor))
    return _inplace_apply(self, lambda s, *o: _lerp(s, end, weight), others)


# ================================================================ addcmul / addcdiv

@cython.final
cdef class AddcmulBackward0(_EwNode):
    # s1 tensor1, s2 tensor2, c0 value
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        v = self.c0
        g0 = g if _needs(self, 0) else None
        g1 = g2 = None
        if _needs(self, 1):
            t2 = self.t2()
            g1 = _mul(g, t2 if v == 1 else _mul_scalar(t2, v))
        if _needs(self, 2):
            t1 = self.t1()
            g2 = _mul(g, t1 if v == 1 else _mul_scalar(t1, v))
        return (g0, g1, g2)


@cython.final
cdef class AddcdivBackward0(_EwNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        v = self.c0
        g0 = g if _needs(self, 0) else None
        g1 = g2 = None
        t2 = self.t2()
        if _needs(self, 1):
            g1 = _mul(g, _mul_scalar(_reciprocal_any(t2), v))
        if _needs(self, 2):
            t1 = self.t1()
            g2 = _mul(_neg(g), _div(_mul_scalar(t1, v), _mul(t2, t2)))
        return (g0, g1, g2)


_ADDCDIV_INT_MSG = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
    "be implemented as (input + value * autograd_core.trunc(tensor1 / tensor2)).to(input.dtype) "
    "for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes.")


cdef Tensor _addc(object input, object tensor1, object tensor2, object value, bint is_div):
    fname = "addcdiv" if is_div else "addcmul"
    cdef Tensor x = _require_t(input, fname, "input", 1)
    cdef Tensor t1 = _require_t(tensor1, fname, "tensor1", 2)
    cdef Tensor t2 = _require_t(tensor2, fname, "tensor2", 3)
    if _result_type_n((x, t1, t2)).category == 0:
        raise _not_implemented_for(fname + "_cpu_out", bool_)
    if is_div and _dtype_of(t1._data).category != 2 and _dtype_of(t2._data).category != 2:
        raise RuntimeError(_ADDCDIV_INT_MSG)
    sv = _scalar_arg(value)
    if sv is None:
        raise TypeError(f"{fname}(): argument 'value' must be Number, not {type(value).__name__}")
    operands = (x, t1, t2)
    cdef dtype rt = _result_type_n(operands)
    vv = _opnd(sv, rt)
    if is_div:
        fn = lambda a, b, c: np.add(a, np.true_divide(np.multiply(vv, b), c))
    else:
        fn = lambda a, b, c: np.add(a, np.multiply(np.multiply(vv, b), c))
    cdef cnp.ndarray out = _ew_values(fn, operands, rt)
    cdef Tensor r = _make(out)
    cdef _EwNode node
    if _should_record(operands, out):
        if is_div:
            node = <AddcdivBackward0>AddcdivBackward0.__new__(AddcdivBackward0)
        else:
            node = <AddcmulBackward0>AddcmulBackward0.__new__(AddcmulBackward0)
        node.save1(t1)
        node.save2(t2)
        node.c0 = sv
        _record_opt(node, r, operands)
    return r


def addcmul(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 * tensor2.

    >>> import autograd_core as torch
    >>> torch.addcmul(torch.tensor([1.]), torch.tensor([2.]), torch.tensor([3.]), value=2)
    tensor([13.])
    """
    return _addc(input, tensor1, tensor2, value, False)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 / tensor2.

    >>> import autograd_core as torch
    >>> torch.addcdiv(torch.tensor([1.]), torch.tensor([3.]), torch.tensor([2.]), value=2)
    tensor([4.])
    """
    return _addc(input, tensor1, tensor2, value, True)


@_tensor_method("addcmul")
def _m_addcmul(self, tensor1, tensor2, *, value=1):
    return _addc(self, tensor1, tensor2, value, False)


@_tensor_method("addcdiv")
def _m_addcdiv(self, tensor1, tensor2, *, value=1):
    return _addc(self, tensor1, tensor2, value, True)


@_tensor_method("addcmul_")
def _m_addcmul_(self, tensor1, tensor2, *, value=1):
    return _inplace_apply(self, lambda s, a, b: _addc(s, a, b, value, False),
                          (_require_t(tensor1, "addcmul_", "tensor1", 1),
                           _require_t(tensor2, "addcmul_", "tensor2", 2)))


@_tensor_method("addcdiv_")
def _m_addcdiv_(self, tensor1, tensor2, *, value=1):
    return _inplace_apply(self, lambda s, a, b: _addc(s, a, b, value, True),
                          (_require_t(tensor1, "addcdiv_", "tensor1", 1),
                           _require_t(tensor2, "addcdiv_", "tensor2", 2)))


# ================================================================ where (method form)

@_tensor_method("where")
def _m_where(self, condition, other):
    return where(condition, self, other)


# ================================================================ comparisons

_CMP_UFUNCS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
               "gt": np.greater, "ge": np.greater_equal}
_CMP_ALIASES = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge",
                "not_equal": "ne", "less": "lt", "less_equal": "le", "greater": "gt",
                "greater_equal": "ge"}
_CMP_SIGS = (" * (Tensor input, Tensor other, *, Tensor out = None)\n"
             " * (Tensor input, Number other, *, Tensor out = None)")


cdef Tensor _cmp(object input, object other, str name, str fname):
    if not isinstance(input, Tensor):
        raise _type_error_combination(fname, (input, other), _CMP_SIGS)
    o = _check_operand(other)
    if other is None or o is NotImplemented:
        raise _type_error_combination(fname, (input, other), _CMP_SIGS)
    return <Tensor>_compare(<Tensor>input, o, _CMP_UFUNCS[name])


cdef class _CmpInplaceNode(_ZeroGradNode):
    pass


cdef class EqBackward0(_CmpInplaceNode):
    pass


cdef class EqBackward1(_CmpInplaceNode):
    pass


cdef class NeBackward0(_CmpInplaceNode):
    pass


cdef class NeBackward1(_CmpInplaceNode):
    pass


cdef class LtBackward0(_CmpInplaceNode):
    pass


cdef class LtBackward1(_CmpInplaceNode):
    pass


cdef class LeBackward0(_CmpInplaceNode):
    pass


cdef class LeBackward1(_CmpInplaceNode):
    pass


cdef class GtBackward0(_CmpInplaceNode):
    pass


cdef class GtBackward1(_CmpInplaceNode):
    pass


cdef class GeBackward0(_CmpInplaceNode):
    pass


cdef class GeBackward1(_CmpInplaceNode):
    pass


_CMP_INPLACE_NODES = {
    ("eq", False): EqBackward0, ("eq", True): EqBackward1,
    ("ne", False): NeBackward0, ("ne", True): NeBackward1,
    ("lt", False): LtBackward0, ("lt", True): LtBackward1,
    ("le", False): LeBackward0, ("le", True): LeBackward1,
    ("gt", False): GtBackward0, ("gt", True): GtBackward1,
    ("ge", False): GeBackward0, ("ge", True): GeBackward1,
}


cdef Tensor _cmp_inplace(Tensor self, object other, str name, str fname):
    """self.eq_(other) & co: the comparison written into self's dtype; with grad, a node
    with zero derivative (PyTorch's EqBackward0/1 ...)."""
    _check_inplace(self)
    o = _check_operand(other)
    if other is None or o is NotImplemented:
        raise _type_error_combination(fname, (other,), _CMP_SIGS)
    cdef Tensor mask = <Tensor>_compare(self, o, _CMP_UFUNCS[name])
    _check_inplace_shape(self, mask)
    cdef Tensor r = _make(<cnp.ndarray>mask._data.astype(self._data.dtype))
    cdef bint other_t = isinstance(o, Tensor)
    if _inplace_needs_grad(self, (o,)) and _dtype_of(self._data).category == 2:
        node = <Node>_CMP_INPLACE_NODES[(name, other_t)].__new__(_CMP_INPLACE_NODES[(name, other_t)])
        _record_opt(node, r, (_snapshot(self), o) if other_t else (_snapshot(self),))
        return _rebase_history(self, r)
    _write_values(self, r._data)
    _bump_version(self)
    return self


def _register_comparisons():
    for alias, name in _CMP_ALIASES.items():
        _TENSOR_METHODS[alias] = _cmp_method(name, alias)
        _TENSOR_METHODS[alias + "_"] = _cmp_inplace_method(name, alias + "_")


def _cmp_method(str name, str fname):
    def method(self, other):
        return _cmp(self, other, name, fname)
    return method


def _cmp_inplace_method(str name, str fname):
    def method(self, other):
        return _cmp_inplace(self, other, name, fname)
    return method


_register_comparisons()


def eq(input, other):
    """input == other elementwise (a bool tensor, never differentiable).

    >>> import autograd_core as torch
    >>> torch.eq(torch.tensor([1., 2.]), 2)
    tensor([False,  True])
    """
    return _cmp(input, other, "eq", "eq")


def ne(input, other):
    """input != other elementwise.

    >>> import autograd_core as torch
    >>> torch.ne(torch.tensor([1., 2.]), 2)
    tensor([ True, False])
    """
    return _cmp(input, other, "ne", "ne")


def lt(input, other):
    """input < other elementwise.

    >>> import autograd_core as torch
    >>> torch.lt(torch.tensor([1., 2.]), 2)
    tensor([ True, False])
    """
    return _cmp(input, other, "lt", "lt")


def le(input, other):
    """input <= other elementwise.

    >>> import autograd_core as torch
    >>> torch.le(torch.tensor([1., 3.]), 2)
    tensor([ True, False])
    """
    return _cmp(input, other, "le", "le")


def gt(input, other):
    """input > other elementwise.

    >>> import autograd_core as torch
    >>> torch.gt(torch.tensor([1., 3.]), 2)
    tensor([False,  True])
    """
    return _cmp(input, other, "gt", "gt")


def ge(input, other):
    """input >= other elementwise.

    >>> import autograd_core as torch
    >>> torch.ge(torch.tensor([1., 2.]), 2)
    tensor([False,  True])
    """
    return _cmp(input, other, "ge", "ge")


def not_equal(input, other):
    """Alias of ne.

    >>> import autograd_core as torch
    >>> torch.not_equal(torch.tensor([1., 2.]), 2)
    tensor([ True, False])
    """
    return _cmp(input, other, "ne", "not_equal")


def less(input, other):
    """Alias of lt.

    >>> import autograd_core as torch
    >>> torch.less(torch.tensor([1., 2.]), 2)
    tensor([ True, False])
    """
    return _cmp(input, other, "lt", "less")


def less_equal(input, other):
    """Alias of le.

    >>> import autograd_core as torch
    >>> torch.less_equal(torch.tensor([1., 3.]), 2)
    tensor([ True, False])
    """
    return _cmp(input, other, "le", "less_equal")


def greater(input, other):
    """Alias of gt.

    >>> import autograd_core as torch
    >>> torch.greater(torch.tensor([1., 3.]), 2)
    tensor([False,  True])
    """
    return _cmp(input, other, "gt", "greater")


def greater_equal(input, other):
    """Alias of ge.

    >>> import autograd_core as torch
    >>> torch.greater_equal(torch.tensor([1., 2.]), 2)
    tensor([False,  True])
    """
    return _cmp(input, other, "ge", "greater_equal")


# ================================================================ logical ops

_LOGICAL_UFUNCS = {"logical_and": np.logical_and, "logical_or": np.logical_or,
                   "logical_xor": np.logical_xor}


cdef Tensor _logical(object input, object other, str name):
    cdef Tensor a = _require_t(input, name, "input", 1)
    cdef Tensor b = _require_t(other, name, "other", 2)
    ufunc = _LOGICAL_UFUNCS[name]
    try:
        out = ufunc(a._data != 0, b._data != 0)
    except ValueError:
        raise _broadcast_error(_shp(a._data), _shp(b._data)) from None
    return _make(_as_array(out))


cdef Tensor _logical_not(Tensor x):
    return _make(_as_array(x._data == 0))


cdef Tensor _logical_inplace(Tensor self, Tensor r):
    """Write a logical result into self (its dtype); like PyTorch, the op is not
    differentiable and self keeps its history."""
    _check_inplace(self)
    _check_inplace_shape(self, r)
    _write_values(self, <cnp.ndarray>r._data.astype(self._data.dtype))
    _bump_version(self)
    return self


def logical_and(input, other):
    """Elementwise AND of the truth values (nonzero is True).

    >>> import autograd_core as torch
    >>> torch.logical_and(torch.tensor([1., 0.]), torch.tensor([2., 2.]))
    tensor([ True, False])
    """
    return _logical(input, other, "logical_and")


def logical_or(input, other):
    """Elementwise OR of the truth values.

    >>> import autograd_core as torch
    >>> torch.logical_or(torch.tensor([1., 0.]), torch.tensor([0., 0.]))
    tensor([ True, False])
    """
    return _logical(input, other, "logical_or")


def logical_xor(input, other):
    """Elementwise XOR of the truth values.

    >>> import autograd_core as torch
    >>> torch.logical_xor(torch.tensor([1., 0.]), torch.tensor([1., 3.]))
    tensor([False,  True])
    """
    return _logical(input, other, "logical_xor")


def logical_not(input):
    """Elementwise NOT of the truth values.

    >>> import autograd_core as torch
    >>> torch.logical_not(torch.tensor([1., 0.]))
    tensor([False,  True])
    """
    return _logical_not(_arg(input, "logical_not"))


def _register_logical():
    for name in _LOGICAL_UFUNCS:
        _TENSOR_METHODS[name] = _logical_method(name)
        _TENSOR_METHODS[name + "_"] = _logical_inplace_method(name)
    _TENSOR_METHODS["logical_not"] = lambda self: _logical_not(self)
    _TENSOR_METHODS["logical_not_"] = lambda self: _logical_inplace(self, _logical_not(self))


def _logical_method(str name):
    def method(self, other):
        return _logical(self, other, name)
    return method


def _logical_inplace_method(str name):
    def method(self, other):
        return _logical_inplace(self, _logical(self, other, name))
    return method


_register_logical()


# ================================================================ predicates (bool outputs)

cdef Tensor _predicate(Tensor x, str name):
    cdef cnp.ndarray xa = x._data
    cdef dtype d = _dtype_of(xa)
    if d.category != 2:
        if name == "isfinite":
            return _make(np.ones(_shp(xa), dtype=bool))
        if name == "signbit" and d.is_signed:
            return _make(_as_array(xa < 0))
        return _make(np.zeros(_shp(xa), dtype=bool))
    if name == "isnan":
        r = np.isnan(xa)
    elif name == "isinf":
        r = np.isinf(xa)
    elif name == "isfinite":
        r = np.isfinite(xa)
    elif name == "isposinf":
        r = np.isposinf(xa)
    elif name == "isneginf":
        r = np.isneginf(xa)
    else:
        r = np.signbit(xa)
    return _make(_as_array(r))


def isnan(input):
    """True where input is nan.

    >>> import autograd_core as torch
    >>> torch.isnan(torch.tensor([1., float('nan')]))
    tensor([False,  True])
    """
    return _predicate(_arg(input, "isnan"), "isnan")


def isinf(input):
    """True where input is +inf or -inf.

    >>> import autograd_core as torch
    >>> torch.isinf(torch.tensor([1., float('inf')]))
    tensor([False,  True])
    """
    return _predicate(_arg(input, "isinf"), "isinf")


def isfinite(input):
    """True where input is neither inf nor nan.

    >>> import autograd_core as torch
    >>> torch.isfinite(torch.tensor([1., float('inf')]))
    tensor([ True, False])
    """
    return _predicate(_arg(input, "isfinite"), "isfinite")


def isposinf(input):
    """True where input is +inf.

    >>> import autograd_core as torch
    >>> torch.isposinf(torch.tensor([float('inf'), -float('inf'), 1.]))
    tensor([ True, False, False])
    """
    return _predicate(_arg(input, "isposinf"), "isposinf")


def isneginf(input):
    """True where input is -inf.

    >>> import autograd_core as torch
    >>> torch.isneginf(torch.tensor([float('inf'), -float('inf'), 1.]))
    tensor([False,  True, False])
    """
    return _predicate(_arg(input, "isneginf"), "isneginf")


def signbit(input):
    """True where the sign bit is set (negative numbers and -0.0).

    >>> import autograd_core as torch
    >>> torch.signbit(torch.tensor([-1., 0., 2.]))
    tensor([ True, False, False])
    """
    return _predicate(_arg(input, "signbit"), "signbit")


def _register_predicates():
    for name in ("isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit"):
        _TENSOR_METHODS[name] = _predicate_method(name)


def _predicate_method(str name):
    def method(self):
        return _predicate(self, name)
    return method


_register_predicates()


# ================================================================ random sampling

cdef object _creation_module = None


cdef object _generator(object generator):
    """The generator behind manual_seed (autograd_core._creation._rng), or the given one."""
    global _creation_module
    if generator is not None:
        if isinstance(generator, np.random.Generator):
            return generator
        rng = getattr(generator, "_rng", None)
        if rng is not None:
            return rng
        raise TypeError(f"expected a Generator, but got {type(generator).__name__}")
    if _creation_module is None:
        import autograd_core._creation as m
        _creation_module = m
    return _creation_module._rng


cdef cnp.ndarray _uniform_values(object rng, tuple shape, dtype d, double lo, double hi):
    if d.name == "float16":
        # 11 random mantissa bits: exactly representable, never reaches 1
        u = rng.integers(0, 2048, size=shape).astype(np.float32) / np.float32(2048)
        v = (np.float32(lo) + u * np.float32(hi - lo)).astype(np.float16)
    elif d.name == "float32":
        u = rng.random(shape, dtype=np.float32)
        v = np.float32(lo) + u * np.float32(hi - lo)
    else:
        u = rng.random(shape)
        v = lo + u * (hi - lo)
    v = np.asarray(v, dtype=d.np_dtype)
    # rounding to the dtype may reach `hi`: the range is [lo, hi)
    top = np.nextafter(np.asarray(hi, dtype=d.np_dtype), np.asarray(lo, dtype=d.np_dtype))
    return _as_array(np.where(v >= np.asarray(hi, dtype=d.np_dtype), top, v).astype(d.np_dtype) if hi > lo else v)


cdef cnp.ndarray _normal_values(object rng, tuple shape, dtype d, double mean, double std):
    if d.name == "float64":
        v = mean + std * rng.standard_normal(shape)
    else:
        v = (np.float32(mean) + np.float32(std) * rng.standard_normal(shape, dtype=np.float32))
    return _as_array(np.asarray(v, dtype=d.np_dtype))


cdef int _float_digits(dtype d):
    return {"float16": 11, "float32": 24, "float64": 53}[d.name]


cdef Tensor _new_leaf(cnp.ndarray arr, bint requires_grad):
    cdef Tensor t = _make(arr)
    _check_requires_grad_dtype(t, requires_grad)
    t._requires_grad = requires_grad
    return t


cdef Tensor _sample_like(Tensor x, object dtype_arg, object device, bint requires_grad,
                         object generator, int kind, object low=0, object high=1):
    """kind 0: uniform [0, 1), 1: standard normal, 2: integers in [low, high)."""
    if device is not None:
        _check_device(device)
    cdef dtype d = _dtype_of(x._data) if dtype_arg is None else _to_dtype(dtype_arg)
    rng = _generator(generator)
    if kind == 0:
        if d.category != 2:
            raise _not_implemented_for("check_uniform_bounds", d)
        arr = _uniform_values(rng, _shp(x._data), d, 0.0, 1.0)
    elif kind == 1:
        if d.category != 2:
            raise _not_implemented_for("normal_kernel_cpu", d)
        arr = _normal_values(rng, _shp(x._data), d, 0.0, 1.0)
    else:
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={low} >= to={high}")
        arr = _as_array(rng.integers(low, high, size=_shp(x._data)).astype(d.np_dtype))
    return _new_leaf(arr, requires_grad)


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None, generator=None):
    """Uniform samples on [0, 1) with input's shape (and dtype unless given); seeded by
    manual_seed.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand_like(torch.zeros(2)).shape
    autograd_core.Size([2])
    """
    return _sample_like(_arg(input, "rand_like"), dtype, device, requires_grad, generator, 0)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None, generator=None):
    """Standard normal samples with input's shape (and dtype unless given).

    >>> import autograd_core as torch
    >>> torch.randn_like(torch.zeros(2, 3)).shape
    autograd_core.Size([2, 3])
    """
    return _sample_like(_arg(input, "randn_like"), dtype, device, requires_grad, generator, 1)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None, generator=None):
    """Integers drawn uniformly from [low, high) with input's shape (and dtype unless
    given): ``randint_like(x, high)`` or ``randint_like(x, low, high)``.

    >>> import autograd_core as torch
    >>> torch.randint_like(torch.zeros(5, dtype=torch.int64), 3).dtype
    autograd_core.int64
    """
    if high is None:
        low, high = 0, low
    return _sample_like(_arg(input, "randint_like"), dtype, device, requires_grad, generator, 2,
                        int(low), int(high))


cdef class NormalBackward0(_ZeroGradNode):
    pass


cdef class UniformBackward0(_ZeroGradNode):
    pass


cdef class RandomBackward0(_ZeroGradNode):
    pass


cdef class RandomBackward1(_ZeroGradNode):
    pass


cdef class RandomBackward2(_ZeroGradNode):
    pass


cdef Tensor _random_fill(Tensor self, cnp.ndarray values, type node_cls):
    """Write sampled values into self; with grad, PyTorch's zero-derivative node."""
    _check_inplace(self)
    cdef Tensor r
    if _inplace_needs_grad(self, ()) and _dtype_of(self._data).category == 2:
        r = _make(values)
        _record_opt(<Node>node_cls.__new__(node_cls), r, (_snapshot(self),))
        return _rebase_history(self, r)
    _write_values(self, values)
    _bump_version(self)
    return self


@_tensor_method("normal_")
def _m_normal_(self, mean=0, std=1, *, generator=None):
    cdef Tensor t = self
    cdef dtype d = _dtype_of(t._data)
    if d.category != 2:
        raise _not_implemented_for("normal_kernel_cpu", d)
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    return _random_fill(t, _normal_values(_generator(generator), _shp(t._data), d, mean, std),
                        NormalBackward0)


@_tensor_method("uniform_")
def _m_uniform_(self, *args, generator=None, **kwargs):
    cdef Tensor t = self
    lo = args[0] if len(args) > 0 else kwargs.pop("from", 0)
    hi = args[1] if len(args) > 1 else kwargs.pop("to", 1)
    if kwargs:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    cdef dtype d = _dtype_of(t._data)
    if d.category != 2:
        raise _not_implemented_for("check_uniform_bounds", d)
    if lo > hi:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={lo} > to={hi}")
    return _random_fill(t, _uniform_values(_generator(generator), _shp(t._data), d, lo, hi),
                        UniformBackward0)


@_tensor_method("random_")
def _m_random_(self, *args, generator=None, **kwargs):
    """random_() / random_(to) / random_(from, to): integers, stored in self's dtype."""
    cdef Tensor t = self
    cdef dtype d = _dtype_of(t._data)
    if "from" in kwargs or len(args) == 2:
        lo = args[0] if args else kwargs.pop("from")
        hi = args[1] if len(args) > 1 else kwargs.pop("to", None)
        node_cls = RandomBackward0
    elif len(args) == 1 or "to" in kwargs:
        lo = 0
        hi = args[0] if args else kwargs.pop("to")
        node_cls = RandomBackward1
    else:
        lo, hi = 0, None
        node_cls = RandomBackward2
    if kwargs:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if hi is None:
        if d.category == 2:
            hi = (1 << _float_digits(d)) + 1
        elif d.category == 0:
            hi = 2
        else:
            hi = int(np.iinfo(d.np_dtype).max) + 1
    if lo >= hi:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={lo} "
                           f">= to={hi}")
    vals = _generator(generator).integers(lo, hi - 1, size=_shp(t._data), dtype=np.int64,
                                          endpoint=True)
    return _random_fill(t, _as_array(vals.astype(d.np_dtype)), node_cls)
