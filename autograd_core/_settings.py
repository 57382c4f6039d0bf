"""Process-wide settings PyTorch programs set on their first lines (threads,
determinism, matmul precision, the default device, warnings; the default tensor type is
_legacy.py's, beside the legacy types it names), and the
small type utilities beside them (finfo, iinfo, typename, can_cast, broadcast_shapes).

autograd_core computes with numpy on the CPU: its kernels are deterministic and its
matmuls always use full float32 precision, so these settings are recorded and
reported back as PyTorch reports them, with PyTorch's argument checking.

>>> import autograd_core as torch
>>> torch.use_deterministic_algorithms(True)
>>> torch.are_deterministic_algorithms_enabled()
True
>>> torch.use_deterministic_algorithms(False)
"""
import builtins
import os
import warnings

import numpy as np
import ml_dtypes

from autograd_core._core import dtype as _core_dtype
from autograd_core._core import tensor as _core

_DTYPES = _core_dtype.all_dtypes()

def _default_num_threads():
    """PyTorch's default intra-op thread count: the number of physical cores (as cpuinfo
    counts them: the distinct package/core ids; else the number of CPUs), lowered by an
    OMP_NUM_THREADS or MKL_NUM_THREADS variable (torch 2.13 does not go above the cores
    for a larger one). It decides how a float sum of 32768 or more elements is split,
    and so its last bits (Note [Sum order] in csrc/agc_sum.h)."""
    n = 0
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        try:
            v = int(os.environ.get(var, ""))
        except ValueError:
            continue
        if v > 0:
            n = v
    cores = _physical_cores()
    return min(n, cores) if n else cores


def _physical_cores():
    cores = set()
    try:
        root = "/sys/devices/system/cpu"
        for name in os.listdir(root):
            if name.startswith("cpu") and name[3:].isdigit():
                with open(f"{root}/{name}/topology/physical_package_id") as f:
                    package = f.read().strip()
                with open(f"{root}/{name}/topology/core_id") as f:
                    cores.add((package, f.read().strip()))
    except OSError:
        cores = set()
    return len(cores) or max(1, os.cpu_count() or 1)


_state = {
    "num_threads": _default_num_threads(),
    "num_interop_threads": max(1, os.cpu_count() or 1),
    "interop_set": False,
    "deterministic": False,
    "deterministic_warn_only": False,
    "matmul_precision": "highest",
    "warn_always": False,
}


def _check_int(value, fname):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuntimeError(f"{fname} expects an int, but got {type(value).__name__}")


def set_num_threads(int):
    """Set the number of threads for intra-op parallelism: the threads the C loops of
    convolution, pooling and the elementwise kernels share out large arrays to
    (csrc/agc_parallel.h; numpy's BLAS keeps its own setting).

    >>> import autograd_core as torch
    >>> n = torch.get_num_threads(); torch.set_num_threads(1); torch.get_num_threads()
    1
    >>> torch.set_num_threads(n)
    """
    _check_int(int, "set_num_threads")
    if int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _core._set_num_threads(min(int, 1 << 16))   # (the pool caps its workers)
    _state["num_threads"] = int


def get_num_threads():
    """The number of threads for intra-op parallelism (set_num_threads; at start
    OMP_NUM_THREADS, or else the number of CPUs)."""
    return _state["num_threads"]


_core._set_num_threads(_state["num_threads"])


def set_num_interop_threads(int):
    """Set the number of threads for inter-op parallelism: once, before any inter-op
    work, as PyTorch allows."""
    _check_int(int, "set_num_interop_threads")
    if int <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    if _state["interop_set"]:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work "
                           "has started or set_num_interop_threads called")
    _state["num_interop_threads"] = int
    _state["interop_set"] = True


def get_num_interop_threads():
    """The number of threads for inter-op parallelism."""
    return _state["num_interop_threads"]


