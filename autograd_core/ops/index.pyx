"""Indexing ops: x[key] and x[key] = v, index_select, gather, scatter / scatter_add,
masked_fill / masked_select, take / put, and the ops their derivatives are written in
(index, _index_put_impl, index_add, masked_scatter).

Their nodes, wiring and Python wrappers are generated from the index section of
derivatives.yaml (_gen_index.pxi, included at the end); this file holds the forwards,
the derivative helpers the formulas call (PyTorch's FunctionsManual names) and the
wrappers the schema cannot express.

>>> import autograd_core as torch
>>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> x[:, torch.tensor([1, 1])].sum().backward()
>>> x.grad
tensor([[0., 2.],
        [0., 2.]])
"""
include "_prelude.pxi"

import sys


# How a hand-written wrapper numbers arguments in messages: a function from input, a
# method from the first argument after self (PyTorch's numbering).
cdef enum ArgNumbering:
    METHOD_ARGS = 0
    FUNCTION_ARGS = 1


cdef inline tuple _nonempty(tuple shape):
    """gather/scatter address a 0-d tensor as a 1-element 1-d one."""
    return shape if len(shape) else (1,)


cdef inline Py_ssize_t _ne1(Py_ssize_t n):
    return n if n > 0 else 1


# ================================================================ x[key]
#
# Note [PyTorch indexing]
# PyTorch applies a key in two steps (python_variable_indexing.cpp, TensorIndexing.h):
# first the basic parts one after another, each a view op on the result so far (an
# int selects, a slice slices, None and a bool unsqueeze; a key that does nothing
# gives an alias), then, if index tensors / lists / masks / bools remain, one advanced
# `index` over that view with them at the dims they sit on. numpy's combined
# semantics differ (an int between two index arrays makes them "separated"), so a key
# is planned the same way: `steps`, the view ops in order, and `records`, the index
# arrays and masks with the dims of the steps' result they apply to, which become a
# numpy advanced key over that result (checked as PyTorch's index checks it). x[key]
# runs the steps through the view family's ops (so the grad_fn chain is PyTorch's:
# SelectBackward0, SliceBackward0, UnsqueezeBackward0, AliasBackward0, then
# IndexBackward0); x[key] = v applies them to arrays to find the written region of x's
# base (Note [Writing into a region]).

# the parsed kinds of a key's entries
cdef enum ItemKind:
    ITEM_INT
    ITEM_SLICE
    ITEM_NONE
    ITEM_ELLIPSIS
    ITEM_BOOL
    ITEM_INDEX          # an integer index array
    ITEM_MASK           # a boolean mask

# the view steps of a plan
cdef enum StepKind:
    STEP_SELECT         # (STEP_SELECT, dim, index)
    STEP_SLICE          # (STEP_SLICE, dim, start, stop, step), Python's unpacked slice
    STEP_UNSQUEEZE      # (STEP_UNSQUEEZE, dim)


cdef str MSG_INDEX_0D = (
    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
    "in C++ to convert a 0-dim tensor to a number")
cdef str MSG_INDEX_DTYPE = "tensors used as indices must be long, int, byte or bool tensors"


cdef class _Plan:
    """A key planned against a tensor (Note [PyTorch indexing])."""
    cdef list steps         # the view steps, in order
    cdef list records       # the advanced step: (dim, index array, is_mask) over the
                            # steps' result; empty when the key has none
    cdef tuple shape        # the shape after the steps


cdef str _py_type_name(object k):
    t = type(k)
    mod = getattr(t, "__module__", "builtins")
    return t.__name__ if mod == "builtins" else f"{mod}.{t.__name__}"


cdef bint _treat_sequence_as_tuple(object key):
    """PyTorch's (and numpy's old) heuristic for a non-tuple sequence key."""
    if isinstance(key, tuple):
        return True
    if not isinstance(key, list):
        return False
    if len(key) >= 32:
        return False
    for o in key:
        if isinstance(o, (Tensor, list, tuple, slice, np.ndarray, str)) or o is Ellipsis or o is None:
            return True
    return False


cdef Py_ssize_t _specified_dims(tuple items):
    """How many of the tensor's dims a key's entries consume (PyTorch's count)."""
    cdef Py_ssize_t count = 0
    cdef dtype d
    for obj in items:
        if isinstance(obj, Tensor):
            d = dtype_of((<Tensor>obj)._data)
            if d is bool_ or d is uint8:
                count += cnp.PyArray_NDIM((<Tensor>obj)._data)
            else:
                count += 1
        elif obj is not None and obj is not Ellipsis and obj is not True and obj is not False:
            count += 1
    return count


cdef object _sequence_index(object seq):
    """A list (or numpy array) in a key, as PyTorch's indexing tensor: bool or int64."""
    try:
        arr = np.asarray(seq)
    except ValueError:
        raise IndexError("too many indices") from None
    if arr.dtype.kind in "USV":
        raise TypeError("new(): invalid data type 'str'")
    if arr.dtype == object or (arr.dtype == np.uint64 and not isinstance(seq, np.ndarray)):
        # numpy keeps ints past int64 as objects or uint64; PyTorch reads them as int64
        # and fails on the first (Note [Ints past int64])
        for v in arr.flat:
            if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
                checked_int64(int(v))
    if arr.dtype == object:
        raise TypeError("too many indices")
    if arr.dtype == np.bool_:
        return arr
    if arr.dtype.kind not in "iuf" and arr.size:
        raise IndexError(MSG_INDEX_DTYPE)
    return arr.astype(np.int64)


cdef object _SSIZE_MAX = sys.maxsize


cdef tuple _key_item(object k):
    """One entry of a key as (kind, value)."""
    cdef cnp.ndarray a
    cdef dtype d
    if type(k) is int:
        return (ITEM_INT, checked_int64(k))
    if type(k) is slice and k.step is None and (k.start is None or type(k.start) is int) \
            and (k.stop is None or type(k.stop) is int) \
            and (k.start is None or -_SSIZE_MAX <= k.start <= _SSIZE_MAX) \
            and (k.stop is None or -_SSIZE_MAX <= k.stop <= _SSIZE_MAX):
        return (ITEM_SLICE, k)
    if isinstance(k, Tensor):
        a = (<Tensor>k)._data
        d = dtype_of(a)
        if d.category == CAT_FLOAT or (a.ndim and (d is int8 or d is int16)):
            raise IndexError(MSG_INDEX_DTYPE)
        if d is bool_ or d is uint8:
            if d is uint8:
                warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a "
                              "dtype torch.bool instead.", UserWarning)
            if a.ndim == 0:
                return (ITEM_BOOL, bool(a))
            return (ITEM_MASK, a.astype(bool))
        if a.ndim == 0:
            return (ITEM_INT, int(a))
        return (ITEM_INDEX, a.astype(np.int64))
    if isinstance(k, bool):
        return (ITEM_BOOL, k)
    if isinstance(k, (int, np.integer)):
        return (ITEM_INT, checked_int64(int(k)))
    if k is None:
        return (ITEM_NONE, None)
    if k is Ellipsis:
        return (ITEM_ELLIPSIS, None)
    if isinstance(k, slice):
        vals = []
        for v in (k.start, k.stop, k.step):
            if v is not None and (isinstance(v, bool) or not hasattr(v, "__index__")):
                raise TypeError("slice indices must be integers or None or have an __index__ method")
            # Python's PySlice_Unpack, which PyTorch calls: bounds past the machine's
            # range are clamped to it, not errors
            vals.append(None if v is None else v.__index__())
        if any(v is not None and not -_SSIZE_MAX - 1 <= v <= _SSIZE_MAX for v in vals):
            warnings.warn("Truncating the start/stop/step of slice. This is likely because of "
                          "saved old models when the start/stop/step were larger.", UserWarning)
            vals = [None if v is None else builtins.min(builtins.max(v, -_SSIZE_MAX - 1),
                                                        _SSIZE_MAX) for v in vals]
        if vals[2] is not None and vals[2] == 0:
            raise ValueError("slice step cannot be zero")
        if vals[2] is not None and vals[2] < 0:
            raise ValueError("step must be greater than zero")
        return (ITEM_SLICE, slice(vals[0], vals[1], vals[2]))
    if isinstance(k, (list, tuple, np.ndarray, range)):
        arr = _sequence_index(k)
        if arr.dtype == np.bool_:
            if arr.ndim:
                return (ITEM_MASK, arr)
            return (ITEM_BOOL, bool(arr))
        return (ITEM_INDEX, arr)
    if isinstance(k, str):
        raise TypeError("new(): invalid data type 'str'")
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     f"Variables are valid indices (got {_py_type_name(k)})")


cdef _Plan _plan_key(Tensor x, object key, bint getitem):
    """Plan x[key] (getitem) or x[key] = v (Note [PyTorch indexing]), checking the key
    as PyTorch does."""
    cdef list shape = list(shape_of(x._data))
    cdef Py_ssize_t nd = len(shape), dim = 0, specified, i, size, n, ival
    cdef bint single
    if isinstance(key, tuple):
        items = key
        single = False
    elif isinstance(key, list) and _treat_sequence_as_tuple(key):
        items = tuple(key)
        single = False
    else:
        items = (key,)
        # PyTorch's fast paths for one int, slice, None, Ellipsis or bool: no count check
        single = (key is None or key is Ellipsis or isinstance(key, (bool, slice))
                  or (isinstance(key, (int, np.integer))))
        if isinstance(key, str):
            raise TypeError("new(): invalid data type 'str'")
    specified = _specified_dims(items)
    if not single and specified > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    cdef _Plan plan = _Plan.__new__(_Plan)
    plan.steps = []
    plan.records = []
    cdef list records = plan.records
    for i in range(len(items)):
        kind, val = _key_item(items[i])
        if kind == ITEM_INT:
            ival = val
            if ival == 0 and dim == 0 and len(shape) == 0:
                raise IndexError(MSG_INDEX_0D)
            size = shape[dim] if dim < len(shape) else 0
            if ival < -size or ival >= size:
                raise IndexError(f"index {ival} is out of bounds for dimension {i} with size {size}")
            plan.steps.append((STEP_SELECT, dim, ival + size if ival < 0 else ival))
            del shape[dim]
        elif kind == ITEM_SLICE:
            if len(shape) == 0:
                raise IndexError("slice() cannot be applied to a 0-dim tensor.")
            if dim >= len(shape):
                raise dim_error(dim, len(shape))
            n = shape[dim]
            start = 0 if val.start is None else val.start
            stop = sys.maxsize if val.stop is None else val.stop
            step = 1 if val.step is None else val.step
            # PyTorch skips a slice that keeps everything, except for a key that is a
            # single slice in x[key]
            if (getitem and single) or not (start == 0 and stop >= n and step == 1):
                plan.steps.append((STEP_SLICE, dim, start, stop, step))
                shape[dim] = len(range(*slice(start, stop, step).indices(n)))
            dim += 1
        elif kind == ITEM_NONE:
            if dim > len(shape):
                raise dim_error(dim, len(shape) + 1)
            plan.steps.append((STEP_UNSQUEEZE, dim))
            shape.insert(dim, 1)
            dim += 1
        elif kind == ITEM_ELLIPSIS:
            dim += nd - specified
        elif kind == ITEM_BOOL:
            plan.steps.append((STEP_UNSQUEEZE, dim))
            shape.insert(dim, 1)
            records.append((dim, np.zeros(1 if val else 0, dtype=np.int64), False))
            dim += 1
        elif kind == ITEM_INDEX:
            records.append((dim, val, False))
            dim += 1
        else:
            records.append((dim, val, True))
            dim += (<cnp.ndarray>val).ndim
    plan.shape = tuple(shape)
    return plan


