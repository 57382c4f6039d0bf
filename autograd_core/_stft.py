"""The short-time Fourier transform and its inverse, ``torch.stft`` and ``torch.istft``
(and the Tensor methods), composed as PyTorch's: frames as a strided view of the
(centre-padded) signal times the window, one ``_fft_r2c``/``_fft_c2c`` over the frames;
the inverse one ``_fft_c2r``/``_fft_c2c``, the windowed frames overlap-added
(``unfold_backward``) and divided by the overlap-added squared window. Checks,
messages and warnings are PyTorch's (SpectralOps.cpp's, with the signature it prints).

>>> import autograd_core as torch
>>> x = torch.arange(8.)
>>> X = torch.stft(x, 4, window=torch.hann_window(4), return_complex=True)
>>> X.shape
autograd_core.Size([3, 9])
>>> torch.istft(X, 4, window=torch.hann_window(4))
tensor([0., 1., 2., 3., 4., 5., 6., 7.])
"""
import inspect
import warnings

import autograd_core as _torch
from autograd_core._autocast import autocast_args as _autocast_args
from autograd_core._core import tensor as _core
from autograd_core._core.opcall import op_call as _op_call
from autograd_core._core.tensor import Tensor
from autograd_core.ops import spectral as _spectral

# PyTorch's TORCH_WARN_ONCE: each of these warnings is given once per process
_WARNED = set()

_NO_WINDOW_STFT = (
    "A window was not provided. A rectangular window will be applied,which is known to cause "
    "spectral leakage. Other windows such as autograd_core.hann_window or "
    "autograd_core.hamming_window are recommended to reduce spectral leakage.To suppress this warning and use a rectangular "
    "window, explicitly set `window=autograd_core.ones(n_fft, device=<device>)`.")
_NO_WINDOW_ISTFT = (
    "A window was not provided. A rectangular window will be applied.Please provide the same "
    "window used by stft to make the inversion lossless.To suppress this warning and use a "
    "rectangular window, explicitly set `window=autograd_core.ones(n_fft, device=<device>)`.")
_REAL_RESULT = (
    "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
    "return complex tensors for all inputs, and return_complex=False will raise an error.\n"
    "Note: you can still call autograd_core.view_as_real on the complex output to recover "
    "the old return format.")
_SHORT_SIGNAL = (
    "The length of signal is shorter than the length parameter. Result is being padded with "
    "zeros in the tail. Please check your center and hop_length settings.")

# the scalar types c10's toString() names by their legacy tensor class
_LEGACY_NAMES = frozenset(["Float", "Double", "Half", "Int", "Long", "Short", "Char", "Byte"])


def _warn_once(message):
    if message not in _WARNED:
        _WARNED.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def _type_string(t):
    # c10's Tensor::toString(), as PyTorch's stft/istft messages print it
    name = _spectral.scalar_type_name(t)
    return f"autograd_core.{name}Tensor" if name in _LEGACY_NAMES else f"CPU{name}Type"


def _opt(v):
    return "None" if v is None else str(int(v))


