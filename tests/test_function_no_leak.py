"""Issue 13: what a custom Function's ctx is told (mark_dirty, mark_non_differentiable,
save_for_backward of its outputs, set_materialize_grads) keeps no graph alive once the
user drops it. Each case runs 1,000 times; every graph must die by reference counting
alone (as PyTorch's, checked under torch too), and the memory must come back to its
baseline (tracemalloc)."""
import gc
import tracemalloc
import weakref

import pytest

from _diff import same

N = 1000


def _functions(torch):
    class Dirty(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class NonDiff(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            idx = (x > 0).to(x.dtype)
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(idx)
            return x * 3, idx

        @staticmethod
        def backward(ctx, g, gi):
            return g * 3

    class SaveOutput(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    class NoMaterialize(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(x)
            return x * 2, x * 4

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 if g1 is not None else None

    return Dirty, NonDiff, SaveOutput, NoMaterialize


def _one(torch, fn, view):
    x = torch.ones(3, requires_grad=True).clone()
    if view:
        x = x.view_as(x)
    out = fn.apply(x)
    out = out if isinstance(out, tuple) else (out,)
    refs = [weakref.ref(o) for o in out]
    if not view:  # (PyTorch's AsStridedBackward0 takes no weak reference)
        refs.append(weakref.ref(out[0].grad_fn))
    return refs


@pytest.mark.parametrize("case", range(5))
def test_function_ctx_keeps_no_graph_alive(case):
    def prog(torch):
        fns = _functions(torch)
        fn, view = (fns + (fns[0],))[case], case == 4   # case 4: Dirty on a view
        alive = 0
        for _ in range(N):
            alive += sum(r() is not None for r in _one(torch, fn, view))
        return alive
    same(prog)


@pytest.mark.parametrize("case", range(5))
def test_function_ctx_memory_returns_to_baseline(case):
    import autograd_core as torch
    fns = _functions(torch)
    fn, view = (fns + (fns[0],))[case], case == 4
    for _ in range(20):  # warm caches (method tables, freelists) before the baseline
        _one(torch, fn, view)
    gc.disable()  # the graphs must go by reference counting, not by the collector
    try:
        tracemalloc.start()
        # one-time allocations (caches filled on first use) land in the first round;
        # a leak grows with every iteration, so it shows in the second
        for _ in range(N):
            _one(torch, fn, view)
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(N):
            _one(torch, fn, view)
        grown = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
    finally:
        gc.enable()
    # a leaked graph per iteration would be far over this (several hundred bytes each)
    assert grown < 20_000, grown
