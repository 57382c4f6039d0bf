"""autograd_core.nn.functional beyond the op table: errors (type and message), warnings,
in-place forms, dropout's generator, batch norm's running statistics, pooling indices,
larger convolutions and a small CNN trained side by side with PyTorch.

Every check compares with torch (or, for dropout's randomness, with the mask's own
algebra and with finite differences)."""
import numpy as np
import pytest

import autograd_core as ac
import autograd_core.nn.functional as AF
from _diff import assert_same, same, same_error, sub_name, torch, warns

TF = torch.nn.functional


def F(m):
    return m.nn.functional


def arr(*shape, seed=0, dtype=np.float64, positive=False):
    a = np.random.default_rng(seed).standard_normal(shape)
    if positive:
        a = np.abs(a) + 0.5
    return a.astype(dtype)


# ------------------------------------------------------------------ errors

def _t(m, *shape, seed=0, rg=False, dtype=None):
    return m.tensor(arr(*shape, seed=seed), dtype=dtype or m.float32, requires_grad=rg)


ERRORS = [
    ("softmax.dim", lambda m: F(m).softmax(_t(m, 3, 4), dim=2)),
    ("softmax.int", lambda m: F(m).softmax(m.tensor([1, 2, 3]), 0)),
    ("log_softmax.int", lambda m: F(m).log_softmax(m.tensor([1, 2, 3]), 0)),
    ("gelu.int", lambda m: F(m).gelu(m.tensor([1, 2, 3]))),
    ("gelu.approximate", lambda m: F(m).gelu(_t(m, 3), approximate="foo")),
    ("elu.int", lambda m: F(m).elu(m.tensor([1, 2, 3]))),
    ("leaky_relu.int", lambda m: F(m).leaky_relu(m.tensor([1, 2, 3]))),
    ("silu.int", lambda m: F(m).silu(m.tensor([1, 2, 3]))),
    ("softplus.int", lambda m: F(m).softplus(m.tensor([1, 2, 3]))),
    ("mse.int", lambda m: F(m).mse_loss(m.tensor([1, 2]), m.tensor([1, 2]))),
    ("mse.broadcast", lambda m: F(m).mse_loss(_t(m, 4, 5), _t(m, 3, 5))),
    ("mse.reduction", lambda m: F(m).mse_loss(_t(m, 3), _t(m, 3), reduction="foo")),
    ("mse.weight_size", lambda m: F(m).mse_loss(_t(m, 3), _t(m, 3), weight=_t(m, 2))),
    ("bce.size", lambda m: F(m).binary_cross_entropy(m.rand(3), m.rand(4))),
    ("bce.range", lambda m: F(m).binary_cross_entropy(m.tensor([1.5]), m.tensor([0.5]))),
    ("bce.weight_grad", lambda m: F(m).binary_cross_entropy(
        m.tensor([0.5]), m.tensor([0.5]), weight=m.tensor([1.0], requires_grad=True))),
    ("bce_logits.size", lambda m: F(m).binary_cross_entropy_with_logits(_t(m, 3), _t(m, 4))),
    ("bce_logits.pos_weight_grad", lambda m: F(m).binary_cross_entropy_with_logits(
        _t(m, 3), _t(m, 3), pos_weight=m.tensor([1.0, 2.0, 3.0], requires_grad=True))),
    ("nll.bounds", lambda m: F(m).nll_loss(_t(m, 3, 4), m.tensor([0, 1, 5]))),
    ("nll.negative", lambda m: F(m).cross_entropy(_t(m, 3, 4), m.tensor([0, 1, -1]))),
    ("nll.batch", lambda m: F(m).nll_loss(_t(m, 3, 4), m.tensor([0, 1]))),
    ("nll.float_target", lambda m: F(m).nll_loss(_t(m, 3, 4), m.tensor([0., 1., 2.]))),
    ("nll.weight_size", lambda m: F(m).nll_loss(_t(m, 3, 4), m.tensor([0, 1, 2]),
                                                weight=m.ones(3))),
    ("nll.weight_grad", lambda m: F(m).nll_loss(_t(m, 3, 4), m.tensor([0, 1, 2]),
                                                weight=m.ones(4, requires_grad=True))),
    ("nll.spatial_size", lambda m: F(m).nll_loss(_t(m, 2, 3, 4), m.zeros(2, 5, dtype=m.long))),
    ("ce.label_smoothing", lambda m: F(m).cross_entropy(_t(m, 3, 4), m.tensor([0, 1, 2]),
                                                        label_smoothing=1.5)),
    ("smooth_l1.beta", lambda m: F(m).smooth_l1_loss(_t(m, 3), _t(m, 3), beta=-1.0)),
    ("linear.shapes", lambda m: F(m).linear(_t(m, 4, 5), _t(m, 3, 4))),
    ("linear.shapes_bias", lambda m: F(m).linear(_t(m, 4, 5), _t(m, 3, 4), _t(m, 3))),
    ("pad.odd", lambda m: F(m).pad(_t(m, 4, 5), (1,))),
    ("pad.too_long", lambda m: F(m).pad(_t(m, 4, 5), (1, 1, 1, 1, 1, 1))),
    ("pad.reflect_size", lambda m: F(m).pad(_t(m, 1, 4, 5), (5, 5), mode="reflect")),
    ("pad.reflect_dims", lambda m: F(m).pad(_t(m, 5), (1, 1), mode="reflect")),
    ("pad.negative_size", lambda m: F(m).pad(_t(m, 3), (-2, -2))),
    ("layer_norm.shape", lambda m: F(m).layer_norm(_t(m, 4, 5), (4,))),
    ("layer_norm.weight", lambda m: F(m).layer_norm(_t(m, 4, 5), (5,), m.ones(4))),
    ("batch_norm.one_value", lambda m: F(m).batch_norm(_t(m, 1, 3), m.zeros(3), m.ones(3),
                                                       training=True)),
    ("batch_norm.eps", lambda m: F(m).batch_norm(_t(m, 2, 3), m.zeros(3), m.ones(3),
                                                 training=True, eps=0.0)),
    ("embedding.float_indices", lambda m: F(m).embedding(m.tensor([1., 2.]), _t(m, 3, 4))),
    ("embedding.range", lambda m: F(m).embedding(m.tensor([1, 5]), _t(m, 3, 4))),
    ("embedding.padding_idx", lambda m: F(m).embedding(m.tensor([1, 2]), _t(m, 3, 4),
                                                       padding_idx=5)),
    ("dropout.p", lambda m: F(m).dropout(_t(m, 3), 1.5)),
    ("dropout.int", lambda m: F(m).dropout(m.tensor([1, 2, 3]), 0.5)),
    ("conv2d.channels", lambda m: F(m).conv2d(_t(m, 2, 5, 8, 8), _t(m, 4, 3, 3, 3))),
    ("conv2d.input_dims", lambda m: F(m).conv2d(_t(m, 2, 3), _t(m, 4, 3, 3, 3))),
    ("conv2d.kernel_size", lambda m: F(m).conv2d(_t(m, 2, 3, 2, 2), _t(m, 4, 3, 3, 3))),
    ("conv2d.dtype", lambda m: F(m).conv2d(_t(m, 2, 3, 4, 4, dtype=m.float64),
                                           _t(m, 4, 3, 3, 3))),
    ("conv2d.bias_dtype", lambda m: F(m).conv2d(_t(m, 2, 3, 4, 4), _t(m, 4, 3, 3, 3),
                                                _t(m, 4, dtype=m.float64))),
    ("conv2d.same_stride", lambda m: F(m).conv2d(_t(m, 2, 3, 8, 8), _t(m, 4, 3, 3, 3), stride=2,
                                                 padding="same")),
    ("conv2d.padding_string", lambda m: F(m).conv2d(_t(m, 2, 3, 8, 8), _t(m, 4, 3, 3, 3),
                                                    padding="foo")),
    ("conv2d.groups", lambda m: F(m).conv2d(_t(m, 2, 3, 8, 8), _t(m, 4, 3, 3, 3), groups=2)),
    ("conv2d.groups_weight", lambda m: F(m).conv2d(_t(m, 2, 6, 8, 8), _t(m, 3, 3, 3, 3),
                                                   groups=2)),
    ("conv2d.bias_size", lambda m: F(m).conv2d(_t(m, 2, 3, 8, 8), _t(m, 4, 3, 3, 3), _t(m, 3))),
    ("conv1d.input_dims", lambda m: F(m).conv1d(_t(m, 2, 3, 4, 4), _t(m, 4, 3, 3))),
    ("max_pool2d.pad", lambda m: F(m).max_pool2d(_t(m, 1, 2, 2, 2), 3, padding=2)),
    ("max_pool2d.small", lambda m: F(m).max_pool2d(_t(m, 1, 2, 2, 2), 3)),
    ("avg_pool2d.small", lambda m: F(m).avg_pool2d(_t(m, 1, 2, 2, 2), 3)),
    ("avg_pool2d.divisor", lambda m: F(m).avg_pool2d(_t(m, 1, 2, 4, 4), 2, divisor_override=0)),
]


