"""save/load in PyTorch's file format, loaded without executing code.

Format: PyTorch's zip layout (``torch.save`` since 1.6): ``<archive>/data.pkl`` holds a
pickle (protocol 2) of the object in which every tensor is a call of
``torch._utils._rebuild_tensor_v2`` on a *persistent id* naming a raw little-endian storage
record ``<archive>/data/<key>``; plus ``version``, ``byteorder``, ``.format_version``,
``.storage_alignment`` and ``.data/serialization_id`` records. Files written here load in
PyTorch (``torch.load``, with its default ``weights_only=True``) and files PyTorch wrote
with ``torch.save(state_dict)`` load here.

Loading with ``weights_only=True`` (the default, as in PyTorch 2.13) never runs pickle's
machinery: ``_WeightsOnlyUnpickler`` is a small interpreter over the opcodes (parsed by
``pickletools.genops``, which only reads). It builds what PyTorch 2.13's weights-only
unpickler builds by default: primitives (None, bool, int, float, complex, str, bytes,
bytearray), containers (list, tuple, dict, set, OrderedDict with a state_dict's ``_metadata``,
Counter), tensors, Parameters, dtypes, Size and devices, and instances of classes the user
registered with :func:`add_safe_globals`; any other global,
any opcode outside that set, an out-of-range tensor view or a malformed archive raises
``pickle.UnpicklingError`` (or ``RuntimeError`` for the archive) before anything is called.
``weights_only=False`` is the explicit opt-in to full pickle, as in PyTorch: only for
trusted files, since unpickling arbitrary objects can execute code.

Storage records are written stored (not compressed) and 64-byte aligned, as PyTorch writes
them, so ``load(..., mmap=True)`` can map any such file (the tensors are views of the map).
Read or mapped, a loaded tensor is a view of its storage's buffer: tensors saved as views
of one storage share memory again after loading, as in PyTorch.

Note [Saved views share their storage]: as PyTorch, save writes a view's whole base (its
"storage") once per memory, with the view's offset and strides, so views of one tensor
(tied or sliced weights, a transposed tensor) load as views of one storage and keep their
strides; a slice saves all of its base, as PyTorch's does. PyTorch's legacy format
(pre-1.6: a stream of pickles followed by the raw storages) loads and saves too
(``_use_new_zipfile_serialization=False``).
"""
from __future__ import annotations
import os as _os
from typing import IO, Any

# what save and load take as their file: a path or a binary file object (PyTorch's FileLike)
FileLike = str | _os.PathLike[str] | IO[bytes]

import contextlib
import io
import os
import pickle
import pickletools
import struct
import sys
import threading
import uuid
import warnings
import zipfile
from collections import Counter, OrderedDict

import ml_dtypes
import numpy as np

import autograd_core as _ag
from autograd_core._core import tensor as _core
from autograd_core._core.dtype import SCALAR_NAMES as _SCALAR_NAMES, all_dtypes as _all_dtypes

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals", "DEFAULT_PROTOCOL", "get_default_mmap_options",
           "set_default_mmap_options"]

DEFAULT_PROTOCOL = 2

# The dtypes PyTorch saves without a typed storage class (uint16/32/64): the tensor is
# rebuilt by _rebuild_tensor_v3 from an UntypedStorage (bytes) and a dtype.
_UNTYPED_DTYPES = {np.dtype(np.uint16): "uint16", np.dtype(np.uint32): "uint32",
                   np.dtype(np.uint64): "uint64"}
# Every other dtype's typed storage class: its ScalarType name (the core's vocabulary,
# "Float") + "Storage" -> the numpy dtype that stores it.
_STORAGE_DTYPES = {_SCALAR_NAMES[n] + "Storage": d.np_dtype
                   for n, d in _all_dtypes().items() if d.np_dtype not in _UNTYPED_DTYPES}
_STORAGE_OF_DTYPE = {np.dtype(v): k for k, v in _STORAGE_DTYPES.items()}
_MAX_DEPTH = 1000
_MAX_EXPANDED_NUMEL = 2 ** 27

_safe_globals_lock = threading.Lock()
_user_safe_globals = {}


# --------------------------------------------------------------------------- safe globals
def _global_name(obj):
    return f"{obj.__module__}.{obj.__qualname__}"


def add_safe_globals(safe_globals):
    """Allow these classes/functions in ``weights_only=True`` loads (a class's instances are
    rebuilt by calling it / ``cls.__new__`` and setting their state). Entries may be objects
    or ``(object, "module.name")`` pairs."""
    with _safe_globals_lock:
        for g in safe_globals:
            if isinstance(g, tuple):
                obj, name = g
            else:
                obj, name = g, _global_name(g)
            _user_safe_globals[name] = obj


def get_safe_globals():
    """The user-registered safe globals."""
    with _safe_globals_lock:
        return list(_user_safe_globals.values())


def clear_safe_globals():
    """Forget the user-registered safe globals."""
    with _safe_globals_lock:
        _user_safe_globals.clear()


@contextlib.contextmanager
def safe_globals(safe_globals):
    """Context manager adding safe globals for the duration of the block."""
    with _safe_globals_lock:
        saved = dict(_user_safe_globals)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        with _safe_globals_lock:
            _user_safe_globals.clear()
            _user_safe_globals.update(saved)


# --------------------------------------------------------------------------- rebuilding
class _StorageType:
    """What a ``torch.<X>Storage`` global stands for: the element type of a storage
    (``torch.storage.UntypedStorage``: bytes, typed later by _rebuild_tensor_v3)."""

    def __init__(self, name):
        self.name = name
        self.dtype = np.uint8 if name == "UntypedStorage" else _STORAGE_DTYPES[name]


class _Storage:
    """A storage read from the archive: a flat numpy array."""

    def __init__(self, array):
        self.array = array


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False,
                       backward_hooks=None, metadata=None):
    if not isinstance(storage, _Storage):
        raise pickle.UnpicklingError("_rebuild_tensor_v2: expected a storage")
    size = _int_tuple(size, "size")
    stride = _int_tuple(stride, "stride")
    if len(size) != len(stride):
        raise pickle.UnpicklingError("tensor size and stride have different lengths")
    if not isinstance(storage_offset, int) or isinstance(storage_offset, bool) \
            or storage_offset < 0:
        raise pickle.UnpicklingError("invalid storage offset")
    arr = storage.array
    numel = 1
    for s in size:
        numel *= s
    if numel:
        if any(s < 0 for s in stride):
            raise pickle.UnpicklingError("negative tensor strides are not supported")
        last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
        if last >= arr.size:
            raise pickle.UnpicklingError(
                f"tensor of size {list(size)} and stride {list(stride)} at offset "
                f"{storage_offset} does not fit its storage of {arr.size} elements")
        if numel > arr.size and numel > _MAX_EXPANDED_NUMEL:
            # only zero strides (an expanded tensor) can describe more elements than the
            # storage holds; bound what such a file can make us allocate
            raise pickle.UnpicklingError(
                f"tensor of size {list(size)} expands its {arr.size}-element storage beyond "
                f"{_MAX_EXPANDED_NUMEL} elements")
        item = arr.itemsize
        view = np.lib.stride_tricks.as_strided(
            arr[storage_offset:], shape=size, strides=[s * item for s in stride],
            writeable=False)
        if size and arr.flags.writeable and _non_overlapping(size, stride):
            # a view of the storage whose elements are distinct memory: the tensor shares
            # the storage's memory and keeps its strides (tensors saved as views of one
            # storage share it again, a transposed one stays transposed, and with
            # mmap=True the tensor is a view of the mapped file), as PyTorch's are
            data = np.lib.stride_tricks.as_strided(
                arr[storage_offset:], shape=size, strides=[s * item for s in stride])
        else:
            data = np.array(view, copy=True, order="C")
    else:
        data = np.zeros(size, dtype=arr.dtype)
    t = _core.from_array(data)
    if metadata:
        t = _with_bits(t, metadata)
    if requires_grad:
        if not (t.is_floating_point()):
            raise pickle.UnpicklingError("only floating point tensors can require gradients")
        t.requires_grad_(True)
    return t


