# A small normalizing flow (planar/affine coupling) trained by maximum likelihood with
# torch.distributions: TransformedDistribution, custom Transform with log_abs_det_jacobian
import torch
import torch.nn as nn
import torch.distributions as D
from torch.distributions import constraints


class AffineCoupling(D.Transform):
    domain = constraints.real_vector
    codomain = constraints.real_vector
    bijective = True

    def __init__(self, net, flip):
        super().__init__(cache_size=0)
        self.net = net
        self.flip = flip

    def _split(self, x):
        a, b = x[..., :1], x[..., 1:]
        return (b, a) if self.flip else (a, b)

    def _join(self, a, b):
        return torch.cat([b, a], -1) if self.flip else torch.cat([a, b], -1)

    def _call(self, x):
        a, b = self._split(x)
        s, t = self.net(a).chunk(2, -1)
        return self._join(a, b * torch.exp(torch.tanh(s)) + t)

    def _inverse(self, y):
        a, b = self._split(y)
        s, t = self.net(a).chunk(2, -1)
        return self._join(a, (b - t) * torch.exp(-torch.tanh(s)))

    def log_abs_det_jacobian(self, x, y):
        a, _ = self._split(x)
        s, _ = self.net(a).chunk(2, -1)
        return torch.tanh(s).sum(-1)


torch.manual_seed(0)
nets = nn.ModuleList([nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 2)) for _ in range(4)])
base = D.MultivariateNormal(torch.zeros(2), torch.eye(2))
flow = D.TransformedDistribution(base, [AffineCoupling(n, i % 2 == 1) for i, n in enumerate(nets)])
print(flow.batch_shape, flow.event_shape)
data = torch.randn(256, 2) @ torch.tensor([[1.0, 0.8], [0.0, 0.6]]) + torch.tensor([1.0, -1.0])
opt = torch.optim.Adam(nets.parameters(), lr=1e-2)
for step in range(15):
    opt.zero_grad()
    nll = -flow.log_prob(data).mean()
    nll.backward()
    opt.step()
    if step % 3 == 0:
        print(step, round(nll.item(), 4))
with torch.no_grad():
    s = flow.sample((1000,))
print(s.shape, s.mean(0), torch.cov(s.T))
x = torch.randn(3, 2)
t = flow.transforms[0]
y = t(x)
print(torch.allclose(t.inv(y), x, atol=1e-5))
print(torch.allclose(flow.log_prob(s[:4]), -flow.log_prob(s[:4]).neg(), atol=0))
lp = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.AffineTransform(1.0, 2.0), D.transforms.SigmoidTransform()])
z = lp.sample((4,))
print(z, lp.log_prob(z))
