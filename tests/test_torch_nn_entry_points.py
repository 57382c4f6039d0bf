"""The nn ops PyTorch exposes as torch.<name> with aten's signatures (int reductions,
`train` flags, weight and bias before the running statistics): values, the grad_fn of
the output, the gradients of every float input against PyTorch, and gradgradcheck."""
import numpy as np
import pytest

from _diff import same, same_error

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402

rng = np.random.default_rng(11)


def R(*shape):
    return rng.standard_normal(shape)


def P(*shape):
    return rng.random(shape) + 0.5


class Const:
    """An input that must not require grad (targets, running statistics)."""

    def __init__(self, a):
        self.a = np.asarray(a)


SIGN = np.where(rng.random(5) > 0.5, 1.0, -1.0)

CASES = [
    ("adaptive_avg_pool1d", (R(2, 3, 7), 3), {}),
    ("adaptive_max_pool1d", (R(2, 3, 7), 3), {}),
    ("avg_pool1d", (R(2, 3, 7), 3), {"stride": 2, "padding": 1}),
    ("batch_norm", (R(4, 3, 2), R(3), R(3), Const(R(3)), Const(P(3)), True, 0.1, 1e-5, False), {}),
    ("batch_norm", (R(4, 3), None, None, Const(R(3)), Const(P(3)), False, 0.1, 1e-5, False), {}),
    ("bilinear", (R(4, 3), R(4, 5), R(2, 3, 5), R(2)), {}),
    ("celu", (R(3, 4),), {"alpha": 0.5}),
    ("channel_shuffle", (R(2, 6, 2, 2), 3), {}),
    ("conv3d", (R(1, 2, 4, 4, 3), R(3, 2, 2, 2, 2), R(3)), {"padding": 1}),
    ("conv_transpose1d", (R(1, 2, 5), R(2, 3, 3)), {"stride": 2}),
    ("conv_transpose2d", (R(1, 2, 3, 3), R(2, 1, 2, 2), R(1)), {"padding": 1}),
    ("conv_transpose3d", (R(1, 2, 2, 3, 2), R(2, 1, 2, 2, 2)), {}),
    ("conv_tbc", (R(5, 2, 3), R(2, 3, 4), R(4)), {}),
    ("conv_tbc", (R(6, 1, 2), R(3, 2, 2), R(2), 1), {}),
    ("convolution", (R(1, 2, 5, 5), R(3, 2, 3, 3), R(3), [1, 1], [1, 1], [1, 1], False, [0, 0],
                     1), {}),
    ("convolution", (R(1, 2, 5), R(2, 3, 3), None, [2], [1], [1], True, [1], 1), {}),
    ("cosine_embedding_loss", (R(5, 3), R(5, 3), Const(SIGN)), {"margin": 0.1}),
    ("cosine_embedding_loss", (R(5, 3), R(5, 3), Const(SIGN), 0.0, 0), {}),
    ("group_norm", (R(2, 4, 3), 2, R(4), R(4)), {}),
    ("gru_cell", (R(3, 4), R(3, 5), R(15, 4), R(15, 5), R(15), R(15)), {}),
    ("gru_cell", (R(3, 4), R(3, 5), R(15, 4), R(15, 5)), {}),
    ("hardshrink", (R(3, 4), 0.3), {}),
    ("hinge_embedding_loss", (R(5, 3), Const(np.where(R(5, 3) > 0, 1.0, -1.0))), {"reduction": 2}),
    ("instance_norm", (R(2, 3, 5), R(3), R(3), None, None, True, 0.1, 1e-5, False), {}),
    ("kl_div", (np.log(P(4, 5)), Const(P(4, 5))), {}),
    ("kl_div", (R(4, 5), R(4, 5), 0), {"log_target": True}),
    ("lstm_cell", (R(3, 4), [R(3, 5), R(3, 5)], R(20, 4), R(20, 5), R(20), R(20)), {}),
    ("margin_ranking_loss", (R(5), R(5), Const(SIGN)), {"margin": 0.2}),
    ("max_pool1d", (R(2, 3, 8), 3), {}),
    ("max_pool1d", (R(2, 3, 8), 2, 1, 1), {}),
    ("max_pool3d", (R(1, 2, 4, 4, 4), 2), {}),
    ("native_layer_norm", (R(3, 4, 5), [4, 5], R(4, 5), R(4, 5), 1e-5), {}),
    ("native_group_norm", (R(2, 4, 3), R(4), R(4), 2, 4, 3, 2, 1e-5), {}),
    ("native_batch_norm", (R(4, 3), R(3), R(3), None, None, True, 0.1, 1e-5), {}),
    ("norm_except_dim", (R(4, 3, 2),), {}),
    ("norm_except_dim", (R(4, 3, 2), 3, 1), {}),
    ("norm_except_dim", (R(4, 3, 2), 2, -1), {}),
    ("norm_except_dim", (R(4, 3, 2), 2, 2), {}),
    ("pairwise_distance", (R(4, 3), R(4, 3)), {"p": 2.0, "keepdim": True}),
    ("pdist", (R(5, 3),), {}),
    ("pixel_shuffle", (R(2, 8, 3, 2), 2), {}),
    ("pixel_unshuffle", (R(2, 2, 4, 6), 2), {}),
    ("poisson_nll_loss", (R(4, 5), Const(P(4, 5) * 3), True, True, 1e-8, 1), {}),
    ("poisson_nll_loss", (P(4, 5), Const(P(4, 5)), False, False, 1e-8, 0), {}),
    ("prelu", (R(2, 3, 4), R(3)), {}),
    ("rms_norm", (R(3, 4), [4], R(4)), {"eps": 1e-6}),
    ("rnn_relu_cell", (R(3, 4), R(3, 5), R(5, 4), R(5, 5), R(5), R(5)), {}),
    ("rnn_tanh_cell", (R(3, 4), R(3, 5), R(5, 4), R(5, 5)), {}),
    ("rrelu", (R(3, 4),), {}),
    ("selu", (R(3, 4),), {}),
    ("threshold", (R(3, 4), 0.1, -2.0), {}),
    ("triplet_margin_loss", (R(4, 3), R(4, 3), R(4, 3)), {"swap": True, "reduction": 2}),
]


