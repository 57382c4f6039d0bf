"""torch.version: the library's version and what it was built with. ``__version__`` is
autograd_core's own version, a string that compares with strings and tuples as
PyTorch's TorchVersion does (``torch.__version__ >= (2, 0)``); cuda, hip and the rest
are None: built for the CPU only.

>>> import autograd_core as torch
>>> torch.version.cuda is None, torch.__version__ >= "0.1"
(True, True)
"""
import re

from autograd_core._version import __version__ as _release

__all__ = ["__version__", "cuda", "debug", "git_version", "hip", "rocm", "xpu"]


def _parts(v):
    """A version's release numbers, e.g. (2, 13, 0) for '2.13.0+cpu'."""
    if isinstance(v, (tuple, list)):
        return tuple(int(x) for x in v)
    m = re.match(r"\s*v?(\d+(?:\.\d+)*)", str(v))
    if m is None:
        raise ValueError(f"Invalid version: '{v}'")
    return tuple(int(x) for x in m.group(1).split("."))


class TorchVersion(str):
    """A version string that compares by release numbers with strings, tuples and
    other versions."""

    def _cmp(self, other):
        a, b = _parts(self), _parts(other)
        n = max(len(a), len(b))
        a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
        return (a > b) - (a < b)

    def __lt__(self, other):
        return self._cmp(other) < 0

    def __le__(self, other):
        return self._cmp(other) <= 0

    def __gt__(self, other):
        return self._cmp(other) > 0

    def __ge__(self, other):
        return self._cmp(other) >= 0

    def __eq__(self, other):
        if isinstance(other, str) and not isinstance(other, TorchVersion):
            return str.__eq__(self, other)
        try:
            return self._cmp(other) == 0
        except (ValueError, TypeError):
            return NotImplemented

    __hash__ = str.__hash__


__version__ = TorchVersion(_release)
cuda = None
hip = None
rocm = None
xpu = None
debug = False
git_version = "Unknown"
