"""Differential tests of the autograd engine: every program runs once with real torch
and once with autograd_core, and the values, gradients, flags, warnings and errors it
returns must agree (see _diff.py)."""
import threading

import pytest

import autograd_core
from _diff import Raised, catch, same, torch, warns
from _diff import same_error

# ---------------------------------------------------------------- accumulation


def test_grad_accumulates_across_backward_calls():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        out = []
        for k in range(3):
            (x * x * (k + 1)).sum().backward()
            out.append(x.grad.clone())
        g = x.grad
        (x * 2).sum().backward()
        out.append(x.grad is g)  # accumulated in place into the same tensor
        x.grad.zero_()
        out.append(x.grad)
        x.grad = None
        (x * 3).sum().backward()
        out.append(x.grad)
        out.append(x.grad.requires_grad)
        out.append(x.grad.grad_fn is None)
        return out
    same(prog)


def test_grad_accumulates_from_two_roots_sharing_a_leaf():
    def prog(torch):
        w = torch.tensor([[1., -2.], [0.5, 3.]], requires_grad=True)
        a = (w * w).sum()
        b = (w.exp()).sum()
        a.backward()
        b.backward()
        return w.grad
    same(prog)


def test_grad_setter_and_dtype():
    def prog(torch):
        x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
        (x * x).sum().backward()
        r = [x.grad, x.grad.dtype]
        x.grad = torch.tensor([10., 20.], dtype=torch.float64)
        (x * 1).sum().backward()
        r.append(x.grad)
        return r
    same(prog)


# ---------------------------------------------------------------- retain_graph

def test_retain_graph_allows_second_backward():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        first = x.grad.clone()
        y.backward()
        return first, x.grad
    same(prog)


def test_second_backward_without_retain_graph_raises():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = (x * x).sum()
        y.backward()
        err = catch(y.backward)
        return err, x.grad
    got = same(prog)
    assert isinstance(got[0], Raised) and got[0].type == "RuntimeError"


def test_second_autograd_grad_without_retain_graph_raises():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = (x.exp()).sum()
        g = torch.autograd.grad(y, x)
        return g, catch(torch.autograd.grad, y, x)
    same(prog)


# Which graphs save tensors (and so refuse a second backward) must match torch:
# a graph of only additions saves nothing and can be backwarded twice.
BACKWARD_TWICE = {
    "add_scalar": lambda torch, x, w: (x + 1).sum(),
    "add_tensor": lambda torch, x, w: (x + w + x).sum(),
    "sub_neg": lambda torch, x, w: (-(x - w) - 2).sum(),
    "sum_only": lambda torch, x, w: x.sum(),
    "mul_scalar": lambda torch, x, w: (x * 2).sum(),
    "mul_tensor": lambda torch, x, w: (x * w).sum(),
    "mul_const_tensor": lambda torch, x, w: (x * torch.tensor([2., 3., 4.])).sum(),
    "div_scalar": lambda torch, x, w: (x / 2).sum(),
    "exp": lambda torch, x, w: x.exp().sum(),
    "pow2": lambda torch, x, w: (x ** 2).sum(),
    "relu": lambda torch, x, w: x.relu().sum(),
    "view_chain": lambda torch, x, w: x.reshape(3, 1).t().unsqueeze(0).sum(),
    "mean": lambda torch, x, w: x.mean(),
    "matmul": lambda torch, x, w: x @ w,
}


@pytest.mark.parametrize("name", list(BACKWARD_TWICE))
def test_backward_twice_matches_torch(name):
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        w = torch.tensor([0.5, -1., 2.], requires_grad=True)
        y = BACKWARD_TWICE[name](torch, x, w)
        y.backward()
        second = catch(y.backward)
        return second, x.grad, w.grad
    same(prog)


def test_addition_only_graph_backward_twice_succeeds():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        y = (x + x + 1).sum()
        y.backward()
        y.backward()
        return x.grad
    got = same(prog)
    assert got.tolist() == [4., 4.]


# ---------------------------------------------------------------- graph shapes

def test_diamond_graph_gradients_sum():
    def prog(torch):
        x = torch.tensor([1., -2., 3.], requires_grad=True)
        a = x * 2
        b = a * a + a.exp() - a / 3
        c = b * a + x
        d = (c * c).sum() + (a * x).sum()
        d.backward()
        return d, x.grad
    same(prog)


def test_tensor_used_many_times():
    def prog(torch):
        x = torch.tensor([0.5, 1.5], requires_grad=True)
        y = x
        for _ in range(50):
            y = y * x * 0.5 + x
        y.sum().backward()
        return y, x.grad
    same(prog)


def test_same_tensor_both_operands():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        ((x * x) + (x + x) + (x - x) + x / x + x @ x).sum().backward()
        return x.grad
    same(prog)


def test_multiple_outputs_of_unbind_partially_used():
    def prog(torch):
        x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
        a, b, c = x.unbind(0)
        (a * 2 + c * 3).sum().backward()
        return x.grad, a.grad_fn.name(), a.output_nr, b.output_nr, c.output_nr
    same(prog)


BROADCASTS = [
    ((3, 1), (4,)),
    ((2, 3), (3,)),
    ((2, 3), ()),
    ((1,), (2, 3)),
    ((1, 3, 1), (2, 1, 4)),
    ((2, 1, 3), (5, 1)),
    ((), ()),
]


