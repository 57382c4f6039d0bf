# Matrix decompositions, included by ops/linalg.pyx (one extension module; PyTorch's
# BatchLinearAlgebra.cpp): Cholesky (cholesky, cholesky_ex), the symmetric and general
# eigendecompositions (eigh, eigvalsh, eig, eigvals), the SVD (the internal _linalg_svd
# the norms and pinv share, svd, svdvals), QR, LU (lu_factor, lu, lu_unpack), the
# Householder products (householder_product/orgqr, geqrf, ormqr) and LDL factor, each
# with its backward and forward derivative helpers beside it.
# Apart from the solvers: a decomposition's derivative (gauge conditions, phase
# checks) is the hard part of this family; the solvers built on the factors are
# short.


# ---------------------------------------------------------------- the internal SVD

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
    # no forward derivative in PyTorch, refused before the kernel's checks and its
    # deprecation warning (Note [Forward AD refusals before the kernel])
    fw_refuse("cholesky", (self,))
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


cdef Tensor cholesky_jvp(Tensor dA, Tensor L, bint upper):
    """PyTorch's cholesky_jvp: dL = L Phi(L^{-1} dA L^{-T}), Phi the lower triangle with
    half the diagonal (U = L^T when upper)."""
    cdef Tensor Lo = _mH(L) if upper else L
    cdef Tensor dL = op_linalg_solve_triangular(Lo, dA, False, True, False)
    dL = op_linalg_solve_triangular(_mH(Lo), dL, True, False, False)
    dL = OPS.sub(OPS.tril(dL, 0), OPS.mul(_diag_embed_last(OPS.diagonal(dL, 0, -2, -1)), 0.5), 1)
    dL = op_matmul(Lo, dL)
    return _mH(dL) if upper else dL


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


cdef Tensor _over_eigenvalue_gaps(Tensor VhgV, Tensor L, object gL):
    """VhgV divided by the eigenvalue gaps L[j] - L[i] off the diagonal (kept on it),
    plus diag(gL): the middle factor of both eigendecompositions' backward (eigh's L,
    eig's conj(L)); L's dtype is the eigenvalues' (conj keeps it)."""
    cdef Py_ssize_t k = shape_of(L._data)[-1]
    cdef Tensor E = OPS.where(make(np.eye(k, dtype=bool)), make_scalar(1, dtype_of(L._data)),
                              OPS.sub(OPS.unsqueeze(L, -2), OPS.unsqueeze(L, -1), 1))
    cdef Tensor gA = OPS.div(VhgV, E, None)
    if gL is not None:
        gA = OPS.add(gA, _diag_embed_last(<Tensor>gL), 1)
    return gA


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
    return op_matmul(V, op_matmul(_over_eigenvalue_gaps(VhgV, L, gL), _mH(V)))


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


cdef int _check_eig_type(Tensor A) except -1:
    """PyTorch's eig and eigvals take their result's complex type before any check: none
    for an integral or bool input."""
    cdef dtype d = dtype_of(A._data)
    if d.category != CAT_FLOAT and d.category != CAT_COMPLEX:
        raise RuntimeError(f"Unknown Complex ScalarType for {d.scalar_name}")
    return 0


cdef tuple op_linalg_eig(Tensor A):
    _check_eig_type(A)
    _check_linalg_input(A, "linalg.eig", True)
    w, v = _eig_values(A, True)
    cdef Tensor L = make(w), V = make(v)
    record_LinalgEigBackward0(L, V, A)
    return (L, V)


cdef Tensor op_linalg_eigvals(Tensor A):
    _check_eig_type(A)
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
    cdef Tensor gA = _over_eigenvalue_gaps(VhgV, <Tensor>cj(L), gL)
    return op_linalg_solve(VH, op_matmul(gA, VH), True)


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


cdef int _check_lu_input(Tensor A, str fname, bint pivot) except -1:
    """PyTorch's LU factorisation checks, in its order: the dims (the meta function of
    linalg_lu_factor_ex, naming itself torch.lu_factor, or linalg_lu's), then the
    kernel's dtype dispatch (lu_cpu: floating and complex dtypes of 4 bytes or more),
    then the CPU's refusal of pivot=False."""
    cdef int nd = cnp.PyArray_NDIM(A._data)
    if nd < 2:
        raise RuntimeError(f"{fname}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{shape_str(shape_of(A._data))} instead")
    cdef dtype d = dtype_of(A._data)
    if (d.category != CAT_FLOAT and d.category != CAT_COMPLEX) or d.rank < float32.rank:
        raise not_implemented_for("lu_cpu", d)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    return 0