def init_num_threads():
    """Initialise the thread count of the calling thread (nothing to do here)."""


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Ask for deterministic algorithms (all of autograd_core's are: the setting is
    recorded for are_deterministic_algorithms_enabled).

    >>> import autograd_core as torch
    >>> torch.use_deterministic_algorithms(True, warn_only=True)
    >>> torch.get_deterministic_debug_mode()
    1
    >>> torch.use_deterministic_algorithms(False)
    """
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must "
                        f"be bool, not {type(mode).__name__}")
    if not isinstance(warn_only, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'warn_only' must be bool, "
                        f"not {type(warn_only).__name__}")
    _state["deterministic"] = mode
    _state["deterministic_warn_only"] = warn_only if mode else False


def are_deterministic_algorithms_enabled():
    """Whether use_deterministic_algorithms(True) is in effect."""
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    """Whether use_deterministic_algorithms(True, warn_only=True) is in effect."""
    return _state["deterministic_warn_only"]


def set_deterministic_debug_mode(debug_mode):
    """use_deterministic_algorithms by level: "default"/0 off, "warn"/1 warn only,
    "error"/2 on."""
    if isinstance(debug_mode, str):
        levels = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in levels:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, "
                               f"`warn`, `error`, but got {debug_mode}")
        debug_mode = levels[debug_mode]
    elif not isinstance(debug_mode, int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    """The level set_deterministic_debug_mode takes: 0, 1 or 2."""
    if not _state["deterministic"]:
        return 0
    return 1 if _state["deterministic_warn_only"] else 2


def set_float32_matmul_precision(precision):
    """"highest", "high" or "medium" (recorded: numpy's float32 matmul always uses full
    precision; anything else warns and changes nothing, as PyTorch)."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      f"setFloat32MatmulPrecision call has no effect.", UserWarning,
                      stacklevel=2)
        return
    _state["matmul_precision"] = precision


def get_float32_matmul_precision():
    """The value of set_float32_matmul_precision ("highest" at start)."""
    return _state["matmul_precision"]


_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip",
                 "ve", "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")


def _cpu_only(device):
    """device as a device of this library: cpu; a device type PyTorch knows but this
    library has not raises as a PyTorch built without it does."""
    if isinstance(device, int):
        raise AssertionError("Torch not compiled with CUDA enabled")
    name = str(device) if not isinstance(device, str) else device
    kind = name.split(":")[0]
    if kind not in _DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start "
                           f"of device string: {name}")
    if kind == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    return _core.device(name)


def set_default_device(device):
    """The device tensors are created on when none is given: the CPU (None or "cpu").
    Other devices raise here, where PyTorch without them raises at the first tensor
    made.

    >>> import autograd_core as torch
    >>> torch.set_default_device("cpu"); torch.get_default_device()
    device(type='cpu')
    """
    if device is not None:
        _cpu_only(device)


def get_default_device():
    """The device of new tensors: always the CPU."""
    return _core.device("cpu")


def set_flush_denormal(mode):
    """Whether denormal floats should read as zero; returns whether the setting took.
    numpy offers no way to set the CPU's flush-to-zero mode, so this returns False
    (PyTorch's answer on a CPU without the mode), and denormals stay."""
    if not isinstance(mode, bool):
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    return False


def set_warn_always(b):
    """Make warnings PyTorch gives once per process (frombuffer's) show every time."""
    if not isinstance(b, bool):
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _state["warn_always"] = b


def is_warn_always_enabled():
    """Whether set_warn_always(True) is in effect."""
    return _state["warn_always"]


def is_storage(obj):
    """Whether obj is a storage: autograd_core has none (tensors hold numpy arrays).

    >>> import autograd_core as torch
    >>> torch.is_storage(torch.zeros(1))
    False
    """
    return False


# ---------------------------------------------------------------- type utilities

def typename(obj):
    """The type name PyTorch prints: the legacy type of a tensor
    ('autograd_core.FloatTensor'), else the module-qualified name.

    >>> import autograd_core as torch
    >>> torch.typename(torch.zeros(1)), torch.typename(3)
    ('autograd_core.FloatTensor', 'int')
    """
    if isinstance(obj, _core.Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in ("", "builtins"):
        return qualname
    return f"{module}.{qualname}"


def _dtype_arg(fname, name, pos, d):
    if not isinstance(d, _core_dtype.dtype):
        raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be "
                        f"autograd_core.dtype, not {type(d).__name__}")
    return d


