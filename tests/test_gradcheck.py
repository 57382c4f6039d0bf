"""Numerical gradient checks of autograd_core's ops, driven by op_table.py.

- autograd_core.autograd.gradcheck (first order) and gradgradcheck (second order) on every
  table entry's small smooth cases, in float64;
- an independent central-difference check written here (not the library's gradcheck) for
  a handful of ops, and checks that the library's gradcheck does catch wrong gradients.
"""
import numpy as np
import pytest

import autograd_core as ac
from _diff import assert_same, no_warnings, torch
from op_spec import case_args, case_id, case_seed, make_arrays, make_leaves, numel
from op_table import OPS

MAX_NUMEL = 40       # inputs' total size for gradcheck
MAX_NUMEL_GG = 24    # ... for gradgradcheck


def _small_cases(max_numel, second_order=False):
    out = []
    for spec in OPS:
        if not spec.gradcheck or (second_order and not spec.double_backward):
            continue
        for i, case in enumerate(spec.cases):
            if case.smooth and numel(case) <= max_numel:
                out.append(pytest.param(spec, i, id=case_id(spec, i)))
    return out


def _func_and_inputs(spec, i):
    case = spec.cases[i]
    arrays = make_arrays(spec, case, "float64", case_seed(spec.name, i, "gradcheck"))
    leaves = make_leaves(ac, arrays, case)

    def func(*xs):
        with no_warnings():
            return spec.fn(ac, *case_args(case, list(xs)))

    return func, tuple(leaves)


