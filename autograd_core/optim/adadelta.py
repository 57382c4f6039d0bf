"""Adadelta (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_capturable, _check_lr, _check_nonnegative, _closure_loss,
    _get_scalar_dtype, _get_value, _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["Adadelta", "adadelta"]


class Adadelta(Optimizer):
    """Adadelta, as ``torch.optim.Adadelta``."""

    _sparse_grad_message = "Adadelta does not support sparse gradients"

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _scalar_state = ("step",)

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_nonnegative(eps=eps, weight_decay=weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        return {"step": _ag.zeros((), dtype=_get_scalar_dtype()),
                "square_avg": _ag.zeros_like(p), "acc_delta": _ag.zeros_like(p)}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params_with_grad, grads, square_avgs, acc_deltas, state_steps = (
                self._params_and_state(group, "square_avg", "acc_delta", "step"))
            adadelta(params_with_grad, grads, square_avgs, acc_deltas, state_steps,
                     lr=group["lr"], rho=group["rho"], eps=group["eps"],
                     weight_decay=group["weight_decay"], maximize=group["maximize"],
                     differentiable=group["differentiable"], capturable=group["capturable"])
        return loss


def adadelta(params, grads, square_avgs, acc_deltas, state_steps, *, lr, rho, eps,
             weight_decay, maximize, differentiable=False, capturable=False, foreach=None,
             has_complex=False):
    """Functional Adadelta (PyTorch's ``_single_tensor_adadelta``)."""
    if params:
        _check_capturable(capturable, supports_xla=False)
    lr = _to_scalar(lr)
    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs,
                                                         acc_deltas, state_steps):
        step += 1
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        param, grad, square_avg, acc_delta = _real_views(param, grad, square_avg, acc_delta)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-_get_value(lr))
