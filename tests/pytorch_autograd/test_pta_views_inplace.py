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
    same(prog, must_raise=True)


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


def test_inplace_on_view_saved_output():
    def prog(torch):
        dealloc = [0]

        class IncrementOnDelete:
            def __del__(self):
                dealloc[0] += 1

        def test():
            root = data(torch, 3, 3, requires_grad=True)
            copy = root.clone()
            copy.grad_fn.register_hook(IncrementOnDelete())
            view = copy.view(9)
            torch.nn.functional.relu(view, inplace=True)

        test()
        return dealloc[0]
    same(prog)


def test_inplace_on_view_leaf_errors():
    def prog(torch):
        x = torch.zeros(1, requires_grad=True)
        y = x.view_as(x)
        y.add_(1)
    same(prog, must_raise=True)


def test_inplace_on_view_backward():
    # the second case of PyTorch's test (its first runs an nn.InstanceNorm2d module);
    # relu_ in place of threshold_, and no check of the name of a node that the
    # create_graph backward made
    def prog(torch):
        inputs = torch.ones((1, 3, 8, 8), requires_grad=True)
        tmp1 = (inputs + 1).view_as(inputs)
        tmp2 = torch.nn.functional.relu(tmp1, inplace=True)
        prob_interpolated = torch.sigmoid(tmp2)
        gradients = torch.autograd.grad(outputs=prob_interpolated, inputs=inputs,
                                        grad_outputs=torch.ones(prob_interpolated.size()),
                                        create_graph=True, retain_graph=True)[0]
        gradient_penalty = gradients.sum()
        gradient_penalty.backward()
        return gradients, inputs.grad
    same(prog)


def test_inplace_on_view_weak_grad_fn():
    def prog(torch):
        import gc
        a = torch.arange(10.0, requires_grad=True)
        b = a.narrow(0, 0, 2).clone().view(-1)
        b.relu_()
        c = b.clone()
        del b
        gc.collect()
        s = c.sum()
        s.backward()
        r = [s, a.grad]
        a = data(torch, 10, requires_grad=True).narrow(0, 0, 10)
        try:
            a.relu_()
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_out_variant_raises_when_inputs_require_grad():
    def prog(torch):
        r = []
        a = data(torch, 2, 2, seed=1, requires_grad=True)
        b = data(torch, 2, 2, seed=2, requires_grad=True)
        x = torch.zeros_like(a)
        try:
            torch.mul(a, b, out=x)
        except RuntimeError as e:
            r.append(str(e))
        with torch.no_grad():
            torch.mul(a, b, out=x)
            r.append(x)
        a = data(torch, 2, 2, seed=1)
        b = data(torch, 2, 2, seed=2)
        x = torch.zeros(2, 2, requires_grad=True)
        try:
            torch.mul(a, b, out=x)
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_version_counter():
    def prog(torch):
        x = data(torch, 1, 2)
        r = []
        v = x._version
        x.add_(1).add_(1)
        r.append(x._version > v)
        xz = x[:]
        r.append(x._version == xz._version)
        xz.add_(1)
        r.append(x._version == xz._version)
        v = x._version
        x.data = data(torch, 2, 3, seed=3)
        r.append(x._version == v)
        x.add_(1)
        r += [x._version > v, x._version == xz._version]
        xz.add_(1)
        r.append(x._version == xz._version)
        return r
    same(prog)


def test_set_data_preserve_pyobj():
    def prog(torch):
        a = data(torch, 1, 2, seed=1)
        b = data(torch, 1, 2, seed=2)
        b_id = id(b)
        b.data = a
        return b_id == id(b), b
    same(prog)


