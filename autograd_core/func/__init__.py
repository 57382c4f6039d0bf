"""``torch.func``: composable function transforms. Reverse mode: grad, grad_and_value,
vjp, jacrev, hessian; forward mode: jvp, jacfwd, linearize (on autograd.forward_ad);
vmap (batching rules, Note [BatchedTensor]); functionalize; functional_call and stack_module_state for
modules.

>>> import autograd_core as torch
>>> from autograd_core.func import grad, vmap
>>> f = lambda x: (x ** 2).sum()
>>> vmap(grad(f))(torch.tensor([[1., 2.], [3., 4.]]))
tensor([[2., 4.],
        [6., 8.]])
"""
from autograd_core.func._functional_call import (  # noqa: F401
    functional_call, replace_all_batch_norm_modules_, stack_module_state,
)
from autograd_core.func._transforms import (  # noqa: F401
    grad, grad_and_value, hessian, jacrev, vjp,
)
from autograd_core.func._forward import jacfwd, jvp, linearize  # noqa: F401
from autograd_core.func._vmap import debug_unwrap, vmap  # noqa: F401
from autograd_core.func._functionalize import functionalize  # noqa: F401
from autograd_core.func._einops import rearrange  # noqa: F401

__all__ = ["debug_unwrap", "functional_call", "functionalize", "grad", "grad_and_value",
           "hessian", "jacfwd", "jacrev", "jvp", "linearize", "rearrange",
           "replace_all_batch_norm_modules_", "stack_module_state", "vjp", "vmap"]
