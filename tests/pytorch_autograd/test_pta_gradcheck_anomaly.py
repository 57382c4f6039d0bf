"""gradcheck / gradgradcheck and anomaly detection: PyTorch's test/test_autograd.py tests
of them, each rewritten here as a differential program (run under torch and
autograd_core, results compared by tests/_diff.py).  Each test is named after the
PyTorch test it follows."""
import io
import sys
import warnings
import weakref

from _diff import data, issue8, same


def _attempt(r, f, *types):
    try:
        r.append(f())
    except types or (RuntimeError,) as e:
        r.append((type(e).__name__, str(e)))


def _warn_msgs(w):
    return [(x.category.__name__, str(x.message).split("\n")[0]) for x in w]


# ------------------------------------------------------------------------- anomaly

def _nan_func(torch, size):
    class MyFunc(torch.autograd.Function):
        @staticmethod
        def forward(ctx, inp1, inp2, fail_0th):
            ctx.fail_0th = fail_0th
            return inp1.sum(0, keepdim=True)

        @staticmethod
        def backward(ctx, gO):
            gI = gO.clone().expand(size)
            gI[0] = 0
            gI[0] /= 0
            if ctx.fail_0th:
                return gI, None, None
            return None, gI, None
    return MyFunc


def test_anomaly_detect_nan():
    def prog(torch):
        size = 10
        MyFunc = _nan_func(torch, size)
        r = []
        inp = data(torch, size, requires_grad=True)
        out = MyFunc.apply(inp, inp, True)
        out.backward()
        r.append(inp.grad)
        inp = data(torch, size, requires_grad=True)
        out = MyFunc.apply(inp, inp, True)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                with torch.autograd.detect_anomaly():
                    out.backward()
            except RuntimeError as e:
                r.append(str(e))
        r.append(["No forward pass information" in str(x.message) for x in w])
        inp = data(torch, size, requires_grad=True)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                with torch.autograd.detect_anomaly():
                    out = MyFunc.apply(inp, inp, False)
                    out.backward()
            except RuntimeError as e:
                r.append(str(e))
        r.append(["MyFunc.apply" in str(x.message) for x in w])
        return r
    same(prog)


def test_nested_anomaly_detect_nan():
    def prog(torch):
        size = 10

        class MyFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp1, fail_0th):
                ctx.fail_0th = fail_0th
                ctx.save_for_backward(inp1)
                return inp1.sum(0, keepdim=True)

            @staticmethod
            def backward(ctx, gO):
                (inp,) = ctx.saved_tensors
                g = gO.clone().expand(size)
                gI = MyFunc2.apply(g * inp, g + inp, ctx.fail_0th)
                return gI, None

        class MyFunc2(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp1, inp2, fail_0th):
                ctx.fail_0th = fail_0th
                return inp1 * 2.0 + inp2

            @staticmethod
            def backward(ctx, gO):
                g1 = gO.clone()
                g2 = gO.clone()
                g1[0] = 0
                g2[0] = 0
                if ctx.fail_0th:
                    g1[0] /= 0
                else:
                    g2[0] /= 0
                return g1, g2, None

        r = []
        inp = data(torch, size, requires_grad=True)
        out = MyFunc.apply(inp, True)
        (ginp,) = torch.autograd.grad(out, (inp,), create_graph=True)
        ginp.sum().backward()
        r.append(inp.grad)
        inp = data(torch, size, requires_grad=True)
        out = MyFunc.apply(inp, True)
        (ginp,) = torch.autograd.grad(out, (inp,), create_graph=True)
        gsum = ginp.sum()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                with torch.autograd.detect_anomaly():
                    gsum.backward()
            except RuntimeError as e:
                r.append(str(e))
        r.append(["No forward pass information" in str(x.message) for x in w])
        inp = data(torch, size, requires_grad=True)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                with torch.autograd.detect_anomaly():
                    out = MyFunc.apply(inp, False)
                    (ginp,) = torch.autograd.grad(out, (inp,), create_graph=True)
                    ginp.sum().backward()
            except RuntimeError as e:
                r.append(str(e))
        r.append([("MyFunc2.apply" in str(x.message), "MyFunc.apply" in str(x.message))
                  for x in w])
        return r
    same(prog)


