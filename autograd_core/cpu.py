"""torch.cpu: the CPU device module (the only device here).

>>> import autograd_core as torch
>>> torch.cpu.is_available(), torch.cpu.device_count()
(True, 1)
"""
import contextlib

from autograd_core import amp as _amp

__all__ = ["is_available", "device_count", "current_device", "synchronize", "amp"]


def is_available():
    """The CPU is always available."""
    return True


def device_count():
    """One CPU device."""
    return 1


def current_device():
    """The name of the current CPU device."""
    return "cpu"


def synchronize(device=None):
    """Wait for pending CPU work: there is none (ops run eagerly)."""


class _CpuAmp:
    """torch.cpu.amp: the deprecated spelling of autocast('cpu', ...)."""

    class autocast(_amp.autocast):
        def __init__(self, enabled=True, dtype=None, cache_enabled=True):
            import warnings
            warnings.warn("`autograd_core.cpu.amp.autocast(args...)` is deprecated. Please use "
                          "`autograd_core.amp.autocast('cpu', args...)` instead.", FutureWarning,
                          stacklevel=2)
            super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


amp = _CpuAmp()
stream = contextlib.nullcontext
