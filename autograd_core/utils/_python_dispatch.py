"""autograd_core.utils._python_dispatch: the op hooks in force (Note [Op hook]).

>>> from autograd_core.utils._python_dispatch import _get_current_dispatch_mode
>>> _get_current_dispatch_mode() is None
True
"""
from autograd_core._core import tensor as _core

__all__ = []


def _get_current_dispatch_mode():
    """The innermost op hook on this thread (a selective-checkpointing context while
    its checkpointed function runs or is recomputed), None when there is none."""
    return _core._current_op_hook()