cdef tuple _advanced_key(list records, tuple yshape):
    """The numpy advanced key over the planned view, checked as PyTorch's index checks
    it: masks against the shape, the number of indexed dims, the indices' broadcast,
    then (only when the result has elements) the indices' bounds, element by element."""
    out = []
    shapes = []
    cdef Py_ssize_t pos = 0, j, r, n
    for r, arr, is_mask in records:
        while pos < r:
            out.append(slice(None))
            pos += 1
        if is_mask:
            for j in range(arr.ndim):
                if r + j < len(yshape) and arr.shape[j] != yshape[r + j]:
                    raise IndexError(
                        f"The shape of the mask {shape_str(arr.shape)} at index {j} does not "
                        f"match the shape of the indexed tensor {shape_str(yshape)} at index {r + j}")
            shapes.extend([(int(np.count_nonzero(arr)),)] * arr.ndim)
            pos += arr.ndim
        else:
            shapes.append(arr.shape)
            pos += 1
        out.append(arr)
    if pos > len(yshape):
        raise IndexError(f"too many indices for tensor of dimension {len(yshape)} (got {pos})")
    try:
        bshape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with "
                         "shapes " + ", ".join([shape_str(s) for s in shapes])) from None
    # the result's size: the indices' broadcast shape times the dims they do not index
    cdef Py_ssize_t rest = shape_numel(bshape), d, k
    covered = set()
    for r, arr, is_mask in records:
        covered.update(range(r, r + (arr.ndim if is_mask else 1)))
    for d in range(len(yshape)):
        if d not in covered:
            rest *= yshape[d]
    cdef list checks = []       # (broadcast indices, flat; the dim's size; its ordinal)
    cdef Py_ssize_t ordinal = 0
    for k in range(len(records)):
        r, arr, is_mask = records[k]
        if is_mask:
            ordinal += arr.ndim
            continue
        n = yshape[r]
        if rest == 0:
            # nothing is read: PyTorch does not check the indices (numpy would)
            if n:
                out[r - _key_offset(records, k)] = np.clip(arr, -n, n - 1)
        elif arr.size:
            checks.append((np.broadcast_to(arr, bshape).reshape(-1), n, ordinal))
        ordinal += 1
    if checks:
        bads = [(a < -n) | (a >= n) for a, n, _ in checks]
        anybad = np.logical_or.reduce(bads) if len(bads) > 1 else bads[0]
        if anybad.any():
            p = int(np.argmax(anybad))
            for k in range(len(checks)):
                if bads[k][p]:
                    a, n, ordinal = checks[k]
                    raise IndexError(f"index {int(a[p])} is out of bounds for dimension "
                                     f"{ordinal} with size {n}")
    return tuple(out)


cdef Py_ssize_t _key_offset(list records, Py_ssize_t k):
    """How many more dims than key entries the masks among records[:k] cover."""
    cdef Py_ssize_t off = 0, i
    for i in range(k):
        if records[i][2]:
            off += records[i][1].ndim - 1
    return off


cdef Tensor _view_steps(Tensor x, list steps):
    """The plan's view steps applied to x through the view ops."""
    for step in steps:
        kind = step[0]
        if kind == STEP_SELECT:
            x = OPS.select(x, step[1], step[2])
        elif kind == STEP_SLICE:
            x = OPS.slice(x, step[1], step[2], step[3], step[4])
        else:
            x = OPS.unsqueeze(x, step[1])
    return x


cdef object _array_steps(object a, list steps):
    """The plan's view steps applied to a numpy array (a view of it)."""
    for step in steps:
        kind = step[0]
        if kind == STEP_SELECT:
            a = a[(slice(None),) * step[1] + (step[2], Ellipsis)]
        elif kind == STEP_SLICE:
            a = a[(slice(None),) * step[1] + (slice(step[2], step[3], step[4]),)]
        else:
            a = np.expand_dims(a, step[1])
    return a


cdef Tensor op__getitem(Tensor self, object indices):
    cdef Py_ssize_t i, n
    if type(indices) is int and cnp.PyArray_NDIM(self._data) > 0:
        # the commonest key, x[i]: PyTorch's select
        i = checked_int64(indices)
        n = cnp.PyArray_DIMS(self._data)[0]
        if i < -n or i >= n:
            raise IndexError(f"index {i} is out of bounds for dimension 0 with size {n}")
        return OPS.select(self, 0, i + n if i < 0 else i)
    if type(indices) is tuple:
        gathered = _gather_every_dim(self, <tuple>indices)
        if gathered is not None:
            return gathered
    cdef _Plan plan = _plan_key(self, indices, True)
    cdef Tensor y = _view_steps(self, plan.steps)
    if plan.records:
        return op_index(y, _advanced_key(plan.records, plan.shape))
    if y is self:
        return OPS.alias(self)
    return y


cdef object _gather_every_dim(Tensor x, tuple key):
    """x[i0, ..., ik] with one 1-D int64 index tensor per dim of x, all of one nonzero
    length (a loss picking logp[rows, labels]): the general plan's result, 1-D and so in
    PyTorch's layout, without planning. None where that path must decide, which gives
    PyTorch's messages too (an index out of bounds is one)."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x._data), n = -1
    cdef cnp.ndarray a
    if nd == 0 or len(key) != nd:
        return None
    for item in key:
        if not isinstance(item, Tensor):
            return None
        a = (<Tensor>item)._data
        if cnp.PyArray_TYPE(a) != cnp.NPY_INT64 or cnp.PyArray_NDIM(a) != 1:
            return None
        if n < 0:
            n = cnp.PyArray_DIMS(a)[0]
        elif cnp.PyArray_DIMS(a)[0] != n:
            return None
    if n == 0:
        return None
    # the key keeps copies of the indices, as the general path's conversion does
    arrays = tuple([(<Tensor>item)._data.copy() for item in key])
    try:
        out = x._data[arrays]
    except IndexError:
        return None
    cdef Tensor result = make(out)
    record_IndexBackward0(result, x, arrays)
    return result


cdef object _index_error(Exception e, Tensor x):
    """numpy's IndexError for an advanced key, in PyTorch's words."""
    msg = str(e)
    if "too many indices" in msg:
        return IndexError(f"too many indices for tensor of dimension {cnp.PyArray_NDIM(x._data)}")
    msg = msg.replace("for axis", "for dimension").replace(
        "indexing arrays could not be broadcast", "indexing tensors could not be broadcast")
    return IndexError(msg)


# indices: a numpy advanced key (a tuple of index arrays, boolean masks and full slices)
cdef Tensor op_index(Tensor self, object indices):
    try:
        out = self._data[indices]
    except IndexError as e:
        raise _index_error(e, self) from None
    cdef cnp.ndarray arr = as_array(out)
    if not any([isinstance(k, np.ndarray) for k in indices]):
        arr = arr.copy()    # a key without index arrays gives numpy's view: index copies
    elif _leading_index_of_contiguous(self._data, indices):
        if not cnp.PyArray_IS_C_CONTIGUOUS(arr):   # (PyTorch's layout here: C order)
            arr = np.ascontiguousarray(arr)
    else:
        strides = _index_result_strides(self._data, indices, shape_of(arr))
        if _elem_strides_of(arr) != strides:
            laid = np.lib.stride_tricks.as_strided(
                np.empty(cnp.PyArray_SIZE(arr), dtype=arr.dtype), shape_of(arr),
                tuple([st * cnp.PyArray_ITEMSIZE(arr) for st in strides]))
            laid[...] = arr
            arr = laid
    cdef Tensor result = make(arr)
    record_IndexBackward0(result, self, indices)
    return result


# Note [Index result layout]
# PyTorch's index computes its result with a TensorIterator over the input restrided
# (the indexed dims replaced by the indices' broadcast shape, stride 0; moved to the
# front first when they are not adjacent) and the index tensors viewed to that shape
# (size-1 dims elsewhere; a mask becomes the columns of its nonzero(), stride = its
# ndim). The result's strides are the iterator's (Note [Pointwise output layout]:
# iter_output_strides). _index_result_strides builds those operands so that
# x[idx].stride() is PyTorch's.

cdef tuple _elem_strides_of(cnp.ndarray a):
    cdef Py_ssize_t item = cnp.PyArray_ITEMSIZE(a)
    return tuple([st // item for st in (<object>a).strides])


cdef bint _leading_index_of_contiguous(cnp.ndarray x, tuple key):
    """The common x[idx] whose PyTorch layout is C order without working it out
    (Note [Index result layout]): x in C order, one index (a C-ordered int array or a
    mask) first in the key, nothing but full slices after it."""
    if not cnp.PyArray_IS_C_CONTIGUOUS(x) or not key or not isinstance(key[0], np.ndarray):
        return False
    if not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>key[0]):
        return False
    for entry in key[1:]:
        if isinstance(entry, np.ndarray):
            return False
    return True


cdef tuple _index_result_strides(cnp.ndarray x, tuple key, tuple out_shape):
    """The strides (in elements) of PyTorch's x[key] (Note [Index result layout]); key:
    a numpy advanced key (full slices, int index arrays, bool masks)."""
    cdef list dims = []          # per dim of x: None or (index shape, index strides)
    cdef Py_ssize_t d = 0, j, k, nd = cnp.PyArray_NDIM(x)
    for entry in key:
        if isinstance(entry, np.ndarray) and entry.dtype == np.bool_:
            count = int(np.count_nonzero(entry))
            for j in range(entry.ndim):
                dims.append(((count,), (entry.ndim,)))
            d += entry.ndim
        elif isinstance(entry, np.ndarray):
            dims.append((tuple(entry.shape), _elem_strides_of(entry)))
            d += 1
        else:
            dims.append(None)
            d += 1
    while len(dims) < nd:
        dims.append(None)
    cdef list xshape = list(shape_of(x)), xstrides = list(_elem_strides_of(x))
    indexed = [i for i in range(nd) if dims[i] is not None]
    if not indexed:
        return _elem_strides_of(np.empty(out_shape))
    if indexed[-1] - indexed[0] + 1 != len(indexed):   # not adjacent: to the front
        order = indexed + [i for i in range(nd) if dims[i] is None]
        dims = [dims[i] for i in order]
        xshape = [xshape[i] for i in order]
        xstrides = [xstrides[i] for i in order]
        indexed = list(range(len(indexed)))
    ishapes = [dims[i][0] for i in indexed]
    bshape = tuple(np.broadcast_shapes(*ishapes))
    nb = len(bshape)
    # the index tensors expanded to bshape (expand_outplace: only when shapes differ)
    istrides = []
    for i in indexed:
        sh, st = dims[i]
        if sh == bshape:
            istrides.append(tuple(st))
            continue
        pad = nb - len(sh)
        istrides.append(tuple([0 if k < pad or sh[k - pad] != bshape[k] else st[k - pad]
                               for k in range(nb)]))
    before, after = indexed[0], len(xshape) - indexed[-1] - 1
    shape = xshape[:before] + list(bshape) + xshape[indexed[-1] + 1:]
    if tuple(shape) != out_shape:
        return _elem_strides_of(np.empty(out_shape))   # (not expected)
    src = xstrides[:before] + [0] * nb + xstrides[indexed[-1] + 1:]
    operands = [src]
    for st in istrides:
        # reshape_indexer's view: size-1 dims around the index's own
        inner = st[-1] if nb else 1
        lead = (st[0] * bshape[0]) if nb else 1
        operands.append([lead] * before + list(st) + [inner] * after)
    n = len(shape)
    # TensorIterator: a broadcast dim (size 1 in the operand, not in the shape) has
    # stride 0 (the restrided input's size-1 dims are its own)
    for op_i in range(1, len(operands)):
        full = [1] * before + list(bshape) + [1] * after
        operands[op_i] = [0 if full[k] == 1 and shape[k] != 1 else operands[op_i][k]
                          for k in range(n)]
    strides = iter_output_strides(tuple(shape), operands)
    if strides is None:
        return _elem_strides_of(np.empty(out_shape, dtype=np.int8))
    return strides


cdef Tensor index_backward(Tensor grad, tuple self_shape, object indices):
    """zeros of self's shape with grad added at indices (repeats add up)."""
    cdef cnp.ndarray out
    if not grad_enabled() and not fw_active():  # the sum _index_put_impl makes, unrecorded
        out = np.zeros(self_shape, dtype=grad._data.dtype)
        with quiet():
            np.add.at(out, indices, grad._data)
        return make(out)
    return OPS._index_put_impl(zeros(self_shape, dtype_of(grad._data)), indices, grad, True)


cdef Tensor op__index_put_impl(Tensor self, object indices, Tensor values, bint accumulate):
    cdef cnp.ndarray out = self._data.copy()
    cdef cnp.ndarray vals = cast_array(values._data, dtype_of(out))
    try:
        with quiet():
            if accumulate:
                np.add.at(out, indices, vals)
            else:
                out[indices] = vals
    except IndexError as e:
        raise _index_error(e, self) from None
    cdef Tensor result = make(out)
    record_IndexPutImplBackward0(result, self, indices, values, accumulate)
    return result


# ================================================================ x[key] = v

cdef tuple _strip_leading_ones(tuple s):
    cdef Py_ssize_t i = 0
    while i < len(s) and s[i] == 1:
        i += 1
    return s[i:]


cdef cnp.ndarray _expanded_value(cnp.ndarray value, tuple target, tuple stripped):
    """A basic write's value as copy_ sees it: expanded to the target with expand's
    strides (numpy's broadcast_to gives new size-1 dims stride 0, PyTorch's expand the
    stride they would have: the overlap checks compare strides)."""
    src = value.reshape(stripped) if len(shape_of(value)) > len(target) else value
    if shape_of(src) != target:
        with NoGradGuard():
            src = OPS.expand(make(src), target)._data
    return src


