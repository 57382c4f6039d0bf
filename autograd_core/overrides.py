"""PyTorch's ``__torch_function__`` protocol (``torch.overrides``).

A type that defines a ``__torch_function__`` classmethod is consulted by the
namespace functions and the Tensor methods when one of their tensor arguments is an
instance of it (Note [__torch_function__ in the wrappers], ops/_prelude.pxi):
``func`` is the public function, ``types`` the overriding types, ``args`` and
``kwargs`` the call's arguments. Returning ``NotImplemented`` passes to the next type.

>>> import autograd_core as torch
>>> class Logged:
...     def __init__(self, t):
...         self.t = t
...     @classmethod
...     def __torch_function__(cls, func, types, args=(), kwargs=None):
...         args = [a.t if isinstance(a, Logged) else a for a in args]
...         return ("called", func.__name__, func(*args, **(kwargs or {})))
>>> torch.sin(Logged(torch.zeros(2)))
('called', 'sin', tensor([0., 0.]))
"""

__all__ = ["handle_torch_function", "has_torch_function", "is_tensor_like"]


def _disabled_torch_function_impl(func, types, args=(), kwargs=None):
    """The __torch_function__ of a Tensor subclass that opts out of the protocol
    (nn.Parameter's): its instances are plain tensors to every function."""
    return NotImplemented


def _overrides(x):
    t = type(x)
    if t is int or t is float or t is str or t is bool or x is None:
        return False        # (the common non-tensor arguments, without a failed lookup)
    f = getattr(t, "__torch_function__", None)
    return f is not None and f is not _disabled_torch_function_impl


def _overloaded(relevant_args):
    # PyTorch's order: each type once, first appearance first, but a subclass before
    # its superclasses
    types, args = [], []
    for a in relevant_args:
        if isinstance(a, (list, tuple)):
            sub = _overloaded(a)
            pairs = list(zip(*sub)) if sub[0] else []
        else:
            pairs = [(type(a), a)] if _overrides(a) else []
        for t, arg in pairs:
            if t in types:
                continue
            at = len(types)
            for i, known in enumerate(types):
                if issubclass(t, known):
                    at = i
                    break
            types.insert(at, t)
            args.insert(at, arg)
    return types, args


def _func_name(func):
    """The public spelling of func: autograd_core.add, autograd_core.Tensor.mul,
    autograd_core.nn.functional.mse_loss."""
    import autograd_core
    name = getattr(func, "__name__", None) or repr(func)
    if getattr(autograd_core.Tensor, name, None) is func:
        return f"autograd_core.Tensor.{name}"
    module = getattr(func, "__module__", None) or "autograd_core"
    if module.startswith("autograd_core.ops") or module.startswith("autograd_core._"):
        module = "autograd_core"
    return f"{module}.{name}"


# vmap's compiled rules (Note [Compiled vmap dispatch], func/_vmapfast.pyx), installed
# when func._vmap is imported: they answer the common calls on its batched tensors and
# return NotImplemented for any other call (at once when no vmap is running)
_fast_dispatch = None


def _handle_call(func, args, kwargs, compiled=True):
    """Calls the overrides of args/kwargs's overriding arguments for func(*args, **kwargs)
    (the compiled wrappers' entry, Note [__torch_function__ in the wrappers])."""
    if _fast_dispatch is not None:
        res = _fast_dispatch(func, args, kwargs)
        if res is not NotImplemented:
            return res
    relevant = list(args) + [v for v in kwargs.values() if v is not None]
    types, overloaded = _overloaded(relevant)
    if not compiled:
        Tensor = _tensor_type()
        if any(type(r) is Tensor for r in relevant):
            types = types + [Tensor]        # PyTorch's Tensor has a __torch_function__ too
    return _call(func, types, overloaded, args, kwargs, compiled=compiled)


def _handle_call_py(func, args, kwargs):
    """_handle_call for the functions written in Python (nn.functional's): PyTorch's
    message for them lists Tensor too when a plain tensor argument is present."""
    return _handle_call(func, args, kwargs, compiled=False)


def _tensor_type():
    if not _TENSOR:
        from autograd_core import Tensor     # (this module is imported before Tensor is)
        _TENSOR.append(Tensor)
    return _TENSOR[0]


_TENSOR = []


def _call(func, types, overloaded, args, kwargs, compiled=False):
    tt = tuple(types)
    for a in overloaded:
        result = type(a).__torch_function__(func, tt, tuple(args), dict(kwargs))
        if result is not NotImplemented:
            return result
    if compiled:
        handlers = "".join(f"  - tensor subclass {t}\n" for t in tt)
        raise TypeError(f"Multiple dispatch failed for '{_func_name(func)}'; all "
                        f"__torch_function__ handlers returned NotImplemented:\n\n{handlers}\n"
                        f"For more information, try re-running with "
                        f"TORCH_LOGS=not_implemented")
    raise TypeError(f"no implementation found for '{_func_name(func)}' on types that "
                    f"implement __torch_function__: {list(tt)}")


def has_torch_function(relevant_args):
    """Whether any of relevant_args (a tuple) overrides __torch_function__.

    >>> import autograd_core as torch
    >>> torch.overrides.has_torch_function((torch.zeros(1),))
    False
    """
    return bool(_overloaded(relevant_args)[0])


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Calls the __torch_function__ overrides among relevant_args for
    ``public_api(*args, **kwargs)``, as torch.overrides.handle_torch_function.

    >>> import autograd_core as torch
    >>> class Const:
    ...     @classmethod
    ...     def __torch_function__(cls, func, types, args=(), kwargs=None):
    ...         return 42
    >>> def f(x):
    ...     return torch.overrides.handle_torch_function(f, (x,), x)
    >>> f(Const())
    42
    """
    types, overloaded = _overloaded(relevant_args)
    return _call(public_api, types, overloaded, args, kwargs)


def is_tensor_like(inp):
    """True for a Tensor or an object whose type defines __torch_function__.

    >>> import autograd_core as torch
    >>> torch.overrides.is_tensor_like(torch.zeros(1)), torch.overrides.is_tensor_like(1)
    (True, False)
    """
    from autograd_core import Tensor
    return type(inp) is Tensor or hasattr(type(inp), "__torch_function__")
