"""PyTorch's legacy tensor types (``torch.FloatTensor`` ...) and the ``Tensor.new_*``
constructors, which make tensors of a given dtype without a ``dtype=`` argument.

A legacy type is not a class of the tensors it makes: ``FloatTensor(2)`` returns a plain
Tensor, and ``isinstance(t, FloatTensor)`` asks whether t is a float32 tensor (the
metaclass answers), as in PyTorch.

>>> import autograd_core as torch
>>> torch.LongTensor([1.5, 2])
tensor([1, 2])
>>> isinstance(torch.zeros(2), torch.FloatTensor), isinstance(torch.zeros(2), torch.DoubleTensor)
(True, False)
>>> torch.ones(2).new_zeros(3)
tensor([0., 0., 0.])
"""
import importlib
import warnings

import numpy as np

from autograd_core._core import tensor as _core
from autograd_core._core import dtype as _core_dtype
from autograd_core._creation import _type_name, empty_strided

_Tensor = _core.Tensor
_DTYPES = _core_dtype.all_dtypes()

# legacy name ("FloatTensor": the dtype's ScalarType name, from the core's table) ->
# dtype name, for the dtypes PyTorch has a legacy class of, in PyTorch's order
LEGACY_NAMES = {_core_dtype.SCALAR_NAMES[n] + "Tensor": n for n in (
    "float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool",
    "bfloat16")}


_NEW_SIGNATURES = (
    " * (*, autograd_core.device device = None)\n"
    " * (autograd_core.Storage storage)\n"
    " * (Tensor other)\n"
    " * (tuple of ints size, *, autograd_core.device device = None)\n"
    " * (object data, *, autograd_core.device device = None)\n")


def _invalid_combination(args, kwargs):
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    return TypeError(f"new() received an invalid combination of arguments - got "
                     f"({', '.join(got)}), but expected one of:\n" + _NEW_SIGNATURES)


def _is_int(x):
    return (not isinstance(x, (bool, np.ndarray, _Tensor)) and hasattr(x, "__index__"))


def _options(d):
    """PyTorch's spelling of a dtype's TensorOptions in the legacy constructors' error."""
    return (f"TensorOptions(dtype={_core_dtype.CPP_NAMES[d.name]}, device=cpu, layout=Strided, "
            f"requires_grad=false (default), pinned_memory=false (default), "
            f"memory_format=(nullopt))")


def _legacy_new(d, args, kwargs):
    """PyTorch's legacy constructor: new(), new(sizes...), new(Size), new(tensor),
    new(data), each of dtype d (no dtype= or requires_grad=: only device=)."""
    if set(kwargs) - {"device"}:
        raise _invalid_combination(args, kwargs)
    if "device" in kwargs and kwargs["device"] is not None:
        _core.device(kwargs["device"])
    if not args:
        return _core.from_array(np.empty((0,), dtype=d.np_dtype))
    first = args[0]
    if len(args) == 1 and isinstance(first, _Tensor):
        if first.dtype is not d:
            raise TypeError(f"expected {_options(d)} (got {_options(first.dtype)})")
        return first[...]  # an alias of other, as PyTorch's (AliasBackward0 when recorded)
    if _is_int(first) or isinstance(first, _core.Size):
        for i, s in enumerate(args):
            if not _is_int(s) and not (i == 0 and isinstance(s, _core.Size) and len(args) == 1):
                raise TypeError(f"new(): argument 'size' failed to unpack the object at pos "
                                f"{i + 1} with error \"type must be tuple of ints,but got "
                                f"{type(s).__name__}\"")
        shape = _core.parse_size(args, "new")
        for s in shape:
            if s < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                                   f"[{', '.join(str(x) for x in shape)}]")
        return _core.from_array(np.empty(shape, dtype=d.np_dtype))
    if len(args) > 1:
        raise _invalid_combination(args, kwargs)
    return _core.from_array(_core.legacy_array_from_data(first, d))


class tensortype(type):
    """The metaclass of the legacy types: isinstance(t, FloatTensor) is t.dtype ==
    float32, and calling the type constructs a Tensor of that dtype."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, _Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args, **kwargs):
        return _legacy_new(cls.dtype, args, kwargs)

    def __repr__(cls):
        return f"<class 'autograd_core.{cls.__name__}'>"


def _make_legacy_type(name, dtype_name):
    cls = tensortype(name, (), {
        "dtype": _DTYPES[dtype_name], "layout": None, "is_cuda": False, "is_sparse": False,
        "__module__": "autograd_core",
        "__doc__": f"The legacy constructor of {dtype_name} tensors: {name}(2, 3), "
                   f"{name}([1, 2]) or {name}(other).",
    })
    return cls


LEGACY_TYPES = {name: _make_legacy_type(name, dn) for name, dn in LEGACY_NAMES.items()}
_BY_DTYPE = {t.dtype: t for t in LEGACY_TYPES.values()}


def legacy_type_of(d):
    """The legacy type of dtype d (FloatTensor for float32)."""
    return _BY_DTYPE[d]


def dtype_of_legacy(t):
    """The dtype a legacy type argument names: a legacy type, or its name as a string
    ('torch.FloatTensor' or 'autograd_core.FloatTensor'); None for anything else.
    A string naming no CPU legacy type raises as PyTorch's Tensor.type does."""
    if isinstance(t, tensortype):
        return t.dtype
    if isinstance(t, str):
        for prefix in ("torch.", "autograd_core."):
            if t.startswith(prefix) and t[len(prefix):] in LEGACY_TYPES:
                return LEGACY_TYPES[t[len(prefix):]].dtype
        if t.startswith(("torch.cuda.", "autograd_core.cuda.")):
            raise AssertionError("Torch not compiled with CUDA enabled")
        raise ValueError(f"invalid type: '{t}'")
    return None


