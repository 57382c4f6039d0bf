"""Custom autograd.Function: PyTorch's test/test_autograd.py tests of Functions, each
rewritten here as a differential program (run under torch and autograd_core, results
compared by tests/_diff.py).  Each test is named after the PyTorch test it follows."""
import gc
import warnings
import weakref

import pytest

from _diff import data, same


def _function_test(torch, cls):
    x = data(torch, 5, 5, seed=1, requires_grad=True)
    y = data(torch, 5, 5, seed=2, requires_grad=True)
    result = cls.apply(x, 2, y)
    go = torch.ones((), requires_grad=True, dtype=torch.float64)
    result.sum().backward(go, create_graph=True)
    r = [x.grad, y.grad, x.grad.grad_fn is not None, y.grad.grad_fn is not None]
    return x, y, go, r


# PyTorch's test_function compares the node names of x.grad's graph with a stored file;
# the names of nodes made by create_graph backward formulas are free to differ here, so
# these follow it by the values of the second derivatives through that graph instead.

def test_function():
    def prog(torch):
        seen = []

        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, tensor1, pyscalar, tensor2):
                ctx.pyscalar = pyscalar
                ctx.save_for_backward(tensor1, tensor2)
                return tensor1 + pyscalar * tensor2 + tensor1 * tensor2

            @staticmethod
            def backward(ctx, grad_output):
                var1, var2 = ctx.saved_tensors
                seen.append([isinstance(v, torch.Tensor) for v in (var1, var2, grad_output)])
                return (grad_output + grad_output * var2, None,
                        grad_output * ctx.pyscalar + grad_output * var1)

        x, y, go, r = _function_test(torch, MyFunction)
        gx, gy = x.grad, y.grad
        x.grad = y.grad = None
        second = torch.autograd.grad((gx * gy).sum(), (x, y, go))
        return r, seen, second
    same(prog, quiet=True)


def test_once_differentiable():
    def prog(torch):
        seen = []

        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, tensor1, pyscalar, tensor2):
                ctx.pyscalar = pyscalar
                ctx.save_for_backward(tensor1, tensor2)
                return tensor1 + pyscalar * tensor2 + tensor1 * tensor2

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, grad_output):
                seen.append(torch.is_grad_enabled())
                t1, t2 = ctx.saved_tensors
                return (grad_output + grad_output * t2, None,
                        grad_output * ctx.pyscalar + grad_output * t1)

        x, y, go, r = _function_test(torch, MyFunction)
        try:  # the graph of x.grad ends in an error node: differentiating it raises
            x.grad.sum().backward()
        except RuntimeError as e:
            r.append(("RuntimeError", str(e)))
        return r, seen
    same(prog, quiet=True)


def test_function_returns_input():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        r = []
        for shape in [(1,), ()]:
            v = torch.ones(shape, requires_grad=True)
            MyFunction.apply(v).backward()
            r.append(v.grad.clone())
            with torch.no_grad():
                v.grad.zero_()
            MyFunction.apply(v.clone()).backward()
            r.append(v.grad)
        return r
    same(prog)


def test_function_returns_undefined_tensor():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return None

        x = torch.ones(1, requires_grad=True)
        r = []
        MyFunction.apply(x).backward()
        r.append(x.grad)
        MyFunction.apply(x ** 2).backward()
        r.append(x.grad)
        MyFunction.apply(x).sum().backward()
        r.append(x.grad)
        r.append(torch.autograd.grad(MyFunction.apply(x), x, allow_unused=True)[0])
        return r
    same(prog)


def _two_outputs_one_used(torch, materialize):
    """An undefined incoming gradient, made with the public API: a Function with two
    outputs of which backward reaches only one (PyTorch's test uses a private
    UndefinedGrad node for this)."""
    seen = []

    class MyFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            if not materialize:
                ctx.set_materialize_grads(False)
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append(g2)
            return g1 if g2 is None else g1 + g2

    x = torch.ones(1, requires_grad=True)
    a, b = MyFunction.apply(x)
    a.backward()
    return seen, x.grad


def test_materialize_grads():
    same(_two_outputs_one_used, True)


def test_dont_materialize_grads():
    same(_two_outputs_one_used, False)


def test_unused_grad_requires_grad_with_materialize():
    def prog(torch):
        x = torch.ones(10, requires_grad=True)
        y = torch.ones(10, requires_grad=True)
        z = (x ** 2).sum()
        g = torch.autograd.grad(z, (x, y), allow_unused=True, materialize_grads=True,
                                create_graph=False)
        return g, g[0].requires_grad, g[1].requires_grad
    same(prog)


def test_legacy_function_deprecation_exception():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            def forward(self, x):
                return x

            def backward(self, grad_output):
                return grad_output

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f = MyFunction()
        return f(torch.ones(3, 4))
    same(prog, must_raise=True)


def _simulate_backward_error(torch):
    class SimulateBackwardError(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            return input.clone()

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, input):
            raise Exception("Simulate error on backward pass")  # noqa: TRY002
    return SimulateBackwardError


