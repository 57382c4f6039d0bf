"""The windows of ``torch.signal.windows``, composed of tensor ops as PyTorch composes
them: each is an evenly spaced ``linspace`` put through pointwise ops, so a window made
with ``requires_grad=True`` has the same graph (and ``grad_fn``) as PyTorch's, and its
float32 values come from the same float32 steps."""
import math
from collections.abc import Iterable

import autograd_core as _torch

__all__ = [
    "bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
    "general_hamming", "hamming", "hann", "kaiser", "nuttall",
]


def _checks(name, M, dtype, layout):
    """PyTorch's checks shared by every window (its messages: ValueError)."""
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not _torch.strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (_torch.float32, _torch.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")


def _dtype(dtype):
    return _torch.get_default_dtype() if dtype is None else dtype


def _trivial(M, dtype, layout, device, requires_grad):
    """The window of length 0 or 1 (None for longer ones)."""
    if M == 0:
        return _torch.empty((0,), dtype=dtype, layout=layout, device=device,
                            requires_grad=requires_grad)
    return None


def _span(M, sym):
    """The denominator of the sample spacing: M - 1 points apart if symmetric, M if
    periodic (a window of M + 1 points with the last dropped)."""
    return M if not sym and M > 1 else M - 1


def _points(start, end, M, dtype, layout, device, requires_grad):
    return _torch.linspace(start=start, end=end, steps=M, dtype=dtype, layout=layout,
                           device=device, requires_grad=requires_grad)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=_torch.strided,
                device=None, requires_grad=False):
    """The exponential (Poisson) window ``w_n = exp(-|n - c| / tau)``, c = ``center``
    (default (M - 1) / 2, or M / 2 when ``sym=False``; only the periodic window takes a
    center).

    >>> import autograd_core as torch
    >>> torch.signal.windows.exponential(4)
    tensor([0.2231, 0.6065, 0.6065, 0.2231])
    """
    dtype = _dtype(dtype)
    _checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _trivial(M, dtype, layout, device, requires_grad)
    if center is None:
        center = _span(M, sym) / 2.0
    scale = 1 / tau
    k = _points(-center * scale, (-center + (M - 1)) * scale, M, dtype, layout, device,
                requires_grad)
    return _torch.exp(-_torch.abs(k))


def cosine(M, *, sym=True, dtype=None, layout=_torch.strided, device=None,
           requires_grad=False):
    """The cosine (sine) window w_n = sin(pi (n + 0.5) / M), as SciPy's.

    >>> import autograd_core as torch
    >>> torch.signal.windows.cosine(4)
    tensor([0.3827, 0.9239, 0.9239, 0.3827])
    """
    dtype = _dtype(dtype)
    _checks("cosine", M, dtype, layout)
    if M == 0:
        return _trivial(M, dtype, layout, device, requires_grad)
    step = math.pi / (M + 1 if not sym and M > 1 else M)
    k = _points(0.5 * step, (0.5 + (M - 1)) * step, M, dtype, layout, device, requires_grad)
    return _torch.sin(k)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=_torch.strided, device=None,
             requires_grad=False):
    """The Gaussian window w_n = exp(-(n - (M - 1) / 2)^2 / (2 std^2)).

    >>> import autograd_core as torch
    >>> torch.signal.windows.gaussian(4)
    tensor([0.3247, 0.8825, 0.8825, 0.3247])
    """
    dtype = _dtype(dtype)
    _checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _trivial(M, dtype, layout, device, requires_grad)
    start = -_span(M, sym) / 2.0
    scale = 1 / (std * math.sqrt(2))
    k = _points(start * scale, (start + (M - 1)) * scale, M, dtype, layout, device,
                requires_grad)
    return _torch.exp(-(k ** 2))


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=_torch.strided, device=None,
           requires_grad=False):
    """The Kaiser window w_n = I0(beta sqrt(1 - ((n - N/2) / (N/2))^2)) / I0(beta),
    N = M - 1 (M when ``sym=False``); I0 is ``torch.i0``.

    >>> import autograd_core as torch
    >>> torch.signal.windows.kaiser(4, beta=2.0)
    tensor([0.4387, 0.9243, 0.9243, 0.4387])
    """
    dtype = _dtype(dtype)
    _checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M == 0:
        return _trivial(M, dtype, layout, device, requires_grad)
    if M == 1:
        return _torch.ones((1,), dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)
    # beta as a tensor of the window's dtype: the end point below is clamped to it, so
    # rounding cannot take beta^2 - k^2 below zero (NaN)
    beta = _torch.tensor(beta, dtype=dtype, device=device)
    start = -beta
    step = 2.0 * beta / (M if not sym else M - 1)
    end = _torch.minimum(beta, start + (M - 1) * step)
    k = _points(start, end, M, dtype, layout, device, requires_grad)
    return _torch.i0(_torch.sqrt(beta * beta - _torch.pow(k, 2))) / _torch.i0(beta)


