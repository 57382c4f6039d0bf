"""Selective activation checkpointing (utils.checkpoint.create_selective_checkpoint_contexts)
against PyTorch: policies given as a list of ops and as a function (CheckpointPolicy or
bool), MUST_* and PREFER_*, gradients equal to the unchecked program's, the ops each
policy is asked about (torch.ops.aten overloads), which ops the recomputation runs
again (counted by an op observer entered around the recomputation, outside the
selective context, as PyTorch's FlopCounterMode is in its test), kept outputs written in
place (allow_cache_entry_mutation), PyTorch's errors for misuse; and the torch.ops.aten
objects themselves."""
import contextlib
import functools
import importlib
from collections import Counter

import pytest

from _diff import data, same

import autograd_core
from autograd_core._core import tensor as _core


def ck(mod):
    return importlib.import_module(mod.__name__ + ".utils.checkpoint")


def _catch(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (compared by type and message)
        return type(e).__name__, str(e).replace("torch.", "autograd_core.")
    return None


_IGNORED = {"aten.detach.default"}


class _AgcCounter:
    """Counts the ops run on this thread (an autograd_core op hook, Note [Op hook])."""

    def __init__(self):
        self.counts = Counter()

    def op_enter(self, name, args):
        op = autograd_core._ops.overload_for(name, args)
        self.counts[str(op)] += 1

    def op_exit(self, state, result):
        pass

    def __enter__(self):
        _core._push_op_hook(self)
        return self

    def __exit__(self, *exc):
        _core._pop_op_hook(self)


def _counter(mod):
    if mod is autograd_core:
        return _AgcCounter()
    from torch.utils._python_dispatch import TorchDispatchMode

    class TorchCounter(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.counts = Counter()

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.counts[str(func)] += 1
            return func(*args, **(kwargs or {}))
    return TorchCounter()


def _run(mod, fn, inputs, policy, counted_recompute=True, **kw):
    """fn checkpointed under policy: (gradients, unchecked gradients, ops the policy was
    asked about, ops the recomputation ran)."""
    c = ck(mod)
    seen = []
    recomputed = _counter(mod) if counted_recompute else contextlib.nullcontext()

    def recording_policy(ctx, op, *args, **kwargs):
        seen.append(str(op))
        return policy(c, mod, op) if callable(policy) else policy

    def context_fn():
        fwd, rec = c.create_selective_checkpoint_contexts(recording_policy, **kw)
        stack = contextlib.ExitStack()

        class Recompute:
            def __enter__(self):
                stack.enter_context(recomputed)
                stack.enter_context(rec)

            def __exit__(self, *exc):
                return stack.__exit__(*exc)
        return fwd, Recompute()

    xs = [x.detach().clone().requires_grad_() for x in inputs]
    # (without early stop the recomputation runs to the end in both libraries: the op
    # whose saving completes an early stop has already run here, not in PyTorch, whose
    # autograd saves before its kernel runs)
    out = c.checkpoint(fn(mod), *xs, use_reentrant=False, context_fn=context_fn,
                       early_stop=False)
    grads = mod.autograd.grad(out.sum(), xs, allow_unused=True)
    ref = [x.detach().clone().requires_grad_() for x in inputs]
    ref_grads = mod.autograd.grad(fn(mod)(*ref).sum(), ref, allow_unused=True)
    counts = {k: v for k, v in getattr(recomputed, "counts", {}).items()
              if k not in _IGNORED}
    return grads, ref_grads, seen, counts


def _mlp(mod):
    def fn(x, w):
        return mod.sigmoid(mod.mm(mod.mm(x, w).relu(), w)).sin() * w
    return fn


def _pointwise(mod):
    def fn(x, y):
        a = x * y
        b = a.exp() + y
        c = b.tanh() - x
        return c.cos() * a
    return fn


def _inputs(mod, n=2):
    return [data(mod, 3, 3, seed=s, dtype="float64") for s in range(n)]


SAVE_MM = lambda c, mod, op: (c.CheckpointPolicy.MUST_SAVE if op == mod.ops.aten.mm.default
                               else c.CheckpointPolicy.PREFER_RECOMPUTE)
PREFER_SAVE_MM = lambda c, mod, op: (c.CheckpointPolicy.PREFER_SAVE
                                     if op == mod.ops.aten.mm.default
                                     else c.CheckpointPolicy.MUST_RECOMPUTE)
SAVE_POINTWISE = lambda c, mod, op: op in {mod.ops.aten.mul.Tensor, mod.ops.aten.exp.default,
                                           mod.ops.aten.tanh.default}
SAVE_ALL = lambda c, mod, op: c.CheckpointPolicy.MUST_SAVE
RECOMPUTE_ALL = lambda c, mod, op: c.CheckpointPolicy.PREFER_RECOMPUTE


@pytest.mark.parametrize("fn", [_mlp, _pointwise], ids=["mlp", "pointwise"])
@pytest.mark.parametrize("policy", [SAVE_MM, PREFER_SAVE_MM, SAVE_POINTWISE, SAVE_ALL,
                                    RECOMPUTE_ALL],
                         ids=["must_save_mm", "prefer_save_mm", "bool_pointwise",
                              "save_all", "recompute_all"])
def test_policy_function(fn, policy):
    same(lambda mod: _run(mod, fn, _inputs(mod), policy))


def test_gradients_equal_unchecked():
    grads, ref, _, _ = _run(autograd_core, _mlp, _inputs(autograd_core), SAVE_MM)
    for g, r in zip(grads, ref):
        assert autograd_core.allclose(g, r, rtol=1e-12, atol=1e-12)


def test_saved_ops_not_recomputed():
    # mm kept: the recomputation runs no mm (and still runs the rest)
    _, _, seen, counts = _run(autograd_core, _mlp, _inputs(autograd_core), SAVE_MM)
    assert seen.count("aten.mm.default") == 2
    assert "aten.mm.default" not in counts and counts["aten.sin.default"] == 1
    _, _, _, counts = _run(autograd_core, _mlp, _inputs(autograd_core), RECOMPUTE_ALL)
    assert counts["aten.mm.default"] == 2


@pytest.mark.parametrize("as_list", [True, False], ids=["list", "function"])
def test_policy_list_of_ops(as_list):
    def prog(mod):
        c = ck(mod)
        ops = [mod.ops.aten.mm.default, mod.ops.aten.sigmoid.default]
        recomputed = _counter(mod)

        def context_fn():
            if as_list:
                fwd, rec = c.create_selective_checkpoint_contexts(ops)
            else:
                fwd, rec = c.create_selective_checkpoint_contexts(
                    lambda ctx, op, *a, **k: op in ops)
            stack = contextlib.ExitStack()

            class Recompute:
                def __enter__(self):
                    stack.enter_context(recomputed)
                    stack.enter_context(rec)

                def __exit__(self, *exc):
                    return stack.__exit__(*exc)
            return fwd, Recompute()
        x, w = [t.requires_grad_() for t in _inputs(mod)]
        out = c.checkpoint(_mlp(mod), x, w, use_reentrant=False, context_fn=context_fn,
                           early_stop=False)
        out.sum().backward()
        return x.grad, w.grad, {k: v for k, v in recomputed.counts.items()
                                if k not in _IGNORED}
    same(prog)


def test_policy_context_and_args():
    # what the policy receives: ctx.is_recompute, ctx.op_output, the op's arguments
    def prog(mod):
        c = ck(mod)
        log = []

        def policy(ctx, op, *args, **kwargs):
            log.append((str(op), ctx.is_recompute, tuple(ctx.op_output.shape),
                        [tuple(a.shape) if isinstance(a, mod.Tensor) else a
                         for a in args[:2]]))
            return c.CheckpointPolicy.PREFER_RECOMPUTE

        x = data(mod, 2, 3, seed=1, dtype="float64").requires_grad_()
        w = data(mod, 3, 4, seed=2, dtype="float64").requires_grad_()
        out = c.checkpoint(lambda a, b: (mod.mm(a, b) + 1).sin(), x, w, use_reentrant=False,
                           context_fn=functools.partial(c.create_selective_checkpoint_contexts,
                                                        policy))
        out.sum().backward()
        return log, x.grad, w.grad
    same(prog)


def test_cache_entry_mutation():
    def prog(mod, allow):
        c = ck(mod)

        def fn(x):
            y = x.exp()
            y.add_(1)
            return y.sin()
        x = data(mod, 4, seed=3, dtype="float64").requires_grad_()
        ctx = functools.partial(c.create_selective_checkpoint_contexts,
                                [mod.ops.aten.exp.default],
                                allow_cache_entry_mutation=allow)
        out = c.checkpoint(fn, x, use_reentrant=False, context_fn=ctx)
        err = _catch(lambda: out.sum().backward())
        return err, x.grad
    same(prog, False)
    same(prog, True)


def test_misuse_errors():
    def prog(mod):
        c = ck(mod)
        x = data(mod, 3, seed=4).requires_grad_()
        ctx = functools.partial(c.create_selective_checkpoint_contexts,
                                [mod.ops.aten.sin.default])
        return [
            _catch(lambda: c.checkpoint(lambda t: t.sin(), x, use_reentrant=True,
                                        context_fn=ctx)),
            _catch(lambda: c.create_selective_checkpoint_contexts([mod.ops.aten.mm])),
            _catch(lambda: c.create_selective_checkpoint_contexts(["mm"])),
            _catch(lambda: c.create_selective_checkpoint_contexts(None)),
            _catch(lambda: c.checkpoint(lambda t: t.sin(), x, use_reentrant=False,
                                        context_fn=ctx, debug=True)),
        ]
    same(prog)


def test_policy_returning_other_values():
    # PyTorch keeps an output only for MUST_SAVE / PREFER_SAVE / True: anything else
    # (None, a number, an offload policy) recomputes, without an error
    def prog(mod, value):
        c = ck(mod)
        policy_value = getattr(c.CheckpointPolicy, value, None) if isinstance(value, str) \
            else value
        x = data(mod, 4, seed=5, dtype="float64").requires_grad_()
        out = c.checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False,
                           context_fn=functools.partial(
                               c.create_selective_checkpoint_contexts,
                               lambda ctx, op, *a, **k: policy_value))
        out.sum().backward()
        return x.grad
    for value in [None, 0, 1, "MUST_CPU_OFFLOAD", False, True]:
        same(prog, value)


def test_mismatch_errors():
    # the recomputation runs an op the forward did not (or once more): PyTorch's errors
    def prog(mod, extra_sin):
        c = ck(mod)
        calls = [0]

        def fn(x):
            calls[0] += 1
            x = x.sin()
            if calls[0] > 1:
                x = x.sin() if extra_sin else x.exp()
            return x.cos()
        x = data(mod, 3, seed=6, dtype="float64").requires_grad_()
        policy = lambda ctx, op, *a, **k: (c.CheckpointPolicy.MUST_SAVE
                                           if op == mod.ops.aten.sin.default
                                           else c.CheckpointPolicy.PREFER_RECOMPUTE)
        out = c.checkpoint(fn, x, use_reentrant=False, early_stop=False,
                           context_fn=functools.partial(
                               c.create_selective_checkpoint_contexts, policy))
        return _catch(lambda: out.sum().backward())
    same(prog, True)
    same(prog, False)


def test_nested_ops_and_views():
    # matmul, linear, a view and an in-place op inside the region; outputs of several
    # ops kept
    def prog(mod, allow):
        c = ck(mod)
        F = mod.nn.functional

        def fn(x, w):
            h = F.linear(x, w).relu()
            h = h.view(-1).view(3, 3)
            h = (h @ w).mul_(0.5)
            return h.tanh().sum(0)
        ops = [mod.ops.aten.mm.default, mod.ops.aten.relu.default, mod.ops.aten.tanh.default]
        x, w = [t.requires_grad_() for t in _inputs(mod)]
        out = c.checkpoint(fn, x, w, use_reentrant=False,
                           context_fn=functools.partial(c.create_selective_checkpoint_contexts,
                                                        ops, allow_cache_entry_mutation=allow))
        # (mul_ writes into the kept output of mm: an error unless allowed)
        return out, _catch(lambda: out.sum().backward()), x.grad, w.grad
    same(prog, False)
    same(prog, True)


def test_ops_namespace():
    def prog(mod):
        aten = mod.ops.aten
        a, b = data(mod, 2, 2, seed=7), data(mod, 2, 2, seed=8)
        return [str(aten.mm.default), repr(aten.mm.default), aten.mm.default.name(),
                aten.add.Tensor.name(), str(aten.add), repr(aten.add),
                aten.mm.default._schema.name, aten.add.Tensor.overloadpacket is aten.add,
                aten.mm.default.__name__, aten.mm.default is aten.mm.default,
                aten.mm.default == aten.mm.default, aten.mm.default != aten.mm,
                aten.mm.default in {aten.mm.default}, aten.sin.default.namespace,
                aten.mm.default(a, b), aten.add.Tensor(a, b, alpha=2), aten.sin(a),
                _catch(lambda: aten.not_an_op_name), _catch(lambda: aten.mm.nope)]
    same(prog)


def test_module_program():
    # an nn.Module block (Linear layers, GELU, LayerNorm) with a policy on matrix
    # products, as training code writes it
    def prog(mod):
        c = ck(mod)
        nn = mod.nn
        mod.manual_seed(0)
        block = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4), nn.LayerNorm(4))
        with mod.no_grad():
            for i, p in enumerate(block.parameters()):
                p.copy_(data(mod, *p.shape, seed=20 + i, dtype="float32"))
        x = data(mod, 3, 4, seed=30, dtype="float32").requires_grad_()
        save = {mod.ops.aten.mm.default, mod.ops.aten.addmm.default}
        policy = lambda ctx, op, *a, **k: (c.CheckpointPolicy.MUST_SAVE if op in save
                                           else c.CheckpointPolicy.PREFER_RECOMPUTE)
        out = c.checkpoint(block, x, use_reentrant=False,
                           context_fn=functools.partial(c.create_selective_checkpoint_contexts,
                                                        policy))
        out.pow(2).sum().backward()
        return out, x.grad, [p.grad for p in block.parameters()]
    same(prog)


