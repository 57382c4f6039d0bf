# What every op family module starts with: the core's vocabulary (tensor.pxd:
# making tensors, argument checks, saving, recording, the in-place driver, OPS).
cimport cython
cimport numpy as cnp

from autograd_core._core.csrc cimport *
from autograd_core._core.dtype cimport *
from autograd_core._core.tensor cimport *

import builtins
import warnings

import numpy as np

from autograd_core._core.tensor import name_node_types

cnp.import_array()


# Note [Named results]: an op with several named returns (linalg.qr's Q and R, ...)
# gives PyTorch's torch.return_types.<op> named tuple; its C implementation returns a
# plain tuple and the generated Python wrapper names it.
cdef dict _NAMED_RESULT_TYPES = {}


cdef object named_result(str name, tuple fields, tuple values):
    cls = _NAMED_RESULT_TYPES.get(name)
    if cls is None:
        import collections

        def __repr__(self):
            body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
            return f"autograd_core.return_types.{type(self).__name__}(\n{body})"

        cls = type(name, (collections.namedtuple(name, fields),),
                   {"__slots__": (), "__repr__": __repr__})
        cls.__module__ = "autograd_core.return_types"
        _NAMED_RESULT_TYPES[name] = cls
    return cls(*values)
