"""PyTorch's ``torch.nn.functional`` over autograd_core's compiled nn ops.

Each function is one of three kinds:

- the generated wrapper of its table entry (ops/derivatives.yaml, section nn,
  ``variants: functional``);
- a thin Python function calling specific compiled ops: only argument handling lives
  here, as in PyTorch's own functional.py (legacy ``size_average``/``reduce`` flags,
  reduction names, the implicit softmax dim, size warnings, embedding's padding_idx,
  ``inplace=`` flags, pad modes);
- a composition of public autograd_core operations in Python, where no compiled op of
  its own exists (the other activations and losses, 1-D, 3-D, adaptive, power-average and
  fractional pooling, unpooling, group, instance,
  local response and RMS norms, embedding_bag, interpolate, attention): autograd, double
  backward included, comes from the ops they are built of. Their loops run over a handful
  of dimensions, kernel offsets, layers or time steps, never over the elements of the data.

>>> import autograd_core as torch
>>> import autograd_core.nn.functional as F
>>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> loss = F.cross_entropy(x, torch.tensor([0, 1]))
>>> loss.backward()
>>> x.grad
tensor([[-0.3655,  0.3655],
        [ 0.1345, -0.1345]])
>>> F.one_hot(torch.tensor([0, 2]), 3)
tensor([[1, 0, 0],
        [0, 0, 1]])
"""
import math
import warnings
from types import SimpleNamespace as _Namespace

import numpy as np

import autograd_core as _torch
from autograd_core._autocast import autocast_args as _autocast_args
from autograd_core._core import random as _random
from autograd_core._core.tensor import py_broadcast_shapes as _broadcast_shapes
from autograd_core._core.tensor import value_overflow_error as _value_overflow_error
from autograd_core._core.dtype import SCALAR_NAMES as _SCALAR_NAMES
from autograd_core._core.tensor import relayout_result as _relayout_result
from autograd_core._core.tensor import py_shape_str as _shape_str
from autograd_core._core.tensor import suggest_memory_format as _suggest_memory_format
from autograd_core.ops import linalg as _linalg_ops
from autograd_core.ops import nn as _nn_ops
from autograd_core.backends import cuda as _backends_cuda

from autograd_core.overrides import _handle_call_py as _handle_torch_function  # noqa: E402
from autograd_core.overrides import _overrides as _overrides_tf  # noqa: E402

# Note [One route into nn.functional]
# The nn family's generated wrappers (ops/nn.pyx, from derivatives.yaml) are reached one
# way: as attributes of _C, the family's table of them by name (NN_FUNCTIONAL), as
# PyTorch's functional.py reaches torch._C._nn. A public name whose wrapper has PyTorch's
# signature is bound to it once, in the block after __all__; every function written here
# (a different Python signature: inplace=, reduction names, legacy flags) calls _C.<name>.
# The family's hand-written Python entry points (conv3d, conv_transpose, the attention
# kernels) are its module's own names, called as _nn_ops.<name>.
_C = _Namespace(**_nn_ops.NN_FUNCTIONAL)


_Tensor = _torch.Tensor


def _has_torch_function(a, b=None):
    """PyTorch's has_torch_function_variadic for one or two tensor arguments: the
    functions written here hand such calls to handle_torch_function (Note
    [__torch_function__ in the wrappers], ops/_prelude.pxi); a plain tensor costs one
    type comparison at the call site (`type(x) is not _Tensor and ...`)."""
    return ((type(a) is not _Tensor and _overrides_tf(a))
            or (b is not None and type(b) is not _Tensor and _overrides_tf(b)))


__all__ = [
    # activations
    "relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "elu", "elu_", "celu", "celu_",
    "selu", "selu_", "gelu", "silu", "softplus", "hardtanh", "hardtanh_", "sigmoid", "tanh",
    "threshold", "threshold_", "hardshrink", "softshrink", "tanhshrink", "softsign",
    "logsigmoid", "hardsigmoid", "hardswish", "mish", "glu", "prelu", "rrelu", "rrelu_",
    "softmax", "log_softmax", "softmin", "gumbel_softmax",
    # losses
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "cross_entropy", "nll_loss", "kl_div",
    "poisson_nll_loss", "gaussian_nll_loss", "hinge_embedding_loss", "margin_ranking_loss",
    "soft_margin_loss", "multilabel_soft_margin_loss", "cosine_embedding_loss",
    "multi_margin_loss", "multilabel_margin_loss", "triplet_margin_loss",
    "triplet_margin_with_distance_loss", "ctc_loss",
    # linear, distances and shape
    "linear", "bilinear", "one_hot", "cosine_similarity", "pairwise_distance", "pdist",
    "pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "native_channel_shuffle",
    # padding and normalisation
    "pad", "normalize", "layer_norm", "batch_norm", "group_norm", "instance_norm",
    "local_response_norm", "rms_norm",
    # embedding
    "embedding", "embedding_bag",
    # dropout
    "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
    # convolution
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    # pooling
    "max_pool1d", "max_pool1d_with_indices", "max_pool2d", "max_pool2d_with_indices",
    "max_pool3d", "max_pool3d_with_indices", "avg_pool1d", "avg_pool2d", "avg_pool3d",
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d", "adaptive_max_pool3d_with_indices", "lp_pool1d", "lp_pool2d",
    "lp_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d", "fractional_max_pool2d",
    "fractional_max_pool2d_with_indices", "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices",
    # unfold, fold
    "unfold", "fold",
    # resampling
    "interpolate", "affine_grid", "grid_sample", "upsample", "upsample_nearest",
    "upsample_bilinear",
    # attention
    "scaled_dot_product_attention", "multi_head_attention_forward",
    # linear + cross entropy
    "linear_cross_entropy",
]

# generated wrappers, exactly PyTorch's signatures (Note [One route into nn.functional])
gelu = _C.gelu
softplus = _C.softplus
hardtanh_ = _C.hardtanh_
silu_ = _C.silu_
hardshrink = _C.hardshrink
softshrink = _C.softshrink
logsigmoid = _C.logsigmoid
prelu = _C.prelu
linear = _C.linear
cosine_similarity = _C.cosine_similarity
pairwise_distance = _C.pairwise_distance
pixel_shuffle = _C.pixel_shuffle
pixel_unshuffle = _C.pixel_unshuffle
channel_shuffle = _C.channel_shuffle
native_channel_shuffle = _C.native_channel_shuffle
layer_norm = _C.layer_norm
conv1d = _C.conv1d
conv2d = _C.conv2d
avg_pool2d = _C.avg_pool2d
# the family's other wrappers are reachable here too, as torch._C._nn's are (their
# docstrings call them as F.<name>); the functions below replace the rest
hardsigmoid_ = _C.hardsigmoid_
hardswish_ = _C.hardswish_
mish_ = _C.mish_
rrelu_with_noise = _C.rrelu_with_noise
rrelu_with_noise_ = _C.rrelu_with_noise_
constant_pad_nd = _C.constant_pad_nd
reflection_pad = _C.reflection_pad
replication_pad = _C.replication_pad
_pad_circular = _C._pad_circular
im2col = _C.im2col
col2im = _C.col2im

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


# ------------------------------------------------------------------ shared helpers

def _const(array, dtype=None):
    """A constant tensor (no grad) from a numpy array."""
    t = _torch.from_numpy(np.ascontiguousarray(array))
    return t if dtype is None else t.to(dtype)


def _tuple(x, n):
    """An int[n] argument of the pooling and convolution ops: an int repeated n times, a
    one-element list or tuple too, any other as a tuple."""
    if isinstance(x, (list, tuple)):
        return tuple(x) if len(x) == n else tuple(x) * n if len(x) == 1 else tuple(x)
    return (x,) * n


def _pair(v):
    """unfold's and fold's int[2] arguments: an int twice, a list or tuple as it is (im2col
    and col2im check its length, with PyTorch's messages)."""
    return tuple(v) if isinstance(v, (list, tuple)) else (v, v)


# ------------------------------------------------------------------ activations

def relu(input: _Tensor, inplace: bool = False) -> _Tensor:
    """max(input, 0) elementwise (``inplace=True``: in input itself)."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(relu, (input, ), {'inplace': inplace})
    return _torch.relu_(input) if inplace else _torch.relu(input)


def relu_(input: _Tensor) -> _Tensor:
    """relu in input itself."""
    return _torch.relu_(input)


def leaky_relu(input: _Tensor, negative_slope: float = 0.01, inplace: bool = False) -> _Tensor:
    """input where input > 0, else input * negative_slope."""
    if inplace:
        return _C.leaky_relu_(input, negative_slope)
    return _C.leaky_relu(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    """leaky_relu in input itself."""
    return _C.leaky_relu_(input, negative_slope)


def elu(input: _Tensor, alpha: float = 1.0, inplace: bool = False) -> _Tensor:
    """input where input > 0, else alpha * (exp(input) - 1)."""
    return _C.elu_(input, alpha) if inplace else _C.elu(input, alpha)


def elu_(input, alpha=1.0):
    """elu in input itself."""
    return _C.elu_(input, alpha)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    return _C.celu_(input, alpha) if inplace else _C.celu(input, alpha)


def celu_(input, alpha=1.0):
    """celu in input itself."""
    return _C.celu_(input, alpha)


def selu(input, inplace=False):
    """scale * elu(input, alpha) with PyTorch's SELU constants."""
    op = _C.elu_ if inplace else _C.elu
    return op(input, _SELU_ALPHA, _SELU_SCALE)


def selu_(input):
    """selu in input itself."""
    return _C.elu_(input, _SELU_ALPHA, _SELU_SCALE)


def silu(input: _Tensor, inplace: bool = False) -> _Tensor:
    """input * sigmoid(input)."""
    return _C.silu_(input) if inplace else _C.silu(input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clipped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return _C.hardtanh_(input, min_val, max_val)
    return _C.hardtanh(input, min_val, max_val)


def relu6(input, inplace=False):
    """min(max(0, x), 6)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def sigmoid(input: _Tensor) -> _Tensor:
    """1 / (1 + exp(-input))."""
    return _torch.sigmoid(input)


def tanh(input: _Tensor) -> _Tensor:
    """Hyperbolic tangent."""
    return _torch.tanh(input)


def threshold(input, threshold, value, inplace=False):
    """input where input > threshold, else value."""
    if inplace:
        return _torch.threshold_(input, threshold, value)
    return _torch.threshold(input, threshold, value)


def threshold_(input, threshold, value):
    """threshold in input itself."""
    return _torch.threshold_(input, threshold, value)


def tanhshrink(input):
    """input - tanh(input)."""
    return input - _torch.tanh(input)


def softsign(input):
    """``input / (1 + |input|)``."""
    return input / (_torch.abs(input) + 1)


def hardsigmoid(input, inplace=False):
    """relu6(input + 3) / 6."""
    if inplace:
        return _C.hardsigmoid_(input)
    return _C.hardsigmoid(input)


def hardswish(input, inplace=False):
    """input * relu6(input + 3) / 6."""
    if inplace:
        return _C.hardswish_(input)
    return _C.hardswish(input)


def mish(input, inplace=False):
    """input * tanh(softplus(input))."""
    if inplace:
        return _C.mish_(input)
    return _C.mish(input)


def glu(input, dim=-1):
    """a * sigmoid(b), where a and b are the two halves of input along dim."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    n = input.size(dim)
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension "
                           f"{dim % input.dim()} is size {n}")
    if not input.is_floating_point():   # (PyTorch's glu kernel: floating types only)
        raise NotImplementedError(f'"glu_cpu" not implemented for '
                                  f"'{_SCALAR_NAMES[input.dtype.name]}'")
    a, b = _torch.chunk(input, 2, dim)
    return a * _torch.sigmoid(b)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky ReLU with a random slope ~ U(lower, upper) per element in training, the mean
    slope (lower + upper) / 2 otherwise (PyTorch's rrelu_with_noise)."""
    # in place: rrelu_with_noise_ (RreluWithNoiseBackward1, as PyTorch's torch.rrelu_)
    op = _C.rrelu_with_noise_ if inplace else _C.rrelu_with_noise
    return op(input, _torch.empty_like(input), lower, upper, bool(training))


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, True)


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: _Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: "_torch.dtype | None" = None) -> _Tensor:
    """exp(x) / exp(x).sum(dim) (without dim: PyTorch's legacy choice, with a warning)."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(softmax, (input, ),
            {'dim': dim, '_stacklevel': _stacklevel, 'dtype': dtype})
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return _torch.softmax(input, dim, dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input, dim)."""
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    return _torch.softmax(-input, dim, dtype)


