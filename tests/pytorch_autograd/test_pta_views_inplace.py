"""Views, in-place ops, indexing and setitem, detach, version counters: PyTorch's
test/test_autograd.py (and test_view_ops.py) tests of them, each rewritten here as a
differential program (run under torch and autograd_core, results compared by
tests/_diff.py).  Each test is named after the PyTorch test it follows."""
import math

import pytest

from _diff import data, issue8, same


def _boom(torch):
    """PyTorch's test uses a private DelayedError node; a Function whose backward raises
    is the public equivalent."""
    class Boom(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            raise RuntimeError("Boom!")
    return Boom.apply


@issue8("autograd.grad stops at an input that lies on the path to another input")
def test_copy_slices_graph_task_updates():
    def prog(torch):
        def f1(x, y):
            out = x.clone().view(-1)
            out += y
            return out

        def f2(x, y):
            out = x.clone().view(-1)
            b = out * 2
            out += y
            return out + b

        x = data(torch, 2, seed=1, requires_grad=True)
        y = data(torch, 2, seed=2, requires_grad=True)
        y_safe = _boom(torch)(y)
        r = []
        for f in (f1, f2):
            for run in (lambda o: o.sum().backward(),
                        lambda o: torch.autograd.grad(o.sum(), y),
                        lambda o: torch.autograd.grad(o.sum(), x),
                        lambda o: torch.autograd.grad(o.sum(), y_safe),
                        lambda o: torch.autograd.grad(o.sum(), (x, y_safe))):
                try:
                    r.append(run(f(x, y_safe)))
                except RuntimeError as e:
                    r.append(str(e))
        called = []

        def f3(x, y):
            out = x.clone().view(-1)
            out.register_hook(lambda g: called.append(g))
            b = out + y
            out += y
            return out + b, b

        out, b = f3(x, y_safe)
        r.append(torch.autograd.grad(out.sum(), (b, y_safe)))
        return r, called
    same(prog)


@issue8("a view keeps a stale grad_fn after an in-place op on its base")
def test_first_grad_fn_access_in_no_grad_mode():
    # PyTorch's test takes .real of a complex tensor; here a real view (x[0:1])
    def prog(torch):
        leaf = torch.tensor([1.0, 2.0], requires_grad=True)
        a = leaf.clone()
        v = a[0:1]
        a.mul_(2)
        with torch.no_grad():
            has_grad_fn = v.grad_fn is not None
        v.sum().backward()
        return has_grad_fn, v, leaf.grad
    same(prog)


_INDICES_2D = [1, (1, 1), slice(1, None), slice(None, 2), (slice(None, 2), 2),
               (slice(1, 2), 2), (1, slice(2, None)), (slice(None, None), slice(2, None)),
               "long[0,2]", "mask", (Ellipsis, slice(2, None)), ([0], [0]),
               ([1, 2, 3], [0]), ([1, 2], [2, 1]), ([[1, 2], [3, 0]], [[0, 1], [2, 3]]),
               (slice(None), [2, 3]), ([2, 3], slice(None)), [0], ([0],)]
_INDICES_3D = [(slice(None), [0], [0]), ([0], [0], slice(None)), (slice(None), [0, 1, 2], [0]),
               ([0, 1, 2], [0], slice(None)), (slice(None), [1, 2], [2, 1]),
               ([1, 2], [2, 1], slice(None)), (slice(None), [[1, 2], [2, 0]], [[0, 1], [2, 3]]),
               ([[1, 2], [3, 0]], [[0, 1], [2, 2]], slice(None)),
               (slice(None), slice(None), [2, 1]), (slice(None), [2, 1], slice(None)),
               ([2, 1], slice(None), slice(None)), ([0],), ([0], slice(None)),
               ([0], Ellipsis), ([1, 2], [0, 1]), ([1, 2], [0, 1], Ellipsis),
               (Ellipsis, [1, 2], [0, 1]), "long[0,1],..."]


def _resolve(torch, idx):
    if idx == "long[0,2]":
        return torch.tensor([0, 2])
    if idx == "mask":
        return torch.tensor([[True, False, True, True], [False, False, True, False],
                             [True, True, False, False], [False, True, False, True]])
    if idx == "long[0,1],...":
        return (torch.tensor([0, 1]), Ellipsis)
    return idx


def test_indexing():
    def prog(torch):
        r = []
        for shape, indices in (((4, 4), _INDICES_2D), ((4, 3, 4), _INDICES_3D)):
            n = math.prod(shape)
            x = torch.arange(1.0, n + 1, dtype=torch.float64).view(*shape)
            y = torch.autograd.Variable(x, requires_grad=True)
            for idx in indices:
                idx = _resolve(torch, idx)
                if y.grad is not None:
                    with torch.no_grad():
                        y.grad.zero_()
                indexed_var = y[idx]
                r.append((x[idx], indexed_var.data))
                indexed_var.sum().backward()
                r.append(y.grad.clone())
        return r
    same(prog)


def test_indexing_duplicates():
    def prog(torch):
        r = []
        x = torch.arange(1.0, 17, dtype=torch.float64).view(4, 4)
        for idx in (torch.tensor([1, 1, 3, 2, 1, 2]), ([1, 1, 3, 2, 1, 2], [0]),
                    ([[1, 2], [0, 0]], [[0, 1], [1, 1]])):
            y = torch.autograd.Variable(x, requires_grad=True)
            y[idx].sum().backward()
            r.append(y.grad)
        y = torch.autograd.Variable(torch.arange(1.0, 65, dtype=torch.float64).view(4, 4, 4),
                                    requires_grad=True)
        y[[1, 1, 1], slice(None), slice(None)].sum().backward()
        r.append(y.grad)
        return r
    same(prog)


def test_index_backward_does_not_save_tensor():
    def prog(torch):
        a = torch.tensor([1.0, 0, 0])
        b = torch.zeros(3, requires_grad=True)
        tensor = b + 0
        tensor[a != 0] = tensor[a != 0]
        tensor.backward(torch.zeros_like(tensor))
        return b.grad, tensor
    same(prog)


def test_requires_grad_inplace():
    def prog(torch):
        a = data(torch, 5, 5, seed=1)
        b = data(torch, 5, 5, seed=2, requires_grad=True)
        a += b
        r = [a.requires_grad, a.is_leaf]
        a = data(torch, 5, 5, seed=1) + 0
        b = data(torch, 5, 5, seed=2, requires_grad=True)
        a += b
        return r + [a.requires_grad, type(a.grad_fn).__name__]
    same(prog)


def test_no_requires_grad_inplace():
    def prog(torch):
        r = []
        a = data(torch, 2, 3)
        a.add_(5)
        a.requires_grad = True
        a.sum().backward()
        r.append(a.grad)
        a = data(torch, 2, 3)
        b = a[:]
        b.add_(5)
        a.requires_grad = True
        a.sum().backward()
        r.append(a.grad)
        a = data(torch, 2, 3)
        b = a[:]
        a.requires_grad = True
        for t in (a, b):
            try:
                t.add_(5)
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_inplace():
    def prog(torch):
        r = []

        def attempt(f):
            try:
                f()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))

        x = torch.ones(5, 5, requires_grad=True)
        y = torch.autograd.Variable(torch.ones(5, 5) * 4, requires_grad=True)
        z = x * y
        q = z + y
        w = z * y
        z.add_(2)
        attempt(lambda: q.backward(torch.ones(5, 5), retain_graph=True))
        attempt(lambda: w.backward(torch.ones(5, 5)))

        z = x * y
        q = z * y
        rr = z + y
        w = z.add_(y)
        attempt(lambda: w.backward(torch.ones(5, 5), retain_graph=True))
        attempt(lambda: rr.backward(torch.ones(5, 5), retain_graph=True))
        attempt(lambda: q.backward(torch.ones(5, 5)))

        with torch.no_grad():
            x.grad.zero_()
        m = x / 2
        z = m + y / 8
        q = z * y
        rr = z + y
        prev_version = z._version
        w = z.exp_()
        r.append(z._version != prev_version)
        rr.backward(torch.ones(5, 5), retain_graph=True)
        r.append(x.grad.clone())
        w.backward(torch.ones(5, 5), retain_graph=True)
        r.append(x.grad.clone())
        attempt(lambda: q.backward(torch.ones(5, 5)))

        leaf = torch.ones(5, 5, requires_grad=True)
        x = leaf.clone()
        x.add_(10)
        r.append(x)
        y = x + 2
        y.backward(torch.ones(5, 5))
        r.append(leaf.grad)
        z = x * y
        x.add_(2)
        attempt(lambda: z.backward(torch.ones(5, 5)))
        return r
    same(prog)


