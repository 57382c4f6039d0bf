"""autograd_core.ops.aten, .prim, .profiler: PyTorch's ``torch.ops`` operator objects.

``torch.ops.aten.mm`` is an ``OpOverloadPacket`` (the op), ``torch.ops.aten.mm.default``
an ``OpOverload`` (one of its schemas); both compare, hash and print as PyTorch's and
can be called (``torch.ops.aten.mm.default(a, b)`` runs ``torch.mm``). They are what an
op hook (Note [Op hook], ``_core/_profiler.pxi``) names: ``overload_for(name, args)``
turns the ATen name a hooked op reports ("aten::add") and its arguments into the
overload PyTorch dispatches for that call (``aten.add.Tensor``), which is what a
selective-checkpointing policy compares against.

The namespaces are attributes of the package ``autograd_core.ops`` (whose modules are
the op families), so ``import autograd_core as torch; torch.ops.aten.sin.default``
works as in PyTorch. Only ops this library has (and the metadata ops PyTorch's
selective checkpointing ignores) are known.

>>> import autograd_core as torch
>>> op = torch.ops.aten.mm.default
>>> op, str(op), op.name()
(<OpOverload(op='aten.mm', overload='default')>, 'aten.mm.default', 'aten::mm')
>>> op(torch.eye(2), torch.ones(2, 2))
tensor([[1., 1.],
        [1., 1.]])
"""
import types

__all__ = ["OpOverload", "OpOverloadPacket"]

