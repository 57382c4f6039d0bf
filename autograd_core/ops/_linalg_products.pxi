# Matrix products, included by ops/linalg.pyx (one extension module; this file is a
# part of it, as PyTorch's aten/src/ATen/native/LinearAlgebra.cpp is a part of
# linalg): mm, bmm, dot, mv, outer/ger, matmul in all its forms and the mm gradients,
# addmm and the other add-products (addmv, addr, baddbmm, addbmm), einsum, tensordot,
# kron, cross, vdot/inner, vecdot, multi_dot and chain_matmul.
# Kept apart from the decompositions and solvers because these ops are the hot path
# of every model (they read no LAPACK and build no factorisation) and because
# einsum's label machinery is large enough to hide everything else.


# ================================================================ matrix products

cdef object _product(object fn, cnp.ndarray a, cnp.ndarray b):
    """fn (np.matmul or np.dot) of a and b. bfloat16 operands multiply in float32 and the
    result rounds once, as PyTorch's CPU bfloat16 gemm accumulates in float (numpy's
    loops on ml_dtypes arrays would hand back float32, or accumulate in bfloat16).
    Complex results carry the signs of zero of PyTorch's kernels: Note [Complex product
    zeros]."""
    if cnp.PyArray_TYPE(a) == bfloat16.typenum or cnp.PyArray_TYPE(b) == bfloat16.typenum:
        r = fn(cast_array(a, float32), cast_array(b, float32))
        if fn is np.dot and cnp.PyArray_NDIM(a) == 1:
            r = r + 0.0     # (the sum from +0, as below)
        return cast_array(as_array(r), bfloat16)
    r = fn(a, b)
    if cnp.PyArray_NDIM(a) == 0:
        return r
    if fn is np.dot and cnp.PyArray_NDIM(a) == 1 and cnp.PyArray_ISFLOAT(a):
        # PyTorch's real dot sums its products into +0, so no dot is ever -0; np.dot of
        # one term returns that product itself, -0 included (x + 0.0 is x for every
        # other value, NaN too; a numpy float scalar keeps its dtype)
        return r + 0.0
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef bint gemm_outer = (
        fn is np.matmul and cnp.PyArray_NDIM(b) == nd and (nd == 2 or nd == 3)
        and cnp.PyArray_DIM(a, nd - 1) == 1 and cnp.PyArray_DIM(a, nd - 2) > 1
        and cnp.PyArray_DIM(b, nd - 1) > 1
        and (nd == 2 or (cnp.PyArray_DIM(a, 0) == 1 and
                         cnp.PyArray_DIM(a, 1) * cnp.PyArray_DIM(b, 2) >= 400)))
    if not cnp.PyArray_ISCOMPLEX(a):
        if gemm_outer and (cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT32 or
                           cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT64):
            # (real gemm over k = 1 multiplies without a sum: a zero keeps its product's
            # sign, -0 included; Note [Complex product zeros])
            np.multiply(a, b, out=r)
        return r
    if gemm_outer:
        if nd == 2:
            _gemm_outer_zeros(r, a, b)
        else:
            _gemm_outer_zeros(r[0], a[0], b[0])
    elif isinstance(r, np.ndarray):
        np.add(r, 0, out=r)
    else:
        r = r + 0
    return r


# Note [Complex product zeros]
# Where an entry of a complex product is an exact zero, its sign is the kernel's, and
# PyTorch's kernels differ (found by experiment on every combination of signed zeros
# and units, complex64 and complex128, contiguous and transposed operands):
# - dot, mv (gemv), bmm and mm over k > 1 sum each entry into a +0: an exact zero comes
#   out +0 (also over one term; OpenBLAS's can give -0, as in the zero triangle of a
#   product of triangular matrices);
# - mm over k = 1 with at least two rows and two columns (gemm proper) first scales the
#   left operand by alpha = 1+0j, then multiplies without a sum: (ar - ai*0, ai + ar*0)
#   times b, entry by entry (mm over k = 1 with one row or one column is gemv: +0);
#   float32 / float64 gemm over k = 1 likewise multiplies without a sum (a -0 product
#   stays -0, where numpy's matmul sums into +0);
#   bmm of a single batch of 400 or more multiply-adds is mm (below 400, and over more
#   batches, its own loops sum into +0).
# numpy's matmul gives PyTorch's values exactly (its own complex multiply rounds
# differently), so only the zero entries take their sign from the formula.

cdef int _gemm_outer_zeros(cnp.ndarray r, cnp.ndarray a, cnp.ndarray b) except -1:
    """r = a @ b over k = 1 (a (n, 1), b (1, m)): its zero parts get the signs of
    PyTorch's gemm (Note [Complex product zeros])."""
    with quiet():
        ar, ai = a.real, a.imag
        sr = ar - ai * 0
        si = ai + ar * 0
        br, bi = b.real, b.imag
        zr = sr * br - si * bi
        zi = sr * bi + si * br
    rr, ri = r.real, r.imag
    np.copyto(rr, zr, where=(rr == 0) & (zr == 0))
    np.copyto(ri, zi, where=(ri == 0) & (zi == 0))
    return 0

