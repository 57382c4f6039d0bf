"""Recording one eager call (Note [Compiled mode] in autograd_core/_dynamo/__init__.py).

A Recorder runs the function eagerly once while three observers watch it:
- the op hook (Note [Op hook]) sees each top-level op call with its table arguments and
  result: these become the replay's steps;
- ``sys.setprofile`` sees every Python function and builtin the call runs: user code is
  checked statically (no stores to globals, attributes, subscripts, closure cells) and its
  globals and closure cells become guards; library code that makes tensors or random
  numbers outside the op table, and builtins with effects (print, list.append, ...), are
  graph breaks;
- the core's value-read hook (``_set_value_read_hook``) sees Python reading a tensor's
  values (bool(t), item(), tolist(), printing): a data-dependent graph break.
Whatever the recording cannot prove the replay would repeat breaks the graph: the call's
result stands (it ran eagerly), but no entry is made.
"""
import dis
import gc
import math
import os
import sys
import sysconfig
import threading
import types

from autograd_core._core import tensor as _core
from autograd_core._core.opcall import OP_SCHEMAS
from autograd_core._core.tensor import Tensor
from autograd_core._dynamo._replay import (G_EQ, G_ID, G_KEYS, G_SHALLOW, OpRecorder, Slot,
                                            build_steps, set_frees,
                                            set_table_names, shallow)
from autograd_core._dynamo._replay import MISSING as _MISSING_GLOBAL
from autograd_core._dynamo import exc

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_DYNAMO_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_LIB_DIRS = tuple({os.path.abspath(p) + os.sep for k in ("stdlib", "platstdlib", "purelib",
                                                          "platlib")
                   if (p := sysconfig.get_paths().get(k))})

# ATen name -> table names with their schema types, to find which table op an event was
_by_aten = {}
for _name, (_aten, _variants, _oop, _params) in OP_SCHEMAS.items():
    _by_aten.setdefault("aten::" + _aten, []).append((_name, tuple(p[1] for p in _params)))
set_table_names(_by_aten)


# Library (autograd_core) modules whose Python code makes tensors, random numbers or
# output outside the op table: a call into one from a recorded function is a graph break.
_BREAKING_LIBRARY_FILES = {
    "_creation.py": "a tensor factory (its result and any random draw are not ops)",
    "random.py": "the random number generator's state",
    "_tensor_str.py": "printing",
    "serialization.py": "file input/output",
}
_BREAKING_LIBRARY_DIRS = {"optim" + os.sep: "an optimizer (Python state outside the ops)",
                          "utils" + os.sep + "data" + os.sep: "data loading",
                          "distributed" + os.sep: "communication"}

# Builtins user code may call in a recorded function: pure functions of their arguments
# (a tensor's value read by one of them reaches the value-read hook).
_PURE_BUILTINS = {
    "len", "isinstance", "issubclass", "hasattr", "getattr", "min", "max", "abs", "round",
    "divmod", "sorted", "iter", "next", "all", "any", "sum", "callable", "pow", "repr",
    "format", "chr", "ord", "hash",
    "dict.get", "dict.items", "dict.keys", "dict.values", "tuple.index", "tuple.count",
    "list.index", "list.count", "list.copy", "str.format", "str.join", "str.startswith",
    "str.endswith", "str.split", "str.lower", "str.upper", "str.strip", "str.replace",
    "int.bit_length", "float.is_integer",
}
_PURE_MATH = {n for n in dir(math) if not n.startswith("_")}
_PURE_MODULES = {"math", "operator", "_operator"}

# Opcodes whose effect outlives the call (or cannot be guarded): a graph break in user code.
_EFFECT_OPS = {
    "STORE_GLOBAL": "assignment to a global variable",
    "DELETE_GLOBAL": "deletion of a global variable",
    "STORE_ATTR": "setting an attribute",
    "DELETE_ATTR": "deleting an attribute",
    "STORE_SUBSCR": "item assignment",
    "DELETE_SUBSCR": "item deletion",
    "IMPORT_NAME": "an import",
    "YIELD_VALUE": "a generator",
}

