"""Run PyTorch programs unchanged under torch or under autograd_core, and compare what
they print.

``python tests/programs/run.py autograd_core prog.py`` runs prog.py with ``torch`` (and
every ``torch.<sub>`` module it imports) resolved to autograd_core; ``python
tests/programs/run.py diff [names...]`` runs each program under both and prints a diff
of the lines that differ beyond the float tolerance (see :func:`compare`).
"""
import difflib
import importlib
import importlib.abc
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))


class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves ``torch`` and ``torch.x.y`` to ``autograd_core`` and
    ``autograd_core.x.y``, so that ``import torch.nn as nn`` and ``from torch.utils.data
    import DataLoader`` find autograd_core's modules."""

    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            real = "autograd_core" + name[len("torch"):]
            try:
                importlib.util.find_spec(real)
            except ModuleNotFoundError:
                return None
            if importlib.util.find_spec(real) is None:
                return None
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("autograd_core" + spec.name[len("torch"):])

    def exec_module(self, module):
        pass


def install_alias():
    import autograd_core
    sys.meta_path.insert(0, _TorchAlias())
    sys.modules["torch"] = autograd_core
    for name, mod in list(sys.modules.items()):
        if name.startswith("autograd_core."):
            sys.modules.setdefault("torch" + name[len("autograd_core"):], mod)


def _warm_up(torch):
    """Pays the libraries' first-use costs (PyTorch imports its compiler stack on the first
    optimizer step, ~3 s) once, before the programs are forked."""
    p = torch.zeros(2, requires_grad=True)
    for opt in (torch.optim.SGD([p], lr=0.1), torch.optim.Adam([p])):
        (p * 2).sum().backward()
        opt.step()
    import torch.distributions  # noqa: F401  (autograd_core's is aliased by then)
    list(torch.utils.data.DataLoader(torch.utils.data.TensorDataset(p.detach()), batch_size=1))


def program_names():
    return sorted(f[:-3] for f in os.listdir(HERE)
                  if f.endswith(".py") and f not in ("run.py", "__init__.py"))


# One interpreter per module imports it once, then forks a fresh child per program, so
# that each program runs in its own process without paying torch's import time each time.
def run_all(module, names):
    """{name: (exit code, stdout, last line of stderr)} of each program under module."""
    if module == "autograd_core":
        install_alias()
    else:
        importlib.import_module(module)
    _warm_up(importlib.import_module("torch" if module == "torch" else "autograd_core"))
    results = {}
    for name in names:
        with open(os.path.join(HERE, name + ".py")) as f:
            src = f.read()
        fo, fe = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        sys.stdout.flush(); sys.stderr.flush()
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os.dup2(fo.fileno(), 1); os.dup2(fe.fileno(), 2)
            code = 0
            try:
                os.chdir(tempfile.mkdtemp())
                # a module of its own as __main__, so that pickle finds the program's classes
                main = types.ModuleType("__main__")
                main.__file__ = name + ".py"
                sys.modules["__main__"] = main
                sys.argv = [name + ".py"]
                exec(compile(src, name + ".py", "exec"), main.__dict__)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except BaseException:
                traceback.print_exc()
                code = 1
            sys.stdout.flush(); sys.stderr.flush()
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        fo.seek(0); fe.seek(0)
        results[name] = [os.waitstatus_to_exitcode(status), fo.read().decode(),
                         fe.read().decode(), time.perf_counter() - start]
    return results


