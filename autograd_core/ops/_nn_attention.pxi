# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# Scaled dot-product attention (PyTorch's native/transformers/attention.cpp): the CPU
# flash kernel's forward and backward (Note [CPU flash attention]), the input checks
# and the math composite nn.functional.scaled_dot_product_attention falls back to.


# ================================================================ scaled_dot_product_attention

# Note [CPU flash attention]
# F.scaled_dot_product_attention takes PyTorch's CPU flash kernel where PyTorch would
# (nn.functional's _cpu_flash_attention decides): one node,
# ScaledDotProductFlashAttentionForCpuBackward0, saving query, key, value, the output and
# each row's logsumexp, where the math path records matmul and softmax. The backward
# recomputes the attention weights as exp(scores - logsumexp) instead of keeping them.
# A fully masked row (every score -inf) attends to nothing: output 0 and logsumexp 0 (the
# kernel's values, not the math path's NaN), so its weights recompute to 0 too. Half
# precision computes in float, as the kernel's accumulation type.

cdef tuple _flash_operands(Tensor query, Tensor key, Tensor value):
    """query, key and value as arrays of the computation's dtype, key and value repeated
    over the query's heads (grouped-query attention: each key/value head serves
    Hq / Hk consecutive query heads), and that repeat count."""
    cdef cnp.ndarray q = query._data
    ct = np.float32 if q.itemsize < 4 else q.dtype
    q = q.astype(ct, copy=False)
    k = key._data.astype(ct, copy=False)
    v = value._data.astype(ct, copy=False)
    cdef Py_ssize_t reps = q.shape[1] // k.shape[1]
    if reps > 1:
        k = np.repeat(k, reps, axis=1)
        v = np.repeat(v, reps, axis=1)
    return q, k, v, reps


cdef cnp.ndarray _flash_scores(cnp.ndarray q, cnp.ndarray k, Tensor attn_mask, bint is_causal,
                               double scale):
    """scale * q k^T with the additive mask, -inf above the diagonal when causal (aligned
    top-left, as the kernel's)."""
    cdef cnp.ndarray s = np.matmul(q, np.swapaxes(k, -1, -2))
    s *= scale
    if is_causal:
        s[..., ~np.tril(np.ones((s.shape[2], s.shape[3]), dtype=bool))] = -np.inf
    if attn_mask is not None:
        s += attn_mask._data.astype(s.dtype, copy=False)
    return s


cdef cnp.ndarray _heads_inner(object values, object dtype):
    """values (B, H, n, ...) as dtype, stored (B, n, H, ...): the kernel allocates its
    logsumexp and gradients so and returns them transposed."""
    shape = values.shape
    cdef cnp.ndarray out = np.empty((shape[0], shape[2], shape[1]) + shape[3:],
                                    dtype=dtype).swapaxes(1, 2)
    out[...] = values
    return out


cdef double _flash_scale(Tensor query, object scale):
    """sdp::calculate_scale: 1 / sqrt(head size) unless given."""
    return 1.0 / math.sqrt(cnp.PyArray_DIMS(query._data)[3]) if scale is None else scale


cdef tuple op__scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value,
                                                          object dropout_p, bint is_causal,
                                                          Tensor attn_mask, object scale):
    """(output, logsumexp) of (B, Hq, L, E) query, (B, Hk, S, E) key and value
    (Note [CPU flash attention]); dropout_p is 0 on this path."""
    cdef cnp.ndarray qa = query._data
    q, k, v, reps = _flash_operands(query, key, value)
    with quiet():
        s = _flash_scores(q, k, attn_mask, is_causal, _flash_scale(query, scale))
        m = s.max(-1, keepdims=True)
        empty = np.isneginf(m)
        m[empty] = 0
        e = np.exp(s - m)
        total = e.sum(-1, keepdims=True)
        total[empty] = 1
        o = np.matmul(e, v) / total
        o[np.broadcast_to(empty, o.shape)] = 0
        lse = m + np.log(total)
    # the kernel's results: output as empty_like(query) (Note [Composite output layout]),
    # logsumexp stored (B, L, H)
    cdef Tensor output = make(as_preserved(o.astype(qa.dtype, copy=False), qa))
    cdef Tensor logsumexp = make(_heads_inner(lse[..., 0], q.dtype))
    record_ScaledDotProductFlashAttentionForCpuBackward0(output, logsumexp, query, key, value,
                                                         dropout_p, is_causal, attn_mask, scale)
    return (output, logsumexp)


