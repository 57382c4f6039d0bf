"""NAdam (PyTorch's single-tensor algorithm), with decoupled weight decay as an option."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_adam_args, _check_capturable, _check_nonnegative, _closure_loss,
    _get_scalar_dtype, _get_value, _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["NAdam", "nadam"]


class NAdam(Optimizer):
    """Adam with Nesterov momentum, as ``torch.optim.NAdam``."""

    _sparse_grad_message = "NAdam does not support sparse gradients"

    _group_defaults = {"maximize": False, "foreach": None, "capturable": False,
                       "differentiable": False, "decoupled_weight_decay": False}
    _scalar_state = ("step", "mu_product")

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        _check_nonnegative(momentum_decay=momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        return {"step": _ag.tensor(0.0, dtype=_get_scalar_dtype()),
                "mu_product": _ag.tensor(1.0, dtype=_get_scalar_dtype()),
                "exp_avg": _ag.zeros_like(p), "exp_avg_sq": _ag.zeros_like(p)}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps = (
                self._params_and_state(group, "exp_avg", "exp_avg_sq", "mu_product", "step"))
            nadam(params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps,
                  beta1=beta1, beta2=beta2, lr=group["lr"], weight_decay=group["weight_decay"],
                  momentum_decay=group["momentum_decay"], eps=group["eps"],
                  maximize=group["maximize"],
                  decoupled_weight_decay=group["decoupled_weight_decay"],
                  capturable=group["capturable"], differentiable=group["differentiable"])
        return loss


def nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, *, beta1, beta2,
          lr, weight_decay, momentum_decay, eps, maximize, decoupled_weight_decay=False,
          capturable=False, differentiable=False, foreach=None, has_complex=False):
    """Functional NAdam (PyTorch's ``_single_tensor_nadam``)."""
    if params:
        _check_capturable(capturable)
    lr = _get_value(_to_scalar(lr))
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq = exp_avgs[i], exp_avg_sqs[i]
        mu_product, step_t = mu_products[i], state_steps[i]
        param, grad, exp_avg, exp_avg_sq = _real_views(param, grad, exp_avg, exp_avg_sq)
        step_t += 1
        step = _get_value(step_t)
        bias_correction2 = 1 - beta2 ** step
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product *= mu
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()
        if differentiable:
            denom = denom.add(eps)
            mu_product_next = mu_product * mu_next
            grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
            exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
            param.addcdiv_(grad, denom)
            param.addcdiv_(exp_avg, denom)
        else:
            mu_product_next = _get_value(mu_product) * mu_next
            denom.add_(eps)
            param.addcdiv_(grad, denom,
                           value=(-lr * (1.0 - mu) / (1.0 - _get_value(mu_product))))
            param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
