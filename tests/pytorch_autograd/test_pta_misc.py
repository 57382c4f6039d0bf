"""Tensor attributes seen by autograd (requires_grad, .grad, .data, dtype conversions,
pickling, numpy()) and other small behaviours: PyTorch's test/test_autograd.py tests of
them, each rewritten here as a differential program (run under torch and autograd_core,
results compared by tests/_diff.py).  Each test is named after the PyTorch test it
follows."""
import pickle
import sys
import warnings

from _diff import data, same


def test_tensor_grad_warnings():
    def prog(torch):
        dummy = torch.empty(1)
        counts = []
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            dummy.requires_grad_()
            foo = dummy.grad  # noqa: F841
            counts.append(len(w))
            dummy = dummy.clone()
            foo = dummy.grad  # noqa: F841
            counts.append(len(w))
            dummy.retain_grad()
            foo = dummy.grad  # noqa: F841
            counts.append(len(w))
        return counts, [(x.category.__name__, str(x.message)) for x in w]
    same(prog)


def test_volatile_deprecated():
    def prog(torch):
        v = data(torch, 3, 3)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            vol = v.volatile
        return vol, ["volatile" in str(x.message) for x in w]
    same(prog)


def test_requires_grad():
    def prog(torch):
        x = data(torch, 5, 5, seed=1)
        y = data(torch, 5, 5, seed=2)
        z = data(torch, 5, 5, seed=3, requires_grad=True)
        a = x + y
        b = a + z
        b.backward(torch.ones(5, 5, dtype=torch.float64))
        return a.requires_grad, b.requires_grad, x.grad, y.grad, a.grad, z.grad
    same(prog)


def test_requires_grad_():
    def prog(torch):
        x = data(torch, 5, 5, seed=1)
        y = data(torch, 5, 5, seed=2, requires_grad=True)
        r = [x is x.requires_grad_(), x.requires_grad, y is y.requires_grad_(), y.requires_grad,
             x is x.requires_grad_(True), x.requires_grad, y is y.requires_grad_(True),
             y.requires_grad]
        z = x * y
        try:
            z.requires_grad_(False)
        except RuntimeError as e:
            r.append(str(e))
        r += [z is z.requires_grad_(), z.requires_grad, z is z.requires_grad_(True),
              z.requires_grad, x is x.requires_grad_(False), x.requires_grad,
              y is y.requires_grad_(False), y.requires_grad]
        return r
    same(prog)


def test_attribute_deletion():
    def prog(torch):
        x = data(torch, 5, 5, requires_grad=True)
        r = []
        del x.grad
        r.append(x.grad)
        for f in (lambda: delattr(x, "data"), lambda: setattr(x, "data", None),
                  lambda: delattr(x, "requires_grad"), lambda: delattr(x, "_grad_fn"),
                  lambda: delattr(x, "_backward_hooks")):
            try:
                f()
                r.append("no error")
            except (RuntimeError, TypeError, AttributeError) as e:
                r.append(type(e).__name__)
        return r
    same(prog)


def _type_conversion_backward(torch):
    r = []
    fvar = torch.autograd.Variable(data(torch, 5, 5, dtype="float32"), requires_grad=True)
    fvar.double().sum().backward()
    r += [fvar.grad, type(fvar.grad).__name__]
    dvar = torch.autograd.Variable(data(torch, 5, 5), requires_grad=True)
    dvar.float().sum().backward()
    return r + [dvar.grad, type(dvar.grad).__name__]


def test_type_conversions():
    # the dtype conversions, the legacy tensor types (isinstance, type(t), type_as,
    # t().dtype, no copy when the type is already right) and their backward; PyTorch's
    # test also runs the CUDA types when CUDA is available
    def prog(torch):
        x = data(torch, 5, 5, dtype="float32")
        r = [x.float().dtype, x.int().dtype, x.double().dtype, x.long().dtype,
             isinstance(x.float(), torch.FloatTensor), isinstance(x.int(), torch.IntTensor)]
        for dt in (torch.float64, torch.float32, torch.int32, torch.uint8):
            y = torch.zeros(5, 5, dtype=dt)
            r += [x.type(dt).dtype, x.to(dt).dtype, x.to(y).dtype]
        for t in (torch.DoubleTensor, torch.FloatTensor, torch.IntTensor, torch.ByteTensor):
            for y_var in (True, False):
                y = torch.zeros(5, 5, dtype=t.dtype) + 3
                y = torch.autograd.Variable(y) if y_var else y
                t_dtype = t().dtype
                r += [isinstance(x.type(t), t), isinstance(x.type_as(y), t),
                      isinstance(x.type(t_dtype), t), x.type(t_dtype).dtype is t_dtype,
                      y.data_ptr() == y.type(t).data_ptr()]
        return r + _type_conversion_backward(torch)
    same(prog)