def _non_overlapping(size, stride):
    """Whether no two elements of a (size, stride) view share memory (an expanded view,
    a zero or overlapping stride, is loaded as a copy: in-place writes could not be)."""
    dims = sorted((s, n) for n, s in zip(size, stride) if n > 1)
    extent = 1
    for s, n in dims:
        if s < extent:
            return False
        extent = s * n
    return True


def _with_bits(t, metadata):
    """t (the memory a saved conj/neg view viewed) as that view again: PyTorch's
    set_tensor_metadata sets the bits (Note [Conjugate and negative views])."""
    if not isinstance(metadata, dict):
        raise pickle.UnpicklingError(f"invalid tensor metadata: {metadata!r}")
    with _ag.no_grad():
        if metadata.get("neg"):
            t = _ag._neg_view(t)
        if metadata.get("conj") and t.is_complex():
            t = t.conj()
    return t.detach()   # (an alias: its memory, so its bits, stay; a leaf again)


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad,
                       backward_hooks, dtype, metadata=None):
    """PyTorch's rebuild of a tensor whose storage is untyped (bytes): offset and strides
    count elements of dtype (the wide unsigned dtypes are saved this way)."""
    if not isinstance(storage, _Storage):
        raise pickle.UnpicklingError("_rebuild_tensor_v3: expected a storage")
    if not isinstance(dtype, _ag.dtype):
        raise pickle.UnpicklingError(f"_rebuild_tensor_v3: invalid dtype {dtype!r}")
    arr = storage.array
    if arr.dtype != dtype.np_dtype:
        npd = np.dtype(dtype.np_dtype)
        if arr.dtype != np.uint8 or arr.size % npd.itemsize:
            raise pickle.UnpicklingError("_rebuild_tensor_v3: storage does not hold whole "
                                         f"elements of {dtype}")
        if npd == ml_dtypes.bfloat16:
            arr = arr.view("<u2").astype(np.uint16, copy=False).view(ml_dtypes.bfloat16)
        else:
            arr = arr.view(npd.newbyteorder("<")).astype(npd.newbyteorder("="), copy=False)
    return _rebuild_tensor_v2(_Storage(arr), storage_offset, size, stride, requires_grad,
                              backward_hooks, metadata)


def _int_tuple(value, what):
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
        raise pickle.UnpicklingError(f"invalid tensor {what}: {value!r}")
    if len(value) > 64:
        raise pickle.UnpicklingError(f"tensor {what} has too many dimensions")
    return tuple(value)


def _rebuild_parameter(data, requires_grad, backward_hooks=None, *state):
    if not isinstance(data, _ag.Tensor):
        raise pickle.UnpicklingError("_rebuild_parameter: expected a tensor")
    from autograd_core.nn.parameter import Parameter
    return Parameter(data, bool(requires_grad))


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _rebuild_parameter(data, requires_grad, backward_hooks)


def _size(values=()):
    return _ag.Size(_int_tuple(tuple(values), "size"))


def _device(kind="cpu", index=None):
    if not isinstance(kind, str):
        raise pickle.UnpicklingError("invalid device")
    return _ag.device("cpu")


def _codecs_encode(text, encoding="utf-8"):
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1", "utf-8", "utf8"):
        raise pickle.UnpicklingError("unsupported _codecs.encode call")
    return text.encode(encoding)


def _bytearray(data=b"", *encoding):
    if not isinstance(data, (bytes, bytearray, str, list)):
        raise pickle.UnpicklingError("bytearray() from an unsupported argument")
    return bytearray(data, *encoding) if isinstance(data, str) else bytearray(data)


# Globals a weights_only load may use: name -> (callable, kind). "fn" callables are called
# by REDUCE with the loaded arguments (all validate them); "type" entries may also be
# instantiated by NEWOBJ.
def _builtin_globals():
    g = {
        "collections.OrderedDict": (OrderedDict, "type"),
        "collections.Counter": (Counter, "type"),
        "torch._utils._rebuild_tensor_v2": (_rebuild_tensor_v2, "fn"),
        "torch._utils._rebuild_tensor_v3": (_rebuild_tensor_v3, "fn"),
        "torch.storage.UntypedStorage": (_StorageType("UntypedStorage"), "storage"),
        "torch.UntypedStorage": (_StorageType("UntypedStorage"), "storage"),
        "torch._utils._rebuild_parameter": (_rebuild_parameter, "fn"),
        "torch._utils._rebuild_parameter_with_state": (_rebuild_parameter_with_state, "fn"),
        "torch.nn.parameter.Parameter": (_rebuild_parameter_from_class, "fn"),
        "torch.Size": (_size, "fn"),
        # the class itself, as a value (a pickled reference to it, not an instance)
        "torch.Tensor": (_ag.Tensor, "value"),
        "torch._utils._rebuild_sparse_tensor": (_rebuild_sparse_tensor, "fn"),
        "torch.serialization._get_layout": (_get_layout, "fn"),
        "torch.device": (_device, "fn"),
        "_codecs.encode": (_codecs_encode, "fn"),
        "builtins.set": (set, "type"), "__builtin__.set": (set, "type"),
        "builtins.complex": (complex, "type"), "__builtin__.complex": (complex, "type"),
        "builtins.bytearray": (_bytearray, "fn"), "__builtin__.bytearray": (_bytearray, "fn"),
    }
    for name in _STORAGE_DTYPES:
        g[f"torch.{name}"] = (_StorageType(name), "storage")
    # every torch.<name> that is a dtype, aliases (torch.float, torch.cdouble) included
    for name, value in vars(_ag).items():
        if isinstance(value, _ag.dtype):
            g[f"torch.{name}"] = (value, "value")
    return g


class _UnsupportedDtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<unsupported dtype torch.{self.name}>"


def _get_layout(name):
    """PyTorch's torch.serialization._get_layout: a layout from its name."""
    layouts = {"torch.strided": _ag.strided, "torch.sparse_coo": _ag.sparse_coo,
               "torch.sparse_csr": _ag.sparse_csr}
    if name not in layouts:
        raise pickle.UnpicklingError(f"load: layout {name} is not supported")
    return layouts[name]


