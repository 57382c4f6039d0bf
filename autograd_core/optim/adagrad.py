"""Adagrad (PyTorch's single-tensor algorithm, dense gradients)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_fused, _check_fused_options, _check_lr, _check_nonnegative,
    _closure_loss, _get_scalar_dtype, _get_value, _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    """Adagrad, as ``torch.optim.Adagrad``."""

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "fused": None}

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False,
                 differentiable=False, fused=None):
        _check_lr(lr)
        _check_nonnegative(lr_decay=lr_decay, weight_decay=weight_decay,
                           initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        _check_fused_options(fused, differentiable, foreach)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = _ag.tensor(0.0, dtype=_get_scalar_dtype(group["fused"]))
                state["sum"] = _ag.full_like(p, initial_accumulator_value)

    def __setstate__(self, state):
        super().__setstate__(state)
        for s in self.state.values():
            if "step" in s and not _ag.is_tensor(s["step"]):
                s["step"] = _ag.tensor(float(s["step"]), dtype=_get_scalar_dtype())

    def share_memory(self):
        """Move the accumulated squared gradients to shared memory, as the parameters
        (Hogwild! training with one optimizer state)."""
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    def _init_group(self, group, params_with_grad, grads, state_sums, state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            if group["fused"]:
                _check_fused(p)
            params_with_grad.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _ag.tensor(0.0, dtype=_get_scalar_dtype(group["fused"]))
                state["sum"] = _ag.full_like(p, self.defaults["initial_accumulator_value"])
            state_sums.append(state["sum"])
            state_steps.append(state["step"])
        return False, False

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params_with_grad, grads, state_sums, state_steps = [], [], [], []
            self._init_group(group, params_with_grad, grads, state_sums, state_steps)
            adagrad(params_with_grad, grads, state_sums, state_steps, lr=group["lr"],
                    weight_decay=group["weight_decay"], lr_decay=group["lr_decay"],
                    eps=group["eps"], maximize=group["maximize"],
                    differentiable=group["differentiable"])
        return loss


def adagrad(params, grads, state_sums, state_steps, *, lr, weight_decay, lr_decay, eps,
            maximize, differentiable=False, foreach=None, fused=None, has_sparse_grad=False,
            has_complex=False, grad_scale=None, found_inf=None):
    """Functional Adagrad (PyTorch's ``_single_tensor_adagrad``)."""
    lr = _to_scalar(lr)
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        param, grad, state_sum = _real_views(param, grad, state_sum)
        state_sum.addcmul_(grad, grad, value=1)
        if differentiable:
            std = state_sum.sqrt() + eps
        else:
            std = state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-_get_value(clr))
