"""For tests that run programs in a fresh interpreter: the child must import the same
autograd_core as this process (the installed package, or an in-place build), never the
uncompiled source tree that a `python -c` in the repository root would find first."""
import os
import tempfile

import autograd_core

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(autograd_core.__file__)))
CWD = tempfile.gettempdir()


def child_env(**extra):
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = PACKAGE_PARENT + os.pathsep + env.get("PYTHONPATH", "")
    return env
