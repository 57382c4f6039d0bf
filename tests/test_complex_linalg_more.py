"""Complex inputs through the linalg decompositions and solvers issue 27 left for last
(matrix_rank, cond, lstsq, householder_product/orgqr, geqrf, ormqr, ldl_factor(_ex),
ldl_solve), compared with PyTorch: values on complex64 and complex128 (batched, empty,
non-contiguous inputs, every lstsq driver's fields, the Hermitian and the complex
symmetric LDL), gradients (PyTorch's conjugate Wirtinger convention) against PyTorch's
and against finite differences, and the errors PyTorch raises.
"""
import warnings

import numpy as np
import pytest

from _diff import complex_data, real_loss, same, same_error
import autograd_core


_z = complex_data


_loss = real_loss


_DTYPES = ("complex64", "complex128")


def _tol(dtype):
    return dict(rtol=1e-4, atol=1e-5) if dtype == "complex64" else dict(rtol=1e-7, atol=1e-9)


# ------------------------------------------------------------------ matrix_rank, cond

@pytest.mark.parametrize("dtype", _DTYPES)
def test_matrix_rank(dtype):
    def prog(m):
        a = _z(m, 3, 4, dtype=dtype)
        b = _z(m, 2, 3, 3, seed=1, dtype=dtype)
        low = b[..., :1] @ b[..., :1, :]              # rank one
        h = b @ b.mH
        return (m.linalg.matrix_rank(a), m.linalg.matrix_rank(b), m.linalg.matrix_rank(low),
                m.linalg.matrix_rank(b, atol=1.0, rtol=0.1), m.linalg.matrix_rank(h, hermitian=True),
                m.linalg.matrix_rank(low @ low.mH, hermitian=True), m.linalg.matrix_rank(a, tol=0.5),
                m.linalg.matrix_rank(_z(m, 0, 3, dtype=dtype)),
                m.linalg.matrix_rank(_z(m, 2, 0, 0, dtype=dtype)))
    same(prog)


@pytest.mark.parametrize("dtype", _DTYPES)
def test_cond_values(dtype):
    def prog(m):
        a = _z(m, 2, 3, 3, dtype=dtype) + 2 * m.eye(3, dtype=getattr(m, dtype))
        r = _z(m, 3, 4, seed=2, dtype=dtype)
        z = m.zeros(3, 3, dtype=getattr(m, dtype))
        out = [m.linalg.cond(a, p) for p in (None, 2, -2, "fro", "nuc", float("inf"),
                                             -float("inf"), 1, -1)]
        out += [m.linalg.cond(r), m.linalg.cond(r, -2), m.linalg.cond(a.mT)]
        out += [m.linalg.cond(z, p) for p in ("nuc", "fro", 1, None)]
        return out
    same(prog, **_tol(dtype))


def test_cond_errors_and_gradient():
    same_error(lambda m: m.linalg.cond(_z(m, 3, 4), "fro"))
    same_error(lambda m: m.linalg.cond(_z(m, 3, 3), "bad"))

    def prog(m):
        a = (_z(m, 3, 3) + 3 * m.eye(3, dtype=m.complex128)).detach().requires_grad_()
        loss = m.linalg.cond(a) + m.linalg.cond(a, "nuc") + m.linalg.cond(a, -2)
        return loss, m.autograd.grad(loss, a)[0]
    same(prog, rtol=1e-6, atol=1e-8)
    a = (_z(autograd_core, 3, 3) + 3 * autograd_core.eye(3, dtype=autograd_core.complex128)
         ).detach().requires_grad_()
    assert autograd_core.autograd.gradcheck(lambda a: autograd_core.linalg.cond(a), (a,))


# ------------------------------------------------------------------ lstsq

@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("driver", [None, "gelsy", "gelsd", "gelss", "gels"])
def test_lstsq_values_and_fields(dtype, driver):
    def prog(m):
        outs = []
        for sa, sb in [((4, 3), (4, 2)), ((3, 3), (3, 1)), ((2, 4, 2), (1, 4, 2)),
                       ((4, 3), (4,)), ((2, 4, 2), (2, 4))] + (
                [((2, 3), (2, 2))] if driver in (None, "gelsy", "gelsd", "gelss") else []):
            a = _z(m, *sa, dtype=dtype)
            b = _z(m, *sb, seed=1, dtype=dtype)
            r = m.linalg.lstsq(a, b, driver=driver)
            outs.append((r.solution, r.residuals, r.rank, r.singular_values,
                         r.solution.stride(), r.residuals.dtype, r.singular_values.dtype))
        return outs
    same(prog, **_tol(dtype))


def test_lstsq_rcond_deficient_and_noncontiguous():
    def prog(m):
        a = _z(m, 4, 3)
        a = m.cat([a[:, :2], a[:, :1] + a[:, 1:2]], 1)        # rank two
        b = _z(m, 2, 4, seed=1).mT                              # non-contiguous
        return [m.linalg.lstsq(a, b, rcond, driver=d)
                for d in ("gelsd", "gelss", "gelsy") for rcond in (None, 0.1)]
    same(prog)


