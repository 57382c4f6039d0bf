"""Tensor creation: thin argument handling over numpy; the core wraps the arrays."""
from __future__ import annotations
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy.typing as _npt

    from autograd_core._core.dtype import dtype as _dtype
    from autograd_core._core.random import Generator
    from autograd_core._core.tensor import Tensor, device as _device, layout as _layout, \
        memory_format as _memory_format

    _Device = _device | str | int | None
    _Number = int | float | bool
    _Size = int | Sequence[int]

import builtins
import warnings

import ml_dtypes
import numpy as np

from autograd_core._core import tensor as _core
from autograd_core._core import dtype as _core_dtype
from autograd_core._core import random as _random
from autograd_core.ops import pointwise as _pointwise
from autograd_core.ops import view as _view
# (the __torch_function__ protocol of the *_like functions, as the generated wrappers')
from autograd_core.overrides import _handle_call as _handle_torch_function
from autograd_core.overrides import _overrides as _overrides_tf
from autograd_core._vmap_state import LEVELS as _VMAP_LEVELS
from autograd_core._vmap_state import RANDOM_HOOK as _VMAP_RANDOM
from autograd_core._settings import is_warn_always_enabled


def _np_dtype(dtype, default, name=None):
    return _core.to_dtype_py(dtype if dtype is not None else default, name).np_dtype


def _no_bool_kernel(np_dtype, kernel):
    """arange/range/linspace/logspace have no bool kernel in PyTorch (dtype= or out=)."""
    if np_dtype == np.bool_:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
    return np_dtype


def _leaf(arr, requires_grad):
    return _core.from_array(np.array(arr, order="C", copy=None), requires_grad=requires_grad)


def _check_kwargs(device=None, layout=None, pin_memory=False, memory_format=None):
    if device is not None:
        _core.check_device(device)


def _check_factory_args(name, dtype, layout, requires_grad):
    """The parser's type checks of a factory's dtype=, layout= and requires_grad= (in
    PyTorch's order), its TypeErrors naming the factory: a layout or requires_grad of
    another type is refused, not ignored."""
    if dtype is not None:
        _core.to_dtype_py(dtype, name)
    if layout is not None and not isinstance(layout, _core.layout):
        raise TypeError(f"{name}(): argument 'layout' must be autograd_core.layout, not "
                        f"{type(layout).__name__}")
    if requires_grad is not None and not isinstance(requires_grad, bool):
        raise TypeError(f"{name}(): argument 'requires_grad' must be bool, not "
                        f"{type(requires_grad).__name__}")


def tensor(data: Any, *, dtype: _dtype | None = None, device: _Device = None,
           requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of data (float data -> float32, ints -> int64).

    >>> import autograd_core as torch
    >>> torch.tensor([1., 2, 3, 4], requires_grad=True)
    tensor([1., 2., 3., 4.], requires_grad=True)
    """
    _check_kwargs(device)
    _refuse_numpy_bfloat16(data)
    if getattr(type(data), "_agc_sparse", False):
        # a copy of a sparse tensor stays sparse (Note [Sparse tensors])
        import warnings
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
            ".requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning, stacklevel=2)
        out = data.detach().clone()
        out = out if dtype is None else out.to(dtype)
        return out.requires_grad_(True) if requires_grad else out
    if dtype is not None and _core.to_dtype_py(dtype).name == "uint64" \
            and isinstance(data, (int, list, tuple)):
        return _uint64_tensor(data, requires_grad)
    return _core.tensor_from_data(data, dtype, requires_grad)


_TWO_64 = 1 << 64


def _uint64_bits(data):
    """data with each Python int as the int64 of its uint64 bits; PyTorch's errors for
    anything else (uint64 takes Python ints only: not floats, numpy scalars, tensors)."""
    if isinstance(data, (list, tuple)):
        return [_uint64_bits(x) for x in data]
    if not isinstance(data, int):
        raise TypeError("an integer is required")
    if data < 0:
        raise OverflowError("can't convert negative int to unsigned")
    if data >= _TWO_64:
        raise OverflowError("int too big to convert")
    return data - _TWO_64 if data >= 1 << 63 else int(data)


def _uint64_tensor(data, requires_grad):
    """tensor(<Python ints>, dtype=uint64), values up to 2**64 - 1: the core's int64
    store (its shape checks and errors) on the two's-complement bits, read as uint64."""
    bits = _core.tensor_from_data(_uint64_bits(data), None, False).numpy()   # (ints: int64)
    return _core.from_array(bits.astype(np.int64, copy=False).view(np.uint64),
                            requires_grad=requires_grad)


def _out_dtype(out, dtype, name):
    """The dtype a factory with out= computes in: out's unless dtype is given (a mismatch
    is refused by ops.view.factory_out, which writes the result)."""
    if out is None or dtype is not None:
        return dtype
    if not isinstance(out, _core.Tensor):
        raise _core.not_tensor_error(name, "out", 0, out)
    return out.dtype


def _written(name, out, dtype, result, requires_grad):
    return result if out is None else _view.factory_out(name, out, dtype, result, requires_grad)


def _check_sizes(shape, name):
    for s in shape:
        if s < 0:
            if name == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(str(x) for x in shape)}]")
    return shape


def _size_arg(size_args, size, name):
    """The sizes of zeros(2, 3) / zeros((2, 3)) / zeros(size=(2, 3)), as PyTorch takes them."""
    if size is None:
        return size_args
    if size_args:
        if name in ("rand", "randn"):  # overloaded in PyTorch: its no-overload message
            got = ", ".join([type(a).__name__ for a in size_args] + [f"size={type(size).__name__}"])
            raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), "
                            f"but expected one of:\n{_SAMPLER_SIGNATURES}\n")
        raise TypeError(f"{name}() got multiple values for argument 'size'")
    return (size,)


_SAMPLER_SIGNATURES = (
    " * (tuple of ints size, *, autograd_core.Generator generator, Tensor out = None, "
    "autograd_core.dtype dtype = None, autograd_core.layout layout = None, "
    "autograd_core.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (tuple of ints size, *, Tensor out = None, autograd_core.dtype dtype = None, "
    "autograd_core.layout layout = None, autograd_core.device device = None, "
    "bool pin_memory = False, bool requires_grad = False)")


def _filled(fill, size, dtype, requires_grad, name, default=None):
    shape = _check_sizes(_core.parse_size(size, name), name)
    d = _np_dtype(dtype, default if default is not None else _core_dtype.get_default_dtype(),
                  name)
    return _leaf(_core.new_array(shape, d, fill), requires_grad)