def test_set_data_self_requires_grad():
    def prog(torch):
        a = torch.tensor(1.0, requires_grad=True)
        a.data = torch.tensor(2.0)
        r = [a]
        try:
            a.data = torch.tensor(3, dtype=torch.int64)
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_autograd_views_codegen():
    def prog(torch):
        r = []

        def attempt(fn):
            try:
                fn()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))

        for grad_mode, requires_grad in ((True, False), (True, True), (False, True),
                                         (False, False)):
            inp = data(torch, 2, requires_grad=requires_grad).clone()
            with torch.set_grad_enabled(grad_mode):
                out = inp.view_as(inp)
            r.append(out._is_view())
            attempt(lambda: out.add_(1))
            inp = data(torch, 2, requires_grad=requires_grad).clone()
            with torch.set_grad_enabled(grad_mode):
                outs = inp.unbind()
            r += [outs[0]._is_view(), outs[1]._is_view()]
            attempt(lambda: outs[0].add_(1))
            attempt(lambda: outs[1].add_(1))
        return r
    same(prog)


def test_inplace_not_requires_grad():
    def prog(torch):
        class MyFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                return inp.view_as(inp)

            @staticmethod
            def backward(ctx, grad):
                return grad

        r = []

        def attempt(fn):
            try:
                fn()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))

        def iadd(v, b):
            v += b

        a = data(torch, 1, 2, seed=1)
        b = data(torch, 1, seed=2, requires_grad=True)
        view_a = MyFn.apply(a)
        attempt(lambda: iadd(view_a, b))
        a = data(torch, 1, 2, seed=1)
        view_a = MyFn.apply(a)
        attempt(lambda: view_a.copy_(b))
        a = data(torch, 1, 2, seed=1)
        view_a = a.unbind()[0]
        attempt(lambda: view_a.copy_(b))
        a = data(torch, 1, 2, seed=1)
        a.select(1, 0).copy_(b)
        return r + [a, a.requires_grad]
    same(prog, quiet=True)


_INPLACE_VIEW_FNS = {
    "transpose_": lambda v: v.transpose_(0, 0), "t_": lambda v: v.t_(),
    "squeeze_": lambda v: v.squeeze_(0), "unsqueeze_": lambda v: v.unsqueeze_(0),
    "swapdims_": lambda v: v.swapdims_(0, 0), "swapaxes_": lambda v: v.swapaxes_(0, 0),
    "as_strided_": lambda v: v.as_strided_((1, 0), (2, 2))}


