"""autograd_core._C: where PyTorch's torch._C names live that programs reach for. Holds
Tensor's metaclass, _TensorMeta (Note [Tensor's type names] in _core/tensor.pyx)."""

from autograd_core._core.tensor import _TensorMeta  # noqa: F401

__all__ = []
