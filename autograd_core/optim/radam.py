"""RAdam, rectified Adam (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_adam_args, _check_capturable, _closure_loss, _get_scalar_dtype,
    _get_value, _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["RAdam", "radam"]


class RAdam(Optimizer):
    """Rectified Adam, as ``torch.optim.RAdam``."""

    _sparse_grad_message = "RAdam does not support sparse gradients"

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "decoupled_weight_decay": False, "capturable": False}
    _scalar_state = ("step",)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        return {"step": _ag.tensor(0.0, dtype=_get_scalar_dtype()),
                "exp_avg": _ag.zeros_like(p), "exp_avg_sq": _ag.zeros_like(p)}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps = (
                self._params_and_state(group, "exp_avg", "exp_avg_sq", "step"))
            radam(params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps, beta1=beta1,
                  beta2=beta2, lr=group["lr"], weight_decay=group["weight_decay"],
                  eps=group["eps"], maximize=group["maximize"],
                  capturable=group["capturable"], differentiable=group["differentiable"],
                  decoupled_weight_decay=group["decoupled_weight_decay"])
        return loss


def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, beta1, beta2, lr,
          weight_decay, eps, maximize, decoupled_weight_decay=False, capturable=False,
          differentiable=False, foreach=None, has_complex=False):
    """Functional RAdam (PyTorch's ``_single_tensor_radam``)."""
    if params:
        _check_capturable(capturable)
    lr = _get_value(_to_scalar(lr))
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], state_steps[i]
        param, grad, exp_avg, exp_avg_sq = _real_views(param, grad, exp_avg, exp_avg_sq)
        step_t += 1
        step = _get_value(step_t)
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            exp_avg_sq_sqrt = exp_avg_sq.sqrt()
            exp_avg_sq_sqrt = (exp_avg_sq_sqrt.add(eps) if differentiable
                               else exp_avg_sq_sqrt.add_(eps))
            adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq_sqrt
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
