"""Shared helpers for the differential tests: run the same program under real torch
and under autograd_core, normalise what each returns, and compare.

A program is a function ``prog(mod)`` that uses ``mod`` exactly like ``torch``.
Results may be nested tuples/lists/dicts of numbers, strings, bools, None, Tensors,
exceptions (see ``catch``) and warnings (see ``warns``).  Strings coming from torch
have ``torch.`` replaced by ``autograd_core.`` before the comparison.
"""
import math
import re
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402

MODULES = [torch, autograd_core]
IDS = ["torch", "autograd_core"]

_ADDR = re.compile(r"0x[0-9a-fA-F]+")


_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)$")


def sub_name(s):
    """torch's text with the module name as autograd_core spells it (object addresses
    and the C++ source location that torch appends to some warnings dropped)."""
    return _TRIGGERED.sub("", _ADDR.sub("0xADDR", s.replace("torch.", "autograd_core.")))


class Raised:
    """An exception caught by ``catch``: compared by type name and message."""

    def __init__(self, exc, check_message=True):
        self.type = type(exc).__name__
        # torch may raise its own subclasses of the builtin errors; compare the
        # builtin base they derive from (what user code catches).
        for base in (IndexError, TypeError, ValueError, AttributeError, NotImplementedError,
                     RuntimeError, KeyError, ZeroDivisionError, OverflowError):
            if isinstance(exc, base):
                self.type = base.__name__
                break
        self.message = str(exc) if check_message else None

    def key(self):
        return ("raised", self.type, None if self.message is None else sub_name(self.message))

    def __repr__(self):
        return f"Raised({self.type}: {self.message!r})"


def catch(fn, *args, check_message=True, **kwargs):
    """Call fn and return its result, or a Raised describing its exception."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (any exception is data here)
        return Raised(e, check_message)


def warns(fn, *args, **kwargs):
    """(result, [(category name, message), ...]) of calling fn with all warnings kept."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn(*args, **kwargs)
    return r, [(x.category.__name__, str(x.message)) for x in w]


def norm(x):
    """A plain, comparable description of x (tensors become dtype/shape/values/flags)."""
    if isinstance(x, Raised):
        return x.key()
    if isinstance(x, (torch.Tensor, autograd_core.Tensor)):
        return ("tensor", sub_name(str(x.dtype)), tuple(x.shape),
                _plain(x.detach().tolist()), bool(x.requires_grad), x.grad_fn is None)
    if isinstance(x, (torch.dtype, autograd_core.dtype)):
        return ("dtype", sub_name(str(x)))
    if isinstance(x, (torch.Size, autograd_core.Size)):
        return ("size", tuple(x))
    if isinstance(x, dict):
        return {k: norm(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(norm(v) for v in x)
    if isinstance(x, str):
        return sub_name(x)
    if isinstance(x, np.generic):
        return x.item()
    return x


def _plain(v):
    if isinstance(v, list):
        return [_plain(i) for i in v]
    return v


def _close(a, b, path="root"):
    """Assert two normalised results are equal (floats to a tolerance)."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            type(a) is not bool and type(b) is not bool, f"{path}: {a!r} != {b!r}"
        if math.isnan(a) or math.isnan(b):
            assert math.isnan(a) and math.isnan(b), f"{path}: {a!r} != {b!r}"
        else:
            assert math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6), f"{path}: {a!r} != {b!r}"
        return
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), f"{path}:\n torch: {a!r}\n   ours: {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{path}[{i}]")
        return
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            _close(a[k], b[k], f"{path}[{k!r}]")
        return
    assert type(a) is type(b) and a == b, f"{path}:\n torch: {a!r}\n   ours: {b!r}"


def _short(x, n=1500):
    r = repr(x)
    return r if len(r) <= n else r[:n] + "..."


def assert_same(want, got):
    """want comes from torch, got from autograd_core."""
    a, b = norm(want), norm(got)
    try:
        _close(a, b)
    except AssertionError as e:
        raise AssertionError(f"{e}\n=== torch result:\n{_short(a)}\n=== autograd_core result:\n"
                             f"{_short(b)}") from None


def same(prog, *args, may_raise=False):
    """Run prog under both modules and assert the normalised results agree.

    Unless may_raise, torch itself must not raise (that would be a broken test)."""
    try:
        want = prog(torch, *args)
    except Exception as e:  # noqa: BLE001
        if not may_raise:
            raise AssertionError(f"the program fails under torch: {e!r}") from e
        want = Raised(e)
    got = catch(prog, autograd_core, *args)
    assert_same(want, got)
    return got
