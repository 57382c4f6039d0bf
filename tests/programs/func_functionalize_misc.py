# torch.func odds and ends: functionalize, jacrev chunk_size, vmap with out_dims tuples and None,
# grad through in-place ops, vjp with has_aux, jacfwd randomness, hessian of a vector function
import torch
from torch.func import functionalize, jacrev, jacfwd, vmap, grad, vjp, hessian

torch.manual_seed(0)


def f(a):
    b = a.clone()
    b.add_(1)
    c = b.view(-1)
    c.mul_(2)
    return b


x = torch.randn(2, 2)
print(torch.allclose(functionalize(f)(x), f(x)))
print(torch.allclose(jacrev(functionalize(f))(x), jacrev(f)(x)))
j1 = jacrev(torch.sin, chunk_size=1)(torch.arange(4.0))
print(torch.allclose(j1, torch.diag(torch.arange(4.0).cos())))
out = vmap(lambda t: (t * 2, t.sum()), out_dims=(1, 0))(torch.ones(3, 2))
print(out[0].shape, out[1].shape)
print(vmap(lambda t: (t, torch.zeros(2)), out_dims=(0, None))(torch.ones(3, 2))[1])


def inplace_loss(w):
    h = w * 1.0
    h[0] = h[0] * 3
    h.exp_()
    return h.sum()


print(grad(inplace_loss)(torch.tensor([0.0, 1.0])))
(out, vjp_fn, aux) = vjp(lambda t: (t.exp(), t.sum()), torch.ones(2), has_aux=True)
print(out, vjp_fn(torch.ones(2)), aux)
print(jacfwd(lambda t: t * torch.rand(1).expand(2) * 0 + t, randomness="same")(torch.ones(2)))
H = hessian(lambda t: torch.stack([t.prod(), t.pow(2).sum()]))(torch.tensor([1.0, 2.0, 3.0]))
print(H.shape, H[0])
print(vmap(vmap(lambda a, b: a * b, in_dims=(0, None)), in_dims=(None, 0))(torch.arange(3.0), torch.arange(2.0)))
print(jacrev(lambda d: d["a"] * d["b"])({"a": torch.tensor(2.0), "b": torch.tensor(3.0)}))
print(jacrev(jacrev(lambda t: t.pow(3).sum()))(torch.tensor([1.0, 2.0])))
nested = grad(lambda t: grad(lambda u: (u ** 3).sum())(t).sum())(torch.tensor([1.0, 2.0]))
print(nested)
print(vmap(grad(lambda t: t.norm()))(torch.tensor([[3.0, 4.0], [0.6, 0.8]])))
