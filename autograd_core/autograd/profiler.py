"""autograd_core.autograd.profiler: PyTorch's CPU profiler.

``profile`` records every op an autograd_core program runs (named as PyTorch's ATen
ops: ``aten::mm``, ``aten::add``...), each backward node the engine runs
(``autograd::engine::evaluate_function: MulBackward0`` around ``MulBackward0``) and the
``record_function`` labels, with their nesting, CPU times, input shapes
(record_shapes), allocated bytes (profile_memory), Python calls (with_stack) and FLOPs
of matrix products and element-wise products and sums (with_flops). How ops are hooked
at no cost while off: Note [Op hook] (autograd_core/_core/_profiler.pxi).

>>> import autograd_core as torch
>>> x = torch.ones(2, 2, requires_grad=True)
>>> with torch.autograd.profiler.profile() as prof:
...     with torch.autograd.profiler.record_function("block"):
...         y = (x * 2).sum()
>>> [(e.name, e.cpu_parent.name if e.cpu_parent else None) for e in prof.function_events]
[('block', None), ('aten::mul', 'block'), ('aten::sum', 'block')]
"""
import functools
import os
import sys
import time
import warnings
from collections import defaultdict

from autograd_core._core import tensor as _core
from autograd_core.autograd.profiler_util import (  # noqa: F401
    DeviceType, EventList, FormattedTimesMixin, FunctionEvent, FunctionEventAvg, Interval,
    Kernel, MemRecordsAcc, _format_memory, _format_time, _format_time_share,
)

# The running execution trace (autograd_core.profiler.ExecutionTraceObserver), which
# record_function tells of its scopes; None when none runs (Note [Execution trace]).
_EXECUTION_TRACE = [None]

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg",
           "EnforceUnique", "KinetoStepTracker", "MemRecordsAcc", "load_nvprof",
           "parse_nvprof_trace"]

def _short_path(path):
    """A source path as PyTorch's Python tracer names it: relative to the longest
    sys.path entry it lies under."""
    best = ""
    for p in sys.path:
        if p and path.startswith(p.rstrip(os.sep) + os.sep) and len(p) > len(best):
            best = p.rstrip(os.sep) + os.sep
    return path[len(best):]


class _PythonTracer:
    """with_stack: PyTorch 2.x records the Python calls of the profiling thread as
    events ("file.py(line): function" for Python functions, the repr of a builtin
    for C functions), the ops nesting inside them; the frames already running when
    profiling starts are events too (named at their current line)."""

    def __init__(self):
        self._open = []
        self._start_frame = None
        self._names = {}

    def _name(self, code, line):
        key = (code, line)
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = f"{_short_path(code.co_filename)}({line}): {code.co_name}"
        return name

    def start(self):
        frames = []
        f = sys._getframe(1)
        while f is not None:
            frames.append(f)
            f = f.f_back
        for f in reversed(frames):
            self._open.append(_core._record_function_enter(self._name(f.f_code, f.f_lineno),
                                                           None, False))
        self._start_frame = sys._getframe(0)
        sys.setprofile(self._event)

    def stop(self):
        sys.setprofile(None)
        while self._open:
            _core._record_function_exit(self._open.pop())

    def _event(self, frame, event, arg):
        if event == "call":
            self._open.append(_core._record_function_enter(
                self._name(frame.f_code, frame.f_code.co_firstlineno), None, False))
        elif event == "c_call":
            self._open.append(_core._record_function_enter(repr(arg), None, False))
        elif event == "return":
            if frame is self._start_frame:    # start() itself returning
                self._start_frame = None
            elif self._open:
                _core._record_function_exit(self._open.pop())
        elif event in ("c_return", "c_exception"):
            if self._open:
                _core._record_function_exit(self._open.pop())


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _flops(name, shapes):
    """PyTorch's FLOP formulas (the ops it counts that autograd_core records): matrix
    products count 2 per multiply-add, element-wise mul/add one per element."""
    try:
        if name in ("aten::mm", "aten::addmm"):
            a, b = (shapes[0], shapes[1]) if name == "aten::mm" else (shapes[1], shapes[2])
            if len(a) == 2 and len(b) == 2:
                return 2 * a[0] * a[1] * b[1]
        elif name in ("aten::bmm", "aten::baddbmm"):
            a, b = (shapes[0], shapes[1]) if name == "aten::bmm" else (shapes[1], shapes[2])
            if len(a) == 3 and len(b) == 3:
                return 2 * a[0] * a[1] * a[2] * b[2]
        elif name in ("aten::mul", "aten::add"):
            return _numel(shapes[0])
    except (IndexError, TypeError):
        pass
    return 0


