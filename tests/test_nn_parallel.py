"""The C loops on the thread pool (csrc/agc_parallel.h, issue 14): im2col/col2im of the
convolution, its output layout and bias gradient, max pooling and its gradient, relu and
its gradient, softmax/log_softmax and their gradients. Each case runs under PyTorch
(values close) and under autograd_core with one thread and with several; the threaded
result must be bitwise the one-thread result (Note [Bitwise-identical parallel loops]:
each output element is computed by one thread in the one-thread order, so exact equality
is the property tested, not a rounding accident). Sizes below and above the threshold at
which a loop is split, odd batch sizes, and non-contiguous inputs."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from _diff import assert_same, torch
from _subprocess import CWD, child_env

import autograd_core

# below the split threshold (a few thousand elements), just above it, and well above
BATCHES = [1, 3, 33]
THREADS = [1, 2, 3, 5]


@pytest.fixture
def threads():
    """Run a body under several thread counts, restoring the count afterwards."""
    saved = autograd_core.get_num_threads()

    def under(n, fn):
        autograd_core.set_num_threads(n)
        try:
            return fn()
        finally:
            autograd_core.set_num_threads(saved)
    yield under
    autograd_core.set_num_threads(saved)


def arrays(results):
    return [r.detach().numpy().copy() if hasattr(r, "detach") else np.asarray(r) for r in results]


def check(prog, threads, rtol=1e-5, atol=1e-5):
    """prog(module) -> list of tensors: close to torch's, bitwise equal across threads."""
    want = arrays(prog(torch))
    one = threads(1, lambda: arrays(prog(autograd_core)))
    for w, g in zip(want, one):
        # a float32 sum over the batch (a weight gradient) is exact to its magnitude
        scale = float(np.nanmax(np.abs(w), initial=1.0)) if w.dtype.kind == "f" else 1.0
        assert_same(w, g, rtol=rtol, atol=atol * scale)
    for n in THREADS[1:]:
        got = threads(n, lambda: arrays(prog(autograd_core)))
        for a, b in zip(one, got):
            assert a.dtype == b.dtype and a.shape == b.shape
            assert np.array_equal(a, b, equal_nan=True), f"{n} threads differ from one"


