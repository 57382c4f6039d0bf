"""Controls of ``F.scaled_dot_product_attention``, as ``torch.nn.attention``:
``SDPBackend`` names its kernels and ``sdpa_kernel`` chooses which may run (Note [SDPA
backend flags] in ``backends/cuda.py``). On the CPU only two exist, the flash kernel and
the math composite; asking only for CUDA kernels makes attention refuse to run, as
PyTorch's does on the CPU.

>>> import autograd_core as torch
>>> from autograd_core.nn.attention import SDPBackend, sdpa_kernel
>>> q = torch.ones(1, 1, 2, 4, requires_grad=True)
>>> with sdpa_kernel(SDPBackend.MATH):
...     torch.nn.functional.scaled_dot_product_attention(q, q, q).grad_fn.name()
'UnsafeViewBackward0'
"""
import contextlib
import enum

from autograd_core.backends import cuda as _cuda

__all__ = ["SDPBackend", "sdpa_kernel", "WARN_FOR_UNFUSED_KERNELS"]

# (PyTorch's flag: warn why the fused kernels were not used; they never are on the CPU)
WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.Enum):
    """The kernels of scaled dot product attention: ``ERROR``, ``MATH``,
    ``FLASH_ATTENTION``, ``EFFICIENT_ATTENTION``, ``CUDNN_ATTENTION``,
    ``OVERRIDEABLE``, with PyTorch's values (``int(backend)``).

    >>> from autograd_core.nn.attention import SDPBackend
    >>> SDPBackend.MATH, int(SDPBackend.FLASH_ATTENTION)
    (<SDPBackend.MATH: 0>, 1)
    """
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self):
        return self.value

    __index__ = __int__


# flag name (backends.cuda._sdp) -> the backend it allows
_FLAGS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
          "mem_efficient": SDPBackend.EFFICIENT_ATTENTION, "math": SDPBackend.MATH,
          "overrideable": SDPBackend.OVERRIDEABLE}
# PyTorch's default priority order (the CPU's selection ignores it: flash, then math)
_priority = [1, 2, 0, 3, 4]


def _enabled_backends(with_priority=False):
    backends = [b for name, b in _FLAGS.items() if _cuda._sdp[name]]
    if with_priority:
        backends.sort(key=lambda b: _priority.index(int(b)))
    return backends


def _set_backends(backends, set_priority=False):
    for name, b in _FLAGS.items():
        _cuda._sdp[name] = b in backends
    if set_priority:
        order = [int(b) for b in backends]
        _priority[:] = order + [p for p in _priority if p not in order]


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """A context (or decorator) in which ``F.scaled_dot_product_attention`` may use only
    the given backend(s); the previous choice comes back on exit. ``set_priority=True``
    also records the list's order as the backends' priority.

    >>> import autograd_core as torch
    >>> from autograd_core.nn.attention import SDPBackend, sdpa_kernel
    >>> q = torch.ones(1, 1, 2, 4)
    >>> with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION]):
    ...     torch.nn.functional.scaled_dot_product_attention(q, q, q)
    Traceback (most recent call last):
    ...
    RuntimeError: No viable backend for scaled_dot_product_attention was found. This is likely due to turning off both the math kernel and the fused kernels.
    """
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend "
                             f"instances, got {type(backends).__name__}")
    if isinstance(backends, SDPBackend):
        backends = [backends]
    backends = list(dict.fromkeys(backends))
    previous = _enabled_backends(with_priority=set_priority)
    try:
        _set_backends(backends, set_priority)
        yield {}
    finally:
        _set_backends(previous, set_priority)

