"""autograd_core.nn: PyTorch's torch.nn namespace — Module and its parameters, the layer
classes, ``functional``, ``init`` and ``utils``.

>>> import autograd_core as torch
>>> import autograd_core.nn.functional as F
>>> F.relu(torch.tensor([-1., 2.]))
tensor([0., 2.])
>>> torch.nn.Linear(3, 2)
Linear(in_features=3, out_features=2, bias=True)
"""
from autograd_core.nn import functional  # noqa: F401
from autograd_core.nn import init  # noqa: F401
from autograd_core.nn.parameter import (  # noqa: F401
    Buffer, Parameter, UninitializedBuffer, UninitializedParameter,
)
from autograd_core.nn.modules import *  # noqa: F401,F403
from autograd_core.nn import utils  # noqa: F401
from autograd_core.nn import attention  # noqa: F401
from autograd_core.nn import parallel  # noqa: E402,F401
from autograd_core.nn.parallel import DataParallel  # noqa: E402,F401
