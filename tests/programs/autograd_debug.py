# Anomaly detection, saved tensor hooks, graph introspection, retain_graph errors
import torch
import warnings

torch.manual_seed(0)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * a
c = b.exp().sum()
print(c.grad_fn, c.grad_fn.next_functions)
print(b.grad_fn.name(), b.grad_fn._saved_self if hasattr(b.grad_fn, "_saved_self") else None)
print(b.grad_fn.next_functions[0][0].variable is a)


def pack(t):
    print("pack", tuple(t.shape))
    return t * 1


def unpack(t):
    print("unpack", tuple(t.shape))
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (a * a.sin()).sum()
y.backward()
print(a.grad)
with torch.autograd.graph.save_on_cpu():
    z = (a.exp() * a).sum()
z.backward()
print(a.grad)

with warnings.catch_warnings(record=True):
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        out = torch.sqrt(x) * 0 + x.sqrt()
        try:
            (x / x).sum().backward()
            print("no error", x.grad)
        except RuntimeError as e:
            print("RuntimeError:", e)

x = torch.tensor([-1.0, 1.0], requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.set_detect_anomaly(True):
        try:
            torch.sqrt(x).sum().backward()
            print(x.grad)
        except RuntimeError as e:
            print("RuntimeError:", str(e).splitlines()[0])

p = torch.ones(2, requires_grad=True)
q = (p * 3).sum()
q.backward(retain_graph=True)
q.backward()
print(p.grad)
r = (p ** 2).sum()
r.backward()
try:
    r.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])
g = torch.autograd.grad((p ** 3).sum(), p, create_graph=True)[0]
gg = torch.autograd.grad(g.sum(), p)[0]
print(g, gg)
try:
    torch.autograd.grad((p * 2).sum(), torch.ones(2, requires_grad=True))
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.autograd.grad((p * 2).sum(), [p, torch.ones(1, requires_grad=True)], allow_unused=True))
print(torch.autograd.grad((p * 2).sum(), [torch.ones(1, requires_grad=True)], allow_unused=True, materialize_grads=True))
with torch.no_grad():
    print((p * 2).requires_grad)
with torch.inference_mode():
    it = p * 2
print(it.is_inference(), torch.is_grad_enabled())
try:
    it.requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