def _sizes(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def _window_repr(window):
    return "None" if window is None else f"{_type_string(window)}{{{_sizes(window)}}}"


# Note [stft's argument errors]
# torch.stft is Python: it pads the signal (center) and then calls _VF.stft with nine
# positional arguments, whose parser has two overloads; an argument of a wrong type
# gives the parser's "invalid combination" error, which marks each argument the
# overload's signature does not take and every argument given for a parameter with a
# default (found by experiment; split's overloads mark theirs so too). torch.istft is the binding itself (one signature): its
# errors name the argument, with its position when it was passed by position.

_STFT_OVERLOADS = (
    " * (Tensor input, int n_fft, int hop_length = None, int win_length = None, Tensor window "
    "= None, bool center = True, str pad_mode = \"reflect\", bool normalized = False, bool "
    "onesided = None, bool return_complex = None, bool align_to_window = None)\n"
    " * (Tensor input, int n_fft, int hop_length = None, int win_length = None, Tensor window "
    "= None, bool normalized = False, bool onesided = None, bool return_complex = None, bool "
    "align_to_window = None)\n")
_STFT_KINDS = ("Tensor", "int", "int?", "int?", "Tensor?", "bool", "bool?", "bool?", "bool?")
# the first overload's (center, pad_mode, normalized, onesided in the last four places)
_STFT_CENTER_KINDS = _STFT_KINDS[:5] + ("bool", "str", "bool", "bool?")
_ISTFT_PARAMS = (("input", "Tensor"), ("n_fft", "int"), ("hop_length", "int?"),
                 ("win_length", "int?"), ("window", "Tensor?"), ("center", "bool"),
                 ("normalized", "bool"), ("onesided", "bool?"), ("length", "int?"),
                 ("return_complex", "bool"))


def _takes(kind, v):
    """Whether PyTorch's parser takes v for an argument of kind ('int?': or None)."""
    if v is None:
        return kind.endswith("?")
    kind = kind.rstrip("?")
    if kind == "Tensor":
        return isinstance(v, Tensor)
    if kind == "bool":
        return type(v) is bool
    if kind == "str":
        return isinstance(v, str)
    return type(v) is not bool and not isinstance(v, float) and hasattr(v, "__index__")


def _parser_type_name(v):
    if isinstance(v, Tensor):
        return "Tensor"
    if type(v) is list:
        return "list of [" + ", ".join(_parser_type_name(e) for e in v) + "]"
    return type(v).__name__


def _check_stft_args(args):
    """_VF.stft's parse of its nine positional arguments (Note [stft's argument errors]):
    True when they fit the first overload only (a str onesided: its pad_mode, leaving
    return_complex unset)."""
    if all(_takes(k, v) for k, v in zip(_STFT_KINDS, args)):
        return False
    if all(_takes(k, v) for k, v in zip(_STFT_CENTER_KINDS, args)):
        return True
    names = ["Tensor" if isinstance(v, Tensor) else type(v).__name__ for v in args]
    marked = ", ".join(n if i < 2 and _takes(k, v) else f"!{_parser_type_name(v)}!"
                       for i, (n, k, v) in enumerate(zip(names, _STFT_KINDS, args)))
    raise TypeError(
        f"stft() received an invalid combination of arguments - got ({', '.join(names)}), "
        f"but expected one of:\n{_STFT_OVERLOADS}      didn't match because some of the "
        f"arguments have invalid types: ({marked})\n")


def _check_istft_args(args, kwargs):
    """_VF.istft's parse (Note [stft's argument errors]; the method's positions count
    self too)."""
    for i, (name, kind) in enumerate(_ISTFT_PARAMS):
        if i < len(args):
            v, at = args[i], f" (position {i + 1})"
        elif name in kwargs:
            v, at = kwargs[name], ""
        else:
            continue
        if not _takes(kind, v):
            raise TypeError(f"istft(): argument '{name}'{at} must be {kind.rstrip('?')}, "
                            f"not {type(v).__name__}")


def _centre_window(window, n_fft, win_length, like):
    """The window zero-padded on both sides to n_fft points (a window of ones if None)."""
    if window is None:
        window = _torch.ones(win_length, dtype=like.dtype)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = _pad(window, [left, n_fft - win_length - left], "constant")
    return window


def _pad(x, pad, mode):
    # F.pad; a complex signal padded as its real and imaginary parts (autograd_core's
    # pads take real tensors only)
    pad_fn = _torch.nn.functional.pad
    if x.is_complex():
        return _torch.complex(pad_fn(x.real, pad, mode), pad_fn(x.imag, pad, mode))
    return pad_fn(x, pad, mode)


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
         align_to_window=None):
    """The short-time Fourier transform of a 1-D signal or a batch of them (B, L): the
    Fourier transform of each frame of n_fft points, hop_length apart, times window
    (centred in the frame when win_length < n_fft). center pads the signal by n_fft // 2
    on both sides (pad_mode), so that frame t is centred at t * hop_length. Returns
    (B?, n_fft // 2 + 1 or n_fft, frames); return_complex must be given for real input
    (False, deprecated, gives view_as_real's layout).

    >>> import autograd_core as torch
    >>> X = torch.stft(torch.ones(8), 4, window=torch.ones(4), return_complex=True)
    >>> X[:, 2]
    tensor([4.+0.j, 0.+0.j, 0.+0.j])
    """
    if isinstance(input, Tensor) and (window is None or isinstance(window, Tensor)):
        input, window = _autocast_args("stft", input, window)
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:
        # (PyTorch's Python wrapper pads before the kernel's checks)
        if not isinstance(input, Tensor):
            raise AttributeError(f"'{type(input).__name__}' object has no attribute 'dim'")
        if not isinstance(pad_mode, str):
            raise TypeError(f"pad(): argument 'mode' (position 3) must be str, not "
                            f"{type(pad_mode).__name__}")
        signal_dim = input.dim()
        extended = [1] * (3 - signal_dim) + list(input.shape)
        pad = int(n_fft // 2)
        input = _pad(input.view(extended), [pad, pad], pad_mode)
        input = input.view(input.shape[-signal_dim:] if signal_dim else ())
    if _check_stft_args((input, n_fft, hop_length, win_length, window, normalized, onesided,
                         return_complex, align_to_window)):
        normalized, onesided, return_complex, align_to_window = (
            return_complex, align_to_window, None, None)
    if window is None:
        _warn_once(_NO_WINDOW_STFT)
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    complex_input = input.is_complex() or (window is not None and window.is_complex())
    want_complex = complex_input if return_complex is None else return_complex
    if not want_complex:
        if return_complex is None:
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and "
                "will further require that return_complex=True in a future PyTorch release.")
        _warn_once(_REAL_RESULT)

    def fail(what):
        raise RuntimeError(
            f"stft({_type_string(input)}{_sizes(input)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_repr(window)}, normalized={int(normalized)}, "
            f"onesided={_opt(onesided)}, return_complex={_opt(return_complex)}, "
            f"align_to_window={_opt(align_to_window)}) : {what}")

    if not (input.is_floating_point() or input.is_complex()):
        fail("expected a tensor of floating point or complex values")
    if input.dim() not in (1, 2):
        fail("expected a 1D or 2D tensor")
    x = input.unsqueeze(0) if input.dim() == 1 else input
    length = x.shape[1]
    if n_fft <= 0 or n_fft > length:
        fail(f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        fail(f"expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        fail(f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        fail(f"expected a 1D window tensor of size equal to win_length={win}, but got window "
             f"with size {_sizes(window)}")
    if align_to_window and win < n_fft:
        # frames aligned on the window's start: the n_fft frame begins `left` earlier
        left = (n_fft - win) // 2
        frames = 1 + (length - win) // hop
        x = _pad(x, [left, n_fft - win - left], "constant")
    else:
        frames = 1 + (length - n_fft) // hop
    w = window if window is not None and win == n_fft else (
        _centre_window(window, n_fft, win, x) if window is not None or win < n_fft else None)
    stride = x.stride()
    frames_view = x.as_strided((x.shape[0], frames, n_fft),
                               (stride[0], hop * stride[1], stride[1]), x.storage_offset())
    if w is not None:
        frames_view = frames_view * w
    mode = 1 if normalized else 0
    if frames_view.is_complex():
        sided = False if onesided is None else onesided
        if sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = _torch._fft_c2c(frames_view, [2], mode, True)
    else:
        sided = True if onesided is None else onesided
        out = _torch._fft_r2c(frames_view, [2], mode, sided)
    out = out.transpose(1, 2)
    if input.dim() == 1:
        out = out.squeeze(0)
    return out if want_complex else _torch.view_as_real(out)


def istft(*args, **kwargs):
    _check_istft_args(args, kwargs)
    return _istft(*args, **kwargs)


def _istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
           normalized=False, onesided=None, length=None, return_complex=False):
    """The inverse of ``stft``: the signal whose STFT (with the same arguments) is input,
    by overlap-add of the inverse transforms of the frames divided by the overlap-added
    squared window (which must not vanish: the NOLA condition). length trims or
    zero-pads the result.

    >>> import autograd_core as torch
    >>> x = torch.tensor([1., 2., 3., 4., 5., 6.])
    >>> X = torch.stft(x, 4, 1, window=torch.hann_window(4), return_complex=True)
    >>> torch.istft(X, 4, 1, window=torch.hann_window(4))
    tensor([1., 2., 3., 4., 5., 6.])
    """
    if window is None:
        _warn_once(_NO_WINDOW_ISTFT)
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not input.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")

    def fail(what, sep=" : "):
        raise RuntimeError(
            f"istft({_type_string(input)}{_sizes(input)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_repr(window)}, center={int(center)}, "
            f"normalized={int(normalized)}, onesided={_opt(onesided)}, length={_opt(length)}, "
            f"return_complex={int(return_complex)}){sep}{what}")

    real_dims = input.dim() + 1        # PyTorch checks view_as_real(input)'s dims
    frames = input.shape[-1] if input.dim() >= 1 else 0
    if input.dim() < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-real_dims}, {real_dims - 1}], but got -3)")
    fft_size = input.shape[-2]
    if input.numel() == 0:
        fail("input tensor cannot be empty.")
    if real_dims not in (3, 4):
        fail(f"expected a tensor with 3 or 4 dimensions, but got {real_dims}")
    sided = fft_size != n_fft if onesided is None else onesided
    if sided and n_fft // 2 + 1 != fft_size:
        fail("expected the frequency dimension (3rd to the last) of the input tensor to match "
             f"n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    if not sided and n_fft != fft_size:
        fail("expected the frequency dimension (3rd to the last) of the input tensor to match "
             f"n_fft when onesided=False, but got {fft_size}")
    if not 0 < hop <= win:
        fail("expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        fail("expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        fail("Invalid window shape. window has to be 1D and length of `win_length`")
    real_dtype = _torch.empty(0, dtype=input.dtype).real.dtype
    w = window if window is not None else _torch.ones(win, dtype=real_dtype)
    if win != n_fft:
        left = (n_fft - win) // 2
        w = _pad(w, [left, n_fft - win - left], "constant")
    x = input.unsqueeze(0) if real_dims == 3 else input
    x = x.transpose(1, 2)                 # (channel, frames, fft_size)
    mode = 1 if normalized else 2
    if return_complex:
        if sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        x = _torch._fft_c2c(x, [2], mode, False)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not sided:
            x = x.narrow(-1, 0, n_fft // 2 + 1)
        x = _torch._fft_c2r(x, [2], mode, n_fft)
    expected = n_fft + hop * (frames - 1)
    # overlap-add: unfold's backward (an internal op of the table, as PyTorch's istft uses)
    y = _op_call("unfold_backward", (x * w.view(1, 1, n_fft), [x.shape[0], expected], 1, n_fft,
                                     hop))
    envelope = _op_call("unfold_backward", ((w * w).expand(1, frames, n_fft), [1, expected], 1,
                                            n_fft, hop))
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = expected - n_fft // 2
    else:
        end = expected
    y = y[:, start:end]
    envelope = envelope[:, start:end]
    if bool((envelope.abs().min() < 1e-11).item()):
        fail(f"window overlap add min: 1\n[ CPUBoolType{{}} ]", sep=" ")
    y = y / envelope
    if real_dims == 3:
        y = y.squeeze(0)
    if end > expected:
        _warn_once(_SHORT_SIGNAL)
        y = _pad(y, [0, end - expected], "constant")
    return y


def _stft_method(self, n_fft, hop_length=None, win_length=None, window=None, center=True,
                 pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
                 align_to_window=None):
    return stft(self, n_fft, hop_length, win_length, window, center, pad_mode, normalized,
                onesided, return_complex, align_to_window)


def _istft_method(self, *args, **kwargs):
    _check_istft_args((self,) + args, kwargs)
    return _istft(self, *args, **kwargs)


istft.__doc__ = _istft.__doc__
istft.__signature__ = inspect.signature(_istft)
_istft_method.__signature__ = inspect.signature(_stft_method).replace(parameters=[
    inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + list(
    inspect.signature(_istft).parameters.values())[1:])


_stft_method.__name__ = "stft"
_stft_method.__doc__ = "See autograd_core.stft."
_istft_method.__name__ = "istft"
_istft_method.__doc__ = "See autograd_core.istft."
_core._install_methods({"stft": _stft_method, "istft": _istft_method})
