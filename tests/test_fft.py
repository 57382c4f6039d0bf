"""torch.fft's transforms and torch.stft / istft against PyTorch: every transform over
float32, float64, complex64, complex128 and integer inputs with n / s, dim and norm
variants (odd and even sizes, zero-padding and trimming), out=, the result layout,
PyTorch's errors and messages, the three primitives (_fft_r2c, _fft_c2r, _fft_c2c) the
transforms are composed of, their gradients (first and second order, forward mode,
gradcheck), and stft / istft values, gradients, round trips, errors and warnings."""
import itertools
import warnings

import numpy as np
import pytest

from _diff import Raised, assert_same, catch, data, same, same_error, torch
from _subprocess import CWD, child_env

import autograd_core

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
TWO_D = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
ALL = ONE_D + TWO_D + N_D
DTYPES = ["float32", "float64", "complex64", "complex128", "int64"]
NORMS = [None, "backward", "ortho", "forward"]


def _tol(dtype):
    # single precision sums of up to ~100 terms of size ~1
    return (1e-4, 1e-4) if dtype in ("float32", "complex64", "int64") else (1e-9, 1e-10)


def _input(mod, shape, dtype, seed=0):
    if dtype == "int64":
        a = np.random.default_rng(seed).integers(-5, 6, size=shape)
        return mod.tensor(a.tolist(), dtype=mod.int64)
    if dtype == "bool":
        a = np.random.default_rng(seed).integers(0, 2, size=shape).astype(bool)
        return mod.tensor(a.tolist(), dtype=mod.bool)
    if dtype.startswith("complex"):
        re = data(mod, *shape, seed=seed, dtype="float64")
        im = data(mod, *shape, seed=seed + 100, dtype="float64")
        return mod.complex(re, im).to(getattr(mod, dtype))
    return data(mod, *shape, seed=seed, dtype=dtype)


def _cases_1d():
    for shape, dim in [((7,), -1), ((8,), 0), ((4, 6), -1), ((5, 6), 0), ((3, 4, 5), 1),
                       ((2, 3, 4), -3)]:
        for n in (None, 1, 3, 4, 7, 10):
            for norm in NORMS:
                yield shape, n, dim, norm


def _cases_nd(fname):
    two = fname.endswith("2")
    for shape in [(4, 6), (5, 7), (2, 3, 4), (3, 1, 5)]:
        for s, dim in [(None, None), ((3, 4), None), ((6, 5), (0, 1)), ((-1, 8), (-2, -1)),
                       ((4,), (0,)), (None, (1, 0)), (None, (-1,))] + \
                      ([] if two else [(None, (0, 1, 2)), ((2, 2, 2), None)]):
            if len(shape) < 3 and (dim is not None and max(dim) > 1 or s is not None and
                                   len(s) > 2 or dim is not None and min(dim) < -2):
                continue
            if two and dim is None and s is not None and len(s) != 2:
                continue
            for norm in NORMS:
                yield shape, s, dim, norm


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fname", ALL)
def test_transform_values(fname, dtype):
    """Every transform, every dtype, n/s, dim and norm variants: values, dtype and shape
    (or PyTorch's error, for a complex input to the real-input transforms)."""
    cases = list(_cases_1d()) if fname in ONE_D else list(_cases_nd(fname))

    def prog(mod):
        f = getattr(mod.fft, fname)
        out = []
        for shape, n, dim, norm in cases:
            x = _input(mod, shape, dtype)
            if fname in ONE_D:
                out.append(catch(f, x, n, dim, norm))
            elif dim is None and fname.endswith("2"):
                out.append(catch(f, x, n, norm=norm))
            else:
                out.append(catch(f, x, n, dim, norm))
        return out
    rtol, atol = _tol(dtype)
    same(prog, rtol=rtol, atol=atol)


@pytest.mark.parametrize("fname", ALL)
def test_transform_layout(fname):
    """The result's strides are PyTorch's (its CPU kernel puts the batch dims first in the
    input's stride order, the transformed dims last), so .view() works as there."""
    def prog(mod):
        f = getattr(mod.fft, fname)
        res = []
        def make(*shape):
            x = data(mod, *shape)
            # (the c2r transforms take complex input: made contiguous, then viewed)
            return mod.complex(x, x) if fname.startswith(("irfft", "hfft")) else x
        for x in (make(4, 5, 6), make(6, 5, 4).permute(2, 1, 0), make(3, 8)[:, ::2]):
            for kw in ([{"dim": d} for d in range(x.dim())] if fname in ONE_D else
                       [{}, {"dim": (0, 1)}, {"dim": (1, 0)}]):
                if fname.endswith("2") and "dim" not in kw:
                    kw = {"dim": (-2, -1)}
                r = f(x, **kw)
                res.append((r.shape, r.stride()))
        return res
    same(prog)