def log_softmax(input: _Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: "_torch.dtype | None" = None) -> _Tensor:
    """log(softmax(input, dim)), computed stably."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(log_softmax, (input, ),
            {'dim': dim, '_stacklevel': _stacklevel, 'dtype': dtype})
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _torch.log_softmax(input, dim, dtype)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """Samples from the Gumbel-softmax distribution (hard: one-hot, straight-through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    # -log(Exp(1)) noise, drawn as PyTorch draws it (the same numbers for the same seed)
    gumbels = -_torch.empty_like(logits).exponential_().log()
    y_soft = softmax((logits + gumbels) / tau, dim)
    if hard:
        index = y_soft.argmax(dim, keepdim=True)
        y_hard = _torch.zeros_like(logits).scatter(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


# ------------------------------------------------------------------ losses

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}   # PyTorch's reduction enum


def _reduction_enum(reduction):
    """PyTorch's enum of a reduction name; ValueError for anything but 'none', 'mean' and
    'sum' (every loss checks its reduction with it)."""
    try:
        return _REDUCTIONS[reduction]
    except (KeyError, TypeError):
        raise ValueError(f"{reduction} is not a valid value for reduction") from None


def _legacy_get_string(size_average, reduce, emit_warning=True):
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    if emit_warning:
        warnings.warn(f"size_average and reduce args will be deprecated, please use "
                      f"reduction='{ret}' instead.", stacklevel=3)
    return ret


def _reduction(size_average, reduce, reduction):
    """The reduction the legacy flags say when either is given, else ``reduction``."""
    if size_average is not None or reduce is not None:
        return _legacy_get_string(size_average, reduce)
    return reduction


def _reduce(loss, reduction, weight=None):
    """The elementwise loss reduced as ``reduction`` says: every loss written here reduces
    through this one function. With ``weight`` (a loss given per-element weights, already
    applied to ``loss``), 'mean' divides by the weights' sum, and an unknown reduction is
    PyTorch's "Invalid reduction mode" of those losses."""
    if weight is not None:
        if reduction == "none":
            return loss
        if reduction == "sum":
            return _torch.sum(loss)
        if reduction == "mean":
            return _torch.sum(loss) / _torch.sum(weight)
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', "
                         f"'mean', 'sum'.")
    enum = _reduction_enum(reduction)
    if enum == 0:
        return loss
    return loss.mean() if enum == 1 else loss.sum()


def _warn_size(input, target, stacklevel=3):
    if target.size() != input.size():
        warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", stacklevel=stacklevel)


def _broadcast(a, b):
    shape = _torch.Size(_broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    return (a if a.shape == shape else a.expand(shape)), (b if b.shape == shape else b.expand(shape))


def _loss_operands(input, target, size_average, reduce, reduction):
    """The prologue mse_loss, l1_loss and smooth_l1_loss share, in PyTorch's order: the
    size-mismatch warning (pointing at the caller's caller), the legacy size_average/reduce
    folded into `reduction`, then both operands broadcast. Returns (x, t, reduction)."""
    _warn_size(input, target, stacklevel=4)
    reduction = _reduction(size_average, reduce, reduction)
    return (*_broadcast(input, target), reduction)


def _weighted_loss(elementwise, input, weight, reduction):
    """mse_loss/l1_loss with a weight: PyTorch checks its size against the input, then
    composes the loss by hand (`elementwise() * weight`, reduced as `_reduce` says)."""
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    return _reduce(elementwise() * weight, reduction, weight)


def mse_loss(input: _Tensor, target: _Tensor, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean",
             weight: "_Tensor | None" = None) -> _Tensor:
    """Mean squared error (or its sum, or elementwise with reduction='none')."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(mse_loss, (input, target, ),
            {'size_average': size_average, 'reduce': reduce, 'reduction': reduction,
             'weight': weight})
    x, t, reduction = _loss_operands(input, target, size_average, reduce, reduction)
    if weight is not None:
        return _weighted_loss(lambda: (x - t) ** 2, input, weight, reduction)
    return _C.mse_loss(x, t, _reduction_enum(reduction))


def l1_loss(input: _Tensor, target: _Tensor, size_average: bool | None = None,
            reduce: bool | None = None, reduction: str = "mean",
            weight: "_Tensor | None" = None) -> _Tensor:
    """Mean absolute error (PyTorch composes it of abs and mean/sum)."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(l1_loss, (input, target, ),
            {'size_average': size_average, 'reduce': reduce, 'reduction': reduction,
             'weight': weight})
    x, t, reduction = _loss_operands(input, target, size_average, reduce, reduction)
    if weight is not None:
        return _weighted_loss(lambda: _torch.abs(x - t), input, weight, reduction)
    _reduction_enum(reduction)
    return _reduce(_torch.abs(x - t), reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared error below beta, absolute error above (PyTorch's smooth L1; beta=0 is L1)."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(smooth_l1_loss, (input, target, ),
            {'size_average': size_average, 'reduce': reduce, 'reduction': reduction, 'beta': beta})
    x, t, reduction = _loss_operands(input, target, size_average, reduce, reduction)
    enum = _reduction_enum(reduction)
    if beta == 0.0:
        return _reduce(_torch.abs(x - t), reduction)
    return _C.smooth_l1_loss(x, t, enum, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Huber loss: 0.5 * d**2 below delta, ``delta * (|d| - 0.5 * delta)`` above."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(huber_loss, (input, target, ),
            {'reduction': reduction, 'delta': delta, 'weight': weight})
    _warn_size(input, target)
    x, t = _broadcast(input, target)
    if weight is not None:
        raise NotImplementedError("huber_loss with weight is not supported by autograd_core")
    return _C.huber_loss(x, t, _reduction_enum(reduction), delta)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """-w * (t * log(x) + (1 - t) * log(1 - x)), logs clamped at -100 as PyTorch."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(binary_cross_entropy, (input, target, ),
            {'weight': weight, 'size_average': size_average, 'reduce': reduce,
             'reduction': reduction})
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = weight.expand(_broadcast_shapes(tuple(target.size()), tuple(weight.size())))
    return _C.binary_cross_entropy(input, target, weight, _reduction_enum(reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """binary_cross_entropy(sigmoid(input), target), computed stably."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(binary_cross_entropy_with_logits, (input, target, ),
            {'weight': weight, 'size_average': size_average, 'reduce': reduce,
             'reduction': reduction, 'pos_weight': pos_weight})
    reduction = _reduction(size_average, reduce, reduction)
    if not (target.size() == input.size()):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    return _C.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                               _reduction_enum(reduction))


