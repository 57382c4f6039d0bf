"""torch.special against PyTorch: every function's values on grids of special points
(nan, +-inf, 0, -0, poles, negative arguments, large arguments and orders) and random
points in float32 and float64, integer and bool inputs promoted as PyTorch promotes
them, 0-d and empty tensors, broadcasting of tensor and number arguments, out=, the
errors, the namespace, and the derivatives (values, grad_fn names, gradcheck and
gradgradcheck in float64, forward mode) where PyTorch has them and its error where it
has not."""
import math

import numpy as np
import pytest

from _diff import Raised, assert_same, catch, same, same_error, torch  # noqa: F401
import autograd_core

# float64 results agree with PyTorch's to rounding; float32 ones are PyTorch's float32
# evaluation of the same series against ours in double rounded to float32
TOL = {"float64": dict(rtol=1e-7, atol=1e-12), "float32": dict(rtol=2e-5, atol=1e-5)}

SPECIAL_POINTS = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
                  5.0, -5.0, 8.0, -8.0, 1e-6, -1e-6, 1e-30, 2.09, -2.09, 8.3, 26.5, -26.5,
                  50.5, -6.5, 103.0, 104.0, 700.0, -700.0, -30.0, 3.0, -3.0]


def _grid(limit=None):
    rng = np.random.default_rng(0)
    pts = np.concatenate([SPECIAL_POINTS, rng.normal(0, 3, 60), rng.uniform(-60, 60, 60),
                          rng.uniform(0, 1, 30)])
    if limit is not None:
        pts = pts[~(np.abs(pts) > limit)]
    return pts.tolist()


# name -> float32 grid limit: the oscillating functions lose all accuracy in float32 far
# out (PyTorch reduces x - pi/4 in float32 there), so float32 compares within 100
UNARY = {
    "airy_ai": 100, "bessel_j0": 100, "bessel_j1": 100, "bessel_y0": 100, "bessel_y1": 100,
    "modified_bessel_i0": None, "modified_bessel_i1": None, "modified_bessel_k0": None,
    "modified_bessel_k1": None, "scaled_modified_bessel_k0": None,
    "scaled_modified_bessel_k1": None, "spherical_bessel_j0": 100, "i0": None, "i0e": None,
    "i1": None, "i1e": None, "erfcx": None, "ndtr": None, "ndtri": None, "log_ndtr": None,
    "entr": None, "expit": None, "erf": None, "erfc": None, "erfinv": None, "exp2": None,
    "expm1": None, "log1p": None, "sinc": 100, "digamma": None, "psi": None, "gammaln": None,
    "logit": None, "round": None,
}

POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
               "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
               "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"]

NOT_DIFFERENTIABLE = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
                      "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
                      "modified_bessel_k1", "scaled_modified_bessel_k0",
                      "scaled_modified_bessel_k1", "spherical_bessel_j0"]

# differentiable unary functions and a domain where their derivatives are smooth
DIFFERENTIABLE = {"i0": (-3, 3), "i0e": (0.1, 3), "i1": (-3, 3), "i1e": (0.1, 3),
                  "erfcx": (-2, 3), "ndtr": (-3, 3), "ndtri": (0.05, 0.95),
                  "log_ndtr": (-5, 3), "entr": (0.1, 2), "expit": (-3, 3), "erf": (-2, 2),
                  "erfc": (-2, 2), "erfinv": (-0.9, 0.9), "exp2": (-2, 2),
                  "expm1": (-2, 2), "log1p": (0, 2), "sinc": (0.1, 2), "digamma": (0.5, 3),
                  "psi": (0.5, 3), "gammaln": (0.5, 3), "logit": (0.1, 0.9)}


# ------------------------------------------------------------------ the namespace

def test_namespace_is_torch_special():
    ours = {n for n in dir(autograd_core.special) if not n.startswith("_")
            and callable(getattr(autograd_core.special, n))}
    theirs = {n for n in dir(torch.special) if not n.startswith("_")
              and callable(getattr(torch.special, n)) and n != "Tensor"}
    assert theirs - ours == set()
    assert ours - theirs == set()
    assert sorted(autograd_core.special.__all__) == sorted(theirs)


