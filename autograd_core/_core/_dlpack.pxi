# DLPack exchange, the core's part (included by tensor.pyx; the public functions are in
# autograd_core/utils/dlpack.py).
#
# Note [DLPack]
# A tensor's values live in a numpy array, and numpy speaks DLPack (legacy "dltensor"
# capsules and versioned "dltensor_versioned" ones, with the read-only flag): export
# and import go through numpy's, which share memory both ways. Two things numpy cannot
# do are done here on the capsule itself:
#   - bfloat16: numpy knows no such DLPack type. An export hands numpy the same memory
#     as uint16 and then retypes the capsule's DLTensor to (kDLBfloat, 16 bits); an
#     import retypes a bfloat16 capsule to uint16 before numpy reads it and views the
#     result as bfloat16 (the bits are the same).
#   - a read-only array asked for as a legacy capsule (which cannot say read-only;
#     numpy refuses it): an expanded tensor, say. It is exported as a copy.
# PyTorch's refusals come first: a tensor that requires grad, a conjugate view.

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid

import enum


cdef struct DLDevice:
    int32_t device_type
    int32_t device_id

cdef struct DLDataType:
    uint8_t code
    uint8_t bits
    uint16_t lanes

cdef struct DLTensor:
    void *data
    DLDevice device
    int32_t ndim
    DLDataType dtype
    int64_t *shape
    int64_t *strides
    uint64_t byte_offset

cdef struct DLManagedTensor:          # "dltensor" capsules (DLPack < 1.0)
    DLTensor dl_tensor
    void *manager_ctx
    void *deleter

cdef struct DLPackVersion:
    uint32_t major
    uint32_t minor

cdef struct DLManagedTensorVersioned:  # "dltensor_versioned" capsules (DLPack >= 1.0)
    DLPackVersion version
    void *manager_ctx
    void *deleter
    uint64_t flags
    DLTensor dl_tensor

cdef enum:
    DL_UINT = 1
    DL_BFLOAT = 4


class DLDeviceType(enum.IntEnum):
    """DLPack's device types, as ``torch.utils.dlpack.DLDeviceType`` numbers them."""
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


cdef DLTensor *_capsule_tensor(object capsule) except NULL:
    """The DLTensor of an unconsumed capsule of either kind."""
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        return &(<DLManagedTensorVersioned *>PyCapsule_GetPointer(
            capsule, b"dltensor_versioned")).dl_tensor
    if PyCapsule_IsValid(capsule, b"dltensor"):
        return &(<DLManagedTensor *>PyCapsule_GetPointer(capsule, b"dltensor")).dl_tensor
    raise TypeError("from_dlpack: expected a DLPack capsule that has not been consumed "
                    "(named 'dltensor' or 'dltensor_versioned')")


def dlpack_capsule_dtype(capsule):
    """(code, bits, lanes) of a capsule's DLTensor (Note [DLPack])."""
    cdef DLTensor *t = _capsule_tensor(capsule)
    return t.dtype.code, t.dtype.bits, t.dtype.lanes


def dlpack_capsule_retype(capsule, int code, int bits):
    """Relabel a capsule's element type in place (same bits; Note [DLPack])."""
    cdef DLTensor *t = _capsule_tensor(capsule)
    t.dtype.code = code
    t.dtype.bits = bits


cdef object tensor_dlpack(Tensor t, object stream, object max_version, object dl_device,
                          object copy):
    """Tensor.__dlpack__ (Note [DLPack])."""
    if requires_grad_of(t):
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    if t.is_conj():
        raise BufferError("Can't export tensors with the conjugate bit set")
    if stream is not None and type(stream) is not int:
        raise TypeError("stream must be ``int`` or ``none``")
    if dl_device is not None and tuple(dl_device) != (DLDeviceType.kDLCPU, 0):
        raise BufferError(f"Unsupported device {tuple(dl_device)} for DLPack export: "
                          "tensors here live on the CPU")
    cdef cnp.ndarray arr = t._data
    cdef bint is_bf16 = cnp.PyArray_TYPE(arr) == bfloat16.typenum
    if is_bf16:
        arr = arr.view(np.uint16)
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    if not versioned and not cnp.PyArray_ISWRITEABLE(arr):
        arr = arr.copy()
    kwargs = {}
    if max_version is not None:
        kwargs["max_version"] = tuple(max_version)
    if copy is not None:
        kwargs["copy"] = copy
    capsule = arr.__dlpack__(**kwargs)
    if is_bf16:
        dlpack_capsule_retype(capsule, DL_BFLOAT, 16)
    return capsule


class _CapsuleHolder:
    """Hands one capsule to numpy's from_dlpack, which takes objects, not capsules."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (DLDeviceType.kDLCPU, 0)


def array_from_dlpack_capsule(capsule):
    """The numpy array over a capsule's memory (shared), bfloat16 included."""
    code, bits, lanes = dlpack_capsule_dtype(capsule)
    if code == DL_BFLOAT and bits == 16 and lanes == 1:
        dlpack_capsule_retype(capsule, DL_UINT, 16)
        return np.from_dlpack(_CapsuleHolder(capsule)).view(bfloat16.np_dtype)
    return np.from_dlpack(_CapsuleHolder(capsule))


def dlpack_capsule_of(obj, copy=None):
    """A capsule from obj.__dlpack__, asking for DLPack 1.0 (which can say read-only)
    and falling back to the legacy call for producers that predate it."""
    kwargs = {"max_version": (1, 0)}
    if copy is not None:
        kwargs["copy"] = copy
    try:
        return obj.__dlpack__(**kwargs)
    except TypeError:
        if copy:
            raise
        return obj.__dlpack__()
