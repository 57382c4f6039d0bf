"""autograd_core.distributions: PyTorch's torch.distributions — parameterised probability
distributions with sample/rsample (drawing PyTorch's numbers for the same seed), log_prob,
entropy, moments, argument validation and kl_divergence.

>>> import autograd_core as torch
>>> from autograd_core.distributions import Categorical
>>> _ = torch.manual_seed(0)
>>> m = Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))
>>> m.log_prob(torch.tensor(2))
tensor(-0.3567)
"""
from autograd_core.distributions import constraints  # noqa: F401
from autograd_core.distributions.bernoulli import Bernoulli
from autograd_core.distributions.categorical import Categorical
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.exponential import Exponential
from autograd_core.distributions.independent import Independent
from autograd_core.distributions.kl import kl_divergence, register_kl
from autograd_core.distributions.laplace import Laplace
from autograd_core.distributions.multivariate_normal import MultivariateNormal
from autograd_core.distributions.normal import Normal
from autograd_core.distributions.one_hot_categorical import (
    OneHotCategorical, OneHotCategoricalStraightThrough,
)
from autograd_core.distributions.poisson import Poisson
from autograd_core.distributions.uniform import Uniform

__all__ = [
    "Bernoulli", "Categorical", "Distribution", "Exponential", "ExponentialFamily",
    "Independent", "Laplace", "MultivariateNormal", "Normal", "OneHotCategorical",
    "OneHotCategoricalStraightThrough", "Poisson", "Uniform", "constraints", "kl_divergence", "register_kl",
]
