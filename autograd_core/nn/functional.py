"""PyTorch's ``torch.nn.functional`` over autograd_core's compiled nn ops.

Each function is either the generated wrapper of its table entry (ops/derivatives.yaml,
section nn, ``variants: functional``) or a thin Python function calling specific
compiled ops: only argument handling lives here, as in PyTorch's own functional.py
(legacy ``size_average``/``reduce`` flags, reduction names, the implicit softmax dim,
size warnings, embedding's padding_idx, ``inplace=`` flags, pad modes).

>>> import autograd_core as torch
>>> import autograd_core.nn.functional as F
>>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> loss = F.cross_entropy(x, torch.tensor([0, 1]))
>>> loss.backward()
>>> x.grad
tensor([[-0.3655,  0.3655],
        [ 0.1345, -0.1345]])
"""
import warnings

import autograd_core as _torch
from autograd_core.ops import nn as _nn_ops

_C = _nn_ops.NN_FUNCTIONAL     # the compiled functions of the nn family, by name
# every one is reachable here (as torch._C._nn's are); the thin functions below replace
# those whose Python signature differs (inplace=, reduction names, legacy flags)
globals().update(_C)

__all__ = [
    "relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "elu", "elu_", "celu", "celu_",
    "selu", "selu_", "gelu", "silu", "softplus", "hardtanh", "hardtanh_", "sigmoid", "tanh",
    "softmax", "log_softmax", "softmin", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "nll_loss",
    "linear", "pad", "normalize", "cosine_similarity", "layer_norm", "batch_norm", "embedding",
    "dropout", "dropout1d", "dropout2d", "dropout3d", "conv1d", "conv2d", "max_pool2d",
    "max_pool2d_with_indices", "avg_pool2d", "unfold", "fold",
]

# generated wrappers, exactly PyTorch's signatures
gelu = _C["gelu"]
softplus = _C["softplus"]
hardtanh_ = _C["hardtanh_"]
silu_ = _C["silu_"]
linear = _C["linear"]
cosine_similarity = _C["cosine_similarity"]
layer_norm = _C["layer_norm"]
conv1d = _C["conv1d"]
conv2d = _C["conv2d"]
avg_pool2d = _C["avg_pool2d"]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


# ------------------------------------------------------------------ activations

def relu(input, inplace=False):
    """max(input, 0) elementwise (``inplace=True``: in input itself)."""
    return _torch.relu_(input) if inplace else _torch.relu(input)


