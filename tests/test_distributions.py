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
}
CONTINUOUS = {"normal", "normal_scalar", "normal_f64", "uniform", "mvn_cov", "mvn_tril",
              "mvn_precision", "independent", "exponential", "laplace"}


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


@pytest.mark.parametrize("name", ["bernoulli_probs", "bernoulli_logits", "categorical_probs",
                                  "categorical_logits", "onehot", "poisson"])
def test_gradients_through_log_prob_and_entropy(name):
    def prog(mod):
        make, params, value = CASES[name]
        ps = params(mod)
        d = make(mod, ps)
        loss = d.log_prob(value(mod)).sum() * 0.7
        if name != "poisson":  # PyTorch's Poisson has no entropy
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
    "autograd_core.distributions.poisson",
    "autograd_core.nn.parallel",
])
def test_docstring_examples_run(module):
    import doctest
    import importlib
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0 or module.endswith(("distribution", "utils"))
