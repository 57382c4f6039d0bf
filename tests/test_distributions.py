"""torch.distributions against PyTorch: for each distribution, the same parameters give the
same shapes, repr, moments, entropy, log_prob/cdf/icdf, the same samples for the same seed
(sample and rsample draw PyTorch's numbers), the same gradients through rsample and
log_prob, the same kl_divergence, and the same validation errors."""
import math

import pytest

from _diff import same, same_error

# name -> (constructor(mod, params), params(mod) as requires_grad leaves, a valid value(mod))
def _t(mod, x, grad=True, dtype="float32"):
    return mod.tensor(x, dtype=getattr(mod, dtype), requires_grad=grad)


CASES = {
    "normal": (lambda mod, p: mod.distributions.Normal(*p),
               lambda mod: (_t(mod, [[0.5, -1.0, 0.0], [2.0, 0.1, -0.3]]), _t(mod, [1.5, 0.2, 1.0])),
               lambda mod: mod.tensor([[0.3, -0.7, 1.2], [1.0, 0.0, -2.0]])),
    "normal_scalar": (lambda mod, p: mod.distributions.Normal(0.5, 2.0),
                      lambda mod: (),
                      lambda mod: mod.tensor(1.5)),
    "normal_f64": (lambda mod, p: mod.distributions.Normal(*p),
                   lambda mod: (_t(mod, [0.5, -1.0], dtype="float64"), _t(mod, 2.0, dtype="float64")),
                   lambda mod: mod.tensor([0.3, 4.0], dtype=mod.float64)),
    "uniform": (lambda mod, p: mod.distributions.Uniform(*p),
                lambda mod: (_t(mod, [0.0, -1.0, 2.0]), _t(mod, [1.0, 3.0, 2.5])),
                lambda mod: mod.tensor([0.5, 2.9, 2.2])),
    "bernoulli_probs": (lambda mod, p: mod.distributions.Bernoulli(probs=p[0]),
                        lambda mod: (_t(mod, [[0.2, 0.9], [0.5, 0.01]]),),
                        lambda mod: mod.tensor([[1.0, 0.0], [1.0, 1.0]])),
    "bernoulli_logits": (lambda mod, p: mod.distributions.Bernoulli(logits=p[0]),
                         lambda mod: (_t(mod, [-1.0, 0.0, 3.0]),),
                         lambda mod: mod.tensor([0.0, 1.0, 1.0])),
    "categorical_probs": (lambda mod, p: mod.distributions.Categorical(probs=p[0]),
                          lambda mod: (_t(mod, [[0.1, 0.2, 0.7], [2.0, 1.0, 1.0]]),),
                          lambda mod: mod.tensor([2, 0])),
    "categorical_logits": (lambda mod, p: mod.distributions.Categorical(logits=p[0]),
                           lambda mod: (_t(mod, [1.0, -2.0, 0.5, 0.0]),),
                           lambda mod: mod.tensor([[3], [0], [1]])),
    "onehot": (lambda mod, p: mod.distributions.OneHotCategorical(probs=p[0]),
               lambda mod: (_t(mod, [[0.3, 0.3, 0.4], [0.9, 0.05, 0.05]]),),
               lambda mod: mod.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])),
    "mvn_cov": (lambda mod, p: mod.distributions.MultivariateNormal(p[0], covariance_matrix=p[1]),
                lambda mod: (_t(mod, [[0.5, -1.0], [0.0, 1.0]]), _t(mod, [[2.0, 0.3], [0.3, 0.5]])),
                lambda mod: mod.tensor([[0.1, 0.2], [1.5, -0.5]])),
    "mvn_tril": (lambda mod, p: mod.distributions.MultivariateNormal(p[0], scale_tril=p[1]),
                 lambda mod: (_t(mod, [0.5, -1.0, 2.0]),
                              _t(mod, [[1.0, 0.0, 0.0], [0.5, 2.0, 0.0], [-0.3, 0.2, 0.7]])),
                 lambda mod: mod.tensor([0.0, 0.0, 1.0])),
    "mvn_precision": (lambda mod, p: mod.distributions.MultivariateNormal(p[0], precision_matrix=p[1]),
                      lambda mod: (_t(mod, [0.5, -1.0]), _t(mod, [[2.0, -0.4], [-0.4, 1.0]])),
                      lambda mod: mod.tensor([0.3, 0.3])),
    "independent": (lambda mod, p: mod.distributions.Independent(mod.distributions.Normal(*p), 1),
                    lambda mod: (_t(mod, [[0.5, -1.0], [0.0, 2.0]]), _t(mod, [[1.0, 2.0], [0.5, 0.5]])),
                    lambda mod: mod.tensor([[0.0, 1.0], [2.0, -1.0]])),
    "exponential": (lambda mod, p: mod.distributions.Exponential(*p),
                    lambda mod: (_t(mod, [0.5, 2.0, 1.0]),),
                    lambda mod: mod.tensor([0.3, 1.5, 0.0])),
    "laplace": (lambda mod, p: mod.distributions.Laplace(*p),
                lambda mod: (_t(mod, [0.5, -1.0], dtype="float64"), _t(mod, [1.5, 0.3], dtype="float64")),
                lambda mod: mod.tensor([0.3, -0.2], dtype=mod.float64)),
    "poisson": (lambda mod, p: mod.distributions.Poisson(*p),
                lambda mod: (_t(mod, [0.5, 4.0, 30.0]),),
                lambda mod: mod.tensor([0.0, 3.0, 28.0])),
    "gamma": (lambda mod, p: mod.distributions.Gamma(*p),
              lambda mod: (_t(mod, [[0.5, 2.0, 10.0], [1.0, 0.1, 3.0]]), _t(mod, [1.5, 0.5, 2.0])),
              lambda mod: mod.tensor([[0.3, 1.5, 4.0], [0.2, 0.01, 2.0]])),
    "gamma_f64": (lambda mod, p: mod.distributions.Gamma(*p),
                  lambda mod: (_t(mod, [0.3, 4.0], dtype="float64"), _t(mod, 2.0, dtype="float64")),
                  lambda mod: mod.tensor([0.1, 2.5], dtype=mod.float64)),
    "gamma_scalar": (lambda mod, p: mod.distributions.Gamma(2.0, 3.0),
                     lambda mod: (),
                     lambda mod: mod.tensor(0.7)),
    "chi2": (lambda mod, p: mod.distributions.Chi2(*p),
             lambda mod: (_t(mod, [1.0, 4.5, 0.7]),),
             lambda mod: mod.tensor([0.5, 3.0, 0.1])),
    "beta": (lambda mod, p: mod.distributions.Beta(*p),
             lambda mod: (_t(mod, [0.5, 2.0, 5.0, 8.0]), _t(mod, [1.5, 0.3, 5.0, 7.0])),
             lambda mod: mod.tensor([0.2, 0.9, 0.5, 0.6])),
    "beta_f64": (lambda mod, p: mod.distributions.Beta(*p),
                 lambda mod: (_t(mod, [[0.8], [7.0]], dtype="float64"), _t(mod, [2.5, 9.0], dtype="float64")),
                 lambda mod: mod.tensor([0.3, 0.45], dtype=mod.float64)),
    "dirichlet": (lambda mod, p: mod.distributions.Dirichlet(*p),
                  lambda mod: (_t(mod, [[1.0, 2.0, 0.5], [3.0, 3.0, 3.0], [0.3, 0.6, 0.2]]),),
                  lambda mod: mod.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]])),
    "studentT": (lambda mod, p: mod.distributions.StudentT(*p),
                 lambda mod: (_t(mod, [3.0, 0.8, 1.5, 10.0]), _t(mod, [0.0, 1.0, -1.0, 0.5]),
                              _t(mod, [1.0, 2.0, 0.5, 1.5])),
                 lambda mod: mod.tensor([0.3, -2.0, 1.0, 0.7])),
    "lognormal": (lambda mod, p: mod.distributions.LogNormal(*p),
                  lambda mod: (_t(mod, [0.0, 1.0, -0.5]), _t(mod, [0.5, 1.0, 2.0])),
                  lambda mod: mod.tensor([2.0, 0.5, 1.0])),
    "halfnormal": (lambda mod, p: mod.distributions.HalfNormal(*p),
                   lambda mod: (_t(mod, [2.0, 0.5]),),
                   lambda mod: mod.tensor([1.0, 0.1])),
    "gumbel": (lambda mod, p: mod.distributions.Gumbel(*p),
               lambda mod: (_t(mod, [1.0, -2.0]), _t(mod, [2.0, 0.5])),
               lambda mod: mod.tensor([0.0, -1.5])),
    "gumbel_scalar": (lambda mod, p: mod.distributions.Gumbel(0.5, 1.5),
                      lambda mod: (),
                      lambda mod: mod.tensor(0.2)),
    "cauchy": (lambda mod, p: mod.distributions.Cauchy(*p),
               lambda mod: (_t(mod, [0.0, 1.0, -3.0]), _t(mod, [1.0, 0.5, 2.0])),
               lambda mod: mod.tensor([1.0, 1.2, 0.0])),
    "weibull": (lambda mod, p: mod.distributions.Weibull(*p),
                lambda mod: (_t(mod, [1.0, 2.5]), _t(mod, [2.0, 0.7])),
                lambda mod: mod.tensor([0.5, 3.0])),
    "pareto": (lambda mod, p: mod.distributions.Pareto(*p),
               lambda mod: (_t(mod, [1.0, 0.5]), _t(mod, [3.0, 1.5])),
               lambda mod: mod.tensor([1.5, 2.0])),
    "logistic_normal": (lambda mod, p: mod.distributions.LogisticNormal(*p),
                        lambda mod: (_t(mod, [[0.0, 1.0], [-0.5, 0.3]]), _t(mod, [1.0, 0.5])),
                        lambda mod: mod.tensor([0.2, 0.5, 0.3])),
    "relaxed_bernoulli": (lambda mod, p: mod.distributions.RelaxedBernoulli(mod.tensor(0.7), probs=p[0]),
                          lambda mod: (_t(mod, [0.3, 0.8, 0.5]),),
                          lambda mod: mod.tensor([0.5, 0.9, 0.1])),
    "geometric_probs": (lambda mod, p: mod.distributions.Geometric(probs=p[0]),
                        lambda mod: (_t(mod, [0.25, 0.9, 1.0]),),
                        lambda mod: mod.tensor([2.0, 0.0, 0.0])),
    "geometric_logits": (lambda mod, p: mod.distributions.Geometric(logits=p[0]),
                         lambda mod: (_t(mod, [-1.0, 0.5]),),
                         lambda mod: mod.tensor([3.0, 1.0])),
    "binomial_probs": (lambda mod, p: mod.distributions.Binomial(10, probs=p[0]),
                       lambda mod: (_t(mod, [0.5, 0.05, 0.97, 0.0]),),
                       lambda mod: mod.tensor([3.0, 0.0, 10.0, 0.0])),
    "binomial_logits": (lambda mod, p: mod.distributions.Binomial(mod.tensor([5.0, 100.0]), logits=p[0]),
                        lambda mod: (_t(mod, [0.3, -2.0]),),
                        lambda mod: mod.tensor([2.0, 17.0])),
    "continuous_bernoulli": (lambda mod, p: mod.distributions.ContinuousBernoulli(*p),
                             lambda mod: (_t(mod, [0.3, 0.4995, 0.9, 0.01]),),
                             lambda mod: mod.tensor([0.2, 0.5, 0.95, 0.0])),
    "continuous_bernoulli_logits": (lambda mod, p: mod.distributions.ContinuousBernoulli(logits=p[0]),
                                    lambda mod: (_t(mod, [-1.0, 0.001, 3.0], dtype="float64"),),
                                    lambda mod: mod.tensor([0.7, 0.1, 1.0], dtype=mod.float64)),
    "generalized_pareto": (lambda mod, p: mod.distributions.GeneralizedPareto(*p),
                           lambda mod: (_t(mod, [0.0, 1.0, -1.0]), _t(mod, [1.0, 2.0, 0.5]),
                                        _t(mod, [0.5, 0.0, -0.2])),
                           lambda mod: mod.tensor([1.0, 3.0, 0.2])),
    "lowrank_mvn": (lambda mod, p: mod.distributions.LowRankMultivariateNormal(*p),
                    lambda mod: (_t(mod, [[0.0, 1.0, -1.0], [0.5, 0.5, 0.5]]),
                                 _t(mod, [[1.0, 0.2], [0.5, -1.0], [0.0, 0.3]]),
                                 _t(mod, [1.0, 2.0, 0.5])),
                    lambda mod: mod.tensor([0.5, -0.5, 1.0])),
    "von_mises": (lambda mod, p: mod.distributions.VonMises(*p),
                  lambda mod: (_t(mod, [0.0, 1.0, -2.0, 0.5]), _t(mod, [2.0, 0.5, 10.0, 1e-6])),
                  lambda mod: mod.tensor([0.5, -3.0, -2.1, 1.0])),
    "half_cauchy": (lambda mod, p: mod.distributions.HalfCauchy(*p),
                    lambda mod: (_t(mod, [1.0, 0.3]),),
                    lambda mod: mod.tensor([0.5, 2.0])),
    "inverse_gamma": (lambda mod, p: mod.distributions.InverseGamma(*p),
                      lambda mod: (_t(mod, [3.0, 0.7, 1.5]), _t(mod, [2.0, 1.0, 0.5])),
                      lambda mod: mod.tensor([0.5, 2.0, 0.3])),
    "kumaraswamy": (lambda mod, p: mod.distributions.Kumaraswamy(*p),
                    lambda mod: (_t(mod, [2.0, 0.5, 1.5]), _t(mod, [3.0, 0.8, 1.0])),
                    lambda mod: mod.tensor([0.3, 0.9, 0.5])),
    "fishersnedecor": (lambda mod, p: mod.distributions.FisherSnedecor(*p),
                       lambda mod: (_t(mod, [4.0, 1.5, 10.0]), _t(mod, [6.0, 3.0, 1.0])),
                       lambda mod: mod.tensor([0.8, 2.0, 0.3])),
    "negative_binomial": (lambda mod, p: mod.distributions.NegativeBinomial(*p),
                          lambda mod: (_t(mod, [3.0, 0.5, 10.0]), _t(mod, [0.4, 0.9, 0.0])),
                          lambda mod: mod.tensor([2.0, 7.0, 0.0])),
    "negative_binomial_logits": (lambda mod, p: mod.distributions.NegativeBinomial(p[0], logits=p[1]),
                                 lambda mod: (_t(mod, [2.0, 5.0]), _t(mod, [0.3, -1.0])),
                                 lambda mod: mod.tensor([4.0, 1.0])),
    "multinomial": (lambda mod, p: mod.distributions.Multinomial(5, probs=p[0]),
                    lambda mod: (_t(mod, [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]),),
                    lambda mod: mod.tensor([[1.0, 1.0, 3.0], [5.0, 0.0, 0.0]])),
    "relaxed_onehot": (lambda mod, p: mod.distributions.RelaxedOneHotCategorical(mod.tensor(0.6), logits=p[0]),
                       lambda mod: (_t(mod, [[0.5, -1.0, 0.2], [1.0, 1.0, 0.0]]),),
                       lambda mod: mod.tensor([0.3, 0.3, 0.4])),
    "mixture": (lambda mod, p: mod.distributions.MixtureSameFamily(
                    mod.distributions.Categorical(p[0]), mod.distributions.Normal(p[1], p[2])),
                lambda mod: (_t(mod, [0.3, 0.7]), _t(mod, [-1.0, 2.0]), _t(mod, [0.5, 1.0])),
                lambda mod: mod.tensor(1.5)),
    "mixture_mvn": (lambda mod, p: mod.distributions.MixtureSameFamily(
                        mod.distributions.Categorical(logits=p[0]),
                        mod.distributions.Independent(mod.distributions.Normal(p[1], p[2]), 1)),
                    lambda mod: (_t(mod, [[0.3, 0.7, 0.0], [1.0, 0.0, -1.0]]),
                                 _t(mod, [[[0.0, 1.0], [2.0, -1.0], [0.5, 0.5]],
                                          [[1.0, 1.0], [0.0, -2.0], [0.5, 3.0]]]),
                                 _t(mod, [[1.0, 0.5], [0.3, 2.0], [1.0, 1.0]])),
                    lambda mod: mod.tensor([[0.1, 0.2], [1.5, -0.5]])),
}
CONTINUOUS = {"normal", "normal_scalar", "normal_f64", "uniform", "mvn_cov", "mvn_tril",
              "mvn_precision", "independent", "exponential", "laplace", "gamma", "gamma_f64",
              "gamma_scalar", "chi2", "beta", "beta_f64", "dirichlet", "studentT", "lognormal",
              "halfnormal", "gumbel", "gumbel_scalar", "cauchy", "weibull", "pareto",
              "half_cauchy", "inverse_gamma", "kumaraswamy", "continuous_bernoulli",
              "continuous_bernoulli_logits", "generalized_pareto", "lowrank_mvn"}


