"""Linear algebra: matrix products (matmul in all its forms, mm, bmm, dot, mv, outer,
addmm, addmv, addr, baddbmm, addbmm, vdot, inner, multi_dot), einsum and tensordot,
trace, diag, tril/triu, vector and matrix norms, inverse, determinant and solve, the
decompositions (Cholesky, LU, QR, symmetric eigendecomposition, SVD, LDL, Householder
products) and the solvers built on them, matrix functions (matrix_exp, matrix_power,
pinv, cond, matrix_rank), distances (cdist, pdist, dist) and cov/corrcoef.

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


cdef inline Tensor _mH(Tensor t):
    """The conjugate transpose (PyTorch's mH): the transpose of a real tensor. The
    derivative helpers take adjoints where a real formula has transposes (Note [Complex
    autograd])."""
    return <Tensor>cj(OPS.transpose(t, -2, -1))


cdef inline Tensor _contiguous(Tensor t):
    """t, or a contiguous copy (PyTorch's contiguous(): a clone when t is not)."""
    if cnp.PyArray_IS_C_CONTIGUOUS(t._data):
        return t
    return OPS.clone(t, _contiguous_format)


cdef cnp.ndarray _column_major(object arr):
    """arr with each matrix (its last two dims) stored column by column: the layout
    LAPACK writes, which PyTorch's inv, solve and svd return (their strides show it)."""
    cdef cnp.ndarray a = as_array(arr)
    if cnp.PyArray_NDIM(a) < 2:
        return a if cnp.PyArray_IS_C_CONTIGUOUS(a) else a.copy()
    # a fresh buffer even when the transposed matrices are C-contiguous already (a
    # size-1 dim): numpy would keep the old strides, PyTorch's are the buffer's
    cdef cnp.ndarray t = np.array(np.swapaxes(a, -1, -2), order="C")
    if cnp.PyArray_SIZE(t) == 0:
        t = dense_empty(t)      # PyTorch's strides for the empty buffer, then swapped
    return np.swapaxes(t, -1, -2)


cdef object _mats(object arr, int tail):
    """arr as one batch dim of its last `tail` dims: reshape((-1,) + tail) cannot infer
    the batch when a matrix dim is 0, and PyTorch answers empty matrices."""
    cdef tuple s = shape_of(as_array(arr))
    cdef Py_ssize_t nb = 1, d
    for d in s[:len(s) - tail]:
        nb *= d
    return np.reshape(arr, (nb,) + s[len(s) - tail:])


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

cdef object _product(object fn, cnp.ndarray a, cnp.ndarray b):
    """fn (np.matmul or np.dot) of a and b. bfloat16 operands multiply in float32 and the
    result rounds once, as PyTorch's CPU bfloat16 gemm accumulates in float (numpy's
    loops on ml_dtypes arrays would hand back float32, or accumulate in bfloat16)."""
    if cnp.PyArray_TYPE(a) == bfloat16.typenum or cnp.PyArray_TYPE(b) == bfloat16.typenum:
        return cast_array(as_array(fn(cast_array(a, float32), cast_array(b, float32))),
                          bfloat16)
    return fn(a, b)

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
    cdef Tensor result = make(as_array(_product(np.matmul, a, b)))
    blas_called(sa[0] * sa[1] * sb[1])      # Note [Sharing the cores with BLAS]
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
    cdef Tensor result
    if sa[0] * sa[1] * sb[2] == 0 or sa[2] == 0:
        # PyTorch returns before its kernel (and its dtype check): zeros of mat2's dtype
        result = make(np.zeros((sa[0], sa[1], sb[2]), dtype=b.dtype))
        record_BmmBackward0(result, self, mat2)
        if result._grad_fn is not None and cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(b):
            # self's gradient (grad.bmm(mat2^T)) comes out in mat2's dtype: the engine
            # casts it back to self's, as PyTorch's validate_outputs does for every input
            # (einsum of a float64 and a float32 operand over an empty dim comes here)
            set_input_meta(result._grad_fn, ((sa, dtype_of(a)), None))
        return result
    if cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(b):
        raise RuntimeError(f"expected scalar type {dtype_of(a).scalar_name} but found "
                           f"{dtype_of(b).scalar_name}")
    check_not_bool_kernel(dtype_of(self._data), "bmm")
    result = make(as_array(_product(np.matmul, a, b)))
    blas_called(sa[0] * sa[1] * sa[2] * sb[2])      # Note [Sharing the cores with BLAS]
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
    cdef Tensor result = make(as_array(_product(np.dot, a, b)))
    blas_called(n)      # Note [Sharing the cores with BLAS]
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
    cdef Tensor result = make(as_array(_product(np.matmul, m, v)))
    blas_called(sm[0] * sm[1])      # Note [Sharing the cores with BLAS]
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
    if (requires_grad_of(tensor2) if larger else requires_grad_of(tensor1)):
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


# (the products through OPS: PyTorch's profile shows them inside aten::matmul,
# Note [Op hook])
cdef Tensor op_matmul(Tensor self, Tensor other):
    cdef Py_ssize_t na = _ndim(self), nb = _ndim(other)
    if na == 0 or nb == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {na}D and {nb}D")
    if na == 1 and nb == 1:
        return OPS.dot(self, other)
    if na == 2 and nb == 1:
        return OPS.mv(self, other)
    if na == 1 and nb == 2:
        return OPS.squeeze_(OPS.mm(OPS.unsqueeze(self, 0), other), 0)
    if na == 2 and nb == 2:
        return OPS.mm(self, other)
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
        output = OPS._unsafe_view(OPS.mm(t1_folded, t2), output_shape)
        return _contiguous(_mT(output)) if transpose else output
    return OPS._unsafe_view(OPS.mv(t1_folded, t2), output_shape)


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
        if batch1[0] == 1 and requires_grad_of(tensor1):
            return OPS.matmul(OPS.squeeze(tensor1, 0), tensor2)
        if batch2[0] == 1 and requires_grad_of(tensor2):
            return OPS.matmul(tensor1, OPS.squeeze(tensor2, 0))
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
        return OPS._unsafe_view(OPS.squeeze(OPS.bmm(t1_expanded, t2_expanded), -1), output_shape)
    return OPS._unsafe_view(OPS.bmm(t1_expanded, t2_expanded), output_shape)


# ---------------------------------------------------------------- mm / addmm gradients

cdef inline bint column_major(tuple shape, tuple strides):
    return strides[0] == 1 and strides[1] == shape[0]


cdef object mm_mat1_backward(Tensor grad, Tensor mat2, tuple mat1_shape, tuple mat1_strides,
                             object alpha):
    """PyTorch's mm_mat1_backward: for a column-major mat1 (a transposed view, as F.linear
    makes) the product is formed transposed, so the gradient that reaches mat1's base
    through the transpose is row-major, like the base."""
    cdef Tensor r
    if column_major(mat1_shape, mat1_strides):
        r = OPS.t(OPS.mm(mat2, OPS.t(grad)))
    else:
        r = OPS.mm(grad, OPS.t(mat2))
    return r if alpha == 1 else OPS.mul(r, alpha)


cdef object mm_mat2_backward(Tensor grad, Tensor mat1, tuple mat2_shape, tuple mat2_strides,
                             object alpha):
    """PyTorch's mm_mat2_backward (see mm_mat1_backward): nn.Linear's weight enters as
    weight.t(), whose gradient is then computed as (grad.t() @ mat1).t()."""
    cdef Tensor r
    if column_major(mat2_shape, mat2_strides):
        r = OPS.t(OPS.mm(OPS.t(grad), mat1))
    else:
        r = OPS.mm(OPS.t(mat1), grad)
    return r if alpha == 1 else OPS.mul(r, alpha)


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
    cdef Tensor result
    if d1 is bfloat16:
        # alpha * mat1 @ mat2 + beta * self in float, rounded once (PyTorch's CPU
        # bfloat16 gemm): computed by the float32 path below, then rounded
        result = op_addmm(make(cast_array(inp, float32)), make(cast_array(m1, float32)),
                          make(cast_array(m2, float32)), beta, alpha)
        result = make(cast_array(result._data, bfloat16))
        record_AddmmBackward0(result, self, mat1, mat2, beta, alpha)
        return result
    with quiet():
        mm = np.matmul(m1, m2)
        blas_called(s1[0] * s1[1] * s2[1])      # Note [Sharing the cores with BLAS]
        if is_float_array(mm) and cnp.PyArray_TYPE(mm) == cnp.PyArray_TYPE(m2) \
                and shape_of(mm) == out_shape and type(alpha) in (int, float) \
                and type(beta) in (int, float):
            # the product is a fresh array of the result's shape and dtype: scale and add
            # into it (no temporaries, no copy)
            if alpha != 1:
                np.multiply(mm, alpha, out=mm)
            if beta == 1:
                np.add(mm, inp, out=mm)
            elif beta != 0:
                np.add(mm, inp * beta, out=mm)
            result = make(mm)
            record_AddmmBackward0(result, self, mat1, mat2, beta, alpha)
            return result
        if alpha != 1:
            mm = mm * alpha
        if beta == 0:
            out = mm
        elif beta == 1:
            out = mm + inp
        else:
            out = mm + inp * beta
    # a copy: broadcast_to's view is read-only (the result must be writable)
    result = make(np.array(np.broadcast_to(out, out_shape), dtype=d2.np_dtype))
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
    # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi): the operands, given
    # as varargs or as one list
    if len(args) >= 2 and (has_torch_function_list(args[1:]) or has_torch_function_list(args[1])):
        return handle_torch_function(_py_einsum, args, {})
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
    check_complex_args("einsum", (list(operands),))  # Note [Dtype guard]
    return OPS.einsum(eq, list(operands))


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
    if out is not None:   # Note [out= arguments]
        return with_out("tensordot", out, op_tensordot(a, b, dims, None), None,
                        OUT_EXACT | OUT_GRAD_COPY)
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
    cdef dtype od = d if d.category >= CAT_FLOAT else int64
    cdef Tensor result = make(as_array(np.trace(self._data, dtype=od.np_dtype)))
    record_TraceBackward0(result, self)
    return result


cdef Tensor trace_backward(Tensor grad, tuple sizes):
    """grad on the main diagonal of a matrix of the input's sizes, zeros elsewhere."""
    return OPS.where(make(np.eye(sizes[0], sizes[1], dtype=bool)), grad, 0)


cdef Tensor op_diag(Tensor self, object diagonal):
    cdef Py_ssize_t nd = _ndim(self)
    if nd == 1:
        return OPS.diag_embed(self, diagonal, 0, 1)
    if nd == 2:
        return OPS.diagonal_copy(self, diagonal, 0, 1)
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
    # (complex input reaches only the ops the complex guard lets through)
    if d.category != CAT_FLOAT and d.category != CAT_COMPLEX:
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. "
                           f"Got {d.scalar_name}")


cdef Tensor op_linalg_vector_norm(Tensor self, object ord, object dim, bint keepdim,
                                  object dtype_arg):
    cdef str fname = "linalg.vector_norm"
    cdef dtype d = dtype_of(self._data)
    _check_float_input(d, fname)
    cdef dtype od = _norm_dtype(dtype_arg, d, fname)
    cdef double p = float(ord)
    cdef cnp.ndarray x = opmath(cast_array(self._data, od))   # (Note [bfloat16 compute])
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
    # (numpy's reduction keeps the input's layout; PyTorch's result is contiguous)
    # (the norm of complex values is real)
    cdef Tensor result = make(as_contiguous(cast_array(
        as_array(out), real_of(od) if od.category == CAT_COMPLEX else od)))
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
        # (filled in place, as PyTorch's: the quotient keeps self's layout, which the
        # gradient then has, so a transposed leaf's comes back in its own layout; the
        # out-of-place masked_fill would make it contiguous)
        return OPS.mul(grad, OPS.masked_fill_(OPS.div(self, norm, None),
                                              make(np.asarray(norm._data == 0)), 0))
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


cdef Tensor linalg_vector_norm_jvp(Tensor self, Tensor self_t, object ord, Tensor norm,
                                   object dim, bint keepdim):
    """PyTorch's norm_jvp: Re(sum(conj(g) t)) over the reduced dims, g the norm's
    gradient for a unit cotangent (PyTorch's cases: sgn(x) for ord 1, x / norm for 2,
    shared among the maxima for inf, zero where the norm is zero); zero for ord 0."""
    g = linalg_vector_norm_backward(make(np.ones(shape_of(norm._data), norm._data.dtype)),
                                    self, ord, norm, dim, keepdim)
    if g is None:
        return zeros(shape_of(norm._data), dtype_of(norm._data))
    cdef Tensor t = OPS.mul(<Tensor>cj(g), self_t)
    if cnp.PyArray_ISCOMPLEX(t._data):
        t = OPS.real(t)
    cdef Py_ssize_t nd = _ndim(self)
    if nd == 0:
        return t
    cdef tuple dims = tuple(range(nd)) if is_all_dims(dim) else \
        wrap_dims((dim,) if isinstance(dim, int) else dim, nd)
    return OPS.sum(t, dims, keepdim, None)


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
    if not (compute_uv or (recording() and requires_grad_of(A))
            or (fw_active() and fw_grad_of(A) is not None)):  # (Note [Forward AD])
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
    return OPS.sub(t, _mH(t), 1)


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
        UhgU = _skew(op_matmul(_mH(U), gU))
    if gVh is not None:
        VhgV = _skew(op_matmul(Vh, _mH(gVh)))
    cdef bint is_complex = cnp.PyArray_ISCOMPLEX(U._data)
    imdiag_UhgU = None
    if is_complex:
        # a loss must not depend on the phase of a pair of singular vectors: then the
        # imaginary diagonals of U^H gU and V^H gV cancel (PyTorch's check, tolerances)
        zero_s = np.zeros(shape_of(S._data), dtype=S._data.dtype)
        imdiag_UhgU = OPS.imag(OPS.diagonal(<Tensor>UhgU, 0, -2, -1)) \
            if UhgU is not None else None
        im_u = (<Tensor>imdiag_UhgU)._data if imdiag_UhgU is not None else zero_s
        im_v = OPS.imag(OPS.diagonal(<Tensor>VhgV, 0, -2, -1))._data \
            if VhgV is not None else zero_s
        if not np.allclose(im_u, -im_v, rtol=1e-2, atol=1e-2):
            raise RuntimeError(
                "svd_backward: The singular vectors in the complex case are specified up to "
                "multiplication by e^{i phi}. The specified loss function depends on this "
                "phase term, making it ill-defined.")
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
    if imdiag_UhgU is not None:
        # the imaginary diagonal U^H gU leaves: i Im(U^H gU)_kk / S_k
        gA = OPS.add(gA, _diag_embed_last(OPS.mul(
            OPS.div(<Tensor>imdiag_UhgU, OPS.mul(S, 2), None), 1j)), 1)
    if m > n and gU is not None:
        gA = op_matmul(U, gA)
        gUSinv = OPS.div(gU, OPS.unsqueeze(S, -2), None)
        gA = OPS.sub(OPS.add(gA, gUSinv, 1), op_matmul(U, op_matmul(_mH(U), gUSinv)), 1)
        gA = op_matmul(gA, Vh)
    elif m < n and gVh is not None:
        gA = op_matmul(gA, Vh)
        SinvgVh = OPS.div(gVh, OPS.unsqueeze(S, -1), None)
        gA = OPS.sub(OPS.add(gA, SinvgVh, 1), op_matmul(op_matmul(SinvgVh, _mH(Vh)), Vh), 1)
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
    mats = _mats(np.broadcast_to(A, tuple(batch) + s[-2:]), 2)
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
    # (complex: grad * conj(det) * A^{-H}, the conjugate Wirtinger derivative)
    cdef Tensor d = OPS.mul(grad, cj(det))
    if not grad_enabled() and not fw_active():
        dd = np.broadcast_to(d._data, shape[:-2])
        out = np.zeros(shape, dtype=A._data.dtype)
        nz = dd != 0
        if nz.any():
            At = np.conj(np.swapaxes(A._data, -1, -2))
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
    return op_linalg_solve(_mH(A), OPS.mul(OPS.unsqueeze(OPS.unsqueeze(d, -1), -1), eye), True)


cdef Tensor _det_singular(Tensor A, Tensor grad):
    """U diag(D) Vh, D_i = grad * det(U) det(Vh) * (product of the other singular
    values): the cofactor matrix, well defined at singular A."""
    U, S, Vh = op__linalg_svd(A, False, True)
    cdef Tensor alpha = <Tensor>cj(OPS.mul(op_linalg_det(<Tensor>U), op_linalg_det(<Tensor>Vh)))
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


cdef Tensor _solve_checked(Tensor A, Tensor B, bint left):
    """linalg.solve's checks and values (no history); _LinAlgError for a singular A."""
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
    return make(_column_major(out) if left else np.ascontiguousarray(out))


cdef Tensor op_linalg_solve(Tensor A, Tensor B, bint left):
    return <Tensor>op_linalg_solve_ex(A, B, left, True)[0]


cdef Tensor _solve_adjoint(Tensor grad, bint vector, Tensor A, bint left):
    """gB = A^{-T} grad (left) or grad A^{-T}, as a matrix (a vector grad unsqueezed)."""
    return op_linalg_solve(_mH(A), OPS.unsqueeze(grad, -1) if vector else grad, left)


cdef Tensor linalg_solve_backward_A(Tensor grad, Tensor X, Tensor A, bint left):
    """The gradient of solve's A: -gB X^T (left) or -X^T gB (PyTorch's
    linalg_solve_backward)."""
    cdef bint vector = _solve_is_vector_rhs(shape_of(A._data), shape_of(X._data))
    cdef Tensor gB = _solve_adjoint(grad, vector, A, left)
    if vector:
        X = OPS.unsqueeze(X, -1)
    if left:
        return OPS.neg(op_matmul(gB, _mH(X)))
    return OPS.neg(op_matmul(_mH(X), gB))


cdef Tensor linalg_solve_backward_B(Tensor grad, Tensor X, Tensor A, bint left):
    """The gradient of solve's B: A^{-T} grad (left) or grad A^{-T}."""
    cdef bint vector = _solve_is_vector_rhs(shape_of(A._data), shape_of(X._data))
    cdef Tensor gB = _solve_adjoint(grad, vector, A, left)
    return OPS.squeeze(gB, -1) if vector else gB


# ================================================================ decompositions
# PyTorch's linalg decompositions and solvers. The values come from numpy's LAPACK
# (the same routines PyTorch calls: potrf, syevd, gesdd, geqrf/orgqr) or, where numpy
# has no routine (getrf, trsm, sytrf/sytrs, orgqr on given reflectors, the matrix
# exponential), from numpy code that follows LAPACK's algorithm. The derivative
# helpers are PyTorch's FunctionsManual ones, written in the library's own ops so
# that higher orders need no second copy.

cdef inline void _no_history(Tensor t) noexcept:
    """An output PyTorch marks non-differentiable although it is floating point."""
    keep_counter(t)  # Note [Counters made by the node]
    t._grad_fn = None
    t._requires_grad = False


cdef object sum_to_shape(object grad, tuple shape):
    """A gradient summed over the batch dims its input was broadcast along (None
    stays None)."""
    if grad is None or shape_of((<Tensor>grad)._data) == shape:
        return grad
    return OPS.sum_to(<Tensor>grad, shape)


cdef Tensor _int_tensor(object values, dtype d):
    return make(np.array(values, dtype=d.np_dtype))


cdef void _check_matrix(Tensor A, str fname, bint square) except *:
    if _ndim(A) < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    cdef tuple s = shape_of(A._data)
    if square and s[-1] != s[-2]:
        raise RuntimeError(f"{fname}: A must be batches of square matrices, but they are "
                           f"{s[-2]} by {s[-1]} matrices")


cdef void _check_linalg_input(Tensor A, str fname, bint square) except *:
    _check_matrix(A, fname, square)
    _check_float_input(dtype_of(A._data), fname)


cdef Tensor _eye_like(Tensor A, Py_ssize_t n):
    return make(np.eye(n, dtype=A._data.dtype))


cdef Tensor _narrow(Tensor t, Py_ssize_t dim, Py_ssize_t start, Py_ssize_t length):
    return OPS.narrow(t, dim, start, length)


cdef object _batch_prefix(tuple batch, Py_ssize_t b):
    return f"(Batch element {b}): " if len(batch) else ""


# ---------------------------------------------------------------- inv_ex, solve_ex

cdef tuple op_linalg_inv_ex(Tensor A, bint check_errors):
    _check_square(A, "linalg.inv_ex")
    _check_low_precision(A, "linalg.inv_ex")
    cdef cnp.ndarray a = A._data
    cdef tuple s = shape_of(a)
    info = np.zeros(s[:-2], dtype=np.int32)
    try:
        with quiet():
            out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        mats = _mats(a, 2)
        outs = np.empty_like(mats)
        flat = info.reshape(-1)
        for i in range(mats.shape[0]):     # the singular path only
            if np.isnan(mats[i]).any():
                outs[i] = np.nan
                continue
            try:
                with quiet():
                    outs[i] = np.linalg.inv(mats[i])
            except np.linalg.LinAlgError:
                flat[i] = _first_zero_pivot(mats[i]) or s[-1]
                outs[i] = np.nan     # LAPACK's getri leaves no usable values either
                if check_errors:
                    raise _LinAlgError(
                        f"linalg.inv_ex: {_batch_prefix(s[:-2], i)}The diagonal element "
                        f"{flat[i]} is zero, the inversion could not be completed because "
                        "the input matrix is singular.") from None
        out = outs.reshape(s)
    cdef Tensor inverse = make(_column_major(out))
    cdef Tensor info_t = _int_tensor(info, int32)
    record_LinalgInvExBackward0(inverse, info_t, A, check_errors)
    return (inverse, info_t)


cdef Tensor op_linalg_inv(Tensor A):
    _check_square(A, "linalg.inv")
    _check_low_precision(A, "linalg.inv")
    cdef tuple r = op_linalg_inv_ex(A, False)
    info = (<Tensor>r[1])._data
    if (info > 0).any():
        s = shape_of(A._data)
        b = int(np.argmax(info.reshape(-1) > 0))
        raise _LinAlgError(f"linalg.inv: {_batch_prefix(s[:-2], b)}The diagonal element "
                           f"{int(info.reshape(-1)[b])} is zero, the inversion could not be "
                           "completed because the input matrix is singular.")
    return <Tensor>r[0]


cdef tuple op_linalg_solve_ex(Tensor A, Tensor B, bint left, bint check_errors):
    cdef Tensor X
    cdef tuple sa = shape_of(A._data)
    try:
        X = _solve_checked(A, B, left)
        info = np.zeros(broadcast_shapes(sa[:-2], _solve_batch_of_B(sa, shape_of(B._data))),
                        dtype=np.int32)
    except _LinAlgError:
        if check_errors:
            raise
        X, info = _solve_singular(A, B, left)
    cdef Tensor info_t = _int_tensor(info, int32)
    record_LinalgSolveExBackward0(X, info_t, A, B, left, check_errors)
    return (X, info_t)


cdef tuple _solve_batch_of_B(tuple sa, tuple sb):
    if _solve_is_vector_rhs(sa, sb):
        return sb[:-1]
    return sb[:-2]


cdef tuple _solve_singular(Tensor A, Tensor B, bint left):
    """solve_ex's values when some matrix is singular: NaN there (LAPACK's are
    inf/NaN too), and info the 1-based index of the first zero pivot."""
    cdef tuple sa = shape_of(A._data), sb = shape_of(B._data)
    cdef bint vector = _solve_is_vector_rhs(sa, sb)
    Ba = B._data[..., None] if vector else B._data
    batch = broadcast_shapes(sa[:-2], shape_of(Ba)[:-2])
    a = _mats(np.broadcast_to(A._data, batch + sa[-2:]), 2)
    b = _mats(np.broadcast_to(Ba, batch + shape_of(Ba)[-2:]), 2)
    outs = []
    info = np.zeros(a.shape[0], dtype=np.int32)
    for i in range(a.shape[0]):
        try:
            outs.append(_solve_values(a[i], b[i], left))
        except np.linalg.LinAlgError:
            info[i] = _first_zero_pivot(a[i]) or sa[-1]
            outs.append(np.full(b[i].shape if left else b[i].shape, np.nan, dtype=a.dtype))
    out = np.stack(outs).reshape(batch + outs[0].shape) if outs else \
        np.zeros(batch + shape_of(Ba)[-2:], dtype=A._data.dtype)
    if vector:
        out = out[..., 0]
    return make(_column_major(out) if left else np.ascontiguousarray(out)), info.reshape(batch)


# ---------------------------------------------------------------- cholesky

cdef tuple _cholesky_values(cnp.ndarray a, bint upper):
    """(L or U, info): numpy's potrf reads the lower triangle; the upper factor of the
    upper triangle is the transposed lower factor of the transpose."""
    src = np.swapaxes(a, -1, -2) if upper else a
    given = src     # (what potrf leaves where it stops: the given entries)
    if np.iscomplexobj(src):
        # the Hermitian matrix of the lower triangle, as potrf reads it (the diagonal's
        # real part): numpy's cholesky does not promise to read one triangle only
        low = np.tril(src, -1)
        src = low + np.conj(np.swapaxes(low, -1, -2)) + \
            np.real(np.diagonal(src, 0, -2, -1))[..., None] * np.eye(src.shape[-1])
    cdef tuple s = shape_of(a)
    info = np.zeros(s[:-2], dtype=np.int32)
    try:
        with quiet():
            L = np.linalg.cholesky(src)
        if np.isnan(L).any():
            raise np.linalg.LinAlgError()
    except np.linalg.LinAlgError:
        mats = _mats(np.ascontiguousarray(given), 2)
        out = np.empty_like(mats)
        flat = info.reshape(-1)
        for i in range(mats.shape[0]):
            out[i], flat[i] = _cholesky_partial(mats[i])
        L = out.reshape(s)
    if upper:
        L = np.swapaxes(L, -1, -2)
    return L, info


cdef tuple _cholesky_partial(cnp.ndarray m):
    """potrf column by column: (the factor, or what LAPACK leaves when it stops, and info)."""
    a = np.tril(np.array(m, dtype=m.dtype))
    cdef Py_ssize_t n = a.shape[0], j
    if np.iscomplexobj(a):
        # zpotf2: the pivot is real (a_jj's real part less the row's squared moduli);
        # where it is not positive LAPACK leaves it in place and stops
        for j in range(n):
            d = a[j, j].real - np.sum(np.abs(a[j, :j]) ** 2)
            if not d > 0:
                a[j, j] = d
                return a, j + 1
            a[j, j] = np.sqrt(d)
            if j + 1 < n:
                a[j + 1:, j] = (a[j + 1:, j] - a[j + 1:, :j] @ np.conj(a[j, :j])) / a[j, j]
        return a, 0
    for j in range(n):
        d = a[j, j] - np.dot(a[j, :j], a[j, :j])
        if not d > 0:
            return a, j + 1
        a[j, j] = np.sqrt(d)
        if j + 1 < n:
            a[j + 1:, j] = (a[j + 1:, j] - a[j + 1:, :j] @ a[j, :j]) / a[j, j]
    return a, 0


cdef tuple op_linalg_cholesky_ex(Tensor A, bint upper, bint check_errors):
    _check_linalg_input(A, "linalg.cholesky_ex" if check_errors else "linalg.cholesky", True)
    _check_low_precision(A, "linalg.cholesky")
    L, info = _cholesky_values(A._data, upper)
    if check_errors:
        _raise_cholesky(info, "linalg.cholesky_ex", shape_of(A._data))
    cdef Tensor Lt = make(_column_major(as_array(L).astype(A._data.dtype, copy=False)))
    cdef Tensor info_t = _int_tensor(info, int32)
    record_LinalgCholeskyExBackward0(Lt, info_t, A, upper, check_errors)
    return (Lt, info_t)


cdef void _raise_cholesky(object info, str fname, tuple s) except *:
    flat = np.asarray(info).reshape(-1)
    if (flat > 0).any():
        b = int(np.argmax(flat > 0))
        raise _LinAlgError(
            f"{fname}: {_batch_prefix(s[:-2], b)}The factorization could not be completed "
            "because the input is not positive-definite (the leading minor of order "
            f"{int(flat[b])} is not positive-definite).")


cdef Tensor op_linalg_cholesky(Tensor A, bint upper):
    _check_linalg_input(A, "linalg.cholesky", True)
    cdef tuple r = op_linalg_cholesky_ex(A, upper, False)
    _raise_cholesky((<Tensor>r[1])._data, "linalg.cholesky", shape_of(A._data))
    return <Tensor>r[0]


cdef Tensor op_cholesky(Tensor self, bint upper):
    warnings.warn(
        "autograd_core.cholesky is deprecated in favor of autograd_core.linalg.cholesky and will be removed "
        "in a future PyTorch release.", UserWarning, stacklevel=2)
    _check_linalg_input(self, "cholesky", True)
    L, info = _cholesky_values(self._data, upper)
    _raise_cholesky(info, "cholesky", shape_of(self._data))
    cdef Tensor result = make(_column_major(as_array(L).astype(self._data.dtype, copy=False)))
    record_CholeskyBackward0(result, self, upper)
    return result


cdef Tensor cholesky_backward(Tensor gL, bint upper, Tensor L):
    """PyTorch's cholesky_backward (Murray 2016): L^{-T} Phi(L^T gL) L^{-1}."""
    if upper:
        L = _mH(L)
        gL = _mH(gL)
    cdef Tensor gA = OPS.tril(op_matmul(_mH(L), gL), 0)
    gA = OPS.mul(OPS.add(gA, _mH(OPS.tril(gA, -1)), 1), 0.5)
    gA = op_linalg_solve_triangular(_mH(L), gA, True, True, False)
    return op_linalg_solve_triangular(L, gA, False, False, False)


cdef Tensor op_cholesky_inverse(Tensor self, bint upper):
    _check_linalg_input(self, "cholesky_inverse", True)
    a = np.triu(self._data) if upper else np.tril(self._data)
    with quiet():
        factor_inv = _tri_solve_values(a, np.broadcast_to(np.eye(shape_of(a)[-1], dtype=a.dtype),
                                                         shape_of(a)), upper, True, False)
        # (L L^H)^{-1} = L^{-H} L^{-1}; (U^H U)^{-1} = U^{-1} U^{-H}
        last = None
        if np.iscomplexobj(factor_inv) and shape_of(a)[-1]:
            # LAPACK's potri (zlauu2) reads the inverse factor's diagonal as real (a
            # factor's is) and scales the last row by it: for a factor with a complex
            # diagonal PyTorch's result is that, its last diagonal entry Re(d) d
            d = factor_inv[..., -1, -1]
            last = d.real * d
            factor_inv = factor_inv.copy()
            idx = np.arange(shape_of(a)[-1])
            factor_inv[..., idx, idx] = factor_inv[..., idx, idx].real
        if upper:
            out = factor_inv @ np.conj(np.swapaxes(factor_inv, -1, -2))
        else:
            out = np.conj(np.swapaxes(factor_inv, -1, -2)) @ factor_inv
        if last is not None:
            out[..., -1, -1] = last
    cdef Tensor result = make(_column_major(out))
    record_CholeskyInverseBackward0(result, self, upper)
    return result


cdef Tensor cholesky_inverse_backward(Tensor grad, Tensor L, bint upper, Tensor inverse):
    cdef Tensor common = op_matmul(inverse, op_matmul(OPS.add(grad, _mH(grad), 1), inverse))
    if upper:
        return OPS.neg(op_matmul(L, common))
    return OPS.neg(op_matmul(common, L))


cdef Tensor op_cholesky_solve(Tensor self, Tensor input2, bint upper):
    _check_linalg_input(input2, "cholesky_solve", True)
    if _ndim(self) < 2:
        raise RuntimeError("b should have at least 2 dimensions, but has "
                           f"{_ndim(self)} dimensions instead")
    if dtype_of(self._data) is not dtype_of(input2._data):
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{dtype_of(self._data).scalar_name} and A of type "
                           f"{dtype_of(input2._data).scalar_name} instead.")
    cdef tuple sb = shape_of(self._data), sa = shape_of(input2._data)
    if sa[-1] != sb[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{sa[-1]} by {sa[-1]} but each b matrix is {sb[-2]} by {sb[-1]}")
    a = np.triu(input2._data) if upper else np.tril(input2._data)
    batch = broadcast_shapes(sb[:-2], sa[:-2])
    a = np.broadcast_to(a, batch + sa[-2:])
    b = np.broadcast_to(self._data, batch + sb[-2:])
    with quiet():
        if upper:   # U^H U X = B
            y = _tri_solve_values(np.conj(np.swapaxes(a, -1, -2)), b, False, True, False)
            out = _tri_solve_values(a, y, True, True, False)
        else:       # L L^H X = B
            y = _tri_solve_values(a, b, False, True, False)
            out = _tri_solve_values(np.conj(np.swapaxes(a, -1, -2)), y, True, True, False)
    cdef Tensor result = make(_column_major(out))
    record_CholeskySolveBackward0(result, self, input2, upper)
    return result


cdef Tensor cholesky_solve_backward_self(Tensor grad, Tensor input2, bint upper):
    return op_cholesky_solve(grad, input2, upper)


cdef Tensor cholesky_solve_backward_L(Tensor grad, Tensor input2, Tensor result, bint upper):
    cdef Tensor gB = op_cholesky_solve(grad, input2, upper)
    cdef Tensor common = op_matmul(gB, _mH(result))
    common = OPS.add(common, _mH(common), 1)
    if upper:
        return OPS.neg(op_matmul(input2, common))
    return OPS.neg(op_matmul(common, input2))


# ---------------------------------------------------------------- triangular solves

cdef object _tri_solve_values(object A, object B, bint upper, bint left, bint unit):
    """X with A X = B (left) or X A = B, A triangular (only its triangle read), by
    substitution as LAPACK's trsm: a zero pivot gives inf/NaN, not an error."""
    if not left:
        return np.swapaxes(_tri_solve_values(np.swapaxes(A, -1, -2), np.swapaxes(B, -1, -2),
                                             not upper, True, unit), -1, -2)
    a = np.asarray(A)
    b = np.asarray(B)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]), dtype=np.result_type(a, b))
    cdef Py_ssize_t n = a.shape[-1], i
    order = range(n - 1, -1, -1) if upper else range(n)
    with quiet():
        for i in order:
            if upper:
                if i + 1 < n:
                    x[..., i, :] -= np.einsum("...j,...jk->...k", a[..., i, i + 1:], x[..., i + 1:, :])
            elif i > 0:
                x[..., i, :] -= np.einsum("...j,...jk->...k", a[..., i, :i], x[..., :i, :])
            if not unit:
                x[..., i, :] /= a[..., i, i][..., None]
    return x