def _rebuild_sparse_tensor(layout, data):
    """PyTorch's torch._utils._rebuild_sparse_tensor: a sparse COO or CSR tensor from its
    saved parts."""
    if layout is _ag.sparse_coo:
        indices, values, size = data[:3]
        coalesced = data[3] if len(data) > 3 else None
        return _ag.sparse_coo_tensor(indices, values, size, is_coalesced=coalesced)
    if layout is _ag.sparse_csr:
        crow, col, values, size = data
        return _ag.sparse_csr_tensor(crow, col, values, size)
    raise pickle.UnpicklingError(f"load: sparse layout {layout!r} is not supported")


def _rebuild_parameter_from_class(data=None, requires_grad=True):
    return _rebuild_parameter(data, requires_grad)


_BUILTIN_GLOBALS = None


def _allowed_global(module, name):
    global _BUILTIN_GLOBALS
    if _BUILTIN_GLOBALS is None:
        _BUILTIN_GLOBALS = _builtin_globals()
    full = f"{module}.{name}"
    if full in _BUILTIN_GLOBALS:
        return _BUILTIN_GLOBALS[full]
    with _safe_globals_lock:
        if full in _user_safe_globals:
            obj = _user_safe_globals[full]
            return obj, ("type" if isinstance(obj, type) else "fn")
    return None


_UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`autograd_core.load` from `False` to `True`. Re-running `autograd_core.load` with "
    "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code "
    "execution. Do it only if you got the file from a trusted source.")
