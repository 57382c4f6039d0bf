"""The module classes of autograd_core.nn (PyTorch's torch.nn.modules)."""
from typing import TYPE_CHECKING

# (`X as X` and star imports: what a type checker's no-implicit-reexport mode sees as
# exported; it cannot read the computed __all__ below, so it does not see it)
from autograd_core.nn.modules.module import Module as Module
from autograd_core.nn.modules.container import (
    Container as Container, ModuleDict as ModuleDict, ModuleList as ModuleList,
    ParameterDict as ParameterDict, ParameterList as ParameterList, Sequential as Sequential,
)
from autograd_core.nn.modules.linear import (
    Bilinear as Bilinear, Identity as Identity, LazyLinear as LazyLinear, Linear as Linear,
)
from autograd_core.nn.modules.activation import *  # noqa: F401,F403
from autograd_core.nn.modules.loss import *  # noqa: F401,F403
from autograd_core.nn.modules.distance import *  # noqa: F401,F403
from autograd_core.nn.modules.dropout import *  # noqa: F401,F403
from autograd_core.nn.modules.flatten import *  # noqa: F401,F403
from autograd_core.nn.modules.pixelshuffle import *  # noqa: F401,F403
from autograd_core.nn.modules.fold import *  # noqa: F401,F403
from autograd_core.nn.modules.upsampling import *  # noqa: F401,F403
from autograd_core.nn.modules.sparse import *  # noqa: F401,F403
from autograd_core.nn.modules.normalization import *  # noqa: F401,F403
from autograd_core.nn.modules.batchnorm import *  # noqa: F401,F403
from autograd_core.nn.modules.instancenorm import *  # noqa: F401,F403
from autograd_core.nn.modules.padding import *  # noqa: F401,F403
from autograd_core.nn.modules.pooling import *  # noqa: F401,F403
from autograd_core.nn.modules.conv import *  # noqa: F401,F403
from autograd_core.nn.modules.rnn import *  # noqa: F401,F403
from autograd_core.nn.modules.transformer import *  # noqa: F401,F403
from autograd_core.nn.modules.adaptive import *  # noqa: F401,F403

from autograd_core.nn.modules.linear_cross_entropy_options import (  # noqa: E402
    LinearCrossEntropyOptions as LinearCrossEntropyOptions,
)

if not TYPE_CHECKING:
    __all__ = sorted([name for name, value in list(globals().items())
                      if isinstance(value, type) and issubclass(value, Module)]
                     + ["LinearCrossEntropyOptions"])