# The overloads of each ATen op this library runs, as PyTorch 2.13 names them
# (a fact of its schemas; the "out" variants are never dispatched here).
_OVERLOADS = {
    "_softmax": "default out", "_log_softmax": "default out",
    "native_layer_norm": "default out",
    "_adaptive_avg_pool2d": "default out", "_adaptive_avg_pool2d_backward": "default out",
    "_cdist_backward": "default out", "_cdist_forward": "default out",
    "_dirichlet_grad": "default out", "_euclidean_dist": "default out",
    "_index_put_impl": "default out", "_linalg_eigh": "default eigenvalues",
    "_linalg_svd": "default U", "_log_softmax_backward_data": "default out",
    "_pad_circular": "default", "_pdist_backward": "default out",
    "_prelu_kernel": "default", "_reshape_alias": "default", "_safe_softmax": "default",
    "_sample_dirichlet": "default out",
    "_scaled_dot_product_flash_attention_for_cpu": "default",
    "_softmax_backward_data": "default out", "_standard_gamma": "default out",
    "_standard_gamma_grad": "default out", "_to_copy": "default out",
    "_unsafe_view": "default out", "abs": "default out", "abs_": "default",
    "acos": "default out int float complex Scalar", "acos_": "default",
    "acosh": "default out int float complex Scalar", "acosh_": "default",
    "adaptive_max_pool2d": "default out",
    "add": "Tensor Scalar out Scalar_out t str int complex float int_complex complex_int float_complex complex_float int_float float_int default",
    "add_": "Tensor Scalar t", "addbmm": "default out", "addbmm_": "default",
    "addcdiv": "default out", "addcdiv_": "default", "addcmul": "default out",
    "addcmul_": "default", "addmm": "default out dtype_out dtype", "addmm_": "default",
    "addmv": "default out", "addmv_": "default", "addr": "default out", "addr_": "default",
    "adjoint": "default", "affine_grid_generator": "default out", "alias": "default",
    "alias_copy": "default out",
    "all": "default dim dims out dims_out all_out int float bool", "amax": "default out",
    "amin": "default out", "aminmax": "default out",
    "any": "default dim dims out dims_out all_out str int float bool",
    "argmax": "default out", "argmin": "default out",
    "argsort": "default stable stable_out", "argwhere": "default", "as_strided": "default",
    "as_strided_": "default", "as_strided_scatter": "default out",
    "asin": "default out int float complex Scalar", "asin_": "default",
    "asinh": "default out int float complex Scalar", "asinh_": "default",
    "atan": "default out int float complex Scalar",
    "atan2": "default out int float int_float float_int Scalar_Scalar",
    "atan2_": "default", "atan_": "default",
    "atanh": "default out int float complex Scalar", "atanh_": "default",
    "atleast_1d": "default Sequence", "atleast_2d": "default Sequence",
    "atleast_3d": "default Sequence", "avg_pool2d": "default out",
    "avg_pool2d_backward": "default grad_input", "baddbmm": "default out dtype_out dtype",
    "baddbmm_": "default", "batch_norm": "default",
    "bernoulli": "default out p Tensor Tensor_out float_out", "bernoulli_": "Tensor float",
    "binary_cross_entropy": "default out",
    "binary_cross_entropy_backward": "default grad_input",
    "binary_cross_entropy_with_logits": "default out", "bincount": "default out",
    "binomial": "default out",
    "bitwise_and": "Tensor Scalar Scalar_Tensor Tensor_out Scalar_out Scalar_Tensor_out",
    "bitwise_and_": "Tensor Scalar",
    "bitwise_left_shift": "Tensor Tensor_Scalar Scalar_Tensor Tensor_out Tensor_Scalar_out Scalar_Tensor_out",
    "bitwise_left_shift_": "Tensor_Scalar Tensor", "bitwise_not": "default out",
    "bitwise_not_": "default",
    "bitwise_or": "Tensor Scalar Scalar_Tensor Tensor_out Scalar_out Scalar_Tensor_out",
    "bitwise_or_": "Tensor Scalar",
    "bitwise_right_shift": "Tensor Tensor_Scalar Scalar_Tensor Tensor_out Tensor_Scalar_out Scalar_Tensor_out",
    "bitwise_right_shift_": "Tensor_Scalar Tensor",
    "bitwise_xor": "Tensor Scalar Scalar_Tensor Tensor_out Scalar_out Scalar_Tensor_out",
    "bitwise_xor_": "Tensor Scalar", "block_diag": "default out",
    "bmm": "default out dtype_out dtype", "broadcast_tensors": "default",
    "broadcast_to": "default", "bucketize": "Tensor Scalar Tensor_out Scalar_out",
    "cartesian_prod": "default", "cat": "default out", "cauchy_": "default",
    "cdist": "default", "ceil": "default out int float Scalar", "ceil_": "default",
    "celu": "default out", "celu_": "default", "chain_matmul": "default out",
    "channel_shuffle": "default out", "cholesky": "default out",
    "cholesky_inverse": "default out", "cholesky_solve": "default out", "chunk": "default",
    "clamp": "default Tensor out Tensor_out", "clamp_": "default Tensor",
    "clamp_max": "default Tensor out Tensor_out", "clamp_max_": "default Tensor",
    "clamp_min": "default Tensor out Tensor_out", "clamp_min_": "default Tensor",
    "clone": "default out", "col2im": "default out", "column_stack": "default out",
    "combinations": "default", "conj": "default", "constant_pad_nd": "default out",
    "conv1d": "default padding", "conv2d": "default padding", "conv_tbc": "default out",
    "convolution": "default out", "copy_": "default Tensor int float",
    "copysign": "Tensor Scalar out Scalar_out int float int_float float_int default",
    "copysign_": "Tensor Scalar", "corrcoef": "default",
    "cos": "default out int float complex Scalar", "cos_": "default",
    "cosh": "default out int float complex Scalar", "cosh_": "default",
    "cosine_similarity": "default",
    "count_nonzero": "default dim_IntList dim_IntList_out out", "cov": "default",
    "cross": "default out", "cummax": "default out", "cummin": "default out",
    "cumprod": "default out", "cumprod_": "default", "cumsum": "default out",
    "cumsum_": "default", "cumulative_trapezoid": "x dx", "deg2rad": "default out",
    "deg2rad_": "default", "det": "default", "detach": "default", "diag": "default out",
    "diag_embed": "default out", "diagflat": "default", "diagonal": "default",
    "diagonal_backward": "default out", "diagonal_copy": "default out",
    "diagonal_scatter": "default out", "diff": "default out", "digamma": "default out",
    "digamma_": "default", "dim": "default", "dist": "default out",
    "div": "Tensor Scalar Tensor_mode Scalar_mode out out_mode Scalar_out Scalar_mode_out int complex float default",
    "div_": "Tensor Tensor_mode Scalar Scalar_mode", "dot": "default out",
    "dropout": "default", "dropout_": "default", "dsplit": "int array",
    "dstack": "default out", "einsum": "default sublist", "elu": "default out",
    "elu_": "default", "elu_backward": "default grad_input", "embedding": "default out",
    "embedding_renorm_": "default",
    "eq": "Tensor Scalar Scalar_out Tensor_out int_list device bool enum int complex float int_float float_int float_complex complex_float default str float_list Tensor_list bool_list str_list",
    "eq_": "Scalar Tensor", "erf": "default out int float Scalar", "erf_": "default",
    "erfc": "default out int float Scalar", "erfc_": "default", "erfinv": "default out",
    "erfinv_": "default", "exp": "default out int float complex Scalar",
    "exp2": "default out", "exp2_": "default", "exp_": "default", "expand": "default",
    "expand_as": "default", "expand_copy": "default out",
    "expm1": "default out int float Scalar", "expm1_": "default",
    "exponential_": "default", "feature_dropout": "default", "feature_dropout_": "default",
    "fill": "Scalar Scalar_out Tensor Tensor_out", "fill_": "Scalar Tensor",
    "fill_diagonal_": "default", "flatten": "using_ints", "flip": "default out",
    "fliplr": "default", "flipud": "default",
    "float_power": "Tensor_Tensor Tensor_Scalar Scalar Tensor_Tensor_out Scalar_out Tensor_Scalar_out",
    "float_power_": "Tensor Scalar", "floor": "default out int float Scalar",
    "floor_": "default", "floor_divide": "default Scalar out Scalar_out",
    "floor_divide_": "Tensor Scalar", "fmax": "default out", "fmin": "default out",
    "fmod": "Tensor Scalar Tensor_out Scalar_out int float int_float float_int default",
    "fmod_": "Tensor Scalar", "frac": "default out", "frac_": "default",
    "frexp": "Tensor Tensor_out default", "frobenius_norm": "dim out",
    "gather": "default out", "gcd": "default out int", "gcd_": "default",
    "ge": "Tensor Scalar Scalar_out Tensor_out int float int_float float_int default str",
    "ge_": "Scalar Tensor", "gelu": "default out", "gelu_backward": "default grad_input",
    "geometric_": "default", "geqrf": "default a", "ger": "default out",
    "gradient": "scalarint scalararray array scalarrayint scalarrayarray tensorarrayint tensorarray",
    "grid_sampler": "default", "grid_sampler_2d": "default out",
    "grid_sampler_3d": "default out",
    "gt": "Tensor Scalar Scalar_out Tensor_out int float int_float float_int default str",
    "gt_": "Scalar Tensor", "hardshrink": "default out",
    "hardshrink_backward": "default grad_input", "hardsigmoid": "default out",
    "hardsigmoid_": "default", "hardsigmoid_backward": "default grad_input",
    "hardswish": "default out", "hardswish_": "default",
    "hardswish_backward": "default out", "hardtanh": "default out", "hardtanh_": "default",
    "hardtanh_backward": "default grad_input", "heaviside": "default out",
    "heaviside_": "default", "histc": "default out",
    "histogram": "bins_tensor bins_tensor_out bin_ct bin_ct_out",
    "histogramdd": "default int_bins TensorList_bins", "hsplit": "int array",
    "hstack": "default out", "huber_loss": "default out",
    "huber_loss_backward": "out default", "hypot": "default out", "hypot_": "default",
    "i0": "default out", "i0_": "default", "igamma": "default out", "igamma_": "default",
    "igammac": "default out", "igammac_": "default", "im2col": "default out",
    "imag": "default",
    "index": "Tensor Tensor_out Tensor_hacked_twin str list_int list_float list_bool list_Tensor list_str",
    "index_add": "default out", "index_add_": "default", "index_copy": "default out",
    "index_copy_": "default",
    "index_fill": "int_Tensor int_Scalar int_Scalar_out int_Tensor_out",
    "index_fill_": "int_Tensor int_Scalar", "index_put": "default out hacked_twin",
    "index_put_": "default hacked_twin", "index_reduce": "default out",
    "index_reduce_": "default", "index_select": "default out", "inner": "default out",
    "inverse": "default out", "is_contiguous": "default memory_format",
    "is_non_overlapping_and_dense": "default", "is_strides_like_format": "default",
    "isclose": "default", "isfinite": "default float complex",
    "isin": "Tensor_Tensor Tensor_Tensor_out Tensor_Scalar Tensor_Scalar_out Scalar_Tensor Scalar_Tensor_out",
    "isinf": "default out float complex", "isnan": "default out float complex",
    "isneginf": "default out", "isposinf": "default out", "isreal": "default",
    "kron": "default out", "kthvalue": "default values", "layer_norm": "default",
    "lcm": "default out", "lcm_": "default", "ldexp": "Tensor out default",
    "ldexp_": "default",
    "le": "Tensor Scalar Scalar_out Tensor_out int float int_float float_int default str",
    "le_": "Scalar Tensor", "leaky_relu": "default out", "leaky_relu_": "default",
    "leaky_relu_backward": "default grad_input",
    "lerp": "Scalar Tensor Scalar_out Tensor_out", "lerp_": "Scalar Tensor",
    "lgamma": "default out int float Scalar", "lgamma_": "default",
    "linalg_cholesky": "default out", "linalg_cholesky_ex": "default L",
    "linalg_cond": "default p_str out p_str_out", "linalg_cross": "default out",
    "linalg_det": "default out", "linalg_diagonal": "default", "linalg_eig": "default out",
    "linalg_eigh": "default eigvals", "linalg_eigvals": "default out",
    "linalg_eigvalsh": "default out", "linalg_householder_product": "default out",
    "linalg_inv": "default out", "linalg_inv_ex": "default inverse",
    "linalg_ldl_factor": "default out", "linalg_ldl_factor_ex": "default out",
    "linalg_ldl_solve": "default out", "linalg_lstsq": "default out",
    "linalg_lu": "default out", "linalg_lu_factor": "default out",
    "linalg_lu_factor_ex": "default out", "linalg_lu_solve": "default out",
    "linalg_matmul": "default out", "linalg_matrix_exp": "default out",
    "linalg_matrix_norm": "default str_ord out str_ord_out",
    "linalg_matrix_power": "default out",
    "linalg_matrix_rank": "default tol_tensor atol_rtol_tensor atol_rtol_float atol_rtol_tensor_out atol_rtol_float_out out out_tol_tensor",
    "linalg_multi_dot": "default out", "linalg_norm": "default ord_str out ord_str_out",
    "linalg_pinv": "default atol_rtol_float atol_rtol_tensor atol_rtol_tensor_out atol_rtol_float_out out rcond_tensor out_rcond_tensor",
    "linalg_qr": "default out", "linalg_slogdet": "default out",
    "linalg_solve": "default out", "linalg_solve_ex": "default out",
    "linalg_solve_triangular": "default out", "linalg_svd": "default U",
    "linalg_svdvals": "default out", "linalg_tensorinv": "default out",
    "linalg_tensorsolve": "default out", "linalg_vander": "default",
    "linalg_vecdot": "default out", "linalg_vector_norm": "default out",
    "linear": "default out",
    "log": "default out int float complex Scalar int_int float_float complex_complex int_float float_int int_complex complex_int float_complex complex_float Scalar_Scalar",
    "log10": "default out int float complex Scalar", "log10_": "default",
    "log1p": "default out int float Scalar", "log1p_": "default", "log2": "default out",
    "log2_": "default", "log_": "default", "log_normal_": "default",
    "log_sigmoid_backward": "default grad_input", "log_softmax": "int int_out",
    "logaddexp": "default out", "logaddexp2": "default out", "logcumsumexp": "default out",
    "logdet": "default", "logical_and": "default out", "logical_and_": "default",
    "logical_not": "default out", "logical_not_": "default", "logical_or": "default out",
    "logical_or_": "default", "logical_xor": "default out", "logical_xor_": "default",
    "logit": "default out", "logit_": "default", "logsumexp": "default out",
    "lt": "Tensor Scalar Scalar_out Tensor_out int float int_float float_int default str",
    "lt_": "Scalar Tensor", "lu_solve": "default out", "lu_unpack": "default out",
    "masked_fill": "Scalar Scalar_out Tensor Tensor_out", "masked_fill_": "Scalar Tensor",
    "masked_scatter": "default out", "masked_scatter_": "default",
    "masked_select": "default out", "matmul": "default out", "matrix_exp": "default",
    "matrix_power": "default out", "max": "other default dim dim_max unary_out out",
    "max_pool2d": "default", "max_pool2d_with_indices": "default out",
    "max_pool2d_with_indices_backward": "default grad_input",
    "max_pool3d_with_indices": "default out", "maximum": "default out",
    "mean": "default dim out dtype_out", "median": "default dim dim_values out",
    "meshgrid": "default indexing", "min": "other default dim dim_min unary_out out",
    "minimum": "default out", "mish": "default out", "mish_": "default",
    "mm": "default out dtype_out dtype", "mode": "default values",
    "moveaxis": "intlist int", "movedim": "int intlist", "mse_loss": "default out",
    "mse_loss_backward": "default grad_input", "msort": "default out",
    "mul": "Tensor Scalar out Scalar_out left_t right_ int complex float int_complex complex_int float_complex complex_float int_float float_int default",
    "mul_": "Tensor Scalar t", "mv": "default out", "mvlgamma": "default out",
    "mvlgamma_": "default", "nan_to_num": "default out", "nan_to_num_": "default",
    "nanmean": "default out", "nanmedian": "default dim dim_values out",
    "nanquantile": "default scalar out scalar_out", "nansum": "default out",
    "narrow": "default Tensor", "native_channel_shuffle": "default",
    "native_group_norm": "default out",
    "ne": "Tensor Scalar Scalar_out Tensor_out int_list device bool enum int complex float int_float float_int float_complex complex_float default str float_list Tensor_list bool_list str_list",
    "ne_": "Scalar Tensor", "neg": "default out int float complex Scalar",
    "neg_": "default", "nextafter": "default out", "nextafter_": "default",
    "nll_loss": "default out", "nll_loss_backward": "default grad_input",
    "nonzero": "default out", "nonzero_static": "default out",
    "norm": "Scalar ScalarOpt_dim ScalarOpt_dim_dtype dtype_out out ScalarOpt_dtype ScalarOpt_dtype_out Scalar_out",
    "norm_except_dim": "default",
    "normal": "Tensor_float Tensor_float_out float_Tensor_out float_Tensor Tensor_Tensor Tensor_Tensor_out float_float float_float_out out",
    "normal_": "default", "nuclear_norm": "default dim out dim_out", "numel": "default",
    "orgqr": "default out", "ormqr": "default out", "outer": "default out",
    "pairwise_distance": "default", "pdist": "default", "permute": "default",
    "permute_copy": "default out", "pinverse": "default", "pixel_shuffle": "default out",
    "pixel_unshuffle": "default out", "poisson": "default out", "polygamma": "default out",
    "polygamma_": "default", "positive": "default",
    "pow": "Tensor_Tensor Tensor_Scalar Scalar Tensor_Tensor_out Scalar_out Tensor_Scalar_out int complex float int_float float_int float_complex complex_float Scalar_Scalar int_to_int",
    "pow_": "Scalar Tensor", "prelu": "default", "prod": "default dim_int int_out out",
    "put": "default out", "put_": "default", "qr": "default Q",
    "quantile": "default scalar out scalar_out", "rad2deg": "default out",
    "rad2deg_": "default", "rand_like": "default generator out generator_out",
    "randint_like": "default Tensor low_dtype generator Tensor_generator low_generator_dtype out generator_out Tensor_out Tensor_generator_out low_dtype_out low_generator_dtype_out",
    "randn_like": "default generator out generator_out", "random_": "from to default",
    "ravel": "default", "real": "default", "reciprocal": "default out",
    "reciprocal_": "default", "relu": "default out", "relu_": "default",
    "remainder": "Tensor Scalar Scalar_Tensor Tensor_out Scalar_out Scalar_Tensor_out int float int_float float_int default",
    "remainder_": "Tensor Scalar", "renorm": "default out", "renorm_": "default",
    "repeat": "default out", "repeat_interleave": "Tensor self_Tensor self_int Tensor_out",
    "reshape": "default", "reshape_as": "default", "resize_": "default",
    "resize_as_": "default", "resolve_conj": "default", "resolve_neg": "default",
    "roll": "default out", "rot90": "default out",
    "round": "default decimals out decimals_out int float Scalar",
    "round_": "default decimals", "rrelu_with_noise": "default out",
    "rrelu_with_noise_": "default",
    "rrelu_with_noise_backward": "default out", "rsqrt": "default out",
    "rsqrt_": "default", "rsub": "Tensor Scalar Tensor_out Scalar_out",
    "scatter": "value src reduce value_reduce src_out value_out reduce_out value_reduce_out",
    "scatter_": "src value reduce value_reduce", "scatter_add": "default out",
    "scatter_add_": "default", "scatter_reduce": "two two_out", "scatter_reduce_": "two",
    "searchsorted": "Tensor Tensor_out Scalar Scalar_out", "select": "int t",
    "select_backward": "default out", "select_copy": "int int_out",
    "select_scatter": "default out",
    "set_": "source_Storage_storage_offset source_Tensor default source_Storage source_Tensor_storage_offset",
    "sgn": "default out", "sgn_": "default", "sigmoid": "default out",
    "sigmoid_": "default", "sigmoid_backward": "default grad_input", "sign": "default out",
    "sign_": "default", "signbit": "default out", "silu": "default out",
    "silu_": "default", "sin": "default out int float complex Scalar", "sin_": "default",
    "sinc": "default out", "sinc_": "default",
    "sinh": "default out int float complex Scalar", "sinh_": "default",
    "size": "default int", "slice": "Tensor t str", "slice_backward": "default out",
    "slice_scatter": "default out", "slogdet": "default out",
    "smooth_l1_loss": "default out", "smooth_l1_loss_backward": "grad_input default",
    "softmax": "int int_out", "softplus": "default out",
    "softplus_backward": "default grad_input", "softshrink": "default out",
    "softshrink_backward": "default grad_input",
    "sort": "default stable values_stable values int float Tensor bool str any",
    "special_i1": "default out", "split": "Tensor sizes str default",
    "split_copy": "Tensor Tensor_out", "split_with_sizes": "default",
    "split_with_sizes_copy": "default out", "sqrt": "default out int float complex Scalar",
    "sqrt_": "default", "square": "default out", "square_": "default",
    "squeeze": "default dim dims", "squeeze_": "default dim dims", "stack": "default out",
    "std": "default dim correction correction_out out",
    "std_mean": "default dim correction correction_out", "storage_offset": "default",
    "stride": "default int",
    "sub": "Tensor Scalar out Scalar_out int complex float int_complex complex_int float_complex complex_float int_float float_int default",
    "sub_": "Tensor Scalar",
    "sum": "dim_IntList default IntList_out out int float complex bool",
    "sum_to_size": "default", "svd": "default U", "swapaxes": "default",
    "swapaxes_": "default", "swapdims_": "default", "sym_numel": "default",
    "sym_size": "default int", "sym_storage_offset": "default",
    "sym_stride": "default int", "t": "default", "t_": "default", "t_copy": "default out",
    "take": "default out", "take_along_dim": "default out",
    "tan": "default out int float complex Scalar", "tan_": "default",
    "tanh": "default out int float complex Scalar", "tanh_": "default",
    "tanh_backward": "default grad_input",
    "tensor_split": "sections indices tensor_indices_or_sections",
    "tensordot": "default out", "threshold": "default out", "threshold_": "default",
    "threshold_backward": "default grad_input", "tile": "default",
    "topk": "default values", "trace": "default out", "transpose": "int",
    "transpose_": "default", "transpose_copy": "int int_out", "trapezoid": "x dx",
    "triangular_solve": "default X", "tril": "default out", "tril_": "default",
    "triu": "default out", "triu_": "default", "trunc": "default out", "trunc_": "default",
    "unbind": "int", "unflatten": "int", "unfold": "default",
    "unfold_backward": "default out", "uniform_": "default",
    "unique_consecutive": "default out", "unsafe_chunk": "default",
    "unsafe_split": "Tensor Tensor_out", "unsafe_split_with_sizes": "default out",
    "unsqueeze": "default", "unsqueeze_": "default", "unsqueeze_copy": "default out",
    "var": "default dim correction correction_out out",
    "var_mean": "default dim correction correction_out", "vdot": "default out",
    "view": "default dtype", "view_as": "default",
    "view_copy": "default dtype out dtype_out", "vsplit": "int array",
    "vstack": "default out",
    "where": "self ScalarOther ScalarSelf Scalar default self_out",
    "xlogy": "Tensor Scalar_Other Scalar_Self OutTensor OutScalar_Self OutScalar_Other",
    "xlogy_": "Tensor Scalar_Other", "zero_": "default",
}


# The ops among those that PyTorch implements by composing other ATen ops
# (CompositeImplicitAutograd kernels: matmul, linear, einsum, ...); its dispatch sees
# only the ops they are made of. Every other op is a leaf: what it calls inside is its
# kernel's business (a fact of PyTorch 2.13's dispatcher registrations).
COMPOSITE_IMPLICIT = frozenset("""
    _pad_circular adjoint argsort argwhere atleast_1d atleast_2d atleast_3d
    batch_norm broadcast_tensors broadcast_to cartesian_prod cdist chain_matmul
    chunk column_stack combinations conj conv1d conv2d corrcoef cosine_similarity
    cov cross cumulative_trapezoid det diag diagflat diff dropout dropout_ dsplit
    dstack einsum expand_as feature_dropout feature_dropout_ fill_diagonal_ flatten
    fliplr flipud float_power float_power_ frobenius_norm ger gradient grid_sampler
    histogramdd hsplit hstack imag inner inverse isclose isfinite isreal kron
    layer_norm linalg_cholesky linalg_cond linalg_det linalg_diagonal linalg_eigh
    linalg_eigvals linalg_eigvalsh linalg_inv linalg_ldl_factor linalg_lu_factor
    linalg_matmul linalg_matrix_norm linalg_matrix_power linalg_matrix_rank
    linalg_multi_dot linalg_norm linalg_slogdet linalg_solve linalg_solve_ex
    linalg_svd linalg_svdvals linalg_tensorinv linalg_tensorsolve linalg_vander
    linalg_vecdot linear log_softmax logdet lu_solve matmul matrix_exp matrix_power
    max_pool2d meshgrid moveaxis movedim msort nanmean nanquantile narrow
    native_channel_shuffle nll_loss norm_except_dim nuclear_norm orgqr outer
    pairwise_distance pdist pinverse positive prelu qr quantile ravel real reshape
    reshape_as resolve_conj resolve_neg slogdet softmax square square_ sum_to_size
    svd swapaxes swapaxes_ swapdims_ take_along_dim tensor_split tensordot tile
    trapezoid unflatten unsafe_chunk view_as vsplit vstack
""".split())

