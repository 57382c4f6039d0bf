"""Window functions, as ``torch.signal.windows`` (SciPy's ``signal.windows`` names and
conventions: ``sym=True`` is the symmetric window, ``sym=False`` the periodic one).

>>> import autograd_core as torch
>>> torch.signal.windows.bartlett(5)
tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
"""
from .windows import (
    bartlett, blackman, cosine, exponential, gaussian, general_cosine, general_hamming,
    hamming, hann, kaiser, nuttall,
)

__all__ = [
    "bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
    "general_hamming", "hamming", "hann", "kaiser", "nuttall",
]
