"""The profiler's results: FunctionEvent (one recorded range), FunctionEventAvg (ranges
aggregated by key), EventList (a list of either, with PyTorch's table, Chrome trace
export, key_averages and totals). Times are microseconds, as PyTorch's.

>>> import autograd_core as torch
>>> from autograd_core.autograd.profiler_util import EventList, FunctionEvent
>>> events = EventList([FunctionEvent(id=0, name="outer", thread=1, start_us=0, end_us=10),
...                     FunctionEvent(id=1, name="inner", thread=1, start_us=2, end_us=5)])
>>> events._build_tree()
>>> [e.self_cpu_time_total for e in events]
[7, 3]
"""
import bisect
import enum
import itertools
import json
import math
import os
from collections import defaultdict, namedtuple

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "Interval", "Kernel",
           "MemRecordsAcc", "DeviceType"]


class DeviceType(enum.Enum):
    """Where an event ran (PyTorch's c10::DeviceType; every event here is CPU)."""
    CPU = 0
    CUDA = 1
    MKLDNN = 2
    OPENGL = 3
    OPENCL = 4
    IDEEP = 5
    HIP = 6
    FPGA = 7
    MAIA = 8
    XLA = 9
    Vulkan = 10
    Metal = 11
    XPU = 12
    MPS = 13
    Meta = 14
    HPU = 15
    VE = 16
    Lazy = 17
    IPU = 18
    MTIA = 19
    PrivateUse1 = 20


Kernel = namedtuple("Kernel", ["name", "device", "duration"])

_US_PER_S = 1000.0 * 1000.0
_US_PER_MS = 1000.0


def _format_time(time_us):
    """A time in microseconds as PyTorch's tables print it (unit chosen by size)."""
    if time_us >= _US_PER_S:
        return f"{time_us / _US_PER_S:.3f}s"
    if time_us >= _US_PER_MS:
        return f"{time_us / _US_PER_MS:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_in(time_us, unit):
    """A time in a fixed unit (table(time_unit=...)); None: the unit by size."""
    if unit == "s":
        return f"{time_us / _US_PER_S:.3f}s"
    if unit == "ms":
        return f"{time_us / _US_PER_MS:.3f}ms"
    if unit == "us":
        return f"{time_us:.3f}us"
    return _format_time(time_us)


def _format_time_share(time_us, total_time_us):
    if total_time_us == 0:
        if time_us != 0:
            raise AssertionError(f"Expected time_us == 0 but got {time_us}")
        return "NaN"
    return f"{time_us * 100.0 / total_time_us:.2f}%"


def _format_memory(nbytes):
    for unit, size in (("GB", 1024 ** 3), ("MB", 1024 ** 2), ("KB", 1024)):
        if abs(nbytes) >= size:
            return f"{nbytes * 1.0 / size:.2f} {unit}"
    return f"{nbytes} B"


def _time_str(attr):
    return property(lambda self: _format_time(getattr(self, attr)))


class FormattedTimesMixin:
    """cpu_time (the average per call) and the *_str spellings of the times."""
    cpu_time_str = _time_str("cpu_time")
    device_time_str = _time_str("device_time")
    cpu_time_total_str = _time_str("cpu_time_total")
    device_time_total_str = _time_str("device_time_total")
    self_cpu_time_total_str = _time_str("self_cpu_time_total")
    self_device_time_total_str = _time_str("self_device_time_total")

    @property
    def cpu_time(self):
        return 0.0 if self.count == 0 else 1.0 * self.cpu_time_total / self.count

    @property
    def device_time(self):
        return 0.0 if self.count == 0 else 1.0 * self.device_time_total / self.count


class Interval:
    """[start, end) in microseconds."""

    def __init__(self, start, end):
        self.start = start
        self.end = end

    def elapsed_us(self):
        """The interval's length."""
        return self.end - self.start


