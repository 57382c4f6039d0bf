"""torch.profiler's profile, schedule and trace handlers (the recording itself is
autograd_core.autograd.profiler.profile)."""
import enum
from abc import ABC, abstractmethod
import os
import socket
import time
from functools import partial
from warnings import warn

from autograd_core.autograd import profiler as prof

__all__ = ["supported_activities", "ProfilerActivity", "ProfilerAction", "schedule",
           "tensorboard_trace_handler", "profile"]

PROFILER_STEP_NAME = "ProfilerStep"


class ProfilerActivity(enum.Enum):
    """What a profiler traces. Only CPU activity exists here (no accelerator)."""
    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


def supported_activities():
    """The activities this build can trace: {ProfilerActivity.CPU}.

    >>> import autograd_core as torch
    >>> torch.profiler.supported_activities()
    {<ProfilerActivity.CPU: 0>}
    """
    return {ProfilerActivity.CPU}


class ProfilerAction(enum.Enum):
    """What the profiler does during a step (the value a schedule returns)."""
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """A profiler schedule: skip ``skip_first`` steps, then cycles of ``wait`` steps
    off, ``warmup`` steps warming up and ``active`` steps recorded (the last one
    RECORD_AND_SAVE: the trace is handed to on_trace_ready), ``repeat`` cycles
    (0: until the end). skip_first_wait: the first cycle starts without its wait.

    >>> from autograd_core.profiler import schedule
    >>> s = schedule(wait=1, warmup=1, active=2, repeat=1)
    >>> [s(i).name for i in range(5)]
    ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
    """
    def schedule_fn(step):
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        cycle = wait + warmup + active
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        at = step % cycle
        if at < wait:
            return ProfilerAction.NONE
        if at < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if at < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), "
            f"warmup={warmup} (need >= 0), active={active} (need > 0), repeat={repeat} "
            f"(need >= 0), skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warn("Profiler won't be using warmup, this can skew profiler results", stacklevel=2)
    return schedule_fn


def _default_schedule_fn(_):
    """Without a schedule: record from start to stop."""
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False,
                              use_python_export=False):
    """An on_trace_ready handler writing each trace as
    ``<dir_name>/<worker_name>.<time_ns>.pt.trace.json`` (gzipped with use_gzip), the
    layout TensorBoard's profiler plugin reads. worker_name defaults to
    ``<hostname>_<pid>``.

    >>> import autograd_core as torch, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with torch.profiler.profile(on_trace_ready=torch.profiler.tensorboard_trace_handler(d)):
    ...     y = torch.ones(2) * 3
    >>> [f.endswith(".pt.trace.json") for f in os.listdir(d)]
    [True]
    """
    def handler_fn(p):
        nonlocal worker_name
        if not os.path.isdir(dir_name):
            try:
                os.makedirs(dir_name, exist_ok=True)
            except Exception as e:
                raise RuntimeError("Can't create directory: " + dir_name) from e
        if not worker_name:
            worker_name = f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{worker_name}.{time.time_ns()}.pt.trace.json"
        if use_gzip:
            file_name += ".gz"
        p.export_chrome_trace(os.path.join(dir_name, file_name))
    return handler_fn


class _ITraceObserver(ABC):
    """What torch.profiler.profile asks of its execution_trace_observer: start() and
    stop() with the recording steps, cleanup() at the profiler's exit."""

    @abstractmethod
    def start(self):
        pass

    @abstractmethod
    def stop(self):
        pass

    @abstractmethod
    def cleanup(self):
        pass