@pytest.mark.parametrize("fn_name", sorted(_INPLACE_VIEW_FNS))
def test_autograd_inplace_views_creation_meta(fn_name):
    def prog(torch):
        class Func(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.view_as(x)

            @staticmethod
            def backward(ctx, x):
                return x

        fn = _INPLACE_VIEW_FNS[fn_name]
        r = []
        for fn_type in ("normal", "multi_view", "custom"):
            for grad_mode_view in (True, False):
                for grad_mode_iview in (True, False):
                    for requires_grad in (True, False):
                        base = data(torch, 2, 3, requires_grad=requires_grad).clone()
                        with torch.set_grad_enabled(grad_mode_view):
                            if fn_type == "multi_view":
                                inp = base.unbind()[0]
                            elif fn_type == "custom":
                                inp = Func.apply(base)
                            else:
                                inp = base.view_as(base)
                        try:
                            with torch.set_grad_enabled(grad_mode_iview):
                                fn(inp)
                            inp.add_(1)
                            r.append("ok")
                        except RuntimeError as e:
                            r.append(str(e))
        return r
    same(prog)


def test_autograd_inplace_view_of_view():
    def prog(torch):
        r = []
        x = torch.zeros(2)
        with torch.no_grad():
            y = x.view(2)
        y.requires_grad_(True)
        z = y.view(2)
        try:
            z /= 2
        except RuntimeError as e:
            r.append(str(e))
        x = torch.zeros(2)
        with torch.inference_mode():
            y = x.view(2)
        y.requires_grad_(True)
        z = y.view(2)
        try:
            z /= 2
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


# --------------------------------------- from PyTorch's TestAutogradDeviceType (on CPU)

def test_inplace_on_view_backprop_base():
    def prog(torch):
        root = data(torch, 2, 2, requires_grad=True)
        x = root.clone()
        v1 = x.narrow(0, 0, 1)
        v1.mul_(2)
        x.sum().backward()
        return root.grad
    same(prog)


def test_inplace_on_view_backprop_view_of_view():
    def prog(torch):
        root = data(torch, 2, 2, requires_grad=True)
        x = root.clone()
        v1 = x.narrow(0, 0, 1)
        v2 = x.narrow(0, 0, 1)
        v1.mul_(2)
        v2.sum().backward()
        return root.grad
    same(prog)


def test_inplace_on_view_of_view():
    def prog(torch):
        root = data(torch, 2, 2, requires_grad=True)
        x = root.clone()
        v1 = x.narrow(0, 0, 1)
        v2 = v1.narrow(1, 1, 1)
        v2.mul_(2)
        x.sum().backward()
        return root.grad
    same(prog)


def test_inplace_on_view_then_no_grad():
    def prog(torch):
        a = torch.ones(3, 1, dtype=torch.double, requires_grad=True)
        b = a * 2
        c = b.view_as(b)
        c[0][0] = 3
        with torch.no_grad():
            c.grad_fn  # noqa: B018
        c.sum().backward()
        return a.grad, c
    same(prog)


def test_inplace_on_view_gradcheck():
    def prog(torch):
        a = data(torch, 4, 4, seed=1, requires_grad=True)
        b = data(torch, 2, 2, seed=2, requires_grad=True)

        def func(root, b):
            x = root.clone()
            x.narrow(1, 2, 2).narrow(0, 1, 2).mul_(b)
            x.narrow(1, 0, 2).narrow(0, 1, 2).mul_(b)
            return x

        go = data(torch, 4, 4, seed=3, requires_grad=True)
        return (torch.autograd.gradcheck(func, [a, b], raise_exception=False),
                torch.autograd.gradgradcheck(func, (a, b), (go,), raise_exception=False))
    same(prog)


def test_inplace_on_view_multiple_outputs():
    def prog(torch):
        root = torch.arange(9.0, dtype=torch.double).reshape(3, 3).requires_grad_()
        x = root.clone()
        v1 = x.unbind()
        v1[0].mul_(2)
    same(prog, must_raise=True)


def test_inplace_on_view_of_multiple_output_view():
    def prog(torch):
        a = data(torch, 10, requires_grad=True).clone()
        b = a.unbind(0)
        c = b[0].view_as(b[0])
        c.mul_(2)
    same(prog, must_raise=True)


def test_inplace_multiple_output_view_of_view():
    def prog(torch):
        a = data(torch, 10, requires_grad=True).clone()
        b = a.view_as(a)
        c = b.unbind(0)
        c[0].mul_(2)
    same(prog, must_raise=True)


def test_inplace_on_view_makes_base_require_grad():
    def prog(torch):
        a = data(torch, 4, 4, seed=1)
        b = data(torch, 4, 2, seed=2, requires_grad=True)
        flags = []

        def func(root, b):
            x = root.clone()
            flags.append(x.requires_grad)
            x.narrow(1, 2, 2).mul_(b)
            flags.append(x.requires_grad)
            return x

        go = data(torch, 4, 4, seed=3, requires_grad=True)
        return (torch.autograd.gradcheck(func, [a, b], raise_exception=False),
                torch.autograd.gradgradcheck(func, (a, b), (go,), raise_exception=False),
                flags[:2])
    same(prog)


def test_inplace_on_view_backprop_view():
    def prog(torch):
        a = torch.tensor([2.0, 5.0], requires_grad=False)
        b = torch.tensor([3.0], requires_grad=True)
        res = a.narrow(0, 1, 1).mul_(b)
        res.sum().backward()
        return b.grad, a.grad, a
    same(prog)


def test_inplace_on_view_modify_base():
    def prog(torch):
        r = torch.ones(1, dtype=torch.double, requires_grad=True)
        flags = []

        def fn(r):
            x = torch.ones(5, dtype=torch.double)
            v = x.select(0, 1)
            flags.append((v.requires_grad, v.grad_fn is None))
            x.add_(r)
            flags.append(v.requires_grad)
            return v

        return (torch.autograd.gradcheck(fn, [r], raise_exception=False),
                torch.autograd.gradgradcheck(fn, [r], raise_exception=False), flags[:2])
    same(prog)


def test_inplace_on_view_python():
    def prog(torch):
        a = data(torch, 4, 4, seed=1, requires_grad=True)
        b = data(torch, 2, 2, seed=2, requires_grad=True)

        class PyAdd(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.mark_dirty(x)
                x.add_(y)
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad, grad

        def func(root, b):
            x = root.clone()
            PyAdd.apply(x.narrow(1, 2, 2).narrow(0, 1, 2), b)
            PyAdd.apply(x.narrow(1, 0, 2).narrow(0, 1, 2), b)
            return x

        go = data(torch, 4, 4, seed=3, requires_grad=True)
        return (torch.autograd.gradcheck(func, [a, b], raise_exception=False),
                torch.autograd.gradgradcheck(func, (a, b), (go,), raise_exception=False))
    same(prog)


def test_inplace_on_view_non_contig():
    def prog(torch):
        root = torch.ones(2, 3, 2).select(2, 1).t().requires_grad_(True)
        x = root.clone()
        v1 = x.narrow(0, 0, 1)
        v2 = v1.narrow(1, 1, 1)
        v2.mul_(2)
        x.sum().backward()
        return root.grad
    same(prog)


def test_inplace_on_view_multi_output_unsafe():
    def prog(torch):
        r = []
        for f in [lambda t: t.unsafe_split(1), lambda t: t.unsafe_split_with_sizes((1, 1, 1)),
                  lambda t: t.unsafe_chunk(3)]:
            a = data(torch, 3, 3, requires_grad=True)
            b = a + a
            s1, s2, s3 = f(b)
            s1.mul_(s2)
            s1.sum().backward()
            r.append(a.grad)
        return r
    same(prog)


def test_inplace_on_view_multi_output_safe():
    def prog(torch):
        r = []
        for f in [lambda t: t.split(1), lambda t: t.split_with_sizes((1, 1, 1)),
                  lambda t: t.chunk(3)]:
            a = data(torch, 3, 3, requires_grad=True)
            b = a + a
            s1, s2, s3 = f(b)
            try:
                s1.mul_(s2)
                r.append("no error")
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_inplace_on_view_undefined_grad_output():
    def prog(torch):
        a = torch.tensor([1.0], requires_grad=True)
        c = a.clone()
        v = c[:]
        b = torch.tensor(1.0, requires_grad=True)

        class InplaceFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, other):
                ctx.mark_dirty(x)
                return x.mul_(2)

            @staticmethod
            def backward(ctx, grad):
                return grad * 2, None

        out = InplaceFunc.apply(v, b)
        out.backward()
        return b.grad, a.grad.item()
    same(prog)


def test_parameter_resize():
    # an nn.Parameter whose storage is replaced (set_) under no_grad, twice
    def prog(torch):
        asd = torch.nn.Parameter(torch.ones(16, dtype=torch.double))
        for _ in range(2):
            with torch.no_grad():
                asd.set_(asd[1:])
                asd.grad = None
            m = torch.cat((asd, asd))
            m.sum().backward()
        return asd.grad, asd.shape
    same(prog)


def test_resize_version_bump():
    def prog(torch):
        x = data(torch, 1)
        y = data(torch, 3, seed=1)
        r = []
        x.resize_((1, 2))
        r.append(x._version)
        x.resize_as_(y)
        r.append(x._version)
        x.resize_((3,))
        r.append(x._version)
        x.resize_as_(y)
        return r + [x._version]
    same(prog)


def test_copy_():
    # PyTorch's test also copies into bfloat16, which autograd_core lacks
    def prog(torch):
        x = data(torch, 10, dtype="float32", requires_grad=True)
        r = []
        for dt in (torch.float16, torch.float32, torch.float64):
            y = torch.empty(10, dtype=dt)
            y.copy_(x)
            r += [y.requires_grad, y.dtype, type(y.grad_fn).__name__]
        z = x.to(torch.float16)
        return r + [z.requires_grad]
    same(prog)


def test_per_dispatch_key_input_saving():
    # the dense half (the other half is about nested tensors)
    def prog(torch):
        def foo(x):
            x = x.clone()
            res = x.sum(-1, keepdim=True)
            x.add_(x)
            return res

        inp = data(torch, 2, requires_grad=True)
        foo(inp).backward()
        return inp.grad
    same(prog)
