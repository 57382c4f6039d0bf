#!/usr/bin/env python
"""Peak memory of one training step (tracemalloc): autograd_core against the numpy floor.

    python benchmarks/peak_memory.py                 # the mlp step (and mlp_module)
    python benchmarks/peak_memory.py --only cnn      # any workload of benchmarks/run.py

Each step runs once to warm up, then once more, its gradients are dropped, and it runs
again between tracemalloc.reset_peak() and get_traced_memory() (numpy reports its array
buffers to tracemalloc; PyTorch's allocator does not, so torch has no row), in a process
of its own per implementation, as benchmarks/run.py times them. The peak is above what
was live before the step, so it includes the step's new gradients. The bound a step should
keep to is the floor's peak plus what autograd genuinely has to keep for the backward:
the tensors its nodes save, counted once per address through a pass-through
saved_tensors_hooks pack hook in a separate untimed step, less the step's inputs and
parameters (which the floor holds too). `excess` is the step's peak above that bound:
temporaries the floor does not have. A number printed, not a pass/fail.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tracemalloc
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import run as bench  # noqa: E402

import numpy as np  # noqa: E402

FAMILY = {"numpy": "numpy", "autograd_core": "torchapi"}


def _buffer_key(t):
    """Where a tensor's first element is (a tensor saved twice is counted once)."""
    return t.data_ptr()


def saved_bytes(lib, workload: str, seed: int) -> int:
    """Bytes of the tensors one step's graph saves for its backward, each buffer once,
    without the step's inputs and parameters."""
    w = bench.WORKLOADS[workload]
    data = w.data(False, np.random.default_rng(seed))
    step, _ = w.variants["torchapi"](lib, data)
    seen: dict[int, int] = {}

    def pack(t):
        seen.setdefault(_buffer_key(t), t.numel() * t.element_size())
        return t

    with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        step()
    # the inputs and parameters are saved too, but they exist before and after the step
    owned = {_buffer_key(t) for cell in step.__closure__ or () for t in _tensors_in(cell.cell_contents)}
    return sum(n for k, n in seen.items() if k not in owned)


def _tensors_in(obj):
    """The tensors a step closes over: its inputs, its parameters, a module's parameters."""
    if isinstance(obj, types.ModuleType):
        return []
    if isinstance(obj, (list, tuple)):
        return [t for x in obj for t in _tensors_in(x)]
    if hasattr(obj, "data_ptr") and hasattr(obj, "requires_grad"):
        return [obj]
    if callable(getattr(obj, "parameters", None)):
        return list(obj.parameters())
    return []


def drop_gradients(step) -> None:
    """Free the last step's gradients: the floor's output dict, the parameters' .grad."""
    for cell in step.__closure__ or ():
        obj = cell.cell_contents
        if isinstance(obj, dict):
            obj.clear()
        elif callable(getattr(obj, "zero_grad", None)):
            obj.zero_grad(set_to_none=True)
        elif isinstance(obj, list):
            for t in obj:
                if hasattr(t, "grad"):
                    t.grad = None


def measure(workload: str, impl: str, seed: int) -> dict:
    """In this process: the step's peak above what was allocated before it."""
    w = bench.WORKLOADS[workload]
    impls = {i.name: i for i in bench.make_impls("autograd_core")}
    lib = impls[impl].load()
    data = w.data(False, np.random.default_rng(seed))
    built = w.variants[FAMILY[impl]](np if impl == "numpy" else lib, data)
    if built is None:
        return {"peak": None}
    step, _ = built
    step()                               # warm up (first-call caches)
    tracemalloc.start()
    step()
    drop_gradients(step)                 # the step's peak then includes its new gradients
    gc.collect()
    before, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    step()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out = {"peak": peak - before}
    if impl != "numpy":
        out["saved"] = saved_bytes(lib, workload, seed)
    return out


def run_worker(workload: str, impl: str, seed: int) -> dict:
    env = {**os.environ, **bench.MALLOC_ENV}
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker",
                        json.dumps([workload, impl, seed])],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        return {"error": (r.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(r.stdout)


def kib(n) -> str:
    return "-" if n is None else f"{n / 1024:,.1f} KiB"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="mlp,mlp_module", help="workloads (default mlp,mlp_module)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        workload, impl, seed = json.loads(args.worker)
        print(json.dumps(measure(workload, impl, seed)))
        return 0
    for workload in args.only.split(","):
        floor = run_worker(workload, "numpy", args.seed)
        core = run_worker(workload, "autograd_core", args.seed)
        if "error" in floor or "error" in core:
            print(f"{workload}: error: {floor.get('error') or core.get('error')}")
            continue
        bound = floor["peak"] + core["saved"]
        print(f"{workload}: peak of one step (tracemalloc, above what was live before it)\n"
              f"  numpy (floor)      {kib(floor['peak'])}\n"
              f"  autograd_core      {kib(core['peak'])}\n"
              f"  saved for backward {kib(core['saved'])} (buffers the graph keeps, "
              f"without inputs and parameters)\n"
              f"  excess             {kib(core['peak'] - bound)} over floor + saved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
