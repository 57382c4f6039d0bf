# torch.jit.trace / script and torch.compile on small modules
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MyCell(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)

    def forward(self, x, h):
        new_h = torch.tanh(self.linear(x) + h)
        return new_h, new_h


my_cell = MyCell()
x, h = torch.rand(3, 4), torch.rand(3, 4)
traced_cell = torch.jit.trace(my_cell, (x, h))
print(type(traced_cell).__name__)
print(traced_cell(x, h)[0])
print(torch.allclose(traced_cell(x, h)[0], my_cell(x, h)[0]))


@torch.jit.script
def fn(x: torch.Tensor, n: int) -> torch.Tensor:
    for _ in range(n):
        x = x * 2
    return x


print(fn(torch.ones(2), 3))


class Gate(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


scripted = torch.jit.script(Gate())
print(scripted(torch.tensor([1.0, -2.0])), scripted(torch.tensor([-1.0])))

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
inp = torch.randn(5, 8)


@torch.compile(backend="eager")
def opt_foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


print(opt_foo(torch.ones(3), torch.zeros(3)))


def foo2(x):
    return F.gelu(x) * 2


opt2 = torch.compile(foo2, backend="eager")
print(opt2(torch.tensor([0.0, 1.0, -1.0])))
print(torch.compiler.is_compiling())
torch._dynamo.reset()
traced = torch.jit.trace(model, inp)
print(torch.allclose(traced(inp), model(inp)))
