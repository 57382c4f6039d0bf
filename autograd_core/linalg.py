"""autograd_core.linalg: PyTorch's ``torch.linalg`` namespace (the ops and their
derivatives are in the compiled op families; ops/derivatives.yaml lists them).

>>> import autograd_core as torch
>>> A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
>>> torch.linalg.det(A)
tensor(5., grad_fn=<LinalgDetBackward0>)
"""
from autograd_core.ops import linalg as _linalg_ops

globals().update(_linalg_ops.LINALG)
LinAlgError = getattr(_linalg_ops, "LinAlgError", None)  # TODO(port)
__all__ = sorted(_linalg_ops.LINALG) + ["LinAlgError"]
