#!/usr/bin/env python
"""Forward+backward benchmarks: autograd_core against a hand-written numpy floor and peers.

    python benchmarks/run.py                      # all workloads, all installed peers
    python benchmarks/run.py --quick              # smoke run: fewer steps and repeats
    python benchmarks/run.py --only chain16,mlp   # pick workloads
    python benchmarks/run.py --peers torch        # pick peers ('--peers' alone lists them)
    python benchmarks/run.py --core torch         # run the torch-API variant under another module
    python benchmarks/run.py --json out.json      # also write the results
    python benchmarks/run.py --plots DIR          # also sweep graph and tensor sizes, PNG plots

Each implementation of a workload runs in a fresh subprocess of its own, which times the
numpy floor too, sample for sample, so each ratio is its best time divided by the floor's
best time in the same process; this driver imports none of the implementations and prints
one table per workload. See benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
import types
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

F32 = np.float32
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# glibc's malloc adapts its mmap and trim thresholds to what ran before, which moved the
# 100,000-element floor between 13 and 47 ms: every worker process gets the same fixed ones
MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(64 << 20)}


# --------------------------------------------------------------------------- implementations

@dataclass
class Impl:
    """One implementation: how to import it and which workload variant ("family") it runs."""

    name: str
    family: str                      # key into Workload.variants
    load: Callable[[], object]       # returns the library object handed to the variant
    module: str = ""                 # top-level module whose presence says it is installed
    peer: bool = True
    label: str = ""

    def __post_init__(self):
        self.label = self.label or self.name
        self.module = self.module or self.name


def best(fn, repeats):
    """The best of `repeats` timed calls of fn, after one untimed warm-up call (the
    side-by-side scripts beside this one: random_streams.py, per_sample_grads.py)."""
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def _import(name: str):
    return importlib.import_module(name)


def _import_core(name: str):
    """Import the torch-API module for the autograd_core row; fall back to the repo root
    (an in-place build). A module without `tensor` (e.g. unbuilt sources) counts as absent."""
    def attempt():
        mod = _import(name)
        if not hasattr(mod, "tensor"):
            for m in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[m]
            raise ImportError(f"'{name}' has no 'tensor' (not built yet?)")
        return mod

    try:
        return attempt()
    except ImportError:
        if REPO_ROOT in sys.path:
            raise
        sys.path.insert(0, REPO_ROOT)
        try:
            return attempt()
        except ImportError:
            sys.path.remove(REPO_ROOT)
            raise


def _load_hips():
    return types.SimpleNamespace(np=_import("autograd.numpy"), grad=_import("autograd").grad,
                                 getval=_import("autograd.tracer").getval,
                                 __version__=_version("autograd"))


def _load_micrograd():
    return _import("micrograd.engine").Value


def _load_jax():
    jax = _import("jax")
    jax.config.update("jax_platforms", "cpu")
    return jax


def _jax_timed(fn, *args):
    """(run, grads) for a jitted gradient function: run() waits for XLA's asynchronous
    result, so the time is the computation's, not its dispatch's."""
    out = {}

    def run():
        out["g"] = fn(*args)
        _import("jax").block_until_ready(out["g"])
    return run, lambda: [np.asarray(g) for g in (out["g"] if isinstance(out["g"], (tuple, list))
                                                  else (out["g"],))]


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return "?"


def make_impls(core_module: str) -> list[Impl]:
    core_label = "autograd_core" if core_module == "autograd_core" else f"autograd_core[={core_module}]"
    return [
        Impl("numpy", "numpy", lambda: np, peer=False, label="numpy (floor)"),
        Impl("autograd_core", "torchapi", lambda: _import_core(core_module), module=core_module,
             peer=False, label=core_label),
        Impl("torch", "torchapi", lambda: _import("torch")),
        Impl("mygrad", "mygrad", lambda: _import("mygrad")),
        Impl("autograd", "hips", _load_hips, label="autograd (HIPS)"),
        Impl("micrograd", "micrograd", _load_micrograd),
        Impl("jax", "jax", _load_jax, label="jax (jit)"),
    ]


def installed(impl: Impl) -> bool:
    """Whether the driver may start a worker for it (peers: found without importing them)."""
    if not impl.peer:
        return True
    try:
        return importlib.util.find_spec(impl.module) is not None
    except (ImportError, ValueError):
        return False


# --------------------------------------------------------------------------- helpers

def to_numpy(t) -> np.ndarray:
    """Gradient object of any implementation -> numpy array."""
    if isinstance(t, np.ndarray):
        return t
    if hasattr(t, "numpy"):                    # torch-API tensors
        return np.asarray(t.numpy())
    return np.asarray(t)


def micrograd_tanh(v):
    """micrograd's Value has no tanh; this adds one in micrograd's own style (as in its lecture)."""
    t = float(np.tanh(v.data))
    out = type(v)(t, (v,), "tanh")

    def _backward():
        v.grad += (1 - t * t) * out.grad
    out._backward = _backward
    return out


def micrograd_depth(nodes: int) -> None:
    """micrograd's backward sorts the graph recursively: allow a chain of `nodes` nodes."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2 * nodes + 1000))


# A variant builder takes (lib, data) and returns (run, grads) or None when not applicable:
#   run()   -> does forward + backward (this is what is timed)
#   grads() -> list of the leaves' gradients, compared against the numpy floor's.

# --------------------------------------------------------------------------- workload: chain

def chain_forward(y, steps, tanh, a=1.01, b=0.01):
    for _ in range(steps):
        y = tanh(y * a + b)
    return y


def chain_numpy(np_, d):
    x0, steps, out = d["x"], d["steps"], {}

    def run():
        ys = [None] * steps
        y = x0
        for i in range(steps):
            y = np_.tanh(y * 1.01 + 0.01)
            ys[i] = y
        g = np_.ones_like(y)
        for y in reversed(ys):                 # d tanh(u)/du = 1 - tanh(u)^2, du/dy = 1.01
            g = g * (1 - y * y) * 1.01
        out["g"] = g
    return run, lambda: [out["g"]]


def chain_torchapi(ag, d):
    steps = d["steps"]
    x = ag.tensor(d["x"], requires_grad=True)

    def run():
        x.grad = None
        chain_forward(x, steps, ag.tanh).sum().backward()
    return run, lambda: [x.grad]


def chain_mygrad(mg, d):
    steps = d["steps"]
    a, b = F32(1.01), F32(0.01)               # mygrad promotes Python floats to float64
    x = mg.tensor(d["x"])

    def run():
        chain_forward(x, steps, mg.tanh, a, b).sum().backward()
    return run, lambda: [x.grad]


