"""Which ops take complex tensors (Note [Complex guard] in _core/_messages.pxi) and
which take the wide unsigned ints uint16/uint32/uint64 (Note [Dtype guard]): one module
owns the allowlists of the dtype families of limited op support.

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
PyTorch's); any other op raises PyTorch's RuntimeError "<op> does not support automatic
differentiation for outputs with complex dtype." rather than return a gradient that could
be wrong.

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
>>> torch.tensor([1, 2], dtype=torch.uint16) + 1
Traceback (most recent call last):
...
NotImplementedError: "add_stub" not implemented for 'UInt16'
"""
from autograd_core._core import tensor as _tensor
from autograd_core.ops.pointwise import ADDCDIV_INT_MSG

# The one switch the fuzzer reads to draw complex tensors that require grad
# (tests/fuzz/gen.py, complex_grad); its statements then apply to them only the ops of
# COMPLEX_AUTOGRAD_OPS below.
COMPLEX_AUTOGRAD = True

# Op names as the op table (ops/derivatives.yaml) spells them; in-place variants apart.
# round and polygamma refuse complex input in their implementations (the kernel PyTorch
# names depends on decimals, on n), as nll_loss and cross_entropy do (nll_loss's kernel
# depends on the input's dims, and comes after its shape checks; cross_entropy's is
# log_softmax's for the class dim; histc's on its range; _lerp_tensor is lerp with a
# tensor weight, named apart for the unsigned kernel), and so do log_softmax and softmax.
COMPLEX_OPS = frozenset("""
normal_
add add_ sub sub_ rsub mul mul_ div div_ neg neg_ negative negative_ positive
reciprocal reciprocal_ square square_ pow pow_
exp exp_ log log_ sqrt sqrt_ rsqrt rsqrt_ log2 log2_ log10 log10_ log1p log1p_
expm1 expm1_
sin sin_ cos cos_ tan tan_ sinh sinh_ cosh cosh_ tanh tanh_ sigmoid sigmoid_
asin asin_ acos acos_ atan atan_ asinh asinh_ acosh acosh_ atanh atanh_
abs absolute angle sgn sgn_
eq eq_ ne ne_ isclose isfinite isnan isinf isreal
conj resolve_conj resolve_neg real imag view_as_real adjoint
conj_physical conj_physical_ _neg_view view_as_real_copy
sum mean prod cumsum cumprod var std var_mean std_mean linalg_vecdot
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
t_ transpose_ unsqueeze_ squeeze_ ldexp ldexp_ lerp lerp_ addcmul addcmul_ addcdiv addcdiv_
combinations normalize pixel_shuffle pixel_unshuffle channel_shuffle silu silu_ fold
triangular_solve linalg_solve_triangular renorm renorm_ bincount all any
_fft_c2c _fft_c2r
index_put index_put_ nonzero
linalg_slogdet slogdet logdet linalg_cholesky linalg_cholesky_ex cholesky cholesky_solve
linalg_lu_factor linalg_lu_factor_ex linalg_lu lu lu_unpack
linalg_lu_solve lu_solve linalg_pinv pinverse linalg_matrix_exp matrix_exp
linalg_vector_norm linalg_matrix_norm linalg_norm norm l1_loss dropout constant_pad_nd
cholesky_inverse
sum_to_size trapezoid trapz cumulative_trapezoid gradient dist frobenius_norm
norm_except_dim pairwise_distance cdist
reflection_pad replication_pad _pad_circular im2col col2im softmax log_softmax
dropout_ feature_dropout feature_dropout_
cov corrcoef _weight_norm
nan_to_num nan_to_num_ sinc sinc_ float_power float_power_ logaddexp logsumexp
logcumsumexp scatter_reduce scatter_reduce_ index_reduce index_reduce_
linalg_matrix_rank linalg_cond linalg_lstsq linalg_householder_product orgqr geqrf ormqr
linalg_ldl_factor linalg_ldl_factor_ex linalg_ldl_solve
conv_tbc affine_grid_generator
rrelu_with_noise rrelu_with_noise_
round round_ polygamma polygamma_ nll_loss cross_entropy _lerp_tensor histc
""".split())

# PyTorch's own errors for ops that refuse complex input (exception type, message;
# {dtype} is the ScalarType name). Most name the kernel without a complex variant.
def _kernel(name):
    return (NotImplementedError, '"' + name + '" not implemented for \'{dtype}\'')


_CLAMP = (NotImplementedError, "clamp is not supported for complex types")
_SORT = (RuntimeError, " Sort does not support complex dtypes on CPU")
_SIGN = (NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex "
         "numbers. Please use torch.sgn instead.")
