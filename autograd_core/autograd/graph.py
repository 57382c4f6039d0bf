"""Graph introspection types: ``Node`` is the base class of every grad_fn."""
from autograd_core._core.tensor import Node  # noqa: F401

__all__ = ["Node"]