def _conv(a, mod):
    if isinstance(a, Const):
        return mod.tensor(a.a)
    if isinstance(a, np.ndarray):
        return mod.tensor(a, requires_grad=True)
    if isinstance(a, list) and a and isinstance(a[0], np.ndarray):
        return [mod.tensor(x, requires_grad=True) for x in a]
    return a


def _leaves(args):
    out = []
    for a in args:
        if isinstance(a, list):
            out += [x for x in a if hasattr(x, "requires_grad")]
        elif hasattr(a, "requires_grad") and a.requires_grad:
            out.append(a)
    return out


# PyTorch records these ops with a node of its own (or composes them of other ops' nodes);
# autograd_core still composes them of public ops (nn/functional.py), so the output's
# grad_fn differs while values and gradients (compared below) and second derivatives
# (gradgradcheck) agree.
COMPOSED = set()


def _prog(name, args, kwargs):
    def prog(m):
        m.manual_seed(0)
        margs = [_conv(a, m) for a in args]
        out = getattr(m, name)(*margs, **kwargs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        diff = [o for o in outs if o.requires_grad]
        grads = ()
        if diff:
            loss = sum((o * m.tensor(np.linspace(-1, 1, o.numel()).reshape(tuple(o.shape))))
                       .sum() for o in diff)
            grads = m.autograd.grad(loss, _leaves(margs), allow_unused=True)
        node = "composed" if name in COMPOSED else type(outs[0].grad_fn).__name__
        return outs, node, grads
    return prog


@pytest.mark.parametrize("name, args, kwargs", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_against_torch(name, args, kwargs):
    same(_prog(name, args, kwargs), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("name, args, kwargs", [c for c in CASES if c[0] not in (
    "adaptive_max_pool1d", "max_pool1d", "max_pool3d", "rrelu", "threshold", "hardshrink",
    "native_batch_norm", "native_group_norm", "native_layer_norm",
    "pdist")],  # PyTorch has no second derivative of pdist (tests/op_table_reduce_linalg.py)
    ids=lambda x: x if isinstance(x, str) else "")
def test_gradgradcheck(name, args, kwargs):
    margs = [_conv(a, autograd_core) for a in args]
    leaves = _leaves(margs)

    def fn(*xs):
        it = iter(xs)
        call = [[next(it) for _ in a] if isinstance(a, list) and a and
                hasattr(a[0], "requires_grad") else
                (next(it) if hasattr(a, "requires_grad") and a.requires_grad else a)
                for a in margs]
        out = getattr(autograd_core, name)(*call, **kwargs)
        return tuple(out) if isinstance(out, (tuple, list)) else out

    assert autograd_core.autograd.gradcheck(fn, leaves)
    assert autograd_core.autograd.gradgradcheck(fn, leaves)


def test_tensor_methods():
    same(lambda m: (m.tensor([-1.0, 0.2, 2.0]).hardshrink(0.5),
                    m.tensor([[-1.0, 2.0]]).prelu(m.tensor([0.25]))))


def test_native_dropout():
    def prog(m):
        x = m.ones(4, 5)
        out, mask = m.native_dropout(x, 0.5, False)
        out1, mask1 = m.native_dropout(x, 1.0, True)
        out0, mask0 = m.native_dropout(x, 0.0, True)
        return out, mask, out1, mask1, out0, mask0
    same(prog)
    out, mask = autograd_core.native_dropout(autograd_core.ones(1000), 0.3, True)
    kept = mask.numpy()
    assert mask.dtype == autograd_core.bool and 0.5 < kept.mean() < 0.9
    np.testing.assert_allclose(out.numpy(), kept / 0.7)


def test_alpha_dropout_eval_and_errors():
    same(lambda m: (m.alpha_dropout(m.ones(3), 0.5, False),
                    m.feature_alpha_dropout(m.ones(2, 3), 0.2, False)))
    same_error(lambda m: m.kl_div(m.ones(2), m.ones(2), "mean"), message=False)
    same_error(lambda m: m.cosine_embedding_loss(m.ones(2, 3), m.ones(3, 3), m.ones(2)),
               message=False)


def test_native_channel_shuffle():
    same(lambda m: m.native_channel_shuffle(m.arange(12.0).reshape(1, 6, 2), 3))
    same_error(lambda m: m.native_channel_shuffle(m.ones(1, 4, 2, requires_grad=True), 2)
               .sum().backward())


# ------------------------------------------------------------------ affine_grid, grid_sample

def _grid(*shape, scale=1.2):
    return (rng.random(shape) * 2 - 1) * scale


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("size", [[2, 3, 4, 5], [1, 1, 1, 3], [2, 1, 3, 2, 4]])
def test_affine_grid(size, align):
    theta = R(size[0], 2, 3) if len(size) == 4 else R(size[0], 3, 4)

    def prog(m):
        t = m.tensor(theta, requires_grad=True)
        g = m.nn.functional.affine_grid(t, size, align_corners=align)
        g2 = m.affine_grid_generator(t, size, align)
        w = m.tensor(np.linspace(-1, 1, g.numel()).reshape(tuple(g.shape)))
        return g, g2, g.grad_fn.name(), m.autograd.grad((g * w).sum(), t)
    same(prog, quiet=True, rtol=1e-7, atol=1e-9)
    t = autograd_core.tensor(theta, requires_grad=True)
    fn = lambda x: autograd_core.affine_grid_generator(x, size, align)  # noqa: E731
    assert autograd_core.autograd.gradcheck(fn, (t,))
    assert autograd_core.autograd.gradgradcheck(fn, (t,))


def test_affine_grid_errors_and_warning():
    F = "nn.functional"
    same(lambda m: m.nn.functional.affine_grid(m.zeros(1, 2, 3), [1, 1, 2, 2]).shape, quiet=True)
    for size, theta in [([1, 1, 2, 2], (1, 3, 4)), ([1, 1, 2, 2, 2], (1, 2, 3)),
                        ([1, 1, 2], (1, 2, 3)), ([1, 1, 0, 2], (1, 2, 3))]:
        same_error(lambda m: m.nn.functional.affine_grid(m.zeros(*theta), size, False))
    same_error(lambda m: m.nn.functional.affine_grid(m.zeros(1, 2, 3, dtype=m.int64),
                                                     [1, 1, 2, 2], False))
    assert F


_SAMPLE_CASES = [(mode, pad, align) for mode in ("bilinear", "nearest")
                 for pad in ("zeros", "border", "reflection") for align in (False, True)]


@pytest.mark.parametrize("mode, pad, align", _SAMPLE_CASES)
@pytest.mark.parametrize("dims", [2, 3])
def test_grid_sample(mode, pad, align, dims):
    x = R(2, 3, 4, 5) if dims == 2 else R(2, 2, 3, 4, 3)
    grid = _grid(2, 3, 4, 2) if dims == 2 else _grid(2, 2, 3, 2, 3)

    def prog(m):
        xi = m.tensor(x, requires_grad=True)
        gi = m.tensor(grid, requires_grad=True)
        out = m.nn.functional.grid_sample(xi, gi, mode=mode, padding_mode=pad,
                                          align_corners=align)
        w = m.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)))
        return out, out.grad_fn.name(), m.autograd.grad((out * w).sum(), (xi, gi))
    same(prog, rtol=1e-7, atol=1e-9)


