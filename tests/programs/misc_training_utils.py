# things training scripts do around the loop: default dtype, no_grad as a decorator,
# anomaly detection, printing state dicts and optimizers, DataLoader workers, checkpoints
import os
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype(), torch.zeros(1).dtype, torch.tensor([1.5]).dtype, nn.Linear(1, 1).weight.dtype)
torch.set_default_dtype(torch.float32)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))


@torch.no_grad()
def evaluate(model, x):
    model.eval()
    return model(x)


out = evaluate(model, torch.randn(5, 3))
print(out.requires_grad, out.shape)
print(model.state_dict())
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
print(opt)
print(opt.state_dict())
ds = TensorDataset(torch.randn(20, 3), torch.randn(20, 1))
loader = DataLoader(ds, batch_size=5, shuffle=True, num_workers=2, pin_memory=False, drop_last=True,
                    persistent_workers=False)
model.train()
for epoch in range(2):
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch}: {total / len(loader.dataset):.6f}")
print(opt.state_dict()['state'][0]['momentum_buffer'])
with torch.autograd.set_detect_anomaly(True):
    x = torch.tensor([1.0, 0.0], requires_grad=True)
    y = (x * 2).sum()
    y.backward()
    print(x.grad, torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': 2}, 'ckpt.pth')
ck = torch.load('ckpt.pth')
model2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
print(model2.load_state_dict(ck['model']), ck['epoch'], os.path.exists('ckpt.pth'))
model2.eval(); model.eval()
x = torch.randn(4, 3)
print(torch.allclose(model(x), model2(x)), torch.equal(model[1].running_mean, model2[1].running_mean))
print(sum(p.numel() for p in model.parameters()), model.training, model2[1].training)
with torch.enable_grad():
    print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled(), (x * torch.ones(3, requires_grad=True)).requires_grad)