def test_custom_function_exception():
    def prog(torch):
        t1 = data(torch, 3, 3, seed=1, requires_grad=True)
        t2 = data(torch, 3, 3, seed=2, requires_grad=True)
        tmp = (t1 + t2) * (t1 + t2)
        t3 = _simulate_backward_error(torch).apply(tmp)
        try:
            t3.sum().backward()
        except Exception as e:  # noqa: BLE001
            return "raised", str(e)
        return "no error"
    same(prog)


def _non_tensor_io_fn(torch, seen):
    class MyFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t1, t2, scale, t3):
            t4 = t1 + t2 * t3
            t5 = t1 * t2 + t3
            t4 *= scale
            t5 *= scale
            ctx.scale = scale
            ctx.save_for_backward(t1, t2, t3)
            return scale, t4, None, True, t5, "bar", t1

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, *grads):
            seen.append((len(grads), grads[0], grads[2], grads[3], grads[5]))
            scale = ctx.scale
            var1, var2, var3 = ctx.saved_tensors
            return (grads[1] * scale + grads[4] * var2 * scale + grads[6],
                    grads[1] * var3 * scale + grads[4] * var1 * scale,
                    None,
                    grads[1] * var2 * scale + grads[4] * scale)
    return MyFunction


def test_custom_function_non_tensor_inputs_outputs():
    def prog(torch):
        seen = []
        MyFunction = _non_tensor_io_fn(torch, seen)
        t1 = data(torch, 10, seed=1, requires_grad=True)
        t2 = data(torch, 10, seed=2, requires_grad=True)
        t3 = data(torch, 10, seed=3)
        scale = 7
        res = MyFunction.apply(t1, t2, scale, t3)
        r = [res[0], res[1], res[2], res[3], res[4], res[5], res[6]]
        torch.autograd.backward([res[1].sum(), res[4].sum(), res[6].sum()])
        r += [t1.grad, t2.grad, t3.grad, list(seen)]

        def foo(t1, t2, t3):
            res = MyFunction.apply(t1, t2, scale, t3)
            return res[1], res[4], res[6]
        r.append(torch.autograd.gradcheck(foo, (t1, t2, t3)))
        return r
    same(prog)


def test_custom_function_no_tensors():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, t1, t2, scale, t3):
                t4 = t1 + t2 * t3
                t5 = t1 * t2 + t3
                t4 *= scale
                t5 *= scale
                return scale, t4, None, True, t5, "bar", t1

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, *args):
                return (args[0], args[1], None, args[2])

        return MyFunction.apply(0.25, 0.5, 3, 0.75)
    same(prog)


def test_invalid_gradients():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad_output):
                return torch.ones(10, dtype=torch.float)

        input = torch.ones(5, 5, dtype=torch.float, requires_grad=True)
        MyFunction.apply(input).sum().backward()
    same(prog, must_raise=True)


def test_unrelated_inputs():
    def prog(torch):
        def my_function(x, y):
            return x * x
        x = data(torch, 10, seed=1, requires_grad=True)
        y = data(torch, 10, seed=2, requires_grad=True)
        return (torch.autograd.gradcheck(my_function, (x, y)),
                torch.autograd.gradgradcheck(my_function, (x, y)))
    same(prog)


def test_not_implemented_grad():
    # PyTorch's test backpropagates through nextafter, which had no derivative when the
    # test was written; 2.13 has one (NextafterBackward0), so nextafter's gradient is
    # compared here, and an op 2.13 still has no derivative for (igamma, w.r.t. its
    # input) must raise NotImplementedError naming it
    def prog(torch):
        a = data(torch, 2, requires_grad=True)
        b = data(torch, 2, seed=1, requires_grad=True)
        torch.nextafter(a, a).sum().backward()
        torch.nextafter(b, a).sum().backward()
        return a.grad, b.grad
    same(prog)

    def no_derivative(torch):
        a = data(torch, 2, lo=0.5, hi=2.0, requires_grad=True)
        torch.igamma(a, a).sum().backward()
    same(no_derivative, must_raise=True)


def test_custom_function_vmap_defaults():
    def prog(torch):
        class MySquare(torch.autograd.Function):
            @staticmethod
            def forward(x):
                return x ** 2

            @staticmethod
            def setup_context(ctx, inputs, output):
                x, = inputs
                ctx.save_for_backward(x)

            @staticmethod
            def backward(ctx, gO):
                x, = ctx.saved_tensors
                return gO * 2 * x

        # and what the defaults mean under vmap: no rule, so vmap raises
        x = data(torch, 3, 2, seed=41)
        try:
            torch.vmap(MySquare.apply)(x)
            raised = None
        except RuntimeError as e:
            raised = str(e)
        return MySquare.generate_vmap_rule, hasattr(MySquare, "vmap"), raised
    same(prog)


