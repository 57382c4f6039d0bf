"""Graph introspection and saved-tensor hooks (torch.autograd.graph): ``Node`` is the
base class of every grad_fn; ``saved_tensors_hooks`` and ``save_on_cpu`` change what
nodes keep for backward (Note [Saved tensor hooks] in _core/_node.pxi)."""
import contextlib
import functools
import threading
import weakref
from collections import defaultdict
from typing import NamedTuple

from autograd_core import grad_mode as _grad_mode
from autograd_core._core import engine as _core_engine
from autograd_core._core import function as _function
from autograd_core._core import tensor as _core
from autograd_core._core.tensor import Node  # noqa: F401

__all__ = ["Node", "GradientEdge", "get_gradient_edge", "increment_version",
           "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "register_multi_grad_hook", "allow_mutation_on_saved_tensors",
           "region_activation_memory_budget"]


class GradientEdge(NamedTuple):
    """An edge of the graph: a node and which of its inputs. autograd.grad and backward
    take one in place of an input tensor, to reach that edge's gradient, and in place of
    an output tensor, to start from it. ownership_token: a node that keeps the graph
    alive (PyTorch's for an edge of a custom Function's node)."""
    node: Node
    output_nr: int
    ownership_token: Node | None = None


def get_gradient_edge(tensor):
    """The edge through which tensor's gradient flows: its grad_fn, or for a leaf its
    AccumulateGrad node (the edge stays valid after in-place changes of tensor).

    >>> import autograd_core as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> y = x * 2
    >>> edge = torch.autograd.graph.get_gradient_edge(x)
    >>> torch.autograd.grad(y.sum(), edge)
    (tensor([2., 2.]),)
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    node = tensor.grad_fn if tensor.grad_fn is not None else _core._grad_accumulator(tensor)
    _core_engine._note_edge_meta(node, tensor.output_nr, tensor)
    token = None
    if isinstance(node, _function.FunctionNode):
        # PyTorch's token for a Python node, which does not own its graph there (here
        # every node does; the token is kept for the same edge)
        with _grad_mode.enable_grad():
            token = tensor.view_as(tensor).grad_fn
    return GradientEdge(node, tensor.output_nr, ownership_token=token)


def increment_version(tensor):
    """Bump tensor's version counter, as an in-place op would (saved copies of it then
    fail their version check)."""
    for t in ((tensor,) if isinstance(tensor, _core.Tensor) else tensor):
        _core._increment_version(t)


class saved_tensors_hooks:
    """Context manager: tensors saved for backward inside it go through ``pack_hook``,
    and ``unpack_hook`` gives them back when backward needs them.

    >>> import autograd_core as torch
    >>> a = torch.tensor([1., 2.], requires_grad=True)
    >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 2, lambda t: t / 2):
    ...     y = a * a
    >>> y.sum().backward()
    >>> a.grad
    tensor([2., 4.])
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _core._push_saved_tensors_default_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *args):
        _core._pop_saved_tensors_default_hooks()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept on the CPU (as PyTorch's save_on_cpu: a copy with its
    device); every tensor here is on the CPU already.

    >>> import autograd_core as torch
    >>> a = torch.tensor([3.], requires_grad=True)
    >>> with torch.autograd.graph.save_on_cpu():
    ...     y = a * a
    >>> y.backward()
    >>> a.grad
    tensor([6.])
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            if not pin_memory:
                return (tensor.device, tensor.cpu())
            packed = tensor.detach().clone()
            return (tensor.device, packed)

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Inside it, using saved_tensors_hooks raises RuntimeError(error_message).

    >>> import autograd_core as torch
    >>> with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    ...     pass
    """
    prev = _core._saved_tensors_hooks_get_disabled_error_message()
    try:
        _core._saved_tensors_hooks_disable(error_message)
        yield
    finally:
        if prev is None:
            _core._saved_tensors_hooks_enable()
        else:
            _core._saved_tensors_hooks_disable(prev)


class _Handle:
    """What allow_mutation_on_saved_tensors' pack hook keeps for a saved tensor."""


class _AllowMutationOnSavedContext:
    """The state of an allow_mutation_on_saved_tensors context: per saved tensor (a
    handle), its original or, once written, its clone; which saved tensors a
    (data_ptr, version) stands for."""

    def __init__(self):
        self.cloned = weakref.WeakKeyDictionary()             # _Handle -> clone
        self.original = weakref.WeakKeyDictionary()           # _Handle -> saved tensor
        self.tid_to_weakhandle = weakref.WeakValueDictionary()  # (id, ptr, version) -> _Handle
        self.sid_to_tid = defaultdict(set)                    # (ptr, version) -> {tid}

    def clear(self):
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self.sid_to_tid.clear()


