# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Spatial sampling (PyTorch's native/AffineGridGenerator.cpp, GridSampler.cpp):
# affine_grid_generator and grid_sampler 2-d/3-d (bilinear, nearest, bicubic; zeros,
# border, reflection padding) with their backwards, written in differentiable ops.


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
    flat = base.reshape(n, math.prod(sz[2:]), d + 1)   # (no -1: the batch may be empty)
    with quiet():
        out = np.matmul(flat, np.swapaxes(th, 1, 2)).reshape(sz[:1] + sz[2:] + (d,))
    cdef Tensor result = make(as_array(out.astype((<object>th).dtype, copy=False)))
    record_AffineGridGeneratorBackward0(result, theta, size, align_corners)
    return result


cdef Tensor affine_grid_generator_backward(Tensor grad, object size, bint align_corners):
    """d grid / d theta: base_grid^T @ grad per sample (PyTorch composes it of bmm)."""
    cdef tuple sz = _affine_grid_size(size)
    cdef int d = len(sz) - 2
    cdef Py_ssize_t points = math.prod(sz[2:])
    cdef Tensor base = make(_base_grid(sz, align_corners, grad._data.dtype)
                            .reshape(sz[0], points, d + 1))
    cdef Tensor g = OPS.reshape(grad, (sz[0], points, d))
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


cdef cnp.ndarray grid_sampler_values(Tensor input, Tensor grid, object interpolation_mode,
                                     object padding_mode, bint align_corners, int d):
    """grid_sampler_2d / grid_sampler_3d (d: 2 or 3): refused under forward AD (PyTorch
    has no forward derivative: Note [Forward AD refusals before the kernel]), then the
    kernel's checks and values."""
    fw_refuse(f"grid_sampler_{d}d", (input, grid))
    _check_grid_sampler(input, grid, interpolation_mode, d)
    return _grid_sample_values(input, grid, interpolation_mode, padding_mode, align_corners)


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