def run_both(names, env=None, timeout=900):
    """{module: {name: (exit code, stdout, stderr, seconds)}} for torch and autograd_core,
    each module's programs run by one fresh interpreter, the two side by side."""
    procs = {m: subprocess.Popen([sys.executable, os.path.abspath(__file__), "--json", m, *names],
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for m in ("torch", "autograd_core")}
    out = {}
    for m, p in procs.items():
        stdout, stderr = p.communicate(timeout=timeout)
        if p.returncode != 0:
            raise RuntimeError(f"runner for {m} failed:\n{stderr}")
        out[m] = json.loads(stdout)
    return out


_NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")
_ADDR = re.compile(r" at 0x[0-9a-fA-F]+")


def normalise(text):
    """autograd_core's module name as torch's, object addresses removed."""
    text = text.replace("autograd_core.", "torch.").replace("autograd_core", "torch")
    return _ADDR.sub(" at 0x?", text)


def _same_line(a, b, rtol, atol):
    if a == b:
        return True
    na, nb = _NUM.findall(a), _NUM.findall(b)
    if len(na) != len(nb) or _NUM.sub("#", a) != _NUM.sub("#", b):
        return False
    for x, y in zip(na, nb):
        if x == y:
            continue
        fx, fy = float(x), float(y)
        if fx != fx and fy != fy:
            continue
        # one unit in the last printed digit: a value that rounding moved across a
        # rounding boundary of the print format
        if abs(fx - fy) > atol + rtol * max(abs(fx), abs(fy)) + max(_last_digit(x), _last_digit(y)):
            return False
    return True


def _last_digit(s):
    """The value of one unit in the last digit of a printed number ('0.1946' -> 1e-4)."""
    mant, _, exp = s.lower().partition("e")
    decimals = len(mant.partition(".")[2]) if "." in mant else 0
    return 10.0 ** (int(exp or 0) - decimals) if mant[-1:].isdigit() else 0.0


def compare(expected, got, rtol=1e-4, atol=1e-6):
    """The lines of got (normalised) that differ from expected: everything but the
    numbers must be equal, numbers within rtol/atol (float32 sums may differ in the
    last digits between BLAS builds). Returns a unified diff, empty when they agree."""
    e, g = normalise(expected).splitlines(), normalise(got).splitlines()
    if len(e) == len(g) and all(_same_line(x, y, rtol, atol) for x, y in zip(e, g)):
        return ""
    return "\n".join(difflib.unified_diff(e, g, "torch", "autograd_core", lineterm="", n=1))


_WARNING = re.compile(r"^\S*:\d+: (\w+Warning): (.*)$", re.M)


def warnings_in(stderr):
    """The (category, first line of message) of each warning a program printed."""
    return [(c, m.split(" (Triggered internally")[0]) for c, m in _WARNING.findall(normalise(stderr))]


def last_error_line(stderr):
    lines = [l for l in stderr.strip().splitlines() if l.strip()]
    return lines[-1] if lines else ""


def main(argv):
    if argv[:1] == ["--json"]:
        module, names = argv[1], argv[2:] or program_names()
        json.dump(run_all(module, names), sys.__stdout__)
        return 0
    names = argv[1:] if argv[:1] == ["diff"] else argv
    names = [os.path.basename(n).removesuffix(".py") for n in names] or program_names()
    tests = os.path.dirname(HERE)
    sys.path[:0] = [tests, os.path.dirname(tests)]
    from _subprocess import child_env
    env = child_env(OMP_NUM_THREADS="1")
    runs = run_both(names, env)
    ref, got = runs["torch"], runs["autograd_core"]
    bad = 0
    for name in names:
        (rc0, o0, e0, t0), (rc1, o1, e1, t1) = ref[name], got[name]
        d = compare(o0, o1)
        err = rc0 != rc1 or (rc0 and normalise(last_error_line(e0)) != normalise(last_error_line(e1)))
        w0, w1 = warnings_in(e0), warnings_in(e1)
        if w0 != w1:
            d += f"\nwarnings: torch {w0}\n   autograd_core {w1}"
        if d or err:
            bad += 1
            print(f"=== {name}: DIFFERS (exit {rc0} vs {rc1})")
            if d:
                print(d)
            if err:
                print("torch:        ", last_error_line(e0))
                print("autograd_core:", last_error_line(e1))
        else:
            print(f"=== {name}: ok ({t0:.1f} s torch, {t1:.1f} s autograd_core)")
    print(f"{len(names) - bad}/{len(names)} agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
