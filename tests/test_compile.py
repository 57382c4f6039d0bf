"""Compiled mode (Note [Compiled mode], autograd_core/_dynamo/__init__.py): torch.compile's
surface as PyTorch's, recordings replayed with the values, gradients, graphs and random
streams of eager mode (and of PyTorch's torch.compile(backend="eager")), guards that
record again, the recompile limit, and graph breaks that run eagerly (or raise with
fullgraph=True)."""
import logging
import random
import sys

import pytest

import autograd_core
from _diff import Raised, catch, graph_desc, same, same_error

torch = pytest.importorskip("torch")

from autograd_core._dynamo import eval_frame as _ef  # noqa: E402


@pytest.fixture(autouse=True)
def _reset():
    # PyTorch's dynamo turns off torch.distributions' argument validation process-wide
    # when it compiles: later test files rely on the default
    validate = torch.distributions.Distribution._validate_args
    autograd_core._dynamo.reset()
    torch._dynamo.reset()
    yield
    autograd_core._dynamo.reset()
    torch._dynamo.reset()
    torch.distributions.Distribution.set_default_validate_args(validate)


def _recordings(fn):
    """How many recordings compiled mode holds for fn's code, and whether it broke."""
    code = getattr(fn, "__code__", fn)
    c = _ef._CACHES.get(code)
    return (0 if c is None else c.count), code in _ef._BROKEN


def _runs_python(compiled, code, *args):
    """Whether a call of compiled enters the Python code object code."""
    seen = []

    def prof(frame, event, arg):
        if event == "call" and frame.f_code is code:
            seen.append(1)
    sys.setprofile(prof)
    try:
        compiled(*args)
    finally:
        sys.setprofile(None)
    return bool(seen)


# ------------------------------------------------------------------ the public surface

def test_surface_names():
    t = autograd_core
    assert callable(t.compile) and callable(t.compiler.disable)
    assert t.compiler.is_compiling() is False and t.compiler.is_dynamo_compiling() is False
    assert t._dynamo.config.recompile_limit == torch._dynamo.config.recompile_limit
    assert t._dynamo.config.cache_size_limit == t._dynamo.config.recompile_limit
    assert t._dynamo.config.accumulated_recompile_limit == \
        torch._dynamo.config.accumulated_recompile_limit
    assert t._dynamo.list_backends() == torch._dynamo.list_backends()
    assert issubclass(t._dynamo.exc.Unsupported, RuntimeError)


def test_cache_size_limit_is_an_alias():
    cfg = autograd_core._dynamo.config
    old = cfg.recompile_limit
    try:
        cfg.cache_size_limit = 3
        assert cfg.recompile_limit == 3 and cfg.cache_size_limit == 3
    finally:
        cfg.recompile_limit = old


@pytest.mark.parametrize("kwargs", [dict(backend="nope"), dict(mode="fast"),
                                    dict(mode="default", options={})])
def test_bad_arguments(kwargs):
    want, got = same_error(lambda mod: mod.compile(lambda x: x.sin(), **kwargs)(mod.ones(2)))
    if "backend" in kwargs:
        assert type(catch(lambda: autograd_core.compile(lambda x: x, backend="nope")).exc) \
            is autograd_core._dynamo.exc.InvalidBackend


def test_function_and_decorator_forms():
    def f(x):
        """doc"""
        return x.sin() * 2

    x = autograd_core.ones(3)
    g = autograd_core.compile(f)
    assert g.__name__ == "f" and g.__doc__ == "doc" and g.__wrapped__ is f
    h = autograd_core.compile(backend="eager", fullgraph=True)(f)
    assert h(x).tolist() == pytest.approx((x.sin() * 2).tolist())

    @autograd_core.compile
    def k(x):
        return x + 1
    assert k(x).tolist() == [2.0] * 3
    assert autograd_core.compile(f, disable=True) is f


