"""Forward-mode automatic differentiation, as torch.autograd.forward_ad.

A dual tensor carries a tangent; every op run on dual tensors inside a dual level
computes its output's tangent from its inputs' (the ``result:`` formulas of
ops/derivatives.yaml; Note [Forward AD] in _core/_fw.pxi). One level at a time.

>>> import autograd_core as torch
>>> import autograd_core.autograd.forward_ad as fwAD
>>> with fwAD.dual_level():
...     x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
...     y = x * x
...     fwAD.unpack_dual(y).tangent
tensor([2., 0.])
"""
from typing import NamedTuple, Optional

from autograd_core import _vmap_state
from autograd_core._core import tensor as _core
from autograd_core.grad_mode import _DecoratorContextManager

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

# the current level, as PyTorch's module keeps it (-1: none)
_current_level = -1


def enter_dual_level():
    """Enter a new forward grad level, in which dual tensors can be made and unpacked;
    returns its index. Only one level can be active.

    >>> import autograd_core.autograd.forward_ad as fwAD
    >>> level = fwAD.enter_dual_level()
    >>> fwAD.exit_dual_level()
    >>> level
    0
    """
    global _current_level
    new_level = _core._enter_dual_level()
    if new_level != _current_level + 1:
        raise RuntimeError("Entering a new forward AD level but the current level "
                           "is not valid. Make sure you did not modify it directly.")
    _current_level = new_level
    return new_level


def exit_dual_level(*, level=None):
    """Exit the forward grad level (the last one entered): every tangent made in it is
    deleted.

    >>> import autograd_core.autograd.forward_ad as fwAD
    >>> _ = fwAD.enter_dual_level()
    >>> fwAD.exit_dual_level()
    """
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one "
                           "that was created. This is not supported.")
    _core._exit_dual_level(level)
    _current_level = level - 1


def make_dual(tensor, tangent, *, level=None):
    """A dual tensor: a view of ``tensor`` whose tangent is ``tangent`` (as is when it has
    tensor's layout, else copied into it). Backward differentiable.

    >>> import autograd_core as torch
    >>> import autograd_core.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(torch.tensor([0.]), torch.tensor([2.]))
    ...     fwAD.unpack_dual(x.exp()).tangent
    tensor([2.])
    """
    return _make_dual(tensor, tangent, level, False)


def _make_dual(tensor, tangent, level, alias):
    """make_dual; alias: an alias of tensor (torch.func.jvp's inputs, whose gradients
    are not views of the incoming one)."""
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level "
                           "exists, make sure to enter_dual_level() first.")
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(
            f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(
            f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if _vmap_state.LEVELS and not (isinstance(tensor, _core.Tensor) and
                                   isinstance(tangent, _core.Tensor)):
        # a BatchedTensor primal or tangent (Note [jvp under vmap], func/_vmap.py)
        from autograd_core.func import _vmap
        return _vmap.make_dual_batched(tensor, tangent,
                                       lambda p, t: _core._make_dual(p, t, level, alias))
    return _core._make_dual(tensor, tangent, level, alias)


class UnpackedDualTensor(NamedTuple):
    """What unpack_dual returns: the primal and the tangent (None without one)."""

    primal: object
    tangent: Optional[object]


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of a dual tensor: a view of its primal without tangent, and
    its tangent as is (None when it has none). Backward differentiable.

    >>> import autograd_core as torch
    >>> import autograd_core.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(torch.tensor([1.]), torch.tensor([3.]))
    ...     p, t = fwAD.unpack_dual(x * 2)
    >>> p, t
    (tensor([2.]), tensor([6.]))
    """
    return _unpack(tensor, level, False)


def _unpack(tensor, level=None, alias=False):
    """unpack_dual; alias: the primal's node is AliasBackward0 (torch.func.jvp's outputs)
    rather than PyTorch's Identity of _fw_primal."""
    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if _vmap_state.LEVELS and not isinstance(tensor, _core.Tensor):
        from autograd_core.func import _vmap
        if _vmap.is_batched(tensor):
            return UnpackedDualTensor(*_vmap.unpack_dual_batched(
                tensor, lambda p: _core._unpack_dual(p, level, alias)))
    primal, dual = _core._unpack_dual(tensor, level, alias)
    return UnpackedDualTensor(primal, dual)


class dual_level(_DecoratorContextManager):
    """Context manager entering a forward AD level on entry and exiting it on exit (every
    tangent of it is then deleted). Not nestable.

    >>> import autograd_core as torch
    >>> import autograd_core.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     out = fwAD.make_dual(torch.tensor([1.]), torch.tensor([1.])) * 3
    ...     grad = fwAD.unpack_dual(out).tangent
    >>> grad, fwAD.unpack_dual(out).tangent
    (tensor([3.]), None)
    """

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, exc_type, exc_value, traceback):
        exit_dual_level()


_is_fwd_grad_enabled = _core._is_fwd_grad_enabled


class _set_fwd_grad_enabled(_DecoratorContextManager):
    """Forward AD on or off (per thread) for a block, as PyTorch's private helper."""

    def __init__(self, mode):
        self.prev = _is_fwd_grad_enabled()
        _core._set_fwd_grad_enabled(mode)

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        _core._set_fwd_grad_enabled(self.prev)
