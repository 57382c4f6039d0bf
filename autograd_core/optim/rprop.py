"""Rprop, resilient backpropagation (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_capturable, _check_lr, _closure_loss, _get_scalar_dtype, _get_value,
    _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["Rprop", "rprop"]


class Rprop(Optimizer):
    """Resilient backpropagation, as ``torch.optim.Rprop``."""

    _sparse_grad_message = "Rprop does not support sparse gradients"

    _group_defaults = {"foreach": None, "maximize": False, "differentiable": False,
                       "capturable": False}
    _scalar_state = ("step",)

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        lr = _get_value(_to_scalar(group["lr"]))
        # a complex parameter's parts are two real parameters (Note [complex parameters
        # in optimizers]): each part starts at step size lr
        return {"step": _ag.zeros((), dtype=_get_scalar_dtype()), "prev": _ag.zeros_like(p),
                "step_size": _ag.full_like(p.grad, complex(lr, lr) if p.is_complex() else lr)}

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            params, grads, prevs, step_sizes, state_steps = self._params_and_state(
                group, "prev", "step_size", "step")
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
        param, grad, prev, step_size = _real_views(param, grad, prev, step_size)
        sign = grad.mul(prev.clone() if differentiable else prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
