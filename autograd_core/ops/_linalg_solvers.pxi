# Solvers and inverses, included by ops/linalg.pyx (one extension module; PyTorch's
# BatchLinearAlgebra.cpp / LinearAlgebra.cpp solve paths): inv/inv_ex, solve/solve_ex,
# solve_triangular and the deprecated triangular_solve, cholesky_solve,
# cholesky_inverse, lu_solve, lstsq, pinv, ldl_solve, tensorinv and tensorsolve, each
# with its backward and forward derivative helpers beside it.
# Apart from the decompositions: these take factors (or compute one) and apply it;
# their derivatives are the one rule dX = A^{-1}(dB - dA X) in its variants.


# ================================================================ inv, solve

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


cdef object _solve_values(cnp.ndarray A, object B, bint left):
    """X with A X = B (left) or X A = B, B a (batch of) matrix."""
    with quiet():
        if left:
            return np.linalg.solve(A, B)
        return np.swapaxes(np.linalg.solve(np.swapaxes(A, -1, -2), np.swapaxes(B, -1, -2)),
                           -1, -2)


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


# ---------------------------------------------------------------- inv_ex, solve_ex

cdef tuple op_linalg_inv_ex(Tensor A, bint check_errors):
    # (PyTorch's inv_ex words its errors as linalg.inv's)
    _check_square(A, "linalg.inv")
    _check_low_precision(A, "linalg.inv")
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


# ---------------------------------------------------------------- cholesky_inverse, cholesky_solve

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


cdef Tensor cholesky_inverse_jvp(Tensor F, Tensor dF, Tensor X, bint upper):
    """PyTorch's cholesky_inverse_jvp as it is: K + K^H with K = -X dC X C, C = F (upper)
    or F^H, dC = dF^H (upper) or dF (the whole tangent). The tangent PyTorch gives (the
    specification here), though not the finite difference: that would be
    -X (dC C + C^H dC^H) X."""
    cdef Tensor C = F if upper else _mH(F)
    cdef Tensor dC = _mH(dF) if upper else dF
    cdef Tensor K = OPS.neg(op_matmul(op_matmul(op_matmul(X, dC), X), C))
    return _symH(K)


cdef int _check_b_A_dtype(Tensor b, Tensor A) except -1:
    """cholesky_solve's and ldl_solve's dtype check (PyTorch's linearSolveCheckInputs)."""
    if dtype_of(b._data) is not dtype_of(A._data):
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{dtype_of(b._data).scalar_name} and A of type "
                           f"{dtype_of(A._data).scalar_name} instead.")
    return 0


cdef Tensor op_cholesky_solve(Tensor self, Tensor input2, bint upper):
    _check_linalg_input(input2, "cholesky_solve", True)
    if _ndim(self) < 2:
        raise RuntimeError("b should have at least 2 dimensions, but has "
                           f"{_ndim(self)} dimensions instead")
    _check_b_A_dtype(self, input2)
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


cdef Tensor cholesky_solve_jvp(Tensor X, Tensor F, Tensor dF, Tensor dB, bint upper):
    """PyTorch's cholesky_solve_jvp: A = L L^H (U^H U) moves by dA = dK + dK^H,
    dK = dL L^H (dU^H U), the factor's whole tangent as given; dX = A^{-1} (dB - dA X)."""
    cdef Tensor dK = op_matmul(_mH(dF), F) if upper else op_matmul(dF, _mH(F))
    return op_cholesky_solve(OPS.sub(dB, op_matmul(_symH(dK), X), 1), F, upper)


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
    # (either side: PyTorch's result is LAPACK's, column by column)
    cdef Tensor result = make(_column_major(out))
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