def nll_loss(input: _Tensor, target: _Tensor, weight: "_Tensor | None" = None,
             size_average: bool | None = None, ignore_index: int = -100, reduce: bool | None = None,
             reduction: str = "mean") -> _Tensor:
    """Negative log likelihood of class indices (input holds log-probabilities)."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(nll_loss, (input, target, ),
            {'weight': weight, 'size_average': size_average, 'ignore_index': ignore_index,
             'reduce': reduce, 'reduction': reduction})
    reduction = _reduction(size_average, reduce, reduction)
    return _C.nll_loss(input, target, weight, _reduction_enum(reduction), ignore_index)


def cross_entropy(input: _Tensor, target: _Tensor, weight: "_Tensor | None" = None,
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> _Tensor:
    """log_softmax + nll_loss; the target holds class indices or class probabilities."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(cross_entropy, (input, target, ),
            {'weight': weight, 'size_average': size_average, 'ignore_index': ignore_index,
             'reduce': reduce, 'reduction': reduction, 'label_smoothing': label_smoothing})
    reduction = _reduction(size_average, reduce, reduction)
    return _C.cross_entropy(input, target, weight, _reduction_enum(reduction), ignore_index,
                            label_smoothing)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL divergence with input holding log-probabilities (target too if log_target)."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(kl_div, (input, target, ),
            {'size_average': size_average, 'reduce': reduce, 'reduction': reduction,
             'log_target': log_target})
    if size_average is not None or reduce is not None:
        reduction_enum = _legacy_get_string(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the support "
                "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
                "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
                "major release.", stacklevel=2)
        reduction_enum = "mean" if reduction == "batchmean" else reduction
    _reduction_enum(reduction_enum)
    input, target = _autocast_args("kl_div", input, target)
    if log_target:
        loss = _torch.exp(target) * (target - input)
    else:
        # xlogy(target, target): 0 where target == 0
        safe = _torch.where(target > 0, target, _torch.ones_like(target))
        loss = _torch.where(target > 0, target * _torch.log(safe), _torch.zeros_like(target)) - \
            target * input
    if reduction == "batchmean" and input.dim() != 0:
        return loss.sum() / input.size(0)
    return _reduce(loss, reduction_enum)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """Negative log likelihood of target ~ Poisson(exp(input)) (or Poisson(input))."""
    reduction = _reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    if log_input:
        loss = _torch.exp(input) - target * input
    else:
        loss = input - target * _torch.log(input + eps)
    if full:
        safe = _torch.where(target > 1, target, _torch.ones_like(target))
        stirling = safe * _torch.log(safe) - safe + 0.5 * _torch.log(2 * math.pi * safe)
        loss = loss + _torch.where(target > 1, stirling, _torch.zeros_like(target))
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """Negative log likelihood of target ~ N(input, var)."""
    if isinstance(var, (int, float)):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = _torch.full_like(input, var)
    if var.size() != input.size():
        if tuple(input.size())[:-1] == tuple(var.size()):
            var = var.unsqueeze(-1)
        elif tuple(input.size())[:-1] == tuple(var.size())[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    # clamp for stability without changing the gradient (PyTorch clamps under no_grad)
    var = var + (var.clamp_min(eps) - var).detach()
    loss = 0.5 * (_torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def _float_arg(x, fname, argname, pos):
    """x as PyTorch's parser reads a 'float' argument: a real number, or a 0-d tensor's
    value (a complex one read as a double: its real part, or the overflow error, Note
    [Complex Scalar arguments]); a complex number is its TypeError."""
    if isinstance(x, _Tensor) and x.dim() == 0:
        v = x.item()
        if isinstance(v, complex):
            if v.imag != 0:
                raise _value_overflow_error("double")
            v = v.real
        return v
    if isinstance(x, (int, float, np.integer, np.floating)):
        return x
    raise TypeError(f"{fname}(): argument '{argname}' (position {pos}) must be float, not "
                    f"{type(x).__name__}")


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """input where target == 1, max(0, margin - input) where target == -1."""
    reduction = _reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    margin = _float_arg(margin, "hinge_embedding_loss", "margin", 3)
    zeros = _torch.zeros_like(input)
    margin_clamp = (margin - input).clamp_min(0)
    output_margin = _torch.where(target != 1, margin_clamp, zeros)
    output_self = _torch.where(target != -1, input, zeros)
    return _reduce(output_margin + output_self, reduction)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    """max(0, -target * (input1 - input2) + margin)."""
    reduction = _reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    margin = _float_arg(margin, "margin_ranking_loss", "margin", 4)
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target * input))."""
    if (type(input) is not _Tensor or type(target) is not _Tensor) and \
            _has_torch_function(input, target):
        return _handle_torch_function(soft_margin_loss, (input, target, ),
            {'size_average': size_average, 'reduce': reduce, 'reduction': reduction})
    reduction = _reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    return _reduce(softplus(-target * input, 1.0, float("inf")), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """Per-class binary cross entropy on logits, averaged over classes."""
    reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    _reduction_enum(reduction)
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    """1 - cos(x1, x2) where target == 1, max(0, cos(x1, x2) - margin) where target == -1."""
    reduction = _reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1:
        if input1.dim() != 2 or input2.dim() != 2:
            raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with "
                               f"sizes {input1.size()} and {input2.size()}.")
    elif input1.dim() != 1 or input2.dim() != 1:
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with "
                           f"sizes {input1.size()} and {input2.size()}.")
    eps = 1e-12
    prod_sum = (input1 * input2).sum(targ_dim)
    mag1 = (input1 * input1).sum(targ_dim) + eps
    mag2 = (input2 * input2).sum(targ_dim) + eps
    cos = prod_sum / _torch.sqrt(mag1 * mag2)
    zeros = _torch.zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min(0)
    out = _torch.where(target == 1, pos, zeros) + _torch.where(target == -1, neg, zeros)
    return _reduce(out, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """sum_{j != y} max(0, margin - x[y] + x[j])**p (* weight[y]) / C per sample."""
    reduction = _reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    t = target.reshape(-1)
    c = x.size(1)
    x_y = x.gather(1, t.unsqueeze(1))
    z = (margin - x_y + x).clamp_min(0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight.index_select(0, t).unsqueeze(1)
    not_target = (_torch.arange(c).unsqueeze(0) != t.unsqueeze(1)).to(x.dtype)
    loss = (z * not_target).sum(1) / c
    if input.dim() < 2:
        loss = loss.reshape(target.shape)
    return _reduce(loss, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """sum over target classes j and non-target classes i of max(0, 1 - (x[j] - x[i])) / C;
    each row of target lists class indices, ended by the first -1."""
    reduction = _reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    x = input if input.dim() == 2 else input.reshape(1, -1)
    t = target if target.dim() == 2 else target.reshape(1, -1)
    if t.shape != x.shape:
        raise RuntimeError(f"inconsistent target size: {target.size()} for input of size: "
                           f"{input.size()}")
    c = x.size(1)
    tn = t.numpy()
    if ((tn < -1) | (tn >= c)).any():
        raise RuntimeError("argument #2 'target' is out of range")
    valid = np.cumprod(tn != -1, axis=1).astype(bool)          # (N, C) target slots in use
    idx = np.where(valid, tn, 0)
    is_target = np.zeros(tn.shape, dtype=bool)
    rows = np.nonzero(valid)[0]
    is_target[rows, idx[valid]] = True
    x_t = x.gather(1, _const(idx.astype(np.int64)))             # (N, C) scores of the targets
    hinge = (1 - (x_t.unsqueeze(2) - x.unsqueeze(1))).clamp_min(0)   # (N, slot, class)
    mask = _const((valid[:, :, None] & ~is_target[:, None, :]).astype(np.float64), x.dtype)
    loss = (hinge * mask).sum((1, 2)) / c
    if input.dim() < 2:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


def _triplet_margin(anchor, positive, negative, dist, margin, swap, reduction):
    """max(0, margin + dist(anchor, positive) - dist(anchor, negative)), reduced (swap: the
    negative's distance is the smaller of its distances to the anchor and the positive)."""
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(
            f"The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D "
            "inputs")
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = _torch.minimum(d_neg, dist(positive, negative))
    return _reduce((margin + d_pos - d_neg).clamp_min(0), reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """max(0, margin + d(a, p) - d(a, n)) with the p-norm pairwise distance."""
    reduction = _reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _triplet_margin(anchor, positive, negative,
                           lambda a, b: pairwise_distance(a, b, p, eps), margin, swap, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """max(0, margin + d(a, p) - d(a, n)) with any distance function."""
    _reduction_enum(reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dist = distance_function if distance_function is not None else pairwise_distance
    return _triplet_margin(anchor, positive, negative, dist, margin, swap, reduction)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """Connectionist temporal classification loss: the forward (alpha) recursion over time
    steps in log space, vectorised over batch and extended-label positions."""
    _reduction_enum(reduction)
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)           # (T, N, C)
    T, N, C = lp.shape
    il = np.asarray(input_lengths.tolist() if isinstance(input_lengths, _torch.Tensor)
                    else input_lengths, dtype=np.int64).reshape(-1)
    tl = np.asarray(target_lengths.tolist() if isinstance(target_lengths, _torch.Tensor)
                    else target_lengths, dtype=np.int64).reshape(-1)
    tg = targets.numpy() if isinstance(targets, _torch.Tensor) else np.asarray(targets)
    if not batched:
        tg = tg.reshape(1, -1)
    S = int(tl.max()) if tl.size else 0
    # targets as (N, S) rows, from a padded 2-D tensor or a 1-D concatenation
    slot = np.arange(max(S, 1))
    used = slot[None, :] < tl[:, None]
    if tg.ndim == 2:
        src = tg[:, :max(S, 1)] if tg.shape[1] >= max(S, 1) else np.pad(
            tg, ((0, 0), (0, max(S, 1) - tg.shape[1])))
    else:
        off = np.concatenate([[0], np.cumsum(tl)])[:-1]
        src = tg[np.minimum(off[:, None] + slot[None, :], max(tg.size - 1, 0))] if tg.size \
            else np.zeros((N, max(S, 1)), dtype=np.int64)
    rows = np.where(used, src, blank).astype(np.int64)
    L = 2 * max(S, 1) + 1
    ext = np.full((N, L), blank, dtype=np.int64)               # blank, l1, blank, l2, ...
    ext[:, 1::2] = rows
    # alpha may come from s - 2 where the label differs from the one two back
    skip = np.zeros((N, L), dtype=bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    ext_len = 2 * tl + 1
    pos = np.arange(L)
    # a finite stand-in for log(0): -inf would make logsumexp's gradient NaN where no
    # alignment reaches a position yet
    neg_inf = -1e30
    dt = lp.dtype
    emit = lp.gather(2, _const(np.broadcast_to(ext, (T, N, L)).copy()))   # (T, N, L)
    init = np.full((N, L), neg_inf)
    init[:, 0] = 0.0
    init[:, 1] = np.where(tl > 0, 0.0, neg_inf)
    alpha = emit[0] + _const(init, dt)
    skip_t = _const(np.where(skip, 0.0, neg_inf), dt)
    pad = _const(np.full((N, 1), neg_inf), dt)
    pad2 = _const(np.full((N, 2), neg_inf), dt)
    for t in range(1, T):
        a1 = _torch.cat([pad, alpha[:, :-1]], 1)
        a2 = _torch.cat([pad2, alpha[:, :-2]], 1) + skip_t
        new = _torch.logsumexp(_torch.stack([alpha, a1, a2]), 0) + emit[t]
        # sequences already finished keep their alpha
        done = _const((t >= il)[:, None].repeat(L, 1))
        alpha = _torch.where(done, alpha, new)
    last = _const(np.where((pos[None, :] == ext_len[:, None] - 1)
                           | (pos[None, :] == ext_len[:, None] - 2) & (tl[:, None] > 0),
                           0.0, neg_inf), dt)
    nll = -_torch.logsumexp(alpha + last, 1)
    # PyTorch's backward returns exp(log_probs) - (alignment posterior) for t < input_length,
    # i.e. the gradient with respect to the logits of a log_softmax; add the value-free term
    # whose gradient is exp(log_probs) so that ours is the same
    steps = _const((np.arange(T)[:, None] < il[None, :])[:, :, None].astype(np.float64), dt)
    lp_const = lp.detach()
    nll = nll + (_torch.exp(lp_const) * (lp - lp_const) * steps).sum((0, 2))
    impossible = nll.detach() > 1e29
    if zero_infinity:
        nll = _torch.where(impossible, _torch.zeros_like(nll), nll)
    else:
        nll = _torch.where(impossible, _torch.full_like(nll, float("inf")), nll)
    if reduction == "mean":
        return (nll / _const(np.maximum(tl, 1), dt)).mean()
    if reduction == "sum":
        return nll.sum()
    return nll if batched else nll.reshape(())


# ------------------------------------------------------------------ linear and shape

def bilinear(input1, input2, weight, bias=None):
    """y[..., k] = sum_ij input1[..., i] weight[k, i, j] input2[..., j] + bias[k]."""
    out = _torch.einsum("...i,kij,...j->...k", input1, weight, input2)
    if bias is not None:
        out = out + bias
    return out


def one_hot(tensor: _Tensor, num_classes: int = -1) -> _Tensor:
    """Class indices (int64) -> one-hot rows of length num_classes (int64)."""
    if tensor.dtype != _torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() > 0:
        if bool((tensor < 0).any()):
            raise RuntimeError("Class values must be non-negative.")
        if num_classes == -1:
            num_classes = int(tensor.max()) + 1
        elif bool((tensor >= num_classes).any()):
            raise RuntimeError("Class values must be smaller than num_classes.")
    elif num_classes == -1:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    # PyTorch's: ones scattered into zeros, so the result is contiguous whatever the
    # layout of tensor (a comparison would follow it)
    out = _torch.zeros(tuple(tensor.shape) + (num_classes,), dtype=_torch.int64)
    return out.scatter_(-1, tensor.unsqueeze(-1), 1)


# the compiled op of the linalg family (PdistBackward0), as torch.pdist
pdist = _linalg_ops.TORCH_FUNCTIONS["pdist"]


# ------------------------------------------------------------------ padding

_PAD_OPS = {"reflect": _C.reflection_pad, "replicate": _C.replication_pad,
            "circular": _C._pad_circular}


def pad(input, pad, mode="constant", value=None):
    """Pad the last len(pad) // 2 dims: (left, right, top, bottom, ...)."""
    if value is not None:
        # PyTorch's pad declares value a float (constant_pad_nd's Scalar takes a complex)
        value = _float_arg(value, "pad", "value", 4)
    pad = tuple(int(p) for p in pad)
    nd = input.dim()
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * nd:
        raise RuntimeError(
            f"Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(pad)} and input of dimension {nd}")
    if mode == "constant":
        return _C.constant_pad_nd(input, pad, 0 if value is None else value)
    op = _PAD_OPS.get(mode)
    if op is None:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if not ((len(pad) == 2 and nd in (2, 3)) or (len(pad) == 4 and nd in (3, 4))
            or (len(pad) == 6 and nd in (4, 5))):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {nd}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    return op(input, pad)


# ------------------------------------------------------------------ normalisation

def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p over dim, eps)."""
    if out is not None:   # PyTorch's out= path: the division into out
        denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
        return _torch.div(input, denom, out=out)
    return _C.normalize(input, p, dim, eps)


def _verify_batch_size(size):
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalise each channel (dim 1) by batch statistics (training, updating the running
    ones in place) or by the running statistics (eval)."""
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    return _C.batch_norm(input, running_mean, running_var, weight, bias, bool(training),
                         momentum, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Normalise each (sample, channel) over its spatial dims: PyTorch's composition, a
    batch_norm of the input seen as one sample of N*C channels (weight, bias and running
    statistics repeated N times; the running ones then averaged back over the batch)."""
    if use_input_stats:
        size = input.size()
        prod = 1
        for s in size[2:]:
            prod *= s
        if prod == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input "
                             f"size {size}")
    n, c = input.shape[0], input.shape[1]
    x = input.contiguous().view((1, n * c) + tuple(input.shape[2:]))
    w = weight.repeat(n) if weight is not None else None
    b = bias.repeat(n) if bias is not None else None
    rm = running_mean.repeat(n) if running_mean is not None else None
    rv = running_var.repeat(n) if running_var is not None else None
    out = _C.batch_norm(x, rm, rv, w, b, bool(use_input_stats), momentum, eps)
    if use_input_stats:
        with _torch.no_grad():
            if running_mean is not None:
                running_mean.copy_(rm.view(n, c).mean(0))
            if running_var is not None:
                running_var.copy_(rv.view(n, c).mean(0))
    return out.view(input.shape)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalise each group of channels over (channels of the group, spatial dims):
    PyTorch's native_group_norm (its NativeGroupNormBackward0)."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, "
                           f"but got input of shape {_shape_str(input.shape)} and num_groups="
                           f"{num_groups}")
    hxw = 1
    for s in input.shape[2:]:
        hxw *= s
    # (PyTorch's: the input copied into its suggested memory format, which the result keeps)
    x = input.contiguous(memory_format=_suggest_memory_format(input))
    return _torch.native_group_norm(x, weight, bias, n, c, hxw, num_groups, eps)[0]


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha * mean of squares over `size` neighbouring channels) ** beta."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input "
                         f"(got {dim} dimensions)")
    if input.numel() == 0:
        return input
    sq = input * input
    c = input.size(1)
    pad_shape_lo = list(input.shape)
    pad_shape_lo[1] = size // 2
    pad_shape_hi = list(input.shape)
    pad_shape_hi[1] = (size - 1) // 2
    padded = _torch.cat([_torch.zeros(*pad_shape_lo, dtype=input.dtype), sq,
                         _torch.zeros(*pad_shape_hi, dtype=input.dtype)], 1)
    acc = padded.narrow(1, 0, c)
    for i in range(1, size):
        acc = acc + padded.narrow(1, i, c)
    div = (acc / size * alpha + k) ** beta
    return input / div


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input / sqrt(mean(input**2 over the last dims) + eps) * weight."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    nd = len(normalized_shape)
    if tuple(input.shape[input.dim() - nd:]) != normalized_shape or input.dim() < nd:
        raise RuntimeError(f"Given normalized_shape={_shape_str(normalized_shape)}, expected "
                           f"input with shape [*{', '.join(str(s) for s in normalized_shape)}], "
                           f"but got input of size{_shape_str(input.shape)}")
    # PyTorch's composite: half and bfloat16 inputs compute in float (their opmath type,
    # whose epsilon is the default eps) and the result is cast back
    reduced = input.dtype in (_torch.float16, _torch.bfloat16)
    x = input.to(_torch.float32) if reduced else input
    if eps is None:
        eps = _finfo_eps(x.dtype)
    dims = tuple(range(input.dim() - nd, input.dim()))
    out = x * _torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps) if nd else x
    if weight is not None:
        out = out * weight
    return out.to(input.dtype) if reduced else out


def _finfo_eps(dtype):
    return 1.1920928955078125e-07 if dtype == _torch.float32 else 2.220446049250313e-16


# ------------------------------------------------------------------ embedding

def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """Rows of weight selected by the integer input."""
    if (type(input) is not _Tensor or type(weight) is not _Tensor) and \
            _has_torch_function(input, weight):
        return _handle_torch_function(embedding, (input, weight, ),
            {'padding_idx': padding_idx, 'max_norm': max_norm, 'norm_type': norm_type,
             'scale_grad_by_freq': scale_grad_by_freq, 'sparse': sparse})
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        input = input.contiguous()
        with _torch.no_grad():
            _torch.embedding_renorm_(weight, input, max_norm, norm_type)
    if sparse:
        from autograd_core import _sparse   # Note [Sparse tensors]
        return _sparse.embedding_sparse(input, weight, padding_idx, scale_grad_by_freq)
    return _torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    """Sum, mean or max of the embeddings of each bag (rows of a 2-D input, or the slices of
    a 1-D input that offsets start)."""
    if (type(input) is not _Tensor or type(weight) is not _Tensor) and \
            _has_torch_function(input, weight):
        return _handle_torch_function(embedding_bag, (input, weight, ),
            {'offsets': offsets, 'max_norm': max_norm, 'norm_type': norm_type,
             'scale_grad_by_freq': scale_grad_by_freq, 'mode': mode, 'sparse': sparse,
             'per_sample_weights': per_sample_weights, 'include_last_offset': include_last_offset,
             'padding_idx': padding_idx})
    if weight.dtype == _torch.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is "
                         f"not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if not weight.dim() == 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            type_str = "<unknown>"
            type_str = str(type(offsets))
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found offsets "
                             f"of type {type_str}")
        b, length = input.shape
        flat = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
        starts = np.arange(b, dtype=np.int64) * length
        n_total = b * length
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        flat = input
        starts = np.asarray(offsets.tolist(), dtype=np.int64)
        n_total = input.size(0)
        if starts.size and starts[0] != 0:   # (PyTorch's message prints the 0-d tensor)
            from autograd_core._tensor_str import cpp_str
            raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the "
                               "mini-batch has to start from position 0. However, got "
                               + cpp_str(offsets[0]))
        if starts.size and starts[-1] > n_total:
            raise RuntimeError(f"offsets[-1] can not be greater than input's length {n_total} "
                               f"but got offsets[-1] of {int(starts[-1])}")
        if include_last_offset:
            starts = starts[:-1]
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        embedding(flat, weight, max_norm=max_norm, norm_type=norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    if padding_idx is not None:
        if padding_idx < 0:
            padding_idx += weight.size(0)
    nb = len(starts)
    ends = np.append(starts[1:], n_total) if nb else starts
    if include_last_offset and input.dim() == 1:
        ends = np.asarray(offsets.tolist(), dtype=np.int64)[1:]
    lengths = np.maximum(ends - starts, 0)
    lmax = int(lengths.max()) if nb else 0
    slot = np.arange(max(lmax, 1))
    pos = starts[:, None] + slot[None, :]                       # (B, Lmax) positions in flat
    valid = slot[None, :] < lengths[:, None]
    pos = np.where(valid, pos, 0)
    ids = np.asarray(flat.tolist(), dtype=np.int64).reshape(-1)
    if padding_idx is not None and ids.size:
        valid = valid & (ids[pos] != padding_idx)
    if sparse:
        if mode == "max":
            raise ValueError("max mode does not support sparse weights")
        from autograd_core import _sparse   # Note [Sparse tensors]
        members = np.nonzero(valid)
        positions = pos[members]
        counts = valid.sum(1)
        scale = (np.ones(len(positions)) if mode == "sum"
                 else 1.0 / np.maximum(counts, 1)[members[0]])
        if per_sample_weights is not None:
            scale = scale * _sparse._np(per_sample_weights).reshape(-1)[positions]

        def run(w, psw):
            return embedding_bag(input, w, offsets, None, norm_type, scale_grad_by_freq, mode,
                                 False, psw, include_last_offset, padding_idx)
        return _sparse.embedding_bag_sparse(weight, per_sample_weights, run, ids[positions],
                                            positions, members[0], scale)
    d = weight.size(1)
    pos_t = _const(pos.reshape(-1).astype(np.int64))
    rows = embedding(flat.index_select(0, pos_t) if ids.size else flat, weight)
    rows = rows.reshape(nb, max(lmax, 1), d) if ids.size else _torch.zeros(nb, max(lmax, 1), d,
                                                                           dtype=weight.dtype)
    mask = _const(valid[:, :, None].astype(np.float64), weight.dtype)
    counts = valid.sum(1)
    if mode == "max":
        neg = _const(np.where(valid, 0.0, -np.inf)[:, :, None], weight.dtype)
        out = (rows + neg).amax(1)
        return _torch.where(_const(counts[:, None] > 0), out, _torch.zeros_like(out))
    if per_sample_weights is not None:
        w = per_sample_weights.index_select(0, pos_t).reshape(nb, max(lmax, 1), 1)
        rows = rows * w
    out = (rows * mask).sum(1)
    if mode == "mean":
        out = out / _const(np.maximum(counts, 1)[:, None].astype(np.float64), weight.dtype)
    return out


# ------------------------------------------------------------------ dropout

def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input: _Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> _Tensor:
    """Zero elements with probability p and scale the others by 1 / (1 - p); the mask is
    PyTorch's for the same seed (noise.bernoulli_(1 - p))."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(dropout, (input, ),
            {'p': p, 'training': training, 'inplace': inplace})
    _check_p(p)
    return _torch.dropout_(input, p, training) if inplace else _torch.dropout(input, p, training)


def _feature_dropout(input, p, training, inplace, batched):
    """feature_dropout(_), an unbatched input given a batch dim of 1 around it: in place,
    input.unsqueeze_(0) and squeeze_(0) of the result (PyTorch's F.dropout1d/3d: the nodes
    UnsqueezeBackward1 and SqueezeBackward4, input itself returned)."""
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    if inplace:
        result = _torch.feature_dropout_(input, p, training)
    else:
        result = _torch.feature_dropout(input, p, training)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def _warn_feature_dims(name, nd, spatial):
    warnings.warn(f"{name}: Received a {nd}-D input to {name}, which is deprecated and will "
                  "result in an error in a future release. To retain the behavior and silence "
                  f"this warning, please use dropout instead. Note that {name} exists to provide "
                  f"channel-wise dropout on inputs with {spatial} spatial dimensions, a channel "
                  f"dimension, and an optional batch dimension (i.e. {spatial + 1}D or "
                  f"{spatial + 2}D inputs).", stacklevel=3)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, L) or unbatched (C, L) input."""
    _check_p(p)
    nd = input.dim()
    if nd not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {nd}D input. "
                           "Note that dropout1d exists to provide channel-wise dropout on inputs "
                           "with 1 spatial dimension, a channel dimension, and an optional batch "
                           "dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout(input, p, training, inplace, nd == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, H, W) input. As PyTorch's, a 3-D input is taken as
    (N, C, L), not unbatched (pytorch/pytorch#77081), with a warning; other ranks warn."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(dropout2d, (input, ),
            {'p': p, 'training': training, 'inplace': inplace})
    _check_p(p)
    nd = input.dim()
    if nd not in (3, 4):
        _warn_feature_dims("dropout2d", nd, 2)
    if nd == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
                      "1D dropout behavior is desired - input is interpreted as shape (N, C, L), "
                      "where C is the channel dim. This behavior will change in a future release "
                      "to interpret the input as one without a batch dimension, i.e. shape "
                      "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch "
                      "to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace, True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, D, H, W) or unbatched (C, D, H, W) input; other
    ranks warn and are taken as unbatched, as PyTorch's."""
    _check_p(p)
    nd = input.dim()
    if nd not in (4, 5):
        _warn_feature_dims("dropout3d", nd, 3)
    return _feature_dropout(input, p, training, inplace, nd == 5)


_SELU_SATURATION = _SELU_ALPHA * _SELU_SCALE   # -selu(-inf): 1.7580993408473766 exactly


def _alpha_dropout_impl(input, p, training, feature, inplace):
    """PyTorch's _dropout_impl for the alpha dropouts: input * noise + b, in place
    input.mul_(noise).add_(b) (its nodes MulBackward0 then AddBackward0, as PyTorch's)."""
    _check_p(p)
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        zero = _torch.zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    # PyTorch's noise: empty_like(input), or (N, C, 1, ...) for whole channels, then
    # bernoulli_(1 - p) (the draws of dropout's noise)
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        noise_shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
        noise = _torch.empty(noise_shape, dtype=input.dtype)
    else:
        noise = _torch.empty_like(input)
    noise.bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_SELU_SATURATION * _SELU_SATURATION * p + 1) * (1 - p))
    b = noise.add(-1).mul_(_SELU_SATURATION * a).add_(_SELU_SATURATION * a * p)
    noise.mul_(a)
    if inplace:
        return input.mul_(noise).add_(b)
    return (input * noise).add_(b)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout that keeps a SELU network's mean and variance (dropped units take the
    saturation value, then an affine correction)."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(alpha_dropout, (input, ),
            {'p': p, 'training': training, 'inplace': inplace})
    return _alpha_dropout_impl(input, p, training, False, inplace)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """alpha_dropout of whole channels."""
    return _alpha_dropout_impl(input, p, training, True, inplace)