COMPLEX_MESSAGES = {
    "max": _kernel("max_all"), "min": _kernel("min_all"),
    # (max(input, dim) / min(input, dim), _guard_max_min in ops/reduce.pyx)
    "max_dim": (RuntimeError, "max(): does not support complex input"),
    "min_dim": (RuntimeError, "min(): does not support complex input"),
    "lt": _kernel("lt_cpu"), "le": _kernel("le_cpu"), "gt": _kernel("gt_cpu"),
    "ge": _kernel("ge_cpu"),
    "clamp": _CLAMP, "clamp_": _CLAMP, "clamp_min": _CLAMP, "clamp_max": _CLAMP,
    "clamp_min_": _CLAMP, "clamp_max_": _CLAMP, "clip": _CLAMP, "clip_": _CLAMP,
    **{name + tail: (NotImplementedError, f"{name} is not supported for complex inputs")
       for name in ("floor", "ceil", "trunc") for tail in ("", "_")},
    # (the in-place forms of these reach the same kernel as the functional ones)
    "atan2": _kernel("atan2_cpu"), "atan2_": _kernel("atan2_cpu"),
    "copysign": _kernel("copysign_cpu"), "copysign_": _kernel("copysign_cpu"),
    "digamma_": _kernel("digamma"), "xlogy_": _kernel("xlogy_cpu"),
    "floor_divide": _kernel("div_floor_cpu"), "floor_divide_": _kernel("div_floor_cpu"),
    "div_floor": _kernel("div_floor_cpu"), "div_trunc": _kernel("div_trunc_cpu"),
    "sort": _SORT, "argsort": _SORT, "msort": _SORT, "searchsorted": _SORT,
    "topk": (RuntimeError, " topk does not support complex dtypes on CPU"),
    "sign": _SIGN, "sign_": _SIGN, "relu": _CLAMP, "relu_": _CLAMP,
    "maximum": (RuntimeError, "maximum not implemented for complex tensors."),
    "minimum": (RuntimeError, "minimum not implemented for complex tensors."),
    "logit": _kernel("logit_cpu"), "logit_": _kernel("logit_cpu"),
    "erfinv": _kernel("erfinv_vml_cpu"), "erfinv_": _kernel("erfinv_vml_cpu"),
    "xlogy": _kernel("xlogy_cpu"), "kthvalue": _kernel("kthvalue_cpu"),
    "remainder": _kernel("remainder_cpu"), "remainder_": _kernel("remainder_cpu"),
    "fmod": _kernel("fmod_cpu"), "fmod_": _kernel("fmod_cpu"),
    "gelu": _kernel("GeluKernelImpl"), "hardsigmoid": _kernel("hardsigmoid_cpu"),
    "hardsigmoid_": _kernel("hardsigmoid_cpu"), "glu": _kernel("glu_cpu"),
    "median": _kernel("median_cpu"), "nanmedian": _kernel("median_cpu"),
    "mode": _kernel("mode_cpu"), "aminmax": _kernel("aminmax_cpu"),
    "cummax": _kernel("cummax_cpu"), "cummin": _kernel("cummin_cpu"),
    "bucketize": _kernel("searchsorted_out_cpu"), "unique": _kernel("unique"),
    # (the operators & | ^ << >> and their in-place forms reach these kernels too)
    "bitwise_and": _kernel("bitwise_and_cpu"), "bitwise_and_": _kernel("bitwise_and_cpu"),
    "bitwise_or": _kernel("bitwise_or_cpu"), "bitwise_or_": _kernel("bitwise_or_cpu"),
    "bitwise_xor": _kernel("bitwise_xor_cpu"), "bitwise_xor_": _kernel("bitwise_xor_cpu"),
    "bitwise_not": _kernel("bitwise_not_cpu"), "bitwise_not_": _kernel("bitwise_not_cpu"),
    "bitwise_left_shift": _kernel("lshift_cpu"), "bitwise_left_shift_": _kernel("lshift_cpu"),
    "bitwise_right_shift": _kernel("rshift_cpu"),
    "bitwise_right_shift_": _kernel("rshift_cpu"),
    "unique_consecutive": _kernel("unique"), "unique_dim": _kernel("unique_dim"),
    "binary_cross_entropy": _kernel("binary_cross_entropy"),
    "_fft_r2c": (RuntimeError, "Only supports floating-point dtypes, but found: {dtype}"),
    # (the ops whose PyTorch check precedes any kernel: a RuntimeError, not the kernel's)
    "abs_": (RuntimeError, "In-place abs is not supported for complex tensors."),
    "argmax": (RuntimeError, "argmax(): does not support complex input"),
    "argmin": (RuntimeError, "argmin(): does not support complex input"),
    "isposinf": (RuntimeError, "isposinf does not support complex inputs."),
    "isneginf": (RuntimeError, "isneginf does not support complex inputs."),
    "deg2rad": (RuntimeError, "deg2rad is not supported for complex tensors."),
    "deg2rad_": (RuntimeError, "deg2rad is not supported for complex tensors."),
    "rad2deg": (RuntimeError, "rad2deg is not supported for complex tensors."),
    "rad2deg_": (RuntimeError, "rad2deg is not supported for complex tensors."),
    "fmax": (RuntimeError, "fmax not implemented for complex tensors."),
    "fmin": (RuntimeError, "fmin not implemented for complex tensors."),
    "heaviside": (RuntimeError, "heaviside is not yet implemented for complex tensors."),
    "heaviside_": (RuntimeError, "heaviside is not yet implemented for complex tensors."),
    # (rrelu_with_noise passes the guard: its kernel checks the bounds first, then
    # refuses as leaky_relu_cpu, or rrelu_with_noise_out_cpu in training, as PyTorch's)
    # (cdist passes the guard: op_cdist's own dtype check names X1 or X2 and comes after
    # _cdist_forward's forward-AD refusal, as PyTorch's)
    "pdist": (RuntimeError, "pdist only supports floating-point dtypes"),
    "nansum": (RuntimeError, "nansum on CPU does not support complex inputs"),
    "nanmean": (RuntimeError, "nansum on CPU does not support complex inputs"),
    "quantile": (RuntimeError, "quantile() input tensor must be either float or double dtype"),
    "nanquantile": (RuntimeError,
                    "quantile() input tensor must be either float or double dtype"),
    "cosine_similarity": (RuntimeError, "expected common dtype to be floating point, yet "
                                        "common dtype is {dtype}"),
    "signbit": (NotImplementedError, "signbit is not implemented for complex tensors."),
    "elu": _kernel("elu_cpu"), "elu_": _kernel("elu_cpu"), "celu": _kernel("elu_cpu"),
    "celu_": _kernel("elu_cpu"), "selu": _kernel("elu_cpu"), "selu_": _kernel("elu_cpu"),
    "leaky_relu": _kernel("leaky_relu_cpu"), "leaky_relu_": _kernel("leaky_relu_cpu"),
    "softplus": _kernel("softplus_cpu"), "softshrink": _kernel("softshrink_check"),
    "hardshrink": _kernel("hardshrink_cpu"), "threshold": _kernel("threshold_cpu"),
    "threshold_": _kernel("threshold_cpu"), "hardtanh": _CLAMP, "hardtanh_": _CLAMP,
    "histogram": _kernel("histogram_cpu"),
    # the special functions: each names its kernel (vml: the ones with a vectorised loop)
    "lgamma": _kernel("lgamma_vml_cpu"), "lgamma_": _kernel("lgamma_vml_cpu"),
    "erf": _kernel("erf_vml_cpu"), "erf_": _kernel("erf_vml_cpu"),
    "erfc": _kernel("erfc_vml_cpu"), "erfc_": _kernel("erfc_vml_cpu"),
    "i0": _kernel("i0_vml_cpu"), "i0_": _kernel("i0_vml_cpu"),
    "round": _kernel("round_vml_cpu"), "round_": _kernel("round_vml_cpu"),
    "mvlgamma": _kernel("arange_cpu"), "mvlgamma_": _kernel("arange_cpu"),
    "igamma": _kernel("igamma_cpu"), "igamma_": _kernel("igamma_cpu"),
    "igammac": _kernel("igammac_cpu"), "igammac_": _kernel("igammac_cpu"),
    "special_ndtr": _kernel("erf_vml_cpu"),
    **{"special_" + name: _kernel(name + "_cpu") for name in """
        erfcx i0e i1 i1e log_ndtr ndtri entr bessel_j0 bessel_j1 bessel_y0 bessel_y1
        modified_bessel_i0 modified_bessel_i1 modified_bessel_k0 modified_bessel_k1
        scaled_modified_bessel_k0 scaled_modified_bessel_k1 spherical_bessel_j0
        airy_ai""".split()},
}