def zeros(*size_args: Any, size: Sequence[int] | None = None, out: Tensor | None = None,
          dtype: _dtype | None = None, layout: _layout | None = None, device: _Device = None,
          requires_grad: bool = False) -> Tensor:
    """A tensor of zeros: ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    _check_factory_args("zeros", dtype, layout, requires_grad)
    _check_kwargs(device)
    size = _size_arg(size_args, size, "zeros")
    r = _filled(0, size, _out_dtype(out, dtype, "zeros"), requires_grad and out is None, "zeros")
    return _written("zeros", out, dtype, r, requires_grad)


def ones(*size_args: Any, size: Sequence[int] | None = None, out: Tensor | None = None,
         dtype: _dtype | None = None, layout: _layout | None = None, device: _Device = None,
         requires_grad: bool = False) -> Tensor:
    """A tensor of ones: ``ones(2, 3)`` or ``ones((2, 3))``."""
    _check_factory_args("ones", dtype, layout, requires_grad)
    _check_kwargs(device)
    size = _size_arg(size_args, size, "ones")
    r = _filled(1, size, _out_dtype(out, dtype, "ones"), requires_grad and out is None, "ones")
    return _written("ones", out, dtype, r, requires_grad)


def empty(*size_args: Any, size: Sequence[int] | None = None, out: Tensor | None = None,
          dtype: _dtype | None = None, layout: _layout | None = None, device: _Device = None,
          requires_grad: bool = False, pin_memory: bool = False,
          memory_format: _memory_format | None = None) -> Tensor:
    """An uninitialised tensor of the given size."""
    _check_factory_args("empty", dtype, layout, requires_grad)
    _check_kwargs(device)
    size = _size_arg(size_args, size, "empty")
    if out is not None:
        # PyTorch's empty(out=) only resizes out (its values are whatever they were)
        r = _filled(None, size, _out_dtype(out, dtype, "empty"), False, "empty")
        if tuple(out.shape) == tuple(r.shape):
            r = out.detach().clone()
        return _written("empty", out, dtype, r, requires_grad)
    return _in_memory_format(_filled(None, size, dtype, requires_grad, "empty"), memory_format,
                             "empty")


def full(size: Sequence[int], fill_value: _Number, *, out: Tensor | None = None,
         dtype: _dtype | None = None, layout: _layout | None = None, device: _Device = None,
         requires_grad: bool = False) -> Tensor:
    """A tensor filled with fill_value; its dtype is inferred from the value like PyTorch."""
    _check_factory_args("full", dtype, layout, requires_grad)
    _check_kwargs(device)
    if not _is_number(fill_value):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(fill_value).__name__}")
    given = dtype
    dtype = _out_dtype(out, dtype, "full")
    if dtype is None:
        if isinstance(fill_value, bool):
            dtype = _core_dtype.all_dtypes()["bool"]
        elif isinstance(fill_value, int):
            dtype = _core_dtype.all_dtypes()["int64"]
        elif isinstance(fill_value, complex) or (isinstance(fill_value, _core.Tensor)
                                                 and fill_value.is_complex()):
            dtype = _core_dtype.get_default_dtype().to_complex()
    r = _filled(fill_value, (size,), dtype, requires_grad and out is None, "full")
    return _written("full", out, given, r, requires_grad)


def _like(input, fill, dtype, requires_grad, name, device=None, memory_format=None,
          layout=None):
    if not isinstance(input, _core.Tensor):
        raise _core.not_tensor_error(name, "input", 1, input)
    _check_factory_args(name, dtype, layout, requires_grad)
    _check_kwargs(device)
    if fill is not None and not _is_number(fill):
        raise TypeError(f"{name}(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(fill).__name__}")
    d = (_core.to_dtype_py(dtype, name) if dtype is not None else input.dtype).np_dtype
    if memory_format is None or memory_format is _core.preserve_format:
        return _core.from_array(_core.new_array_like(input, d, fill), requires_grad=requires_grad)
    return _leaf(_core.new_array(tuple(input.shape), d, fill), requires_grad)


def zeros_like(input: Tensor, *, dtype: _dtype | None = None, layout: _layout | None = None,
               device: _Device = None, requires_grad: bool = False,
               memory_format: _memory_format | None = None) -> Tensor:
    """Zeros with input's shape (and dtype unless given)."""
    if type(input) is not _core.Tensor and _overrides_tf(input):
        return _handle_torch_function(zeros_like, (input, ), dict(
            dtype=dtype, layout=layout, device=device, requires_grad=requires_grad,
            memory_format=memory_format))
    return _in_memory_format(_like(input, 0, dtype, requires_grad, "zeros_like", device,
                                   memory_format, layout),
                             memory_format, "zeros_like")


def ones_like(input: Tensor, *, dtype: _dtype | None = None, layout: _layout | None = None,
              device: _Device = None, requires_grad: bool = False,
              memory_format: _memory_format | None = None) -> Tensor:
    """Ones with input's shape (and dtype unless given)."""
    if type(input) is not _core.Tensor and _overrides_tf(input):
        return _handle_torch_function(ones_like, (input, ), dict(
            dtype=dtype, layout=layout, device=device, requires_grad=requires_grad,
            memory_format=memory_format))
    return _in_memory_format(_like(input, 1, dtype, requires_grad, "ones_like", device,
                                   memory_format, layout),
                             memory_format, "ones_like")


def full_like(input: Tensor, fill_value: _Number, *, dtype: _dtype | None = None,
              layout: _layout | None = None, device: _Device = None, requires_grad: bool = False,
              memory_format: _memory_format | None = None) -> Tensor:
    """fill_value with input's shape (and dtype unless given)."""
    if type(input) is not _core.Tensor and _overrides_tf(input):
        return _handle_torch_function(full_like, (input, fill_value, ), dict(
            dtype=dtype, layout=layout, device=device, requires_grad=requires_grad,
            memory_format=memory_format))
    return _in_memory_format(_like(input, fill_value, dtype, requires_grad, "full_like", device,
                                   memory_format, layout),
                             memory_format, "full_like")


def empty_like(input: Tensor, *, dtype: _dtype | None = None, layout: _layout | None = None,
               device: _Device = None, requires_grad: bool = False,
               memory_format: _memory_format | None = None) -> Tensor:
    """Uninitialised, with input's shape (and dtype unless given)."""
    if type(input) is not _core.Tensor and _overrides_tf(input):
        return _handle_torch_function(empty_like, (input, ), dict(
            dtype=dtype, layout=layout, device=device, requires_grad=requires_grad,
            memory_format=memory_format))
    return _in_memory_format(_like(input, None, dtype, requires_grad, "empty_like", device,
                                   memory_format, layout),
                             memory_format, "empty_like")


def _is_number(x):
    """A 'Number' argument: a Python or numpy number, or a one-element tensor."""
    if isinstance(x, _core.Tensor):
        return x.numel() == 1
    return isinstance(x, (int, float, complex, np.number, np.bool_))


def _num(x):
    return x.item() if isinstance(x, _core.Tensor) else x