# ------------------------------------------------------------------ convolution

conv3d = _nn_ops.conv3d


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose (gradient) of conv1d: (N, Cin, L) -> (N, Cout, L_out), weight
    (Cin, Cout/groups, K)."""
    return _nn_ops.conv_transpose(1, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose (gradient) of conv2d."""
    return _nn_ops.conv_transpose(2, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose (gradient) of conv3d."""
    return _nn_ops.conv_transpose(3, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


# ------------------------------------------------------------------ pooling

def _pool_out_size(length, k, s, p, d, ceil_mode):
    num = length + 2 * p - d * (k - 1) - 1
    out = (num + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= length + p:
        out -= 1
    return out


def _gather_windows(x, nsp, idx_list, valid_list):
    """Windows of the last nsp dims of x: per dim i, idx_list[i] (O_i, K_i) holds input
    positions (valid where valid_list[i]). Returns the gathered values (lead, O..., K),
    the flat input index of each (O..., K) and its validity (O..., K)."""
    spatial = tuple(x.shape[-nsp:])
    outs = tuple(ix.shape[0] for ix in idx_list)
    ks = tuple(ix.shape[1] for ix in idx_list)
    flat = np.zeros(outs + ks, dtype=np.int64)
    valid = np.ones(outs + ks, dtype=bool)
    for i, (ix, vx) in enumerate(zip(idx_list, valid_list)):
        shape = [1] * (2 * nsp)
        shape[i] = outs[i]
        shape[nsp + i] = ks[i]
        flat = flat * spatial[i] + np.where(vx, ix, 0).reshape(shape)
        valid = valid & vx.reshape(shape)
    ktot = int(np.prod(ks))
    flat = flat.reshape(outs + (ktot,))
    valid = valid.reshape(outs + (ktot,))
    lead = tuple(x.shape[:-nsp])
    g = x.reshape(lead + (-1,)).index_select(len(lead), _const(flat.reshape(-1)))
    return g.reshape(lead + outs + (ktot,)), flat, valid


def _pool_windows(x, nsp, kernel, stride, padding, dilation, ceil_mode):
    idx_list, valid_list = [], []
    for i in range(nsp):
        length = x.shape[x.dim() - nsp + i]
        o = _pool_out_size(length, kernel[i], stride[i], padding[i], dilation[i], ceil_mode)
        if o <= 0:
            raise RuntimeError(f"Given input size: ({'x'.join(str(s) for s in x.shape[1:])}). "
                               f"Calculated output size: ({'x'.join('0' for _ in range(nsp))}). "
                               "Output size is too small")
        ix = (np.arange(o)[:, None] * stride[i] - padding[i]
              + np.arange(kernel[i])[None, :] * dilation[i])
        idx_list.append(ix)
        valid_list.append((ix >= 0) & (ix < length))
    return _gather_windows(x, nsp, idx_list, valid_list)


def _max_over_windows(g, flat, valid, return_indices):
    neg = _const(np.where(valid, 0.0, -np.inf), g.dtype)
    values, arg = (g + neg).max(-1)
    if not return_indices:
        return values
    flat_t = _const(flat).expand(tuple(g.shape))
    return values, flat_t.gather(-1, arg.unsqueeze(-1)).squeeze(-1)


def _check_pool_input(name, input, nsp):
    """The input's rank as PyTorch's pools check it, in each one's words (max_pool1d's
    also refuses an empty non-batch dim)."""
    nd = input.dim()
    if name == "max_pool1d":
        if nd not in (2, 3) or 0 in input.shape[nd - 2:]:
            raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                               f"dim batch size for input, but got:{_shape_str(input.shape)}")
    elif nd not in (nsp + 1, nsp + 2):
        if name == "avg_pool1d":
            raise RuntimeError(f"Expected 2 to 3 dimensions, but got {nd}-dimensional tensor for "
                               "argument #1 'self' (while checking arguments for avg_pool1d)")
        raise RuntimeError(f"non-empty {nsp + 1}D or {nsp + 2}D (batch mode) tensor expected for "
                           "input")


def _pool_params(nsp, kernel_size, stride, padding):
    """Kernel, stride (the kernel's when None or []) and padding as nsp-tuples, checked."""
    kernel = _tuple(kernel_size, nsp)
    stride = _tuple(stride, nsp) if stride is not None and stride != [] else kernel
    padding = _tuple(padding, nsp)
    for k, p in zip(kernel, padding):
        if p > k // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation=1")
    for s in stride:
        if s <= 0:
            raise RuntimeError("stride should be greater than zero, but got stride"
                               f"{_shape_str(stride)}")
    return kernel, stride, padding


def _max_pool(nsp, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    _check_pool_input(f"max_pool{nsp}d", input, nsp)
    k, s, p = _pool_params(nsp, kernel_size, stride, padding)
    g, flat, valid = _pool_windows(input, nsp, k, s, p, _tuple(dilation, nsp), ceil_mode)
    return _max_over_windows(g, flat, valid, return_indices)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool1d that also returns the index of each maximum."""
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The largest value of each (dilated) window of a (N, C, L) input: PyTorch's
    max_pool2d_with_indices of the input with a height of 1."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(max_pool1d, (input, ),
            {'kernel_size': kernel_size, 'stride': stride, 'padding': padding,
             'dilation': dilation, 'ceil_mode': ceil_mode, 'return_indices': return_indices})
    _check_pool_input("max_pool1d", input, 1)
    k, s, p = _pool_params(1, kernel_size, stride, padding)
    d = _tuple(dilation, 1)
    out, idx = _C.max_pool2d_with_indices(input.unsqueeze(-2), (1, k[0]), (1, s[0]),
                                          (0, p[0]), (1, d[0]), ceil_mode)
    return (out.squeeze(-2), idx.squeeze(-2)) if return_indices else out.squeeze(-2)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool2d that also returns the flat (H*W) index of each maximum."""
    return _C.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation,
                                      ceil_mode)


def max_pool2d(input: _Tensor, kernel_size: int | tuple[int, ...],
               stride: int | tuple[int, ...] | None = None, padding: int | tuple[int, ...] = 0,
               dilation: int | tuple[int, ...] = 1, ceil_mode: bool = False,
               return_indices: bool = False):
    """The largest value of each (dilated) window; with return_indices, (values, indices)."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(max_pool2d, (input, ),
            {'kernel_size': kernel_size, 'stride': stride, 'padding': padding,
             'dilation': dilation, 'ceil_mode': ceil_mode, 'return_indices': return_indices})
    if return_indices:
        return _C.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation,
                                          ceil_mode)
    return _torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool3d that also returns the flat (D*H*W) index of each maximum."""
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The largest value of each (dilated) window of a (N, C, D, H, W) input."""
    _check_pool_input("max_pool3d", input, 3)
    k, s, p = _pool_params(3, kernel_size, stride, padding)
    out, idx = _C.max_pool3d_with_indices(input, k, s, p, _tuple(dilation, 3),
                                          ceil_mode)
    return (out, idx) if return_indices else out


def _avg_pool(nsp, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override):
    k, s, p = _pool_params(nsp, kernel_size, stride, padding)
    g, flat, valid = _pool_windows(input, nsp, k, s, p, (1,) * nsp, ceil_mode)
    total = (g * _const(valid.astype(np.float64), g.dtype)).sum(-1)
    if divisor_override:
        return total / divisor_override
    # PyTorch's divisor: the window clipped to the padded input (count_include_pad) or to the
    # input itself
    div = np.ones(total.shape[-nsp:], dtype=np.float64)
    for i in range(nsp):
        length = input.shape[input.dim() - nsp + i]
        o = total.shape[total.dim() - nsp + i]
        start = np.arange(o) * s[i] - p[i]
        end = np.minimum(start + k[i], length + p[i])
        size_pad = end - start
        size_in = np.minimum(end, length) - np.maximum(start, 0)
        shape = [1] * nsp
        shape[i] = o
        div = div * (size_pad if count_include_pad else size_in).reshape(shape)
    return total / _const(div, total.dtype)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """The mean of each window of a (N, C, L) input: PyTorch's avg_pool2d of the input with a
    height of 1."""
    _check_pool_input("avg_pool1d", input, 1)
    k, s, p = _pool_params(1, kernel_size, stride, padding)
    return _C.avg_pool2d(input.unsqueeze(-2), (1, k[0]), (1, s[0]), (0, p[0]),
                         ceil_mode, count_include_pad).squeeze(-2)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each window of a (N, C, D, H, W) input."""
    _check_pool_input("avg_pool3d", input, 3)
    return _avg_pool(3, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)


def _adaptive_check(input, nsp, output_size, name):
    """output_size as an nsp-tuple, after PyTorch's checks of the input and it."""
    if isinstance(output_size, int):
        output_size = (output_size,) * nsp
    output_size = tuple(output_size)
    if len(output_size) != nsp:
        raise RuntimeError(f"{name}: internal error: output_size.size() must be {nsp}")
    if input.dim() not in (nsp + 1, nsp + 2):
        raise RuntimeError(f"{name}(): Expected {nsp + 1}D or {nsp + 2}D tensor, but got "
                           f"{_shape_str(input.shape)}")
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {_shape_str(input.shape)} with "
                               f"dimension {i} being empty")
    return output_size


