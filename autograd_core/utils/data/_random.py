"""Random draws for the samplers and random_split.

autograd_core's core has no ``Generator`` object yet (its random streams are numpy's and do
not reproduce PyTorch's numbers; a separate piece of work). Until it has one, this module
provides a small ``Generator`` with PyTorch's interface (``manual_seed``, ``seed``,
``initial_seed``, ``get_state``/``set_state``), backed by numpy's PCG64, and the two draws the
data utilities need. Without a generator, draws come from autograd_core's global stream
(so ``autograd_core.manual_seed`` makes shuffling reproducible). When the core gets a
PyTorch-compatible Generator and randperm/multinomial, these helpers should defer to them and
the orders will then equal PyTorch's for the same seed.
"""
import json

import numpy as np

import autograd_core as _ag

__all__ = ["Generator"]

_DEFAULT_SEED = 67280421310721  # PyTorch's default CPU generator seed


class Generator:
    """A random number generator with PyTorch's ``torch.Generator`` interface (CPU only)."""

    def __init__(self, device="cpu"):
        if str(device) != "cpu":
            raise RuntimeError(f"Generator: only the cpu device is supported, got {device}")
        self.device = _ag.device("cpu")
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed):
        """Seed the generator; returns it (so ``Generator().manual_seed(0)`` chains)."""
        seed = int(seed)
        if seed < -(2 ** 63) or seed >= 2 ** 64:
            raise RuntimeError(f"Overflow when unpacking long long, got {seed}")
        self._initial_seed = seed % (2 ** 64)
        self._np = np.random.Generator(np.random.PCG64(self._initial_seed))
        return self

    def seed(self):
        """Seed from a non-deterministic source; returns the seed."""
        s = int(np.random.SeedSequence().entropy % (2 ** 63))
        self.manual_seed(s)
        return s

    def initial_seed(self):
        """The seed the generator was last seeded with."""
        return self._initial_seed

    def get_state(self):
        """The generator's state as a uint8 tensor."""
        blob = json.dumps({"seed": self._initial_seed,
                           "state": self._np.bit_generator.state}).encode()
        return _ag.tensor(list(blob), dtype=_ag.uint8)

    def set_state(self, new_state):
        """Restore a state returned by :meth:`get_state`."""
        data = bytes(int(v) for v in new_state.tolist())
        try:
            st = json.loads(data.decode())
            bitgen = np.random.PCG64()
            bitgen.state = st["state"]
        except (ValueError, KeyError, TypeError) as e:
            raise RuntimeError("Invalid generator state") from e
        self._initial_seed = st["seed"]
        self._np = np.random.Generator(bitgen)
        return self

    def __reduce__(self):
        return (_rebuild_generator, (self.get_state().tolist(),))


def _rebuild_generator(state):
    g = Generator()
    g.set_state(_ag.tensor(state, dtype=_ag.uint8))
    return g


def _numpy_rng(generator):
    """numpy Generator for a draw: the given Generator's, or one seeded from the global
    autograd_core stream."""
    if generator is None:
        return np.random.Generator(np.random.PCG64(random_seed(None)))
    if isinstance(generator, Generator):
        return generator._np
    if isinstance(generator, np.random.Generator):
        return generator
    raise TypeError(f"generator must be an autograd_core Generator, got {type(generator).__name__}")


def random_seed(generator):
    """A random int64 seed drawn from generator (or the global stream): PyTorch's
    ``torch.empty((), dtype=torch.int64).random_(generator=g).item()``."""
    if generator is None:
        return int(_ag.randint(0, 2 ** 63 - 1, ()).item())
    return int(_numpy_rng(generator).integers(0, 2 ** 63 - 1))


def randperm(n, generator=None):
    """A random permutation of range(n) as a list of ints."""
    return _numpy_rng(generator).permutation(int(n)).tolist()


def randint_list(high, size, generator=None):
    """``size`` integers uniform in [0, high) as a list."""
    return _numpy_rng(generator).integers(0, int(high), size=int(size)).tolist()


def multinomial(weights, num_samples, replacement, generator=None):
    """Indices drawn with probabilities proportional to ``weights`` (a float64 numpy array),
    with PyTorch's checks and messages."""
    if weights.ndim != 1 or weights.size == 0:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    total = weights.sum()
    if total <= 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    n_nonzero = int(np.count_nonzero(weights))
    if not replacement and num_samples > weights.size:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if not replacement and num_samples > n_nonzero:
        raise RuntimeError("invalid multinomial distribution (with replacement=False, not "
                           "enough non-negative category to sample)")
    rng = _numpy_rng(generator)
    return rng.choice(weights.size, size=num_samples, replace=replacement,
                      p=weights / total).tolist()
