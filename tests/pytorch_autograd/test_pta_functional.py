"""autograd.functional (vjp, jvp, jacobian, hessian, vhp, hvp): PyTorch's
test/autograd/test_functional.py (class TestAutogradFunctional, run by test_autograd.py),
each test rewritten here as a differential program (run under torch and autograd_core,
results compared by tests/_diff.py): values, structure, grad_fn presence, errors.
PyTorch runs each also on a LoggingTensor subclass and, where it applies, with
vectorize=True (vmap); those variants are not followed (vectorize=True is accepted here
and computes what vectorize=False computes: the tests of vectorize=True itself are
followed).  Each test is named after the PyTorch test it follows."""
from _diff import data, issue8, same


def _attempt(r, f):
    try:
        r.append(f())
    except (TypeError, RuntimeError, ValueError) as e:
        r.append((type(e).__name__, str(e)))


def _F(torch):
    return torch.autograd.functional


def _has_fn(x):
    """grad_fn presence of a tensor or a nested tuple of tensors."""
    if isinstance(x, tuple):
        return tuple(_has_fn(v) for v in x)
    return x.grad_fn is not None




# -------------------------------------------------------------------- vjp / jvp

def _err_check(api):
    def prog(torch):
        F = _F(torch)
        fn = getattr(F, api)

        def foo(a):
            return 3 * a.narrow(0, 0, 3)

        def bar(a):
            return 3 * a.narrow(0, 0, 3), "bar"

        inp = data(torch, 4)
        v = torch.ones(3, dtype=torch.float64) if api == "vjp" else data(torch, 4, seed=1)
        r = []
        _attempt(r, lambda: fn(foo, (inp, 2), v))
        _attempt(r, lambda: fn(bar, inp, v))
        _attempt(r, lambda: fn(foo, inp))
        _attempt(r, lambda: fn(foo, inp, (v, v)))
        _attempt(r, lambda: fn(foo, inp, v[:2]))
        r.append(fn(foo, inp, v))
        return r
    return prog


def _err_check_strict(api):
    def prog(torch):
        fn = getattr(_F(torch), api)

        def foo(a):
            return a.detach()

        def bar(a):
            return a.long().double().requires_grad_().clone()

        def foo2(a):
            return a.clone()

        inp = data(torch, 4)
        v = data(torch, 4, seed=1)
        r = []
        _attempt(r, lambda: fn(foo, inp, v, strict=True))
        r.append(fn(foo, inp, v, strict=False))
        _attempt(r, lambda: fn(bar, inp, v, strict=True))
        r.append(fn(bar, inp, v, strict=False))
        inp.requires_grad_()
        _attempt(r, lambda: fn(foo2, inp, v, create_graph=True, strict=True))
        r.append(fn(foo2, inp, v, create_graph=True, strict=False))
        return r
    return prog


def _no_grad(api, v_shape):
    def prog(torch):
        fn = getattr(_F(torch), api)

        def reducer(x):
            return x.sum(dim=1)

        inputs = data(torch, 4, 4)
        v = torch.ones(*v_shape, dtype=torch.float64)
        with torch.no_grad():
            res = fn(reducer, inputs, v)
        r = [res, _has_fn(res)]
        inputs.requires_grad_()
        v.requires_grad_()
        with torch.no_grad():
            res = fn(reducer, inputs, v, create_graph=True)
        return r + [res, _has_fn(res)]
    return prog


def _output(api, v_shape):
    def prog(torch):
        fn = getattr(_F(torch), api)

        def reducer(x):
            return x.sum(dim=1)

        r = []
        res = fn(reducer, data(torch, 4, 4), torch.ones(*v_shape, dtype=torch.float64))
        r += [res, _has_fn(res)]

        def adder(x, y):
            return 2 * x + 3 * y

        inputs = (data(torch, 2, seed=1), data(torch, 2, seed=2))
        v = torch.ones(2, dtype=torch.float64)
        if api == "jvp":
            v = (v, v)
        res = fn(adder, inputs, v)
        r += [res, _has_fn(res)]

        def adder2(x, y):
            return 2 * x + 3 * y, x + y

        v = (torch.tensor([1.0, 0.0], dtype=torch.float64),
             torch.tensor([1.0, 0.0], dtype=torch.float64))
        res = fn(adder2, inputs, v)
        return r + [res, _has_fn(res)]
    return prog


