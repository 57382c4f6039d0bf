"""Custom autograd Functions: the node type behind ``autograd.Function.apply``.

As in PyTorch, the node *is* the ctx: forward(ctx, ...) stores on it, backward(ctx,
...) reads from it. Each Function subclass gets a Python subclass of FunctionNode
named "<Function>Backward" (the name users see in grad_fn).

>>> import autograd_core as torch
>>> class Double(torch.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         return x * 2
...     @staticmethod
...     def backward(ctx, g):
...         return g * 2
>>> Double.apply(torch.tensor([1.], requires_grad=True)).grad_fn.name()
'DoubleBackward'
"""
cimport numpy as cnp

from autograd_core._core.dtype cimport dtype_of, is_grad_array
cimport cython

from autograd_core._core.tensor cimport (
    grad_enabled, set_grad_enabled, MSG_BACKWARD_TWICE, Node, SavedTensor, Tensor, bump_version,
    check_inplace, raw_saved,
    gc_track, make, make_view, move_retained_grad, record_outputs, recording,
    requires_grad_of, run_when_ready, save, save_output, set_input_meta, shape_of,
    version_counter, keep_counter,
    rebase_history_through, unpack_saved, zeros, is_released, set_released,
    CM_IN_CUSTOM_FUNCTION, CM_MULTI_OUTPUT_NODE,
    fw_active, fw_grad_of, set_fw_grad, FwSuspend, fw_grad_size_error,
)

import builtins
import warnings

cnp.import_array()


