"""Hook handles (PyTorch's ``torch.utils.hooks``); the one implementation lives with the
Module machinery and is re-exported here, with ``_add_hook``, the one way modules and
optimizers register a hook."""
from autograd_core.nn.modules._hooks import RemovableHandle, _add_hook  # noqa: F401

__all__ = ["RemovableHandle"]
