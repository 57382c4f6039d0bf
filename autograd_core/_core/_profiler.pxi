# The profiler's recorder (torch.autograd.profiler / torch.profiler sit on top of it).
#
# Note [Profiler hook]
# Profiling costs nothing while it is off: no op checks a flag. Every call to an op
# from outside its family (Tensor operators, the generated Python wrappers, composites,
# derivative formulas, the engine) goes through OPS (Note [Op table]); each family
# also registers, in OPS_PROFILED, a twin of every op with the same C signature that
# records an event named as PyTorch's ATen op ("aten::mm") around the call
# (ops/_codegen.py, gen_profiled). profiler_start swaps the whole OPS table for the
# twins and profiler_stop swaps it back, so only a profiled run pays. Calls inside a
# family (an in-place op calling its out-of-place kernel, a kernel helper) bypass OPS
# and record nothing, as PyTorch's own kernels record only ATen ops.
# The engine checks profiler_enabled once per node it runs (not per op) and records
# PyTorch's two events per node: "autograd::engine::evaluate_function: <name>" around
# the whole step (hooks, the derivative, reducing gradients to their inputs' shapes)
# and "<name>" around the derivative itself, with the node's sequence number. A forward
# op that records a node carries the sequence number that node gets (PyTorch's
# sequence_nr pairing forward and backward events); other ops carry -1.
# record_function pushes a user-scope event through the same recorder.
# As PyTorch's, the profiler records on the thread that started it only (PyTorch's
# RecordFunction callbacks are thread-local; other threads it starts itself inherit
# them, plain Python threads do not). Events nest by a stack of open events: an
# event's parent is the event open when it started.
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec
from cpython.pythread cimport PyThread_get_thread_ident


cdef bint profiler_enabled = False
cdef bint _profiler_shapes = False
cdef bint _profiler_memory = False
cdef OpTable OPS_PROFILED
cdef OpTable _ops_plain
cdef list _profiler_events = None
cdef dict _profiler_stacks = None
cdef unsigned long _profiler_thread = 0

# PyTorch's RecordScope values seen on events (FunctionEvent.scope)
cdef enum:
    SCOPE_FUNCTION = 0
    SCOPE_BACKWARD_FUNCTION = 1
    SCOPE_USER = 7


cdef inline int64_t _now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <int64_t>ts.tv_sec * 1000000000 + ts.tv_nsec


@cython.final
@cython.freelist(64)
cdef class ProfilerRecord:
    """One recorded range: name, start and end (monotonic ns), thread, the record open
    on its thread when it started (parent), input shapes (record_shapes), sequence
    number, the forward thread of a backward node's events, PyTorch's record scope."""
    cdef readonly str name
    cdef readonly int64_t start_ns
    cdef readonly int64_t end_ns
    cdef readonly unsigned long thread
    cdef readonly unsigned long fwd_thread
    cdef readonly object parent
    cdef readonly list input_shapes
    cdef readonly int64_t sequence_nr
    cdef readonly int scope
    cdef readonly int64_t cpu_memory_usage
    cdef tuple input_storages


cdef list _input_shapes(tuple inputs):
    cdef list out = []
    for a in inputs:
        if isinstance(a, Tensor):
            out.append(list(shape_of((<Tensor>a)._data)))
        else:
            out.append([])
    return out


cdef ProfilerRecord _profiler_push(str name, tuple inputs, int64_t seq, int scope,
                                   unsigned long fwd_thread):
    if not profiler_enabled:
        return None
    cdef unsigned long tid = PyThread_get_thread_ident()
    if tid != _profiler_thread:
        return None
    cdef list stack = _profiler_stacks.get(tid)
    if stack is None:
        stack = _profiler_stacks[tid] = []
    cdef ProfilerRecord r = ProfilerRecord.__new__(ProfilerRecord)
    r.name = name
    r.thread = tid
    r.fwd_thread = fwd_thread
    r.parent = stack[-1] if stack else None
    r.input_shapes = _input_shapes(inputs) if _profiler_shapes and inputs is not None else []
    r.sequence_nr = seq
    r.scope = scope
    r.end_ns = -1
    r.cpu_memory_usage = 0
    if _profiler_memory and inputs is not None:
        r.input_storages = tuple([id(_storage_of(<Tensor>a)) for a in inputs
                                  if isinstance(a, Tensor)])
    _profiler_events.append(r)
    stack.append(r)
    r.start_ns = _now_ns()
    return r


