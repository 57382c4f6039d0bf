"""torch.compile's entry points: the compiled function wrapper, OptimizedModule, the
per-code-object caches of recordings, disable (Note [Compiled mode] in
autograd_core/_dynamo/__init__.py)."""
import functools
import gc
import inspect
import logging
import threading

from autograd_core._core import tensor as _core
from autograd_core._dynamo import config, exc
from autograd_core._dynamo._record import GraphBreak, Recorder
from autograd_core._dynamo._replay import (G_KEYS, arguments_key, build, check_guards,
                                            plan_fusion, replay, set_frees)

log = logging.getLogger("autograd_core._dynamo.convert_frame")

_TROUBLESHOOTING_URL = ("https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/"
                        "programming_model.recompilation.html")

_tls = threading.local()


def _recording():
    return getattr(_tls, "recording", False)


# Note [Deferred build]
# A recording's steps (build_steps: each tensor argument replaced by its slot) are built
# at the entry's first replay, with its frees and fused blocks, not at the recording:
# the first call costs eager's plus the recording's hooks alone (chain16's 60,000 steps
# took ~50 ms to build, a quarter of its first call). Until then the entry holds the
# recording (its ops' arguments and results, by which build maps tensors to slots), so
# only a recording whose results are small is deferred (_DEFER_BYTES): a large one is
# built at once, and its intermediates are freed as eager's are. Whatever would break
# the graph at the build (an unfinished op, an output the template cannot hold) is
# checked at the recording (Recorder.check_buildable): the first call decides.
_DEFER_BYTES = 16 << 20


class _Entry:
    __slots__ = ("guards", "steps", "consts", "out", "key", "keepalive", "plan", "freed",
                 "closure", "rebound", "pending")

    def __init__(self, key, guards, steps, consts, out, keepalive, closure, pending=None):
        self.key = key
        # the objects the key names by identity (modules, functions), kept alive so that
        # their ids cannot be reused by others while the entry exists
        self.keepalive = keepalive
        self.guards = guards
        self.steps = steps
        self.consts = consts
        self.out = out
        self.plan = None      # the steps with their fused blocks (Note [Fused blocks]),
                              # made at the first replay that fuses
        self.freed = False    # the steps' frees are set (at the first replay)
        self.closure = closure  # the recorded function's closure cells (None: none)
        self.rebound = None   # (closure, guards): the guards read from another closure
        self.pending = pending  # (recorder, input tensors, result): steps and out to
                                # build at the first replay (Note [Deferred build])

    def guards_for(self, closure):
        """The guards as they apply to a call of the function whose closure cells are
        closure: two closures of one code object share its cache (as in PyTorch, whose
        guards read L['name'] from the frame), so a guard on a cell of the recorded
        function reads the caller's cell at the same place instead."""
        if closure is self.closure or closure is None or self.closure is None:
            return self.guards
        if self.rebound is None or self.rebound[0] is not closure:
            cells = {id(old): new for old, new in zip(self.closure, closure)}
            self.rebound = (closure, tuple([
                (cells.get(id(c), c) if k is None and kind != G_KEYS else c, k, kind, v)
                for c, k, kind, v in self.guards]))
        return self.rebound[1]


class _CodeCache:
    """The recordings of one code object (PyTorch keys its cache by code object too, so
    two compiled wrappers of one function share the recompile limit)."""

    def __init__(self):
        self.entries = {}      # arguments key -> [_Entry]
        self.count = 0
        self.last_key = None
        self.limit_hit = False


class _ByIdentity(dict):
    """A dict keyed by objects' identity. Code objects compare equal when their source,
    name, file and line are (two exec'd programs' lambdas): PyTorch keeps a cache on each
    code object, so equal ones must not share a cache, its guards and recompile count."""

    def get(self, key, default=None):
        hit = dict.get(self, id(key))
        return hit[1] if hit is not None and hit[0] is key else default

    def __contains__(self, key):
        hit = dict.get(self, id(key))
        return hit is not None and hit[0] is key

    def __getitem__(self, key):
        hit = dict.get(self, id(key))
        if hit is None or hit[0] is not key:
            raise KeyError(key)
        return hit[1]

    def __setitem__(self, key, value):
        dict.__setitem__(self, id(key), (key, value))  # (key held: its id stays its own)