_DOCS_MESSAGE = (  # (the URL is PyTorch's page)
    "\n\nCheck the documentation of autograd_core.load to learn more about types accepted by "
    "default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def _weights_only_message(reason):
    """PyTorch's wording of a weights-only load's refusal around the unpickler's reason
    (its two options when a global is not allowed; a request to file an issue otherwise)."""
    if "was not an allowed global by default." in reason:
        return ("Weights only load failed. This file can still be loaded, to do so you have two "
                "options, \033[1mdo those steps only if you trust the source of the "
                f"checkpoint\033[0m. \n\t(1) {_UNSAFE_MESSAGE}\n\t(2) Alternatively, to load "
                "with `weights_only=True` please check the recommended steps in the following "
                "error message.\n\tWeightsUnpickler error: " + reason + _DOCS_MESSAGE)
    return (f"Weights only load failed. {_UNSAFE_MESSAGE}\nPlease file an issue with the "
            "following so that we can make `weights_only=True` compatible with your use case: "
            "WeightsUnpickler error: \n\n" + reason + _DOCS_MESSAGE)


class _Mark:
    pass


_MARK = _Mark()


class _WeightsOnlyUnpickler:
    """Interprets a pickle's opcodes, allowing only safe ones (see the module docstring)."""

    def __init__(self, data, persistent_load):
        self.data = data
        self.persistent_load = persistent_load

    def fail(self, reason):
        raise pickle.UnpicklingError(_weights_only_message(reason))

    def load(self):
        stack = []
        metastack = []
        memo = {}
        try:
            ops = pickletools.genops(io.BytesIO(self.data))
            for opcode, arg, pos in ops:
                name = opcode.name
                handler = _OPS.get(name)
                if handler is None:
                    self.fail(f"unsupported pickle opcode {name} at byte {pos}")
                result = handler(self, arg, stack, metastack, memo)
                if result is _STOP:
                    if len(stack) != 1 or metastack:
                        self.fail("malformed pickle: stack not empty at STOP")
                    return stack[0]
                if len(metastack) > _MAX_DEPTH:
                    self.fail("nesting too deep")
        except pickle.UnpicklingError:
            raise
        except (ValueError, IndexError, KeyError, TypeError, struct.error, OverflowError,
                UnicodeDecodeError, MemoryError, RecursionError) as e:
            raise pickle.UnpicklingError(
                _weights_only_message(f"malformed pickle data ({type(e).__name__}: {e})")) from None
        self.fail("malformed pickle: no STOP opcode")


_STOP = object()


def _pop_mark(stack, metastack):
    items = stack[:]
    stack[:] = metastack.pop()
    return items


def _op_global(self, arg, stack, metastack, memo):
    module, name = arg.split(" ", 1)
    _push_global(self, module, name, stack)


def _op_stack_global(self, arg, stack, metastack, memo):
    name = stack.pop()
    module = stack.pop()
    if not isinstance(module, str) or not isinstance(name, str):
        self.fail("STACK_GLOBAL needs two strings")
    _push_global(self, module, name, stack)


def _push_global(self, module, name, stack):
    found = _allowed_global(module, name)
    if found is None:
        self.fail(f"Unsupported global: GLOBAL {module}.{name} was not an allowed global by "
                  f"default. Please use `autograd_core.serialization.add_safe_globals("
                  f"[{module}.{name}])` or the `autograd_core.serialization.safe_globals("
                  f"[{module}.{name}])` context manager to allowlist this global if you trust "
                  "this class/function.")
    obj, kind = found
    if kind in ("value", "storage"):
        stack.append(obj)  # a dtype or storage type: plain data, not callable here
    else:
        stack.append(_Global(obj, kind, f"{module}.{name}"))


class _Global:
    """An allowed global on the stack (kept wrapped so only REDUCE/NEWOBJ can call it)."""

    def __init__(self, obj, kind, name):
        self.obj, self.kind, self.name = obj, kind, name


def _op_reduce(self, arg, stack, metastack, memo):
    args = stack.pop()
    func = stack.pop()
    if not isinstance(func, _Global) or func.kind not in ("fn", "type"):
        self.fail(f"REDUCE on something that is not an allowed callable ({type(func).__name__})")
    if not isinstance(args, tuple):
        self.fail("REDUCE arguments must be a tuple")
    for a in args:
        if isinstance(a, _Global):
            self.fail(f"a callable ({a.name}) cannot be an argument")
    stack.append(func.obj(*args))


def _op_newobj(self, arg, stack, metastack, memo):
    args = stack.pop()
    cls = stack.pop()
    if not isinstance(cls, _Global) or cls.kind != "type" or not isinstance(cls.obj, type):
        self.fail("NEWOBJ on something that is not an allowed class")
    if not isinstance(args, tuple):
        self.fail("NEWOBJ arguments must be a tuple")
    stack.append(cls.obj.__new__(cls.obj, *args))


def _op_build(self, arg, stack, metastack, memo):
    state = stack.pop()
    inst = stack[-1]
    slotstate = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slotstate = state
    user_type = type(inst) in _user_types()
    if not (user_type or type(inst) in (OrderedDict, Counter)):
        self.fail(f"BUILD on an object of type {type(inst).__name__} is not allowed")
    setstate = getattr(type(inst), "__setstate__", None)
    if user_type and setstate is not None and setstate is not getattr(object, "__setstate__",
                                                                      None):
        setstate(inst, state if slotstate is None else (state, slotstate))
        return
    for part in (state, slotstate):
        if not part:
            continue
        if not isinstance(part, dict):
            self.fail("BUILD with a state that is not a dict")
        for k, v in part.items():
            if not isinstance(k, str):
                self.fail("BUILD state keys must be strings")
            if part is state:
                inst.__dict__[k] = v
            else:
                object.__setattr__(inst, k, v)


def _user_types():
    with _safe_globals_lock:
        return {v for v in _user_safe_globals.values() if isinstance(v, type)}


def _op_persid(self, arg, stack, metastack, memo):
    pid = stack.pop() if arg is None else arg
    stack.append(self.persistent_load(pid))


def _push(value):
    def op(self, arg, stack, metastack, memo):
        stack.append(value() if callable(value) else value)
    return op


def _push_arg(self, arg, stack, metastack, memo):
    stack.append(arg)


def _push_float_arg(self, arg, stack, metastack, memo):
    stack.append(float(arg))


def _op_mark(self, arg, stack, metastack, memo):
    metastack.append(stack[:])
    stack.clear()


def _op_tuple(self, arg, stack, metastack, memo):
    items = _pop_mark(stack, metastack)
    stack.append(tuple(items))


def _op_tuple_n(n):
    def op(self, arg, stack, metastack, memo):
        if n:
            items = tuple(stack[-n:])
            if len(items) != n:
                raise IndexError("stack underflow")
            del stack[-n:]
        else:
            items = ()
        stack.append(items)
    return op


def _op_list(self, arg, stack, metastack, memo):
    stack.append(_pop_mark(stack, metastack))


def _op_dict(self, arg, stack, metastack, memo):
    items = _pop_mark(stack, metastack)
    d = {}
    for i in range(0, len(items) - 1, 2):
        d[_hashable(self, items[i])] = items[i + 1]
    stack.append(d)


def _hashable(self, key):
    if isinstance(key, (_Global, list, dict, set, bytearray)):
        self.fail(f"unhashable or disallowed dictionary key of type {type(key).__name__}")
    return key


def _op_append(self, arg, stack, metastack, memo):
    value = stack.pop()
    target = stack[-1]
    if not isinstance(target, list):
        self.fail(f"APPEND to {type(target).__name__}")
    target.append(value)


def _op_appends(self, arg, stack, metastack, memo):
    items = _pop_mark(stack, metastack)
    target = stack[-1]
    if not isinstance(target, list):
        self.fail(f"APPENDS to {type(target).__name__}")
    target.extend(items)


def _op_setitem(self, arg, stack, metastack, memo):
    value = stack.pop()
    key = stack.pop()
    target = stack[-1]
    if not isinstance(target, dict):
        self.fail(f"SETITEM on {type(target).__name__}")
    target[_hashable(self, key)] = value


def _op_setitems(self, arg, stack, metastack, memo):
    items = _pop_mark(stack, metastack)
    target = stack[-1]
    if not isinstance(target, dict):
        self.fail(f"SETITEMS on {type(target).__name__}")
    for i in range(0, len(items) - 1, 2):
        target[_hashable(self, items[i])] = items[i + 1]


def _op_additems(self, arg, stack, metastack, memo):
    items = _pop_mark(stack, metastack)
    target = stack[-1]
    if not isinstance(target, set):
        self.fail(f"ADDITEMS on {type(target).__name__}")
    for item in items:
        target.add(_hashable(self, item))


def _op_put(self, arg, stack, metastack, memo):
    memo[arg] = stack[-1]


def _op_memoize(self, arg, stack, metastack, memo):
    memo[len(memo)] = stack[-1]


def _op_get(self, arg, stack, metastack, memo):
    if arg not in memo:
        self.fail(f"memo key {arg} not found")
    stack.append(memo[arg])


def _op_pop(self, arg, stack, metastack, memo):
    if stack:
        stack.pop()
    else:
        stack[:] = metastack.pop()


def _op_pop_mark(self, arg, stack, metastack, memo):
    _pop_mark(stack, metastack)


def _op_dup(self, arg, stack, metastack, memo):
    stack.append(stack[-1])


def _op_noop(self, arg, stack, metastack, memo):
    pass


def _op_proto(self, arg, stack, metastack, memo):
    if not 0 <= arg <= pickle.HIGHEST_PROTOCOL:
        self.fail(f"unsupported pickle protocol {arg}")


def _op_stop(self, arg, stack, metastack, memo):
    return _STOP


def _op_binstring(self, arg, stack, metastack, memo):
    # Python 2 str: PyTorch's own files never contain them; decode as latin-1 like
    # pickle's encoding="latin1".
    stack.append(arg.decode("latin1") if isinstance(arg, bytes) else arg)


def _op_bytes(self, arg, stack, metastack, memo):
    stack.append(bytes(arg))


def _op_bytearray(self, arg, stack, metastack, memo):
    stack.append(bytearray(arg))


_OPS = {
    "PROTO": _op_proto, "FRAME": _op_noop, "STOP": _op_stop,
    "MARK": _op_mark, "POP": _op_pop, "POP_MARK": _op_pop_mark, "DUP": _op_dup,
    "NONE": _push(None), "NEWTRUE": _push(True), "NEWFALSE": _push(False),
    "INT": _push_arg, "BININT": _push_arg, "BININT1": _push_arg, "BININT2": _push_arg,
    "LONG": _push_arg, "LONG1": _push_arg, "LONG4": _push_arg,
    "FLOAT": _push_float_arg, "BINFLOAT": _push_float_arg,
    "STRING": _op_binstring, "BINSTRING": _op_binstring, "SHORT_BINSTRING": _op_binstring,
    "UNICODE": _push_arg, "BINUNICODE": _push_arg, "SHORT_BINUNICODE": _push_arg,
    "BINUNICODE8": _push_arg,
    "BINBYTES": _op_bytes, "SHORT_BINBYTES": _op_bytes, "BINBYTES8": _op_bytes,
    "BYTEARRAY8": _op_bytearray,
    "EMPTY_LIST": _push(list), "EMPTY_DICT": _push(dict), "EMPTY_TUPLE": _push(tuple),
    "EMPTY_SET": _push(set),
    "LIST": _op_list, "DICT": _op_dict, "TUPLE": _op_tuple,
    "TUPLE1": _op_tuple_n(1), "TUPLE2": _op_tuple_n(2), "TUPLE3": _op_tuple_n(3),
    "APPEND": _op_append, "APPENDS": _op_appends,
    "SETITEM": _op_setitem, "SETITEMS": _op_setitems,
    "ADDITEMS": _op_additems,
    "PUT": _op_put, "BINPUT": _op_put, "LONG_BINPUT": _op_put, "MEMOIZE": _op_memoize,
    "GET": _op_get, "BINGET": _op_get, "LONG_BINGET": _op_get,
    "GLOBAL": _op_global, "STACK_GLOBAL": _op_stack_global,
    "REDUCE": _op_reduce, "NEWOBJ": _op_newobj, "BUILD": _op_build,
    "PERSID": _op_persid, "BINPERSID": _op_persid,
}


# --------------------------------------------------------------------------- reading
class _ArchiveReader:
    """Reads the records of a PyTorch zip archive (every name under one top folder)."""

    def __init__(self, f):
        try:
            self.zf = zipfile.ZipFile(f)
            names = self.zf.namelist()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
            raise RuntimeError(f"load: not a valid checkpoint archive ({e})") from None
        pkl = [n for n in names if n.endswith("/data.pkl") and n.count("/") == 1]
        if not pkl:
            pkl = [n for n in names if n.endswith("data.pkl")]
        if len(pkl) != 1:
            raise RuntimeError("load: the archive has no (or several) data.pkl records: not a "
                               "PyTorch checkpoint")
        self.prefix = pkl[0][:-len("data.pkl")]

    def has(self, name):
        try:
            self.zf.getinfo(self.prefix + name)
            return True
        except KeyError:
            return False

    def _data_offset(self, info):
        # where a stored member's bytes start: after its local header, whose extra field
        # (PyTorch's alignment padding) may differ from the central directory's copy
        fp = self.zf.fp
        fp.seek(info.header_offset)
        head = fp.read(30)
        if len(head) != 30 or head[:4] != b"PK\x03\x04":
            raise RuntimeError(f"load: record {info.filename!r} is corrupted (bad local header)")
        name_len, extra_len = struct.unpack("<HH", head[26:30])
        return info.header_offset + 30 + name_len + extra_len

    def read_storage(self, name, nbytes, mapped=None):
        """The bytes of a storage record as a writable uint8 array: a view of ``mapped``
        (the file's map, mmap=True) or read straight into a fresh buffer (one copy)."""
        try:
            info = self.zf.getinfo(self.prefix + name)
        except KeyError:
            raise RuntimeError(f"load: record {name!r} is missing from the archive") from None
        if info.file_size != nbytes:
            raise RuntimeError(f"load: storage record {name!r} has {info.file_size} bytes, "
                               f"expected {nbytes}")
        if info.compress_type != zipfile.ZIP_STORED or not hasattr(self.zf.fp, "seek"):
            if mapped is not None:
                raise RuntimeError(f"load: record {name!r} is compressed and cannot be mapped")
            return np.frombuffer(bytearray(self.read(name, limit=nbytes)), dtype=np.uint8)
        start = self._data_offset(info)
        if mapped is not None:
            if start + nbytes > len(mapped):
                raise RuntimeError(f"load: record {name!r} is corrupted (truncated)")
            return np.frombuffer(mapped, dtype=np.uint8, count=nbytes, offset=start)
        buf = np.empty(nbytes, dtype=np.uint8)  # (numpy's allocator: huge pages when large)
        fp = self.zf.fp
        fp.seek(start)
        got = fp.readinto(memoryview(buf)) if nbytes else 0
        if got != nbytes:
            raise RuntimeError(f"load: record {name!r} is corrupted (truncated)")
        return buf

    def read(self, name, limit=None):
        try:
            info = self.zf.getinfo(self.prefix + name)
        except KeyError:
            raise RuntimeError(f"load: record {name!r} is missing from the archive") from None
        if limit is not None and info.file_size > limit:
            raise RuntimeError(f"load: record {name!r} is larger than expected")
        try:
            return self.zf.read(info)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as e:
            raise RuntimeError(f"load: record {name!r} is corrupted ({e})") from None


def _make_persistent_load(reader, map_location, mapped=None):
    loaded = {}

    def persistent_load(saved_id):
        if not isinstance(saved_id, tuple) or len(saved_id) != 5 or saved_id[0] != "storage":
            raise pickle.UnpicklingError(f"unsupported persistent id {saved_id!r}")
        _, storage_type, key, location, numel = saved_id
        if not isinstance(storage_type, _StorageType):
            raise pickle.UnpicklingError(f"unknown storage type {storage_type!r}")
        if not isinstance(key, str) or not isinstance(location, str) \
                or not isinstance(numel, int) or numel < 0:
            raise pickle.UnpicklingError(f"malformed storage id {saved_id!r}")
        _check_location(location, map_location)
        if key in loaded:
            return loaded[key]
        itemsize = np.dtype(storage_type.dtype).itemsize
        raw = reader.read_storage(f"data/{key}", numel * itemsize, mapped)
        st = _Storage(_storage_array(raw, storage_type.dtype))
        loaded[key] = st
        return st

    return persistent_load


def _storage_array(raw, dtype):
    """A storage's little-endian bytes (a uint8 array) as a flat array of dtype: a view, no
    copy, on a little-endian machine."""
    dtype = np.dtype(dtype)
    if dtype.itemsize > 1 and raw.ctypes.data % dtype.itemsize:
        # a record another writer left unaligned: the compiled kernels expect aligned data
        raw = raw.copy()
    if dtype == ml_dtypes.bfloat16:
        # (ml_dtypes' bfloat16 has no byte-order variants: read the bits, then view)
        return raw.view("<u2").astype(np.uint16, copy=False).view(ml_dtypes.bfloat16)
    return raw.view(dtype.newbyteorder("<")).astype(dtype.newbyteorder("="), copy=False)


def _check_location(location, map_location):
    if location == "cpu" or location.startswith("cpu"):
        return
    mapped = map_location
    if isinstance(map_location, dict):
        mapped = map_location.get(location, location)
    if callable(mapped) and not isinstance(mapped, (str, _ag.device)):
        return  # a callable map_location takes responsibility for placing storages
    if mapped is not None and str(mapped).startswith("cpu"):
        return
    raise RuntimeError(
        f"Attempting to deserialize object on a {location.split(':')[0].upper()} device but "
        "autograd_core runs on the CPU only. If you are running on a CPU-only machine, please "
        "use load with map_location='cpu' to map your storages to the CPU.")


class _FullUnpickler(pickle.Unpickler):
    """weights_only=False: ordinary unpickling (trusted files only), with PyTorch's names
    mapped to autograd_core's."""

    def __init__(self, file, persistent_load_fn, **kwargs):
        super().__init__(file, **kwargs)
        self._pl = persistent_load_fn

    def persistent_load(self, pid):
        return self._pl(pid)

    def find_class(self, module, name):
        found = _allowed_global(module, name)
        if found is not None and (module.startswith("torch") or module == "_codecs"):
            return found[0]
        if module == "torch" or module.startswith("torch."):
            raise pickle.UnpicklingError(
                f"load: {module}.{name} has no autograd_core equivalent")
        return super().find_class(module, name)


def _open_for_read(f):
    if isinstance(f, (str, os.PathLike)):
        return open(f, "rb"), True
    return f, False


def load(f: FileLike, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: bool | None = None,
         **pickle_load_args: Any) -> Any:
    """Load an object saved with :func:`save` (or with PyTorch's ``torch.save``).

    ``weights_only`` defaults to True, as in PyTorch 2.13 (the environment variables
    ``TORCH_FORCE_WEIGHTS_ONLY_LOAD`` / ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`` act as there): only tensors, primitive types,
    containers and classes from :func:`add_safe_globals` are rebuilt and nothing in the file
    is executed; a file with anything else raises ``pickle.UnpicklingError``.
    ``weights_only=False`` unpickles arbitrary objects (this can execute code: only for files
    you trust). ``map_location`` may map storages to the CPU (the only device here);
    ``mmap=True`` (``f`` must be a file name) maps the file instead of reading the storages:
    the tensors are views of the map, private by default (writes to them do not reach the
    file; :func:`set_default_mmap_options` with ``mmap.MAP_SHARED`` makes them shared).
    PyTorch's legacy (pre-1.6, non-zip) format loads too.

    Example::

        >>> import io, autograd_core as torch
        >>> buf = io.BytesIO()
        >>> torch.save({"w": torch.ones(2)}, buf)
        >>> _ = buf.seek(0)
        >>> torch.load(buf)["w"]
        tensor([1., 1.])
    """
    if mmap is None:
        mmap = False
    true_values = ("1", "y", "yes", "true")
    force_wo = os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in true_values
    force_no_wo = os.getenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in true_values
    if force_wo and force_no_wo:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or "
                           "`TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` should be set, but both were set.")
    if force_wo:
        weights_only = True
    elif weights_only is None:
        if force_no_wo:
            warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since "
                          "the`weights_only` argument was not explicitly passed to `load`, "
                          "forcing weights_only=False.", UserWarning, stacklevel=2)
        weights_only = not force_no_wo
    if pickle_module is not None and weights_only:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                           "specified")
    fobj, close = _open_for_read(f)
    try:
        start = fobj.tell() if hasattr(fobj, "tell") else 0
        head = fobj.read(4)
        if hasattr(fobj, "seek"):
            fobj.seek(start)
        if head[:2] != b"PK":
            if mmap:
                f_name = f"{f}, " if isinstance(f, str) else ""
                raise RuntimeError(
                    "mmap can only be used with files saved with "
                    f"`torch.save({f_name}_use_new_zipfile_serialization=True), "
                    "please torch.save your checkpoint with this option in order to use mmap.")
            return _legacy_load(fobj, map_location, weights_only, pickle_load_args)
        if mmap and not isinstance(f, (str, os.PathLike)):
            raise ValueError("f must be a file path in order to use the mmap argument")
        reader = _ArchiveReader(fobj)
        if reader.has("byteorder"):
            order = reader.read("byteorder", limit=16)
            if order not in (b"little", b"big"):
                raise RuntimeError(f"load: unknown byteorder record {order!r}")
            if order == b"big":
                raise RuntimeError("load: big-endian checkpoints are not supported")
        data = reader.read("data.pkl")
        mapped = None
        if mmap:
            mapped = _map_file(f, fobj)
        persistent_load = _make_persistent_load(reader, map_location, mapped)
        if weights_only:
            return _WeightsOnlyUnpickler(data, persistent_load).load()
        unpickler = _FullUnpickler(io.BytesIO(data), persistent_load, **pickle_load_args)
        return unpickler.load()
    finally:
        if close:
            fobj.close()


