#!/usr/bin/env python
"""Per-sample gradients of a small MLP: vmap(grad(loss)) against one batched
forward+backward, a Python loop of per-sample backwards, and PyTorch's torch.func.

    python benchmarks/per_sample_grads.py              # batch 64, MLP 32-64-64-10
    python benchmarks/per_sample_grads.py --batch 128

Prints each workload's best time under autograd_core and PyTorch and the ratios the
brief sets: vmap(grad) at most 3x one batched forward+backward, and at least 5x faster
than the loop. Also checks the per-sample gradients against the loop's. Absolute times
on shared machines are noise: the ratios in one run are the figures. Build without
AGC_FAST_BUILD (-O3) before measuring.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import _import_core, best  # noqa: E402  (benchmarks/run.py's import rule)


def workloads(m, batch, sizes):
    m.manual_seed(0)
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [m.nn.Linear(a, b), m.nn.ReLU()]
    net = m.nn.Sequential(*layers[:-1])
    params = {k: v.detach() for k, v in net.named_parameters()}
    x = m.randn(batch, sizes[0])
    t = m.randint(0, sizes[-1], (batch,))
    F = m.nn.functional

    def loss(p, xb, tb):
        out = m.func.functional_call(net, p, (xb.unsqueeze(0),))
        return F.cross_entropy(out, tb.unsqueeze(0))

    per_sample = m.func.vmap(m.func.grad(loss), in_dims=(None, 0, 0))

    def vmap_grad():
        return per_sample(params, x, t)

    def batched():
        net.zero_grad()
        F.cross_entropy(net(x), t).backward()

    def loop():
        grads = []
        for i in range(batch):
            net.zero_grad()
            F.cross_entropy(net(x[i:i + 1]), t[i:i + 1]).backward()
            grads.append([p.grad.clone() for p in net.parameters()])
        return grads
    return vmap_grad, batched, loop


def _page_faults(fn, calls=20):
    """Minor page faults per call of fn (None where getrusage is missing): fresh pages the
    kernel maps in, a cost the timings include (the per-sample gradients are ~1.7 MB per
    call; glibc may hand freed heap memory back to the OS between calls, which is why
    autograd_core takes them from its buffer cache, Note [Buffer cache])."""
    try:
        import resource
    except ImportError:
        return None
    fn()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(calls):
        fn()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--sizes", type=str, default="32,64,64,10")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    import torch

    ag = _import_core("autograd_core")
    torch.set_num_threads(1)        # one thread each: the count is the work, not the spinning
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = {}
    for name, m in (("autograd_core", ag), ("torch", torch)):
        vmap_grad, batched, loop = workloads(m, args.batch, sizes)
        rows[name] = (best(vmap_grad, args.repeats), best(batched, args.repeats),
                      best(loop, max(3, args.repeats // 5)), _page_faults(vmap_grad))
        if name == "autograd_core":
            g = vmap_grad()
            looped = loop()
            ok = all(np.allclose(g[k].numpy()[i], looped[i][j].numpy(), rtol=1e-4, atol=1e-6)
                     for i in range(args.batch) for j, k in enumerate(g))
    print(f"per-sample gradients, batch {args.batch}, MLP {args.sizes}")
    print(f"{'':14s} {'vmap(grad) ms':>14s} {'batched f+b ms':>15s} {'loop ms':>9s} "
          f"{'vmap/batched':>13s} {'loop/vmap':>10s}")
    for name, (v, b, lp, _) in rows.items():
        print(f"{name:14s} {v * 1e3:14.3f} {b * 1e3:15.3f} {lp * 1e3:9.2f} {v / b:13.2f} "
              f"{lp / v:10.2f}")
    if rows["autograd_core"][3] is not None:
        print("minor page faults per vmap(grad) call: " + ", ".join(
            f"{name} {r[3]:.0f}" for name, r in rows.items()))
    print(f"autograd_core vmap(grad) / torch.func vmap(grad): "
          f"{rows['autograd_core'][0] / rows['torch'][0]:.2f}")
    print(f"per-sample gradients equal the loop's: {ok}")


if __name__ == "__main__":
    main()