def _describe(mod, name):
    make, params, value = CASES[name]
    d = make(mod, params(mod))
    out = {"batch": d.batch_shape, "event": d.event_shape}
    for attr in ("mean", "variance", "stddev", "mode"):
        try:
            out[attr] = getattr(d, attr)
        except NotImplementedError as e:
            out[attr] = "NotImplementedError"
    try:
        out["entropy"] = d.entropy()
    except NotImplementedError:
        out["entropy"] = "NotImplementedError"
    out["log_prob"] = d.log_prob(value(mod))
    out["repr"] = repr(d)
    out["has_rsample"] = d.has_rsample
    out["support"] = repr(d.support)
    out["expand"] = (d.expand((4,) + tuple(d.batch_shape)).batch_shape,
                     d.expand((4,) + tuple(d.batch_shape)).log_prob(value(mod)))
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_properties_and_log_prob(name):
    same(lambda mod: _describe(mod, name))


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("shape", [(), (5,), (2, 3)])
def test_sample_draws_pytorchs_numbers(name, shape):
    def prog(mod):
        make, params, _ = CASES[name]
        d = make(mod, params(mod))
        mod.manual_seed(7)
        s = d.sample(shape)
        after = mod.rand(2)  # the generator moved on as far as PyTorch's
        r = d.rsample(shape) if d.has_rsample else None
        return s, s.requires_grad, after, r, d.log_prob(s)
    same(prog)


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_gradients_through_rsample_and_log_prob(name):
    def prog(mod):
        make, params, value = CASES[name]
        ps = params(mod)
        d = make(mod, ps)
        mod.manual_seed(3)
        z = d.rsample((4,))
        loss = (z ** 2).sum() + d.log_prob(value(mod)).sum() + d.entropy().sum()
        if not ps:
            return z, loss
        return z, loss, mod.autograd.grad(loss, ps)
    same(prog, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["logistic_normal", "relaxed_bernoulli", "relaxed_onehot",
                                  "fishersnedecor"])
