# Every op: its forward and, beside it, its backward node. Derivatives are written
# with these same ops, so with create_graph they record and higher orders work;
# outside create_graph the engine runs them with grad mode off (no recording).
#
# Node names are PyTorch's (users print and test them). An op whose derivative is
# not implemented raises when a gradient is needed, naming the op.

# ================================================================ helpers

cdef inline bint _grad_on():
    return agc_recording()


cdef inline bint _is_small_float(cnp.ndarray x):
    cdef int t = cnp.PyArray_TYPE(x)
    return ((t == cnp.NPY_FLOAT or t == cnp.NPY_DOUBLE)
            and cnp.PyArray_IS_C_CONTIGUOUS(x) and cnp.PyArray_SIZE(x) <= AGC_SMALL_N)


cdef inline cnp.ndarray _empty_like(cnp.ndarray x):
    return <cnp.ndarray>cnp.PyArray_EMPTY(cnp.PyArray_NDIM(x), cnp.PyArray_DIMS(x),
                                          cnp.PyArray_TYPE(x), 0)


cdef object _quiet():
    # numpy warns on overflow, 0/0, log(-1); PyTorch silently gives inf/nan.
    return np.errstate(all="ignore")


cdef cnp.ndarray _cast_array(cnp.ndarray x, dtype d):
    if cnp.PyArray_TYPE(x) == d.np_dtype.num:
        return x
    return <cnp.ndarray>x.astype(d.np_dtype)


cdef Tensor _scalar_tensor(object value, dtype d):
    return _make(np.asarray(value, dtype=d.np_dtype))


cdef Tensor _zeros(tuple shape, dtype d):
    return _make(np.zeros(shape, dtype=d.np_dtype))


cdef class _SavedNode(Node):
    """A node that saves its input (self_) and/or its own output (result)."""
    cdef Tensor self_
    cdef long self_version
    cdef cnp.ndarray result
    cdef VersionCounter vc
    cdef long version

    cdef void release_saved(self):
        self.self_ = None
        self.result = None
        self.released = True

    cdef inline Tensor input(self):
        return _unpack(self, self.self_, self.self_version)

    cdef inline Tensor output(self):
        return _unpack_output(self, self.result, self.vc, self.version)



cdef inline void _save_own_output(_SavedNode node, Tensor out):
    """Note [Saved tensor versions]: keep the array and counter, not the Tensor."""
    cdef VersionCounter vc = _vc_of(out)
    node.result = out._data
    node.vc = vc
    node.version = vc.version


# ================================================================ elementwise binary

# op codes shared with csrc/agc_kernels.h
_BINARY_UFUNCS = (np.add, np.subtract, np.multiply, np.true_divide)