cdef bint _check_setitem_overlap(cnp.ndarray view, cnp.ndarray value, bint adv, object mask,
                                 tuple target, tuple stripped, int self_ndim) except -1:
    """A value sharing memory with the target of x[key] = value, as PyTorch checks it:
    index_put_ refuses any overlap (assert_no_overlap), except through the lone bool
    mask with a one-element value (masked_fill_, which reads the value first); a basic
    write is copy_ (assert_no_partial_overlap) or, with a 0-d value, fill_. Returns
    whether the copy must then run element by element (PyTorch's TensorIterator copies
    in memory order, so an overlap it does not refuse sees values already written,
    where numpy copies as if from a copy)."""
    cdef int status
    if adv:
        if (isinstance(mask, Tensor) and dtype_of((<Tensor>mask)._data) is bool_
                and cnp.PyArray_SIZE(value) == 1 and self_ndim > 0):
            return False
        status = overlap_status(view, value)
        if status == OVERLAP_FULL or status == OVERLAP_PARTIAL:
            raise RuntimeError(MSG_PARTIAL_OVERLAP)
        return status == OVERLAP_TOO_HARD
    if cnp.PyArray_NDIM(value) == 0 and target != ():
        return False  # fill_
    status = overlap_status(view, _expanded_value(value, target, stripped))
    if status == OVERLAP_PARTIAL:
        raise RuntimeError(MSG_PARTIAL_OVERLAP)
    return status == OVERLAP_TOO_HARD


cdef void _copy_in_order(cnp.ndarray dst, cnp.ndarray src) except *:
    """dst[...] = src one element at a time in dst's memory order (PyTorch's copy of
    overlapping memory, which it allows when it cannot tell: see _check_setitem_overlap)."""
    cdef tuple shape = shape_of(dst)
    src = np.broadcast_to(src, shape)
    if not shape:
        dst[...] = src
        return
    idx = np.indices(shape).reshape(len(shape), -1).T
    addr = idx @ np.asarray((<object>dst).strides, dtype=np.int64)
    for k in np.argsort(addr, kind="stable"):
        i = tuple(idx[k])
        dst[i] = src[i]


cdef void _index_put_in_order(cnp.ndarray view, object key, cnp.ndarray vals) except *:
    """view[key] = vals one element at a time, in C order of the indexing result: PyTorch's
    index_put_ kernel, when its overlap check cannot tell that vals shares view's memory
    (a value that is not dense), reads values it has already written."""
    cdef tuple vshape = shape_of(view)
    targets = np.arange(cnp.PyArray_SIZE(view)).reshape(vshape)[key]
    src = np.broadcast_to(vals, np.shape(targets))
    for i in np.ndindex(np.shape(targets)):
        view[np.unravel_index(targets[i], vshape)] = src[i]


cdef Tensor op__setitem(Tensor self, object indices, object value):
    if indices is False:
        return self
    cdef Tensor v
    cdef dtype sd = dtype_of(self._data)
    if isinstance(value, Tensor):
        v = value
    elif isinstance(value, (int, float, np.integer)):   # PyTorch's: not np.float32, np.bool_
        with quiet():
            v = make(np.asarray(value).astype(sd.np_dtype))
    elif isinstance(value, complex):
        if sd.category != CAT_COMPLEX and value.imag != 0:
            raise value_overflow_error(sd.cpp_name)
        v = make(np.asarray(value if sd.category == CAT_COMPLEX else value.real)
                 .astype(sd.np_dtype))
    else:
        raise TypeError(f"can't assign a {_py_type_name(value)} to a {legacy_type_name(self)}")
    cdef _Plan plan = _plan_key(self, indices, False)
    cdef list steps = plan.steps
    cdef tuple key2 = None
    cdef bint has_view = len(steps) > 0, adv = len(plan.records) > 0
    cdef tuple target = plan.shape
    cdef tuple vs = shape_of(v._data), stripped = _strip_leading_ones(vs)
    # PyTorch's order: a basic write expands the value (its error first), then writes in
    # place (the leaf checks); an advanced write (index_put_) checks the leaf, then the
    # indices, then the value's shape
    if not adv and vs != target and len(vs) != 0 and not broadcasts_to(stripped, target):
        with NoGradGuard():
            OPS.expand(make(np.empty(stripped, dtype=v._data.dtype)), target)  # its error
        raise RuntimeError(f"setitem: cannot expand {shape_str(vs)} to {shape_str(target)}")
    # leaf checks: a key with a basic part works on a view of self
    if recording() and self._grad_fn is None and self._requires_grad:
        raise RuntimeError(MSG_LEAF_VIEW_INPLACE if has_view else MSG_LEAF_INPLACE)
    if not adv and is_zerotensor(self) and not (len(vs) == 0 and target != ()):
        raise RuntimeError(MSG_ZEROTENSOR_COPY)  # (copy_'s words; fill_'s are check_inplace's)
    check_inplace(self, (v,))
    mask = None
    if adv:
        key2 = _advanced_key(plan.records, plan.shape)
        target = shape_of(as_array(np.broadcast_to(np.int8(0), plan.shape)[key2]))
        if not any([broadcasts_to(cand, target) for cand in (vs, stripped)]):
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {shape_str(vs)} cannot be broadcast to "
                f"indexing result of shape {shape_str(target)}")
        # (a lone bool mask with a one-element value into a tensor of dims is PyTorch's
        # masked_fill_, which casts)
        mask = indices[0] if isinstance(indices, (tuple, list)) and len(indices) == 1 else indices
        if isinstance(value, Tensor) and dtype_of(v._data) is not sd and not (
                isinstance(mask, Tensor) and dtype_of((<Tensor>mask)._data) is bool_
                and cnp.PyArray_SIZE(v._data) == 1 and cnp.PyArray_NDIM(self._data) > 0):
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{sd.scalar_name} for the destination and {dtype_of(v._data).scalar_name} for "
                "the source.")
    cdef bint graph = recording() and (
        requires_grad_of(self) or requires_grad_of(v)) and recordable_array(self._data, "index_put_")
    view = _array_steps(self._data, steps)
    # (a value that is the very elements written: PyTorch's copy_ writes nothing)
    cdef bint same = (not adv and v is value and shares_memory(view, v._data)
                      and broadcasts_to(stripped, target)
                      and same_elements(view, _expanded_value(v._data, target, stripped)))
    if has_internal_overlap(view) and not same:
        if not adv:
            raise RuntimeError(MSG_OVERLAPPING_WRITE)
        # index_put_ writes into an expanded tensor with a warning, and so does the
        # masked_fill_ it hands a lone mask with one value to (Note [Fills into expanded
        # tensors]); numpy's loop below writes in order, as PyTorch's
        warn_expanded_write("index_put_", "tensor[indices] = tensor")
        if (isinstance(mask, Tensor) and dtype_of((<Tensor>mask)._data) is bool_
                and cnp.PyArray_SIZE(v._data) == 1 and cnp.PyArray_NDIM(self._data) > 0):
            warn_expanded_write("masked_fill_", "tensor[mask] = scalar")
    if fw_active() and is_grad_array(self._data):
        # Note [Forward AD]: the same write into self's tangent (zeros where v has none)
        vt = fw_grad_of(v)
        if vt is not None or fw_grad_of(self) is not None:
            with FwSuspend():
                OPS._setitem(fw_tangent_for_write(self), indices,
                             vt if vt is not None else 0.)
    cdef bint sequential = False
    if not same and v is value and shares_memory(view, v._data):
        sequential = _check_setitem_overlap(view, v._data, adv, mask, target, stripped,
                                            cnp.PyArray_NDIM(self._data))
    if not graph:
        if cnp.PyArray_SIZE(self._data):
            if not cnp.PyArray_ISWRITEABLE(self._data):
                write_values(self, self._data)  # raises the read-only memory error
            vals = v._data.reshape(stripped) if len(vs) > len(target) else v._data
            with quiet():
                if adv and sequential:
                    _index_put_in_order(view, key2, vals)
                elif adv:
                    view[key2] = vals
                elif sequential:
                    _copy_in_order(view, vals)
                else:
                    view[...] = vals
        bump_version(self)  # a write of the indexed elements only: see Note [In-place ops]
        return self
    if not has_view and not adv:
        # the whole tensor: PyTorch's copy_to (fill_ with a 0-d value, else copy_)
        if vs == target:
            OPS.copy_(self, v, False)
        elif len(vs) == 0:
            OPS.fill_(self, v)
        else:
            if stripped != vs:
                v = OPS.view(v, stripped)
            OPS.copy_(self, OPS.expand(v, target) if stripped != target else v, False)
        return self
    if len(vs) > len(target):
        v = OPS.view(v, stripped)
    if shape_of(v._data) != target and not adv and len(vs) != 0:
        # (index_put_ broadcasts its values itself, and a 0-d value is fill_'s: no
        # ExpandBackward0 in PyTorch's graph then)
        v = OPS.expand(v, target)
    region = _array_steps(region_of(self), steps)
    region = region[key2] if adv else region.copy()
    with quiet():
        if adv and sequential:
            _index_put_in_order(view, key2, v._data)
        elif adv:
            view[key2] = v._data
        elif sequential:
            _copy_in_order(view, v._data)
        else:
            view[...] = v._data
    # a write of the indexed elements only, so CopySlices over them: see Note [In-place ops]
    write_region(self, as_array(region), v, not has_view)
    bump_version(self)
    if self._base is not None:
        grad_fn_of(self)  # self's new history now (its retain_grad moves to it), as PyTorch's
    return self


# ================================================================ index_select

cdef cnp.ndarray _int_index(Tensor index, str fname, str expected):
    """index's array, when it is int32 or int64."""
    cdef cnp.ndarray a = index._data
    cdef dtype d = dtype_of(a)
    if d is not int64 and d is not int32:
        raise RuntimeError(f"{fname}(): Expected dtype {expected} for index")
    return a


cdef Tensor op_index_select(Tensor self, object dim, Tensor index):
    cdef cnp.ndarray x = self._data, idx = index._data
    cdef Py_ssize_t nd = x.ndim
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    flat = idx.reshape(-1)
    if nd == 0 and flat.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{flat.size} value(s)")
    _int_index(index, "index_select", "int32 or int64")
    if nd <= 1 and is_guarded_array(x) and not cnp.PyArray_ISCOMPLEX(x):
        # PyTorch copies a wide unsigned self of 2+ dims through its strided copy, but
        # dispatches 0-d and 1-d ones on a kernel without them (Note [Dtype guard])
        refuse_complex("index_select", self)
    if nd == 0:
        if flat[0] != 0:
            raise IndexError("index out of range in self")
        out = x.copy()
    else:
        n = shape_of(x)[d]
        if flat.size:
            if nd > 1 and x.size == 0 and n == 0:
                raise RuntimeError("index_select(): self indexing axis dim should be positive")
            bad = np.nonzero((flat < 0) | (flat >= n))[0]
            if bad.size:
                # PyTorch's kernels word it differently: the dim-1 (and empty) path, the rest
                if nd > 1 and (d == 1 or x.size == 0):
                    raise RuntimeError(f"INDICES element is out of DATA bounds, "
                                       f"id={int(flat[bad[0]])} axis_dim={n}")
                raise IndexError("index out of range in self")
        out = np.take(x, flat, axis=d)
    cdef Tensor result = make(as_array(out))
    record_IndexSelectBackward0(result, self, d, index)
    return result


cdef Tensor index_select_backward(Tensor grad, tuple self_shape, object dim, Tensor index):
    """zeros of self's shape with grad's slices added at index along dim."""
    return OPS.index_add(zeros(self_shape, dtype_of(grad._data)), dim, index, grad, 1)


# ================================================================ gather / scatter

cdef tuple _along_key(tuple idx_shape, cnp.ndarray idx, Py_ssize_t dim):
    """numpy key: for each position p of idx, the element at coordinate idx[p] along dim
    and p's own coordinates along the other dims (gather/scatter's addressing)."""
    cdef Py_ssize_t nd = len(idx_shape), k
    key = []
    for k in range(nd):
        if k == dim:
            key.append(idx)
        else:
            shp = [1] * nd
            shp[k] = idx_shape[k]
            key.append(np.arange(idx_shape[k]).reshape(shp))
    return tuple(key)


cdef void _check_index_bounds(cnp.ndarray idx, Py_ssize_t dim, Py_ssize_t n) except *:
    if not idx.size:
        return
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        v = int(idx[bad].reshape(-1)[0])
        raise RuntimeError(f"index {v} is out of bounds for dimension {dim} with size {n}")


