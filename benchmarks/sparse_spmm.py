#!/usr/bin/env python
"""A GCN layer's sparse product, forward and backward: torch.spmm(adj, x @ w) with a
sparse normalised adjacency (Note [Sparse tensors] in autograd_core/_sparse.py), for the
hand-written numpy floor (a scatter-add over the nonzeros), autograd_core and PyTorch
side by side.

    python benchmarks/sparse_spmm.py                       # N = 1000, 10000 nodes
    python benchmarks/sparse_spmm.py --nodes 2000 --repeats 10

Prints each workload's best time and the ratios to the numpy floor. Absolute times on
shared machines are noise: the ratios in one run are the figures.
"""
import argparse
import os
import sys
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import _import_core, best  # noqa: E402  (benchmarks/run.py's import rule)


def graph(n, degree, feat, seed=0):
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n, n * degree)
    cols = rng.integers(0, n, n * degree)
    keys = np.unique(rows * n + cols)
    rows, cols = keys // n, keys % n
    vals = rng.uniform(0.1, 1.0, len(rows)).astype(np.float32)
    x = rng.standard_normal((n, feat)).astype(np.float32)
    w = rng.standard_normal((feat, feat)).astype(np.float32)
    return rows, cols, vals, x, w


def _rowsum(target, contrib, n):
    order = np.argsort(target, kind="stable")
    t, c = target[order], contrib[order]
    starts = np.flatnonzero(np.concatenate([[True], t[1:] != t[:-1]]))
    out = np.zeros((n,) + c.shape[1:], dtype=c.dtype)
    out[t[starts]] = np.add.reduceat(c, starts, axis=0)
    return out


def numpy_floor(rows, cols, vals, x, w):
    n = len(x)

    def step():
        s = x @ w
        out = _rowsum(rows, vals[:, None] * s[cols], n)
        g = np.ones_like(out)
        gs = _rowsum(cols, vals[:, None] * g[rows], n)
        return x.T @ gs
    return step


def module_step(m, rows, cols, vals, x, w):
    idx = m.tensor(np.stack([rows, cols]))
    adj = m.sparse_coo_tensor(idx, m.tensor(vals), (len(x), len(x))).coalesce()
    xt = m.tensor(x)
    wt = m.tensor(w, requires_grad=True)

    def step():
        wt.grad = None
        m.spmm(adj, xt @ wt).sum().backward()
        return wt.grad
    return step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", default="1000,10000")
    ap.add_argument("--degree", type=int, default=8)
    ap.add_argument("--features", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    core = _import_core("autograd_core")
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    print(f"{'nodes':>7} {'nnz':>8} {'numpy':>10} {'autograd_core':>14} {'torch':>10} "
          f"{'agc/numpy':>10} {'torch/numpy':>12}")
    for n in (int(v) for v in args.nodes.split(",")):
        rows, cols, vals, x, w = graph(n, args.degree, args.features)
        floor = best(numpy_floor(rows, cols, vals, x, w), args.repeats)
        ours = best(module_step(core, rows, cols, vals, x, w), args.repeats)
        theirs = best(module_step(torch, rows, cols, vals, x, w), args.repeats) if torch else None
        t_str = f"{theirs * 1e3:9.2f}ms" if theirs else "         -"
        r_str = f"{theirs / floor:12.2f}" if theirs else "           -"
        print(f"{n:7d} {len(rows):8d} {floor * 1e3:8.2f}ms {ours * 1e3:12.2f}ms {t_str} "
              f"{ours / floor:10.2f} {r_str}")


if __name__ == "__main__":
    main()
