"""The op hook (Note [Op hook], autograd_core/_core/_profiler.pxi): Python hooks see
every op call by its ATen name, arguments and result, may supply the result instead of
running the op, nest innermost-first, are per thread, and leave the plain op table in
force when none is on; the profiler shares the mechanism."""
import threading

import pytest

import autograd_core as torch
from autograd_core._core import tensor as _core


class Recorder:
    def __init__(self, supply=None):
        self.log = []
        self.supply = supply

    def op_enter(self, name, args):
        self.log.append(("enter", name, len(args)))
        if self.supply is not None and name in self.supply:
            return _core.OpResult(self.supply[name])
        return name

    def op_exit(self, state, result):
        self.log.append(("exit", state, None if result is None else tuple(result.shape)))

    def __enter__(self):
        _core._push_op_hook(self)
        return self

    def __exit__(self, *exc):
        _core._pop_op_hook(self)


def test_sees_ops_and_results():
    x = torch.ones(2, 3, requires_grad=True)
    assert not _core._op_hooks_active()
    with Recorder() as r:
        assert _core._op_hooks_active()
        assert _core._current_op_hook() is r
        y = (x * 2).sum(0)
    assert not _core._op_hooks_active() and _core._current_op_hook() is None
    assert r.log == [("enter", "aten::mul", 2), ("exit", "aten::mul", (2, 3)),
                     ("enter", "aten::sum", 4), ("exit", "aten::sum", (3,))]
    y.sum().backward()
    assert x.grad.tolist() == [[2.0] * 3] * 2


def test_supplied_result_skips_the_op():
    x = torch.tensor([1.0, 2.0])
    outer = Recorder()
    inner = Recorder(supply={"aten::sin": torch.tensor([7.0, 8.0])})
    with outer, inner:
        y = x.sin()
        z = x.cos()
    assert y.tolist() == [7.0, 8.0]
    assert z.tolist() == pytest.approx([0.5403023, -0.4161468], rel=1e-6)
    # the outer hook does not see the supplied op; it sees the one that ran
    assert [e[1] for e in outer.log] == ["aten::cos", "aten::cos"]
    assert [e[1] for e in inner.log if e[0] == "enter"] == ["aten::sin", "aten::cos"]
    # (the state op_exit gets for a supplied op is the OpResult op_enter returned)
    assert isinstance(inner.log[1][1], _core.OpResult) and inner.log[1][2] == (2,)


def test_failing_op_exits_with_none():
    with Recorder() as r:
        with pytest.raises(RuntimeError):
            torch.mm(torch.ones(2, 3), torch.ones(2, 3))
    assert r.log == [("enter", "aten::mm", 2), ("exit", "aten::mm", None)]


def test_ops_inside_callbacks_not_hooked():
    class Nested(Recorder):
        def op_enter(self, name, args):
            torch.ones(1) + 1  # (an op run by the hook itself)
            return super().op_enter(name, args)
    with Nested() as r:
        torch.ones(2).exp()
    assert [e[1] for e in r.log] == ["aten::exp", "aten::exp"]


def test_per_thread():
    seen_other = []
    with Recorder() as r:
        t = threading.Thread(target=lambda: seen_other.append(torch.ones(2).exp()))
        t.start()
        t.join()
        torch.ones(2).neg()
    assert [e[1] for e in r.log] == ["aten::neg", "aten::neg"]
    assert seen_other[0].tolist() == pytest.approx([2.7182818] * 2)


def test_with_profiler():
    with torch.autograd.profiler.profile() as prof:
        with Recorder(supply={"aten::sin": torch.zeros(2)}) as r:
            y = torch.ones(2).sin()
        assert _core._op_hooks_active()
    assert not _core._op_hooks_active()
    assert y.tolist() == [0.0, 0.0] and r.log[0][1] == "aten::sin"
    # the profiler's event encloses the hooks: the supplied op is recorded too
    assert "aten::sin" in [e.name for e in prof.function_events]
