# Copying and reloading modules: deepcopy of parametrized / weight-normed / spectral-normed
# modules, load_state_dict hooks, strict loading of parametrized state, pickling whole modules
import copy
import io
import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, parametrize

torch.manual_seed(0)
orth = parametrizations.orthogonal(nn.Linear(3, 3))
dup = copy.deepcopy(orth)
print(torch.allclose(dup.weight, orth.weight), dup.parametrizations.weight.original is not orth.parametrizations.weight.original)
print(type(dup).__name__, parametrize.is_parametrized(dup))
wn = parametrizations.weight_norm(nn.Linear(2, 2))
sd = wn.state_dict()
print(list(sd.keys()))
fresh = parametrizations.weight_norm(nn.Linear(2, 2))
print(fresh.load_state_dict(sd), torch.allclose(fresh.weight, wn.weight))
try:
    nn.Linear(2, 2).load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
    print(str(e).splitlines()[1])
lin = nn.Linear(2, 2)
log = []
lin.register_load_state_dict_post_hook(lambda mod, keys: log.append((sorted(keys.missing_keys), sorted(keys.unexpected_keys))))
lin._register_load_state_dict_pre_hook(lambda sd, prefix, *args: log.append(("pre", prefix, sorted(sd))))
lin.load_state_dict({"weight": torch.eye(2), "bias": torch.zeros(2)})
lin.load_state_dict({"weight": torch.eye(2)}, strict=False)
print(log)
buf = io.BytesIO()
try:
    torch.save(orth, buf)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
buf = io.BytesIO()
torch.save(nn.Linear(2, 2), buf)
buf.seek(0)
back = torch.load(buf, weights_only=False)
print(type(back).__name__, back.weight.shape)
sn = nn.utils.spectral_norm(nn.Linear(3, 2))
sn2 = copy.deepcopy(sn)
print(torch.equal(sn2.weight_u, sn.weight_u), sorted(k for k in sn2.state_dict()))
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
m2 = copy.deepcopy(m)
m2[1].running_mean += 1
print(m[1].running_mean, m2[1].running_mean)
print(m2[0].weight is not m[0].weight, m2[0].weight.requires_grad, type(m2[0].weight).__name__)
st = {k: v.clone() for k, v in m.state_dict().items()}
st["1.num_batches_tracked"] = torch.tensor(7)
m.load_state_dict(st)
print(m[1].num_batches_tracked)
