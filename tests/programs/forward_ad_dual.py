# Tutorial: "Forward-mode Automatic Differentiation (Beta)"
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call, jvp

torch.manual_seed(0)

primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    print(fwAD.unpack_dual(dual_input_alt).tangent is tangent)
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp_out = fwAD.unpack_dual(dual_output).tangent
    print(torch.allclose(jvp_out, 2 * primal * tangent))
    p, t = fwAD.unpack_dual(dual_output)
    print(type(fwAD.unpack_dual(dual_output)).__name__, p.shape, t[0, :3])
print(fwAD.unpack_dual(dual_output).tangent)

model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp_m = fwAD.unpack_dual(out).tangent
print(jvp_m.shape, jvp_m[0])

model = nn.Linear(5, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp_out = fwAD.unpack_dual(out).tangent


def func(params, input):
    return functional_call(model, params, input)


_, jvp_out2 = jvp(func, (params, input), (tangents, torch.zeros_like(input)))
print(torch.allclose(jvp_out, jvp_out2, atol=1e-6))


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


fn = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp_output = fwAD.unpack_dual(dual_output).tangent
print(torch.allclose(jvp_output, tangent * primal.exp().detach()))
from torch.autograd.gradcheck import gradcheck
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10, dtype=torch.double)
print(gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))
try:
    with fwAD.dual_level():
        fwAD.make_dual(torch.randn(3), torch.randn(4))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    fwAD.make_dual(torch.randn(3), torch.randn(3))
except RuntimeError as e:
    print("RuntimeError:", e)
