"""Activation checkpointing (torch.utils.checkpoint): PyTorch's test/test_autograd.py
tests of it (TestAutograd's checkpointing tests and the TestNestedCheckpoint class),
each rewritten as a differential program run under torch and autograd_core and compared
by tests/_diff.py.  Each test is named after the PyTorch test it follows; loops of
thousands of inputs are shortened (the behaviour, not the load, is compared).  Where a
PyTorch test counts ops through a TorchDispatchMode (this tree has no dispatcher modes),
the test compares what the program itself observes and says so."""
import contextlib
import copy
import importlib

import pytest

from _diff import data, same


def ck(mod):
    """mod.utils.checkpoint (torch's is a submodule to import)."""
    return importlib.import_module(mod.__name__ + ".utils.checkpoint")


def _fill(mod, module, seed=100):
    """Give module's parameters the same deterministic values under both libraries."""
    with mod.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(data(mod, *p.shape, seed=seed + i, dtype="float32"))
    return module


def _grads(module):
    return [p.grad for p in module.parameters()]


# ------------------------------------------------------------------ TestAutograd

def test_checkpointing():
    def prog(torch):
        nn = torch.nn
        module = _fill(torch, nn.Sequential(nn.Linear(10, 100), nn.ReLU(), nn.Linear(100, 10)))
        feats = []
        for i in range(20):
            d = data(torch, 1, 10, seed=i, lo=0, hi=1, dtype="float32", requires_grad=True)
            feats.append(ck(torch).checkpoint(module, d, use_reentrant=True))
        torch.stack(feats).mean().backward()
        return _grads(module)
    same(prog)


def test_checkpoint_warns_if_use_reentrant_not_passed_explcitly():
    def prog(torch):
        import warnings
        a = data(torch, 1, requires_grad=True)
        with warnings.catch_warnings(record=True) as w1:
            warnings.simplefilter("always")
            ck(torch).checkpoint(lambda x: x, a, use_reentrant=False)
        with warnings.catch_warnings(record=True) as w2:
            warnings.simplefilter("always")
            ck(torch).checkpoint(lambda x: x, a)
        return ([str(w.message) for w in w1],
                [(w.category.__name__, str(w.message)) for w in w2])
    same(prog)


def test_checkpoint_sequential_warns_if_use_reentrant_not_passed_explcitly():
    def prog(torch):
        import warnings
        a = data(torch, 3, dtype="float32", requires_grad=True)
        modules = [_fill(torch, torch.nn.Linear(3, 3), seed=10 * i) for i in range(3)]
        with warnings.catch_warnings(record=True) as w1:
            warnings.simplefilter("always")
            out1 = ck(torch).checkpoint_sequential(modules, 3, a, use_reentrant=False)
        with warnings.catch_warnings(record=True) as w2:
            warnings.simplefilter("always")
            out2 = ck(torch).checkpoint_sequential(modules, 3, a)
        return (out1, out2, [str(w.message) for w in w1],
                [(w.category.__name__, str(w.message)) for w in w2])
    same(prog)


def test_checkpoint_graph_execution_group():
    def prog(torch):
        res = []
        for use_group in (True, False):
            counter = [0]

            def fn(x):
                counter[0] += 1
                y = x.sin().cos()
                z = y.sin().cos()
                return y, z

            x = data(torch, 3, 3, requires_grad=True)
            y, z = ck(torch).checkpoint(fn, x, use_reentrant=False)
            group = ck(torch).GraphExecGroup()
            ctx = group if use_group else contextlib.nullcontext()
            with ctx:
                ones = torch.ones(3, 3, dtype=torch.float64)
                (grad_y,) = torch.autograd.grad(z, inputs=(y,), grad_outputs=(ones,))
                (grad_x,) = torch.autograd.grad(y, inputs=(x,), grad_outputs=(grad_y,))
            res.append((counter[0], grad_x))

        x = data(torch, 3, 3, requires_grad=True)
        out = ck(torch).checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)
        with ck(torch).GraphExecGroup():
            out.sum().backward(retain_graph=True)
            try:
                out.sum().backward()
            except RuntimeError as e:
                res.append(("Performing two backward calls that overlap" in str(e),
                            type(e).__name__))
        try:
            with ck(torch).GraphExecGroup():
                with ck(torch).GraphExecGroup():
                    pass
        except RuntimeError as e:
            res.append(str(e).split(".")[0])
        return res
    same(prog)


