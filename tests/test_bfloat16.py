"""bfloat16 (issue 27 item 6) against PyTorch: creation, casts, printing, promotion,
finfo, serialization, the ops PyTorch's CPU kernels compute in float and round once
(Note [bfloat16 compute], Note [bfloat16 casts]), autograd, optimizers, a Llama-style
block, and CPU autocast (Note [Autocast])."""
import warnings

import numpy as np
import pytest

from _diff import same, same_error, torch, graph_desc

import autograd_core as ag

BF = 2.0 ** -7          # bfloat16's epsilon: one rounding of a value near 1
TOL = dict(rtol=2 * BF, atol=2 * BF)


def bf(mod, *shape, seed=0, scale=1.0, requires_grad=False):
    """The same bfloat16 values under either module (rounded from float32 normals)."""
    a = (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)
    t = mod.tensor(a.tolist(), dtype=mod.float32).to(mod.bfloat16)
    return t.requires_grad_() if requires_grad else t


def bits(t):
    """A bfloat16 tensor's values as exact Python floats (for bitwise comparisons)."""
    return t.float().tolist()


# ---------------------------------------------------------------- the dtype

def test_dtype_attributes():
    same(lambda m: (m.bfloat16, m.bfloat16.is_floating_point, m.bfloat16.is_signed,
                    m.bfloat16.itemsize, m.bfloat16.is_complex, str(m.bfloat16)))


def test_promotion():
    pairs = [("bfloat16", o) for o in ("bool", "uint8", "int8", "int16", "int32", "int64",
                                       "float16", "bfloat16", "float32", "float64")]
    same(lambda m: [m.promote_types(getattr(m, a), getattr(m, b)) for a, b in pairs]
         + [m.promote_types(getattr(m, b), getattr(m, a)) for a, b in pairs])
    same(lambda m: [(bf(m, 3) + 1.5).dtype, (bf(m, 3) + 2).dtype, (bf(m, 3) + True).dtype,
                    (bf(m, 3) + m.arange(3)).dtype, (m.arange(3) * bf(m, 3)).dtype,
                    (bf(m, 3) + m.tensor(2.0)).dtype, (bf(m, 3) + m.ones(3)).dtype,
                    (bf(m, 3) + m.ones(3).half()).dtype, (m.tensor(1.5, dtype=m.bfloat16) + m.ones(3).half()).dtype,
                    m.result_type(bf(m, 2), 1.0), m.can_cast(m.bfloat16, m.float16)])


def test_finfo():
    same(lambda m: (repr(m.finfo(m.bfloat16)), m.finfo(m.bfloat16).eps,
                    m.finfo(m.bfloat16).max, m.finfo(m.bfloat16).tiny,
                    m.finfo(m.bfloat16).resolution, m.finfo(m.bfloat16).bits))


def test_creation():
    same(lambda m: [m.tensor([1.5, 1.00390625, 1e-40, 3.4e38, -1e39, float("nan")],
                             dtype=m.bfloat16),
                    m.zeros(2, 3, dtype=m.bfloat16), m.ones(2, dtype=m.bfloat16),
                    m.full((2,), 0.1, dtype=m.bfloat16), m.arange(5, dtype=m.bfloat16),
                    m.linspace(0, 1, 7, dtype=m.bfloat16), m.eye(2, dtype=m.bfloat16),
                    m.empty(2, dtype=m.bfloat16).dtype, m.zeros_like(bf(m, 3)),
                    m.tensor([1, 2, 300]).bfloat16(), m.ones(2).to(m.bfloat16),
                    m.tensor(2.5, dtype=m.bfloat16).item(), bf(m, 2, 3).tolist()])


def test_float64_rounds_through_float():
    # 1 + 2**-8 + 2**-30: one rounding gives 1 + 2**-7, PyTorch's two (via float) give 1
    v = 1 + 2 ** -8 + 2 ** -30
    same(lambda m: [bits(m.tensor([v], dtype=m.bfloat16)),
                    bits(m.tensor([v], dtype=m.float64).to(m.bfloat16)),
                    bits(m.tensor([v], dtype=m.float64).bfloat16() + 0)])