def test_optimized_module_as_pytorchs():
    def prog(mod):
        mod.manual_seed(0)
        lin = mod.nn.Linear(3, 2)
        opt = mod.compile(lin, backend="eager")
        return (type(opt).__name__, opt._orig_mod is lin, repr(opt),
                sorted(opt.state_dict()), [n for n, _ in opt.named_parameters()])
    same(prog)


def test_module_compile_in_place():
    lin = autograd_core.nn.Linear(3, 2)
    x = autograd_core.randn(4, 3)
    want = lin(x)
    lin.compile()
    assert lin._compiled_call_impl is not None
    other = autograd_core.nn.Linear(3, 2)
    other.compile()
    for _ in range(3):
        assert autograd_core.equal(lin(x), want)
        assert autograd_core.equal(other(x), other._call_impl(x))
    assert _recordings(autograd_core.nn.Module._call_impl) == (2, False)


def test_two_instances_of_one_class():
    a, b = autograd_core.nn.Linear(2, 2), autograd_core.nn.Linear(2, 2)
    ca, cb = autograd_core.compile(a), autograd_core.compile(b)
    x = autograd_core.ones(1, 2)
    for _ in range(2):
        assert autograd_core.equal(ca(x), a(x)) and autograd_core.equal(cb(x), b(x))


# ------------------------------------------------------------------ replay

def _prog_chain(mod, compiled):
    def f(x, y):
        z = (x * y).sin() + x.exp() / (y + 2)
        z = mod.tanh(z) * 0.5 - z.relu()
        return z.sum(1), z.mean()

    g = mod.compile(f, backend="eager") if compiled else f
    out = []
    for i in range(3):
        x = mod.tensor([[0.1 * i, 0.2, -0.3], [0.4, -0.5, 0.6]], requires_grad=True)
        y = mod.tensor([[1.0, -2.0, 0.5]], requires_grad=True)
        a, b = g(x, y)
        (a.sum() * 3 + b).backward()
        out.append((a, b, x.grad, y.grad, graph_desc(a.grad_fn), b.grad_fn.name()))
    return out


def test_replay_matches_eager_and_pytorch():
    same(lambda mod: _prog_chain(mod, True))
    assert _prog_chain(autograd_core, True)[2][0].tolist() == pytest.approx(
        _prog_chain(autograd_core, False)[2][0].tolist())


def test_replay_runs_no_python():
    def f(x):
        return (x.sin() + 1).exp().sum()
    g = autograd_core.compile(f)
    x = autograd_core.ones(4, requires_grad=True)
    g(x)                                        # the recording call
    assert not _runs_python(g, f.__code__, x)   # a replay
    assert _recordings(f) == (1, False)

    def b(x):
        return x * x.sum().item()
    gb = autograd_core.compile(b)
    gb(x)
    assert _runs_python(gb, b.__code__, x)      # a graph break runs eagerly
    out = autograd_core._dynamo.explain(f)(x)
    assert (out.graph_count, out.graph_break_count, out.op_count) == (1, 0, 4)


def test_replay_keeps_identity_of_returned_inputs_and_constants():
    w = autograd_core.ones(2, requires_grad=True)

    def f(x):
        return x, w, x * w

    g = autograd_core.compile(f)
    x = autograd_core.ones(2)
    for _ in range(3):
        a, b, c = g(x)
        assert a is x and b is w and c.grad_fn.name() == "MulBackward0"


def test_in_place_ops_and_views():
    def prog(mod):
        def f(x):
            y = x.clone()
            y.mul_(2)
            z = y.view(-1)
            z.add_(1)
            w = y.t()[0]
            return y, z, w.exp()
        g = mod.compile(f, backend="eager")
        res = []
        for i in range(3):
            x = mod.full((2, 2), float(i), requires_grad=True)
            y, z, w = g(x)
            (y.sum() + z.sum() + w.sum()).backward()
            res.append((y, z, w, x.grad, z._base is y, y.grad_fn.name(),
                        z.grad_fn.name(), w.grad_fn.name()))
        return res
    same(prog)