def _adaptive_windows(input, nsp, output_size, name):
    output_size = _adaptive_check(input, nsp, output_size, name)
    idx_list, valid_list, counts = [], [], []
    for i in range(nsp):
        length = input.shape[input.dim() - nsp + i]
        o = output_size[i] if output_size[i] is not None else length
        oi = np.arange(o)
        start = (oi * length) // o
        end = -((-(oi + 1) * length) // o)
        kmax = int((end - start).max()) if o else 1
        ix = start[:, None] + np.arange(kmax)[None, :]
        idx_list.append(ix)
        valid_list.append(ix < end[:, None])
        counts.append(end - start)
    return _gather_windows(input, nsp, idx_list, valid_list), counts


def _adaptive_avg(input, nsp, output_size, name):
    (g, flat, valid), counts = _adaptive_windows(input, nsp, output_size, name)
    total = (g * _const(valid.astype(np.float64), g.dtype)).sum(-1)
    div = np.ones([len(c) for c in counts])
    for i, c in enumerate(counts):
        shape = [1] * nsp
        shape[i] = len(c)
        div = div * c.reshape(shape)
    return total / _const(div, total.dtype)


def adaptive_avg_pool1d(input, output_size):
    """Mean over PyTorch's adaptive windows (floor(i*L/O) .. ceil((i+1)*L/O)): PyTorch's
    adaptive_avg_pool2d of the input with a height of 1."""
    size = _adaptive_check(input, 1, output_size, "adaptive_avg_pool1d")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1,) + size).squeeze(-2)


def adaptive_avg_pool2d(input, output_size):
    """2-D adaptive average pooling (None in output_size keeps the input size): the mean
    over the last two dims for a 1x1 output, else _adaptive_avg_pool2d, as PyTorch."""
    if type(input) is not _Tensor and _has_torch_function(input):
        return _handle_torch_function(adaptive_avg_pool2d, (input, ), {'output_size': output_size})
    size = _adaptive_check(input, 2, output_size, "adaptive_avg_pool2d")
    size = tuple(input.shape[input.dim() - 2 + i] if v is None else v for i, v in enumerate(size))
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return _torch._adaptive_avg_pool2d(input, size)


def adaptive_avg_pool3d(input, output_size):
    """3-D adaptive average pooling."""
    return _adaptive_avg(input, 3, output_size, "adaptive_avg_pool3d")


def _adaptive_max(input, nsp, output_size, return_indices, name):
    if nsp == 1:    # PyTorch's: adaptive_max_pool2d of the input with a height of 1
        size = _adaptive_check(input, 1, output_size, name)
        out, idx = _C.adaptive_max_pool2d(input.unsqueeze(-2), (1,) + size)
        out, idx = out.squeeze(-2), idx.squeeze(-2)
        return (out, idx) if return_indices else out
    if nsp == 2:
        size = _adaptive_check(input, 2, output_size, name)
        out, idx = _C.adaptive_max_pool2d(input, size)
        return (out, idx) if return_indices else out
    (g, flat, valid), _ = _adaptive_windows(input, nsp, output_size, name)
    return _max_over_windows(g, flat, valid, return_indices)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(input, 1, output_size, True, "adaptive_max_pool1d")


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max over PyTorch's adaptive windows (with return_indices, also their indices)."""
    return _adaptive_max(input, 1, output_size, return_indices, "adaptive_max_pool1d")


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(input, 2, output_size, True, "adaptive_max_pool2d")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """2-D adaptive max pooling."""
    return _adaptive_max(input, 2, output_size, return_indices, "adaptive_max_pool2d")


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(input, 3, output_size, True, "adaptive_max_pool3d")


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """3-D adaptive max pooling."""
    return _adaptive_max(input, 3, output_size, return_indices, "adaptive_max_pool3d")


