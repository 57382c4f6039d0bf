"""autograd_core.linalg: PyTorch's ``torch.linalg`` namespace (a thin layer; the ops
and their derivatives live in the compiled core, _ops_reduce_linalg.pxi).

>>> import autograd_core as torch
>>> A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
>>> torch.linalg.det(A)
tensor(5., grad_fn=<LinalgDetBackward0>)
>>> torch.linalg.solve(A, torch.tensor([3., 4.]))
tensor([1., 1.], grad_fn=<LinalgSolveExBackward0>)
"""
from autograd_core._C import _LinAlgError as LinAlgError
from autograd_core._C import linalg_det as det
from autograd_core._C import linalg_inv as inv
from autograd_core._C import linalg_matrix_norm as matrix_norm
from autograd_core._C import linalg_norm as norm
from autograd_core._C import linalg_solve as solve
from autograd_core._C import linalg_vector_norm as vector_norm

__all__ = ["LinAlgError", "det", "inv", "matrix_norm", "norm", "solve", "vector_norm"]