def test_no_new_top_level_names_or_methods():
    # PyTorch exposes none of the new functions as torch.<name> or Tensor.<name>
    for name in autograd_core.special.__all__:
        for prefix in ("", "special_"):
            assert hasattr(autograd_core, prefix + name) == hasattr(torch, prefix + name), name
            assert (hasattr(autograd_core.Tensor, prefix + name)
                    == hasattr(torch.Tensor, prefix + name)), name


# ------------------------------------------------------------------ values

@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_values(name, dtype):
    pts = _grid(None if dtype == "float64" else UNARY[name])
    same(lambda mod: getattr(mod.special, name)(mod.tensor(pts, dtype=getattr(mod, dtype))),
         quiet=True, **TOL[dtype])


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_integer_and_bool_inputs(name):
    # (round has no integer kernel in PyTorch: the error is compared)
    same(lambda mod: getattr(mod.special, name)(mod.tensor([-3, -1, 0, 1, 2, 7])), quiet=True,
         may_raise=True, **TOL["float32"])
    same(lambda mod: getattr(mod.special, name)(mod.tensor([True, False])), quiet=True,
         may_raise=True, **TOL["float32"])


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_zero_dim_and_empty(name):
    same(lambda mod: getattr(mod.special, name)(mod.tensor(0.25, dtype=mod.float64)),
         quiet=True, **TOL["float64"])
    same(lambda mod: getattr(mod.special, name)(mod.zeros(0, 3)), quiet=True)


def _poly_points():
    rng = np.random.default_rng(1)
    xs = [math.inf, -math.inf, 0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 1e-3] \
        + rng.uniform(-1.2, 1.2, 20).tolist() + rng.uniform(-4, 4, 8).tolist()
    ns = [-1, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 20, 60, 129, 513, 600]
    x = [a for a in xs for _ in ns]
    n = [b for _ in xs for b in ns]
    return x, n


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_values(name, dtype):
    x, n = _poly_points()

    def prog(mod):
        d = getattr(mod, dtype)
        r = getattr(mod.special, name)(mod.tensor(x, dtype=d), mod.tensor(n, dtype=d))
        # near the float32 overflow threshold one rounding decides between a huge value
        # and inf (or inf - inf = nan): compare values of moderate size
        return mod.where(r.abs() < 1e30, r, mod.zeros_like(r))
    same(prog, quiet=True, **TOL[dtype])


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_degree_forms(name):
    f = lambda mod: getattr(mod.special, name)  # noqa: E731
    x = [0.3, -0.7, 1.5]
    # an integer degree tensor, a float degree (truncated), number degrees, a number x
    same(lambda mod: f(mod)(mod.tensor(x), mod.tensor([2, 3, 4])), **TOL["float32"])
    same(lambda mod: f(mod)(mod.tensor(x, dtype=mod.float64), mod.tensor([2.7, -1.0, 3.2])),
         **TOL["float64"])
    same(lambda mod: f(mod)(mod.tensor(x, dtype=mod.float64), 3), **TOL["float64"])
    same(lambda mod: f(mod)(mod.tensor(x, dtype=mod.float64), 2.5), **TOL["float64"])
    same(lambda mod: f(mod)(0.5, mod.tensor([0, 1, 2, 3])), **TOL["float32"])
    same(lambda mod: f(mod)(mod.tensor([1, 2]), mod.tensor([2, 3])), **TOL["float32"])
    same(lambda mod: f(mod)(mod.tensor([0.5], dtype=mod.float32),
                            mod.tensor([2], dtype=mod.float64)), **TOL["float64"])
    same(lambda mod: f(mod)(mod.tensor([[0.5], [0.25]]), mod.tensor([1, 2, 3])),
         **TOL["float32"])
    same(lambda mod: f(mod)(mod.tensor(0.5), mod.tensor(3)), **TOL["float32"])
    same(lambda mod: f(mod)(mod.zeros(0), 3))
    same(lambda mod: f(mod)(mod.tensor([0.5, math.nan]), mod.tensor([0, 1])))
    same(lambda mod: f(mod)(mod.tensor([0.5, 0.5]), mod.tensor([math.nan, math.inf])))