cdef Tensor op_linalg_solve_triangular(Tensor A, Tensor B, bint upper, bint left,
                                      bint unitriangular):
    cdef str fname = "linalg.solve_triangular"
    _check_float_input(dtype_of(A._data), fname)
    if dtype_of(A._data) is not dtype_of(B._data):
        raise RuntimeError(f"{fname}: Expected A and B to have the same dtype, but found A of "
                           f"type {dtype_of(A._data).scalar_name} and B of type "
                           f"{dtype_of(B._data).scalar_name} instead")
    _check_matrix(A, fname, True)
    if _ndim(B) < 2:
        raise RuntimeError(f"{fname}: The input tensor B must have at least 2 dimensions.")
    cdef tuple sa = shape_of(A._data), sb = shape_of(B._data)
    if (sa[-2] != sb[-2]) if left else (sa[-1] != sb[-1]):
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({sa[-2]}x{sa[-1]} and {sb[-2]}x{sb[-1]})")
    broadcast_shapes(sa[:-2], sb[:-2])
    out = _tri_solve_values(A._data, B._data, upper, left, unitriangular)
    cdef Tensor result = make(_column_major(out) if left else np.ascontiguousarray(out))
    record_LinalgSolveTriangularBackward0(result, A, B, upper, left, unitriangular)
    return result


cdef Tensor solve_triangular_backward_B(Tensor grad, Tensor A, bint upper, bint left,
                                        bint unitriangular):
    return op_linalg_solve_triangular(_mH(A), grad, not upper, left, unitriangular)


cdef Tensor solve_triangular_backward_A(Tensor grad, Tensor A, Tensor X, bint upper,
                                        bint left, bint unitriangular):
    cdef Tensor gB = op_linalg_solve_triangular(_mH(A), grad, not upper, left, unitriangular)
    cdef Tensor gA = OPS.neg(op_matmul(gB, _mH(X)) if left else op_matmul(_mH(X), gB))
    return OPS.triu(gA, 1 if unitriangular else 0) if upper else \
        OPS.tril(gA, -1 if unitriangular else 0)


cdef tuple op_triangular_solve(Tensor self, Tensor A, bint upper, bint transpose,
                               bint unitriangular):
    warnings.warn("autograd_core.triangular_solve is deprecated in favor of "
                  "autograd_core.linalg.solve_triangular and will be removed in a future PyTorch "
                  "release.", UserWarning, stacklevel=2)
    if _ndim(self) < 2:
        raise RuntimeError("autograd_core.triangular_solve: The input tensor b must have at least 2 "
                           f"dimensions.")
    _check_linalg_input(A, "autograd_core.triangular_solve", True)
    a = np.swapaxes(A._data, -1, -2) if transpose else A._data
    cdef tuple sa = shape_of(A._data), sb = shape_of(self._data)
    if sa[-1] != sb[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is "
                           f"{sa[-1]} by {sa[-1]} but each b matrix is {sb[-2]} by {sb[-1]}")
    batch = broadcast_shapes(sb[:-2], sa[:-2])
    out = _tri_solve_values(a, self._data, upper != transpose, True, unitriangular)
    cdef Tensor X = make(_column_major(out))
    cdef Tensor M = make(_column_major(np.broadcast_to(A._data, batch + sa[-2:]).copy()))
    record_TriangularSolveBackward0(X, M, self, A, upper, transpose, unitriangular)
    return (X, M)


cdef Tensor _tri_solve_op(Tensor A, Tensor B, bint upper, bint transpose, bint unit):
    """op(A) X = B with op the transpose when asked (differentiable)."""
    if transpose:
        return op_linalg_solve_triangular(_mT(A), B, not upper, True, unit)
    return op_linalg_solve_triangular(A, B, upper, True, unit)


cdef object triangular_solve_backward_B(object gX, Tensor A, bint upper, bint transpose,
                                        bint unitriangular):
    if gX is None:
        return None
    # (complex: op(A)^H, the adjoint of the solve, as PyTorch's a.conj() with the
    # transpose flag flipped)
    return _tri_solve_op(<Tensor>cj(A), <Tensor>gX, upper, not transpose, unitriangular)


cdef object triangular_solve_backward_A(object gX, object gM, Tensor A, Tensor X, bint upper,
                                        bint transpose, bint unitriangular):
    gA = None
    cdef Tensor gB
    if gX is not None:
        gB = _tri_solve_op(<Tensor>cj(A), <Tensor>gX, upper, not transpose, unitriangular)
        gA = OPS.neg(op_matmul(<Tensor>cj(X), _mT(gB)) if transpose else op_matmul(gB, _mH(X)))
        gA = OPS.triu(gA, 1 if unitriangular else 0) if upper else \
            OPS.tril(gA, -1 if unitriangular else 0)
    if gM is not None:
        gA = gM if gA is None else OPS.add(<Tensor>gA, <Tensor>gM, 1)
    return gA


# ---------------------------------------------------------------- eigh

cdef str _check_uplo(object UPLO):
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO.upper()


cdef tuple op__linalg_eigh(Tensor A, object UPLO, bint compute_v):
    cdef str uplo = _check_uplo(UPLO)
    with quiet():
        if compute_v:
            w, v = np.linalg.eigh(A._data, uplo)
        else:
            w = np.linalg.eigvalsh(A._data, uplo)
            v = np.empty((0,), dtype=A._data.dtype)
    cdef Tensor L = make(as_array(w)), V = make(_column_major(v))
    if compute_v:
        record_LinalgEighBackward0(L, V, A, UPLO, compute_v)
    return (L, V)


cdef tuple op_linalg_eigh(Tensor A, object UPLO):
    _check_linalg_input(A, "linalg.eigh", True)
    _check_low_precision(A, "linalg.eigh")
    return op__linalg_eigh(A, UPLO, True)


cdef Tensor op_linalg_eigvalsh(Tensor A, object UPLO):
    _check_linalg_input(A, "linalg.eigvalsh", True)
    _check_low_precision(A, "linalg.eigvalsh")
    return op__linalg_eigh(A, UPLO, (recording() and A._requires_grad)
                           or (fw_active() and fw_grad_of(A) is not None))[0]


cdef object linalg_eigh_backward(object gL, object gV, Tensor L, Tensor V):
    """PyTorch's linalg_eig_backward for Hermitian input."""
    if gL is None and gV is None:
        return None
    if gV is None:
        return op_matmul(OPS.mul(V, OPS.unsqueeze(<Tensor>gL, -2)), _mH(V))
    cdef Tensor VhgV = op_matmul(_mH(V), <Tensor>gV)
    if cnp.PyArray_ISCOMPLEX(V._data):
        # the loss must not depend on the eigenvectors' phases (PyTorch's check)
        im = OPS.imag(OPS.diagonal(VhgV, 0, -2, -1))._data
        if not np.allclose(im, np.zeros_like(im), rtol=1e-2, atol=1e-2):
            raise RuntimeError(
                "linalg_eigh_backward: The eigenvectors in the complex case are specified up "
                "to multiplication by e^{i phi}. The specified loss function depends on this "
                "quantity, so it is ill-defined.")
    VhgV = OPS.mul(OPS.sub(VhgV, _mH(VhgV), 1), 0.5)
    cdef Py_ssize_t k = shape_of(L._data)[-1]
    cdef Tensor E = OPS.where(make(np.eye(k, dtype=bool)), make_scalar(1, dtype_of(L._data)),
                              OPS.sub(OPS.unsqueeze(L, -2), OPS.unsqueeze(L, -1), 1))
    cdef Tensor gA = OPS.div(VhgV, E, None)
    if gL is not None:
        gA = OPS.add(gA, _diag_embed_last(<Tensor>gL), 1)
    return op_matmul(V, op_matmul(gA, _mH(V)))


