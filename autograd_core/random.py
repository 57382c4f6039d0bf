"""torch.random: the default generator's seed and state, and fork_rng.

The streams are PyTorch's (Note [Random streams] in _core/random.pyx): the same seed
draws the same numbers, and states move between the two libraries.
"""
import contextlib

from autograd_core._core import random as _random
from autograd_core._creation import (get_rng_state, initial_seed, manual_seed, seed,
                                     set_rng_state)

__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state"]

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