cdef Tensor sdpa_flash_backward(Tensor grad, Tensor query, Tensor key, Tensor value,
                                Tensor output, Tensor logsumexp, object dropout_p,
                                object is_causal, Tensor attn_mask, object scale, int which):
    """The gradient of _scaled_dot_product_flash_attention_for_cpu for query (which 0), key
    (1) or value (2), stored (B, n, H, E) as the kernel's. With W the recomputed weights
    and D = rowsum(grad * output): dV = W^T grad, dS = W * (grad V^T - D),
    dQ = scale dS K, dK = scale dS^T Q; a grouped key/value head sums over its query heads.
    PyTorch has no derivative for it: its NotImplemented node."""
    q, k, v, reps = _flash_operands(query, key, value)
    cdef double sc = _flash_scale(query, scale)
    ct = q.dtype
    g = grad._data.astype(ct, copy=False)
    with quiet():
        w = np.exp(_flash_scores(q, k, attn_mask, is_causal, sc)
                   - logsumexp._data.astype(ct, copy=False)[..., None])
        if which == 2:
            d = np.matmul(np.swapaxes(w, -1, -2), g)
        else:
            ds = np.matmul(g, np.swapaxes(v, -1, -2))
            ds -= (g * output._data.astype(ct, copy=False)).sum(-1, keepdims=True)
            ds *= w
            d = np.matmul(ds, k) if which == 0 else np.matmul(np.swapaxes(ds, -1, -2), q)
            d *= sc
    if which and reps > 1:     # (summed before the cast to the input's dtype)
        d = d.reshape(d.shape[0], d.shape[1] // reps, reps, d.shape[2], d.shape[3]).sum(2)
    cdef Tensor result = make(_heads_inner(d, (query, key, value)[which]._data.dtype))
    OPS.not_implemented_node(result, (grad, query, key, value, output, logsumexp),
                             "_scaled_dot_product_flash_attention_for_cpu_backward")
    return result


def scaled_dot_product_flash_attention_cpu(Tensor query, Tensor key, Tensor value,
                                           Tensor attn_mask, bint is_causal, object scale):
    """F.scaled_dot_product_attention on PyTorch's CPU flash path: nn.functional has
    checked the arguments and chosen the path (Note [CPU flash attention]); a boolean
    mask comes as its additive float form.

    >>> import autograd_core as torch
    >>> from autograd_core.ops import nn
    >>> q = torch.ones(1, 1, 2, 2, requires_grad=True)
    >>> nn.scaled_dot_product_flash_attention_cpu(q, q, q, None, False, None).grad_fn.name()
    'ScaledDotProductFlashAttentionForCpuBackward0'
    """
    return op__scaled_dot_product_flash_attention_for_cpu(
        query, key, value, 0.0, is_causal, attn_mask, None if scale is None else float(scale))[0]



def check_sdpa_input(Tensor query, Tensor key, Tensor value, Tensor attn_mask):
    """PyTorch's validate_sdpa_input, before either path: its checks, order and messages
    (the C++ dtype names, the doubled spaces included).

    >>> import autograd_core as torch
    >>> from autograd_core.ops import nn
    >>> nn.check_sdpa_input(torch.ones(2, 2), torch.ones(2, 2), torch.ones(2, 2), None)
    """
    cdef dtype dq = dtype_of(query._data), dk = dtype_of(key._data), dv = dtype_of(value._data)
    if dq is not dk or dq is not dv:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {dq.cpp_name} key.dtype: {dk.cpp_name} and "
                           f"value.dtype: {dv.cpp_name} instead.")
    if (cnp.PyArray_NDIM(query._data) < 2 or cnp.PyArray_NDIM(key._data) < 2
            or cnp.PyArray_NDIM(value._data) < 2):
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {cnp.PyArray_NDIM(query._data)} key.dim: "
                           f"{cnp.PyArray_NDIM(key._data)} and value.dim: "
                           f"{cnp.PyArray_NDIM(value._data)} instead.")
    if attn_mask is None:
        return
    cdef dtype dm = dtype_of(attn_mask._data)
    if dm is not bool_ and dm is not float32 and dm is not dq:
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {dm.cpp_name} and  query.dtype: "
                           f"{dq.cpp_name} instead.")


def scaled_dot_product_attention_math(Tensor query, Tensor key, Tensor value,
                                      Tensor attn_bias, double dropout_p, double scale):
    """F.scaled_dot_product_attention off the flash path, as PyTorch's math composite
    records it: query and key are each scaled by sqrt(scale) before their product (so
    the product's node saves those copies, not the caller's tensors: a later in-place
    write into a query that needs no gradient is no error), the additive mask is added
    in place, and a row masked throughout gives zeros (_safe_softmax). key and value
    come with their heads repeated for GQA already.

    >>> import autograd_core as torch
    >>> from autograd_core.ops import nn
    >>> q = torch.ones(1, 2, 2, requires_grad=True)
    >>> nn.scaled_dot_product_attention_math(q, q, q, None, 0.0, 0.5).grad_fn.name()
    'UnsafeViewBackward0'
    """
    cdef double f = sqrt(fabs(scale))
    cdef Tensor attn = OPS.matmul(OPS.mul_scalar(query, -f if scale < 0 else f),
                                  OPS.mul_scalar(OPS.transpose(key, -2, -1), f))
    if attn_bias is not None:
        attn = OPS.add_(attn, attn_bias, 1)
    attn = op__safe_softmax(attn, -1, None)
    if dropout_p > 0.0:
        attn = OPS.dropout(attn, dropout_p, True)
    return OPS.matmul(attn, value)
