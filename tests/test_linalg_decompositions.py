"""linalg decompositions and solvers beyond the op table: PyTorch's errors and messages
for bad input, results printed as PyTorch's named tuples, derivatives PyTorch does not
have (they raise), and the mixed-dtype / empty corners of the matrix products."""
import numpy as np
import pytest

import autograd_core as ac
from _diff import catch, data, same, same_error, torch


def _spd(mod, n=3, seed=0):
    a = data(mod, n, n, seed=seed)
    return a @ a.mT + 3 * mod.eye(n, dtype=mod.float64)


# ------------------------------------------------------------------ errors

ERRORS = {
    "cholesky_not_pd": lambda m: m.linalg.cholesky(m.tensor([[1., 2.], [2., 1.]])),
    "cholesky_batch_not_pd": lambda m: m.linalg.cholesky(
        m.stack([m.eye(2), m.tensor([[1., 2.], [2., 1.]])])),
    "cholesky_ex_check": lambda m: m.linalg.cholesky_ex(m.tensor([[1., 2.], [2., 1.]]),
                                                        check_errors=True),
    "cholesky_not_square": lambda m: m.linalg.cholesky(m.ones(2, 3)),
    "cholesky_1d": lambda m: m.linalg.cholesky(m.ones(3)),
    "cholesky_int": lambda m: m.linalg.cholesky(m.ones(2, 2, dtype=m.int64)),
    "inv_ex_check": lambda m: m.linalg.inv_ex(m.zeros(2, 2), check_errors=True),
    "lu_factor_singular": lambda m: m.linalg.lu_factor(m.zeros(2, 2)),
    "lu_factor_no_pivot": lambda m: m.linalg.lu_factor(m.ones(2, 2), pivot=False),
    "lu_no_pivot": lambda m: m.linalg.lu(m.ones(2, 2), pivot=False),
    "lu_solve_shapes": lambda m: m.linalg.lu_solve(*m.linalg.lu_factor(m.eye(2)), m.ones(3, 1)),
    "solve_triangular_shapes": lambda m: m.linalg.solve_triangular(m.ones(3, 3), m.ones(2, 1),
                                                                  upper=True),
    "solve_triangular_not_square": lambda m: m.linalg.solve_triangular(m.ones(2, 3), m.ones(2, 1),
                                                                       upper=True),
    "eigh_not_square": lambda m: m.linalg.eigh(m.ones(2, 3)),
    "eigh_uplo": lambda m: m.linalg.eigh(m.eye(2), UPLO="X"),
    "qr_mode": lambda m: m.linalg.qr(m.eye(2), mode="x"),
    "qr_1d": lambda m: m.linalg.qr(m.ones(3)),
    "slogdet_not_square": lambda m: m.linalg.slogdet(m.ones(2, 3)),
    "matrix_power_not_square": lambda m: m.linalg.matrix_power(m.ones(2, 3), 2),
    "matrix_exp_int": lambda m: m.linalg.matrix_exp(m.ones(2, 2, dtype=m.int64)),
    "matrix_exp_not_square": lambda m: m.linalg.matrix_exp(m.ones(2, 3)),
    "vecdot_dtypes": lambda m: m.linalg.vecdot(m.ones(2), m.ones(2, dtype=m.float64)),
    "cross_length": lambda m: m.linalg.cross(m.ones(2), m.ones(2)),
    "vander_N": lambda m: m.linalg.vander(m.ones(2), N=1),
    "multi_dot_one": lambda m: m.linalg.multi_dot([m.ones(2, 2)]),
    "multi_dot_shapes": lambda m: m.linalg.multi_dot([m.ones(2, 2), m.ones(3, 2)]),
    "multi_dot_3d": lambda m: m.linalg.multi_dot([m.ones(2, 2, 2), m.ones(2, 2)]),
    "tensorinv_shape": lambda m: m.linalg.tensorinv(m.ones(2, 3), ind=1),
    "tensorinv_ind": lambda m: m.linalg.tensorinv(m.ones(2, 2), ind=0),
    "lstsq_shapes": lambda m: m.linalg.lstsq(m.ones(3, 2), m.ones(2, 1)),
    "householder_wide": lambda m: m.linalg.householder_product(m.ones(2, 3), m.ones(2)),
    "householder_tau": lambda m: m.linalg.householder_product(m.ones(3, 2), m.ones(3)),
    "ormqr_tau": lambda m: m.ormqr(m.ones(3, 3), m.ones(2), m.ones(3, 3)),
    "svd_1d": lambda m: m.linalg.svd(m.ones(3)),
    "svd_driver": lambda m: m.linalg.svd(m.eye(2), driver="gesvd"),
    "svdvals_driver": lambda m: m.linalg.svdvals(m.eye(2), driver="gesvdj"),
    "cdist_1d": lambda m: m.cdist(m.ones(3), m.ones(3)),
    "cdist_columns": lambda m: m.cdist(m.ones(2, 3), m.ones(2, 4)),
    "cdist_p": lambda m: m.cdist(m.ones(2, 3), m.ones(2, 3), p=-1),
    "cdist_int": lambda m: m.cdist(m.ones(2, 3, dtype=m.int64), m.ones(2, 3, dtype=m.int64)),
    "pdist_3d": lambda m: m.pdist(m.ones(2, 3, 3)),
    "pdist_p": lambda m: m.pdist(m.ones(2, 3), p=-1),
    "cov_3d": lambda m: m.cov(m.ones(2, 2, 2)),
    "cov_fweights_float": lambda m: m.cov(m.ones(2, 3), fweights=m.ones(3)),
    "cov_aweights_negative": lambda m: m.cov(m.ones(2, 3), aweights=-m.ones(3)),
    "cov_weights_numel": lambda m: m.cov(m.ones(2, 3), fweights=m.ones(2, dtype=m.int64)),
    "vdot_2d": lambda m: m.vdot(m.ones(2, 2), m.ones(2, 2)),
    "vdot_dtypes": lambda m: m.vdot(m.ones(2), m.ones(2, dtype=m.float64)),
    "inner_shapes": lambda m: m.inner(m.ones(2, 3), m.ones(2)),
    "adjoint_1d": lambda m: m.adjoint(m.ones(3)),
    "cholesky_inverse_not_square": lambda m: m.cholesky_inverse(m.ones(2, 3)),
    "matrix_rank_int": lambda m: m.linalg.matrix_rank(m.ones(2, 2, dtype=m.int64)),
    "cond_fro_not_square": lambda m: m.linalg.cond(m.ones(2, 3), "fro"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_pytorch(name):
    same_error(ERRORS[name])


def test_linalg_error_class():
    """A matrix that must be positive-definite or invertible: linalg.LinAlgError, a
    RuntimeError (as torch.linalg.LinAlgError)."""
    with pytest.raises(ac.linalg.LinAlgError) as info:
        ac.linalg.cholesky(ac.tensor([[1., 2.], [2., 1.]]))
    assert isinstance(info.value, RuntimeError)
    with pytest.raises(ac.linalg.LinAlgError):
        ac.linalg.inv_ex(ac.zeros(2, 2), check_errors=True)


def test_eig_of_an_input_requiring_grad_records():
    """linalg.eig/eigvals of an input that requires grad record PyTorch's node
    (LinalgEigBackward0; tests/test_complex_autograd.py compares the gradients)."""
    import torch
    for mod in (torch, ac):
        x = mod.eye(2, requires_grad=True)
        assert type(mod.linalg.eig(x)[0].grad_fn).__name__ == "LinalgEigBackward0"
        assert type(mod.linalg.eigvals(x).grad_fn).__name__ == "LinalgEigBackward0"
    with pytest.raises(RuntimeError, match="square"):
        ac.linalg.eig(ac.ones(2, 3))


# ------------------------------------------------------------------ results

def _fields(r, *names):
    """A named result: its type's name, its fields by name (the same as by position)."""
    assert all(getattr(r, n) is r[k] for k, n in enumerate(names))
    return type(r).__name__, [getattr(r, n) for n in names]


def test_named_tuples_print_as_pytorch():
    def prog(m):
        A = m.tensor([[4., 2.], [2., 3.]])
        return [repr(m.linalg.cholesky_ex(A)), repr(m.linalg.slogdet(A)),
                repr(m.linalg.qr(m.tensor([[3., 0.], [4., 5.]]))),
                repr(m.linalg.lu_factor(m.tensor([[1., 2.], [3., 4.]]))),
                repr(m.linalg.inv_ex(A)), repr(m.linalg.eigh(m.tensor([[2., 0.], [0., 1.]]))),
                _fields(m.svd(A), "U", "S", "V"), _fields(m.linalg.svd(A), "U", "S", "Vh"),
                _fields(m.geqrf(A), "a", "tau"),
                _fields(m.triangular_solve(A, A), "solution", "cloned_coefficient"),
                _fields(m.linalg.lstsq(A, A), "solution", "residuals", "rank", "singular_values"),
                _fields(m.linalg.ldl_factor_ex(A), "LD", "pivots", "info"),
                _fields(m.lu_unpack(*m.linalg.lu_factor(A)), "P", "L", "U"),
                _fields(m.linalg.lu(A), "P", "L", "U"), _fields(m.qr(A), "Q", "R"),
                _fields(m.slogdet(A), "sign", "logabsdet"),
                _fields(m.linalg.solve_ex(A, A), "result", "info"),
                _fields(m.linalg.lu_factor_ex(A), "LU", "pivots", "info"),
                _fields(m.linalg.ldl_factor(A), "LD", "pivots")]
    same(prog, quiet=True)


def test_singular_inputs_without_errors():
    def prog(m):
        z = m.zeros(2, 3, 3, dtype=m.float64)
        z[0] = m.eye(3, dtype=m.float64)
        return [m.linalg.inv_ex(z).info, m.linalg.solve_ex(z, m.ones(2, 3, 1, dtype=m.float64)).info,
                m.linalg.lu_factor_ex(z).info, m.linalg.cholesky_ex(z).info, m.linalg.slogdet(z),
                m.linalg.matrix_rank(z), m.linalg.cond(z[1], "fro"), m.linalg.cond(z[1], "nuc"),
                m.linalg.ldl_factor_ex(z).info]
    same(prog, quiet=True)


# ------------------------------------------------------------------ derivatives PyTorch lacks

def test_geqrf_is_not_differentiable():
    def prog(m):
        a = data(m, 3, 2, requires_grad=True)
        r = m.geqrf(a)
        names = [type(t.grad_fn).__name__ for t in r]
        err = catch(lambda: r.a.sum().backward())
        return names, err
    same(prog)


def test_qr_mode_r_is_not_differentiable():
    def prog(m):
        a = data(m, 3, 2, requires_grad=True)
        return catch(lambda: m.linalg.qr(a, mode="r").R.sum().backward())
    same(prog)


def test_qr_complete_tall_is_not_differentiable():
    def prog(m):
        a = data(m, 3, 2, requires_grad=True)
        return catch(lambda: m.linalg.qr(a, mode="complete").Q.sum().backward())
    same(prog)


def test_cond_of_inverse_norms_cannot_be_differentiated():
    """PyTorch's cond(A, 'fro') fills the inverse's infinities in place: its backward
    raises the modified-by-an-inplace-operation error, here as there."""
    def prog(m):
        a = data(m, 3, 3, requires_grad=True)
        c = m.linalg.cond(a, "fro")
        return type(c.grad_fn).__name__, type(catch(c.backward).exc).__name__
    same(prog)


def test_lstsq_residuals_gradient():
    """The residuals (driver gelsd, a tall full-rank A) are differentiable: checked against
    PyTorch and with gradcheck."""
    def prog(m):
        a = data(m, 5, 2, seed=1, requires_grad=True)
        b = data(m, 5, 3, seed=2, requires_grad=True)
        r = m.linalg.lstsq(a, b, driver="gelsd")
        r.residuals.sum().backward()
        return r.residuals, a.grad, b.grad
    same(prog, rtol=1e-9, atol=1e-10)
    a = data(ac, 5, 2, seed=1, requires_grad=True)
    b = data(ac, 5, 3, seed=2, requires_grad=True)
    assert ac.autograd.gradcheck(lambda x, y: ac.linalg.lstsq(x, y, driver="gelsd").residuals,
                                 (a, b))
    assert ac.autograd.gradgradcheck(lambda x, y: ac.linalg.lstsq(x, y, driver="gelsd").residuals,
                                     (a, b))


def test_eigh_and_svd_gradients_are_gauge_invariant():
    """A loss invariant to the eigenvectors' signs: the same gradient as PyTorch."""
    def prog(m):
        a = data(m, 4, 4, seed=3, requires_grad=True)
        w, v = m.linalg.eigh(a + a.mT)
        (v * v).pow(2).sum().backward()
        g1 = a.grad.clone()
        a.grad = None
        U, S, Vh = m.linalg.svd(a, full_matrices=False)
        ((U[:, :2] @ Vh[:2]) ** 2).sum().backward()
        return w, g1, a.grad
    same(prog, rtol=1e-8, atol=1e-9)


# ------------------------------------------------------------------ products: issue 8 corners

def test_addmm_result_is_writable():
    def prog(m):
        out = m.addmm(m.ones(2), m.ones(2, 3), m.ones(3, 2))
        out.add_(1)
        out2 = m.addmm(m.ones(2, 2), m.ones(2, 3), m.ones(3, 2), beta=0)
        out2[0, 0] = 7.
        return out, out2
    same(prog)


EMPTY_PRODUCTS = {
    "bmm_empty_contraction": lambda m: m.bmm(m.ones(1, 2, 0), m.ones(1, 0, 2, dtype=m.float64)),
    "bmm_empty_rows": lambda m: m.bmm(m.ones(1, 0, 3, dtype=m.float64), m.ones(1, 3, 2)),
    "bmm_empty_batch": lambda m: m.bmm(m.ones(0, 2, 3, dtype=m.int64), m.ones(0, 3, 1)),
    "matmul_batched_empty": lambda m: m.matmul(m.ones(2, 2, 0), m.ones(2, 0, 2, dtype=m.float64)),
    "mm_empty_mixed": lambda m: m.mm(m.ones(2, 0), m.ones(0, 2, dtype=m.float64)),
    "einsum_empty_mixed": lambda m: m.einsum("ij,jk->ik", m.ones(2, 0), m.ones(0, 3, dtype=m.float64)),
    "einsum_empty_rows": lambda m: m.einsum("ij,jk->ik", m.ones(0, 3, dtype=m.int64), m.ones(3, 2)),
    "einsum_mixed": lambda m: m.einsum("ij,jk->ik", m.ones(2, 3), m.ones(3, 2, dtype=m.float64)),
    "einsum_mul_mixed": lambda m: m.einsum("ij,ij->ij", m.ones(2, 3), m.ones(2, 3, dtype=m.float64)),
}


@pytest.mark.parametrize("name", list(EMPTY_PRODUCTS))
def test_mixed_dtype_products(name):
    """PyTorch's matrix products need one dtype, but return before the check (zeros of the
    second operand's dtype) when the result is empty or the contraction has length 0."""
    same(EMPTY_PRODUCTS[name], may_raise=True)


def test_bmm_empty_mixed_gradient():
    def prog(m):
        a = m.ones(1, 2, 0, requires_grad=True)
        b = m.ones(1, 0, 2, dtype=m.float64, requires_grad=True)
        out = m.bmm(a, b)
        out.sum().backward()
        return out, a.grad, b.grad
    same(prog, may_raise=True)


def test_distance_double_backward_raises():
    """cdist's and pdist's first derivatives are not differentiable in PyTorch: the same
    node names and the same error here."""
    def prog(m):
        out = []
        for f in (lambda a, b: m.cdist(a, b), lambda a, b: m.pdist(a)):
            a = data(m, 4, 3, seed=4, requires_grad=True)
            b = data(m, 5, 3, seed=5)
            g, = m.autograd.grad(f(a, b).sum(), a, create_graph=True)
            out += [type(g.grad_fn).__name__, catch(lambda: m.autograd.grad(g.sum(), a))]
        return out
    same(prog)


def test_distance_gradcheck():
    a = data(ac, 4, 3, seed=6, requires_grad=True)
    b = data(ac, 2, 5, 3, seed=7, requires_grad=True)
    for p in (0.5, 1.5, 2.0, 3.0):
        assert ac.autograd.gradcheck(lambda x, y: ac.cdist(x, y, p=p), (a, b))
        assert ac.autograd.gradcheck(lambda x: ac.pdist(x, p=p), (a,))


def test_cov_degrees_of_freedom_warning():
    def prog(m):
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            c = m.cov(m.tensor([[1., 2.]]), correction=2)
        return c, [str(x.message) for x in w]
    same(prog)
