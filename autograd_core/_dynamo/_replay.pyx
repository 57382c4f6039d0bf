# cython: language_level=3
"""The compiled half of compiled mode (Note [Compiled mode] in autograd_core/_dynamo/__init__.py):
the arguments' guard key, computed from the tensors' C fields, and the replay loop, which
calls each recorded op's implementation through the op table (Note [Op table]) by its
table name, with no Python wrapper, ``__torch_function__`` check or argument parsing in
between (the recording checked the arguments once, when eager mode ran them)."""
cimport cython
cimport numpy as cnp
import numpy as np

from autograd_core._core.tensor cimport (MSG_BACKWARD_TWICE, shape_of, gc_untrack,
                                         PyObject_GC_IsTracked,
                                         VersionCounter, version_counter, legacy_type_name,
                                         shape_str, Node, OPS, Tensor,
                                         empty_like_array, grad_enabled,
                                         inference_mode_enabled, is_released, make,
                                         needs_input_grad, record_outputs, requires_grad_of,
                                         set_input_meta, tensor_hooks, post_acc_hooks_of,
                                         retains_grad_of)
from autograd_core._core.dtype cimport dtype_of
from autograd_core._core.csrc cimport *
from libc.stdlib cimport calloc, free, malloc
from cpython.long cimport PyLong_FromVoidPtr
from cpython.ref cimport PyObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.long cimport PyLong_AsVoidPtr
from autograd_core._core.opcall import op_call
from threading import get_ident

cdef extern from "pythread.h":
    unsigned long PyThread_get_thread_ident() nogil

cnp.import_array()


cdef extern from "Python.h":
    int PyObject_IS_GC(object o)
    Py_ssize_t _refcnt "Py_REFCNT"(PyObject *o)


cdef inline tuple _untracked(tuple t):
    """t, untracked by the cycle collector when none of its items is tracked: CPython's
    own rule for tuples, which it applies only when a collection first walks the tuple.
    The recording makes several such tuples per op (states, templates, slots, metas),
    alive until the entry goes: untracked at birth, no collection walks them (a 60,000-op
    recording's first collection walked 360,000 of them, 28 ms; see Note [Untracked by
    the cycle collector] in _core/_node.pxi)."""
    for x in t:
        if PyObject_IS_GC(x) and PyObject_GC_IsTracked(x):
            return t
    gc_untrack(t)
    return t


cdef inline object _id(object x):
    """id(x) without the call of the builtin (Cython calls it as a Python function): the
    recording keys its dicts by it once or twice per tensor per op."""
    return PyLong_FromVoidPtr(<void*>x)


@cython.final
cdef class Slot:
    """A place in the replay's value list: an input tensor, a constant, or an op's output."""
    cdef readonly Py_ssize_t k

    def __init__(self, Py_ssize_t k):
        self.k = k

    def __repr__(self):
        return f"Slot({self.k})"


# The ops the replay calls through OPS itself (the op table's C signatures), skipping
# op_call's lookup and the arguments' tuple: the small elementwise ops whose call overhead
# matters next to their work, and a training step's matmul (nn.Linear's, often on small
# layers) and cross_entropy (its loss, on a (batch, classes) tensor: microseconds of work).
cdef enum:
    F_NONE = 0
    F_ADD = 1
    F_SUB = 2
    F_MUL = 3
    F_DIV = 4
    F_NEG = 5
    F_EXP = 6
    F_TANH = 7
    F_SIGMOID = 8
    F_RELU = 9
    F_SUM = 10
    F_MATMUL = 11
    F_CROSS_ENTROPY = 12

cdef dict _FAST = {"add": F_ADD, "sub": F_SUB, "mul": F_MUL, "div": F_DIV, "neg": F_NEG,
                   "exp": F_EXP, "tanh": F_TANH, "sigmoid": F_SIGMOID, "relu": F_RELU,
                   "sum": F_SUM, "matmul": F_MATMUL, "cross_entropy": F_CROSS_ENTROPY}