@pytest.mark.parametrize("sa,sb", BROADCASTS)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_broadcast_gradients_reduced_to_input_shape(sa, sb, op):
    def prog(torch):
        a = (torch.arange(1, 1 + _numel(sa), dtype=torch.float32).reshape(sa) / 3 + 1).requires_grad_()
        b = (torch.arange(1, 1 + _numel(sb), dtype=torch.float32).reshape(sb) / 7 + 2).requires_grad_()
        y = getattr(torch, op)(a, b)
        (y * y).sum().backward()
        return y, a.grad, b.grad, tuple(a.grad.shape), tuple(b.grad.shape)
    same(prog)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def test_broadcast_with_expand_and_sum_dims():
    def prog(torch):
        a = torch.tensor([[1.], [2.]], requires_grad=True)
        e = a.expand(2, 3)
        y = (e * torch.tensor([1., 2., 3.])).sum(dim=1, keepdim=True)
        y.sum().backward()
        return y, a.grad
    same(prog)


# ---------------------------------------------------------------- backward(gradient=), inputs=

def test_backward_with_gradient_for_non_scalar():
    def prog(torch):
        x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = x * x * 3
        y.backward(torch.tensor([[1., 0.1], [0.01, -1.]]))
        r = [x.grad.clone()]
        z = x.sum(dim=0)
        z.backward(gradient=torch.tensor([2., 5.]))
        r.append(x.grad)
        return r
    same(prog)


def test_backward_gradient_on_scalar_and_0d():
    def prog(torch):
        x = torch.tensor(3., requires_grad=True)
        y = x ** 3
        y.backward(torch.tensor(2.))
        return x.grad
    same(prog)


def test_autograd_backward_function():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        y = torch.tensor([3., 4.], requires_grad=True)
        torch.autograd.backward([(x * y).sum(), x * 3], [None, torch.tensor([1., 1.])])
        return x.grad, y.grad
    same(prog)


def test_backward_inputs_leaves():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        b = torch.tensor([3., 4.], requires_grad=True)
        z = (a * b).sum()
        z.backward(inputs=[a], retain_graph=True)
        r = [a.grad, b.grad]
        z.backward(inputs=b)
        r += [a.grad, b.grad]
        return r
    same(prog)


def test_backward_inputs_non_leaf():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        y = a * 2
        z = (y * y).sum()
        z.backward(inputs=[y])
        w = warns(lambda: y.grad)
        return y.grad, a.grad, y.retains_grad, w[1]
    same(prog)


def test_backward_inputs_unreached_leaf():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        c = torch.tensor([5.], requires_grad=True)
        z = (a * a).sum()
        z.backward(inputs=[a, c])
        return a.grad, c.grad
    same(prog)


def test_backward_inputs_empty_raises():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        return catch(lambda: (a * 2).sum().backward(inputs=[]))
    same(prog)


# ---------------------------------------------------------------- retain_grad / non-leaf .grad

def test_retain_grad():
    def prog(torch):
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        y = a * 2
        z = y * y
        r = [a.retains_grad, y.retains_grad]
        y.retain_grad()
        y.retain_grad()  # idempotent
        r.append(y.retains_grad)
        z.sum().backward(retain_graph=True)
        r += [y.grad, a.grad, y.grad.requires_grad]
        a.retain_grad()  # no-op on a leaf
        r.append(a.retains_grad)
        z2 = (y * 3).sum()
        z2.backward()
        r.append(y.grad)  # accumulates
        return r
    same(prog)


def test_non_leaf_grad_access_warns():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        y = a * 2
        y.sum().backward()
        g, w = warns(lambda: y.grad)
        g2, w2 = warns(lambda: a.grad)
        return g, w, w2
    got = same(prog)
    assert len(got[1]) == 1 and got[1][0][0] == "UserWarning"


def test_non_leaf_without_grad_requirement_no_warning():
    def prog(torch):
        a = torch.tensor([1., 2.])
        y = a * 2
        return warns(lambda: y.grad)
    same(prog)


def test_retain_grad_on_tensor_not_requiring_grad_raises():
    def prog(torch):
        return catch(torch.tensor([1., 2.]).retain_grad)
    same(prog, may_raise=True)


# ---------------------------------------------------------------- grad modes

def test_no_grad_context():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        with torch.no_grad():
            y = x * 2
            inside = torch.is_grad_enabled()
            z = x + 1
            z.add_(1)
        w = x * 2
        return y.requires_grad, y.grad_fn is None, y.is_leaf, inside, z, torch.is_grad_enabled(), \
            w.requires_grad
    same(prog)


def test_grad_mode_nesting():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        r = []
        with torch.no_grad():
            r.append(torch.is_grad_enabled())
            with torch.enable_grad():
                r.append(torch.is_grad_enabled())
                r.append((x * 2).requires_grad)
                with torch.no_grad():
                    r.append((x * 2).requires_grad)
                    with torch.set_grad_enabled(True):
                        r.append((x * 2).requires_grad)
                    r.append(torch.is_grad_enabled())
                r.append(torch.is_grad_enabled())
            r.append(torch.is_grad_enabled())
            with torch.set_grad_enabled(True):
                r.append(torch.is_grad_enabled())
                with torch.set_grad_enabled(False):
                    r.append((x * 2).requires_grad)
        r.append(torch.is_grad_enabled())
        return r
    same(prog)


