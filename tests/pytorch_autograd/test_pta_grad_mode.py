"""Grad modes (no_grad, enable_grad, set_grad_enabled, inference_mode) as context
managers, decorators, on generators and coroutines: PyTorch's test/test_autograd.py
tests of them, each rewritten here as a differential program (run under torch and
autograd_core, results compared by tests/_diff.py).  Each test is named after the
PyTorch test it follows."""
import warnings

from _diff import data, issue8, same


def test_grad_mode_class_decoration():
    def prog(torch):
        log = []
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")

            @torch.no_grad()
            class Foo:
                def __init__(self):
                    log.append(("init", torch.is_grad_enabled()))

                def foo(self):
                    log.append(("foo", torch.is_grad_enabled()))

            foo = Foo()
            foo.foo()
        r = [[(x.category.__name__, "Decorating classes is deprecated" in str(x.message))
              for x in w]]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")

            @torch.no_grad()
            def foo():
                log.append(("fn", torch.is_grad_enabled()))

            foo()

            class Foo2:
                @torch.no_grad()
                def __init__(self):
                    log.append(("init2", torch.is_grad_enabled()))

                @torch.no_grad()
                def foo(self):
                    log.append(("foo2", torch.is_grad_enabled()))

            Foo2().foo()
        return r + [len(w), log]
    same(prog)


def test_no_grad():
    def prog(torch):
        x = torch.ones(5, 5, requires_grad=True)
        y = torch.ones(5, 5) * 4
        with torch.no_grad():
            w = x + y

        def adder(x, y):
            return x + y

        r = []
        for add in [torch.no_grad()(adder), torch.no_grad(adder)]:
            z = add(x, y)
            r += [w.requires_grad, w.grad_fn is None, z.requires_grad, z.grad_fn is None]
            for t in (w, z):
                try:
                    t.backward(torch.ones(5, 5))
                except RuntimeError as e:
                    r.append(str(e))
        with torch.no_grad():
            r.append(torch.is_grad_enabled())
            w = adder(x, y)
            r.append(torch.is_grad_enabled())
        return r
    same(prog)


def test_enable_grad_decorator_no_paren():
    def prog(torch):
        x = torch.ones(1, requires_grad=True)

        @torch.enable_grad
        def doubler(x):
            return x * 2

        with torch.no_grad():
            z = doubler(x)
        return z.requires_grad, z
    same(prog)


def test_set_grad_generator_functions():
    def prog(torch):
        log = []

        @torch.no_grad()
        def gen_no_grad():
            for i in range(3):
                log.append(("in no_grad gen", torch.is_grad_enabled()))
                yield i

        with torch.enable_grad():
            for _ in gen_no_grad():
                log.append(("outside", torch.is_grad_enabled()))

        @torch.enable_grad()
        def gen_enable_grad():
            for i in range(3):
                log.append(("in enable_grad gen", torch.is_grad_enabled()))
                yield i

        with torch.no_grad():
            for _ in gen_enable_grad():
                log.append(("outside", torch.is_grad_enabled()))
        return log
    same(prog)


def test_set_grad_generator_functions_recursive():
    def prog(torch):
        log = []

        @torch.enable_grad()
        def enable_grad_decorator_recursive(depth):
            log.append(torch.is_grad_enabled())
            if depth > 0:
                no_grad_decorator_recursive(depth - 1)
                log.append(torch.is_grad_enabled())

        @torch.no_grad()
        def no_grad_decorator_recursive(depth):
            log.append(torch.is_grad_enabled())
            if depth > 0:
                enable_grad_decorator_recursive(depth - 1)
                log.append(torch.is_grad_enabled())

        def enable_grad_context_manager_recursive(depth):
            with torch.enable_grad():
                log.append(torch.is_grad_enabled())
                if depth > 0:
                    no_grad_context_manager_recursive(depth - 1)
                    log.append(torch.is_grad_enabled())

        def no_grad_context_manager_recursive(depth):
            with torch.no_grad():
                log.append(torch.is_grad_enabled())
                if depth > 0:
                    enable_grad_context_manager_recursive(depth - 1)
                    log.append(torch.is_grad_enabled())

        for mode in (torch.enable_grad, torch.no_grad):
            with mode():
                log.append(("mode", torch.is_grad_enabled()))
                enable_grad_decorator_recursive(10)
                log.append(("after decorators", torch.is_grad_enabled()))
                enable_grad_context_manager_recursive(10)
                log.append(("after context managers", torch.is_grad_enabled()))
        return log
    same(prog)