@pytest.mark.parametrize("case", ERRORS, ids=[c[0] for c in ERRORS])
def test_error_matches_torch(case):
    _, f = case
    same_error(f, quiet=False)


# ------------------------------------------------------------------ warnings

WARNS = [
    ("softmax.implicit", lambda m: F(m).softmax(m.ones(2, 3))),
    ("log_softmax.implicit", lambda m: F(m).log_softmax(m.ones(2, 3, 4))),
    ("mse.size", lambda m: F(m).mse_loss(m.ones(2, 3), m.ones(3))),
    ("l1.size", lambda m: F(m).l1_loss(m.ones(2, 3), m.ones(1, 3))),
    ("legacy_reduction", lambda m: F(m).mse_loss(m.ones(2), m.zeros(2), size_average=False)),
    ("conv2d.same_even", lambda m: F(m).conv2d(m.ones(1, 1, 4, 4), m.ones(1, 1, 2, 2),
                                               padding="same")),
]


# PyTorch issues these with TORCH_WARN_ONCE: once per process, so after another test ran
# the same call, torch's warning is read from a fresh interpreter
WARN_ONCE = {
    "conv2d.same_even": "torch.nn.functional.conv2d(torch.ones(1, 1, 4, 4), "
                        "torch.ones(1, 1, 2, 2), padding='same')",
}


