"""autograd_core.nn: PyTorch's torch.nn namespace — Module and its parameters, the layer
classes, ``functional``, ``init`` and ``utils``.

>>> import autograd_core as torch
>>> import autograd_core.nn.functional as F
>>> F.relu(torch.tensor([-1., 2.]))
tensor([0., 2.])
>>> torch.nn.Linear(3, 2)
Linear(in_features=3, out_features=2, bias=True)
"""
# (`X as X`: a type checker's no-implicit-reexport mode sees these names as exported)
from autograd_core.nn import functional as functional
from autograd_core.nn import init as init
from autograd_core.nn.parameter import (
    Buffer as Buffer, Parameter as Parameter, UninitializedBuffer as UninitializedBuffer,
    UninitializedParameter as UninitializedParameter,
)
from autograd_core.nn.modules import *  # noqa: F401,F403
from autograd_core.nn import utils as utils
from autograd_core.nn import attention as attention
from autograd_core.nn import parallel as parallel  # noqa: E402
from autograd_core.nn.parallel import DataParallel as DataParallel  # noqa: E402
