"""Spectral ops: the three FFT primitives every ``torch.fft`` transform and ``stft`` /
``istft`` are composed of, as PyTorch's: ``_fft_r2c`` (real to complex, optionally
onesided), ``_fft_c2r`` (Hermitian complex to real) and ``_fft_c2c``, each over a list of
dims with a normalization mode (0: none, 1: 1/sqrt(n), 2: 1/n). numpy's pocketfft
computes them (float32 and complex64 in single precision, as PyTorch's kernels).

Their nodes, wiring and Python wrappers are generated from the spectral section of
derivatives.yaml (_gen_spectral.pxi, included at the end). The nodes carry no formula
yet: autograd through complex values is not built (Note [Complex guard]).

This module also holds the argument handling the public functions of
autograd_core/fft.py share (PyTorch's SpectralOps.cpp helpers: dtype promotion, the
normalization names, the canonical s/dim, the zero-padding or trimming of the input).

>>> import autograd_core as torch
>>> torch._fft_r2c(torch.tensor([1., 2., 3., 4.]), [0], 0, True)
tensor([10.+0.j, -2.+2.j, -2.+0.j])
"""
include "_prelude.pxi"


# ================================================================ the primitives

cdef enum:
    # PyTorch's fft_norm_mode
    NORM_NONE = 0        # no scaling
    NORM_BY_ROOT_N = 1   # 1 / sqrt(signal numel)
    NORM_BY_N = 2        # 1 / signal numel


cdef str _np_norm(object normalization, bint forward):
    """numpy's name for a normalization mode applied to a transform in one direction
    (numpy's names say which direction is scaled)."""
    cdef long long m = normalization
    if m == NORM_BY_ROOT_N:
        return "ortho"
    if m == NORM_NONE:
        return "backward" if forward else "forward"
    return "forward" if forward else "backward"


cdef list _fft_dims(Tensor x, object dims):
    """Transform dims checked and made non-negative (PyTorch's maybe_wrap_dims without
    wrapping scalars: a 0-d tensor has no dim to transform)."""
    cdef Py_ssize_t ndim = cnp.PyArray_NDIM(x._data)
    cdef list out = []
    for d in dims:
        if ndim == 0:
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
        out.append(wrap_dim(d, ndim))
    return out


cdef list _batch_first_order(tuple strides, Py_ssize_t ndim, list dims):
    """The dims of a transform's result from outermost to innermost in memory, as
    PyTorch's CPU kernel (MKL's _exec_fft) lays it out: the batch dims first, in the
    input's stride order (largest stride outermost), then the transformed dims in the
    order given (the last one innermost)."""
    cdef list batch = [d for d in range(ndim) if d not in dims]
    batch.sort(key=lambda d: -strides[d])
    return batch + list(dims)


cdef list _sort_dims(tuple strides, list dims, bint exclude_last):
    """The transformed dims in the order PyTorch's kernel runs them (_sort_dims: largest
    input stride first; with exclude_last, the onesided dim stays last)."""
    cdef list head = list(dims[:len(dims) - 1]) if exclude_last else list(dims)
    head.sort(key=lambda d: -strides[d])
    return head + (list(dims[len(dims) - 1:]) if exclude_last else [])


cdef cnp.ndarray _laid_out(cnp.ndarray values, list order):
    """values copied into a buffer whose dims are stored in the given order (outermost
    first), so the result's strides are PyTorch's."""
    cdef tuple shape = shape_of(values)
    cdef cnp.ndarray buf = np.empty(tuple([shape[d] for d in order]), dtype=values.dtype)
    cdef list inverse = [0] * len(order)
    for i, d in enumerate(order):
        inverse[d] = i
    cdef cnp.ndarray out = np.transpose(buf, inverse)
    out[...] = values
    return out


cdef tuple _order_strides(tuple shape, list order):
    """The strides (in elements) of a dense buffer of this shape whose dims are stored
    in the given order (outermost first)."""
    cdef list strides = [0] * len(shape)
    cdef Py_ssize_t step = 1
    for d in reversed(order):
        strides[d] = step
        step *= shape[d] if shape[d] > 1 else 1
    return tuple(strides)