def test_gradients_through_rsample_without_entropy(name):
    """Transformed distributions without a closed-form entropy: rsample and log_prob."""
    def prog(mod):
        make, params, value = CASES[name]
        ps = params(mod)
        d = make(mod, ps)
        mod.manual_seed(11)
        z = d.rsample((3,))
        loss = (z ** 2).sum() + d.log_prob(value(mod)).sum()
        return z, loss, mod.autograd.grad(loss, ps)
    same(prog, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["bernoulli_probs", "bernoulli_logits", "categorical_probs",
                                  "categorical_logits", "onehot", "poisson", "geometric_probs",
                                  "geometric_logits", "binomial_probs", "binomial_logits",
                                  "negative_binomial", "negative_binomial_logits", "multinomial",
                                  "mixture", "mixture_mvn", "von_mises"])
def test_gradients_through_log_prob_and_entropy(name):
    def prog(mod):
        make, params, value = CASES[name]
        ps = params(mod)
        d = make(mod, ps)
        loss = d.log_prob(value(mod)).sum() * 0.7
        # no entropy in PyTorch (Binomial's: not for an inhomogeneous total_count)
        if name not in ("poisson", "binomial_logits", "negative_binomial",
                        "negative_binomial_logits", "mixture", "mixture_mvn", "von_mises"):
            loss = loss + d.entropy().sum()
        return loss, mod.autograd.grad(loss, ps)
    same(prog, rtol=1e-4, atol=1e-5)


def test_cdf_icdf_and_enumerate_support():
    def prog(mod):
        D = mod.distributions
        n = D.Normal(mod.tensor([0.5, 0.0]), mod.tensor([1.0, 2.0]))
        u = D.Uniform(mod.tensor([0.0, -1.0]), mod.tensor([2.0, 1.0]))
        v = mod.tensor([0.3, -0.4])
        q = mod.tensor([0.1, 0.8])
        return (n.cdf(v), n.icdf(q), u.cdf(v), u.icdf(q), n.perplexity(),
                D.Bernoulli(mod.tensor([0.3, 0.6])).enumerate_support(),
                D.Categorical(mod.ones(2, 3)).enumerate_support(),
                D.Categorical(mod.ones(2, 3)).enumerate_support(expand=False),
                D.OneHotCategorical(mod.ones(3)).enumerate_support())
    same(prog)