_allow_mutation_on_saved_tensors_enabled = False
_MSG_OUTSIDE_MUTATION_CONTEXT = (
    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
    "in which the graph was originally recorded.")


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Context manager under which tensors saved for backward may be modified in place:
    a saved tensor is cloned just before its first in-place write, and backward uses
    the clone (forward and backward must both run inside the context).

    >>> import autograd_core as torch
    >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
    ...     a = torch.ones(2, requires_grad=True)
    ...     b = a.clone()
    ...     out = (b ** 2).sum()
    ...     _ = b.mul_(3)
    ...     out.backward()
    >>> a.grad
    tensor([2., 2.])
    """
    global _allow_mutation_on_saved_tensors_enabled
    ctx = _AllowMutationOnSavedContext()

    def pack_hook(tensor):
        sid = (tensor.data_ptr(), tensor._version)
        tid = (id(tensor),) + sid
        ctx.sid_to_tid[sid].add(tid)
        # the same tensor (at the same version) saved again shares its handle
        handle = ctx.tid_to_weakhandle.get(tid)
        if handle is None:
            handle = _Handle()
            ctx.tid_to_weakhandle[tid] = handle
            ctx.original[handle] = tensor
        return handle

    def unpack_hook(handle):
        if not _allow_mutation_on_saved_tensors_enabled:
            raise AssertionError(_MSG_OUTSIDE_MUTATION_CONTEXT)
        if handle in ctx.cloned:
            return ctx.cloned[handle]
        if handle not in ctx.original:
            raise AssertionError(_MSG_OUTSIDE_MUTATION_CONTEXT)
        return ctx.original[handle]

    def before_write(tensor):
        # Note [Writes into saved tensors] (_core/_inplace.pxi)
        for tid in ctx.sid_to_tid.get((tensor.data_ptr(), tensor._version), ()):
            handle = ctx.tid_to_weakhandle.get(tid)
            # (a saved tensor freed by backward since has no handle any more)
            if handle is None or handle in ctx.cloned:
                continue
            with _grad_mode.no_grad():
                ctx.cloned[handle] = ctx.original[handle].clone()
            del ctx.original[handle]

    with saved_tensors_hooks(pack_hook, unpack_hook):
        _core._set_before_write(before_write)
        try:
            if _allow_mutation_on_saved_tensors_enabled:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _allow_mutation_on_saved_tensors_enabled = True
            yield ctx
        finally:
            _core._set_before_write(None)
            ctx.clear()
            _allow_mutation_on_saved_tensors_enabled = False


class _MultiHandle:
    """The handle of a multi-grad hook: removing it removes the hook from every tensor."""

    def __init__(self, handles):
        self.handles = handles

    def __enter__(self):
        return self

    def __exit__(self, type, value, tb):
        self.remove()

    def remove(self):
        for handle in self.handles:
            handle.remove()

    def __getstate__(self):
        return self.handles

    def __setstate__(self, state):
        self.handles = state


def _grad_fn_or_grad_acc(t):
    if t.requires_grad and t.grad_fn is None:
        return _core._grad_accumulator(t)
    return t.grad_fn


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call fn once per backward pass over gradients of several tensors.

    mode="all": fn(grads) once all the gradients of those tensors this pass computes
    are known (None for a tensor whose gradient it does not compute). mode="any":
    fn(grad) with the first of them the pass computes.

    >>> import autograd_core as torch
    >>> a = torch.tensor([1.], requires_grad=True)
    >>> b = torch.tensor([2.], requires_grad=True)
    >>> seen = []
    >>> h = torch.autograd.graph.register_multi_grad_hook(
    ...     (a, b), lambda grads: seen.append([g is not None for g in grads]))
    >>> (a * 3).sum().backward()
    >>> seen
    [[True, False]]
    """
    from autograd_core._core import engine as _engine  # (imports this module)
    supported_modes = ("all", "any")
    lock = threading.Lock()
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")

    if mode == "all":
        count = {}
        buffer = {}
        nb_calls = None
        grad_fns = list(map(_grad_fn_or_grad_acc, tensors))
        len_tensors = len(tensors)

        def get_inner_hook(idx):
            def inner_hook(grad):
                nonlocal nb_calls
                id = _engine._current_graph_task_id()
                if id == -1:
                    raise AssertionError("expected this hook to be called inside a backward call")
                with lock:
                    curr_count = count.get(id, 0)
                    count[id] = curr_count + 1
                    grads = buffer.setdefault(id, [None] * len_tensors)
                    if curr_count == 0:
                        # the first call of this pass: how many of the tensors it reaches
                        nb_calls = sum(g is not None and _engine._will_engine_execute_node(g)
                                       for g in grad_fns)
                grads[idx] = grad
                if curr_count == nb_calls - 1:
                    fn(grads)
                    with lock:
                        del count[id]
                        del buffer[id]
            return inner_hook

        handles = tuple(t.register_hook(get_inner_hook(i)) for i, t in enumerate(tensors))
    else:
        ran_hook = defaultdict(bool)

        @functools.wraps(fn)
        def wrapped_fn(grad):
            id = _engine._current_graph_task_id()
            if id == -1:
                raise AssertionError("expected this hook to be called inside a backward call")
            with lock:
                prev, ran_hook[id] = ran_hook[id], True
            if prev:
                return
            fn(grad)

        handles = tuple(t.register_hook(wrapped_fn) for t in tensors if t.requires_grad)
    return _MultiHandle(handles)


def region_activation_memory_budget(budget):
    """The activation memory budget (a ratio in [0, 1]) of a region compiled by
    torch.compile; it has no effect in eager mode, and this tree only runs eagerly, so
    a valid budget raises PyTorch's eager-mode RuntimeError (a bad one its
    TypeError/ValueError first).

    >>> import autograd_core as torch
    >>> try:
    ...     torch.autograd.graph.region_activation_memory_budget(0.5)
    ... except RuntimeError as e:
    ...     print(str(e)[:60])
    autograd_core.autograd.graph.region_activation_memory_budget
    """
    name = "autograd_core.autograd.graph.region_activation_memory_budget"
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError(f"{name}: expects a float, got {type(budget).__name__}")
    if not 0.0 <= budget <= 1.0:
        raise ValueError(f"{name}: must be in [0, 1], got {budget}")
    raise RuntimeError(f"{name} can only be used inside a autograd_core.compile region; it has "
                       "no effect in eager mode.")
