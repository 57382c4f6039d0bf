"""take, put and put_ against PyTorch: values (row-major flat addressing, negative
indices, non-contiguous inputs, duplicates with and without accumulate, dtypes),
gradients and their nodes (TakeBackward0, PutBackward0) to second order, in-place put_
on non-leaves and views, the errors (types and messages), and gradcheck."""
import numpy as np
import pytest
import torch

import autograd_core as ac
from _diff import Raised, assert_same, same, same_error

MODS = (torch, ac)


def leaf(m, shape, seed=0, dtype="float64", requires_grad=True):
    a = np.random.default_rng(seed).standard_normal(shape)
    return m.tensor(a, dtype=getattr(m, dtype), requires_grad=requires_grad)


def I(m, v, dt="int64"):
    return m.tensor(v, dtype=getattr(m, dt))


def gname(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None


# ------------------------------------------------------------------ values and gradients

def _base(m, shape, nc):
    """A leaf x and y of the given shape: x itself, or a non-contiguous view of x."""
    if nc is None:
        x = leaf(m, shape)
        return x, x
    if nc == "t":
        x = leaf(m, shape[::-1])
        return x, x.transpose(0, -1)
    x = leaf(m, (2 * shape[0],) + shape[1:])
    return x, x[::2]


TAKE = {
    "flat": ((3, 4), lambda m: I(m, [0, 5, 11])),
    "negative": ((3, 4), lambda m: I(m, [-1, -12, 3])),
    "repeated": ((3, 4), lambda m: I(m, [2, 2, 2, 7])),
    "2d_index": ((3, 4), lambda m: I(m, [[0, 1], [10, 1]])),
    "0d_index": ((3, 4), lambda m: I(m, 6)),
    "empty_index": ((3, 4), lambda m: I(m, [], "int64")),
    "0d_self": ((), lambda m: I(m, [0, 0, -1])),
    "1d": ((5,), lambda m: I(m, [4, 0])),
}


@pytest.mark.parametrize("nc", [None, "t", "step"])
@pytest.mark.parametrize("name", list(TAKE))
def test_take(name, nc):
    shape, index = TAKE[name]
    if nc and len(shape) < 2:
        pytest.skip("needs two dims")

    def prog(m):
        x, y = _base(m, shape, nc)
        out = m.take(y, index(m)) if nc != "t" else y.take(index(m))
        g = np.random.default_rng(1).standard_normal(tuple(out.shape))
        out.backward(m.tensor(g))
        return out, gname(out), x.grad, out.grad_fn.next_functions[0][0] is not None
    same(prog)


PUT = {
    "write": ((3, 4), lambda m: I(m, [0, 5, 11]), (3,), False),
    "accumulate": ((3, 4), lambda m: I(m, [0, 5, 11]), (3,), True),
    "repeated_accumulate": ((3, 4), lambda m: I(m, [1, 1, -11, 4]), (4,), True),
    "negative": ((3, 4), lambda m: I(m, [-1, -2]), (2,), False),
    "source_2d": ((3, 4), lambda m: I(m, [2, 3, 4, 9]), (2, 2), False),
    "index_2d": ((3, 4), lambda m: I(m, [[2, 3], [4, 9]]), (4,), True),
    "0d_index": ((3, 4), lambda m: I(m, 7), (1,), False),
    "0d_self": ((), lambda m: I(m, [0]), (), False),
    "empty": ((3, 4), lambda m: I(m, [], "int64"), (0,), False),
}


@pytest.mark.parametrize("nc", [None, "t"])
@pytest.mark.parametrize("name", list(PUT))
def test_put(name, nc):
    shape, index, sshape, acc = PUT[name]
    if nc and len(shape) < 2:
        pytest.skip("needs two dims")

    def prog(m):
        x, y = _base(m, shape, nc)
        s = leaf(m, sshape, seed=2)
        out = y.put(index(m), s, accumulate=acc) if nc else m.put(y, index(m), s, acc)
        g = np.random.default_rng(1).standard_normal(tuple(out.shape))
        out.backward(m.tensor(g))
        return out, gname(out), x.grad, s.grad, out.grad_fn._saved_accumulate
    same(prog)


def test_put_repeated_write_gives_every_source_a_gradient():
    # without accumulate only one write lands, but PyTorch's source gradient is
    # grad.take(index) for every element
    def prog(m):
        x = leaf(m, (2, 3))
        s = leaf(m, (3,), seed=2)
        out = x.put(I(m, [4, 4, 0]), s)
        out.backward(m.tensor(np.arange(6.0).reshape(2, 3)))
        return x.grad, s.grad
    same(prog)


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "float32", "uint8"])
def test_dtypes(dtype):
    def prog(m):
        x = m.tensor([[1, 0, 3], [4, 5, 0]], dtype=getattr(m, dtype))
        s = m.tensor([1, 1, 0], dtype=getattr(m, dtype))
        return (x.take(I(m, [5, 0, -1])), x.put(I(m, [1, 1, 2]), s),
                x.put(I(m, [1, 1, 2]), s, accumulate=True), x.take(I(m, [1])).requires_grad)
    same(prog)