cdef Tensor op_gather(Tensor self, object dim, Tensor index):
    cdef cnp.ndarray xa = self._data, idx = index._data
    cdef Py_ssize_t nd = xa.ndim, d = wrap_dim(dim, nd), k
    cdef tuple xs = _nonempty(shape_of(xa)), ishape = shape_of(idx), ne = _nonempty(ishape)
    if idx.size:    # PyTorch checks an empty index for nothing
        _int_index(index, "gather", "int32/int64")
        if _ne1(nd) != _ne1(idx.ndim):
            raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
        for k in range(len(xs)):
            if k != d and ne[k] > xs[k]:
                raise RuntimeError(
                    f"Size does not match at dimension {k} expected index {shape_str(ishape)} to "
                    f"be no larger than self {shape_str(shape_of(xa))} apart from dimension {d}")
        _check_index_bounds(idx, d, xs[d])
        out = xa.reshape(xs)[_along_key(ne, idx.reshape(ne).astype(np.int64), d)]
    else:
        out = np.empty(ishape, dtype=xa.dtype)
    # (numpy's fancy indexing lays the result out as the index; PyTorch's is contiguous)
    cdef Tensor result = make(as_contiguous(as_array(np.asarray(out).reshape(ishape))))
    record_GatherBackward0(result, self, d, index)
    return result


cdef Tensor _gather_args(Tensor self, str fname, ArgNumbering numbering, object dim,
                         object index, object sparse_grad):
    cdef int pos = numbering
    d = arg_int(dim, fname, "dim", pos + 1)
    i = arg_tensor(index, fname, "index", pos + 2)
    arg_bool(sparse_grad, fname, "sparse_grad", pos + 3)
    return op_gather(self, d, i)


def _py_gather(input, dim, index, *, out=None, sparse_grad=False):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(index) is not Tensor and has_torch_function(index)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_gather, (input, dim, index, ), {"out": out, "sparse_grad": sparse_grad})
    if complex_arg(input):
        check_complex_op("gather", input)  # Note [Dtype guard]
    res = _gather_args(arg_tensor(input, "gather", "input", 1), "gather", FUNCTION_ARGS, dim,
                       index, sparse_grad)
    return with_out("gather", out, res, None, True)


def _pym_gather(Tensor self, dim, index, *, sparse_grad=False):
    """Values of ``self`` along dim at ``index`` (see autograd_core.gather)."""
    if (type(dim) is not Tensor and has_torch_function(dim)) or (type(index) is not Tensor and has_torch_function(index)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_pym_gather, (self, dim, index, ), {"sparse_grad": sparse_grad})
    if complex_arg(self):
        check_complex_op("gather", self)  # Note [Dtype guard]
    return _gather_args(self, "gather", METHOD_ARGS, dim, index, sparse_grad)


_pym_gather.__name__ = _pym_gather.__qualname__ = "gather"


cdef Tensor gather_backward(Tensor grad, Tensor self, object dim, Tensor index):
    """zeros of self's shape with grad added at index along dim (repeats add up). It
    takes self, not its shape, for PyTorch's node saves self: an in-place write into self
    before backward raises, as there (Note [Saved tensor versions])."""
    return OPS.scatter_add(zeros(shape_of(self._data), dtype_of(grad._data)), dim, index, grad)


# how scatter combines src with self's values
cdef enum ScatterMode:
    SCATTER_WRITE
    SCATTER_ADD
    SCATTER_MULTIPLY


cdef ScatterMode _reduce_mode(object reduce) except *:
    if reduce is None:
        return SCATTER_WRITE
    if reduce == "add":
        return SCATTER_ADD
    if reduce == "multiply":
        return SCATTER_MULTIPLY
    raise RuntimeError("reduce argument must be either add or multiply.")


cdef Py_ssize_t _check_scatter_args(Tensor self, object dim, cnp.ndarray idx, object src,
                                    object reduce) except? -1:
    """scatter's and scatter_add's checks (PyTorch's order and messages); returns the
    wrapped dim."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data), k
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Tensor s = src if isinstance(src, Tensor) else None
    cdef dtype idt = dtype_of(idx)
    if idx.size and idt is not int64 and idt is not int32:
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if s is not None and dtype_of(s._data) is not dtype_of(self._data):
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if idx.size:
        if _ne1(nd) != _ne1(idx.ndim):
            raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
        xs = _nonempty(shape_of(self._data))
        ishape = _nonempty(shape_of(idx))
        wrong = any([k != d and ishape[k] > xs[k] for k in range(len(xs))])
        if not wrong and s is not None:
            for k in range(len(xs)):
                if ishape[k] > _src_size(s, k):
                    wrong = True
                    break
        if wrong and s is not None:
            raise RuntimeError(
                f"Expected index {shape_str(shape_of(idx))} to be no larger than self "
                f"{shape_str(shape_of(self._data))} apart from dimension {d} and to be no larger "
                f"size than src {shape_str(shape_of(s._data))}")
        if wrong:
            raise RuntimeError(f"Expected index {shape_str(shape_of(idx))} to be no larger than "
                               f"self {shape_str(shape_of(self._data))} apart from dimension {d}")
    _reduce_mode(reduce)
    if idx.size:
        if s is not None and _ne1(s._data.ndim) != _ne1(idx.ndim):
            raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
        _check_index_bounds(idx, d, _nonempty(shape_of(self._data))[d])
    return d


cdef Py_ssize_t _src_size(Tensor s, Py_ssize_t k) except? -1:
    """src.size(k) as PyTorch's check reads it (a 0-d src has size 1)."""
    cdef Py_ssize_t n = cnp.PyArray_NDIM(s._data)
    if n == 0:
        return 1
    if k >= n:
        raise dim_error(k, n)
    return cnp.PyArray_DIMS(s._data)[k]


cdef cnp.ndarray _scatter_values(cnp.ndarray x, Py_ssize_t dim, cnp.ndarray idx, object src,
                                 ScatterMode mode):
    """x's values with src's elements (a Tensor's, or a number) combined in at idx along dim."""
    cdef tuple ne = _nonempty(shape_of(idx))
    cdef cnp.ndarray out = x.copy()
    if cnp.PyArray_SIZE(idx) == 0:
        return out
    view = out.reshape(_nonempty(shape_of(out)))
    key = _along_key(ne, idx.reshape(ne).astype(np.int64), dim)
    with quiet():
        if isinstance(src, Tensor):
            sa = (<Tensor>src)._data
            vals = sa.reshape(_nonempty(shape_of(sa)))[tuple([slice(0, s) for s in ne])]
        else:
            vals = np.broadcast_to(np.asarray(src).astype(out.dtype), ne)
        if mode == SCATTER_WRITE:
            view[key] = vals
        elif mode == SCATTER_ADD:
            np.add.at(view, key, vals)
        else:
            np.multiply.at(view, key, vals)
    return out


cdef void _src_meta(Tensor result, Tensor src, cnp.ndarray idx) except *:
    """scatter's gradient for src has index's shape. PyTorch checks every gradient
    against its input's metadata; the engine does so where a node carries input_meta,
    so a src larger than index gets its own: backward then raises as PyTorch's does."""
    cdef Node node = result._grad_fn
    if node is None or not src._requires_grad:
        return
    if same_shape(src._data, idx):
        return
    metas = list(input_meta_of(node)) if input_meta_of(node) is not None else [None, None]
    metas[1] = (shape_of(src._data), dtype_of(src._data))
    set_input_meta(node, tuple(metas))


cdef Tensor op_scatter(Tensor self, object dim, Tensor index, object src, object reduce):
    cdef cnp.ndarray idx = index._data
    cdef Py_ssize_t d = _check_scatter_args(self, dim, idx, src, reduce)
    cdef ScatterMode mode = _reduce_mode(reduce)
    cdef dtype sd = dtype_of(self._data)
    if (type(src) is complex and sd.category != CAT_COMPLEX and sd is not bool_
            and cnp.PyArray_SIZE(idx)):
        # PyTorch's kernel converts the value to self's dtype (not reached for an empty
        # index): its real part, or the error for a nonzero imaginary part (a bool
        # takes its truth value); Note [Complex Scalar arguments]
        src = scalar_in(src, sd)
    if mode != SCATTER_WRITE and isinstance(src, Tensor):
        warnings.warn("The reduce argument of torch.scatter with Tensor src is deprecated and "
                      "will be removed in a future PyTorch release. Use torch.scatter_reduce "
                      "instead for more reduction options.", UserWarning)
    cdef Tensor result = make(_scatter_values(self._data, d, idx, src, mode))
    if mode != SCATTER_WRITE:
        pass  # PyTorch has no derivative for scatter with reduce
    elif isinstance(src, Tensor):
        record_ScatterBackward0(result, self, d, index, src, reduce)
        _src_meta(result, src, idx)
    else:
        record_ScatterBackward1(result, self, d, index, src, reduce)
    return result


cdef Tensor op_scatter_add(Tensor self, object dim, Tensor index, Tensor src):
    cdef cnp.ndarray idx = index._data
    cdef Py_ssize_t d = _check_scatter_args(self, dim, idx, src, None)
    cdef Tensor result = make(_scatter_values(self._data, d, idx, src, SCATTER_ADD))
    record_ScatterAddBackward0(result, self, d, index, src)
    _src_meta(result, src, idx)
    return result


cdef str _SCATTER_SIGNATURES = (
    " * ({input}int dim, Tensor index, Tensor src)\n"
    " * ({input}int dim, Tensor index, Tensor src, *, str reduce)\n"
    " * ({input}int dim, Tensor index, Number value)\n"
    " * ({input}int dim, Tensor index, Number value, *, str reduce)")


cdef bint _is_number_arg(object x):
    """Whether x binds PyTorch's Number (a bool, int, float or complex; numpy's too)."""
    return arg_number(x) is not None or isinstance(x, (complex, np.complexfloating))


cdef tuple _scatter_args(str fname, ArgNumbering numbering, tuple args, object dim,
                         object index, object src, object value, object reduce):
    """scatter's Python arguments checked: (dim, index, src Tensor or number, reduce).
    `args` are the arguments as given, for the message."""
    sig = _SCATTER_SIGNATURES.format(input="Tensor input, " if numbering == FUNCTION_ARGS else "")
    args = tuple([a for a in args if a is not None])
    if (src is not None and value is not None) or isinstance(value, Tensor):
        raise type_error_combination(fname, args, sig)
    if src is None:
        src = value
    if (src is None or (not isinstance(src, Tensor) and not _is_number_arg(src))
            or isinstance(dim, (float, Tensor)) or not hasattr(dim, "__index__")
            or not isinstance(index, Tensor) or (reduce is not None and not isinstance(reduce, str))):
        raise type_error_combination(fname, args, sig)
    if not isinstance(src, Tensor):
        src = arg_operand(src)   # (a Number: complex too)
    return dim.__index__(), index, src, reduce


cdef int _scatter_guard(Tensor self, object src, object value) except -1:
    """Note [Dtype guard] for scatter: a number to write (the value overload) runs
    PyTorch's scalar kernel, which a wide unsigned self lacks as the tensor one does."""
    v = src if value is None else value
    if not cnp.PyArray_ISCOMPLEX(self._data) and v is not None and not isinstance(v, Tensor):
        raise not_implemented_for("scatter_gather_scalar_cpu", dtype_of(self._data))
    return check_complex_op("scatter", self)


def _py_scatter(input, dim, index, src=None, value=None, *, out=None, reduce=None):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(index) is not Tensor and has_torch_function(index)) or (type(src) is not Tensor and has_torch_function(src)) or (type(value) is not Tensor and has_torch_function(value)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_scatter, (input, dim, index, src, value, ), {"out": out, "reduce": reduce})
    cdef Tensor self = arg_tensor(input, "scatter", "input", 1)
    if complex_arg(self):
        _scatter_guard(self, src, value)  # Note [Dtype guard]
    d, i, s, r = _scatter_args("scatter", FUNCTION_ARGS, (input, dim, index, src, value), dim, index,
                               src, value, reduce)
    return with_out("scatter", out, OPS.scatter(self, d, i, s, r), None, True)


def _pym_scatter(self, dim, index, src=None, value=None, *, reduce=None):
    """``self`` with ``src``'s elements (or ``value``) written at ``index`` along dim."""
    if (type(self) is not Tensor and has_torch_function(self)) or (type(dim) is not Tensor and has_torch_function(dim)) or (type(index) is not Tensor and has_torch_function(index)) or (type(src) is not Tensor and has_torch_function(src)) or (type(value) is not Tensor and has_torch_function(value)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_pym_scatter, (self, dim, index, src, value, ), {"reduce": reduce})
    if complex_arg(self):
        _scatter_guard(self, src, value)  # Note [Dtype guard]
    d, i, s, r = _scatter_args("scatter", METHOD_ARGS, (dim, index, src, value), dim, index, src,
                               value, reduce)
    return OPS.scatter(self, d, i, s, r)


