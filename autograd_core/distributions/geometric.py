"""The geometric distribution: failures before the first success."""

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.utils import (binary_logits_and_probs, broadcast_all,
                                               expand_params, set_probs_or_logits)
from autograd_core.nn.functional import binary_cross_entropy_with_logits

__all__ = ["Geometric"]


class Geometric(Distribution):
    """P(k) = (1 - p)^k p for k = 0, 1, ...; samples floor(log(U) / log1p(-p)) with
    PyTorch's uniform draws.

    >>> import autograd_core as torch
    >>> torch.distributions.Geometric(torch.tensor([0.25])).log_prob(torch.tensor([2.0]))
    tensor([-1.9617])
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        set_probs_or_logits(self, probs, logits)
        batch_shape = self._param.size()
        super().__init__(batch_shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            # 0 lies in unit_interval but is no geometric parameter
            value = self.probs
            valid = value > 0
            if not valid.all():
                invalid_value = value.data[~valid]
                raise ValueError(
                    "Expected parameter probs "
                    f"({type(value).__name__} of shape {tuple(value.shape)}) "
                    f"of distribution {self!r} "
                    f"to be positive but found invalid values:\n{invalid_value}")

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, Geometric, (), batch_shape, _instance,
                             probs_or_logits=True)

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return _torch.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    logits, probs = binary_logits_and_probs()

    def sample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        tiny = _torch.finfo(self.probs.dtype).tiny
        with _torch.no_grad():
            u = _torch.empty(shape, dtype=self.probs.dtype).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone(memory_format=_torch.contiguous_format)
        probs[(probs == 1) & (value == 0)] = 0  # 0 * log(0) is 0 here
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs,
                                                reduction="none") / self.probs
