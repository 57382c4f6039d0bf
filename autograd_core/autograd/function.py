"""Custom differentiable operations: ``autograd.Function`` with static forward/backward."""
from __future__ import annotations
from typing import Any

import functools
import inspect

from autograd_core import _vmap_state
from autograd_core._core import tensor as _core
from autograd_core._core import function as _core_function
from autograd_core.grad_mode import is_grad_enabled, no_grad

__all__ = ["Function", "FunctionCtx", "NestedIOFunction", "once_differentiable"]

FunctionCtx = _core_function.FunctionNode


class _FunctionMeta(type):
    """Gives each Function subclass its node class, named "<Name>Backward" as in PyTorch."""

    def __init__(cls, name, bases, attrs):
        cls._backward_cls = type(name + "Backward", (_core_function.FunctionNode,), {})
        # forward without ctx plus setup_context, when a subclass defines setup_context
        cls._new_style = not attrs.get("_is_base_class", False) and (
            "setup_context" in attrs or any(getattr(b, "_new_style", False) for b in bases))
        super().__init__(name, bases, attrs)


class Function(metaclass=_FunctionMeta):
    """Base class for custom ops: define static ``forward(ctx, *args)`` and
    ``backward(ctx, *grad_outputs)``, call ``.apply(*args)``.

    >>> import autograd_core as torch
    >>> class Square(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     def backward(ctx, g):
    ...         (x,) = ctx.saved_tensors
    ...         return 2 * x * g
    >>> x = torch.tensor([3.], requires_grad=True)
    >>> Square.apply(x).backward()
    >>> x.grad
    tensor([6.])
    """

    def __init__(self, *args, **kwargs):
        import warnings
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions "
                      "are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an error in a future "
                      "version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    _is_base_class = True

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    @staticmethod
    def vjp(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """The forward-mode derivative: one tangent per forward argument in (None where
        there is none), one per output out (Note [Forward AD] in _core/_fw.pxi)."""
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    # Note [Function under vmap]: torch.func.vmap over a custom Function runs its vmap
    # staticmethod on the unbatched values (with each argument's batch dim), or, with
    # generate_vmap_rule=True, the Function once per sample; torch._vmap_internals' vmap
    # (gradcheck's) runs it once per sample (func/_vmap.py's custom_function_apply).
    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        """The Function's batching rule under vmap: given ``info`` (batch_size,
        randomness), ``in_dims`` (each argument's batch dim, None where it has none) and
        the arguments, return ``(output, out_dims)``. Override it or set
        ``generate_vmap_rule = True``.

        >>> import autograd_core as torch
        >>> class Double(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(x):
        ...         return x * 2
        ...     @staticmethod
        ...     def setup_context(ctx, inputs, output):
        ...         pass
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         return g * 2
        ...     @staticmethod
        ...     def vmap(info, in_dims, x):
        ...         return x * 2, in_dims[0]
        >>> torch.vmap(Double.apply)(torch.ones(2, 1))
        tensor([[2.],
                [2.]])
        """
        raise NotImplementedError("To use autograd.Function with vmap, you must either "
                                  "override the vmap staticmethod or set "
                                  "generate_vmap_rule=True.")

    @classmethod
    def _backward_fn(cls):
        """The user's backward: backward or vjp, never both (checked when it runs, as PyTorch)."""
        backward_fn, vjp_fn = cls.backward, cls.vjp
        if backward_fn is not Function.backward and vjp_fn is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is "
                               "not allowed. You should only implement one of them.")
        return vjp_fn if vjp_fn is not Function.vjp else backward_fn

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        if cls._new_style:
            # setup_context sees forward's arguments with their defaults filled in
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        if _vmap_state.LEVELS and _has_batched(args, kwargs):
            from autograd_core.func import _vmap
            return _vmap.custom_function_apply(cls, args, kwargs)
        return _core_function.function_apply(cls, args, kwargs)


def _has_batched(args, kwargs):
    from autograd_core.func._vmap import is_batched
    return any(is_batched(a) for a in args) or any(is_batched(a) for a in kwargs.values())


def once_differentiable(fn):
    """Mark a backward as not differentiable: it runs without recording, and under
    create_graph its results' grad_fn raises if differentiated (PyTorch's DelayedError).

    >>> import autograd_core as torch
    >>> class Twice(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         return x * 2
    ...     @staticmethod
    ...     @torch.autograd.function.once_differentiable
    ...     def backward(ctx, g):
    ...         return g * 2
    >>> x = torch.tensor([1.], requires_grad=True)
    >>> Twice.apply(x).sum().backward()
    >>> x.grad
    tensor([2.])
    """

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not is_grad_enabled():
            return outputs
        if not any(isinstance(a, _core.Tensor) and a.requires_grad for a in args):
            return outputs
        if not isinstance(outputs, tuple):
            outputs = (outputs,)

        def fake_requires_grad(var):
            if var is not None:
                var = var.detach()
                var.requires_grad = True
            return var

        return _core_function.delayed_error(
            "trying to differentiate twice a function that was marked with "
            "@once_differentiable", tuple(fake_requires_grad(v) for v in outputs))
    return wrapper


