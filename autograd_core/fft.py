"""Discrete Fourier transforms, as ``torch.fft``.

The transforms (``fft``, ``ifft``, ``rfft``, ``irfft``, ``hfft``, ``ihfft`` and their
``2``/``n`` variants) are thin compositions of three primitives, as PyTorch's are:
``_fft_r2c``, ``_fft_c2r`` and ``_fft_c2c`` (ops/spectral.pyx), after PyTorch's argument
handling (dtype promotion, ``n``/``s`` zero-padding or trimming, ``dim``, ``norm``).
float32 and complex64 are computed in single precision. Autograd through them waits for
complex autograd: a transform of a tensor that requires grad raises, naming the function.
The helpers: sample frequencies (``fftfreq``, ``rfftfreq``) and the zero-frequency shifts
(``fftshift``, ``ifftshift``).

>>> import autograd_core as torch
>>> torch.fft.fft(torch.tensor([1., 0., 0., 0.]))
tensor([1.+0.j, 1.+0.j, 1.+0.j, 1.-0.j])
>>> torch.fft.fftfreq(4)
tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
>>> torch.fft.fftshift(torch.fft.fftfreq(4))
tensor([-0.5000, -0.2500,  0.0000,  0.2500])
"""
from __future__ import annotations
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

import numpy as np

import autograd_core as _torch
from autograd_core._autocast import autocast_args as _autocast_args
from autograd_core._core import tensor as _core
from autograd_core._core import dtype as _core_dtype
from autograd_core._core.tensor import Tensor
from autograd_core.ops import spectral as _spectral
from autograd_core.overrides import _handle_call, _overrides

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2",
           "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn",
           "fftfreq", "fftshift", "ifftshift", "rfftfreq"]


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


