#!/usr/bin/env python
"""Forward+backward benchmarks: autograd_core against a hand-written numpy floor and peers.

    python benchmarks/run.py                      # all workloads, all installed peers
    python benchmarks/run.py --quick              # smoke run: fewer steps and repeats
    python benchmarks/run.py --only chain16,mlp   # pick workloads
    python benchmarks/run.py --peers torch        # pick peers ('--peers' alone lists them)
    python benchmarks/run.py --core torch         # run the torch-API variant under another module
    python benchmarks/run.py --json out.json      # also write the results

Every implementation of a workload runs in this one process.  Each row's ratio is its
best time divided by the numpy floor's best time (numpy, gradient written by hand).
See benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import platform
import sys
import time
import types
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

F32 = np.float32
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --------------------------------------------------------------------------- implementations

@dataclass
class Impl:
    """One implementation: how to import it and which workload variant ("family") it runs."""

    name: str
    family: str                      # key into Workload.variants
    load: Callable[[], object]       # returns the library object handed to the variant
    peer: bool = True
    lib: object = None               # set by load_impls()
    version: str = ""
    error: str = ""                  # why it is not available
    label: str = ""

    def __post_init__(self):
        self.label = self.label or self.name


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
        Impl("autograd_core", "torchapi", lambda: _import_core(core_module), peer=False,
             label=core_label),
        Impl("torch", "torchapi", lambda: _import("torch")),
        Impl("mygrad", "mygrad", lambda: _import("mygrad")),
        Impl("autograd", "hips", _load_hips, label="autograd (HIPS)"),
        Impl("micrograd", "micrograd", _load_micrograd),
    ]


def load_impls(impls: list[Impl]) -> None:
    for impl in impls:
        try:
            impl.lib = impl.load()
        except Exception as exc:            # ImportError, or a broken build raising anything else
            impl.error = f"{type(exc).__name__}: {exc}".splitlines()[0][:120]
            continue
        impl.version = getattr(impl.lib, "__version__", "") or _version(impl.name)


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


CHAIN = {"numpy": chain_numpy, "torchapi": chain_torchapi, "mygrad": chain_mygrad,
         "hips": chain_hips, "micrograd": chain_micrograd}


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


def mlp_torchapi(ag, d):
    X, rows, labels = (ag.from_numpy(d[k]) for k in ("X", "rows", "labels"))
    params = [ag.tensor(d[k], requires_grad=True) for k in MLP_PARAMS]

    def run():
        for p in params:
            p.grad = None
        W1, b1, W2, b2 = params
        h = (X @ W1 + b1).relu()
        z = h @ W2 + b2
        with ag.no_grad():
            m = z.max(dim=1, keepdim=True)[0]
        zs = z - m
        logp = zs - zs.exp().sum(dim=1, keepdim=True).log()
        loss = -logp[rows, labels].mean()
        loss.backward()
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
        z = model(X)
        with ag.no_grad():
            m = z.max(dim=1, keepdim=True)[0]
        zs = z - m
        logp = zs - zs.exp().sum(dim=1, keepdim=True).log()
        loss = -logp[rows, labels].mean()
        loss.backward()
    # the floor's layout: W (in, out), so the Linear weights' gradients transposed
    return run, lambda: [lin1.weight.grad.T, lin1.bias.grad, lin2.weight.grad.T, lin2.bias.grad]


MLP = {"numpy": mlp_numpy, "torchapi": mlp_torchapi, "mygrad": mlp_mygrad, "hips": mlp_hips}
MLP_MODULE = {"numpy": mlp_numpy, "torchapi": mlp_module_torchapi}


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


FANIN = {"numpy": fanin_numpy, "torchapi": fanin_torchapi, "mygrad": fanin_mygrad,
         "hips": fanin_hips, "micrograd": fanin_micrograd}


# --------------------------------------------------------------------------- registry

@dataclass
class Workload:
    name: str
    desc: str
    data: Callable                    # (quick, rng) -> dict
    variants: dict = field(default_factory=dict)   # family -> builder(lib, data)
    check_data: Callable | None = None              # data -> smaller data for an extra check


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
    Workload("mlp", "784-256-10 MLP, batch 64, relu, cross-entropy", mlp_data, MLP),
    Workload("mlp_module", "the mlp as nn.Sequential(Linear, ReLU, Linear)", mlp_data,
             MLP_MODULE),
    Workload("fanin", f"s = s + leaf_i*1.5 over {FANIN_LEAVES} scalar leaves", fanin_data, FANIN),
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
    """Seconds per run(), averaged over `number` back-to-back calls."""
    time.sleep(settle)
    gc.collect()                      # garbage of the previous sample is not charged to this one
    t0 = time.perf_counter()
    for _ in range(number):
        run()
    return (time.perf_counter() - t0) / number


def bench_workload(w: Workload, impls: list[Impl], repeats: int, quick: bool, seed: int) -> dict:
    data = w.data(quick, np.random.default_rng(seed))
    datasets = ([w.check_data(data)] if w.check_data else []) + [data]   # the timed one last
    refs = [None] * len(datasets)     # the numpy floor's gradients per dataset
    rows = {}                          # impl name -> result dict
    runners = {}
    for impl in impls:
        r = rows[impl.name] = {"label": impl.label, "status": "", "note": "", "warmup_ms": None,
                               "number": 0, "times_ms": []}
        builder = w.variants.get(impl.family)
        if impl.lib is None:
            r["status"] = "not installed" if impl.peer else "not importable"
            continue
        try:
            status, notes = "ok", set()
            for i, d in enumerate(datasets):    # build, run once (the last is the warm-up), check
                built = builder(impl.lib, d) if builder else None
                if built is None:
                    status = "n/a"
                    break
                run, grads = built
                warmup = timed(run)
                g = [None if x is None else to_numpy(x) for x in grads()]
                if impl.name == "numpy":
                    refs[i] = g
                    continue
                good, note = check(g, refs[i])
                if not good and status == "ok":
                    status, fail_note = "FAIL", note
                elif good and note:
                    notes.add(note)
            r["status"] = status
            r["note"] = fail_note if status == "FAIL" else "; ".join(sorted(notes))
            if status != "n/a":
                r["warmup_ms"] = warmup * 1e3
                if warmup < 5 * MIN_SAMPLE_S:       # first calls can be slow: re-time to calibrate
                    warmup = min(warmup, timed(run))
                r["number"] = max(1, min(1000, int(MIN_SAMPLE_S / max(warmup, 1e-9))))
                runners[impl.name] = run
        except Exception as exc:
            r["status"], r["note"] = "error", f"{type(exc).__name__}: {exc}".splitlines()[0][:100]
    for _ in range(repeats):                                  # interleaved per repeat
        for name, run in runners.items():
            try:
                rows[name]["times_ms"].append(timed(run, rows[name]["number"], SETTLE_S) * 1e3)
            except Exception as exc:
                rows[name]["status"] = "error"
                rows[name]["note"] = f"{type(exc).__name__}: {exc}".splitlines()[0][:100]
        runners = {n: r for n, r in runners.items() if rows[n]["status"] != "error"}
    floor = min(rows["numpy"]["times_ms"]) if rows["numpy"]["times_ms"] else None
    for name, r in rows.items():
        r["best_ms"] = min(r["times_ms"]) if r["times_ms"] and r["status"] in ("ok", "FAIL") else None
        r["ratio"] = r["best_ms"] / floor if r["best_ms"] is not None and r["status"] == "ok" and floor else None
    return {"name": w.name, "desc": w.desc, "steps": data.get("steps"),
            "quick": quick and "steps" in data, "rows": rows}


# --------------------------------------------------------------------------- reporting

def machine_info(impls: list[Impl]) -> dict:
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
    torch = sys.modules.get("torch")              # imported only if torch runs (peer or --core torch)
    return {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count(), "usable_cores": usable,
            "python": platform.python_version(), "numpy": np.__version__,
            "torch": torch.__version__ if torch else _version("torch").replace("?", "not installed"),
            "torch_threads": torch.get_num_threads() if torch else None,
            "loadavg": os.getloadavg() if hasattr(os, "getloadavg") else None}


def print_header(info: dict, impls: list[Impl], args) -> None:
    print(f"machine: {info['platform']} | {info['cpu']} | {info['cores']} cores ({info['usable_cores']} usable)"
          f" | Python {info['python']} | numpy {info['numpy']} | torch {info['torch']}"
          + (f" ({info['torch_threads']} threads)" if info["torch_threads"] else "")
          + (" | load {:.2f} {:.2f} {:.2f}".format(*info["loadavg"]) if info["loadavg"] else ""))
    for impl in impls[1:]:
        where = impl.version or ("not installed" if impl.peer else "not importable: " + impl.error)
        if impl.name == "autograd_core" and impl.lib is not None:
            where += f" ({getattr(impl.lib, '__file__', '?')})"
        print(f"  {impl.label:<24} {where}")
    print(f"mode: {'quick' if args.quick else 'full'}; time per forward+backward = best of {args.repeats}"
          f" samples after 1 warm-up, implementations interleaved per sample;"
          f" runs under {MIN_SAMPLE_S * 1e3:.0f} ms are looped within a sample\n")


def print_workload(res: dict, width: int) -> None:
    print(f"{res['name']}: {res['desc']}" + (f" (quick: {res['steps']} steps)" if res["quick"] else ""))
    print(f"  {'implementation':<{width}} {'best ms':>10} {'ratio':>8}")
    for r in res["rows"].values():
        if r["status"] in ("ok", "FAIL"):
            ratio = f"{r['ratio']:7.2f}x" if r["status"] == "ok" else "    FAIL"
            line = f"  {r['label']:<{width}} {r['best_ms']:10.2f} {ratio:>8}"
        else:
            line = f"  {r['label']:<{width}} {r['status']:>10}"
        if r["note"]:
            line += f"   {r['note']}"
        print(line)
    print()


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
        print(f"  {res['name']:<10} {core_label} {cell(res, 'autograd_core'):>9}   "
              f"torch {cell(res, 'torch'):>9}")


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
    impls = make_impls(args.core)
    peers = [i.name for i in impls if i.peer]
    if args.peers == "list":
        load_impls(impls)
        for i in impls[1:]:
            print(f"{i.name:<14} {i.version or ('not installed' if i.peer else i.error)}")
        return 0
    wanted_peers = pick(args.peers, peers, "peer")
    workloads = pick(args.only, WORKLOADS, "workload")
    impls = [i for i in impls if not i.peer or i.name in wanted_peers]

    t_start = time.perf_counter()
    load_impls(impls)
    info = machine_info(impls)
    print_header(info, impls, args)
    width = max(len(i.label) for i in impls)
    results = []
    for name in workloads:
        res = bench_workload(WORKLOADS[name], impls, args.repeats, args.quick, args.seed)
        print_workload(res, width)
        results.append(res)
        sys.stdout.flush()
    print_summary(results)
    total = time.perf_counter() - t_start
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"\ntotal wall time {total:.1f} s" + (" | load at end {:.2f} {:.2f} {:.2f}".format(*load) if load else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "quick": args.quick, "repeats": args.repeats,
                       "core_module": args.core, "total_s": total, "loadavg_end": load,
                       "implementations": {i.name: {"label": i.label, "version": i.version, "error": i.error}
                                           for i in impls},
                       "workloads": results}, f, indent=2)
        print(f"wrote {args.json}")
    return 1 if any(r["status"] == "FAIL" for res in results for r in res["rows"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