# Composite ops of PyTorch that are one fused kernel here: named after the op
# PyTorch's decomposition dispatches.
_FUSED_AS = {"softmax": ("_softmax", "default"), "log_softmax": ("_log_softmax", "default"),
             "layer_norm": ("native_layer_norm", "default")}


class _Schema:
    """The part of PyTorch's FunctionSchema policies read: name and overload_name."""

    __slots__ = ("name", "overload_name")

    def __init__(self, name, overload_name):
        self.name = name
        self.overload_name = overload_name

    def __repr__(self):
        return self.name + ("." + self.overload_name if self.overload_name else "")


class OpOverload:
    """One schema of an operator (PyTorch's torch._ops.OpOverload), e.g.
    ``torch.ops.aten.add.Tensor``; calling it runs the op.

    >>> import autograd_core as torch
    >>> torch.ops.aten.add.Tensor.overloadpacket
    <OpOverloadPacket(op='aten.add')>
    """

    def __init__(self, packet, overload):
        self._overloadpacket = packet
        self._overloadname = overload
        self._name = packet._qualified_op_name + ("" if overload == "default" else "." + overload)
        self._schema = _Schema(packet._qualified_op_name,
                               "" if overload == "default" else overload)
        self.__name__ = f"{packet.__name__}.{overload}"
        self.__qualname__ = packet._qualified_op_name if overload == "default" else self._name
        self.__module__ = "autograd_core.ops." + packet.namespace

    @property
    def overloadpacket(self):
        return self._overloadpacket

    @property
    def namespace(self):
        return self._overloadpacket.namespace

    @property
    def op(self):
        return self._overloadpacket._op

    def name(self):
        return self._name

    def __call__(self, *args, **kwargs):
        return self._overloadpacket._op(*args, **kwargs)

    def __repr__(self):
        return (f"<OpOverload(op='{self.namespace}.{self._overloadpacket.__name__}', "
                f"overload='{self._overloadname}')>")

    def __str__(self):
        return f"{self.namespace}.{self.__name__}"

    def __hash__(self):
        return id(self)