def test_casts_from_bfloat16():
    def prog(m):
        x = m.tensor([300.7, -5.5, 1e10, -1e10, float("nan"), float("inf"), 0.0, -0.0],
                     dtype=m.bfloat16)
        return [x.to(d) for d in (m.float16, m.float32, m.float64, m.bool)] + \
            [m.tensor([300.7, -5.5, 2.0], dtype=m.bfloat16).to(d)
             for d in (m.int8, m.uint8, m.int16, m.int32, m.int64)]
    same(prog)


def test_random_rounding_edges():
    # round-to-nearest-even at each halfway point between neighbours, and overflow
    vals = [1 + k * 2 ** -8 for k in range(8)] + [3.3961e38, 3.3962e38, -3.39e38,
                                                   2 ** -133, 2 ** -134, 2 ** -135]
    same(lambda m: bits(m.tensor(vals, dtype=m.float32).bfloat16()))


def test_printing():
    same(lambda m: [repr(bf(m, 5, scale=100)), repr(bf(m, 3, 4)), str(m.tensor(
        [1.0, 2.0, 3.0], dtype=m.bfloat16)), repr(m.tensor(0.1, dtype=m.bfloat16)),
        repr(m.tensor([1e-5, 1e5], dtype=m.bfloat16)), repr(m.zeros(0, dtype=m.bfloat16)),
        repr(bf(m, 2, requires_grad=True)), repr(m.tensor([float("inf"), float("nan"), 1.5],
                                                          dtype=m.bfloat16))])


def test_numpy_refused():
    same_error(lambda m: bf(m, 2).numpy())
    same_error(lambda m: np.asarray(bf(m, 2)))


def test_legacy_type_names():
    same(lambda m: (bf(m, 2).type(), isinstance(bf(m, 2), m.Tensor)))


def test_save_load_round_trip(tmp_path):
    x = bf(ag, 3, 4)
    ag.save({"x": x, "t": x.t()}, tmp_path / "a.pt")
    back = ag.load(tmp_path / "a.pt")
    assert back["x"].dtype == ag.bfloat16 and back["x"].tolist() == x.tolist()
    assert back["t"].tolist() == x.t().tolist()
    t = torch.load(tmp_path / "a.pt")
    assert t["x"].dtype == torch.bfloat16 and t["x"].tolist() == x.tolist()


def test_view_dtype_with_bfloat16():
    same(lambda m: [m.ones(4, dtype=m.float16).view(m.bfloat16),
                    bf(m, 4).view(m.int16), bf(m, 4).view(m.float32),
                    m.tensor([1.0, 2.0]).view(m.bfloat16)])


# ---------------------------------------------------------------- ops

UNARY = ["exp", "log", "sin", "cos", "tanh", "sqrt", "abs", "neg", "reciprocal", "expm1",
         "log1p", "sigmoid", "rsqrt", "floor", "round", "sign", "square", "log2", "exp2",
         "atan", "relu", "erf", "trunc", "frac", "sinh", "asinh"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_rounds_once(name):
    # a float result rounded once: values bitwise equal but where the float kernels
    # themselves may differ in the last float place (erf)
    same(lambda m: getattr(m, name)(bf(m, 2000, scale=3)), **TOL)
    a = getattr(torch, name)(bf(torch, 2000, scale=3)).float().numpy()
    b = np.array(getattr(ag, name)(bf(ag, 2000, scale=3)).float().tolist(), dtype=np.float32)
    mismatched = ~((a == b) | (np.isnan(a) & np.isnan(b)))
    assert mismatched.sum() <= (10 if name == "erf" else 0)


BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "atan2", "fmod",
          "remainder", "eq", "lt", "ge"]


@pytest.mark.parametrize("name", BINARY)
def test_binary(name):
    same(lambda m: getattr(m, name)(bf(m, 500, scale=3), bf(m, 500, seed=1, scale=3)), **TOL)


def test_number_operands_round_to_bfloat16():
    # PyTorch rounds a Python number to bfloat16 first: 1 + 0.0039063 stays 1
    same(lambda m: [bits(bf(m, 1) * 0 + 1 + 0.0039063), bits(m.ones(3, dtype=m.bfloat16) * 1.0039063),
                    bits(m.clamp(m.ones(2, dtype=m.bfloat16), min=1.0039063))])


