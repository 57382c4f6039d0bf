"""PyTorch's out= keyword (Note [out= arguments], ops/_prelude.pxi), compared with
PyTorch: the result written into out and out returned, out resized (with PyTorch's
deprecation warning when it had elements), the result cast to out's dtype or PyTorch's
error, no autograd through out=, out's version counter, tuples of outs for several
returns."""
import pytest
import torch

import autograd_core
from _diff import catch, data, same, warns

# (name, f(torch, args, out), args builder, out shape, out dtype): one or more ops of
# each family whose table row has `out: true`
CASES = [
    ("add", lambda t, a, o: t.add(a[0], a[1], alpha=2, out=o), 2, (2, 3), "float64"),
    ("mul", lambda t, a, o: t.mul(a[0], 3, out=o), 1, (2, 3), "float64"),
    ("exp", lambda t, a, o: t.exp(a[0], out=o), 1, (2, 3), "float64"),
    ("atan2", lambda t, a, o: t.atan2(a[0], a[1], out=o), 2, (2, 3), "float64"),
    ("eq", lambda t, a, o: t.eq(a[0], a[1], out=o), 2, (2, 3), "bool"),
    ("round", lambda t, a, o: t.round(a[0], decimals=1, out=o), 1, (2, 3), "float64"),
    ("sum", lambda t, a, o: t.sum(a[0], 1, out=o), 1, (2,), "float64"),
    ("mean", lambda t, a, o: t.mean(a[0], (0, 1), keepdim=True, out=o), 1, (1, 1), "float64"),
    ("amax", lambda t, a, o: t.amax(a[0], 0, out=o), 1, (3,), "float64"),
    ("cumsum", lambda t, a, o: t.cumsum(a[0], 1, out=o), 1, (2, 3), "float64"),
    ("logsumexp", lambda t, a, o: t.logsumexp(a[0], 1, out=o), 1, (2,), "float64"),
    ("argmax", lambda t, a, o: t.argmax(a[0], 1, out=o), 1, (2,), "int64"),
    ("cat", lambda t, a, o: t.cat([a[0], a[1]], 0, out=o), 2, (4, 3), "float64"),
    ("stack", lambda t, a, o: t.stack([a[0], a[1]], out=o), 2, (2, 2, 3), "float64"),
    ("addcmul", lambda t, a, o: t.addcmul(a[0], a[1], a[0], value=0.5, out=o), 2, (2, 3),
     "float64"),
    ("softmax", lambda t, a, o: t.softmax(a[0], 1, out=o), 1, (2, 3), "float64"),
    ("index_select", lambda t, a, o: t.index_select(a[0], 1, t.tensor([2, 0]), out=o), 1,
     (2, 2), "float64"),
    ("masked_select", lambda t, a, o: t.masked_select(a[0], a[0] > 0, out=o), 1, (3,),
     "float64"),
    ("take_along_dim", lambda t, a, o: t.take_along_dim(a[0], t.tensor([[0], [2]]), 1, out=o),
     1, (2, 1), "float64"),
    ("matmul", lambda t, a, o: t.matmul(a[0], a[1].t(), out=o), 2, (2, 2), "float64"),
    ("mm", lambda t, a, o: t.mm(a[0].t(), a[1], out=o), 2, (3, 3), "float64"),
    ("addmm", lambda t, a, o: t.addmm(a[0][:, :2], a[0], a[1].t(), out=o), 2, (2, 2),
     "float64"),
    ("tril", lambda t, a, o: t.tril(a[0], out=o), 1, (2, 3), "float64"),
    ("linalg.vector_norm", lambda t, a, o: t.linalg.vector_norm(a[0], out=o), 1, (), "float64"),
    ("linalg.inv", lambda t, a, o: t.linalg.inv(a[0][:, :2] + 2 * t.eye(2, dtype=t.float64),
                                                out=o), 1, (2, 2), "float64"),
    ("linalg.cross", lambda t, a, o: t.linalg.cross(a[0], a[1], out=o), 2, (2, 3), "float64"),
]
IDS = [c[0] for c in CASES]


def _args(mod, n, requires_grad=False):
    return [data(mod, 2, 3, seed=i + 1, requires_grad=requires_grad) for i in range(n)]


@pytest.mark.parametrize("name,f,n,shape,dt", CASES, ids=IDS)
def test_values_identity_and_version(name, f, n, shape, dt):
    def prog(t):
        a = _args(t, n)
        o = t.zeros(shape, dtype=getattr(t, dt))
        v = o._version
        r = f(t, a, o)
        return [r is o, o, o.shape, o.dtype, o._version > v]
    same(prog)


@pytest.mark.parametrize("name,f,n,shape,dt", CASES, ids=IDS)
def test_empty_out_is_resized_silently(name, f, n, shape, dt):
    def prog(t):
        o = t.empty(0, dtype=getattr(t, dt))
        r, w = warns(f, t, _args(t, n), o)
        return [r is o, o, o.shape, w]
    same(prog)


