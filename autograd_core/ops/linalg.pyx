"""Linear algebra: matrix products (matmul in all its forms, mm, bmm, dot, mv, outer,
addmm), einsum and tensordot, trace, diag, tril/triu, vector and matrix norms (and
the internal SVD behind the matrix 2-norm and the nuclear norm), inverse,
determinant and solve.

Their nodes, wiring and Python wrappers are generated from the linalg section of
derivatives.yaml (_gen_linalg.pxi, included at the end). This file holds the
forwards, the helpers the derivative formulas call (named as PyTorch's
FunctionsManual: svd_backward, linalg_det_backward, ...), and the ops PyTorch
composes from others (matmul, outer, einsum, tensordot, the matrix norms): those call
the ops they are made of, so their graphs hold those ops' nodes, as PyTorch's do.

>>> import autograd_core as torch
>>> a = torch.ones(2, 3, requires_grad=True)
>>> (a @ torch.ones(3, 4)).grad_fn.name()
'MmBackward0'
>>> (a[0] @ torch.ones(3, 4)).grad_fn.name()
'SqueezeBackward4'
"""
include "_prelude.pxi"


class _LinAlgError(RuntimeError):
    """A matrix that must be invertible is singular (autograd_core.linalg.LinAlgError;
    PyTorch's class has this name too)."""


LinAlgError = _LinAlgError


# ================================================================ shared helpers

cdef inline Py_ssize_t _ndim(Tensor t):
    return cnp.PyArray_NDIM(t._data)


cdef inline Tensor _mT(Tensor t):
    """The last two dims swapped (PyTorch's mT: a transpose)."""
    return OPS.transpose(t, -2, -1)


cdef inline Tensor _contiguous(Tensor t):
    """t, or a contiguous copy (PyTorch's contiguous(): a clone when t is not)."""
    if cnp.PyArray_IS_C_CONTIGUOUS(t._data):
        return t
    return OPS.clone(t, None)


cdef cnp.ndarray _column_major(object arr):
    """arr with each matrix (its last two dims) stored column by column: the layout
    LAPACK writes, which PyTorch's inv, solve and svd return (their strides show it)."""
    cdef cnp.ndarray a = as_array(arr)
    if cnp.PyArray_NDIM(a) < 2:
        return a if cnp.PyArray_IS_C_CONTIGUOUS(a) else a.copy()
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)