cdef Tensor linalg_solve_triangular_jvp(Tensor dA, Tensor dB, Tensor A, Tensor X, bint upper,
                                        bint left, bint unitriangular):
    """PyTorch's linalg_solve_triangular_forward_AD: A's tangent restricted to the
    triangle the op reads (without the diagonal when unitriangular), then
    dX = A^{-1} (dB - dA X) (left) or (dB - X dA) A^{-1}."""
    cdef Tensor proj = OPS.triu(dA, 1 if unitriangular else 0) if upper else \
        OPS.tril(dA, -1 if unitriangular else 0)
    cdef Tensor R = OPS.sub(dB, op_matmul(proj, X) if left else op_matmul(X, proj), 1)
    return op_linalg_solve_triangular(A, R, upper, left, unitriangular)


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


# ---------------------------------------------------------------- pinv

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


# ---------------------------------------------------------------- lu_solve

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


cdef Tensor linalg_lu_solve_jvp(Tensor dLU, Tensor dB, Tensor LU, Tensor pivots, Tensor X,
                                bint left, bint adjoint):
    """PyTorch's linalg_lu_solve_jvp, op for op (its products and solves decide the
    tangent's layout and the signs of its zeros). With op_1(A) = A or A^H, op_2(X) = X or
    X^H as left and adjoint say, and S = lu_solve(LU, pivots, dB): when left != adjoint,
    dX = op_2(R op_2(X)) + S, R = -U^{-1} (dU + L^{-1} dL U); else
    dX = op_2(op_1(-op_3(X)^H P (L dU U^{-1} + dL) L^{-1} P^T)) + S."""
    cdef Tensor S = op_linalg_lu_solve(LU, pivots, dB, left, adjoint)
    cdef Tensor R, U, L, P, V
    if left != adjoint:
        R = op_linalg_solve_triangular(LU, OPS.tril(dLU, -1), False, True, True)
        U = OPS.triu(LU, 0)
        R = OPS.neg(op_linalg_solve_triangular(U, OPS.add(OPS.triu(dLU, 0), op_matmul(R, U), 1),
                                               True, True, False))
        return OPS.add(op_matmul(R, X) if left else op_matmul(X, _mH(R)), S, 1)
    cdef tuple plu = op_lu_unpack(LU, pivots, True, True)
    P, L, U = <Tensor>plu[0], <Tensor>plu[1], <Tensor>plu[2]
    V = _mH(X) if left else X
    R = OPS.add(op_linalg_solve_triangular(U, op_matmul(L, OPS.triu(dLU, 0)), True, False, False),
                OPS.tril(dLU, -1), 1)
    R = op_matmul(op_linalg_solve_triangular(L, OPS.neg(op_matmul(op_matmul(V, P), R)),
                                             False, False, True), _mT(P))
    return OPS.add(_mH(R) if left else R, S, 1)


cdef Tensor op_lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots):
    warnings.warn("autograd_core.lu_solve is deprecated in favor of autograd_core.linalg.lu_solve and will be "
                  "removed in a future PyTorch release.", UserWarning, stacklevel=2)
    return op_linalg_lu_solve(LU_data, LU_pivots, self, True, False)


# ---------------------------------------------------------------- lstsq

