"""Every command README.md and benchmarks/README.md document works as written from a fresh
clone after the README's install, run here in a short form.

The checkout's files that git tracks (and new files it does not ignore) are copied into
a temporary directory: a fresh clone, with no compiled module in it. Each command runs
there as a subprocess, against the package this test process imports (the installed one
after `pip install ".[test]"`, as in CI; or this checkout's in-place build, put on
PYTHONPATH as an installed package would be on sys.path: tests/_subprocess.py). Python
puts the clone's root first on sys.path for `python -m ...`, so a command that imports
the clone's unbuilt `autograd_core/` fails here as it failed for a newcomer (`cannot
import name 'dtype' from 'autograd_core._core'`); tests/_source_tree.py is the rule the
commands follow.

The commands not run are listed in NOT_RUN with the reason, and
test_every_documented_command_is_run_or_excused fails on a documented command that is
in neither list, so a new command in a README gets a test or a stated reason."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

import _source_tree
from _subprocess import PACKAGE_PARENT, child_env

ROOT = _source_tree.ROOT
INSTALLED = pathlib.Path(PACKAGE_PARENT).resolve() != ROOT  # else: the in-place build

# documented command -> (the argv run, cwd "clone" or "outside", text the output must hold)
COMMANDS = {
    "python -m tests.fuzz --programs 20000 --jobs 2":
        ("python -m tests.fuzz --programs 5 --jobs 1", "clone", "5 programs"),
    "python -m tests.fuzz":
        ("python -m tests.fuzz --programs 2 --seed 7", "clone", "2 programs"),
    "python -m tests.fuzz --replay SEED":
        ("python -m tests.fuzz --replay 0", "clone", "# no difference"),
    "pytest":
        ("pytest tests/test_seed_examples.py -q", "clone", " passed"),
    "pip install \".[test]\" && pytest":
        ("pytest tests/test_seed_examples.py -q", "clone", " passed"),
    "python -m pytest":
        ("python -m pytest tests/test_seed_examples.py -q", "clone", " passed"),
    "python tests/test_misuse.py":
        ("python tests/test_misuse.py backward_twice", "clone", "divergent of"),
    "python examples/mlp_digits.py":
        ("python examples/mlp_digits.py --quick", "clone", "running under autograd_core"),
    "python examples/mlp_digits.py --torch":
        ("python examples/mlp_digits.py --quick --torch", "clone", "running under torch"),
    "python -m autograd_core.demo":
        ("python -m autograd_core.demo --quick --no-bench --out {tmp}/demo", "outside",
         "test accuracy"),
    "python benchmarks/run.py":
        ("python benchmarks/run.py --quick --only chain1 --peers none", "clone",
         "autograd_core"),
    "python benchmarks/run.py --quick":
        ("python benchmarks/run.py --quick --only chain1 --peers none", "clone",
         "mode: quick"),
    "python benchmarks/run.py --only chain1,mlp":
        ("python benchmarks/run.py --quick --only chain1,mlp --peers none", "clone", "mlp"),
    "python benchmarks/run.py --peers torch":
        ("python benchmarks/run.py --quick --only chain1 --peers torch", "clone", "torch"),
    "python benchmarks/run.py --peers":
        ("python benchmarks/run.py --peers", "clone", "torch"),
    "python benchmarks/run.py --core torch":
        ("python benchmarks/run.py --quick --only chain1 --peers none --core torch",
         "clone", "autograd_core[=torch]"),
    "python benchmarks/run.py --json out.json":
        ("python benchmarks/run.py --quick --only chain1 --peers none --json {tmp}/b.json",
         "clone", "chain1"),
    "python benchmarks/run.py --threads 1":
        ("python benchmarks/run.py --quick --only chain1 --peers none --threads 1", "clone",
         "chain1"),
    "python benchmarks/random_streams.py":
        ("python benchmarks/random_streams.py --n 1000 --repeats 1", "clone", "randn float32"),
    "python benchmarks/threads_overlap.py":
        ("python benchmarks/threads_overlap.py --size 1e4 --repeat 1 --reps 1", "clone",
         "autograd_core  "),
    "python benchmarks/peak_memory.py":
        ("python benchmarks/peak_memory.py --only mlp", "clone", "excess"),
    "python benchmarks/checkpoint_memory.py":
        ("python benchmarks/checkpoint_memory.py --depth 8 --width 16 --batch 4 --peers none",
         "clone", "sequential"),
    "python benchmarks/jacfwd.py":
        ("python benchmarks/jacfwd.py --sizes 4,6,3 --repeats 1", "clone",
         "Jacobians equal the jvp loop's: True"),
    "python benchmarks/batched_backward.py":
        ("python benchmarks/batched_backward.py --batches 4 --d-in 3 --hidden 5 --repeats 1",
         "clone", "Jacobians equal the loop's: True"),
    "python benchmarks/per_sample_grads.py":
        ("python benchmarks/per_sample_grads.py --batch 8 --repeats 1", "clone",
         "per-sample gradients equal the loop's: True"),
    "python benchmarks/profiler_overhead.py":
        ("python benchmarks/profiler_overhead.py --steps 10 --repeat 1", "clone", "on / off"),
    "python benchmarks/serialization.py":
        ("python benchmarks/serialization.py --repeats 1 --small 10", "clone", "ag/torch"),
    # the callgrind counts take minutes: the script's own `--run N` mode (steps without
    # valgrind) runs the same import and workload set-up
    "python benchmarks/profile_step.py cnn":
        ("python benchmarks/profile_step.py cnn --run 1", "clone", ""),
    "python benchmarks/profile_step.py mlp --impl numpy":
        ("python benchmarks/profile_step.py mlp --impl numpy --run 1", "clone", ""),
    "python benchmarks/distributed.py":
        ("python benchmarks/distributed.py --repeats 1", "clone", "DDP step"),
    # regenerates the type stubs from the table (tests/test_typing.py checks they match)
    "python autograd_core/ops/_stubgen.py":
        ("python autograd_core/ops/_stubgen.py", "clone", "autograd_core/__init__.pyi"),
}

NOT_RUN = {
    "python benchmarks/forward_ad.py": "a timing run against a built tree (the worker imports the in-place build); benchmarks are not timed in tests",
    "python benchmarks/forward_ad.py --baseline /work/main": "needs a second built tree of autograd_core to compare with",
    "pip install \".[demo]\" && autograd-core-demo":
        "an install (network); the console script itself runs in test_demo_console_script",
    "pip install mygrad autograd micrograd": "an install of optional peers (network)",
    "pip install jax jaxlib": "an install of an optional peer (network, ~600 MB)",
    "python setup.py build_ext --inplace":
        "a full build of a fresh clone takes minutes on 2 cores; this suite runs on its result",
    "AGC_FAST_BUILD=1": "a build option (see python setup.py build_ext --inplace)",
    "AGC_SANITIZE=address,undefined": "a build option of tools/sanitize",
    "tools/sanitize asan": "a sanitizer rebuild and the whole suite under it: 10+ minutes",
    "tools/sanitize memcheck": "a -g rebuild and a suite subset under valgrind: 7+ minutes",
    "python benchmarks/run.py --peers torch --repeats 9 --plots DIR":
        "the published run (minutes); --peers torch and --plots are run in short forms",
    "python benchmarks/run.py --plots DIR":
        "the size sweeps to 10^6 nodes take minutes and have no short form",
    "python benchmarks/profile_step.py cnn --out DIR":
        "a callgrind run (minutes); the script runs in its --run form above",
    "python benchmarks/profiler_overhead.py --base /tmp/base":
        "needs a second built tree (a full build: minutes); the script runs in its short form",
    "pip install \".[distributed]\"": "an install (network); CI gets the same packages from "
        "the test extra",
    "python -m autograd_core.distributed.run --nproc-per-node 4 train.py":
        "train.py stands for the user's script; tests/test_distributed.py runs the launcher",
    "python -m autograd_core.distributed.run --nnodes 2 --nproc-per-node 4 --hostfile hosts "
    "train.py": "needs several machines",
    "PYTHONPATH=.": "not a command (how to run the examples on an in-place build)",
    "AGC_FAST_BUILD=1 python setup.py build_ext --inplace":
        "a rebuild of the op layer (minutes on 2 cores); this suite runs on its result",
    "pip install \".[X]\"": "an install of an optional extra (network)",
    "pip install \".[test]\"": "an install (network); CI runs it (.ci/run)",
    "python -m pytest tests/<file>": "<file> stands for a test file; `python -m pytest` runs "
        "above",
    "python tests/programs/run.py autograd_core prog.py":
        "prog.py stands for the user's program; tests/test_real_programs.py runs every program "
        "of tests/programs/ this way",
    "python -m autograd_core.distributed.run --nproc-per-node 2 examples/ddp_digits.py":
        "needs MPI ranks; tests/test_distributed.py runs this example on 2 ranks",
    "AGC_*": "not a command (the name of C kernel entries)",
}

_COMMAND_START = re.compile(r"(python |pip |pytest|autograd-core-demo|tools/|AGC_|PYTHONPATH)")


def _rst_commands(text):
    """The commands of a reST page of docs/: the lines of its code blocks (``.. code-block::``
    or a paragraph ending in ``::``) and its ``inline literals`` (a line break in one is a
    space)."""
    spans = [" ".join(m.split()) for m in re.findall(r"``([^`]+)``", text)]
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith(".. code-block::") or (
                line.rstrip().endswith("::") and not line.lstrip().startswith("..")):
            indent = len(line) - len(line.lstrip())
            for body in lines[i + 1:]:
                if body.strip() and len(body) - len(body.lstrip()) <= indent:
                    break
                spans.append(body.split("#")[0].strip())
    return spans


def documented_commands():
    """The commands in README.md, benchmarks/README.md and the documentation pages
    (docs/**/*.rst): every line of a code block (without its comment) and every inline
    code span that starts like a command."""
    found = set()
    for readme in ("README.md", "benchmarks/README.md"):
        text = (ROOT / readme).read_text()
        spans = [line.split("#")[0].strip() for block in re.findall(r"```[a-z]*\n(.*?)```",
                                                                     text, re.S)
                 for line in block.splitlines()]
        spans += [s.strip() for s in re.findall(r"`([^`\n]+)`", text)]
        found |= {s for s in spans if _COMMAND_START.match(s)}
    for page in sorted((ROOT / "docs").rglob("*.rst")):
        if "api" in page.relative_to(ROOT / "docs").parts[:1]:
            continue  # generated from the docstrings
        found |= {s for s in _rst_commands(page.read_text()) if _COMMAND_START.match(s)}
    return found


def test_every_documented_command_is_run_or_excused():
    docs = documented_commands()
    assert len(docs) > 20, "the README parser found too few commands: is it broken?"
    missing = sorted(docs - set(COMMANDS) - set(NOT_RUN))
    assert not missing, f"documented commands neither run here nor excused: {missing}"
    stale = sorted((set(COMMANDS) | set(NOT_RUN)) - docs - {"python examples/mlp_digits.py --torch"})
    assert not stale, f"listed here but no longer documented: {stale}"


def _copy_tracked(dest):
    """The files a clone would hold: git's tracked files and new, unignored ones (this
    checkout's uncommitted state); without git, the tree minus what .gitignore names."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], cwd=ROOT, capture_output=True,
                             check=True).stdout
        files = [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = None
    if files is None:
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(
            ".git", "build", "dist", "*.egg-info", "*.so", "__pycache__", ".pytest_cache",
            "autograd_core_demo", "*.c", "*.html", "_gen_*.pxi", "_op_table*.pxi"),
            dirs_exist_ok=True)  # dest is the fixture's (empty) directory
        return
    for f in files:
        src = ROOT / f
        if src.is_file():  # a file deleted but not yet committed is listed too
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    dest = tmp_path_factory.mktemp("fresh_clone")
    _copy_tracked(dest)
    assert (dest / "autograd_core" / "_core" / "tensor.pyx").exists()
    assert not list((dest / "autograd_core").rglob("*.so")), "the copy must be unbuilt"
    return dest