cdef tuple op_linalg_lu_factor_ex(Tensor A, bint pivot, bint check_errors):
    _check_lu_input(A, "autograd_core.lu_factor", pivot)
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
    _check_lu_input(A, "autograd_core.lu_factor", pivot)
    cdef tuple r = op_linalg_lu_factor_ex(A, pivot, False)
    _raise_lu((<Tensor>r[2])._data, "autograd_core.linalg.lu_factor", shape_of(A._data))
    return (r[0], r[1])


cdef tuple op_lu(Tensor A, bint pivot, bint get_infos):
    """PyTorch's _lu_with_info (the values of torch.lu): its deprecation warning, then
    linalg_lu_factor_ex; errors are raised unless get_infos."""
    warnings.warn("autograd_core.lu is deprecated in favor of autograd_core.linalg.lu_factor / "
                  "autograd_core.linalg.lu_factor_ex and will be removed in a future PyTorch release.",
                  UserWarning, stacklevel=2)
    return op_linalg_lu_factor_ex(A, pivot, not get_infos)


def _py_lu(*args, **kwargs):
    """torch.lu, PyTorch's Python function: a boolean dispatch on get_infos (by keyword,
    else the third argument; any truthy value) between _lu_with_infos (the named
    (LU, pivots, info) of _lu_with_info) and _lu_no_infos ((LU, pivots))."""
    flag = kwargs["get_infos"] if "get_infos" in kwargs else args[2] if len(args) > 2 else False
    return _lu_dispatch(bool(flag), *args, **kwargs)


def _lu_dispatch(bint with_infos, A=ARG_MISSING, pivot=True, get_infos=False, out=None):
    if A is ARG_MISSING:
        raise TypeError(f"{'_lu_with_infos' if with_infos else '_lu_no_infos'}() missing 1 "
                        "required positional argument: 'A'")
    if type(A) is not Tensor and has_torch_function(A):
        return handle_torch_function(_py_lu, (A,), {"pivot": pivot, "get_infos": get_infos,
                                                    "out": out})
    cdef Tensor A_ = arg_tensor(A, "_lu_with_info", "input", 1)
    if complex_arg(A_):
        check_complex_op("lu", A_)  # Note [Complex guard]
    cdef bint pivot_ = arg_bool(pivot, "_lu_with_info", "pivot", 0)
    cdef tuple res = OPS.lu(A_, pivot_, bool(get_infos))
    if out is None:
        if with_infos:
            return named_result("_lu_with_info", ("LU", "pivots", "info"), res)
        return (res[0], res[1])
    # its out= resizes each out tensor to its result and copy_s it in (any dtype; a
    # graph through copy_), and returns out itself
    if len(out) - bool(get_infos) != 2:
        raise TypeError(f"expected tuple of {2 + bool(get_infos)} elements but got {len(out)}")
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    for o, r in zip(out, res):
        if not isinstance(o, Tensor):
            raise AttributeError(f"'{type(o).__name__}' object has no attribute 'resize_as_'")
        OPS.copy_(OPS.resize_as_(<Tensor>o, <Tensor>r), <Tensor>r, False)
    return out


def _pym_lu(self, pivot=True, get_infos=False):
    """Tensor.lu, PyTorch's Python method: _lu_with_info, then a plain tuple (LU,
    pivots, info) or (LU, pivots) as get_infos is truthy."""
    if type(self) is not Tensor and has_torch_function(self):
        return handle_torch_function(_pym_lu, (self,), {"pivot": pivot, "get_infos": get_infos})
    cdef Tensor A_ = arg_tensor(self, "_lu_with_info", "input", 1)
    if complex_arg(A_):
        check_complex_op("lu", A_)  # Note [Complex guard]
    cdef tuple res = OPS.lu(A_, arg_bool(pivot, "_lu_with_info", "pivot", 0), bool(get_infos))
    return res if get_infos else (res[0], res[1])


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
    _check_lu_input(A, "linalg.lu", pivot)
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
                           f"autograd_core.int32 dtype.\nNote: this function is intended to be used with "
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


cdef object lu_factor_ex_backward(object grad, Tensor LU, Tensor pivots, bint pivot):
    if grad is None:
        return None
    cdef tuple s = shape_of(LU._data)
    cdef Py_ssize_t k = min(s[-2], s[-1])
    P, L, U = _unpack_diff(LU, pivots, pivot)
    return linalg_lu_backward(_narrow(<Tensor>grad, -1, 0, k), _narrow(<Tensor>grad, -2, 0, k),
                              P, L, U, pivot)


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