_STATIC_CACHE = {}
# PyTorch's graph break types for reads of tensor values
_VALUE_READ_GB = {"__bool__": "Data-dependent branching",
                  "is_nonzero": "Data-dependent branching",
                  "item": "Unsupported Tensor.item() call with capture_scalar_outputs=False",
                  "tolist": "Unsupported Tensor.tolist() call",
                  "__repr__": "Failed to trace builtin operator",
                  "__format__": "Failed to trace builtin operator"}
_NUMPY = os.sep + "numpy" + os.sep


def static_check(code):
    """(reason a code object cannot be recorded or None, globals it reads, (global, attr)
    pairs it reads off modules). Cached per code object."""
    r = _STATIC_CACHE.get(code)
    if r is not None:
        return r
    reason = None
    names = set()
    attrs = set()
    prev = None
    for ins in dis.get_instructions(code):
        op = ins.opname
        if op in _EFFECT_OPS and reason is None:
            reason = _EFFECT_OPS[op]
        elif op in ("STORE_DEREF", "DELETE_DEREF") and reason is None:
            if ins.argval in code.co_freevars:
                reason = "assignment to a nonlocal variable"
        elif op == "LOAD_GLOBAL":
            names.add(ins.argval)
        elif op in ("LOAD_ATTR", "LOAD_METHOD") and prev is not None \
                and prev.opname == "LOAD_GLOBAL":
            attrs.add((prev.argval, ins.argval))
        prev = ins
    r = (reason, frozenset(names), frozenset(attrs))
    _STATIC_CACHE[code] = r
    return r


class GraphBreak(Exception):
    pass


def _is_constant(v):
    tp = type(v)
    if tp in (int, float, bool, str, complex, bytes, type(None), type(Ellipsis)):
        return True
    if tp in (tuple, frozenset):
        return all(_is_constant(x) for x in v)
    return False


def _immutable_object(v):
    """Objects guarded by identity alone: nothing a recording reads of them can change."""
    from autograd_core._core.dtype import dtype
    return (isinstance(v, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                           types.MethodType, type, dtype, types.MethodWrapperType,
                           types.WrapperDescriptorType, types.MethodDescriptorType,
                           types.CodeType, property, classmethod, staticmethod))
            or callable(v) and type(v).__module__.startswith("autograd_core"))


