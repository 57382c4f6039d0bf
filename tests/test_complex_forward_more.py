"""Forward-mode AD (torch.func.jvp, gradcheck's check_forward_ad) of
linalg.householder_product / orgqr and scatter_reduce / scatter_reduce_ on complex and
real inputs, compared with PyTorch 2.13 (issue 27). Their forward derivatives are the
explicit householder_product_jvp / scatter_reduce_jvp, not the transposed backward
(which is refused for complex)."""
import warnings

import numpy as np
import pytest

from _diff import catch, same, same_error, torch  # noqa: F401
import autograd_core


def _arr(mod, shape, seed, dtype):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return mod.tensor(a.astype(dtype))


DTYPES = ["complex128", "complex64", "float64"]
_TOL = {"complex128": (1e-7, 1e-9), "float64": (1e-7, 1e-9), "complex64": (1e-4, 1e-5)}


def _jvp(m, f, primals, tangents):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return m.func.jvp(f, primals, tangents)


# (shape of A, number of reflectors, batch)
_HH_CASES = {"square": ((3, 3), 3), "tall": ((4, 3), 2), "batched": ((2, 4, 2), 2),
             "no_reflectors": ((3, 2), 0), "one_col": ((3, 1), 1)}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", sorted(_HH_CASES))
@pytest.mark.parametrize("fn", ["householder_product", "orgqr", "non_contiguous"])
def test_householder_product_jvp_matches_pytorch(fn, case, dtype):
    shape, k = _HH_CASES[case]

    def prog(m):
        A = _arr(m, shape, 1, dtype)
        tau = _arr(m, shape[:-2] + (k,), 2, dtype)
        At = _arr(m, shape, 3, dtype)
        taut = _arr(m, shape[:-2] + (k,), 4, dtype)
        if fn == "householder_product":
            f = m.linalg.householder_product
        elif fn == "orgqr":
            f = m.orgqr
        else:   # transposed (non-contiguous) primal and tangent
            A, At = A.mT.contiguous().mT, At.mT.contiguous().mT
            f = m.linalg.householder_product
        return _jvp(m, f, (A, tau), (At, taut))

    rtol, atol = _TOL[dtype]
    same(prog, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", ["complex128", "float64"])
@pytest.mark.parametrize("case", ["square", "tall", "batched"])
def test_householder_product_gradcheck_forward_ad(case, dtype):
    shape, k = _HH_CASES[case]
    A = _arr(autograd_core, shape, 1, dtype).requires_grad_()
    tau = (0.5 * _arr(autograd_core, shape[:-2] + (k,), 2, dtype)).requires_grad_()
    assert autograd_core.autograd.gradcheck(
        autograd_core.linalg.householder_product, (A, tau), check_forward_ad=True,
        check_backward_ad=False, check_undefined_grad=False)


def test_householder_product_reverse_over_forward_complex():
    # the tangent is written in differentiable ops: its own gradient passes gradcheck
    # (PyTorch 2.13's gradient of its householder_product_jvp fails this gradcheck, so
    # it is not the reference here)
    rng = np.random.default_rng(0)
    At = autograd_core.tensor(rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3)))
    taut = autograd_core.tensor(rng.standard_normal(2) + 1j * rng.standard_normal(2))

    def tangent(A, tau):
        return _jvp(autograd_core, autograd_core.linalg.householder_product, (A, tau),
                    (At, taut))[1]
    A = _arr(autograd_core, (4, 3), 1, "complex128").requires_grad_()
    tau = (0.5 * _arr(autograd_core, (2,), 2, "complex128")).requires_grad_()
    assert autograd_core.autograd.gradcheck(tangent, (A, tau))


_IDX = [[0, 1, 0, 2, 1], [3, 3, 0, 1, 0]]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduce", ["sum", "mean"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("inplace", [False, True])
def test_scatter_reduce_jvp_matches_pytorch(inplace, include_self, reduce, dtype):
    def prog(m):
        s, src = _arr(m, (4, 5), 1, dtype), _arr(m, (2, 5), 2, dtype)
        st, srct = _arr(m, (4, 5), 3, dtype), _arr(m, (2, 5), 4, dtype)
        idx = m.tensor(_IDX)
        if inplace:
            def f(a, b):
                return a.clone().scatter_reduce_(0, idx, b, reduce, include_self=include_self)
        else:
            def f(a, b):
                return a.scatter_reduce(0, idx, b, reduce, include_self=include_self)
        return (_jvp(m, f, (s, src), (st, srct)),
                _jvp(m, lambda b: f(s, b), (src,), (srct,)),          # self without tangent
                _jvp(m, lambda a: f(a, src.mT.contiguous().mT), (s,), (st,)))
    rtol, atol = _TOL[dtype]
    same(prog, rtol=rtol, atol=atol)


