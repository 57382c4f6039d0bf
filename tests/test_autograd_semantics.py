"""Differential tests of autograd semantics beyond test_engine.py: custom Functions,
hook ordering, autograd.grad options, autograd.functional, gradcheck, anomaly mode,
inference mode and engine scheduling.  Each program runs under real torch and under
autograd_core; the normalised results must agree (see _diff.py)."""
import pytest

from _diff import Raised, catch, no_warnings, same, torch, warns
import autograd_core


def _t(torch, v, dtype=None, rg=True):
    return torch.tensor(v, dtype=dtype or torch.float64, requires_grad=rg)


# ======================================================================== Function

def _mul_fn(torch):
    class MulConst(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.save_for_backward(x, y)
            ctx.k = k
            return x * y * k

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y * ctx.k, g * x * ctx.k, None
    return MulConst


def test_function_save_for_backward_and_non_tensor_arg():
    def prog(torch):
        F = _mul_fn(torch)
        x = _t(torch, [1., 2., 3.])
        y = _t(torch, [4., 5., 6.])
        z = F.apply(x, y, 3.0)
        r = [z, type(z.grad_fn).__name__, z.requires_grad, z.is_leaf]
        z.sum().backward()
        r += [x.grad, y.grad]
        return r
    same(prog)


def test_function_grad_fn_name_and_next_functions():
    def prog(torch):
        class MyExp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                r = x.exp()
                ctx.save_for_backward(r)
                return r

            @staticmethod
            def backward(ctx, g):
                (r,) = ctx.saved_tensors
                return g * r
        x = _t(torch, [0., 1.])
        y = MyExp.apply(x * 2)
        nf = y.grad_fn.next_functions
        return (type(y.grad_fn).__name__, len(nf), type(nf[0][0]).__name__, nf[0][1],
                y.grad_fn.name() if hasattr(y.grad_fn, "name") else None)
    same(prog)


def test_function_needs_input_grad():
    def prog(torch):
        seen = []

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b, c, n):
                seen.append(("fwd", ctx.needs_input_grad))
                return a * b + c

            @staticmethod
            def backward(ctx, g):
                seen.append(("bwd", ctx.needs_input_grad))
                return g, g, g, None
        a = _t(torch, [1., 2.])
        b = _t(torch, [3., 4.], rg=False)
        c = _t(torch, [5., 6.])
        F.apply(a, b, c, 7).sum().backward()
        return seen, a.grad, b.grad, c.grad
    same(prog)