def _function_events(records, t0_ns, record_shapes, with_flops, use_device):
    """FunctionEvents (times in us from the start of profiling) from the recorder's
    records, in start order."""
    # a range that is not an op holds what its children allocated
    held = defaultdict(int)
    for r in reversed(records):
        parent = r.parent
        if parent is not None and not parent.name.startswith("aten::"):
            held[id(parent)] += r.cpu_memory_usage + held[id(r)]
    events = []
    for i, r in enumerate(records):
        name = trace_name = r.name
        if name.startswith("ProfilerStep#"):
            name = "ProfilerStep*"
        shapes = r.input_shapes if r.input_shapes is not None else []
        evt = FunctionEvent(
            id=i + 1, name=name, trace_name=trace_name, thread=r.thread,
            start_us=(r.start_ns - t0_ns) / 1000.0, end_us=(r.end_ns - t0_ns) / 1000.0,
            fwd_thread=r.fwd_thread, input_shapes=shapes if record_shapes else [],
            stack=[], scope=r.scope,
            use_device=use_device,
            cpu_memory_usage=r.cpu_memory_usage + held[id(r)], sequence_nr=r.sequence_nr,
            flops=_flops(name, shapes) if with_flops else 0,
            is_user_annotation=r.scope == 7)
        events.append(evt)
    events.sort(key=lambda e: [e.time_range.start, -e.time_range.end])
    return events


def _supported_activities():
    from autograd_core.profiler import ProfilerActivity
    return {ProfilerActivity.CPU}


# the profile whose session the recorder runs (Note [Nested profilers])
_SESSION = [None]
_NO_SESSION = ("[W profiler] disableProfiler called but no active profiling session found. "
               "This can happen if profiling was cancelled during warmup.\n")