# ------------------------------------------------------------------ in place

def test_put_inplace_on_nonleaf():
    def prog(m):
        x = leaf(m, (3, 4))
        s = leaf(m, (2,), seed=2)
        y = x * 2
        v0 = y._version
        r = y.put_(I(m, [1, 7]), s, accumulate=True)
        out = (y * y).sum()
        out.backward()
        return r is y, y, gname(y), y._version - v0, x.grad, s.grad
    same(prog)


def test_put_inplace_through_view():
    def prog(m):
        x = leaf(m, (3, 4))
        s = leaf(m, (2,), seed=2)
        y = x * 2
        z = y[1:]
        z.put_(I(m, [0, 5]), s)
        (y * m.tensor(np.arange(12.0).reshape(3, 4))).sum().backward()
        return y, gname(y), gname(z), x.grad, s.grad, z._version
    same(prog)


def test_put_inplace_no_grad_and_leaf():
    def prog(m):
        x = leaf(m, (2, 3))
        with m.no_grad():
            x.put_(I(m, [0, -1]), m.tensor([7.0, 8.0], dtype=m.float64))
        y = leaf(m, (2, 3), requires_grad=False)
        y.put_(I(m, [1]), m.tensor([3.0], dtype=m.float64), accumulate=True)
        return x, x._version, y, y._version, y.grad_fn
    same(prog)


def test_put_inplace_leaf_requiring_grad_raises():
    same(lambda m: leaf(m, (2, 3)).put_(I(m, [0]), leaf(m, (1,))), may_raise=True)


def test_put_inplace_on_expanded_raises():
    same(lambda m: m.zeros(3).expand(2, 3).put_(I(m, [0]), m.ones(1)), may_raise=True)


# ------------------------------------------------------------------ second order

def test_double_backward_nodes_and_values():
    def prog(m):
        x = leaf(m, (3, 4))
        s = leaf(m, (3,), seed=2)
        idx = I(m, [0, 5, 5])
        out = x.take(idx) * s + x.put(idx, s * s, accumulate=True).take(I(m, [5, 1, 0]))
        w = leaf(m, (3,), seed=3)
        gx, gs = m.autograd.grad(out, (x, s), w, create_graph=True)
        names = (gname(gx), gname(gs))
        gg = m.autograd.grad((gx * gx).sum() + (gs * gs).sum(), (x, s, w), allow_unused=True)
        return gx, gs, names, gg
    same(prog)


def test_take_grad_is_put():
    def prog(m):
        x = leaf(m, (2, 3))
        w = leaf(m, (2,), seed=1)
        (g,) = m.autograd.grad(x.take(I(m, [4, 4])), x, w, create_graph=True)
        return g, gname(g)
    same(prog)