_CACHES = _ByIdentity()     # code object -> _CodeCache
_BROKEN = _ByIdentity()     # code object -> why it cannot be recorded (runs eagerly from then on)
_total = [0]        # recordings made over all code objects (accumulated_recompile_limit)


def reset():
    """Forget every recording and graph break (``torch._dynamo.reset()``)."""
    _CACHES.clear()
    _BROKEN.clear()
    _total[0] = 0


def _eager_only():
    """Conditions under which a call runs eagerly without recording or replaying: another
    op observer (profiler, autocast, checkpointing, batched backward), forward AD, inference
    mode, or a recording already under way on this thread (its ops are the outer's)."""
    return (getattr(_tls, "recording", False) or _core._op_hooks_active()
            or _core._current_dual_level() != -1 or _core.is_inference_mode_enabled())


def _param_names(fn):
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def _arg_keys(args, kwargs, grad_mode):
    """Each argument's own guard key, for naming the one a recompile was for."""
    return (grad_mode,
            tuple(arguments_key((a,), None, False)[0] for a in args),
            tuple((k, arguments_key((v,), None, False)[0]) for k, v in (kwargs or {}).items()))


def _describe(fn, old, new):
    """PyTorch's recompile reason, from the first argument whose key changed."""
    if old is None:
        return "no recording matched"
    if old[0] != new[0]:
        return "___check_global_state() against grad_mode"
    names = _param_names(fn)
    pairs = [(f"L[{names[i]!r}]" if i < len(names) else f"L['args'][{i}]", a, b)
             for i, (a, b) in enumerate(zip(old[1], new[1]))]
    pairs += [(f"L[{ka!r}]", a, b) for (ka, a), (kb, b) in zip(old[2], new[2])]
    for name, a, b in pairs:
        if a == b:
            continue
        a, b = a[1], b[1]   # (after the grad mode slot) the argument's first leaf
        if isinstance(a, tuple) and len(a) == 11 and isinstance(b, tuple) and len(b) == 11:
            if a[1] != b[1]:
                return f"tensor {name} dtype mismatch. expected {a[1]}, actual {b[1]}"
            if a[2] != b[2]:
                if len(a[2]) != len(b[2]):
                    return (f"tensor {name} rank mismatch. expected {len(a[2])}, "
                            f"actual {len(b[2])}")
                i = next(i for i in range(len(a[2])) if a[2][i] != b[2][i])
                return (f"tensor {name} size mismatch at index {i}. expected {a[2][i]}, "
                        f"actual {b[2][i]}")
            if a[3] != b[3]:
                i = next(i for i in range(len(a[3])) if a[3][i] != b[3][i])
                return (f"tensor {name} stride mismatch at index {i}. expected "
                        f"{a[3][i]}, actual {b[3][i]}")
            if a[4] != b[4]:
                return f"tensor {name} requires_grad mismatch. expected requires_grad={int(a[4])}"
            return f"tensor {name} mismatch"
        if isinstance(a, tuple) and len(a) == 2 and a[0] in (int, float, bool, str):
            return f"{name} == {a[1]!r}"
        return f"{name} changed"
    return "a guard on a global, closure or module attribute failed"


