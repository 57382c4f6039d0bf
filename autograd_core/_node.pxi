# Node (grad_fn), AccumulateGrad, and saved-tensor bookkeeping.
#
# Note [Saved tensor versions]
# A node that needs a forward value in backward saves it with the version counter's
# value at that moment. Unpacking compares the two: an in-place op in between bumped
# the counter and backward would compute with the wrong values, so it raises instead.
# A node never saves its own output as a Tensor (that Tensor's grad_fn is the node: a
# reference cycle); it keeps the array and counter and rebuilds a Tensor on unpack.
#
# Note [Releasing saved state]
# backward() without retain_graph calls release_saved() on every node it ran. A node
# that saved anything drops it and sets `released`; running it again raises
# _MSG_BACKWARD_TWICE. Nodes that saved nothing (AddBackward0) stay usable, as in
# PyTorch.

cdef inline VersionCounter _vc_of(Tensor t):
    if t._vc is None:
        t._vc = VersionCounter.__new__(VersionCounter)
    return t._vc


cdef inline long _version_for_save(Tensor t):
    if t._inference and not agc_inference_mode():
        raise RuntimeError(
            "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
            "inference mode in computation tracked by autograd. To work around this, you can make "
            "a clone to get a normal tensor and use it in autograd, or use "
            "`autograd_core.no_grad()` instead of `autograd_core.inference_mode()`.")
    return _vc_of(t).version


cdef inline void _bump_version(Tensor t):
    cdef VersionCounter vc = _vc_of(t)
    vc.version += 1


cdef inline Tensor _unpack(Node node, Tensor t, long version):
    """A saved forward input, checked (Note [Saved tensor versions])."""
    if node.released:
        raise RuntimeError(_MSG_BACKWARD_TWICE)
    if t is not None and t._vc.version != version:
        raise _modified_error(t, version, t._grad_fn, t._output_nr)
    return t


cdef Tensor _unpack_output(Node node, cnp.ndarray arr, VersionCounter vc, long version):
    """A node's own saved output, rebuilt as a Tensor whose grad_fn is the node."""
    if node.released:
        raise RuntimeError(_MSG_BACKWARD_TWICE)
    cdef Tensor t = _make(arr)
    t._vc = vc
    if vc.version != version:
        raise _modified_error(t, version, node, 0)
    if agc_grad_enabled():
        # Only create_graph needs the history; without it the value is a constant.
        t._grad_fn = node
        t._requires_grad = True
    return t


@cython.freelist(64)
cdef class VersionCounter:
    pass


_hook_ids = iter(range(1, 1 << 62))


class RemovableHandle:
    """Returned by register_hook-style calls; ``remove()`` unregisters the hook."""

    def __init__(self, hooks, hook):
        self._hooks = hooks
        self._hook = hook
        self.id = next(_hook_ids)

    def remove(self):
        hooks = self._hooks
        if hooks is not None:
            for i, h in enumerate(hooks):
                if h is self._hook:
                    del hooks[i]
                    break

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

    cdef void release_saved(self):
        pass

    cdef int num_outputs(self):
        return 1

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"

    @property
    def next_functions(self):
        if self.next_nodes is None:
            return ()
        if self.next_nrs is None:
            return tuple((n, 0) for n in self.next_nodes)
        return tuple(zip(self.next_nodes, self.next_nrs))

    def _sequence_nr(self):
        return self.seq

    @property
    def metadata(self):
        if self.meta is None:
            self.meta = {}
            _gc_track(self)
        return self.meta

    def register_hook(self, fn):
        """Run ``fn(grad_inputs, grad_outputs)`` after this node; it may return new grad_inputs."""
        if self.post_hooks is None:
            self.post_hooks = []
            _gc_track(self)
        self.post_hooks.append(fn)
        return RemovableHandle(self.post_hooks, fn)

    def register_prehook(self, fn):
        """Run ``fn(grad_outputs)`` before this node; it may return new grad_outputs."""
        if self.pre_hooks is None:
            self.pre_hooks = []
            _gc_track(self)
        self.pre_hooks.append(fn)
        return RemovableHandle(self.pre_hooks, fn)

    def __call__(self, *grads):
        """Apply the derivative to output gradients directly, as PyTorch's nodes allow."""
        for g in grads:
            if g is not None and not isinstance(g, Tensor):
                raise TypeError("expected Tensor arguments to a grad_fn")
        if self.released:
            raise RuntimeError(_MSG_BACKWARD_TWICE)
        out = self.apply(grads)
        return out[0] if len(out) == 1 else out


cdef uint64_t _ACCUMULATE_SEQ = <uint64_t>-1


@cython.final
cdef class AccumulateGrad(Node):
    """The node through which gradients reach a leaf's ``.grad``.

    Its sequence number is the largest possible, so the engine accumulates into a
    leaf as soon as its gradient is complete (PyTorch's order).
    """
    cdef Tensor var   # the leaf; it holds this node only weakly

    @property
    def variable(self):
        return self.var

    def name(self):
        return "torch::autograd::AccumulateGrad"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        cdef Tensor g = grads[0]
        cdef Tensor var = self.var
        if g is None:
            return ()
        if var._hooks is not None:
            for hook in list(var._hooks):
                r = hook(g)
                if r is not None:
                    g = _check_hook_result(r, g, hook)
        _accumulate_into(var, g)
        if var._post_acc_hooks is not None:
            for hook in list(var._post_acc_hooks):
                if hook(var) is not None:
                    raise RuntimeError("post accumulate grad hooks should return None")
        return ()