def test_zeta_values():
    rng = np.random.default_rng(2)
    xs = [1.0, 0.5, 2.0, 3.0, 4.5, 10.0, 50.0, math.inf, math.nan, 1.5] + \
        rng.uniform(1, 8, 10).tolist()
    qs = [1.0, 0.0, -1.0, -2.5, 0.5, 2.0, 30.0, 1e-3, math.inf, math.nan] + \
        rng.uniform(-5, 20, 10).tolist()
    x = [a for a in xs for _ in qs]
    q = [b for _ in xs for b in qs]
    for dtype in ("float64", "float32"):
        same(lambda mod: mod.special.zeta(mod.tensor(x, dtype=getattr(mod, dtype)),
                                          mod.tensor(q, dtype=getattr(mod, dtype))),
             **TOL[dtype])
    same(lambda mod: mod.special.zeta(2, mod.tensor([1.0, 2.0, 3.0])))
    same(lambda mod: mod.special.zeta(mod.tensor([2.0, 3.0]), 1))
    same(lambda mod: mod.special.zeta(mod.tensor([2, 3]), mod.tensor([1, 2])))
    same(lambda mod: mod.special.zeta(mod.tensor([[2.0], [3.0]]), mod.tensor([1.0, 2.0])))


def test_xlog1py_values():
    pts = [0.0, -0.0, 1.0, -1.0, 2.5, math.nan, math.inf, -math.inf, -2.0, 1e-8]
    x = [a for a in pts for _ in pts]
    y = [b for _ in pts for b in pts]
    for dtype in ("float64", "float32"):
        same(lambda mod: mod.special.xlog1py(mod.tensor(x, dtype=getattr(mod, dtype)),
                                             mod.tensor(y, dtype=getattr(mod, dtype))),
             **TOL[dtype])
    same(lambda mod: mod.special.xlog1py(2, mod.tensor([0.5, -1.0])))
    same(lambda mod: mod.special.xlog1py(mod.tensor([0.0, 2.0]), -1))
    same(lambda mod: mod.special.xlog1py(mod.tensor([1, 2]), mod.tensor([3, 4])))
    same(lambda mod: mod.special.xlog1py(mod.tensor([1, 2]), 0.5))


def test_aliases_with_arguments():
    same(lambda mod: mod.special.multigammaln(mod.tensor([2.5, 3.0], dtype=mod.float64), 2))
    same(lambda mod: mod.special.polygamma(2, mod.tensor([0.5, 3.0], dtype=mod.float64)))
    same(lambda mod: mod.special.gammainc(mod.tensor([1.0, 2.0]), mod.tensor([0.5, 3.0])))
    same(lambda mod: mod.special.gammaincc(mod.tensor([1.0, 2.0]), mod.tensor([0.5, 3.0])))
    same(lambda mod: mod.special.xlogy(mod.tensor([0.0, 2.0]), mod.tensor([0.0, 3.0])))
    same(lambda mod: mod.special.xlogy(2, mod.tensor([0.5, 3.0])))
    same(lambda mod: mod.special.logsumexp(mod.tensor([[1.0, 2.0], [3.0, 4.0]]), 1))
    same(lambda mod: mod.special.logsumexp(mod.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, True))
    same(lambda mod: mod.special.softmax(mod.tensor([[1.0, 2.0], [3.0, 4.0]]), 1))
    same(lambda mod: mod.special.softmax(mod.tensor([1, 2]), 0, dtype=mod.float64))
    same(lambda mod: mod.special.log_softmax(mod.tensor([[1.0, 2.0], [3.0, 4.0]]), 0))
    same(lambda mod: mod.special.logit(mod.tensor([0.0, 0.3, 1.0]), 0.1))
    same(lambda mod: mod.special.round(mod.tensor([1.256, -2.5]), decimals=2))


# ------------------------------------------------------------------ out=

@pytest.mark.parametrize("name", ["bessel_j0", "i0e", "erfcx", "ndtr", "entr", "expit",
                                  "airy_ai", "gammaln"])
def test_out(name):
    def prog(mod):
        out = mod.empty(3, dtype=mod.float64)
        r = getattr(mod.special, name)(mod.tensor([0.2, 0.5, 0.7], dtype=mod.float64), out=out)
        return r is out, out
    same(prog)
    same(lambda mod: getattr(mod.special, name)(
        mod.tensor([0.5]), out=mod.empty(1, dtype=mod.int64)), must_raise=True)


