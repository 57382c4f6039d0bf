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

from autograd_core._core.dtype cimport dtype_of
from autograd_core._core.tensor cimport (
    grad_enabled, set_grad_enabled, MSG_BACKWARD_TWICE, Node, SavedTensor, Tensor, make, make_view, record_outputs, recording,
    save, save_output, shape_of, zeros, CM_IN_CUSTOM_FUNCTION, CM_MULTI_OUTPUT_NODE, move_retained_grad, region_of,
    requires_grad_of,
    write_region,
)

import builtins

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

    def __cinit__(self):
        self._materialize = True

    cdef int num_outputs(self) noexcept:
        return len(self._out_meta) if self._out_meta is not None else 1

    @property
    def needs_input_grad(self):
        return self._needs_input_grad

    def save_for_backward(self, *tensors):
        """Keep tensors (or None) for backward; checked against in-place changes."""
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{tensors.index(t)} is of type {type(t).__name__}")
        self._to_save = tensors

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
        if self.released:
            raise RuntimeError(MSG_BACKWARD_TWICE)
        if self._saved is None:
            return self._to_save if self._to_save is not None else ()
        return tuple([None if s is None else (<SavedTensor>s).unpack(self) for s in self._saved])

    @property
    def saved_variables(self):
        return self.saved_tensors

    cdef void release_saved(self) noexcept:
        if self._saved is not None or self._to_save is not None:
            self._saved = None
            self._to_save = None
            self.released = True

    cdef tuple apply(self, tuple grads):
        cdef Py_ssize_t i
        if self._materialize and self._out_meta is not None:
            grads = tuple(
                zeros(self._out_meta[i][0], self._out_meta[i][1])
                if g is None and self._out_meta[i] is not None else g
                for i, g in enumerate(grads))
        backward = self._fn_cls.backward
        result = backward(self, *grads)
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


cdef void _rebase_dirty_view(Tensor t, Node ctx, int output_nr) except *:
    """A view the Function modified in place (mark_dirty): its base's history becomes
    a CopySlices over the Function's output, and the view's own is rebuilt from the
    base when next read (Note [View + in-place])."""
    cdef Tensor values = make(t._data)
    values._grad_fn = ctx
    values._output_nr = output_nr
    values._requires_grad = True
    write_region(t, region_of(t), values, False)
    t._view_version = -1


def function_apply(fn_cls, tuple args, dict kwargs):
    """Function.apply: run forward without recording, then attach the node."""
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
        if getattr(fn_cls, "_new_style", False):
            outputs = fn_cls.forward(*args, **kwargs)
            fn_cls.setup_context(ctx, args, outputs)
        else:
            outputs = fn_cls.forward(ctx, *args, **kwargs)
    finally:
        set_grad_enabled(prev)

    single = not isinstance(outputs, tuple)
    outs = (outputs,) if single else outputs
    dirty_ids = set(id(t) for t in ctx._dirty) if ctx._dirty else set()
    for o in outs:
        # a view the Function made: not to be written in place, which would bypass
        # the Function's backward (Note [View + in-place])
        if isinstance(o, Tensor) and (<Tensor>o)._base is not None and id(o) not in dirty_ids:
            (<Tensor>o)._creation_meta = CM_IN_CUSTOM_FUNCTION
    if not record:
        return outputs

    cdef Tensor t
    cdef list new_outs = []
    cdef list meta = []
    input_ids = set(id(a) for a in tensor_inputs)
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            new_outs.append(o)
            meta.append(None)
            continue
        t = o
        if id(t) in dirty_ids:
            if t._grad_fn is None and t._requires_grad:
                raise RuntimeError("a leaf Variable that requires grad has been used in an "
                                   "in-place operation.")
        elif id(t) in input_ids:
            t = make_view(t, t._data)  # an input returned as is: a new alias carries the node
        new_outs.append(t)
        meta.append((shape_of(t._data), dtype_of(t._data)))
    ctx._out_meta = tuple(meta)
    record_outputs(ctx, (), tuple(tensor_inputs))
    ctx.input_meta = tuple((shape_of((<Tensor>a)._data), dtype_of((<Tensor>a)._data)) for a in tensor_inputs)
    nondiff = ctx._non_differentiable or set()
    cdef int n_diff = 0
    for i, o in enumerate(new_outs):
        if not isinstance(o, Tensor):
            continue
        t = o
        if id(outs[i]) in nondiff or not dtype_of(t._data).is_floating_point:
            t._requires_grad = False
            if id(outs[i]) in dirty_ids:
                t._grad_fn = None
            continue
        old = t._grad_fn
        t._grad_fn = ctx
        t._output_nr = i
        t._requires_grad = True
        if t._base is None:
            move_retained_grad(t, old)
        elif id(outs[i]) in dirty_ids:
            _rebase_dirty_view(t, ctx, i)
        else:  # (an input returned as is too)
            t._creation_meta = CM_IN_CUSTOM_FUNCTION
            t._view_version = t._vc.version
        n_diff += 1
    if n_diff > 1:  # views among several differentiable outputs: as split's (PyTorch's rule)
        for o in new_outs:
            if isinstance(o, Tensor) and (<Tensor>o)._base is not None:
                (<Tensor>o)._creation_meta = CM_MULTI_OUTPUT_NODE
    # Resolve saved tensors: outputs are kept without their Tensor (no cycle).
    if ctx._to_save is not None:
        saved = []
        for s in ctx._to_save:
            if s is None:
                saved.append(None)
                continue
            k = -1
            for i, o in enumerate(outs):
                if o is s:
                    k = i
                    break
            if k >= 0:
                saved.append(save_output(<Tensor>new_outs[k], k))
            else:
                saved.append(save(<Tensor>s))
        ctx._saved = saved
        ctx._to_save = None
    return new_outs[0] if single else tuple(new_outs)