def _lp_pool(nsp, input, norm_type, kernel_size, stride, ceil_mode):
    k = _tuple(kernel_size, nsp)
    maxpool = {1: max_pool1d, 2: max_pool2d, 3: max_pool3d}[nsp]
    if norm_type == float("inf"):
        return maxpool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -maxpool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    avg = {1: avg_pool1d, 2: avg_pool2d, 3: avg_pool3d}[nsp]
    out = avg(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (_torch.sign(out) * relu(_torch.abs(out))).mul(int(np.prod(k))).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum of x**p over each window) ** (1/p)."""
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """2-D power-average pooling."""
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """3-D power-average pooling."""
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    nsp = len(kernel_size)
    default = [(input.size(input.dim() - nsp + d) - 1) * stride[d] + kernel_size[d]
               - 2 * padding[d] for d in range(nsp)]
    if output_size is None:
        return default
    output_size = list(output_size)
    if len(output_size) == nsp + 2:
        output_size = output_size[2:]
    if len(output_size) != nsp:
        raise ValueError(f"output_size should be a sequence containing {nsp} or {nsp + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d in range(nsp):
        lo, hi = default[d] - stride[d], default[d] + stride[d]
        if not lo < output_size[d] < hi:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {lo} '
                             f"and {hi})")
    return output_size


def _max_unpool(nsp, input, indices, kernel_size, stride, padding, output_size):
    k = _tuple(kernel_size, nsp)
    s = _tuple(stride, nsp) if stride is not None else k
    p = _tuple(padding, nsp)
    size = [int(v) for v in _unpool_output_size(input, k, s, p, output_size)]
    lead = tuple(input.shape[:-nsp])
    total = int(np.prod(size))
    src = input.reshape(lead + (-1,))
    idx = indices.reshape(lead + (-1,))
    out = _torch.zeros(*(lead + (total,)), dtype=input.dtype).scatter(len(lead), idx, src)
    return out.reshape(lead + tuple(size))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Put each value back at its max_pool1d index; zeros elsewhere."""
    return _max_unpool(1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Put each value back at its max_pool2d index; zeros elsewhere."""
    return _max_unpool(2, input, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Put each value back at its max_pool3d index; zeros elsewhere."""
    return _max_unpool(3, input, indices, kernel_size, stride, padding, output_size)


# ------------------------------------------------------------------ fractional max pooling

def _fractional_intervals(samples, in_size, out_size, pool, np_dtype):
    """PyTorch's pseudo-random window starts: (N, C) samples -> (N, C, out_size) starts."""
    samples = samples.astype(np_dtype)
    starts = np.zeros(samples.shape + (out_size,), dtype=np.int64)
    if out_size > 1:
        alpha = np_dtype(in_size - pool) / np_dtype(out_size - 1)
        i = np.arange(out_size).astype(np_dtype)
        starts = ((i + samples[..., None]) * alpha).astype(np.int64) - \
            (samples[..., None] * alpha).astype(np.int64)
    if out_size > 0:
        starts[..., out_size - 1] = in_size - pool
    return starts


def _fractional_max_pool(nsp, name, input, kernel_size, output_size, output_ratio,
                         return_indices, _random_samples):
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    kernel = _tuple(kernel_size, nsp)
    spatial = tuple(input.shape[-nsp:])
    if output_size is None:
        if nsp == 2 and isinstance(output_ratio, (list, tuple)) and len(output_ratio) > 2:
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single "
                             "Int or tuple of Ints.")
        ratio = _tuple(output_ratio, nsp)
        output_size = [int(spatial[i] * ratio[i]) for i in range(nsp)]
    output_size = list(_tuple(output_size, nsp))
    unbatched = input.dim() == nsp + 1
    x = input.unsqueeze(0) if unbatched else input
    n, c = x.shape[0], x.shape[1]
    if _random_samples is None:
        _random_samples = _torch.rand(n, c, nsp, dtype=input.dtype)
    if _random_samples.dtype != input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    samples = np.asarray(_random_samples.tolist(), dtype=np.float64)
    np_dtype = np.float64 if input.dtype == _torch.float64 else np.float32
    for i in range(nsp):
        if output_size[i] + kernel[i] - 1 > spatial[i]:
            raise RuntimeError(f"{name}(): pool size {kernel[i]} too large relative to input "
                               f"size {spatial[i]} and output size {output_size[i]}")
    # sample slot of each spatial dim: 2-D uses (w, h), 3-D uses (t, h, w)
    slots = [1, 0] if nsp == 2 else [0, 1, 2]
    flat = np.zeros((n, c) + tuple(output_size) + tuple(kernel), dtype=np.int64)
    for i in range(nsp):
        starts = _fractional_intervals(samples[..., slots[i]], spatial[i], output_size[i],
                                       kernel[i], np_dtype)
        pos = starts[..., :, None] + np.arange(kernel[i])            # (N, C, O_i, K_i)
        shape = [n, c] + [1] * (2 * nsp)
        shape[2 + i] = output_size[i]
        shape[2 + nsp + i] = kernel[i]
        flat = flat * spatial[i] + pos.reshape(shape)
    ktot = int(np.prod(kernel))
    flat = flat.reshape(n, c, -1, ktot)
    idx_t = _const(flat.reshape(n, c, -1))
    g = x.reshape(n, c, -1).gather(2, idx_t).reshape((n, c) + tuple(output_size) + (ktot,))
    values, arg = g.max(-1)
    if unbatched:
        values = values.squeeze(0)
    if not return_indices:
        return values
    indices = _const(flat.reshape((n, c) + tuple(output_size) + (ktot,))).gather(
        -1, arg.unsqueeze(-1)).squeeze(-1)
    return values, (indices.squeeze(0) if unbatched else indices)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Max pooling over pseudo-random, overlapping windows (Graham's fractional pooling);
    _random_samples (N, C, 2) in [0, 1) fix the windows."""
    return _fractional_max_pool(2, "fractional_max_pool2d", input, kernel_size, output_size,
                                output_ratio, return_indices, _random_samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """3-D fractional max pooling; _random_samples (N, C, 3)."""
    return _fractional_max_pool(3, "fractional_max_pool3d", input, kernel_size, output_size,
                                output_ratio, return_indices, _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


# ------------------------------------------------------------------ unfold, fold

def _im2col_params_check(kernel_size, dilation, padding, stride, order):
    """PyTorch's im2col / col2im parameter checks, in the order each makes them."""
    params = {"kernel": _pair(kernel_size), "dilation": _pair(dilation),
              "padding": _pair(padding), "stride": _pair(stride)}
    for name in order:
        h, w = params[name]
        if name == "padding":
            if h < 0 or w < 0:
                raise RuntimeError(f"padding should be non-negative, but got pad_height: {h} "
                                   f"pad_width: {w}")
        elif h <= 0 or w <= 0:
            what = "kernel size" if name == "kernel" else name
            raise RuntimeError(f"{what} should be greater than zero, but got {name}_height: {h} "
                               f"{name}_width: {w}")


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of a (N, C, H, W) input as columns (N, C*KH*KW, L) (im2col)."""
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported "
                           f"(got {input.dim()}D)")
    _im2col_params_check(kernel_size, dilation, padding, stride,
                         ("kernel", "dilation", "padding", "stride"))
    return _C.im2col(input, _pair(kernel_size), _pair(dilation), _pair(padding),
                     _pair(stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum columns (N, C*KH*KW, L) back into a (N, C, H, W) tensor (col2im)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are "
                           f"supported (got {input.dim()}D)")
    _im2col_params_check(kernel_size, dilation, padding, stride,
                         ("kernel", "stride", "dilation", "padding"))
    return _C.col2im(input, _pair(output_size), _pair(kernel_size), _pair(dilation),
                     _pair(padding), _pair(stride))


# ------------------------------------------------------------------ resampling

def _source_scale(in_size, out_size, align_corners, scale, np_dtype):
    """PyTorch's area_pixel_compute_scale."""
    if align_corners:
        return np_dtype((in_size - 1) / (out_size - 1)) if out_size > 1 else np_dtype(0)
    if scale is not None and scale > 0:
        return np_dtype(1.0 / scale)
    return np_dtype(in_size / out_size)


def _linear_taps(in_size, out_size, align_corners, scale, np_dtype, cubic=False):
    s = _source_scale(in_size, out_size, align_corners, scale, np_dtype)
    dst = np.arange(out_size).astype(np_dtype)
    if align_corners:
        src = dst * s
    else:
        src = (dst + np_dtype(0.5)) * s - np_dtype(0.5)
        if not cubic:
            src = np.maximum(src, np_dtype(0))
    return src


def _interp_linear_dim(x, ax, out_size, align_corners, scale, np_dtype):
    in_size = x.size(ax)
    src = _linear_taps(in_size, out_size, align_corners, scale, np_dtype)
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    i1 = np.minimum(i0 + 1, in_size - 1)
    lam = (src - i0).astype(np_dtype)
    shape = [1] * x.dim()
    shape[ax] = out_size
    lam_t = _const(lam.reshape(shape))
    a = x.index_select(ax, _const(i0))
    b = x.index_select(ax, _const(i1))
    return a * (1 - lam_t) + b * lam_t


def _interp_cubic_dim(x, ax, out_size, align_corners, scale, np_dtype):
    in_size = x.size(ax)
    src = _linear_taps(in_size, out_size, align_corners, scale, np_dtype, cubic=True)
    f = np.floor(src)
    t = (src - f).astype(np_dtype)
    f = f.astype(np.int64)
    shape = [1] * x.dim()
    shape[ax] = out_size
    out = None
    for j, w in zip(range(-1, 3), _nn_ops._cubic_coefficients(t)):
        idx = np.clip(f + j, 0, in_size - 1)
        term = x.index_select(ax, _const(idx)) * _const(w.astype(np_dtype).reshape(shape))
        out = term if out is None else out + term
    return out


def _interp_nearest_dim(x, ax, out_size, scale, exact):
    in_size = x.size(ax)
    s = np.float32(1.0 / scale) if scale is not None and scale > 0 else \
        np.float32(in_size / out_size)
    dst = np.arange(out_size).astype(np.float32)
    src = np.floor((dst + np.float32(0.5)) * s if exact else dst * s).astype(np.int64)
    return x.index_select(ax, _const(np.minimum(src, in_size - 1)))


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize the spatial dims (nearest, nearest-exact, (bi/tri)linear, bicubic, area), one
    dimension after the other."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    f"Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size of "
                    f"{size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.")
            if not all(isinstance(s, (int, np.integer)) for s in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] "
                                "or Tuple[int, int, int], but got size with types "
                                f"{[type(s) for s in size]}")
            output_size = list(size)
        else:
            output_size = [size] * dim
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    f"Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. Please provide input tensor in (N, C, "
                    "d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = list(scale_factor)
        else:
            scale_factors = [scale_factor] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size = [int(math.floor(float(input.size(i + 2)) * scale_factors[i]))
                       for i in range(dim)]
        scale_factors = None
    if antialias:
        if not (mode in ("bilinear", "bicubic") and input.dim() == 4):
            raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                             "modes and requires a 4-D tensor as input")
        raise NotImplementedError("interpolate(antialias=True) is not supported by autograd_core")
    needs = {"linear": 3, "bilinear": 4, "trilinear": 5, "bicubic": 4}
    if mode in needs and input.dim() != needs[mode] and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                  f"{needs[mode]}D input")
    if input.dim() not in (3, 4, 5) or mode not in ("nearest", "nearest-exact", "area", "linear",
                                                    "bilinear", "trilinear", "bicubic"):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})")
    if output_size is None:
        output_size = [int(math.floor(float(input.size(i + 2)) * scale_factors[i]))
                       for i in range(dim)]
    scales = scale_factors if scale_factors is not None else [None] * dim
    if mode != "area":   # (PyTorch's upsample kernels' shape check; area pools adaptively)
        ins = list(input.shape[2:])
        if min(ins + output_size) <= 0:
            names = ("D", "H", "W")[3 - dim:]
            i_s = ", ".join(f"{n}: {v}" for n, v in zip(names, ins))
            o_s = ", ".join(f"{n}: {v}" for n, v in zip(names, output_size))
            raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                               f"({i_s}) {'and ' if dim == 1 else ''}output ({o_s})")
    if mode == "area":
        return {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d,
                3: adaptive_avg_pool3d}[dim](input, output_size)
    np_dtype = np.float64 if input.dtype == _torch.float64 else np.float32
    x = input
    for i in range(dim):
        ax = 2 + i
        if mode in ("nearest", "nearest-exact"):
            x = _interp_nearest_dim(x, ax, output_size[i], scales[i], mode == "nearest-exact")
        elif mode == "bicubic":
            x = _interp_cubic_dim(x, ax, output_size[i], align_corners, scales[i], np_dtype)
        else:
            x = _interp_linear_dim(x, ax, output_size[i], align_corners, scales[i], np_dtype)
    # PyTorch's upsample kernels write the input's suggested memory format (channels-last
    # in, channels-last out); x is index_select's or arithmetic's new result (under vmap
    # both are batched stand-ins, whose layout the batch dim decides)
    if not (isinstance(x, _torch.Tensor) and isinstance(input, _torch.Tensor)):
        return x
    return _relayout_result(x, input, True)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of interpolate."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='nearest')."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode='bilinear', align_corners=True)."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ------------------------------------------------------------------ attention

