"""The six seed examples (shared/seed_examples.md), verbatim, each run as a program in
a subprocess under real PyTorch and under autograd_core: stdout must equal the
documented output (object addresses normalised) and the two runs must agree.

The autograd_core run swaps only the imports: ``import torch`` becomes
``import autograd_core as torch`` and ``from torch.autograd import`` becomes
``from autograd_core.autograd import``.
"""
import json
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")

from _diff import no_addresses
from _subprocess import CWD, child_env

# ---------------------------------------------------------------- the examples, verbatim

EX1 = """\
import torch
a=torch.tensor([1.,2,3,4],requires_grad=True)
b=torch.tensor([1.,2,3,4],requires_grad=False) # default False
c=torch.sum(a*2)
c.backward()
print(a.grad)
d=torch.sum(b+a)
d.backward()
print(b.grad)
print(b.requires_grad)
"""
OUT1 = """\
tensor([2., 2., 2., 2.])
None
False
"""

EX2 = """\
a=torch.tensor([1.,2,3,4],requires_grad=True)
b=torch.tensor([1.,2,3,4],requires_grad=False)
c=a+b
print(a.grad_fn,b.grad_fn)
print(c.grad_fn)
print(c)
"""
OUT2 = """\
None None
<AddBackward0 object at 0x7f7c33372d10>
tensor([2., 4., 6., 8.], grad_fn=<AddBackward0>)
"""

EX3 = """\
a=torch.tensor([1.,2,3,4],requires_grad=False)
b=torch.tensor([1.,2,3,4],requires_grad=False)
c=a+b
print(c.grad_fn)
print(c)
"""
OUT3 = """\
None
tensor([2., 4., 6., 8.])
"""

EX4 = """\
from torch.autograd import Variable
tensor=torch.tensor([1.,2,3,4])
a=Variable(tensor,requires_grad=True)
print(a)
"""
OUT4 = """\
tensor([1., 2., 3., 4.], requires_grad=True)
"""

EX5 = """\
a=torch.tensor([1.,2,3,4],requires_grad=True)
b=torch.tensor([1.,2,3,4],requires_grad=False)
c=a+b
print(a.is_leaf)
print(c.is_leaf)
"""
OUT5 = """\
True
False
"""

EX6 = """\
a=torch.tensor([1.,2,3,4],requires_grad=False)
b=torch.tensor([1.,2,3,4],requires_grad=False)
c=a+b
print(c.is_leaf)
print(c.grad_fn)
"""
OUT6 = """\
True
None
"""

# ---------------------------------------------------------------- the notes around them

# Example 1 continued: a.grad has accumulated and the child d requires grad.
EX1_NOTE = EX1 + """\
print(a.grad)
print(d.requires_grad)
print(c.requires_grad, c.is_leaf, d.is_leaf)
"""
OUT1_NOTE = OUT1 + """\
tensor([3., 3., 3., 3.])
True
True False False
"""

# Example 4 as the article wrote it, with its typo: an uncaught TypeError.
EX4_TYPO = """\
from torch.autograd import Variable
tensor=torch.tensor([1.,2,3,4])
a=Variable(tensor,requires_gard=True)
print(a)
"""
ERR4_TYPO = "TypeError: 'requires_gard' is an invalid keyword argument for this function"

# The legacy Variable's semantics.
EX4_VARIABLE = """\
import warnings
from torch.autograd import Variable
tensor=torch.tensor([1.,2,3,4])
a=Variable(tensor,requires_grad=True)
tensors = [tensor, a, a * 2, (a * 2).sum(), a.detach(), torch.tensor(3),
           torch.tensor([True]), torch.zeros(2, 3, dtype=torch.float64), Variable(tensor)]
print([isinstance(x, Variable) for x in tensors])
print(type(a) is type(tensor), a.is_leaf, a.requires_grad, a.grad_fn)
print(Variable(tensor).requires_grad, Variable(tensor) is tensor)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    v = Variable(tensor, volatile=True)
print(v)
print([(x.category.__name__, str(x.message)) for x in w])
for bad in ([1., 2.], 3, "abc", (1, 2)):
    try:
        Variable(bad)
    except Exception as e:
        print(type(e).__name__ + ": " + str(e))
    else:
        print("no error for", bad)
"""
OUT4_VARIABLE = """\
[True, True, True, True, True, True, True, True, True]
True True True None
False False
tensor([1., 2., 3., 4.])
[('UserWarning', 'volatile was removed and now has no effect. Use `with torch.no_grad():` instead.')]
TypeError: Variable data has to be a tensor, but got list
TypeError: Variable data has to be a tensor, but got int
TypeError: Variable data has to be a tensor, but got str
TypeError: Variable data has to be a tensor, but got tuple
"""

PROGRAMS = {
    "ex1": (EX1, OUT1),
    "ex2": (EX2, OUT2),
    "ex3": (EX3, OUT3),
    "ex4": (EX4, OUT4),
    "ex5": (EX5, OUT5),
    "ex6": (EX6, OUT6),
    "ex1_note": (EX1_NOTE, OUT1_NOTE),
    "ex4_variable": (EX4_VARIABLE, OUT4_VARIABLE),
    "ex4_typo": (EX4_TYPO, None),
}

