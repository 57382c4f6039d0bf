# VersionCounter, SavedTensor, Node, AccumulateGrad, and how an op records a node.
#
# Note [Saved tensor versions]
# A node that needs a forward value in backward saves it (SavedTensor) with the
# version counter's value at that moment. Unpacking compares the two: an in-place op
# in between bumped the counter and backward would compute with the wrong values, so
# it raises instead. A node never saves its own output as a Tensor (that Tensor's
# grad_fn is the node: a reference cycle); it keeps the array and counter and
# rebuilds a Tensor on unpack.
#
# Note [Releasing saved state]
# backward() without retain_graph calls release_saved() on every node it ran. A node
# that saved tensors drops them and sets `released`; using them again raises
# MSG_BACKWARD_TWICE. Nodes that saved nothing but numbers (AddBackward0's alpha)
# stay usable, as in PyTorch.
#
# Note [Untracked by the cycle collector]
# A graph is built from Tensors and Nodes whose references point from outputs toward
# leaves only, so they cannot form reference cycles and die by refcount. Keeping them
# out of the cyclic GC's lists halves the cost of a recorded op (every op allocates
# both). Every Tensor (make), every Node (record*) and every SavedTensor (save,
# save_output) is untracked when created; an object is tracked again (gc_track) as
# soon as it holds something a user gave it — hooks, metadata, what a pack hook
# returned — since that is where cycles can appear. The exception, as in
# PyTorch, is backward(create_graph=True) into a leaf's .grad, which links the leaf to
# its own graph: PyTorch warns that it leaks, and so do we.

cdef uint64_t _next_sequence_nr = 0

cdef uint64_t new_sequence_nr() noexcept:
    global _next_sequence_nr
    _next_sequence_nr += 1
    return _next_sequence_nr


cdef bint anomaly_enabled = False
cdef bint anomaly_check_nan = True


# ---------------------------------------------------------------- versions, saved tensors

@cython.freelist(64)
cdef class VersionCounter:
    pass


cdef long version_for_save(Tensor t) except? -1:
    if t._inference and not agc_inference_mode():
        raise RuntimeError(MSG_INFERENCE_SAVE)
    return version_counter(t).version


cdef void bump_version(Tensor t):
    cdef VersionCounter vc = version_counter(t)
    vc.version += 1
    if _any_mirrors:    # Note [Conjugate and negative views]
        sync_mirrors(t._data)


# Note [Saved tensor hooks]
# autograd.graph.saved_tensors_hooks(pack, unpack) pushes a pair on a stack: while it
# is in force, every tensor a node saves is given to pack, and the node keeps what pack
# returned instead of the tensor (with what it needs to rebuild the tensor's place in
# the graph: its grad_fn, or its AccumulateGrad). unpack rebuilds a tensor from it when
# backward (or the user) reads the saved value; versions cannot be checked through the
# hooks, as in PyTorch. A saved tensor's own hooks (grad_fn._raw_saved_x.register_hooks)
# work the same way. The stack is process-wide here (PyTorch's is thread-local).

cdef list _default_hooks = []
cdef object _hooks_disabled_message = None

cdef str MSG_PACK_INPLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input "
    "to pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the "
    "input to a pack hook.")
cdef str MSG_DETACHED_SAVED = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
    "This is not supported, please use out-of-place `.detach()` instead")


cdef list saved_hooks_state():
    """The hook stack as a backward pass starts: the pass restores it when it ends, so
    hooks entered or exited inside backward (by an unpack hook, say) do not outlive it
    (PyTorch runs backward with the thread-local state captured at its start)."""
    return _default_hooks[:] if _default_hooks else None


cdef int restore_saved_hooks(list state) except -1:
    if state is None:
        if _default_hooks:
            del _default_hooks[:]
    elif _default_hooks != state:
        _default_hooks[:] = state


def _increment_version(Tensor t):
    """autograd.graph.increment_version: as if t had been modified in place."""
    if t._inference:
        return  # an inference tensor has no version counter
    bump_version(t)  # not an op's write: see Note [In-place ops]


def _push_saved_tensors_default_hooks(pack_hook, unpack_hook):
    if _hooks_disabled_message is not None:
        raise RuntimeError(_hooks_disabled_message)
    _default_hooks.append((pack_hook, unpack_hook))


def _pop_saved_tensors_default_hooks():
    if _default_hooks:
        _default_hooks.pop()


def _saved_tensors_hooks_get_disabled_error_message():
    return _hooks_disabled_message


def _saved_tensors_hooks_disable(message):
    global _hooks_disabled_message
    _hooks_disabled_message = message
    if _default_hooks:
        raise RuntimeError(message)


def _saved_tensors_hooks_enable():
    global _hooks_disabled_message
    _hooks_disabled_message = None


cdef Tensor _alias_of(Tensor t):
    """t's values and version counter, without its history (what pack hooks see)."""
    cdef Tensor a = make(t._data)
    a._vc = version_counter(t)
    return a


cdef SavedHooks _hooks_for_input(SavedTensor s, Tensor t):
    """What unpacking a hooked saved input needs of t's place in the graph."""
    cdef SavedHooks h = SavedHooks.__new__(SavedHooks)
    s.leaf = t._grad_fn is None
    s.output_nr = t._output_nr
    h.requires_grad = t._requires_grad
    if s.leaf:
        if t._requires_grad:
            h.accumulator = grad_accumulator(t)
    else:
        h.grad_fn = t._grad_fn
    return h


cdef int _pack(SavedTensor s, SavedHooks h, Tensor t, object pack_hook,
               object unpack_hook) except -1:
    """Hand t to pack_hook; keep its result (in h) in place of the tensor."""
    cdef VersionCounter vc = version_counter(t)
    cdef long before = vc.version
    with NoGradGuard():
        packed = pack_hook(t)
    if vc.version != before:
        raise RuntimeError(MSG_PACK_INPLACE)
    gc_track(s)  # Note [Untracked by the cycle collector]: it holds the user's objects
    h.packed = packed
    h.unpack_hook = unpack_hook
    s.obj = h


@cython.final
cdef class SavedHooks:
    pass


# Note [Forward AD]: saved outputs. The tangent of an output saved under forward AD
# (id of its SavedTensor -> FwGrad), beside the SavedTensor rather than in a field of it
# (every SavedTensor stays 56 bytes: test_graph_memory).
cdef dict _FW_SAVED = {}