class profile:
    """Record the ops, backward nodes and record_function ranges run inside the
    ``with`` block (every thread). Results: ``function_events`` (an EventList),
    ``key_averages()``, ``table()``, ``total_average()``, ``self_cpu_time_total``,
    ``export_chrome_trace(path)``, ``export_stacks(path)``; ``str(prof)`` is the table.

    Only the CPU is profiled: use_device / use_cuda ask for an accelerator this library
    does not have.

    >>> import autograd_core as torch
    >>> with torch.autograd.profiler.profile(record_shapes=True) as prof:
    ...     y = torch.mm(torch.ones(2, 3), torch.ones(3, 1))
    >>> [(e.name, e.input_shapes) for e in prof.function_events]
    [('aten::mm', [[2, 3], [3, 1]])]
    """

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None,
                 record_shapes=False, with_flops=False, profile_memory=False,
                 with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None,
                 post_processing_timeout_s=None, activity_filters=None):
        self.enabled = enabled
        if not enabled:
            return
        if use_cuda:
            warnings.warn("The attribute `use_cuda` will be deprecated soon, please use "
                          "``use_device = 'cuda'`` instead.", FutureWarning, stacklevel=2)
            use_device = "cuda"
        if use_device in ("cuda", "xpu", "hpu"):
            # no accelerator here: PyTorch's CPU build warns and profiles the CPU
            dev = use_device.upper()
            warnings.warn(f"{dev} is not available, disabling {dev} profiling", stacklevel=2)
        elif use_device is not None:
            raise AssertionError(f"{use_device} is not a supported device for the profiler")
        if not use_cpu:
            raise AssertionError("No activities specified for the profiler")
        if post_processing_timeout_s is not None and post_processing_timeout_s < 0:
            raise ValueError("post_processing_timeout_s must be non-negative")
        self.use_cuda = use_cuda
        self.use_device = None
        self.record_shapes = record_shapes
        self.with_flops = with_flops
        self.record_shapes |= with_flops
        self._report_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        self.use_cpu = use_cpu
        self.use_kineto = use_kineto
        self.acc_events = acc_events
        self.experimental_config = experimental_config
        self.custom_trace_id_callback = custom_trace_id_callback
        self.entered = False
        self._running = False
        self._records = None
        self._tracer = None
        self._t0_ns = 0
        self._function_events = None
        self._old_function_events = None
        self._needs_processing = False
        self.profiling_start_time_ns = 0
        self.profiling_end_time_ns = 0
        self._wall_t0_us = 0.0
        self.trace_id = None

    def __enter__(self):
        if not self.enabled:
            return
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self._prepare_trace()
        self._start_trace()
        return self

    def _prepare_trace(self):
        self.entered = True

    def _start_trace(self):
        self.entered = True
        self._wall_t0_us = time.time_ns() / 1000.0
        owner = _SESSION[0]
        if owner is not None and _core._profiler_is_enabled():
            # Note [Nested profilers]: as PyTorch's, a profiler started while another
            # records ends that one's session (its events are dropped; its exit then
            # finds no session, says so on stderr and reports no events)
            if owner._tracer is not None:
                owner._tracer.stop()
                owner._tracer = None
            _core._profiler_stop()
        self._t0_ns = _core._profiler_start(self.record_shapes, self.profile_memory)
        _SESSION[0] = self
        self._running = True
        if self.with_stack:
            try:
                self._tracer = _PythonTracer()
                self._tracer.start()
            except BaseException:
                self._running = False
                self._tracer = None
                _core._profiler_stop()
                _SESSION[0] = None
                raise
        self.profiling_start_time_ns = time.perf_counter_ns()

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.enabled:
            return
        if self._function_events and self.acc_events:
            self._old_function_events = self._function_events
        self._function_events = None
        self._needs_processing = True
        self.profiling_end_time_ns = time.perf_counter_ns()
        if self._running:
            self._running = False
            if _SESSION[0] is not self:     # Note [Nested profilers]
                sys.stderr.write(_NO_SESSION)
                self._records = []
            else:
                _SESSION[0] = None
                if self._tracer is not None:
                    self._tracer.stop()
                    self._tracer = None
                self._records, _ = _core._profiler_stop()
        if self.acc_events:
            self._ensure_function_events()
        return False

    def __repr__(self):
        if self._needs_processing:
            self._ensure_function_events()
        if self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return repr(self._function_events)

    def __str__(self):
        if self._needs_processing:
            self._ensure_function_events()
        if self._function_events is None:
            return "<unfinished torch.autograd.profile>"
        return str(self._function_events)

    def _ensure_function_events(self):
        if self._function_events is not None:
            return
        self._needs_processing = False
        events = _function_events(self._records or [], self._t0_ns, self._report_shapes,
                                  self.with_flops, self.use_device)
        self._function_events = EventList(events, use_device=self.use_device,
                                          profile_memory=self.profile_memory,
                                          with_flops=self.with_flops)
        self._function_events._build_tree()
        if self._old_function_events and self.acc_events:
            self._function_events.extend(self._old_function_events)
            self._old_function_events = None

    def _results(self):
        self._ensure_function_events()
        if self._function_events is None:
            raise AssertionError("Expected profiling results")
        return self._function_events

    @property
    def function_events(self):
        """Every recorded range as a FunctionEvent, in start order."""
        if self._function_events is None or self._needs_processing:
            self._ensure_function_events()
        return self._function_events

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False):
        """PyTorch's table of the events (see EventList.table)."""
        return self._results().table(
            sort_by=sort_by, row_limit=row_limit, max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width, header=header,
            top_level_events_only=top_level_events_only)

    def export_chrome_trace(self, path, metadata=None, use_python_export=False):
        """Write the trace as Chrome trace JSON (PyTorch's Kineto layout: an object with
        ``traceEvents``, one complete ``"ph": "X"`` event per range with name, ts and dur
        in microseconds, pid and tid, its inputs' shapes when recorded), for
        chrome://tracing or Perfetto."""
        _write_chrome_trace(self, path, metadata or {})

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """Write the stacks of the events in flame-graph folded form (needs
        with_stack=True)."""
        events = self._results()
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        return events.export_stacks(path, metric)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        """The events averaged per name (see EventList.key_averages)."""
        return self._results().key_averages(group_by_input_shape, group_by_stack_n,
                                            group_by_overload_name)

    def total_average(self):
        """Every event added into one FunctionEventAvg keyed "Total"."""
        return self._results().total_average()

    @property
    def self_cpu_time_total(self):
        """The sum of the events' self CPU times (us)."""
        return self._results().self_cpu_time_total