# ---------------------------------------------------------------- Householder products

cdef object _householder_values(object A, object tau, bint full):
    """H_1 ... H_k applied to the identity's first n columns (all m when full);
    H_i = I - tau_i v_i v_i^H (LAPACK's orgqr/ungqr: the adjoint for complex)."""
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
        w = np.einsum("...i,...ij->...j", v.conj(), Q)
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


cdef tuple _householder_grads(Tensor G, Tensor A, Tensor tau, Py_ssize_t cols):
    """(gA, gtau) of Q = H_1 ... H_k E (E the identity's first cols columns), in the
    library's ops: with prefix P_i = H_1..H_{i-1} and suffix S_i = H_{i+1}..H_k E,
    dL/dH_i = M_i = P_i^H G S_i^H; H_i = I - tau_i v_i v_i^H gives
    gtau_i = -v_i^H M_i v_i and gv_i = -(conj(tau_i) M_i v_i + tau_i M_i^H v_i)
    (PyTorch's convention for complex: a real loss L has dL = Re tr(G^H dQ); for real
    inputs the conjugations vanish and gv_i = -tau_i (M_i + M_i^T) v_i)."""
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
                                             op_matmul(OPS.unsqueeze(<Tensor>cj(v), -2), S))), 1)
    gA_cols, gtaus = [], []
    cdef Tensor T = G, Mv, MHv, St, cti
    for i in range(k):
        v = <Tensor>vs[i]
        St = <Tensor>suffix[i]
        ti = OPS.select(tau, -1, i)
        cti = <Tensor>cj(ti)
        # M v = T (S^H v); M^H v = S (T^H v)
        Mv = op_matmul(T, op_matmul(_mH(St), OPS.unsqueeze(v, -1)))
        MHv = op_matmul(St, op_matmul(_mH(T), OPS.unsqueeze(v, -1)))
        Mv = OPS.squeeze(Mv, -1)
        MHv = OPS.squeeze(MHv, -1)
        gtaus.append(OPS.neg(OPS.sum(OPS.mul(<Tensor>cj(v), Mv), (-1,), False, None)))
        below = np.zeros(m, dtype=d)
        below[i + 1:] = 1
        gA_cols.append(OPS.mul(OPS.neg(OPS.add(OPS.mul(OPS.unsqueeze(cti, -1), Mv),
                                               OPS.mul(OPS.unsqueeze(ti, -1), MHv), 1)),
                               make(below)))
        # T_{i+1} = H_i^H T_i
        cti = OPS.unsqueeze(OPS.unsqueeze(cti, -1), -1)
        T = OPS.sub(T, OPS.mul(cti, op_matmul(OPS.unsqueeze(v, -1),
                                              op_matmul(OPS.unsqueeze(<Tensor>cj(v), -2), T))), 1)
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


cdef Tensor householder_product_jvp(Tensor A_t, Tensor tau_t, Tensor A, Tensor tau):
    """PyTorch's householder_product_jvp, as the product rule over Q = H_1 ... H_k E:
    from the right, S <- H_i S and dS <- H_i dS + dH_i S with
    dH_i = -(dtau_i v_i v_i^H + tau_i dv_i v_i^H + tau_i v_i dv_i^H), dv_i the tangent of
    A's column i below the diagonal (v_i's unit and zeros are constants). Written with
    conj, so complex tangents are the differential's (the transposed backward is not)."""
    cdef tuple sa = shape_of(A._data)
    cdef Py_ssize_t m = sa[-2], n = sa[-1], k = shape_of(tau._data)[-1], i
    cdef object d = A._data.dtype
    cdef Tensor S = make(np.eye(m, n, dtype=d)), dS = None, v, dv, vcol, ti, dti, w, dHS
    for i in range(k - 1, -1, -1):
        below = np.zeros(m, dtype=d)
        below[i + 1:] = 1
        unit = np.zeros(m, dtype=d)
        unit[i] = 1
        v = OPS.add(OPS.mul(OPS.select(A, -1, i), make(below)), make(unit), 1)
        dv = OPS.mul(OPS.select(A_t, -1, i), make(below))
        vcol = OPS.unsqueeze(v, -1)
        ti = OPS.unsqueeze(OPS.unsqueeze(OPS.select(tau, -1, i), -1), -1)
        dti = OPS.unsqueeze(OPS.unsqueeze(OPS.select(tau_t, -1, i), -1), -1)
        w = op_matmul(OPS.unsqueeze(<Tensor>cj(v), -2), S)      # v^H S
        dHS = OPS.neg(OPS.add(
            OPS.mul(dti, op_matmul(vcol, w)),
            OPS.mul(ti, OPS.add(op_matmul(OPS.unsqueeze(dv, -1), w),
                                op_matmul(vcol, op_matmul(OPS.unsqueeze(<Tensor>cj(dv), -2), S)),
                                1)), 1))
        if dS is None:
            dS = dHS
        else:
            dS = OPS.add(OPS.sub(dS, OPS.mul(ti, op_matmul(vcol, op_matmul(
                OPS.unsqueeze(<Tensor>cj(v), -2), dS))), 1), dHS, 1)
        S = OPS.sub(S, OPS.mul(ti, op_matmul(vcol, w)), 1)
    if dS is None:   # no reflectors: Q is constant
        return zeros(broadcast_shapes(sa[:-2], shape_of(tau._data)[:-1]) + (m, n),
                     dtype_of(A._data))
    return dS