def test_out_binary_and_polynomials():
    def prog(mod):
        out = mod.empty(2)
        r = mod.special.chebyshev_polynomial_t(mod.tensor([0.5, 0.25]), 3, out=out)
        out2 = mod.empty(2)
        mod.special.zeta(mod.tensor([2.0, 3.0]), mod.tensor([1.0, 1.0]), out=out2)
        out3 = mod.empty(2)
        mod.special.xlog1py(mod.tensor([2.0, 3.0]), 1.0, out=out3)
        return r is out, out, out2, out3
    same(prog)


@pytest.mark.parametrize("call", [
    lambda mod, x: mod.special.i0e(x, out=mod.empty(2)),
    lambda mod, x: mod.special.ndtri(x, out=mod.empty(2)),
    lambda mod, x: mod.special.xlog1py(x, x, out=mod.empty(2)),
    lambda mod, x: mod.special.zeta(2.0, x, out=mod.empty(2)),
])
def test_out_with_grad_raises(call):
    same_error(lambda mod: call(mod, mod.tensor([0.25, 0.5], requires_grad=True)))


def test_out_not_differentiable_with_grad():
    # PyTorch's non-differentiable functions take out= even from inputs requiring grad
    same(lambda mod: mod.special.bessel_j0(mod.tensor([0.25, 0.5], requires_grad=True),
                                           out=mod.empty(2)))


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("name", ["bessel_j0", "airy_ai", "i1", "entr", "ndtri", "erf",
                                  "expit", "gammaln", "psi"])
def test_number_input_raises(name):
    same_error(lambda mod: getattr(mod.special, name)(1))


@pytest.mark.parametrize("name", POLYNOMIALS + ["zeta", "xlog1py"])
def test_binary_overload_errors(name):
    same_error(lambda mod: getattr(mod.special, name)(2, 3))
    same_error(lambda mod: getattr(mod.special, name)(mod.ones(2), "a"))


def test_multigammaln_p_check():
    same_error(lambda mod: mod.special.multigammaln(mod.tensor([2.0]), 0))


def test_broadcast_error():
    same_error(lambda mod: mod.special.zeta(mod.ones(2), mod.ones(3)))
    same_error(lambda mod: mod.special.chebyshev_polynomial_t(mod.ones(2), mod.ones(3)))


# ------------------------------------------------------------------ derivatives

@pytest.mark.parametrize("name", NOT_DIFFERENTIABLE + POLYNOMIALS)
def test_not_differentiable(name):
    def prog(mod):
        x = mod.tensor([0.25, 0.5, 2.0], requires_grad=True)
        r = getattr(mod.special, name)(x, 3) if name in POLYNOMIALS else \
            getattr(mod.special, name)(x)
        return r.requires_grad, r.grad_fn is None
    same(prog)


@pytest.mark.parametrize("name", sorted(DIFFERENTIABLE))
def test_gradients_against_torch(name):
    lo, hi = DIFFERENTIABLE[name]

    def prog(mod):
        x = mod.tensor(np.linspace(lo, hi, 7).tolist(), dtype=mod.float64, requires_grad=True)
        y = getattr(mod.special, name)(x)
        g, = mod.autograd.grad(y.sum(), x, create_graph=True)
        gg, = mod.autograd.grad(g.sum(), x)
        return y, y.grad_fn.name(), g, gg
    same(prog, **TOL["float64"])


@pytest.mark.parametrize("name", sorted(DIFFERENTIABLE))
def test_gradcheck(name):
    lo, hi = DIFFERENTIABLE[name]
    x = autograd_core.tensor(np.linspace(lo, hi, 5).tolist(), dtype=autograd_core.float64,
                             requires_grad=True)
    f = getattr(autograd_core.special, name)
    assert autograd_core.autograd.gradcheck(f, (x,))
    assert autograd_core.autograd.gradgradcheck(f, (x,))


def test_i1_i1e_i0e_at_zero():
    # PyTorch's formulas special-case 0 (1/2 for i1 and i1e)
    for name in ("i1", "i1e", "i0e", "i0"):
        def prog(mod):
            x = mod.tensor([0.0, -0.0, 1e-20], dtype=mod.float64, requires_grad=True)
            getattr(mod.special, name)(x).sum().backward()
            return x.grad
        same(prog)


def test_ndtr_graph_is_torchs():
    def prog(mod):
        y = mod.special.ndtr(mod.tensor([0.5], requires_grad=True))
        names, fn = [], y.grad_fn
        while fn is not None:
            names.append(fn.name().split("::")[-1])
            fn = fn.next_functions[0][0] if fn.next_functions else None
        return y, names
    same(prog)


