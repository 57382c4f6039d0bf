"""The module classes of autograd_core.nn (PyTorch's torch.nn.modules)."""
from autograd_core.nn.modules.module import Module
from autograd_core.nn.modules.container import (  # noqa: F401
    Container, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential,
)
from autograd_core.nn.modules.linear import Bilinear, Identity, LazyLinear, Linear  # noqa: F401

__all__ = sorted(name for name, value in list(globals().items())
                 if isinstance(value, type) and issubclass(value, Module))
