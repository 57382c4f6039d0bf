"""For tests that run programs in a fresh interpreter: the child must import the same
autograd_core as this process (the installed package, or an in-place build), never the
uncompiled source tree that a `python -c` in the repository root would find first."""
import os
import tempfile

import _source_tree

_source_tree.prefer_installed()
import autograd_core  # noqa: E402

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(autograd_core.__file__)))
CWD = tempfile.gettempdir()


def child_env(**extra):
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = PACKAGE_PARENT + os.pathsep + env.get("PYTHONPATH", "")
    return env
