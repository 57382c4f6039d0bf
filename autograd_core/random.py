"""torch.random: the default generator's seed and state, and fork_rng.

The streams are PyTorch's (Note [Random streams] in _core/random.pyx): the same seed
draws the same numbers, and states move between the two libraries.
"""
import contextlib

from autograd_core._core import random as _random
from autograd_core._creation import (get_rng_state, initial_seed, manual_seed, seed,
                                     set_rng_state)

__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state", "thread_safe_generator"]

default_generator = _random.get_default_generator()


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type="cuda"):
    """Run a block and restore the CPU generator's state after it (there are no other
    devices here).

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> with torch.random.fork_rng():
    ...     _ = torch.rand(3)
    >>> torch.rand(1)
    tensor([0.4963])
    """
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def thread_safe_generator():
    """The generator random transforms should draw from: a DataLoader thread worker's
    own generator inside such a worker, else None (the default generator, which process
    workers and the main process use).  This library's DataLoader runs its workers as
    processes, so there is no thread worker to find and the answer is None.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randint(0, 10, (3,), generator=torch.random.thread_safe_generator())
    tensor([4, 9, 3])
    """
    from autograd_core.utils.data import get_worker_info
    info = get_worker_info()
    # (a worker run as a thread would carry worker_method "thread" and its rng)
    if info is not None and getattr(info, "worker_method", None) == "thread" \
            and getattr(info, "rng", None) is not None:
        return info.rng.torch_generator
    return None