def _create_graph(api, v_shape):
    def prog(torch):
        F = _F(torch)
        fn = getattr(F, api)
        gc_, ggc = torch.autograd.gradcheck, torch.autograd.gradgradcheck

        def reducer(x):
            return x.sum(dim=1)

        inputs = data(torch, 2, 2, requires_grad=True)
        v = torch.ones(*v_shape, dtype=torch.float64, requires_grad=True)
        res = fn(reducer, inputs, v, create_graph=True)
        r = [res, _has_fn(res),
             gc_(lambda inp, v: fn(reducer, inp, v, create_graph=True), (inputs, v)),
             ggc(lambda inp, v: fn(reducer, inp, v, create_graph=True), (inputs, v))]

        def adder(x, y):
            return 2 * x + 3 * y, x * y

        inputs = (data(torch, 2, seed=1, requires_grad=True),
                  data(torch, 2, seed=2, requires_grad=True))
        v = (torch.tensor([1.0, 0.0], dtype=torch.float64, requires_grad=True),
             torch.tensor([1.0, 0.0], dtype=torch.float64, requires_grad=True))
        r.append(gc_(lambda *a: fn(adder, a[:2], a[2:], create_graph=True)[1], inputs + v))
        r.append(ggc(lambda *a: fn(adder, a[:2], a[2:], create_graph=True)[1], inputs + v))

        def foo(*args):
            x, y = args[:2]
            x = x.cos()
            val, grad = fn(adder, (x, y), args[2:], create_graph=True)
            return (val[0].exp() + val[1].exp() + grad[0].exp() + grad[1].exp() + x.exp()
                    + y.exp())

        return r + [gc_(foo, inputs + v), ggc(foo, inputs + v)]
    return prog


def test_vjp_err_check():
    same(_err_check("vjp"))


def test_vjp_err_check_strict():
    same(_err_check_strict("vjp"))


def test_vjp_no_grad():
    same(_no_grad("vjp", (4,)))


def test_vjp_output():
    same(_output("vjp", (4,)))


def test_vjp_scalar():
    def prog(torch):
        vjp = _F(torch).vjp

        def reducer(x):
            return x.sum()

        def expander(x):
            return x.unsqueeze(0).repeat(4)

        inputs = data(torch, 4, 4)
        return (vjp(reducer, inputs, torch.ones([], dtype=torch.float64)), vjp(reducer, inputs),
                vjp(expander, torch.tensor(0.5, dtype=torch.float64),
                    torch.ones(4, dtype=torch.float64)))
    same(prog)


def test_vjp_create_graph():
    same(_create_graph("vjp", (2,)))


def test_jvp_err_check():
    same(_err_check("jvp"))


def test_jvp_err_check_strict():
    same(_err_check_strict("jvp"))


def test_jvp_no_grad():
    same(_no_grad("jvp", (4, 4)))


def test_jvp_output():
    same(_output("jvp", (4, 4)))


def test_jvp_scalar():
    def prog(torch):
        jvp = _F(torch).jvp

        def reducer(x):
            return x.sum()

        def expander(x):
            return x.unsqueeze(0).repeat(4)

        s = torch.tensor(0.5, dtype=torch.float64)
        return (jvp(reducer, data(torch, 4, 4), torch.ones(4, 4, dtype=torch.float64)),
                jvp(expander, s, torch.ones([], dtype=torch.float64)), jvp(expander, s))
    same(prog)


def test_jvp_create_graph():
    same(_create_graph("jvp", (2, 2)))


# -------------------------------------------------------------------- jacobian

def test_jacobian_err_check():
    def prog(torch):
        jacobian = _F(torch).jacobian

        def foo(a):
            return 3 * a.narrow(0, 0, 3)

        def bar(a):
            return 3 * a.narrow(0, 0, 3), "bar"

        def foo2(a, b):
            return b, 3 * a.narrow(0, 0, 3)

        inp = data(torch, 4)
        r = []
        _attempt(r, lambda: jacobian(foo, (inp, 2)))
        _attempt(r, lambda: jacobian(bar, inp))
        return r + [jacobian(foo, inp), jacobian(foo2, (data(torch, 4), data(torch, 5)))]
    same(prog)