def test_function_mark_non_differentiable():
    def prog(torch):
        class SortIdx(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                v = x * 2
                idx = (x > 1.5).to(x.dtype)
                ctx.mark_non_differentiable(idx)
                return v, idx

            @staticmethod
            def backward(ctx, gv, gi):
                return gv * 2 + (0 if gi is None else gi.sum() * 0)
        x = _t(torch, [1., 2., 3.])
        v, idx = SortIdx.apply(x)
        r = [v.requires_grad, idx.requires_grad, idx.grad_fn is None, v.grad_fn is None]
        v.sum().backward()
        r.append(x.grad)
        return r
    same(prog)


def test_function_mark_dirty_inplace():
    def prog(torch):
        class AddOne_(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.add_(1)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 3
        x = _t(torch, [1., 2.])
        y = x * 1
        v0 = y._version
        z = AddOne_.apply(y)
        r = [z is y, y._version > v0, type(z.grad_fn).__name__, y, z.is_leaf]
        (z * z).sum().backward()
        r.append(x.grad)
        return r
    same(prog)


def test_function_mark_dirty_on_leaf_raises():
    def prog(torch):
        class AddOne_(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.add_(1)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, g):
                return g
        x = _t(torch, [1., 2.])
        return catch(AddOne_.apply, x)
    same(prog)


def test_function_inplace_without_mark_dirty_on_saved_detected():
    def prog(torch):
        class Sq(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return 2 * x * g
        x = _t(torch, [1., 2.])
        y = x * 1
        z = Sq.apply(y)
        y.add_(1)
        return catch(z.sum().backward)
    same(prog)


@pytest.mark.parametrize("materialize", [True, False])
def test_function_set_materialize_grads(materialize):
    def prog(torch):
        seen = []

        class Two(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(materialize)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                seen.append((g1 is None, g2 is None,
                             None if g2 is None else g2.tolist()))
                out = torch.zeros_like(g1) if g1 is not None else None
                if g1 is not None:
                    out = out + g1 * 2
                if g2 is not None:
                    out = out + g2 * 3
                return out
        x = _t(torch, [1., 2.])
        a, b = Two.apply(x)
        a.sum().backward()
        return seen, x.grad
    same(prog)


def test_function_returns_none_grad_for_input_requiring_grad():
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x + y

            @staticmethod
            def backward(ctx, g):
                return g, None
        x = _t(torch, [1., 2.])
        y = _t(torch, [3., 4.])
        F.apply(x, y).sum().backward()
        return x.grad, y.grad
    same(prog)


def test_function_once_differentiable():
    def prog2(torch):
        once = torch.autograd.function.once_differentiable

        class Cube(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            @once
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return 3 * x * x * g
        x = _t(torch, [1., 2.])
        y = Cube.apply(x)
        (gx,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        r = [gx, gx.requires_grad, gx.grad_fn is None]
        r.append(catch(gx.sum().backward))
        x2 = _t(torch, [1., 2.])
        (g2,) = torch.autograd.grad(Cube.apply(x2).sum(), x2)
        r.append(g2)
        return r
    same(prog2)


@pytest.mark.parametrize("case", ["too_many", "too_few", "wrong_shape", "non_tensor",
                                  "wrong_dtype_ok", "broadcastable_shape"])
def test_function_bad_backward_return(case):
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x * y

            @staticmethod
            def backward(ctx, g):
                if case == "too_many":
                    return g, g, g
                if case == "too_few":
                    return (g,)
                if case == "wrong_shape":
                    return g, torch.ones(5, dtype=g.dtype)
                if case == "non_tensor":
                    return g, "oops"
                if case == "wrong_dtype_ok":
                    return g.float(), g
                if case == "broadcastable_shape":
                    return g.sum(), g
        x = _t(torch, [1., 2., 3.])
        y = _t(torch, [4., 5., 6.])
        r = catch(F.apply(x, y).sum().backward)
        return r, x.grad, y.grad
    same(prog)


def test_function_without_backward_raises():
    def prog(torch):
        class NoBwd(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2
        x = _t(torch, [1., 2.])
        y = NoBwd.apply(x)
        return type(y.grad_fn).__name__, catch(y.sum().backward)
    same(prog)


def test_function_backward_with_create_graph_second_derivative():
    def prog(torch):
        class Sin(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x.sin()

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return g * x.cos()
        x = _t(torch, [0.3, 1.2, -0.7])
        y = Sin.apply(x)
        (g1,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        (g2,) = torch.autograd.grad(g1.sum(), x, create_graph=True)
        (g3,) = torch.autograd.grad(g2.sum(), x)
        return g1, g2, g3, g1.grad_fn is None
    same(prog)


def test_function_setup_context_style():
    def prog(torch):
        class LinFn(torch.autograd.Function):
            @staticmethod
            def forward(x, w, scale):
                return (x @ w) * scale

            @staticmethod
            def setup_context(ctx, inputs, output):
                x, w, scale = inputs
                ctx.save_for_backward(x, w)
                ctx.scale = scale

            @staticmethod
            def backward(ctx, g):
                x, w = ctx.saved_tensors
                return (g @ w.t()) * ctx.scale, (x.t() @ g) * ctx.scale, None
        x = _t(torch, [[1., 2.], [3., 4.]])
        w = _t(torch, [[0.5, -1.], [2., 0.25]])
        y = LinFn.apply(x, w, 2.0)
        y.pow(2).sum().backward()
        return y, type(y.grad_fn).__name__, x.grad, w.grad
    same(prog)


def test_function_output_is_input_returned_as_view():
    def prog(torch):
        class Ident(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 5
        x = _t(torch, [1., 2.])
        y = Ident.apply(x)
        r = [y is x, y.is_leaf, type(y.grad_fn).__name__]
        y.sum().backward()
        r.append(x.grad)
        return r
    same(prog)


def test_function_no_input_requires_grad():
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        x = _t(torch, [1., 2.], rg=False)
        y = F.apply(x)
        return y, y.requires_grad, y.grad_fn is None
    same(prog)


def test_function_saved_tensors_after_backward_raises():
    def prog(torch):
        holder = []

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                holder.append(ctx)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        x = _t(torch, [1., 2.])
        F.apply(x).sum().backward()
        return catch(lambda: holder[0].saved_tensors)
    same(prog)


# ======================================================================== hooks

def test_hook_call_order_all_kinds():
    def prog(torch):
        log = []
        x = _t(torch, [1., 2.])
        y = x * 3
        z = y.exp()
        x.register_hook(lambda g: log.append(("leaf_hook", g.tolist())))
        x.register_post_accumulate_grad_hook(
            lambda t: log.append(("post_acc", t.grad.tolist())))
        y.register_hook(lambda g: log.append(("y_tensor_hook", g.tolist())))
        y.grad_fn.register_prehook(lambda go: log.append(("y_node_prehook", go[0].tolist())))
        y.grad_fn.register_hook(
            lambda gi, go: log.append(("y_node_hook", [None if t is None else t.tolist()
                                                       for t in gi], go[0].tolist())))
        z.grad_fn.register_prehook(lambda go: log.append(("z_node_prehook",)))
        z.register_hook(lambda g: log.append(("z_tensor_hook",)))
        z.grad_fn.register_hook(lambda gi, go: log.append(("z_node_hook",)))
        z.sum().backward()
        return log
    same(prog)


def test_tensor_hook_runs_before_node_prehook_and_replacement_propagates():
    def prog(torch):
        log = []
        x = _t(torch, [1., 2.])
        y = x * 2
        y.grad_fn.register_prehook(lambda go: log.append(("pre", go[0].tolist())))
        y.register_hook(lambda g: g * 10)
        (y * y).sum().backward()
        return log, x.grad
    same(prog)


def test_node_prehook_replaces_grad():
    def prog(torch):
        x = _t(torch, [1., 2.])
        y = x.sin()
        y.grad_fn.register_prehook(lambda go: (go[0] * 100,))
        y.sum().backward()
        return x.grad
    same(prog)


def test_node_hook_replaces_grad_inputs():
    def prog(torch):
        x = _t(torch, [1., 2.])
        w = _t(torch, [3., 4.])
        y = x * w
        y.grad_fn.register_hook(lambda gi, go: (gi[0] + 1, gi[1] * 0))
        y.sum().backward()
        return x.grad, w.grad
    same(prog)


def test_leaf_hook_replacement_goes_into_grad():
    def prog(torch):
        x = _t(torch, [1., 2.])
        h = x.register_hook(lambda g: g * -1)
        (x * 5).sum().backward()
        r = [x.grad.clone()]
        h.remove()
        (x * 5).sum().backward()
        r.append(x.grad)
        return r
    same(prog)


def test_hook_wrong_shape_replacement_errors():
    def prog(torch):
        x = _t(torch, [1., 2., 3.])
        y = x * 2
        y.register_hook(lambda g: torch.ones(2, dtype=g.dtype))
        return catch(y.sum().backward)
    same(prog)


def test_hook_wrong_dtype_replacement_errors():
    def prog(torch):
        x = _t(torch, [1., 2., 3.])
        y = x * 2
        y.register_hook(lambda g: g.float())
        return catch(y.sum().backward), x.grad
    same(prog)


def test_node_prehook_wrong_count_errors():
    def prog(torch):
        x = _t(torch, [1., 2., 3.])
        y = x * 2
        y.grad_fn.register_prehook(lambda go: (go[0], go[0]))
        return catch(y.sum().backward)
    same(prog)


def test_hook_handle_remove_multiple():
    def prog(torch):
        log = []
        x = _t(torch, [1., 2.])
        y = x * 2
        h1 = y.register_hook(lambda g: log.append("h1"))
        h2 = y.register_hook(lambda g: log.append("h2"))
        h3 = y.grad_fn.register_prehook(lambda go: log.append("pre"))
        h4 = y.grad_fn.register_hook(lambda gi, go: log.append("post"))
        y.sum().backward(retain_graph=True)
        log.append("|")
        h1.remove()
        h3.remove()
        y.sum().backward(retain_graph=True)
        log.append("|")
        h2.remove()
        h4.remove()
        h4.remove()
        y.sum().backward()
        return log, x.grad
    same(prog)


def test_exception_in_hook_propagates_and_graph_reusable():
    def prog(torch):
        x = _t(torch, [1., 2.])
        y = (x * x).sum()
        state = {"fail": True}

        def hook(g):
            if state["fail"]:
                raise ValueError("boom in hook")
            return None
        x.register_hook(hook)
        r = [catch(y.backward, retain_graph=True), x.grad]
        state["fail"] = False
        y.backward()
        r.append(x.grad)
        return r
    same(prog)


def test_exception_in_node_hook_propagates():
    def prog(torch):
        x = _t(torch, [1., 2.])
        y = x.exp()
        y.grad_fn.register_prehook(lambda go: (_ for _ in ()).throw(KeyError("kk")))
        z = y.sum()
        r = [catch(z.backward, retain_graph=True)]
        return r
    same(prog)


def test_post_accumulate_grad_hook_sees_accumulated():
    def prog(torch):
        log = []
        x = _t(torch, [1., 2.])
        x.register_post_accumulate_grad_hook(lambda t: log.append(t.grad.clone().tolist()))
        (x * 2).sum().backward()
        (x * 3).sum().backward()
        return log, catch(lambda: (x * 2).register_post_accumulate_grad_hook(lambda t: None))
    same(prog)


def test_hook_on_tensor_not_requiring_grad_raises():
    def prog(torch):
        x = torch.tensor([1., 2.])
        return catch(x.register_hook, lambda g: g)
    same(prog)


def test_hook_registered_on_retained_grad_tensor():
    def prog(torch):
        x = _t(torch, [1., 2.])
        y = x * 2
        y.retain_grad()
        y.register_hook(lambda g: g * 7)
        (y * 1).sum().backward()
        return y.grad, x.grad
    same(prog)


def test_multiple_hooks_chain_in_registration_order():
    def prog(torch):
        log = []
        x = _t(torch, [1.])
        y = x * 1
        y.register_hook(lambda g: (log.append(("a", g.item())), g + 1)[1])
        y.register_hook(lambda g: (log.append(("b", g.item())), g * 10)[1])
        y.register_hook(lambda g: log.append(("c", g.item())))
        y.sum().backward()
        return log, x.grad
    same(prog)


# ======================================================================== autograd.grad

def test_grad_allow_unused_and_materialize():
    def prog(torch):
        x = _t(torch, [1., 2.])
        u = _t(torch, [3.])
        y = (x * x).sum()
        r = [catch(torch.autograd.grad, y, [x, u], retain_graph=True)]
        r.append(torch.autograd.grad(y, [x, u], allow_unused=True, retain_graph=True))
        r.append(torch.autograd.grad(y, [x, u], allow_unused=True, materialize_grads=True,
                                     retain_graph=True))
        r.append(torch.autograd.grad(y, [x, u], materialize_grads=True))
        r.append(catch(torch.autograd.grad, (x * 2).sum(), [u], allow_unused=False,
                       materialize_grads=True))
        return r
    same(prog)


def test_grad_outputs_shape_mismatch_message():
    def prog(torch):
        x = _t(torch, [1., 2., 3.])
        y = x * 2
        return (catch(torch.autograd.grad, y, x, torch.ones(2, dtype=torch.float64)),
                catch(torch.autograd.grad, y, x),
                catch(y.backward, torch.ones(4, dtype=torch.float64)))
    same(prog)


def test_grad_inputs_not_requiring_grad_message():
    def prog(torch):
        x = _t(torch, [1., 2.])
        c = torch.tensor([3., 4.], dtype=torch.float64)
        y = (x * c).sum()
        return (catch(torch.autograd.grad, y, c, retain_graph=True),
                catch(torch.autograd.grad, c.sum(), x),
                catch(torch.autograd.grad, y, [], retain_graph=True))
    same(prog)


def test_grad_with_grad_outputs_and_multiple_outputs():
    def prog(torch):
        x = _t(torch, [1., 2.])
        a = x * 3
        b = x.exp()
        g = torch.autograd.grad([a, b], x, [torch.tensor([1., -1.], dtype=torch.float64),
                                             torch.tensor([0.5, 2.], dtype=torch.float64)],
                                retain_graph=True)
        g2 = torch.autograd.grad([a.sum(), b.sum()], [x], [None, None])
        return g, g2
    same(prog)


def _hvp_funcs():
    return {
        "tanh": lambda torch, x: x.tanh().sum(),
        "exp": lambda torch, x: (x.exp() * x).sum(),
        "cube": lambda torch, x: (x ** 3).sum(),
        "sincos": lambda torch, x: (x.sin() * x.cos() * x).sum(),
        "matmul": lambda torch, x: (x.reshape(2, 2) @ x.reshape(2, 2).tanh() @ x.reshape(2, 2)).sum(),
        "logsumexp": lambda torch, x: (x * x).sum().sqrt() + x.exp().sum().log(),
    }


@pytest.mark.parametrize("name", sorted(_hvp_funcs()))
def test_grad_hvp_and_third_derivative(name):
    f = _hvp_funcs()[name]

    def prog(torch):
        x = _t(torch, [0.3, -0.8, 1.1, 0.5])
        v = torch.tensor([1., 0.5, -2., 0.25], dtype=torch.float64)
        y = f(torch, x)
        (g,) = torch.autograd.grad(y, x, create_graph=True)
        (hv,) = torch.autograd.grad(g, x, grad_outputs=v, create_graph=True)
        (t3,) = torch.autograd.grad((hv * v).sum(), x, create_graph=True)
        (t4,) = torch.autograd.grad(t3.sum(), x)
        return [g, hv, t3, t4, g.grad_fn is None, hv.requires_grad]
    same(prog)


def test_grad_create_graph_on_backward_accumulates_differentiable_grad():
    def prog(torch):
        x = _t(torch, [0.5, 2.])
        y = (x ** 3).sum()
        y.backward(create_graph=True)
        g = x.grad
        r = [g.requires_grad, g.grad_fn is None]
        x.grad = None
        g.sum().backward()
        r.append(x.grad)
        return r
    same(prog)


def test_grad_of_non_scalar_without_grad_outputs():
    def prog(torch):
        x = _t(torch, [1., 2.])
        return catch(torch.autograd.grad, x * 2, x), catch((x * 2).backward)
    same(prog)


def test_grad_output_not_requiring_grad():
    def prog(torch):
        x = _t(torch, [1., 2.])
        c = torch.tensor(3.)
        return catch(torch.autograd.grad, c, x), catch(c.backward)
    same(prog)


# ======================================================================== functional

def _f1(x):
    return x.exp() * x.sum()


def _f_tuple_in(x, y):
    return (x * y).sin() + x ** 2


def _f_tuple_out(x):
    return x * 2, x.tanh().sum()


def _scalar(x):
    return (x ** 3).sum() + x.prod()


def _scalar2(x, y):
    return (x.sin() * y.exp()).sum() + (x * x * y).sum()


def test_functional_jacobian_single_and_tuple():
    def prog(torch):
        F = torch.autograd.functional
        x = _t(torch, [0.5, -1., 2.], rg=False)
        y = _t(torch, [1.5, 0.25, -0.5], rg=False)
        return [F.jacobian(_f1, x), F.jacobian(_f_tuple_in, (x, y)),
                F.jacobian(_f_tuple_out, x), F.jacobian(lambda a, b: (a * b, a + b), (x, y)),
                F.jacobian(_f1, x, create_graph=True),
                F.jacobian(_f1, x, vectorize=False)]
    same(prog)


def test_functional_hessian():
    def prog(torch):
        F = torch.autograd.functional
        x = _t(torch, [0.5, -1., 2.], rg=False)
        y = _t(torch, [1.5, 0.25, -0.5], rg=False)
        return [F.hessian(_scalar, x), F.hessian(_scalar2, (x, y)),
                F.hessian(_scalar, x, create_graph=True)]
    same(prog)


def test_functional_vjp_jvp():
    def prog(torch):
        F = torch.autograd.functional
        x = _t(torch, [0.5, -1., 2.], rg=False)
        y = _t(torch, [1.5, 0.25, -0.5], rg=False)
        v = torch.tensor([1., 2., 3.], dtype=torch.float64)
        return [F.vjp(_f1, x, v), F.vjp(_f_tuple_in, (x, y), v),
                F.vjp(_scalar, x), F.jvp(_f1, x, v), F.jvp(_f_tuple_in, (x, y), (v, v * 2)),
                F.jvp(_f_tuple_out, x, v), F.vjp(_f1, x, v, create_graph=True),
                F.jvp(_f1, x, v, create_graph=True)]
    same(prog)


def test_functional_hvp_vhp():
    def prog(torch):
        F = torch.autograd.functional
        x = _t(torch, [0.5, -1., 2.], rg=False)
        y = _t(torch, [1.5, 0.25, -0.5], rg=False)
        v = torch.tensor([1., 2., 3.], dtype=torch.float64)
        return [F.hvp(_scalar, x, v), F.vhp(_scalar, x, v),
                F.hvp(_scalar2, (x, y), (v, -v)), F.vhp(_scalar2, (x, y), (v, -v)),
                F.hvp(_scalar, x, v, create_graph=True)]
    same(prog)


def test_functional_strict_errors():
    def prog(torch):
        F = torch.autograd.functional
        x = _t(torch, [0.5, -1.], rg=False)
        v = torch.ones(2, dtype=torch.float64)
        const = lambda a: torch.ones(2, dtype=torch.float64)  # noqa: E731
        indep = lambda a: a.detach() * 2  # noqa: E731
        return [catch(F.jacobian, const, x, strict=True),
                F.jacobian(const, x),
                catch(F.vjp, indep, x, v, strict=True),
                F.vjp(indep, x, v),
                catch(F.jvp, const, x, v, strict=True),
                catch(F.hessian, lambda a: a.sum(), x, strict=True),
                F.hessian(lambda a: a.sum(), x),
                catch(F.vjp, _f1, x, torch.ones(3, dtype=torch.float64)),
                catch(F.hvp, lambda a: a * 2, x, v),
                catch(F.jacobian, lambda a: 3, x)]
    same(prog)


def test_functional_inputs_untouched_and_outputs_detached():
    def prog(torch):
        F = torch.autograd.functional
        x = _t(torch, [0.5, -1.], rg=False)
        j = F.jacobian(_f1, x)
        out, vj = F.vjp(_f1, x, torch.ones(2, dtype=torch.float64))
        return x.requires_grad, j.requires_grad, out.requires_grad, vj.requires_grad
    same(prog)


# ======================================================================== gradcheck

def _bad_fn(torch):
    class BadSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x * g
    return BadSquare


def _good_fn(torch):
    class GoodCube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x * x * g
    return GoodCube


def test_gradcheck_true_on_correct_functions():
    def prog(torch):
        x = _t(torch, [[0.3, -0.7], [1.2, 0.4]])
        y = _t(torch, [[0.9, 0.1], [-0.5, 2.0]])
        G = _good_fn(torch)
        return [torch.autograd.gradcheck(lambda a, b: (a @ b).tanh(), (x, y)),
                torch.autograd.gradcheck(G.apply, (x,)),
                torch.autograd.gradgradcheck(lambda a, b: (a * b.exp()).sin(), (x, y)),
                torch.autograd.gradgradcheck(G.apply, (x,)),
                torch.autograd.gradcheck(lambda a: (a.sum(), a * 2), (x,))]
    same(prog)


def test_gradcheck_false_on_wrong_function():
    def prog(torch):
        x = _t(torch, [0.3, -0.7, 1.2])
        B = _bad_fn(torch)
        r = [torch.autograd.gradcheck(B.apply, (x,), raise_exception=False)]
        e = catch(torch.autograd.gradcheck, B.apply, (x,))
        if isinstance(e, Raised):
            r += [type(e.exc).__name__, isinstance(e.exc, RuntimeError), e.message.splitlines()[0]]
        else:
            r.append("no raise")
        return r
    same(prog)


def test_gradcheck_error_class_name():
    import sys
    TE = sys.modules["torch.autograd.gradcheck"].GradcheckError
    OE = autograd_core.autograd.GradcheckError
    assert TE.__name__ == OE.__name__
    assert issubclass(OE, RuntimeError) == issubclass(TE, RuntimeError)

    def raised_name(mod, E):
        x = _t(mod, [0.3, -0.7])
        try:
            mod.autograd.gradcheck(_bad_fn(mod).apply, (x,))
        except E as e:
            return type(e).__name__
        return "not raised"
    assert raised_name(torch, TE) == raised_name(autograd_core, OE)


def test_gradcheck_requires_double_and_requires_grad():
    def prog(torch):
        x32 = torch.tensor([0.3, 0.4], requires_grad=True)
        xn = torch.tensor([0.3, 0.4], dtype=torch.float64)
        r, w = warns(catch, torch.autograd.gradcheck, lambda a: a * 2, (x32,),
                     raise_exception=False)
        ws = [msg[:60] for _, msg in w]
        r2 = catch(torch.autograd.gradcheck, lambda a: a * 2, (xn,))
        return [isinstance(r, bool) or r, len(ws) > 0, r2]
    same(prog)


# ======================================================================== anomaly

def test_detect_anomaly_sqrt_negative():
    def prog(torch):
        x = _t(torch, [-1., 4.])

        def run():
            with torch.autograd.detect_anomaly():
                y = x.sqrt()
                return catch(y.sum().backward)
        r, msgs = warns(run)
        anomaly_warn = [c for c, s in msgs if "Traceback of forward call" in s]
        mentions = any("y = x.sqrt()" in s for c, s in msgs)
        return [r, anomaly_warn[:1], mentions, torch.is_grad_enabled()]
    same(prog)


def test_detect_anomaly_flags_and_no_error_without_nan():
    def prog(torch):
        x = _t(torch, [1., 4.])
        r = [torch.is_anomaly_enabled()]
        with no_warnings():
            with torch.autograd.detect_anomaly():
                r.append(torch.is_anomaly_enabled())
                x.sqrt().sum().backward()
            with torch.autograd.set_detect_anomaly(True):
                r.append(torch.is_anomaly_enabled())
        r.append(torch.is_anomaly_enabled())
        r.append(x.grad)
        return r
    same(prog)


def _anomaly_enabled(torch):
    # torch exposes the flag at top level; look in .autograd as a fallback so that
    # the semantics below are checked even if only the top-level alias is missing
    # (test_detect_anomaly_flags_and_no_error_without_nan checks the alias).
    f = getattr(torch, "is_anomaly_enabled", None)
    return (f or torch.autograd.is_anomaly_enabled)()


def test_set_detect_anomaly_is_a_context_manager_restoring_state():
    def prog(torch):
        r = [_anomaly_enabled(torch)]
        try:
            with no_warnings():
                with torch.autograd.set_detect_anomaly(True):
                    r.append(_anomaly_enabled(torch))
                    with torch.autograd.set_detect_anomaly(False):
                        r.append(_anomaly_enabled(torch))
                    r.append(_anomaly_enabled(torch))
            r.append(_anomaly_enabled(torch))
        finally:
            torch.autograd.set_detect_anomaly(False)
        return r
    same(prog)


def test_detect_anomaly_check_nan_false():
    def prog(torch):
        x = _t(torch, [-1., 4.])
        with no_warnings():
            with torch.autograd.detect_anomaly(check_nan=False):
                x.sqrt().sum().backward()
        return x.grad
    same(prog)


def test_without_anomaly_sqrt_negative_is_nan():
    def prog(torch):
        x = _t(torch, [-1., 4.])
        x.sqrt().sum().backward()
        return x.grad
    same(prog)


# ======================================================================== inference mode

def test_inference_mode_tensors():
    def prog(torch):
        x = _t(torch, [1., 2.])
        with torch.inference_mode():
            y = x * 2
            z = torch.ones(2)
            r = [y.is_inference(), y.requires_grad, y.grad_fn is None, z.is_inference(),
                 torch.is_inference_mode_enabled(), torch.is_grad_enabled()]
            with torch.enable_grad():
                w = x * 3
                r += [w.requires_grad, w.is_inference(), torch.is_grad_enabled(),
                      torch.is_inference_mode_enabled()]
            with torch.inference_mode(False):
                q = x * 4
                r += [q.requires_grad, q.is_inference(), torch.is_inference_mode_enabled()]
        r += [x.is_inference(), (x * 2).is_inference(), torch.is_inference_mode_enabled()]
        return r
    same(prog)


def test_inference_tensor_used_in_autograd_raises():
    def prog(torch):
        with torch.inference_mode():
            t = torch.ones(2)
        x = _t(torch, [1., 2.], dtype=torch.float32)
        r = [catch(lambda: (x * t).sum().backward()), x.grad]
        r.append(catch(t.add_, 1))
        r.append(catch(t.requires_grad_))
        return r
    same(prog)


def test_inference_mode_decorator():
    def prog(torch):
        @torch.inference_mode()
        def f(a):
            return a * 2, torch.is_inference_mode_enabled()

        @torch.inference_mode(mode=False)
        def g(a):
            return a * 2

        x = _t(torch, [1.])
        y, flag = f(x)
        z = g(x)
        return y.requires_grad, y.is_inference(), flag, z.requires_grad, z.is_inference()
    same(prog)


def test_grad_mode_decorators_various():
    def prog(torch):
        @torch.no_grad()
        def a(t):
            return t * 2

        @torch.enable_grad()
        def b(t):
            return t * 2

        @torch.set_grad_enabled(False)
        def c(t):
            return t * 2

        x = _t(torch, [1.])
        r = [a(x).requires_grad, a.__name__]
        with torch.no_grad():
            r.append(b(x).requires_grad)
            r.append(torch.is_grad_enabled())
        r.append(c(x).requires_grad)
        r.append(torch.is_grad_enabled())
        with torch.no_grad():
            with torch.set_grad_enabled(True):
                r.append((x * 2).requires_grad)
        return r
    same(prog)


# ======================================================================== engine order

def test_engine_runs_most_recently_created_ready_node_first():
    def prog(torch):
        log = []
        x = _t(torch, [1., 2.])
        a = x.sin()
        b = x.cos()
        c = x.exp()
        a.grad_fn.register_prehook(lambda go: log.append("sin"))
        b.grad_fn.register_prehook(lambda go: log.append("cos"))
        c.grad_fn.register_prehook(lambda go: log.append("exp"))
        (a + b + c).sum().backward(retain_graph=True)
        log.append("|")
        s = c + a + b
        s.sum().backward()
        return log
    same(prog)


def test_engine_order_two_chains():
    def prog(torch):
        log = []
        x = _t(torch, [1., 2.])
        a1 = x * 2
        a2 = a1.exp()
        b1 = x * 3
        b2 = b1.tanh()
        for name, t in (("a1", a1), ("a2", a2), ("b1", b1), ("b2", b2)):
            t.grad_fn.register_prehook(lambda go, n=name: log.append(n))
        (a2.sum() + b2.sum()).backward()
        return log, x.grad
    same(prog)


def test_first_gradient_not_modified_by_later_accumulation():
    def prog(torch):
        stored = []
        x = _t(torch, [1., 2.])
        y = x * 1
        x.register_hook(lambda g: stored.append(g) or None)
        (y * 2 + y.exp() + x * 5).sum().backward()
        r = [s.tolist() for s in stored]
        r.append(x.grad)
        return r
    same(prog)


def test_first_grad_kept_by_reference_and_user_grad_not_mutated():
    def prog(torch):
        x = _t(torch, [1., 2.])
        g0 = torch.tensor([10., 20.], dtype=torch.float64)
        x.backward(g0)
        r = [x.grad is g0, x.grad.tolist()]
        x.backward(torch.tensor([1., 1.], dtype=torch.float64))
        r += [g0.tolist(), x.grad.tolist(), x.grad is g0]
        # a hook that stores a non-leaf grad, then the tensor gets another contribution
        seen = []
        w = _t(torch, [3., 4.])
        m = w * 1
        m.register_hook(lambda g: seen.append(g))
        out = m * 2
        out2 = m * 3
        torch.autograd.backward([out.sum(), out2.sum()])
        r += [[s.tolist() for s in seen], w.grad.tolist()]
        return r
    same(prog)


def test_engine_intermediate_grad_sum_not_aliased():
    def prog(torch):
        seen = []
        x = _t(torch, [1., 2.])
        a = x * 1
        b = a + 0
        c = a * 1
        b.register_hook(lambda g: seen.append(g))
        c.register_hook(lambda g: seen.append(g))
        a.register_hook(lambda g: seen.append(g))
        (b + c).sum().backward()
        return [s.tolist() for s in seen], x.grad
    same(prog)


# ======================================================================== extras

def test_function_save_for_backward_none_and_non_tensor():
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, bad):
                if bad:
                    ctx.save_for_backward(x, 3)
                else:
                    ctx.save_for_backward(None, x)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                a, b = ctx.saved_tensors
                return g * b, None
        x = _t(torch, [1., 2.])
        y = F.apply(x, False)
        y.sum().backward()
        return x.grad, catch(F.apply, _t(torch, [1.]), True)
    same(prog)


def test_gradcheck_fast_mode_and_nondet():
    def prog(torch):
        x = _t(torch, [[0.3, -0.7], [1.2, 0.4]])
        B = _bad_fn(torch)
        return [torch.autograd.gradcheck(lambda a: a.exp() @ a, (x,), fast_mode=True),
                torch.autograd.gradcheck(B.apply, (x,), fast_mode=True, raise_exception=False),
                torch.autograd.gradgradcheck(lambda a: a.sin().sum(), (x,), fast_mode=True)]
    same(prog)


def test_function_apply_under_no_grad_and_backward_mode():
    def prog(torch):
        log = []

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                log.append(("fwd_grad_enabled", torch.is_grad_enabled()))
                return x * 2

            @staticmethod
            def backward(ctx, g):
                log.append(("bwd_grad_enabled", torch.is_grad_enabled()))
                return g * 2
        x = _t(torch, [1., 2.])
        with torch.no_grad():
            y0 = F.apply(x)
        y = F.apply(x)
        y.sum().backward()
        (g,) = torch.autograd.grad(F.apply(x).sum(), x, create_graph=True)
        return log, y0.requires_grad, y0.grad_fn is None, x.grad, g.requires_grad
    same(prog)