def fftfreq(n: int, d: float = 1.0, *, out: Tensor | None = None, dtype: Any = None,
            layout: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """The sample frequencies of a signal of size n sampled every d: ``[0, 1, ...,
    (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``, in the order ``fft`` returns them.

    >>> import autograd_core as torch
    >>> torch.fft.fftfreq(5)
    tensor([ 0.0000,  0.2000,  0.4000, -0.4000, -0.2000])
    """
    return _frequencies("fftfreq", n, d, out, dtype, layout, device, requires_grad,
                        lambda n: n, _fftfreq_counts)


def rfftfreq(n: int, d: float = 1.0, *, out: Tensor | None = None, dtype: Any = None,
             layout: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
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
        raise _core.not_tensor_error(f"fft_{fname}", "input", 1, input)
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


def fftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """input with its zero-frequency term moved to the centre along dim (all dimensions
    if None): a ``roll`` by ``size // 2``, differentiable as one.

    >>> import autograd_core as torch
    >>> torch.fft.fftshift(torch.arange(5))
    tensor([3, 4, 0, 1, 2])
    """
    return _shift("fftshift", input, dim, lambda size: size // 2)


def ifftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """The inverse of ``fftshift``: a ``roll`` by ``(size + 1) // 2``.

    >>> import autograd_core as torch
    >>> torch.fft.ifftshift(torch.fft.fftshift(torch.arange(5)))
    tensor([0, 1, 2, 3, 4])
    """
    return _shift("ifftshift", input, dim, lambda size: (size + 1) // 2)


# ---------------------------------------------------------------- the transforms

def _overridable(fn: _F) -> _F:
    """fn, handing a call whose input overrides __torch_function__ (a tensor subclass,
    vmap's BatchedTensor) to the protocol, as PyTorch's Python bindings do (Note
    [__torch_function__ in the wrappers]). Under CPU autocast, the transforms PyTorch
    lists run in float32 (Note [Autocast])."""
    op_name = "fft_" + fn.__name__

    def wrapper(input, *args, **kwargs):
        if type(input) is not Tensor and _overrides(input):
            return _handle_call(wrapper, (input,) + args, kwargs)
        input, = _autocast_args(op_name, input)
        return fn(input, *args, **kwargs)
    wrapper.__name__ = wrapper.__qualname__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    wrapper.__module__ = fn.__module__
    return wrapper  # type: ignore[return-value]


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _check_args(fname, input, norm):
    """PyTorch's argument parser's TypeErrors for input and norm."""
    if not isinstance(input, Tensor):
        raise _core.not_tensor_error(f"fft_{fname}", "input", 1, input)
    if norm is not None and not isinstance(norm, str):
        raise TypeError(f"fft_{fname}(): argument 'norm' must be str, not {type(norm).__name__}")


def _check_1d(fname, input, n, dim, norm):
    _check_args(fname, input, norm)
    if n is not None and not _is_int(n):
        raise TypeError(f"fft_{fname}(): argument 'n' must be int, not {type(n).__name__}")
    if not _is_int(dim):
        raise TypeError(f"fft_{fname}(): argument 'dim' must be int, not {type(dim).__name__}")


def _int_list(fname, argname, v):
    """An int[1]? argument: None, an int, or a sequence of ints."""
    if v is None:
        return None
    if _is_int(v):
        return [int(v)]
    if isinstance(v, (tuple, list, _torch.Size)) and all(_is_int(x) for x in v):
        return [int(x) for x in v]
    raise TypeError(f"fft_{fname}(): argument '{argname}' must be tuple of ints, not "
                    f"{type(v).__name__}")


def _check_nd(fname, input, s, dim, norm):
    _check_args(fname, input, norm)
    return _int_list(fname, "s", s), _int_list(fname, "dim", dim)


def _check_out(fname, out, want_complex):
    if out is None:
        return
    if not isinstance(out, Tensor):
        raise _core.not_tensor_error(f"fft_{fname}", "out", 0, out)
    if want_complex and not out.is_complex():
        raise RuntimeError(f"{fname} expects a complex output tensor, but got "
                           f"{_spectral.scalar_type_name(out)}")
    if not want_complex and out.is_complex():
        raise RuntimeError(f"{fname} expects a floating point output tensor, but got "
                           f"{_spectral.scalar_type_name(out)}")


def _run(op, x, dims, norm, flag, out):
    # the primitive, through its out= when out is given (its checks and resizing)
    if out is None:
        return op(x, dims, norm, flag)
    return op(x, dims, norm, flag, out=out)


def _r2c_conj(x, dims, mode, onesided, out):
    """The conjugate of the forward real-to-complex transform (ifft of a real tensor,
    ihfft): a lazily conjugated view, as PyTorch's (is_conj()); with out,
    conj_physical's out=, which wants the result's dtype exactly."""
    if out is None:
        return _torch.conj(_torch._fft_r2c(x, dims, mode, onesided))
    want = _torch.empty(0, dtype=_torch.complex64 if x.dtype == _torch.float32
                        else _torch.complex128)
    if out.dtype != want.dtype:
        raise RuntimeError(f"Found dtype {_spectral.scalar_type_name(out)} but expected "
                           f"{_spectral.scalar_type_name(want)}")
    _torch._fft_r2c(x, dims, mode, onesided, out=out)
    out.imag.neg_()
    return out


def _r2c(fname, input, n, dim, norm, forward, onesided, out):
    # PyTorch's fft_r2c: real input; the inverse direction is the conjugate of the
    # forward transform with the inverse's scaling
    if input.is_complex():
        raise RuntimeError(f"{fname} expects a real input tensor, but got "
                           f"{_spectral.scalar_type_name(input)}")
    _check_out(fname, out, True)
    x = _spectral.promote_fft(input, False)
    d = _spectral.fft_dim(x, dim)
    size = n if n is not None else x.shape[d]
    if size < 1:
        raise RuntimeError(f"Invalid number of data points ({size}) specified")
    if n is not None:
        x = _spectral.resize_fft_input(x, [d], [size])
    mode = _spectral.norm_from_string(norm, forward)
    if not forward:
        return _r2c_conj(x, [d], mode, onesided, out)
    return _run(_torch._fft_r2c, x, [d], mode, onesided, out)


def _c2r(fname, input, n, dim, norm, forward, out):
    # PyTorch's fft_c2r: the input is the onesided half of a Hermitian spectrum; hfft
    # (forward) transforms its conjugate
    _check_out(fname, out, False)
    x = _spectral.promote_fft(input, True)
    d = _spectral.fft_dim(x, dim)
    size = n if n is not None else 2 * (x.shape[d] - 1)
    if size < 1:
        raise RuntimeError(f"Invalid number of data points ({size}) specified")
    if n is not None:
        x = _spectral.resize_fft_input(x, [d], [size // 2 + 1])
    mode = _spectral.norm_from_string(norm, forward)
    if forward:
        x = _torch.conj(x)
    return _run(_torch._fft_c2r, x, [d], mode, size, out)


def _c2c(fname, input, n, dim, norm, forward, out):
    if not input.is_complex():
        raise RuntimeError(f"{fname} expects a complex input tensor, but got "
                           f"{_spectral.scalar_type_name(input)}")
    d = _spectral.fft_dim(input, dim)
    size = n if n is not None else input.shape[d]
    if size < 1:
        raise RuntimeError(f"Invalid number of data points ({size}) specified")
    x = input
    if n is not None:
        x = _spectral.resize_fft_input(x, [d], [size])
    mode = _spectral.norm_from_string(norm, forward)
    _check_out(fname, out, True)
    return _run(_torch._fft_c2c, x, [d], mode, forward, out)


@_overridable
def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
        out: Tensor | None = None) -> Tensor:
    """The one-dimensional discrete Fourier transform of input along dim, zero-padded or
    trimmed to n points; norm "backward" (default: no scaling), "forward" (1/n) or
    "ortho" (1/sqrt(n)). Real input gives the full complex spectrum.

    >>> import autograd_core as torch
    >>> torch.fft.fft(torch.tensor([1., 2., 3., 4.]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    _check_1d("fft", input, n, dim, norm)
    if input.is_complex():
        return _c2c("fft", input, n, dim, norm, True, out)
    return _r2c("fft", input, n, dim, norm, True, False, out)


@_overridable
def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The inverse of ``fft``: by default scaled by 1/n.

    >>> import autograd_core as torch
    >>> torch.fft.ifft(torch.fft.fft(torch.tensor([1., 2., 3.]))).real
    tensor([1., 2., 3.])
    """
    _check_1d("ifft", input, n, dim, norm)
    if input.is_complex():
        return _c2c("ifft", input, n, dim, norm, False, out)
    return _r2c("ifft", input, n, dim, norm, False, False, out)


@_overridable
def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The Fourier transform of a real signal: only the n // 2 + 1 non-negative
    frequencies (the others are their complex conjugates).

    >>> import autograd_core as torch
    >>> torch.fft.rfft(torch.tensor([1., 2., 3., 4.]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j])
    """
    _check_1d("rfft", input, n, dim, norm)
    return _r2c("rfft", input, n, dim, norm, True, True, out)


@_overridable
def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The inverse of ``rfft``: a real signal of n points (default 2 * (size - 1)) from
    its non-negative frequencies.

    >>> import autograd_core as torch
    >>> torch.fft.irfft(torch.fft.rfft(torch.tensor([1., 2., 3., 4.])))
    tensor([1., 2., 3., 4.])
    """
    _check_1d("irfft", input, n, dim, norm)
    return _c2r("irfft", input, n, dim, norm, False, out)


@_overridable
def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The Fourier transform of a Hermitian-symmetric signal given by its first half: a
    real spectrum of n points (default 2 * (size - 1)).

    >>> import autograd_core as torch
    >>> torch.fft.hfft(torch.tensor([1., 0.5, 0.]))
    tensor([2., 1., 0., 1.])
    """
    _check_1d("hfft", input, n, dim, norm)
    return _c2r("hfft", input, n, dim, norm, True, out)


@_overridable
def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The inverse of ``hfft``: the first half of the Hermitian spectrum of a real
    signal, scaled by 1/n by default.

    >>> import autograd_core as torch
    >>> torch.fft.ihfft(torch.tensor([2., 1., 0., 1.]))
    tensor([1.0000-0.j, 0.5000-0.j, 0.0000-0.j])
    """
    _check_1d("ihfft", input, n, dim, norm)
    return _r2c("ihfft", input, n, dim, norm, False, True, out)


# n-dimensional

def _fftn_c2c(fname, input, s, dim, norm, forward, out):
    shape, dims = _spectral.canonicalize_fft_shape_and_dim(input, s, dim)
    x = _spectral.promote_fft(input, True)
    x = _spectral.resize_fft_input(x, dims, shape)
    _check_out(fname, out, True)
    return _run(_torch._fft_c2c, x, dims, _spectral.norm_from_string(norm, forward), forward,
                out)


def _c2r_shape_and_dim(fname, input, s, dim):
    # PyTorch's canonicalize_fft_c2r_shape_and_dim_args: the last dim's output size and
    # the input sizes (its onesided half) to resize to
    shape, dims = _spectral.canonicalize_fft_shape_and_dim(input, s, dim)
    if not shape:
        raise RuntimeError(f"{fname} must transform at least one axis")
    if s is None or s[-1] == -1:
        last = 2 * (input.shape[dims[-1]] - 1)
    else:
        last = shape[-1]
    if last < 1:
        raise RuntimeError(f"Invalid number of data points ({last}) specified")
    shape[-1] = last // 2 + 1
    return shape, dims, last


def _irfftn(fname, input, s, dim, norm, out):
    shape, dims, last = _c2r_shape_and_dim(fname, input, s, dim)
    x = _spectral.resize_fft_input(_spectral.promote_fft(input, True), dims, shape)
    _check_out(fname, out, False)
    return _run(_torch._fft_c2r, x, dims, _spectral.norm_from_string(norm, False), last, out)


def _hfftn(fname, input, s, dim, norm, out):
    shape, dims, last = _c2r_shape_and_dim(fname, input, s, dim)
    x = _spectral.resize_fft_input(_spectral.promote_fft(input, True), dims, shape)
    mode = _spectral.norm_from_string(norm, True)
    if len(dims) > 1:
        x = _torch._fft_c2c(x, dims[:-1], mode, True)
    _check_out(fname, out, False)
    return _run(_torch._fft_c2r, _torch.conj(x), dims[-1:], mode, last, out)


def _rfftn(fname, input, s, dim, norm, out):
    if input.is_complex():
        raise RuntimeError(f"{fname} expects a real-valued input tensor, but got "
                           f"{_spectral.scalar_type_name(input)}")
    shape, dims = _spectral.canonicalize_fft_shape_and_dim(input, s, dim)
    if not shape:
        raise RuntimeError(f"{fname} must transform at least one axis")
    x = _spectral.resize_fft_input(_spectral.promote_fft(input, False), dims, shape)
    _check_out(fname, out, True)
    return _run(_torch._fft_r2c, x, dims, _spectral.norm_from_string(norm, True), True, out)


def _ihfftn(fname, input, s, dim, norm, out):
    shape, dims = _spectral.canonicalize_fft_shape_and_dim(input, s, dim)
    if not shape:
        raise RuntimeError(f"{fname} must transform at least one axis")
    x = _spectral.resize_fft_input(_spectral.promote_fft(input, False), dims, shape)
    mode = _spectral.norm_from_string(norm, False)
    _check_out(fname, out, True)
    if len(dims) == 1:
        return _r2c_conj(x, dims, mode, True, out)
    half = _torch.conj(_torch._fft_r2c(x, dims[-1:], mode, True))
    return _run(_torch._fft_c2c, half, dims[:-1], mode, False, out)


_LAST_TWO = (-2, -1)


@_overridable
def fftn(input: Tensor, s: Sequence[int] | None = None,
         dim: int | Sequence[int] | None = None, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The n-dimensional Fourier transform over dim (default: all dims, or the last
    len(s)), each zero-padded or trimmed to s.

    >>> import autograd_core as torch
    >>> torch.fft.fftn(torch.ones(2, 2))
    tensor([[4.+0.j, 0.+0.j],
            [0.+0.j, 0.+0.j]])
    """
    s, dim = _check_nd("fftn", input, s, dim, norm)
    return _fftn_c2c("fftn", input, s, dim, norm, True, out)


@_overridable
def ifftn(input: Tensor, s: Sequence[int] | None = None,
          dim: int | Sequence[int] | None = None, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The inverse of ``fftn``.

    >>> import autograd_core as torch
    >>> torch.fft.ifftn(torch.fft.fftn(torch.eye(2))).real
    tensor([[1., 0.],
            [0., 1.]])
    """
    s, dim = _check_nd("ifftn", input, s, dim, norm)
    return _fftn_c2c("ifftn", input, s, dim, norm, False, out)


@_overridable
def rfftn(input: Tensor, s: Sequence[int] | None = None,
          dim: int | Sequence[int] | None = None, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The n-dimensional Fourier transform of a real tensor, onesided in the last dim.

    >>> import autograd_core as torch
    >>> torch.fft.rfftn(torch.ones(2, 4)).shape
    autograd_core.Size([2, 3])
    """
    s, dim = _check_nd("rfftn", input, s, dim, norm)
    return _rfftn("rfftn", input, s, dim, norm, out)


@_overridable
def irfftn(input: Tensor, s: Sequence[int] | None = None,
           dim: int | Sequence[int] | None = None, norm: str | None = None, *,
           out: Tensor | None = None) -> Tensor:
    """The inverse of ``rfftn``: a real tensor (its last transformed dim of s[-1], by
    default 2 * (size - 1), points).

    >>> import autograd_core as torch
    >>> torch.fft.irfftn(torch.fft.rfftn(torch.eye(2)))
    tensor([[1., 0.],
            [0., 1.]])
    """
    s, dim = _check_nd("irfftn", input, s, dim, norm)
    return _irfftn("irfftn", input, s, dim, norm, out)


@_overridable
def hfftn(input: Tensor, s: Sequence[int] | None = None,
          dim: int | Sequence[int] | None = None, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The n-dimensional Fourier transform of a Hermitian-symmetric signal given by its
    half in the last dim: a real tensor.

    >>> import autograd_core as torch
    >>> torch.fft.hfftn(torch.ones(2, 2)).shape
    autograd_core.Size([2, 2])
    """
    s, dim = _check_nd("hfftn", input, s, dim, norm)
    return _hfftn("hfftn", input, s, dim, norm, out)


@_overridable
def ihfftn(input: Tensor, s: Sequence[int] | None = None,
           dim: int | Sequence[int] | None = None, norm: str | None = None, *,
           out: Tensor | None = None) -> Tensor:
    """The inverse of ``hfftn``: the onesided Hermitian spectrum of a real tensor.

    >>> import autograd_core as torch
    >>> torch.fft.ihfftn(torch.ones(2, 2))
    tensor([[1.-0.j, 0.-0.j],
            [0.+0.j, 0.+0.j]])
    """
    s, dim = _check_nd("ihfftn", input, s, dim, norm)
    return _ihfftn("ihfftn", input, s, dim, norm, out)


@_overridable
def fft2(input: Tensor, s: Sequence[int] | None = None,
         dim: Sequence[int] = _LAST_TWO, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """``fftn`` over the last two dims by default.

    >>> import autograd_core as torch
    >>> torch.fft.fft2(torch.ones(2, 2))[0, 0]
    tensor(4.+0.j)
    """
    s, dim = _check_nd("fft2", input, s, dim, norm)
    return _fftn_c2c("fftn", input, s, dim, norm, True, out)


@_overridable
def ifft2(input: Tensor, s: Sequence[int] | None = None,
          dim: Sequence[int] = _LAST_TWO, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """``ifftn`` over the last two dims by default.

    >>> import autograd_core as torch
    >>> torch.fft.ifft2(torch.ones(2, 2))[0, 0]
    tensor(1.+0.j)
    """
    s, dim = _check_nd("ifft2", input, s, dim, norm)
    return _fftn_c2c("ifftn", input, s, dim, norm, False, out)


@_overridable
def rfft2(input: Tensor, s: Sequence[int] | None = None,
          dim: Sequence[int] = _LAST_TWO, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """``rfftn`` over the last two dims by default.

    >>> import autograd_core as torch
    >>> torch.fft.rfft2(torch.ones(2, 4)).shape
    autograd_core.Size([2, 3])
    """
    s, dim = _check_nd("rfft2", input, s, dim, norm)
    return _rfftn("rfftn", input, s, dim, norm, out)


@_overridable
def irfft2(input: Tensor, s: Sequence[int] | None = None,
           dim: Sequence[int] = _LAST_TWO, norm: str | None = None, *,
           out: Tensor | None = None) -> Tensor:
    """``irfftn`` over the last two dims by default.

    >>> import autograd_core as torch
    >>> torch.fft.irfft2(torch.fft.rfft2(torch.eye(2)))
    tensor([[1., 0.],
            [0., 1.]])
    """
    s, dim = _check_nd("irfft2", input, s, dim, norm)
    return _irfftn("irfftn", input, s, dim, norm, out)


@_overridable
def hfft2(input: Tensor, s: Sequence[int] | None = None,
          dim: Sequence[int] = _LAST_TWO, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """``hfftn`` over the last two dims by default.

    >>> import autograd_core as torch
    >>> torch.fft.hfft2(torch.ones(2, 2)).shape
    autograd_core.Size([2, 2])
    """
    s, dim = _check_nd("hfft2", input, s, dim, norm)
    return _hfftn("hfftn", input, s, dim, norm, out)


@_overridable
def ihfft2(input: Tensor, s: Sequence[int] | None = None,
           dim: Sequence[int] = _LAST_TWO, norm: str | None = None, *,
           out: Tensor | None = None) -> Tensor:
    """``ihfftn`` over the last two dims by default.

    >>> import autograd_core as torch
    >>> torch.fft.ihfft2(torch.ones(2, 2))[0, 0]
    tensor(1.-0.j)
    """
    s, dim = _check_nd("ihfft2", input, s, dim, norm)
    return _ihfftn("ihfftn", input, s, dim, norm, out)
