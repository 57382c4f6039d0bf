"""The functions ``torch.overrides.get_ignored_functions()`` lists (the ones
../shared/tools/api_coverage.py does not count: creation functions, settings, legacy
constructors, ...): each must exist here under the same name, unless the exclusion
list below says why not. A function PyTorch adds later shows up as a failure here.
"""
import pytest

torch = pytest.importorskip("torch")
import torch.overrides  # noqa: E402
import autograd_core  # noqa: E402

# where PyTorch's ignored functions live, and the matching namespace here
_NAMESPACES = {
    "torch": (lambda: torch, lambda: autograd_core),
    "Tensor": (lambda: torch.Tensor, lambda: autograd_core.Tensor),
    "nn.functional": (lambda: torch.nn.functional, lambda: autograd_core.nn.functional),
    "nn.init": (lambda: torch.nn.init, lambda: autograd_core.nn.init),
    "random": (lambda: torch.random, lambda: autograd_core.random),
    "serialization": (lambda: torch.serialization, lambda: autograd_core.serialization),
    "autograd.grad_mode": (lambda: torch.autograd.grad_mode,
                           lambda: __import__("autograd_core.autograd.grad_mode",
                                              fromlist=["x"])),
}

# Not followed, by reason. Everything else PyTorch lists must exist here.
EXCLUDED = {
    # object protocol and PyTorch's own subclassing / __torch_function__ machinery
    "Tensor.__delattr__", "Tensor.__getattribute__", "Tensor.__init__", "Tensor.__setattr__",
    "Tensor.__init_subclass__", "Tensor.__subclasshook__", "Tensor.__delitem__",
    "Tensor.__new__", "Tensor.__dir__", "Tensor.__hash__", "Tensor.__iter__",
    "Tensor.__torch_function__", "Tensor._make_subclass", "Tensor._make_wrapper_subclass",
    "Tensor._dtensor__new__", "Tensor._fix_weakref", "Tensor._reduce_ex_internal",
    "Tensor._typed_storage", "Tensor._use_count", "Tensor._rev_view_func_unsafe",
    "Tensor._view_func", "Tensor._view_func_unsafe", "Tensor._lazy_clone",
    # private ATen ops PyTorch's Python code calls, no public API
    "Tensor._addmm_activation", "Tensor._conj", "Tensor._conj_physical",
    "Tensor._is_all_true", "Tensor._is_any_true",
    "Tensor._philox_normal_", "Tensor._philox_uniform_",
    # sparse layouts other than COO/CSR, nested and padded layouts (autograd_core has
    # strided, sparse COO and sparse CSR tensors: Note [Sparse tensors])
    "Tensor._to_sparse", "Tensor._to_sparse_bsc", "Tensor._to_sparse_bsr",
    "Tensor._to_sparse_csc", "Tensor._to_sparse_csr", "Tensor.to_sparse_bsc",
    "Tensor.to_sparse_bsr", "Tensor.to_sparse_csc",
    "Tensor.to_padded_tensor", "torch.sparse_bsc_tensor",
    "torch.sparse_bsr_tensor", "torch.sparse_compressed_tensor",
    "torch.sparse_csc_tensor", "torch.empty_quantized",
    "torch.qscheme",
    # methods PyTorch removed long ago (they only raise there, pointing to linalg)
    "Tensor.eig", "Tensor.lstsq", "Tensor.solve", "Tensor.symeig", "Tensor.reinforce",
    # cuDNN / MIOpen / oneDNN / Vulkan kernels: device- and backend-specific
    "torch.cudnn_affine_grid_generator", "torch.cudnn_batch_norm", "torch.cudnn_convolution",
    "torch.cudnn_convolution_add_relu", "torch.cudnn_convolution_relu",
    "torch.cudnn_convolution_transpose", "torch.cudnn_grid_sampler",
    "torch.cudnn_is_acceptable", "torch.miopen_ctc_loss", "torch.mkldnn_adaptive_avg_pool2d",
    "torch.mkldnn_convolution", "torch.mkldnn_linear_backward_weights",
    "torch.mkldnn_max_pool2d", "torch.mkldnn_max_pool3d", "torch.mkldnn_rnn_layer",
    "torch.is_vulkan_available",
    # TorchScript, export, functorch and symbolic shapes: compilers and IRs
    "torch.cond", "torch.fork", "torch.wait", "torch.import_ir_module",
    "torch.import_ir_module_from_buffer", "torch.merge_type_from_type_comment",
    "torch.parse_ir", "torch.parse_schema", "torch.parse_type_comment",
    "torch.unify_type_list", "torch.sym_constrain_range",
    "torch.sym_constrain_range_for_size", "torch.sym_fresh_size",
    "torch._functional_sym_constrain_range", "torch._make_dep_token",
    "torch.get_device_module",
    # autocast for devices autograd_core does not have (ipu, xla, gpu spellings)
    "torch.get_autocast_gpu_dtype", "torch.get_autocast_ipu_dtype",
    "torch.get_autocast_xla_dtype", "torch.set_autocast_gpu_dtype",
    "torch.set_autocast_ipu_dtype", "torch.set_autocast_ipu_enabled",
    "torch.set_autocast_xla_dtype", "torch.set_autocast_xla_enabled",
    "torch.is_autocast_ipu_enabled", "torch.is_autocast_xla_enabled",
    # reading a tensor from a file by mmap: no storage type here
    "torch.from_file",
    # private nn.functional helper and the scaled/grouped matmuls of low-precision GPUs
    "nn.functional.assert_int_or_pair", "nn.functional.grouped_mm",
    "nn.functional.scaled_grouped_mm", "nn.functional.scaled_mm",
    # __torch_function__ / __torch_dispatch__ plumbing and TorchScript's boolean_dispatch:
    # PyTorch internals
    "Tensor.__torch_dispatch__", "nn.functional.boolean_dispatch",
    "nn.functional.handle_torch_function", "nn.functional.has_torch_function",
    "nn.functional.has_torch_function_unary", "nn.functional.has_torch_function_variadic",
}


