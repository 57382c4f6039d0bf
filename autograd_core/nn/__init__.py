"""autograd_core.nn: PyTorch's torch.nn namespace (so far its functional interface).

>>> import autograd_core as torch
>>> import autograd_core.nn.functional as F
>>> F.relu(torch.tensor([-1., 2.]))
tensor([0., 2.])
"""
from autograd_core.nn import functional  # noqa: F401
