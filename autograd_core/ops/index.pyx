"""index ops (being ported)."""
include "_prelude.pxi"


cdef object _todo(str name):
    raise NotImplementedError(f"{name}: not ported yet")


cdef Tensor op__getitem(Tensor self, object indices):
    return _todo("getitem")


cdef Tensor op__setitem(Tensor self, object indices, object value):
    return _todo("setitem")


cdef Tensor op_take(Tensor self, Tensor index):
    return _todo("take")


cdef Tensor op_put(Tensor self, Tensor index, Tensor source, bint accumulate):
    return _todo("put")


cdef Tensor op_masked_fill(Tensor self, Tensor mask, object value):
    return _todo("masked_fill")


cdef Tensor op_index_select(Tensor self, object dim, Tensor index):
    return _todo("index_select")


cdef Tensor op_gather(Tensor self, object dim, Tensor index):
    return _todo("gather")


cdef Tensor op_scatter_add(Tensor self, object dim, Tensor index, Tensor src):
    return _todo("scatter_add")


include "_gen_index.pxi"
