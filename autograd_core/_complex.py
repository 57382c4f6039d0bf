"""Which ops take complex tensors (Note [Complex guard] in _core/_messages.pxi).

Every generated op wrapper refuses a complex argument unless its op is named here,
with PyTorch's error for that op (``COMPLEX_MESSAGES``) or its generic
``"<op>" not implemented for 'ComplexFloat'``. An op is listed once its values on
complex inputs were compared with PyTorch's (tests/test_complex.py runs the whole op
table on complex inputs and fails when a listed op differs or an unlisted one computes).

Autograd through complex values (Note [Complex autograd] in _core/_messages.pxi) follows
PyTorch's convention: the gradient of a real loss with respect to a complex input is the
conjugate Wirtinger derivative PyTorch returns, and the derivative formulas carry
PyTorch's conjugations. Only the ops of ``COMPLEX_AUTOGRAD_OPS`` record a history with a
complex input or result (tests/test_complex_autograd.py compares their gradients with
PyTorch's); any other op raises NotImplementedError naming it rather than return a
gradient that could be wrong.

>>> import autograd_core as torch
>>> z = torch.tensor([1 + 2j], requires_grad=True)
>>> (z * z.conj()).real.sum().backward()
>>> z.grad
tensor([2.+4.j])

>>> import autograd_core as torch
>>> torch.exp(torch.tensor([1j])).dtype
autograd_core.complex64
>>> torch.tensor([1j]).max()
Traceback (most recent call last):
...
NotImplementedError: "max_all" not implemented for 'ComplexFloat'
"""
from autograd_core._core import tensor as _tensor

# Op names as the op table (ops/derivatives.yaml) spells them; in-place variants apart.
COMPLEX_OPS = frozenset("""
add add_ sub sub_ rsub mul mul_ div div_ neg neg_ negative negative_ positive
reciprocal reciprocal_ square square_ pow pow_
exp exp_ log log_ sqrt sqrt_ rsqrt rsqrt_ log2 log2_ log10 log10_ log1p log1p_
expm1 expm1_
sin sin_ cos cos_ tan tan_ sinh sinh_ cosh cosh_ tanh tanh_ sigmoid sigmoid_
asin asin_ acos acos_ atan atan_ asinh asinh_ acosh acosh_ atanh atanh_
abs absolute angle sgn sgn_
eq eq_ ne ne_ isclose isfinite isnan isinf isreal
conj resolve_conj resolve_neg real imag view_as_real adjoint
sum mean prod cumsum cumprod
matmul mm bmm mv dot vdot outer einsum linalg_eig linalg_eigvals
reshape view flatten squeeze unsqueeze transpose t permute movedim moveaxis
expand expand_as narrow select flip roll diagonal tril triu tril_ triu_ repeat tile
cat concat concatenate stack hstack vstack split chunk unbind
index_select gather scatter where masked_fill masked_fill_ clone copy_ fill_ zero_
_to_copy
mean trace linalg_inv linalg_inv_ex inverse linalg_solve linalg_solve_ex linalg_det det
linalg_svd svd linalg_svdvals linalg_qr qr linalg_eigh linalg_eigvalsh
diag diag_embed diagflat kron tensordot inner addmm addmv baddbmm addbmm addr ger
index_add index_add_ index_copy index_copy_ index_fill index_fill_ put put_ take
take_along_dim masked_select masked_scatter masked_scatter_ diff exp2 exp2_ ravel
swapaxes swapaxes_ swapdims swapdims_ unflatten unfold view_as broadcast_to fill
fill_diagonal_ rot90 fliplr flipud column_stack dstack row_stack split_with_sizes
unsafe_split unsafe_chunk unsafe_split_with_sizes select_scatter slice_scatter
diagonal_scatter as_strided as_strided_ as_strided_scatter scatter_add scatter_add_
cross linalg_cross logical_and logical_or logical_xor logical_not count_nonzero
nonzero_static argwhere linear pad embedding conv1d conv2d conv3d conv_transpose1d
conv_transpose2d conv_transpose3d linalg_matrix_power matrix_power linalg_multi_dot
chain_matmul linalg_matmul linalg_diagonal linalg_vander linalg_tensorinv
linalg_tensorsolve alias_copy view_copy permute_copy select_copy expand_copy
diagonal_copy transpose_copy t_copy unsqueeze_copy split_copy split_with_sizes_copy
t_ transpose_ unsqueeze_ squeeze_ ldexp ldexp_ lerp lerp_ addcmul addcmul_
combinations normalize pixel_shuffle pixel_unshuffle channel_shuffle silu silu_ fold
triangular_solve linalg_solve_triangular renorm renorm_ bincount all any
_fft_c2c _fft_c2r
""".split())

