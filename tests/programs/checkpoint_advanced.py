# torch.utils.checkpoint details: RNG preservation, kwargs, non-tensor outputs, nesting,
# determinism checks, early stop, and what each mode warns or raises
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)


def drop_fn(x, p=0.5, scale=1.0):
    return F.dropout(x, p, training=True) * scale


x = torch.randn(6, requires_grad=True)
for reentrant in (False, True):
    torch.manual_seed(1)
    out = checkpoint(drop_fn, x, use_reentrant=reentrant) if reentrant else checkpoint(drop_fn, x, scale=2.0, use_reentrant=False)
    out.sum().backward()
    print(reentrant, out, x.grad)
    x.grad = None

torch.manual_seed(1)
out = checkpoint(drop_fn, x, use_reentrant=False, preserve_rng_state=False)
out.sum().backward()
print((x.grad != 0).sum() >= 0)
x.grad = None


def multi(a, k):
    return a * k, "tag", k + 1


o, tag, k1 = checkpoint(multi, x, 3, use_reentrant=False)
print(tag, k1)
o.sum().backward()
print(x.grad)
x.grad = None


def outer(a):
    return checkpoint(lambda b: b.sin() * 2, a, use_reentrant=False).cos()


y = checkpoint(outer, x, use_reentrant=False)
y.sum().backward()
print(torch.allclose(x.grad, -(2 * x.sin()).sin() * 2 * x.cos()))
x.grad = None

lin = nn.Linear(6, 6)


def run(a):
    return lin(a).relu()


z = checkpoint(run, x.unsqueeze(0), use_reentrant=False, determinism_check="default")
z.sum().backward()
print(lin.weight.grad.norm() > 0, x.grad.shape)
with torch.no_grad():
    w = checkpoint(run, x.unsqueeze(0), use_reentrant=False)
print(w.requires_grad)
try:
    checkpoint(run, x.unsqueeze(0))
except Exception as e:
    print(type(e).__name__, e)
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    q = checkpoint(lambda a: a * 2, torch.ones(2), use_reentrant=True)
print(q.requires_grad, [str(w.message)[:60] for w in ws])
counter = {"n": 0}


def counted(a):
    counter["n"] += 1
    return a.exp()


r = checkpoint(counted, x, use_reentrant=False)
r.sum().backward()
print(counter["n"])
