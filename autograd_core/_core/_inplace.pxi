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
# instead (Note [Writing into a region]): a CopySlices wrapping the op's node (Note
# [CopySlices wraps the op]).
# The paths below change a tensor in place without inplace_commit; each says "see Note
# [In-place ops]" at its code. None is a twin of the driver: the driver writes a whole
# result of self's shape into self, and each of these writes part of it, or no values
# at all, or is not an op. Each still ends in bump_version (every write does).
# - setitem and index_put_(accumulate=True) (ops/index.pyx: op__setitem,
#   _index_put_accumulate_): write only the indexed elements, then give self its
#   history with write_region (a CopySlices over the region, Note [Writing into a
#   region]); with nothing to record, numpy's indexed write and bump_version alone.
#   A whole-tensor setitem goes through copy_/fill_, so through the driver.
# - the in-place view ops (ops/view.pyx: squeeze_; unsqueeze_, transpose_, swapdims_,
#   t_ through _restride_; as_strided_; resize_; set_ through _set_to):
#   they rebind self's array (new shape and strides over the same or new memory) and
#   write no values, so there is nothing to commit; inplace_source still runs for the
#   checks and the snapshot the node's history starts from, keep_counter keeps the
#   counter, and bump_version marks the change.
# - nn.functional's in-place forms that are an out-of-place op then copy_ (rrelu,
#   alpha_dropout, feature_alpha_dropout, an unbatched dropout1d: nn/functional.py):
#   copy_ itself goes through the driver, so the side path is only the composition;
#   the node self ends with is CopyBackwards (AsStridedBackward0 for dropout1d) where
#   PyTorch's own in-place kernels (rrelu_with_noise_, alpha_dropout_, unsqueeze_ +
#   feature_dropout_ + squeeze_) record RreluWithNoiseBackward1, AddBackward0,
#   SqueezeBackward4. Folding them needs those in-place ops in the table.
# - not ops, so not the driver's: a custom Function's mark_dirty (_core/function.pyx:
#   PyTorch's _mark_dirty bumps the dirty inputs), autograd.graph.increment_version
#   (_increment_version, _core/_node.pxi), and AccumulateGrad adding a gradient into an
#   existing .grad in place with grad mode off (_core/_node.pxi, as PyTorch's
#   `variable_grad += new_grad`).
# - an op's output argument written as a by-product: the noise rrelu_with_noise fills
#   in training (ops/_nn_activation.pxi) is not self and takes no version bump, as in
#   PyTorch (its noise._version stays 0).
#
# Note [Writing into a region]
# setitem and in-place ops on views change part of a tensor (the "base"). Its new
# history is a CopySlices node over two inputs: the base's old history (whose gradient
# is zero inside the region) and the written values (which get the gradient at the
# region). The region is a flat index array into the base, computed once from the key
# or from the view's strides, so every such write shares this one node type. The
# view written through, and every other view of the base, then read their history
# from the base's new one (Note [View + in-place]). Two variants keep PyTorch's
# graph: index_put_(accumulate=True) passes the base's gradient through unmasked
# (CopySlices.accumulate), and the node of the in-place op or custom Function that
# modified a view is wrapped, as PyTorch's CopySlices wraps it, instead of being its
# values' history (CopySlices.fn: Note [CopySlices wraps the op]).
# A real view of a complex base (`.real`, `.imag`, views of them) addresses half an
# element: its region indexes view_as_real(base), whose shape is the base's plus a last
# dim of 2 (region_base_shape), and the nodes that use such a region (CopySlices,
# AsStridedBackward0) take the base's gradient through view_as_real and give it back
# through view_as_complex (their `reals` flag).

# Note [View + in-place]
# A view knows its base (the root: never itself a view), shares its version counter
# and remembers the version its grad_fn was made for (_view_version). An in-place
# write on the base, or on any view of it, bumps that counter; reading the grad_fn
# of a view at another version (grad_fn_of: the grad_fn/is_leaf/requires_grad
# properties, and edge_node when an op records it) first rebuilds it as an
# AsStridedBackward0 over the base's current history, as PyTorch does lazily. How
# the view was made (_creation_meta: in no_grad or inference mode, as one of several
# outputs of split/chunk/unbind, by a custom Function) decides which in-place writes
# autograd refuses, with PyTorch's messages (view_rebase_error): in-place on such a
# view while recording, or reading its history after its base was written.

cdef object view_rebase_error(Tensor view, bint indirect):
    """PyTorch's error (handle_view_on_rebase) for an in-place write on view (indirect:
    on its base or a sibling) that its way of creation forbids, or None."""
    cdef int cm = view._creation_meta
    if cm == CM_DEFAULT:
        return None
    cdef Node fn = view._grad_fn
    modified = ("its base or another view of its base has been" if indirect
                else "is being")
    if cm == CM_INFERENCE_MODE or cm == CM_NO_GRAD_MODE or fn is None:
        if fn is not None:
            prefix = (f"Output {view._output_nr} of {op_name(fn)} is a view of a view "
                      "which was created in")
        else:
            prefix = "A view was created in"
        if cm == CM_INFERENCE_MODE:
            msg = f"{prefix} inference mode and {modified} modified inplace in normal mode."
        else:
            msg = (f"{prefix} no_grad mode and {modified} modified inplace with grad mode "
                   "enabled.")
    else:
        msg = (f"Output {view._output_nr} of {op_name(fn)} is a view and {modified} "
               "modified inplace.")
    if cm == CM_MULTI_OUTPUT_NODE:
        msg += (" This view is the output of a function that returns multiple views. Such "
                "functions do not allow the output views to be modified inplace. You should "
                "replace the inplace operation by an out-of-place one.")
    elif cm == CM_NO_GRAD_MODE:
        msg += (" Given that this use case is ambiguous and error-prone, it is forbidden. You "
                "can clarify your code by moving both the view and the inplace either both "
                "inside the no_grad block (if you don't want the inplace to be tracked) or both "
                "outside (if you want the inplace to be tracked).")
    elif cm == CM_INFERENCE_MODE:
        msg += (" Given that this use case is ambiguous and error-prone, it is forbidden. You "
                "can clarify your code by moving both the view and the inplace either both "
                "inside the inference_mode block (if you don't want the inplace to be tracked) "
                "or both outside (if you want the inplace to be tracked).")
    else:
        msg += (" This view was created inside a custom Function (or because an input was "
                "returned as-is) and the autograd logic to handle view+inplace would override "
                "the custom backward associated with the custom Function, leading to incorrect "
                "gradients. This behavior is forbidden. You can fix this by cloning the output "
                "of the custom Function.")
    return RuntimeError(msg)


cdef Node grad_fn_of(Tensor t):
    """t's grad_fn, rebuilt first when t is a view whose base was written in place
    since it was made (Note [View + in-place])."""
    cdef Tensor base = t._base
    if base is None:
        return t._grad_fn
    if t._grad_fn is None and not base._requires_grad:
        return None
    if t._view_version == t._vc.version:
        return t._grad_fn
    err = view_rebase_error(t, True)
    if err is not None:
        raise err
    cdef Node old = t._grad_fn
    cdef Node node = _record_view_of_base(t, t)
    t._view_version = t._vc.version
    move_retained_grad(t, old)
    return node


cdef Node _record_view_of_base(Tensor view, Tensor out):
    """Give out (view's values) the history of view read afresh from its base's
    current one: an AsStridedBackward0 over it."""
    cdef Node lazy
    if view_steps_of(view) is not None:
        lazy = replay_view_steps(view, out)   # Note [View replay steps]
        if lazy is not None:
            return lazy
    cdef Tensor base = view._base
    cdef AsStridedBackward0 node = AsStridedBackward0.__new__(AsStridedBackward0)
    node.region = region_of(view)
    node.base_shape = region_base_shape(view._data, base)
    node.reals = reals_of_complex(view._data, base._data)
    node.size = shape_of(view._data)
    node.stride = _elem_strides(view._data)
    node.storage_offset = _storage_offset(view)
    record(node, out, (base,))
    out._output_nr = 0
    cdef int bits = lazy_bits(view) if _any_mirrors else 0
    if bits and _regenerate_lazy_view is not None:
        # a conj/neg view: that as_strided history is of the memory it mirrors; then
        # its own node (Note [Conjugate and negative views])
        return _regenerate_lazy_view(out, map_to_source(view._data), bits)
    return node


