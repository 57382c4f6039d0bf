"""``torch.nn.utils.fusion``: fold an eval-mode BatchNorm into the convolution or linear
layer before it (one layer computes what the two did).

>>> import autograd_core as torch
>>> conv, bn = torch.nn.Conv2d(2, 3, 1).eval(), torch.nn.BatchNorm2d(3).eval()
>>> x = torch.randn(1, 2, 4, 4)
>>> fused = torch.nn.utils.fuse_conv_bn_eval(conv, bn)
>>> torch.allclose(fused(x), bn(conv(x)), atol=1e-6)
True
"""
import copy

import autograd_core as _ag

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights"]


def fuse_conv_bn_eval(conv, bn, transpose=False):
    """A new convolution (a deep copy of ``conv``) whose weight and bias compute
    ``bn(conv(x))``; both modules must be in eval mode (``transpose=True`` for a
    transposed convolution, whose output channels are the weight's second dim).

    >>> import autograd_core as torch
    >>> conv, bn = torch.nn.Conv1d(2, 2, 1).eval(), torch.nn.BatchNorm1d(2).eval()
    >>> torch.nn.utils.fuse_conv_bn_eval(conv, bn).weight.shape
    autograd_core.Size([2, 2, 1])
    """
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_conv = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_conv.weight, fused_conv.bias = fuse_conv_bn_weights(
        fused_conv.weight, fused_conv.bias, bn.running_mean, bn.running_var, bn.eps,
        bn.weight, bn.bias, transpose)
    return fused_conv


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """The fused convolution's ``(weight, bias)`` as Parameters: the weight scaled per
    output channel by ``bn_w / sqrt(bn_rv + bn_eps)``, the bias shifted and scaled alike
    (a missing conv bias or BatchNorm weight/bias counts as zeros/ones).  The results
    keep the convolution's dtypes.

    >>> import autograd_core as torch
    >>> w, b = torch.nn.utils.fuse_conv_bn_weights(torch.ones(2, 1, 1), None,
    ...     torch.zeros(2), torch.full((2,), 3.0), 1.0, None, torch.ones(2))
    >>> w.flatten(), b.data
    (tensor([0.5000, 0.5000]), tensor([1., 1.]))
    """
    conv_weight_dtype = conv_w.dtype
    conv_bias_dtype = conv_b.dtype if conv_b is not None else conv_weight_dtype
    if conv_b is None:
        conv_b = _ag.zeros_like(bn_rm)
    if bn_w is None:
        bn_w = _ag.ones_like(bn_rm)
    if bn_b is None:
        bn_b = _ag.zeros_like(bn_rm)
    bn_var_rsqrt = _ag.rsqrt(bn_rv + bn_eps)
    # the BatchNorm's channels are the conv's output channels: dim 0 of a convolution's
    # weight, dim 1 of a transposed convolution's
    rest = [1] * (len(conv_w.shape) - 2)
    shape = [1, -1] + rest if transpose else [-1, 1] + rest
    fused_conv_w = (conv_w * (bn_w * bn_var_rsqrt).reshape(shape)).to(dtype=conv_weight_dtype)
    fused_conv_b = ((conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b).to(dtype=conv_bias_dtype)
    return (_ag.nn.Parameter(fused_conv_w, conv_w.requires_grad),
            _ag.nn.Parameter(fused_conv_b, conv_b.requires_grad))


def fuse_linear_bn_eval(linear, bn):
    """A new Linear (a deep copy of ``linear``) computing ``bn(linear(x))``; both in eval
    mode, and the BatchNorm's features must equal the Linear's out_features (or be 1).

    >>> import autograd_core as torch
    >>> lin, bn = torch.nn.Linear(3, 2).eval(), torch.nn.BatchNorm1d(2).eval()
    >>> x = torch.randn(4, 3)
    >>> torch.allclose(torch.nn.utils.fuse_linear_bn_eval(lin, bn)(x), bn(lin(x)), atol=1e-6)
    True
    """
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_linear = copy.deepcopy(linear)
    # the BatchNorm's features must broadcast against the Linear's output features
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            f"To fuse, linear.out_features == bn.num_features or bn.num_features == 1, "
            f"got linear.out_features={linear.out_features} and "
            f"bn.num_features={bn.num_features}")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_linear.weight, fused_linear.bias = fuse_linear_bn_weights(
        fused_linear.weight, fused_linear.bias, bn.running_mean, bn.running_var, bn.eps,
        bn.weight, bn.bias)
    return fused_linear


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The fused Linear's ``(weight, bias)`` as Parameters (weight rows scaled by
    ``bn_w / sqrt(bn_rv + bn_eps)``); the results keep the Linear's dtypes.

    >>> import autograd_core as torch
    >>> w, b = torch.nn.utils.fuse_linear_bn_weights(torch.ones(2, 2), None,
    ...     torch.zeros(2), torch.full((2,), 3.0), 1.0, torch.ones(2), torch.zeros(2))
    >>> w.data
    tensor([[0.5000, 0.5000],
            [0.5000, 0.5000]])
    """
    linear_weight_dtype = linear_w.dtype
    linear_bias_dtype = linear_b.dtype if linear_b is not None else linear_weight_dtype
    if linear_b is None:
        linear_b = _ag.zeros_like(bn_rm)
    bn_scale = bn_w * _ag.rsqrt(bn_rv + bn_eps)
    fused_w = linear_w * bn_scale.unsqueeze(-1).to(dtype=linear_weight_dtype)
    fused_b = ((linear_b - bn_rm) * bn_scale + bn_b).to(dtype=linear_bias_dtype)
    return (_ag.nn.Parameter(fused_w, linear_w.requires_grad),
            _ag.nn.Parameter(fused_b, linear_b.requires_grad))
