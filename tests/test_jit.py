"""torch.jit on compiled mode's capture (autograd_core/jit): trace / trace_module replay a
recording on new inputs as a TorchScript trace does (frozen Python control flow, PyTorch's
TracerWarning), script runs the Python code with is_scripting() true, and TorchScript's
decorators, compared with PyTorch."""
import os
import warnings

import pytest

import autograd_core
from _diff import Raised, catch, graph_desc, same

torch = pytest.importorskip("torch")


def _tracer_warnings(w):
    return sorted({str(x.message) for x in w if x.category.__name__ == "TracerWarning"})


def _quiet_trace(mod, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return mod.jit.trace(*args, **kwargs)


def test_trace_function_replays_on_new_inputs():
    def prog(mod):
        def f(x, y):
            return (x * y).sin() + x.exp(), (x - y).relu().sum()
        t = _quiet_trace(mod, f, (mod.ones(3), mod.ones(3)))
        out = []
        for i in range(3):
            x = mod.tensor([0.5 * i, -1.0, 2.0], requires_grad=True)
            y = mod.tensor([1.0, 2.0, -0.5 * i], requires_grad=True)
            a, b = t(x, y)
            (a.sum() + b).backward()
            out.append((a, b, x.grad, y.grad, graph_desc(a.grad_fn)))
        return type(t).__name__, out
    same(prog)


def test_trace_freezes_control_flow_with_pytorchs_warning():
    def prog(mod):
        def f(x):
            if x.sum() > 0:
                return x * 2
            return x - 1
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t = mod.jit.trace(f, mod.ones(2))
        return t(mod.tensor([-1.0, -2.0])), _tracer_warnings(w), \
            [x.category.__name__ for x in w if x.category is DeprecationWarning][:1]
    same(prog)


def test_trace_item_warns_and_freezes_the_number():
    def prog(mod):
        def f(x):
            return x * x.sum().item()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t = mod.jit.trace(f, mod.ones(2))
        return t(mod.tensor([3.0, 4.0])), _tracer_warnings(w)
    same(prog)


def test_trace_constants_are_fresh_each_call():
    def prog(mod):
        def f(x):
            a = mod.zeros(2)
            a.add_(x)
            return a * mod.tensor([1.0, 2.0])
        t = _quiet_trace(mod, f, mod.ones(2))
        return [t(mod.full((2,), float(i))) for i in range(3)]
    same(prog)


def test_trace_random_ops_draw_each_call():
    def run(traced):
        def f(x):
            return autograd_core.nn.functional.dropout(x, 0.5, True) + 1
        g = _quiet_trace(autograd_core, f, autograd_core.ones(8), check_trace=False) \
            if traced else f
        autograd_core.manual_seed(5)
        return [g(autograd_core.ones(8)).tolist() for _ in range(3)]
    assert run(True) == run(False)


def test_trace_module_as_pytorchs():
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.Sequential(mod.nn.Linear(3, 4), mod.nn.Tanh(), mod.nn.Linear(4, 2))
        with mod.no_grad():
            for i, p in enumerate(m.parameters()):
                p.copy_(mod.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) / 4)
        t = _quiet_trace(mod, m, mod.ones(1, 3))
        x = mod.linspace(-1, 1, 15).reshape(5, 3)
        y = t(x)
        y.pow(2).sum().backward()
        return (type(t).__name__, [c.__name__ for c in type(t).__mro__][1:3],
                getattr(t, "0").weight is m[0].weight, y, [p.grad for p in m.parameters()],
                sorted(t.state_dict()))
    same(prog)


def test_trace_module_sees_optimizer_updates():
    m = autograd_core.nn.Linear(2, 1)
    t = _quiet_trace(autograd_core, m, autograd_core.ones(1, 2))
    opt = autograd_core.optim.SGD(m.parameters(), lr=0.5)
    x = autograd_core.ones(4, 2)
    for _ in range(3):
        opt.zero_grad()
        t(x).sum().backward()
        opt.step()
        assert autograd_core.equal(t(x), m(x))