cdef tuple op_geqrf(Tensor self):
    _check_matrix(self, "autograd_core.geqrf", False)
    _check_float_input(dtype_of(self._data), "autograd_core.geqrf")
    if cnp.PyArray_ISCOMPLEX(self._data) and recording() and requires_grad_of(self):
        # PyTorch refuses at the call (geqrf is not among the ops its autograd codegen
        # allows complex outputs for), before the NotImplemented node of real inputs
        raise complex_output_autograd_error("geqrf")
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
    if fw_active() and (fw_grad_of(self) is not None or fw_grad_of(input2) is not None
                        or fw_grad_of(input3) is not None):
        # no forward derivative (OrmqrBackward0's row has none): PyTorch refuses a dual
        # input before it looks at the arguments
        raise fw_not_implemented("ormqr")
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
        raise RuntimeError(f"{fname}: other.shape[{-2 if left else -1}] must be equal to input.shape[-2]")
    cdef Py_ssize_t kk = min(mm, sa[-1])
    if shape_of(input2._data)[-1] != kk:
        raise RuntimeError(f"{fname}: tau.shape[-1] must be equal to min(other.shape"
                           f"[{-2 if left else -1}], input.shape[-1])")
    # (the dtypes after the shapes, then the kernel's, as PyTorch's)
    cdef dtype d = dtype_of(self._data)
    for name, t in (("tau", input2), ("other", input3)):
        if dtype_of((<Tensor>t)._data) is not d:
            raise RuntimeError(f"{fname}: Expected input and {name} to have the same dtype, but "
                               f"input has dtype{d.scalar_name} and {name} has dtype "
                               f"{dtype_of((<Tensor>t)._data).scalar_name}")
    if not (d is float32 or d is float64 or d is complex64 or d is complex128):
        raise not_implemented_for("ormqr_cpu", d)
    a = self._data
    if sa[-1] > sa[-2]:
        a = a[..., :, :sa[-2]]
    Q = _householder_values(a, input2._data, True)
    # (transpose: the adjoint Q^H for complex, as LAPACK's unmqr with trans='C')
    Qo = np.swapaxes(Q, -1, -2).conj() if transpose else Q
    with quiet():
        out = Qo @ input3._data if left else input3._data @ Qo
    cdef Tensor result = make(_column_major(out))
    record_OrmqrBackward0(result, self, input2, input3, left, transpose)
    return result


cdef tuple _ormqr_grads(Tensor grad, Tensor A, Tensor tau, Tensor C, bint left, bint transpose):
    """Through Q: result = op(Q) C (or C op(Q)), op(Q) = Q or Q^H; dL/dQ from the
    product, then the Householder product's gradient."""
    cdef tuple s = shape_of(A._data)
    cdef Py_ssize_t m = s[-2], n = s[-1]
    cdef Tensor gOp = op_matmul(grad, _mH(C)) if left else op_matmul(_mH(C), grad)
    cdef Tensor gQ = _mH(gOp) if transpose else gOp
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


# ---------------------------------------------------------------- LDL factor (sytrf)

cdef object _cabs1(object x):
    """|Re x| + |Im x|: LAPACK's CABS1, the size its complex pivot searches compare (|x|
    for real x)."""
    return np.abs(x.real) + np.abs(x.imag) if np.iscomplexobj(x) else np.abs(x)


