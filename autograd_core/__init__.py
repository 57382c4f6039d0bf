"""autograd_core: a compiled reverse-mode autograd engine over numpy arrays with
PyTorch's autograd API. ``import autograd_core as torch`` runs PyTorch autograd code.

>>> import autograd_core as torch
>>> a = torch.tensor([1., 2, 3, 4], requires_grad=True)
>>> c = torch.sum(a * 2)
>>> c.backward()
>>> a.grad
tensor([2., 2., 2., 2.])
"""
from autograd_core import _C
from autograd_core._C import (  # noqa: F401  (the public namespace)
    Size, Tensor, abs, add, cat, clone, cos, div, exp, flatten, get_default_dtype,
    is_grad_enabled, is_inference_mode_enabled, is_tensor, log, matmul, max, mean, min, mm,
    mul, neg, numel, permute, pow, promote_types, relu, reshape, result_type,
    set_default_dtype, sigmoid, sin, sqrt, squeeze, stack, sub, sum, swapaxes, t, tanh,
    transpose, true_divide, unbind, unsqueeze, where,
)
from autograd_core._C import (broadcast_to, chunk, flip, gather, index_select, masked_fill, masked_select, movedim, moveaxis, narrow, roll, scatter, scatter_add, select, split, tile, unflatten)  # shape_index
from autograd_core._C import (  # noqa: F401,A004  elementwise
    absolute, acos, acosh, addcdiv, addcmul, arccos, arccosh, arcsin, arcsinh, arctan,
    arctan2, arctanh, asin, asinh, atan, atan2, atanh, ceil, clamp, clamp_max, clamp_min,
    clip, cosh, div, divide, eq, erf, erfc, exp2, expm1, fix, floor, floor_divide, fmod,
    frac, ge, greater, greater_equal, gt, hypot, isfinite, isinf, isnan, isneginf, isposinf,
    le, lerp, less, less_equal, log10, log1p, log2, logical_and, logical_not, logical_or,
    logical_xor, logit, lt, maximum, minimum, nan_to_num, ne, negative, not_equal,
    rand_like, randint_like, randn_like, reciprocal, remainder, round, rsqrt, sgn, sign,
    signbit, sinh, square, tan, trunc, true_divide,
)  # elementwise
from autograd_core._creation import (  # noqa: F401
    arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, linspace,
    manual_seed, ones, ones_like, rand, randint, randn, seed, tensor, zeros, zeros_like,
)
from autograd_core._tensor_str import get_printoptions, set_printoptions  # noqa: F401
from autograd_core.grad_mode import (  # noqa: F401
    enable_grad, inference_mode, no_grad, set_grad_enabled,
)
from autograd_core import autograd  # noqa: F401
from autograd_core.autograd import (  # noqa: F401
    is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled,
)
from autograd_core._C import (  # noqa: F401  # reduce_linalg
    addmm, all_ as all, amax, amin, any_ as any, argmax, argmin, bmm, cumprod, cumsum, det,
    diag, dot, einsum, ger, inverse, logsumexp, mv, norm, outer, prod, std, tensordot, trace,
    tril, triu, var,
)
from autograd_core import linalg  # noqa: F401
from autograd_core._C import (  # noqa: F401  # nn
    binary_cross_entropy_with_logits, conv1d, conv2d, dropout, log_softmax, max_pool2d, softmax,
)
from autograd_core import nn  # noqa: F401

__version__ = "0.1.0"

_dtypes = _C.dtypes()
bool = _dtypes["bool"]
uint8 = _dtypes["uint8"]
int8 = _dtypes["int8"]
int16 = _dtypes["int16"]
int32 = _dtypes["int32"]
int64 = _dtypes["int64"]
float16 = _dtypes["float16"]
float32 = _dtypes["float32"]
float64 = _dtypes["float64"]
half, float, double = float16, float32, float64
short, int, long = int16, int32, int64
dtype = _C.dtype
device = _C.Device
del _dtypes

# training-loop packages
from autograd_core import optim, utils  # noqa: E402,F401
if "Generator" not in globals():  # until the core has PyTorch-compatible random streams
    from autograd_core.utils.data._random import Generator  # noqa: E402,F401
from autograd_core.serialization import load, save  # noqa: E402,F401