cdef void move_retained_grad(Tensor t, Node old) noexcept:
    """t's history changed from old to t._grad_fn: its retain_grad() moves along
    (hooks registered before stay with old, and the tensor forgets them: Note [Tensor
    hooks live on the tensor]; as PyTorch's update_tensor_hooks_on_new_gradfn)."""
    if old is t._grad_fn:
        return
    if t._x is not None:
        t._x.hooks = None
    if not retains_grad_of(t) or old is None:
        return
    if old.extra is not None and old.extra.retained is not None:
        old.extra.retained.pop(t._output_nr, None)
    cdef Node new = t._grad_fn
    if new is None:
        t._x.retains_grad = False  # (retains_grad_of: t has its TensorExtra)
        return
    cdef NodeExtra x = user_extra(new)
    if x.retained is None:
        x.retained = {}
    x.retained[t._output_nr] = weakref.ref(t)


# Note [Writes into saved tensors]
# autograd.graph.allow_mutation_on_saved_tensors (autograd/graph.py) is told of every
# in-place write before it happens, so that it can clone the tensors saved for backward
# whose values the write would change (PyTorch's TorchDispatchMode that sees every op
# with a written argument). check_inplace is the door every write passes (the in-place
# driver, setitem, out=); the callback is None outside such a context.
cdef object _before_write = None


def _set_before_write(fn):
    """Install fn(tensor), called before each in-place write into tensor (None: none)."""
    global _before_write
    _before_write = fn


cdef int check_inplace(Tensor self, tuple others) except -1:
    """PyTorch's rules for writing into self (check_inplace): in inference mode, on
    views whose way of creation forbids it, on leaves and views of leaves; a ZeroTensor
    (Note [ZeroTensor]) is immutable. As in PyTorch, the autograd checks come before the
    inference check (an inference leaf that requires grad gets the leaf error outside
    inference mode)."""
    cdef Tensor base
    if is_zerotensor(self):
        raise RuntimeError(MSG_ZEROTENSOR_WRITE)
    if agc_recording() and (requires_grad_of(self) or any_requires_grad(others)):
        base = self._base
        if base is not None:
            err = view_rebase_error(self, False)
            if err is not None:
                raise err
            if base._grad_fn is None and requires_grad_of(self):  # (also a base detach_()ed)
                raise RuntimeError(MSG_LEAF_VIEW_INPLACE)
        if self._grad_fn is None and self._requires_grad:
            raise RuntimeError(MSG_LEAF_INPLACE)
    check_inference_inplace(self)
    if _before_write is not None:   # Note [Writes into saved tensors]
        _before_write(self)
    return 0


cdef int check_inference_inplace(Tensor self) except -1:
    """No write into an inference tensor outside inference mode (the in-place view ops
    check this first, before the autograd checks: PyTorch's ADInplaceOrView kernel)."""
    if self._inference and not agc_inference_mode():
        raise RuntimeError(MSG_INFERENCE_INPLACE)
    return 0


cdef inline void _memory_bounds(cnp.ndarray a, char **lo, char **hi) noexcept:
    """The first and one-past-the-last byte a's elements occupy."""
    cdef char *p = <char *>cnp.PyArray_DATA(a)
    cdef char *q = p
    cdef int i
    cdef cnp.npy_intp n, st
    for i in range(cnp.PyArray_NDIM(a)):
        n = cnp.PyArray_DIM(a, i)
        st = cnp.PyArray_STRIDE(a, i)
        if st < 0:
            p += (n - 1) * st
        else:
            q += (n - 1) * st
    lo[0] = p
    hi[0] = q + cnp.PyArray_ITEMSIZE(a)


cdef bint has_internal_overlap(cnp.ndarray a) noexcept:
    """Whether an element of a is stored where another is (PyTorch's
    has_internal_overlap == Yes: a dim of stride 0 and size > 1)."""
    cdef int i
    if cnp.PyArray_SIZE(a) == 0:
        return False
    for i in range(cnp.PyArray_NDIM(a)):
        if cnp.PyArray_STRIDE(a, i) == 0 and cnp.PyArray_DIM(a, i) > 1:
            return True
    return False


cdef bint same_elements(cnp.ndarray a, cnp.ndarray b) noexcept:
    """Whether a and b are the very same elements (PyTorch's copy_ then writes nothing,
    even into memory whose elements overlap)."""
    return (cnp.PyArray_DATA(a) == cnp.PyArray_DATA(b)
            and cnp.PyArray_TYPE(a) == cnp.PyArray_TYPE(b)
            and shape_of(a) == shape_of(b)
            and (<object>a).strides == (<object>b).strides)