@cython.final
cdef class Step:
    """One recorded op: its table name, its arguments with each tensor replaced by a
    Slot (top-level ones listed in subs, for a direct store), and how its result is
    stored (-1: one tensor; n >= 0: a sequence of n tensors)."""
    cdef readonly str name
    cdef readonly tuple template
    cdef readonly tuple subs       # ((position, slot), ...)
    cdef readonly tuple nested     # ((position, template), ...): lists/tuples holding Slots
    cdef readonly Py_ssize_t nout
    cdef int fast                  # F_* for an op called directly, F_NONE otherwise
    cdef Py_ssize_t s0, s1         # the slots of arguments 0 and 1 (-1: from template)
    cdef tuple frees               # slots no later step or the output reads: released
                                   #   after this step, as eager drops its temporaries
    cdef object meta               # a fast op's result as recorded: (dtype number, shape,
                                   #   C-contiguous), for fusion (Note [Fused blocks])

    cdef inline object arg(self, Py_ssize_t i, list vals):
        cdef Py_ssize_t k = self.s0 if i == 0 else self.s1
        if k >= 0:
            return vals[k]
        return self.template[i]


cpdef object build(object template, list vals):
    """A template (Slots inside tuples, lists, dicts, namedtuples) filled from vals."""
    cdef type tp = type(template)
    if tp is Slot:
        return vals[(<Slot>template).k]
    if tp is tuple:
        return tuple([build(x, vals) for x in <tuple>template])
    if tp is list:
        return [build(x, vals) for x in <list>template]
    if tp is dict:
        return {k: build(v, vals) for k, v in (<dict>template).items()}
    if isinstance(template, tuple) and hasattr(tp, "_fields"):
        return tp(*[build(x, vals) for x in template])
    if isinstance(template, tuple):   # a structseq-like return type
        return tp([build(x, vals) for x in template])
    return template


cdef inline int _run_step(Step s, list vals) except -1:
    cdef list a
    cdef tuple args
    cdef object r
    cdef Tensor t0
    if s.fast != F_NONE:
        t0 = <Tensor?>vals[s.s0]
        if s.fast == F_ADD:
            r = OPS.add(t0, s.arg(1, vals), s.template[2])
        elif s.fast == F_SUB:
            r = OPS.sub(t0, s.arg(1, vals), s.template[2])
        elif s.fast == F_MUL:
            r = OPS.mul(t0, s.arg(1, vals))
        elif s.fast == F_DIV:
            r = OPS.div(t0, s.arg(1, vals), s.template[2])
        elif s.fast == F_NEG:
            r = OPS.neg(t0)
        elif s.fast == F_EXP:
            r = OPS.exp(t0)
        elif s.fast == F_TANH:
            r = OPS.tanh(t0)
        elif s.fast == F_SIGMOID:
            r = OPS.sigmoid(t0)
        elif s.fast == F_RELU:
            r = OPS.relu(t0)
        elif s.fast == F_MATMUL:
            r = OPS.matmul(t0, <Tensor?>vals[s.s1])
        elif s.fast == F_CROSS_ENTROPY:
            # (weight: None, _new_step takes no other)
            r = OPS.cross_entropy(t0, <Tensor?>vals[s.s1], None, s.template[3],
                                  s.template[4], s.template[5])
        else:
            r = OPS.sum(t0, s.template[1], s.template[2], s.template[3])
        vals.append(r)
        for k in s.frees:
            vals[k] = None
        return 0
    if s.subs or s.nested:
        a = list(s.template)
        for pos, k in s.subs:
            a[pos] = vals[k]
        for pos, t in s.nested:
            a[pos] = build(t, vals)
        args = tuple(a)
    else:
        args = s.template
    r = op_call(s.name, args)
    if s.nout < 0:
        vals.append(r)
    else:
        vals.extend(r)
    for k in s.frees:
        vals[k] = None
    return 0


def replay(tuple steps, list vals):
    """Run the steps in order, appending each op's outputs to vals. A step may be a
    FusedBlock (Note [Fused blocks]): a run of elementwise steps done in one pass."""
    cdef object s
    for s in steps:
        if type(s) is Step:
            _run_step(<Step>s, vals)
        else:
            (<FusedBlock>s).run(vals)
    return vals


include "_fuse.pxi"


cdef tuple _tensor_key(Tensor t):
    """What a recording assumed of an argument tensor: its type, dtype, shape, strides,
    whether it requires grad, is a leaf, has a gradient, hooks, retains its gradient, has a
    forward-AD tangent, is an inference tensor."""
    cdef cnp.ndarray a = t._data
    cdef int nd = cnp.PyArray_NDIM(a)
    cdef cnp.npy_intp *dims = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp *strides = cnp.PyArray_STRIDES(a)
    shape = tuple([dims[i] for i in range(nd)])
    st = tuple([strides[i] for i in range(nd)])
    return (type(t), a.dtype, shape, st, requires_grad_of(t), t._grad_fn is None,
            t._grad is None, 0 if tensor_hooks(t) is None else len(tensor_hooks(t)),
            retains_grad_of(t),
            t._fw is None, t._inference)


