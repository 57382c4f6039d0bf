"""The comparison harness of the test suite: run a program under real torch and under
autograd_core, normalise what each returns, and compare.  Every test file that checks
autograd_core against PyTorch uses these helpers (and no private copy of them).

- ``catch(fn, ...)``: call fn; an exception becomes a ``Raised`` (compared by type and
  message), ``quiet=True`` silences warnings meanwhile (``no_warnings()`` is that
  context).  ``warns(fn, ...)``: fn's result and the warnings it emitted.
- ``norm(x)``: a plain, comparable description of a result; results may be nested
  tuples/lists/dicts of numbers, strings, bools, None, Tensors, numpy arrays, dtypes,
  sizes, ``Raised`` exceptions and warning lists.  Strings from torch have ``torch.``
  spelled ``autograd_core.`` (and addresses, torch's C++ locations and traces dropped).
- ``assert_same(want, got, rtol=, atol=)``: the one comparison.  Everything compares
  exactly except floats, which must be close: ``|a - b| <= max(rtol * max(|a|, |b|),
  atol)`` (NaN matches NaN, an infinity only itself); a tensor's or array's rtol is at
  least its dtype's epsilon (so float16 results may differ in the last place).
- ``same(prog, *args)``: run ``prog(torch, *args)`` and ``prog(autograd_core, *args)``
  and ``assert_same`` the results; ``same_error(fn)``: both must raise the same error.
- Helpers for programs: ``data(mod, *shape, seed=)`` makes the same deterministic
  inputs under either module; ``graph_desc(grad_fn)`` spells a graph's node names
  (PyTorch's test_autograd helper) so two graphs compare as strings.

A program is a function ``prog(mod, ...)`` that uses ``mod`` exactly like ``torch``.
"""
import contextlib
import math
import re
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402

RTOL, ATOL = 1e-5, 1e-6      # the default float tolerances of assert_same / same

_ADDR = re.compile(r"\b0x[0-9a-fA-F]+")   # not the "0x0" in "2x0x0"
_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)$")
_CPP_TRACE = "\nException raised from"


def no_addresses(s):
    """s with object addresses (0x7f3a...) spelled 0xADDR."""
    return _ADDR.sub("0xADDR", s)


def sub_name(s):
    """torch's text with the module name as autograd_core spells it (object addresses,
    the C++ source location that torch appends to some warnings and the C++ stack trace
    it appends to some wrapped messages dropped)."""
    s = s.split(_CPP_TRACE)[0]
    return _TRIGGERED.sub("", no_addresses(s.replace("torch.", "autograd_core.")))


# ------------------------------------------------------------------ exceptions and warnings

class Raised:
    """An exception caught by ``catch``: compared by type name and message.

    ``type`` is the name of the builtin error the exception derives from (torch may
    raise its own subclasses; user code catches the builtin), ``message`` its text (None
    when not compared), ``exc`` the exception itself."""

    def __init__(self, exc, check_message=True):
        self.exc = exc
        self.type = type(exc).__name__
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


@contextlib.contextmanager
def no_warnings():
    """A context in which warnings are silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def catch(fn, *args, check_message=True, quiet=False, **kwargs):
    """fn(*args, **kwargs), or a Raised describing its exception (warnings silenced
    meanwhile if quiet)."""
    try:
        if quiet:
            with no_warnings():
                return fn(*args, **kwargs)
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (any exception is data here)
        return Raised(e, check_message)


def warns(fn, *args, **kwargs):
    """(result, [(category name, message), ...]) of calling fn with all warnings kept."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn(*args, **kwargs)
    return r, [(x.category.__name__, str(x.message)) for x in w]