cdef object profiler_enter(str name, tuple inputs):
    """Open an op's event (Note [Profiler hook]); None when the profiler is off."""
    return _profiler_push(name, inputs,
                          <int64_t>_next_sequence_nr + 1 if agc_recording() else -1,
                          SCOPE_FUNCTION, 0)


cdef object profiler_enter_node(Node node, tuple grads, bint evaluate):
    """Open a backward node's event: the engine's evaluate_function range (evaluate) or
    the node's own range around its derivative, with the node's sequence number."""
    cdef uint64_t seq = node_seq(node)
    cdef str name = node.name()
    return _profiler_push(("autograd::engine::evaluate_function: " + name) if evaluate
                          else name,
                          None if evaluate else grads,
                          -1 if seq == ACCUMULATE_SEQ else <int64_t>seq,
                          SCOPE_FUNCTION if evaluate else SCOPE_BACKWARD_FUNCTION,
                          PyThread_get_thread_ident())


cdef inline object _storage_of(Tensor t):
    cdef object a = t._data
    while a.base is not None:
        a = a.base
    return a


cdef int64_t _new_bytes(object result, tuple input_storages) except -1:
    """Bytes of the arrays an op's results own that none of its inputs shares (the
    memory it allocated, as far as it outlives the op: profile_memory)."""
    cdef int64_t n = 0
    cdef set seen = set()
    for t in (result if isinstance(result, (tuple, list)) else (result,)):
        if not isinstance(t, Tensor):
            continue
        root = _storage_of(<Tensor>t)
        if id(root) in seen or (input_storages is not None and id(root) in input_storages):
            continue
        seen.add(id(root))
        n += root.nbytes
    return n


cdef int profiler_exit(object record, object result=None) except -1:
    """Close an event opened by profiler_enter*: its end time (and with profile_memory
    the bytes its results allocated), and off its thread's stack (wherever it is
    there: a record_function may close out of order)."""
    if record is None:
        return 0
    cdef ProfilerRecord r = <ProfilerRecord>record
    r.end_ns = _now_ns()
    if _profiler_memory and result is not None:
        r.cpu_memory_usage = _new_bytes(result, r.input_storages)
    if _profiler_stacks is None:
        return 0
    cdef list stack = _profiler_stacks.get(r.thread)
    cdef Py_ssize_t i
    if stack:
        if stack[-1] is r:
            stack.pop()
        else:
            for i in range(len(stack) - 1, -1, -1):
                if stack[i] is r:
                    del stack[i]
                    break
    return 0


def _profiler_start(bint record_shapes, bint profile_memory=False):
    """Start recording (Note [Profiler hook]): every op call goes through its profiled
    twin until _profiler_stop."""
    global profiler_enabled, _profiler_shapes, _profiler_events, _profiler_stacks, OPS
    global _ops_plain, _profiler_memory, _profiler_thread
    if profiler_enabled:
        raise RuntimeError("Profiler is already enabled on this thread")
    _profiler_events = []
    _profiler_stacks = {}
    _profiler_shapes = record_shapes
    _profiler_memory = profile_memory
    _profiler_thread = PyThread_get_thread_ident()
    _ops_plain = OPS
    OPS = OPS_PROFILED
    profiler_enabled = True
    return _now_ns()


def _profiler_stop():
    """Stop recording; return (records in start order, stop time in monotonic ns).
    Ranges still open end at the stop."""
    global profiler_enabled, _profiler_events, _profiler_stacks, OPS
    if not profiler_enabled:
        raise RuntimeError("Profiler is not enabled")
    OPS = _ops_plain
    profiler_enabled = False
    cdef int64_t now = _now_ns()
    cdef list events = _profiler_events
    _profiler_events = None
    _profiler_stacks = None
    for r in events:
        if (<ProfilerRecord>r).end_ns < 0:
            (<ProfilerRecord>r).end_ns = now
    return events, now


def _profiler_now():
    """The recorder's clock (monotonic ns)."""
    return _now_ns()


def _profiler_is_enabled():
    return profiler_enabled


def _record_function_enter(str name, tuple inputs=None, bint user_scope=True):
    """Open a range (a record_function's, user_scope; with_stack's Python calls, not);
    None when the profiler is off or on another thread."""
    return _profiler_push(name, inputs, -1, SCOPE_USER if user_scope else SCOPE_FUNCTION, 0)


def _record_function_exit(record):
    profiler_exit(record)
