"""Forward-mode AD of the multi-output decompositions and reductions against PyTorch:
linalg.svd / svd / svdvals, eigh / eigvalsh, qr, slogdet / logdet, lu / lu_factor /
lu_unpack / lu_solve, lstsq, cholesky_ex / inv_ex / solve_ex, cholesky_inverse,
triangular_solve, var_mean / std_mean / aminmax, group_norm, hardsigmoid and the in-place
comparisons. Each case compares the tangents (and primals) of PyTorch's forward AD with
autograd_core's on the same inputs and tangents, float64 and float32, batched; PyTorch's
errors where it refuses a jvp; reverse-over-forward (the gradient of a tangent); and
gradcheck(check_forward_ad=True), which checks the jvp against finite differences.

Singular vectors and eigenvectors are defined up to sign, and numpy's LAPACK calls may
pick other signs than PyTorch's: those outputs are compared through |U| (whose tangent,
sign(U) dU, does not depend on the sign picked)."""
import numpy as np
import pytest

from _diff import catch, same, same_error

import torch  # noqa: E402
import autograd_core  # noqa: E402


def _fw(mod):
    return mod.autograd.forward_ad


def _spd(a):
    return a @ np.swapaxes(a, -1, -2) + a.shape[-1] * np.eye(a.shape[-1])


def _sym(a):
    return a + np.swapaxes(a, -1, -2)


def _arrays(kinds, seed):
    """Primal arrays from (kind, shape) pairs: 'real', 'spd', 'sym', 'tril_spd' (a
    Cholesky factor), 'triu_spd'."""
    rng = np.random.default_rng(seed)
    out = []
    for kind, shape in kinds:
        a = rng.standard_normal(shape)
        if kind == "spd":
            a = _spd(a)
        elif kind == "sym":
            a = _sym(a)
        elif kind == "tril_spd":
            a = np.linalg.cholesky(_spd(a))
        elif kind == "triu_spd":
            a = np.swapaxes(np.linalg.cholesky(_spd(a)), -1, -2)
        out.append(a)
    return out


def _jvp_prog(fn, arrays, tangents, dtype, duals=None):
    """A program: fn on dual tensors (the inputs listed in duals, default all), returning
    each tensor output's primal and tangent."""
    duals = range(len(arrays)) if duals is None else duals

    def prog(mod):
        fw = _fw(mod)
        dt = getattr(mod, dtype)
        with fw.dual_level():
            xs = [fw.make_dual(mod.tensor(a, dtype=dt), mod.tensor(t, dtype=dt)) if i in duals
                  else mod.tensor(a, dtype=dt)
                  for i, (a, t) in enumerate(zip(arrays, tangents))]
            out = fn(mod, *xs)
            outs = out if isinstance(out, (tuple, list)) else (out,)
            return [tuple(fw.unpack_dual(o)) if isinstance(o, mod.Tensor) else o for o in outs]
    return prog


def _tol(dtype):
    return dict(rtol=1e-7, atol=1e-9) if dtype == "float64" else dict(rtol=2e-3, atol=2e-4)


# (id, fn(mod, *inputs), input kinds): every op's tangent against PyTorch's
def _abs_uv(r):
    return (r[0].abs(), r[1], r[2].abs())


