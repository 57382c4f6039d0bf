"""The demonstration: train an MLP and a small CNN on the shipped 8x8 digits with plain
PyTorch code run by autograd_core, report test accuracy, run the benchmark table, and
write PNG plots of the training curves and the benchmark ratios, and the MLP's autograd
graph (DOT text, and SVG where graphviz's dot program is installed).

    autograd-core-demo                 # or: python -m autograd_core.demo
    autograd-core-demo --quick         # a shortened run (seconds): fewer epochs, 2 workloads
    autograd-core-demo --out DIR       # where the plots go (default ./autograd_core_demo)
    autograd-core-demo --no-bench      # training only

With tqdm installed the training shows a live progress bar, with matplotlib it writes
the plots, and with threadpoolctl numpy's BLAS runs on one thread while the (small)
networks train (`pip install "autograd_core[demo]"` brings all three); without them it
prints progress lines, skips the plots, and says so.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import contextlib
import platform
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np

import autograd_core as torch                      # the only line that differs from PyTorch
from autograd_core import nn
from autograd_core.demo._data import DIGITS_ATTRIBUTION, load_digits
from autograd_core.utils.data import DataLoader, TensorDataset

DEFAULT_OUT = "autograd_core_demo"


# --------------------------------------------------------------------------- the models
# Ordinary PyTorch code: under `import torch` instead of `import autograd_core as torch`
# these classes and the training loop below run unchanged.

class MLP(nn.Module):
    """64 pixels -> 128 -> 64 -> 10 classes."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(),
            nn.Linear(64, 128), nn.ReLU(),
            nn.Linear(128, 64), nn.ReLU(),
            nn.Linear(64, 10),
        )

    def forward(self, x):
        return self.net(x)