def test_grad_mode_restored_after_exception():
    def prog(torch):
        r = []
        for cm in (torch.no_grad(), torch.set_grad_enabled(False)):
            try:
                with cm:
                    raise ValueError("boom")
            except ValueError:
                pass
            r.append(torch.is_grad_enabled())
        with torch.no_grad():
            try:
                with torch.enable_grad():
                    raise ValueError("boom")
            except ValueError:
                pass
            r.append(torch.is_grad_enabled())
        return r
    same(prog)


def test_set_grad_enabled_as_function_call():
    def prog(torch):
        x = torch.tensor([1.], requires_grad=True)
        r = []
        torch.set_grad_enabled(False)
        r.append((torch.is_grad_enabled(), (x * 2).requires_grad))
        torch.set_grad_enabled(True)
        r.append((torch.is_grad_enabled(), (x * 2).requires_grad))
        return r
    same(prog)


def test_grad_mode_decorators():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)

        @torch.no_grad()
        def f_no(t):
            return t * 2, torch.is_grad_enabled()

        @torch.no_grad
        def f_no_bare(t):
            return t * 2, torch.is_grad_enabled()

        @torch.enable_grad()
        def f_en(t):
            return t * 2, torch.is_grad_enabled()

        @torch.set_grad_enabled(False)
        def f_off(t):
            return t * 2, torch.is_grad_enabled()

        r = [torch.is_grad_enabled()]  # decorating must not change the mode
        for f in (f_no, f_no_bare, f_off):
            y, mode = f(x)
            r.append((y.requires_grad, mode, torch.is_grad_enabled()))
        with torch.no_grad():
            y, mode = f_en(x)
            r.append((y.requires_grad, mode, torch.is_grad_enabled()))
        r.append(f_no.__name__)
        return r
    same(prog)


def test_no_grad_decorator_on_generator():
    def prog(torch):
        x = torch.tensor([1.], requires_grad=True)

        @torch.no_grad()
        def gen():
            for _ in range(2):
                yield (x * 2).requires_grad, torch.is_grad_enabled()

        out = []
        for item in gen():
            out.append(item)
            out.append(torch.is_grad_enabled())
        return out
    same(prog)


def test_grad_mode_is_thread_local():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        entered, release = threading.Event(), threading.Event()
        seen = {}

        def worker():
            with torch.no_grad():
                seen["thread_inside"] = torch.is_grad_enabled()
                entered.set()
                release.wait(10)
                seen["thread_y"] = (x * 2).requires_grad

        t = threading.Thread(target=worker)
        t.start()
        entered.wait(10)
        main_mode = torch.is_grad_enabled()
        y = x * 3
        release.set()
        t.join()
        # a thread started while the main thread is in no_grad starts in grad mode
        with torch.no_grad():
            t2 = threading.Thread(target=lambda: seen.setdefault(
                "new_thread_mode", torch.is_grad_enabled()))
            t2.start()
            t2.join()
            main_in = torch.is_grad_enabled()
        y.sum().backward()
        return main_mode, y.requires_grad, seen, main_in, x.grad
    same(prog)


def test_inference_mode_basics():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        with torch.inference_mode():
            y = x * 2
            m = torch.is_grad_enabled()
        return y.requires_grad, m, torch.is_grad_enabled(), torch.is_inference_mode_enabled()
    same(prog)


# ---------------------------------------------------------------- detach / data / requires_grad_

def test_detach_shares_memory_and_version_counter():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = x * 2
        d = x.detach()
        r = [d.requires_grad, d.is_leaf, d.grad_fn is None, x._version, d._version]
        d.add_(1)
        r += [x, x._version, d._version]
        dy = y.detach()
        dy.mul_(10)
        r += [y, y._version, dy._version]
        r.append(catch(lambda: y.sum().backward()))  # MulBackward0 doesn't save y itself
        r.append(x.grad)
        return r
    same(prog)


def test_detach_then_modify_saved_tensor_detected():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = x.exp()
        y.detach().zero_()
        return catch(lambda: y.sum().backward())
    got = same(prog)
    assert isinstance(got, Raised)


def test_data_does_not_record():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        d = x.data
        r = [d.requires_grad, d.is_leaf, d.grad_fn is None]
        y = x.data * 3
        r.append(y.requires_grad)
        v0 = x._version
        x.data.mul_(2)  # allowed on a leaf that requires grad; not recorded
        r += [x, x.requires_grad, x.is_leaf, x.grad_fn is None, x._version - v0]
        z = (x * x).sum()
        z.backward()
        r.append(x.grad)
        x.data = torch.tensor([7., 8., 9.])
        r += [x, x.requires_grad, x.is_leaf]
        return r
    same(prog)


def test_requires_grad_():
    def prog(torch):
        x = torch.tensor([1., 2.])
        r = [x.requires_grad]
        ret = x.requires_grad_()
        r += [ret is x, x.requires_grad, x.is_leaf]
        x.requires_grad_(False)
        r.append(x.requires_grad)
        x.requires_grad = True
        r.append(x.requires_grad)
        y = x * 2
        r.append(catch(y.requires_grad_, False))
        r.append(y.requires_grad_(True) is y)  # setting True on a non-leaf that already requires grad
        d = y.detach().requires_grad_()
        r += [d.is_leaf, d.requires_grad]
        return r
    same(prog)


