# torch.func tutorial: "Per-sample-gradients" (functional_call + vmap(grad))
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad

torch.manual_seed(0)


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)


batch_size = 8
data = torch.randn(batch_size, 1, 8, 8)
targets = torch.randint(10, (batch_size,))
model = SimpleCNN()


def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    prediction = model(sample)
    loss = loss_fn(prediction, target)
    return torch.autograd.grad(loss, list(model.parameters()))


def compute_sample_grads(data, targets):
    sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    sample_grads = zip(*sample_grads)
    return [torch.stack(shards) for shards in sample_grads]


per_sample_grads = compute_sample_grads(data, targets)
print(per_sample_grads[1].shape)

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return loss_fn(predictions, targets)


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)

for per_sample_grad, (name, ft_per_sample_grad) in zip(per_sample_grads, ft_per_sample_grads.items()):
    print(name, tuple(ft_per_sample_grad.shape), ft_per_sample_grad.dtype,
          torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5))
print(ft_per_sample_grads["fc2.bias"][:3])
print(ft_per_sample_grads["conv1.weight"].flatten(1).norm(dim=1))
print(sorted(ft_per_sample_grads.keys()))