class OpOverloadPacket:
    """An operator with all its overloads (PyTorch's torch._ops.OpOverloadPacket), e.g.
    ``torch.ops.aten.add``; ``.<overload>`` gives an OpOverload, calling it runs the op.

    >>> import autograd_core as torch
    >>> torch.ops.aten.add.overloads()[:2]
    ['Tensor', 'Scalar']
    """

    def __init__(self, namespace, name, overloads, op):
        self.namespace = namespace
        self.__name__ = name
        self._qualified_op_name = f"{namespace}::{name}"
        self._overload_names = list(overloads)
        self._impl = op
        self._dir = []

    @property
    def _op(self):
        return self._impl() if self._impl is not None else _no_entry(self)

    def overloads(self):
        return list(self._overload_names)

    def __getattr__(self, key):
        if key.startswith("__") or key not in self.__dict__.get("_overload_names", ()):
            raise AttributeError(
                f"The underlying op of '{self}' has no overload name '{key}'")
        ov = OpOverload(self, key)
        setattr(self, key, ov)  # (one object per overload: compared by identity)
        return ov

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def __repr__(self):
        return f"<OpOverloadPacket(op='{self.namespace}.{self.__name__}')>"

    def __str__(self):
        return f"{self.namespace}.{self.__name__}"

    def __hash__(self):
        return id(self)


