"""The last complex value forms of the op table (issue 27), compared with PyTorch:
conv_tbc and affine_grid_generator on complex tensors (values; PyTorch has no complex
derivative for either, so both refuse a complex input that requires grad), cummax/cummin
on empty and 0-d complex tensors (which PyTorch computes before its dtype check),
scatter of a complex number into a complex tensor, and index_fill's refusal of a complex
number for a real tensor. Also, found on the way and checked for real dtypes too:
conv_tbc's errors for a weight of another dtype and for an input whose time and batch
dims do not merge (PyTorch's view of a slice), and affine_grid_generator on an empty batch.
"""
import warnings

import numpy as np
import pytest

from _diff import Raised, catch, same, same_error, warns
import autograd_core
import torch


def _z(mod, *shape, seed=0, dtype="complex64"):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return mod.tensor(a)


_DTYPES = ["complex64", "complex128"]


def _both_refuse_autograd(prog, op):
    """PyTorch has no complex derivative for op (RuntimeError "<op> does not support
    automatic differentiation for outputs with complex dtype."); autograd_core refuses
    too, with the same error (Note [Complex outputs PyTorch does not differentiate])."""
    want = catch(prog, torch, quiet=True)
    assert isinstance(want, Raised) and "does not support automatic differentiation" in want.message
    got = catch(prog, autograd_core, quiet=True)
    assert isinstance(got, Raised) and got.type == want.type == "RuntimeError", got
    assert got.message == want.message and got.message.startswith(f"{op} "), got.message

# ------------------------------------------------------------------ conv_tbc

# (input, weight, bias shapes, pad): the op table's cases, an empty batch, empty time
_TBC = [((5, 2, 3), (2, 3, 4), (4,), 1), ((4, 1, 2), (3, 2, 2), (2,), 1),
        ((3, 2, 2), (1, 2, 3), (3,), 1), ((6, 1, 2), (3, 2, 2), (2,), 0),
        ((3, 0, 2), (2, 2, 2), (2,), 0), ((2, 1, 2), (3, 2, 2), (2,), 0)]


@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("case", range(len(_TBC)))
def test_conv_tbc_complex_values(dtype, case):
    xs, ws, bs, pad = _TBC[case]
    same(lambda m: m.conv_tbc(_z(m, *xs, seed=1, dtype=dtype), _z(m, *ws, seed=2, dtype=dtype),
                              _z(m, *bs, seed=3, dtype=dtype), pad),
         may_raise=True)


@pytest.mark.parametrize("dtype", _DTYPES)
def test_conv_tbc_complex_non_contiguous(dtype):
    """Strided channels, a transposed weight, a strided bias: PyTorch views each input
    slice as (time * batch, channels), which these layouts allow."""
    def prog(m):
        x = _z(m, 5, 2, 6, seed=1, dtype=dtype)[:, :, ::2]
        w = _z(m, 2, 4, 3, seed=2, dtype=dtype).transpose(1, 2)
        return m.conv_tbc(x, w, _z(m, 8, seed=3, dtype=dtype)[::2], 2)
    same(prog)


@pytest.mark.parametrize("dtype", ["complex64", "float32"])
@pytest.mark.parametrize("t,k,pad", [(1, 1, 0), (1, 3, 1), (2, 1, 0), (2, 2, 0), (2, 3, 1),
                                     (3, 1, 2), (3, 2, 0)])
def test_conv_tbc_time_batch_transposed(dtype, t, k, pad):
    """An input whose time and batch dims do not merge: PyTorch's view of a slice fails
    wherever a kernel offset takes more than one time step, and computes otherwise."""
    def prog(m):
        x = _z(m, 2, t, 3, dtype=dtype).transpose(0, 1) if dtype.startswith("complex") else \
            m.tensor(np.arange(6 * t, dtype=dtype).reshape(2, t, 3)).transpose(0, 1)
        w = m.ones(k, 3, 2, dtype=getattr(m, dtype))
        return m.conv_tbc(x, w, m.zeros(2, dtype=getattr(m, dtype)), pad)
    same(prog, may_raise=True)


@pytest.mark.parametrize("xd,wd", [("complex64", "float32"), ("float32", "complex64"),
                                   ("complex64", "complex128"), ("float32", "float64")])
def test_conv_tbc_mixed_dtypes_raise(xd, wd):
    """PyTorch's products are addmm_ into an output of the input's dtype: a weight of
    another dtype is its error (the real parts of a complex weight never used)."""
    same_error(lambda m: m.conv_tbc(m.ones(3, 1, 2, dtype=getattr(m, xd)),
                                    m.ones(2, 2, 2, dtype=getattr(m, wd)), m.ones(2), 0))


