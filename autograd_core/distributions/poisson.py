"""The Poisson distribution with rate lambda."""
from numbers import Number

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.utils import broadcast_all

__all__ = ["Poisson"]


class Poisson(ExponentialFamily):
    """Poisson distribution: P(k) = rate^k exp(-rate) / k!.

    >>> import autograd_core as torch
    >>> torch.distributions.Poisson(torch.tensor([4.0])).log_prob(torch.tensor([3.0]))
    tensor([-1.6329])
    """
    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = _torch.Size() if isinstance(rate, Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Poisson, _instance)
        batch_shape = _torch.Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Poisson, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        with _torch.no_grad():
            return _torch.poisson(self.rate.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self):
        return (_torch.log(self.rate),)

    def _log_normalizer(self, x):
        return _torch.exp(x)