def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(q k^T * scale + mask) v, with a boolean (True = attend) or additive mask
    (or a ``torch.nn.attention.bias.CausalBias``), on the kernel PyTorch's CPU selection
    picks among those ``torch.nn.attention.sdpa_kernel`` allows.

    >>> import autograd_core as torch
    >>> q = torch.ones(1, 1, 2, 4)
    >>> torch.nn.functional.scaled_dot_product_attention(q, q, q).shape
    autograd_core.Size([1, 1, 2, 4])
    """
    if ((type(query) is not _Tensor and _overrides_tf(query))
            or (type(key) is not _Tensor and _overrides_tf(key))
            or (type(value) is not _Tensor and _overrides_tf(value))
            or (attn_mask is not None and type(attn_mask) is not _Tensor
                and _overrides_tf(attn_mask))):
        return _handle_torch_function(scaled_dot_product_attention, (query, key, value), dict(
            attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal, scale=scale,
            enable_gqa=enable_gqa))
    query, key, value, attn_mask = _autocast_args(
        "scaled_dot_product_attention", query, key, value, attn_mask)
    _nn_ops.check_sdpa_input(query, key, value, attn_mask)
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    bias = None
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                               "set when is_causal=True")
        keep = np.tril(np.ones((L, S), dtype=bool))
        bias = _const(np.where(keep, 0.0, -np.inf), query.dtype)
    if attn_mask is not None:
        if attn_mask.dtype == _torch.bool:
            bias = _torch.where(attn_mask, _torch.zeros((), dtype=query.dtype),
                                _torch.full((), float("-inf"), dtype=query.dtype))
        else:
            bias = attn_mask
    if _sdpa_backend(query, key, value, attn_mask, dropout_p, enable_gqa) == "flash":
        # PyTorch's kernel, one node (Note [CPU flash attention] in
        # ops/_nn_attention.pxi); a boolean mask goes in as the float mask made above
        # (convert_boolean_attn_mask)
        return _nn_ops.scaled_dot_product_flash_attention_cpu(
            query, key, value, None if attn_mask is None else bias, is_causal, scale)
    # the math path
    if enable_gqa:
        reps = query.size(-3) // key.size(-3)
        if reps > 1:
            key = _repeat_heads(key, reps)
            value = _repeat_heads(value, reps)
    return _nn_ops.scaled_dot_product_attention_math(query, key, value, bias, dropout_p,
                                                     scale_factor)


def _sdpa_backend(query, key, value, attn_mask, dropout_p, enable_gqa):
    """"flash" or "math": the kernel PyTorch's CPU selection runs among the allowed ones
    (Note [SDPA backend flags], backends/cuda.py): flash when allowed and the inputs
    suit it, else math when allowed, else its errors."""
    flags = _backends_cuda._sdp
    if not (flags["flash"] or flags["math"]):
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. "
                           "This is likely due to turning off both the math kernel and the "
                           "fused kernels.")
    refusal = _cpu_flash_attention(query, key, value, attn_mask, dropout_p, enable_gqa)
    if flags["flash"] and refusal is None:
        return "flash"
    if flags["math"] or refusal == _EMPTY_SEQUENCE:
        # (an empty sequence gives the same empty result on either path)
        return "math"
    warnings.warn("Flash attention kernel not used because:")
    if refusal:
        warnings.warn(refusal)
    raise RuntimeError("No available kernel.  Aborting execution.")


_EMPTY_SEQUENCE = "empty sequence"


def _cpu_flash_attention(query, key, value, attn_mask, dropout_p, enable_gqa):
    """None when PyTorch runs this scaled_dot_product_attention call as its CPU flash
    attention (sdp_utils_cpp's use_flash_attention_cpp), else why not: the message its
    debug mode warns with, in its order of checks ("" where it says nothing). Its
    result is laid out as empty_like(query) (Note [Composite output layout]); its math
    fallback's result, the last matmul's, is contiguous."""
    if dropout_p > 0.0:
        return "Both fused kernels do not support non-zero dropout."
    if query.dim() != 4 or key.dim() != 4 or value.dim() != 4:
        return (f"All fused kernels requires query, key and value to be 4 dimensional, but got "
                f"Query dim: {query.dim()}, Key dim: {key.dim()}, Value dim: {value.dim()} "
                f"instead.")
    B, Hq, L, E = query.shape
    sizes = f"{list(query.shape)}, Key{{}} {list(key.shape)}, Value{{}} {list(value.shape)}"
    broadcast = (" instead. To broadcast dense inputs, try using unsqueeze and expand_to "
                 "before passing them into the kernel.")
    if key.size(0) != B or value.size(0) != B:
        return ("For dense inputs, both fused kernels require query, key and value to have the "
                "same batch_size. Query.sizes(): " + sizes.format(".sizes():", ".sizes():")
                + broadcast)
    if key.size(1) != value.size(1) or (
            key.size(1) != Hq and not (enable_gqa and Hq % key.size(1) == 0)):
        return ("For dense input, both fused kernels require query, key and value to have the "
                "same num_heads. Query.sizes(): " + sizes.format(" sizes():", " sizes():")
                + broadcast)
    S = key.size(2)
    if attn_mask is not None:
        if attn_mask.requires_grad:
            return ""
        if attn_mask.dim() not in (2, 4):
            return ("Please use the following attn mask shapes: 2d - ({Q_seq_len, 1}  x "
                    "{KV_seq_len, 1}); 4d - ({Batch, 1} x {Num_heads, 1} x {Q_seq_len, 1}  x "
                    "{KV_seq_len, 1})")
        if attn_mask.size(-2) not in (L, 1) or attn_mask.size(-1) not in (S, 1):
            return ""
        if attn_mask.dim() == 4 and (attn_mask.size(0) not in (B, 1)
                                     or attn_mask.size(1) not in (Hq, 1)):
            return ""
    if key.size(-1) != E or value.size(-1) != E:
        return (f"Flash attention requires q,k,v to have the same last dimension. Got "
                f"Query.size(-1): {E}, Key.size(-1): {key.size(-1)}, Value.size(-1): "
                f"{value.size(-1)} instead.")
    if L == 0 or S == 0 or E == 0:
        return _EMPTY_SEQUENCE
    if any(t.size(-1) != 1 and t.stride(-1) != 1 for t in (query, key, value)):
        return (f"All fused kernels require the last dimension of the input to have stride 1. "
                f"Got Query.stride(-1): {query.stride(-1)}, Key.stride(-1): {key.stride(-1)}, "
                f"Value.stride(-1): {value.stride(-1)}")
    if not query.is_floating_point():    # (its kernel's float, double, half, bfloat16)
        from autograd_core._core.dtype import CPP_NAMES
        q, k, v = (CPP_NAMES[t.dtype.name] for t in (query, key, value))
        return (f"Expected query, key and value to all be of dtype: {{Float, Double, BFloat16, "
                f"Half}}. Got Query dtype: {q}, Key dtype: {k}, and Value dtype: {v} instead.")
    return None


def _repeat_heads(x, reps):
    """repeat_interleave along the heads dim (-3)."""
    shape = tuple(x.shape)
    x = x.unsqueeze(-3).expand(shape[:-2] + (reps,) + shape[-2:])
    return x.reshape(shape[:-3] + (shape[-3] * reps,) + shape[-2:])


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError(f"For batched (3-D) `query`, expected `key` and `value` to be 3-D "
                                 f"but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError(f"For batched (3-D) `query`, expected `key_padding_mask` to be "
                                 f"`None` or 2-D but found {key_padding_mask.dim()}-D tensor "
                                 "instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For batched (3-D) `query`, expected `attn_mask` to be `None`, "
                                 f"2-D or 3-D but found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key` and `value` to be "
                                 f"2-D but found {key.dim()}-D and {value.dim()}-D tensors "
                                 "respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key_padding_mask` to be "
                                 f"`None` or 1-D but found {key_padding_mask.dim()}-D tensor "
                                 "instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError(f"For unbatched (2-D) `query`, expected `attn_mask` to be "
                                     f"`None`, 2-D or 3-D but found {attn_mask.dim()}-D tensor "
                                     "instead")
            if attn_mask.dim() == 3:
                expected = (num_heads, query.shape[0], key.shape[0])
                if tuple(attn_mask.shape) != expected:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                         f"{attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                         f"{query.dim()}-D query tensor")


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A boolean mask (True = masked out) as an additive float mask of target_type."""
    if mask is None:
        return None
    is_float = mask.is_floating_point()
    if mask.dtype != _torch.bool and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use "
                      "same type for both instead.", stacklevel=3)
    if not is_float:
        mask = _torch.where(mask, _torch.full((), float("-inf"), dtype=target_type),
                            _torch.zeros((), dtype=target_type))
    return mask


def _none_or_dtype(input):
    if input is None:
        return None
    if isinstance(input, _torch.Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _pad_last(t):
    return pad(t, (0, 1))


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """MultiheadAttention's computation on (L, N, E) sequences (or unbatched (L, E))."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       _none_or_dtype(attn_mask), "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to create "
                           "this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got "
                             f"{embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        w_q, w_k, w_v = in_proj_weight.chunk(3)
        b_q = b_k = b_v = None
        if in_proj_bias is not None:
            b_q, b_k, b_v = in_proj_bias.chunk(3)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is "
                                     "None")
        w_q, w_k, w_v = q_proj_weight, k_proj_weight, v_proj_weight
        b_q = b_k = b_v = None
        if in_proj_bias is not None:
            b_q, b_k, b_v = in_proj_bias.chunk(3)
    q = linear(query, w_q, b_q)
    k = linear(key, w_k, b_k)
    v = linear(value, w_v, b_v)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                                   f"should be {(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but "
                                   f"should be {(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = _torch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.reshape(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_k is None \
        else static_k
    v = v.reshape(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_v is None \
        else static_v
    if add_zero_attn:
        zshape = (bsz * num_heads, 1, head_dim)
        k = _torch.cat([k, _torch.zeros(zshape, dtype=k.dtype)], 1)
        v = _torch.cat([v, _torch.zeros(zshape, dtype=v.dtype)], 1)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        kpm = key_padding_mask.reshape(bsz, 1, 1, src_len).expand(
            bsz, num_heads, 1, src_len).reshape(bsz * num_heads, 1, src_len)
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    if not training:
        dropout_p = 0.0
    if need_weights:
        scores = _torch.bmm(q * math.sqrt(1.0 / float(head_dim)), k.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = softmax(scores, -1)
        if dropout_p > 0.0:
            weights = dropout(weights, dropout_p)
        out = _torch.bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, -1)
        weights = weights.reshape(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(1)
        if not is_batched:
            out = out.squeeze(1)
            weights = weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.reshape(bsz, num_heads, -1, src_len)
    q = q.reshape(bsz, num_heads, tgt_len, head_dim)
    k = k.reshape(bsz, num_heads, src_len, head_dim)
    v = v.reshape(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, -1)
    if not is_batched:
        out = out.squeeze(1)
    return out, None


# ------------------------------------------------------------------ linear + cross entropy

def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction="mean", ignore_index=None, label_smoothing=0.0,
                         options=None):
    """cross_entropy(linear(input, W, b), target) with W of shape ``(C, *out_features, in)``;
    ``options`` (chunking) is validated and otherwise ignored: one unchunked computation."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.dim()}")
    num_batches = tuple(input.shape[:-1])
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(f"expected equal input and linear_weight last dimensions "
                           f"(in_features), got {input.shape[-1]} and {linear_weight.shape[-1]}, "
                           "respectively")
    num_classes = linear_weight.shape[0]
    out_features = tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes,) + out_features:
        raise RuntimeError(f"expected linear_bias shape {(num_classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if out_features and not num_batches:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape "
                           f"{tuple(linear_weight.shape)} requires batched input, (N, "
                           f"{in_features}), got unbatched input with shape "
                           f"{tuple(input.shape)}")
    logits_shape = num_batches + (num_classes,) + out_features
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = ignore_index if ignore_index is not None else -100
    rows = num_classes * int(np.prod(out_features)) if out_features else num_classes
    w = linear_weight.reshape(rows, in_features)
    b = linear_bias.reshape(rows) if linear_bias is not None else None
    logits = linear(input, w, b).reshape(logits_shape)
    return cross_entropy(logits, target, weight=weight, reduction=reduction,
                         ignore_index=ignore_index, label_smoothing=label_smoothing)


# ------------------------------------------------------------------ affine_grid, grid_sample

_ALIGN_CORNERS_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details.")


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of a batch of affine maps theta
    (N x 2 x 3, or N x 3 x 4) for an output of the given size, for grid_sample.

    >>> import autograd_core as torch
    >>> import autograd_core.nn.functional as F
    >>> F.affine_grid(torch.tensor([[[1., 0., 0.], [0., 1., 0.]]]), [1, 1, 1, 2], False)
    tensor([[[[-0.5000,  0.0000],
              [ 0.5000,  0.0000]]]])
    """
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                             f"{size}. Got {theta.shape}.")
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                             f"{size}. Got {theta.shape}.")
        spatial_size = size[-3:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}.")
    if align_corners and min(spatial_size) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
            "align_corners=True. This is not an intended use case of affine_grid. See the "
            "documentation of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _torch.affine_grid_generator(theta, list(size), align_corners)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """input (N, C, H, W) (or (N, C, D, H, W)) sampled at the points of grid (N, H_out,
    W_out, 2) (or (..., 3)), whose (x, y[, z]) lie in [-1, 1]; mode 'bilinear', 'nearest'
    or 'bicubic' (4-D input only), padding_mode 'zeros', 'border' or 'reflection'.

    >>> import autograd_core as torch
    >>> import autograd_core.nn.functional as F
    >>> img = torch.arange(4.).reshape(1, 1, 2, 2)
    >>> F.grid_sample(img, torch.tensor([[[[0., 0.]]]]), align_corners=False)
    tensor([[[[1.5000]]]])
    """
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    mode_enum = ("bilinear", "nearest", "bicubic").index(mode)
    padding_mode_enum = ("zeros", "border", "reflection").index(padding_mode)
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    return _torch.grid_sampler(input, grid, mode_enum, padding_mode_enum, align_corners)


# ------------------------------------------------------------------ torch.* entry points
# PyTorch exposes the aten ops beneath these functions as torch.<name>, with aten's
# signatures: a loss's reduction an int (0 'none', 1 'mean', 2 'sum'; omitted, 'none', as
# PyTorch's Python binding of these ops defaults it), dropout's flag
# `train`, batch/instance norm's weight and bias before the running statistics, no legacy
# size_average/reduce. autograd_core/__init__.py exports _TORCH_FUNCTIONS as torch.*.

_REDUCTION_NAMES = ("none", "mean", "sum")


def _reduction_name(fname, reduction):
    if isinstance(reduction, bool) or not isinstance(reduction, int):
        raise TypeError(f"{fname}(): argument 'reduction' must be int, not "
                        f"{type(reduction).__name__}")
    if not 0 <= reduction < 3:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTION_NAMES[reduction]


def _t_adaptive_max_pool1d(input, output_size):
    """(values, indices) of adaptive max pooling over the last dim."""
    return tuple(adaptive_max_pool1d_with_indices(input, output_size))


def _t_alpha_dropout(input, p, train):
    """alpha_dropout(input, p, train)."""
    return alpha_dropout(input, p, train)


def _t_alpha_dropout_(input, p, train):
    """alpha_dropout(input, p, train, inplace=True)."""
    return alpha_dropout(input, p, train, True)


def _t_feature_alpha_dropout(input, p, train):
    """feature_alpha_dropout(input, p, train)."""
    return feature_alpha_dropout(input, p, train)


def _t_feature_alpha_dropout_(input, p, train):
    """feature_alpha_dropout(input, p, train, inplace=True)."""
    return feature_alpha_dropout(input, p, train, True)


def _t_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
                  cudnn_enabled):
    """F.batch_norm with aten's argument order (weight and bias first)."""
    return batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def _t_instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                     eps, cudnn_enabled):
    """F.instance_norm with aten's argument order."""
    return instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                         momentum, eps)


