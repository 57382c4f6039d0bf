"""Render tensors as text exactly the way PyTorch does.

This is a numpy-only port of the layout rules in PyTorch's
``torch/_tensor_str.py`` (dense, strided, real-valued tensors): value
formatting (fixed/scientific/integer modes), column alignment, line
wrapping, summarisation with ``...``, complex values (real and imaginary
parts each with their own format, as PyTorch's) and the ``dtype=``/``size=``/
``grad_fn=``/``requires_grad=`` suffixes.  The core hands us the tensor's
values as an ndarray; nothing here knows about autograd.
"""

import dataclasses
import math
from typing import Any

import ml_dtypes
import numpy as np

from autograd_core._core.dtype import get_default_dtype

__all__ = ["get_printoptions", "set_printoptions", "tensor_repr"]

# Tensors of the default float dtype (set_default_dtype) and of these never print a
# ``dtype=`` suffix when they have elements: the values alone identify them.
_IMPLIED_DTYPES = ("int64", "bool")
_PREFIX = "tensor("


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Set the options used when tensors are printed.

    Args:
        precision: digits after the decimal point for floats (default 4).
        threshold: element count above which tensors are summarised with
            ``...`` (default 1000).
        edgeitems: items kept at each end of a summarised dimension
            (default 3).
        linewidth: characters per line before wrapping (default 80).
        profile: ``"default"``, ``"short"`` or ``"full"``; applied first,
            then overridden by any explicit argument.
        sci_mode: ``True``/``False`` forces scientific notation on/off;
            ``None`` lets the values decide.  As in PyTorch, every call
            resets it, so omitting it restores automatic choice.
    """
    if profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(_OPTS, name, value)
    if precision is not None:
        _OPTS.precision = precision
    if threshold is not None:
        _OPTS.threshold = threshold
    if edgeitems is not None:
        _OPTS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTS.linewidth = linewidth
    _OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current print options as a dict.

    The dict can be passed back as ``**kwargs`` to :func:`set_printoptions`.
    """
    return dataclasses.asdict(_OPTS)


class _Formatter:
    """Chooses one number format and column width for a set of values."""

    def __init__(self, values):
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        if not self.floating:
            for value in values.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite = values[np.isfinite(values) & (values != 0)]
        if nonzero_finite.size == 0:
            # Zeros, nans and infs alone print in integer mode, width 1.
            return

        # Measure in float64, as PyTorch does: the max/min ratio can overflow
        # float16 and float32.
        magnitudes = np.abs(nonzero_finite).astype(np.float64)
        smallest = float(magnitudes.min())
        largest = float(magnitudes.max())

        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
        if _OPTS.sci_mode is None:
            self.sci_mode = (
                largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
            )
        else:
            self.sci_mode = _OPTS.sci_mode

        precision = _OPTS.precision
        for value in nonzero_finite.tolist():
            if self.sci_mode:
                width = len(f"{value:.{precision}e}")
            elif self.int_mode:
                # Room for the trailing "." that marks integral floats.
                width = len(f"{value:.0f}") + 1
            else:
                width = len(f"{value:.{precision}f}")
            self.max_width = max(self.max_width, width)

    def format(self, value):
        """Format one Python scalar, right-aligned to the common width."""
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{_OPTS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if not (math.isinf(value) or math.isnan(value)):
                text += "."
        else:
            text = f"{value:.{_OPTS.precision}f}"
        # Values wider than the computed width (nan, inf, -0.) are not cut.
        return (self.max_width - len(text)) * " " + text


def _summarized_values(array):
    """Flatten the elements that survive summarisation, in print order.

    The formatter only sees these, so hidden elements do not affect the
    width or the choice of notation.
    """
    edge = _OPTS.edgeitems
    if array.ndim == 0:
        return array.reshape(1)
    if array.ndim == 1:
        # With edgeitems == 0, array[-0:] is the whole vector, as in PyTorch.
        if array.shape[0] > 2 * edge:
            return np.concatenate((array[:edge], array[-edge:]))
        return array
    if not edge:
        return array.reshape(-1)[:0]
    if array.shape[0] > 2 * edge:
        rows = [array[i] for i in range(edge)]
        rows += [array[i] for i in range(len(array) - edge, len(array))]
    else:
        rows = list(array)
    return np.concatenate([_summarized_values(row) for row in rows])


class _ComplexFormatter:
    """PyTorch's pair of formatters for complex values: one for the real parts, one
    for the imaginary parts, joined as ``a+bj`` (the sign of b decides the joint)."""

    def __init__(self, values):
        self.real = _Formatter(values.real)
        self.imag = _Formatter(values.imag)
        # width of the real part, the imaginary part and its "j"
        self.max_width = self.real.max_width + self.imag.max_width + 1

    def format(self, value):
        real_str = self.real.format(value.real)
        imag_str = (self.imag.format(value.imag) + "j").lstrip()
        if imag_str[0] in "+-":
            return real_str + imag_str
        return real_str + "+" + imag_str


def _formatter(values):
    return _ComplexFormatter(values) if values.dtype.kind == "c" else _Formatter(values)


def _vector_str(array, indent, summarize, formatter):
    # Each element takes its width plus ", ".
    element_length = formatter.max_width + 2
    per_line = max(1, math.floor((_OPTS.linewidth - indent) / element_length))
    edge = _OPTS.edgeitems

    if summarize and not edge:
        data = ["..."]
    elif summarize and array.shape[0] > 2 * edge:
        data = (
            [formatter.format(v) for v in array[:edge].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in array[-edge:].tolist()]
        )
    else:
        data = [formatter.format(v) for v in array.tolist()]

    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(array, indent, summarize, formatter):
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, formatter)

    edge = _OPTS.edgeitems
    if summarize and array.shape[0] > 2 * edge:
        slices = (
            [
                _nested_str(array[i], indent + 1, summarize, formatter)
                for i in range(edge)
            ]
            + ["..."]
            + [
                _nested_str(array[i], indent + 1, summarize, formatter)
                for i in range(len(array) - edge, len(array))
            ]
        )
    else:
        slices = [
            _nested_str(array[i], indent + 1, summarize, formatter)
            for i in range(array.shape[0])
        ]
    # Deeper tensors get more blank lines between their outer blocks.
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _plain(suffix):
    return suffix, len(suffix)