KL_PAIRS = [
    ("Normal", "Normal", lambda mod: ((_t(mod, [0.0, 1.0]), _t(mod, [1.0, 0.5])),
                                      (_t(mod, [0.5, -1.0]), _t(mod, [2.0, 0.3])))),
    ("Bernoulli", "Bernoulli", lambda mod: ((_t(mod, [0.3, 0.0, 1.0]),), (_t(mod, [0.6, 0.5, 0.5]),))),
    ("Categorical", "Categorical", lambda mod: ((_t(mod, [[0.3, 0.7, 0.0], [0.2, 0.2, 0.6]]),),
                                                (_t(mod, [[0.5, 0.25, 0.25], [0.1, 0.1, 0.8]]),))),
    ("OneHotCategorical", "OneHotCategorical", lambda mod: ((_t(mod, [0.3, 0.7]),), (_t(mod, [0.5, 0.5]),))),
    ("Uniform", "Uniform", lambda mod: ((_t(mod, [0.0, 0.0]), _t(mod, [1.0, 1.0])),
                                        (_t(mod, [-1.0, 0.5]), _t(mod, [2.0, 3.0])))),
    ("Uniform", "Normal", lambda mod: ((_t(mod, [0.0]), _t(mod, [1.0])), (_t(mod, [0.2]), _t(mod, [0.7])))),
    ("Exponential", "Exponential", lambda mod: ((_t(mod, [0.5, 2.0]),), (_t(mod, [1.0, 0.3]),))),
    ("Laplace", "Laplace", lambda mod: ((_t(mod, [0.0, 1.0]), _t(mod, [1.0, 0.5])),
                                        (_t(mod, [0.5, -1.0]), _t(mod, [2.0, 0.3])))),
    ("Poisson", "Poisson", lambda mod: ((_t(mod, [0.5, 3.0]),), (_t(mod, [1.0, 2.5]),))),
    ("Normal", "Uniform", lambda mod: ((_t(mod, [0.0]), _t(mod, [1.0])), (_t(mod, [0.2]), _t(mod, [0.7])))),
    ("Gamma", "Gamma", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])),
                                    (_t(mod, [2.0, 1.0]), _t(mod, [0.5, 4.0])))),
    ("Beta", "Beta", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])),
                                  (_t(mod, [2.0, 1.0]), _t(mod, [0.5, 4.0])))),
    ("Dirichlet", "Dirichlet", lambda mod: ((_t(mod, [[0.5, 3.0, 1.0], [1.0, 1.0, 1.0]]),),
                                            (_t(mod, [2.0, 1.0, 0.7]),))),
    ("Chi2", "Chi2", lambda mod: ((_t(mod, [1.0, 5.0]),), (_t(mod, [2.0, 3.0]),))),
    ("Gumbel", "Gumbel", lambda mod: ((_t(mod, [0.0, 1.0]), _t(mod, [1.0, 0.5])),
                                      (_t(mod, [0.5, -1.0]), _t(mod, [2.0, 0.3])))),
    ("Cauchy", "Cauchy", lambda mod: ((_t(mod, [0.0, 1.0]), _t(mod, [1.0, 0.5])),
                                      (_t(mod, [0.5, -1.0]), _t(mod, [2.0, 0.3])))),
    ("HalfNormal", "HalfNormal", lambda mod: ((_t(mod, [1.0, 0.5]),), (_t(mod, [2.0, 0.3]),))),
    ("LogNormal", "LogNormal", lambda mod: ((_t(mod, [0.0, 1.0]), _t(mod, [1.0, 0.5])),
                                            (_t(mod, [0.5, -1.0]), _t(mod, [2.0, 0.3])))),
    ("Pareto", "Pareto", lambda mod: ((_t(mod, [1.0, 0.5]), _t(mod, [2.0, 3.0])),
                                      (_t(mod, [0.5, 1.0]), _t(mod, [1.0, 1.5])))),
    ("Geometric", "Geometric", lambda mod: ((_t(mod, [0.3, 0.8]),), (_t(mod, [0.5, 0.1]),))),
    ("ContinuousBernoulli", "ContinuousBernoulli", lambda mod: ((_t(mod, [0.3, 0.4995]),), (_t(mod, [0.8, 0.2]),))),
    ("Beta", "ContinuousBernoulli", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])), (_t(mod, [0.8, 0.2]),))),
    ("ContinuousBernoulli", "Normal", lambda mod: ((_t(mod, [0.3, 0.7]),), (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("ContinuousBernoulli", "Uniform", lambda mod: ((_t(mod, [0.3, 0.7]),), (_t(mod, [-0.5, 0.0]), _t(mod, [1.5, 1.0])))),
    ("Uniform", "ContinuousBernoulli", lambda mod: ((_t(mod, [0.1, 0.0]), _t(mod, [0.6, 1.0])), (_t(mod, [0.3, 0.7]),))),
    ("ContinuousBernoulli", "Exponential", lambda mod: ((_t(mod, [0.3, 0.7]),), (_t(mod, [2.0, 0.5]),))),
    ("Bernoulli", "Poisson", lambda mod: ((_t(mod, [0.3, 0.7]),), (_t(mod, [2.0, 0.5]),))),
    ("Laplace", "Normal", lambda mod: ((_t(mod, [0.3, 0.7]), _t(mod, [1.0, 2.0])), (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("Normal", "Laplace", lambda mod: ((_t(mod, [0.3, 0.7]), _t(mod, [1.0, 2.0])), (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("Laplace", "Gamma", lambda mod: ((_t(mod, [0.3, 0.7]), _t(mod, [1.0, 2.0])), (_t(mod, [1.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("Binomial", "Binomial", lambda mod: ((_t(mod, [5.0, 6.0]), _t(mod, [0.3, 0.8])),
                                          (_t(mod, [5.0, 4.0]), _t(mod, [0.5, 0.1])))),
    ("Gamma", "Normal", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])),
                                     (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("Gamma", "Exponential", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])), (_t(mod, [2.0, 0.5]),))),
    ("Exponential", "Gamma", lambda mod: ((_t(mod, [2.0, 0.5]),), (_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])))),
    ("Beta", "Uniform", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])),
                                     (_t(mod, [0.0, -1.0]), _t(mod, [1.0, 0.5])))),
    ("Beta", "Normal", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])),
                                    (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("Uniform", "Beta", lambda mod: ((_t(mod, [0.1, 0.2]), _t(mod, [0.6, 1.5])),
                                     (_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])))),
    ("Uniform", "Gamma", lambda mod: ((_t(mod, [0.1, -0.2]), _t(mod, [0.6, 1.5])),
                                      (_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])))),
    ("Uniform", "Exponential", lambda mod: ((_t(mod, [0.1, -0.2]), _t(mod, [0.6, 1.5])), (_t(mod, [0.5, 3.0]),))),
    ("Uniform", "Gumbel", lambda mod: ((_t(mod, [0.1, -0.2]), _t(mod, [0.6, 1.5])),
                                       (_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])))),
    ("Gumbel", "Normal", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])),
                                      (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("Normal", "Gumbel", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])),
                                      (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("Normal", "Gamma", lambda mod: ((_t(mod, [0.5]), _t(mod, [1.0])), (_t(mod, [0.5]), _t(mod, [2.0])))),
    ("Pareto", "Exponential", lambda mod: ((_t(mod, [1.0, 0.5]), _t(mod, [2.0, 0.7])), (_t(mod, [0.5, 3.0]),))),
    ("Pareto", "Gamma", lambda mod: ((_t(mod, [1.0, 0.5]), _t(mod, [2.0, 0.7])),
                                     (_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])))),
    ("Pareto", "Normal", lambda mod: ((_t(mod, [1.0, 0.5]), _t(mod, [3.0, 1.5])),
                                      (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("Exponential", "Gumbel", lambda mod: ((_t(mod, [2.0, 0.5]),), (_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])))),
    ("Gamma", "Gumbel", lambda mod: ((_t(mod, [0.5, 3.0]), _t(mod, [1.0, 2.0])),
                                     (_t(mod, [0.0, 1.0]), _t(mod, [2.0, 0.5])))),
    ("MultivariateNormal", "MultivariateNormal",
     lambda mod: ((_t(mod, [[0.0, 1.0], [1.0, 1.0]]), _t(mod, [[1.0, 0.2], [0.2, 2.0]])),
                  (_t(mod, [0.5, -1.0]), _t(mod, [[2.0, -0.3], [-0.3, 0.5]])))),
]


@pytest.mark.parametrize("p_name, q_name, params", KL_PAIRS, ids=[f"{a}-{b}" for a, b, _ in KL_PAIRS])
def test_kl_divergence(p_name, q_name, params):
    def prog(mod):
        pp, qp = params(mod)
        P, Q = getattr(mod.distributions, p_name), getattr(mod.distributions, q_name)
        kl = mod.distributions.kl_divergence(P(*pp), Q(*qp))
        finite = kl[kl.isfinite()].sum()
        grads = mod.autograd.grad(finite, pp + qp, allow_unused=True) if finite.requires_grad else None
        return kl, grads
    same(prog, rtol=1e-4, atol=1e-5)


