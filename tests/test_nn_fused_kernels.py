"""The one-pass C loops of a training step (issue 14): relu and threshold forward and
backward, softmax/log_softmax forward and backward over the last dim, nll_loss and its
gradient (cross_entropy's pieces) and the bias gradient's reduction. Every case is
compared with PyTorch: NaN, +-inf, -0.0, empty tensors, non-contiguous inputs (which
take the numpy paths), float32 and float64, and sizes past the GIL-release threshold."""
import numpy as np
import pytest

from _diff import same

DTYPES = ["float32", "float64"]
SHAPES = [(0,), (7,), (3, 40), (50_000,), (40, 513)]   # empty, small, past the GIL threshold


def special_values(shape, seed):
    """Random values with NaN, +-inf, -0.0 and 0.0 at fixed places."""
    a = np.random.default_rng(seed).standard_normal(shape)
    flat = a.reshape(-1)
    for i, v in enumerate([np.nan, -0.0, 0.0, np.inf, -np.inf, -0.0, np.nan]):
        if i * 5 < flat.size:
            flat[i * 5] = v
    return a


def leaf(m, a, dtype):
    return m.tensor(a, dtype=getattr(m, dtype), requires_grad=True)


def signs(t):
    """Which entries carry a sign bit (-0.0 prints as -0., as PyTorch prints it)."""
    return t.detach().signbit().tolist()


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("how", ["relu", "F.relu", "nn.ReLU", "method"])
def test_relu_forward_backward(shape, dtype, how):
    def prog(m):
        x = leaf(m, special_values(shape, 1), dtype)
        fn = {"relu": m.relu, "F.relu": m.nn.functional.relu, "nn.ReLU": m.nn.ReLU(),
              "method": lambda t: t.relu()}[how]
        y = fn(x)
        g = m.tensor(np.random.default_rng(2).standard_normal(shape), dtype=getattr(m, dtype))
        y.backward(g)
        return y, signs(y), x.grad, y.grad_fn.name()
    same(prog)


@pytest.mark.parametrize("dtype", DTYPES)
def test_relu_prints_negative_zero_as_pytorch(dtype):
    def prog(m):
        return str(m.relu(m.tensor([-0.0, 0.0, -1.0, float("nan"), 2.0], dtype=getattr(m, dtype))))
    same(prog)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", ["transposed", "strided", "sliced"])
def test_relu_non_contiguous(dtype, view):
    def prog(m):
        x = leaf(m, special_values((60, 300), 3), dtype)
        v = {"transposed": lambda t: t.t(), "strided": lambda t: t[:, ::3],
             "sliced": lambda t: t[5:50, 7:]}[view](x * 1)
        y = m.relu(v)
        y.backward(m.ones_like(y) * 1.5)
        return y, signs(y), x.grad
    same(prog)


@pytest.mark.parametrize("shape", [(7,), (50_000,)])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("how", ["relu_", "F.relu(inplace=True)", "nn.ReLU(inplace=True)"])
def test_relu_in_place(shape, dtype, how):
    def prog(m):
        x = leaf(m, special_values(shape, 4), dtype)
        y = x * 1
        fn = {"relu_": m.relu_, "F.relu(inplace=True)": lambda t: m.nn.functional.relu(t, inplace=True),
              "nn.ReLU(inplace=True)": m.nn.ReLU(inplace=True)}[how]
        z = fn(y)
        (z * 2).sum().backward()
        return y, z is y, signs(y), x.grad, y.grad_fn.name()
    same(prog)


@pytest.mark.parametrize("dtype", DTYPES)
def test_relu_integer_and_bool(dtype):
    def prog(m):
        return (m.relu(m.tensor([-3, 0, 4])), m.relu(m.tensor([-3, 0, 4], dtype=m.uint8)),
                m.relu(m.tensor([-1.5, 2.0], dtype=getattr(m, dtype)).to(m.float16)))
    same(prog)
    same(lambda m: m.relu(m.tensor([True, False])), must_raise=True)


@pytest.mark.parametrize("shape", [(0,), (7,), (50_000,)])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("threshold,value", [(0.0, 0.0), (0.5, -7.0), (-0.25, 3), (1, 2),
                                             (0.1, float("nan")), (float("inf"), 1.0)])
def test_threshold_forward_backward(shape, dtype, threshold, value):
    def prog(m):
        x = leaf(m, special_values(shape, 5), dtype)
        y = m.nn.functional.threshold(x, threshold, value)
        y.backward(m.ones_like(y) * 0.5)
        return y, signs(y), x.grad, y.grad_fn.name()
    same(prog)


