"""Float sums in PyTorch's addition order (Note [Sum order], csrc/agc_sum.h): sum,
nansum, mean, the losses' mean/sum and the engine's sum_to give PyTorch's values bit
for bit, for any shape, strides, dims, keepdim and dtype argument, including the
threaded splits of large sums (emulated from torch.get_num_threads()) and under every
x86 CPU capability torch can be forced to."""
import json
import subprocess
import sys

import numpy as np
import pytest

import autograd_core
from _subprocess import CWD, child_env

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def same_thread_count():
    """Large sums split as torch.get_num_threads() says (conftest sets torch's to 1):
    ours emulates the same count here."""
    old = autograd_core.get_num_threads()
    autograd_core.set_num_threads(torch.get_num_threads())
    yield
    autograd_core.set_num_threads(old)


def _bits(a):
    """An array's values as comparable bits: NaNs (whose payload and sign PyTorch and
    numpy propagate differently) as one pattern, the sign of zero kept."""
    a = np.ascontiguousarray(np.asarray(a)).reshape(-1)
    return a.dtype, np.where(np.isnan(a), np.nan, a).view(np.uint8).tobytes()


def assert_bitwise(want, got):
    want, got = np.asarray(want), np.asarray(got)
    assert want.shape == got.shape and want.dtype == got.dtype
    if _bits(want) != _bits(got):
        diff = np.abs(want.astype(np.float64) - got.astype(np.float64))
        raise AssertionError(f"values differ (max {np.nanmax(diff)}):\n{want}\n{got}")


def _layout(rng, a):
    """a in a random layout: permuted and/or strided (positive strides, as a tensor's)."""
    if a.ndim and rng.random() < 0.5:
        a = a.transpose(rng.permutation(a.ndim))
    if a.ndim and rng.random() < 0.3:
        a = a[tuple(slice(None, None, int(rng.integers(1, 3))) for _ in range(a.ndim))]
    return a