cdef tuple _elem_strides(cnp.ndarray a):
    cdef object arr = a
    cdef Py_ssize_t item = arr.itemsize
    return tuple([s // item for s in arr.strides])


cdef int _check_kernel_dtype(Tensor self, bint want_complex) except -1:
    cdef dtype d = dtype_of(self._data)
    if is_reduced_float(d):
        raise RuntimeError(f"Unsupported dtype {d.scalar_name}")
    if want_complex and not is_complex_array(self._data):
        raise RuntimeError(f"Only supports complex dtypes, but found: {d.scalar_name}")
    if not want_complex and not is_float_array(self._data):
        raise RuntimeError(f"Only supports floating-point dtypes, but found: {d.scalar_name}")
    return 0


cdef int _check_dims_given(list dims) except -1:
    # (PyTorch's real-to-complex kernels read the last dim without a check)
    if not dims:
        raise RuntimeError("ArrayRef: attempted to access back() of empty list")
    return 0


cdef int _check_not_empty(cnp.ndarray a, list dims) except -1:
    # PyTorch's CPU kernel (MKL) refuses a transform of an empty tensor (a zero-size
    # batch): its error, rather than an empty result PyTorch programs never see
    if dims and cnp.PyArray_SIZE(a) == 0:
        raise RuntimeError("MKL FFT error: Intel oneMKL DFTI ERROR: Inconsistent configuration "
                           "parameters")
    return 0


cdef cnp.ndarray _conjugate_fill(cnp.ndarray half, list dims, Py_ssize_t n):
    """The full spectrum of a real signal from its onesided half along dims[-1] (size n
    there): X[k] = conj(X[-k]), the negative index taken modulo each transformed dim,
    as PyTorch's _fft_fill_with_conjugate_symmetry_."""
    cdef Py_ssize_t last = dims[-1], nh = half.shape[last]
    if n <= nh:
        return half
    # X[..., k] for k = nh .. n - 1 is conj(X[..., n - k]), all other dims reversed mod size
    mirror = np.take(half, np.arange(n - nh, 0, -1), axis=last)
    for d in dims[:-1]:
        mirror = np.roll(np.flip(mirror, d), 1, d)
    return np.concatenate([half, np.conj(mirror)], axis=last)


cdef list _fft_input(Tensor self, object dim, bint want_complex, bint needs_dims):
    """The checks every transform makes, in PyTorch's order; the wrapped dims."""
    _check_kernel_dtype(self, want_complex)
    cdef list dims = _fft_dims(self, dim)
    if needs_dims:
        _check_dims_given(dims)
    _check_not_empty(self._data, dims)
    return dims


cdef cnp.ndarray fft_r2c_values(Tensor self, object dim, object normalization, bint onesided):
    cdef list dims = _fft_input(self, dim, False, True)
    cdef cnp.ndarray a = self._data, r
    with quiet():
        r = np.fft.rfftn(a, axes=dims, norm=_np_norm(normalization, True))
        if not onesided:
            r = _conjugate_fill(r, dims, shape_of(a)[dims[-1]])
    cdef tuple strides = _elem_strides(a)
    return _laid_out(r, _batch_first_order(strides, cnp.PyArray_NDIM(a),
                                           _sort_dims(strides, dims, True)))


cdef cnp.ndarray fft_c2r_values(Tensor self, object dim, object normalization,
                                object last_dim_size):
    cdef list dims = _fft_input(self, dim, True, True)
    cdef cnp.ndarray a = self._data, r
    cdef Py_ssize_t ndim = cnp.PyArray_NDIM(a)
    cdef long long n = last_dim_size
    shape = list(shape_of(a))
    if n < 1 or shape[dims[-1]] not in (n, n // 2 + 1):
        # (PyTorch's kernel asserts this size; numpy would pad or trim silently)
        raise RuntimeError(f"_fft_c2r: the last transformed dim holds {shape[dims[-1]]} "
                           f"points, but last_dim_size={n} needs {n // 2 + 1} (or {n})")
    with quiet():
        r = np.fft.irfftn(a, s=[shape[d] for d in dims[:-1]] + [n], axes=dims,
                          norm=_np_norm(normalization, False))
    # the layout of PyTorch's two steps: the c2c over the leading dims, then the c2r
    cdef tuple strides = _elem_strides(a)
    cdef list order = _batch_first_order(strides, ndim, _sort_dims(strides, dims[:-1], False))
    if len(dims) > 1:
        strides = _order_strides(tuple(shape_of(a)), order)
    order = _batch_first_order(strides, ndim, dims[-1:])
    return _laid_out(r, order)


cdef cnp.ndarray fft_c2c_values(Tensor self, object dim, object normalization, bint forward):
    cdef list dims = _fft_input(self, dim, True, False)
    cdef cnp.ndarray a = self._data, r
    with quiet():
        if cnp.PyArray_SIZE(a) == 0 or not dims:
            r = np.array(a, copy=True)
        elif forward:
            r = np.fft.fftn(a, axes=dims, norm=_np_norm(normalization, True))
        else:
            r = np.fft.ifftn(a, axes=dims, norm=_np_norm(normalization, False))
    cdef tuple strides = _elem_strides(a)
    return _laid_out(np.asarray(r, dtype=a.dtype), _batch_first_order(
        strides, cnp.PyArray_NDIM(a), _sort_dims(strides, dims, False)))


cdef Tensor op__fft_c2c(Tensor self, object dim, object normalization, bint forward):
    # by hand, as its row cannot name a forward template (its argument `forward` is
    # the table's key for one)
    cdef Tensor result = make(fft_c2c_values(self, dim, normalization, forward))
    record_FftC2CBackward0(result, self, dim, normalization, forward)
    return result


# ================================================================ derivatives
# PyTorch's FunctionsManual fft_r2c_backward / fft_c2r_backward; c2c's backward is the
# transform the other way with the same normalization. All are linear in grad, so their
# forward derivatives are the ops applied to the tangents (auto_linear).

cdef Tensor fft_r2c_backward(Tensor grad, object dim, object normalization, bint onesided,
                             tuple self_shape):
    """The gradient of a real signal from its spectrum's: the inverse c2c of the full
    spectrum (a onesided one padded with zeros to the signal's length), real part."""
    cdef Tensor full = grad
    cdef list dims, zshape
    cdef Py_ssize_t last, missing
    if onesided:
        dims = _fft_dims(grad, dim)
        last = dims[-1]
        missing = self_shape[last] - shape_of(grad._data)[last]
        if missing > 0:
            zshape = list(shape_of(grad._data))
            zshape[last] = missing
            full = OPS.cat([grad, make(np.zeros(zshape, dtype=grad._data.dtype))], last)
    return OPS.real(op__fft_c2c(full, dim, normalization, False))


cdef Tensor fft_c2r_backward(Tensor grad, object dim, object normalization):
    """The gradient of a onesided spectrum from its real signal's: the onesided r2c of
    grad, the entries whose mirror image lies outside the onesided half counted twice
    (indices 1 .. n - onesided length of the last dim)."""
    cdef Tensor gI = op__fft_r2c(grad, dim, normalization, True)
    cdef list dims = _fft_dims(grad, dim)
    cdef Py_ssize_t last = dims[-1]
    cdef Py_ssize_t half = shape_of(gI._data)[last]
    cdef Py_ssize_t twice = shape_of(grad._data)[last] - half
    if twice > 0:
        weights = np.ones(half, dtype=grad._data.dtype)
        weights[1:1 + twice] = 2
        wshape = [1] * cnp.PyArray_NDIM(gI._data)
        wshape[last] = half
        gI = OPS.mul(gI, make(weights.reshape(wshape)))
    return gI


# ================================================================ torch.fft's argument handling
# (PyTorch's SpectralOps.cpp helpers, for autograd_core/fft.py)

def promote_fft(Tensor x, bint require_complex):
    """x in the dtype an FFT computes in (PyTorch's promote_tensor_fft): complex stays;
    integers and bool become the default float; float16/bfloat16 are refused; with
    require_complex the complex dtype of that float."""
    cdef dtype d = dtype_of(x._data), want
    if is_complex_array(x._data):
        return x
    want = float_or_default(d)
    if want is not float32 and want is not float64:
        raise RuntimeError(f"Unsupported dtype {want.scalar_name}")
    if require_complex:
        want = complex_of(want)
    return x if want is d else OPS._to_copy(x, want)


def scalar_type_name(Tensor x):
    """x's dtype as PyTorch's messages name it (Float, ComplexDouble)."""
    return dtype_of(x._data).scalar_name


def norm_from_string(object norm, bint forward):
    """PyTorch's norm_from_string: the normalization mode of a transform in direction
    forward for norm None, "backward", "forward" or "ortho"."""
    if norm is None or norm == "backward":
        return NORM_NONE if forward else NORM_BY_N
    if norm == "forward":
        return NORM_BY_N if forward else NORM_NONE
    if norm == "ortho":
        return NORM_BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def fft_dim(Tensor x, object dim):
    """One transform dim checked and made non-negative (a 0-d tensor has none)."""
    return _fft_dims(x, (dim,))[0]


def canonicalize_fft_shape_and_dim(Tensor x, object s, object dim):
    """PyTorch's canonicalize_fft_shape_and_dim_args: (shape, dims) of an n-dimensional
    transform, s's -1 entries read from the input, PyTorch's checks and messages."""
    cdef Py_ssize_t ndim = cnp.PyArray_NDIM(x._data)
    cdef tuple sizes = shape_of(x._data)
    cdef list dims = None, shape
    if dim is not None:
        dims = _fft_dims(x, dim)
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dims is not None and len(dims) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has "
                               f"{ndim} dimensions.")
        if dims is None:
            dims = list(range(ndim - len(s), ndim))
        shape = [sizes[d] if n == -1 else int(n) for n, d in zip(s, dims)]
    elif dims is None:
        dims = list(range(ndim))
        shape = list(sizes)
    else:
        shape = [sizes[d] for d in dims]
    for n in shape:
        if n <= 0:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return shape, dims


def resize_fft_input(Tensor x, object dims, object sizes):
    """x with x.size(dims[i]) == sizes[i]: trimmed by a slice, or zero-padded at the end
    (PyTorch's resize_fft_input: a narrow view, a constant pad copy); -1 keeps a size."""
    cdef tuple xs = shape_of(x._data)
    cdef list pad = [0] * (2 * len(xs))
    cdef bint must_pad = False
    for d, n in zip(dims, sizes):
        if n == -1:
            continue
        if xs[d] < n:
            must_pad = True
            pad[len(pad) - 2 * d - 1] = n - xs[d]
        elif xs[d] > n:
            x = OPS.narrow(x, d, 0, n)
    if must_pad:
        return OPS.constant_pad_nd(x, pad, 0)
    return x


include "_gen_spectral.pxi"
