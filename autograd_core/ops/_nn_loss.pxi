# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Losses (PyTorch's native/Loss.cpp, LossNLL.cpp): mse, smooth_l1 and huber with their
# backward ops (Note [Loss backwards are ops]), binary_cross_entropy (and with logits),
# nll_loss (C loops of csrc/agc_nn.c for float/double, numpy otherwise) and
# cross_entropy composed of log_softmax and nll_loss as PyTorch composes it. The other
# *_loss functions (ctc, kl_div, margin losses ...) are compositions in nn/functional.py.


# ================================================================ losses

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
    cdef dtype sd = dtype_of(self._data), td = dtype_of(target._data)
    if td is not sd:   # (PyTorch's TensorIterator common-dtype check: before the kernel's)
        raise RuntimeError(f"Found dtype {td.scalar_name} but expected {sd.scalar_name}")
    check_float_kernel(sd, "binary_cross_entropy")
    check_not_differentiable("binary_cross_entropy", "weight", weight)
    cdef cnp.ndarray xa = self._data, ta = cast_array(target._data, dtype_of(xa))
    # (the kernel checks each element's input, then its target, in order: NaN fails both)
    with quiet():
        bad = ~((xa >= 0) & (xa <= 1)) | ~((ta >= 0) & (ta <= 1))
    if bad.any():
        first = int(np.flatnonzero(bad.reshape(-1))[0])
        if not (0 <= xa.reshape(-1)[first] <= 1):
            raise RuntimeError("all elements of input should be between 0 and 1")
        raise RuntimeError("all elements of target should be between 0 and 1")
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


cdef int _inplace_broadcast(tuple out_shape, tuple other) except -1:
    """An in-place op's shape check: other broadcasts to out_shape (PyTorch's two errors)."""
    cdef tuple b = broadcast_shapes(out_shape, other)
    if b != out_shape:
        raise RuntimeError(f"output with shape {shape_str(out_shape)} doesn't match the "
                           f"broadcast shape {shape_str(b)}")
    return 0


cdef Tensor op_binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor weight,
                                                Tensor pos_weight, object reduction):
    # PyTorch's composite: log_sigmoid(x).mul_((pos_weight - 1).mul(target).add_(1)), then
    # (1 - target).mul_(x).sub_(...) and loss.mul_(weight): its shape errors come from
    # those broadcasts, in place into the input's shape
    check_float_kernel(dtype_of(self._data), "binary_cross_entropy_with_logits")
    check_not_differentiable("binary_cross_entropy_with_logits", "weight", weight)
    check_not_differentiable("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    cdef tuple xs = shape_of(self._data)
    if pos_weight is not None:
        _inplace_broadcast(xs, broadcast_shapes(shape_of(pos_weight._data),
                                                shape_of(target._data)))
    if weight is not None:
        _inplace_broadcast(xs, shape_of(weight._data))
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
    # PyTorch's order: nll_loss_nd's checks (rank, batch sizes, a 1-d input's target),
    # its forward's meta checks (target rank, weight), the target dtype in its kernel
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    cdef tuple xs = shape_of(self._data), tsh = shape_of(target._data)
    if nd >= 2 and (len(tsh) == 0 or tsh[0] != xs[0]):
        raise ValueError(f"Expected input batch_size ({xs[0]}) to match target batch_size "
                         f"({tsh[0] if tsh else 0}).")
    if nd == 1 and len(tsh) == 1 and tsh[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{tsh[0]}")
    if nd <= 2 and len(tsh) > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    cdef Py_ssize_t C = xs[1] if nd >= 2 else xs[0]
    if weight is not None and cnp.PyArray_SIZE(weight._data) != C:
        raise RuntimeError(
            f"weight tensor should be defined either for all {C} classes or no classes but got "
            f"weight tensor of shape: {shape_str(shape_of(weight._data))}")
    check_not_differentiable("nll_loss2d_forward" if nd >= 3 else "nll_loss_forward", "weight",
                             weight)
    # (the shapes' checks precede the kernel's dtype dispatch)
    out_size = (xs[0],) + xs[2:]
    if nd == 4 and tsh[1:] != xs[2:]:
        raise RuntimeError(
            f"size mismatch (got input: {shape_str(xs)} , target: {shape_str(tsh)}")
    if (nd == 3 or nd > 4) and tsh[1:] != xs[2:]:
        raise RuntimeError(f"Expected target size {shape_str(out_size)}, got {shape_str(tsh)}")
    if td is not int64 and td is not uint8:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {td.scalar_name}")
    # (PyTorch's 3-d and 5+-d inputs are reshaped to 4-d, which nll_loss2d runs)
    cdef dtype xd = dtype_of(self._data)
    check_float_kernel(xd, "nll_loss2d_forward_out_frame" if nd >= 3 else "nll_loss_out_frame")
    if weight is not None and dtype_of(weight._data) is not xd:
        # (the kernel reads weight as the input's type: no promotion)
        raise RuntimeError(f"expected scalar type {xd.scalar_name} but found "
                           f"{dtype_of(weight._data).scalar_name}")
    if nd <= 2 or nd == 4:
        if nd == 1 and len(tsh) == 1:
            target = make(target._data.reshape(()))
        return nll_loss_core(self, target, weight, reduction, ignore_index)
    # (N, C, d1, ..., dk), k != 2: as (N, C, 1, d1*...*dk), PyTorch's nll_loss_nd
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