cdef str _fmt_number(object v):
    """A number as PyTorch's C++ Scalar prints it (3.0 -> '3', inf -> 'inf')."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    cdef double f = float(v)
    if f != f:
        return "nan"
    if f == np.inf or f == -np.inf:
        return "inf" if f > 0 else "-inf"
    if f == int(f) and -1e16 < f < 1e16:
        return str(int(f))
    return repr(f)


# ================================================================ matrix products

cdef Tensor op_mm(Tensor self, Tensor mat2):
    cdef cnp.ndarray a = self._data, b = mat2._data
    if cnp.PyArray_NDIM(a) != 2:
        raise RuntimeError("self must be a matrix")
    if cnp.PyArray_NDIM(b) != 2:
        raise RuntimeError("mat2 must be a matrix")
    cdef tuple sa = shape_of(a), sb = shape_of(b)
    if sa[1] != sb[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied "
                           f"({sa[0]}x{sa[1]} and {sb[0]}x{sb[1]})")
    if cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(b):
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{dtype_of(a).cpp_name} != {dtype_of(b).cpp_name}")
    check_not_bool_kernel(dtype_of(self._data), "addmm_impl_cpu_")
    cdef Tensor result = make(as_array(np.matmul(a, b)))
    record_MmBackward0(result, self, mat2)
    return result


cdef Tensor op_bmm(Tensor self, Tensor mat2):
    cdef cnp.ndarray a = self._data, b = mat2._data
    if cnp.PyArray_NDIM(a) != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if cnp.PyArray_NDIM(b) != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    cdef tuple sa = shape_of(a), sb = shape_of(b)
    if sa[0] != sb[0] or sa[2] != sb[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{sa[0]}, {sa[2]}] "
            f"but got: [{sb[0]}, {sb[1]}].")
    if cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(b):
        raise RuntimeError(f"expected scalar type {dtype_of(a).scalar_name} but found "
                           f"{dtype_of(b).scalar_name}")
    check_not_bool_kernel(dtype_of(self._data), "bmm")
    cdef Tensor result = make(as_array(np.matmul(a, b)))
    record_BmmBackward0(result, self, mat2)
    return result


cdef Tensor op_dot(Tensor self, Tensor tensor):
    cdef cnp.ndarray a = self._data, b = tensor._data
    cdef int na = cnp.PyArray_NDIM(a), nb = cnp.PyArray_NDIM(b)
    if na != 1 or nb != 1:
        raise RuntimeError(f"1D tensors expected, but got {na}D and {nb}D tensors")
    if cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(b):
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{dtype_of(a).scalar_name} and {dtype_of(b).scalar_name}")
    cdef Py_ssize_t n = cnp.PyArray_DIMS(a)[0], m = cnp.PyArray_DIMS(b)[0]
    if n != m:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
            f"number of elements, but got {n} and {m} elements respectively")
    check_not_bool_kernel(dtype_of(self._data), "dot")
    cdef Tensor result = make(as_array(np.dot(a, b)))
    record_DotBackward0(result, self, tensor)
    return result


cdef Tensor op_mv(Tensor self, Tensor vec):
    cdef cnp.ndarray m = self._data, v = vec._data
    cdef int nm = cnp.PyArray_NDIM(m), nv = cnp.PyArray_NDIM(v)
    if nm == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if nm != 2 or nv != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {nm}, {nv}")
    cdef tuple sm = shape_of(m), sv = shape_of(v)
    if sm[1] != sv[0]:
        raise RuntimeError(
            f"size mismatch, got input ({sm[0]}), mat ({sm[0]}x{sm[1]}), vec ({sv[0]})")
    if cnp.PyArray_TYPE(m) != cnp.PyArray_TYPE(v):
        vn = dtype_of(v).scalar_name
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {vn}, "
                           f"{dtype_of(m).scalar_name}, and {vn}")
    check_not_bool_kernel(dtype_of(self._data), "addmv_impl_cpu")
    cdef Tensor result = make(as_array(np.matmul(m, v)))
    record_MvBackward0(result, self, vec)
    return result


cdef Tensor _outer(Tensor self, Tensor vec2):
    """PyTorch's outer: self.reshape(-1, 1) * vec2 (its node is the product's)."""
    cdef int na = _ndim(self), nb = _ndim(vec2)
    if na != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {na}-D")
    if nb != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {nb}-D")
    return OPS.mul(OPS.reshape(self, (cnp.PyArray_DIMS(self._data)[0], 1)), vec2)


cdef Tensor op_outer(Tensor self, Tensor vec2):
    return _outer(self, vec2)


cdef Tensor op_ger(Tensor self, Tensor vec2):
    return _outer(self, vec2)


# ---------------------------------------------------------------- matmul
# PyTorch's _matmul_impl, step by step: each form calls the op PyTorch calls, so the
# graph (and the errors) are the same: dot, mv, unsqueeze + mm + squeeze_, mm; a batch
# against a matrix or vector folds the batch into mm/mv rows; otherwise the batch dims
# broadcast and bmm runs on the expanded operands.

cdef bint _should_fold(Tensor tensor1, Tensor tensor2):
    """PyTorch's should_fold: fold the batch of the larger operand into mm's rows."""
    cdef Py_ssize_t n1 = _ndim(tensor1), n2 = _ndim(tensor2), i, dim_t1, dim_t2
    cdef bint larger = n1 >= n2
    dim_t1 = n1 if larger else n2
    dim_t2 = n2 if larger else n1
    if not (dim_t1 >= 3 and dim_t2 <= 2):
        return False
    if (tensor2._requires_grad if larger else tensor1._requires_grad):
        return True
    if n1 == 2:
        return False
    cdef cnp.ndarray t1 = tensor1._data if larger else tensor2._data
    if cnp.PyArray_SIZE(t1) == 0:
        return True
    shape = list(shape_of(t1))
    strides = list((<object>t1).strides)
    if not larger:  # t1 is tensor2.mT
        shape[-1], shape[-2] = shape[-2], shape[-1]
        strides[-1], strides[-2] = strides[-2], strides[-1]
    for i in range(dim_t1 - 2):
        if strides[i] != strides[i + 1] * shape[i + 1]:
            return False
    return True


cdef Tensor op_matmul(Tensor self, Tensor other):
    cdef Py_ssize_t na = _ndim(self), nb = _ndim(other)
    if na == 0 or nb == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {na}D and {nb}D")
    if na == 1 and nb == 1:
        return op_dot(self, other)
    if na == 2 and nb == 1:
        return op_mv(self, other)
    if na == 1 and nb == 2:
        return OPS.squeeze_(op_mm(OPS.unsqueeze(self, 0), other), 0)
    if na == 2 and nb == 2:
        return op_mm(self, other)
    if _should_fold(self, other):
        return _matmul_folded(self, other)
    return _matmul_batched(self, other)


cdef Tensor _matmul_folded(Tensor tensor1, Tensor tensor2):
    """A batch (>= 3-D) times a matrix or vector: one mm/mv over the folded batch."""
    cdef bint transpose = _ndim(tensor2) > _ndim(tensor1)
    cdef Tensor t1 = _mT(tensor2) if transpose else tensor1
    cdef Tensor t2
    if not transpose:
        t2 = tensor2
    elif _ndim(tensor1) == 2:
        t2 = OPS.t(tensor1)
    else:
        t2 = tensor1
    cdef tuple sizes_1 = shape_of(t1._data)
    cdef tuple output_shape = sizes_1[:-1]
    cdef Py_ssize_t folded_dim1 = shape_numel(output_shape)
    cdef bint t2_is_matrix = _ndim(t2) == 2
    if t2_is_matrix:
        output_shape = output_shape + (shape_of(t2._data)[1],)
    cdef Tensor t1_folded = OPS.reshape(t1, (folded_dim1, sizes_1[-1]))
    cdef Tensor output
    if t2_is_matrix:
        output = OPS._unsafe_view(op_mm(t1_folded, t2), output_shape)
        return _contiguous(_mT(output)) if transpose else output
    return OPS._unsafe_view(op_mv(t1_folded, t2), output_shape)


cdef Tensor _matmul_batched(Tensor tensor1, Tensor tensor2):
    """Batches broadcast against each other: bmm over the expanded operands."""
    cdef Py_ssize_t dim1 = _ndim(tensor1), dim2 = _ndim(tensor2)
    cdef tuple s1 = shape_of(tensor1._data), s2 = shape_of(tensor2._data)
    cdef Py_ssize_t n = s1[dim1 - 2] if dim1 > 1 else 1
    cdef Py_ssize_t m1 = s1[dim1 - 1]
    cdef tuple batch1 = s1[:dim1 - 2] if dim1 > 2 else ()
    cdef Py_ssize_t m2 = s2[dim2 - 2] if dim2 > 1 else s2[0]
    cdef Py_ssize_t p = s2[dim2 - 1] if dim2 > 1 else 1
    cdef tuple batch2 = s2[:dim2 - 2] if dim2 > 2 else ()
    if dim1 == 3 and dim2 == 3 and batch1[0] != batch2[0]:
        if batch1[0] == 1 and tensor1._requires_grad:
            return op_matmul(OPS.squeeze(tensor1, 0), tensor2)
        if batch2[0] == 1 and tensor2._requires_grad:
            return op_matmul(tensor1, OPS.squeeze(tensor2, 0))
    output_shape = broadcast_shapes(batch1, batch2)
    cdef Py_ssize_t expand_batch_product = shape_numel(output_shape)
    cdef Tensor t1_expanded = OPS.reshape(OPS.expand(tensor1, output_shape + (n, m1)),
                                          (expand_batch_product, n, m1))
    cdef bint vector_rhs = dim2 == 1
    cdef Tensor t2_expanded
    if vector_rhs:
        t2_expanded = OPS.unsqueeze(OPS.reshape(OPS.expand(tensor2, output_shape + (m2,)),
                                                (expand_batch_product, m2)), 2)
    else:
        t2_expanded = OPS.reshape(OPS.expand(tensor2, output_shape + (m2, p)),
                                  (expand_batch_product, m2, p))
    if dim1 > 1:
        output_shape = output_shape + (n,)
    if dim2 > 1:
        output_shape = output_shape + (p,)
    if vector_rhs:
        return OPS._unsafe_view(OPS.squeeze(op_bmm(t1_expanded, t2_expanded), -1), output_shape)
    return OPS._unsafe_view(op_bmm(t1_expanded, t2_expanded), output_shape)


# ---------------------------------------------------------------- addmm

cdef Tensor op_addmm(Tensor self, Tensor mat1, Tensor mat2, object beta, object alpha):
    cdef cnp.ndarray inp = self._data, m1 = mat1._data, m2 = mat2._data
    cdef int n1 = cnp.PyArray_NDIM(m1), n2 = cnp.PyArray_NDIM(m2)
    if n1 != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {n1}-D tensor")
    if n2 != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {n2}-D tensor")
    cdef dtype di = dtype_of(inp), d1 = dtype_of(m1), d2 = dtype_of(m2)
    if di is not d2:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{di.scalar_name} and {d2.scalar_name}")
    if d1 is not d2:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{d1.scalar_name} and {d2.scalar_name}")
    cdef tuple s1 = shape_of(m1), s2 = shape_of(m2)
    if s1[1] != s2[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied "
                           f"({s1[0]}x{s1[1]} and {s2[0]}x{s2[1]})")
    cdef tuple out_shape = (s1[0], s2[1])
    if shape_of(inp) != out_shape and not broadcasts_to(shape_of(inp), out_shape):
        OPS.expand(self, out_shape)  # raises the expand error PyTorch gives
    check_not_bool_kernel(dtype_of(self._data), "addmm_impl_cpu_")
    with quiet():
        mm = np.matmul(m1, m2)
        if alpha != 1:
            mm = mm * alpha
        if beta == 0:
            out = mm
        elif beta == 1:
            out = mm + inp
        else:
            out = mm + inp * beta
    cdef Tensor result = make(np.ascontiguousarray(np.broadcast_to(out, out_shape))
                              .astype(d2.np_dtype, copy=False))
    record_AddmmBackward0(result, self, mat1, mat2, beta, alpha)
    return result


# ================================================================ einsum
# PyTorch's einsum (aten/src/ATen/native/Linear.cpp), step by step through the ops it
# calls: parse the equation; give every operand the same dims (ordered: output
# labels, then contracted ones) by taking diagonals of repeated labels, unsqueezing
# missing ones and permuting; then contract the operands left to right, each pair
# with a multiply (nothing to sum) or bmm (sumproduct_pair), summing a dim as soon as
# no later operand has it; finally view (or sum) the contracted dims away.

cdef int _TOTAL_LABELS = 52
cdef int _ELLIPSIS = 52        # the label code of "..."


cdef inline int _label_to_subscript(str c):
    return (ord(c) - 65) if c < "a" else (ord(c) - 97 + 26)


cdef inline str _subscript_to_label(int s):
    return chr(s + 65) if s < 26 else chr(s - 26 + 97)


cdef inline bint _is_label(str c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


cdef list _einsum_operand_labels(str lhs, Py_ssize_t num_ops):
    """The label codes of each operand (with _ELLIPSIS for "...")."""
    cdef list op_labels = [[] for _ in range(num_ops)]
    cdef bint ell_in_input = False
    cdef Py_ssize_t i = 0, curr = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_in_input:
                raise RuntimeError(f"einsum(): found '.' for operand {curr} for which an ellipsis "
                                   "was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {curr} that is not part of "
                                   "any ellipsis")
            i += 2
            op_labels[curr].append(_ELLIPSIS)
            ell_in_input = True
        elif c == ",":
            curr += 1
            if curr >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                                   "equation")
            ell_in_input = False
        else:
            if not _is_label(c):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   "equation string, subscripts must be in [a-zA-Z]")
            op_labels[curr].append(_label_to_subscript(c))
        i += 1
    if curr != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return op_labels


cdef Tensor _movedim_last_to(Tensor t, Py_ssize_t dst):
    """t.movedim(-1, dst): a permute, as PyTorch's movedim."""
    cdef Py_ssize_t nd = _ndim(t)
    perm = list(range(dst)) + [nd - 1] + list(range(dst, nd - 1))
    return OPS.permute(t, tuple(perm))