def test_shape():
    def prog(torch):
        x = data(torch, 3, 4)
        return len(x.shape), x.shape[0], x.shape[1], x.shape
    same(prog)


def test_numpy_requires_grad():
    def prog(torch):
        x = data(torch, 2, 2, requires_grad=True)
        r = []
        try:
            x.numpy()
        except RuntimeError as e:
            r.append(str(e))
        with torch.no_grad():
            r.append(x.numpy().tolist())
        x = data(torch, 2, 2)
        r.append(x.numpy().tolist())
        with torch.no_grad():
            r.append(x.numpy().tolist())
        return r
    same(prog)


def test_pickle():
    def prog(torch):
        x = data(torch, 10, 10, seed=1, requires_grad=True)
        y = data(torch, 10, 10, seed=2)
        r = []
        for p in range(3):
            xc, yc = pickle.loads(pickle.dumps([x, y], protocol=p))
            r += [xc, yc, xc.requires_grad, yc.requires_grad]
        return r
    same(prog)


def test_grad_dtype():
    def prog(torch):
        r = []

        def attempt(f):
            try:
                r.append(f())
            except RuntimeError as e:
                r.append(("RuntimeError", str(e)))

        leaf = torch.tensor([1.0, 2.0], requires_grad=True)
        r.append(leaf.grad_dtype)
        leaf.grad_dtype = torch.float16
        r.append(leaf.grad_dtype)
        leaf.grad_dtype = None
        r.append(leaf.grad_dtype)
        non_leaf = leaf * 2
        attempt(lambda: non_leaf.grad_dtype)
        attempt(lambda: setattr(non_leaf, "grad_dtype", torch.float16))

        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.grad = torch.tensor([1.0, 1.0])
        r.append(x.grad.dtype)
        x.grad = None
        x.grad_dtype = torch.float16
        attempt(lambda: setattr(x, "grad", torch.tensor([1.0, 1.0])))
        x.grad = None
        x.grad_dtype = None
        x.grad = torch.tensor([1.0, 1.0], dtype=torch.float64)
        r.append(x.grad.dtype)

        class Mismatched(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                return inp * 2

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output.to(torch.float64)

        for grad_dtype in ("default", None, torch.float16):
            d = torch.tensor([1.0, 2.0], requires_grad=True)
            if grad_dtype != "default":
                d.grad_dtype = grad_dtype
            Mismatched.apply(d).sum().backward()
            r.append(d.grad)

        g = torch.tensor([1.0, 2.0], requires_grad=True)
        g.grad = torch.tensor([1.0, 1.0])
        g.grad_dtype = torch.float32
        attempt(lambda: setattr(g, "grad_dtype", torch.float16))
        g.grad_dtype = None
        r.append(g.grad_dtype)
        g.grad = None
        g.grad_dtype = torch.float16
        r.append(g.grad_dtype)

        # grad_dtype set after the leaf's AccumulateGrad node exists
        h = torch.tensor([1.0, 2.0], requires_grad=True)
        _ = h.clone()
        h.grad_dtype = None
        Mismatched.apply(h).sum().backward()
        r.append(h.grad)

        # accumulation into an existing .grad of another dtype keeps that .grad's dtype
        # (PyTorch's test converts to and from bfloat16, a dtype autograd_core does not
        # have, numpy having none; float16 shows the same rule)
        k = torch.tensor([1.0, 2.0], requires_grad=True)
        k.grad_dtype = None
        (k * 2).sum().backward()
        k.grad = k.grad.to(torch.float16)
        (k * 3).sum().backward()
        r.append(k.grad)
        lt = torch.tensor([3.0, 4.0], requires_grad=True, dtype=torch.float16)
        lt.grad_dtype = None
        (lt * 2).sum().backward()
        lt.grad = lt.grad.to(torch.float32)
        (lt * 3).sum().backward()
        r.append(lt.grad)
        return r
    same(prog)


def test_dir():
    # the real-dtype part (PyTorch's test also checks real/imag on complex tensors)
    def prog(torch):
        x = data(torch, 10, 10)
        keys = dir(x)
        missing, raising = [], []
        for k in keys:
            try:
                if not hasattr(x, k):
                    missing.append(k)
            except RuntimeError:  # torch: "imag" of a real tensor
                raising.append(k)
        # (PyTorch's test also checks that hasattr(x, "imag") raises on a real tensor:
        # part of its complex support, not followed)
        return "shape" in keys, missing
    same(prog)


def test_autograd_print_tensor():
    def prog(torch):
        a = torch.ones(1, requires_grad=True)
        a_clone = a.clone()
        r = [repr(a), repr(a_clone)]
        with torch.no_grad():
            b = a[:]
            b *= 2
        r.append(repr(b))

        class Func(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, x):
                return x

        return r + [repr(Func.apply(a))]
    same(prog)


# ------------------------------------------ from PyTorch's TestAutogradDeviceType (CPU)

def test_min_max_median_backprops_to_all_values():
    # the full reductions min, max, median and nanmedian spread the gradient evenly over
    # the tied (or all-NaN) values
    def prog(torch):
        r = []
        for f in (torch.min, torch.max, torch.median, torch.nanmedian):
            x1 = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0, 0.0], requires_grad=True)
            x2 = torch.tensor([float("nan"), float("nan"), float("nan")], requires_grad=True)
            for x in (x1, x2):
                f(x).backward()
                r += [x.grad.sum(), (x.grad == 1 / 3).sum()]
        return r
    same(prog)