def test_custom_function_setup_context_simple():
    def prog(torch):
        class MySquare(torch.autograd.Function):
            @staticmethod
            def forward(x):
                return x ** 2

            @staticmethod
            def setup_context(ctx, inputs, output):
                (x,) = inputs
                ctx.save_for_backward(x)

            @staticmethod
            def backward(ctx, gO):
                (x,) = ctx.saved_tensors
                return gO * 2 * x

        x = torch.tensor(0.75, dtype=torch.float64, requires_grad=True)
        y = MySquare.apply(x)
        (gx,) = torch.autograd.grad(y, x)
        return y, gx, type(y.grad_fn).__name__
    same(prog)


def test_custom_function_setup_context_multi_output():
    def prog(torch):
        class MySquare(torch.autograd.Function):
            @staticmethod
            def forward(x):
                two_x = x.item() * 2
                return x ** 2, two_x

            @staticmethod
            def setup_context(ctx, inputs, output):
                (x,) = inputs
                _, two_x = output
                ctx.two_x = two_x

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, gO, _):
                return gO * ctx.two_x

        x = torch.tensor(-0.5, dtype=torch.float64, requires_grad=True)
        y, two = MySquare.apply(x)
        (gx,) = torch.autograd.grad(y, x)
        return y, two, gx
    same(prog)


def test_custom_function_setup_context_multi_input():
    def prog(torch):
        class MyReshape(torch.autograd.Function):
            @staticmethod
            def forward(x, shape, scale_forward, scale_backward):
                return x.reshape(shape) * scale_forward

            @staticmethod
            def setup_context(ctx, inputs, output):
                x, shape, scale_forward, scale_backward = inputs
                ctx.scale_backward = scale_backward
                ctx.x_shape = x.shape

            @staticmethod
            def backward(ctx, gO):
                return gO.reshape(ctx.x_shape) * ctx.scale_backward, None, None, None

        class MyReshapeRef(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, shape, scale_forward, scale_backward):
                ctx.scale_backward = scale_backward
                ctx.x_shape = x.shape
                return x.reshape(shape) * scale_forward

            @staticmethod
            def backward(ctx, gO):
                return gO.reshape(ctx.x_shape) * ctx.scale_backward, None, None, None

        r = []
        for x, shape, sf, sb in [(data(torch, 24, requires_grad=True), (3, 8), 7, 11),
                                 (data(torch, 2, 3, 4, requires_grad=True), (6, 4), -1, 2)]:
            y = MyReshape.apply(x, shape, sf, sb).sum()
            (gx,) = torch.autograd.grad(y, x)
            y_expected = MyReshapeRef.apply(x, shape, sf, sb).sum()
            (gx_expected,) = torch.autograd.grad(y_expected, x)
            r += [y, gx, y_expected, gx_expected]
        return r
    same(prog)


def test_gc_in_destructor():
    def prog(torch):
        class CollectOnDelete(torch.autograd.Function):
            def forward(self, x):
                return x

            def backward(self, grad_output):
                return grad_output

            def __del__(self):
                gc.collect()

        r = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(2):  # PyTorch: 10; each gc.collect() is slow with torch loaded
                x = torch.ones(1, requires_grad=True)
                CollectOnDelete().forward(x).backward()
                r.append(x.grad)
        return r
    same(prog)


def test_naughty_autograd_function_attribute_access():
    def prog(torch):
        class Id(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, grad_x):
                return grad_x

        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f = Id()
        r = [[(x.category.__name__, "should not be instantiated" in str(x.message))
              for x in w], isinstance(f, Id)]
        x = torch.zeros(1, requires_grad=True)
        try:
            f(x)
        except RuntimeError as e:
            r.append(("RuntimeError", "non-static forward method is deprecated" in str(e)))
        t = Id.apply(x)
        r.append(t.grad_fn.name())
        return r
    same(prog)


