"""Running a program statement by statement under one module, observing the program's
state after every statement, comparing the observations of torch and autograd_core
(numbers through tests/_diff.py's assert_close), and shrinking a failing program to a
minimal one that fails the same way."""
import contextlib
import re
import warnings
from dataclasses import dataclass

import torch

import autograd_core
from _diff import Values, assert_close

from .gen import _NAME, Program, new_env

# (rtol, atol) per dtype: float32 chains of ~20 ops round differently in two libraries
TOL = {"float64": (1e-6, 1e-8), "float32": (2e-3, 1e-4), "float16": (1e-2, 1e-3),
       "complex128": (1e-6, 1e-8), "complex64": (2e-3, 1e-4)}
DEFAULT_TOL = (1e-6, 1e-8)
_LOW = ("float32", "float16", "bfloat16", "complex64")

# Note [Mixed precision]: a float32 value is a correct result within one rounding of
# the exact one, and two correct libraries round differently (numpy sums pairwise,
# PyTorch in its vectorised order; libm and SLEEF differ in the last place). A float64
# tensor computed from a float32 one carries that difference on, so its values are
# compared at float32's tolerance: run() marks ("low") every name a statement touches
# (defines or reads) once one of the names it touches holds a float32 (or narrower)
# tensor or is marked, and every .grad once a statement that runs a backward pass
# touches a marked name. Programs in float64 alone keep float64's tolerance.


@dataclass
class Mismatch:
    index: int        # the statement after which the two states first differ
    kind: str         # exception / value / grad / requires_grad / is_leaf / grad_fn / ...
    path: str
    detail: str

    def describe(self, prog):
        return (f"statement {self.index + 1} ({prog.stmts[self.index].kind}): {self.kind} "
                f"differs at {self.path}: {self.detail}")


def _exc_type(e):
    for base in (IndexError, TypeError, ValueError, AttributeError, NotImplementedError,
                 RuntimeError, KeyError, ZeroDivisionError, OverflowError, NameError):
        if isinstance(e, base):
            return base.__name__
    return type(e).__name__


