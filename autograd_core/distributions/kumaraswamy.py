"""The Kumaraswamy distribution on the unit interval."""
import math

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.transformed_distribution import TransformedDistribution
from autograd_core.distributions.transforms import AffineTransform, PowerTransform
from autograd_core.distributions.uniform import Uniform
from autograd_core.distributions.utils import broadcast_all, euler_constant

__all__ = ["Kumaraswamy"]


def _moments(a, b, n):
    """The n-th moment: b * B(1 + n / a, b)."""
    arg1 = 1 + n / a
    log_value = _torch.lgamma(arg1) + _torch.lgamma(b) - _torch.lgamma(arg1 + b)
    return b * _torch.exp(log_value)


class Kumaraswamy(TransformedDistribution):
    """(1 - (1 - U)^(1/b))^(1/a) for U uniform: a Beta-like density with a closed-form cdf.

    >>> import autograd_core as torch
    >>> torch.distributions.Kumaraswamy(torch.tensor([2.0]), torch.tensor([3.0])).mean
    tensor([0.4571])
    """
    arg_constraints = {"concentration1": constraints.positive,
                       "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(_torch.full_like(self.concentration0, 0),
                            _torch.full_like(self.concentration0, 1),
                            validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration0.reciprocal()),
                      AffineTransform(loc=1.0, scale=-1.0),
                      PowerTransform(exponent=self.concentration1.reciprocal())]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        # log of the mode; undefined (nan) unless both concentrations are >= 1
        log_mode = (self.concentration0.reciprocal() * (-self.concentration0).log1p()
                    - (-self.concentration0 * self.concentration1).log1p())
        log_mode[(self.concentration0 < 1) | (self.concentration1 < 1)] = math.nan
        return log_mode.exp()

    @property
    def variance(self):
        return _moments(self.concentration1, self.concentration0, 2) - _torch.pow(self.mean, 2)

    def entropy(self):
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        H0 = _torch.digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * H0 - _torch.log(self.concentration1) - _torch.log(self.concentration0)
