"""torch.backends: the flags programs set for backends. autograd_core computes with
numpy on the CPU: cuDNN, MPS and CUDA are absent (their flags are kept, as PyTorch keeps
them on a build without those backends); MKL and OpenMP report whether numpy's BLAS
is there to use.

>>> import autograd_core as torch
>>> torch.backends.cudnn.deterministic = True
>>> torch.backends.cudnn.benchmark = False
>>> torch.backends.mps.is_available()
False
"""
from autograd_core.backends import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp  # noqa: F401