class CNN(nn.Module):
    """Two 3x3 convolutions with max pooling (1x8x8 -> 32x4x4 -> 64x2x2), then a linear layer."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Linear(64 * 2 * 2, 10)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        correct = (model(x).argmax(dim=1) == y).sum().item()
    model.train()
    return correct / len(y)


def train(model, train_set, test_x, test_y, *, epochs, batch_size, lr, seed, progress):
    """Adam with a cosine learning-rate schedule; returns the history for the plots."""
    gen = torch.Generator().manual_seed(seed)
    loader = DataLoader(train_set, batch_size=batch_size, shuffle=True, generator=gen)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * len(loader))
    loss_fn = nn.CrossEntropyLoss()
    history = {"loss": [], "train_acc": [], "test_acc": []}
    model.train()
    for epoch in range(epochs):
        seen = correct = 0
        for x, y in loader:
            logits = model(x)
            loss = loss_fn(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            seen += len(y)
            correct += (logits.argmax(dim=1) == y).sum().item()
            history["loss"].append(loss.item())
            progress.step(history["loss"][-1], correct / seen)
        history["train_acc"].append(correct / seen)
        history["test_acc"].append(accuracy(model, test_x, test_y))
        progress.epoch(epoch + 1, history["test_acc"][-1])
    progress.close()
    return history


# --------------------------------------------------------------------------- progress display

class TqdmProgress:
    """A live tqdm bar over all steps: loss (running mean), accuracy, steps/s, test accuracy."""

    def __init__(self, tqdm, total, name, epochs):
        self.bar = tqdm(total=total, desc=f"  {name}", unit="step", file=sys.stdout, dynamic_ncols=True,
                        mininterval=0.25, leave=True)
        self.name, self.epochs, self.ema, self.acc, self.test = name, epochs, None, 0.0, None

    def step(self, loss, acc):
        self.ema = loss if self.ema is None else 0.9 * self.ema + 0.1 * loss
        self.acc = acc
        self.bar.set_postfix(self._fields(), refresh=False)
        self.bar.update(1)

    def epoch(self, epoch, test_acc):
        self.test = test_acc
        self.bar.set_description(f"  {self.name} epoch {epoch}/{self.epochs}", refresh=False)
        self.bar.set_postfix(self._fields(), refresh=True)

    def _fields(self):
        fields = {"loss": f"{self.ema:.3f}", "acc": f"{100 * self.acc:.1f}%"}
        if self.test is not None:
            fields["test"] = f"{100 * self.test:.1f}%"
        return fields

    def close(self):
        self.bar.close()


class PlainProgress:
    """Without tqdm: one line per epoch (loss, accuracy, steps/s, test accuracy)."""

    def __init__(self, total, name, epochs):
        self.name, self.epochs = name, epochs
        self.losses, self.acc, self.steps, self.t0 = [], 0.0, 0, time.perf_counter()

    def step(self, loss, acc):
        self.losses.append(loss)
        self.acc = acc
        self.steps += 1

    def epoch(self, epoch, test_acc):
        if epoch % max(1, self.epochs // 10) and epoch != self.epochs:
            return                      # about ten lines per model
        dt = time.perf_counter() - self.t0
        print(f"  {self.name} epoch {epoch:>2}/{self.epochs}  loss {np.mean(self.losses):.4f}  "
              f"acc {100 * self.acc:5.1f}%  test {100 * test_acc:5.1f}%  {self.steps / dt:6.0f} steps/s",
              flush=True)
        self.losses, self.steps, self.t0 = [], 0, time.perf_counter()

    def close(self):
        pass


def optional(name):
    """Import an optional display library; None when it is missing or broken."""
    try:
        return importlib.import_module(name)
    except Exception:                   # ImportError, or a broken install raising anything else
        return None


# --------------------------------------------------------------------------- pieces of the demo

def digits_split(seed, quick):
    images, labels = load_digits()
    x = (images.astype(np.float32) / 16.0)[:, None, :, :]       # N x 1 x 8 x 8, in [0, 1]
    order = np.random.default_rng(seed).permutation(len(labels))
    n_test = 360
    test, train_idx = order[:n_test], order[n_test:]
    if quick:
        train_idx = train_idx[:512]
    return (x[train_idx], labels[train_idx]), (x[test], labels[test]), images[test]


def ascii_digits(images, preds, truth):
    """A row of test digits drawn in characters (as many as the terminal is wide), with
    the network's answers underneath."""
    shades = " .:-=+*#%@"
    count = max(1, min(len(preds), (shutil.get_terminal_size((80, 24)).columns - 4 + 2) // 18))
    lines = []
    for r in range(8):
        lines.append("  ".join("".join(shades[min(9, int(v) * 10 // 17)] * 2 for v in img[r])
                               for img in images[:count]))
    lines.append("  ".join(f"{'-> ' + str(p):^16}" for p in preds[:count]))
    lines.append("  ".join(f"{'' if p == t else '(is ' + str(t) + ')':^16}"
                           for p, t in zip(preds[:count], truth[:count])).rstrip())
    return "\n".join("    " + line for line in lines if line.strip())


def one_blas_thread(threadpoolctl):
    """numpy's BLAS on one thread while the small networks train: for matrices this size a
    second thread only waits, and on a busy machine it waits for a long time."""
    if threadpoolctl is None:
        return contextlib.nullcontext()
    return threadpoolctl.threadpool_limits(limits=1, user_api="blas")


def find_benchmarks():
    """benchmarks/run.py: packaged as autograd_core.benchmarks in a wheel, or beside the
    package in a source checkout (an in-place build). None when neither is there."""
    spec = importlib.util.find_spec("autograd_core.benchmarks.run") \
        if importlib.util.find_spec("autograd_core.benchmarks") else None
    if spec is None:
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                            "benchmarks", "run.py")
        if not os.path.isfile(path):
            return None
        spec = importlib.util.spec_from_file_location("autograd_core_benchmarks_run", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module      # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def plot_training(plt, runs, path):
    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(11, 4.2))
    for (name, hist, test_acc), color in zip(runs, ("tab:blue", "tab:orange")):
        loss = np.asarray(hist["loss"])
        steps = np.arange(1, len(loss) + 1)
        ax_loss.plot(steps, loss, color=color, alpha=0.25, linewidth=0.8)
        k = max(1, len(loss) // 40)
        smooth = np.convolve(loss, np.ones(k) / k, mode="valid")
        ax_loss.plot(steps[k - 1:], smooth, color=color, label=f"{name} (mean of {k} steps)")
        epochs = np.arange(1, len(hist["test_acc"]) + 1)
        ax_acc.plot(epochs, 100 * np.asarray(hist["train_acc"]), color=color, linestyle="--",
                    label=f"{name} train")
        ax_acc.plot(epochs, 100 * np.asarray(hist["test_acc"]), color=color, marker="o", markersize=3,
                    label=f"{name} test ({100 * test_acc:.1f}%)")
    ax_loss.set(xlabel="step", ylabel="cross-entropy loss", yscale="log", title="training loss")
    ax_acc.set(xlabel="epoch", ylabel="accuracy (%)", title="accuracy on 8x8 digits")
    lo = min(min(h["test_acc"] + h["train_acc"]) for _, h, _ in runs)
    ax_acc.set_ylim(max(0.0, 100 * lo - 5), 100.5)
    for ax in (ax_loss, ax_acc):
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("autograd_core: PyTorch training code, run with `import autograd_core as torch`")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_benchmark(plt, bench, path):
    workloads = bench["workloads"]
    names = [n for n in bench["implementations"]
             if n != "numpy" and any(w["rows"][n]["ratio"] is not None for w in workloads)]
    fig, ax = plt.subplots(figsize=(max(7.0, 1.6 * len(workloads) + 2), 4.5))
    width = 0.8 / max(1, len(names))
    colors = {"autograd_core": "tab:green", "torch": "tab:red"}
    for i, name in enumerate(names):
        xs, ys = [], []
        for j, w in enumerate(workloads):
            if w["rows"][name]["ratio"] is not None:
                xs.append(j + (i - (len(names) - 1) / 2) * width)
                ys.append(w["rows"][name]["ratio"])
        bars = ax.bar(xs, ys, width, label=bench["implementations"][name]["label"],
                      color=colors.get(name))
        ax.bar_label(bars, labels=[f"{y:.2f}x" for y in ys], fontsize=7, padding=2)
    ax.axhline(1.0, color="black", linewidth=1, linestyle="--", label="numpy floor (1x)")
    ax.set_yscale("log")
    ticks = importlib.import_module("matplotlib.ticker")
    ax.yaxis.set_major_locator(ticks.LogLocator(subs=(1, 2, 3, 5)))
    ax.yaxis.set_major_formatter(ticks.FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.yaxis.set_minor_formatter(ticks.NullFormatter())
    ax.set_xticks(range(len(workloads)), [w["name"] for w in workloads])
    ax.set_ylabel("time / hand-written numpy time (log, lower is better)")
    ax.set_title("forward + backward, ratio to the numpy floor"
                 + (" (quick run)" if bench.get("quick") else ""))
    m = bench.get("machine", {})
    load = m.get("loadavg")
    fig.text(0.01, 0.01, f"{m.get('cpu', '?')}, {m.get('usable_cores', '?')} cores, Python {m.get('python', '?')}, "
             f"numpy {m.get('numpy', '?')}, torch {m.get('torch', '?')}"
             + (f" ({m['torch_threads']} threads)" if m.get("torch_threads") else "")
             + (f", load {load[0]:.1f}" if load else "")
             + ": one run; read ratios, not milliseconds",
             fontsize=7, color="dimgray")
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", alpha=0.3, which="both")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --------------------------------------------------------------------------- main

def write_graph(model, x, y, stem):
    """The autograd graph of one training step's loss (autograd_core.utils.viz.make_dot)
    as DOT text, and as SVG when graphviz's dot program is installed. Returns the paths."""
    from autograd_core.utils.viz import make_dot

    loss = torch.nn.functional.cross_entropy(model(x), y)
    dot = make_dot(loss, params=dict(model.named_parameters()))
    source = getattr(dot, "source", dot)
    paths = [stem + ".dot"]
    with open(paths[0], "w") as f:
        f.write(source)
    if shutil.which("dot"):
        r = subprocess.run(["dot", "-Tsvg", "-o", stem + ".svg", paths[0]], capture_output=True)
        if r.returncode == 0:
            paths.append(stem + ".svg")
    return paths


def parse_args(argv):
    p = argparse.ArgumentParser(prog="autograd-core-demo", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="shortened run: fewer epochs and samples, two benchmark workloads")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                   help=f"directory for the plots and benchmark.json (default ./{DEFAULT_OUT})")
    p.add_argument("--no-bench", action="store_true", help="skip the benchmark table")
    p.add_argument("--no-plots", action="store_true", help="write no plots")
    p.add_argument("--plain", action="store_true", help="no progress bar: one line per epoch")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    t_start = time.perf_counter()
    tqdm_mod = None if args.plain else optional("tqdm")
    tqdm = getattr(tqdm_mod, "tqdm", None)
    want_plots = not args.no_plots
    threadpoolctl = optional("threadpoolctl")
    mpl = optional("matplotlib") if want_plots else None
    plt = None
    if mpl is not None:
        mpl.use("Agg")                  # files only: no window, no display needed
        plt = optional("matplotlib.pyplot")

    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()
    print(f"autograd_core {getattr(torch, '__version__', '?')} demo | numpy {np.__version__} | "
          f"Python {platform.python_version()} | {cores} cores")
    print("The models and the training loop are plain PyTorch code, "
          "run by `import autograd_core as torch`.")
    missing = {"tqdm": "plain progress lines" if tqdm is None and not args.plain else None,
               "matplotlib": "no plots" if plt is None and want_plots else None,
               "threadpoolctl": "numpy's BLAS threads as they are" if threadpoolctl is None else None}
    missing = {k: v for k, v in missing.items() if v}
    if missing:
        print(f"note: {', '.join(missing)} not installed: {', '.join(missing.values())} "
              '(pip install "autograd_core[demo]" brings them)')

    # -- data
    torch.manual_seed(args.seed)
    (train_x, train_y), (test_x, test_y), test_images = digits_split(args.seed, args.quick)
    print(f"\n[1/3] data: {len(train_y) + len(test_y):,} 8x8 handwritten digits shipped with the package\n"
          f"      {len(train_y):,} to train on, {len(test_y)} held out for testing")
    print(textwrap.fill(f"({DIGITS_ATTRIBUTION})", width=88, initial_indent="      ",
                        subsequent_indent="       "))
    train_set = TensorDataset(torch.from_numpy(train_x), torch.from_numpy(train_y))
    tx, ty = torch.from_numpy(test_x), torch.from_numpy(test_y)

    # -- training
    print("\n[2/3] training: Adam, cosine learning-rate schedule, cross-entropy, batch 32"
          + ("\n      (numpy's BLAS on 1 thread: the matrices are small)" if threadpoolctl else ""))
    configs = [("MLP", MLP, 3 if args.quick else 30, 3e-3), ("CNN", CNN, 2 if args.quick else 20, 3e-3)]
    runs, timings, trained = [], {}, {}
    for name, cls, epochs, lr in configs:
        model = cls()
        n_params = sum(p.numel() for p in model.parameters())
        steps = epochs * math.ceil(len(train_set) / 32)
        print(f"\n  {name}: {n_params:,} parameters, {epochs} epochs = {steps} steps, lr {lr:g}")
        print("  " + repr(model).replace("\n", "\n  "))
        progress = (TqdmProgress(tqdm, steps, name, epochs) if tqdm
                    else PlainProgress(steps, name, epochs))
        t0 = time.perf_counter()
        with one_blas_thread(threadpoolctl):
            hist = train(model, train_set, tx, ty, epochs=epochs, batch_size=32, lr=lr,
                         seed=args.seed, progress=progress)
        timings[name] = time.perf_counter() - t0
        test_acc = hist["test_acc"][-1]
        print(f"  {name} test accuracy: {100 * test_acc:.2f}% ({round(test_acc * len(ty))}/{len(ty)}) "
              f"after {timings[name]:.1f} s, {steps / timings[name]:.0f} steps/s including evaluation")
        runs.append((name, hist, test_acc))
        last_model = model
        trained[name] = model
    with torch.no_grad():
        last_model.eval()
        preds = last_model(tx[:20]).argmax(dim=1).tolist()
    print(f"\n  the first test digits and the {runs[-1][0]}'s answers:")
    print(ascii_digits(test_images, preds, test_y.tolist()))

    # -- benchmarks
    status = 0
    out = os.path.abspath(args.out)
    written = []
    bench = None
    if args.no_bench:
        print("\n[3/3] benchmarks: skipped (--no-bench)")
    else:
        run = find_benchmarks()
        if run is None:
            print("\n[3/3] benchmarks: benchmarks/run.py not found (neither packaged nor in a checkout)")
        else:
            os.makedirs(out, exist_ok=True)
            json_path = os.path.join(out, "benchmark.json")
            bench_args = ["--quick", "--json", json_path]
            if args.quick:
                bench_args += ["--only", "chain16,mlp", "--repeats", "1"]
            print("\n[3/3] benchmarks: the same forward+backward hand-written in numpy (the floor),\n"
                  "      in autograd_core and in every installed peer; ratios to the floor, lower is better\n"
                  "      (benchmarks/run.py " + " ".join(bench_args[:1] + bench_args[3:]) + ")\n", flush=True)
            status = run.main(bench_args)
            with open(json_path) as f:
                bench = json.load(f)
            written.append(json_path)

    # -- plots
    if want_plots:
        os.makedirs(out, exist_ok=True)
        written += write_graph(trained["MLP"], tx[:32], ty[:32], os.path.join(out, "mlp_graph"))
        if plt is None:
            print("\nplots: skipped, matplotlib is not installed (pip install matplotlib)")
        else:
            os.makedirs(out, exist_ok=True)
            path = os.path.join(out, "training.png")
            plot_training(plt, runs, path)
            written.append(path)
            if bench is not None:
                path = os.path.join(out, "benchmark.png")
                plot_benchmark(plt, bench, path)
                written.append(path)

    print("\nsummary:")
    for name, hist, test_acc in runs:
        print(f"  {name}: test accuracy {100 * test_acc:.2f}% (training {timings[name]:.1f} s)")
    if bench is not None:
        for w in bench["workloads"]:
            cells = [f"{r['label']} {r['ratio']:.2f}x" for n, r in w["rows"].items()
                     if n != "numpy" and r["ratio"] is not None]
            print(f"  {w['name']:<10} " + ", ".join(cells))
    for path in written:
        print(f"  wrote {os.path.relpath(path) if not os.path.relpath(path).startswith('..') else path}")
    print(f"done in {time.perf_counter() - t_start:.0f} s")
    return status