def _coroutines(torch, log):
    @torch.no_grad()
    def coro_no_grad(n=4):
        log.append(("start no_grad coro", torch.is_grad_enabled()))
        for i in range(n):
            log.append(torch.is_grad_enabled())
            r = yield i
            log.append((torch.is_grad_enabled(), i == r))
        log.append(("end no_grad coro", torch.is_grad_enabled()))

    @torch.enable_grad()
    def coro_enable_grad(n=4):
        log.append(("start enable_grad coro", torch.is_grad_enabled()))
        for i in range(n):
            log.append(torch.is_grad_enabled())
            r = yield i
            log.append((torch.is_grad_enabled(), i == r))
        log.append(("end enable_grad coro", torch.is_grad_enabled()))
    return coro_no_grad, coro_enable_grad


def test_set_grad_coroutines():
    def prog(torch):
        log = []
        coro_no_grad, coro_enable_grad = _coroutines(torch, log)
        for mode, make in ((torch.enable_grad, coro_no_grad),
                           (torch.no_grad, coro_enable_grad)):
            with mode():
                coro, r = make(), None
                try:
                    while True:
                        log.append(("caller", torch.is_grad_enabled()))
                        r = coro.send(r)
                        log.append(("caller", torch.is_grad_enabled()))
                except StopIteration:
                    pass
        return log
    same(prog)


def test_set_grad_coroutines_benign_exceptions():
    def prog(torch):
        log = []

        class RecoverableException(Exception):
            pass

        def make(decorator):
            @decorator()
            def coro(n=4):
                has_raised = False
                for i in range(n):
                    try:
                        log.append(torch.is_grad_enabled())
                        yield (-i if has_raised else i)
                    except RecoverableException:
                        log.append(("caught", torch.is_grad_enabled()))
                        has_raised = True
            return coro

        for mode, deco in ((torch.enable_grad, torch.no_grad),
                           (torch.no_grad, torch.enable_grad)):
            with mode():
                coro = make(deco)()
                log.append(next(coro))
                try:
                    while True:
                        log.append(coro.throw(RecoverableException))
                except StopIteration:
                    pass
        return log
    same(prog)


def test_set_grad_coroutines_critical_exceptions():
    def prog(torch):
        log = []

        class UnrecoverableException(Exception):
            pass

        class SecondaryException(Exception):
            pass

        def make(decorator):
            @decorator()
            def coro(n=4):
                for i in range(n):
                    try:
                        log.append(torch.is_grad_enabled())
                        yield i
                    except UnrecoverableException:
                        log.append(("caught", torch.is_grad_enabled()))
                        raise SecondaryException from None
            return coro

        for mode, deco in ((torch.enable_grad, torch.no_grad),
                           (torch.no_grad, torch.enable_grad)):
            with mode():
                coro = make(deco)()
                log.append(next(coro))
                try:
                    coro.throw(UnrecoverableException)
                except SecondaryException:
                    log.append(("secondary", torch.is_grad_enabled()))
        return log
    same(prog)


def test_set_grad_coroutines_exit():
    def prog(torch):
        log = []

        def make(decorator):
            @decorator()
            def coro(state):
                for i in range(10):
                    try:
                        log.append(torch.is_grad_enabled())
                        yield i
                    except GeneratorExit:
                        log.append(("exit", torch.is_grad_enabled()))
                        state.add("GeneratorExit")
                        raise
            return coro

        r = []
        for mode, deco in ((torch.enable_grad, torch.no_grad),
                           (torch.no_grad, torch.enable_grad)):
            state = set()
            with mode():
                coro = make(deco)(state)
                for _ in range(5):
                    next(coro)
                coro.close()
            r.append("GeneratorExit" in state)
        return r, log
    same(prog)