def test_jacobian_err_check_strict():
    def prog(torch):
        jacobian = _F(torch).jacobian

        def foo(a):
            return a.detach()

        def bar(a):
            return a.long().double().requires_grad_().clone()

        def foo2(a):
            return a.clone()

        inp = data(torch, 4)
        r = []
        _attempt(r, lambda: jacobian(foo, inp, strict=True))
        r.append(jacobian(foo, inp, strict=False))
        _attempt(r, lambda: jacobian(bar, inp, strict=True))
        r.append(jacobian(bar, inp, strict=False))
        inp.requires_grad_()
        _attempt(r, lambda: jacobian(foo2, inp, create_graph=True, strict=True))
        r.append(jacobian(foo2, inp, create_graph=True, strict=False))
        return r
    same(prog)


def test_jacobian_no_grad():
    def prog(torch):
        jacobian = _F(torch).jacobian

        def exp_reducer(x):
            return x.exp().sum(dim=1)

        inputs = data(torch, 4, 4)
        with torch.no_grad():
            res = jacobian(exp_reducer, inputs)
        r = [res, _has_fn(res)]
        with torch.no_grad():
            res = jacobian(exp_reducer, inputs, create_graph=True)
        return r + [res, _has_fn(res)]
    same(prog)


def test_jacobian_output():
    def prog(torch):
        jacobian = _F(torch).jacobian

        def exp_reducer(x):
            return x.exp().sum(dim=1)

        def identity(x):
            return x.clone()

        def add_exp_reducer(x, y):
            return (x + y.exp()).sum(dim=1)

        r = []
        for f, inp in ((exp_reducer, data(torch, 4, 4)), (identity, data(torch, 4)),
                       (add_exp_reducer, (data(torch, 4, 4, seed=1), data(torch, 4, 4, seed=2)))):
            res = jacobian(f, inp)
            r += [res, _has_fn(res)]
        return r
    same(prog)


def test_jacobian_scalar():
    def prog(torch):
        jacobian = _F(torch).jacobian

        def reducer(x):
            return x.sum()

        def expander(x):
            return x.unsqueeze(0).repeat(4)

        return (jacobian(reducer, data(torch, 4, 4)),
                jacobian(expander, torch.tensor(0.5, dtype=torch.float64)))
    same(prog)


def test_jacobian_create_graph():
    def prog(torch):
        jacobian = _F(torch).jacobian
        gc_, ggc = torch.autograd.gradcheck, torch.autograd.gradgradcheck

        def exp_reducer(x):
            return x.exp().sum(dim=1)

        inputs = data(torch, 4, 4, requires_grad=True)
        res = jacobian(exp_reducer, inputs, create_graph=True)
        r = [res, _has_fn(res),
             gc_(lambda inp: jacobian(exp_reducer, inp, create_graph=True), inputs),
             ggc(lambda inp: jacobian(exp_reducer, inp, create_graph=True), inputs)]

        def add_exp_reducer(x, y):
            return (x + y).exp().sum(dim=1)

        inputs = (data(torch, 4, 4, seed=1, requires_grad=True),
                  data(torch, 4, 4, seed=2, requires_grad=True))
        res = jacobian(add_exp_reducer, inputs, create_graph=True)
        r += [res, _has_fn(res),
              gc_(lambda *inp: jacobian(add_exp_reducer, inp, create_graph=True), inputs),
              ggc(lambda *inp: jacobian(add_exp_reducer, inp, create_graph=True), inputs)]

        def foo(x, y):
            x = x.cos()
            val, jac = jacobian(add_exp_reducer, (x, y), create_graph=True)
            res = val[0].exp().sum() + val[1].exp().sum() + jac[0].exp().sum()
            return res + jac[1].exp().sum() + x.exp().sum() + y.exp().sum()

        return r + [gc_(foo, inputs), ggc(foo, inputs)]
    same(prog)


# -------------------------------------------------------------------- hessian

def test_hessian_err_check():
    def prog(torch):
        hessian = _F(torch).hessian

        def foo(a):
            return 3 * a.narrow(0, 0, 3).exp().sum()

        def bar(a):
            return 3 * a.narrow(0, 0, 3), "bar"

        def bar2(a):
            return 3 * a.narrow(0, 0, 3)

        def bar3(a):
            return 3 * a.narrow(0, 0, 3), 3 * a.narrow(0, 0, 3)

        def foo2(a, b):
            return (3 * b.narrow(0, 0, 3) * a.narrow(0, 0, 3)).sum()

        inp = data(torch, 4)
        r = []
        for f, x in ((foo, (inp, 2)), (bar, inp), (bar2, inp), (bar3, inp)):
            _attempt(r, lambda: hessian(f, x))
        return r + [hessian(foo, inp), hessian(foo2, (data(torch, 4), data(torch, 5)))]
    same(prog)