def arange(start: _Number, end: _Number | None = None, step: _Number = 1, *,
           out: Tensor | None = None, dtype: _dtype | None = None,
           layout: _layout | None = None, device: _Device = None,
           requires_grad: bool = False) -> Tensor:
    """Values from start to end (exclusive) by step; int64 unless a bound is a float."""
    _check_kwargs(device)
    given, dtype = dtype, _out_dtype(out, dtype, "arange")
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if any(isinstance(v, complex) for v in (start, end, step)):
        start, end, step = _arange_real_bounds(start, end, step, dtype)
    if any(isinstance(v, float) and not np.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        floating = any(isinstance(v, float) for v in (start, end, step))
        dtype = _core_dtype.get_default_dtype() if floating else _core_dtype.all_dtypes()["int64"]
    d = _core.to_dtype_py(dtype)
    _no_bool_kernel(d.np_dtype, "arange_cpu")
    _no_unsigned_kernel(d, "arange_cpu")
    if d.is_complex:
        _no_kernel_for(d, "arange_cpu")
    fractional = not d.is_floating_point and any(isinstance(v, float) for v in (start, end, step))
    if fractional and d.name == "int64":
        # PyTorch takes int64 bounds as integers first (arange(0., 2., 0.5, dtype=int64)
        # has a zero step); the other integer dtypes count in float64 and step by the
        # truncated step below
        start, end, step = int(start), int(end), int(step)
        if step == 0:
            raise ValueError("step must be nonzero")
        fractional = False
    # Count in float64 like PyTorch (ceil((end - start) / step)), then compute values.
    n = int(np.ceil((end - start) / step))
    if isinstance(out, _core.Tensor) and out.numel() not in (0, n):
        warnings.warn(f"The number of elements in the out tensor of shape {list(out.shape)} is "
                      f"{out.numel()} which does not match the computed number of elements {n}. "
                      f"Note that this may occur as a result of rounding error. The out tensor "
                      f"will be resized to a tensor of shape ({n},).", UserWarning, stacklevel=2)
    try:
        if fractional:
            arr = int(start) + np.arange(n, dtype=np.int64) * int(step)
        elif d.is_floating_point or any(isinstance(v, float) for v in (start, end, step)):
            arr = start + np.arange(n, dtype=np.float64) * step
        else:
            arr = np.arange(start, end, step)
    except (MemoryError, ValueError):
        raise _core.new_array_error((n,), d.np_dtype) from None
    r = _leaf(np.asarray(arr).astype(d.np_dtype), requires_grad and out is None)
    return _written("arange", out, given, r, requires_grad)


def _arange_real_bounds(start, end, step, dtype):
    """arange's complex bounds as PyTorch reads them: it has no complex kernel (checked
    first) and reads each bound as a double, which refuses a nonzero imaginary part; a
    zero one leaves a float (so the result is of the default float dtype, as PyTorch's)."""
    if dtype is not None and _core.to_dtype_py(dtype).is_complex:
        _no_kernel_for(_core.to_dtype_py(dtype), "arange_cpu")
    out = []
    for v in (start, end, step):
        if isinstance(v, complex):
            if v.imag != 0:
                raise _core.value_overflow_error("double")
            v = float(v.real)
        out.append(v)
    return out


def _is_complex_number(x):
    """A complex linspace/logspace endpoint: a complex number or a complex tensor."""
    if isinstance(x, _core.Tensor):
        return x.is_complex()
    return isinstance(x, (complex, np.complexfloating))


def _space_dtype(name, start, end, out, dtype):
    """The numpy dtype linspace/logspace compute in: dtype= (or out's), else the default
    float dtype, or its complex dtype when an endpoint is complex; PyTorch refuses a real
    dtype= for complex endpoints (even with a zero imaginary part)."""
    given = _out_dtype(out, dtype, name)
    default = _core_dtype.get_default_dtype()
    if _is_complex_number(start) or _is_complex_number(end):
        inferred = default.to_complex()
        if given is not None and not _core.to_dtype_py(given).is_complex:
            g = _core.to_dtype_py(given)
            raise RuntimeError(
                f"torch.{name}(): inferred dtype {_core_dtype.CPP_NAMES[inferred.name]} can't "
                f"be safely cast to passed dtype {_core_dtype.SCALAR_NAMES[g.name]}")
        if given is None:
            given = inferred
    return _no_bool_kernel(_np_dtype(given, default), f"{name}_cpu")


def linspace(start: _Number | Tensor, end: _Number | Tensor, steps: int, *,
             out: Tensor | None = None, dtype: _dtype | None = None,
             layout: _layout | None = None, device: _Device = None,
             requires_grad: bool = False) -> Tensor:
    """steps evenly spaced values from start to end inclusive."""
    _check_kwargs(device)
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise TypeError(f"linspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    d = _space_dtype("linspace", start, end, out, dtype)
    if steps > 1:   # (PyTorch fills 0 or 1 step without its kernel)
        _no_unsigned_kernel(np.dtype(d), "linspace_cpu")
    if d in (np.float32, np.float64) or np.issubdtype(d, np.complexfloating):
        arr = _linspace_values(_num(start), _num(end), steps, d)
    else:
        arr = np.linspace(_num(start), _num(end), steps).astype(d)
    r = _leaf(arr, requires_grad and out is None)
    return _written("linspace", out, dtype, r, requires_grad)


def _linspace_values(start, end, steps, d):
    """linspace's values in float or complex dtype d as PyTorch's CPU kernel computes
    them: the step in d; the first half counted up from start, the second down from end.
    A real value is one fused multiply-add rounded once (emulated in a wider type), so
    float32 windows built on linspace match PyTorch's bit for bit; a complex one is
    computed in d (PyTorch's complex kernel has no fused step)."""
    wide = np.float64 if d == np.float32 else np.longdouble if d == np.float64 else d.type
    start, end = d.type(start), d.type(end)
    step = (end - start) / d.type(steps - 1) if steps > 1 else d.type(0)
    i = np.arange(steps)
    up = wide(start) + wide(step) * i.astype(wide)
    down = wide(end) - wide(step) * (steps - 1 - i).astype(wide)
    # (one step: start, as PyTorch fills it)
    return np.where((i < steps // 2) | (steps == 1), up, down).astype(d)


def _no_kernel_for(d, kernel):
    """PyTorch's error for a kernel with no variant for dtype d."""
    raise NotImplementedError(f'"{kernel}" not implemented for '
                              f"'{_core_dtype.SCALAR_NAMES[d.name]}'")


def _no_unsigned_kernel(d, kernel):
    """PyTorch's error for a factory whose kernel has no uint16/32/64 variant (Note [Wide
    unsigned dtypes])."""
    if d.name in ("uint16", "uint32", "uint64"):
        _no_kernel_for(d, kernel)


def eye(n: int, m: int | None = None, *, out: Tensor | None = None, dtype: _dtype | None = None,
        layout: _layout | None = None, device: _Device = None,
        requires_grad: bool = False) -> Tensor:
    """The n x m identity matrix."""
    _check_kwargs(device)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    wanted = _out_dtype(out, dtype, "eye")
    if wanted is not None:
        _no_unsigned_kernel(_core.to_dtype_py(wanted), "eye")
    d = _np_dtype(wanted, _core_dtype.get_default_dtype())
    return _written("eye", out, dtype, _leaf(np.eye(n, m, dtype=d), requires_grad and out is None),
                    requires_grad)


def manual_seed(seed: int) -> Generator:
    """Seed the default generator (PyTorch's stream: the same seed draws the same numbers
    as ``torch.manual_seed``); returns the generator.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(3)
    tensor([0.4963, 0.7682, 0.0885])
    """
    return _random.manual_seed(int(seed))  # as torch.manual_seed: "12" and 1.5 seed too


def seed() -> int:
    """Seed the default generator from a non-deterministic source; returns the seed."""
    return _random.seed()


def initial_seed() -> int:
    """The seed of the default generator."""
    return _random.initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 tensor (PyTorch's layout)."""
    return _random.get_rng_state()


def set_rng_state(new_state):
    """Restore the default generator's state from get_rng_state()."""
    _random.set_rng_state(new_state)


def _sampled(size, dtype, requires_grad, name, draw, default=None, complex_scale=None):
    shape = _check_sizes(_core.parse_size(size, name), name)
    d = _core.to_dtype_py(dtype if dtype is not None else
                          (default if default is not None else _core_dtype.get_default_dtype()))
    if d.is_complex and complex_scale is not None:
        # PyTorch samples a complex tensor as its real view (real and imaginary parts in
        # turn, one stream of twice the length), the normal scaled to variance 1/2 a part
        real = d.to_real()
        parts = draw(_core.new_array(tuple(shape) + (2,), real.np_dtype), real)
        if complex_scale != 1.0:
            parts = (parts * np.asarray(complex_scale, dtype=real.np_dtype)).astype(
                real.np_dtype, copy=False)
        return _leaf(np.ascontiguousarray(parts).view(d.np_dtype)[..., 0], requires_grad)
    return _leaf(draw(_core.new_array(shape, d.np_dtype), d), requires_grad)


def rand(*size_args: Any, size: Sequence[int] | None = None, generator: Generator | None = None,
         out: Tensor | None = None, dtype: _dtype | None = None, layout: _layout | None = None,
         device: _Device = None, requires_grad: bool = False,
         pin_memory: bool = False) -> Tensor:
    """Uniform samples on [0, 1), PyTorch's numbers for the same seed.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(2, 2)
    tensor([[0.4963, 0.7682],
            [0.0885, 0.1320]])
    """
    _check_kwargs(device)
    size = _size_arg(size_args, size, "rand")
    if _VMAP_LEVELS and out is None:
        # under vmap: its randomness mode decides (func/_vmap.py)
        return _VMAP_RANDOM[0](lambda s: rand(s, generator=generator, dtype=dtype,
                                                requires_grad=requires_grad), tuple(size))

    def draw(like, d):
        return _random.sample_uniform(like, 0.0, 1.0, generator)
    r = _sampled(size, _out_dtype(out, dtype, "rand"), requires_grad and out is None, "rand", draw,
                 complex_scale=1.0)
    return _written("rand", out, dtype, r, requires_grad)


def randn(*size_args: Any, size: Sequence[int] | None = None, generator: Generator | None = None,
          out: Tensor | None = None, dtype: _dtype | None = None, layout: _layout | None = None,
          device: _Device = None, requires_grad: bool = False,
          pin_memory: bool = False) -> Tensor:
    """Standard normal samples, PyTorch's numbers for the same seed.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randn(3, dtype=torch.float64)
    tensor([ 1.5410, -0.2934, -2.1788], dtype=autograd_core.float64)
    """
    _check_kwargs(device)
    size = _size_arg(size_args, size, "randn")
    if _VMAP_LEVELS and out is None:
        # under vmap: its randomness mode decides (func/_vmap.py)
        return _VMAP_RANDOM[0](lambda s: randn(s, generator=generator, dtype=dtype,
                                                requires_grad=requires_grad), tuple(size))

    def draw(like, d):
        return _random.sample_normal(like, 0.0, 1.0, generator)
    r = _sampled(size, _out_dtype(out, dtype, "randn"), requires_grad and out is None, "randn",
                 draw, complex_scale=0.5 ** 0.5)
    return _written("randn", out, dtype, r, requires_grad)


def randint(low: int, high: int | Sequence[int] | None = None, size: Sequence[int] | None = None,
            *, generator: Generator | None = None, out: Tensor | None = None,
            dtype: _dtype | None = None, layout: _layout | None = None, device: _Device = None,
            requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """Integers uniformly from [low, high): ``randint(high, size)`` or
    ``randint(low, high, size)``; int64 unless dtype is given.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randint(10, (5,))
    tensor([4, 9, 3, 0, 3])
    """
    _check_kwargs(device)
    if size is None and isinstance(high, (tuple, list, _core.Size)):
        low, high, size = 0, low, high  # randint(high, size)
    if high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    low, high = int(_num(low)), int(_num(high))
    if _VMAP_LEVELS and out is None:
        return _VMAP_RANDOM[0](lambda s: randint(low, high, s, generator=generator, dtype=dtype,
                                                 requires_grad=requires_grad), tuple(size))
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")

    def draw(like, d):
        return _random.sample_random(like, low, high, generator)
    r = _sampled((size,), _out_dtype(out, dtype, "randint"), requires_grad and out is None,
                 "randint", draw, default=_core_dtype.all_dtypes()["int64"])
    return _written("randint", out, dtype, r, requires_grad)


def randperm(n: int, *, generator: Generator | None = None, out: Tensor | None = None,
             dtype: _dtype | None = None, layout: _layout | None = None, device: _Device = None,
             requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A random permutation of 0..n-1 (int64 unless dtype is given), PyTorch's for the
    same seed.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randperm(5)
    tensor([4, 0, 1, 3, 2])
    """
    _check_kwargs(device)
    if isinstance(n, bool) or not isinstance(_num(n), int):
        raise TypeError(f"randperm(): argument 'n' must be int, not {type(n).__name__}")
    n = int(_num(n))
    if n < 0:
        if out is not None:  # PyTorch's randperm.out checks n itself
            raise RuntimeError(f"n must be non-negative, got{n}")
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if _VMAP_LEVELS and out is None:
        return _VMAP_RANDOM[0](lambda s: randperm(n, generator=generator, dtype=dtype,
                                                  requires_grad=requires_grad), (),
                               per_sample=True)
    dt = _out_dtype(out, dtype, "randperm")
    d = _core.to_dtype_py(dt if dt is not None else _core_dtype.all_dtypes()["int64"])
    r = _leaf(_random.sample_randperm(n, generator).astype(d.np_dtype), requires_grad and out is None)
    return _written("randperm", out, dtype, r, requires_grad)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Indices sampled from the rows of input (non-negative weights), PyTorch's draws
    for the same seed: with replacement by inverse CDF over the normalised cumulative
    sums, without replacement (or a single sample) as the top-k of weight / Exp(1).

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 4, replacement=True)
    tensor([2, 2, 2, 2])
    """
    if not isinstance(input, _core.Tensor):
        raise _core.not_tensor_error("multinomial", "input", 1, input)
    n_sample = int(num_samples)
    probs = _core.array_of(input.detach())
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    _random.check_multinomial_input(probs)
    if n_sample <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n_cat = probs.shape[-1]
    if not replacement and n_sample > n_cat:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if n_cat > (1 << 24):
        raise RuntimeError("number of categories cannot exceed 2^24")
    rows = probs.reshape(-1, n_cat)
    if not replacement or n_sample == 1:
        if not (np.all(rows < np.inf) and np.all(rows >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(rows.sum(axis=1) == 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = _random.sample_exponential(np.empty(rows.shape, dtype=rows.dtype), 1.0, generator)
        with np.errstate(divide="ignore", invalid="ignore"):
            q = (rows / q).astype(rows.dtype)
        # the top k, larger first; ties to the lower index
        idx = np.argsort(-q, axis=1, kind="stable")[:, :n_sample]
    else:
        if np.any(rows < 0):
            raise RuntimeError("invalid multinomial distribution (encountering probability "
                               "entry < 0)")
        if not np.all(np.isfinite(rows)):
            raise RuntimeError("invalid multinomial distribution (encountering probability "
                               "entry = infinity or NaN)")
        if np.any(rows.sum(axis=1) <= 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        idx = _random.sample_multinomial_rows(np.ascontiguousarray(rows), n_sample, generator)
    shape = (n_sample,) if probs.ndim == 1 else (probs.shape[0], n_sample)
    r = _leaf(np.ascontiguousarray(idx, dtype=np.int64).reshape(shape), False)
    return _written("multinomial", out, None, r, False)


def _multinomial_method(self, num_samples, replacement=False, *, generator=None):
    return multinomial(self, num_samples, replacement, generator=generator)


_multinomial_method.__name__ = _multinomial_method.__qualname__ = "multinomial"
_multinomial_method.__doc__ = multinomial.__doc__
_core._install_methods({"multinomial": _multinomial_method})


def _refuse_numpy_bfloat16(data):
    """PyTorch makes no tensor from an ml_dtypes array (numpy has no bfloat16 of its
    own); the library itself stores bfloat16 in them (Note [bfloat16 casts])."""
    if isinstance(data, np.ndarray) and data.dtype == ml_dtypes.bfloat16:
        raise TypeError("can't convert np.ndarray of type ml_dtypes.bfloat16. The only "
                        "supported types are: float64, float32, float16, complex64, "
                        "complex128, int64, int32, int16, int8, uint64, uint32, uint16, "
                        "uint8, and bool.")


def from_numpy(ndarray: _npt.NDArray[Any]) -> Tensor:
    """A tensor sharing memory with a numpy array (changes show in both)."""
    _refuse_numpy_bfloat16(ndarray)
    return _core.from_array(ndarray, requires_grad=False)


def as_tensor(data: Any, dtype: _dtype | None = None, device: _Device = None) -> Tensor:
    """Like tensor(), but shares memory with a numpy array or tensor when it can."""
    _check_kwargs(device)
    _refuse_numpy_bfloat16(data)
    if isinstance(data, _core.Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or _core.to_dtype_py(dtype).np_dtype == data.dtype):
        return _core.from_array(data, requires_grad=False)
    return _core.tensor_from_data(data, dtype, False)


_LOGSPACE_SIGNATURES = "\n".join(
    f" * ({a} start, {b} end, int steps, float base = 10.0, *, Tensor out = None, "
    "autograd_core.dtype dtype = None, autograd_core.layout layout = None, "
    "autograd_core.device device = None, bool pin_memory = False, bool requires_grad = False)"
    for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"),
                 ("Number", "Number")))


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    """steps values from base**start to base**end, evenly spaced in the exponent.

    >>> import autograd_core as torch
    >>> torch.logspace(0, 2, 3)
    tensor([  1.,  10., 100.])
    """
    _check_kwargs(device)
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise TypeError(f"logspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if not isinstance(base, (int, float, np.integer, np.floating)):
        # (PyTorch declares base a float: no overload takes anything else; the message
        # names it as a keyword, as it is usually given)
        got = ", ".join(["Tensor" if isinstance(v, _core.Tensor) else type(v).__name__
                         for v in (start, end, steps)] + [f"base={type(base).__name__}"])
        raise TypeError(f"logspace() received an invalid combination of arguments - got "
                        f"({got}), but expected one of:\n{_LOGSPACE_SIGNATURES}\n")
    d = _space_dtype("logspace", start, end, out, dtype)
    if steps > 1:   # (as linspace's)
        _no_unsigned_kernel(np.dtype(d), "logspace_cpu")
    if np.issubdtype(d, np.complexfloating):
        # (PyTorch's complex kernel: base ** the complex linspace, in d)
        with np.errstate(all="ignore"):
            vals = np.power(d.type(base), _linspace_values(_num(start), _num(end), steps, d))
        return _written("logspace", out, dtype,
                        _leaf(vals.astype(d), requires_grad and out is None), requires_grad)
    exps = np.linspace(float(_num(start)), float(_num(end)), steps)
    with np.errstate(over="ignore"):
        vals = np.power(float(base), exps)
    if np.issubdtype(d, np.integer):
        vals = np.round(vals)  # PyTorch rounds an integer logspace's values (std::pow)
    return _written("logspace", out, dtype, _leaf(vals.astype(d), requires_grad and out is None),
                    requires_grad)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=False,
                  requires_grad=False):
    """A 0-d tensor holding the number s (the default float dtype unless dtype is given).

    >>> import autograd_core as torch
    >>> torch.scalar_tensor(3)
    tensor(3.)
    """
    _check_kwargs(device)
    if isinstance(s, _core.Tensor):
        s = s.item()
    if not isinstance(s, (int, float, bool, np.number, np.bool_)):
        raise TypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not "
                        f"{type(s).__name__}")
    return _core.tensor_from_data(s, dtype if dtype is not None else
                                  _core_dtype.get_default_dtype(), requires_grad)


def _check_strided(size, stride):
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality "
                           f"of strides ({len(stride)})")
    _check_sizes(size, "empty_strided")
    for s in stride:
        if s < 0:
            raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, "
                               f"got strides: [{', '.join(str(x) for x in stride)}]")
    return size, stride


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False):
    """An uninitialised tensor with the given size and strides (in elements).

    >>> import autograd_core as torch
    >>> torch.empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
    """
    _check_factory_args("empty_strided", dtype, layout, requires_grad)
    _check_kwargs(device)
    size, stride = _check_strided(size, stride)
    d = _np_dtype(dtype, _core_dtype.get_default_dtype(), "empty_strided")
    # the memory the strides reach: 1 + sum((size - 1) * stride), none for 0 elements
    n = 0 if 0 in size else 1 + sum((a - 1) * b for a, b in zip(size, stride))
    buf = np.empty(n, dtype=d)
    arr = np.lib.stride_tricks.as_strided(buf, size, tuple(s * buf.itemsize for s in stride))
    return _core.from_array(arr, requires_grad=requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None,
                   requires_grad=False, pin_memory=False):
    """An uninitialised tensor whose dims lie in memory in the order physical_layout
    gives (outermost first): empty_permuted((N, C, H, W), (0, 2, 3, 1)) is channels-last.

    >>> import autograd_core as torch
    >>> torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride()
    (12, 1, 3)
    """
    _check_kwargs(device)
    size, perm = tuple(size), tuple(physical_layout)
    if len(size) != len(perm):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the "
                           f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                           f"len(physical_layout) = {len(perm)}")
    if sorted(perm) != list(builtins.range(len(perm))):
        raise RuntimeError("Duplicate dim not allowed")
    _check_sizes(size, "empty_permuted")
    d = _np_dtype(dtype, _core_dtype.get_default_dtype(), "empty_permuted")
    arr = np.empty(tuple(size[p] for p in perm), dtype=d).transpose(np.argsort(perm))
    return _core.from_array(arr, requires_grad=requires_grad)


def asarray(obj: Any, *, dtype: _dtype | None = None, device: _Device = None,
            copy: bool | None = None, requires_grad: bool = False) -> Tensor:
    """obj as a tensor, sharing memory with a tensor or numpy array when dtype allows
    and copy is not True (copy=False raises where a copy is needed).

    >>> import autograd_core as torch
    >>> x = torch.ones(2)
    >>> torch.asarray(x) is x
    True
    >>> torch.asarray([1, 2])
    tensor([1, 2])
    """
    _check_kwargs(device)
    _refuse_numpy_bfloat16(obj)
    d = _core.to_dtype_py(dtype) if dtype is not None else None
    if isinstance(obj, _core.Tensor):
        t = obj
        if d is not None and d is not t.dtype:
            if copy is False:
                raise ValueError("can't alias tensor from variable of type "
                                 f"{t.dtype!r} with dtype {d!r}")
            t = t.to(d)
        elif copy:
            t = t.clone()
    elif isinstance(obj, np.ndarray):
        if d is not None and d.np_dtype != obj.dtype:
            if copy is False:
                raise ValueError("can't alias NumPy array with expected dtype")
            obj = obj.astype(d.np_dtype)
        elif copy:
            obj = obj.copy()
        t = _core.from_array(obj)
    elif not isinstance(obj, np.generic) and _has_buffer(obj):
        # PyTorch reads a buffer (bytearray, array.array, memoryview) as raw memory of
        # dtype (the default float unless given), not as a sequence of numbers
        t = frombuffer(obj, dtype=d if d is not None else _core_dtype.get_default_dtype())
        if copy:
            t = t.clone()
    else:
        t = _core.tensor_from_data(obj, d)
    if requires_grad:
        t = t.requires_grad_(True) if t.is_leaf else t
    return t


def _has_buffer(obj):
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-d tensor over the memory of an object with the buffer protocol (shared, no
    copy), from offset bytes on, count elements (-1: all that fit).

    >>> import autograd_core as torch
    >>> torch.frombuffer(bytearray(b'\\x01\\x00\\x00\\x00\\x02\\x00\\x00\\x00'), dtype=torch.int32)
    tensor([1, 2], dtype=autograd_core.int32)
    """
    d = _core.to_dtype_py(dtype)
    mv = memoryview(buffer)
    length = mv.nbytes
    if length <= 0 and count == 0 or length == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({length} bytes) minus 1")
    if count <= 0 and (length - offset) % d.itemsize != 0:
        raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} "
                         f"bytes) must be a multiple of element size ({d.itemsize})")
    if count < 0:
        count = (length - offset) // d.itemsize
    if offset + count * d.itemsize > length:
        raise ValueError(f"requested buffer length ({count} * {d.itemsize} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({length} bytes)")
    if mv.readonly:
        _warn_once_readonly_buffer()
    arr = np.frombuffer(buffer, dtype=d.np_dtype, count=count, offset=offset)
    if not arr.flags.writeable:
        arr = arr.view()
        arr.flags.writeable = False
    return _core.from_array(arr, requires_grad=requires_grad)


_READONLY_WARNED = []


def _warn_once_readonly_buffer():
    if not _READONLY_WARNED or is_warn_always_enabled():
        _READONLY_WARNED.append(True)
        import warnings
        warnings.warn(
            "The given buffer is not writable, and PyTorch does not support non-writable "
            "tensors. This means you can write to the underlying (supposedly non-writable) "
            "buffer using the tensor. You may want to copy the buffer to protect its data or "
            "make it writable before converting it to a tensor. This type of warning will be "
            "suppressed for the rest of this program.", UserWarning, stacklevel=3)


def range_(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
          requires_grad=False):
    """Deprecated: values from start to end inclusive by step (use arange).

    >>> import autograd_core as torch, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.range(0, 3)
    tensor([0., 1., 2., 3.])
    """
    import warnings
    warnings.warn("autograd_core.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "autograd_core.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    _check_kwargs(device)
    if end is None:
        start, end = 0, start
    start, end, step = _num(start), _num(end), _num(step)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    d = _no_bool_kernel(_np_dtype(_out_dtype(out, dtype, "range"),
                                  _core_dtype.get_default_dtype()), "range_cpu")
    n = int(np.floor((end - start) / step)) + 1
    vals = start + np.arange(n, dtype=np.float64) * step
    return _written("range", out, dtype, _leaf(vals.astype(d), requires_grad and out is None),
                    requires_grad)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-d x: columns x**(N-1), ..., x**0 (reversed when
    increasing); integer x gives int64, as PyTorch's (which takes cumulative products).

    >>> import autograd_core as torch
    >>> torch.vander(torch.tensor([1., 2., 3.]))
    tensor([[1., 1., 1.],
            [4., 2., 1.],
            [9., 3., 1.]])
    """
    if not isinstance(x, _core.Tensor):
        raise _core.not_tensor_error("vander", "x", 1, x)
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    import autograd_core as torch
    d = torch.promote_types(x.dtype, torch.int64)
    # PyTorch's composition, so the graph holds its nodes: ones, the columns 1.. filled
    # with x then replaced by their cumulative product, flipped unless increasing
    result = torch.empty((x.shape[0], n), dtype=d)
    if n > 0:
        result.fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(torch.cumprod(result[:, 1:], 1))
    return result if increasing else torch.flip(result, [1])


range_.__name__ = range_.__qualname__ = "range"  # autograd_core.range; not the builtin here


def _in_memory_format(t, memory_format, fname):
    """t (a fresh leaf) laid out as memory_format asks (channels_last: NHWC)."""
    if memory_format is not None and not isinstance(memory_format, _core.memory_format):
        raise TypeError(f"{fname}(): argument 'memory_format' must be "
                        f"autograd_core.memory_format, not {type(memory_format).__name__}")
    if memory_format is None or memory_format is _core.preserve_format \
            or memory_format is _core.contiguous_format:
        return t
    return t.contiguous(memory_format=memory_format).detach().requires_grad_(t.requires_grad)


def _tri_indices(fname, which, row, col, offset, dtype, device):
    _check_kwargs(device)
    for name, v, pos in (("row", row, 1), ("col", col, 2), ("offset", offset, 3)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be int, not "
                            f"{type(v).__name__}")
    d = _core.to_dtype_py(dtype if dtype is not None else _core_dtype.all_dtypes()["int64"])
    if d.name not in ("int32", "int64"):
        _no_kernel_for(d, fname)
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    # row-major order of the (row, col) positions on or below (tril) / above (triu) the
    # offset diagonal, as PyTorch lists them
    rows, cols = which(int(row), int(offset), int(col))
    return _leaf(np.stack([rows, cols]).astype(d.np_dtype).reshape(2, -1), False)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The indices of the lower triangle (on and below the offset diagonal) of a row x
    col matrix, as a 2 x N tensor: row indices, then column indices.

    >>> import autograd_core as torch
    >>> torch.tril_indices(3, 3)
    tensor([[0, 1, 1, 2, 2, 2],
            [0, 0, 1, 0, 1, 2]])
    """
    return _tri_indices("tril_indices", np.tril_indices, row, col, offset, dtype, device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The indices of the upper triangle (on and above the offset diagonal) of a row x
    col matrix, as a 2 x N tensor: row indices, then column indices.

    >>> import autograd_core as torch
    >>> torch.triu_indices(3, 4, 1)
    tensor([[0, 0, 0, 1, 1, 2],
            [1, 2, 3, 2, 3, 3]])
    """
    return _tri_indices("triu_indices", np.triu_indices, row, col, offset, dtype, device)


# ---------------------------------------------------------------- window functions
# torch.hann_window & co. are ATen kernels: each step (arange, mul_ by a double, cos_,
# ...) runs in the tensor's dtype (float16 steps in float32, rounded after each), so
# float32 windows are computed here in float32, step for step as PyTorch's.

_WINDOW_KWARGS = ("dtype", "layout", "device", "pin_memory", "requires_grad")
_WINDOW_TAIL = ("*, autograd_core.dtype dtype = None, autograd_core.layout layout = None, "
                "autograd_core.device device = None, bool pin_memory = False, "
                "bool requires_grad = False")
# each window's positional overloads after window_length: (name, type) lists
_WINDOW_OVERLOADS = {
    "hann_window": ((), (("periodic", "bool"),)),
    "bartlett_window": ((), (("periodic", "bool"),)),
    "blackman_window": ((), (("periodic", "bool"),)),
    "hamming_window": ((), (("periodic", "bool"),), (("periodic", "bool"), ("alpha", "float")),
                       (("periodic", "bool"), ("alpha", "float"), ("beta", "float"))),
    "kaiser_window": ((), (("periodic", "bool"),), (("periodic", "bool"), ("beta", "float"))),
}


def _window_signatures(name):
    lines = []
    for extra in _WINDOW_OVERLOADS[name]:
        parts = ["int window_length"] + [f"{t} {n}" for n, t in extra] + [_WINDOW_TAIL]
        lines.append(f" * ({', '.join(parts)})")
    return "\n".join(lines)


def _is_window_int(x):
    if isinstance(x, _core.Tensor):
        return x.numel() == 1 and not x.dtype.is_floating_point and x.dtype.name != "bool"
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _window_type_ok(x, kind):
    if kind == "bool":
        return isinstance(x, bool)
    if kind == "float":
        return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)
    if kind == "dtype":
        return x is None or isinstance(x, _core_dtype.dtype)
    if kind == "layout":
        return x is None or isinstance(x, _core.layout)
    if kind == "device":
        return x is None or isinstance(x, (str, int, _core.device))
    return isinstance(x, bool)        # pin_memory, requires_grad


def _type_name(x):
    """A value's type as PyTorch's argument parser names it in its messages."""
    if isinstance(x, _core.Tensor):
        return "Tensor"
    if isinstance(x, _core_dtype.dtype):
        return "autograd_core.dtype"
    return type(x).__name__


def _window_args(name, args, kwargs):
    """(window_length, [the overload's other values], options) of a call to a window
    factory, resolved and checked as PyTorch's argument parser does."""
    kinds = {"dtype": "dtype", "layout": "layout", "device": "device"}
    for extra in _WINDOW_OVERLOADS[name]:
        params = (("window_length", "int"),) + extra
        if len(args) > len(params):
            continue
        values, rest = list(args), dict(kwargs)
        for pname, _ in params[len(args):]:
            if pname not in rest:
                break
            values.append(rest.pop(pname))
        else:
            if not all(k in _WINDOW_KWARGS and _window_type_ok(v, kinds.get(k, "bool"))
                       for k, v in rest.items()):
                continue
            if not _is_window_int(values[0]):
                if len(params) == 1:        # the one plausible overload: its own message
                    raise TypeError(f"{name}(): argument 'window_length' (position 1) must "
                                    f"be int, not {_type_name(values[0])}")
                continue
            if all(_window_type_ok(v, t) for v, (_, t) in zip(values[1:], extra)):
                return int(values[0]), values[1:], rest
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    raise TypeError(f"{name}() received an invalid combination of arguments - got "
                    f"({', '.join(got)}), but expected one of:\n{_window_signatures(name)}\n")


def _window_dtype(name, n, dtype, layout, device, pin_memory):
    """The dtype of a window, after PyTorch's window_function_checks."""
    _check_kwargs(device)
    if pin_memory:
        raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no "
                           "pinned memory allocator is available on this system.")
    d = _core.to_dtype_py(dtype if dtype is not None else _core_dtype.get_default_dtype())
    lay_name = "strided" if layout is None else str(layout).rsplit(".", 1)[-1]
    # PyTorch's Layout spelling: Strided, Sparse (COO), SparseCsr, SparseCsc, ...
    lay = ("Strided (default)" if layout is None else "Sparse" if lay_name == "sparse_coo"
           else "".join(part.capitalize() for part in lay_name.split("_")))

    def options(dtype_text):
        return (f"TensorOptions(dtype={dtype_text}, device=cpu, layout={lay}, requires_grad="
                f"false (default), pinned_memory=false, memory_format=(nullopt))")

    if lay_name == "sparse_coo":
        # hann_window checks the options as given; the others after resolving the dtype
        text = _core_dtype.CPP_NAMES[d.name] + (
            " (default)" if dtype is None and name == "hann_window" else "")
        raise RuntimeError(f"{name} is not implemented for sparse types, got: {options(text)}")
    if not (d.is_floating_point or d.is_complex):
        raise RuntimeError(f"{name} expects floating point dtypes, got: "
                           f"{options(_core_dtype.CPP_NAMES[d.name])}")
    if n < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={n}")
    if lay_name != "strided":
        # the compressed layouts pass the checks and fail in the kernel's empty()
        raise RuntimeError("autograd_core.empty: Only batched sparse compressed (non-block) "
                           f"tensors are supported, but got size [{1 if n == 1 else 0}]")
    if d.is_complex and n > 1:
        # complex dtypes pass the checks; lengths 0 and 1 need no kernel, the rest
        # fail in arange
        raise NotImplementedError(
            f"\"arange_cpu\" not implemented for '{_core_dtype.SCALAR_NAMES[d.name]}'")
    return d.np_dtype


def _in(d, op, *xs):
    """op on arrays of dtype d, in d's opmath type (float32 for float16), rounded to d; a
    scalar operand is first cast to d (the kernels' mul_(Scalar) converts it: aten::to)."""
    wide = np.dtype(np.float32) if d == np.float16 else d
    with np.errstate(all="ignore"):
        return np.asarray(op(*[np.asarray(x).astype(wide) if isinstance(x, np.ndarray)
                               else wide.type(d.type(x)) for x in xs])).astype(d)


def _cos(x):
    # closer to PyTorch's vectorised float32 cos than numpy's float32 loop: the
    # correctly rounded value, which SLEEF's 1-ulp cos mostly returns
    return np.cos(x.astype(np.float64))


def _cosine_sum(d, n, periodic, terms):
    """sum_k c_k cos(k * 2 pi i / (N - 1)) as PyTorch's hamming and blackman kernels
    compute it; terms picks the kernel."""
    if periodic:
        n += 1
    i = np.arange(n, dtype=d)
    if terms == "blackman":
        w = _in(d, np.multiply, i, np.pi / float(n - 1))
        a = _in(d, np.multiply, _in(d, _cos, _in(d, np.multiply, w, 4)), 0.08)
        b = _in(d, np.multiply, _in(d, _cos, _in(d, np.multiply, w, 2)), 0.5)
        w = _in(d, np.add, _in(d, np.subtract, a, b), 0.42)
    else:
        alpha, beta = terms
        w = _in(d, _cos, _in(d, np.multiply, i, np.pi * 2.0 / float(n - 1)))
        w = _in(d, np.add, _in(d, np.multiply, w, -beta), alpha)
    return w[:n - 1] if periodic else w


def _bartlett(d, n, periodic):
    if periodic:
        n += 1
    w = _in(d, np.multiply, np.arange(n, dtype=d), 2.0 / float(n - 1))
    half = ((n - 1) >> 1) + 1
    w[half:] = _in(d, np.add, _in(d, np.multiply, w[half:], -1), 2)
    return w[:n - 1] if periodic else w


def _kaiser(d, n, periodic, beta):
    """PyTorch's kaiser_window kernel: I0(beta sqrt(|1 - ((i - a) / a)^2|)) / I0(beta),
    a = (N - 1) / 2, in d's opmath type."""
    if periodic:
        n += 1
    wide = np.dtype(np.float32) if d.itemsize == 2 else d      # float16 and bfloat16
    alpha, b = wide.type((n - 1) / 2.0), wide.type(beta)
    a = np.arange(n, dtype=d).astype(wide)
    with np.errstate(all="ignore"):
        t = (a - alpha) / alpha
        arg = b * np.sqrt(np.abs(wide.type(1) - t * t))
        # (the i0 op's values: float32 evaluated in float, as PyTorch's calc_i0)
        w = (_pointwise._ufunc_i0(arg) / _pointwise._ufunc_i0(np.array([b]))).astype(d)
    return w[:n - 1] if periodic else w


def _window(name, args, kwargs, compute):
    n, extra, kw = _window_args(name, args, kwargs)
    d = _window_dtype(name, n, kw.get("dtype"), kw.get("layout"), kw.get("device"),
                      kw.get("pin_memory", False))
    if n == 0:
        arr = np.empty(0, d)
    elif n == 1:
        arr = np.ones(1, d)
    else:
        periodic = extra[0] if extra else True
        arr = compute(d, n, periodic, *extra[1:])
    return _leaf(arr, kw.get("requires_grad", False))


def hann_window(*args, **kwargs):
    """``hann_window(window_length, periodic=True, *, dtype=None, layout=torch.strided,
    device=None, requires_grad=False)``: the Hann window
    w[n] = 0.5 - 0.5 cos(2 pi n / (N - 1)), N = window_length (+1 if periodic, the last
    point dropped).

    >>> import autograd_core as torch
    >>> torch.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return _window("hann_window", args, kwargs,
                   lambda d, n, periodic: _cosine_sum(d, n, periodic, (0.5, 0.5)))


def hamming_window(*args, **kwargs):
    """``hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
    layout=torch.strided, device=None, requires_grad=False)``: the Hamming window
    w[n] = alpha - beta cos(2 pi n / (N - 1)).

    >>> import autograd_core as torch
    >>> torch.hamming_window(4, False)
    tensor([0.0800, 0.7700, 0.7700, 0.0800])
    """
    return _window("hamming_window", args, kwargs,
                   lambda d, n, periodic, alpha=0.54, beta=0.46:
                   _cosine_sum(d, n, periodic, (float(alpha), float(beta))))


def blackman_window(*args, **kwargs):
    """``blackman_window(window_length, periodic=True, *, dtype=None, layout=torch.strided,
    device=None, requires_grad=False)``: the Blackman window
    w[n] = 0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1)).

    >>> import autograd_core as torch
    >>> torch.blackman_window(3, periodic=False)
    tensor([-2.9802e-08,  1.0000e+00, -2.9802e-08])
    """
    return _window("blackman_window", args, kwargs,
                   lambda d, n, periodic: _cosine_sum(d, n, periodic, "blackman"))


def bartlett_window(*args, **kwargs):
    """``bartlett_window(window_length, periodic=True, *, dtype=None, layout=torch.strided,
    device=None, requires_grad=False)``: the triangular Bartlett window
    ``w[n] = 1 - |2n / (N - 1) - 1|``.

    >>> import autograd_core as torch
    >>> torch.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return _window("bartlett_window", args, kwargs, _bartlett)


