"""Adamax (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_adam_args, _check_capturable, _closure_loss, _get_scalar_dtype,
    _get_value, _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["Adamax", "adamax"]


class Adamax(Optimizer):
    """Adamax (Adam with the infinity norm), as ``torch.optim.Adamax``."""

    _sparse_grad_message = "Adamax does not support sparse gradients"

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _scalar_state = ("step",)

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        return {"step": _ag.tensor(0.0, dtype=_get_scalar_dtype()),
                "exp_avg": _ag.zeros_like(p), "exp_inf": _ag.zeros_like(p)}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            params_with_grad, grads, exp_avgs, exp_infs, state_steps = self._params_and_state(
                group, "exp_avg", "exp_inf", "step")
            adamax(params_with_grad, grads, exp_avgs, exp_infs, state_steps, eps=group["eps"],
                   beta1=beta1, beta2=beta2, lr=group["lr"],
                   weight_decay=group["weight_decay"], maximize=group["maximize"],
                   differentiable=group["differentiable"], capturable=group["capturable"])
        return loss


def adamax(params, grads, exp_avgs, exp_infs, state_steps, *, eps, beta1, beta2, lr,
           weight_decay, maximize, differentiable=False, capturable=False, foreach=None,
           has_complex=False):
    """Functional Adamax (PyTorch's ``_single_tensor_adamax``)."""
    if params:
        _check_capturable(capturable)
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_inf = exp_infs[i]
        step_t = state_steps[i]
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        param, grad, exp_avg, exp_inf = _real_views(param, grad, exp_avg, exp_inf)
        exp_avg.lerp_(grad, 1 - beta1)
        if not differentiable:
            exp_inf.copy_(_ag.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
        else:
            norm_buf = _ag.cat([exp_inf.mul_(beta2).unsqueeze(0),
                                grad.abs().add_(eps).unsqueeze(0)], 0)
            exp_inf.copy_(_ag.amax(norm_buf, 0, keepdim=False))
        bias_correction = 1 - beta1 ** _get_value(step_t)
        clr = lr / bias_correction
        param.addcdiv_(exp_avg, exp_inf, value=-_get_value(clr))