_tensor.set_complex_ops(COMPLEX_OPS, COMPLEX_MESSAGES)
# (ops whose complex refusal is not their unsigned kernel's: see the end of this file)
_COMPLEX_OWN_WORDS = frozenset()

# Ops whose derivatives take complex values (Note [Complex autograd]), by the op names of
# the derivative table (an in-place variant records its op's node) and of the
# hand-written recorders (cat, stack, split, unbind, copy_, index_put_). Not listed (they
# raise on complex values requiring grad): the ops whose formulas have no conjugations
# yet. The decompositions' helpers (ops/linalg.pyx) take adjoints (_mH) where the real
# formulas transpose, and raise PyTorch's error when a loss depends on the phase of
# singular vectors or eigenvectors; complex convolutions are three real ones (ops/_nn_convolution.pxi).
COMPLEX_AUTOGRAD_OPS = frozenset("""
add sub rsub mul div _div_mode add_scalar div_scalar neg reciprocal pow
exp exp2 expm1 log log2 log10 sqrt rsqrt sin cos tan sinh cosh tanh
sigmoid abs sgn angle conj real imag view_as_real view_as_complex
complex polar _to_copy clone copy_ where positive
sum mean sum_to cumsum trace var std var_mean std_mean
mm bmm mv dot vdot addmm addmv linalg_inv_ex outer
view reshape _reshape_alias _unsafe_view view_as reshape_as flatten unflatten squeeze
unsqueeze transpose t permute movedim moveaxis swapaxes alias expand expand_as
broadcast_to select select_backward slice slice_backward narrow diagonal
diagonal_backward flip roll repeat tril triu cat stack split unbind index_select gather
masked_fill index_put_ _getitem _index_put_impl unfold unfold_backward
_fft_r2c _fft_c2r _fft_c2c constant_pad_nd index
conj_physical _neg_view view_as_real_copy
prod cumprod linalg_det linalg_slogdet linalg_solve_ex linalg_solve_triangular
linalg_lu_solve linalg_lu_factor_ex linalg_lu cholesky_solve linalg_cholesky_ex cholesky
linalg_qr _linalg_svd _linalg_eigh linalg_eig linalg_vector_norm
linalg_pinv linalg_matrix_exp tanh_backward sigmoid_backward mul_scalar
triangular_solve cholesky_inverse lu_unpack
alias_copy as_strided as_strided_scatter block_diag channel_shuffle diag_embed
diagonal_copy diagonal_scatter eq_ ne_ expand_copy fill fill_ index_copy index_fill
masked_scatter masked_select permute_copy pixel_shuffle pixel_unshuffle put rot90 scatter
scatter_add squeeze_ t_ t_copy take transpose_ transpose_copy unsqueeze_ unsqueeze_copy
view_copy zero_ index_add addr addbmm baddbmm ldexp
addcmul addcdiv lerp _lerp_tensor linalg_cross asin acos atan asinh acosh atanh log1p
reflection_pad reflection_pad_backward replication_pad replication_pad_backward im2col col2im
dist _norm_dim _norm_all renorm
nan_to_num sinc logaddexp logsumexp logcumsumexp
scatter_reduce index_reduce
linalg_lstsq linalg_householder_product orgqr ormqr linalg_ldl_factor_ex linalg_ldl_solve
""".split())

