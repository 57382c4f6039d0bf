"""Complex Python numbers (and 0-d tensors) as Scalar arguments (issue 27; Note [Complex
Scalar arguments] in autograd_core/_core/_messages.pxi), differentially against PyTorch:
add/sub/rsub's alpha, addcmul/addcdiv's value, addmm/addmv/addr/baddbmm/addbmm's beta and
alpha on complex tensors (values, dtypes, gradients, gradcheck/gradgradcheck with forward
AD), masked_fill's value, fill_/fill and full/full_like/new_full's fill value, and
PyTorch's errors where it refuses them (real tensors); and
a real value copied into a complex tensor by setitem (its gradient is the real part,
PyTorch's copy_)."""
import numpy as np
import pytest

from _diff import same

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402

DTYPES = ["complex64", "complex128"]


def z(mod, *shape, seed=0, dtype="complex128", requires_grad=False, nc=False):
    """Deterministic complex inputs of a shape (nc: a non-contiguous one, a transpose)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape)) if shape else 1
    vals = (rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)).reshape(shape)
    t = mod.tensor(vals, dtype=getattr(mod, dtype))
    if nc and t.dim() == 2:
        t = t.t().contiguous().t()
    return t.requires_grad_() if requires_grad else t


# (name, program(mod, dtype, alpha-like scalar, requires_grad) -> tensor, the inputs)
def _add(m, d, s, rg):
    a, b = z(m, 2, 3, dtype=d, requires_grad=rg), z(m, 2, 3, seed=1, dtype=d, requires_grad=rg)
    return m.add(a, b, alpha=s), (a, b)


def _add_number(m, d, s, rg):
    a = z(m, 2, 3, dtype=d, requires_grad=rg)
    return m.add(a, 2.5, alpha=s), (a,)


def _sub(m, d, s, rg):
    a, b = z(m, 3, dtype=d, requires_grad=rg), z(m, 3, seed=1, dtype=d, requires_grad=rg)
    return m.sub(a, b, alpha=s), (a, b)


def _rsub(m, d, s, rg):
    a, b = z(m, 3, dtype=d, requires_grad=rg), z(m, 3, seed=1, dtype=d, requires_grad=rg)
    return m.rsub(a, b, alpha=s), (a, b)


def _sub_method_inplace(m, d, s, rg):
    a, b = z(m, 2, 3, dtype=d, requires_grad=rg), z(m, 3, seed=1, dtype=d, requires_grad=rg)
    y = a * 1
    y.sub_(b, alpha=s)
    return y, (a, b)


def _add_real_other(m, d, s, rg):
    # a complex tensor beside a real one: the promoted (complex) dtype takes the alpha
    a = z(m, 2, 3, dtype=d, requires_grad=rg)
    b = m.tensor([[0.5, -1.0, 2.0]], dtype=m.float64, requires_grad=rg)
    return m.add(a, b, alpha=s), (a, b)


def _addcmul(m, d, s, rg):
    a, b, c = (z(m, 2, 3, seed=k, dtype=d, requires_grad=rg) for k in range(3))
    return m.addcmul(a, b, c, value=s), (a, b, c)


def _addcdiv(m, d, s, rg):
    a, b, c = (z(m, 2, 3, seed=k, dtype=d, requires_grad=rg) for k in range(3))
    return m.addcdiv(a, b, c + 2, value=s), (a, b, c)


def _addcmul_(m, d, s, rg):
    a, b, c = (z(m, 3, seed=k, dtype=d, requires_grad=rg) for k in range(3))
    y = a * 1
    y.addcmul_(b, c, value=s)
    return y, (a, b, c)


def _addmm(m, d, s, rg):
    a, b, c = (z(m, 2, 2, seed=k, dtype=d, requires_grad=rg) for k in range(3))
    return m.addmm(a, b, c, beta=s, alpha=s * 2 - 1), (a, b, c)


def _addmm_nc(m, d, s, rg):
    a = z(m, 2, dtype=d, requires_grad=rg)
    b = z(m, 2, 3, seed=1, dtype=d, nc=True).requires_grad_(rg)
    c = z(m, 3, 2, seed=2, dtype=d, nc=True).requires_grad_(rg)
    return m.addmm(a, b, c, alpha=s), (a, b, c)


def _addmv(m, d, s, rg):
    a, b, c = (z(m, *sh, seed=k, dtype=d, requires_grad=rg)
               for k, sh in enumerate([(2,), (2, 3), (3,)]))
    return m.addmv(a, b, c, beta=s, alpha=1 - s), (a, b, c)


def _addr(m, d, s, rg):
    a, b, c = (z(m, *sh, seed=k, dtype=d, requires_grad=rg)
               for k, sh in enumerate([(2, 3), (2,), (3,)]))
    return m.addr(a, b, c, beta=s, alpha=s), (a, b, c)


def _baddbmm(m, d, s, rg):
    a, b, c = (z(m, *sh, seed=k, dtype=d, requires_grad=rg)
               for k, sh in enumerate([(2, 2, 2), (2, 2, 3), (2, 3, 2)]))
    return m.baddbmm(a, b, c, beta=s, alpha=s), (a, b, c)


def _addbmm(m, d, s, rg):
    a, b, c = (z(m, *sh, seed=k, dtype=d, requires_grad=rg)
               for k, sh in enumerate([(2, 2), (2, 2, 3), (2, 3, 2)]))
    return m.addbmm(a, b, c, beta=s, alpha=s), (a, b, c)


def _add_empty(m, d, s, rg):
    a, b = z(m, 0, 3, dtype=d, requires_grad=rg), z(m, 0, 3, dtype=d, requires_grad=rg)
    return m.add(a, b, alpha=s), (a, b)


def _add_0d(m, d, s, rg):
    a, b = z(m, dtype=d, requires_grad=rg), z(m, seed=1, dtype=d, requires_grad=rg)
    return m.add(a, b, alpha=s), (a, b)


PROGRAMS = {
    "add": _add, "add_number": _add_number, "sub": _sub, "rsub": _rsub,
    "sub_inplace": _sub_method_inplace, "add_real_other": _add_real_other,
    "addcmul": _addcmul, "addcdiv": _addcdiv, "addcmul_": _addcmul_, "addmm": _addmm,
    "addmm_nc": _addmm_nc, "addmv": _addmv, "addr": _addr, "baddbmm": _baddbmm,
    "addbmm": _addbmm, "add_empty": _add_empty, "add_0d": _add_0d,
}
SCALARS = {"1j": 1j, "2-0.5j": 2 - 0.5j, "1+0j": 1 + 0j}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scalar", list(SCALARS))
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_complex_scalar_values_and_gradients(name, scalar, dtype):
    def prog(mod):
        y, inputs = PROGRAMS[name](mod, dtype, SCALARS[scalar], True)
        gs = mod.autograd.grad((y * (0.5 - 1.5j)).real.sum(), inputs, allow_unused=True)
        return y, y.dtype, type(y.grad_fn).__name__, gs
    tol = dict(rtol=2e-5, atol=2e-5) if dtype == "complex64" else {}
    same(prog, **tol)


def test_zero_dim_tensor_scalars():
    # a 0-d tensor that does not require grad is a Scalar argument (its value)
    def prog(mod):
        a = z(mod, 3, requires_grad=True)
        y = mod.add(a, a * 2, alpha=mod.tensor(2 - 1j))
        r = mod.addcmul(mod.ones(2), mod.ones(2), mod.ones(2), value=mod.tensor(3.0))
        q = mod.sub(mod.ones(2, dtype=mod.int64), mod.ones(2, dtype=mod.int64),
                    alpha=mod.tensor(3))
        g, = mod.autograd.grad(y.abs().sum(), a)
        return y, r, q, g
    same(prog)


@pytest.mark.parametrize("case", ["requires_grad", "non_leaf", "one_element"])
def test_tensor_scalars_refused(case):
    # one that requires grad, or has a dim, is no Scalar (PyTorch's TypeError)
    def prog(mod):
        a = mod.ones(2, dtype=mod.complex64)
        w = mod.tensor(2j, requires_grad=True)
        alpha = {"requires_grad": w, "non_leaf": w * 1, "one_element": mod.tensor([2j])}[case]
        return mod.add(a, a, alpha=alpha)
    same(prog, must_raise=True)


GRADCHECK_OPS = {
    "add": lambda m, s, a, b: m.add(a, b, alpha=s),
    "sub": lambda m, s, a, b: m.sub(a, b, alpha=s),
    "rsub": lambda m, s, a, b: m.rsub(a, b, alpha=s),
    "addcmul": lambda m, s, a, b, c: m.addcmul(a, b, c, value=s),
    "addcdiv": lambda m, s, a, b, c: m.addcdiv(a, b, c + 2, value=s),
    "addmm": lambda m, s, a, b, c: m.addmm(a, b, c, beta=s, alpha=s * 2 - 1),
    "addmv": lambda m, s, a, b, c: m.addmv(a, b, c, beta=s, alpha=1 - s),
    "addr": lambda m, s, a, b, c: m.addr(a, b, c, beta=s, alpha=s),
    "baddbmm": lambda m, s, a, b, c: m.baddbmm(a, b, c, beta=s, alpha=s),
}


@pytest.mark.parametrize("name", list(GRADCHECK_OPS))
def test_gradcheck(name):
    # the derivatives multiply by conj(alpha) / conj(beta) / conj(value), as PyTorch's
    _, inputs = PROGRAMS[name](autograd_core, "complex128", 0.5 - 2j, True)

    def f(*xs):
        return GRADCHECK_OPS[name](autograd_core, 0.5 - 2j, *xs)
    # (addr's and baddbmm's forward derivatives are not in the table yet)
    fw = name not in ("addr", "baddbmm")
    assert autograd_core.autograd.gradcheck(f, inputs, check_forward_ad=fw)
    assert autograd_core.autograd.gradgradcheck(f, inputs)


# ------------------------------------------------------------------ PyTorch's errors

REAL_DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", "bool"]


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("op", ["add", "add_number", "sub", "rsub", "add_inplace", "addcmul",
                                "addcdiv", "addmm_beta", "addmm_alpha", "addmv", "addr",
                                "addr_beta", "baddbmm", "addbmm"])
@pytest.mark.parametrize("scalar", ["1j", "2+0j"])
def test_complex_scalar_on_real_tensors(op, dtype, scalar):
    # PyTorch's alpha_check (add/sub), its integral-alpha check (addr) and its Scalar
    # conversion ("value cannot be converted to type float without overflow"), or the
    # value itself when the imaginary part is zero
    s = {"1j": 1j, "2+0j": 2 + 0j}[scalar]

    def prog(mod):
        d = getattr(mod, dtype)
        o = mod.ones(2, 2, dtype=d)
        v = mod.ones(2, dtype=d)
        fns = {
            "add": lambda: mod.add(o, o, alpha=s),
            "add_number": lambda: mod.add(o, 2, alpha=s),
            "sub": lambda: mod.sub(o, o, alpha=s),
            "rsub": lambda: mod.rsub(o, o, alpha=s),
            "add_inplace": lambda: o.clone().add_(o, alpha=s),
            "addcmul": lambda: mod.addcmul(o, o, o, value=s),
            "addcdiv": lambda: mod.addcdiv(o, o, o, value=s),
            "addmm_beta": lambda: mod.addmm(o, o, o, beta=s),
            "addmm_alpha": lambda: mod.addmm(o, o, o, alpha=s),
            "addmv": lambda: mod.addmv(v, o, v, alpha=s),
            "addr": lambda: mod.addr(o, v, v, alpha=s),
            "addr_beta": lambda: mod.addr(o, v, v, beta=s),
            "baddbmm": lambda: mod.baddbmm(o[None], o[None], o[None], alpha=s),
            "addbmm": lambda: mod.addbmm(o, o[None], o[None], alpha=s),
        }
        return fns[op]()
    same(prog, may_raise=True, quiet=True)


@pytest.mark.parametrize("op", ["elu", "softplus", "leaky_relu", "threshold", "index_add"])
def test_other_scalar_arguments_convert_complex_as_pytorch(op):
    # the Scalars a real kernel reads (Note [Complex Scalar arguments], _REAL_SCALAR_OPS):
    # PyTorch's conversion error for an imaginary part, never a value computed without it
    # (tests/test_complex_errors.py sweeps these ops, dtypes and numbers)
    def prog(m):
        x = m.ones(3)
        fns = {"elu": lambda: m.nn.functional.elu(x, alpha=1j),
               "softplus": lambda: m.nn.functional.softplus(x, beta=1j),
               "leaky_relu": lambda: m.nn.functional.leaky_relu(x, 1j),
               "threshold": lambda: m.nn.functional.threshold(x, 0.5, 1j),
               "index_add": lambda: x.index_add(0, m.tensor([0]), x[:1], alpha=1j)}
        return fns[op]()
    same(prog, must_raise=True)


def test_numpy_complex_scalar_refused():
    # PyTorch reads a numpy complex scalar as a real number, dropping its imaginary part
    # (numpy's ComplexWarning); refused here rather than computed so
    a = autograd_core.ones(2, dtype=autograd_core.complex64)
    with pytest.raises(TypeError):
        autograd_core.add(a, a, alpha=np.complex64(1j))


# ------------------------------------------------------------------ setitem of another dtype

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("key", ["row", "slice", "ellipsis"])
def test_setitem_real_value_into_complex(dtype, key):
    # copy_'s gradient for a real source is the real part (PyTorch's handle_r_to_c)
    def prog(mod):
        x = z(mod, 3, 4, dtype=dtype, requires_grad=True)
        v = mod.tensor([1.0, -2.0, 0.5, 3.0], dtype=mod.float64, requires_grad=True)
        y = x * 1
        k = {"row": 1, "slice": (slice(0, 2),), "ellipsis": (Ellipsis, 2)}[key]
        y[k] = v if key != "ellipsis" else v[:3]
        gx, gv = mod.autograd.grad((y * (1 - 2j)).abs().sum(), (x, v))
        return y, type(y.grad_fn).__name__, gx, gv, gv.dtype
    tol = dict(rtol=2e-5, atol=2e-5) if dtype == "complex64" else {}
    same(prog, **tol)


def test_setitem_real_value_gradcheck():
    v = autograd_core.tensor([1.0, -2.0, 0.5, 3.0], dtype=autograd_core.float64,
                             requires_grad=True)
    x = z(autograd_core, 3, 4, requires_grad=True)

    def f(x, v):
        y = x * 1
        y[1] = v
        return y
    assert autograd_core.autograd.gradcheck(f, (x, v))
    assert autograd_core.autograd.gradgradcheck(f, (x, v))


# ------------------------------------------------------------------ masked_fill's value

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("form", ["function", "method", "inplace", "broadcast_mask", "0d",
                                  "empty", "noncontiguous"])
def test_masked_fill_complex_value(form, dtype):
    def prog(mod):
        x = z(mod, 2, 3, dtype=dtype, requires_grad=True)
        mask = mod.tensor([[True, False, True], [False, False, True]])
        if form == "function":
            y = mod.masked_fill(x, mask, 2 - 1j)
        elif form == "method":
            y = x.masked_fill(mask, 1j)
        elif form == "inplace":
            y = x * 1
            y.masked_fill_(mask, -0.5 + 3j)
        elif form == "broadcast_mask":
            y = x.masked_fill(mod.tensor([False, True, True]), 1j)
        elif form == "0d":
            x = z(mod, dtype=dtype, requires_grad=True)
            y = x.masked_fill(mod.tensor(True), 1j)
        elif form == "empty":
            x = z(mod, 0, 3, dtype=dtype, requires_grad=True)
            y = x.masked_fill(mod.zeros(0, 3, dtype=mod.bool), 1j)
        else:
            x = z(mod, 3, 2, dtype=dtype, requires_grad=True)
            y = x.t().masked_fill(mask, 1j)
        g, = mod.autograd.grad((y * (1 + 2j)).real.sum(), x)
        return y, y.dtype, type(y.grad_fn).__name__, g
    same(prog)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("scalar", ["1j", "2+0j"])
@pytest.mark.parametrize("inplace", [False, True])
def test_masked_fill_complex_value_on_real_tensors(dtype, scalar, inplace):
    s = {"1j": 1j, "2+0j": 2 + 0j}[scalar]

    def prog(mod):
        x = mod.ones(2, 2, dtype=getattr(mod, dtype))
        mask = mod.tensor([[True, False], [False, True]])
        return x.masked_fill_(mask, s) if inplace else x.masked_fill(mask, s)
    same(prog, may_raise=True, quiet=True)


# ------------------------------------------------------------------ creation with a complex fill

@pytest.mark.parametrize("dtype", [None, "complex64", "complex128"] + REAL_DTYPES)
@pytest.mark.parametrize("scalar", ["1j", "2+0j", "0d_tensor"])
@pytest.mark.parametrize("fn", ["full", "full_out", "full_like", "new_full"])
def test_creation_complex_fill(fn, scalar, dtype):
    # PyTorch's Scalar conversion: a complex fill into a real dtype is its error (numpy
    # would drop the imaginary part silently), or the real value when it has none
    def prog(mod):
        s = {"1j": 1j, "2+0j": 2 + 0j, "0d_tensor": mod.tensor(2 - 1j)}[scalar]
        kw = {} if dtype is None else {"dtype": getattr(mod, dtype)}
        if fn == "full":
            if scalar == "0d_tensor":
                s = s.item()
            return mod.full((2, 3), s, **kw)
        if fn == "full_out":
            out = mod.empty(0, **kw)
            return mod.full((2,), s if scalar != "0d_tensor" else s.item(), out=out), out
        if fn == "full_like":
            return mod.full_like(mod.ones(2, 2), s if scalar != "0d_tensor" else s.item(), **kw)
        return mod.ones(2, 2).new_full((3,), s, **kw)
    same(prog, may_raise=True, quiet=True)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"] + REAL_DTYPES)
@pytest.mark.parametrize("scalar", ["1j", "2+0j"])
@pytest.mark.parametrize("fn", ["fill_", "fill"])
def test_fill_complex_value(fn, scalar, dtype):
    s = {"1j": 1j, "2+0j": 2 + 0j}[scalar]

    def prog(mod):
        x = mod.zeros(2, 3, dtype=getattr(mod, dtype))
        return x.fill_(s) if fn == "fill_" else mod.fill(x, s)
    same(prog, may_raise=True, quiet=True)


# ---------------------------------------------------------------- the Scalar sweep
# Every op/argument form that takes a Scalar (or a float argument a user may hand a
# complex number), on four dtypes and three complex numbers (a nonzero imaginary part,
# and two with none: PyTorch reads those as their real part where it converts the
# Scalar): the same value and dtype as PyTorch, or its exception type and message.
SWEEP_FORMS = {
 "elu_alpha": lambda m, x, c: m.nn.functional.elu(x, alpha=c),
 "elu__alpha": lambda m, x, c: m.nn.functional.elu_(x.clone(), alpha=c),
 "celu_alpha": lambda m, x, c: m.nn.functional.celu(x, alpha=c),
 "selu": lambda m, x, c: m.selu(x),
 "softplus_beta": lambda m, x, c: m.nn.functional.softplus(x, beta=c),
 "softplus_threshold": lambda m, x, c: m.nn.functional.softplus(x, threshold=c),
 "leaky_relu_slope": lambda m, x, c: m.nn.functional.leaky_relu(x, negative_slope=c),
 "leaky_relu__slope": lambda m, x, c: m.nn.functional.leaky_relu_(x.clone(), negative_slope=c),
 "threshold_t": lambda m, x, c: m.nn.functional.threshold(x, c, 0.5),
 "threshold_v": lambda m, x, c: m.nn.functional.threshold(x, 0.1, c),
 "threshold_fn": lambda m, x, c: m.threshold(x, 0.1, c),
 "threshold__v": lambda m, x, c: m.threshold_(x.clone(), 0.1, c),
 "hardtanh_min": lambda m, x, c: m.nn.functional.hardtanh(x, min_val=c),
 "hardtanh_max": lambda m, x, c: m.nn.functional.hardtanh(x, max_val=c),
 "hardtanh__max": lambda m, x, c: m.nn.functional.hardtanh_(x.clone(), max_val=c),
 "index_add_alpha": lambda m, x, c: m.index_add(x, 0, m.tensor([0, 2]), x[:2], alpha=c),
 "index_add__alpha": lambda m, x, c: x.clone().index_add_(0, m.tensor([0, 2]), x[:2], alpha=c),
 "constant_pad_nd": lambda m, x, c: m.constant_pad_nd(x, [1, 1], c),
 "F.pad": lambda m, x, c: m.nn.functional.pad(x, (1, 2), value=c),
 "F.pad_reflect": lambda m, x, c: m.nn.functional.pad(x[None], (1, 1), mode="reflect", value=c),
 "norm_p": lambda m, x, c: m.norm(x, p=c),
 "norm_p_dim": lambda m, x, c: m.norm(x, p=c, dim=0),
 "clamp_min": lambda m, x, c: m.clamp(x, min=c),
 "clamp_max": lambda m, x, c: m.clamp(x, max=c),
 "clamp_min_fn": lambda m, x, c: m.clamp_min(x, c),
 "clamp_max_fn": lambda m, x, c: m.clamp_max(x, c),
 "clamp_": lambda m, x, c: x.clone().clamp_(c, None),
 "clip": lambda m, x, c: m.clip(x, c, None),
 "hardshrink": lambda m, x, c: m.nn.functional.hardshrink(x, c),
 "softshrink": lambda m, x, c: m.nn.functional.softshrink(x, c),
 "rrelu_lower": lambda m, x, c: m.nn.functional.rrelu(x, lower=c, training=False),
 "glu": lambda m, x, c: m.nn.functional.glu(x),
 "mul_scalar": lambda m, x, c: m.mul(x, c),
 "div_scalar": lambda m, x, c: m.div(x, c),
 "pow_scalar": lambda m, x, c: m.pow(x, c),
 "pow_scalar_base": lambda m, x, c: m.pow(c, x),
 "remainder": lambda m, x, c: m.remainder(x, c),
 "fmod": lambda m, x, c: m.fmod(x, c),
 "lerp_w": lambda m, x, c: m.lerp(x, x * 2, c),
 "addcdiv_value": lambda m, x, c: m.addcdiv(x, x, x + 3, value=c),
 "where_scalar": lambda m, x, c: m.where(x.real > 0 if x.is_complex() else x > 0, x, c),
 "masked_fill": lambda m, x, c: x.masked_fill(m.tensor([True, False, True, False]), c),
 "index_fill": lambda m, x, c: x.index_fill(0, m.tensor([1]), c),
 "fill_": lambda m, x, c: x.clone().fill_(c),
 "full_like": lambda m, x, c: m.full_like(x, c),
 "new_full": lambda m, x, c: x.new_full((2,), c),
 "scatter_value": lambda m, x, c: x.scatter(0, m.tensor([1]), c),
 "eq": lambda m, x, c: m.eq(x, c),
 "gt": lambda m, x, c: m.gt(x, c),
 "isclose_other": lambda m, x, c: m.isclose(x, m.full_like(x, c)),
 "nan_to_num": lambda m, x, c: m.nan_to_num(x, nan=c),
 "renorm_p": lambda m, x, c: m.renorm(x[None], c, 0, 1.0),
 "renorm_maxnorm": lambda m, x, c: m.renorm(x[None], 2, 0, c),
 "dist_p": lambda m, x, c: m.dist(x, x * 2, c),
 "vector_norm_ord": lambda m, x, c: m.linalg.vector_norm(x, c),
 "cdist_p": lambda m, x, c: m.cdist(x[None, :, None], x[None, :, None], p=c),
 "pdist_p": lambda m, x, c: m.pdist(x[:, None], p=c),
 "polygamma": lambda m, x, c: m.special.xlogy(x, c),
 "xlogy_scalar": lambda m, x, c: m.xlogy(x, c),
 "bucketize": lambda m, x, c: m.bucketize(c, x),
 "histc_min": lambda m, x, c: m.histc(x, 4, min=c, max=3),
 "logit_eps": lambda m, x, c: m.logit(x, eps=c),
 "quantile_q": lambda m, x, c: m.quantile(x, c),
 "hardsigmoid": lambda m, x, c: m.nn.functional.hardsigmoid(x),
 "gelu": lambda m, x, c: m.nn.functional.gelu(x),
 "sub_alpha": lambda m, x, c: m.sub(x, x, alpha=c),
 "softmax": lambda m, x, c: m.softmax(x, 0),
 "smooth_l1_beta": lambda m, x, c: m.nn.functional.smooth_l1_loss(x, x * 2, beta=c),
 "huber_delta": lambda m, x, c: m.nn.functional.huber_loss(x, x * 2, delta=c),
 "margin_ranking": lambda m, x, c: m.nn.functional.margin_ranking_loss(x, x, x, margin=c),
 "hinge_margin": lambda m, x, c: m.nn.functional.hinge_embedding_loss(x, x, margin=c),
 "addmv_beta": lambda m, x, c: m.addmv(x[:2], m.ones(2, 4, dtype=x.dtype), x, beta=c),
 "add_scalar": lambda m, x, c: m.add(x, c),
 "rsub_scalar": lambda m, x, c: m.rsub(x, c),
 "arange_end": lambda m, x, c: m.arange(c),
 "full": lambda m, x, c: m.full((2,), c, dtype=x.dtype),
 "logspace_base": lambda m, x, c: m.logspace(0, 1, 3, base=c),
 "mvlgamma": lambda m, x, c: m.float_power(x, c),
 "normal_mean": lambda m, x, c: m.normal(c, 1.0, (2,)).shape,
 "uniform_": lambda m, x, c: x.clone().uniform_(c, 3).shape,
}
SWEEP_INPUTS = {"f64": lambda m: m.tensor([0.5, -1.5, 2.0, -0.25], dtype=m.float64),
     "f32": lambda m: m.tensor([0.5, -1.5, 2.0, -0.25], dtype=m.float32),
     "i64": lambda m: m.tensor([1, -2, 3, 0]),
     "c128": lambda m: m.tensor([0.5+1j, -1.5, 2.0-0.5j, -0.25j], dtype=m.complex128)}
SWEEP_NUMBERS = {"1+2j": 1 + 2j, "2+0j": 2 + 0j, "-0.5+0j": -0.5 + 0j}

# Forms that still differ from PyTorch, by the reason (strict xfail: a form fixed
# fails its test until it is removed here)
SWEEP_KNOWN = {}


def _sweep_params():
    for form in SWEEP_FORMS:
        for x in SWEEP_INPUTS:
            for number in SWEEP_NUMBERS:
                why = SWEEP_KNOWN.get((form, x, number)) or SWEEP_KNOWN.get((form, x)) \
                    or SWEEP_KNOWN.get(form)
                marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
                yield pytest.param(form, x, number, marks=marks, id=f"{form}-{x}-{number}")


@pytest.mark.parametrize("form, x, number", list(_sweep_params()))
def test_scalar_sweep(form, x, number):
    f, c = SWEEP_FORMS[form], SWEEP_NUMBERS[number]
    same(lambda mod: f(mod, SWEEP_INPUTS[x](mod), c), may_raise=True, quiet=True,
         rtol=1e-6, atol=1e-8)


# ---------------------------------------------------------------- zero to a complex power
# Note [Complex power of zero] (ops/pointwise.pyx): PyTorch's std::pow

ZERO_EXPONENTS = [-0.5 + 0j, 0j, -1 + 1j, 1j, -1j, -2 + 0j, -3 + 0j, -0.5 + 1j, 0.5 + 0j,
                  2 + 0j, 1 + 1j, 0.5 - 2j]


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "int64"])
@pytest.mark.parametrize("e", ZERO_EXPONENTS, ids=str)
def test_zero_base_complex_power(dtype, e):
    def base(m):
        return m.tensor([0, 1, 2, 0], dtype=getattr(m, dtype))

    def prog(m):
        ct = base(m).to(m.complex128) if dtype in ("float32", "int64") else base(m)
        return (m.pow(base(m), e),                                     # Scalar exponent
                m.pow(ct, m.full((4,), e, dtype=ct.dtype)),            # Tensor exponent
                m.pow(ct, m.tensor(e, dtype=ct.dtype)),                # 0-d exponent
                m.float_power(base(m), e),
                m.pow(e if e != 0 else 0j, m.tensor([0., -0.5, -1., 2.])))   # pow.Scalar
    same(prog, rtol=1e-5, atol=1e-6)


def test_zero_base_complex_power_in_place_and_number_base():
    def prog(m):
        t = m.tensor([0j, 1 + 1j, 0j])
        t **= -0.5 + 0j
        u = m.tensor([0j, 2j])
        u.pow_(m.tensor([-1 + 1j, 0j]))
        return t, u, m.pow(0j, m.tensor([-0.5 + 0j, 0j, 1j, 2 + 0j])), \
            m.pow(0, m.tensor([-0.5 + 1j, 1 + 0j]))
    same(prog)


@pytest.mark.parametrize("e", [-0.5 + 0j, -1 + 1j, 2 + 0j, 1.5 + 0.5j], ids=str)
def test_zero_base_complex_power_gradient(e):
    def prog(m):
        x = m.tensor([0j, 1 + 1j, -2 + 0.5j], requires_grad=True)
        y = x.pow(e)
        g, = m.autograd.grad(y.abs().sum() if e.real > 1 else y.real.sum(), x,
                             allow_unused=True)
        ex = m.tensor([e, e, e], requires_grad=True)
        z = m.pow(m.tensor([0j, 1j, 2 + 0j]), ex)
        ge, = m.autograd.grad(z.real.sum(), ex)
        return y, g, z, ge
    same(prog, may_raise=True)


# ---------------------------------------------------------------- norms' order checks

@pytest.mark.parametrize("p", [2 + 0j, 1j, 2, "fro"], ids=str)
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex64", "bool"])
def test_norm_order_after_the_input_dtype(p, dtype):
    def prog(m, f):
        t = m.tensor([[1, 0], [2, 3]], dtype=getattr(m, dtype))
        return f(m, t)
    forms = [lambda m, t: m.norm(t, p=p), lambda m, t: m.norm(t, p=p, dim=0),
             lambda m, t: m.norm(t, p=p, dim=(0, 1))]
    if p != "fro":
        forms += [lambda m, t: m.linalg.vector_norm(t, p),
                  lambda m, t: m.dist(t, t.flip(0), p),
                  lambda m, t: m.linalg.vector_norm(t, p, dtype=m.float64)]
    for f in forms:
        same(lambda m: prog(m, f), may_raise=True, quiet=True)


# ---------------------------------------------------------------- rrelu on complex input

@pytest.mark.parametrize("lower", [2 + 0j, -0.5 + 0j, 1 + 2j, 2.0, -0.5, 0.1])
@pytest.mark.parametrize("training", [False, True])
@pytest.mark.parametrize("inplace", [False, True])
def test_rrelu_complex_check_order(lower, training, inplace):
    same(lambda m: m.nn.functional.rrelu(m.tensor([1 + 1j, -2.0]), lower=lower,
                                         training=training, inplace=inplace),
         may_raise=True, quiet=True)


# ---------------------------------------------------------------- message differences

@pytest.mark.parametrize("prog", [
    lambda m: m.quantile(m.tensor([1., 2.]), 0.5, interpolation="foo"),
    lambda m: m.nanquantile(m.tensor([1., 2.]), 0.5, interpolation="foo"),
    lambda m: m.quantile(m.tensor([1., 2.]), 0.5, out=m.empty((), dtype=m.float64)),
    lambda m: m.nanquantile(m.tensor([1., 2.]), m.tensor([0.5]),
                            out=m.empty(1, dtype=m.float64)),
    lambda m: m.quantile(m.tensor([1., 2.]), 1.5, out=m.empty((), dtype=m.float64)),
    lambda m: m.quantile(m.tensor([1., 2.], requires_grad=True), 0.5,
                         out=m.empty((), dtype=m.float64)),
    lambda m: m.tensor([1., 2.]).cummin(), lambda m: m.tensor([1., 2.]).cummax(),
    lambda m: m.cummin(m.tensor([1., 2.])), lambda m: m.cummax(m.tensor([1., 2.])),
    lambda m: m.tensor([1., 2.]).logcumsumexp(), lambda m: m.logcumsumexp(m.tensor([1.])),
    lambda m: m.tensor([1., 2.]).cumsum(), lambda m: m.cumsum(m.tensor([1.])),
    lambda m: m.tensor([1., 2.]) % (1 + 2j), lambda m: m.tensor([1., 2.]).remainder(1j),
    lambda m: (1j) % m.tensor([1., 2.]), lambda m: m.remainder(1j, m.tensor([1., 2.])),
    lambda m: m.tensor([1 + 1j]) % 2, lambda m: m.fmod(m.tensor([1., 2.]), 1j),
    lambda m: m.dist(m.tensor([1, 2]), m.tensor([3, 4]), 2),
])
def test_messages(prog):
    same(prog, must_raise=True, quiet=True)


# ---------------------------------------------------------------- positions in messages
# PyTorch's Python-level wrappers that pass an argument on by position (torch.cdist's p,
# Tensor.unflatten's dim and sizes) make its parser name the position even for a keyword
# (the table's always_position, Note [Keyword or positional]); torch.unflatten does not.

@pytest.mark.parametrize("code", [
    "m.cdist(x[None], x[None], p=1j)", "m.cdist(x[None], x[None], 1j)",
    "m.cdist(x[None], x[None], p='a')", "m.cdist(x1=x[None], x2=x[None], p=None)",
    "x.unflatten(dim=1j, sizes=(2, 2))", "x.unflatten(0, sizes=1j)", "x.unflatten(0, 1j)",
    "m.unflatten(x, dim=1j, sizes=(2, 2))", "m.unflatten(x, 0, sizes=1j)",
    "m.unflatten(x, 0, 1j)", "x.unflatten(dim=0, sizes=(2, 2))",
])
def test_argument_positions_of_python_wrappers(code):
    same(lambda m: eval(code, {"m": m, "x": m.ones(4, 1)}), may_raise=True)
