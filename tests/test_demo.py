"""The main job (autograd_core.demo) and the scripts in examples/, run in shortened form
in fresh interpreters: they finish, print their results, write their plots, and every
example ends with the same loss under autograd_core and under PyTorch."""
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

from _subprocess import CWD, child_env

REPO = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
SCRIPTS = sorted(p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))
HAS_TORCH = importlib.util.find_spec("torch") is not None
HAS_MPL = importlib.util.find_spec("matplotlib") is not None

# the same program under both libraries: float32 training drifts by rounding only
LOSS_RTOL = {"lbfgs_regression.py": 1e-8}      # float64
DEFAULT_RTOL = 1e-4
# one BLAS/OpenMP thread in the children: the matrices are small, and on a busy machine a
# second thread mostly waits (this changes no result the tests compare)
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def run(args, timeout=180, **extra_env):
    return subprocess.run([sys.executable, *args], cwd=CWD, env=child_env(**ONE_THREAD, **extra_env),
                          capture_output=True, text=True, timeout=timeout)


def explain(proc):
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-4000:]}\n--- stderr\n{proc.stderr[-4000:]}"


# --------------------------------------------------------------------------- the demo

def test_digits_are_shipped_with_their_attribution():
    from autograd_core.demo import DIGITS_ATTRIBUTION, load_digits
    images, labels = load_digits()
    assert images.shape == (1797, 8, 8) and images.dtype == np.uint8
    assert labels.shape == (1797,) and labels.dtype == np.int64
    assert images.min() == 0 and images.max() == 16
    assert np.bincount(labels).tolist() == [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]
    assert "CC BY 4.0" in DIGITS_ATTRIBUTION and "10.24432/C50P49" in DIGITS_ATTRIBUTION
    import autograd_core.demo
    notice = pathlib.Path(autograd_core.demo.__file__).with_name("DIGITS_DATA.txt").read_text()
    assert "Creative Commons Attribution 4.0" in notice


def test_demo_quick(tmp_path):
    out = tmp_path / "plots"
    proc = run(["-m", "autograd_core.demo", "--quick", "--out", str(out)])
    assert proc.returncode == 0, explain(proc)
    text = proc.stdout
    for name in ("MLP", "CNN"):
        m = re.search(rf"{name} test accuracy: (\d+\.\d\d)%", text)
        assert m, explain(proc)
        assert float(m.group(1)) > 50, explain(proc)         # far above chance even in --quick
    assert "summary: ratio to numpy floor" in text, explain(proc)   # the benchmark table ran
    assert (out / "benchmark.json").is_file()
    if HAS_MPL:
        for png in ("training.png", "benchmark.png"):
            data = (out / png).read_bytes()
            assert data.startswith(b"\x89PNG") and len(data) > 10_000, png
            assert f"wrote {out / png}" in text or f"wrote {os.path.relpath(out / png, CWD)}" in text


def test_demo_runs_without_tqdm_and_matplotlib(tmp_path):
    """Without the [demo] extra: plain progress lines, no plots, and a note saying why."""
    out = tmp_path / "plots"
    code = ("import sys\n"
            "sys.modules.update(tqdm=None, matplotlib=None, threadpoolctl=None)   # as if not installed\n"
            "from autograd_core.demo import main\n"
            f"sys.exit(main(['--quick', '--no-bench', '--out', {str(out)!r}]))\n")
    proc = run(["-c", code])
    assert proc.returncode == 0, explain(proc)
    assert "note: tqdm, matplotlib, threadpoolctl not installed" in proc.stdout, explain(proc)
    assert re.search(r"MLP epoch +\d+/\d+ +loss .* steps/s", proc.stdout), explain(proc)
    assert "CNN test accuracy:" in proc.stdout
    assert "plots: skipped, matplotlib is not installed" in proc.stdout
    assert not out.exists() or not list(out.glob("*.png"))


# --------------------------------------------------------------------------- examples/

def final_loss(proc):
    m = re.search(r"^final loss: (\S+)$", proc.stdout, re.M)
    assert m, explain(proc)
    return float(m.group(1))


@pytest.mark.parametrize("script", SCRIPTS)
def test_example_runs_the_same_under_both_libraries(script):
    args = [str(EXAMPLES / script), "--quick"]
    procs = {"autograd_core": subprocess.Popen([sys.executable, *args], cwd=CWD, env=child_env(**ONE_THREAD),
                                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)}
    if HAS_TORCH:                # both at once: most of each run is starting the interpreter
        procs["torch"] = subprocess.Popen([sys.executable, *args, "--torch"], cwd=CWD, env=child_env(**ONE_THREAD),
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    done = {}
    for name, p in procs.items():
        stdout, stderr = p.communicate(timeout=180)
        done[name] = subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr)
    for name, proc in done.items():
        assert proc.returncode == 0, f"{script} under {name}: " + explain(proc)
        assert proc.stdout.startswith(f"running under {name} "), explain(proc)
    ours = final_loss(done["autograd_core"])
    assert np.isfinite(ours)
    if not HAS_TORCH:
        pytest.skip("torch is not installed: ran under autograd_core only")
    theirs = final_loss(done["torch"])
    assert ours == pytest.approx(theirs, rel=LOSS_RTOL.get(script, DEFAULT_RTOL)), (
        f"{script}: final loss {ours!r} under autograd_core, {theirs!r} under torch")
