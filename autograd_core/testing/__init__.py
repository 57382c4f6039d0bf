"""torch.testing: assert_close (PyTorch's default tolerances per dtype and its
messages) and make_tensor.

>>> import autograd_core as torch
>>> torch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2. + 1e-7]))
"""
import collections.abc
import math

import autograd_core as _ag

__all__ = ["assert_allclose", "assert_close", "make_tensor"]

# (rtol, atol) by dtype name, PyTorch's defaults; integers and bool compare exactly
_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7)}


class _Mismatch(AssertionError):
    """A failed comparison; ``path`` is where in nested sequences/mappings it lies."""

    def __init__(self, msg, path=""):
        super().__init__(msg)
        self.msg, self.path = msg, path


def _tolerances(dtype, rtol, atol):
    if (rtol is None) ^ (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {'rtol' if rtol is None else 'atol'}.")
    if rtol is not None:
        return rtol, atol
    return _TOLERANCES.get(dtype.name, (0.0, 0.0))


def _mismatch_msg(identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def diff_msg(kind, diff, idx, tol):
        m = (f"{kind.title()} difference: {diff}" if idx is None
             else f"Greatest {kind} difference: {diff} at index {idx}")
        return m + ("" if equality else f" (up to {tol} allowed)") + "\n"

    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += diff_msg("absolute", abs_diff, abs_idx, atol)
    msg += diff_msg("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _unravel(flat, shape):
    idx = []
    for s in reversed(shape):
        idx.append(flat % s)
        flat //= s
    return tuple(reversed(idx))


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, identifier):
    if actual.shape != expected.shape:
        raise _Mismatch(f"The values for attribute 'shape' do not match: {actual.shape} != "
                        f"{expected.shape}.")
    if actual.dtype is not expected.dtype:
        if check_dtype:
            raise _Mismatch(f"The values for attribute 'dtype' do not match: {actual.dtype} != "
                            f"{expected.dtype}.")
        d = _ag.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(d), expected.to(d)
    rtol, atol = _tolerances(actual.dtype, rtol, atol)
    with _ag.no_grad():
        actual, expected = actual.detach(), expected.detach()
        if actual.dtype is _ag.bool:
            matches = actual == expected
        else:
            matches = _ag.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
        if bool(matches.all()):
            return
        n = matches.numel()
        bad = n - int(matches.sum())
        extra = f"Mismatched elements: {bad} / {n} ({bad / n:.1%})"
        a, e, m = actual.flatten(), expected.flatten(), matches.flatten()
        if not a.dtype.is_floating_point:
            a, e = a.to(_ag.int64), e.to(_ag.int64)
        abs_diff = _ag.abs(a - e)
        abs_diff[m] = 0
        max_abs, abs_i = _ag.max(abs_diff, 0)
        rel_diff = abs_diff / _ag.abs(e)
        rel_diff[m] = 0
        max_rel, rel_i = _ag.max(rel_diff, 0)
    raise _Mismatch(_mismatch_msg(identifier or "Tensor-likes", extra, max_abs.item(),
                                  _unravel(int(abs_i), matches.shape), atol, max_rel.item(),
                                  _unravel(int(rel_i), matches.shape), rtol))


def _scalar_dtype(x):
    if isinstance(x, bool):
        return _ag.bool
    return _ag.int64 if isinstance(x, int) else _ag.float64


def _compare(actual, expected, rtol, atol, equal_nan, check_dtype, msg_identifier):
    if isinstance(actual, _ag.Tensor) or isinstance(expected, _ag.Tensor):
        if not (isinstance(actual, _ag.Tensor) and isinstance(expected, _ag.Tensor)):
            raise TypeError(f"No comparison pair was able to handle inputs of type "
                            f"{type(actual)} and {type(expected)}.")
        if actual.ndim == 0 and expected.ndim == 0 and actual.dtype is expected.dtype:
            # two 0-d tensors fail as scalars do in PyTorch's messages
            try:
                _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype,
                                 msg_identifier)
            except _Mismatch:
                rt, at = _tolerances(actual.dtype, rtol, atol)
                a, e = actual.item(), expected.item()
                abs_diff = abs(a - e)
                rel_diff = float("inf") if e == 0 else abs_diff / abs(e)
                raise _Mismatch(_mismatch_msg(msg_identifier or "Scalars",
                                              f"Expected {e} but got {a}.", abs_diff, None, at,
                                              rel_diff, None, rt)) from None
            return
        return _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype,
                                msg_identifier)
    numbers = (int, float, bool)
    if isinstance(actual, numbers) and isinstance(expected, numbers):
        if check_dtype and type(actual) is not type(expected):
            raise _Mismatch(f"The (d)types do not match: {type(actual)} != {type(expected)}.")
        rt, at = _tolerances(_scalar_dtype(actual), rtol, atol)
        if actual == expected or (equal_nan and math.isnan(actual) and math.isnan(expected)):
            return
        if abs(actual - expected) <= at + rt * abs(expected):
            return
        abs_diff = abs(actual - expected)
        rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
        raise _Mismatch(_mismatch_msg(msg_identifier or "Scalars",
                                      f"Expected {expected} but got {actual}.", abs_diff, None,
                                      at, rel_diff, None, rt))
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected,
                                                                  collections.abc.Mapping):
        if set(actual) != set(expected):
            raise _Mismatch(f"The keys of the mappings do not match:\n"
                            f"Missing keys in the actual mapping: "
                            f"{sorted(set(expected) - set(actual))}\n"
                            f"Additional keys in the actual mapping: "
                            f"{sorted(set(actual) - set(expected))}")
        for k in expected:
            _compare_item(actual[k], expected[k], repr(k), rtol, atol, equal_nan, check_dtype,
                          msg_identifier)
        return
    if isinstance(actual, collections.abc.Sequence) and not isinstance(actual, str) and \
            isinstance(expected, collections.abc.Sequence) and not isinstance(expected, str):
        if len(actual) != len(expected):
            raise _Mismatch(f"The length of the sequences mismatch: {len(actual)} != "
                            f"{len(expected)}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare_item(a, e, str(i), rtol, atol, equal_nan, check_dtype, msg_identifier)
        return
    if actual is None and expected is None:
        return
    raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and "
                    f"{type(expected)}.")


