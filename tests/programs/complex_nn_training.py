# A complex-valued network trained with Adam: complex Linear/Conv1d, modReLU, real loss
import torch
import torch.nn as nn

torch.manual_seed(0)


class ModReLU(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.b = nn.Parameter(torch.zeros(n))

    def forward(self, z):
        mag = z.abs()
        return torch.relu(mag + self.b) * z / (mag + 1e-6)


class CNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, 3, padding=1, dtype=torch.cfloat)
        self.act = ModReLU(4)
        self.fc = nn.Linear(4 * 8, 2, dtype=torch.cfloat)

    def forward(self, z):
        h = self.conv(z)
        h = self.act(h.transpose(1, 2)).transpose(1, 2)
        return self.fc(h.flatten(1))


net = CNet()
print(net)
print([(n, p.dtype) for n, p in net.named_parameters()])
t = torch.linspace(0, 1, 8)
z = torch.exp(2j * torch.pi * t * torch.arange(1, 5).unsqueeze(1)).unsqueeze(1).to(torch.cfloat)
target = torch.randn(4, 2, dtype=torch.cfloat)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(5):
    opt.zero_grad()
    out = net(z)
    loss = (out - target).abs().pow(2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print(net.fc.bias.grad)
print(net.conv.weight.grad.abs().sum())
sgd = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for _ in range(2):
    sgd.zero_grad()
    (net(z) - target).abs().mean().backward()
    sgd.step()
print(net.fc.bias)
print(torch.view_as_real(net.fc.bias).shape)
opt2 = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=0.1)
opt2.zero_grad()
(net(z).real.sum()).backward()
opt2.step()
print(net.act.b)
