"""Complex norms and distances (issue 27): dist, frobenius_norm, norm_except_dim,
pairwise_distance, the composite _weight_norm, renorm/renorm_, cov and corrcoef on complex
tensors, compared with PyTorch: values, gradients (PyTorch's conjugate Wirtinger
convention, its norm_backward with sgn(x) for complex x), forward-mode tangents,
gradcheck/gradgradcheck on complex inputs, and PyTorch's errors (the fused weight-norm
kernel, the forward AD of at::norm(self, p)).
"""
import warnings

from functools import partial

import numpy as np
import pytest

from _diff import complex_data, real_loss, same, same_error
import autograd_core

INF = float("inf")


_z = partial(complex_data, requires_grad=True)


_loss = real_loss


def _values_and_grads(prog, dtype):
    """prog(m, *leaves) on complex leaves of dtype: its result and the leaves' gradients
    of a real loss of it."""
    def run(m):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out, leaves = prog(m, dtype)
            if not isinstance(out, (tuple, list)):
                out = (out,)
            loss = sum(_loss(m, o, seed=k + 1) for k, o in enumerate(out))
            grads = m.autograd.grad(loss, leaves, allow_unused=True)
        return [o.detach() for o in out], grads
    return run


def _tol(dtype):
    return dict(rtol=1e-4, atol=1e-5) if dtype == "complex64" else dict(rtol=1e-7, atol=1e-9)


# ------------------------------------------------------------------ the programs

def _dist(p, sa=(3, 4), sb=(3, 4)):
    def prog(m, dtype):
        a, b = _z(m, *sa, dtype=dtype), _z(m, *sb, seed=1, dtype=dtype)
        return m.dist(a, b, p), (a, b)
    return prog


def _t(m, dtype):   # a non-contiguous leaf's view (the loss reaches the leaf through .t())
    z = _z(m, 4, 3, seed=2, dtype=dtype)
    return z.t(), z