def test_hessian_err_check_strict():
    def prog(torch):
        hessian = _F(torch).hessian

        def foo(a):
            return a.detach().sum()

        def bar(a):
            return a.long().double().requires_grad_().clone().sum()

        def bar2(a):
            return (3 * a).sum()

        inp = data(torch, 4)
        r = []
        for f in (foo, bar, bar2):
            _attempt(r, lambda: hessian(f, inp, strict=True))
            r.append(hessian(f, inp, strict=False))
        return r
    same(prog)


def _hvp_no_grad(api):
    def prog(torch):
        fn = getattr(_F(torch), api)

        def reducer(x):
            return x.exp().sum() if api != "hessian" else x.pow(3).sum()

        if api == "hessian":
            inputs = data(torch, 2, 2)
            args = ()
        else:
            inputs = data(torch, 4, 4)
            args = (torch.ones(4, 4, dtype=torch.float64),)
        with torch.no_grad():
            res = fn(reducer, inputs, *args)
        r = [res, _has_fn(res)]
        with torch.no_grad():
            res = fn(reducer, inputs, *args, create_graph=True)
        return r + [res, _has_fn(res)]
    return prog


def test_hessian_no_grad():
    same(_hvp_no_grad("hessian"))


def test_hessian_output():
    def prog(torch):
        hessian = _F(torch).hessian

        def pow_reducer(x):
            return x.pow(3).sum()

        def add_pow_reducer(x, y):
            return (x + y).pow(3).sum()

        res = hessian(pow_reducer, data(torch, 2, 2))
        res2 = hessian(add_pow_reducer, (data(torch, 2, 2, seed=1), data(torch, 2, 2, seed=2)))
        return res, _has_fn(res), res2, _has_fn(res2)
    same(prog)


def test_hessian_scalar():
    def prog(torch):
        hessian = _F(torch).hessian

        def reducer(x):
            return x.sum()

        def bad_reducer(x):
            return x.sum().view(1, 1, 1)

        return (hessian(reducer, data(torch, 4, 4)),
                hessian(reducer, torch.tensor(0.5, dtype=torch.float64)),
                hessian(bad_reducer, data(torch, 4, 4)))
    same(prog)


def test_hessian_create_graph():
    def prog(torch):
        hessian = _F(torch).hessian
        gc_, ggc = torch.autograd.gradcheck, torch.autograd.gradgradcheck

        def pow_reducer(x):
            return x.pow(3).sum()

        inputs = data(torch, 2, 2, requires_grad=True)
        res = hessian(pow_reducer, inputs, create_graph=True)
        r = [res, _has_fn(res),
             gc_(lambda inp: hessian(pow_reducer, inp, create_graph=True), inputs),
             ggc(lambda inp: hessian(pow_reducer, inp, create_graph=True), inputs)]

        def add_pow_reducer(x, y):
            return (x + y).pow(3).sum()

        def flatten(inp):
            return tuple(el2 for el1 in inp for el2 in el1)

        inputs = (data(torch, 2, 2, seed=1, requires_grad=True),
                  data(torch, 2, 2, seed=2, requires_grad=True))
        res = hessian(add_pow_reducer, inputs, create_graph=True)
        r += [res, _has_fn(res),
              gc_(lambda *inp: flatten(hessian(add_pow_reducer, inp, create_graph=True)),
                  inputs),
              ggc(lambda *inp: flatten(hessian(add_pow_reducer, inp, create_graph=True)),
                  inputs)]

        def foo(x, y):
            x = x.cos()
            val, hess = hessian(add_pow_reducer, (x, y), create_graph=True)
            res = val[0].cos().sum() + val[1].cos().sum() + hess[0].cos().sum()
            return res + hess[1].cos().sum() + x.cos().sum() + y.cos().sum()

        return r + [gc_(foo, inputs), ggc(foo, inputs)]
    same(prog)


# -------------------------------------------------------------------- vhp / hvp

