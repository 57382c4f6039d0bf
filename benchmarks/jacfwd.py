#!/usr/bin/env python
"""Forward-mode Jacobians of a small MLP: torch.func.jacfwd (one jvp over the whole
standard basis, vmapped: Note [jvp under vmap] in autograd_core/func/_vmap.py) against
a Python loop of one jvp per input element, and the vectorized forward-mode
autograd.functional.jacobian, for autograd_core and PyTorch side by side.

    python benchmarks/jacfwd.py                 # input 32, MLP 32-64-16
    python benchmarks/jacfwd.py --sizes 64,128,32 --repeats 10

Prints each workload's best time and the ratio loop / jacfwd (what batching the jvp
buys; above 1 is a gain), and checks the Jacobians against the loop's. Absolute times on
shared machines are noise: the ratios in one run are the figures.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import _import_core, best  # noqa: E402  (benchmarks/run.py's import rule)


def workloads(m, sizes):
    m.manual_seed(0)
    ws = [m.randn(b, a, dtype=m.double) / a ** 0.5 for a, b in zip(sizes[:-1], sizes[1:])]
    x = m.randn(sizes[0], dtype=m.double)

    def f(v):
        for w in ws[:-1]:
            v = m.tanh(w @ v)
        return ws[-1] @ v

    def jacfwd():
        return m.func.jacfwd(f)(x)

    def functional():
        return m.autograd.functional.jacobian(f, x, strategy="forward-mode", vectorize=True)

    def loop():
        eye = m.eye(sizes[0], dtype=m.double)
        cols = [m.func.jvp(f, (x,), (eye[k],))[1] for k in range(sizes[0])]
        return m.stack(cols, dim=-1)
    return jacfwd, functional, loop


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=str, default="32,64,16")
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    import torch

    ag = _import_core("autograd_core")
    torch.set_num_threads(1)        # one thread each: the count is the work, not the spinning
    sizes = [int(s) for s in args.sizes.split(",")]
    rows, ok = {}, True
    for name, m in (("autograd_core", ag), ("torch", torch)):
        jacfwd, functional, loop = workloads(m, sizes)
        rows[name] = (best(jacfwd, args.repeats), best(functional, args.repeats),
                      best(loop, max(3, args.repeats // 3)))
        want = loop().numpy()
        ok = ok and np.allclose(jacfwd().numpy(), want) and np.allclose(
            functional().numpy(), want)
    print(f"forward-mode Jacobian, MLP {args.sizes}")
    print(f"{'':14s} {'jacfwd ms':>10s} {'functional ms':>14s} {'jvp loop ms':>12s} "
          f"{'loop/jacfwd':>12s}")
    for name, (j, fn, lp) in rows.items():
        print(f"{name:14s} {j * 1e3:10.3f} {fn * 1e3:14.3f} {lp * 1e3:12.3f} {lp / j:12.2f}")
    print(f"autograd_core jacfwd / torch.func jacfwd: "
          f"{rows['autograd_core'][0] / rows['torch'][0]:.2f}")
    print(f"Jacobians equal the jvp loop's: {ok}")


if __name__ == "__main__":
    main()
