"""Hook handles (PyTorch's ``torch.utils.hooks``); the one implementation lives with the
Module machinery and is re-exported here."""
from autograd_core.nn.modules._hooks import RemovableHandle

__all__ = ["RemovableHandle"]