@pytest.mark.parametrize("name,f,n,shape,dt", CASES[:8], ids=IDS[:8])
def test_resize_warning(name, f, n, shape, dt):
    def prog(t):
        o = t.zeros(7, 1, dtype=getattr(t, dt))
        r, w = warns(f, t, _args(t, n), o)
        # PyTorch's warning ends with where it was triggered in its C++ sources
        return [r is o, o, [(c, m.split(" (Triggered internally")[0]) for c, m in w]]
    same(prog)


def test_cast_to_out_dtype_and_refused_cast():
    def prog(t):
        a, b = _args(t, 2)
        o = t.zeros(2, 3, dtype=t.float32)
        r = [t.add(a, b, out=o), o.dtype]
        i = t.tensor([[1, 2, 3], [4, 5, 6]])
        r.append(t.mul(i, 2, out=t.zeros(2, 3)))       # long into float: allowed
        lo = t.zeros(2, 3, dtype=t.long)
        r.append(catch(t.add, a, b, out=lo))            # float into long: refused
        r.append(lo)
        e = t.empty(0, dtype=t.long)
        r.append(catch(t.exp, a, out=e))
        r.append(e.shape)                               # refused before the resize
        r.append(catch(t.eq, a, b, out=t.zeros(2, 3, dtype=t.int32)))   # bool into int
        return r
    same(prog)


# torch.softmax(out=) records a graph instead (its out= path is composite)
GRAD_CASES = [c for c in CASES if c[0] != "softmax"]


