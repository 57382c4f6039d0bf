"""Adamax (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_capturable, _get_scalar_dtype, _get_value, _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adamax", "adamax"]


class Adamax(Optimizer):
    """Adamax (Adam with the infinity norm), as ``torch.optim.Adamax``."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        if isinstance(lr, _ag.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
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
                if len(p_state) != 0 and not _ag.is_tensor(p_state["step"]):
                    p_state["step"] = _ag.tensor(float(p_state["step"]),
                                                 dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_infs, state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _ag.tensor(0.0, dtype=_get_scalar_dtype())
                state["exp_avg"] = _ag.zeros_like(p)
                state["exp_inf"] = _ag.zeros_like(p)
            exp_avgs.append(state["exp_avg"])
            exp_infs.append(state["exp_inf"])
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
            params_with_grad, grads, exp_avgs, exp_infs, state_steps = [], [], [], [], []
            beta1, beta2 = group["betas"]
            self._init_group(group, params_with_grad, grads, exp_avgs, exp_infs, state_steps)
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
