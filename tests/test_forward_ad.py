"""Forward-mode AD (autograd.forward_ad) against PyTorch: dual tensors, tangents of the
table's ops (values and tangents, float64), views and in-place ops on dual tensors,
composition with backward (hessian-vector products both ways), and the op table:
every op either computes PyTorch's tangent or raises PyTorch's NotImplementedError."""
import sys
import os

import numpy as np
import pytest

from _diff import Raised, assert_same, catch, same, same_error

sys.path.insert(0, os.path.dirname(__file__))
from op_spec import case_args, case_id, case_seed, make_arrays  # noqa: E402
from op_table import OPS  # noqa: E402

import torch  # noqa: E402
import autograd_core  # noqa: E402


def fw(mod):
    import importlib
    return importlib.import_module(mod.__name__ + ".autograd.forward_ad")


def jvp_prog(fn, shapes, seed=0):
    """A program computing fn's value and tangent on random float64 duals."""
    rng = np.random.default_rng(seed)
    arrays = [(rng.standard_normal(s), rng.standard_normal(s)) for s in shapes]

    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            duals = [fwAD.make_dual(mod.tensor(p), mod.tensor(t)) for p, t in arrays]
            out = fn(mod, *duals)
            outs = out if isinstance(out, (tuple, list)) else (out,)
            return [tuple(fwAD.unpack_dual(o)) if isinstance(o, mod.Tensor) else o
                    for o in outs]
    return prog


# ------------------------------------------------------------------ the API

def test_make_dual_outside_level():
    same_error(lambda mod: fw(mod).make_dual(mod.ones(2), mod.ones(2)))


def test_nested_level():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            return catch(fwAD.enter_dual_level)
    same(prog)


def test_exit_without_level():
    same(lambda mod: catch(fw(mod).exit_dual_level))


@pytest.mark.parametrize("case", ["size", "int_primal", "int_tangent", "twice"])
def test_make_dual_errors(case):
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            if case == "size":
                return catch(fwAD.make_dual, mod.ones(2), mod.ones(3))
            if case == "int_primal":
                return catch(fwAD.make_dual, mod.ones(2, dtype=mod.long), mod.ones(2))
            if case == "int_tangent":
                return catch(fwAD.make_dual, mod.ones(2), mod.ones(2, dtype=mod.long))
            x = fwAD.make_dual(mod.ones(2), mod.ones(2))
            return catch(fwAD.make_dual, x, mod.ones(2))
    same(prog)


def test_level_index_and_tangent_cleared():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level() as lvl:
            x = fwAD.make_dual(mod.tensor([1., 2.]), mod.tensor([3., 4.]))
            y = x * 2
            inside = fwAD.unpack_dual(y).tangent
        after = fwAD.unpack_dual(y).tangent
        return lvl, inside, after, fwAD.unpack_dual(y).primal
    same(prog)


def test_repr_with_tangent():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            x = fwAD.make_dual(mod.tensor([1., 2.]), mod.tensor([3., 4.]))
            return repr(x * 2), repr(x[0:1]), repr(x.detach())
    same(prog)


def test_make_dual_view_and_grad_fn():
    def prog(mod):
        fwAD = fw(mod)
        x = mod.ones(2, requires_grad=True)
        with fwAD.dual_level():
            d = fwAD.make_dual(x, mod.ones(2))
            p, t = fwAD.unpack_dual(d)
            return (type(d.grad_fn).__name__, d._base is x, p._base is x,
                    fwAD.unpack_dual(p).tangent, t)
    same(prog)


def test_tangent_layout_copied():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            y = mod.ones(2, 3).t()
            d = fwAD.make_dual(y, mod.ones(3, 2))
            t = fwAD.unpack_dual(d).tangent
            return t.stride(), t
    same(prog)


def test_no_grad_keeps_forward_ad_detach_drops_it():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            x = fwAD.make_dual(mod.tensor([1., 2.]), mod.tensor([1., 1.]))
            with mod.no_grad():
                a = fwAD.unpack_dual(x * 3).tangent
            return a, fwAD.unpack_dual(x.detach()).tangent, fwAD.unpack_dual(x > 1).tangent
    same(prog)


def test_requires_grad_independent():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            t = mod.ones(2, requires_grad=True)
            d = fwAD.make_dual(mod.ones(2), t)
            return d.requires_grad, fwAD.unpack_dual(d).tangent is t
    same(prog)


