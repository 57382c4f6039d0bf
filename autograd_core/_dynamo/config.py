"""Compiled mode's settings, by PyTorch's ``torch._dynamo.config`` names.

>>> import autograd_core as torch
>>> torch._dynamo.config.recompile_limit
8
"""
import sys
import types

# how many recordings one code object may keep before calls that match none run eagerly
recompile_limit = 8
# the limit summed over the recordings of all code objects
accumulated_recompile_limit = 256
# raise FailOnRecompileLimitHit instead of running eagerly past the limit
fail_on_recompile_limit_hit = False
# accepted for compatibility: a graph break already runs eagerly
suppress_errors = False
verbose = False
# accepted for compatibility (recordings are shape-specialized: Note [Compiled mode])
automatic_dynamic_shapes = True
assume_static_by_default = True
capture_scalar_outputs = False


class _ConfigModule(types.ModuleType):
    """``cache_size_limit`` is PyTorch's older name of ``recompile_limit``."""

    def __getattr__(self, name):
        if name == "cache_size_limit":
            return self.recompile_limit
        raise AttributeError(f"module 'torch._dynamo.config' has no attribute '{name}'")

    def __setattr__(self, name, value):
        if name == "cache_size_limit":
            name = "recompile_limit"
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _ConfigModule