@cython.freelist(256)
@cython.final
cdef class SavedTensor:
    """A tensor a node keeps for its backward (Note [Saved tensor versions]); the object
    ``grad_fn._raw_saved_<name>`` returns (Note [Saved tensor hooks]).

    >>> import autograd_core as torch
    >>> a = torch.tensor([2.], requires_grad=True)
    >>> y = a * a
    >>> y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 2, lambda t: t / 2)
    >>> y.grad_fn._saved_self
    tensor([2.], grad_fn=<DivBackward0>)
    """

    def __dealloc__(self):
        # (a saved output's tangent lives beside it: Note [Forward AD])
        if self.is_output == 2 and _FW_SAVED is not None:
            _FW_SAVED.pop(id(self), None)

    def __init__(self):
        raise RuntimeError("Trying to create a SavedTensor object from Python is forbidden.")

    @property
    def unpack_hook(self):
        if type(self.obj) is SavedHooks:
            return (<SavedHooks>self.obj).unpack_hook
        return None

    @property
    def data(self):
        """The saved tensor itself, without its place in the graph for a node's own
        output (with hooks: what unpack_hook gives back); None for a saved None or one
        freed by backward."""
        cdef Tensor t
        cdef SavedHooks h
        if type(self.obj) is SavedHooks:
            h = <SavedHooks>self.obj
            return h.unpack_hook(h.packed)
        if self.is_output:
            if self.obj is None:
                return None
            t = make(<cnp.ndarray>self.obj)
            t._vc = self.vc
            return t
        return self.obj

    def register_hooks(self, *args, **kwargs):
        """register_hooks(pack_hook, unpack_hook): replace the saved tensor by
        pack_hook(tensor); unpack_hook(packed) gives it back."""
        if len(args) != 2 or kwargs or not callable(args[0]) or not callable(args[1]):
            # PyTorch's binding rejects the call with pybind11's message
            invoked = ", ".join([f"<autograd_core._C._autograd.SavedTensor object at "
                                 f"{id(self):#x}>"] + [repr(a) for a in args])
            if kwargs:
                invoked += "; kwargs: " + ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: autograd_core._C._autograd.SavedTensor, "
                "arg0: collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
                "Invoked with: " + invoked)
        pack_hook, unpack_hook = args
        if type(self.obj) is SavedHooks:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have "
                               "already been set. Hint: only one pair of hooks is allowed at "
                               "a time.")
        cdef Tensor t
        cdef SavedHooks h
        if self.is_output and self.obj is not None:
            t = make(<cnp.ndarray>self.obj)
            t._vc = self.vc
            self.leaf = False
            h = SavedHooks.__new__(SavedHooks)
        elif not self.is_output and self.obj is not None:
            h = _hooks_for_input(self, <Tensor>self.obj)
            t = _alias_of(<Tensor>self.obj)
        elif self.freed:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through "
                "the graph a second time or if you need to access saved variables after "
                "calling backward.")
        else:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        _pack(self, h, t, pack_hook, unpack_hook)

    def unpack(self):
        """The saved tensor, as backward would read it (through unpack_hook when saved
        under hooks), its version checked; for one made by _make_saved_tensor (the
        inputs torch.utils.checkpoint keeps)."""
        cdef Tensor t
        if type(self.obj) is SavedHooks:
            return _unpack_hooked(self, None)
        if self.obj is None:
            raise RuntimeError(MSG_BACKWARD_TWICE)
        if self.is_output:
            return self.data
        t = <Tensor>self.obj
        if t._vc.version != self.version:
            raise modified_error(t, self.version, grad_fn_of(t), t._output_nr)
        return t


def _make_saved_tensor(Tensor tensor, is_output):
    """A SavedTensor of tensor kept by no node, made through the saved-tensor hooks in
    force (PyTorch's torch._C._autograd._make_saved_tensor; read with .unpack()).
    is_output=True (saved as the output of a node) needs that node: refused here."""
    if is_output:
        raise RuntimeError("_make_saved_tensor: is_output=True needs the node saving the "
                           "tensor; only is_output=False is supported")
    return save(tensor)


cdef Tensor unpack_saved(SavedTensor saved, Node owner, bint for_function=False):
    """The saved value, checked: released state (saved is None then), then version.
    for_function: ctx.saved_tensors of an autograd.Function, which PyTorch unpacks with
    the node as saved_for, so a saved input detach_()ed since comes back as it is now
    instead of raising."""
    cdef Tensor t
    if is_released(owner) or saved is None:
        raise RuntimeError(MSG_BACKWARD_TWICE)
    if type(saved.obj) is SavedHooks:
        return _unpack_hooked(saved, owner)
    cdef Node fn
    if not saved.is_output:
        t = <Tensor>saved.obj
        # a saved view reads its history first, as PyTorch's unpack (data_.grad_fn()):
        # after a write into its base or a sibling that is the rebuilt history the
        # message names, or the error of a view whose way of creation forbids the
        # write (an unbind/split output: Note [View + in-place])
        fn = grad_fn_of(t) if t._base is not None else t._grad_fn
        if t._vc.version != saved.version:
            raise modified_error(t, saved.version, fn, t._output_nr)
        if not saved.leaf and t._grad_fn is None and not for_function:
            raise RuntimeError(MSG_DETACHED_SAVED)
        return t
    t = _unpack_output_values(owner, <cnp.ndarray>saved.obj, saved.vc, saved.version,
                              saved.output_nr)
    if saved.is_output == 2:  # Note [Forward AD]: saved outputs
        f = _FW_SAVED.get(id(saved))
        if f is not None and (<FwGrad>f).generation == agc_fw_generation():
            t._fw = <FwGrad>f
    return t


cdef Tensor _unpack_output_values(Node owner, cnp.ndarray values, VersionCounter vc,
                                  long version, int output_nr):
    """A saved output of owner as a Tensor: its values and counter, checked against the
    version saved; with grad mode on (create_graph) it has owner as its history."""
    cdef Tensor t = make(values)
    t._vc = vc  # None: owner makes it when needed (Note [Counters made by the node])
    cdef Node named
    if vc is not None and vc.version != version:
        named = owner   # (or the written view's history: Note [CopySlices wraps the op])
        if owner.extra is not None and owner.extra.view_history is not None:
            named = owner.extra.view_history()
            if named is None:
                named = owner
            else:
                output_nr = 0
        raise modified_error(t, version, named, output_nr)
    if agc_grad_enabled() and is_grad_array(values):
        # Only create_graph needs the history; without it the value is a constant.
        t._grad_fn = owner
        t._output_nr = output_nr
        t._requires_grad = True
    return t


