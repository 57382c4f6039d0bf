# Spectral methods with torch.fft: solving the periodic Poisson equation, spectral derivative,
# convolution theorem, 2-D low-pass filter, gradients through the solver
import math
import torch

torch.manual_seed(0)
N = 32
xs = torch.arange(N, dtype=torch.float64) * 2 * math.pi / N
f = torch.sin(3 * xs) + 0.5 * torch.cos(5 * xs)
k = torch.fft.fftfreq(N, d=1.0 / N).to(torch.float64)
df = torch.fft.ifft(1j * k * torch.fft.fft(f)).real
print(torch.allclose(df, 3 * torch.cos(3 * xs) - 2.5 * torch.sin(5 * xs), atol=1e-10))
k2 = k ** 2
k2[0] = 1.0
u_hat = -torch.fft.fft(f) / k2
u_hat[0] = 0
u = torch.fft.ifft(u_hat).real
print(torch.allclose(u, -torch.sin(3 * xs) / 9 - 0.5 * torch.cos(5 * xs) / 25, atol=1e-10))
a, b = torch.randn(16), torch.randn(16)
circ = torch.fft.irfft(torch.fft.rfft(a) * torch.fft.rfft(b), n=16)
direct = torch.stack([sum(a[j] * b[(i - j) % 16] for j in range(16)) for i in range(16)])
print(torch.allclose(circ, direct, atol=1e-5))
img = torch.randn(1, 16, 16)
F2 = torch.fft.fftshift(torch.fft.fft2(img), dim=(-2, -1))
mask = torch.zeros(16, 16)
mask[4:12, 4:12] = 1
low = torch.fft.ifft2(torch.fft.ifftshift(F2 * mask, dim=(-2, -1))).real
print(low.shape, low.std() < img.std(), low[0, 0, :4])
src = torch.randn(N, dtype=torch.float64, requires_grad=True)
sol = torch.fft.irfft(torch.fft.rfft(src) / (1 + torch.fft.rfftfreq(N, d=1.0 / N) ** 2), n=N)
loss = (sol ** 2).sum()
loss.backward()
print(src.grad[:4])
print(torch.autograd.gradcheck(lambda s: torch.fft.irfft(torch.fft.rfft(s) * 2, n=N), (src,)))
c = torch.randn(8, dtype=torch.cdouble, requires_grad=True)
print(torch.autograd.gradcheck(lambda z: torch.fft.fftn(z, norm="ortho"), (c,)))
print(torch.autograd.gradcheck(lambda z: torch.fft.hfft(z, n=14), (c,)))
print(torch.fft.fft(torch.eye(3), dim=0))
