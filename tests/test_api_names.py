"""PyTorch's public complex, FFT and window names exist here (issue 27).

``../shared/tools/api_coverage.py`` leaves complex, FFT and window names out of its view;
this test lists them from the installed torch instead (every ``torch.*`` callable and
``Tensor`` attribute whose name mentions complex / conj / fft / window / stft / polar /
view_as_, all of ``torch.fft`` and ``torch.signal.windows``) and asserts each exists in
autograd_core.
"""
import re

import pytest

from _diff import torch
import autograd_core

_PATTERN = re.compile(r"complex|conj|fft|window|stft|polar|view_as_")

# complex32 (ComplexHalf) is not provided (Note [Complex ranks] in _core/dtype.pyx).
_NOT_PROVIDED = {"complex32", "chalf"}

def _torch_names():
    out = []
    for n in sorted(dir(torch)):
        if n.startswith("_") or not _PATTERN.search(n) or n in _NOT_PROVIDED:
            continue
        obj = getattr(torch, n)
        if callable(obj) or isinstance(obj, torch.dtype):
            out.append(("torch", n))
    for n in sorted(dir(torch.Tensor)):
        if not n.startswith("_") and _PATTERN.search(n):
            out.append(("torch.Tensor", n))
    for n in sorted(torch.fft.__all__ if hasattr(torch.fft, "__all__") else dir(torch.fft)):
        if not n.startswith("_") and n != "Tensor":
            out.append(("torch.fft", n))
    for n in sorted(torch.signal.windows.__all__):
        out.append(("torch.signal.windows", n))
    return out


def _params():
    out = []
    for mod, n in _torch_names():
        out.append(pytest.param(mod, n, id=f"{mod}.{n}"))
    return out


def _ours(mod):
    return {"torch": autograd_core, "torch.Tensor": autograd_core.Tensor,
            "torch.fft": autograd_core.fft,
            "torch.signal.windows": autograd_core.signal.windows}[mod]


def test_the_list_is_not_empty():
    names = _torch_names()
    assert len(names) > 40
    assert ("torch.fft", "fftfreq") in names and ("torch", "view_as_real") in names


@pytest.mark.parametrize("mod,name", _params())
def test_name_exists(mod, name):
    assert hasattr(_ours(mod), name), f"{mod}.{name} is missing from autograd_core"
    if mod != "torch" or isinstance(getattr(torch, name), torch.dtype):
        return
    assert callable(getattr(autograd_core, name))


def test_math_constants_as_pytorchs():
    import math
    import torch
    import autograd_core
    for name in ("pi", "e", "inf", "nan"):
        got, want = getattr(autograd_core, name), getattr(torch, name)
        assert type(got) is type(want) is float
        assert got == want or (math.isnan(got) and math.isnan(want))