def _torch_warnings_in_fresh_process(expr):
    import subprocess
    import sys
    code = ("import warnings, torch\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            f"    {expr}\n"
            "print(repr([(x.category.__name__, str(x.message)) for x in w]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return eval(out.strip().splitlines()[-1])


@pytest.mark.parametrize("case", WARNS, ids=[c[0] for c in WARNS])
def test_warning_matches_torch(case):
    name, f = case
    t_out, t_w = warns(f, torch)
    if not t_w and name in WARN_ONCE:
        t_w = _torch_warnings_in_fresh_process(WARN_ONCE[name])
    a_out, a_w = warns(f, ac)
    assert t_w, "torch must warn here"
    assert [(c, sub_name(msg)) for c, msg in t_w] == [(c, msg) for c, msg in a_w]
    assert_same(t_out, a_out)


# ------------------------------------------------------------------ in-place forms

INPLACE = [
    ("relu", lambda m, y: F(m).relu(y, inplace=True)),
    ("relu_", lambda m, y: F(m).relu_(y)),
    ("Tensor.relu_", lambda m, y: y.relu_()),
    ("leaky_relu", lambda m, y: F(m).leaky_relu(y, 0.2, inplace=True)),
    ("leaky_relu_", lambda m, y: F(m).leaky_relu_(y, 0.2)),
    ("elu", lambda m, y: F(m).elu(y, 0.5, inplace=True)),
    ("celu_", lambda m, y: F(m).celu_(y, 0.5)),
    ("selu", lambda m, y: F(m).selu(y, inplace=True)),
    ("hardtanh_", lambda m, y: F(m).hardtanh_(y, -0.5, 0.5)),
    ("relu6", lambda m, y: F(m).relu6(y * 1, inplace=True)),
    ("silu", lambda m, y: F(m).silu(y, inplace=True)),
    ("dropout", lambda m, y: F(m).dropout(y, 0.0, inplace=True)),
]


@pytest.mark.parametrize("case", INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace(case):
    _, f = case

    def prog(m):
        x = m.tensor(arr(3, 4, seed=3) * 2, requires_grad=True)
        y = x * 1.0
        v0 = y._version
        r = f(m, y)
        same_obj = r is y
        bumped = y._version > v0 or r is not y
        r.backward(m.tensor(arr(3, 4, seed=4)))
        return r, same_obj, bumped, x.grad, type(r.grad_fn).__name__

    same(prog)


@pytest.mark.parametrize("case", INPLACE[:-1], ids=[c[0] for c in INPLACE[:-1]])
def test_inplace_on_leaf_raises(case):
    _, f = case
    same(lambda m: f(m, m.tensor(arr(3, 4), requires_grad=True)), may_raise=True)


def test_inplace_no_grad_values():
    def prog(m):
        x = m.tensor(arr(3, 4, seed=1))
        y = x.clone()
        F(m).leaky_relu_(y, 0.1)
        z = x.clone()
        F(m).elu(z, inplace=True)
        return y, z, y._version

    same(prog)


# ------------------------------------------------------------------ dropout

def test_dropout_reproducible_with_manual_seed():
    x = ac.ones(1000)
    ac.manual_seed(123)
    a = AF.dropout(x, 0.3)
    ac.manual_seed(123)
    b = AF.dropout(x, 0.3)
    c = AF.dropout(x, 0.3)
    assert np.array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(b.numpy(), c.numpy())


def test_dropout_mask_scale_and_gradient():
    ac.manual_seed(7)
    x = ac.tensor(arr(200, 50, seed=5), requires_grad=True)
    y = AF.dropout(x, 0.25)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    kept = y.detach().numpy() != 0
    frac = 1 - kept.mean()
    assert 0.2 < frac < 0.3
    assert_same(x.detach().numpy()[kept] / 0.75, y.detach().numpy()[kept], rtol=1e-12, atol=0)
    g = arr(200, 50, seed=6)
    y.backward(ac.tensor(g))
    assert_same(np.where(kept, g / 0.75, 0), x.grad.numpy(), rtol=1e-12, atol=0)


def test_dropout_edge_cases():
    def prog(m):
        x = m.tensor(arr(3, 4), requires_grad=True)
        y0 = F(m).dropout(x, 0.0)
        ye = F(m).dropout(x, 0.5, training=False)
        y1 = F(m).dropout(x, 1.0)
        y1.sum().backward()
        e = F(m).dropout(m.ones(0, 3), 0.5)
        return (y0 is x, ye is x, y1, type(y1.grad_fn).__name__, x.grad, e,
                m.dropout(x, 0.5, False) is x)

    same(prog)


def test_dropout2d_zeroes_whole_channels():
    ac.manual_seed(3)
    x = ac.ones(8, 16, 5, 5)
    y = AF.dropout2d(x, 0.5).numpy()
    per_channel = y.reshape(8, 16, -1)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2).all(-1))
    assert 0 < (per_channel == 0).all(-1).mean() < 1


