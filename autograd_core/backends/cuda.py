"""torch.backends.cuda: absent here; the matmul flags are kept as PyTorch keeps them
(allow_tf32 is float32_matmul_precision != "highest").

>>> import autograd_core as torch
>>> torch.backends.cuda.matmul.allow_tf32
False
>>> torch.backends.cuda.is_built()
False
"""
from autograd_core import _settings


def is_built():
    """False: built without CUDA."""
    return False


class cuBLASModule:
    """The matmul flags: allow_tf32 and the reduced-precision reductions."""

    def __init__(self):
        object.__setattr__(self, "_flags", {"allow_fp16_reduced_precision_reduction": True,
                                            "allow_bf16_reduced_precision_reduction": True,
                                            "allow_fp16_accumulation": False})

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _settings.get_float32_matmul_precision() != "highest"
        flags = object.__getattribute__(self, "_flags")
        if name in flags:
            return flags[name]
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            _settings.set_float32_matmul_precision("high" if value else "highest")
            return
        if name in self._flags:
            self._flags[name] = value
            return
        raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()


# Note [SDPA backend flags]: which scaled_dot_product_attention kernels a program allows,
# as PyTorch's global flags (torch._C._get_*_sdp_enabled). torch.nn.attention.sdpa_kernel
# sets them; F.scaled_dot_product_attention reads them: on the CPU only the flash kernel
# and the math composite exist, so with neither allowed it refuses, and with only flash
# allowed it refuses inputs the flash kernel cannot take (as PyTorch's CPU selection).
_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True,
        "overrideable": True}


def flash_sdp_enabled():
    """Whether scaled_dot_product_attention may use the flash kernel (on the CPU:
    PyTorch's CPU flash attention).

    >>> import autograd_core as torch
    >>> torch.backends.cuda.flash_sdp_enabled()
    True
    """
    return _sdp["flash"]


def enable_flash_sdp(enabled):
    """Allow or forbid the flash attention kernel (Note [SDPA backend flags])."""
    _sdp["flash"] = bool(enabled)


def mem_efficient_sdp_enabled():
    """Whether memory-efficient attention may be used (a CUDA kernel: never runs here)."""
    return _sdp["mem_efficient"]


def enable_mem_efficient_sdp(enabled):
    """Allow or forbid memory-efficient attention (recorded; a CUDA kernel)."""
    _sdp["mem_efficient"] = bool(enabled)


def math_sdp_enabled():
    """Whether scaled_dot_product_attention may use the math composite."""
    return _sdp["math"]


def enable_math_sdp(enabled):
    """Allow or forbid the math composite (Note [SDPA backend flags])."""
    _sdp["math"] = bool(enabled)
