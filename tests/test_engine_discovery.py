"""The engine's bookkeeping of a pass against PyTorch: nodes that discovery indexes
without the pointer map (Note [Nodes reached once] in _core/engine.pyx) must answer
every later lookup as mapped ones do, and the single-gradient entry (Note
[Single-gradient entry] in _core/engine.pyx) must give what apply gives."""
import numpy as np
import pytest

from _diff import same, same_error

import autograd_core
import torch


def _will(mod):
    if mod is torch:
        return torch._C._will_engine_execute_node
    return autograd_core._core.engine._will_engine_execute_node


def _chain(mod, x, steps):
    # built in a function: the intermediate tensors die, so each node is held by the
    # one edge to it alone (the case discovery leaves out of the map)
    y = x
    for _ in range(steps):
        y = (y * 1.5 + 0.25).tanh()
    return y.sum()


def test_will_execute_nodes_reached_once():
    """A hook asks about nodes discovery did not map (reached by one edge), about a node
    of another graph (which completes the map) and then again about the first ones."""
    def prog(mod):
        x = mod.tensor([0.5, -1.5, 2.0], requires_grad=True)
        other = mod.tensor([1.0], requires_grad=True) * 2
        out = _chain(mod, x, 4)
        will = _will(mod)
        seen = []

        def hook(g):
            # (from the node under the root: the root itself is
            # test_will_execute_the_root's)
            chain, n = [], out.grad_fn.next_functions[0][0]
            while n is not None:
                chain.append(n)
                n = n.next_functions[0][0] if n.next_functions else None
            first = [will(n) for n in chain]
            seen.append((len(chain), first, will(other.grad_fn), [will(n) for n in chain]))
            return g

        out.register_hook(hook)
        out.backward()
        return seen, x.grad

    seen, _ = same(prog)
    assert seen[0][1] == [True] * seen[0][0] and seen[0][2] is False


def test_will_execute_the_root():
    """A pass with one root starts at its node (PyTorch makes no GraphRoot before it):
    asked from hooks, that node is not one the pass will execute, while the nodes under
    it are; with two roots (a GraphRoot) both root nodes are."""
    def prog(mod):
        will = _will(mod)
        x = mod.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        z = y.sin()
        w = z.sum()
        seen = []
        z.register_hook(lambda g: seen.append(
            ("z", will(w.grad_fn), will(z.grad_fn), will(y.grad_fn))))
        w.register_hook(lambda g: seen.append(("w", will(w.grad_fn), will(z.grad_fn))))
        w.backward(retain_graph=True)
        mod.autograd.grad(w, [z], retain_graph=True)
        h = w.grad_fn.register_prehook(lambda g: seen.append(("pre", will(w.grad_fn))))
        w.backward(retain_graph=True)
        h.remove()
        z.backward(mod.ones(2), retain_graph=True)
        v = (y * 3).sum()
        mod.autograd.backward([w, v])
        return seen

    seen = same(prog)
    assert seen[0] == ("w", False, True)


def test_grad_inputs_through_nodes_reached_once():
    """autograd.grad with inputs in the middle of a chain of singly reached nodes: the
    needed-node marking walks discovery's child indices."""
    def prog(mod):
        x = mod.tensor([0.3, -0.7], requires_grad=True)
        mid = (x * 2.0).sin()
        out = _chain(mod, mid, 6)
        g_mid, g_x = mod.autograd.grad(out, [mid, x], retain_graph=True)
        (g_only_x,) = mod.autograd.grad(out, [x])
        return g_mid, g_x, g_only_x

    same(prog)


def test_diamond_and_shared_leaf():
    """Nodes reached by two edges (a diamond, x * x) beside singly reached ones: each
    node runs once, with every gradient summed."""
    def prog(mod):
        x = mod.tensor([0.2, 1.1, -0.4], requires_grad=True)
        w = mod.tensor([1.5, -0.5, 0.75], requires_grad=True)
        h = (x * w).tanh()
        a = (h * 2.0).exp()
        b = (h + 1.0).sin()
        out = ((a * b).sum() + (x * x).sum() + _chain(mod, h, 3))
        out.backward()
        return x.grad, w.grad

    same(prog)


def test_reentrant_backward_inside_a_hook():
    """A hook in the middle of a pass runs another pass over part of the same graph
    (and one over a graph of its own): the outer pass goes on with its own indices."""
    def prog(mod):
        x = mod.tensor([0.4, -0.9], requires_grad=True)
        z = mod.tensor([2.0], requires_grad=True)
        mid = (x * 3.0).cos()
        out = _chain(mod, mid, 3)
        inner = []

        def hook(g):
            if inner:  # (the inner pass through mid calls this hook too)
                return g
            inner.append(None)
            with mod.enable_grad():  # (backward runs its hooks without grad mode)
                (gx,) = mod.autograd.grad((mid * mid).sum(), [x], retain_graph=True)
                (_chain(mod, z, 5) * 1.0).backward()
            inner[0] = gx
            return g

        mid.register_hook(hook)
        out.backward()
        return x.grad, z.grad, inner

    same(prog)


def test_backward_twice_on_nodes_reached_once():
    def prog(mod):
        x = mod.tensor([0.5, 0.25], requires_grad=True)
        out = _chain(mod, x, 3)
        out.backward()
        out.backward()

    same_error(prog)


@pytest.mark.parametrize("op", ["tanh", "sigmoid", "exp", "mul_scalar", "sum"])
def test_node_called_directly(op):
    """grad_fn(g) (apply, which lends its entry to apply1) and the engine (apply1 on the
    gradient itself) agree with PyTorch; a wrong number of gradients is PyTorch's error."""
    def prog(mod):
        x = mod.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
        y = {"tanh": x.tanh, "sigmoid": x.sigmoid, "exp": x.exp,
             "mul_scalar": lambda: x * 2.5, "sum": x.sum}[op]()
        g = mod.ones_like(y) * 0.5
        direct = y.grad_fn(g)
        y.backward(g)
        return direct, x.grad

    same(prog)


def test_node_call_argument_count():
    def prog(mod):
        y = mod.tensor([1.0, 2.0], requires_grad=True).tanh()
        return y.grad_fn()

    same_error(prog)


def test_gradient_held_by_the_user_is_not_written():
    """The seed gradient the user passes reaches a formula that may reuse a gradient it
    alone holds (tanh's): the user's tensor must keep its values."""
    def prog(mod):
        x = mod.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = x.tanh()
        g = mod.tensor([1.0, 2.0, 3.0])
        y.backward(g)
        return g, x.grad

    same(prog)


def test_chain_matches_numpy_closed_form():
    """A long chain (every node reached once) against its derivative in numpy."""
    x = autograd_core.tensor([0.1, -0.2, 0.3], dtype=autograd_core.float64,
                             requires_grad=True)
    _chain(autograd_core, x, 200).backward()
    v = np.array([0.1, -0.2, 0.3])
    d = np.ones(3)
    for _ in range(200):
        t = np.tanh(v * 1.5 + 0.25)
        d = d * (1 - t * t) * 1.5
        v = t
    np.testing.assert_allclose(x.grad.numpy(), d, rtol=1e-12, atol=1e-300)
