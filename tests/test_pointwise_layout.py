"""The layout of an elementwise op's result is PyTorch's (Note [Pointwise output
layout], autograd_core/_core/_inplace.pxi): .stride() and .is_contiguous() of unary,
binary and ternary ops and comparisons, compared with torch over a grid of operand
layouts (contiguous, transposed, permuted, expanded, sliced with steps, size-1 dims with
odd strides, 0-d, empty, broadcast mixes, mixed dtypes). A layout decides whether a
later view() works (fuzzer seed 507826: a view(-1) of an addcmul over an expanded input).

Each test runs one op over many layouts and reports every mismatch at once."""

import itertools

import pytest
import torch

import autograd_core


# ------------------------------------------------------------------ operand layouts
# Each recipe builds, in either module, a tensor of values that are distinct enough for
# every op below (no zeros for div/remainder), with a particular layout; all broadcast
# to (2, 3, 4).

def _base(m, n, dt):
    return (m.arange(n, dtype=m.float64) * 0.37 + 0.55).to(dt)


LAYOUTS = {
    "contiguous": lambda m, dt: _base(m, 24, dt).reshape(2, 3, 4),
    "transposed": lambda m, dt: _base(m, 24, dt).reshape(4, 3, 2).transpose(0, 2),
    "permuted": lambda m, dt: _base(m, 24, dt).reshape(3, 4, 2).permute(2, 0, 1),
    "permuted2": lambda m, dt: _base(m, 24, dt).reshape(4, 2, 3).permute(1, 2, 0),
    "expanded0": lambda m, dt: _base(m, 12, dt).reshape(1, 3, 4).expand(2, 3, 4),
    "expanded1": lambda m, dt: _base(m, 8, dt).reshape(2, 1, 4).expand(2, 3, 4),
    "expanded_t": lambda m, dt: _base(m, 8, dt).reshape(4, 1, 2).expand(4, 3, 2)
                                .transpose(0, 2),
    "stepped": lambda m, dt: _base(m, 48, dt).reshape(2, 3, 8)[:, :, ::2],
    "stepped_t": lambda m, dt: _base(m, 96, dt).reshape(4, 3, 8)[:, :, 1::4].transpose(0, 2),
    "row": lambda m, dt: _base(m, 4, dt),
    "col": lambda m, dt: _base(m, 3, dt).reshape(3, 1),
    "mid1": lambda m, dt: _base(m, 8, dt).reshape(2, 4).unsqueeze(1),
    "odd1": lambda m, dt: _base(m, 8, dt).reshape(4, 2)[:, :1].t(),     # (1, 4), (1, 2)
    "odd1_dense": lambda m, dt: _base(m, 3, dt).reshape(1, 3).t(),      # (3, 1), (1, 3)
    "t_mat": lambda m, dt: _base(m, 12, dt).reshape(4, 3).t(),
    "scalar0d": lambda m, dt: _base(m, 1, dt).reshape(()),
}

# a few layouts for the ternary grid (cubes of the whole set would be slow)
TERNARY_LAYOUTS = ["contiguous", "transposed", "permuted", "expanded0", "expanded_t",
                   "stepped", "col", "t_mat", "scalar0d"]

# empty results: (2, 0, 3) in several layouts, and operands broadcasting to it. (Made
# with torch's strides through empty_strided: the layout of an empty result of a
# creation function or view is another matter.)

def _empty_like_torch(make_torch):
    def recipe(m, dt):
        t = make_torch()
        return m.empty_strided(tuple(t.shape), t.stride(), dtype=dt)
    return recipe


EMPTY_LAYOUTS = {
    "e_contiguous": _empty_like_torch(lambda: torch.ones(2, 0, 3)),
    "e_permuted": _empty_like_torch(lambda: torch.ones(3, 2, 0).permute(1, 2, 0)),
    "e_transposed": _empty_like_torch(lambda: torch.ones(3, 0, 2).transpose(0, 2)),
    "e_strided": lambda m, dt: m.empty_strided((2, 0, 3), (1, 7, 2), dtype=dt),
    "e_row": lambda m, dt: _base(m, 3, dt),
    "e_mid": _empty_like_torch(lambda: torch.ones(2, 0, 1)),
}

F32, F64, I64 = "float32", "float64", "int64"


def _dt(m, name):
    return getattr(m, name)


def _describe(t):
    return (tuple(t.shape), t.stride(), t.is_contiguous())


def _mismatches(fn, operand_sets, dtypes):
    """Run fn over every combination of operands under both modules; the cases whose
    shape, strides, contiguity or values differ."""
    bad = []
    for names in operand_sets:
        for dts in dtypes:
            def build(m):
                return [LAYOUTS.get(n, EMPTY_LAYOUTS.get(n))(m, _dt(m, d))
                        for n, d in zip(names, dts)]
            try:
                want = fn(torch, *build(torch))
            except RuntimeError:
                continue           # (an op/dtype combination torch refuses)
            got = fn(autograd_core, *build(autograd_core))
            if _describe(want) != _describe(got):
                bad.append((names, dts, _describe(want), _describe(got)))
            elif want.numel() and not torch.allclose(
                    torch.as_tensor(got.detach().numpy()).to(want.dtype), want.detach(),
                    rtol=1e-5, atol=1e-6, equal_nan=True):
                bad.append((names, dts, "values"))
    return bad


