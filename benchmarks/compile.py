#!/usr/bin/env python
"""Compiled mode against eager mode, PyTorch eager, PyTorch's torch.compile and JAX's jit.

    python benchmarks/compile.py                    # every workload, every installed peer
    python benchmarks/compile.py --quick            # fewer repeats
    python benchmarks/compile.py --only chain16_200,mlp

Workloads (one forward + backward step each, the forward compiled where the row says so,
the backward eager, as torch.compile users run it): chain16_200 and chain16 (y = tanh(y*1.01
+ 0.01) over 16 floats, 200 and 20,000 steps), chain100k (100,000 floats, 200 steps), mlp
(784-256-10, batch 64, relu, cross-entropy) and cnn (two conv3x3+relu+maxpool2, linear,
cross-entropy; batch 32) -- the workloads of benchmarks/run.py, whose data and numpy floors
this script reuses.

As in run.py, every row runs in a fresh subprocess of its own that times the numpy floor
too, so each ratio is the row's best time over the floor's best time in the same process;
no torch is imported where autograd_core is timed. A compiled row's first call (the
recording, or PyTorch's compilation) is reported apart, beside one eager call of the same
process, and its second call too (autograd_core's compiled mode plans its replay then: the
steps' frees and fused blocks). A row whose library is missing, or whose compiler fails,
says so.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as _run  # noqa: E402  (the workloads' data and numpy floors)

ROWS = ("autograd_core", "autograd_core compiled", "torch", "torch.compile (inductor)",
        "jax.jit")
WORKLOADS = {
    "chain16_200": ("chain: 16 floats x 200 steps", _run.chain_data(16, 200), _run.chain_numpy),
    "chain16": ("chain: 16 floats x 20,000 steps", _run.chain_data(16, 20_000),
                _run.chain_numpy),
    "chain100k": ("chain: 100,000 floats x 200 steps", _run.chain_data(100_000, 200),
                  _run.chain_numpy),
    "mlp": ("784-256-10 MLP step, batch 64", _run.mlp_data, _run.mlp_numpy),
    "cnn": ("small CNN step, batch 32, 1x28x28", _run.cnn_data, _run.cnn_numpy),
}
# inductor's compile time grows with the graph: 20,000 steps would take far longer than
# the rest of the run together (200 steps take ~30 s here)
SKIP = {("chain16", "torch.compile (inductor)"): "skipped: a 60,000-op graph compiles for "
        "many minutes"}


# --------------------------------------------------------------------------- the programs

def torch_api_step(lib, name, d, compiled):
    """(step, grads, first_call) for the torch API (autograd_core or torch), the forward
    compiled with lib.compile when compiled."""
    F = __import__(lib.__name__ + ".nn.functional", fromlist=["_"])
    if name.startswith("chain"):
        steps = d["steps"]
        x = lib.tensor(d["x"], requires_grad=True)

        def fwd(x):
            return _run.chain_forward(x, steps, lib.tanh).sum()
        args = (x,)
        params = [x]
    elif name == "mlp":
        X, labels = lib.from_numpy(d["X"]), lib.from_numpy(d["labels"])
        params = [lib.tensor(d[k], requires_grad=True) for k in _run.MLP_PARAMS]

        def fwd(X, labels, W1, b1, W2, b2):
            h = (X @ W1 + b1).relu()
            return F.cross_entropy(h @ W2 + b2, labels)
        args = (X, labels, *params)
    else:
        x, labels = lib.from_numpy(d["x"]), lib.from_numpy(d["labels"])
        params = [lib.tensor(d[k], requires_grad=True) for k in _run.CNN_PARAMS]

        def fwd(x, labels, W1, b1, W2, b2, W3, b3):
            h = F.max_pool2d(F.relu(F.conv2d(x, W1, b1, padding=1)), 2)
            h = F.max_pool2d(F.relu(F.conv2d(h, W2, b2, padding=1)), 2)
            return F.cross_entropy(F.linear(h.flatten(1), W3, b3), labels)
        args = (x, labels, *params)
    f = lib.compile(fwd) if compiled else fwd

    def step():
        for p in params:
            p.grad = None
        f(*args).backward()
    return step, lambda: [p.grad.numpy() for p in params]


def jax_step(name, d):
    import jax
    import jax.numpy as jnp
    if name.startswith("chain"):
        steps = d["steps"]

        def loss(x):
            for _ in range(steps):
                x = jnp.tanh(x * 1.01 + 0.01)
            return x.sum()
        args = (jnp.asarray(d["x"]),)
        g = jax.jit(jax.grad(loss))
    elif name == "mlp":
        def loss(W1, b1, W2, b2, X, labels):
            z = jnp.maximum(X @ W1 + b1, 0) @ W2 + b2
            logp = jax.nn.log_softmax(z)
            return -jnp.take_along_axis(logp, labels[:, None], 1).mean()
        args = tuple(jnp.asarray(d[k]) for k in (*_run.MLP_PARAMS, "X", "labels"))
        g = jax.jit(jax.grad(loss, argnums=(0, 1, 2, 3)))
    else:
        def conv(x, w, b):
            y = jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)))
            return y + b[None, :, None, None]

        def pool(x):
            return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2),
                                         "VALID")

        def loss(W1, b1, W2, b2, W3, b3, x, labels):
            h = pool(jnp.maximum(conv(x, W1, b1), 0))
            h = pool(jnp.maximum(conv(h, W2, b2), 0))
            z = h.reshape(h.shape[0], -1) @ W3.T + b3
            logp = jax.nn.log_softmax(z)
            return -jnp.take_along_axis(logp, labels[:, None], 1).mean()
        args = tuple(jnp.asarray(d[k]) for k in (*_run.CNN_PARAMS, "x", "labels"))
        g = jax.jit(jax.grad(loss, argnums=tuple(range(6))))
    out = {}

    def step():
        r = g(*args)
        jax.block_until_ready(r)
        out["g"] = r
    return step, lambda: [np.asarray(x) for x in (out["g"] if isinstance(out["g"], tuple)
                                                  else (out["g"],))]


# --------------------------------------------------------------------------- one worker

def worker(spec):
    name, row, quick = spec["workload"], spec["row"], spec["quick"]
    _desc, make, floor_builder = WORKLOADS[name]
    d = make(quick, np.random.default_rng(0))
    floor, _ = floor_builder(np, d)
    if row.startswith("autograd_core"):
        sys.path.insert(0, os.path.dirname(HERE))
        import autograd_core as lib
        step, grads = torch_api_step(lib, name, d, compiled=row.endswith("compiled"))
        eager_step, _ = torch_api_step(lib, name, d, compiled=False)
    elif row.startswith("torch"):
        import torch as lib
        lib.set_num_threads(1)
        step, grads = torch_api_step(lib, name, d, compiled=row.startswith("torch.compile"))
        eager_step, _ = torch_api_step(lib, name, d, compiled=False)
    else:
        step, grads = jax_step(name, d)
        eager_step = None
    eager_ms = None
    if eager_step is not None:
        eager_step()                      # (its own warm-up)
        t = time.perf_counter()
        eager_step()
        eager_ms = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    step()                                # the first call: recording / compilation
    first_ms = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    step()                                # the second: autograd_core plans its replay here
    second_ms = (time.perf_counter() - t) * 1e3
    repeats = 3 if quick else (5 if name in ("chain16", "chain100k", "cnn") else 20)
    ratios, best_ms, best_floor = [], float("inf"), float("inf")
    for _ in range(repeats):
        tf = _run.best(floor, 1)
        ts = _run.best(step, 1)
        best_ms, best_floor = min(best_ms, ts * 1e3), min(best_floor, tf * 1e3)
    ok = all(np.all(np.isfinite(g)) for g in grads())
    return {"best_ms": best_ms, "floor_ms": best_floor, "first_ms": first_ms,
            "second_ms": second_ms, "eager_ms": eager_ms, "finite": bool(ok)}


def run_row(name, row, quick, timeout):
    if (name, row) in SKIP:
        return {"status": SKIP[(name, row)]}
    mod = {"autograd_core": "numpy", "torch": "torch", "jax": "jax"}[row.split()[0].split(".")[0]]
    try:
        __import__("importlib").util.find_spec(mod) or (_ for _ in ()).throw(ImportError)
    except ImportError:
        return {"status": f"{mod} not installed"}
    env = dict(os.environ, **_run.MALLOC_ENV, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    spec = json.dumps({"workload": name, "row": row, "quick": quick})
    try:
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", spec],
                           capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"status": f"timed out after {timeout} s"}
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["?"])[-1]
        return {"status": f"failed: {last[:160]}"}
    r = json.loads(p.stdout.strip().splitlines()[-1])
    r["status"] = "ok"
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--rows", default="")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--worker")
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return
    print(_run.machine_line(_run.machine_info(1)))
    names = [n for n in args.only.split(",") if n] or list(WORKLOADS)
    rows = [r for r in args.rows.split(",") if r] or list(ROWS)
    for name in names:
        print(f"\n{name}: {WORKLOADS[name][0]} (forward + backward; ratio = best / numpy floor "
              "in the same process)")
        for row in rows:
            r = run_row(name, row, args.quick, args.timeout)
            if r["status"] != "ok":
                print(f"  {row:<26} {r['status']}")
                continue
            extra = ""
            if row.endswith(("compiled", "(inductor)", "jit")):
                extra = f"  first call {r['first_ms']:.1f} ms"
                if r["eager_ms"] is not None:
                    extra += (f" ({r['first_ms'] / r['eager_ms']:.1f}x an eager call, "
                              f"{r['eager_ms']:.1f} ms)")
                extra += f", second {r['second_ms']:.1f} ms"
            print(f"  {row:<26} {r['best_ms']:9.3f} ms  {r['best_ms'] / r['floor_ms']:6.2f}x "
                  f"floor ({r['floor_ms']:.3f} ms){extra}"
                  + ("" if r["finite"] else "  NON-FINITE GRADIENTS"))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
