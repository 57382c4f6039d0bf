"""autograd_core.linalg: PyTorch's ``torch.linalg`` namespace (the ops and their
derivatives are in the linalg op family, autograd_core/ops/linalg.pyx; the table
ops/derivatives.yaml lists them).

>>> import autograd_core as torch
>>> A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
>>> torch.linalg.det(A)
tensor(5., grad_fn=<LinalgDetBackward0>)
>>> torch.linalg.solve(A, torch.tensor([3., 4.]))
tensor([1., 1.], grad_fn=<LinalgSolveExBackward0>)
"""
from autograd_core.ops import linalg as _linalg_ops
from autograd_core.ops.linalg import LinAlgError

globals().update(_linalg_ops.LINALG)
__all__ = sorted(_linalg_ops.LINALG) + ["LinAlgError"]