def as_program(src, module):
    """The example as a runnable program for module 'torch' or 'autograd_core'."""
    if not src.startswith("import torch\n"):
        src = "import torch\n" + src
    if module == "autograd_core":
        src = src.replace("import torch\n", "import autograd_core as torch\n", 1)
        src = src.replace("from torch.autograd import", "from autograd_core.autograd import")
    return src


# One interpreter per module imports it once, then forks a fresh child per program (so
# each program still runs in its own process, with its own stdout/stderr and exit code)
# without paying torch's import time nine times.
RUNNER = r"""
import importlib, json, os, sys, tempfile, traceback
importlib.import_module(sys.argv[1])
programs = json.load(sys.stdin)
results = {}
for name, src in programs.items():
    fo, fe = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.dup2(fo.fileno(), 1); os.dup2(fe.fileno(), 2)
        code = 0
        try:
            exec(compile(src, "<" + name + ">", "exec"), {"__name__": "__main__"})
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush(); sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    fo.seek(0); fe.seek(0)
    results[name] = [os.waitstatus_to_exitcode(status), fo.read().decode(), fe.read().decode()]
sys.__stdout__.write(json.dumps(results))
"""


@pytest.fixture(scope="module")
def runs():
    """Every (program, module) run once: {(name, module): (returncode, stdout, stderr)}."""
    env = child_env()
    procs = {}
    for module in ("torch", "autograd_core"):
        progs = {name: as_program(src, module) for name, (src, _) in PROGRAMS.items()}
        p = subprocess.Popen([sys.executable, "-c", RUNNER, module], cwd=CWD, env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        procs[module] = (p, json.dumps(progs))
    out = {}
    for module, (p, progs) in procs.items():
        stdout, stderr = p.communicate(progs, timeout=120)
        assert p.returncode == 0, f"runner for {module} failed:\n{stderr}"
        for name, (rc, o, e) in json.loads(stdout).items():
            out[name, module] = (rc, o, e)
    return out


def test_program_transform():
    p = as_program(EX4, "autograd_core")
    assert p.splitlines()[:2] == ["import autograd_core as torch",
                                  "from autograd_core.autograd import Variable"]
    assert "import torch\n" not in p and "from torch" not in p
    assert as_program(EX1, "torch") == EX1


CASES = [n for n, (_, out) in PROGRAMS.items() if out is not None]


@pytest.mark.parametrize("module", ["torch", "autograd_core"])
@pytest.mark.parametrize("name", CASES)
def test_output_matches_document(runs, name, module):
    rc, stdout, stderr = runs[name, module]
    assert rc == 0, f"{module} run of {name} failed:\n{stderr}"
    assert no_addresses(stdout) == no_addresses(PROGRAMS[name][1]), f"{module} printed:\n{stdout}"


@pytest.mark.parametrize("name", CASES)
def test_autograd_core_matches_torch(runs, name):
    rc_t, out_t, _ = runs[name, "torch"]
    rc_a, out_a, err_a = runs[name, "autograd_core"]
    assert rc_a == rc_t == 0, err_a
    assert no_addresses(out_a) == no_addresses(out_t)


@pytest.mark.parametrize("name", CASES)
def test_no_stderr_noise(runs, name):
    """Neither run prints warnings or anything else to stderr."""
    for module in ("torch", "autograd_core"):
        assert runs[name, module][2] == "", f"{module} stderr:\n{runs[name, module][2]}"


def test_requires_gard_typo(runs):
    for module in ("torch", "autograd_core"):
        rc, stdout, stderr = runs["ex4_typo", module]
        assert rc == 1 and stdout == "", (module, rc, stdout, stderr)
        assert stderr.strip().splitlines()[-1] == ERR4_TYPO, f"{module}:\n{stderr}"


def test_addresses_are_real_and_distinct():
    """The grad_fn repr carries a real address (the normalisation hides only that)."""
    import autograd_core as torch
    a = torch.tensor([1., 2, 3, 4], requires_grad=True)
    c, d = a + 1, a + 2
    rc, rd = repr(c.grad_fn), repr(d.grad_fn)
    assert re.fullmatch(r"<AddBackward0 object at 0x[0-9a-f]+>", rc), rc
    assert rc != rd
    assert rc == repr(c.grad_fn) and rc == str(c.grad_fn)
    assert int(rc.split(" at ")[1][:-1], 16) == id(c.grad_fn)


def test_leaf_rule_on_examples():
    """A tensor is a leaf exactly when its grad_fn is None (examples 2, 5, 6), both libs."""
    import torch as real
    import autograd_core
    for mod in (real, autograd_core):
        a = mod.tensor([1., 2, 3, 4], requires_grad=True)
        b = mod.tensor([1., 2, 3, 4])
        for t in (a, b, a + b, b + b, a * 2, (b * 2).sum(), a.detach(), (a + b).detach()):
            assert t.is_leaf == (t.grad_fn is None), (mod.__name__, t)
