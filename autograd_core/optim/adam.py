"""Adam (and, with ``decoupled_weight_decay=True``, AdamW): PyTorch's single-tensor
algorithm, with amsgrad, maximize, weight decay and Tensor lr/betas."""
from __future__ import annotations
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autograd_core._core.tensor import Tensor
    from autograd_core.optim.optimizer import ParamsT

import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_adam_args, _check_capturable, _check_fused, _check_fused_options,
    _closure_loss, _get_scalar_dtype, _get_value, _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["Adam", "adam"]


class Adam(Optimizer):
    """Adam, as ``torch.optim.Adam``."""

    _sparse_grad_message = ("Adam does not support sparse gradients, please consider SparseAdam "
                            "instead")

    _group_defaults = {"amsgrad": False, "maximize": False, "foreach": None,
                       "capturable": False, "differentiable": False,
                       "decoupled_weight_decay": False, "fused": None}
    _scalar_state = ("step",)

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float | Tensor, float | Tensor] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        if isinstance(lr, _ag.Tensor) and foreach and not capturable:
            raise ValueError("lr as a Tensor is not supported for capturable=False and "
                             "foreach=True")
        _check_adam_args(lr, betas, eps, weight_decay)
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], _ag.Tensor) and isinstance(betas[1], _ag.Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        for idx in (0, 1):
            if isinstance(betas[idx], _ag.Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{idx}] as a Tensor is not supported for "
                                     "capturable=False and foreach=True")
                if betas[idx].numel() != 1:
                    raise ValueError(f"Tensor betas[{idx}] must be 1-element")
        betas = tuple(map(_to_scalar, betas))
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        _check_fused_options(fused, differentiable, foreach)

    @staticmethod
    def _step_dtype(group):
        return _get_scalar_dtype(group["fused"])

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs,
                    max_exp_avg_sqs, state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            self._check_dense_grad(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                if group["fused"]:
                    _check_fused(p)
                state["step"] = _ag.tensor(0.0, dtype=self._step_dtype(group))
                state["exp_avg"] = _ag.zeros_like(p)
                state["exp_avg_sq"] = _ag.zeros_like(p)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = _ag.zeros_like(p)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            if group["differentiable"] and state["step"].requires_grad:
                raise RuntimeError("`requires_grad` is not supported for `step` in "
                                   "differentiable mode")
            if group["foreach"] and _ag.is_tensor(group["lr"]) and not group["capturable"]:
                raise RuntimeError("lr as a Tensor is not supported for capturable=False and "
                                   "foreach=True")
            state_steps.append(state["step"])
        return False

    @_use_grad_for_differentiable
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Perform a single optimization step (``closure`` re-evaluates the model and
        returns the loss)."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params_with_grad, grads, exp_avgs, exp_avg_sqs = [], [], [], []
            max_exp_avg_sqs, state_steps = [], []
            beta1, beta2 = group["betas"]
            self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs,
                             max_exp_avg_sqs, state_steps)
            adam(params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
                 state_steps, amsgrad=group["amsgrad"], beta1=beta1, beta2=beta2,
                 lr=group["lr"], weight_decay=group["weight_decay"], eps=group["eps"],
                 maximize=group["maximize"], capturable=group["capturable"],
                 differentiable=group["differentiable"],
                 decoupled_weight_decay=group["decoupled_weight_decay"])
        return loss


def adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, amsgrad,
         beta1, beta2, lr, weight_decay, eps, maximize, capturable=False,
         differentiable=False, decoupled_weight_decay=False, foreach=None, fused=None,
         has_complex=False, grad_scale=None, found_inf=None):
    """Functional Adam/AdamW (PyTorch's ``_single_tensor_adam``, non-capturable branch)."""
    if params:
        _check_capturable(capturable)
    lr = _to_scalar(lr)
    beta1 = _to_scalar(beta1)
    beta2 = _to_scalar(beta2)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        step_t += 1

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            elif differentiable and isinstance(weight_decay, _ag.Tensor) \
                    and weight_decay.requires_grad:
                grad = grad.addcmul_(param.clone(), weight_decay)
            else:
                grad = grad.add(param, alpha=_get_value(weight_decay))

        param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq = _real_views(
            param, grad, exp_avg, exp_avg_sq, max_exp_avg_sqs[i] if amsgrad else None)
        b1 = beta1.to(dtype=param.dtype) if isinstance(beta1, _ag.Tensor) else beta1
        exp_avg.lerp_(grad, 1 - b1)
        if differentiable and isinstance(beta2, _ag.Tensor) and beta2.requires_grad:
            exp_avg_sq.lerp_(_ag.square(grad), 1 - beta2)
        else:
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=_get_value(1 - beta2))

        if differentiable:
            # PyTorch's differentiable branch keeps everything as tensors.
            step = step_t
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            step_size = lr / bias_correction1
            step_size_neg = step_size.neg()
            bias_correction2_sqrt = bias_correction2.sqrt()
            if amsgrad:
                max_exp_avg_sq.copy_(_ag.maximum(max_exp_avg_sq.clone(), exp_avg_sq))
                denom = (max_exp_avg_sq.sqrt() / (bias_correction2_sqrt * step_size_neg)
                         ).add_(eps / step_size_neg)
            else:
                denom = (exp_avg_sq.sqrt() / (bias_correction2_sqrt * step_size_neg)
                         ).add_(eps / step_size_neg)
            param.addcdiv_(exp_avg.clone(), denom)
        else:
            step = _get_value(step_t)
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2 ** 0.5
            if amsgrad:
                max_exp_avg_sq.copy_(_ag.maximum(max_exp_avg_sq, exp_avg_sq))
                denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            else:
                denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            param.addcdiv_(exp_avg, denom, value=-_get_value(step_size))
