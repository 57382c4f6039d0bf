"""nn ops (being ported)."""
include "_prelude.pxi"


cdef object _todo(str name):
    raise NotImplementedError(f"{name}: not ported yet")


include "_gen_nn.pxi"