def test_not_implemented_message():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            x = fwAD.make_dual(mod.tensor([1., 2.]), mod.tensor([1., 1.]))
            return catch(mod.igamma, x, mod.ones(2))
    same(prog)


def test_out_variant():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            foo = fwAD.make_dual(mod.rand(2), mod.rand(2))
            bar = mod.rand(2)
            return (catch(lambda: mod.add(bar, bar, out=foo)),
                    catch(lambda: mod.add(foo, bar, out=bar)),
                    catch(lambda: mod.exp(foo, out=bar)))
    same(prog)


# ------------------------------------------------------------------ op jvps

ELEMENTWISE = {
    "exp": lambda m, x: m.exp(x), "log": lambda m, x: m.log(x.abs() + 1),
    "sin": lambda m, x: x.sin(), "tanh": lambda m, x: x.tanh(),
    "sigmoid": lambda m, x: x.sigmoid(), "relu": lambda m, x: m.relu(x),
    "sqrt": lambda m, x: (x * x + 1).sqrt(), "pow": lambda m, x: x ** 3,
    "neg_abs": lambda m, x: -x.abs(), "reciprocal": lambda m, x: (x * x + 1).reciprocal(),
    "erf": lambda m, x: m.erf(x), "clamp": lambda m, x: x.clamp(-0.5, 0.5),
    "gelu": lambda m, x: m.nn.functional.gelu(x), "silu": lambda m, x: m.nn.functional.silu(x),
    "softplus": lambda m, x: m.nn.functional.softplus(x),
    "leaky_relu": lambda m, x: m.nn.functional.leaky_relu(x, 0.1),
    "elu": lambda m, x: m.nn.functional.elu(x),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.parametrize("shape", [(3, 4), (), (0,)])
def test_unary_jvp(name, shape):
    same(jvp_prog(ELEMENTWISE[name], [shape]))


BINARY = {
    "add": lambda m, x, y: x + y, "sub": lambda m, x, y: x - 2 * y,
    "mul": lambda m, x, y: x * y, "div": lambda m, x, y: x / (y * y + 1),
    "atan2": lambda m, x, y: m.atan2(x, y), "maximum": lambda m, x, y: m.maximum(x, y),
    "where": lambda m, x, y: m.where(x > 0, x, y), "hypot": lambda m, x, y: m.hypot(x, y),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)), ((), (2, 2))])
def test_binary_jvp(name, shapes):
    same(jvp_prog(BINARY[name], shapes))


def test_binary_one_side_dual():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            x = fwAD.make_dual(mod.tensor([1., 2.]), mod.tensor([1., -1.]))
            y = mod.tensor([[3., 4.], [5., 6.]])
            return [fwAD.unpack_dual(z).tangent for z in (x * y, y / x, x + y, y - x, x * 2.5)]
    same(prog)


SHAPE_OPS = {
    "view": lambda m, x: x.view(4, 3), "t": lambda m, x: x.t(),
    "permute": lambda m, x: x.reshape(2, 2, 3).permute(2, 0, 1),
    "getitem": lambda m, x: x[1:, ::2], "select": lambda m, x: x[1],
    "unsqueeze": lambda m, x: x.unsqueeze(0), "expand": lambda m, x: x[:1].expand(5, 3),
    "flip": lambda m, x: x.flip(0), "sum": lambda m, x: x.sum(), "sum_dim": lambda m, x: x.sum(1),
    "mean": lambda m, x: x.mean(0, keepdim=True), "cumsum": lambda m, x: x.cumsum(1),
    "cat": lambda m, x: m.cat([x, x * 2], 0), "stack": lambda m, x: m.stack([x, x.exp()], 1),
    "split": lambda m, x: x.split(2, 0), "unbind": lambda m, x: x.unbind(1),
    "chunk": lambda m, x: x.chunk(2, 1), "reshape": lambda m, x: x.t().reshape(-1),
    "gather": lambda m, x: x.gather(1, m.tensor([[0, 2], [1, 1], [2, 0], [0, 0]])),
    "index_select": lambda m, x: x.index_select(0, m.tensor([3, 0])),
    "adv_index": lambda m, x: x[m.tensor([0, 2, 2])],
    "max_dim": lambda m, x: x.max(1)[0], "amax": lambda m, x: x.amax(0),
    "prod": lambda m, x: x.prod(1), "var": lambda m, x: x.var(1), "std": lambda m, x: x.std(),
    "logsumexp": lambda m, x: x.logsumexp(1), "norm": lambda m, x: x.norm(),
    "softmax": lambda m, x: x.softmax(1), "log_softmax": lambda m, x: x.log_softmax(0),
    "tril": lambda m, x: x.tril(), "diagonal": lambda m, x: x.diagonal(),
}