class FunctionEvent(FormattedTimesMixin):
    """One recorded range: an op (``aten::mm``), a backward node, a record_function
    label. ``cpu_parent``/``cpu_children`` give its nesting on its thread,
    ``self_cpu_time_total`` its time outside its children.

    >>> from autograd_core.autograd.profiler import FunctionEvent
    >>> e = FunctionEvent(id=0, name="aten::mm", thread=1, start_us=3, end_us=8)
    >>> e.cpu_time_total, e.key
    (5, 'aten::mm')
    """

    def __init__(self, id, name, thread, start_us, end_us, overload_name=None,
                 fwd_thread=None, input_shapes=None, stack=None, scope=0, use_device=None,
                 cpu_memory_usage=0, device_memory_usage=0, is_async=False, is_remote=False,
                 sequence_nr=-1, node_id=-1, device_type=DeviceType.CPU, device_index=0,
                 device_resource_id=None, is_legacy=False, flops=None, trace_name=None,
                 concrete_inputs=None, kwinputs=None, is_user_annotation=False,
                 is_python_function=False, activity_type=None, metadata_json=None,
                 flow_id=None, flow_type=None, flow_start=None, external_id=0,
                 linked_correlation_id=0, extra_meta=None, structured_input_shapes=None,
                 structured_input_strides=None, input_dtypes=None, python_id=-1,
                 python_parent_id=-1, python_module_id=-1):
        self.id = id
        self.node_id = node_id
        self.name = name
        self.overload_name = overload_name
        self.trace_name = trace_name
        self.time_range = Interval(start_us, end_us)
        self.thread = thread
        self.fwd_thread = fwd_thread
        self.kernels = []
        self.count = 1
        self.cpu_children = []
        self.cpu_parent = None
        self.input_shapes = input_shapes
        self.concrete_inputs = concrete_inputs
        self.kwinputs = kwinputs
        self.stack = stack
        self.scope = scope
        self.use_device = use_device
        self.cpu_memory_usage = cpu_memory_usage
        self.device_memory_usage = device_memory_usage
        self.is_async = is_async
        self.is_remote = is_remote
        self.sequence_nr = sequence_nr
        self.device_type = device_type
        self.device_index = device_index
        self.device_resource_id = thread if device_resource_id is None else device_resource_id
        self.is_legacy = is_legacy
        self.flops = flops
        self.is_user_annotation = is_user_annotation
        self.is_python_function = is_python_function
        self.activity_type = activity_type
        self.self_cpu_percent = -1
        self.total_cpu_percent = -1
        self.total_device_percent = -1
        self._metadata_json = metadata_json
        self.flow_id = flow_id
        self.flow_type = flow_type
        self.flow_start = flow_start
        self.external_id = external_id
        self.linked_correlation_id = linked_correlation_id
        self.event_metadata = None
        self.structured_input_shapes = structured_input_shapes
        self.structured_input_strides = structured_input_strides
        self.input_dtypes = input_dtypes
        self.python_id = python_id
        self.python_parent_id = python_parent_id
        self.python_module_id = python_module_id

    def append_kernel(self, name, device, duration):
        if self.device_type != DeviceType.CPU:
            raise AssertionError("Expected device_type to be CPU")
        self.kernels.append(Kernel(name, device, duration))

    def append_cpu_child(self, child):
        """Add a direct child (its range lies inside this one, on the same thread)."""
        if not isinstance(child, FunctionEvent):
            raise AssertionError("Expected child to be a FunctionEvent")
        self.cpu_children.append(child)

    def set_cpu_parent(self, parent):
        """Set the event whose range directly contains this one."""
        if not isinstance(parent, FunctionEvent):
            raise AssertionError("Expected parent to be a FunctionEvent")
        self.cpu_parent = parent

    @property
    def self_cpu_memory_usage(self):
        if self.is_async or self.device_type != DeviceType.CPU:
            return 0
        return self.cpu_memory_usage - sum(c.cpu_memory_usage for c in self.cpu_children)

    @property
    def self_device_memory_usage(self):
        if self.is_async or self.device_type != DeviceType.CPU:
            return 0
        return self.device_memory_usage - sum(c.device_memory_usage
                                              for c in self.cpu_children)

    @property
    def metadata_json(self):
        return self._metadata_json

    @property
    def cpu_time_total(self):
        return self.time_range.elapsed_us() if self.device_type == DeviceType.CPU else 0

    @property
    def self_cpu_time_total(self):
        if self.is_async or self.device_type != DeviceType.CPU:
            return 0
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def device_time_total(self):
        if self.is_async or not self.use_device:
            return 0
        return sum(k.duration for k in self.kernels) + sum(
            c.device_time_total for c in self.cpu_children)

    @property
    def self_device_time_total(self):
        if self.is_async or not self.use_device:
            return 0
        return self.device_time_total - sum(c.device_time_total for c in self.cpu_children)

    @property
    def key(self):
        return self.name

    def __repr__(self):
        dev = self.use_device
        return (
            f"<FunctionEvent id={self.id} name={self.name} overload_name={self.overload_name} "
            f"device_type={self.device_type} node_id={self.node_id} "
            f"cpu_time={self.cpu_time_str} start_us={self.time_range.start} "
            f"end_us={self.time_range.end} "
            f"cpu_children={[c.id for c in self.cpu_children]} {dev}_time={self.device_time_str} "
            f"name={self.name} thread={self.thread} input_shapes={self.input_shapes} "
            f"cpu_memory_usage={self.cpu_memory_usage} "
            f"{dev}_memory_usage={self.device_memory_usage} is_async={self.is_async} "
            f"is_remote={self.is_remote} seq_nr={self.sequence_nr} is_legacy={self.is_legacy}>")


