"""The log-normal distribution: exp of a normal."""
from autograd_core.distributions import constraints
from autograd_core.distributions.normal import Normal
from autograd_core.distributions.transformed_distribution import (
    TransformedDistribution, base_dist_property, expand_transformed,
)
from autograd_core.distributions.transforms import ExpTransform

__all__ = ["LogNormal"]


class LogNormal(TransformedDistribution):
    """exp(X) for X ~ Normal(loc, scale).

    >>> import autograd_core as torch
    >>> m = torch.distributions.LogNormal(torch.tensor([0.0]), torch.tensor([0.5]))
    >>> m.mean, m.log_prob(torch.tensor([2.0]))
    (tensor([1.1331]), tensor([-1.8798]))
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_transformed(self, LogNormal, batch_shape, _instance)

    loc = base_dist_property("loc")
    scale = base_dist_property("scale")

    @property
    def mean(self):
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self):
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc
