"""Complex autograd (issue 27, item 2), compared with PyTorch: complex leaves, the
derivative formulas' conjugations (PyTorch's convention: the gradient of a real loss with
respect to a complex input is the conjugate Wirtinger derivative PyTorch returns), the
real <-> complex transitions, gradcheck/gradgradcheck and forward mode on complex values,
the engine's errors, and a sweep of the op table on complex inputs that require grad
(every form gives PyTorch's gradients or refuses: Note [Complex autograd]).
"""
import warnings

from functools import partial

import numpy as np
import pytest

from _diff import (Raised, assert_same, catch, complex_data, graph_desc, real_loss, same,
                   same_error, sub_name, torch)
import autograd_core
import op_table
from op_spec import case_args, case_seed, is_shape, make_arrays


_z = partial(complex_data, requires_grad=True)


def _x(mod, *shape, seed=0, dtype="float64", requires_grad=True):
    rng = np.random.default_rng(seed)
    return mod.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=requires_grad)


_loss = real_loss


# ------------------------------------------------------------------ leaves

def test_complex_leaves_require_grad():
    def prog(m):
        a = m.tensor([1 + 2j, 3j], requires_grad=True)
        b = m.randn(2, dtype=m.cfloat, requires_grad=True)
        c = m.zeros(2, dtype=m.complex128).requires_grad_()
        d = m.ones(2, dtype=m.complex64)
        d.requires_grad = True
        p = m.nn.Parameter(m.ones(2, dtype=m.cdouble))
        return [(t.requires_grad, t.is_leaf, t.dtype) for t in (a, b, c, d, p)]
    same(prog)


# ------------------------------------------------------------------ gradients of programs

_PROGRAMS = {
    # holomorphic and not, compared with PyTorch's gradients
    "mul": lambda m, z, w, x: _loss(m, z * w),
    "mul_self_conj": lambda m, z, w, x: _loss(m, z * z.conj()),
    "div": lambda m, z, w, x: _loss(m, z / w),
    "add_alpha": lambda m, z, w, x: _loss(m, m.add(z, w, alpha=2)),
    "sub_alpha": lambda m, z, w, x: _loss(m, m.sub(z, w, alpha=0.5)),
    "exp_log": lambda m, z, w, x: _loss(m, (z.exp() + w.log())),
    "sqrt_rsqrt": lambda m, z, w, x: _loss(m, z.sqrt() * w.rsqrt()),
    "trig": lambda m, z, w, x: _loss(m, z.sin() + z.cos() * w.tan()),
    "hyperbolic": lambda m, z, w, x: _loss(m, z.sinh() + w.cosh() + z.tanh()),
    "sigmoid": lambda m, z, w, x: _loss(m, z.sigmoid()),
    "reciprocal_square": lambda m, z, w, x: _loss(m, z.reciprocal() + w.square()),
    "pow": lambda m, z, w, x: _loss(m, z.pow(3) + z ** w + 2 ** z),
    "exp2_expm1": lambda m, z, w, x: _loss(m, z.exp2() + w.expm1() + z.log2() + w.log10()),
    "abs": lambda m, z, w, x: _loss(m, z.abs()),
    "sgn": lambda m, z, w, x: _loss(m, z.sgn()),
    "angle": lambda m, z, w, x: _loss(m, z.angle()),
    "real_imag": lambda m, z, w, x: _loss(m, z.real * 2 + w.imag * 3),
    "view_as_real": lambda m, z, w, x: _loss(m, m.view_as_real(z)),
    "conj": lambda m, z, w, x: _loss(m, z.conj() * w),
    "sum_mean": lambda m, z, w, x: _loss(m, z.sum(0) + w.mean(0)),
    "matmul": lambda m, z, w, x: _loss(m, z @ w.mT),
    "mm_bmm": lambda m, z, w, x: _loss(m, m.mm(z, w.t()) + m.bmm(z[None], w.t()[None])[0]),
    "mv_dot_vdot": lambda m, z, w, x: _loss(m, m.mv(z, w[0]).sum() + m.dot(z[0], w[1])
                                            + m.vdot(z[1], w[0])),
    "addmm": lambda m, z, w, x: _loss(m, m.addmm(z[:, :2], z, w.t()[:, :2], beta=0.5,
                                                alpha=2)),
    "inv": lambda m, z, w, x: _loss(m, m.linalg.inv(z[:, :2] + 3 * m.eye(2))),
    "shapes": lambda m, z, w, x: _loss(m, m.cat([z.t().reshape(-1), w.flip(0).flatten()])
                                      + m.stack([z, w]).permute(2, 0, 1).sum((1, 2)).repeat(
                                          4)[:16]),
    "indexing": lambda m, z, w, x: _loss(m, z[1:, ::2] + w.index_select(1, m.tensor([0, 2]))
                                        .expand(2, 2)),
    "where_masked_fill": lambda m, z, w, x: _loss(m, m.where(z.real > 0, z, w)
                                                  .masked_fill(w.imag > 0, 0)),
    "clone_to": lambda m, z, w, x: _loss(m, z.clone().to(m.complex64)),
    "cumsum_trace": lambda m, z, w, x: _loss(m, z.cumsum(1)) + _loss(m, z[:, :3].trace()),
    "unbind_split": lambda m, z, w, x: _loss(m, z.unbind(0)[1] + w.split(2, 1)[0].reshape(-1)),
    # addcmul, addcdiv, lerp, cross (PyTorch's conjugated formulas; lerp's complex weights too)
    "addcmul": lambda m, z, w, x: _loss(m, m.addcmul(z, z, w) + m.addcmul(w, z, w, value=2)),
    "addcdiv": lambda m, z, w, x: _loss(m, m.addcdiv(z, z, w) + m.addcdiv(w, z, w, value=0.5)),
    "addcmul_addcdiv_inplace": lambda m, z, w, x: _loss(
        m, (z * 1).addcmul_(z, w, value=1.5).addcdiv_(w, z + 2, value=-1)),
    "lerp_scalar": lambda m, z, w, x: _loss(m, m.lerp(z, w, 0.3) + m.lerp(w, z, 0.7 - 0.2j)
                                            + m.lerp(z, w, 2.5)),
    "lerp_tensor": lambda m, z, w, x: _loss(m, m.lerp(z, w, z * w) + z.lerp(w, w.exp())),
    "lerp_inplace": lambda m, z, w, x: _loss(m, (z * 1).lerp_(w, 0.25).lerp_(z, w)),
    "cross": lambda m, z, w, x: _loss(m, m.linalg.cross(z[:, :3], w[:, 1:])
                                      + m.cross(z[:, 1:], w[:, :3], dim=1)),
    "cross_dim0": lambda m, z, w, x: _loss(m, m.linalg.cross(
        z.reshape(4, 2)[:3], w.reshape(4, 2)[1:], dim=0)),
    "cross_broadcast": lambda m, z, w, x: _loss(m, m.linalg.cross(z[:, :3], w[:1, 1:])),
    "addcmul_real_tensor": lambda m, z, w, x: _loss(m, m.addcmul(z, x, w) + m.addcdiv(x, z, w)),
    # real -> complex
    "complex": lambda m, z, w, x: _loss(m, m.complex(x, x.flip(1) * 2)),
    "polar": lambda m, z, w, x: _loss(m, m.polar(x.abs(), x.flip(0))),
    "view_as_complex": lambda m, z, w, x: _loss(m, m.view_as_complex(x.reshape(2, 2, 2))),
    "real_times_1j": lambda m, z, w, x: _loss(m, x * 1j + x),
    "real_plus_complex": lambda m, z, w, x: _loss(m, x + z * x),
    "to_complex": lambda m, z, w, x: _loss(m, x.to(m.complex128) * w),
    "real_complex_matmul": lambda m, z, w, x: _loss(m, x.to(m.cdouble) @ w.t()),
    "broadcast_real_into_complex": lambda m, z, w, x: _loss(m, z * x[0]),
    # complex -> real
    "abs_loss": lambda m, z, w, x: (z * w).abs().sum(),
    "norm_by_hand": lambda m, z, w, x: (z.real ** 2 + z.imag ** 2).sum().sqrt(),
    "angle_of_product": lambda m, z, w, x: (z * x).angle().sum(),
}