def test_conv_tbc_mixed_dtypes_without_products():
    """No kernel offset overlaps an empty output: PyTorch reaches no product, no error."""
    same(lambda m: m.conv_tbc(m.ones(1, 1, 2, dtype=m.complex64), m.ones(2, 2, 2),
                              m.ones(2), 0), may_raise=True)


def test_conv_tbc_complex_bias_into_real_output():
    """A complex bias is copied into a real output: its real parts, with PyTorch's warning."""
    def prog(m):
        return warns(m.conv_tbc, m.ones(3, 1, 2), m.ones(2, 2, 2),
                     _z(m, 2, seed=4, dtype="complex64"), 0)
    tr, tw = prog(torch)
    ar, aw = prog(autograd_core)
    np.testing.assert_allclose(ar.numpy(), tr.numpy(), rtol=1e-6)
    assert ar.dtype is autograd_core.float32
    # (the cast's warning is once per process in both libraries, TORCH_WARN_ONCE: whether
    # it shows here depends on what ran before, so only its kind and text are checked)
    assert {c for c, _ in aw} <= {"UserWarning"} and {c for c, _ in tw} <= {"UserWarning"}
    cast = "Casting complex values to real discards the imaginary part"
    assert {m for _, m in aw} <= {cast}
    assert {m.split(" (Triggered")[0] for _, m in tw} <= {cast}


@pytest.mark.parametrize("dtype", _DTYPES)
def test_conv_tbc_complex_autograd_refused(dtype):
    """PyTorch has no complex derivative for conv_tbc: both raise rather than compute."""
    def prog(m):
        x = _z(m, 4, 1, 2, dtype=dtype).requires_grad_()
        return m.conv_tbc(x, _z(m, 2, 2, 2, seed=2, dtype=dtype), _z(m, 2, seed=3, dtype=dtype))
    _both_refuse_autograd(prog, "conv_tbc")


# ------------------------------------------------------------------ affine_grid_generator

_AFFINE = [((2, 2, 3), [2, 1, 3, 4], False), ((1, 3, 4), [1, 2, 2, 3, 2], True),
           ((1, 2, 3), [1, 1, 2, 5], True), ((1, 2, 3), [1, 1, 1, 1], False),
           ((0, 2, 3), [0, 1, 2, 5], False), ((0, 3, 4), [0, 1, 2, 2, 3], True)]


@pytest.mark.parametrize("dtype", _DTYPES + ["float32", "float64"])
@pytest.mark.parametrize("case", range(len(_AFFINE)))
def test_affine_grid_generator_values(dtype, case):
    ts, size, align = _AFFINE[case]

    def prog(m):
        th = _z(m, *ts, dtype=dtype) if dtype.startswith("complex") else \
            m.tensor(np.random.default_rng(0).standard_normal(ts).astype(dtype))
        return m.affine_grid_generator(th, size, align)
    same(prog)


def test_affine_grid_generator_non_contiguous():
    same(lambda m: m.affine_grid_generator(_z(m, 3, 2, 2, dtype="complex128").transpose(0, 2),
                                           [2, 1, 3, 4], False))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_affine_grid_generator_empty_batch_gradient(dtype):
    def prog(m):
        th = m.zeros(0, 2, 3, dtype=getattr(m, dtype), requires_grad=True)
        out = m.affine_grid_generator(th, [0, 1, 2, 5], False)
        return out, m.autograd.grad(out.sum(), th)
    same(prog)


def test_affine_grid_complex_autograd_refused_and_functional_refuses_complex():
    def grad_prog(m):
        th = _z(m, 1, 2, 3, dtype="complex128").requires_grad_()
        return m.affine_grid_generator(th, [1, 1, 2, 2], False)
    _both_refuse_autograd(grad_prog, "affine_grid_generator")
    same_error(lambda m: m.nn.functional.affine_grid(_z(m, 1, 2, 3), [1, 1, 2, 5],
                                                     align_corners=True))


# ------------------------------------------------------------------ cummax / cummin


@pytest.mark.parametrize("op", ["cummax", "cummin"])
@pytest.mark.parametrize("dtype", _DTYPES + ["uint16", "uint32"])
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (0, 2), (1,), (1, 1), (3, 4)])
def test_cummax_cummin_empty_and_0d(op, dtype, shape):
    """Empty and 0-d tensors of every dtype are computed (PyTorch's early return before
    its dispatch); any other complex or wide unsigned tensor raises PyTorch's error."""
    def prog(m):
        if dtype.startswith("complex"):
            x = _z(m, *shape, seed=5, dtype=dtype)
        else:
            x = m.tensor(np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape))
        return getattr(m, op)(x, -1 if shape else 0), getattr(x, op)(0)
    same(prog, may_raise=True)