def test_xlog1py_gradients():
    def prog(mod):
        x = mod.tensor([0.0, 2.0, 0.0, 1.5], dtype=mod.float64, requires_grad=True)
        y = mod.tensor([-1.0, 0.5, -2.0, 3.0], dtype=mod.float64, requires_grad=True)
        r = mod.special.xlog1py(x, y)
        r.sum().backward()
        r1 = mod.special.xlog1py(2.0, y)
        g1, = mod.autograd.grad(r1.sum(), y)
        r2 = mod.special.xlog1py(x, -1.0)
        g2, = mod.autograd.grad(r2.sum(), x)
        r3 = mod.special.xlog1py(x, 0.5)
        g3, = mod.autograd.grad(r3.sum(), x)
        return (r.grad_fn.name(), r1.grad_fn.name(), r2.grad_fn.name(), x.grad, y.grad,
                g1, g2, g3)
    same(prog, **TOL["float64"])
    x = autograd_core.tensor([0.5, 2.0], dtype=autograd_core.float64, requires_grad=True)
    y = autograd_core.tensor([0.3, 1.5], dtype=autograd_core.float64, requires_grad=True)
    assert autograd_core.autograd.gradcheck(autograd_core.special.xlog1py, (x, y))
    assert autograd_core.autograd.gradgradcheck(autograd_core.special.xlog1py, (x, y))


def test_zeta_gradients():
    def prog(mod):
        q = mod.tensor([1.0, 2.5], dtype=mod.float64, requires_grad=True)
        r = mod.special.zeta(3.0, q)
        g, = mod.autograd.grad(r.sum(), q)
        x = mod.tensor([2.0, 3.0], dtype=mod.float64)
        r2 = mod.special.zeta(x, q)
        g2, = mod.autograd.grad(r2.sum(), q)
        return r.grad_fn.name(), r2.grad_fn.name(), g, g2
    same(prog, **TOL["float64"])
    # with respect to the first argument PyTorch has no derivative
    same_error(lambda mod: mod.special.zeta(
        mod.tensor([2.0, 3.0], requires_grad=True), mod.tensor([1.0, 2.0])).sum().backward())
    same_error(lambda mod: mod.special.zeta(
        mod.tensor([2.0, 3.0], requires_grad=True), 2.0).sum().backward())
    same(lambda mod: mod.special.zeta(mod.tensor([2.0], requires_grad=True), 2.0).grad_fn.name())


@pytest.mark.parametrize("name", ["i0e", "i1", "i1e", "erfcx", "ndtri", "log_ndtr", "entr",
                                  "ndtr", "expit"])
def test_forward_ad(name):
    lo, hi = DIFFERENTIABLE[name]

    def prog(mod):
        fwAD = mod.autograd.forward_ad
        x = mod.tensor(np.linspace(lo, hi, 4).tolist(), dtype=mod.float64)
        t = mod.tensor([1.0, -0.5, 2.0, 0.25], dtype=mod.float64)
        with fwAD.dual_level():
            y = getattr(mod.special, name)(fwAD.make_dual(x, t))
            return fwAD.unpack_dual(y).tangent
    same(prog, **TOL["float64"])


def test_forward_ad_binary():
    def prog(mod):
        fwAD = mod.autograd.forward_ad
        x = mod.tensor([0.5, 2.0], dtype=mod.float64)
        y = mod.tensor([0.3, 1.5], dtype=mod.float64)
        with fwAD.dual_level():
            r = mod.special.xlog1py(fwAD.make_dual(x, mod.ones(2, dtype=mod.float64)),
                                    fwAD.make_dual(y, mod.ones(2, dtype=mod.float64)))
            return fwAD.unpack_dual(r).tangent
    same(prog, **TOL["float64"])
    # zeta has no forward derivative in PyTorch
    same_error(lambda mod: _zeta_dual(mod))


def _zeta_dual(mod):
    fwAD = mod.autograd.forward_ad
    with fwAD.dual_level():
        return mod.special.zeta(2.0, fwAD.make_dual(mod.tensor([1.0, 2.0]), mod.ones(2)))


