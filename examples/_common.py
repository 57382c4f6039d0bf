"""What the examples share besides their model code: the command line, the shipped digits,
and initial weights drawn with numpy.

Every example runs under autograd_core by default and under PyTorch with ``--torch`` (or
``AGC_EXAMPLES_TORCH=1``); the scripts then differ in one line, ``import torch`` instead of
``import autograd_core as torch``.
"""
import argparse
import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DIGITS = os.path.join(HERE, os.pardir, "autograd_core", "demo", "digits.npz")


def parse_args(doc, steps, quick_steps):
    """--torch, --quick (a few steps, as the test suite runs it) and --steps N."""
    p = argparse.ArgumentParser(description=doc.strip().split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--torch", action="store_true",
                   help="run under PyTorch instead of autograd_core (also AGC_EXAMPLES_TORCH=1)")
    p.add_argument("--quick", action="store_true", help=f"a short run ({quick_steps} steps)")
    p.add_argument("--steps", type=int, help=f"training steps (default {steps})")
    args = p.parse_args()
    args.torch = args.torch or os.environ.get("AGC_EXAMPLES_TORCH", "") not in ("", "0")
    args.steps = args.steps or (quick_steps if args.quick else steps)
    return args


def library_line(torch):
    """Which library runs the script, for its first line of output."""
    name = torch.__name__
    return f"running under {name} {torch.__version__}" + (
        "" if name == "torch" else " (as `torch`; pass --torch for PyTorch)")


def load_digits(n_test=360, seed=0):
    """The 8x8 digits shipped in autograd_core/demo/digits.npz (UCI optdigits via
    scikit-learn, CC BY 4.0: see DIGITS_DATA.txt there): float32 images N x 1 x 8 x 8 in
    [0, 1] and int64 labels, split into train and test in a fixed order."""
    with np.load(DIGITS, allow_pickle=False) as data:
        x = (data["images"].astype(np.float32) / 16)[:, None]
        y = data["labels"].astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(y))
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]


def init_weights(torch, model, seed=0):
    """PyTorch's default uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)) initialisation, drawn with
    numpy: torch and autograd_core have different random streams, and this makes runs under
    both start from the same weights, so their losses can be compared step by step."""
    rng = np.random.default_rng(seed)
    fan_in = 1
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() > 1:                      # a weight: fan_in = in_features (x kernel size)
                fan_in = math.prod(p.shape[1:])
            bound = 1 / math.sqrt(fan_in)         # a bias follows the weight before it
            values = rng.uniform(-bound, bound, tuple(p.shape)).astype(np.float32)
            p.copy_(torch.from_numpy(values).to(p.dtype))
    return model