cpdef tuple tensor_state(Tensor t):
    """What autograd holds of a tensor besides its values: recorded after each op so that
    a change made between ops, outside the op table (requires_grad_(), retain_grad(),
    register_hook(), backward() filling .grad, ...), is seen and breaks the graph."""
    return _untracked((requires_grad_of(t), t._grad_fn, t._grad,
                       None if tensor_hooks(t) is None else len(tensor_hooks(t)),
                       None if post_acc_hooks_of(t) is None else len(post_acc_hooks_of(t)),
                       retains_grad_of(t), t._fw))


cdef int _flatten(object x, list key, list tensors) except -1:
    cdef type tp = type(x)
    if isinstance(x, Tensor):
        key.append(_tensor_key(<Tensor>x))
        tensors.append(x)
    elif tp is int or tp is float or tp is bool or x is None or tp is str or tp is complex:
        key.append((tp, x))
    elif tp is tuple or tp is list:
        key.append((tp, len(x)))
        for y in x:
            _flatten(y, key, tensors)
    elif tp is dict:
        key.append((dict, tuple(x.keys())))
        for y in (<dict>x).values():
            _flatten(y, key, tensors)
    else:
        # any other object: the recording guarded its identity (and, for modules, state)
        key.append((tp, id(x)))
    return 0


def arguments_key(tuple args, dict kwargs, bint grad_mode):
    """(key, tensors): the arguments' guard key (with the grad mode) and their tensors in
    order (the replay's first slots)."""
    cdef list key = [grad_mode]
    cdef list tensors = []
    for a in args:
        _flatten(a, key, tensors)
    if kwargs:
        key.append(tuple(kwargs))
        for a in kwargs.values():
            _flatten(a, key, tensors)
    return tuple(key), tensors


cdef object _MISSING = object()
MISSING = _MISSING   # what a guard on an absent dict entry (a builtin not shadowed) expects

# guard kinds (see _dynamo/_guards.py)
cdef enum:
    _G_ID = 0
    _G_EQ = 1
    _G_SHALLOW = 2
    _G_KEYS = 3

G_ID = _G_ID
G_EQ = _G_EQ
G_SHALLOW = _G_SHALLOW
G_KEYS = _G_KEYS


def check_guards(tuple guards):
    """Whether every (container, key, kind, expected) guard holds: container[key] (a
    dict's entry, or a cell's contents with key None) is expected (G_ID), equals it with the
    same type (G_EQ), or holds the same items by identity (G_SHALLOW, for containers); or
    (G_KEYS) the dict container has exactly the keys expected. Containers are dicts (never
    a mappingproxy) or cells."""
    cdef object container, key, expected, v
    cdef int kind
    for container, key, kind, expected in guards:
        if kind == _G_KEYS:
            # no entry added or removed (an instance attribute shadowing a class's)
            if tuple(<dict>container) != expected:
                return False
            continue
        if key is None:
            try:
                v = container.cell_contents
            except ValueError:
                v = _MISSING
        else:
            v = (<dict>container).get(key, _MISSING)
        if kind == _G_ID:
            if v is not expected:
                return False
        elif kind == _G_EQ:
            if type(v) is not type(expected) or not (v == expected):
                return False
        else:
            if v is _MISSING or shallow(v) != expected:
                return False
    return True


cdef bint _state_holds(tuple st, Tensor t):
    """Whether t's autograd state is still st (a tensor_state tuple: objects by identity,
    flags by value), without making a new tuple (the recording's per-op check of every
    argument, and its final check of every tensor it knows)."""
    if len(st) != 7 or st[0] is not requires_grad_of(t) and st[0] != requires_grad_of(t):
        return False
    if st[1] is not t._grad_fn or st[2] is not t._grad or st[6] is not t._fw:
        return False
    cdef list hooks = tensor_hooks(t), post = post_acc_hooks_of(t)
    if (st[3] is None) != (hooks is None) or (hooks is not None and st[3] != len(hooks)):
        return False
    if (st[4] is None) != (post is None) or (post is not None and st[4] != len(post)):
        return False
    return st[5] == retains_grad_of(t)


