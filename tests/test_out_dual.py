"""out= with a forward-AD (dual) argument (issue 27, item 2), differentially against
PyTorch under dual_level(): the out= variants that PyTorch composes and finish with
out.copy_(result) (quantile, nanquantile, chain_matmul of one matrix: OUT_FW_COPY in
ops/_prelude.pxi) write the result's tangent into out; the others refuse a dual argument
in their out= words, zeta's before its functional form's "not implemented"."""
import warnings

import pytest

from _diff import same

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402


def fw(m):
    return m.autograd.forward_ad


def _dual(m, p, t):
    return fw(m).make_dual(p, t)


def _in_dual_level(m, body):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with fw(m).dual_level():
            r = body(m)
            return r, fw(m).unpack_dual(r if not isinstance(r, tuple) else r[0]).tangent


def x(m):
    return m.tensor([[1., 4., 3.], [2., 0.5, 6.]])


def tx(m):
    return m.tensor([[1., -1., 2.], [0.5, 3., -2.]])


QUANTILE = {
    "all": lambda m, fn, d: getattr(m, fn)(d, 0.5, out=m.empty(())),
    "q_tensor": lambda m, fn, d: getattr(m, fn)(d, m.tensor([0.25, 0.9]), out=m.empty(2)),
    "dim": lambda m, fn, d: getattr(m, fn)(d, 0.3, dim=1, out=m.empty(2)),
    "dim_keepdim": lambda m, fn, d: getattr(m, fn)(d, 0.7, 0, True, out=m.empty(1, 3)),
    "lower": lambda m, fn, d: getattr(m, fn)(d, 0.4, 1, interpolation="lower",
                                             out=m.empty(2)),
    "midpoint": lambda m, fn, d: getattr(m, fn)(d, 0.4, 1, interpolation="midpoint",
                                                out=m.empty(2)),
    "resized": lambda m, fn, d: getattr(m, fn)(d, 0.5, out=m.empty(4)),
    "wrong_dtype": lambda m, fn, d: getattr(m, fn)(d, 0.5, out=m.empty((), dtype=m.float64)),
}


@pytest.mark.parametrize("fn", ["quantile", "nanquantile"])
@pytest.mark.parametrize("form", list(QUANTILE))
def test_quantile_out_dual(fn, form):
    same(lambda m: _in_dual_level(m, lambda m: QUANTILE[form](m, fn, _dual(m, x(m), tx(m)))),
         may_raise=True)


def test_quantile_plain_result_into_dual_out():
    def prog(m):
        with fw(m).dual_level():
            o = _dual(m, m.empty(()), m.tensor(5.))
            m.quantile(x(m), 0.5, out=o)
            return o, fw(m).unpack_dual(o).tangent
    same(prog)


def _chain(m, k, out_dtype=None):
    a = m.tensor([[2., 1.], [0., 3.]])
    d = _dual(m, a, m.ones(2, 2))
    o = m.empty(2, 2, dtype=out_dtype or m.float32)
    m.chain_matmul(*([d] + [a] * (k - 1)), out=o)
    return o


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("out_dtype", [None, "float64"])
def test_chain_matmul_out_dual(k, out_dtype):
    same(lambda m: _in_dual_level(
        m, lambda m: _chain(m, k, out_dtype and getattr(m, out_dtype))), may_raise=True)


@pytest.mark.parametrize("fn", ["zeta", "xlog1py", "xlogy"])
@pytest.mark.parametrize("which", ["first", "second", "first_number", "second_number"])
def test_special_binary_out_dual(fn, which):
    def body(m):
        a = m.tensor([2., 3.])
        d = _dual(m, a, m.ones(2))
        args = {"first": (d, a), "second": (a, d), "first_number": (d, 2.0),
                "second_number": (2.0, d)}[which]
        return getattr(m.special, fn)(*args, out=m.empty(2))
    same(lambda m: _in_dual_level(m, body), may_raise=True)


def test_chain_matmul_out_of_another_dtype():
    for k in (2, 3):
        same(lambda m: m.chain_matmul(*[m.eye(2)] * k, out=m.empty(2, 2, dtype=m.float64)),
             must_raise=True, quiet=True)
        same(lambda m: m.chain_matmul(*[m.eye(2)] * k, out=m.empty(2, 2, dtype=m.int64)),
             must_raise=True, quiet=True)
    # one that requires grad: the dtype's error still comes first
    same(lambda m: m.chain_matmul(m.eye(2, requires_grad=True), m.eye(2),
                                  out=m.empty(2, 2, dtype=m.float64)),
         must_raise=True, quiet=True)