cdef Tensor op_einsum(object equation, list tensors):
    cdef str eq = equation
    cdef Py_ssize_t num_ops = len(tensors), i, j, k, dim, nd
    if num_ops == 0:
        raise RuntimeError("einsum(): must provide at least one operand")
    arrow = eq.find("->")
    lhs = eq if arrow < 0 else eq[:arrow]
    cdef list op_labels = _einsum_operand_labels(lhs, num_ops)

    # label counts and the number of dims the ellipsis covers
    cdef list label_count = [0] * _TOTAL_LABELS
    cdef Py_ssize_t ell_num_dim = 0, nlabels
    cdef bint has_ell
    for i in range(num_ops):
        nd = _ndim(<Tensor>tensors[i])
        nlabels = len(op_labels[i])
        has_ell = False
        for s in op_labels[i]:
            if s == _ELLIPSIS:
                nlabels -= 1
                has_ell = True
                if nd - nlabels > ell_num_dim:
                    ell_num_dim = nd - nlabels
            else:
                label_count[s] += 1
        if (nlabels > nd) if has_ell else (nlabels != nd):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({nlabels}) "
                + ("is more than" if has_ell else "does not match")
                + f" the number of dimensions ({nd}) for operand {i}"
                + ("" if has_ell else " and no ellipsis was given"))

    # each label's position among the aligned dims: the output's, then contracted ones
    cdef list label_perm_index = [-1] * _TOTAL_LABELS
    cdef Py_ssize_t perm_index = 0, ell_index = 0, out_num_dim
    cdef bint ell_in_output = False
    if arrow < 0:
        perm_index = ell_num_dim
        ell_in_output = True
        for s in range(_TOTAL_LABELS):
            if label_count[s] == 1:
                label_perm_index[s] = perm_index
                perm_index += 1
    else:
        rhs = eq[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                       "already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                       "ellipsis (...)")
                i += 2
                ell_index = perm_index
                perm_index += ell_num_dim
                ell_in_output = True
            else:
                if not _is_label(c):
                    raise RuntimeError(f"einsum(): invalid subscript given at index "
                                       f"{len(lhs) + 2 + i} in the equation string, subscripts "
                                       "must be in [a-zA-Z]")
                s = _label_to_subscript(c)
                if not (label_count[s] > 0 and label_perm_index[s] == -1):
                    raise RuntimeError(
                        f"einsum(): output subscript {c}"
                        + (" appears more than once in the output" if label_perm_index[s] > -1
                           else " does not appear in the equation for any input operand"))
                label_perm_index[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(_TOTAL_LABELS):
        if label_count[s] > 0 and label_perm_index[s] == -1:
            label_perm_index[s] = perm_index
            perm_index += 1

    # align the operands: diagonals for repeated labels, unsqueeze missing dims, permute
    cdef list label_size = [1] * _TOTAL_LABELS
    cdef list ell_sizes = [1] * ell_num_dim
    cdef list dim_counts = [0] * perm_index
    cdef list ops = []
    cdef Tensor op
    cdef list permutation
    cdef Py_ssize_t ndim_ell, prev_dim, size
    for i in range(num_ops):
        op = tensors[i]
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[i]:
            if s == _ELLIPSIS:
                ndim_ell = _ndim(<Tensor>tensors[i]) - (len(op_labels[i]) - 1)
                for j in range(ell_num_dim - ndim_ell, ell_num_dim):
                    size = shape_of(op._data)[dim]
                    if size != 1:
                        if not (ell_sizes[j] == 1 or ell_sizes[j] == size):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {i}"
                                f"has size {size} which does not broadcast with previously seen "
                                f"ellipsis with size {ell_sizes[j]} for the respective dimension")
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm_index[s]] == -1:
                size = shape_of(op._data)[dim]
                if size != 1:
                    if not (label_size[s] == 1 or label_size[s] == size):
                        raise RuntimeError(
                            f"einsum(): subscript {_subscript_to_label(s)} has size {size} for "
                            f"operand {i} which does not broadcast with previously seen size "
                            f"{label_size[s]}")
                    label_size[s] = size
                    dim_counts[label_perm_index[s]] += 1
                permutation[label_perm_index[s]] = dim
                dim += 1
            else:
                prev_dim = permutation[label_perm_index[s]]
                size = shape_of(op._data)[dim]
                if size != shape_of(op._data)[prev_dim]:
                    raise RuntimeError(
                        f"einsum(): subscript {_subscript_to_label(s)} is repeated for operand "
                        f"{i} but the sizes don't match, {size} != "
                        f"{shape_of(op._data)[prev_dim]}")
                op = _movedim_last_to(OPS.diagonal(op, 0, prev_dim, dim), prev_dim)
        for k in range(perm_index):
            if permutation[k] == -1:
                op = OPS.unsqueeze(op, dim)
                permutation[k] = dim
                dim += 1
        ops.append(OPS.permute(op, tuple(permutation)))

    # contract left to right
    cdef Tensor a, b
    cdef list sum_dims, a_dims_to_sum, b_dims_to_sum
    cdef tuple sa, sb
    while len(ops) > 1:
        a = ops.pop(0)
        b = ops.pop(0)
        sa = shape_of(a._data)
        sb = shape_of(b._data)
        sum_dims = []
        a_dims_to_sum = []
        b_dims_to_sum = []
        for dim in range(out_num_dim, perm_index):
            if sa[dim] != 1 and sb[dim] != 1:
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:
                if sa[dim] != 1:
                    a_dims_to_sum.append(dim)
                    dim_counts[dim] = 0
                elif sb[dim] != 1:
                    b_dims_to_sum.append(dim)
                    dim_counts[dim] = 0
        if a_dims_to_sum:
            a = OPS.sum(a, tuple(a_dims_to_sum), True, None)
        if b_dims_to_sum:
            b = OPS.sum(b, tuple(b_dims_to_sum), True, None)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    # the contracted dims are now of size 1 (several operands) or still to sum (one)
    cdef Tensor result = ops[0]
    if perm_index - out_num_dim > 0:
        if num_ops > 1:
            return OPS.view(result, shape_of(result._data)[:out_num_dim])
        return OPS.sum(result, tuple(range(out_num_dim, perm_index)), False, None)
    return result


