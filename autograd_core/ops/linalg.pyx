"""linalg ops (being ported)."""
include "_prelude.pxi"


cdef object _todo(str name):
    raise NotImplementedError(f"{name}: not ported yet")


cdef Tensor op_matmul(Tensor self, Tensor other):
    return _todo("matmul")


cdef Tensor op_mm(Tensor self, Tensor mat2):
    return _todo("mm")


cdef Tensor op_bmm(Tensor self, Tensor mat2):
    return _todo("bmm")


cdef Tensor op_addmm(Tensor self, Tensor mat1, Tensor mat2, object beta, object alpha):
    return _todo("addmm")


cdef Tensor op_linalg_vector_norm(Tensor self, object ord, object dim, bint keepdim, object dtype):
    return _todo("linalg_vector_norm")


include "_gen_linalg.pxi"