cdef cnp.ndarray _binary_values(object a, object b, int op):
    """Values of a OP b (Tensors or numbers, at least one Tensor): PyTorch's type
    promotion and broadcasting, C kernels for small contiguous float arrays."""
    cdef cnp.ndarray xa, xb, out
    cdef bint ta = isinstance(a, Tensor), tb = isinstance(b, Tensor)
    cdef int typ
    cdef dtype rt
    if ta and tb:
        xa = (<Tensor>a)._data
        xb = (<Tensor>b)._data
        typ = cnp.PyArray_TYPE(xa)
        if typ == cnp.PyArray_TYPE(xb) and _is_small_float(xa) and _is_small_float(xb) \
                and _same_shape(xa, xb):
            out = _empty_like(xa)
            if typ == cnp.NPY_FLOAT:
                agc_binary_f32(op, <float *>cnp.PyArray_DATA(xa), <float *>cnp.PyArray_DATA(xb),
                               <float *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
            else:
                agc_binary_f64(op, <double *>cnp.PyArray_DATA(xa), <double *>cnp.PyArray_DATA(xb),
                               <double *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
            return out
    elif ta or tb:
        xa = (<Tensor>(a if ta else b))._data
        s = b if ta else a
        if _is_small_float(xa) and (type(s) is float or type(s) is int):
            out = _empty_like(xa)
            if cnp.PyArray_TYPE(xa) == cnp.NPY_FLOAT:
                agc_binary_scalar_f32(op, <float *>cnp.PyArray_DATA(xa), <double>s, not ta,
                                      <float *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
            else:
                agc_binary_scalar_f64(op, <double *>cnp.PyArray_DATA(xa), <double>s, not ta,
                                      <double *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
            return out
    rt = _result_type2(a, b)
    if op == AGC_DIV and rt.category != 2:
        rt = _default_float
    if op == AGC_SUB and ((ta and _dtype_of((<Tensor>a)._data).category == 0)
                          or (tb and _dtype_of((<Tensor>b)._data).category == 0)
                          or type(a) is bool or type(b) is bool):
        if ta and tb and rt.category == 0:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. "
            "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    oa = _cast_array((<Tensor>a)._data, rt) if ta else a
    ob = _cast_array((<Tensor>b)._data, rt) if tb else b
    ufunc = _BINARY_UFUNCS[op]
    if rt.category == 1:
        oa = _wrap_int_scalar(oa, rt)
        ob = _wrap_int_scalar(ob, rt)
    try:
        with _quiet():
            r = ufunc(oa, ob)
    except ValueError:
        raise _broadcast_error(_shp((<Tensor>a)._data), _shp((<Tensor>b)._data)) from None
    out = _as_array(r)
    if cnp.PyArray_TYPE(out) != rt.np_dtype.num:
        out = out.astype(rt.np_dtype)
    return out


cdef object _wrap_int_scalar(object s, dtype rt):
    """A Python int outside an integer dtype's range wraps around, as PyTorch casts it."""
    if type(s) is int:
        info = np.iinfo(rt.np_dtype)
        if s < info.min or s > info.max:
            return np.array(s & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64).astype(rt.np_dtype)
    return s


_C_TYPE_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
                 "int64": "int64_t"}


cdef class _BinaryNode(Node):
    """Shared state of the arithmetic nodes: saved operands (Tensors, or a number)."""
    cdef Tensor self_
    cdef Tensor other
    cdef object other_scalar
    cdef long self_version
    cdef long other_version

    cdef void release_saved(self):
        self.self_ = None
        self.other = None
        self.other_scalar = None
        self.released = True


cdef class AddBackward0(_BinaryNode):
    cdef object alpha

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        gb = None
        if _needs(self, 1):
            gb = g if self.alpha == 1 else _mul_scalar(g, self.alpha)
        return (g if _needs(self, 0) else None, gb)

    cdef void release_saved(self):
        pass  # saves nothing: a second backward through it is fine, as in PyTorch


cdef class SubBackward0(_BinaryNode):
    cdef object alpha

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        gb = None
        if _needs(self, 1):
            gb = _neg(g) if self.alpha == 1 else _mul_scalar(g, -self.alpha)
        return (g if _needs(self, 0) else None, gb)

    cdef void release_saved(self):
        pass


cdef class RsubBackward1(Node):
    cdef tuple apply(self, tuple grads):
        return (_neg(grads[0]),)


cdef class MulBackward0(_BinaryNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        ga = gb = None
        if _needs(self, 0):
            if self.other is not None:
                ga = _mul(g, _unpack(self, self.other, self.other_version))
            else:
                if self.released:
                    raise RuntimeError(_MSG_BACKWARD_TWICE)
                ga = _mul_scalar(g, self.other_scalar)
        if self.next_nodes[1] is not None:
            gb = _mul(g, _unpack(self, self.self_, self.self_version))
        return (ga, gb)


cdef class DivBackward0(_BinaryNode):
    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        ga = gb = None
        if self.other is None:  # divided by a number
            if self.released:
                raise RuntimeError(_MSG_BACKWARD_TWICE)
            return (_div_scalar(g, self.other_scalar), None)
        other = _unpack(self, self.other, self.other_version)
        if _needs(self, 0):
            ga = _div(g, other)
        if _needs(self, 1):
            a = _unpack(self, self.self_, self.self_version)
            gb = _mul(_neg(g), _div(_div(a, other), other))  # PyTorch's -grad * ((a / b) / b)
        return (ga, gb)


cdef inline _BinaryNode _save_operands(_BinaryNode node, Tensor a, Tensor b, bint need_a, bint need_b):
    if need_a and a is not None:
        node.self_ = a
        node.self_version = _version_for_save(a)
    if need_b and b is not None:
        node.other = b
        node.other_version = _version_for_save(b)
    return node


cdef Tensor _binary_record(int op, Tensor a, object b, object alpha):
    """a OP b with b a Tensor or a number (right operand), recorded when needed."""
    cdef bint b_is_t = isinstance(b, Tensor)
    cdef cnp.ndarray out
    cdef Tensor r
    cdef _BinaryNode node
    if alpha != 1 and b_is_t:
        # add/sub with alpha: a OP (alpha * b) keeps one node, as PyTorch's add
        out = _binary_values(a, _make(_binary_values(b, alpha, AGC_MUL)), op)
    elif alpha != 1:
        out = _binary_values(a, b * alpha, op)
    else:
        out = _binary_values(a, b, op)
    r = _make(out)
    if not _grad_on():
        return r
    cdef bint ra = a._requires_grad
    cdef bint rb = b_is_t and (<Tensor>b)._requires_grad
    if not (ra or rb):
        return r
    if not (_dtype_of(out).is_floating_point):
        return r
    if op == AGC_ADD:
        node = <AddBackward0>AddBackward0.__new__(AddBackward0)
        (<AddBackward0>node).alpha = alpha
    elif op == AGC_SUB:
        node = <SubBackward0>SubBackward0.__new__(SubBackward0)
        (<SubBackward0>node).alpha = alpha
    elif op == AGC_MUL:
        node = <MulBackward0>MulBackward0.__new__(MulBackward0)
        if b_is_t:
            _save_operands(node, a, <Tensor>b, rb, ra)
        else:
            node.other_scalar = b
    else:
        node = <DivBackward0>DivBackward0.__new__(DivBackward0)
        if b_is_t:
            _save_operands(node, a, <Tensor>b, rb, True)
        else:
            node.other_scalar = b
    if b_is_t:
        _record2(node, r, a, <Tensor>b)
        ma = _meta_if_differs(a, out)
        mb = _meta_if_differs(<Tensor>b, out)
        if ma is not None or mb is not None:
            node.input_shapes = (ma, mb)
    else:
        _record1(node, r, a)
        node.next_nodes = (node.next_nodes[0], None)
        if a._output_nr:
            node.next_nrs = (a._output_nr, 0)
        ma = _meta_if_differs(a, out)
        if ma is not None:
            node.input_shapes = (ma, None)
    return r


cdef Tensor _add(Tensor a, Tensor b):
    return _binary_record(AGC_ADD, a, b, 1)


cdef Tensor _mul(Tensor a, Tensor b):
    return _binary_record(AGC_MUL, a, b, 1)


cdef Tensor _div(Tensor a, Tensor b):
    return _binary_record(AGC_DIV, a, b, 1)


cdef Tensor _mul_scalar(Tensor a, object s):
    return _binary_record(AGC_MUL, a, s, 1)


cdef Tensor _div_scalar(Tensor a, object s):
    return _binary_record(AGC_DIV, a, s, 1)


cdef object _check_operand(object x):
    if isinstance(x, Tensor):
        return x
    if type(x) is float or type(x) is int or type(x) is bool:
        return x
    if isinstance(x, (np.integer, np.floating, np.bool_)):
        return x.item()
    if isinstance(x, (int, float)):
        return x
    if isinstance(x, np.ndarray) and x.dtype.num < 64 and _BY_TYPENUM[x.dtype.num] is not None:
        return _make(x)  # PyTorch accepts an ndarray operand as a tensor of its dtype
    return NotImplemented


cdef object _add_any(Tensor a, object b, object alpha):
    b = _check_operand(b)
    if b is NotImplemented:
        return b
    return _binary_record(AGC_ADD, a, b, alpha)


cdef object _sub_any(Tensor a, object b):
    b = _check_operand(b)
    if b is NotImplemented:
        return b
    return _binary_record(AGC_SUB, a, b, 1)


cdef object _mul_any(Tensor a, object b):
    b = _check_operand(b)
    if b is NotImplemented:
        return b
    return _binary_record(AGC_MUL, a, b, 1)


cdef object _div_any(Tensor a, object b):
    b = _check_operand(b)
    if b is NotImplemented:
        return b
    return _binary_record(AGC_DIV, a, b, 1)


cdef object _rsub_scalar(Tensor a, object s):
    """s - a for a number s (PyTorch's rsub: RsubBackward1)."""
    s = _check_operand(s)
    if s is NotImplemented:
        return s
    cdef Tensor r = _make(_binary_values(s, a, AGC_SUB))
    if _grad_on() and a._requires_grad and _dtype_of(r._data).is_floating_point:
        _record1(RsubBackward1.__new__(RsubBackward1), r, a)
    return r


cdef object _rdiv_scalar(Tensor a, object s):
    """s / a, which PyTorch computes as reciprocal(a) * s."""
    s = _check_operand(s)
    if s is NotImplemented:
        return s
    if not _dtype_of(a._data).is_floating_point:
        a = _cast(a, _default_float)
    return _mul_scalar(_reciprocal(a), s)


cdef class ReciprocalBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        r = self.output()
        return (_neg(_mul(grads[0], _mul(r, r))),)


cdef Tensor _reciprocal(Tensor a):
    cdef Tensor r
    with _quiet():
        r = _make(_as_array(np.reciprocal(a._data)))
    if _grad_on() and a._requires_grad:
        node = <ReciprocalBackward0>ReciprocalBackward0.__new__(ReciprocalBackward0)
        _save_own_output(node, r)
        _record1(node, r, a)
    return r


cdef object _nondiff_binary(object a, object b, object ufunc, str name):
    b = _check_operand(b)
    if b is NotImplemented:
        return b
    cdef dtype rt = _result_type2(a, b)
    oa = _cast_array((<Tensor>a)._data, rt) if isinstance(a, Tensor) else a
    ob = _cast_array((<Tensor>b)._data, rt) if isinstance(b, Tensor) else b
    try:
        with _quiet():
            r = _make(_as_array(ufunc(oa, ob)))
    except ValueError:
        raise _broadcast_error(np.shape(oa), np.shape(ob)) from None
    except TypeError:
        raise NotImplementedError(
            f"\"{name}_cpu\" not implemented for '{_legacy_scalar_name(rt)}'") from None
    if _grad_on() and ((isinstance(a, Tensor) and (<Tensor>a)._requires_grad)
                       or (isinstance(b, Tensor) and (<Tensor>b)._requires_grad)):
        if _dtype_of(r._data).is_floating_point:
            node = <_NotImplementedBackward>_NotImplementedBackward.__new__(_NotImplementedBackward)
            node.op_name = name
            _record_n(node, r, [x for x in (a, b) if isinstance(x, Tensor)])
    return r


cdef class _NotImplementedBackward(Node):
    """Records an op without a derivative: backward through it raises, naming it."""
    cdef str op_name

    cdef tuple apply(self, tuple grads):
        raise RuntimeError(f"the derivative for '{self.op_name}' is not implemented.")


cdef object _compare(Tensor a, object b, object ufunc):
    if b is None:
        return False if ufunc is np.equal else (True if ufunc is np.not_equal else NotImplemented)
    b = _check_operand(b)
    if b is NotImplemented:
        return b
    cdef dtype rt = _result_type2(a, b)
    oa = _cast_array(a._data, rt)
    ob = _cast_array((<Tensor>b)._data, rt) if isinstance(b, Tensor) else b
    try:
        return _make(_as_array(ufunc(oa, ob)))
    except ValueError:
        raise _broadcast_error(_shp(a._data), np.shape(ob)) from None


# ---------------------------------------------------------------- pow

cdef class PowBackward0(_SavedNode):
    """x ** p for a number p."""
    cdef object exponent

    cdef tuple apply(self, tuple grads):
        x = self.input()
        p = self.exponent
        if p == 0:
            return (_zeros(_shp(x._data), _dtype_of(x._data)),)
        return (_mul(grads[0], _mul_scalar(_pow_scalar(x, p - 1), p)),)


cdef class PowBackward1(_SavedNode):
    """x ** y for tensors x and y."""
    cdef Tensor exponent
    cdef long exponent_version

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        x = _unpack(self, self.self_, self.self_version)
        y = _unpack(self, self.exponent, self.exponent_version)
        gx = gy = None
        if _needs(self, 0):
            gx = _mul(g, _mul(y, _pow_tensor(x, _sub_scalar(y, 1))))
        if _needs(self, 1):
            r = self.output()
            # d/dy x**y = x**y log x, taken as 0 where x == 0 and y >= 0 (PyTorch).
            zero_base = (x._data == 0) & (y._data >= 0)
            gy = _where(zero_base, _zeros((), _dtype_of(r._data)), _mul(g, _mul(r, _log(x))))
        return (gx, gy)

    cdef void release_saved(self):
        self.exponent = None
        _SavedNode.release_saved(self)


cdef class PowBackward2(_SavedNode):
    """b ** y for a number b."""
    cdef object base
    cdef Tensor exponent
    cdef long exponent_version

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        r = self.output()
        if self.base == 0:
            y = _unpack(self, self.exponent, self.exponent_version)
            return (_where(y._data >= 0, _zeros((), _dtype_of(r._data)),
                           _mul(g, _mul_scalar(r, float(np.log(np.float64(self.base)))))),)
        return (_mul(g, _mul_scalar(r, float(np.log(np.float64(self.base))))),)

    cdef void release_saved(self):
        self.exponent = None
        _SavedNode.release_saved(self)


cdef void _check_int_pow(dtype rt, object exponent_values) except *:
    if rt.category != 2 and np.any(np.asarray(exponent_values) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")


cdef Tensor _pow_scalar(Tensor x, object p):
    cdef dtype rt = _result_type2(x, p)
    _check_int_pow(rt, p)
    if rt.category == 1 and type(p) is int and _wrap_int_scalar(p, rt) is not p:
        raise RuntimeError(f"value cannot be converted to type {_C_TYPE_NAMES[rt.name]} "
                           "without overflow")
    cdef cnp.ndarray xa = _cast_array(x._data, rt)
    with _quiet():
        if p == 2:
            out = np.multiply(xa, xa)
        else:
            out = np.power(xa, p)
    cdef Tensor r = _make(_as_array(out).astype(rt.np_dtype, copy=False))
    if _grad_on() and x._requires_grad:
        node = <PowBackward0>PowBackward0.__new__(PowBackward0)
        node.self_ = x
        node.self_version = _version_for_save(x)
        node.exponent = p
        _record1(node, r, x)
    return r


cdef object _int_power(cnp.ndarray base, cnp.ndarray exponent):
    """Integer power where negative exponents give 1/base**-e truncated (0, 1 or -1)."""
    neg = exponent < 0
    if not neg.any():
        return np.power(base, exponent)
    out = np.power(base, np.where(neg, 0, exponent))
    inv = np.where(base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0))
    return np.where(neg, inv, out).astype(out.dtype)


cdef Tensor _pow_tensor(Tensor x, Tensor y):
    cdef dtype rt = _result_type2(x, y)
    if rt.category == 0:
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    try:
        with _quiet():
            if rt.category == 1:
                out = _int_power(_cast_array(x._data, rt), _cast_array(y._data, rt))
            else:
                out = np.power(_cast_array(x._data, rt), _cast_array(y._data, rt))
    except ValueError:
        raise _broadcast_error(_shp(x._data), _shp(y._data)) from None
    cdef Tensor r = _make(_as_array(out))
    if _grad_on() and (x._requires_grad or y._requires_grad) and rt.category == 2:
        node = <PowBackward1>PowBackward1.__new__(PowBackward1)
        node.self_ = x
        node.self_version = _version_for_save(x)
        node.exponent = y
        node.exponent_version = _version_for_save(y)
        _save_own_output(node, r)
        _record2(node, r, x, y)
        mx = _meta_if_differs(x, r._data)
        my = _meta_if_differs(y, r._data)
        if mx is not None or my is not None:
            node.input_shapes = (mx, my)
    return r


cdef object _pow_any(Tensor x, object p):
    p = _check_operand(p)
    if p is NotImplemented:
        return p
    if isinstance(p, Tensor):
        return _pow_tensor(x, <Tensor>p)
    return _pow_scalar(x, p)


cdef object _rpow_scalar(Tensor y, object b):
    b = _check_operand(b)
    if b is NotImplemented:
        return b
    cdef dtype rt = _result_type2(b, y)
    with _quiet():
        if rt.category != 2:
            out = _int_power(np.array(b).astype(rt.np_dtype), _cast_array(y._data, rt))
        else:
            out = np.power(b, _cast_array(y._data, rt))
    cdef Tensor r = _make(_as_array(out).astype(rt.np_dtype, copy=False))
    if _grad_on() and y._requires_grad and rt.category == 2:
        node = <PowBackward2>PowBackward2.__new__(PowBackward2)
        node.base = b
        node.exponent = y
        node.exponent_version = _version_for_save(y)
        _save_own_output(node, r)
        _record1(node, r, y)
    return r


cdef Tensor _sub_scalar(Tensor a, object s):
    return _binary_record(AGC_SUB, a, s, 1)


# ---------------------------------------------------------------- where

cdef class WhereBackward0(Node):
    cdef cnp.ndarray condition

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        z = _zeros((), _dtype_of((<Tensor>g)._data))
        ga = _where(self.condition, g, z) if _needs(self, 0) else None
        gb = _where(self.condition, z, g) if _needs(self, 1) else None
        return (ga, gb)


cdef Tensor _where(object condition, Tensor a, Tensor b):
    """Elementwise a where condition (a bool array) holds, else b."""
    cdef dtype rt = _result_type2(a, b)
    cond = np.asarray(condition, dtype=bool)
    try:
        out = np.where(cond, _cast_array(a._data, rt), _cast_array(b._data, rt))
    except ValueError:
        raise _broadcast_error(_shp(a._data), _shp(b._data)) from None
    cdef Tensor r = _make(_as_array(out))
    if _grad_on() and (a._requires_grad or b._requires_grad):
        node = <WhereBackward0>WhereBackward0.__new__(WhereBackward0)
        node.condition = cond
        _record2(node, r, a, b)
        ma = _meta_if_differs(a, r._data)
        mb = _meta_if_differs(b, r._data)
        if ma is not None or mb is not None:
            node.input_shapes = (ma, mb)
    return r


def where(condition, input, other):
    """Elementwise ``input`` where ``condition`` is True, else ``other``.

    >>> import autograd_core as torch
    >>> torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]), 0.)
    tensor([1., 0.])
    """
    if not isinstance(condition, Tensor) or _dtype_of((<Tensor>condition)._data).category != 0:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {_legacy_scalar_name(_dtype_of((<Tensor>condition)._data))}"
                           if isinstance(condition, Tensor) else
                           "where(): argument 'condition' (position 1) must be Tensor, not "
                           + type(condition).__name__)
    a = input if isinstance(input, Tensor) else _scalar_tensor(input, _dtype_for_scalar(input, other))
    b = other if isinstance(other, Tensor) else _scalar_tensor(other, _dtype_for_scalar(other, input))
    return _where((<Tensor>condition)._data, a, b)


cdef dtype _dtype_for_scalar(object s, object partner):
    if isinstance(partner, Tensor):
        return _result_type2(partner, s)
    return _DTYPES[_scalar_rank(s)]


# ================================================================ elementwise unary

_UNARY_UFUNCS = {
    AGC_NEG: np.negative, AGC_ABS: np.abs, AGC_EXP: np.exp, AGC_LOG: np.log,
    AGC_SQRT: np.sqrt, AGC_SIN: np.sin, AGC_COS: np.cos, AGC_TANH: np.tanh,
}


cdef cnp.ndarray _unary_values(cnp.ndarray x, int op):
    cdef cnp.ndarray out
    if _is_small_float(x):
        out = _empty_like(x)
        if cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT:
            agc_unary_f32(op, <float *>cnp.PyArray_DATA(x), <float *>cnp.PyArray_DATA(out),
                          cnp.PyArray_SIZE(x))
        else:
            agc_unary_f64(op, <double *>cnp.PyArray_DATA(x), <double *>cnp.PyArray_DATA(out),
                          cnp.PyArray_SIZE(x))
        return out
    with _quiet():
        if op == AGC_SIGMOID:
            # 1/(1+exp(-x)) overflows quietly to the right limits.
            r = np.exp(np.negative(x))
            r += 1
            return _as_array(np.reciprocal(r, out=r))
        if op == AGC_RELU:
            return _as_array(np.where(x > 0, x, np.where(np.isnan(x), x, 0)).astype(x.dtype, copy=False)) \
                if cnp.PyArray_TYPE(x) != cnp.NPY_BOOL else x.copy()
        return _as_array(_UNARY_UFUNCS[op](x))


cdef class NegBackward0(Node):
    cdef tuple apply(self, tuple grads):
        return (_neg(grads[0]),)


@cython.final
cdef class AbsBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        x = self.input()
        return (_mul(grads[0], _sgn(x)),)


@cython.final
cdef class ExpBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(grads[0], self.output()),)


@cython.final
cdef class LogBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_div(grads[0], self.input()),)


@cython.final
cdef class SqrtBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_div(grads[0], _mul_scalar(self.output(), 2)),)