def test_many_in_place_ops_record():
    # (each in-place op restates only the tensors sharing its root: restating every known
    # tensor made this recording quadratic)
    def f(x):
        y = x * 1.0
        for _ in range(1500):
            y = y * 1.01
            y.add_(0.01)
        return y.sum()

    def prog(mod):
        g = mod.compile(f, backend="eager")
        res = []
        for i in range(2):
            x = mod.full((4,), 0.5 + i, requires_grad=True)
            out = g(x)
            out.backward()
            res.append((out, x.grad))
        return res
    same(prog)
    assert _recordings(f) == (1, False)


def test_multi_output_and_list_ops():
    def prog(mod):
        def f(x):
            a, b = x.split(2)
            c = mod.cat([a * 2, b], 0)
            return mod.stack([c, x]).sum(0), c.max(0)
        g = mod.compile(f, backend="eager")
        x = mod.arange(8.0).reshape(4, 2).requires_grad_()
        out = [g(x) for _ in range(3)]
        out[-1][0].sum().backward()
        return [(o[0], o[1].values, o[1].indices) for o in out], x.grad
    same(prog)


def test_random_streams_as_eager():
    def prog(mod, compiled):
        def f(x):
            return mod.nn.functional.dropout(x, 0.5, True) + mod.rand_like(x)
        g = mod.compile(f, backend="eager") if compiled else f
        mod.manual_seed(7)
        return [g(mod.ones(8)) for _ in range(4)]
    eager = prog(autograd_core, False)
    comp = prog(autograd_core, True)
    for a, b in zip(eager, comp):
        assert a.tolist() == b.tolist()
    assert _recordings(autograd_core.nn.functional.dropout) == (0, False)