@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
def test_shape_reduce_jvp(name):
    same(jvp_prog(SHAPE_OPS[name], [(4, 3)], seed=3))


LINALG = {
    "mm": (lambda m, a, b: a.mm(b), [(3, 4), (4, 2)]),
    "matmul_bcast": (lambda m, a, b: a @ b, [(2, 3, 4), (4, 5)]),
    "bmm": (lambda m, a, b: a.bmm(b), [(2, 3, 4), (2, 4, 2)]),
    "mv": (lambda m, a, b: a.mv(b), [(3, 4), (4,)]),
    "dot": (lambda m, a, b: a.dot(b), [(4,), (4,)]),
    "linear": (lambda m, a, b: m.nn.functional.linear(a, b), [(5, 4), (3, 4)]),
    "addmm": (lambda m, a, b: m.addmm(m.ones(3, 2, dtype=m.float64), a, b, beta=0.5, alpha=2), [(3, 4), (4, 2)]),
    "mse": (lambda m, a, b: m.nn.functional.mse_loss(a, b), [(3, 4), (3, 4)]),
    "cross_entropy": (lambda m, a, b: m.nn.functional.cross_entropy(
        a, m.tensor([0, 2, 1])) + b.sum(), [(3, 4), (1,)]),
    "layer_norm": (lambda m, a, b: m.nn.functional.layer_norm(a, (4,), b), [(3, 4), (4,)]),
    "conv2d": (lambda m, a, b: m.nn.functional.conv2d(a, b, padding=1),
               [(1, 2, 5, 5), (3, 2, 3, 3)]),
    "inv": (lambda m, a, b: m.linalg.inv(a + 4 * m.eye(3)) + b, [(3, 3), (3, 3)]),
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg_nn_jvp(name):
    fn, shapes = LINALG[name]
    same(jvp_prog(fn, shapes, seed=5))


# ------------------------------------------------------------------ views and in-place

def test_inplace_on_dual():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            x = fwAD.make_dual(mod.tensor([1., 2., 3.]), mod.tensor([1., 0., 2.]))
            y = x.clone()
            y.mul_(x).add_(1)
            y.exp_()
            return fwAD.unpack_dual(y)
    same(prog)


def test_inplace_into_view_updates_base():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            x = fwAD.make_dual(mod.tensor([1., 2.]), mod.tensor([5., 6.]))
            y = mod.zeros(3)
            v = y[:2]
            v.copy_(x)
            z = mod.zeros(3)
            z[0] = x[1]
            w = mod.zeros(2, 3)
            w[1].mul_(2).add_(x.sum())
            return repr(y), repr(v), repr(z), repr(w), repr(y[1:])
    same(prog)


def test_view_of_dual_base_then_inplace():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            base = mod.tensor([[1., 2.], [3., 4.]]).clone()
            x = fwAD.make_dual(base, mod.ones(2, 2))
            v = x[0]
            vv = v[1:]
            vv.mul_(3)
            x.t()[1].add_(x[0].detach())
            return fwAD.unpack_dual(x).tangent, fwAD.unpack_dual(v).tangent, \
                fwAD.unpack_dual(vv).tangent
    same(prog)


def test_inplace_removes_tangent_dependency():
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            x = fwAD.make_dual(mod.tensor([1., 2.]), mod.tensor([5., 6.]))
            y = x * 1
            y.copy_(mod.tensor([7., 8.]))
            z = x * 1
            z.zero_()
            return fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(z).tangent
    same(prog)


# ------------------------------------------------------------------ composition

def _f(mod, x):
    return (x.sin() * x.exp()).sum() + (x * x).sum() * x[0]


def test_hvp_forward_over_reverse():
    def prog(mod):
        fwAD = fw(mod)
        p = mod.tensor([0.3, -1.2, 0.7], dtype=mod.float64)
        v = mod.tensor([1.0, 0.5, -2.0], dtype=mod.float64)
        with fwAD.dual_level():
            x = fwAD.make_dual(p.clone().requires_grad_(), v)
            g, = mod.autograd.grad(_f(mod, x), x)
            return tuple(fwAD.unpack_dual(g))
    same(prog)


def test_hvp_reverse_over_forward():
    def prog(mod):
        fwAD = fw(mod)
        p = mod.tensor([0.3, -1.2, 0.7], dtype=mod.float64, requires_grad=True)
        v = mod.tensor([1.0, 0.5, -2.0], dtype=mod.float64)
        with fwAD.dual_level():
            x = fwAD.make_dual(p, v)
            jvp = fwAD.unpack_dual(_f(mod, x)).tangent
        hv, = mod.autograd.grad(jvp, p)
        return jvp, hv
    same(prog)


def test_hvp_forward_over_reverse_mlp():
    def prog(mod):
        fwAD = fw(mod)
        g = np.random.default_rng(1)
        W = mod.tensor(g.standard_normal((4, 3)))
        xin = mod.tensor(g.standard_normal((5, 3)))
        v = mod.tensor(g.standard_normal((4, 3)))
        with fwAD.dual_level():
            w = fwAD.make_dual(W.clone().requires_grad_(), v)
            loss = (mod.tanh(xin @ w.t()) ** 2).mean()
            gw, = mod.autograd.grad(loss, w)
            return tuple(fwAD.unpack_dual(gw))
    same(prog)


# ------------------------------------------------------------------ the op table

# Where autograd_core's tangent is not PyTorch's yet (strict xfails: a fix turns them
# into failures until the entry goes)
KNOWN = {}

# Where both refuse forward AD but the refusal names another op than PyTorch's, by case
# id (strict xfails, as above)
KNOWN_REFUSAL_NAMES = {}


def _table_cases():
    for spec in OPS:
        if "float64" not in spec.dtypes:
            continue
        known = KNOWN.get(spec.name.split("_exclude")[0].split("_zeros")[0])
        for i, case in enumerate(spec.cases):
            reason = known or KNOWN_REFUSAL_NAMES.get(case_id(spec, i))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(spec, case, id=case_id(spec, i), marks=marks)


def _table_prog(spec, case, arrays, tangents):
    def prog(mod):
        fwAD = fw(mod)
        with fwAD.dual_level():
            leaves = [fwAD.make_dual(mod.tensor(a), mod.tensor(t))
                      for a, t in zip(arrays, tangents)]
            out = spec.fn(mod, *case_args(case, leaves))
            outs = out if isinstance(out, (tuple, list)) else (out,)
            return [fwAD.unpack_dual(o).tangent if isinstance(o, mod.Tensor) else None
                    for o in outs]
    return prog


@pytest.mark.parametrize("spec,case", list(_table_cases()))
def test_table_op_jvp_or_not_implemented(spec, case):
    """Each table op computes PyTorch's tangent, or raises NotImplementedError; where
    PyTorch refuses forward AD, so does it."""
    seed = case_seed(spec.name, case.inputs)
    arrays = make_arrays(spec, case, "float64", seed)
    rng = np.random.default_rng(seed + 1)
    tangents = [rng.standard_normal(a.shape) for a in arrays]
    prog = _table_prog(spec, case, arrays, tangents)
    want = catch(prog, torch, quiet=True)
    got = catch(prog, autograd_core, quiet=True)
    if isinstance(got, Raised) and isinstance(want, Raised) and (
            got.type == want.type or want.type == "NotImplementedError") \
            and not got.message.startswith("Trying to use forward AD with "):
        # the op's own argument error (its message is the op table tests' business)
        return
    if isinstance(got, Raised):
        assert got.type == "NotImplementedError", got
        assert got.message.startswith("Trying to use forward AD with "), got
        if isinstance(want, Raised) and want.message.startswith("Trying to use forward AD "):
            # the refusal names the op PyTorch's does (cdist's _cdist_forward or
            # _euclidean_dist, floor_divide's aten::floor_divide)
            assert got.message == want.message
        return
    if isinstance(want, Raised):
        # PyTorch's own refusal of forward AD is ours to raise too; another error of
        # PyTorch's (an argument it rejects) is the op table tests' business
        assert not (want.type == "NotImplementedError"
                    and want.message.startswith("Trying to use forward AD with ")), \
            f"PyTorch raises, ours computes: {want.message[:100]}"
        pytest.skip(f"PyTorch raises here: {want.message[:80]}")
    assert_same(want, got, rtol=1e-6, atol=1e-8)


def test_jacobian_forward_mode_errors():
    # autograd.functional.jacobian's forward-mode argument errors
    def prog(torch):
        F = torch.autograd.functional
        x = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64)
        return (catch(F.jacobian, lambda x: x.exp(), x, strategy="forward-mode"),
                catch(F.jacobian, lambda x: x.exp(), x, strategy="forward-mode",
                      vectorize=True, create_graph=True),
                catch(F.jacobian, lambda x: x.exp(), x, strategy="forward-mode",
                      vectorize=True, strict=True))
    same(prog)


