"""The Laplace (double exponential) distribution."""

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.utils import _eps, broadcast_all, expand_params

__all__ = ["Laplace"]


class Laplace(Distribution):
    """Laplace distribution with location loc and scale scale.

    >>> import autograd_core as torch
    >>> torch.distributions.Laplace(0.0, 1.0).log_prob(torch.tensor(1.0))
    tensor(-1.6931)
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)  # (numbers: 0-d, batch shape ())
        super().__init__(self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, Laplace, ("loc", "scale"), batch_shape, _instance)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return 2 ** 0.5 * self.scale

    def rsample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        # uniform on [eps - 1, 1), as PyTorch draws it
        u = _torch.empty(shape, dtype=self.loc.dtype).uniform_(_eps(self.loc.dtype) - 1, 1)
        return self.loc - self.scale * u.sign() * _torch.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -_torch.log(2 * self.scale) - _torch.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * _torch.expm1(
            -(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * _torch.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + _torch.log(2 * self.scale)
