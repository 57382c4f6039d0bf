# nn.utils.parametrizations: orthogonal, weight_norm, spectral_norm; old-style weight_norm
import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize

torch.manual_seed(0)
orth = parametrizations.orthogonal(nn.Linear(5, 3))
Q = orth.weight
print(Q.shape, torch.dist(Q @ Q.T, torch.eye(3)) < 1e-5)
print(orth)
for m in ["matrix_exp", "cayley", "householder"]:
    l = parametrizations.orthogonal(nn.Linear(4, 4), orthogonal_map=m)
    W = l.weight
    print(m, torch.dist(W.T @ W, torch.eye(4)) < 1e-4)
opt = torch.optim.Adam(orth.parameters(), lr=0.05)
for _ in range(3):
    opt.zero_grad()
    loss = orth(torch.randn(8, 5)).pow(2).sum()
    loss.backward()
    opt.step()
Q = orth.weight
print(torch.dist(Q @ Q.T, torch.eye(3)) < 1e-4)

wn = parametrizations.weight_norm(nn.Linear(4, 2))
print(wn)
print(wn.parametrizations.weight.original0.shape, wn.parametrizations.weight.original1.shape)
print(torch.allclose(wn.parametrizations.weight.original0.squeeze(), wn.weight.norm(dim=1)))
wn(torch.randn(3, 4)).sum().backward()
print(wn.parametrizations.weight.original0.grad.shape)
print(sorted(wn.state_dict().keys()))

old = nn.utils.weight_norm(nn.Linear(4, 2), name="weight")
print(sorted(n for n, _ in old.named_parameters()), old.weight_g.shape)
nn.utils.remove_weight_norm(old)
print(sorted(n for n, _ in old.named_parameters()))

sn = parametrizations.spectral_norm(nn.Linear(6, 4))
torch.manual_seed(3)
sn.train()
for _ in range(10):
    W = sn.weight
print(torch.linalg.matrix_norm(W, 2))
print(sorted(sn.state_dict().keys()))
sn.eval()
print(torch.linalg.matrix_norm(sn.weight, 2))
sn_conv = parametrizations.spectral_norm(nn.Conv2d(2, 3, 3))
print(sn_conv.weight.shape)
print(parametrize.type_before_parametrizations(sn), parametrize.is_parametrized(sn_conv))
old_sn = nn.utils.spectral_norm(nn.Linear(3, 3))
print(sorted(old_sn.state_dict().keys()))
try:
    parametrizations.orthogonal(nn.Linear(3, 3), orthogonal_map="bogus")
except ValueError as e:
    print("ValueError:", e)
try:
    parametrizations.orthogonal(nn.Linear(3, 3), name="nope")
except (ValueError, AttributeError) as e:
    print(type(e).__name__, e)