@pytest.mark.parametrize("op", ["log_softmax", "softmax", "exp", "sum", "mul"])
def test_tangent_laid_out_as_its_primal(op):
    # PyTorch's set_fw_grad copies a tangent whose strides differ from its primal's
    # into one laid out as the primal (CopyBackwards when the tangent has history):
    # log_softmax of a transposed input gives a row-major primal, while its tangent
    # formula keeps the input's column-major layout
    def prog(torch):
        t0 = torch.tensor([[-2.0, -1.5], [-1.5, 1.25]], dtype=torch.float64,
                          requires_grad=True)
        t8 = torch.log(t0.abs() + 0.5).T
        fns = {"log_softmax": lambda u: torch.log_softmax(u, dim=-1),
               "softmax": lambda u: torch.softmax(u, dim=-1),
               "exp": torch.exp, "sum": lambda u: u.sum(-1), "mul": lambda u: u * u}
        p, t = torch.func.jvp(fns[op], (t8,), (torch.ones_like(t8),))
        if t.requires_grad:
            t.sum().backward()
        return p, t, p.stride(), t.stride(), type(t.grad_fn).__name__, t0.grad
    same(prog)


# ------------------------------------------------------------------ out= and writes

_OUT_CALLS = {
    "eq": lambda m, s: m.eq(s, 1, out=m.empty(3, dtype=m.bool)),
    "argmax": lambda m, s: m.argmax(s, out=m.empty((), dtype=m.long)),
    "add_other": lambda m, s: m.add(m.ones(3), s, out=m.empty(3)),
    "cat": lambda m, s: m.cat([m.ones(1), s], out=m.empty(4)),
    "scatter_reduce_prod": lambda m, s: m.scatter_reduce(
        s, 0, m.tensor([0, 0]), m.tensor([2., 3]), "prod", out=m.empty(3)),
    "sign": lambda m, s: m.sign(s, out=m.empty(3)),
    # the hand-written wrappers (with_out: one check, of out and the computed result)
    "max_all": lambda m, s: m.max(s, out=m.empty(())),
    "max_other": lambda m, s: m.max(s, m.ones(3), out=m.empty(3)),
    "min_dim": lambda m, s: m.min(s, 0, out=(m.empty(()), m.empty((), dtype=m.long))),
    "sort": lambda m, s: m.sort(s, out=(m.empty(3), m.empty(3, dtype=m.long))),
    "topk": lambda m, s: m.topk(s, 2, out=(m.empty(2), m.empty(2, dtype=m.long))),
    "cummax": lambda m, s: m.cummax(s, 0, out=(m.empty(3), m.empty(3, dtype=m.long))),
    "clamp_min": lambda m, s: m.clamp_min(s, 1.5, out=m.empty(3)),
    "clamp_max_tensor": lambda m, s: m.clamp_max(s, m.ones(3), out=m.empty(3)),
    "chain_matmul": lambda m, s: m.chain_matmul(s.reshape(3, 1), s.reshape(1, 3),
                                                out=m.empty(3, 3)),
}