_mmap_flags = None  # None: mmap.MAP_PRIVATE (set_default_mmap_options)


def get_default_mmap_options():
    """The mmap flags :func:`load` uses with ``mmap=True``: ``mmap.MAP_PRIVATE`` unless
    :func:`set_default_mmap_options` changed them.

    Example::

        >>> import mmap, autograd_core as torch
        >>> torch.serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
        True
    """
    import mmap as _mmap
    return _mmap.MAP_PRIVATE if _mmap_flags is None else _mmap_flags


class set_default_mmap_options:
    """Set the mmap flags :func:`load` uses with ``mmap=True`` (``mmap.MAP_PRIVATE``: writes
    to the loaded tensors stay in memory; ``mmap.MAP_SHARED``: they reach the file and the
    file's changes are seen); as a function, or a context manager restoring them on exit.

    Example::

        >>> import mmap, autograd_core as torch
        >>> with torch.serialization.set_default_mmap_options(mmap.MAP_SHARED):
        ...     torch.serialization.get_default_mmap_options() == mmap.MAP_SHARED
        True
    """

    def __init__(self, flags):
        global _mmap_flags
        import mmap as _mmap
        if sys.platform == "win32":
            raise RuntimeError(
                "Changing the default mmap options is currently not supported for Windows")
        if flags != _mmap.MAP_PRIVATE and flags != _mmap.MAP_SHARED:
            raise ValueError("Invalid argument in function set_default_mmap_options, "
                             f"expected mmap.MAP_PRIVATE or mmap.MAP_SHARED, but got {flags}")
        self.prev = _mmap_flags
        _mmap_flags = flags

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        global _mmap_flags
        _mmap_flags = self.prev


