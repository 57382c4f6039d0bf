"""ASGD, averaged SGD (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_capturable, _get_scalar_dtype, _get_value, _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["ASGD", "asgd"]


class ASGD(Optimizer):
    """Averaged stochastic gradient descent, as ``torch.optim.ASGD``."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        if isinstance(lr, _ag.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("capturable", False)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0:
                    for key in ("step", "eta", "mu"):
                        if not _ag.is_tensor(p_state[key]):
                            p_state[key] = _ag.tensor(float(p_state[key]),
                                                      dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, mus, axs, etas, state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _ag.zeros((), dtype=_get_scalar_dtype())
                state["eta"] = _ag.as_tensor(_get_value(_to_scalar(group["lr"])),
                                             dtype=_get_scalar_dtype()).clone().detach()
                state["mu"] = _ag.ones((), dtype=_get_scalar_dtype())
                state["ax"] = _ag.zeros_like(p)
            mus.append(state["mu"])
            axs.append(state["ax"])
            etas.append(state["eta"])
            state_steps.append(state["step"])
        return False

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = None
        if closure is not None:
            with _ag.enable_grad():
                loss = closure()
        for group in self.param_groups:
            params_with_grad, grads, mus, axs, etas, state_steps = [], [], [], [], [], []
            self._init_group(group, params_with_grad, grads, mus, axs, etas, state_steps)
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