def shallow(object v):
    """The identities a container holds (keys and values of a dict, items of a list)."""
    if isinstance(v, dict):
        return tuple([(k, id(x)) for k, x in (<dict>v).items()])
    return tuple([id(x) for x in v])


# ---------------------------------------------------------------- recording's op hook

# Note [Table ops of the recorder]
# The op hook sees an op as its ATen name and table arguments; the table op it was is the
# first of that name's candidates whose schema kinds the arguments match (mul: a tensor
# or a number second). Each candidate is a _TableOp made once (set_table_names) with its
# kinds as small ints and the facts the recorder asks per op (in-place, value-shaped,
# index): the per-op lookup is one dict get and a loop of type checks, no string compare.
cdef enum:
    _K_ANY = 0
    _K_TENSOR = 1
    _K_TENSOR_OPT = 2
    _K_SCALAR = 3
    _K_SCALAR_OPT = 4


@cython.final
cdef class _TableOp:
    """One candidate table op of an ATen name (Note [Table ops of the recorder])."""
    cdef str name
    cdef bytes kinds            # _K_* per argument
    cdef Py_ssize_t nargs
    cdef bint inplace           # restates its tensors' autograd states at its exit
    cdef bint value_shaped      # its output's shape is data (_VALUE_SHAPED)
    cdef bint index             # "index": value-shaped with a boolean mask


cdef dict _BY_ATEN = {}     # ATen name -> (_TableOp, ...): _table_ops

# ops whose output shape depends on their inputs' values (PyTorch's dynamic shape ops)
cdef frozenset _VALUE_SHAPED = frozenset({
    "nonzero", "argwhere", "masked_select", "unique", "unique_consecutive", "bincount",
    "repeat_interleave"})

cdef dict _KIND_CODES = {"Tensor": _K_TENSOR, "Tensor?": _K_TENSOR_OPT,
                         "Scalar": _K_SCALAR, "Scalar?": _K_SCALAR_OPT}


cdef dict _SCHEMAS = {}     # ATen name -> [(table name, schema types)], set by _record.py


def set_table_names(dict by_aten):
    """by_aten: ATen name -> [(table name, schema types)] in the order they are tried
    (each name's _TableOps are made when the recorder first meets it)."""
    _SCHEMAS.update(by_aten)
    _BY_ATEN.clear()


cdef tuple _table_ops(str aten):
    """The _TableOps of an ATen name (made at its first lookup), None if it has none."""
    cdef _TableOp op
    cands = _SCHEMAS.get(aten)
    if cands is None:
        return None
    ops = []
    for name, kinds in cands:
        op = _TableOp.__new__(_TableOp)
        op.name = name
        op.kinds = bytes([_KIND_CODES.get(k, _K_ANY) for k in kinds])
        op.nargs = len(kinds)
        op.inplace = name.endswith("_") or name == "_index_put_impl"
        op.value_shaped = name in _VALUE_SHAPED
        op.index = name == "index"
        ops.append(op)
    _BY_ATEN[aten] = r = tuple(ops)
    return r


cdef inline bint _kind_matches(int kind, object v):
    if kind == _K_ANY:
        return True
    if kind == _K_TENSOR:
        return isinstance(v, Tensor)
    if kind == _K_TENSOR_OPT:
        return v is None or isinstance(v, Tensor)
    if v is None:
        return kind == _K_SCALAR_OPT
    return (not isinstance(v, Tensor) and
            (isinstance(v, int) or isinstance(v, float) or isinstance(v, complex)))


cdef _TableOp _table_op(str aten, tuple args):
    cdef object cands = _BY_ATEN.get(aten)
    cdef _TableOp op
    cdef const unsigned char *kinds
    cdef Py_ssize_t i, n = PyTuple_GET_SIZE(args)
    if cands is None:
        cands = _table_ops(aten)
        if cands is None:
            return None
    for x in <tuple>cands:
        op = <_TableOp>x
        if op.nargs != n:
            continue
        kinds = <const unsigned char *>op.kinds
        for i in range(n):
            if not _kind_matches(kinds[i], <object>PyTuple_GET_ITEM(args, i)):
                break
        else:
            return op
    return None


cpdef object table_name(str aten, tuple args):
    """The table op an op hook event (ATen name, table arguments) was, or None."""
    cdef _TableOp op = _table_op(aten, args)
    return None if op is None else op.name