def _py_scatter_(self, dim, index, src=None, value=None, *, reduce=None):
    """In place: ``self`` with ``src``'s elements (or ``value``) written at ``index`` along dim."""
    d, i, s, r = _scatter_args("scatter_", METHOD_ARGS, (dim, index, src, value), dim, index, src,
                               value, reduce)
    return OPS.scatter_(self, d, i, s, r)


_pym_scatter.__name__ = _pym_scatter.__qualname__ = "scatter"
_py_scatter_.__name__ = _py_scatter_.__qualname__ = "scatter_"


# ================================================================ masked_fill / masked_select

cdef void _check_masked_fill(Tensor mask, object value) except *:
    cdef dtype md = dtype_of(mask._data)
    if md is not bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           + md.cpp_name)
    if isinstance(value, Tensor) and cnp.PyArray_NDIM((<Tensor>value)._data) != 0:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {cnp.PyArray_NDIM((<Tensor>value)._data)} dimension(s).")


cdef cnp.ndarray masked_fill_values(Tensor self, Tensor mask, object value):
    cdef cnp.ndarray m = mask._data, x = self._data
    cdef dtype xd = dtype_of(x)
    broadcast_shapes(shape_of(m), shape_of(x))     # PyTorch: expand first, then fill
    _check_masked_fill(mask, value)
    value = scalar_in(value, xd)    # Note [Complex Scalar arguments] (_core/_messages.pxi)
    with quiet():
        vals = np.asarray((<Tensor>value)._data if isinstance(value, Tensor) else value).astype(
            xd.np_dtype)
        out = np.where(m, vals, x)
    # (PyTorch fills a clone(contiguous_format) of the expanded self)
    return pointwise_output(as_array(out), (), -1, 0)


# table entry masked_fill_: by hand through the in-place driver, for PyTorch's order of
# checks (the leaf, the mask and value, then the mask broadcasting to self)
cdef Tensor op_masked_fill_(Tensor self, Tensor mask, object value):
    cdef Tensor source = inplace_source(self, (mask, value))
    _check_masked_fill(mask, value)
    broadcast_shapes(shape_of(self._data), shape_of(mask._data))
    # (into an expanded self too, with PyTorch's warning: Note [Fills into expanded tensors])
    return inplace_commit_expanded(self, source, op_masked_fill(source, mask, value),
                                   "masked_fill_", "tensor[mask] = scalar")


cdef Tensor masked_fill_backward(Tensor grad, Tensor mask):
    """The gradient of masked_fill's value: the sum of grad where mask is True."""
    return OPS.sum(OPS.masked_select(grad, mask), None, False, None)


cdef str _MASKED_FILL_SIGNATURES = (" * ({input}Tensor mask, Tensor value)\n"
                                    " * ({input}Tensor mask, Number value)")


cdef tuple _masked_fill_args(str fname, ArgNumbering numbering, tuple args, object mask,
                             object value):
    """masked_fill's Python arguments checked: (mask, value Tensor or number)."""
    v = value if isinstance(value, Tensor) else arg_number(value)
    if v is None and type(value) is complex:
        v = value       # (converted to self's dtype by op_masked_fill: scalar_in)
    if not isinstance(mask, Tensor) or v is None:
        raise type_error_combination(fname, args, _MASKED_FILL_SIGNATURES.format(
            input="Tensor input, " if numbering == FUNCTION_ARGS else ""))
    return mask, v


def _py_masked_fill(input, mask, value):
    if (type(input) is not Tensor and has_torch_function(input)) or (type(mask) is not Tensor and has_torch_function(mask)) or (type(value) is not Tensor and has_torch_function(value)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_masked_fill, (input, mask, value, ), {})
    cdef Tensor self = arg_tensor(input, "masked_fill", "input", 1)
    if complex_arg(self):
        check_complex_op("masked_fill", self)  # Note [Dtype guard]
    m, v = _masked_fill_args("masked_fill", FUNCTION_ARGS, (input, mask, value), mask, value)
    return OPS.masked_fill(self, m, v)


def _pym_masked_fill(self, mask, value):
    """``self`` with ``value`` where the boolean ``mask`` (broadcast) is True."""
    if (type(self) is not Tensor and has_torch_function(self)) or (type(mask) is not Tensor and has_torch_function(mask)) or (type(value) is not Tensor and has_torch_function(value)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_pym_masked_fill, (self, mask, value, ), {})
    if complex_arg(self):
        check_complex_op("masked_fill", self)  # Note [Dtype guard]
    m, v = _masked_fill_args("masked_fill", METHOD_ARGS, (mask, value), mask, value)
    return OPS.masked_fill(self, m, v)


def _py_masked_fill_(self, mask, value):
    """In place: ``value`` where the boolean ``mask`` (broadcast) is True."""
    if (type(self) is not Tensor and has_torch_function(self)) or (type(mask) is not Tensor and has_torch_function(mask)) or (type(value) is not Tensor and has_torch_function(value)):
        # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi)
        return handle_torch_function(_py_masked_fill_, (self, mask, value, ), {})
    m, v = _masked_fill_args("masked_fill_", METHOD_ARGS, (mask, value), mask, value)
    return OPS.masked_fill_(self, m, v)


_pym_masked_fill.__name__ = _pym_masked_fill.__qualname__ = "masked_fill"


cdef Tensor op_masked_select(Tensor self, Tensor mask):
    cdef cnp.ndarray m = mask._data, x = self._data
    if dtype_of(m) is not bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    cdef tuple bshape = broadcast_shapes(shape_of(m), shape_of(x))
    cdef Tensor result = make(as_array(np.broadcast_to(x, bshape)[np.broadcast_to(m, bshape)]))
    record_MaskedSelectBackward0(result, self, mask)
    return result


cdef Tensor masked_select_backward(Tensor grad, Tensor self, Tensor mask):
    """zeros of the broadcast shape with grad's elements where mask is True, summed back
    to self's shape when self was broadcast (the engine's reduction in PyTorch). Takes
    self, which PyTorch's node saves, as gather_backward."""
    cdef tuple self_shape = shape_of(self._data)
    cdef tuple bshape = broadcast_shapes(self_shape, shape_of(mask._data))
    cdef Tensor g = OPS.masked_scatter(zeros(bshape, dtype_of(grad._data)), mask, grad)
    return g if bshape == self_shape else OPS.sum_to(g, self_shape)


cdef inline int _refuse_unsigned_self(Tensor self, str kernel) except -1:
    """The kernel error for a wide unsigned self (Note [Dtype guard]), of the ops whose
    kernel PyTorch dispatches on self's dtype after checking source's against it: they
    pass the guard (_complex.py) so that a source of another dtype gets that check's
    words, and the kernel its path reaches is the one named."""
    if is_guarded_array(self._data) and not cnp.PyArray_ISCOMPLEX(self._data):
        raise not_implemented_for(kernel, dtype_of(self._data))
    return 0


cdef Tensor op_masked_scatter(Tensor self, Tensor mask, Tensor source):
    if dtype_of(source._data) is not dtype_of(self._data):
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{dtype_of(self._data).scalar_name} and "
                           f"{dtype_of(source._data).scalar_name}")
    if cnp.PyArray_TYPE(mask._data) != cnp.NPY_BOOL:
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {dtype_of(mask._data).scalar_name}")
    _refuse_unsigned_self(self, "masked_scatter")
    cdef tuple bshape = broadcast_shapes(shape_of(self._data), shape_of(mask._data))
    cdef cnp.ndarray out = np.array(np.broadcast_to(self._data, bshape), copy=True)
    mb = np.broadcast_to(mask._data, bshape)
    cdef Py_ssize_t n = np.count_nonzero(mb)
    if cnp.PyArray_SIZE(source._data) < n:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    out[mb] = source._data.reshape(-1)[:n]
    cdef Tensor result = make(out)
    record_MaskedScatterBackward0(result, self, mask, source)
    return result


cdef Tensor masked_scatter_backward(Tensor grad, Tensor mask, tuple source_shape):
    """grad's elements where mask is True, padded with zeros to source's size."""
    cdef Tensor selected = OPS.masked_select(grad, mask)
    cdef Py_ssize_t diff = shape_numel(source_shape) - cnp.PyArray_SIZE(selected._data)
    if diff > 0:
        selected = OPS.cat([selected, zeros((diff,), dtype_of(grad._data))], 0)
    return OPS.view(selected, source_shape)


# ================================================================ take / put

cdef void _check_long_index(Tensor index, str fname) except *:
    cdef dtype d = dtype_of(index._data)
    if d is not int64:
        raise RuntimeError(f"{fname}(): Expected a long tensor for index, but got {d.scalar_name}")


cdef void _check_flat_range(cnp.ndarray idx, Py_ssize_t n) except *:
    if not idx.size:
        return
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise IndexError(f"out of range: tried to access index {int(idx[bad].reshape(-1)[0])} on a "
                         f"tensor of {n} elements.")


cdef Tensor op_take(Tensor self, Tensor index):
    _check_long_index(index, "take")
    cdef cnp.ndarray idx = index._data
    cdef Py_ssize_t n = cnp.PyArray_SIZE(self._data)
    if n == 0 and idx.size:
        raise IndexError("take(): tried to take from an empty tensor")
    _check_flat_range(idx, n)
    cdef Tensor result = make(as_array(np.take(self._data, idx)))
    record_TakeBackward0(result, self, index)
    return result


cdef Tensor take_backward(Tensor grad, tuple self_shape, Tensor index):
    """zeros of self's shape with grad added at the flat positions index. (PyTorch's
    node saves self itself; this one its shape, for index_put_(accumulate=True) is
    composed of a take of self and a write into self.)"""
    return OPS.put(zeros(self_shape, dtype_of(grad._data)), index, grad, True)


cdef Tensor op_put(Tensor self, Tensor index, Tensor source, bint accumulate):
    _check_long_index(index, "put_")
    cdef cnp.ndarray idx = index._data, src = source._data
    if dtype_of(src) is not dtype_of(self._data):
        raise RuntimeError(
            f"put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{dtype_of(self._data).scalar_name} and source.dtype = {dtype_of(src).scalar_name}")
    if src.size != idx.size:
        raise IndexError(
            f"put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {src.size}, index.numel() = {idx.size}")
    cdef Py_ssize_t n = cnp.PyArray_SIZE(self._data)
    if n == 0 and idx.size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    _refuse_unsigned_self(self, "take_put_cpu")   # (its kernel checks the range)
    _check_flat_range(idx, n)
    cdef cnp.ndarray out = np.array(self._data, order="C", copy=True)
    flat = out.reshape(-1)
    if accumulate:
        with quiet():
            np.add.at(flat, idx.reshape(-1), src.reshape(-1))
    else:
        flat[idx.reshape(-1)] = src.reshape(-1)
    # (written through a C-ordered copy, whose flat view is put's row-major order;
    # the result is PyTorch's self.clone(preserve_format).put_(...): laid out as self)
    cdef Tensor result = make(as_preserved(out, self._data))
    record_PutBackward0(result, self, index, source, accumulate)
    return result



# ================================================================ index_add / index_fill / index_copy


cdef Py_ssize_t _check_index_along(Tensor self, object dim, Tensor index, str fname) except? -1:
    """The checks index_add / index_fill / index_copy share: index int64 (int32 for
    index_add) and a vector or scalar, in range; returns the wrapped dim."""
    cdef cnp.ndarray x = self._data, idx = index._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef dtype idt = dtype_of(idx)
    if idt is not int64 and not (idt is int32 and fname == "index_add_"):
        if fname == "index_add_":
            raise RuntimeError("index_add_(): Expected dtype int32/int64 for index")
        raise IndexError(f"{fname}(): Expected dtype int64 for index.")
    if cnp.PyArray_NDIM(idx) > 1:
        raise IndexError(f"{fname}(): Index is supposed to be a vector")
    if fname == "index_add_":
        return d       # (its kernel checks the bounds, after op_index_add's shape checks)
    cdef Py_ssize_t n = shape_of(x)[d] if nd else 1
    flat = idx.reshape(-1)
    if flat.size and ((flat < -n) | (flat >= n)).any():
        bad = int(flat[(flat < -n) | (flat >= n)][0])
        raise IndexError(f"index {bad} is out of bounds for dimension {d} with size {n}")
    return d


cdef Tensor index_add_source_backward(Tensor grad, object dim, Tensor index, Tensor source,
                                      object alpha):
    """PyTorch's: grad's slices at index along dim (the 0-d source: index squeezed),
    times alpha. Takes source, which PyTorch's node saves (its formula expands to
    source's shape): an in-place write into source before backward raises, as there."""
    cdef Py_ssize_t source_ndim = cnp.PyArray_NDIM(source._data)
    cdef Tensor g
    if source_ndim > 0 or cnp.PyArray_NDIM(grad._data) == 0:
        g = OPS.index_select(grad, dim, index)
    else:
        g = OPS.index_select(grad, dim, make(index._data.reshape(())))
    if source_ndim == 0 and cnp.PyArray_NDIM(g._data) > 0:
        g = OPS.reshape(g, ())
    return g if alpha == 1 else OPS.mul(g, alpha)


