# torch.distributions transforms: TransformedDistribution, bijectors, constraints, biject_to
import torch
import torch.distributions as D
import torch.distributions.transforms as T
from torch.distributions import constraints, biject_to, transform_to

torch.manual_seed(0)
base = D.Normal(torch.zeros(2), torch.ones(2))
lognormal = D.TransformedDistribution(base, [T.ExpTransform()])
x = lognormal.sample((3,))
print(x.shape, (x > 0).all())
print(lognormal.log_prob(torch.tensor([1.0, 2.0])))
print(D.LogNormal(torch.zeros(2), torch.ones(2)).log_prob(torch.tensor([1.0, 2.0])))
affine = T.AffineTransform(loc=1.0, scale=3.0)
print(affine(torch.tensor([0.0, 1.0])), affine.inv(torch.tensor([4.0])), affine.log_abs_det_jacobian(torch.tensor(0.0), torch.tensor(1.0)))
comp = T.ComposeTransform([T.AffineTransform(0.0, 2.0), T.SigmoidTransform()])
y = comp(torch.tensor([0.0, 0.5]))
print(y, comp.inv(y), comp.log_abs_det_jacobian(torch.tensor([0.0, 0.5]), y))
print(T.TanhTransform()(torch.tensor([0.5])), T.SoftmaxTransform()(torch.tensor([1.0, 2.0])))
sb = T.StickBreakingTransform()
z = sb(torch.tensor([0.1, -0.3]))
print(z, z.sum(), sb.inv(z))
print(T.PowerTransform(torch.tensor(2.0))(torch.tensor([3.0])))
print(T.LowerCholeskyTransform()(torch.tensor([[1.0, 2.0], [3.0, -4.0]])))
print(T.CorrCholeskyTransform()(torch.tensor([0.3])))
for c in [constraints.positive, constraints.unit_interval, constraints.simplex, constraints.real, constraints.lower_cholesky]:
    try:
        t = biject_to(c)
        print(c, type(t).__name__)
    except NotImplementedError as e:
        print("NotImplementedError:", e)
u = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
pos = transform_to(constraints.positive)(u)
pos.sum().backward()
print(pos, u.grad)
print(constraints.positive.check(torch.tensor([1.0, -1.0])), constraints.interval(0, 1).check(torch.tensor(0.5)))
flow = D.TransformedDistribution(D.Normal(0.0, 1.0), [T.AffineTransform(2.0, 0.5), T.ExpTransform()])
s = flow.rsample((4,))
print(s, flow.log_prob(s))
print(flow.batch_shape, flow.event_shape, flow.support)
r = T.ReshapeTransform((4,), (2, 2))
print(r(torch.arange(4.0)), r.inv(torch.ones(2, 2)).shape)
cat = T.CatTransform([T.ExpTransform(), T.identity_transform], dim=0, lengths=[1, 1])
print(cat(torch.tensor([0.0, 0.0])))
st = T.StackTransform([T.ExpTransform(), T.AbsTransform()], dim=0)
print(st(torch.tensor([1.0, -2.0])))
print(T.ExpTransform().inv, T.ExpTransform() == T.ExpTransform(), T.ExpTransform().sign)
try:
    T.AbsTransform().inv(torch.tensor([1.0])) if False else T.ExpTransform().log_abs_det_jacobian(torch.ones(2), torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", e)
print(T.SigmoidTransform().domain, T.SigmoidTransform().codomain)
