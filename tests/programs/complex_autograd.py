# Complex autograd: Wirtinger gradients, abs/angle/real/imag, complex linear layers, view_as_real
import torch
import torch.nn as nn

torch.manual_seed(0)
z = torch.tensor([1 + 2j, -0.5 + 0.3j], requires_grad=True)
loss = (z.abs() ** 2).sum()
loss.backward()
print(z.grad)
z.grad = None
(z * z.conj()).real.sum().backward()
print(z.grad)
w = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
out = (w.angle() + w.real * 2 - w.imag).sum()
out.backward()
print(w.grad)
print(torch.view_as_real(w.detach()), torch.view_as_complex(torch.tensor([[1.0, 2.0]])))
lin = nn.Linear(4, 2, dtype=torch.cfloat)
print(lin.weight.dtype, lin)
x = torch.randn(5, 4, dtype=torch.cfloat)
y = lin(x)
print(y.dtype, y.shape)
y.abs().mean().backward()
print(lin.weight.grad.dtype, lin.bias.grad)
a = torch.randn(2, 2, dtype=torch.cdouble, requires_grad=True)
print(torch.autograd.gradcheck(lambda m: (m @ m.mH).real.sum() + torch.linalg.det(m).abs(), (a,)))
u = torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 3.14159 / 2]))
print(u)
print(torch.exp(1j * torch.tensor([0.0, 1.0])), (torch.tensor(1j) ** 2))
c = torch.complex(torch.tensor([1.0], requires_grad=True), torch.tensor([2.0], requires_grad=True))
print(c, c.grad_fn)
try:
    (z * 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.randn(2, dtype=torch.cfloat))
print(z.detach().conj().is_conj(), z.detach().conj().resolve_conj().is_conj())
s = torch.sgn(z.detach())
print(s, torch.abs(s))
try:
    torch.tensor([1 + 1j]) < torch.tensor([1 + 0j])
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.linalg.eigvals(torch.tensor([[0.0, -1.0], [1.0, 0.0]])))
