"""autograd_core.utils: PyTorch's ``torch.utils`` pieces that training code uses
(``utils.data``, ``utils.hooks``, ``utils.checkpoint``, ``utils.dlpack``), and
``utils.viz`` (torchviz's ``make_dot``, imported on use)."""
from autograd_core.utils import hooks  # noqa: F401
from autograd_core.utils import data  # noqa: F401
from autograd_core.utils import checkpoint  # noqa: F401
from autograd_core.utils import dlpack  # noqa: F401

__all__ = ["checkpoint", "data", "dlpack", "hooks"]
