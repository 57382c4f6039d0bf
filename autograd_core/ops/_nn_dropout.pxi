# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Dropout (PyTorch's native/Dropout.cpp): dropout and feature_dropout (and their
# in-place forms), from the core's random stream (_core/random.pyx).


# ================================================================ dropout

cdef Tensor dropout_noise(Tensor x, object p, bint feature):
    """The mask divided by 1 - p (zeros where dropped), as a constant."""
    cdef cnp.ndarray xa = x._data
    cdef dtype d = dtype_of(xa)
    if p == 1:  # PyTorch: input times a 0-d zero of its own dtype, whatever the dtype
        return zeros((), d)
    if d.category == CAT_COMPLEX:
        raise not_implemented_for("bernoulli_scalar_cpu_", d)
    if d.category != CAT_FLOAT:
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{d.scalar_name}")
    if feature:
        if cnp.PyArray_NDIM(xa) < 2:   # (after p == 1, as PyTorch's make_feature_noise)
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        nshape = shape_of(xa)[:2] + (1,) * (cnp.PyArray_NDIM(xa) - 2)
    else:
        nshape = shape_of(xa)
    # PyTorch: noise = empty_like(input) (input's layout) or a contiguous (N, C, 1, ...)
    # for feature dropout; noise.bernoulli_(1 - p); noise.div_(1 - p)
    like = np.empty(nshape, dtype=xa.dtype) if feature else xa
    keep = bernoulli_scalar_values(None, like, 1 - p)
    return const((keep / xa.dtype.type(1 - p)).astype(xa.dtype))


cdef Tensor dropout_impl(Tensor input, object p, bint train, bint feature, bint inplace):
    """input times the noise (MulBackward0, in place: the in-place mul), or input itself
    when nothing is dropped."""
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or cnp.PyArray_SIZE(input._data) == 0:
        return input
    cdef Tensor noise = dropout_noise(input, p, feature)
    return OPS.mul_(input, noise) if inplace else OPS.mul(input, noise)
