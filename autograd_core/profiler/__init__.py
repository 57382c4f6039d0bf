"""autograd_core.profiler: PyTorch's torch.profiler API over the CPU profiler of
autograd_core.autograd.profiler (ProfilerActivity.CPU is the only activity).

>>> import autograd_core as torch
>>> from autograd_core.profiler import ProfilerActivity, profile, record_function
>>> with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
...     with record_function("model_inference"):
...         y = torch.ones(4, 3) @ torch.ones(3, 2)
>>> [e.name for e in prof.events()]
['model_inference', 'aten::matmul', 'aten::mm']
"""
from autograd_core.autograd.profiler import KinetoStepTracker, record_function
from autograd_core.autograd.profiler_util import DeviceType
from autograd_core.profiler._execution_trace import ExecutionTraceObserver
from autograd_core.profiler.profiler import (
    ProfilerAction, ProfilerActivity, _KinetoProfile, profile, schedule, supported_activities,
    tensorboard_trace_handler,
)

__all__ = ["profile", "schedule", "supported_activities", "tensorboard_trace_handler",
           "ProfilerAction", "ProfilerActivity", "kineto_available", "DeviceType",
           "record_function", "KinetoStepTracker", "ExecutionTraceObserver"]


def kineto_available():
    """Whether the Kineto tracing library backs the profiler: it does not here (the
    profiler is autograd_core's own recorder)."""
    return False