cdef Tensor op_index_add(Tensor self, object dim, Tensor index, Tensor source, object alpha):
    cdef Py_ssize_t d = _check_index_along(self, dim, index, "index_add_")
    if dtype_of(source._data) is not dtype_of(self._data):
        raise RuntimeError(f"index_add_(): self ({dtype_of(self._data).scalar_name}) and source "
                           f"({dtype_of(source._data).scalar_name}) must have the same scalar type")
    cdef Py_ssize_t nidx = cnp.PyArray_SIZE(index._data)
    if cnp.PyArray_NDIM(source._data) and nidx != source._data.shape[d]:
        raise RuntimeError(f"index_add_(): Number of indices ({nidx}) should be equal to "
                           f"source.size(dim): ({source._data.shape[d]}), for dim: {d}")
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple xs = shape_of(self._data), ss = shape_of(source._data)
    if nd and (len(ss) != nd or any([xs[k] != ss[k] for k in range(nd) if k != d])):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {shape_str(xs)} "
                           f"source.shape = {shape_str(ss)}")
    cdef Py_ssize_t n = xs[d] if nd else 1
    flat = index._data.reshape(-1)
    if flat.size and ((flat < 0) | (flat >= n)).any():   # (the kernel's: no negative index)
        if nd <= 1:   # (a vector's kernel is index_select's)
            raise IndexError("index out of range in self")
        raise RuntimeError(f"index {int(flat[(flat < 0) | (flat >= n)][0])} is out of bounds "
                           f"for dimension {d} with size {n}")
    if nd <= 1:
        _refuse_unsigned_self(self, "index_add_")
    elif nidx and cnp.PyArray_SIZE(self._data):
        # PyTorch adds a matrix's slices by scatter_add with alpha 1 along its first or
        # last dim, else by add (neither runs when there is nothing to add)
        _refuse_unsigned_self(self, "scatter_gather_tensor_cpu" if alpha == 1 and (
            d == 0 or d == nd - 1) else "add_stub")
    alpha = scalar_in(alpha, dtype_of(self._data))   # Note [Complex Scalar arguments]
    if dtype_of(self._data).category == CAT_INT and isinstance(alpha, (int, float, np.number)):
        # PyTorch's kernel reads alpha in self's type: a float truncated, and a value
        # that type cannot hold (inf, NaN, past its range) is its checked-conversion error
        info = np.iinfo(self._data.dtype)
        if not info.min <= alpha <= info.max:
            raise value_overflow_error(dtype_of(self._data).value_type_name)
        alpha = int(alpha)
    cdef cnp.ndarray out = self._data.copy()
    src = source._data if alpha == 1 else source._data * alpha
    if out.ndim == 0:
        out = as_array(out + np.sum(src)).astype(out.dtype)
    else:
        with quiet():
            np.add.at(np.moveaxis(out, d, 0), index._data.reshape(-1).astype(np.int64),
                      np.moveaxis(src, d, 0) if np.ndim(src) else src)
    cdef Tensor result = make(out)
    record_IndexAddBackward0(result, self, d, index, source, alpha)
    return result


cdef Tensor op_index_fill(Tensor self, object dim, Tensor index, object value):
    if isinstance(value, Tensor) and cnp.PyArray_NDIM((<Tensor>value)._data) != 0:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor "
                           f"with {cnp.PyArray_NDIM((<Tensor>value)._data)} dimension(s).")
    v = (<Tensor>value)._data if isinstance(value, Tensor) else value
    if (not cnp.PyArray_ISCOMPLEX(self._data) and dtype_of(index._data) is int64 and (
            isinstance(v, complex) or (isinstance(v, cnp.ndarray) and cnp.PyArray_ISCOMPLEX(v)))):
        # PyTorch reads the value as a Scalar and refuses a complex one for a real self
        # (an imaginary part of zero included) rather than drop its imaginary part; it
        # checks this after the index's dtype, before the dim and the index's values
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is "
                           "not supported")
    cdef Py_ssize_t d = _check_index_along(self, dim, index, "index_fill_")
    # PyTorch's self.clone(preserve_format).index_fill_(...): laid out as self
    cdef cnp.ndarray out = empty_preserving(self._data, self._data.dtype)
    out[...] = self._data
    with quiet():
        if out.ndim == 0:
            if index._data.size:
                out[...] = v
        else:
            np.moveaxis(out, d, 0)[index._data.reshape(-1).astype(np.int64)] = v
    cdef Tensor result = make(out)
    if isinstance(value, Tensor):
        record_IndexFillBackward1(result, self, d, index, value)
    else:
        record_IndexFillBackward0(result, self, d, index, value)
    return result


cdef Tensor index_fill_value_backward(Tensor grad, object dim, Tensor index):
    """The gradient of index_fill's value: grad summed over the filled slices (each
    slice once, however often index names it)."""
    cdef cnp.ndarray u = np.unique(index._data.reshape(-1))
    if cnp.PyArray_NDIM(grad._data) == 0:
        return grad if u.size else zeros((), dtype_of(grad._data))
    return OPS.sum(OPS.index_select(grad, dim, make(u.astype(np.int64))), None, False, None)


cdef Tensor index_copy_source_backward(Tensor grad, object dim, Tensor index, Tensor source):
    return index_add_source_backward(grad, dim, index, source, 1)


cdef Py_ssize_t _index_copy_checks(Tensor self, object dim, Tensor index,
                                   Tensor source) except? -1:
    """PyTorch's index_copy meta checks in its order (index's rank, the source's rank
    against index's length and self's, index's dtype, the dtypes, the slice shapes, the
    number of indices), then its kernel's bounds check, where a negative index is out of
    bounds too. Returns the wrapped dim."""
    cdef cnp.ndarray x = self._data, idx = index._data, src = source._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x), sd = cnp.PyArray_NDIM(src)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n_idx = cnp.PyArray_SIZE(idx)
    if cnp.PyArray_NDIM(idx) >= 2:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got "
                         f"{cnp.PyArray_NDIM(idx)})")
    if sd == 0 and n_idx != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element "
                         f"(got {n_idx})")
    if sd != nd and sd != 0 and nd != 0:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({sd}), destination "
                         f"dimensionality ({nd})")
    if dtype_of(idx) is not int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{dtype_of(idx).scalar_name}")
    if dtype_of(src) is not dtype_of(x):
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but "
                           f"got (self) {dtype_of(x).scalar_name} and (source) "
                           f"{dtype_of(src).scalar_name}")
    self_slice = [s for k, s in enumerate(shape_of(x)) if k != d]
    src_slice = [s for k, s in enumerate(shape_of(src)) if k != d]
    if self_slice != src_slice:
        raise RuntimeError(
            f"index_copy_(): Source/destination tensor must have same slice shapes. Destination "
            f"slice shape: {' '.join(map(str, self_slice))} at dimension {d} and source slice "
            f"shape: {' '.join(map(str, src_slice))} at dimension 0.")
    if sd and n_idx != shape_of(src)[d]:
        raise IndexError(f"index_copy_(): Number of indices ({n_idx}) should be equal to "
                         f"source.size(dim) ({shape_of(src)[d]})")
    cdef Py_ssize_t n = shape_of(x)[d] if nd else 1
    flat = idx.reshape(-1)
    if flat.size and ((flat < 0) | (flat >= n)).any():
        bad = int(flat[(flat < 0) | (flat >= n)][0])
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {d} with "
                         f"size {n}")
    return d


cdef Tensor op_index_copy(Tensor self, object dim, Tensor index, Tensor source):
    cdef Py_ssize_t d = _index_copy_checks(self, dim, index, source)
    _refuse_unsigned_self(self, "index_copy_cpu")
    cdef cnp.ndarray out = self._data.copy()
    if out.ndim == 0:
        out[...] = source._data.reshape(())
    else:
        np.moveaxis(out, d, 0)[index._data.reshape(-1)] = (
            np.moveaxis(source._data, d, 0) if source._data.ndim else source._data)
    cdef Tensor result = make(out)
    record_IndexCopyBackward0(result, self, d, index, source)
    return result


# ================================================================ index_put

cdef tuple _index_put_key(Tensor self, object indices):
    """index_put's tuple of index tensors (None: a whole dim) as a checked numpy key."""
    if isinstance(indices, Tensor) or not isinstance(indices, (tuple, list)):
        raise TypeError(f"index_put(): argument 'indices' (position 2) must be tuple of Tensors, "
                        f"not {type(indices).__name__}")
    records = []
    cdef Py_ssize_t dim = 0, pos = 0
    for k in indices:
        if not isinstance(k, Tensor):
            # PyTorch's Python binding takes tensors only (None is for C++ callers)
            raise TypeError(f"expected Tensor as element {pos} in argument 1, but got "
                            f"{type(k).__name__}")
        pos += 1
        kind, val = _key_item(k)
        if kind == ITEM_MASK:
            records.append((dim, val, True))
            dim += (<cnp.ndarray>val).ndim
        elif kind == ITEM_INT:
            records.append((dim, np.asarray(val, dtype=np.int64), False))
            dim += 1
        elif kind == ITEM_BOOL:
            records.append((dim, np.asarray(val), True))
            dim += 1
        else:
            records.append((dim, val, False))
            dim += 1
    if not records:
        return (Ellipsis,)
    return _advanced_key(records, shape_of(self._data))


cdef void _check_index_put_dtypes(Tensor self, tuple key, Tensor values, bint accumulate) except *:
    # PyTorch's masked_fill path (one mask, one value, no accumulate) casts the value
    cdef bint mask_fill = (len(key) == 1 and isinstance(key[0], np.ndarray)
                           and key[0].dtype == np.bool_ and cnp.PyArray_SIZE(values._data) == 1
                           and not accumulate)
    if dtype_of(values._data) is not dtype_of(self._data) and not mask_fill:
        raise RuntimeError(
            f"Index put requires the source and destination dtypes match, got "
            f"{dtype_of(self._data).scalar_name} for the destination and "
            f"{dtype_of(values._data).scalar_name} for the source.")


cdef Tensor _index_put_accumulate_(Tensor self, tuple key, Tensor values):
    """self.index_put_(indices, values, accumulate=True) (self is index_put's clone out of
    place), key the checked numpy key: each
    value added in turn to the memory its position holds, as PyTorch's loop does, so
    into an expanded tensor (Note [Fills into expanded tensors]) an element sharing
    memory with several positions gets all their values, with its warning. Recorded as
    PyTorch's IndexPutBackward0 (CopySlices through a view): self's gradient passes
    through, the values' is the gradient at their positions."""
    if has_internal_overlap(self._data):
        warn_expanded_write("index_put_", "tensor[indices] = tensor")
    if cnp.PyArray_SIZE(self._data) and not cnp.PyArray_ISWRITEABLE(self._data):
        write_values(self, self._data)  # raises the read-only memory error
    cdef bint graph = recording() and (
        requires_grad_of(self) or requires_grad_of(values)) and recordable_array(self._data, "index_put_")
    region = as_array(region_of(self)[key]) if graph else None
    if fw_active() and is_grad_array(self._data):
        # Note [Forward AD]: the values' tangents are added into self's the same way
        vt = fw_grad_of(values)
        if vt is not None:
            with FwSuspend():
                _index_put_accumulate_(fw_tangent_for_write(self), key, <Tensor>vt)
    with quiet():
        np.add.at(self._data, key, values._data)
    if graph:  # a write of the indexed elements only: see Note [In-place ops]
        write_region(self, region, values, True, True)
    bump_version(self)
    if graph and self._base is not None:
        grad_fn_of(self)  # self's new history now (its retain_grad moves to it), as PyTorch's
    return self


cdef Tensor _index_put_into(Tensor target, Tensor self, object indices, Tensor values,
                            bint accumulate):
    """Write values at target[indices] (target is self or a clone of it)."""
    cdef tuple key = _index_put_key(self, indices)
    _check_index_put_dtypes(self, key, values, accumulate)
    cdef tuple indexed
    if accumulate:
        if target is self:
            check_inplace(self, (values,))  # (PyTorch's autograd checks come first)
        indexed = shape_of(as_array(np.broadcast_to(np.int8(0), shape_of(self._data))[key]))
        if not broadcasts_to(shape_of(values._data), indexed):
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {shape_str(shape_of(values._data))} "
                f"cannot be broadcast to indexing result of shape {shape_str(indexed)}")
        return _index_put_accumulate_(target, key, values)
    return op__setitem(target, tuple(indices), values)