def test_checkpoint_detects_non_determinism():
    def prog(torch):
        def save_3_tensors(x):
            return x.sin().exp().sin()

        def save_2_tensors(x):
            return x.sin().exp()

        def save_2_tensors_alt(x):
            return x.sin() * torch.tensor([1.0, 2.0], dtype=torch.float64)

        def get_non_det_fn(orig_fn, recompute_fn):
            counter = [0]

            def fn(x):
                if counter[0] == 0:
                    counter[0] += 1
                    return orig_fn(x)
                return recompute_fn(x)
            return fn

        a = data(torch, 1, requires_grad=True)
        res = []

        def attempt(f, *args, **kwargs):
            try:
                out = ck(torch).checkpoint(f, a, use_reentrant=False, **kwargs)
                out.sum().backward()
                res.append("ok")
            except RuntimeError as e:
                res.append((type(e).__name__, isinstance(e, ck(torch).CheckpointError),
                            str(e) if "debug=True` to checkpoint" not in str(e)
                            else "debug message"))

        attempt(get_non_det_fn(save_3_tensors, save_2_tensors))
        with ck(torch).set_checkpoint_early_stop(False):
            attempt(get_non_det_fn(save_2_tensors, save_3_tensors))
        attempt(get_non_det_fn(save_2_tensors, save_3_tensors))   # early stop: fine
        attempt(get_non_det_fn(save_2_tensors, save_2_tensors_alt))
        attempt(get_non_det_fn(save_2_tensors, save_2_tensors_alt), debug=True)
        with ck(torch).set_checkpoint_debug_enabled(True):
            attempt(get_non_det_fn(save_2_tensors, save_2_tensors_alt), debug=False)
        with ck(torch).set_checkpoint_debug_enabled(False):
            attempt(get_non_det_fn(save_2_tensors, save_2_tensors_alt), debug=True)
        attempt(get_non_det_fn(save_2_tensors, save_2_tensors_alt), determinism_check="none")
        try:
            ck(torch).checkpoint(torch.sin, a, use_reentrant=False, determinism_check="x")
        except ValueError as e:
            res.append(str(e))
        return res
    same(prog)


def test_access_saved_tensor_twice_without_recomputation_works():
    def prog(torch):
        count = [0]

        def foo(a):
            count[0] += 1
            b = a * a
            c = a * b
            return torch.exp(a)

        a = data(torch, 5, requires_grad=True)
        d = ck(torch).checkpoint(foo, a, use_reentrant=False)
        res = [count[0]]
        r1 = d.grad_fn._saved_result
        res.append(count[0])
        d.grad_fn._saved_result
        res.append(count[0])
        d.sum().backward()
        res.append(count[0])
        try:
            d.grad_fn._saved_result
        except RuntimeError as e:
            res.append(str(e))
        return res, r1, a.grad
    same(prog)


@pytest.mark.parametrize("input_requires_grad", [True, False])
def test_checkpointing_without_reentrant(input_requires_grad):
    def prog(torch):
        nn = torch.nn

        class MyModule(nn.Module):
            def __init__(self, mod):
                super().__init__()
                self.module = mod

            def forward(self, data):
                return self.module(data)

        module = MyModule(_fill(torch, nn.Sequential(nn.Linear(10, 100), nn.ReLU(),
                                                     nn.Linear(100, 10))))
        module_copy = copy.deepcopy(module)
        feats, feats_plain = [], []
        for i in range(20):
            d = data(torch, 1, 10, seed=i, lo=0, hi=1, dtype="float32",
                     requires_grad=input_requires_grad)
            feats.append(ck(torch).checkpoint(module, data=d, use_reentrant=False))
            feats_plain.append(module_copy(d))
        torch.stack(feats).mean().backward()
        torch.stack(feats_plain).mean().backward()
        return _grads(module), _grads(module_copy)
    got = same(prog)
    for g1, g2 in zip(*got):
        assert (g1 - g2).abs().max().item() < 1e-6


