# torch.func.grad / grad_and_value / has_aux / argnums / functional_call with buffers
import torch
import torch.nn as nn
from torch.func import grad, grad_and_value, functional_call, vjp, jvp

torch.manual_seed(0)

x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
print(torch.allclose(cos_x, x.cos()))
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
print(torch.allclose(neg_sin_x, -x.sin()))


def loss(w, b, inp):
    y = inp @ w + b
    return (y ** 2).mean(), y.detach()


w, b, inp = torch.randn(3), torch.randn(()), torch.randn(4, 3)
gw, aux = grad(loss, has_aux=True)(w, b, inp)
print(gw, aux.shape)
(gw2, gb2), aux2 = grad(loss, argnums=(0, 1), has_aux=True)(w, b, inp)
print(gb2, torch.equal(gw, gw2))
(g, v) = grad_and_value(lambda t: (t ** 3).sum())(torch.tensor([1.0, 2.0]))
print(g, v)

model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
params = dict(model.named_parameters())
buffers = dict(model.named_buffers())
print(sorted(buffers))
out = functional_call(model, {**params, **buffers}, (inp,))
print(out.shape, out.grad_fn is not None)
print(model[1].running_mean)
new_params = {k: torch.zeros_like(v) for k, v in params.items()}
print(functional_call(model, new_params, (inp,)).squeeze())
print(model[0].weight.abs().sum() > 0)


def f(p, x):
    return functional_call(model, p, (x,)).sum()


model.eval()
grads = grad(f)(params, inp)
print({k: tuple(v.shape) for k, v in grads.items()})
print(grads["3.bias"])

primal = torch.randn(3)
out, jvp_out = jvp(torch.sin, (primal,), (torch.ones(3),))
print(torch.allclose(jvp_out, primal.cos()))
out, vjp_fn = vjp(lambda a, b: a * b, torch.ones(2), torch.full((2,), 3.0))
print(vjp_fn(torch.ones(2)))

try:
    grad(lambda t: t * 2)(torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    grad(lambda t: t.sum())(torch.ones(3, dtype=torch.long))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    functional_call(model, {"nope": torch.ones(1)}, (inp,), strict=True)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
