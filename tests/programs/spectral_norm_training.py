# Spectral normalisation in a discriminator: power-iteration state in train/eval, state_dict
# round trip, old-style and parametrization-style agree at the same seed
import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm
from torch.nn.utils.parametrizations import spectral_norm as sn_param

torch.manual_seed(0)
D = nn.Sequential(spectral_norm(nn.Linear(4, 8)), nn.LeakyReLU(0.1), spectral_norm(nn.Linear(8, 1)))
opt = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
data = torch.randn(16, 4)
for step in range(3):
    opt.zero_grad()
    loss = torch.relu(1.0 - D(data)).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), torch.linalg.matrix_norm(D[0].weight.detach(), 2))
print(sorted(D.state_dict().keys()))
print(D[0].weight_u[:3], D[0].weight_orig.grad.shape)
D.eval()
w1 = D[0].weight.clone()
D(data)
print(torch.equal(w1, D[0].weight))
sd = D.state_dict()
D2 = nn.Sequential(spectral_norm(nn.Linear(4, 8)), nn.LeakyReLU(0.1), spectral_norm(nn.Linear(8, 1)))
print(D2.load_state_dict(sd))
D2.eval()
print(torch.allclose(D2(data), D(data), atol=1e-6))
torch.manual_seed(1)
P = nn.Sequential(sn_param(nn.Linear(4, 8)), nn.LeakyReLU(0.1), sn_param(nn.Linear(8, 1)))
opt = torch.optim.Adam(P.parameters(), lr=1e-3)
for step in range(3):
    opt.zero_grad()
    loss = torch.relu(1.0 - P(data)).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print(sorted(P.state_dict().keys()))
print(P[0].parametrizations.weight[0]._u[:3])
conv = spectral_norm(nn.Conv2d(3, 6, 3), n_power_iterations=3)
print(conv.weight_u.shape, conv.weight_v.shape)
conv(torch.randn(1, 3, 5, 5))
print(torch.linalg.matrix_norm(conv.weight.flatten(1), 2) <= 1.0 + 1e-3)
try:
    spectral_norm(spectral_norm(nn.Linear(2, 2)))
except RuntimeError as e:
    print("RuntimeError:", e)