def test_kl_independent_and_registry():
    def prog(mod):
        D = mod.distributions
        p = D.Independent(D.Normal(mod.zeros(3, 2), mod.ones(3, 2)), 1)
        q = D.Independent(D.Normal(mod.ones(3, 2), 2 * mod.ones(3, 2)), 1)

        class MyNormal(D.Normal):
            pass

        @D.register_kl(MyNormal, D.Normal)
        def _kl(p, q):
            return mod.tensor(42.0)
        return D.kl_divergence(p, q), D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(0.0, 1.0))
    same(prog)


@pytest.mark.parametrize("make", [
    lambda mod: mod.distributions.Normal(mod.tensor([0.0]), mod.tensor([-1.0])),
    lambda mod: mod.distributions.Normal(mod.tensor([[0.0, float("nan")]]), 1.0),
    lambda mod: mod.distributions.Bernoulli(probs=mod.tensor([1.5])),
    lambda mod: mod.distributions.Bernoulli(probs=mod.tensor([0.5]), logits=mod.tensor([0.0])),
    lambda mod: mod.distributions.Categorical(probs=mod.tensor([0.5, -0.5])),
    lambda mod: mod.distributions.Categorical(),
    lambda mod: mod.distributions.Categorical(probs=mod.tensor(1.0)),
    lambda mod: mod.distributions.Uniform(2.0, 1.0),
    lambda mod: mod.distributions.Exponential(mod.tensor([0.0])),
    lambda mod: mod.distributions.Poisson(mod.tensor([-1.0])),
    lambda mod: mod.distributions.Poisson(mod.tensor([1.0])).log_prob(mod.tensor([1.5])),
    lambda mod: mod.distributions.Exponential(1.0).log_prob(mod.tensor(-1.0)),
    lambda mod: mod.distributions.MultivariateNormal(mod.zeros(2), mod.tensor([[1.0, 2.0], [2.0, 1.0]])),
    lambda mod: mod.distributions.MultivariateNormal(mod.zeros(2)),
    lambda mod: mod.distributions.MultivariateNormal(mod.tensor(0.0), mod.eye(2)),
    lambda mod: mod.distributions.MultivariateNormal(mod.zeros(2), scale_tril=mod.tensor([[1.0, 1.0], [0.0, 1.0]])),
    lambda mod: mod.distributions.Categorical(mod.tensor([0.5, 0.5])).log_prob(mod.tensor(3)),
    lambda mod: mod.distributions.Categorical(mod.tensor([0.5, 0.5])).log_prob([1]),
    lambda mod: mod.distributions.Normal(mod.zeros(3), 1.0).log_prob(mod.zeros(2)),
    lambda mod: mod.distributions.Bernoulli(mod.tensor([0.5])).log_prob(mod.tensor([0.5])),
    lambda mod: mod.distributions.OneHotCategorical(mod.ones(3)).log_prob(mod.ones(2)),
    lambda mod: mod.distributions.MultivariateNormal(mod.zeros(2), mod.eye(2)).log_prob(mod.zeros(3)),
    lambda mod: mod.distributions.Uniform(0.0, 1.0).log_prob(mod.tensor(2.0)),
    lambda mod: mod.distributions.Independent(mod.distributions.Normal(0.0, 1.0), 1),
    lambda mod: mod.distributions.kl_divergence(mod.distributions.Normal(0.0, 1.0),
                                                mod.distributions.Bernoulli(0.5)),
    lambda mod: mod.distributions.Gamma(mod.tensor([1.0, -1.0]), 1.0),
    lambda mod: mod.distributions.Gamma(1.0, mod.tensor([0.0])),
    lambda mod: mod.distributions.Gamma(1.0, 1.0).log_prob(mod.tensor(-0.5)),
    lambda mod: mod.distributions.Chi2(mod.tensor([-2.0])),
    lambda mod: mod.distributions.Beta(mod.tensor([0.5]), mod.tensor([0.0])),
    lambda mod: mod.distributions.Beta(2.0, 2.0).log_prob(mod.tensor(1.5)),
    lambda mod: mod.distributions.Dirichlet(mod.tensor(1.0)),
    lambda mod: mod.distributions.Dirichlet(mod.tensor([1.0, -1.0])),
    lambda mod: mod.distributions.Dirichlet(mod.ones(3)).log_prob(mod.tensor([0.5, 0.6, 0.1])),
    lambda mod: mod.distributions.StudentT(mod.tensor([0.0])),
    lambda mod: mod.distributions.LogNormal(0.0, -1.0),
    lambda mod: mod.distributions.LogNormal(0.0, 1.0).log_prob(mod.tensor(-1.0)),
    lambda mod: mod.distributions.HalfNormal(mod.tensor([-1.0])),
    lambda mod: mod.distributions.Gumbel(mod.tensor([0.0]), mod.tensor([-1.0])),
    lambda mod: mod.distributions.Cauchy(0.0, 0.0),
    lambda mod: mod.distributions.Geometric(mod.tensor([0.0])),
    lambda mod: mod.distributions.Geometric(mod.tensor([1.5])),
    lambda mod: mod.distributions.Geometric(),
    lambda mod: mod.distributions.Geometric(0.5).log_prob(mod.tensor(-1.0)),
    lambda mod: mod.distributions.Binomial(10, probs=mod.tensor([1.2])),
    lambda mod: mod.distributions.Binomial(mod.tensor([2.5]), probs=mod.tensor([0.2])),
    lambda mod: mod.distributions.Binomial(10, probs=mod.tensor([0.2])).log_prob(mod.tensor([11.0])),
    lambda mod: mod.distributions.Binomial(mod.tensor([3.0, 4.0]), probs=mod.tensor([0.2, 0.3])).entropy(),
    lambda mod: mod.distributions.Weibull(mod.tensor([1.0]), mod.tensor([0.0])),
    lambda mod: mod.distributions.Pareto(1.0, 2.0).log_prob(mod.tensor(0.5)),
    lambda mod: mod.distributions.TransformedDistribution(mod.distributions.Normal(0.0, 1.0), 3),
    lambda mod: mod.distributions.TransformedDistribution(mod.distributions.Normal(0.0, 1.0), [3]),
    lambda mod: mod.distributions.TransformedDistribution(
        mod.distributions.Normal(0.0, 1.0), [mod.distributions.transforms.StickBreakingTransform()]),
    lambda mod: mod.distributions.transforms.ExpTransform(cache_size=2),
    lambda mod: mod.distributions.ContinuousBernoulli(mod.tensor([1.5]), validate_args=True),
    lambda mod: mod.distributions.ContinuousBernoulli(mod.tensor([0.5])).log_prob(mod.tensor([1.5])),
    lambda mod: mod.distributions.GeneralizedPareto(0.0, -1.0, 0.5),
    lambda mod: mod.distributions.GeneralizedPareto(mod.tensor([0.0]), 1.0, -0.5).log_prob(mod.tensor([3.0])),
    lambda mod: mod.distributions.LowRankMultivariateNormal(mod.tensor(0.0), mod.ones(1, 1), mod.ones(1)),
    lambda mod: mod.distributions.LowRankMultivariateNormal(mod.zeros(2), mod.ones(2), mod.ones(2)),
    lambda mod: mod.distributions.LowRankMultivariateNormal(mod.zeros(2), mod.ones(3, 1), mod.ones(2)),
    lambda mod: mod.distributions.LowRankMultivariateNormal(mod.zeros(2), mod.ones(2, 1), mod.ones(3)),
    lambda mod: mod.distributions.LowRankMultivariateNormal(mod.zeros(2, 2), mod.ones(3, 2, 1), mod.ones(2)),
    lambda mod: mod.distributions.LowRankMultivariateNormal(mod.zeros(2), mod.ones(2, 1), -mod.ones(2)),
    lambda mod: mod.distributions.VonMises(mod.tensor([0.0]), mod.tensor([-1.0])),
    lambda mod: mod.distributions.HalfCauchy(mod.tensor([-1.0])),
    lambda mod: mod.distributions.HalfCauchy(1.0).log_prob(mod.tensor(-1.0)),
    lambda mod: mod.distributions.InverseGamma(mod.tensor([0.0]), 1.0),
    lambda mod: mod.distributions.Kumaraswamy(mod.tensor([1.0]), mod.tensor([-1.0])),
    lambda mod: mod.distributions.Kumaraswamy(mod.tensor([1.0]), mod.tensor([1.0])).log_prob(mod.tensor([1.5])),
    lambda mod: mod.distributions.FisherSnedecor(mod.tensor([1.0]), mod.tensor([0.0])),
    lambda mod: mod.distributions.NegativeBinomial(3.0, mod.tensor([1.0])),
    lambda mod: mod.distributions.NegativeBinomial(mod.tensor([-1.0]), mod.tensor([0.5])),
    lambda mod: mod.distributions.NegativeBinomial(3.0),
    lambda mod: mod.distributions.NegativeBinomial(3.0, mod.tensor([0.5])).log_prob(mod.tensor([0.5])),
    lambda mod: mod.distributions.Multinomial(mod.tensor(3), mod.tensor([0.5, 0.5])),
    lambda mod: mod.distributions.Multinomial(3, mod.tensor([0.5, 0.5])).log_prob(mod.tensor([3.0, 1.0])),
    lambda mod: mod.distributions.Multinomial(3, mod.tensor([0.5, -0.5])),
    lambda mod: mod.distributions.RelaxedOneHotCategorical(mod.tensor(0.5), mod.tensor([0.5, -0.5])),
    lambda mod: mod.distributions.MixtureSameFamily(mod.distributions.Normal(0.0, 1.0),
                                                    mod.distributions.Normal(mod.zeros(2), 1.0)),
    lambda mod: mod.distributions.MixtureSameFamily(mod.distributions.Categorical(mod.ones(2)), 3),
    lambda mod: mod.distributions.MixtureSameFamily(mod.distributions.Categorical(mod.ones(3)),
                                                    mod.distributions.Normal(mod.zeros(2), 1.0)),
    lambda mod: mod.distributions.MixtureSameFamily(mod.distributions.Categorical(mod.ones(3, 2)),
                                                    mod.distributions.Normal(mod.zeros(4, 2), 1.0)),
    lambda mod: mod.distributions.biject_to(mod.distributions.constraints.boolean),
    lambda mod: mod.distributions.transform_to(mod.distributions.constraints.boolean),
    lambda mod: mod.distributions.biject_to.register(3, lambda c: None),
])
def test_validation_errors(make):
    same_error(make)