def _map_file(f, fobj):
    """The whole file mapped: copy-on-write (MAP_PRIVATE) or shared (MAP_SHARED). The map
    lives as long as an array viewing it (numpy keeps the mmap object alive)."""
    import mmap as _mmap
    size = os.path.getsize(f)
    if size == 0:
        raise RuntimeError("load: cannot map an empty file")
    if get_default_mmap_options() == _mmap.MAP_SHARED and sys.platform != "win32":
        with open(f, "r+b") as fh:
            return _mmap.mmap(fh.fileno(), size, access=_mmap.ACCESS_WRITE)
    return _mmap.mmap(fobj.fileno(), size, access=_mmap.ACCESS_COPY)


# --------------------------------------------------------------------------- legacy format
# PyTorch's format before 1.6 (torch.save(..., _use_new_zipfile_serialization=False)): one
# stream of pickles: a magic number, the protocol version, a dict of system facts, the object
# (storages as persistent ids ("storage", type, key, location, numel, view_metadata)), the
# list of storage keys, then each storage as an int64 element count and its raw bytes in
# that order.
_LEGACY_MAGIC = 0x1950a86a20f9469cfc6c
_LEGACY_PROTOCOL = 1001


def _legacy_pickle(fobj, weights_only, pickle_load_args, persistent_load=None):
    """The next pickle of the stream; weights-only: parsed by _WeightsOnlyUnpickler."""
    if weights_only:
        start = fobj.tell()
        end = None
        try:
            for op, _arg, pos in pickletools.genops(fobj):
                if op.name == "STOP":
                    end = pos + 1
                    break
        except ValueError as e:  # (genops' word for a malformed pickle)
            raise pickle.UnpicklingError(f"load: malformed legacy checkpoint ({e})") from None
        if end is None:
            raise RuntimeError("load: legacy checkpoint is truncated")
        fobj.seek(start)
        data = fobj.read(end - start)
        return _WeightsOnlyUnpickler(data, persistent_load or _no_persistent).load()
    return _FullUnpickler(fobj, persistent_load or _no_persistent, **pickle_load_args).load()


def _no_persistent(pid):
    raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")