cdef Tensor _sumproduct_pair(Tensor left, Tensor right, list sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) through permute, reshape and bmm
    (PyTorch's sumproduct_pair); a plain multiply when nothing is summed."""
    if not sum_dims:
        return OPS.mul(left, right)
    cdef Py_ssize_t dim = _ndim(left), i
    cdef list lro = [], lo = [], ro = []
    cdef Py_ssize_t lro_size = 1, lo_size = 1, ro_size = 1, sum_size = 1
    cdef tuple sl, sr
    for i in range(dim):
        sl = shape_of(left._data)
        sr = shape_of(right._data)
        l_big = sl[i] != 1
        r_big = sr[i] != 1
        if i in sum_dims:
            if l_big and r_big:
                if sl[i] != sr[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= sl[i]
            elif l_big:
                left = OPS.sum(left, (i,), True, None)
            elif r_big:
                right = OPS.sum(right, (i,), True, None)
        elif l_big and r_big:
            if sl[i] != sr[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= sl[i]
        elif l_big:
            lo.append(i)
            lo_size *= sl[i]
        else:
            ro.append(i)
            ro_size *= sr[i]
    if lo and ro and ro[-1] < lo[0]:
        # the right operand's output dims all come first: swapped, bmm writes them in
        # the output's order (no permute copy)
        left, right = right, left
        lo, ro = ro, lo
        lo_size, ro_size = ro_size, lo_size
    sl = shape_of(left._data)
    sr = shape_of(right._data)
    out_size = ([sl[d] for d in lro] + [sl[d] for d in lo] + [1] * len(sum_dims)
                + [sr[d] for d in ro])
    lpermutation = lro + lo + sum_dims + ro
    rpermutation = lro + sum_dims + ro + lo
    opermutation = [-1] * len(out_size)
    i = 0
    for group in (lro, lo, sum_dims, ro):
        for d in group:
            opermutation[d] = i
            i += 1
    left = OPS.reshape(OPS.permute(left, tuple(lpermutation)), (lro_size, lo_size, sum_size))
    right = OPS.reshape(OPS.permute(right, tuple(rpermutation)), (lro_size, sum_size, ro_size))
    cdef Tensor result = op_bmm(left, right)
    return OPS.permute(OPS.view(result, tuple(out_size)), tuple(opermutation))


def _py_einsum(*args):
    """Einstein summation over the operands' labelled dimensions (PyTorch's rules:
    implicit or explicit output, ellipsis, repeated labels, size-1 broadcasting).

    >>> import autograd_core as torch
    >>> torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(3, 1))
    tensor([[3.],
            [3.]])
    """
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        # the sublist form: einsum(op1, sublist1, op2, sublist2, ..., [sublist_out])
        equation = ",".join("".join([_sublist_label(s) for s in l]) for l in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join([_sublist_label(s) for s in args[-1]])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation = args[0]
        operands = args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]   # the old interface: the operands as one list
    cdef str eq = arg_str(equation, "einsum", "equation", 1)
    for k, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument 1, but got "
                            f"{type(t).__name__}")
    return op_einsum(eq, list(operands))


cdef str _sublist_label(object n):
    if n is Ellipsis:
        return "..."
    if 0 <= n < 26:
        return chr(ord("A") + n)
    if 26 <= n < 52:
        return chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


_py_einsum.__name__ = _py_einsum.__qualname__ = "einsum"


# ================================================================ tensordot

cdef Tensor op_tensordot(Tensor a, Tensor b, object dims, object out):
    """dims as torch.tensordot takes it (an int, two lists, or a tensor of either)."""
    if out is not None:
        raise NotImplementedError("tensordot(out=...) is not supported by autograd_core")
    if not isinstance(dims, (tuple, list, Tensor, int)):
        raise RuntimeError(
            "tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
            f"containing two lists, but got dims={dims}")
    cdef list dims_a = [], dims_b = []
    cdef Py_ssize_t n
    if isinstance(dims, (tuple, list)):
        da, db = dims
        dims_a = [int(d) for d in (da if isinstance(da, (tuple, list)) else [da])]
        dims_b = [int(d) for d in (db if isinstance(db, (tuple, list)) else [db])]
    elif isinstance(dims, Tensor):
        if cnp.PyArray_SIZE((<Tensor>dims)._data) > 1:
            dims_a = [int(v) for v in (<Tensor>dims)._data[0].tolist()]
            dims_b = [int(v) for v in (<Tensor>dims)._data[1].tolist()]
        else:
            n = int((<Tensor>dims)._data.item())
            if n < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            dims_a = list(range(-n, 0))
            dims_b = list(range(n))
    else:
        n = dims
        if n < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if n > min(_ndim(a), _ndim(b)):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a = list(range(-n, 0))
        dims_b = list(range(n))
    return _tensordot(a, b, dims_a, dims_b)


cdef Tensor _tensordot(Tensor a, Tensor b, list dims1, list dims2):
    """PyTorch's tensordot: sum broadcast dims, permute, reshape, mm, reshape."""
    if len(dims1) != len(dims2):
        raise RuntimeError("both dimension lists should have same length")
    if dtype_of(a._data) is not dtype_of(b._data):
        raise RuntimeError("both inputs should have same dtype")
    cdef Py_ssize_t na = _ndim(a), nb = _ndim(b), i
    cdef tuple sa = shape_of(a._data), sb = shape_of(b._data)
    for i in range(len(dims1)):
        if na == 0:
            raise IndexError(f"Dimension specified as {dims1[i]} but tensor has no dimensions")
        if nb == 0:
            raise IndexError(f"Dimension specified as {dims2[i]} but tensor has no dimensions")
    cdef list w1 = [wrap_dim(d, na) for d in dims1], w2 = [wrap_dim(d, nb) for d in dims2]
    wrap_dims(w1, na)   # each dim at most once
    wrap_dims(w2, nb)
    cdef Tensor t1 = a, t2 = b
    cdef Py_ssize_t csize = 1
    for i in range(len(w1)):
        s1 = sa[w1[i]]
        s2 = sb[w2[i]]
        if s2 == 1:
            t1 = OPS.sum(t1, (w1[i],), True, None)
        elif s1 == 1:
            t2 = OPS.sum(t2, (w2[i],), True, None)
        else:
            if s1 != s2:
                raise RuntimeError(
                    f"contracted dimensions need to match, but first has size {s1} in dim "
                    f"{dims1[i]} and second has size {s2} in dim {dims2[i]}")
            csize *= s1
    cdef list p1 = [], p2 = list(w2), rsizes = []
    cdef Py_ssize_t size1 = 1, size2 = 1
    for i in range(na):
        if i not in w1:
            p1.append(i)
            size1 *= shape_of(t1._data)[i]
            rsizes.append(shape_of(t1._data)[i])
    p1 += w1
    for i in range(nb):
        if i not in w2:
            p2.append(i)
            size2 *= shape_of(t2._data)[i]
            rsizes.append(shape_of(t2._data)[i])
    t1 = OPS.reshape(OPS.permute(t1, tuple(p1)), (size1, csize))
    t2 = OPS.reshape(OPS.permute(t2, tuple(p2)), (csize, size2))
    return OPS.reshape(op_mm(t1, t2), tuple(rsizes))


# ================================================================ trace, diag, tril / triu

cdef Tensor op_trace(Tensor self):
    cdef Py_ssize_t nd = _ndim(self)
    if nd != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {nd}")
    cdef dtype d = dtype_of(self._data)
    check_not_bool_kernel(d, "trace")
    cdef dtype od = d if d.category == CAT_FLOAT else int64
    cdef Tensor result = make(as_array(np.trace(self._data, dtype=od.np_dtype)))
    record_TraceBackward0(result, self)
    return result


cdef Tensor trace_backward(Tensor grad, tuple sizes):
    """grad on the main diagonal of a matrix of the input's sizes, zeros elsewhere."""
    return OPS.where(make(np.eye(sizes[0], sizes[1], dtype=bool)), grad, 0)


cdef Tensor op_diag(Tensor self, object diagonal):
    cdef Py_ssize_t nd = _ndim(self), k = diagonal
    cdef cnp.ndarray x = self._data
    cdef Tensor result
    if nd == 1:
        return OPS.diag_embed(self, diagonal, 0, 1)
    if nd == 2:
        result = make(np.diagonal(x, k).copy())
        record_DiagonalBackward0_copy(result, self, diagonal)
        return result
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")


cdef Tensor op_tril(Tensor self, object diagonal):
    if _ndim(self) < 2:
        raise RuntimeError("tril: input tensor must have at least 2 dimensions")
    cdef Tensor result = make(as_array(np.tril(self._data, <Py_ssize_t>diagonal)))
    record_TrilBackward0(result, self, diagonal)
    return result


cdef Tensor op_triu(Tensor self, object diagonal):
    if _ndim(self) < 2:
        raise RuntimeError("triu: input tensor must have at least 2 dimensions")
    cdef Tensor result = make(as_array(np.triu(self._data, <Py_ssize_t>diagonal)))
    record_TriuBackward0(result, self, diagonal)
    return result


# ================================================================ norms

cdef dtype _norm_dtype(object dtype_arg, dtype d, str fname):
    """PyTorch's check_linalg_norm_dtype: the dtype a norm computes in."""
    if dtype_arg is None:
        return d
    cdef dtype od = <dtype>dtype_arg
    if od.category != CAT_FLOAT:
        raise RuntimeError(f"{fname}: dtype should be floating point or complex, but got "
                           f"{od.scalar_name}")
    if od.rank < d.rank:
        raise RuntimeError(
            f"{fname}: the dtype of the input ({d.scalar_name}) should be convertible "
            f"without narrowing to the specified dtype ({od.scalar_name})")
    return od


cdef void _check_float_input(dtype d, str fname) except *:
    if d.category != CAT_FLOAT:
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. "
                           f"Got {d.scalar_name}")


cdef Tensor op_linalg_vector_norm(Tensor self, object ord, object dim, bint keepdim,
                                  object dtype_arg):
    cdef str fname = "linalg.vector_norm"
    cdef dtype d = dtype_of(self._data)
    _check_float_input(d, fname)
    cdef dtype od = _norm_dtype(dtype_arg, d, fname)
    cdef double p = float(ord)
    cdef cnp.ndarray x = cast_array(self._data, od)
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    if isinstance(dim, int):
        dim = (dim,)
    cdef tuple dims = reduction_dims(dim, nd)
    if cnp.PyArray_SIZE(x) == 0 and (p < 0 or p == np.inf):
        if not is_all_dims(dim):
            for given in dim:
                if nd and shape_of(x)[wrap_dim(given, nd)] == 0:
                    raise RuntimeError(
                        f"{fname} cannot compute the {_fmt_number(ord)} norm on the dimension "
                        f"{given}because this dimension is empty and the operation does not "
                        "have an identity")
        else:
            raise RuntimeError(
                f"{fname} cannot compute the {_fmt_number(ord)} norm on an empty tensor "
                "because the operation does not have an identity")
    axis = dims if nd else None
    with quiet():
        a = np.abs(x)
        if p == 0.0:
            out = np.sum(a != 0, axis=axis, keepdims=keepdim).astype(od.np_dtype)
        elif p == np.inf:
            out = np.amax(a, axis=axis, keepdims=keepdim)
        elif p == -np.inf:
            out = np.amin(a, axis=axis, keepdims=keepdim)
        elif p == 1.0:
            out = np.sum(a, axis=axis, keepdims=keepdim)
        elif p == 2.0:
            out = np.sqrt(np.sum(a * a, axis=axis, keepdims=keepdim))
        else:
            out = np.power(np.sum(np.power(a, p), axis=axis, keepdims=keepdim), 1.0 / p)
    if nd == 0 and keepdim:
        out = np.reshape(out, ())
    cdef Tensor result = make(as_array(out).astype(od.np_dtype, copy=False))
    record_LinalgVectorNormBackward0(result, self, ord, dim, keepdim, dtype_arg)
    return result


cdef object linalg_vector_norm_backward(Tensor grad, Tensor self, object ord, Tensor norm,
                                        object dim, bint keepdim):
    """PyTorch's norm_backward: the gradient of the ord-norm, zero where the norm is
    zero; None (no gradient) for ord 0."""
    cdef double p = float(ord)
    cdef Py_ssize_t nd = _ndim(self)
    if p == 0.0:
        return None
    cdef tuple dims = () if nd == 0 or is_all_dims(dim) else \
        wrap_dims((dim,) if isinstance(dim, int) else dim, nd)
    if not keepdim:
        grad = unsqueeze_dims(grad, dims)
        norm = unsqueeze_dims(norm, dims)
    if p == 1.0:
        return OPS.mul(OPS.sgn(self), grad)
    cdef Tensor self_scaled, scale_v
    if p == 2.0:
        return OPS.mul(grad, OPS.masked_fill(OPS.div(self, norm, None),
                                             _mask_like(norm._data == 0, self), 0))
    if p == np.inf or p == -np.inf:
        # the derivative of amax(|self|): shared among the elements at the max (and NaNs)
        with quiet():
            self_abs = np.abs(self._data)
            mask = (self_abs == norm._data) | np.isnan(self_abs)
        count = mask.sum(axis=dims if dims else None, keepdims=True)
        dt = np.result_type(self._data.dtype, grad._data.dtype)
        return OPS.mul(OPS.sgn(self),
                       OPS.mul(OPS.div(grad, make(np.asarray(count, dtype=dt)), None),
                               make(np.asarray(mask, dtype=dt))))
    if p < 1.0:
        self_scaled = OPS.mul(OPS.sgn(self), OPS.masked_fill(
            OPS.pow(OPS.abs(self), p - 1), _mask_like(self._data == 0, self), 0))
        return OPS.mul(OPS.mul(self_scaled, grad), OPS.pow(norm, 1 - p))
    if p < 2.0:
        self_scaled = OPS.mul(OPS.sgn(self), OPS.pow(OPS.abs(self), p - 1))
    else:
        self_scaled = OPS.mul(self, OPS.pow(OPS.abs(self), p - 2))
    scale_v = OPS.div(grad, OPS.pow(norm, p - 1), None)
    scale_v = OPS.masked_fill(scale_v, _mask_like(norm._data == 0, scale_v), 0)
    return OPS.mul(self_scaled, scale_v)


cdef Tensor _mask_like(object mask, Tensor t):
    """A bool mask (computed from values, no history) broadcast to t's shape."""
    return make(np.broadcast_to(mask, shape_of(t._data)).copy())


# ---------------------------------------------------------------- the internal SVD

cdef void _check_low_precision(Tensor A, str fname) except *:
    """Floating inputs of float32 or wider (half has no LAPACK kernel)."""
    cdef dtype d = dtype_of(A._data)
    _check_float_input(d, fname)
    if d.rank < float32.rank:
        raise RuntimeError(f"{fname}: Low precision dtypes not supported. Got {d.scalar_name}")


cdef void _check_lu_precision(Tensor A, str fname) except *:
    """det and solve reach PyTorch's LU kernel, which has no half version."""
    cdef dtype d = dtype_of(A._data)
    _check_float_input(d, fname)
    if d.rank < float32.rank:
        raise not_implemented_for("lu_cpu", d)


cdef tuple op__linalg_svd(Tensor A, bint full_matrices, bint compute_uv):
    """(U, S, Vh); U and Vh are None when not asked for and A needs no gradient."""
    _check_low_precision(A, "linalg.svd")
    if not (compute_uv or (recording() and A._requires_grad)):
        with quiet():
            s = np.linalg.svd(A._data, compute_uv=False)
        return (None, make(as_array(s)), None)
    with quiet():
        u, s, vh = np.linalg.svd(A._data, full_matrices=full_matrices)
    cdef Tensor U = make(_column_major(u)), S = make(as_array(s)), Vh = make(_column_major(vh))
    record_LinalgSvdBackward0(U, S, Vh, A, full_matrices, compute_uv)
    return (U, S, Vh)


cdef Tensor _svdvals(Tensor A):
    return op__linalg_svd(A, False, False)[1]


cdef Tensor _diag_embed_last(Tensor v):
    """Batches of diagonal matrices from the last dim of v."""
    cdef Py_ssize_t k = shape_of(v._data)[-1]
    return OPS.mul(OPS.unsqueeze(v, -1), make(np.eye(k, dtype=v._data.dtype)))


cdef Tensor _skew(Tensor t):
    return OPS.sub(t, _mT(t), 1)


cdef object svd_backward(object gU, object gS, object gVh, Tensor U, Tensor S, Tensor Vh):
    """PyTorch's svd_backward for real inputs and reduced U, Vh (distinct singular
    values); None when no output has a gradient."""
    if gU is None and gS is None and gVh is None:
        return None
    cdef Py_ssize_t m = shape_of(U._data)[-2], n = shape_of(Vh._data)[-1]
    if gU is None and gVh is None:
        if m >= n:
            return op_matmul(U, OPS.mul(OPS.unsqueeze(gS, -1), Vh))
        return op_matmul(OPS.mul(U, OPS.unsqueeze(gS, -2)), Vh)
    UhgU = VhgV = None
    if gU is not None:
        UhgU = _skew(op_matmul(_mT(U), gU))
    if gVh is not None:
        VhgV = _skew(op_matmul(Vh, _mT(gVh)))
    cdef Tensor S2 = OPS.mul(S, S)
    cdef Py_ssize_t k = shape_of(S._data)[-1]
    cdef Tensor E = OPS.where(make(np.eye(k, dtype=bool)), make_scalar(1, dtype_of(S._data)),
                              OPS.sub(OPS.unsqueeze(S2, -2), OPS.unsqueeze(S2, -1), 1))
    if UhgU is not None and VhgV is not None:
        gA = OPS.div(OPS.add(OPS.mul(UhgU, OPS.unsqueeze(S, -2)),
                             OPS.mul(OPS.unsqueeze(S, -1), VhgV), 1), E, None)
    elif UhgU is None:
        gA = OPS.div(OPS.mul(OPS.unsqueeze(S, -1), VhgV), E, None)
    else:
        gA = OPS.div(OPS.mul(UhgU, OPS.unsqueeze(S, -2)), E, None)
    if gS is not None:
        gA = OPS.add(gA, _diag_embed_last(gS), 1)
    if m > n and gU is not None:
        gA = op_matmul(U, gA)
        gUSinv = OPS.div(gU, OPS.unsqueeze(S, -2), None)
        gA = OPS.sub(OPS.add(gA, gUSinv, 1), op_matmul(U, op_matmul(_mT(U), gUSinv)), 1)
        gA = op_matmul(gA, Vh)
    elif m < n and gVh is not None:
        gA = op_matmul(gA, Vh)
        SinvgVh = OPS.div(gVh, OPS.unsqueeze(S, -1), None)
        gA = OPS.sub(OPS.add(gA, SinvgVh, 1), op_matmul(op_matmul(SinvgVh, _mT(Vh)), Vh), 1)
        gA = op_matmul(U, gA)
    elif m >= n:
        gA = op_matmul(U, op_matmul(gA, Vh))
    else:
        gA = op_matmul(op_matmul(U, gA), Vh)
    return gA


# ---------------------------------------------------------------- matrix norms

cdef tuple _backshift_permutation(Py_ssize_t d0, Py_ssize_t d1, Py_ssize_t nd):
    """The dims but d0, d1, then d0, d1."""
    return tuple([k for k in range(nd) if k != d0 and k != d1] + [d0, d1])


# the overloads PyTorch lists when ord is neither a number nor a string
cdef str _MATRIX_NORM_SIGNATURES = (
    " * (Tensor input, Number ord, tuple of ints dim = {-2,-1}, bool keepdim = False, *, "
    "autograd_core.dtype dtype = None, Tensor out = None)\n"
    " * (Tensor input, str ord = \"fro\", tuple of ints dim = {-2,-1}, bool keepdim = False, *, "
    "autograd_core.dtype dtype = None, Tensor out = None)")
cdef str _NORM_SIGNATURES = (
    " * (Tensor input, Number ord = None, tuple of ints dim = None, bool keepdim = False, *, "
    "autograd_core.dtype dtype = None, Tensor out = None)\n"
    " * (Tensor input, str ord, tuple of ints dim = None, bool keepdim = False, *, "
    "autograd_core.dtype dtype = None, Tensor out = None)")


cdef Tensor op_linalg_matrix_norm(Tensor self, object ord, object dim, bint keepdim,
                                  object dtype_arg):
    cdef str fname = "linalg.matrix_norm"
    cdef bint is_str = isinstance(ord, str)
    if not is_str and not is_number(ord):
        raise type_error_combination("linalg_matrix_norm", (self, ord), _MATRIX_NORM_SIGNATURES)
    cdef double p = 0.0, absp = 0.0
    if is_str:
        if ord != "fro" and ord != "nuc":
            raise RuntimeError(f"{fname}: Order {ord} not supported.")
    else:
        p = float(ord)
        absp = -p if p < 0 else p
        if not (absp == 2.0 or absp == 1.0 or absp == np.inf):
            raise RuntimeError(f"{fname}: Order {_fmt_number(ord)} not supported.")
    cdef Py_ssize_t nd = _ndim(self)
    if nd < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    cdef dtype d = dtype_of(self._data)
    _check_float_input(d, fname)
    cdef bint low_ok = (is_str and ord == "fro") or (not is_str and absp != 2.0)
    if not low_ok and d.rank < float32.rank:
        raise RuntimeError(f"{fname}: Low precision dtypes not supported. Got {d.scalar_name}")
    dims = list(dim)
    if len(dims) != 2:
        raise RuntimeError(f"{fname}: dim must be a 2-tuple. Got " + " ".join(str(x) for x in dims))
    cdef Py_ssize_t d0 = wrap_dim(dims[0], nd), d1 = wrap_dim(dims[1], nd)
    if d0 == d1:
        raise RuntimeError(f"{fname}: dims must be different. Got ({d0}, {d1})")
    cdef dtype od = _norm_dtype(dtype_arg, d, fname)
    if is_str and ord == "fro":
        return op_linalg_vector_norm(self, 2, (d0, d1), keepdim, dtype_arg)
    if not is_str and cnp.PyArray_SIZE(self._data) == 0 and p > 0 and absp != 1.0:
        # PyTorch: an empty matrix has 2- and inf-norm 0 (a constant, no history)
        shape = list(shape_of(self._data))
        for k in sorted((d0, d1), reverse=True):
            if keepdim:
                shape[k] = 1
            else:
                del shape[k]
        return zeros(tuple(shape), od)
    cdef tuple perm
    cdef Tensor result, A_, sv
    if is_str or absp == 2.0:
        perm = _backshift_permutation(d0, d1, nd)
        A_ = self if od is d else OPS._to_copy(self, od)
        sv = _svdvals(OPS.permute(A_, perm))
        if is_str:
            result = OPS.sum(sv, (-1,), keepdim, None)
        elif p > 0:
            result = OPS.amax(sv, (-1,), keepdim)
        else:
            result = OPS.amin(sv, (-1,), keepdim)
        if keepdim:
            result = OPS.permute(OPS.unsqueeze(result, -1), inverse_permutation(perm))
        return result
    # 1, -1, inf, -inf: the inf-norm is the 1-norm of the transpose
    if absp == np.inf:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    cdef Tensor col_sums = op_linalg_vector_norm(self, 1.0, (d0,), keepdim, dtype_arg)
    if p > 0:
        return OPS.amax(col_sums, (d1,), keepdim)
    return OPS.amin(col_sums, (d1,), keepdim)


cdef Tensor op_linalg_norm(Tensor self, object ord, object dim, bint keepdim, object dtype_arg):
    cdef Py_ssize_t nd = _ndim(self)
    if ord is not None and not isinstance(ord, str) and not is_number(ord):
        raise type_error_combination("linalg_norm", (self, ord), _NORM_SIGNATURES)
    if dim is not None:
        dim = tuple(dim)
        if len(dim) != 1 and len(dim) != 2:
            raise RuntimeError(
                "linalg.norm: If dim is specified, it must be of length 1 or 2. Got "
                f"[{', '.join(str(k) for k in dim)}]")
    elif ord is not None and nd != 1 and nd != 2:
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {nd}D.")
    if isinstance(ord, str):
        return op_linalg_matrix_norm(self, ord, dim if dim is not None else (0, 1), keepdim,
                                     dtype_arg)
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and nd == 2)):
        return op_linalg_matrix_norm(self, ord, dim if dim is not None else (0, 1), keepdim,
                                     dtype_arg)
    return op_linalg_vector_norm(self, 2.0 if ord is None else ord, dim, keepdim, dtype_arg)


