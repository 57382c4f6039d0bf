# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Convolution (PyTorch's native/Convolution.cpp, Im2Col.cpp, Col2Im.cpp,
# ConvolutionTBC.cpp): im2col/col2im (unfold/fold), the convolution kernel (one GEMM per
# group over the C loops of csrc/agc_nn.c), its hand-written node ConvolutionBackward0
# and forward derivative (_fw_convolution), conv1d/2d/3d and conv_transpose, conv_tbc.


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
            f"but got input.size(1)={cs[1]} and kernel_size=({k[0]}, {k[1]}).")
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
        return (gx, gw, gb)

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
            if G == 1 and Kg >= 32 and c_float(ga):
                # Note [The weight gradient's GEMM]: gw^T = cols @ g as (N*L, OC)
                gw = make(cast_like(np.ascontiguousarray(
                    np.matmul(cols[0], nlc_copy(ga, cN, cOC, cL)).T), ga).reshape(shape_of(w._data)))
            else:
                # np.dot multiplies by the transposed view through BLAS's transpose flag
                gw = make(cast_like(np.dot(gT[0], cols[0].T) if G == 1 else
                                    np.matmul(gT, cols.transpose(0, 2, 1)), ga).reshape(shape_of(w._data)))
            blas_called(G * OCg * N * L * Kg)      # Note [Sharing the cores with BLAS]
        if want_gb and gb is None:
            gb = make(cast_like(ga.reshape(N, OC, L).sum(axis=(0, 2)), ga))
        return (gx, gw, gb)

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


# Note [The weight gradient's GEMM]
# The weight gradient of the plain 2-D convolution is g (OC, N*L) times the forward's
# columns (K, N*L) transposed. OpenBLAS (numpy's) runs a product whose second operand is
# a transposed view well below the rate of a plain one for these shapes (the cnn of
# benchmarks/run.py, one thread: 1.03 ms for its second convolution, K = 144), so with
# K >= 32 the product is taken the other way round, gw^T (K, OC) = cols (K, N*L) @ g as
# (N*L, OC), both operands C-contiguous (0.72 ms, plus about 0.1 ms for that copy of g
# under perf), and transposed back (K x OC elements). With a small K (9: the first convolution) the two
# are even and the copy is not made. The sums are the same products in another order.

ctypedef fused conv_real:
    float
    double


cdef void rows_to_nlc(conv_real *g, conv_real *out, Py_ssize_t N, Py_ssize_t OC,
                      Py_ssize_t L) noexcept nogil:
    """out (N, L, OC) = g (N, OC, L) transposed image by image, in 32 x 32 tiles (a tile's
    source rows and destination rows both stay in cache)."""
    cdef Py_ssize_t n, o0, l0, o, l, oe, le
    cdef conv_real *src
    cdef conv_real *dst
    for n in range(N):
        src = g + n * OC * L
        dst = out + n * OC * L
        for o0 in range(0, OC, 32):
            oe = o0 + 32 if o0 + 32 < OC else OC
            for l0 in range(0, L, 32):
                le = l0 + 32 if l0 + 32 < L else L
                for o in range(o0, oe):
                    for l in range(l0, le):
                        dst[l * OC + o] = src[o * L + l]


cdef cnp.ndarray nlc_copy(cnp.ndarray g, Py_ssize_t N, Py_ssize_t OC, Py_ssize_t L):
    """A C-contiguous float g (N, OC, L) as (N*L, OC) (Note [The weight gradient's GEMM])."""
    cdef cnp.ndarray out = np.empty((N * L, OC), dtype=g.dtype)
    if cnp.PyArray_TYPE(g) == cnp.NPY_FLOAT32:
        with nogil:
            rows_to_nlc(<float *>cnp.PyArray_DATA(g), <float *>cnp.PyArray_DATA(out), N, OC, L)
    else:
        with nogil:
            rows_to_nlc(<double *>cnp.PyArray_DATA(g), <double *>cnp.PyArray_DATA(out), N, OC, L)
    return out


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
    # (the kernel PyTorch's backend selection reaches: a dilated convolution runs
    # slow_conv_dilated, a 3-d one fills its columns in compute_columns3d)
    check_float_kernel(xd, f"slow_conv_transpose{max(nsp, 2)}d_out_cpu" if transposed else
                       "slow_conv_dilated<>" if any(di != 1 for di in d) else
                       "compute_columns3d" if nsp == 3 else "slow_conv2d_cpu")
    cdef Py_ssize_t G = groups
    if G <= 0:
        raise RuntimeError("non-positive groups is not supported")
    cdef tuple xs = shape_of(x._data), ws = shape_of(w._data)
    k = ws[2:]
    if any([v <= 0 for v in s]):
        raise RuntimeError("non-positive stride is not supported")
    if any([v < 0 for v in d]):
        raise RuntimeError("dilation should be greater than zero")
    if any([v == 0 for v in d]):
        # (a zero dilation reaches the kernel's shape check, which has the 2-d view of a
        # 1-d convolution)
        if transposed and nsp <= 2:
            dd = ((1,) + tuple(d)) if nsp == 1 else tuple(d)
            raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: "
                               f"{dd[0]}, dilation_width: {dd[1]}")
        raise RuntimeError(f"dilation should be greater than zero, but got "
                           f"{shape_str(((1,) + tuple(d)) if nsp == 1 else tuple(d))}")
    if any([v < 0 for v in p]):
        raise RuntimeError("negative padding is not supported")
    if any([v < 0 for v in op]):
        raise RuntimeError("negative output_padding is not supported")
    if ws[0] < G:
        raise RuntimeError(
            f"Given groups={G}, expected weight to be at least {G} at dimension 0, but got "
            f"weight of size {shape_str(ws)} instead")
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
    # three edges whatever the bias: a missing one is PyTorch's (None, 0) edge
    cdef tuple inputs = (x, w, b)
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