def test_integer_bool_and_default_dtype():
    """Integer and bool inputs compute in the default float dtype (complex64, or
    complex128 when the default is float64), as PyTorch's promote_tensor_fft."""
    def prog(mod):
        res = []
        for dt in ("float32", "float64"):
            old = mod.get_default_dtype()
            mod.set_default_dtype(getattr(mod, dt))
            try:
                for name in ("int64", "bool"):
                    x = _input(mod, (6,), name)
                    res += [mod.fft.fft(x), mod.fft.rfft(x), mod.fft.irfft(x), mod.fft.hfft(x),
                            mod.fft.ihfft(x), mod.fft.fftn(x), mod.fft.rfftn(x)]
                x = mod.tensor([1, 2, 3], dtype=mod.int32)
                res += [mod.fft.ifft(x), mod.fft.irfftn(x)]
            finally:
                mod.set_default_dtype(old)
        return res
    same(prog, rtol=1e-5, atol=1e-5)


def test_zero_size_batch_and_0d():
    """A 0-d tensor transforms over no dims (a copy); an empty batch is refused with the
    error of PyTorch's CPU kernel (MKL)."""
    def prog(mod):
        x = mod.zeros(0, 4)
        c = mod.zeros(0, 3, dtype=mod.complex64)
        return [catch(mod.fft.fft, x), catch(mod.fft.rfft, x), catch(mod.fft.irfft, c),
                catch(mod.fft.fftn, x, dim=(1,)), catch(mod.fft.ifft, c),
                catch(mod.fft.hfft, c), mod.fft.fftn(mod.tensor(2.)),
                mod.fft.ifftn(mod.tensor(2.)), mod.fft.fftn(x, dim=()),
                mod.fft.fft(mod.tensor([3.]))]
    same(prog)


