# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Pixel and channel shuffles (PyTorch's native/PixelShuffle.cpp, ChanelShuffle.cpp):
# pixel_shuffle, pixel_unshuffle, channel_shuffle, native_channel_shuffle.


# ================================================================ pixel and channel shuffles

cdef tuple _pixel_dims(cnp.ndarray x, str name, str factor, Py_ssize_t r):
    """The checks pixel_shuffle and pixel_unshuffle share; (batch, c, h, w)."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    if nd < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got "
                           f"input with {nd} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"{name} expects a positive {factor}, but got {r}")
    cdef tuple shape = shape_of(x)
    return shape[:nd - 3], shape[nd - 3], shape[nd - 2], shape[nd - 1]


cdef cnp.ndarray _pixel_permute(cnp.ndarray x, tuple batch, tuple split, tuple order,
                                tuple merged):
    """x's last three dims viewed as split (five dims), permuted by order (indices into
    those five) and merged into three: a contiguous copy of batch + merged."""
    cdef Py_ssize_t nb = len(batch)
    out = x.reshape(batch + split).transpose(tuple(range(nb)) + tuple([nb + i for i in order]))
    return np.ascontiguousarray(out).reshape(batch + merged)


cdef Tensor op_pixel_shuffle(Tensor self, object upscale_factor):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t r = upscale_factor
    batch, c, h, w = _pixel_dims(x, "pixel_shuffle", "upscale_factor", r)
    if c % (r * r):
        raise RuntimeError(
            f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    cdef Tensor result = make(_pixel_permute(x, batch, (c // (r * r), r, r, h, w),
                                             (0, 3, 1, 4, 2), (c // (r * r), h * r, w * r)))
    record_PixelShuffleBackward0(result, self, upscale_factor)
    return result


cdef Tensor op_pixel_unshuffle(Tensor self, object downscale_factor):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t r = downscale_factor
    batch, c, h, w = _pixel_dims(x, "pixel_unshuffle", "downscale_factor", r)
    if h % r:
        raise RuntimeError(f"pixel_unshuffle expects height to be divisible by downscale_factor, "
                           f"but input.size(-2)={h} is not divisible by {r}")
    if w % r:
        raise RuntimeError(f"pixel_unshuffle expects width to be divisible by downscale_factor, "
                           f"but input.size(-1)={w} is not divisible by {r}")
    cdef Tensor result = make(_pixel_permute(x, batch, (c, h // r, r, w // r, r),
                                             (0, 2, 4, 1, 3), (c * r * r, h // r, w // r)))
    record_PixelUnshuffleBackward0(result, self, downscale_factor)
    return result


cdef cnp.ndarray channel_shuffle_values(Tensor self, object groups):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), g = groups
    if nd <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {shape_str(shape_of(x))}")
    if g <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{g}")
    cdef tuple shape = shape_of(x)
    c = shape[1]
    if c % g:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {g} groups.")
    out = x.reshape((shape[0], g, c // g) + shape[2:]).swapaxes(1, 2)
    return np.ascontiguousarray(out).reshape(shape)


cdef Tensor channel_shuffle_backward(Tensor grad, object groups):
    # the inverse shuffle: channel_shuffle by the group size
    return op_channel_shuffle(grad, shape_of(grad._data)[1] // groups)


cdef Tensor op_native_channel_shuffle(Tensor self, object groups):
    cdef Tensor result = make(channel_shuffle_values(self, groups))
    OPS.not_implemented_node(result, (self,), "native_channel_shuffle")  # (PyTorch has none)
    return result