CASES = [
    # ---- svd
    ("linalg.svd-square", lambda m, a: _abs_uv(m.linalg.svd(a, full_matrices=False)),
     [("real", (3, 3))]),
    ("linalg.svd-tall", lambda m, a: _abs_uv(m.linalg.svd(a, full_matrices=False)),
     [("real", (5, 3))]),
    ("linalg.svd-wide", lambda m, a: _abs_uv(m.linalg.svd(a, full_matrices=False)),
     [("real", (3, 5))]),
    ("linalg.svd-batched", lambda m, a: _abs_uv(m.linalg.svd(a, full_matrices=False)),
     [("real", (2, 4, 3))]),
    ("linalg.svd-full-tall", lambda m, a: _abs_uv(m.linalg.svd(a)), [("real", (4, 2))]),
    ("linalg.svd-full-wide", lambda m, a: _abs_uv(m.linalg.svd(a)), [("real", (2, 4))]),
    ("linalg.svd-full-square", lambda m, a: _abs_uv(m.linalg.svd(a)), [("real", (3, 3))]),
    ("svd-some", lambda m, a: _abs_uv(m.svd(a)), [("real", (4, 3))]),
    ("svd-not_some", lambda m, a: _abs_uv(m.svd(a, some=False)), [("real", (4, 3))]),
    ("svd-no_uv", lambda m, a: m.svd(a, compute_uv=False)[1], [("real", (3, 4))]),
    ("linalg.svdvals", lambda m, a: m.linalg.svdvals(a), [("real", (2, 3, 4))]),
    ("linalg.matrix_norm-nuc", lambda m, a: m.linalg.matrix_norm(a, "nuc"),
     [("real", (3, 4))]),
    ("linalg.matrix_norm-2", lambda m, a: m.linalg.matrix_norm(a, 2), [("real", (4, 3))]),
    ("linalg.cond", lambda m, a: m.linalg.cond(a), [("real", (3, 3))]),
    # ---- eigh
    ("linalg.eigh", lambda m, a: (lambda r: (r[0], r[1].abs()))(m.linalg.eigh(a)),
     [("sym", (3, 3))]),
    ("linalg.eigh-upper", lambda m, a: (lambda r: (r[0], r[1].abs()))(m.linalg.eigh(a, "U")),
     [("sym", (4, 4))]),
    ("linalg.eigh-batched", lambda m, a: (lambda r: (r[0], r[1].abs()))(m.linalg.eigh(a)),
     [("sym", (2, 3, 3))]),
    ("linalg.eigvalsh", lambda m, a: m.linalg.eigvalsh(a), [("sym", (2, 4, 4))]),
    # ---- qr
    ("linalg.qr-tall", lambda m, a: m.linalg.qr(a), [("real", (4, 3))]),
    ("linalg.qr-square", lambda m, a: m.linalg.qr(a), [("real", (3, 3))]),
    ("linalg.qr-wide", lambda m, a: m.linalg.qr(a), [("real", (3, 5))]),
    ("linalg.qr-batched", lambda m, a: m.linalg.qr(a), [("real", (2, 4, 2))]),
    ("linalg.qr-complete_wide", lambda m, a: m.linalg.qr(a, "complete"), [("real", (2, 4))]),
    ("linalg.qr-complete_square", lambda m, a: m.linalg.qr(a, "complete"),
     [("real", (3, 3))]),
    ("qr", lambda m, a: m.qr(a), [("real", (4, 3))]),
    # ---- determinants
    ("linalg.slogdet", lambda m, a: m.linalg.slogdet(a), [("real", (3, 3))]),
    ("linalg.slogdet-batched", lambda m, a: m.linalg.slogdet(a), [("real", (2, 3, 3))]),
    ("slogdet", lambda m, a: m.slogdet(a), [("real", (4, 4))]),
    ("logdet", lambda m, a: m.logdet(a), [("spd", (2, 3, 3))]),
    # ---- LU
    ("linalg.lu", lambda m, a: m.linalg.lu(a), [("real", (3, 3))]),
    ("linalg.lu-tall", lambda m, a: m.linalg.lu(a), [("real", (5, 3))]),
    ("linalg.lu-wide", lambda m, a: m.linalg.lu(a), [("real", (3, 5))]),
    ("linalg.lu-batched", lambda m, a: m.linalg.lu(a), [("real", (2, 3, 3))]),
    ("linalg.lu_factor", lambda m, a: m.linalg.lu_factor(a), [("real", (3, 3))]),
    ("linalg.lu_factor-tall", lambda m, a: m.linalg.lu_factor(a), [("real", (4, 3))]),
    ("lu_unpack", lambda m, a: m.lu_unpack(*m.linalg.lu_factor(a)), [("real", (3, 3))]),
    ("lu_unpack-wide", lambda m, a: m.lu_unpack(*m.linalg.lu_factor(a)), [("real", (2, 4))]),
    ("lu_unpack-tall", lambda m, a: m.lu_unpack(*m.linalg.lu_factor(a)),
     [("real", (2, 4, 3))]),
    ("linalg.lu_solve", lambda m, a, b: m.linalg.lu_solve(*m.linalg.lu_factor(a), b),
     [("real", (3, 3)), ("real", (3, 2))]),
    # ---- least squares
    ("linalg.lstsq", lambda m, a, b: m.linalg.lstsq(a, b).solution,
     [("real", (4, 3)), ("real", (4, 2))]),
    ("linalg.lstsq-wide", lambda m, a, b: m.linalg.lstsq(a, b).solution,
     [("real", (2, 3)), ("real", (2, 2))]),
    ("linalg.lstsq-vector", lambda m, a, b: m.linalg.lstsq(a, b).solution,
     [("real", (4, 3)), ("real", (4,))]),
    ("linalg.lstsq-broadcast", lambda m, a, b: m.linalg.lstsq(a, b).solution,
     [("real", (2, 4, 2)), ("real", (1, 4, 2))]),
    ("linalg.lstsq-gelsd", lambda m, a, b: m.linalg.lstsq(a, b, driver="gelsd")[:2],
     [("real", (5, 2)), ("real", (5, 3))]),
    # ---- Cholesky, inverse, solve
    ("linalg.cholesky_ex", lambda m, a: m.linalg.cholesky_ex(a), [("spd", (3, 3))]),
    ("linalg.cholesky_ex-upper", lambda m, a: m.linalg.cholesky_ex(a, upper=True),
     [("spd", (2, 3, 3))]),
    ("linalg.cholesky", lambda m, a: m.linalg.cholesky(a), [("spd", (4, 4))]),
    ("cholesky_inverse", lambda m, a: m.cholesky_inverse(a), [("tril_spd", (3, 3))]),
    ("cholesky_inverse-upper", lambda m, a: m.cholesky_inverse(a, upper=True),
     [("triu_spd", (2, 3, 3))]),
    ("linalg.inv_ex", lambda m, a: m.linalg.inv_ex(a), [("spd", (3, 3))]),
    ("linalg.solve_ex", lambda m, a, b: m.linalg.solve_ex(a, b),
     [("spd", (3, 3)), ("real", (3, 2))]),
    ("triangular_solve", lambda m, b, a: m.triangular_solve(b, a),
     [("real", (3, 2)), ("triu_spd", (3, 3))]),
    ("triangular_solve-lower_transpose",
     lambda m, b, a: m.triangular_solve(b, a, upper=False, transpose=True),
     [("real", (3, 2)), ("tril_spd", (3, 3))]),
    ("triangular_solve-unitriangular",
     lambda m, b, a: m.triangular_solve(b, a, unitriangular=True),
     [("real", (2, 3, 1)), ("triu_spd", (2, 3, 3))]),
    # ---- reductions
    ("var_mean", lambda m, a: m.var_mean(a), [("real", (3, 4))]),
    ("var_mean-dim", lambda m, a: m.var_mean(a, 1), [("real", (3, 4))]),
    ("var_mean-dims_keepdim", lambda m, a: m.var_mean(a, (0, 2), keepdim=True, correction=0),
     [("real", (2, 3, 4))]),
    ("std_mean", lambda m, a: m.std_mean(a), [("real", (5,))]),
    ("std_mean-dim", lambda m, a: m.std_mean(a, -1, keepdim=True), [("real", (2, 3, 4))]),
    ("std_mean-unbiased_false", lambda m, a: m.std_mean(a, 0, unbiased=False),
     [("real", (3, 4))]),
    ("aminmax", lambda m, a: m.aminmax(a), [("real", (3, 4))]),
    ("aminmax-dim", lambda m, a: m.aminmax(a, dim=1), [("real", (3, 4))]),
    ("aminmax-keepdim", lambda m, a: m.aminmax(a, dim=0, keepdim=True), [("real", (2, 3, 4))]),
    ("aminmax-0d", lambda m, a: m.aminmax(a), [("real", ())]),
    # ---- nn
    ("group_norm", lambda m, x, w, b: m.nn.functional.group_norm(x, 2, w, b),
     [("real", (2, 4, 3)), ("real", (4,)), ("real", (4,))]),
    ("group_norm-plain", lambda m, x: m.nn.functional.group_norm(x, 3),
     [("real", (2, 6, 2, 2))]),
    ("native_group_norm", lambda m, x, w, b: m.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-5),
     [("real", (2, 4, 3)), ("real", (4,)), ("real", (4,))]),
    ("hardsigmoid", lambda m, x: m.nn.functional.hardsigmoid(x * 4), [("real", (3, 4))]),
]


