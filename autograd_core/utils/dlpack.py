"""torch.utils.dlpack: tensors shared with other libraries through DLPack (Note [DLPack]
in autograd_core/_core/_dlpack.pxi): numpy, PyTorch, JAX, CuPy's CPU arrays... without
copying.

>>> import numpy as np, autograd_core as torch
>>> a = np.arange(4.0)
>>> t = torch.from_dlpack(a)
>>> t[0] = -1.0
>>> a
array([-1.,  1.,  2.,  3.])
"""
from autograd_core._core import tensor as _core

DLDeviceType = _core.DLDeviceType

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


def to_dlpack(tensor):
    """A DLPack capsule sharing ``tensor``'s memory (the legacy, unversioned kind), for a
    consumer that takes capsules.

    >>> import autograd_core as torch
    >>> capsule = torch.utils.dlpack.to_dlpack(torch.arange(3))
    >>> torch.from_dlpack(capsule)
    tensor([0, 1, 2])
    """
    if not isinstance(tensor, _core.Tensor):
        raise _core.not_tensor_error("to_dlpack", "tensor", 1, tensor)
    return tensor.__dlpack__()


def from_dlpack(ext_tensor, *, device=None, copy=None):
    """A tensor sharing memory with ``ext_tensor``: an object with ``__dlpack__`` (a
    numpy array, a PyTorch tensor, ...) or a DLPack capsule. ``copy=True`` asks the
    producer for a copy; ``device`` may only name the CPU.

    >>> import autograd_core as torch, torch as pytorch
    >>> p = pytorch.zeros(2)
    >>> t = torch.from_dlpack(p)
    >>> t += 1
    >>> p
    tensor([1., 1.])
    """
    if device is not None and str(device) != "cpu":
        raise RuntimeError(f"from_dlpack: the tensor would be on {device}, but only the "
                           "CPU is available here")
    if hasattr(type(ext_tensor), "__dlpack__"):
        kind, _ = ext_tensor.__dlpack_device__()
        if int(kind) not in (DLDeviceType.kDLCPU, DLDeviceType.kDLCUDAHost):
            raise BufferError(f"from_dlpack: unsupported device type "
                              f"{DLDeviceType(int(kind)).name}: only CPU memory can be "
                              "shared here")
        capsule = _core.dlpack_capsule_of(ext_tensor, copy=copy)
    else:
        if copy:
            raise ValueError("from_dlpack: copy=True needs an object with __dlpack__, "
                             "not a capsule")
        capsule = ext_tensor
    return _core.from_array(_core.array_from_dlpack_capsule(capsule))