def test_reductions_accumulate_in_float():
    same(lambda m: [bf(m, 1000).sum(), bf(m, 30, 40).sum(0), bf(m, 30, 40).sum(1),
                    bf(m, 1000).mean(), bf(m, 30, 40).mean(0), bf(m, 30, 40).mean(1),
                    bf(m, 1000).var(), bf(m, 30, 40).std(1), bf(m, 30, 40).max(0),
                    bf(m, 30).cumsum(0), bf(m, 30).norm(), bf(m, 5, 6).amax(1),
                    bf(m, 1000).sum(dtype=m.float32)], **TOL)
    # a sum of 4096 ones in bfloat16 would stop at 256; in float it is exact
    same(lambda m: m.ones(4096, dtype=m.bfloat16).sum())


def test_matrix_products_round_once():
    same(lambda m: [bf(m, 64, 300) @ bf(m, 300, 50, seed=1),
                    m.addmm(bf(m, 50, seed=2), bf(m, 64, 300), bf(m, 300, 50, seed=1)),
                    m.addmm(bf(m, 5, seed=2), bf(m, 8, 30), bf(m, 30, 5, seed=1),
                            beta=0.5, alpha=2),
                    m.bmm(bf(m, 4, 16, 30), bf(m, 4, 30, 5, seed=1)),
                    bf(m, 4, 16, 30) @ bf(m, 30, 5, seed=1), bf(m, 16, 30) @ bf(m, 30, seed=1),
                    bf(m, 30) @ bf(m, 30, seed=1)], **TOL)
    # bitwise: float32 accumulation of 300 products, one rounding
    t = torch.addmm(bf(torch, 50, seed=2), bf(torch, 64, 300), bf(torch, 300, 50, seed=1))
    o = ag.addmm(bf(ag, 50, seed=2), bf(ag, 64, 300), bf(ag, 300, 50, seed=1))
    assert np.mean(np.array(bits(o)) == t.float().numpy()) > 0.99


def F(m):
    return m.nn.functional


def test_nn_functional():
    same(lambda m: [
        F(m).linear(bf(m, 8, 30), bf(m, 20, 30, seed=1), bf(m, 20, seed=2)),
        F(m).layer_norm(bf(m, 8, 30), (30,), bf(m, 30, seed=1), bf(m, 30, seed=2)),
        F(m).rms_norm(bf(m, 8, 30), (30,), bf(m, 30, seed=1)),
        F(m).rms_norm(bf(m, 4, 6, scale=0.01), (6,)),
        F(m).gelu(bf(m, 300)), F(m).gelu(bf(m, 300), approximate="tanh"),
        F(m).silu(bf(m, 300)), m.softmax(bf(m, 30, 40), 1), m.log_softmax(bf(m, 30, 40), 0),
        F(m).embedding(m.tensor([1, 3, 0]), bf(m, 5, 4)),
        F(m).cross_entropy(bf(m, 8, 10), m.tensor([1, 3, 0, 9, 2, 2, 4, 5])),
        F(m).conv2d(bf(m, 2, 3, 8, 8), bf(m, 4, 3, 3, 3, seed=1), bf(m, 4, seed=2)),
        F(m).scaled_dot_product_attention(bf(m, 2, 4, 8, 16), bf(m, 2, 4, 8, 16, seed=1),
                                          bf(m, 2, 4, 8, 16, seed=2), is_causal=True),
        F(m).dropout(bf(m, 10), 0.0), F(m).mse_loss(bf(m, 10), bf(m, 10, seed=1))], **TOL)


def test_dropout_keeps_dtype():
    same(lambda m: (m.manual_seed(0), F(m).dropout(m.ones(1000, dtype=m.bfloat16), 0.5))[1])


def test_autograd_through_nn_ops():
    def prog(m):
        x = bf(m, 4, 30, requires_grad=True)
        w = bf(m, 20, 30, seed=1, requires_grad=True)
        b = bf(m, 20, seed=2, requires_grad=True)
        g = bf(m, 20, seed=3, requires_grad=True)
        h = F(m).linear(x, w, b)
        h = F(m).layer_norm(h, (20,), g, None)
        h = F(m).silu(h) + F(m).gelu(h)
        loss = F(m).cross_entropy(h, m.tensor([1, 3, 0, 9]))
        loss.backward()
        return loss, x.grad, w.grad, b.grad, g.grad, graph_desc(loss.grad_fn)
    same(prog, rtol=4 * BF, atol=4 * BF)


