# Hooks: tensor register_hook, retain_grad, module forward/forward-pre (with kwargs),
# full backward hooks, backward pre hooks, state_dict hooks, removal
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
h = y.register_hook(lambda g: print("y grad", g) or g * 10)
y.retain_grad()
z = (y ** 2).sum()
z.backward()
print(x.grad, y.grad)
h.remove()
x.grad = None
(x * 2).pow(2).sum().backward()
print(x.grad)
x.register_post_accumulate_grad_hook(lambda p: print("accumulated", p.grad))
(x * 3).sum().backward()

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


def fwd_hook(mod, inp, out):
    print("fwd", type(mod).__name__, [tuple(i.shape) for i in inp], tuple(out.shape))


def pre_hook(mod, args, kwargs):
    print("pre", type(mod).__name__, len(args), sorted(kwargs))
    return args, kwargs


def bwd_hook(mod, grad_input, grad_output):
    print("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in grad_input],
          [tuple(g.shape) for g in grad_output])


def bwd_pre_hook(mod, grad_output):
    print("bwd pre", type(mod).__name__, grad_output[0].shape)


handles = [model[0].register_forward_hook(fwd_hook),
           model[2].register_forward_pre_hook(pre_hook, with_kwargs=True),
           model[0].register_full_backward_hook(bwd_hook),
           model[2].register_full_backward_hook(bwd_hook),
           model[1].register_full_backward_pre_hook(bwd_pre_hook)]
inp = torch.randn(5, 3, requires_grad=True)
out = model(inp)
out.sum().backward()


class WithKw(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale


m = WithKw()
m.register_forward_pre_hook(lambda mod, a, kw: (a, {"scale": kw.get("scale", 1.0) * 2}), with_kwargs=True)
m.register_forward_hook(lambda mod, a, kw, o: o + 1, with_kwargs=True)
print(m(torch.ones(2), scale=3.0))
for hd in handles:
    hd.remove()
out = model(inp)
print(len(model[0]._forward_hooks), len(model[0]._backward_hooks))
m2 = nn.Linear(2, 2)
m2.register_forward_hook(lambda mod, i, o: o * 0, always_call=True)
print(m2(torch.ones(1, 2)))
m2.register_state_dict_post_hook(lambda mod, sd, prefix, local_metadata: sd.__setitem__("extra", torch.tensor(1.0)))
print(sorted(m2.state_dict().keys()))
g = nn.modules.module.register_module_forward_hook(lambda mod, i, o: print("global", type(mod).__name__))
nn.Tanh()(torch.zeros(1))
g.remove()
nn.Tanh()(torch.zeros(1))


def bad_hook(mod, gi, go):
    return (torch.ones(7),)


l = nn.Linear(3, 3)
l.register_full_backward_hook(bad_hook)
try:
    l(torch.randn(2, 3, requires_grad=True)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