def test_validation_can_be_turned_off():
    def prog(mod):
        D = mod.distributions
        d = D.Normal(mod.tensor([0.0]), mod.tensor([-1.0]), validate_args=False)
        lp = D.Categorical(mod.tensor([0.5, 0.5]), validate_args=False).log_prob(mod.tensor(1))
        D.Distribution.set_default_validate_args(False)
        try:
            u = D.Uniform(2.0, 1.0)
        finally:
            D.Distribution.set_default_validate_args(True)
        return d.scale, lp, u.low, repr(D.constraints.positive), repr(D.constraints.real_vector), \
            repr(D.constraints.integer_interval(0, 3)), repr(D.constraints.interval(0.0, 1.0))
    same(prog)


def test_reinforce_step_matches():
    """One REINFORCE update (pytorch/examples) end to end: the sampled actions, the loss and
    the parameter gradients."""
    def prog(mod):
        mod.manual_seed(543)
        net = mod.nn.Sequential(mod.nn.Linear(4, 16), mod.nn.ReLU(), mod.nn.Linear(16, 3))
        logps, actions = [], []
        for _ in range(6):
            probs = mod.nn.functional.softmax(net(mod.randn(1, 4)), dim=1)
            m = mod.distributions.Categorical(probs)
            a = m.sample()
            actions.append(a.item())
            logps.append(m.log_prob(a))
        loss = -mod.cat(logps).mul(mod.linspace(1.0, 0.5, 6)).sum()
        loss.backward()
        return actions, loss, [p.grad for p in net.parameters()]
    same(prog, rtol=1e-4, atol=1e-6)


def test_bregman_entropy_and_kl():
    """ExponentialFamily's generic entropy and same-family KL (through autograd of the
    log-normalizer) agree with PyTorch's and with the closed forms."""
    def prog(mod):
        D = mod.distributions
        n = D.Normal(mod.tensor([0.5, -1.0]), mod.tensor([1.0, 2.0]))
        m = D.Normal(mod.tensor([0.0, 1.0]), mod.tensor([0.5, 1.5]))
        b, c = D.Bernoulli(mod.tensor([0.3, 0.8])), D.Bernoulli(mod.tensor([0.6, 0.5]))
        return (D.ExponentialFamily.entropy(n).detach(), n.entropy(),
                D.ExponentialFamily.entropy(b).detach(), b.entropy(),
                D.kl._kl_expfamily_expfamily(n, m).detach(), D.kl_divergence(n, m),
                D.kl._kl_expfamily_expfamily(b, c).detach(), D.kl_divergence(b, c))
    r = same(prog, rtol=1e-5, atol=1e-6)
    for generic, closed in zip(r[::2], r[1::2]):
        assert (generic - closed).abs().max().item() < 1e-5


@pytest.mark.parametrize("module", [
    "autograd_core.distributions", "autograd_core.distributions.constraints",
    "autograd_core.distributions.distribution", "autograd_core.distributions.exp_family",
    "autograd_core.distributions.normal", "autograd_core.distributions.uniform",
    "autograd_core.distributions.bernoulli", "autograd_core.distributions.categorical",
    "autograd_core.distributions.one_hot_categorical", "autograd_core.distributions.independent",
    "autograd_core.distributions.multivariate_normal", "autograd_core.distributions.kl",
    "autograd_core.distributions.exponential", "autograd_core.distributions.laplace",
    "autograd_core.distributions.poisson", "autograd_core.distributions.gamma",
    "autograd_core.distributions.chi2", "autograd_core.distributions.beta",
    "autograd_core.distributions.dirichlet", "autograd_core.distributions.studentT",
    "autograd_core.distributions.transforms", "autograd_core.distributions.transformed_distribution",
    "autograd_core.distributions.log_normal", "autograd_core.distributions.half_normal",
    "autograd_core.distributions.gumbel", "autograd_core.distributions.cauchy",
    "autograd_core.distributions.geometric", "autograd_core.distributions.binomial",
    "autograd_core.distributions.weibull", "autograd_core.distributions.pareto",
    "autograd_core.distributions.logistic_normal", "autograd_core.distributions.relaxed_bernoulli",
    "autograd_core.distributions.half_cauchy", "autograd_core.distributions.inverse_gamma",
    "autograd_core.distributions.kumaraswamy", "autograd_core.distributions.fishersnedecor",
    "autograd_core.distributions.negative_binomial", "autograd_core.distributions.multinomial",
    "autograd_core.distributions.relaxed_categorical",
    "autograd_core.distributions.mixture_same_family",
    "autograd_core.distributions.constraint_registry",
    "autograd_core.distributions.continuous_bernoulli",
    "autograd_core.distributions.von_mises",
    "autograd_core.distributions.generalized_pareto",
    "autograd_core.distributions.lowrank_multivariate_normal",
    "autograd_core.nn.parallel",
])
def test_docstring_examples_run(module):
    import doctest
    import importlib
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0 or module.endswith(("distribution", "utils"))


