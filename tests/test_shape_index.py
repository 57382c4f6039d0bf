"""Part shape_index, what the op table can't express: errors (type and message) against
PyTorch, multi-output views (output_nr, partial use), in-place variants, many indexing
keys for x[key] and x[key] = v (values, grads, grad_fn names, errors), and edge cases of
view/reshape/flatten/squeeze/unsqueeze/transpose/permute/expand."""
import numpy as np
import pytest

import autograd_core as ac
from _diff import assert_same, same, torch

MODS = (torch, ac)


def leaf(m, shape, seed=0, dtype="float64", requires_grad=True):
    a = np.random.default_rng(seed).standard_normal(shape)
    return m.tensor(a, dtype=getattr(m, dtype), requires_grad=requires_grad)


def I(m, v, dt="int64"):
    return m.tensor(v, dtype=getattr(m, dt))


# ------------------------------------------------------------------ errors

ERRORS = {
    "unflatten.bad": lambda m: leaf(m, (2, 3)).unflatten(1, (2, 2)),
    "unflatten.two_infer": lambda m: leaf(m, (2, 3)).unflatten(1, (-1, -1)),
    "unflatten.neg": lambda m: leaf(m, (2, 3)).unflatten(1, (-2, 3)),
    "unflatten.empty": lambda m: leaf(m, (2, 3)).unflatten(1, ()),
    "unflatten.dim": lambda m: leaf(m, (2, 3)).unflatten(2, (3,)),
    "unflatten.0d": lambda m: leaf(m, ()).unflatten(0, (1,)),
    "unflatten.ambiguous": lambda m: m.zeros(0, 3).unflatten(0, (-1, 0)),
    "broadcast_to.bad": lambda m: m.broadcast_to(leaf(m, (2, 3)), (3, 3)),
    "broadcast_to.fewer": lambda m: m.broadcast_to(leaf(m, (2, 3)), (3,)),
    "broadcast_to.int": lambda m: m.broadcast_to(leaf(m, (1,)), 5),
    "repeat.fewer": lambda m: leaf(m, (2, 3)).repeat(2),
    "repeat.neg": lambda m: leaf(m, (2, 3)).repeat(2, -1),
    "tile.neg": lambda m: leaf(m, (2, 3)).tile((-1,)),
    "tile.int": lambda m: m.tile(leaf(m, (2, 3)), 2),
    "flip.dup": lambda m: leaf(m, (2, 3)).flip(0, -2),
    "flip.dim": lambda m: leaf(m, (2, 3)).flip(2),
    "flip.int": lambda m: m.flip(leaf(m, (2, 3)), 1),
    "roll.mismatch": lambda m: leaf(m, (2, 3)).roll((1, 2), (0,)),
    "roll.no_dims_tuple": lambda m: leaf(m, (2, 3)).roll((1, 2)),
    "roll.empty": lambda m: leaf(m, (2, 3)).roll((), ()),
    "roll.0d_dim": lambda m: leaf(m, ()).roll(1, 0),
    "roll.float": lambda m: leaf(m, (2, 3)).roll(1.0),
    "split.zero": lambda m: leaf(m, (2, 3)).split(0),
    "split.neg": lambda m: leaf(m, (2, 3)).split(-1),
    "split.sizes_sum": lambda m: leaf(m, (2, 3)).split([1, 1], -1),
    "split.sizes_neg": lambda m: leaf(m, (2, 3)).split([4, -1], 1),
    "split.0d": lambda m: leaf(m, ()).split(1),
    "split.dim": lambda m: leaf(m, (2, 3)).split(1, 2),
    "chunk.zero": lambda m: leaf(m, (2, 3)).chunk(0),
    "chunk.0d": lambda m: leaf(m, ()).chunk(1),
    "unbind.0d": lambda m: leaf(m, ()).unbind(),
    "unbind.dim": lambda m: leaf(m, (2, 3)).unbind(2),
    "narrow.exceeds": lambda m: leaf(m, (2, 3)).narrow(1, 2, 2),
    "narrow.neg_len": lambda m: leaf(m, (2, 3)).narrow(1, 0, -1),
    "narrow.start": lambda m: leaf(m, (2, 3)).narrow(1, 4, 0),
    "narrow.start_neg": lambda m: leaf(m, (2, 3)).narrow(1, -4, 1),
    "narrow.0d": lambda m: leaf(m, ()).narrow(0, 0, 1),
    "select.range": lambda m: leaf(m, (2, 3)).select(1, 3),
    "select.neg_range": lambda m: leaf(m, (2, 3)).select(1, -4),
    "select.0d": lambda m: leaf(m, ()).select(0, 0),
    "index_select.float": lambda m: leaf(m, (2, 3)).index_select(1, m.tensor([0.0])),
    "index_select.2d": lambda m: leaf(m, (2, 3)).index_select(1, I(m, [[0]])),
    "index_select.oob": lambda m: leaf(m, (2, 3)).index_select(1, I(m, [1, 5, -1])),
    "index_select.neg": lambda m: leaf(m, (2, 3)).index_select(1, I(m, [-1])),
    "index_select.list": lambda m: leaf(m, (2, 3)).index_select(1, [0]),
    "index_select.0d_two": lambda m: leaf(m, ()).index_select(0, I(m, [0, 0])),
    "index_select.0d_oob": lambda m: leaf(m, ()).index_select(0, I(m, [1])),
    "gather.ndim": lambda m: leaf(m, (2, 3)).gather(1, I(m, [0])),
    "gather.size": lambda m: leaf(m, (2, 3)).gather(1, I(m, [[0], [0], [0]])),
    "gather.oob": lambda m: leaf(m, (2, 3)).gather(1, I(m, [[0, 3]])),
    "gather.neg": lambda m: leaf(m, (2, 3)).gather(1, I(m, [[-1]])),
    "gather.float": lambda m: leaf(m, (2, 3)).gather(1, m.zeros(2, 3)),
    "scatter.src_small": lambda m: leaf(m, (2, 3)).scatter(1, I(m, [[0, 1, 2]]), leaf(m, (1, 2))),
    "scatter.idx_big": lambda m: leaf(m, (2, 3)).scatter(1, I(m, [[0]] * 3), leaf(m, (3, 1))),
    "scatter.oob": lambda m: leaf(m, (2, 3)).scatter(1, I(m, [[3]]), leaf(m, (1, 1))),
    "scatter.dtype": lambda m: leaf(m, (2, 3)).scatter(1, I(m, [[0]]), leaf(m, (1, 1), dtype="float32")),
    "scatter.value_big": lambda m: leaf(m, (2, 3)).scatter(1, I(m, [[0]] * 3), 1.0),
    "scatter.idx_float": lambda m: leaf(m, (2, 3)).scatter(1, m.zeros(2, 3), 1.0),
    "scatter.idx_ndim": lambda m: leaf(m, (2, 3)).scatter(1, I(m, [0]), 1.0),
    "scatter_add.value": lambda m: leaf(m, (2, 3)).scatter_add(1, I(m, [[0]]), 1.0),
    "scatter_add.dtype": lambda m: leaf(m, (2, 3)).scatter_add(1, I(m, [[0]]), leaf(m, (1, 1), dtype="float32")),
    "scatter_.leaf": lambda m: leaf(m, (2, 3)).scatter_(1, I(m, [[0]]), 1.0),
    "scatter_add_.leaf": lambda m: leaf(m, (2, 3)).scatter_add_(1, I(m, [[0]]), leaf(m, (1, 1))),
    "masked_fill.long_mask": lambda m: leaf(m, (2, 3)).masked_fill(I(m, [1, 0, 1]), 1.0),
    "masked_fill.int8_mask": lambda m: leaf(m, (2, 3)).masked_fill(I(m, [1, 0, 1], "int8"), 1.0),
    "masked_fill.float_mask": lambda m: leaf(m, (2, 3)).masked_fill(m.ones(3), 1.0),
    "masked_fill.value_1d": lambda m: leaf(m, (2, 3)).masked_fill(I(m, [True, False, True], "bool"), m.ones(1)),
    "masked_fill.mismatch": lambda m: leaf(m, (2, 3)).masked_fill(I(m, [True, False], "bool"), 1.0),
    "masked_fill_.leaf": lambda m: leaf(m, (2, 3)).masked_fill_(I(m, [True, False, True], "bool"), 1.0),
    "masked_fill_.bigger_mask": lambda m: (leaf(m, (2, 3)) * 1).masked_fill_(m.ones(4, 2, 3, dtype=m.bool), 1.0),
    "masked_select.long_mask": lambda m: leaf(m, (2, 3)).masked_select(I(m, [1, 0, 1])),
    "masked_select.mismatch": lambda m: leaf(m, (2, 3)).masked_select(I(m, [True, False], "bool")),
    "movedim.dup": lambda m: leaf(m, (2, 3, 4)).movedim((0, 0), (1, 2)),
    "movedim.len": lambda m: leaf(m, (2, 3, 4)).movedim((0, 1), (1,)),
    "movedim.dst_dup": lambda m: leaf(m, (2, 3, 4)).movedim((0, 1), (1, 1)),
    "movedim.dim": lambda m: leaf(m, (2, 3, 4)).movedim(3, 0),
    "movedim.0d": lambda m: leaf(m, ()).movedim(1, 0),
    "mT.1d": lambda m: leaf(m, (3,)).mT,
    # view / reshape family
    "view.two_infer": lambda m: leaf(m, (2, 3)).view(-1, -1),
    "view.bad": lambda m: leaf(m, (2, 3)).view(4, 2),
    "view.infer_bad": lambda m: leaf(m, (2, 3)).view(-1, 4),
    "view.noncontig": lambda m: leaf(m, (2, 3)).t().view(-1),
    "reshape.bad": lambda m: leaf(m, (2, 3)).reshape(5),
    "view.neg_dim": lambda m: leaf(m, (2, 3)).view(-2, 3),
    "view.ambiguous": lambda m: leaf(m, (0, 3)).view(0, -1),
    "view.minus1_zero": lambda m: leaf(m, (4,)).view(-1, 0),
    "reshape.ambiguous": lambda m: leaf(m, (0, 3)).reshape(3, 0, -1),
    "flatten.order": lambda m: leaf(m, (2, 3, 4)).flatten(2, 1),
    "flatten.dim": lambda m: leaf(m, (2, 3)).flatten(0, 2),
    "flatten.0d_dim": lambda m: leaf(m, ()).flatten(0, 1),
    "squeeze.dim": lambda m: leaf(m, (2, 3)).squeeze(2),
    "squeeze.0d_dim": lambda m: leaf(m, ()).squeeze(1),
    "unsqueeze.dim": lambda m: leaf(m, (2, 3)).unsqueeze(3),
    "unsqueeze.neg": lambda m: leaf(m, (2, 3)).unsqueeze(-4),
    "unsqueeze.0d": lambda m: leaf(m, ()).unsqueeze(-2),
    "transpose.dim": lambda m: leaf(m, (2, 3)).transpose(0, 2),
    "transpose.0d": lambda m: leaf(m, ()).transpose(1, 0),
    "permute.len": lambda m: leaf(m, (2, 3)).permute(0),
    "permute.dup": lambda m: leaf(m, (2, 3)).permute(1, 1),
    "permute.dim": lambda m: leaf(m, (2, 3)).permute(0, 2),
    "permute.0d": lambda m: leaf(m, ()).permute(0),
    "expand.lead_minus1": lambda m: leaf(m, (2, 3)).expand(-1, 2, 3),
    "expand.bad": lambda m: leaf(m, (2, 3)).expand(2, 4),
    "expand.fewer": lambda m: leaf(m, (2, 3)).expand(3),
    "expand.fewer_double": lambda m: leaf(m, (2, 3)).expand(()),
    "expand.empty_to_2": lambda m: m.zeros(0, 1).expand(2, 5),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors(name):
    same(ERRORS[name], must_raise=True, quiet=True)


# ------------------------------------------------------------------ multi-output views

def _outputs_info(outs):
    return [(tuple(o.shape), type(o.grad_fn).__name__ if o.grad_fn is not None else None,
             o.output_nr, o.requires_grad, o._is_view()) for o in outs]


MULTI = {
    "split": lambda x: x.split(2),
    "split.sizes": lambda x: x.split([1, 0, 4], 0),
    "split.dim1": lambda x: x.split(2, 1),
    "chunk": lambda x: x.chunk(3),
    "chunk.uneven": lambda x: x.chunk(4, 1),
    "unbind": lambda x: x.unbind(1),
}


@pytest.mark.parametrize("name", list(MULTI))
def test_multi_output(name):
    def prog(m):
        x = leaf(m, (5, 3))
        outs = MULTI[name](x)
        info = _outputs_info(outs)
        # use only some outputs: the unused ones get zero gradient
        s = sum(((k + 1.5) * o).sum() for k, o in enumerate(outs) if k % 2 == 0)
        (g,) = m.autograd.grad(s, x, create_graph=True)
        return info, g.detach(), type(g.grad_fn).__name__ if g.grad_fn else None
    same(prog, rtol=1e-7, atol=0)


def test_split_views_share_memory_and_version():
    for m in MODS:
        y = leaf(m, (4, 2)) * 1
        a, b = y.split(2)
        assert a._base is y and b._base is y
        v = y._version
        with m.no_grad():
            y.add_(1)
        assert a._version == v + 1
        assert_same(y[:2].detach(), a.detach(), rtol=1e-7, atol=0)


def test_split_no_grad():
    for m in MODS:
        x = leaf(m, (4, 2))
        with m.no_grad():
            outs = x.split(3)
        assert [o.requires_grad for o in outs] == [True, True]
        assert [o.grad_fn for o in outs] == [None, None]


def test_split_int_tensor():
    same(lambda m: [o for o in I(m, [1, 2, 3, 4, 5]).split(2)], may_raise=True, quiet=True)


# ------------------------------------------------------------------ in-place variants

def _inplace_prog(f):
    def prog(m):
        x = leaf(m, (3, 4))
        s = leaf(m, (3, 4), seed=1)
        y = x * 2
        v0 = y._version
        r = f(m, y, s)
        assert r is y
        out = (y * s).sum()
        out.backward()
        return (y, y._version - v0, type(y.grad_fn).__name__, x.grad, s.grad)
    return prog


INPLACE = {
    "scatter_": lambda m, y, s: y.scatter_(1, I(m, [[0, 1], [2, 3], [3, 0]]), s),
    "scatter_.value": lambda m, y, s: y.scatter_(1, I(m, [[0, 1], [2, 3], [3, 0]]), 2.0),
    "scatter_add_": lambda m, y, s: y.scatter_add_(0, I(m, [[0, 0, 2, 1], [0, 0, 0, 0], [1, 2, 2, 2]]), s),
    "masked_fill_": lambda m, y, s: y.masked_fill_(s > 0, 0.25),
    "masked_fill_.tensor": lambda m, y, s: y.masked_fill_(s > 0, s[0, 0]),
}


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace(name):
    same(_inplace_prog(INPLACE[name]), may_raise=True, quiet=True)


def test_inplace_no_grad_values():
    def prog(m):
        y = leaf(m, (3, 4), requires_grad=False)
        y.scatter_(1, I(m, [[0], [1], [2]]), 5.0)
        y.scatter_add_(0, I(m, [[1, 1, 1, 1]]), m.ones(1, 4, dtype=m.float64))
        y.masked_fill_(y > 1, -1.0)
        return y, y._version, y.grad_fn
    same(prog, may_raise=True, quiet=True)


def test_int_inputs_have_no_grad_fn():
    def prog(m):
        x = I(m, [[1, 2, 3], [4, 5, 6]])
        return [x.repeat(2, 1), x.flip(0), x.roll(1), x.gather(1, I(m, [[0, 0]])),
                x.index_select(0, I(m, [1])), x.masked_fill(x > 2, 0), x.masked_select(x > 2),
                x.scatter(1, I(m, [[2]]), 9), x.movedim(0, 1), x.narrow(1, 0, 2), x.select(0, 1)]
    same(prog, may_raise=True, quiet=True)


# ------------------------------------------------------------------ x[key]

def T(v, dt="int64"):
    return ("T", v, dt)


def build_key(m, spec):
    if isinstance(spec, tuple) and spec and spec[0] == "T":
        return m.tensor(spec[1], dtype=getattr(m, spec[2]))
    if isinstance(spec, tuple):
        return tuple(build_key(m, s) for s in spec)
    if isinstance(spec, list):
        return [build_key(m, s) for s in spec]
    return spec


KEYS = [
    1, -1, 3, -4, slice(None), slice(1, 3), slice(None, None, -1), slice(None, None, 0),
    slice(-100, 100), slice(3, 1), None, Ellipsis, (), (None,), (Ellipsis, None), (None, Ellipsis),
    (1, 2), (1, 2, 3), (1, 2, 3, 4), (Ellipsis, Ellipsis), (Ellipsis, 1, Ellipsis),
    (slice(None), slice(None)), (slice(None), Ellipsis), True, False, (True, 1), (1, False),
    (None, True), T(2), T(-1), T(5), T(True, "bool"), T(False, "bool"), T([0, 2]), T([0, 5]),
    T([-3, -1]), T([[0], [2]]), T([], "int64"), T([True, False, True], "bool"),
    T([True, False], "bool"), T([1, 0, 1], "uint8"), T([0.0]), T([0], "float32"), T(1, "int32"),
    T(1, "uint8"), T(1, "int8"), T([1], "int16"), [0, 1], [[0, 1], [1, 2]], [True, False, True],
    [], [0, slice(None)], [0, None], [[0, 1]], [1.5, 0.0],
    (T([0, 1]), T([1, 2])), (T([0, 1]), T([1, 2, 3])), (T([0, 1]), slice(None), T([1, 2])),
    (slice(None), T([0, 1]), T([1, 2])), (T([0, 1]), None, T([1, 2])), (T([0, 1]), 1),
    (1, T([0, 1])), (1, slice(None), T([0, 1])), (Ellipsis, T([0, 1])), (None, T([[0, 1]]), None),
    (T([[True, False, True, True]] * 3, "bool"),),
    (slice(None), T([[True, False, True, True, False]] * 4, "bool")),
    (T([True, False, True], "bool"), T([1, 2])),
    (T([True, True, False], "bool"), slice(None), T([True, False, True, False, True], "bool")),
    T([[True, False]], "bool"), (0, T([True, False, True, True], "bool")),
    (slice(None, None, 2), T([1, 0])), (T(1), T([0, 3])), (T(1), slice(None), T(2)),
    (T([0]), T([9])), (T([0]), slice(None), T([9])), (1, slice(None), T([0, 7])),
    (None, 0, 9), (0, 0, 9), (1.5,), 1.5, "a", (slice(0.5, None),), {1: 2},
    (T([0, 1]), T([1])), (T([[0], [1]]), T([1, 2, 3])), (slice(1, None), T([1, 1, 0])),
    (T([2, 2, 0, 2]), slice(None, None, 2), None),
]


def _index_prog(spec, nc):
    def prog(m):
        x = leaf(m, (3, 4, 5))
        y = {None: x, "t": x.transpose(0, -1), "nl": x * 1.0}[nc]
        out = y[build_key(m, spec)]
        gname = type(out.grad_fn).__name__ if out.grad_fn is not None else None
        g = np.random.default_rng(1).standard_normal(tuple(out.shape))
        out.backward(m.tensor(g))
        return out, gname, out._is_view(), x.grad
    return prog


@pytest.mark.parametrize("nc", [None, "t", "nl"])
@pytest.mark.parametrize("i", range(len(KEYS)), ids=[repr(k)[:40] for k in KEYS])
def test_getitem(i, nc):
    same(_index_prog(KEYS[i], nc), may_raise=True, quiet=True)


@pytest.mark.parametrize("key", [0, (0,), slice(None), None, Ellipsis, (), True, False,
                                 T(0), T(True, "bool"), [0]], ids=repr)
def test_getitem_0d(key):
    def prog(m):
        x = leaf(m, ())
        out = x[build_key(m, key)]
        out.sum().backward()
        return out, type(out.grad_fn).__name__, x.grad
    same(prog, may_raise=True, quiet=True)


def test_getitem_double_backward():
    def prog(m):
        x = leaf(m, (4, 5))
        out = x[1:, m.tensor([0, 2, 2])] * x[0, :3]
        (g,) = m.autograd.grad(out.sum(), x, create_graph=True)
        (gg,) = m.autograd.grad((g * g).sum(), x)
        return g, gg
    same(prog, may_raise=True, quiet=True)


# ------------------------------------------------------------------ x[key] = v

def _set_prog(spec, value, base="nl"):
    def prog(m):
        x = leaf(m, (3, 4, 5))
        y = x * 1.0 if base == "nl" else x
        v = value(m) if callable(value) else value
        y[build_key(m, spec)] = v
        gname = (type(y.grad_fn).__name__, y.grad_fn.name()) if y.grad_fn is not None else None
        w = np.random.default_rng(2).standard_normal((3, 4, 5))
        (y * m.tensor(w)).sum().backward()
        vg = v.grad if isinstance(v, (torch.Tensor, ac.Tensor)) and v.requires_grad else None
        return y, gname, x.grad, vg, y._version
    return prog


def V(shape, dtype="float64"):
    return lambda m: leaf(m, shape, seed=3, dtype=dtype)


SETS = [
    (0, 2.5), ((0, slice(1, 3)), V((2, 5))), ((0, slice(1, 3)), V((5,))), ((0, slice(1, 3)), V(())),
    (T([0, 1]), V((4, 5))), (T([0, 0, 2]), V((3, 4, 5))), (T([0, 0]), 1.0),
    ((slice(1, None), T([0, 1])), V((2, 2, 5))), ((1, T([0, 1])), V((5,))), (Ellipsis, 1.0),
    (Ellipsis, V(())), (Ellipsis, V((4, 5))), ((), V((3, 4, 5))), (slice(None), V(())),
    (None, V((5,))), (True, 3.0), (False, 3.0), (T([[True, False, True, True]] * 3, "bool"), V(())),
    (T([[True, False, True, True]] * 3, "bool"), V((9, 5))), (0, V((3,))), (T([0, 1]), V((3,))),
    (0, V((1, 1, 4, 5))), (0, V((2, 4, 5))), (0, V((4, 5), "float32")), (0, [1.0] * 5), (0, "a"),
    (5, 1.0), (T([5]), 1.0), ((slice(None, None, 2), None, 1), V((2, 1, 5))),
    ((T([0, 2]), slice(None), T([1, 1])), V((2, 4))), (T(1), V((4, 5))),
]


@pytest.mark.parametrize("i", range(len(SETS)), ids=[repr(s[0])[:40] for s in SETS])
def test_setitem(i):
    key, value = SETS[i]
    same(_set_prog(key, value), may_raise=True, quiet=True)


@pytest.mark.parametrize("key", [0, T([0]), Ellipsis, slice(None), False, True, None, (),
                                 T([[[True] * 5] * 4] * 3, "bool")], ids=repr)
def test_setitem_leaf_requiring_grad(key):
    def prog(m):
        x = leaf(m, (3, 4, 5))
        x[build_key(m, key)] = 1.0
        return x._version
    same(prog, may_raise=True, quiet=True)


def test_setitem_leaf_no_grad_mode():
    def prog(m):
        x = leaf(m, (3, 4))
        with m.no_grad():
            x[0] = 2.0
            x[m.tensor([1, 1])] = m.tensor([5.0, 6.0, 7.0, 8.0], dtype=m.float64)
        return x, x._version
    same(prog, may_raise=True, quiet=True)


def test_setitem_view_of_nonleaf():
    def prog(m):
        x = leaf(m, (3, 4))
        v = leaf(m, (2,), seed=4)
        y = x * 2
        z = y[1:]
        z[0, ::2] = v
        zname = type(z.grad_fn).__name__
        (y * m.tensor(np.arange(12.0).reshape(3, 4))).sum().backward()
        return (y, type(y.grad_fn).__name__, y.grad_fn.name(), zname, x.grad, v.grad, z._version)
    same(prog, may_raise=True, quiet=True)


def test_setitem_int_target():
    def prog(m):
        x = I(m, [1, 2, 3])
        x[0] = 2.7
        x[m.tensor([1, 2])] = I(m, [7, 8])
        return x
    same(prog, may_raise=True, quiet=True)


def test_setitem_double_backward():
    def prog(m):
        x = leaf(m, (3, 4))
        v = leaf(m, (4,), seed=1)
        y = x * x
        y[1] = v * v
        y[m.tensor([0, 2])] = v
        (gx, gv) = m.autograd.grad((y * y).sum(), (x, v), create_graph=True)
        gg = m.autograd.grad((gx.sum() + gv.sum()), (x, v))
        return gx, gv, gg
    same(prog, may_raise=True, quiet=True)


# ------------------------------------------------------------------ view / reshape family

EDGES = {
    "view.0d": lambda m: leaf(m, ()).view(()),
    "view.0d_minus1": lambda m: leaf(m, ()).view(-1),
    "view.0d_11": lambda m: leaf(m, ()).view(1, 1),
    "view.empty": lambda m: leaf(m, (0, 3)).view(-1),
    "view.empty_infer": lambda m: leaf(m, (0, 3)).view(-1, 3),
    "view.empty_3m1": lambda m: leaf(m, (0, 3)).view(3, -1),
    "view.list": lambda m: leaf(m, (2, 3)).view([3, 2]),
    "view.size": lambda m: leaf(m, (2, 3)).view(m.Size([6])),
    "reshape.same": lambda m: leaf(m, (2, 3)).reshape(2, 3),
    "reshape.noncontig": lambda m: leaf(m, (2, 3)).t().reshape(-1),
    "reshape.fn": lambda m: m.reshape(leaf(m, (2, 3)), (-1,)),
    "reshape.alias_step": lambda m: leaf(m, (4, 3, 2))[::2].reshape(2, 6),
    "reshape.alias_t": lambda m: leaf(m, (4, 3, 2)).transpose(0, 1).reshape(3, 4, 2),
    "reshape.unit_dim": lambda m: leaf(m, (4, 3, 2))[:, :, None].reshape(4, 3, 2),
    "flatten.alias": lambda m: leaf(m, (4, 3, 2))[::2].flatten(1),
    "flatten.0d": lambda m: leaf(m, ()).flatten(),
    "flatten.same": lambda m: leaf(m, (2, 3)).flatten(1, 1),
    "flatten.1d": lambda m: leaf(m, (3,)).flatten(),
    "flatten.empty": lambda m: leaf(m, (0, 3)).flatten(),
    "flatten.noncontig": lambda m: leaf(m, (2, 3, 4)).transpose(0, 1).flatten(),
    "squeeze.0d": lambda m: leaf(m, ()).squeeze(),
    "squeeze.0d_dim": lambda m: leaf(m, ()).squeeze(-1),
    "squeeze.non1": lambda m: leaf(m, (2, 3)).squeeze(0),
    "squeeze.dims": lambda m: leaf(m, (1, 3, 1)).squeeze([0, -1]),
    "squeeze.dims_empty": lambda m: leaf(m, (1, 3)).squeeze(()),
    "squeeze.empty": lambda m: leaf(m, (0, 1)).squeeze(),
    "unsqueeze.0d": lambda m: leaf(m, ()).unsqueeze(-1),
    "unsqueeze.neg": lambda m: leaf(m, (2, 3)).unsqueeze(-3),
    "transpose.0d": lambda m: leaf(m, ()).transpose(0, -1),
    "transpose.same": lambda m: leaf(m, (2, 3)).transpose(1, 1),
    "permute.0d": lambda m: leaf(m, ()).permute(()),
    "permute.neg": lambda m: leaf(m, (2, 3, 4)).permute(-1, -3, -2),
    "permute.identity": lambda m: leaf(m, (2, 3)).permute(0, 1),
    "expand.0d": lambda m: leaf(m, ()).expand(2, 3),
    "expand.0d_empty": lambda m: leaf(m, ()).expand(()),
    "expand.zero": lambda m: leaf(m, (1, 3)).expand(0, 3),
    "expand.empty": lambda m: leaf(m, (0, 1)).expand(0, 5),
    "expand.same": lambda m: leaf(m, (2, 3)).expand(2, 3),
    "contiguous": lambda m: leaf(m, (2, 3)).contiguous(),
    "contiguous.t": lambda m: leaf(m, (2, 3)).t().contiguous(),
    "mT": lambda m: leaf(m, (2, 3, 4)).mT,
    "clone.0d": lambda m: leaf(m, ()).clone(),
    "unbind.1d": lambda m: leaf(m, (3,)).unbind(),
}


@pytest.mark.parametrize("name", list(EDGES))
def test_view_edges(name):
    def prog(m):
        out = EDGES[name](m)
        gname = type(out.grad_fn).__name__ if not isinstance(out, tuple) and out.grad_fn else None
        return out, gname
    same(prog, may_raise=True, quiet=True)