cdef tuple _eig_values(Tensor A, bint vectors):
    """LAPACK's geev through numpy, in the complex dtype PyTorch returns (its eigenvectors
    have unit norm, as LAPACK's)."""
    cdef cnp.ndarray a = A._data
    cdef dtype cd = complex_of(dtype_of(a))
    if not cnp.PyArray_SIZE(a):
        n = shape_of(a)[-1]
        return (np.empty(shape_of(a)[:-1], dtype=cd.np_dtype),
                np.empty(shape_of(a), dtype=cd.np_dtype) if vectors else None)
    if not np.all(np.isfinite(a)):
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    with quiet():
        if vectors:
            w, v = np.linalg.eig(a)
            return (np.ascontiguousarray(w.astype(cd.np_dtype)),
                    _column_major(v.astype(cd.np_dtype)))
        return (np.ascontiguousarray(np.linalg.eigvals(a).astype(cd.np_dtype)), None)


cdef tuple op_linalg_eig(Tensor A):
    _check_linalg_input(A, "linalg.eig", True)
    w, v = _eig_values(A, True)
    cdef Tensor L = make(w), V = make(v)
    record_LinalgEigBackward0(L, V, A)
    return (L, V)


cdef Tensor op_linalg_eigvals(Tensor A):
    _check_linalg_input(A, "linalg.eigvals", True)
    if (recording() and requires_grad_of(A)) or (fw_active() and fw_grad_of(A) is not None):
        # differentiated through eig (PyTorch's composite: LinalgEigBackward0), in
        # forward mode too
        return <Tensor>op_linalg_eig(A)[0]
    return make(_eig_values(A, False)[0])


cdef object linalg_eig_backward(object gL, object gV, Tensor L, Tensor V, dtype a_dtype):
    """PyTorch's linalg_eig_backward (not Hermitian): gA = V^{-H} (diag(gL) + the
    projected V^H gV / conj(L_j - L_i)) V^H; a real A takes its real part
    (handle_r_to_c)."""
    if gL is None and gV is None:
        return None
    cdef Tensor gA = _linalg_eig_backward(gL, gV, L, V)
    return gA if a_dtype.category == CAT_COMPLEX else OPS.real(gA)


cdef Tensor _linalg_eig_backward(object gL, object gV, Tensor L, Tensor V):
    cdef Tensor VH = _mH(V)
    if gV is None:
        return op_linalg_solve(VH, OPS.mul(OPS.unsqueeze(<Tensor>gL, -1), VH), True)
    cdef Tensor VhgV = op_matmul(VH, <Tensor>gV)
    cdef Tensor diag = OPS.diagonal(VhgV, 0, -2, -1)
    if not np.allclose(OPS.imag(diag)._data, 0, rtol=1e-2, atol=1e-2):
        raise RuntimeError(
            "linalg_eig_backward: The eigenvectors in the complex case are specified up to "
            "multiplication by e^{i phi}. The specified loss function depends on this "
            "quantity, so it is ill-defined.")
    # the projection onto the tangent space of unit-norm columns
    VhgV = OPS.sub(VhgV, op_matmul(VH, OPS.mul(V, OPS.unsqueeze(OPS.real(diag), -2))), 1)
    cdef Tensor Lc = <Tensor>cj(L)
    cdef Py_ssize_t k = shape_of(L._data)[-1]
    cdef Tensor E = OPS.where(make(np.eye(k, dtype=bool)), make_scalar(1, dtype_of(L._data)),
                              OPS.sub(OPS.unsqueeze(Lc, -2), OPS.unsqueeze(Lc, -1), 1))
    cdef Tensor gA = OPS.div(VhgV, E, None)
    if gL is not None:
        gA = OPS.add(gA, _diag_embed_last(<Tensor>gL), 1)
    return op_linalg_solve(VH, op_matmul(gA, VH), True)


# ---------------------------------------------------------------- svd

cdef void _check_svd_driver(object driver) except *:
    if driver is not None:
        raise RuntimeError("autograd_core.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")


cdef tuple op_linalg_svd(Tensor A, bint full_matrices, object driver):
    _check_matrix(A, "linalg.svd", False)
    _check_svd_driver(driver)
    return op__linalg_svd(A, full_matrices, True)


cdef Tensor op_linalg_svdvals(Tensor A, object driver):
    _check_matrix(A, "linalg.svdvals", False)
    _check_svd_driver(driver)
    return _svdvals(A)


cdef tuple op_svd(Tensor self, bint some, bint compute_uv):
    _check_matrix(self, "linalg.svd", False)
    cdef tuple s = shape_of(self._data)
    U, S, Vh = op__linalg_svd(self, not some, compute_uv or (recording() and self._requires_grad)
                              or (fw_active() and fw_grad_of(self) is not None))
    if not compute_uv:
        d = self._data.dtype
        return (make(np.zeros(s[:-2] + (s[-2], s[-2]), dtype=d)), S,
                    make(np.zeros(s[:-2] + (s[-1], s[-1]), dtype=d)))
    return (U, S, OPS.transpose(<Tensor>Vh, -2, -1))


cdef object svd_backward_full(object gU, object gS, object gVh, Tensor U, Tensor S, Tensor Vh,
                              bint full_matrices):
    """svd_backward of the reduced factors: full_matrices' extra columns of U and rows of Vh
    get no gradient (PyTorch's _linalg_svd derivative)."""
    cdef Py_ssize_t k = shape_of(S._data)[-1]
    if full_matrices:
        if gU is not None:
            gU = _narrow(<Tensor>gU, -1, 0, k)
        if gVh is not None:
            gVh = _narrow(<Tensor>gVh, -2, 0, k)
        U = _narrow(U, -1, 0, k)
        Vh = _narrow(Vh, -2, 0, k)
    return svd_backward(gU, gS, gVh, U, S, Vh)


# ---------------------------------------------------------------- qr

cdef tuple op_linalg_qr(Tensor A, object mode):
    _check_linalg_input(A, "linalg.qr", False)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    with quiet():
        if mode == "r":
            r = np.linalg.qr(A._data, mode="r")
            q = np.empty((0,), dtype=A._data.dtype)
        else:
            q, r = np.linalg.qr(A._data, mode=mode)
    cdef Tensor Q = make(_column_major(q)), R = make(_column_major(r))
    record_LinalgQrBackward0(Q, R, A, mode)
    return (Q, R)


cdef tuple op_qr(Tensor self, bint some):
    warnings.warn("autograd_core.qr is deprecated in favor of autograd_core.linalg.qr and will be removed in a "
                  "future PyTorch release.", UserWarning, stacklevel=2)
    cdef tuple r = op_linalg_qr(self, "reduced" if some else "complete")
    return r


cdef object linalg_qr_backward(object gQ, object gR, Tensor Q, Tensor R, object mode):
    """PyTorch's linalg_qr_backward (real case)."""
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                           "when mode='r'. Please use linalg.qr(A, mode='reduced') if you are "
                           "going to differentiate through linalg.qr.")
    cdef Py_ssize_t m = shape_of(Q._data)[-2], n = shape_of(R._data)[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                           "and nrows > ncols.")
    if gQ is None and gR is None:
        return None
    cdef Tensor gA
    if gQ is not None and gR is not None:
        gA = OPS.sub(op_matmul(<Tensor>gR, _mH(R)), op_matmul(_mH(Q), <Tensor>gQ), 1)
    elif gQ is not None:
        gA = OPS.neg(op_matmul(_mH(Q), <Tensor>gQ))
    else:
        gA = op_matmul(<Tensor>gR, _mH(R))
    cdef Tensor M
    if m >= n:
        # syminvadj(triu(gA)): the symmetric matrix of gA's upper triangle
        M = OPS.triu(gA, 0)
        if cnp.PyArray_ISCOMPLEX(gA._data):
            # M + M^H with the diagonal's real part halved: Re(M_kk) on the diagonal
            M = OPS.add(OPS.add(OPS.triu(M, 1), _mH(OPS.triu(M, 1)), 1),
                        _diag_embed_last(OPS.real(OPS.diagonal(M, 0, -2, -1))), 1)
        else:
            M = OPS.add(OPS.triu(M, 1), _mH(M), 1)
        gA = op_matmul(Q, M)
        if gQ is not None:
            gA = OPS.add(gA, <Tensor>gQ, 1)
        return op_linalg_solve_triangular(_mH(R), gA, False, False, False)
    M = OPS.tril(OPS.sub(_mH(gA), gA, 1), 0)     # trilImInvAdjSkew(-gA)
    if cnp.PyArray_ISCOMPLEX(gA._data):
        # (the diagonal's imaginary part halved: i Im(-gA_kk))
        M = OPS.sub(M, _diag_embed_last(OPS.mul(OPS.imag(OPS.diagonal(M, 0, -2, -1)), 0.5j)), 1)
    gA = op_matmul(Q, M)
    gA = op_linalg_solve_triangular(_mH(_narrow(R, -1, 0, m)), gA, False, False, False)
    cdef tuple s = shape_of(gA._data)
    gA = OPS.cat([gA, zeros(s[:-1] + (n - m,), dtype_of(gA._data))], -1)
    if gR is not None:
        gA = OPS.add(gA, op_matmul(Q, <Tensor>gR), 1)
    return gA


# ---------------------------------------------------------------- slogdet, logdet

cdef tuple op_linalg_slogdet(Tensor A):
    _check_linalg_input(A, "linalg.slogdet", True)
    _check_lu_precision(A, "linalg.slogdet")
    with quiet():
        sign, logabs = np.linalg.slogdet(A._data)
        nan = np.isnan(A._data).any(axis=(-2, -1))
    if nan.any():
        sign = np.where(nan, np.nan, sign)
        logabs = np.where(nan, np.nan, logabs)
    cdef object d = A._data.dtype
    cdef Tensor S = make(as_array(sign).astype(d, copy=False))
    # (log|det| is real for a complex A too)
    cdef Tensor L = make(as_array(logabs).astype(real_of(dtype_of(A._data)).np_dtype, copy=False))
    record_LinalgSlogdetBackward0(S, L, A)
    return (S, L)


cdef tuple op_slogdet(Tensor self):
    _check_linalg_input(self, "linalg.slogdet", True)
    return op_linalg_slogdet(self)


cdef object slogdet_backward(object g_sign, object g_logabs, Tensor A, Tensor sign):
    """PyTorch's slogdet_backward, real case: the sign is locally constant; the
    gradient of log|det A| is A^{-T}."""
    cdef bint is_complex = cnp.PyArray_ISCOMPLEX(A._data)
    if g_logabs is None and (g_sign is None or not is_complex):
        return None
    cdef Py_ssize_t n = shape_of(A._data)[-1]
    cdef object c = g_logabs
    if is_complex and g_sign is not None:
        # d log det A = tr(A^{-1} dA) = d log|det| + i d arg: the sign's gradient enters
        # through the argument, c = g_logabs - i Im(conj(g_sign) sign)
        phase = OPS.mul(OPS.imag(OPS.mul(cj(<Tensor>g_sign), sign)), -1j)
        c = phase if g_logabs is None else OPS.add(<Tensor>g_logabs, phase, 1)
    cdef Tensor g = OPS.mul(OPS.unsqueeze(OPS.unsqueeze(<Tensor>c, -1), -1),
                            _eye_like(A, n))
    return op_linalg_solve(_mH(A), g, True)


cdef Tensor op_logdet(Tensor self):
    _check_linalg_input(self, "linalg.slogdet", True)
    cdef tuple r = op_linalg_slogdet(self)
    if cnp.PyArray_ISCOMPLEX(self._data):
        return OPS.add(OPS.log(<Tensor>r[0]), <Tensor>r[1], 1)   # log(sign) + log|det|
    return OPS.where(OPS.eq(<Tensor>r[0], -1), np.nan, <Tensor>r[1])


# ---------------------------------------------------------------- matrix_exp