def _program_grads(name):
    def prog(m):
        z = _z(m, 2, 4, seed=1)
        w = _z(m, 2, 4, seed=2)
        x = _x(m, 2, 4, seed=3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loss = _PROGRAMS[name](m, z, w, x)
            grads = m.autograd.grad(loss, (z, w, x), allow_unused=True)
        return loss, grads
    return prog


@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_gradients_match_pytorch(name):
    same(_program_grads(name), rtol=1e-6, atol=1e-8)


# ------------------------------------------------------------------ decompositions, solvers,
# norms, products, nn ops (each with PyTorch's conjugations: its FunctionsManual formulas)

def _spd(m, a):
    """A Hermitian positive-definite matrix from a."""
    return a @ a.mH + 3 * m.eye(a.shape[-1])


def _zeros_at(m, a):
    return a * m.tensor([[1., 0, 1], [1, 1, 1], [0, 0, 1]])


def _svd_invariant(U, S, Vh):
    # a loss that does not depend on the singular vectors' phases
    return U @ Vh, S


_MATRIX_PROGRAMS = {
    "prod": lambda m, a, b: (m.prod(a), a.prod(1), a.prod(0, keepdim=True)),
    "prod_with_zeros": lambda m, a, b: (_zeros_at(m, a).prod(1), _zeros_at(m, a).prod(0)),
    "prod_one_zero": lambda m, a, b: (a * m.tensor([[1., 0, 1], [1, 1, 1], [1, 1, 1]])).prod(),
    "cumprod": lambda m, a, b: a.cumprod(1),
    "cumprod_with_zeros": lambda m, a, b: (_zeros_at(m, a).cumprod(1), _zeros_at(m, a).cumprod(0)),
    "det": lambda m, a, b: (m.linalg.det(a), m.det(b), m.linalg.det(m.stack([a, b]))),
    "slogdet": lambda m, a, b: m.linalg.slogdet(a),
    "slogdet_sign_only": lambda m, a, b: m.linalg.slogdet(a).sign,
    "logdet": lambda m, a, b: m.logdet(a),
    "inv": lambda m, a, b: (m.linalg.inv(a), m.inverse(b)),
    "solve": lambda m, a, b: (m.linalg.solve(a, b), m.linalg.solve(a, b[:, 0]),
                              m.linalg.solve(b, a, left=False)),
    "solve_triangular": lambda m, a, b: (
        m.linalg.solve_triangular(a.triu() + 3 * m.eye(3), b, upper=True),
        m.linalg.solve_triangular(a.tril() + 3 * m.eye(3), b, upper=False, left=False)),
    "lu_solve": lambda m, a, b: m.linalg.lu_solve(*m.linalg.lu_factor(a), b),
    "lu_solve_adjoint": lambda m, a, b: (
        m.linalg.lu_solve(*m.linalg.lu_factor(a), b, adjoint=True),
        m.linalg.lu_solve(*m.linalg.lu_factor(a), b, left=False)),
    "cholesky": lambda m, a, b: (m.linalg.cholesky(_spd(m, a)),
                                 m.linalg.cholesky(_spd(m, b), upper=True)),
    "cholesky_solve": lambda m, a, b: (
        m.cholesky_solve(b, m.linalg.cholesky(_spd(m, a))),
        m.cholesky_solve(b, m.linalg.cholesky(_spd(m, a), upper=True), upper=True)),
    "qr": lambda m, a, b: (m.linalg.qr(a), m.linalg.qr(a[:2]), m.linalg.qr(m.cat([a, b]))),
    "svdvals": lambda m, a, b: (m.linalg.svdvals(a), m.linalg.svdvals(a[:2])),
    "svd_phase_invariant": lambda m, a, b: (
        _svd_invariant(*m.linalg.svd(a)),
        _svd_invariant(*m.linalg.svd(m.cat([a, b]), full_matrices=False)),
        _svd_invariant(*m.linalg.svd(a[:2], full_matrices=False))),
    "eigvalsh": lambda m, a, b: m.linalg.eigvalsh(a + a.mH),
    "eigh_phase_invariant": lambda m, a, b: (
        lambda L, V: (V @ (V.mH * L.unsqueeze(-1)), L))(*m.linalg.eigh(a + a.mH)),
    "eigvals": lambda m, a, b: m.linalg.eigvals(a),
    "eig_phase_invariant": lambda m, a, b: (
        lambda L, V: (V.abs(), L))(*m.linalg.eig(a)),
    "vector_norm": lambda m, a, b: (m.linalg.vector_norm(a), m.linalg.vector_norm(a, 1, dim=1),
                                    m.linalg.vector_norm(a, 3),
                                    m.linalg.vector_norm(b, float("inf"), dim=0)),
    "matrix_norm": lambda m, a, b: (m.linalg.matrix_norm(a), m.linalg.matrix_norm(a, "nuc"),
                                    m.linalg.matrix_norm(a, 2), m.linalg.matrix_norm(b, 1)),
    "norm": lambda m, a, b: (m.linalg.norm(a), m.norm(b), a.norm(3, dim=1)),
    "pinv": lambda m, a, b: (m.linalg.pinv(a), m.linalg.pinv(a[:2]),
                             m.linalg.pinv(m.cat([a, b]))),
    "matrix_exp": lambda m, a, b: (m.linalg.matrix_exp(a * 0.5), m.matrix_exp(b * 2)),
    "linear": lambda m, a, b: m.nn.functional.linear(a, b, b[0]),
    "conv1d": lambda m, a, b: (m.nn.functional.conv1d(a[None], b[:, :, None].expand(3, 3, 2)),
                               m.nn.functional.conv1d(a[None], b[:, :, None], b[0],
                                                      padding=1)),
    "conv2d": lambda m, a, b: m.nn.functional.conv2d(a[None, None], b[None, None, :2, :2]),
    "conv_transpose1d": lambda m, a, b: m.nn.functional.conv_transpose1d(
        a[None], b[:, :, None].expand(3, 3, 2), stride=2),
    "l1_loss": lambda m, a, b: m.nn.functional.l1_loss(a, b),
    "pad": lambda m, a, b: m.nn.functional.pad(a, (1, 2)),
    "dropout_eval": lambda m, a, b: m.nn.functional.dropout(a, 0.5, training=False),
}


def _outs_loss(m, out, seed=1):
    if isinstance(out, (tuple, list)):
        return sum(_outs_loss(m, o, seed + 7 * k) for k, o in enumerate(out))
    return _loss(m, out, seed)


def _matrix_program_grads(name):
    def prog(m):
        a = _z(m, 3, 3, seed=1)
        b = _z(m, 3, 3, seed=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loss = _outs_loss(m, _MATRIX_PROGRAMS[name](m, a, b))
            grads = m.autograd.grad(loss, (a, b), allow_unused=True)
        return loss, grads
    return prog


@pytest.mark.parametrize("name", sorted(_MATRIX_PROGRAMS))
def test_matrix_gradients_match_pytorch(name):
    same(_matrix_program_grads(name), rtol=1e-6, atol=1e-8)


_SECOND_ORDER = {
    "tanh": lambda z: z.tanh(),
    "sigmoid": lambda z: z.sigmoid(),
    "pow_scalar": lambda z: z.pow(3),
    "mul_complex_scalar": lambda z: (z * (2 - 1j)).pow(2),
    "sqrt": lambda z: z.sqrt(),
    "addcmul": lambda z: z.addcmul(z, z.exp(), value=0.5),
    "addcdiv": lambda z: z.addcdiv(z * z, z + 3, value=2),
    "lerp_scalar": lambda z: z.lerp(z * z, 0.3 + 0.1j),
    "lerp_tensor": lambda z: z.lerp(z.exp(), z * z),
    "cross": lambda z: (z[:3] * z[1:]).cross(z[1:].exp(), dim=0),
    "asin_acos_atan": lambda z: (z * 0.3).asin() + (z * 0.3).acos() * (z * 0.3).atan(),
    "asinh_acosh_atanh_log1p": lambda z: z.asinh() + (z + 2).acosh() * (z * 0.3).atanh()
    + z.log1p(),
}


@pytest.mark.parametrize("name", sorted(_SECOND_ORDER))
def test_double_backward_matches_pytorch(name):
    def prog(m):
        z = _z(m, 4, seed=3)
        g, = m.autograd.grad(_loss(m, _SECOND_ORDER[name](z)), z, create_graph=True)
        gg, = m.autograd.grad(_loss(m, g, seed=4), z)
        return g, gg
    same(prog, rtol=1e-6, atol=1e-8)


def _phase_dependent_svd(m):
    a = _z(m, 3, 3, seed=1)
    m.linalg.svd(a)[0].real.sum().backward()


def _phase_dependent_eigh(m):
    a = _z(m, 3, 3, seed=1)
    m.linalg.eigh(a + a.mH)[1].real.sum().backward()


def _phase_dependent_eig(m):
    a = _z(m, 3, 3, seed=1)
    m.linalg.eig(a)[1].real.sum().backward()


@pytest.mark.parametrize("prog", [_phase_dependent_svd, _phase_dependent_eigh,
                                  _phase_dependent_eig])
def test_a_loss_depending_on_the_vectors_phase_raises(prog):
    same_error(prog)


def test_eig_of_a_real_matrix_gives_a_real_gradient():
    # the eigen decomposition of a real matrix is complex; A's gradient is its real part
    # (PyTorch's handle_r_to_c in linalg_eig's formula)
    def prog(m):
        x = _x(m, 3, 3, seed=5)
        L, V = m.linalg.eig(x)
        loss = _loss(m, L) + _loss(m, V.abs(), seed=2)
        g, = m.autograd.grad(loss, x)
        return g, g.dtype, type(L.grad_fn).__name__
    same(prog, rtol=1e-6, atol=1e-8)


# ------------------------------------------------------------------ complex gradients into
# real inputs: only PyTorch's handle_r_to_c ops take the real part

def test_where_with_a_real_input_and_a_complex_result_raises_at_backward():
    def prog(m):
        x = _x(m, 3)
        y = m.where(x > 0, x, m.tensor([1j, 2j, 3j], dtype=m.complex128))
        y.abs().sum().backward()
    same_error(prog)


def test_custom_function_returning_a_complex_gradient_for_a_real_input_raises():
    def prog(m):
        class F(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * (1 + 1j)
        F.apply(_x(m, 3)).sum().backward()
    same_error(prog)


@pytest.mark.parametrize("prog", [
    lambda m, x, z: x * z, lambda m, x, z: z / x, lambda m, x, z: x + z,
    lambda m, x, z: z - x, lambda m, x, z: x.to(m.complex128) * z,
    lambda m, x, z: m.cat([x, z]), lambda m, x, z: m.stack([x, z]),
    lambda m, x, z: x * 1j, lambda m, x, z: m.complex(x, x * 2)])
def test_handle_r_to_c_ops_give_a_real_input_the_real_part(prog):
    def run(m):
        x = _x(m, 3, seed=6)
        z = _z(m, 3, seed=7, requires_grad=False)
        g, = m.autograd.grad(_loss(m, prog(m, x, z)), x)
        return g, g.dtype
    same(run, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("name", ["mul", "exp_log", "abs", "matmul", "complex", "angle"])
def test_gradients_complex64(name):
    def prog(m):
        z = _z(m, 2, 4, seed=1, dtype="complex64")
        w = _z(m, 2, 4, seed=2, dtype="complex64")
        x = _x(m, 2, 4, seed=3, dtype="float32")
        loss = _PROGRAMS[name](m, z, w, x)
        return loss, m.autograd.grad(loss, (z, w, x), allow_unused=True)
    same(prog, rtol=1e-4, atol=1e-5)


def test_backward_accumulates_into_complex_leaves():
    def prog(m):
        z = _z(m, 3)
        (z * z).abs().sum().backward()
        (z.conj() * 2j).real.sum().backward()
        return z.grad, z.grad.dtype
    same(prog, rtol=1e-7, atol=1e-9)


def test_real_leaf_receives_the_real_part():
    # a real input of an op with a complex result gets the real part of its gradient
    # (PyTorch's handle_r_to_c), of the real dtype
    def prog(m):
        x = _x(m, 3)
        z = _z(m, 3, requires_grad=False)
        (x * z).abs().sum().backward()
        return x.grad, x.grad.dtype
    same(prog, rtol=1e-7, atol=1e-9)


def test_double_backward_on_complex():
    def prog(m):
        z = _z(m, 3)
        w = _z(m, 3, seed=5)
        y = (z * z * w).exp().abs().sum()
        g, = m.autograd.grad(y, z, create_graph=True)
        gg, = m.autograd.grad(_loss(m, g), z)
        return g, gg
    same(prog, rtol=1e-6, atol=1e-8)


def test_grad_fn_names():
    def prog(m):
        z = _z(m, 2)
        x = _x(m, 2)
        return [type(t.grad_fn).__name__ for t in (
            z.real, z.imag, m.view_as_real(z), z.conj(), z.abs(), z.angle(), z.sgn(),
            m.complex(x, x), m.polar(x, x), m.view_as_complex(x.reshape(1, 2)), x * 1j,
            x.to(m.cfloat))]
    same(prog)


# ------------------------------------------------------------------ errors

def test_backward_of_a_complex_scalar_needs_a_gradient():
    same_error(lambda m: (_z(m, 2) * 2).sum().backward())


def test_autograd_grad_of_a_complex_output_needs_grad_outputs():
    def prog(m):
        z = _z(m, 1)
        return m.autograd.grad(z.sum(), z)
    same_error(prog)


def test_grad_output_dtype_mismatch():
    def real_seed(m):
        z = _z(m, 2)
        (z * 2).backward(m.ones(2, dtype=m.float64))

    def complex_seed(m):
        z = _z(m, 2)
        z.abs().backward(m.ones(2, dtype=m.complex128))
    same_error(real_seed)
    same_error(complex_seed)


def test_a_complex_seed_of_the_right_dtype_backpropagates():
    def prog(m):
        z = _z(m, 2)
        (z * (1 + 1j)).backward(m.tensor([1j, 2], dtype=m.complex128))
        return z.grad
    same(prog)


# ------------------------------------------------------------------ gradcheck

_GRADCHECK = {
    "mul": lambda z, w: z * w,
    "div_exp": lambda z, w: (z / w).exp(),
    "abs": lambda z, w: (z * w).abs(),
    "angle": lambda z, w: z.angle() + w.real,
    "sgn": lambda z, w: z.sgn(),
    "real_imag": lambda z, w: z.real * w.imag,
    "matmul": lambda z, w: z.reshape(2, 2) @ w.reshape(2, 2),
    "view_as_real": lambda z, w: autograd_core.view_as_real(z * w),
    "tanh_sqrt": lambda z, w: z.tanh() + w.sqrt(),
    "pow": lambda z, w: z ** w,
    "inv": lambda z, w: autograd_core.linalg.inv(z.reshape(2, 2) + 3 * autograd_core.eye(2)),
    "addcmul": lambda z, w: autograd_core.addcmul(z, z, w, value=-2),
    "addcdiv": lambda z, w: autograd_core.addcdiv(w, z, w + 3, value=3),
    "lerp_scalar": lambda z, w: autograd_core.lerp(z, w, 0.3 - 0.4j),
    "lerp_tensor": lambda z, w: autograd_core.lerp(z, w, z * w),
    "cross": lambda z, w: autograd_core.linalg.cross(z[:3], w[1:]),
    "inverse_trig": lambda z, w: (z * 0.3).asin() + (w * 0.3).acos() + z.atan() + w.asinh()
    + (z + 3).acosh() + (w * 0.3).atanh() + z.log1p(),
}


@pytest.mark.parametrize("name", sorted(_GRADCHECK))
def test_gradcheck_complex(name):
    z = _z(autograd_core, 4, seed=7)
    w = _z(autograd_core, 4, seed=8)
    f = _GRADCHECK[name]
    assert autograd_core.autograd.gradcheck(f, (z, w))
    if name in _NO_COMPLEX_DOUBLE_BACKWARD:
        # the derivative ops of tanh/sqrt (tanh_backward, mul_scalar) have no complex
        # formulas yet: a second derivative refuses instead of being wrong
        with pytest.raises(RuntimeError, match="does not support automatic differentiation"):
            autograd_core.autograd.gradgradcheck(f, (z, w))
        return
    assert autograd_core.autograd.gradgradcheck(f, (z, w))


_NO_COMPLEX_DOUBLE_BACKWARD = set()


def _eye(n):
    return autograd_core.eye(n, dtype=autograd_core.complex128)


_LA = autograd_core.linalg
_GRADCHECK_MATRIX = {
    "prod": lambda a, b: a.prod(1),
    "cumprod": lambda a, b: a.cumprod(0),
    "det": lambda a, b: _LA.det(a),
    "slogdet": lambda a, b: _LA.slogdet(a),
    "logdet": lambda a, b: autograd_core.logdet(a),
    "solve": lambda a, b: _LA.solve(a + 3 * _eye(3), b),
    "solve_triangular": lambda a, b: _LA.solve_triangular(a.triu() + 3 * _eye(3), b,
                                                          upper=True),
    "lu_solve": lambda a, b: _LA.lu_solve(*_LA.lu_factor(a + 3 * _eye(3)), b),
    "cholesky": lambda a, b: _LA.cholesky(a @ a.mH + 3 * _eye(3)),
    "cholesky_solve": lambda a, b: autograd_core.cholesky_solve(
        b, _LA.cholesky(a @ a.mH + 3 * _eye(3))),
    "qr": lambda a, b: _LA.qr(a),
    "svdvals": lambda a, b: _LA.svdvals(a),
    "svd_phase_invariant": lambda a, b: (lambda U, S, Vh: (U @ Vh, S))(*_LA.svd(a)),
    "eigvalsh": lambda a, b: _LA.eigvalsh(a + a.mH),
    "eigh_phase_invariant": lambda a, b: (
        lambda L, V: V @ (V.mH * L.unsqueeze(-1)))(*_LA.eigh(a + a.mH)),
    "eigvals": lambda a, b: _LA.eigvals(a),
    "vector_norm": lambda a, b: _LA.vector_norm(a, dim=1),
    "matrix_norm_nuc": lambda a, b: _LA.matrix_norm(a, "nuc"),
    "pinv": lambda a, b: _LA.pinv(a),
    "matrix_exp": lambda a, b: _LA.matrix_exp(a * 0.5),
    "linear": lambda a, b: autograd_core.nn.functional.linear(a, b),
    "conv1d": lambda a, b: autograd_core.nn.functional.conv1d(a[None], b[:, :, None]),
}
# (forward mode and second derivatives: every entry; the decompositions' through the
# phase-invariant functions above, as PyTorch's OpInfo checks them)
_NO_GRADGRADCHECK = set()
_FORWARD_AD = set(_GRADCHECK_MATRIX)


@pytest.mark.parametrize("name", sorted(_GRADCHECK_MATRIX))
def test_gradcheck_complex_matrices(name):
    a = _z(autograd_core, 3, 3, seed=1)
    b = _z(autograd_core, 3, 3, seed=2)
    f = _GRADCHECK_MATRIX[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert autograd_core.autograd.gradcheck(f, (a, b))
        if name in _FORWARD_AD:
            assert autograd_core.autograd.gradcheck(f, (a, b), check_forward_ad=True,
                                                    check_backward_ad=False,
                                                    check_undefined_grad=False)
        if name not in _NO_GRADGRADCHECK:
            assert autograd_core.autograd.gradgradcheck(f, (a, b))


@pytest.mark.parametrize("name", ["mul", "div_exp", "abs", "angle", "sgn", "real_imag",
                                  "matmul", "view_as_real", "addcmul", "addcdiv",
                                  "lerp_scalar", "lerp_tensor", "cross", "inverse_trig"])
def test_gradcheck_complex_forward_ad(name):
    z = _z(autograd_core, 4, seed=7)
    w = _z(autograd_core, 4, seed=8)
    assert autograd_core.autograd.gradcheck(_GRADCHECK[name], (z, w), check_forward_ad=True)


def test_gradcheck_real_to_complex_and_back():
    x = _x(autograd_core, 4, seed=9)
    y = _x(autograd_core, 4, seed=10)
    assert autograd_core.autograd.gradcheck(lambda a, b: autograd_core.complex(a, b).exp(),
                                            (x, y), check_forward_ad=True)
    assert autograd_core.autograd.gradcheck(lambda a, b: autograd_core.polar(a, b).exp(),
                                            (x.abs(), y))
    assert autograd_core.autograd.gradgradcheck(lambda a: (a * 1j).exp().abs(), (x,))


def _wrong_backward(mod):
    class MulNoConj(mod.autograd.Function):
        @staticmethod
        def forward(ctx, z, w):
            ctx.save_for_backward(z, w)
            return z * w

        @staticmethod
        def backward(ctx, g):
            z, w = ctx.saved_tensors
            return g * w, g * z   # the conjugates are missing
    return MulNoConj


def test_gradcheck_catches_a_missing_conjugate():
    # the same failure as PyTorch's, naming the part of the complex output
    msgs = []
    for mod in (torch, autograd_core):
        z = _z(mod, 2, seed=11)
        w = _z(mod, 2, seed=12)
        with pytest.raises(RuntimeError) as e:
            mod.autograd.gradcheck(_wrong_backward(mod).apply, (z, w))
        msgs.append(str(e.value).split("\n")[0])
    assert msgs[0] == msgs[1]
    assert "While considering the imaginary part of complex outputs only" in msgs[1]


def test_forward_ad_tangents_match_pytorch():
    def prog(m):
        import importlib
        fwAD = importlib.import_module(m.__name__ + ".autograd.forward_ad")
        z = _z(m, 3, requires_grad=False)
        t = _z(m, 3, seed=4, requires_grad=False)
        x = _x(m, 3, requires_grad=False)
        out = []
        with fwAD.dual_level():
            d = fwAD.make_dual(z, t)
            for f in (lambda a: a * a, lambda a: a.exp(), lambda a: a.abs(), lambda a: a.angle(),
                      lambda a: a.sgn(), lambda a: a.real, lambda a: a.conj(),
                      lambda a: m.view_as_real(a), lambda a: a.sin() / a,
                      lambda a: a.sum(), lambda a: m.complex(a.real, x)):
                out.append(fwAD.unpack_dual(f(d)).tangent)
        return out
    same(prog, rtol=1e-7, atol=1e-9)


def test_forward_ad_tangents_of_addc_lerp_cross_match_pytorch():
    # every input dual, complex weights: PyTorch's closed forms (lerp: the op on the
    # tangents plus weight_t * (end - self); cross: the product rule)
    def prog(m):
        import importlib
        fwAD = importlib.import_module(m.__name__ + ".autograd.forward_ad")
        a, b, c = (_z(m, 2, 3, seed=s, requires_grad=False) for s in (1, 2, 3))
        ta, tb, tc = (_z(m, 2, 3, seed=s, requires_grad=False) for s in (4, 5, 6))
        with fwAD.dual_level():
            da, db, dc = fwAD.make_dual(a, ta), fwAD.make_dual(b, tb), fwAD.make_dual(c, tc)
            outs = [m.addcmul(da, db, dc, value=2), m.addcdiv(da, db, dc + 3, value=0.5),
                    m.lerp(da, db, 0.3 + 0.2j), m.lerp(da, db, dc), m.linalg.cross(da, db),
                    m.cross(da, b, dim=1), m.addcmul(a, db, c), m.lerp(a, b, dc)]
            return [fwAD.unpack_dual(o).tangent for o in outs]
    same(prog, rtol=1e-7, atol=1e-9)


def test_addc_lerp_cross_out_and_inplace_values_match_pytorch():
    def prog(m):
        a, b, c = (_z(m, 2, 3, seed=s, requires_grad=False) for s in (1, 2, 3))
        o = m.empty(2, 3, dtype=m.complex128)
        res = [m.addcmul(a, b, c, value=3, out=o).clone(), m.addcdiv(a, b, c, out=o).clone(),
               m.lerp(a, b, 0.5j, out=o).clone(), m.lerp(a, b, c, out=o).clone(),
               m.linalg.cross(a, b, out=o).clone(), m.cross(a, b, dim=1, out=o).clone()]
        res += [a.clone().addcmul_(b, c), a.clone().addcdiv_(b, c, value=2),
                a.clone().lerp_(b, 0.1 + 1j), a.clone().lerp_(b, c)]
        return res
    same(prog, rtol=1e-7, atol=1e-9)


def test_lerp_complex_weight_of_a_real_tensor_raises_pytorchs_error():
    same_error(lambda m: m.lerp(m.tensor([1.]), m.tensor([2.]), 1j))
    same_error(lambda m: m.lerp(m.tensor([1.], dtype=m.float64), m.tensor([2.], dtype=m.float64),
                                0.5 + 1j))


def test_addcdiv_of_integer_tensors_raises_pytorchs_error():
    # one message for the int and the unsigned paths (ops/pointwise.pyx owns it)
    for d in ("int64", "uint16"):
        same_error(lambda m: m.addcdiv(m.ones(2, dtype=getattr(m, d)),
                                       m.ones(2, dtype=getattr(m, d)),
                                       m.ones(2, dtype=getattr(m, d))))


# ------------------------------------------------------------------ the op table

def _complex_arrays(spec, case, dtype, seed):
    re = make_arrays(spec, case, "float64", seed)
    im = make_arrays(spec, case, "float64", seed + 1)
    return [(a + 1j * b).astype(dtype) for a, b in zip(re, im)]


def _outputs(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [o for o in outs if hasattr(o, "requires_grad") and o.requires_grad]


def _run_grads(mod, spec, case, arrays, seed):
    leaves = [mod.tensor(a.copy(), requires_grad=k not in case.no_grad)
              for k, a in enumerate(arrays)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = spec.fn(mod, *case_args(case, leaves))
        outs = _outputs(out)
        if not outs:
            return out, None
        loss = sum(_loss(mod, o, seed + k) for k, o in enumerate(outs))
        diff = [x for x in leaves if x.requires_grad]
        grads = mod.autograd.grad(loss, diff, allow_unused=True)
    return out, grads


# Op-table entries (the name before any ".form") where both libraries raise with
# different exception types, each with the reason; any other entry must raise PyTorch's
# exception type. (Empty: max/min, sort/argsort and histogram(dd) replay PyTorch's
# order of checks.)
_KNOWN_TYPE_DIFFERENCES = {}


def test_op_table_gradients_on_complex_inputs(capsys):
    """Every op-table entry on complex inputs that require grad (complex128, its first
    cases) under both libraries, a real loss reading every real and imaginary part of
    the outputs: where both compute, the values and gradients match; where PyTorch
    computes and autograd_core refuses, it is a form not supported yet (counted); never
    a gradient that differs from PyTorch's, nor one where PyTorch raises; where both
    raise, the same exception type (and, for the ops PyTorch does not differentiate on
    complex values, its message: Note [Complex outputs PyTorch does not differentiate])."""
    matched, refused, both_raise, bad = [], [], [], []
    type_diff, message_diff = [], []
    for spec in op_table.OPS:
        for ci, case in enumerate(spec.cases[:2]):
            if not any(is_shape(x) for x in case.inputs):
                continue
            seed = case_seed(spec.name, ci, "complex128")
            arrays = _complex_arrays(spec, case, "complex128", seed)
            want = catch(_run_grads, torch, spec, case, arrays, seed)
            got = catch(_run_grads, autograd_core, spec, case, arrays, seed)
            form = f"{spec.name}[{ci}]"
            if isinstance(got, Raised):
                if not isinstance(want, Raised):
                    refused.append(form)
                    continue
                both_raise.append(form)
                if got.type != want.type:
                    if spec.name.split(".")[0] not in _KNOWN_TYPE_DIFFERENCES:
                        type_diff.append(f"{form}: torch {want.type}: {want.message[:150]}; "
                                         f"ours {got.type}: {got.message[:150]}")
                elif got.message != sub_name(want.message):
                    message_diff.append(form)
                    if "automatic differentiation for outputs with complex" in want.message:
                        bad.append(f"{form}: torch {want.message}; ours {got.message}")
                continue
            if isinstance(want, Raised):
                bad.append(f"{form}: torch raises {want.type}: {want.message}; ours computes")
                continue
            try:
                assert_same(want, got, rtol=1e-6, atol=1e-8)
            except AssertionError as e:
                bad.append(f"{form}: {str(e)[:400]}")
                continue
            matched.append(form)
    with capsys.disabled():
        print(f"\ncomplex autograd op forms: {len(matched)} give PyTorch's gradients "
              f"({len({f.split('[')[0] for f in matched})} op-table entries), "
              f"{len(refused)} refused where PyTorch computes, {len(both_raise)} raise in "
              f"both ({len(type_diff)} with another exception type, "
              f"{len(message_diff)} with another message), {len(bad)} differ")
        print("refused here: " + " ".join(refused))
    assert not bad, "\n".join(bad[:40])
    assert not type_diff, "\n".join(type_diff[:40])
    assert len(matched) > 100


def test_autograd_set_names_ops():
    """COMPLEX_AUTOGRAD_OPS names ops of the table or hand-written recorders (no stale
    names), and only ops that take complex values at all."""
    from autograd_core._core import tensor as core
    from autograd_core import _complex
    names = set(core.op_table_addresses()) | {"index_put_", "split", "unbind", "_getitem"}
    stale = sorted(n for n in core.complex_grad_ops() if n not in names)
    assert not stale, stale
    assert core.complex_grad_ops() == _complex.COMPLEX_AUTOGRAD_OPS


# ------------------------------------------------------------------ linalg: the last complex
# derivatives (triangular_solve, cholesky_inverse), forward mode on complex inputs and
# second derivatives of the decompositions (issue 27)

def _tri(m, a, upper=True):
    return (a.triu() if upper else a.tril()) + 3 * m.eye(a.shape[-1])


_LINALG_BACKWARD = {
    "triangular_solve": lambda m, a, b: (
        m.triangular_solve(b, _tri(m, a)),
        m.triangular_solve(b, _tri(m, a, False), upper=False, transpose=True),
        m.triangular_solve(b, _tri(m, a), unitriangular=True).solution),
    "cholesky_inverse": lambda m, a, b: (
        m.cholesky_inverse(m.linalg.cholesky(_spd(m, a))),
        m.cholesky_inverse(m.linalg.cholesky(_spd(m, b), upper=True), upper=True)),
    "lu_unpack": lambda m, a, b: (m.lu_unpack(*m.linalg.lu_factor(a))[1:],
                                  m.lu_unpack(*m.linalg.lu_factor(b[:2]))[1:],
                                  m.lu_unpack(*m.linalg.lu_factor(m.cat([a, b])))[1:]),
}


@pytest.mark.parametrize("name", sorted(_LINALG_BACKWARD))
def test_linalg_complex_backward_matches_pytorch(name):
    def prog(m):
        a = _z(m, 3, 3, seed=1)
        b = _z(m, 3, 3, seed=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loss = _outs_loss(m, _LINALG_BACKWARD[name](m, a, b))
            grads = m.autograd.grad(loss, (a, b), allow_unused=True)
        return loss, grads
    same(prog, rtol=1e-6, atol=1e-8)


# each f(m, a, b) of two complex 3x3 matrices; forward mode on complex inputs (the
# tangents of torch.func.jvp, and gradcheck's check_forward_ad)
_LINALG_FORWARD = {
    "det": lambda m, a, b: m.linalg.det(a),
    "det_batched": lambda m, a, b: m.linalg.det(m.stack([a, b])),
    "slogdet": lambda m, a, b: tuple(m.linalg.slogdet(a)),
    "logdet": lambda m, a, b: m.logdet(a @ a.mH + m.eye(3)),
    "solve": lambda m, a, b: m.linalg.solve(a + 3 * m.eye(3), b),
    "solve_vector": lambda m, a, b: m.linalg.solve(a + 3 * m.eye(3), b[0]),
    "solve_left_false": lambda m, a, b: m.linalg.solve(a + 3 * m.eye(3), b, left=False),
    "solve_triangular": lambda m, a, b: m.linalg.solve_triangular(_tri(m, a), b, upper=True),
    "solve_triangular_right_unit": lambda m, a, b: m.linalg.solve_triangular(
        _tri(m, a, False), b, upper=False, left=False, unitriangular=True),
    "lu_solve": lambda m, a, b: m.linalg.lu_solve(*m.linalg.lu_factor(a + 3 * m.eye(3)), b),
    "lu_solve_adjoint": lambda m, a, b: m.linalg.lu_solve(
        *m.linalg.lu_factor(a + 3 * m.eye(3)), b, adjoint=True),
    "lu_solve_right": lambda m, a, b: m.linalg.lu_solve(
        *m.linalg.lu_factor(a + 3 * m.eye(3)), b, left=False),
    "lu_solve_right_adjoint": lambda m, a, b: m.linalg.lu_solve(
        *m.linalg.lu_factor(a + 3 * m.eye(3)), b, left=False, adjoint=True),
    "cholesky_solve": lambda m, a, b: m.cholesky_solve(b, m.linalg.cholesky(_spd(m, a))),
    "cholesky_solve_upper": lambda m, a, b: m.cholesky_solve(
        b, m.linalg.cholesky(_spd(m, a), upper=True), upper=True),
    "inv": lambda m, a, b: m.linalg.inv(a + 3 * m.eye(3)),
    "inv_ex": lambda m, a, b: m.linalg.inv_ex(a + 3 * m.eye(3)).inverse,
    "pinv": lambda m, a, b: m.linalg.pinv(a),
    "pinv_wide": lambda m, a, b: m.linalg.pinv(a[:2]),
    "pinv_tall": lambda m, a, b: m.linalg.pinv(m.cat([a, b])),
    "matrix_exp": lambda m, a, b: m.linalg.matrix_exp(a * 0.5),
    "vector_norm": lambda m, a, b: m.linalg.vector_norm(a),
    "vector_norm_ords": lambda m, a, b: (m.linalg.vector_norm(a, 1, dim=1),
                                         m.linalg.vector_norm(a, 3, dim=0, keepdim=True),
                                         m.linalg.vector_norm(a, 1.5),
                                         m.linalg.vector_norm(a, 0.5, dim=1),
                                         m.linalg.vector_norm(a, float("inf"), dim=1),
                                         m.linalg.vector_norm(a, 0)),
    "matrix_norm": lambda m, a, b: (m.linalg.matrix_norm(a), m.linalg.matrix_norm(a, 1),
                                    m.linalg.matrix_norm(a, "nuc"), m.linalg.matrix_norm(a, 2)),
    "norm": lambda m, a, b: (m.linalg.norm(a), m.norm(b), a.norm(3, dim=1)),
    "prod": lambda m, a, b: (a.prod(), a.prod(1), a.prod(0, keepdim=True)),
    "prod_with_zeros": lambda m, a, b: (_zeros_at(m, a).prod(1), _zeros_at(m, a).prod()),
    "eigvals": lambda m, a, b: m.linalg.eigvals(a),
    "eig_phase_invariant": lambda m, a, b: (lambda L, V: (V.abs(), L))(*m.linalg.eig(a)),
    "triangular_solve": lambda m, a, b: tuple(m.triangular_solve(b, _tri(m, a))),
    "cholesky_inverse": lambda m, a, b: m.cholesky_inverse(m.linalg.cholesky(_spd(m, a))),
    "addmm": lambda m, a, b: (m.addmm(a, a, b), m.addmm(a[0], b, a, beta=0.5, alpha=2)),
    "addmv": lambda m, a, b: (m.addmv(a[0], a, b[1]), m.addmv(b[0], b, a[1], beta=2, alpha=0.5)),
}


def _tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


@pytest.mark.parametrize("name", sorted(_LINALG_FORWARD))
def test_linalg_complex_jvp_matches_pytorch(name):
    def prog(m):
        a, b = _z(m, 3, 3, seed=1, requires_grad=False), _z(m, 3, 3, seed=2, requires_grad=False)
        ta, tb = _z(m, 3, 3, seed=3, requires_grad=False), _z(m, 3, 3, seed=4, requires_grad=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return m.func.jvp(lambda x, y: _tuple(_LINALG_FORWARD[name](m, x, y)), (a, b),
                              (ta, tb))
    same(prog, rtol=1e-6, atol=1e-8)


# (cholesky_inverse: PyTorch's jvp reads the factor's whole tangent while the op reads
# one triangle, so its forward-mode gradcheck fails in PyTorch too; its tangents are
# compared with PyTorch's above)
@pytest.mark.parametrize("name", sorted(set(_LINALG_FORWARD) - {"cholesky_inverse"}))
def test_linalg_complex_gradcheck_forward_ad(name):
    a = _z(autograd_core, 3, 3, seed=1)
    b = _z(autograd_core, 3, 3, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert autograd_core.autograd.gradcheck(
            lambda x, y: _LINALG_FORWARD[name](autograd_core, x, y), (a, b),
            check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False)


def _real_loss_of(f):
    # (PyTorch's OpInfo gradgradchecks the decompositions through a real function of
    # their outputs that does not depend on the vectors' phases)
    return lambda a: sum(_outs_loss(autograd_core, o, 5 + k) for k, o in enumerate(_tuple(f(a))))


_LINALG_GRADGRAD = {
    "eigvals": lambda a: _LA.eigvals(a),
    "eig_phase_invariant": lambda a: (lambda L, V: (V.abs(), L))(*_LA.eig(a)),
    "svd_phase_invariant": lambda a: (lambda U, S, Vh: (U @ Vh, S))(*_LA.svd(a)),
    "svd_reduced_wide": lambda a: (lambda U, S, Vh: (U @ Vh, S))(
        *_LA.svd(a[:2], full_matrices=False)),
    "svdvals": lambda a: _LA.svdvals(a),
    "eigh_phase_invariant": lambda a: (
        lambda L, V: (V @ (V.mH * L.unsqueeze(-1)), L))(*_LA.eigh(a + a.mH)),
    "eigvalsh": lambda a: _LA.eigvalsh(a + a.mH),
    "qr": lambda a: _LA.qr(a),
    "qr_wide": lambda a: _LA.qr(a[:2]),
    "pinv": lambda a: _LA.pinv(a),
    "matrix_exp": lambda a: _LA.matrix_exp(a * 0.5),
    "matrix_norm_nuc": lambda a: _LA.matrix_norm(a, "nuc"),
    "triangular_solve": lambda a: autograd_core.triangular_solve(
        a, a.triu() + 3 * _eye(3)).solution,
    "cholesky_inverse": lambda a: autograd_core.cholesky_inverse(
        _LA.cholesky(a @ a.mH + 3 * _eye(3))),
}


@pytest.mark.parametrize("name", sorted(_LINALG_GRADGRAD))
def test_linalg_complex_gradgradcheck(name):
    a = _z(autograd_core, 3, 3, seed=1)
    f = _LINALG_GRADGRAD[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert autograd_core.autograd.gradcheck(f, (a,))
        assert autograd_core.autograd.gradgradcheck(_real_loss_of(f), (a,))


def test_deprecated_cholesky_has_no_forward_derivative():
    # PyTorch's torch.cholesky has no forward formula: its error, real or complex
    def prog(m, z):
        a = (_z if z else _x)(m, 3, 3, seed=1, requires_grad=False)
        m.func.jvp(lambda x: m.cholesky(x @ x.mH + 3 * m.eye(3)), (a,), (a,))
    for z in (False, True):
        same_error(lambda m: prog(m, z))


@pytest.mark.parametrize("fn", [
    lambda m, z: z.var(1), lambda m, z: z.std(0, correction=0), lambda m, z: z.var(),
    lambda m, z: m.var_mean(z, 1)[0], lambda m, z: m.std_mean(z, (0, 1))[0],
    lambda m, z: m.var_mean(z, 1, keepdim=True)[1].abs(),
])
def test_variance_of_complex(fn):
    # a real variance (the real and imaginary parts' summed) in the real dtype, with
    # PyTorch's gradient 2 / (N - correction) * grad * (z - mean)
    def prog(m):
        z = m.tensor([[1 + 2j, -0.5 + 0.25j, 0.3 - 1j], [2 - 1j, 0.1 + 0.1j, -1.5 + 0.5j]],
                     dtype=m.complex64, requires_grad=True)
        v = fn(m, z)
        v.sum().backward()
        return v, v.dtype, z.grad
    same(prog)


def test_variance_of_complex_forward_ad_and_second_order():
    z = autograd_core.tensor([[1 + 2j, -0.5 + 0.25j, 0.3 - 1j], [2 - 1j, 0.1 + 0.1j, 1j]],
                             dtype=autograd_core.complex128, requires_grad=True)
    for f in (lambda z: autograd_core.var_mean(z, 1)[0],
              lambda z: autograd_core.std_mean(z, 0)[0]):
        assert autograd_core.autograd.gradcheck(f, (z,), check_forward_ad=True)
        assert autograd_core.autograd.gradgradcheck(f, (z,))
    for f in (lambda z: z.var(1), lambda z: z.std(), lambda z: z.var((0, 1), keepdim=True),
              lambda z: z.std(0, correction=0)):
        # (var's and std's forward derivatives are PyTorch's var_jvp, std's over 2 * std)
        assert autograd_core.autograd.gradcheck(f, (z,), check_forward_ad=True)
        assert autograd_core.autograd.gradgradcheck(f, (z,))

    def tangents(m):
        t = m.tensor([[1 + 2j, -0.5 + 0.25j, 0.3 - 1j], [2 - 1j, 0.1 + 0.1j, -1.5 + 0.5j]],
                     dtype=m.complex128)
        p = m.tensor([[0.5 - 1j, 2 + 0j, -1 + 1j], [0.25j, 1 - 1j, 3 + 0.5j]],
                     dtype=m.complex128)
        return (m.func.jvp(lambda z: m.var_mean(z, 1), (p,), (t,))[1],
                m.func.jvp(lambda z: z.var(1), (p,), (t,))[1],
                m.func.jvp(lambda z: z.std(), (p,), (t,))[1],
                m.func.jvp(lambda z: z.std(0, keepdim=True, correction=0), (p,), (t,))[1],
                m.func.jvp(lambda z: z.var(), (p.to(m.complex64),), (t.to(m.complex64),))[1])
    same(tangents)


@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((3,), (3,)), ((2, 1, 3), (4, 3))])
def test_vecdot_of_complex(shapes):
    # linalg.vecdot conjugates x (two vectors: vdot), as PyTorch's
    def prog(m):
        x = _z(m, *shapes[0])
        y = _z(m, *shapes[1], seed=1)
        r = m.linalg.vecdot(x, y, dim=-1)
        r.abs().sum().backward()
        return r, x.grad, y.grad, graph_desc(r.grad_fn)
    same(prog)