def general_cosine(M, *, a, sym=True, dtype=None, layout=_torch.strided, device=None,
                   requires_grad=False):
    """The generalised cosine window w_n = sum_i (-1)^i a_i cos(2 pi i n / (M - 1)).

    >>> import autograd_core as torch
    >>> torch.signal.windows.general_cosine(4, a=[0.5, 0.5])
    tensor([0.0000, 0.7500, 0.7500, 0.0000])
    """
    dtype = _dtype(dtype)
    _checks("general_cosine", M, dtype, layout)
    if M == 0:
        return _trivial(M, dtype, layout, device, requires_grad)
    if M == 1:
        return _torch.ones((1,), dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    step = 2 * math.pi / (M if not sym else M - 1)
    k = _points(0, (M - 1) * step, M, dtype, layout, device, requires_grad)
    coefficients = _torch.tensor([(-1) ** i * w for i, w in enumerate(a)], device=device,
                                 dtype=dtype, requires_grad=requires_grad)
    i = _torch.arange(coefficients.shape[0], dtype=coefficients.dtype,
                      device=coefficients.device, requires_grad=coefficients.requires_grad)
    return (coefficients.unsqueeze(-1) * _torch.cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=_torch.strided,
                    device=None, requires_grad=False):
    """The generalised Hamming window w_n = alpha - (1 - alpha) cos(2 pi n / (M - 1)).

    >>> import autograd_core as torch
    >>> torch.signal.windows.general_hamming(4, alpha=0.5)
    tensor([0.0000, 0.7500, 0.7500, 0.0000])
    """
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=_torch.strided, device=None,
            requires_grad=False):
    """The Hamming window w_n = 0.54 - 0.46 cos(2 pi n / (M - 1)).

    >>> import autograd_core as torch
    >>> torch.signal.windows.hamming(4)
    tensor([0.0800, 0.7700, 0.7700, 0.0800])
    """
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=_torch.strided, device=None,
         requires_grad=False):
    """The Hann window w_n = 0.5 - 0.5 cos(2 pi n / (M - 1)) = sin^2(pi n / (M - 1)).

    >>> import autograd_core as torch
    >>> torch.signal.windows.hann(5)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=_torch.strided, device=None,
             requires_grad=False):
    """The Blackman window
    w_n = 0.42 - 0.5 cos(2 pi n / (M - 1)) + 0.08 cos(4 pi n / (M - 1)).

    >>> import autograd_core as torch
    >>> torch.signal.windows.blackman(3)
    tensor([-1.4901e-08,  1.0000e+00, -1.4901e-08])
    """
    dtype = _dtype(dtype)
    _checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=_torch.strided, device=None,
             requires_grad=False):
    """The triangular Bartlett window ``w_n = 1 - |2n / (M - 1) - 1|``.

    >>> import autograd_core as torch
    >>> torch.signal.windows.bartlett(4)
    tensor([0.0000, 0.6667, 0.6667, 0.0000])
    """
    dtype = _dtype(dtype)
    _checks("bartlett", M, dtype, layout)
    if M == 0:
        return _trivial(M, dtype, layout, device, requires_grad)
    if M == 1:
        return _torch.ones((1,), dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)
    step = 2 / (M if not sym else M - 1)
    k = _points(-1, -1 + (M - 1) * step, M, dtype, layout, device, requires_grad)
    return 1 - _torch.abs(k)


def nuttall(M, *, sym=True, dtype=None, layout=_torch.strided, device=None,
            requires_grad=False):
    """The minimum 4-term Blackman-Harris window of Nuttall:
    w_n = 0.3635819 - 0.4891775 cos(z) + 0.1365995 cos(2z) - 0.0106411 cos(3z),
    z = 2 pi n / (M - 1).

    >>> import autograd_core as torch
    >>> torch.signal.windows.nuttall(3)
    tensor([3.6280e-04, 1.0000e+00, 3.6280e-04])
    """
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)
