"""RMSprop with momentum and the centered variant (PyTorch's single-tensor algorithm)."""
import autograd_core as _ag
from autograd_core.optim.optimizer import (
    Optimizer, _check_capturable, _check_lr, _check_nonnegative, _closure_loss,
    _get_scalar_dtype, _get_value, _to_scalar, _use_grad_for_differentiable,
    _real_views,
)

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(Optimizer):
    """RMSprop, as ``torch.optim.RMSprop``."""

    _sparse_grad_message = "RMSprop does not support sparse gradients"

    _group_defaults = {"momentum": 0, "centered": False, "foreach": None, "maximize": False,
                       "differentiable": False, "capturable": False}
    _scalar_state = ("step",)

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        _check_lr(lr)
        _check_nonnegative(eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        state = {"step": _ag.zeros((), dtype=_get_scalar_dtype()),
                 "square_avg": _ag.zeros_like(p)}
        if group["momentum"] > 0:
            state["momentum_buffer"] = _ag.zeros_like(p)
        if group["centered"]:
            state["grad_avg"] = _ag.zeros_like(p)
        return state

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            (params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list,
             state_steps) = self._params_and_state(
                group, "square_avg", "grad_avg" if group["centered"] else None,
                "momentum_buffer" if group["momentum"] > 0 else None, "step")
            rmsprop(params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list,
                    state_steps, lr=group["lr"], alpha=group["alpha"], eps=group["eps"],
                    weight_decay=group["weight_decay"], momentum=group["momentum"],
                    centered=group["centered"], maximize=group["maximize"],
                    differentiable=group["differentiable"], capturable=group["capturable"])
        return loss


def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *, lr,
            alpha, eps, weight_decay, momentum, centered, maximize, differentiable=False,
            capturable=False, foreach=None, has_complex=False):
    """Functional RMSprop (PyTorch's ``_single_tensor_rmsprop``)."""
    if params:
        _check_capturable(capturable)
    lr = _get_value(_to_scalar(lr))
    for i, param in enumerate(params):
        step = state_steps[i]
        grad = grads[i] if not maximize else -grads[i]
        square_avg = square_avgs[i]
        step += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        param, grad, square_avg = _real_views(param, grad, square_avg)
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if centered:
            grad_avg = _real_views(grad_avgs[i])[0]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add(eps) if differentiable else avg.add_(eps)
        if momentum > 0:
            buf = _real_views(momentum_buffer_list[i])[0]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)