def _setitem(torch, size, index):
    x = torch.ones(*size, requires_grad=True)
    y = x + 2
    y_version = y._version
    y[index] = 2
    r = [y._version != y_version, y]
    y.backward(torch.ones(*size))
    return r + [x.grad]


def _setitem_tensor(torch, size, index):
    x = torch.ones(*size, requires_grad=True)
    y = x + 2
    y_version = y._version
    value = torch.full(x[index].size(), 7.0)
    value.requires_grad = True
    y[index] = value
    r = [y._version != y_version, y]
    y.backward(torch.ones(*size))
    r += [x.grad, value.grad]
    x = data(torch, 4, dtype="float32", requires_grad=True)
    y = torch.zeros(2, 3, 4)
    y[1] = x
    y.backward(data(torch, 2, 3, 4, seed=2, dtype="float32"))
    return r + [x.grad]


_SETITEM = [((5, 5), 1), ((5,), 1), ((1,), 0), ((10,), [0, 4, 2]), ((5, 5), ([0, 4], [2, 2])),
            ((5, 5, 5), (slice(None), slice(None), [1, 3])),
            ((5, 5, 5), (slice(None), [1, 3], slice(None))),
            ((5, 5, 5), ([1, 3], slice(None), slice(None))),
            ((5, 5, 5), (slice(None), [2, 4], [1, 3])),
            ((5, 5, 5), ([1, 3], [2, 4], slice(None)))]
