"""The engine's gradient buffers (Note [Stealing the gradient]): the fused backward
kernels of tanh, sigmoid, relu and mul write into the incoming gradient when only the
engine holds it, at every size (large arrays with the GIL released). Nothing that a
user, a hook, a retained .grad, autograd.grad or a second reader of the same gradient
holds may change: every program here is compared with PyTorch, at sizes on both sides
of the kernels' thresholds."""
import numpy as np
import pytest

from _diff import assert_same, data, same

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


# ------------------------------------ AccumulateGrad stealing a view (nn.Linear's gradients)
# mm_mat2_backward hands nn.Linear's weight the transpose of a product, sum_to the bias
# a reshape of a sum: views of arrays that nothing else holds, which PyTorch's
# AccumulateGrad takes as .grad without a copy. Ours takes them only when no user, hook
# or retained gradient can reach that memory (PyTorch, which counts references to the
# view alone, may alias: those programs compare values, and check our .grad shares
# memory with nothing the program can see).

def _shares(a, b):
    return bool(np.shares_memory(a.detach().numpy(), b.detach().numpy()))


def _linear(torch, n_in=4, n_out=3, bias=True):
    torch.manual_seed(0)
    lin = torch.nn.Linear(n_in, n_out, bias=bias, dtype=torch.float64)
    with torch.no_grad():
        lin.weight.copy_(data(torch, n_out, n_in, seed=1))
        if bias:
            lin.bias.copy_(data(torch, n_out, seed=2))
    return lin


@pytest.mark.parametrize("in_shape", [(5, 4), (2, 5, 4), (4,)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_gradients_are_stolen(in_shape, bias):
    def prog(torch):
        lin = _linear(torch, bias=bias)
        x = data(torch, *in_shape, seed=3)
        seen = {}
        for n, p in lin.named_parameters():
            p.register_hook(lambda g, n=n: seen.__setitem__(n, g.data_ptr()))
        torch.tanh(lin(x)).sum().backward()
        first = {n: (p.grad.data_ptr() == seen[n], p.grad.stride(), p.grad._base is None,
                     p.grad * 1) for n, p in lin.named_parameters()}
        torch.tanh(lin(x * 2)).sum().backward()     # accumulates in place into the stolen .grad
        return first, [p.grad for p in lin.parameters()]
    same(prog)


def test_transposed_weight_gradient_is_stolen_with_its_strides():
    # a column-major weight: its gradient arrives as a transpose that obeys its layout
    def prog(torch):
        w = torch.nn.Parameter(data(torch, 4, 3, seed=1).t())
        x = data(torch, 5, 4, seed=3)
        seen = []
        w.register_hook(lambda g: seen.append(g.data_ptr()) and None)
        (torch.nn.functional.linear(x, w) ** 2).sum().backward()
        return w.grad, w.grad.stride(), w.grad.data_ptr() == seen[0]
    same(prog)


def test_expanded_gradient_is_cloned():
    # sum's gradient is an expand of a 0-d array: a view that breaks the layout contract
    def prog(torch):
        w = data(torch, 3, 4, requires_grad=True)
        w.sum().backward()
        g = w.grad
        return g, g.stride(), g.is_contiguous()
    same(prog)


def test_linear_weight_gradient_with_a_retained_transpose():
    def prog(torch):
        lin = _linear(torch)
        x = data(torch, 5, 4, seed=3)
        wt = lin.weight.t()
        wt.retain_grad()
        (torch.tanh(x @ wt + lin.bias)).sum().backward()
        kept = wt.grad * 1
        separate = not _shares(lin.weight.grad, wt.grad)
        (torch.tanh(x @ wt + lin.bias) * 3).sum().backward()
        return separate, kept, wt.grad, lin.weight.grad, lin.bias.grad
    same(prog)


def test_linear_gradient_kept_by_a_hook():
    # the hooks keep the gradients of weight.t() and of bias * 1; the weight's and the
    # bias's are views of them. PyTorch takes those views as .grad, so that the second
    # backward changes what its hooks kept; ours clones them, and the kept tensors stay.
    def prog(torch):
        lin = _linear(torch)
        x = data(torch, 5, 4, seed=3)
        wt, kept = lin.weight.t(), []
        wt.register_hook(lambda g: kept.append(g) and None)
        b = lin.bias.unsqueeze(0) * 1
        b.register_hook(lambda g: kept.append(g) and None)
        torch.sigmoid(x @ wt + b).sum().backward()
        first = [p.grad * 1 for p in lin.parameters()]
        return lin, x, kept, first
    import autograd_core
    import torch as real_torch
    lin_t, x_t, kept_t, first_t = prog(real_torch)
    lin, x, kept, first = prog(autograd_core)
    assert_same([k * 1 for k in kept_t], kept)
    assert_same(first_t, first)
    assert not any(_shares(p.grad, k) for p in lin.parameters() for k in kept)
    copies = [k * 1 for k in kept]
    for m, xx in ((lin_t, x_t), (lin, x)):
        (m(xx) ** 2).sum().backward()
    assert_same([p.grad for p in lin_t.parameters()], [p.grad for p in lin.parameters()])
    assert_same(copies, kept)


def test_linear_autograd_grad_then_backward():
    def prog(torch):
        lin = _linear(torch)
        x = data(torch, 5, 4, seed=3)
        gw, gb = torch.autograd.grad(torch.tanh(lin(x)).sum(), (lin.weight, lin.bias))
        copies = (gw * 1, gb * 1)
        torch.tanh(lin(x)).sum().backward()
        separate = not _shares(lin.weight.grad, gw) and not _shares(lin.bias.grad, gb)
        torch.tanh(lin(x * 0.5)).sum().backward()
        return separate, gw, gb, copies, lin.weight.grad, lin.bias.grad
    same(prog)


def test_linear_backward_with_create_graph():
    def prog(torch):
        lin = _linear(torch)
        x = data(torch, 5, 4, seed=3)
        torch.tanh(lin(x)).sum().backward(create_graph=True)
        gw, gb = lin.weight.grad, lin.bias.grad
        first = (gw.requires_grad, gb.requires_grad, gw * 1, gb * 1)
        (gw ** 2).sum().backward(inputs=[lin.weight])
        return first, lin.weight.grad, lin.bias.grad
    same(prog, quiet=True)


@pytest.mark.parametrize("view", ["view", "reshape", "unsqueeze"])
def test_leaf_gradient_that_is_a_view_of_the_users_gradient(view):
    # the leaf's gradient is a view of the tensor passed to backward(): PyTorch takes
    # that view as .grad, so that its next accumulation writes into the user's tensor;
    # ours clones it. The first .grad is compared with PyTorch's; then ours must share
    # no memory with the user's tensor, which the second backward leaves as it was.
    def prog(torch):
        if view == "unsqueeze":
            leaf = data(torch, 3, requires_grad=True)
            y = leaf.unsqueeze(0)
        else:
            leaf = data(torch, 12, requires_grad=True)
            y = leaf.view(3, 4) if view == "view" else leaf.reshape(3, 4)
        g = data(torch, *y.shape, seed=4)
        y.backward(g)
        return leaf, y, g, leaf.grad * 1
    import autograd_core
    import torch as real_torch
    _, _, _, want = prog(real_torch)
    leaf, y, g, first = prog(autograd_core)
    assert_same(want, first)
    assert not _shares(leaf.grad, g)
    kept = g * 1
    leaf.view(y.shape).backward(g)
    assert_same(want * 2, leaf.grad)
    assert_same(real_torch.from_numpy(kept.numpy()), g)
