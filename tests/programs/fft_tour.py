# torch.fft: transforms, norms, real/hermitian variants, shifts, grads, windows + stft
import torch

torch.manual_seed(0)
x = torch.arange(8, dtype=torch.float32)
X = torch.fft.fft(x)
print(X)
print(torch.fft.ifft(X).real)
for norm in ["backward", "ortho", "forward"]:
    print(norm, torch.fft.fft(x, norm=norm)[:2], torch.fft.rfft(x, n=6, norm=norm))
print(torch.fft.irfft(torch.fft.rfft(x)), torch.fft.irfft(torch.fft.rfft(x), n=7).shape)
print(torch.fft.hfft(torch.tensor([1.0, 2j, 3.0])), torch.fft.ihfft(x))
img = torch.randn(2, 4, 6)
print(torch.fft.fft2(img).shape, torch.fft.rfft2(img).shape, torch.fft.rfftn(img, dim=(0, 2)).shape)
print(torch.allclose(torch.fft.irfftn(torch.fft.rfftn(img), s=img.shape), img, atol=1e-5))
print(torch.fft.fftshift(torch.fft.fftfreq(5)), torch.fft.ifftshift(torch.arange(5)))
print(torch.fft.fft(torch.tensor([1, 2, 3])).dtype, torch.fft.fft(torch.tensor([1.0], dtype=torch.float64)).dtype)
a = torch.randn(6, requires_grad=True)
power = torch.fft.rfft(a).abs().pow(2).sum()
power.backward()
print(a.grad)
b = torch.randn(5, dtype=torch.cfloat, requires_grad=True)
torch.fft.fft(b, norm="ortho").real.sum().backward()
print(b.grad)
c = torch.randn(8, requires_grad=True)
torch.fft.irfft(torch.fft.rfft(c) * torch.linspace(1, 0, 5)).sum().backward()
print(c.grad)
w = torch.hann_window(8)
print(w, torch.hamming_window(5, periodic=False), torch.blackman_window(4))
sig = torch.sin(torch.linspace(0, 20, 64))
S = torch.stft(sig, n_fft=16, hop_length=4, window=torch.hann_window(16), return_complex=True)
print(S.shape, S.dtype, S.abs()[:3, 0])
rec = torch.istft(S, n_fft=16, hop_length=4, window=torch.hann_window(16), length=64)
print(torch.allclose(rec, sig, atol=1e-5))
try:
    torch.fft.fft(x, dim=3)
except IndexError as e:
    print("IndexError:", e)
try:
    torch.fft.fft(x, norm="bogus")
except (ValueError, RuntimeError) as e:
    print(type(e).__name__ + ":", e)
try:
    torch.fft.irfft(torch.ones(1, dtype=torch.cfloat))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.stft(sig, 16)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
