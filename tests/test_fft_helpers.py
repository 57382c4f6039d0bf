"""torch.fft's real-valued helpers against PyTorch: fftfreq / rfftfreq (values in the
result's dtype, out=, requires_grad, errors) and fftshift / ifftshift (rolls, so
differentiable with RollBackward0)."""
import pytest

from _diff import data, same, same_error, torch

import autograd_core


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_frequencies(dtype):
    def prog(mod):
        d = getattr(mod, dtype)
        return [(mod.fft.fftfreq(n, dtype=d), mod.fft.rfftfreq(n, dtype=d),
                 mod.fft.fftfreq(n, 0.1, dtype=d), mod.fft.rfftfreq(n, d=2.5, dtype=d))
                for n in (0, 1, 2, 3, 4, 5, 8, 11, 100, 1001)]
    same(prog, rtol=0, atol=0)       # exact: counts times 1 / (n d) in the dtype


def test_frequencies_options():
    def prog(mod):
        a = mod.fft.fftfreq(6, 0.5, requires_grad=True, dtype=mod.float64)
        b = mod.fft.rfftfreq(7, 2)
        out = mod.empty(5, dtype=mod.float64)
        c = mod.fft.fftfreq(5, out=out)
        old = mod.get_default_dtype()
        mod.set_default_dtype(mod.float64)
        try:
            e = mod.fft.rfftfreq(9)
        finally:
            mod.set_default_dtype(old)
        return (a, a.is_leaf, b, c, c is out, out, e, mod.fft.fftfreq(4, 0),
                mod.fft.rfftfreq(-1), mod.fft.rfftfreq(-2), mod.fft.fftfreq(5, device="cpu"))
    same(prog, rtol=0, atol=0)


@pytest.mark.parametrize("call", [
    lambda m: m.fft.fftfreq(-1),
    lambda m: m.fft.fftfreq(-2, 0.5),
    lambda m: m.fft.rfftfreq(-4),
    lambda m: m.fft.fftfreq(4, dtype=m.int64),
    lambda m: m.fft.rfftfreq(7, dtype=m.int32),
    lambda m: m.fft.fftfreq(4, out=m.empty(4, dtype=m.int64)),
    lambda m: m.fft.fftfreq(4.0),
    lambda m: m.fft.rfftfreq(True),
    lambda m: m.fft.fftfreq(4, "1"),
    lambda m: m.fft.fftshift([1, 2]),
    lambda m: m.fft.ifftshift(m.zeros(2, 3), dim=2),
    lambda m: m.fft.fftshift(m.zeros(2, 3), dim=(0, -3)),
    lambda m: m.fft.fftshift(m.tensor(3.0)),
    lambda m: m.fft.fftshift(m.zeros(2, 3), dim=()),
    lambda m: m.fft.fftshift(m.zeros(2, 3), dim=1.0),
])
def test_errors(call):
    same_error(call)


def test_shifts_values_and_gradients():
    def prog(mod):
        x = data(mod, 4, 5, 3, requires_grad=True)
        outs = [mod.fft.fftshift(x), mod.fft.ifftshift(x), mod.fft.fftshift(x, 1),
                mod.fft.ifftshift(x, dim=-1), mod.fft.fftshift(x, dim=(0, 2)),
                mod.fft.ifftshift(x, dim=[1, 0]), mod.fft.fftshift(x, dim=(1, 1)),
                mod.fft.fftshift(input=x, dim=0)]
        w = data(mod, 4, 5, 3, seed=1)
        grads = [mod.autograd.grad((o * w).sum(), x)[0] for o in outs]
        return outs, [type(o.grad_fn).__name__ for o in outs], grads
    same(prog)


def test_shift_round_trip_and_frequencies():
    def prog(mod):
        f = mod.fft.fftfreq(7)
        g = mod.fft.fftfreq(8)
        return (mod.fft.fftshift(f), mod.fft.ifftshift(mod.fft.fftshift(f)),
                mod.fft.fftshift(g), mod.fft.ifftshift(g), mod.fft.fftshift(mod.arange(6)),
                mod.fft.fftshift(mod.zeros(0, 3)))
    same(prog, rtol=0, atol=0)


def test_namespace():
    # every public name of torch.fft (the transforms: test_fft.py)
    public = sorted(n for n in dir(torch.fft) if not n.startswith("_") and n not in (
        "common_args", "factory_common_args", "torch"))   # (docstring templates, the module)
    assert all(hasattr(autograd_core.fft, n) for n in public), public
    for name in autograd_core.fft.__all__:
        assert name in dir(torch.fft)


def test_docstring_examples_run():
    import doctest
    result = doctest.testmod(autograd_core.fft,
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
