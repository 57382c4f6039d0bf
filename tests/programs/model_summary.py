# printing models, counting parameters, named_* walks, and a torchsummary-like table
import torch
import torch.nn as nn

torch.manual_seed(0)


class ResidualBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(out)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
        self.blocks = nn.ModuleList([ResidualBlock(8) for _ in range(2)])
        self.heads = nn.ModuleDict({'cls': nn.Linear(8, 5), 'reg': nn.Linear(8, 1)})
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.emb = nn.Embedding(10, 4, padding_idx=0)
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer('steps', torch.zeros((), dtype=torch.long))

    def forward(self, x):
        x = self.stem(x)
        for b in self.blocks:
            x = b(x)
        x = torch.flatten(self.pool(x), 1) * self.scale
        return {k: h(x) for k, h in self.heads.items()}


model = Net()
print(model)
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"Total params: {total:,}  trainable: {trainable:,}")
for name, p in model.named_parameters():
    print(f"{name:30s} {str(tuple(p.shape)):20s} {p.dtype} {p.requires_grad}")
print([n for n, _ in model.named_buffers()])
print([n for n, _ in model.named_children()])
print(len(list(model.modules())), [n for n, _ in model.named_modules()][:6])
summary = []


def hook(module, inp, out):
    if isinstance(out, torch.Tensor):
        summary.append((module.__class__.__name__, list(out.shape), sum(p.numel() for p in module.parameters(recurse=False))))


hs = [m.register_forward_hook(hook) for m in model.modules() if not list(m.children())]
out = model(torch.randn(2, 3, 16, 16))
for h in hs:
    h.remove()
print("-" * 60)
print("{:>20}  {:>25} {:>12}".format("Layer (type)", "Output Shape", "Param #"))
for i, (n, s, c) in enumerate(summary):
    print("{:>20}  {:>25} {:>12}".format(f"{n}-{i + 1}", str(s), "{0:,}".format(c)))
print(out['cls'].shape, out['reg'])
for p in model.stem.parameters():
    p.requires_grad = False
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
print(model.get_submodule('blocks.1.bn2'))
print(model.heads['cls'].weight.shape, model.emb.weight[0])
model.half() if False else model.double()
print(model.scale.dtype, model.steps.dtype)
print(nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Identity())))
print(nn.LSTM(4, 8, num_layers=2, bidirectional=True, batch_first=True, dropout=0.1))
print(nn.GRU(3, 5), nn.RNN(3, 5, nonlinearity='relu', bias=False))
print(nn.MultiheadAttention(8, 2, batch_first=True))
print(nn.Conv1d(2, 4, 3, stride=2, dilation=2, groups=2, padding_mode='reflect'))
print(nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1))
print(nn.MaxPool2d(3, stride=2, ceil_mode=True), nn.AvgPool1d(2), nn.Dropout2d(0.3))
print(nn.CrossEntropyLoss(label_smoothing=0.1), nn.Upsample(scale_factor=2, mode='bilinear'))
print(nn.Softmax(dim=-1), nn.LeakyReLU(0.01), nn.ELU(alpha=0.5), nn.Hardtanh(-2, 2), nn.GELU(approximate='tanh'))