@pytest.mark.parametrize("call", [
    lambda m: m.fft.fft(m.ones(4, 5), n=0),
    lambda m: m.fft.fft(m.ones(4, 5), n=-2),
    lambda m: m.fft.fft(m.ones(4, 5), norm="bad"),
    lambda m: m.fft.ifft(m.ones(4, 5), norm="Ortho"),
    lambda m: m.fft.fft2(m.ones(4, 5), norm="none"),
    lambda m: m.fft.fft(m.ones(4, 5), dim=2),
    lambda m: m.fft.rfft(m.ones(4, 5), dim=-3),
    lambda m: m.fft.fft(m.tensor(1.)),
    lambda m: m.fft.fft(m.tensor(1.), dim=0),
    lambda m: m.fft.fft(m.ones(0)),
    lambda m: m.fft.rfft(m.ones(0)),
    lambda m: m.fft.irfft(m.ones(0, dtype=m.complex64)),
    lambda m: m.fft.fft(m.ones(3, dtype=m.float16)),
    lambda m: m.fft.rfft(m.ones(3, dtype=m.bfloat16)),
    lambda m: m.fft.fftn(m.ones(3, dtype=m.float16)),
    lambda m: m.fft.irfft(m.ones(3, dtype=m.float16)),
    lambda m: m.fft.rfft(m.ones(3, dtype=m.complex64)),
    lambda m: m.fft.ihfft(m.ones(3, dtype=m.complex128)),
    lambda m: m.fft.rfftn(m.ones(3, dtype=m.complex64)),
    lambda m: m.fft.rfft2(m.ones(3, 3, dtype=m.complex64)),
    lambda m: m.fft.ihfft2(m.ones(3, 3, dtype=m.complex64)),
    lambda m: m.fft.ihfftn(m.ones(3, 3, dtype=m.complex64)),
    lambda m: m.fft.irfft(m.ones(1, dtype=m.complex64)),
    lambda m: m.fft.hfft(m.ones(1)),
    lambda m: m.fft.irfftn(m.ones(3, 1, dtype=m.complex64)),
    lambda m: m.fft.irfft2(m.ones(3, 4), s=(3, 0)),
    lambda m: m.fft.fftn(m.ones(4, 5), s=(3, 3, 3)),
    lambda m: m.fft.fftn(m.ones(4, 5), s=(3, 3), dim=(0,)),
    lambda m: m.fft.fftn(m.ones(4, 5), dim=(0, 0)),
    lambda m: m.fft.fftn(m.ones(4, 5), dim=(1, -1)),
    lambda m: m.fft.fftn(m.ones(4, 5), dim=(0, 5)),
    lambda m: m.fft.fftn(m.ones(4, 5), s=(0, 3)),
    lambda m: m.fft.fftn(m.ones(4, 5), s=(-2, 3)),
    lambda m: m.fft.rfftn(m.ones(4, 5), dim=()),
    lambda m: m.fft.rfftn(m.tensor(1.)),
    lambda m: m.fft.irfftn(m.tensor(1.)),
    lambda m: m.fft.hfftn(m.ones(4, 5), dim=()),
    lambda m: m.fft.ihfftn(m.ones(4, 5), dim=()),
    lambda m: m.fft.fft2(m.ones(3)),
    lambda m: m.fft.fftn(m.tensor(1.), dim=(0,)),
    lambda m: m.fft.fftn(m.tensor(1.), s=(1,)),
    lambda m: m.fft.fft([1., 2.]),
    lambda m: m.fft.fft(m.ones(3), n=1.5),
    lambda m: m.fft.fft(m.ones(3), norm=3),
    lambda m: m.fft.fft(m.ones(3), dim=(0,)),
    lambda m: m.fft.fft(m.ones(4), out=m.empty(0)),
    lambda m: m.fft.rfft(m.ones(4), out=m.empty(0)),
    lambda m: m.fft.ifft(m.ones(4), out=m.empty(0, dtype=m.float64)),
    lambda m: m.fft.ihfft(m.ones(4), out=m.empty(0)),
    lambda m: m.fft.irfft(m.ones(4, dtype=m.complex64), out=m.empty(0, dtype=m.complex64)),
    lambda m: m.fft.hfft(m.ones(4), out=m.empty(0, dtype=m.complex64)),
    lambda m: m.fft.fft(m.ones(4, dtype=m.complex64), out=m.empty(0)),
    lambda m: m.fft.fftn(m.ones(4, 4), out=m.empty(0)),
])
def test_errors(call):
    same_error(call)


@pytest.mark.parametrize("fname", ALL)
def test_out(fname):
    """out= of every transform: the result written into out (resized), out returned, its
    dtype kept where PyTorch's out kernel casts (complex128 out of a complex64 result)."""
    real_out = fname.startswith(("irfft", "hfft"))

    def prog(mod):
        x = data(mod, 4, 6)
        outs = [mod.empty(0, dtype=mod.float32 if real_out else mod.complex64),
                mod.empty(0, dtype=mod.float64 if real_out else mod.complex128)]
        res = []
        for o in outs:
            r = catch(getattr(mod.fft, fname), x.float(), out=o)
            res += [r is o, o, o.dtype] if not isinstance(r, Raised) else [r]
        return res
    same(prog, rtol=1e-5, atol=1e-5)


def test_out_resize_warning():
    def prog(mod):
        o = mod.zeros(2, dtype=mod.complex64)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mod.fft.fft(mod.ones(4), out=o)
        return o, [str(x.message) for x in w]
    same(prog)


def test_primitives():
    """_fft_r2c / _fft_c2r / _fft_c2c with each normalization mode, several dims and
    onesided/forward, and their dtype errors."""
    def prog(mod):
        x = data(mod, 3, 4, 5)
        c = mod.complex(x, data(mod, 3, 4, 5, seed=1))
        res = []
        for norm in (0, 1, 2):
            for dims in ([2], [0], [0, 2], [2, 0], [0, 1, 2]):
                res.append(mod._fft_r2c(x, dims, norm, True))
                res.append(mod._fft_r2c(x, dims, norm, False))
                res.append(mod._fft_c2c(c, dims, norm, True))
                res.append(mod._fft_c2c(c, dims, norm, False))
                if dims[-1] == 2:       # (the last dim holds n // 2 + 1 = 5 points)
                    res.append(mod._fft_c2r(c, dims, norm, 8))
                    res.append(mod._fft_c2r(c, dims, norm, 9))
        res.append(catch(mod._fft_r2c, c, [0], 0, True))
        res.append(catch(mod._fft_c2c, x, [0], 0, True))
        res.append(catch(mod._fft_c2r, x, [0], 0, 4))
        return res
    same(prog, rtol=1e-9, atol=1e-10)