def test_inplace_op_kept():
    # a policy that keeps the output of an in-place op: here the recomputation runs it
    # again (handing back its kept output would not write into its input), so the
    # gradients are the unchecked program's. (PyTorch hands the output back and the
    # ops after it read the unwritten input: its gradients differ from its own
    # unchecked ones, a difference kept on purpose.) The policy is asked as PyTorch's.
    def prog(mod):
        c = ck(mod)
        seen = []

        def fn(x):
            y = x.sin()
            y.mul_(2)
            return (y * x).sin()

        def policy(ctx, op, *args, **kwargs):
            seen.append(str(op))
            return op == mod.ops.aten.mul_.Tensor
        x = data(mod, 5, seed=9, dtype="float64").requires_grad_()
        fn(x).sum().backward()
        ref, x.grad = x.grad, None
        out = c.checkpoint(fn, x, use_reentrant=False,
                           context_fn=functools.partial(c.create_selective_checkpoint_contexts,
                                                        policy, allow_cache_entry_mutation=True))
        out.sum().backward()
        return seen, out, ref, x.grad
    seen, out, ref, grad = prog(autograd_core)
    assert autograd_core.allclose(grad, ref, rtol=1e-12, atol=1e-12)
    t_seen, t_out, _, _ = prog(__import__("torch"))
    assert seen == t_seen
    same(lambda mod: out if mod is autograd_core else t_out)


