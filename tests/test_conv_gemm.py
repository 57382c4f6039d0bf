"""The convolution's own matrix products (Note [The convolution's own GEMM] in csrc/agc_nn.c):
the float 1-D/2-D convolution's forward, input gradient and weight gradient run as C loops
on the thread pool, image by image (forward, input gradient) or tile by tile of the
weight gradient, each element summed in one fixed order.

Each case is compared with PyTorch (its own conv test tolerances: 1e-4 relative for
float32 products, tighter for float64), and the result under 2, 3 and 5 threads must be
bitwise the one-thread result. The shapes walk the kernels' edges: output channels not a
multiple of the 4-row tile, output widths not a multiple of the 3-vector tile or of one
vector, reductions not a multiple of 3 columns, odd batches (1, 3, 7), an empty batch,
groups, 1-D, strided and dilated windows, non-contiguous inputs and weights, and a
reduction longer than the C routines take (numpy's BLAS there)."""
import time

import numpy as np
import pytest

from _diff import assert_same, torch

import autograd_core

THREADS = [1, 2, 3, 5]


def data(shape, seed, dtype):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def arrays(results):
    return [r.detach().numpy().copy() for r in results]


def run_threads(n, prog):
    saved = autograd_core.get_num_threads()
    autograd_core.set_num_threads(n)
    try:
        # a large BLAS product (of another test) keeps the pool's loops on one thread for
        # 0.1 s (Note [Sharing the cores with BLAS]): wait it out, so that the split runs
        time.sleep(0.11)
        return arrays(prog(autograd_core))
    finally:
        autograd_core.set_num_threads(saved)


def check(prog, dtype):
    want = arrays(prog(torch))
    one = run_threads(1, prog)
    tol = 1e-4 if dtype == "float32" else 1e-10
    for w, g in zip(want, one):
        # a weight gradient sums over the batch: exact to its largest element's magnitude
        scale = float(np.max(np.abs(w), initial=1.0))
        assert_same(w, g, rtol=tol, atol=tol * scale)
    for n in THREADS[1:]:
        for a, b in zip(one, run_threads(n, prog)):
            assert a.dtype == b.dtype and a.shape == b.shape
            assert np.array_equal(a, b), f"{n} threads differ from one"


def conv_prog(xa, wa, ba, dtype, x_view=None, w_view=None, **conf):
    def prog(m):
        F = m.nn.functional
        x0, w0 = m.tensor(xa, requires_grad=True), m.tensor(wa, requires_grad=True)
        b = m.tensor(ba, requires_grad=True) if ba is not None else None
        x = x_view(m, x0) if x_view else x0
        w = w_view(m, w0) if w_view else w0
        conv = F.conv1d if wa.ndim == 3 else F.conv2d
        y = conv(x, w, b, **conf)
        y.backward(m.tensor(data(tuple(y.shape), 99, dtype)))
        return [y, x0.grad, w0.grad] + ([b.grad] if b is not None else [])
    return prog


@pytest.mark.parametrize("n", [1, 3, 7])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("conf", [
    dict(cin=1, cout=16, hw=(28, 28), k=3, padding=1),     # the cnn benchmark's layers
    dict(cin=16, cout=32, hw=(14, 14), k=3, padding=1),
    dict(cin=3, cout=7, hw=(11, 13), k=3),                 # 7 rows: a 4-row tile and 3 single rows
    dict(cin=2, cout=5, hw=(9, 31), k=(2, 3), stride=(2, 1), dilation=(1, 2), padding=(1, 2)),
    dict(cin=6, cout=9, hw=(10, 10), k=3, groups=3, padding=1),
    dict(cin=5, cout=4, hw=(50, 50), k=1),                 # 2500 columns: several column blocks
    dict(cin=3, cout=2, hw=(5, 5), k=5),                   # one output position
])
def test_conv2d_matches_torch_and_threads(n, dtype, conf):
    conf = dict(conf)
    cin, cout, hw, k = conf.pop("cin"), conf.pop("cout"), conf.pop("hw"), conf.pop("k")
    k = k if isinstance(k, tuple) else (k, k)
    g = conf.get("groups", 1)
    xa, wa, ba = data((n, cin) + hw, 1, dtype), data((cout, cin // g) + k, 2, dtype), data(cout, 3, dtype)
    check(conv_prog(xa, wa, ba, dtype, **conf), dtype)


@pytest.mark.parametrize("n", [1, 7])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_conv1d_without_bias(n, dtype):
    xa, wa = data((n, 3, 37), 4, dtype), data((6, 3, 4), 5, dtype)
    check(conv_prog(xa, wa, None, dtype, stride=2, padding=3), dtype)


@pytest.mark.parametrize("view", ["channels_last", "transposed", "sliced", "weight_view"])
def test_non_contiguous_inputs(view):
    dtype = "float32"
    xa = data((3, 4, 20, 20), 6, dtype)
    wa = data((8, 4, 3, 3), 7, dtype)
    x_view = {"channels_last": lambda m, x: x.contiguous(memory_format=m.channels_last),
              "transposed": lambda m, x: x.transpose(2, 3),
              "sliced": lambda m, x: x[:, :, 1:19:2, ::3]}.get(view)
    w_view = (lambda m, w: w.transpose(2, 3)) if view == "weight_view" else None
    check(conv_prog(xa, wa, data(8, 8, dtype), dtype, x_view=x_view, w_view=w_view, padding=1), dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_long_reduction_takes_blas(dtype):
    """600 input channels (a reduction of 600 > the C routines' 512): numpy's BLAS, the
    same values to tolerance."""
    xa, wa, ba = data((2, 600, 5, 5), 9, dtype), data((3, 600, 1, 1), 10, dtype), data(3, 11, dtype)
    want = arrays(conv_prog(xa, wa, ba, dtype)(torch))
    got = run_threads(2, conv_prog(xa, wa, ba, dtype))
    tol = 1e-4 if dtype == "float32" else 1e-10
    for w, g in zip(want, got):
        assert_same(w, g, rtol=tol, atol=tol * float(np.max(np.abs(w), initial=1.0)))


def test_empty_batch():
    """No images: an empty output, zero weight and bias gradients (as PyTorch)."""
    check(conv_prog(data((0, 3, 8, 8), 12, "float32"), data((4, 3, 3, 3), 13, "float32"),
                    data(4, 14, "float32"), "float32", padding=1), "float32")


def test_gradcheck_float64():
    """Finite differences through the C products, input, weight and bias."""
    m = autograd_core
    x = m.tensor(data((3, 2, 6, 7), 15, "float64"), requires_grad=True)
    w = m.tensor(data((5, 2, 3, 2), 16, "float64"), requires_grad=True)
    b = m.tensor(data(5, 17, "float64"), requires_grad=True)
    assert m.autograd.gradcheck(lambda x, w, b: m.nn.functional.conv2d(x, w, b, padding=1, stride=(1, 2)),
                                (x, w, b))


def test_same_result_every_run():
    """The benchmark's second layer, five times under two threads: one result."""
    xa, wa, ba = data((32, 16, 14, 14), 18, "float32"), data((32, 16, 3, 3), 19, "float32"), data(32, 20, "float32")
    prog = conv_prog(xa, wa, ba, "float32", padding=1)
    first = run_threads(2, prog)
    for _ in range(4):
        for a, b in zip(first, run_threads(2, prog)):
            assert np.array_equal(a, b)
