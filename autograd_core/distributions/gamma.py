"""The gamma distribution with shape concentration and rate."""
from numbers import Number

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.utils import broadcast_all

__all__ = ["Gamma"]


def _standard_gamma(concentration):
    return _torch._standard_gamma(concentration)


class Gamma(ExponentialFamily):
    """Gamma distribution, density rate^a x^(a-1) exp(-rate x) / Gamma(a) on x > 0;
    rsample draws PyTorch's numbers for the same seed and is differentiable in both
    parameters.

    >>> import autograd_core as torch
    >>> m = torch.distributions.Gamma(torch.tensor([2.0]), torch.tensor([4.0]))
    >>> m.mean, m.log_prob(torch.tensor([0.5]))
    (tensor([0.5000]), tensor([0.0794]))
    """
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        if isinstance(concentration, Number) and isinstance(rate, Number):
            batch_shape = _torch.Size()
        else:
            batch_shape = self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gamma, _instance)
        batch_shape = _torch.Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Gamma, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        value = _standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        # a sample may underflow to 0; kept out of the graph as in PyTorch
        value.detach().clamp_(min=_torch.finfo(value.dtype).tiny)
        return value

    def log_prob(self, value):
        value = _torch.as_tensor(value, dtype=self.rate.dtype)
        if self._validate_args:
            self._validate_sample(value)
        return (_torch.xlogy(self.concentration, self.rate)
                + _torch.xlogy(self.concentration - 1, value)
                - self.rate * value - _torch.lgamma(self.concentration))

    def entropy(self):
        return (self.concentration - _torch.log(self.rate) + _torch.lgamma(self.concentration)
                + (1.0 - self.concentration) * _torch.digamma(self.concentration))

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return _torch.lgamma(x + 1) + (x + 1) * _torch.log(-y.reciprocal())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return _torch.igamma(self.concentration, self.rate * value)