def kaiser_window(*args, **kwargs):
    """``kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None,
    layout=torch.strided, device=None, requires_grad=False)``: the Kaiser window
    w[n] = I0(beta sqrt(1 - ((n - N/2) / (N/2))^2)) / I0(beta), N = window_length - 1
    (window_length if periodic).

    >>> import autograd_core as torch
    >>> torch.kaiser_window(4, False, 2.0)
    tensor([0.4387, 0.9243, 0.9243, 0.4387])
    """
    return _window("kaiser_window", args, kwargs,
                   lambda d, n, periodic, beta=12.0: _kaiser(d, n, periodic, float(beta)))


# ---------------------------------------------------------------- profiler events
# Note [Creation functions in the profiler]: the factories above are Python, not ops of
# the OPS table, so the op table's hooked twins (Note [Op hook]) never see them. While
# a profiler records on this thread, each one emits the events PyTorch's ATen records
# for it, named and nested as there: the factory op ("aten::randn", its number of
# schema arguments as empty input shapes), inside it the allocation ("aten::empty", or
# "aten::empty_like" > "aten::empty_strided" for the *_like ones) and the in-place fill
# on the result ("aten::normal_"). Off, a call pays one check of the recorder's flag.
_pushrec = _core._record_function_enter
_poprec = _core._record_function_exit
_profiling = _core._profiler_is_enabled
_N6 = (None,) * 6


