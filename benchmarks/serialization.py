#!/usr/bin/env python
"""save and load side by side: autograd_core's ``save``/``load`` against PyTorch's
``torch.save``/``torch.load`` (and the numpy floor: ``np.save``/``np.load`` of the same
bytes), for one 4 MB and one 64 MB float32 tensor and a state_dict of many small tensors;
``load`` both read and mapped (``mmap=True``).

    python benchmarks/serialization.py
    python benchmarks/serialization.py --repeats 30 --small 500

Files go to a temporary directory (the page cache holds them: this times the libraries'
own work, not the disk). Prints each best time and the ratios autograd_core / PyTorch and
autograd_core / numpy; absolute times on shared machines are noise, the ratios in one run
are the figures.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import _import, _import_core, best  # noqa: E402  (benchmarks/run.py's import rule)


def workloads(small):
    rng = np.random.default_rng(0)
    return {
        "tensor 4 MB": rng.standard_normal(1 << 20).astype(np.float32),
        "tensor 64 MB": rng.standard_normal(1 << 24).astype(np.float32),
        f"state_dict {small} x 1 KB": {f"layer{i}.weight": rng.standard_normal(256).astype(
            np.float32) for i in range(small)},
    }


def as_module(mod, obj):
    if isinstance(obj, dict):
        return {k: mod.tensor(v) for k, v in obj.items()}
    return mod.tensor(obj)


def time_numpy(obj, path, repeats):
    arrays = obj if isinstance(obj, dict) else {"x": obj}
    npz = path + ".npz" if isinstance(obj, dict) else path + ".npy"

    def save():
        if isinstance(obj, dict):
            np.savez(npz, **arrays)
        else:
            np.save(npz, obj)

    def load():
        if isinstance(obj, dict):
            with np.load(npz) as z:
                return {k: z[k] for k in z.files}
        return np.load(npz)

    def load_mmap():
        if isinstance(obj, dict):
            return None
        return np.load(npz, mmap_mode="c")

    save()
    return (best(save, repeats), best(load, repeats),
            best(load_mmap, repeats) if not isinstance(obj, dict) else float("nan"))


def time_module(mod, obj, path, repeats):
    value = as_module(mod, obj)
    mod.save(value, path)
    return (best(lambda: mod.save(value, path), repeats),
            best(lambda: mod.load(path), repeats),
            best(lambda: mod.load(path, mmap=True), repeats))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--small", type=int, default=1000, help="tensors in the state_dict")
    args = ap.parse_args()
    core = _import_core("autograd_core")
    try:
        torch = _import("torch")
    except ImportError:
        torch = None
    fmt = "{:<26} {:<9} {:>12} {:>12} {:>12} {:>12} {:>12}"
    print(fmt.format("workload", "step", "numpy ms", "ag ms", "torch ms", "ag/torch",
                     "ag/numpy"))
    with tempfile.TemporaryDirectory() as d:
        for name, obj in workloads(args.small).items():
            floor = time_numpy(obj, os.path.join(d, "np"), args.repeats)
            ours = time_module(core, obj, os.path.join(d, "ag.pt"), args.repeats)
            theirs = time_module(torch, obj, os.path.join(d, "torch.pt"), args.repeats) \
                if torch is not None else (float("nan"),) * 3
            for i, step in enumerate(("save", "load", "mmap")):
                print(fmt.format(name, step, f"{floor[i] * 1e3:.2f}", f"{ours[i] * 1e3:.2f}",
                                 f"{theirs[i] * 1e3:.2f}", f"{ours[i] / theirs[i]:.2f}",
                                 f"{ours[i] / floor[i]:.2f}"))


if __name__ == "__main__":
    main()