def test_anomaly_grad_warnings():
    def prog(torch):
        r = []
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                with torch.autograd.detect_anomaly():
                    a = data(torch, 5, requires_grad=True)
                    d1 = a + 1
                    d2 = d1 ** 2
                    d1 += 1
                    torch.autograd.grad(d2.sum(), a)
            except RuntimeError as e:
                r.append(str(e).split(":")[0])
        r.append([("Anomaly Detection has been enabled" in str(x.message),
                   "Error detected in PowBackward0" in str(x.message)) for x in w])
        # with warnings turned into errors the second warning goes to stderr
        stderr, sys.stderr = sys.stderr, io.StringIO()
        try:
            with warnings.catch_warnings(record=True) as w:
                try:
                    with torch.autograd.detect_anomaly():
                        warnings.simplefilter("error")
                        a = data(torch, 5, requires_grad=True)
                        d1 = a + 1
                        d2 = d1 ** 2
                        d1 += 1
                        torch.autograd.grad(d2.sum(), a)
                except RuntimeError as e:
                    r.append(str(e).split(":")[0])
            captured = sys.stderr.getvalue()
        finally:
            sys.stderr = stderr
        r += [len(w), ["Anomaly Detection has been enabled" in str(x.message) for x in w],
              "Error detected in PowBackward0" in captured]
        return r
    same(prog)


def test_anomaly_assign_parent_cleanup():
    def prog(torch):
        def get_ref():
            x = data(torch, 2, 2, requires_grad=True)
            t = x.exp()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with torch.autograd.detect_anomaly():
                    torch.autograd.grad(t, x, torch.ones_like(t), create_graph=True)

            class Foo:
                pass

            my_obj = Foo()
            t.grad_fn.metadata[0] = my_obj
            return t, weakref.ref(my_obj)

        t, ref = get_ref()
        r = [ref() is not None]
        del t
        return r + [ref() is None]
    same(prog)