cdef Tensor op_norm(Tensor self, object p, object dim, bint keepdim, object dtype_arg):
    """torch.norm / Tensor.norm, dispatched as torch/functional.py does."""
    if isinstance(dim, int):
        dim = (dim,)
    if isinstance(p, str):
        if p == "fro" and (dim is None or len(dim) <= 2):
            return op_linalg_vector_norm(self, 2, dim, keepdim, dtype_arg)
        if dim is None:
            dim = tuple(range(_ndim(self)))
        return op_linalg_matrix_norm(self, p, dim, keepdim, dtype_arg)
    if not is_number(p) and p is not None:
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                        f"not {type(p).__name__}")
    return op_linalg_vector_norm(self, 2.0 if p is None else arg_number(p), dim, keepdim,
                                 dtype_arg)


# ================================================================ inv, det, solve

cdef void _check_square(Tensor A, str fname) except *:
    if _ndim(A) < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    cdef tuple s = shape_of(A._data)
    if s[-1] != s[-2]:
        raise RuntimeError(f"{fname}: A must be batches of square matrices, but they are "
                           f"{s[-2]} by {s[-1]} matrices")


cdef Py_ssize_t _first_zero_pivot(cnp.ndarray a):
    """1-based index of the first exactly-zero pivot of a's LU factorisation with
    partial pivoting (LAPACK getrf's info), or 0."""
    m = np.array(a, dtype=np.float64)
    cdef Py_ssize_t n = m.shape[0], j, p, info = 0
    for j in range(n):   # one column of the elimination per step (numpy row ops)
        p = j + int(np.argmax(np.abs(m[j:, j])))
        if m[p, j] == 0:
            if info == 0:
                info = j + 1
            continue
        if p != j:
            m[[j, p]] = m[[p, j]]
        m[j + 1:, j] /= m[j, j]
        m[j + 1:, j + 1:] -= np.outer(m[j + 1:, j], m[j, j + 1:])
    return info


