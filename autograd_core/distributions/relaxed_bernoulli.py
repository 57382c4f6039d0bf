"""The relaxed (Concrete / Gumbel-softmax) Bernoulli distribution and its logit form."""

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.transformed_distribution import (
    TransformedDistribution, base_dist_property, expand_transformed,
)
from autograd_core.distributions.transforms import SigmoidTransform
from autograd_core.distributions.utils import (binary_logits_and_probs, broadcast_all,
                                               clamp_probs, expand_params, set_probs_or_logits)

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


class LogitRelaxedBernoulli(Distribution):
    """The logit of a RelaxedBernoulli sample.

    >>> import autograd_core as torch
    >>> from autograd_core.distributions.relaxed_bernoulli import LogitRelaxedBernoulli
    >>> d = LogitRelaxedBernoulli(torch.tensor(0.5), torch.tensor([0.3]))
    >>> d.log_prob(torch.tensor([0.0]))
    tensor([-2.2538])
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = temperature
        set_probs_or_logits(self, probs, logits)
        batch_shape = self._param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_params(self, LogitRelaxedBernoulli, (), batch_shape, _instance,
                             probs_or_logits=True, shared=("temperature",))

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    logits, probs = binary_logits_and_probs()

    @property
    def param_shape(self):
        return self._param.size()

    def rsample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(_torch.rand(shape, dtype=probs.dtype))
        return (uniforms.log() - (-uniforms).log1p() + probs.log()
                - (-probs).log1p()) / self.temperature

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(TransformedDistribution):
    """A continuous relaxation of Bernoulli on (0, 1), reparameterisable, with the given
    temperature.

    >>> import autograd_core as torch
    >>> d = torch.distributions.RelaxedBernoulli(torch.tensor(0.5), torch.tensor([0.3]))
    >>> d.log_prob(torch.tensor([0.5]))
    tensor([-0.8675])
    """
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_transformed(self, RelaxedBernoulli, batch_shape, _instance)

    temperature = base_dist_property("temperature")
    logits = base_dist_property("logits")
    probs = base_dist_property("probs")