@cython.final
cdef class SinBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(grads[0], _unary(self.input(), AGC_COS)),)


@cython.final
cdef class CosBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_mul(grads[0], _neg(_unary(self.input(), AGC_SIN))),)


@cython.final
cdef class TanhBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_fused_backward(grads[0], self.output(), AGC_TANH_BACKWARD),)


@cython.final
cdef class SigmoidBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_fused_backward(grads[0], self.output(), AGC_SIGMOID_BACKWARD),)


@cython.final
cdef class ReluBackward0(_SavedNode):
    cdef tuple apply(self, tuple grads):
        return (_threshold_backward(grads[0], self.output()),)


cdef Tensor _unary(Tensor x, int op):
    """neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu."""
    cdef cnp.ndarray xa = x._data
    cdef dtype d = _dtype_of(xa)
    if d.category != 2 and op != AGC_NEG and op != AGC_ABS and op != AGC_RELU:
        xa = _cast_array(xa, _default_float)  # integer input: computed in the default float
    elif d.category == 0 and op == AGC_NEG:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    cdef Tensor r = _make(_unary_values(xa, op))
    if not (_grad_on() and x._requires_grad):
        return r
    cdef _SavedNode node
    if op == AGC_NEG:
        _record1(NegBackward0.__new__(NegBackward0), r, x)
        return r
    if op == AGC_TANH:
        node = <TanhBackward0>TanhBackward0.__new__(TanhBackward0)
    elif op == AGC_EXP:
        node = <ExpBackward0>ExpBackward0.__new__(ExpBackward0)
    elif op == AGC_SIGMOID:
        node = <SigmoidBackward0>SigmoidBackward0.__new__(SigmoidBackward0)
    elif op == AGC_RELU:
        node = <ReluBackward0>ReluBackward0.__new__(ReluBackward0)
    elif op == AGC_SQRT:
        node = <SqrtBackward0>SqrtBackward0.__new__(SqrtBackward0)
    elif op == AGC_ABS:
        node = <AbsBackward0>AbsBackward0.__new__(AbsBackward0)
    elif op == AGC_LOG:
        node = <LogBackward0>LogBackward0.__new__(LogBackward0)
    elif op == AGC_SIN:
        node = <SinBackward0>SinBackward0.__new__(SinBackward0)
    else:
        node = <CosBackward0>CosBackward0.__new__(CosBackward0)
    if op == AGC_TANH or op == AGC_EXP or op == AGC_SIGMOID or op == AGC_RELU or op == AGC_SQRT:
        _save_own_output(node, r)
    else:
        node.self_ = x
        node.self_version = _version_for_save(x)
    _record1(node, r, x)
    return r