def test_hook_table_swapped_back():
    # Note [Op hook]: the hooked table is in force only while a context or the profiler
    # is on; selective checkpointing and the profiler together
    torch = autograd_core
    c = ck(torch)
    x = data(torch, 3, 3, seed=10, dtype="float64").requires_grad_()
    assert not _core._op_hooks_active()
    ctx = functools.partial(c.create_selective_checkpoint_contexts, [torch.ops.aten.mm.default])
    with torch.autograd.profiler.profile() as prof:
        out = c.checkpoint(lambda t: torch.mm(t, t).sin().sum(), x, use_reentrant=False,
                           context_fn=ctx)
        assert _core._op_hooks_active()
        out.backward()
    assert not _core._op_hooks_active()
    names = [e.name for e in prof.function_events]
    assert names.count("aten::mm") >= 2 and "aten::sin" in names
    ref = x.detach().clone().requires_grad_()
    torch.mm(ref, ref).sin().sum().backward()
    assert torch.allclose(x.grad, ref.grad, rtol=1e-12, atol=1e-12)
    out = c.checkpoint(lambda t: torch.mm(t, t).sin().sum(), x, use_reentrant=False,
                       context_fn=ctx)
    assert not _core._op_hooks_active()
    out.backward()
    assert not _core._op_hooks_active()


