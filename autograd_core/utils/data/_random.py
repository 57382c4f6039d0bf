"""Random draws for the samplers and random_split, as PyTorch's data utilities make them:
from autograd_core's generator (PyTorch's CPU stream, Note [Random streams]), so that the
same seed shuffles and splits the same way as under PyTorch.
"""
import autograd_core as _ag
from autograd_core import Generator

__all__ = ["Generator"]


def random_seed(generator):
    """A random int64 seed drawn from generator (or the default one): PyTorch's
    ``torch.empty((), dtype=torch.int64).random_(generator=g).item()``."""
    return int(_ag.empty((), dtype=_ag.int64).random_(generator=generator).item())


def randperm(n, generator=None):
    """A random permutation of range(n) as a list of ints (torch.randperm)."""
    return _ag.randperm(int(n), generator=generator).tolist()


def randint_list(high, size, generator=None):
    """``size`` integers uniform in [0, high) as a list (torch.randint)."""
    return _ag.randint(int(high), (int(size),), generator=generator).tolist()


def multinomial(weights, num_samples, replacement, generator=None):
    """Indices drawn with probabilities proportional to ``weights`` (a float64 numpy
    array): torch.multinomial, with its checks and messages."""
    return _ag.multinomial(_ag.from_numpy(weights), num_samples, replacement,
                           generator=generator).tolist()
