# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Pooling (PyTorch's native/Pooling.cpp, DilatedMaxPool2d/3d.cpp, AdaptiveMaxPooling2d.cpp,
# AdaptiveAveragePooling.cpp, AveragePool2d.cpp): max pooling with indices (2-d, 3-d),
# adaptive max and average pooling, average pooling, and their backward ops and double
# backwards. lp pools, unpooling, fractional max pooling and the 1-d/3-d average pools
# are compositions in nn/functional.py.


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


cdef inline Py_ssize_t _c_half(Py_ssize_t v):
    """v / 2 as C divides (towards zero)."""
    return v // 2 if v >= 0 else -((-v) // 2)


cdef tuple pool_geometry(Tensor x, str fname, object kernel_size, object stride,
                         object padding, object dilation, bint ceil_mode,
                         object divisor_override):
    """The im2col geometry of max_pool2d or avg_pool2d (fname), with PyTorch's checks in
    its order; avg_pool2d has no dilation (None: 1) and max_pool2d no divisor (None)."""
    k = pair(kernel_size, fname + ": kernel_size")
    s = pool_stride(stride, k, fname + ": stride")
    p = pair(padding, fname + ": padding")
    d = (1, 1) if dilation is None else pair(dilation, fname + ": dilation")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    cdef int nd = cnp.PyArray_NDIM(x._data)
    if nd != 3 and nd != 4:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    for i in range(2):   # (pooling_output_shape, for the height then the width)
        if s[i] == 0:
            raise RuntimeError("stride should not be zero")
        if p[i] < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p[i]}")
        if p[i] > _c_half((k[i] - 1) * d[i] + 1):
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p[i]}, "
                f"kernel_size={k[i]} and dilation={d[i]}")
    # (pool2d_shape_check)
    if k[0] <= 0 or k[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {k[0]} kW: "
                           f"{k[1]}")
    if s[0] <= 0 or s[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {s[0]} dW: {s[1]}")
    if d[0] <= 0 or d[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {d[0]} "
                           f"dilationW: {d[1]}")
    cdef tuple sizes = shape_of(x._data)
    if 0 in sizes[nd - 3:] or (nd == 3 and sizes[0] == 0):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size "
                           f"for input, but got:{shape_str(sizes)}")
    if k[1] // 2 < p[1] or k[0] // 2 < p[0]:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got "
                           f"padW = {p[1]}, padH = {p[0]}, kW = {k[1]}, kH = {k[0]}")
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
    full = [v if v is not None else xs[nd - 2 + k] for k, v in enumerate(sizes)]
    for v in full:
        if v < 0:   # (PyTorch's kernel allocates its output first)
            raise RuntimeError(f"Trying to create tensor with negative dimension {v}: "
                               f"{shape_str(tuple(xs[:nd - 2]) + tuple(full))}")
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