@pytest.mark.parametrize("reduce", ["amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_jvp_real_extrema(reduce, include_self):
    # real inputs keep their tangents (ties share evenly, as PyTorch's amax/amin)
    def prog(m):
        s = m.tensor([[1., 0., 2.], [3., 5., 2.]], dtype=m.float64)
        src = m.tensor([[3., 2., 2.], [1., 0., 7.]], dtype=m.float64)
        st = m.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=m.float64)
        srct = m.tensor([[10., 20., 30.], [40., 50., 60.]], dtype=m.float64)
        idx = m.tensor([[0, 1, 0], [0, 0, 0]])
        return _jvp(m, lambda a, b: a.scatter_reduce(0, idx, b, reduce,
                                                     include_self=include_self),
                    (s, src), (st, srct))
    same(prog, rtol=1e-9, atol=1e-12)
    s = _arr(autograd_core, (3, 4), 1, "float64").requires_grad_()
    src = _arr(autograd_core, (3, 4), 2, "float64").requires_grad_()
    idx = autograd_core.tensor([[0, 1, 0, 2], [2, 2, 1, 0], [1, 0, 0, 0]])
    assert autograd_core.autograd.gradcheck(
        lambda a, b: a.scatter_reduce(0, idx, b, reduce, include_self=include_self),
        (s, src), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False)


# scatter_reduce(reduce='prod') under forward AD, as PyTorch 2.13: its jvp gives no
# tangent, so the functional op's output has none (func.jvp reads a zero one), and the
# in-place op on a self that has a tangent raises (PyTorch copies the undefined
# tangent into self's) after writing the values; with only src dual it leaves self
# without a tangent.
_PROD_FORMS = ["fn_self", "fn_src", "fn_both", "inplace_self", "inplace_src",
               "inplace_both", "inplace_leaf", "inplace_view_of_dual"]


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("form", _PROD_FORMS)
def test_scatter_reduce_prod_has_no_tangent(form, include_self, dtype):
    def prog(m):
        fwAD = m.autograd.forward_ad
        s, src = _arr(m, (3, 4), 1, dtype), _arr(m, (2, 4), 2, dtype)
        st, srct = _arr(m, (3, 4), 3, dtype), _arr(m, (2, 4), 4, dtype)
        idx = m.tensor([[0, 1, 0, 2], [2, 2, 1, 0]])
        out = {}
        with fwAD.dual_level():
            S, SRC = fwAD.make_dual(s, st), fwAD.make_dual(src, srct)
            a = {"self": S, "src": s, "both": S}.get(form.split("_", 1)[1], s)
            b = SRC if form.endswith(("src", "both")) else src
            try:
                if form.startswith("fn_"):
                    r = a.scatter_reduce(0, idx, b, "prod", include_self=include_self)
                    out["result"] = r
                elif form == "inplace_leaf":
                    a = fwAD.make_dual(s.clone(), st)
                    r = a.scatter_reduce_(0, idx, SRC, "prod", include_self=include_self)
                elif form == "inplace_view_of_dual":
                    base = fwAD.make_dual(m.cat([s, s]), m.cat([st, st]))
                    a = base[3:]
                    r = a.scatter_reduce_(0, idx, SRC, "prod", include_self=include_self)
                    out["base_tangent"] = fwAD.unpack_dual(base).tangent
                else:
                    a = a.clone()
                    r = a.scatter_reduce_(0, idx, b, "prod", include_self=include_self)
                out["same_object"] = r is a
            except RuntimeError as e:
                out["error"] = str(e)
            # (the values are written before the tangent is read)
            out["values"] = fwAD.unpack_dual(a).primal
            out["tangent"] = fwAD.unpack_dual(a).tangent
            if "result" in out:
                out["result_tangent"] = fwAD.unpack_dual(out["result"]).tangent
        return out
    same(prog)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("inplace", [False, True])
def test_scatter_reduce_prod_func_jvp(inplace, dtype):
    # torch.func.jvp reads an output without a tangent as a zero one; the in-place
    # op on a dual self raises as above
    def prog(m):
        s, src = _arr(m, (3, 4), 1, dtype), _arr(m, (2, 4), 2, dtype)
        idx = m.tensor([[0, 1, 0, 2], [2, 2, 1, 0]])
        if inplace:
            def f(a, b):
                return a.clone().scatter_reduce_(0, idx, b, "prod")
        else:
            def f(a, b):
                return a.scatter_reduce(0, idx, b, "prod")
        return (catch(_jvp, m, f, (s, src), (s, src)),
                _jvp(m, lambda b: f(s, b), (src,), (src * 2,)))
    same(prog)


def test_scatter_reduce_prod_gradcheck_forward_ad_fails_as_pytorch():
    # PyTorch's gradcheck(check_forward_ad=True) finds prod's missing tangent (a zero
    # Jacobian); so does ours
    def prog(m):
        s = _arr(m, (3,), 1, "float64").requires_grad_()
        src = _arr(m, (3,), 2, "float64").requires_grad_()
        idx = m.tensor([0, 0, 1])
        return m.autograd.gradcheck(
            lambda a, b: a.scatter_reduce(0, idx, b, "prod"), (s, src),
            check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False)
    want, got = same_error(prog, message="prefix")
    assert "forward mode mismatch" in str(got.message)


@pytest.mark.parametrize("reduce", ["sum", "mean"])
def test_scatter_reduce_gradcheck_forward_ad_complex(reduce):
    s = _arr(autograd_core, (3, 4), 1, "complex128").requires_grad_()
    src = _arr(autograd_core, (3, 4), 2, "complex128").requires_grad_()
    idx = autograd_core.tensor([[0, 1, 0, 2], [2, 2, 1, 0], [1, 0, 0, 0]])
    assert autograd_core.autograd.gradcheck(
        lambda a, b: a.clone().scatter_reduce_(0, idx, b, reduce), (s, src),
        check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("dual", ["self", "input2", "input3"])
def test_ormqr_jvp_refused_as_pytorch(dual, dtype):
    # PyTorch 2.13 has no forward derivative for ormqr, real or complex: the same
    # NotImplementedError (not the transposed backward's tangent)
    def prog(m):
        fwAD = m.autograd.forward_ad
        args = [_arr(m, (4, 3), 1, dtype), _arr(m, (3,), 2, dtype), _arr(m, (4, 2), 3, dtype)]
        k = ["self", "input2", "input3"].index(dual)
        with fwAD.dual_level():
            args[k] = fwAD.make_dual(args[k], _arr(m, tuple(args[k].shape), 4, dtype))
            return m.ormqr(*args)
    same_error(prog)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_ormqr_func_jvp_refused_as_pytorch(dtype):
    def prog(m):
        A = _arr(m, (4, 3), 1, dtype)
        tau = _arr(m, (3,), 2, dtype)
        C = _arr(m, (4, 2), 3, dtype)
        return _jvp(m, m.ormqr, (A, tau, C), (A, tau, C))
    same_error(prog)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dual", ["self", "source"])
@pytest.mark.parametrize("inplace", [False, True])
def test_index_reduce_jvp_refused_as_pytorch(inplace, dual, include_self, reduce, dtype):
    # PyTorch 2.13 has no forward derivative for index_reduce: its NotImplementedError,
    # raised before the kernel (after it for index_reduce_: PyTorch's complex in-place
    # kernel then refuses first, with a message of its own; and its in-place message
    # ends its second sentence sooner, so only its start is compared there)
    def prog(m):
        fwAD = m.autograd.forward_ad
        x, src = _arr(m, (4, 3), 1, dtype), _arr(m, (3, 3), 2, dtype)
        idx = m.tensor([0, 2, 0])
        with fwAD.dual_level():
            if dual == "self":
                x = fwAD.make_dual(x, _arr(m, (4, 3), 3, dtype))
            else:
                src = fwAD.make_dual(src, _arr(m, (3, 3), 4, dtype))
            if inplace:
                return x.clone().index_reduce_(0, idx, src, reduce, include_self=include_self)
            return x.index_reduce(0, idx, src, reduce, include_self=include_self)
    same_error(prog, message=("prefix" if dtype == "float64" else False) if inplace else True)


@pytest.mark.parametrize("case", ["as_strided", "as_strided_offset", "block_diag"])
def test_complex_view_jvp_keeps_the_tangent(case):
    # as_strided and block_diag of complex duals: the same op on the tangents (they
    # gave none before, silently)
    def prog(m):
        fwAD = m.autograd.forward_ad
        x, t = _arr(m, (6,), 1, "complex128"), _arr(m, (6,), 2, "complex128")
        with fwAD.dual_level():
            d = fwAD.make_dual(x, t)
            if case == "as_strided":
                y = m.as_strided(d, (2, 2), (1, 2))
            elif case == "as_strided_offset":
                y = d.as_strided((2, 2), (1, 2), 1)
            else:
                y = m.block_diag(d.view(2, 3), d[:2], m.tensor([[1j]]))
            return tuple(fwAD.unpack_dual(y))
    same(prog)


def test_scatter_reduce_reverse_over_forward_complex_refused_as_pytorch():
    # the tangent is the functional scatter_reduce of the tangents, which (as in
    # PyTorch) refuses to record a complex output for reverse mode
    def prog(m):
        s = m.tensor([1 + 1j, 2, 3], requires_grad=True)
        src = m.tensor([2 + 0j, 3], requires_grad=True)
        idx = m.tensor([0, 0])
        t = _jvp(m, lambda a, b: a.clone().scatter_reduce_(0, idx, b, "sum"), (s, src),
                 (s * 1j, src))[1]
        return m.autograd.grad(t.real.sum(), (s, src))
    same_error(prog)
