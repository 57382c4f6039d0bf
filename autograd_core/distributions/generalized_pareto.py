"""The generalized Pareto distribution (location, scale, shape concentration)."""
import math
from numbers import Number, Real

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.utils import broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """Generalized Pareto distribution; concentration 0 is the shifted exponential.

    >>> import autograd_core as torch
    >>> d = torch.distributions.GeneralizedPareto(torch.tensor([0.0]), torch.tensor([1.0]), torch.tensor([0.5]))
    >>> d.log_prob(torch.tensor([1.0]))
    tensor([-1.2164])
    """
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        if (isinstance(loc, Number) and isinstance(scale, Number)
                and isinstance(concentration, Number)):
            batch_shape = _torch.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(GeneralizedPareto, _instance)
        batch_shape = _torch.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        super(GeneralizedPareto, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = _torch.rand(shape, dtype=self.loc.dtype)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        # concentration 0 (the exponential case) is a limit: computed on its own
        eq_zero = _torch.isclose(self.concentration, _torch.tensor(0.0))
        safe_conc = _torch.where(eq_zero, _torch.ones_like(self.concentration), self.concentration)
        y = 1 / safe_conc + _torch.ones_like(z)
        where_nonzero = _torch.where(y == 0, y, y * _torch.log1p(safe_conc * z))
        log_scale = math.log(self.scale) if isinstance(self.scale, Real) else self.scale.log()
        return -log_scale - _torch.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = _torch.isclose(self.concentration, _torch.tensor(0.0))
        safe_conc = _torch.where(eq_zero, _torch.ones_like(self.concentration), self.concentration)
        where_nonzero = -_torch.log1p(safe_conc * z) / safe_conc
        return _torch.where(eq_zero, -z, where_nonzero)

    def log_cdf(self, value):
        return _torch.log1p(-_torch.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return _torch.exp(self.log_cdf(value))

    def icdf(self, value):
        loc, scale, concentration = self.loc, self.scale, self.concentration
        eq_zero = _torch.isclose(concentration, _torch.zeros_like(concentration))
        safe_conc = _torch.where(eq_zero, _torch.ones_like(concentration), concentration)
        logu = _torch.log1p(-value)
        where_nonzero = loc + scale / safe_conc * _torch.expm1(-safe_conc * logu)
        where_zero = loc - scale * logu
        return _torch.where(eq_zero, where_zero, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        valid = self.concentration < 1
        safe_conc = _torch.where(valid, self.concentration, 0.5)
        result = self.loc + self.scale / (1 - safe_conc)
        return _torch.where(valid, result, math.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe_conc = _torch.where(valid, self.concentration, 0.25)
        result = self.scale ** 2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return _torch.where(valid, result, math.nan)

    def entropy(self):
        ans = _torch.log(self.scale) + self.concentration + 1
        return _torch.broadcast_to(ans, self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = _torch.where(self.concentration < 0, lower - self.scale / self.concentration,
                             math.inf)
        return constraints.interval(lower, upper)
