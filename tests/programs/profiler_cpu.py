# torch.profiler on CPU: recipe "PyTorch Profiler" - what the tables list (timings stripped)
import torch
import torch.nn as nn
from torch.profiler import profile, record_function, ProfilerActivity

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
inputs = torch.randn(5, 32)

with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function("model_inference"):
        model(inputs)

table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=10)
lines = table.splitlines()
print(lines[1].split())
print(lines[0].startswith("-"), lines[-1].startswith("Self CPU time total"))
names = [e.key for e in prof.key_averages()]
print("model_inference" in names, "aten::linear" in names, "aten::relu" in names)
ka = prof.key_averages()
lin = [e for e in ka if e.key == "aten::linear"][0]
print(lin.count, type(lin.cpu_time_total).__name__)
grouped = prof.key_averages(group_by_input_shape=True)
t2 = grouped.table(sort_by="cpu_time_total", row_limit=5).splitlines()
print(t2[1].split())
shapes = sorted(str(e.input_shapes) for e in grouped if e.key == "aten::linear")
print(shapes)

with profile(activities=[ProfilerActivity.CPU], profile_memory=True, record_shapes=True) as prof:
    model(inputs)
t3 = prof.key_averages().table(sort_by="self_cpu_memory_usage", row_limit=5).splitlines()
print(t3[1].split())

with profile(activities=[ProfilerActivity.CPU]) as prof:
    with record_function("step"):
        (model(inputs) ** 2).sum().backward()
keys = {e.key for e in prof.key_averages()}
print("step" in keys, any("backward" in k.lower() for k in keys))
print(ProfilerActivity.CPU, [a for a in ProfilerActivity.__members__])

sched = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1)
traces = []
with profile(activities=[ProfilerActivity.CPU], schedule=sched,
             on_trace_ready=lambda p: traces.append(len(p.events()) > 0)) as p:
    for _ in range(6):
        model(inputs)
        p.step()
print(traces)