_SETITEM_TENSOR = [((5, 5), 3), ((5, 5), ([0, 1], [1, 0])), ((5,), 3), ((5,), "long[3].sum()"),
                   ((5,), [[0, 1, 2, 3]]), ((5, 5, 5), (slice(None), slice(None), [1, 3])),
                   ((5, 5, 5), (slice(None), [1, 3], slice(None))),
                   ((5, 5, 5), ([1, 3], slice(None), slice(None))),
                   ((5, 5, 5), (slice(None), [2, 4], [1, 3])),
                   ((5, 5, 5), ([1, 3], [2, 4], slice(None))),
                   ((5, 5, 5), ("long[1,3]", [2, 4], slice(None)))]


def _index(torch, index):
    if index == "long[3].sum()":
        return torch.tensor([3]).sum()
    if isinstance(index, tuple) and index and index[0] == "long[1,3]":
        return (torch.tensor([1, 3]),) + index[1:]
    return index


@pytest.mark.parametrize("case", range(len(_SETITEM) + len(_SETITEM_TENSOR)))
def test_setitem(case):
    def prog(torch):
        if case < len(_SETITEM):
            size, index = _SETITEM[case]
            return _setitem(torch, size, _index(torch, index))
        size, index = _SETITEM_TENSOR[case - len(_SETITEM)]
        return _setitem_tensor(torch, size, _index(torch, index))
    same(prog)


_MASK = [[True, False, True, True, False], [False, False, True, False, True],
         [True, True, False, False, False], [False, True, False, True, True],
         [True, False, False, True, False]]


def test_setitem_mask():
    def prog(torch):
        mask = torch.tensor(_MASK)
        return (_setitem(torch, (5, 5), mask), _setitem(torch, (5,), mask[0]),
                _setitem(torch, (1,), mask[0, 0:1]), _setitem_tensor(torch, (5, 5), mask),
                _setitem_tensor(torch, (5,), mask[0]))
    same(prog)


def test_select_sum():
    def prog(torch):
        x = data(torch, 10, requires_grad=True)

        def func(x):
            return x.select(0, 1).sum()
        return torch.autograd.gradcheck(func, [x]), torch.autograd.gradgradcheck(func, [x])
    same(prog)