def test_lstsq_errors():
    same_error(lambda m: m.linalg.lstsq(_z(m, 3, 2), _z(m, 3, 1, dtype="complex64")))
    same_error(lambda m: m.linalg.lstsq(_z(m, 3, 2), _z(m, 2, 1)))
    same_error(lambda m: m.linalg.lstsq(_z(m, 3, 2), _z(m, 3, 1), driver="bad"))


@pytest.mark.parametrize("shapes", [((4, 3), (4, 2)), ((3, 3), (3, 1)), ((4, 3), (4,)),
                                    ((2, 4, 2), (1, 4, 2)), ((2, 3), (2, 2))])
def test_lstsq_gradients(shapes):
    sa, sb = shapes

    def prog(m):
        a = _z(m, *sa, requires_grad=True)
        b = _z(m, *sb, seed=1, requires_grad=True)
        r = m.linalg.lstsq(a, b, driver="gelsd")
        loss = _loss(m, r.solution) + _loss(m, r.residuals, seed=2)
        return r.solution, m.autograd.grad(loss, (a, b))
    same(prog, rtol=1e-6, atol=1e-8)
    a = _z(autograd_core, *sa, requires_grad=True)
    b = _z(autograd_core, *sb, seed=1, requires_grad=True)
    f = lambda a, b: autograd_core.linalg.lstsq(a, b, driver="gelsd")[:2]   # noqa: E731
    assert autograd_core.autograd.gradcheck(f, (a, b), check_forward_ad=True)
    assert autograd_core.autograd.gradgradcheck(lambda a, b: f(a, b)[0], (a, b))


# ------------------------------------------------------------------ Householder products

@pytest.mark.parametrize("dtype", _DTYPES)
def test_householder_product_and_geqrf_values(dtype):
    def prog(m):
        outs = []
        for sa, st in [((3, 3), (3,)), ((4, 3), (2,)), ((4, 2), (2,)), ((2, 3, 2), (2, 2)),
                       ((3, 0), (0,)), ((0, 3, 3), (0, 3))]:
            outs.append(m.linalg.householder_product(_z(m, *sa, dtype=dtype),
                                                     _z(m, *st, seed=1, dtype=dtype)))
        a = _z(m, 3, 3, dtype=dtype)
        outs.append(m.orgqr(a.mT, _z(m, 2, seed=1, dtype=dtype)))      # non-contiguous
        for s in [(4, 3), (3, 4), (2, 3, 3), (0, 2), (2, 0, 3)]:
            outs.append(m.geqrf(_z(m, *s, seed=2, dtype=dtype)))
        x = _z(m, 4, 3, seed=3, dtype=dtype)
        q = m.linalg.householder_product(*m.geqrf(x))
        outs.append((q, q.mH @ q, m.linalg.qr(x).Q))
        return outs
    same(prog, **_tol(dtype))


@pytest.mark.parametrize("dtype", _DTYPES)
def test_ormqr_values(dtype):
    def prog(m):
        outs = []
        for left in (True, False):
            for tr in (True, False):
                a = _z(m, 4, 3, dtype=dtype)
                tau = _z(m, 3, seed=1, dtype=dtype)
                c = _z(m, *((4, 2) if left else (2, 4)), seed=2, dtype=dtype)
                outs.append(m.ormqr(a, tau, c, left, tr))
        a = _z(m, 2, 3, 2, dtype=dtype)
        outs.append(m.ormqr(a, _z(m, 2, 2, seed=1, dtype=dtype), _z(m, 2, 3, 1, seed=2,
                                                                    dtype=dtype)))
        # Q^H Q C = C: transpose means the adjoint
        a, tau = m.geqrf(_z(m, 3, 3, seed=4, dtype=dtype))
        c = _z(m, 3, 2, seed=5, dtype=dtype)
        outs.append(m.ormqr(a, tau, m.ormqr(a, tau, c), transpose=True) - c)
        return outs
    same(prog, **_tol(dtype))


@pytest.mark.parametrize("shapes", [((3, 3), (3,)), ((4, 3), (2,)), ((4, 2), (2,)),
                                    ((2, 3, 2), (2, 2))])
def test_householder_product_gradients(shapes):
    sa, st = shapes

    def prog(m):
        a = _z(m, *sa, requires_grad=True)
        t = _z(m, *st, seed=1, requires_grad=True)
        q = m.linalg.householder_product(a, t)
        return q, type(q.grad_fn).__name__, m.autograd.grad(_loss(m, q), (a, t))
    same(prog, rtol=1e-6, atol=1e-8)
    a = _z(autograd_core, *sa, requires_grad=True)
    t = _z(autograd_core, *st, seed=1, requires_grad=True)
    assert autograd_core.autograd.gradcheck(autograd_core.linalg.householder_product, (a, t))
    assert autograd_core.autograd.gradgradcheck(autograd_core.linalg.householder_product, (a, t))


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
def test_ormqr_gradients(left, transpose):
    def prog(m):
        a = _z(m, 4, 3, requires_grad=True)
        t = _z(m, 3, seed=1, requires_grad=True)
        c = _z(m, *((4, 2) if left else (2, 4)), seed=2, requires_grad=True)
        out = m.ormqr(a, t, c, left, transpose)
        return out, type(out.grad_fn).__name__, m.autograd.grad(_loss(m, out), (a, t, c))
    same(prog, rtol=1e-6, atol=1e-8)
    a = _z(autograd_core, 4, 3, requires_grad=True)
    t = _z(autograd_core, 3, seed=1, requires_grad=True)
    c = _z(autograd_core, *((4, 2) if left else (2, 4)), seed=2, requires_grad=True)
    f = lambda a, t, c: autograd_core.ormqr(a, t, c, left, transpose)   # noqa: E731
    assert autograd_core.autograd.gradcheck(f, (a, t, c))