# ------------------------------------------------------------------ batch norm statistics

@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5), (2, 3, 4, 4)])
def test_batch_norm_running_stats(shape):
    def prog(m):
        x = m.tensor(arr(*shape, seed=2) * 3 + 1, requires_grad=True)
        rm = m.tensor(arr(3, seed=8))
        rv = m.tensor(arr(3, seed=9, positive=True))
        w = m.tensor(arr(3, seed=10), requires_grad=True)
        b = m.tensor(arr(3, seed=11), requires_grad=True)
        v0 = rm._version
        out = F(m).batch_norm(x, rm, rv, w, b, training=True, momentum=0.2)
        out2 = F(m).batch_norm(x, rm, rv, w, b, training=True)
        (out * out2).sum().backward()
        ev = F(m).batch_norm(x, rm, rv, w, b, training=False)
        return out, out2, rm, rv, rm._version - v0, x.grad, w.grad, b.grad, ev

    same(prog)


# ------------------------------------------------------------------ pooling indices

@pytest.mark.parametrize("kw", [
    dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
    dict(kernel_size=(3, 2), stride=(2, 1), padding=(1, 1), dilation=(1, 2), ceil_mode=True),
    dict(kernel_size=2, stride=3, ceil_mode=True),
])
def test_max_pool2d_indices(kw):
    def prog(m):
        x = m.tensor(arr(2, 3, 7, 6, seed=12), requires_grad=True)
        out, idx = F(m).max_pool2d(x, return_indices=True, **kw)
        out.backward(m.tensor(arr(*out.shape, seed=13)))
        return out, idx, x.grad

    same(prog)