_tensor.set_complex_grad_ops(COMPLEX_AUTOGRAD_OPS)

# Ops whose forward derivatives take complex tangents although they are not in
# COMPLEX_AUTOGRAD_OPS: PyTorch refuses to record their backward node for a complex output
# but evaluates their forward formulas (Note [Complex forward AD] in _core/_fw.pxi;
# tests/test_complex_forward_table.py compares their tangents with PyTorch's). silu is not
# one: PyTorch's complex tangent, t * conj(silu'(x)), is its auto element-wise formula over
# a backward formula without the conjugation, and a finite difference of the holomorphic
# silu gives t * silu'(x); as silu_'s backward (ops/_nn_activation.pxi), ours refuses
# rather than give that value.
COMPLEX_FORWARD_AD_OPS = frozenset("""
select_copy select_scatter slice_scatter cummin cummax embedding
affine_grid_generator
""".split())

_tensor.set_complex_fw_ops(COMPLEX_FORWARD_AD_OPS)


# ------------------------------------------------------------ uint16, uint32, uint64
# Note [Wide unsigned dtypes] (_core/dtype.pyx): PyTorch's CPU kernels cover these
# dtypes for a few ops only (copies, views, shape ops, mul, sum, sort, comparisons for
# equality, and the float-valued functions, which compute in the default float). The
# ops below are those whose results on uint16/32/64 inputs were compared with
# PyTorch's (tests/test_unsigned.py runs the whole op table on them); every other op
# raises PyTorch's error for it: the kernel named in _UNSIGNED_KERNELS, a message of
# _UNSIGNED_OTHER, or the generic '"<op>" not implemented for 'UInt16''.
# Some ops reach a kernel without these dtypes on some inputs only; they are listed here
# and their implementations refuse the other inputs (refuse_complex, with the message of
# the kernel PyTorch reaches): flip, fliplr, flipud, rot90 (Note [Unsigned flip] in
# ops/view.pyx), index_select of a 0-d or 1-d self, einsum's contractions (bmm),
# count_nonzero over all dims, combinations with any combination (masked_select),
# trapezoid of a non-empty y, inner and tensordot (dot for a one-element result, else mm),
# matmul (dot, mv, mm or bmm by the operands' dims), matrix_power but for n = 1,
# max / min with dim but for a 0-d input, index_reduce but for prod with include_self,
# the products (mm, bmm, mv, the add-products and the ops made of them) over an
# empty result or inner dim (Note [Empty products of kernel-less dtypes]).
UNSIGNED_OPS = frozenset("""
_pad_circular adjoint alias_copy all angle argsort as_strided as_strided_scatter asinh
atan atan2 bincount broadcast_to bucketize cat ceil chunk clone column_stack
constant_pad_nd copysign corrcoef cos cosh cov cumprod cumsum deg2rad diag diag_embed
diagflat diagonal diagonal_copy diagonal_scatter digamma div dropout dstack embedding
eq erf erfc exp exp2 expand_as expand_copy expm1 fill flatten float_power float_power_
floor ger hstack i0 isfinite isinf isnan isneginf isposinf kron ldexp lgamma
linalg_diagonal linalg_vander log log10 log1p log2 logit logsumexp msort mul nan_to_num
nansum ne outer permute permute_copy polygamma positive rad2deg ravel reciprocal
reshape roll round rsqrt select select_copy select_scatter sigmoid signbit sin sinc
sinh slice_scatter softmax sort special_entr special_erfcx special_i0e special_i1
special_i1e special_ndtr split_copy split_with_sizes split_with_sizes_copy sqrt stack
sum sum_to_size swapaxes t t_copy tanh tile transpose transpose_copy trunc unbind
unflatten unfold unique unique_consecutive unsafe_chunk unsafe_split
unsafe_split_with_sizes unsqueeze unsqueeze_copy view_as view_copy vstack xlogy
eq_ ne_ mul_ fill_ t_ floor_ ceil_ round_ trunc_ nan_to_num_ special_log_ndtr
einsum flip fliplr flipud rot90 index_select count_nonzero combinations trapezoid
linalg_matrix_power matrix_power inner index_reduce index_reduce_ tensordot matmul
bitwise_and bitwise_or bitwise_xor bitwise_and_ bitwise_or_ bitwise_xor_
mm bmm mv addmm addmv baddbmm addbmm linalg_matmul linalg_multi_dot chain_matmul linear
""".split())