cdef bint is_non_overlapping_and_dense(cnp.ndarray x):
    """Whether x's elements fill its memory without gaps or overlaps in some order of
    its dims (PyTorch's is_non_overlapping_and_dense)."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), i
    cdef list dims = sorted([(cnp.PyArray_STRIDE(x, i), cnp.PyArray_DIM(x, i))
                             for i in range(nd) if cnp.PyArray_DIM(x, i) > 1])
    cdef Py_ssize_t expected = cnp.PyArray_ITEMSIZE(x)
    for stride, size in dims:
        if stride != expected:
            return False
        expected *= size
    return True


# Note [Pointwise output layout]
# PyTorch allocates the result of an elementwise op (a TensorIterator op: unary, binary
# with broadcasting, comparison, ternary such as addcmul, lerp, where, clamp with tensor
# bounds) in the layout TensorIterator works out from its inputs (TensorIterator.cpp):
#   1. an input of another dtype than the common one is cast first (.to(), which keeps a
#      dense input's strides and gives any other dense strides in its own order,
#      infer_dense_strides);
#   2. fast_set_up: when every input has the result's shape (no 0-d input or wrapped
#      number among others): all contiguous -> C order; all channels-last (4-d) ->
#      channels last; all non-overlapping and dense with equal strides -> those strides;
#   3. else each input's strides broadcast to the result's shape (0 for a broadcast dim),
#      the dims sorted innermost first by them (reorder_dimensions: an insertion sort
#      in which the first input with an opinion decides, a stride 0 has none, and of two
#      dims of equal stride the smaller goes inside), and the result dense in that order
#      (compatible_stride; C order when the sort kept the order).
# numpy's ufuncs choose otherwise (a stride-0 dim innermost, for one), and a later view()
# or .stride() shows it. pointwise_output lays a numpy result out as PyTorch's (a copy only
# when they differ). Inputs with exactly C-contiguous strides always give C order when
# the result has elements (the sort never swaps: each dim's stride is at least the next
# one's, equal only across size-1 dims; with a size-0 dim a size-1 one may move inside
# it), which is tested first, so the tiny-op paths pay a stride check and nothing else.
# empty_like/clone of a tensor that is not dense (infer_dense_strides) is the same sort
# over one input (dense_order); ops that write into empty_like(self) use as_preserved.

from autograd_core._core.numpy_api cimport strided_array_over

cdef enum:
    ITER_MAX_OPERANDS = 8      # inputs of one elementwise op (where, addcmul, clamp: 3)


cdef bint has_contiguous_strides(cnp.ndarray x) noexcept:
    """Whether x has exactly PyTorch's contiguous strides (numpy's C-contiguous flag
    ignores the strides of size-1 dims, and numpy gives an empty array zero strides)."""
    cdef int i
    cdef cnp.npy_intp cur = cnp.PyArray_ITEMSIZE(x)
    for i in range(cnp.PyArray_NDIM(x) - 1, -1, -1):
        if cnp.PyArray_STRIDE(x, i) != cur:
            return False
        if cnp.PyArray_DIM(x, i) > 1:
            cur *= cnp.PyArray_DIM(x, i)
    return True


cdef void iter_sort_dims(int nd, const cnp.npy_intp *shape, int nops, const cnp.npy_intp *st,
                         int *perm) noexcept:
    """TensorIterator's reorder_dimensions (Note [Pointwise output layout]): perm[0] the
    innermost dim, from nops rows of nd strides each (st[k * nd + d], any unit)."""
    cdef int i, k, d0, d1, a, b, c, tmp
    cdef cnp.npy_intp s0, s1
    for i in range(nd):
        perm[i] = nd - 1 - i
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            a = perm[d0]
            b = perm[d1]
            c = 0
            for k in range(nops):
                s0 = st[k * nd + a]
                s1 = st[k * nd + b]
                if s0 == 0 or s1 == 0:
                    continue              # a broadcast dim: no opinion
                if s0 < s1:
                    c = -1
                    break
                if s0 > s1:
                    c = 1
                    break
                if shape[a] > shape[b]:
                    c = 1
                    break
            if c > 0:
                # (d0 and d1 need not be adjacent: an ambiguous comparison walks on)
                tmp = perm[d0]
                perm[d0] = perm[d1]
                perm[d1] = tmp
                d1 = d0
            elif c < 0:
                break


cdef bint dense_in_order(int nd, const cnp.npy_intp *shape, const int *perm,
                         bint empty_as_one, cnp.npy_intp *out) noexcept:
    """out[d]: dense strides (in elements) laying the dims out in perm's order (perm[0]
    innermost); a size-0 dim multiplies by 0 as TensorIterator's compatible_stride does,
    or by 1 (empty_as_one) as infer_dense_strides does. Returns whether perm is C order
    (then out holds PyTorch's contiguous strides, which take a size-0 dim as 1)."""
    cdef int i
    cdef bint c_order = True
    for i in range(nd):
        if perm[i] != nd - 1 - i:
            c_order = False
    cdef cnp.npy_intp cur = 1
    for i in range(nd):
        out[perm[i]] = cur
        if shape[perm[i]] > 1 or not (empty_as_one or c_order):
            cur *= shape[perm[i]]
    return c_order


cdef cnp.ndarray in_strides(cnp.ndarray values, int nd, cnp.npy_intp *dims,
                            const cnp.npy_intp *elem_strides):
    """values if laid out at these strides (in elements), else a copy that is (dims:
    values' sizes)."""
    cdef cnp.npy_intp item = cnp.PyArray_ITEMSIZE(values)
    cdef int i
    for i in range(nd):
        if cnp.PyArray_STRIDE(values, i) != elem_strides[i] * item:
            break
    else:
        return values
    cdef cnp.ndarray out = empty_strided(nd, dims, elem_strides, values.dtype)
    out[...] = values
    return out


cdef cnp.ndarray empty_strided(int nd, cnp.npy_intp *dims, const cnp.npy_intp *elem_strides,
                               object np_dtype):
    """An uninitialised array with these sizes and strides (in elements) over a buffer of
    just its elements (the strides must be dense in some order)."""
    cdef cnp.npy_intp n = 1, strides[cnp.NPY_MAXDIMS]
    cdef int i
    for i in range(nd):
        n *= dims[i]
    cdef cnp.ndarray buf = np.empty(n, dtype=np_dtype)
    cdef cnp.npy_intp item = cnp.PyArray_ITEMSIZE(buf)
    for i in range(nd):
        strides[i] = elem_strides[i] * item
    return strided_array_over(buf, <cnp.dtype>cnp.PyArray_DESCR(buf), nd, dims, strides,
                              cnp.PyArray_DATA(buf), True)


cdef void dense_order(cnp.ndarray x, cnp.npy_intp *out) noexcept:
    """out: PyTorch's infer_dense_strides of x (in elements): dense, dims in the order
    of x's strides (Note [Pointwise output layout] with x the only input)."""
    cdef int nd = cnp.PyArray_NDIM(x), i
    cdef int perm[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp st[cnp.NPY_MAXDIMS]
    for i in range(nd):
        st[i] = cnp.PyArray_STRIDE(x, i)
    iter_sort_dims(nd, cnp.PyArray_DIMS(x), 1, st, perm)
    dense_in_order(nd, cnp.PyArray_DIMS(x), perm, True, out)


cdef object iter_output_strides(tuple shape, list operand_strides):
    """The strides (in elements) TensorIterator gives a new output of this shape over
    inputs with these strides (each a sequence already broadcast to shape: 0 for a
    broadcast dim; any unit), or None for C order (Note [Pointwise output layout]; index
    and kron replay it over the operands PyTorch builds for them)."""
    cdef int nd = len(shape), i
    if nd == 0:
        return None
    cdef cnp.ndarray dims = np.asarray(shape, dtype=np.intp)
    cdef cnp.ndarray st = np.ascontiguousarray(
        np.asarray(operand_strides, dtype=np.intp).reshape(-1))
    cdef int perm[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp out[cnp.NPY_MAXDIMS]
    iter_sort_dims(nd, <cnp.npy_intp *>cnp.PyArray_DATA(dims), len(operand_strides),
                   <cnp.npy_intp *>cnp.PyArray_DATA(st), perm)
    if dense_in_order(nd, <cnp.npy_intp *>cnp.PyArray_DATA(dims), perm, False, out):
        return None
    return tuple([out[i] for i in range(nd)])


cpdef cnp.ndarray empty_preserving(cnp.ndarray x, object np_dtype):
    """An uninitialised array of x's shape, laid out as PyTorch's preserve_format lays
    out a copy of x (clone, empty_like and the other *_like): with x's very strides when
    x's elements are non-overlapping and dense, else dense in the order of x's strides
    (infer_dense_strides)."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), i
    cdef cnp.npy_intp st[cnp.NPY_MAXDIMS]
    if nd == 0 or (cnp.PyArray_SIZE(x) != 0 and has_contiguous_strides(x)):
        return np.empty(shape_of(x), dtype=np_dtype)   # (empty: numpy's strides are 0)
    if is_non_overlapping_and_dense(x):
        for i in range(nd):
            st[i] = cnp.PyArray_STRIDE(x, i) // cnp.PyArray_ITEMSIZE(x)
    else:
        dense_order(x, st)
    return empty_strided(nd, cnp.PyArray_DIMS(x), st, np_dtype)


cdef cnp.ndarray as_preserved(cnp.ndarray values, cnp.ndarray like):
    """values (of like's shape) laid out as empty_like(like) (preserve_format: ops that
    write into such a result, as nan_to_num, hardtanh, .to()), copied only if need be."""
    if (<object>values).strides == (<object>like).strides:
        return values
    cdef cnp.ndarray out = empty_preserving(like, values.dtype)
    if (<object>values).strides == (<object>out).strides:
        return values
    out[...] = values
    return out


cdef cnp.ndarray as_contiguous(cnp.ndarray values):
    """values with PyTorch's contiguous strides (a kernel's new result, which numpy may
    have laid out as an input), copied only if need be: numpy leaves the strides of the
    size-1 dims of a C-ordered array arbitrary, which a view fixes."""
    if has_contiguous_strides(values):
        return values
    if not cnp.PyArray_IS_C_CONTIGUOUS(values):
        values = np.ascontiguousarray(values)
        if has_contiguous_strides(values):
            return values
    cdef int nd = cnp.PyArray_NDIM(values), i
    cdef cnp.npy_intp strides[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp cur = cnp.PyArray_ITEMSIZE(values)
    for i in range(nd - 1, -1, -1):
        strides[i] = cur
        if cnp.PyArray_DIM(values, i) > 1:
            cur *= cnp.PyArray_DIM(values, i)
    return strided_array_over(values, <cnp.dtype>cnp.PyArray_DESCR(values), nd,
                              cnp.PyArray_DIMS(values), strides, cnp.PyArray_DATA(values), True)


cdef int suggested_format(cnp.ndarray x) noexcept:
    """PyTorch's suggest_memory_format of x: 4 (channels_last) for a 4-d x whose strides
    look channels-last, 5 (channels_last_3d) for such a 5-d x, else 0 (contiguous); the
    test is c10's is_channels_last_strides_2d/3d, which reads ambiguous strides (a
    broadcast channel dim, an empty dim, N111) as contiguous."""
    cdef int nd = cnp.PyArray_NDIM(x), i, d
    if nd != 4 and nd != 5:
        return 0
    cdef cnp.npy_intp lo = 0, st
    if cnp.PyArray_STRIDE(x, 1) == 0:
        return 0
    for i in range(nd):
        d = 1 if i == 0 else (0 if i == nd - 1 else nd - i)   # C, W, H (, D), N
        st = cnp.PyArray_STRIDE(x, d)
        if cnp.PyArray_DIM(x, d) == 0 or st < lo:
            return 0
        if d == 0 and lo == cnp.PyArray_STRIDE(x, 1):
            return 0
        lo = st * cnp.PyArray_DIM(x, d) if cnp.PyArray_DIM(x, d) > 1 else st
    return nd


def suggest_memory_format(Tensor t):
    """PyTorch's Tensor.suggest_memory_format() (suggested_format), a memory_format: for
    composites that copy their input into it first (group_norm)."""
    cdef int fmt = suggested_format(t._data)
    return channels_last if fmt == 4 else channels_last_3d if fmt == 5 else contiguous_format


cdef cnp.ndarray in_suggested_format(cnp.ndarray values, cnp.ndarray like):
    """values laid out as a result PyTorch allocates in like's suggested memory format
    (at::empty(..., input.suggest_memory_format()): convolution, pooling, padding,
    interpolation, batch and group norm): channels-last when like looks channels-last,
    else contiguous; copied only if need be."""
    cdef int nd = cnp.PyArray_NDIM(values), fmt = suggested_format(like), i
    if fmt == 0 or nd != fmt:
        return as_contiguous(values)
    cdef cnp.npy_intp st[5]
    cdef cnp.npy_intp *dims = cnp.PyArray_DIMS(values)
    # c10's get_channels_last_strides_2d/3d: C innermost, then W, H (, D), N
    st[1] = 1
    st[nd - 1] = dims[1]
    for i in range(nd - 2, 1, -1):
        st[i] = st[i + 1] * dims[i + 1]
    st[0] = st[2] * dims[2]
    return in_strides(values, nd, dims, st)


# Note [Composite output layout]
# An op composed of others here returns the layout of the last op it calls, while PyTorch's
# kernel for it may allocate its own result: interpolate's upsample kernels write the
# input's suggested memory format (channels-last in, channels-last out). An op with a
# kernel of its own here allocates as PyTorch's does (scaled_dot_product_attention's CPU
# flash path, ops/_nn_attention.pxi: empty_like(query), so over the tutorial's
# x.view(B, L, H, D).transpose(1, 2) it returns (B, H, L, D) values stored as (B, L, H, D),
# and the caller's out.transpose(1, 2).view(B, L, H * D) relies on it); for a composite,
# relayout_result gives its result the layout afterwards by swapping the Tensor's array
# for a copy in that layout: the values, the graph and the version counter stay (as with
# a .data assignment). Only for a result the composite has just made with an op that
# returns a new tensor: a view, or an input passed through, shares its elements with
# another tensor, which the swap would silently cut.

cpdef Tensor relayout_result(Tensor result, Tensor like, bint suggested=False):
    """result (a composite's fresh output) laid out in place (Note [Composite output
    layout]) as empty_like(like) (preserve_format; like of result's shape), or with
    suggested, in like's suggested memory format (in_suggested_format); returns result."""
    if result._base is not None:
        raise RuntimeError("relayout_result: a view shares its elements; re-laying it out "
                           "would cut it from its base")
    if suggested:
        result._data = in_suggested_format(result._data, like._data)
        return result
    if shape_of(result._data) != shape_of(like._data):
        raise RuntimeError(f"relayout_result: shape {list(shape_of(result._data))} differs from "
                           f"the layout's {list(shape_of(like._data))}")
    result._data = as_preserved(result._data, like._data)
    return result


cdef inline bint _contiguous_in(int nd, const cnp.npy_intp *shape, const cnp.npy_intp *st,
                                const int *order) noexcept:
    """PyTorch's is_contiguous for the dims in order (outermost first), strides in
    elements: size-1 dims aside, dense in that order; always for no elements."""
    cdef int i, d
    cdef cnp.npy_intp cur = 1
    for i in range(nd):
        if shape[i] == 0:
            return True
    for i in range(nd - 1, -1, -1):
        d = order[i]
        if shape[d] != 1:
            if st[d] != cur:
                return False
            cur *= shape[d]
    return True


cdef bint _dense_strides(int nd, const cnp.npy_intp *shape, const cnp.npy_intp *st) noexcept:
    """PyTorch's is_non_overlapping_and_dense for strides in elements."""
    cdef int i, j, k
    cdef int perm[cnp.NPY_MAXDIMS]
    cdef int n = 0
    for i in range(nd):
        if shape[i] > 1:
            perm[n] = i
            n += 1
    for i in range(1, n):       # sort by stride
        j = i
        while j > 0 and st[perm[j - 1]] > st[perm[j]]:
            k = perm[j]
            perm[j] = perm[j - 1]
            perm[j - 1] = k
            j -= 1
    cdef cnp.npy_intp cur = 1
    for i in range(n):
        if st[perm[i]] != cur:
            return False
        cur *= shape[perm[i]]
    return True


cdef int _C_ORDER[cnp.NPY_MAXDIMS]
for _i in range(cnp.NPY_MAXDIMS):
    _C_ORDER[_i] = _i
cdef int _CHANNELS_LAST[4]
_CHANNELS_LAST[:] = [0, 2, 3, 1]


cdef cnp.ndarray pointwise_output(cnp.ndarray values, tuple operands, int common,
                                  int first_cast):
    """values (an elementwise op's result as numpy computed it) laid out as PyTorch
    allocates that op's output (Note [Pointwise output layout]). operands: the op's
    TensorIterator inputs in order, Tensors, numbers (wrapped 0-d scalars) or None
    (absent); common: the numpy type number inputs are cast to (-1: no cast); inputs
    before first_cast are never cast (where's condition)."""
    cdef int nd = cnp.PyArray_NDIM(values)
    if nd == 0:
        return values
    cdef bint all_c = True
    for x in operands:
        if isinstance(x, Tensor) and not has_contiguous_strides((<Tensor>x)._data):
            all_c = False
            break
    if all_c and cnp.PyArray_SIZE(values) != 0 and has_contiguous_strides(values):
        return values
    cdef cnp.npy_intp *shape = cnp.PyArray_DIMS(values)
    cdef cnp.npy_intp st[ITER_MAX_OPERANDS * cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp own[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp want[cnp.NPY_MAXDIMS]
    cdef cnp.npy_intp *row
    cdef int perm[cnp.NPY_MAXDIMS]
    cdef int nops = 0, ond, off, i, idx = -1
    cdef bint same = True, contig = True, chlast = nd == 4, dense_same = True, c_order
    cdef cnp.ndarray a
    for x in operands:
        idx += 1
        if x is None:
            continue
        if not isinstance(x, Tensor) or cnp.PyArray_NDIM((<Tensor>x)._data) == 0:
            same = False           # a 0-d input: all its strides broadcast to 0
            continue
        if nops == ITER_MAX_OPERANDS:
            break
        a = (<Tensor>x)._data
        ond = cnp.PyArray_NDIM(a)
        if (idx >= first_cast and common >= 0 and cnp.PyArray_TYPE(a) != common
                and not is_non_overlapping_and_dense(a)):
            dense_order(a, own)    # .to(common)'s copy
        else:
            for i in range(ond):
                own[i] = cnp.PyArray_STRIDE(a, i) // cnp.PyArray_ITEMSIZE(a)
        row = st + nops * nd
        off = nd - ond
        for i in range(off):
            row[i] = 0
        for i in range(ond):
            row[off + i] = (0 if cnp.PyArray_DIM(a, i) == 1 and shape[off + i] != 1
                            else own[i])
        if same:
            if off != 0:
                same = False
            else:
                for i in range(nd):
                    if cnp.PyArray_DIM(a, i) != shape[i]:
                        same = False
                        break
        if same:
            contig = contig and _contiguous_in(nd, shape, own, _C_ORDER)
            chlast = chlast and _contiguous_in(nd, shape, own, _CHANNELS_LAST)
            if dense_same:
                if nops > 0:
                    for i in range(nd):
                        if own[i] != st[i]:
                            dense_same = False
                            break
                dense_same = dense_same and _dense_strides(nd, shape, own)
        nops += 1
    if nops > 0 and same and contig:
        c_order = True
    elif nops > 0 and same and chlast:
        c_order = False
        perm[0] = 1
        perm[1] = 3
        perm[2] = 2
        perm[3] = 0
        dense_in_order(nd, shape, perm, True, want)
    elif nops > 0 and same and dense_same:
        c_order = False
        for i in range(nd):
            want[i] = st[i]
    else:
        iter_sort_dims(nd, shape, nops, st, perm)
        c_order = dense_in_order(nd, shape, perm, False, want)
    if c_order:
        if has_contiguous_strides(values):
            return values
        for i in range(nd):
            perm[i] = nd - 1 - i
        dense_in_order(nd, shape, perm, False, want)
    return in_strides(values, nd, shape, want)


cdef int overlap_status(cnp.ndarray a, cnp.ndarray b) except -1:
    """PyTorch's get_overlap_status: OVERLAP_FULL for the very same elements in the same
    layout, OVERLAP_PARTIAL for other shared memory, OVERLAP_TOO_HARD when one of them
    is not dense (PyTorch does not look further then), else OVERLAP_NO."""
    cdef char *alo
    cdef char *ahi
    cdef char *blo
    cdef char *bhi
    if b is a:
        return OVERLAP_FULL
    if cnp.PyArray_SIZE(a) == 0 or cnp.PyArray_SIZE(b) == 0:
        return OVERLAP_NO
    if not (is_non_overlapping_and_dense(a) and is_non_overlapping_and_dense(b)):
        return OVERLAP_TOO_HARD
    _memory_bounds(a, &alo, &ahi)
    _memory_bounds(b, &blo, &bhi)
    if not (alo < bhi and blo < ahi):
        return OVERLAP_NO
    if (alo == blo and ahi == bhi and cnp.PyArray_DATA(a) == cnp.PyArray_DATA(b)
            and (<object>a).strides == (<object>b).strides):
        return OVERLAP_FULL
    return OVERLAP_PARTIAL
cdef bint shares_memory(cnp.ndarray a, cnp.ndarray b) noexcept:
    """Whether the byte ranges a and b span intersect (a cheap may-share test)."""
    cdef char *alo
    cdef char *ahi
    cdef char *blo
    cdef char *bhi
    if cnp.PyArray_SIZE(a) == 0 or cnp.PyArray_SIZE(b) == 0:
        return False
    _memory_bounds(a, &alo, &ahi)
    _memory_bounds(b, &blo, &bhi)
    return alo < bhi and blo < ahi


cdef int _check_no_partial_overlap(Tensor self, tuple others) except -1:
    """PyTorch's assert_no_partial_overlap between the written-to tensor and an
    argument: sharing memory is allowed only as the very same elements."""
    for x in others:
        if (isinstance(x, Tensor)
                and overlap_status(self._data, (<Tensor>x)._data) == OVERLAP_PARTIAL):
            raise RuntimeError(MSG_PARTIAL_OVERLAP)
    return 0


# Note [Overlapping operands]
# An operand of an in-place op may share memory with the tensor written. PyTorch
# refuses a partial overlap it can see (both dense: _check_no_partial_overlap), computes
# the very same elements as usual (each element reads itself before it is written), and
# where it cannot tell (OVERLAP_TOO_HARD: an operand or self not dense, e.g.
# t *= t[:, None, 0]) runs its element loop as is: element by element in self's memory
# order, each reading what earlier ones wrote. inplace_in_order says when that case
# arises, and inplace_commit_in_order then computes the values that way (the history is
# the usual one, recorded from the values as they were before the write, as
# PyTorch's). (PyTorch's vectorised inner loops read 2 vectors' worth of a contiguous
# run before writing it, which depends on the machine's vector width; the element loop
# is what it does on short runs.)

cdef bint inplace_in_order(Tensor self, tuple others) except -1:
    """Whether an operand shares memory with self in a way only an element-by-element
    loop decides (Note [Overlapping operands])."""
    for x in others:
        if (isinstance(x, Tensor) and shares_memory(self._data, (<Tensor>x)._data)
                and overlap_status(self._data, (<Tensor>x)._data) == OVERLAP_TOO_HARD):
            return True
    return False


cdef Tensor inplace_commit_in_order(Tensor self, Tensor result, object fn, tuple args):
    """inplace_commit, with the values of fn(self, *args) computed element by element in
    self's memory order (Note [Overlapping operands]); result: fn's result computed as
    usual (its values are replaced, its history kept)."""
    if (not same_shape(result._data, self._data) or has_internal_overlap(self._data)
            or not cnp.PyArray_ISWRITEABLE(self._data)):
        return inplace_commit(self, result)  # (its errors)
    _check_castable(dtype_of(result._data), self)
    cdef cnp.ndarray a = self._data
    cdef tuple shape = shape_of(a)
    cdef list wide = [np.broadcast_to((<Tensor>x)._data, shape) if isinstance(x, Tensor)
                      else None for x in args]
    idx = np.indices(shape).reshape(len(shape), -1).T
    addr = idx @ np.asarray((<object>a).strides, dtype=np.int64)
    with NoGradGuard():
        for k in np.argsort(addr, kind="stable"):
            i = tuple(idx[k])
            elems = [make(np.array(w[i])) if w is not None else x
                     for w, x in zip(wide, args)]
            v = fn(make(np.array(a[i])), *elems)
            a[i] = (<Tensor>v)._data
    result._data[...] = a
    return inplace_commit(self, result)


cdef inline bint _inplace_records(Tensor self, tuple others):
    if not agc_recording():
        return False
    return requires_grad_of(self) or any_requires_grad(others)


# Note [CopySlices wraps the op]
# PyTorch's CopySlices, the history a write through a view gives the base, wraps the
# node of the in-place op that made the values (CopySlices.fn): its edges are the base's
# old history, then fn's edges but the first, and its backward runs fn on the gradient
# of the region and puts fn's gradient for input 0 (the view's old values) back there.
# `y[:2].mul_(b)` prints CopySlices -> (MulBackward0 of y's old history, b's
# AccumulateGrad), not the op's node.
# Ours records the op's node over a snapshot of the view (inplace_source) and then
# writes it (_commit), so the snapshot is remembered (_snapshot_*, its history weakly):
# when the newest node, made after the snapshot, has the snapshot's history as its input
# 0, _commit hands it to _write_region to wrap. That history is the view read from the
# base (an as_strided or replayed view node over the base's old history), which the
# CopySlices replaces by its write at the region. A snapshot without history (a view of
# a base that requires no grad) is matched by its None edge: that input carries no
# gradient, so wrapping loses none.
# - The values are fn's output as written: cast to self's dtype when the op computed
#   wider (float32 view += float64: fn's gradient for input 0 is cast back here, its
#   other inputs' by this node's input metadata, fn's); through a conj/neg view, the
#   mirror of the region's memory (CopySlices.mirror conjugates/negates the gradient
#   in and fn's input-0 gradient out). A real input of a complex op (complex_view.
#   mul_(real)) gets the real part of its gradient where the engine would give it at fn
#   (its list of such nodes: _r_to_c_nodes).
# - Not wrapped, kept as two inputs (the base's old history, the values' node), the
#   gradients the same, only the printed graph differs: a view whose dtype is not its
#   base's (a real view of a complex base too), a view whose elements overlap, a values
#   node with several outputs or made after the op (a cast through _to_copy).
# - A custom Function's node that modified a view (mark_dirty) is wrapped the same way
#   (rebase_history_through).
# - The wrapped node's saved output (pow_'s result) is unpacked, under create_graph,
#   with that node as its history (PyTorch's fallback when the view's node has died),
#   so a second-order graph may run the node itself as well as through the CopySlices:
#   CopySlices releasing its saved state only drops its reference (PyTorch's
#   release_variables: fn = nullptr); the node frees its own when it runs or dies.
# - The wrapped node's saved output is the view now: a version error on unpacking it
#   names the view's history rebuilt by the write (NodeExtra.view_history, weak), as
#   PyTorch's SavedVariable names the view's grad_fn it saw when saving; once that history
#   has died (the view dropped or its history rebuilt again), the node itself.
cdef object _snapshot_history = None  # a weakref to the snapshot's history (None: it
                                       # has none); weak: the graph goes with the snapshot
cdef bint _snapshot_wrappable = False  # the snapshot is of a view whose write can wrap
cdef uint64_t _snapshot_seq = 0        # the newest sequence number when it was made


cdef Tensor inplace_source(Tensor self, tuple others, bint allow_overlap=False):
    """What the out-of-place twin of an in-place op on self computes from
    (Note [In-place ops]); `others` are the op's other arguments. allow_overlap: an op
    that reads its operands whole before writing (fill_ with a 0-d tensor takes its
    item) has no overlap to refuse."""
    check_inplace(self, others)
    if not allow_overlap:
        _check_no_partial_overlap(self, others)
    global _snapshot_wrappable
    _snapshot_wrappable = False  # (until the snapshot below: Note [CopySlices wraps the op])
    if not _inplace_records(self, others):
        return self
    cdef Tensor s = make(self._data.copy())
    if agc_fw_active():  # the source carries self's tangent (Note [Forward AD])
        st = fw_grad_of(self)
        if st is not None:
            set_fw_grad(s, st)
    cdef Tensor base = self._base
    global _snapshot_history, _snapshot_seq
    _snapshot_wrappable = (base is not None
                           and dtype_of(base._data) is dtype_of(self._data))
    if _snapshot_wrappable and base._grad_fn is not None:
        # the write goes to the base's history (CopySlices), not through the view's
        # own node: hooks on that node do not run (PyTorch's CopySlices skips it)
        grad_fn_of(self)  # (the checks a stale view's history is read with)
        _snapshot_history = weakref.ref(_record_view_of_base(self, s))
        _snapshot_seq = _next_sequence_nr
        return s
    s._grad_fn = grad_fn_of(self)
    _snapshot_wrappable = _snapshot_wrappable and s._grad_fn is None
    _snapshot_history = None
    _snapshot_seq = _next_sequence_nr
    s._output_nr = self._output_nr
    s._requires_grad = self._requires_grad
    if self._grad_fn is None and self._requires_grad:
        s._accumulator = accumulator_ref(self)  # Note [Borrowed accumulator]
    return s


cdef void _check_castable(dtype result, Tensor t) except *:
    cdef dtype d = dtype_of(t._data)
    if result.category > d.category:
        raise RuntimeError(f"result type {result.scalar_name} can't be cast to the "
                           f"desired output type {d.scalar_name}")


cdef int write_values(Tensor t, cnp.ndarray values) except -1:
    """Copy values (broadcast, cast) into t's memory."""
    if not cnp.PyArray_ISWRITEABLE(t._data):
        raise RuntimeError(MSG_OVERLAPPING_WRITE if has_internal_overlap(t._data)
                           else MSG_READ_ONLY_WRITE)
    try:
        np.copyto(t._data, values, casting="unsafe")
    except ValueError:
        raise RuntimeError(
            f"output with shape {shape_str(shape_of(t._data))} doesn't match the broadcast "
            f"shape {shape_str(np.broadcast_shapes(shape_of(t._data), shape_of(values)))}") from None


cdef Tensor _cast_result(Tensor result, dtype d):
    """An in-place op's result computed in a wider dtype, cast to self's: its node stays
    self's history (PyTorch's: SubBackward0 for float32 -= float64, no cast node), now
    with an output of dtype d, so each input's gradient is cast back to the input's
    dtype by the engine (Node.input_meta: an input without an entry had the result's
    shape and dtype)."""
    cdef Node node = result._grad_fn
    if node is None or result._output_nr != 0 or node.num_outputs() != 1:
        return OPS._to_copy(result, d)
    cdef tuple meta = (shape_of(result._data), dtype_of(result._data))
    cdef Py_ssize_t n = n_edges(node), i
    cdef tuple old = input_meta_of(node)
    set_input_meta(node, tuple([meta if old is None or old[i] is None else old[i]
                                for i in range(n)]))
    cdef Tensor cast = make(cast_array(result._data, d))
    cast._grad_fn = node
    cast._requires_grad = True
    return cast


cdef Tensor inplace_commit(Tensor self, Tensor result, bint allow_overlap=False):
    """Write result into self and give self its history (Note [In-place ops]).
    allow_overlap: the op is a fill (fill_, zero_, and masked_fill_ / index_fill_ through
    inplace_commit_expanded), which PyTorch allows into a tensor whose elements share
    memory; its forward formula writes into self's tangent in place (PyTorch's
    self_t.fill_(), zero_(), masked_fill_(), index_fill_()), so an immutable ZeroTensor
    tangent (Note [ZeroTensor tangents]) meets the write's message, not copy_'s."""
    if not allow_overlap and has_internal_overlap(self._data):
        raise RuntimeError(MSG_OVERLAPPING_WRITE)
    if not same_shape(result._data, self._data):
        raise RuntimeError(
            f"output with shape {shape_str(shape_of(self._data))} doesn't match the broadcast "
            f"shape {shape_str(shape_of(result._data))}")
    _check_castable(dtype_of(result._data), self)
    if result is self:
        return self
    cdef int fw_code
    if agc_fw_active():
        fw_code = fw_inplace(self, result)
        if fw_code:
            _commit(self, result)  # (PyTorch writes and records before it reads the tangent)
            raise fw_inplace_error(3 if fw_code == 2 and allow_overlap else fw_code)
    return _commit(self, result)


cdef Node _snapshot_op(Tensor result):
    """The node of the in-place op that made result from the snapshot inplace_source
    made last, for the base's CopySlices to wrap, or None (Note [CopySlices wraps the
    op]); the snapshot is used up."""
    global _snapshot_wrappable
    if not _snapshot_wrappable:
        return None
    _snapshot_wrappable = False
    cdef Node op = result._grad_fn
    if (result._output_nr != 0 or op.num_outputs() != 1 or n_edges(op) == 0
            or node_seq(op) != _next_sequence_nr or node_seq(op) <= _snapshot_seq):
        return None
    history = _snapshot_history() if _snapshot_history is not None else None
    if next_edge(op, 0) is not history or (history is None
                                           and _snapshot_history is not None):
        return None
    return op


cdef Tensor _commit(Tensor self, Tensor result):
    """inplace_commit's write of result into self and self's new history."""
    cdef Tensor base = self._base
    cdef bint records = result._grad_fn is not None or (
        base is not None and base._requires_grad and agc_recording())
    if not records:
        write_values(self, result._data)
        bump_version(self)
        return self
    if cnp.PyArray_TYPE(result._data) != cnp.PyArray_TYPE(self._data):
        result = _cast_result(result, dtype_of(self._data))
    write_values(self, result._data)
    bump_version(self)
    cdef Node op
    if base is not None:
        op = None
        if result._grad_fn is not None:  # its saved output is the view's memory now
            result._grad_fn.repoint_output(result._output_nr, self)
            op = _snapshot_op(result)
        _write_region(self, region_of(self), result, False, False, op)
        grad_fn_of(self)  # self's new history now (its retain_grad moves to it), as PyTorch's
        if result._grad_fn is not None and self._grad_fn is not None:
            # the node's saved output is now this view: its version error names the
            # view's history while that lives, as PyTorch's (Note [CopySlices wraps the op])
            node_extra(result._grad_fn).view_history = weakref.ref(self._grad_fn)
        return self
    cdef Node old = self._grad_fn
    self._grad_fn = result._grad_fn
    self._output_nr = result._output_nr
    self._requires_grad = True
    self._grad_fn.repoint_output(self._output_nr, self)
    move_retained_grad(self, old)
    return self


# Note [Fills into expanded tensors]
# A tensor whose elements share memory (expand's stride 0: the gradient of a sum is one)
# takes no in-place write (MSG_OVERLAPPING_WRITE), but PyTorch still lets masked_fill_,
# index_fill_ and index_put_ (advanced-index setitem) write into one, with a deprecation
# warning, in its element loop: every element written sets the memory it shares with
# others. For the fills (one value), a memory location then holds the value if any of
# its elements was filled, else its old value; inplace_commit_expanded writes that. The
# index_put_ path (setitem) writes through numpy's loop, in order, as PyTorch's does.

cdef void warn_expanded_write(str op, str example) except *:
    """PyTorch's deprecation warning for op writing into an expanded tensor."""
    warnings.warn(f"Use of {op} on expanded tensors is deprecated. Please clone() the tensor "
                  "before performing this operation. This also applies to advanced indexing "
                  f"e.g. {example}", UserWarning, stacklevel=1)


cdef Tensor inplace_commit_expanded(Tensor self, Tensor source, Tensor result, str op,
                                    str example):
    """inplace_commit for a fill (masked_fill_, index_fill_) of self, computed as result
    from source (Note [In-place ops]): into a tensor whose elements share memory, with
    PyTorch's warning and its values (Note [Fills into expanded tensors])."""
    if not has_internal_overlap(self._data):
        return inplace_commit(self, result, True)   # (a fill: inplace_commit's allow_overlap)
    warn_expanded_write(op, example)
    if (cnp.PyArray_ISWRITEABLE(self._data) and same_shape(result._data, self._data)
            and cnp.PyArray_TYPE(result._data) == cnp.PyArray_TYPE(self._data)):
        with quiet():
            filled = result._data != source._data
            if is_float_array(result._data):  # (a NaN left in place is not a write)
                filled &= ~(np.isnan(result._data) & np.isnan(source._data))
        np.copyto(self._data, result._data, where=filled)
        result._data[...] = self._data  # each element as its memory now holds it
    return inplace_commit(self, result, True)


# ---------------------------------------------------------------- writes through views

cdef cnp.ndarray _offsets(cnp.ndarray a, Py_ssize_t start):
    """The memory offset (in elements) of each of a's elements, in a's shape, given
    the offset of its first element."""
    cdef Py_ssize_t item = cnp.PyArray_ITEMSIZE(a), nd = cnp.PyArray_NDIM(a), i
    cdef cnp.ndarray off = np.full(shape_of(a), start, dtype=np.int64)
    for i in range(nd):
        shape = [1] * nd
        shape[i] = cnp.PyArray_DIM(a, i)
        off += (np.arange(cnp.PyArray_DIM(a, i), dtype=np.int64)
                * (cnp.PyArray_STRIDE(a, i) // item)).reshape(shape)
    return off


cdef tuple _elem_strides(cnp.ndarray a):
    cdef Py_ssize_t item = cnp.PyArray_ITEMSIZE(a)
    return tuple([s // item for s in (<object>a).strides])


cdef Py_ssize_t _storage_offset(Tensor t):
    """t's first element's offset from its base's first element, in elements."""
    if t._base is None:
        return 0
    return ((<char *>cnp.PyArray_DATA(map_to_source(t._data))
             - <char *>cnp.PyArray_DATA(map_to_source(t._base._data)))
            // cnp.PyArray_ITEMSIZE(t._data))


cdef cnp.ndarray region_of(Tensor t):
    """Flat indices into t's base (or t itself) of t's elements, in t's shape."""
    if t._base is None:
        return np.arange(cnp.PyArray_SIZE(t._data), dtype=np.int64).reshape(shape_of(t._data))
    return region_within(t._data, t._base)


cdef inline bint reals_of_complex(cnp.ndarray view, cnp.ndarray base) noexcept:
    """Whether view is a real view of complex memory base (Note [Writing into a
    region]: its region indexes view_as_real(base))."""
    return (cnp.PyArray_ISCOMPLEX(base) and not cnp.PyArray_ISCOMPLEX(view)
            and 2 * cnp.PyArray_ITEMSIZE(view) == cnp.PyArray_ITEMSIZE(base))


cdef tuple region_base_shape(cnp.ndarray view, Tensor base):
    """The shape of what view's region (region_within(view, base)) indexes."""
    if reals_of_complex(view, base._data):
        return shape_of(base._data) + (2,)
    return shape_of(base._data)


cdef cnp.ndarray region_within(cnp.ndarray view, Tensor within):
    """Flat indices into `within` (in C order) of the elements of `view`, an array over
    the same memory, in view's shape; -1 for an element outside within's. For a real
    view of complex memory, into view_as_real(within) (Note [Writing into a region])."""
    cdef cnp.ndarray w = within._data
    if cnp.PyArray_SIZE(view) == 0:
        return np.zeros(shape_of(view), dtype=np.int64)
    if _any_mirrors:    # a view of a conj/neg view: where it mirrors (Note [Conjugate
        view = map_to_source(view)      # and negative views])
        w = map_to_source(w)
    if reals_of_complex(view, w):
        half = cnp.PyArray_ITEMSIZE(view)
        w = np.lib.stride_tricks.as_strided((<object>w).real, shape=shape_of(w) + (2,),
                                            strides=(<object>w).strides + (half,))
    cdef cnp.ndarray voff = _offsets(
        view, (<char *>cnp.PyArray_DATA(view) - <char *>cnp.PyArray_DATA(w))
        // cnp.PyArray_ITEMSIZE(view))
    if _has_c_strides(w) and cnp.PyArray_SIZE(w) > 0:
        if voff.min() >= 0 and voff.max() < cnp.PyArray_SIZE(w):
            return voff
    # within in another layout: memory offsets back to its elements' flat indices
    cdef cnp.ndarray woff = _offsets(w, 0).reshape(-1)
    lo = int(builtins.min(woff.min(), voff.min())) if woff.size else int(voff.min())
    hi = int(builtins.max(woff.max(), voff.max())) if woff.size else int(voff.max())
    inverse = np.full(hi - lo + 1, -1, dtype=np.int64)
    inverse[woff - lo] = np.arange(woff.size, dtype=np.int64)
    return np.asarray(inverse[voff - lo])    # (a 0-d view indexes out a numpy scalar)


cdef int record_as_strided(Tensor result, Tensor input, cnp.ndarray region, tuple size,
                           tuple stride, Py_ssize_t storage_offset, bint inplace) except -1:
    """Record as_strided's node (AsStridedBackward0; AsStridedBackward1 in place):
    region holds, per element of result, its flat index in input (region_within)."""
    if not (agc_recording() and requires_grad_of(input)
            and recordable_array(result._data, "as_strided")):
        return 0
    cdef AsStridedBackward0 node = (AsStridedBackward1.__new__(AsStridedBackward1) if inplace
                                    else AsStridedBackward0.__new__(AsStridedBackward0))
    if cnp.PyArray_SIZE(region) and region.min() < 0:
        node.inside = np.flatnonzero(region.reshape(-1) >= 0)
    node.region = region
    node.base_shape = shape_of(input._data)
    node.size = size
    node.stride = stride
    node.storage_offset = storage_offset
    record(node, result, (input,))
    result._output_nr = 0
    return 0


cdef bint _has_c_strides(cnp.ndarray x):
    """Whether x's elements sit in C order, each right after the one before (the
    strides of size-1 dims do not matter)."""
    cdef int i
    cdef cnp.npy_intp cur = cnp.PyArray_ITEMSIZE(x)
    for i in range(cnp.PyArray_NDIM(x) - 1, -1, -1):
        if cnp.PyArray_DIM(x, i) > 1 and cnp.PyArray_STRIDE(x, i) != cur:
            return False
        cur *= cnp.PyArray_DIM(x, i)
    return True


cdef class CopySlices(Node):
    """The history of a base after a write into a region of it (Note [Writing into a
    region]); inputs: the base's old history, the written values."""
    cdef cnp.ndarray region     # flat indices into the base, in the values' shape
    cdef tuple base_shape
    cdef bint overlapping_view  # the view written had elements sharing memory (an
                                # expand): PyTorch's backward writes the base's gradient
                                # through that view's strides and refuses
    cdef bint accumulate        # index_put_(accumulate=True): the values were added to
                                # the region's old ones, which keep their gradient
    cdef Node fn                # the node that modified the view in place, wrapped
                                # (Note [CopySlices wraps the op]), else None: edge 1 is
                                # the values' history
    cdef bint reals             # a real view of a complex base was written: region and
                                # base_shape are view_as_real(base)'s (Note [Writing into
                                # a region])
    cdef int mirror             # fn wrote through a conj/neg view: its lazy bits (Note
                                # [Conjugate and negative views]), else 0

    def name(self):
        return "torch::autograd::CopySlices"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        if self.reals:
            res = self._apply(OPS.view_as_real(g))
            gb = res[0]
            if gb is not None:
                gb = OPS.view_as_complex(gb)
            return (gb,) + tuple(res[1:])
        return self._apply(g)

    cdef tuple _apply(self, Tensor g):
        if is_released(self):  # (fn dropped)
            raise RuntimeError(MSG_BACKWARD_TWICE)
        cdef Tensor region = make(self.region)
        gb = gv = None
        if self.fn is not None:
            return self._apply_fn(g, region)
        if needs_input_grad(self, 0):
            if self.overlapping_view:
                raise RuntimeError(MSG_OVERLAPPING_WRITE)
            if self.accumulate:
                return (g, OPS.take(g, region) if needs_input_grad(self, 1) else None)
            written = np.zeros(cnp.PyArray_SIZE(g._data), dtype=bool)
            written[self.region.reshape(-1)] = True
            gb = OPS.masked_fill(g, make(written.reshape(self.base_shape)), 0)
        if needs_input_grad(self, 1):
            gv = OPS.take(g, region)
            meta = input_meta_of(self)
            if (meta is not None and meta[1] is not None and cnp.PyArray_ISCOMPLEX(gv._data)
                    and (<dtype>meta[1][1]).category != CAT_COMPLEX):
                # real values copied into a complex base: PyTorch's copy_ gives them the
                # real part of the gradient (handle_r_to_c in its derivatives.yaml)
                gv = OPS.real(gv)
        return (gb, gv)

    cdef tuple _apply_fn(self, Tensor g, Tensor region):
        # PyTorch's CopySlices::apply: fn on the gradient of the region; its gradient for
        # input 0 replaces the base's there (in the base's dtype: an op computed wider,
        # float32 += float64, gives it in the wider one), the others go to fn's other
        # inputs (this node's input metadata, fn's, reduces and casts them)
        # (through a conj/neg view, fn's output and input 0 are the mirror of the
        # region's memory: their gradients too)
        cdef Tensor gr = OPS.take(g, region)
        if self.mirror:
            gr = _mirrored(gr, self.mirror)
        res = self.fn.apply((gr,))
        written = np.zeros(cnp.PyArray_SIZE(g._data), dtype=bool)
        written[self.region.reshape(-1)] = True
        gb = OPS.masked_fill(g, make(written.reshape(self.base_shape)), 0)
        cdef Tensor g0
        if len(res) and res[0] is not None:
            g0 = res[0]
            if cnp.PyArray_TYPE(g0._data) != cnp.PyArray_TYPE(gb._data):
                g0 = OPS._to_copy(g0, dtype_of(gb._data))
            if self.mirror:
                g0 = _mirrored(g0, self.mirror)
            gb = OPS.put(gb, region, g0, True)
        cdef list rest = list(res[1:])
        meta = input_meta_of(self)
        if meta is not None and type(self.fn).__name__ in _r_to_c_nodes:
            # a real input of fn: the real part, as the engine gives it at fn itself (at
            # this node, which is not fn, it would refuse: Note [Complex autograd])
            for i in range(len(rest)):
                gi = rest[i]
                m = meta[i + 1]
                if (gi is not None and m is not None and cnp.PyArray_ISCOMPLEX((<Tensor>gi)._data)
                        and (<dtype>m[1]).category != CAT_COMPLEX):
                    rest[i] = OPS.real(gi)
        return (gb,) + tuple(rest)

    cdef void release_saved(self) noexcept:
        # a second backward through it raises; the node it wraps is dropped, not
        # released, as PyTorch's (Note [CopySlices wraps the op]: a second-order graph
        # may still run it), so its saved state goes when nothing else holds it
        set_released(self)
        self.fn = None


cdef int rebase_history_through(Tensor view, Node fn, tuple inputs) except -1:
    """PyTorch's rebase_history for a view that a custom Function (node fn, tensor
    inputs `inputs`) modified in place (mark_dirty): the base's history becomes a
    CopySlices wrapping fn (Note [CopySlices wraps the op]; fn's input 0 is taken to be
    the view, as PyTorch's; its other edges are fn's own, made from `inputs` when fn was
    recorded). The caller has written the values already; the view's own history is
    rebuilt when next read (Note [View + in-place])."""
    cdef Tensor base = view._base
    cdef CopySlices node = CopySlices.__new__(CopySlices)
    node.region = region_of(view)
    node.base_shape = region_base_shape(view._data, base)
    node.reals = reals_of_complex(view._data, base._data)
    return _wrap(node, base, fn)


cdef Tensor _mirrored(Tensor t, int bits):
    """What a conj/neg view with these bits shows of t's memory: conj and/or negation
    (each its own adjoint, so also the gradient through such a view either way)."""
    if bits & LAZY_CONJ:
        t = OPS.conj_physical(t)
    if bits & LAZY_NEG:
        t = OPS.neg(t)
    return t


cdef int _wrap(CopySlices node, Tensor base, Node fn) except -1:
    """Make node, a CopySlices over a region of base, base's history, wrapping fn (Note
    [CopySlices wraps the op]): its edges are base's old history, then fn's but the
    first, with fn's input metadata for them."""
    node.fn = fn
    cdef Node old = base._grad_fn
    record_wrapping(node, base, fn)
    base._output_nr = 0
    move_retained_grad(base, old)
    return 0


# The names of the nodes whose formulas take the real part of a complex gradient for a
# real input: the engine's list (_R_TO_C_NODES in engine.pyx, Note [Complex autograd]),
# handed over when the engine is imported, for the node a CopySlices wraps (_apply_fn)
cdef frozenset _r_to_c_nodes = frozenset()


def _set_r_to_c_nodes(names):
    global _r_to_c_nodes
    _r_to_c_nodes = frozenset(names)


cdef class IndexPutBackward0(CopySlices):
    """A write through an advanced index (setitem with index tensors or masks)."""

    def name(self):
        return "IndexPutBackward0"


cdef class AsStridedBackward0(Node):
    """A view's history rebuilt over its base's new history after an in-place write
    (Note [View + in-place])."""
    cdef cnp.ndarray region
    cdef tuple base_shape
    cdef tuple size
    cdef tuple stride
    cdef Py_ssize_t storage_offset
    cdef bint reals             # a real view of a complex base: region and base_shape are
                                # view_as_real(base)'s (Note [Writing into a region])

    @property
    def _saved_size(self):
        return self.size

    @property
    def _saved_stride(self):
        return self.stride

    @property
    def _saved_storage_offset(self):
        return self.storage_offset

    cdef cnp.ndarray inside     # as_strided reaching outside its input: the flat
                                # positions of its elements inside it (the others get
                                # no gradient, as PyTorch's), else None

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        cdef Tensor base_grad = zeros(self.base_shape, dtype_of(g._data))
        if cnp.PyArray_SIZE(g._data) == 0:
            # an empty view: its gradient reaches nothing, a constant (PyTorch's
            # as_strided_backward returns zeros without history here)
            pass
        elif self.inside is not None:
            base_grad = OPS.put(base_grad, make(self.region.reshape(-1)[self.inside]),
                                OPS.take(g, make(self.inside)), True)
        else:
            base_grad = OPS.put(base_grad, make(self.region), g, True)
        if self.reals:
            return (OPS.view_as_complex(base_grad),)
        return (base_grad,)


cdef class AsStridedBackward1(AsStridedBackward0):
    """The history of as_strided_ (the in-place as_strided)."""


cdef int write_region(Tensor target, cnp.ndarray region, Tensor values, bint advanced,
                      bint accumulate=False) except -1:
    """_write_region with nothing to wrap."""
    return _write_region(target, region, values, advanced, accumulate, None)


cdef int _write_region(Tensor target, cnp.ndarray region, Tensor values, bint advanced,
                       bint accumulate, Node op) except -1:
    """Record that target's base now holds `values` at `region` (Note [Writing into a
    region]); advanced: an index_put_ into target itself (IndexPutBackward0 when target
    is not a view); accumulate: the values were added to the region's (index_put_'s
    accumulate=True; region then lists a position once per value aimed at it). The
    caller has already written the values into memory. A view's own history is rebuilt
    when next read (Note [View + in-place]). op: the node of the in-place op that made
    the values from target (its input 0), which the CopySlices wraps as PyTorch's does
    (its edges: the base's old history, then op's edges but the first)."""
    cdef Tensor base = target._base if target._base is not None else target
    cdef int bits = lazy_bits(target) if _any_mirrors else 0
    cdef CopySlices node = (IndexPutBackward0.__new__(IndexPutBackward0)
                            if advanced and target is base
                            else CopySlices.__new__(CopySlices))
    node.region = region
    node.base_shape = region_base_shape(target._data, base)
    node.reals = reals_of_complex(target._data, base._data)
    node.accumulate = accumulate
    # (a basic write covers a part of target: overlapping only if that part's elements
    # share memory; an index_put_'s view is target whole)
    node.overlapping_view = has_internal_overlap(target._data) and (
        advanced or np.unique(region).size != cnp.PyArray_SIZE(region))
    if (op is not None and not node.reals and not node.overlapping_view
            and cnp.PyArray_TYPE(values._data) == cnp.PyArray_TYPE(base._data)
            and same_shape(values._data, region)):
        node.mirror = bits
        return _wrap(node, base, op)
    if bits:    # written through a conj/neg view: its base holds the values' conj/neg
        values = _mirrored(values, bits)
    cdef Node old = base._grad_fn
    record(node, base, (base, values))
    base._output_nr = 0
    move_retained_grad(base, old)
    # (an index_put_'s values broadcast to the region unexpanded, as PyTorch's, whose
    # engine sums their gradient back)
    if (dtype_of(values._data) is not dtype_of(base._data)
            or shape_of(values._data) != shape_of(region)):
        set_input_meta(node, (None, (shape_of(values._data), dtype_of(values._data))))
