"""The legacy tensor methods PyTorch implements as autograd Functions
(torch/autograd/_functions/tensor.py): the deprecated out-of-place Tensor.resize and
Tensor.resize_as, whose nodes are ResizeBackward."""
import functools
import operator
import warnings

from autograd_core._core import tensor as _core
from autograd_core.autograd.function import Function


class Resize(Function):
    """A reshape that keeps the number of elements (PyTorch's autograd Resize)."""

    @staticmethod
    def forward(ctx, tensor, sizes):
        ctx.sizes = sizes
        # (as PyTorch's: resize((6,)) multiplies out to the tuple itself, and is refused)
        ctx.numel = functools.reduce(operator.mul, sizes, 1)
        if tensor.numel() != ctx.numel:
            raise RuntimeError(
                "requested resize to {} ({} elements in total), but the given tensor has a "
                "size of {} ({} elements). autograd's resize can only change the shape of a "
                "given tensor, while preserving the number of elements. ".format(
                    "x".join(map(str, sizes)), ctx.numel,
                    "x".join(map(str, tensor.size())), tensor.numel()))
        ctx.input_sizes = tensor.size()
        return tensor.clone().contiguous().view(*sizes)

    @staticmethod
    def backward(ctx, grad_output):
        assert grad_output.numel() == ctx.numel
        return grad_output.contiguous().view(ctx.input_sizes), None


def resize(self, *sizes):
    """Deprecated: the tensor's values in another shape of as many elements (a copy).

    >>> import autograd_core as torch
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.arange(4.).resize(2, 2)
    tensor([[0., 1.],
            [2., 3.]])
    """
    warnings.warn("non-inplace resize is deprecated")
    return Resize.apply(self, sizes)


def resize_as(self, tensor):
    """Deprecated: resize to the shape of tensor (see resize)."""
    warnings.warn("non-inplace resize_as is deprecated")
    return Resize.apply(self, tuple(tensor.size()))


_core._install_methods({"resize": resize, "resize_as": resize_as})