def test_trace_module_methods():
    class M(autograd_core.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = autograd_core.nn.Linear(2, 2)

        def forward(self, x):
            return self.lin(x)

        def double(self, x):
            return self.lin(x) * 2

    m = M()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = autograd_core.jit.trace_module(m, {"forward": autograd_core.ones(1, 2),
                                               "double": autograd_core.ones(1, 2)})
    x = autograd_core.randn(3, 2)
    assert autograd_core.equal(t(x), m(x)) and autograd_core.equal(t.double(x), m.double(x))
    assert type(catch(autograd_core.jit.trace_module, m, [1]).exc) is AttributeError


def test_check_trace_warns_on_a_mismatch():
    def f(x):
        a = autograd_core.tensor([float(len(calls))])
        calls.append(1)
        return x + a
    calls = []
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        autograd_core.jit.trace(f, autograd_core.ones(1))
    assert any(str(x.message).startswith("Output nr 1. of the traced function does not match")
               for x in w if x.category is autograd_core.jit.TracerWarning)


def test_is_tracing_and_is_scripting():
    seen = []

    def f(x):
        seen.append((autograd_core.jit.is_tracing(), autograd_core.jit.is_scripting()))
        return x + 1
    _quiet_trace(autograd_core, f, autograd_core.ones(1), check_trace=False)
    autograd_core.jit.script(f)(autograd_core.ones(1))
    assert seen == [(True, False), (False, True)]
    assert not autograd_core.jit.is_tracing() and not autograd_core.jit.is_scripting()


def test_script_function_and_module():
    def prog(mod):
        @mod.jit.script
        def f(x, n: int):
            return x * n + (1 if mod.jit.is_scripting() else 0)

        class M(mod.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = mod.nn.Linear(2, 2)

            @mod.jit.export
            def double(self, x):
                return self.lin(x) * 2

            @mod.jit.ignore
            def helper(self, x):
                return x

            def forward(self, x):
                return self.helper(self.lin(x)) + 1

        mod.manual_seed(0)
        m = M()
        s = mod.jit.script(m)
        x = mod.ones(1, 2)
        return (type(f).__name__, f(mod.ones(2), 3), type(s).__name__, repr(s).split("\n")[0],
                s(x), s.double(x), s.lin.weight is m.lin.weight,
                mod.jit.script(s) is s)
    same(prog)


def test_unused_raises_in_scripted_code():
    def prog(mod):
        class M(mod.nn.Module):
            @mod.jit.unused
            def extra(self, x):
                return x + 100

            def forward(self, x):
                return self.extra(x)
        return M()(mod.ones(1)), catch(lambda: mod.jit.script(M())(mod.ones(1)))
    want = prog(torch)
    got = prog(autograd_core)
    assert got[0].tolist() == want[0].tolist() == [101.0]
    assert isinstance(want[1], Raised) and isinstance(got[1], Raised)
    assert "This Python function is annotated to be ignored and cannot be run" in want[1].message
    assert "This Python function is annotated to be ignored and cannot be run" in got[1].message
    assert isinstance(got[1].exc, RuntimeError)


def test_decorators_as_pytorchs():
    def prog(mod):
        def a(x):
            return x
        marks = []
        for deco in (mod.jit.export, mod.jit.ignore, mod.jit.ignore(drop=False)):
            def g(x):
                return x
            marks.append(deco(g)._torchscript_modifier)
        return (marks, mod.jit.annotate(list, [1]), mod.jit.Final is __import__("typing").Final,
                mod.jit.unused(a)._torchscript_modifier, mod.jit.script_if_tracing(a)(3),
                catch(mod.jit.ignore, 3))
    same(prog)


@pytest.mark.parametrize("name", ["autograd_core.jit", "autograd_core.jit._trace",
                                  "autograd_core.jit._script"])
def test_docstring_examples_run(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_deprecation_warnings_as_pytorchs():
    def ident(x):
        return x

    def prog(mod):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mod.jit.script(ident)
            mod.jit.trace(lambda x: x + 1, mod.ones(1), check_trace=False)
        return sorted({str(x.message) for x in w if x.category is DeprecationWarning})
    same(prog)


def test_deprecation_warnings_come_from_the_library_as_pytorchs():
    # the default filters show a DeprecationWarning only when __main__ triggers it: PyTorch's
    # are raised inside torch/jit, so a program prints none of them
    def prog(mod):
        m = mod.nn.Linear(2, 2)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mod.jit.trace(m, mod.ones(1, 2))
            mod.jit.trace_module(m, {"forward": mod.ones(1, 2)})
            mod.jit.script(m)
        return sorted({(os.path.basename(x.filename), str(x.message))
                       for x in w if x.category is DeprecationWarning})
    same(prog)
