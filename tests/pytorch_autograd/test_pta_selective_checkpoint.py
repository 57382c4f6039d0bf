"""Selective activation checkpointing (torch.utils.checkpoint's
create_selective_checkpoint_contexts, CheckpointPolicy, torch.ops.aten overloads):
PyTorch's test/test_autograd.py TestSelectiveActivationCheckpoint, each test rewritten
as a differential program run under torch and autograd_core and compared by
tests/_diff.py, named after the PyTorch test it follows.  Values PyTorch's test asserts
(gradients, policy call counters, errors) are what the programs return."""
import functools
import gc
import importlib
import weakref

from _diff import same


def ck(mod):
    """mod.utils.checkpoint (torch's is a submodule to import)."""
    return importlib.import_module(mod.__name__ + ".utils.checkpoint")


def _catch(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (compared by type and message)
        return type(e).__name__, str(e).replace("torch.", "autograd_core.")
    return None


def test_output_already_has_autograd_meta():
    # a view of an integer tensor (no gradient) among the saved ops' outputs
    def prog(torch):
        c = ck(torch)

        def fn(x, y):
            return x.view(-1), y.sin().cos()

        x = torch.tensor([1, 2, 3], dtype=torch.int64)
        y = torch.linspace(-1.0, 1.0, 3, requires_grad=True)
        context_fn = functools.partial(c.create_selective_checkpoint_contexts,
                                       [torch.ops.aten.view.default])
        out = c.checkpoint(fn, x, y, use_reentrant=False, context_fn=context_fn)
        out[1].sum().backward()
        return out[0], out[1], y.grad
    same(prog)


def test_bad_inputs():
    def prog(torch):
        c = ck(torch)
        return [_catch(lambda: c.create_selective_checkpoint_contexts([2])),
                _catch(lambda: c.create_selective_checkpoint_contexts([torch.ops.aten.sin])),
                _catch(lambda: c.create_selective_checkpoint_contexts(2))]
    same(prog)


def test_policy_with_state():
    # the policy is called during the forward only, once per op
    def prog(torch):
        c = ck(torch)
        counters = []

        class Policy:
            def __init__(self):
                self.counter = [0]

            def __call__(self, ctx, func, *args, **kwargs):
                self.counter[0] += 1
                counters.append(self.counter[0])
                return c.CheckpointPolicy.PREFER_RECOMPUTE

        def fn(x):
            return x.sin().sin().sin()

        x = torch.linspace(-1.0, 1.0, 3, requires_grad=True)
        context_fn = functools.partial(c.create_selective_checkpoint_contexts, Policy(),
                                       allow_cache_entry_mutation=True)
        out = c.checkpoint(fn, x, use_reentrant=False, context_fn=context_fn)
        out.sum().backward()
        return counters, x.grad
    same(prog)


def test_storage_lifetime():
    def prog(torch):
        c = ck(torch)
        dispatch = importlib.import_module(torch.__name__ + ".utils._python_dispatch")
        seen = []
        ref = None

        def policy_fn(ctx, op, *args, **kwargs):
            return c.CheckpointPolicy.MUST_SAVE

        def fn(x):
            nonlocal ref
            mode = dispatch._get_current_dispatch_mode()
            seen.append(isinstance(mode, (c._CachingTorchDispatchMode,
                                          c._CachedTorchDispatchMode)))
            out = x.cos().exp()
            if isinstance(mode, c._CachingTorchDispatchMode):
                raw_val = mode.storage[torch.ops.aten.exp.default][0].val
                # the kept tensor is detached: no cycle through the graph's hooks
                seen.append(raw_val.requires_grad)
                ref = weakref.ref(raw_val)
            return out.sin()

        gc.disable()
        try:
            # 1) the graph goes away without backward: the storage goes with it
            x = torch.linspace(-1.0, 1.0, 3, requires_grad=True)
            context_fn = functools.partial(c.create_selective_checkpoint_contexts, policy_fn)
            out = c.checkpoint(fn, x, use_reentrant=False, context_fn=context_fn)
            seen.append(ref() is not None)
            del out
            seen.append(ref() is None)
            # 2) after backward (even retaining the graph) the entries are dropped
            x = torch.linspace(-1.0, 1.0, 3, requires_grad=True)
            context_fn = functools.partial(c.create_selective_checkpoint_contexts, policy_fn)
            out = c.checkpoint(fn, x, use_reentrant=False, context_fn=context_fn)
            seen.append(ref() is not None)
            out.sum().backward(retain_graph=True)
            seen.append(ref() is None)
        finally:
            gc.enable()
        return seen, x.grad
    same(prog)


def test_version_counter():
    def prog(torch):
        c = ck(torch)

        def policy_fn(ctx, op, *args, **kwargs):
            if op == torch.ops.aten.sin.default:
                return c.CheckpointPolicy.MUST_SAVE
            return c.CheckpointPolicy.PREFER_RECOMPUTE

        def fn(x):
            return x.sin().mul_(2).cos().exp()

        # 1) the kept output of sin is written in place by mul_: backward raises
        x = torch.linspace(-1.0, 1.0, 3, requires_grad=True)
        context_fn = functools.partial(c.create_selective_checkpoint_contexts, policy_fn)
        out = c.checkpoint(fn, x, use_reentrant=False, context_fn=context_fn)
        err = _catch(lambda: out.sum().backward())
        # 2) allowed with allow_cache_entry_mutation
        x = torch.linspace(-1.0, 1.0, 3, requires_grad=True)
        context_fn = functools.partial(c.create_selective_checkpoint_contexts, policy_fn,
                                       allow_cache_entry_mutation=True)
        out = c.checkpoint(fn, x, use_reentrant=False, context_fn=context_fn)
        out.sum().backward()
        return err, x.grad
    same(prog)


def test_function_with_more_than_one_output():
    def prog(torch):
        c = ck(torch)
        counter = [0]

        def policy_fn(ctx, op, *args, **kwargs):
            if op == torch.ops.aten.var_mean.correction:
                counter[0] += 1
                return c.CheckpointPolicy.MUST_SAVE
            return c.CheckpointPolicy.PREFER_RECOMPUTE

        def fn(x):
            a, b = torch.var_mean(x)
            return a * b

        x = torch.linspace(-1.0, 2.0, 3, requires_grad=True)
        context_fn = functools.partial(c.create_selective_checkpoint_contexts, policy_fn)
        out = c.checkpoint(fn, x, use_reentrant=False, context_fn=context_fn)
        x_grad = torch.autograd.grad(out.sum(), (x,))
        x_grad_ref = torch.autograd.grad(fn(x).sum(), (x,))
        return x_grad, x_grad_ref, counter[0]
    same(prog)


def test_can_only_trigger_recompute_once():
    def prog(torch):
        c = ck(torch)

        def policy_fn(ctx, op, *args, **kwargs):
            if op == torch.ops.aten.sin.default:
                return c.CheckpointPolicy.MUST_SAVE
            return c.CheckpointPolicy.PREFER_RECOMPUTE

        def fn(x):
            return x.sin().cos().exp()

        x = torch.linspace(-1.0, 1.0, 3, requires_grad=True)
        context_fn = functools.partial(c.create_selective_checkpoint_contexts, policy_fn)
        out = c.checkpoint(fn, x, use_reentrant=False, context_fn=context_fn)
        out.sum().backward(retain_graph=True)
        grad = x.grad.clone()
        return grad, _catch(lambda: out.sum().backward(retain_graph=True))
    same(prog)


# ------------------------------------------------------------------ torch.ops.profiler
# (TestAutograd's test of the operator form of record_function)

def test_record_function_legacy():
    def prog(torch):
        x = torch.linspace(-1.0, 1.0, 100).view(10, 10)
        with torch.autograd.profiler.profile() as p:
            handle = torch.ops.profiler._record_function_enter("bar", None)
            try:
                y = x * 2 + 4
            finally:
                torch.ops.profiler._record_function_exit(handle)
        bar = [e for e in p.function_events if "bar" in e.name]
        # (PyTorch's operator allocates its handle tensor inside the range: aten::empty)
        inside = [e.name for e in p.function_events
                  if e.name.startswith("aten::") and e.name != "aten::empty"
                  and e.cpu_parent is not None and e.cpu_parent.name == "bar"]
        return len(bar), bar[0].count, inside, y
    same(prog)
