# torch.distributions: sample / rsample / log_prob / entropy / kl / cdf / batch and event shapes
import torch
import torch.distributions as D
from torch.distributions import kl_divergence

torch.manual_seed(0)
loc = torch.zeros(3, requires_grad=True)
scale = torch.ones(3)
n = D.Normal(loc, scale)
print(n, n.batch_shape, n.event_shape)
s = n.rsample((2,))
print(s.shape, s.requires_grad)
lp = n.log_prob(s).sum()
lp.backward()
print(loc.grad)
print(n.entropy(), n.cdf(torch.tensor(0.5)), n.icdf(torch.tensor([0.1, 0.5, 0.9])))
print(n.mean, n.stddev, n.variance)
mvn = D.MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(mvn, mvn.batch_shape, mvn.event_shape, mvn.sample().shape)
print(mvn.log_prob(torch.tensor([0.3, -0.2])), mvn.entropy(), mvn.scale_tril)
c = D.Categorical(logits=torch.tensor([0.1, 0.2, 0.7]))
print(c.sample((5,)), c.probs, c.entropy(), c.log_prob(torch.tensor([0, 2])))
b = D.Bernoulli(probs=torch.tensor([0.3, 0.9]))
print(b.sample(), b.log_prob(torch.tensor([1.0, 0.0])), b.entropy())
print(D.Beta(torch.tensor([2.0]), torch.tensor([3.0])).rsample((2,)))
g = D.Gamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 0.5]))
print(g.sample(), g.mean, g.log_prob(torch.tensor([1.0, 2.0])))
dirich = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
print(dirich.sample(), dirich.entropy())
print(D.Poisson(torch.tensor([4.0])).sample((3,)), D.Poisson(4.0).log_prob(torch.tensor(2.0)))
print(D.Uniform(0.0, 2.0).sample((3,)), D.Uniform(0.0, 2.0).log_prob(torch.tensor(3.0)) if False else "")
ind = D.Independent(D.Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1)
print(ind, ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(3, 2)))
p, q = D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)
print(kl_divergence(p, q), kl_divergence(D.Categorical(probs=torch.tensor([0.5, 0.5])), D.Categorical(probs=torch.tensor([0.9, 0.1]))))
print(kl_divergence(mvn, D.MultivariateNormal(torch.ones(2), torch.eye(2))))
mix = D.MixtureSameFamily(D.Categorical(torch.ones(2)), D.Normal(torch.tensor([-1.0, 1.0]), torch.tensor([0.5, 0.5])))
print(mix.sample((3,)), mix.log_prob(torch.tensor([0.0, 1.0])), mix.mean, mix.variance)
print(D.Binomial(10, torch.tensor([0.2, 0.8])).sample(), D.Binomial(10, 0.5).log_prob(torch.tensor(3.0)))
print(D.Exponential(torch.tensor([2.0])).rsample((2,)), D.Laplace(0.0, 1.0).cdf(torch.tensor(0.3)))
print(D.OneHotCategorical(torch.tensor([0.2, 0.8])).sample((2,)))
print(D.RelaxedOneHotCategorical(torch.tensor(0.5), probs=torch.tensor([0.2, 0.8])).rsample())
try:
    D.Normal(0.0, -1.0)
except ValueError as e:
    print("ValueError:", e)
try:
    n.log_prob(torch.zeros(4))
except (ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    kl_divergence(D.Beta(1.0, 1.0), D.Poisson(1.0))
except NotImplementedError as e:
    print("NotImplementedError", e)
print(D.Categorical(probs=torch.tensor([0.2, 0.8])).support, D.Normal(0.0, 1.0).support)
