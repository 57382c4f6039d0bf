"""Regression with L-BFGS: a small tanh network fits a noisy curve in float64, with
a strong-Wolfe line search, the way full-batch problems are often solved.

    python examples/lbfgs_regression.py            # autograd_core
    python examples/lbfgs_regression.py --torch    # the same script under PyTorch
    python examples/lbfgs_regression.py --quick    # a few steps

Plain PyTorch: torch.set_default_dtype, nn.Sequential, MSELoss, and optim.LBFGS with
a closure that recomputes the loss and its gradient.
"""
import math
import time

import numpy as np

from _common import init_weights, library_line, parse_args

args = parse_args(__doc__, steps=40, quick_steps=3)
if args.torch:
    import torch
else:
    import autograd_core as torch
nn = torch.nn
print(library_line(torch))
torch.set_default_dtype(torch.float64)

rng = np.random.default_rng(0)
x_np = np.linspace(-3, 3, 200)[:, None]
y_np = np.sin(2 * x_np) * np.exp(-0.2 * x_np ** 2) + 0.3 * x_np + rng.normal(0, 0.05, x_np.shape)
x, y = torch.from_numpy(x_np), torch.from_numpy(y_np)

model = init_weights(torch, nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(),
                                          nn.Linear(32, 1)))
loss_fn = nn.MSELoss()
optimizer = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=20, history_size=20,
                              line_search_fn="strong_wolfe")


def closure():
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    return loss


t0 = time.perf_counter()
for step in range(1, args.steps + 1):
    loss = optimizer.step(closure)        # up to 20 L-BFGS iterations per step
    if step % 5 == 0 or step == args.steps:
        print(f"step {step:3d}  loss {loss.item():.6f}")
print(f"{args.steps} steps ({optimizer.state[optimizer.param_groups[0]['params'][0]]['func_evals']} "
      f"function evaluations) in {time.perf_counter() - t0:.1f} s")

with torch.no_grad():
    final = loss_fn(model(x), y).item()
print(f"residual standard deviation {math.sqrt(final):.4f} (the noise is 0.05)")
print(f"final loss: {final!r}")
