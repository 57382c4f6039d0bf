# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Embedding (PyTorch's native/Embedding.cpp): embedding, its dense backward and
# embedding_renorm_.


# ================================================================ embedding

cdef Tensor op_embedding(Tensor weight, Tensor indices, object padding_idx,
                         bint scale_grad_by_freq, bint sparse):
    cdef dtype d = dtype_of(indices._data)
    if d is not int64 and d is not int32:
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got {legacy_type_name(indices)} instead (while checking arguments "
            "for embedding)")
    if cnp.PyArray_NDIM(weight._data) != 2:
        raise RuntimeError("'weight' must be 2-D")
    cdef tuple ws = shape_of(weight._data)
    flat = indices._data.reshape(-1).astype(np.int64)
    if flat.size and (flat.min() < 0 or flat.max() >= ws[0]):
        raise IndexError("index out of range in self")
    cdef Tensor result = make(np.ascontiguousarray(
        weight._data[flat].reshape(shape_of(indices._data) + (ws[1],))))
    record_EmbeddingBackward0(result, weight, indices, padding_idx, scale_grad_by_freq, sparse)
    return result


cdef Tensor embedding_backward(Tensor grad, Tensor indices, tuple weight_shape,
                               object padding_idx, bint scale_grad_by_freq):
    """The rows of grad summed into the rows of a zero weight they came from (the
    padding row gets none; scale_grad_by_freq divides by each index's count)."""
    flat = indices._data.reshape(-1).astype(np.int64)
    cdef Tensor g2 = OPS.reshape(grad, (-1, weight_shape[1]))
    if (padding_idx is not None and padding_idx >= 0) or scale_grad_by_freq:
        scale = np.ones((flat.size, 1), dtype=grad._data.dtype)
        if scale_grad_by_freq:
            counts = np.bincount(flat, minlength=weight_shape[0])
            scale[:, 0] = 1.0 / counts[flat]
        if padding_idx is not None and padding_idx >= 0:
            scale[flat == padding_idx] = 0
        g2 = OPS.mul(g2, const(scale))
    index = np.ascontiguousarray(np.broadcast_to(flat[:, None], (flat.size, weight_shape[1])))
    return OPS.scatter_add(zeros(weight_shape, dtype_of(grad._data)), 0, make(index), g2)


cdef Tensor op_embedding_renorm_(Tensor self, Tensor indices, object max_norm, object norm_type):
    cdef Tensor src = inplace_source(self, ())
    rows = np.unique(indices._data.reshape(-1).astype(np.int64))
    cdef cnp.ndarray values = np.array(src._data, copy=True)
    sub = values[rows].astype(np.float64)
    with quiet():
        norms = np.sum(np.abs(sub) ** norm_type, axis=1) ** (1.0 / norm_type)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    values[rows] = (sub * scale[:, None]).astype(values.dtype)
    return inplace_commit(self, make(values))
