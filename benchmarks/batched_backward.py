#!/usr/bin/env python
"""Reverse-mode Jacobians in one batched backward pass: autograd.grad with
is_grads_batched=True (Note [Batched backward] in autograd_core/autograd/
_batched_backward.py) and autograd.functional.jacobian(vectorize=True), against a Python
loop of one backward per cotangent (what is_grads_batched ran before), for autograd_core
and PyTorch side by side.

    python benchmarks/batched_backward.py                   # MLP 32-64-N, N = 64, 128, 256
    python benchmarks/batched_backward.py --batches 64,256 --repeats 10

The workload: the Jacobian of a small MLP's output (N values) w.r.t. its input, i.e. N
cotangents (the rows of the identity) through one graph. Prints each workload's best
time, the ratio loop / batched (what one batched pass buys; above 1 is a gain) and
autograd_core's batched time over PyTorch's, and checks the Jacobians against the
loop's. Absolute times on shared machines are noise: the ratios in one run are the
figures.
"""
import argparse
import os
import sys

# one BLAS thread, as torch below: numpy's threaded matrix products on these small
# shapes spend their time spinning on a shared machine
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import _import_core, best  # noqa: E402  (benchmarks/run.py's import rule)


def workloads(m, d_in, hidden, n_out):
    m.manual_seed(0)
    w1 = m.randn(hidden, d_in, dtype=m.double) / d_in ** 0.5
    b1 = m.randn(hidden, dtype=m.double)
    w2 = m.randn(n_out, hidden, dtype=m.double) / hidden ** 0.5
    x = m.randn(d_in, dtype=m.double)

    def f(v):
        return m.nn.functional.linear(m.tanh(m.nn.functional.linear(v, w1, b1)), w2)

    eye = m.eye(n_out, dtype=m.double)

    def batched():
        xi = x.detach().requires_grad_()
        return m.autograd.grad(f(xi), xi, eye, is_grads_batched=True)[0]

    def functional():
        return m.autograd.functional.jacobian(f, x, vectorize=True)

    def loop():
        xi = x.detach().requires_grad_()
        y = f(xi)
        return m.stack([m.autograd.grad(y, xi, eye[k], retain_graph=True)[0]
                        for k in range(n_out)])
    return batched, functional, loop


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=str, default="64,128,256")
    parser.add_argument("--d-in", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    import torch

    ag = _import_core("autograd_core")
    torch.set_num_threads(1)        # one thread each: the count is the work, not the spinning
    print(f"reverse-mode Jacobian of an MLP {args.d_in}-{args.hidden}-N, N cotangents")
    print(f"{'N':>4s} {'':14s} {'batched ms':>11s} {'functional ms':>14s} {'loop ms':>9s} "
          f"{'loop/batched':>13s}")
    ok = True
    for n in [int(s) for s in args.batches.split(",")]:
        rows = {}
        for name, m in (("autograd_core", ag), ("torch", torch)):
            batched, functional, loop = workloads(m, args.d_in, args.hidden, n)
            rows[name] = (best(batched, args.repeats), best(functional, args.repeats),
                          best(loop, max(3, args.repeats // 3)))
            want = loop().numpy()
            ok = ok and np.allclose(batched().numpy(), want) and np.allclose(
                functional().numpy(), want)
        for name, (b, fn, lp) in rows.items():
            print(f"{n:4d} {name:14s} {b * 1e3:11.3f} {fn * 1e3:14.3f} {lp * 1e3:9.3f} "
                  f"{lp / b:13.2f}")
        print(f"{n:4d} autograd_core batched / torch batched: "
              f"{rows['autograd_core'][0] / rows['torch'][0]:.2f}")
    print(f"Jacobians equal the loop's: {ok}")


if __name__ == "__main__":
    main()
