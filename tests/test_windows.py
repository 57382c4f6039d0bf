"""Window functions against PyTorch: torch.hann_window & co. (ATen kernels, computed in
the window's dtype step for step) and torch.signal.windows (composed of tensor ops, so
their graphs match too): values, dtypes, requires_grad / grad_fn, gradients, and
PyTorch's argument errors."""
import numpy as np
import pytest

from _diff import same, same_error, torch

import autograd_core

TORCH_WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
                 "kaiser_window"]
SIGNAL_WINDOWS = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "hamming",
                  "hann", "kaiser", "nuttall"]
LENGTHS = [0, 1, 2, 3, 4, 5, 8, 17, 64, 101]


@pytest.mark.parametrize("name", TORCH_WINDOWS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_torch_window_values(name, dtype):
    def prog(mod):
        f = getattr(mod, name)
        d = getattr(mod, dtype)
        return [(f(n, dtype=d), f(n, True, dtype=d), f(n, False, dtype=d)) for n in LENGTHS]
    # float32: the same float32 steps as ATen's kernel; only cos may differ by an ulp,
    # and PyTorch's float32 i0 (Cephes in float) by a few
    same(prog, rtol=1e-5 if (name, dtype) == ("kaiser_window", "float32") else 1e-6,
         atol=1e-7)


def test_torch_window_float32_mostly_bitwise():
    # the same float32 steps: at least 95% of the points are PyTorch's bits exactly, and
    # bartlett (no transcendental function) all of them
    for name in TORCH_WINDOWS:
        for periodic in (True, False):
            want = getattr(torch, name)(257, periodic).numpy()
            got = getattr(autograd_core, name)(257, periodic).numpy()
            equal = (want == got).mean()
            floor = {"bartlett_window": 1.0, "kaiser_window": 0.85}.get(name, 0.95)
            assert equal >= floor, (name, equal)


@pytest.mark.parametrize("name", TORCH_WINDOWS)
def test_torch_window_float16(name):
    # each step rounds to half (its scalar operand cast to half first): PyTorch's bits,
    # but for kaiser's i0 (one half-ulp at most)
    def prog(mod):
        return [getattr(mod, name)(n, p, dtype=mod.float16)
                for n in (3, 8, 33, 100) for p in (True, False)]
    tol = 1e-3 if name == "kaiser_window" else 0
    same(prog, rtol=tol, atol=tol)


def test_torch_window_parameters():
    def prog(mod):
        return (mod.hamming_window(10, False, 0.3), mod.hamming_window(10, True, 0.3, 0.2),
                mod.hamming_window(9, periodic=False, alpha=0.6, beta=0.1),
                mod.kaiser_window(12, False, 3.5), mod.kaiser_window(12, True, beta=0.0),
                mod.kaiser_window(7, periodic=True, beta=20.0, dtype=mod.float64),
                mod.hann_window(window_length=6), mod.hann_window(6, periodic=False),
                mod.hann_window(np.int64(5)), mod.hann_window(mod.tensor(5)))
    same(prog, rtol=1e-6, atol=1e-7)


def test_torch_window_requires_grad_and_default_dtype():
    def prog(mod):
        w = mod.hann_window(5, requires_grad=True)
        (w * w).sum().backward()
        old = mod.get_default_dtype()
        mod.set_default_dtype(mod.float64)
        try:
            d = mod.blackman_window(4)
        finally:
            mod.set_default_dtype(old)
        return w, w.is_leaf, w.grad, d, mod.kaiser_window(0, requires_grad=True)
    same(prog)


@pytest.mark.parametrize("call", [
    lambda m: m.hann_window(-1),
    lambda m: m.kaiser_window(-2, True, 3.0),
    lambda m: m.hann_window(3, dtype=m.int64),
    lambda m: m.bartlett_window(3, dtype=m.bool),
    lambda m: m.blackman_window(3, dtype=m.int8, layout=m.strided),
    lambda m: m.hamming_window(3, dtype=m.uint8),
    lambda m: m.hann_window(3.0),
    lambda m: m.hann_window(None),
    lambda m: m.hann_window(True),
    lambda m: m.hann_window(3, 1),
    lambda m: m.hann_window(3.0, True),
    lambda m: m.hann_window(3, periodic=None),
    lambda m: m.hann_window(),
    lambda m: m.hann_window(3, True, m.float64),
    lambda m: m.hann_window(3, foo=3),
    lambda m: m.hann_window(3, dtype=3),
    lambda m: m.hann_window(3, requires_grad=1),
    lambda m: m.hamming_window(3, alpha=0.3),
    lambda m: m.hamming_window(3, False, beta=0.3),
    lambda m: m.hamming_window(3, True, "a"),
    lambda m: m.kaiser_window(3, beta=0.3),
    lambda m: m.kaiser_window(3.0, True, 2.0),
    lambda m: m.hann_window(3, pin_memory=True),
])
def test_torch_window_errors(call):
    same_error(call)


@pytest.mark.parametrize("name", SIGNAL_WINDOWS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_signal_window_values(name, dtype):
    def prog(mod):
        f = getattr(mod.signal.windows, name)
        d = getattr(mod, dtype)
        return [(f(n, dtype=d), f(n, sym=False, dtype=d)) for n in LENGTHS]
    # (float32 i0, as in the torch.* kaiser window, may be a few ulps apart)
    same(prog, rtol=1e-5 if (name, dtype) == ("kaiser", "float32") else 1e-6, atol=1e-7)


def test_signal_window_parameters():
    def prog(mod):
        w = mod.signal.windows
        return (w.exponential(9, tau=0.5), w.exponential(9, sym=False, center=2.5, tau=3.0),
                w.exponential(8, sym=False), w.gaussian(10, std=0.7), w.gaussian(7, std=3.0,
                                                                                  sym=False),
                w.kaiser(10, beta=4.0), w.kaiser(11, beta=0.0, sym=False),
                w.general_cosine(9, a=[0.5, 0.3, 0.2]), w.general_cosine(8, a=(1.0,), sym=False),
                w.general_hamming(10, alpha=0.7), w.general_hamming(6, alpha=0.2, sym=False),
                w.hann(6, dtype=mod.float64))
    same(prog, rtol=1e-6, atol=1e-7)


def test_signal_window_graphs_and_gradients():
    # PyTorch composes these windows of ops, so requires_grad=True gives a non-leaf
    # result with the same grad_fn; gradients reach nothing (the linspace is the leaf
    # inside) but backward runs
    def prog(mod):
        w = mod.signal.windows
        outs = [w.hann(3, requires_grad=True), w.exponential(3, requires_grad=True),
                w.kaiser(3, requires_grad=True), w.bartlett(3, requires_grad=True),
                w.gaussian(3, requires_grad=True), w.cosine(3, requires_grad=True),
                w.hann(1, requires_grad=True), w.hann(0, requires_grad=True)]
        return [(o, o.requires_grad, o.is_leaf,
                 None if o.grad_fn is None else type(o.grad_fn).__name__) for o in outs]
    same(prog, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("call", [
    lambda m: m.signal.windows.hann(-1),
    lambda m: m.signal.windows.bartlett(-3),
    lambda m: m.signal.windows.hann(3, dtype=m.int32),
    lambda m: m.signal.windows.hann(3, dtype=m.float16),
    lambda m: m.signal.windows.kaiser(3, dtype=m.int64),
    lambda m: m.signal.windows.exponential(3, center=1.0),
    lambda m: m.signal.windows.exponential(3, tau=0),
    lambda m: m.signal.windows.exponential(3, tau=-1.5),
    lambda m: m.signal.windows.gaussian(3, std=0),
    lambda m: m.signal.windows.kaiser(3, beta=-1),
    lambda m: m.signal.windows.general_cosine(3, a=[]),
    lambda m: m.signal.windows.general_cosine(3, a=3),
    lambda m: m.signal.windows.general_cosine(3),
    lambda m: m.signal.windows.hann(3, 1.0),
])
def test_signal_window_errors(call):
    same_error(call)


def test_signal_windows_namespace():
    assert sorted(autograd_core.signal.windows.__all__) == sorted(torch.signal.windows.__all__)
    assert autograd_core.signal.__all__ == ["windows"]


def test_torch_windows_in_the_profiler():
    # the factory op and its ATen steps, named and nested as PyTorch records them
    def events(mod, fn):
        with mod.autograd.profiler.profile(record_shapes=True) as p:
            fn(mod)
        out = []

        def walk(e, depth):
            out.append((depth, e.name, len(e.input_shapes)))
            for c in e.cpu_children:
                walk(c, depth + 1)
        for e in p.function_events:
            if e.cpu_parent is None:
                walk(e, 0)
        return out
    for call in (lambda m: m.hann_window(5), lambda m: m.blackman_window(6, False),
                 lambda m: m.bartlett_window(5), lambda m: m.kaiser_window(5, False, 3.0),
                 lambda m: m.hamming_window(4, True, 0.3, 0.2), lambda m: m.hann_window(1)):
        assert events(autograd_core, call) == events(torch, call)


@pytest.mark.parametrize("name", ["autograd_core.signal", "autograd_core.signal.windows",
                                  "autograd_core.signal.windows.windows"])
def test_docstring_examples_run(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
