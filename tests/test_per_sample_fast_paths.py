"""The per-call fast paths of vmap(grad(f)) (per-sample gradients), each compared with
PyTorch's torch.func on the same program and, where a generic path exists beside it,
with that path: the per-sample cross_entropy/nll_loss rule with one row per sample
(no division unless a target is ignored), the shared-weight linear's backward (one row
and several rows per sample, batched, unbatched and no bias, float32 and float64),
grad handing its gradients straight to the engine, the Tensor methods BatchedTensor
installs on first use, functional_call without its context manager (the module is
restored after an error), and in_dims spellings."""
import pytest

from _diff import data, same

torch = pytest.importorskip("torch")


def _tol(dtype):
    return dict(rtol=1e-4, atol=1e-6) if dtype == "float32" else {}


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("loss", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("ignore", [None, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_one_row_class_loss(reduction, loss, ignore, dtype):
    # targets with and without the ignored class: the mean divides only when one is hit
    def prog(m):
        o = data(m, 5, 4, seed=3, dtype=dtype)
        t = m.tensor([1, 2, 3, 0, 2])
        F = m.nn.functional
        kw = {} if ignore is None else {"ignore_index": ignore}

        def f(o, t):
            inp = o.unsqueeze(0)
            if loss == "nll_loss":
                inp = F.log_softmax(inp, dim=1)
            r = getattr(F, loss)(inp, t.unsqueeze(0), reduction=reduction, **kw)
            return r.sum()
        return m.func.vmap(f)(o, t), m.func.vmap(m.func.grad(f))(o, t)
    same(prog, **_tol(dtype))


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_several_rows_class_loss(reduction):
    # (the path beside the one-row one: sums over each sample's rows)
    def prog(m):
        o = data(m, 3, 2, 4, seed=4)
        t = m.tensor([[1, -100], [-100, -100], [3, 0]])
        F = m.nn.functional

        def f(o, t):
            return F.cross_entropy(o, t, reduction=reduction)
        return m.func.vmap(f)(o, t), m.func.vmap(m.func.grad(f))(o, t)
    same(prog)


@pytest.mark.parametrize("bias", ["batched", "unbatched", "none"])
@pytest.mark.parametrize("rows", [1, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_shared_weight_linear_backward(bias, rows, dtype):
    # w and (for "batched") b are grad's per-sample copies; "unbatched" closes over b
    def prog(m):
        w = data(m, 4, 5, seed=5, dtype=dtype)
        b = data(m, 4, seed=6, dtype=dtype)
        x = data(m, 6, rows, 5, seed=7, dtype=dtype)
        F = m.nn.functional

        def f(w, b, x):
            bb = b if bias == "batched" else (b.detach() if bias == "unbatched" else None)
            return F.linear(x, w, bb).tanh().sum()
        return m.func.vmap(m.func.grad(f, argnums=(0, 1, 2)), in_dims=(None, None, 0))(w, b, x)
    same(prog, **_tol(dtype))


def test_shared_weight_linear_against_generic_path():
    # the fast path (weight expanded along the batch) against the generic one (a weight
    # vmapped for real: each sample's own copy of the same values)
    import autograd_core as ag
    ag.manual_seed(0)
    w, b, x = ag.randn(3, 4, dtype=ag.float64), ag.randn(3, dtype=ag.float64), \
        ag.randn(5, 4, dtype=ag.float64)
    F = ag.nn.functional

    def f(w, b, x):
        return F.linear(x.unsqueeze(0), w, b).relu().pow(2).sum()
    fast = ag.func.vmap(ag.func.grad(f, argnums=(0, 1)), in_dims=(None, None, 0))(w, b, x)
    ws, bs = w.expand(5, 3, 4).clone(), b.expand(5, 3).clone()
    generic = ag.func.vmap(ag.func.grad(f, argnums=(0, 1)), in_dims=(0, 0, 0))(ws, bs, x)
    for a, c in zip(fast, generic):
        assert a.shape == c.shape
        assert ag.allclose(a, c, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("in_dims", ["tuple", "x_dim1", "int_params_mapped"])
def test_in_dims_spellings(in_dims):
    def prog(m):
        m.manual_seed(0)
        net = m.nn.Sequential(m.nn.Linear(3, 4), m.nn.ReLU(), m.nn.Linear(4, 2))
        params = {k: v.detach() for k, v in net.named_parameters()}
        x, t = data(m, 6, 3, seed=8, dtype="float32"), m.tensor([0, 1, 1, 0, 1, 0])
        F = m.nn.functional

        def loss(p, xb, tb):
            out = m.func.functional_call(net, p, (xb.unsqueeze(0),))
            return F.cross_entropy(out, tb.unsqueeze(0))
        g = m.func.grad(loss)
        if in_dims == "tuple":
            return m.func.vmap(g, in_dims=(None, 0, 0))(params, x, t)
        if in_dims == "x_dim1":
            return m.func.vmap(g, in_dims=(None, 1, 0))(params, x.t().contiguous(), t)
        stacked = {k: v.unsqueeze(0).expand(6, *v.shape).contiguous() for k, v in params.items()}
        return m.func.vmap(g)(stacked, x, t)
    same(prog, **_tol("float32"))


def test_grad_and_value_keeps_the_value_and_has_aux():
    # grad drops its value unused; grad_and_value and has_aux still return theirs
    def prog(m):
        x = data(m, 4, 3, seed=9)

        def f(x):
            y = (x.sin() * 2).sum()
            return y, y.detach() + 1

        gv = m.func.vmap(m.func.grad_and_value(f, has_aux=True))(x)
        ga = m.func.vmap(m.func.grad(f, has_aux=True))(x)
        g = m.func.vmap(m.func.grad(lambda x: f(x)[0]))(x)
        v = m.func.vmap(m.func.grad_and_value(lambda x: f(x)[0]))(x)
        return gv, ga, g, v
    same(prog)


def test_batched_tensor_methods_installed_on_first_use():
    import autograd_core as ag
    from autograd_core.func import _vmap
    x = ag.arange(6.).reshape(2, 3)
    first = ag.func.vmap(lambda r: r.flip(0).cumsum(0))(x)
    assert "cumsum" in vars(_vmap.BatchedTensor)        # a class attribute now
    again = ag.func.vmap(lambda r: r.flip(0).cumsum(0))(x)
    assert first.tolist() == again.tolist() == [[2., 3., 3.], [5., 9., 12.]]
    # a property stays a property (not installed as a method)
    assert ag.func.vmap(lambda r: r.T)(x).tolist() == x.tolist()
    assert "T" not in vars(_vmap.BatchedTensor)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ag.func.vmap(lambda r: r.nope)(x)


def test_functional_call_restores_the_module_after_an_error():
    import autograd_core as ag

    class Boom(ag.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = ag.nn.Linear(2, 2)

        def forward(self, x):
            raise ValueError("boom")
    net = Boom()
    before = {k: v for k, v in net.named_parameters()}
    new = {"lin.weight": ag.zeros(2, 2), "lin.bias": ag.zeros(2)}
    with pytest.raises(ValueError, match="boom"):
        ag.func.functional_call(net, new, (ag.ones(2),))
    assert all(net.get_parameter(k) is v for k, v in before.items())
    # a name that cannot be placed: the names placed before it are put back
    with pytest.raises(AttributeError):
        ag.func.functional_call(net, {"lin.weight": ag.zeros(2, 2), "nosuch.sub.x": ag.zeros(1)},
                                (ag.ones(2),))
    assert all(net.get_parameter(k) is v for k, v in before.items())


def test_per_sample_grads_leave_no_reference_cycle():
    # tree_unflatten once built with a recursive closure: a cycle that kept the leaves
    # (and the per-sample gradients' arrays) alive until a garbage collection, so the
    # buffer cache could not reuse them (fresh pages on every call)
    import gc
    import weakref
    import autograd_core as ag
    from autograd_core.utils._pytree import tree_flatten, tree_unflatten

    leaf = ag.ones(3)
    ref = weakref.ref(leaf)
    gc.disable()
    try:
        out = tree_unflatten([leaf, 2], tree_flatten({"a": [0, (1,)]})[1])
        assert out == {"a": [leaf, (2,)]}
        del out, leaf
        assert ref() is None                 # freed by refcount, no collection needed
        net = ag.nn.Linear(3, 2)
        params = {k: v.detach() for k, v in net.named_parameters()}

        def loss(p, x):
            return ag.func.functional_call(net, p, (x.unsqueeze(0),)).sum()
        gc.collect()
        ag.func.vmap(ag.func.grad(loss), in_dims=(None, 0))(params, ag.ones(4, 3))
        assert gc.collect() == 0             # nothing was left for the collector
    finally:
        gc.enable()