_PROGRAMS = {
    "binary": lambda m, x, y: (x + y) * (x - 1) / (y + 2),
    "scalar": lambda m, x, y: x * 2 + 1 - x / 3,
    "pow": lambda m, x, y: x ** 2 + x.abs() ** y,
    "reduce": lambda m, x, y: x.sum() + x.mean(0).sum() + x.sum(1).sum(),
    "matmul": lambda m, x, y: (x @ y).sum(),
    "linear": lambda m, x, y: m.nn.functional.linear(x, y, y[0]).sum(),
    "activations": lambda m, x, y: m.relu(x) + m.sigmoid(x) + m.tanh(x),
    "gelu_silu": lambda m, x, y: m.nn.functional.gelu(x) + m.nn.functional.silu(y),
    "softmax": lambda m, x, y: x.softmax(-1) + y.log_softmax(0),
    "layer_norm": lambda m, x, y: m.nn.functional.layer_norm(x, (3,)),
    "views": lambda m, x, y: x.view(-1).view(3, 3).t().transpose(0, 1).unsqueeze(0).squeeze(0),
    "index": lambda m, x, y: x[0] + x[:, 1],
    "cat": lambda m, x, y: m.cat([x, y]).sum(0),
    "var_mean": lambda m, x, y: m.var_mean(x)[0] * y,
    "clamp": lambda m, x, y: x.clamp(-0.5, 0.5),
    "mse_loss": lambda m, x, y: m.nn.functional.mse_loss(x, y),
    "exp_log": lambda m, x, y: x.exp().log1p().sqrt(),
    "expand": lambda m, x, y: x[0].expand(3, 3) * y,
    "bmm_addmm": lambda m, x, y: m.bmm(x[None], y[None])[0] + m.addmm(y, x, y),
}


