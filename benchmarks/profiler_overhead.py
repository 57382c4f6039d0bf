#!/usr/bin/env python
"""What the profiler costs (issue 26, item 7): the tiny-op chain (benchmarks/run.py's
chain workload: y = tanh(y * 1.01 + 0.01), steps times, then sum().backward()) with the
profiler off and inside torch.profiler.profile, for autograd_core and for PyTorch.

    python benchmarks/profiler_overhead.py                    # this tree and torch
    python benchmarks/profiler_overhead.py --base /tmp/base   # also a build of another tree
    python benchmarks/profiler_overhead.py --steps 200 --n 16 --repeat 15

Each row runs in a fresh process of its own (benchmarks/run.py's rule) that also times
the numpy floor (the same chain with the gradient written by hand), sample for sample;
"ratio" is the row's best time over that floor's best. "on / off" is the profiled time
over the unprofiled time of the same library in the same process.

Profiling off costs nothing measurable by design (Note [Op hook],
autograd_core/_core/_profiler.pxi: no op checks a flag; the profiler swaps the op table);
--base runs the same off row against a build of the tree before the profiler existed:
its ratio and this tree's should agree within the run-to-run noise (a few %).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# benchmarks/run.py's rule: the installed autograd_core, else the checkout's in-place build
from run import _import_core, chain_forward, chain_numpy  # noqa: E402


def worker(module, steps, n, repeat, profiled):
    if module == "autograd_core":
        lib = _import_core("autograd_core")
    else:
        import torch as lib
    x0 = np.random.default_rng(0).uniform(-1, 1, n).astype(np.float32)
    x = lib.tensor(x0, requires_grad=True)

    def chain():
        x.grad = None
        chain_forward(x, steps, lib.tanh).sum().backward()

    floor, _ = chain_numpy(np, {"x": x0, "steps": steps})

    def profiled_chain():
        with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU]) as p:
            chain()
        return p

    if profiled:                        # warm up, and check what was recorded
        names = {e.name for e in profiled_chain().events()}
        assert {"aten::mul", "aten::add", "aten::tanh", "aten::sum"} <= names, names
    chain()
    best = {"floor": float("inf"), "off": float("inf"), "on": float("inf")}
    for _ in range(repeat):
        for key, fn in (("floor", floor), ("off", chain),
                        ("on", profiled_chain if profiled else chain)):
            t = time.perf_counter()
            fn()
            best[key] = min(best[key], time.perf_counter() - t)
    print(json.dumps(best))


def run_worker(module, args, pythonpath, profiled):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--worker", module, "--steps",
         str(args.steps), "--n", str(args.n), "--repeat", str(args.repeat)]
        + ([] if profiled else ["--off-only"]),
        env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--n", type=int, default=1, help="elements per tensor")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--base", help="root of another built tree: its profiling-off row")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--off-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.steps, args.n, args.repeat, profiled=not args.off_only)
        return
    rows = [("autograd_core", "autograd_core", None, True)]
    if args.base:
        rows.insert(0, ("autograd_core (base tree)", "autograd_core", args.base, False))
    rows.append(("torch", "torch", None, True))
    print(f"chain of {args.steps} x (mul, add, tanh) on {args.n} element(s), forward + "
          f"backward; best of {args.repeat}")
    print(f"{'':28s}{'off ms':>9s}{'off ratio':>11s}{'on ms':>9s}{'on ratio':>10s}"
          f"{'on / off':>10s}")
    for label, module, path, profiled in rows:
        r = run_worker(module, args, path, profiled)
        line = f"{label:28s}{r['off'] * 1e3:9.3f}{r['off'] / r['floor']:11.2f}"
        if profiled:
            line += (f"{r['on'] * 1e3:9.3f}{r['on'] / r['floor']:10.2f}"
                     f"{r['on'] / r['off']:10.2f}")
        print(line)


if __name__ == "__main__":
    main()
