"""Shared pytest setup: which autograd_core is tested (the in-place build when the checkout
has one, otherwise the installed package: tests/_source_tree.py), a warning in the header
when a compiled module of the in-place build is older than its sources (rebuild: python
setup.py build_ext --inplace), and single-threaded torch."""
import _source_tree

_source_tree.prefer_installed()  # before any test module imports autograd_core

try:
    import torch
    torch.set_num_threads(1)  # the tensors are tiny: threads only add overhead
except ImportError:
    pass

_PKG = _source_tree.PACKAGE
_SOURCES = ("*.pyx", "*.pxd", "*.pxi", "*.yaml")


def pytest_report_header(config):
    """Which autograd_core runs. Of an in-place build: any extension module (*.so anywhere
    under autograd_core/) older than any Cython source or op-table file
    (*.pyx/.pxd/.pxi/.yaml anywhere under it) is stale."""
    try:
        import autograd_core
    except ImportError as e:
        return f"autograd_core: NOT IMPORTABLE ({e}): pip install . or build in place"
    installed = _source_tree.describe(autograd_core)
    if installed:
        return installed
    sos = _source_tree.compiled_modules()
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
