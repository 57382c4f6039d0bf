# torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp

torch.manual_seed(0)


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True).grad_fn is not None)


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))
print(jacobian(exp_adder, inputs, vectorize=True, strategy="forward-mode"))


def pow_reducer(x):
    return x.pow(3).sum()


inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs).shape)
print(hessian(pow_reducer, inputs)[0, 0])


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


inputs = (torch.rand(2), torch.rand(2))
h = hessian(pow_adder_reducer, inputs)
print(h)

inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))


def adder(x, y):
    return 2 * x + 3 * y


inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))
inputs = torch.rand(4, 4)
v = torch.ones(4, 4)
print(jvp(exp_reducer, inputs, v))
inputs = (torch.rand(2), torch.rand(2))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v))
try:
    vjp(exp_reducer, torch.rand(4, 4), torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    jacobian(lambda x: x.detach() * 2, torch.rand(3), strict=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(jacobian(lambda x: x.detach() * 2, torch.rand(3)))
