#!/usr/bin/env python
"""Forward-mode AD cost: the tiny-op chain (tanh(1.01 y + 0.01), 10-element float32)
with forward AD off, inside a dual level without dual inputs, and as a jvp (a dual
input), for autograd_core and PyTorch side by side, with the numpy floor.

    python benchmarks/forward_ad.py                      # this tree and torch
    python benchmarks/forward_ad.py --baseline /work/main  # also a tree without forward AD
    python benchmarks/forward_ad.py --steps 20000 --samples 7

Each implementation runs in a fresh process of its own (as benchmarks/run.py does: what
else is imported moves tiny-op timings). 'off' is the eager hot path: a tree without
forward AD (--baseline) shows what the feature costs there (one C-level flag check per
op: Note [Forward AD] in autograd_core/_core/_fw.pxi). 'jvp' carries a tangent through
every op; its ratio to 'off' is the cost of forward mode.
"""
import argparse
import json
import os
import subprocess
import sys

WORKER = r'''
import gc, json, sys, time
import numpy as np
name, steps, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if name == "numpy":
    mod = None
else:
    import importlib
    mod = importlib.import_module(name)
x0 = np.linspace(-1, 1, 10).astype(np.float32)

def best(fn):
    ts = []
    for _ in range(samples):
        gc.collect()
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts) * 1e9 / (2 * steps)          # ns per op (mul+add+tanh counted as 2)

def chain_np():
    y = x0
    for _ in range(steps):
        y = np.tanh(y * np.float32(1.01) + np.float32(0.01))
    return y

out = {"floor": best(chain_np)}
if mod is not None:
    x = mod.tensor(x0)
    def chain(y):
        for _ in range(steps):
            y = mod.tanh(y * 1.01 + 0.01)
        return y
    out["off"] = best(lambda: chain(x))
    fwAD = getattr(mod.autograd, "forward_ad", None)
    if fwAD is not None:
        def in_level():
            with fwAD.dual_level():
                chain(x)
        def jvp():
            with fwAD.dual_level():
                d = fwAD.make_dual(x, mod.ones_like(x))
                return fwAD.unpack_dual(chain(d)).tangent
        out["level, no dual"] = best(in_level)
        out["jvp"] = best(jvp)
print(json.dumps(out))
'''


def run(name, path, steps, samples):
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", WORKER, name, str(steps), str(samples)],
                       capture_output=True, text=True, env=env, cwd=path or None)
    if r.returncode:
        raise SystemExit(f"{name} ({path}): {r.stderr[-2000:]}")
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--baseline", default=None,
                    help="a tree of autograd_core without forward AD, for the 'off' row")
    args = ap.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows = [("autograd_core", run("autograd_core", here, args.steps, args.samples))]
    if args.baseline:
        rows.append(("autograd_core (baseline)",
                     run("autograd_core", args.baseline, args.steps, args.samples)))
    try:
        rows.append(("torch", run("torch", None, args.steps, args.samples)))
    except SystemExit as e:
        print(f"torch: not run ({str(e)[:80]})")
    print(f"tiny-op chain, {args.steps} steps of tanh(1.01 y + 0.01) on 10 float32; "
          f"ns per op (best of {args.samples}), ratio to the numpy floor of the same process")
    print(f"  {'implementation':<26} {'mode':<16} {'ns/op':>8} {'ratio':>7}")
    for label, res in rows:
        floor = res["floor"]
        for mode in ("off", "level, no dual", "jvp"):
            if mode in res:
                print(f"  {label:<26} {mode:<16} {res[mode]:8.0f} {res[mode] / floor:7.2f}")
    core = rows[0][1]
    if args.baseline:
        base = rows[1][1]
        print(f"forward AD off vs baseline tree: {core['off'] / core['floor']:.2f} vs "
              f"{base['off'] / base['floor']:.2f} (ratios to each process's floor)")
    if rows[-1][0] == "torch" and "jvp" in rows[-1][1]:
        t = rows[-1][1]
        print(f"jvp cost (jvp / off): autograd_core {core['jvp'] / core['off']:.2f}, "
              f"torch {t['jvp'] / t['off']:.2f}; jvp autograd_core / torch: "
              f"{core['jvp'] / t['jvp']:.2f}")


if __name__ == "__main__":
    main()
