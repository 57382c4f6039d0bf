# state_dict / load_state_dict: strict errors, missing/unexpected keys, shapes, assign, buffers
import torch
import torch.nn as nn
from collections import OrderedDict

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self, hidden=4):
        super().__init__()
        self.fc1 = nn.Linear(3, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.fc2 = nn.Linear(hidden, 2)
        self.register_buffer("steps", torch.zeros(()))
        self.register_buffer("tmp", torch.ones(1), persistent=False)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


net = Net()
sd = net.state_dict()
print(list(sd.keys()))
print(type(sd).__name__, sd["bn.num_batches_tracked"], sd["steps"].shape)
print(net.load_state_dict(sd))
bad = OrderedDict(sd)
del bad["fc2.bias"]
bad["extra.weight"] = torch.zeros(1)
try:
    net.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)
res = net.load_state_dict(bad, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
other = Net(hidden=5)
try:
    net.load_state_dict(other.state_dict())
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    net.load_state_dict(other.state_dict(), strict=False)
except RuntimeError as e:
    print("RuntimeError (strict=False):", str(e).splitlines()[0])
w = torch.full((4, 3), 0.5)
net.load_state_dict({**sd, "fc1.weight": w})
print(net.fc1.weight[0], net.fc1.weight is not w, type(net.fc1.weight).__name__)
net.load_state_dict({**sd, "fc1.weight": w}, assign=True)
print(type(net.fc1.weight).__name__, net.fc1.weight.requires_grad)
try:
    net.load_state_dict([1, 2])
except TypeError as e:
    print("TypeError:", e)
print(net.fc1.state_dict(prefix="layer.", keep_vars=True)["layer.weight"].requires_grad)
sub = nn.Sequential(OrderedDict(a=nn.Linear(2, 2), b=nn.Sequential(nn.Linear(2, 2))))
print(list(sub.state_dict().keys()))
print([n for n, _ in sub.named_modules()])
print([n for n, _ in sub.named_parameters(prefix="root")])
print(dict(sub.named_children()).keys())
try:
    sub.get_submodule("b.3")
except AttributeError as e:
    print("AttributeError:", e)
print(sub.get_parameter("b.0.bias").shape)
print(net)
print(net.extra_repr() == "", nn.Linear(2, 3).extra_repr())
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
net.zero_grad()
print(net.fc1.weight.grad)
print(list(dict(net.named_buffers()).keys()))