# ---------------------------------------------------------------- transforms

TRANSFORMS = {
    "exp": lambda mod: mod.distributions.transforms.ExpTransform(),
    "affine": lambda mod: mod.distributions.transforms.AffineTransform(
        mod.tensor([1.0, -2.0, 0.5]), mod.tensor([2.0, -0.5, 3.0])),
    "affine_scalar": lambda mod: mod.distributions.transforms.AffineTransform(0.5, -2.0),
    "affine_event": lambda mod: mod.distributions.transforms.AffineTransform(
        0.5, mod.tensor([2.0, -0.5, 3.0]), event_dim=1),
    "sigmoid": lambda mod: mod.distributions.transforms.SigmoidTransform(),
    "tanh": lambda mod: mod.distributions.transforms.TanhTransform(),
    "softplus": lambda mod: mod.distributions.transforms.SoftplusTransform(),
    "power": lambda mod: mod.distributions.transforms.PowerTransform(mod.tensor([2.0, 0.5, -1.0])),
    "stick": lambda mod: mod.distributions.transforms.StickBreakingTransform(),
    "softmax": lambda mod: mod.distributions.transforms.SoftmaxTransform(),
    "abs": lambda mod: mod.distributions.transforms.AbsTransform(),
    "compose": lambda mod: mod.distributions.transforms.ComposeTransform([
        mod.distributions.transforms.AffineTransform(0.3, 2.0),
        mod.distributions.transforms.ExpTransform()]),
    "compose_inv": lambda mod: mod.distributions.transforms.ComposeTransform([
        mod.distributions.transforms.SigmoidTransform(),
        mod.distributions.transforms.ExpTransform().inv]).inv,
    "independent": lambda mod: mod.distributions.transforms.IndependentTransform(
        mod.distributions.transforms.ExpTransform(), 1),
    "reshape": lambda mod: mod.distributions.transforms.ReshapeTransform((3,), (3, 1)),
}
POSITIVE_DOMAIN = {"power", "compose_inv"}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_transforms(name):
    """Forward, inverse, log|det J|, shapes, constraints, repr and gradients as PyTorch."""
    def prog(mod):
        t = TRANSFORMS[name](mod)
        if name in POSITIVE_DOMAIN:
            x = mod.tensor([[0.3, 1.5, 0.7], [2.0, 0.2, 0.9]], requires_grad=True)
        else:
            x = mod.tensor([[0.3, -1.5, 0.7], [2.0, 0.2, -0.9]], requires_grad=True)
        y = t(x)
        out = {"y": y, "x_back": t.inv(y), "repr": repr(t), "inv_repr": repr(t.inv),
               "bijective": t.bijective, "domain": repr(t.domain), "codomain": repr(t.codomain),
               "fwd_shape": t.forward_shape(mod.Size([2, 3])),
               "inv_shape": t.inv.inverse_shape(mod.Size([2, 3]))}
        try:
            out["sign"] = t.sign
        except NotImplementedError:
            out["sign"] = "NotImplementedError"
        try:
            ladj = t.log_abs_det_jacobian(x, y)
            out["ladj"] = ladj
            out["inv_ladj"] = t.inv.log_abs_det_jacobian(y, x)
            loss = y.sum() * 0.5 + ladj.sum()
        except NotImplementedError:
            out["ladj"] = "NotImplementedError"
            loss = y.sum() * 0.5
        out["grad"] = mod.autograd.grad(loss, x)
        out["inv_is_cached"] = t.inv.inv is t
        return out
    same(prog, rtol=1e-5, atol=1e-6)


def test_transform_cache_and_equality():
    def prog(mod):
        T = mod.distributions.transforms
        t = T.ExpTransform(cache_size=1)
        x = mod.tensor([0.5, 1.0])
        y = t(x)
        return (t.inv(y) is x, t(x) is y, T.ExpTransform() == T.ExpTransform(),
                T.ExpTransform().inv == T.ExpTransform().inv,
                T.AffineTransform(1.0, 2.0) == T.AffineTransform(1.0, 2.0),
                T.AffineTransform(1.0, 2.0) == T.AffineTransform(1.0, 3.0),
                T.ComposeTransform([T.ExpTransform()]) == T.ComposeTransform([T.ExpTransform()]),
                T.identity_transform(x), repr(T.identity_transform),
                T.ExpTransform().with_cache(1)._cache_size, T.AffineTransform(0.0, 1.0).sign,
                T.ComposeTransform([T.AffineTransform(0.0, -1.0), T.ExpTransform()]).sign)
    same(prog)


def test_transformed_distribution_cdf_icdf_and_expand():
    def prog(mod):
        D, T = mod.distributions, mod.distributions.transforms
        base = D.Normal(mod.tensor([0.0, 1.0]), mod.tensor([1.0, 0.5]))
        up = D.TransformedDistribution(base, [T.AffineTransform(1.0, 2.0), T.ExpTransform()])
        down = D.TransformedDistribution(base, T.AffineTransform(0.0, -1.0))
        v = mod.tensor([2.0, 3.0])
        e = up.expand((3, 2))
        mod.manual_seed(2)
        return (up.cdf(v), up.icdf(mod.tensor([0.2, 0.7])), down.cdf(mod.tensor([-0.5, 0.5])),
                down.icdf(mod.tensor([0.2, 0.7])), e.batch_shape, e.log_prob(v), e.sample(),
                repr(up.support), up.has_rsample, D.LogNormal(0.0, 1.0).cdf(mod.tensor(2.0)),
                D.HalfNormal(1.0).cdf(mod.tensor(0.5)), D.HalfNormal(1.0).icdf(mod.tensor(0.5)),
                D.Gamma(mod.tensor([2.0]), mod.tensor([3.0])).cdf(mod.tensor([0.5])),
                D.Cauchy(0.0, 2.0).icdf(mod.tensor(0.9)))
    same(prog)


@pytest.mark.parametrize("alpha", [0.3, 1.0, 2.5, 7.0, 12.0, 40.0])
def test_standard_gamma_grad_is_the_implicit_derivative(alpha):
    """_standard_gamma_grad(alpha, x) approximates -(d/dalpha P(alpha, x)) / pdf(x; alpha)
    (P the regularised lower incomplete gamma): checked by finite differences of igamma
    at points across each of PyTorch's approximation regions."""
    import autograd_core as ag
    for q in (0.05, 0.3, 0.5, 0.7, 0.95):
        x = max(1e-3, alpha * (0.2 + 1.6 * q))
        h = 1e-6 * alpha
        a = ag.tensor([alpha - h, alpha + h], dtype=ag.float64)
        cdf = ag.igamma(a, ag.tensor([x, x], dtype=ag.float64))
        d_cdf = (cdf[1] - cdf[0]).item() / (2 * h)
        pdf = math.exp((alpha - 1) * math.log(x) - x - math.lgamma(alpha))
        want = -d_cdf / pdf
        got = ag._standard_gamma_grad(ag.tensor([alpha], dtype=ag.float64),
                                      ag.tensor([x], dtype=ag.float64)).item()
        assert abs(got - want) <= 2e-3 * max(1.0, abs(want)), (alpha, x, got, want)


# ---------------------------------------------------------------- the gamma ops

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_op_and_gradient(dtype):
    def prog(mod):
        a = mod.tensor([[0.05, 0.7, 1.0], [2.5, 9.0, 40.0]], dtype=getattr(mod, dtype),
                       requires_grad=True)
        mod.manual_seed(1)
        s = mod._standard_gamma(a)
        g, = mod.autograd.grad((s * mod.tensor([1.0, -2.0, 0.5], dtype=a.dtype)).sum(), a)
        x = s.detach()
        return (s, type(s.grad_fn).__name__, g, mod._standard_gamma_grad(a.detach(), x),
                type(mod._standard_gamma_grad(a, x).grad_fn).__name__,
                mod._standard_gamma(mod.empty(0, dtype=a.dtype)),
                mod._dirichlet_grad(mod.tensor([0.01, 0.3, 0.6, 0.999], dtype=a.dtype),
                                    mod.tensor([0.5, 2.0, 8.0, 3.0], dtype=a.dtype),
                                    mod.tensor([2.0, 5.0, 17.0, 3.5], dtype=a.dtype)))
    same(prog)


