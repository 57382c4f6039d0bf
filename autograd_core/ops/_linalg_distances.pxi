# Distances and covariance, included by ops/linalg.pyx (one extension module;
# PyTorch's Distance.cpp and Correlation.cpp): cdist (and its internal forward,
# backward and euclidean path), pdist, dist, cov and corrcoef.
# Apart from the norms: these compare rows of two inputs (or one with itself), with
# their own kernels and PyTorch's per-path derivative rules.


# ---------------------------------------------------------------- dist

cdef Tensor op_dist(Tensor self, Tensor other, object p):
    if dtype_of(self._data) is not dtype_of(other._data):
        raise RuntimeError(f"expected both inputs to have same dtype, but found "
                           f"{dtype_of(self._data).scalar_name} and "
                           f"{dtype_of(other._data).scalar_name}")
    cdef Tensor diff
    cdef dtype d
    with NoGradGuard():
        diff = OPS.sub(self, other, 1)
        # (PyTorch's dist is norm(self - other, p): norm's dtype check, then the order's)
        d = dtype_of(diff._data)
        if d.category != CAT_FLOAT and d.category != CAT_COMPLEX:
            raise RuntimeError("norm(): input dtype should be either floating point or "
                               f"complex. Got {d.scalar_name} instead.")
        n = op_linalg_vector_norm(diff, p, None, False, None)
    cdef Tensor result = make(n._data)
    record_DistBackward0(result, self, other, p)
    return result


cdef object dist_backward_other(Tensor grad, Tensor diff, object p, Tensor dist):
    """other's part of dist's gradient: minus self's. For p = 0 self's part is undefined
    (no gradient), and PyTorch's formula negates it: its error."""
    g = linalg_vector_norm_backward(grad, diff, p, dist, None, False)
    if g is None:
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor "
                           "in C++) for argument #0 'self'")
    return OPS.neg(<Tensor>g)


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
    fw_refuse("_cdist_forward", (x1, x2))
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
    fw_refuse("_euclidean_dist", (x1, x2))
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
    modes = {None: 0, "use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
             "donot_use_mm_for_euclid_dist": 2}
    cdef int mode = modes.get(compute_mode, 0)
    cdef Py_ssize_t r1 = s1[-2], r2 = s2[-2]
    # PyTorch's cdist takes an empty operand through _cdist_forward
    cdef bint through_mm = (float(p) == 2.0 and x1._data.size and x2._data.size
                            and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))))
    if not through_mm:
        # _cdist_forward refuses forward AD before its kernel's checks (Note [Forward AD
        # refusals before the kernel]); the mm path checks the dtypes first
        fw_refuse("_cdist_forward", (x1, x2))
    if d1.category != CAT_FLOAT:
        raise RuntimeError(f"cdist only supports floating-point dtypes, X1 got: {d1.scalar_name}")
    if d2.category != CAT_FLOAT:
        raise RuntimeError(f"cdist only supports floating-point dtypes, X2 got: {d2.scalar_name}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if compute_mode not in modes:
        raise RuntimeError(f"{compute_mode} is not a valid value for compute_mode")
    if through_mm:
        fw_refuse("_euclidean_dist", (x1, x2))  # (before mm's dtype check)
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


cdef dict _CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": None,
                          "use_mm_for_euclid_dist": "use_mm_for_euclid_dist",
                          "donot_use_mm_for_euclid_dist": "donot_use_mm_for_euclid_dist"}


