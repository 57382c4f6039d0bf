# Forward-mode AD through nn layers: jvp vs finite differences, dual tensors through conv/bn/ln/rnn
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, functional_call

torch.manual_seed(0)
layers = {
    "conv": nn.Conv2d(2, 3, 3, padding=1),
    "bn": nn.BatchNorm2d(2),
    "ln": nn.LayerNorm([2, 5, 5]),
    "gn": nn.GroupNorm(1, 2),
    "pool": nn.MaxPool2d(2),
    "up": nn.Upsample(scale_factor=2, mode="bilinear"),
    "drop2d": nn.Identity(),
}
x = torch.randn(2, 2, 5, 5, dtype=torch.float64)
t = torch.randn_like(x)
for name, layer in layers.items():
    layer = layer.double()
    with fwAD.dual_level():
        out = layer(fwAD.make_dual(x, t))
        tan = fwAD.unpack_dual(out).tangent
    eps = 1e-6
    fd = (layer(x + eps * t) - layer(x - eps * t)) / (2 * eps)
    print(name, tuple(tan.shape), torch.allclose(tan, fd, atol=1e-5))

rnn = nn.GRU(4, 3, batch_first=True).double()
seq = torch.randn(2, 5, 4, dtype=torch.float64)
dseq = torch.randn_like(seq)
_, (tan_out) = jvp(lambda s: rnn(s)[0], (seq,), (dseq,))
fd = (rnn(seq + 1e-6 * dseq)[0] - rnn(seq - 1e-6 * dseq)[0]) / 2e-6
print("gru", torch.allclose(tan_out, fd, atol=1e-5))

mlp = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 2), nn.LogSoftmax(-1)).double()
params = dict(mlp.named_parameters())
tangents = {k: torch.randn_like(v) for k, v in params.items()}
inp = torch.randn(3, 4, dtype=torch.float64)
out, jv = jvp(lambda p: functional_call(mlp, p, (inp,)), (params,), (tangents,))
plus = functional_call(mlp, {k: params[k] + 1e-6 * tangents[k] for k in params}, (inp,))
minus = functional_call(mlp, {k: params[k] - 1e-6 * tangents[k] for k in params}, (inp,))
print("mlp params", torch.allclose(jv, (plus - minus) / 2e-6, atol=1e-5))

with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))
    y = d.clone()
    y.mul_(3)
    y[1] = d[0] * 5
    print(fwAD.unpack_dual(y).tangent)
    z = torch.cat([d, d.exp()])
    print(fwAD.unpack_dual(z).tangent)
    s = F.softmax(d, 0)
    print(fwAD.unpack_dual(s).tangent)
    w = torch.where(d > 1.5, d ** 2, -d)
    print(fwAD.unpack_dual(w).tangent)
    print(fwAD.unpack_dual(d.sum()).tangent, fwAD.unpack_dual(d.norm()).tangent)
    print(fwAD.unpack_dual(torch.linalg.norm(d.reshape(1, 2), dim=1)).tangent)