def _pairs(names):
    return list(itertools.product(names, repeat=2))


# ------------------------------------------------------------------ the ops

UNARY = {
    "exp": lambda m, x: x.exp(),
    "neg": lambda m, x: -x,
    "abs": lambda m, x: x.abs(),
    "sigmoid": lambda m, x: m.sigmoid(x),
    "floor": lambda m, x: x.floor(),
    "sign": lambda m, x: x.sign(),
    "isnan": lambda m, x: x.isnan(),
    "relu": lambda m, x: m.relu(x),
    "pow2": lambda m, x: x.pow(2),
    "pow_half": lambda m, x: x ** 0.5,
    "logical_not": lambda m, x: m.logical_not(x),
    "clamp_numbers": lambda m, x: x.clamp(1.0, 5.0),
    "clamp_min_number": lambda m, x: m.clamp_min(x, 2.0),
    "add_number": lambda m, x: x + 1,
    "rsub_number": lambda m, x: 1 - x,
    "mul_number": lambda m, x: x * 2.5,
    "div_number": lambda m, x: x / 3,
    "lt_number": lambda m, x: x < 3,
    "rpow": lambda m, x: 2 ** x,
    "frac": lambda m, x: x.frac(),
    "nan_to_num": lambda m, x: x.nan_to_num(),
    "isinf": lambda m, x: x.isinf(),
    "isfinite": lambda m, x: x.isfinite(),
    "isreal": lambda m, x: x.isreal(),
    "round_decimals": lambda m, x: x.round(decimals=1),
    "to_other_dtype": lambda m, x: x.to(m.float64) if x.dtype != m.float64 else x.to(m.float32),
    "clone": lambda m, x: x.clone(),
    "masked_fill": lambda m, x: x.masked_fill(x > 2, 0),
    "heaviside": lambda m, x: m.heaviside(x, m.ones((), dtype=x.dtype)),
}

ACTIVATIONS = {
    "gelu": lambda m, x: m.nn.functional.gelu(x),
    "leaky_relu": lambda m, x: m.nn.functional.leaky_relu(x, 0.1),
    "softplus": lambda m, x: m.nn.functional.softplus(x),
    "elu": lambda m, x: m.nn.functional.elu(x),
    "hardtanh": lambda m, x: m.nn.functional.hardtanh(x, 1.0, 4.0),
    "silu": lambda m, x: m.nn.functional.silu(x),
    "threshold": lambda m, x: m.nn.functional.threshold(x, 2.0, 0.0),
    "hardshrink": lambda m, x: m.nn.functional.hardshrink(x, 1.0),
    "softshrink": lambda m, x: m.nn.functional.softshrink(x, 1.0),
}


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_layouts(op):
    fn = UNARY[op]
    names = [[n] for n in list(LAYOUTS) + list(EMPTY_LAYOUTS)]
    dtypes = [(F32,), (F64,)] + ([(I64,)] if op not in ("frac",) else [])
    assert _mismatches(fn, names, dtypes) == []


@pytest.mark.parametrize("op", sorted(ACTIVATIONS))
def test_activation_layouts(op):
    names = [[n] for n in list(LAYOUTS) + list(EMPTY_LAYOUTS)]
    assert _mismatches(ACTIVATIONS[op], names, [(F32,), (F64,)]) == []


BINARY = {
    "add": lambda m, a, b: a + b,
    "sub_alpha": lambda m, a, b: m.sub(a, b, alpha=2),
    "mul": lambda m, a, b: a * b,
    "div": lambda m, a, b: a / b,
    "div_floor": lambda m, a, b: m.div(a, b, rounding_mode="floor"),
    "maximum": lambda m, a, b: m.maximum(a, b),
    "atan2": lambda m, a, b: m.atan2(a, b),
    "pow": lambda m, a, b: m.pow(a, b),
    "remainder": lambda m, a, b: m.remainder(a, b),
    "eq": lambda m, a, b: a == b,
    "lt": lambda m, a, b: a < b,
    "logical_and": lambda m, a, b: m.logical_and(a, b),
    "clamp_min_tensor": lambda m, a, b: m.clamp_min(a, b),
    "lerp_number": lambda m, a, b: m.lerp(a, b, 0.25),
}

MIXED = [(F32, F32), (F64, F32), (F32, F64), (I64, F32)]


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_layouts(op):
    fn = BINARY[op]
    dtypes = [(F32, F32), (F64, F64)] if op == "lerp_number" else MIXED
    assert _mismatches(fn, _pairs(LAYOUTS), dtypes) == []


