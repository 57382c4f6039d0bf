"""The engine's gradient buffers (Note [Stealing the gradient]): the fused backward
kernels of tanh, sigmoid, relu and mul write into the incoming gradient when only the
engine holds it, at every size (large arrays with the GIL released). Nothing that a
user, a hook, a retained .grad, autograd.grad or a second reader of the same gradient
holds may change: every program here is compared with PyTorch, at sizes on both sides
of the kernels' thresholds."""
import numpy as np
import pytest

from _diff import data, same

SIZES = [(5,), (3, 40), (50_000,)]      # small, small 2-d, past the GIL-release threshold
DTYPES = ["float32", "float64"]


def _x(torch, shape, dtype, seed=0):
    return data(torch, *shape, seed=seed, dtype=dtype, requires_grad=True)


@pytest.mark.parametrize("shape", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_chain_of_fused_derivatives(shape, dtype):
    def prog(torch):
        x = _x(torch, shape, dtype)
        y = x
        for _ in range(4):
            y = torch.tanh(y * 1.01 + 0.01)
        y = torch.sigmoid(y * 3) * 2
        y = torch.relu(y - 1.2) * 1.5
        y.sum().backward()
        return x.grad
    same(prog)


@pytest.mark.parametrize("shape", SIZES)
def test_gradient_kept_by_a_hook_is_not_overwritten(shape):
    def prog(torch):
        x = _x(torch, shape, "float32")
        a = x * 2
        b = torch.tanh(a)
        c = torch.sigmoid(b * 0.5)
        kept = []
        b.register_hook(lambda g: kept.append(g) and None)
        c.register_hook(lambda g: kept.append(g) and None)
        (c * 3).backward(torch.ones_like(c))
        return kept, x.grad
    same(prog)


@pytest.mark.parametrize("shape", SIZES)
def test_post_hook_sees_the_gradients_it_was_given(shape):
    def prog(torch):
        x = _x(torch, shape, "float64")
        y = torch.tanh(x * 1.5)
        z = y * 2.0
        seen = []
        y.grad_fn.register_hook(lambda gi, go: seen.append((gi, go)) and None)
        z.grad_fn.register_hook(lambda gi, go: seen.append((gi, go)) and None)
        z.backward(torch.ones_like(z))
        return seen, x.grad
    same(prog)


@pytest.mark.parametrize("shape", SIZES)
def test_gradient_read_by_two_consumers(shape):
    def prog(torch):
        x = _x(torch, shape, "float32")
        w = _x(torch, shape, "float32", seed=1)
        y = torch.tanh(x)
        z = torch.sigmoid(y) + y * 3 + torch.relu(y) * y   # y's gradient from four nodes
        u = x * w                                          # both factors need a gradient
        (z * 1.5 + u * 0.5).sum().backward()
        return x.grad, w.grad
    same(prog)


@pytest.mark.parametrize("shape", SIZES)
def test_retained_and_captured_gradients(shape):
    def prog(torch):
        x = _x(torch, shape, "float32")
        a = x * 2
        b = torch.tanh(a)
        b.retain_grad()
        a.retain_grad()
        (torch.sigmoid(b) * 4).sum().backward(retain_graph=True)
        r = [a.grad.clone(), b.grad.clone(), x.grad.clone()]
        ga, gb = torch.autograd.grad((torch.sigmoid(b) * 4).sum(), (a, b))
        return r + [ga, gb, a.grad, b.grad]
    same(prog)


@pytest.mark.parametrize("shape", SIZES)
def test_second_derivatives_without_create_graph(shape):
    # the derivative nodes of tanh_backward, sigmoid_backward and mul read the incoming
    # gradient in two formulas: the first may not write into it
    def prog(torch):
        x = _x(torch, shape, "float64")
        w = _x(torch, shape, "float64", seed=1)
        y = (torch.tanh(x) * w + torch.sigmoid(x * w)).sum()
        gx, = torch.autograd.grad(y, x, create_graph=True)
        g2 = torch.autograd.grad((gx * 1.5).sum(), (x, w))
        return gx, g2
    same(prog)


@pytest.mark.parametrize("shape", SIZES)
def test_user_gradient_and_leaf_grad_unchanged(shape):
    def prog(torch):
        x = _x(torch, shape, "float32")
        g = torch.full(shape, 0.5)
        y = torch.tanh(x * 2.0)
        y.backward(g)
        first = x.grad
        y2 = torch.relu(x) * 3.0
        y2.backward(g)          # accumulates into x.grad in place, as PyTorch
        return g, first, x.grad
    same(prog)


def test_engine_reuses_an_unshared_gradient():
    # a gradient only the engine holds is written in place down the chain (tanh's,
    # then mul's derivative) and becomes the leaf's .grad: no new array after the
    # first one (PyTorch allocates one per node; this checks our reuse, not parity)
    import autograd_core as torch
    x = torch.tensor(np.linspace(-1, 1, 50_000), requires_grad=True)
    y = x * 3.0
    z = torch.sigmoid(torch.tanh(y) * 1.0)
    ptrs = []
    y.register_hook(lambda g: ptrs.append(g.data_ptr()) and None)
    z.backward(torch.ones(50_000, dtype=torch.float64))
    assert x.grad.data_ptr() == ptrs[0]
    s = 1 / (1 + np.exp(-np.tanh(3 * np.linspace(-1, 1, 50_000))))
    want = s * (1 - s) * (1 - np.tanh(3 * np.linspace(-1, 1, 50_000)) ** 2) * 3
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-12)


def test_saved_tensors_are_untracked_until_they_hold_user_objects():
    # Note [Untracked by the cycle collector]: a saved tensor is out of the cyclic GC's
    # lists (every gen-0 collection would walk it) until a pack hook's result is in it
    import gc

    import autograd_core as torch
    x = torch.tensor([1., 2.], requires_grad=True)
    y = torch.tanh(x) * x
    raw_out = y.grad_fn.next_functions[0][0]._raw_saved_result
    raw_in = y.grad_fn._raw_saved_self
    assert not gc.is_tracked(raw_out) and not gc.is_tracked(raw_in)
    kept = []
    raw_in.register_hooks(lambda t: kept.append(t) or t, lambda t: t)
    assert gc.is_tracked(raw_in)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        z = torch.tanh(x)
    assert gc.is_tracked(z.grad_fn._raw_saved_result)
    y.sum().backward()
    assert x.grad is not None