def test_module_training_loop_matches_eager():
    def run(compiled):
        autograd_core.manual_seed(0)
        m = autograd_core.nn.Sequential(autograd_core.nn.Linear(4, 8), autograd_core.nn.ReLU(),
                                        autograd_core.nn.Dropout(0.25),
                                        autograd_core.nn.Linear(8, 3))
        opt = autograd_core.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
        f = autograd_core.compile(m) if compiled else m
        x = autograd_core.randn(16, 4)
        y = autograd_core.randint(0, 3, (16,))
        losses = []
        for step in range(6):
            opt.zero_grad()
            loss = autograd_core.nn.functional.cross_entropy(f(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, [p.detach().clone() for p in m.parameters()]
    l1, p1 = run(False)
    l2, p2 = run(True)
    assert l1 == pytest.approx(l2, rel=1e-6)
    for a, b in zip(p1, p2):
        assert autograd_core.allclose(a, b, rtol=1e-6, atol=1e-7)


def test_module_against_pytorch():
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.Sequential(mod.nn.Linear(3, 5), mod.nn.Tanh(), mod.nn.Linear(5, 2))
        with mod.no_grad():
            for i, p in enumerate(m.parameters()):
                p.copy_(mod.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) / 3)
        om = mod.compile(m, backend="eager")
        x = mod.linspace(-2, 2, 12).reshape(4, 3)
        outs = []
        for _ in range(3):
            y = om(x)
            y.pow(2).sum().backward()
            outs.append((y, graph_desc(y.grad_fn)))
        return outs, [p.grad for p in m.parameters()]
    same(prog)


# ------------------------------------------------------------------ guards and recompiles

def test_recompiles_on_shape_dtype_requires_grad_and_grad_mode():
    def f(x):
        return x * 2 + 1
    g = autograd_core.compile(f)
    x = autograd_core.ones(3)
    g(x)
    g(x)
    assert _recordings(f) == (1, False)
    cases = [autograd_core.ones(4), autograd_core.ones(3, dtype=autograd_core.float64),
             autograd_core.ones(3, requires_grad=True), autograd_core.ones(6)[::2]]
    for n, y in enumerate(cases, 2):
        r = g(y)
        assert r.tolist() == (y * 2 + 1).tolist() and r.dtype == y.dtype
        assert r.requires_grad == y.requires_grad
        assert _recordings(f) == (n, False)
    with autograd_core.no_grad():
        r = g(cases[2])
    assert not r.requires_grad and _recordings(f) == (6, False)
    r = g(cases[2])
    assert r.requires_grad and r.grad_fn.name() == "CompiledFunctionBackward"  # (the default backend fuses, as inductor)


def test_numbers_are_guarded_by_value():
    def f(x, n, flag):
        return x * n if flag else x - n
    g = autograd_core.compile(f)
    x = autograd_core.ones(2)
    assert g(x, 3, True).tolist() == [3.0, 3.0]
    assert g(x, 4, True).tolist() == [4.0, 4.0]
    assert g(x, 4, False).tolist() == [-3.0, -3.0]
    assert g(x, 4.0, True).tolist() == [4.0, 4.0]
    assert _recordings(f) == (4, False)


SCALE = 2.0


def test_globals_and_closures_are_guarded():
    global SCALE

    def f(x):
        return x * SCALE
    g = autograd_core.compile(f)
    x = autograd_core.ones(2)
    try:
        assert g(x).tolist() == [2.0, 2.0]
        SCALE = 5.0
        assert g(x).tolist() == [5.0, 5.0]
    finally:
        SCALE = 2.0
    k = 3.0

    def h(x):
        return x + k
    gh = autograd_core.compile(h)
    assert gh(x).tolist() == [4.0, 4.0]
    k = 10.0
    assert gh(x).tolist() == [11.0, 11.0]


def test_closures_of_one_code_object_guard_their_own_cells():
    # two closures made by one def share the code object's cache (as PyTorch's, keyed by
    # code object); a guard on a closure variable reads the CALLER's cell, as PyTorch's
    # L['k'] reads the frame: here the second closure replayed the first's recording
    # (its cell's value, 2.0) and returned x * 2 where eager gives x * 3
    def make(k):
        def f(x):
            return x * k
        return f
    results, counts = [], []
    for lib in (torch, autograd_core):
        x = lib.ones(2)
        out = []
        for k in (2.0, 3.0, 2.0):
            g = lib.compile(make(k), backend="aot_eager")
            out.append([g(x).tolist() for _ in range(3)])
        results.append(out)
        # (a new closure holding an equal value replays the matching recording)
        counts.append(len(next(iter(_ef._CACHES.values()))[1].entries.popitem()[1])
                      if lib is autograd_core else None)
    assert results[1] == results[0] == [[[2.0, 2.0]] * 3, [[3.0, 3.0]] * 3, [[2.0, 2.0]] * 3]
    assert counts[1] == 2


def test_module_state_is_guarded():
    m = autograd_core.nn.Sequential(autograd_core.nn.Linear(3, 3), autograd_core.nn.Dropout(0.5))
    om = autograd_core.compile(m)
    x = autograd_core.ones(2, 3)
    m.eval()
    a = om(x)
    assert a.tolist() == m(x).tolist()
    m.train()
    autograd_core.manual_seed(1)
    b = om(x)
    autograd_core.manual_seed(1)
    assert b.tolist() == m(x).tolist()
    m.eval()
    assert om(x).tolist() == a.tolist()
    # a parameter replaced, a forward hook added: recorded again
    m[0].weight = autograd_core.nn.Parameter(autograd_core.zeros(3, 3))
    assert om(x).tolist() == m(x).tolist()
    m[0].register_forward_hook(lambda mod, inp, out: out * 0 + 7)
    assert om(x).tolist() == [[7.0] * 3] * 2


def test_recompile_limit_warning_then_eager(caplog):
    def f(x, n):
        return x * n
    g = autograd_core.compile(f)
    x = autograd_core.ones(2)
    with caplog.at_level(logging.WARNING, logger="autograd_core._dynamo.convert_frame"):
        for n in range(12):
            assert g(x, n).tolist() == [float(n)] * 2
    assert _recordings(f) == (8, False)
    msgs = [r.getMessage() for r in caplog.records]
    assert len(msgs) == 1
    assert msgs[0].startswith("autograd_core._dynamo hit config.recompile_limit (8)\n"
                              "   function: 'f' (")
    assert "   last reason: 0/0: L['n'] == 7\n" in msgs[0]
    assert 'To log all recompilation reasons, use TORCH_LOGS="recompiles".' in msgs[0]
    # recorded calls still replay
    assert g(x, 3).tolist() == [3.0, 3.0]


def test_recompile_limit_reason_names_the_tensor(caplog):
    cfg = autograd_core._dynamo.config
    old = cfg.recompile_limit
    cfg.recompile_limit = 1
    try:
        def f(x):
            return x + 1
        g = autograd_core.compile(f)
        with caplog.at_level(logging.WARNING, logger="autograd_core._dynamo.convert_frame"):
            g(autograd_core.ones(2))
            assert g(autograd_core.ones(3)).tolist() == [2.0] * 3
        assert "last reason: 0/0: tensor L['x'] size mismatch at index 0. expected 2, actual 3" \
            in caplog.records[0].getMessage()
    finally:
        cfg.recompile_limit = old


# ------------------------------------------------------------------ graph breaks

LOG = []
COUNTER = 0


class Holder:
    pass


HOLDER = Holder()


def _gb_branch(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


def _gb_item(x):
    return x * x.sum().item()


def _gb_tolist(x):
    return x + len([v for v in x.tolist() if v > 0])


def _gb_print(x):
    print("value", x.shape)
    return x + 1


def _gb_append(x):
    LOG.append(x.shape[0])
    return x + 1


def _gb_global(x):
    global COUNTER
    COUNTER += 1
    return x + COUNTER


def _gb_setattr(x):
    HOLDER.last = x
    return x + 1


def _gb_randn(x):
    return x + autograd_core.randn(x.shape)


def _gb_foreign(x):
    return x + random.random()


def _gb_requires_grad(x):
    y = x * 2
    y.detach_() if False else None
    z = x.clone()
    z.requires_grad_(False) if z.requires_grad else None
    return y, z


def _gb_detach(x):
    return x.detach() * 2


BREAKS = [_gb_branch, _gb_item, _gb_tolist, _gb_print, _gb_append, _gb_global, _gb_setattr,
          _gb_randn, _gb_foreign, _gb_detach]


@pytest.mark.parametrize("fn", BREAKS, ids=[f.__name__ for f in BREAKS])
def test_graph_break_runs_eagerly(fn, capsys):
    global COUNTER
    LOG.clear()
    COUNTER = 0
    g = autograd_core.compile(fn)
    xs = [autograd_core.tensor([1.0, -2.0, 3.0]), autograd_core.tensor([-1.0, -2.0, -3.0]),
          autograd_core.tensor([0.5, 0.5, 0.5])]
    autograd_core.manual_seed(3)
    random.seed(3)
    got = [g(x) for x in xs]
    out_c = capsys.readouterr().out
    state_c = (list(LOG), COUNTER, getattr(HOLDER, "last", None) is xs[-1])
    LOG.clear()
    COUNTER = 0
    HOLDER.__dict__.clear()
    autograd_core.manual_seed(3)
    random.seed(3)
    want = [fn(x) for x in xs]
    out_e = capsys.readouterr().out
    state_e = (list(LOG), COUNTER, getattr(HOLDER, "last", None) is xs[-1])
    for a, b in zip(got, want):
        assert a.tolist() == b.tolist()
    assert out_c == out_e and state_c == state_e
    assert _recordings(fn) == (0, True)


@pytest.mark.parametrize("fn", BREAKS, ids=[f.__name__ for f in BREAKS])
def test_fullgraph_raises_unsupported(fn, capsys):
    g = autograd_core.compile(fn, fullgraph=True)
    with pytest.raises(autograd_core._dynamo.exc.Unsupported):
        g(autograd_core.tensor([1.0, -2.0, 3.0]))
    # nothing the break would have done happened (the error comes first)
    assert capsys.readouterr().out == ""


def test_fullgraph_message_first_line_as_pytorchs():
    def prog(mod):
        def f(x):
            if x.sum() > 0:
                return x + 1
            return x
        return mod.compile(f, backend="eager", fullgraph=True)(mod.ones(2))
    want = catch(prog, torch)
    got = catch(prog, autograd_core)
    assert isinstance(want, Raised) and isinstance(got, Raised)
    assert type(got.exc).__name__ == type(want.exc).__name__ == "Unsupported"
    assert got.message.split("\n")[0] == want.message.split("\n")[0]


def test_autograd_state_changed_outside_ops_breaks():
    def f(x):
        y = x * 2
        y.retain_grad()
        return y
    g = autograd_core.compile(f)
    x = autograd_core.ones(2, requires_grad=True)
    for _ in range(2):
        y = g(x)
        y.sum().backward()
        assert y.grad.tolist() == [1.0, 1.0]
    assert _recordings(f) == (0, True)

    def h(x, w):
        loss = (x * w).sum()
        loss.backward()
        return loss
    gh = autograd_core.compile(h)
    w = autograd_core.ones(2, requires_grad=True)
    gh(x, w)
    gh(x, w)
    assert w.grad.tolist() == [2.0, 2.0] and _recordings(h) == (0, True)


def test_disable_and_reset():
    calls = []

    @autograd_core.compiler.disable
    def helper(x):
        return x * 3

    assert helper(autograd_core.ones(1)).tolist() == [3.0]

    def f(x):
        return helper(x) + 1
    g = autograd_core.compile(f)
    assert g(autograd_core.ones(2)).tolist() == [4.0, 4.0]
    assert _recordings(f) == (0, True)
    with pytest.raises(autograd_core._dynamo.exc.Unsupported):
        autograd_core.compile(f, fullgraph=True)(autograd_core.ones(2))
    autograd_core._dynamo.reset()
    assert _recordings(f) == (0, False)

    def k(x):
        return x + 1
    autograd_core.compile(k)(autograd_core.ones(2))
    assert _recordings(k) == (1, False)
    autograd_core.compiler.reset()
    assert _recordings(k) == (0, False)
    del calls


def test_is_compiling_as_pytorchs():
    def prog(mod):
        def f(x):
            return x + (1 if mod.compiler.is_compiling() else 0)
        g = mod.compile(f, backend="eager")
        return [g(mod.ones(2)) for _ in range(3)], f(mod.ones(2)), mod.compiler.is_compiling()
    same(prog)


def test_nested_compiled_functions():
    inner = autograd_core.compile(lambda x: x.sin() * 2)

    def outer(x):
        return inner(x) + 1
    g = autograd_core.compile(outer)
    x = autograd_core.ones(3)
    for _ in range(3):
        assert g(x).tolist() == pytest.approx((x.sin() * 2 + 1).tolist())
    assert _recordings(outer) == (1, False)


def test_profiler_and_autocast_calls_run_eagerly():
    def f(x):
        return (x @ x).relu()
    g = autograd_core.compile(f)
    x = autograd_core.ones(2, 2)
    g(x)
    with autograd_core.autograd.profiler.profile() as prof:
        g(x)
    assert "aten::relu" in [e.name for e in prof.function_events]
    with autograd_core.autocast("cpu", dtype=autograd_core.bfloat16):
        r = g(x)
    assert r.dtype == autograd_core.bfloat16


@pytest.mark.parametrize("name", ["autograd_core._dynamo", "autograd_core._dynamo.exc",
                                  "autograd_core._dynamo.config",
                                  "autograd_core._dynamo.eval_frame", "autograd_core.compiler"])
def test_docstring_examples_run(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_compile_docstring_examples_run():
    import doctest
    for obj in (autograd_core.compile, autograd_core.nn.Module.compile):
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        for t in finder.find(obj, globs={}):
            runner.run(t)
        assert runner.failures == 0 and runner.tries > 0


def test_grad_mode_change_inside_breaks():
    def f(x):
        with autograd_core.no_grad():
            y = x * 2
        return y + x
    g = autograd_core.compile(f)
    x = autograd_core.ones(2, requires_grad=True)
    for _ in range(2):
        r = g(x)
        assert r.grad_fn.name() == "AddBackward0"
        r.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0] and _recordings(f) == (0, True)


class _Scaled(autograd_core.nn.Module):
    FACTOR = 2.0

    def forward(self, x):
        return x * self.FACTOR


def test_class_and_instance_attributes_are_guarded():
    m = _Scaled()
    om = autograd_core.compile(m)
    x = autograd_core.ones(2)
    assert om(x).tolist() == [2.0, 2.0]
    try:
        _Scaled.FACTOR = 3.0
        assert om(x).tolist() == [3.0, 3.0]
        m.FACTOR = 5.0                      # an instance attribute shadowing the class's
        assert om(x).tolist() == [5.0, 5.0]
        m.forward = lambda x: x - 1         # a new forward on the instance
        assert om(x).tolist() == [0.0, 0.0]
    finally:
        _Scaled.FACTOR = 2.0


def _gb_equal(x):
    return x * 2 if autograd_core.equal(x, x.abs()) else x


def _gb_nonzero(x):
    return x.nonzero().shape[0] + x


def _gb_mask(x):
    return x[x > 0].sum() * len(x[x > 0])


def _gb_data_ptr(x):
    return x + (x.data_ptr() % 2)


@pytest.mark.parametrize("fn", [_gb_equal, _gb_nonzero, _gb_mask, _gb_data_ptr],
                         ids=["equal", "nonzero_shape", "bool_mask", "data_ptr"])
def test_value_dependent_python_breaks(fn):
    g = autograd_core.compile(fn)
    for x in (autograd_core.tensor([1.0, 2.0, 3.0]), autograd_core.tensor([-1.0, 2.0, -3.0]),
              autograd_core.tensor([-1.0, -2.0, -3.0])):
        assert autograd_core.equal(g(x), fn(x))
    assert _recordings(fn) == (0, True)


def test_equal_code_objects_keep_their_own_caches():
    # two exec'd programs with the same lambda at the same line have equal code
    # objects; each keeps its own recordings and recompile count (PyTorch's cache lives
    # on the code object), so the eleventh program's function still replays
    names = []
    for _ in range(11):
        env = {"torch": autograd_core}
        exec(compile("f = torch.compile(lambda u: torch.sigmoid(u) * u)", "<program>", "exec"),
             env)
        x = autograd_core.ones(3, 3, dtype=autograd_core.float64, requires_grad=True)
        names.append([type(env["f"](x).grad_fn).__name__ for _ in range(3)])
    assert names[-1] == ["MulBackward0", "CompiledFunctionBackward",
                         "CompiledFunctionBackward"], names


def _bitwise(a, b):
    import numpy as np
    return a.dtype == b.dtype and np.array_equal(a.detach().numpy(), b.detach().numpy())


def _only_entry(fn):
    (entries,) = _ef._CACHES.get(fn.__code__).entries.values()
    (e,) = entries
    return e


def test_deferred_build_replays_eagers_values_and_gradients():
    # Note [Deferred build]: a small recording builds its steps at the first replay
    def f(x, w):
        y = (x @ w).relu() * 2 + x.sum()
        return y.tanh(), y
    xs = [autograd_core.randn(3, 4) for _ in range(3)]
    w = autograd_core.randn(4, 4, requires_grad=True)
    cf = autograd_core.compile(f)
    for i, x in enumerate(xs):
        w.grad = None
        a, b = cf(x, w)
        e = _only_entry(f)
        assert (e.pending is not None) == (i == 0) and (e.steps is None) == (i == 0)
        (a.sum() + b.sum()).backward()
        g = w.grad.clone()
        w.grad = None
        ea, eb = f(x, w)
        (ea.sum() + eb.sum()).backward()
        assert _bitwise(a, ea) and _bitwise(b, eb) and _bitwise(g, w.grad)


def test_large_recording_builds_at_once():
    # (its results would stay alive until the second call: _DEFER_BYTES)
    f = lambda x: (x * 2 + 1).sum()  # noqa: E731
    x = autograd_core.zeros(3 << 20)
    cf = autograd_core.compile(f)
    assert _bitwise(cf(x), f(x))
    assert _only_entry(f).pending is None and _only_entry(f).steps is not None
    assert _bitwise(cf(x), f(x))


def test_unbuildable_output_breaks_the_graph_at_the_first_call():
    # what the (deferred) build would refuse is refused by the recording: fullgraph=True
    # raises at the first call, and the function runs eagerly from then on
    def f(x):
        return x * 2, {1, 2}
    cf = autograd_core.compile(f, fullgraph=True)
    with pytest.raises(autograd_core._dynamo.exc.Unsupported, match="returns a set"):
        cf(autograd_core.ones(2))
    cf = autograd_core.compile(f)
    for _ in range(2):
        y, st = cf(autograd_core.ones(2))
        assert st == {1, 2} and _bitwise(y, autograd_core.ones(2) * 2)
    assert _recordings(f) == (0, True)


# ------------------------------------------------------------------ directly called ops
# The replay calls matmul and cross_entropy through the op table's C entries (as it calls
# the small elementwise ops), cross_entropy only without a class weight: each variant of
# their arguments replays with eager's values and gradients, bit for bit, and PyTorch's.

@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((4,), (4, 5)), ((2, 3, 4), (4, 5)),
                                    ((3, 4), (4,)), ((2, 3, 4), (2, 4, 5))])
