"""autograd_core.utils: PyTorch's ``torch.utils`` pieces that training code uses
(``utils.data`` and ``utils.hooks``)."""
from autograd_core.utils import hooks  # noqa: F401
from autograd_core.utils import data  # noqa: F401

__all__ = ["data", "hooks"]