def test_complex64_gradients():
    def prog(m):
        a = _z(m, 4, 3, dtype="complex64", requires_grad=True)
        t = _z(m, 3, seed=1, dtype="complex64", requires_grad=True)
        b = _z(m, 4, 2, seed=2, dtype="complex64", requires_grad=True)
        loss = (_loss(m, m.linalg.householder_product(a, t)) + _loss(m, m.ormqr(a, t, b))
                + _loss(m, m.linalg.lstsq(a, b).solution))
        return m.autograd.grad(loss, (a, t, b))
    same(prog, rtol=1e-3, atol=1e-4)


def test_geqrf_and_ldl_are_not_differentiable():
    def geqrf(m):
        m.geqrf(_z(m, 3, 3, requires_grad=True))[0].abs().sum().backward()
    same_error(geqrf)

    def ldl(m):
        a = _z(m, 3, 3, requires_grad=True)
        m.linalg.ldl_factor(a + a.mT)[0].abs().sum().backward()
    same_error(ldl)

    def ldl_solve(m):
        a = _z(m, 3, 3)
        b = _z(m, 3, 1, requires_grad=True)
        m.linalg.ldl_solve(*m.linalg.ldl_factor(a + a.mT), b).abs().sum().backward()
    same_error(ldl_solve)
    # real inputs record geqrf's node; its backward raises
    same_error(lambda m: m.geqrf(m.ones(2, 2, requires_grad=True))[0].sum().backward())
    same(lambda m: [t.dtype for t in m.geqrf(_z(m, 2, 2, requires_grad=True).detach())])


# ------------------------------------------------------------------ LDL

@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("hermitian", [False, True])
def test_ldl_factor_and_solve(dtype, hermitian):
    def prog(m):
        outs = []
        for s in [(3, 3), (5, 5), (2, 4, 4), (6, 6), (0, 0), (2, 0, 0)]:
            x = _z(m, *s, dtype=dtype)
            a = x + (x.mH if hermitian else x.mT)
            b = _z(m, *(s[:-1] + (2,)), seed=1, dtype=dtype)
            LD, piv = m.linalg.ldl_factor(a, hermitian=hermitian)
            outs.append((LD, piv, m.linalg.ldl_solve(LD, piv, b, hermitian=hermitian)))
        # Bunch-Kaufman pivoting on a small diagonal; the lower triangle only is read
        x = _z(m, 4, 4, seed=3, dtype=dtype) * m.tensor(
            [[0.01, 1, 2, 3], [1, 0.02, 5, 6], [2, 5, 0.03, 7], [3, 6, 7, 0.04]],
            dtype=getattr(m, dtype))
        LD, piv, info = m.linalg.ldl_factor_ex(x, hermitian=hermitian)
        outs.append((LD, piv, info, m.linalg.ldl_solve(LD, piv, x.mT[..., :2].contiguous(),
                                                       hermitian=hermitian)))
        spd = x @ x.mH + 3 * m.eye(4, dtype=getattr(m, dtype))
        outs.append(m.linalg.ldl_factor_ex(spd, hermitian=hermitian))
        return outs
    same(prog, **_tol(dtype))


@pytest.mark.parametrize("hermitian", [False, True])
def test_ldl_solve_solves(hermitian):
    # beyond matching PyTorch: the solution satisfies A X = B
    m = autograd_core
    x = _z(m, 6, 6, seed=7)
    a = x + (x.mH if hermitian else x.mT)
    b = _z(m, 6, 3, seed=8)
    X = m.linalg.ldl_solve(*m.linalg.ldl_factor(a, hermitian=hermitian), b, hermitian=hermitian)
    np.testing.assert_allclose((a @ X).numpy(), b.numpy(), rtol=1e-9, atol=1e-9)


def test_ldl_errors():
    # (a singular D: PyTorch 2.13's ldl_factor trips an internal assert; its _ex reports it)
    same(lambda m: m.linalg.ldl_factor_ex(m.zeros(2, 3, 3, dtype=m.complex128)))
    same_error(lambda m: m.linalg.ldl_solve(*m.linalg.ldl_factor(_z(m, 3, 3) + _z(m, 3, 3).mT),
                                            _z(m, 3, 1, dtype="complex64")))
    same_error(lambda m: m.linalg.ldl_factor(_z(m, 3, 2)))
