# torch.func.vmap: in_dims/out_dims, nesting, chunk_size, randomness and its errors
import torch
from torch.func import vmap

torch.manual_seed(0)

x = torch.randn(3, 4)
y = torch.randn(4, 3)
print(vmap(torch.dot)(x, y.t()))
print(vmap(torch.mul, in_dims=(0, None))(x, torch.tensor(2.0)))
print(vmap(lambda a: a.sum(0), in_dims=1)(x))
print(vmap(lambda a: a * 2, out_dims=1)(x).shape)

batched_dot = vmap(vmap(torch.dot))
a, b = torch.randn(2, 3, 5), torch.randn(2, 3, 5)
print(batched_dot(a, b).shape, torch.allclose(batched_dot(a, b), (a * b).sum(-1)))


def f(d):
    return d["a"] + d["b"].sum(), (d["a"] * 2,)


out = vmap(f)({"a": torch.arange(3.0), "b": torch.ones(3, 2)})
print(out)

print(vmap(torch.outer, chunk_size=2)(torch.randn(5, 2), torch.randn(5, 3)).shape)


def g(t):
    return t.new_zeros(2) + t.mean()


print(vmap(g)(x))
print(vmap(torch.trace)(torch.randn(4, 3, 3)).shape)
print(vmap(lambda t: t @ t.T)(torch.randn(2, 3, 3)).shape)

try:
    vmap(torch.add, in_dims=(0, 0))(torch.randn(2, 3), torch.randn(3, 3))
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0][:120])
try:
    vmap(lambda t: torch.rand(1) + t)(torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
torch.manual_seed(1)
r = vmap(lambda t: torch.rand(2) + t, randomness="same")(torch.zeros(3, 2))
print(r.shape, torch.equal(r[0], r[1]))
r = vmap(lambda t: torch.rand(2) + t, randomness="different")(torch.zeros(3, 2))
print(r.shape, torch.equal(r[0], r[1]))
try:
    vmap(lambda t: t.item())(torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
try:
    vmap(torch.sin, in_dims=2)(torch.ones(3))
except ValueError as e:
    print("ValueError:", str(e)[:140])
try:
    vmap(torch.sin)(5.0)
except ValueError as e:
    print("ValueError:", str(e)[:140])
print(vmap(lambda t: (t, 3))(torch.ones(2)) if False else "skip")