def test_nested_anomaly_printstack_cleanup():
    def prog(torch):
        r = []

        def get_ref():
            class MyFunc(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    ctx.save_for_backward(x)
                    return x

                @staticmethod
                def backward(ctx, gO):
                    (x,) = ctx.saved_tensors
                    return MyFunc2.apply(x)

            class MyFunc2(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x):
                    return x

                @staticmethod
                def backward(ctx, gO):
                    return gO + float("NaN")

            inp = data(torch, 1, requires_grad=True)
            out = MyFunc.apply(inp)
            (ginp,) = torch.autograd.grad(out, (inp,), create_graph=True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    with torch.autograd.detect_anomaly():
                        ginp.backward()
                except RuntimeError as e:
                    r.append(str(e))

            class Foo:
                pass

            my_obj = Foo()
            out.grad_fn.metadata[0] = my_obj
            return out, weakref.ref(my_obj)

        t, ref = get_ref()
        r.append(ref() is not None)
        del t
        return r + [ref() is None]
    same(prog)


def test_anomaly_mode_no_check_nan():
    def prog(torch):
        class MyFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                return inp.clone()

            @staticmethod
            def backward(ctx, gO):
                return torch.tensor(float("nan")).expand(10, 10)

        r = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.autograd.detect_anomaly(check_nan=False):
                inp = data(torch, 10, 10, dtype="float32", requires_grad=True)
                out = MyFunc.apply(inp).sum()
                out.backward(retain_graph=True)
                with torch.autograd.detect_anomaly(check_nan=True):
                    _attempt(r, lambda: out.backward(retain_graph=True))
                out.backward()
        return r + [inp.grad]
    same(prog)


# ----------------------------------------------------------------------- gradcheck

def test_gradcheck_check_batched_grad():
    # PyTorch's case is a sparse input whose batched backward fails; the dense part: a
    # batched-gradient failure raises with gradcheck's batched message, or gives False
    # with raise_exception=False (here a backward that counts its calls, so the vmapped
    # vector-Jacobian product differs from the ones computed one at a time)
    def prog(torch):
        def make():
            calls = [0]

            class Counting(torch.autograd.Function):
                @staticmethod
                def forward(ctx, a):
                    return a * 2

                @staticmethod
                def backward(ctx, g):
                    calls[0] += 1
                    return g * calls[0]
            return Counting.apply

        x = data(torch, 3, seed=40, requires_grad=True)
        loose = dict(atol=1e9, rtol=1e9, nondet_tol=1e9, check_undefined_grad=False)
        out = []
        for fast_mode in (True, False):
            try:
                torch.autograd.gradcheck(make(), (x,), check_batched_grad=True,
                                         fast_mode=fast_mode, **loose)
                out.append(None)
            except RuntimeError as e:
                out.append("gradcheck or gradgradcheck failed while testing batched "
                           "gradient" in str(e))
            out.append(torch.autograd.gradcheck(make(), (x,), check_batched_grad=True,
                                                raise_exception=False, fast_mode=fast_mode,
                                                **loose))
        return out
    same(prog)


def test_gradcheck_single_input():
    def prog(torch):
        def f(inp):
            return inp.mul(5)

        r = []
        for fast_mode in (True, False):
            r.append(torch.autograd.gradcheck(f, data(torch, 10, requires_grad=True),
                                              fast_mode=fast_mode))
            r.append(torch.autograd.gradgradcheck(f, data(torch, 10, requires_grad=True),
                                                  fast_mode=fast_mode))
        return r
    same(prog)


def test_gradcheck_nondeterministic():
    def prog(torch):
        class NonDetFunc(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, jitter=0.0):
                ctx._jitter = jitter
                return x

            @staticmethod
            def backward(ctx, grad_out):
                return (NonDetFunc.apply(grad_out, ctx._jitter)
                        * (1 + torch.rand_like(grad_out) * ctx._jitter), None)

        gc_, ggc = torch.autograd.gradcheck, torch.autograd.gradgradcheck
        r = []
        for fast_mode in (True, False):
            inp = data(torch, 5, 5, requires_grad=True)
            r.append(gc_(lambda x: NonDetFunc.apply(x, 0.0), inp, check_batched_grad=False,
                         fast_mode=fast_mode))
            _attempt(r, lambda: gc_(lambda x: NonDetFunc.apply(x, 1e-6), inp,
                                    check_batched_grad=False, fast_mode=fast_mode))
            _attempt(r, lambda: ggc(lambda x: NonDetFunc.apply(x, 1e-12), inp,
                                    check_batched_grad=False, fast_mode=fast_mode))
            r.append(gc_(lambda x: NonDetFunc.apply(x, 0.0), inp, nondet_tol=1e-5,
                         check_batched_grad=False, fast_mode=fast_mode))
            r.append(gc_(lambda x: NonDetFunc.apply(x, 1e-6), inp, nondet_tol=1e-5,
                         check_batched_grad=False, fast_mode=fast_mode))
            r.append(ggc(lambda x: NonDetFunc.apply(x, 1e-12), inp, nondet_tol=1e-5,
                         check_batched_grad=False, fast_mode=fast_mode))
        # the random jitter makes the reported numbers differ: compare up to them
        return [x if not isinstance(x, tuple) else (x[0], x[1].split("\n")[0][:40])
                for x in r]
    same(prog)


def test_gradcheck_validates_inputs():
    # the dense cases (PyTorch's test starts with sparse inputs)
    def prog(torch):
        gc_ = torch.autograd.gradcheck
        r = []
        for fast_mode in (True, False):
            x = data(torch, 10, dtype="float32")
            _attempt(r, lambda: gc_(lambda x: x, (x,), raise_exception=False,
                                    fast_mode=fast_mode), ValueError)
            x = torch.ones(1, dtype=torch.float32, requires_grad=True)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                r.append(gc_(lambda x: x, (x,), atol=1e-1, fast_mode=fast_mode))
            r.append(_warn_msgs(w))
            x = torch.ones(1, dtype=torch.float64, requires_grad=True).expand((2, 2))
            _attempt(r, lambda: gc_(lambda x: x, (x,), raise_exception=False,
                                    fast_mode=fast_mode))
        return r
    same(prog)


def test_gradcheck_check_no_differentiable_outputs():
    def prog(torch):
        gc_ = torch.autograd.gradcheck
        r = []
        for fast_mode in (True, False):
            x = torch.ones((1,), requires_grad=True)
            _attempt(r, lambda: gc_(lambda x: torch.tensor([x]), x))
            r.append(gc_(lambda x: torch.tensor([x]), x, raise_exception=False,
                         fast_mode=fast_mode))
            r.append(gc_(lambda x: (), (x,), fast_mode=fast_mode))
        return r
    same(prog, quiet=True)


def test_gradcheck_backward_mul_by_grad_output():
    # the dense case (PyTorch's test also checks sparse gradients and layouts)
    def prog(torch):
        gc_ = torch.autograd.gradcheck

        def fn2(x):
            y = x.clone()
            y.register_hook(lambda x: x + 1e-2)
            return y

        r = []
        for fast_mode in (True, False):
            x = torch.ones(1, dtype=torch.double, requires_grad=True)
            _attempt(r, lambda: gc_(fn2, (x,), atol=1e-1, fast_mode=fast_mode))
            r.append(gc_(fn2, (x,), atol=1e-1, raise_exception=False, fast_mode=fast_mode))
        return [x if not isinstance(x, tuple) else (x[0], x[1].split("\n")[0])
                for x in r]
    same(prog)


def test_gradcheck_undefined_grad():
    def prog(torch):
        gc_ = torch.autograd.gradcheck

        def fn(x):
            def hook(x):
                if x is None:
                    raise RuntimeError("x is undefined")

            y = x.clone()
            y.register_hook(hook)
            return y

        r = []
        for fast_mode in (True, False):
            x = torch.ones(1, dtype=torch.double, requires_grad=True)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                _attempt(r, lambda: gc_(fn, (x,), fast_mode=fast_mode))
                r.append(gc_(fn, (x,), raise_exception=False, fast_mode=fast_mode))
            r.append(["Backwards compatibility: New undefined gradient support checking "
                      "feature" in str(m.message) for m in w])
        return [x if not isinstance(x, tuple) else (x[0], x[1].split("\n")[0])
                for x in r]
    same(prog)


def test_gradcheck_jacobian_mismatch():
    # the real-valued case (PyTorch's test also checks complex inputs and outputs)
    def prog(torch):
        gc_ = torch.autograd.gradcheck

        def fn(x):
            y = x.clone()
            y.register_hook(lambda x: x + 1e-2)
            return y

        r = []
        for fast_mode in (True, False):
            x = torch.ones(2, 2, requires_grad=True)
            _attempt(r, lambda: gc_(fn, (x,), fast_mode=fast_mode))
            r.append(gc_(fn, (x,), raise_exception=False, fast_mode=fast_mode))
        return [x if not isinstance(x, tuple) else (x[0], x[1].split(",")[0]) for x in r]
    same(prog, quiet=True)


def test_gradcheck_output_shape_or_dtype_depend_on_values():
    def prog(torch):
        gc_ = torch.autograd.gradcheck

        def fn(x):
            if torch.all(x >= 1):
                return torch.cat([x, x])
            return x

        def fn2(x):
            if torch.all(x >= 1):
                return x.to(torch.float32)
            return x

        r = []
        for fast_mode in (True, False):
            a = torch.ones(1, dtype=torch.double, requires_grad=True)
            _attempt(r, lambda: gc_(fn, (a,), fast_mode=fast_mode), AssertionError)
            _attempt(r, lambda: gc_(fn2, (a,), fast_mode=fast_mode), AssertionError)
        return r
    same(prog)


def test_gradcheck_custom_error():
    def prog(torch):
        import importlib
        GradcheckError = importlib.import_module(
            torch.__name__ + ".autograd.gradcheck").GradcheckError
        gc_ = torch.autograd.gradcheck

        def fn(x):
            y = x.clone()
            y.register_hook(lambda x: x + 1e-2)
            return y

        def fn2(x):
            raise RuntimeError("Not a GradcheckError!")

        r = []
        for fast_mode in (True, False):
            x = torch.ones(2, 2, requires_grad=True)
            try:
                gc_(fn, (x,), fast_mode=fast_mode)
            except GradcheckError as e:
                r.append(("GradcheckError", isinstance(e, RuntimeError),
                          str(e).split(",")[0]))
            r.append(gc_(fn, (x,), raise_exception=False, fast_mode=fast_mode))
            _attempt(r, lambda: gc_(fn2, (x,), fast_mode=fast_mode, raise_exception=False))
        return r
    same(prog, quiet=True)


def test_where_functional():
    # from PyTorch's TestAutogradDeviceType (on CPU)
    def prog(torch):
        cond = data(torch, 5, 5, seed=9) > 0

        def where(cond, x, y):
            return torch.where(cond, x, y)

        x = data(torch, 5, 5, seed=1, requires_grad=True)
        y = data(torch, 5, 5, seed=2, requires_grad=True)
        r = [torch.autograd.gradcheck(where, [cond, x, y], raise_exception=True),
             torch.autograd.gradgradcheck(where, [cond, x, y], [data(torch, 5, 5, seed=3)])]
        x = data(torch, 5, 1, 5, seed=1, requires_grad=True)
        y = data(torch, 5, 5, 1, seed=2, requires_grad=True)
        r += [torch.autograd.gradcheck(where, [cond, x, y], raise_exception=True),
              torch.autograd.gradgradcheck(where, [cond, x, y],
                                           [data(torch, 5, 5, 5, seed=3)])]
        return r
    same(prog)


def test_where_scalar():
    # from PyTorch's TestAutogradDeviceType (on CPU)
    def prog(torch):
        x = data(torch, 5, 5, requires_grad=True)
        cond = data(torch, 5, 5, seed=9) > 0

        def where_scalar_first(cond, x):
            return torch.where(cond, 4.0, x)

        def where_scalar_second(cond, x):
            return torch.where(cond, x, 4.0)

        gc_, ggc = torch.autograd.gradcheck, torch.autograd.gradgradcheck
        return (gc_(where_scalar_first, (cond, x)), ggc(where_scalar_first, (cond, x)),
                gc_(where_scalar_second, (cond, x)), ggc(where_scalar_second, (cond, x)))
    same(prog)


def test_mv_grad_stride_0():
    # from PyTorch's TestAutogradDeviceType (on CPU)
    def prog(torch):
        mat = data(torch, 2, 2, seed=1)
        vec = data(torch, 1, seed=2).requires_grad_(True)

        def fn(vec):
            vec = vec.expand(2)
            return (mat @ vec).sum()

        return torch.autograd.gradcheck(fn, (vec)), torch.autograd.gradgradcheck(fn, (vec))
    same(prog)
