"""Signal processing, as ``torch.signal``: the window functions of
``autograd_core.signal.windows``.

>>> import autograd_core as torch
>>> torch.signal.windows.hann(4)
tensor([0.0000, 0.7500, 0.7500, 0.0000])
"""
from . import windows

__all__ = ["windows"]