cdef wrong_weight_dims(Tensor weight, object stride, int nsp):
    """PyTorch sizes the int[] arguments by the weight's dims first: a weight whose dims do
    not match the function's fails there, naming the stride (a single value still passes)."""
    cdef int wnd = cnp.PyArray_NDIM(weight._data)
    s = pair(stride, "stride", nsp)
    if wnd >= 3 and len(s) != 1:
        raise RuntimeError(
            f"expected stride to be a single integer value or a list of {wnd - 2} values to "
            f"match the convolution dimensions, but got stride=[{', '.join([str(v) for v in s])}]")


cdef int _check_conv_input_dims(Tensor input, int nsp, str fname) except -1:
    """conv{nsp}d / conv_transpose{nsp}d take an unbatched or a batched input."""
    cdef int nd = cnp.PyArray_NDIM(input._data)
    if nd != nsp + 1 and nd != nsp + 2:
        raise RuntimeError(
            f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to {fname}, but got "
            f"input of size: {shape_str(shape_of(input._data))}")
    return 0


cdef int _check_conv_weight_dims(Tensor input, Tensor weight, object stride, int nsp) except -1:
    """The weight of a {nsp}-d convolution has nsp + 2 dims (the message names the input as
    the caller has it: conv{nsp}d checks after batching an unbatched input,
    conv_transpose{nsp}d before)."""
    cdef int wnd = cnp.PyArray_NDIM(weight._data)
    if wnd != nsp + 2:
        wrong_weight_dims(weight, stride, nsp)
        raise RuntimeError(
            "weight should have at least three dimensions" if wnd < 3 else
            f"Expected {nsp + 2}-dimensional weight for {nsp + 2}-dimensional input "
            f"{shape_str(shape_of(input._data))}, but got {wnd}-dimensional weight of size "
            f"{shape_str(shape_of(weight._data))} instead")
    return 0


cdef Tensor conv_nd(Tensor input, Tensor weight, Tensor bias, object stride, object padding,
                    object dilation, object groups, int nsp):
    """conv1d / conv2d / conv3d: unbatched inputs, and padding 'valid' / 'same' (asymmetric 'same'
    padding pads the input first, as PyTorch's _convolution_same_mode)."""
    cdef str fname = f"conv{nsp}d"
    cdef int nd = cnp.PyArray_NDIM(input._data), i
    _check_conv_input_dims(input, nsp, fname)
    if nd == nsp + 1:
        return OPS.squeeze(conv_nd(OPS.unsqueeze(input, 0), weight, bias, stride, padding,
                                   dilation, groups, nsp), 0)
    _check_conv_weight_dims(input, weight, stride, nsp)
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
    cdef int nd = cnp.PyArray_NDIM(x._data)
    _check_conv_input_dims(x, nsp, fname)
    _check_conv_weight_dims(x, w, stride, nsp)
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


# ================================================================ conv_tbc

cdef Tensor op_conv_tbc(Tensor self, Tensor weight, Tensor bias, object pad):
    # no forward derivative in PyTorch (Note [Forward AD refusals before the kernel])
    fw_refuse("conv_tbc", (self, weight, bias))
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
    # PyTorch's products are addmm_ of a view (time * batch, channels) of the input's
    # slice into an output of the input's dtype, made for the kernel offsets that
    # overlap the output (none when it is empty in time): there a weight of another
    # dtype is an error, and so is a slice whose time and batch dims cannot merge
    cdef dtype dx = dtype_of(x), dw = dtype_of(w)
    cdef Py_ssize_t B = xs[1], t_k
    cdef bint merges = (cnp.PyArray_SIZE(x) == 0 or B == 1
                        or x.strides[0] == x.strides[1] * B)
    for k in range(K):
        t_k = min(T + p - k, t_out) - max(0, p - k)
        if t_k <= 0:
            continue
        if not merges and t_k > 1:
            raise RuntimeError("view size is not compatible with input tensor's size and "
                               "stride (at least one dimension spans across two contiguous "
                               "subspaces). Use .reshape(...) instead.")
        if dx is not dw:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                               f"{dx.scalar_name} and {dw.scalar_name}")
    if cnp.PyArray_ISCOMPLEX(b) and not cnp.PyArray_ISCOMPLEX(x):
        # the bias is copied into the real output: its real parts, with PyTorch's warning
        b = OPS._to_copy(make(b), dx)._data
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
