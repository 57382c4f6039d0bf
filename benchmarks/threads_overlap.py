#!/usr/bin/env python
"""Do large ops on two threads overlap?  (issue 13, item 3)

    python benchmarks/threads_overlap.py              # autograd_core and torch
    python benchmarks/threads_overlap.py --size 8e6   # elements per op
    python benchmarks/threads_overlap.py --core torch # one module only

Each workload is one unit of work run twice: first both units one after the other on
one thread (serial), then one unit on each of two threads started together
(concurrent).  overlap = serial time / concurrent time: 2.0 means the two threads ran
fully in parallel, 1.0 that they ran one at a time (a loop holding the GIL).  Best of
--repeat runs.  A figure below 2 can also come from memory bandwidth or from cores the
machine shares with other work; compare with torch's row, measured the same way.

A second figure needs no spare core: "ticks" counts how often a pure-Python thread
advanced while the main thread was inside one large call (randn, rand, exp of n
elements); a call that holds the GIL throughout gives about 0 whatever the load.

Workloads: randn and rand into large tensors (the samplers' C loops, one generator per
thread: threads sharing a generator take turns, as in PyTorch), exp and a multiply
(elementwise, numpy's loops), sum, and a forward+backward of a small elementwise graph.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# benchmarks/run.py's rule: the installed autograd_core, else the checkout's in-place build
# (never the checkout's unbuilt sources, which the repository root on sys.path would give)
from run import _import_core  # noqa: E402


def workloads(mod, n):
    def sampler(kind):
        def make():
            g = mod.Generator().manual_seed(0)
            return lambda: getattr(mod, kind)(n, generator=g)
        return make

    def elementwise(fn):
        def make():
            x = mod.rand(n, generator=mod.Generator().manual_seed(1))
            return lambda: fn(x)
        return make

    def backward():
        x = mod.rand(n, generator=mod.Generator().manual_seed(2)).requires_grad_()

        def step():
            x.grad = None
            (x.exp() * x).sum().backward()
        return step

    return {
        "randn": sampler("randn"),
        "rand": sampler("rand"),
        "exp": elementwise(lambda x: x.exp()),
        "mul": elementwise(lambda x: x * x),
        "sum": elementwise(lambda x: x.sum()),
        "backward": backward,
    }


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def serial(units, reps):
    def run():
        for u in units:
            for _ in range(reps):
                u()
    return timed(run)


def concurrent(units, reps):
    start = threading.Barrier(len(units) + 1)

    def work(u):
        start.wait()
        for _ in range(reps):
            u()
    threads = [threading.Thread(target=work, args=(u,)) for u in units]
    for t in threads:
        t.start()

    def run():
        start.wait()
        for t in threads:
            t.join()
    return timed(run)


def measure(mod, n, repeat, reps):
    rows = []
    for name, make in workloads(mod, n).items():
        units = [make(), make()]
        for u in units:
            u()  # warm up (first-touch of memory, caches)
        s = min(serial(units, reps) for _ in range(repeat))
        c = min(concurrent(units, reps) for _ in range(repeat))
        rows.append((name, s, c, s / c))
    return rows


def ticks_during(mod, name, n):
    """How many times a Python thread ran its loop during one call of op `name`."""
    g = mod.Generator().manual_seed(0)
    x = mod.rand(n, generator=g)
    call = {"randn": lambda: mod.randn(n, generator=g), "rand": lambda: mod.rand(n, generator=g),
            "exp": lambda: x.exp()}[name]
    call()
    count, running, started = [0], [True], threading.Event()

    def tick():
        started.set()
        while running[0]:
            count[0] += 1
            time.sleep(0)  # offer the GIL back at once

    t = threading.Thread(target=tick)
    t.start()
    started.wait()
    before = count[0]
    t0 = time.perf_counter()
    call()
    dt = time.perf_counter() - t0
    after = count[0]
    running[0] = False
    t.join()
    return after - before, dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=float, default=4e6, help="elements per op (default 4e6)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--reps", type=int, default=3, help="ops per thread per run")
    ap.add_argument("--core", action="append", help="module(s): autograd_core, torch")
    args = ap.parse_args()
    n = int(args.size)
    print(f"{os.cpu_count()} CPUs; {n:,} float32 elements per op; two threads; "
          f"best of {args.repeat}")
    print(f"{'module':<14} {'workload':<9} {'serial s':>9} {'2 threads s':>12} {'overlap':>8}")
    for name in args.core or ["autograd_core", "torch"]:
        try:
            mod = importlib.import_module(name) if name == "torch" else _import_core(name)
        except ImportError as e:
            print(f"{name}: not importable ({e})")
            continue
        if name == "torch":
            mod.set_num_threads(1)  # one core per thread, as autograd_core's ops use
        for w, s, c, r in measure(mod, n, args.repeat, args.reps):
            print(f"{name:<14} {w:<9} {s:>9.3f} {c:>12.3f} {r:>7.2f}x")
        for w in ("randn", "rand", "exp"):
            k, dt = ticks_during(mod, w, n)
            print(f"{name:<14} {w:<9} one call {dt:.3f} s: a Python thread ticked {k} times")


if __name__ == "__main__":
    main()