cdef class FunctionNode(Node):
    """ctx of a custom Function, and the grad_fn of its outputs."""
    cdef object _fn_cls               # the Function subclass
    cdef tuple _needs_input_grad      # per forward argument
    cdef list _saved                  # per saved item: a SavedTensor, or None
    cdef tuple _to_save               # tensors given to save_for_backward, until resolved
    cdef set _non_differentiable      # ids of outputs marked non-differentiable
    cdef tuple _dirty                 # tensors marked dirty (modified in place)
    cdef bint _materialize            # None output grads become zeros (default True)
    cdef tuple _out_meta              # per output: (shape, dtype) or None
    cdef tuple _arg_is_tensor         # per forward argument: whether it was a Tensor
    cdef bint _cleared                # saved tensors given away (clear_saved_tensors_on_access)
    cdef tuple _saved_fw              # save_for_forward's tensors, until forward AD is done:
                                      # saved_tensors in jvp (as PyTorch's saved_for_forward)

    def __cinit__(self):
        self._materialize = True

    cdef int num_outputs(self) noexcept:
        return len(self._out_meta) if self._out_meta is not None else 1

    @property
    def needs_input_grad(self):
        return self._needs_input_grad

    def save_for_backward(self, *tensors):
        """Keep tensors (or None) for backward; checked against in-place changes."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{i} is of type {type(t).__name__}")
        self._to_save = tensors

    def save_for_forward(self, *tensors):
        """Keep tensors (or None) for jvp, where ctx.saved_tensors returns them."""
        if not all([t is None or isinstance(t, Tensor) for t in tensors]):
            raise AssertionError("save_for_forward expects all arguments to be tensors; you "
                                 "should save non-tensors as attributes on ctx.")
        self._saved_fw = tensors

    def mark_non_differentiable(self, *tensors):
        if self._non_differentiable is None:
            self._non_differentiable = set()
        for t in tensors:
            self._non_differentiable.add(id(t))

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def set_materialize_grads(self, value):
        self._materialize = bool(value)

    @property
    def saved_tensors(self):
        if is_released(self):
            raise RuntimeError(MSG_BACKWARD_TWICE)
        if self._cleared:
            raise RuntimeError(
                "saved_tensors can only be accessed once when clear_saved_tensors_on_access="
                "True is set on the autograd.Function. Either access saved_tensors only once, "
                "or set clear_saved_tensors_on_access=False.")
        if self._saved_fw is not None:
            return self._saved_fw
        if self._saved is None:
            return self._to_save if self._to_save is not None else ()
        out = tuple([None if s is None else unpack_saved(<SavedTensor>s, self, True)
                     for s in self._saved])
        if getattr(self._fn_cls, "clear_saved_tensors_on_access", False):
            self._saved = None
            self._cleared = True
        return out

    @property
    def _raw_saved_tensors(self):
        if is_released(self):
            raise RuntimeError(MSG_BACKWARD_TWICE)
        return tuple([raw_saved(self, s) for s in self._saved]) if self._saved is not None else ()

    @property
    def saved_variables(self):
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'",
                      DeprecationWarning, stacklevel=2)
        return self.saved_tensors

    cdef void release_saved(self) noexcept:
        if self._saved is not None or self._to_save is not None:
            self._saved = None
            self._to_save = None
            set_released(self)

    cdef tuple apply(self, tuple grads):
        cdef Py_ssize_t i
        if self._materialize and self._out_meta is not None:
            grads = tuple(
                zeros(self._out_meta[i][0], self._out_meta[i][1])
                if g is None and self._out_meta[i] is not None else g
                for i, g in enumerate(grads))
        result = self._fn_cls._backward_fn()(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n_args = len(self._arg_is_tensor)
        if len(result) != n_args:
            if len(result) > n_args and builtins.all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(
                    f"function {type(self).__name__} returned an incorrect number of gradients "
                    f"(expected {n_args}, got {len(result)})")
        out = []
        for i in range(n_args):
            g = result[i]
            if not self._arg_is_tensor[i]:
                if g is not None:
                    raise RuntimeError(
                        f"function {type(self).__name__} returned a gradient different than None "
                        f"at position {i + 1}, but the corresponding forward input was not a Variable")
                continue
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            out.append(g)
        return tuple(out)


cdef str MSG_DIRTY_NOT_INPUT = (
    "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have "
    "been mutated should be passed to ctx.mark_dirty().")
cdef str MSG_DIRTY_NOT_RETURNED = (
    "Some elements marked as dirty during the forward method were not returned as output. "
    "The inputs that are modified inplace must all be outputs of the Function.")
cdef str MSG_DIRTY_VIEW_MULTI = (
    "If your Function modifies inplace an input that is a view of another Tensor, your "
    "Function cannot return more than one Tensor. This is not supported by the current "
    "autograd engine. You should either make sure the input is not a view (using .clone() "
    "for example) or make your Function only return one Tensor (potentially splitting it "
    "into two Functions: one doing the inplace that returns a single Tensor and a second one "
    "that does the other operations). You can ask on the forum "
    "https://discuss.pytorch.org/ if you need help to do this change.")


cdef Tensor _alias(Tensor t):
    """PyTorch's view_as_self: an input returned as is becomes a new view of it."""
    return make_view(t, t._data)


cdef Tensor _detached(Tensor t):
    cdef Tensor d = make(t._data)
    d._vc = version_counter(t)
    return d


cdef inline void _set_output_history(Tensor t, Node ctx, int i) except *:
    """t becomes output i of the Function's node ctx (a retain_grad() on a non-view moves
    with it, as an in-place op's does)."""
    cdef Node old = t._grad_fn
    keep_counter(t)  # Note [Counters made by the node]
    t._grad_fn = ctx
    t._output_nr = i
    t._requires_grad = True
    if t._base is None:
        move_retained_grad(t, old)


cdef int _check_dirty_view(Tensor t) except -1:
    """The rules of an in-place op on a view apply to one a Function modified
    (PyTorch's rebase_history): judged as the view forward was given, before its
    history is rebuilt from its base's."""
    cdef long prev = t._view_version
    t._view_version = t._vc.version
    try:
        check_inplace(t, ())
    finally:
        t._view_version = prev
    return 0


cdef int _rebase_dirty_view(Tensor t, Node ctx, tuple inputs) except -1:
    """A view the Function modified in place (mark_dirty): its base's history becomes
    a CopySlices wrapping the Function's node (rebase_history_through), and the view's
    own is rebuilt from the base when next read (Note [View + in-place])."""
    rebase_history_through(t, ctx, inputs)
    t._view_version = -1
    return 0