def chain_hips(ag, d):
    steps, x0, out = d["steps"], d["x"], {}
    df = ag.grad(lambda x: ag.np.sum(chain_forward(x, steps, ag.np.tanh)))

    def run():
        out["g"] = df(x0)
    return run, lambda: [out["g"]]


def chain_micrograd(Value, d):
    if d["x"].size != 1:
        return None
    steps = d["steps"]
    x = Value(float(d["x"][0]))
    micrograd_depth(3 * steps)

    def run():
        x.grad = 0
        chain_forward(x, steps, micrograd_tanh).backward()
    return run, lambda: [np.array([x.grad])]


def chain_data(n: int, steps: int):
    def make(quick: bool, rng):
        return {"x": rng.uniform(-1, 1, n).astype(F32), "steps": steps // 10 if quick else steps}
    return make


def chain_jax(jax, d):
    """The chain as a JAX user writes it for jit: the steps as a lax.fori_loop, so XLA
    compiles one loop body instead of unrolling every step (compile time is the warm-up's)."""
    jnp, steps = jax.numpy, d["steps"]

    def loss(x):
        return jax.lax.fori_loop(0, steps, lambda i, y: jnp.tanh(y * 1.01 + 0.01), x).sum()
    return _jax_timed(jax.jit(jax.grad(loss)), jnp.asarray(d["x"]))


CHAIN = {"numpy": chain_numpy, "torchapi": chain_torchapi, "mygrad": chain_mygrad,
         "hips": chain_hips, "micrograd": chain_micrograd, "jax": chain_jax}


# --------------------------------------------------------------------------- workload: mlp

MLP_PARAMS = ("W1", "b1", "W2", "b2")


def mlp_data(quick: bool, rng):
    n, d_in, d_h, d_out = 64, 784, 256, 10
    return {
        "X": rng.standard_normal((n, d_in)).astype(F32),
        "W1": (rng.standard_normal((d_in, d_h)) * np.sqrt(2 / d_in)).astype(F32),
        "b1": (rng.standard_normal(d_h) * 0.1).astype(F32),
        "W2": (rng.standard_normal((d_h, d_out)) * np.sqrt(1 / d_h)).astype(F32),
        "b2": (rng.standard_normal(d_out) * 0.1).astype(F32),
        "labels": rng.integers(0, d_out, n).astype(np.int64),
        "rows": np.arange(n, dtype=np.int64),
    }


def mlp_numpy(np_, d):
    X, rows, labels, out = d["X"], d["rows"], d["labels"], {}
    W1, b1, W2, b2 = (d[k] for k in MLP_PARAMS)
    n = X.shape[0]

    def run():
        a = X @ W1 + b1
        h = np_.maximum(a, 0)
        z = h @ W2 + b2
        zs = z - z.max(axis=1, keepdims=True)
        e = np_.exp(zs)
        s = e.sum(axis=1, keepdims=True)
        logp = zs - np_.log(s)
        out["loss"] = -logp[rows, labels].mean()
        dz = e / s                             # softmax
        dz[rows, labels] -= 1
        dz /= n
        dh = dz @ W2.T
        dh[a <= 0] = 0
        out["g"] = [X.T @ dh, dh.sum(axis=0), h.T @ dz, dz.sum(axis=0)]
    return run, lambda: out["g"]


def _mlp_loss_torchapi(ag, z, rows, labels):
    """The mlp workload's loss on logits z in the torch API: the mean negative
    log-softmax at the labels, the row max subtracted as a constant."""
    with ag.no_grad():
        m = z.max(dim=1, keepdim=True)[0]
    zs = z - m
    logp = zs - zs.exp().sum(dim=1, keepdim=True).log()
    return -logp[rows, labels].mean()


def mlp_torchapi(ag, d):
    X, rows, labels = (ag.from_numpy(d[k]) for k in ("X", "rows", "labels"))
    params = [ag.tensor(d[k], requires_grad=True) for k in MLP_PARAMS]

    def run():
        for p in params:
            p.grad = None
        W1, b1, W2, b2 = params
        h = (X @ W1 + b1).relu()
        _mlp_loss_torchapi(ag, h @ W2 + b2, rows, labels).backward()
    return run, lambda: [p.grad for p in params]


def mlp_mygrad(mg, d):
    X = mg.tensor(d["X"], constant=True)
    rows, labels = d["rows"], d["labels"]
    params = [mg.tensor(d[k]) for k in MLP_PARAMS]

    def run():
        W1, b1, W2, b2 = params
        h = mg.nnet.relu(X @ W1 + b1)
        z = h @ W2 + b2
        zs = z - z.data.max(axis=1, keepdims=True)       # constant: no gradient through max
        logp = zs - mg.log(mg.exp(zs).sum(axis=1, keepdims=True))
        loss = -logp[rows, labels].mean()
        loss.backward()
    return run, lambda: [p.grad for p in params]


def mlp_hips(ag, d):
    anp, X, rows, labels, out = ag.np, d["X"], d["rows"], d["labels"], {}
    params0 = [d[k] for k in MLP_PARAMS]

    def loss(params):
        W1, b1, W2, b2 = params
        h = anp.maximum(anp.matmul(X, W1) + b1, 0)
        z = anp.matmul(h, W2) + b2
        zs = z - ag.getval(z).max(axis=1, keepdims=True)  # constant: no gradient through max
        logp = zs - anp.log(anp.sum(anp.exp(zs), axis=1, keepdims=True))
        return -anp.mean(logp[rows, labels])
    dloss = ag.grad(loss)

    def run():
        out["g"] = dloss(params0)
    return run, lambda: out["g"]


def mlp_module_torchapi(ag, d):
    """The mlp workload's network as nn.Sequential(Linear, ReLU, Linear) with the same loss:
    against the mlp row, what Module.__call__ and nn.Linear add to the same ops."""
    nn = getattr(ag, "nn", None)
    if nn is None or not hasattr(nn, "Sequential"):
        return None
    X, rows, labels = (ag.from_numpy(d[k]) for k in ("X", "rows", "labels"))
    lin1, lin2 = nn.Linear(*d["W1"].shape), nn.Linear(*d["W2"].shape)
    with ag.no_grad():
        for lin, w, b in ((lin1, "W1", "b1"), (lin2, "W2", "b2")):
            lin.weight.copy_(ag.from_numpy(np.ascontiguousarray(d[w].T)))
            lin.bias.copy_(ag.from_numpy(d[b]))
    model = nn.Sequential(lin1, nn.ReLU(), lin2)

    def run():
        model.zero_grad(set_to_none=True)
        _mlp_loss_torchapi(ag, model(X), rows, labels).backward()
    # the floor's layout: W (in, out), so the Linear weights' gradients transposed
    return run, lambda: [lin1.weight.grad.T, lin1.bias.grad, lin2.weight.grad.T, lin2.bias.grad]


def module_calls_torchapi(ag, d):
    """An empty Module (forward returns its input) called as often per step as mlp_module
    calls modules (the Sequential and its three layers): Module.__call__ alone."""
    nn = getattr(ag, "nn", None)
    if nn is None or not hasattr(nn, "Module"):
        return None

    class Empty(nn.Module):
        def forward(self, x):
            return x
    m, X = Empty(), ag.from_numpy(d["X"])

    def run():
        m(X)
        m(X)
        m(X)
        m(X)
    return run


def mlp_jax(jax, d):
    jnp = jax.numpy
    X, rows, labels = (jnp.asarray(d[k]) for k in ("X", "rows", "labels"))

    def loss(W1, b1, W2, b2):
        z = jnp.maximum(X @ W1 + b1, 0) @ W2 + b2
        zs = z - jax.lax.stop_gradient(z.max(axis=1, keepdims=True))
        logp = zs - jnp.log(jnp.exp(zs).sum(axis=1, keepdims=True))
        return -logp[rows, labels].mean()
    return _jax_timed(jax.jit(jax.grad(loss, argnums=(0, 1, 2, 3))),
                      *(jnp.asarray(d[k]) for k in MLP_PARAMS))


MLP = {"numpy": mlp_numpy, "torchapi": mlp_torchapi, "mygrad": mlp_mygrad, "hips": mlp_hips,
       "jax": mlp_jax}
MLP_MODULE = {"numpy": mlp_numpy, "torchapi": mlp_module_torchapi}
# timed in mlp_module's worker, interleaved with it: the same ops called directly, and the
# Module.__call__s alone, so that mlp_module - mlp is measured within one process
MLP_MODULE_COMPANIONS = {
    "mlp": {"torchapi": lambda ag, d: mlp_torchapi(ag, d)[0]},
    "4 empty Module calls": {"torchapi": module_calls_torchapi},
}


# --------------------------------------------------------------------------- workload: cnn

CNN_PARAMS = ("W1", "b1", "W2", "b2", "W3", "b3")
CNN_C1, CNN_C2 = 16, 32


def cnn_data(quick: bool, rng):
    n, classes = 32, 10
    feat = CNN_C2 * 7 * 7

    def kaiming(*shape):
        fan_in = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) * np.sqrt(2 / fan_in)).astype(F32)
    return {
        "x": rng.standard_normal((n, 1, 28, 28)).astype(F32),
        "W1": kaiming(CNN_C1, 1, 3, 3), "b1": (rng.standard_normal(CNN_C1) * 0.1).astype(F32),
        "W2": kaiming(CNN_C2, CNN_C1, 3, 3), "b2": (rng.standard_normal(CNN_C2) * 0.1).astype(F32),
        "W3": kaiming(classes, feat), "b3": (rng.standard_normal(classes) * 0.1).astype(F32),
        "labels": rng.integers(0, classes, n).astype(np.int64),
        "rows": np.arange(n, dtype=np.int64),
    }