cdef tuple _sytf2_lower(object m, bint hermitian):
    """LAPACK's sytf2 with UPLO='L' (Bunch-Kaufman pivoting; dsytf2, zsytf2 for a complex
    symmetric A, zhetf2 for a complex Hermitian one: A = L D L^H, real diagonal): (the
    factor, 1-based pivots with negative entries for 2x2 blocks, info)."""
    cdef bint cplx = np.iscomplexobj(m)
    cdef bint herm = hermitian and cplx
    a = np.array(m, dtype=np.complex128 if cplx else np.float64)
    cdef Py_ssize_t n = a.shape[0], k = 0, kstep, imax, jmax, kp, kk, j
    piv = np.zeros(n, dtype=np.int32)
    info = 0
    alpha = (1.0 + np.sqrt(17.0)) / 8.0
    while k < n:
        kstep = 1
        # the diagonal of a Hermitian A is real: zhetf2 reads and writes its real part
        absakk = abs(a[k, k].real) if herm else _cabs1(a[k, k])
        if k < n - 1:
            imax = k + 1 + int(np.argmax(_cabs1(a[k + 1:, k])))
            colmax = _cabs1(a[imax, k])
        else:
            imax = k
            colmax = 0.0
        if max(absakk, colmax) == 0.0 or absakk != absakk:
            if info == 0:
                info = k + 1
            kp = k
            if herm:
                a[k, k] = a[k, k].real
        else:
            if absakk >= alpha * colmax:
                kp = k
            else:
                jmax = k + int(np.argmax(_cabs1(a[imax, k:imax])))
                rowmax = _cabs1(a[imax, jmax])
                if imax < n - 1:
                    jmax = imax + 1 + int(np.argmax(_cabs1(a[imax + 1:, imax])))
                    rowmax = max(rowmax, _cabs1(a[jmax, imax]))
                if absakk >= alpha * colmax * (colmax / rowmax):
                    kp = k
                elif (abs(a[imax, imax].real) if herm else _cabs1(a[imax, imax])) >= \
                        alpha * rowmax:
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
                if herm:   # the swapped row and column meet as each other's conjugates
                    a[kk + 1:kp, kk] = a[kp, kk + 1:kp].conj()
                    a[kp, kk + 1:kp] = tmp.conj()
                    a[kp, kk] = a[kp, kk].conj()
                    a[kk, kk], a[kp, kp] = a[kp, kp].real, a[kk, kk].real
                    if kstep == 2:
                        a[k, k] = a[k, k].real
                else:
                    a[kk + 1:kp, kk] = a[kp, kk + 1:kp]
                    a[kp, kk + 1:kp] = tmp
                    a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
                if kstep == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            elif herm:
                a[k, k] = a[k, k].real
                if kstep == 2:
                    a[k + 1, k + 1] = a[k + 1, k + 1].real
            if kstep == 1:
                if k < n - 1:
                    x = a[k + 1:, k].copy()
                    if herm:
                        d11 = 1.0 / a[k, k].real
                        a[k + 1:, k + 1:] -= np.tril(d11 * np.outer(x, x.conj()))
                        a[k + 1:, k + 1:][np.diag_indices(n - k - 1)] = \
                            a[k + 1:, k + 1:].diagonal().real
                    else:
                        d11 = 1.0 / a[k, k]
                        a[k + 1:, k + 1:] -= np.tril(d11 * np.outer(x, x))
                    a[k + 1:, k] *= d11
            elif k < n - 2:
                if herm:
                    dd = abs(a[k + 1, k])
                    d11 = a[k + 1, k + 1].real / dd
                    d22 = a[k, k].real / dd
                    tt = 1.0 / (d11 * d22 - 1.0)
                    d21 = a[k + 1, k] / dd
                    dd = tt / dd
                    for j in range(k + 2, n):
                        wk = dd * (d11 * a[j, k] - d21 * a[j, k + 1])
                        wkp1 = dd * (d22 * a[j, k + 1] - np.conj(d21) * a[j, k])
                        a[j:, j] -= a[j:, k] * np.conj(wk) + a[j:, k + 1] * np.conj(wkp1)
                        a[j, k] = wk
                        a[j, k + 1] = wkp1
                        a[j, j] = a[j, j].real
                else:
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
            ld, pv, inf = _sytf2_lower(mats[i], hermitian)
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
