"""Tensor creation: thin argument handling over numpy; the core wraps the arrays."""
import numpy as np

from autograd_core._core import tensor as _core
from autograd_core._core import dtype as _core_dtype

_rng = np.random.default_rng()


def _np_dtype(dtype, default):
    return _core.to_dtype_py(dtype if dtype is not None else default).np_dtype


def _leaf(arr, requires_grad):
    return _core.from_array(np.array(arr, order="C", copy=None), requires_grad=requires_grad)


def _check_kwargs(device=None, layout=None, pin_memory=False, memory_format=None):
    if device is not None:
        _core.device(device)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of data (float data -> float32, ints -> int64).

    >>> import autograd_core as torch
    >>> torch.tensor([1., 2, 3, 4], requires_grad=True)
    tensor([1., 2., 3., 4.], requires_grad=True)
    """
    _check_kwargs(device)
    return _core.tensor_from_data(data, dtype, requires_grad)


def _check_sizes(shape, name):
    for s in shape:
        if s < 0:
            if name == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(str(x) for x in shape)}]")
    return shape


def _filled(fill, size, dtype, requires_grad, name, default=None):
    shape = _check_sizes(_core.parse_size(size, name), name)
    d = _np_dtype(dtype, default if default is not None else _core_dtype.get_default_dtype())
    arr = np.full(shape, fill, dtype=d) if fill is not None else np.empty(shape, dtype=d)
    return _leaf(arr, requires_grad)


def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor of zeros: ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    _check_kwargs(device)
    return _filled(0, size, dtype, requires_grad, "zeros")


def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor of ones: ``ones(2, 3)`` or ``ones((2, 3))``."""
    _check_kwargs(device)
    return _filled(1, size, dtype, requires_grad, "ones")


def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, memory_format=None):
    """An uninitialised tensor of the given size."""
    _check_kwargs(device)
    return _filled(None, size, dtype, requires_grad, "empty")


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """A tensor filled with fill_value; its dtype is inferred from the value like PyTorch."""
    _check_kwargs(device)
    if dtype is None:
        if isinstance(fill_value, bool):
            dtype = _core_dtype.all_dtypes()["bool"]
        elif isinstance(fill_value, int):
            dtype = _core_dtype.all_dtypes()["int64"]
    return _filled(fill_value, (size,), dtype, requires_grad, "full")


def _like(input, fill, dtype, requires_grad):
    if not isinstance(input, _core.Tensor):
        raise TypeError(f"expected Tensor as argument 'input', but got {type(input).__name__}")
    d = (_core.to_dtype_py(dtype) if dtype is not None else input.dtype).np_dtype
    arr = np.full(input.shape, fill, dtype=d) if fill is not None else np.empty(input.shape, dtype=d)
    return _leaf(arr, requires_grad)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Zeros with input's shape (and dtype unless given)."""
    return _like(input, 0, dtype, requires_grad)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Ones with input's shape (and dtype unless given)."""
    return _like(input, 1, dtype, requires_grad)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None):
    """fill_value with input's shape (and dtype unless given)."""
    return _like(input, fill_value, dtype, requires_grad)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Uninitialised, with input's shape (and dtype unless given)."""
    return _like(input, None, dtype, requires_grad)


def _num(x):
    return x.item() if isinstance(x, _core.Tensor) else x


def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    """Values from start to end (exclusive) by step; int64 unless a bound is a float."""
    _check_kwargs(device)
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        floating = any(isinstance(v, float) for v in (start, end, step))
        dtype = _core_dtype.get_default_dtype() if floating else _core_dtype.all_dtypes()["int64"]
    d = _core.to_dtype_py(dtype)
    # Count in float64 like PyTorch (ceil((end - start) / step)), then compute values.
    n = int(np.ceil((end - start) / step))
    arr = (start + np.arange(n, dtype=np.float64) * step) if d.is_floating_point or any(
        isinstance(v, float) for v in (start, end, step)) else np.arange(start, end, step)
    return _leaf(np.asarray(arr).astype(d.np_dtype), requires_grad)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    """steps evenly spaced values from start to end inclusive."""
    _check_kwargs(device)
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise TypeError(f"linspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    d = _np_dtype(dtype, _core_dtype.get_default_dtype())
    return _leaf(np.linspace(_num(start), _num(end), steps).astype(d), requires_grad)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The n x m identity matrix."""
    _check_kwargs(device)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    return _leaf(np.eye(n, m, dtype=_np_dtype(dtype, _core_dtype.get_default_dtype())), requires_grad)


def manual_seed(seed):
    """Seed the generator behind rand/randn/randint, for reproducible runs."""
    global _rng
    _rng = np.random.default_rng(int(seed))
    return _rng


def seed():
    """Re-seed the generator from the operating system's entropy."""
    global _rng
    _rng = np.random.default_rng()


def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Uniform samples on [0, 1)."""
    _check_kwargs(device)
    shape = _check_sizes(_core.parse_size(size, "rand"), "rand")
    d = _np_dtype(dtype, _core_dtype.get_default_dtype())
    return _leaf(_rng.random(shape).astype(d), requires_grad)


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Standard normal samples."""
    _check_kwargs(device)
    shape = _check_sizes(_core.parse_size(size, "randn"), "randn")
    d = _np_dtype(dtype, _core_dtype.get_default_dtype())
    return _leaf(_rng.standard_normal(shape).astype(d), requires_grad)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    """Integers uniformly from [low, high)."""
    _check_kwargs(device)
    if size is None and isinstance(high, (tuple, list)):
        low, high, size = 0, low, high  # randint(high, size)
    if high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    shape = _core.parse_size((size,), "randint")
    d = _np_dtype(dtype, _core_dtype.all_dtypes()["int64"])
    return _leaf(_rng.integers(low, high, size=shape).astype(d), requires_grad)


def from_numpy(ndarray):
    """A tensor sharing memory with a numpy array (changes show in both)."""
    return _core.from_array(ndarray, requires_grad=False)


def as_tensor(data, dtype=None, device=None):
    """Like tensor(), but shares memory with a numpy array or tensor when it can."""
    _check_kwargs(device)
    if isinstance(data, _core.Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or _core.to_dtype_py(dtype).np_dtype == data.dtype):
        return _core.from_array(data, requires_grad=False)
    return _core.tensor_from_data(data, dtype, False)