def _event(name, inputs, children=()):
    r = _pushrec(name, inputs, False)
    for child in children:
        _event(*child)
    _poprec(r)


def _fill_events(fill, result):
    if fill is None:
        return ()
    name, extra = fill
    return ((f"aten::{name}", (result,) + (None,) * extra),)


# name -> (number of schema arguments, the fill on the result: (op, its other args))
_FACTORIES = {
    "zeros": (5, ("zero_", 0)), "ones": (5, ("fill_", 1)), "full": (6, ("fill_", 1)),
    "rand": (5, ("uniform_", 3)), "randn": (5, ("normal_", 3)), "empty": (6, None),
}
_LIKES = {
    "zeros_like": (6, ("zero_", 0)), "ones_like": (6, ("fill_", 1)),
    "full_like": (7, ("fill_", 1)), "empty_like": (6, None),
}


def _standing_in_for(fn, wrapper):
    """wrapper named and documented as the factory fn it wraps (its signature follows
    __wrapped__)."""
    wrapper.__name__ = wrapper.__qualname__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    wrapper.__module__ = fn.__module__
    wrapper.__wrapped__ = fn
    return wrapper


def _profiled(fn, events):
    """fn, emitting events(result, args, kwargs) around its call while the profiler
    records (Note [Creation functions in the profiler])."""
    def wrapper(*args, **kwargs):
        if not _profiling():
            return fn(*args, **kwargs)
        outer, children_of = events(args, kwargs)
        if outer is None:           # out= and the like: not modelled, no events
            return fn(*args, **kwargs)
        r = _pushrec(outer[0], outer[1], False)
        try:
            result = fn(*args, **kwargs)
            for child in children_of(result):
                _event(*child)
        finally:
            _poprec(r)
        return result
    return _standing_in_for(fn, wrapper)