cdef Tensor op_index_put(Tensor self, object indices, Tensor values, bint accumulate):
    return _index_put_into(OPS.clone(self, None), self, indices, values, accumulate)


cdef Tensor op_index_put_(Tensor self, object indices, Tensor values, bint accumulate):
    return _index_put_into(self, self, indices, values, accumulate)


cdef tuple _index_put_args(str fname, object input, object indices, object values,
                           tuple rest, object accumulate, bint method):
    """(self, values, accumulate) of index_put / index_put_ (rest: the positionals after
    values, accumulate: the keyword or None), checked in the order of PyTorch's parser:
    the indices' type and each element's come before values and accumulate (and before
    any dtype refusal). Its messages number arguments from the method's view for
    Tensor.index_put (indices is argument 0 there, 1 in torch.index_put, and the
    positions of the rest shift by one); a keyword argument's message has no position."""
    cdef int shift = 0 if method else 1
    if len(rest) > 1:
        raise TypeError(f"{fname}() takes from {2 + shift} to {3 + shift} positional arguments "
                        f"but {len(rest) + 3 + shift - 1} were given")
    if rest and accumulate is not None:
        raise TypeError(f"{fname}() got multiple values for argument 'accumulate'")
    cdef Tensor self = arg_tensor(input, fname, "input", 1)
    if isinstance(indices, Tensor) or not isinstance(indices, (tuple, list)):
        raise TypeError(f"{fname}(): argument 'indices' (position {1 + shift}) must be tuple of "
                        f"Tensors, not {type(indices).__name__}")
    for pos, k in enumerate(indices):
        if not isinstance(k, Tensor):
            # PyTorch's Python binding takes tensors only (None is for C++ callers)
            raise TypeError(f"expected Tensor as element {pos} in argument {shift}, but got "
                            f"{type(k).__name__}")
    cdef Tensor vals = arg_tensor(values, fname, "values", 2 + shift)
    cdef bint acc = False
    if rest:
        acc = arg_bool(rest[0], fname, "accumulate", 3 + shift)
    elif accumulate is not None:
        acc = arg_bool(accumulate, fname, "accumulate", 0)
    if complex_arg(self):
        # (one kernel, "index_put", serves both: its name is in the refusal)
        check_complex_op("index_put", self)  # Note [Dtype guard]
    return (self, vals, acc)


def _py_index_put(input, indices, values, *rest, accumulate=None):
    self, vals, acc = _index_put_args("index_put", input, indices, values, rest, accumulate,
                                      False)
    return OPS.index_put(self, indices, vals, acc)


def _pym_index_put(self, indices, values, *rest, accumulate=None):
    self, vals, acc = _index_put_args("index_put", self, indices, values, rest, accumulate,
                                      True)
    return OPS.index_put(self, indices, vals, acc)


def _py_index_put_(input, indices, values, *rest, accumulate=None):
    """In place: ``values`` written (or added) at ``self[indices]``."""
    self, vals, acc = _index_put_args("index_put_", input, indices, values, rest, accumulate,
                                      False)
    return OPS.index_put_(self, indices, vals, acc)


def _pym_index_put_(self, indices, values, *rest, accumulate=None):
    """In place: ``values`` written (or added) at ``self[indices]``."""
    self, vals, acc = _index_put_args("index_put_", self, indices, values, rest, accumulate,
                                      True)
    return OPS.index_put_(self, indices, vals, acc)


_pym_index_put.__name__ = _pym_index_put.__qualname__ = "index_put"
_pym_index_put_.__name__ = _pym_index_put_.__qualname__ = "index_put_"


# ================================================================ take_along_dim

cdef Tensor op_take_along_dim(Tensor self, Tensor indices, object dim):
    if dtype_of(indices._data) is not int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{dtype_of(indices._data).scalar_name}")
    if dim is None:
        return OPS.gather(OPS.reshape(self, (-1,)), 0, OPS.reshape(indices, (-1,)))
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    if nd != cnp.PyArray_NDIM(indices._data):
        raise RuntimeError(
            f"torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {nd} dimensions for input, and "
            f"{cnp.PyArray_NDIM(indices._data)} dimensions for indices")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef list ss = list(shape_of(self._data)), isz = list(shape_of(indices._data))
    if nd == 0:
        return OPS.gather(self, d, indices)
    ss[d] = isz[d]
    b = list(broadcast_shapes(tuple(ss), tuple(isz)))
    isz2 = list(b)
    isz2[d] = isz[d]
    ss2 = list(b)
    ss2[d] = shape_of(self._data)[d]
    return OPS.gather(OPS.expand(self, tuple(ss2)), d, OPS.expand(indices, tuple(isz2)))


# ================================================================ scatter_reduce

cdef tuple _SCATTER_REDUCES = ("sum", "prod", "mean", "amax", "amin")


cdef cnp.ndarray _scatter_reduce_values(cnp.ndarray x, Py_ssize_t d, cnp.ndarray idx,
                                        cnp.ndarray src, str reduce, bint include_self):
    cdef cnp.ndarray out = x.copy()
    if cnp.PyArray_SIZE(idx) == 0:
        return out
    cdef tuple ne = _nonempty(shape_of(idx))
    view = out.reshape(_nonempty(shape_of(out)))
    key = _along_key(ne, idx.reshape(ne).astype(np.int64), d)
    vals = src.reshape(_nonempty(shape_of(src)))[tuple([slice(0, s) for s in ne])]
    is_float = out.dtype.kind in "fc"
    with quiet():
        if reduce == "sum" or reduce == "mean":
            if not include_self:
                view[key] = 0
            np.add.at(view, key, vals)
            if reduce == "mean":
                count = np.ones(view.shape, dtype=np.int64) if include_self else \
                    np.zeros(view.shape, dtype=np.int64)
                if not include_self:
                    count[key] = 0
                np.add.at(count, key, 1)
                scattered = np.zeros(view.shape, dtype=bool)
                scattered[key] = True
                safe = np.where(count == 0, 1, count)
                if is_float:
                    view[...] = np.where(scattered, view / safe, view)
                else:
                    view[...] = np.where(scattered, np.floor_divide(view, safe), view)
        elif reduce == "prod":
            if not include_self:
                view[key] = 1
            np.multiply.at(view, key, vals)
        else:
            ufunc = np.maximum if reduce == "amax" else np.minimum
            if not include_self:
                if is_float:
                    view[key] = -np.inf if reduce == "amax" else np.inf
                else:
                    info = np.iinfo(out.dtype) if out.dtype.kind in "iu" else None
                    view[key] = (info.min if reduce == "amax" else info.max) if info else \
                        (False if reduce == "amax" else True)
            ufunc.at(view, key, vals)
    return out


# Note [Complex reduce-scatter autograd]: PyTorch's functional scatter_reduce and
# index_reduce refuse to record complex outputs while the in-place variants record their
# nodes, with the formulas of real tensors (no conjugation: prod's gradient is PyTorch's
# as is). The table says so (complex_autograd: inplace_only: Note [Complex autograd of
# the in-place variant only] in ops/_codegen.py): the forwards below are
# scatter_reduce_forward and index_reduce_forward, and the generated op_scatter_reduce
# and op_index_reduce refuse.
cdef Tensor scatter_reduce_forward(Tensor self, object dim, Tensor index, Tensor src,
                                  object reduce, bint include_self, bint inplace):
    cdef cnp.ndarray idx = index._data
    if reduce not in _SCATTER_REDUCES:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got "
                           + reduce)
    cdef Py_ssize_t d = _check_scatter_args(self, dim, idx, src, None)
    if cnp.PyArray_ISCOMPLEX(self._data) and (reduce == "amax" or reduce == "amin"):
        raise not_implemented_for("scatter_gather_tensor_cpu_reduce_" + reduce,
                                  dtype_of(self._data))
    # (scatter_reduce passes the guard so that the kernel reduce and include_self select
    # is the one named: PyTorch's exclude-self init, or the reduction's scatter kernel)
    _refuse_unsigned_self(self, "scatter_reduce_exclude_input_init" if not include_self
                          else "scatter_gather_tensor_cpu" if reduce == "sum" or reduce == "prod"
                          else "scatter_gather_tensor_cpu_reduce_" + reduce)
    cdef Tensor result = make(_scatter_reduce_values(self._data, d, idx, src._data, reduce,
                                                     include_self))
    record_ScatterReduceBackward0(result, self, d, index, src, reduce, include_self)
    _src_meta(result, src, idx)
    return result


cdef Tensor scatter_reduce_jvp(Tensor self_p, Tensor self_t, object dim, Tensor index,
                               Tensor src_p, Tensor src_t, str reduce, bint include_self,
                               Tensor result):
    """scatter_reduce's forward derivative (PyTorch's scatter_reduce_jvp). sum and mean
    are linear: the op on the tangents (complex ones too). amax/amin: the mean of the
    tangents of the elements equal to the result, self's only where it takes part (with
    include_self=False a tie with an unused self does not share: PyTorch's jvp, while its
    backward halves there); no complex amax/amin kernel. prod: none (None), real and
    complex, as PyTorch 2.13's jvp leaves it undefined: the output gets no tangent, and
    the in-place op on a self that has one raises once written (fw_inplace)."""
    if reduce == "sum" or reduce == "mean":
        return op_scatter_reduce(self_t, dim, index, src_t, reduce, include_self)
    if reduce == "prod":
        return None
    cdef object rd = result._data.dtype
    cdef Tensor self_is, src_is, n
    if reduce == "amax" or reduce == "amin":
        self_is = make((self_p._data == result._data).astype(rd))
        if not include_self:
            self_is = OPS.scatter(self_is, dim, index, 0, None)
        src_is = make((src_p._data == OPS.gather(result, dim, index)._data).astype(rd))
        n = OPS.scatter_add(self_is, dim, index, src_is)
        return OPS.div(OPS.scatter_add(OPS.mul(self_t, self_is), dim, index,
                                       OPS.mul(src_t, src_is)), n, None)
    raise AssertionError(reduce)


cdef tuple scatter_reduce_backward(Tensor grad, Tensor self, object dim, Tensor index, Tensor src,
                                   str reduce, bint include_self, Tensor result,
                                   str op="scatter_reduce", str src_name="src"):
    """PyTorch's scatter_reduce_backward: (grad_self, grad_src); op and src_name name the
    operation and its src argument in the messages (index_reduce calls it source)."""
    cdef dtype gd = dtype_of(grad._data)
    cdef Tensor zero = make_scalar(0, gd)
    cdef Tensor grad_self, grad_src
    cdef cnp.ndarray idx = index._data
    if reduce == "sum":
        grad_self = grad
        grad_src = OPS.gather(grad, dim, index)
    elif reduce == "mean":
        ones_src = make(np.ones(shape_of(src._data), dtype=gd.np_dtype))
        base = make(np.ones(shape_of(self._data), dtype=gd.np_dtype) if include_self
                    else np.zeros(shape_of(self._data), dtype=gd.np_dtype))
        n = OPS.scatter_add(base, dim, index, ones_src)
        n = make(np.where(n._data == 0, 1, n._data).astype(gd.np_dtype))
        grad_self = OPS.div(grad, n, None)
        grad_src = OPS.gather(grad_self, dim, index)
    elif reduce == "prod":
        # where self or src have zeros, the products of the others (PyTorch's masking)
        masked_self = OPS.masked_fill(self, make(self._data == 0), 1)
        masked_self_result = op_scatter_reduce(masked_self, dim, index, src, reduce, include_self)
        grad_self = OPS.div(OPS.mul(grad, masked_self_result), masked_self, None)
        src_zero = src._data == 0
        counts = np.zeros(shape_of(self._data), dtype=np.int64)
        zsrc = make(src_zero.astype(np.int64))
        nz = OPS.gather(OPS.scatter_add(make(counts), dim, index, zsrc), dim, index)._data
        if grad_enabled() and (nz > 1).any():
            # PyTorch's message (torch 2.13, scatter_reduce_backward / index_reduce_backward)
            raise RuntimeError(
                f"{op}(): Double backward is unsupported for {src_name} when >1 zeros in "
                f"{src_name} are scattered to the same position in self")
        single = make(src_zero & (nz == 1))
        masked_src = OPS.masked_fill(src, single, 1)
        masked_src_result = op_scatter_reduce(self, dim, index, masked_src, reduce, include_self)
        grad_src1 = OPS.where(single, OPS.gather(OPS.mul(grad, masked_src_result), dim, index),
                              OPS.div(OPS.gather(OPS.mul(grad, result), dim, index),
                                      OPS.masked_fill(src, make(src_zero), 1), None))
        grad_src = grad_src1
    else:
        value = OPS.gather(result, dim, index)
        self_is_result = OPS._to_copy(OPS.eq(self, result), gd)
        src_is_result = OPS._to_copy(OPS.eq(src, value), gd)
        n_dist = OPS.scatter_add(self_is_result, dim, index, src_is_result)
        grad_distributed = OPS.div(grad, n_dist, None)
        grad_self = OPS.mul(self_is_result, grad_distributed)
        grad_src = OPS.mul(src_is_result, OPS.gather(grad_distributed, dim, index))
    if not include_self:
        grad_self = OPS.scatter(grad_self, dim, index, 0, None)
    return (grad_self, grad_src)


