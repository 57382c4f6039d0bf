"""torch.utils.checkpoint against PyTorch: gradients of checkpointed blocks (an MLP, a
transformer encoder layer with dropout) equal the uncheckpointed ones and torch's, for
both variants; dropout draws the same mask when recomputed (preserve_rng_state);
nested checkpoints, checkpoint_sequential, context_fn, early stop, GraphExecGroup;
warnings and errors with PyTorch's messages; the engine extras (queue_callback,
region_activation_memory_budget) and the small helpers of the module."""
import contextlib
import importlib
import warnings

import pytest

from _diff import data, same, same_error

VARIANTS = [True, False]


def ck(mod):
    return importlib.import_module(mod.__name__ + ".utils.checkpoint")


def _fill(mod, module, seed=100):
    with mod.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(data(mod, *p.shape, seed=seed + i, lo=-0.5, hi=0.5, dtype="float32"))
    return module


def _mlp(torch, depth=4, width=16):
    layers = []
    for _ in range(depth):
        layers += [torch.nn.Linear(width, width), torch.nn.Tanh()]
    return _fill(torch, torch.nn.Sequential(*layers))


def _grads(module, *inputs):
    return [p.grad for p in module.parameters()] + [x.grad for x in inputs]


def _zero(module, *inputs):
    for p in module.parameters():
        p.grad = None
    for x in inputs:
        x.grad = None


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_mlp_gradients_equal_uncheckpointed_and_torch(use_reentrant):
    def prog(torch):
        model = _mlp(torch)
        x = data(torch, 8, 16, dtype="float32", requires_grad=True)
        model(x).pow(2).sum().backward()
        plain = _grads(model, x)
        _zero(model, x)
        out = ck(torch).checkpoint(model, x, use_reentrant=use_reentrant)
        out.pow(2).sum().backward()
        return out, plain, _grads(model, x)
    out, plain, checked = same(prog)
    for a, b in zip(plain, checked):
        assert (a - b).abs().max().item() < 1e-6


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_transformer_block_with_dropout(use_reentrant):
    """A transformer encoder layer in training mode (dropout inside): the recomputation
    draws the forward's masks, so gradients equal the uncheckpointed ones (same seed)
    and torch's (same random streams)."""
    def prog(torch):
        layer = _fill(torch, torch.nn.TransformerEncoderLayer(
            d_model=8, nhead=2, dim_feedforward=16, dropout=0.3, batch_first=True))
        layer.train()
        x = data(torch, 2, 5, 8, dtype="float32", requires_grad=True)
        torch.manual_seed(7)
        layer(x).sum().backward()
        plain = _grads(layer, x)
        _zero(layer, x)
        torch.manual_seed(7)
        out = ck(torch).checkpoint(layer, x, use_reentrant=use_reentrant)
        out.sum().backward()
        return out, plain, _grads(layer, x)
    out, plain, checked = same(prog, atol=1e-5)
    for a, b in zip(plain, checked):
        assert (a - b).abs().max().item() < 1e-5


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_dropout_preserve_rng_state(use_reentrant):
    """With preserve_rng_state=True the recomputed mask is the forward's (gradient =
    mask * 2); with False the recomputation draws the next numbers, as in PyTorch."""
    def prog(torch):
        x = torch.ones(64, requires_grad=True)

        def f(t):
            return torch.nn.functional.dropout(t, 0.5, training=True)

        res = []
        for preserve in (True, False):
            x.grad = None
            torch.manual_seed(3)
            out = ck(torch).checkpoint(f, x, use_reentrant=use_reentrant,
                                       preserve_rng_state=preserve)
            out.sum().backward()
            res.append((out, x.grad, bool((x.grad == out).all())))
        # the generator's state after backward: recomputation under preserve_rng_state
        # does not advance it
        torch.manual_seed(3)
        out = ck(torch).checkpoint(f, x, use_reentrant=use_reentrant)
        out.sum().backward()
        res.append(torch.rand(3))
        return res
    res = same(prog)
    assert res[0][2] and not res[1][2]


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_checkpoint_sequential_segments(use_reentrant):
    def prog(torch):
        model = _mlp(torch, depth=5, width=6)
        x = data(torch, 3, 6, dtype="float32", requires_grad=True)
        res = []
        for segments in (1, 2, 3, 10):
            _zero(model, x)
            out = ck(torch).checkpoint_sequential(model, segments, x,
                                                  use_reentrant=use_reentrant)
            out.sum().backward()
            res.append((out, _grads(model, x)))
        _zero(model, x)
        out = ck(torch).checkpoint_sequential(list(model.children()), 2, x,
                                              use_reentrant=use_reentrant,
                                              preserve_rng_state=False)
        out.sum().backward()
        res.append((out, _grads(model, x)))
        return res
    same(prog)