cdef class SgnBackward0(Node):
    """sign(x) is piecewise constant: its derivative is zero (not None, as PyTorch)."""

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        return (_zeros(_shp(g._data), _dtype_of(g._data)),)


cdef Tensor _sgn(Tensor x):
    cdef Tensor r = _make(_as_array(np.sign(x._data)))
    if _grad_on() and x._requires_grad:
        _record1(<Node>SgnBackward0.__new__(SgnBackward0), r, x)
    return r


cdef Tensor _neg(Tensor x):
    return _unary(x, AGC_NEG)


cdef Tensor _log(Tensor x):
    return _unary(x, AGC_LOG)


# tanh_backward / sigmoid_backward are ops of their own (as in PyTorch), so the
# first derivative is one fused kernel and the second goes through their nodes.

cdef class TanhBackwardBackward0(Node):
    cdef Tensor grad_output
    cdef Tensor output

    cdef tuple apply(self, tuple grads):
        cdef Tensor gg = grads[0]
        ga = _fused_backward(gg, self.output, AGC_TANH_BACKWARD) if _needs(self, 0) else None
        gy = None
        if _needs(self, 1):  # d/dy g(1 - y^2) = -2 g y
            gy = _mul(gg, _mul_scalar(_mul(self.grad_output, self.output), -2))
        return (ga, gy)

    cdef void release_saved(self):
        self.grad_output = None
        self.output = None
        self.released = True


