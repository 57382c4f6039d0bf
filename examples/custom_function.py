"""A custom autograd.Function (PyTorch's Legendre-polynomial tutorial): its forward and
hand-written backward are checked with gradcheck and gradgradcheck, then
y = a + b * P3(c + d * x) is fitted to sin(x) by plain gradient descent on leaf tensors.

    python examples/custom_function.py            # autograd_core
    python examples/custom_function.py --torch    # the same script under PyTorch
    python examples/custom_function.py --quick    # a few steps
"""
import math
import time

from _common import library_line, parse_args

args = parse_args(__doc__, steps=2000, quick_steps=50)
if args.torch:
    import torch
else:
    import autograd_core as torch
print(library_line(torch))


class LegendrePolynomial3(torch.autograd.Function):
    """P3(x) = (5x^3 - 3x) / 2, with P3'(x) = 3/2 (5x^2 - 1) written by hand."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 0.5 * (5 * x ** 3 - 3 * x)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * x ** 2 - 1)


# The backward is written in differentiable ops, so second derivatives work too.
probe = torch.linspace(-1, 1, 7, dtype=torch.float64, requires_grad=True)
print("gradcheck:", torch.autograd.gradcheck(LegendrePolynomial3.apply, (probe,)),
      " gradgradcheck:", torch.autograd.gradgradcheck(LegendrePolynomial3.apply, (probe,)))

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
a = torch.full((), 0.0, requires_grad=True)
b = torch.full((), -1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True)
d = torch.full((), 0.3, requires_grad=True)
P3 = LegendrePolynomial3.apply
print("graph:", P3(c + d * x).grad_fn.__class__.__name__)

lr = 5e-6
t0 = time.perf_counter()
for step in range(1, args.steps + 1):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= lr * p.grad
            p.grad = None
    if step % 400 == 0 or step == args.steps:
        print(f"step {step:5d}  loss {loss.item():.4f}")
print(f"{args.steps} steps in {time.perf_counter() - t0:.1f} s")
print(f"result: y = {a.item():.4f} + {b.item():.4f} * P3({c.item():.4f} + {d.item():.4f} x)")
print(f"final loss: {loss.item()!r}")
