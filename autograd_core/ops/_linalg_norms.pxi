# Norms and determinants, included by ops/linalg.pyx (one extension module; PyTorch's
# LinearAlgebra.cpp norms and det): vector_norm, matrix_norm, linalg.norm/torch.norm
# and the internal norms (nuclear_norm, frobenius_norm, _norm_dim, _norm_all,
# norm_except_dim, weight_norm), renorm, det, slogdet, logdet, cond and matrix_rank,
# each with its backward and forward derivative helpers beside it.
# Apart from the decompositions: these reduce a matrix to numbers (through the SVD or
# an LU when they need one), and their derivative helpers share the reductions'
# conventions (dims, keepdim, zero norms).


# ================================================================ norms

cdef dtype _norm_dtype(object dtype_arg, dtype d, str fname):
    """PyTorch's check_linalg_norm_dtype: the dtype a norm computes in."""
    if dtype_arg is None:
        return d
    cdef dtype od = <dtype>dtype_arg
    if od.category != CAT_FLOAT and od.category != CAT_COMPLEX:
        raise RuntimeError(f"{fname}: dtype should be floating point or complex, but got "
                           f"{od.scalar_name}")
    cdef bint cx = d.category == CAT_COMPLEX
    if cx != (od.category == CAT_COMPLEX):
        kind = "complex" if cx else "real"
        raise RuntimeError(f"{fname}: dtype should be {kind} for {kind} inputs, but got "
                           f"{od.scalar_name}")
    if od.rank < d.rank:
        raise RuntimeError(
            f"{fname}: the dtype of the input ({d.scalar_name}) should be convertible "
            f"without narrowing to the specified dtype ({od.scalar_name})")
    return od


cdef Tensor op_linalg_vector_norm(Tensor self, object ord, object dim, bint keepdim,
                                  object dtype_arg):
    cdef str fname = "linalg.vector_norm"
    cdef dtype d = dtype_of(self._data)
    _check_float_input(d, fname)
    if isinstance(ord, complex):   # (after the dtype: Note [Complex Scalar arguments])
        raise RuntimeError(f"{fname}: Expected a non-complex scalar as the order of norm.")
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
            # (a count: of the real dtype for a complex input, as the other norms)
            out = np.sum(a != 0, axis=axis, keepdims=keepdim).astype(
                real_of(od).np_dtype if od.category == CAT_COMPLEX else od.np_dtype)
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


# ---------------------------------------------------------------- renorm
# (its slices' norms differentiate as vector_norm's: linalg_vector_norm_backward, with
# keepdim, is the one norm_backward, as PyTorch's renorm_backward calls its norm_backward)

cdef tuple _renorm_dims(Py_ssize_t nd, Py_ssize_t d):
    return tuple([k for k in range(nd) if k != d])


cdef Tensor op_renorm(Tensor self, object p, object dim, object maxnorm):
    cdef cnp.ndarray x = self._data
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(x)
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        # (a number as PyTorch's C++ Scalar prints it: ostream's 6 significant digits)
        raise RuntimeError("renorm: expected maxnorm to be >= 0 but got "
                           + (str(maxnorm) if isinstance(maxnorm, int) else f"{maxnorm:g}"))
    if nd <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {nd} dimensions")
    if not cnp.PyArray_ISCOMPLEX(x):   # (complex: Note [Complex guard])
        check_float_kernel(dtype_of(x), "renorm_cpu")
    cdef Py_ssize_t d = wrap_dim(dim, nd)
    cdef tuple rd = _renorm_dims(nd, d)
    # (the norms in double, PyTorch's accumulation type; of a complex input, of its
    # moduli: the factor is real)
    cdef bint is_complex = cnp.PyArray_ISCOMPLEX(x)
    a = np.abs(x.astype(np.complex128 if is_complex else np.float64))
    with quiet():
        if p == float("inf"):
            norm = np.amax(a, axis=rd, keepdims=True)
        else:
            norm = np.sum(a ** p, axis=rd, keepdims=True) ** (1.0 / p)
        factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0).astype(
            real_of(dtype_of(x)).np_dtype if is_complex else x.dtype)
    # (PyTorch's renorm allocates a contiguous result whatever self's layout)
    cdef Tensor result = make(as_contiguous(as_array(x * factor)))
    record_RenormBackward0(result, self, p, d, maxnorm)
    return result


