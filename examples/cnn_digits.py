"""A small convolutional network classifies the 8x8 handwritten digits shipped with
autograd_core.

    python examples/cnn_digits.py            # autograd_core
    python examples/cnn_digits.py --torch    # the same script under PyTorch
    python examples/cnn_digits.py --quick    # a few steps

Plain PyTorch: an nn.Module with Conv2d, BatchNorm2d, MaxPool2d and Linear layers,
SGD with Nesterov momentum and weight decay, a one-cycle learning-rate schedule,
mini-batches from a DataLoader, and a checkpoint written and read back with
torch.save / torch.load.
"""
import os
import tempfile
import time

import numpy as np

from _common import init_weights, library_line, load_digits, parse_args

args = parse_args(__doc__, steps=600, quick_steps=20)
if args.torch:
    import torch
else:
    import autograd_core as torch
nn = torch.nn
F = torch.nn.functional
from_numpy = torch.from_numpy
print(library_line(torch))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, padding=1)     # 16 x 8 x 8
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=3, padding=1)    # 32 x 4 x 4 after pooling
        self.bn2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32 * 2 * 2, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(torch.flatten(x, 1))


class Batches(torch.utils.data.Sampler):
    """Shuffled mini-batches of indices drawn with numpy, so that the batch order is the
    same under both libraries (their random streams differ); DataLoader(shuffle=True)
    is the everyday choice."""

    def __init__(self, n, batch_size, steps, seed=0):
        self.n, self.batch_size, self.steps, self.rng = n, batch_size, steps, np.random.default_rng(seed)

    def __iter__(self):
        order = np.empty(0, dtype=np.int64)
        for _ in range(self.steps):
            if len(order) < self.batch_size:
                order = self.rng.permutation(self.n)
            yield order[:self.batch_size].tolist()
            order = order[self.batch_size:]

    def __len__(self):
        return self.steps


x_train, y_train, x_test, y_test = load_digits()
train_set = torch.utils.data.TensorDataset(from_numpy(x_train), from_numpy(y_train))
loader = torch.utils.data.DataLoader(train_set, batch_sampler=Batches(len(y_train), 32, args.steps))

model = init_weights(torch, Net())
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=args.steps)

t0 = time.perf_counter()
for step, (x, y) in enumerate(loader, 1):
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    if step % 100 == 0 or step == args.steps:
        print(f"step {step:5d}  loss {loss.item():.4f}  lr {scheduler.get_last_lr()[0]:.4f}")
print(f"{args.steps} steps in {time.perf_counter() - t0:.1f} s")

# A checkpoint round trip: the reloaded model must give the same predictions.
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "cnn_digits.pt")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": args.steps}, path)
    checkpoint = torch.load(path)
restored = Net()
restored.load_state_dict(checkpoint["model"])

model.eval()
restored.eval()
with torch.no_grad():
    logits = model(from_numpy(x_test))
    assert (logits == restored(from_numpy(x_test))).all(), "the checkpoint round trip changed the model"
    accuracy = (logits.argmax(dim=1) == from_numpy(y_test)).float().mean().item()
print(f"test accuracy: {100 * accuracy:.2f}% (the model reloaded from its checkpoint agrees)")
print(f"final loss: {loss.item()!r}")