# Note [Saved outputs inline]
# A node that saves one of its own outputs (tanh's result, exp's, sigmoid's) keeps it in
# two fields of its own, generated by ops/_codegen.py: the output's array and its version
# counter (None until needed: Note [Counters made by the node]) -- not a SavedTensor
# object, which would cost a chain of tiny ops ~16 B per node (Note [Node layout]). The
# first field holds:
#   an ndarray          the inline form (the counter in the other; the version saved is 0);
#   a SavedTensor       saved under saved-tensor hooks (what pack_hook returned is in
#                       it), or once _raw_saved_<name> was read: the SavedTensor that
#                       accessor returns is the node's from then on, so hooks registered
#                       on it, and a later read, see the same object (the counter field
#                       is then None: the SavedTensor holds it);
#   None                nothing saved, or released by backward.
# unpack_output, saved_output_object and the generated repoint_output/release_saved
# read all three forms; a saved output that is not the node's own output (no history)
# and the outputs autograd.Function saves stay SavedTensors. The inline form is kept only
# for an output at version 0 (a new tensor's; an in-place op's result, at a later
# version, is a SavedTensor), so the node stores no version: 8 B, which moved tanh's
# node of chain1m from pymalloc's 112-byte size class to the 96-byte one.
#
# Note [Counters made by the node]
# A new output's version counter is not made when the node saves it inline: the
# counter field stays None, and the counter is made, by the node, when something first
# needs it (an in-place op, a view, detach(), saving it as another node's input,
# unpacking it): version_counter(t) asks t's grad_fn (Node.output_counter), which makes
# the counter, keeps it in its field and hands it to t, so tensor and node share it as
# before. A counter that does not exist has never been bumped: the output is still at
# the version 0 it was saved at. A chain of tiny ops (chain1m) makes no counter at all:
# 32 B a tanh node less. The link is t's grad_fn and t's array: the node hands its
# counter only to a tensor holding the very array it saved (the output itself, a tensor
# unpacked from it with the node as history), never to a snapshot or a later result at
# the same index; so whatever replaces t's grad_fn (the recording of an in-place op,
# detach_(), a custom Function's outputs) or t's array (in-place view ops, set_,
# resize_, `.data =`) first calls keep_counter(t). The derivative's own unpacking
# leaves the counter unmade (the tensor goes nowhere else); _saved_<name> read without
# grad mode, which gives no history, makes it.

cdef object save_output_inline(Tensor out, int output_nr):
    """What a node keeps of its own output output_nr (Note [Saved outputs inline]): the
    array, or under saved-tensor hooks or at a version other than 0 a SavedTensor; the
    caller stores out._vc (None: Note [Counters made by the node]) next to it."""
    keep_counter(out)
    if (_default_hooks or (out._vc is not None and out._vc.version != 0)
            or (agc_fw_active() and out._fw is not None)):
        return save_output(out, output_nr)
    return out._data


cdef VersionCounter inline_counter(Node owner, object obj, VersionCounter vc,
                                   int output_nr):
    """The counter of a saved output kept inline as the array obj: the node's field vc,
    or the one the node makes now (Note [Counters made by the node])."""
    if vc is not None:
        return vc
    vc = owner.output_counter(output_nr, <cnp.ndarray>obj)
    return vc if vc is not None else VersionCounter.__new__(VersionCounter)


cdef Tensor unpack_output(Node owner, object obj, VersionCounter vc, int output_nr,
                          bint formula):
    """unpack_saved for a saved output kept inline (Note [Saved outputs inline]).
    formula: for the node's own derivative, where the tensor goes nowhere else."""
    if type(obj) is SavedTensor:
        return unpack_saved(<SavedTensor>obj, owner)
    if is_released(owner) or obj is None:
        raise RuntimeError(MSG_BACKWARD_TWICE)
    if vc is None and not formula and not (agc_grad_enabled()
                                           and is_grad_array(<cnp.ndarray>obj)):
        # the tensor will not have owner as its grad_fn, the link to the counter
        # owner makes on need (Note [Counters made by the node]): made now
        vc = inline_counter(owner, obj, vc, output_nr)
    # vc None: never made, so never bumped: the output is at its saved version 0
    return _unpack_output_values(owner, <cnp.ndarray>obj, vc, 0, output_nr)


cdef SavedTensor saved_output_object(Node owner, object obj, VersionCounter vc,
                                     int output_nr):
    """The SavedTensor of a saved output kept inline (obj not None), made from its
    fields when it is still an array (Note [Saved outputs inline])."""
    if type(obj) is SavedTensor:
        return <SavedTensor>obj
    cdef SavedTensor s = SavedTensor.__new__(SavedTensor)
    gc_untrack(s)  # Note [Untracked by the cycle collector]
    s.obj = obj
    s.vc = inline_counter(owner, obj, vc, output_nr)
    s.version = 0  # the inline form's version
    s.output_nr = output_nr
    s.is_output = True
    return s


cdef Tensor _unpack_hooked(SavedTensor saved, Node owner):
    cdef SavedHooks h = <SavedHooks>saved.obj
    r = h.unpack_hook(h.packed)
    if not isinstance(r, Tensor):
        raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but "
                        f"got result of type {type(r).__name__}")
    if (not saved.is_output and h.grad_fn is None and not h.requires_grad
            and not requires_grad_of(<Tensor>r)):
        # nothing to attach: unpack_hook's tensor itself, as PyTorch (a tensor saved
        # through checkpoint's hooks comes back as the very object saved)
        return <Tensor>r
    cdef Tensor t = make((<Tensor>r)._data)
    cdef Node grad_fn = owner if saved.is_output else h.grad_fn
    if grad_fn is not None and is_grad_array(t._data):
        t._grad_fn = grad_fn
        t._output_nr = saved.output_nr
        t._requires_grad = True
    elif h.requires_grad and is_grad_array(t._data):
        t._requires_grad = True
        if h.accumulator is not None:
            t._accumulator = weakref.ref(h.accumulator)
    return t


cdef SavedTensor save(Tensor t):
    """Save a forward input (or any tensor that is not the saving node's output)."""
    cdef SavedTensor s = SavedTensor.__new__(SavedTensor)
    gc_untrack(s)  # Note [Untracked by the cycle collector]
    s.version = version_for_save(t)
    s.leaf = t._grad_fn is None
    if _default_hooks:
        pack_hook, unpack_hook = _default_hooks[-1]
        _pack(s, _hooks_for_input(s, t), t, pack_hook, unpack_hook)
    else:
        s.obj = t
    return s


cdef SavedTensor save_output(Tensor out, int output_nr):
    """Save one of the node's own outputs: its array and counter, not the Tensor."""
    cdef SavedTensor s = SavedTensor.__new__(SavedTensor)
    gc_untrack(s)  # Note [Untracked by the cycle collector]
    cdef VersionCounter vc = version_counter(out)
    s.obj = out._data
    s.vc = vc
    s.version = vc.version
    s.output_nr = output_nr
    s.is_output = True
    if agc_fw_active() and out._fw is not None:  # Note [Forward AD]: saved outputs
        _FW_SAVED[id(s)] = out._fw
        s.is_output = 2
    if _default_hooks:
        pack_hook, unpack_hook = _default_hooks[-1]
        # the tensor handed to pack has no history: a pack_hook keeping it (the identity)
        # then holds no reference to the node saving it
        _pack(s, SavedHooks.__new__(SavedHooks), _alias_of(out), pack_hook, unpack_hook)
    return s


cdef void repoint_saved(SavedTensor saved, Tensor t) noexcept:
    """Make a saved output refer to t, which now holds it (an in-place op's result)."""
    if type(saved.obj) is SavedHooks:
        return  # what pack_hook kept stands for the value
    cdef VersionCounter vc = t._vc
    saved.obj = t._data
    saved.vc = vc
    saved.version = vc.version


cdef object save_operand(object x):
    """Save a Tensor-or-number operand: a Tensor as a SavedTensor, a number as is."""
    if isinstance(x, Tensor):
        return save(<Tensor>x)
    return x


