# Hooks during training: gradient scaling through tensor hooks, activation capture, a module
# backward hook clipping grads, forward hook returning a modified output, hooks and no_grad
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
acts = {}


def save(name):
    def hook(mod, inp, out):
        acts[name] = out.detach()
    return hook


for name, m in model.named_modules():
    if isinstance(m, nn.Linear):
        m.register_forward_hook(save(name))
for p in model.parameters():
    p.register_hook(lambda g: g * 0.5)
model[2].register_full_backward_hook(lambda m, gi, go: (gi[0].clamp(-0.01, 0.01),))
model[1].register_forward_hook(lambda m, i, o: o * 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(5, 4)
y = torch.randint(0, 3, (5,))
for step in range(3):
    opt.zero_grad()
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), model[0].weight.grad.abs().max(), sorted(acts))
print(acts["2"][:2])
with torch.no_grad():
    model(x)
print(acts["0"].shape)
seen = []
t = torch.ones(3, requires_grad=True)
t.register_hook(lambda g: seen.append(("first", g.clone())))
t.register_hook(lambda g: g + 1)
t.register_hook(lambda g: seen.append(("third", g.clone())))
(t * t).sum().backward()
print(seen, t.grad)
u = torch.ones(2, requires_grad=True)
v = u * 3
v.register_hook(lambda g: print("v hook", g))
w = v.clone()
w.retain_grad()
w.register_hook(lambda g: g * 10)
w.sum().backward()
print(w.grad, u.grad)
net = nn.Linear(2, 2)
handle = net.register_forward_pre_hook(lambda m, inp: (inp[0] * 0,))
print(net(torch.ones(1, 2)) - net.bias)
handle.remove()
print(len(net._forward_pre_hooks))
lin = nn.Linear(3, 3)
calls = []
lin.register_full_backward_pre_hook(lambda m, go: calls.append("pre") or None)
lin.register_full_backward_hook(lambda m, gi, go: calls.append("post") or None)
lin(torch.randn(2, 3, requires_grad=True)).sum().backward()
lin(torch.randn(2, 3)).sum().backward()
print(calls)