cdef Tensor renorm_backward(Tensor grad, Tensor self, object p, object dim, object maxnorm):
    """PyTorch's renorm_backward: where a slice's norm exceeds maxnorm, the gradient of
    self * maxnorm / (norm + 1e-7), else grad. The norm is PyTorch's, in the
    accumulation type (so, as there, the inf-norm's maxima of a complex64 input, whose
    moduli are float32, match no element of the double norm: NaN gradients)."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple rd = _renorm_dims(nd, <Py_ssize_t>dim)
    cdef dtype d = dtype_of(self._data)
    cdef dtype acc = complex128 if d is complex64 else (
        float64 if d is float32 else (float32 if d.rank < float32.rank else d))
    norm = OPS.linalg_vector_norm(self, p, rd, True, acc)
    # (the norm is real: its incoming gradient is Re(sum(conj(self) grad)))
    cdef Tensor gn = OPS.mul(<Tensor>cj(self), grad)
    if cnp.PyArray_ISCOMPLEX(gn._data):
        gn = OPS.real(gn)
    nb = linalg_vector_norm_backward(OPS.sum(gn, rd, True, None), self, p, norm, rd, True)
    invnorm = OPS.reciprocal(OPS.add(norm, 1e-7, 1))
    factor = OPS.mul(invnorm, maxnorm)
    scaled = OPS.sub(OPS.mul(factor, grad), OPS.mul(OPS.mul(factor, invnorm), nb), 1)
    cdef Tensor out = OPS.where(OPS.gt(norm, maxnorm), scaled, grad)
    # (in grad's dtype again, as PyTorch's grad_norm.to(grad.scalar_type()))
    if cnp.PyArray_TYPE(out._data) != cnp.PyArray_TYPE(grad._data):
        out = OPS._to_copy(out, dtype_of(grad._data))
    return out


cdef Tensor renorm_jvp(Tensor self, Tensor self_t, object p, object dim, object maxnorm):
    """PyTorch's renorm_jvp: where a slice's norm exceeds maxnorm,
    factor * (t - self / (norm + 1e-7) * dnorm), dnorm = Re(sum(conj(g) t)) the norm's
    tangent (g its gradient for a unit cotangent: vector_norm's); else t."""
    cdef Py_ssize_t nd = cnp.PyArray_NDIM(self._data)
    cdef tuple rd = _renorm_dims(nd, wrap_dim(dim, nd))
    norm = OPS.linalg_vector_norm(self, p, rd, True, None)
    cdef Tensor g = <Tensor>linalg_vector_norm_backward(
        make(np.ones(shape_of((<Tensor>norm)._data), (<Tensor>norm)._data.dtype)),
        self, p, norm, rd, True)
    cdef Tensor dn = OPS.mul(<Tensor>cj(g), self_t)
    if cnp.PyArray_ISCOMPLEX(dn._data):
        dn = OPS.real(dn)
    dn = OPS.sum(dn, rd, True, None)
    invnorm = OPS.reciprocal(OPS.add(norm, 1e-7, 1))
    factor = OPS.mul(invnorm, maxnorm)
    scaled = OPS.mul(factor, OPS.sub(self_t, OPS.mul(OPS.mul(self, invnorm), dn), 1))
    return OPS.where(OPS.gt(norm, maxnorm), scaled, self_t)


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
    if isinstance(p, complex):   # refused after the input's dtype check
        return op_linalg_vector_norm(self, p, dim, keepdim, dtype_arg)
    if not is_number(p) and p is not None:
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                        f"not {type(p).__name__}")
    return op_linalg_vector_norm(self, 2.0 if p is None else arg_number(p), dim, keepdim,
                                 dtype_arg)


