"""Forward-mode AD (torch.func.jvp, gradcheck's check_forward_ad) of
linalg.householder_product / orgqr and scatter_reduce / scatter_reduce_ on complex and
real inputs, compared with PyTorch 2.13 (issue 27). Their forward derivatives are the
explicit householder_product_jvp / scatter_reduce_jvp, not the transposed backward
(which is refused for complex)."""
import warnings

import numpy as np
import pytest

from _diff import same, same_error, torch  # noqa: F401
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


@pytest.mark.parametrize("reduce", ["prod", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_jvp_real_extrema_and_prod(reduce, include_self):
    # real inputs keep their tangents (ties share evenly, as PyTorch's amax/amin);
    # PyTorch 2.13 leaves prod's tangent undefined, so prod is checked by gradcheck
    def prog(m):
        s = m.tensor([[1., 0., 2.], [3., 5., 2.]], dtype=m.float64)
        src = m.tensor([[3., 2., 2.], [1., 0., 7.]], dtype=m.float64)
        st = m.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=m.float64)
        srct = m.tensor([[10., 20., 30.], [40., 50., 60.]], dtype=m.float64)
        idx = m.tensor([[0, 1, 0], [0, 0, 0]])
        return _jvp(m, lambda a, b: a.scatter_reduce(0, idx, b, reduce,
                                                     include_self=include_self),
                    (s, src), (st, srct))
    if reduce != "prod":
        same(prog, rtol=1e-9, atol=1e-12)
    s = _arr(autograd_core, (3, 4), 1, "float64").requires_grad_()
    src = _arr(autograd_core, (3, 4), 2, "float64").requires_grad_()
    idx = autograd_core.tensor([[0, 1, 0, 2], [2, 2, 1, 0], [1, 0, 0, 0]])
    assert autograd_core.autograd.gradcheck(
        lambda a, b: a.scatter_reduce(0, idx, b, reduce, include_self=include_self),
        (s, src), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False)


@pytest.mark.parametrize("reduce", ["sum", "mean"])
def test_scatter_reduce_gradcheck_forward_ad_complex(reduce):
    s = _arr(autograd_core, (3, 4), 1, "complex128").requires_grad_()
    src = _arr(autograd_core, (3, 4), 2, "complex128").requires_grad_()
    idx = autograd_core.tensor([[0, 1, 0, 2], [2, 2, 1, 0], [1, 0, 0, 0]])
    assert autograd_core.autograd.gradcheck(
        lambda a, b: a.clone().scatter_reduce_(0, idx, b, reduce), (s, src),
        check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False)


def test_scatter_reduce_jvp_complex_prod_refused():
    # PyTorch 2.13 gives complex prod no tangent at all (None): refused rather than a
    # zero tangent
    s, src = _arr(autograd_core, (3,), 1, "complex128"), _arr(autograd_core, (2,), 2, "complex128")
    idx = autograd_core.tensor([0, 0])
    with pytest.raises(NotImplementedError, match="scatter_reduce"):
        _jvp(autograd_core, lambda a, b: a.scatter_reduce(0, idx, b, "prod"), (s, src), (s, src))


def test_ormqr_jvp_complex_refused_as_pytorch():
    # PyTorch 2.13 has no forward derivative for ormqr: the same NotImplementedError
    def prog(m):
        A = _arr(m, (4, 3), 1, "complex128")
        tau = _arr(m, (3,), 2, "complex128")
        C = _arr(m, (4, 2), 3, "complex128")
        return _jvp(m, m.ormqr, (A, tau, C), (A, tau, C))
    same_error(prog)


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
