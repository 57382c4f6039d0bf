# Fourier Neural Operator style spectral convolution (complex weights, rfft/irfft, einsum)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SpectralConv1d(nn.Module):
    def __init__(self, in_channels, out_channels, modes):
        super().__init__()
        self.modes = modes
        self.scale = 1 / (in_channels * out_channels)
        self.weights = nn.Parameter(self.scale * torch.rand(in_channels, out_channels, modes, dtype=torch.cfloat))

    def compl_mul1d(self, input, weights):
        return torch.einsum("bix,iox->box", input, weights)

    def forward(self, x):
        batchsize = x.shape[0]
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(batchsize, self.weights.shape[1], x.size(-1) // 2 + 1, dtype=torch.cfloat)
        out_ft[:, :, :self.modes] = self.compl_mul1d(x_ft[:, :, :self.modes], self.weights)
        return torch.fft.irfft(out_ft, n=x.size(-1))


class FNO1d(nn.Module):
    def __init__(self, modes, width):
        super().__init__()
        self.fc0 = nn.Linear(2, width)
        self.conv0 = SpectralConv1d(width, width, modes)
        self.conv1 = SpectralConv1d(width, width, modes)
        self.w0 = nn.Conv1d(width, width, 1)
        self.w1 = nn.Conv1d(width, width, 1)
        self.fc1 = nn.Linear(width, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        grid = torch.linspace(0, 1, x.shape[1]).reshape(1, -1, 1).repeat(x.shape[0], 1, 1)
        x = torch.cat((x, grid), dim=-1)
        x = self.fc0(x).permute(0, 2, 1)
        x = F.gelu(self.conv0(x) + self.w0(x))
        x = self.conv1(x) + self.w1(x)
        x = x.permute(0, 2, 1)
        return self.fc2(F.gelu(self.fc1(x)))


model = FNO1d(modes=8, width=16)
print(model.conv0.weights.dtype, model.conv0.weights.shape)
print(sum(p.numel() for p in model.parameters()))
x = torch.randn(4, 32, 1)
y = torch.sin(x.cumsum(1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(5):
    opt.zero_grad()
    out = model(x)
    loss = F.mse_loss(out, y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
g = model.conv0.weights.grad
print(g.dtype, g.shape, g[0, 0, :2])
print(model.conv0.weights[0, 0, :2])
print(torch.fft.rfft(torch.arange(8.0)))
print(torch.fft.fftfreq(6), torch.fft.rfftfreq(6, d=0.5))
z = torch.randn(4, dtype=torch.cfloat, requires_grad=True)
(torch.fft.ifft(torch.fft.fft(z)).abs() ** 2).sum().backward()
print(z.grad)
print(torch.fft.fftshift(torch.arange(6)), torch.fft.fft2(torch.eye(2)))