def same_error(fn, *args, message=True, quiet=True):
    """fn(torch, *args) must raise (else the case is broken) and fn(autograd_core, *args)
    must raise the same builtin error type with, if message is True, torch's message
    (through sub_name); if "prefix", a message starting with torch's text up to its first
    colon; if False, any message.  Warnings are silenced if quiet.  Returns both Raised."""
    want = catch(fn, torch, *args, quiet=quiet)
    assert isinstance(want, Raised), f"torch does not raise: a broken case (it returns {want!r})"
    got = catch(fn, autograd_core, *args, quiet=quiet)
    assert isinstance(got, Raised), \
        f"autograd_core raised nothing; torch raised {want.type}: {want.message}"
    assert got.type == want.type, (f"exception type: torch {want.type}: {want.message}\n"
                                   f"         autograd_core {got.type}: {got.message}")
    expected = sub_name(want.message)
    if message == "prefix":
        head = expected.split(":")[0]
        assert got.message.startswith(head), f"\n torch: {expected}\n  ours: {got.message}"
    elif message:
        assert got.message == expected, f"\n torch: {expected}\n  ours: {got.message}"
    return want, got


# ------------------------------------------------------------------ program helpers

def data(mod, *shape, seed=0, lo=-1.0, hi=1.0, dtype="float64", requires_grad=False):
    """A tensor of module mod with deterministic uniform values in [lo, hi): the same
    numbers under torch and autograd_core (seed picks them)."""
    a = np.random.default_rng(seed).uniform(lo, hi, size=shape)
    t = mod.tensor(a.tolist(), dtype=getattr(mod, dtype))
    return t.requires_grad_() if requires_grad else t



def complex_data(mod, *shape, seed=0, dtype="complex128", requires_grad=False, scale=1.0):
    """A complex tensor of module mod with deterministic standard normal real and
    imaginary parts (times scale): the same numbers under torch and autograd_core."""
    rng = np.random.default_rng(seed)
    a = (scale * (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))).astype(dtype)
    return mod.tensor(a, requires_grad=requires_grad)


def real_loss(mod, out, seed=1):
    """A real loss reading every real (and imaginary) part of out with its own weight:
    its gradient checks all of out's derivative, complex or real."""
    rng = np.random.default_rng(seed)
    w1 = mod.tensor(rng.standard_normal(tuple(out.shape)))
    if out.is_complex():
        w2 = mod.tensor(rng.standard_normal(tuple(out.shape)))
        return (out.real * w1).sum() + (out.imag * w2).sum()
    return (out * w1.to(out.dtype)).sum()

def issue8(pattern):
    """The mark of a test that asserts PyTorch's behaviour where autograd_core does not
    follow it yet (issue 8): a strict xfail, so each fix shows as an XPASS to unmark."""
    return pytest.mark.xfail(strict=True, reason=f"issue 8: {pattern}")


def graph_desc(fn):
    """'MulBackward0(AccumulateGrad(), None)': the node names of the graph below fn."""
    if fn is None:
        return "None"
    parts = [graph_desc(next_fn) for next_fn, _ in fn.next_functions]
    return type(fn).__name__ + "(" + ", ".join(parts) + ")"


# ------------------------------------------------------------------ normalising

class Values(list):
    """A tensor's or array's values (nested lists) and its dtype's machine epsilon: a
    comparison never asks for more than the dtype can hold (float16 values may differ
    in the last place, as two correct float16 implementations do; float32 and float64
    tolerances are far above their epsilon anyway)."""

    def __init__(self, values, dtype_name):
        super().__init__(values if isinstance(values, list) else [values])
        self.scalar = not isinstance(values, list)
        name = dtype_name.rsplit(".", 1)[-1]
        self.eps = (2.0 ** -7 if name == "bfloat16" else
                    float(np.finfo(name).eps) if name.startswith(("float", "complex")) else 0.0)


def _tensor_values(t):
    t = t.detach()
    if str(t.dtype).endswith(".bfloat16"):     # numpy() refuses bfloat16 (both)
        v = t.tolist()
    else:
        # both hand back ZeroTensors (sgn's gradient), which only numpy(force=True) reads
        v = t.numpy(force=True).tolist()
    return Values(v, str(t.dtype))