@pytest.mark.parametrize("fn", [
    lambda mod: mod._standard_gamma(mod.tensor([1, 2])),
    lambda mod: mod._standard_gamma(mod.tensor([1.0, 2.0], dtype=mod.float16)),
    lambda mod: mod._standard_gamma([1.0]),
    lambda mod: mod._sample_dirichlet(mod.tensor([1, 2])),
    lambda mod: mod._sample_dirichlet(mod.tensor([1.0, 2.0], dtype=mod.float16)),
    lambda mod: mod._standard_gamma_grad(mod.tensor([1, 2]), mod.tensor([1, 2])),
    lambda mod: mod._standard_gamma_grad(mod.tensor([1.0, 2.0]), mod.tensor([1.0, 2.0, 3.0])),
    lambda mod: mod._standard_gamma_grad(mod.tensor([1.0, 2.0]), mod.tensor([1.0, 2.0]).double()),
    lambda mod: mod._dirichlet_grad(mod.tensor([0.5]), mod.tensor([1.0]).double(), mod.tensor([2.0])),
    lambda mod: mod._dirichlet_grad(mod.tensor([0.5, 0.5]), mod.tensor([1.0, 2.0, 3.0]), mod.tensor([2.0])),
    # the samplers' own derivatives are not implemented, as in PyTorch
    lambda mod: mod._sample_dirichlet(mod.tensor([1.0, 2.0], requires_grad=True)).sum().backward(),
    lambda mod: mod._standard_gamma_grad(mod.tensor([1.0, 2.0], requires_grad=True),
                                         mod.tensor([1.0, 2.0])).sum().backward(),
    lambda mod: mod._dirichlet_grad(mod.tensor([0.5]), mod.tensor([1.0], requires_grad=True),
                                    mod.tensor([2.0])).sum().backward(),
])
def test_gamma_op_errors(fn):
    same_error(fn)


def test_dirichlet_and_beta_rsample_gradients():
    """Dirichlet's custom Function (PyTorch's _Dirichlet): _dirichlet_grad projected onto
    the simplex; Beta through it; a Gamma-built StudentT."""
    def prog(mod):
        D = mod.distributions
        c = mod.tensor([[0.3, 1.0, 4.0, 9.0], [7.0, 8.0, 0.6, 2.0]], requires_grad=True)
        a = mod.tensor([0.5, 7.0, 3.0], dtype=mod.float64, requires_grad=True)
        b = mod.tensor([2.0, 9.0, 0.4], dtype=mod.float64, requires_grad=True)
        mod.manual_seed(8)
        x = D.Dirichlet(c).rsample((2,))
        y = D.Beta(a, b).rsample((3,))
        w = mod.arange(1.0, 5.0)
        return (x, type(x.grad_fn).__name__, mod.autograd.grad((x * w).sum(), c),
                y, mod.autograd.grad((y * y).sum(), (a, b)))
    same(prog, rtol=1e-5, atol=1e-6)



CONSTRAINTS = {
    "real": lambda C: C.real, "positive": lambda C: C.positive,
    "nonnegative": lambda C: C.nonnegative, "greater_than": lambda C: C.greater_than(-1.5),
    "greater_than_eq": lambda C: C.greater_than_eq(2.0), "less_than": lambda C: C.less_than(3.0),
    "unit_interval": lambda C: C.unit_interval, "interval": lambda C: C.interval(-2.0, 5.0),
    "half_open_interval": lambda C: C.half_open_interval(0.0, 1.0),
    "simplex": lambda C: C.simplex, "real_vector": lambda C: C.real_vector,
    "independent_positive": lambda C: C.independent(C.positive, 1),
}


def test_lower_cholesky_and_positive_definite_transforms():
    def prog(mod):
        D = mod.distributions
        x = mod.tensor([[[0.3, -1.2], [2.0, 0.5]], [[0.0, 0.7], [-0.4, -1.0]]], requires_grad=True)
        lc = D.transform_to(D.constraints.lower_cholesky)
        pd = D.transform_to(D.constraints.positive_definite)
        y, z = lc(x), pd(x)
        return (repr(lc), repr(pd), y, lc.inv(y), z, pd.inv(z),
                D.constraints.lower_cholesky.check(y), D.constraints.positive_definite.check(z),
                mod.autograd.grad((y.sum() + z.sum()), x))
    same(prog, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(CONSTRAINTS))
def test_biject_to_and_transform_to(name):
    """The registries' transforms land in the constraint, invert, and have PyTorch's
    values and log-Jacobians."""
    def prog(mod):
        D = mod.distributions
        c = CONSTRAINTS[name](D.constraints)
        x = mod.tensor([[0.3, -1.2, 2.0], [0.0, 0.7, -0.4]], requires_grad=True)
        out = []
        for registry in (D.biject_to, D.transform_to):
            t = registry(c)
            y = t(x)
            out.append((repr(t), y, c.check(y), t.inv(y)))
            if registry is D.biject_to:
                ladj = t.log_abs_det_jacobian(x, y)
                out.append((ladj, mod.autograd.grad(ladj.sum() + y.sum(), x)))
        return out
    same(prog, rtol=1e-5, atol=1e-6)


def test_mixture_and_multinomial_samples():
    def prog(mod):
        D = mod.distributions
        gmm = D.MixtureSameFamily(D.Categorical(mod.tensor([[0.3, 0.7], [0.5, 0.5]])),
                                  D.Normal(mod.tensor([[-1.0, 2.0], [0.0, 5.0]]), 1.0))
        m = D.Multinomial(7, logits=mod.tensor([[0.0, 1.0, -1.0], [2.0, 0.0, 0.0]]))
        nb = D.NegativeBinomial(mod.tensor([2.0, 30.0]), mod.tensor([0.3, 0.8]))
        mod.manual_seed(13)
        return (gmm.sample((4,)), gmm.mean, gmm.variance, gmm.cdf(mod.tensor([0.0, 1.0])),
                repr(gmm), repr(gmm.support), gmm.expand((3, 2)).log_prob(mod.tensor(0.5)),
                m.sample((2,)), m.entropy(), m.mean, m.variance, nb.sample((3,)),
                nb.mean, nb.variance, nb.mode, repr(m.support))
    same(prog)


def test_lowrank_mvn_matrices_match_multivariate_normal():
    def prog(mod):
        D = mod.distributions
        W = mod.tensor([[1.0, 0.2], [0.5, -1.0], [0.0, 0.3]], requires_grad=True)
        d = mod.tensor([1.0, 2.0, 0.5], requires_grad=True)
        lr = D.LowRankMultivariateNormal(mod.zeros(3), W, d)
        full = D.MultivariateNormal(mod.zeros(3), covariance_matrix=lr.covariance_matrix)
        v = mod.tensor([0.3, -1.0, 0.2])
        return (lr.covariance_matrix, lr.precision_matrix, lr.scale_tril, lr.variance,
                lr.log_prob(v), full.log_prob(v), lr.entropy(), lr.expand((2,)).log_prob(v),
                mod.autograd.grad(lr.log_prob(v) + lr.entropy() + lr.precision_matrix.sum(), (W, d)))
    same(prog, rtol=1e-5, atol=1e-5)