class Recorder(OpRecorder):
    """Records one call (Note [Compiled mode]); see the module docstring. Its op hook
    methods (op_enter, op_exit) are OpRecorder's, in _replay.pyx."""

    def __init__(self, fn, fullgraph):
        self.fn = fn
        self.fullgraph = fullgraph
        self.set_thread(threading.get_ident())
        self.steps = []           # [(table name, args, result)]
        self.depth = 0
        self.reason = None        # why the graph breaks (the first reason seen)
        # (the tensors it knows, inputs, constants and op outputs, with their autograd
        # states: OpRecorder's table, Note [The recorder's tensor table])
        self.preexisting = {}     # id(tensor) -> tensor: inputs and constants
        self.guards = []          # (container, key, kind, expected)
        self.guard_ids = set()    # (id(container), key) already guarded
        self.guarded_objects = {}  # id -> object reached through a guard
        self.frames = {}          # id(frame) -> "user" | "lib"
        self.modules_seen = set()

    # ------------------------------------------------------------------ breaking

    def fail(self, reason, gb_type="Graph break in compiled mode"):
        """A graph break: remembered (the first one), or with fullgraph=True raised as
        PyTorch's Unsupported (its first line is PyTorch's graph break type)."""
        if self.reason is None:
            self.reason = f"{gb_type}\n  Explanation: {reason}"
        if self.fullgraph:
            raise exc.Unsupported(self.reason, gb_type)

    def adopt(self, t):
        """Whether a tensor made outside the recorded ops may be used as a constant (only
        in a trace: autograd_core/jit/_trace.py)."""
        return False

    # ------------------------------------------------------------------ guards

    def guard_value(self, container, key, v, depth=0):
        """Guard container[key] (a dict entry, or a cell with key None) == v as a recording
        reads it, and note the tensors and modules reachable through it."""
        gid = (id(container), key)
        if gid in self.guard_ids:
            return
        self.guard_ids.add(gid)
        from autograd_core.nn.modules.module import Module
        if _is_constant(v):
            self.guards.append((container, key, G_EQ, v))
            return
        self.guards.append((container, key, G_ID, v))
        self.guarded_objects[id(v)] = v
        if isinstance(v, Tensor):
            self.add_preexisting(v)
        elif isinstance(v, Module):
            self.guard_module(v)
        elif type(v) in (list, dict, tuple) and depth < 4:
            if type(v) is not tuple:
                self.guards.append((container, key, G_SHALLOW, shallow(v)))
            items = v.items() if type(v) is dict else enumerate(v)
            for k, x in items:
                if isinstance(x, (Tensor, Module)) or type(x) in (list, dict, tuple):
                    if type(v) is dict:
                        self.guard_value(v, k, x, depth + 1)
                    elif isinstance(x, Tensor):
                        self.add_preexisting(x)
                    elif isinstance(x, Module):
                        self.guard_module(x)
                    else:
                        self.fail("a nested container in a global or closure variable")
        elif not _immutable_object(v):
            self.fail(f"a global or closure variable of type {type(v).__name__} "
                      "(its state cannot be guarded)")

    def guard_module(self, m):
        """A module's state a recording depends on: every entry of its __dict__ (training,
        the parameter/buffer/submodule/hook dicts by their items' identities, numbers by
        value), recursively over its submodules, and its tensors as constants."""
        if id(m) in self.modules_seen:
            return
        self.modules_seen.add(id(m))
        self.guarded_objects[id(m)] = m
        d = m.__dict__
        self.guards.append((d, None, G_KEYS, tuple(d)))
        self.guard_classes(type(m))
        for k, v in list(d.items()):
            gid = (id(d), k)
            if gid in self.guard_ids:
                continue
            self.guard_ids.add(gid)
            if _is_constant(v):
                self.guards.append((d, k, G_EQ, v))
            elif isinstance(v, dict):
                self.guards.append((d, k, G_ID, v))
                self.guards.append((d, k, G_SHALLOW, shallow(v)))
                for x in v.values():
                    if isinstance(x, Tensor):
                        self.add_preexisting(x)
                    elif hasattr(x, "_parameters") and hasattr(x, "_modules"):
                        self.guard_module(x)
            elif isinstance(v, list):
                self.guards.append((d, k, G_ID, v))
                self.guards.append((d, k, G_SHALLOW, shallow(v)))
            else:
                self.guards.append((d, k, G_ID, v))
                if isinstance(v, Tensor):
                    self.add_preexisting(v)

    def guard_classes(self, cls):
        """A user-defined module class's attributes (constants by value, the rest by
        identity), up to autograd_core's classes: forward and class constants read through
        self."""
        for c in cls.__mro__:
            if c.__module__.startswith("autograd_core") or c is object:
                break
            if id(c) in self.modules_seen:
                continue
            self.modules_seen.add(id(c))
            d = gc.get_referents(c.__dict__)[0]   # the class's real dict
            if type(d) is not dict:
                self.fail(f"the class {c.__name__}'s attributes cannot be guarded")
                return
            self.guards.append((d, None, G_KEYS, tuple(d)))
            for k, v in d.items():
                self.guards.append((d, k, G_EQ if _is_constant(v) else G_ID, v))

    def add_preexisting(self, t):
        if not self.is_known(t):
            self.preexisting[id(t)] = t
            self.know(t)

    def guard_code(self, frame):
        """The globals and closure cells a user code object reads (at its call)."""
        code = frame.f_code
        reason, names, attrs = static_check(code)
        if reason is not None:
            self.fail(f"{reason} in '{code.co_name}' ({code.co_filename}:"
                      f"{code.co_firstlineno})")
            return
        g = frame.f_globals
        for name in names:
            if name in g:
                self.guard_value(g, name, g[name])
            else:
                # a builtin: guard that no global shadows it later
                self.guards.append((g, name, G_ID, _MISSING_GLOBAL))
        for name, attr in attrs:
            mod = g.get(name)
            if isinstance(mod, types.ModuleType) and not mod.__name__.startswith(
                    ("autograd_core", "math", "numpy", "builtins")):
                if attr in mod.__dict__:
                    self.guard_value(mod.__dict__, attr, mod.__dict__[attr])
        if code.co_freevars:
            fn = self.function_of(frame)
            if fn is None:
                self.fail(f"a closure whose function cannot be found ('{code.co_name}')")
                return
            for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
                try:
                    v = cell.cell_contents
                except ValueError:
                    continue
                self.guard_value(cell, None, v)

    def function_of(self, frame):
        code = frame.f_code
        if self.fn is not None and getattr(self.fn, "__code__", None) is code:
            return self.fn
        fns = [f for f in gc.get_referrers(code)
               if isinstance(f, types.FunctionType) and f.__code__ is code
               and f.__globals__ is frame.f_globals]
        return fns[0] if len(fns) == 1 else None

    # ------------------------------------------------------------------ sys.setprofile

    def profile(self, frame, event, arg):
        if threading.get_ident() != self.thread or self.reason is not None:
            return
        if event == "call":
            code = frame.f_code
            fname = code.co_filename
            caller = self.frames.get(id(frame.f_back), "user")
            if fname.startswith(_DYNAMO_DIR):
                kind = "lib"
                if code.co_name == "_disabled_call":
                    self.fail("a call to a function marked torch.compiler.disable")
            elif fname.startswith(_PKG_DIR):
                kind = "lib"
                rel = fname[len(_PKG_DIR):]
                base = os.path.basename(rel)
                why = _BREAKING_LIBRARY_FILES.get(base) if os.sep not in rel or \
                    base == "_creation.py" else None
                if why is None:
                    for d, w in _BREAKING_LIBRARY_DIRS.items():
                        if rel.startswith(d):
                            why = w
                if why is not None:
                    self.fail(f"a call to autograd_core's {code.co_name} ({why})")
            elif fname.startswith(_LIB_DIRS) or fname.startswith("<frozen"):
                kind = "lib"
                # numpy's Python functions are what the compiled ops call (np.errstate,
                # copyto, broadcast_shapes, ...): Cython frames are invisible, so they seem
                # called from user code (a tensor's values numpy reads reach the value-read
                # hook)
                if caller == "user" and not fname.endswith(("abc.py", "typing.py")) and \
                        _NUMPY not in fname:
                    self.fail(f"a call to '{code.co_name}' ({fname}), outside autograd_core")
            else:
                kind = "user"
                self.guard_code(frame)
            self.frames[id(frame)] = kind
        elif event == "return":
            self.frames.pop(id(frame), None)
        elif event == "c_call":
            if self.frames.get(id(frame), "user") != "user":
                return
            name = getattr(arg, "__qualname__", None) or getattr(arg, "__name__", "?")
            mod = getattr(arg, "__module__", None)
            if name in _PURE_BUILTINS and mod in (None, "builtins"):
                return
            if mod in _PURE_MODULES or (mod == "math" and name in _PURE_MATH):
                return
            self.fail(f"a call to the builtin '{name}', whose effects cannot be recorded",
                      "Failed to trace builtin operator")

    # ------------------------------------------------------------------ value reads

    def value_read(self, t, what):
        if threading.get_ident() != self.thread:
            return
        gb = _VALUE_READ_GB.get(what, "Tensor value read")
        self.fail(f"Python reads a tensor's values ({what}): data-dependent control flow "
                  "or output cannot be replayed", gb)

    # ------------------------------------------------------------------ the call

    def run(self, module, args, kwargs, call):
        """Run call(*args, **kwargs) eagerly while recording; return its result."""
        from autograd_core.nn.modules import module as _modmod
        for t in _tensors_in((args, kwargs)):
            self.add_preexisting(t)
        for a in _leaves((args, kwargs)):
            if not isinstance(a, Tensor) and not _is_constant(a):
                from autograd_core.nn.modules.module import Module
                self.guarded_objects[id(a)] = a
                if isinstance(a, Module):
                    self.guard_module(a)
                elif not _immutable_object(a):
                    self.fail(f"an argument of type {type(a).__name__}")
        if module is not None:
            self.guard_module(module)
        # the global module hooks are read by every Module call
        for hname in ("_global_forward_hooks", "_global_forward_pre_hooks",
                      "_global_backward_hooks", "_global_backward_pre_hooks"):
            if hname in _modmod.__dict__:
                self.guards.append((_modmod.__dict__, hname, G_SHALLOW,
                                    shallow(_modmod.__dict__[hname])))
        grad_mode = _core.is_grad_enabled()
        self.grad_mode = grad_mode
        old_profile = sys.getprofile()
        self.frames[id(sys._getframe())] = "lib"
        # the recording's lists keep every step alive: the cycle collector would walk them
        # again and again (a 60,000-op recording took twice as long with it on)
        gc_was_on = gc.isenabled()
        gc.disable()
        _core._push_op_hook(self)
        _core._set_value_read_hook(self.value_read)
        sys.setprofile(self.profile)
        try:
            try:
                result = call(*args, **kwargs)
            finally:
                sys.setprofile(old_profile)
                _core._set_value_read_hook(None)
                _core._pop_op_hook(self)
            if _core.is_grad_enabled() != grad_mode:
                self.fail("the grad mode changed")
            if self.reason is None:
                # (still without the cycle collector: its first pass after the recording
                # walks every step, 3x the recording's own time on a 60,000-op chain)
                if not self.states_hold():
                    self.fail("a tensor's autograd state changed outside the recorded "
                              "ops (requires_grad_, retain_grad, register_hook, "
                              "backward, ...)")
        finally:
            if gc_was_on:
                gc.enable()
        return result

    def build(self, inputs, result, frees=True):
        """(steps, constants, output template): the replay of a finished recording whose
        inputs are the argument tensors in order."""
        gc_was_on = gc.isenabled()
        gc.disable()
        try:
            return self._build(inputs, result, frees)
        finally:
            if gc_was_on:
                gc.enable()

    def constants(self, inputs):
        """(the tensors the recording read besides its inputs, in slot order after them;
        the slots of inputs and constants by id)."""
        slots = {}
        for i, t in enumerate(inputs):
            slots.setdefault(id(t), i)
        consts = []
        for k, t in self.preexisting.items():
            if k not in slots:
                slots[k] = len(inputs) + len(consts)
                consts.append(t)
        return consts, slots

    def check_buildable(self, result):
        """Raise the GraphBreak build would raise, without building: every op finished
        and the result is made of recorded tensors and values a template can hold (the
        first call decides whether the function breaks, Note [Deferred build])."""
        if self.unfinished:
            raise GraphBreak("an op did not finish")
        _output_template(result, _KnownSlots(self), self)

    def _build(self, inputs, result, frees):
        consts, slots = self.constants(inputs)
        steps, slots = build_steps(self.steps, slots, len(inputs) + len(consts))
        if steps is None:
            raise GraphBreak("an op did not finish")
        out = _output_template(result, slots, self)
        if frees:   # (compiled mode sets them at the first replay: eval_frame._call)
            set_frees(steps, out, len(inputs) + len(consts))
        return steps, consts, out


