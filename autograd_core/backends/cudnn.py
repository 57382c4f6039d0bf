"""torch.backends.cudnn: absent here; its flags are plain attributes, as PyTorch's on a
build without cuDNN.

>>> import autograd_core as torch
>>> torch.backends.cudnn.is_available(), torch.backends.cudnn.version()
(False, None)
"""
import contextlib

enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True


def is_available():
    """False: no cuDNN."""
    return False


def version():
    """None: no cuDNN."""
    return None


def is_acceptable(tensor):
    """False: cuDNN takes no tensor here."""
    return False


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
          allow_tf32=True):
    """Set the flags for a block, restoring them after it."""
    g = globals()
    names = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")
    old = {n: g[n] for n in names}
    g.update(enabled=enabled, benchmark=benchmark, benchmark_limit=benchmark_limit,
             deterministic=deterministic, allow_tf32=allow_tf32)
    try:
        yield
    finally:
        g.update(old)