def test_primitive_argument_errors():
    same_error(lambda m: m._fft_r2c(m.ones(3), [], 0, True))
    same_error(lambda m: m._fft_c2r(m.ones(3, dtype=m.complex64), [], 0, 4))
    # PyTorch's kernel asserts the onesided size (an internal assert): a RuntimeError here too
    same_error(lambda m: m._fft_c2r(m.ones(3, dtype=m.complex64), [0], 0, 9), message=False)
    same_error(lambda m: m._fft_c2r(m.ones(3, dtype=m.complex64), [0], 0, 0), message=False)


def _loss(mod, y):
    """A real scalar of any result, weighting every element differently (and, for a
    complex result, its real and imaginary parts), so that every entry of the gradient
    is checked."""
    w = mod.arange(1, y.numel() + 1, dtype=mod.float64).reshape(y.shape) / y.numel()
    if y.is_complex():
        return ((y.real * w).sum() - (y.imag * w.flip(list(range(y.dim())))).sum())
    return (y * w).sum()


_GRAD_CASES = [dict(), dict(norm="ortho"), dict(norm="forward")]


@pytest.mark.parametrize("fname", ALL)
@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
@pytest.mark.parametrize("kw", _GRAD_CASES, ids=["backward", "ortho", "forward"])
def test_gradients_as_pytorch(fname, dtype, kw):
    """The FFT derivatives (PyTorch's fft_r2c_backward, fft_c2r_backward, and c2c the
    other way): the gradient of a real loss of every transform, real and complex
    inputs, odd and even sizes, padding (n/s larger) and trimming (smaller)."""
    size_kw = ({"n": 7} if fname in ONE_D else {"s": (3, 7)})
    for extra in (dict(), size_kw, {k: (v - 3 if isinstance(v, int) else (2, 4))
                                   for k, v in size_kw.items()}):
        def prog(m, extra=extra):
            x = _input(m, (3, 6), dtype).requires_grad_()
            y = getattr(m.fft, fname)(x, **extra, **kw)
            _loss(m, y).backward()
            return y.detach(), x.grad
        rtol, atol = _tol(dtype)
        # the r2c transforms (rfft, ihfft, ...) refuse complex input, in both libraries
        same(prog, rtol=rtol, atol=atol, may_raise=dtype.startswith("complex"))


@pytest.mark.parametrize("fname", ["fft", "rfft", "irfft", "hfft"])
def test_second_derivatives_and_forward_mode_as_pytorch(fname):
    def prog(m):
        x = _input(m, (5,), "float64").requires_grad_()
        y = getattr(m.fft, fname)(x)
        (g,) = m.autograd.grad(_loss(m, y * y), x, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), x)
        with m.autograd.forward_ad.dual_level():
            dual = m.autograd.forward_ad.make_dual(x.detach(), m.ones(5, dtype=m.float64))
            tangent = m.autograd.forward_ad.unpack_dual(getattr(m.fft, fname)(dual)).tangent
        return g.detach(), gg, tangent
    same(prog, rtol=1e-9, atol=1e-10)


def test_gradcheck_through_the_primitives():
    x = autograd_core.tensor(np.random.default_rng(3).normal(size=(4, 5)), requires_grad=True)
    z = autograd_core.complex(x.detach(), x.detach().flip(0)).requires_grad_()
    assert autograd_core.autograd.gradcheck(lambda t: autograd_core.fft.rfft2(t), (x,))
    assert autograd_core.autograd.gradcheck(lambda t: autograd_core.fft.irfft(t, n=7), (z,))
    assert autograd_core.autograd.gradcheck(lambda t: autograd_core.fft.fftn(t, norm="ortho"),
                                            (z,))
    assert autograd_core.autograd.gradgradcheck(lambda t: autograd_core.fft.hfft(t), (z,))


