"""Adadelta (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_capturable, _get_scalar_dtype, _get_value, _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adadelta", "adadelta"]


class Adadelta(Optimizer):
    """Adadelta, as ``torch.optim.Adadelta``."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        if isinstance(lr, _ag.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
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
                if len(p_state) != 0 and not _ag.is_tensor(p_state["step"]):
                    p_state["step"] = _ag.tensor(float(p_state["step"]),
                                                 dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, square_avgs, acc_deltas,
                    state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _ag.zeros((), dtype=_get_scalar_dtype())
                state["square_avg"] = _ag.zeros_like(p)
                state["acc_delta"] = _ag.zeros_like(p)
            square_avgs.append(state["square_avg"])
            acc_deltas.append(state["acc_delta"])
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
            params_with_grad, grads, square_avgs, acc_deltas, state_steps = [], [], [], [], []
            self._init_group(group, params_with_grad, grads, square_avgs, acc_deltas,
                             state_steps)
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
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-_get_value(lr))
