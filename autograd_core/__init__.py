"""autograd_core: a compiled autograd engine (reverse and forward mode) over numpy arrays with
PyTorch's autograd API. ``import autograd_core as torch`` runs PyTorch autograd code.

>>> import autograd_core as torch
>>> a = torch.tensor([1., 2, 3, 4], requires_grad=True)
>>> c = torch.sum(a * 2)
>>> c.backward()
>>> a.grad
tensor([2., 2., 2., 2.])
"""
import typing as _typing

if _typing.TYPE_CHECKING:
    # (this namespace's bool, int and float are dtypes: its annotations name the builtins
    # so, quoted: these names exist for a type checker only)
    from builtins import bool as _bool, float as _float, int as _int

from autograd_core._core import dtype as _dtype
from autograd_core._core import tensor as _tensor
from autograd_core._core.tensor import (  # noqa: F401
    Size, Tensor, device, is_grad_enabled, is_inference_mode_enabled,
)
from autograd_core._core.tensor import _result_type as result_type  # noqa: F401
from autograd_core._core.dtype import (  # noqa: F401
    dtype, get_default_dtype, promote_types, set_default_dtype,
)

# The op families: importing each registers its ops in the op table and installs its
# Tensor methods (Note [Op table]); the engine installs Tensor.backward.
from autograd_core.ops import pointwise as _pointwise
from autograd_core.ops import view as _view
from autograd_core.ops import reduce as _reduce
from autograd_core.ops import index as _index
from autograd_core.ops import linalg as _linalg_ops
from autograd_core.ops import nn as _nn_ops
from autograd_core.ops import spectral as _spectral_ops
from autograd_core._core import engine as _engine  # noqa: F401

for _family in (_pointwise, _view, _reduce, _index, _linalg_ops, _nn_ops, _spectral_ops):
    globals().update(_family.TORCH_FUNCTIONS)
del _family
_tensor.check_op_table()

from autograd_core._creation import (  # noqa: E402,F401
    arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, linspace,
    get_rng_state, initial_seed, manual_seed, multinomial, ones, ones_like, rand, randint, randn,
    randperm,
    seed, set_rng_state, tensor, zeros, zeros_like,
    asarray, empty_permuted, empty_strided, frombuffer, logspace, scalar_tensor, tril_indices,
    triu_indices, vander,
    bartlett_window, blackman_window, hamming_window, hann_window, kaiser_window,
)
from autograd_core._creation import range_ as range  # noqa: E402,F401  (deprecated, as torch's)
from autograd_core._core.tensor import (  # noqa: E402,F401
    channels_last, channels_last_3d, contiguous_format, layout, memory_format, preserve_format,
    strided,
)
from autograd_core._legacy import LEGACY_TYPES as _LEGACY_TYPES  # noqa: E402
from autograd_core._legacy import set_default_tensor_type  # noqa: E402,F401
globals().update(_LEGACY_TYPES)
from autograd_core._settings import (  # noqa: E402,F401
    are_deterministic_algorithms_enabled, broadcast_shapes, can_cast, finfo,
    get_default_device, get_deterministic_debug_mode, get_float32_matmul_precision,
    get_num_interop_threads, get_num_threads, iinfo, init_num_threads,
    is_deterministic_algorithms_warn_only_enabled, is_storage, is_warn_always_enabled,
    set_default_device, set_deterministic_debug_mode,
    set_float32_matmul_precision, set_flush_denormal, set_num_interop_threads, set_num_threads,
    set_warn_always, typename, use_deterministic_algorithms,
)
from autograd_core._core.random import Generator  # noqa: E402,F401
from autograd_core._core.random import get_default_generator as _get_default_generator  # noqa: E402
default_generator = _get_default_generator()
from autograd_core._tensor_str import get_printoptions, set_printoptions  # noqa: E402,F401
from autograd_core.grad_mode import (  # noqa: E402,F401
    enable_grad, inference_mode, no_grad, set_grad_enabled,
)
from autograd_core import autograd  # noqa: E402,F401
from autograd_core.autograd import (  # noqa: E402,F401
    is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled,
)
from autograd_core import linalg  # noqa: E402,F401
from autograd_core import fft, signal, special  # noqa: E402,F401
from autograd_core._stft import istft, stft  # noqa: E402,F401
from autograd_core import nn  # noqa: E402,F401
# the nn ops PyTorch also exposes as torch.<name>, with aten's signatures
for _name, _fn in nn.functional._TORCH_FUNCTIONS.items():
    globals().setdefault(_name, _fn)
