"""Real PyTorch programs (tests/programs/*.py: pytorch/examples, the tutorials, d2l, "Deep
Learning with PyTorch", makemore, training utilities, misuse), run unchanged under torch and
under autograd_core (``torch`` and its submodules resolved to autograd_core's): both runs
must exit alike, print the same lines and warn alike, numbers within rtol 1e-4 (or one unit of the last
printed digit), everything else exactly once ``autograd_core`` reads ``torch``."""
import os
import sys

import pytest

pytest.importorskip("torch")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs"))
import run as programs  # noqa: E402
from _subprocess import child_env  # noqa: E402

NAMES = programs.program_names()

# Programs that stop at an API another branch is adding; strict, so that they fail the
# suite once it has landed and the mark must go.
NEEDS_SURFACE = {}  # programs that wait on a missing API (strict xfails)


@pytest.fixture(scope="module")
def runs():
    return programs.run_both(NAMES, child_env(OMP_NUM_THREADS="1"))


def _case(name):
    if name in NEEDS_SURFACE:
        return pytest.param(name, marks=pytest.mark.xfail(
            strict=True, reason="needs " + NEEDS_SURFACE[name]))
    return name


def test_there_are_programs():
    assert len(NAMES) >= 30


@pytest.mark.parametrize("name", [_case(n) for n in NAMES])
def test_program_prints_what_pytorch_prints(runs, name):
    rc0, out0, err0, _ = runs["torch"][name]
    rc1, out1, err1, _ = runs["autograd_core"][name]
    if name.startswith("crash_"):  # a program that dies of an uncaught error
        assert rc0 != 0, "the program does not fail under torch"
        assert programs.normalise(programs.last_error_line(err1)) == \
            programs.normalise(programs.last_error_line(err0)), err1
    else:
        assert rc0 == 0, f"the program fails under torch:\n{err0}"
    assert rc1 == rc0, f"autograd_core run failed:\n{err1}"
    diff = programs.compare(out0, out1)
    assert not diff, "output differs from PyTorch's:\n" + diff
    assert programs.warnings_in(err1) == programs.warnings_in(err0)


def test_compare_tolerates_rounding_only():
    same = programs.compare
    assert same("loss 2.170964002609253\n", "loss 2.1709641\n") == ""
    assert same("tensor([-0.1946])\n", "tensor([-0.1945])\n") == ""  # last printed digit
    assert same("torch.float32 torch.Size([2])\n", "autograd_core.float32 autograd_core.Size([2])\n") == ""
    assert same("<AddBackward0 object at 0x7f00>\n", "<AddBackward0 object at 0x55aa>\n") == ""
    assert same("loss 5.2026\n", "loss 5.4264\n") != ""
    assert same("tensor([1., 2.])\n", "tensor([1., 2., 3.])\n") != ""
    assert same("grad_fn=<MulBackward0>\n", "grad_fn=<DivBackward0>\n") != ""
    assert same("a\nb\n", "a\n") != ""
    assert same("1.5000e-03\n", "1.5100e-03\n") != ""


def test_alias_resolves_submodules():
    code = ("import run; run.install_alias()\n"
            "import torch, torch.nn as nn, torch.nn.functional as F\n"
            "from torch.utils.data import DataLoader\n"
            "from torch.distributions import Categorical\n"
            "import autograd_core\n"
            "assert torch is autograd_core and nn is autograd_core.nn\n"
            "assert F is autograd_core.nn.functional\n"
            "assert DataLoader is autograd_core.utils.data.DataLoader\n"
            "assert Categorical is autograd_core.distributions.Categorical\n"
            "try:\n    import torch.no_such_module\nexcept ModuleNotFoundError as e:\n"
            "    print(e)\n")
    import subprocess
    p = subprocess.run([sys.executable, "-c", code], cwd=programs.HERE, env=child_env(),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "No module named 'torch.no_such_module'\n"
