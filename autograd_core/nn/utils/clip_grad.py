"""Gradient clipping: clip_grad_norm_ (total norm over all gradients) and clip_grad_value_."""
from __future__ import annotations
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autograd_core._core.tensor import Tensor

    _TensorOrTensors = Tensor | Iterable[Tensor]

import types
import warnings

import autograd_core as _ag

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "get_total_norm",
           "clip_grads_with_norm_"]


def _as_list(tensors):
    return [tensors] if isinstance(tensors, _ag.Tensor) else list(tensors)


def get_total_norm(tensors: _TensorOrTensors, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """The norm of the norms of the tensors (the norm of their concatenation)."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return _ag.tensor(0.0)
    with _ag.no_grad():
        norms = [_ag.linalg.vector_norm(g, norm_type) for g in tensors]
        dtypes = {n.dtype for n in norms}
        if len(dtypes) > 1:
            norms = [n.to(_ag.promote_types(*dtypes) if len(dtypes) == 2 else _ag.float64)
                     for n in norms]
        total_norm = _ag.linalg.vector_norm(_ag.stack(norms), norm_type)
    if error_if_nonfinite and bool(_ag.logical_or(total_norm.isnan(), total_norm.isinf())):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the gradients "
            "by the non-finite norm anyway, set `error_if_nonfinite=False`")
    return total_norm


def clip_grads_with_norm_(parameters: _TensorOrTensors, max_norm: float, total_norm: Tensor,
                          foreach: bool | None = None) -> None:
    """Scale the gradients by min(1, max_norm / (total_norm + 1e-6)) in place."""
    parameters = _as_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return
    with _ag.no_grad():
        coef = _ag.clamp(float(max_norm) / (total_norm + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype))


def clip_grad_norm_(parameters: _TensorOrTensors, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Clip the gradients of parameters in place so that their total norm is at most
    max_norm; returns the total norm before clipping."""
    if isinstance(parameters, _ag.Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                          stacklevel=3)
    max_norm, norm_type = float(max_norm), float(norm_type)  # as PyTorch: "x" is a ValueError
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters: _TensorOrTensors, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Deprecated alias of clip_grad_norm_."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters: _TensorOrTensors, clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clamp every gradient to [-clip_value, clip_value] in place."""
    clip_value = float(clip_value)
    with _ag.no_grad():
        for p in _as_list(parameters):
            if p.grad is not None:
                p.grad.copy_(p.grad.clamp(-clip_value, clip_value))
