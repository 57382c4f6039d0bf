"""Shared pytest setup: a warning in the header when a compiled module of autograd_core is
older than its sources (rebuild: python setup.py build_ext --inplace), and single-threaded
torch."""
import pathlib

try:
    import torch
    torch.set_num_threads(1)  # the tensors are tiny: threads only add overhead
except ImportError:
    pass

_PKG = pathlib.Path(__file__).resolve().parents[1] / "autograd_core"
_SOURCES = ("*.pyx", "*.pxd", "*.pxi", "*.yaml")


def pytest_report_header(config):
    """Any extension module (*.so anywhere under autograd_core/) older than any Cython
    source or op-table file (*.pyx/.pxd/.pxi/.yaml anywhere under it) is stale."""
    sos = list(_PKG.rglob("*.so"))
    sources = [p for pattern in _SOURCES for p in _PKG.rglob(pattern)]
    if not sos:
        return "autograd_core: compiled modules NOT BUILT"
    if not sources:
        return None
    newest = max(sources, key=lambda p: p.stat().st_mtime)
    oldest = min(sos, key=lambda p: p.stat().st_mtime)
    if oldest.stat().st_mtime < newest.stat().st_mtime:
        return (f"autograd_core: WARNING, {oldest.relative_to(_PKG)} is older than "
                f"{newest.relative_to(_PKG)}: rebuild (python setup.py build_ext --inplace)")
    return None