def test_set_grad_enabled():
    def prog(torch):
        x = torch.tensor([1.0], requires_grad=True)
        r = []
        with torch.set_grad_enabled(False):
            y = x * 2
        r.append(y.requires_grad)
        with torch.set_grad_enabled(True):
            y = x * 2
        r.append(y.requires_grad)
        with torch.set_grad_enabled(False):
            torch.set_grad_enabled(True)
            y = x * 2
        r.append(y.requires_grad)
        r.append(torch.is_grad_enabled())
        return r
    same(prog)


def test_set_grad_enabled_wraps():
    def prog(torch):
        log = []
        for decorator in [True, False]:
            with torch.enable_grad():
                log.append(torch.is_grad_enabled())
                if decorator:
                    @torch.set_grad_enabled(False)
                    def inner_func(x):
                        return x.sin()
                else:
                    def inner_func(x):
                        return x.sin()
                    obj = torch.set_grad_enabled(False)
                    log.append(("after constructing", torch.is_grad_enabled()))
                    inner_func = obj(inner_func)
                    log.append(("after wrapping", torch.is_grad_enabled()))
                log.append(torch.is_grad_enabled())
                x = torch.zeros(1, requires_grad=True)
                log.append(inner_func(x).requires_grad)
        return log
    same(prog)


def test_no_grad_assignment():
    def prog(torch):
        x = data(torch, 5, 5, requires_grad=True)
        y = data(torch, 5, seed=1)
        with torch.no_grad():
            x[0] = y
        return x.requires_grad, x.grad_fn is None, x
    same(prog)


def test_no_grad_modifies_version():
    def prog(torch):
        x = data(torch, 5, seed=1, requires_grad=True)
        y = data(torch, 5, seed=2, requires_grad=True)
        z = (x * y).sum()
        with torch.no_grad():
            x *= 2
        z.backward()
    same(prog, must_raise=True)


# ------------------------------------------------- PyTorch's TestAutogradInferenceMode

def _is_inference_tensor(torch, tensor):
    try:
        tensor._version
        return False
    except RuntimeError:
        return True


def _run_modes(torch, fn):
    """fn(requires_grad) for both flags, results listed (an error becomes its text)."""
    r = []
    for requires_grad in (True, False):
        try:
            r.append(fn(requires_grad))
        except RuntimeError as e:
            r.append(str(e))
    return r


