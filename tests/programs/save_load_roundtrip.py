# torch.save / torch.load round trips: tensors, views sharing storage, modules, optimizers, dicts
import io
import os
import torch
import torch.nn as nn

torch.manual_seed(0)
t = torch.randn(3, 4)
v = t[1]
buf = io.BytesIO()
torch.save({"t": t, "v": v, "n": 3, "l": [torch.arange(3)]}, buf)
buf.seek(0)
d = torch.load(buf)
print(d["t"].shape, d["n"], d["l"][0].dtype)
d["v"][0] = 100.0
print(d["t"][1, 0], t[1, 0] != 100.0)
print(torch.equal(d["t"][0], t[0]))

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
model(torch.randn(2, 4)).sum().backward()
opt.step()
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 5}, "ckpt.pt")
ck = torch.load("ckpt.pt", weights_only=True)
print(sorted(ck), ck["epoch"])
m2 = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
print(m2.load_state_dict(ck["model"]))
opt2 = torch.optim.Adam(m2.parameters(), lr=1e-3)
opt2.load_state_dict(ck["opt"])
print(opt2.state_dict()["state"][0]["step"], opt2.state_dict()["param_groups"][0]["lr"])
x = torch.randn(3, 4)
print(torch.allclose(m2(x), model(x)))
torch.save(model, "whole.pt")
try:
    torch.load("whole.pt")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:90])
whole = torch.load("whole.pt", weights_only=False)
print(type(whole).__name__, torch.allclose(whole(x), model(x)))
p = torch.tensor([1.0, 2.0], requires_grad=True)
torch.save(p, "p.pt")
q = torch.load("p.pt")
print(q, q.requires_grad, q.is_leaf)
ints = torch.tensor([1, 2, 3], dtype=torch.int16)
c = torch.tensor([1 + 2j])
torch.save([ints, c, torch.tensor(True), torch.zeros(0, 3)], "misc.pt")
print(torch.load("misc.pt"))
nt = torch.ones(2, 3).t()
torch.save(nt, "nt.pt")
r = torch.load("nt.pt")
print(r.stride(), r.is_contiguous())
big = torch.arange(10.0)
torch.save(big[2:4], "slice.pt")
print(torch.load("slice.pt"), os.path.getsize("slice.pt") > 0)
print(torch.load("p.pt", map_location="cpu").device, torch.load("p.pt", map_location=torch.device("cpu")).dtype)
try:
    torch.load("does_not_exist.pt")
except FileNotFoundError as e:
    print("FileNotFoundError:", e)