del _name, _fn

from autograd_core.version import __version__  # noqa: E402,F401

# PyTorch's math constants (torch.pi etc., from math)
from math import e, inf, nan, pi  # noqa: E402,F401

_dtypes = _dtype.all_dtypes()
bool = _dtypes["bool"]
uint8 = _dtypes["uint8"]
int8 = _dtypes["int8"]
int16 = _dtypes["int16"]
int32 = _dtypes["int32"]
int64 = _dtypes["int64"]
float16 = _dtypes["float16"]
float32 = _dtypes["float32"]
float64 = _dtypes["float64"]
bfloat16 = _dtypes["bfloat16"]
uint16 = _dtypes["uint16"]   # Note [Wide unsigned dtypes]
uint32 = _dtypes["uint32"]
uint64 = _dtypes["uint64"]
half, float, double = float16, float32, float64
short, int, long = int16, int32, int64
complex64 = _dtypes["complex64"]
complex128 = _dtypes["complex128"]
cfloat, cdouble = complex64, complex128
del _dtypes
from autograd_core import _complex  # noqa: E402,F401  (Note [Complex guard])
from autograd_core._sparse import (  # noqa: E402,F401  (Note [Sparse tensors])
    sparse_bsc, sparse_bsr, sparse_coo, sparse_coo_tensor, sparse_csc, sparse_csr,
    sparse_csr_tensor,
)
from autograd_core import sparse  # noqa: E402,F401

# training-loop packages
from autograd_core import optim, utils  # noqa: E402,F401
from autograd_core.utils.dlpack import from_dlpack, to_dlpack  # noqa: E402,F401
from autograd_core import multiprocessing  # noqa: E402,F401  (shared tensors' reducer)
from autograd_core import func, overrides  # noqa: E402,F401
from autograd_core import _vmap_internals  # noqa: E402,F401  (gradcheck's vmap, as torch's)
from autograd_core.func import vmap  # noqa: E402,F401
from autograd_core import distributions  # noqa: E402,F401
from autograd_core import profiler  # noqa: E402,F401
from autograd_core import random  # noqa: E402,F401
from autograd_core.random import thread_safe_generator  # noqa: E402,F401
from autograd_core.serialization import load, save  # noqa: E402,F401
# torch.ops.aten / .prim / .profiler: attributes of the ops package (autograd_core/_ops.py)
from autograd_core import ops, _ops  # noqa: E402,F401
from autograd_core import _C  # noqa: E402,F401  (Tensor's metaclass: Note [Tensor's type names])
_ops._install(ops)
from autograd_core import (  # noqa: E402,F401
    amp, backends, cpu, cuda, serialization, testing, version,
)
from autograd_core.amp import (  # noqa: E402,F401
    autocast, get_autocast_cpu_dtype, get_autocast_dtype, is_autocast_cache_enabled,
    is_autocast_cpu_enabled, is_autocast_enabled, set_autocast_cache_enabled,
    set_autocast_cpu_dtype, set_autocast_cpu_enabled, set_autocast_dtype, set_autocast_enabled,
    clear_autocast_cache, autocast_increment_nesting, autocast_decrement_nesting,
)


from autograd_core import _dynamo, compiler, jit  # noqa: E402,F401  (Note [Compiled mode])


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, disable=False):
    """Compile a function or module (Note [Compiled mode]): its first call runs eagerly
    and is recorded; later calls whose guards (shapes, dtypes, requires_grad, grad mode,
    numbers, globals, module state) hold replay the recorded ops with no Python dispatch;
    a function the recording cannot replay faithfully runs eagerly (a graph break), or with
    ``fullgraph=True`` raises ``torch._dynamo.exc.Unsupported``. A module gives an
    ``OptimizedModule`` holding it as ``_orig_mod``; with no model, a decorator.

    >>> import autograd_core as torch
    >>> @torch.compile
    ... def f(x, y):
    ...     return (x * y).sin().sum()
    >>> x = torch.ones(3, requires_grad=True)
    >>> f(x, torch.full((3,), 2.0))
    tensor(2.7279, grad_fn=<SumBackward0>)
    >>> f(x, torch.full((3,), 2.0)).backward(); x.grad
    tensor([-0.8323, -0.8323, -0.8323])
    """
    return _dynamo.compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, disable=disable)


def spmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Product of a sparse 2-D input and a dense mat2 (``torch.mm`` for a sparse input).

    >>> import autograd_core as torch
    >>> s = torch.sparse_coo_tensor([[0], [1]], [2.], (2, 2))
    >>> torch.spmm(s, torch.tensor([[1.], [3.]]))
    tensor([[6.],
            [0.]])
    """
    return mm(input, mat2)


def is_tensor(obj: object) -> "_bool":
    """True for autograd_core tensors.

    >>> import autograd_core as torch
    >>> torch.is_tensor(torch.zeros(1))
    True
    """
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> "_int":
    """The number of elements of a tensor.

    >>> import autograd_core as torch
    >>> torch.numel(torch.zeros(2, 3))
    6
    """
    return _tensor_arg("numel", input).numel()


def _tensor_arg(fname, input, argname="input", pos=1):
    if not isinstance(input, Tensor):
        raise _tensor.not_tensor_error(fname, argname, pos, input)
    return input


def is_floating_point(input: Tensor) -> "_bool":
    """Whether input's dtype is a float dtype.

    >>> import autograd_core as torch
    >>> torch.is_floating_point(torch.zeros(1))
    True
    """
    return _tensor_arg("is_floating_point", input).is_floating_point()


def is_signed(input: Tensor) -> "_bool":
    """Whether input's dtype holds negative numbers.

    >>> import autograd_core as torch
    >>> torch.is_signed(torch.zeros(1, dtype=torch.uint8))
    False
    """
    return _tensor_arg("is_signed", input).is_signed()


def is_nonzero(input: Tensor) -> "_bool":
    """Whether the one value of a one-element tensor is not zero (more or fewer elements
    raise).

    >>> import autograd_core as torch
    >>> torch.is_nonzero(torch.tensor([1.5]))
    True
    """
    return _tensor_arg("is_nonzero", input).is_nonzero()


def is_same_size(input: Tensor, other: Tensor) -> "_bool":
    """Whether input and other have the same shape.

    >>> import autograd_core as torch
    >>> torch.is_same_size(torch.zeros(2, 3), torch.ones(2, 3, dtype=torch.int64))
    True
    """
    return _tensor_arg("is_same_size", input).is_same_size(
        _tensor_arg("is_same_size", other, "other", 2))


def is_inference(input: Tensor) -> "_bool":
    """Whether input was created in inference mode.

    >>> import autograd_core as torch
    >>> torch.is_inference(torch.zeros(1))
    False
    """
    return _tensor_arg("is_inference", input).is_inference()


def detach(input: Tensor) -> Tensor:
    """input without its history (the same values, shared).

    >>> import autograd_core as torch
    >>> torch.detach(torch.ones(2, requires_grad=True) * 2)
    tensor([2., 2.])
    """
    return _tensor_arg("detach", input).detach()


def equal(input: Tensor, other: Tensor) -> "_bool":
    """True when other has input's shape and equal values.

    >>> import autograd_core as torch
    >>> torch.equal(torch.tensor([1., 2.]), torch.tensor([1., 2.]))
    True
    """
    return _tensor_arg("equal", input).equal(_tensor_arg("equal", other, "other", 2))


def allclose(input: Tensor, other: Tensor, rtol: "_float" = 1e-05, atol: "_float" = 1e-08,
             equal_nan: "_bool" = False) -> "_bool":
    """Whether isclose(input, other, rtol, atol, equal_nan) holds everywhere.

    >>> import autograd_core as torch
    >>> torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2. + 1e-6]))
    True
    """
    return _tensor_arg("allclose", input).allclose(_tensor_arg("allclose", other, "other", 2),
                                                   rtol, atol, equal_nan)


def is_complex(input: Tensor) -> "_bool":
    """Whether input's dtype is complex.

    >>> import autograd_core as torch
    >>> torch.is_complex(torch.tensor([1j]))
    True
    """
    return _tensor_arg("is_complex", input).is_complex()


def is_conj(input: Tensor) -> "_bool":
    """Whether input is a lazily conjugated view (Tensor.is_conj).

    >>> import autograd_core as torch
    >>> torch.is_conj(torch.tensor([1j]).conj())
    True
    """
    return _tensor_arg("is_conj", input).is_conj()


def is_neg(input: Tensor) -> "_bool":
    """Whether input is a lazily negated view (Tensor.is_neg).

    >>> import autograd_core as torch
    >>> torch.is_neg(torch._neg_view(torch.ones(1)))
    True
    """
    return _tensor_arg("is_neg", input).is_neg()
