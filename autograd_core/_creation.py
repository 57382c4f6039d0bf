"""Tensor creation: thin argument handling over numpy; the core wraps the arrays."""
import numpy as np

from autograd_core._core import tensor as _core
from autograd_core._core import dtype as _core_dtype
from autograd_core._core import random as _random


def _np_dtype(dtype, default):
    return _core.to_dtype_py(dtype if dtype is not None else default).np_dtype


def _leaf(arr, requires_grad):
    return _core.from_array(np.array(arr, order="C", copy=None), requires_grad=requires_grad)


def _check_kwargs(device=None, layout=None, pin_memory=False, memory_format=None):
    if device is not None:
        _core.check_device(device)


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
    return _leaf(_core.new_array(shape, d, fill), requires_grad)


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
    if not _is_number(fill_value):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(fill_value).__name__}")
    if dtype is None:
        if isinstance(fill_value, bool):
            dtype = _core_dtype.all_dtypes()["bool"]
        elif isinstance(fill_value, int):
            dtype = _core_dtype.all_dtypes()["int64"]
    return _filled(fill_value, (size,), dtype, requires_grad, "full")


def _like(input, fill, dtype, requires_grad, name, device=None):
    if not isinstance(input, _core.Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    _check_kwargs(device)
    if fill is not None and not _is_number(fill):
        raise TypeError(f"{name}(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(fill).__name__}")
    d = (_core.to_dtype_py(dtype) if dtype is not None else input.dtype).np_dtype
    return _leaf(_core.new_array(tuple(input.shape), d, fill), requires_grad)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Zeros with input's shape (and dtype unless given)."""
    return _like(input, 0, dtype, requires_grad, "zeros_like", device)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Ones with input's shape (and dtype unless given)."""
    return _like(input, 1, dtype, requires_grad, "ones_like", device)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None):
    """fill_value with input's shape (and dtype unless given)."""
    return _like(input, fill_value, dtype, requires_grad, "full_like", device)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Uninitialised, with input's shape (and dtype unless given)."""
    return _like(input, None, dtype, requires_grad, "empty_like", device)


def _is_number(x):
    """A 'Number' argument: a Python or numpy number, or a one-element tensor."""
    if isinstance(x, _core.Tensor):
        return x.numel() == 1
    return isinstance(x, (int, float, complex, np.number, np.bool_))


def _num(x):
    return x.item() if isinstance(x, _core.Tensor) else x


def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    """Values from start to end (exclusive) by step; int64 unless a bound is a float."""
    _check_kwargs(device)
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
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
    # Count in float64 like PyTorch (ceil((end - start) / step)), then compute values.
    n = int(np.ceil((end - start) / step))
    try:
        arr = (start + np.arange(n, dtype=np.float64) * step) if d.is_floating_point or any(
            isinstance(v, float) for v in (start, end, step)) else np.arange(start, end, step)
    except (MemoryError, ValueError):
        raise _core.new_array_error((n,), d.np_dtype) from None
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
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return _leaf(np.eye(n, m, dtype=_np_dtype(dtype, _core_dtype.get_default_dtype())), requires_grad)


def manual_seed(seed):
    """Seed the default generator (PyTorch's stream: the same seed draws the same numbers
    as ``torch.manual_seed``); returns the generator.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(3)
    tensor([0.4963, 0.7682, 0.0885])
    """
    return _random.manual_seed(int(seed))  # as torch.manual_seed: "12" and 1.5 seed too


def seed():
    """Seed the default generator from a non-deterministic source; returns the seed."""
    return _random.seed()


def initial_seed():
    """The seed of the default generator."""
    return _random.initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 tensor (PyTorch's layout)."""
    return _random.get_rng_state()


def set_rng_state(new_state):
    """Restore the default generator's state from get_rng_state()."""
    _random.set_rng_state(new_state)


def _sampled(size, dtype, requires_grad, name, draw, default=None):
    shape = _check_sizes(_core.parse_size(size, name), name)
    d = _core.to_dtype_py(dtype if dtype is not None else
                          (default if default is not None else _core_dtype.get_default_dtype()))
    return _leaf(draw(_core.new_array(shape, d.np_dtype), d), requires_grad)


def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False):
    """Uniform samples on [0, 1), PyTorch's numbers for the same seed.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(2, 2)
    tensor([[0.4963, 0.7682],
            [0.0885, 0.1320]])
    """
    _check_kwargs(device)

    def draw(like, d):
        return _random.sample_uniform(like, 0.0, 1.0, generator)
    return _sampled(size, dtype, requires_grad, "rand", draw)


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None,
          requires_grad=False, pin_memory=False):
    """Standard normal samples, PyTorch's numbers for the same seed.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.randn(3, dtype=torch.float64)
    tensor([ 1.5410, -0.2934, -2.1788], dtype=autograd_core.float64)
    """
    _check_kwargs(device)

    def draw(like, d):
        return _random.sample_normal(like, 0.0, 1.0, generator)
    return _sampled(size, dtype, requires_grad, "randn", draw)


def randint(low, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None,
            device=None, requires_grad=False, pin_memory=False):
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
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")

    def draw(like, d):
        return _random.sample_random(like, low, high, generator)
    return _sampled((size,), dtype, requires_grad, "randint", draw,
                    default=_core_dtype.all_dtypes()["int64"])


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
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
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    d = _core.to_dtype_py(dtype if dtype is not None else _core_dtype.all_dtypes()["int64"])
    return _leaf(_random.sample_randperm(n, generator).astype(d.np_dtype), requires_grad)


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
        raise TypeError(f"multinomial(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    n_sample = int(num_samples)
    probs = input.detach().numpy()
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
    return _leaf(np.ascontiguousarray(idx, dtype=np.int64).reshape(shape), False)


_core._install_methods({"multinomial": multinomial})


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
