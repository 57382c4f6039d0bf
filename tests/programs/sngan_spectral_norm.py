# A spectrally normalized GAN (Miyato et al.'s SN-GAN, DCGAN-sized down) on random
# 16x16 data: the discriminator's convolutions use the hook form torch.nn.utils.spectral_norm
# (as most SN-GAN code does) and its last layer the parametrization form
# torch.nn.utils.parametrizations.spectral_norm; hinge loss, a few steps.
import io

import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm
from torch.nn.utils.parametrizations import spectral_norm as sn_param

torch.manual_seed(0)
nz, ngf, ndf = 8, 8, 8


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, 1, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            spectral_norm(nn.Conv2d(1, ndf, 4, 2, 1)),
            nn.LeakyReLU(0.1, inplace=True),
            spectral_norm(nn.Conv2d(ndf, ndf * 2, 4, 2, 1)),
            nn.LeakyReLU(0.1, inplace=True),
        )
        self.fc = sn_param(nn.Linear(ndf * 2 * 4 * 4, 1))

    def forward(self, x):
        return self.fc(self.main(x).flatten(1)).squeeze(1)


netG, netD = Generator(), Discriminator()
print(netD)
print([name for name, _ in netD.named_parameters()])
print(sorted(netD.state_dict().keys()))
print(netD.main[0].weight_u[:4])
print(netD.fc.parametrizations.weight[0]._u[:1], netD.fc.parametrizations.weight[0]._v[:4])

optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.0, 0.9))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.0, 0.9))
real_data = torch.rand(24, 1, 16, 16) * 2 - 1
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(real_data), batch_size=8,
                                     shuffle=True)
for epoch in range(2):
    for i, (real,) in enumerate(loader):
        optD.zero_grad()
        z = torch.randn(real.size(0), nz, 1, 1)
        fake = netG(z)
        lossD = torch.relu(1.0 - netD(real)).mean() + torch.relu(1.0 + netD(fake.detach())).mean()
        lossD.backward()
        optD.step()
        optG.zero_grad()
        lossG = -netD(fake).mean()
        lossG.backward()
        optG.step()
        print(f"[{epoch}/2][{i}/{len(loader)}] Loss_D: {lossD.item():.4f} Loss_G: {lossG.item():.4f}")

# the estimated spectral norms against the exact ones
for name, conv in (("conv0", netD.main[0]), ("conv1", netD.main[2])):
    w = conv.weight_orig.detach().reshape(conv.weight_orig.size(0), -1)
    sigma = torch.dot(conv.weight_u, torch.mv(w, conv.weight_v))
    print(name, f"{sigma.item():.4f}", f"{torch.linalg.matrix_norm(w, 2).item():.4f}")
netD.eval()
print(f"{torch.linalg.matrix_norm(netD.fc.weight.detach(), 2).item():.4f}")

# a checkpoint round trip keeps the power-iteration state
buf = io.BytesIO()
torch.save(netD.state_dict(), buf)
buf.seek(0)
netD2 = Discriminator()
print(netD2.load_state_dict(torch.load(buf)))
netD2.eval()
x = torch.rand(2, 1, 16, 16)
print(netD(x), netD2(x))
torch.nn.utils.remove_spectral_norm(netD.main[0])
torch.nn.utils.parametrize.remove_parametrizations(netD.fc, "weight")
print(netD.main[0], netD.fc, sorted(netD.state_dict().keys())[:4])
