# torch.distributions as models use them: Gaussian policies, reparameterized VAEs, KL terms, Bernoulli dropout
import torch
import torch.nn as nn
from torch.distributions import (Normal, Categorical, Bernoulli, Uniform, MultivariateNormal,
                                 OneHotCategorical, kl_divergence)
import torch.distributions as D

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))
log_std = nn.Parameter(torch.zeros(2) - 0.5)
opt = torch.optim.Adam(list(policy.parameters()) + [log_std], lr=1e-2)
for it in range(5):
    obs = torch.randn(8, 3)
    mu = policy(obs)
    dist = Normal(mu, log_std.exp())
    act = dist.sample()
    logp = dist.log_prob(act).sum(-1)
    adv = -(act ** 2).sum(-1)
    loss = -(logp * adv).mean() - 0.01 * dist.entropy().sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, round(loss.item(), 5), dist.batch_shape, dist.event_shape)
print(dist)
q = Normal(torch.zeros(3, requires_grad=True), torch.ones(3))
z = q.rsample((2,))
print(z.shape, z.grad_fn is not None)
p = Normal(torch.tensor([0.5, 0.0, -1.0]), torch.tensor([1.0, 2.0, 0.5]))
kl = kl_divergence(q, p)
print(kl)
kl.sum().backward()
print(q.loc.grad)
print(p.mean, p.stddev, p.variance, p.cdf(torch.tensor(0.)), p.icdf(torch.tensor([0.1, 0.5, 0.9])))
c = Categorical(logits=torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
print(c.sample(), c.sample((3,)).shape, c.log_prob(torch.tensor([2, 0])), c.entropy(), c.probs)
b = Bernoulli(probs=torch.tensor([0.2, 0.9]))
print(b.sample((4,)), b.log_prob(torch.tensor([1., 0.])), b.entropy(), b.mean, b.variance)
u = Uniform(torch.tensor([0.0]), torch.tensor([2.0]))
print(u.sample((3,)), u.log_prob(torch.tensor([1.0])), u.entropy(), u)
mvn = MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 0.5], [0.5, 2.0]]))
print(mvn.sample((2,)), mvn.log_prob(torch.tensor([0.3, -0.2])), mvn.entropy(), mvn)
print(mvn.scale_tril, mvn.covariance_matrix, mvn.batch_shape, mvn.event_shape)
oh = OneHotCategorical(probs=torch.tensor([0.1, 0.6, 0.3]))
print(oh.sample((2,)), oh.log_prob(torch.tensor([0., 1., 0.])), oh.entropy())
print(kl_divergence(Categorical(probs=torch.tensor([0.3, 0.7])), Categorical(probs=torch.tensor([0.5, 0.5]))))
print(kl_divergence(Bernoulli(0.3), Bernoulli(0.6)))
ind = D.Independent(Normal(torch.zeros(4, 3), torch.ones(4, 3)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(4, 3)))
try:
    Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print(e)
try:
    Categorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor(3))
except ValueError as e:
    print(e)
