"""The half-normal distribution: ``|X|`` for X ~ Normal(0, scale)."""
import math

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.normal import Normal
from autograd_core.distributions.transformed_distribution import (
    TransformedDistribution, base_dist_property, expand_transformed,
)
from autograd_core.distributions.transforms import AbsTransform

__all__ = ["HalfNormal"]


class HalfNormal(TransformedDistribution):
    """``|X|`` for X ~ Normal(0, scale).

    >>> import autograd_core as torch
    >>> torch.distributions.HalfNormal(torch.tensor([2.0])).log_prob(torch.tensor([1.0]))
    tensor([-1.0439])
    """
    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        base_dist = Normal(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_transformed(self, HalfNormal, batch_shape, _instance)

    scale = base_dist_property("scale")

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self):
        return _torch.zeros_like(self.scale)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return _torch.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)