def _pixel_centres(n, align):
    """The grid values of pixels -1 .. n (one past each edge) of an input side n."""
    i = np.arange(-1, n + 1, dtype=np.float64)
    return 2 * i / (n - 1) - 1 if align else (2 * i + 1) / n - 1


@pytest.mark.parametrize("pad", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("where", ["centres", "random"])
def test_grid_sample_bicubic(pad, align, dtype, where):
    x = R(2, 3, 4, 5)
    if where == "centres":
        ys, xs = np.meshgrid(_pixel_centres(4, align), _pixel_centres(5, align), indexing="ij")
        grid = np.broadcast_to(np.stack([xs, ys], -1), (2, 6, 7, 2)).copy()
    else:    # about a third of the points outside [-1, 1]
        grid = _grid(2, 3, 4, 2, scale=1.5)
    tol = dict(rtol=1e-5, atol=1e-5) if dtype == "float32" else dict(rtol=1e-7, atol=1e-9)

    def prog(m):
        dt = getattr(m, dtype)
        xi = m.tensor(x, dtype=dt, requires_grad=True)
        gi = m.tensor(grid, dtype=dt, requires_grad=True)
        out = m.nn.functional.grid_sample(xi, gi, mode="bicubic", padding_mode=pad,
                                          align_corners=align)
        w = m.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)), dtype=dt)
        return out, type(out.grad_fn).__name__, m.autograd.grad((out * w).sum(), (xi, gi))
    same(prog, **tol)