def test_cummin_complex_out():
    def prog(m):
        v = m.empty(0, dtype=m.complex64)
        i = m.empty(0, dtype=m.int64)
        r = m.cummin(_z(m, dtype="complex64"), 0, out=(v, i))
        return r, v, i
    same(prog)


def test_cummin_0d_complex_autograd_refused():
    _both_refuse_autograd(lambda m: m.cummin(_z(m, dtype="complex64").requires_grad_(), 0), "cummin")


# ------------------------------------------------------------------ scatter / index_fill values


_IDX = [[0, 1, 1]]


@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("value", [1j, 2 + 1j, 1.5, -3, True, np.complex128(1 - 2j)])
@pytest.mark.parametrize("reduce", [None, "add", "multiply"])
def test_scatter_complex_value(dtype, value, reduce):
    def prog(m):
        x = _z(m, 2, 3, seed=6, dtype=dtype)
        i = m.tensor(_IDX)
        kw = {} if reduce is None else {"reduce": reduce}
        y = x.clone()
        y.scatter_(0, i, value, **kw)
        return m.scatter(x, 0, i, value, **kw), x.scatter(0, i, value=value, **kw), y
    same(prog)


@pytest.mark.parametrize("dtype", _DTYPES)
def test_scatter_complex_value_non_contiguous_0d_empty(dtype):
    def prog(m):
        x = _z(m, 3, 2, seed=7, dtype=dtype).t()
        return (x.scatter(1, m.tensor([[2, 0], [1, 1]]), 1j),
                m.scatter(_z(m, dtype=dtype), 0, m.tensor(0), -1j),
                m.scatter(_z(m, 0, 3, dtype=dtype), 0, m.zeros(0, 3, dtype=m.int64), 1j))
    same(prog)


def test_scatter_complex_value_gradient():
    """The filled positions get no gradient (the value is a number); gradcheck on complex."""
    def prog(m):
        x = _z(m, 2, 3, seed=8, dtype="complex128").requires_grad_()
        out = x.scatter(0, m.tensor(_IDX), 1j)
        loss = (out * out.conj()).real.sum() + out.imag.sum()
        return out, m.autograd.grad(loss, x)
    same(prog)
    x = _z(autograd_core, 2, 3, seed=8, dtype="complex128").requires_grad_()
    i = autograd_core.tensor(_IDX)
    assert autograd_core.autograd.gradcheck(lambda t: t.scatter(0, i, 1j), (x,))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "uint8"])
@pytest.mark.parametrize("inplace", [False, True])
def test_scatter_complex_value_into_real_raises(dtype, inplace):
    def prog(m):
        x = m.zeros(2, 3, dtype=getattr(m, dtype))
        return (x.scatter_ if inplace else x.scatter)(0, m.tensor(_IDX), 1j)
    same_error(prog)


def test_scatter_complex_value_into_bool_and_empty_index():
    """A bool takes the value's truth; an empty index converts nothing."""
    same(lambda m: (m.zeros(2, 3, dtype=m.bool).scatter(0, m.tensor(_IDX), 1j),
                    m.zeros(2, 3).scatter(0, m.zeros(0, 3, dtype=m.int64), 1j)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("value", ["1j", "0j", "tensor"])
@pytest.mark.parametrize("inplace", [False, True])
def test_index_fill_complex_value_into_real_raises(dtype, value, inplace):
    def prog(m):
        x = m.zeros(2, 3, dtype=getattr(m, dtype))
        v = m.tensor(1j) if value == "tensor" else complex(value)
        return (x.index_fill_ if inplace else x.index_fill)(0, m.tensor([1]), v)
    same_error(prog)


@pytest.mark.parametrize("case", ["empty index", "bad dim", "0-d self", "float index",
                                  "1-d value"])
def test_index_fill_complex_value_error_order(case):
    """PyTorch's order: the value tensor's dim, the index's dtype, then the complex value,
    before the dim and the index's values."""
    def prog(m):
        x, i, d, v = m.zeros(2, 3), m.tensor([0]), 0, 1j
        if case == "empty index":
            i = m.zeros(0, dtype=m.int64)
        elif case == "bad dim":
            d = 5
        elif case == "0-d self":
            x = m.zeros(())
        elif case == "float index":
            i = m.tensor([0.])
        else:
            v = m.tensor([1j])
        return x.index_fill(d, i, v)
    same_error(prog)


@pytest.mark.parametrize("dtype", _DTYPES)
def test_index_fill_complex_self(dtype):
    same(lambda m: (_z(m, 2, 3, dtype=dtype).index_fill(0, m.tensor([1]), 1j),
                    _z(m, 3, 2, dtype=dtype).t().index_fill(1, m.tensor([0, 2]), m.tensor(2 - 1j)),
                    _z(m, dtype=dtype).index_fill(0, m.tensor([0]), 1.5)))
