"""Rprop, resilient backpropagation (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_capturable, _get_scalar_dtype, _get_value, _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Rprop", "rprop"]


class Rprop(Optimizer):
    """Resilient backpropagation, as ``torch.optim.Rprop``."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if isinstance(lr, _ag.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize, differentiable=differentiable,
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

    def _init_group(self, group, params, grads, prevs, step_sizes, state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            params.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _ag.zeros((), dtype=_get_scalar_dtype())
                state["prev"] = _ag.zeros_like(p)
                state["step_size"] = _ag.full_like(p.grad, _get_value(_to_scalar(group["lr"])))
            prevs.append(state["prev"])
            step_sizes.append(state["step_size"])
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
            params, grads, prevs, step_sizes, state_steps = [], [], [], [], []
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            self._init_group(group, params, grads, prevs, step_sizes, state_steps)
            rprop(params, grads, prevs, step_sizes, state_steps, step_size_min=step_size_min,
                  step_size_max=step_size_max, etaminus=etaminus, etaplus=etaplus,
                  maximize=group["maximize"], differentiable=group["differentiable"],
                  capturable=group["capturable"])
        return loss


def rprop(params, grads, prevs, step_sizes, state_steps, *, step_size_min, step_size_max,
          etaminus, etaplus, maximize, differentiable=False, capturable=False, foreach=None,
          has_complex=False):
    """Functional Rprop (PyTorch's ``_single_tensor_rprop``)."""
    if params:
        _check_capturable(capturable)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        prev, step_size, step = prevs[i], step_sizes[i], state_steps[i]
        step += 1
        sign = grad.mul(prev.clone() if differentiable else prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