def _factory_events(name):
    nargs, fill = _FACTORIES[name]

    def events(args, kwargs):
        if kwargs.get("out") is not None:
            return None, None
        n = nargs + (kwargs.get("generator") is not None)
        children = (lambda res: (("aten::empty", _N6),) + _fill_events(fill, res)) \
            if name != "empty" else (lambda res: ())
        return (f"aten::{name}", (None,) * n), children
    return events


def _like_events(name):
    nargs, fill = _LIKES[name]

    def events(args, kwargs):
        x = args[0] if args else kwargs.get("input")
        if not isinstance(x, _core.Tensor):
            return None, None
        inner = ("aten::empty_strided", _N6)
        if name == "empty_like":
            return (f"aten::{name}", (x,) + (None,) * 5), lambda res: (inner,)
        return ((f"aten::{name}", (x,) + (None,) * (nargs - 1)),
                lambda res: (("aten::empty_like", (x,) + (None,) * 5, (inner,)),)
                + _fill_events(fill, res))
    return events


def _out_events(name, nargs, inner_inputs, after=()):
    """A factory PyTorch runs as its out= kernel into an empty tensor: the factory op,
    aten::empty, the out= kernel (inputs, then the out tensor, still empty) with its
    resize_ (arange, eye: the size is known inside; linspace and logspace allocate it
    first), then the fills in after."""
    resizes = name in ("arange", "eye")

    def events(args, kwargs):
        if kwargs.get("out") is not None:
            return None, None
        n = nargs(args, kwargs)
        return (f"aten::{name}", (None,) * n), lambda res: (
            ("aten::empty", _N6),
            (f"aten::{name}", (None,) * inner_inputs(args, kwargs) + (
                (_empty0(),) if resizes else (res,)),
             ((("aten::resize_", (_empty0(), None, None)),) if resizes else ())
             + tuple(f(res) for f in after)))
    return events


