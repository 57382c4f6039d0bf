"""The normal distribution N(loc, scale**2)."""
import math
from numbers import Number

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.utils import _standard_normal, broadcast_all, expand_params

__all__ = ["Normal"]


class Normal(ExponentialFamily):
    """Normal (Gaussian) distribution with mean loc and standard deviation scale.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> m = torch.distributions.Normal(torch.tensor([0.0]), torch.tensor([1.0]))
    >>> m.sample()
    tensor([1.5410])
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)  # (numbers: 0-d, batch shape ())
        super().__init__(self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, Normal, ("loc", "scale"), batch_shape, _instance)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        with _torch.no_grad():
            return _torch.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        log_scale = math.log(self.scale) if isinstance(self.scale, Number) else self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + _torch.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * _torch.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + _torch.log(self.scale)

    _mean_carrier_measure = 0

    @property
    def _natural_params(self):
        return (self.loc / self.scale.pow(2), -0.5 * self.scale.pow(2).reciprocal())

    def _log_normalizer(self, x, y):
        return -0.25 * x.pow(2) / y + 0.5 * _torch.log(-math.pi / y)