def test_grid_sample_bicubic_errors_and_double_backward():
    same_error(lambda m: m.grid_sampler_3d(m.ones(1, 1, 2, 2, 2), m.zeros(1, 1, 1, 1, 3),
                                           2, 0, False))
    same_error(lambda m: m.nn.functional.grid_sample(
        m.ones(1, 1, 2, 2, 2), m.zeros(1, 1, 1, 1, 3), mode="bicubic", align_corners=False))
    xv, gv = R(1, 2, 3, 4), _grid(1, 2, 2, 2, scale=1.4)

    def prog(m):
        x = m.tensor(xv, requires_grad=True)
        g = m.tensor(gv, requires_grad=True)
        out = m.grid_sampler(x, g, 2, 0, False)
        gx, gg = m.autograd.grad((out * out).sum(), (x, g), create_graph=True)
        return gx, gg, m.autograd.grad((gx * gx).sum() + (gg ** 3).sum(), (x, g))
    same(prog, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("pad", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample_bicubic_gradgradcheck(pad, align):
    gen = np.random.default_rng(7)
    x = autograd_core.tensor(gen.standard_normal((1, 2, 3, 4)), requires_grad=True)
    g = autograd_core.tensor(gen.uniform(-1.5, 1.5, (1, 2, 3, 2)), requires_grad=True)
    fn = lambda a, b: autograd_core.nn.functional.grid_sample(  # noqa: E731
        a, b, mode="bicubic", padding_mode=pad, align_corners=align)
    assert autograd_core.autograd.gradcheck(fn, (x, g))
    assert autograd_core.autograd.gradgradcheck(fn, (x, g))


@pytest.mark.parametrize("pad", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("dims", [2, 3])
def test_grid_sample_gradgradcheck(pad, dims):
    gen = np.random.default_rng(5)
    x = autograd_core.tensor(gen.standard_normal((1, 2, 3, 4) if dims == 2 else (1, 1, 2, 3, 2)),
                             requires_grad=True)
    g = autograd_core.tensor(gen.uniform(-1.1, 1.1, (1, 2, 3, 2) if dims == 2 else (1, 2, 1, 2, 3)),
                             requires_grad=True)
    fn = lambda a, b: autograd_core.nn.functional.grid_sample(  # noqa: E731
        a, b, padding_mode=pad, align_corners=False)
    assert autograd_core.autograd.gradcheck(fn, (x, g))
    assert autograd_core.autograd.gradgradcheck(fn, (x, g))


def test_grid_sample_double_backward_against_torch():
    xv, gv = R(1, 2, 3, 4), _grid(1, 2, 2, 2)

    def prog(m):
        x = m.tensor(xv, requires_grad=True)
        g = m.tensor(gv, requires_grad=True)
        out = m.grid_sampler(x, g, 0, 1, True)
        gx, gg = m.autograd.grad((out * out).sum(), (x, g), create_graph=True)
        return gx, gg, m.autograd.grad((gx * gx).sum() + (gg ** 3).sum(), (x, g))
    same(prog, rtol=1e-7, atol=1e-9)


def test_grid_sampler_entry_points_and_errors():
    x, grid = R(1, 2, 3, 3), _grid(1, 2, 2, 2)
    x3, grid3 = R(1, 1, 2, 2, 2), _grid(1, 1, 1, 2, 3)
    same(lambda m: (m.grid_sampler_2d(m.tensor(x), m.tensor(grid), 1, 2, False),
                    m.grid_sampler(m.tensor(x), m.tensor(grid), 0, 0, True),
                    m.grid_sampler_3d(m.tensor(x3), m.tensor(grid3), 0, 1, False)))
    F = lambda m: m.nn.functional  # noqa: E731
    same_error(lambda m: F(m).grid_sample(m.ones(1, 1, 2, 2), m.zeros(1, 1, 1, 2), mode="x"))
    same_error(lambda m: F(m).grid_sample(m.ones(1, 1, 2, 2), m.zeros(1, 1, 1, 2),
                                          padding_mode="x"))
    same_error(lambda m: m.grid_sampler(m.ones(1, 1, 2, 2), m.zeros(1, 1, 1, 3), 0, 0, False))
    same_error(lambda m: m.grid_sampler(m.ones(1, 1, 2, 2), m.zeros(2, 1, 1, 2), 0, 0, False))
    same_error(lambda m: m.grid_sampler_2d(m.ones(1, 1, 2, 2), m.zeros(1, 1, 2), 0, 0, False))


# ------------------------------------------------------------------ whole-sequence RNNs

@pytest.mark.parametrize("name", ["rnn_tanh", "rnn_relu", "gru", "lstm"])
@pytest.mark.parametrize("layers, bidirectional, biases, batch_first", [
    (1, False, True, False), (2, True, True, True), (2, False, False, False)])
def test_rnn_sequences(name, layers, bidirectional, biases, batch_first):
    gates = {"rnn_tanh": 1, "rnn_relu": 1, "gru": 3, "lstm": 4}[name]
    t, b, i, h = 4, 3, 2, 3
    ndir = 2 if bidirectional else 1
    x = R(b, t, i) if batch_first else R(t, b, i)
    hs = [R(layers * ndir, b, h) for _ in range(2 if name == "lstm" else 1)]
    params = []
    for layer in range(layers):
        for _ in range(ndir):
            isz = i if layer == 0 else h * ndir
            params += [R(gates * h, isz) * 0.5, R(gates * h, h) * 0.5]
            if biases:
                params += [R(gates * h) * 0.5, R(gates * h) * 0.5]

    def prog(m):
        xs = m.tensor(x, requires_grad=True)
        hx = [m.tensor(v, requires_grad=True) for v in hs]
        ps = [m.tensor(v, requires_grad=True) for v in params]
        out = getattr(m, name)(xs, hx if name == "lstm" else hx[0], ps, biases, layers, 0.0,
                               False, bidirectional, batch_first)
        loss = sum((o * m.tensor(np.linspace(-1, 1, o.numel()).reshape(tuple(o.shape)))).sum()
                   for o in out)
        return out, m.autograd.grad(loss, [xs] + hx + ps)
    same(prog, rtol=1e-7, atol=1e-9)


def test_conv_tbc_errors():
    x, w, b = R(5, 2, 3), R(2, 3, 4), R(4)
    for args in [(x[0], w, b), (x, w[0], b), (x, w, b[None]), (x, R(2, 4, 4), b), (x, w, R(5))]:
        same_error(lambda m: m.conv_tbc(*[m.tensor(a) for a in args]))


def test_conv3d_and_conv_transpose_errors():
    def t(m, *shape):
        return m.tensor(np.ones(shape))
    progs = [
        lambda m: m.conv_transpose2d(t(m, 1, 2, 3, 3), t(m, 3, 1, 2, 2)),
        lambda m: m.conv_transpose2d(t(m, 1, 2, 3, 3), t(m, 2, 1, 2, 2), output_padding=1),
        lambda m: m.conv_transpose1d(t(m, 1, 2, 3), t(m, 2, 1, 2), padding=3),
        lambda m: m.conv_transpose3d(t(m, 1, 3, 2, 2, 2), t(m, 3, 1, 2, 2, 2), groups=2),
        lambda m: m.conv_transpose2d(t(m, 1, 2, 3, 3), t(m, 2, 1, 2, 2), t(m, 3)),
        lambda m: m.nn.functional.conv_transpose2d(t(m, 1, 2, 3, 3), t(m, 2, 1, 2, 2),
                                                   padding="same"),
        lambda m: m.conv3d(t(m, 1, 2, 3, 3, 3), t(m, 2, 3, 2, 2, 2)),
        lambda m: m.conv3d(t(m, 1, 2, 1, 3, 3), t(m, 2, 2, 2, 2, 2)),
        lambda m: m.conv3d(t(m, 2, 3, 3), t(m, 2, 2, 2, 2, 2)),
        lambda m: m.conv3d(t(m, 1, 2, 3, 3, 3), t(m, 2, 2, 2, 2, 2), stride=2, padding="same"),
        lambda m: m.conv3d(t(m, 1, 2, 3, 3), t(m, 2, 2, 2, 2)),
        lambda m: m.conv_transpose2d(t(m, 2, 3, 3), t(m, 2, 1, 2, 2, 2)),
        lambda m: m.conv2d(t(m, 1, 2, 3, 3), t(m, 2, 2, 2, 2, 2), stride=(1, 2)),
    ]
    for prog in progs:
        same_error(prog)


def test_shrink_and_threshold_errors():
    same_error(lambda m: m.hardshrink(m.tensor([1, 2]), 0.5))
    same_error(lambda m: m.nn.functional.softshrink(m.tensor([1, 2]), 0.5))
    same_error(lambda m: m.nn.functional.softshrink(m.tensor([1.0, 2.0]), -0.5))
    same(lambda m: (m.threshold(m.tensor([1, 2]), 1, 0), m.threshold(m.tensor([1, 2]), 1.5, 0.5),
                    m.threshold(m.tensor([1.0, 2.0]), 1, float("nan")),
                    m.hardshrink(m.tensor([1.0, -0.2]), -0.5)))