cdef class SigmoidBackwardBackward0(Node):
    cdef Tensor grad_output
    cdef Tensor output

    cdef tuple apply(self, tuple grads):
        cdef Tensor gg = grads[0]
        ga = _fused_backward(gg, self.output, AGC_SIGMOID_BACKWARD) if _needs(self, 0) else None
        gy = None
        if _needs(self, 1):  # d/dy g y (1 - y) = g (1 - 2y)
            gy = _mul(gg, _mul(self.grad_output, _rsub_scalar(_mul_scalar(self.output, 2), 1)))
        return (ga, gy)

    cdef void release_saved(self):
        self.grad_output = None
        self.output = None
        self.released = True


cdef Tensor _fused_backward(Tensor g, Tensor y, int op):
    cdef cnp.ndarray ga = g._data, ya = y._data, out
    if cnp.PyArray_TYPE(ga) == cnp.PyArray_TYPE(ya) and _is_small_float(ga) \
            and _is_small_float(ya) and _same_shape(ga, ya):
        out = _empty_like(ga)
        if cnp.PyArray_TYPE(ga) == cnp.NPY_FLOAT:
            agc_binary_f32(op, <float *>cnp.PyArray_DATA(ga), <float *>cnp.PyArray_DATA(ya),
                           <float *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
        else:
            agc_binary_f64(op, <double *>cnp.PyArray_DATA(ga), <double *>cnp.PyArray_DATA(ya),
                           <double *>cnp.PyArray_DATA(out), cnp.PyArray_SIZE(out))
    elif op == AGC_TANH_BACKWARD:
        out = _as_array(ga * (1 - ya * ya))
    else:
        out = _as_array(ga * ((1 - ya) * ya))
    cdef Tensor r = _make(out)
    if _grad_on() and (g._requires_grad or y._requires_grad):
        if op == AGC_TANH_BACKWARD:
            node = <TanhBackwardBackward0>TanhBackwardBackward0.__new__(TanhBackwardBackward0)
            (<TanhBackwardBackward0>node).grad_output = g
            (<TanhBackwardBackward0>node).output = y
        else:
            node = <SigmoidBackwardBackward0>SigmoidBackwardBackward0.__new__(SigmoidBackwardBackward0)
            (<SigmoidBackwardBackward0>node).grad_output = g
            (<SigmoidBackwardBackward0>node).output = y
        _record2(node, r, g, y)
    return r


cdef class ThresholdBackwardBackward0(Node):
    cdef cnp.ndarray mask

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        # d/dy of g * (y > 0) is zero almost everywhere: zeros, not None (PyTorch)
        return (_mul(g, _make(self.mask)) if _needs(self, 0) else None,
                _zeros(_shp(g._data), _dtype_of(g._data)) if _needs(self, 1) else None)


cdef Tensor _threshold_backward(Tensor g, Tensor y):
    """relu's derivative: g where y > 0, else 0."""
    mask = _as_array(y._data > 0).astype(g._data.dtype)
    cdef Tensor r = _make(_as_array(np.where(mask != 0, g._data, np.zeros((), g._data.dtype))))  # nan upstream grads stay 0 where y <= 0
    if _grad_on() and (g._requires_grad or y._requires_grad):
        node = <ThresholdBackwardBackward0>ThresholdBackwardBackward0.__new__(ThresholdBackwardBackward0)
        node.mask = mask
        _record2(node, r, g, y)
    return r


# ================================================================ function forms
# torch.exp(x) etc. as C-level functions: no Python wrapper on the hot path.

cdef inline Tensor _arg(object x, str fname):
    if not isinstance(x, Tensor):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    return <Tensor>x


def neg(input):
    """-input."""
    return _unary(_arg(input, "neg"), AGC_NEG)


def abs(input):
    """|input|."""
    return _unary(_arg(input, "abs"), AGC_ABS)


def exp(input):
    """e ** input."""
    return _unary(_arg(input, "exp"), AGC_EXP)


def log(input):
    """Natural logarithm."""
    return _unary(_arg(input, "log"), AGC_LOG)


def sqrt(input):
    """Square root."""
    return _unary(_arg(input, "sqrt"), AGC_SQRT)


def sin(input):
    """Sine."""
    return _unary(_arg(input, "sin"), AGC_SIN)


def cos(input):
    """Cosine."""
    return _unary(_arg(input, "cos"), AGC_COS)


def tanh(input):
    """Hyperbolic tangent.

    >>> import autograd_core as torch
    >>> torch.tanh(torch.tensor([0.]))
    tensor([0.])
    """
    return _unary(_arg(input, "tanh"), AGC_TANH)


def sigmoid(input):
    """1 / (1 + e ** -input)."""
    return _unary(_arg(input, "sigmoid"), AGC_SIGMOID)


def relu(input):
    """max(input, 0) elementwise."""
    return _unary(_arg(input, "relu"), AGC_RELU)


cdef object _fn_result(object r, str fname, object other):
    if r is NotImplemented:
        raise TypeError(f"{fname}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    return r


def add(input, other, *, alpha=1):
    """input + alpha * other."""
    if not isinstance(input, Tensor):
        return _add_any(_arg(other, "add"), input, alpha) if alpha == 1 else \
            _add_any(_scalar_tensor(input, _dtype_for_scalar(input, other)), other, alpha)
    return _fn_result(_add_any(<Tensor>input, other, alpha), "add", other)


def sub(input, other, *, alpha=1):
    """input - alpha * other."""
    if not isinstance(input, Tensor):
        return _rsub_scalar(_arg(other, "sub"), input) if alpha == 1 else \
            _add_any(_scalar_tensor(input, _dtype_for_scalar(input, other)), other, -alpha)
    return _fn_result(_sub_any(<Tensor>input, other) if alpha == 1
                      else _add_any(<Tensor>input, other, -alpha), "sub", other)


def mul(input, other):
    """input * other."""
    if not isinstance(input, Tensor):
        return _mul_any(_arg(other, "mul"), input)
    return _fn_result(_mul_any(<Tensor>input, other), "mul", other)


def div(input, other):
    """input / other (true division)."""
    if not isinstance(input, Tensor):
        return _rdiv_scalar(_arg(other, "div"), input)
    return _fn_result(_div_any(<Tensor>input, other), "div", other)


true_divide = div


def pow(input, exponent):
    """input ** exponent (either may be a number)."""
    if not isinstance(input, Tensor):
        return _rpow_scalar(_arg(exponent, "pow"), input)
    return _fn_result(_pow_any(<Tensor>input, exponent), "pow", exponent)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum of all elements, or over dim (int or tuple)."""
    return _sum(_arg(input, "sum"), dim, keepdim, dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean of all elements, or over dim (int or tuple)."""
    return _mean(_arg(input, "mean"), dim, keepdim, dtype)


def max(input, dim=None, keepdim=False):
    """Largest element, or (values, indices) along dim."""
    return _max_min(_arg(input, "max"), dim, keepdim, True)


def min(input, dim=None, keepdim=False):
    """Smallest element, or (values, indices) along dim."""
    return _max_min(_arg(input, "min"), dim, keepdim, False)


def reshape(input, shape):
    return _reshape(_arg(input, "reshape"), _parse_shape((shape,), "reshape"))


def flatten(input, start_dim=0, end_dim=-1):
    return _flatten(_arg(input, "flatten"), start_dim, end_dim)


def transpose(input, dim0, dim1):
    return _transpose(_arg(input, "transpose"), dim0, dim1)


swapaxes = transpose


def t(input):
    return _t(_arg(input, "t"))


def permute(input, dims):
    return _permute(_arg(input, "permute"), _parse_shape((dims,), "permute"))


def squeeze(input, dim=None):
    return _squeeze(_arg(input, "squeeze"), dim)


def unsqueeze(input, dim):
    return _unsqueeze(_arg(input, "unsqueeze"), dim)


def clone(input, *, memory_format=None):
    return _clone(_arg(input, "clone"))


def numel(input):
    return cnp.PyArray_SIZE(_arg(input, "numel")._data)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def parse_size(args, fname):
    """Sizes as given to zeros(2, 3) / zeros((2, 3)) / zeros(Size), as a tuple."""
    return _parse_shape(tuple(args), fname)

