# nn containers and reprs: ModuleList/ModuleDict/ParameterList/ParameterDict/Sequential slicing,
# named_modules with shared modules, apply, children, extra_repr of many layers
import torch
import torch.nn as nn
from collections import OrderedDict

torch.manual_seed(0)
shared = nn.Linear(2, 2)
net = nn.Sequential(OrderedDict([("a", shared), ("act", nn.ReLU()), ("b", shared),
                                 ("head", nn.ModuleDict({"x": nn.Linear(2, 1), "y": nn.Identity()}))]))
print(net)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_modules(remove_duplicate=False)])
print([n for n, _ in net.named_parameters()])
print(len(list(net.parameters())), len(list(net.parameters(recurse=False))))
print(net[0:2], type(net[0:2]).__name__)
print(net[-1]["x"], net.a is net.b)
ml = nn.ModuleList([nn.Linear(i, i + 1) for i in range(1, 4)])
ml.append(nn.Tanh())
ml.extend([nn.Sigmoid()])
ml.insert(0, nn.Dropout(0.1))
print(ml)
print(len(ml), ml[-1], ml[1:3])
pl = nn.ParameterList([nn.Parameter(torch.randn(2)), nn.Parameter(torch.randn(3, 3))])
print(pl)
pd = nn.ParameterDict({"alpha": nn.Parameter(torch.ones(1)), "beta": nn.Parameter(torch.zeros(2, 2))})
print(pd)
print(sorted(pd.keys()), "alpha" in pd)
layers = [nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), nn.ConvTranspose2d(8, 3, 4, 2, 1),
          nn.BatchNorm2d(8, momentum=None), nn.LSTM(4, 8, num_layers=2, dropout=0.1, bidirectional=True),
          nn.Embedding(10, 3, padding_idx=0), nn.MultiheadAttention(8, 2, batch_first=True),
          nn.TransformerEncoderLayer(8, 2, 16), nn.LayerNorm((4,), elementwise_affine=False),
          nn.Upsample(scale_factor=2.0, mode="nearest"), nn.AdaptiveAvgPool2d((1, 1)),
          nn.MaxPool2d(3, stride=2, ceil_mode=True), nn.Dropout2d(0.2), nn.Flatten(0, -1),
          nn.Unflatten(1, (2, 2)), nn.GRUCell(3, 4), nn.PixelShuffle(2), nn.Softmax(dim=-1),
          nn.LeakyReLU(0.2, inplace=True), nn.ELU(alpha=0.5), nn.Hardtanh(-2, 2), nn.CrossEntropyLoss(label_smoothing=0.1),
          nn.Bilinear(2, 3, 4), nn.EmbeddingBag(5, 2, mode="max"), nn.GroupNorm(2, 4), nn.InstanceNorm1d(3, affine=True)]
for l in layers:
    print(l)
counts = {}
net.apply(lambda m: counts.__setitem__(type(m).__name__, counts.get(type(m).__name__, 0) + 1))
print(counts)
print([type(c).__name__ for c in net.children()])
net.add_module("extra", nn.GELU(approximate="tanh"))
print(net.extra)
try:
    net.add_module("a.b", nn.ReLU())
except KeyError as e:
    print("KeyError:", e)
try:
    nn.ModuleList([1])
except TypeError as e:
    print("TypeError:", e)
try:
    net.register_parameter("w", torch.ones(1))
except TypeError as e:
    print("TypeError:", e)
print(net.training, net.eval().training, net.head.x.training)
print(nn.Sequential(nn.Linear(2, 2)).requires_grad_(False)[0].weight.requires_grad)
