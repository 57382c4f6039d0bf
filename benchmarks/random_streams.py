#!/usr/bin/env python
"""Drawing random numbers: autograd_core against PyTorch, same seed, same numbers.

    python benchmarks/random_streams.py            # a million values per draw
    python benchmarks/random_streams.py --n 100000

Prints each sampler's best time under both libraries and the ratio (issue 12 asks for at
most 2x PyTorch on a million float32 normals); also checks the values are equal. Absolute
times on shared machines are noise: the ratios in one run are the figures. Build without
AGC_FAST_BUILD (-O3) before measuring.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# benchmarks/run.py's rule: the installed autograd_core, else the checkout's in-place build
# (never the checkout's unbuilt sources, which the repository root on sys.path would give)
from run import _import_core, best  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    import torch

    ag = _import_core("autograd_core")
    n = args.n
    rows = [
        ("randn float32", lambda m: m.randn(n)),
        ("randn float64", lambda m: m.randn(n, dtype=m.float64)),
        ("rand float32", lambda m: m.rand(n)),
        ("randint int64", lambda m: m.randint(0, 1000, (n,))),
        ("randperm", lambda m: m.randperm(n)),
        ("bernoulli_(0.5)", lambda m: m.empty(n).bernoulli_(0.5)),
        ("exponential_", lambda m: m.empty(n).exponential_()),
    ]
    print(f"{'sampler':18s} {'torch ms':>9s} {'ours ms':>9s} {'ratio':>6s}  same values")
    for name, fn in rows:
        t_torch = best(lambda: fn(torch), args.repeats)
        t_ours = best(lambda: fn(ag), args.repeats)
        torch.manual_seed(0)
        expected = fn(torch).numpy()
        ag.manual_seed(0)
        same = np.array_equal(fn(ag).numpy(), expected)
        print(f"{name:18s} {t_torch * 1e3:9.2f} {t_ours * 1e3:9.2f} {t_ours / t_torch:6.2f}  {same}")


if __name__ == "__main__":
    main()