cdef object raw_saved(Node owner, object saved):
    """What grad_fn._raw_saved_<name> (and a Function's _raw_saved_tensors) shows of a
    saved entry: its SavedTensor; for an entry holding nothing (a saved None, an input
    that needed no save, or state backward freed) an empty SavedTensor, as PyTorch's
    SavedVariable that holds no tensor; a number saved in a tensor's place as is."""
    cdef SavedTensor s
    if saved is None:
        s = SavedTensor.__new__(SavedTensor)
        s.freed = is_released(owner)
        return s
    return saved


cdef object unpack_operand(Node owner, object saved):
    """What save_operand kept: a number saved in a tensor's place is released like
    one (PyTorch wraps it in a tensor), so it too raises after the graph is freed."""
    if isinstance(saved, SavedTensor):
        return unpack_saved(<SavedTensor>saved, owner)
    if is_released(owner):
        raise RuntimeError(MSG_BACKWARD_TWICE)
    return saved


# ---------------------------------------------------------------- Node

_hook_ids = iter(range(1, 1 << 62))


cdef _remove_first(list hooks, object hook):
    if hooks is not None:
        for i, h in enumerate(hooks):
            if h is hook:
                del hooks[i]
                break


class RemovableHandle:
    """Returned by register_hook-style calls; ``remove()`` unregisters the hook.

    >>> import autograd_core as torch
    >>> x = torch.tensor([1.], requires_grad=True)
    >>> h = x.register_hook(lambda g: g * 2)
    >>> h.remove()
    """

    def __init__(self, hooks, hook, tensor_hooks=None, tensor_hook=None):
        self._hooks = hooks
        self._hook = hook
        # a non-leaf's hook is also on the tensor (Note [Tensor hooks live on the tensor])
        self._tensor_hooks = tensor_hooks
        self._tensor_hook = tensor_hook
        self.id = next(_hook_ids)

    def remove(self):
        _remove_first(self._hooks, self._hook)
        _remove_first(self._tensor_hooks, self._tensor_hook)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


@cython.trashcan(True)
cdef class Node:
    """A recorded operation: the ``grad_fn`` of the tensors it produced.

    >>> import autograd_core as torch
    >>> a = torch.tensor([1., 2.], requires_grad=True)
    >>> (a * 2).grad_fn.name()
    'MulBackward0'
    """

    cdef tuple apply(self, tuple grads):
        raise RuntimeError(f"the derivative for '{type(self).__name__}' is not implemented")

    cdef tuple apply1(self, object grad):
        return None  # no single-gradient entry: the engine calls apply (Note
                     # [Single-gradient entry] in engine.pyx)

    cdef void release_saved(self) noexcept:
        pass

    cdef int num_outputs(self) noexcept:
        return 1

    cdef void repoint_output(self, int output_nr, Tensor t) noexcept:
        pass  # this node saved no output of its own

    cdef VersionCounter output_counter(self, int output_nr, cnp.ndarray data):
        return None  # it keeps no output inline (Note [Counters made by the node])

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"

    @property
    def next_functions(self):
        cdef tuple nrs = next_nrs_of(self)
        cdef Py_ssize_t i
        return tuple([(next_edge(self, i), 0 if nrs is None else nrs[i])
                      for i in range(n_edges(self))])

    def _sequence_nr(self):
        cdef uint64_t seq = node_seq(self)
        return <uint64_t>-1 if seq == ACCUMULATE_SEQ else seq

    @property
    def metadata(self):
        cdef NodeExtra x = user_extra(self)
        if x.meta is None:
            x.meta = {}
        return x.meta

    def register_hook(self, fn):
        """Run ``fn(grad_inputs, grad_outputs)`` after this node; it may return new grad_inputs."""
        cdef NodeExtra x = user_extra(self)
        if x.post_hooks is None:
            x.post_hooks = []
        x.post_hooks.append(fn)
        return RemovableHandle(x.post_hooks, fn)

    def register_prehook(self, fn):
        """Run ``fn(grad_outputs)`` before this node; it may return new grad_outputs."""
        cdef NodeExtra x = user_extra(self)
        if x.pre_hooks is None:
            x.pre_hooks = []
        x.pre_hooks.append(fn)
        return RemovableHandle(x.pre_hooks, fn)

    def __call__(self, *grads):
        """Apply the derivative to output gradients directly, as PyTorch's nodes allow."""
        cdef int n = self.num_outputs()
        if len(grads) != n:
            raise TypeError(f"expected {n} arguments, got {len(grads)} instead")
        cdef bint any_grad = False
        for g in grads:
            if g is not None:
                if not isinstance(g, Tensor):
                    raise TypeError("expected Tensor arguments to a grad_fn")
                any_grad = True
        if is_released(self):
            raise RuntimeError(MSG_BACKWARD_TWICE)
        if any_grad:
            out = self.apply(grads)
        else:  # no gradient in, none out (PyTorch's undefined gradients)
            out = (None,) * n_edges(self)
        return out[0] if len(out) == 1 else out


# Note [Node layout]
# A graph holds a node per recorded op, so a node's size is the graph's (a chain of a
# million ops on one element: benchmarks/run.py's chain1m). A node holds what every
# node needs: up to two edges inline (a tuple for more), one word packing its
# sequence number, its number of inputs and `released` (Node.bits), and the fields of its derivative's saved values; what
# only some nodes need lives in one NodeExtra created on first need: the edges' output
# indices (an input that is a multi-output op's output other than the first), input
# metadata (an op that broadcast or promoted an input), hooks, retain_grad's
# bookkeeping, Node.metadata and the view history a wrapped node's saved output names
# (view_history: a weakref). A NodeExtra holding only the first two is untracked
# by the cycle collector as its node is; user_extra() tracks both once it holds
# something the user gave (Note [Untracked by the cycle collector]).

@cython.final
cdef class NodeExtra:
    pass


cdef NodeExtra node_extra(Node node):
    """node's NodeExtra, created on first use."""
    if node.extra is None:
        node.extra = NodeExtra.__new__(NodeExtra)
        gc_untrack(node.extra)
    return node.extra


cdef NodeExtra user_extra(Node node):
    """node_extra(node), about to hold hooks or metadata: the cycle collector sees both."""
    cdef NodeExtra x = node_extra(node)
    cdef Tensor var
    if type(node) is AccumulateGrad:
        # a node the cycle collector sees is never a borrowed reference (its leaf's
        # traversal would subtract a reference that was not counted): its leaf now holds
        # it through a weakref (Note [Borrowed accumulator])
        var = (<AccumulateGrad>node).var
        if var is not None and var._accumulator is node:
            forget_accumulator(var)
            var._accumulator = weakref.ref(node)
    gc_track(x)
    gc_track(node)
    return x


cdef void set_input_meta(Node node, tuple meta):
    """Set Node.input_meta (None: no input needs it)."""
    if meta is not None or node.extra is not None:
        node_extra(node).input_meta = meta


cdef class TensorHook:
    """A non-leaf tensor's hook, kept among its grad_fn's pre-hooks for one output."""

    def __init__(self, int output_nr, fn):
        self.output_nr = output_nr
        self.fn = fn