# Note [Empty products of kernel-less dtypes]
# PyTorch's gemm and gemv have no bool, uint16, uint32 or uint64 kernel, but addmm,
# addmv, bmm and baddbmm return before dispatching when the result is empty or the
# inner dimension is 0 (zeros, or beta * self): their refusal is raised only when the
# kernel is reached. (dot dispatches first: it refuses even empty operands.)

cdef inline bint _no_product_kernel(dtype d):
    """Whether PyTorch's gemm/gemv lack d (bool, the wide unsigned ints): Note [Empty
    products of kernel-less dtypes]."""
    return d.category == CAT_BOOL or is_wide_unsigned(d)


cdef int _check_product_kernel(dtype d, str kernel) except -1:
    """The refusal of a product kernel PyTorch lacks for d, called once the kernel is
    reached (Note [Empty products of kernel-less dtypes])."""
    if _no_product_kernel(d):
        raise not_implemented_for(kernel, d)
    return 0


cdef int _check_k0_beta(dtype d, object beta) except -1:
    """beta * self of an empty-k addmm / baddbmm / addbmm of bool or wide unsigned ints:
    PyTorch's result.mul_(beta) and its cast error for a beta of a higher category."""
    if not _no_product_kernel(d):
        return 0
    if type(beta) is float and beta != 0:
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{d.scalar_name}")
    if d.category == CAT_BOOL and type(beta) is int and beta != 0:
        raise RuntimeError("result type Long can't be cast to the desired output type Bool")
    return 0


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
    if sa[0] * sb[1] != 0 and sa[1] != 0:
        _check_product_kernel(dtype_of(a), "addmm_impl_cpu_")
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
    _check_product_kernel(dtype_of(a), "bmm")
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
    if sm[0] != 0 and sm[1] != 0:
        _check_product_kernel(dtype_of(m), "addmv_impl_cpu")
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
    if (complex_arg(self) or complex_arg(other)) and \
            cnp.PyArray_TYPE(self._data) == cnp.PyArray_TYPE(other._data):
        # (the product it reaches is PyTorch's refusal: Note [Dtype guard]; operands of
        # two dtypes get that product's own dtype check first)
        check_complex_args(_matmul_product(self, other, na, nb), (self, other))
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


cdef str _matmul_product(Tensor self, Tensor other, Py_ssize_t na, Py_ssize_t nb):
    """The product op_matmul computes with (dot, mv, mm, bmm), as its branches choose."""
    if na == 1 and nb == 1:
        return "dot"
    if na == 2 and nb == 1:
        return "mv"
    if na <= 2 and nb <= 2:
        return "mm"
    if _should_fold(self, other):
        # (_matmul_folded: mm when the operand it does not fold is a matrix)
        return "mm" if (na if nb > na else nb) == 2 else "mv"
    return "bmm"


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
    if out_shape[0] * out_shape[1] != 0:
        if s1[1] != 0:
            _check_product_kernel(d1, "addmm_impl_cpu_")
        else:
            _check_k0_beta(d1, beta)
    beta = scalar_in(beta, d1, True)
    alpha = scalar_in(alpha, d1, True)
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
    result = _add_scaled(self, mm, out_shape, beta, alpha, d2)
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
    if (complex_arg(left) or complex_arg(right)) and cnp.PyArray_SIZE(left._data) \
            and cnp.PyArray_SIZE(right._data):
        # einsum takes the wide unsigned ints as far as PyTorch's does: its sums, muls and
        # shape ops, and its zeros for an empty operand; a contraction reaches bmm, which
        # has no kernel for them (Note [Dtype guard]; complex passes)
        check_complex_args("bmm", (left, right))
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
        # (PyTorch sums in the operand's dtype: an integer operand stays integral for
        # mm, a wide unsigned one reaches sum_cpu, which has no kernel for it)
        if s2 == 1:
            t1 = OPS.sum(t1, (w1[i],), True, dtype_of(t1._data))
        elif s1 == 1:
            t2 = OPS.sum(t2, (w2[i],), True, dtype_of(t2._data))
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
    cdef bint one = size1 == 1 and size2 == 1
    if complex_arg(a) or complex_arg(b):   # (PyTorch's dot or mm: Note [Dtype guard])
        check_complex_args("dot" if one else "mm", (a, b))
    t1 = OPS.permute(t1, tuple(p1))
    t2 = OPS.permute(t2, tuple(p2))
    if one:
        # (PyTorch's tensordot takes dot for a one-element result: DotBackward0 in the
        # graph, and dot's kernel named in an unsigned refusal)
        return OPS.reshape(OPS.dot(OPS.reshape(t1, (csize,)), OPS.reshape(t2, (csize,))),
                           tuple(rsizes))
    t1 = OPS.reshape(t1, (size1, csize))
    t2 = OPS.reshape(t2, (csize, size2))
    return OPS.reshape(op_mm(t1, t2), tuple(rsizes))


# ---------------------------------------------------------------- composite products (linalg.matmul, vecdot, cross, multi_dot, inner, vdot, the add-products)

