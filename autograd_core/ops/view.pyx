"""view ops (being ported)."""
include "_prelude.pxi"


cdef object _todo(str name):
    raise NotImplementedError(f"{name}: not ported yet")


cdef Tensor op_permute(Tensor self, object dims):
    return _todo("permute")


cdef Tensor op_transpose(Tensor self, object dim0, object dim1):
    return _todo("transpose")


cdef tuple op_unbind(Tensor self, object dim):
    return _todo("unbind")


def _py_permute(input, dims):
    return _todo("permute")


cdef Tensor op_view(Tensor self, object size):
    return _todo("view")


def _py_view(*args, **kwargs):
    return _todo("view")


cdef Tensor op_reshape(Tensor self, object shape):
    return _todo("reshape")


def _py_reshape(*args, **kwargs):
    return _todo("reshape")


cdef Tensor op_expand(Tensor self, object size):
    return _todo("expand")


def _py_expand(*args, **kwargs):
    return _todo("expand")


cdef Tensor op_squeeze(Tensor self, object dim):
    return _todo("squeeze")


cdef Tensor op_unsqueeze(Tensor self, object dim):
    return _todo("unsqueeze")


cdef Tensor op_flatten(Tensor self, object start_dim, object end_dim):
    return _todo("flatten")


cdef Tensor op_cat(list tensors, object dim):
    return _todo("cat")


cdef Tensor op_stack(list tensors, object dim):
    return _todo("stack")


cdef Tensor op_narrow(Tensor self, object dim, object start, object length):
    return _todo("narrow")


cdef Tensor op_select(Tensor self, object dim, object index):
    return _todo("select")


cdef Tensor op_slice(Tensor self, object dim, object start, object end, object step):
    return _todo("slice")


cdef Tensor op_alias(Tensor self):
    return _todo("alias")


cdef Tensor op_flip(Tensor self, object dims):
    return _todo("flip")


cdef Tensor op__unsafe_view(Tensor self, object size):
    return _todo("_unsafe_view")


cdef Tensor op_t(Tensor self):
    return _todo("t")


cdef Tensor op_diagonal(Tensor self, object offset, object dim1, object dim2):
    return _todo("diagonal")


cdef Tensor op_diagonal_backward(Tensor grad_output, object input_sizes, object offset,
                                 object dim1, object dim2):
    return _todo("diagonal_backward")


cdef Tensor op_squeeze_(Tensor self, object dim):
    return _todo("squeeze_")


include "_gen_view.pxi"