def can_cast(from_, to):
    """Whether PyTorch's casting rules allow ``from_`` to ``to``: not a complex to a real, nor a
    float to an integer, nor anything but bool to bool.

    >>> import autograd_core as torch
    >>> torch.can_cast(torch.float64, torch.float16), torch.can_cast(torch.float32, torch.int32)
    (True, False)
    """
    from_ = _dtype_arg("can_cast", "from_", 1, from_)
    to = _dtype_arg("can_cast", "to", 2, to)
    if from_.is_complex and not to.is_complex:
        return False
    if from_.is_floating_point and not (to.is_floating_point or to.is_complex) \
            and to is not _DTYPES["bool"]:
        return False
    if from_ is not _DTYPES["bool"] and to is _DTYPES["bool"]:
        return False
    return True


def broadcast_shapes(*shapes):
    """The shape tensors of the given shapes broadcast to (PyTorch's rules and
    messages).

    >>> import autograd_core as torch
    >>> torch.broadcast_shapes((2, 1), (3,))
    autograd_core.Size([2, 3])
    """
    shapes = tuple((s,) if isinstance(s, int) else s for s in shapes if s is not None)
    if not shapes:
        return _core.Size([])
    for s in shapes:
        if not isinstance(s, (tuple, list)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a "
                               f"list of ints, got {s}")
    common = [1] * max(len(s) for s in shapes)
    for arg_idx, shape in enumerate(shapes):
        for idx in builtins.range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = shape[idx]
            if shape[idx] == 1:
                continue
            if common[idx] != shape[idx]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[idx]} at {idx}! "
                    f"Mismatching argument at index {arg_idx} had {shape}; but expected shape "
                    f"should be broadcastable to {common}")
    return _core.Size(common)


class finfo:
    """The machine limits of a floating dtype, as ``torch.finfo``: bits, eps, max, min,
    tiny (= smallest_normal), resolution, dtype.

    >>> import autograd_core as torch
    >>> torch.finfo(torch.float32)
    finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=float32)
    """

    def __init__(self, type=None):
        if type is None:
            type = _core_dtype.get_default_dtype()
        elif type is builtins.float:
            type = _DTYPES["float64"]
        if not isinstance(type, _core_dtype.dtype):
            raise TypeError(f"finfo(): argument 'type' (position 1) must be autograd_core.dtype, "
                            f"not {builtins.type(type).__name__}")
        if not type.is_floating_point:
            raise TypeError("autograd_core.finfo() requires a floating point input type. Use "
                            "autograd_core.iinfo to handle 'autograd_core.finfo'")
        fi = ml_dtypes.finfo(type.np_dtype)  # (numpy's finfo does not know bfloat16)
        self.bits = int(fi.bits)
        self.eps = builtins.float(fi.eps)
        self.max = builtins.float(fi.max)
        self.min = builtins.float(fi.min)
        self.tiny = self.smallest_normal = builtins.float(fi.smallest_normal)
        self.resolution = 10.0 ** -int(fi.precision)
        self.dtype = type.name

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    __hash__ = None

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """The limits of an integer dtype, as ``torch.iinfo``: bits, max, min, dtype.

    >>> import autograd_core as torch
    >>> torch.iinfo(torch.uint8)
    iinfo(min=0, max=255, dtype=uint8)
    """

    def __init__(self, type):
        if not isinstance(type, _core_dtype.dtype):
            raise TypeError(f"iinfo(): argument 'type' (position 1) must be autograd_core.dtype, "
                            f"not {builtins.type(type).__name__}")
        if type is _DTYPES["bool"]:
            raise TypeError("autograd_core.bool is not supported by autograd_core.iinfo")
        if type.is_floating_point:
            raise TypeError("autograd_core.iinfo() requires an integer input type. Use "
                            "autograd_core.finfo to handle 'autograd_core.iinfo'")
        ii = np.iinfo(type.np_dtype)
        self.bits = int(ii.bits)
        self.max = int(ii.max)
        self.min = int(ii.min)
        self.dtype = type.name

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    __hash__ = None

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


finfo.__module__ = iinfo.__module__ = "autograd_core"
