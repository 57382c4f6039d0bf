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
from autograd_core.distributions import constraints, transforms  # noqa: F401
from autograd_core.distributions.bernoulli import Bernoulli
from autograd_core.distributions.beta import Beta
from autograd_core.distributions.binomial import Binomial
from autograd_core.distributions.categorical import Categorical
from autograd_core.distributions.cauchy import Cauchy
from autograd_core.distributions.chi2 import Chi2
from autograd_core.distributions.dirichlet import Dirichlet
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.constraint_registry import biject_to, transform_to
from autograd_core.distributions.continuous_bernoulli import ContinuousBernoulli
from autograd_core.distributions.exponential import Exponential
from autograd_core.distributions.fishersnedecor import FisherSnedecor
from autograd_core.distributions.gamma import Gamma
from autograd_core.distributions.generalized_pareto import GeneralizedPareto
from autograd_core.distributions.geometric import Geometric
from autograd_core.distributions.gumbel import Gumbel
from autograd_core.distributions.half_cauchy import HalfCauchy
from autograd_core.distributions.half_normal import HalfNormal
from autograd_core.distributions.independent import Independent
from autograd_core.distributions.inverse_gamma import InverseGamma
from autograd_core.distributions.kl import kl_divergence, register_kl
from autograd_core.distributions.kumaraswamy import Kumaraswamy
from autograd_core.distributions.laplace import Laplace
from autograd_core.distributions.lkj_cholesky import LKJCholesky
from autograd_core.distributions.log_normal import LogNormal
from autograd_core.distributions.logistic_normal import LogisticNormal
from autograd_core.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from autograd_core.distributions.mixture_same_family import MixtureSameFamily
from autograd_core.distributions.multinomial import Multinomial
from autograd_core.distributions.multivariate_normal import MultivariateNormal
from autograd_core.distributions.negative_binomial import NegativeBinomial
from autograd_core.distributions.normal import Normal
from autograd_core.distributions.one_hot_categorical import (
    OneHotCategorical, OneHotCategoricalStraightThrough,
)
from autograd_core.distributions.pareto import Pareto
from autograd_core.distributions.poisson import Poisson
from autograd_core.distributions.relaxed_bernoulli import RelaxedBernoulli
from autograd_core.distributions.relaxed_categorical import RelaxedOneHotCategorical
from autograd_core.distributions.studentT import StudentT
from autograd_core.distributions.transformed_distribution import TransformedDistribution
from autograd_core.distributions.transforms import *  # noqa: F401,F403
from autograd_core.distributions.uniform import Uniform
from autograd_core.distributions.von_mises import VonMises
from autograd_core.distributions.weibull import Weibull
from autograd_core.distributions.wishart import Wishart

__all__ = [
    "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli", "Dirichlet",
    "Distribution", "Exponential", "ExponentialFamily", "FisherSnedecor", "Gamma",
    "GeneralizedPareto", "Geometric", "Gumbel", "HalfCauchy", "HalfNormal", "Independent", "InverseGamma",
    "Kumaraswamy", "LKJCholesky", "Laplace", "LogNormal", "LogisticNormal", "LowRankMultivariateNormal",
    "MixtureSameFamily",
    "Multinomial", "MultivariateNormal", "NegativeBinomial", "Normal", "OneHotCategorical",
    "OneHotCategoricalStraightThrough", "Pareto", "Poisson", "RelaxedBernoulli",
    "RelaxedOneHotCategorical", "StudentT", "TransformedDistribution", "Uniform", "VonMises", "Weibull",
    "Wishart", "biject_to", "constraints", "kl_divergence", "register_kl", "transform_to", "transforms",
]
__all__.extend(transforms.__all__)