# ---------------------------------------------------------------- NestedIOFunction

def _iter_nested(accept, what):
    """A generator over the objects of a nest of lists, tuples and dict values that
    accept takes (None is skipped); anything else is PyTorch's "Auto nesting" error."""
    def walk(obj):
        if accept(obj):
            yield obj
        elif obj is None:
            return
        elif isinstance(obj, (list, tuple)):
            for o in obj:
                yield from walk(o)
        elif isinstance(obj, dict):
            for o in obj.values():
                yield from walk(o)
        else:
            from autograd_core import typename
            raise ValueError("Auto nesting doesn't know how to process an input object of "
                             f"type {typename(obj)}. Accepted types: {what}, or lists/tuples "
                             "of them")
    return walk


_iter_tensors = _iter_nested(lambda x: isinstance(x, _core.Tensor), "Tensors")
_iter_none_tensors = _iter_nested(lambda x: x is None or isinstance(x, _core.Tensor),
                                  "Tensors or None")


def _map_tensor_data(obj):
    """obj with every tensor of its nest replaced by its .data."""
    if isinstance(obj, _core.Tensor):
        return obj.data
    if obj is None:
        return None
    if isinstance(obj, (list, tuple)):
        mapped = [_map_tensor_data(o) for o in obj]
        return type(obj)(mapped) if not hasattr(obj, "_fields") else type(obj)(*mapped)
    if isinstance(obj, dict):
        return {k: _map_tensor_data(v) for k, v in obj.items()}
    list(_iter_tensors(obj))        # the "Auto nesting" error
    return obj


def _unflatten(flat, proto):
    """flat (a sequence) regrouped as the nest of lists/tuples proto (None stays)."""
    def take(flat, proto):
        if not isinstance(proto, (list, tuple)):
            return flat[0], flat[1:]
        out = []
        for e in proto:
            if e is None:
                out.append(None)
            else:
                got, flat = take(flat, e)
                out.append(got)
        return type(proto)(out), flat
    return take(flat, proto)[0]


class NestedIOFunction(Function):
    r"""
    This class is here only for backward compatibility reasons.
    Use :class:`Function` instead of this for any new use case.

    The legacy base of Functions taking and returning nests of tensors through
    ``forward_extended(self, *inputs)`` / ``backward_extended(self, *grads)``. As in
    PyTorch 2.13, its helpers flatten and regroup nests, but it cannot be run: the
    legacy call path it relies on is gone (calling an instance raises AttributeError;
    ``apply`` fails in ``forward``).

    >>> import autograd_core as torch
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")     # instantiating a Function is deprecated
    ...     f = torch.autograd.NestedIOFunction()
    >>> x = torch.ones(2)
    >>> f.save_for_backward(x, [x, None])
    >>> len(f.to_save)
    2
    """

    _is_base_class = True

    def _do_forward(self, *input):
        self._nested_input = input
        flat_output = super()._do_forward(*tuple(_iter_tensors(input)))
        return _unflatten(flat_output, self._nested_output)

    def _do_backward(self, gradients, retain_variables):
        self.retain_variables = retain_variables
        result = super()._do_backward(gradients, retain_variables)
        if not retain_variables:
            del self._nested_output
            del self._to_save_nested
        return result

    def backward(self, *gradients):
        """Regroup the gradients as the outputs were nested, call backward_extended,
        and flatten its result."""
        nested = _unflatten(gradients, self._nested_output)
        return tuple(_iter_none_tensors(self.backward_extended(*nested)))

    __call__ = _do_forward

    def forward(self, *args):
        """Call forward_extended on the nested inputs' data; flatten its outputs."""
        nested = _map_tensor_data(self._nested_input)
        result = self.forward_extended(*nested)
        del self._nested_input
        self._nested_output = result
        return tuple(_iter_tensors(result))

    def save_for_backward(self, *args):
        """Save a nest of tensors (saved_tensors returns it with the same nesting)."""
        self.to_save = tuple(_iter_tensors(args))
        self._to_save_nested = args

    @property
    def saved_tensors(self):
        # only the legacy call path filled the flat saved tensors: none here
        return _unflatten((), self._to_save_nested)

    def mark_dirty(self, *args, **kwargs):
        """Mark the tensors of a nest as modified in place."""
        self.dirty_tensors = tuple(_iter_tensors((args, kwargs)))

    def mark_non_differentiable(self, *args, **kwargs):
        """Mark the tensors of a nest as non-differentiable outputs."""
        self.non_differentiable = tuple(_iter_tensors((args, kwargs)))

    def forward_extended(self, *input):
        """User defined forward."""
        raise NotImplementedError

    def backward_extended(self, *grad_output):
        """User defined backward."""
        raise NotImplementedError
