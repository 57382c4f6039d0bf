# The profiler's recorder (torch.autograd.profiler / torch.profiler sit on top of it).
#
# Note [Op hook]
# Observing ops costs nothing while nobody observes: no op checks a flag. Every call to
# an op from outside its family (Tensor operators, the generated Python wrappers,
# composites, derivative formulas, the engine) goes through OPS (Note [Op table]); each
# family also registers, in OPS_HOOKED, a twin of every op with the same C signature
# (ops/_codegen.py, gen_hooked) that calls op_hook_enter("aten::<name>", args) before
# the op and op_hook_exit(event, result) after it. The core swaps the whole OPS table
# for the twins while the profiler or a Python op hook is on (_update_table) and back
# when the last one goes, so only an observed run pays. Calls inside a family (an
# in-place op calling its out-of-place kernel, a kernel helper) bypass OPS and are not
# seen, as PyTorch's own kernels record and dispatch only ATen ops.
# Two users share the one mechanism:
# - the profiler records an event named as PyTorch's ATen op ("aten::mm") around the
#   call (profiler_enter / profiler_exit below);
# - Python op hooks (_push_op_hook / _pop_op_hook), the way PyTorch's dispatch modes see
#   ATen ops: hook.op_enter(name, args) before the op; returning OpResult(value) from it
#   skips the op and makes value its result (selective checkpointing's recomputation
#   hands back a saved output this way; hooks outside it are not entered), then
#   hook.op_exit(state, result) after it (result None when the op raised). Hooks are
#   per thread (as modes are); the innermost (last pushed) is entered first and exited
#   last. Ops a hook's own callbacks run are not hooked (as a mode's
#   __torch_dispatch__ runs with the mode off). The profiler's event encloses the hooks.
# With only the profiler on, op_hook_enter returns its event directly (one list check).
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
cdef OpTable OPS_HOOKED
cdef OpTable _ops_plain
cdef bint _table_hooked = False
cdef list _py_op_hooks = []     # [(thread ident, hook)], innermost last
cdef int _py_hook_running = 0   # > 0 while a hook's callback runs (its ops are not hooked)
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
    """Open an op's profiler event (Note [Op hook]); None when the profiler is off."""
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
    """Start recording (Note [Op hook]): every op call goes through its hooked twin
    until _profiler_stop."""
    global profiler_enabled, _profiler_shapes, _profiler_events, _profiler_stacks
    global _profiler_memory, _profiler_thread
    if profiler_enabled:
        raise RuntimeError("Profiler is already enabled on this thread")
    _profiler_events = []
    _profiler_stacks = {}
    _profiler_shapes = record_shapes
    _profiler_memory = profile_memory
    _profiler_thread = PyThread_get_thread_ident()
    profiler_enabled = True
    _update_table()
    return _now_ns()


def _profiler_stop():
    """Stop recording; return (records in start order, stop time in monotonic ns).
    Ranges still open end at the stop."""
    global profiler_enabled, _profiler_events, _profiler_stacks
    if not profiler_enabled:
        raise RuntimeError("Profiler is not enabled")
    profiler_enabled = False
    _update_table()
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


# ---------------------------------------------------------------- op hook (Note [Op hook])

cdef int _update_table() except -1:
    """OPS is the table of hooked twins exactly while the profiler or a Python op hook
    is on."""
    global OPS, _ops_plain, _table_hooked
    cdef bint want = profiler_enabled or len(_py_op_hooks) > 0
    if want and not _table_hooked:
        _ops_plain = OPS
        OPS = OPS_HOOKED
        _table_hooked = True
    elif not want and _table_hooked:
        OPS = _ops_plain
        _table_hooked = False
    return 0


@cython.final
cdef class OpResult:
    """What an op hook's ``op_enter`` returns to make ``value`` the op's result without
    running it (Note [Op hook])."""
    cdef readonly object value

    def __init__(self, value):
        self.value = value


@cython.final
@cython.freelist(8)
cdef class _OpCall:
    """One hooked op call seen by Python hooks: the profiler's event, the hooks entered
    (innermost first) with their states, the result a hook supplied."""
    cdef object record
    cdef list entered
    cdef object supplied


cdef object op_hook_enter(str name, tuple inputs):
    """Open an op call (Note [Op hook]): the profiler's event alone when no Python hook
    is on, else an _OpCall."""
    if not _py_op_hooks:
        return profiler_enter(name, inputs)
    return _py_hooks_enter(name, inputs)


cdef object _py_hooks_enter(str name, tuple inputs):
    global _py_hook_running
    cdef object record = profiler_enter(name, inputs) if profiler_enabled else None
    if _py_hook_running:
        return record
    cdef unsigned long tid = PyThread_get_thread_ident()
    cdef _OpCall call = _OpCall.__new__(_OpCall)
    call.record = record
    call.entered = []
    call.supplied = None
    cdef list hooks = list(_py_op_hooks)
    cdef Py_ssize_t i
    for i in range(len(hooks) - 1, -1, -1):
        entry = hooks[i]
        if <unsigned long>entry[0] != tid:
            continue
        hook = entry[1]
        _py_hook_running += 1
        try:
            state = hook.op_enter(name, inputs)
        except BaseException:
            _py_hook_running -= 1
            _py_hooks_exit(call, None)
            raise
        _py_hook_running -= 1
        call.entered.append((hook, state))
        if type(state) is OpResult:
            call.supplied = (<OpResult>state).value
            break
    return call


cdef object op_hook_supplied(object event):
    """The result a hook supplied for this call, None when the op runs."""
    if type(event) is _OpCall:
        return (<_OpCall>event).supplied
    return None


cdef int _py_hooks_exit(_OpCall call, object result) except -1:
    global _py_hook_running
    cdef Py_ssize_t i
    cdef object error = None
    for i in range(len(call.entered) - 1, -1, -1):
        hook, state = call.entered[i]
        _py_hook_running += 1
        try:
            hook.op_exit(state, result)
        except BaseException as e:
            if error is None:
                error = e
        finally:
            _py_hook_running -= 1
    call.entered = None
    profiler_exit(call.record, result)
    if error is not None:
        raise error
    return 0


cdef int op_hook_exit(object event, object result) except -1:
    """Close an op call opened by op_hook_enter (Note [Op hook])."""
    if event is None:
        return 0
    if type(event) is _OpCall:
        return _py_hooks_exit(<_OpCall>event, result)
    return profiler_exit(event, result)


def _push_op_hook(hook):
    """Make hook see every op call on this thread (Note [Op hook]): hook.op_enter(name,
    args) -> state (OpResult(value) to supply the result), hook.op_exit(state, result)."""
    _py_op_hooks.append((PyThread_get_thread_ident(), hook))
    _update_table()


def _pop_op_hook(hook):
    """Remove the latest registration of hook (Note [Op hook])."""
    cdef Py_ssize_t i
    for i in range(len(_py_op_hooks) - 1, -1, -1):
        if _py_op_hooks[i][1] is hook:
            del _py_op_hooks[i]
            break
    _update_table()


def _op_hooks_active():
    """Whether OPS is the table of hooked twins now (for tests of Note [Op hook])."""
    return _table_hooked


def _current_op_hook():
    """The innermost op hook on this thread, None when there is none (PyTorch's
    _get_current_dispatch_mode)."""
    cdef unsigned long tid = PyThread_get_thread_ident()
    cdef Py_ssize_t i
    for i in range(len(_py_op_hooks) - 1, -1, -1):
        if <unsigned long>_py_op_hooks[i][0] == tid:
            return _py_op_hooks[i][1]
    return None
