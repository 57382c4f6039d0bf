# The in-place driver: the one way every in-place op (add_, exp_, clamp_, setitem,
# copy_, fill_, ...) writes into a tensor and rewrites its history.
#
# Note [In-place ops]
# An in-place op runs as its out-of-place twin on inplace_source(self) — self itself
# when nothing records, else a snapshot: a copy of self's values carrying self's
# history — and inplace_commit(self, result) then writes the result into self's
# memory, bumps the version counter and makes self take the result's history. When
# the result's node saved the result itself (exp_ saves its output), that saved
# tensor is repointed to self, so a later in-place change of self is caught
# (Note [Saved tensor versions]). A view's write rewrites its base's history
# instead (Note [Writing into a region]).
#
# Note [Writing into a region]
# setitem and in-place ops on views change part of a tensor (the "base"). Its new
# history is a CopySlices node over two inputs: the base's old history (whose gradient
# is zero inside the region) and the written values (which get the gradient at the
# region). The region is a flat index array into the base, computed once from the key
# or from the view's strides, so every such write shares this one node type. The
# view itself gets an AsStridedBackward0 node reading its region of the base.

cdef int check_inplace(Tensor self) except -1:
    """PyTorch's rules for writing into self (leaf rules only while recording)."""
    if self._inference and not agc_inference_mode():
        raise RuntimeError(MSG_INFERENCE_INPLACE)
    if not agc_recording():
        return 0
    if self._grad_fn is None and self._requires_grad:
        raise RuntimeError(MSG_LEAF_INPLACE)
    if self._base is not None and self._base._grad_fn is None and self._base._requires_grad:
        raise RuntimeError(MSG_LEAF_VIEW_INPLACE)


cdef inline bint _inplace_records(Tensor self, tuple others):
    if not agc_recording():
        return False
    if self._requires_grad or (self._base is not None and self._base._requires_grad):
        return True
    return any_requires_grad(others)


cdef Tensor inplace_source(Tensor self, tuple others):
    """What the out-of-place twin of an in-place op on self computes from
    (Note [In-place ops]); `others` are the op's other arguments."""
    check_inplace(self)
    if not _inplace_records(self, others):
        return self
    cdef Tensor s = make(self._data.copy())
    s._grad_fn = self._grad_fn
    s._output_nr = self._output_nr
    s._requires_grad = self._requires_grad
    if self._grad_fn is None and self._requires_grad:
        s._accumulator = self._accumulator
    return s


cdef void _check_castable(dtype result, Tensor t) except *:
    cdef dtype d = dtype_of(t._data)
    if result.category > d.category:
        raise RuntimeError(f"result type {result.scalar_name} can't be cast to the "
                           f"desired output type {d.scalar_name}")


cdef int write_values(Tensor t, cnp.ndarray values) except -1:
    """Copy values (broadcast, cast) into t's memory."""
    if not cnp.PyArray_ISWRITEABLE(t._data):
        raise RuntimeError(MSG_OVERLAPPING_WRITE)
    try:
        np.copyto(t._data, values, casting="unsafe")
    except ValueError:
        raise RuntimeError(
            f"output with shape {shape_str(shape_of(t._data))} doesn't match the broadcast "
            f"shape {shape_str(np.broadcast_shapes(shape_of(t._data), shape_of(values)))}") from None


cdef Tensor inplace_commit(Tensor self, Tensor result):
    """Write result into self and give self its history (Note [In-place ops])."""
    if not same_shape(result._data, self._data):
        raise RuntimeError(
            f"output with shape {shape_str(shape_of(self._data))} doesn't match the broadcast "
            f"shape {shape_str(shape_of(result._data))}")
    _check_castable(dtype_of(result._data), self)
    if result is self:
        return self
    cdef Tensor base = self._base
    cdef bint records = result._grad_fn is not None or (
        base is not None and base._requires_grad and agc_recording())
    if not records:
        write_values(self, result._data)
        bump_version(self)
        return self
    if cnp.PyArray_TYPE(result._data) != cnp.PyArray_TYPE(self._data):
        result = OPS._to_copy(result, dtype_of(self._data))
    write_values(self, result._data)
    bump_version(self)
    if base is not None:
        write_region(self, region_of(self), result, False)
        return self
    self._grad_fn = result._grad_fn
    self._output_nr = result._output_nr
    self._requires_grad = True
    self._grad_fn.repoint_output(self._output_nr, self)
    return self


# ---------------------------------------------------------------- writes through views

cdef cnp.ndarray region_of(Tensor t):
    """Flat indices into t's base (or t itself) of t's elements, in t's shape."""
    if t._base is None:
        return np.arange(cnp.PyArray_SIZE(t._data), dtype=np.int64).reshape(shape_of(t._data))
    cdef cnp.ndarray b = t._base._data, v = t._data
    if not cnp.PyArray_IS_C_CONTIGUOUS(b):
        raise RuntimeError("in-place modification of a view of a non-contiguous tensor that "
                           "requires grad is not supported by autograd_core")
    itemsize = b.itemsize
    offset = (v.__array_interface__["data"][0] - b.__array_interface__["data"][0]) // itemsize
    positions = np.arange(b.size, dtype=np.int64)
    return np.lib.stride_tricks.as_strided(
        positions[offset:], shape=shape_of(v),
        strides=tuple([s // itemsize * positions.itemsize for s in (<object>v).strides])).copy()


cdef class CopySlices(Node):
    """The history of a base after a write into a region of it (Note [Writing into a
    region]); inputs: the base's old history, the written values."""
    cdef cnp.ndarray region     # flat indices into the base, in the values' shape
    cdef tuple base_shape

    def name(self):
        return "torch::autograd::CopySlices"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        cdef Tensor region = make(self.region)
        gb = gv = None
        if needs_input_grad(self, 0):
            written = np.zeros(cnp.PyArray_SIZE(g._data), dtype=bool)
            written[self.region.reshape(-1)] = True
            gb = OPS.masked_fill(g, make(written.reshape(self.base_shape)), 0)
        if needs_input_grad(self, 1):
            gv = OPS.take(g, region)
        return (gb, gv)


cdef class IndexPutBackward0(CopySlices):
    """A write through an advanced index (setitem with index tensors or masks)."""

    def name(self):
        return "IndexPutBackward0"


cdef class AsStridedBackward0(Node):
    """A view rebuilt over its base's new history after an in-place write."""
    cdef cnp.ndarray region
    cdef tuple base_shape

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        cdef Tensor base_grad = zeros(self.base_shape, dtype_of(g._data))
        return (OPS.put(base_grad, make(self.region), g, True),)


cdef int write_region(Tensor target, cnp.ndarray region, Tensor values, bint advanced) except -1:
    """Record that target's base now holds `values` at `region` (Note [Writing into a
    region]). The caller has already written the values into memory."""
    cdef Tensor base = target._base if target._base is not None else target
    cdef CopySlices node = (IndexPutBackward0.__new__(IndexPutBackward0) if advanced
                            else CopySlices.__new__(CopySlices))
    node.region = region
    node.base_shape = shape_of(base._data)
    record(node, base, (base, values))
    base._output_nr = 0
    if dtype_of(values._data) is not dtype_of(base._data):
        node.input_meta = (None, (shape_of(values._data), dtype_of(values._data)))
    if target is not base:
        view_node = <AsStridedBackward0>AsStridedBackward0.__new__(AsStridedBackward0)
        view_node.region = region_of(target)
        view_node.base_shape = shape_of(base._data)
        record(view_node, target, (base,))
        target._output_nr = 0
