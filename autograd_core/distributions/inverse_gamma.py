"""The inverse-gamma distribution: 1 / X for X ~ Gamma(concentration, rate)."""
import math

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.gamma import Gamma
from autograd_core.distributions.transformed_distribution import (
    TransformedDistribution, base_dist_property, expand_transformed,
)
from autograd_core.distributions.transforms import PowerTransform

__all__ = ["InverseGamma"]


class InverseGamma(TransformedDistribution):
    """1 / X for X ~ Gamma(concentration, rate).

    >>> import autograd_core as torch
    >>> torch.distributions.InverseGamma(torch.tensor([3.0]), torch.tensor([2.0])).mean
    tensor([1.])
    """
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_transformed(self, InverseGamma, batch_shape, _instance)

    concentration = base_dist_property("concentration")
    rate = base_dist_property("rate")

    @property
    def mean(self):
        result = self.rate / (self.concentration - 1)
        return _torch.where(self.concentration > 1, result, math.inf)

    @property
    def mode(self):
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        result = self.rate.square() / ((self.concentration - 1).square()
                                       * (self.concentration - 2))
        return _torch.where(self.concentration > 2, result, math.inf)

    def entropy(self):
        return (self.concentration + self.rate.log() + self.concentration.lgamma()
                - (1 + self.concentration) * self.concentration.digamma())