class _KinetoProfile:
    """Start/stop recording around a block, without a schedule (torch.profiler's
    low-level profiler)."""

    def __init__(self, *, activities=None, record_shapes=False, profile_memory=False,
                 with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False,
                 custom_trace_id_callback=None, post_processing_timeout_s=None):
        self.activities = set(activities) if activities else supported_activities()
        for a in self.activities:
            if not isinstance(a, ProfilerActivity):
                raise AssertionError("No valid profiler activities found")
        if self.activities - {ProfilerActivity.CPU}:
            names = ", ".join(sorted(a.name for a in self.activities - {ProfilerActivity.CPU}))
            warn(f"Profiler activities {names} are not available: profiling the CPU only",
                 stacklevel=3)
        self.record_shapes = record_shapes
        self.with_flops = with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        self.experimental_config = experimental_config
        self.execution_trace_observer = execution_trace_observer
        self.acc_events = acc_events
        self.custom_trace_id_callback = custom_trace_id_callback
        self.profiler = None
        self.use_device = None
        self._trace_metadata = {}
        self.preset_metadata = {}

    def start(self):
        self.prepare_trace()
        self.start_trace()

    def stop(self):
        self.stop_trace()

    def prepare_trace(self):
        if self.profiler is not None and not self.acc_events:
            warn("Warning: Profiler clears events at the end of each cycle. Only events "
                 "from the current cycle will be reported. To keep events across cycles, "
                 "set acc_events=True.", stacklevel=2)
        if self.profiler is None or not self.acc_events:
            self.profiler = prof.profile(
                use_cpu=ProfilerActivity.CPU in self.activities,
                record_shapes=self.record_shapes, with_flops=self.with_flops,
                profile_memory=self.profile_memory, with_stack=self.with_stack,
                with_modules=self.with_modules, use_kineto=True,
                experimental_config=self.experimental_config, acc_events=self.acc_events)
        self.profiler._prepare_trace()

    def start_trace(self):
        if self.execution_trace_observer:
            self.execution_trace_observer.start()
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before starting trace")
        self.profiler._start_trace()
        for flag in ("profile_memory", "with_stack", "record_shapes", "with_modules",
                     "with_flops"):
            if getattr(self, flag):
                self.add_metadata_json(flag, "1")
        for k, v in self.preset_metadata.items():
            self.add_metadata_json(k, v)

    def stop_trace(self):
        if self.execution_trace_observer:
            self.execution_trace_observer.stop()
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before stopping trace")
        self.profiler.__exit__(None, None, None)

    def export_chrome_trace(self, path, use_python_export=False):
        """Write the last recorded trace as Chrome trace JSON (a ``.gz`` path is
        gzipped)."""
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before exporting chrome trace")
        if path.endswith(".gz"):
            import gzip
            import tempfile
            with tempfile.TemporaryDirectory() as d:
                tmp = os.path.join(d, "trace.json")
                self.profiler.export_chrome_trace(tmp, self._trace_metadata)
                with open(tmp, "rb") as fin, gzip.open(path, "wb") as fout:
                    fout.writelines(fin)
        else:
            self.profiler.export_chrome_trace(path, self._trace_metadata)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """Write the events' stacks in flame-graph folded form (needs with_stack)."""
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before exporting stacks")
        return self.profiler.export_stacks(path, metric)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        """The events averaged per name (and input shapes / stack frames)."""
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before getting key averages")
        return self.profiler.key_averages(group_by_input_shape, group_by_stack_n,
                                          group_by_overload_name)

    def events(self):
        """The recorded FunctionEvents of the last trace, in start order."""
        if self.profiler is None:
            raise AssertionError("Profiler must be initialized before accessing events")
        return self.profiler.function_events

    def add_metadata(self, key, value):
        """Add a string entry to the exported trace's top level."""
        self._trace_metadata[key] = '"' + value.replace('"', '\\"') + '"'

    def add_metadata_json(self, key, value):
        """Add an entry (given as JSON text) to the exported trace's top level."""
        self._trace_metadata[key] = value

    def preset_metadata_json(self, key, value):
        """Metadata added when the next trace starts."""
        self.preset_metadata[key] = value


