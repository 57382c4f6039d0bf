# Included by ops/nn.pyx (one extension module; the shared helpers are there).
# linear (PyTorch's native/Linear.cpp: composed of matmul/addmm as PyTorch composes it),
# and the per-sample outer products vmap's per-sample linear gradients use, allocated
# from the buffer cache (Note [Buffer cache], csrc/agc_bufcache.h) whose numpy memory
# handler is set up here.


# ================================================================ linear

cdef Tensor op_linear(Tensor input, Tensor weight, Tensor bias):
    """PyTorch's linear: addmm for a 2-D input with a bias (and for a contiguous 3-D one,
    flattened), else matmul then add."""
    cdef int nd = cnp.PyArray_NDIM(input._data)
    cdef tuple xs = shape_of(input._data)
    cdef Tensor wt = OPS.t(weight), r
    if nd == 2 and bias is not None:
        return OPS.addmm(bias, input, wt, 1, 1)
    if bias is not None and nd >= 1 and cnp.PyArray_IS_C_CONTIGUOUS(input._data) and \
            (nd == 3 or cnp.PyArray_NDIM(bias._data) == 1):
        r = OPS.addmm(bias, OPS.reshape(input, (shape_numel(xs[:-1]), xs[-1])), wt, 1, 1)
        return OPS.view(r, xs[:-1] + (shape_of(r._data)[1],))
    r = OPS.matmul(input, wt)
    if bias is not None:
        r = OPS.add(r, bias, 1)
    return r


# ---------------------------------------------------------------- per-sample outer products

# numpy's memory handler over the buffer cache (Note [Buffer cache]): static, as the
# capsule refers to it for the life of the process
cdef PyDataMem_Handler _buffer_cache_handler
strcpy(_buffer_cache_handler.name, b"autograd_core_buffer_cache")
_buffer_cache_handler.version = 1
_buffer_cache_handler.allocator.ctx = NULL
_buffer_cache_handler.allocator.malloc = agc_buf_malloc
_buffer_cache_handler.allocator.calloc = agc_buf_calloc
_buffer_cache_handler.allocator.realloc = agc_buf_realloc
_buffer_cache_handler.allocator.free = agc_buf_free
_BUFFER_CACHE = PyCapsule_New(&_buffer_cache_handler, "mem_handler", NULL)


def _buffer_cache_bytes():
    """Bytes the buffer cache holds now (Note [Buffer cache]; for the tests)."""
    return agc_buf_cached_bytes()


def _buffer_cache_release():
    """Frees every block the buffer cache holds (Note [Buffer cache])."""
    agc_buf_release()


def _per_sample_outer(Tensor g, Tensor x):
    """out[b, o, i] = g[b, o] * x[b, i] for g (B, O) and x (B, I): the per-sample weight
    gradients of a linear layer with one row per sample (vmap's per-sample gradients,
    func/_vmap.py), in one pass. Values only, no graph: the caller runs it with grad
    mode off."""
    cdef cnp.ndarray ga = g._data, xa = x._data, out
    if cnp.PyArray_NDIM(ga) != 2 or cnp.PyArray_NDIM(xa) != 2 or \
            cnp.PyArray_DIMS(ga)[0] != cnp.PyArray_DIMS(xa)[0]:
        raise RuntimeError("_per_sample_outer: expected g (B, O) and x (B, I)")
    if not (c_float(ga) and cnp.PyArray_TYPE(ga) == cnp.PyArray_TYPE(xa)):
        with quiet():
            return make(as_array(np.multiply(ga[:, :, None], xa[:, None, :])))
    ga = np.ascontiguousarray(ga)
    xa = np.ascontiguousarray(xa)
    cdef Py_ssize_t B = cnp.PyArray_DIMS(ga)[0], O = cnp.PyArray_DIMS(ga)[1]
    cdef Py_ssize_t I = cnp.PyArray_DIMS(xa)[1]
    # fresh memory on every call, dropped by the caller before the next: from the buffer
    # cache (Note [Buffer cache] in csrc/agc_bufcache.h)
    previous = PyDataMem_SetHandler(_BUFFER_CACHE)
    try:
        out = np.empty((B, O, I), dtype=ga.dtype)
    finally:
        PyDataMem_SetHandler(previous)
    if cnp.PyArray_TYPE(ga) == cnp.NPY_FLOAT32:
        with nogil:
            agc_rows_outer_f32(<float *>cnp.PyArray_DATA(ga), <float *>cnp.PyArray_DATA(xa),
                               <float *>cnp.PyArray_DATA(out), B, O, I)
    else:
        with nogil:
            agc_rows_outer_f64(<double *>cnp.PyArray_DATA(ga), <double *>cnp.PyArray_DATA(xa),
                               <double *>cnp.PyArray_DATA(out), B, O, I)
    return make(out)