def _compare_item(a, e, key, *args):
    try:
        _compare(a, e, *args)
    except _Mismatch as m:
        raise _Mismatch(m.msg, f"[{key}]" + m.path) from None


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raise AssertionError unless actual and expected (tensors, numbers, or sequences
    and mappings of them) are close: ``|actual - expected| <= atol + rtol * |expected|``
    with PyTorch's default tolerances for the dtype (exact for integers and bool),
    after checking shapes and dtypes.

    >>> import autograd_core as torch
    >>> torch.testing.assert_close(torch.tensor([1, 2]), torch.tensor([1, 3]))
    Traceback (most recent call last):
    ...
    AssertionError: Tensor-likes are not equal!
    <BLANKLINE>
    Mismatched elements: 1 / 2 (50.0%)
    Greatest absolute difference: 1 at index (1,)
    Greatest relative difference: 0.3333333432674408 at index (1,)
    """
    try:
        _compare(actual, expected, rtol, atol, equal_nan, check_dtype, None)
    except _Mismatch as m:
        if msg is not None:
            text = msg(m.msg) if callable(msg) else msg
        else:
            text = m.msg + (f"\n\nThe failure occurred for item {m.path}" if m.path else "")
        raise AssertionError(text) from None


# assert_allclose's own defaults (looser than assert_close's for float32 and float64)
_ALLCLOSE_TOLERANCES = {"float16": (1e-3, 1e-3), "float32": (1e-4, 1e-5),
                        "float64": (1e-5, 1e-8)}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated (FutureWarning, as PyTorch): ``assert_close`` with dtypes not compared,
    NaNs equal by default, non-tensor inputs made tensors (``expected`` in ``actual``'s
    dtype) and looser default tolerances (float32: rtol 1e-4, atol 1e-5).

    >>> import warnings, autograd_core as torch
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1.00001, 2.0])
    """
    import warnings
    warnings.warn("`autograd_core.testing.assert_allclose()` is deprecated since 1.12 and will "
                  "be removed in a future release. Please use "
                  "`autograd_core.testing.assert_close()` instead. You can find detailed upgrade "
                  "instructions in https://github.com/pytorch/pytorch/issues/61844.",
                  FutureWarning, stacklevel=2)
    if not isinstance(actual, _ag.Tensor):
        actual = _ag.tensor(actual)
    if not isinstance(expected, _ag.Tensor):
        expected = _ag.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        # the loosest tolerances of the two dtypes
        pairs = [_ALLCLOSE_TOLERANCES.get(t.dtype.name, (0.0, 0.0)) for t in (actual, expected)]
        rtol, atol = max(p[0] for p in pairs), max(p[1] for p in pairs)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_device=True, check_dtype=False, check_stride=False, msg=msg or None)


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A tensor of random values for tests, PyTorch's for the same seed: floats uniform
    in [low, high) (default [-9, 9)), integers in [ceil(low), ceil(high)) (default
    [-9, 10)), bools at random; exclude_zero replaces zeros by 1 (integers) or the
    dtype's tiny; noncontiguous makes a strided view.

    >>> import autograd_core as torch
    >>> t = torch.testing.make_tensor(2, 3, dtype=torch.float32, device="cpu", low=0, high=1)
    >>> t.shape, bool(((t >= 0) & (t < 1)).all())
    (autograd_core.Size([2, 3]), True)
    """
    import warnings

    def modify_low_high(low, high, *, lowest_inclusive, highest_exclusive, default_low,
                        default_high):
        low = low if low is not None else default_low
        high = high if high is not None else default_high
        if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
            raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
        elif low == high and dtype.is_floating_point:
            warnings.warn("Passing `low==high` to `autograd_core.testing.make_tensor` for "
                          "floating or complex types is deprecated since 2.1 and will be "
                          "removed in 2.3. Use `autograd_core.full(...)` instead.",
                          FutureWarning, stacklevel=3)
        elif low >= high:
            raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
        elif high < lowest_inclusive or low >= highest_exclusive:
            raise ValueError(f"The value interval specified by `low` and `high` is [{low}, "
                             f"{high}), but {dtype} only supports [{lowest_inclusive}, "
                             f"{highest_exclusive})")
        low = min(max(low, lowest_inclusive), highest_exclusive)
        high = min(max(high, lowest_inclusive), highest_exclusive)
        if not dtype.is_floating_point:
            return math.ceil(low), math.ceil(high)
        return low, high

    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got {noncontiguous=} and {memory_format=}")
    if requires_grad and not dtype.is_floating_point:
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got {dtype=}")
    n = 1
    for s in shape:
        n *= s
    noncontiguous = noncontiguous and n > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype is _ag.bool:
        low, high = modify_low_high(low, high, lowest_inclusive=0, highest_exclusive=2,
                                    default_low=0, default_high=2)
        result = _ag.randint(low, high, shape, device=device, dtype=dtype)
    elif not dtype.is_floating_point:
        info = _ag.iinfo(dtype)
        low, high = modify_low_high(
            low, high, lowest_inclusive=info.min,
            highest_exclusive=info.max + (1 if dtype is not _ag.int64 else 0),
            default_low=-9, default_high=10)
        result = _ag.randint(low, high, shape, device=device, dtype=dtype)
    else:
        fi = _ag.finfo(dtype)
        low, high = modify_low_high(low, high, lowest_inclusive=fi.min,
                                    highest_exclusive=fi.max, default_low=-9, default_high=9)
        result = _ag.empty(shape, device=device, dtype=dtype)
        if high - low >= fi.max:
            result.uniform_(low / 2, high / 2).mul_(2)
        else:
            result.uniform_(low, high)
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = 1 if not dtype.is_floating_point else _ag.finfo(dtype).tiny
    if dtype.is_floating_point:
        result.requires_grad = requires_grad
    return result
