# Deliberate misuse of modules, tensors and autograd: each error caught and printed as a user would
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def show(f):
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])


lin = nn.Linear(3, 2)
show(lambda: lin(torch.randn(4, 5)))
show(lambda: lin(torch.randn(4, 3, dtype=torch.float64)))
show(lambda: nn.Conv2d(3, 4, 3)(torch.randn(1, 2, 5, 5)))
show(lambda: nn.Conv2d(3, 4, 3)(torch.randn(1, 3, 2, 2)))
show(lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)))
show(lambda: nn.Embedding(5, 2)(torch.tensor([5])))
show(lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
show(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1, 4])))
show(lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0.0, 1.0, 2.0])))
show(lambda: F.nll_loss(torch.randn(3, 4), torch.tensor([0, 1])))
show(lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
show(lambda: F.mse_loss(torch.randn(3), torch.randn(4)))
show(lambda: nn.LSTM(3, 4)(torch.randn(5, 2, 4)))
show(lambda: nn.MultiheadAttention(5, 2))
show(lambda: nn.Linear(3, 2).load_state_dict({"weight": torch.ones(2, 3)}))
show(lambda: nn.Sequential(nn.Linear(2, 2))[3])
show(lambda: setattr(nn.Linear(2, 2), "weight", torch.ones(2, 2)))
show(lambda: torch.ones(2, requires_grad=True).numpy())
show(lambda: torch.ones(2, requires_grad=True).add_(1))
show(lambda: torch.tensor([1, 2], requires_grad=True))
show(lambda: torch.ones(2).backward())
show(lambda: torch.ones(2, requires_grad=True).sum().backward(torch.ones(2)))
show(lambda: (torch.ones(2, requires_grad=True) * 2).backward())
show(lambda: torch.autograd.grad(torch.ones(2, requires_grad=True).sum(), torch.ones(2)))
show(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
show(lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
show(lambda: torch.stack([torch.ones(2), torch.ones(3)]))
show(lambda: torch.ones(2, 3).view(4))
show(lambda: torch.ones(2, 3).t().view(6))
show(lambda: torch.ones(3)[5])
show(lambda: torch.ones(3).reshape(-1, -1))
show(lambda: torch.zeros(2, 2).index_select(0, torch.tensor([2])))
show(lambda: torch.optim.SGD([], lr=0.1))
show(lambda: torch.optim.Adam([torch.ones(1)], lr=-1))
show(lambda: torch.optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1, momentum=0.9, nesterov=True, dampening=0.5))
show(lambda: torch.nn.utils.clip_grad_norm_([], 1.0))
x = torch.ones(2, requires_grad=True)
y = x * 2
y.sum().backward()
show(lambda: y.sum().backward())
leaf = torch.ones(2, requires_grad=True)
show(lambda: leaf.grad.zero_())
z = leaf.sigmoid()
leaf2 = z.detach()
show(lambda: z.add_(1).sum().backward())
show(lambda: torch.randn(2, 2).det().backward())
show(lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1))
show(lambda: torch.randint(5, 2, (3,)))
show(lambda: torch.arange(0, 10, -1))
show(lambda: torch.full((2,), 1.5, dtype=torch.long))
show(lambda: torch.ones(2).to("cuda"))