def test_replayed_matmul_equals_eager_and_pytorch(shapes):
    import numpy as np
    rng = np.random.default_rng(len(shapes[0]) * 3 + len(shapes[1]))
    arrays = [rng.standard_normal(s).astype("float32") for s in shapes]
    results = []
    for lib, compiled in ((autograd_core, True), (autograd_core, False), (torch, False)):
        a, b = (lib.tensor(x, requires_grad=True) for x in arrays)
        f = lib.compile(lambda a, b: (a @ b) * 2.0) if compiled else (lambda a, b: (a @ b) * 2.0)
        for _ in range(3):
            a.grad = b.grad = None
            y = f(a, b)
            y.sum().backward()
        results.append([t.detach().numpy().copy() for t in (y, a.grad, b.grad)])
    for got, eager, pt in zip(*results):
        assert got.shape == eager.shape and np.array_equal(got, eager)
        np.testing.assert_allclose(got, pt, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kw", [{}, {"reduction": "sum"}, {"reduction": "none"},
                                {"ignore_index": 1}, {"label_smoothing": 0.2},
                                {"weight": True}, {"probs": True}],
                         ids=["mean", "sum", "none", "ignore", "smoothing", "weight", "probs"])
def test_replayed_cross_entropy_equals_eager_and_pytorch(kw):
    import numpy as np
    kw = dict(kw)
    rng = np.random.default_rng(5)
    zs = rng.standard_normal((6, 4)).astype("float32")
    ws = rng.uniform(0.5, 2.0, 4).astype("float32")
    ys = rng.integers(0, 4, 6)
    ps = rng.dirichlet(np.ones(4), 6).astype("float32")
    results = []
    for lib, compiled in ((autograd_core, True), (autograd_core, False), (torch, False)):
        F = lib.nn.functional
        z = lib.tensor(zs, requires_grad=True)
        y = lib.tensor(ps) if kw.get("probs") else lib.tensor(ys)
        extra = {k: v for k, v in kw.items() if k not in ("weight", "probs")}
        if kw.get("weight"):
            extra["weight"] = lib.tensor(ws)

        def fn(z, y):
            return F.cross_entropy(z * 1.5, y, **extra)
        f = lib.compile(fn) if compiled else fn
        for _ in range(3):
            z.grad = None
            loss = f(z, y)
            loss.sum().backward()
        results.append([loss.detach().numpy().copy(), z.grad.numpy().copy()])
    for got, eager, pt in zip(*results):
        assert got.shape == eager.shape and np.array_equal(got, eager)
        np.testing.assert_allclose(got, pt, rtol=1e-5, atol=1e-6)