cdef object _expm_values(object a):
    """The matrix exponential (Higham 2005: Pade approximants of degree 3..13 with scaling
    and squaring), batched."""
    a = np.asarray(a)
    cdef tuple s = a.shape
    cdef Py_ssize_t n = s[-1]
    if n == 0:
        return a.copy()
    if n == 1:
        return np.exp(a)
    mats = _mats(a, 2).astype(np.complex128 if np.iscomplexobj(a) else np.float64)
    out = np.empty_like(mats)
    b = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
         129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
         40840800., 960960., 16380., 182., 1.)
    ident = np.eye(n)
    for i in range(mats.shape[0]):
        A = mats[i]
        norm1 = np.abs(A).sum(axis=0).max()
        if not np.isfinite(norm1):
            out[i] = np.nan
            continue
        done = False
        for deg, theta, coef in ((3, 1.495585217958292e-2, (120., 60., 12., 1.)),
                                 (5, 2.539398330063230e-1, (30240., 15120., 3360., 420., 30., 1.)),
                                 (7, 9.504178996162932e-1,
                                  (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.)),
                                 (9, 2.097847961257068e0,
                                  (17643225600., 8821612800., 2075673600., 302702400., 30270240.,
                                   2162160., 110880., 3960., 90., 1.))):
            if norm1 <= theta:
                A2 = A @ A
                P = ident * coef[1]
                Qm = ident * coef[0]
                Ak = ident
                U = ident * coef[1]
                V = ident * coef[0]
                pw = ident
                for j in range(1, deg // 2 + 1):
                    pw = pw @ A2
                    U = U + coef[2 * j + 1] * pw
                    V = V + coef[2 * j] * pw
                U = A @ U
                out[i] = np.linalg.solve(V - U, V + U)
                done = True
                break
        if done:
            continue
        sq = max(0, int(np.ceil(np.log2(norm1 / 5.371920351148152))))
        As = A / (2.0 ** sq)
        A2 = As @ As
        A4 = A2 @ A2
        A6 = A4 @ A2
        U = As @ (A6 @ (b[13] * A6 + b[11] * A4 + b[9] * A2)
                  + b[7] * A6 + b[5] * A4 + b[3] * A2 + b[1] * ident)
        V = (A6 @ (b[12] * A6 + b[10] * A4 + b[8] * A2)
             + b[6] * A6 + b[4] * A4 + b[2] * A2 + b[0] * ident)
        R = np.linalg.solve(V - U, V + U)
        for j in range(sq):
            R = R @ R
        out[i] = R
    return out.reshape(s).astype(a.dtype)


cdef Tensor op_linalg_matrix_exp(Tensor A):
    _check_linalg_input(A, "linalg.matrix_exp", True)
    with quiet():
        out = _expm_values(A._data)
    cdef Tensor result = make(np.ascontiguousarray(out))
    record_LinalgMatrixExpBackward0(result, A)
    return result


cdef Tensor op_matrix_exp(Tensor self):
    return op_linalg_matrix_exp(self)


cdef Tensor linalg_matrix_exp_differential(Tensor A, Tensor grad):
    """PyTorch's (adjoint): the upper-right block of exp([[A^H, G], [0, A^H]])."""
    return _matrix_exp_block(_mH(A), grad)


cdef Tensor _matrix_exp_block(Tensor X, Tensor E):
    """The upper-right block of exp([[X, E], [0, X]]): the Frechet derivative of the
    matrix exponential at X in the direction E (Mathias 1996)."""
    cdef Py_ssize_t n = shape_of(X._data)[-1]
    cdef Tensor top = OPS.cat([X, E], -1)
    cdef Tensor bottom = OPS.cat([zeros_like(X), X], -1)
    cdef Tensor meta = OPS.cat([top, bottom], -2)
    return _narrow(_narrow(op_linalg_matrix_exp(meta), -2, 0, n), -1, n, n)


# ---------------------------------------------------------------- matrix_power, rank, pinv, cond

cdef Tensor op_linalg_matrix_power(Tensor A, object n):
    _check_matrix(A, "linalg.matrix_power", True)
    cdef long k = n
    cdef Tensor a, z = None, result = None
    if k == 0:
        s = shape_of(A._data)
        return OPS.copy_(OPS.clone(A, _contiguous_format),      # (PyTorch's, as its eye)
                         make(np.broadcast_to(np.eye(s[-1], dtype=A._data.dtype), s).copy()),
                         False)
    if k < 0:
        a = op_linalg_inv(A)
        k = -k
    else:
        a = A
    if k == 1:
        return OPS.clone(a, None) if n == 1 else a
    if k == 2:
        return op_matmul(a, a)
    if k == 3:
        return op_matmul(op_matmul(a, a), a)
    while k > 0:
        bit = k % 2
        k = k // 2
        z = a if z is None else op_matmul(z, z)
        if bit == 1:
            result = z if result is None else op_matmul(result, z)
    return result


cdef Tensor op_matrix_power(Tensor self, object n):
    return op_linalg_matrix_power(self, n)


def _py_linalg_matrix_power(A, n, *, out=None):
    cdef Tensor A_ = arg_tensor(A, "linalg_matrix_power", "A", 1)
    if complex_arg(A_):
        check_complex_op("linalg_matrix_power", A_)  # Note [Dtype guard]
    cdef object n_ = arg_int(n, "linalg_matrix_power", "n", 2)
    if out is None:
        return OPS.linalg_matrix_power(A_, n_)
    out_check("linalg_matrix_power", out, 1)
    cdef dtype ad = dtype_of(A_._data), od = dtype_of((<Tensor>out)._data)
    if ad.category > od.category:
        raise RuntimeError(f"matrix_power: Expected result to be safely castable from "
                           f"{ad.scalar_name} dtype, but got result with dtype {od.scalar_name}")
    # PyTorch's out= (Note [out= rules]): n = 0 copies an identity into out (a cast, no
    # graph), n = 1 copies A itself (a cast, a graph through copy_); other powers end
    # in an out= of matmul (or of linalg_inv_ex for n = -1): the result's dtype, and
    # its autograd error
    if n_ == 0:
        with NoGradGuard():
            return with_out("linalg_matrix_power", out, OPS.linalg_matrix_power(A_, 0))
    if n_ == 1:
        return with_out("linalg_matrix_power", out, A_, None, OUT_GRAD_COPY)
    return with_out("linalg_inv_ex" if n_ == -1 else "matmul", out,
                    OPS.linalg_matrix_power(A_, n_), None, OUT_EXACT)


cdef tuple _tolerances(Tensor A, object atol, object rtol):
    """(atol, rtol) as arrays broadcastable to A's batch (PyTorch's get_atol_rtol)."""
    cdef tuple s = shape_of(A._data)
    eps = np.finfo(A._data.dtype).eps
    a = 0.0 if atol is None else ((<Tensor>atol)._data if isinstance(atol, Tensor)
                                  else float(atol))
    if rtol is not None:
        r = (<Tensor>rtol)._data if isinstance(rtol, Tensor) else float(rtol)
    elif atol is not None:   # the default rtol only where atol is not positive
        r = np.where(np.asarray(a) > 0, 0.0, eps * max(s[-2], s[-1]))
    else:
        r = eps * max(s[-2], s[-1])
    return np.asarray(a), np.asarray(r)


cdef Tensor op_linalg_matrix_rank(Tensor A, object tol, bint hermitian, object atol, object rtol):
    if dtype_of(A._data).category != CAT_FLOAT:
        raise RuntimeError("This function doesn't handle types other than float and double")
    _check_matrix(A, "linalg.matrix_rank", False)
    if tol is not None:
        atol, rtol = tol, 0.0
    a, r = _tolerances(A, atol, rtol)
    with quiet():
        if hermitian:
            S = np.abs(np.linalg.eigvalsh(A._data))
        else:
            S = np.linalg.svd(A._data, compute_uv=False)
        smax = S.max(axis=-1) if S.shape[-1] else np.zeros(S.shape[:-1], dtype=S.dtype)
        thr = np.maximum(a, r * smax)
        out = (S > thr[..., None]).sum(axis=-1)
    return make(np.array(out, dtype=np.int64))


def _py_linalg_pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    cdef Tensor A_ = arg_tensor(A, "linalg_pinv", "A", 1)
    cdef bint hermitian_ = arg_bool(hermitian, "linalg_pinv", "hermitian", 3)
    res = OPS.linalg_pinv(A_, rcond, hermitian_, atol, rtol)
    tols = (rcond, atol, rtol)
    # (Note [out= rules]) with tolerances given as numbers PyTorch composes the out=
    # variant (a graph through copy_); its default and tensor tolerances run the
    # out= kernel of linalg_pinv.atol_rtol_tensor (the autograd error)
    composed = any(t is not None for t in tols) and not any(isinstance(t, Tensor) for t in tols)
    return with_out("linalg_pinv", out, res, None, OUT_GRAD_COPY if composed else 0)


cdef Tensor op_linalg_pinv(Tensor A, object rcond, bint hermitian, object atol, object rtol):
    d = dtype_of(A._data)
    if (d.category != CAT_FLOAT and d.category != CAT_COMPLEX) or _ndim(A) < 2:
        raise RuntimeError(f"linalg.pinv({dtype_of(A._data).scalar_name}{{{list(shape_of(A._data))}}})"
                           ": expected a tensor with 2 or more dimensions of float, double, "
                           "cfloat or cdouble types".replace("{[", "{[").replace("]}", "]}"))
    if rcond is not None:
        rtol = rcond
    a, r = _tolerances(A, atol, rtol)
    with quiet():
        if hermitian:
            w, v = np.linalg.eigh(A._data)
            absw = np.abs(w)
            thr = np.maximum(a, r * (absw.max(axis=-1) if w.shape[-1] else 0))
            winv = np.where(absw > thr[..., None], 1 / np.where(w == 0, 1, w), 0)
            out = (v * winv[..., None, :]) @ np.conj(np.swapaxes(v, -1, -2))
        else:
            u, s, vh = np.linalg.svd(A._data, full_matrices=False)
            thr = np.maximum(a, r * (s.max(axis=-1) if s.shape[-1] else 0))
            sinv = np.where(s > thr[..., None], 1 / np.where(s == 0, 1, s), 0)
            # V diag(1/S) U^H
            out = (np.conj(np.swapaxes(vh, -1, -2)) * sinv[..., None, :]) @ \
                np.conj(np.swapaxes(u, -1, -2))
    cdef Tensor result = make(np.ascontiguousarray(out.astype(A._data.dtype, copy=False)))
    record_LinalgPinvBackward0(result, A, rcond, hermitian, atol, rtol)
    return result


cdef Tensor op_pinverse(Tensor self, object rcond):
    return op_linalg_pinv(self, None, False, None, rcond)


cdef Tensor pinv_backward(Tensor grad, Tensor pinvA, Tensor A):
    """PyTorch's pinv_backward."""
    cdef Py_ssize_t m = shape_of(A._data)[-2], n = shape_of(A._data)[-1]
    cdef Tensor pinvAh = _mH(pinvA), gradh = _mH(grad), K, KpinvAh, pinvAhK
    if m <= n:
        K = op_matmul(gradh, pinvA)
        KpinvAh = op_matmul(K, pinvAh)
        return OPS.add(OPS.sub(OPS.add(OPS.neg(_mH(op_matmul(pinvA, K))), KpinvAh, 1),
                               op_matmul(op_matmul(A, pinvA), KpinvAh), 1),
                       op_matmul(op_matmul(pinvAh, pinvA), OPS.sub(gradh, op_matmul(K, A), 1)), 1)
    K = op_matmul(pinvA, gradh)
    pinvAhK = op_matmul(pinvAh, K)
    return OPS.sub(OPS.add(OPS.add(OPS.neg(_mH(op_matmul(K, pinvA))),
                                   op_matmul(op_matmul(OPS.sub(gradh, op_matmul(A, K), 1), pinvA),
                                             pinvAh), 1), pinvAhK, 1),
                   op_matmul(op_matmul(pinvAhK, pinvA), A), 1)


cdef Tensor op_linalg_cond(Tensor A, object p):
    _check_matrix(A, "linalg.cond", False)
    _check_float_input(dtype_of(A._data), "linalg.cond")
    cdef Tensor sv, inv, info
    if p is None or (not isinstance(p, str) and float(p) in (2.0, -2.0)):
        sv = _svdvals(A)
        k = shape_of(sv._data)[-1]
        smax = _narrow(sv, -1, 0, 1)
        smin = _narrow(sv, -1, k - 1, 1)
        if p is not None and float(p) == -2.0:
            return OPS.squeeze(OPS.div(smin, smax, None), -1)
        return OPS.squeeze(OPS.div(smax, smin, None), -1)
    if isinstance(p, str) and p not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    _check_matrix(A, f"linalg.cond(ord={p if isinstance(p, str) else _fmt_number(p)})", True)
    if isinstance(p, str) and p == "nuc":
        # PyTorch's: the nuclear norm of an inverse with infinities would fail, so the
        # definition through the singular values (0 * inf = nan for a singular A)
        sv = _svdvals(A)
        return OPS.mul(OPS.sum(sv, (-1,), False, None),
                       OPS.sum(OPS.reciprocal(sv), (-1,), False, None))
    r = op_linalg_inv_ex(A, False)
    inv = <Tensor>r[0]
    bad = (<Tensor>r[1])._data > 0
    # in place, as PyTorch does (so, as there, the norm of the inverse cannot be
    # differentiated: its saved inverse has been modified)
    OPS.masked_fill_(inv, make(np.array(bad[..., None, None])), np.inf)
    cdef Tensor out = OPS.mul(op_linalg_matrix_norm(A, p, (-2, -1), False, None),
                              op_linalg_matrix_norm(inv, p, (-2, -1), False, None))
    # 0 * inf for a singular A: inf, as NumPy
    return OPS.nan_to_num(out, np.inf, np.inf, -np.inf)


# ---------------------------------------------------------------- LU

cdef tuple _lu_values(cnp.ndarray A):
    """getrf, batched: (LU, 1-based pivots (int32), info (int32)) by partial pivoting
    (the first largest |pivot|, as idamax; complex: |re| + |im|, as izamax)."""
    cdef tuple s = shape_of(A)
    cdef Py_ssize_t m = s[-2], n = s[-1], k = min(m, n), j
    a = _mats(np.array(A, copy=True), 2)
    nb = a.shape[0]
    piv = np.zeros((nb, k), dtype=np.int32)
    info = np.zeros(nb, dtype=np.int32)
    rows = np.arange(nb)
    with quiet():
        for j in range(k):
            col = a[:, j:, j]
            p = j + np.argmax(np.abs(col.real) + np.abs(col.imag) if np.iscomplexobj(col)
                              else np.abs(col), axis=1)
            piv[:, j] = p + 1
            swap = p != j
            if swap.any():
                r = rows[swap]
                tmp = a[r, j, :].copy()
                a[r, j, :] = a[r, p[swap], :]
                a[r, p[swap], :] = tmp
            d = a[:, j, j]
            zero = d == 0
            if zero.any():
                info[(info == 0) & zero] = j + 1
            dd = np.where(zero, 1, d)
            if j + 1 < m:
                l = np.where(zero[:, None], a[:, j + 1:, j], a[:, j + 1:, j] / dd[:, None])
                a[:, j + 1:, j] = l
                if j + 1 < n:
                    a[:, j + 1:, j + 1:] -= np.where(zero[:, None, None], 0,
                                                     l[:, :, None] * a[:, j, None, j + 1:])
    return (a.reshape(s), piv.reshape(s[:-2] + (k,)), info.reshape(s[:-2]))


cdef tuple op_linalg_lu_factor_ex(Tensor A, bint pivot, bint check_errors):
    _check_linalg_input(A, "linalg.lu_factor_ex", False)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    _check_lu_precision(A, "linalg.lu_factor_ex")
    lu, piv, info = _lu_values(A._data)
    if check_errors and (info > 0).any():
        _raise_lu(info, "autograd_core.linalg.lu_factor_ex", shape_of(A._data))
    cdef Tensor LU = make(_column_major(lu)), P = _int_tensor(piv, int32)
    cdef Tensor I = _int_tensor(info, int32)
    record_LinalgLuFactorExBackward0(LU, P, I, A, pivot, check_errors)
    return (LU, P, I)


cdef void _raise_lu(object info, str fname, tuple s) except *:
    flat = np.asarray(info).reshape(-1)
    if (flat > 0).any():
        b = int(np.argmax(flat > 0))
        k = int(flat[b])
        raise RuntimeError(
            f"{fname}: {_batch_prefix(s[:-2], b)}U[{k},{k}] is zero and using it on lu_solve "
            "would result in a division by zero. If you still want to perform the "
            "factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


cdef tuple op_linalg_lu_factor(Tensor A, bint pivot):
    _check_linalg_input(A, "linalg.lu_factor", False)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    cdef tuple r = op_linalg_lu_factor_ex(A, pivot, False)
    _raise_lu((<Tensor>r[2])._data, "autograd_core.linalg.lu_factor", shape_of(A._data))
    return (r[0], r[1])


cdef tuple op_lu(Tensor A, bint pivot, bint get_infos):
    warnings.warn("autograd_core.lu is deprecated in favor of autograd_core.linalg.lu_factor / "
                  "autograd_core.linalg.lu_factor_ex and will be removed in a future PyTorch release.",
                  UserWarning, stacklevel=2)
    cdef tuple r = op_linalg_lu_factor_ex(A, pivot, not get_infos)
    return (r[0], r[1], r[2]) if get_infos else (r[0], r[1])


def _py_lu(A, pivot=True, get_infos=False, *, out=None):
    cdef Tensor A_ = arg_tensor(A, "lu", "A", 1)
    if complex_arg(A_):
        check_complex_op("lu", A_)  # Note [Complex guard]
    cdef bint pivot_ = arg_bool(pivot, "lu", "pivot", 2)
    cdef bint get_infos_ = arg_bool(get_infos, "lu", "get_infos", 3)
    cdef tuple res = OPS.lu(A_, pivot_, get_infos_)
    if out is None:
        return res
    # torch.lu is Python in PyTorch: its out= resizes each out tensor to its result and
    # copy_s it in (any dtype; a graph through copy_), and returns out itself
    if len(out) - get_infos_ != 2:
        raise TypeError(f"expected tuple of {2 + get_infos_} elements but got {len(out)}")
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    for o, r in zip(out, res):
        if not isinstance(o, Tensor):
            raise AttributeError(f"'{type(o).__name__}' object has no attribute 'resize_as_'")
        OPS.copy_(OPS.resize_as_(<Tensor>o, <Tensor>r), <Tensor>r, False)
    return out


cdef object _perm_matrix(cnp.ndarray piv, Py_ssize_t m, object np_dtype):
    """P with A = P L U from LAPACK's 1-based row interchanges."""
    cdef tuple bs = shape_of(piv)[:-1]
    cdef Py_ssize_t k = shape_of(piv)[-1], i
    pv = _mats(piv, 1).astype(np.int64) - 1
    nb = pv.shape[0]
    perm = np.broadcast_to(np.arange(m), (nb, m)).copy()
    rows = np.arange(nb)
    for i in range(k):
        j = pv[:, i]
        tmp = perm[rows, i].copy()
        perm[rows, i] = perm[rows, j]
        perm[rows, j] = tmp
    P = np.zeros((nb, m, m), dtype=np_dtype)
    P[rows[:, None], perm, np.arange(m)[None, :]] = 1
    return P.reshape(bs + (m, m))


cdef tuple _unpack_values(cnp.ndarray lu, Py_ssize_t m, Py_ssize_t n):
    cdef Py_ssize_t k = min(m, n)
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    U = np.triu(lu[..., :k, :])
    return L, U


cdef tuple op_linalg_lu(Tensor A, bint pivot):
    _check_linalg_input(A, "linalg.lu", False)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    _check_lu_precision(A, "linalg.lu")
    cdef tuple s = shape_of(A._data)
    lu, piv, info = _lu_values(A._data)
    L, U = _unpack_values(lu, s[-2], s[-1])
    cdef Tensor Pt = make(_perm_matrix(piv, s[-2], A._data.dtype))
    cdef Tensor Lt = make(np.ascontiguousarray(L)), Ut = make(np.ascontiguousarray(U))
    record_LinalgLuBackward0(Pt, Lt, Ut, A, pivot)
    _no_history(Pt)
    return (Pt, Lt, Ut)


cdef tuple op_lu_unpack(Tensor LU_data, Tensor LU_pivots, bint unpack_data, bint unpack_pivots):
    if _ndim(LU_data) < 2:
        raise RuntimeError("autograd_core.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                           f"size: {list(shape_of(LU_data._data))} instead")
    if dtype_of(LU_pivots._data) is not int32:
        raise RuntimeError("autograd_core.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                           f"autograd_core.int32 dtype. Note: this function is intended to be used with "
                           "the output produced by autograd_core.linalg.lu_factor")
    cdef tuple s = shape_of(LU_data._data)
    cdef Tensor Pt, Lt, Ut
    d = LU_data._data.dtype
    if unpack_data:
        L, U = _unpack_values(LU_data._data, s[-2], s[-1])
        Lt = make(np.ascontiguousarray(L))
        Ut = make(np.ascontiguousarray(U))
    else:
        Lt = make(np.empty((0,), dtype=d))
        Ut = make(np.empty((0,), dtype=d))
    if unpack_pivots:
        Pt = make(_perm_matrix(LU_pivots._data, s[-2], d))
    else:
        Pt = make(np.empty((0,), dtype=d))
    if unpack_data:
        record_LuUnpackBackward0(Pt, Lt, Ut, LU_data, LU_pivots, unpack_data, unpack_pivots)
        _no_history(Pt)
    return (Pt, Lt, Ut)


cdef object lu_unpack_backward(object gL, object gU, tuple s, dtype d):
    """PyTorch's lu_unpack_backward: gL's strictly lower part and gU's upper part, placed
    in LU's shape s (its node saves LU's shape and dtype, not LU: an in-place write into
    LU after the forward is no error, as in PyTorch)."""
    if gL is None and gU is None:
        return None
    cdef Py_ssize_t m = s[-2], n = s[-1], k = min(m, n)
    cdef Tensor out = None
    if gL is not None:
        out = OPS.tril(<Tensor>gL, -1)          # m x k
        if n > k:
            out = OPS.cat([out, zeros(s[:-2] + (m, n - k), d)], -1)
    if gU is not None:
        gu = OPS.triu(<Tensor>gU, 0)           # k x n
        if m > k:
            gu = OPS.cat([gu, zeros(s[:-2] + (m - k, n), d)], -2)
        out = gu if out is None else OPS.add(out, gu, 1)
    return out


cdef tuple _unpack_diff(Tensor LU, Tensor pivots, bint unpack_pivots):
    """(P, L, U) as differentiable tensors of LU (P constant)."""
    cdef tuple s = shape_of(LU._data)
    cdef Py_ssize_t m = s[-2], n = s[-1], k = min(m, n)
    cdef Tensor L = OPS.add(OPS.tril(_narrow(LU, -1, 0, k), -1),
                            make(np.eye(m, k, dtype=LU._data.dtype)), 1)
    cdef Tensor U = OPS.triu(_narrow(LU, -2, 0, k), 0)
    P = make(_perm_matrix(pivots._data, m, LU._data.dtype)) if unpack_pivots else None
    return P, L, U


cdef object linalg_lu_backward(object gL, object gU, Tensor P, Tensor L, Tensor U, bint pivot):
    """PyTorch's linalg_lu_backward."""
    if gL is None and gU is None:
        return None
    cdef Py_ssize_t m = shape_of(L._data)[-2], n = shape_of(U._data)[-1], k = min(m, n)
    cdef Tensor gA
    if m == n:
        gA = None
        if gL is not None:
            gA = OPS.tril(op_matmul(_mH(L), <Tensor>gL), -1)
        if gU is not None:
            t = OPS.triu(op_matmul(<Tensor>gU, _mH(U)), 0)
            gA = t if gA is None else OPS.add(gA, t, 1)
        gA = op_linalg_solve_triangular(_mH(U), gA, False, False, False)
        gA = op_linalg_solve_triangular(_mH(L), gA, True, True, True)
        return op_matmul(P, gA) if pivot else gA
    if m < n:
        U1 = _narrow(U, -1, 0, k)
        gA = None
        if gL is not None:
            gA = op_matmul(_mH(L), <Tensor>gL)
        if gU is not None:
            t = op_matmul(OPS.triu(<Tensor>gU, 0), _mH(U))
            gA = OPS.neg(t) if gA is None else OPS.sub(gA, t, 1)
        gA = op_linalg_solve_triangular(_mH(U1), OPS.tril(gA, -1), False, False, False)
        if gU is not None:
            gA = OPS.cat([OPS.add(gA, OPS.triu(_narrow(<Tensor>gU, -1, 0, k), 0), 1),
                          _narrow(<Tensor>gU, -1, k, n - k)], -1)
        gA = op_linalg_solve_triangular(_mH(L), gA, True, True, True)
        if gU is None:
            gA = OPS.cat([gA, zeros_like(_narrow(U, -1, k, n - k))], -1)
        return op_matmul(P, gA) if pivot else gA
    L1 = _narrow(L, -2, 0, k)
    gA = None
    if gU is not None:
        gA = op_matmul(<Tensor>gU, _mH(U))
    if gL is not None:
        t = op_matmul(_mH(L), OPS.tril(<Tensor>gL, -1))
        gA = OPS.neg(t) if gA is None else OPS.sub(gA, t, 1)
    gA = op_linalg_solve_triangular(_mH(L1), OPS.triu(gA, 0), True, True, True)
    if gL is not None:
        gA = OPS.cat([OPS.add(gA, OPS.tril(_narrow(<Tensor>gL, -2, 0, k), -1), 1),
                      _narrow(<Tensor>gL, -2, k, m - k)], -2)
    gA = op_linalg_solve_triangular(_mH(U), gA, False, False, False)
    if gL is None:
        gA = OPS.cat([gA, zeros_like(_narrow(L, -2, k, m - k))], -2)
    return op_matmul(P, gA) if pivot else gA


cdef object lu_factor_ex_backward(object grad, Tensor LU, Tensor pivots, bint pivot):
    if grad is None:
        return None
    cdef tuple s = shape_of(LU._data)
    cdef Py_ssize_t k = min(s[-2], s[-1])
    P, L, U = _unpack_diff(LU, pivots, pivot)
    return linalg_lu_backward(_narrow(<Tensor>grad, -1, 0, k), _narrow(<Tensor>grad, -2, 0, k),
                              P, L, U, pivot)


cdef Tensor _lu_solve_values(Tensor LU, Tensor pivots, Tensor B, bint left, bint adjoint):
    """X from the factors (differentiable in LU and B through the triangular solves)."""
    if not left:
        # X op(A) = B  <=>  op(A)^H X^H = B^H
        return _mH(_lu_solve_values(LU, pivots, _mH(B), True, not adjoint))
    P, L, U = _unpack_diff(LU, pivots, True)
    cdef Tensor Pt = <Tensor>P
    if not adjoint:    # P L U X = B
        y = op_linalg_solve_triangular(L, op_matmul(_mT(Pt), B), False, True, True)
        return op_linalg_solve_triangular(U, y, True, True, False)
    # U^H L^H P^T X = B
    y = op_linalg_solve_triangular(_mH(U), B, False, True, False)
    return op_matmul(Pt, op_linalg_solve_triangular(_mH(L), y, True, True, True))


cdef Tensor op_linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, bint left, bint adjoint):
    cdef str fname = "linalg.lu_solve"
    _check_linalg_input(LU, fname, True)
    if _ndim(B) < 2:
        raise RuntimeError(f"{fname}: The input tensor B must have at least 2 dimensions.")
    if dtype_of(LU._data) is not dtype_of(B._data):
        raise RuntimeError(f"{fname}: Expected LU and B to have the same dtype, but found LU of "
                           f"type {dtype_of(LU._data).scalar_name} and B of type "
                           f"{dtype_of(B._data).scalar_name} instead")
    if dtype_of(pivots._data) is not int32:
        raise RuntimeError(f"{fname}: pivots should be a Tensor of scalar type autograd_core.int32")
    cdef tuple sa = shape_of(LU._data), sb = shape_of(B._data)
    if (sa[-2] != sb[-2]) if left else (sa[-1] != sb[-1]):
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({sa[-2]}x{sa[-1]} and {sb[-2]}x{sb[-1]})")
    with NoGradGuard():
        X = _lu_solve_values(make(LU._data), pivots, make(B._data), left, adjoint)
    cdef Tensor result = make(_column_major((<Tensor>X)._data) if left
                              else np.ascontiguousarray((<Tensor>X)._data))
    record_LinalgLuSolveBackward0(result, LU, pivots, B, left, adjoint)
    return result


cdef Tensor linalg_lu_solve_B(Tensor grad, Tensor LU, Tensor pivots, bint left, bint adjoint):
    return op_linalg_lu_solve(LU, pivots, grad, left, not adjoint)


cdef Tensor linalg_lu_solve_LU(Tensor gX, Tensor LU, Tensor pivots, Tensor X, bint left,
                               bint adjoint):
    """PyTorch's linalg_lu_solve_LU."""
    P, L, U = _unpack_diff(LU, pivots, True)
    cdef Tensor Pt = <Tensor>P, Lt = <Tensor>L, Ut = <Tensor>U, gR, gU
    if left != adjoint:
        gR = op_linalg_solve_triangular(
            _mH(Ut), OPS.neg(op_matmul(gX if left else _mH(gX), _mH(X) if left else X)),
            False, True, False)
        gL = OPS.tril(op_linalg_solve_triangular(_mH(Lt), op_matmul(gR, _mH(Ut)), True, True,
                                                 True), -1)
        return OPS.add(gL, OPS.triu(gR, 0), 1)
    gR = OPS.neg(op_matmul(op_matmul(op_matmul(_mH(Pt), X if left else _mH(X)),
                                     _mH(gX) if left else gX), Pt))
    gR = op_linalg_solve_triangular(_mH(Lt), gR, True, False, True)
    gU = OPS.triu(op_linalg_solve_triangular(_mH(Ut), op_matmul(_mH(Lt), gR), False, False,
                                             False), 0)
    return OPS.add(OPS.tril(gR, -1), gU, 1)


cdef Tensor op_lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots):
    warnings.warn("autograd_core.lu_solve is deprecated in favor of autograd_core.linalg.lu_solve and will be "
                  "removed in a future PyTorch release.", UserWarning, stacklevel=2)
    return op_linalg_lu_solve(LU_data, LU_pivots, self, True, False)


# ---------------------------------------------------------------- lstsq

cdef tuple op_linalg_lstsq(Tensor A, Tensor B, object rcond, object driver):
    cdef str fname = "autograd_core.linalg.lstsq"
    _check_float_input(dtype_of(A._data), "linalg.lstsq")
    if dtype_of(A._data) is not dtype_of(B._data):
        raise RuntimeError(f"{fname}: Expected input and other to have the same dtype, but got "
                           f"input's dtype {dtype_of(A._data)} and other's dtype "
                           f"{dtype_of(B._data)}")
    if _ndim(A) < 2:
        raise RuntimeError(f"{fname}: input must have at least 2 dimensions.")
    drv = "gelsy" if driver is None else driver
    if drv not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(f"{fname}: parameter `driver` should be one of (gels, gelsy, gelsd, "
                           f"gelss)")
    cdef tuple sa = shape_of(A._data), sb = shape_of(B._data)
    cdef bint vector = _ndim(B) == _ndim(A) - 1     # PyTorch's rule for lstsq
    if vector:
        if sa[-2] != sb[-1]:
            raise RuntimeError(f"{fname}: input.size(-2) should match other.size(-1)")
    elif _ndim(B) < 2 or sa[-2] != sb[-2]:
        raise RuntimeError(f"{fname}: input.size(-2) should match other.size(-2)")
    Bm = B._data[..., None] if vector else B._data
    cdef Py_ssize_t m = sa[-2], n = sa[-1], k = shape_of(Bm)[-1]
    batch = broadcast_shapes(sa[:-2], shape_of(Bm)[:-2])
    a = _mats(np.broadcast_to(A._data, batch + (m, n)), 2)
    b = _mats(np.broadcast_to(Bm, batch + (m, k)), 2)
    eps = np.finfo(A._data.dtype).eps
    rc = eps * max(m, n) if rcond is None else float(rcond)
    sols, ranks, svals = [], [], []
    with quiet():
        for i in range(a.shape[0]):
            x, _, rank, sv = np.linalg.lstsq(a[i], b[i], rcond=rc)
            sols.append(x)
            ranks.append(rank)
            svals.append(sv)
    d = A._data.dtype
    X = (np.stack(sols) if sols else np.zeros((0, n, k), dtype=d)).reshape(batch + (n, k))
    full_rank = all(r == min(m, n) for r in ranks)
    if drv != "gelsy" and m > n and full_rank:
        res = np.sum((np.einsum("bij,bjk->bik", a, _mats(X, 2)) - b) ** 2, axis=-2)
        res = res.reshape(batch + (k,))
    else:
        res = np.empty((0,), dtype=d)
    rank_out = np.asarray(ranks, dtype=np.int64).reshape(batch) if drv != "gels" else \
        np.empty((0,), dtype=np.int64)
    sv_out = (np.stack(svals) if svals else np.zeros((0, min(m, n)))).reshape(
        batch + (min(m, n),)).astype(d) if drv in ("gelsd", "gelss") else np.empty((0,), dtype=d)
    # LAPACK's gels* solve in place in B's column-major (max(m, n), k) buffer; PyTorch
    # returns its first n rows, a non-dense view of it when m > n (strides (1, m))
    buf = np.zeros(batch + (k, max(m, n)), dtype=d)
    buf[..., :n] = np.swapaxes(X, -1, -2)
    X = np.swapaxes(buf, -1, -2)[..., :n, :]
    if vector:
        X = X[..., 0]
    cdef Tensor Xt = make(X)
    cdef Tensor Rt = make(np.array(res, dtype=d))
    cdef Tensor Kt = make(np.array(rank_out))
    cdef Tensor St = make(np.array(sv_out))
    record_LinalgLstsqBackward0(Xt, Rt, Kt, St, A, B, rcond, driver)
    _no_history(St)
    return (Xt, Rt, Kt, St)


cdef object linalg_lstsq_backward_A(object gX, object gR, Tensor A, Tensor B, Tensor X):
    """PyTorch's linalg_lstsq_backward, A's part: through the pseudo-inverse; the
    residuals r_j = ||A x_j - b_j||^2 (x_j optimal) add 2 (A X - B) diag(gR) X^T."""
    cdef bint vector = _ndim(B) == _ndim(A) - 1
    cdef Tensor b = OPS.unsqueeze(B, -1) if vector else B
    out = None
    if gX is not None:
        g = OPS.unsqueeze(<Tensor>gX, -1) if vector else <Tensor>gX
        out = pinv_backward(op_matmul(g, _mT(b)), op_linalg_pinv(A, None, False, None, None), A)
    if gR is not None and cnp.PyArray_SIZE((<Tensor>gR)._data):
        x = OPS.unsqueeze(X, -1) if vector else X
        gr = <Tensor>gR        # (..., k): k = 1 for a vector B
        res = OPS.sub(op_matmul(A, x), b, 1)
        t = OPS.mul(op_matmul(OPS.mul(res, OPS.unsqueeze(gr, -2)), _mT(x)), 2)
        out = t if out is None else OPS.add(<Tensor>out, t, 1)
    return out


cdef object linalg_lstsq_backward_B(object gX, object gR, Tensor A, Tensor B, Tensor X):
    cdef bint vector = _ndim(B) == _ndim(A) - 1
    out = None
    if gX is not None:
        g = OPS.unsqueeze(<Tensor>gX, -1) if vector else <Tensor>gX
        out = op_matmul(_mT(op_linalg_pinv(A, None, False, None, None)), g)
    if gR is not None and cnp.PyArray_SIZE((<Tensor>gR)._data):
        b = OPS.unsqueeze(B, -1) if vector else B
        x = OPS.unsqueeze(X, -1) if vector else X
        gr = <Tensor>gR
        t = OPS.mul(OPS.mul(OPS.sub(op_matmul(A, x), b, 1), OPS.unsqueeze(gr, -2)), -2)
        out = t if out is None else OPS.add(<Tensor>out, t, 1)
    if out is None:
        return None
    return OPS.squeeze(<Tensor>out, -1) if vector else out


# ---------------------------------------------------------------- Householder products

cdef object _householder_values(object A, object tau, bint full):
    """H_1 ... H_k applied to the identity's first n columns (all m when full)."""
    a = np.asarray(A)
    t = np.asarray(tau)
    cdef Py_ssize_t m = a.shape[-2], n = a.shape[-1], k = t.shape[-1], i
    batch = np.broadcast_shapes(a.shape[:-2], t.shape[:-1])
    cols = m if full else n
    Q = np.array(np.broadcast_to(np.eye(m, cols, dtype=a.dtype), batch + (m, cols)))
    for i in range(k - 1, -1, -1):
        v = np.array(np.broadcast_to(a[..., :, i], batch + (m,)))
        v[..., :i] = 0
        v[..., i] = 1
        w = np.einsum("...i,...ij->...j", v, Q)
        Q -= t[..., i, None, None] * v[..., :, None] * w[..., None, :]
    return Q


cdef void _check_householder(Tensor A, Tensor tau, str fname) except *:
    if _ndim(A) < 2:
        raise RuntimeError(f"{fname}: input must have at least 2 dimensions.")
    if _ndim(tau) < 1:
        raise RuntimeError(f"{fname}: tau must have at least 1 dimension.")
    cdef tuple sa = shape_of(A._data), st = shape_of(tau._data)
    if sa[-2] < sa[-1]:
        raise RuntimeError(f"{fname}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if sa[-1] < st[-1]:
        raise RuntimeError(f"{fname}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if _ndim(A) - _ndim(tau) != 1:
        raise RuntimeError(f"{fname}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {_ndim(tau)} and input.ndim is equal to "
                           f"{_ndim(A)}")
    if st[:-1] != sa[:-2]:
        raise RuntimeError(f"{fname}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(st[:-1])}")
    if dtype_of(A._data) is not dtype_of(tau._data):
        raise RuntimeError(f"{fname}: tau dtype {dtype_of(tau._data)} does not match input "
                           f"dtype {dtype_of(A._data)}")


cdef Tensor op_linalg_householder_product(Tensor A, Tensor tau):
    _check_householder(A, tau, "autograd_core.linalg.householder_product")
    _check_float_input(dtype_of(A._data), "autograd_core.linalg.householder_product")
    cdef Tensor result = make(_column_major(_householder_values(A._data, tau._data, False)))
    record_LinalgHouseholderProductBackward0(result, A, tau)
    return result


cdef Tensor op_orgqr(Tensor self, Tensor input2):
    return op_linalg_householder_product(self, input2)


cdef tuple _householder_grads(Tensor G, Tensor A, Tensor tau, Py_ssize_t cols):
    """(gA, gtau) of Q = H_1 ... H_k E (E the identity's first cols columns), in the
    library's ops: with prefix P_i = H_1..H_{i-1} and suffix S_i = H_{i+1}..H_k E,
    dL/dH_i = M_i = P_i^T G S_i^T; H_i = I - tau_i v_i v_i^T gives
    gtau_i = -v_i^T M_i v_i and gv_i = -tau_i (M_i + M_i^T) v_i."""
    cdef tuple sa = shape_of(A._data)
    cdef Py_ssize_t m = sa[-2], n = sa[-1], k = shape_of(tau._data)[-1], i
    cdef object d = A._data.dtype
    vs = []
    for i in range(k):
        below = np.zeros(m, dtype=d)
        below[i + 1:] = 1
        unit = np.zeros(m, dtype=d)
        unit[i] = 1
        vs.append(OPS.add(OPS.mul(OPS.select(A, -1, i), make(below)), make(unit), 1))
    cdef Tensor E = make(np.eye(m, cols, dtype=d))
    suffix = [None] * k
    cdef Tensor S = E, v, ti
    for i in range(k - 1, -1, -1):
        suffix[i] = S
        v = <Tensor>vs[i]
        ti = OPS.unsqueeze(OPS.unsqueeze(OPS.select(tau, -1, i), -1), -1)
        S = OPS.sub(S, OPS.mul(ti, op_matmul(OPS.unsqueeze(v, -1),
                                             op_matmul(OPS.unsqueeze(v, -2), S))), 1)
    gA_cols, gtaus = [], []
    cdef Tensor T = G, Mv, MTv, St
    for i in range(k):
        v = <Tensor>vs[i]
        St = <Tensor>suffix[i]
        ti = OPS.select(tau, -1, i)
        # M v = T (S^T v); M^T v = S (T^T v)
        Mv = op_matmul(T, op_matmul(_mT(St), OPS.unsqueeze(v, -1)))
        MTv = op_matmul(St, op_matmul(_mT(T), OPS.unsqueeze(v, -1)))
        Mv = OPS.squeeze(Mv, -1)
        MTv = OPS.squeeze(MTv, -1)
        gtaus.append(OPS.neg(OPS.sum(OPS.mul(v, Mv), (-1,), False, None)))
        below = np.zeros(m, dtype=d)
        below[i + 1:] = 1
        gA_cols.append(OPS.mul(OPS.mul(OPS.neg(OPS.unsqueeze(ti, -1)), OPS.add(Mv, MTv, 1)),
                               make(below)))
        # T_{i+1} = H_i T_i
        ti = OPS.unsqueeze(OPS.unsqueeze(ti, -1), -1)
        T = OPS.sub(T, OPS.mul(ti, op_matmul(OPS.unsqueeze(v, -1),
                                             op_matmul(OPS.unsqueeze(v, -2), T))), 1)
    cdef Tensor gA = OPS.stack(gA_cols, -1) if k else None
    if gA is None:
        gA = zeros(broadcast_shapes(sa[:-2], shape_of(tau._data)[:-1]) + (m, n), dtype_of(A._data))
    elif n > k:
        gs = shape_of(gA._data)
        gA = OPS.cat([gA, zeros(gs[:-1] + (n - k,), dtype_of(A._data))], -1)
    cdef Tensor gt = OPS.stack(gtaus, -1) if k else zeros_like(tau)
    return gA, gt


cdef Tensor householder_product_backward_A(Tensor grad, Tensor A, Tensor tau):
    return <Tensor>_householder_grads(grad, A, tau, shape_of(A._data)[-1])[0]


cdef Tensor householder_product_backward_tau(Tensor grad, Tensor A, Tensor tau):
    return <Tensor>_householder_grads(grad, A, tau, shape_of(A._data)[-1])[1]


cdef tuple op_geqrf(Tensor self):
    _check_matrix(self, "autograd_core.geqrf", False)
    _check_float_input(dtype_of(self._data), "autograd_core.geqrf")
    cdef tuple s = shape_of(self._data)
    mats = _mats(self._data, 2)
    hs, taus = [], []
    with quiet():
        for i in range(mats.shape[0]):
            h, t = np.linalg.qr(mats[i], mode="raw")
            hs.append(h.T)
            taus.append(t)
    k = min(s[-2], s[-1])
    a = (np.stack(hs) if hs else np.zeros((0,) + s[-2:])).reshape(s).astype(self._data.dtype)
    t = (np.stack(taus) if taus else np.zeros((0, k))).reshape(s[:-2] + (k,)).astype(
        self._data.dtype)
    cdef Tensor at = make(_column_major(a)), tt = make(np.ascontiguousarray(t))
    record_GeqrfBackward0(at, tt, self)
    return (at, tt)


cdef Tensor op_ormqr(Tensor self, Tensor input2, Tensor input3, bint left, bint transpose):
    cdef str fname = "autograd_core.ormqr"
    if _ndim(self) < 2:
        raise RuntimeError(f"{fname}: input must have at least 2 dimensions.")
    if _ndim(input3) < 2:
        raise RuntimeError(f"{fname}: other must have at least 2 dimensions.")
    if _ndim(input3) != _ndim(self):
        raise RuntimeError(f"{fname}: Expected other to have the same number of dimensions as "
                           f"input, but got other.ndim equal to {_ndim(input3)} and input.ndim "
                           f"is equal to {_ndim(self)}")
    if _ndim(self) - _ndim(input2) != 1:
        raise RuntimeError(f"{fname}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {_ndim(input2)} and input.ndim is equal to "
                           f"{_ndim(self)}")
    cdef tuple sa = shape_of(self._data), sc = shape_of(input3._data)
    if shape_of(input2._data)[:-1] != sa[:-2]:
        raise RuntimeError(f"{fname}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(shape_of(input2._data)[:-1])}")
    if sc[:-2] != sa[:-2]:
        raise RuntimeError(f"{fname}: Expected batch dimensions of other to be equal to "
                           f"input.shape[:-2], but got {list(sc[:-2])}")
    cdef Py_ssize_t mm = sc[-2] if left else sc[-1]
    if sa[-2] != mm:
        raise RuntimeError(f"{fname}: input.shape[-2] must be equal to other.shape[{-2 if left else -1}]")
    cdef Py_ssize_t kk = min(mm, sa[-1])
    if shape_of(input2._data)[-1] != kk:
        raise RuntimeError(f"{fname}: tau.shape[-1] must be equal to min(other.shape"
                           f"[{-2 if left else -1}], input.shape[-1])")
    a = self._data
    if sa[-1] > sa[-2]:
        a = a[..., :, :sa[-2]]
    Q = _householder_values(a, input2._data, True)
    Qo = np.swapaxes(Q, -1, -2) if transpose else Q
    with quiet():
        out = Qo @ input3._data if left else input3._data @ Qo
    cdef Tensor result = make(_column_major(out))
    record_OrmqrBackward0(result, self, input2, input3, left, transpose)
    return result


cdef tuple _ormqr_grads(Tensor grad, Tensor A, Tensor tau, Tensor C, bint left, bint transpose):
    """Through Q: result = op(Q) C (or C op(Q)); dL/dQ from the product, then the
    Householder product's gradient."""
    cdef tuple s = shape_of(A._data)
    cdef Py_ssize_t m = s[-2], n = s[-1]
    cdef Tensor gOp = op_matmul(grad, _mT(C)) if left else op_matmul(_mT(C), grad)
    cdef Tensor gQ = _mT(gOp) if transpose else gOp
    cdef Tensor Ap = A if n <= m else _narrow(A, -1, 0, m)
    if n < m:
        Ap = OPS.cat([A, zeros(s[:-1] + (m - n,), dtype_of(A._data))], -1)
    gA, gt = _householder_grads(gQ, Ap, tau, m)
    gA = <Tensor>gA
    if n < m:
        gA = _narrow(gA, -1, 0, n)
    elif n > m:
        gA = OPS.cat([gA, zeros(shape_of(gA._data)[:-1] + (n - m,), dtype_of(A._data))], -1)
    return gA, gt


cdef Tensor ormqr_backward_self(Tensor grad, Tensor A, Tensor tau, Tensor C, bint left,
                                bint transpose):
    return <Tensor>_ormqr_grads(grad, A, tau, C, left, transpose)[0]


cdef Tensor ormqr_backward_tau(Tensor grad, Tensor A, Tensor tau, Tensor C, bint left,
                               bint transpose):
    return <Tensor>_ormqr_grads(grad, A, tau, C, left, transpose)[1]


# ---------------------------------------------------------------- LDL (sytrf / sytrs)

cdef tuple _sytf2_lower(object m):
    """LAPACK's dsytf2 with UPLO='L' (Bunch-Kaufman pivoting): (the factor, 1-based
    pivots with negative entries for 2x2 blocks, info)."""
    a = np.array(m, dtype=np.float64)
    cdef Py_ssize_t n = a.shape[0], k = 0, kstep, imax, jmax, kp, kk, j
    piv = np.zeros(n, dtype=np.int32)
    info = 0
    alpha = (1.0 + np.sqrt(17.0)) / 8.0
    while k < n:
        kstep = 1
        absakk = abs(a[k, k])
        if k < n - 1:
            imax = k + 1 + int(np.argmax(np.abs(a[k + 1:, k])))
            colmax = abs(a[imax, k])
        else:
            imax = k
            colmax = 0.0
        if max(absakk, colmax) == 0.0 or absakk != absakk:
            if info == 0:
                info = k + 1
            kp = k
        else:
            if absakk >= alpha * colmax:
                kp = k
            else:
                jmax = k + int(np.argmax(np.abs(a[imax, k:imax])))
                rowmax = abs(a[imax, jmax])
                if imax < n - 1:
                    jmax = imax + 1 + int(np.argmax(np.abs(a[imax + 1:, imax])))
                    rowmax = max(rowmax, abs(a[jmax, imax]))
                if absakk >= alpha * colmax * (colmax / rowmax):
                    kp = k
                elif abs(a[imax, imax]) >= alpha * rowmax:
                    kp = imax
                else:
                    kp = imax
                    kstep = 2
            kk = k + kstep - 1
            if kp != kk:
                if kp < n - 1:
                    tmp = a[kp + 1:, kk].copy()
                    a[kp + 1:, kk] = a[kp + 1:, kp]
                    a[kp + 1:, kp] = tmp
                tmp = a[kk + 1:kp, kk].copy()
                a[kk + 1:kp, kk] = a[kp, kk + 1:kp]
                a[kp, kk + 1:kp] = tmp
                a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
                if kstep == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            if kstep == 1:
                if k < n - 1:
                    d11 = 1.0 / a[k, k]
                    x = a[k + 1:, k].copy()
                    a[k + 1:, k + 1:] -= np.tril(d11 * np.outer(x, x))
                    a[k + 1:, k] *= d11
            elif k < n - 2:
                d21 = a[k + 1, k]
                d11 = a[k + 1, k + 1] / d21
                d22 = a[k, k] / d21
                t = 1.0 / (d11 * d22 - 1.0)
                d21 = t / d21
                for j in range(k + 2, n):
                    wk = d21 * (d11 * a[j, k] - a[j, k + 1])
                    wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
                    a[j:, j] -= a[j:, k] * wk + a[j:, k + 1] * wkp1
                    a[j, k] = wk
                    a[j, k + 1] = wkp1
        if kstep == 1:
            piv[k] = kp + 1
        else:
            piv[k] = -(kp + 1)
            piv[k + 1] = -(kp + 1)
        k += kstep
    return np.tril(a), piv, info


cdef tuple op_linalg_ldl_factor_ex(Tensor A, bint hermitian, bint check_errors):
    _check_linalg_input(A, "autograd_core.linalg.ldl_factor_ex", True)
    _check_low_precision(A, "autograd_core.linalg.ldl_factor_ex")
    cdef tuple s = shape_of(A._data)
    mats = _mats(A._data, 2)
    lds, pivs, infos = [], [], []
    with quiet():
        for i in range(mats.shape[0]):
            ld, pv, inf = _sytf2_lower(mats[i])
            lds.append(ld)
            pivs.append(pv)
            infos.append(inf)
    d = A._data.dtype
    ld = (np.stack(lds) if lds else np.zeros((0,) + s[-2:])).reshape(s).astype(d)
    pv = (np.stack(pivs) if pivs else np.zeros((0, s[-1]))).reshape(s[:-1]).astype(np.int32)
    info = np.asarray(infos, dtype=np.int32).reshape(s[:-2])
    if check_errors and (info > 0).any():
        b = int(np.argmax(info.reshape(-1) > 0))
        raise _LinAlgError(f"autograd_core.linalg.ldl_factor_ex: {_batch_prefix(s[:-2], b)}The "
                           f"factorization could not be completed because the input is "
                           "singular (its D factor has a zero diagonal entry).")
    cdef Tensor LDt = make(_column_major(ld)), Pt = _int_tensor(pv, int32)
    cdef Tensor It = _int_tensor(info, int32)
    OPS.not_implemented_node(LDt, (A,), "linalg_ldl_factor_ex")   # (PyTorch has no derivative)
    return (LDt, Pt, It)


cdef tuple op_linalg_ldl_factor(Tensor A, bint hermitian):
    cdef tuple r = op_linalg_ldl_factor_ex(A, hermitian, True)
    return (r[0], r[1])


cdef object _sytrs_lower(object a, object piv, object b):
    """LAPACK's dsytrs with UPLO='L': X with A X = B from sytf2's factor."""
    x = np.array(b, dtype=np.float64)
    cdef Py_ssize_t n = a.shape[0], k = 0, kp
    while k < n:
        if piv[k] > 0:
            kp = piv[k] - 1
            if kp != k:
                x[[k, kp]] = x[[kp, k]]
            if k < n - 1:
                x[k + 1:] -= np.outer(a[k + 1:, k], x[k])
            x[k] /= a[k, k]
            k += 1
        else:
            kp = -piv[k] - 1
            if kp != k + 1:
                x[[k + 1, kp]] = x[[kp, k + 1]]
            if k < n - 2:
                x[k + 2:] -= np.outer(a[k + 2:, k], x[k])
                x[k + 2:] -= np.outer(a[k + 2:, k + 1], x[k + 1])
            akm1k = a[k + 1, k]
            akm1 = a[k, k] / akm1k
            ak = a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1.0
            bkm1 = x[k] / akm1k
            bk = x[k + 1] / akm1k
            x[k] = (ak * bkm1 - bk) / denom
            x[k + 1] = (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:
        if piv[k] > 0:
            if k < n - 1:
                x[k] -= a[k + 1:, k] @ x[k + 1:]
            kp = piv[k] - 1
            if kp != k:
                x[[k, kp]] = x[[kp, k]]
            k -= 1
        else:
            if k < n - 1:
                x[k] -= a[k + 1:, k] @ x[k + 1:]
                x[k - 1] -= a[k + 1:, k - 1] @ x[k + 1:]
            kp = -piv[k] - 1
            if kp != k:
                x[[k, kp]] = x[[kp, k]]
            k -= 2
    return x


cdef Tensor op_linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, bint hermitian):
    cdef str fname = "autograd_core.linalg.ldl_solve"
    _check_linalg_input(LD, fname, True)
    if _ndim(B) < 2:
        raise RuntimeError(f"{fname}: B must have at least 2 dimensions, but got {_ndim(B)} "
                           "dimensions.")
    if dtype_of(pivots._data) is not int32:
        raise RuntimeError(f"{fname}: Expected pivots to be integers. Got "
                           f"{dtype_of(pivots._data).scalar_name}")
    if dtype_of(LD._data) is not dtype_of(B._data):
        raise RuntimeError(f"{fname}: LD dtype {dtype_of(LD._data)} does not match b dtype "
                           f"{dtype_of(B._data)}")
    cdef tuple sl = shape_of(LD._data), sb = shape_of(B._data)
    if sl[-1] != sb[-2]:
        raise RuntimeError(f"{fname}: Incompatible shapes of A and B for the equation AX = B "
                           f"({sl[-2]}x{sl[-1]} and {sb[-2]}x{sb[-1]})")
    batch = broadcast_shapes(sl[:-2], sb[:-2])
    a = _mats(np.broadcast_to(LD._data, batch + sl[-2:]), 2)
    p = _mats(np.broadcast_to(pivots._data, batch + sl[-1:]), 1)
    b = _mats(np.broadcast_to(B._data, batch + sb[-2:]), 2)
    with quiet():
        outs = [_sytrs_lower(a[i], p[i], b[i]) for i in range(a.shape[0])]
    out = (np.stack(outs) if outs else np.zeros((0,) + sb[-2:])).reshape(batch + sb[-2:])
    return make(_column_major(out.astype(B._data.dtype)))


# ---------------------------------------------------------------- compositions

cdef Tensor op_linalg_matmul(Tensor input, Tensor other):
    return op_matmul(input, other)


cdef Tensor op_linalg_diagonal(Tensor A, object offset, object dim1, object dim2):
    return OPS.diagonal(A, offset, dim1, dim2)


cdef Tensor op_linalg_vecdot(Tensor x, Tensor y, object dim):
    if dtype_of(x._data) is not dtype_of(y._data):
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {dtype_of(x._data).scalar_name} and y of type "
                           f"{dtype_of(y._data).scalar_name} instead")
    if _ndim(x) == 1 and _ndim(y) == 1:
        wrap_dim(dim, 1)
        return op_vdot(x, y)      # PyTorch's shortcut for two vectors
    return OPS.sum(OPS.mul(x, y), (dim,), False, None)


cdef Tensor op_linalg_cross(Tensor input, Tensor other, object dim):
    if dtype_of(input._data) is not dtype_of(other._data):
        raise RuntimeError(f"expected scalar type {dtype_of(input._data).scalar_name} but found "
                           f"{dtype_of(other._data).scalar_name}")
    cdef Py_ssize_t na = _ndim(input), nb = _ndim(other)
    if na != nb:
        raise RuntimeError(f"linalg.cross: inputs must have the same number of dimensions.")
    cdef tuple out_shape = broadcast_shapes(shape_of(input._data), shape_of(other._data))
    cdef Py_ssize_t d = wrap_dim(dim, len(out_shape))
    cdef Py_ssize_t la = shape_of(input._data)[d], lb = shape_of(other._data)[d]
    if la != 3 or lb != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {la} "
                           f"and {lb}")
    check_not_bool_kernel(dtype_of(input._data), "linalg_cross")
    with quiet():
        out = np.cross(np.broadcast_to(input._data, out_shape),
                       np.broadcast_to(other._data, out_shape), axis=d)
    cdef Tensor result = make(np.ascontiguousarray(out).astype(input._data.dtype, copy=False))
    record_LinalgCrossBackward0(result, input, other, dim)
    return result


cdef Tensor op_cross(Tensor self, Tensor other, object dim):
    if dim is None:
        warnings.warn(
            "Using autograd_core.cross without specifying the dim arg is deprecated.\nPlease either "
            "pass the dim explicitly or simply use autograd_core.linalg.cross.\nThe default value of "
            "dim will change to agree with that of linalg.cross in a future release.",
            UserWarning, stacklevel=2)
        shape = broadcast_shapes(shape_of(self._data), shape_of(other._data)) \
            if _ndim(self) == _ndim(other) else shape_of(self._data)
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise RuntimeError(f"no dimension of size 3 in input")
    return op_linalg_cross(self, other, dim)


cdef Tensor op_linalg_vander(Tensor x, object N):
    cdef dtype d = dtype_of(x._data)
    if d.category == CAT_BOOL:
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer "
                           f"tensors, but got {d.scalar_name}")
    cdef Tensor x_ = OPS.unsqueeze(x, -1) if _ndim(x) == 0 else x
    shape = list(shape_of(x_._data))
    cdef Py_ssize_t n = shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    shape.append(n - 1)
    cdef Tensor result = OPS.cumprod(OPS.expand(OPS.unsqueeze(x_, -1), tuple(shape)), -1, None)
    shape[-1] = 1
    return OPS.cat([make(np.ones(tuple(shape), dtype=result._data.dtype)), result], -1)