def _call(fn, code, call, module, fullgraph, args, kwargs, fuse=True):
    """One call of a compiled function: replay a recording whose guards hold, else record
    (within the recompile limit), else run eagerly."""
    # (_BROKEN's and _CACHES's lookups written out: _ByIdentity's methods are Python
    # calls, and this is every call's path)
    hit = dict.get(_BROKEN, id(code))
    if hit is not None and hit[0] is code:
        if fullgraph and not _eager_only():
            raise exc.Unsupported(hit[1])
        return call(*args, **kwargs)
    if _eager_only():
        return call(*args, **kwargs)
    # a module's identity is part of the key: two instances share forward's code object
    key, tensors = arguments_key(args if module is None else (module,) + args, kwargs,
                                 _core.is_grad_enabled())
    hit = dict.get(_CACHES, id(code))
    cache = hit[1] if hit is not None and hit[0] is code else None
    if cache is not None:
        closure = getattr(fn, "__closure__", None)
        for e in cache.entries.get(key, ()):
            if check_guards(e.guards_for(closure)):
                vals = tensors + e.consts
                if not e.freed or (fuse and e.plan is None):
                    _first_replay(e, vals, fuse)
                else:
                    replay(e.plan if fuse else e.steps, vals)
                return build(e.out, vals)
        if cache.count >= config.recompile_limit or \
                _total[0] >= config.accumulated_recompile_limit:
            limit = ("recompile_limit" if cache.count >= config.recompile_limit
                     else "accumulated_recompile_limit")
            if not cache.limit_hit:
                cache.limit_hit = True
                log.warning(
                    "autograd_core._dynamo hit config.%s (%s)\n"
                    "   function: %s\n"
                    "   last reason: %s\n"
                    'To log all recompilation reasons, use TORCH_LOGS="recompiles".\n'
                    "To diagnose recompilation issues, see %s",
                    limit, getattr(config, limit),
                    f"'{code.co_name}' ({code.co_filename}:{code.co_firstlineno})",
                    "0/0: " + _describe(fn, cache.last_key,
                                        _arg_keys(args, kwargs, key[0])),
                    _TROUBLESHOOTING_URL)
            if config.fail_on_recompile_limit_hit:
                raise exc.FailOnRecompileLimitHit(
                    f"{limit} reached, because fail_on_recompile_limit_hit = True this is a "
                    "HARD failure")
            return call(*args, **kwargs)
    return _record(fn, code, call, module, fullgraph, args, kwargs, key, tensors)


def _first_replay(e, vals, fuse):
    """An entry's first replay (fused or not): it sets the steps' frees and plans the fused
    blocks (the blocks' programs are made at their first run, inside the replay). Not at
    the recording: the first call's cost is eager's plus the recording's (Note [Compiled
    mode]). Like the recording, planning makes many young objects (a 60,000-step entry:
    lists and tuples per step and per instruction) that are all garbage or untracked
    afterwards: without the cycle collector, whose passes would walk them and the
    recording's steps over and over (measured, chain16's 60,000 steps: set_frees 279 ->
    96 ms, the first fused replay 771 -> 533 ms)."""
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        pending = e.pending
        if pending is not None:
            rec, inputs, result = pending
            steps, _, out = rec.build(inputs, result, frees=False)
            # (pending cleared last: another thread's first replay meanwhile builds too)
            e.steps, e.out = steps, out
            e.pending = None   # (the recording, its results with it, freed here)
        if not e.freed:
            set_frees(e.steps, e.out, len(vals))
            e.freed = True
        if fuse:
            if e.plan is None:
                e.plan = plan_fusion(e.steps, vals, e.out)
            replay(e.plan, vals)
        else:
            replay(e.steps, vals)
    finally:
        if gc_was_on:
            gc.enable()


def _record(fn, code, call, module, fullgraph, args, kwargs, key, tensors):
    rec = Recorder(fn, fullgraph)
    _tls.recording = True
    # the recording's lists and steps are many young objects: without the cycle
    # collector from the recording through the build (its passes would walk them all)
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        try:
            result = rec.run(module, args, kwargs, call)
        finally:
            _tls.recording = False
        pending = None
        if rec.reason is None:
            try:
                if rec.result_bytes <= _DEFER_BYTES:
                    rec.check_buildable(result)
                    consts, _ = rec.constants(tensors)
                    steps = out = None
                    pending = (rec, tensors, result)
                else:
                    steps, consts, out = rec.build(tensors, result, frees=False)
            except GraphBreak as g:
                rec.reason = str(g)
        if pending is None:
            rec.steps = None   # (the recorded arguments and results: freed before the
                               # collector runs)
    finally:
        if gc_was_on:
            gc.enable()
    if rec.reason is not None:
        if fullgraph:
            raise exc.Unsupported(rec.reason)
        _BROKEN[code] = rec.reason
        return result
    cache = _CACHES.get(code)
    if cache is None:
        cache = _CACHES[code] = _CodeCache()
    cache.entries.setdefault(key, []).append(
        _Entry(key, tuple(rec.guards), steps, consts, out,
               tuple(rec.guarded_objects.values()), getattr(fn, "__closure__", None),
               pending))
    cache.count += 1
    cache.last_key = _arg_keys(args, kwargs, key[0])
    _total[0] += 1
    return result


