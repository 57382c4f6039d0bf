"""``torch.jit.trace`` / ``trace_module`` on compiled mode's recorder (see the package
docstring for where a trace here differs from TorchScript's)."""
import threading
import warnings

from autograd_core._core.tensor import Tensor
from autograd_core._dynamo._record import GraphBreak, Recorder
from autograd_core._dynamo._replay import build, replay, tensors_in
from autograd_core.nn.modules.module import Module

_tls = threading.local()

# Note [jit's deprecation warnings]: PyTorch warns from inside torch/jit (no stacklevel),
# so the default filters, which show a DeprecationWarning only when __main__ triggers it,
# keep them silent in a program; a stacklevel pointing at the caller would print them.
_DEPRECATED = ("`autograd_core.jit.{}` is deprecated. Please switch to "
               "`autograd_core.compile` or `autograd_core.export`.")
_VALUE_READ = {
    "__bool__": "a Python boolean", "item": "a Python number", "__float__": "a Python float",
    "__int__": "a Python integer", "__index__": "a Python index", "tolist": "a Python list",
    "__complex__": "a Python number", "numpy": "a NumPy array", "__array__": "a NumPy array",
}


class TracerWarning(Warning):
    """What a trace warns where Python reads a tensor's value (the trace freezes it) or the
    trace's check finds the traced function disagreeing with the Python one."""


def is_tracing():
    """True while ``torch.jit.trace`` records a function on this thread.

    >>> import autograd_core as torch
    >>> torch.jit.is_tracing()
    False
    """
    return getattr(_tls, "tracing", 0) > 0


class _TraceRecorder(Recorder):
    """A Recorder whose graph breaks do not stop the trace: Python control flow and values
    are frozen (PyTorch's TracerWarning where Python reads a tensor's value), Python effects
    happen once, tensors made outside the op table become constants."""

    def __init__(self, fn):
        super().__init__(fn, False)
        self.fresh = {}           # id -> the value a constant had when first used
        self.fatal = None

    def fail(self, reason, gb_type="Graph break in compiled mode"):
        if reason.startswith("the op ") and self.fatal is None:
            self.fatal = reason

    def value_read(self, t, what):
        if threading.get_ident() != self.thread:
            return
        kind = _VALUE_READ.get(what)
        if kind is not None:
            warnings.warn(f"Converting a tensor to {kind} might cause the trace to be "
                          "incorrect. We can't record the data flow of Python values, so this "
                          "value will be treated as a constant in the future. This means that "
                          "the trace might not generalize to other inputs!", TracerWarning,
                          stacklevel=3)

    def profile(self, frame, event, arg):
        # Python code runs as it will never run again: nothing to check or guard
        return None

    def adopt(self, t):
        # the value it has now: the recorded ops may change it in place later
        self.fresh[id(t)] = t.detach().clone().requires_grad_(t.requires_grad and t.is_leaf)
        self.add_preexisting(t)
        return True


def _as_args(example_inputs):
    if isinstance(example_inputs, Tensor):
        return (example_inputs,)
    return tuple(example_inputs)


class _Trace:
    """One recorded call: replayed on any inputs with the same number of tensors."""

    def __init__(self, fn, args, kwargs, module):
        rec = _TraceRecorder(fn)
        _tls.tracing = getattr(_tls, "tracing", 0) + 1
        try:
            result = rec.run(module, args, kwargs, fn)
        finally:
            _tls.tracing -= 1
        if rec.fatal is not None:
            raise RuntimeError(f"Tracer cannot replay this function: {rec.fatal}")
        inputs = tensors_in((args, list(kwargs.values())))
        try:
            self.steps, consts, self.out = rec.build(inputs, result)
        except GraphBreak as e:
            raise RuntimeError(f"Tracer cannot replay this function: {e}") from None
        self.consts = [(rec.fresh.get(id(c), c), id(c) in rec.fresh) for c in consts]
        self.n_inputs = len(inputs)
        self.example_result = result

    def __call__(self, args, kwargs):
        tensors = tensors_in((args, list(kwargs.values())))
        if len(tensors) != self.n_inputs:
            raise RuntimeError(f"the traced function takes {self.n_inputs} tensor inputs, "
                               f"{len(tensors)} were given")
        vals = tensors + [c.clone() if fresh else c for c, fresh in self.consts]
        replay(self.steps, vals)
        return build(self.out, vals)


def _check(trace, fn, args, kwargs, check_inputs, tolerance):
    """PyTorch's check_trace: run the traced and the Python function on copies of the
    inputs and warn where an output differs."""
    from autograd_core import allclose
    for inputs in (check_inputs or [args]):
        a = _as_args(inputs)
        copy = [x.detach().clone().requires_grad_(x.requires_grad) if isinstance(x, Tensor)
                else x for x in a]
        copy2 = [x.detach().clone().requires_grad_(x.requires_grad) if isinstance(x, Tensor)
                 else x for x in a]
        got = trace(tuple(copy), kwargs)
        want = fn(*copy2, **kwargs)
        got_l = tensors_in(got if isinstance(got, (tuple, list)) else (got,))
        want_l = tensors_in(want if isinstance(want, (tuple, list)) else (want,))
        for i, (g, w) in enumerate(zip(got_l, want_l), 1):
            if g.shape != w.shape or not allclose(g.detach(), w.detach(), rtol=tolerance,
                                                  atol=tolerance, equal_nan=True):
                warnings.warn(f"Output nr {i}. of the traced function does not match the "
                              "corresponding output of the Python function.", TracerWarning,
                              stacklevel=3)
                return


