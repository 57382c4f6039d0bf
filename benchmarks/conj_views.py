#!/usr/bin/env python
"""What the lazy conjugate bit (Note [Conjugate and negative views]) costs an in-place op.

    python benchmarks/conj_views.py [--n 64] [--repeat 7]

An in-place add_ on a complex tensor of n elements, in three states: no conj view
anywhere (the hot path: bump_version's one flag check), a conj view of another tensor
alive (every write then asks which twin it hit), and a conj view of the written tensor
alive (every write refreshes the twin: an extra conj of n elements). Printed beside the
numpy floor (np.add into the array) and PyTorch (whose conj view costs nothing to keep:
its bit is a flag on shared memory), with the ratios to the floor.
"""
import argparse
import os
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import _import, _import_core  # noqa: E402  (benchmarks/run.py's import rule)


def _best(stmt, number, repeat):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def _times(mod, n, number, repeat):
    """The three states' times, in order (each state's views kept alive while timed)."""
    x = mod.zeros(n, dtype=mod.complex128)
    other = mod.zeros(n, dtype=mod.complex128)
    step = lambda: x.add_(1)  # noqa: E731
    out = [_best(step, number, repeat)]
    keep = other.conj()
    out.append(_best(step, number, repeat))
    keep2 = x.conj()
    out.append(_best(step, number, repeat))
    del keep, keep2
    return out


STATES = ("no conj view", "a conj view of another tensor",
          "a conj view of the written tensor")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--number", type=int, default=20000)
    args = ap.parse_args()
    a = np.zeros(args.n, dtype=np.complex128)
    floor = _best(lambda: np.add(a, 1, out=a), args.number, args.repeat)
    print(f"in-place add_ on complex128[{args.n}]; numpy floor {floor * 1e6:.2f} us")
    mods = [("autograd_core", _import_core("autograd_core"))]
    try:
        mods.append(("torch", _import("torch")))
    except ImportError:
        pass
    print(f"{'state':36s}" + "".join(f"{name:>22s}" for name, _ in mods))
    results = {name: _times(mod, args.n, args.number, args.repeat) for name, mod in mods}
    for i, label in enumerate(STATES):
        row = f"{label:36s}"
        for name, _ in mods:
            t = results[name][i]
            row += f"{t * 1e6:10.2f} us {t / floor:6.2f}x"
        print(row)


if __name__ == "__main__":
    main()