@pytest.mark.parametrize("name", sorted(_OUT_CALLS))
def test_out_variant_refuses_a_dual_input(name):
    # PyTorch's out= variants read their inputs' tangents, also where the result would
    # get none (eq, argmax, scatter_reduce's prod)
    def prog(mod):
        with fw(mod).dual_level():
            s = fw(mod).make_dual(mod.tensor([1., 2, 3]), mod.tensor([1., 1, 1]))
            return _OUT_CALLS[name](mod, s)
    same_error(prog)


_DUAL_OUT_CALLS = {
    "exp": lambda m, d: m.exp(m.ones(3), out=d),
    "sort": lambda m, d: m.sort(m.ones(3), out=(d, m.empty(3, dtype=m.long))),
    "max_dim": lambda m, d: m.max(m.ones(3, 3), 0, out=(d, m.empty(3, dtype=m.long))),
    "clamp_min": lambda m, d: m.clamp_min(m.ones(3), 0.5, out=d),
    "cummax": lambda m, d: m.cummax(m.ones(3), 0, out=(d, m.empty(3, dtype=m.long))),
    "special_zeta": lambda m, d: m.special.zeta(m.ones(3), 2., out=d),
}


@pytest.mark.parametrize("name", sorted(_DUAL_OUT_CALLS))
def test_out_variant_refuses_a_dual_out(name):
    # a plain input written into a dual out: the one check reads out too
    def prog(mod):
        with fw(mod).dual_level():
            d = fw(mod).make_dual(mod.zeros(3), mod.ones(3))
            return _DUAL_OUT_CALLS[name](mod, d)
    same_error(prog)


