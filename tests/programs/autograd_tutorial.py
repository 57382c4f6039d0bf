# PyTorch tutorials: "Automatic Differentiation with torch.autograd" and "A Gentle Introduction"
import torch

x = torch.ones(5)
y = torch.zeros(3)
torch.manual_seed(0)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
loss.backward()
print(w.grad)
print(b.grad)
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)
print(Q.grad_fn.next_functions)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
print(x.requires_grad)
y = x.detach()
print(y.requires_grad)
print(x.eq(y).all())
try:
    loss.backward()
except RuntimeError as e:
    print(str(e)[:80])
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy, = torch.autograd.grad(y, x, create_graph=True)
d2y, = torch.autograd.grad(dy, x)
print(dy, d2y)
from torch.autograd.functional import jacobian, hessian
print(jacobian(lambda t: t ** 2, torch.tensor([1., 2.])))
print(hessian(lambda t: (t ** 3).sum(), torch.tensor([1., 2.])))