# Ops that pass the guard although PyTorch refuses every input of these dtypes: the
# kernel or check it reaches depends on their other arguments, so the implementation
# refuses, naming that one (as round and polygamma for complex): norm and linalg.norm
# reach linalg.vector_norm's or linalg.matrix_norm's dtype check by ord and dim;
# rrelu_with_noise checks its bounds, then refuses as leaky_relu_cpu (or
# rrelu_with_noise_out_cpu in training); log_softmax's kernel depends on dim, nll_loss's
# on the input's dims (cross_entropy reaches log_softmax's); scatter_reduce's on reduce
# and include_self; linalg.lstsq's, linalg.matrix_rank's, linalg.cond's, pinverse's and
# ormqr's come after their other arguments' checks (lstsq and matrix_rank: without
# rcond / rtol, the default's epsilon; cond: svd's or inv's, by p); the pads' kernels
# are one per count of padded dims; _weight_norm's is its fused kernel's when dim is
# the first or last, else norm_except_dim's dtype check; index_add, index_copy, put and
# masked_scatter check source's dtype against self's first, then dispatch on self's;
# linalg.matmul is matmul (listed above); histc's kernels depend on its range; addr
# checks beta and alpha first; linalg.eig and eigvals find no complex type first.
_UNSIGNED_REFUSED_BY_THE_OP = frozenset("""
norm linalg_norm rrelu_with_noise rrelu_with_noise_ log_softmax nll_loss cross_entropy
scatter_reduce linalg_lstsq linalg_matrix_rank linalg_cond pinverse ormqr
reflection_pad replication_pad _weight_norm
index_add index_add_ index_copy index_copy_ put put_ masked_scatter masked_scatter_
linalg_matmul histc addr linalg_eig linalg_eigvals
""".split())
UNSIGNED_OPS = UNSIGNED_OPS | _UNSIGNED_REFUSED_BY_THE_OP

# The ops that PyTorch computes in their operands' common dtype (Note [Dtype guard]):
# with a floating or complex operand (uint16 + 2.5, x.lt(0.5), float_t.mul_(u), clamp
# with float bounds) they compute in that dtype, with PyTorch's promotion; with integer
# operands only they raise as listed below. An in-place form whose self is unsigned
# and whose common dtype is floating raises the cast error (the op's own check).
UNSIGNED_FLOAT_OPS = frozenset("""
add add_ sub sub_ rsub mul_ div div_floor div_trunc remainder remainder_ fmod fmod_
floor_divide floor_divide_ pow pow_ clamp clamp_ clamp_min clamp_min_ clamp_max
clamp_max_ lt le gt ge lt_ le_ gt_ ge_ fmax fmin maximum minimum hypot hypot_
logaddexp logaddexp2 nextafter nextafter_ searchsorted binary_cross_entropy
""".split())

