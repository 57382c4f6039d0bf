"""The exceptions of compiled mode, PyTorch's ``torch._dynamo.exc`` types."""


class TorchDynamoException(RuntimeError):
    """Base of compiled mode's exceptions (a RuntimeError, as PyTorch's)."""


class Unsupported(TorchDynamoException):
    """What ``fullgraph=True`` raises where the function cannot be recorded whole (a
    graph break: Note [Compiled mode]).

    >>> import autograd_core as torch
    >>> def f(x):
    ...     return x.item()
    >>> try:
    ...     torch.compile(f, fullgraph=True)(torch.ones(1))
    ... except torch._dynamo.exc.Unsupported as e:
    ...     print(type(e).__name__)
    Unsupported
    """

    def __init__(self, msg, gb_type="", *args, **kwargs):
        super().__init__(msg)
        self.msg = msg
        self.gb_type = gb_type


class InvalidBackend(TorchDynamoException):
    """An unknown ``backend=`` name."""

    def __init__(self, name):
        super().__init__(
            f"Invalid backend: {name!r}, see `autograd_core._dynamo.list_backends()` for available "
            "backends.")


class FailOnRecompileLimitHit(Exception):
    """Raised instead of running eagerly when ``config.fail_on_recompile_limit_hit``."""