_COMPLEX_WRITES = {
    "setitem_slice": lambda m, b, t: b.__setitem__(slice(0, 2), t[1:]),
    "setitem_index": lambda m, b, t: b.__setitem__(m.tensor([0, 2]), t[:2]),
    "index_put_accumulate": lambda m, b, t: b.index_put_((m.tensor([0, 2]),), t[:2],
                                                         accumulate=True),
    "index_put": lambda m, b, t: b.index_put_((m.tensor([2, 0]),), t[:2]),
    "masked_fill_": lambda m, b, t: b.masked_fill_(m.tensor([True, False, True]), t[0]),
    "index_copy_": lambda m, b, t: b.index_copy_(0, m.tensor([2, 0]), t[:2]),
    "copy_": lambda m, b, t: b.copy_(t),
    "masked_scatter_": lambda m, b, t: b.masked_scatter_(m.tensor([True, False, True]), t),
}


@pytest.mark.parametrize("dual_base", [True, False])
@pytest.mark.parametrize("name", sorted(_COMPLEX_WRITES))
def test_complex_write_carries_the_tangent(name, dual_base):
    # a complex value written into a complex tensor brings its tangent (the setitem and
    # index_put_ paths once skipped non-float tensors: a zero tangent, silently)
    def prog(mod):
        with fw(mod).dual_level():
            t = fw(mod).make_dual(mod.tensor([1 + 2j, 2, 3 - 1j]),
                                  mod.tensor([1 + 1j, 2 - 3j, 0.5j]))
            b = mod.zeros(3, dtype=mod.complex64)
            if dual_base:
                b = fw(mod).make_dual(b, mod.full((3,), 0.25j, dtype=mod.complex64))
            _COMPLEX_WRITES[name](mod, b, t)
            return tuple(fw(mod).unpack_dual(b))
    same(prog)


def _graph_names(fn, depth):
    """fn's node name and, depth - 1 levels down, its next_functions' (in order); an
    AliasBackward0 stands for the node under it (see _TANGENT_GRAPH_ALIAS)."""
    while fn is not None and type(fn).__name__ == "AliasBackward0":
        fn = fn.next_functions[0][0]
    if fn is None:
        return None
    name = type(fn).__name__
    if depth == 1:
        return name
    return (name, [_graph_names(f, depth - 1) for f, _ in fn.next_functions])


_TANGENT_GRAPH_FNS = {
    "mul": lambda a, b: a * b,
    "mul_number": lambda a, b: (a * 2.0) * b,
    "mul_broadcast": lambda a, b: a * b[0],
    "div": lambda a, b: a / b,
    "div_number": lambda a, b: a / 2.0 + b,
    "matmul": lambda a, b: a @ b,
    "matmul_vector": lambda a, b: a @ b[:, 0],
    "chain": lambda a, b: ((a * b) / b) @ a,
}


# _TANGENT_GRAPH_ALIAS: PyTorch's formulas read a dual input's primal through
# _fw_primal, a view with a node of its own (AliasBackward0 under torch.func, over the
# AliasBackward0 of jvp's make_dual for an input); ours read the dual tensor itself, so
# its graph has one alias node fewer over each primal. The comparison looks through
# alias nodes: it checks the ops and the order of their edges.


