"""The Cauchy (Lorentz) distribution."""
import math

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.utils import broadcast_all, expand_params

__all__ = ["Cauchy"]


class Cauchy(Distribution):
    """Cauchy distribution with location loc and half width scale; rsample draws
    PyTorch's ``cauchy_`` numbers.

    >>> import autograd_core as torch
    >>> torch.distributions.Cauchy(torch.tensor([0.0]), torch.tensor([1.0])).cdf(torch.tensor([1.0]))
    tensor([0.7500])
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)  # (numbers: 0-d, batch shape ())
        super().__init__(self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, Cauchy, ("loc", "scale"), batch_shape, _instance)

    @property
    def mean(self):
        return _torch.full(self._extended_shape(), math.nan, dtype=self.loc.dtype)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return _torch.full(self._extended_shape(), math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = _torch.empty(shape, dtype=self.loc.dtype).cauchy_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (-math.log(math.pi) - self.scale.log()
                - (((value - self.loc) / self.scale) ** 2).log1p())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return _torch.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        return _torch.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()