@pytest.mark.parametrize("dtype", DTYPES)
def test_threshold_in_place_and_non_contiguous(dtype):
    def prog(m):
        x = leaf(m, special_values((40, 50), 6), dtype)
        z = m.threshold(x.t()[::2], 0.1, -1.0)
        y = x.t() * 1
        m.nn.functional.threshold(y, -0.2, 5.0, inplace=True)
        (y * 2 + z.sum()).sum().backward()
        return y, z, x.grad, y.grad_fn.name()
    same(prog)


def test_threshold_integer():
    same(lambda m: (m.threshold(m.tensor([1, 2, 3]), 2, 9), m.nn.functional.threshold(
        m.tensor([[-1, 5]], dtype=m.int32), 0, -4)))


@pytest.mark.parametrize("shape", [(5,), (50_000,)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_relu_backward_nan_gradient_and_nan_input(shape, dtype):
    """threshold_backward: 0 where the saved output <= 0 even for a NaN gradient; a NaN
    output passes the gradient on."""
    def prog(m):
        x = leaf(m, special_values(shape, 7), dtype)
        y = m.relu(x)
        g = special_values(shape, 8)
        g.reshape(-1)[1::4] = np.nan
        y.backward(m.tensor(g, dtype=getattr(m, dtype)))
        return x.grad
    same(prog)


@pytest.mark.parametrize("dtype", DTYPES)
def test_relu_double_backward(dtype):
    def prog(m):
        x = leaf(m, special_values((4, 6), 9), dtype)
        y = m.relu(x)
        gx, = m.autograd.grad((y * y).sum(), x, create_graph=True)
        gg, = m.autograd.grad(gx.sum(), x, allow_unused=True)
        return gx, gg
    same(prog)


# ---------------------------------------------------------------- softmax, log_softmax

SOFTMAX_SHAPES = [(), (0,), (4, 0), (0, 5), (3, 10), (2, 3, 7), (64, 1000)]


@pytest.mark.parametrize("shape", SOFTMAX_SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("log", [True, False])
def test_softmax_last_dim(shape, dtype, log):
    def prog(m):
        x = leaf(m, np.random.default_rng(10).standard_normal(shape) * 3, dtype)
        fn = m.log_softmax if log else m.softmax
        y = fn(x, -1)
        g = m.tensor(np.random.default_rng(11).standard_normal(shape), dtype=getattr(m, dtype))
        y.backward(g)
        return y, x.grad, y.grad_fn.name()
    # the gradient subtracts a row sum of 1000 float32 terms: summed in the order of the
    # CPU's vector width (AVX2 and AVX512 differ), it differs by more than 1e-5 in a place
    # where it cancels
    same(prog, **({"rtol": 1e-4, "atol": 1e-5} if dtype == "float32" else {}))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("log", [True, False])
def test_softmax_special_rows(dtype, log):
    """A row with a NaN, with +inf, all -inf, huge values, one element."""
    def prog(m):
        a = np.random.default_rng(12).standard_normal((6, 5))
        a[0, 2] = np.nan
        a[1, 1] = np.inf
        a[2, :] = -np.inf
        a[3, :] = [1e30, 1e30 - 1, 3, -1e30, 0]
        a[4, 0] = -np.inf
        x = leaf(m, a, dtype)
        fn = m.log_softmax if log else m.softmax
        y = fn(x, 1)
        y.backward(m.ones_like(y))
        z = fn(leaf(m, a[:, :1], dtype), 1)
        return y, x.grad, z
    same(prog)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("log", [True, False])
@pytest.mark.parametrize("dim", [0, 1, -2])
def test_softmax_other_dims_and_layouts(dtype, log, dim):
    def prog(m):
        x = leaf(m, np.random.default_rng(13).standard_normal((5, 6, 4)), dtype)
        fn = m.log_softmax if log else m.softmax
        y1 = fn(x, dim)
        y2 = fn(x.transpose(0, 2), -1)          # last dim, non-contiguous input
        (y1.sum() * 0 + (y1 * m.arange(4.0, dtype=getattr(m, dtype))).sum()
         + (y2 ** 2).sum()).backward()
        return y1, y2, x.grad
    same(prog)


@pytest.mark.parametrize("log", [True, False])
def test_softmax_dtype_argument_and_double_backward(log):
    def prog(m):
        x = leaf(m, np.random.default_rng(14).standard_normal((3, 5)), "float32")
        fn = m.log_softmax if log else m.softmax
        y = fn(x, 1, dtype=m.float64)
        g = m.tensor(np.random.default_rng(15).standard_normal((3, 5)), requires_grad=True)
        gx, = m.autograd.grad(y, x, g, create_graph=True)
        gx2 = m.autograd.grad((gx ** 2).sum(), (x, g))
        return y, gx, gx2
    same(prog, rtol=1e-4)


# ---------------------------------------------------------------- nll_loss, cross_entropy

def _logits(m, shape, dtype, seed=16):
    return leaf(m, np.random.default_rng(seed).standard_normal(shape) * 2, dtype)


def _targets(shape, classes, seed=17, ignore=None):
    t = np.random.default_rng(seed).integers(0, classes, shape)
    if ignore is not None:
        t.reshape(-1)[::3] = ignore
    return t


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 2])
@pytest.mark.parametrize("shape", [(8, 5), (5,), (3, 5, 4, 2), (2, 5, 3), (2, 5, 2, 1, 3)])
def test_cross_entropy_and_nll_loss(dtype, reduction, weighted, ignore_index, shape):
    tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    classes = shape[0] if len(shape) == 1 else shape[1]

    def prog(m):
        x = _logits(m, shape, dtype)
        t = m.tensor(_targets(tshape, classes, ignore=ignore_index if ignore_index >= 0 else None))
        w = m.tensor(np.linspace(0.5, 2.0, classes), dtype=getattr(m, dtype)) if weighted else None
        F = m.nn.functional
        ce = F.cross_entropy(x, t, weight=w, reduction=reduction, ignore_index=ignore_index)
        nll = F.nll_loss(F.log_softmax(x * 1.5, 1 if len(shape) > 1 else 0), t, weight=w,
                         reduction=reduction, ignore_index=ignore_index)
        (ce.sum() + 2 * nll.sum()).backward()
        return ce, nll, x.grad, ce.grad_fn.name(), nll.grad_fn.name()
    same(prog, rtol=1e-4 if dtype == "float32" else 1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("label_smoothing", [0.1, 1.0])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_label_smoothing(dtype, reduction, label_smoothing, weighted):
    def prog(m):
        x = _logits(m, (6, 4), dtype)
        t = m.tensor(_targets((6,), 4, ignore=-100))
        w = m.tensor([0.3, 1.0, 2.0, 0.7], dtype=getattr(m, dtype)) if weighted else None
        ce = m.nn.functional.cross_entropy(x, t, weight=w, reduction=reduction,
                                           label_smoothing=label_smoothing)
        ce.sum().backward()
        return ce, x.grad
    same(prog, rtol=1e-4 if dtype == "float32" else 1e-6)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_all_ignored_empty_and_uint8(reduction):
    def prog(m):
        F = m.nn.functional
        x = _logits(m, (4, 3), "float32")
        ignored = F.nll_loss(x, m.tensor([-100] * 4), reduction=reduction)
        empty = F.cross_entropy(_logits(m, (0, 3), "float32"), m.tensor([], dtype=m.int64),
                                reduction=reduction)
        byte = F.nll_loss(x, m.tensor([0, 2, 1, 2], dtype=m.uint8), reduction=reduction)
        zero_weight = F.nll_loss(x, m.tensor([0, 0, 1, 1]), weight=m.tensor([0.0, 0.0, 1.0]),
                                 reduction=reduction)
        (ignored.sum() + byte.sum() + zero_weight.sum()).backward()
        return ignored, empty, byte, zero_weight, x.grad
    same(prog)


@pytest.mark.parametrize("target", [[0, 3, 1], [0, -1, 1], [-100, 2, 7]])
def test_nll_loss_target_out_of_bounds(target):
    def prog(m):
        return m.nn.functional.cross_entropy(m.zeros(3, 3), m.tensor(target))
    same(prog, must_raise=True)

    def prog4(m):
        t = m.tensor(target).reshape(1, 3, 1)
        return m.nn.functional.nll_loss(m.zeros(1, 3, 3, 1), t)
    same(prog4, must_raise=True)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_double_backward(reduction):
    def prog(m):
        x = _logits(m, (5, 4), "float64")
        t = m.tensor([1, 0, 3, -100, 2])
        w = m.tensor([1.0, 2.0, 0.5, 1.5], dtype=m.float64)
        loss = m.nn.functional.cross_entropy(x, t, weight=w, reduction=reduction)
        gx, = m.autograd.grad(loss.sum(), x, create_graph=True)
        gg, = m.autograd.grad((gx * gx).sum(), x)
        return loss, gx, gg
    same(prog)


def test_nll_loss_non_contiguous_input_and_target():
    def prog(m):
        x = _logits(m, (5, 8), "float32")
        t = m.tensor([[1, 0], [3, 3], [0, 2], [1, 1], [2, 0]])[:, 0]
        loss = m.nn.functional.cross_entropy(x.t()[:4].t(), t)
        loss.backward()
        return loss, x.grad
    same(prog)


# ---------------------------------------------------------------- bias gradients

@pytest.mark.parametrize("dtype", DTYPES)
def test_bias_gradient_reduction(dtype):
    def prog(m):
        X = m.tensor(np.random.default_rng(18).standard_normal((64, 30)), dtype=getattr(m, dtype))
        W = leaf(m, np.random.default_rng(19).standard_normal((30, 20)), dtype)
        b = leaf(m, np.random.default_rng(20).standard_normal(20), dtype)
        c = leaf(m, np.random.default_rng(21).standard_normal((1, 20)), dtype)
        d = leaf(m, np.random.default_rng(22).standard_normal((3, 1, 20)), dtype)
        y = m.relu(X @ W + b) + c + d
        y.backward(m.ones_like(y))
        return W.grad, b.grad, c.grad, d.grad
    same(prog)


def test_bias_gradient_graph_under_create_graph():
    def prog(m):
        from _diff import graph_desc
        X = m.ones(4, 3, dtype=m.float64)
        b = leaf(m, np.arange(3.0), "float64")
        v = leaf(m, np.arange(12.0).reshape(4, 3), "float64")
        gb, = m.autograd.grad(X * 2 + b, b, v, create_graph=True)
        return gb, graph_desc(gb.grad_fn)
    same(prog)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hw", [(1, 5), (9, 7), (30, 31)])
def test_conv2d_bias_gradient(dtype, hw):
    """conv2d's bias gradient: summed over the batch and each output plane (lanes of 8
    and the rest) while the gradient is laid out for the weight's GEMM."""
    def prog(m):
        x = leaf(m, np.random.default_rng(23).standard_normal((3, 2) + hw), dtype)
        w = leaf(m, np.random.default_rng(24).standard_normal((4, 2, 3, 3)), dtype)
        b = leaf(m, np.random.default_rng(25).standard_normal(4), dtype)
        y = m.nn.functional.conv2d(x, w, b, padding=1)
        y.backward(m.tensor(np.random.default_rng(26).standard_normal(tuple(y.shape)) + 0.5,
                            dtype=getattr(m, dtype)))
        return b.grad, w.grad, x.grad
    # float32 sums of hundreds of terms of ~1: an input gradient near 0 is off by ~1e-6
    same(prog, rtol=1e-4 if dtype == "float32" else 1e-6, atol=1e-4 if dtype == "float32" else 1e-9)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("hw", [(4, 4), (5, 7), (28, 28)])
def test_max_pool2d_2x2_ties_nan_inf(dtype, hw):
    """The 2x2, stride-2 window's branch-free loop: relu's ties (the first maximum wins,
    -0.0 before 0.0 stays), a NaN beating every number and a later NaN an earlier one,
    +-inf, odd sizes (the last row or column left out); values, indices and the
    gradient as PyTorch's."""
    def prog(m):
        a = np.maximum(np.random.default_rng(5).standard_normal((2, 3) + hw), 0)
        a[0, 0, :4, :4] = [[-0.0, 0.0, np.nan, 1.0],
                           [0.0, -0.0, np.nan, 2.0],
                           [-np.inf, -np.inf, 1.0, np.inf],
                           [-np.inf, -np.inf, 3.0, np.inf]]
        a[1, 2, :2, :2] = [[2.0, np.nan], [np.nan, 5.0]]
        x = m.tensor(a, dtype=getattr(m, dtype), requires_grad=True)
        y, idx = m.nn.functional.max_pool2d(x, 2, return_indices=True)
        y.backward(m.tensor(np.random.default_rng(6).standard_normal(tuple(y.shape)),
                            dtype=getattr(m, dtype)))
        yt = m.nn.functional.max_pool2d(x.detach().transpose(2, 3), 2)
        return y, signs(y), idx, x.grad, yt
    same(prog)