cdef Tensor op_linalg_multi_dot(list tensors):
    cdef Py_ssize_t n = len(tensors), i, j, k, l
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    cdef list ts = list(tensors)
    cdef Tensor first = ts[0], last = ts[n - 1]
    if _ndim(first) not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got "
                           f"{_ndim(first)}D")
    if _ndim(last) not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got "
                           f"{_ndim(last)}D")
    for i in range(1, n - 1):
        if _ndim(<Tensor>ts[i]) != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got "
                               f"{_ndim(<Tensor>ts[i])}D")
    d0 = dtype_of(first._data)
    for i in range(1, n):
        if dtype_of((<Tensor>ts[i])._data) is not d0:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor "
                               f"0 is {d0.scalar_name} and tensor {i} "
                               f"{dtype_of((<Tensor>ts[i])._data).scalar_name}")
    out_shape = []
    if _ndim(first) == 1:
        ts[0] = OPS.unsqueeze(first, 0)
    else:
        out_shape.append(shape_of(first._data)[0])
    if _ndim(last) == 1:
        ts[n - 1] = OPS.unsqueeze(last, -1)
    else:
        out_shape.append(shape_of(last._data)[1])
    for i in range(n - 1):
        sa = shape_of((<Tensor>ts[i])._data)
        sb = shape_of((<Tensor>ts[i + 1])._data)
        if sa[1] != sb[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(shape_of((<Tensor>tensors[i])._data))} "
                f"and {list(shape_of((<Tensor>tensors[i + 1])._data))} cannot be multiplied")
    cdef Tensor result
    if n == 2:
        result = op_mm(ts[0], ts[1])
    elif n == 3:
        a = shape_of((<Tensor>ts[0])._data)[0]
        b = shape_of((<Tensor>ts[1])._data)[0]
        c = shape_of((<Tensor>ts[2])._data)[0]
        dd = shape_of((<Tensor>ts[2])._data)[1]
        cost_1 = (a * c) * (b + dd)
        cost_2 = (b * dd) * (a + c)
        if cost_1 > cost_2:
            result = op_mm(ts[0], op_mm(ts[1], ts[2]))
        else:
            result = op_mm(op_mm(ts[0], ts[1]), ts[2])
    else:
        p = [shape_of((<Tensor>t)._data)[0] for t in ts] + [shape_of((<Tensor>ts[n - 1])._data)[1]]
        cost = [[0] * n for _ in range(n)]
        order = [[0] * n for _ in range(n)]
        for l in range(1, n):
            for i in range(n - l):
                j = i + l
                cost[i][j] = None
                for k in range(i, j):
                    q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                    if cost[i][j] is None or q < cost[i][j]:
                        cost[i][j] = q
                        order[i][j] = k
        result = _chain(ts, order, 0, n - 1)
    return OPS.view(result, tuple(out_shape))