@pytest.mark.parametrize("acc", [False, True])
def test_put_grads_to_third_order(acc):
    def prog(m):
        x = leaf(m, (2, 3))
        s = leaf(m, (2,), seed=2)
        w = leaf(m, (2, 3), seed=3)
        out = x.put(I(m, [1, 3]), s, accumulate=acc)
        gx, gs = m.autograd.grad(out, (x, s), w, create_graph=True)
        h = m.autograd.grad((gs * gs).sum() + (gx * w).sum(), (w,), create_graph=True)[0]
        return gx, gs, gname(gs), h, gname(h)
    same(prog)


def test_gradcheck():
    for m in MODS:
        x = leaf(m, (3, 4))
        s = leaf(m, (3,), seed=2)
        idx = I(m, [0, 5, -1])
        assert m.autograd.gradcheck(lambda a: a.take(idx), (x,))
        assert m.autograd.gradcheck(lambda a, b: a.put(idx, b), (x, s))
        assert m.autograd.gradcheck(lambda a, b: a.put(idx, b, accumulate=True), (x, s))
        assert m.autograd.gradgradcheck(lambda a, b: a.put(idx, b * b).take(idx) * b, (x, s))


# ------------------------------------------------------------------ errors

ERRORS = {
    "take.int32": lambda m: leaf(m, (2, 3)).take(I(m, [0], "int32")),
    "take.float": lambda m: leaf(m, (2, 3)).take(m.tensor([0.0])),
    "take.uint8": lambda m: leaf(m, (2, 3)).take(I(m, [0], "uint8")),
    "take.oob": lambda m: leaf(m, (2, 3)).take(I(m, [1, 6])),
    "take.oob_neg": lambda m: leaf(m, (2, 3)).take(I(m, [-7])),
    "take.empty_self": lambda m: m.zeros(0).take(I(m, [0])),
    "take.list": lambda m: leaf(m, (2, 3)).take([0]),
    "take.fn_list": lambda m: m.take(leaf(m, (2, 3)), [0]),
    "put.int32": lambda m: leaf(m, (2, 3)).put(I(m, [0], "int32"), leaf(m, (1,))),
    "put.dtype": lambda m: leaf(m, (2, 3)).put(I(m, [0]), leaf(m, (1,), dtype="float32")),
    "put.numel": lambda m: leaf(m, (2, 3)).put(I(m, [0, 1]), leaf(m, (3,))),
    "put.oob": lambda m: leaf(m, (2, 3)).put(I(m, [0, 6]), leaf(m, (2,))),
    "put.oob_neg": lambda m: leaf(m, (2, 3)).put(I(m, [-7]), leaf(m, (1,))),
    "put.empty_self": lambda m: m.zeros(0).put(I(m, [0]), m.ones(1)),
    "put.dtype_before_numel": lambda m: leaf(m, (2, 3)).put(I(m, [0]), leaf(m, (3,), dtype="float32")),
    "put.source_number": lambda m: leaf(m, (2, 3)).put(I(m, [0]), 1.0),
    "put.fn_source_number": lambda m: m.put(leaf(m, (2, 3)), I(m, [0]), 1.0),
    "put.accumulate_int": lambda m: leaf(m, (2, 3)).put(I(m, [0]), leaf(m, (1,)), 1),
    "put_.int32": lambda m: (leaf(m, (2, 3)) * 1).put_(I(m, [0], "int32"), leaf(m, (1,))),
    "put_.numel": lambda m: (leaf(m, (2, 3)) * 1).put_(I(m, [0, 1]), leaf(m, (1,))),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors(name):
    results = []
    for m in MODS:
        try:
            ERRORS[name](m)
            results.append(None)
        except Exception as e:  # noqa: BLE001
            results.append(Raised(e).key())
    assert results[0] is not None, "torch does not raise: not an error case"
    assert_same(results[0], results[1])


# ------------------------------------------------------------------ x[i0, i1, ...]: one index per dim

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_index_tensor_per_dim_values_and_gradients(dtype):
    """x[i0, i1] and x[i0, i1, i2] with one int64 index tensor per dim (a loss picking
    logp[rows, labels]): values, negative indices, a repeated pair whose gradients add
    up, a transposed input, second-order gradients and the node's name."""
    def prog(m):
        x = leaf(m, (6, 5), dtype=dtype)
        r, c = I(m, [0, 2, -1, 2, 2]), I(m, [4, 4, 0, -1, 1])
        y = x[r, c]
        g = m.autograd.grad((y * y).sum(), x, create_graph=True)[0]
        gg = m.autograd.grad((g * g).sum(), x)[0]
        xt = leaf(m, (5, 6), seed=1, dtype=dtype).t()
        yt = xt[r, c]
        yt.backward(m.arange(5, dtype=getattr(m, dtype)))
        x3 = leaf(m, (3, 4, 2), seed=2, dtype=dtype)
        y3 = x3[I(m, [2, 0, 2]), I(m, [3, -4, 3]), I(m, [1, 0, 1])]
        y3.sum().backward()
        return y, gname(y), g, gg, yt, yt.is_contiguous(), y3, x3.grad
    same(prog)


def test_index_tensor_per_dim_empty_and_no_grad():
    def prog(m):
        x = leaf(m, (4, 3))
        e = x[I(m, []), I(m, [])]
        with m.no_grad():
            v = x[I(m, [3, 0]), I(m, [2, 2])]
        return e, e.shape, gname(e), v, v.requires_grad
    same(prog)


@pytest.mark.parametrize("key", [([0, 4], [0, 1]), ([0, 1], [2, 3]), ([-5, 0], [0, 0]),
                                 ([0, 1, 2], [0, 1]), ([0, 9], [7, 1])])
def test_index_tensor_per_dim_errors(key):
    """Out-of-bounds indices (the first bad one named, as PyTorch's check finds it) and
    index tensors that do not broadcast."""
    def fn(m):
        return leaf(m, (4, 3))[I(m, key[0]), I(m, key[1])]
    same_error(fn)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64"])
@pytest.mark.parametrize("alpha", [300, -2.7, 2.7, float("inf"), float("-inf"), float("nan"),
                                   1e30, True])
def test_index_add_alpha_read_in_self_integer_type(dtype, alpha):
    # the kernel reads alpha in self's type: floats truncated, values the type cannot
    # hold are PyTorch's overflow error (not a numpy or Python OverflowError)
    def prog(m):
        self = m.zeros(3, dtype=getattr(m, dtype))
        return self.index_add(0, m.tensor([0, 2]), m.tensor([1, 2], dtype=getattr(m, dtype)),
                              alpha=alpha)
    same(prog, may_raise=True)


@pytest.mark.parametrize("call", [
    "x.index_put({i}, v)", "m.index_put(x, {i}, v)", "x.index_put_({i}, v)", "m.index_put_(x, {i}, v)",
    "x.index_put({i}, 1.0)", "m.index_put(x, {i}, v, 2)", "x.index_put({i}, v, accumulate=2)"])
@pytest.mark.parametrize("key", ["(None,)", "[I(m, [0]), None]", "(I(m, [0]), 1)", "I(m, [0])", "5",
                                 "(I(m, [0]),)"])
@pytest.mark.parametrize("dtype", ["float32", "uint16", "complex64"])
def test_index_put_argument_errors_method_and_function(call, key, dtype):
    """PyTorch's parser checks index_put's indices (a tuple of Tensors, no None) before
    values, accumulate and the dtype; the method numbers its arguments from 0."""
    def fn(m):
        x = m.zeros(3, dtype=getattr(m, dtype))
        v = m.ones(1, dtype=getattr(m, dtype))
        return eval(call.format(i=key), {"m": m, "x": x, "v": v, "I": I})
    if key == "(I(m, [0]),)" and "2" not in call and "1.0" not in call:
        same(fn, may_raise=True)    # valid: computes (or refuses the dtype) as PyTorch
    else:
        same_error(fn)