def _t_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """F.group_norm (cudnn_enabled is ignored on the CPU)."""
    return group_norm(input, num_groups, weight, bias, eps)


def _t_celu(input, alpha=1.0):
    """F.celu without inplace."""
    return celu(input, alpha)


def _t_selu(input):
    """F.selu without inplace."""
    return selu(input)


def _t_rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """F.rrelu without inplace."""
    return rrelu(input, lower, upper, training)


def _t_rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """F.rrelu in place."""
    return rrelu(input, lower, upper, training, True)


def _t_cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    """F.cosine_embedding_loss with an int reduction."""
    return cosine_embedding_loss(input1, input2, target, margin,
                                 reduction=_reduction_name("cosine_embedding_loss", reduction))


def _t_hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    """F.hinge_embedding_loss with an int reduction."""
    return hinge_embedding_loss(input, target, margin,
                                reduction=_reduction_name("hinge_embedding_loss", reduction))


def _t_margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    """F.margin_ranking_loss with an int reduction."""
    return margin_ranking_loss(input1, input2, target, margin,
                               reduction=_reduction_name("margin_ranking_loss", reduction))


def _t_kl_div(input, target, reduction=0, *, log_target=False):
    """F.kl_div with an int reduction (1 is 'mean', without F's warning about it)."""
    name = _reduction_name("kl_div", reduction)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return kl_div(input, target, reduction=name, log_target=log_target)


def _t_poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """F.poisson_nll_loss with an int reduction (every argument given)."""
    return poisson_nll_loss(input, target, log_input, full, eps=eps,
                            reduction=_reduction_name("poisson_nll_loss", reduction))


def _t_triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False,
                           reduction=0):
    """F.triplet_margin_loss with an int reduction."""
    return triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                               reduction=_reduction_name("triplet_margin_loss", reduction))


def _t_max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """F.max_pool1d without return_indices (an empty stride: the kernel size)."""
    return max_pool1d(input, kernel_size, stride if stride not in ((), []) else None, padding,
                      dilation, ceil_mode)


def _t_max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """F.max_pool3d without return_indices (an empty stride: the kernel size)."""
    return max_pool3d(input, kernel_size, stride if stride not in ((), []) else None, padding,
                      dilation, ceil_mode)


def _t_convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                   groups):
    """The general convolution: conv{1,2,3}d or, transposed, conv_transpose{1,2,3}d, by
    weight's number of dims."""
    nd = weight.dim() - 2
    if nd not in (1, 2, 3):
        raise RuntimeError(f"Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
                           f"input of size: {_shape_str(input.shape)}")
    if transposed:
        return _nn_ops.conv_transpose(nd, input, weight, bias, stride, padding, output_padding, groups,
                               dilation)
    conv = (conv1d, conv2d, conv3d)[nd - 1]
    return conv(input, weight, bias, stride, padding, dilation, groups)


def _t_native_layer_norm(input, normalized_shape, weight, bias, eps):
    """(layer_norm(...), mean, 1 / sqrt(var + eps)), the statistics over the normalised
    dims, kept as size-1 dims."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    out = layer_norm(input, list(normalized_shape), weight, bias, eps)
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    with _torch.no_grad():  # PyTorch's statistics outputs are not differentiable
        mean = input.mean(dims, keepdim=True) if dims else input.clone()
        var = input.var(dims, unbiased=False, keepdim=True) if dims else input * 0
        rstd = _torch.rsqrt(var + eps)
    return out, mean, rstd


def _t_native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """(batch_norm(...), save_mean, save_invstd): the batch statistics in training, empty
    tensors in evaluation."""
    if training:
        dims = [0] + list(range(2, input.dim()))
        with _torch.no_grad():  # PyTorch's statistics outputs are not differentiable
            mean = input.mean(dims)
            invstd = _torch.rsqrt(input.var(dims, unbiased=False) + eps)
    else:
        mean = _torch.empty(0, dtype=input.dtype)
        invstd = _torch.empty(0, dtype=input.dtype)
    out = batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    return out, mean, invstd


def _t_native_dropout(input, p, train):
    """(output, mask): dropout and the bool mask of the kept elements (all True when not
    training)."""
    if train is None or train:
        if p == 1:
            mask = _torch.zeros(input.shape, dtype=_torch.bool)
            return input * mask, mask
        mask = _torch.rand_like(input) >= p
        return input * mask * (1.0 / (1 - p)), mask
    return input.clone(), _torch.ones(input.shape, dtype=_torch.bool)


def _t_rnn_cell(activation, input, hx, w_ih, w_hh, b_ih, b_hh):
    return activation(linear(hx, w_hh, b_hh) + linear(input, w_ih, b_ih))


def _t_rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One Elman RNN step: tanh(hx W_hh^T + b_hh + input W_ih^T + b_ih)."""
    return _t_rnn_cell(_torch.tanh, input, hx, w_ih, w_hh, b_ih, b_hh)


def _t_rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One Elman RNN step with relu."""
    return _t_rnn_cell(_torch.relu, input, hx, w_ih, w_hh, b_ih, b_hh)


def _t_gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step (gates r|z|n), as PyTorch composes it."""
    i_r, i_z, i_n = linear(input, w_ih, b_ih).chunk(3, 1)
    h_r, h_z, h_n = linear(hx, w_hh, b_hh).chunk(3, 1)
    reset_gate = (h_r + i_r).sigmoid()
    input_gate = (h_z + i_z).sigmoid()
    new_gate = (i_n + h_n * reset_gate).tanh()
    return (hx - new_gate) * input_gate + new_gate


def _t_lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step (gates i|f|g|o): (h, c)."""
    h, c = hx
    gates = linear(h, w_hh, b_hh) + linear(input, w_ih, b_ih)
    i, f, g, o = gates.chunk(4, 1)
    cy = f.sigmoid() * c + i.sigmoid() * g.tanh()
    hy = o.sigmoid() * cy.tanh()
    return hy, cy


def _t_rnn(name, cell, input, hx, params, has_biases, num_layers, dropout, train,
           bidirectional, batch_first):
    """The multi-layer (bidirectional) recurrence of torch.rnn_tanh & co over cells: params
    per layer and direction w_ih, w_hh (, b_ih, b_hh); hx (layers * directions, B, H),
    for LSTM the pair [h0, c0]. Returns (output, h_n) or, for LSTM, (output, h_n, c_n)."""
    lstm = name == "lstm"
    if input.dim() != 3:
        raise RuntimeError(f"{name}: expected input of 3 dimensions (a batch of sequences), "
                           f"got {input.dim()}")
    x = input.transpose(0, 1) if batch_first else input
    ndir = 2 if bidirectional else 1
    stride = 4 if has_biases else 2
    params = list(params)
    if len(params) != num_layers * ndir * stride:
        raise RuntimeError(f"{name}: expected {num_layers * ndir * stride} parameters, got "
                           f"{len(params)}")
    h0, c0 = (hx[0], hx[1]) if lstm else (hx, None)
    steps = x.size(0)
    h_n, c_n = [], []
    layer_input = x
    for layer in range(num_layers):
        outputs = []
        for direction in range(ndir):
            k = layer * ndir + direction
            p = params[k * stride:(k + 1) * stride]
            b_ih, b_hh = (p[2], p[3]) if has_biases else (None, None)
            h, c = h0[k], (c0[k] if lstm else None)
            out = [None] * steps
            for t in (range(steps - 1, -1, -1) if direction else range(steps)):
                if lstm:
                    h, c = cell(layer_input[t], (h, c), p[0], p[1], b_ih, b_hh)
                else:
                    h = cell(layer_input[t], h, p[0], p[1], b_ih, b_hh)
                out[t] = h
            outputs.append(_torch.stack(out))
            h_n.append(h)
            c_n.append(c)
        layer_input = _torch.cat(outputs, -1) if ndir == 2 else outputs[0]
        if dropout and train and layer < num_layers - 1:
            layer_input = globals()["dropout"](layer_input, dropout, True)
    output = layer_input.transpose(0, 1) if batch_first else layer_input
    if lstm:
        return output, _torch.stack(h_n), _torch.stack(c_n)
    return output, _torch.stack(h_n)


def _t_rnn_tanh(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                batch_first):
    """A multi-layer Elman RNN with tanh over a sequence: (output, h_n)."""
    return _t_rnn("rnn_tanh", _t_rnn_tanh_cell, input, hx, params, has_biases, num_layers,
                  dropout, train, bidirectional, batch_first)


def _t_rnn_relu(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                batch_first):
    """A multi-layer Elman RNN with relu over a sequence: (output, h_n)."""
    return _t_rnn("rnn_relu", _t_rnn_relu_cell, input, hx, params, has_biases, num_layers,
                  dropout, train, bidirectional, batch_first)


def _t_gru(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
           batch_first):
    """A multi-layer GRU over a sequence: (output, h_n)."""
    return _t_rnn("gru", _t_gru_cell, input, hx, params, has_biases, num_layers, dropout,
                  train, bidirectional, batch_first)


def _t_lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
            batch_first):
    """A multi-layer LSTM over a sequence: (output, h_n, c_n)."""
    return _t_rnn("lstm", _t_lstm_cell, input, hx, params, has_biases, num_layers, dropout,
                  train, bidirectional, batch_first)


_TORCH_FUNCTIONS = {
    "adaptive_avg_pool1d": adaptive_avg_pool1d,
    "adaptive_max_pool1d": _t_adaptive_max_pool1d,
    "alpha_dropout": _t_alpha_dropout,
    "alpha_dropout_": _t_alpha_dropout_,
    "avg_pool1d": avg_pool1d,
    "batch_norm": _t_batch_norm,
    "bilinear": bilinear,
    "celu": _t_celu,
    "conv3d": conv3d,
    "conv_transpose1d": conv_transpose1d,
    "conv_transpose2d": conv_transpose2d,
    "conv_transpose3d": conv_transpose3d,
    "convolution": _t_convolution,
    "cosine_embedding_loss": _t_cosine_embedding_loss,
    "feature_alpha_dropout": _t_feature_alpha_dropout,
    "feature_alpha_dropout_": _t_feature_alpha_dropout_,
    "group_norm": _t_group_norm,
    "gru_cell": _t_gru_cell,
    "hinge_embedding_loss": _t_hinge_embedding_loss,
    "instance_norm": _t_instance_norm,
    "kl_div": _t_kl_div,
    "lstm_cell": _t_lstm_cell,
    "margin_ranking_loss": _t_margin_ranking_loss,
    "max_pool1d": _t_max_pool1d,
    "max_pool3d": _t_max_pool3d,
    "native_batch_norm": _t_native_batch_norm,
    "native_dropout": _t_native_dropout,
    "native_layer_norm": _t_native_layer_norm,
    "poisson_nll_loss": _t_poisson_nll_loss,
    "rms_norm": rms_norm,
    "gru": _t_gru,
    "lstm": _t_lstm,
    "rnn_relu": _t_rnn_relu,
    "rnn_tanh": _t_rnn_tanh,
    "rnn_relu_cell": _t_rnn_relu_cell,
    "rnn_tanh_cell": _t_rnn_tanh_cell,
    "rrelu": _t_rrelu,
    "rrelu_": _t_rrelu_,
    "selu": _t_selu,
    "triplet_margin_loss": _t_triplet_margin_loss,
}
for _name, _fn in _TORCH_FUNCTIONS.items():
    if _fn.__name__.startswith("_t_"):
        _fn.__name__ = _fn.__qualname__ = _name
del _name, _fn