def test_docstring_examples_run():
    import doctest
    for name in autograd_core.special.__all__:
        fn = getattr(autograd_core.special, name)
        assert fn.__doc__ and ">>>" in fn.__doc__, name
    result = doctest.testmod(autograd_core.special, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for name in autograd_core.special.__all__:
        for test in finder.find(getattr(autograd_core.special, name), name):
            runner.run(test)
    assert runner.failures == 0


# ------------------------------------------------------------------ torch.func

def _vmap_case(name):
    if name in POLYNOMIALS:
        return lambda mod, t: getattr(mod.special, name)(t, 3)
    if name in ("zeta", "xlog1py"):
        return lambda mod, t: getattr(mod.special, name)(t + 2, t)
    return lambda mod, t: getattr(mod.special, name)(t)


@pytest.mark.parametrize("name", sorted(set(UNARY) | set(POLYNOMIALS) | {"zeta", "xlog1py"}))
def test_vmap(name):
    # PyTorch batches the special functions, except the polynomials (its per-sample
    # fallback's warning names their overload)
    f = _vmap_case(name)

    def prog(mod):
        x = mod.tensor([[0.25, 0.5, 1.0], [2.0, 3.0, 0.75]], dtype=mod.float64)
        return _with_warnings(lambda: mod.func.vmap(lambda t: f(mod, t))(x))
    same(prog, **TOL["float64"])


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_vmap_polynomial_overloads(name):
    def prog(mod):
        f = getattr(mod.special, name)
        x = mod.tensor([[0.25, 0.5], [2.0, 3.0]], dtype=mod.float64)
        n = mod.tensor([2.0, 3.0], dtype=mod.float64)
        return (_with_warnings(lambda: mod.func.vmap(lambda t: f(t, n))(x)),
                _with_warnings(lambda: mod.func.vmap(lambda t: f(0.5, t))(x)))
    same(prog, **TOL["float64"])


def _with_warnings(fn):
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn()
    return r, [str(m.message) for m in w if "batching rule" in str(m.message)]


@pytest.mark.parametrize("call", [
    lambda mod, t: mod.special.multigammaln(t + 2, 2),
    lambda mod, t: mod.special.polygamma(1, t),
    lambda mod, t: mod.special.xlogy(t, t + 1),
    lambda mod, t: mod.special.gammainc(t, t + 1),
    lambda mod, t: mod.special.logsumexp(t, 0),
    lambda mod, t: mod.special.softmax(t, 0),
    lambda mod, t: mod.special.log_softmax(t, -1),
    lambda mod, t: mod.special.round(t, decimals=1),
])
def test_vmap_aliases_with_arguments(call):
    same(lambda mod: _with_warnings(lambda: mod.func.vmap(lambda t: call(mod, t))(
        mod.tensor([[0.25, 0.5, 1.0], [2.0, 3.0, 0.75]], dtype=mod.float64))),
        **TOL["float64"])


def test_func_grad_and_jacfwd():
    same(lambda mod: mod.func.grad(lambda t: mod.special.i1e(t).sum())(
        mod.tensor([0.5, 2.0], dtype=mod.float64)), **TOL["float64"])
    same(lambda mod: mod.func.jacfwd(mod.special.log_ndtr)(
        mod.tensor([0.5, -2.0], dtype=mod.float64)), **TOL["float64"])
    same(lambda mod: mod.func.jacrev(lambda t: mod.special.zeta(3.0, t))(
        mod.tensor([1.5, 2.0], dtype=mod.float64)), **TOL["float64"])


def test_torch_function_sees_the_special_function():
    # __torch_function__ overrides receive special.<name> itself (named special_<name>,
    # as PyTorch's), also for the aliases of torch.* functions
    def prog(mod):
        class Const:
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return func.__name__, len(args)
        c = Const()
        S = mod.special
        return (S.expit(c), S.polygamma(1, c), S.xlogy(2.0, c), S.gammainc(c, c),
                S.bessel_j0(c), S.zeta(c, 2.0), S.chebyshev_polynomial_t(c, 2),
                S.logsumexp(c, 0), S.softmax(c, 0), S.multigammaln(c, 2))
    same(prog)
    assert all(getattr(autograd_core.special, n).__name__ == getattr(torch.special, n).__name__
               for n in autograd_core.special.__all__)


@pytest.mark.parametrize("name", sorted(set(UNARY) - {"round", "logit"}) + POLYNOMIALS
                         + ["zeta", "xlog1py"])
def test_float16(name):
    # PyTorch has no float16 loop for most of its special kernels (its error), the others
    # compute in float16
    f = _vmap_case(name)
    same(lambda mod: f(mod, mod.tensor([0.5, 1.5, 0.25], dtype=mod.float16)), may_raise=True,
         rtol=2e-3, atol=1e-3)


def test_forward_ad_through_non_differentiable_functions():
    # a dual input gives the Bessel and polynomial results no tangent; zeta raises
    def prog(mod):
        fwAD = mod.autograd.forward_ad
        S = mod.special
        out = []
        with fwAD.dual_level():
            d = fwAD.make_dual(mod.tensor([0.5, 1.5], dtype=mod.float64),
                               mod.ones(2, dtype=mod.float64))
            for f in (S.bessel_j0, S.airy_ai, S.modified_bessel_k1,
                      lambda t: S.chebyshev_polynomial_t(t, 3),
                      lambda t: S.zeta(3.0, t), lambda t: S.zeta(t, 3.0)):
                r = catch(f, d)
                out.append(r if isinstance(r, Raised) else fwAD.unpack_dual(r).tangent)
        return out
    same(prog)


# ---------------------------------------------------------------- issue 27, point 4
# complex polygamma with out=: PyTorch checks n, then the cast into out (TensorIterator),
# and only then its kernel refuses complex input.

@pytest.mark.parametrize("n", [-1, 0, 1, 2])
@pytest.mark.parametrize("out_dtype", ["float32", "float64", "int64", "complex64", "complex128"])
@pytest.mark.parametrize("fname", ["polygamma", "special.polygamma"])
def test_complex_polygamma_out_error_order(fname, out_dtype, n):
    def prog(m):
        fn = m.special.polygamma if fname == "special.polygamma" else m.polygamma
        return fn(n, m.tensor([1 + 1j, 2.0]), out=m.empty(2, dtype=getattr(m, out_dtype)))
    same_error(prog)


def test_polygamma_out_real_input_still_computes():
    same(lambda m: m.polygamma(1, m.tensor([1.0, 2.5]), out=m.empty(2, dtype=m.float64)))


# ---------------------------------------------------------------- issue 27, point 5
# digamma and lgamma (and their special.* aliases) with out=: PyTorch's autograd layer
# checks out (a Tensor, not requiring grad), TensorIterator the cast of the result type
# into out, and only then the kernel refuses complex input
# (Note [Out checks before a complex refusal]).

_GAMMA_FNS = ["digamma", "lgamma", "special.digamma", "special.psi", "special.gammaln"]


def _fn(m, name):
    f = m
    for part in name.split("."):
        f = getattr(f, part)
    return f


@pytest.mark.parametrize("out", ["float32", "float64", "int64", "uint16", "complex64",
                                 "complex128", "requires_grad", "not_a_tensor"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("fname", _GAMMA_FNS)
def test_complex_gamma_out_error_order(fname, dt, out):
    def prog(m):
        if out == "requires_grad":
            o = m.empty(2, requires_grad=True)
        elif out == "not_a_tensor":
            o = 5
        else:
            o = m.empty(3, dtype=getattr(m, out))
        return _fn(m, fname)(m.tensor([1 + 1j, 2.0], dtype=getattr(m, dt)), out=o)
    same_error(prog)


@pytest.mark.parametrize("out", ["float32", "float64", "int64", "uint16", "complex64"])
@pytest.mark.parametrize("dt", ["float32", "float64", "int64", "bool", "uint16"])
@pytest.mark.parametrize("fname", _GAMMA_FNS)
def test_real_gamma_out(fname, dt, out):
    """Real input computes into a float or complex out (resized), refuses an int one."""
    def prog(m):
        o = m.empty(2, dtype=getattr(m, out))
        r = _fn(m, fname)(m.tensor([1, 3, 0], dtype=getattr(m, dt)) if dt != "bool"
                          else m.tensor([True, False, True]), out=o)
        return r, o, o.dtype
    same(prog, may_raise=True, rtol=2e-6)


@pytest.mark.parametrize("fname", ["digamma", "lgamma"])
def test_gamma_inplace_and_method(fname):
    def prog(m):
        x = m.tensor([0.5, 2.5])
        y = x.clone()
        getattr(y, fname + "_")()
        return getattr(x, fname)(), y, getattr(m, fname)(input=x)
    same(prog)
    same_error(lambda m: getattr(m.tensor([1j]), fname + "_")())