def _has_differentiable_output(func, inputs):
    out = func(*inputs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return any(o.requires_grad for o in outs)


@pytest.mark.parametrize("spec,i", _small_cases(MAX_NUMEL))
def test_gradcheck(spec, i):
    func, inputs = _func_and_inputs(spec, i)
    if not _has_differentiable_output(func, inputs):
        pytest.skip("no input requires grad")
    assert ac.autograd.gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("spec,i", _small_cases(MAX_NUMEL_GG, second_order=True))
def test_gradgradcheck(spec, i):
    func, inputs = _func_and_inputs(spec, i)
    if not _has_differentiable_output(func, inputs):
        pytest.skip("no input requires grad")
    assert ac.autograd.gradgradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


# ------------------------------------------------------------------ independent check

def _numeric_vjp(f, arrays, v, eps=1e-6):
    """d/dx_k of sum(f(x) * v), by central differences on float64 numpy arrays."""
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            vals = []
            for s in (1.0, -1.0):
                xs = [b.copy() for b in arrays]
                xs[k][idx] += s * eps
                with ac.no_grad():
                    out = f(*[ac.tensor(x) for x in xs])
                vals.append(float(np.sum(out.numpy() * v)))
            g[idx] = (vals[0] - vals[1]) / (2 * eps)
        grads.append(g)
    return grads


_INDEPENDENT = {
    "tanh": (lambda m, x: m.tanh(x), [(3, 4)], "real"),
    "sigmoid": (lambda m, x: x.sigmoid(), [(5,)], "real"),
    "log": (lambda m, x: m.log(x), [(2, 3)], "positive"),
    "mul_broadcast": (lambda m, a, b: a * b, [(3, 4), (4,)], "real"),
    "div": (lambda m, a, b: a / b, [(3, 1), (3, 4)], "positive"),
    "pow_tt": (lambda m, a, b: a ** b, [(2, 3), (2, 3)], "positive"),
    "rpow": (lambda m, x: 2.0 ** x, [(4,)], "real"),
    "matmul_batched": (lambda m, a, b: a @ b, [(2, 2, 3), (3, 2)], "real"),
    "mean_dim": (lambda m, x: x.mean(1, keepdim=True), [(3, 4)], "real"),
    "index_list": (lambda m, x: x[[0, 2, 2]], [(3, 2)], "real"),
    "max_dim": (lambda m, x: x.max(0).values, [(3, 4)], "distinct"),
    "cat_sqrt": (lambda m, a, b: m.cat([a, b.sqrt()], 1), [(2, 3), (2, 2)], "positive"),
}


@pytest.mark.parametrize("name", list(_INDEPENDENT))
def test_independent_central_difference(name):
    """autograd_core's backward against central differences computed here, and the
    library's gradcheck agrees (it returns True on the same function)."""
    fn, shapes, domain = _INDEPENDENT[name]
    rng = np.random.default_rng(case_seed("independent", name))
    arrays = []
    for s in shapes:
        a = rng.standard_normal(s)
        if domain == "positive":
            a = np.abs(a) + 0.5
        elif domain == "distinct":
            a = ((rng.permutation(a.size) - a.size / 2) * 0.25).reshape(s)
        arrays.append(a)
    leaves = [ac.tensor(a, requires_grad=True) for a in arrays]
    out = fn(ac, *leaves)
    v = rng.standard_normal(tuple(out.shape))
    out.backward(ac.tensor(v))
    numeric = _numeric_vjp(lambda *xs: fn(ac, *xs), arrays, v)
    for k, (leaf, num) in enumerate(zip(leaves, numeric)):
        assert_same(num, leaf.grad.numpy(), rtol=1e-6, atol=1e-7, what=f"input {k}")
    inputs = tuple(ac.tensor(a, requires_grad=True) for a in arrays)
    assert ac.autograd.gradcheck(lambda *xs: fn(ac, *xs), inputs)


# ------------------------------------------------------------------ the checker catches errors

def _scaled_grad(mod, factor):
    """x -> tanh(x) whose backward is multiplied by factor (a wrong derivative)."""
    def f(x):
        y = mod.tanh(x) * 1.0
        y.register_hook(lambda g: None if g is None else g * factor)
        return y
    return f


def _detached_grad(mod):
    """x -> x * x whose first derivative is right but whose double backward is not:
    the upstream gradient is detached, so d(vjp)/d(v) is lost."""
    def f(x):
        y = x * 1.0
        y.register_hook(lambda g: None if g is None else g.detach())
        return y * y + x * x
    return f


@pytest.mark.parametrize("mod", [torch, ac], ids=["torch", "autograd_core"])
def test_gradcheck_detects_wrong_first_derivative(mod):
    x = mod.tensor(np.linspace(-1, 1, 5), requires_grad=True)
    assert mod.autograd.gradcheck(_scaled_grad(mod, 1.0), (x,))
    assert mod.autograd.gradcheck(_scaled_grad(mod, 1.01), (x,), raise_exception=False) is False
    with pytest.raises(RuntimeError):
        mod.autograd.gradcheck(_scaled_grad(mod, 1.01), (x,))
    # well inside the tolerances: passes
    assert mod.autograd.gradcheck(_scaled_grad(mod, 1 + 1e-8), (x,))


@pytest.mark.parametrize("mod", [torch, ac], ids=["torch", "autograd_core"])
def test_gradgradcheck_detects_wrong_second_derivative(mod):
    x = mod.tensor(np.linspace(-1, 1, 4), requires_grad=True)
    assert mod.autograd.gradcheck(_detached_grad(mod), (x,))
    assert mod.autograd.gradgradcheck(lambda t: t * t, (x,))
    assert mod.autograd.gradgradcheck(_detached_grad(mod), (x,), raise_exception=False) is False


def test_gradcheck_detects_wrong_gradient_on_second_input():
    a = ac.tensor(np.linspace(0.5, 1.5, 3), requires_grad=True)
    b = ac.tensor(np.linspace(-1, 1, 3), requires_grad=True)

    def f(x, y):
        y2 = y * 1.0
        y2.register_hook(lambda g: None if g is None else -g)
        return x * y2

    assert ac.autograd.gradcheck(lambda x, y: x * y, (a, b))
    assert ac.autograd.gradcheck(f, (a, b), raise_exception=False) is False