@pytest.mark.parametrize("name", sorted(_TANGENT_GRAPH_FNS))
def test_jvp_tangent_graph_is_pytorchs(name):
    """The tangent of torch.func.jvp records its own backward graph when the tangents
    require grad: its nodes, and the order of each node's next_functions, are those of
    PyTorch's forward formulas (mul's other_t * self_p + self_t * other_p, div's
    (self_t - other_t * result) / other_p), three levels deep."""
    fn = _TANGENT_GRAPH_FNS[name]

    def prog(torch):
        def leaf(v):
            return torch.tensor(v, dtype=torch.float64, requires_grad=True)
        x, y = leaf([[1., 2.], [3., 4.]]), leaf([[0.5, -1.], [2., 3.]])
        # (tangents with histories of their own, so that each edge names its operand)
        tx, ty = leaf([[0.1, 0.2], [0.3, 0.4]]).exp(), leaf([[0.7, 0.2], [-0.3, 0.4]]).sin()
        p, t = torch.func.jvp(fn, (x, y.neg()), (tx, ty))
        return t, _graph_names(t.grad_fn, 3)
    same(prog)


@pytest.mark.parametrize("name", ["igamma_", "igammac_"])
def test_inplace_refusal_after_write_names_inplace_op(name):
    """An in-place op whose out-of-place op's node refuses forward AD (igamma's input
    derivative is not implemented) writes self first (values and version), then refuses
    under the in-place op's name (Note [Forward AD refusals of in-place variants])."""
    def prog(torch):
        fwAD = fw(torch)
        with fwAD.dual_level():
            a = fwAD.make_dual(torch.tensor([0.5, 1.5], dtype=torch.float64),
                               torch.tensor([1.0, 2.0], dtype=torch.float64))
            c = a * 1
            v = c._version
            r = catch(getattr(c, name), torch.tensor([1.0, 2.0], dtype=torch.float64))
            p, t = fwAD.unpack_dual(c)
            # the functional op refuses under its own name, before writing anything
            f = catch(getattr(torch, name[:-1]), a, torch.tensor([1.0, 2.0], dtype=torch.float64))
            return r, p, t, c._version - v, f
    same(prog)


def _lu_of(torch, a):
    return torch.linalg.lu_factor(a + 3 * torch.eye(a.shape[-1], dtype=a.dtype))


# ops whose result (and so, through set_fw_grad's layout rule, tangent) PyTorch lays out
# otherwise than numpy would: a clone of self (put, index_fill), a new contiguous tensor
# (complex angle, renorm, a complex keepdim sum), LAPACK's column-major solution
# (solve_triangular on either side), the order of the jvp formula's products (lu_solve)
_LAYOUT_FNS = {
    "put": (((3, 4), (3,)), lambda torch, x, s: x.put(torch.tensor([0, 5, 11]), s)),
    "index_fill": (((3, 4),), lambda torch, x: x.index_fill(1, torch.tensor([0, 2]), -1.5)),
    "angle": (((4, 3),), lambda torch, x: torch.angle(x)),
    "sum_to_size": (((3, 4),), lambda torch, x: x.sum_to_size(1, 4)),
    "sum_keepdim": (((3, 4),), lambda torch, x: x.sum(0, keepdim=True)),
    "renorm": (((4, 3),), lambda torch, x: x.renorm(2, 0, 1.0)),
    "solve_triangular_right": (((3, 3), (2, 3)), lambda torch, a, b: torch.linalg.solve_triangular(
        a + 3 * torch.eye(3, dtype=a.dtype), b, upper=False, left=False)),
    "solve_triangular_left": (((3, 3), (3, 2)), lambda torch, a, b: torch.linalg.solve_triangular(
        a + 3 * torch.eye(3, dtype=a.dtype), b, upper=True)),
    "lu_solve": (((2, 3, 3), (3, 1)), lambda torch, a, b: torch.linalg.lu_solve(*_lu_of(torch, a), b)),
    "lu_solve_adjoint": (((3, 3), (3, 2)), lambda torch, a, b: torch.linalg.lu_solve(
        *_lu_of(torch, a), b, adjoint=True)),
}


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("name", sorted(_LAYOUT_FNS))
def test_result_and_tangent_layout_is_pytorchs(name, dtype):
    """The op's own result and its tangent have PyTorch's strides, on transposed inputs
    (the tangents laid out as their primals)."""
    shapes, fn = _LAYOUT_FNS[name]
    rng = np.random.default_rng(7)

    def arr(s):
        s = s[:-2] + s[:-3:-1]   # (matrices stored transposed, read through .mT)
        a = rng.standard_normal(s)
        return a + 1j * rng.standard_normal(s) if dtype == "complex128" else a
    arrays = [arr(s) for s in shapes]
    tangents = [arr(s) for s in shapes]

    def prog(torch):
        fwAD = fw(torch)

        def tr(a):
            return torch.tensor(a).mT if a.ndim >= 2 else torch.tensor(a)
        xs = [tr(a) for a in arrays]
        plain = fn(torch, *xs)
        with fwAD.dual_level():
            duals = [fwAD.make_dual(x, tr(t)) for x, t in zip(xs, tangents)]
            out = fn(torch, *duals)
            t = fwAD.unpack_dual(out).tangent
            return plain, plain.stride(), out.stride(), t, t.stride()
    same(prog)