def _im2col3(x):
    """(N, H, W, C) -> (N*H*W, C*9): the 3x3 windows of x padded by 1, in (c, kh, kw) order."""
    n, h, w, c = x.shape
    xp = np.zeros((n, h + 2, w + 2, c), x.dtype)
    xp[:, 1:-1, 1:-1] = x
    return np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(1, 2)).reshape(n * h * w, c * 9)


def _col2im3(dcols, shape):
    """The transpose of _im2col3: each window's gradient summed back onto the input."""
    n, h, w, c = shape
    dc = dcols.reshape(n, h, w, c, 3, 3)
    dxp = np.zeros((n, h + 2, w + 2, c), dcols.dtype)
    for i in range(3):
        for j in range(3):
            dxp[:, i:i + h, j:j + w] += dc[..., i, j]
    return dxp[:, 1:-1, 1:-1]


def _pool2(r):
    """2x2 max-pool of (N, H, W, C): the pooled values and where each window's maximum is."""
    n, h, w, c = r.shape
    v = r.reshape(n, h // 2, 2, w // 2, 2, c)
    p = v.max(axis=(2, 4))
    return p, v == p[:, :, None, :, None]


def _unpool2(dp, mask):
    n, h, _, w, _, c = mask.shape
    return (mask * dp[:, :, None, :, None]).reshape(n, 2 * h, 2 * w, c)


def cnn_numpy(np_, d):
    """The floor keeps activations channels-last (N, H, W, C), the layout in which each
    convolution is one matrix product; ties in a pooling window (relu's zeros) get the
    gradient more than once, which relu's backward then zeroes."""
    x, rows, labels, out = d["x"], d["rows"], d["labels"], {}
    W1, b1, W2, b2, W3, b3 = (d[k] for k in CNN_PARAMS)
    n = x.shape[0]
    W1m, W2m = W1.reshape(CNN_C1, -1), W2.reshape(CNN_C2, -1)

    def run():
        cols1 = _im2col3(x.transpose(0, 2, 3, 1))
        a1 = cols1 @ W1m.T + b1                                   # (N*28*28, C1)
        p1, m1 = _pool2(np_.maximum(a1, 0).reshape(n, 28, 28, CNN_C1))
        cols2 = _im2col3(p1)
        a2 = cols2 @ W2m.T + b2                                   # (N*14*14, C2)
        p2, m2 = _pool2(np_.maximum(a2, 0).reshape(n, 14, 14, CNN_C2))
        feat = p2.transpose(0, 3, 1, 2).reshape(n, -1)           # flatten in (C, H, W) order
        z = feat @ W3.T + b3
        zs = z - z.max(axis=1, keepdims=True)
        e = np_.exp(zs)
        s = e.sum(axis=1, keepdims=True)
        out["loss"] = -(zs - np_.log(s))[rows, labels].mean()
        dz = e / s
        dz[rows, labels] -= 1
        dz /= n
        dp2 = (dz @ W3).reshape(n, CNN_C2, 7, 7).transpose(0, 2, 3, 1)
        da2 = _unpool2(dp2, m2).reshape(-1, CNN_C2)
        da2[a2 <= 0] = 0
        dp1 = _col2im3(da2 @ W2m, (n, 14, 14, CNN_C1))
        da1 = _unpool2(dp1, m1).reshape(-1, CNN_C1)
        da1[a1 <= 0] = 0
        out["g"] = [(da1.T @ cols1).reshape(W1.shape), da1.sum(axis=0),
                    (da2.T @ cols2).reshape(W2.shape), da2.sum(axis=0),
                    dz.T @ feat, dz.sum(axis=0)]
    return run, lambda: out["g"]


def cnn_torchapi(ag, d):
    F = importlib.import_module(ag.__name__ + ".nn.functional")
    x, labels = ag.from_numpy(d["x"]), ag.from_numpy(d["labels"])
    params = [ag.tensor(d[k], requires_grad=True) for k in CNN_PARAMS]

    def run():
        for p in params:
            p.grad = None
        W1, b1, W2, b2, W3, b3 = params
        h = F.max_pool2d(F.relu(F.conv2d(x, W1, b1, padding=1)), 2)
        h = F.max_pool2d(F.relu(F.conv2d(h, W2, b2, padding=1)), 2)
        F.cross_entropy(F.linear(h.flatten(1), W3, b3), labels).backward()
    return run, lambda: [p.grad for p in params]


def cnn_jax(jax, d):
    jnp, lax = jax.numpy, jax.lax
    x, labels = jnp.asarray(d["x"]), jnp.asarray(d["labels"])

    def conv(h, w, b):
        return lax.conv_general_dilated(h, w, (1, 1), ((1, 1), (1, 1))) + b[None, :, None, None]

    def pool(h):
        return lax.reduce_window(h, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def loss(W1, b1, W2, b2, W3, b3):
        h = pool(jnp.maximum(conv(x, W1, b1), 0))
        h = pool(jnp.maximum(conv(h, W2, b2), 0))
        logp = jax.nn.log_softmax(h.reshape(h.shape[0], -1) @ W3.T + b3)
        return -jnp.take_along_axis(logp, labels[:, None], 1).mean()
    return _jax_timed(jax.jit(jax.grad(loss, argnums=tuple(range(6)))),
                      *(jnp.asarray(d[k]) for k in CNN_PARAMS))


CNN = {"numpy": cnn_numpy, "torchapi": cnn_torchapi, "jax": cnn_jax}


# --------------------------------------------------------------------------- workload: chain1m

CHAIN1M_STEPS = 333_334               # 3 ops a step: 1,000,002 nodes


def chain_graph_numpy(np_, d):
    """What the floor keeps for its backward: each step's output."""
    x0, steps = d["x"], d["steps"]

    def forward():
        ys, y = [None] * steps, x0
        for i in range(steps):
            y = np_.tanh(y * 1.01 + 0.01)
            ys[i] = y
        return ys
    return forward


def chain_graph_torchapi(ag, d):
    """The forward alone: its output holds the whole graph."""
    x = ag.tensor(d["x"], requires_grad=True)
    return lambda: chain_forward(x, d["steps"], ag.tanh)


CHAIN_GRAPH = {"numpy": chain_graph_numpy, "torchapi": chain_graph_torchapi}


# --------------------------------------------------------------------------- workload: fanin

FANIN_LEAVES = 2000


def fanin_data(quick: bool, rng):
    return {"v": rng.standard_normal(FANIN_LEAVES).astype(F32)}


def _scalar_leaves(d):
    return [np.array(v, dtype=F32) for v in d["v"]]      # 0-d float32 arrays


def fanin_forward(leaves, c=1.5):
    s = 0.0
    for leaf in leaves:
        s = s + leaf * c
    return s


def fanin_numpy(np_, d):
    leaves, out = _scalar_leaves(d), {}

    def run():
        fanin_forward(leaves)
        gs = np_.ones((), dtype=F32)              # ds/ds
        out["g"] = [gs * 1.5 for _ in leaves]     # one gradient per leaf, as an engine stores them
    return run, lambda: [np.stack(out["g"])]


def fanin_torchapi(ag, d):
    leaves = [ag.tensor(v, requires_grad=True) for v in _scalar_leaves(d)]

    def run():
        for leaf in leaves:
            leaf.grad = None
        fanin_forward(leaves).backward()
    return run, lambda: [np.stack([to_numpy(leaf.grad) for leaf in leaves])]


def fanin_mygrad(mg, d):
    leaves = [mg.tensor(v) for v in _scalar_leaves(d)]

    def run():
        fanin_forward(leaves, F32(1.5)).backward()
    return run, lambda: [np.stack([to_numpy(leaf.grad) for leaf in leaves])]


def fanin_hips(ag, d):
    leaves, out = _scalar_leaves(d), {}
    df = ag.grad(fanin_forward)          # differentiates w.r.t. the list of leaves

    def run():
        out["g"] = df(leaves)
    return run, lambda: [np.stack([np.asarray(g) for g in out["g"]])]


def fanin_micrograd(Value, d):
    leaves = [Value(float(v)) for v in d["v"]]
    micrograd_depth(2 * len(leaves))

    def run():
        for leaf in leaves:
            leaf.grad = 0
        fanin_forward(leaves).backward()
    return run, lambda: [np.array([leaf.grad for leaf in leaves])]


def fanin_jax(jax, d):
    """The leaves as a list of 0-d arrays, differentiated together (one gradient each)."""
    leaves = [jax.numpy.asarray(v) for v in _scalar_leaves(d)]
    run, grads = _jax_timed(jax.jit(jax.grad(fanin_forward)), leaves)
    return run, lambda: [np.stack(grads())]


FANIN = {"numpy": fanin_numpy, "torchapi": fanin_torchapi, "mygrad": fanin_mygrad,
         "hips": fanin_hips, "micrograd": fanin_micrograd, "jax": fanin_jax}


# --------------------------------------------------------------------------- registry

@dataclass
class Workload:
    name: str
    desc: str
    data: Callable                    # (quick, rng) -> dict
    variants: dict = field(default_factory=dict)   # family -> builder(lib, data)
    check_data: Callable | None = None              # data -> smaller data for an extra check
    reference: str = "numpy"          # the row the headline ratio is against (torch for the cnn)
    graph: dict | None = None         # family -> builder(lib, data) of forward() -> graph kept alive
    nodes: Callable | None = None     # data -> graph nodes, for the bytes-per-node column
    companions: dict = field(default_factory=dict)  # label -> {family: builder(lib, data) -> run}


def short_chain(d):
    """Long chains' gradients underflow to 0 (each step scales them by ~0.9), so the check
    on the timed run only sees zeros; a 100-step copy makes the check meaningful."""
    return {**d, "steps": min(d["steps"], 100)}


def chain(name: str, n: int, steps: int) -> Workload:
    return Workload(name, f"y = tanh(y*1.01 + 0.01), {n} element{'s' * (n > 1)} x {steps} steps",
                    chain_data(n, steps), CHAIN, short_chain if steps > 100 else None)


WORKLOADS = {w.name: w for w in [
    chain("chain16", 16, 20_000),
    chain("chain1", 1, 20_000),
    chain("chain100k", 100_000, 200),
    Workload("chain1m", f"y = tanh(y*1.01 + 0.01), 1 element x {CHAIN1M_STEPS} steps "
             f"({3 * CHAIN1M_STEPS:,} ops), bytes of graph per node", chain_data(1, CHAIN1M_STEPS),
             {"numpy": chain_numpy, "torchapi": chain_torchapi}, short_chain,
             graph=CHAIN_GRAPH, nodes=lambda d: 3 * d["steps"]),
    Workload("mlp", "784-256-10 MLP, batch 64, relu, cross-entropy", mlp_data, MLP),
    Workload("mlp_module", "the mlp as nn.Sequential(Linear, ReLU, Linear)", mlp_data,
             MLP_MODULE, companions=MLP_MODULE_COMPANIONS),
    Workload("fanin", f"s = s + leaf_i*1.5 over {FANIN_LEAVES} scalar leaves", fanin_data, FANIN),
    Workload("cnn", f"conv3x3(1->{CNN_C1})+relu+maxpool2, conv3x3({CNN_C1}->{CNN_C2})+relu+maxpool2, "
             "linear, cross-entropy; batch 32, 1x28x28", cnn_data, CNN, reference="torch"),
]}


# --------------------------------------------------------------------------- measuring

def check(grads, ref) -> tuple[bool, str]:
    """Gradients equal the floor's within float32 tolerance (relative to the largest entry)."""
    if len(grads) != len(ref):
        return False, f"{len(grads)} gradients, expected {len(ref)}"
    notes = set()
    for g, r in zip(grads, ref):
        if g is None:
            return False, "gradient is None"
        g = to_numpy(g)
        if g.dtype != r.dtype:
            notes.add(str(g.dtype))
        g = g.reshape(r.shape) if g.size == r.size else g
        if g.shape != r.shape:
            return False, f"shape {g.shape}, expected {r.shape}"
        scale = float(np.max(np.abs(r))) if r.size else 0.0
        if not np.allclose(g, r, rtol=1e-3, atol=1e-5 * max(scale, 1e-30)) or not np.all(np.isfinite(g)):
            err = float(np.max(np.abs(g.astype(np.float64) - r)))
            return False, f"max abs err {err:.3g} (scale {scale:.3g})"
    return True, ", ".join(sorted(notes))


MIN_SAMPLE_S = 0.02                   # short runs are looped so one sample lasts at least this
SETTLE_S = 0.05                       # idle pause before each sample: numpy's OpenBLAS and torch's
                                      # OpenMP worker threads keep spinning for a while after use and
                                      # would otherwise slow whichever implementation runs next


def timed(run, number: int = 1, settle: float = 0.0) -> float:
    """Seconds per run(), averaged over `number` back-to-back calls. The garbage of the
    previous sample is collected outside the timed region; a collection walks every live
    object and evicts the caches, so a looped (short) sample first runs once untimed."""
    time.sleep(settle)
    gc.collect()
    if number > 1:
        run()
    t0 = time.perf_counter()
    for _ in range(number):
        run()
    return (time.perf_counter() - t0) / number


def rss_bytes() -> int | None:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _blank_row(label: str) -> dict:
    return {"label": label, "status": "", "note": "", "warmup_ms": None, "number": 0, "times_ms": [],
            "best_ms": None, "floor_ms": None, "ratio": None}


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:120]


def worker_workload(spec: dict) -> dict:
    """In a fresh process: the numpy floor and one implementation, built, checked against
    each other and timed sample for sample (interleaved)."""
    w = WORKLOADS[spec["workload"]]
    impls = {i.name: i for i in make_impls(spec["core"])}
    impl, floor = impls[spec["impl"]], impls["numpy"]
    quick, repeats = spec["quick"], spec["repeats"]
    rows = {"numpy": _blank_row(floor.label), impl.name: _blank_row(impl.label)}
    r = rows[impl.name]
    info = {}
    try:
        lib = impl.load()
    except Exception as exc:
        r["status"], r["note"] = ("not installed" if impl.peer else "not importable"), _error(exc)
        return {"rows": rows, "info": info}
    info["version"] = getattr(lib, "__version__", "") or _version(impl.name)
    if impl.name == "autograd_core":
        info["file"] = getattr(lib, "__file__", "?")
    data = w.data(quick, np.random.default_rng(spec["seed"]))
    if w.graph and impl.family in w.graph:          # first, while the heap is fresh
        try:
            forward = w.graph[impl.family](lib, data)
            gc.collect()
            before = rss_bytes()
            keep = forward()
            after = rss_bytes()
            del keep
            gc.collect()
            if before is not None and after is not None:
                r["bytes_per_node"] = (after - before) / w.nodes(data)
        except Exception as exc:
            r["note"] = "graph size: " + _error(exc)
    datasets = ([w.check_data(data)] if w.check_data else []) + [data]   # the timed one last
    runners = {}
    for which in (floor, impl):
        row, lib_ = rows[which.name], (np if which is floor else lib)
        builder = w.variants.get(which.family)
        try:
            status, notes, fail_note = "ok", set(), ""
            for i, d in enumerate(datasets):    # build, run once (the last is the warm-up), check
                built = builder(lib_, d) if builder else None
                if built is None:
                    status = "n/a"
                    break
                run, grads = built
                warmup = timed(run)
                g = [None if x is None else to_numpy(x) for x in grads()]
                if which is floor:
                    d["_ref"] = g
                    continue
                good, note = check(g, d["_ref"])
                if not good and status == "ok":
                    status, fail_note = "FAIL", note
                elif good and note:
                    notes.add(note)
            row["status"] = status
            row["note"] = "; ".join(filter(None, [row["note"], fail_note if status == "FAIL"
                                                  else "; ".join(sorted(notes))]))
            if status != "n/a":
                row["warmup_ms"] = warmup * 1e3
                if warmup < 5 * MIN_SAMPLE_S:       # first calls can be slow: re-time to calibrate
                    warmup = min(warmup, timed(run))
                row["number"] = max(1, min(1000, int(MIN_SAMPLE_S / max(warmup, 1e-9))))
                runners[which.name] = run
        except Exception as exc:
            row["status"], row["note"] = "error", _error(exc)
        if which is floor and rows["numpy"]["status"] != "ok":
            r["status"], r["note"] = "error", "the floor did not run: " + rows["numpy"]["note"]
            return {"rows": rows, "info": info}
    companions = {}                     # label -> [run, number, times]
    if r["status"] == "ok":
        for label, builders in w.companions.items():
            builder = builders.get(impl.family)
            try:
                run = builder(lib, data) if builder else None
                if run is not None:
                    first = min(timed(run), timed(run))
                    companions[label] = [run, max(1, min(1000, int(MIN_SAMPLE_S / max(first, 1e-9)))), []]
            except Exception as exc:
                r["note"] = "; ".join(filter(None, [r["note"], f"{label}: " + _error(exc)]))
    for _ in range(repeats):                                  # interleaved per repeat
        for name, run in runners.items():
            try:
                rows[name]["times_ms"].append(timed(run, rows[name]["number"], SETTLE_S) * 1e3)
            except Exception as exc:
                rows[name]["status"], rows[name]["note"] = "error", _error(exc)
        runners = {n: f for n, f in runners.items() if rows[n]["status"] != "error"}
        for c in companions.values():
            c[2].append(timed(c[0], c[1], SETTLE_S) * 1e3)
    if companions:
        r["companions_ms"] = {label: min(c[2]) for label, c in companions.items() if c[2]}
    floor_ms = min(rows["numpy"]["times_ms"]) if rows["numpy"]["times_ms"] else None
    for row in rows.values():
        row["best_ms"] = min(row["times_ms"]) if row["times_ms"] and row["status"] in ("ok", "FAIL") else None
        row["floor_ms"] = floor_ms
        row["ratio"] = row["best_ms"] / floor_ms if row["best_ms"] is not None and row["status"] == "ok" \
            and floor_ms else None
    info.update(worker_info())
    return {"rows": rows, "info": info}


def worker_info() -> dict:
    """What only the worker can see: its threads (torch's only where torch is loaded)."""
    info = {}
    torch = sys.modules.get("torch")
    if torch is not None:
        info["torch_threads"] = torch.get_num_threads()
    try:
        from threadpoolctl import threadpool_info
        info["blas"] = sorted({f"{p.get('internal_api')} {p.get('num_threads')} threads"
                               for p in threadpool_info() if p.get("user_api") == "blas"})
    except Exception:
        pass
    info["malloc"] = {k: os.environ.get(k) for k in MALLOC_ENV}
    return info


SWEEP_STEPS = 100                       # the tensor-size sweep: 300-op chains


def worker_sweep(spec: dict) -> dict:
    """In a fresh process: the chain workload at each size, the floor and one
    implementation interleaved; best seconds of each."""
    impls = {i.name: i for i in make_impls(spec["core"])}
    impl = impls[spec["impl"]]
    try:
        lib = impl.load()
    except Exception as exc:
        return {"error": _error(exc)}
    points = []
    for size in spec["sizes"]:
        if spec["kind"] == "nodes":
            d = {"x": np.full(1, 0.5, F32), "steps": max(1, size // 3)}
        else:
            d = {"x": np.random.default_rng(0).uniform(-1, 1, size).astype(F32), "steps": SWEEP_STEPS}
        runs = {"numpy": chain_numpy(np, d)[0], impl.name: CHAIN[impl.family](lib, d)[0]}
        best = {}
        first = {n: timed(f) for n, f in runs.items()}             # warm-up and calibration
        number = {n: max(1, min(1000, int(MIN_SAMPLE_S / max(t, 1e-9)))) for n, t in first.items()}
        repeats = spec["repeats"] if max(first.values()) < 2 else 1
        for _ in range(repeats):
            for n, f in runs.items():
                t = timed(f, number[n], SETTLE_S)
                best[n] = min(best.get(n, t), t)
        points.append({"size": size, "nodes": 3 * d["steps"], "impl_s": best[impl.name],
                       "floor_s": best["numpy"]})
        del runs
    return {"points": points, "info": worker_info()}


def worker_main(spec_json: str) -> int:
    spec = json.loads(spec_json)
    result = worker_sweep(spec) if spec.get("mode") == "sweep" else worker_workload(spec)
    sys.stdout.write("\nRESULT " + json.dumps(result) + "\n")
    return 0


# --------------------------------------------------------------------------- the driver

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def worker_env(threads: int | None = None) -> dict:
    env = dict(os.environ, **MALLOC_ENV)
    if threads:                       # numpy's BLAS and torch's intra-op pool alike
        env.update({k: str(threads) for k in THREAD_VARS})
    mod = sys.modules.get("autograd_core")           # e.g. the demo: the same build as its own
    if mod is not None and getattr(mod, "__file__", None):
        parent = os.path.dirname(os.path.dirname(os.path.abspath(mod.__file__)))
        env["PYTHONPATH"] = parent + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_worker(spec: dict, threads: int | None, timeout: float = 3600) -> dict:
    """One fresh interpreter for `spec`; its result, or {'error': why}."""
    try:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", json.dumps(spec)],
                              env=worker_env(threads), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"worker timed out after {timeout:.0f} s"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    tail = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    return {"error": f"worker died (exit {proc.returncode}): {tail[:120]}"}


def bench_workload(w: Workload, impls: list[Impl], args, infos: dict) -> dict:
    rows, floor_row = {}, None
    for impl in impls:
        if impl.name == "numpy":
            continue
        if not installed(impl):
            rows[impl.name] = {**_blank_row(impl.label), "status": "not installed"}
            continue
        if impl.family not in w.variants:
            rows[impl.name] = {**_blank_row(impl.label), "status": "n/a"}
            continue
        res = run_worker({"workload": w.name, "impl": impl.name, "core": args.core, "quick": args.quick,
                          "repeats": args.repeats, "seed": args.seed}, args.threads)
        if "error" in res:
            rows[impl.name] = {**_blank_row(impl.label), "status": "error", "note": res["error"]}
            continue
        rows[impl.name] = res["rows"][impl.name]
        infos.setdefault(impl.name, {}).update(res["info"])
        f = res["rows"]["numpy"]
        if f["best_ms"] is not None and (floor_row is None or impl.name == "autograd_core"):
            floor_row = f
    numpy_row = floor_row or {**_blank_row(impls[0].label), "status": "error",
                              "note": "no worker ran the floor"}
    if floor_row:
        numpy_row["note"] = "; ".join(filter(None, [numpy_row["note"], "timed in autograd_core's process"
                                                     if "autograd_core" in rows and
                                                     rows["autograd_core"].get("floor_ms") else ""]))
    rows = {"numpy": numpy_row, **rows}
    if w.reference != "numpy":
        ref = rows.get(w.reference, {}).get("ratio")
        for r in rows.values():
            # each process's own floor cancels the drift between processes
            r["vs_reference"] = r["ratio"] / ref if ref and r.get("ratio") else None
    data = w.data(args.quick, np.random.default_rng(args.seed))
    return {"name": w.name, "desc": w.desc, "steps": data.get("steps"), "reference": w.reference,
            "quick": args.quick and "steps" in data, "rows": rows}


# --------------------------------------------------------------------------- reporting

def machine_info(threads: int | None = None) -> dict:
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count(), "usable_cores": usable,
            "python": platform.python_version(), "numpy": np.__version__,
            "torch": _version("torch").replace("?", "not installed"), "torch_threads": None,
            "malloc": dict(MALLOC_ENV),
            "threads_env": {k: (str(threads) if threads and k in THREAD_VARS else os.environ[k])
                            for k in THREAD_VARS + ("OPENBLAS_CORETYPE",)
                            if k in os.environ or (threads and k in THREAD_VARS)},
            "loadavg": os.getloadavg() if hasattr(os, "getloadavg") else None}


def machine_line(info: dict) -> str:
    malloc = ", ".join(f"{k.strip('_').lower()[7:]}={int(v) >> 20} MiB" for k, v in info["malloc"].items())
    env = " ".join(f"{k}={v}" for k, v in info["threads_env"].items())
    return (f"machine: {info['platform']} | {info['cpu']} | {info['cores']} cores ({info['usable_cores']} usable)"
            f" | Python {info['python']} | numpy {info['numpy']} | torch {info['torch']}"
            + (f" ({info['torch_threads']} threads)" if info.get("torch_threads") else "")
            + (f" | BLAS {', '.join(info['blas'])}" if info.get("blas") else "")
            + f" | malloc {malloc}" + (f" | {env}" if env else "")
            + (" | load {:.2f} {:.2f} {:.2f}".format(*info["loadavg"]) if info["loadavg"] else ""))


def print_header(info: dict, impls: list[Impl], args) -> None:
    print(machine_line(info))
    for impl in impls[1:]:
        where = _version(impl.name) if impl.peer and installed(impl) else ""
        if not impl.peer:
            where = "imported only in its own worker processes"
        elif not where:
            where = "not installed"
        print(f"  {impl.label:<24} {where}")
    print(f"mode: {'quick' if args.quick else 'full'}; each implementation in a fresh process of its own"
          f" with the numpy floor timed beside it; time per forward+backward = best of {args.repeats}"
          f" samples after 1 warm-up, floor and implementation interleaved per sample;"
          f" runs under {MIN_SAMPLE_S * 1e3:.0f} ms are looped within a sample\n")


def print_workload(res: dict, width: int) -> None:
    print(f"{res['name']}: {res['desc']}" + (f" (quick: {res['steps']} steps)" if res["quick"] else ""))
    ref = res.get("reference", "numpy")
    has_bytes = any(r.get("bytes_per_node") is not None for r in res["rows"].values())
    print(f"  {'implementation':<{width}} {'best ms':>10} {'floor ms':>9} {'ratio':>8}"
          + (f" {'vs ' + ref:>9}" if ref != "numpy" else "") + (f" {'B/node':>7}" if has_bytes else ""))
    for r in res["rows"].values():
        if r["status"] in ("ok", "FAIL"):
            ratio = f"{r['ratio']:7.2f}x" if r["status"] == "ok" else "    FAIL"
            line = f"  {r['label']:<{width}} {r['best_ms']:10.2f} {r['floor_ms'] or 0:9.2f} {ratio:>8}"
            if ref != "numpy":
                v = r.get("vs_reference")
                line += f" {v:8.2f}x" if v is not None else f" {'-':>9}"
            if has_bytes:
                b = r.get("bytes_per_node")
                line += f" {b:7.0f}" if b is not None else f" {'-':>7}"
        else:
            line = f"  {r['label']:<{width}} {r['status']:>10}"
        if r["note"]:
            line += f"   {r['note']}"
        print(line)
        extra = module_overhead_line(r)
        if extra:
            print(f"  {'':<{width}} {extra}")
    print()


def module_overhead(row: dict):
    """(mlp_module, mlp, empty calls) best ms per step, all from mlp_module's worker."""
    c = row.get("companions_ms") or {}
    if row.get("best_ms") is None or row.get("status") != "ok" or "mlp" not in c:
        return None
    return row["best_ms"], c["mlp"], c.get("4 empty Module calls")


def module_overhead_line(row: dict) -> str:
    m = module_overhead(row)
    if m is None:
        return ""
    module, plain, empty = m
    return (f"same process: mlp {plain:.3f} ms, mlp_module - mlp {module - plain:+.3f} ms"
            + (f" (4 empty Module calls {empty:.3f} ms)" if empty is not None else ""))


def print_summary(results: list[dict]) -> None:
    def cell(res, name):
        r = res["rows"].get(name)
        if r is None:
            return "-"
        if r["ratio"] is not None:
            return f"{r['ratio']:.2f}x"
        return r["status"] or "-"

    core_label = results[0]["rows"]["autograd_core"]["label"] if results else "autograd_core"
    print("summary: ratio to numpy floor (lower is better)")
    for res in results:
        line = f"  {res['name']:<10} {core_label} {cell(res, 'autograd_core'):>9}   torch {cell(res, 'torch'):>9}"
        if "jax" in res["rows"]:
            line += f"   jax {cell(res, 'jax'):>9}"
        core = res["rows"].get("autograd_core", {})
        if res.get("reference", "numpy") != "numpy" and core.get("vs_reference") is not None:
            line += f"   autograd_core / {res['reference']} {core['vs_reference']:.2f}x"
        if core.get("bytes_per_node") is not None:
            line += f"   {core['bytes_per_node']:.0f} B/node"
        print(line)
    for res in results:
        cells = [(res["rows"][n]["label"], module_overhead(res["rows"][n]))
                 for n in ("autograd_core", "torch") if n in res["rows"]]
        cells = [(label, m) for label, m in cells if m is not None]
        if cells:
            print(f"  {res['name'] + ' - mlp':<10} (ms per step, one process each; "
                  "the Module path's cost over the same ops called directly)")
            for label, (module, plain, empty) in cells:
                print(f"    {label:<24} {module - plain:+.3f} ms of {module:.3f}"
                      + (f"   (4 empty Module calls {empty:.3f} ms)" if empty is not None else ""))


# --------------------------------------------------------------------------- plots

SWEEP_NODES = (1_000, 10_000, 100_000, 1_000_000)
SWEEP_ELEMENTS = (1, 10, 100, 1_000, 10_000, 100_000, 1_000_000)


def run_sweeps(impls: list[Impl], args) -> dict:
    """Cost against graph size and against tensor size: each implementation in its own process."""
    sweeps = {}
    for kind, sizes in (("nodes", SWEEP_NODES), ("elements", SWEEP_ELEMENTS)):
        if args.quick:
            sizes = [s for s in sizes if s <= 100_000]
        sweeps[kind] = {}
        for impl in impls:
            if impl.name not in ("autograd_core", "torch") or not installed(impl):
                continue
            print(f"  sweep over {kind}: {impl.label} ...", flush=True)
            sweeps[kind][impl.name] = run_worker({"mode": "sweep", "kind": kind, "sizes": list(sizes),
                                                  "impl": impl.name, "core": args.core,
                                                  "repeats": 3 if args.quick else 5}, args.threads)
    return sweeps


def plot_sweeps(plt, sweeps: dict, info: dict, directory: str) -> list[str]:
    written = []
    titles = {"nodes": ("graph size (nodes of a 1-element tanh(y*1.01+0.01) chain)", "µs per node",
                        "cost vs graph size"),
              "elements": (f"tensor size (elements; a {3 * SWEEP_STEPS}-op chain)", "µs per op",
                           "cost vs tensor size")}
    colors = {"autograd_core": "tab:green", "torch": "tab:red"}
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    for ax, (kind, per_impl) in zip(axes, sweeps.items()):
        done = {n: r for n, r in per_impl.items() if r.get("points")}
        for name, res in done.items():
            pts = res["points"]
            ax.plot([p["size"] for p in pts], [p["impl_s"] / p["nodes"] * 1e6 for p in pts], marker="o",
                    color=colors.get(name), label=name)
        if done:                         # the floor as timed beside autograd_core, where it ran
            src = "autograd_core" if "autograd_core" in done else next(iter(done))
            pts = done[src]["points"]
            ax.plot([p["size"] for p in pts], [p["floor_s"] / p["nodes"] * 1e6 for p in pts],
                    linestyle="--", color="black", label=f"numpy floor (timed in {src}'s process)")
        xlabel, ylabel, title = titles[kind]
        ax.set(xscale="log", yscale="log", xlabel=xlabel, ylabel=ylabel + " (log, lower is better)",
               title=title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.text(0.01, 0.01, machine_line(info)[9:], fontsize=6, color="dimgray", wrap=True)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "scaling.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)
    return written


# --------------------------------------------------------------------------- main

def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="smoke run: chains at 1/10 steps, 2 repeats")
    p.add_argument("--only", metavar="NAME[,NAME]", help="workloads: " + ",".join(WORKLOADS))
    p.add_argument("--peers", metavar="NAME[,NAME]", nargs="?", const="list",
                   help="peers to run (default: all; 'none' for none); alone or 'list' lists them")
    p.add_argument("--core", default="autograd_core", metavar="MODULE",
                   help="module for the autograd_core row (e.g. 'torch' as a stand-in)")
    p.add_argument("--repeats", type=int, help="timed repeats (default 5, 2 with --quick)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="PATH", help="write results as JSON")
    p.add_argument("--plots", metavar="DIR", help="also sweep graph size (1e3..1e6 nodes) and tensor size "
                   "(1..1e6 elements) and write DIR/scaling.png (needs matplotlib)")
    p.add_argument("--threads", type=int, metavar="N",
                   help="threads for numpy's BLAS and torch in every worker (default: their own defaults)")
    p.add_argument("--worker", metavar="SPEC", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.repeats = args.repeats or (2 if args.quick else 5)
    return args


def pick(spec, known, what):
    if spec is None:
        return list(known)
    if spec == "none":
        return []
    names = [s.strip() for s in spec.split(",") if s.strip()]
    bad = [n for n in names if n not in known]
    if bad:
        sys.exit(f"unknown {what}: {', '.join(bad)} (known: {', '.join(known)})")
    return names


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.worker:
        return worker_main(args.worker)
    impls = make_impls(args.core)
    peers = [i.name for i in impls if i.peer]
    if args.peers == "list":
        for i in impls[1:]:
            print(f"{i.name:<14} " + (("installed " + _version(i.name)) if installed(i) else "not installed"))
        return 0
    wanted_peers = pick(args.peers, peers, "peer")
    workloads = pick(args.only, WORKLOADS, "workload")
    impls = [i for i in impls if not i.peer or i.name in wanted_peers]
    plt = None
    if args.plots:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("plots: skipped, matplotlib is not installed (pip install matplotlib)\n")

    t_start = time.perf_counter()
    info = machine_info(args.threads)
    print_header(info, impls, args)
    width = max(len(i.label) for i in impls)
    results, infos = [], {}
    for name in workloads:
        res = bench_workload(WORKLOADS[name], impls, args, infos)
        print_workload(res, width)
        results.append(res)
        sys.stdout.flush()
    print_summary(results)
    sweeps = None
    if plt is not None:
        print("\nsweeps for the plots:")
        sweeps = run_sweeps(impls, args)
    for name, i in infos.items():       # what the workers saw
        if i.get("torch_threads"):
            info["torch_threads"] = i["torch_threads"]
        if i.get("blas") and name == "autograd_core":
            info["blas"] = i["blas"]
    total = time.perf_counter() - t_start
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print("\n" + machine_line(info))
    print(f"total wall time {total:.1f} s" + (" | load at end {:.2f} {:.2f} {:.2f}".format(*load) if load else ""))
    if plt is not None and sweeps is not None:
        for path in plot_sweeps(plt, sweeps, info, args.plots):
            print(f"wrote {path}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "quick": args.quick, "repeats": args.repeats,
                       "core_module": args.core, "total_s": total, "loadavg_end": load,
                       "implementations": {i.name: {"label": i.label, "installed": installed(i),
                                                    **infos.get(i.name, {})} for i in impls},
                       "workloads": results, "sweeps": sweeps}, f, indent=2)
        print(f"wrote {args.json}")
    return 1 if any(r["status"] == "FAIL" for res in results for r in res["rows"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
