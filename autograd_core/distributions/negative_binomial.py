"""The negative binomial distribution: failures before total_count successes."""
import autograd_core as _torch
import autograd_core.nn.functional as _F
from autograd_core.distributions import constraints
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.gamma import Gamma
from autograd_core.distributions.utils import (binary_logits_and_probs, expand_params,
                                               lazy_property, set_probs_or_logits)

__all__ = ["NegativeBinomial"]


class NegativeBinomial(Distribution):
    """Negative binomial with total_count and success probability probs (or logits);
    samples are Poisson(Gamma(total_count, exp(-logits))) with PyTorch's draws.

    >>> import autograd_core as torch
    >>> torch.distributions.NegativeBinomial(3.0, torch.tensor([0.4])).log_prob(torch.tensor([2.0]))
    tensor([-1.5733])
    """
    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        (total_count,) = set_probs_or_logits(self, probs, logits, total_count)
        self.total_count = total_count.type_as(self._param)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, NegativeBinomial, ("total_count",), batch_shape, _instance,
                             probs_or_logits=True)

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    @property
    def mean(self):
        return self.total_count * _torch.exp(self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / _torch.sigmoid(-self.logits)

    logits, probs = binary_logits_and_probs()

    @property
    def param_shape(self):
        return self._param.size()

    @lazy_property
    def _gamma(self):
        return Gamma(concentration=self.total_count, rate=_torch.exp(-self.logits),
                     validate_args=False)

    def sample(self, sample_shape=_torch.Size()):
        with _torch.no_grad():
            rate = self._gamma.sample(sample_shape=sample_shape)
            return _torch.poisson(rate)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_unnormalized_prob = (self.total_count * _F.logsigmoid(-self.logits)
                                 + value * _F.logsigmoid(self.logits))
        log_normalization = (-_torch.lgamma(self.total_count + value)
                             + _torch.lgamma(1.0 + value) + _torch.lgamma(self.total_count))
        # total_count + value == 0: the probability of 0 failures with 0 successes is 1
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalized_prob - log_normalization