# ---------------------------------------------------------------- graph structure

def _structure(fn, leaves, depth=0):
    """(node class name, [(child structure, input nr)...]); AccumulateGrad nodes name their leaf."""
    if fn is None:
        return None
    name = type(fn).__name__
    if name == "AccumulateGrad":
        var = fn.variable
        names = [k for k, v in leaves.items() if v is var]
        return ("AccumulateGrad", names)
    return (name, [(_structure(f, leaves, depth + 1), i) for f, i in fn.next_functions])


GRAPHS = {
    "sum_mul_exp": lambda t, a, b, c: (a * b + c.exp()).sum(),
    "matmul_relu": lambda t, a, b, c: (a.reshape(1, 3) @ b.reshape(3, 1)).relu(),
    "const_operand": lambda t, a, b, c: a * t.tensor([1., 2., 3.]) + 1,
    "views": lambda t, a, b, c: a.unsqueeze(0).t().squeeze(1)[1:] * c[0],
    "mean_div_sub_neg": lambda t, a, b, c: (-(a / b) - c).mean(),
    "pow_sqrt_log": lambda t, a, b, c: (a ** 2 + b.abs().sqrt() + c.abs().log()).sum(),
    "cat_stack": lambda t, a, b, c: t.cat([a, b]).sum() + t.stack([a, c]).max(),
    "unused_b": lambda t, a, b, c: (a * 2).sigmoid().tanh().sum(),
    "clone_to": lambda t, a, b, c: a.clone().double().sum() + b.float().sum(),
    "reuse": lambda t, a, b, c: (a * a * a).sum(),
}


@pytest.mark.parametrize("name", list(GRAPHS))
def test_next_functions_structure(name):
    def prog(torch):
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        b = torch.tensor([4., -5., 6.], requires_grad=True)
        c = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
        y = GRAPHS[name](torch, a, b, c)
        s = _structure(y.grad_fn, {"a": a, "b": b, "c": c})
        return s, y.grad_fn.name()
    same(prog)


def test_accumulate_grad_variable_is_the_leaf():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        y = a * 2
        acc = y.grad_fn.next_functions[0][0]
        # the same AccumulateGrad node for every use of the leaf (while one is alive)
        z = a + 1
        return (acc.variable is a, type(acc).__name__, acc.next_functions,
                z.grad_fn.next_functions[0][0] is acc, acc.name())
    same(prog)


GRAD_FN_OPS = {
    "add": lambda t, a: a + 1, "sub": lambda t, a: a - 1, "mul": lambda t, a: a * 2,
    "div": lambda t, a: a / 2, "neg": lambda t, a: -a, "pow_scalar": lambda t, a: a ** 2,
    "exp": lambda t, a: a.exp(), "log": lambda t, a: a.log(), "sum": lambda t, a: a.sum(),
    "mean": lambda t, a: a.mean(), "t": lambda t, a: a.t(), "reshape": lambda t, a: a.reshape(4),
    "view": lambda t, a: a.view(4), "select": lambda t, a: a[0], "slice": lambda t, a: a[1:],
    "index_tensor": lambda t, a: a[t.tensor([1, 0])],
    "index_mask": lambda t, a: a[a > 2], "unsqueeze": lambda t, a: a.unsqueeze(0),
    "matmul_2d": lambda t, a: a @ a, "matmul_vec": lambda t, a: a[0] @ a[1],
    "matmul_mat_vec": lambda t, a: a @ a[0], "relu": lambda t, a: a.relu(),
    "sigmoid": lambda t, a: a.sigmoid(), "tanh": lambda t, a: a.tanh(), "abs": lambda t, a: a.abs(),
    "sqrt": lambda t, a: a.sqrt(), "sin": lambda t, a: a.sin(), "cos": lambda t, a: a.cos(),
    "clone": lambda t, a: a.clone(), "transpose": lambda t, a: a.transpose(0, 1),
    "permute": lambda t, a: a.permute(1, 0), "expand": lambda t, a: a.expand(2, 2, 2),
    "sum_dim": lambda t, a: a.sum(0), "max": lambda t, a: a.max(), "min": lambda t, a: a.min(),
    "max_dim": lambda t, a: a.max(dim=0)[0], "flatten": lambda t, a: a.flatten(),
    "squeeze": lambda t, a: a.squeeze(), "double": lambda t, a: a.double(),
    "cat": lambda t, a: t.cat([a, a]), "stack": lambda t, a: t.stack([a, a]),
    "pow_method": lambda t, a: a.pow(3), "rpow": lambda t, a: 2 ** a, "rdiv": lambda t, a: 1 / a,
    "rsub": lambda t, a: 1 - a, "mm": lambda t, a: a.mm(a), "matmul_method": lambda t, a: a.matmul(a),
    "mean_dim": lambda t, a: a.mean(1), "where": lambda t, a: t.where(a > 2, a, a * 0),
    "mT": lambda t, a: a.mT, "T": lambda t, a: a.T, "div_tensor": lambda t, a: a.div(a),
    "mul_tensor": lambda t, a: a.mul(a), "pow_tensor": lambda t, a: a ** a,
    "unbind": lambda t, a: a.unbind(0)[1], "swapaxes": lambda t, a: a.swapaxes(0, 1),
    "view_as": lambda t, a: a.view_as(a), "expand_as": lambda t, a: a[0].expand_as(a),
    "reshape_as": lambda t, a: a.reshape_as(a), "contiguous_t": lambda t, a: a.t().contiguous(),
    "true_divide": lambda t, a: t.true_divide(a, 2), "float_to_half": lambda t, a: a.half(),
}