_EMPTY0 = []


def _empty0():
    if not _EMPTY0:
        _EMPTY0.append(_leaf(np.empty(0, np.float32), False))
    return _EMPTY0[0]


zeros = _profiled(zeros, _factory_events("zeros"))
ones = _profiled(ones, _factory_events("ones"))
full = _profiled(full, _factory_events("full"))
rand = _profiled(rand, _factory_events("rand"))
randn = _profiled(randn, _factory_events("randn"))
empty = _profiled(empty, _factory_events("empty"))
zeros_like = _profiled(zeros_like, _like_events("zeros_like"))
ones_like = _profiled(ones_like, _like_events("ones_like"))
full_like = _profiled(full_like, _like_events("full_like"))
empty_like = _profiled(empty_like, _like_events("empty_like"))
# arange(end) / (start, end) / (start, end, step): 5, 6, 7 schema arguments; the
# out= kernel takes (start, end, step, out)
arange = _profiled(arange, _out_events("arange", lambda a, k: 4 + len(a), lambda a, k: 3))
linspace = _profiled(linspace, _out_events("linspace", lambda a, k: 7, lambda a, k: 3))
logspace = _profiled(logspace, _out_events("logspace", lambda a, k: 8, lambda a, k: 4))
eye = _profiled(eye, _out_events(
    "eye", lambda a, k: 5 + (len(a) > 1 or k.get("m") is not None), lambda a, k: 2,
    after=(lambda res: ("aten::zero_", (res,)),)))


