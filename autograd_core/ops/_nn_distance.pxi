# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Distances (PyTorch's native/Distance.cpp, Normalization.cpp's normalize):
# normalize, cosine_similarity and pairwise_distance, composed of the table's ops.


# ================================================================ normalize, cosine_similarity

cdef Tensor op_normalize(Tensor input, object p, object dim, object eps):
    """input / max(||input||_p, eps) as PyTorch's F.normalize records it:
    linalg_vector_norm, clamp_min, expand, div."""
    cdef int nd = cnp.PyArray_NDIM(input._data)
    dims = (wrap_dim(dim, nd),) if nd else None
    cdef Tensor denom = OPS.clamp_min(OPS.linalg_vector_norm(input, p, dims, True, None), eps)
    return OPS.div(input, OPS.expand(denom, shape_of(input._data)), None)


cdef Tensor op_cosine_similarity(Tensor x1, Tensor x2, object dim, object eps):
    """PyTorch's cosine_similarity: each input divided by its norm, clamped at eps in
    place on a clone with grad mode off (unseen by autograd), then multiplied and summed."""
    cdef Tensor a = x1, b = x2, n1, n2
    if eps < 0:
        raise RuntimeError(f"eps must be non-negative, got: {float(eps):g}")
    cdef tuple sa = shape_of(a._data), sb = shape_of(b._data)
    cdef tuple shape = broadcast_shapes(sa, sb)
    if sa != shape:
        a = OPS.expand(a, shape)
    if sb != shape:
        b = OPS.expand(b, shape)
    cdef int nd = len(shape)
    d = (wrap_dim(dim, nd),) if nd else None
    n1 = OPS.clone(OPS.linalg_vector_norm(a, 2, d, True, None), None)
    n2 = OPS.clone(OPS.linalg_vector_norm(b, 2, d, True, None), None)
    with NoGradGuard():
        inplace_commit(n1, OPS.clamp_min(inplace_source(n1, ()), eps))
        inplace_commit(n2, OPS.clamp_min(inplace_source(n2, ()), eps))
    return OPS.sum(OPS.mul(OPS.div(a, n1, None), OPS.div(b, n2, None)), d, False, None)


# ================================================================ pairwise_distance

cdef Tensor op_pairwise_distance(Tensor x1, Tensor x2, object p, object eps, bint keepdim):
    cdef Py_ssize_t nd = max(cnp.PyArray_NDIM(x1._data), cnp.PyArray_NDIM(x2._data))
    return OPS._norm_dim(OPS.add_scalar(OPS.sub(x1, x2, 1), eps, 1), p, (nd - 1,), keepdim)