@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_policy_sees_pytorch_ops(name):
    # the ops (OpOverloads) a policy is asked about, in order, and the gradients
    def prog(mod):
        return _run(mod, lambda m: (lambda a, b: _PROGRAMS[name](m, a, b)), _inputs(mod),
                    RECOMPUTE_ALL, counted_recompute=False)
    same(prog)


@pytest.mark.parametrize("where", ["outer", "inner"])
def test_nested_checkpoints(where):
    # a plain checkpoint inside a selective one, and a selective one inside a plain one
    def prog(mod):
        c = ck(mod)
        ctx = functools.partial(c.create_selective_checkpoint_contexts,
                                [mod.ops.aten.mm.default])
        inner_kw = {"context_fn": ctx} if where == "inner" else {}
        outer_kw = {"context_fn": ctx} if where == "outer" else {}

        def inner(x):
            return mod.mm(x, x).sin()

        def outer(x):
            return c.checkpoint(inner, x.cos(), use_reentrant=False, **inner_kw).exp()
        x = data(mod, 3, 3, seed=1, dtype="float64").requires_grad_()
        out = c.checkpoint(outer, x, use_reentrant=False, **outer_kw)
        out.sum().backward()
        ref = x.detach().clone().requires_grad_()
        outer_ref = lambda t: inner(t.cos()).exp()
        outer_ref(ref).sum().backward()
        return out, x.grad, ref.grad
    same(prog)