def test_naughty_autograd_function_stashing_ctx():
    def prog(torch):
        saved_ctx = []

        class Id(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x

            @staticmethod
            def backward(ctx, grad_x):
                saved_ctx.append(ctx)
                return ctx.saved_tensors

        p = torch.zeros(1, requires_grad=True)
        loss = Id.apply(p)
        loss.backward(retain_graph=True)
        del loss
        return saved_ctx[0].saved_tensors
    # PyTorch's test expects a RuntimeError here; torch 2.13 (the oracle) returns the
    # saved input (a leaf, kept alive by the ctx) instead.
    same(prog, may_raise=True)


def test_custom_autograd_repeated_grad_grad():
    def prog(torch):
        def mult1(x):
            return x.prod(dim=-1).prod(dim=-1)

        class Mult(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = mult1(x)
                ctx.save_for_backward(x, y)
                return y

            @staticmethod
            def backward(ctx, grad_output):
                x, y = ctx.saved_tensors
                return (grad_output * y)[:, None, None] / x

        r = []
        for f in (mult1, Mult.apply):
            x = (data(torch, 2, 4, 4, lo=0.5, hi=1.5)).requires_grad_()
            y = f(x)
            (gy,) = torch.autograd.grad(y[0], x, create_graph=True)
            (ggy_1,) = torch.autograd.grad(gy[0, 0, 0], x, retain_graph=True)
            (gy,) = torch.autograd.grad(y[0], x, create_graph=True)
            (ggy_2,) = torch.autograd.grad(gy[0, 0, 0], x, retain_graph=True)
            r += [ggy_1, ggy_2]
        return r
    same(prog)


def test_custom_autograd_no_early_free():
    def prog(torch):
        class Double(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x ** 2
                ctx.save_for_backward(x, y)
                return y

            @staticmethod
            def backward(ctx, grad_output):
                x, _ = ctx.saved_tensors
                return grad_output * 2 * x

        class Double2(Double):
            @staticmethod
            def backward(ctx, grad_output):
                x, y = ctx.saved_tensors
                return grad_output * 2 * y / x

        x = torch.tensor(2).double().requires_grad_()
        gc_ = torch.autograd.gradcheck
        ggc = torch.autograd.gradgradcheck
        r = [gc_(Double.apply, x), ggc(Double.apply, x),
             gc_(Double2.apply, x), ggc(Double2.apply, x)]
        for f in (Double.apply, Double2.apply):
            y = f(x)
            r.append(torch.autograd.grad(y, x, create_graph=True))
            r.append(torch.autograd.grad(y, x))
        return r
    same(prog)


def test_save_none_for_backward():
    def prog(torch):
        seen = []

        class MyFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input):
                ctx.save_for_backward(None, input, None)
                return input * input

            @staticmethod
            def backward(ctx, grad_output):
                n1, input, n2 = ctx.saved_tensors
                seen.append((n1, n2))
                return 2 * input * grad_output

        x = data(torch, 5, 5, requires_grad=True)
        y = MyFn.apply(x)
        y.sum().backward()
        return seen, x.grad
    same(prog)


def test_too_many_grads():
    def prog(torch):
        class MyFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input):
                return input

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output, None, None

        x = data(torch, 5, 5, requires_grad=True)
        MyFn.apply(x).sum().backward()
        return x.grad
    same(prog)


def test_dep_nograd():
    def prog(torch):
        class F1(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input):
                out = torch.ones(input.size())
                ctx.mark_non_differentiable(out)
                return input, out

            @staticmethod
            def backward(ctx, grad_output, ignored):
                return grad_output

        class F2(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input, ignored):
                return input

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output, None

        x = data(torch, 5, requires_grad=True)
        a, b = F1.apply(x)
        b = b + 1
        r = [a.requires_grad, b.requires_grad]
        c = F2.apply(a, b)
        c.backward(torch.ones(c.size(), dtype=torch.float64))
        return r + [x.grad]
    same(prog)


def test_no_grad_python_function():
    def prog(torch):
        x = torch.ones(5, 5, requires_grad=True)

        class MyOp(torch.autograd.Function):
            @staticmethod
            def forward(self, x):
                return x + 1

            @staticmethod
            def backward(self, dy):
                return dy

        with torch.no_grad():
            y = MyOp.apply(x)
        return y.requires_grad, y.grad_fn is None
    same(prog)


def test_no_grad_input():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(self, x):
                return x

            @staticmethod
            def backward(self, grad_output):
                return grad_output

        x = data(torch, 5, requires_grad=True)
        with torch.no_grad():
            y = MyFunction.apply(x)
        # (y is x: the input itself comes back, as PyTorch's)
        return x.requires_grad, y.grad_fn is None, y.requires_grad, y is x
    same(prog)


def test_save_output_nr():
    def prog(torch):
        seen = []
        x = data(torch, 10, requires_grad=True)

        class MultiOutputFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x[:5], x[5:]

            @staticmethod
            def backward(ctx, *grad):
                return torch.cat(grad)

        a, b = MultiOutputFn.apply(x)

        class TestFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, b):
                ctx.save_for_backward(b)
                return b * 2

            @staticmethod
            def backward(ctx, grad_b):
                (b,) = ctx.saved_tensors
                seen.append(b.output_nr)

        TestFn.apply(b).sum().backward()
        return a.output_nr, b.output_nr, seen
    same(prog)


def test_mark_non_differentiable():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input):
                output = input > 0
                ctx.mark_non_differentiable(output)
                return output

            @staticmethod
            def backward(ctx, grad_output):
                return (grad_output * 0).to(torch.double)

        x = data(torch, 5, 5, requires_grad=True)
        mask = MyFunction.apply(x)
        y = x.masked_fill(mask, 0)
        y.sum().backward()
        return mask.requires_grad, mask, x.grad
    same(prog)


def test_mark_non_differentiable_mixed():
    def prog(torch):
        seen = []

        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input):
                a = input + 1
                b = input + 2
                ctx.mark_non_differentiable(a)
                return a, b

            @staticmethod
            def backward(ctx, grad_a, grad_b):
                seen.append((grad_a, grad_b))
                return grad_b

        x = data(torch, 5, 5, requires_grad=True)
        a, b = MyFunction.apply(x)
        r = [a.requires_grad, b.requires_grad]
        b.sum().backward()
        return r, seen, x.grad
    same(prog)