cdef object check_hook_result(object r, Tensor g, object hook):
    """PyTorch's checks on a gradient a hook returned in place of g."""
    name = getattr(hook, "__name__", repr(hook))
    if not isinstance(r, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
    if not same_shape((<Tensor>r)._data, g._data):
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    if cnp.PyArray_TYPE((<Tensor>r)._data) != cnp.PyArray_TYPE(g._data):
        raise RuntimeError(f"hook '{name}' has changed the type of value (was "
                           f"{legacy_type_name(g)} got {legacy_type_name(<Tensor>r)})")
    return r


# ---------------------------------------------------------------- AccumulateGrad

# the largest sequence number Node.bits holds (PyTorch's UINT64_MAX: _sequence_nr)
cdef uint64_t ACCUMULATE_SEQ = (<uint64_t>1 << (64 - SEQ_SHIFT)) - 1


cdef void run_when_ready(Node node) noexcept:
    """Give node the largest sequence number, so the engine runs it as soon as it is
    ready: PyTorch's AccumulateGrad, and its Error nodes (once_differentiable's
    DelayedError, NotImplemented), which raise before later-made branches reach their
    leaves."""
    set_node_seq(node, ACCUMULATE_SEQ)


@cython.final
cdef class AccumulateGrad(Node):
    """The node through which gradients reach a leaf's ``.grad``.

    Its sequence number is the largest possible, so the engine accumulates into a
    leaf as soon as its gradient is complete (PyTorch's order).
    """

    @property
    def variable(self):
        return self.var

    def name(self):
        return "torch::autograd::AccumulateGrad"  # PyTorch's C++ node name

    def __dealloc__(self):
        # Note [Borrowed accumulator]: the leaf's field did not count this reference
        cdef Tensor v = self.var
        if v is not None and v._accumulator is self:
            Py_INCREF(self)  # (Cython holds one more during __dealloc__: never back to 0)
            v._accumulator = None

    cdef tuple apply(self, tuple grads):
        cdef Tensor var = self.var
        cdef Tensor g = grads[0]
        if g is not None:
            if var._grad_fn is not None:  # an in-place op on it since (after a detach_())
                raise RuntimeError("leaf variable has been moved into the graph interior")
            # (not into a leaf detach_()ed since the graph was made; the leaf's tensor
            # hooks ran before: the engine calls them as this node's tensor pre-hooks,
            # ahead of its pre-hooks, as PyTorch)
            if var._requires_grad:
                accumulate_into(var, g)
        # the post-accumulate hooks run whenever the node does, with no gradient or after
        # a detach_() too, as PyTorch's (fuzzer seed 601304)
        if post_acc_hooks_of(var) is not None:
            for hook in list(post_acc_hooks_of(var)):
                if hook(var) is not None:
                    raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        return ()


# Note [Stealing the gradient]
# PyTorch's AccumulateGrad makes the incoming gradient the leaf's .grad without a copy
# when nothing else holds it (its use count); a gradient someone else holds (a hook's
# closure, a second input buffer, the user) is cloned, so that later in-place
# accumulation cannot change what they see. Here the count is the refcount: during a
# backward pass the engine holds the gradient once (the grads tuple it passes to
# apply; Note [Stealing the gradient] in engine.pyx drops its other references),
# AccumulateGrad.apply once (its local) and accumulate_into once (its own reference
# to an argument it reassigns): 3. tests/test_engine_hooks.py checks this against
# PyTorch's data_ptr()s.
#
# The derivative formulas use the same count: a gradient that only the engine's grads
# tuple and the generated apply's `grad` hold (2; on the single-gradient path the
# engine's buffer slot and its local, Note [Single-gradient entry] in engine.pyx) is
# scratch memory, and the fused
# backward kernels (tanh_backward, sigmoid_backward, threshold_backward,
# mul_tensor_backward in ops/pointwise.pyx) write their result into it instead of
# allocating, as PyTorch's engine reuses a buffer it owns. Only with grad mode off (no
# create_graph: nothing records the gradient or saves it). What makes the count
# honest: the engine holds no other reference while a node runs (a node's post hooks
# see its incoming gradients after apply: the engine holds them once more, except
# for AccumulateGrad, whose taking the gradient as .grad they see, as in PyTorch); a
# generated apply that reads grad twice (or several outputs' gradients) holds them
# once more (ops/_codegen.py); a helper that passes grad to one of these kernels
# reads it no more afterwards. tests/test_engine_buffers.py checks both the reuse and that
# nothing a user, a hook or a second reader holds changes.

cdef inline bint _can_steal(Tensor g, int expected_refs):
    """True when nothing else can see g or its memory, so .grad may take it as is."""
    cdef cnp.ndarray arr = g._data
    return (Py_REFCNT(g) <= expected_refs and g._grad_fn is None
            and cnp.PyArray_BASE(arr) == NULL and Py_REFCNT(arr) == 2  # g's, and arr here
            and cnp.PyArray_ISWRITEABLE(arr))


cdef bint _can_steal_view(Tensor g, int expected_refs):
    """True when g is a view (t(), reshape) of an array that only g reaches: the product
    mm_mat2_backward transposes for nn.Linear's weight, the sum sum_to reshapes for a
    broadcast bias. PyTorch steals these (nothing else uses the view's TensorImpl); here
    the view's base tensor and base array must be held by g alone, so .grad still aliases
    nothing a user, a hook or a retained gradient can reach."""
    cdef cnp.ndarray arr = g._data
    if (Py_REFCNT(g) > expected_refs or g._grad_fn is not None or Py_REFCNT(arr) != 2
            or not cnp.PyArray_ISWRITEABLE(arr) or cnp.PyArray_BASE(arr) == NULL):
        return False
    cdef object root = <object>cnp.PyArray_BASE(arr)
    if not cnp.PyArray_Check(root):
        return False
    cdef cnp.ndarray r = root
    if cnp.PyArray_BASE(r) != NULL or not cnp.PyArray_CHKFLAGS(
            r, cnp.NPY_ARRAY_OWNDATA | cnp.NPY_ARRAY_WRITEABLE):
        return False
    cdef object b = g._base
    if b is None:
        return Py_REFCNT(r) == 3  # arr's base, root and r here
    # (b, root and r here; the base tensor's array, arr's base, root and r)
    return (Py_REFCNT(b) == 2 and (<Tensor>b)._data is r and Py_REFCNT(r) == 4)


cdef bint grad_is_owned(Tensor g, int expected_refs) noexcept:
    """Note [Stealing the gradient]: whether a derivative may write its result into g,
    a gradient held only by expected_refs references of the engine and the node."""
    # (not under forward AD: the tangent formula reads g: Note [Forward AD])
    return (not agc_grad_enabled() and not agc_fw_active() and not g._requires_grad and g._vc is None
            and g._base is None and _can_steal(g, expected_refs)
            and cnp.PyArray_CHKFLAGS(g._data, cnp.NPY_ARRAY_OWNDATA | cnp.NPY_ARRAY_C_CONTIGUOUS
                                     | cnp.NPY_ARRAY_ALIGNED | cnp.NPY_ARRAY_WRITEABLE))


# Backward passes on several threads may accumulate into one leaf at once: its .grad's
# read-modify-write (an in-place add releases the GIL in numpy's loop) is done under a
# lock of that leaf, as PyTorch's AccumulateGrad holds its per-leaf mutex, so no
# gradient is lost while threads accumulating into different leaves do not wait on
# each other. The locks are striped: a leaf takes the lock its address hashes to (no
# field on Tensor; two leaves sharing a stripe only serialise, and a thread holds at
# most one stripe at a time, so there is no lock order to get wrong).
cdef enum:
    _ACCUMULATE_STRIPES = 64
cdef PyThread_type_lock _accumulate_locks[_ACCUMULATE_STRIPES]


cdef void _allocate_accumulate_locks() noexcept:
    cdef int i
    for i in range(_ACCUMULATE_STRIPES):
        _accumulate_locks[i] = PyThread_allocate_lock()


_allocate_accumulate_locks()


# Note [ZeroTensor]
# PyTorch's sgn backward for real inputs is an _efficientzerotensor: a zero tensor that
# is immutable. It flows on through the engine like any gradient; a leaf's
# AccumulateGrad may steal it (Note [Stealing the gradient]), and then the leaf's .grad
# is a ZeroTensor: x.grad._is_zerotensor() is True, an in-place write into it raises,
# and so does a second backward accumulating into it. Views of it are ZeroTensors too,
# and so are the results of PyTorch's ZeroTensor kernels (mul, div, add, sub:
# binary_values in ops/pointwise.pyx), so that a ZeroTensor passes through the formulas
# made of them (grad * other) as in PyTorch; any other computed result is ordinary.
# Here its values are a read-only zero array registered (weakly, by identity) below;
# views of it share its memory and so its root array.
cdef object _zerotensor_roots = weakref.WeakValueDictionary()


def _zerotensor_like(Tensor t):
    """A ZeroTensor of t's shape and dtype (Note [ZeroTensor])."""
    cdef cnp.ndarray arr = np.zeros(shape_of(t._data), dtype=t._data.dtype)
    arr.flags.writeable = False
    _zerotensor_roots[id(arr)] = arr
    return make(arr)


cdef bint _obeys_layout_contract(cnp.ndarray g, cnp.ndarray var):
    """PyTorch's obeys_layout_contract: the strides .grad may take as they are (those of
    a dense variable, size-1 dimensions aside; else C-contiguous)."""
    cdef int i
    if not is_non_overlapping_and_dense(var):
        return cnp.PyArray_IS_C_CONTIGUOUS(g)
    for i in range(cnp.PyArray_NDIM(g)):
        if cnp.PyArray_DIM(g, i) != 1 and cnp.PyArray_STRIDE(g, i) != cnp.PyArray_STRIDE(var, i):
            return False
    return True


cdef cnp.ndarray _clone_obey_contract(cnp.ndarray g, cnp.ndarray var):
    """PyTorch's clone_obey_contract: a copy of g with a dense variable's very strides
    (a permuted or channels-last leaf gets a .grad laid out as itself), else contiguous."""
    cdef cnp.ndarray out = (empty_preserving(var, g.dtype) if is_non_overlapping_and_dense(var)
                            else np.empty(shape_of(g), dtype=g.dtype))
    out[...] = g
    return out


cdef bint is_zerotensor(Tensor t) except -1:
    cdef cnp.ndarray arr = t._data
    if cnp.PyArray_ISWRITEABLE(arr):  # (the common case: one flag test)
        return False
    # the array that owns the memory: numpy collapses chains of views, but an empty
    # tensor's array goes through as_strided (Note [Strides of empty tensors]), whose
    # base is a DummyArray holding the original
    root = <object>arr
    while getattr(root, "base", None) is not None:
        root = root.base
    return _zerotensor_roots.get(id(root)) is root


cdef int accumulate_into(Tensor var, Tensor g) except -1:
    """PyTorch's AccumulateGrad: steal or clone the first gradient, then add.

    Grad mode on means create_graph: accumulate out of place so .grad stays
    differentiable. Off: add in place, as PyTorch does (a user holding the old
    .grad sees it change)."""
    cdef size_t addr = <size_t><void *>var
    cdef PyThread_type_lock lock = _accumulate_locks[(addr >> 4) % _ACCUMULATE_STRIPES]
    if not PyThread_acquire_lock(lock, NOWAIT_LOCK):
        with nogil:  # the holder may need the GIL to finish
            PyThread_acquire_lock(lock, WAIT_LOCK)
    try:
        _accumulate_locked(var, g)
    finally:
        PyThread_release_lock(lock)
    return 0


# Note [Sparse gradients]
# A sparse COO/CSR tensor is a Python subclass of Tensor (autograd_core/_sparse.py) whose
# array is a read-only zero-strided placeholder of its dense shape and dtype, so the
# engine's shape and dtype checks hold; its values never live in that array. The engine
# must therefore never add such a gradient through OPS: accumulation into .grad and the
# sum of two gradients for one slot hand any gradient whose type is not exactly Tensor
# to the sparse module's hook (set by _set_sparse_accumulate), which handles a sparse
# operand and declines anything else; the engine's sum of two gradients for one slot
# (engine.pyx, _buffer_sum) calls the sparse type's _agc_buffer_sum. A plain Tensor
# costs one type comparison.
cdef object _sparse_accumulate = None


def _set_sparse_accumulate(fn):
    """Installs the sparse module's accumulation hook (Note [Sparse gradients])."""
    global _sparse_accumulate
    _sparse_accumulate = fn


cdef int _accumulate_locked(Tensor var, Tensor g) except -1:
    cdef Tensor old = var._grad
    if ((type(g) is not Tensor or (old is not None and type(old) is not Tensor))
            and _sparse_accumulate is not None and _sparse_accumulate(var, g)):
        return 0  # Note [Sparse gradients]
    gd = grad_dtype_field(var)
    if gd is None:
        if cnp.PyArray_TYPE(g._data) != cnp.PyArray_TYPE(var._data):
            g = OPS._to_copy(g, dtype_of(var._data))
    elif gd is not False and dtype_of(g._data) is not gd:
        g = OPS._to_copy(g, <dtype>gd)   # Tensor.grad_dtype
    if old is None:
        if (not agc_grad_enabled() and is_zerotensor(g) and Py_REFCNT(g) <= 3
                and _obeys_layout_contract(g._data, var._data)):
            var._grad = g  # Note [ZeroTensor]
        elif (_any_mirrors and not agc_grad_enabled() and Py_REFCNT(g) <= 3
                and g._grad_fn is None and lazy_bits(g) == LAZY_CONJ):
            var._grad = conj_grad(g, var)  # Note [Conjugate and negative views]
        elif (not agc_grad_enabled() and _can_steal(g, 3)
                and (not agc_grad_layout_enforced()
                     or _obeys_layout_contract(g._data, var._data))):
            # enforce_grad_layout_policy(False): a stealable gradient is taken as laid out
            var._grad = g
        elif (not agc_grad_enabled() and _can_steal_view(g, 3)
                and (not agc_grad_layout_enforced()
                     or _obeys_layout_contract(g._data, var._data))):
            var._grad = make(g._data)  # detached, as PyTorch's update_grad(new_grad.detach())
        elif agc_grad_enabled():
            var._grad = OPS._copy_backwards(g, True)
        else:
            var._grad = make(_clone_obey_contract(g._data, var._data))
    elif agc_grad_enabled():
        var._grad = OPS._copy_backwards(OPS.add(old, g, 1), False)
    else:
        if is_zerotensor(old):
            raise RuntimeError(MSG_ZEROTENSOR_WRITE)
        if cnp.PyArray_ISWRITEABLE(old._data) and same_shape(old._data, g._data):
            np.add(old._data, g._data, out=old._data)
            bump_version(old)  # not an op's write: see Note [In-place ops]
        else:
            var._grad = make(as_array(old._data + g._data))


def _is_grad_layout_enforcement_enabled():
    """torch._C._is_grad_layout_enforcement_enabled (enforce_grad_layout_policy)."""
    return bool(agc_grad_layout_enforced())


def _set_grad_layout_enforcement_enabled(bint enabled):
    agc_set_grad_layout_enforced(enabled)


def _grad_accumulator(Tensor leaf):
    """A leaf's AccumulateGrad node (autograd.graph.get_gradient_edge)."""
    return grad_accumulator(leaf)


# Note [Borrowed accumulator]
# A leaf holds its AccumulateGrad weakly (PyTorch's weak_ptr grad_accumulator_): the
# graphs made from the leaf own the node, and a graph made after they all died gets a
# new one. A weakref object per leaf per graph, made and cleared, cost a graph of 2,000
# scalar leaves a fifth of its time (callgrind: ~3,200 instructions per leaf, half of
# them the weakref), so the leaf's _accumulator holds its own node as a reference that
# is not counted: acc.var is the leaf (counted), leaf._accumulator is acc (borrowed),
# and acc's __dealloc__ resets the field. The leaf cannot die first: acc holds it.
# The invariant everything touching _accumulator relies on: a field holding an
# AccumulateGrad whose var is that very tensor is borrowed; any other value (None, or a
# weakref.ref: in a tensor that shares another tensor's node, an unpacked saved leaf, an
# in-place op's source; or to a node the cycle collector tracks, whose hooks or metadata
# the user set, see user_extra) is an ordinary reference. So the field is read through
# live_accumulator and reset through forget_accumulator, never assigned elsewhere.

cdef inline object live_accumulator(Tensor t):
    """t's AccumulateGrad if one is alive, else None (Note [Borrowed accumulator])."""
    cdef object cur = t._accumulator
    if cur is None or type(cur) is AccumulateGrad:
        return cur
    return cur()  # a weakref.ref to a node another tensor owns


cdef void forget_accumulator(Tensor t) noexcept:
    """Reset t's _accumulator (Note [Borrowed accumulator])."""
    cdef object cur = t._accumulator
    if type(cur) is AccumulateGrad and (<AccumulateGrad>cur).var is t:
        Py_INCREF(cur)  # the reference the assignment below drops was never counted
    t._accumulator = None


cdef object accumulator_ref(Tensor t):
    """A weak reference to t's live AccumulateGrad (or None), for another tensor that
    stands for t in the graph (Note [Borrowed accumulator])."""
    acc = live_accumulator(t)
    return None if acc is None else weakref.ref(acc)


def _forget_accumulator(Tensor t):
    """forget_accumulator for the op modules (set_: t's node belongs to its old memory)."""
    forget_accumulator(t)


cdef AccumulateGrad grad_accumulator(Tensor leaf):
    """The leaf's AccumulateGrad node, created on first use and held weakly (Note
    [Borrowed accumulator])."""
    cdef AccumulateGrad acc
    cur = live_accumulator(leaf)
    if cur is not None:
        return <AccumulateGrad>cur
    acc = AccumulateGrad.__new__(AccumulateGrad)
    gc_untrack(acc)  # Note [Untracked by the cycle collector]
    acc.var = leaf
    run_when_ready(acc)
    leaf._accumulator = acc  # (it held None or a dead weakref: an ordinary reference)
    Py_DECREF(acc)  # Note [Borrowed accumulator]: the field's reference is not counted
    return acc


# ---------------------------------------------------------------- recording

cdef Node edge_node(Tensor t):
    """Where the gradient for input t goes: its grad_fn, its accumulator, or nowhere
    (a view made under no_grad: it requires grad through its base, but is no leaf of
    its own)."""
    cdef Node fn = t._grad_fn if t._base is None else grad_fn_of(t)
    if fn is not None:
        return fn
    if t._requires_grad:
        return grad_accumulator(t)
    return None


cdef bint any_requires_grad(tuple inputs) noexcept:
    for x in inputs:
        if isinstance(x, Tensor) and requires_grad_of(<Tensor>x):
            return True
    return False


# Under detect_anomaly a node created while another node's backward runs (a
# create_graph formula, a custom Function's backward) keeps that node as its parent_:
# an error in it reports both forward traces, as PyTorch's AnomalyMetadata does.
cdef object _anomaly_current = None


def _set_anomaly_current(node):
    """The node whose backward runs now (the engine sets it in anomaly mode); returns
    the previous one."""
    global _anomaly_current
    prev = _anomaly_current
    _anomaly_current = node
    return prev


cdef void _record_trace(Node node):
    import traceback
    cdef NodeExtra x = user_extra(node)
    if x.meta is None:
        x.meta = {}
    x.meta["traceback_"] = traceback.format_stack()  # Cython frames are not in it
    if _anomaly_current is not None:
        x.meta["parent_"] = _anomaly_current


cdef inline object _edge_of(object x):
    return edge_node(<Tensor>x) if isinstance(x, Tensor) else None


cdef inline int _output_nr_of(object x):
    return (<Tensor>x)._output_nr if isinstance(x, Tensor) else 0


cdef inline int _set_edges(Node node, tuple inputs) except -1:
    """One edge per forward input; anything but a Tensor (None, a number) gets none."""
    cdef Py_ssize_t n = len(inputs), i
    cdef bint any_nr = False
    set_n_edges(node, n)
    if n == 1:
        node.edge0 = _edge_of(inputs[0])
    elif n == 2:
        node.edge0 = _edge_of(inputs[0])
        node.edge1 = <Node>_edge_of(inputs[1])
    elif n > 2:
        node.edge0 = tuple([_edge_of(x) for x in inputs])
        gc_untrack(node.edge0)
    for i in range(n):
        if _output_nr_of(inputs[i]) != 0:
            any_nr = True
    if any_nr:
        node_extra(node).next_nrs = tuple([_output_nr_of(x) for x in inputs])
    set_node_seq(node, new_sequence_nr())
    gc_untrack(node)  # Note [Untracked by the cycle collector]
    if anomaly_enabled:
        _record_trace(node)


cdef int record(Node node, Tensor out, tuple inputs) except -1:
    """Make node the grad_fn of out, with one edge per forward input."""
    _set_edges(node, inputs)
    keep_counter(out)  # Note [Counters made by the node]
    out._grad_fn = node
    out._requires_grad = True


cdef int record_broadcast(Node node, Tensor out, tuple inputs) except -1:
    """record() for an op that broadcasts or promotes its inputs: the engine reduces
    and casts each input's gradient back to the input (Node.input_meta)."""
    _set_edges(node, inputs)
    keep_counter(out)  # Note [Counters made by the node]
    out._grad_fn = node
    out._requires_grad = True
    cdef list metas = None
    cdef Py_ssize_t i, n = len(inputs)
    cdef cnp.ndarray oa = out._data, xa
    for i in range(n):
        x = inputs[i]
        if not isinstance(x, Tensor):
            continue
        xa = (<Tensor>x)._data
        if cnp.PyArray_TYPE(xa) != cnp.PyArray_TYPE(oa) or not same_shape(xa, oa):
            if metas is None:
                metas = [None] * n
            metas[i] = (shape_of(xa), dtype_of(xa))
    if metas is not None:
        node_extra(node).input_meta = tuple(metas)


cdef inline object _meta_if_differs(object x, cnp.ndarray oa):
    """An input's (shape, dtype) when the op broadcast or promoted it, else None."""
    if not isinstance(x, Tensor):
        return None
    cdef cnp.ndarray xa = (<Tensor>x)._data
    if cnp.PyArray_TYPE(xa) != cnp.PyArray_TYPE(oa) or not same_shape(xa, oa):
        return (shape_of(xa), dtype_of(xa))
    return None


cdef inline void _finish_record(Node node, Tensor out) noexcept:
    set_node_seq(node, new_sequence_nr())
    gc_untrack(node)  # Note [Untracked by the cycle collector]
    keep_counter(out)  # Note [Counters made by the node]
    out._grad_fn = node
    out._requires_grad = True


cdef int record1(Node node, Tensor out, object a) except -1:
    """record(node, out, (a,)) without building the tuple (the generated wiring of
    one-input nodes calls this: it runs once per recorded op)."""
    node.edge0 = _edge_of(a)
    set_n_edges(node, 1)
    if _output_nr_of(a):
        node_extra(node).next_nrs = (_output_nr_of(a),)
    _finish_record(node, out)
    if anomaly_enabled:
        _record_trace(node)


cdef int record2(Node node, Tensor out, object a, object b, bint broadcast) except -1:
    """record / record_broadcast(node, out, (a, b)) without building the tuple."""
    node.edge0 = _edge_of(a)
    node.edge1 = <Node>_edge_of(b)
    set_n_edges(node, 2)
    if _output_nr_of(a) or _output_nr_of(b):
        node_extra(node).next_nrs = (_output_nr_of(a), _output_nr_of(b))
    _finish_record(node, out)
    if broadcast:
        ma = _meta_if_differs(a, out._data)
        mb = _meta_if_differs(b, out._data)
        if ma is not None or mb is not None:
            node_extra(node).input_meta = (ma, mb)
    if anomaly_enabled:
        _record_trace(node)


cdef int record_wrapping(Node node, Tensor out, Node fn) except -1:
    """Make node the grad_fn of out with the edges of a node wrapping fn (PyTorch's
    CopySlices: Note [CopySlices wraps the op]): out's own old history, then fn's edges
    but its first; fn's input metadata for those edges goes with them."""
    cdef Py_ssize_t n = max(n_edges(fn), 1), i
    cdef tuple nrs = next_nrs_of(fn)
    cdef list edges = [edge_node(out)] + [next_edge(fn, i) for i in range(1, n)]
    set_n_edges(node, n)
    if n == 1:
        node.edge0 = edges[0]
    elif n == 2:
        node.edge0 = edges[0]
        node.edge1 = <Node>edges[1]
    else:
        node.edge0 = tuple(edges)
        gc_untrack(node.edge0)
    if out._output_nr or nrs is not None:
        node_extra(node).next_nrs = (out._output_nr,) + (
            tuple(nrs[1:n]) if nrs is not None else (0,) * (n - 1))
    cdef tuple meta = input_meta_of(fn)
    if meta is not None and len(meta) > 1 and any(m is not None for m in meta[1:]):
        set_input_meta(node, (None,) + tuple(meta[1:]))
    _finish_record(node, out)
    if anomaly_enabled:
        _record_trace(node)


cdef int record_outputs(Node node, tuple outputs, tuple inputs) except -1:
    """Make node the grad_fn of several outputs (output_nr = position; None entries
    and non-floating outputs are skipped)."""
    _set_edges(node, inputs)
    cdef Py_ssize_t i
    cdef Tensor t
    for i in range(len(outputs)):
        o = outputs[i]
        if o is None:
            continue
        t = <Tensor>o
        if not is_grad_array(t._data):
            continue
        keep_counter(t)  # Note [Counters made by the node]
        t._grad_fn = node
        t._output_nr = <int>i
        t._requires_grad = True


# ---------------------------------------------------------------- in derivative formulas
# Arithmetic on operands whose kind (Tensor or number) is known only at run time.

cdef object any_add(object a, object b, object alpha=1):
    if isinstance(a, Tensor):
        return OPS.add(<Tensor>a, b, alpha)
    if isinstance(b, Tensor):
        return OPS.add(OPS.mul(<Tensor>b, alpha), a, 1) if alpha != 1 else OPS.add(<Tensor>b, a, 1)
    return a + alpha * b


cdef object any_sub(object a, object b):
    if isinstance(a, Tensor):
        return OPS.sub(<Tensor>a, b, 1)
    if isinstance(b, Tensor):
        return OPS.rsub(<Tensor>b, a, 1)
    return a - b


cdef object any_mul(object a, object b):
    if isinstance(a, Tensor):
        return OPS.mul(<Tensor>a, b)
    if isinstance(b, Tensor):
        return OPS.mul(<Tensor>b, a)
    return a * b


cdef object any_div(object a, object b):
    if isinstance(a, Tensor):
        return OPS.div(<Tensor>a, b, None)
    if isinstance(b, Tensor):
        return OPS.mul(OPS.reciprocal(<Tensor>b), a)
    return a / b


cdef object any_pow(object a, object b):
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return OPS.pow(a, b)
    return a ** b


cdef object any_neg(object a):
    if isinstance(a, Tensor):
        return OPS.neg(<Tensor>a)
    return -a


cdef Tensor unsqueeze_dims(Tensor t, tuple dims):
    """t with a size-1 dim inserted at each of dims (ascending, non-negative): the
    gradient of a squeeze, or of a reduction without keepdim."""
    for d in dims:
        t = OPS.unsqueeze(t, d)
    return t


cdef Tensor not_implemented(str what):
    """The derivative a formula does not have: raise, naming it (PyTorch raises
    NotImplementedError, a RuntimeError)."""
    raise NotImplementedError(f"the derivative for '{what}' is not implemented.")
