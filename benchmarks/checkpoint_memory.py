#!/usr/bin/env python
"""Peak memory of a deep MLP training step with and without activation checkpointing,
autograd_core beside PyTorch.

    python benchmarks/checkpoint_memory.py                    # 32 layers of 512, batch 256
    python benchmarks/checkpoint_memory.py --depth 64 --width 256 --batch 128

One step is forward, loss, backward. Variants: no checkpointing; every block of 4 layers
under ``checkpoint(use_reentrant=False)``; the same with ``use_reentrant=True``;
``checkpoint_sequential`` in sqrt(depth) segments. (A checkpoint around a single
Linear + Tanh saves nothing: what that layer saves is its input, which checkpoint keeps
anyway; a block keeps one input in place of four layers' activations.) Each (library, variant) runs in a
process of its own, once, after building the model:

- ``rss``: the process's resident-set high-water mark (VmHWM, reset just before the
  step) above its resident set then; the same measurement for both libraries (PyTorch's
  CPU allocator is invisible to tracemalloc). A tiny step of the same variant runs
  first, so that lazy imports and first-call caches (PyTorch's checkpoint imports
  torch._dynamo on its first call) are not counted, while the measured step's arrays
  still need fresh memory. It is the first big step in its process: a later one would
  reuse memory already resident and show no growth.
- ``traced``: tracemalloc's peak above what was traced before the step; numpy reports
  its buffers to tracemalloc, so this is autograd_core's exact figure (none for torch).

Activations of the uncheckpointed step grow with depth; checkpointed, only the layer
inputs are kept and one layer is recomputed at a time. Numbers are printed, not judged;
the ratio column is the variant's peak over the uncheckpointed one of the same library.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import gc
import subprocess
import sys
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import run as bench  # noqa: E402  (its malloc settings and its way to import autograd_core)

VARIANTS = ["none", "blocks", "blocks_reentrant", "sequential"]
BLOCK = 4   # layers per checkpointed block


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def reset_rss_peak() -> bool:
    """Reset the resident-set high-water mark (Linux: clear_refs 5); False if refused."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def build(lib, depth: int, width: int, batch: int):
    import numpy as np
    rng = np.random.default_rng(0)
    layers = []
    for _ in range(depth):
        lin = lib.nn.Linear(width, width)
        with lib.no_grad():
            lin.weight.copy_(lib.tensor(rng.standard_normal((width, width)).astype("float32")
                                        / math.sqrt(width)))
            lin.bias.copy_(lib.tensor(rng.standard_normal(width).astype("float32") * 0.1))
        layers += [lin, lib.nn.Tanh()]
    model = lib.nn.Sequential(*layers)
    x = lib.tensor(rng.standard_normal((batch, width)).astype("float32"))
    return model, x


def make_step(lib, variant: str, model, x, depth: int):
    ck = __import__(lib.__name__ + ".utils.checkpoint", fromlist=["checkpoint"])
    blocks = [model[2 * i: 2 * (i + BLOCK)] for i in range(0, depth, BLOCK)]

    def forward():
        if variant == "none":
            return model(x)
        if variant == "sequential":
            return ck.checkpoint_sequential(model, max(1, int(math.sqrt(depth))), x,
                                            use_reentrant=False)
        reentrant = variant == "blocks_reentrant"
        # (the reentrant variant needs an input that requires grad)
        h = x.detach().requires_grad_() if reentrant else x
        for block in blocks:
            h = ck.checkpoint(block, h, use_reentrant=reentrant)
        return h

    def step():
        model.zero_grad(set_to_none=False)
        forward().pow(2).mean().backward()
    return step


def measure(libname: str, variant: str, depth: int, width: int, batch: int) -> dict:
    # (an installed autograd_core, else this checkout's in-place build, as run.py)
    lib = bench._import_core(libname) if libname == "autograd_core" else __import__(libname)
    # a tiny step of the same variant first: lazy imports and first-call caches are not
    # the step's memory (the big arrays' memory stays untouched until measured)
    tiny, tx = build(lib, BLOCK, 8, 2)
    make_step(lib, variant, tiny, tx, BLOCK)()
    model, x = build(lib, depth, width, batch)
    # gradients allocated beforehand (as in PyTorch's memory test), so the peak is the
    # activations' and the backward's temporaries
    for p in model.parameters():
        p.grad = lib.zeros_like(p)
    step = make_step(lib, variant, model, x, depth)
    gc.collect()
    out = {}
    if libname != "torch":
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
    have_rss = reset_rss_peak()
    base = _status("VmRSS")
    step()
    out["rss"] = (_status("VmHWM") - base) if have_rss else None
    if libname != "torch":
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out["traced"] = peak - before
    out["grad_sum"] = float(sum(float(p.grad.double().abs().sum()) for p in model.parameters()))
    return out


def run_worker(libname, variant, depth, width, batch) -> dict:
    env = bench.worker_env()
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker",
                        json.dumps([libname, variant, depth, width, batch])],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        return {"error": (r.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(r.stdout)


def mib(n) -> str:
    return "-" if n is None else f"{n / 2**20:8.1f} MiB"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=32)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--peers", default="torch", help="'torch' or 'none'")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(measure(*json.loads(args.worker))))
        return 0
    libs = ["autograd_core"] + (["torch"] if args.peers == "torch" else [])
    act = args.batch * args.width * 4
    print(f"deep MLP step: {args.depth} x (Linear({args.width}, {args.width}) + Tanh), "
          f"batch {args.batch}, float32; one layer's activation = {mib(act).strip()}")
    results = {lib: {v: run_worker(lib, v, args.depth, args.width, args.batch)
                     for v in VARIANTS} for lib in libs}
    head = f"{'variant':22}" + "".join(f"{lib + ' rss':>22}{'ratio':>7}" for lib in libs)
    head += f"{'autograd_core traced':>22}{'ratio':>7}"
    print(head)
    for v in VARIANTS:
        row = f"{v:22}"
        for lib in libs:
            r, r0 = results[lib][v], results[lib]["none"]
            if "error" in r:
                row += f"{'error':>22}{'':>7}"
                continue
            ratio = "" if r["rss"] is None else f"{r['rss'] / max(r0['rss'], 1):7.2f}"
            row += f"{mib(r['rss']):>22}{ratio:>7}"
        r, r0 = results["autograd_core"][v], results["autograd_core"]["none"]
        if "traced" in r:
            row += f"{mib(r['traced']):>22}{r['traced'] / max(r0['traced'], 1):7.2f}"
        print(row)
    errors = [(lib, v, r["error"]) for lib in libs for v, r in results[lib].items()
              if "error" in r]
    for lib, v, e in errors:
        print(f"error: {lib} {v}: {e}")
    # the variants compute the same gradients
    for lib in libs:
        sums = [r["grad_sum"] for r in results[lib].values() if "grad_sum" in r]
        if sums and max(sums) - min(sums) > 1e-3 * max(abs(s) for s in sums):
            print(f"warning: {lib}: gradients differ between variants: {sums}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
