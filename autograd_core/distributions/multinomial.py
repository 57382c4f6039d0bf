"""The multinomial distribution: counts of total_count categorical draws."""
import math

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.binomial import Binomial
from autograd_core.distributions.categorical import Categorical
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.utils import broadcast_all, delegated_property

__all__ = ["Multinomial"]


class Multinomial(Distribution):
    """Counts over the categories of probs (or logits) in total_count draws; samples
    come from Categorical's draws (PyTorch's numbers for the same seed).

    >>> import autograd_core as torch
    >>> m = torch.distributions.Multinomial(4, torch.tensor([0.2, 0.3, 0.5]))
    >>> m.log_prob(torch.tensor([1.0, 1.0, 2.0]))
    tensor(-1.7148)
    """
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Multinomial, _instance)
        batch_shape = _torch.Size(batch_shape)
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        super(Multinomial, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    logits = delegated_property("_categorical", "logits")
    probs = delegated_property("_categorical", "probs")
    param_shape = delegated_property("_categorical", "param_shape")

    def sample(self, sample_shape=_torch.Size()):
        sample_shape = _torch.Size(sample_shape)
        samples = self._categorical.sample(_torch.Size((self.total_count,)) + sample_shape)
        # the draws' dim moved last, then counted per category
        shifted_idx = list(range(samples.dim()))
        shifted_idx.append(shifted_idx.pop(0))
        samples = samples.permute(*shifted_idx)
        counts = _torch.zeros(self._extended_shape(sample_shape), dtype=samples.dtype)
        counts.scatter_add_(-1, samples, _torch.ones_like(samples))
        return counts.type_as(self.probs)

    def entropy(self):
        n = _torch.tensor(self.total_count)
        cat_entropy = self._categorical.entropy()
        term1 = n * cat_entropy - _torch.lgamma(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = _torch.exp(self._binomial.log_prob(support))
        weights = _torch.lgamma(support + 1)
        term2 = (binomial_probs * weights).sum([0, -1])
        return term1 + term2

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone(memory_format=_torch.contiguous_format)
        log_factorial_n = _torch.lgamma(value.sum(-1) + 1)
        log_factorial_xs = _torch.lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0  # 0 * log(0) is 0 here
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers
