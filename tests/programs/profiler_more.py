# torch.profiler / torch.autograd.profiler: events, record_function as a decorator and context,
# function_events fields, table columns with shapes/memory, export of a trace
import json
import os
import torch
import torch.nn as nn
from torch.profiler import profile, record_function, ProfilerActivity

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 3))
x = torch.randn(2, 1, 8, 8)


@record_function("my_block")
def block(t):
    return model(t).softmax(-1)


with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    block(x)
    with record_function("loss"):
        model(x).sum()
keys = [e.key for e in prof.key_averages()]
print("my_block" in keys, "loss" in keys, "aten::conv2d" in keys, "aten::softmax" in keys)
ev = [e for e in prof.events() if e.name == "my_block"][0]
print(type(ev).__name__, ev.name, ev.cpu_time_total >= 0, ev.count if hasattr(ev, "count") else None)
conv = [e for e in prof.key_averages(group_by_input_shape=True) if e.key == "aten::conv2d"][0]
print(conv.input_shapes[:2], conv.count)
tbl = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=3, header="TITLE")
lines = tbl.splitlines()
print(lines[0].strip("="), len(lines[2].split()))
print(len([l for l in lines if l.startswith("aten::") or l.startswith("my_block")]) <= 3)
prof.export_chrome_trace("trace.json")
with open("trace.json") as f:
    trace = json.load(f)
names = {e.get("name") for e in trace["traceEvents"]}
print("my_block" in names, os.path.getsize("trace.json") > 0)
with torch.autograd.profiler.profile() as p2:
    torch.mm(torch.ones(3, 3), torch.ones(3, 3))
print(any(e.name == "aten::mm" for e in p2.function_events))
print(type(p2.key_averages()).__name__, p2.self_cpu_time_total >= 0)
with torch.autograd.profiler.record_function("outer"):
    pass
try:
    prof.key_averages().table(sort_by="bogus_key")
except Exception as e:
    print(type(e).__name__, str(e)[:80])
with profile(activities=[ProfilerActivity.CPU], with_stack=False, profile_memory=True) as p3:
    t = torch.zeros(1000)
mem = [e for e in p3.key_averages() if e.key == "aten::zeros"]
print(len(mem))
