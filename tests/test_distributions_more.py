"""LKJCholesky, Wishart and the transforms CatTransform, StackTransform,
CorrCholeskyTransform and CumulativeDistributionTransform (with the constraints cat,
stack, corr_cholesky, positive_semidefinite) against PyTorch: same samples for the same
seed, log_prob, moments, entropy, expand, supports, validation errors and gradients."""
import pytest

from _diff import catch, data, no_warnings, same, same_error, warns


def _t(mod, x, grad=False, dtype="float64"):
    return mod.tensor(x, dtype=getattr(mod, dtype), requires_grad=grad)


_SPD = [[2.0, 0.3, -0.2], [0.3, 1.0, 0.1], [-0.2, 0.1, 0.7]]
_TRIL = [[1.2, 0.0, 0.0], [0.4, 0.8, 0.0], [-0.3, 0.5, 0.6]]

# name -> constructor(mod); every parameter a float64 leaf requiring grad
WISHART = {
    "cov": lambda mod: mod.distributions.Wishart(_t(mod, 4.5, True),
                                                 covariance_matrix=_t(mod, _SPD, True)),
    "tril_batch_df": lambda mod: mod.distributions.Wishart(
        _t(mod, [3.0, 5.5], True), scale_tril=_t(mod, _TRIL, True)),
    "precision": lambda mod: mod.distributions.Wishart(
        _t(mod, [6.0, 3.5], True),
        precision_matrix=_t(mod, [_SPD, [[1.0, 0.0, 0.0], [0.0, 2.0, 0.5],
                                         [0.0, 0.5, 1.0]]], True)),
    "number_df": lambda mod: mod.distributions.Wishart(6.0, precision_matrix=_t(mod, _SPD)),
    "float32": lambda mod: mod.distributions.Wishart(
        _t(mod, [2.5], True, "float32"), covariance_matrix=_t(mod, _SPD[:2], False,
                                                              "float32")[:, :2]),
}
LKJ = {
    "dim2": lambda mod: mod.distributions.LKJCholesky(2, _t(mod, 0.7, True)),
    "dim4_batch": lambda mod: mod.distributions.LKJCholesky(4, _t(mod, [0.5, 1.0, 3.0], True)),
    "dim3_scalar": lambda mod: mod.distributions.LKJCholesky(3),
    "float32": lambda mod: mod.distributions.LKJCholesky(5, _t(mod, [2.0], True, "float32")),
}


def _describe(d, value):
    out = {"batch": d.batch_shape, "event": d.event_shape, "repr": repr(d),
           "support": repr(d.support), "has_rsample": d.has_rsample,
           "arg_constraints": {k: repr(v) for k, v in d.arg_constraints.items()}}
    for attr in ("mean", "variance", "mode"):
        try:
            out[attr] = getattr(d, attr)
        except NotImplementedError:
            out[attr] = "NotImplementedError"
    try:
        out["entropy"] = d.entropy()
    except NotImplementedError:
        out["entropy"] = "NotImplementedError"
    out["log_prob"] = d.log_prob(value)
    e = d.expand((2,) + tuple(d.batch_shape))
    out["expand"] = (e.batch_shape, e.event_shape, e.log_prob(value[0]))
    return out


@pytest.mark.parametrize("name", sorted(WISHART))
def test_wishart(name):
    def prog(mod):
        d = WISHART[name](mod)
        mod.manual_seed(11)
        s, w = warns(d.sample, (3,))
        after = mod.rand(2)          # the generator moved on as far as PyTorch's
        mod.manual_seed(5)
        e = d.expand((2,) + tuple(d.batch_shape))
        es = warns(e.sample)[0]
        out = _describe(d, s.detach())
        out.update(sample=s, warnings=w, after=after, expanded_sample=es,
                   precision=d.precision_matrix, cov=d.covariance_matrix, tril=d.scale_tril)
        return out
    same(prog, rtol=1e-4, atol=1e-6)


def _wishart_leaves(mod, kind):
    df = _t(mod, 4.5, True)
    m = _t(mod, _TRIL if kind == "scale_tril" else _SPD, True)
    return df, m, mod.distributions.Wishart(df, **{kind: m})


