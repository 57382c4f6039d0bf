# gradient clipping by norm and by value, and a manual clip as in d2l's grad_clipping
import torch
import torch.nn as nn

torch.manual_seed(3)
model = nn.Sequential(nn.Linear(5, 10), nn.Tanh(), nn.Linear(10, 2))
x, y = torch.randn(16, 5) * 10, torch.randn(16, 2)
loss = nn.functional.mse_loss(model(x), y) * 100
loss.backward()
total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total)
print(sum(p.grad.norm() ** 2 for p in model.parameters()).sqrt())
model.zero_grad()
loss = nn.functional.mse_loss(model(x), y) * 100
loss.backward()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)
print(model[0].bias.grad)
model.zero_grad()
nn.functional.mse_loss(model(x), y).backward()
print(nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=float('inf')))
print(nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=1.0))


def grad_clipping(net, theta):
    if isinstance(net, nn.Module):
        params = [p for p in net.parameters() if p.requires_grad]
    else:
        params = net.params
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


model.zero_grad()
nn.functional.mse_loss(model(x), y).mul(50).backward()
grad_clipping(model, 1)
print(model[2].weight.grad)
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec[:5])
nn.utils.vector_to_parameters(vec * 0.5, model.parameters())
print(model[2].bias)
print(nn.utils.get_total_norm([p.grad for p in model.parameters()]) if hasattr(nn.utils, 'get_total_norm') else None)