def _write_chrome_trace(prof, path, metadata):
    import json
    import socket
    events = prof.function_events
    pid = os.getpid()
    base = prof._wall_t0_us
    trace = []
    for tid in sorted({e.thread for e in events}):
        trace.append({"ph": "M", "name": "thread_name", "ts": base, "pid": pid, "tid": tid,
                      "args": {"name": f"thread {tid} (python)"}})
    trace.insert(0, {"ph": "M", "name": "process_name", "ts": base, "pid": pid, "tid": 0,
                     "args": {"name": "python"}})
    for i, e in enumerate(events):
        args = {"External id": e.id}
        if e.sequence_nr >= 0:
            args["Sequence number"] = e.sequence_nr
            args["Fwd thread id"] = e.fwd_thread or 0
        if prof._report_shapes and e.input_shapes:
            args["Input Dims"] = e.input_shapes
        if e.flops:
            args["flops"] = e.flops
        trace.append({"ph": "X", "cat": "user_annotation" if e.scope == 7 else "cpu_op",
                      "name": e.trace_name, "pid": pid, "tid": e.thread,
                      "ts": base + e.time_range.start, "dur": e.time_range.elapsed_us(),
                      "args": args})
    doc = {"schemaVersion": 1, "deviceProperties": [],
           "record_shapes": int(bool(prof._report_shapes)),
           "host_name": socket.gethostname(), "displayTimeUnit": "ms",
           "baseTimeNanoseconds": int(base * 1000) - int(base * 1000) % 1000000000}
    for k, v in metadata.items():
        try:
            doc[k] = json.loads(v)
        except (TypeError, ValueError):
            doc[k] = v
    doc["traceEvents"] = trace
    doc["traceName"] = path
    with open(path, "w") as f:
        json.dump(doc, f)