def test_complex_matmul_zero_signs():
    """PyTorch's complex products sum each entry into +0: the zero triangle of a product
    of triangular matrices is +0 (OpenBLAS's kernels can leave -0), whatever the
    batching (mm, bmm, mv); a product over one term is left as the multiplication gives
    it."""
    rng = np.random.default_rng(3)
    L = np.tril(rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)), -1)
    K = np.tril(-np.abs(rng.standard_normal((3, 3))) + 1j * np.abs(rng.standard_normal((3, 3))))
    L[np.diag_indices(3)] = 1

    def signs(t):
        a = t.numpy()
        return np.signbit(np.stack([a.real, a.imag])).tolist()

    def prog(torch):
        a, b = torch.tensor(L), torch.tensor(K)
        return (signs(a @ b.mT), signs(a.triu() @ b), signs(a[None] @ b[None].mT),
                signs(a.triu() @ b[:, 0]), signs(torch.mm(b.mT, a.tril(-1))))
    same(prog)


# ---------------------------------------------------------------- issue 27, point 5
# unpack_dual's primal (PyTorch's _fw_primal) is a view of the tensor, with or without a
# tangent, inside a level; its grad_fn is PyTorch's C++ node Identity (Python type
# CppFunction, printed grad_fn=<Identity>), whose backward passes the gradient on.

def _primal_facts(m, requires_grad, make_dual, nonleaf=False):
    fwAD = m.autograd.forward_ad
    with fwAD.dual_level():
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=requires_grad)
        src = x * 2 if nonleaf else x
        d = fwAD.make_dual(src, m.ones(3)) if make_dual else src
        p = fwAD.unpack_dual(d).primal
        fn = p.grad_fn
        facts = [type(fn).__name__ if fn is not None else None,
                 fn.name() if fn is not None else None,
                 [type(f).__name__ for f, _ in fn.next_functions] if fn is not None else None,
                 p is d, p._is_view(), p._base is (src if make_dual else x),
                 p.requires_grad, p.is_leaf, fwAD.unpack_dual(p).tangent is None, repr(p)]
        if requires_grad:
            (p * m.tensor([1.0, 2.0, 3.0])).sum().backward()
            facts.append(x.grad)
    outside = fwAD.unpack_dual(x)
    facts.append(outside.primal is x)
    return facts


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("make_dual", [False, True])
@pytest.mark.parametrize("nonleaf", [False, True])
def test_unpack_dual_primal_is_identity_view(requires_grad, make_dual, nonleaf):
    if nonleaf and not requires_grad:
        pytest.skip("x * 2 of a tensor without grad is a plain tensor (the leaf case)")
    same(_primal_facts, requires_grad, make_dual, nonleaf)


def test_unpack_dual_primal_in_place_reaches_base():
    def prog(m):
        fwAD = m.autograd.forward_ad
        with fwAD.dual_level():
            x = m.tensor([1.0, 2.0])
            d = fwAD.make_dual(x, m.ones(2))
            p = fwAD.unpack_dual(d).primal
            p.mul_(3)
            return x, d, x._version, fwAD.unpack_dual(d).tangent
    same(prog)