def _hp_err_check(api):
    def prog(torch):
        fn = getattr(_F(torch), api)

        def foo(a):
            return 3 * a.narrow(0, 0, 3).exp().sum()

        def bar(a):
            return 3 * a.narrow(0, 0, 3), "bar"

        def bar2(a):
            return 3 * a.narrow(0, 0, 3)

        def foo2(a, b):
            return (3 * b.narrow(0, 0, 3) * a.narrow(0, 0, 3)).sum()

        inp = data(torch, 4)
        v = data(torch, 4, seed=1)
        r = []
        _attempt(r, lambda: fn(foo, (inp, 2), v))
        _attempt(r, lambda: fn(bar, inp, v))
        _attempt(r, lambda: fn(bar2, inp, v))
        _attempt(r, lambda: fn(foo, inp, data(torch, 5)))
        _attempt(r, lambda: fn(foo, inp, (v, 2)))
        r.append(fn(foo, inp, v))
        return r + [fn(foo2, (data(torch, 4), data(torch, 5)),
                       (data(torch, 4, seed=2), data(torch, 5, seed=3)))]
    return prog


def _hp_err_check_strict(api):
    def prog(torch):
        fn = getattr(_F(torch), api)

        def foo(a):
            return a.detach().sum()

        def bar(a):
            return a.long().double().requires_grad_().clone().sum()

        def bar2(a):
            return (3 * a).sum()

        inp = data(torch, 4)
        v = data(torch, 4, seed=1)
        r = []
        for f in (foo, bar, bar2):
            _attempt(r, lambda: fn(f, inp, v, strict=True))
            r.append(fn(f, inp, v, strict=False))
        return r
    return prog


def _hp_output(api):
    def prog(torch):
        fn = getattr(_F(torch), api)

        def foo(a):
            return 3 * a.narrow(0, 0, 3).exp().sum()

        def bar(a, b):
            return (a + 3 * b.narrow(0, 0, 3)).exp().sum()

        res = fn(foo, data(torch, 4, 4), torch.ones(4, 4, dtype=torch.float64))
        res2 = fn(bar, (data(torch, 3, seed=1), data(torch, 4, seed=2)),
                  (torch.ones(3, dtype=torch.float64), torch.ones(4, dtype=torch.float64)))
        return res, _has_fn(res), res2, _has_fn(res2)
    return prog


def _hp_scalar(api):
    def prog(torch):
        fn = getattr(_F(torch), api)

        def reducer(x):
            return x.exp().sum() if api == "hvp" else x.sum()

        def bad_reducer(x):
            return reducer(x).view(1, 1, 1)

        s = torch.tensor(0.5, dtype=torch.float64)
        return (fn(reducer, data(torch, 4, 4), torch.ones(4, 4, dtype=torch.float64)),
                fn(reducer, s, torch.tensor(0.25, dtype=torch.float64)), fn(reducer, s),
                fn(bad_reducer, data(torch, 4, 4), data(torch, 4, 4, seed=1)))
    return prog


def _hp_create_graph(api):
    def prog(torch):
        fn = getattr(_F(torch), api)
        gc_, ggc = torch.autograd.gradcheck, torch.autograd.gradgradcheck

        def foo(a):
            return 3 * a.narrow(0, 0, 3).exp().sum()

        inputs = data(torch, 4, 4, requires_grad=True)
        v = torch.ones(4, 4, dtype=torch.float64, requires_grad=True)
        res = fn(foo, inputs, v, create_graph=True)
        r = [res, _has_fn(res),
             gc_(lambda inp, v: fn(foo, inp, v, create_graph=True), (inputs, v)),
             ggc(lambda inp, v: fn(foo, inp, v, create_graph=True), (inputs, v))]

        def bar(a, b):
            return (a + 3 * b.narrow(0, 0, 3)).exp().sum()

        inputs = (data(torch, 3, seed=1, requires_grad=True),
                  data(torch, 4, seed=2, requires_grad=True))
        v = (torch.ones(3, dtype=torch.float64, requires_grad=True),
             torch.ones(4, dtype=torch.float64, requires_grad=True))
        res = fn(bar, inputs, v, create_graph=True)
        r += [res, _has_fn(res),
              gc_(lambda *a: fn(bar, a[:2], a[2:], create_graph=True)[1], inputs + v),
              ggc(lambda *a: fn(bar, a[:2], a[2:], create_graph=True)[1], inputs + v)]

        def foo2(*args):
            x, y = args[:2]
            x = x.cos()
            val, grad = fn(bar, (x, y), args[2:], create_graph=True)
            return val.cos() + grad[0].cos().sum() + grad[1].cos() + x.cos().sum() + y.cos()

        return r + [gc_(foo2, inputs + v), ggc(foo2, inputs + v)]
    return prog