class _ContextDecorator:
    def __call__(self, func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return wrapped


class record_function(_ContextDecorator):
    """Label a block (or, as a decorator, every call of a function) in the profile: a
    range named ``name`` that contains the ops run inside it. Records nothing when no
    profiler runs.

    >>> import autograd_core as torch
    >>> with torch.profiler.profile() as prof:
    ...     with torch.profiler.record_function("my_block"):
    ...         y = torch.ones(2) + 1
    >>> names = [e.name for e in prof.events()]
    >>> names[0], "aten::add" in names
    ('my_block', True)
    """

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self.run_callbacks_on_exit = True
        self.record = None
        self._et_node = None

    def __enter__(self):
        self.record = _core._record_function_enter(self.name)
        # a running execution trace records the scope too (Note [Execution trace])
        trace = _EXECUTION_TRACE[0]
        self._et_node = None if trace is None else trace.scope_enter(self.name)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if not self.run_callbacks_on_exit:
            return
        _core._record_function_exit(self.record)
        if self._et_node is not None:
            trace = _EXECUTION_TRACE[0]
            if trace is not None:
                trace.scope_exit(self._et_node)


def load_nvprof(path):
    """The ranges of an nvprof trace file (see parse_nvprof_trace) as an EventList."""
    return EventList(parse_nvprof_trace(path))


class EnforceUnique:
    """Raises an error if a key is seen more than once.

    >>> from autograd_core.autograd.profiler import EnforceUnique
    >>> u = EnforceUnique()
    >>> u.see(1, 2)
    >>> u.see(1, 2)
    Traceback (most recent call last):
    ...
    RuntimeError: duplicate key: (1, 2)
    """

    def __init__(self):
        self.seen = set()

    def see(self, *key):
        """Note key; raise RuntimeError if it was seen before."""
        if key in self.seen:
            raise RuntimeError("duplicate key: " + str(key))
        self.seen.add(key)


def parse_nvprof_trace(path):
    """The marker ranges of an nvprof SQLite trace as FunctionEvents (with the CUDA
    kernels launched inside each range), sorted by start time."""
    import sqlite3
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    strings = {r["id"]: r["value"] for r in
               conn.execute("SELECT _id_ as id, value FROM StringTable")}
    functions, by_id = [], {}
    unique = EnforceUnique()
    for row in conn.execute(
            "SELECT start.id AS marker_id, start.name, start.timestamp AS start_time, "
            "end.timestamp AS end_time FROM CUPTI_ACTIVITY_KIND_MARKER AS start "
            "INNER JOIN CUPTI_ACTIVITY_KIND_MARKER AS end ON start.id = end.id "
            "WHERE start.name != 0 AND end.name = 0"):
        unique.see(row["marker_id"])
        evt = FunctionEvent(id=row["marker_id"], node_id=0, name=strings[row["name"]],
                            start_us=row["start_time"], end_us=row["end_time"], thread=0)
        functions.append(evt)
        by_id[evt.id] = evt
    unique = EnforceUnique()
    for row in conn.execute(
            "SELECT start.id AS marker_id, start.name, start.timestamp, end.timestamp, "
            "runtime._id_ AS runtime_id, runtime.cbid, runtime.start AS runtime_start, "
            "runtime.end AS runtime_end, kernel.start AS kernel_start, "
            "kernel.end AS kernel_end, kernel.name AS kernel_name "
            "FROM CUPTI_ACTIVITY_KIND_MARKER AS start "
            "INNER JOIN CUPTI_ACTIVITY_KIND_MARKER AS end ON start.id = end.id "
            "INNER JOIN CUPTI_ACTIVITY_KIND_RUNTIME as runtime "
            "ON (start.timestamp < runtime.start AND runtime.end < end.timestamp) "
            "INNER JOIN CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL AS kernel "
            "ON kernel.correlationId = runtime.correlationId"):
        unique.see(row["marker_id"], row["runtime_id"])
        if row["cbid"] != 211:  # cudaLaunchKernel
            raise AssertionError(f"Expected cbid to be 211, but got {row['cbid']}")
        by_id[row["marker_id"]].append_kernel(row["kernel_name"], 0,
                                             row["kernel_end"] - row["kernel_start"])
    functions.sort(key=lambda e: e.time_range.start)
    return functions


class KinetoStepTracker:
    """The global step count as the maximum over the requesters that count steps
    (the profiler's step(), optimizers), so that two of them stepping together count
    one step.

    >>> from autograd_core.autograd.profiler import KinetoStepTracker
    >>> KinetoStepTracker.init_step_count("A"); KinetoStepTracker.init_step_count("B")
    >>> start = KinetoStepTracker.current_step()
    >>> KinetoStepTracker.increment_step("A") - start, KinetoStepTracker.increment_step("B") - start
    (1, 1)
    >>> KinetoStepTracker.erase_step_count("A") and KinetoStepTracker.erase_step_count("B")
    True
    """

    _current_step = 0
    _step_dict = defaultdict(int)

    @classmethod
    def init_step_count(cls, requester):
        """Start counting for requester from the current step."""
        cls._step_dict[requester] = cls._current_step

    @classmethod
    def erase_step_count(cls, requester):
        """Stop counting for requester; whether it was counting."""
        return cls._step_dict.pop(requester, None) is not None

    @classmethod
    def increment_step(cls, requester):
        """Count a step of requester; return the global step."""
        if requester not in cls._step_dict:
            cls.init_step_count(requester)
        cls._step_dict[requester] += 1
        new_step = max(cls._step_dict.values())
        if new_step > cls._current_step:
            if new_step - cls._current_step > 1:
                warnings.warn("Profiler step count has increased more than 1 - "
                              f"current_step = {cls._current_step} step dict =  "
                              f"{cls._step_dict}", stacklevel=2)
            cls._current_step = new_step
        return cls._current_step

    @classmethod
    def current_step(cls):
        """The global step."""
        return cls._current_step
