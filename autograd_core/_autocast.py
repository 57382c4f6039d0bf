"""The state and the op lists of CPU autocast (Note [Autocast] in amp.py), below both
amp (its hook and context managers) and the Python composites that cast their inputs on
entry (nn.functional, fft, stft), so that neither imports the other."""
from autograd_core._core import dtype as _core_dtype
from autograd_core._core import tensor as _core

_DTYPES = _core_dtype.all_dtypes()
# per device type: [enabled, dtype name] (CPU autocast's default dtype is bfloat16)
_state = {"cpu": [False, "bfloat16"], "cuda": [False, "float16"]}

_LOWER = frozenset((
    "conv1d", "conv2d", "conv3d", "bmm", "mm", "linalg_vecdot", "baddbmm", "addmm",
    "_addmm_activation", "addbmm", "linear", "_convolution", "matmul", "conv_tbc",
    "mkldnn_rnn_layer", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "prelu",
    "scaled_dot_product_attention", "_native_multi_head_attention"))
_FP32 = frozenset((
    "avg_pool3d", "binary_cross_entropy", "grid_sampler", "polar", "prod", "quantile",
    "nanquantile", "stft", "cdist", "grid_sampler_2d", "_grid_sampler_2d_cpu_fallback",
    "grid_sampler_3d", "trace", "view_as_complex", "cholesky", "cholesky_inverse",
    "cholesky_solve", "inverse", "lu_solve", "orgqr", "ormqr", "pinverse", "max_pool3d",
    "max_unpool2d", "max_unpool3d", "adaptive_avg_pool3d", "reflection_pad1d",
    "reflection_pad2d", "replication_pad1d", "replication_pad2d", "replication_pad3d",
    "mse_loss", "cosine_embedding_loss", "nll_loss", "nll_loss2d", "hinge_embedding_loss",
    "poisson_nll_loss", "smooth_l1_loss", "cross_entropy_loss", "l1_loss", "huber_loss",
    "margin_ranking_loss", "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss",
    "ctc_loss", "kl_div", "multilabel_margin_loss", "binary_cross_entropy_with_logits",
    "cross_entropy",    # (cross_entropy_loss, as this library's op hook names it)
    "fft_fft", "fft_ifft", "fft_fft2", "fft_ifft2", "fft_fftn", "fft_ifftn", "fft_rfft",
    "fft_irfft", "fft_rfft2", "fft_irfft2", "fft_rfftn", "fft_irfftn", "fft_hfft",
    "fft_ihfft", "linalg_cond", "linalg_matrix_rank", "linalg_solve", "linalg_cholesky",
    "linalg_svdvals", "linalg_eigvals", "linalg_eigvalsh", "linalg_inv",
    "linalg_householder_product", "linalg_tensorinv", "linalg_tensorsolve",
    "fake_quantize_per_tensor_affine", "geqrf", "_lu_with_info", "qr", "svd",
    "triangular_solve", "fractional_max_pool2d", "fractional_max_pool3d",
    "adaptive_max_pool3d", "multilabel_margin_loss_forward", "linalg_qr",
    "linalg_cholesky_ex", "linalg_svd", "linalg_eig", "linalg_eigh", "linalg_lstsq",
    "linalg_inv_ex"))


def _cast(x, dtype):
    if isinstance(x, _core.Tensor):
        d = x.dtype
        if d.is_floating_point and d is not dtype and d is not _DTYPES["float64"]:
            return x.to(dtype)
        return x
    if isinstance(x, (list, tuple)) and any(isinstance(v, _core.Tensor) for v in x):
        return type(x)(_cast(v, dtype) for v in x)
    return x


def _autocast_dtype(op):
    """The dtype CPU autocast runs ATen op op in, or None (autocast off, op not listed)."""
    st = _state["cpu"]
    if not st[0]:
        return None
    if op in _LOWER:
        return _DTYPES[st[1]]
    if op in _FP32:
        return _DTYPES["float32"]
    return None


def autocast_args(op, *args):
    """args as CPU autocast casts the inputs of ATen op op (Note [Autocast]). The listed
    ops written as Python composites here (scaled_dot_product_attention, the fft_*
    transforms, stft, quantile, kl_div) reach no op hook as one op: they cast their
    inputs with this on entry."""
    dtype = _autocast_dtype(op)
    if dtype is None:
        return args
    return tuple(_cast(a, dtype) for a in args)