def _add_suffixes(text, suffixes, indent, force_newline=False):
    """Append ``(suffix, layout_length)`` pairs, wrapping like PyTorch (force_newline:
    the first suffix on a line of its own, as PyTorch prints a sparse COO tensor)."""
    parts = [text]
    # PyTorch's arithmetic (it over-counts by 2 on a single line); kept
    # verbatim because it decides where suffixes wrap.
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix, length in suffixes:
        if force_newline or last_line_len + length + 2 > _OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + length
            force_newline = False
        else:
            parts.append(", " + suffix)
            last_line_len += length + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(
    array, dtype_name, *, grad_fn_name=None, requires_grad=False, module="autograd_core",
    tangent=None,
) -> str:
    """Return the ``repr`` PyTorch would print for a tensor.

    Args:
        array: the tensor's values; its numpy dtype decides how they are
            formatted (float kinds as floats, bool as True/False, else ints).
            Any shape, including 0-d, empty and non-contiguous.
        dtype_name: the tensor's dtype name, e.g. ``"float64"``; used for the
            ``dtype=`` suffix, which is omitted for the default dtype
            (float32 unless set_default_dtype changed it), and for int64 and
            bool unless the tensor is empty.
        grad_fn_name: class name of the tensor's grad_fn, e.g.
            ``"MulBackward0"``, printed as ``grad_fn=<MulBackward0>``.
        requires_grad: print ``requires_grad=True`` when there is no grad_fn.
        module: module prefix shown in the dtype, e.g. ``autograd_core.int32``.
        tangent: the tensor's forward-AD tangent (a Tensor) inside a dual level,
            printed as ``tangent=tensor(...)``.
    """
    array = np.asarray(array)
    if array.dtype == ml_dtypes.bfloat16:
        # formatted as PyTorch formats them: their exact values as Python floats
        array = array.astype(np.float32)
    indent = len(_PREFIX)
    suffixes = []
    # Wrap as if the module were "torch", so that the output is PyTorch's
    # character for character apart from the module name.
    dtype_suffix = (f"dtype={module}.{dtype_name}", len(f"dtype=torch.{dtype_name}"))
    default_name = get_default_dtype().name

    if array.size == 0:
        # Match numpy: the shape is shown unless it is simply (0,).
        if array.ndim != 1:
            suffixes.append(_plain(f"size={tuple(array.shape)}"))
        # No values to infer the dtype from, so only the default is implied.
        if dtype_name != default_name:
            suffixes.append(dtype_suffix)
        body = "[]"
    else:
        if not _OPTS.edgeitems:
            suffixes.append(_plain(f"size={tuple(array.shape)}"))
        # the complex type a Python complex takes is implied too (PyTorch's: complex128
        # when the default float is float64, else complex64, float16 and bfloat16 too)
        implied = _IMPLIED_DTYPES + ("complex128" if default_name == "float64"
                                     else "complex64",)
        if dtype_name != default_name and dtype_name not in implied:
            suffixes.append(dtype_suffix)
        summarize = array.size > _OPTS.threshold
        values = _summarized_values(array) if summarize else array.reshape(-1)
        body = _nested_str(array, indent, summarize, _formatter(values))

    if grad_fn_name is not None:
        suffixes.append(_plain(f"grad_fn=<{grad_fn_name}>"))
    elif requires_grad:
        suffixes.append(_plain("requires_grad=True"))
    if tangent is not None:
        suffixes.append(_plain(f"tangent={tangent!r}"))

    return _add_suffixes(_PREFIX + body, suffixes, indent)


# ------------------------------------------------------------ ATen's C++ printing
# Some of PyTorch's error messages embed a tensor as ATen's operator<< prints it
# (aten/src/ATen/core/Formatting.cpp), not as repr() does: the values as doubles, one
# format per matrix, "Columns a to b" blocks past 80 characters, then "[ <type>{sizes} ]",
# where Python's error translation spells the legacy tensor types torch.FloatTensor etc.
# (here autograd_core.FloatTensor, as this library names them)