cdef int _collect(object x, list out) except -1:
    if isinstance(x, Tensor):
        out.append(x)
    elif type(x) is tuple or type(x) is list:
        for y in x:
            _collect(y, out)
    return 0


def tensors_in(object x):
    """The tensors in x (nested in tuples and lists)."""
    cdef list out = []
    _collect(x, out)
    return out


cdef bint _bool_index(tuple args):
    """Whether an index op's indices hold a boolean mask."""
    cdef list ts = []
    _collect(args[1:], ts)
    for t in ts:
        if (<Tensor>t)._data.dtype.kind == "b":
            return True
    return False


# Note [In-place ops while recording]
# An in-place op rewrites the autograd history of every tensor sharing its storage (a
# view's base, the base's other views): they take their new states at its exit. The
# recorder groups its known tensors by root (a view's _base, which is never a view
# itself, or the tensor) as they become known, from the first in-place op on (a call
# without one pays nothing), and an in-place op restates the groups of its tensors'
# roots, now and as they were when they became known (set_ and the in-place view ops
# rebind a tensor). Restating every known tensor instead made a recording quadratic:
# 4,000 (mul, add_) pairs took 0.7 s, 100x their eager time.

# Note [The recorder's tensor table]
# The recorder looks up every tensor argument of every op (is it known, and is its
# autograd state the one the last op left) and enters every op's result: per op, two or
# three lookups. Keyed by id in a dict, each made a Python int and, the dict's key being
# another int of the same value, compared them through the number protocol (~1,500
# instructions per op of chain16's). The table is the tensors' addresses in an open
# addressing array (the tensors are held alive by the recorder, so an address stays its
# tensor's) mapping to an index into two lists: the tensors and their states.