cdef Tensor _chain(list ts, list order, Py_ssize_t i, Py_ssize_t j):
    if i == j:
        return ts[i]
    return op_mm(_chain(ts, order, i, order[i][j]), _chain(ts, order, order[i][j] + 1, j))


cdef Tensor op_chain_matmul(list matrices):
    warnings.warn("autograd_core.chain_matmul is deprecated and will be removed in a future PyTorch "
                  "release. Use autograd_core.linalg.multi_dot instead, which accepts a list of two or "
                  "more tensors rather than multiple parameters.", UserWarning, stacklevel=2)
    if len(matrices) == 0:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for i, t in enumerate(matrices):
        if _ndim(<Tensor>t) != 2:
            raise RuntimeError(f"Tensor dimension is {_ndim(<Tensor>t)}, expected 2 instead.")
    if len(matrices) == 1:
        return OPS.clone(<Tensor>matrices[0], None)
    return op_linalg_multi_dot(matrices)


def _py_chain_matmul(*matrices, out=None):
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = matrices[0]
    matrices = arg_tensor_list(list(matrices), "chain_matmul")
    check_complex_args("chain_matmul", (matrices,))  # Note [Dtype guard]
    res = OPS.chain_matmul(matrices)
    if out is None:
        return res
    if len(matrices) == 1:
        # PyTorch's out= copies the matrix itself into out: any dtype, and a graph
        # through copy_ straight to the matrix (Note [out= rules])
        return with_out("chain_matmul", out, matrices[0], None, OUT_ANY_CAST | OUT_GRAD_COPY)
    out_check("chain_matmul", out, 1)
    return out_write("mm", out, res, None, OUT_EXACT)   # (mm's out= and its autograd error)


cdef Tensor op_linalg_tensorinv(Tensor A, object ind):
    cdef Py_ssize_t k = ind
    if k <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {k}")
    cdef tuple s = shape_of(A._data)
    end = s[k:]
    start = s[:k]
    pe = shape_numel(tuple(end))
    ps = shape_numel(tuple(start))
    if pe != ps:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {pe} != {ps}")
    cdef Tensor inv = op_linalg_inv(OPS.reshape(A, (pe, pe)))
    return OPS.reshape(inv, tuple(end) + tuple(start))


cdef Tensor op_linalg_tensorsolve(Tensor A, Tensor B, object dims):
    cdef Py_ssize_t nd = _ndim(A)
    cdef Tensor A_ = A
    if dims is not None:
        dims = list(dims)
        dest = list(range(nd - len(dims), nd))
        A_ = OPS.movedim(A, tuple(dims), tuple(dest))
    cdef tuple s = shape_of(A_._data)
    result_shape = s[_ndim(B):]
    rp = shape_numel(tuple(result_shape))
    op_ = shape_numel(shape_of(B._data))
    if rp != op_:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:])"
                           f" == prod(self.shape[:other.ndim]), but got {rp} != {op_}")
    cdef Tensor X = op_linalg_solve(OPS.reshape(A_, (rp, rp)), OPS.reshape(B, (-1,)), True)
    return OPS.reshape(X, tuple(result_shape))


cdef Tensor op_inner(Tensor self, Tensor other):
    if _ndim(self) == 0 or _ndim(other) == 0:
        return OPS.mul(self, other)
    cdef tuple sa = shape_of(self._data), sb = shape_of(other._data)
    if sa[-1] != sb[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got "
                           f"shapes {list(sa)} and {list(sb)}")
    return _tensordot(self, other, [-1], [-1])


cdef Tensor op_vdot(Tensor self, Tensor other):
    cdef int na = _ndim(self), nb = _ndim(other)
    if na != 1 or nb != 1:
        raise RuntimeError(f"1D tensors expected, but got {na}D and {nb}D tensors")
    if dtype_of(self._data) is not dtype_of(other._data):
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{dtype_of(self._data).scalar_name} and "
                           f"{dtype_of(other._data).scalar_name}")
    cdef Py_ssize_t n = shape_of(self._data)[0], m = shape_of(other._data)[0]
    if n != m:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
            f"number of elements, but got {n} and {m} elements respectively")
    check_not_bool_kernel(dtype_of(self._data), "vdot")
    # (np.vdot conjugates the first vector: the same as np.dot for real ones)
    cdef Tensor result = make(as_array(np.vdot(self._data, other._data)
                                       if cnp.PyArray_ISCOMPLEX(self._data)
                                       else _product(np.dot, self._data, other._data)))
    blas_called(n)      # Note [Sharing the cores with BLAS]
    record_VdotBackward0(result, self, other)
    return result


cdef Tensor op_adjoint(Tensor self):
    if _ndim(self) < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of "
                           f"matrices. Got {_ndim(self)}-D tensor.")
    if cnp.PyArray_ISCOMPLEX(self._data):
        # no lazy conjugate bit: the conjugate transpose is computed (as conj()), through
        # the ops so that it has their history (Note [Complex autograd])
        return OPS.conj(OPS.transpose(self, -2, -1))
    return OPS.transpose(self, -2, -1)


cdef void _check_same_dtypes(tuple ts) except *:
    d = dtype_of((<Tensor>ts[0])._data)
    for t in ts[1:]:
        if dtype_of((<Tensor>t)._data) is not d:
            raise RuntimeError(f"expected scalar type {d.scalar_name} but found "
                               f"{dtype_of((<Tensor>t)._data).scalar_name}")


cdef Tensor _add_scaled(Tensor self, object prod, tuple out_shape, object beta, object alpha,
                        dtype d):
    inp = self._data
    if shape_of(inp) != out_shape and not broadcasts_to(shape_of(inp), out_shape):
        OPS.expand(self, out_shape)   # PyTorch's expand error
    with quiet():
        if alpha != 1:
            prod = prod * alpha
        if beta == 0:
            out = prod
        elif beta == 1:
            out = prod + inp
        else:
            out = prod + inp * beta
    return make(np.array(np.broadcast_to(out, out_shape), dtype=d.np_dtype))


cdef Tensor op_addmv(Tensor self, Tensor mat, Tensor vec, object beta, object alpha):
    cdef int nm = _ndim(mat), nv = _ndim(vec)
    if nm != 2 or nv != 1 or _ndim(self) > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {_ndim(self)}, {nm}, {nv}")
    cdef tuple sm = shape_of(mat._data), sv = shape_of(vec._data)
    if sm[1] != sv[0] or (_ndim(self) == 1 and shape_of(self._data)[0] not in (1, sm[0])):
        raise RuntimeError(f"size mismatch, got input ({shape_of(self._data)[0] if _ndim(self) else 1}), "
                           f"mat ({sm[0]}x{sm[1]}), vec ({sv[0]})")
    _check_same_dtypes((self, mat, vec))
    check_not_bool_kernel(dtype_of(mat._data), "addmv_impl_cpu")
    cdef Tensor result = _add_scaled(self, _product(np.matmul, mat._data, vec._data), (sm[0],), beta,
                                     alpha, dtype_of(mat._data))
    record_AddmvBackward0(result, self, mat, vec, beta, alpha)
    return result


cdef Tensor op_addr(Tensor self, Tensor vec1, Tensor vec2, object beta, object alpha):
    if _ndim(vec1) != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {_ndim(vec1)}-D")
    if _ndim(vec2) != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec2, but got {_ndim(vec2)}-D")
    _check_same_dtypes((self, vec1, vec2))
    cdef tuple out_shape = (shape_of(vec1._data)[0], shape_of(vec2._data)[0])
    cdef Tensor result = _add_scaled(self, np.outer(vec1._data, vec2._data), out_shape, beta,
                                     alpha, dtype_of(vec1._data))
    record_AddrBackward0(result, self, vec1, vec2, beta, alpha)
    return result


cdef tuple _check_bmm_args(Tensor b1, Tensor b2):
    if _ndim(b1) != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if _ndim(b2) != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    cdef tuple s1 = shape_of(b1._data), s2 = shape_of(b2._data)
    if s1[0] != s2[0] or s1[2] != s2[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{s1[0]}, {s1[2]}] "
            f"but got: [{s2[0]}, {s2[1]}].")
    return s1, s2


cdef Tensor op_baddbmm(Tensor self, Tensor batch1, Tensor batch2, object beta, object alpha):
    s1, s2 = _check_bmm_args(batch1, batch2)
    _check_same_dtypes((self, batch1, batch2))
    cdef Tensor result = _add_scaled(self, _product(np.matmul, batch1._data, batch2._data),
                                     (s1[0], s1[1], s2[2]), beta, alpha, dtype_of(batch1._data))
    record_BaddbmmBackward0(result, self, batch1, batch2, beta, alpha)
    return result


cdef Tensor op_addbmm(Tensor self, Tensor batch1, Tensor batch2, object beta, object alpha):
    s1, s2 = _check_bmm_args(batch1, batch2)
    _check_same_dtypes((self, batch1, batch2))
    cdef Tensor result = _add_scaled(self, _product(np.matmul, batch1._data, batch2._data).sum(axis=0),
                                     (s1[1], s2[2]), beta, alpha, dtype_of(batch1._data))
    record_AddbmmBackward0(result, self, batch1, batch2, beta, alpha)
    return result


cdef Tensor addbmm_backward_batch1(Tensor grad, Tensor batch1, Tensor batch2, object alpha):
    cdef tuple s1 = shape_of(batch1._data), s2 = shape_of(batch2._data)
    cdef Tensor g = OPS.expand(OPS.unsqueeze(grad, 0), (s1[0], s1[1], s2[2]))
    cdef Tensor out = op_bmm(g, OPS.transpose(batch2, 1, 2))
    return out if alpha == 1 else OPS.mul(out, alpha)


cdef Tensor addbmm_backward_batch2(Tensor grad, Tensor batch1, Tensor batch2, object alpha):
    cdef tuple s1 = shape_of(batch1._data), s2 = shape_of(batch2._data)
    cdef Tensor g = OPS.expand(OPS.unsqueeze(grad, 0), (s1[0], s1[1], s2[2]))
    cdef Tensor out = op_bmm(OPS.transpose(batch1, 1, 2), g)
    return out if alpha == 1 else OPS.mul(out, alpha)


cdef Tensor op_dist(Tensor self, Tensor other, object p):
    if dtype_of(self._data) is not dtype_of(other._data):
        raise RuntimeError(f"expected both inputs to have same dtype, but found "
                           f"{dtype_of(self._data).scalar_name} and "
                           f"{dtype_of(other._data).scalar_name}")
    cdef Tensor diff
    with NoGradGuard():
        diff = OPS.sub(self, other, 1)
        n = op_linalg_vector_norm(diff, p, None, False, None)
    cdef Tensor result = make(n._data)
    record_DistBackward0(result, self, other, p)
    return result