_LEGACY_TYPES = {"Float": "autograd_core.FloatTensor", "Double": "autograd_core.DoubleTensor",
                 "Half": "autograd_core.HalfTensor", "Byte": "autograd_core.ByteTensor",
                 "Char": "autograd_core.CharTensor", "Short": "autograd_core.ShortTensor",
                 "Int": "autograd_core.IntTensor", "Long": "autograd_core.LongTensor"}


def _cpp_format(values):
    """(scale, width, spec) of ATen's __printFormat for the doubles values (a flat array,
    not empty): exponents of the smallest and largest finite magnitudes pick fixed,
    scaled fixed or scientific notation and the width."""
    finite = values[np.isfinite(values)]
    int_mode = bool(np.all(finite == np.ceil(finite)))
    exp_min = exp_max = 1.0
    if finite.size:
        exp_min = exp_max = abs(float(finite[0]))
        for v in finite.tolist():
            z = abs(v)
            if z < exp_min:
                exp_min = z
            if z > exp_max:
                exp_max = z
        exp_min = math.floor(math.log10(exp_min)) + 1 if exp_min != 0 else 1
        exp_max = math.floor(math.log10(exp_max)) + 1 if exp_max != 0 else 1
    if int_mode:
        if exp_max > 9:
            return 1.0, 11, "%.4e"
        return 1.0, int(exp_max) + 1, "%g"
    if exp_max - exp_min > 4:
        return 1.0, 12 if abs(exp_max) > 99 or abs(exp_min) > 99 else 11, "%.4e"
    if exp_max > 5 or exp_max < 0:
        return float(f"1e{exp_max - 1}"), 7, "%.4f"   # (correctly rounded, as C's pow)
    return 1.0, 7 if exp_max == 0 else int(exp_max) + 6, "%.4f"


def _cpp_value(spec, v):
    """v formatted by spec as C's printf does: a NaN with its sign bit prints -nan."""
    if v != v:
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    return spec % v


def _cpp_scale(scale):
    """ATen's line naming a matrix's scale factor, a power of ten in its shortest
    round-trip spelling (fixed from 1e-4 to below 1e16, as Python's repr, no '.0')."""
    r = repr(scale)
    return (r[:-2] if r.endswith(".0") else r) + " *\n"


def _cpp_matrix(m, indent, linesize=80):
    """ATen's __printMatrix of the 2-D doubles m (not empty)."""
    scale, sz, spec = _cpp_format(m.reshape(-1))
    out = []
    pad = " " * indent
    ncols = m.shape[1]
    per_line = (linesize - indent) // (sz + 1)
    first = 0
    while first < ncols:
        last = first + per_line - 1 if first + per_line <= ncols else ncols - 1
        if per_line < ncols:
            if first != 0:
                out.append("\n")
            out.append(f"Columns {first + 1} to {last + 1}{pad}")
        if scale != 1:
            out.append(_cpp_scale(scale) + pad)
        for r in range(m.shape[0]):
            for c in range(first, last + 1):
                out.append(_cpp_value(spec, m[r, c] / scale).rjust(sz))
                if c == last:
                    out.append("\n")
                    if r != m.shape[0] - 1:
                        out.append(pad + " " if scale != 1 else pad)
                else:
                    out.append(" ")
        first = last + 1
    return "".join(out)


def cpp_str(tensor):
    """tensor as ATen's operator<< prints it, with Python's spelling of its type."""
    import autograd_core
    t = tensor.detach()
    if t.is_complex():   # (ATen's copy to double keeps the real part)
        t = t.real
    a = np.asarray(t.to(autograd_core.float64).numpy())
    name = str(tensor.dtype).rpartition(".")[2]
    scalar = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
              "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
              "int64": "Long", "bool": "Bool", "complex64": "ComplexFloat",
              "complex128": "ComplexDouble", "complex32": "ComplexHalf", "uint16": "UInt16",
              "uint32": "UInt32", "uint64": "UInt64"}.get(name, name)
    type_str = _LEGACY_TYPES.get(scalar, f"CPU{scalar}Type")
    sizes = ",".join(str(s) for s in a.shape)
    if a.ndim == 0:
        return f"{float(a):g}\n[ {type_str}{{}} ]"
    body = ""
    if a.size:
        if a.ndim == 1:
            scale, sz, spec = _cpp_format(a)
            body = _cpp_scale(scale) if scale != 1 else ""
            body += "".join(_cpp_value(spec, v / scale).rjust(sz) + "\n" for v in a.tolist())
        elif a.ndim == 2:
            body = _cpp_matrix(a, 0)
        else:
            blocks = []
            # (ATen's counter runs its first index fastest)
            for rev in np.ndindex(*a.shape[-3::-1]):
                idx = rev[::-1]
                head = "(" + "".join(f"{i + 1}," for i in idx) + ".,.) = \n"
                blocks.append(head + _cpp_matrix(a[idx], 1))
            body = "\n".join(blocks)
    return f"{body}[ {type_str}{{{sizes}}} ]"