def _case_params():
    for i, (cid, fn, kinds) in enumerate(CASES):
        for dtype in ("float64", "float32"):
            yield pytest.param(fn, kinds, dtype, i, id=f"{cid}-{dtype}")


@pytest.mark.parametrize("fn,kinds,dtype,seed", list(_case_params()))
def test_jvp_against_pytorch(fn, kinds, dtype, seed):
    arrays = _arrays(kinds, seed)
    rng = np.random.default_rng(seed + 1000)
    tangents = [rng.standard_normal(a.shape) for a in arrays]
    same(_jvp_prog(fn, arrays, tangents, dtype), quiet=True, **_tol(dtype))


@pytest.mark.parametrize("cid", ["group_norm", "linalg.lstsq", "triangular_solve",
                                 "linalg.solve_ex", "linalg.lu_solve"])
@pytest.mark.parametrize("which", [0, 1])
def test_jvp_one_dual_input(cid, which):
    """Only one of the inputs is dual: the others' tangents count as zeros."""
    fn, kinds = next((f, k) for c, f, k in CASES if c == cid)
    arrays = _arrays(kinds, 7)
    rng = np.random.default_rng(8)
    tangents = [rng.standard_normal(a.shape) for a in arrays]
    same(_jvp_prog(fn, arrays, tangents, "float64", duals=(which,)), quiet=True,
         **_tol("float64"))


