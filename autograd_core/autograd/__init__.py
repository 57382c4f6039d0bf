"""autograd_core.autograd: backward(), grad(), the legacy Variable, grad modes."""
from __future__ import annotations
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autograd_core._core.tensor import Tensor

from autograd_core._core import tensor as _core
from autograd_core._core import engine as _core_engine
from autograd_core import _creation, _vmap_state
from autograd_core._core.tensor import SavedTensor
from autograd_core.autograd.variable import Variable
from autograd_core.autograd.function import Function, NestedIOFunction, once_differentiable
from autograd_core.autograd import forward_ad, functional, grad_mode, graph
from autograd_core.autograd import _functions  # noqa: F401  (installs Tensor.resize &c.)
from autograd_core.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from autograd_core.grad_mode import (enable_grad, enforce_grad_layout_policy, inference_mode,
                                     no_grad, set_grad_enabled)

__all__ = ["SavedTensor", "set_multithreading_enabled", "is_multithreading_enabled",
           "Variable", "Function", "NestedIOFunction", "once_differentiable", "forward_ad", "functional", "graph", "backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
           "inference_mode", "enforce_grad_layout_policy", "gradcheck", "gradgradcheck",
           "GradcheckError"]


def _is_checkpoint_valid():
    """torch.autograd._is_checkpoint_valid: False inside a backward pass that does not
    reach the whole graph (what reentrant checkpointing refuses)."""
    return _core_engine._is_checkpoint_valid()


def _as_tuple(x, name, edges=False):
    """tensors/outputs (edges=False) or inputs (edges=True) as a tuple, with PyTorch's
    errors: a non-iterable is a TypeError, a non-Tensor output the engine's
    AssertionError, a non-Tensor input a RuntimeError."""
    if isinstance(x, _core.Tensor) or (edges and isinstance(x, graph.GradientEdge)):
        return (x,)
    if edges and type(x) is dict:
        x = tuple(x.values())
    x = _core_engine.iterated(x)
    if edges and name == "inputs":
        for t in x:
            if not isinstance(t, _core.Tensor) and not isinstance(t, graph.GradientEdge):
                raise RuntimeError("all inputs have to be Tensors or GradientEdges, but got "
                                   f"{type(t).__name__}")
    return x