cdef object _check_hook_result(object r, Tensor g, object hook):
    """PyTorch's checks on a gradient a hook returned in place of g."""
    name = getattr(hook, "__name__", repr(hook))
    if not isinstance(r, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
    if _shp((<Tensor>r)._data) != _shp(g._data):
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    if cnp.PyArray_TYPE((<Tensor>r)._data) != cnp.PyArray_TYPE(g._data):
        raise RuntimeError(f"hook '{name}' has changed the type of value (was "
                           f"{_legacy_type_name(g)} got {_legacy_type_name(<Tensor>r)})")
    return r


cdef inline bint _can_steal(Tensor g, int expected_refs):
    """True when nothing else can see g or its memory, so .grad may take it as is."""
    cdef cnp.ndarray arr = g._data
    return (Py_REFCNT(g) <= expected_refs and g._grad_fn is None
            and cnp.PyArray_BASE(arr) == NULL and Py_REFCNT(arr) == 1
            and cnp.PyArray_ISWRITEABLE(arr))


cdef void _accumulate_into(Tensor var, Tensor g) except *:
    """PyTorch's AccumulateGrad: steal or clone the first gradient, then add.

    Grad mode on means create_graph: accumulate out of place so .grad stays
    differentiable. Off: add in place, as PyTorch does (a user holding the old
    .grad sees it change)."""
    cdef Tensor old = var._grad
    if g._data.dtype != var._data.dtype:
        g = _cast(g, _dtype_of(var._data))
    if old is None:
        if not agc_grad_enabled() and _can_steal(g, 4):
            var._grad = g
        elif agc_grad_enabled():
            var._grad = _copy_backwards(g, True)
        else:
            var._grad = _clone(g)
    elif agc_grad_enabled():
        var._grad = _copy_backwards(_add(old, g), False)
    else:
        if cnp.PyArray_ISWRITEABLE(old._data) and _shp(old._data) == _shp(g._data):
            np.add(old._data, g._data, out=old._data)
            _bump_version(old)
        else:
            var._grad = _make(_as_array(old._data + g._data))


cdef AccumulateGrad _grad_accumulator(Tensor leaf):
    """The leaf's AccumulateGrad node, created on first use and held weakly."""
    cdef AccumulateGrad acc
    if leaf._accumulator is not None:
        acc = leaf._accumulator()
        if acc is not None:
            return acc
    acc = AccumulateGrad.__new__(AccumulateGrad)
    _gc_untrack(acc)  # Note [Untracked by the cycle collector]
    acc.var = leaf
    acc.seq = _ACCUMULATE_SEQ
    leaf._accumulator = weakref.ref(acc)
    return acc


cdef inline Node _edge_node(Tensor t):
    """Where the gradient for input t goes: its grad_fn, its accumulator, or nowhere."""
    if t._grad_fn is not None:
        return t._grad_fn
    if t._requires_grad:
        return _grad_accumulator(t)
    return None


cdef inline void _record1(Node node, Tensor out, Tensor a):
    _gc_untrack(node)  # Note [Untracked by the cycle collector]
    node.next_nodes = (_edge_node(a),)
    _gc_untrack(node.next_nodes)
    if a._output_nr:
        node.next_nrs = (a._output_nr,)
    node.seq = _new_sequence_nr()
    out._grad_fn = node
    out._requires_grad = True
    if _anomaly_enabled:
        _record_trace(node)


cdef inline void _record2(Node node, Tensor out, Tensor a, Tensor b):
    _gc_untrack(node)  # Note [Untracked by the cycle collector]
    node.next_nodes = (_edge_node(a), _edge_node(b))
    _gc_untrack(node.next_nodes)
    if a._output_nr or b._output_nr:
        node.next_nrs = (a._output_nr, b._output_nr)
    node.seq = _new_sequence_nr()
    out._grad_fn = node
    out._requires_grad = True
    if _anomaly_enabled:
        _record_trace(node)


cdef void _record_n(Node node, Tensor out, list inputs):
    """Record a node with any number of inputs (cat, stack, custom Functions)."""
    cdef Tensor t
    cdef bint any_nr = False
    nodes = []
    nrs = []
    for t in inputs:
        nodes.append(_edge_node(t))
        nrs.append(t._output_nr)
        any_nr = any_nr or t._output_nr != 0
    node.next_nodes = tuple(nodes)
    node.next_nrs = tuple(nrs) if any_nr else None
    node.seq = _new_sequence_nr()
    if out is not None:
        out._grad_fn = node
        out._requires_grad = True
    if _anomaly_enabled:
        _record_trace(node)


cdef void _record_trace(Node node):
    import traceback
    if node.meta is None:
        node.meta = {}
    node.meta["traceback_"] = traceback.format_stack()  # Cython frames are not in it


cdef inline bint _needs(Node node, int i):
    """Whether forward input i wants a gradient (PyTorch's should_compute_output)."""
    return node.next_nodes[i] is not None


cdef inline object _meta_if_differs(Tensor t, cnp.ndarray out):
    """Input metadata the engine needs when t's shape or dtype differs from out's."""
    if cnp.PyArray_TYPE(t._data) != cnp.PyArray_TYPE(out) or not _same_shape(t._data, out):
        return (_shp(t._data), _dtype_of(t._data))
    return None


cdef inline bint _same_shape(cnp.ndarray a, cnp.ndarray b):
    cdef int nd = cnp.PyArray_NDIM(a), i
    if nd != cnp.PyArray_NDIM(b):
        return False
    cdef cnp.npy_intp *da = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp *db = cnp.PyArray_DIMS(b)
    for i in range(nd):
        if da[i] != db[i]:
            return False
    return True
