"""ASGD, averaged SGD (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_capturable, _check_lr, _check_nonnegative, _closure_loss,
    _get_scalar_dtype, _get_value, _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["ASGD", "asgd"]


class ASGD(Optimizer):
    """Averaged stochastic gradient descent, as ``torch.optim.ASGD``."""

    _sparse_grad_message = "ASGD does not support sparse gradients"

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _scalar_state = ("step", "eta", "mu")

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check_nonnegative(weight_decay=weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        return {"step": _ag.zeros((), dtype=_get_scalar_dtype()),
                "eta": _ag.as_tensor(_get_value(_to_scalar(group["lr"])),
                                     dtype=_get_scalar_dtype()).clone().detach(),
                "mu": _ag.ones((), dtype=_get_scalar_dtype()), "ax": _ag.zeros_like(p)}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params_with_grad, grads, mus, axs, etas, state_steps = self._params_and_state(
                group, "mu", "ax", "eta", "step")
            asgd(params_with_grad, grads, axs, mus, etas, state_steps, lambd=group["lambd"],
                 lr=group["lr"], t0=group["t0"], alpha=group["alpha"],
                 weight_decay=group["weight_decay"], maximize=group["maximize"],
                 differentiable=group["differentiable"], capturable=group["capturable"])
        return loss


def asgd(params, grads, axs, mus, etas, state_steps, *, lambd, lr, t0, alpha, weight_decay,
         maximize, differentiable=False, capturable=False, foreach=None, has_complex=False):
    """Functional ASGD (PyTorch's ``_single_tensor_asgd``)."""
    if params:
        _check_capturable(capturable)
    lr = _get_value(_to_scalar(lr))
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        mu, ax, eta, step_t = mus[i], axs[i], etas[i], state_steps[i]
        param, grad, ax = _real_views(param, grad, ax)
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        eta_value = _get_value(eta)
        param.mul_(1 - lambd * eta_value)
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        step = _get_value(step_t)
        eta.copy_(_ag.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
        mu.copy_(_ag.as_tensor(1 / max(1, step - t0)))