cdef Tensor op_linalg_vecdot(Tensor x, Tensor y, object dim):
    if dtype_of(x._data) is not dtype_of(y._data):
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {dtype_of(x._data).scalar_name} and y of type "
                           f"{dtype_of(y._data).scalar_name} instead")
    if _ndim(x) == 1 and _ndim(y) == 1:
        wrap_dim(dim, 1)
        return op_vdot(x, y)      # PyTorch's shortcut for two vectors
    if complex_arg(x) and dtype_of(x._data).category == CAT_COMPLEX:
        x = OPS.conj(x)           # sum(conj(x) * y): PyTorch's for complex
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
    if len(matrices) != 1:   # (one matrix is cloned: any dtype)
        check_complex_args("chain_matmul", (matrices,))  # Note [Dtype guard]
    res = OPS.chain_matmul(matrices)
    if out is None:
        return res
    if len(matrices) == 1:
        # PyTorch's out= copies the matrix itself into out: any dtype, and a graph
        # through copy_ straight to the matrix, and its tangent (Note [out= rules])
        return with_out("chain_matmul", out, matrices[0], None,
                        OUT_ANY_CAST | OUT_GRAD_COPY | OUT_FW_COPY)
    if isinstance(out, Tensor) and dtype_of((<Tensor>out)._data) is not dtype_of((<Tensor>res)._data):
        # (multi_dot's own check, before mm's out= checks)
        raise RuntimeError(f"multi_dot(): expected out tensor to have dtype "
                           f"{dtype_of((<Tensor>res)._data).cpp_name} but got "
                           f"{dtype_of((<Tensor>out)._data).cpp_name}")
    out_check("chain_matmul", out, 1)
    return with_out("mm", out, res, None, OUT_EXACT)   # (mm's out= and its autograd error)


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


cdef void _check_same_dtypes(tuple ts) except *:
    d = dtype_of((<Tensor>ts[0])._data)
    for t in ts[1:]:
        if dtype_of((<Tensor>t)._data) is not d:
            raise RuntimeError(f"expected scalar type {d.scalar_name} but found "
                               f"{dtype_of((<Tensor>t)._data).scalar_name}")


cdef Tensor _add_scaled(Tensor self, object prod, tuple out_shape, object beta, object alpha,
                        dtype d):
    """beta * self + alpha * prod in d, of out_shape (addmm's, addmv's, addr's ... last
    step; self broadcast to out_shape or PyTorch's expand error)."""
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
    # a copy: broadcast_to's view is read-only (the result must be writable)
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
    if sm[0] != 0 and sm[1] != 0:
        # (over an empty inner dim addmv casts beta * self into the result: no cast error)
        _check_product_kernel(dtype_of(mat._data), "addmv_impl_cpu")
    beta = scalar_in(beta, dtype_of(mat._data))
    alpha = scalar_in(alpha, dtype_of(mat._data))
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
    cdef dtype d = dtype_of(vec1._data)
    if d.category < CAT_FLOAT:
        # (PyTorch's addr: integral and bool results take integral beta and alpha only)
        for argname, x in (("beta", beta), ("alpha", alpha)):
            if type(x) is float or type(x) is complex:
                raise RuntimeError(f"For integral input tensors, argument {argname} must not "
                                   "be a floating point number.")
    if is_wide_unsigned(d):
        # (addr passes the dtype guard so that these checks come first, as PyTorch's)
        raise not_implemented_for("addr_cpu", d)
    beta = scalar_in(beta, d)
    alpha = scalar_in(alpha, d)
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


cdef tuple _batched_add_args(Tensor self, Tensor batch1, Tensor batch2, object beta,
                             object alpha, str kernel):
    """baddbmm / addbmm's checks in PyTorch's order; the shapes, and beta and alpha in
    batch1's dtype."""
    s1, s2 = _check_bmm_args(batch1, batch2)
    _check_same_dtypes((self, batch1, batch2))
    cdef dtype d = dtype_of(batch1._data)
    cdef bint addbmm = kernel == "addmm_impl_cpu_"
    if s1[1] * s2[2] * (1 if addbmm else s1[0]) != 0:
        if s1[2] != 0 and s1[0] != 0:
            _check_product_kernel(d, kernel)
        else:
            _check_k0_beta(d, beta)
    return s1, s2, scalar_in(beta, d, True), scalar_in(alpha, d, True)


cdef Tensor op_baddbmm(Tensor self, Tensor batch1, Tensor batch2, object beta, object alpha):
    s1, s2, beta, alpha = _batched_add_args(self, batch1, batch2, beta, alpha, "baddbmm")
    cdef Tensor result = _add_scaled(self, _product(np.matmul, batch1._data, batch2._data),
                                     (s1[0], s1[1], s2[2]), beta, alpha, dtype_of(batch1._data))
    record_BaddbmmBackward0(result, self, batch1, batch2, beta, alpha)
    return result


cdef Tensor op_addbmm(Tensor self, Tensor batch1, Tensor batch2, object beta, object alpha):
    s1, s2, beta, alpha = _batched_add_args(self, batch1, batch2, beta, alpha, "addmm_impl_cpu_")
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


# ---------------------------------------------------------------- kron

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