def _py_nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    """Deprecated: linalg.matrix_norm(input, 'nuc', dim, keepdim).

    >>> import autograd_core as torch
    >>> autograd_core.nuclear_norm(autograd_core.tensor([[3., 0.], [0., 4.]]))
    tensor(7.)
    """
    if isinstance(dim, bool):
        dim, keepdim = None, dim
    return with_out("nuclear_norm", out,
                    OPS.nuclear_norm(arg_tensor(input, "nuclear_norm", "input", 1), dim,
                                    arg_bool(keepdim, "nuclear_norm", "keepdim", 3)), None,
                    OUT_EXACT | OUT_GRAD_COPY)


cdef Tensor op_nuclear_norm(Tensor self, object dim, bint keepdim):
    warnings.warn("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It "
                  "will be removed in a future PyTorch release. Please use "
                  "`linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead", UserWarning,
                  stacklevel=2)
    if dim is None:
        if _ndim(self) != 2:
            raise RuntimeError(f"Expected a tensor with 2 dimensions, but got a tensor with "
                               f"{_ndim(self)} dimension{'' if _ndim(self) == 1 else 's'} instead.")
        dim = (0, 1)
    return op_linalg_matrix_norm(self, "nuc", tuple(dim), keepdim, None)


cdef Tensor op_frobenius_norm(Tensor self, object dim, bint keepdim):
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions "
                           "instead.")
    return op__norm_dim(self, 2, dim, keepdim)


cdef Tensor op__norm_dim(Tensor self, object p, object dim, bint keepdim):
    cdef Tensor n
    with NoGradGuard():
        n = op_linalg_vector_norm(self, p, tuple(dim), keepdim, None)
    cdef Tensor result = make(n._data)
    record_NormBackward1(result, self, p, dim, keepdim)
    return result


# ---------------------------------------------------------------- distances

cdef object _dist_grad_values(object g, object diff, object dist, double p):
    """PyTorch's cdist/pdist backward kernels: the gradient of ||diff||_p times g, per
    element of diff (g and dist broadcast against diff's last dim)."""
    with quiet():
        if p == 0.0:
            return np.zeros_like(diff)
        sgn = np.sign(diff)
        if p == 1.0:
            return g * sgn
        if p == np.inf:
            return g * sgn * (np.abs(diff) == dist)
        if p == 2.0:
            return np.where(dist == 0, 0, g * diff / np.where(dist == 0, 1, dist))
        safe = np.where(dist == 0, 1, dist)
        if p < 2.0:
            out = sgn * np.power(np.abs(diff), p - 1) * g / np.power(safe, p - 1)
            zero = (dist == 0) | ((diff == 0) & (p < 1))
            return np.where(zero, 0, out)
        out = diff * np.power(np.abs(diff), p - 2) * g / np.power(safe, p - 1)
        return np.where(dist == 0, 0, out)


cdef object _pnorm_values(object diff, double p):
    with quiet():
        a = np.abs(diff)
        if p == 0.0:
            return (a != 0).sum(axis=-1).astype(diff.dtype)
        if p == np.inf:
            return a.max(axis=-1) if a.shape[-1] else np.zeros(a.shape[:-1], dtype=a.dtype)
        if p == 1.0:
            return a.sum(axis=-1)
        if p == 2.0:
            return np.sqrt((a * a).sum(axis=-1))
        return np.power(np.power(a, p).sum(axis=-1), 1.0 / p)


cdef Tensor op__cdist_forward(Tensor x1, Tensor x2, object p, object compute_mode):
    cdef double pp = p
    diff = x1._data[..., :, None, :] - x2._data[..., None, :, :]
    cdef Tensor result = make(np.ascontiguousarray(_pnorm_values(diff, pp)))
    record_CdistBackward0(result, x1, x2, p, compute_mode)
    return result


cdef Tensor op__cdist_backward(Tensor grad, Tensor x1, Tensor x2, object p, Tensor cdist):
    diff = x1._data[..., :, None, :] - x2._data[..., None, :, :]
    g = _dist_grad_values(grad._data[..., None], diff, cdist._data[..., None], p)
    cdef Tensor result = make(np.ascontiguousarray(g.sum(axis=-2)))
    record_CdistBackwardBackward0(result, grad, x1, x2, p, cdist)
    return result


cdef Tensor op__euclidean_dist(Tensor x1, Tensor x2):
    a, b = x1._data, x2._data
    with quiet():
        n1 = (a * a).sum(axis=-1, keepdims=True)
        n2 = (b * b).sum(axis=-1, keepdims=True)
        x1_ = np.concatenate([a * -2, n1, np.ones_like(n1)], axis=-1)
        x2_ = np.concatenate([b, np.ones_like(n2), n2], axis=-1)
        out = np.sqrt(np.maximum(x1_ @ np.swapaxes(x2_, -1, -2), 0))
    cdef Tensor result = make(np.ascontiguousarray(out))
    record_EuclideanDistBackward0(result, x1, x2)
    return result


cdef Tensor _euclid_ratio(Tensor grad, Tensor res):
    return OPS.masked_fill(OPS.div(grad, res, None), OPS.eq(res, 0), 0)


cdef Tensor euclidean_dist_backward_x1(Tensor grad, Tensor x1, Tensor x2, Tensor res):
    cdef Tensor ratio = _euclid_ratio(grad, res)
    return OPS.sub(OPS.mul(x1, OPS.sum(ratio, (-1,), True, None)), op_matmul(ratio, x2), 1)


cdef Tensor euclidean_dist_backward_x2(Tensor grad, Tensor x1, Tensor x2, Tensor res):
    cdef Tensor ratio = _euclid_ratio(grad, res)
    return OPS.sub(OPS.mul(x2, OPS.unsqueeze(OPS.sum(ratio, (-2,), False, None), -1)),
                   op_matmul(_mT(ratio), x1), 1)


cdef Tensor op_cdist(Tensor x1, Tensor x2, object p, object compute_mode):
    cdef Py_ssize_t n1 = _ndim(x1), n2 = _ndim(x2)
    if n1 < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {n1}D")
    if n2 < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {n2}D")
    cdef tuple s1 = shape_of(x1._data), s2 = shape_of(x2._data)
    if s1[-1] != s2[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {s1[-1]} "
                           f"X2: {s2[-1]}")
    d1, d2 = dtype_of(x1._data), dtype_of(x2._data)
    if d1.category != CAT_FLOAT:
        raise RuntimeError(f"cdist only supports floating-point dtypes, X1 got: {d1.scalar_name}")
    if d2.category != CAT_FLOAT:
        raise RuntimeError(f"cdist only supports floating-point dtypes, X2 got: {d2.scalar_name}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    modes = {None: 0, "use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
             "donot_use_mm_for_euclid_dist": 2}
    if compute_mode not in modes:
        raise RuntimeError(f"{compute_mode} is not a valid value for compute_mode")
    cdef int mode = modes[compute_mode]
    cdef Py_ssize_t r1 = s1[-2], r2 = s2[-2]
    cdef bint through_mm = float(p) == 2.0 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))
    # PyTorch's dtype errors come from the kernel each path reaches: mm's check, or the
    # cdist kernel's dispatch on X1 (no Half) and its read of X2
    if through_mm and d1 is not d2:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{d1.cpp_name} != {d2.cpp_name}")
    if not through_mm and d1 is float16:
        raise NotImplementedError("\"cdist\" not implemented for 'Half'")
    if d1 is not d2:
        raise RuntimeError(f"expected scalar type {d1.scalar_name} but found {d2.scalar_name}")
    batch = broadcast_shapes(s1[:-2], s2[:-2])
    if through_mm:
        a = x1 if s1[:-2] == batch else OPS.expand(x1, batch + s1[-2:])
        b = x2 if s2[:-2] == batch else OPS.expand(x2, batch + s2[-2:])
        return OPS.view(op__euclidean_dist(a, b), batch + (r1, r2))
    return op__cdist_forward(x1, x2, p, None if compute_mode is None else mode)