_RESULTS = {}  # two documented commands with one short form run it once


def _run(argv, cwd, tmp):
    key = (argv, str(cwd))
    if key not in _RESULTS:
        _RESULTS[key] = _run_once(argv, cwd, tmp)
    return _RESULTS[key]


def _run_once(argv, cwd, tmp):
    argv = [a.format(tmp=tmp) for a in argv.split()]
    if argv[0] == "python":
        argv[0] = sys.executable
    elif argv[0] == "pytest":  # the venv's pytest: this interpreter's
        argv[:1] = [sys.executable, "-c", "import sys, pytest; sys.exit(pytest.console_main())"]
    # the demo and the benchmarks draw with BLAS: one thread each keeps the machine free
    env = child_env(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=180)


@pytest.mark.parametrize("documented", sorted(COMMANDS))
def test_documented_command_runs_from_a_fresh_clone(documented, clone, tmp_path):
    argv, where, expect = COMMANDS[documented]
    cwd = clone if where == "clone" else tmp_path
    proc = _run(argv, cwd, tmp_path)
    log = f"$ {argv}\n--- stdout\n{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-3000:]}"
    assert proc.returncode == 0, log
    assert expect in proc.stdout, log
    assert "cannot import name" not in proc.stdout + proc.stderr, log
    assert "not importable" not in proc.stdout, log  # the benchmarks report, not raise


def test_demo_console_script(clone, tmp_path):
    """`autograd-core-demo`, the README's first command: the console script pip installs;
    with the in-place build (no install, so no script) its documented equivalent
    `python -m autograd_core.demo` runs in the parametrized test above."""
    if not INSTALLED:
        pytest.skip("autograd_core is the in-place build, not installed: no console script; "
                    "`python -m autograd_core.demo` is run instead")
    script = pathlib.Path(sys.executable).with_name("autograd-core-demo")
    assert script.exists(), "pip install should have put the console script beside python"
    proc = subprocess.run([str(script), "--quick", "--no-bench", "--out", str(tmp_path)],
                          cwd=clone, env=child_env(OMP_NUM_THREADS="1", MPLBACKEND="Agg"),
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0 and "test accuracy" in proc.stdout, proc.stdout + proc.stderr
