"""Grad-mode context managers and decorators: no_grad, enable_grad, set_grad_enabled,
inference_mode. The mode itself is a thread-local flag in the C core."""
from __future__ import annotations
from typing import Any, Callable, Self, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

import functools
import inspect

from autograd_core._core import tensor as _core

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled", "enforce_grad_layout_policy"]

is_grad_enabled = _core.is_grad_enabled
is_inference_mode_enabled = _core.is_inference_mode_enabled


class _DecoratorContextManager:
    """Usable as ``with mode():`` and as ``@mode()`` (or bare ``@mode`` for no_grad)."""

    def __call__(self, func: _F) -> _F:
        if inspect.isclass(func):
            import warnings
            warnings.warn(
                "Decorating classes is deprecated and will be disabled in future versions. You "
                "should only decorate functions or methods. To preserve the current behavior of "
                "class decoration, you can directly decorate the `__init__` method and nothing "
                "else.", FutureWarning, stacklevel=2)
            cls = func
            func = lambda *args, **kwargs: cls(*args, **kwargs)  # noqa: E731
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def generator(*args, **kwargs):
                # Each step of the generator runs under the mode; the caller's code
                # between steps runs under its own.
                gen = func(*args, **kwargs)
                try:
                    with self.clone():
                        response = gen.send(None)
                    while True:
                        try:
                            request = yield response
                        except GeneratorExit:
                            with self.clone():
                                gen.close()
                            raise
                        except BaseException as e:
                            with self.clone():
                                response = gen.throw(e)
                        else:
                            with self.clone():
                                response = gen.send(request)
                except StopIteration as e:
                    return e.value
            return generator

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return wrapper

    def clone(self) -> _DecoratorContextManager:
        return self.__class__()


class no_grad(_DecoratorContextManager):
    """Disable gradient recording inside the block or decorated function.

    >>> import autograd_core as torch
    >>> x = torch.ones(2, requires_grad=True)
    >>> with torch.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    """

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Self:
        if orig_func is None or cls is not no_grad:
            return super().__new__(cls)
        return cls()(orig_func)  # bare @no_grad

    def __enter__(self) -> None:
        self.prev = _core.is_grad_enabled()
        _core._set_grad_enabled(False)

    def __exit__(self, *exc: object) -> None:
        _core._set_grad_enabled(self.prev)


class enable_grad(_DecoratorContextManager):
    """Enable gradient recording inside the block (e.g. within no_grad)."""

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Self:
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)

    def __enter__(self) -> None:
        self.prev = _core.is_grad_enabled()
        _core._set_grad_enabled(True)

    def __exit__(self, *exc: object) -> None:
        _core._set_grad_enabled(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode on or off: takes effect at once, and as a context manager restores
    the previous mode on exit.

    >>> import autograd_core as torch
    >>> with torch.set_grad_enabled(False):
    ...     torch.is_grad_enabled()
    False
    """

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError("set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {type(mode).__name__}")
        self.prev = _core.is_grad_enabled()
        self.mode = mode
        _core._set_grad_enabled(mode)

    def __call__(self, func: _F) -> _F:
        _core._set_grad_enabled(self.prev)
        return super().__call__(func)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _core._set_grad_enabled(self.prev)

    def clone(self) -> _DecoratorContextManager:
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like no_grad, for inference: nothing inside records history."""

    def __new__(cls, mode: bool = True) -> Self:
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # bare @inference_mode

    def __init__(self, mode: bool = True) -> None:
        if not isinstance(mode, bool):
            return
        self.mode = mode

    def __enter__(self) -> None:
        # PyTorch's InferenceMode(enabled): grad mode = not enabled, inference = enabled
        self.prev = (_core.is_grad_enabled(), _core.is_inference_mode_enabled())
        _core._set_grad_enabled(not self.mode)
        _core._set_inference_mode(self.mode)

    def __exit__(self, *exc: object) -> None:
        _core._set_grad_enabled(self.prev[0])
        _core._set_inference_mode(self.prev[1])

    def clone(self) -> _DecoratorContextManager:
        return self.__class__(self.mode)


class enforce_grad_layout_policy(_DecoratorContextManager):
    """Whether AccumulateGrad holds gradients to the gradient layout contract (a leaf's
    .grad strided as the leaf when it is dense, else contiguous), per thread; takes
    effect at once and, as a context manager, restores the previous policy on exit.
    With ``enable=False`` a gradient AccumulateGrad may steal is kept as laid out (no
    copy into the leaf's layout); a gradient it must copy still gets the leaf's layout.

    >>> import autograd_core as torch
    >>> p = torch.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()
    >>> with torch.autograd.enforce_grad_layout_policy(False):
    ...     (p * 1).backward(torch.ones(4, 2, 3))
    >>> p.grad.stride()
    (6, 3, 1)
    """

    def __init__(self, enable: bool = True) -> None:
        self.prev = _core._is_grad_layout_enforcement_enabled()
        _core._set_grad_layout_enforcement_enabled(enable)
        self.mode = enable

    def __call__(self, func: _F) -> _F:
        _core._set_grad_layout_enforcement_enabled(self.prev)
        return super().__call__(func)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _core._set_grad_layout_enforcement_enabled(self.prev)

    def clone(self) -> _DecoratorContextManager:
        return self.__class__(self.mode)