def _randint_events(args, kwargs):
    if kwargs.get("out") is not None:
        return None, None
    n = 4 + len(args) + ("size" in kwargs) + ("high" in kwargs) + \
        (kwargs.get("generator") is not None)
    return ("aten::randint", (None,) * n), lambda res: (
        ("aten::empty", _N6), ("aten::random_", (res, None, None, None)))


def _randperm_events(args, kwargs):
    if kwargs.get("out") is not None:
        return None, None
    return ("aten::randperm", (None,) * (5 + (kwargs.get("generator") is not None))), \
        lambda res: (("aten::empty", _N6), ("aten::randperm", (None, None, res), (
            ("aten::scalar_tensor", (None,) * 5), ("aten::resize_", (res, None, None)),
            ("aten::resize_", (res, None, None)))))


randint = _profiled(randint, _randint_events)
randperm = _profiled(randperm, _randperm_events)


# the events of ATen's window kernels: a scalar operand becomes a tensor (aten::to ...)
def _n(k):
    return (None,) * k


_TO = ("aten::to", _n(5), (("aten::_to_copy", _n(7), (("aten::empty_strided", _n(6)),
                                                      ("aten::copy_", _n(3)))),))
_SCALAR_MUL_ = ("aten::mul_", _n(2), (("aten::mul", _n(3), (_TO,)),))
_NARROW = ("aten::narrow", _n(4), (("aten::slice", _n(5), (("aten::as_strided", _n(4)),)),))
_ARANGE = (("aten::empty", _N6), ("aten::arange", _n(4), (("aten::resize_", _n(3)),)))
_WINDOW_STEPS = {
    "hamming": (_SCALAR_MUL_, ("aten::cos_", _n(1)), _SCALAR_MUL_, ("aten::add_", _n(3), (_TO,))),
    "blackman": (_SCALAR_MUL_, ("aten::mul", _n(2), (_TO,)), ("aten::cos_", _n(1)),
                 _SCALAR_MUL_, ("aten::mul", _n(2), (_TO,)), ("aten::cos_", _n(1)),
                 _SCALAR_MUL_, ("aten::sub", _n(3)), ("aten::add", _n(3), (_TO,))),
    "bartlett": (_SCALAR_MUL_, _NARROW, _SCALAR_MUL_, ("aten::add_", _n(3), (_TO,))),
}


def _window_events(name):
    kind = name[:-len("_window")]

    def events(args, kwargs):
        try:
            n, extra, _ = _window_args(name, args, kwargs)
        except TypeError:
            return None, None       # the call raises: no events, as PyTorch's parser
        periodic = extra[0] if extra else True
        outer = (f"aten::{name}", _n(5 + len(extra)))
        if n <= 1:
            return outer, lambda res: (("aten::empty", _N6),) + (
                (("aten::fill_", (res, None)),) if n == 1 else ())
        if kind == "kaiser":
            steps = (("aten::arange", _n(5), _ARANGE), ("aten::empty", _N6))
        else:
            steps = _ARANGE + _WINDOW_STEPS["hamming" if kind == "hann" else kind]
        return outer, lambda res: steps + ((_NARROW,) if periodic else ())
    return events


hann_window = _profiled(hann_window, _window_events("hann_window"))
hamming_window = _profiled(hamming_window, _window_events("hamming_window"))
blackman_window = _profiled(blackman_window, _window_events("blackman_window"))
bartlett_window = _profiled(bartlett_window, _window_events("bartlett_window"))
kaiser_window = _profiled(kaiser_window, _window_events("kaiser_window"))


def _tensor_from_data(fn):
    """tensor(): PyTorch builds it from Python data (numbers, nested lists) as
    aten::empty, aten::to, aten::lift_fresh and aten::detach_ (> detach_), each at the
    top level (Note [Creation functions in the profiler]); other data is not modelled."""
    def wrapper(data, *args, **kwargs):
        if not _profiling() or isinstance(data, (_core.Tensor, np.ndarray)):
            return fn(data, *args, **kwargs)
        _event("aten::empty", _N6)
        result = fn(data, *args, **kwargs)
        _event("aten::to", (result,) + (None,) * 5)
        _event("aten::lift_fresh", (result,))
        _event("aten::detach_", (result,), (("detach_", (result,)),))
        return result
    return _standing_in_for(fn, wrapper)


tensor = _tensor_from_data(tensor)