def test_max_pool2d_overlapping_windows_accumulate():
    def prog(m):
        x = m.tensor([[[[1., 9., 2.], [3., 4., 5.], [6., 7., 8.]]]], requires_grad=True)
        out = F(m).max_pool2d(x, 2, stride=1)
        out.sum().backward()
        return out, x.grad

    same(prog)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_pool2d_nan_and_inf_windows(dtype):
    """The one-pass C kernel follows PyTorch's: a NaN wins (the last NaN of a window), and
    a window of -inf (or one reaching into the padding) points inside the input."""
    def prog(m):
        a = arr(1, 2, 5, 6, seed=14)
        a[0, 0, 0, 1] = a[0, 0, 1, 0] = np.nan
        a[0, 1, :2, :2] = -np.inf
        x = m.tensor(a, dtype=getattr(m, dtype), requires_grad=True)
        out, idx = F(m).max_pool2d(x, 2, stride=2, padding=1, return_indices=True)
        out.backward(m.tensor(arr(*out.shape, seed=15), dtype=getattr(m, dtype)))
        return out, idx, x.grad

    same(prog)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_small_cnn_step_matches_torch(dtype):
    """conv, relu, max-pool twice, linear, cross-entropy at the benchmark's layer sizes
    (the fused C paths: im2col, output layout with bias, gradient transpose with the
    bias gradient, pooling and its backward)."""
    def prog(m):
        t = lambda a: m.tensor(a, dtype=getattr(m, dtype), requires_grad=True)  # noqa: E731
        x = m.tensor(arr(4, 1, 12, 12, seed=16), dtype=getattr(m, dtype), requires_grad=True)
        w1, b1, w2, b2 = t(arr(6, 1, 3, 3, seed=17)), t(arr(6, seed=18)), t(arr(5, 6, 3, 3, seed=19)), \
            t(arr(5, seed=20))
        w3, b3 = t(arr(3, 20, seed=21)), t(arr(3, seed=22))
        h = F(m).max_pool2d(F(m).relu(F(m).conv2d(x, w1, b1, padding=1)), 2)
        h = F(m).relu(F(m).conv2d(h, w2, b2, stride=(1, 2), padding=1, dilation=(2, 1)))  # (4, 5, 4, 3)
        h = F(m).max_pool2d(h, 2, ceil_mode=True)
        loss = F(m).cross_entropy(F(m).linear(h.flatten(1), w3, b3), m.tensor([0, 2, 1, 2]))
        loss.backward()
        return loss, x.grad, w1.grad, b1.grad, w2.grad, b2.grad, w3.grad, b3.grad

    same(prog, rtol=1e-4 if dtype == "float32" else 1e-5)