def test_optimizers_on_bfloat16_params():
    def prog(m, opt_name):
        w = bf(m, 5, 4, requires_grad=True)
        opt = getattr(m.optim, opt_name)([w], lr=0.01)
        for _ in range(3):
            opt.zero_grad()
            (w * w).sum().backward()
            opt.step()
        return w, opt.state_dict()["state"].get(0, {}).get("exp_avg")
    for name in ("SGD", "Adam", "AdamW"):
        same(prog, name, **TOL)


# ---------------------------------------------------------------- a Llama-style block

def _llama_block(m, seed=0):
    d, heads, n = 32, 4, 6
    p = {k: bf(m, *s, seed=seed + i, scale=0.2, requires_grad=True) for i, (k, s) in enumerate(
        [("wq", (d, d)), ("wk", (d, d)), ("wv", (d, d)), ("wo", (d, d)), ("gate", (64, d)),
         ("up", (64, d)), ("down", (d, 64)), ("n1", (d,)), ("n2", (d,))])}
    x = bf(m, 2, n, d, seed=seed + 20, requires_grad=True)

    def split(t):
        return t.view(2, n, heads, d // heads).transpose(1, 2)
    h = F(m).rms_norm(x, (d,), p["n1"], eps=1e-6)
    q, k, v = (split(F(m).linear(h, p[w])) for w in ("wq", "wk", "wv"))
    a = F(m).scaled_dot_product_attention(q, k, v, is_causal=True)
    x2 = x + F(m).linear(a.transpose(1, 2).reshape(2, n, d), p["wo"])
    h2 = F(m).rms_norm(x2, (d,), p["n2"], eps=1e-6)
    out = x2 + F(m).linear(F(m).silu(F(m).linear(h2, p["gate"])) * F(m).linear(h2, p["up"]),
                           p["down"])
    out.float().pow(2).mean().backward()
    return [out] + [x.grad] + [p[k].grad for k in sorted(p)]


def test_llama_block_forward_backward():
    same(_llama_block, rtol=0.05, atol=0.05)
    ours = _llama_block(ag)
    assert all(t.dtype == ag.bfloat16 for t in ours)


# ---------------------------------------------------------------- autocast

def test_autocast_result_dtypes():
    def prog(m):
        m.manual_seed(0)
        lin = m.nn.Linear(8, 4)
        conv = m.nn.Conv2d(3, 2, 3)
        x = m.ones(2, 8)
        img = m.ones(1, 3, 5, 5)
        with m.autocast("cpu"):
            y = lin(x)
            c = conv(img)
            s = m.softmax(y, 1)
            mm = x @ x.t()
            loss = F(m).cross_entropy(y, m.tensor([0, 1]))
            mse = F(m).mse_loss(y, m.zeros(2, 4))
            d64 = m.ones(2, 2, dtype=m.float64) @ m.ones(2, 2, dtype=m.float64)
            enabled = (m.is_autocast_enabled("cpu"), m.get_autocast_dtype("cpu"))
            summed = y.sum()
            added = y + 1
        loss.backward()
        return [t.dtype for t in (y, c, s, mm, loss, mse, d64, summed, added)], enabled, \
            lin.weight.grad.dtype, m.is_autocast_enabled("cpu"), y, c, \
            graph_desc(loss.grad_fn)
    same(prog, **TOL)


def test_autocast_float16_and_disabled():
    def prog(m):
        x = m.ones(2, 3)
        with m.autocast("cpu", dtype=m.float16):
            a = (x @ x.t()).dtype
        with m.autocast("cpu", enabled=False):
            b = (x @ x.t()).dtype
        with m.autocast("cpu"):
            with m.autocast("cpu", enabled=False):
                c = (x @ x.t()).dtype
            d = (x @ x.t()).dtype
        return a, b, c, d
    same(prog)


def test_autocast_decorator_and_unsupported_dtype():
    def prog(m):
        @m.autocast("cpu")
        def f(x):
            return F(m).linear(x, x)
        return f(m.ones(2, 2)).dtype
    same(prog)
    def unsupported(m):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with m.autocast("cpu", dtype=m.float64):
                r = (m.ones(2, 2) @ m.ones(2, 2)).dtype, m.is_autocast_enabled("cpu")
        return r, [str(x.message) for x in w], m.get_autocast_dtype("cpu")
    same(unsupported)


def test_autocast_backward_inside_region():
    # backward inside the region: the derivative formulas are not autocast (PyTorch's
    # backward ops run in the dtypes the forward chose)
    def prog(m):
        x = bf(m, 4, 6).float().requires_grad_()
        w = bf(m, 6, 3, seed=1).float().requires_grad_()
        with m.autocast("cpu"):
            y = (x @ w).float().pow(2).sum()
            y.backward()
        return y, x.grad, w.grad
    same(prog, **TOL)


def test_ml_dtypes_arrays_refused():
    import ml_dtypes
    a = np.ones(3, dtype=ml_dtypes.bfloat16)
    for fn in ("from_numpy", "tensor", "as_tensor", "asarray"):
        same_error(lambda m: getattr(m, fn)(a))


def test_scalar_operands_as_pytorch_kernels_read_them():
    # mul and div read a scalar second operand in float (unrounded); add and sub round
    # it to bfloat16 first; a scalar first operand is rounded too
    def prog(m):
        x = bf(m, 2000, scale=3)
        return [bits(x * 1.1), bits(x / 1.1), bits(x * m.tensor(1.1)), bits(m.tensor(1.1) * x),
                bits(x * m.tensor(1.1, dtype=m.float64)), bits(x - 0.3), bits(0.3 - x),
                bits(x + 0.3), bits(x.abs() ** 2.3)]
    same(prog, rtol=0, atol=0)


# ---- quantile under CPU autocast: PyTorch's float32 list casts a bfloat16 (or float16)
# input and q tensor to float32 before quantile's dtype check; without autocast that
# check refuses them (quantile's words for nanquantile too)

_QUANTILE_FORMS = {
    "bf16": lambda m, x, q: m.quantile(x.to(m.bfloat16), 0.3),
    "bf16_q": lambda m, x, q: m.quantile(x.to(m.bfloat16), q.to(m.bfloat16)),
    "nan_bf16": lambda m, x, q: m.nanquantile(x.to(m.bfloat16), 0.3, dim=1),
    "f16": lambda m, x, q: m.quantile(x.to(m.float16), 0.3),
    "ac_f32": ("bfloat16", lambda m, x, q: m.quantile(x, q, dim=1)),
    "ac_bf16": ("bfloat16", lambda m, x, q: m.quantile(x.to(m.bfloat16), q, dim=1)),
    "ac_bf16_q": ("bfloat16", lambda m, x, q: m.quantile(x.to(m.bfloat16),
                                                        q.to(m.bfloat16), dim=1)),
    "ac_nan_bf16": ("bfloat16", lambda m, x, q: m.nanquantile(x.to(m.bfloat16), 0.5)),
    "ac_mm": ("bfloat16", lambda m, x, q: m.quantile(m.mm(x, x.t()), q.to(m.bfloat16))),
    "ac_method": ("bfloat16", lambda m, x, q: x.to(m.bfloat16).quantile(0.25, dim=0,
                                                                        keepdim=True)),
    "ac_f64": ("bfloat16", lambda m, x, q: m.quantile(x.double(), 0.3)),
    "ac16_bf16": ("float16", lambda m, x, q: m.quantile(x.to(m.bfloat16), q, dim=1)),
    "ac16_f16": ("float16", lambda m, x, q: m.quantile(x.to(m.float16), 0.75)),
}


@pytest.mark.parametrize("form", sorted(_QUANTILE_FORMS))
def test_quantile_reduced_float_and_autocast(form):
    f = _QUANTILE_FORMS[form]

    def prog(m):
        x = m.tensor([[0.3, 1.7, -2.2, 4.1], [0.5, 0.25, 9.0, -1.0]])
        q = m.tensor([0.1, 0.5, 0.9])
        if isinstance(f, tuple):
            with m.autocast("cpu", dtype=getattr(m, f[0])):
                r = f[1](m, x, q)
            return r, r.dtype
        return f(m, x, q)
    same(prog, may_raise=True)
