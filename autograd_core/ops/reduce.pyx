"""reduce ops (being ported)."""
include "_prelude.pxi"


cdef object _todo(str name):
    raise NotImplementedError(f"{name}: not ported yet")


cdef Tensor op_sum_to(Tensor self, object size):
    return _todo("sum_to")


cdef Tensor op_sum(Tensor self, object dim, bint keepdim, object dtype):
    return _todo("sum")


cdef Tensor op_mean(Tensor self, object dim, bint keepdim, object dtype):
    return _todo("mean")


cdef Tensor op_amax(Tensor self, object dim, bint keepdim):
    return _todo("amax")


cdef Tensor op_amin(Tensor self, object dim, bint keepdim):
    return _todo("amin")


cdef Tensor op_prod(Tensor self, object dim, bint keepdim, object dtype):
    return _todo("prod")


include "_gen_reduce.pxi"