@pytest.mark.parametrize("op", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
@pytest.mark.parametrize("other", ["tensor", "scalar"])
def test_inplace_comparison_tangent_is_zero(op, other):
    # the in-place comparisons write 0/1 in self's dtype: a zero tangent, as PyTorch's
    # self_t.zero_()
    arrays = _arrays([("real", (3, 4)), ("real", (3, 4))], 3)
    tangents = _arrays([("real", (3, 4)), ("real", (3, 4))], 4)

    def fn(m, a, b):
        c = a.clone()
        getattr(c, op)(b if other == "tensor" else 0.25)
        return c
    same(_jvp_prog(fn, arrays, tangents, "float64"), quiet=True)


# ------------------------------------------------------------------ PyTorch's refusals

@pytest.mark.parametrize("fn,shape", [
    (lambda m, a: m.linalg.qr(a, mode="complete"), (4, 3)),
    (lambda m, a: m.linalg.qr(a, mode="r"), (3, 3)),
    (lambda m, a: m.qr(a, some=False), (4, 2)),
], ids=["qr-complete_tall", "qr-mode_r", "qr-not_some_tall"])
def test_jvp_errors_as_pytorch(fn, shape):
    arrays = _arrays([("real", shape)], 11)
    same_error(lambda mod: _jvp_prog(fn, arrays, arrays, "float64")(mod))


def test_triangular_solve_broadcast_coefficient_error():
    # A broadcast against b's batch: the cloned coefficient cannot take A's tangent
    arrays = _arrays([("real", (2, 3, 1)), ("triu_spd", (3, 3))], 12)
    same_error(lambda mod: _jvp_prog(lambda m, b, a: m.triangular_solve(b, a), arrays,
                                     arrays, "float64")(mod))


def test_triangular_solve_coefficient_tangent_only_from_a():
    # b dual, A not: the cloned coefficient has no tangent (PyTorch's A_t is undefined)
    arrays = _arrays([("real", (2, 3, 1)), ("triu_spd", (3, 3))], 13)
    same(_jvp_prog(lambda m, b, a: m.triangular_solve(b, a), arrays, arrays, "float64",
                   duals=(0,)), quiet=True)


# ------------------------------------------------------------------ reverse over forward

REVERSE = ["linalg.svd-tall", "linalg.svd-wide", "linalg.qr-tall", "linalg.qr-wide",
           "linalg.slogdet", "linalg.lu", "linalg.lu-wide", "linalg.lstsq",
           "linalg.cholesky_ex", "cholesky_inverse", "triangular_solve", "var_mean-dim",
           "std_mean-dim", "aminmax-dim", "group_norm", "lu_unpack-wide", "linalg.eigh"]


def _tangent_total(mod, fn, leaves, tangents):
    """A weighted sum of fn's output tangents at primals leaves (which require grad), and
    which of the tangents require grad."""
    fw = _fw(mod)
    with fw.dual_level():
        xs = [fw.make_dual(p, mod.tensor(t, dtype=mod.float64))
              for p, t in zip(leaves, tangents)]
        out = fn(mod, *xs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        total, flags = 0, []
        for k, o in enumerate(outs):
            if isinstance(o, mod.Tensor) and o.dtype.is_floating_point:
                t = fw.unpack_dual(o).tangent
                if t is not None:
                    flags.append(t.requires_grad)
                    w = np.random.default_rng(k).standard_normal(tuple(t.shape))
                    total = total + (t * mod.tensor(w, dtype=mod.float64)).sum()
    return total, flags


@pytest.mark.parametrize("cid", REVERSE)
def test_reverse_over_forward(cid):
    """The gradient of a tangent (its formula is recorded as ordinary ops) w.r.t. the
    primals, as PyTorch's (hessian-vector products through the decompositions); which
    tangents have a history at all is PyTorch's too (slogdet's and aminmax's have none).
    PyTorch's eigh gradient here is NaN (the 0/0 of its jvp's diagonal): ours is checked
    against central differences of the tangent instead."""
    fn, kinds = next((f, k) for c, f, k in CASES if c == cid)
    arrays = _arrays(kinds, 21)
    rng = np.random.default_rng(22)
    tangents = [rng.standard_normal(a.shape) for a in arrays]

    def prog(mod):
        leaves = [mod.tensor(a, dtype=mod.float64, requires_grad=True) for a in arrays]
        total, flags = _tangent_total(mod, fn, leaves, tangents)
        if not any(flags):
            return total, flags
        return total, flags, mod.autograd.grad(total, leaves, allow_unused=True)
    if cid != "linalg.eigh":
        same(prog, quiet=True, rtol=1e-6, atol=1e-8)
        return
    got = prog(autograd_core)[2][0].numpy()
    n = arrays[0].shape[-1]
    h = 1e-6
    # along symmetric directions E_ij + E_ji (the gradient of eigh is symmetric, as
    # PyTorch's, while eigh reads only the lower triangle)
    for i in range(n):
        for j in range(i + 1):
            vals = []
            for sgn in (1, -1):
                a = arrays[0].copy()
                a[i, j] += sgn * h
                if i != j:
                    a[j, i] += sgn * h
                leaf = autograd_core.tensor(a, dtype=autograd_core.float64)
                vals.append(float(_tangent_total(autograd_core, fn, [leaf], tangents)[0]))
            fd = (vals[0] - vals[1]) / (2 * h)
            g = got[i, j] + (got[j, i] if i != j else 0)
            assert abs(g - fd) <= 1e-4 * max(1, abs(fd)), (i, j, g, fd)


# ------------------------------------------------------------------ finite differences

GRADCHECK = [
    ("svd", lambda m, a: _abs_uv(m.linalg.svd(a, full_matrices=False)), [("real", (4, 3))]),
    ("svd-wide", lambda m, a: _abs_uv(m.linalg.svd(a, full_matrices=False)),
     [("real", (2, 3))]),
    ("eigh", lambda m, a: (lambda r: (r[0], r[1].abs()))(m.linalg.eigh(a + a.mT)),
     [("sym", (3, 3))]),
    ("qr", lambda m, a: m.linalg.qr(a), [("real", (4, 3))]),
    ("qr-wide", lambda m, a: m.linalg.qr(a), [("real", (2, 4))]),
    ("slogdet", lambda m, a: m.linalg.slogdet(a)[1], [("real", (3, 3))]),
    ("lu", lambda m, a: m.linalg.lu(a)[1:], [("real", (3, 4))]),
    ("lu-tall", lambda m, a: m.linalg.lu(a)[1:], [("real", (4, 2))]),
    ("lstsq", lambda m, a, b: m.linalg.lstsq(a, b).solution,
     [("real", (4, 3)), ("real", (4, 2))]),
    ("cholesky_ex", lambda m, a: m.linalg.cholesky_ex(a.tril() + a.tril(-1).mT)[0],
     [("spd", (3, 3))]),
    ("triangular_solve", lambda m, b, a: m.triangular_solve(b, a.triu(), transpose=False)[0],
     [("real", (3, 2)), ("triu_spd", (3, 3))]),
    ("var_mean", lambda m, a: m.var_mean(a, 1), [("real", (3, 4))]),
    ("std_mean", lambda m, a: m.std_mean(a, 0), [("real", (3, 4))]),
    ("aminmax", lambda m, a: m.aminmax(a, dim=1), [("real", (3, 4))]),
    ("group_norm", lambda m, x, w, b: m.nn.functional.group_norm(x, 2, w, b),
     [("real", (2, 4, 3)), ("real", (4,)), ("real", (4,))]),
]


@pytest.mark.parametrize("fn,kinds", [pytest.param(f, k, id=c) for c, f, k in GRADCHECK])
def test_gradcheck_forward_ad(fn, kinds):
    """gradcheck(check_forward_ad=True): the jvp against central finite differences (and
    PyTorch's gradcheck passes on the same function). Not cholesky_inverse: PyTorch's
    jvp there, which ours follows, is not the finite difference (its gradcheck fails;
    test_cholesky_inverse_jvp_is_pytorchs)."""
    arrays = _arrays(kinds, 31)
    for mod in (torch, autograd_core):
        xs = [mod.tensor(a, dtype=mod.float64, requires_grad=True) for a in arrays]
        assert mod.autograd.gradcheck(lambda *x: fn(mod, *x), xs, check_forward_ad=True,
                                      check_backward_ad=False, check_undefined_grad=False)


def test_svd_full_matrices_extra_columns_get_zero_tangents():
    # full_matrices' extra columns of U (rows of Vh) are not differentiable: PyTorch gives
    # them zero tangents
    arrays = _arrays([("real", (4, 2))], 41)

    def prog(mod):
        fw = _fw(mod)
        with fw.dual_level():
            x = fw.make_dual(mod.tensor(arrays[0]), mod.tensor(arrays[0] + 1))
            U, S, Vh = mod.linalg.svd(x)
            return fw.unpack_dual(U).tangent[:, 2:]
    got = same(prog)
    assert tuple(got.shape) == (4, 2) and bool((got == 0).all())


def test_cholesky_inverse_jvp_is_pytorchs():
    # PyTorch's cholesky_inverse jvp is not the derivative (its own gradcheck with
    # check_forward_ad fails); autograd_core gives PyTorch's tangent, and both fail
    # gradcheck alike
    arrays = _arrays([("tril_spd", (3, 3))], 51)

    def prog(mod):
        x = mod.tensor(arrays[0], requires_grad=True)
        return catch(mod.autograd.gradcheck, lambda a: mod.cholesky_inverse(a.tril()), (x,),
                     check_forward_ad=True, check_backward_ad=False,
                     check_undefined_grad=False).type
    assert same(prog) == "RuntimeError"
