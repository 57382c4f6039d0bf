"""The relaxed one-hot categorical (Concrete / Gumbel-softmax) distribution."""
import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.categorical import Categorical
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.transformed_distribution import (
    TransformedDistribution, base_dist_property, expand_transformed,
)
from autograd_core.distributions.transforms import ExpTransform
from autograd_core.distributions.utils import broadcast_all, clamp_probs, delegated_property

__all__ = ["ExpRelaxedCategorical", "RelaxedOneHotCategorical"]


class ExpRelaxedCategorical(Distribution):
    """The log of a RelaxedOneHotCategorical sample.

    >>> import autograd_core as torch
    >>> from autograd_core.distributions.relaxed_categorical import ExpRelaxedCategorical
    >>> d = ExpRelaxedCategorical(torch.tensor(0.5), torch.tensor([0.2, 0.8]))
    >>> d.event_shape
    autograd_core.Size([2])
    """
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ExpRelaxedCategorical, _instance)
        batch_shape = _torch.Size(batch_shape)
        new.temperature = self.temperature
        new._categorical = self._categorical.expand(batch_shape)
        super(ExpRelaxedCategorical, new).__init__(batch_shape, self.event_shape,
                                                   validate_args=False)
        new._validate_args = self._validate_args
        return new

    param_shape = delegated_property("_categorical", "param_shape")
    logits = delegated_property("_categorical", "logits")
    probs = delegated_property("_categorical", "probs")

    def rsample(self, sample_shape=_torch.Size()):
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(_torch.rand(shape, dtype=self.logits.dtype))
        gumbels = -(-uniforms.log()).log()
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value):
        K = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = (_torch.full_like(self.temperature, float(K)).lgamma()
                     - self.temperature.log().mul(-(K - 1)))
        score = logits - value.mul(self.temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    """A continuous relaxation of OneHotCategorical on the simplex (Gumbel-softmax).

    >>> import autograd_core as torch
    >>> d = torch.distributions.RelaxedOneHotCategorical(torch.tensor(0.5), torch.tensor([0.2, 0.8]))
    >>> d.log_prob(torch.tensor([0.3, 0.7]))
    tensor(-0.7420)
    """
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base_dist = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return expand_transformed(self, RelaxedOneHotCategorical, batch_shape, _instance)

    temperature = base_dist_property("temperature")
    logits = base_dist_property("logits")
    probs = base_dist_property("probs")
