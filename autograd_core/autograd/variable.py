"""The legacy ``Variable`` (PyTorch >= 0.4 semantics): every Tensor is a Variable."""
import warnings

from autograd_core._core import engine as _core_engine
from autograd_core._core import tensor as _core


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, _core.Tensor)

    def __call__(cls, data=None, requires_grad=False, volatile=False, **kwargs):
        if kwargs:
            raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
        if data is None:
            return _core.from_array(__import__("numpy").empty((0,), dtype="float32"), False)
        if not isinstance(data, _core.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        requires_grad = bool(requires_grad)
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                          "instead.", UserWarning, stacklevel=2)
        leaf = data.detach()  # a new leaf sharing storage and version counter
        leaf.requires_grad_(requires_grad)
        return leaf


class _ImperativeEngine:
    """The backward engine as ``Variable._execution_engine`` shows it (PyTorch's
    torch._C._ImperativeEngine): queue_callback and is_checkpoint_valid."""

    @staticmethod
    def queue_callback(callback):
        """Run callback() once the backward pass running now has finished (after the
        callbacks queued before it); outside a backward pass: RuntimeError.

        >>> import autograd_core as torch
        >>> from autograd_core.autograd import Variable
        >>> done = []
        >>> x = torch.ones(2, requires_grad=True)
        >>> y = x * 2
        >>> _ = y.register_hook(
        ...     lambda g: Variable._execution_engine.queue_callback(lambda: done.append(1)))
        >>> y.sum().backward()
        >>> done
        [1]
        """
        _core_engine._queue_callback(callback)

    @staticmethod
    def is_checkpoint_valid():
        """False inside a backward pass that does not reach the whole graph
        (autograd.grad, backward(inputs=...)): reentrant checkpointing refuses it."""
        return _core_engine._is_checkpoint_valid()


class Variable(metaclass=_VariableMeta):
    """``Variable(tensor, requires_grad=False)`` returns a plain Tensor (a new leaf
    sharing the tensor's memory); ``isinstance(t, Variable)`` holds for every Tensor.

    >>> import autograd_core as torch
    >>> from autograd_core.autograd import Variable
    >>> Variable(torch.tensor([1., 2.]), requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    """

    _execution_engine = _ImperativeEngine()