def test_pyscalar_conversions():
    def prog(torch):
        import math as m
        r = []
        lt = torch.zeros(1, 1, 1, dtype=torch.long)
        lt[0] = -12345
        r.append(int(lt))
        f = torch.autograd.Variable(data(torch, 1, 1))
        f[0] = -12345.1
        r.append(float(f))
        f[0] = float("nan")
        r.append(m.isnan(float(f)))
        for v in (float("inf"), -float("inf")):
            f[0] = v
            r.append(float(f))
        lt[0] = 1234567890123456789
        r.append(float(lt))
        for v, exc in ((float("nan"), ValueError), (float("inf"), OverflowError),
                       (-float("inf"), OverflowError)):
            f[0] = v
            try:
                int(f[0])
            except exc as e:
                r.append(type(e).__name__)
        f[0] = sys.float_info.max
        r.append(int(f))
        for t, v in ((lt, 0), (lt, -2), (f, 0.0), (f, sys.float_info.min),
                     (f, float("nan")), (f, float("inf")), (f, -float("inf"))):
            t[0] = v
            r.append(bool(t))
        return r
    same(prog)


def test_set_requires_grad_only_for_floats():
    def prog(torch):
        r = []
        for dt in (torch.float32, torch.float64, torch.int8, torch.int16, torch.int32,
                   torch.int64):
            a = torch.ones(1, dtype=dt)
            a.requires_grad = False
            a.requires_grad_(False)
            for f in (lambda: torch.ones(1, dtype=dt).requires_grad_(),
                      lambda: setattr(torch.ones(1, dtype=dt), "requires_grad", True),
                      lambda: torch.ones(1, dtype=dt, requires_grad=True)):
                try:
                    f()
                    r.append("ok")
                except RuntimeError as e:
                    r.append(str(e))
        return r
    same(prog)


def test_grad_assignment():
    def prog(torch):
        x = data(torch, 5, 5, dtype="float32")
        r = []
        for v, exc in ((0, TypeError), (data(torch, 2, 2, dtype="float32"), RuntimeError),
                       (torch.ones(5, 5, dtype=torch.long), RuntimeError), (x, RuntimeError)):
            try:
                x.grad = v
                r.append("ok")
            except exc as e:
                r.append(type(e).__name__)
        return r
    same(prog)


