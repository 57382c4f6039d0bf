"""``torch.compiler``: the public face of compiled mode (Note [Compiled mode] in
autograd_core/_dynamo/__init__.py).

>>> import autograd_core as torch
>>> torch.compiler.is_compiling()
False
"""
from autograd_core import _dynamo
from autograd_core._dynamo import list_backends  # noqa: F401
from autograd_core._dynamo.eval_frame import disable  # noqa: F401

__all__ = ["compile", "reset", "disable", "is_compiling", "is_dynamo_compiling",
           "list_backends"]


def compile(*args, **kwargs):
    """``torch.compile`` under ``torch.compiler``."""
    from autograd_core import compile as _compile
    return _compile(*args, **kwargs)


def reset():
    """Forget every recording and graph break (``torch._dynamo.reset()``).

    >>> import autograd_core as torch
    >>> torch.compiler.reset()
    """
    _dynamo.reset()


def is_compiling():
    """True while compiled mode records a call (the code is being captured), False in
    eager code and in a replay (which runs no Python)."""
    return _dynamo.is_compiling()


def is_dynamo_compiling():
    """The same as is_compiling here (there is one capture mechanism)."""
    return _dynamo.is_compiling()


def is_exporting():
    """False: there is no torch.export here."""
    return False