cdef class OpRecorder:
    """The op hook half of a Recorder (autograd_core/_dynamo/_record.py), compiled so that
    its per-op work runs no Python frame (which the recorder's sys.setprofile would see)."""
    cdef public list steps
    cdef public Py_ssize_t depth
    cdef public object reason
    cdef public object thread
    cdef public bint grad_mode   # the grad mode of the call (and so of the replay)
    cdef readonly Py_ssize_t unfinished    # steps whose op raised (no result)
    cdef readonly Py_ssize_t result_bytes  # the bytes of the steps' results: what the
                                           #   recording keeps alive until its steps are
                                           #   built (Note [Deferred build], eval_frame.py)
    cdef unsigned long tid       # thread (C ident; set from thread)
    cdef dict groups             # id(root) -> [known tensors with that root]: Note
                                 #   [In-place ops while recording]
    cdef dict group_of           # id(tensor) -> id(its root) when it became known
    # Note [The recorder's tensor table]
    cdef list tensors            # the known tensors: inputs, constants, op outputs
    cdef list states             # per known tensor: its tensor_state at the last op
                                 #   touching it
    cdef void **keys             # tensor address per table entry (NULL: empty)
    cdef Py_ssize_t *index       # its index in tensors and states
    cdef size_t cap              # entries (a power of two, at most half full)

    def __cinit__(self):
        self.tensors = []
        self.states = []
        self.cap = 0
        self.keys = NULL
        self.index = NULL

    def __dealloc__(self):
        free(self.keys)
        free(self.index)

    cdef inline size_t _entry(self, void *p) noexcept:
        """The table entry of address p: its own, or the empty one it would take."""
        cdef size_t mask = self.cap - 1
        cdef size_t h = (<size_t>p >> 4) * <size_t>0x9E3779B97F4A7C15ULL
        cdef size_t i = (h ^ (h >> 29)) & mask
        while self.keys[i] != NULL and self.keys[i] != p:
            i = (i + 1) & mask
        return i

    cdef Py_ssize_t find(self, Tensor t) noexcept:
        """t's index in tensors and states, -1 when it is not known."""
        if self.cap == 0:
            return -1
        cdef size_t i = self._entry(<void *>t)
        return -1 if self.keys[i] == NULL else self.index[i]

    cdef int _grow(self) except -1:
        cdef size_t old = self.cap, i, j
        cdef void **okeys = self.keys
        cdef Py_ssize_t *oindex = self.index
        cdef size_t cap = 1024 if old == 0 else old * 2
        self.keys = <void **>calloc(cap, sizeof(void *))
        self.index = <Py_ssize_t *>malloc(cap * sizeof(Py_ssize_t))
        if self.keys == NULL or self.index == NULL:
            free(self.keys)
            free(self.index)
            self.keys, self.index = okeys, oindex
            raise MemoryError()
        self.cap = cap
        for i in range(old):
            if okeys[i] != NULL:
                j = self._entry(okeys[i])
                self.keys[j] = okeys[i]
                self.index[j] = oindex[i]
        free(okeys)
        free(oindex)
        return 0

    def know(self, Tensor t):
        """Note t as known, with its autograd state now."""
        self._know(t)

    def is_known(self, Tensor t):
        """Whether the recording knows t (an input, a constant or an op's output)."""
        return self.find(t) >= 0

    def known_id(self, object k):
        """Whether the recording knows the tensor whose id is k."""
        cdef Py_ssize_t i
        if self.cap == 0:
            return False
        i = self._entry(PyLong_AsVoidPtr(k))
        return self.keys[i] != NULL

    def known_tensors(self):
        """The tensors the recording knows, in the order it met them."""
        return list(self.tensors)

    cdef int _know(self, Tensor t) except -1:
        cdef size_t e
        cdef Py_ssize_t n
        if 2 * (<size_t>PyList_GET_SIZE(self.tensors) + 1) > self.cap:
            self._grow()
        e = self._entry(<void *>t)
        if self.keys[e] != NULL:
            self.states[self.index[e]] = tensor_state(t)
            return 0
        n = PyList_GET_SIZE(self.tensors)
        self.tensors.append(t)
        self.states.append(tensor_state(t))
        self.keys[e] = <void *>t
        self.index[e] = n
        if self.groups is not None:
            self._group(t, _id(t))
        return 0

    cdef int _arg_holds(self, Tensor t) except -1:
        """1 when an op's argument t is known with the autograd state the last op touching
        it left; else the graph break (0: the recording stops here; 1 from a trace, which
        goes on)."""
        cdef Py_ssize_t i = self.find(t)
        if i < 0:
            if self.adopt(t):      # (a trace takes it as a constant)
                return 1
            self.fail("a tensor made outside the recorded ops (a factory, .detach(), "
                      ".data, ...) is used by an op")
            return 0
        if not _state_holds(<tuple>PyList_GET_ITEM(self.states, i), t):
            self.fail("a tensor's autograd state changed outside the recorded ops "
                      "(requires_grad_, retain_grad, register_hook, backward, ...)")
            if self.reason is not None:
                return 0
        return 1

    cdef int _group(self, Tensor t, object k) except -1:
        cdef object g = _id(t if t._base is None else t._base)
        self.group_of[k] = g
        lst = self.groups.get(g)
        if lst is None:
            self.groups[g] = [t]
        else:
            (<list>lst).append(t)
        return 0

    def set_thread(self, unsigned long tid):
        self.thread = tid
        self.tid = tid

    def op_enter(self, str name, tuple args):
        # (per op of the recording: Note [Table ops of the recorder])
        cdef Py_ssize_t i
        cdef _TableOp op
        cdef list step
        if self.depth > 0 or PyThread_get_thread_ident() != self.tid:
            self.depth += 1
            return None
        self.depth += 1
        if self.reason is not None:
            return None
        if grad_enabled() != self.grad_mode or inference_mode_enabled():
            self.fail("an op runs under another grad mode than the call's (no_grad, "
                      "enable_grad, inference_mode inside the function)")
            if self.reason is not None:
                return None
        op = _table_op(name, args)
        if op is None:
            self.fail(f"the op {name} cannot be called by the replay")
            return None
        if op.value_shaped or (op.index and _bool_index(args)):
            # its result's shape is data: Python reading it (.shape, len, iteration) would
            # be frozen in the replay
            self.fail(f"the op {name}'s output shape depends on tensor values",
                      "Dynamic shape operator")
            if self.reason is not None:   # (a trace goes on: it freezes Python values)
                return None
        for i in range(PyTuple_GET_SIZE(args)):
            x = <object>PyTuple_GET_ITEM(args, i)
            if isinstance(x, Tensor):
                if not self._arg_holds(<Tensor>x):
                    return None
            elif type(x) is tuple or type(x) is list:
                ts = []
                _collect(x, ts)
                for t in ts:
                    if not self._arg_holds(<Tensor>t):
                        return None
        step = [op.name, args, None]
        # the step and its arguments' tuple live as long as the recording and are in no
        # cycle: untracked, no collection walks them (Note [Untracked by the cycle
        # collector] in _core/_node.pxi); the first collection after a 60,000-op
        # recording walked 120,000 of them
        gc_untrack(step)
        gc_untrack(args)
        self.steps.append(step)
        self.unfinished += 1
        return step

    def op_exit(self, state, result):
        cdef list step
        cdef str tname
        self.depth -= 1
        if state is None or result is None:
            return
        step = state
        step[2] = result
        self.unfinished -= 1
        tname = step[0]
        if tname.endswith("_") or tname == "_index_put_impl":
            self._restate(<tuple>step[1], result)
        # (an out-of-place op leaves its arguments' autograd state as it was: their
        # recorded states stand)
        if isinstance(result, Tensor):
            self.result_bytes += cnp.PyArray_NBYTES((<Tensor>result)._data)
            self._know(<Tensor>result)
            return
        if not (isinstance(result, (tuple, list)) and
                all(isinstance(r, Tensor) for r in result)):
            self.fail(f"the op {tname} returned a {type(result).__name__}")
            return
        for t in result:
            self.result_bytes += cnp.PyArray_NBYTES((<Tensor>t)._data)
            self._know(<Tensor>t)

    cdef int _restate(self, tuple args, object result) except -1:
        """After an in-place op: every known tensor sharing a root (Tensor._base, or
        itself) with the op's tensors takes its new state (Note [In-place ops while
        recording])."""
        cdef list ts = []
        cdef set keys = set()
        cdef Tensor t
        _collect(args, ts)
        _collect(result, ts)
        if self.groups is None:
            # the first in-place op: the groups of the tensors known so far, whose roots
            # no in-place op has rebound yet (a call without one pays nothing)
            self.groups = {}
            self.group_of = {}
            for x in self.tensors:
                self._group(<Tensor>x, _id(x))
        for x in ts:
            t = <Tensor>x
            keys.add(_id(t if t._base is None else t._base))
            g = self.group_of.get(_id(t))
            if g is not None:
                keys.add(g)
        for g in keys:
            lst = self.groups.get(g)
            if lst is not None:
                for x in <list>lst:
                    self.states[self.find(<Tensor>x)] = tensor_state(<Tensor>x)
        return 0

    def states_hold(self):
        """Whether every tensor the recording knows still has the autograd state the last
        op touching it left (the end of the call's check; see op_enter)."""
        cdef Py_ssize_t i
        for i in range(PyList_GET_SIZE(self.tensors)):
            if not _state_holds(<tuple>PyList_GET_ITEM(self.states, i),
                                <Tensor>PyList_GET_ITEM(self.tensors, i)):
                return False
        return True


