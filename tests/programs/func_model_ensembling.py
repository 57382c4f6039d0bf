# torch.func tutorial: "Model ensembling" (stack_module_state + vmap over functional_call)
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import stack_module_state, functional_call, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 32)
        self.fc2 = nn.Linear(32, 16)
        self.fc3 = nn.Linear(16, 10)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


num_models = 5
data = torch.randn(20, 1, 28, 28)
targets = torch.randint(10, (20,))
models = [SimpleMLP() for _ in range(num_models)]

minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
print(buffers)
print(params["fc1.weight"].requires_grad, params["fc1.weight"].is_leaf)

base_model = copy.deepcopy(models[0])
# (the tutorial moves base_model to the "meta" device; its weights are never read)
print(base_model.fc1.weight.device, base_model.fc1.weight.shape)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


print([p.size(0) for p in params.values()])
minibatches = data[:num_models]
predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print(predictions1_vmap.shape)
print(torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5))

predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5))
print(predictions2_vmap[:, 0, :3])

# training the ensemble: grads flow into the stacked parameters
loss = F.cross_entropy(predictions2_vmap.reshape(-1, 10), targets[:1].repeat(num_models))
loss.backward()
print(round(loss.item(), 4), params["fc3.bias"].grad.shape, params["fc3.bias"].grad[0])
try:
    stack_module_state([SimpleMLP(), nn.Linear(3, 3)])
except Exception as e:
    print(type(e).__name__, e)