_UNSIGNED_KERNELS = {
    "_adaptive_avg_pool2d": "adaptive_avg_pool2d", "_prelu_kernel": "prelu_cpu",
    "_safe_softmax": "softmax_lastdim_kernel_impl", "abs": "abs_cpu", "abs_": "abs_cpu",
    "add": "add_stub", "add_": "add_stub", "addbmm": "addmm_impl_cpu_",
    "addcmul": "addcmul_cpu_out", "addcmul_": "addcmul_cpu_out",
    "addmm": "addmm_impl_cpu_", "addmv": "addmv_impl_cpu", "addr": "addr_cpu",
    "affine_grid_generator": "linspace_cpu", "amax": "max_values_cpu",
    "amin": "min_values_cpu", "aminmax": "aminmax_cpu", "argmax": "argmax_cpu",
    "argmin": "argmin_cpu", "argwhere": "nonzero_count_cpu",
    "binary_cross_entropy_with_logits": "log_sigmoid_cpu", "celu": "elu_cpu",
    "celu_": "elu_cpu", "clamp": "clamp_cpu",
    "clamp_max": "minimum_cpu", "clamp_min": "maximum_cpu", "col2im": "col2im_out_cpu",
    "conv_tbc": "addmm_impl_cpu_",
    "cummax": "cummax_cpu",
    "chain_matmul": "addmm_impl_cpu_", "combinations": "masked_select",
    "count_nonzero": "nonzero_count_cpu", "trapezoid": "add_stub",
    "cummin": "cummin_cpu", "cumulative_trapezoid": "add_stub", "diff": "add_stub",
    "dist": "add_stub", "div_floor": "div_floor_cpu", "div_trunc": "div_trunc_cpu",
    "elu": "elu_cpu", "elu_": "elu_cpu", "flip": "flip_cpu",
    "floor_divide": "div_floor_cpu",
    "fmax": "maximum_cpu", "fmin": "minimum_cpu", "fmod": "fmod_cpu",
    "fmod_": "fmod_cpu", "frac": "frac_cpu", "frac_": "frac_cpu",
    "gather": "scatter_gather_tensor_cpu", "ge": "ge_cpu", "ge_": "ge_cpu",
    "gelu": "GeluKernelImpl", "geqrf": "geqrf_cpu", "gradient": "add_stub",
    "grid_sampler": "grid_sampler_2d_cpu_kernel_impl",
    "grid_sampler_2d": "grid_sampler_2d_cpu_kernel_impl",
    "grid_sampler_3d": "grid_sampler3d_cpu", "gt": "gt_cpu", "gt_": "gt_cpu",
    "hardshrink": "hardshrink_cpu", "hardsigmoid": "hardsigmoid_cpu",
    "hardsigmoid_": "hardsigmoid_cpu", "hardswish": "hardswish_cpu",
    "hardswish_": "hardswish_cpu", "hardtanh": "clamp_scalar_cpu",
    "hardtanh_": "clamp_scalar_cpu", "huber_loss": "huber_cpu", "hypot": "hypot_cpu",
    "hypot_": "hypot_cpu", "igamma": "igamma_cpu", "igamma_": "igamma_cpu",
    "igammac": "igammac_cpu", "im2col": "im2col_out_cpu",
    "index_copy": "index_copy_cpu", "index_fill": "index_fill_cpu",
    "index_reduce": "index_reduce_func_exclude_input_init",
    "index_select": "index_select", "kthvalue": "kthvalue_cpu",
    "layer_norm": "LayerNormKernelImpl", "le": "le_cpu", "le_": "le_cpu",
    "leaky_relu": "leaky_relu_cpu", "leaky_relu_": "leaky_relu_cpu",
    "linalg_cross": "cross", "linalg_eigh": "linalg_eigh_cpu",
    "linalg_eigvalsh": "linalg_eigh_cpu", "linalg_householder_product": "orgqr_cpu",
    "linalg_lu": "lu_cpu", "linalg_lu_factor": "lu_cpu",
    "linalg_lu_factor_ex": "lu_cpu",     "linalg_multi_dot": "addmm_impl_cpu_",
    "linalg_solve_triangular": "triangular_solve_cpu", "linear": "addmm_impl_cpu_",
    "logaddexp": "logaddexp_cpu", "logaddexp2": "logaddexp2_cpu",
    "logcumsumexp": "logcumsumexp_out_cpu", "logical_and": "logical_and_cpu",
    "logical_not": "logical_not_cpu", "logical_or": "logical_or_cpu",
    "logical_xor": "logical_xor_cpu", "logsigmoid": "log_sigmoid_cpu", "lt": "lt_cpu",
    "lt_": "lt_cpu", "lu": "lu_cpu",     "max": "max_all", "max_dim": "max_cpu", "min_dim": "min_cpu", "max_pool2d_with_indices": "max_pool2d",
    "max_pool3d_with_indices": "max_pool3d", "maximum": "maximum_cpu", "min": "min_all",
    "median": "median_cpu", "nanmedian": "median_cpu", "median_dim": "median_out",
    "nanmedian_dim": "median_out",
    "minimum": "minimum_cpu", "mish": "mish_cpu", "mish_": "mish_cpu",
    "mm": "addmm_impl_cpu_", "mode": "mode_cpu", "mse_loss": "mse_cpu",
    "mv": "addmv_impl_cpu", "native_group_norm": "GroupNormKernelImpl",
    "neg": "neg_cpu", "neg_": "neg_cpu", "nextafter": "nextafter_cpu",
    "nextafter_": "nextafter_cpu", "nonzero": "nonzero_count_cpu",
    "nonzero_static": "nonzero_count_cpu", "orgqr": "orgqr_cpu",
    "pairwise_distance": "add_stub", "pow_": "pow", "prelu": "prelu_cpu",
    "put": "take_put_cpu", "relu": "clamp_min_scalar_cpu",
    "relu_": "clamp_min_scalar_cpu", "remainder": "remainder_cpu",
    "remainder_": "remainder_cpu",     "round_": "round_cpu", "rsub": "add_stub", "scatter": "scatter_gather_tensor_cpu",
    "scatter_add": "scatter_gather_tensor_cpu", "searchsorted": "searchsorted_out_cpu",
    "sgn": "sign_cpu", "sgn_": "sign_cpu", "sign": "sign_cpu", "sign_": "sign_cpu",
    "silu": "silu_cpu", "silu_": "silu_cpu",
    "smooth_l1_loss": "smooth_l1_cpu", "softplus": "softplus_cpu",
    "softshrink": "softshrink_check", "square": "pow", "square_": "pow",
    "sub": "add_stub", "sub_": "add_stub", "take": "take_cpu",
    "take_along_dim": "scatter_gather_tensor_cpu", "threshold": "threshold_cpu",
    "threshold_": "threshold_cpu", "topk": "topk_cpu",     "vdot": "dot",
    "bitwise_left_shift": "lshift_cpu", "bitwise_left_shift_": "lshift_cpu",
    "bitwise_right_shift": "rshift_cpu", "bitwise_right_shift_": "rshift_cpu",
    "bitwise_not": "bitwise_not_cpu", "bitwise_not_": "bitwise_not_cpu",
    "gcd": "gcd_cpu", "gcd_": "gcd_cpu", "lcm": "lcm_cpu", "lcm_": "lcm_cpu",
    "lerp": "lerp_kernel_scalar", "lerp_": "lerp_kernel_scalar",
    "_lerp_tensor": "lerp_kernel_tensor",
}
_ADDCDIV_INT = (RuntimeError, ADDCDIV_INT_MSG)
_UNSIGNED_OTHER = {
    "addcdiv": _ADDCDIV_INT,
    "addcdiv_": _ADDCDIV_INT,
    "cdist": (RuntimeError, 'cdist only supports floating-point dtypes, X1 got: {dtype}'),
    "cosine_similarity": (RuntimeError,
        'expected common dtype to be floating point, yet common dtype is '
        '{dtype}'),
    "frobenius_norm": (RuntimeError,
        'norm(): input dtype should be either floating point or complex. Got '
        '{dtype} instead.'),
    "ldexp_": (RuntimeError, "ldexp can't be cast to the desired output type {dtype}"),
    "linalg_det": (RuntimeError,
        'linalg.det: Expected a floating point or complex tensor as input. Got '
        '{dtype}'),
    "linalg_inv_ex": (RuntimeError,
        'linalg.inv: Expected a floating point or complex tensor as input. Got '
        '{dtype}'),
    "linalg_ldl_factor": (RuntimeError,
        'torch.linalg.ldl_factor_ex: Expected a floating point or complex '
        'tensor as input. Got {dtype}'),
    "linalg_matrix_exp": (RuntimeError,
        'linalg.matrix_exp: Expected a floating point or complex tensor as '
        'input. Got {dtype}'),
    "linalg_matrix_norm": (RuntimeError,
        'linalg.matrix_norm: Expected a floating point or complex tensor as '
        'input. Got {dtype}'),
    "linalg_qr": (RuntimeError,
        'linalg.qr: Expected a floating point or complex tensor as input. Got '
        '{dtype}'),
    "linalg_slogdet": (RuntimeError,
        'linalg.slogdet: Expected a floating point or complex tensor as input. '
        'Got {dtype}'),
    "linalg_svd": (RuntimeError,
        'linalg.svd: Expected a floating point or complex tensor as input. Got '
        '{dtype}'),
    "linalg_svdvals": (RuntimeError,
        'linalg.svd: Expected a floating point or complex tensor as input. Got '
        '{dtype}'),
    "linalg_vecdot": (RuntimeError,
        'linalg.vecdot: Expected a floating point or complex tensor as input. '
        'Got {dtype}'),
    "linalg_vector_norm": (RuntimeError,
        'linalg.vector_norm: Expected a floating point or complex tensor as '
        'input. Got {dtype}'),
    "matrix_exp": (RuntimeError,
        'linalg.matrix_exp: Expected a floating point or complex tensor as '
        'input. Got {dtype}'),
    "mean": (RuntimeError,
        'mean(): could not infer output dtype. Input dtype must be either a '
        'floating point or complex dtype. Got: {dtype}'),
    "nanmean": (RuntimeError,
        'nanmean(): expected input to have floating point or complex dtype but '
        'got {dtype}'),
    "nanquantile": (RuntimeError, 'quantile() input tensor must be either float or double dtype'),
    "norm_except_dim": (RuntimeError,
        'norm(): input dtype should be either floating point or complex. Got '
        '{dtype} instead.'),
    "normalize": (RuntimeError,
        'linalg.vector_norm: Expected a floating point or complex tensor as '
        'input. Got {dtype}'),
    "pdist": (RuntimeError, 'pdist only supports floating-point dtypes'),
    # (renorm's accumulate type has no entry for them: PyTorch's words, its assert's)
    "renorm": (RuntimeError,
        'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/'
        'AccumulateType.cpp":23, please report a bug to PyTorch. Unrecognized ScalarType: '
        '{dtype}'),
    "qr": (RuntimeError,
        'linalg.qr: Expected a floating point or complex tensor as input. Got '
        '{dtype}'),
    "quantile": (RuntimeError, 'quantile() input tensor must be either float or double dtype'),
    "scatter_add_": (RuntimeError, 'scatter(): Expected self.dtype to be equal to src.dtype'),
    "scatter_reduce_": (RuntimeError, 'scatter(): Expected self.dtype to be equal to src.dtype'),
    "slogdet": (RuntimeError,
        'linalg.slogdet: Expected a floating point or complex tensor as input. '
        'Got {dtype}'),
    "std": (RuntimeError, 'std and var only support floating point and complex dtypes'),
    "std_mean": (RuntimeError, 'std_mean only support floating point and complex dtypes'),
    "svd": (RuntimeError,
        'linalg.svd: Expected a floating point or complex tensor as input. Got '
        '{dtype}'),
    "var": (RuntimeError, 'std and var only support floating point and complex dtypes'),
    "var_mean": (RuntimeError, 'var_mean only support floating point and complex dtypes'),
}