def test_vhp_err_check():
    same(_hp_err_check("vhp"))


def test_vhp_err_check_strict():
    same(_hp_err_check_strict("vhp"))


def test_vhp_no_grad():
    same(_hvp_no_grad("vhp"))


def test_vhp_output():
    same(_hp_output("vhp"))


def test_vhp_scalar():
    same(_hp_scalar("vhp"))


def test_vhp_create_graph():
    same(_hp_create_graph("vhp"))


def test_hvp_err_check():
    same(_hp_err_check("hvp"))


def test_hvp_err_check_strict():
    same(_hp_err_check_strict("hvp"))


def test_hvp_no_grad():
    same(_hvp_no_grad("hvp"))


def test_hvp_output():
    same(_hp_output("hvp"))


def test_hvp_scalar():
    same(_hp_scalar("hvp"))


def test_hvp_create_graph():
    same(_hp_create_graph("hvp"))


def test_jacobian_match_vjp_jvp():
    def prog(torch):
        F = _F(torch)

        def foo(x):
            return x ** 3 + x.sum()

        inputs = data(torch, 4)
        v = data(torch, 4, seed=1)
        jac = F.jacobian(foo, inputs)
        jvp = F.jvp(foo, inputs, v)[1]
        vjp = F.vjp(foo, inputs, v)[1]
        return (jvp, torch.mm(jac, v.unsqueeze(1)).squeeze(1), vjp,
                torch.mm(v.unsqueeze(0), jac).squeeze(0))
    same(prog)


def test_hessian_match_vhp_hvp():
    def prog(torch):
        F = _F(torch)

        def foo(a):
            return 3 * a.narrow(0, 0, 3).exp().sum()

        inputs = data(torch, 4)
        v = data(torch, 4, seed=1)
        hes = F.hessian(foo, inputs)
        hvp = F.hvp(foo, inputs, v)[1]
        vhp = F.vhp(foo, inputs, v)[1]
        return (hvp, torch.mm(hes, v.unsqueeze(1)).squeeze(1), vhp,
                torch.mm(v.unsqueeze(0), hes).squeeze(0))
    same(prog)


def test_jacobian_err_check_strict_vectorize():
    # strict=True and vectorize=True together are refused (before any work is done)
    def prog(torch):
        r = []
        _attempt(r, lambda: _F(torch).jacobian(lambda x: x, data(torch, 4), strict=True,
                                               vectorize=True))
        return r
    same(prog)


def test_hessian_err_check_strict_vectorize():
    def prog(torch):
        r = []
        _attempt(r, lambda: _F(torch).hessian(lambda x: x.sum(), data(torch, 4), strict=True,
                                              vectorize=True))
        return r
    same(prog)


def _vectorize_warnings(api, fn):
    def prog(torch):
        import warnings
        with warnings.catch_warnings(record=True) as wa:
            warnings.simplefilter("always")
            result = getattr(_F(torch), api)(fn, data(torch, 3), vectorize=True)
        return result, [str(w.message) for w in wa]
    return prog


def test_jacobian_vectorize_raises_no_warnings():
    # vectorize=True is PyTorch's vmap, an experimental prototype that warns when called
    # directly; jacobian must not pass that warning on
    same(_vectorize_warnings("jacobian", lambda a: (a ** 2).sum()))


def test_hessian_vectorize_raises_no_warnings():
    same(_vectorize_warnings("hessian", lambda a: (a ** 2).sum()))


def test_jacobian_vectorize_correctness_different_dtype():
    # vectorize=True gives what vectorize=False gives, outputs of two dtypes included
    # (the other *_vectorize_correctness_* tests also run strategy="forward-mode":
    # forward-mode AD, which autograd_core, reverse-mode only, does not have)
    def prog(torch):
        def f(x, y):
            return (x * y).float(), (x * y).double()

        x, y = data(torch, 3, seed=1), data(torch, 3, seed=2)
        jac = _F(torch).jacobian
        return jac(f, (x, y), vectorize=True), jac(f, (x, y), vectorize=False)
    same(prog)