cdef object _nested_template(object x, dict slots):
    if isinstance(x, Tensor):
        return Slot(slots[_id(x)])
    if type(x) is tuple:
        return _untracked(tuple([_nested_template(y, slots) for y in <tuple>x]))
    if type(x) is list:
        return [_nested_template(y, slots) for y in <list>x]
    return x


cdef Step _new_step(str name, tuple template, tuple subs, tuple nested, Py_ssize_t nout):
    """Step(name, template, subs, nested, nout) without the Python call (a recording makes
    one per op), untracked by the cycle collector: a step holds no reference back to
    anything that could hold it (a recording's tens of thousands of steps would be walked
    by every full collection while the entry lives)."""
    cdef Step st = Step.__new__(Step)
    cdef Py_ssize_t i, pos
    cdef tuple pair
    st.name = name
    st.template = template
    st.subs = subs
    st.nested = nested
    st.nout = nout
    st.s0 = st.s1 = -1
    st.frees = ()
    for i in range(len(subs)):
        pair = <tuple>subs[i]
        pos = <Py_ssize_t>pair[0]
        if pos == 0:
            st.s0 = <Py_ssize_t>pair[1]
        elif pos == 1:
            st.s1 = <Py_ssize_t>pair[1]
    if st.s0 >= 0 and not nested and nout < 0:
        f = _FAST.get(name)
        st.fast = F_NONE if f is None else <int>f
        # matmul and cross_entropy take both tensors from slots; cross_entropy only
        # without a class weight (its third argument)
        if ((st.fast == F_MATMUL or st.fast == F_CROSS_ENTROPY) and st.s1 < 0 or
                st.fast == F_CROSS_ENTROPY and (len(template) != 6 or template[2] is not None
                                                or len(subs) != 2)):
            st.fast = F_NONE
    else:
        st.fast = F_NONE
    gc_untrack(st)
    return st