def norm(x):
    """A plain, comparable description of x (tensors become dtype/shape/values/flags)."""
    if isinstance(x, Raised):
        return x.key()
    if isinstance(x, (torch.Tensor, autograd_core.Tensor)):
        return ("tensor", sub_name(str(x.dtype)), tuple(x.shape), _tensor_values(x),
                bool(x.requires_grad), x.grad_fn is None)
    if isinstance(x, np.ndarray):
        return ("ndarray", x.dtype.name, x.shape, Values(x.tolist(), x.dtype.name))
    if isinstance(x, (torch.dtype, autograd_core.dtype)):
        return ("dtype", sub_name(str(x)))
    if isinstance(x, (torch.nn.Module, autograd_core.nn.Module)):
        # a module by its printed form (layers, their arguments, extra_repr)
        return ("module", sub_name(repr(x)))
    if isinstance(x, (torch.Size, autograd_core.Size)):
        return ("size", tuple(x))
    if isinstance(x, dict):
        return {k: norm(v) for k, v in x.items()}
    if isinstance(x, tuple) and type(x) is not tuple:
        # a named tuple (torch.return_types.max, ...): compared by type name and fields
        return ("named tuple", type(x).__name__, tuple(norm(v) for v in x))
    if isinstance(x, (list, tuple)):
        return type(x)(norm(v) for v in x)
    if isinstance(x, str):
        return sub_name(x)
    if isinstance(x, np.generic):
        return x.item()
    return x


# ------------------------------------------------------------------ comparing

def _floats_close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=rtol, abs_tol=atol)


def assert_close(a, b, rtol=RTOL, atol=ATOL, path="root"):
    """Assert two normalised results (see norm) are equal, floats to the tolerance
    (complex numbers: each part)."""
    if isinstance(a, complex) or isinstance(b, complex):
        assert isinstance(a, complex) and isinstance(b, complex), f"{path}: {a!r} != {b!r}"
        scale = max(abs(a), abs(b))
        for x, y in ((a.real, b.real), (a.imag, b.imag)):
            # a part is close within the tolerance of the whole number's magnitude
            assert _floats_close(x, y, 0.0, max(atol, rtol * scale)) or \
                _floats_close(x, y, rtol, atol), f"{path}: {a!r} != {b!r} (rtol={rtol})"
        return
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            type(a) is not bool and type(b) is not bool, f"{path}: {a!r} != {b!r}"
        assert _floats_close(a, b, rtol, atol), \
            f"{path}: {a!r} != {b!r} (rtol={rtol}, atol={atol})"
        return
    if isinstance(a, Values) and isinstance(b, Values):
        assert a.scalar == b.scalar, f"{path}:\n torch: {a!r}\n   ours: {b!r}"
        rtol = max(rtol, a.eps, b.eps)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), f"{path}:\n torch: {a!r}\n   ours: {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            assert_close(x, y, rtol, atol, f"{path}[{i}]")
        return
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            assert_close(a[k], b[k], rtol, atol, f"{path}[{k!r}]")
        return
    assert type(a) is type(b) and a == b, f"{path}:\n torch: {a!r}\n   ours: {b!r}"


def _short(x, n=1500):
    r = repr(x)
    return r if len(r) <= n else r[:n] + "..."


def assert_same(want, got, rtol=RTOL, atol=ATOL, what="result"):
    """want comes from torch (or is the reference), got from autograd_core."""
    a, b = norm(want), norm(got)
    try:
        assert_close(a, b, rtol, atol, what)
    except AssertionError as e:
        raise AssertionError(f"{e}\n=== torch result:\n{_short(a)}\n=== autograd_core result:\n"
                             f"{_short(b)}") from None


def same(prog, *args, may_raise=False, must_raise=False, quiet=False, rtol=RTOL, atol=ATOL):
    """Run prog under both modules and assert the normalised results agree; returns
    autograd_core's result.

    Unless may_raise (or must_raise), torch itself must not raise (that would be a broken
    test); with must_raise it must (the case is an error case).  quiet silences warnings."""
    try:
        if quiet:
            with no_warnings():
                want = prog(torch, *args)
        else:
            want = prog(torch, *args)
    except Exception as e:  # noqa: BLE001
        if not (may_raise or must_raise):
            raise AssertionError(f"the program fails under torch: {e!r}") from e
        want = Raised(e)
    else:
        if must_raise:
            raise AssertionError(f"torch does not raise here: not an error case (got {want!r})")
    got = catch(prog, autograd_core, *args, quiet=quiet)
    assert_same(want, got, rtol, atol)
    return got