# PyTorch's own errors for ops that refuse complex input (exception type, message;
# {dtype} is the ScalarType name). Most name the kernel without a complex variant.
def _kernel(name):
    return (NotImplementedError, '"' + name + '" not implemented for \'{dtype}\'')


_CLAMP = (NotImplementedError, "clamp is not supported for complex types")
_SORT = (RuntimeError, " Sort does not support complex dtypes on CPU")
COMPLEX_MESSAGES = {
    "max": _kernel("max_all"), "min": _kernel("min_all"),
    "lt": _kernel("lt_cpu"), "le": _kernel("le_cpu"), "gt": _kernel("gt_cpu"),
    "ge": _kernel("ge_cpu"),
    "clamp": _CLAMP, "clamp_": _CLAMP, "clamp_min": _CLAMP, "clamp_max": _CLAMP,
    "clamp_min_": _CLAMP, "clamp_max_": _CLAMP, "clip": _CLAMP, "clip_": _CLAMP,
    "floor": (NotImplementedError, "floor is not supported for complex inputs"),
    "ceil": (NotImplementedError, "ceil is not supported for complex inputs"),
    "trunc": (NotImplementedError, "trunc is not supported for complex inputs"),
    "floor_divide": _kernel("div_floor_cpu"),
    "sort": _SORT, "argsort": _SORT, "msort": _SORT, "searchsorted": _SORT,
    "topk": (RuntimeError, " topk does not support complex dtypes on CPU"),
    "maximum": (RuntimeError, "maximum not implemented for complex tensors."),
    "minimum": (RuntimeError, "minimum not implemented for complex tensors."),
    "relu": _kernel("clamp_min_scalar_cpu"),
    "logit": _kernel("logit_cpu"), "logit_": _kernel("logit_cpu"),
    "erfinv": _kernel("erfinv_vml_cpu"), "erfinv_": _kernel("erfinv_vml_cpu"),
    "xlogy": _kernel("xlogy_cpu"), "kthvalue": _kernel("kthvalue_cpu"),
    "median": _kernel("median_cpu"), "nanmedian": _kernel("median_cpu"),
    "mode": _kernel("mode_cpu"), "aminmax": _kernel("aminmax_cpu"),
    "cummax": _kernel("cummax_cpu"), "cummin": _kernel("cummin_cpu"),
    "bucketize": _kernel("searchsorted_out_cpu"), "unique": _kernel("unique"),
    "unique_consecutive": _kernel("unique"),
    "binary_cross_entropy": _kernel("binary_cross_entropy"),
    "_fft_r2c": (RuntimeError, "Only supports floating-point dtypes, but found: {dtype}"),
}

_tensor.set_complex_ops(COMPLEX_OPS, COMPLEX_MESSAGES)

# Ops whose derivatives take complex values (Note [Complex autograd]), by the op names of
# the derivative table (an in-place variant records its op's node) and of the
# hand-written recorders (cat, stack, split, unbind, copy_, index_put_). Not listed (they
# raise on complex values requiring grad): the ops whose formulas have no conjugations
# yet, e.g. tanh_backward / sigmoid_backward (so a double backward through tanh or
# sigmoid refuses) and mul_scalar.
COMPLEX_AUTOGRAD_OPS = frozenset("""
add sub rsub mul div _div_mode add_scalar div_scalar neg reciprocal pow
exp exp2 expm1 log log2 log10 sqrt rsqrt sin cos tan sinh cosh tanh
sigmoid abs sgn angle conj real imag view_as_real view_as_complex
complex polar _to_copy clone copy_ where positive
sum mean sum_to cumsum trace
mm bmm mv dot vdot addmm addmv linalg_inv_ex outer
view reshape _reshape_alias _unsafe_view view_as reshape_as flatten unflatten squeeze
unsqueeze transpose t permute movedim moveaxis swapaxes alias expand expand_as
broadcast_to select select_backward slice slice_backward narrow diagonal
diagonal_backward flip roll repeat tril triu cat stack split unbind index_select gather
masked_fill index_put_ _getitem _index_put_impl unfold unfold_backward
""".split())

_tensor.set_complex_grad_ops(COMPLEX_AUTOGRAD_OPS)
