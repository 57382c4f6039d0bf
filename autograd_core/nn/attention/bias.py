"""Causal attention biases that ``F.scaled_dot_product_attention`` takes as its
``attn_mask``, as ``torch.nn.attention.bias``: a ``CausalBias`` stands for a triangular
boolean mask without holding it, and attention runs as ``is_causal=True`` where that is
the same mask (upper-left alignment, or equal sequence lengths) and with the
materialised mask otherwise (the CPU has no fused lower-right kernel).

>>> import autograd_core as torch
>>> from autograd_core.nn.attention.bias import causal_lower_right
>>> causal_lower_right(2, 3)
tensor([[ True,  True, False],
        [ True,  True,  True]])
"""
import enum
import warnings

import autograd_core as _torch
from autograd_core.nn import functional as F

__all__ = ["causal_upper_left", "causal_lower_right", "CausalVariant", "CausalBias"]


class CausalVariant(enum.IntEnum):
    """The two causal masks: ``UPPER_LEFT`` (``torch.tril(ones(L, S))``, what
    ``is_causal=True`` means) and ``LOWER_RIGHT`` (the triangle aligned to the bottom
    right corner: ``torch.tril(ones(L, S), diagonal=S - L)``).

    >>> from autograd_core.nn.attention.bias import CausalVariant
    >>> CausalVariant.LOWER_RIGHT
    <CausalVariant.LOWER_RIGHT: 2>
    """
    UPPER_LEFT = enum.auto()
    LOWER_RIGHT = enum.auto()


class CausalBias(_torch.Tensor):
    """A causal bias of a query length and a key/value length: pass it as
    ``attn_mask`` to ``F.scaled_dot_product_attention``. Made by ``causal_upper_left``
    and ``causal_lower_right``; it prints as the mask it stands for.

    >>> import autograd_core as torch
    >>> from autograd_core.nn.attention.bias import causal_upper_left
    >>> q = torch.ones(1, 1, 2, 4)
    >>> torch.nn.functional.scaled_dot_product_attention(q, q, q, causal_upper_left(2, 2)).shape
    autograd_core.Size([1, 1, 2, 4])
    """

    def __init__(self, variant, seq_len_q, seq_len_kv):
        if not isinstance(variant, CausalVariant):
            raise AssertionError(f"variant must be a CausalVariant, got {type(variant).__name__}")
        # (as PyTorch's: the tensor itself is an uninitialised one of size
        # (variant, seq_len_q, seq_len_kv), the sizes Tensor.__new__ receives there)
        super().__init__(int(variant), seq_len_q, seq_len_kv)
        self.variant = variant
        self.seq_len_q = seq_len_q
        self.seq_len_kv = seq_len_kv
        if seq_len_q > seq_len_kv and variant == CausalVariant.LOWER_RIGHT:
            warnings.warn("Lower right causal bias will produce NaNs in the output when "
                          "seq_len_q > seq_len_kv!", stacklevel=2)

    def _upper_left(self, device):
        return _torch.tril(_torch.ones(self.seq_len_q, self.seq_len_kv, device=device,
                                       dtype=_torch.bool))

    def _lower_right(self, device):
        return _torch.tril(_torch.ones(self.seq_len_q, self.seq_len_kv, device=device,
                                       dtype=_torch.bool),
                           diagonal=self.seq_len_kv - self.seq_len_q)

    def _materialize(self, device=None):
        """The boolean mask this bias stands for (True: attend)."""
        if self.variant == CausalVariant.UPPER_LEFT:
            return self._upper_left(device)
        if self.variant == CausalVariant.LOWER_RIGHT:
            return self._lower_right(device)
        return None

    @staticmethod
    def _dispatch(query, key, value, attn_mask, dropout_p=0.0, is_causal=False, scale=None,
                  enable_gqa=False):
        """scaled_dot_product_attention with this bias as its mask."""
        if is_causal:
            raise ValueError("CausalBias should not be used with causal=True")
        if attn_mask.seq_len_q == attn_mask.seq_len_kv \
                or attn_mask.variant == CausalVariant.UPPER_LEFT:
            return F.scaled_dot_product_attention(query, key, value, attn_mask=None,
                                                  dropout_p=dropout_p, is_causal=True,
                                                  scale=scale, enable_gqa=enable_gqa)
        if attn_mask.variant == CausalVariant.LOWER_RIGHT:
            _validate_sdpa_input(query, key, value)
            return F.scaled_dot_product_attention(
                query, key, value, attn_mask=attn_mask._materialize(query.device),
                dropout_p=dropout_p, is_causal=False, scale=scale, enable_gqa=enable_gqa)
        raise ValueError("CausalBias.variant must be a CausalVariant type, but found: "
                         f"{attn_mask.variant}")

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        # only attention takes a bias; other functions do not know it
        if func is F.scaled_dot_product_attention:
            return cls._dispatch(*args, **(kwargs or {}))
        return NotImplemented

    def __repr__(self):
        return repr(self._materialize())


def _validate_sdpa_input(query, key, value):
    if query.dtype != key.dtype or query.dtype != value.dtype:
        raise ValueError(f"Expected query, key, and value to have the same dtype, but got "
                         f"query.dtype: {query.dtype}, key.dtype: {key.dtype}, and value.dtype: "
                         f"{value.dtype} instead.")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise ValueError(f"Expected query, key, and value to all be  at least 2 dimensional, "
                         f"but got query.dim: {query.dim()}, key.dim: {key.dim()} and "
                         f"value.dim: {value.dim()} instead.")


def causal_upper_left(*size):
    """The upper-left causal bias of size (seq_len_q, seq_len_kv): what
    ``is_causal=True`` means.

    >>> from autograd_core.nn.attention.bias import causal_upper_left
    >>> causal_upper_left(2, 3)
    tensor([[ True, False, False],
            [ True,  True, False]])
    """
    if len(size) != 2:
        raise AssertionError("causal_upper_left only supports 2D tensors")
    seq_len_q, seq_len_kv = size
    return CausalBias(CausalVariant.UPPER_LEFT, seq_len_q, seq_len_kv)


def causal_lower_right(*size):
    """The lower-right causal bias of size (seq_len_q, seq_len_kv): query i attends to
    the keys up to ``i + seq_len_kv - seq_len_q`` (the last query sees every key).

    >>> from autograd_core.nn.attention.bias import causal_lower_right
    >>> causal_lower_right(2, 3)
    tensor([[ True,  True, False],
            [ True,  True,  True]])
    """
    if len(size) != 2:
        raise AssertionError("causal_lower_right only supports 2D tensors")
    seq_len_q, seq_len_kv = size
    return CausalBias(CausalVariant.LOWER_RIGHT, seq_len_q, seq_len_kv)