cdef Tensor op_pdist(Tensor self, object p):
    if _ndim(self) != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {_ndim(self)}D")
    if dtype_of(self._data).category != CAT_FLOAT:
        raise RuntimeError(f"pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    cdef Py_ssize_t n = shape_of(self._data)[0]
    i, j = np.triu_indices(n, 1)
    x = self._data
    cdef Tensor result = make(np.ascontiguousarray(_pnorm_values(x[i] - x[j], p)))
    record_PdistBackward0(result, self, p)
    return result


cdef Tensor op__pdist_backward(Tensor grad, Tensor self, object p, Tensor pdist):
    cdef Py_ssize_t n = shape_of(self._data)[0]
    i, j = np.triu_indices(n, 1)
    x = self._data
    g = _dist_grad_values(grad._data[:, None], x[i] - x[j], pdist._data[:, None], p)
    out = np.zeros_like(x)
    np.add.at(out, i, g)
    np.add.at(out, j, -g)
    cdef Tensor result = make(out)
    record_PdistBackwardBackward0(result, grad, self, p, pdist)
    return result


# ---------------------------------------------------------------- cov, corrcoef

cdef Tensor op_cov(Tensor self, object correction, Tensor fweights, Tensor aweights):
    if _ndim(self) > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {_ndim(self)} dimensions")
    if dtype_of(self._data).category == CAT_BOOL:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    cdef Tensor inp = OPS.view(self, (1, -1)) if _ndim(self) < 2 else self
    cdef Py_ssize_t nobs = shape_of(inp._data)[1]
    w = None
    cdef Tensor fw, aw
    if fweights is not None:
        fw = <Tensor>fweights
        if _ndim(fw) > 1:
            raise RuntimeError("cov(): expected fweights to have one or fewer dimensions but "
                               f"got fweights with {_ndim(fw)} dimensions")
        if dtype_of(fw._data).category == CAT_FLOAT or dtype_of(fw._data).category == CAT_BOOL:
            raise RuntimeError("cov(): expected fweights to have integral dtype but got "
                               f"fweights with {dtype_of(fw._data).scalar_name} dtype")
        if cnp.PyArray_SIZE(fw._data) != nobs:
            raise RuntimeError("cov(): expected fweights to have the same numel as there are "
                               f"observations in the input but got {cnp.PyArray_SIZE(fw._data)} "
                               f"!= {nobs}")
        if nobs and fw._data.min() < 0:
            raise RuntimeError("cov(): fweights cannot be negative")
        w = fw
    if aweights is not None:
        aw = <Tensor>aweights
        if _ndim(aw) > 1:
            raise RuntimeError("cov(): expected aweights to have one or fewer dimensions but "
                               f"got aweights with {_ndim(aw)} dimensions")
        if dtype_of(aw._data).category != CAT_FLOAT:
            raise RuntimeError("cov(): expected aweights to have floating point dtype but got "
                               f"aweights with {dtype_of(aw._data).scalar_name} dtype")
        if cnp.PyArray_SIZE(aw._data) != nobs:
            raise RuntimeError("cov(): expected aweights to have the same numel as there are "
                               f"observations in the input but got {cnp.PyArray_SIZE(aw._data)} "
                               f"!= {nobs}")
        if nobs and aw._data.min() < 0:
            raise RuntimeError("cov(): aweights cannot be negative")
        w = aw if w is None else OPS.mul(<Tensor>w, aw)
    cdef Tensor w_sum = OPS.sum(<Tensor>w, None, False, None) if w is not None \
        else make_scalar(nobs, int64)
    if w is not None and not bool(w_sum._data != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    cdef Tensor avg = OPS.div(OPS.sum(OPS.mul(inp, <Tensor>w) if w is not None else inp, (1,),
                                      False, None), w_sum, None)
    cdef Tensor norm_factor
    if w is not None and aweights is not None and correction != 0:
        norm_factor = OPS.sub(w_sum, OPS.div(OPS.mul(OPS.sum(OPS.mul(<Tensor>w, <Tensor>aweights),
                                                             None, False, None), correction),
                                             w_sum, None), 1)
    else:
        norm_factor = OPS.sub(w_sum, correction, 1)
    if bool(norm_factor._data <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the number of observations.", UserWarning, stacklevel=2)
        norm_factor = zeros_like(norm_factor)
    inp = OPS.sub(inp, OPS.unsqueeze(avg, 1), 1)
    cdef Tensor c = op_mm(inp, OPS.t(OPS.mul(inp, <Tensor>w) if w is not None else inp))
    return OPS.squeeze(OPS.div(c, norm_factor, None), None)


cdef Tensor op_corrcoef(Tensor self):
    if _ndim(self) > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {_ndim(self)} dimensions")
    cdef Tensor c = op_cov(self, 1, None, None)
    if _ndim(c) == 0:
        return OPS.div(c, c, None)
    cdef Tensor stddev = OPS.sqrt(OPS.diagonal(c, 0, 0, 1))
    c = OPS.div(c, OPS.view(stddev, (-1, 1)), None)
    c = OPS.div(c, OPS.view(stddev, (1, -1)), None)
    return OPS.clamp(c, -1, 1)


cdef Tensor op__norm_all(Tensor self, object p):
    cdef Tensor n
    with NoGradGuard():
        n = op_linalg_vector_norm(self, p, None, False, None)
    cdef Tensor result = make(n._data)
    record_NormBackward0(result, self, p)
    return result


cdef Tensor op_norm_except_dim(Tensor v, object pow, object dim):
    # PyTorch's composition (WeightNorm.cpp), node for node
    cdef Py_ssize_t nd = _ndim(v)
    cdef tuple s = shape_of(v._data)
    if dim == -1:
        return op__norm_all(v, pow)
    out_shape = [1] * nd
    if dim == 0:
        out_shape[0] = s[0]
        return OPS.view(op__norm_dim(OPS.view(_contiguous(v), (s[0], -1)), pow, (1,), False),
                        tuple(out_shape))
    if dim == nd - 1:
        out_shape[nd - 1] = s[nd - 1]
        return OPS.view(op__norm_dim(OPS.view(_contiguous(v), (-1, s[nd - 1])), pow, (0,), False),
                        tuple(out_shape))
    return OPS.transpose(op_norm_except_dim(OPS.transpose(v, 0, dim), pow, 0), 0, dim)


cdef Tensor op__weight_norm(Tensor v, Tensor g, object dim):
    cdef Py_ssize_t nd = _ndim(v)
    cdef Tensor w
    if v._data.dtype == np.float16 or g._data.dtype == np.float16 \
            or not (dim == 0 or dim == nd - 1):
        # PyTorch composes these cases from differentiable ops (their nodes, not its own)
        return OPS.mul(v, OPS.div(g, op_norm_except_dim(v, 2, dim), None))
    with NoGradGuard():
        w = OPS.mul(v, OPS.div(g, op_norm_except_dim(v, 2, dim), None))
    cdef Tensor result = make(w._data)
    record_WeightNormInterfaceBackward0(result, v, g, dim)
    return result


cdef tuple _weight_norm_other_dims(Tensor v, object dim):
    cdef Py_ssize_t nd = _ndim(v)
    return tuple(d for d in range(nd) if d != (dim if dim >= 0 else dim + nd))


cdef Tensor _weight_norm_saved_norms(Tensor v, object dim):
    with NoGradGuard():
        return op_norm_except_dim(v, 2, dim)


cdef object weight_norm_backward_v(Tensor grad, Tensor v, Tensor g, object dim):
    """PyTorch's _weight_norm_differentiable_backward, v's part:
    (g / n) * (grad - v * sum(grad * v) / n^2), the sums and norms n over all dims but
    dim.  The norms are PyTorch's saved forward output, a constant to a double backward
    (so second derivatives are PyTorch's, not those of the true function)."""
    cdef Tensor n = _weight_norm_saved_norms(v, dim)
    cdef Tensor s = OPS.sum(OPS.mul(grad, v), _weight_norm_other_dims(v, dim), True, None)
    return OPS.mul(OPS.div(g, n, None),
                   OPS.sub(grad, OPS.mul(v, OPS.div(s, OPS.mul(n, n), None)), 1))


cdef object weight_norm_backward_g(Tensor grad, Tensor v, object dim):
    """g's part: sum(grad * v) / n over all dims but dim."""
    cdef Tensor s = OPS.sum(OPS.mul(grad, v), _weight_norm_other_dims(v, dim), True, None)
    return OPS.div(s, _weight_norm_saved_norms(v, dim), None)


cdef bint _kron_product_viewable(Tensor self, Tensor other, list a_shape, list b_shape,
                                 Py_ssize_t nd, Py_ssize_t na, Py_ssize_t nb):
    """Whether PyTorch's product of kron's two interleaved views can be viewed back to
    the result's shape: the product's layout follows its operands' strides
    (TensorIterator's, Note [Pointwise output layout]: iter_output_strides), and
    each interleaved pair of dims must be contiguous in it (PyTorch raises otherwise)."""
    cdef Py_ssize_t n = 2 * nd, i, j, d
    shape = [max(a_shape[d], b_shape[d]) for d in range(n)]
    sa = [0] * n
    sb = [0] * n
    st1 = [x // self._data.itemsize for x in (<object>self._data).strides]
    st2 = [x // other._data.itemsize for x in (<object>other._data).strides]
    for i in range(nd):
        if i >= nd - na and a_shape[2 * i] == shape[2 * i]:
            sa[2 * i] = st1[i - (nd - na)]
        if i >= nd - nb and b_shape[2 * i + 1] == shape[2 * i + 1]:
            sb[2 * i + 1] = st2[i - (nd - nb)]
    # replayed on the dims of size > 1 (the strides the views give the size-1 ones are
    # not modelled here; they decide nothing for the dims checked below)
    dims = [d for d in range(n) if shape[d] > 1]
    sub = iter_output_strides(tuple([shape[d] for d in dims]),
                              [[sa[d] for d in dims], [sb[d] for d in dims]])
    if sub is None:
        return True         # C order: every pair of dims views as one
    out_stride = [0] * n
    for j in range(len(dims)):
        out_stride[dims[j]] = sub[j]
    for i in range(nd):
        if shape[2 * i] > 1 and shape[2 * i + 1] > 1 and \
                out_stride[2 * i] != out_stride[2 * i + 1] * shape[2 * i + 1]:
            return False
    return True


cdef Tensor op_kron(Tensor self, Tensor other):
    cdef Py_ssize_t na = _ndim(self), nb = _ndim(other), nd = max(na, nb), i, sa, sb
    cdef tuple s1 = shape_of(self._data), s2 = shape_of(other._data)
    a_shape, b_shape, out_shape = [], [], []
    for i in range(nd):
        sa = s1[i - (nd - na)] if i >= nd - na else 1
        sb = s2[i - (nd - nb)] if i >= nd - nb else 1
        a_shape += [sa, 1]
        b_shape += [1, sb]
        out_shape.append(sa * sb)
    if not _kron_product_viewable(self, other, a_shape, b_shape, nd, na, nb):
        raise RuntimeError(MSG_VIEW_NOT_COMPATIBLE)
    return OPS._unsafe_view(OPS.mul(OPS._unsafe_view(self, tuple(a_shape)),
                                    OPS._unsafe_view(other, tuple(b_shape))), tuple(out_shape))


# ---------------------------------------------------------------- forward derivatives
# The `result:` formulas of the decompositions (Note [Forward AD] in _core/_fw.pxi):
# PyTorch's FunctionsManual jvps for real inputs, in the library's ops (a tangent that
# requires grad gets a history: reverse-over-forward). Each returns one tangent per
# differentiable output, as a tuple.

cdef Tensor _eye_mask(Py_ssize_t k):
    return make(np.eye(k, dtype=bool))


cdef Tensor _off_diagonal_denominator(Tensor E):
    """E with ones on its diagonal: the diagonal of what it divides is zero (or unused)."""
    cdef Py_ssize_t k = shape_of(E._data)[-1]
    return OPS.where(_eye_mask(k), make_scalar(1, dtype_of(E._data)), E)


cdef Tensor _sym(Tensor X):
    return OPS.add(X, _mT(X), 1)


cdef Tensor _symH(Tensor X):
    """X + X^H (X + X^T for a real X)."""
    return OPS.add(X, _mH(X), 1)


cdef tuple linalg_svd_jvp(Tensor dA, Tensor U, Tensor S, Tensor Vh, bint full_matrices):
    """PyTorch's linalg_svd_jvp (real case): with dP = U^T dA V, dS = diag(dP),
    dX = dP - diag(dS), E_jk = S_k^2 - S_j^2 (1 on the diagonal):
    dU = U (sym(dX S) / E) [+ (I - U U^T) dA V S^{-1} when m > n],
    dVh = (-sym(S dX) / E) Vh [+ S^{-1} U^T dA (I - V V^T) when m < n];
    full_matrices' extra columns of U / rows of Vh get zero tangents."""
    cdef tuple sa = shape_of(dA._data)
    cdef Py_ssize_t m = sa[-2], n = sa[-1], k = shape_of(S._data)[-1]
    if full_matrices:
        U = _narrow(U, -1, 0, k)
        Vh = _narrow(Vh, -2, 0, k)
    cdef Tensor V = _mH(Vh), Ut = _mH(U)
    cdef bint is_complex = cnp.PyArray_ISCOMPLEX(dA._data)
    cdef Tensor dP = op_matmul(Ut, op_matmul(dA, V)) if m < n else \
        op_matmul(op_matmul(Ut, dA), V)
    cdef Tensor dS = OPS.diagonal(dP, 0, -2, -1)
    if is_complex:
        dS = OPS.real(dS)     # (complex: the singular values move by Re diag(dP))
    dP = OPS.sub(dP, _diag_embed_last(dS), 1)
    cdef Tensor S2 = OPS.mul(S, S)
    cdef Tensor E = _off_diagonal_denominator(
        OPS.sub(OPS.unsqueeze(S2, -2), OPS.unsqueeze(S2, -1), 1))
    cdef Tensor dUaux = OPS.div(_symH(OPS.mul(dP, OPS.unsqueeze(S, -2))), E, None)
    cdef Tensor dVhaux = OPS.div(_symH(OPS.mul(dP, OPS.unsqueeze(OPS.neg(S), -1))), E, None)
    if is_complex:
        # the imaginary diagonal i Im(dP_kk) / (2 S_k), shared by U and V (PyTorch's gauge)
        diag2S = _diag_embed_last(OPS.div(OPS.diagonal(dP, 0, -2, -1), OPS.mul(S, 2), None))
        dUaux = OPS.add(dUaux, diag2S, 1)
        dVhaux = OPS.add(dVhaux, diag2S, 1)
    cdef Tensor dU = op_matmul(U, dUaux)
    cdef Tensor dVh = op_matmul(dVhaux, Vh)
    cdef Tensor W
    cdef tuple s
    if m > n:
        W = op_matmul(dA, OPS.div(V, OPS.unsqueeze(S, -2), None))
        dU = OPS.sub(OPS.add(dU, W, 1), op_matmul(U, op_matmul(Ut, W)), 1)
        if full_matrices:
            s = shape_of(dU._data)
            dU = OPS.cat([dU, zeros(s[:-1] + (m - n,), dtype_of(dU._data))], -1)
    elif m < n:
        W = op_matmul(OPS.div(Ut, OPS.unsqueeze(S, -1), None), dA)
        dVh = OPS.sub(OPS.add(dVh, W, 1), op_matmul(op_matmul(W, V), Vh), 1)
        if full_matrices:
            s = shape_of(dVh._data)
            dVh = OPS.cat([dVh, zeros(s[:-2] + (n - m, s[-1]), dtype_of(dVh._data))], -2)
    return (dU, dS, dVh)


cdef tuple linalg_eigh_jvp(Tensor dA, Tensor L, Tensor V):
    """PyTorch's linalg_eig_jvp for a symmetric A (dA is taken as given, not
    symmetrised, as there): dP = V^T dA V, dL = diag(dP),
    dV = V ((dP / E) with a zero diagonal), E_ij = L_j - L_i."""
    cdef Tensor dP = op_matmul(op_matmul(_mH(V), dA), V)
    cdef Tensor dL = OPS.diagonal(dP, 0, -2, -1)
    if cnp.PyArray_ISCOMPLEX(dP._data):
        dL = OPS.real(dL)     # (Hermitian: real eigenvalues)
    cdef Tensor E = _off_diagonal_denominator(
        OPS.sub(OPS.unsqueeze(L, -2), OPS.unsqueeze(L, -1), 1))
    cdef Tensor dV = op_matmul(V, OPS.div(OPS.sub(dP, _diag_embed_last(dL), 1), E, None))
    return (dL, dV)


cdef void _check_qr_differentiable(object mode, Py_ssize_t m, Py_ssize_t n) except *:
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                           "when mode='r'. Please use linalg.qr(A, mode='reduced') if you are "
                           "going to differentiate through linalg.qr.")
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                           "and nrows > ncols.")


cdef tuple linalg_qr_jvp(Tensor dA, Tensor Q, Tensor R, object mode):
    """PyTorch's linalg_qr_jvp (real case). m >= n: dR = syminv(sym(Q^T dA R^{-1})) R,
    dQ = dA R^{-1} - Q syminv(...), syminv(X) the upper triangle with half the diagonal;
    m < n: dQ = Q (X - X^T), X the strict lower triangle of Q^T dA_1 R_1^{-1},
    dR = Q^T dA - (X - X^T) R."""
    cdef tuple sa = shape_of(dA._data)
    cdef Py_ssize_t m = sa[-2], n = sa[-1]
    _check_qr_differentiable(mode, m, n)
    cdef Tensor dARinv, dR, dQ, X, QtdA
    if m >= n:
        dARinv = op_linalg_solve_triangular(R, dA, True, False, False)
        # (complex: Q^H dQ is skew-Hermitian and R's diagonal real, so dR R^{-1} is the
        # upper triangle of C + C^H, C = Q^H dA R^{-1}, with the diagonal halved: Re C_kk)
        dR = OPS.triu(_symH(op_matmul(_mH(Q), dARinv)), 0)
        dR = OPS.sub(dR, OPS.mul(_diag_embed_last(OPS.diagonal(dR, 0, -2, -1)), 0.5), 1)
        dQ = OPS.sub(dARinv, op_matmul(Q, dR), 1)
        return (dQ, op_matmul(dR, R))
    QtdA = op_matmul(_mH(Q), dA)
    C = op_linalg_solve_triangular(_narrow(R, -1, 0, m), _narrow(QtdA, -1, 0, m),
                                   True, False, False)
    X = OPS.tril(C, -1)
    X = OPS.sub(X, _mH(X), 1)
    if cnp.PyArray_ISCOMPLEX(X._data):
        # Q^H dQ's imaginary diagonal: i Im(C_kk)
        X = OPS.add(X, _diag_embed_last(OPS.mul(OPS.imag(OPS.diagonal(C, 0, -2, -1)), 1j)), 1)
    dR = OPS.sub(QtdA, op_matmul(X, R), 1)
    return (op_matmul(Q, X), dR)


cdef tuple linalg_slogdet_jvp(Tensor dA, Tensor A, Tensor sign):
    """PyTorch's slogdet_jvp, real case: the sign is locally constant (a zero tangent);
    d log|det A| = tr(A^{-1} dA). PyTorch solves with the forward's LU factors, which have
    no history: the tangent depends on A through no graph (only on dA's), so A's values
    are read without it here too."""
    cdef Tensor tr = OPS.sum(OPS.diagonal(op_linalg_solve(make(A._data), dA, True), 0, -2, -1),
                             (-1,), False, None)
    if cnp.PyArray_ISCOMPLEX(tr._data):
        # tr(A^{-1} dA) = d log|det| + i d arg: the sign turns by i Im(tr)
        return (OPS.mul(sign, OPS.mul(OPS.imag(tr), 1j)), OPS.real(tr))
    return (zeros(shape_of(sign._data), dtype_of(sign._data)), tr)


cdef Tensor cholesky_jvp(Tensor dA, Tensor L, bint upper):
    """PyTorch's cholesky_jvp: dL = L Phi(L^{-1} dA L^{-T}), Phi the lower triangle with
    half the diagonal (U = L^T when upper)."""
    cdef Tensor Lo = _mH(L) if upper else L
    cdef Tensor dL = op_linalg_solve_triangular(Lo, dA, False, True, False)
    dL = op_linalg_solve_triangular(_mH(Lo), dL, True, False, False)
    dL = OPS.sub(OPS.tril(dL, 0), OPS.mul(_diag_embed_last(OPS.diagonal(dL, 0, -2, -1)), 0.5), 1)
    dL = op_matmul(Lo, dL)
    return _mH(dL) if upper else dL


cdef Tensor cholesky_inverse_jvp(Tensor F, Tensor dF, Tensor X, bint upper):
    """PyTorch's cholesky_inverse_jvp as it is: K + K^H with K = -X dC X C, C = F (upper)
    or F^H, dC = dF^H (upper) or dF (the whole tangent). The tangent PyTorch gives (the
    specification here), though not the finite difference: that would be
    -X (dC C + C^H dC^H) X."""
    cdef Tensor C = F if upper else _mH(F)
    cdef Tensor dC = _mH(dF) if upper else dF
    cdef Tensor K = OPS.neg(op_matmul(op_matmul(op_matmul(X, dC), X), C))
    return _symH(K)


cdef tuple triangular_solve_jvp(Tensor dB, Tensor dA, Tensor A, Tensor X, Tensor M,
                                bint upper, bint transpose, bint unitriangular):
    """PyTorch's triangular_solve_jvp (its generic_solve_jvp): dX solves op(A) dX =
    dB - dA X, with dA as given (neither transposed nor restricted to the triangle, as
    there); the cloned coefficient M's tangent is A's own (none when A has none; as
    PyTorch, an error when A was broadcast to M's batch shape)."""
    cdef Tensor dX = _tri_solve_op(A, OPS.sub(dB, op_matmul(dA, X), 1), upper, transpose,
                                   unitriangular)
    if fw_grad_of(A) is None:
        return (dX, None)
    if shape_of(dA._data) != shape_of(M._data):
        # (PyTorch's set_fw_grad raises here)
        raise fw_grad_size_error(shape_of(M._data), shape_of(dA._data))
    return (dX, dA)


cdef tuple linalg_lu_jvp(Tensor dA, Tensor P, Tensor L, Tensor U, bint pivot):
    """PyTorch's linalg_lu_jvp: dK = L1^{-1} P^T dA1 U1^{-1} (the leading k x k blocks),
    dL1 = L1 tril(dK, -1), dU1 = triu(dK) U1; the wide case adds
    dU2 = L1^{-1} P^T dA2 - tril(dK, -1) U2, the tall one dL2 = P^T dA2 U1^{-1} - L2 triu(dK)."""
    cdef tuple sa = shape_of(dA._data)
    cdef Py_ssize_t m = sa[-2], n = sa[-1], k = min(m, n)
    cdef Tensor PdA = op_matmul(_mT(P), dA) if pivot else dA
    cdef Tensor PdA1 = _narrow(_narrow(PdA, -2, 0, k), -1, 0, k)
    cdef Tensor L1 = _narrow(_narrow(L, -2, 0, k), -1, 0, k)
    cdef Tensor U1 = _narrow(_narrow(U, -2, 0, k), -1, 0, k)
    cdef Tensor dK = op_linalg_solve_triangular(L1, PdA1, False, True, True)
    dK = op_linalg_solve_triangular(U1, dK, True, False, False)
    cdef Tensor dL1 = op_matmul(L1, OPS.tril(dK, -1)), dU1 = op_matmul(OPS.triu(dK, 0), U1)
    cdef Tensor d2
    if m == n:
        return (dL1, dU1)
    if m < n:
        d2 = OPS.sub(op_linalg_solve_triangular(L1, _narrow(PdA, -1, k, n - k), False, True, True),
                     op_matmul(OPS.tril(dK, -1), _narrow(U, -1, k, n - k)), 1)
        return (dL1, OPS.cat([dU1, d2], -1))
    d2 = OPS.sub(op_linalg_solve_triangular(U1, _narrow(PdA, -2, k, m - k), True, False, False),
                 op_matmul(_narrow(L, -2, k, m - k), OPS.triu(dK, 0)), 1)
    return (OPS.cat([dL1, d2], -2), dU1)


cdef Tensor lu_factor_ex_jvp(Tensor dA, Tensor LU, Tensor pivots, bint pivot):
    """PyTorch's lu_factor_ex_jvp: linalg_lu_jvp's dL (strictly lower) and dU packed
    into one matrix as LU packs L and U."""
    cdef tuple plu = op_lu_unpack(LU, pivots, True, pivot)
    cdef tuple d = linalg_lu_jvp(dA, <Tensor>plu[0], <Tensor>plu[1], <Tensor>plu[2], pivot)
    cdef Tensor dL = <Tensor>d[0], dU = <Tensor>d[1]
    cdef tuple s = shape_of(dA._data)
    cdef Py_ssize_t m = s[-2], n = s[-1]
    if m == n:
        return OPS.add(dL, dU, 1)
    if m < n:   # dL is m x m: the first m columns
        return OPS.cat([OPS.add(dL, _narrow(dU, -1, 0, m), 1), _narrow(dU, -1, m, n - m)], -1)
    return OPS.cat([OPS.add(_narrow(dL, -2, 0, n), dU, 1), _narrow(dL, -2, n, m - n)], -2)


cdef tuple lu_unpack_jvp(Tensor dLU, bint unpack_data):
    """PyTorch's lu_unpack forward derivative: L's tangent is the strict lower triangle
    of LU's (its first m columns when wide), U's the upper triangle (its first n rows
    when tall); none when the data is not unpacked."""
    if not unpack_data:
        return (None, None)
    cdef tuple s = shape_of(dLU._data)
    cdef Py_ssize_t m = s[-2], n = s[-1]
    cdef Tensor dL = OPS.tril(dLU if m >= n else _narrow(dLU, -1, 0, m), -1)
    cdef Tensor dU = OPS.triu(dLU if n >= m else _narrow(dLU, -2, 0, n), 0)
    return (dL, dU)


cdef Tensor pinv_jvp(Tensor A, Tensor pinvA, Tensor dA):
    """PyTorch's pinv_jvp (Golub and Pereyra 1973), with P = pinv(A):
    dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P (^H: ^T when real)."""
    cdef Tensor P = pinvA, Pt = _mH(pinvA), dAt = _mH(dA)
    cdef Tensor first = OPS.neg(op_matmul(op_matmul(P, dA), P))
    cdef Tensor second = op_matmul(op_matmul(P, Pt),
                                   OPS.sub(dAt, op_matmul(op_matmul(dAt, A), P), 1))
    cdef Tensor third = op_matmul(OPS.sub(dAt, op_matmul(P, op_matmul(A, dAt)), 1),
                                  op_matmul(Pt, P))
    return OPS.add(OPS.add(first, second, 1), third, 1)


cdef tuple linalg_lstsq_jvp(Tensor A, Tensor B, Tensor dA, Tensor dB, Tensor X, Tensor res):
    """PyTorch's linalg_lstsq_solution_jvp and linalg_lstsq_residuals_jvp: dX through
    the pseudo-inverse, d(residuals) = 2 sum((A X - B) (dA X - dB)) over rows (Danskin:
    X held fixed); an empty residuals gets an empty tangent."""
    cdef bint vector = _solve_is_vector_rhs(shape_of(A._data), shape_of(B._data))
    if vector:
        B = OPS.unsqueeze(B, -1)
        dB = OPS.unsqueeze(dB, -1)
        X = OPS.unsqueeze(X, -1)
    cdef Tensor pinvA = op_linalg_pinv(A, None, False, None, None)
    cdef Tensor dX = OPS.add(op_matmul(pinv_jvp(A, pinvA, dA), B), op_matmul(pinvA, dB), 1)
    if vector:
        dX = OPS.squeeze(dX, -1)
    if cnp.PyArray_SIZE(res._data) == 0:
        return (dX, zeros(shape_of(res._data), dtype_of(res._data)))
    cdef Tensor r = OPS.sub(op_matmul(A, X), B, 1)
    cdef Tensor dr = OPS.sub(op_matmul(dA, X), dB, 1)
    return (dX, OPS.mul(OPS.sum(OPS.mul(r, dr), (-2,), False, None), 2))


cdef Tensor linalg_det_jvp(Tensor dA, Tensor det, Tensor A):
    """PyTorch's linalg_det_jvp: d det = det tr(A^{-1} dA). A^{-1} comes from LU factors
    without history (PyTorch's are the forward's), whose exactly-zero pivots are moved
    by eps: det is C^1, so a singular A gets the limit of the derivative."""
    cdef tuple r = op_linalg_lu_factor_ex(make(A._data), True, False)
    cdef cnp.ndarray lu = (<Tensor>r[0])._data
    cdef Py_ssize_t n = shape_of(lu)[-1]
    idx = np.arange(n)
    d = lu[..., idx, idx]
    if (d == 0).any():
        lu = lu.copy()
        lu[..., idx, idx] = np.where(d == 0, np.finfo(lu.dtype).eps, d)
    cdef Tensor AinvE = op_linalg_lu_solve(make(lu), <Tensor>r[1], dA, True, False)
    return OPS.mul(OPS.sum(OPS.diagonal(AinvE, 0, -2, -1), (-1,), False, None), det)


cdef Tensor linalg_solve_jvp(Tensor dA, Tensor dB, Tensor X, Tensor A, bint left):
    """PyTorch's linalg_solve_jvp: dX = A^{-1} (dB - dA X) (left) or (dB - X dA) A^{-1}.
    A is read without its history, as PyTorch solves with the forward's LU factors."""
    cdef bint vector = _solve_is_vector_rhs(shape_of(A._data), shape_of(X._data))
    if vector:
        X = OPS.unsqueeze(X, -1)
        dB = OPS.unsqueeze(dB, -1)
    cdef Tensor R = OPS.sub(dB, op_matmul(dA, X) if left else op_matmul(X, dA), 1)
    cdef Tensor dX = op_linalg_solve(make(A._data), R, left)
    return OPS.squeeze(dX, -1) if vector else dX


cdef Tensor linalg_solve_triangular_jvp(Tensor dA, Tensor dB, Tensor A, Tensor X, bint upper,
                                        bint left, bint unitriangular):
    """PyTorch's linalg_solve_triangular_forward_AD: A's tangent restricted to the
    triangle the op reads (without the diagonal when unitriangular), then
    dX = A^{-1} (dB - dA X) (left) or (dB - X dA) A^{-1}."""
    cdef Tensor proj = OPS.triu(dA, 1 if unitriangular else 0) if upper else \
        OPS.tril(dA, -1 if unitriangular else 0)
    cdef Tensor R = OPS.sub(dB, op_matmul(proj, X) if left else op_matmul(X, proj), 1)
    return op_linalg_solve_triangular(A, R, upper, left, unitriangular)


cdef Tensor linalg_lu_solve_jvp(Tensor dLU, Tensor dB, Tensor LU, Tensor pivots, Tensor X,
                                bint left, bint adjoint):
    """The forward derivative of lu_solve (PyTorch's linalg_lu_solve_jvp, by another
    route): A = P L U moves by dA = P (dL U + L dU), dL the strict lower triangle of
    LU's tangent, dU its upper triangle; then the solve's rule with op(A) = A or A^H:
    dX = op(A)^{-1} (dB - op(dA) X) (left) or (dB - X op(dA)) op(A)^{-1}."""
    cdef tuple plu = op_lu_unpack(LU, pivots, True, True)
    cdef Tensor L = <Tensor>plu[1], U = <Tensor>plu[2]
    cdef Tensor dA = op_matmul(<Tensor>plu[0], OPS.add(op_matmul(OPS.tril(dLU, -1), U),
                                                       op_matmul(L, OPS.triu(dLU, 0)), 1))
    if adjoint:
        dA = _mH(dA)
    cdef Tensor R = OPS.sub(dB, op_matmul(dA, X) if left else op_matmul(X, dA), 1)
    return op_linalg_lu_solve(LU, pivots, R, left, adjoint)


cdef Tensor cholesky_solve_jvp(Tensor X, Tensor F, Tensor dF, Tensor dB, bint upper):
    """PyTorch's cholesky_solve_jvp: A = L L^H (U^H U) moves by dA = dK + dK^H,
    dK = dL L^H (dU^H U), the factor's whole tangent as given; dX = A^{-1} (dB - dA X)."""
    cdef Tensor dK = op_matmul(_mH(dF), F) if upper else op_matmul(dF, _mH(F))
    return op_cholesky_solve(OPS.sub(dB, op_matmul(_symH(dK), X), 1), F, upper)


cdef Tensor linalg_matrix_exp_jvp(Tensor A, Tensor dA):
    """PyTorch's linalg_matrix_exp_differential(A, dA, adjoint=false): the Frechet
    derivative, the upper-right block of exp([[A, dA], [0, A]])."""
    return _matrix_exp_block(A, dA)


cdef tuple linalg_eig_jvp(Tensor dA, Tensor L, Tensor V):
    """PyTorch's linalg_eig_jvp (not Hermitian): dP = V^{-1} dA V, dL = diag(dP),
    dV = V (dP / E with a zero diagonal), E_ij = L_j - L_i, minus V Re(diag(V^H dV)):
    the eigenvectors keep unit norm. A real dA is taken as complex."""
    if not cnp.PyArray_ISCOMPLEX(dA._data):
        dA = OPS._to_copy(dA, dtype_of(V._data))
    cdef Tensor dP = op_linalg_solve(V, op_matmul(dA, V), True)
    cdef Tensor dL = OPS.diagonal(dP, 0, -2, -1)
    cdef Tensor E = _off_diagonal_denominator(
        OPS.sub(OPS.unsqueeze(L, -2), OPS.unsqueeze(L, -1), 1))
    cdef Tensor dV = op_matmul(V, OPS.div(OPS.sub(dP, _diag_embed_last(dL), 1), E, None))
    cdef Tensor gauge = OPS.real(OPS.diagonal(op_matmul(_mH(V), dV), 0, -2, -1))
    dV = OPS.sub(dV, OPS.mul(V, OPS.unsqueeze(gauge, -2)), 1)
    return (dL, dV)


include "_gen_linalg.pxi"