# ================================================================ select / slice / diagonal scatter

cdef Tensor _check_src_shape(Tensor src, tuple want):
    if shape_of(src._data) != want:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{shape_str(shape_of(src._data))}, slice size = {shape_str(want)}")
    return src


cdef Tensor op_select_scatter(Tensor self, Tensor src, object dim, object index):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef Py_ssize_t n = shape_of(x)[d]
    if index < -n or index >= n:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{shape_str(shape_of(x))} at dimension {d}")
    key = (slice(None),) * d + (index,)
    cdef cnp.ndarray out = x.copy()
    _check_src_shape(src, shape_of(as_array(out[key])))
    out[key] = src._data
    cdef Tensor result = make(out)
    record_SelectScatterBackward0(result, self, src, d, index)
    return result


cdef Tensor op_slice_scatter(Tensor self, Tensor src, object dim, object start, object end,
                             object step):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    key = (slice(None),) * d + (slice(start, end, step),)
    cdef cnp.ndarray out = x.copy()
    _check_src_shape(src, shape_of(as_array(out[key])))
    out[key] = src._data
    cdef Tensor result = make(out)
    record_SliceScatterBackward0(result, self, src, d, start, end, step)
    return result


cdef Tensor op_diagonal_scatter(Tensor self, Tensor src, object offset, object dim1, object dim2):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    cdef Py_ssize_t d1 = wrap_dim(dim1, nd), d2 = wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    cdef cnp.ndarray out = x.copy()
    want = shape_of(as_array(np.diagonal(x, offset, d1, d2)))
    _check_src_shape(src, want)
    moved = np.moveaxis(out, (d1, d2), (-2, -1))
    n = want[-1]
    i = np.arange(n) + (-offset if offset < 0 else 0)
    j = np.arange(n) + (offset if offset > 0 else 0)
    moved[..., i, j] = src._data
    cdef Tensor result = make(out)
    record_DiagonalScatterBackward0(result, self, src, offset, d1, d2)
    return result


# ================================================================ nonzero / argwhere

cdef cnp.ndarray _nonzero_rows(cnp.ndarray x):
    """(count, ndim) int64 indices of x's nonzero elements in row-major order."""
    if cnp.PyArray_NDIM(x) == 0:
        return np.zeros((1 if x != 0 else 0, 0), dtype=np.int64)
    return as_array(np.argwhere(x)).astype(np.int64, copy=False)


cdef Tensor op_nonzero(Tensor self, bint as_tuple):
    return make(_nonzero_rows(self._data))


def _py_nonzero(input, *, out=None, as_tuple=False):
    cdef Tensor self = arg_tensor(input, "nonzero", "input", 1)
    if complex_arg(self):
        check_complex_op("nonzero", self)  # Note [Dtype guard]
    if not arg_bool(as_tuple, "nonzero", "as_tuple", 2):
        return with_out("nonzero", out, OPS.nonzero(self, False), None, True)
    no_out("nonzero", out)        # (nonzero(input, as_tuple=True) has no out=)
    cdef cnp.ndarray x = self._data
    if cnp.PyArray_NDIM(x) == 0:
        # PyTorch treats a 0-d input as 1-d here
        return (make(np.zeros(1 if x != 0 else 0, dtype=np.int64)),)
    return tuple([make(as_array(a).astype(np.int64, copy=False)) for a in np.nonzero(x)])


cdef Tensor op_argwhere(Tensor self):
    return make(_nonzero_rows(self._data))


cdef Tensor op_nonzero_static(Tensor self, object size, object fill_value):
    if size < 0:
        raise RuntimeError(f"nonzero_static: 'size' must be an non-negative integer, but got "
                           f"{size}")
    cdef cnp.ndarray rows = _nonzero_rows(self._data)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    out = np.full((size, nd), fill_value, dtype=np.int64)
    k = min(size, shape_of(rows)[0])
    out[:k] = rows[:k]
    return make(out)



# ================================================================ index_reduce

cdef tuple _INDEX_REDUCES = ("prod", "mean", "amax", "amin")


cdef Tensor _index_as_scatter(Tensor source, Py_ssize_t d, Tensor index):
    """index_reduce's index as scatter_reduce's: index[i] at every position of source's
    slice i along d."""
    cdef cnp.ndarray src = source._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(src)
    if nd == 0:
        return make(index._data.reshape(()).astype(np.int64))
    shape = [1] * nd
    shape[d] = -1
    return make(np.ascontiguousarray(np.broadcast_to(
        index._data.reshape(shape).astype(np.int64), shape_of(src))))


cdef Tensor index_reduce_forward(Tensor self, object dim, Tensor index, Tensor source,
                                object reduce, bint include_self, bint inplace):
    warnings.warn("index_reduce() is in beta and the API may change at any time.", UserWarning,
                  stacklevel=2)
    if not inplace and fw_active() and (fw_grad_of(self) is not None
                                        or fw_grad_of(source) is not None):
        raise fw_not_implemented("index_reduce")  # (PyTorch: before the kernel's checks)
    if reduce not in _INDEX_REDUCES:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    cdef Py_ssize_t d = _check_index_along(self, dim, index, "index_reduce_")
    if dtype_of(source._data) is not dtype_of(self._data):
        raise RuntimeError(f"index_reduce_(): self ({dtype_of(self._data).scalar_name}) and "
                           f"source ({dtype_of(source._data).scalar_name}) must have the same "
                           f"scalar type")
    if cnp.PyArray_ISCOMPLEX(self._data):  # (PyTorch's complex kernels: prod and mean)
        if not include_self:
            raise not_implemented_for("index_reduce_func_exclude_input_init",
                                      dtype_of(self._data))
        if reduce == "amax" or reduce == "amin":
            raise not_implemented_for("maximum_cpu" if reduce == "amax" else "minimum_cpu",
                                      dtype_of(self._data))
    elif is_guarded_array(self._data):
        # the wide unsigned ints (Note [Dtype guard]): PyTorch's include_self kernels are a
        # multiply (prod), maximum, minimum and add (mean), the last three without them
        # and skipped when index is empty; its exclude-self init has none
        if not include_self:
            refuse_complex("index_reduce", self)
        if reduce != "prod" and cnp.PyArray_SIZE(index._data):
            raise not_implemented_for({"amax": "maximum_cpu", "amin": "minimum_cpu",
                                       "mean": "add_stub"}[reduce], dtype_of(self._data))
    cdef cnp.ndarray idx = _index_as_scatter(source, d, index)._data
    idx = np.where(idx < 0, idx + (shape_of(self._data)[d] if self._data.ndim else 1), idx)
    cdef Tensor result = make(_scatter_reduce_values(self._data, d, idx, source._data, reduce,
                                                     include_self))
    if inplace and fw_active() and (fw_grad_of(self) is not None
                                    or fw_grad_of(source) is not None):
        raise fw_not_implemented("index_reduce_")  # (PyTorch's name: after the kernel)
    record_IndexReduceBackward0(result, self, d, index, source, reduce, include_self)
    return result


cdef tuple index_reduce_backward(Tensor grad, Tensor self, object dim, Tensor index,
                                 Tensor source, str reduce, bint include_self, Tensor result):
    """PyTorch's index_reduce_backward: scatter_reduce's, with index spread over source's
    slices."""
    cdef Tensor idx = _index_as_scatter(source, dim, index)
    return scatter_reduce_backward(grad, self, dim, idx, source, reduce, include_self, result,
                                   "index_reduce", "source")


# ================================================================ as_strided_scatter

cdef cnp.ndarray _strided_positions(tuple self_shape, tuple size, tuple stride, object offset):
    """The flat (row-major) positions of self's elements that the strided view addresses."""
    cdef Py_ssize_t n = shape_numel(self_shape)
    off = 0 if offset is None else offset
    if any([s < 0 for s in size]) or any([s < 0 for s in stride]):
        raise RuntimeError("as_strided_scatter: negative sizes or strides are not supported")
    last = off + sum([(s - 1) * st for s, st in zip(size, stride) if s > 0])
    if shape_numel(size) and (off < 0 or last >= n):
        raise RuntimeError(
            f"setStorage: sizes {shape_str(size)}, strides {shape_str(stride)}, storage offset "
            f"{off}, and itemsize 8 requiring a storage size of {(last + 1) * 8} are out of "
            f"bounds for storage of size {n * 8}")
    pos = np.full(size, off, dtype=np.int64)
    for k in range(len(size)):
        shp = [1] * len(size)
        shp[k] = size[k]
        pos = pos + (np.arange(size[k], dtype=np.int64) * stride[k]).reshape(shp)
    return pos


cdef Tensor op_as_strided_scatter(Tensor self, Tensor src, object size, object stride,
                                  object storage_offset):
    cdef tuple sz = tuple(size), st = tuple(stride)
    if len(sz) != len(st):
        raise RuntimeError(f"mismatch in length of strides and shape")
    if shape_of(src._data) != sz:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{shape_str(shape_of(src._data))}, slice size = {shape_str(sz)}")
    pos = _strided_positions(shape_of(self._data), sz, st, storage_offset)
    cdef cnp.ndarray out = np.array(self._data, order="C", copy=True)
    out.reshape(-1)[pos.reshape(-1)] = src._data.astype(out.dtype).reshape(-1)
    cdef Tensor result = make(out)
    record_AsStridedScatterBackward0(result, self, src, sz, st, storage_offset)
    return result


cdef Tensor as_strided_scatter_self_backward(Tensor grad, object size, object stride,
                                             object storage_offset):
    """grad with the scattered positions zeroed."""
    pos = _strided_positions(shape_of(grad._data), tuple(size), tuple(stride), storage_offset)
    flat = np.unique(pos.reshape(-1))
    return OPS.put(grad, make(flat), zeros((flat.size,), dtype_of(grad._data)), False)


cdef Tensor as_strided_scatter_src_backward(Tensor grad, object size, object stride,
                                            object storage_offset):
    """grad read through the strided view: grad.contiguous().as_strided(...)."""
    pos = _strided_positions(shape_of(grad._data), tuple(size), tuple(stride), storage_offset)
    return OPS.take(grad, make(pos))


# ================================================================ fill_diagonal_ / unravel_index

cdef Tensor op_fill_diagonal_(Tensor self, object fill_value, bint wrap):
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data), k
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    cdef tuple shape = shape_of(self._data)
    if nd > 2:
        for k in range(1, nd):
            if shape[k] != shape[0]:
                raise RuntimeError("all dimensions of input must be of equal length")
    # the diagonal as a view (one diagonal() per extra dim), filled in place: a write
    # into a region of self, as PyTorch's (CopySlices)
    cdef Tensor diag = self
    while cnp.PyArray_NDIM(diag._data) > 1:
        diag = OPS.diagonal(diag, 0, 0, -1)
    OPS.fill_(diag, fill_value)
    cdef Py_ssize_t rows, cols, start
    if wrap and nd == 2 and shape[0] > shape[1] + 1:
        rows, cols = shape[0], shape[1]
        start = cols + 1
        while start < rows:
            OPS.fill_(OPS.diagonal(OPS.slice(self, 0, start, None, 1), 0, 0, 1), fill_value)
            start += cols + 1
    return self


cdef tuple op_unravel_index(Tensor indices, object shape):
    cdef cnp.ndarray idx = indices._data
    if dtype_of(idx).category == CAT_FLOAT or dtype_of(idx) is bool_:
        raise TypeError(f"expected 'indices' to be integer dtype, but got "
                        f"{dtype_of(idx).name}")
    if isinstance(shape, int) or hasattr(shape, "__index__"):
        shp = (shape.__index__(),)
    else:
        shp = tuple([s.__index__() for s in shape])
    for s in shp:
        if s < 0:
            raise ValueError("'shape' cannot have negative values, but got " + str(shp))
    n = shape_numel(shp)
    if idx.size and ((idx < -n) | (idx >= n)).any():
        raise RuntimeError(f"'indices' must be in range [-{n}, {n - 1}]")
    flat = np.where(idx < 0, idx + n, idx).astype(np.int64)
    if not shp:
        return ()
    return tuple([make(as_array(c).astype(np.int64, copy=False))
                  for c in np.unravel_index(flat, shp)])


def _py_unravel_index(indices, shape):
    return OPS.unravel_index(arg_tensor(indices, "unravel_index", "indices", 1), shape)


include "_gen_index.pxi"
