# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Pixel and channel shuffles (PyTorch's native/PixelShuffle.cpp, ChanelShuffle.cpp):
# pixel_shuffle, pixel_unshuffle, channel_shuffle, native_channel_shuffle.


# ================================================================ pixel and channel shuffles

cdef Tensor op_pixel_shuffle(Tensor self, object upscale_factor):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), r = upscale_factor
    if nd < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got "
                           f"input with {nd} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    cdef tuple shape = shape_of(x)
    c, h, w = shape[nd - 3], shape[nd - 2], shape[nd - 1]
    if c % (r * r):
        raise RuntimeError(
            f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    batch = shape[:nd - 3]
    nb = nd - 3
    out = x.reshape(batch + (c // (r * r), r, r, h, w)).transpose(
        tuple(range(nb)) + (nb, nb + 3, nb + 1, nb + 4, nb + 2))
    cdef Tensor result = make(np.ascontiguousarray(out).reshape(batch + (c // (r * r), h * r, w * r)))
    record_PixelShuffleBackward0(result, self, upscale_factor)
    return result


cdef Tensor op_pixel_unshuffle(Tensor self, object downscale_factor):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), r = downscale_factor
    if nd < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but "
                           f"got input with {nd} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    cdef tuple shape = shape_of(x)
    c, h, w = shape[nd - 3], shape[nd - 2], shape[nd - 1]
    if h % r:
        raise RuntimeError(f"pixel_unshuffle expects height to be divisible by downscale_factor, "
                           f"but input.size(-2)={h} is not divisible by {r}")
    if w % r:
        raise RuntimeError(f"pixel_unshuffle expects width to be divisible by downscale_factor, "
                           f"but input.size(-1)={w} is not divisible by {r}")
    batch = shape[:nd - 3]
    nb = nd - 3
    out = x.reshape(batch + (c, h // r, r, w // r, r)).transpose(
        tuple(range(nb)) + (nb, nb + 2, nb + 4, nb + 1, nb + 3))
    cdef Tensor result = make(np.ascontiguousarray(out).reshape(batch + (c * r * r, h // r, w // r)))
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