def test_stft_istft_gradients_as_pytorch():
    def prog(m):
        x = data(m, 40, seed=1, requires_grad=True)
        w = m.hann_window(8, dtype=m.float64).requires_grad_()
        spec = m.stft(x, 8, hop_length=2, window=w, return_complex=True)
        y = m.istft(spec * 1.5, 8, hop_length=2, window=w, length=40)
        (y * m.arange(40, dtype=m.float64)).sum().backward()
        return spec.detach(), y.detach(), x.grad, w.grad
    same(prog, rtol=1e-9, atol=1e-10)


# ------------------------------------------------------------------ stft / istft

_STFT_CASES = [
    dict(n_fft=8),
    dict(n_fft=8, hop_length=3),
    dict(n_fft=8, win_length=6),
    dict(n_fft=7, hop_length=2, win_length=5),
    dict(n_fft=8, center=False),
    dict(n_fft=8, pad_mode="constant"),
    dict(n_fft=8, pad_mode="replicate"),
    dict(n_fft=8, pad_mode="circular"),
    dict(n_fft=8, normalized=True),
    dict(n_fft=8, onesided=False),
    dict(n_fft=16, hop_length=4, win_length=10, center=False, align_to_window=True),
    dict(n_fft=16, hop_length=4, win_length=10, center=False, align_to_window=False),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("batch", [False, True])
def test_stft_values(dtype, batch):
    def prog(mod):
        shape = (3, 40) if batch else (40,)
        x = _input(mod, shape, dtype)
        res = []
        for kw in _STFT_CASES:
            kw = dict(kw)
            win = kw.get("win_length", kw["n_fft"])
            for window in (mod.hann_window(win, dtype=mod.float64).to(x.real.dtype), None):
                res.append(catch(mod.stft, x, window=window, return_complex=True, **kw))
        return res
    rtol, atol = _tol(dtype)
    same(prog, quiet=True, rtol=rtol, atol=atol)


def test_stft_real_result_and_methods():
    def prog(mod):
        x = data(mod, 30)
        w = mod.hamming_window(8, dtype=mod.float64)
        return [mod.stft(x, 8, window=w, return_complex=False),
                x.stft(8, window=w, return_complex=True),
                mod.stft(x, 8, 2, window=w, return_complex=True, normalized=True).stride(),
                mod.stft(mod.complex(x, x), 8, window=w)]
    same(prog, quiet=True, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("kw", [
    dict(n_fft=8), dict(n_fft=8, hop_length=3), dict(n_fft=8, win_length=6),
    dict(n_fft=7, hop_length=2, win_length=5), dict(n_fft=8, center=False),
    dict(n_fft=8, normalized=True), dict(n_fft=8, onesided=False), dict(n_fft=10, hop_length=5),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_istft_round_trip_and_values(kw, dtype):
    """istft(stft(x)) is x (where the window's overlap-add does not vanish) and equals
    PyTorch's istft, with length trimming or zero-padding."""
    def prog(mod):
        x = data(mod, 2, 41, dtype=dtype)
        win = kw.get("win_length", kw["n_fft"])
        w = mod.hann_window(win, dtype=getattr(mod, dtype))
        if not kw.get("center", True):
            w = mod.ones(win, dtype=getattr(mod, dtype))
        X = mod.stft(x, window=w, return_complex=True, **kw)
        ikw = {k: v for k, v in kw.items()}
        res = [catch(mod.istft, X, window=w, **ikw),
               catch(mod.istft, X, window=w, length=30, **ikw),
               catch(mod.istft, X, window=w, length=45, **ikw),
               catch(mod.istft, X[0], window=w, **ikw)]
        if kw.get("onesided") is False:
            res.append(catch(mod.istft, X, window=w, return_complex=True, **ikw))
        return res
    got = same(prog, quiet=True, rtol=1e-4, atol=1e-5)
    x = data(autograd_core, 2, 41, dtype=dtype)
    if not isinstance(got[0], Raised) and kw.get("center", True):
        np.testing.assert_allclose(got[0].numpy(), x[:, :got[0].shape[-1]].numpy(), atol=1e-5)


@pytest.mark.parametrize("call", [
    lambda m: m.stft(m.ones(20), 8, window=m.hann_window(8)),
    lambda m: m.stft(m.ones(20), 30, window=m.ones(30), return_complex=True, center=False),
    lambda m: m.stft(m.ones(20), 8, hop_length=0, window=m.ones(8), return_complex=True),
    lambda m: m.stft(m.ones(20), 8, win_length=9, window=m.ones(8), return_complex=True),
    lambda m: m.stft(m.ones(20), 8, window=m.ones(5), return_complex=True),
    lambda m: m.stft(m.ones(2, 2, 20), 8, window=m.ones(8), return_complex=True),
    lambda m: m.stft(m.ones(20, dtype=m.int64), 8, window=m.ones(8), return_complex=True),
    lambda m: m.stft(m.ones(20, dtype=m.bool), 8, return_complex=True, center=False),
    lambda m: m.stft(m.ones(20, dtype=m.complex64), 8, window=m.ones(8), onesided=True),
    lambda m: m.stft(m.ones(20), 8, window=m.ones(8), return_complex=True,
                     align_to_window=True),
    lambda m: m.stft(m.ones(20, dtype=m.float64), 8, hop_length=-1,
                     window=m.ones(8, dtype=m.complex128), center=False),
    lambda m: m.istft(m.ones(5, 11), 8, window=m.ones(8)),
    lambda m: m.istft(m.ones(5, 11, dtype=m.complex64), 8, window=m.ones(8), onesided=False),
    lambda m: m.istft(m.ones(5, 11, dtype=m.complex64), 9, window=m.ones(8)),
    lambda m: m.istft(m.ones(5, 11, dtype=m.complex64), 8, hop_length=9, window=m.ones(8)),
    lambda m: m.istft(m.ones(5, 11, dtype=m.complex64), 8, win_length=9, window=m.ones(8)),
    lambda m: m.istft(m.ones(5, 11, dtype=m.complex64), 8, window=m.ones(5)),
    lambda m: m.istft(m.ones(5, 11, dtype=m.complex64), 8, window=m.ones(8),
                      return_complex=True),
    lambda m: m.istft(m.ones(5, 0, dtype=m.complex64), 8, window=m.ones(8)),
    lambda m: m.istft(m.ones(11, dtype=m.complex64), 8, window=m.ones(8)),
    lambda m: m.istft(m.ones(2, 2, 5, 11, dtype=m.complex64), 8, window=m.ones(8)),
    lambda m: m.istft(m.ones(5, 11, dtype=m.complex64), 8, window=m.zeros(8)),
    lambda m: m.istft(m.ones(5, 11, dtype=m.complex128), 8, window=m.hann_window(8),
                      center=False),
    lambda m: m.istft(m.ones(8, 11, dtype=m.complex64), 8, window=m.ones(8, dtype=m.complex64),
                      onesided=False),
])
def test_stft_istft_errors(call):
    same_error(call)


_WARN_PROG = """
import warnings, sys
import {mod} as m
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    x = m.ones(20)
    m.stft(x, 8, return_complex=True)
    m.stft(x, 8, return_complex=True)
    m.stft(x, 8, window=m.ones(8), return_complex=False)
    m.stft(x, 8, window=m.ones(8), return_complex=False)
    X = m.stft(x, 8, window=m.ones(8), return_complex=True)
    m.istft(X, 8)
    m.istft(X, 8, window=m.ones(8), length=30)
    m.istft(X, 8, window=m.ones(8), length=30)
for x in w:
    print(x.category.__name__, repr(str(x.message).split(" (Triggered internally")[0]))
"""


def test_stft_istft_warnings_once():
    """PyTorch's warnings (no window, return_complex=False deprecated, signal shorter than
    length), each once per process as its TORCH_WARN_ONCE."""
    import subprocess
    import sys
    outs = []
    for mod in ("torch", "autograd_core"):
        r = subprocess.run([sys.executable, "-c", _WARN_PROG.format(mod=mod)], cwd=CWD,
                           env=child_env(), capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout.replace("torch.", "autograd_core."))
    assert outs[0].count("\n") == 4
    assert outs[1] == outs[0]


def test_vmap_and_torch_function():
    """The transforms honour __torch_function__, so vmap runs them (per sample for now:
    no batching rule yet, with vmap's performance warning) with PyTorch's values."""
    def prog(mod):
        x = data(mod, 3, 6)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [mod.func.vmap(mod.fft.fft)(x), mod.func.vmap(mod.fft.rfft)(x),
                    mod.func.vmap(lambda r: mod.fft.irfftn(r, s=(6,)))(mod.fft.rfft(x))]
    same(prog, rtol=1e-9, atol=1e-10)
