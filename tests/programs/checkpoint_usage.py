# torch.utils.checkpoint: reentrant and non-reentrant, checkpoint_sequential, warnings
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(torch.tanh(self.lin(x)))


class Net(nn.Module):
    def __init__(self, use_reentrant):
        super().__init__()
        self.blocks = nn.ModuleList([Block(8) for _ in range(3)])
        self.head = nn.Linear(8, 1)
        self.use_reentrant = use_reentrant

    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=self.use_reentrant)
        return self.head(x)


x = torch.randn(4, 8)
for reentrant in (True, False):
    torch.manual_seed(1)
    net = Net(reentrant)
    torch.manual_seed(2)
    out = net(x.requires_grad_(reentrant) if reentrant else x)
    out.sum().backward()
    print(reentrant, out.squeeze(), net.blocks[0].lin.weight.grad.norm())
    print(out.grad_fn)

torch.manual_seed(1)
ref = Net(False)
torch.manual_seed(2)
y = ref.head(ref.blocks[2](ref.blocks[1](ref.blocks[0](x))))
y.sum().backward()
print(ref.blocks[0].lin.weight.grad.norm())

model = nn.Sequential(*[nn.Linear(6, 6) for _ in range(4)], nn.ReLU())
inp = torch.randn(2, 6, requires_grad=True)
out = checkpoint_sequential(model, 2, inp, use_reentrant=False)
out.sum().backward()
print(out.shape, inp.grad[0])


def fn(a, b):
    return a * b.sin(), (a + b).sum()


a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
o1, o2 = checkpoint(fn, a, b, use_reentrant=False)
(o1.sum() + o2).backward()
print(a.grad, b.grad)

c = torch.randn(3)
o = checkpoint(lambda t: t * 2, c, use_reentrant=True)
print(o.requires_grad)
try:
    o2 = checkpoint(lambda t: t * 2, torch.randn(3, requires_grad=True), use_reentrant=True)
    torch.autograd.grad(o2.sum(), o2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    checkpoint(lambda t: t, a, use_reentrant=False, bogus=1)
except TypeError as e:
    print("TypeError:", e)
