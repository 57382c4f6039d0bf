"""The binomial distribution: successes in total_count trials."""
import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.utils import (binary_logits_and_probs, expand_params,
                                               set_probs_or_logits)

__all__ = ["Binomial"]


def _clamp_by_zero(x):
    # max(x, 0) with gradient 1/2 at 0
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(Distribution):
    """Binomial distribution with total_count trials of probability probs (or logits);
    samples are torch.binomial's (PyTorch's draws for the same seed).

    >>> import autograd_core as torch
    >>> m = torch.distributions.Binomial(10, torch.tensor([0.5]))
    >>> m.mean, m.log_prob(torch.tensor([3.0]))
    (tensor([5.]), tensor([-2.1440]))
    """
    arg_constraints = {"total_count": constraints.nonnegative_integer,
                       "probs": constraints.unit_interval, "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        (total_count,) = set_probs_or_logits(self, probs, logits, total_count)
        self.total_count = total_count.type_as(self._param)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, Binomial, ("total_count",), batch_shape, _instance,
                             probs_or_logits=True)

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    logits, probs = binary_logits_and_probs()

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        with _torch.no_grad():
            return _torch.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = _torch.lgamma(self.total_count + 1)
        log_factorial_k = _torch.lgamma(value + 1)
        log_factorial_nmk = _torch.lgamma(self.total_count - value + 1)
        # n * log1p(exp(logits)), stable for either sign of the logits
        normalize_term = (self.total_count * _clamp_by_zero(self.logits)
                          + self.total_count * _torch.log1p(_torch.exp(-_torch.abs(self.logits)))
                          - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self):
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError("Inhomogeneous total count not supported by `entropy`.")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(_torch.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError(
                "Inhomogeneous total count not supported by `enumerate_support`.")
        values = _torch.arange(1 + total_count, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + self._batch_shape)
        return values
