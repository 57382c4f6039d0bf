# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Padding (PyTorch's native/PadNd.cpp, ReflectionPad.cpp, ReplicationPadding.cpp):
# constant_pad_nd, reflection and replication padding (1-3 padded dims) with their
# backward ops, and _pad_circular.


# ================================================================ padding

cdef Tensor op_constant_pad_nd(Tensor self, object pad, object value):
    cdef cnp.ndarray xa = self._data
    cdef int nd = cnp.PyArray_NDIM(xa), k, i
    pad = tuple(pad)
    cdef int npad = len(pad)
    if npad % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if npad > 2 * nd:
        raise RuntimeError(
            "Length of pad should be no more than twice the number of dimensions of the input. "
            f"Pad length is {npad} while the input has {nd} dimensions.")
    crop = [slice(None)] * nd
    widths = [(0, 0)] * nd
    new_shape = list(shape_of(xa))
    for i in range(npad // 2):
        k = nd - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        size = new_shape[k] + lo + hi
        if new_shape[k] + (lo if lo < 0 else 0) + (hi if hi < 0 else 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        if size < 0:
            raise RuntimeError(
                f"The input size {new_shape[k]}, plus negative padding {lo} and {hi} resulted in a "
                f"negative output size, which is invalid. Check dimension {k} of your input.")
        crop[k] = slice(-lo if lo < 0 else 0, new_shape[k] + hi if hi < 0 else None)
        widths[k] = (lo if lo > 0 else 0, hi if hi > 0 else 0)
        new_shape[k] = size
    v = xa[tuple(crop)]
    if value is None:
        value = 0
    value = scalar_in(value, dtype_of(xa))   # Note [Complex Scalar arguments]
    out = np.pad(v, widths, mode="constant", constant_values=value) if any(
        w != (0, 0) for w in widths) else np.array(v)
    # (np.pad keeps the input's layout: PyTorch's writes its suggested memory format)
    cdef Tensor result = make(in_suggested_format(cast_like(out, xa), xa))
    record_ConstantPadNdBackward0(result, self, pad, value)
    return result


cdef Tensor constant_pad_nd_backward(Tensor grad, object pad):
    """The gradient of a constant pad: the grad cropped back (a pad by -pad)."""
    return op_constant_pad_nd(grad, tuple([-p for p in pad]), 0)


cdef list pad_index_key(tuple xs, tuple pad, PadMode mode):
    """The gather key (an advanced index) that pads the last len(pad) // 2 dims of an
    array of shape xs by reflection, replication or wrapping."""
    cdef int nd = len(xs), npad = len(pad), nsp = npad // 2, i, k
    idxs = []
    for i in range(nsp):
        k = nd - nsp + i                      # the dim; pad pairs start from the last dim
        lo, hi = pad[2 * (nsp - 1 - i)], pad[2 * (nsp - 1 - i) + 1]
        size = xs[k]
        if mode == PAD_REFLECT:
            if lo >= size or hi >= size:
                raise RuntimeError(
                    f"Argument #4: Padding size should be less than the corresponding input "
                    f"dimension, but got: padding ({lo}, {hi}) at dimension {k} of input "
                    f"{shape_str(xs)}")
        elif mode == PAD_CIRCULAR:
            if lo > size or hi > size:
                raise RuntimeError("Padding value causes wrapping around more than once.")
        j = np.arange(-lo, size + hi)
        if mode == PAD_REFLECT:
            j = np.abs(j)
            j = np.where(j >= size, 2 * (size - 1) - j, j)
        elif mode == PAD_REPLICATE:
            j = np.clip(j, 0, size - 1)
        else:
            j = np.mod(j, size)
        idxs.append(j.astype(np.int64))
    return idxs


cdef cnp.ndarray pad_index_values(cnp.ndarray xa, list idxs):
    key = (Ellipsis,) + tuple(np.ix_(*idxs))
    return np.ascontiguousarray(xa[key])


cdef cnp.ndarray pad_index_backward_values(cnp.ndarray ga, tuple in_shape, list idxs):
    """The transpose of pad_index_values: g summed back into in_shape."""
    out = np.zeros(in_shape, dtype=ga.dtype)
    np.add.at(out, (Ellipsis,) + tuple(np.ix_(*idxs)), ga)
    return out


# the record_<Node> of a padding op and of its backward op (one per number of padded dims)
ctypedef int (*record_pad_fn)(Tensor, Tensor, object) except -1
ctypedef int (*record_pad_backward_fn)(Tensor, Tensor, Tensor, object) except -1


cdef Tensor index_pad(Tensor self, object padding, PadMode mode, record_pad_fn record_1d,
                      record_pad_fn record_2d, record_pad_fn record_3d):
    """Reflection or replication padding of the last len(padding) // 2 dims, recorded
    with the node of that many dims."""
    padding = tuple(padding)
    cdef tuple xs = shape_of(self._data)
    cdef Py_ssize_t nsp = len(padding) // 2, d
    # PyTorch's check_valid_input: no zero-size dim but a batch dim (when there is one)
    for d in range(1 if len(xs) == nsp + 2 else 0, len(xs)):
        if xs[d] == 0:
            raise RuntimeError(
                f"Expected {nsp + 1}D or {nsp + 2}D (batch mode) tensor with possibly 0 batch "
                f"size and other non-zero dimensions for input, but got: {shape_str(xs)}")
    cdef list idxs = pad_index_key(xs, padding, mode)
    # (after the sizes' checks: PyTorch's kernels, one per count of padded dims, have no
    # bool and no wide unsigned variant; Note [Dtype guard])
    cdef dtype xd = dtype_of(self._data)
    if xd.category == CAT_BOOL or is_wide_unsigned(xd):
        raise not_implemented_for(
            f"{'reflection' if mode == PAD_REFLECT else 'replication'}_pad{nsp}d", xd)
    cdef Tensor result = make(in_suggested_format(pad_index_values(self._data, idxs),
                                                  self._data))
    (record_1d if nsp == 1 else record_2d if nsp == 2 else record_3d)(result, self, padding)
    return result


cdef Tensor index_pad_backward(Tensor grad_output, Tensor self, object padding, PadMode mode,
                               record_pad_backward_fn record_1d,
                               record_pad_backward_fn record_2d,
                               record_pad_backward_fn record_3d):
    """The backward op of index_pad (grad_output summed back into self's shape), recorded
    with the node of that many dims."""
    padding = tuple(padding)
    cdef tuple xs = shape_of(self._data)
    cdef Tensor result = make(pad_index_backward_values(
        grad_output._data, xs, pad_index_key(xs, padding, mode)))
    cdef Py_ssize_t nsp = len(padding) // 2
    (record_1d if nsp == 1 else record_2d if nsp == 2 else record_3d)(
        result, grad_output, self, padding)
    return result


cdef Tensor op__pad_circular(Tensor self, object padding):
    """Circular padding. PyTorch builds it by writes into the output (its grad_fn is
    CopySlices); here the wrapped input (gathered along each padded dim with
    index_select) is written into the output through the core's write_region."""
    padding = tuple(padding)
    cdef tuple xs = shape_of(self._data)
    cdef list idxs = pad_index_key(xs, padding, PAD_CIRCULAR)
    cdef Tensor result = make(pad_index_values(self._data, idxs))
    if fw_active():  # Note [Forward AD]: padding is linear, the same padding of the tangent
        t = fw_grad_of(self)
        if t is not None and is_grad_array(self._data):
            with FwSuspend():
                fw_finish(result, op__pad_circular(<Tensor>t, padding))
    if not (recording() and requires_grad_of(self)):
        return result
    cdef int nd = len(xs), nsp = len(idxs), i
    cdef Tensor wrapped = self
    for i in range(nsp):
        wrapped = OPS.index_select(wrapped, nd - nsp + i, make(idxs[i]))
    write_region(result, region_of(result), wrapped, False)
    return result
