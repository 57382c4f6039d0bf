# Higher-order gradients: gradient penalty, double backward through activations and losses,
# create_graph on nn layers, grad of grad norms
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
for name, fn in [("softplus", F.softplus), ("gelu", F.gelu), ("silu", F.silu), ("elu", F.elu),
                 ("tanh", torch.tanh), ("sigmoid", torch.sigmoid), ("logsigmoid", F.logsigmoid),
                 ("log_softmax", lambda t: F.log_softmax(t, 0)), ("mish", F.mish),
                 ("lse", lambda t: torch.logsumexp(t, 0)), ("norm", lambda t: t.norm()),
                 ("hardswish", F.hardswish), ("celu", F.celu), ("selu", F.selu)]:
    y = fn(x).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    gg, = torch.autograd.grad(g.sum(), x)
    print(name, torch.where(gg.abs() < 1e-5, torch.zeros_like(gg), gg))  # (rounding noise as 0)

D = nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
real = torch.randn(4, 3)
fake = torch.randn(4, 3)
alpha = torch.rand(4, 1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = D(interp)
grads, = torch.autograd.grad(out, interp, grad_outputs=torch.ones_like(out), create_graph=True)
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
gp.backward()
print(round(gp.item(), 5), D[0].weight.grad.norm())
a = torch.randn(3, 3, requires_grad=True)
l = F.mse_loss(a @ a, torch.eye(3)) + F.cross_entropy(a, torch.tensor([0, 2, 1])) + F.smooth_l1_loss(a, torch.zeros(3, 3))
g, = torch.autograd.grad(l, a, create_graph=True)
h, = torch.autograd.grad(g.pow(2).sum(), a)
print(h)
conv = nn.Conv1d(2, 2, 3, padding=1)
inp = torch.randn(1, 2, 5, requires_grad=True)
o = conv(inp).tanh().sum()
gi, = torch.autograd.grad(o, inp, create_graph=True)
gw, = torch.autograd.grad(gi.sum(), conv.weight)
print(gw)
bn = nn.BatchNorm1d(3)
z = torch.randn(6, 3, requires_grad=True)
gz, = torch.autograd.grad(bn(z).pow(3).sum(), z, create_graph=True)
print(torch.autograd.grad(gz.sum(), z)[0][0].abs().max() < 1e-4)
w = torch.tensor([1.0, 2.0], requires_grad=True)
g1 = torch.autograd.grad((w ** 4).sum(), w, create_graph=True)[0]
g2 = torch.autograd.grad(g1.sum(), w, create_graph=True)[0]
g3 = torch.autograd.grad(g2.sum(), w)[0]
print(g1, g2, g3)
lstm = nn.LSTM(2, 3)
seq = torch.randn(4, 1, 2, requires_grad=True)
gs, = torch.autograd.grad(lstm(seq)[0].sum(), seq, create_graph=True)
print(torch.autograd.grad(gs.sum(), lstm.weight_hh_l0)[0].norm())