def _random_case(rng, big=False):
    nd = int(rng.integers(0, 5))
    hi = 300 if big else 40
    shape = tuple(int(s) for s in rng.integers(1, hi, nd))
    while np.prod(shape, dtype=np.int64) > 400_000:
        shape = tuple(max(1, s // 2) for s in shape)
    dt = (np.float32, np.float64)[int(rng.integers(2))]
    # a scale per case; some cases on a quarter grid, where exact cancellation is common
    a = np.asarray(rng.standard_normal(shape) * 10.0 ** int(rng.integers(-3, 4)))
    if rng.random() < 0.3:
        a = np.round(a * 4) / 4
    a = _layout(rng, np.asarray(a).astype(dt))
    if a.ndim and rng.random() < 0.2:
        a = a.copy()
        a.reshape(-1)[int(rng.integers(a.size))] = np.nan
    if nd == 0 or rng.random() < 0.25:
        dims = None
    else:
        dims = tuple(int(d) for d in rng.choice(nd, int(rng.integers(1, nd + 1)), replace=False))
    return a, dims, bool(rng.integers(2))


def _run(fname, a, dims, keepdim, dtype=None):
    kw = {} if dims is None else {"dim": dims, "keepdim": keepdim}
    outs = []
    for mod in (torch, autograd_core):
        x = mod.from_numpy(a)
        extra = {} if dtype is None else {"dtype": getattr(mod, dtype)}
        outs.append(getattr(mod, fname)(x, **kw, **extra).numpy())
    return outs


@pytest.mark.parametrize("fname", ["sum", "nansum", "mean"])
@pytest.mark.parametrize("seed", range(4))
def test_random_layouts_bitwise(fname, seed):
    rng = np.random.default_rng(1000 * seed + len(fname))
    for _ in range(60):
        a, dims, keepdim = _random_case(rng, big=seed == 3)
        assert_bitwise(*_run(fname, a, dims, keepdim))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dtype_argument_converts_first(dtype):
    """sum(dtype=) reduces self.to(dtype), laid out in the input's dim order, also for
    integer and float16 inputs and strided views (whose conversion is dense)."""
    rng = np.random.default_rng(5)
    for k in range(60):
        a, dims, keepdim = _random_case(rng)
        if k % 3 == 1:
            a = np.asarray(np.nan_to_num(a * 100)).astype(np.int32)
        elif k % 3 == 2:
            a = np.asarray(np.nan_to_num(a)).astype(np.float16)
        assert_bitwise(*_run("sum", a, dims, keepdim, dtype))


def test_float16_mean_sums_in_float32():
    rng = np.random.default_rng(6)
    for _ in range(40):
        a, dims, keepdim = _random_case(rng)
        assert_bitwise(*_run("mean", np.asarray(a).astype(np.float16), dims, keepdim))


def test_zero_sign_and_specials():
    """The result starts at +0 as PyTorch's zero-filled output: a sum of -0.0 is +0.0
    (numpy's is -0.0); inf and nan propagate; an empty sum is 0 and an empty mean nan."""
    for v in ([-0.0], [-0.0, -0.0], [np.inf, 1.0], [np.inf, -np.inf], [np.nan, 1.0], []):
        for dt in (np.float32, np.float64):
            a = np.array(v, dtype=dt)
            for fname in ("sum", "nansum", "mean"):
                assert_bitwise(*_run(fname, a, None, False))
    assert_bitwise(*_run("sum", np.zeros((0, 3)), (0,), True))


def test_integer_sums_stay_exact():
    a = np.array([[2 ** 62, 1], [-(2 ** 62), 3]], dtype=np.int64)
    for dims in (None, (0,), (1,)):
        want, got = _run("sum", a, dims, False)
        assert got.dtype == want.dtype == np.int64
        np.testing.assert_array_equal(want, got)


def test_expanded_input():
    """A stride-0 (expanded) gradient, as the engine's sum_to sees from sum's backward."""
    rng = np.random.default_rng(7)
    base = rng.standard_normal((5, 1, 37))
    for dims in ((0, 1), (1,), (0, 2), None):
        want = torch.from_numpy(base).expand(5, 33, 37)
        got = autograd_core.from_numpy(base).expand(5, 33, 37)
        kw = {} if dims is None else {"dim": dims}
        assert_bitwise(want.sum(**kw).numpy(), got.sum(**kw).numpy())


@pytest.fixture
def threads():
    """Set both libraries' intra-op thread count; torch's restored afterwards."""
    old = torch.get_num_threads()

    def set_threads(n):
        torch.set_num_threads(n)
        autograd_core.set_num_threads(n)
    yield set_threads
    torch.set_num_threads(old)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_large_sums_split_over_threads(threads, n):
    """From 32768 elements PyTorch splits a sum over its threads: a full reduction into
    per-thread linear chunks, others over the outermost non-reduced dim (128-byte column
    rounding); the emulation follows torch.get_num_threads()."""
    threads(n)
    rng = np.random.default_rng(8 + n)
    cases = [((200_000,), None), ((300, 400), (0,)), ((300, 400), (1,)), ((3, 40_000), (1,)),
             ((40_000, 3), (0,)), ((2, 3, 9000), (0, 2)), ((7, 5000), (0,)), ((9000, 5), (1,))]
    for shape, dims in cases:
        for dt in (np.float32, np.float64):
            a = rng.standard_normal(shape).astype(dt)
            for b in (a, a.T):
                d = None if dims is None or b is a else tuple(b.ndim - 1 - k for k in dims)
                assert_bitwise(*_run("sum", b, d, False))
            assert_bitwise(*_run("mean", a, dims, True))


def test_backward_sum_to_and_bias_gradient():
    """The engine's sum_to of a broadcast gradient (a bias's, a scale's) follows
    PyTorch's order: the gradients agree bit for bit. (Elementwise products only, which
    are exact in both, so that only the sums' order can differ.)"""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((3, 64, 37)).astype(np.float32)
    c = rng.standard_normal((3, 64, 37)).astype(np.float32)
    w = rng.standard_normal((1, 37)).astype(np.float32)
    b = rng.standard_normal(37).astype(np.float32)
    grads = []
    for mod in (torch, autograd_core):
        tb = mod.tensor(b, requires_grad=True)
        tw = mod.tensor(w, requires_grad=True)
        y = mod.from_numpy(x) * tw + tb
        ((y * mod.from_numpy(c)).sum() + y.mean()).backward()
        grads.append((tb.grad.numpy(), tw.grad.numpy()))
    assert_bitwise(grads[0][0], grads[1][0])
    assert_bitwise(grads[0][1], grads[1][1])


def test_loss_reductions():
    rng = np.random.default_rng(10)
    a = rng.standard_normal((33, 17))
    t = rng.standard_normal((33, 17))
    for fn in ("mse_loss", "l1_loss", "smooth_l1_loss"):
        for red in ("mean", "sum"):
            want = getattr(torch.nn.functional, fn)(torch.from_numpy(a), torch.from_numpy(t),
                                                    reduction=red)
            got = getattr(autograd_core.nn.functional, fn)(
                autograd_core.from_numpy(a), autograd_core.from_numpy(t), reduction=red)
            assert_bitwise(want.numpy(), got.numpy())


_CHILD = r"""
import hashlib, json, sys
import numpy as np
import torch
import autograd_core
rng = np.random.default_rng(11)
h = {"torch": hashlib.sha256(), "agc": hashlib.sha256()}
for k in range(120):
    nd = int(rng.integers(1, 4))
    shape = tuple(int(s) for s in rng.integers(1, 90, nd))
    a = rng.standard_normal(shape).astype((np.float32, np.float64)[k % 2])
    if nd > 1 and k % 3 == 0:
        a = a.swapaxes(0, 1)
    for key, mod in (("torch", torch), ("agc", autograd_core)):
        x = mod.from_numpy(a)
        for r in (x.sum(), x.sum(0), mod.nansum(x, -1), x.mean(-1)):
            h[key].update(np.ascontiguousarray(r.numpy()).tobytes())
print(json.dumps({"cap": torch.backends.cpu.get_cpu_capability(),
                  "torch": h["torch"].hexdigest(), "agc": h["agc"].hexdigest()}))
"""


def test_every_cpu_capability_sums_alike():
    """PyTorch's sum kernels have no AVX512 build (REGISTER_DISPATCH), and the DEFAULT
    build's vectors are 32 bytes as AVX2's: under each capability torch can be forced to
    (ATEN_CPU_CAPABILITY) its sums are the same bits, and ours are those bits."""
    caps = {"AVX512": ["avx512", "avx2", "default"], "AVX2": ["avx2", "default"]}.get(
        torch.backends.cpu.get_cpu_capability(), ["default"])
    seen = []
    for cap in caps:
        proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                              cwd=CWD, env=child_env(ATEN_CPU_CAPABILITY=cap), timeout=300)
        assert proc.returncode == 0, proc.stderr
        res = json.loads(proc.stdout.strip().splitlines()[-1])
        assert res["cap"] == cap.upper()
        assert res["torch"] == res["agc"], cap
        seen.append(res["torch"])
    assert len(set(seen)) == 1


@pytest.mark.parametrize("fname", ["sum", "nansum"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_short_rows_bitwise(fname, dt):
    """Rows shorter than four of PyTorch's vectors (32 float32 or 16 float64 elements, as
    a row of 10 logits) skip the cascade's set-up: bitwise PyTorch's at every length,
    along contiguous and strided rows, with rows of -0.0, NaN and exact cancellation."""
    rng = np.random.default_rng(7)
    for n in range(1, 40):
        a = (rng.standard_normal((9, n)) * 10.0 ** rng.integers(-3, 4, (9, 1))).astype(dt)
        a[0] = -0.0
        a[1, 0] = np.nan
        if n > 1:
            a[2, :2] = [1.5, -1.5]
        for x, dims in ((a, (1,)), (a.T, (0,)), (a, (0,)), (a.T, (1,))):
            for keepdim in (False, True):
                assert_bitwise(*_run(fname, x, dims, keepdim))