cdef tuple _singular_batch(cnp.ndarray A, tuple batch):
    """(batch index, pivot info) of the first singular matrix of A's (broadcast) batch."""
    s = shape_of(A)
    mats = np.broadcast_to(A, tuple(batch) + s[-2:]).reshape((-1,) + s[-2:])
    cdef Py_ssize_t i
    for i in range(mats.shape[0]):   # the error path only
        info = _first_zero_pivot(mats[i])
        if info:
            return (i, info)
        try:
            np.linalg.inv(mats[i])
        except np.linalg.LinAlgError:
            return (i, mats.shape[-1])
    return (0, mats.shape[-1])


cdef object _without_nan_matrices(cnp.ndarray A):
    """(A with each matrix holding a NaN replaced by the identity, the mask of those
    matrices), or None when there are none. numpy reports such a matrix singular;
    LAPACK through PyTorch gives NaNs."""
    nan = np.isnan(A).any(axis=(-2, -1))
    if not nan.any():
        return None
    return (np.where(nan[..., None, None], np.eye(shape_of(A)[-1], dtype=A.dtype), A), nan)


cdef Tensor op_linalg_inv(Tensor A):
    _check_square(A, "linalg.inv")
    _check_low_precision(A, "linalg.inv")
    cdef cnp.ndarray a = A._data
    try:
        with quiet():
            out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        fixed = _without_nan_matrices(a)
        try:
            if fixed is None:
                raise np.linalg.LinAlgError()
            a = fixed[0]
            with quiet():
                out = np.linalg.inv(a)
            out[fixed[1]] = np.nan
        except np.linalg.LinAlgError:
            s = shape_of(a)
            b, info = _singular_batch(a, s[:-2])
            prefix = f"(Batch element {b}): " if len(s) > 2 else ""
            raise _LinAlgError(f"linalg.inv: {prefix}The diagonal element {info} is zero, the "
                               "inversion could not be completed because the input matrix is "
                               "singular.") from None
    cdef Tensor result = make(_column_major(out))
    record_LinalgInvExBackward0(result, A)
    return result


