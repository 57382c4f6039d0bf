# vmap over models: ensembles with batch norm (replace_all_batch_norm_modules_), loss functions,
# attention, embedding lookups, jacobians of outputs w.r.t. inputs
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import vmap, functional_call, stack_module_state, jacrev, grad, replace_all_batch_norm_modules_

torch.manual_seed(0)
x = torch.randn(4, 5, 3)
net = nn.Sequential(nn.Linear(3, 6), nn.LayerNorm(6), nn.ReLU(), nn.Linear(6, 2))
print(torch.allclose(vmap(net)(x), net(x), atol=1e-6))
print(vmap(net, in_dims=1)(x).shape)
targets = torch.randint(0, 2, (4, 5))
l = vmap(lambda xi, ti: F.cross_entropy(net(xi), ti))(x, targets)
print(l)
print(vmap(lambda xi, ti: F.nll_loss(F.log_softmax(net(xi), -1), ti, reduction="sum"))(x, targets))
bn_net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
try:
    vmap(bn_net)(x)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:120])
replace_all_batch_norm_modules_(bn_net)
print(bn_net[1].running_mean, bn_net[1].track_running_stats)
print(vmap(bn_net)(x).shape)
emb = nn.Embedding(10, 4)
idx = torch.randint(0, 10, (3, 6))
print(torch.allclose(vmap(emb)(idx), emb(idx)))
attn = nn.MultiheadAttention(6, 2, batch_first=True)
seq = torch.randn(3, 2, 4, 6)
out = vmap(lambda s: attn(s, s, s, need_weights=False)[0])(seq)
print(out.shape, torch.allclose(out[0], attn(seq[0], seq[0], seq[0], need_weights=False)[0], atol=1e-5))
jac = vmap(jacrev(lambda xi: net(xi.unsqueeze(0)).squeeze(0)))(x[0])
print(jac.shape)
models = [nn.Sequential(nn.Linear(3, 3), nn.Tanh()) for _ in range(3)]
params, bufs = stack_module_state(models)
base = models[0]
ens = vmap(lambda p, b, xx: functional_call(base, (p, b), (xx,)), in_dims=(0, 0, None))(params, bufs, x[0])
print(ens.shape, torch.allclose(ens[2], models[2](x[0]), atol=1e-6))


def loss_fn(p, b, xx, yy):
    return F.mse_loss(functional_call(base, (p, b), (xx,)), yy)


grads = vmap(grad(loss_fn), in_dims=(0, 0, None, None))(params, bufs, x[0], torch.zeros(5, 3))
print({k: tuple(v.shape) for k, v in grads.items()})
conv = nn.Conv2d(1, 2, 3)
imgs = torch.randn(4, 1, 6, 6)
per_sample = vmap(grad(lambda p, im: functional_call(conv, p, (im.unsqueeze(0),)).pow(2).mean()),
                  in_dims=(None, 0))(dict(conv.named_parameters()), imgs)
print(per_sample["weight"].shape, per_sample["bias"].detach())
print(vmap(F.pad, in_dims=(0, None))(torch.ones(2, 3), (1, 1)))
print(vmap(lambda t: F.interpolate(t.unsqueeze(0), scale_factor=2, mode="nearest").squeeze(0))(torch.arange(8.).reshape(2, 1, 4)))