cdef tuple op_linalg_lstsq(Tensor A, Tensor B, object rcond, object driver):
    cdef str fname = "autograd_core.linalg.lstsq"
    cdef dtype ad = dtype_of(A._data)
    if dtype_of(A._data) is not dtype_of(B._data):
        raise RuntimeError(f"{fname}: Expected input and other to have the same dtype, but got "
                           f"input's dtype {dtype_of(A._data).scalar_name} and other's dtype "
                           f"{dtype_of(B._data).scalar_name}")
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
    if not (ad is float32 or ad is float64 or ad.category == CAT_COMPLEX):
        # PyTorch checks no dtype before its kernel's dispatch; without rcond, the
        # default's epsilon of the input's type refuses first
        if rcond is None:
            raise RuntimeError("This function doesn't handle types other than float and double")
        raise not_implemented_for("linalg_lstsq_cpu", ad)
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
    rd = np.empty(0, dtype=d).real.dtype      # residuals and singular values are real
    X = (np.stack(sols) if sols else np.zeros((0, n, k), dtype=d)).reshape(batch + (n, k))
    full_rank = all(r == min(m, n) for r in ranks)
    if drv != "gelsy" and m > n and full_rank:
        res = np.sum(np.abs(np.einsum("bij,bjk->bik", a, _mats(X, 2)) - b) ** 2, axis=-2)
        res = res.reshape(batch + (k,))
    else:
        res = np.empty((0,), dtype=rd)
    rank_out = np.asarray(ranks, dtype=np.int64).reshape(batch) if drv != "gels" else \
        np.empty((0,), dtype=np.int64)
    sv_out = (np.stack(svals) if svals else np.zeros((0, min(m, n)))).reshape(
        batch + (min(m, n),)).astype(rd) if drv in ("gelsd", "gelss") else np.empty((0,), dtype=rd)
    # LAPACK's gels* solve in place in B's column-major (max(m, n), k) buffer; PyTorch
    # returns its first n rows, a non-dense view of it when m > n (strides (1, m))
    buf = np.zeros(batch + (k, max(m, n)), dtype=d)
    buf[..., :n] = np.swapaxes(X, -1, -2)
    X = np.swapaxes(buf, -1, -2)[..., :n, :]
    if vector:
        X = X[..., 0]
    cdef Tensor Xt = make(X)
    cdef Tensor Rt = make(np.array(res, dtype=rd))
    cdef Tensor Kt = make(np.array(rank_out))
    cdef Tensor St = make(np.array(sv_out))
    record_LinalgLstsqBackward0(Xt, Rt, Kt, St, A, B, rcond, driver)
    _no_history(St)
    return (Xt, Rt, Kt, St)


cdef object linalg_lstsq_backward_A(object gX, object gR, Tensor A, Tensor B, Tensor X):
    """PyTorch's linalg_lstsq_backward, A's part: through the pseudo-inverse; the
    residuals r_j = ||A x_j - b_j||^2 (x_j optimal) add 2 (A X - B) diag(gR) X^H
    (adjoints where the real formula transposes: Note [Complex autograd])."""
    cdef bint vector = _ndim(B) == _ndim(A) - 1
    cdef Tensor b = OPS.unsqueeze(B, -1) if vector else B
    out = None
    if gX is not None:
        g = OPS.unsqueeze(<Tensor>gX, -1) if vector else <Tensor>gX
        out = pinv_backward(op_matmul(g, _mH(b)), op_linalg_pinv(A, None, False, None, None), A)
    if gR is not None and cnp.PyArray_SIZE((<Tensor>gR)._data):
        x = OPS.unsqueeze(X, -1) if vector else X
        gr = <Tensor>gR        # (..., k): k = 1 for a vector B
        res = OPS.sub(op_matmul(A, x), b, 1)
        t = OPS.mul(op_matmul(OPS.mul(res, OPS.unsqueeze(gr, -2)), _mH(x)), 2)
        out = t if out is None else OPS.add(<Tensor>out, t, 1)
    return out


cdef object linalg_lstsq_backward_B(object gX, object gR, Tensor A, Tensor B, Tensor X):
    cdef bint vector = _ndim(B) == _ndim(A) - 1
    out = None
    if gX is not None:
        g = OPS.unsqueeze(<Tensor>gX, -1) if vector else <Tensor>gX
        out = op_matmul(_mH(op_linalg_pinv(A, None, False, None, None)), g)
    if gR is not None and cnp.PyArray_SIZE((<Tensor>gR)._data):
        b = OPS.unsqueeze(B, -1) if vector else B
        x = OPS.unsqueeze(X, -1) if vector else X
        gr = <Tensor>gR
        t = OPS.mul(OPS.mul(OPS.sub(op_matmul(A, x), b, 1), OPS.unsqueeze(gr, -2)), -2)
        out = t if out is None else OPS.add(<Tensor>out, t, 1)
    if out is None:
        return None
    return OPS.squeeze(<Tensor>out, -1) if vector else out


