"""Graph introspection and saved-tensor hooks (torch.autograd.graph): ``Node`` is the
base class of every grad_fn; ``saved_tensors_hooks`` and ``save_on_cpu`` change what
nodes keep for backward (Note [Saved tensor hooks] in _core/_node.pxi)."""
import contextlib
from typing import NamedTuple

from autograd_core._core import tensor as _core
from autograd_core._core.tensor import Node  # noqa: F401

__all__ = ["Node", "GradientEdge", "get_gradient_edge", "increment_version",
           "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks"]


class GradientEdge(NamedTuple):
    """An edge of the graph: a node and which of its inputs (autograd.grad and backward
    take one in place of a tensor, to reach that edge's gradient)."""
    node: Node
    output_nr: int


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
    return GradientEdge(node, tensor.output_nr)


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