@pytest.mark.parametrize("op", list(GRAD_FN_OPS))
def test_grad_fn_name(op):
    def prog(torch):
        a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = GRAD_FN_OPS[op](torch, a)
        return y.grad_fn.name(), type(y.grad_fn).__name__, y.requires_grad, y.is_leaf
    same(prog)


NONE_INDEX_PROGRAM = """
import gc, sys
import importlib
torch = importlib.import_module(sys.argv[1])
a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
for i in range(20):
    b = a * 2
    for y in (a[None], b[None], b[None, 0], b[:, None], b[..., None]):
        print(y.grad_fn.name(), tuple(y.shape), y.tolist())
    (b[None] * 3).sum().backward()
    del y, b
    gc.collect()
print(a.grad.tolist())
"""


def test_index_with_none_in_subprocess():
    """Indexing with None (new axis) on tensors that require grad; in a subprocess
    because it has crashed the interpreter."""
    import os
    import subprocess
    import sys
    from _subprocess import CWD, child_env
    out = {}
    for mod in ("torch", "autograd_core"):
        p = subprocess.run([sys.executable, "-c", NONE_INDEX_PROGRAM, mod], cwd=CWD, env=child_env(),
                           capture_output=True, text=True, timeout=120)
        out[mod] = (p.returncode, p.stdout, p.stderr[-2000:])
    assert out["torch"][0] == 0, out["torch"]
    assert out["autograd_core"][0] == 0, f"autograd_core exited with {out['autograd_core'][0]}:\n" \
        f"{out['autograd_core'][2]}"
    assert out["autograd_core"][1] == out["torch"][1]


def test_grad_fn_metadata_and_no_next_for_leaf_only():
    def prog(torch):
        a = torch.tensor([1.], requires_grad=True)
        b = torch.tensor([2.])
        y = a * b
        return [(type(f).__name__ if f is not None else None, i) for f, i in y.grad_fn.next_functions]
    same(prog)


# ---------------------------------------------------------------- autograd.grad