class _KnownSlots:
    """Slot 0 for every tensor a recording knows (by id): the slots dict that
    _output_template checks an output against before the steps are built."""
    __slots__ = ("rec",)

    def __init__(self, rec):
        self.rec = rec

    def get(self, k):
        return 0 if self.rec.known_id(k) else None


def _tensors_in(x):
    if isinstance(x, Tensor):
        yield x
    elif isinstance(x, (tuple, list)):
        for y in x:
            yield from _tensors_in(y)
    elif isinstance(x, dict):
        for y in x.values():
            yield from _tensors_in(y)


def _leaves(x):
    if isinstance(x, (tuple, list)) and not isinstance(x, Tensor):
        for y in x:
            yield from _leaves(y)
    elif isinstance(x, dict):
        for y in x.values():
            yield from _leaves(y)
    else:
        yield x


def _output_template(x, slots, rec):
    if isinstance(x, Tensor):
        k = slots.get(id(x))
        if k is None:
            raise GraphBreak("the function returns a tensor made outside the recorded ops")
        return Slot(k)
    if _is_constant(x):
        return x
    if id(x) in rec.guarded_objects:
        if type(x) in (list, dict):
            raise GraphBreak("the function returns a list or dict it did not make")
        return x
    if type(x) in (tuple, list):
        return type(x)(_output_template(y, slots, rec) for y in x)
    if type(x) is dict:
        return {k: _output_template(v, slots, rec) for k, v in x.items()}
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):
        return type(x)(*[_output_template(y, slots, rec) for y in x])
    if isinstance(x, tuple):
        return type(x)([_output_template(y, slots, rec) for y in x])
    if _immutable_object(x):
        return x
    raise GraphBreak(f"the function returns a {type(x).__name__}")
