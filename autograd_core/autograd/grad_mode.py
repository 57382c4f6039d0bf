"""torch.autograd.grad_mode: the grad-mode context managers under the module path
PyTorch gives them (they are defined in autograd_core/grad_mode.py).

>>> from autograd_core.autograd.grad_mode import no_grad
>>> import autograd_core as torch
>>> with no_grad():
...     torch.is_grad_enabled()
False
"""
from autograd_core.grad_mode import *  # noqa: F401,F403
from autograd_core.grad_mode import __all__  # noqa: F401