def function_apply(fn_cls, tuple args, dict kwargs):
    """Function.apply: run forward without recording, then wrap the outputs
    (PyTorch's _wrap_outputs: aliases for returned inputs, history, dirty inputs,
    non-differentiable outputs) and save what forward asked for."""
    node_cls = fn_cls._backward_cls
    cdef FunctionNode ctx = node_cls()
    ctx._fn_cls = fn_cls
    ctx._arg_is_tensor = tuple(isinstance(a, Tensor) for a in args)
    ctx._needs_input_grad = tuple(isinstance(a, Tensor) and requires_grad_of(<Tensor>a)
                                  for a in args)
    cdef list tensor_inputs = [a for a in args if isinstance(a, Tensor)]
    cdef bint record = recording() and builtins.any(ctx._needs_input_grad)

    cdef int prev = grad_enabled()
    set_grad_enabled(False)
    try:
        # forward AD is off in forward (the jvp gives the tangents: Note [Forward AD])
        with FwSuspend():
            if getattr(fn_cls, "_new_style", False):
                outputs = fn_cls.forward(*args, **kwargs)
                fn_cls.setup_context(ctx, args, outputs)
            else:
                outputs = fn_cls.forward(ctx, *args, **kwargs)
    finally:
        set_grad_enabled(prev)

    single = not isinstance(outputs, tuple)
    outs = (outputs,) if single else outputs

    # dirty tensors: their version moves on (PyTorch's _mark_dirty)
    dirty_ids = set()
    if ctx._dirty:
        for i, d in enumerate(ctx._dirty):
            if not isinstance(d, Tensor):
                raise TypeError(f"mark_dirty can only accept variables, but argument {i} "
                                f"is of type {type(d).__name__}")
            dirty_ids.add(id(d))
            if record and (<Tensor>d)._base is not None:
                _check_dirty_view(<Tensor>d)
            bump_version(<Tensor>d)  # not an op's write: see Note [In-place ops]
        ctx._dirty = None
    input_ids = set(id(a) for a in tensor_inputs)
    out_ids = set(id(o) for o in outs)
    for d in dirty_ids:
        if d not in out_ids:
            raise RuntimeError(MSG_DIRTY_NOT_RETURNED)
    for o in outs:
        # a view the Function made: not to be written in place, which would bypass
        # the Function's backward (Note [View + in-place])
        if isinstance(o, Tensor) and (<Tensor>o)._base is not None and id(o) not in dirty_ids:
            (<Tensor>o)._creation_meta = CM_IN_CUSTOM_FUNCTION
    nondiff = ctx._non_differentiable or set()
    n_tensor_outs = builtins.sum(1 for o in outs if isinstance(o, Tensor))

    cdef Tensor t
    cdef list new_outs = []
    cdef list meta = []
    cdef list dirty_views = []
    cdef bint is_input, is_dirty, differentiable
    cdef int n_diff = 0
    if record:
        record_outputs(ctx, (), tuple(tensor_inputs))
        gc_track(ctx)  # a ctx holds what the user stores on it: cycles are possible
        set_input_meta(ctx, tuple([(shape_of((<Tensor>a)._data), dtype_of((<Tensor>a)._data))
                                   for a in tensor_inputs]))
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            new_outs.append(o)
            meta.append(None)
            continue
        t = o
        is_input = id(t) in input_ids
        is_dirty = id(t) in dirty_ids
        differentiable = (record and id(t) not in nondiff
                          and is_grad_array(t._data))
        meta.append((shape_of(t._data), dtype_of(t._data)))
        if not differentiable:
            if not t._requires_grad:
                if is_input and not is_dirty:
                    t = _alias(t)
            elif is_input:
                t = _detached(t)   # not the input's requires_grad that changes
            elif t._base is None:
                keep_counter(t)  # Note [Counters made by the node]
                t._grad_fn = None  # detach_()
                t._output_nr = 0
                t._requires_grad = False
        elif is_dirty:
            if t._grad_fn is None and t._requires_grad:
                raise RuntimeError("a leaf Variable that requires grad has been used in an "
                                   "in-place operation.")
            if not is_input:
                if t._base is not None:
                    raise RuntimeError(MSG_DIRTY_NOT_INPUT)
                warnings.warn(MSG_DIRTY_NOT_INPUT, UserWarning, stacklevel=3)
            n_diff += 1
            # the input's old gradient and hooks belong to its old values: PyTorch drops
            # them (.grad None, tensor hooks cleared; retain_grad() stays, moving to the
            # new history)
            t._grad = None
            if t._x is not None:
                t._x.hooks = None
            if t._base is not None and requires_grad_of(t._base):
                # the write rebases the view's history: the rules of an in-place op on
                # a view apply (PyTorch's rebase_history -> handle_view_on_rebase)
                if n_tensor_outs != 1:
                    raise RuntimeError(MSG_DIRTY_VIEW_MULTI)
                dirty_views.append((i, t))
            else:
                _set_output_history(t, ctx, i)
        else:
            n_diff += 1
            if is_input:
                t = _alias(t)
            _set_output_history(t, ctx, i)
            if t._base is not None:  # a view the Function returned (an input returned
                t._creation_meta = CM_IN_CUSTOM_FUNCTION  # as is too)
                t._view_version = t._vc.version
        if record:
            gc_track(t)  # the ctx may refer to it (Note [Untracked by the cycle collector])
        new_outs.append(t)
    if record:
        ctx._out_meta = tuple(meta)
    for i, t in dirty_views:
        _rebase_dirty_view(t, ctx, tuple(tensor_inputs))
    if n_diff > 1:  # views among several differentiable outputs: as split's (PyTorch's rule)
        for o in new_outs:
            if isinstance(o, Tensor) and (<Tensor>o)._base is not None:
                (<Tensor>o)._creation_meta = CM_MULTI_OUTPUT_NODE

    # Resolve saved tensors: an output of this node (its grad_fn is ctx) is kept
    # without its Tensor (no cycle); anything else, a non-differentiable output too, as is.
    if ctx._to_save is not None:
        dirty_view_nr = {id(t): i for i, t in dirty_views}
        saved = []
        try:
            for s in ctx._to_save:
                if s is None:
                    saved.append(None)
                    continue
                t = s
                if record and t._grad_fn is ctx:
                    saved.append(save_output(t, t._output_nr))
                elif record and id(t) in dirty_view_nr:
                    # a view this node rebased: its history leads back here, so it is
                    # kept as an output (no Tensor, no cycle; PyTorch's is_inplace_on_view)
                    saved.append(save_output(t, dirty_view_nr[id(t)]))
                else:
                    saved.append(save(t))
        except BaseException:
            # a pack hook raised (checkpoint's early stop ends its recomputation here):
            # the outputs held in _to_save have this ctx as grad_fn, a cycle that would
            # keep them until the cycle collector runs (PyTorch frees them at once)
            ctx._to_save = None
            raise
        ctx._saved = saved
        ctx._to_save = None
    if fw_active():
        try:
            _forward_ad(ctx, fn_cls, args, outs, new_outs, nondiff, dirty_ids, input_ids)
        finally:
            ctx._saved_fw = None
    ctx._saved_fw = None
    return new_outs[0] if single else tuple(new_outs)