def test_nested_checkpoints_and_grad():
    def prog(torch):
        c = ck(torch).checkpoint
        w = data(torch, 4, 4, requires_grad=True)

        def inner(t):
            return (t @ w).tanh()

        def outer(t):
            return c(inner, c(inner, t, use_reentrant=False), use_reentrant=False).sin()

        x = data(torch, 3, 4, seed=1, requires_grad=True)
        out = c(outer, x, use_reentrant=False)
        g = torch.autograd.grad(out.sum(), (x, w), create_graph=True)
        gg = torch.autograd.grad(g[0].sum(), (x, w), retain_graph=True)
        out.sum().backward()
        return out, g, gg, x.grad, w.grad
    same(prog)


def test_non_reentrant_kwargs_and_structures():
    def prog(torch):
        def f(d, scale=1.0, *, shift):
            return {"y": d["x"] * scale + shift, "n": 3}, [d["x"].exp()]

        x = data(torch, 3, requires_grad=True)
        s = data(torch, 3, seed=2, requires_grad=True)
        out, lst = ck(torch).checkpoint(f, {"x": x}, 2.0, shift=s, use_reentrant=False)
        (out["y"].sum() + lst[0].sum()).backward()
        return out["n"], x.grad, s.grad
    same(prog)


def test_context_fn_runs_forward_and_recompute_contexts():
    def prog(torch):
        log = []

        @contextlib.contextmanager
        def rec(name):
            log.append(name)
            yield

        x = data(torch, 2, requires_grad=True)
        out = ck(torch).checkpoint(torch.exp, x, use_reentrant=False,
                                   context_fn=lambda: (rec("fwd"), rec("recompute")))
        log.append("between")
        out.sum().backward()
        return log, x.grad
    assert same(prog)[0] == ["fwd", "between", "recompute"]


def test_early_stop_and_recompute_counts():
    def prog(torch):
        counts = []
        for early in (True, False):
            n = [0]

            def f(t):
                n[0] += 1
                return t.sin().cos().clone()

            x = data(torch, 3, requires_grad=True)
            out = ck(torch).checkpoint(f, x, use_reentrant=False, early_stop=early)
            out.sum().backward()
            counts.append(n[0])
        return counts
    same(prog)


def test_no_grad_forward_is_plain_call():
    def prog(torch):
        x = data(torch, 3, requires_grad=True)
        res = []
        for reentrant in VARIANTS:
            with torch.no_grad():
                out = ck(torch).checkpoint(torch.sin, x, use_reentrant=reentrant)
            res.append((out, out.requires_grad))
        return res
    same(prog, quiet=True)


def test_warnings():
    def prog(torch):
        x = data(torch, 3)
        res = []
        for kwargs in ({}, {"use_reentrant": True}, {"use_reentrant": False}):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                out = ck(torch).checkpoint(torch.sin, x, **kwargs)
            res.append((out.requires_grad, [str(m.message) for m in w]))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            ck(torch).check_backward_validity([x, 3])
        res.append([str(m.message) for m in w])
        return res
    same(prog)