def test_autograd_grad_basics():
    def prog(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        w = torch.tensor([0.5, 0.5, 2.], requires_grad=True)
        y = (x * x * w).sum()
        gx, gw = torch.autograd.grad(y, [x, w])
        r = [gx, gw, x.grad, w.grad, gx.requires_grad]
        y2 = x * 3
        r.append(torch.autograd.grad(y2, x, grad_outputs=torch.ones(3)))
        r.append(torch.autograd.grad([(x * 2).sum(), (x * x).sum()], x))
        r.append(type(torch.autograd.grad((x * 2).sum(), x)).__name__)
        return r
    same(prog)


def test_autograd_grad_unused_input():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        u = torch.tensor([3.], requires_grad=True)
        r = [catch(torch.autograd.grad, (x * 2).sum(), [x, u])]
        r.append(torch.autograd.grad((x * 2).sum(), [x, u], allow_unused=True))
        r.append(torch.autograd.grad((x * 2).sum(), [x, u], allow_unused=True, materialize_grads=True))
        return r
    same(prog)


def test_autograd_grad_non_leaf_input():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        y = x * x
        z = (y * 3).sum()
        return torch.autograd.grad(z, y), x.grad, y.grad_fn.name()
    same(prog)


def test_second_derivative_create_graph():
    def prog(torch):
        x = torch.tensor([1., 2., -3.], requires_grad=True)
        y = (x ** 3 + x.exp() * x).sum()
        g, = torch.autograd.grad(y, x, create_graph=True)
        r = [g, g.requires_grad, g.grad_fn is None]
        g2, = torch.autograd.grad(g.sum(), x, create_graph=True)
        r.append(g2)
        g3, = torch.autograd.grad(g2.sum(), x)
        r.append(g3)
        return r
    same(prog)


def test_second_derivative_mixed():
    def prog(torch):
        x = torch.tensor([1.5], requires_grad=True)
        w = torch.tensor([-0.5], requires_grad=True)
        y = (x * x * w + (x * w).sigmoid() + (x / w).tanh()).sum()
        gx, gw = torch.autograd.grad(y, [x, w], create_graph=True)
        h = torch.autograd.grad(gx.sum(), [x, w])
        return gx, gw, h
    same(prog)


def test_grad_without_create_graph_is_not_differentiable():
    def prog(torch):
        x = torch.tensor([2.], requires_grad=True)
        g, = torch.autograd.grad((x ** 2).sum(), x)
        return g.requires_grad, g.grad_fn is None
    same(prog)


def test_backward_create_graph_grad_is_differentiable():
    def prog(torch):
        x = torch.tensor([1., 2.], requires_grad=True)
        y = (x ** 3).sum()
        _, w = warns(lambda: y.backward(create_graph=True))
        g = x.grad
        r = [g, g.requires_grad, g.grad_fn is None, [c for c, _ in w]]
        h, = torch.autograd.grad(g.sum(), x, retain_graph=True)
        r.append(h)
        x.grad = None
        g.sum().backward()
        r.append(x.grad)
        return r
    same(prog)


# ---------------------------------------------------------------- version counter / in-place

def test_version_counter_increments():
    def prog(torch):
        x = torch.tensor([1., 2., 3., 4.])
        r = [x._version]
        x.add_(1)
        r.append(x._version)
        x.mul_(2)
        x.sub_(1)
        x.div_(2)
        r.append(x._version)
        x.zero_()
        x.fill_(3.)
        r.append(x._version)
        x[0] = 5.
        r.append(x._version)
        x[1:3] = torch.tensor([7., 8.])
        r.append(x._version)
        x.copy_(torch.ones(4))
        r.append(x._version)
        x += 1
        x *= 2
        x -= 1
        x /= 3
        r.append(x._version)
        v = x[1:]
        v.add_(1)
        r += [x._version, v._version]
        y = x + 1  # out-of-place: no bump
        r += [x._version, y._version]
        x.view(2, 2).mul_(2)
        r.append(x._version)
        return r
    same(prog)


def test_inplace_on_saved_tensor_then_backward_raises():
    prefix = "one of the variables needed for gradient computation has been modified by an inplace operation"

    def prog(torch):
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        b = a.exp()  # ExpBackward0 saves its result
        b.add_(1)
        return catch(lambda: b.sum().backward())
    want, got = prog(torch), prog(autograd_core)
    assert want.type == "RuntimeError" and want.message.startswith(prefix), want
    assert got.type == "RuntimeError" and got.message.startswith(prefix), got


INPLACE_SAVED = {
    "exp_result": lambda torch, a, w: (lambda b: (b.mul_(2), b.sum()))(a.exp()),
    "mul_operand": lambda torch, a, w: (lambda b: (lambda y: (b.add_(1), y.sum()))(b * w))(a * 1),
    "sigmoid_result": lambda torch, a, w: (lambda b: (b.zero_(), b.sum()))(a.sigmoid()),
    "pow_base": lambda torch, a, w: (lambda b: (lambda y: (b.sub_(1), y.sum()))(b ** 2))(a + 0),
    "leaf_operand_via_data_free": lambda torch, a, w: (lambda y: (w.detach().mul_(3), y.sum()))(a * w),
    "matmul_operand": lambda torch, a, w: (lambda b: (lambda y: (b.div_(2), y))(b @ w))(a * 2),
}


@pytest.mark.parametrize("name", list(INPLACE_SAVED))
def test_inplace_on_saved_tensor_message(name):
    """The whole message (tensor type, shape, node, versions) equals torch's."""
    def prog(torch):
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        w = torch.tensor([4., 5., 6.], requires_grad=True)
        _, out = INPLACE_SAVED[name](torch, a, w)
        return catch(out.backward)
    got = same(prog)
    assert isinstance(got, Raised)


def test_inplace_on_unsaved_tensor_is_fine():
    def prog(torch):
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        b = a + 1  # AddBackward0 saves nothing
        c = b * 2  # MulBackward0 with a scalar doesn't save b
        b.add_(1)
        c.sum().backward()
        return a.grad, b, c
    same(prog)


def test_inplace_on_non_leaf_recorded():
    def prog(torch):
        a = torch.tensor([1., 2., 3.], requires_grad=True)
        y = a * 2
        r = [y.grad_fn.name(), y._version]
        y.add_(1)
        r += [y.grad_fn.name(), y._version, y.is_leaf]
        y.mul_(a)
        r.append(y.grad_fn.name())
        y.sub_(0.5)
        r.append(y.grad_fn.name())
        y.div_(2)
        r.append(y.grad_fn.name())
        y += a
        r.append(y.grad_fn.name())
        y *= 3
        r.append(y.grad_fn.name())
        y.sum().backward()
        r += [y, a.grad, y._version]
        return r
    same(prog)


def test_inplace_tensor_operand_requiring_grad():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        b = torch.tensor([3., 4.], requires_grad=True)
        y = a * 1
        y.mul_(b)
        y.add_(b, alpha=2)
        y.sub_(a, alpha=0.5)
        y.sum().backward()
        return y, a.grad, b.grad, y.grad_fn.name()
    same(prog)


def test_inplace_on_tensor_not_requiring_grad_with_operand_requiring_grad():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        y = torch.zeros(2)
        y.add_(a * 3)
        r = [y.requires_grad, y.is_leaf, y.grad_fn.name()]
        y.sum().backward()
        r.append(a.grad)
        return r
    same(prog)


def test_setitem_on_non_leaf_then_backward():
    def prog(torch):
        a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        b = torch.tensor([10., 20.], requires_grad=True)
        y = a * 2
        y[0] = 0.
        r = [y.grad_fn.name()]
        y[2:] = b * 3
        r.append(y.grad_fn.name())
        (y * y).sum().backward()
        r += [y, a.grad, b.grad]
        return r
    same(prog)


def test_setitem_with_mask_and_tensor_index():
    def prog(torch):
        a = torch.tensor([[1., -2.], [-3., 4.]], requires_grad=True)
        y = a.clone()
        y[y < 0] = 0.
        y[torch.tensor([1])] = y[torch.tensor([1])] * 5
        y.sum().backward()
        return y, a.grad
    same(prog)


def test_setitem_on_leaf_view_chain():
    def prog(torch):
        a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        y = a + 0
        v = y[1]
        v.mul_(10)  # in-place on a view of a non-leaf rewrites the base's history
        r = [y.grad_fn.name(), v.grad_fn.name(), y]
        y.sum().backward()
        r.append(a.grad)
        return r
    same(prog)


def test_inplace_on_leaf_allowed_under_no_grad():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        with torch.no_grad():
            a.mul_(2)
            a[0] = 10.
        r = [a, a.requires_grad, a.is_leaf, a.grad_fn is None, a._version]
        (a * a).sum().backward()
        r.append(a.grad)
        return r
    same(prog)


def test_leaf_modified_after_use_detected():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        b = torch.tensor([3., 4.], requires_grad=True)
        y = (a * b).sum()
        with torch.no_grad():
            a.add_(1)
        return catch(y.backward)
    got = same(prog)
    assert isinstance(got, Raised)


# ---------------------------------------------------------------- hooks (basic)

def test_tensor_hooks():
    def prog(torch):
        a = torch.tensor([1., 2.], requires_grad=True)
        seen = []
        h = a.register_hook(lambda g: seen.append(g.clone()) or g * 2)
        y = a * 3
        y.register_hook(lambda g: g + 1)
        y.sum().backward()
        h.remove()
        a.grad = None
        (a * 3).sum().backward()
        return seen, a.grad
    same(prog)


# ----------------------------------------------- engine corner cases
def _t(torch, v, rg=True):
    return torch.tensor(v, dtype=torch.float64, requires_grad=rg)


def test_grad_input_on_the_path_to_another_input():
    def prog(torch):
        x = _t(torch, [1.0, 2.0])
        a = x * 1
        b = a * 3
        return torch.autograd.grad((a + b).sum(), (b, a))   # torch: (1, 4)
    same(prog)


def test_backward_inputs_leaf_and_its_non_leaf_result():
    def prog(torch):
        t0 = _t(torch, [[-0.5, -0.75, -1.5]])
        t1 = torch.abs(t0)
        t0.sum().backward(inputs=[t0, t1], retain_graph=True)
        return t0.grad, t1.retains_grad, t1.grad
    same(prog, quiet=True)


def test_grad_retained_root_with_unreachable_input():
    def prog(torch):
        t0 = _t(torch, [0.5, 2.0])
        t2 = t0 * 3
        t2.retain_grad()
        other = _t(torch, [1.0])
        r = torch.autograd.grad(t2, [other], torch.ones_like(t2), allow_unused=True)
        return r, t2.grad
    same(prog)


def test_leaf_detach__after_use():
    def prog(torch):
        t2 = _t(torch, [0.1, 1.25, -0.5])
        t4 = torch.where(t2 > 0, t2, t2)
        t2.detach_()
        t4.sum().backward()
        return t2.grad, t2.requires_grad
    same(prog)


def test_second_backward_through_freed_index_put():
    def prog(torch):
        b = _t(torch, [0.5, 1.5, 2.5])
        c = torch.zeros(3, dtype=torch.float64)
        c[[1, 2]] = b[[1, 1]]
        c.backward(torch.ones(3, dtype=torch.float64))
        c.backward(torch.ones(3, dtype=torch.float64))
    same(prog, must_raise=True)


def test_deep_reentrant_backward():
    def prog(torch):
        class Deep(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                with torch.enable_grad():
                    ctx.x = x.detach().requires_grad_() - 1
                return ctx.x.detach()

            @staticmethod
            def backward(ctx, g):
                if ctx.x < 0:
                    return g
                with torch.enable_grad():
                    Deep.apply(ctx.x).sum().backward()
                return g

        v = torch.tensor(2000.0, requires_grad=True)
        Deep.apply(v).sum().backward()
        return v.grad
    same(prog)


def test_grad_fn_call_arity():
    def prog(torch):
        y = torch.ones(1, requires_grad=True) ** 2
        y.grad_fn()
    same(prog, must_raise=True)


def test_index_put_node_released_before_accumulating():
    # IndexPutBackward0 saves the indices: a second backward raises at it, before the
    # value's leaf accumulates anything
    def prog(torch):
        t0 = torch.tensor([[-1.0, -1.5]], dtype=torch.float64, requires_grad=True)
        t1 = torch.maximum(t0, t0)
        t3 = torch.tensor([1.0, -1.7], dtype=torch.float64, requires_grad=True)
        t1[0:, [0, 1]] = t3
        t1.sum().backward()
        try:
            (t1.sum() + t3.sum()).backward()
        except RuntimeError as e:
            return str(e), t3.grad, t0.grad
    same(prog)


@pytest.mark.parametrize("case", ["select", "slice", "adv", "whole", "copy_", "mul_view"])
def test_second_backward_through_a_written_region(case):
    # CopySlices drops the node it wraps when freed: a second backward raises there even
    # when nothing else on the path saved anything (the fill_ of the whole tensor has no
    # CopySlices)
    def prog(torch):
        v = _t(torch, [1.0, 2.0])
        t = torch.zeros(3, dtype=torch.float64)
        {"select": lambda: t.__setitem__(0, v[0]), "slice": lambda: t.__setitem__(slice(0, 2), v),
         "adv": lambda: t.__setitem__([0, 1], v), "whole": lambda: t.__setitem__(Ellipsis, v[0]),
         "copy_": lambda: t[0:2].copy_(v), "mul_view": lambda: t[0:2].mul_(v)}[case]()
        t.sum().backward()
        try:
            t.sum().backward()
        except RuntimeError as e:
            return str(e), v.grad
        return v.grad
    same(prog)


def test_leaf_moved_into_the_graph_interior():
    def prog(torch):
        t0 = _t(torch, [1.5, -1.25])
        t1 = _t(torch, [-2.0, 1.0])
        t3 = t0.exp()
        t0.detach_()
        t0 += t1
        (t0.sum() + t3.sum()).backward()
    same(prog, must_raise=True)


def test_engine_sum_to_0d_is_not_a_view():
    # the gradient of a 0-d input reached by broadcasting is sum()'s, not a view made under
    # no_grad, so writing into it with grad mode on is allowed
    def prog(torch):
        t0 = _t(torch, [[-1.25, 0.1, -1.0], [0.6, 1.25, 0.1]])
        t6 = _t(torch, 0.15)
        t7 = torch.addcmul(t0, t0, t6, value=0.5)
        g8, g9 = torch.autograd.grad(t7.sum(), [t0, t6])
        g9.copy_(t0.mean())
        return g9
    same(prog)


def test_grad_self_assignment():
    def prog(torch):
        x = torch.ones(2)
        x.grad = x
    same(prog, must_raise=True)


def test_backward_inputs_ancestor_of_another_input():
    def prog(torch):
        t0 = _t(torch, [1.7, -1.0])
        t2 = torch.erf(t0)
        t2.sum().backward(inputs=[t0, t2], retain_graph=True)
        return t0.grad
    same(prog, quiet=True)


def test_create_graph_grad_of_empty_then_mask_setitem():
    """An empty view's gradient is a constant (as_strided_backward's zeros): a value
    written into it through a mask gets a gradient without history (fuzzer seed 7275)."""
    def prog(torch):
        t0 = torch.zeros(2, 0, dtype=torch.float64, requires_grad=True)
        g1, = torch.autograd.grad(t0.sum(), [t0], retain_graph=True, create_graph=True,
                                  allow_unused=True)
        t2 = g1[...]
        t4 = torch.tensor(-0.9, dtype=torch.float64, requires_grad=True)
        g1[g1 > 0] = t4
        (t2 * t2).sum().backward(create_graph=True)
        return t4.grad, t4.grad.requires_grad, t4.grad.grad_fn
    same(prog, quiet=True)


def test_empty_as_strided_gradient_has_no_history():
    def prog(torch):
        x = _t(torch, [1.0, 2.0, 3.0])
        y = x.as_strided((0, 2), (1, 1))
        (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        return g, g.requires_grad
    same(prog)


def test_sum_to_of_leading_dims_is_a_view():
    """A gradient summed over leading broadcast dims is a view of the keepdim sum (PyTorch's
    sum_to), also when no graph is recorded: detach_ refuses it (fuzzer seed 312612)."""
    def grad(torch):
        t0 = torch.tensor([[[-0.5, -0.5, 0.6]], [[-1.25, 0.1, 1.0]]], dtype=torch.float64)
        t1 = torch.tensor([1.5, -0.9, -0.9], dtype=torch.float64, requires_grad=True)
        t2 = torch.mul(t0, t1)
        return torch.autograd.grad(t2.sum(), [t1], create_graph=True)[0]
    same(lambda torch: [grad(torch), grad(torch)._is_view(), grad(torch).requires_grad])
    same_error(lambda torch: grad(torch).detach_())


# --------------------------------------------------- execution order
def test_error_nodes_run_as_soon_as_ready():
    # PyTorch's Error nodes (once_differentiable under create_graph, NotImplemented) have
    # the largest sequence number, as AccumulateGrad: the engine runs them when ready,
    # so a later-made branch has not reached its leaf when they raise (fuzzer seed
    # 16010629)
    def prog(m):
        class OnceExp(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x.exp()
                ctx.save_for_backward(y)
                return y

            @staticmethod
            @m.autograd.function.once_differentiable
            def backward(ctx, g):
                y, = ctx.saved_tensors
                return g * y

        x = m.tensor([-2.0, -0.25, 1.7], dtype=m.float64, requires_grad=True)
        g, = m.autograd.grad((OnceExp.apply(x) ** 2).sum(), x, create_graph=True)
        later = m.tensor([0.1, 0.9], dtype=m.float64, requires_grad=True)
        r = [g.grad_fn._sequence_nr()]
        try:
            (g.sum() + (later * 2).exp().sum()).backward()
        except RuntimeError as e:
            r.append(str(e))
        y = m.floor_divide(x, 2)
        r += [y.grad_fn._sequence_nr(), later.grad]
        try:
            (y.sum() + (later * 3).exp().sum()).backward()
        except RuntimeError as e:
            r.append(str(e))
        return r + [later.grad]

    same(prog)