def _py_cdist(_a0=ARG_MISSING, _a1=ARG_MISSING, _a2=ARG_MISSING, _a3=ARG_MISSING, /, *,
              x1=ARG_MISSING, x2=ARG_MISSING, p=ARG_MISSING, compute_mode=ARG_MISSING):
    """PyTorch's torch.cdist (Python): compute_mode is checked before the tensors (a
    ValueError for anything but its three names), then p goes on by position."""
    x1 = bind_arg(_a0, x1, "cdist", "x1")
    x2 = bind_arg(_a1, x2, "cdist", "x2")
    p = bind_arg(_a2, p, "cdist", "p")
    compute_mode = bind_arg(_a3, compute_mode, "cdist", "compute_mode")
    if x1 is ARG_MISSING or x2 is ARG_MISSING:
        raise missing_arguments("cdist", (('x1', x1), ('x2', x2), ))
    if p is ARG_MISSING:
        p = 2.0
    if compute_mode is ARG_MISSING:
        compute_mode = "use_mm_for_euclid_dist_if_necessary"
    if (type(x1) is not Tensor and has_torch_function(x1)) or (type(x2) is not Tensor and has_torch_function(x2)):
        return handle_torch_function(_py_cdist, (x1, x2), {"p": p, "compute_mode": compute_mode})
    cdef object mode
    if type(compute_mode) is str and compute_mode in _CDIST_MODES:
        mode = _CDIST_MODES[compute_mode]
    else:   # (None too: it is aten::cdist's default, not torch.cdist's; see _aten_cdist)
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    cdef Tensor x1_ = arg_tensor(x1, "cdist", "x1", 1)
    cdef Tensor x2_ = arg_tensor(x2, "cdist", "x2", 2)
    cdef object p_ = arg_float(p, "cdist", "p", 3)
    if complex_arg(x1_) or complex_arg(x2_):
        check_complex_args("cdist", (x1_, x2_, ))
    return OPS.cdist(x1_, x2_, p_, mode)


_py_cdist.__signature__ = wrapper_signature(
    "x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'")


cdef Tensor op_pdist(Tensor self, object p):
    if _ndim(self) != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {_ndim(self)}D")
    if dtype_of(self._data).category != CAT_FLOAT:
        raise RuntimeError(f"pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    fw_refuse("_pdist_forward", (self,))   # (PyTorch's composite checks, then its kernel's)
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

cdef Tensor _cov_weights(Tensor w, str name, Py_ssize_t nobs):
    """cov()'s checks of fweights (integral) or aweights (floating), in PyTorch's order."""
    if _ndim(w) > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but "
                           f"got {name} with {_ndim(w)} dimensions")
    cdef bint integral = name == "fweights"
    cdef int cat = dtype_of(w._data).category
    if (cat in (CAT_FLOAT, CAT_COMPLEX, CAT_BOOL)) if integral else cat != CAT_FLOAT:
        raise RuntimeError(f"cov(): expected {name} to have "
                           f"{'integral' if integral else 'floating point'} dtype but got "
                           f"{name} with {dtype_of(w._data).scalar_name} dtype")
    if cnp.PyArray_SIZE(w._data) != nobs:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {cnp.PyArray_SIZE(w._data)} "
                           f"!= {nobs}")
    if nobs and w._data.min() < 0:
        raise RuntimeError(f"cov(): {name} cannot be negative")
    return w


cdef Tensor op_cov(Tensor self, object correction, Tensor fweights, Tensor aweights):
    if _ndim(self) > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {_ndim(self)} dimensions")
    if dtype_of(self._data).category == CAT_BOOL:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    cdef Tensor inp = OPS.view(self, (1, -1)) if _ndim(self) < 2 else self
    cdef Py_ssize_t nobs = shape_of(inp._data)[1]
    w = None
    if fweights is not None:
        w = _cov_weights(<Tensor>fweights, "fweights", nobs)
    if aweights is not None:
        aw = _cov_weights(<Tensor>aweights, "aweights", nobs)
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
    # (complex: the Hermitian product (x - mean) (x - mean)^H, PyTorch's .t().conj())
    cdef Tensor c = op_mm(inp, <Tensor>cj(OPS.t(OPS.mul(inp, <Tensor>w) if w is not None
                                                else inp)))
    return OPS.squeeze(OPS.div(c, norm_factor, None), None)


cdef Tensor op_corrcoef(Tensor self):
    if _ndim(self) > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {_ndim(self)} dimensions")
    cdef Tensor c = op_cov(self, 1, None, None)
    if _ndim(c) == 0:
        return OPS.div(c, c, None)
    cdef Tensor d = OPS.diagonal(c, 0, 0, 1)
    cdef bint is_complex = cnp.PyArray_ISCOMPLEX(c._data)
    # (a complex covariance has a real diagonal: the variances)
    cdef Tensor stddev = OPS.sqrt(OPS.real(d) if is_complex else d)
    c = OPS.div(c, OPS.view(stddev, (-1, 1)), None)
    c = OPS.div(c, OPS.view(stddev, (1, -1)), None)
    if is_complex:   # clip is real-only: PyTorch clips each part
        return OPS.complex(OPS.clamp(OPS.real(c), -1, 1), OPS.clamp(OPS.imag(c), -1, 1))
    return OPS.clamp(c, -1, 1)