def set_default_tensor_type(t):
    """Deprecated: set the default floating dtype through its legacy type
    (torch.DoubleTensor) or the type's name."""
    warnings.warn("autograd_core.set_default_tensor_type() is deprecated as of PyTorch 2.1, "
                  "please use autograd_core.set_default_dtype() and "
                  "autograd_core.set_default_device() as alternatives.", UserWarning, stacklevel=2)
    if isinstance(t, str):
        try:
            d = dtype_of_legacy(t)
        except ValueError:
            # PyTorch imports the dotted name: an unknown module raises as the import does
            importlib.import_module(t.split(".")[0])
            raise TypeError("invalid type object") from None
    else:
        d = dtype_of_legacy(t)
        if d is None:
            raise TypeError("invalid type object")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _core_dtype.set_default_dtype(d)


# ---------------------------------------------------------------- Tensor.new_*

def _new_size(fname, args):
    """The size of a new_* call: new_zeros(2, 3), new_zeros((2, 3)) or new_zeros(Size)."""
    if not args:
        raise TypeError(f'{fname}() missing 1 required positional arguments: "size"')
    shape = _core.parse_size(args, fname)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(str(x) for x in shape)}]")
    return shape


def _new_leaf(self, arr, requires_grad):
    t = _core.from_array(arr)
    if requires_grad and not (t.is_floating_point() or t.is_complex()):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    return t.requires_grad_(requires_grad) if requires_grad else t


def _new_filled(self, fname, size, fill, dtype, device, requires_grad):
    if device is not None:
        _core.device(device)
    d = _core.to_dtype_py(dtype) if dtype is not None else self.dtype
    shape = _new_size(fname, size)
    return _new_leaf(self, _core.new_array(shape, d.np_dtype, fill), requires_grad)


def new_zeros(self, *size, dtype=None, layout=None, device=None, pin_memory=False,
              requires_grad=False):
    """Zeros of the given size, with self's dtype unless dtype is given.

    >>> import autograd_core as torch
    >>> torch.tensor([1, 2]).new_zeros(2, 2)
    tensor([[0, 0],
            [0, 0]])
    """
    return _new_filled(self, "new_zeros", size, 0, dtype, device, requires_grad)


def new_ones(self, *size, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False):
    """Ones of the given size, with self's dtype unless dtype is given.

    >>> import autograd_core as torch
    >>> torch.zeros(1, dtype=torch.float64).new_ones(2)
    tensor([1., 1.], dtype=autograd_core.float64)
    """
    return _new_filled(self, "new_ones", size, 1, dtype, device, requires_grad)


def new_empty(self, *size, dtype=None, layout=None, device=None, pin_memory=False,
              requires_grad=False):
    """An uninitialised tensor of the given size, with self's dtype unless dtype is given.

    >>> import autograd_core as torch
    >>> torch.zeros(1).new_empty(2, 3).shape
    autograd_core.Size([2, 3])
    """
    return _new_filled(self, "new_empty", size, None, dtype, device, requires_grad)


def new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False):
    """fill_value in a tensor of the given size (a sequence), with self's dtype unless
    dtype is given.

    >>> import autograd_core as torch
    >>> torch.tensor([1, 2]).new_full((2,), 2.7)
    tensor([2, 2])
    """
    if not isinstance(size, (list, tuple)):
        raise TypeError(f"new_full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(size).__name__}")
    if isinstance(fill_value, _Tensor):
        fill_value = fill_value.item()
    d = _core.to_dtype_py(dtype) if dtype is not None else self.dtype
    # PyTorch converts the value to the dtype as a C cast does (2.7 -> 2 for int64); a
    # complex one into a real dtype is new_array's (Note [Complex Scalar arguments])
    fill = (fill_value if isinstance(fill_value, complex) and not d.is_complex
            else _core.tensor_from_data(fill_value).to(d).item())
    return _new_filled(self, "new_full", (size,), fill, d, device, requires_grad)


def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None,
                      pin_memory=False, requires_grad=False):
    """An uninitialised tensor with the given size and strides, with self's dtype unless
    dtype is given.

    >>> import autograd_core as torch
    >>> torch.zeros(1).new_empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
    """
    return empty_strided(size, stride, dtype=dtype if dtype is not None else self.dtype,
                         device=device, requires_grad=requires_grad)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None,
               pin_memory=False):
    """A new leaf holding a copy of data, with self's dtype unless dtype is given.

    >>> import autograd_core as torch
    >>> torch.zeros(1, dtype=torch.float64).new_tensor([1, 2])
    tensor([1., 2.], dtype=autograd_core.float64)
    """
    if device is not None:
        _core.device(device)
    if isinstance(data, _Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
            ".requires_grad_(True), rather than tensor.new_tensor(sourceTensor).",
            UserWarning, stacklevel=2)
        data = data.detach().numpy()  # tensor_from_data copies it
    return _core.tensor_from_data(data, dtype if dtype is not None else self.dtype, requires_grad)


def new(self, *args, **kwargs):
    """The legacy constructor with self's dtype: new(sizes...), new(data), new(other).

    >>> import autograd_core as torch
    >>> torch.zeros(1, dtype=torch.int64).new([1.5, 2])
    tensor([1, 2])
    """
    return _legacy_new(self.dtype, args, kwargs)


_core._install_methods({
    "new_zeros": new_zeros, "new_ones": new_ones, "new_empty": new_empty,
    "new_full": new_full, "new_empty_strided": new_empty_strided, "new_tensor": new_tensor,
    "new": new,
})