def data(shape, seed, dtype="float32"):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("n", BATCHES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("conf", [
    dict(cin=1, cout=16, hw=28, padding=1),                        # the cnn benchmark's first
    dict(cin=16, cout=32, hw=14, padding=1),                       # and second layer
    dict(cin=3, cout=5, hw=(17, 23), padding=2, stride=2, dilation=2),
    dict(cin=4, cout=6, hw=9, padding=0, stride=(1, 2), groups=2),
])
def test_conv2d_forward_backward(n, dtype, conf, threads):
    conf = dict(conf)
    cin, cout, hw = conf.pop("cin"), conf.pop("cout"), conf.pop("hw")
    hw = hw if isinstance(hw, tuple) else (hw, hw)
    g = conf.get("groups", 1)
    xa, wa, ba = data((n, cin) + hw, 1, dtype), data((cout, cin // g, 3, 3), 2, dtype), data(cout, 3, dtype)

    def prog(m):
        F = m.nn.functional
        x, w, b = (m.tensor(a, requires_grad=True) for a in (xa, wa, ba))
        y = F.conv2d(x, w, b, **conf)
        y.backward(m.tensor(data(tuple(y.shape), 4, dtype)))
        return [y, x.grad, w.grad, b.grad]
    check(prog, threads, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n", BATCHES)
@pytest.mark.parametrize("view", ["contiguous", "transposed", "sliced"])
def test_conv_relu_pool_non_contiguous_input(n, view, threads):
    """The benchmark's layer on inputs that are views (copied to contiguous first)."""
    base = data((n, 4, 30, 30), 5)

    def prog(m):
        F = m.nn.functional
        x0 = m.tensor(base, requires_grad=True)
        x = {"contiguous": x0, "transposed": x0.transpose(2, 3),
             "sliced": x0[:, ::2, 1:29, 1:29]}[view]
        w = m.tensor(data((8, x.shape[1], 3, 3), 6), requires_grad=True)
        h = F.max_pool2d(F.relu(F.conv2d(x, w, padding=1)), 2)
        h.backward(m.tensor(data(tuple(h.shape), 7)))
        return [h, x0.grad, w.grad]
    check(prog, threads, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n", BATCHES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("conf", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                                  dict(kernel_size=2, stride=1, dilation=2, ceil_mode=True)])
def test_max_pool2d(n, dtype, conf, threads):
    xa = data((n, 16, 29, 28), 8, dtype)
    xa[0, 0, :4, :4] = 0.0          # ties: the first maximum wins, in every thread
    xa[-1, -1, 5, 5] = np.nan       # a NaN wins over every number

    def prog(m):
        x = m.tensor(xa, requires_grad=True)
        y, idx = m.nn.functional.max_pool2d(x, return_indices=True, **conf)
        y.backward(m.tensor(data(tuple(y.shape), 9, dtype)))
        return [y, idx, x.grad]
    check(prog, threads)


@pytest.mark.parametrize("size", [100, 16384, 16385, 70_001, 401_408])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_relu_and_threshold(size, dtype, threads):
    xa = data(size, 10, dtype)
    xa[::97] = 0.0

    def prog(m):
        x = m.tensor(xa, requires_grad=True)
        y = m.relu(x)
        z = m.nn.functional.threshold(x, 0.3, -2.0)
        (y * 2 + z).sum().backward()
        e = m.exp(x.detach())        # an elementwise kernel of the same driver
        return [y, z, x.grad, e]
    check(prog, threads)


@pytest.mark.parametrize("rows", [3, 257, 4099])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_rows(rows, log, threads):
    xa = data((rows, 37), 11)

    def prog(m):
        F = m.nn.functional
        x = m.tensor(xa, requires_grad=True)
        y = (F.log_softmax if log else F.softmax)(x, 1)
        y.backward(m.tensor(data((rows, 37), 12)))
        return [y, x.grad]
    check(prog, threads)


def test_cnn_step_bitwise_across_threads(threads):
    """The benchmark's whole training step (batch 32), an odd batch of 31 too."""
    for n in (32, 31):
        xa, labels = data((n, 1, 28, 28), 13), np.random.default_rng(14).integers(0, 10, n)
        shapes = [(16, 1, 3, 3), (16,), (32, 16, 3, 3), (32,), (10, 32 * 7 * 7), (10,)]
        params0 = [data(s, 15 + i) * 0.2 for i, s in enumerate(shapes)]

        def prog(m):
            F = m.nn.functional
            x, t = m.tensor(xa), m.tensor(labels)
            W1, b1, W2, b2, W3, b3 = ps = [m.tensor(p, requires_grad=True) for p in params0]
            h = F.max_pool2d(F.relu(F.conv2d(x, W1, b1, padding=1)), 2)
            h = F.max_pool2d(F.relu(F.conv2d(h, W2, b2, padding=1)), 2)
            loss = F.cross_entropy(F.linear(h.flatten(1), W3, b3), t)
            loss.backward()
            return [loss] + [p.grad for p in ps]
        check(prog, threads, rtol=1e-4, atol=1e-5)


def test_set_num_threads_reaches_the_pool():
    from autograd_core._core import tensor as core
    saved = autograd_core.get_num_threads()
    try:
        autograd_core.set_num_threads(3)
        assert autograd_core.get_num_threads() == 3 and core._get_num_threads() == 3
        autograd_core.set_num_threads(1)
        assert core._get_num_threads() == 1
    finally:
        autograd_core.set_num_threads(saved)
    assert core._get_num_threads() == saved


@pytest.mark.parametrize("env", ["1", "3", "", "x"])
def test_default_threads_follow_omp_num_threads(env):
    """As PyTorch: OMP_NUM_THREADS sets the default (capped at the physical cores);
    unset or invalid, the physical cores."""
    code = "import autograd_core as t, torch; print(t.get_num_threads(), torch.get_num_threads())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=CWD,
                         env=child_env(OMP_NUM_THREADS=env), timeout=120)
    ours, theirs = out.stdout.split()
    if env == "1":
        assert ours == theirs == env
    else:
        assert ours == theirs


def test_concurrent_callers_and_fork(threads):
    """Python threads running big loops at once (one takes the pool, the others run
    alone), then a forked child that starts a pool of its own."""
    xa = data((16, 8, 40, 40), 16)
    w = autograd_core.tensor(data((8, 8, 3, 3), 17))
    F = autograd_core.nn.functional

    def step():
        return F.max_pool2d(F.relu(F.conv2d(autograd_core.tensor(xa), w, padding=1)), 2).numpy()

    def body():
        want = step()
        got, errors = [None] * 4, []

        def run(i):
            try:
                for _ in range(5):
                    got[i] = step()
            except BaseException as e:      # pragma: no cover - reported below
                errors.append(e)
        ts = [threading.Thread(target=run, args=(i,)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert not errors
        for g in got:
            assert np.array_equal(g, want)
        if not hasattr(os, "fork"):
            return
        r, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:                                    # the child: exit code only
            ok = 0
            try:
                ok = int(np.array_equal(step(), want))
            finally:
                os.write(wfd, bytes([ok]))
                os._exit(0)
        os.close(wfd)
        res = os.read(r, 1)
        os.close(r)
        os.waitpid(pid, 0)
        assert res == b"\x01"
    threads(2, body)
