"""``torch.nn.init``: in-place initialisation of tensors with PyTorch's formulas (gains,
fan computation, bounds) and messages. Random numbers come from autograd_core's generator,
which draws PyTorch's numbers for the same seed: every initialiser here but
``trunc_normal_`` (rejection sampling, not PyTorch's inverse-erf transform) and
``orthogonal_`` (the same normal draws; the QR decomposition is numpy's LAPACK, equal to
PyTorch's to rounding) reproduces PyTorch's values.

>>> import autograd_core as torch
>>> w = torch.empty(3, 5)
>>> torch.nn.init.calculate_gain("relu")
1.4142135623730951
>>> bool(torch.nn.init.xavier_uniform_(w).abs().max() <= (6 / 8) ** 0.5)
True
"""
from __future__ import annotations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autograd_core._core.random import Generator
    from autograd_core._core.tensor import Tensor

import math
import warnings

import numpy as np

import autograd_core as _ag
from autograd_core._core.tensor import array_of as _array_of, from_array as _from_array

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_",
           "zeros_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
           "kaiming_normal_", "orthogonal_", "sparse_", "uniform", "normal", "constant", "eye",
           "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal",
           "orthogonal", "sparse"]


def _no_grad_uniform_(tensor, a, b, generator=None):
    with _ag.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def _no_grad_normal_(tensor, mean, std, generator=None):
    with _ag.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _no_grad_fill_(tensor, val):
    with _ag.no_grad():
        return tensor.fill_(val)


def _no_grad_zero_(tensor):
    with _ag.no_grad():
        return tensor.zero_()


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for a nonlinearity (PyTorch's table)."""
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                  "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0,
             generator: Generator | None = None) -> Tensor:
    """Fill with U(a, b)."""
    return _no_grad_uniform_(tensor, a, b, generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0,
            generator: Generator | None = None) -> Tensor:
    """Fill with N(mean, std**2)."""
    return _no_grad_normal_(tensor, mean, std, generator)


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator: Generator | None = None) -> Tensor:
    """Fill with N(mean, std**2) truncated to [a, b]: PyTorch 2.13's rejection sampler,
    draw for draw (tests/test_random_streams.py)."""
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)
    with _ag.no_grad():
        p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)
        if p > 0.3:
            # redraw from the normal where out of bounds
            result = _ag.empty_like(tensor).normal_(mean, std, generator=generator)
            while True:
                mask = (result < a) | (result > b)
                if not bool(mask.any()):
                    break
                redraw = _ag.empty_like(result).normal_(mean, std, generator=generator)
                result = _ag.where(mask, redraw, result)
        else:
            # narrow interval: uniform proposals accepted with the normal's relative density
            mode = max(a, min(mean, b))
            log_peak = -0.5 * ((mode - mean) / std) ** 2

            def log_density(x):
                return ((x - mean) / std) ** 2 * -0.5 - log_peak

            result = _ag.empty_like(tensor).uniform_(a, b, generator=generator)
            pending = (_ag.log(_ag.empty_like(tensor).uniform_(generator=generator))
                       > log_density(result))
            while bool(pending.any()):
                candidates = _ag.empty_like(tensor).uniform_(a, b, generator=generator)
                result = _ag.where(pending, candidates, result)
                accept = (_ag.log(_ag.empty_like(tensor).uniform_(generator=generator))
                          > log_density(candidates))
                pending = pending & accept
        tensor.copy_(result)
    return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with val."""
    return _no_grad_fill_(tensor, val)


def ones_(tensor: Tensor) -> Tensor:
    """Fill with 1."""
    return _no_grad_fill_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with 0."""
    return _no_grad_zero_(tensor)


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-D tensor with the identity matrix."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with _ag.no_grad():
        tensor.copy_(_ag.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a 3-, 4- or 5-D (convolution weight) tensor with the Dirac delta: the
    convolution keeps as many input channels as possible (per group)."""
    dimensions = tensor.ndimension()
    if dimensions not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    with _ag.no_grad():
        tensor.zero_()
        if min_dim > 0 and groups > 0:
            d = np.arange(min_dim)
            g = np.arange(groups)
            rows = (g[:, None] * out_chans_per_grp + d[None, :]).ravel()
            cols = np.tile(d, groups)
            centre = tuple(np.full(rows.shape, s // 2) for s in sizes[2:])
            tensor[(_ag.tensor(rows), _ag.tensor(cols))
                   + tuple(_ag.tensor(c) for c in centre)] = 1
    return tensor


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return tensor.size(1) * receptive_field_size, tensor.size(0) * receptive_field_size


def xavier_uniform_(tensor: Tensor, gain: float = 1.0,
                    generator: Generator | None = None) -> Tensor:
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return _no_grad_uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0,
                   generator: Generator | None = None) -> Tensor:
    """N(0, std**2) with std = gain * sqrt(2 / (fan_in + fan_out)) (Glorot)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return _no_grad_normal_(tensor, 0.0, std, generator)


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _kaiming_(tensor, a, mode, nonlinearity, generator, uniform):
    """He initialisation, kaiming_uniform_'s (uniform) and kaiming_normal_'s: with
    std = gain / sqrt(fan), U(-sqrt(3) std, sqrt(3) std) or N(0, std**2), each in PyTorch's
    operation order (the same rounding). A zero-element tensor is left as it is, with
    PyTorch's warning pointing at the caller of the public function."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    if uniform:
        bound = math.sqrt(3.0) * gain / math.sqrt(fan)
        return _no_grad_uniform_(tensor, -bound, bound, generator)
    return _no_grad_normal_(tensor, 0, gain / math.sqrt(fan), generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu",
                     generator: Generator | None = None) -> Tensor:
    """U(-bound, bound) with bound = gain * sqrt(3 / fan) (He)."""
    return _kaiming_(tensor, a, mode, nonlinearity, generator, uniform=True)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu",
                    generator: Generator | None = None) -> Tensor:
    """N(0, std**2) with std = gain / sqrt(fan) (He)."""
    return _kaiming_(tensor, a, mode, nonlinearity, generator, uniform=False)


def orthogonal_(tensor: Tensor, gain: float = 1,
                generator: Generator | None = None) -> Tensor:
    """A (semi-)orthogonal matrix (the tensor flattened to rows x rest) from the QR
    decomposition of a normal matrix, signs fixed by diag(R), times gain."""
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    with _ag.no_grad():
        # PyTorch: tensor.new_empty((rows, cols)).normal_(0, 1), in the tensor's dtype
        flattened = _ag.empty(rows, cols, dtype=tensor.dtype).normal_(
            0, 1, generator=generator).numpy()
        if rows < cols:
            flattened = flattened.T
        q, r = np.linalg.qr(flattened)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        tensor.copy_(_ag.from_numpy(np.ascontiguousarray(q)).reshape(tensor.shape) * gain)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01,
            generator: Generator | None = None) -> Tensor:
    """N(0, std**2) with ceil(sparsity * rows) entries of each column set to zero."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with _ag.no_grad():
        tensor.normal_(0, std, generator=generator)
        # PyTorch: per column, the first num_zeros rows of randperm(rows) are zeroed
        values = _array_of(tensor.detach()).copy()      # (bfloat16 too)
        for col in range(cols):
            values[_ag.randperm(rows, generator=generator)[:num_zeros].numpy(), col] = 0
        tensor.copy_(_from_array(values))
    return tensor


def _make_deprecate(meth):
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of "
                      f"`nn.init.{new_name}`.", FutureWarning, stacklevel=2)
        return meth(*args, **kwargs)

    deprecated_init.__doc__ = f"Deprecated: use ``{new_name}``."
    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