def relu_(input):
    """relu in input itself."""
    return _torch.relu_(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """input where input > 0, else input * negative_slope."""
    if inplace:
        return _C["leaky_relu_"](input, negative_slope)
    return _C["leaky_relu"](input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    """leaky_relu in input itself."""
    return _C["leaky_relu_"](input, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    """input where input > 0, else alpha * (exp(input) - 1)."""
    return _C["elu_"](input, alpha) if inplace else _C["elu"](input, alpha)


def elu_(input, alpha=1.0):
    """elu in input itself."""
    return _C["elu_"](input, alpha)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    return _C["celu_"](input, alpha) if inplace else _C["celu"](input, alpha)


def celu_(input, alpha=1.0):
    """celu in input itself."""
    return _C["celu_"](input, alpha)


def selu(input, inplace=False):
    """scale * elu(input, alpha) with PyTorch's SELU constants."""
    op = _C["elu_"] if inplace else _C["elu"]
    return op(input, _SELU_ALPHA, _SELU_SCALE)


def selu_(input):
    """selu in input itself."""
    return _C["elu_"](input, _SELU_ALPHA, _SELU_SCALE)


def silu(input, inplace=False):
    """input * sigmoid(input)."""
    return _C["silu_"](input) if inplace else _C["silu"](input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clipped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return _C["hardtanh_"](input, min_val, max_val)
    return _C["hardtanh"](input, min_val, max_val)


def relu6(input, inplace=False):
    """min(max(0, x), 6)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def sigmoid(input):
    """1 / (1 + exp(-input))."""
    return _torch.sigmoid(input)


def tanh(input):
    """Hyperbolic tangent."""
    return _torch.tanh(input)


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / exp(x).sum(dim) (without dim: PyTorch's legacy choice, with a warning)."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return _torch.softmax(input, dim, dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input, dim)."""
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    return _torch.softmax(-input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(input, dim)), computed stably."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _torch.log_softmax(input, dim, dtype)


# ------------------------------------------------------------------ losses

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}   # PyTorch's reduction enum


def _reduction_enum(reduction):
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
    if size_average is not None or reduce is not None:
        return _legacy_get_string(size_average, reduce)
    return reduction


def _warn_size(input, target):
    if target.size() != input.size():
        warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", stacklevel=3)


def _broadcast(a, b):
    shape = _torch.Size(_broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    return (a if a.shape == shape else a.expand(shape)), (b if b.shape == shape else b.expand(shape))


def _broadcast_shapes(*shapes):
    n = max(len(s) for s in shapes)
    out = []
    for i in range(n):
        size = 1
        for s in shapes:
            k = i - (n - len(s))
            if k < 0:
                continue
            if s[k] != 1:
                if size != 1 and size != s[k]:
                    raise RuntimeError(
                        f"The size of tensor a ({size}) must match the size of tensor b ({s[k]}) "
                        f"at non-singleton dimension {i}")
                size = s[k]
        out.append(size)
    return tuple(out)


def _weighted(errors, weight, reduction):
    weighted = errors * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return _torch.sum(weighted)
    if reduction == "mean":
        return _torch.sum(weighted) / _torch.sum(weight)
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def _check_weight(input, weight):
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error (or its sum, or elementwise with reduction='none')."""
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    x, t = _broadcast(input, target)
    if weight is not None:
        _check_weight(input, weight)
        return _weighted((x - t) ** 2, weight, reduction)
    return _C["mse_loss"](x, t, _reduction_enum(reduction))


def _l1(x, t, reduction):
    d = _torch.abs(x - t)
    if reduction == "mean":
        return _torch.mean(d)
    if reduction == "sum":
        return _torch.sum(d)
    return d


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean absolute error (PyTorch composes it of abs and mean/sum)."""
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    x, t = _broadcast(input, target)
    if weight is not None:
        _check_weight(input, weight)
        return _weighted(_torch.abs(x - t), weight, reduction)
    _reduction_enum(reduction)
    return _l1(x, t, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared error below beta, absolute error above (PyTorch's smooth L1; beta=0 is L1)."""
    _warn_size(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    x, t = _broadcast(input, target)
    enum = _reduction_enum(reduction)
    if beta == 0.0:
        return _l1(x, t, reduction)
    return _C["smooth_l1_loss"](x, t, enum, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Huber loss: 0.5 * d**2 below delta, delta * (|d| - 0.5 * delta) above."""
    _warn_size(input, target)
    x, t = _broadcast(input, target)
    if weight is not None:
        raise NotImplementedError("huber_loss with weight is not supported by autograd_core")
    return _C["huber_loss"](x, t, _reduction_enum(reduction), delta)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """-w * (t * log(x) + (1 - t) * log(1 - x)), logs clamped at -100 as PyTorch."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = weight.expand(_broadcast_shapes(tuple(target.size()), tuple(weight.size())))
    return _C["binary_cross_entropy"](input, target, weight, _reduction_enum(reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """binary_cross_entropy(sigmoid(input), target), computed stably."""
    reduction = _reduction(size_average, reduce, reduction)
    if not (target.size() == input.size()):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    return _C["binary_cross_entropy_with_logits"](input, target, weight, pos_weight,
                                                  _reduction_enum(reduction))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Negative log likelihood of class indices (input holds log-probabilities)."""
    reduction = _reduction(size_average, reduce, reduction)
    return _C["nll_loss"](input, target, weight, _reduction_enum(reduction), ignore_index)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """log_softmax + nll_loss; the target holds class indices or class probabilities."""
    reduction = _reduction(size_average, reduce, reduction)
    return _C["cross_entropy"](input, target, weight, _reduction_enum(reduction), ignore_index,
                               label_smoothing)


# ------------------------------------------------------------------ padding, norms

_PAD_OPS = {"reflect": _C["reflection_pad"], "replicate": _C["replication_pad"],
            "circular": _C["_pad_circular"]}


def pad(input, pad, mode="constant", value=None):
    """Pad the last len(pad) // 2 dims: (left, right, top, bottom, ...)."""
    pad = tuple(int(p) for p in pad)
    nd = input.dim()
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * nd:
        raise RuntimeError(
            f"Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(pad)} and input of dimension {nd}")
    if mode == "constant":
        return _C["constant_pad_nd"](input, pad, 0 if value is None else value)
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


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p over dim, eps)."""
    if out is not None:
        raise NotImplementedError("normalize(out=) is not supported by autograd_core")
    return _C["normalize"](input, p, dim, eps)


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
    return _C["batch_norm"](input, running_mean, running_var, weight, bias, bool(training),
                            momentum, eps)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """Rows of weight selected by the integer input."""
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
    if sparse:
        raise NotImplementedError("sparse embedding gradients are not supported by autograd_core")
    if max_norm is not None:
        input = input.contiguous()
        with _torch.no_grad():
            _torch.embedding_renorm_(weight, input, max_norm, norm_type)
    return _torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


# ------------------------------------------------------------------ dropout

def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero elements with probability p (from autograd_core's generator: manual_seed makes
    it reproducible) and scale the others by 1 / (1 - p)."""
    _check_p(p)
    return _torch.dropout_(input, p, training) if inplace else _torch.dropout(input, p, training)


def _feature_dropout(name, batched_dim, input, p, training, inplace):
    _check_p(p)
    nd = input.dim()
    if nd not in (batched_dim - 1, batched_dim):
        raise RuntimeError(f"{name}: Expected {batched_dim - 1}D or {batched_dim}D input, but "
                           f"received a {nd}D input. Note that {name} exists to provide channel-wise "
                           "dropout on inputs with 1 spatial dimension, a channel dimension, and an "
                           "optional batch dimension (i.e. 2D or 3D inputs)." if batched_dim == 3
                           else f"{name}: Expected {batched_dim - 1}D or {batched_dim}D input, "
                           f"but received a {nd}D input.")
    if nd == batched_dim - 1:
        out = _torch.feature_dropout(input.unsqueeze(0), p, training).squeeze(0)
        return input.copy_(out) if inplace else out
    if inplace:
        return _torch.feature_dropout_(input, p, training)
    return _torch.feature_dropout(input, p, training)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, L) input."""
    return _feature_dropout("dropout1d", 3, input, p, training, inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, H, W) input."""
    return _feature_dropout("dropout2d", 4, input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, D, H, W) input."""
    return _feature_dropout("dropout3d", 5, input, p, training, inplace)


# ------------------------------------------------------------------ pooling, unfold, fold

def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool2d that also returns the flat (H*W) index of each maximum."""
    return _C["max_pool2d_with_indices"](input, kernel_size, stride, padding, dilation,
                                         ceil_mode)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The largest value of each (dilated) window; with return_indices, (values, indices)."""
    if return_indices:
        return _C["max_pool2d_with_indices"](input, kernel_size, stride, padding, dilation,
                                             ceil_mode)
    return _torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def _pair(v):
    return tuple(v) if isinstance(v, (list, tuple)) else (v, v)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of a (N, C, H, W) input as columns (N, C*KH*KW, L) (im2col)."""
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported "
                           f"(got {input.dim()}D)")
    return _C["im2col"](input, _pair(kernel_size), _pair(dilation), _pair(padding),
                        _pair(stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum columns (N, C*KH*KW, L) back into a (N, C, H, W) tensor (col2im)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are "
                           f"supported (got {input.dim()}D)")
    return _C["col2im"](input, _pair(output_size), _pair(kernel_size), _pair(dilation),
                        _pair(padding), _pair(stride))
