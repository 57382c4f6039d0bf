# Extending torch.func with autograd.Function: setup_context, vmap staticmethod, generate_vmap_rule,
# once_differentiable, mark_non_differentiable, needs_input_grad, ctx.set_materialize_grads
import torch
from torch.autograd.function import once_differentiable
from torch.func import grad, vmap, jacrev

torch.manual_seed(0)


class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.randn([])
ggx = grad(grad(my_cube))(x)
print(torch.allclose(ggx, 6 * x))


class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        ind = torch.argsort(x, dim=dim)
        ind_inv = torch.argsort(ind, dim=dim)
        return torch.gather(x, dim, ind), ind, ind_inv

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return torch.gather(grad_output, ctx.dim, ind_inv), None

    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        result = NumpySort.apply(x, dim + 1)
        return result, (0, 0, 0)


x = torch.randn(2, 3)
result = vmap(NumpySort.apply, in_dims=(0, None))(x, 0)
print(torch.allclose(result[0], torch.sort(x, dim=1).values))
xg = torch.randn(4, requires_grad=True)
s, ind, inv = NumpySort.apply(xg, 0)
print(ind.requires_grad, s.grad_fn is not None)
(s * torch.arange(4.0)).sum().backward()
print(xg.grad, torch.argsort(xg.detach()))


class MyExp(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y

    @staticmethod
    def jvp(ctx, t):
        return t * ctx.saved_tensors[0] if False else None


xs = torch.randn(3, 2)
print(torch.allclose(vmap(MyExp.apply)(xs), xs.exp()))
print(torch.allclose(jacrev(MyExp.apply)(xs[0]), torch.diag(xs[0].exp())))


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo):
        ctx.save_for_backward(x)
        ctx.lo = lo
        print("needs_input_grad", ctx.needs_input_grad)
        return x.clamp(min=lo)

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * (x > ctx.lo).to(g.dtype), None


a = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = Clamp.apply(a, 0.0)
gy, = torch.autograd.grad(y.sum(), a, create_graph=True)
print(gy, gy.requires_grad)
try:
    gy.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    vmap(Clamp.apply)(torch.randn(2, 3), 0.0)
except (RuntimeError, ValueError) as e:
    print("RuntimeError:", str(e)[:150])