class FunctionEventAvg(FormattedTimesMixin):
    """The events of one key added up: count, total and self times, memory. ``cpu_time``
    is the average per call.

    >>> from autograd_core.autograd.profiler import FunctionEvent, FunctionEventAvg
    >>> avg = FunctionEventAvg()
    >>> _ = avg.add(FunctionEvent(id=0, name="foo", thread=0, start_us=10, end_us=15))
    >>> _ = avg.add(FunctionEvent(id=1, name="foo", thread=0, start_us=20, end_us=30))
    >>> avg.key, avg.count, avg.cpu_time_total, avg.cpu_time
    ('foo', 2, 15, 7.5)
    """

    def __init__(self):
        self.key = None
        self.count = 0
        self.node_id = 0
        self.is_async = False
        self.is_remote = False
        self.use_device = None
        self.cpu_time_total = 0
        self.device_time_total = 0
        self.self_cpu_time_total = 0
        self.self_device_time_total = 0
        self.input_shapes = None
        self.overload_name = None
        self.stack = None
        self.scope = None
        self.cpu_memory_usage = 0
        self.device_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.self_device_memory_usage = 0
        self.cpu_children = None
        self.cpu_parent = None
        self.device_type = DeviceType.CPU
        self.is_legacy = False
        self.flops = 0

    def add(self, other):
        """Add an event (or another average) with the same key; returns self."""
        if self.key is None:
            # the first one added gives the descriptive fields
            for attr in ("key", "node_id", "is_async", "is_remote", "cpu_parent",
                         "cpu_children", "overload_name", "input_shapes", "stack", "scope",
                         "device_type", "is_legacy", "use_device", "is_user_annotation"):
                setattr(self, attr, getattr(other, attr))
        if not isinstance(other, (FunctionEvent, FunctionEventAvg)):
            raise AssertionError("Expected other to be a FunctionEvent or FunctionEventAvg")
        if other.key != self.key:
            raise AssertionError(f"Expected keys to match, but got {other.key} vs {self.key}")
        for attr in ("cpu_time_total", "device_time_total", "self_cpu_time_total",
                     "self_device_time_total", "cpu_memory_usage", "device_memory_usage",
                     "self_cpu_memory_usage", "self_device_memory_usage", "count"):
            setattr(self, attr, getattr(self, attr) + getattr(other, attr))
        if self.flops is None:
            self.flops = other.flops
        elif other.flops is not None:
            self.flops += other.flops
        return self

    def __iadd__(self, other):
        return self.add(other)

    def __repr__(self):
        dev = self.use_device or "cuda"
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
            f"cpu_time={self.cpu_time_str}  self_{dev}_time={self.self_device_time_total_str} "
            f"{dev}_time={self.device_time_str} input_shapes={self.input_shapes} "
            f"cpu_memory_usage={self.cpu_memory_usage} "
            f"{dev}_memory_usage={self.device_memory_usage}>")


class MemRecordsAcc:
    """Memory records indexed by start time, to find those inside an interval.
    Each record is a sequence whose first item has ``start_ns()``."""

    def __init__(self, mem_records):
        self._mem_records = mem_records
        order = sorted((r[0].start_ns(), i) for i, r in enumerate(mem_records))
        self._start_nses = [s for s, _ in order]
        self._indices = [i for _, i in order]

    def in_interval(self, start_ns, end_ns):
        """The records starting in [start_ns, end_ns]."""
        lo = bisect.bisect_left(self._start_nses, start_ns)
        hi = bisect.bisect_right(self._start_nses, end_ns)
        for k in range(lo, hi):
            yield self._mem_records[self._indices[k]]