# The in-place forms of the float-valued functions (whose out-of-place forms compute in
# the default float): PyTorch's result-type cast check refuses them first
_UNSIGNED_OTHER.update(dict.fromkeys("""
atan2_ atan_ copysign_ cos_ cosh_ deg2rad_ digamma_ erf_ erfc_ exp2_ exp_ expm1_ i0_
lgamma_ log10_ log1p_ log2_ log_ polygamma_ rad2deg_ reciprocal_ rsqrt_ sigmoid_ sin_
sinc_ sinh_ sqrt_ tanh_ xlogy_""".split(), (
    RuntimeError, "result type Float can't be cast to the desired output type {dtype}")))

UNSIGNED_MESSAGES = dict(_UNSIGNED_OTHER)
UNSIGNED_MESSAGES.update({name: _kernel(k) for name, k in _UNSIGNED_KERNELS.items()})

_tensor.set_guarded_ops("unsigned", UNSIGNED_OPS, UNSIGNED_MESSAGES, UNSIGNED_FLOAT_OPS)

# An op without a complex kernel whose PyTorch kernel has no complex variant either
# refuses complex input naming the same kernel as for the wide unsigned dtypes (both
# fall out of one AT_DISPATCH over the real types): the kernels of _UNSIGNED_KERNELS
# name the complex refusals too, unless COMPLEX_MESSAGES words one otherwise (the
# sweep of tests/test_unsigned.py compares every op-table entry's refusal of both).
for _name, _k in _UNSIGNED_KERNELS.items():
    if _name not in COMPLEX_OPS and _name not in _COMPLEX_OWN_WORDS:
        COMPLEX_MESSAGES.setdefault(_name, _kernel(_k))
_tensor.set_complex_ops(COMPLEX_OPS, COMPLEX_MESSAGES)