@pytest.mark.parametrize("name,f,n,shape,dt", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_autograd_errors(name, f, n, shape, dt):
    def prog(t):
        r = []
        o = t.zeros(shape, dtype=getattr(t, dt))
        r.append(catch(f, t, _args(t, n, requires_grad=True), o))
        with t.no_grad():
            x = f(t, _args(t, n, requires_grad=True), o)
            r += [x is o, o.requires_grad, o.grad_fn is None]
        if o.dtype.is_floating_point:
            o2 = t.zeros(shape, dtype=getattr(t, dt), requires_grad=True)
            r.append(catch(f, t, _args(t, n), o2))
        return r
    same(prog)


def test_out_type_errors():
    def prog(t):
        a, b = _args(t, 2)
        return [catch(t.exp, a, out=[t.zeros(2, 3)]),
                catch(t.linalg.eigh, a[:, :2] @ a[:, :2].t(), out=t.zeros(2))]
    same(prog)


def test_multi_output_tuple():
    def prog(t):
        a = data(t, 3, 3, seed=4)
        s = a @ a.t() + t.eye(3, dtype=t.float64)
        w, v = t.empty(0, dtype=t.float64), t.empty(0, dtype=t.float64)
        r = t.linalg.eigh(s, out=(w, v))
        q, rr = t.empty(0, dtype=t.float64), t.empty(0, dtype=t.float64)
        r2 = t.linalg.qr(s, out=(q, rr))
        return [r[0] is w, r[1] is v, type(r).__name__, w, v.abs(), r2[0] is q, r2[1] is rr,
                type(r2).__name__, q.abs(), rr.abs(), w._version, q._version]
    same(prog)


@pytest.mark.parametrize("call", [
    lambda t, x, o: t.max(x, 1, out=o), lambda t, x, o: t.min(x, 0, keepdim=True, out=o),
    lambda t, x, o: t.sort(x, 1, descending=True, out=o), lambda t, x, o: t.topk(x, 2, out=o)],
    ids=["max", "min", "sort", "topk"])
def test_multi_output_reductions(call):
    def prog(t):
        x = data(t, 3, 4, seed=5)
        v, i = t.zeros(2, dtype=t.float64), t.zeros(0, dtype=t.long)
        r, w = warns(call, t, x, (v, i))
        res = [r[0] is v, r[1] is i, type(r).__name__, v, i, v._version, i._version,
               [(c, m.split(" (Triggered internally")[0]) for c, m in w]]
        res.append(catch(call, t, data(t, 3, 4, requires_grad=True), (v, i)))
        res.append(catch(call, t, x, (v, t.zeros(0))))       # indices must be long
        # (an overloaded function's TypeError lists its signatures: the type is compared)
        res.append(catch(call, t, x, v, check_message=False))
        return res
    same(prog)


def test_max_min_single_and_pair():
    def prog(t):
        x, y = data(t, 3, seed=1), data(t, 3, seed=2)
        o, p = t.empty(0, dtype=t.float64), t.empty(0, dtype=t.float64)
        return [t.max(x, out=o) is o, o, t.min(x, y, out=p) is p, p]
    same(prog)


def test_out_aliasing_an_input():
    def prog(t):
        a, b = _args(t, 2)
        r = t.add(a, b, out=a)
        return [r is a, a, a._version]
    same(prog)


def test_methods_take_no_out():
    a = autograd_core.ones(2)
    with pytest.raises(TypeError):
        a.add(a, out=autograd_core.zeros(2))
    with pytest.raises(TypeError):
        torch.ones(2).add(torch.ones(2), out=torch.zeros(2))


def test_no_method_takes_out():
    """PyTorch's Tensor methods take no out=; the functions they share a wrapper with do."""
    import inspect
    takes = []
    for name in dir(autograd_core.Tensor):
        f = getattr(autograd_core.Tensor, name)
        try:
            if callable(f) and "out" in inspect.signature(f).parameters:
                takes.append(name)
        except (TypeError, ValueError):
            pass
    assert takes == []


@pytest.mark.parametrize("call", [
    lambda t, x: x.max(0, out=(t.zeros(0), t.zeros(0, dtype=t.long))),
    lambda t, x: x.min(out=t.zeros(0)),
    lambda t, x: x.sort(out=(t.zeros(0), t.zeros(0, dtype=t.long))),
    lambda t, x: x.topk(1, out=(t.zeros(0), t.zeros(0, dtype=t.long))),
    lambda t, x: x.div(2, out=t.zeros(0)),
    lambda t, x: x.pow(2, out=t.zeros(0)),
    lambda t, x: x.clamp(0, out=t.zeros(0)),
    lambda t, x: x.kthvalue(1, out=(t.zeros(0), t.zeros(0, dtype=t.long))),
    lambda t, x: x.bernoulli(out=t.zeros(0)),
    lambda t, x: x.multinomial(1, out=t.zeros(0, dtype=t.long))],
    ids=["max", "min", "sort", "topk", "div", "pow", "clamp", "kthvalue", "bernoulli",
         "multinomial"])
def test_methods_refuse_out(call):
    def prog(t):
        return catch(call, t, t.tensor([0.2, 0.7, 0.4]), check_message=False)
    same(prog)


@pytest.mark.parametrize("call", [
    lambda t, o: t.zeros(2, 3, out=o), lambda t, o: t.ones(3, out=o),
    lambda t, o: t.full((2,), 1.5, out=o), lambda t, o: t.arange(0, 3, out=o),
    lambda t, o: t.linspace(0, 1, 3, out=o), lambda t, o: t.eye(2, out=o)],
    ids=["zeros", "ones", "full", "arange", "linspace", "eye"])
def test_factories_write_out(call):
    """A factory's out=: computed in out's dtype, resized without a warning; a dtype that
    differs from out's, or an out that requires grad, is refused."""
    def prog(t):
        r = []
        for o in (t.empty(0, dtype=t.long), t.zeros(0, 5), t.zeros(2, 3, dtype=t.float64)):
            x, w = warns(call, t, o)
            r += [x is o, o, w]
        r.append(catch(t.zeros, 2, out=t.empty(0, dtype=t.long), dtype=t.float32))
        r.append(catch(call, t, t.zeros(2, requires_grad=True)))
        with t.no_grad():
            o = t.zeros(0, requires_grad=True)
            r += [call(t, o) is o]
        return r
    same(prog)


def test_random_functions_write_out():
    def prog(t):
        t.manual_seed(0)
        o, p = t.empty(0), t.empty(0, dtype=t.long)
        r = [t.rand(3, out=o) is o, o.shape, t.randint(0, 5, (4,), out=p) is p, p.shape,
             t.bernoulli(t.full((3,), 1.0), out=o) is o, o,
             t.multinomial(t.tensor([0.0, 1.0]), 2, replacement=True, out=p) is p, p]
        r.append(catch(t.bernoulli, t.ones(2), 0.5, out=o, check_message=False))
        return r
    same(prog)


def test_normalize_out():
    def prog(t):
        x = data(t, 2, 3)
        o = t.empty(0, dtype=t.float64)
        r = [t.nn.functional.normalize(x, out=o) is o, o,
             catch(t.nn.functional.normalize, data(t, 2, 3, requires_grad=True), out=o)]
        return r
    same(prog)


@pytest.mark.parametrize("call", [
    lambda t, x, o: t.split_copy(x, 2, out=o),
    lambda t, x, o: t.split_with_sizes_copy(x, [1, 3], out=o)],
    ids=["split_copy", "split_with_sizes_copy"])
def test_list_out(call):
    """out= of an op returning Tensor[] returns None and records nothing: split_copy
    copies into each out tensor (cast, no resize), split_with_sizes_copy wants the
    pieces' dtype and resizes; PyTorch's errors for a wrong number, kind, dtype or shape
    of outs."""
    def prog(t):
        x = data(t, 4, seed=6, requires_grad=True)
        sizes = [p.shape[0] for p in call(t, x.detach(), None)]
        outs = [t.zeros(n, dtype=t.float64) for n in sizes]
        r = [call(t, x, outs), outs, outs[0]._version, outs[0].requires_grad]
        for bad in ([outs[0]], outs + [t.zeros(1)], outs[0], (outs[0], 3), [],
                    [t.zeros(n) for n in sizes], [t.zeros(0, dtype=t.float64)] * 2):
            r.append(catch(call, t, x, bad, quiet=True))
            r.append([o.shape for o in bad] if isinstance(bad, list) else None)
        return r
    same(prog)


def test_diagonal_copy_out_exact_dtype():
    def prog(t):
        a = data(t, 2, 3, seed=7)
        o = t.empty(0, dtype=t.float64)
        r = [t.diagonal_copy(a, 1, out=o) is o, o]
        r.append(catch(t.diagonal_copy, a, out=t.empty(2, dtype=t.float32)))
        return r
    same(prog)
