"""Tensor attributes seen by autograd (requires_grad, .grad, .data, dtype conversions,
pickling, numpy()) and other small behaviours: PyTorch's test/test_autograd.py tests of
them, each rewritten here as a differential program (run under torch and autograd_core,
results compared by tests/_diff.py).  Each test is named after the PyTorch test it
follows."""
import pickle
import warnings

from _diff import data, issue8, same


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


@issue8("missing Tensor.volatile (always False, with a deprecation warning)")
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


@issue8("deleting .data / .requires_grad / assigning .data = None: other exception types")
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
    # PyTorch's test also checks the legacy tensor types (torch.FloatTensor, ...) and
    # CUDA; here the dtype conversions and their backward
    def prog(torch):
        x = data(torch, 5, 5, dtype="float32")
        r = [x.float().dtype, x.int().dtype, x.double().dtype, x.long().dtype]
        for dt in (torch.float64, torch.float32, torch.int32, torch.uint8):
            y = torch.zeros(5, 5, dtype=dt)
            r += [x.type(dt).dtype, x.to(dt).dtype, x.to(y).dtype]
        return r + _type_conversion_backward(torch)
    same(prog)


def test_shape():
    def prog(torch):
        x = data(torch, 3, 4)
        return len(x.shape), x.shape[0], x.shape[1], x.shape
    same(prog)


@issue8("numpy() on a tensor that requires grad raises under no_grad too")
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


@issue8("missing Tensor.grad_dtype")
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
        g.grad = None
        g.grad_dtype = torch.float16
        r.append(g.grad_dtype)
        return r
    same(prog)
