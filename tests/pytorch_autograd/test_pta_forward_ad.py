"""Forward-mode AD: PyTorch's test/test_autograd.py tests of torch.autograd.forward_ad
(TestAutogradForwardMode, the batched-grad ones that need no vmap), of custom Functions'
jvp and of gradcheck's check_forward_ad, and test/autograd/test_functional.py's
forward-mode jacobian/hessian tests, each rewritten as a differential program (run under
torch and autograd_core, results compared by tests/_diff.py)."""
import gc
import weakref

import pytest

from _diff import catch, data, issue8, same


def fw(torch):
    return torch.autograd.forward_ad


class TestAutogradForwardMode:
    def test_forward_level_cleanup(self):
        def prog(torch):
            fwAD = fw(torch)
            foo = torch.rand(2)
            with fwAD.dual_level():
                tangent = torch.rand(2)
                ref = weakref.ref(tangent)
                dual = fwAD.make_dual(foo, tangent)
                same_obj = fwAD.unpack_dual(dual)[1] is tangent
                del tangent
                alive = ref() is not None
                del dual
                gc.collect()
                return same_obj, alive, ref() is None
        same(prog)

    def test_size_check(self):
        def prog(torch):
            fwAD = fw(torch)
            foo = torch.rand(2)
            tangent = torch.rand(3)
            with fwAD.dual_level():
                err = catch(fwAD.make_dual, foo, tangent)
                ok = fwAD.make_dual(foo, tangent[1:])
                return err, ok.shape
        same(prog)

    def test_default_level(self):
        def prog(torch):
            fwAD = fw(torch)
            foo = data(torch, 2, seed=1)
            bar = data(torch, 2, seed=2)
            with fwAD.dual_level():
                baz = fwAD.make_dual(foo, bar)
                p, t = fwAD.unpack_dual(baz)
            p2, t2 = fwAD.unpack_dual(baz)
            return p, t is bar, p2, t2
        same(prog)

    def test_fwd_grad_enabled(self):
        def prog(torch):
            fwAD = fw(torch)
            out = [fwAD._is_fwd_grad_enabled()]
            with fwAD._set_fwd_grad_enabled(False):
                out.append(fwAD._is_fwd_grad_enabled())
            out.append(fwAD._is_fwd_grad_enabled())
            return out
        same(prog)

    def test_set_fwd_grad_enabled(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
                with fwAD._set_fwd_grad_enabled(False):
                    off = fwAD.unpack_dual(x * 2).tangent
                on = fwAD.unpack_dual(x * 2).tangent
                return off, on
        same(prog)

    def test_nested_level(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level() as level:
                first = level
            with fwAD.dual_level():
                err = catch(fwAD.enter_dual_level)
            return first, err
        same(prog)

    def test_set_fw_grad_having_own_fw_grad_at_same_level(self):
        def prog(torch):
            fwAD = fw(torch)
            foo = torch.rand(2)
            with fwAD.dual_level():
                dual = fwAD.make_dual(foo, torch.rand(2))
                return catch(fwAD.make_dual, dual, torch.rand(2))
        same(prog)

    def test_make_dual_inference_tensor_in_inference_mode(self):
        def prog(torch):
            fwAD = fw(torch)
            with torch.inference_mode():
                foo = torch.rand(2)
                bar = torch.rand(2)
                with fwAD.dual_level():
                    dual = fwAD.make_dual(foo, bar)
                    return dual._is_view()
        same(prog)

    def test_make_dual_forbid_integral_dtype(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                return (catch(fwAD.make_dual, torch.ones(2, dtype=torch.long), torch.ones(2)),
                        catch(fwAD.make_dual, torch.ones(2), torch.ones(2, dtype=torch.long)))
        same(prog)

    def test_print(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                a = torch.rand(3)
                r = ["tangent=" in str(a)]
                b = fwAD.make_dual(a, torch.rand(3))
                r += ["tangent=" in str(a), "tangent=" in str(b)]
                p, t = fwAD.unpack_dual(b)
                r += ["tangent=" in str(p), "tangent=" in str(t)]
                return r
        same(prog)

    def test_basic_packing_unpacking(self):
        def prog(torch):
            fwAD = fw(torch)
            foo = data(torch, 2, seed=3)
            bar = data(torch, 2, seed=4)
            with fwAD.dual_level():
                baz = fwAD.make_dual(foo, bar)
                p, t = fwAD.unpack_dual(baz)
                fp, ft = fwAD.unpack_dual(foo)
                return p, t is bar, fp, ft
        same(prog)

    def test_advanced_packing_unpacking(self):
        def prog(torch):
            fwAD = fw(torch)
            foo = data(torch, 2, seed=5)
            bar = torch.ones(2, dtype=torch.float64)
            out = []
            with fwAD.dual_level():
                dual = fwAD.make_dual(foo, bar)
                out.append(foo._version == dual._version)
                foo.add_(1)
                out.append(foo._version == dual._version)
                p, t = fwAD.unpack_dual(dual)
                out.append(t is bar)
                foo.add_(1)
                out.append(foo._version == p._version)
                bar.add_(1)
                out.append(bar._version == t._version)
            with fwAD.dual_level():
                foo.requires_grad_()
                bar.requires_grad_()
                dual = fwAD.make_dual(foo, bar)
                p, t = fwAD.unpack_dual(dual)
                out.append(torch.autograd.grad(p.sum(), (foo, bar), retain_graph=True,
                                               allow_unused=True))
                out.append(torch.autograd.grad(t.sum(), (foo, bar), retain_graph=True,
                                               allow_unused=True))
                p, t = fwAD.unpack_dual(dual.detach() * 2)
                out += [p.requires_grad, p, t]
                with torch.no_grad():
                    o = dual * 3
                p, t = fwAD.unpack_dual(o)
                out += [p.requires_grad, t.requires_grad, p, t]
                d2 = dual.clone()
                d2.detach_()
                p, t = fwAD.unpack_dual(d2 * 2)
                out += [p.requires_grad, p, t]
            return out
        same(prog)

    def test_view_inplace_non_differentiable_views(self):
        def prog(torch):
            fwAD = fw(torch)
            original_foo = data(torch, 2, seed=6)
            original_bar = torch.ones(2, dtype=torch.double)
            foo = original_foo.clone()
            bar = original_bar.clone()
            out = []
            with fwAD.dual_level():
                dual = fwAD.make_dual(foo, bar)
                dual *= 2
                out += [fwAD.unpack_dual(foo)[1], bar, fwAD.unpack_dual(dual)[1], foo,
                        fwAD.unpack_dual(dual)[0]]
                dual_primal, dual_tangent = fwAD.unpack_dual(dual)
                out += [fwAD.unpack_dual(dual_primal)[1], fwAD.unpack_dual(dual_tangent)[1]]
                dual_primal *= 2
                out += list(fwAD.unpack_dual(dual))
                dual_tangent *= 2
                out += list(fwAD.unpack_dual(dual))
            return out
        same(prog)

    def test_view_inplace_differentiable_views(self):
        def prog(torch):
            fwAD = fw(torch)
            foo = data(torch, 2, seed=7)
            bar = torch.ones(2, dtype=torch.double)
            out = []
            with fwAD.dual_level():
                dual = fwAD.make_dual(foo, bar)
                view = dual.narrow(0, 0, 1)
                view *= 2
                out += [fwAD.unpack_dual(foo)[1], fwAD.unpack_dual(dual)[1],
                        fwAD.unpack_dual(view)[1]]
                baz = data(torch, 2, seed=8)
                baz += dual
                out.append(fwAD.unpack_dual(baz)[1])
                baz = data(torch, 2, seed=9)
                baz[0] = dual[0]
                out.append(fwAD.unpack_dual(baz)[1])
                baz = data(torch, 2, seed=10)
                view = baz.detach()
                view += dual
                out.append(fwAD.unpack_dual(baz)[1])
            return out
        same(prog)

    def test_view_inplace_always_creates_a_view(self):
        # an in-place op on a view whose base has no tangent gives the base one, and the
        # view's tangent is a view of it
        def prog(torch):
            fwAD = fw(torch)
            out = []
            with fwAD.dual_level():
                for shape in [(3,), (2, 3)]:
                    base = torch.zeros(shape, dtype=torch.double)
                    view = base[0]
                    dual = fwAD.make_dual(torch.ones(view.shape, dtype=torch.double),
                                          torch.full(view.shape, 2., dtype=torch.double))
                    view.copy_(dual)
                    bt = fwAD.unpack_dual(base)[1]
                    vt = fwAD.unpack_dual(view)[1]
                    out += [bt, vt, vt._base is bt if vt.dim() else True]
            return out
        same(prog)

    def test_grad_cleanup(self):
        def prog(torch):
            fwAD = fw(torch)
            foo = data(torch, 2, seed=11)
            bar = data(torch, 2, seed=12)
            baz = data(torch, 2, seed=13)
            with fwAD.dual_level():
                dual = fwAD.make_dual(foo, bar)
                r = [fwAD.unpack_dual(foo)[1], fwAD.unpack_dual(dual)[1] is bar]
            r.append(fwAD.unpack_dual(dual)[1])
            with fwAD.dual_level():
                r.append(fwAD.unpack_dual(foo)[1])
                new_dual = fwAD.make_dual(foo, baz)
                dp, dt = fwAD.unpack_dual(dual)
                np_, nt = fwAD.unpack_dual(new_dual)
                r += [dp, np_, dt, nt]
            return r
        same(prog)

    def test_detach_view_tracking(self):
        def prog(torch):
            foo = torch.rand(2)
            ref = weakref.ref(foo)
            out = foo.detach()
            del foo
            gc.collect()
            return ref() is None, out.shape
        same(prog)

    def test_out_variant(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                foo = fwAD.make_dual(torch.rand(2), torch.rand(2))
                bar = torch.rand(2)
                return (catch(lambda: torch.add(bar, bar, out=foo)),
                        catch(lambda: torch.add(foo, bar, out=bar)))
        same(prog)

    def test_non_differentiable(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                foo = fwAD.make_dual(torch.rand(2), torch.rand(2))
                bar = torch.rand(2)
                # no tangent for integer or boolean results
                return (fwAD.unpack_dual(foo == bar)[1], fwAD.unpack_dual(foo.argmax())[1],
                        fwAD.unpack_dual(foo.floor())[1] is not None)
        same(prog)

    def test_backward_graph_destruction(self):
        # a dual level keeps no graph alive: the tangent's history is the tangent's own
        # (its grad_fn records the tangent formula) and dies with it
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                x = torch.rand(2, requires_grad=True)
                t = torch.rand(2, requires_grad=True)
                y = fwAD.make_dual(x, t) * 2
                tangent = fwAD.unpack_dual(y).tangent
                ref = weakref.ref(tangent)
                name = type(tangent.grad_fn).__name__
                del y, tangent
                gc.collect()
                return name, ref() is None
        same(prog)

    def test_codegen_ignores_undefined_outputs(self):
        # a tangent of an op whose other output is not used
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                x = fwAD.make_dual(data(torch, 3, 4, seed=14), data(torch, 3, 4, seed=15))
                values, indices = x.max(1)
                return fwAD.unpack_dual(values)[1], fwAD.unpack_dual(indices)[1]
        same(prog)


class TestAutogradForwardModeBatchedGrad:
    # PyTorch runs the layout tests under torch._vmap_internals' vmap and checks tensor
    # identities; here the last three are the single-tangent case of the same program
    def test_out_of_place_basic(self):
        def prog(torch):
            a = data(torch, 4, 4, seed=16, requires_grad=True)
            b = data(torch, 4, 4, seed=17, requires_grad=True)
            kw = dict(check_forward_ad=True, check_batched_grad=True,
                      check_batched_forward_grad=True)
            return (torch.autograd.gradcheck(torch.sin, a, **kw),
                    torch.autograd.gradcheck(torch.add, (a, b), **kw))
        same(prog)

    @issue8("under vmap a dual's primal is expanded and copied (Note [jvp under vmap]): the "
            "unpacked tangent is a new BatchedTensor, and as_strided runs per sample "
            "without vmap's bounds check")
    def test_metadata_check_for_storage_numel_skipped(self):
        def prog(torch):
            fwAD = fw(torch)
            primal = data(torch, 5, seed=30)[:4].detach()
            seen = []

            def jvp(tangent):
                with fwAD.dual_level():
                    dual = fwAD.make_dual(primal, tangent)
                    _, unpacked = fwAD.unpack_dual(dual)
                    # no copy of the tangent; as_strided past the view raises
                    seen.append(unpacked is tangent)
                    seen.append(catch(dual.as_strided, (5,), (1,), 0))
                return unpacked
            out = torch._vmap_internals._vmap(jvp, 0, 0)(data(torch, 10, 4, seed=31))
            return out, seen
        same(prog)

    def test_out_of_place_not_same_layout(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                x = data(torch, 2, 3, seed=20)
                t = data(torch, 3, 2, seed=21).t()
                d = fwAD.make_dual(x, t)
                tt = fwAD.unpack_dual(d)[1]
                return tt, tt.stride(), fwAD.unpack_dual(d * 2)[1]
        same(prog)

    def test_inplace_on_view_same_layout(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                base = torch.zeros(2, 2, dtype=torch.double)
                view = base[0]
                view.copy_(fwAD.make_dual(data(torch, 2, seed=22), data(torch, 2, seed=23)))
                return fwAD.unpack_dual(base)[1], fwAD.unpack_dual(view)[1]
        same(prog)

    def test_inplace_on_view_not_same_layout(self):
        def prog(torch):
            fwAD = fw(torch)
            with fwAD.dual_level():
                base = torch.zeros(2, 2, dtype=torch.double)
                view = base.t()[0]
                view.copy_(fwAD.make_dual(data(torch, 2, seed=24), data(torch, 2, seed=25)))
                return fwAD.unpack_dual(base)[1], fwAD.unpack_dual(view)[1]
        same(prog)


# ------------------------------------------------------------------ custom Functions

def test_custom_function_forward_mode_wrong_formula():
    def prog(torch):
        fwAD = fw(torch)

        class UserFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, foo, should_fail):
                ctx.should_fail = should_fail
                return foo * 2

            @staticmethod
            def jvp(ctx, gI, _):
                return gI * 3 if ctx.should_fail else gI * 2

        class UserFn2(torch.autograd.Function):
            @staticmethod
            def forward(ctx, foo):
                return foo * 2

            @staticmethod
            def jvp(ctx, gI):
                return gI, gI

        class UserFn3(torch.autograd.Function):
            @staticmethod
            def forward(ctx, foo):
                return foo * 2

            @staticmethod
            def jvp(ctx, gI):
                return gI[:1]

        with fwAD.dual_level():
            x = fwAD.make_dual(torch.ones(2), torch.ones(2))
            return (fwAD.unpack_dual(UserFn.apply(x, False))[1],
                    fwAD.unpack_dual(UserFn.apply(x, True))[1],
                    catch(UserFn2.apply, x), catch(UserFn3.apply, x))
    same(prog)


def test_custom_function_forward_mode_non_tensor_before_tensor_args():
    def prog(torch):
        fwAD = fw(torch)
        seen = []

        class MyFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, nt, x, nt2, y):
                return x * 2 + y * 3

            @staticmethod
            def jvp(ctx, nt, x_t, nt2, y_t):
                seen.extend([nt, nt2])
                return x_t * 2 + y_t * 3

        with fwAD.dual_level():
            x = fwAD.make_dual(torch.tensor(1.), torch.tensor(1.))
            y = fwAD.make_dual(torch.tensor(2.), torch.tensor(1.))
            out = MyFn.apply(1, x, 1, y)
            return fwAD.unpack_dual(out), seen
    same(prog)


def test_custom_function_forward_mode_forward_is_no_op():
    # forward returns an input as is: the jvp must return a view of its tangent
    def prog(torch):
        fwAD = fw(torch)

        class NotAView(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x, y.clone()

            @staticmethod
            def jvp(ctx, x_t, y_t):
                return x_t, y_t

        class AView(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x, y.clone()

            @staticmethod
            def jvp(ctx, x_t, y_t):
                return x_t.view_as(x_t), y_t

        class OtherView(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def jvp(ctx, x_t):
                return x_t.clone().view_as(x_t)

        with fwAD.dual_level():
            x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
            y = fwAD.make_dual(torch.tensor([5., 6.]), torch.tensor([7., 8.]))
            a, b = AView.apply(x, y)
            return (catch(NotAView.apply, x, y), fwAD.unpack_dual(a)[1],
                    fwAD.unpack_dual(b)[1], a is x, catch(OtherView.apply, x))
    same(prog)


def test_custom_function_save_for_forward():
    def prog(torch):
        fwAD = fw(torch)

        class Func(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y, z):
                ctx.save_for_backward(x, y)
                ctx.save_for_forward(x, y)
                ctx.z = z
                ctx.prod = x * y
                return z * ctx.prod

            @staticmethod
            def jvp(ctx, x_t, y_t, _):
                x_p, y_p = ctx.saved_tensors
                z = ctx.z
                return z * (y_p * x_t + x_p * y_t)

            @staticmethod
            def vjp(ctx, grad_out):
                x, y = ctx.saved_tensors
                z = ctx.z
                return z * grad_out * y, z * grad_out * x, None

        a = torch.tensor(1., requires_grad=True, dtype=torch.double)
        t = torch.tensor(1., dtype=torch.double)
        b = torch.tensor(2., requires_grad=True, dtype=torch.double)
        c = 4
        with fwAD.dual_level():
            a_dual = fwAD.make_dual(a, t)
            out = Func.apply(a_dual, b, c)
            out.backward()
            r = [fwAD.unpack_dual(out)[1], a.grad, b.grad]

        class BadFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_forward(x, 3)
                return x

        r.append(catch(BadFunc.apply, torch.ones(1)))
        return r
    same(prog)


def test_custom_function_forward_mode_non_differentiable():
    def prog(torch):
        fwAD = fw(torch)

        class MyFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                out = y.clone()
                ctx.mark_non_differentiable(out)
                return x.clone(), out

            @staticmethod
            def jvp(ctx, x_tangent, y_tangent):
                return x_tangent, None

        class BadFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                out = y.clone()
                ctx.mark_non_differentiable(out)
                return x.clone(), out

            @staticmethod
            def jvp(ctx, x_tangent, y_tangent):
                return x_tangent, y_tangent

        x = torch.tensor(2.)
        tangent = torch.tensor(1.)
        y = torch.tensor(3.)
        with fwAD.dual_level():
            x_dual = fwAD.make_dual(x, tangent)
            _, out2 = MyFn.apply(x_dual, y)
            return fwAD.unpack_dual(out2).tangent, catch(BadFn.apply, x_dual, y)
    same(prog)


def test_custom_function_forward_mode_inplace_checks():
    def prog(torch):
        fwAD = fw(torch)

        class InplaceFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, foo):
                foo.mul_(2)
                ctx.mark_dirty(foo)
                return foo

            @staticmethod
            def jvp(ctx, gI):
                if ctx.fn_version == 0:
                    gI.mul_(2)
                    return gI
                if ctx.fn_version == 1:
                    return gI * 2
                gI.mul_(2)
                return gI * 1

        out = []
        for version in range(3):
            with fwAD.dual_level():
                x = fwAD.make_dual(torch.ones(2), torch.ones(2)).clone()

                class F(InplaceFn):
                    @staticmethod
                    def forward(ctx, foo):
                        ctx.fn_version = version
                        return InplaceFn.forward(ctx, foo)

                out.append(catch(lambda: tuple(fwAD.unpack_dual(F.apply(x)))))
        return out
    same(prog)


def test_not_implemented_fwad():
    def prog(torch):
        fwAD = fw(torch)
        with fwAD.dual_level():
            x = fwAD.make_dual(torch.rand(2), torch.rand(2))
            return catch(torch.igamma, x, torch.ones(2))
    same(prog)


# ------------------------------------------------------------------ gradcheck

def _fwd_fn(torch, requires_grad):
    x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.double, requires_grad=requires_grad)
    y = torch.tensor([1.5, 0.2, -0.4], dtype=torch.double, requires_grad=requires_grad)
    return x, y


def test_gradcheck_forward_ad():
    def prog(torch):
        def fn(x, y):
            return x + y, y

        def bad_fn(x, y):
            # a tangent that is wrong: forward AD is compared with the numerical jacobian
            class BadFn(torch.autograd.Function):
                @staticmethod
                def forward(ctx, a):
                    return a * 2

                @staticmethod
                def jvp(ctx, t):
                    return t * 3

                @staticmethod
                def backward(ctx, g):
                    return g * 2
            return BadFn.apply(x), y

        x, y = _fwd_fn(torch, True)
        ok = torch.autograd.gradcheck(fn, (x, y), check_forward_ad=True)
        err = catch(torch.autograd.gradcheck, bad_fn, (x, y), check_forward_ad=True,
                    check_backward_ad=False)
        return ok, type(err).__name__, "Jacobian computed with forward mode mismatch" in str(
            getattr(err, "message", err))
    same(prog)


def test_gradcheck_forward_ad_runs_with_no_requires_grad():
    def prog(torch):
        seen = []

        class UserFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x.clone(), y.clone()

            @staticmethod
            def jvp(ctx, x_t, y_t):
                seen.append((x_t is None, y_t is None))
                return x_t, y_t

        x, y = _fwd_fn(torch, True)
        ok = torch.autograd.gradcheck(UserFn.apply, (x, y), check_forward_ad=True,
                                      check_backward_ad=False, check_undefined_grad=False)
        return ok, bool(seen)
    same(prog)


def test_gradcheck_forward_ad_respects_requires_grad():
    def prog(torch):
        seen = []

        class UserFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x.clone(), y.clone()

            @staticmethod
            def jvp(ctx, x_t, y_t):
                seen.append((x_t is None, y_t is None))
                return x_t, y_t

        x, _ = _fwd_fn(torch, True)
        _, y = _fwd_fn(torch, False)
        ok = torch.autograd.gradcheck(UserFn.apply, (x, y), check_forward_ad=True,
                                      check_backward_ad=False, check_undefined_grad=False)
        return ok, sorted(set(seen))
    same(prog)


def test_gradcheck_check_forward_or_backward_only():
    def prog(torch):
        class UserFn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def jvp(ctx, t):
                return t * 2

            @staticmethod
            def backward(ctx, g):
                return g * 5  # wrong: caught by the backward check only

        x, _ = _fwd_fn(torch, True)
        fwd_only = torch.autograd.gradcheck(UserFn.apply, (x,), check_forward_ad=True,
                                            check_backward_ad=False,
                                            check_undefined_grad=False)
        both = torch.autograd.gradcheck(UserFn.apply, (x,), check_forward_ad=True,
                                        raise_exception=False, check_undefined_grad=False)
        return fwd_only, both
    same(prog)


def test_gradcheck_forward_ad_batched_grad():
    def prog(torch):
        x = data(torch, 2, seed=32, requires_grad=True)
        kw = dict(check_forward_ad=True, check_backward_ad=False, check_batched_grad=False,
                  check_undefined_grad=False, check_batched_forward_grad=True)
        # several outputs, a non-tensor input; an input the output does not use
        first = torch.autograd.gradcheck(lambda a, b: (a.clone(), a + 1), (x, 1), **kw)
        second = torch.autograd.gradcheck(lambda a, c: a.clone(), (x, x.clone()), **kw)
        return first, second
    same(prog)


@issue8("a custom Function under torch._vmap_internals' vmap runs once per sample, so its "
        "jvp sees one plain tangent and a random op there does not raise")
def test_gradcheck_forward_ad_batched_grad_random_in_jvp():
    # the last case of test_gradcheck_forward_ad_batched_grad
    def prog(torch):
        class Fn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, foo):
                return foo * 2

            @staticmethod
            def vjp(ctx, gO):
                return gO * 2

            @staticmethod
            def jvp(ctx, gI):
                torch.randn_like(gI)
                return gI * 2
        x = data(torch, 2, seed=32, requires_grad=True)
        return catch(torch.autograd.gradcheck, Fn.apply, (x,), check_forward_ad=True,
                     check_batched_forward_grad=True)
    same(prog)


# ------------------------------------------------------------------ copy_

def test_copy_forward_ad_broadcasting():
    def prog(torch):
        fwAD = fw(torch)
        with fwAD.dual_level():
            primal = torch.rand(3, 3, dtype=torch.double)
            tangent = data(torch, 3, 3, seed=26)
            x = fwAD.make_dual(primal, tangent)
            y = torch.zeros(3, 3, dtype=torch.double)
            y.copy_(x[0])
            return fwAD.unpack_dual(y)[1]
    same(prog)


def test_copy_forward_ad_same_layout_copies_grad():
    def prog(torch):
        fwAD = fw(torch)
        with fwAD.dual_level():
            primal = torch.tensor([[3.0], [4.0]])
            tangent = torch.tensor([[5.0], [6.0]])
            a = fwAD.make_dual(primal, tangent)
            b = torch.tensor([[1.0], [2.0]])
            b.copy_(a)
            bt = fwAD.unpack_dual(b)[1]
            return bt is tangent, bt
    same(prog)


# ------------------------------------------------------------------ functional

def _jac_both(torch, fn, inputs):
    F = torch.autograd.functional
    rev = F.jacobian(fn, inputs, vectorize=False)
    fwd = F.jacobian(fn, inputs, vectorize=True, strategy="forward-mode")
    return rev, fwd


def test_jacobian_vectorize_correctness_simple():
    def prog(torch):
        x = data(torch, 2, 3, seed=27)
        return _jac_both(torch, lambda x: 3 * x ** 2, x)
    same(prog)


def test_jacobian_vectorize_correctness_multi_input():
    def prog(torch):
        x = data(torch, 2, 3, seed=28)
        y = data(torch, 3, 2, seed=29)
        return _jac_both(torch, lambda x, y: (x.cos() * x) @ y.sin(), (x, y))
    same(prog)


def test_jacobian_vectorize_correctness_multi_input_multi_output():
    def prog(torch):
        x = data(torch, 2, 3, seed=30)
        y = data(torch, 3, 2, seed=31)
        return _jac_both(torch, lambda x, y: ((x * x) @ y, x @ (x.sum(1) * y)), (x, y))
    same(prog)


def test_jacobian_vectorize_correctness_unrelated_outputs():
    def prog(torch):
        x = data(torch, 2, seed=32)
        y = data(torch, 3, seed=33)
        return _jac_both(torch, lambda x, y: (x, x, x), (x, y))
    same(prog)


def test_jacobian_vectorize_correctness_zero_dim():
    def prog(torch):
        x = data(torch, seed=34)
        y = data(torch, seed=35)
        return (_jac_both(torch, lambda x: x.exp(), x),
                _jac_both(torch, lambda x, y: x * y, (x, y)))
    same(prog)


def _hess_both(torch, fn, inputs):
    F = torch.autograd.functional
    rev = F.hessian(fn, inputs, vectorize=False)
    fwd = F.hessian(fn, inputs, vectorize=True, outer_jacobian_strategy="forward-mode")
    return rev, fwd


def test_hessian_vectorize_correctness_simple():
    def prog(torch):
        x = data(torch, 2, 3, seed=36)
        return _hess_both(torch, lambda x: (3 * x ** 2).sum(), x)
    same(prog)


def test_hessian_vectorize_correctness_multi_input():
    def prog(torch):
        x = data(torch, 2, 3, seed=37)
        y = data(torch, 3, 2, seed=38)
        return _hess_both(torch, lambda x, y: ((x.cos() * x) @ y.sin()).sum(), (x, y))
    same(prog)


def test_hessian_vectorize_correctness_unrelated_outputs():
    def prog(torch):
        x = data(torch, 2, seed=39)
        y = data(torch, 3, seed=40)
        return _hess_both(torch, lambda x, y: (x ** 2).sum(), (x, y))
    same(prog)
