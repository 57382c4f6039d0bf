"""SparseAdam (PyTorch's algorithm): Adam's moments and step applied only at the rows a
sparse gradient (``nn.Embedding(sparse=True)``'s) specifies."""
import math

import autograd_core as _ag
from autograd_core.optim.optimizer import Optimizer, _closure_loss, _to_scalar

__all__ = ["SparseAdam", "sparse_adam"]


class SparseAdam(Optimizer):
    """Adam masked to the entries of sparse gradients, as ``torch.optim.SparseAdam``: the
    parameters are dense, their gradients sparse COO tensors; a dense gradient is refused.

    >>> import autograd_core as torch
    >>> emb = torch.nn.Embedding(4, 2, sparse=True)
    >>> opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
    >>> emb(torch.tensor([1])).sum().backward()
    >>> before = emb.weight.detach().clone()
    >>> opt.step()
    >>> (emb.weight != before).any(dim=1).tolist()
    [False, True, False, False]
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if isinstance(lr, _ag.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)
        sparse_params, complex_params = [], []
        for index, group in enumerate(self.param_groups):
            for d_index, p in enumerate(group["params"]):
                if p.is_sparse:
                    sparse_params.append([index, d_index])
                if p.is_complex():
                    complex_params.append([index, d_index])
        if sparse_params:
            raise ValueError(f"Sparse params at indices {sparse_params}: SparseAdam requires "
                             f"dense parameter tensors")
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not "
                             f"support complex parameters")

    def step(self, closure=None):
        """Perform a single optimization step."""
        loss = _closure_loss(closure)
        with _ag.no_grad():
            for group in self.param_groups:
                params, grads, exp_avgs, exp_avg_sqs, steps = [], [], [], [], []
                beta1, beta2 = group["betas"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    params.append(p)
                    if not p.grad.is_sparse:
                        raise RuntimeError("SparseAdam does not support dense gradients, please "
                                           "consider Adam instead")
                    grads.append(p.grad)
                    state = self.state[p]
                    if len(state) == 0:
                        state["step"] = 0
                        state["exp_avg"] = _ag.zeros_like(p, memory_format=_ag.preserve_format)
                        state["exp_avg_sq"] = _ag.zeros_like(p,
                                                             memory_format=_ag.preserve_format)
                    exp_avgs.append(state["exp_avg"])
                    exp_avg_sqs.append(state["exp_avg_sq"])
                    state["step"] += 1
                    steps.append(state["step"])
                sparse_adam(params, grads, exp_avgs, exp_avg_sqs, steps, eps=group["eps"],
                            beta1=beta1, beta2=beta2, lr=_to_scalar(group["lr"]),
                            maximize=group.get("maximize", False))
        return loss


def sparse_adam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, eps, beta1, beta2, lr,
                maximize):
    """Functional SparseAdam (PyTorch's ``torch.optim._functional.sparse_adam``)."""
    from autograd_core import _sparse
    for i, param in enumerate(params):
        grad = grads[i]
        grad = grad if not maximize else -grad
        grad = grad.coalesce()
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step = state_steps[i]
        grad_indices = grad._sp_indices
        grad_values = grad._values()
        if grad_values.numel() == 0:
            continue
        size = grad.size()

        def make_sparse(values):
            return _sparse._make(_sparse.sparse_coo, grad_indices, values, size, True)

        old_exp_avg_values = exp_avg.sparse_mask(grad)._values()
        exp_avg_update_values = grad_values.sub(old_exp_avg_values).mul_(1 - beta1)
        exp_avg.add_(make_sparse(exp_avg_update_values))
        old_exp_avg_sq_values = exp_avg_sq.sparse_mask(grad)._values()
        exp_avg_sq_update_values = grad_values.pow(2).sub_(old_exp_avg_sq_values).mul_(1 - beta2)
        exp_avg_sq.add_(make_sparse(exp_avg_sq_update_values))
        # dense additions, as PyTorch's (no second sparse_mask)
        numer = exp_avg_update_values.add_(old_exp_avg_values)
        exp_avg_sq_update_values.add_(old_exp_avg_sq_values)
        denom = exp_avg_sq_update_values.sqrt_().add_(eps)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr * math.sqrt(bias_correction2) / bias_correction1
        param.add_(make_sparse(-step_size * numer.div_(denom)))
