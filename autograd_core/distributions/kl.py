"""kl_divergence(p, q) and the registry of closed forms (PyTorch's register_kl)."""
import math
import warnings
from functools import total_ordering

import autograd_core as _torch
from autograd_core.distributions.bernoulli import Bernoulli
from autograd_core.distributions.categorical import Categorical
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.exponential import Exponential
from autograd_core.distributions.independent import Independent
from autograd_core.distributions.laplace import Laplace
from autograd_core.distributions.multivariate_normal import (
    MultivariateNormal, _batch_mahalanobis, _broadcast_shape,
)
from autograd_core.distributions.normal import Normal
from autograd_core.distributions.one_hot_categorical import OneHotCategorical
from autograd_core.distributions.poisson import Poisson
from autograd_core.distributions.uniform import Uniform
from autograd_core.distributions.utils import _sum_rightmost
from autograd_core.nn.functional import softplus as _softplus

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY = {}
_KL_MEMOIZE = {}


def register_kl(type_p, type_q):
    """Decorator registering the function that computes KL(p || q) for two distribution
    classes (the most specific registered pair is used).

    >>> import autograd_core as torch
    >>> from autograd_core.distributions import Normal, kl_divergence
    >>> kl_divergence(Normal(0., 1.), Normal(1., 1.))
    tensor(0.5000)
    """
    if not isinstance(type_p, type) and issubclass(type_p, Distribution):
        raise TypeError(f"Expected type_p to be a Distribution subclass but got {type_p}")
    if not isinstance(type_q, type) and issubclass(type_q, Distribution):
        raise TypeError(f"Expected type_q to be a Distribution subclass but got {type_q}")

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        _KL_MEMOIZE.clear()
        return fun
    return decorator


@total_ordering
class _Match:
    __slots__ = ["types"]

    def __init__(self, *types):
        self.types = types

    def __eq__(self, other):
        return self.types == other.types

    def __le__(self, other):
        for x, y in zip(self.types, other.types):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _dispatch_kl(type_p, type_q):
    matches = [(super_p, super_q) for super_p, super_q in _KL_REGISTRY
               if issubclass(type_p, super_p) and issubclass(type_q, super_q)]
    if not matches:
        return NotImplemented
    left_p, left_q = min(_Match(*m) for m in matches).types
    right_q, right_p = min(_Match(*reversed(m)) for m in matches).types
    left_fun = _KL_REGISTRY[left_p, left_q]
    right_fun = _KL_REGISTRY[right_p, right_q]
    if left_fun is not right_fun:
        warnings.warn(f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
                      f"Please register_kl({left_p.__name__}, {right_q.__name__})",
                      RuntimeWarning, stacklevel=2)
    return left_fun


def kl_divergence(p, q):
    """The Kullback-Leibler divergence KL(p || q), batched over the distributions' batch
    shape; NotImplementedError for a pair with no registered closed form."""
    try:
        fun = _KL_MEMOIZE[type(p), type(q)]
    except KeyError:
        fun = _dispatch_kl(type(p), type(q))
        _KL_MEMOIZE[type(p), type(q)] = fun
    if fun is NotImplemented:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type "
                                  f"{p.__class__.__name__} and q type {q.__class__.__name__}")
    return fun(p, q)


def _infinite_like(tensor):
    return _torch.full_like(tensor, math.inf)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    # KL(p || q) = F(theta_q) - F(theta_p) - <theta_q - theta_p, grad F(theta_p)>
    if not type(p) == type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot                             be computed "
                                  "using Bregman divergences")
    p_nparams = [np_.detach().requires_grad_() for np_ in p._natural_params]
    q_nparams = q._natural_params
    lg_normal = p._log_normalizer(*p_nparams)
    gradients = _torch.autograd.grad(lg_normal.sum(), p_nparams, create_graph=True)
    result = q._log_normalizer(*q_nparams) - lg_normal
    for pnp, qnp, g in zip(p_nparams, q_nparams, gradients):
        result -= _sum_rightmost((qnp - pnp) * g, len(q.event_shape))
    return result


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    t1 = p.probs * (_softplus(-q.logits) - _softplus(-p.logits))
    t1[q.probs == 0] = math.inf
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (_softplus(q.logits) - _softplus(p.logits))
    t2[q.probs == 1] = math.inf
    t2[p.probs == 1] = 0
    return t1 + t2


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = math.inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    t1 = -rate_ratio.log()
    return t1 + rate_ratio - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * _torch.exp(-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    common_term = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / common_term).log()
    t2 = common_term.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


@register_kl(Normal, Uniform)
def _kl_normal_infinity(p, q):
    return _infinite_like(p.loc)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two Multivariate Normals with"
                         "                          different event shapes cannot be computed")
    half_term1 = q._half_log_det() - p._half_log_det()
    batch = _broadcast_shape(q._unbroadcasted_scale_tril.shape[:-2],
                             p._unbroadcasted_scale_tril.shape[:-2])
    n = p.event_shape[0]
    q_scale_tril = q._unbroadcasted_scale_tril.expand(batch + (n, n))
    p_scale_tril = p._unbroadcasted_scale_tril.expand(batch + (n, n))
    # tr(X X^T) for X = Lq^-1 Lp
    X = _torch.linalg.solve_triangular(q_scale_tril, p_scale_tril, upper=False)
    term2 = X.reshape(X.shape[:-2] + (n * n,)).pow(2).sum(-1)
    term3 = _batch_mahalanobis(q._unbroadcasted_scale_tril, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    result = kl_divergence(p.base_dist, q.base_dist)
    return _sum_rightmost(result, p.reinterpreted_batch_ndims)
