"""An MLP classifies the 8x8 handwritten digits shipped with autograd_core.

    python examples/mlp_digits.py            # autograd_core
    python examples/mlp_digits.py --torch    # the same script under PyTorch
    python examples/mlp_digits.py --quick    # a few steps

Plain PyTorch: nn.Sequential, CrossEntropyLoss, Adam, a step learning-rate schedule.
"""
import time

import numpy as np

from _common import init_weights, library_line, load_digits, parse_args

args = parse_args(__doc__, steps=1200, quick_steps=30)
if args.torch:
    import torch
else:
    import autograd_core as torch
nn = torch.nn
print(library_line(torch))

x_train, y_train, x_test, y_test = load_digits()
x_train, y_train = torch.from_numpy(x_train), torch.from_numpy(y_train)
x_test, y_test = torch.from_numpy(x_test), torch.from_numpy(y_test)

model = nn.Sequential(
    nn.Flatten(),
    nn.Linear(64, 128), nn.ReLU(),
    nn.Linear(128, 64), nn.ReLU(),
    nn.Linear(64, 10),
)
init_weights(torch, model)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=400, gamma=0.3)

batch_size = 32
rng = np.random.default_rng(0)          # the batch order, identical under both libraries
order = np.empty(0, dtype=np.int64)
t0 = time.perf_counter()
for step in range(1, args.steps + 1):
    if len(order) < batch_size:
        order = rng.permutation(len(y_train))
    idx, order = torch.from_numpy(order[:batch_size]), order[batch_size:]
    loss = loss_fn(model(x_train[idx]), y_train[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    if step % 200 == 0 or step == args.steps:
        print(f"step {step:5d}  loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    accuracy = (model(x_test).argmax(dim=1) == y_test).float().mean().item()
print(f"{args.steps} steps in {time.perf_counter() - t0:.1f} s")
print(f"test accuracy: {100 * accuracy:.2f}%")
print(f"final loss: {loss.item()!r}")