@pytest.mark.parametrize("case", [
    "kwargs_reentrant", "context_fn_reentrant", "debug_reentrant", "bad_determinism",
    "debug_with_context_fn", "sequential_kwargs", "detach_variable_list",
    "reentrant_autograd_grad", "reentrant_backward_inputs", "mismatch_metadata",
    "mismatch_count", "more_tensors", "unpack_twice", "reentrant_no_grad_output",
    "context_suppresses",
])
def test_errors(case):
    def prog(torch):
        c = ck(torch)
        x = data(torch, 3, requires_grad=True)
        if case == "kwargs_reentrant":
            c.checkpoint(lambda t, k=1: t * k, x, k=2, use_reentrant=True)
        elif case == "context_fn_reentrant":
            c.checkpoint(torch.sin, x, use_reentrant=True, context_fn=c.noop_context_fn)
            c.checkpoint(torch.sin, x, use_reentrant=True, context_fn=lambda: None)
        elif case == "debug_reentrant":
            c.checkpoint(torch.sin, x, use_reentrant=True, debug=True)
        elif case == "bad_determinism":
            c.checkpoint(torch.sin, x, use_reentrant=False, determinism_check="full")
        elif case == "debug_with_context_fn":
            c.checkpoint(torch.sin, x, use_reentrant=False, debug=True,
                         context_fn=lambda: (contextlib.nullcontext(),) * 2)
        elif case == "sequential_kwargs":
            c.checkpoint_sequential([torch.sin], 1, x, use_reentrant=False, foo=1)
        elif case == "detach_variable_list":
            c.detach_variable([x])
        elif case == "reentrant_autograd_grad":
            torch.autograd.grad(c.checkpoint(torch.exp, x, use_reentrant=True).sum(), x)
        elif case == "reentrant_backward_inputs":
            c.checkpoint(torch.exp, x, use_reentrant=True).sum().backward(inputs=[x])
        elif case in ("mismatch_metadata", "mismatch_count", "more_tensors"):
            calls = [0]
            first = lambda t: t.sin().exp()   # noqa: E731
            second = {"mismatch_metadata": lambda t: t[:2].sin().exp(),
                      "mismatch_count": lambda t: t.exp(),
                      "more_tensors": lambda t: t.sin().exp().sin()}[case]

            def f(t):
                calls[0] += 1
                return first(t) if calls[0] == 1 else second(t)

            out = c.checkpoint(f, x, use_reentrant=False, early_stop=False)
            out.sum().backward()
        elif case == "unpack_twice":
            out = c.checkpoint(lambda t: t.exp(), x, use_reentrant=False)
            with c.GraphExecGroup():
                out.sum().backward(retain_graph=True)
                out.sum().backward()
        elif case == "reentrant_no_grad_output":
            out = c.checkpoint(lambda t: t.detach() * 2, x, use_reentrant=True)
            (out + x).sum().backward()
        elif case == "context_suppresses":
            @contextlib.contextmanager
            def swallow():
                try:
                    yield
                except ZeroDivisionError:
                    pass

            c.checkpoint(lambda t: 1 / 0, x, use_reentrant=False,
                         context_fn=lambda: (swallow(), contextlib.nullcontext()))
    same_error(prog)


def test_checkpoint_error_type():
    def prog(torch):
        calls = [0]

        def f(t):
            calls[0] += 1
            return t.sin().exp() if calls[0] == 1 else t.exp()

        x = data(torch, 3, requires_grad=True)
        out = ck(torch).checkpoint(f, x, use_reentrant=False)
        try:
            out.sum().backward()
        except RuntimeError as e:
            return type(e).__name__, isinstance(e, ck(torch).CheckpointError)
    assert same(prog) == ("CheckpointError", True)


def test_helpers():
    def prog(torch):
        c = ck(torch)
        a = data(torch, 2, requires_grad=True) * 2
        d = c.detach_variable((a, "s", data(torch, 1)))
        return (d[0].grad_fn is None, d[0].requires_grad, d[1], d[2].requires_grad,
                c.get_device_states(a), c.DefaultDeviceType.get_device_type(),
                c.set_device_states([], []), [p.name for p in c.CheckpointPolicy],
                c.SelectiveCheckpointContext(is_recompute=True).is_recompute,
                type(c.noop_context_fn()[0]).__name__, issubclass(c.CheckpointError,
                                                                  RuntimeError))
    same(prog)


def test_queue_callback_order_and_errors():
    def prog(torch):
        engine = torch.autograd.Variable._execution_engine
        log = []
        x = data(torch, 3, requires_grad=True)
        y = x * 2

        def hook(g):
            log.append(("hook", engine.is_checkpoint_valid()))
            engine.queue_callback(lambda: log.append(("cb1", x.grad is None)))
            engine.queue_callback(lambda: log.append("cb2"))
            return g

        y.register_hook(hook)
        y.sum().backward(retain_graph=True)
        log.append("after backward")
        torch.autograd.grad(y.sum(), x, retain_graph=True)
        log.append("after grad")

        def bad():
            raise ValueError("callback failed")

        y.register_hook(lambda g: engine.queue_callback(bad))
        try:
            y.sum().backward()
        except ValueError as e:
            log.append(str(e))
        log.append(engine.is_checkpoint_valid())
        return log
    same(prog)


def test_region_activation_memory_budget():
    for budget in (0.5, 1.5, "x", True):
        same_error(lambda torch: torch.autograd.graph.region_activation_memory_budget(budget))


@pytest.mark.parametrize("name", ["autograd_core.utils.checkpoint", "autograd_core.autograd.graph",
                                  "autograd_core.autograd.variable"])
def test_docstring_examples_run(name):
    import doctest
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
