# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Normalization layers (PyTorch's native/layer_norm.cpp, group_norm.cpp,
# Normalization.cpp): layer_norm, native_group_norm (with its jvp) and batch_norm, their
# backward helpers and backward links (Note [Backward links]). instance_norm, rms_norm
# and local_response_norm are compositions in nn/functional.py.


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