def _no_entry(packet):
    def run(*args, **kwargs):
        raise NotImplementedError(
            f"autograd_core: {packet} has no Python entry point in this library")
    return run


def _public_callable(name):
    """The public function that runs aten op name (torch.<name>, F.<name>, the Tensor
    method), found at call time."""
    def find():
        import autograd_core as torch
        from autograd_core.nn import functional as F
        if name.endswith("_") and hasattr(torch.Tensor, name):
            return getattr(torch.Tensor, name)
        for space in (torch, F, torch.linalg):
            fn = getattr(space, name, None)
            if callable(fn) and not isinstance(fn, type):
                return fn
        for prefix, space in (("special_", torch.special), ("linalg_", torch.linalg),
                              ("fft_", torch.fft)):
            if name.startswith(prefix):
                fn = getattr(space, name[len(prefix):], None)
                if callable(fn):
                    return fn
        fn = getattr(torch.Tensor, name, None)
        return fn if callable(fn) else _no_entry(_packet("aten", name))
    return find


class _OpNamespace(types.ModuleType):
    """torch.ops.<namespace>: its ops as OpOverloadPackets, made on first access."""

    def __init__(self, name, table):
        super().__init__("autograd_core.ops." + name)
        self.name = name
        self._table = table

    def __getattr__(self, op_name):
        if op_name.startswith("__") or op_name not in self._table:
            raise AttributeError(f"'_OpNamespace' '{self.name}' object has no attribute "
                                 f"'{op_name}'")
        overloads, impl = self._table[op_name]
        packet = OpOverloadPacket(self.name, op_name, overloads, impl)
        setattr(self, op_name, packet)
        return packet

    def __repr__(self):
        return f"<module 'autograd_core.ops.{self.name}' from 'autograd_core.ops'>"