def build_steps(list recorded, dict slots, Py_ssize_t n):
    """The Steps of a recording ([table name, args, result] per op): each tensor argument
    becomes its slot (inputs and constants are in slots already; each op's outputs take
    the next slots). Returns (steps, slots after the last op). Every tuple it makes that
    holds only numbers, strings and untracked objects is untracked (_untracked)."""
    cdef list steps = []
    cdef list template, subs
    cdef list nested = None
    cdef Py_ssize_t pos, nargs
    cdef tuple args
    cdef list ts = []
    cdef Step st
    cdef cnp.ndarray ra
    cdef list rec
    for rec in recorded:
        tname = rec[0]
        args = <tuple>rec[1]
        res = rec[2]
        if res is None:
            return None, None
        nargs = len(args)
        template = list(args)
        subs = []
        nested = None
        for pos in range(nargs):
            a = args[pos]
            if isinstance(a, Tensor):
                template[pos] = None
                subs.append(_untracked((pos, slots[_id(a)])))
            elif type(a) is tuple or type(a) is list:
                del ts[:]
                _collect(a, ts)
                if ts:
                    template[pos] = None
                    if nested is None:
                        nested = []
                    nested.append((pos, _nested_template(a, slots)))
        if isinstance(res, Tensor):
            nout = -1
            # a later output with the same id (an in-place op's self) takes the new slot
            slots[_id(res)] = n
            n += 1
        else:
            nout = len(res)
            for t in res:
                slots[_id(t)] = n
                n += 1
        st = _new_step(tname, _untracked(tuple(template)), _untracked(tuple(subs)),
                       () if nested is None else tuple(nested), nout)
        if nout < 0:
            ra = (<Tensor>res)._data
            st.meta = _untracked((cnp.PyArray_TYPE(ra), _untracked(shape_of(ra)),
                                  cnp.PyArray_IS_C_CONTIGUOUS(ra)))
        steps.append(st)
    return tuple(steps), slots


cdef int _slots_in(object t, set out) except -1:
    if type(t) is Slot:
        out.add((<Slot>t).k)
    elif isinstance(t, (tuple, list)):
        for x in t:
            _slots_in(x, out)
    elif type(t) is dict:
        for x in (<dict>t).values():
            _slots_in(x, out)
    return 0


def set_frees(tuple steps, object out, Py_ssize_t first):
    """Give each step the slots (from first on: op outputs) that nothing after it reads,
    the output template aside, so that a replay holds no more temporaries than eager.
    (Each slot's last reader in a C array: a dict of Python ints took ~100 ms for
    chain16's 60,000 steps.)"""
    cdef set keep = set()
    cdef set used
    cdef Step s
    cdef tuple pair
    cdef Py_ssize_t i, k, j, n = first, cnt, nsteps = len(steps), total = first
    for i in range(nsteps):
        total += 1 if (<Step>steps[i]).nout < 0 else (<Step>steps[i]).nout
    cdef Py_ssize_t *last = <Py_ssize_t *>malloc((total + 1) * sizeof(Py_ssize_t))
    if last == NULL:
        raise MemoryError()
    cdef list frees = [None] * nsteps
    try:
        for k in range(total):
            last[k] = -1
        _slots_in(out, keep)
        for i in range(nsteps):
            s = <Step>steps[i]
            for pair in s.subs:
                last[<Py_ssize_t>pair[1]] = i
            if s.nested:
                used = set()
                for pos, t in s.nested:
                    _slots_in(t, used)
                for k in used:
                    last[k] = i
            # outputs nothing reads are released right away
            cnt = 1 if s.nout < 0 else s.nout
            for j in range(n, n + cnt):
                last[j] = i
            n += cnt
        for k in keep:
            if first <= k < total:
                last[k] = -1
        for k in range(first, total):
            i = last[k]
            if i >= 0:
                if frees[i] is None:
                    frees[i] = [k]
                else:
                    (<list>frees[i]).append(k)
    finally:
        free(last)
    for i in range(nsteps):
        if frees[i] is not None:
            (<Step>steps[i]).frees = tuple(<list>frees[i])