@pytest.mark.parametrize("op", ["add", "mul", "lt", "maximum"])
def test_binary_empty_layouts(op):
    assert _mismatches(BINARY[op], _pairs(EMPTY_LAYOUTS), [(F32, F32), (F64, F32)]) == []


def test_bitwise_layouts():
    # (the casts to int are layout-preserving copies themselves: a dense operand keeps
    # its strides, another becomes dense in its order)
    def fn(m, a, b):
        return m.bitwise_xor((a * 4).to(m.int64), (b * 4).to(m.int32))
    assert _mismatches(fn, _pairs(LAYOUTS), [(F64, F64)]) == []


TERNARY = {
    "addcmul": lambda m, a, b, c: m.addcmul(a, b, c, value=0.5),
    "addcdiv": lambda m, a, b, c: m.addcdiv(a, b, c, value=2),
    "lerp_tensor": lambda m, a, b, c: m.lerp(a, b, c),
    "where": lambda m, a, b, c: m.where(a > 2, b, c),
    "where_number": lambda m, a, b, c: m.where(a > 2, b, 0.5),
    "clamp_tensors": lambda m, a, b, c: m.clamp(a, b, c),
}


@pytest.mark.parametrize("op", sorted(TERNARY))
def test_ternary_layouts(op):
    fn = TERNARY[op]
    dtypes = ([(F64, F64, F64), (F32, F32, F32)] if op == "lerp_tensor" else
              [(F32, F32, F32), (F32, F64, F32), (F64, F32, F32)])
    assert _mismatches(fn, list(itertools.product(TERNARY_LAYOUTS, repeat=3)), dtypes) == []


def test_channels_last_operands():
    """All operands channels-last: the result is channels-last (fast_set_up)."""
    def prog(m):
        a = (m.arange(120, dtype=m.float32) * 0.5).reshape(2, 3, 4, 5)
        cl = a.contiguous(memory_format=m.channels_last)
        return [_describe(r) for r in (cl + cl, cl * 2, cl.exp(), cl + a, m.addcmul(cl, cl, cl))]
    assert prog(autograd_core) == prog(torch)


def test_stated_mismatches():
    """The two cases of the issue, and the seed-507826 layout."""
    def prog(m):
        a = (m.ones(3, 1, 4).expand(3, 5, 4).transpose(0, 2) + 1).stride()
        b = (m.ones(2, 3, 4).permute(2, 0, 1)[:, :, :1] + 1).stride()
        t1 = m.ones(4, 3).expand(2, 4, 3)
        c = m.addcmul(t1, t1, m.ones(1, dtype=m.float64), value=0.5).stride()
        d = (t1 * t1).stride()
        return a, b, c, d
    assert prog(autograd_core) == prog(torch) == ((1, 4, 20), (1, 4, 4), (12, 3, 1),
                                                  (12, 3, 1))


def test_preserving_copy_of_a_tensor_that_is_not_dense():
    """clone/empty_like of a tensor that is not dense: dense in its strides' order
    (infer_dense_strides), as the pointwise layout of one operand."""
    def prog(m):
        x = m.arange(48.0).reshape(2, 3, 8).transpose(0, 2)[::2]
        y = m.arange(24.0).reshape(1, 2, 3, 4).expand(2, 2, 3, 4).permute(3, 1, 0, 2)
        return [_describe(f(s)) for s in (x, y)
                for f in (lambda s: s.clone(), m.empty_like, m.zeros_like,
                          lambda s: s.to(m.float32), lambda s: s.exp())]
    assert prog(autograd_core) == prog(torch)


def test_gradient_layouts_through_pointwise_ops():
    """A gradient computed by pointwise formulas has PyTorch's layout where it shows:
    autograd.grad with respect to non-contiguous views."""
    def prog(m):
        base = (m.arange(24, dtype=m.float64) * 0.1 + 0.3).reshape(4, 3, 2)
        base.requires_grad_(True)
        xt = base.transpose(0, 2)                       # (2, 3, 4), not contiguous
        w = (m.arange(12, dtype=m.float64) * 0.2 + 0.1).reshape(3, 4)
        e = m.ones(4, 1, 2, dtype=m.float64).expand(4, 3, 2).transpose(0, 2)
        outs = [xt * w, m.tanh(xt) * e, m.sigmoid(xt + e), m.addcmul(xt, xt, w),
                m.where(xt > 1, xt, w)]
        grads = m.autograd.grad(sum(o.sum() for o in outs), [xt])
        r = [_describe(g) for g in grads]
        g2 = m.autograd.grad((xt.exp() * xt).sum(), [xt])[0]
        return r + [_describe(g2), _describe(m.autograd.grad((xt * e).sum(), [xt])[0])]
    assert prog(autograd_core) == prog(torch)
