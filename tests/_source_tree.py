"""Which autograd_core a command run from the source checkout imports.

Python puts the directory a command starts from first on sys.path (`python -m ...` the
current directory, `python -m pytest` too, `python benchmarks/x.py` the script's own
directory), so from the repository root `import autograd_core` finds the checkout's
`autograd_core/`. That directory is the package only once it is built in place
(`python setup.py build_ext --inplace` puts the compiled modules beside the sources);
in a fresh clone after `pip install ".[test]"` it holds the sources alone, and importing
it stops at `cannot import name 'dtype' from 'autograd_core._core'`.

The rule, shared by tests/conftest.py (pytest), tests/_subprocess.py (the programs the
tests start) and the commands under tests/ (`python -m tests.fuzz`): the checkout is
the package when built in place, as `python -m pytest` has always tested it; otherwise
it is taken off sys.path so that the installed package is imported. (benchmarks/run.py,
which also ships inside the wheel, applies the same rule by itself: `_import_core`.)

This module imports nothing of autograd_core: it decides before the first import."""
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "autograd_core"


def compiled_modules():
    """The extension modules built in place (any *.so under the checkout's package)."""
    return list(PACKAGE.rglob("*.so"))


def built_in_place():
    return bool(compiled_modules())


def _is_root(entry):
    try:
        return os.path.realpath(entry or os.getcwd()) == str(ROOT)
    except OSError:
        return False


def prefer_installed():
    """Unless the checkout is built in place, take its root off sys.path (as '' or the
    root's path), so that `import autograd_core` finds the installed package. Call it
    before the first import of autograd_core."""
    if not built_in_place():
        sys.path[:] = [p for p in sys.path if not _is_root(p)]


def describe(module):
    """For pytest's header: which autograd_core the run tests."""
    where = pathlib.Path(module.__file__).resolve().parent
    if where == PACKAGE:
        return None  # the in-place build: conftest checks it for staleness
    return f"autograd_core: the installed package at {where}"
