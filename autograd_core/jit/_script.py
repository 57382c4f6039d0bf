"""``torch.jit.script`` as a wrapper that runs the Python code, and TorchScript's
decorators (see the package docstring for where this differs from TorchScript)."""
import functools
import threading
import warnings

from autograd_core.jit._trace import ScriptFunction, ScriptModule
from autograd_core.nn.modules.module import Module

_tls = threading.local()


class FunctionModifiers:
    """How TorchScript treats a function (the marks ``export``/``ignore``/``unused`` set)."""

    UNUSED = "unused (ignored and replaced with raising of an exception)"
    IGNORE = "ignore (leave as a call to Python, cannot be torch.jit.save'd)"
    EXPORT = "export (compile this function even if nothing calls it)"
    DEFAULT = "default (compile if called from an exported function / forward)"
    COPY_TO_SCRIPT_WRAPPER = (
        "if this method is not scripted, copy the python method onto the scripted model")
    _DROP = "_drop (function is fully ignored, declaration can be unscriptable)"


def is_scripting():
    """True while a scripted function or module runs (its Python code runs here, as
    TorchScript's compiled code would).

    >>> import autograd_core as torch
    >>> torch.jit.is_scripting()
    False
    """
    return getattr(_tls, "scripting", 0) > 0


def _scripted(fn):
    def run(args, kwargs):
        _tls.scripting = getattr(_tls, "scripting", 0) + 1
        try:
            return fn(*args, **kwargs)
        finally:
            _tls.scripting -= 1
    return run


def export(fn):
    """Mark a module method as an entry point of the scripted module.

    >>> import autograd_core as torch
    >>> class M(torch.nn.Module):
    ...     @torch.jit.export
    ...     def double(self, x):
    ...         return x * 2
    ...     def forward(self, x):
    ...         return x
    >>> torch.jit.script(M()).double(torch.ones(1))
    tensor([2.])
    """
    fn._torchscript_modifier = FunctionModifiers.EXPORT
    return fn


def unused(fn):
    """Mark a function TorchScript leaves out: called from scripted code, it raises; from
    Python, it runs.

    >>> import autograd_core as torch
    >>> @torch.jit.unused
    ... def helper(x):
    ...     return x + 1
    >>> helper(torch.ones(1))
    tensor([2.])
    """
    if isinstance(fn, property):
        fn.fget._torchscript_modifier = FunctionModifiers.UNUSED
        if fn.fset:
            fn.fset._torchscript_modifier = FunctionModifiers.UNUSED
        return fn

    @functools.wraps(fn)
    def unused_fn(*args, **kwargs):
        if is_scripting():
            from autograd_core.jit import Error
            raise Error("This Python function is annotated to be ignored and cannot be run")
        return fn(*args, **kwargs)
    unused_fn._torchscript_modifier = FunctionModifiers.UNUSED
    return unused_fn


def ignore(drop=False, **kwargs):
    """Mark a function TorchScript leaves as a Python call (it runs as Python here anyway);
    ``@ignore`` or ``@ignore(drop=...)``.

    >>> import autograd_core as torch
    >>> @torch.jit.ignore
    ... def helper(x):
    ...     return x + 1
    >>> helper(torch.ones(1))
    tensor([2.])
    """
    if callable(drop):
        drop._torchscript_modifier = FunctionModifiers.IGNORE
        return drop
    if not isinstance(drop, bool):
        raise RuntimeError(
            f"Argument to @torch.jit.ignore must be a bool or a function but got {drop}")
    drop_on_export = kwargs.pop("drop_on_export", None)
    if drop_on_export:
        warnings.warn("ignore(drop_on_export=True) has been deprecated. TorchScript will now "
                      "drop the function call on compilation. Use torch.jit.unused now. {}",
                      FutureWarning, stacklevel=2)
        drop = drop_on_export
    elif drop:
        warnings.warn("ignore(True) has been deprecated. TorchScript will now drop the "
                      "function call on compilation. Use torch.jit.unused now. {}",
                      FutureWarning, stacklevel=2)

    def decorator(fn):
        fn._torchscript_modifier = FunctionModifiers.UNUSED if drop else \
            FunctionModifiers.IGNORE
        return fn
    return decorator


def script_if_tracing(fn):
    """fn, to be scripted when a trace reaches it (here it is called, and the trace records
    its ops).

    >>> import autograd_core as torch
    >>> @torch.jit.script_if_tracing
    ... def f(x):
    ...     return x * 3
    >>> f(torch.ones(1))
    tensor([3.])
    """
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    wrapper.__original_fn = fn
    wrapper.__script_if_tracing_wrapper = True
    return wrapper


class RecursiveScriptModule(ScriptModule):
    """A scripted module: the original's parameters, buffers and submodules; its forward
    and methods run the original's Python code with ``is_scripting()`` true."""

    def __init__(self, orig):
        super().__init__(orig)
        # exported methods are the scripted module's own (before Module's of the same name)
        for name in dir(type(orig)):
            fn = getattr(type(orig), name, None)
            if getattr(fn, "_torchscript_modifier", None) == FunctionModifiers.EXPORT:
                bound = getattr(orig, name)
                self.__dict__[name] = ScriptFunction(name, _scripted(bound), bound)

    def _get_name(self):
        return "RecursiveScriptModule"

    def forward(self, *args, **kwargs):
        return _scripted(self.__dict__["_orig"])(args, kwargs)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            attr = getattr(self.__dict__["_orig"], name)
            if callable(attr) and not isinstance(attr, Module):
                return ScriptFunction(name, _scripted(attr), attr)
            return attr


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """A scripted function (ScriptFunction) or module (RecursiveScriptModule): here a
    wrapper running the Python code (see ``autograd_core.jit``).

    >>> import autograd_core as torch
    >>> @torch.jit.script
    ... def f(x):
    ...     return x + 1 if torch.jit.is_scripting() else x
    >>> f(torch.ones(1))
    tensor([2.])
    """
    warnings.warn("`autograd_core.jit.script` is deprecated. Please switch to "
                  "`autograd_core.compile` or `autograd_core.export`.", DeprecationWarning)
    # (Note [jit's deprecation warnings] in _trace.py)
    if isinstance(obj, (ScriptModule, ScriptFunction)):
        return obj
    if isinstance(obj, Module):
        return RecursiveScriptModule(obj)
    if isinstance(obj, type):
        # a TorchScript class: its Python code already runs as it is
        return obj
    if not callable(obj):
        raise RuntimeError(f"Cannot script an object of type {type(obj).__name__}")
    return ScriptFunction(getattr(obj, "__name__", "fn"), _scripted(obj), obj)
