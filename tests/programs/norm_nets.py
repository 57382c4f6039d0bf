# d2l.ai 8.5 batch normalization from scratch, nn.BatchNorm1d/2d, LayerNorm, GroupNorm, InstanceNorm
import torch
from torch import nn

torch.manual_seed(0)


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.1)
        return Y


net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), BatchNorm(6, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), BatchNorm(16, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(16 * 4 * 4, 120), BatchNorm(120, num_dims=2), nn.Sigmoid(),
    nn.Linear(120, 84), BatchNorm(84, num_dims=2), nn.Sigmoid(),
    nn.Linear(84, 10))
X = torch.rand(size=(4, 1, 28, 28))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape:\t', X.shape)

net2 = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), nn.BatchNorm2d(6), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(6 * 12 * 12, 20), nn.BatchNorm1d(20), nn.Sigmoid(),
    nn.Linear(20, 10), nn.LayerNorm(10))
opt = torch.optim.SGD(net2.parameters(), lr=0.5, momentum=0.9)
images, labels = torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,))
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net2(images), labels)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(net2[1].running_mean, net2[1].running_var, net2[1].num_batches_tracked)
print(net2[6].state_dict().keys())
net2.eval()
print(net2(images[:2]))
gn = nn.GroupNorm(2, 6)
inn = nn.InstanceNorm2d(6, affine=True)
ln = nn.LayerNorm([6, 4, 4], elementwise_affine=False)
x = torch.randn(2, 6, 4, 4)
for m in (gn, inn, ln):
    print(m, m(x).mean().item(), m(x).std().item())
bn = nn.BatchNorm1d(3, momentum=None)
for i in range(3):
    bn(torch.randn(5, 3) * (i + 1))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
