"""Shared pytest setup: a warning in the header when the compiled core is older than its
sources (rebuild: python setup.py build_ext --inplace), and single-threaded torch."""
import pathlib

try:
    import torch
    torch.set_num_threads(1)  # the tensors are tiny: threads only add overhead
except ImportError:
    pass

_PKG = pathlib.Path(__file__).resolve().parents[1] / "autograd_core"


def pytest_report_header(config):
    sos = list(_PKG.rglob("*.so"))
    sources = [p for ext in ("*.pyx", "*.pxi", "*.pxd", "*.yaml") for p in _PKG.rglob(ext)]
    if not sos:
        return "autograd_core: compiled modules NOT BUILT"
    newest = max(p.stat().st_mtime for p in sources)
    if min(p.stat().st_mtime for p in sos) < newest:
        return "autograd_core: WARNING, a compiled module is older than the Cython sources"
    return None
