"""Per-sample gradients, vmap(grad(loss)) over a model's parameters, compared with
PyTorch's torch.func on the same program: the fast path for a linear layer with a shared
weight (func/_vmap.py, _SharedWeightLinear: the weight gradient as one outer product per
sample, the bias fused) and the paths around it: nets with and without bias, ReLU and
tanh, cross_entropy and mse losses, one and several rows per sample, float32 and
float64, vmapped parameters (a batched bias or weight), create_graph through the
per-sample gradients, and a convolutional net."""
import pytest

from _diff import data, same

torch = pytest.importorskip("torch")


def _mlp(m, sizes, bias, act):
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [m.nn.Linear(a, b, bias=bias), act(m)]
    return m.nn.Sequential(*layers[:-1])


_ACTS = {"relu": lambda m: m.nn.ReLU(), "tanh": lambda m: m.nn.Tanh()}


def _loss_fn(m, net, loss, rows):
    F = m.nn.functional

    def f(p, x, t):
        xb = x.unsqueeze(0) if rows == "unsqueeze" else x
        out = m.func.functional_call(net, p, (xb,))
        if loss == "cross_entropy":
            return F.cross_entropy(out, t.unsqueeze(0) if rows == "unsqueeze" else t)
        return F.mse_loss(out, t.unsqueeze(0) if rows == "unsqueeze" else t)
    return f


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("act", ["relu", "tanh"])
@pytest.mark.parametrize("loss", ["cross_entropy", "mse"])
@pytest.mark.parametrize("rows", ["unsqueeze", "several"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mlp_per_sample_grads(bias, act, loss, rows, dtype):
    def prog(m):
        m.manual_seed(0)
        net = _mlp(m, [5, 7, 6, 3], bias, _ACTS[act]).to(getattr(m, dtype))
        params = {k: v.detach() for k, v in net.named_parameters()}
        B = 4
        if rows == "unsqueeze":          # one row per sample (the usual per-sample loss)
            x = data(m, B, 5, seed=1, dtype=dtype)
            t = m.tensor([0, 2, 1, 2]) if loss == "cross_entropy" else \
                data(m, B, 3, seed=2, dtype=dtype)
        else:                            # two rows per sample
            x = data(m, B, 2, 5, seed=1, dtype=dtype)
            t = m.tensor([[0, 2], [1, 1], [2, 0], [1, 2]]) if loss == "cross_entropy" else \
                data(m, B, 2, 3, seed=2, dtype=dtype)
        f = _loss_fn(m, net, loss, rows)
        return m.func.vmap(m.func.grad(f), in_dims=(None, 0, 0))(params, x, t)
    tol = dict(rtol=1e-4, atol=1e-6) if dtype == "float32" else {}
    same(prog, **tol)


def test_one_dim_sample_and_grad_and_value():
    # the per-sample input is 1-D (linear of a vector), and grad_and_value's losses
    def prog(m):
        m.manual_seed(1)
        net = _mlp(m, [4, 5, 2], True, _ACTS["tanh"]).double()
        params = {k: v.detach() for k, v in net.named_parameters()}
        x, t = data(m, 3, 4, seed=3), data(m, 3, 2, seed=4)

        def f(p, x, t):
            return ((m.func.functional_call(net, p, (x,)) - t) ** 2).sum()
        return m.func.vmap(m.func.grad_and_value(f), in_dims=(None, 0, 0))(params, x, t)
    same(prog)


@pytest.mark.parametrize("batched", ["bias", "weight", "both"])
def test_vmapped_parameters(batched):
    # parameters vmapped themselves (an ensemble), the others shared
    def prog(m):
        m.manual_seed(2)
        net = m.nn.Linear(4, 3).double()
        x = data(m, 5, 4, seed=1)
        w, b = data(m, 3, 4, seed=2), data(m, 3, seed=3)
        ws = data(m, 5, 3, 4, seed=4) if batched in ("weight", "both") else w
        bs = data(m, 5, 3, seed=5) if batched in ("bias", "both") else b

        def f(w, b, x):
            return m.func.functional_call(net, {"weight": w, "bias": b},
                                          (x.unsqueeze(0),)).tanh().sum()
        dims = (0 if batched in ("weight", "both") else None,
                0 if batched in ("bias", "both") else None, 0)
        return m.func.vmap(m.func.grad(f, argnums=(0, 1)), in_dims=dims)(ws, bs, x)
    same(prog)


def test_unbatched_bias_given_outside_grad():
    # the bias is not differentiated: a plain tensor closed over by the function
    def prog(m):
        x, w, b = data(m, 5, 4, seed=1), data(m, 3, 4, seed=2), data(m, 3, seed=3)

        def f(w, x):
            return m.nn.functional.linear(x.unsqueeze(0), w, b).sin().sum()
        return m.func.vmap(m.func.grad(f), in_dims=(None, 0))(w, x)
    same(prog)


def test_create_graph_through_per_sample_grads():
    # the per-sample gradients differentiated again: jacrev over the shared weight of
    # vmap(grad), and grad of the summed per-sample gradient norms
    def prog(m):
        x, w, b = data(m, 3, 4, seed=1), data(m, 2, 4, seed=2), data(m, 2, seed=3)

        def f(w, b, x):
            return m.nn.functional.linear(x.unsqueeze(0), w, b).tanh().pow(2).sum()
        per = m.func.vmap(m.func.grad(f, argnums=(0, 1)), in_dims=(None, None, 0))

        def norms(w, b):
            gw, gb = per(w, b, x)
            return (gw ** 2).sum() + (gb ** 2).sum()
        return m.func.grad(norms, argnums=(0, 1))(w, b), m.func.jacrev(
            lambda w: per(w, b, x)[0])(w)
    same(prog)


def test_create_graph_samples_of_several_dims():
    # each sample a (2, 2, 4) input: the input gradient's formula under create_graph
    def prog(m):
        x, w, b = data(m, 3, 2, 2, 4, seed=1), data(m, 2, 4, seed=2), data(m, 2, seed=3)
        lin2 = data(m, 2, 2, seed=4)

        def f(w, b, x):
            h = m.nn.functional.linear(x, w, b).tanh()
            return m.nn.functional.linear(h, lin2).pow(2).sum()
        per = m.func.vmap(m.func.grad(f, argnums=(0, 1)), in_dims=(None, None, 0))
        return per(w, b, x), m.func.jacrev(lambda w: per(w, b, x)[0])(w)
    same(prog)


def test_per_sample_grads_backward_through_tape():
    # inputs that require grad outside: the per-sample gradients keep their graph
    def prog(m):
        x = data(m, 3, 4, seed=1)
        w = data(m, 2, 4, seed=2, requires_grad=True)
        b = data(m, 2, seed=3, requires_grad=True)

        def f(w, b, x):
            return m.nn.functional.linear(x.unsqueeze(0), w, b).sigmoid().sum()
        gw, gb = m.func.vmap(m.func.grad(f, argnums=(0, 1)), in_dims=(None, None, 0))(w, b, x)
        (gw.sum() * 2 + (gb ** 2).sum()).backward()
        return gw, gb, w.grad, b.grad
    same(prog)


def test_conv_net_per_sample_grads():
    def prog(m):
        m.manual_seed(3)
        net = m.nn.Sequential(m.nn.Conv2d(1, 2, 3), m.nn.ReLU(), m.nn.Flatten(),
                              m.nn.Linear(2 * 3 * 3, 3)).double()
        params = {k: v.detach() for k, v in net.named_parameters()}
        x, t = data(m, 4, 1, 5, 5, seed=1), m.tensor([0, 2, 1, 1])

        def f(p, x, t):
            out = m.func.functional_call(net, p, (x.unsqueeze(0),))
            return m.nn.functional.cross_entropy(out, t.unsqueeze(0))
        return m.func.vmap(m.func.grad(f), in_dims=(None, 0, 0))(params, x, t)
    same(prog)


def test_per_sample_outer_kernel_dtypes_and_layouts():
    # the C loop behind the fast path: float32/float64, non-contiguous inputs, other
    # dtypes through numpy, empty batches; against the broadcast product
    import numpy as np

    from autograd_core.ops import nn as nn_ops
    import autograd_core as ag
    for dtype in ("float32", "float64"):
        g = data(ag, 6, 3, seed=1, dtype=dtype)
        x = data(ag, 4, 6, seed=2, dtype=dtype).t()            # non-contiguous (6, 4)
        out = nn_ops._per_sample_outer(g, x)
        want = g.numpy()[:, :, None] * x.numpy()[:, None, :]
        assert out.dtype == g.dtype and tuple(out.shape) == (6, 3, 4)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
        assert tuple(out.stride()) == (12, 4, 1)
    gi, xi = ag.tensor([[1, 2]]), ag.tensor([[3, 4, 5]])
    assert nn_ops._per_sample_outer(gi, xi).tolist() == [[[3, 4, 5], [6, 8, 10]]]
    assert tuple(nn_ops._per_sample_outer(ag.zeros(0, 3), ag.zeros(0, 2)).shape) == (0, 3, 2)
    with pytest.raises(RuntimeError):
        nn_ops._per_sample_outer(ag.zeros(2, 3), ag.zeros(3, 2))


def test_per_sample_cross_entropy_with_ignored_targets():
    # one row per sample: the mean over the non-ignored rows (NaN where the only row is
    # ignored), values and per-sample gradients
    def prog(m):
        out, t = data(m, 4, 5, seed=1), m.tensor([1, -100, 3, 0])
        F = m.nn.functional

        def f(o, t):
            return F.cross_entropy(o.unsqueeze(0), t.unsqueeze(0))
        return m.func.vmap(f)(out, t), m.func.vmap(m.func.grad(f))(out, t)
    same(prog)