cdef Tensor op_inverse(Tensor self):
    return op_linalg_inv(self)


cdef Tensor op_linalg_det(Tensor A):
    _check_square(A, "linalg.det")
    _check_lu_precision(A, "linalg.det")
    with quiet():
        out = np.linalg.det(A._data)
        nan = np.isnan(A._data).any(axis=(-2, -1))
    if nan.any():   # numpy's LU calls a matrix with NaN singular (det 0); LAPACK's is NaN
        out = np.where(nan, np.nan, out)
    cdef Tensor result = make(as_array(out).astype(A._data.dtype, copy=False))
    record_LinalgDetBackward0(result, A)
    return result


cdef Tensor op_det(Tensor self):
    return op_linalg_det(self)


cdef Tensor linalg_det_backward(Tensor grad, Tensor det, Tensor A):
    """PyTorch's linalg_det_backward: det * A^{-T} (a solve) for invertible A; for
    (nearly) singular A under create_graph, the cofactors from an SVD. Without grad
    mode an exactly singular A (det == 0) gets zeros, as PyTorch's perturbed LU gives."""
    cdef tuple shape = shape_of(A._data)
    cdef Py_ssize_t n = shape[-1]
    if n == 0:
        return zeros(shape, dtype_of(A._data))
    if n == 1:
        return OPS.expand(OPS.unsqueeze(OPS.unsqueeze(grad, -1), -1), shape)
    cdef Tensor d = OPS.mul(grad, det)
    if not grad_enabled():
        dd = np.broadcast_to(d._data, shape[:-2])
        out = np.zeros(shape, dtype=A._data.dtype)
        nz = dd != 0
        if nz.any():
            At = np.swapaxes(A._data, -1, -2)
            rhs = dd[nz][..., None, None] * np.eye(n, dtype=A._data.dtype)
            with quiet():
                if At.ndim > 2:
                    out[nz] = np.linalg.solve(At[nz], rhs)
                else:
                    out[...] = np.linalg.solve(At, rhs[0])
        return make(out)
    singular = np.abs(det._data) < 100 * np.finfo(A._data.dtype).eps
    if not singular.any():
        return _det_nonsingular(A, d)
    if singular.all() or _ndim(A) == 2:
        return _det_singular(A, grad)
    ks = tuple(np.nonzero(singular))      # batch positions of the singular matrices
    kn = tuple(np.nonzero(~singular))
    cdef Tensor out_t = zeros(shape, dtype_of(A._data))
    OPS._setitem(out_t, ks, _det_singular(OPS._getitem(A, ks), OPS._getitem(grad, ks)))
    OPS._setitem(out_t, kn, _det_nonsingular(OPS._getitem(A, kn), OPS._getitem(d, kn)))
    return out_t