def _legacy_load(fobj, map_location, weights_only, pickle_load_args):
    if not hasattr(fobj, "seek"):
        raise RuntimeError("load: the legacy format needs a seekable file")
    try:
        # (read as data whatever weights_only says: a plain pickle is not run to find out
        # that it is not a checkpoint)
        magic = _legacy_pickle(fobj, True, pickle_load_args)
    except Exception:
        raise RuntimeError("Invalid magic number; corrupt file?") from None
    if magic != _LEGACY_MAGIC:
        raise RuntimeError("Invalid magic number; corrupt file?")
    protocol = _legacy_pickle(fobj, True, pickle_load_args)
    if protocol != _LEGACY_PROTOCOL:
        raise RuntimeError(f"Invalid protocol version: {protocol}")
    sys_info = _legacy_pickle(fobj, True, pickle_load_args)
    if not isinstance(sys_info, dict) or not sys_info.get("little_endian", True):
        raise RuntimeError("load: big-endian legacy checkpoints are not supported")
    # the storages follow the object: first learn each storage's type and size (building the
    # object over placeholder storages), then read the storages, then build it again on them
    obj_start = fobj.tell()
    fobj.seek(0, io.SEEK_END)
    file_end = fobj.tell()
    fobj.seek(obj_start)
    kinds = {}

    def parse_id(saved_id):
        if not isinstance(saved_id, tuple) or len(saved_id) != 6 or saved_id[0] != "storage":
            raise pickle.UnpicklingError(f"unsupported persistent id {saved_id!r}")
        _, storage_type, key, location, numel, view = saved_id
        if not isinstance(storage_type, _StorageType) or not isinstance(key, str) \
                or not isinstance(numel, int) or numel < 0:
            raise pickle.UnpicklingError(f"malformed storage id {saved_id!r}")
        _check_location(location, map_location)
        if numel * np.dtype(storage_type.dtype).itemsize > file_end - obj_start:
            # every storage's bytes follow in the file: bound what a corrupt count allocates
            raise RuntimeError("load: legacy checkpoint is corrupted (a storage is larger "
                               "than the file)")
        return storage_type, key, numel, view

    def placeholder(saved_id):
        storage_type, key, numel, view = parse_id(saved_id)
        kinds.setdefault(key, storage_type.dtype)
        if view is not None:
            _view_key, offset, size = view
            return _Storage(np.zeros(size, dtype=storage_type.dtype))
        return _Storage(np.zeros(numel, dtype=storage_type.dtype))

    _legacy_pickle(fobj, weights_only, pickle_load_args, placeholder)
    keys = _legacy_pickle(fobj, weights_only, pickle_load_args)
    if not isinstance(keys, list) or any(not isinstance(k, str) for k in keys):
        raise pickle.UnpicklingError("load: malformed legacy storage key list")
    storages = {}
    for key in keys:
        if key not in kinds:
            raise pickle.UnpicklingError(f"load: legacy storage {key!r} is not used")
        head = fobj.read(8)
        if len(head) != 8:
            raise RuntimeError("load: legacy checkpoint is truncated")
        (numel,) = struct.unpack("<q", head)
        dtype = np.dtype(kinds[key])
        if numel < 0 or numel * dtype.itemsize > file_end - fobj.tell():
            raise RuntimeError("load: legacy checkpoint is corrupted (a storage record "
                               "overruns the file)")
        buf = bytearray(numel * dtype.itemsize)
        if fobj.readinto(buf) != len(buf):
            raise RuntimeError("load: legacy checkpoint is truncated")
        storages[key] = _Storage(_storage_array(np.frombuffer(buf, dtype=np.uint8), dtype))
    views = {}

    def real(saved_id):
        storage_type, key, numel, view = parse_id(saved_id)
        if key not in storages:
            raise RuntimeError(f"load: legacy storage {key!r} is missing")
        st = storages[key]
        if view is None:
            return st
        view_key, offset, size = view
        if view_key not in views:
            if not (isinstance(offset, int) and isinstance(size, int)) or offset < 0 \
                    or size < 0 or offset + size > st.array.size:
                raise pickle.UnpicklingError("load: malformed legacy storage view")
            views[view_key] = _Storage(st.array[offset:offset + size])
        return views[view_key]

    fobj.seek(obj_start)
    return _legacy_pickle(fobj, weights_only, pickle_load_args, real)


def _legacy_save(obj, f, protocol):
    """PyTorch's legacy format (the layout _legacy_load reads)."""
    sys_info = {"protocol_version": _LEGACY_PROTOCOL, "little_endian": True,
                "type_sizes": {"short": 2, "int": 4, "long": 4}}
    pickle.dump(_LEGACY_MAGIC, f, protocol=protocol)
    pickle.dump(_LEGACY_PROTOCOL, f, protocol=protocol)
    pickle.dump(sys_info, f, protocol=protocol)
    pickler = _TorchPickler(f, protocol, legacy=True)
    pickler.dump(obj)
    records = sorted(pickler.records)
    pickle.dump([key for key, _ in records], f, protocol=protocol)
    for _key, arr in records:
        count = arr.nbytes if arr.dtype in _UNTYPED_DTYPES else arr.size
        f.write(struct.pack("<q", count))
        f.write(memoryview(arr.reshape(-1).view(np.uint8)))


# --------------------------------------------------------------------------- writing
class _StorageRecord:
    def __init__(self, array):
        self.array = array


class _Named:
    """A global written by name (``torch.<name>`` etc.) in the pickle."""

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle requires reduce functions to be callable
        raise TypeError(f"{self.module}.{self.name} is a name in a file, not a function")


_REBUILD_TENSOR = _Named("torch._utils", "_rebuild_tensor_v2")
_REBUILD_TENSOR_V3 = _Named("torch._utils", "_rebuild_tensor_v3")
_UNTYPED_STORAGE = _Named("torch.storage", "UntypedStorage")
_REBUILD_PARAMETER = _Named("torch._utils", "_rebuild_parameter")
_TORCH_SIZE = _Named("torch", "Size")
_TORCH_DEVICE = _Named("torch", "device")
_NAMED_CACHE = {}


def _named(module, name):
    key = (module, name)
    if key not in _NAMED_CACHE:
        _NAMED_CACHE[key] = _Named(module, name)
    return _NAMED_CACHE[key]


_PLAIN_TYPES = frozenset((str, int, float, bool, type(None), tuple, list, dict, bytes,
                          OrderedDict, _StorageRecord))