def _grads(grads, outputs):
    """gradient arguments paired with outputs (PyTorch's _make_grads: extra ones are
    ignored, missing ones an error; each a Tensor or None)."""
    if grads is None:
        return (None,) * len(outputs)
    grads = (grads,) if isinstance(grads, _core.Tensor) else _core_engine.iterated(grads)
    if len(grads) < len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    for g in grads:
        if g is not None and not isinstance(g, _core.Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
    return grads[:len(outputs)]


def backward(tensors: Tensor | Sequence[Tensor],
             grad_tensors: Tensor | Sequence[Tensor | None] | None = None,
             retain_graph: bool | None = None, create_graph: bool = False,
             grad_variables: Any = None,
             inputs: Tensor | Sequence[Tensor] | None = None) -> None:
    """Accumulate the gradients of ``tensors`` into the leaves' ``.grad``.

    >>> import autograd_core as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> torch.autograd.backward([(x * x).sum()])
    >>> x.grad
    tensor([2., 4.])
    """
    tensors = _as_tuple(tensors, "tensors", edges=True)
    if grad_tensors is None:
        grad_tensors = grad_variables
    grads = _grads(grad_tensors, tensors)
    if inputs is not None:
        inputs = _as_tuple(inputs, "inputs", edges=True)
        if len(inputs) == 0:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    _core_engine.run_backward(tensors, grads, retain_graph, create_graph, inputs,
                     allow_unused=True, accumulate=True)


def grad(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor],
         grad_outputs: Tensor | Sequence[Tensor | None] | None = None,
         retain_graph: bool | None = None, create_graph: bool = False, only_inputs: bool = True,
         allow_unused: bool | None = None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> tuple[Tensor, ...]:
    """The gradients of ``outputs`` w.r.t. ``inputs``, returned (``.grad`` is untouched).

    >>> import autograd_core as torch
    >>> x = torch.tensor(3., requires_grad=True)
    >>> torch.autograd.grad(x ** 2, x)
    (tensor(6.),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _as_tuple(outputs, "outputs", edges=True)
    dict_inputs = inputs if type(inputs) is dict else None
    inputs = _as_tuple(inputs, "inputs", edges=True)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    # (a cotangent batched by an enclosing vmap: the batched backward below)
    result = _vmapped_grad(outputs, grad_outputs, retain_graph, create_graph, inputs,
                           allow_unused, is_grads_batched) \
        if _vmap_state.LEVELS and grad_outputs is not None else None
    if result is not None:
        pass
    elif is_grads_batched:
        grads = _grads(grad_outputs, outputs)
        result = _batched_grad(outputs, grads, retain_graph, create_graph, inputs, allow_unused)
    else:
        grads = _grads(grad_outputs, outputs)
        result = _core_engine.run_backward(outputs, grads, retain_graph, create_graph, inputs,
                                           allow_unused=allow_unused, accumulate=False)
    if materialize_grads:
        if any(g is None and not isinstance(x, _core.Tensor) for g, x in zip(result, inputs)):
            raise RuntimeError("materialize_grads cannot be used when the given input is a "
                               "GradientEdge")
        # an unused input gets zeros: a new leaf that requires grad under create_graph
        result = tuple(g if g is not None else _creation.zeros_like(x, requires_grad=create_graph)
                       for g, x in zip(result, inputs))
    if dict_inputs is not None:
        return dict(zip(dict_inputs.keys(), result))
    return result


def _batched_grad(outputs, grads, retain_graph, create_graph, inputs, allow_unused):
    """autograd.grad with is_grads_batched: dim 0 of each grad_output indexes a batch of
    cotangents; the result has one gradient per batch entry, stacked along dim 0 (None
    for an unused input). One backward pass over the whole batch, as PyTorch's under
    vmap (Note [Batched backward], autograd/_batched_backward.py)."""
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if g is None or not isinstance(o, _core.Tensor):
            continue
        if g.dim() == 0 or tuple(g.shape[1:]) != tuple(o.shape):
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions "
                "are expected to match the shape of corresponding output, but a mismatch "
                # (PyTorch reports the shape of grad_output[i][0] without its first dim)
                f"was detected: grad_output[{i}] has a shape of {_core.Size(g.shape[2:])} and "
                f"output[{i}] has a shape of {o.shape}. If you only want some tensors in "
                "`grad_output` to be considered batched, consider using vmap.")
    sizes = {g.shape[0] for g in grads if g is not None}
    if len(sizes) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sorted(sizes)} for the mapped dimension")
    n = sizes.pop() if sizes else 1
    from autograd_core.autograd import _batched_backward
    return _batched_backward.run(outputs, grads, retain_graph, create_graph, inputs,
                                 allow_unused, n)


def _vmapped_grad(outputs, grad_outputs, retain_graph, create_graph, inputs, allow_unused,
                  is_grads_batched):
    """autograd.grad called under vmap with BatchedTensor cotangents for outputs and
    inputs outside it (gradcheck's batched check, vmap over a vjp): each cotangent's
    batch, over all its vmap levels flattened, becomes the batch of is_grads_batched, and
    the gradients come back batched at those levels (None for an unused input). None
    when no cotangent is a BatchedTensor (the ordinary call)."""
    from autograd_core.func import _vmap as vm
    grads = (grad_outputs,) if not isinstance(grad_outputs, (tuple, list)) else grad_outputs
    if not any(vm.is_batched(g) for g in grads):
        return None
    if is_grads_batched or any(vm.is_batched(t) for t in tuple(outputs) + tuple(inputs)) \
            or len(grads) < len(outputs):
        # (a graph recorded under vmap is differentiated through torch.func's transforms,
        # Note [grad under vmap])
        raise RuntimeError("vmap: autograd.grad with batched grad_outputs is supported for "
                           "outputs and inputs created outside of vmap only")
    levels = sorted({lv for g in grads if vm.is_batched(g) for lv in vm.levels_of(g)})
    _, n = vm.flat_batch_size(levels)
    flat = []
    for o, g in zip(outputs, grads):
        if g is None:
            flat.append(None)
            continue
        p = vm._batch_at_levels(g, levels)
        flat.append(p.reshape((n,) + tuple(p.shape[len(levels):])))
    res = grad(outputs, inputs, flat, retain_graph=retain_graph, create_graph=create_graph,
               allow_unused=allow_unused, is_grads_batched=True)
    return tuple(None if r is None else vm.unflatten_batch(r, levels) for r in res)


class set_detect_anomaly:
    """Turn anomaly detection on or off; as a context manager, restore it on exit."""

    def __init__(self, mode, check_nan=True):
        self.prev = (_core._is_anomaly_enabled(), _core._is_anomaly_check_nan_enabled())
        _core._set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _core._set_anomaly_enabled(*self.prev)


def set_anomaly_enabled(mode, check_nan=True):
    """Turn anomaly detection on or off (torch.set_anomaly_enabled)."""
    _core._set_anomaly_enabled(mode, check_nan)


def is_anomaly_enabled():
    return _core._is_anomaly_enabled()


def is_anomaly_check_nan_enabled():
    return _core._is_anomaly_check_nan_enabled()


class detect_anomaly:
    """Context manager: record each node's forward stack and fail on NaN gradients."""

    def __init__(self, check_nan=True):
        import warnings
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        self.prev = (_core._is_anomaly_enabled(), _core._is_anomaly_check_nan_enabled())
        _core._set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc):
        _core._set_anomaly_enabled(*self.prev)


_multithreading_enabled = True


def is_multithreading_enabled():
    """Whether backward may use worker threads (a flag only: the engine runs every
    backward pass on the calling thread, as PyTorch does on the CPU)."""
    return _multithreading_enabled


class set_multithreading_enabled:
    """Set the multithreading flag; as a context manager, restore it on exit.

    >>> import autograd_core as torch
    >>> with torch.autograd.set_multithreading_enabled(False):
    ...     torch.autograd.is_multithreading_enabled()
    False
    """

    def __init__(self, mode):
        global _multithreading_enabled
        self.prev = _multithreading_enabled
        _multithreading_enabled = bool(mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        global _multithreading_enabled
        _multithreading_enabled = self.prev


def _profiler_enabled():
    """Whether a profiler is recording (torch.autograd._profiler_enabled)."""
    return _core._profiler_is_enabled()


from autograd_core.autograd import profiler  # noqa: E402,F401
