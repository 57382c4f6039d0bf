"""The continuous Bernoulli distribution on [0, 1] (Loaiza-Ganem and Cunningham, 2019)."""
import math

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.utils import (broadcast_all, clamp_probs, expand_params,
                                               lazy_property, logits_to_probs, probs_to_logits,
                                               set_probs_or_logits)
from autograd_core.nn.functional import binary_cross_entropy_with_logits

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):
    """Density proportional to p^x (1 - p)^(1 - x) on [0, 1]; near p = 1/2 (within lims)
    the normaliser and moments use PyTorch's Taylor expansions.

    >>> import autograd_core as torch
    >>> torch.distributions.ContinuousBernoulli(torch.tensor([0.3])).mean
    tensor([0.4302])
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        set_probs_or_logits(self, probs, logits)
        if probs is not None:
            # validated before the clamping below would hide a bad value
            if validate_args is not None:
                if not self.arg_constraints["probs"].check(self.probs).all():
                    raise ValueError("The parameter probs has invalid values")
            self.probs = self._param = clamp_probs(self.probs)
        batch_shape = self._param.size()
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, ContinuousBernoulli, (), batch_shape, _instance,
                             probs_or_logits=True, shared=("_lims",))

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    def _outside_unstable_region(self):
        return _torch.max(_torch.le(self.probs, self._lims[0]),
                          _torch.gt(self.probs, self._lims[1]))

    def _cut_probs(self):
        return _torch.where(self._outside_unstable_region(), self.probs,
                            self._lims[0] * _torch.ones_like(self.probs))

    def _cont_bern_log_norm(self):
        """The log normalising constant, Taylor-expanded around p = 1/2."""
        cut_probs = self._cut_probs()
        cut_probs_below_half = _torch.where(_torch.le(cut_probs, 0.5), cut_probs,
                                            _torch.zeros_like(cut_probs))
        cut_probs_above_half = _torch.where(_torch.ge(cut_probs, 0.5), cut_probs,
                                            _torch.ones_like(cut_probs))
        log_norm = (_torch.log(_torch.abs(_torch.log1p(-cut_probs) - _torch.log(cut_probs)))
                    - _torch.where(_torch.le(cut_probs, 0.5),
                                   _torch.log1p(-2.0 * cut_probs_below_half),
                                   _torch.log(2.0 * cut_probs_above_half - 1.0)))
        x = _torch.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return _torch.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        cut_probs = self._cut_probs()
        mus = (cut_probs / (2.0 * cut_probs - 1.0)
               + 1.0 / (_torch.log1p(-cut_probs) - _torch.log(cut_probs)))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * _torch.pow(x, 2)) * x
        return _torch.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return _torch.sqrt(self.variance)

    @property
    def variance(self):
        cut_probs = self._cut_probs()
        vars_ = (cut_probs * (cut_probs - 1.0) / _torch.pow(1.0 - 2.0 * cut_probs, 2)
                 + 1.0 / _torch.pow(_torch.log1p(-cut_probs) - _torch.log(cut_probs), 2))
        x = _torch.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return _torch.where(self._outside_unstable_region(), vars_, taylor)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = _torch.rand(shape, dtype=self.probs.dtype)
        with _torch.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = _torch.rand(shape, dtype=self.probs.dtype)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return (-binary_cross_entropy_with_logits(logits, value, reduction="none")
                + self._cont_bern_log_norm())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut_probs = self._cut_probs()
        cdfs = ((_torch.pow(cut_probs, value) * _torch.pow(1.0 - cut_probs, 1.0 - value)
                 + cut_probs - 1.0) / (2.0 * cut_probs - 1.0))
        unbounded_cdfs = _torch.where(self._outside_unstable_region(), cdfs, value)
        return _torch.where(_torch.le(value, 0.0), _torch.zeros_like(value),
                            _torch.where(_torch.ge(value, 1.0), _torch.ones_like(value),
                                         unbounded_cdfs))

    def icdf(self, value):
        cut_probs = self._cut_probs()
        return _torch.where(
            self._outside_unstable_region(),
            (_torch.log1p(-cut_probs + value * (2.0 * cut_probs - 1.0)) - _torch.log1p(-cut_probs))
            / (_torch.log(cut_probs) - _torch.log1p(-cut_probs)),
            value)

    def entropy(self):
        log_probs0 = _torch.log1p(-self.probs)
        log_probs1 = _torch.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        out_unst_reg = _torch.max(_torch.le(x, self._lims[0] - 0.5),
                                  _torch.gt(x, self._lims[1] - 0.5))
        cut_nat_params = _torch.where(out_unst_reg, x,
                                      (self._lims[0] - 0.5) * _torch.ones_like(x))
        log_norm = (_torch.log(_torch.abs(_torch.expm1(cut_nat_params)))
                    - _torch.log(_torch.abs(cut_nat_params)))
        taylor = 0.5 * x + _torch.pow(x, 2) / 24.0 - _torch.pow(x, 4) / 2880.0
        return _torch.where(out_unst_reg, log_norm, taylor)