@pytest.mark.parametrize("alpha,beta", [(1, 1), (0.5, 2.0), (2, 0)])
def test_linear_and_mm_gradients_have_pytorchs_layout(alpha, beta):
    """mm_mat1_backward / mm_mat2_backward: a transposed (column-major) operand, as
    F.linear's weight.t(), gets a gradient whose transpose is row-major, so the weight's
    .grad has the weight's strides; values and second derivatives as PyTorch's."""
    def prog(m):
        x = m.tensor(arr(5, 4, seed=23), requires_grad=True)
        w = m.tensor(arr(3, 4, seed=24), requires_grad=True)
        b = m.tensor(arr(3, seed=25), requires_grad=True)
        a = m.tensor(arr(4, 5, seed=26), requires_grad=True)
        y = F(m).linear(x, w, b)
        z = m.addmm(b, a.t(), w.t(), beta=beta, alpha=alpha) + m.mm(a.t(), w.t())
        gx, gw, ga = m.autograd.grad((y * y).sum() + (z * z).sum(), (x, w, a), create_graph=True)
        hw, = m.autograd.grad((gx * gx).sum() + (gw * ga.sum()).sum(), (w,), retain_graph=True)
        ((y * y).sum() + z.sum()).backward()
        return y, z, gx, gw, ga, hw, w.grad, a.grad, b.grad, w.grad.stride(), a.grad.stride()

    same(prog)


# ------------------------------------------------------------------ convolution at size

CONVS = [
    dict(x=(4, 6, 11, 9), w=(8, 3, 3, 2), stride=(2, 1), padding=(1, 2), dilation=(2, 1), groups=2),
    dict(x=(2, 4, 8, 8), w=(4, 1, 3, 3), padding="same", groups=4),
    dict(x=(3, 3, 10, 7), w=(5, 3, 4, 4), stride=3, padding="valid"),
    dict(x=(2, 4, 17), w=(6, 2, 5), stride=2, padding=3, dilation=2, groups=2),
]


@pytest.mark.parametrize("cfg", CONVS, ids=[str(i) for i in range(len(CONVS))])
def test_convolution_matches_torch(cfg):
    cfg = dict(cfg)
    xs, ws = cfg.pop("x"), cfg.pop("w")
    fn = "conv1d" if len(xs) == 3 else "conv2d"

    def prog(m):
        x = m.tensor(arr(*xs, seed=20), requires_grad=True)
        w = m.tensor(arr(*ws, seed=21), requires_grad=True)
        b = m.tensor(arr(ws[0], seed=22), requires_grad=True)
        out = getattr(F(m), fn)(x, w, b, **cfg)
        g = m.tensor(arr(*out.shape, seed=23))
        gx, gw, gb = m.autograd.grad(out, (x, w, b), g, create_graph=True)
        s = (gx * m.tensor(arr(*xs, seed=24))).sum() + (gw * m.tensor(arr(*ws, seed=25))).sum()
        hx, hw = m.autograd.grad(s, (x, w))
        return out, gx, gw, gb, hx, hw

    same(prog, quiet=True)