def test_checkpoint_valid_reset_on_error():
    def prog(torch):
        a = data(torch, 2, 2, requires_grad=True)
        res = []
        try:
            b = ck(torch).checkpoint(torch.exp, a, use_reentrant=True).sum()
            torch.autograd.grad(b, (a,))
        except RuntimeError as e:
            res.append(str(e))
        c = ck(torch).checkpoint(torch.exp, a, use_reentrant=True).sum()
        c.backward()
        try:
            d = ck(torch).checkpoint(torch.exp, a, use_reentrant=True).sum()
            d.backward(inputs=[a])
        except RuntimeError as e:
            res.append(str(e))
        return res, a.grad
    same(prog)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpointing_without_reentrant_detached_tensor(use_reentrant):
    def prog(torch):
        nn = torch.nn

        class NoGradModule(nn.Module):
            def __init__(self):
                super().__init__()
                self.linear = nn.Linear(2, 2, bias=False)
                self.lin2 = nn.Linear(2, 2, bias=False)

            def forward(self, x):
                with torch.no_grad():
                    return self.lin2(self.linear(x))

        module = _fill(torch, NoGradModule())
        a = data(torch, 2, 2, dtype="float32", requires_grad=True)
        res = []
        for _ in range(3):
            try:
                out = ck(torch).checkpoint(module, a, use_reentrant=use_reentrant)
                out += a
                out.sum().backward()
                res.append(("ok", a.grad))
            except RuntimeError as e:
                res.append(str(e))
        return res
    same(prog)


