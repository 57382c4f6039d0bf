# Hessians and Hessian-vector products of a network's loss w.r.t. its parameters (torch.func)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, jvp, hessian, vmap, jacrev

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(6, 3)
y = torch.randn(6, 1)


def loss(p):
    return F.mse_loss(functional_call(model, p, (x,)), y)


g = grad(loss)(params)
print({k: tuple(v.shape) for k, v in g.items()})
print(g["2.bias"])
v = {k: torch.randn_like(p) for k, p in params.items()}
H = hessian(loss)(params)
print(type(H).__name__, sorted(H.keys()))
print(H["2.bias"]["2.bias"], tuple(H["0.weight"]["2.weight"].shape))
flat = torch.cat([p.flatten() for p in params.values()])
sizes = [p.numel() for p in params.values()]
shapes = [p.shape for p in params.values()]


def loss_flat(f):
    chunks = torch.split(f, sizes)
    return loss({k: c.view(s) for k, c, s in zip(params, chunks, shapes)})


Hf = hessian(loss_flat)(flat)
print(Hf.shape, torch.allclose(Hf, Hf.T, atol=1e-6))
eig = torch.linalg.eigvalsh(Hf)
print(eig[-3:])
vf = torch.cat([t.flatten() for t in v.values()])
hvp, = torch.func.vjp(grad(loss_flat), flat)[1](vf)
print(hvp[-5:], torch.allclose(Hf @ vf, hvp, atol=1e-5))
per_example = vmap(grad(lambda p, xi, yi: F.mse_loss(functional_call(model, p, (xi,)), yi)),
                   in_dims=(None, 0, 0))(params, x, y)
print(per_example["0.weight"].shape, torch.allclose(per_example["2.bias"].mean(0), g["2.bias"], atol=1e-6))
J = jacrev(lambda p: functional_call(model, p, (x,)).squeeze(-1))(params)
print({k: tuple(v.shape) for k, v in J.items()})
ntk = sum((J[k].flatten(1) @ J[k].flatten(1).T) for k in J)
print(ntk.shape, torch.allclose(ntk, ntk.T, atol=1e-5), ntk.diag()[:3])
