"""torch.backends.cpu: the CPU's vector capability."""
import numpy as _np


def get_cpu_capability():
    """The widest vector instruction set the CPU has, as PyTorch names it ("AVX512",
    "AVX2", "DEFAULT"; on ARM "SVE256" or "DEFAULT"), read from numpy's CPU feature
    detection.

    >>> import autograd_core as torch
    >>> torch.backends.cpu.get_cpu_capability() in ("AVX512", "AVX2", "DEFAULT", "SVE256")
    True
    """
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as feats
    except ImportError:  # numpy < 2
        from numpy.core._multiarray_umath import __cpu_features__ as feats
    if all(feats.get(f) for f in ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ")):
        return "AVX512"
    if feats.get("AVX2") and feats.get("FMA3"):
        return "AVX2"
    if feats.get("SVE"):
        return "SVE256"
    return "DEFAULT"


del _np
