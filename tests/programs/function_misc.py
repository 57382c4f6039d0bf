# autograd.Function details: mark_dirty, save_for_forward + jvp, set_materialize_grads,
# non-tensor outputs, double backward through a custom op, returning inputs, gradcheck
import torch
from torch.autograd import Function, gradcheck, gradgradcheck
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)


class AddOneInplace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.randn(3, requires_grad=True)
b = a.clone()
c = AddOneInplace.apply(b)
print(c is b, c.grad_fn.__class__.__name__, b._version)
c.sum().backward()
print(a.grad)
try:
    AddOneInplace.apply(torch.randn(3, requires_grad=True))
except RuntimeError as e:
    print("RuntimeError:", e)


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t


x = torch.randn(4, dtype=torch.double, requires_grad=True)
print(gradcheck(Square.apply, (x,), check_forward_ad=True))
print(gradgradcheck(Square.apply, (x,)))
with fwAD.dual_level():
    print(fwAD.unpack_dual(Square.apply(fwAD.make_dual(x.detach(), torch.ones(4, dtype=torch.double)))).tangent)


class TwoOut(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x * 2, 7

    @staticmethod
    def backward(ctx, g1, g2, g3):
        print("grads None?", g1 is None, g2 is None, g3)
        r = torch.zeros(3)
        if g1 is not None:
            r = r + g1
        if g2 is not None:
            r = r + 2 * g2
        return r


p = torch.ones(3, requires_grad=True)
o1, o2, n = TwoOut.apply(p)
print(n, type(n).__name__)
o2.sum().backward()
print(p.grad)


class Ident(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x, y + 1

    @staticmethod
    def backward(ctx, gx, gy):
        return gx * 3, gy


u = torch.ones(2, requires_grad=True)
v = torch.ones(2, requires_grad=True)
r1, r2 = Ident.apply(u, v)
print(r1 is u, r1.grad_fn.__class__.__name__ if r1.grad_fn else None)
(r1.sum() + r2.sum()).backward()
print(u.grad, v.grad)


class BadGrad(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


try:
    BadGrad.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)


try:
    WrongShape.apply(torch.ones(2, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    Square(torch.ones(1))
except Exception as e:
    print(type(e).__name__, e)
print(Square.apply(torch.tensor(3.0)).requires_grad)
