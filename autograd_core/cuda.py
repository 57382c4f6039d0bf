"""torch.cuda as a PyTorch built without CUDA has it: nothing is available, queries
answer 0/False, seeding is silently skipped, and whatever needs a GPU raises
``AssertionError: Torch not compiled with CUDA enabled``.

>>> import autograd_core as torch
>>> torch.cuda.is_available(), torch.cuda.device_count()
(False, 0)
>>> device = "cuda" if torch.cuda.is_available() else "cpu"
"""
import warnings

from autograd_core import amp as _amp_module

__all__ = ["is_available", "device_count", "is_initialized", "init", "current_device",
           "get_device_name", "get_device_capability", "get_device_properties", "set_device",
           "synchronize", "empty_cache", "manual_seed", "manual_seed_all", "seed", "seed_all",
           "initial_seed", "get_rng_state", "set_rng_state", "get_rng_state_all",
           "set_rng_state_all", "memory_allocated", "max_memory_allocated", "memory_reserved",
           "max_memory_reserved", "reset_peak_memory_stats", "is_bf16_supported",
           "get_arch_list", "device", "amp"]

_MSG = "Torch not compiled with CUDA enabled"


def _lazy_init():
    raise AssertionError(_MSG)


def is_available():
    """False: no CUDA here."""
    return False


def device_count():
    """0 devices."""
    return 0


def is_initialized():
    """False: CUDA was never initialised."""
    return False


def init():
    """Initialise CUDA: raises, there is none."""
    _lazy_init()


def current_device():
    """Raises: there is no current CUDA device."""
    _lazy_init()


def get_device_name(device=None):
    """Raises: there is no CUDA device."""
    _lazy_init()


def get_device_capability(device=None):
    """Raises: there is no CUDA device."""
    _lazy_init()


def get_device_properties(device=None):
    """Raises: there is no CUDA device."""
    _lazy_init()


def set_device(device):
    """Raises: there is no CUDA device to select."""
    _lazy_init()


def synchronize(device=None):
    """Raises: there is no CUDA device to wait for."""
    _lazy_init()


def empty_cache():
    """Release cached GPU memory: nothing is cached."""


def ipc_collect():
    """Raises: there is no CUDA device."""
    _lazy_init()


def manual_seed(seed):
    """Seed the current GPU's generator: skipped without CUDA, as PyTorch's (queued for
    a CUDA that never comes)."""
    int(seed)


def manual_seed_all(seed):
    """Seed every GPU's generator: skipped without CUDA."""
    int(seed)


def seed():
    """Seed the current GPU's generator randomly: skipped without CUDA."""


def seed_all():
    """Seed every GPU's generator randomly: skipped without CUDA."""


def initial_seed():
    """Raises: there is no CUDA generator."""
    _lazy_init()


def get_rng_state(device="cuda"):
    """Raises: there is no CUDA generator."""
    _lazy_init()


def set_rng_state(new_state, device="cuda"):
    """Raises: there is no CUDA generator."""
    _lazy_init()


def get_rng_state_all():
    """The states of every GPU's generator: none."""
    return []


def set_rng_state_all(new_states):
    """Set every GPU's generator state: there are none."""


def memory_allocated(device=None):
    """Bytes of GPU memory held by tensors: 0."""
    return 0


def max_memory_allocated(device=None):
    """Peak bytes of GPU memory held by tensors: 0."""
    return 0


def memory_reserved(device=None):
    """Bytes of GPU memory reserved: 0."""
    return 0


def max_memory_reserved(device=None):
    """Peak bytes of GPU memory reserved: 0."""
    return 0


def reset_peak_memory_stats(device=None):
    """Reset the peak memory figures: they are all 0."""


def is_bf16_supported(including_emulation=True):
    """False: no CUDA device."""
    return False


def get_arch_list():
    """The CUDA architectures this build has: none."""
    return []


class device:
    """Context manager selecting a CUDA device: a no-op for a negative index (as
    PyTorch's), else it raises on entry."""

    def __init__(self, device):
        self.idx = -1 if device is None else (device if isinstance(device, int) else
                                              getattr(device, "index", 0) or 0)

    def __enter__(self):
        if self.idx >= 0:
            raise RuntimeError("PyTorch was compiled without CUDA support")

    def __exit__(self, *exc):
        return False


class _CudaAmp:
    """torch.cuda.amp: the deprecated spelling of autocast('cuda', ...)."""

    class autocast(_amp_module.autocast):
        def __init__(self, enabled=True, dtype=None, cache_enabled=True):
            warnings.warn("`autograd_core.cuda.amp.autocast(args...)` is deprecated. Please use "
                          "`autograd_core.amp.autocast('cuda', args...)` instead.",
                          FutureWarning, stacklevel=2)
            super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

    @staticmethod
    def custom_fwd(fwd=None, *, cast_inputs=None):
        """Deprecated: ``amp.custom_fwd(..., device_type='cuda')``."""
        warnings.warn("`autograd_core.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
                      "`autograd_core.amp.custom_fwd(args..., device_type='cuda')` instead.",
                      FutureWarning, stacklevel=2)
        return _amp_module.custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)

    @staticmethod
    def custom_bwd(bwd):
        """Deprecated: ``amp.custom_bwd(..., device_type='cuda')``."""
        warnings.warn("`autograd_core.cuda.amp.custom_bwd(args...)` is deprecated. Please use "
                      "`autograd_core.amp.custom_bwd(args..., device_type='cuda')` instead.",
                      FutureWarning, stacklevel=2)
        return _amp_module.custom_bwd(bwd, device_type="cuda")

    class GradScaler(_amp_module.GradScaler):
        def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                     growth_interval=2000, enabled=True):
            warnings.warn("`autograd_core.cuda.amp.GradScaler(args...)` is deprecated. Please "
                          "use `autograd_core.amp.GradScaler('cuda', args...)` instead.",
                          FutureWarning, stacklevel=2)
            super().__init__("cuda", init_scale, growth_factor, backoff_factor,
                             growth_interval, enabled)


amp = _CudaAmp()