cdef Tensor _det_nonsingular(Tensor A, Tensor d):
    cdef Py_ssize_t n = shape_of(A._data)[-1]
    cdef Tensor eye = make(np.eye(n, dtype=A._data.dtype))
    return op_linalg_solve(_mT(A), OPS.mul(OPS.unsqueeze(OPS.unsqueeze(d, -1), -1), eye), True)


cdef Tensor _det_singular(Tensor A, Tensor grad):
    """U diag(D) Vh, D_i = grad * det(U) det(Vh) * (product of the other singular
    values): the cofactor matrix, well defined at singular A."""
    U, S, Vh = op__linalg_svd(A, False, True)
    cdef Tensor alpha = OPS.mul(op_linalg_det(<Tensor>U), op_linalg_det(<Tensor>Vh))
    cdef Py_ssize_t k = shape_of((<Tensor>S)._data)[-1]
    cdef Tensor others = OPS.prod(
        OPS.where(make(np.eye(k, dtype=bool)), 1, OPS.unsqueeze(<Tensor>S, -2)), -1, False, None)
    cdef Tensor D = OPS.mul(OPS.unsqueeze(OPS.mul(grad, alpha), -1), others)
    return op_matmul(OPS.mul(<Tensor>U, OPS.unsqueeze(D, -2)), <Tensor>Vh)


cdef object _solve_values(cnp.ndarray A, object B, bint left):
    """X with A X = B (left) or X A = B, B a (batch of) matrix."""
    with quiet():
        if left:
            return np.linalg.solve(A, B)
        return np.swapaxes(np.linalg.solve(np.swapaxes(A, -1, -2), np.swapaxes(B, -1, -2)),
                           -1, -2)


cdef bint _solve_is_vector_rhs(tuple sa, tuple sb):
    """PyTorch's linalg_solve_is_vector_rhs: B is a (batch of) vector."""
    return len(sb) == 1 or (len(sa) - 1 == len(sb) and sb == sa[:-1])


cdef Tensor op_linalg_solve(Tensor A, Tensor B, bint left):
    cdef str fname = "linalg.solve"
    cdef dtype da = dtype_of(A._data), db = dtype_of(B._data)
    _check_float_input(da, fname)
    if da is not db:
        raise RuntimeError(f"{fname}: Expected A and B to have the same dtype, but found A of "
                           f"type {da.scalar_name} and B of type {db.scalar_name} instead")
    cdef tuple sa = shape_of(A._data), sb = shape_of(B._data)
    cdef bint vector = _solve_is_vector_rhs(sa, sb)
    _check_square(A, fname)
    _check_lu_precision(A, fname)
    Ba = B._data[..., None] if vector else B._data
    cdef tuple sbm = shape_of(Ba)
    if len(sbm) < 2:
        raise RuntimeError(f"{fname}: The input tensor B must have at least 2 dimensions.")
    if (sa[-2] != sbm[-2]) if left else (sa[-1] != sbm[-1]):
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({sa[-2]}x{sa[-1]} and {sbm[-2]}x{sbm[-1]})")
    if not left and vector:
        raise RuntimeError(
            f"{fname}: Vector broadcasting of the left hand side is not supported for left=False. "
            "In this case linalg.solve is equivalent to B / A.squeeze(-1)")
    batch = broadcast_shapes(sbm[:-2], sa[:-2])
    cdef cnp.ndarray a = A._data
    try:
        out = _solve_values(a, Ba, left)
    except np.linalg.LinAlgError:
        fixed = _without_nan_matrices(a)
        try:
            if fixed is None:
                raise np.linalg.LinAlgError()
            a = fixed[0]
            out = _solve_values(a, Ba, left)
            out[np.broadcast_to(fixed[1], batch)] = np.nan
        except np.linalg.LinAlgError:
            b, _ = _singular_batch(a, batch)
            prefix = f"(Batch element {b}): " if len(batch) else ""
            raise _LinAlgError(f"autograd_core.linalg.solve: {prefix}The solver failed because "
                               "the input matrix is singular.") from None
    if vector:
        out = out[..., 0]
    # left: LAPACK's column-major solution (for a batch of vectors, the last batch dim
    # and the vector are its matrix); right: the transpose of one, row-major
    cdef Tensor result = make(_column_major(out) if left else np.ascontiguousarray(out))
    record_LinalgSolveExBackward0(result, A, B, left)
    return result


cdef Tensor _solve_adjoint(Tensor grad, bint vector, Tensor A, bint left):
    """gB = A^{-T} grad (left) or grad A^{-T}, as a matrix (a vector grad unsqueezed)."""
    return op_linalg_solve(_mT(A), OPS.unsqueeze(grad, -1) if vector else grad, left)


cdef Tensor linalg_solve_backward_A(Tensor grad, Tensor X, Tensor A, bint left):
    """The gradient of solve's A: -gB X^T (left) or -X^T gB (PyTorch's
    linalg_solve_backward)."""
    cdef bint vector = _solve_is_vector_rhs(shape_of(A._data), shape_of(X._data))
    cdef Tensor gB = _solve_adjoint(grad, vector, A, left)
    if vector:
        X = OPS.unsqueeze(X, -1)
    if left:
        return OPS.neg(op_matmul(gB, _mT(X)))
    return OPS.neg(op_matmul(_mT(X), gB))


cdef Tensor linalg_solve_backward_B(Tensor grad, Tensor X, Tensor A, bint left):
    """The gradient of solve's B: A^{-T} grad (left) or grad A^{-T}."""
    cdef bint vector = _solve_is_vector_rhs(shape_of(A._data), shape_of(X._data))
    cdef Tensor gB = _solve_adjoint(grad, vector, A, left)
    return OPS.squeeze(gB, -1) if vector else gB


include "_gen_linalg.pxi"
