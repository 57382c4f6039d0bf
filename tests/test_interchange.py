"""Interchange (issue 30 item 5): DLPack both ways with numpy and with PyTorch, sharing
memory; tensor() of the other library's tensors; numpy 2's __array__ contract; numpy
ufuncs on tensors giving tensors (__array_wrap__), as PyTorch's."""
import warnings

import numpy as np
import pytest
import torch as real_torch

import autograd_core as torch

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8",
          "bool", "complex64", "complex128", "bfloat16"]


def _pair(name, shape=(2, 3)):
    ours = torch.arange(6).reshape(shape).to(getattr(torch, name))
    theirs = real_torch.arange(6).reshape(shape).to(getattr(real_torch, name))
    return ours, theirs


@pytest.mark.parametrize("name", DTYPES)
def test_pytorch_reads_ours_without_copy(name):
    ours, theirs = _pair(name)
    shared = real_torch.from_dlpack(ours)
    assert shared.dtype == theirs.dtype and shared.shape == theirs.shape
    assert real_torch.equal(shared, theirs)
    if name != "bool":
        shared[0, 0] = 5
        assert ours[0, 0].item() == 5           # the same memory


@pytest.mark.parametrize("name", DTYPES)
def test_ours_reads_pytorchs_without_copy(name):
    ours, theirs = _pair(name)
    shared = torch.from_dlpack(theirs)
    assert shared.dtype == ours.dtype and torch.equal(shared, ours)
    if name != "bool":
        shared[1, 2] = 4
        assert theirs[1, 2].item() == 4


def test_strided_and_expanded_tensors_cross_with_their_strides():
    theirs = real_torch.arange(12.).reshape(3, 4).t()[1:]
    ours = torch.from_dlpack(theirs)
    assert ours.stride() == theirs.stride() and ours.tolist() == theirs.tolist()
    expanded = torch.arange(3.).expand(2, 3)
    back = real_torch.from_dlpack(expanded)
    assert back.tolist() == expanded.tolist()


def test_numpy_both_ways_shares_memory():
    a = np.arange(4.0)
    t = torch.from_dlpack(a)
    t[0] = -1
    assert a[0] == -1
    b = np.from_dlpack(t)
    b[1] = 9
    assert t[1].item() == 9
    assert torch.utils.dlpack.to_dlpack(t).__class__.__name__ == "PyCapsule"
    assert torch.from_dlpack(torch.utils.dlpack.to_dlpack(t)).tolist() == t.tolist()
    assert t.__dlpack_device__() == (torch.utils.dlpack.DLDeviceType.kDLCPU, 0)


def test_pytorchs_refusals():
    with pytest.raises(BufferError, match="Can't export tensors that require gradient"):
        torch.ones(2, requires_grad=True).__dlpack__()
    with pytest.raises(TypeError, match="stream must be"):
        torch.ones(2).__dlpack__(stream="x")
    with pytest.raises(TypeError):
        torch.utils.dlpack.to_dlpack([1, 2])


@pytest.mark.parametrize("value", [3.5, [1, 2], [[1.5, 2.5]], True])
def test_tensor_of_the_other_librarys_tensor(value):
    theirs = real_torch.tensor(value)
    ours = torch.tensor(theirs)
    assert ours.tolist() == theirs.tolist() and str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        back = real_torch.tensor(torch.tensor(value))
    assert back.tolist() == theirs.tolist() and back.dtype == theirs.dtype
    ours[...] = 0                               # a copy, not a view
    assert theirs.tolist() == real_torch.tensor(value).tolist()


def test_numpy2_array_contract():
    t = torch.arange(3.)
    assert np.shares_memory(np.asarray(t), np.asarray(t))
    assert np.asarray(t, copy=False).base is not None or True
    assert not np.shares_memory(np.array(t, copy=True), t.numpy())
    assert np.asarray(t, dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        np.asarray(t, dtype=np.float64, copy=False)
    a = np.asarray(t, copy=False)
    a[0] = 5
    assert t[0].item() == 5


@pytest.mark.parametrize("fn", [np.exp, np.sqrt, np.negative, np.sin])
def test_numpy_ufuncs_give_tensors_as_pytorchs(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)   # PyTorch's old signature
        theirs = fn(real_torch.tensor([1.0, 4.0]))
    ours = fn(torch.tensor([1.0, 4.0]))
    assert isinstance(ours, torch.Tensor) and ours.dtype == torch.float32
    assert np.allclose(ours.numpy(), theirs.numpy())


def test_numpy_comparisons_give_uint8_tensors_as_pytorchs():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        theirs = np.greater(real_torch.arange(3.), 1)
    ours = np.greater(torch.arange(3.), 1)
    assert ours.dtype == torch.uint8 and ours.tolist() == theirs.tolist()
    zero_d = np.exp(torch.tensor(0.0))
    assert isinstance(zero_d, torch.Tensor) and zero_d.dim() == 0


def test_numpy_ufunc_on_a_tensor_requiring_grad_raises_as_pytorchs():
    with pytest.raises(RuntimeError, match="requires grad"):
        np.exp(torch.ones(2, requires_grad=True))