def _ignored_names():
    """(namespace, name) of each ignored function, found by identity in PyTorch's
    public namespaces (a function reachable under several names counts under each)."""
    ignored = {id(f): f for f in torch.overrides.get_ignored_functions()}
    found, seen = set(), set()
    for ns, (theirs, _) in _NAMESPACES.items():
        mod = theirs()
        for name in dir(mod):
            try:
                obj = getattr(mod, name)
            except Exception:  # noqa: BLE001  (some attributes raise on access)
                continue
            if id(obj) in ignored and not isinstance(obj, bool):
                found.add((ns, name))
                seen.add(id(obj))
    # methods PyTorch lists through the C base class (TensorBase.new_zeros, ...)
    for f in ignored.values():
        qn = getattr(f, "__qualname__", "")
        if qn.startswith(("TensorBase.", "Tensor.")) and id(f) not in seen:
            found.add(("Tensor", qn.split(".", 1)[1]))
    return found


def test_ignored_functions_present():
    missing = []
    for ns, name in sorted(_ignored_names()):
        key = f"{ns}.{name}"
        if key in EXCLUDED:
            continue
        if not hasattr(_NAMESPACES[ns][1](), name):
            missing.append(key)
    assert not missing, ("functions of torch.overrides.get_ignored_functions() missing here "
                         "(add them, or add them to EXCLUDED with the reason): "
                         + ", ".join(missing))


def test_exclusions_are_still_needed():
    """An excluded name that now exists here must leave the exclusion list."""
    present = []
    for key in sorted(EXCLUDED):
        ns, name = next((ns, key[len(ns) + 1:]) for ns in sorted(_NAMESPACES, key=len,
                                                                reverse=True)
                        if key.startswith(ns + "."))
        if name.startswith("__"):
            continue
        if hasattr(_NAMESPACES[ns][1](), name):
            present.append(key)
    assert not present, f"excluded but present now (drop from EXCLUDED): {present}"
