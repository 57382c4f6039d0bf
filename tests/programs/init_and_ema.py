# weight initialisation schemes, weight tying, an EMA of the weights, freezing, param groups
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(6, 4)
for name, fn in [("xavier_uniform", lambda w: nn.init.xavier_uniform_(w)),
                 ("xavier_normal", lambda w: nn.init.xavier_normal_(w, gain=nn.init.calculate_gain('tanh'))),
                 ("kaiming_uniform", lambda w: nn.init.kaiming_uniform_(w, a=math.sqrt(5))),
                 ("kaiming_normal", lambda w: nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')),
                 ("trunc_normal", lambda w: nn.init.trunc_normal_(w, std=0.02)),
                 ("orthogonal", lambda w: nn.init.orthogonal_(w)),
                 ("constant", lambda w: nn.init.constant_(w, 0.3)),
                 ("uniform", lambda w: nn.init.uniform_(w, -0.1, 0.1)),
                 ("normal", lambda w: nn.init.normal_(w, 0, 0.5)),
                 ("eye", lambda w: nn.init.eye_(w)),
                 ("sparse", lambda w: nn.init.sparse_(w, 0.5))]:
    with torch.no_grad():
        fn(lin.weight)
    print(f"{name:16s} mean {lin.weight.mean().item():+.5f} std {lin.weight.std().item():.5f}")
print(nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('selu'))


class TiedLM(nn.Module):
    def __init__(self, v=10, d=4):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.proj = nn.Linear(d, v, bias=False)
        self.proj.weight = self.emb.weight

    def forward(self, x):
        return self.proj(torch.tanh(self.emb(x)))


model = TiedLM()
print(len(list(model.parameters())), list(model.state_dict().keys()), model.proj.weight is model.emb.weight)
ema = {k: v.detach().clone() for k, v in model.state_dict().items()}
opt = torch.optim.AdamW([{"params": [model.emb.weight], "lr": 0.05, "weight_decay": 0.1}], lr=0.01)
x = torch.randint(0, 10, (3, 5))
for step in range(5):
    loss = nn.functional.cross_entropy(model(x[:, :-1]).reshape(-1, 10), x[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for k, v in model.state_dict().items():
            ema[k].mul_(0.9).add_(v, alpha=0.1)
    print(step, round(loss.item(), 6), ema['emb.weight'][0])
for p in model.emb.parameters():
    p.requires_grad_(False)
print([p.requires_grad for p in model.parameters()], opt.param_groups[0]['weight_decay'], opt.defaults['lr'])
print(opt.state_dict()['param_groups'])
