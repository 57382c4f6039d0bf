# More distributions: sampling with a seed, log_prob, means, shapes, validation errors
import torch
import torch.distributions as D

torch.manual_seed(0)
dists = {
    "StudentT": D.StudentT(torch.tensor([3.0, 5.0])),
    "Cauchy": D.Cauchy(0.0, 1.0),
    "Gumbel": D.Gumbel(1.0, 2.0),
    "Weibull": D.Weibull(torch.tensor([1.0]), torch.tensor([1.5])),
    "Geometric": D.Geometric(probs=torch.tensor([0.3])),
    "NegativeBinomial": D.NegativeBinomial(5, probs=torch.tensor([0.4])),
    "Multinomial": D.Multinomial(10, probs=torch.tensor([0.2, 0.3, 0.5])),
    "ContinuousBernoulli": D.ContinuousBernoulli(probs=torch.tensor([0.3])),
    "HalfNormal": D.HalfNormal(torch.tensor([1.0])),
    "HalfCauchy": D.HalfCauchy(torch.tensor([1.0])),
    "LogNormal": D.LogNormal(0.0, 0.5),
    "Pareto": D.Pareto(1.0, 2.0),
    "Chi2": D.Chi2(torch.tensor([3.0])),
    "FisherSnedecor": D.FisherSnedecor(torch.tensor([3.0]), torch.tensor([5.0])),
    "Kumaraswamy": D.Kumaraswamy(torch.tensor([2.0]), torch.tensor([3.0])),
    "VonMises": D.VonMises(torch.tensor([0.0]), torch.tensor([2.0])),
    "LowRankMVN": D.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 1), torch.ones(3)),
    "LKJCholesky": D.LKJCholesky(3, 4.0),
    "Wishart": D.Wishart(df=torch.tensor(4.0), covariance_matrix=torch.eye(2)),
    "InverseGamma": D.InverseGamma(torch.tensor([2.0]), torch.tensor([1.0])),
    "LogisticNormal": D.LogisticNormal(torch.zeros(2), torch.ones(2)),
}
for name, d in dists.items():
    s = d.sample((2,))
    lp = d.log_prob(s)
    print(name, tuple(s.shape), tuple(lp.shape), s.flatten()[:3], lp.flatten()[:2])
for name in ["StudentT", "Gumbel", "Geometric", "Chi2", "Pareto", "HalfNormal"]:
    d = dists[name]
    print(name, d.mean, d.variance, d.entropy())
print(D.Geometric(probs=torch.tensor([0.3])).cdf if False else D.Gumbel(0.0, 1.0).cdf(torch.tensor(0.5)))
print(D.kl_divergence(D.Gamma(2.0, 1.0), D.Gamma(3.0, 2.0)), D.kl_divergence(D.Beta(2.0, 2.0), D.Beta(1.0, 3.0)))
print(D.kl_divergence(D.Bernoulli(0.3), D.Bernoulli(0.6)), D.kl_divergence(D.Exponential(1.0), D.Exponential(2.0)))
print(D.kl_divergence(D.Dirichlet(torch.ones(3)), D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))))
print(D.kl_divergence(D.Uniform(0.0, 1.0), D.Normal(0.0, 1.0)), D.kl_divergence(D.Poisson(2.0), D.Poisson(3.0)))
D.Distribution.set_default_validate_args(True)
for bad in [lambda: D.Bernoulli(probs=torch.tensor([1.5])), lambda: D.Categorical(probs=torch.tensor([-0.1, 1.1])),
            lambda: D.Normal(0.0, 1.0).log_prob(torch.tensor("nan" == "x")),
            lambda: D.Poisson(torch.tensor([2.0])).log_prob(torch.tensor([0.5])),
            lambda: D.Beta(torch.tensor([1.0]), torch.tensor([0.0])),
            lambda: D.MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])),
            lambda: D.Categorical(logits=torch.zeros(3)).log_prob(torch.tensor([3]))]:
    try:
        bad()
        print("no error")
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])
print(D.Normal(0.0, 1.0).expand((3,)).batch_shape, D.Categorical(torch.ones(2, 3)).expand((4, 2)).sample().shape)
