# jvp / vjp / linearized directional derivatives of nn modules with torch.func and
# torch.autograd.functional; Gauss-Newton products J^T J v for a small regression model
import torch
import torch.nn as nn
from torch.func import jvp, vjp, functional_call, jacrev

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 5), nn.Softplus(), nn.Linear(5, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(7, 3)


def f(p):
    return functional_call(model, p, (x,))


v = {k: torch.randn_like(t) for k, t in params.items()}
out, Jv = jvp(f, (params,), (v,))
print(out.shape, Jv[:2])
_, vjp_fn = vjp(f, params)
JtJv, = vjp_fn(Jv)
print({k: tuple(t.shape) for k, t in JtJv.items()})
print(JtJv["2.bias"])
J = jacrev(f)(params)
flatJ = torch.cat([J[k].reshape(14, -1) for k in params], 1)
flatv = torch.cat([v[k].flatten() for k in params])
ref = flatJ.T @ (flatJ @ flatv)
mine = torch.cat([JtJv[k].flatten() for k in params])
print(torch.allclose(ref, mine, atol=1e-4))
inp = torch.randn(2, 3, requires_grad=True)
o, jv = torch.autograd.functional.jvp(model, inp, torch.ones(2, 3))
print(jv)
o, vj = torch.autograd.functional.vjp(model, inp, torch.ones(2, 2))
print(vj)
out2, jv2 = jvp(model, (inp.detach(),), (torch.ones(2, 3),))
print(torch.allclose(jv2, jv, atol=1e-6))
gru = nn.GRUCell(3, 4)
h = torch.zeros(2, 4)
_, tan = jvp(lambda a: gru(a, h), (inp.detach(),), (torch.ones(2, 3),))
print(tan.detach(), tan.requires_grad)
_, pull = vjp(lambda a, b: gru(a, b), inp.detach(), h)
ga, gh = pull(torch.ones(2, 4))
print(ga.shape, gh[0])
