"""The Bernoulli distribution over {0, 1}."""

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.utils import (binary_logits_and_probs, broadcast_all,
                                               expand_params, set_probs_or_logits)
from autograd_core.nn.functional import binary_cross_entropy_with_logits

__all__ = ["Bernoulli"]


class Bernoulli(ExponentialFamily):
    """1 with probability probs (or sigmoid(logits)), else 0.

    >>> import autograd_core as torch
    >>> torch.distributions.Bernoulli(probs=torch.tensor([0.25])).variance
    tensor([0.1875])
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        set_probs_or_logits(self, probs, logits)
        batch_shape = self._param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, Bernoulli, (), batch_shape, _instance,
                             probs_or_logits=True)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = float("nan")
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    logits, probs = binary_logits_and_probs()

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        with _torch.no_grad():
            return _torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    _mean_carrier_measure = 0

    @property
    def _natural_params(self):
        return (_torch.logit(self.probs),)

    def _log_normalizer(self, x):
        return _torch.log1p(_torch.exp(x))

    def enumerate_support(self, expand=True):
        values = _torch.arange(2, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + self._batch_shape)
        return values