class TestAutogradInferenceMode:
    # (PyTorch's tests call torch.is_inference(t); these call the method t.is_inference())
    def test_inference_mode_context_manager(self):
        def prog(torch):
            r = [torch.is_inference_mode_enabled()]
            with torch.inference_mode():
                r.append(torch.is_inference_mode_enabled())
                with torch.inference_mode(False):
                    r.append(torch.is_inference_mode_enabled())
                r.append(torch.is_inference_mode_enabled())
            return r + [torch.is_inference_mode_enabled()]
        same(prog)

    def test_inference_mode_decorator(self):
        def prog(torch):
            r = []
            log = []

            def func(x):
                log.append(torch.is_inference_mode_enabled())
                return x * x

            for mode, use_kwarg in ((True, True), (True, False), (False, True),
                                    (False, False), (None, True), (None, False)):
                if mode is None:
                    decorated = (torch.inference_mode(mode=func) if use_kwarg
                                 else torch.inference_mode(func))
                else:
                    decorated = (torch.inference_mode(mode=mode)(func) if use_kwarg
                                 else torch.inference_mode(mode)(func))
                for requires_grad in (True, False):
                    c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                    d = decorated(c)
                    r.append((d.is_inference(), d.requires_grad))
            return r, log
        same(prog)

    def test_inference_mode_tensor_creation(self):
        def prog(torch):
            with torch.inference_mode():
                c = torch.ones(1, 2, 3)
                tmp = torch.ones(1, 2, 3, requires_grad=True)
                tmp2 = torch.ones(1, 2, 3).requires_grad_(False)
                return [(t.requires_grad, t.is_inference()) for t in (c, tmp, tmp2)]
        same(prog)

    def test_inference_mode_existing_autograd_session(self):
        def prog(torch):
            s = torch.ones(1, 2, 3, requires_grad=True)
            a = s.clone()
            out = a * a
            with torch.inference_mode():
                a.add_(2)
            r = [a.is_inference()]
            try:
                out.backward(torch.ones_like(out))
            except RuntimeError as e:
                r.append(str(e))
            return r
        same(prog)

    def test_inference_mode_inf_tensor_in_inf_mode_functional_op(self):
        def prog(torch):
            r = []
            with torch.inference_mode():
                for requires_grad in (True, False):
                    c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                    out = c * c
                    r.append((out.is_inference(), out.requires_grad))
            return r
        same(prog)

    def test_inference_mode_inf_tensor_in_inf_mode_inplace_op(self):
        def prog(torch):
            r = []

            @torch.inference_mode()
            def run_test(fn):
                for requires_grad in (True, False):
                    c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                    fn(c)
                    r.append((c.is_inference(), c.requires_grad))

            run_test(lambda x: x.add_(2))
            run_test(lambda x: x.copy_(torch.ones(1, 2, 3)))
            run_test(lambda x: x.transpose_(0, 1))
            run_test(lambda x: x.resize_(1, 2))
            run_test(lambda x: x.resize_as_(torch.ones(1, 2)))
            return r
        same(prog)

    def test_inference_mode_inf_tensor_in_inf_mode_view_op(self):
        def prog(torch):
            r = []
            with torch.inference_mode():
                for requires_grad in (True, False):
                    c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                    view_out = c.view(-1)
                    r.append((view_out.is_inference(), view_out.requires_grad))
            return r
        same(prog)

    def test_inference_mode_inf_tensor_in_normal_mode_functional_op(self):
        def prog(torch):
            r = []
            for requires_grad in (True, False):
                with torch.inference_mode():
                    c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                out = c * c
                r.append((out.is_inference(), out.requires_grad, out.is_leaf))
            return r
        same(prog)

    def test_inference_mode_inf_tensor_in_normal_mode_inplace_op(self):
        def prog(torch):
            r = []
            for fn in (lambda x: x.add_(2), lambda x: x.transpose_(0, 1)):
                for requires_grad in (False, True):
                    with torch.inference_mode():
                        c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                    try:
                        fn(c)
                        r.append("ok")
                    except RuntimeError as e:
                        r.append(str(e))
            return r
        same(prog)

    def test_inference_mode_inf_tensor_in_normal_mode_view_op(self):
        def prog(torch):
            r = []
            for requires_grad in (True, False):
                with torch.inference_mode():
                    c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                out = c.view(-1)
                r.append((out.is_inference(), out.requires_grad, out._is_view(),
                          out.is_leaf))
            return r
        same(prog)

    def test_normal_tensor_inplace_output_in_inference_mode(self):
        def prog(torch):
            r = []
            for fn in (lambda x: x.add_(2), lambda x: x.transpose_(0, 1)):
                for requires_grad in (True, False):
                    s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                    a = s.clone()
                    with torch.inference_mode():
                        fn(a)
                        r.append((a.is_inference(), a.requires_grad))
                        fn(a)
                        r.append((a.is_inference(), a.requires_grad))
                        view_out = a.view(-1)
                        r.append((view_out.is_inference(), view_out.requires_grad))
            return r
        same(prog)

    def test_normal_tensor_inplace_output_in_normal_mode(self):
        # (in PyTorch's test the calls sit inside the loop body by an indentation slip,
        # so only add_ runs; the same here)
        def prog(torch):
            r = []
            fn = lambda x: x.add_(2)  # noqa: E731
            for requires_grad in (True, False):
                s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                a = s.clone()
                with torch.inference_mode():
                    fn(a)
                    r.append((a.is_inference(), a.requires_grad))
                fn(a)
                r.append((a.is_inference(), a.requires_grad))
                fn(a)
                r.append((a.is_inference(), a.requires_grad))
                view_out = a.view(-1)
                r.append((view_out.is_inference(), view_out.requires_grad))
            return r
        same(prog)

    def test_normal_tensor_view_output_in_inference_mode(self):
        def prog(torch):
            r = []
            for requires_grad in (True, False):
                s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                a = s.clone()
                with torch.inference_mode():
                    out = a.view(-1)
                    r.append((out.is_inference(), out.requires_grad, out._is_view()))
                    tmp = out.view(-1)
                    r.append((tmp.is_inference(), tmp.requires_grad, tmp._is_view(),
                              tmp.is_leaf))
                    r.append(torch.is_inference_mode_enabled())
                    tmp.add_(2)
                    r.append((tmp.is_inference(), tmp.requires_grad,
                              a._version == tmp._version))
            return r
        same(prog)

    def test_normal_tensor_view_output_in_normal_mode(self):
        def prog(torch):
            r = []
            for requires_grad in (True, False):
                s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                a = s.clone()
                with torch.inference_mode():
                    out = a.view(-1)
                    r.append((out.is_inference(), out.requires_grad, out._is_view(),
                              out.is_leaf))
                tmp = out * out
                r.append((tmp.is_inference(), tmp.requires_grad))
                try:
                    out.add_(2)
                    r.append("ok")
                except RuntimeError as e:
                    r.append(str(e))
                tmp = out.view(2, 3)
                r.append((tmp.is_inference(), tmp.requires_grad))
            return r
        same(prog)

    def test_mix_inference_and_normal_tensor_functional_op(self):
        def prog(torch):
            r = []
            for requires_grad in (True, False):
                s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                with torch.inference_mode():
                    c = torch.ones(1, 2, 3, requires_grad=requires_grad)
                out = c.add(s)
                r.append((out.is_inference(), out.requires_grad))
                if requires_grad:
                    out.backward(torch.ones_like(out))
                    r.append(c.grad)
                    try:
                        c * s
                    except RuntimeError as e:
                        r.append(str(e))
            return r
        same(prog)

    def test_mix_inference_and_normal_tensor_inplace_op(self):
        def prog(torch):
            r = []
            for requires_grad in (True, False):
                s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                a = s.clone()
                with torch.inference_mode():
                    c = torch.ones(1, 2, 3)
                r.append(c.is_inference())
                for f in (lambda: a.mul_(c), lambda: torch.mul(s, s, out=c)):
                    try:
                        f()
                        r.append("ok")
                    except RuntimeError as e:
                        r.append(str(e))
            return r
        same(prog)

    def test_mix_inference_and_normal_tensor_view_op(self):
        def prog(torch):
            r = []
            for requires_grad in (True, False):
                s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                with torch.inference_mode():
                    c = torch.ones(1, 2, 3)
                tmp1 = c.view_as(s)
                tmp2 = s.view_as(c)
                r.append((tmp1.is_inference(), tmp1.requires_grad,
                          tmp2.is_inference(), tmp2.requires_grad))
            return r
        same(prog)

    def test_inference_mode_handle_direct_view_on_rebase(self):
        def prog(torch):
            r = []
            for fn in (lambda x: x.add_(2), lambda x: x.transpose_(0, 1)):
                for requires_grad in (True, False):
                    s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                    a = s.clone()
                    with torch.inference_mode():
                        view_out = a.view_as(a)
                    try:
                        fn(view_out)
                        r.append("ok")
                    except RuntimeError as e:
                        r.append(str(e))
            return r
        same(prog)

    def test_inference_mode_handle_indirect_view_on_rebase(self):
        def prog(torch):
            r = []
            for fn in (lambda x: x.add_(2), lambda x: x.transpose_(0, 1)):
                for requires_grad in (True, False):
                    s = torch.ones(1, 2, 3, requires_grad=requires_grad)
                    a = s.clone()
                    with torch.inference_mode():
                        view_out = a.view(-1)
                    fn(a)
                    try:
                        view_out.grad_fn  # noqa: B018
                        r.append("ok")
                    except RuntimeError as e:
                        r.append(str(e))
            return r
        same(prog)