@pytest.mark.parametrize("kind", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_wishart_gradients(kind):
    def prog(mod):
        df, m, d = _wishart_leaves(mod, kind)
        mod.manual_seed(3)
        with no_warnings():
            x = d.rsample()
        loss = (x.sum() + d.log_prob(x.detach() + mod.eye(3, dtype=mod.float64)).sum()
                + d.entropy().sum() + d.mean.sum() + d.variance.sum())
        return x, mod.autograd.grad(loss, (df, m))
    same(prog, rtol=1e-4, atol=1e-6)


@pytest.mark.xfail(strict=True, reason=(
    "PyTorch 2.13's Wishart.rsample writes its redraws through a boolean mask and then "
    "edits the mask in place, and PyTorch's index_put saves its index tensors with their "
    "versions, so backward raises; here a saved index is not version-checked (an engine "
    "gap of tensor indexing, not of Wishart), so backward succeeds"))
def test_wishart_rsample_batched_backward_raises_as_pytorch():
    def prog(mod):
        df, m, d = _wishart_leaves(mod, "scale_tril")
        mod.manual_seed(3)
        with no_warnings():
            x = d.rsample((2,))
        x.sum().backward()
    same_error(prog)


def test_wishart_errors_and_warnings():
    eye = lambda mod: mod.eye(2, dtype=mod.float64)  # noqa: E731
    same_error(lambda mod: mod.distributions.Wishart(3.0))
    same_error(lambda mod: mod.distributions.Wishart(3.0, covariance_matrix=eye(mod),
                                                     scale_tril=eye(mod)))
    same_error(lambda mod: mod.distributions.Wishart(3.0, covariance_matrix=mod.ones(2)))
    same_error(lambda mod: mod.distributions.Wishart(0.5, covariance_matrix=eye(mod)))
    same_error(lambda mod: mod.distributions.Wishart(
        3.0, covariance_matrix=mod.tensor([[1.0, 2.0], [2.0, 1.0]]), validate_args=True))
    same_error(lambda mod: mod.distributions.Wishart(
        3.0, covariance_matrix=eye(mod), validate_args=True).log_prob(-eye(mod)))
    # a number df with a batch of matrices: PyTorch's df is not expanded, its mean fails
    same_error(lambda mod: mod.distributions.Wishart(
        3.0, covariance_matrix=mod.eye(2).expand(2, 2, 2)).mean)

    def low_df(mod):
        d, w = warns(mod.distributions.Wishart, mod.tensor([1.5]),
                     covariance_matrix=eye(mod))
        return w, d.batch_shape
    same(low_df)


@pytest.mark.parametrize("name", sorted(LKJ))
def test_lkj_cholesky(name):
    def prog(mod):
        d = LKJ[name](mod)
        mod.manual_seed(2)
        s = d.sample((4,))
        after = mod.rand(2)
        mod.manual_seed(9)
        es = d.expand((3,) + tuple(d.batch_shape)).sample()
        out = _describe(d, s)
        out.update(sample=s, after=after, expanded_sample=es,
                   in_support=d.support.check(s),
                   rsample=_catch_name(lambda: d.rsample()))
        c = d.concentration
        if c.requires_grad:
            out["grad"] = mod.autograd.grad(d.log_prob(s).sum(), c)
        return out
    same(prog, rtol=1e-4, atol=1e-6)


def _catch_name(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return None


def test_lkj_cholesky_errors():
    same_error(lambda mod: mod.distributions.LKJCholesky(1, 1.0))
    same_error(lambda mod: mod.distributions.LKJCholesky(3, mod.tensor(-1.0),
                                                        validate_args=True))
    same_error(lambda mod: mod.distributions.LKJCholesky(3, 1.0, validate_args=True)
               .log_prob(mod.eye(3) * 2))
    same_error(lambda mod: mod.distributions.LKJCholesky(2, 1.0, validate_args=True)
               .log_prob(mod.tensor([[1.0, 0.0], [0.6, 0.8]]).t()))


# ---------------------------------------------------------------- transforms

def test_corr_cholesky_transform():
    def prog(mod):
        T = mod.distributions.transforms
        t = T.CorrCholeskyTransform()
        x = data(mod, 2, 6, seed=4, lo=-2.0, hi=2.0, requires_grad=True)
        y = t(x)
        ladj = t.log_abs_det_jacobian(x, y)
        xi = t.inv(y)
        g = mod.autograd.grad((y * data(mod, 2, 4, 4, seed=5)).sum() + ladj.sum(), x)
        c = mod.distributions.constraints
        return (y, ladj, xi, g, t.forward_shape((5, 6)), t.inverse_shape((4, 4)),
                c.corr_cholesky.check(y), c.corr_cholesky.check(y * 1.1),
                repr(t.domain), repr(t.codomain), t.bijective,
                catch(lambda: t.event_dim),
                repr(mod.distributions.biject_to(c.corr_cholesky)),
                repr(mod.distributions.transform_to(c.corr_cholesky)))
    same(prog, rtol=1e-6, atol=1e-8)

    same_error(lambda mod: mod.distributions.transforms.CorrCholeskyTransform()
               .forward_shape((5,)))
    same_error(lambda mod: mod.distributions.transforms.CorrCholeskyTransform()
               .forward_shape(()))
    same_error(lambda mod: mod.distributions.transforms.CorrCholeskyTransform()
               .inverse_shape((3, 4)))
    same_error(lambda mod: mod.distributions.transforms.CorrCholeskyTransform()(
        mod.zeros(5)))


def test_lkj_with_corr_cholesky_transform():
    # a sample of LKJCholesky mapped back and forth through the transform
    def prog(mod):
        mod.manual_seed(0)
        d = mod.distributions.LKJCholesky(3, 2.0)
        s = d.sample((2,))
        t = mod.distributions.transforms.CorrCholeskyTransform()
        return t.inv(s), t(t.inv(s))
    same(prog, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dim, lengths", [(0, [2, 3]), (1, [1, 2]), (-1, [2, 1]),
                                          (0, None)])
def test_cat_transform(dim, lengths):
    def prog(mod):
        T = mod.distributions.transforms
        n = 2 if lengths is None else sum(lengths)
        shape = [n, 3] if dim == 0 else [4, n]
        x = data(mod, *shape, seed=1, requires_grad=True)
        t = T.CatTransform([T.ExpTransform(), T.AffineTransform(1.0, -2.0)], dim=dim,
                           lengths=lengths)
        y = t(x)
        ladj = t.log_abs_det_jacobian(x, y)
        g = mod.autograd.grad(y.sum() + ladj.sum(), x)
        tc = t.with_cache()
        yc = tc(x)
        return (y, t.inv(y), ladj, g, t.event_dim, t.bijective, t.length,
                repr(t.domain), repr(t.codomain), t.domain.event_dim,
                t.codomain.check(y), tc.inv(yc) is x, t.with_cache(0) is t)
    same(prog)


def test_cat_transform_event_dims():
    def prog(mod):
        T = mod.distributions.transforms
        t = T.CatTransform([T.StickBreakingTransform(), T.ExpTransform()], dim=-1,
                           lengths=[2, 3])
        x = data(mod, 4, 5, seed=2)
        y = mod.cat([T.StickBreakingTransform()(x[:, :2]), x[:, 2:].exp()], -1)
        # slices along the event dim sum into one log |det| per batch element
        t2 = T.CatTransform([T.IndependentTransform(T.ExpTransform(), 1),
                             T.IndependentTransform(T.AffineTransform(0.0, 3.0), 1)],
                            dim=0, lengths=[1, 3])
        return t.event_dim, t2.log_abs_det_jacobian(x, t2(x)), t2(x), y.shape
    same(prog)


def test_cat_stack_transform_errors():
    def t(mod, kind):
        T = mod.distributions.transforms
        if kind == "cat":
            return T.CatTransform([T.ExpTransform(), T.ExpTransform()], 0, [2, 2])
        return T.StackTransform([T.ExpTransform(), T.ExpTransform()], 1)
    for kind in ("cat", "stack"):
        same_error(lambda mod: t(mod, kind)(mod.zeros(3, 3)))
        same_error(lambda mod: t(mod, kind).inv(mod.zeros(5, 5)))
        same_error(lambda mod: t(mod, kind)(mod.zeros(3, 3)[0, 0]))
        same_error(lambda mod: t(mod, kind).log_abs_det_jacobian(mod.zeros(3, 3),
                                                                 mod.zeros(4, 2)))
    same_error(lambda mod: mod.distributions.transforms.CatTransform(
        [mod.distributions.transforms.ExpTransform()], 0, [1, 2]))
    same_error(lambda mod: mod.distributions.transforms.StackTransform([1]))
    same_error(lambda mod: mod.distributions.transforms.CatTransform([None]))
    same_error(lambda mod: mod.distributions.constraints.cat(
        [mod.distributions.constraints.real], 0, [1, 2]))
    same_error(lambda mod: mod.distributions.constraints.stack(
        [mod.distributions.constraints.real], 3).check(mod.zeros(2)))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_stack_transform(dim):
    def prog(mod):
        T = mod.distributions.transforms
        x = data(mod, 2, 2, seed=3, lo=0.1, hi=0.9, requires_grad=True)
        t = T.StackTransform([T.SigmoidTransform(), T.SigmoidTransform().inv], dim=dim)
        y = t(x)
        ladj = t.log_abs_det_jacobian(x, y)
        g = mod.autograd.grad(y.sum() + ladj.sum(), x)
        c = mod.distributions.constraints
        return (y, t.inv(y), ladj, g, t.bijective, repr(t.domain), repr(t.codomain),
                t.domain.event_dim, t.codomain.check(y), t.domain.check(x),
                repr(mod.distributions.biject_to(c.stack([c.positive, c.real], dim))),
                repr(mod.distributions.transform_to(c.cat([c.positive, c.unit_interval],
                                                          dim, [1, 1]))),
                mod.distributions.biject_to(c.stack([c.positive, c.real], dim))(x))
    same(prog)


def test_cumulative_distribution_transform():
    def prog(mod):
        D, T = mod.distributions, mod.distributions.transforms
        loc = _t(mod, [0.5, -1.0], True)
        t = T.CumulativeDistributionTransform(D.Normal(loc, 2.0))
        x = data(mod, 3, 2, seed=6, lo=-3, hi=3, requires_grad=True)
        y = t(x)
        ladj = t.log_abs_det_jacobian(x, y)
        g = mod.autograd.grad(y.sum() + ladj.sum() + t.inv(y).sum(), (x, loc))
        # a Gaussian copula: a multivariate normal's marginals through their cdfs
        base = D.MultivariateNormal(mod.zeros(2, dtype=mod.float64),
                                    scale_tril=_t(mod, [[1.0, 0.0], [0.6, 0.8]]))
        cop = D.TransformedDistribution(base, [T.CumulativeDistributionTransform(
            D.Normal(mod.tensor(0.0, dtype=mod.float64), 1.0))])
        mod.manual_seed(1)
        s = cop.sample((4,))
        tc = t.with_cache()
        yc = tc(x)
        e = T.CumulativeDistributionTransform(D.Exponential(mod.tensor(2.0)))
        return (y, ladj, t.inv(y), g, repr(t.domain), repr(t.codomain), t.sign,
                t.bijective, s, cop.log_prob(s), tc.inv(yc) is x, repr(e.domain),
                e(mod.tensor([0.5])), t.event_dim)
    same(prog)


def test_constraints_added():
    def prog(mod):
        c = mod.distributions.constraints
        m = mod.tensor([[[2.0, 1.0], [1.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]],
                        [[1.0, 0.0], [0.0, 0.0]]])
        cat = c.cat([c.positive, c.interval(0.0, 1.0)], dim=1, lengths=[1, 2])
        st = c.stack([c.positive, c.real, c.unit_interval], dim=0)
        v = mod.tensor([[1.0, 0.5, 2.0], [-1.0, 0.2, 0.3]])
        return (c.positive_semidefinite.check(m), c.positive_definite.check(m),
                c.square.check(m), cat.check(v), cat.event_dim, cat.is_discrete,
                st.check(mod.tensor([[1.0, 0.5], [-1.0, 0.5], [0.3, 0.7]])), st.event_dim,
                repr(c.positive_semidefinite), repr(c.corr_cholesky), repr(cat), repr(st),
                c.stack([c.real_vector], dim=-1).event_dim,
                c.stack([c.boolean], dim=-1).is_discrete,
                repr(mod.distributions.transform_to(c.positive_semidefinite)))
    same(prog)