def _device(t):
    return t.device


def _record_function_enter(name, args=None):
    from autograd_core.autograd import profiler as _prof
    rf = _prof.record_function(name, args)
    rf.__enter__()
    return rf


def _record_function_exit(handle):
    handle.__exit__(None, None, None)


def _aten_cdist(x1, x2, p=2.0, compute_mode=None):
    """aten::cdist, whose compute_mode is ATen's int? (None or 0: mm for p=2 when either
    operand has more than 25 rows, 1: always, 2: never); torch.cdist takes their names
    (and refuses None). The op hook reports the mode as op_cdist holds it (None or a
    name): CPU autocast's re-dispatch (Note [Autocast]) passes that back here."""
    import autograd_core as torch
    names = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
             "donot_use_mm_for_euclid_dist")
    if compute_mode is None:
        compute_mode = names[0]
    elif type(compute_mode) is int:
        if not 0 <= compute_mode <= 2:
            raise RuntimeError(f"possible modes: 0, 1, 2, but was: {compute_mode}")
        compute_mode = names[compute_mode]
    elif compute_mode not in names:
        t = type(compute_mode).__name__
        raise RuntimeError(
            f"aten::cdist() Expected a value of type 'Optional[int]' for argument "
            f"'compute_mode' but instead found type '{t}'.\nPosition: 3\nValue: "
            f"{compute_mode!r}\nDeclaration: aten::cdist(Tensor x1, Tensor x2, float p=2., "
            f"int? compute_mode=None) -> Tensor\nCast error details: Unable to cast Python "
            f"instance of type <class '{t}'> to C++ type '?' (#define "
            f"PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)")
    return torch.cdist(x1, x2, p, compute_mode)


