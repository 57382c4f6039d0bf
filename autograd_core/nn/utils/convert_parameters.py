"""Parameters as one flat vector and back."""
import autograd_core as _ag
from autograd_core.nn.modules.module import _typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """The concatenation of the flattened parameters (differentiable)."""
    return _ag.cat([param.reshape(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Copy consecutive slices of vec into the parameters' data."""
    if not isinstance(vec, _ag.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