def test_mark_non_differentiable_none():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input):
                output = input.clone()
                ctx.mark_non_differentiable(output)
                return output

            @staticmethod
            def backward(ctx, grad_output):
                return None

        x = data(torch, 5, 5, requires_grad=True)
        r = MyFunction.apply(x * x)
        (r * x).sum().backward()
        return x.grad
    same(prog)


def test_return_duplicate():
    def prog(torch):
        class DoubleDuplicate(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                output = x * 2
                return output, output

            @staticmethod
            def backward(ctx, grad1, grad2):
                return grad1 * 2 + grad2 * 2

        same_obj = []

        def fn(x):
            a, b = DoubleDuplicate.apply(x)
            same_obj.append(a is b)
            return a + b

        x = data(torch, 5, 5, requires_grad=True)
        return (torch.autograd.gradcheck(fn, [x]), torch.autograd.gradgradcheck(fn, [x]),
                all(same_obj))
    same(prog)


def test_return_duplicate_inplace():
    def prog(torch):
        class DoubleInplace(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x, x

            @staticmethod
            def backward(ctx, grad1, grad2):
                return grad1 * 2 + grad2 * 2

        same_obj = []

        def inplace_fn(x):
            a, b = DoubleInplace.apply(x.clone())
            same_obj.append(a is b)
            return a + b

        x = data(torch, 5, 5, requires_grad=True)
        return (torch.autograd.gradcheck(inplace_fn, [x]),
                torch.autograd.gradgradcheck(inplace_fn, [x]), all(same_obj))
    same(prog)


def test_return_leaf():
    def prog(torch):
        seen = []

        class Identity(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a, a + b

            @staticmethod
            def backward(ctx, grad_a, grad_b):
                return grad_a + grad_b, grad_b

        x = data(torch, 5, 5, seed=1, requires_grad=True)
        y = data(torch, 5, 5, seed=2, requires_grad=True)
        q, p = Identity.apply(x, y)
        q.register_hook(lambda g: seen.append(g))
        (q + p + x).sum().backward()
        return x.grad, y.grad, seen, q is x, type(q.grad_fn).__name__
    same(prog)


def test_return_leaf_inplace():
    def prog(torch):
        class Inplace(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.mark_dirty(a)
                return a.add_(b), b + 2

            @staticmethod
            def backward(ctx, grad_a, grad_b):
                return grad_a, grad_a + grad_b

        x = data(torch, 5, 5, seed=1)
        y = data(torch, 5, 5, seed=2, requires_grad=True)
        q, p = Inplace.apply(x, y)
        r = [q is x, type(q.grad_fn).__name__, q.requires_grad, x]
        q.sum().backward()
        return r + [y.grad]
    same(prog)


def test_simple_reentrant():
    def prog(torch):
        y_data = data(torch, 2, 2, seed=5)

        class Reenter(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                with torch.enable_grad():
                    ctx.x = torch.autograd.Variable(x, requires_grad=True)
                    ctx.y = torch.autograd.Variable(y_data, requires_grad=True)
                    ctx.output_var = ctx.x * ctx.y
                return ctx.output_var.detach()

            @staticmethod
            def backward(ctx, grad_output):
                with torch.enable_grad():
                    ctx.output_var.sum().backward()
                return ctx.x.grad * grad_output

        x = data(torch, 2, 2, requires_grad=True)
        out = Reenter.apply(x)
        out.sum().backward()
        return x.grad
    same(prog)


def test_reentrant_child_error():
    def prog(torch):
        a = data(torch, 3, 3, seed=1, requires_grad=True)
        c = a * a
        b = data(torch, 3, 3, seed=2, requires_grad=True)
        e = b * b
        f = _simulate_backward_error(torch).apply(e)
        reentrant_root = f.sum()

        class ReentrantFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                return inp.clone()

            @staticmethod
            def backward(ctx, grad):
                reentrant_root.backward()
                return grad

        d = ReentrantFunc.apply(c)
        try:
            d.sum().backward()
        except Exception as e:  # noqa: BLE001
            return "Simulate error" in str(e)
        return "no error"
    same(prog)


def test_saved_variables_deprecated():
    def prog(torch):
        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, tensor1, tensor2):
                ctx.save_for_backward(tensor1, tensor2)
                return tensor1 + tensor2

            @staticmethod
            def backward(ctx, grad_output):
                var1, var2 = ctx.saved_variables
                return (grad_output, grad_output)

        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            x = data(torch, 3, 3, seed=1, requires_grad=True)
            y = data(torch, 3, 3, seed=2, requires_grad=True)
            MyFunction.apply(x, y).sum().backward()
        return (any("deprecated" in str(w.message) and "saved_variables" in str(w.message)
                    for w in ws), x.grad, y.grad)
    same(prog)


def test_autograd_node_isinstance():
    def prog(torch):
        Node = torch.autograd.graph.Node
        a = data(torch, 3, 3, requires_grad=True)
        b = a.exp()
        acc = b.grad_fn.next_functions[0][0]
        seen = []

        class Func(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                seen.append(isinstance(ctx, Node))
                return x

            @staticmethod
            def backward(ctx, x):
                seen.append(isinstance(ctx, Node))
                return x

        # (PyTorch also asserts that Node is not in the mro of its node classes: a
        # detail of how it registers C++ nodes, not followed)
        r = [isinstance(b.grad_fn, Node), issubclass(type(b.grad_fn), Node), isinstance(acc, Node),
             issubclass(type(acc), Node), isinstance(None, Node), isinstance(1, Node),
             isinstance(Node, Node), issubclass(Node, Node)]
        out = Func.apply(a)
        r += [isinstance(out.grad_fn, Node), issubclass(type(out.grad_fn), Node)]
        out.sum().backward()
        return r, seen
    same(prog)


def _simple_views_fns(torch, bw_called, ga_nz):
    class IdOneOutput(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, make_view):
            return a.narrow(0, 0, 2) if make_view else a.clone()

        @staticmethod
        def backward(ctx, ga):
            bw_called[0] += 1
            return ga, None

    class IdTwoOutput(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, make_view):
            a = a.narrow(0, 0, 2) if make_view else a.clone()
            return a, a + b

        @staticmethod
        def backward(ctx, ga, gab):
            bw_called[0] += 1
            ga_nz[0] = not bool(ga.eq(0).all())
            return ga + gab, gab, None

    class ViewOfTemp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, make_view):
            ctx.save_for_backward(a)
            a = a.narrow(0, 0, 2) if make_view else a.clone()
            b = a.clone()
            return b.select(0, 0)

        @staticmethod
        def backward(ctx, grad):
            bw_called[0] += 1
            (a,) = ctx.saved_tensors
            res = torch.zeros_like(a)
            res.select(0, 0).copy_(grad)
            return res, None
    return IdOneOutput, IdTwoOutput, ViewOfTemp


@pytest.mark.parametrize("fn_id", ["one_output", "two_output", "view_of_temp"])
def test_autograd_simple_views_python(fn_id):
    # PyTorch also runs it with complex128 and with the private ctx._is_pure_view flag;
    # here float64 and ordinary (not pure-view) Functions
    def prog(torch):
        bw_called, ga_nz = [0], [False]
        IdOneOutput, IdTwoOutput, ViewOfTemp = _simple_views_fns(torch, bw_called, ga_nz)
        r = []
        for inplace in (True, False):
            for make_view in (True, False):
                def fn(a, b):
                    a = a.clone()
                    b = b.clone()
                    if fn_id == "two_output":
                        tmp1, tmp2 = IdTwoOutput.apply(a, b, make_view)
                        if inplace:
                            tmp1 += 3
                            tmp2 += 3
                        else:
                            tmp1 = tmp1 + 3
                            tmp2 = tmp2 + 3
                        tmp = tmp1 * tmp2
                    else:
                        if fn_id == "one_output":
                            tmp = IdOneOutput.apply(a, make_view)
                        else:
                            tmp = ViewOfTemp.apply(a + b, make_view)
                        if inplace:
                            tmp += 3
                        else:
                            tmp = tmp + 3
                    return tmp.sum()

                a = torch.ones(2, dtype=torch.float64, requires_grad=True)
                b = torch.ones(2, dtype=torch.float64, requires_grad=True)
                try:
                    r.append(torch.autograd.gradcheck(fn, (a, b)))
                except RuntimeError as e:
                    r.append(str(e))
                bw_called[0] = 0
                ga_nz[0] = True
                try:
                    fn(a, b).abs().backward()
                except RuntimeError as e:
                    r.append(str(e))
                r += [bw_called[0], ga_nz[0], a.grad, b.grad]
        return r
    same(prog)


def test_autograd_multiple_views_python():
    def prog(torch):
        bw_called = [0]

        class ComplexView(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, idx):
                res = a.narrow(0, idx, 1)
                res = a.select(0, idx)
                ctx.save_for_backward(a)
                ctx.idx = idx
                return res

            @staticmethod
            def backward(ctx, grad):
                bw_called[0] += 1
                (a,) = ctx.saved_tensors
                res = torch.zeros_like(a)
                res.select(0, ctx.idx).copy_(grad)
                return res, None

        a = torch.ones(2, requires_grad=True)
        out = ComplexView.apply(a.clone(), 1)
        out.sum().backward()
        r = [bw_called[0], a.grad]
        out = ComplexView.apply(a.clone(), 1)
        try:
            out += 1
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_autograd_python_custom_function_inplace():
    def prog(torch):
        bw_called = [0]
        r = []

        class MyAdder(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                a.add_(b)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx, grad):
                bw_called[0] += 1
                return grad, grad

        a = torch.ones(2, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
        c = MyAdder.apply(a.clone(), b)
        c.sum().backward()
        r.append(bw_called[0])
        bw_called[0] = 0
        c = MyAdder.apply(a.clone(), b)
        c += 2
        c.sum().backward()
        r.append(bw_called[0])
        bw_called[0] = 0
        c = MyAdder.apply(a.clone().view_as(a), b)
        c.sum().backward()
        r += [bw_called[0], a.grad.clone(), b.grad.clone()]

        class MyAdderBad(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                c = 3 * a
                c.add_(b)
                ctx.mark_dirty(c)
                return c

            @staticmethod
            def backward(ctx, grad):
                bw_called[0] += 1
                grad = 3 * grad
                return grad, grad

        a = torch.ones(2, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            MyAdderBad.apply(a.clone(), b)
        r.append(len(w))

        class MyBadAdder(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                a.add_(b)
                ctx.mark_dirty(a)
                return a, a + b

            @staticmethod
            def backward(ctx, ga, gab):
                bw_called[0] += 1
                return ga + gab, ga + gab

        bw_called[0] = 0
        c, d = MyBadAdder.apply(a.clone(), b)
        (c * d).sum().backward()
        r.append(bw_called[0])
        bw_called[0] = 0
        c, d = MyBadAdder.apply(a.clone(), b)
        c += 2
        (c * d).sum().backward()
        r += [bw_called[0], a.grad.clone(), b.grad.clone()]
        try:
            MyBadAdder.apply(a.clone().view_as(a), b)
        except RuntimeError as e:
            r.append(str(e))

        class MyOutPlaceAdder(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                a.add_(b)
                ctx.mark_dirty(a)
                return a.clone(), a + b

            @staticmethod
            def backward(ctx, ga, gab):
                bw_called[0] += 1
                return ga + gab, ga + 2 * gab

        try:
            orig_a = a.clone().view_as(a)
            c, d = MyOutPlaceAdder.apply(orig_a, b)
            (c * d).sum()
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog, quiet=True)


def test_custom_function_mark_dirty_not_differentiable():
    # the backward-mode half (PyTorch's test also checks the forward-mode jvp)
    def prog(torch):
        class InplaceMul(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                result = x.mul_(2)
                ctx.mark_dirty(result)
                return result

            @staticmethod
            def backward(ctx, grad_output):
                pass

        r = []
        for requires_grad in (True, False):
            z = torch.tensor(1.0, requires_grad=requires_grad)
            x = z.clone()
            y = InplaceMul.apply(x)
            r += [x is y, x, y.requires_grad]
        return r
    same(prog)


def test_custom_function_mark_output_view_of_intermediate():
    def prog(torch):
        class Func(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                out = inp.clone().view_as(inp)
                ctx.mark_dirty(out)
                return out

            @staticmethod
            def backward(ctx, gO):
                pass

        a = torch.tensor([1.0], requires_grad=True)
        Func.apply(a.clone())
    same(prog, must_raise=True)


def _inplace_func(torch):
    class Func(torch.autograd.Function):
        @staticmethod
        def forward(ctx, inp):
            inp.add_(1)
            ctx.mark_dirty(inp)
            return inp

        @staticmethod
        def backward(ctx, gO):
            pass
    return Func


def test_custom_function_inplace_on_non_default_view():
    def prog(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b, c = a.split_with_sizes([1, 1], dim=0)
        _inplace_func(torch).apply(b)
    same(prog, must_raise=True)


def test_custom_function_inplace_on_view_of_leaf():
    def prog(torch):
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        _inplace_func(torch).apply(a.view_as(a))
    same(prog, must_raise=True)


def test_custom_function_saving_mutated_view_no_leak():
    def prog(torch):
        class Test(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_dirty(x)
                ctx.save_for_backward(x)
                return x

            @staticmethod
            def backward(ctx, grad):
                pass

        def scope():
            x = torch.tensor(1.0, requires_grad=True).clone()
            x = x.view_as(x)
            Test.apply(x)
            return weakref.ref(x)

        ref = scope()
        return ref() is None
    same(prog)


def test_custom_function_return_view_in_nograd():
    def prog(torch):
        class Alias(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x[:]

            @staticmethod
            def backward(ctx, gx):
                return gx

        inp = data(torch, 2, requires_grad=True)
        with torch.no_grad():
            output = Alias.apply(inp)
        with torch.no_grad():
            expected_output = inp[:]
        r = [output.requires_grad, expected_output.requires_grad]
        try:
            output.zero_()
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_grad_mode_restored_reentrant():
    def prog(torch):
        log = []

        class MyFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                return inp.clone()

            @staticmethod
            def backward(ctx, go):
                original = torch.is_grad_enabled()
                with torch.enable_grad():
                    log.append(torch.is_grad_enabled())
                    foo = data(torch, *go.size(), seed=3, requires_grad=True)
                    (grad,) = torch.autograd.grad(foo ** 3, foo, grad_outputs=go)
                    log.append(torch.is_grad_enabled())
                log.append(torch.is_grad_enabled() == original)
                return grad

        inp = data(torch, 3, requires_grad=True)
        MyFunction.apply(inp).sum().backward()
        MyFunction.apply(inp).sum().backward(create_graph=True)
        return log, inp.grad
    same(prog, quiet=True)


def test_custom_function_error():
    # the backward-mode cases (PyTorch's test also checks forward mode's jvp)
    def prog(torch):
        class BadFw(torch.autograd.Function):
            @staticmethod
            def backward(ctx, foo):
                return foo

        class BadBw(torch.autograd.Function):
            @staticmethod
            def forward(ctx, foo):
                return foo.clone()

        class BadBw2(torch.autograd.Function):
            @staticmethod
            def forward(ctx, foo):
                return foo.clone()

            @staticmethod
            def backward(ctx, foo):
                return foo

            @staticmethod
            def vjp(ctx, foo):
                return foo

        inp = data(torch, 1, requires_grad=True)
        r = []
        for f in (lambda: BadFw.apply(inp), lambda: BadBw.apply(inp).sum().backward(),
                  lambda: BadBw2.apply(inp).sum().backward()):
            try:
                f()
                r.append("no error")
            except (NotImplementedError, RuntimeError) as e:
                r.append((type(e).__name__, str(e)))
        return r
    same(prog)


def test_custom_function_local_inplace():
    def prog(torch):
        class MyFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp, inplace):
                view = inp.clone()[:3]
                if inplace:
                    view += 2
                return view

            @staticmethod
            def backward(ctx, grad):
                return grad, None

        base = data(torch, 10, requires_grad=True)
        return [type(MyFn.apply(base, inplace).grad_fn).__name__ for inplace in (False, True)]
    same(prog)


def test_custom_function_cycle():
    def prog(torch):
        seen = []

        class MyFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, metadata):
                x = x.clone()
                ctx.meta = metadata
                ctx.save_for_backward(x)
                return x

            @staticmethod
            def backward(ctx, gO):
                (x,) = ctx.saved_tensors
                seen.append((x.item(), ctx.meta["foo"].item()))
                return gO * x, None

        def get_refs(with_backward):
            a = torch.tensor(3.14, requires_grad=True)
            metadata = {}
            out = MyFn.apply(a, metadata)
            metadata["foo"] = out
            if with_backward:
                out.sum().backward()
                seen.append(a.grad)
            return weakref.ref(out)

        r = []
        for with_backward in (False, True):
            gc.disable()
            try:
                ref = get_refs(with_backward)
                r.append(ref() is not None)
            finally:
                gc.enable()
            gc.collect()
            r.append(ref() is None)
        return r, seen
    same(prog)


@pytest.mark.parametrize("use_tensor_hook", [True, False])
@pytest.mark.parametrize("use_custom_function", [True, False])
def test_hook_closure_cycle(use_custom_function, use_tensor_hook):
    def prog(torch):
        class Function(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad

        class Test:
            pass

        count = [0]

        def scope():
            a = torch.tensor(1.0, requires_grad=True)
            b = Function.apply(a) if use_custom_function else a.clone()
            grad_fn_b = b.grad_fn
            obj = Test()

            def hook(*args):
                grad_fn_b  # noqa: B018
                obj  # noqa: B018
                count[0] += 1

            if use_tensor_hook:
                b.register_hook(hook)
            else:
                b.grad_fn.register_hook(hook)
            c = b.clone()
            return c, weakref.ref(obj)

        gc.disable()
        try:
            out, ref = scope()
            out.backward(retain_graph=True)
            gc.collect()
            out.backward(retain_graph=True)
            r = [count[0], ref() is not None]
            del out
            gc.collect()
            r.append(ref() is None)
        finally:
            gc.enable()
        return r
    same(prog)


def test_setup_context_when_forward_has_default_args():
    def prog(torch):
        class PowFunction(torch.autograd.Function):
            @staticmethod
            def forward(x, y=3):
                return torch.pow(x, y)

            @staticmethod
            def setup_context(ctx, inputs, output):
                x, y = inputs
                ctx.save_for_backward(x)
                ctx.y = y

            @staticmethod
            def backward(ctx, gO):
                (x,) = ctx.saved_tensors
                y = ctx.y
                return gO * y * torch.pow(x, y - 1), None

        class PowFunctionWithClassmethod(torch.autograd.Function):
            @classmethod
            def forward(cls, x, y=3):
                return torch.pow(x, y)

            @classmethod
            def setup_context(cls, ctx, inputs, output):
                x, y = inputs
                ctx.save_for_backward(x)
                ctx.y = y

            @classmethod
            def backward(cls, ctx, gO):
                (x,) = ctx.saved_tensors
                y = ctx.y
                return gO * y * torch.pow(x, y - 1), None

        x = torch.tensor(2.0, requires_grad=True)
        y1 = PowFunction.apply(x)
        y2 = PowFunctionWithClassmethod.apply(x)
        return y1, torch.autograd.grad(y1, x), y2, torch.autograd.grad(y2, x)
    same(prog)


def test_preserve_backtrace():
    def prog(torch):
        import sys
        import traceback

        class Foo(torch.autograd.Function):
            @staticmethod
            def forward(ctx, input):
                return input

            @staticmethod
            def backward(ctx, *grad):
                raise ValueError("something")

        t = data(torch, 10, requires_grad=True)
        try:
            Foo.apply(t).sum().backward()
        except Exception:  # noqa: BLE001
            tb_str = "\n".join(traceback.format_tb(sys.exc_info()[2]))
            return 'raise ValueError("something")' in tb_str
        return "no error"
    same(prog)