class EventList(list):
    """A list of FunctionEvent (or FunctionEventAvg) with PyTorch's views of it:
    ``table()``, ``key_averages()``, ``total_average()``, ``export_chrome_trace()``,
    ``self_cpu_time_total``.

    >>> import autograd_core as torch
    >>> with torch.profiler.profile() as prof:
    ...     y = torch.ones(3) * 2
    >>> [e.name for e in prof.events()]
    ['aten::mul']
    """

    def __init__(self, *args, use_device=None, profile_memory=False, with_flops=False,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self._use_device = use_device
        self._profile_memory = profile_memory
        self._tree_built = False
        self._with_flops = with_flops

    def _build_tree(self):
        self._populate_cpu_children()
        self._remove_dup_nodes()
        self._set_backward_stacktraces()
        self._tree_built = True

    def __str__(self):
        return self.table()

    def _remove_dup_nodes(self):
        # an event whose only child has its name (a wrapper recording the same op
        # twice) is merged with that child
        while True:
            dropped = set()
            for i, evt in enumerate(self):
                parent = evt.cpu_parent
                if parent is not None and parent.name == evt.name and \
                        len(parent.cpu_children) == 1:
                    parent.cpu_children = evt.cpu_children
                    parent.kernels = evt.kernels
                    for ch in evt.cpu_children:
                        ch.cpu_parent = parent
                    dropped.add(i)
            if not dropped:
                return
            kept = [e for i, e in enumerate(self) if i not in dropped]
            self.clear()
            self.extend(kept)

    def _populate_cpu_children(self):
        """Link each event to the innermost event of its thread whose range contains
        its own ([s1, e1) inside [s2, e2)); ranges that only overlap are not nested.
        Async events take no part."""
        sync = [e for e in self if not e.is_async and e.device_type == DeviceType.CPU]
        sync.sort(key=lambda e: e.thread)
        for _, group in itertools.groupby(sync, key=lambda e: (e.thread, e.node_id)):
            open_ = []
            for evt in sorted(group, key=lambda e: [e.time_range.start, -e.time_range.end]):
                while open_:
                    top = open_[-1]
                    if evt.time_range.start >= top.time_range.end or \
                            evt.time_range.end > top.time_range.end:
                        open_.pop()
                        continue
                    top.append_cpu_child(evt)
                    if evt.cpu_parent is not None:
                        raise AssertionError(
                            f"There is already a CPU parent event for {evt.key}")
                    evt.set_cpu_parent(top)
                    break
                open_.append(evt)

    def _set_backward_stacktraces(self):
        # an event inside a backward node gets the stack of the forward op that made
        # the node (same sequence number, forward thread)
        def backward_node(evt):
            while evt is not None:
                if evt.scope == 1:
                    return evt
                evt = evt.cpu_parent
            return None

        forward = {}
        for evt in self:
            if backward_node(evt) is None and evt.stack is not None:
                forward.setdefault((evt.sequence_nr, evt.thread), evt.stack)
        for evt in self:
            node = backward_node(evt)
            if node is not None:
                evt.stack = forward.get((node.sequence_nr, node.fwd_thread), [])

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False, time_unit=None):
        """The events as PyTorch's profiler table: Name, Self CPU %, Self CPU, CPU total
        %, CPU total, CPU time avg, (CPU Mem, Self CPU Mem with profile_memory),
        # of Calls, (Input Shapes when recorded, Source Location with stacks, Total
        FLOPs with with_flops). sort_by: an attribute (``cpu_time_total``,
        ``self_cpu_time_total``, ``count``, ...), largest first; row_limit rows
        (-1: all); time_unit ``s``/``ms``/``us`` fixes the unit."""
        return _build_table(self, sort_by=sort_by, row_limit=row_limit,
                            max_src_column_width=max_src_column_width,
                            max_name_column_width=max_name_column_width,
                            max_shapes_column_width=max_shapes_column_width, header=header,
                            profile_memory=self._profile_memory, with_flops=self._with_flops,
                            top_level_events_only=top_level_events_only, time_unit=time_unit)

    def export_chrome_trace(self, path):
        """Write the events as a Chrome trace (a JSON list of complete ``"ph": "X"``
        events: name, ts and dur in microseconds, tid, pid), for chrome://tracing."""
        out = []
        for evt in self:
            if evt.trace_name is None:
                continue
            out.append({"name": evt.trace_name, "ph": "X", "ts": evt.time_range.start,
                        "dur": evt.time_range.elapsed_us(), "tid": evt.thread,
                        "pid": "CPU functions", "args": {}})
        with open(path, "w") as f:
            json.dump(out, f)

    def supported_export_stacks_metrics(self):
        return ["self_cpu_time_total", "self_cuda_time_total", "self_xpu_time_total",
                "self_privateuse1_time_total"]

    def export_stacks(self, path, metric):
        """Write one line per event with a stack: its frames outermost first joined by
        ';', then the metric's integer value (the folded format of flame graphs)."""
        if metric not in self.supported_export_stacks_metrics():
            raise ValueError("metric should be one of: "
                             + str(self.supported_export_stacks_metrics()))
        table = str.maketrans(" ;\t\n", "____")
        attr = metric.replace("cuda", "device").replace("xpu", "device") \
            .replace("privateuse1", "device")
        with open(path, "w") as f:
            for evt in self:
                if evt.stack:
                    value = getattr(evt, attr)
                    if int(value) > 0:
                        frames = ";".join(s.translate(table) for s in reversed(evt.stack))
                        f.write(f"{frames} {int(value)}\n")

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        """An EventList of FunctionEventAvg, one per event name (and per input shapes
        with group_by_input_shapes, per top stack frames with group_by_stack_n), in
        order of first appearance."""
        if not self._tree_built:
            raise AssertionError("Expected tree to be built before calling key_averages")
        groups = defaultdict(FunctionEventAvg)
        for evt in self:
            key = [str(evt.key), str(evt.node_id), str(evt.device_type), str(evt.is_legacy),
                   str(evt.is_user_annotation)]
            if group_by_overload_name:
                key.append(evt.overload_name)
            if group_by_input_shapes:
                key.append(str(evt.input_shapes))
            if group_by_stack_n > 0:
                key += evt.stack[:group_by_stack_n]
            groups[tuple(key)].add(evt)
        result = EventList(groups.values(), use_device=self._use_device,
                           profile_memory=self._profile_memory, with_flops=self._with_flops)
        for avg in result:
            avg.stack = avg.stack[:group_by_stack_n]
            if not group_by_input_shapes:
                avg.input_shapes = ""
            if not group_by_overload_name:
                avg.overload_name = ""
        return result

    def total_average(self):
        """Every event added into one FunctionEventAvg keyed "Total"."""
        total = FunctionEventAvg()
        for evt in self:
            total += evt
            total.key = None
        total.key = "Total"
        return total