# first-order backward (no create_graph) takes the plain GEMMs of ConvolutionBackward0:
# with K = C/groups*KH*KW >= 32 the weight gradient is the transposed product (Note [The
# weight gradient's GEMM]), below it (and with groups) the direct one
PLAIN_CONVS = [
    dict(x=(32, 16, 14, 14), w=(32, 16, 3, 3), padding=1),                 # K = 144
    dict(x=(4, 1, 28, 28), w=(16, 1, 3, 3), padding=1),                    # K = 9
    dict(x=(3, 40, 5, 6), w=(6, 40, 1, 1)),                                # K = 40, 1x1
    dict(x=(2, 12, 17), w=(4, 12, 3), stride=2, padding=2, dilation=2),    # conv1d, K = 36
    dict(x=(2, 16, 7, 7), w=(8, 8, 3, 3), padding=1, groups=2),            # groups, K = 72
    dict(x=(2, 8, 9, 9), w=(4, 8, 2, 2), stride=2),                        # no bias below
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("cfg", PLAIN_CONVS, ids=[str(i) for i in range(len(PLAIN_CONVS))])
def test_convolution_plain_backward_matches_torch(cfg, dtype):
    cfg = dict(cfg)
    xs, ws = cfg.pop("x"), cfg.pop("w")
    fn = "conv1d" if len(xs) == 3 else "conv2d"
    bias = ws[2] != 2

    def prog(m):
        dt = getattr(m, dtype)
        x = m.tensor(arr(*xs, seed=40), dtype=dt, requires_grad=True)
        w = m.tensor(arr(*ws, seed=41), dtype=dt, requires_grad=True)
        b = m.tensor(arr(ws[0], seed=42), dtype=dt, requires_grad=True) if bias else None
        out = getattr(F(m), fn)(x, w, b, **cfg)
        out.backward(m.tensor(arr(*out.shape, seed=43), dtype=dt))
        return out, x.grad, w.grad, b.grad if bias else None, w.grad.stride()

    # float32: the weight gradient sums 6272 products (entries up to ~300) in another order
    # than oneDNN's, whose own float32 result is 4.5e-4 off the float64 one (ours 1.5e-4);
    # a wrong gradient is off by O(1)
    same(prog, quiet=True, **(dict(rtol=1e-4, atol=1e-3) if dtype == "float32" else {}))


def test_conv_gradgradcheck():
    x = ac.tensor(arr(1, 4, 5, 4, seed=30), requires_grad=True)
    w = ac.tensor(arr(4, 2, 2, 3, seed=31), requires_grad=True)
    b = ac.tensor(arr(4, seed=32), requires_grad=True)

    def f(x, w, b):
        return AF.conv2d(x, w, b, stride=(1, 2), padding=1, dilation=(2, 1), groups=2)

    assert ac.autograd.gradcheck(f, (x, w, b))
    assert ac.autograd.gradgradcheck(f, (x, w, b))


def test_pool_gradgradcheck():
    x = ac.tensor(arr(1, 2, 5, 5, seed=33), requires_grad=True)
    assert ac.autograd.gradgradcheck(lambda t: AF.avg_pool2d(t, 3, 2, 1, ceil_mode=True) ** 2, (x,))
    assert ac.autograd.gradgradcheck(lambda t: AF.max_pool2d(t, 2, 1) ** 2, (x,))


# ------------------------------------------------------------------ losses at size

def test_cross_entropy_variants_match_torch():
    def prog(m):
        x = m.tensor(arr(6, 5, 3, seed=40), requires_grad=True)
        t = m.tensor(np.random.default_rng(41).integers(0, 5, (6, 3)))
        w = m.tensor(arr(5, seed=42, positive=True))
        outs = []
        for red in ("mean", "sum", "none"):
            for ls in (0.0, 0.15):
                outs.append(F(m).cross_entropy(x, t, w, ignore_index=2, reduction=red,
                                               label_smoothing=ls))
        tp = m.softmax(m.tensor(arr(6, 5, 3, seed=43)), 1)
        outs.append(F(m).cross_entropy(x, tp, w, label_smoothing=0.1))
        total = sum(o.sum() for o in outs)
        total.backward()
        return outs, x.grad

    same(prog)


def test_nll_loss_all_ignored_and_empty():
    def prog(m):
        x = m.tensor(arr(3, 4), requires_grad=True)
        a = F(m).nll_loss(x, m.tensor([1, 1, 1]), ignore_index=1)
        a.backward()
        e = F(m).cross_entropy(m.zeros(0, 4), m.zeros(0, dtype=m.long), reduction="sum")
        return a, x.grad, e, F(m).mse_loss(m.zeros(0), m.zeros(0))

    same(prog)


def test_bce_log_clamp():
    def prog(m):
        x = m.tensor([0.0, 1.0, 0.5, 1e-50], dtype=m.float64, requires_grad=True)
        t = m.tensor([1.0, 0.0, 0.5, 1.0], dtype=m.float64)
        loss = F(m).binary_cross_entropy(x, t, reduction="none")
        return loss

    same(prog)


# ------------------------------------------------------------------ a small CNN, side by side

def test_small_cnn_training_matches_torch():
    """conv -> relu -> max_pool -> conv -> batch_norm -> gelu -> avg_pool -> linear ->
    cross_entropy, 5 SGD steps in float64: the same losses and parameters as PyTorch."""
    rng = np.random.default_rng(50)
    params0 = {
        "w1": rng.standard_normal((4, 3, 3, 3)) * 0.3, "b1": rng.standard_normal(4) * 0.1,
        "w2": rng.standard_normal((6, 4, 3, 3)) * 0.3, "b2": rng.standard_normal(6) * 0.1,
        "g": np.ones(6), "beta": np.zeros(6),
        "wl": rng.standard_normal((5, 6 * 3 * 3)) * 0.3, "bl": np.zeros(5),
    }
    data = rng.standard_normal((8, 3, 10, 10))
    labels = rng.integers(0, 5, 8)

    def train(m):
        Fm = F(m)
        p = {k: m.tensor(v, requires_grad=True) for k, v in params0.items()}
        rm, rv = m.zeros(6, dtype=m.float64), m.ones(6, dtype=m.float64)
        x, y = m.tensor(data), m.tensor(labels)
        losses = []
        for _ in range(5):
            h = Fm.max_pool2d(Fm.relu(Fm.conv2d(x, p["w1"], p["b1"], padding=1)), 2)
            h = Fm.conv2d(h, p["w2"], p["b2"], padding="same")
            h = Fm.gelu(Fm.batch_norm(h, rm, rv, p["g"], p["beta"], training=True))
            h = Fm.avg_pool2d(h, 2, ceil_mode=True).flatten(1)
            h = Fm.dropout(h, 0.0)
            loss = Fm.cross_entropy(Fm.linear(h, p["wl"], p["bl"]), y, label_smoothing=0.05)
            for t in p.values():
                t.grad = None
            loss.backward()
            with m.no_grad():
                for t in p.values():
                    t -= 0.1 * t.grad
            losses.append(loss.item())
        return losses, {k: v.detach() for k, v in p.items()}, rm, rv

    same(train)


# ------------------------------------------------------------------ norms at their edges

def test_cosine_similarity_small_norms():
    """Norms below eps are clamped as PyTorch does it (in place, unseen by autograd)."""
    def prog(m):
        a = m.tensor([[1e-9, 0., 0.], [1., 2., 3.]], dtype=m.float64, requires_grad=True)
        b = m.tensor([[1., 1., 1.], [0., 0., 0.]], dtype=m.float64, requires_grad=True)
        c = F(m).cosine_similarity(a, b)
        c.sum().backward()
        return c, a.grad, b.grad

    same(prog)


def test_normalize_zero_rows_and_inf_norm():
    def prog(m):
        x = m.tensor([[1., -3., 2.], [0.5, 0.2, -0.1]], requires_grad=True)
        y = F(m).normalize(x, p=float("inf"), dim=1)
        y.backward(m.ones(2, 3))
        z = m.tensor([[0., 0.], [3., 4.]], requires_grad=True)
        n = F(m).normalize(z)
        n.backward(m.ones(2, 2))
        return y, x.grad, n, z.grad

    same(prog)


def test_embedding_max_norm_renormalises_weight_in_place():
    def prog(m):
        w = m.tensor(arr(5, 3, seed=60) * 3, requires_grad=True)
        out = F(m).embedding(m.tensor([[0, 2], [4, 2]]), w, max_norm=1.5, norm_type=1.0)
        out.sum().backward()
        return out, w.detach(), w.grad

    same(prog)


# ------------------------------------------- DataParallel, Parameter
def test_data_parallel_without_accelerators():
    def prog(mod):
        mod.manual_seed(0)
        inner = mod.nn.Linear(3, 2)
        net = mod.nn.DataParallel(inner)
        x = mod.randn(4, 3)
        out = net(x)
        out.sum().backward()
        return (repr(net), net.device_ids, list(net.state_dict()), out, inner.weight.grad,
                net.module is inner, mod.nn.parallel.DataParallel is mod.nn.DataParallel)
    same(prog)
    same_error(lambda mod: mod.nn.parallel.data_parallel(mod.nn.Linear(2, 1), mod.ones(2, 2)))


def test_parameter_of_non_tensor():
    same_error(lambda mod: mod.nn.Parameter([1.0, 2.0]))