class _TorchPickler(pickle._Pickler):
    """Pickles with PyTorch's names for tensors, Parameters, dtypes, Size and devices, and
    tensor data in separate storage records."""

    def __init__(self, file, protocol, legacy=False):
        super().__init__(file, protocol)
        self.records = []
        self._keys = {}
        self._storages = {}  # (address, bytes, dtype) of a base's memory -> (record, array)
        self._legacy = legacy  # the legacy format's ids carry a sixth field (view metadata)

    def persistent_id(self, obj):
        if isinstance(obj, _StorageRecord):
            key = self._keys.get(id(obj))
            if key is None:
                key = str(len(self.records))
                self._keys[id(obj)] = key
                self.records.append((key, obj.array))
            tail = (None,) if self._legacy else ()
            if obj.array.dtype in _UNTYPED_DTYPES:
                return ("storage", _UNTYPED_STORAGE, key, "cpu", int(obj.array.nbytes)) + tail
            storage = _named("torch", _STORAGE_OF_DTYPE[obj.array.dtype])
            return ("storage", storage, key, "cpu", int(obj.array.size)) + tail
        return None

    def reducer_override(self, obj):
        if type(obj) in _PLAIN_TYPES:
            return NotImplemented  # (most objects in a state_dict's pickle: keys, sizes)
        from autograd_core.nn.parameter import Parameter
        if isinstance(obj, _Named) or obj is _ag.Tensor:
            return "named"  # a str: pickle then calls save_global(obj, "named")
        if getattr(type(obj), "_agc_sparse", False):
            # PyTorch's record of a sparse tensor: its layout and its parts (the sparse
            # type's placeholder array holds no values, Note [Sparse tensors])
            if obj.layout.name == "sparse_coo":
                parts = (obj._indices(), obj._values().detach(), _ag.Size(obj.shape),
                         obj.is_coalesced())
            else:
                parts = (obj.crow_indices(), obj.col_indices(), obj.values().detach(),
                         _ag.Size(obj.shape))
            return (_named("torch._utils", "_rebuild_sparse_tensor"), (obj.layout, parts))
        if isinstance(obj, _ag.layout):
            return (_named("torch.serialization", "_get_layout"), ("torch." + obj.name,))
        if isinstance(obj, Parameter):
            plain = obj.detach()
            return (_REBUILD_PARAMETER, (plain, obj.requires_grad, OrderedDict()))
        if isinstance(obj, _ag.Tensor):
            shared = self._shared_storage(obj)
            if shared is not None:
                return (_REBUILD_TENSOR, shared + (bool(obj.requires_grad), OrderedDict()))
            arr = np.asarray(_core.array_of(obj.detach()), order="C")
            # a conj/neg view is saved as PyTorch saves it: the memory it views (its
            # values with the bits undone) and the bits in the record's metadata
            bits = _core._lazy_bits(obj)
            metadata = {}
            if bits & 1:
                arr, metadata["conj"] = np.conjugate(arr), True
            if bits & 2:
                arr, metadata["neg"] = np.negative(arr), True
            untyped = _UNTYPED_DTYPES.get(arr.dtype)
            if arr.dtype not in _STORAGE_OF_DTYPE and untyped is None:
                raise pickle.PicklingError(f"save: unsupported tensor dtype {arr.dtype}")
            if arr.dtype != ml_dtypes.bfloat16:  # (which has no byte-order variants)
                arr = arr.astype(arr.dtype.newbyteorder("<"), copy=False)
            stride = tuple(s // arr.itemsize for s in arr.strides) if arr.size else \
                _contiguous_stride(arr.shape)
            if untyped is not None:
                # as PyTorch: bytes in an UntypedStorage, typed by _rebuild_tensor_v3
                return (_REBUILD_TENSOR_V3, (_StorageRecord(arr.reshape(-1)), 0,
                                             tuple(arr.shape), stride, bool(obj.requires_grad),
                                             OrderedDict(), getattr(_ag, untyped)))
            return (_REBUILD_TENSOR, (_StorageRecord(arr.reshape(-1)), 0, tuple(arr.shape),
                                      stride, bool(obj.requires_grad), OrderedDict())
                    + ((metadata,) if metadata else ()))
        if isinstance(obj, _ag.dtype):
            return "dtype"  # a str: pickle then calls save_global(obj, "dtype")
        if isinstance(obj, _ag.Size):
            return (_TORCH_SIZE, (tuple(int(v) for v in obj),))
        if isinstance(obj, _ag.device):
            return (_TORCH_DEVICE, (str(obj),))
        return NotImplemented

    def _shared_storage(self, t):
        """(record, offset, size, stride) of t as a view of its base's memory, one record
        per memory (Note [Saved views share their storage]), or None where the plain
        path applies (conj/neg bits, dtype views, a base not laid out row-major)."""
        base = t._base if t._base is not None else t
        arr, barr = _core.array_of(t), _core.array_of(base)
        if t._base is None and not arr.flags.c_contiguous:
            return None
        if (_core._lazy_bits(t) or _core._lazy_bits(base) or arr.dtype != barr.dtype
                or not barr.flags.c_contiguous or arr.dtype not in _STORAGE_OF_DTYPE
                or arr.dtype.byteorder == ">" or not barr.size or not arr.size):
            return None
        item = arr.itemsize
        if any(st < 0 or st % item for st in arr.strides):
            return None
        key = (barr.__array_interface__["data"][0], barr.nbytes, arr.dtype.str)
        entry = self._storages.get(key)
        if entry is None:
            entry = self._storages[key] = (_StorageRecord(barr.reshape(-1)), barr)
        return (entry[0], t.storage_offset(), tuple(arr.shape),
                tuple(st // item for st in arr.strides))

    def save_global(self, obj, name=None):
        if isinstance(obj, _ag.dtype):
            obj = _named("torch", str(obj).split(".")[-1])
        elif obj is _ag.Tensor:
            obj = _named("torch", "Tensor")
        if isinstance(obj, _Named):
            if id(obj) in self.memo:
                # a dtype named again (every uint16/32/64 tensor names its dtype): pickle
                # memoised the name, not the dtype object, so fetch it from the memo
                self.write(self.get(self.memo[id(obj)][0]))
                return
            self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("utf-8"))
            self.memoize(obj)
            return
        super().save_global(obj, name)


def _contiguous_stride(shape):
    stride, acc = [], 1
    for n in reversed(shape):
        stride.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(stride))


def _write_archive(zf, prefix, records):
    """Write records to the zip with each payload aligned to 64 bytes (as PyTorch)."""
    for name, payload in records:
        info = zipfile.ZipInfo(prefix + name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_STORED
        offset = zf.fp.tell() if hasattr(zf.fp, "tell") else 0
        header = 30 + len(info.filename.encode("utf-8"))
        pad = (-(offset + header + 4)) % 64
        info.extra = struct.pack("<HH", 0x4246, pad) + b"Z" * pad  # 'FB' field, as PyTorch
        if isinstance(payload, np.ndarray):
            # a storage: written from the array's own buffer (no bytes copy)
            data = memoryview(payload.reshape(-1).view(np.uint8))
            info.file_size = data.nbytes
            with zf.open(info, "w", force_zip64=data.nbytes >= zipfile.ZIP64_LIMIT) as out:
                out.write(data)
        else:
            zf.writestr(info, payload)


def save(obj: object, f: FileLike, pickle_module: Any = None,
         pickle_protocol: int = DEFAULT_PROTOCOL, _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Save an object (tensors, state_dicts, nested containers, ...) to a file or file-like
    object, in PyTorch's zip format (readable by ``torch.load``);
    ``_use_new_zipfile_serialization=False`` writes PyTorch's legacy (pre-1.6) format.

    Example::

        >>> import io, autograd_core as torch
        >>> buf = io.BytesIO()
        >>> torch.save({"w": torch.arange(3)}, buf)
        >>> _ = buf.seek(0)
        >>> torch.load(buf)
        {'w': tensor([0, 1, 2])}
    """
    if pickle_module is not None and pickle_module is not pickle:
        raise RuntimeError("save: a custom pickle_module is not supported")
    if not _use_new_zipfile_serialization:
        if isinstance(f, (str, os.PathLike)):
            with open(f, "wb") as fh:
                _legacy_save(obj, fh, pickle_protocol)
        else:
            _legacy_save(obj, f, pickle_protocol)
        return
    buf = io.BytesIO()
    pickler = _TorchPickler(buf, pickle_protocol)
    pickler.dump(obj)
    if isinstance(f, (str, os.PathLike)):
        stem = os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    else:
        stem = "archive"
    stem = "".join(c if (c.isalnum() or c in "_-") else "_" for c in stem) or "archive"
    records = [("data.pkl", buf.getvalue()), (".format_version", b"1"),
               (".storage_alignment", b"64")]
    if not _disable_byteorder_record:
        records.append(("byteorder", sys.byteorder.encode() if sys.byteorder == "little"
                        else b"little"))
    for key, arr in pickler.records:
        records.append((f"data/{key}", arr))
    records.append(("version", b"3\n"))
    records.append((".data/serialization_id", str(uuid.uuid4().int).encode()))
    if isinstance(f, (str, os.PathLike)):
        parent = os.path.dirname(os.path.abspath(os.fspath(f)))
        if not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
        with open(f, "wb") as fh, zipfile.ZipFile(fh, "w") as zf:
            _write_archive(zf, stem + "/", records)
    else:
        with zipfile.ZipFile(f, "w") as zf:
            _write_archive(zf, stem + "/", records)