aten = _OpNamespace("aten", {name: (ovs.split(), _public_callable(name))
                             for name, ovs in _OVERLOADS.items()})
aten._table["cdist"] = (aten._table["cdist"][0], lambda: _aten_cdist)
prim = _OpNamespace("prim", {"device": (["default"], lambda: _device)})
profiler = _OpNamespace("profiler", {
    "_record_function_enter": (["default"], lambda: _record_function_enter),
    "_record_function_enter_new": (["default"], lambda: _record_function_enter),
    "_record_function_exit": (["default", "_RecordFunction"], lambda: _record_function_exit),
})
_NAMESPACES = {"aten": aten, "prim": prim, "profiler": profiler}


def _packet(namespace, name):
    """The packet of namespace::name, also for an op the namespace does not list (a
    hooked op with no ATen counterpart: PyTorch would decompose it)."""
    space = _NAMESPACES[namespace]
    try:
        return getattr(space, name)
    except AttributeError:
        packet = OpOverloadPacket(namespace, name, ["default"], None)
        space.__dict__.setdefault("_unlisted", {})
        return space.__dict__["_unlisted"].setdefault(name, packet)


# ---------------------------------------------------------------- the overload of a call

# PyTorch wraps a Python number as a tensor for these (x + 1 dispatches add.Tensor)
_WRAPS_SCALAR = {"add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_"}
_DIM_OVERLOAD = {"sum": "dim_IntList", "nansum": "default", "mean": "dim", "prod": "dim_int",
                 "amax": "default", "amin": "default", "logsumexp": "default",
                 "all": "dim", "any": "dim", "argmax": "default", "argmin": "default"}
_CORRECTION = {"var", "std", "var_mean", "std_mean"}
_FALLBACK = ("default", "Tensor", "self", "int", "input", "Scalar")


def _is_tensor(x):
    from autograd_core._core.tensor import Tensor
    return isinstance(x, Tensor)


def _choose(name, overloads, args):
    n = len(args)
    if name in _WRAPS_SCALAR:
        if name.startswith("div") and n > 2 and args[2] is not None:
            return "Tensor_mode"
        return "Tensor"
    if name in ("pow", "pow_"):
        if n and not _is_tensor(args[0]):
            return "Scalar"
        tensor_exponent = n > 1 and _is_tensor(args[1])
        if name == "pow":
            return "Tensor_Tensor" if tensor_exponent else "Tensor_Scalar"
        return "Tensor" if tensor_exponent else "Scalar"
    if name in _CORRECTION:
        return "correction"
    if name in _DIM_OVERLOAD:
        if n > 1 and args[1] is not None and _DIM_OVERLOAD[name] in overloads:
            return _DIM_OVERLOAD[name]
        return "default"
    if name in ("max", "min"):
        if n > 1 and _is_tensor(args[1]):
            return "other"
        return "dim" if n > 1 and isinstance(args[1], int) else "default"
    if name in ("squeeze", "squeeze_"):
        if n < 2 or args[1] is None:
            return "default"
        return "dims" if isinstance(args[1], (tuple, list)) else "dim"
    if name == "clamp":
        return "Tensor" if any(_is_tensor(a) for a in args[1:]) else "default"
    if "Tensor" in overloads and "Scalar" in overloads:
        return "Tensor" if n > 1 and _is_tensor(args[1]) else "Scalar"
    for ov in _FALLBACK:
        if ov in overloads:
            return ov
    return overloads[0]


_overload_cache = {}


def overload_for(qualified_name, args):
    """The OpOverload PyTorch dispatches for a call of qualified_name ("aten::add", as
    op hooks report it) with args (Note [Op hook]).

    >>> import autograd_core as torch
    >>> from autograd_core._ops import overload_for
    >>> overload_for("aten::add", (torch.ones(1), 1))
    <OpOverload(op='aten.add', overload='Tensor')>
    """
    namespace, _, name = qualified_name.partition("::")
    fused = _FUSED_AS.get(name)
    if fused is not None:
        return getattr(_packet(namespace, fused[0]), fused[1])
    packet = _overload_cache.get(qualified_name)
    if packet is None:
        packet = _overload_cache[qualified_name] = _packet(namespace, name)
    return getattr(packet, _choose(name, packet._overload_names, args))


def _install(package):
    """Make the namespaces attributes of the autograd_core.ops package (torch.ops)."""
    for key, space in _NAMESPACES.items():
        setattr(package, key, space)