class ScriptFunction:
    """A traced or scripted function (``torch.jit.ScriptFunction``)."""

    def __init__(self, name, call, fn=None):
        self.__name__ = self.name = name
        self._call = call
        self._fn = fn
        self.__doc__ = getattr(fn, "__doc__", None)

    def __call__(self, *args, **kwargs):
        return self._call(args, kwargs)

    def __repr__(self):
        return f"<autograd_core.jit.ScriptFunction object at {hex(id(self))}>"


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None,
          check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
          _compilation_unit=None, example_kwarg_inputs=None, _store_inputs=True):
    """Record func's ops on example_inputs and return a ScriptFunction (a module: a
    TopLevelTracedModule) that replays them on new inputs (see ``autograd_core.jit``).

    >>> import autograd_core as torch, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     f = torch.jit.trace(lambda x: x.sin() * 2, torch.zeros(2))
    >>> f(torch.tensor([0.0, 1.0]))
    tensor([0.0000, 1.6829])
    """
    warnings.warn(_DEPRECATED.format("trace"), DeprecationWarning)
    if isinstance(func, Module):
        inputs = example_inputs if example_inputs is not None else example_kwarg_inputs
        return _trace_module(func, {"forward": inputs}, check_trace, check_inputs,
                             check_tolerance, example_inputs is None
                             and example_kwarg_inputs is not None)
    if example_inputs is None and example_kwarg_inputs is None:
        raise RuntimeError("example_kwarg_inputs should be a dict")
    args = _as_args(example_inputs) if example_inputs is not None else ()
    kwargs = dict(example_kwarg_inputs or {})
    t = _Trace(func, args, kwargs, None)
    if check_trace:
        _check(t, func, args, kwargs, check_inputs, check_tolerance)
    return ScriptFunction(getattr(func, "__name__", "fn"), t, func)


class ScriptModule(Module):
    """A traced or scripted module (``torch.jit.ScriptModule``): it shares the
    original's parameters, buffers and submodules."""

    def __init__(self, orig):
        super().__init__()
        d = self.__dict__
        for k in ("_parameters", "_buffers", "_modules"):
            d[k] = orig.__dict__[k]
        d["training"] = orig.training
        d["original_name"] = type(orig).__name__
        d["_orig"] = orig

    def _get_name(self):
        return self.__dict__["original_name"]

    def extra_repr(self):
        return f"original_name={self.__dict__['original_name']}"


class TracedModule(ScriptModule):
    """A module whose methods replay their traces."""

    def __init__(self, orig, traces):
        super().__init__(orig)
        self.__dict__["_traces"] = traces
        for name, t in traces.items():
            if name != "forward":
                self.__dict__[name] = ScriptFunction(name, t)

    def forward(self, *args, **kwargs):
        return self.__dict__["_traces"]["forward"](args, kwargs)


class TopLevelTracedModule(TracedModule):
    """What ``trace`` and ``trace_module`` return for a module."""


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None,
                 check_tolerance=1e-5, strict=True, _force_outplace=False, _module_class=None,
                 _compilation_unit=None, example_inputs_is_kwarg=False, _store_inputs=True):
    """Trace several methods of mod: inputs maps each method's name to its example inputs;
    returns a TopLevelTracedModule whose methods replay their traces.

    >>> import autograd_core as torch, warnings
    >>> lin = torch.nn.Linear(2, 1)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     t = torch.jit.trace_module(lin, {"forward": torch.ones(1, 2)})
    >>> t
    Linear(original_name=Linear)
    >>> bool((t(torch.ones(3, 2)) == lin(torch.ones(3, 2))).all())
    True
    """
    if not isinstance(mod, Module):
        raise AttributeError("expected torch.nn.Module as the first argument")
    if not isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    warnings.warn(_DEPRECATED.format("trace_method"), DeprecationWarning)
    return _trace_module(mod, inputs, check_trace, check_inputs, check_tolerance,
                         example_inputs_is_kwarg)


def _trace_module(mod, inputs, check_trace, check_inputs, check_tolerance,
                  example_inputs_is_kwarg):
    traces = {}
    for name, example in inputs.items():
        if example_inputs_is_kwarg:
            args, kwargs = (), dict(example)
        else:
            args, kwargs = _as_args(example), {}
        fn = mod if name == "forward" else getattr(mod, name)
        t = _Trace(fn, args, kwargs, mod)
        if check_trace:
            _check(t, fn, args, kwargs, check_inputs, check_tolerance)
        traces[name] = t
    return TopLevelTracedModule(mod, traces)