def test_checkpointing_without_reentrant_saved_object_identity():
    def prog(torch):
        x_backward = None

        class Test(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.save_for_backward(y)
                return x

            @staticmethod
            def backward(ctx, x):
                nonlocal x_backward
                (x_backward,) = ctx.saved_tensors
                return x, None

        a = torch.tensor(1.0, requires_grad=True)
        b = torch.tensor(1.0, requires_grad=False)
        Test.apply(a, b).backward()
        first = b is x_backward
        x_backward = None
        ck(torch).checkpoint(Test.apply, a, b, use_reentrant=False).backward()
        return first, b is x_backward
    assert same(prog) == (True, True)


def test_checkpointing_without_reentrant_correct_grad():
    def prog(torch):
        a = data(torch, 2, 2, requires_grad=True)
        torch.exp(a).sum().backward()
        b_grad = a.grad
        a.grad = None
        ck(torch).checkpoint(torch.exp, a, use_reentrant=False).sum().backward()
        c_grad = a.grad
        a.grad = None
        d = ck(torch).checkpoint(torch.exp, a, use_reentrant=False).sum()
        (d_grad,) = torch.autograd.grad(d, (a,))
        return b_grad, c_grad, d_grad
    b, c, d = same(prog)
    assert (b - c).abs().max().item() < 1e-12 and (b - d).abs().max().item() < 1e-12


def test_checkpointing_without_reentrant_dataparallel():
    def prog(torch):
        nn = torch.nn

        class LinearModule(nn.Module):
            def __init__(self):
                super().__init__()
                self.linear = nn.Linear(2, 2, bias=False)

            def forward(self, inp):
                return self.linear(inp)

        a = data(torch, 2, 2, dtype="float32", requires_grad=True)
        model = _fill(torch, LinearModule())
        copy.deepcopy(model)(a).sum().backward()
        b_grad = a.grad
        a.grad = None
        module = nn.DataParallel(copy.deepcopy(model))
        ck(torch).checkpoint(module, a, use_reentrant=False).sum().backward()
        return b_grad, a.grad
    same(prog, quiet=True)


def test_checkpointing_without_reentrant_parameter_used_in_an_out():
    def prog(torch):
        w = data(torch, 10, 10, requires_grad=True)
        count = [0]

        def hook(grad):
            count[0] += 1

        w.register_hook(hook)
        x = data(torch, 10, 10, seed=1, requires_grad=True)
        h = w * x
        out = ck(torch).checkpoint(lambda x: w * x, h, use_reentrant=False)
        out.sum().backward()
        return count[0], w.grad, x.grad
    same(prog)


def test_checkpointing_without_reentrant_arbitrary_input_output():
    def prog(torch):
        class MyModel(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = torch.nn.Linear(5, 5, bias=False)

            def forward(self, dict_input):
                return {"result": self.layer(dict_input["tensor"])}

        plain = _fill(torch, MyModel())
        checkpointed = copy.deepcopy(plain)
        inp = {"tensor": data(torch, 5, 5, dtype="float32")}
        out_plain = plain(inp)["result"].sum()
        out_ck = ck(torch).checkpoint(checkpointed, inp, use_reentrant=False)["result"].sum()
        out_plain.backward()
        out_ck.backward()
        return out_plain, out_ck, _grads(plain), _grads(checkpointed)
    same(prog)


def test_checkpointing_without_reentrant_custom_function_works():
    def prog(torch):
        seen = []

        class MyFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y, z):
                w = x * y * z
                out = w + w
                ctx.save_for_backward(x, y, z, w, out)
                return out

            @staticmethod
            def backward(ctx, grad_out):
                x, y, z, w, out = ctx.saved_tensors
                try:
                    ctx.saved_tensors
                except RuntimeError as e:
                    seen.append(str(e))
                return x, y, z

        x = torch.tensor(1.0, requires_grad=True)
        y = torch.tensor(2.0, requires_grad=True)
        z = torch.tensor(3.0, requires_grad=True)

        def foo(x, y, z):
            x = x * y * z
            y = y * y * z
            z = z * z
            return MyFunc.apply(x, y, z)

        out = ck(torch).checkpoint(foo, x, y, z, use_reentrant=False)
        out.sum().backward()
        return seen, x.grad, y.grad, z.grad
    same(prog)


def test_custom_autograd_ac_early_stop():
    """A custom Function that saves its own outputs, last in a checkpointed region: the
    early stop ends the recomputation inside the Function (its outputs' saving), and the
    recomputed outputs must be freed at once, not kept by a reference cycle (PyTorch's
    issue 161186, a leak there; PyTorch's test counts memory on the device, this one
    holds weak references to the outputs of the forward and of the recomputation)."""
    def prog(torch):
        import weakref
        refs = []

        class MyOp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                out_0 = torch.zeros(8)
                out_1 = torch.zeros(8)
                ctx.save_for_backward(inp, out_0, out_1)
                refs.append((weakref.ref(out_0), weakref.ref(out_1)))
                return out_0, out_1

            @staticmethod
            def backward(ctx, d_a, d_b):
                _ = ctx.saved_tensors
                return None

        def op_fn(inp):
            return MyOp.apply(inp)[0]

        x = torch.ones(8, requires_grad=True)
        r = []
        for early_stop in (True, False):
            refs.clear()
            with ck(torch).set_checkpoint_early_stop(early_stop):
                for _ in range(3):
                    out = ck(torch).checkpoint(op_fn, x, use_reentrant=False)
                    out.sum().backward()
                    del out
            # (no gc.collect(): freed by reference counting, as PyTorch frees them)
            r.append((early_stop, len(refs), x.grad,
                      [(a() is None, b() is None) for a, b in refs]))
        return r
    got = same(prog)
    assert all(all(a and b for a, b in dead) for _, _, _, dead in got)


def test_checkpointing_without_reentrant_with_context_fn():
    """PyTorch's test records the ops its forward context sees through a
    TorchDispatchMode (not in this tree); here the contexts record when they are
    entered: the first around the forward, the second around the recomputation."""
    def prog(torch):
        log = []

        @contextlib.contextmanager
        def recording(name):
            log.append(name + " enter")
            yield
            log.append(name + " exit")

        def context_fn():
            return recording("forward"), recording("recompute")

        x = torch.tensor(1.0, requires_grad=True)
        out = ck(torch).checkpoint(lambda x: x.exp(), x, use_reentrant=False,
                                   context_fn=context_fn)
        log.append("backward")
        out.backward()
        try:
            ck(torch).checkpoint(lambda x: x.sin(), x, use_reentrant=True,
                                 context_fn=context_fn)
        except ValueError as e:
            log.append(str(e))
        return log, x.grad
    same(prog)


def test_save_on_cpu_and_checkpoint():
    def prog(torch):
        a = data(torch, 2, 2, requires_grad=True)
        a.pow(2).pow(2).pow(2).pow(2).sum().backward()
        b_grad = a.grad.clone()
        a.grad.zero_()
        with torch.autograd.graph.save_on_cpu():
            h = a.pow(2)
            h = ck(torch).checkpoint(lambda x: x.pow(2).pow(2), h, use_reentrant=False)
            c = h.pow(2)
        c.sum().backward()
        c_grad = a.grad.clone()
        a.grad.zero_()

        def f(a):
            h = a.pow(2)
            with torch.autograd.graph.save_on_cpu():
                h = h.pow(2).pow(2)
            return h.pow(2)

        ck(torch).checkpoint(f, a, use_reentrant=False).sum().backward()
        return b_grad, c_grad, a.grad
    b, c, d = same(prog)
    assert (b - c).abs().max().item() < 1e-10 and (b - d).abs().max().item() < 1e-10


# ------------------------------------------------------------------ TestNestedCheckpoint

class TestNestedCheckpoint:
    @staticmethod
    def grad(torch, fn):
        def wrapper(x):
            with torch.enable_grad():
                out = fn(x)
                (grad_input,) = torch.autograd.grad(out, inputs=(x,), create_graph=True)
            return grad_input
        return wrapper

    @staticmethod
    def sum(fn):
        def wrapped(x):
            return fn(x).sum()
        return wrapped

    @staticmethod
    def checkpoint(torch, fn):
        def wrapped(*args, **kwargs):
            return ck(torch).checkpoint(fn, *args, use_reentrant=False, **kwargs)
        return wrapped

    def get_tests(self, torch, fn):
        def grad(f):
            return self.grad(torch, f)

        def c(f):
            return self.checkpoint(torch, f)

        return (
            (fn, (c(fn), c(c(fn)))),
            (grad(fn), (grad(c(fn)), grad(c(c(fn))))),
            (grad(grad(fn)), (grad(c(grad(fn))), c(grad(grad(c(fn)))),
                              grad(c(grad(c(fn)))))),
            (grad(grad(grad(fn))), (grad(c(grad(grad(c(fn))))),
                                    grad(c(grad(c(grad(c(fn)))))))),
        )

    @staticmethod
    def graph_dies(torch, fn):
        """Names of the graph's nodes still alive once the result is dropped."""
        import collections
        import weakref

        class Handle:
            def __init__(self, node_name):
                self.node_name = node_name

        def scope():
            a = data(torch, requires_grad=True)
            out = fn(a)
            refs, seen, q = [], {out.grad_fn}, collections.deque([out.grad_fn])
            while q:
                node = q.popleft()
                for f, _ in node.next_functions:
                    if f is not None and f not in seen:
                        seen.add(f)
                        q.append(f)
                handle = Handle(node.name())
                refs.append(weakref.ref(handle))
                node.metadata["blah"] = handle
            return refs

        return [r().node_name for r in scope() if r() is not None]

    @pytest.mark.parametrize("early_stop", [True, False])
    def test_nested_checkpoint(self, early_stop):
        def prog(torch):
            res = []
            with ck(torch).set_checkpoint_early_stop(early_stop):
                x = data(torch, requires_grad=True)

                def f(x):
                    return x.sin().exp().sin()

                def g(x):
                    a = x.sin().exp().sin()
                    b = x.sin().exp().sin()
                    torch.autograd.grad(a, x)
                    torch.autograd.grad(b, x)
                    return x.sin()

                for fn in (f, g):
                    for expected_fn, actual_fns in self.get_tests(torch, fn):
                        expected = expected_fn(x)
                        for actual_fn in actual_fns:
                            actual = actual_fn(x)
                            res.append((expected, actual,
                                        bool(torch.allclose(expected, actual))))
                            res.append(self.graph_dies(torch, actual_fn))
            return res
        res = same(prog)
        assert all(r[2] for r in res if isinstance(r, tuple))
        assert all(r == [] for r in res if isinstance(r, list))

    @pytest.mark.parametrize("early_stop", [True, False])
    def test_nested_checkpoint_two_children(self, early_stop):
        def prog(torch):
            def grad(f):
                return self.grad(torch, f)

            def c(f):
                return self.checkpoint(torch, f)

            sum_ = self.sum
            with ck(torch).set_checkpoint_early_stop(early_stop):
                def f(x):
                    return x.sin().exp().sin()

                def g(x):
                    return x.cos().sin().exp()

                def hc(x):
                    return c(g)(c(f)(x))

                def h(x):
                    return g(f(x))

                a = data(torch, 3, 3, requires_grad=True)
                expected = grad(sum_(grad(sum_(h))))(a)
                actual1 = grad(sum_(grad(sum_(c(hc)))))(a)
                actual2 = grad(sum_(c(grad(sum_(c(hc))))))(a)
                alive = (self.graph_dies(torch, grad(c(hc))),
                         self.graph_dies(torch, grad(sum_(grad(sum_(c(hc)))))),
                         self.graph_dies(torch, grad(sum_(c(grad(sum_(c(hc))))))))
                return expected, actual1, actual2, alive
        expected, a1, a2, alive = same(prog)
        assert (expected - a1).abs().max().item() < 1e-10
        assert (expected - a2).abs().max().item() < 1e-10
        assert alive == ([], [], [])

    @pytest.mark.parametrize("early_stop", [True, False])
    def test_nested_checkpoint_non_tensor_inputs_and_outputs(self, early_stop):
        def prog(torch):
            def fn(k, a, b, f):
                return f(k * a * b.exp()), 1, "abcd"

            a = torch.tensor(2.0, requires_grad=True)
            b = torch.tensor(3.0, requires_grad=True)
            with ck(torch).set_checkpoint_early_stop(early_stop):
                out, one, s = ck(torch).checkpoint(fn, 3, a, b, torch.sin, use_reentrant=False)
            actual = torch.autograd.grad(out, (a, b))
            out2, _, _ = fn(3, a, b, torch.sin)
            expected = torch.autograd.grad(out2, (a, b))
            return one, s, actual, expected
        same(prog)

    @pytest.mark.parametrize("early_stop", [True, False])
    def test_nested_checkpoint_kwargs(self, early_stop):
        def prog(torch):
            def fn(a, blah=None):
                out = a.sin().exp()
                if blah is not None:
                    out = out * blah
                return out.sin().exp()

            a = torch.tensor(2.0, requires_grad=True)
            b = torch.tensor(3.0, requires_grad=True)
            with ck(torch).set_checkpoint_early_stop(early_stop):
                out = ck(torch).checkpoint(fn, a, blah=b, use_reentrant=False)
                actual = torch.autograd.grad(out, (a, b))
                expected = torch.autograd.grad(fn(a, blah=b), (a, b))
            try:
                ck(torch).checkpoint(fn, a, blah=b, use_reentrant=True)
            except ValueError as e:
                return actual, expected, str(e)
        same(prog)

    @pytest.mark.parametrize("early_stop", [True, False])
    def test_nested_checkpoint_same_graph(self, early_stop):
        def prog(torch):
            counter = [0]

            def hook(*_unused_args):
                counter[0] += 1

            a = torch.tensor(1.0, requires_grad=True)
            with ck(torch).set_checkpoint_early_stop(early_stop):
                out = ck(torch).checkpoint(lambda a: a.sin().cos().sin(), a,
                                           use_reentrant=False)
            out.grad_fn.next_functions[0][0].register_hook(hook)
            out.backward()
            return counter[0], a.grad
        same(prog)

    @pytest.mark.parametrize("early_stop", [True, False])
    def test_nested_checkpoint_reentrant_backwards(self, early_stop):
        def prog(torch):
            def fn(a):
                x = a.sin().cos()
                return x, x.sin()

            a = torch.tensor(1.0, requires_grad=True)
            with ck(torch).set_checkpoint_early_stop(early_stop):
                x, out = ck(torch).checkpoint(fn, a, use_reentrant=False)

            def hook(*_unused_args):
                x.backward(retain_graph=True)

            out.grad_fn.register_hook(hook)
            out.backward(retain_graph=True)
            return a.grad
        same(prog)

    def test_nested_checkpoint_set_early_stop(self):
        def prog(torch):
            counter = [0]

            def clone(x):
                counter[0] += 1
                return x.clone()

            def fn(x):
                return clone(x.sin().cos())

            def run(outer=None, inner=None, **kwargs):
                counter[0] = 0
                a = torch.tensor(1.0, requires_grad=True)
                with contextlib.ExitStack() as stack:
                    for flag in (outer, inner):
                        if flag is not None:
                            stack.enter_context(ck(torch).set_checkpoint_early_stop(flag))
                    out = ck(torch).checkpoint(fn, a, use_reentrant=False, **kwargs)
                out.backward()
                return counter[0]

            return [run(), run(early_stop=False), run(early_stop=True), run(outer=False),
                    run(outer=True), run(outer=False, inner=True, early_stop=False),
                    run(outer=False, early_stop=True), run(outer=True, early_stop=False)]
        assert same(prog) == [1, 2, 1, 2, 1, 1, 2, 1]

    def test_nested_checkpoint_set_early_stop_no_recompution_needed(self):
        """PyTorch's test also counts the sin kernels dispatched (a TorchDispatchMode,
        not in this tree); the Python-level counts are compared here."""
        def prog(torch):
            res = []
            for fn_body in (lambda x: x.sin(), lambda x: x.clone()):
                for early_stop in (True, False):
                    counter = [0]

                    def fn(x):
                        counter[0] += 1
                        return fn_body(x)

                    a = torch.tensor(1.0, requires_grad=True)
                    with ck(torch).set_checkpoint_early_stop(early_stop):
                        out = ck(torch).checkpoint(fn, a, use_reentrant=False)
                    out.backward()
                    res.append((counter[0], a.grad))
            return res
        res = same(prog)
        assert [r[0] for r in res] == [2, 2, 1, 1]


def test_checkpointing_non_reentrant_autocast_cpu():
    # the recomputation in backward (outside the autocast region) re-enters the forward's
    # autocast state: mm computes in bfloat16 again, and the gradients flow through it
    def prog(mod):
        out = []
        for enabled in (True, False):
            def foo(x, y, z):
                x = mod.mm(x, y)
                y = mod.mm(x, z)
                z = mod.mm(z, z)
                out.append(z.dtype)
                return z
            x, y, z = (data(mod, 3, 3, seed=s, dtype="float32", requires_grad=True)
                       for s in (1, 2, 3))
            with mod.autocast(enabled=enabled, device_type="cpu", dtype=mod.bfloat16):
                loss = ck(mod).checkpoint(foo, x, y, z, use_reentrant=False).sum()
            loss.backward()
            out += [loss.dtype, z.grad]
        return out
    same(prog, rtol=0.02, atol=0.02)
