"""The logistic-normal distribution: a normal pushed onto the simplex by stick breaking."""
from autograd_core.distributions import constraints
from autograd_core.distributions.normal import Normal
from autograd_core.distributions.transformed_distribution import (
    TransformedDistribution, expand_transformed,
)
from autograd_core.distributions.transforms import StickBreakingTransform

__all__ = ["LogisticNormal"]


class LogisticNormal(TransformedDistribution):
    """StickBreakingTransform()(X) for X ~ Normal(loc, scale) over the last dim.

    >>> import autograd_core as torch
    >>> d = torch.distributions.LogisticNormal(torch.zeros(2), torch.ones(2))
    >>> d.event_shape
    autograd_core.Size([3])
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_transformed(self, LogisticNormal, batch_shape, _instance)

    @property
    def loc(self):
        return self.base_dist.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.base_dist.scale