_PROGRAMS = {
    # dist: PyTorch's norm_backward for each p (0 has no gradient), broadcast, 0-d, empty
    **{f"dist_p{p}": _dist(p) for p in (0.5, 1, 1.5, 2, 3, INF)},
    "dist_p0": lambda m, dtype: (lambda a, b: (m.dist(a, b, 0), (a,)))(   # (no gradient)
        _z(m, 3, 4, dtype=dtype), _z(m, 3, 4, seed=1, dtype=dtype, requires_grad=False)),
    "dist_broadcast": _dist(2, (2, 3, 4), (4,)),
    "dist_p3_broadcast": _dist(3, (3, 1), (1, 4)),
    "dist_0d": _dist(2, (), ()),
    "dist_empty": _dist(2, (0, 3), (0, 3)),
    "dist_empty_p1": _dist(1, (2, 0), (2, 0)),
    "dist_equal_inputs": lambda m, dtype: (lambda a: (m.dist(a, a.detach()), (a,)))(
        _z(m, 3, dtype=dtype)),
    "dist_noncontiguous": lambda m, dtype: (lambda v: (m.dist(v[0], v[0].detach() * 2, 3),
                                                       (v[1],)))(_t(m, dtype)),
    # frobenius_norm and the internal norms (_norm_dim, _norm_all) through their callers
    "frobenius_norm": lambda m, dtype: (lambda z: (m.frobenius_norm(z, (0, 1)), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "frobenius_norm_keepdim": lambda m, dtype: (lambda z: (
        m.frobenius_norm(z, (1, 2), keepdim=True), (z,)))(_z(m, 2, 3, 4, dtype=dtype)),
    "frobenius_norm_noncontiguous": lambda m, dtype: (lambda v: (
        m.frobenius_norm(v[0], (1,)), (v[1],)))(_t(m, dtype)),
    "norm_except_dim_0": lambda m, dtype: (lambda z: (m.norm_except_dim(z, 2, 0), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "norm_except_dim_last_p3": lambda m, dtype: (lambda z: (m.norm_except_dim(z, 3, 2),
                                                            (z,)))(_z(m, 2, 3, 4, dtype=dtype)),
    "norm_except_dim_middle_p1": lambda m, dtype: (lambda z: (m.norm_except_dim(z, 1, 1),
                                                              (z,)))(_z(m, 2, 3, 4, dtype=dtype)),
    "norm_except_dim_all": lambda m, dtype: (lambda z: (m.norm_except_dim(z, 2, -1), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "norm_except_dim_empty": lambda m, dtype: (lambda z: (m.norm_except_dim(z, 2, 0), (z,)))(
        _z(m, 3, 0, dtype=dtype)),
    "pairwise_distance": lambda m, dtype: (lambda a, b: (m.pairwise_distance(a, b), (a, b)))(
        _z(m, 3, 4, dtype=dtype), _z(m, 3, 4, seed=1, dtype=dtype)),
    "pairwise_distance_p1_keepdim": lambda m, dtype: (lambda a, b: (
        m.nn.functional.pairwise_distance(a, b, 1.0, keepdim=True), (a, b)))(
        _z(m, 2, 3, 4, dtype=dtype), _z(m, 4, seed=1, dtype=dtype)),
    "pairwise_distance_pinf_1d": lambda m, dtype: (lambda a, b: (
        m.pairwise_distance(a, b, INF), (a, b)))(
        _z(m, 5, dtype=dtype), _z(m, 5, seed=1, dtype=dtype)),
    # weight norm's composition (dim neither the first nor the last)
    "weight_norm_composite": lambda m, dtype: (lambda v, g: (m._weight_norm(v, g, 1), (v, g)))(
        _z(m, 2, 3, 4, dtype=dtype), _z(m, 1, 3, 1, seed=1, dtype=dtype)),
    "weight_norm_composite_real_g": lambda m, dtype: (lambda v, g: (
        m._weight_norm(v, g, 1), (v, g)))(
        _z(m, 2, 3, 4, dtype=dtype),
        m.tensor(np.random.default_rng(3).standard_normal((1, 3, 1)),
                 dtype=m.float32 if dtype == "complex64" else m.float64, requires_grad=True)),
    # renorm: slices over and under maxnorm, each p, in place
    "renorm_p2": lambda m, dtype: (lambda z: (z.renorm(2, 0, 1.5), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "renorm_p1_dim1": lambda m, dtype: (lambda z: (m.renorm(z, 1, 1, 2.0), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "renorm_p3_3d": lambda m, dtype: (lambda z: (m.renorm(z, 3, -1, 1.2), (z,)))(
        _z(m, 2, 3, 4, dtype=dtype)),
    "renorm_p05": lambda m, dtype: (lambda z: (m.renorm(z, 0.5, 0, 5.0), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "renorm_pinf": lambda m, dtype: (lambda z: (m.renorm(z, INF, 0, 1.0), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "renorm_big_max": lambda m, dtype: (lambda z: (z.renorm(2, 0, 100.0), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "renorm_noncontiguous": lambda m, dtype: (lambda v: (v[0].renorm(2, 1, 1.0), (v[1],)))(
        _t(m, dtype)),
    "renorm_empty": lambda m, dtype: (lambda z: (z.renorm(2, 0, 1.0), (z,)))(
        _z(m, 0, 3, dtype=dtype)),
    "renorm_": lambda m, dtype: (lambda z: ((z * 1.0).renorm_(2, 1, 0.7), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    # cov (x - mean) (x - mean)^H / N, weights; corrcoef clipping each part
    "cov": lambda m, dtype: (lambda z: (m.cov(z), (z,)))(_z(m, 3, 5, dtype=dtype)),
    "cov_1d": lambda m, dtype: (lambda z: (m.cov(z), (z,)))(_z(m, 5, dtype=dtype)),
    "cov_correction0": lambda m, dtype: (lambda z: (z.cov(correction=0), (z,)))(
        _z(m, 3, 4, dtype=dtype)),
    "cov_weights": lambda m, dtype: (lambda z, aw: (
        m.cov(z, fweights=m.tensor([1, 2, 3, 1]), aweights=aw), (z, aw)))(
        _z(m, 3, 4, dtype=dtype),
        m.tensor([0.5, 1.0, 2.0, 0.7], dtype=m.float32 if dtype == "complex64" else m.float64,
                 requires_grad=True)),
    "cov_fweights": lambda m, dtype: (lambda z: (
        m.cov(z, correction=2, fweights=m.tensor([2, 1, 1])), (z,)))(_z(m, 2, 3, dtype=dtype)),
    "cov_noncontiguous": lambda m, dtype: (lambda v: (m.cov(v[0]), (v[1],)))(_t(m, dtype)),
    "corrcoef": lambda m, dtype: (lambda z: (m.corrcoef(z), (z,)))(_z(m, 3, 5, dtype=dtype)),
    "corrcoef_1d": lambda m, dtype: (lambda z: (z.corrcoef(), (z,)))(_z(m, 4, dtype=dtype)),
    "corrcoef_noncontiguous": lambda m, dtype: (lambda v: (m.corrcoef(v[0]), (v[1],)))(
        _t(m, dtype)),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_values_and_gradients_match_pytorch(name, dtype):
    same(_values_and_grads(_PROGRAMS[name], dtype), **_tol(dtype))


def test_the_graphs_hold_pytorchs_nodes():
    def prog(m):
        a, b = _z(m, 3, 4), _z(m, 3, 4, seed=1)
        return [type(f.grad_fn).__name__ for f in (
            m.dist(a, b), m.frobenius_norm(a, (0, 1)), m.norm_except_dim(a, 2, -1),
            a.renorm(2, 0, 1.0), m.cov(a), m.corrcoef(a))]
    same(prog)


def test_cov_and_corrcoef_without_history():
    # the conj of cov's second operand is a copy when nothing requires grad
    def prog(m):
        z = _z(m, 3, 4, requires_grad=False)
        return m.cov(z), m.corrcoef(z), m.cov(z[0]), m.corrcoef(z[0])
    same(prog, rtol=1e-7, atol=1e-9)


def test_renorm_out_and_dtypes():
    def prog(m):
        z = _z(m, 3, 4, dtype="complex64", requires_grad=False)
        out = m.empty(3, 4, dtype=m.complex64)
        m.renorm(z, 2, 0, 1.0, out=out)
        return out, m.renorm(z, 2, 0, 1.0).dtype
    same(prog)


# ------------------------------------------------------------------ forward mode

def _tangents(prog, dtype):
    """prog's outputs and tangents under forward AD, each leaf with a complex tangent."""
    def run(m):
        fa = m.autograd.forward_ad
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            seeds = iter(range(10, 100))
            with fa.dual_level():
                def dual(t):
                    rng = np.random.default_rng(next(seeds))
                    tan = rng.standard_normal(tuple(t.shape))
                    if t.is_complex():
                        tan = tan + 1j * rng.standard_normal(tuple(t.shape))
                    return fa.make_dual(t.detach(), m.tensor(tan.astype(
                        str(t.dtype).split(".")[-1])))
                # the program's leaves, made dual: run it with a module whose tensors
                # come out dual from _z (a leaf of the programs above)
                out, leaves = prog(_DualModule(m, dual), dtype)
                outs = out if isinstance(out, (tuple, list)) else (out,)
                return [tuple(x.detach() if x is not None else None
                              for x in fa.unpack_dual(o)) for o in outs]
    return run


class _DualModule:
    """m, whose tensor(..., requires_grad=True) makes a dual tensor instead (so the
    programs above run under forward AD unchanged)."""

    def __init__(self, m, dual):
        self._m, self._dual = m, dual

    def __getattr__(self, name):
        return getattr(self._m, name)

    def tensor(self, *args, requires_grad=False, **kwargs):
        t = self._m.tensor(*args, **kwargs)
        return self._dual(t) if requires_grad else t


# PyTorch's forward AD covers these (torch.func.jvp computes them on complex inputs)
_FORWARD = [n for n in sorted(_PROGRAMS) if n != "norm_except_dim_all"]   # (its error below)


@pytest.mark.parametrize("name", _FORWARD)
def test_forward_ad_matches_pytorch(name):
    same(_tangents(_PROGRAMS[name], "complex128"), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("shape", [(3,), (3, 4), (2, 3, 4), (0, 3)])
def test_norm_all_forward_ad_raises_pytorchs_error(shape, dtype):
    # at::norm(self, p)'s jvp gives a tangent of shape [1] * ndim for a 0-d result,
    # which PyTorch's forward AD refuses to set
    def prog(m):
        fa = m.autograd.forward_ad
        with fa.dual_level():
            x = fa.make_dual(m.ones(shape, dtype=getattr(m, dtype)),
                             m.ones(shape, dtype=getattr(m, dtype)))
            return m.norm_except_dim(x, 2, -1)
    same_error(prog)


def test_norm_all_forward_ad_of_a_0d_tensor():
    def prog(m):
        fa = m.autograd.forward_ad
        with fa.dual_level():
            x = fa.make_dual(m.tensor(3 + 4j, dtype=m.complex128),
                             m.tensor(1 - 2j, dtype=m.complex128))
            return tuple(fa.unpack_dual(m.norm_except_dim(x, 2, -1)))
    same(prog)


# ------------------------------------------------------------------ gradcheck

_GRADCHECK = {
    "dist_p2": lambda a, b: autograd_core.dist(a, b),
    "dist_p1": lambda a, b: autograd_core.dist(a, b, 1),
    "dist_p3": lambda a, b: autograd_core.dist(a, b, 3),
    "dist_p05": lambda a, b: autograd_core.dist(a, b, 0.5),
    "dist_pinf": lambda a, b: autograd_core.dist(a, b, INF),
    "frobenius_norm": lambda a, b: autograd_core.frobenius_norm(a * b, (0, 1), True),
    "norm_except_dim": lambda a, b: autograd_core.norm_except_dim(a + b, 3, 1),
    "pairwise_distance": lambda a, b: autograd_core.pairwise_distance(a, b),
    "weight_norm_composite": lambda a, b: autograd_core._weight_norm(
        a.reshape(1, 3, 4), b[:, :1].reshape(1, 3, 1), 1),
    "renorm_p2": lambda a, b: autograd_core.renorm(a * b, 2, 0, 1.0),
    "renorm_p1": lambda a, b: autograd_core.renorm(a, 1, 1, 1.5),
    "renorm_p3": lambda a, b: autograd_core.renorm(a, 3, 0, 0.8),
    "cov": lambda a, b: autograd_core.cov(a * b),
    "cov_aweights": lambda a, b: autograd_core.cov(
        a, aweights=b[0].abs() + 0.5, fweights=autograd_core.tensor([1, 2, 1, 3])),
    "corrcoef": lambda a, b: autograd_core.corrcoef(a + b),
}


@pytest.mark.parametrize("name", sorted(_GRADCHECK))
def test_gradcheck_complex(name):
    a, b = _z(autograd_core, 3, 4), _z(autograd_core, 3, 4, seed=1)
    f = _GRADCHECK[name]
    gc = autograd_core.autograd
    assert gc.gradcheck(f, (a, b), check_forward_ad=True)
    assert gc.gradgradcheck(f, (a, b))


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("dtypes", [("complex128", "float64"), ("complex64", "complex64"),
                                    ("float64", "complex128"), ("float64", "float32"),
                                    ("float32", "float64")])
@pytest.mark.parametrize("dim", [0, 1])
def test_fused_weight_norm_refuses_complex_and_mixed_dtypes(dtypes, dim):
    # PyTorch's fused kernel (dim first or last): real v, g of v's dtype
    def prog(m):
        v = m.ones(3, 4, dtype=getattr(m, dtypes[0]))
        g = m.ones((3, 1) if dim == 0 else (1, 4), dtype=getattr(m, dtypes[1]))
        return m._weight_norm(v, g, dim)
    same_error(prog)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_dist_p0_gradient_of_other_raises_pytorchs_error(dtype):
    # the 0-norm has no gradient; PyTorch's formula for other negates that undefined one
    def prog(m):
        a = m.ones(3, dtype=getattr(m, dtype))
        b = m.zeros(3, dtype=getattr(m, dtype), requires_grad=True)
        return m.autograd.grad(m.dist(a, b, 0), (b,))
    same_error(prog)


def test_vector_norm_dtype_argument_on_complex():
    # PyTorch's check_linalg_norm_dtype: a complex dtype for complex inputs (no narrowing),
    # a real one for real inputs; the 0-norm's count without a ComplexWarning
    def prog(m):
        z = _z(m, 3, 4, dtype="complex64")
        n = m.linalg.vector_norm(z, dtype=m.complex128)
        g, = m.autograd.grad(n, (z,))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            n0 = m.linalg.vector_norm(z, 0), m.linalg.matrix_norm(z, dtype=m.complex128)
        return n, g, n0
    same(prog)
    for args in (("complex64", "float64"), ("complex128", "complex64"), ("float64", "complex128"),
                 ("float32", "int64")):
        same_error(lambda m: m.linalg.vector_norm(m.ones(2, dtype=getattr(m, args[0])),
                                                  dtype=getattr(m, args[1])))


def test_renorm_errors_on_complex():
    z = lambda m: _z(m, 3, 4, requires_grad=False)   # noqa: E731
    same_error(lambda m: m.renorm(z(m), 0, 0, 1.0))
    for maxnorm in (-1, -1.0, -0.5, -1e-20, -123456789.0):
        same_error(lambda m: m.renorm(z(m), 2, 0, maxnorm))
    same_error(lambda m: m.renorm(z(m)[0], 2, 0, 1.0))


def test_cov_errors_on_complex():
    z = lambda m: _z(m, 3, 4, requires_grad=False)   # noqa: E731
    same_error(lambda m: m.cov(z(m), aweights=m.ones(4, dtype=m.complex128)))
    same_error(lambda m: m.cov(z(m), fweights=m.ones(4, dtype=m.complex128)))
    same_error(lambda m: m.corrcoef(_z(m, 2, 3, 4, requires_grad=False)))