def _code_of(fn):
    f = inspect.unwrap(fn) if not inspect.ismethod(fn) else fn.__func__
    return getattr(f, "__code__", None)


def compiled_function(fn, fullgraph, fuse=True):
    """fn wrapped for compiled mode (its metadata kept, as PyTorch's wrapper does); fuse:
    whether replays run fused blocks (Note [Fused blocks]: every backend but "eager")."""
    code = _code_of(fn)
    if code is None:
        # a builtin or a callable object without Python code: nothing to record
        return fn

    if inspect.ismethod(fn):
        # a bound method (Module.compile compiles self._call_impl): its object is an
        # argument of the recording, so that other objects' calls do not replay it
        func, obj = fn.__func__, fn.__self__

        @functools.wraps(fn)
        def compile_wrapper(*args, **kwargs):
            return _call(func, code, func, None, fullgraph, (obj,) + args, kwargs, fuse)
    else:
        @functools.wraps(fn)
        def compile_wrapper(*args, **kwargs):
            return _call(fn, code, fn, None, fullgraph, args, kwargs, fuse)

    compile_wrapper._torchdynamo_orig_callable = fn
    return compile_wrapper


def _disabled_wrapper(fn):
    @functools.wraps(fn)
    def _disabled_call(*args, **kwargs):
        return fn(*args, **kwargs)

    _disabled_call._torchdynamo_disable = True
    return _disabled_call


def disable(fn=None, recursive=True, *, reason=None):
    """Run fn eagerly always: inside a compiled function, a call of it is a graph break
    (``torch.compiler.disable``). Works as a decorator, with or without arguments.

    >>> import autograd_core as torch
    >>> @torch.compiler.disable
    ... def helper(x):
    ...     return x * 2
    >>> helper(torch.ones(2))
    tensor([2., 2.])
    """
    if fn is None:
        return lambda f: disable(f, recursive, reason=reason)
    from autograd_core.nn.modules.module import Module
    if isinstance(fn, Module):
        fn.forward = _disabled_wrapper(fn.forward)
        return fn
    return _disabled_wrapper(fn)


def _make_optimized_module_class():
    from autograd_core.nn.modules.module import Module

    class OptimizedModule(Module):
        """A module compiled by ``torch.compile``: it holds the original as ``_orig_mod``
        (so its state_dict keys are prefixed ``_orig_mod.``, as PyTorch's) and calls it
        through compiled mode (Note [Compiled mode]).

        >>> import autograd_core as torch
        >>> lin = torch.nn.Linear(2, 1)
        >>> opt = torch.compile(lin)
        >>> type(opt).__name__, opt._orig_mod is lin
        ('OptimizedModule', True)
        """

        _torchdynamo_orig_callable = None

        def __init__(self, mod, fullgraph=False, fuse=True):
            super().__init__()
            self._orig_mod = mod
            self.__dict__["_fullgraph"] = fullgraph
            self.__dict__["_fuse"] = fuse
            fwd = type(mod).forward
            self.__dict__["_code"] = getattr(fwd, "__code__", None)

        def forward(self, *args, **kwargs):
            mod = self._orig_mod
            code = self.__dict__["_code"]
            if code is None:
                return mod(*args, **kwargs)
            return _call(type(mod).forward, code, mod, mod, self.__dict__["_fullgraph"],
                         args, kwargs, self.__dict__["_fuse"])

        def __call__(self, *args, **kwargs):
            return self.forward(*args, **kwargs)

        def __getattr__(self, name):
            try:
                return super().__getattr__(name)
            except AttributeError:
                return getattr(self._modules["_orig_mod"], name)

    OptimizedModule.__module__ = "autograd_core._dynamo.eval_frame"
    return OptimizedModule


_OptimizedModule = None


def optimized_module_class():
    global _OptimizedModule
    if _OptimizedModule is None:
        _OptimizedModule = _make_optimized_module_class()
    return _OptimizedModule


def __getattr__(name):
    if name == "OptimizedModule":
        return optimized_module_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