@issue8("missing Tensor.diagonal")
def test_diagonal_expanded_v():
    def prog(torch):
        v_expanded = torch.tensor(0.25, dtype=torch.float64).expand(10)
        a = data(torch, 10, 10, requires_grad=True)
        (result,) = torch.autograd.grad(a.diagonal(), a, v_expanded)
        return result
    same(prog)


def test_select_expanded_v():
    def prog(torch):
        v_expanded = data(torch, 10, dtype="float32").expand(10, 10)
        a = data(torch, 10, 10, 10, dtype="float32", requires_grad=True)
        (result,) = torch.autograd.grad(a[0], a, v_expanded)
        return result
    same(prog)


def test_slice_expanded_v():
    def prog(torch):
        v_expanded = data(torch, 10, 1, dtype="float32").expand(2, 10, 10)
        a = data(torch, 10, 10, 10, dtype="float32", requires_grad=True)
        (result,) = torch.autograd.grad(a[3:5], a, v_expanded)
        return result
    same(prog)


def test_unused_output():
    def prog(torch):
        x = data(torch, 10, 10, requires_grad=True)
        outputs = x.chunk(5)
        o = outputs[2]
        o = o * 4 + 2
        o.sum().backward()
        r = [x.grad.clone()]
        with torch.no_grad():
            x.grad.zero_()
        grad_output = data(torch, 2, 10, seed=3)
        outputs = x.chunk(5)
        outputs[0].backward(grad_output)
        return r + [x.grad]
    same(prog)


def test_detach():
    def prog(torch):
        r = []
        x = data(torch, 10, 10, requires_grad=True)
        y = x + 2
        y = y.detach()
        z = y * 4 + 2
        r += [y.requires_grad, z.requires_grad]
        x = data(torch, 10, 10, requires_grad=True)
        y = x * 2
        y = y.detach()
        r += [y.requires_grad, y.grad_fn is None]
        z = x + y
        z.sum().backward()
        r.append(x.grad)
        x = data(torch, 10, 10, seed=1, requires_grad=True)
        y = data(torch, 10, 10, seed=2, requires_grad=True)
        a = x * 2
        (y + a).sum().backward(retain_graph=True)
        a.detach_()
        r.append(a.requires_grad)
        (y + a).sum().backward()
        r += [x.grad, y.grad]
        view = x.narrow(0, 1, 4)
        try:
            view.detach_()
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_detach_base():
    def prog(torch):
        x = data(torch, 10, 10, requires_grad=True)
        view = x.narrow(0, 1, 4)
        x.detach_()
        return x.requires_grad, view.requires_grad, view.grad_fn is not None, view._base is x
    same(prog)


def test_detach_then_inplace_raises_in_autograd():
    def prog(torch):
        x = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
        y = x ** 2
        z = x.detach()
        z.zero_()
        y.backward()
    r = same(prog, must_raise=True)
    assert r.type == "RuntimeError"


def test_leaf_assignment():
    def prog(torch):
        x = data(torch, 5, 5)
        y = data(torch, 5, seed=1, requires_grad=True)
        z = data(torch, 5, seed=2, requires_grad=True)
        x[0] = y
        x[1] = 2 * z
        r = [x.requires_grad, x.grad_fn is not None, type(x.grad_fn).__name__]
        x.sum().backward()
        return r + [y.grad, z.grad]
    same(prog)


@issue8("missing autograd.graph.increment_version")
def test_increment_version():
    def prog(torch):
        r = []
        a = data(torch, 5, requires_grad=True)
        v = a._version
        torch.autograd.graph.increment_version(a)
        r.append(a._version - v)
        a = torch.zeros(5, dtype=torch.int)
        v = a._version
        torch.autograd.graph.increment_version(a)
        r.append(a._version - v)
        with torch.inference_mode():
            a = torch.ones(5, requires_grad=True)
            torch.autograd.graph.increment_version(a)
        torch.autograd.graph.increment_version(a)
        return r
    same(prog)