cdef int _forward_ad(FunctionNode ctx, fn_cls, tuple args, tuple outs, list new_outs,
                     set nondiff, set dirty_ids, set input_ids) except -1:
    """The outputs' tangents from the Function's jvp (PyTorch's
    _process_forward_mode_AD; Note [Forward AD] in _core/_fw.pxi): jvp gets one tangent
    per forward argument (None for non-tensors and tensors without one) and returns one
    per output."""
    cdef list tangents = [fw_grad_of(<Tensor>a) if isinstance(a, Tensor) else None
                          for a in args]
    if all([t is None for t in tangents]):
        return 0
    tangent_of = {id(a): t for a, t in zip(args, tangents) if t is not None}
    if ctx._materialize:
        # a tensor input without a tangent gets zeros (PyTorch's materialize_grads)
        tangents = [zeros(shape_of((<Tensor>a)._data), dtype_of((<Tensor>a)._data))
                    if t is None and isinstance(a, Tensor) else t
                    for a, t in zip(args, tangents)]
    # the version of each input's tangent: a dirty input's must move (written in place)
    versions = {id(a): version_counter(<Tensor>t).version
                for a, t in zip(args, tangents) if t is not None}
    with FwSuspend():
        grads = fn_cls.jvp(ctx, *tangents)
    if not isinstance(grads, tuple):
        grads = (grads,)
    if len(grads) != len(outs):
        raise RuntimeError(f"Function's jvp returned an invalid number of forward gradients "
                           f"(expected {len(outs)} but got {len(grads)})")
    cdef Tensor out, g
    for i in range(len(outs)):
        raw = outs[i]
        gi = grads[i]
        if not isinstance(raw, Tensor) or id(raw) in nondiff or not is_grad_array(
                (<Tensor>raw)._data):
            if gi is not None:
                raise RuntimeError(
                    f"Function's jvp returned a gradient at position {i}, but  the "
                    "corresponding forward output is not a differentiable Tensor.You should "
                    "return None at that position instead.")
            continue
        if gi is None:
            continue
        out = new_outs[i]
        g = gi
        if id(raw) in dirty_ids and id(raw) in tangent_of:
            if version_counter(g).version == versions[id(raw)]:
                raise RuntimeError(
                    "An inplace custom Function is not modifying the forward mode gradients "
                    "inplace. If the forward is modifying an input inplace, then the jvp "
                    "function must modify the corresponding gradient inplace.")
            if g is not tangent_of[id(raw)]:
                raise RuntimeError(
                    "An inplace custom Function is not returning the forward mode gradients "
                    "as-is. If the forward is modifying an input inplace, then the jvp "
                    "function must modify the gradient inplace and return it as-is.")
        if id(raw) in input_ids and id(raw) not in dirty_ids and id(raw) in tangent_of:
            # an input returned as is: a view of it, whose tangent must be a view of the
            # input's (PyTorch's view checks of custom Functions)
            ti = <Tensor>tangent_of[id(raw)]
            if g._base is None:
                raise RuntimeError("A custom Function's forward is returning a view (or an "
                                   "input as-is) but the jvp is not returning a view.")
            if ti._base is not None and g._base is not ti._base:
                raise RuntimeError("A custom Function is returning a view but the jvp is not "
                                   "returning a view of the same base as the given grad input.")
            if ti._base is None and g._base is not ti:
                raise RuntimeError("A custom Function is returning a view but the jvp is not "
                                   "returning a view of the given grad input.")
        if shape_of(g._data) != shape_of(out._data):
            raise fw_grad_size_error(shape_of(out._data), shape_of(g._data))
        set_fw_grad(out, g)
    return 0


@cython.final
cdef class Error(Node):
    """A node whose backward raises (PyTorch's Error, behind once_differentiable)."""
    cdef str msg
    cdef int n_out

    cdef int num_outputs(self) noexcept:
        return self.n_out

    def name(self):
        return "torch::autograd::Error"  # PyTorch's C++ node name

    cdef tuple apply(self, tuple grads):
        raise RuntimeError(self.msg)


def delayed_error(str msg, tuple tensors):
    """Aliases of tensors whose grad_fn is an Error node raising msg (PyTorch's
    DelayedError): a once_differentiable backward's outputs under create_graph."""
    cdef Error node = Error.__new__(Error)
    node.msg = msg
    node.n_out = len(tensors)
    record_outputs(node, (), tensors)
    run_when_ready(node)
    cdef list outs = []
    cdef Tensor t, a
    for i, x in enumerate(tensors):
        if x is None:
            outs.append(None)
            continue
        t = x
        a = make(t._data)
        a._vc = version_counter(t)
        a._grad_fn = node
        a._output_nr = i
        a._requires_grad = True
        outs.append(a)
    return tuple(outs)