def _field(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001  (an error reading an attribute is an observation)
        return ("raised", _exc_type(e))


def _numpy(x):
    """x's values as an array; both libraries hand back ZeroTensors (sgn's gradient,
    some second derivatives), which numpy() refuses unless forced."""
    return x.detach().numpy(force=True)


def _obs(x, T, cg=False, with_grad=True):
    if isinstance(x, T):
        dtype = str(x.dtype).rsplit(".", 1)[-1]
        d = {"shape": tuple(x.shape), "dtype": dtype,
             "values": _field(lambda: Values(_numpy(x).tolist(), dtype)),
             "requires_grad": x.requires_grad,
             "is_leaf": _field(lambda: x.is_leaf),
             "grad_fn": _field(lambda: None if x.grad_fn is None else
                               ("<made in a create_graph backward>" if cg else
                                type(x.grad_fn).__name__))}
        if with_grad and (d["is_leaf"] is True or _field(lambda: x.retains_grad) is True):
            # a .grad made by create_graph backward: its grad_fn name is not compared
            d["grad"] = _field(lambda: None if x.grad is None else
                               _obs(x.grad, T, cg=True, with_grad=False))
        return d
    if isinstance(x, (tuple, list)) and not isinstance(x, (torch.Size, autograd_core.Size)):
        return [_obs(v, T, cg, with_grad) for v in x]
    if isinstance(x, (torch.Size, autograd_core.Size)):
        return tuple(x)
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return f"<{type(x).__name__}>"


def observe(env, cg_names, mod):
    T = mod.Tensor
    names = sorted((n for n in env if _NAME.fullmatch(n)), key=lambda n: (n[0], int(n[1:])))
    state = {n: _obs(env[n], T, n in cg_names) for n in names}
    state["log"] = _obs(list(env["log"]), T)
    return state


def _holds_low(x, T):
    """Whether x is (or holds) a tensor of a float dtype narrower than float64."""
    if isinstance(x, T):
        return str(x.dtype).rsplit(".", 1)[-1] in _LOW
    if isinstance(x, (tuple, list)):
        return any(_holds_low(v, T) for v in x)
    return False


class LowFloat(float):
    """A Python number read from a float32 computation (a hook's float(g.sum()), Note
    [Mixed precision]): compared at float32's tolerance."""


def _mark_low(obs, values, grads):
    """Mark observed tensors (Note [Mixed precision]): values and/or .grad, and the plain
    numbers beside them (a hook log's entries)."""
    if isinstance(obs, list):
        for i, o in enumerate(obs):
            if values and type(o) is float:
                obs[i] = LowFloat(o)
            else:
                _mark_low(o, values, grads)
    elif isinstance(obs, dict) and "dtype" in obs:
        if values:
            obs["low"] = True
        if grads and isinstance(obs.get("grad"), dict):
            obs["grad"]["low"] = True


@contextlib.contextmanager
def _default_dtype_restored(mod):
    """A program may change the default dtype (gen.st_default_dtype) and a shrunk one may
    have lost the statement that restores it: the next program starts from float32."""
    try:
        yield
    finally:
        mod.set_default_dtype(mod.float32)


def run(prog, mod):
    """[(status, state)] after each statement: status is None or ("raised", type)."""
    env = new_env(mod)
    cg = set()
    low = set()          # Note [Mixed precision]
    low_grads = False
    trace = []
    with warnings.catch_warnings(), _default_dtype_restored(mod):
        warnings.simplefilter("ignore")
        for st in prog.stmts:
            try:
                exec(compile(st.src, "<stmt>", "exec"), env)
                status = None
            except Exception as e:  # noqa: BLE001
                status = ("raised", _exc_type(e))
            cg = (cg | set(st.defines)) if st.cg else (cg - set(st.defines))
            touched = {n for n in st.uses | set(st.defines) if _NAME.fullmatch(n)}
            if touched & low or any(_holds_low(env.get(n), mod.Tensor) for n in touched):
                low |= touched
                if "backward(" in st.src or "autograd.grad(" in st.src:
                    low_grads = True
            state = observe(env, cg, mod)
            for n, o in state.items():
                # (the hook log holds gradients)
                _mark_low(o, n in low or (n == "log" and low_grads), low_grads)
            trace.append((status, state))
    return trace


def _kind(path):
    if "." not in path and not path.startswith("log"):
        return "binding"
    for key in (".grad.", ".grad_fn", ".requires_grad", ".is_leaf", ".values", ".shape",
                ".dtype"):
        if key in path + ".":
            return {".grad.": "grad", ".grad_fn": "grad_fn", ".requires_grad": "requires_grad",
                    ".is_leaf": "is_leaf", ".values": "value", ".shape": "shape",
                    ".dtype": "dtype"}[key]
    return "hook log" if path.startswith("log") else "binding"


_FIELDS = ("shape", "dtype", "values", "requires_grad", "is_leaf", "grad_fn", "grad")


def _short(x, n=160):
    r = repr(x)
    return r if len(r) <= n else r[:n] + "..."


def _compare(a, b, path):
    """None, or (path, description) of the first difference between observations."""
    if isinstance(a, dict) and isinstance(b, dict) and ("dtype" in a or "dtype" in b):
        # a tensor: its fields in a fixed order (values before flags before .grad)
        tol = TOL.get(a.get("dtype"), DEFAULT_TOL)
        if a.get("low") or b.get("low"):   # Note [Mixed precision]
            tol = tuple(max(x, y) for x, y in zip(tol, TOL["float32"]))
        for k in [k for k in _FIELDS if k in a or k in b]:
            sub = f"{path}.{k}"
            if k not in a or k not in b:
                return sub, (f"torch has no .{k}" if k not in a else
                             f"autograd_core has no .{k}")
            if k == "values" and isinstance(a[k], Values) and isinstance(b[k], Values):
                try:
                    assert_close(a[k], b[k], *tol, path=sub)
                except AssertionError as e:
                    return sub, str(e)[:300]
                continue
            d = _compare(a[k], b[k], sub)
            if d:
                return d
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        # the program's state: variable name -> observation
        for k in sorted(a.keys() | b.keys(), key=lambda n: (n == "log", n[0], n[1:].zfill(6))):
            if k not in a or k not in b:
                return k, ("defined by autograd_core only" if k not in a else
                           "defined by torch only")
            d = _compare(a[k], b[k], k)
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return path, f"length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _compare(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, float) and isinstance(b, float):
        tol = (TOL["float32"] if isinstance(a, LowFloat) or isinstance(b, LowFloat)
               else DEFAULT_TOL)
        try:
            assert_close(a, b, *tol, path=path)
            return None
        except AssertionError:
            return path, f"torch {a!r}, autograd_core {b!r}"
    if a != b or type(a) is not type(b):
        if isinstance(a, dict) or isinstance(b, dict):  # a tensor on one side only
            ka = "a tensor" if isinstance(a, dict) else _short(a)
            kb = "a tensor" if isinstance(b, dict) else _short(b)
            return path, f"torch {ka}, autograd_core {kb}"
        return path, f"torch {_short(a)}, autograd_core {_short(b)}"
    return None


def first_mismatch(prog):
    """The first Mismatch between torch and autograd_core running prog, or None."""
    return compare_traces(run(prog, torch), run(prog, autograd_core))


def compare_traces(want, got):
    """The first Mismatch between a torch trace and an autograd_core trace, or None."""
    for i, ((s1, o1), (s2, o2)) in enumerate(zip(want, got)):
        if s1 != s2:
            return Mismatch(i, "exception", "status", f"torch {s1 or 'ok'}, "
                            f"autograd_core {s2 or 'ok'}")
        d = _compare(o1, o2, "")
        if d:
            return Mismatch(i, _kind(d[0]), d[0], d[1])
    return None


def shrink(prog, mm, budget=300):
    """A smaller program failing with the same kind at the same kind of statement (the
    program is cut after the failing statement, then statements are dropped greedily,
    each with the statements that depend on it)."""
    target = (mm.kind, prog.stmts[mm.index].kind)
    best = Program(prog.stmts[:mm.index + 1])
    best_mm = first_mismatch(best) or mm
    changed = True
    while changed and budget > 0:
        changed = False
        i = len(best.stmts) - 2
        while i >= 0 and budget > 0:
            cand = best.without(i)
            i -= 1
            if not cand.stmts or cand.stmts[-1] is not best.stmts[-1]:
                continue
            budget -= 1
            m = first_mismatch(cand)
            if m and m.index == len(cand.stmts) - 1 and \
                    (m.kind, cand.stmts[m.index].kind) == target:
                best, best_mm, changed = cand, m, True
                i = min(i, len(best.stmts) - 2)
    return best, best_mm


def signature(prog, mm):
    """A mismatch's class: what differs, and the kind of statement after which it shows
    ("value @ inplace", "grad_fn @ binary:sub", "grad @ backward").  Coarse on purpose
    (in-place ops count as one kind: their bugs are about views, not about the op), so
    that it does not change as the op tables grow and the suite can pin known classes."""
    kind = prog.stmts[mm.index].kind.replace("(no_grad)", "")
    if kind.startswith("inplace:"):
        kind = "inplace"
    return f"{mm.kind} @ {kind}"


def context(prog, mm):
    """The other kinds of statement of a (shrunk) failing program: a finer hint."""
    return sorted({s.kind for s in prog.stmts[:mm.index]} - {"leaf"})


def reproducer(prog, mm):
    """The program as runnable autograd_core source, with what differs in a comment."""
    src = prog.source("autograd_core", minimal=True)
    note = re.sub(r"\s+", " ", mm.describe(prog))
    return f"# {note}\n# (run it with `import torch` for PyTorch's result)\n{src}"