class profile(_KinetoProfile):
    """Profile a block or a training loop (PyTorch's torch.profiler.profile).

    With ``schedule``, ``step()`` marks the start of each step: steps are skipped,
    warmed up or recorded as the schedule says (each recorded step under a
    ``ProfilerStep#<n>`` range), and ``on_trace_ready(prof)`` is called when a cycle's
    last active step ends (and at exit when recording). Without a schedule the whole
    block is recorded and on_trace_ready is called at exit.

    >>> import autograd_core as torch
    >>> from autograd_core.profiler import profile, schedule
    >>> seen = []
    >>> with profile(schedule=schedule(wait=1, warmup=1, active=1),
    ...              on_trace_ready=lambda p: seen.append(p.step_num)) as p:
    ...     for _ in range(3):
    ...         y = torch.ones(2) + 1
    ...         p.step()
    >>> seen
    [3]
    """

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False,
                 with_flops=False, with_modules=False, experimental_config=None,
                 execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None, post_processing_timeout_s=None):
        activities_set = set(activities) if activities is not None else supported_activities()
        if use_cuda is not None:
            warn("`use_cuda` is deprecated, use `activities` argument instead",
                 FutureWarning, stacklevel=2)
            if use_cuda:
                activities_set.add(ProfilerActivity.CUDA)
            else:
                activities_set.discard(ProfilerActivity.CUDA)
        if len(activities_set) == 0:
            raise AssertionError("No valid profiler activities found")
        super().__init__(activities=activities_set, record_shapes=record_shapes,
                         profile_memory=profile_memory, with_stack=with_stack,
                         with_flops=with_flops, with_modules=with_modules,
                         experimental_config=experimental_config,
                         execution_trace_observer=execution_trace_observer,
                         acc_events=acc_events,
                         custom_trace_id_callback=custom_trace_id_callback)
        if schedule:
            self.schedule = schedule
            self.record_steps = True   # ProfilerStep#<n> ranges
        else:
            self.schedule = _default_schedule_fn
            self.record_steps = False
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self.step_rec_fn = None
        A = ProfilerAction
        wrong = partial(warn, stacklevel=3)
        # (previous action, new action) -> what to do; None: the profiler stops
        self.action_map = {
            (A.NONE, A.NONE): [],
            (A.NONE, A.WARMUP): [self.prepare_trace],
            (A.NONE, A.RECORD): [self.prepare_trace, self.start_trace],
            (A.NONE, A.RECORD_AND_SAVE): [self.prepare_trace, self.start_trace],
            (A.WARMUP, A.NONE): [partial(wrong, "Incorrect schedule: WARMUP followed by NONE"),
                                 self.start_trace, self.stop_trace],
            (A.WARMUP, A.WARMUP): [],
            (A.WARMUP, A.RECORD): [self.start_trace],
            (A.WARMUP, A.RECORD_AND_SAVE): [self.start_trace],
            (A.RECORD, A.NONE): [partial(wrong, "Incorrect schedule: RECORD followed by NONE"),
                                 self.stop_trace],
            (A.RECORD, A.WARMUP): [partial(wrong,
                                           "Incorrect schedule: RECORD followed by WARMUP"),
                                   self.stop_trace],
            (A.RECORD, A.RECORD): [],
            (A.RECORD, A.RECORD_AND_SAVE): [],
            (A.RECORD_AND_SAVE, A.NONE): [self.stop_trace, self._trace_ready],
            (A.RECORD_AND_SAVE, A.WARMUP): [self.stop_trace, self._trace_ready,
                                            self.prepare_trace],
            (A.RECORD_AND_SAVE, A.RECORD): [self.stop_trace, self._trace_ready,
                                            self.prepare_trace, self.start_trace],
            (A.RECORD_AND_SAVE, A.RECORD_AND_SAVE): [self.stop_trace, self._trace_ready,
                                                     self.prepare_trace, self.start_trace],
            (A.WARMUP, None): [self.start_trace, self.stop_trace],
            (A.RECORD, None): [self.stop_trace, self._trace_ready],
            (A.RECORD_AND_SAVE, None): [self.stop_trace, self._trace_ready],
        }
        prof.KinetoStepTracker.init_step_count(PROFILER_STEP_NAME)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.stop()
        prof.KinetoStepTracker.erase_step_count(PROFILER_STEP_NAME)
        if self.execution_trace_observer:
            self.execution_trace_observer.cleanup()

    def start(self):
        self._transit_action(ProfilerAction.NONE, self.current_action)
        if self.record_steps:
            self.step_rec_fn = prof.record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def stop(self):
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
        self._transit_action(self.current_action, None)

    def step(self):
        """Signal that the next step starts: the schedule's action for it is taken."""
        if self.record_steps and self.step_rec_fn:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None
        prev_action = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit_action(prev_action, self.current_action)
        if self.record_steps:
            self.step_rec_fn = prof.record_function("ProfilerStep#" + str(self.step_num))
            self.step_rec_fn.__enter__()

    def _trace_ready(self):
        if self.on_trace_ready:
            self.on_trace_ready(self)

    def _transit_action(self, prev_action, current_action):
        for action in self.action_map.get((prev_action, current_action)) or ():
            action()