def test_requires_grad_factory():
    def prog(torch):
        r = []
        for dtype in (torch.float32, torch.float64):
            x = data(torch, 2, 3, dtype=str(dtype).split(".")[-1])
            for fn in (torch.ones_like, torch.randn_like):
                for requires_grad in (True, False):
                    out = fn(x, dtype=dtype, device="cpu", requires_grad=requires_grad)
                    r += [out.requires_grad, out.dtype is dtype, str(x.device)]
        return r
    same(prog)


def test_non_differentiable_ops():
    # isin and signbit run on inputs that require grad and give results that do not
    def prog(torch):
        x = torch.tensor([[1, 2], [3, 4.0]], requires_grad=True)
        out_isin = torch.isin(x, torch.tensor([2, 3]))
        x = data(torch, 3, 3, requires_grad=True)
        out = torch.signbit(x)
        return out_isin.requires_grad, out_isin, out.requires_grad, out
    same(prog)


def test_warning_in_backward():
    # PyTorch's test uses a private op that warns in its backward; here a Function
    def prog(torch):
        class Warn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()

            @staticmethod
            def backward(ctx, g):
                warnings.warn("Warn from backward")
                return g

        a = torch.zeros((), requires_grad=True)
        b = Warn.apply(a)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            b.backward()
        return [(x.category.__name__, str(x.message)) for x in w]
    same(prog)


def test_scatter_index_reduce_amin_amax_backprops_to_all_values():
    # scatter_reduce / index_reduce with amin/amax spread the gradient evenly over the
    # tied values (input and src are equal, so every position ties): gradcheck passes,
    # and the gradients themselves are compared
    def prog(torch):
        from itertools import product
        r = []
        for fn, reduction in product((torch.scatter_reduce, torch.index_reduce),
                                     ("amin", "amax")):
            inp = data(torch, 2, 3, requires_grad=True)
            src = inp.clone().detach_().requires_grad_(True)
            idx = torch.arange(2).to(dtype=torch.long)
            if fn is torch.scatter_reduce:
                idx = idx.unsqueeze(-1).expand((2, 3))
            r.append(torch.autograd.gradcheck(fn, (inp, 0, idx, src, reduction),
                                              check_batched_grad=False))
            r.append(torch.autograd.grad(fn(inp, 0, idx, src, reduction).sum(), (inp, src)))
        return r
    same(prog)


def test_scatter_index_reduce_prod_gradgrad_error():
    # two zeros of src scattered to one position: the first derivative is right
    # (gradcheck), the second is refused
    def prog(torch):
        inp = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)
        src = torch.tensor([0.0, 0.0], dtype=torch.float64, requires_grad=True)
        idx = torch.tensor([0, 0], dtype=torch.long)
        r = []
        for fn in (torch.scatter_reduce, torch.index_reduce):
            r.append(torch.autograd.gradcheck(fn, (inp, 0, idx, src, "prod"),
                                              check_batched_grad=False))
            try:
                torch.autograd.gradgradcheck(fn, (inp, 0, idx, src, "prod"))
                r.append("no error")
            except RuntimeError as e:
                r.append(("RuntimeError", str(e).split("\n")[0]))
        return r
    same(prog)


def _r_to_c(torch, make_complex):
    # a real leaf whose complex copy's gradient flows back: the real part, no warning
    inp_r = torch.tensor([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], dtype=torch.double,
                         requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = make_complex(torch, inp_r)
        inter = out.sum()
        inter.abs().backward()
        with torch.no_grad():
            expected = torch.ones_like(inp_r) * torch.sgn(inter).real
    return inp_r.grad, expected, inp_r.grad.dtype, [str(x.message) for x in w]


def test_copy_r_to_c():
    def prog(torch):
        out_c = torch.empty(3, 2, dtype=torch.cdouble)
        return _r_to_c(torch, lambda m, x: out_c.copy_(x))
    same(prog)


def test_to_r_to_c():
    same(lambda torch: _r_to_c(torch, lambda m, x: x.to(m.complex128)))
