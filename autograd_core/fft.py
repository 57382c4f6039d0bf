"""Discrete Fourier transform helpers, as ``torch.fft``.

For now this module holds the four real-valued helpers: the sample frequencies
(``fftfreq``, ``rfftfreq``) and the zero-frequency shifts (``fftshift``,
``ifftshift``). The transforms themselves (``fft``, ``rfft``, ``irfft``, ``hfft`` and
their ``2``/``n`` variants) produce or take complex tensors and come with the complex
dtypes.

>>> import autograd_core as torch
>>> torch.fft.fftfreq(4)
tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
>>> torch.fft.fftshift(torch.fft.fftfreq(4))
tensor([-0.5000, -0.2500,  0.0000,  0.2500])
"""
import numpy as np

import autograd_core as _torch
from autograd_core._core import tensor as _core
from autograd_core._core import dtype as _core_dtype

__all__ = ["fftfreq", "fftshift", "ifftshift", "rfftfreq"]


def _check_n_d(fname, n, d):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"fft_{fname}(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    if isinstance(d, bool) or not isinstance(d, (int, float, np.integer, np.floating)):
        raise TypeError(f"fft_{fname}(): argument 'd' (position 2) must be float, not "
                        f"{type(d).__name__}")


def _frequencies(fname, n, d, out, dtype, layout, device, requires_grad, len_of, values):
    """PyTorch's fftfreq/rfftfreq kernel: integer counts (an arange, in the result's
    dtype), times 1 / (n d) rounded to that dtype."""
    _check_n_d(fname, n, d)
    if device is not None:
        _core.check_device(device)
    if out is not None and dtype is None:
        dtype = out.dtype
    dt = _core.to_dtype_py(dtype if dtype is not None else _core_dtype.get_default_dtype())
    size = len_of(int(n))
    if size < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {size}: [{size}]")
    if not dt.is_floating_point:
        raise RuntimeError(f"{fname} requires a floating point or complex dtype")
    counts = values(int(n)).astype(dt.np_dtype)
    with np.errstate(all="ignore"):
        scale = dt.np_dtype.type(1.0 / (n * float(d))) if n * float(d) != 0 else \
            dt.np_dtype.type(np.inf)
        arr = (counts * scale).astype(dt.np_dtype)
    result = _core.from_array(np.ascontiguousarray(arr),
                              requires_grad=requires_grad and out is None)
    if out is None:
        return result
    from autograd_core.ops import view as _view
    return _view.factory_out(f"fft_{fname}", out, dtype, result, requires_grad)


def _fftfreq_counts(n):
    # 0, 1, ..., then the negative frequencies -(n // 2), ..., -1
    return np.concatenate([np.arange((n + 1) // 2), np.arange(-(n // 2), 0)])


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None,
            requires_grad=False):
    """The sample frequencies of a signal of size n sampled every d: ``[0, 1, ...,
    (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``, in the order ``fft`` returns them.

    >>> import autograd_core as torch
    >>> torch.fft.fftfreq(5)
    tensor([ 0.0000,  0.2000,  0.4000, -0.4000, -0.2000])
    """
    return _frequencies("fftfreq", n, d, out, dtype, layout, device, requires_grad,
                        lambda n: n, _fftfreq_counts)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    """The non-negative sample frequencies of ``rfft`` of a signal of size n sampled
    every d: ``[0, 1, ..., n // 2] / (d * n)``.

    >>> import autograd_core as torch
    >>> torch.fft.rfftfreq(5)
    tensor([0.0000, 0.2000, 0.4000])
    """
    return _frequencies("rfftfreq", n, d, out, dtype, layout, device, requires_grad,
                        _rfft_size, lambda n: np.arange(_rfft_size(n)))


def _rfft_size(n):
    # n / 2 + 1 in C++'s integer division (towards zero), as PyTorch sizes it
    return int(n / 2) + 1 if n < 0 else n // 2 + 1


def _shift(fname, input, dim, half):
    if not isinstance(input, _core.Tensor):
        raise TypeError(f"fft_{fname}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, (int, np.integer)) and not isinstance(dim, bool):
        dims = [int(dim)]
    elif isinstance(dim, (tuple, list)) and all(
            isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in dim):
        dims = [int(x) for x in dim]
    else:
        raise TypeError(f"fft_{fname}(): argument 'dim' must be tuple of ints, not "
                        f"{type(dim).__name__}")
    # roll checks the dims (PyTorch's messages); sizes read through its wrapping
    shape = input.shape
    shifts = [half(shape[d if -len(shape) <= d < len(shape) else 0]) if shape else 0
              for d in dims]
    return _torch.roll(input, shifts, dims)


def fftshift(input, dim=None):
    """input with its zero-frequency term moved to the centre along dim (all dimensions
    if None): a ``roll`` by ``size // 2``, differentiable as one.

    >>> import autograd_core as torch
    >>> torch.fft.fftshift(torch.arange(5))
    tensor([3, 4, 0, 1, 2])
    """
    return _shift("fftshift", input, dim, lambda size: size // 2)


def ifftshift(input, dim=None):
    """The inverse of ``fftshift``: a ``roll`` by ``(size + 1) // 2``.

    >>> import autograd_core as torch
    >>> torch.fft.ifftshift(torch.fft.fftshift(torch.arange(5)))
    tensor([0, 1, 2, 3, 4])
    """
    return _shift("ifftshift", input, dim, lambda size: (size + 1) // 2)
