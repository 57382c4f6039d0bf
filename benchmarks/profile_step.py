#!/usr/bin/env python
"""Instructions per step of one workload, counted by callgrind (noise-free where timings are not).

    python benchmarks/profile_step.py cnn                  # autograd_core's cnn step
    python benchmarks/profile_step.py mlp --impl numpy     # the floor's (or --impl torch)
    python benchmarks/profile_step.py cnn --out DIR        # keep callgrind.out.* in DIR
    python benchmarks/profile_step.py cnn --run 10         # just run 10 steps (perf, py-spy)

Each count runs the workload of benchmarks/run.py in a fresh process under
`valgrind --tool=callgrind`: once with a few steps and once with that many more, both
after the same warm-up, so the difference divided by the extra steps is the cost of one
step without the imports, the data and the warm-up. A count moves by well under 1% from
run to run on the same build, so a before/after comparison needs no quiet machine.
`callgrind_annotate --inclusive=yes DIR/callgrind.out.long` then lists where the
instructions of the longer run went (compare it with the .short file for one step's share).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import run as bench  # noqa: E402  (benchmarks/run.py: the workloads and how to load each library)

import numpy as np  # noqa: E402

FAMILY = {"numpy": "numpy", "autograd_core": "torchapi", "torch": "torchapi"}


def build_step(workload: str, impl: str, seed: int):
    w = bench.WORKLOADS[workload]
    impls = {i.name: i for i in bench.make_impls("autograd_core")}
    lib = impls[impl].load()
    if impl == "torch":
        lib.set_num_threads(1)          # one thread: the count is the work, not the spinning
    data = w.data(False, np.random.default_rng(seed))
    built = w.variants[FAMILY[impl]](lib if impl != "numpy" else np, data)
    if built is None:
        raise SystemExit(f"{workload} has no {impl} variant")
    return built[0]


def run_steps(args) -> None:
    step = build_step(args.workload, args.impl, args.seed)
    for _ in range(args.warmup):
        step()
    for _ in range(args.run):
        step()


def total_instructions(out_file: str) -> int:
    with open(out_file) as f:
        for line in f:
            m = re.match(r"(?:summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(1))
    raise RuntimeError(f"no totals in {out_file}")


def count(args, steps: int, out_file: str) -> int:
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
           sys.executable, os.path.abspath(__file__), args.workload, "--impl", args.impl,
           "--seed", str(args.seed), "--warmup", str(args.warmup), "--run", str(steps)]
    env = {**os.environ, **bench.MALLOC_ENV, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return total_instructions(out_file)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("workload", choices=sorted(bench.WORKLOADS))
    p.add_argument("--impl", default="autograd_core", choices=sorted(FAMILY))
    p.add_argument("--steps", type=int, default=10, help="extra steps of the longer run (default 10)")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", metavar="DIR", help="keep the callgrind output files in DIR")
    p.add_argument("--run", type=int, metavar="N", help="run N steps in this process, no counting")
    args = p.parse_args(argv)
    if args.run is not None:
        run_steps(args)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    outdir = args.out or tempfile.mkdtemp(prefix="profile_step.")
    os.makedirs(outdir, exist_ok=True)
    short = count(args, 1, os.path.join(outdir, "callgrind.out.short"))
    long = count(args, 1 + args.steps, os.path.join(outdir, "callgrind.out.long"))
    per_step = (long - short) / args.steps
    print(f"{args.workload} [{args.impl}]: {per_step / 1e6:.2f}M instructions per step "
          f"({args.steps} steps counted)")
    if not args.out:
        shutil.rmtree(outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
