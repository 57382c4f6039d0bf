"""PyTorch's visible implementation choices and legacy methods, against PyTorch: unique
with NaNs, the NotImplemented nodes of ops PyTorch has no derivative for, the deprecated
out-of-place Tensor.resize / resize_as (autograd Functions: ResizeBackward), is_shared."""
import pytest

from _diff import catch, data, graph_desc, same, warns

torch = pytest.importorskip("torch")


def test_unique_keeps_each_nan():
    def prog(t):
        x = t.tensor([1., float("nan"), 2., float("nan"), 1.])
        return [t.unique(x, return_inverse=True, return_counts=True), t.unique(x, sorted=False),
                x.unique(), t.unique_consecutive(t.tensor([float("nan"), float("nan"), 1.]))]
    same(prog)


def test_not_implemented_nodes():
    def prog(t):
        w = data(t, 3, requires_grad=True)
        b = t.bincount(t.tensor([0, 2, 2]), weights=w)
        h = t.histogram(data(t, 5, requires_grad=True), bins=3)
        a = data(t, 3, 3, seed=2)
        ld = t.linalg.ldl_factor((a @ a.t() + 3 * t.eye(3, dtype=t.float64)).requires_grad_())
        r = [b, graph_desc(b.grad_fn), h, [graph_desc(x.grad_fn) for x in h],
             [graph_desc(x.grad_fn) for x in ld],
             t.bincount(t.tensor([0, 2]), weights=t.ones(2)).grad_fn is None]
        r.append(catch(lambda: b.sum().backward()))
        return r
    same(prog)


def test_resize_and_resize_as():
    def prog(t):
        x = data(t, 2, 3, requires_grad=True)
        r, w = warns(x.resize, 3, 2)
        r2, w2 = warns(x.resize_as, t.zeros(6))
        (r * t.arange(6.).reshape(3, 2)).sum().backward()
        return [r, w, r2, w2, type(r.grad_fn).__name__, x.grad, r.is_leaf,
                catch(x.resize, 4, quiet=True), catch(x.resize, (6,), quiet=True)]
    same(prog)


def test_is_shared():
    same(lambda t: [t.zeros(2).is_shared(), t.zeros(2, requires_grad=True).is_shared()])


def test_sequence_factories_have_no_bool_kernel():
    """arange/range/linspace/logspace refuse bool (dtype= or out=) with PyTorch's error."""
    def prog(t):
        b = t.bool
        return [catch(lambda: t.arange(0, 5, dtype=b)), catch(lambda: t.linspace(-1, 1, 5, dtype=b)),
                catch(lambda: t.logspace(-1, 1, 5, dtype=b)),
                catch(lambda: t.range(0, 4, dtype=b), quiet=True),
                catch(lambda: t.arange(0., 2., .5, out=t.empty(4, dtype=b))),
                catch(lambda: t.logspace(0, 2, 3, out=t.empty(3, dtype=t.int64)))]
    same(prog)
