"""Parameter, Buffer and their uninitialised (lazy) forms, as in ``torch.nn.parameter``.

A Parameter is a Tensor subclass: a leaf that shares its memory with the tensor it was
made from and that a Module registers as a parameter when it is assigned to an attribute.

>>> import autograd_core as torch
>>> p = torch.nn.Parameter(torch.tensor([1., 2.]))
>>> p
Parameter containing:
tensor([1., 2.], requires_grad=True)
"""
from collections import OrderedDict

import autograd_core as _ag
from autograd_core.overrides import _disabled_torch_function_impl

__all__ = ["Parameter", "UninitializedParameter", "is_lazy", "Buffer", "UninitializedBuffer",
           "UninitializedTensorMixin"]

_Tensor = _ag.Tensor


def _alias(cls, data, requires_grad):
    """A new instance of the Tensor subclass cls holding data's memory (no copy)."""
    t = _Tensor.__new__(cls)
    t.data = data
    if requires_grad:
        if not (data.is_floating_point() or data.is_complex()):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t.requires_grad = True
    return t


def _buffer_alias(cls, data, requires_grad, persistent):
    """_alias marked as a buffer (persistent: kept in the state_dict)."""
    t = _alias(cls, data, requires_grad)
    t.persistent = persistent
    t._is_buffer = True
    return t


def _rebuild_parameter(data, requires_grad, hooks=None):
    return Parameter(data, requires_grad)


class Parameter(_Tensor):
    """A Tensor that a Module treats as one of its parameters."""

    # a Parameter is a plain tensor to every function (torch.overrides)
    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _ag.empty(0)
        if not isinstance(data, _Tensor):
            # PyTorch calls data.detach() on anything that is not a Tensor
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        return _alias(cls, data, requires_grad)

    def __init__(self, *args, **kwargs):  # everything happens in __new__
        pass

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.data, self.requires_grad, OrderedDict()))

    def __hash__(self):
        return id(self)


class UninitializedTensorMixin:
    """Behaviour shared by the uninitialised parameter and buffer of lazy modules."""

    def materialize(self, shape, device=None, dtype=None):
        """Give the tensor its shape (and dtype) and turn it into its initialised class."""
        if dtype is None:
            dtype = self.data.dtype
        self.data = _ag.empty(shape, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error "
            "usually happens in `load_state_dict` when trying to load an uninitialized "
            "parameter into an initialized one. Call `forward` to initialize the parameters "
            "before accessing their attributes.")

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
            "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{self.__class__.__name__}>"

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))


def is_lazy(param):
    """Whether param is an uninitialised parameter or buffer of a lazy module."""
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape is not known yet (see LazyLinear)."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return _alias(cls, _ag.empty(0, dtype=dtype), requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, None, self.data.dtype)
        memo[id(self)] = result
        return result


class _BufferMeta(type(_Tensor)):
    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, _Tensor) and getattr(instance, "_is_buffer",
                                                                       False):
            return True
        return super().__instancecheck__(instance)


class Buffer(_Tensor, metaclass=_BufferMeta):
    """A Tensor that a Module registers as a buffer when assigned to an attribute
    (``persistent=False``: left out of the state_dict)."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = _ag.empty(0)
        return _buffer_alias(cls, data, data.requires_grad, persistent)

    def __init__(self, *args, **kwargs):
        pass

    def __hash__(self):
        return id(self)


class _MaterializedBuffer(_Tensor):
    """What an UninitializedBuffer becomes in place (a plain Tensor cannot be the target of a
    ``__class__`` assignment); lazy modules then register a plain Tensor alias of it."""

    def __init__(self, *args, **kwargs):
        pass

    def __hash__(self):
        return id(self)


class UninitializedBuffer(UninitializedTensorMixin, _Tensor):
    """A buffer whose shape is not known yet (see LazyBatchNorm1d)."""

    cls_to_become = _MaterializedBuffer

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        return _buffer_alias(cls, _ag.empty(0, dtype=dtype), requires_grad, persistent)

    def __init__(self, *args, **kwargs):
        pass

    def __hash__(self):
        return id(self)
