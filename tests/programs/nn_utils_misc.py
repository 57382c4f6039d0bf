# nn.utils: clip_grad_norm_/value_, parameters_to_vector, vector_to_parameters, rnn packing,
# fuse_conv_bn_eval, stateless functional_call, skip_init
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence, pack_sequence

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
model(torch.randn(3, 4)).pow(2).sum().backward()
total = clip_grad_norm_(model.parameters(), max_norm=0.5)
print(total, parameters_to_vector(p.grad for p in model.parameters()).norm())
print(clip_grad_norm_(model.parameters(), 1.0, norm_type="inf"))
clip_grad_value_(model.parameters(), 0.01)
print(model[0].bias.grad)
vec = parameters_to_vector(model.parameters())
print(vec.shape)
vector_to_parameters(torch.zeros_like(vec), model.parameters())
print(model[2].weight.abs().sum())
try:
    clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0, error_if_nonfinite=True)
    p = nn.Parameter(torch.ones(2))
    p.grad = torch.tensor([float("inf"), 1.0])
    clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
padded = pad_sequence(seqs, batch_first=True)
print(padded)
lengths = torch.tensor([3, 1, 2])
packed = pack_padded_sequence(padded.unsqueeze(-1), lengths, batch_first=True, enforce_sorted=False)
print(packed.data.squeeze(-1), packed.batch_sizes, packed.sorted_indices)
rnn = nn.RNN(1, 2, batch_first=True)
out, h = rnn(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens, h.shape)
print(pack_sequence(seqs, enforce_sorted=False).batch_sizes)
try:
    pack_padded_sequence(padded, lengths, batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", e)
conv = nn.Conv2d(2, 3, 3).eval()
bn = nn.BatchNorm2d(3).eval()
bn.running_mean.uniform_()
bn.running_var.uniform_(0.5, 1.5)
fused = torch.nn.utils.fusion.fuse_conv_bn_eval(conv, bn)
xi = torch.randn(1, 2, 5, 5)
print(torch.allclose(fused(xi), bn(conv(xi)), atol=1e-5))
sk = torch.nn.utils.skip_init(nn.Linear, 3, 2)
print(sk.weight.shape)