def _flops_scale(flops):
    names = ["FLOPs", "KFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs"]
    level = int(max(0, min(math.log10(flops) / 3, float(len(names) - 1))))
    return 10.0 ** (level * -3), names[level]


def _build_table(events, sort_by=None, header=None, row_limit=100, max_src_column_width=75,
                 max_name_column_width=55, max_shapes_column_width=80, with_flops=False,
                 profile_memory=False, top_level_events_only=False, time_unit=None):
    if len(events) == 0:
        return ""
    has_device_time = any(e.self_device_time_total > 0 for e in events)
    use_device = events[0].use_device
    if not use_device and has_device_time:
        raise RuntimeError("use_device is None, but there is device performance data.")
    has_shapes = any(e.input_shapes is not None and len(e.input_shapes) > 0 for e in events)
    has_overloads = any(e.overload_name is not None and len(e.overload_name) > 0
                        for e in events)
    if sort_by is not None:
        attr = sort_by.replace("cuda", "device").replace("xpu", "device") \
            .replace("privateuse1", "device")
        events = EventList(sorted(events, key=lambda e: getattr(e, attr), reverse=True),
                           use_device=use_device, profile_memory=profile_memory,
                           with_flops=with_flops)

    name_width = max(len(e.key) for e in events) + 4
    if max_name_column_width is not None:
        name_width = min(name_width, max_name_column_width)
    shapes_width = max(len(str(e.input_shapes)) for e in events) + 4
    if max_shapes_column_width is not None:
        shapes_width = min(shapes_width, max_shapes_column_width)
    stacks = [e.stack for e in events if e.stack is not None and len(e.stack) > 0]
    src_width = None
    if stacks:
        src_width = max(len(entry) for s in stacks for entry in s) + 4
        if max_src_column_width is not None:
            src_width = min(src_width, max_src_column_width)

    WIDTH = 12
    columns = []          # (title, width, align)
    columns.append(("Name", name_width, ">"))
    if has_overloads:
        columns.append(("Overload Name", name_width, ">"))
    for title in ("Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"):
        columns.append((title, WIDTH, ">"))
    dev = use_device.upper() if use_device is not None else "None"
    if has_device_time:
        for title in (f"Self {dev}", f"Self {dev} %", f"{dev} total", f"{dev} time avg"):
            columns.append((title, WIDTH, ">"))
    if profile_memory:
        columns += [("CPU Mem", WIDTH, ">"), ("Self CPU Mem", WIDTH, ">")]
    columns.append(("# of Calls", WIDTH, ">"))
    with_node_id = any(e.node_id != -1 for e in events)
    if with_node_id:
        columns.append(("Node ID", WIDTH, ">"))
    if has_shapes:
        columns.append(("Input Shapes", shapes_width, ">"))
    if stacks:
        columns.append(("Source Location", src_width, "<"))
    flops_scale = None
    if with_flops:
        positive = [e.flops for e in events if e.flops is not None and e.flops > 0]
        if positive:
            flops_scale, flops_name = _flops_scale(min(positive))
            columns.append((f"Total {flops_name}", WIDTH, ">"))
        else:
            with_flops = False

    row_format = "".join("{: " + align + str(width) + "}  " for _, width, align in columns)
    separator = "".join("-" * width + "  " for _, width, _ in columns)
    line_length = sum(width + 2 for _, width, _ in columns) - 2

    total_self_cpu = sum(e.self_cpu_time_total for e in events)
    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_events_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [separator, row_format.format(*[c[0] for c in columns]), separator]

    def clip(name):
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            return name[:max_name_column_width - 3] + "..."
        return name

    def trim(path):
        if len(path) > src_width:
            path = path[len(path) - src_width:]
            if len(path) > 3:
                path = "..." + path[3:]
        return path

    shown = 0
    for evt in events:
        if shown == row_limit:
            break
        if top_level_events_only and evt.cpu_parent is not None:
            continue
        shown += 1
        evt.self_cpu_percent = _format_time_share(evt.self_cpu_time_total, total_self_cpu)
        evt.total_cpu_percent = (_format_time_share(evt.cpu_time_total, total_self_cpu)
                                 if not evt.is_async else 0)
        row = [clip(evt.key)]
        if has_overloads:
            row.append(clip(evt.overload_name))
        row += [evt.self_cpu_percent, _format_time_in(evt.self_cpu_time_total, time_unit),
                evt.total_cpu_percent, _format_time_in(evt.cpu_time_total, time_unit),
                _format_time_in(evt.cpu_time, time_unit)]
        if has_device_time:
            row += [_format_time_in(evt.self_device_time_total, time_unit), "0.00%",
                    _format_time_in(evt.device_time_total, time_unit),
                    _format_time_in(evt.device_time, time_unit)]
        if profile_memory:
            row += [_format_memory(evt.cpu_memory_usage),
                    _format_memory(evt.self_cpu_memory_usage)]
        row.append(evt.count)
        if with_node_id:
            row.append(evt.node_id)
        if has_shapes:
            row.append(str(evt.input_shapes)[:shapes_width])
        if stacks:
            row.append(trim(evt.stack[0]) if evt.stack else "")
        if with_flops:
            row.append("--" if not evt.flops or evt.flops <= 0
                       else f"{evt.flops * flops_scale:8.3f}")
        lines.append(row_format.format(*row))
        if stacks:
            blank = [""] * (len(columns) - 1)
            for entry in (evt.stack or [])[1:]:
                lines.append(row_format.format(*(blank + [trim(entry)])))
            lines.append(row_format.format(*([""] * len(columns))))
    lines.append(separator)
    lines.append(f"Self CPU time total: {_format_time_in(total_self_cpu, time_unit)}")
    return "".join(line + "\n" for line in lines)