cdef tuple linalg_lstsq_jvp(Tensor A, Tensor B, Tensor dA, Tensor dB, Tensor X, Tensor res):
    """PyTorch's linalg_lstsq_solution_jvp and linalg_lstsq_residuals_jvp: dX through
    the pseudo-inverse, d(residuals) = 2 sum(Re(conj(A X - B) (dA X - dB))) over rows
    (Danskin: X held fixed); an empty residuals gets an empty tangent."""
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
    cdef Tensor rdr = OPS.mul(<Tensor>cj(r), dr)
    if cnp.PyArray_ISCOMPLEX(rdr._data):
        rdr = OPS.real(rdr)
    return (dX, OPS.mul(OPS.sum(rdr, (-2,), False, None), 2))


# ---------------------------------------------------------------- ldl_solve (sytrs)

cdef object _sytrs_lower(object a, object piv, object b, bint hermitian):
    """LAPACK's sytrs with UPLO='L': X with A X = B from sytf2's factor (dsytrs, zsytrs
    for A = L D L^T, zhetrs for a complex A = L D L^H: conjugates where L^H and the
    Hermitian 2x2 blocks of D have them)."""
    cdef bint cplx = np.iscomplexobj(a) or np.iscomplexobj(b)
    cdef bint herm = hermitian and cplx
    x = np.array(b, dtype=np.complex128 if cplx else np.float64)
    cj_ = np.conj if herm else (lambda z: z)
    cdef Py_ssize_t n = a.shape[0], k = 0, kp
    while k < n:
        if piv[k] > 0:
            kp = piv[k] - 1
            if kp != k:
                x[[k, kp]] = x[[kp, k]]
            if k < n - 1:
                x[k + 1:] -= np.outer(a[k + 1:, k], x[k])
            x[k] /= a[k, k].real if herm else a[k, k]
            k += 1
        else:
            kp = -piv[k] - 1
            if kp != k + 1:
                x[[k + 1, kp]] = x[[kp, k + 1]]
            if k < n - 2:
                x[k + 2:] -= np.outer(a[k + 2:, k], x[k])
                x[k + 2:] -= np.outer(a[k + 2:, k + 1], x[k + 1])
            akm1k = a[k + 1, k]
            akm1 = a[k, k] / cj_(akm1k)
            ak = a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1.0
            bkm1 = x[k] / cj_(akm1k)
            bk = x[k + 1] / akm1k
            x[k] = (ak * bkm1 - bk) / denom
            x[k + 1] = (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:
        if piv[k] > 0:
            if k < n - 1:
                x[k] -= cj_(a[k + 1:, k]) @ x[k + 1:]
            kp = piv[k] - 1
            if kp != k:
                x[[k, kp]] = x[[kp, k]]
            k -= 1
        else:
            if k < n - 1:
                x[k] -= cj_(a[k + 1:, k]) @ x[k + 1:]
                x[k - 1] -= cj_(a[k + 1:, k - 1]) @ x[k + 1:]
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
    _check_b_A_dtype(B, LD)
    cdef tuple sl = shape_of(LD._data), sb = shape_of(B._data)
    if sl[-1] != sb[-2]:
        raise RuntimeError(f"{fname}: Incompatible shapes of A and B for the equation AX = B "
                           f"({sl[-2]}x{sl[-1]} and {sb[-2]}x{sb[-1]})")
    batch = broadcast_shapes(sl[:-2], sb[:-2])
    a = _mats(np.broadcast_to(LD._data, batch + sl[-2:]), 2)
    p = _mats(np.broadcast_to(pivots._data, batch + sl[-1:]), 1)
    b = _mats(np.broadcast_to(B._data, batch + sb[-2:]), 2)
    with quiet():
        outs = [_sytrs_lower(a[i], p[i], b[i], hermitian) for i in range(a.shape[0])]
    out = (np.stack(outs) if outs else np.zeros((0,) + sb[-2:])).reshape(batch + sb[-2:])
    cdef Tensor result = make(_column_major(out.astype(B._data.dtype)))
    OPS.not_implemented_node(result, (LD, B), "linalg_ldl_solve")   # (PyTorch has no derivative)
    return result


# ---------------------------------------------------------------- tensorinv, tensorsolve

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