# ================================================================ det

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
    # (PyTorch's _efficientzerotensor: a ZeroTensor tangent for a one-element sign, Note
    # [ZeroTensor tangents])
    return (fw_zeros(sign), tr)


cdef Tensor op_logdet(Tensor self):
    _check_linalg_input(self, "linalg.slogdet", True)
    cdef tuple r = op_linalg_slogdet(self)
    if cnp.PyArray_ISCOMPLEX(self._data):
        return OPS.add(OPS.log(<Tensor>r[0]), <Tensor>r[1], 1)   # log(sign) + log|det|
    return OPS.where(OPS.eq(<Tensor>r[0], -1), np.nan, <Tensor>r[1])


# ---------------------------------------------------------------- cond, matrix_rank

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
    # (complex: the singular values, or |eigenvalues| of the Hermitian A, are real)
    cdef dtype d = dtype_of(A._data)
    if _ndim(A) < 2:   # (PyTorch's own wording: it names the argument input)
        raise RuntimeError("autograd_core.linalg.matrix_rank: The input tensor input must have at "
                           "least 2 dimensions.")
    _check_matrix(A, "linalg.matrix_rank", False)
    if tol is not None:
        atol, rtol = tol, 0.0
    if not (d is float32 or d is float64 or d is complex64 or d is complex128):
        # PyTorch's errors in its order: the default rtol reads the epsilon of the input's
        # type, then the singular values' (eigenvalues') dtype check and kernel refuse
        if rtol is None:
            raise RuntimeError("This function doesn't handle types other than float and double")
        if hermitian:
            raise not_implemented_for("linalg_eigh_cpu", d)
        _check_float_input(d, "linalg.svd")
        raise not_implemented_for("linalg_svd_cpu", d)
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


cdef Tensor op_linalg_cond(Tensor A, object p):
    _check_matrix(A, "linalg.cond", False)
    # (no dtype check of its own: the singular values' or the inverse's refuses)
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


# ---------------------------------------------------------------- the internal norms (nuclear, frobenius, _norm_dim)

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


# ---------------------------------------------------------------- weight_norm's norms

cdef Tensor op__norm_all(Tensor self, object p):
    cdef Tensor n
    with NoGradGuard():
        n = op_linalg_vector_norm(self, p, None, False, None)
    cdef Tensor result = make(n._data)
    record_NormBackward0(result, self, p)
    return result


cdef Tensor norm_all_jvp(Tensor self, Tensor self_t, object p, Tensor norm):
    """at::norm(self, p)'s tangent. PyTorch's formula (norm_jvp with no dims and no
    keepdim) gives a tangent of shape [1] * self.dim() for a 0-d norm, which its forward
    AD refuses to set: its error for any input of one or more dims."""
    cdef Py_ssize_t nd = _ndim(self)
    if nd:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size [] while the given "
            f"forward gradient is of size [{', '.join(['1'] * nd)}].")
    return linalg_vector_norm_jvp(self, self_t, p, norm, None, False)


cdef Tensor op_norm_except_dim(Tensor v, object pow, object dim):
    # PyTorch's composition (WeightNorm.cpp), node for node; its norm checks the dtype
    cdef Py_ssize_t nd = _ndim(v)
    cdef tuple s = shape_of(v._data)
    cdef dtype vd = dtype_of(v._data)
    if vd.category != CAT_FLOAT and vd.category != CAT_COMPLEX:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {vd.scalar_name} instead.")
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
    # PyTorch's fused kernel: no forward derivative (Note [Forward AD refusals before
    # the kernel]; the composition above has one), real v only, g of v's dtype
    fw_refuse("_weight_norm_interface", (v, g))
    cdef dtype vd = dtype_of(v._data), gd = dtype_of(g._data)
    if vd.category != CAT_FLOAT:   # (the kernel's dispatch: floating types only)
        raise not_implemented_for("weight_norm_kernel", vd)
    if gd is not vd:
        raise RuntimeError(f"expected scalar type {vd.scalar_name} but found {gd.scalar_name}")
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
