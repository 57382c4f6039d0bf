# Matrix functions and the matrix-shaped views, included by ops/linalg.pyx (one
# extension module; PyTorch's LinearAlgebra.cpp matrix_exp/matrix_power and
# TriangularOps.cpp): matrix_exp (Pade with scaling and squaring) and its Frechet
# derivative, matrix_power, trace, diag, tril/triu, linalg.diagonal, vander, adjoint.
# Apart from the products and decompositions: each is a function of one matrix that
# neither factorises nor multiplies two inputs.


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


cdef cnp.ndarray triangle_values(Tensor self, object diagonal, object part, str fname):
    """tril / triu (part: np.tril or np.triu) of the last two dims."""
    if _ndim(self) < 2:
        raise RuntimeError(f"{fname}: input tensor must have at least 2 dimensions")
    return as_array(part(self._data, <Py_ssize_t>diagonal))


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


cdef Tensor linalg_matrix_exp_jvp(Tensor A, Tensor dA):
    """PyTorch's linalg_matrix_exp_differential(A, dA, adjoint=false): the Frechet
    derivative, the upper-right block of exp([[A, dA], [0, A]])."""
    return _matrix_exp_block(A, dA)


# ---------------------------------------------------------------- matrix_power

cdef Tensor op_linalg_matrix_power(Tensor A, object n):
    _check_matrix(A, "linalg.matrix_power", True)
    cdef long k = n
    cdef Tensor a, z = None, result = None
    if k != 1 and is_guarded_array(A._data) and not cnp.PyArray_ISCOMPLEX(A._data) and \
            not (k > 1 and cnp.PyArray_SIZE(A._data) == 0):
        # a wide unsigned A: n = 1 is PyTorch's clone; n = 0 its eye, n < 0 its inverse
        # and n > 1 its matmul (mm, or bmm for a batch) have no kernel for them (Note
        # [Dtype guard]); but mm and bmm of empty matrices return before their kernel
        if k == 0:
            refuse_complex("eye", A)
        refuse_complex("linalg_inv_ex" if k < 0 else "mm" if _ndim(A) == 2 else "bmm", A)
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


def _py_linalg_matrix_power(A, n, *, out=None):
    cdef Tensor A_ = arg_tensor(A, "linalg_matrix_power", "A", 1)
    cdef object n_ = arg_int(n, "linalg_matrix_power", "n", 2)
    if complex_arg(A_):
        check_complex_op("linalg_matrix_power", A_)  # Note [Dtype guard]
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


# ---------------------------------------------------------------- diagonal, vander, adjoint

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


cdef Tensor op_adjoint(Tensor self):
    if _ndim(self) < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of "
                           f"matrices. Got {_ndim(self)}-D tensor.")
    if cnp.PyArray_ISCOMPLEX(self._data):
        # no lazy conjugate bit: the conjugate transpose is computed (as conj()), through
        # the ops so that it has their history (Note [Complex autograd])
        return OPS.conj(OPS.transpose(self, -2, -1))
    return OPS.transpose(self, -2, -1)
