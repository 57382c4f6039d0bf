"""DistributedDataParallel trains an MLP on the 8x8 digits shipped with autograd_core.

    python -m autograd_core.distributed.run --nproc-per-node 2 examples/ddp_digits.py
    torchrun --nproc-per-node 2 examples/ddp_digits.py --torch   # the same under PyTorch
    python examples/ddp_digits.py --quick        # one rank, a few steps

Plain PyTorch DDP on CPU: init_process_group("gloo") (served by MPI under autograd_core),
DistributedSampler gives every rank its shard of each epoch, DDP averages the gradients,
so every rank takes the same step and ends with the same parameters.
"""
import os
import time

import numpy as np

from _common import init_weights, library_line, load_digits, parse_args

args = parse_args(__doc__, steps=600, quick_steps=30)
if args.torch:
    import torch
    import torch.distributed as dist
else:
    import autograd_core as torch
    import autograd_core.distributed as dist
nn = torch.nn
from_numpy = torch.from_numpy

# started without a launcher: a world of one rank (torchrun sets these for every rank)
for key, value in (("RANK", "0"), ("WORLD_SIZE", "1"), ("MASTER_ADDR", "127.0.0.1"),
                   ("MASTER_PORT", str(29600 + os.getpid() % 1000))):
    os.environ.setdefault(key, value)
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
if rank == 0:
    print(library_line(torch) + f", {world} rank{'s' if world > 1 else ''}", flush=True)

x_train, y_train, x_test, y_test = load_digits()
train = torch.utils.data.TensorDataset(from_numpy(x_train), from_numpy(y_train))
sampler = torch.utils.data.distributed.DistributedSampler(train, num_replicas=world, rank=rank,
                                                          shuffle=True, seed=0)
loader = torch.utils.data.DataLoader(train, batch_size=64 // world, sampler=sampler)

model = nn.Sequential(nn.Flatten(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
init_weights(torch, model)
ddp = nn.parallel.DistributedDataParallel(model)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9)


def global_loss(loss):
    """The loss over the whole global batch: the mean of the ranks' losses."""
    t = loss.detach().clone()
    dist.all_reduce(t)
    return t.item() / world


step, epoch, first = 0, 0, None
t0 = time.perf_counter()
while step < args.steps:
    sampler.set_epoch(epoch)             # a new shuffle, the same on every rank
    for x, y in loader:
        loss = loss_fn(ddp(x), y)
        optimizer.zero_grad()
        loss.backward()                  # gradients averaged over the ranks here
        optimizer.step()
        step += 1
        value = global_loss(loss)
        first = value if first is None else first
        if rank == 0 and (step % 100 == 0 or step == args.steps):
            print(f"step {step:5d}  loss {value:.4f}", flush=True)
        if step == args.steps:
            break
    epoch += 1

# every rank holds the same parameters: DDP's promise
flat = np.concatenate([p.detach().numpy().ravel() for p in model.parameters()])
everyone = [None] * world
dist.all_gather_object(everyone, flat.tolist())
same = all(np.allclose(everyone[0], other, rtol=0, atol=1e-6) for other in everyone)
model.eval()
with torch.no_grad():
    accuracy = (model(from_numpy(x_test)).argmax(dim=1) == from_numpy(y_test)).float().mean()
if rank == 0:
    print(f"{args.steps} steps in {time.perf_counter() - t0:.1f} s on {world} rank(s)")
    print(f"test accuracy: {100 * accuracy.item():.2f}%")
    print(f"parameters identical on the {world} ranks: {same}")
    print(f"first loss: {first!r}")
    print(f"final loss: {value!r}")
dist.destroy_process_group()
