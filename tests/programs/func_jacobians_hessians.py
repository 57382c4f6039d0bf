# torch.func tutorial: "Jacobians, Hessians, hvp, vhp, and more"
import torch
import torch.nn.functional as F
from functools import partial
from torch.func import jacrev, jacfwd, hessian, vmap, vjp, jvp

torch.manual_seed(0)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 16
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)

jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(jacobian.shape)
print(jacobian[0, :4])

unit_vectors = torch.eye(D)
_, vjp_fn = vjp(partial(predict, weight, bias), x)
ft_jacobian, = vmap(vjp_fn)(unit_vectors)
print(torch.allclose(ft_jacobian, jacobian))

ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(ft_jac_bias[:2, :3])

jacfwd_j = jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jacfwd_j, jacobian, atol=1e-6))

Dout = 4
weight2 = torch.randn(Dout, D)
bias2 = torch.randn(Dout)
print(jacfwd(predict, argnums=2)(weight2, bias2, x).shape)

hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdrev = jacfwd(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape, torch.allclose(hess_api, hess_fwdrev, atol=1e-5))
print(hess_api[0, 0, :3])

batch_size = 8
xb = torch.randn(batch_size, D)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, xb)
print(batch_jacobian0.shape)


def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)


batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, xb).movedim(1, 0)
print(torch.allclose(batch_jacobian0, batch_jacobian1, atol=1e-6))

compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
print(compute_batch_hessian(weight, bias, xb).shape)


def hvp(f, primals, tangents):
    return jvp(grad_f := torch.func.grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


xx = torch.randn(5)
tangent = torch.randn(5)
print(hvp(f, (xx,), (tangent,)))
print(-xx.sin() * tangent)
