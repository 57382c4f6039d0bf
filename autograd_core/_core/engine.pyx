"""The backward engine: PyTorch's algorithm (torch/csrc/autograd/engine.cpp), iterative.

1. Discover the graph from the roots with an explicit stack, giving every node a
   dense index (a C pointer map) and counting, per node, the edges that reach it
   from nodes that will run.
2. Put the root gradients into their nodes' input buffers (PyTorch's GraphRoot).
3. Pop the ready node with the highest sequence number (a C heap), run hooks and its
   derivative, reduce each gradient to its input's metadata once (sum_to, cast), add
   it into the next node's buffer, and push that node when its count reaches zero.

>>> import autograd_core as torch
>>> x = torch.tensor(3., requires_grad=True)
>>> torch.autograd.grad(x * x, x)
(tensor(6.),)
"""
cimport cython
cimport numpy as cnp
from cpython.list cimport PyList_GET_ITEM
from cpython.ref cimport Py_REFCNT
from libc.stdint cimport int32_t

from autograd_core._core.csrc cimport *
from autograd_core._core.dtype cimport dtype, dtype_of, dtype_from_numpy, CAT_COMPLEX
from autograd_core._core.tensor cimport (
    grad_enabled, set_grad_enabled, MSG_BACKWARD_TWICE, OPS, AccumulateGrad, Node, NodeExtra,
    Tensor, TensorHook, input_meta_of, next_edge, next_nrs_of,
    anomaly_check_nan, anomaly_enabled, check_hook_result, edge_node, grad_accumulator,
    gc_untrack, grad_fn_of, install_methods, is_number, make, requires_grad_of, restore_saved_hooks,
    same_shape, saved_hooks_state, shape_numel, shape_of, shape_str, is_released, n_edges,
    node_seq, runs_when_ready, profiler_enabled, profiler_enter, profiler_enter_node, profiler_exit,
    grad_dtype_field, post_acc_hooks_of, tensor_hooks,
)
from autograd_core._core.tensor import Size, _set_anomaly_current, _set_r_to_c_nodes
from autograd_core._core.function import FunctionNode

import sys
import operator
import threading
import warnings
import weakref

import numpy as np

cnp.import_array()

cdef str MSG_IMPLICIT_GRAD = "grad can be implicitly created only for scalar outputs"

cdef str MSG_CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this "
    "function, make sure to reset the .grad fields of your parameters to None after use "
    "to break the cycle and avoid the leak.")


cdef object _no_grad_fn_error(int i):
    return RuntimeError(
        f"element {i} of tensors does not require grad and does not have a grad_fn")


# Note [Input buffers]
# The first gradient to reach a buffer slot is stored by reference; a second one
# is added out of place. No gradient a node, hook or user holds is ever modified.
#
# Note [Needed nodes]
# With `inputs` (Tensor.backward(inputs=...), autograd.grad) only nodes with a path
# to an input's edge run (PyTorch's exec_info). autograd.grad captures the gradient
# flowing into each input's edge: a captured node with no path to another input does
# not run (its tensor pre-hooks do, before the capture); one that leads on to another
# input runs too, and its gradient is captured before its hooks. backward(inputs=)
# runs the input edges' nodes themselves: a leaf's AccumulateGrad, or a non-leaf's
# grad_fn whose retain_grad (set on every input, as PyTorch) fills its .grad. Every
# edge goes from a newer node to an older one, so visiting nodes in increasing
# sequence number (AccumulateGrad counted as oldest) sees children before parents:
# one pass marks them. A node's gradient for an edge to a node that does not run is
# dropped; its post hooks see None there, as PyTorch's generated nodes compute none
# (a custom Function's hooks see what its backward returned).

# Note [GradientEdge roots]
# autograd.grad and backward take a GradientEdge (node, output_nr) in place of an output
# tensor: the pass starts at that node's output. Its shape and dtype (for the implicit
# gradient and the shape check; PyTorch reads them from the node's input metadata) are
# those of the tensor get_gradient_edge made the edge from, noted here per node; a
# leaf's AccumulateGrad knows its variable.
_edge_meta = weakref.WeakKeyDictionary()     # Node -> {output_nr: (shape, numpy dtype)}


def _note_edge_meta(Node node, int output_nr, Tensor t):
    """get_gradient_edge(t) made the edge (node, output_nr)."""
    if not isinstance(node, AccumulateGrad):
        _edge_meta.setdefault(node, {})[output_nr] = (shape_of(t._data), t._data.dtype)


cdef tuple _root_meta(object root):
    """(shape, numpy dtype) of a root, or None for an edge whose output is unknown."""
    cdef Tensor t
    if isinstance(root, Tensor):
        t = root
        return shape_of(t._data), t._data.dtype
    node = root.node
    if isinstance(node, AccumulateGrad):
        t = (<AccumulateGrad>node).var
        return shape_of(t._data), t._data.dtype
    return _edge_meta.get(node, {}).get(root.output_nr)


# Note [Batched backward] (autograd/_batched_backward.py): autograd.grad with
# is_grads_batched runs one pass whose gradients carry a physical leading batch dim,
# while an op hook rewrites each op call on them by a batching rule. The engine knows
# only three things about it, behind one C flag checked where a gradient's shape does
# not match its input's (never on the path of an ordinary pass): a batched gradient is
# checked and reduced against (batch,) + the input's shape, the root gradients carry
# the batch (checked by the caller), and user hooks see the per-sample (logical)
# gradient, as PyTorch's see a BatchedTensor. _batched_impl answers for the pass, and
# runs each node (once over the batch, or once per entry when a formula cannot run
# batched).
cdef bint _batched = False
cdef object _batched_impl = None


def _set_batched_pass(impl):
    """Start (impl) or end (None) a batched backward pass (Note [Batched backward])."""
    global _batched, _batched_impl
    _batched_impl = impl
    _batched = impl is not None


cdef tuple _make_root_grads(tuple tensors, tuple grads):
    cdef list out = []
    cdef Py_ssize_t i
    cdef tuple meta
    for i in range(len(tensors)):
        meta = _root_meta(tensors[i])
        g = grads[i] if i < len(grads) else None
        if g is None:
            if meta is None:
                raise RuntimeError(
                    "autograd_core: the shape of a GradientEdge's output is known only for "
                    "edges made by autograd.graph.get_gradient_edge; pass its gradient")
            if shape_numel(meta[0]) != 1:
                raise RuntimeError(MSG_IMPLICIT_GRAD)
            if meta[1].kind == "c":
                raise RuntimeError(
                    "grad can be implicitly created only for real scalar outputs but got "
                    f"{dtype_from_numpy(meta[1])}")
            # the seed gradient, an ATen op of PyTorch's backward() (Note [Op hook])
            seed = None
            if profiler_enabled:  # (no node follows it: no sequence number)
                prev_mode = grad_enabled()
                set_grad_enabled(False)
                seed = profiler_enter("aten::ones_like", (tensors[i],))
                set_grad_enabled(prev_mode)
            out.append(make(np.ones(meta[0], dtype=meta[1])))
            if seed is not None:
                profiler_exit(seed, out[-1])
            continue
        if not isinstance(g, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got "
                            + type(g).__name__)
        if meta is None:
            out.append(g)
            continue
        if shape_of((<Tensor>g)._data) != meta[0] and not _batched:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of "
                f"{Size(shape_of((<Tensor>g)._data))!r} and output[{i}] has a shape of "
                f"{Size(meta[0])!r}.")
        if (<Tensor>g)._data.dtype != meta[1]:
            if cnp.PyArray_ISCOMPLEX((<Tensor>g)._data) != (meta[1].kind == "c"):
                raise RuntimeError(
                    "For complex Tensors, both grad_output and output are required to have "
                    f"the same dtype. Mismatch in dtype: grad_output[{i}] has a dtype of "
                    f"{dtype_of((<Tensor>g)._data)} and output[{i}] has a dtype of "
                    f"{dtype_from_numpy(meta[1])}.")
            g = make((<Tensor>g)._data.astype(meta[1]))  # PyTorch casts the seed
        out.append(g)
    return tuple(out)


cdef bint _create_graph_warned = False


cdef bint _warn_always():
    # imported here: autograd_core._settings imports the core modules
    from autograd_core._settings import is_warn_always_enabled
    return is_warn_always_enabled()


# The nodes whose PyTorch formulas take the real part of a complex gradient for a real
# input (handle_r_to_c, mul_tensor_backward, div_tensor_self_backward, _to_copy_backward,
# cat/stack/block_diag's backwards by their inputs' scalar types, CopyBackwards in its
# derivatives.yaml and FunctionsManual) or return a real gradient by construction
# (complex, polar, view_as_complex). Read only when a complex gradient meets a real input.
cdef frozenset _R_TO_C_NODES = frozenset((
    "AddBackward0", "AddBackward1", "SubBackward0", "SubBackward1", "RsubBackward0",
    "RsubBackward1", "MulBackward0", "MulBackward1", "DivBackward0", "DivBackward1",
    "DivBackward2", "DivBackward3", "AddcmulBackward0", "AddcdivBackward0",
    "ToCopyBackward0", "LinalgEigBackward0", "ComplexBackward0", "PolarBackward0",
    "ViewAsComplexBackward0", "CatBackward0", "StackBackward0", "BlockDiagBackward0",
    "CopyBackwards"))
_set_r_to_c_nodes(_R_TO_C_NODES)  # (for the node a CopySlices wraps)
cdef str _MSG_R_TO_C = (
    "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) "
    "to be true, but got false.  (Could this error message be improved?  If so, please "
    "report an enhancement request to PyTorch.)")


cdef Tensor _validate_grad(Node node, Py_ssize_t i, Tensor g):
    """Reduce/cast a gradient to the metadata of forward input i (once, here)."""
    meta = node.extra.input_meta[i]
    if meta is None:
        return g
    shape, dt = meta
    if shape_of(g._data) != shape:
        if _batched:
            return _batched_impl.validate_grad(node, i, g, shape, dt)
        if not _expandable_to(shape, shape_of(g._data)):
            raise RuntimeError(
                f"Function {type(node).__name__} returned an invalid gradient at index {i} - "
                f"got {shape_str(shape_of(g._data))} but expected shape compatible with "
                f"{shape_str(shape)}")
        g = OPS.sum_to(g, shape)
    if dtype_of(g._data) is not dt:
        if cnp.PyArray_ISCOMPLEX(g._data) and (<dtype>dt).category != CAT_COMPLEX:
            # a real input gets the real part of a complex gradient only from the ops
            # whose PyTorch formulas apply handle_r_to_c; anywhere else PyTorch's
            # engine refuses (Note [Complex autograd])
            if type(node).__name__ not in _R_TO_C_NODES:
                raise RuntimeError(_MSG_R_TO_C)
            g = OPS.real(g)
            if dtype_of(g._data) is dt:
                return g
        nxt = next_edge(node, i)
        if isinstance(nxt, AccumulateGrad) and grad_dtype_field((<AccumulateGrad>nxt).var) is not None:
            # the leaf's grad_dtype stands for its dtype (accumulate_into casts to it)
            return g
        g = OPS._to_copy(g, dt)
    return g


cdef bint _expandable_to(tuple shape, tuple target):
    cdef Py_ssize_t n = len(shape), m = len(target), k
    if n > m:
        return False
    for k in range(1, n + 1):
        if shape[n - k] != target[m - k] and shape[n - k] != 1:
            return False
    return True


def expandable_to(shape, target):
    """Whether a tensor of shape expands (broadcasts) to target: the engine's check of a
    gradient against its input's shape, for the batched pass's per-sample shapes."""
    return _expandable_to(tuple(shape), tuple(target))


cdef object _run_tensor_hook(object fn, object g):
    """One tensor hook on one gradient (None too, as PyTorch calls Python hooks)."""
    if _batched and g is not None and _batched_impl.is_batched(g):
        return _batched_impl.run_tensor_hook(fn, g)
    r = fn(g)
    if r is None:
        return g
    if g is None:
        raise RuntimeError("can't replace a empty gradient with a non-empty value")
    return check_hook_result(r, <Tensor>g, fn)


cdef void _call_tensor_pre_hooks(Node node, list buf) except *:
    """Tensor hooks, then retain_grad (PyTorch's call_tensor_pre_hooks). A leaf's hooks
    live on the leaf and are its AccumulateGrad node's tensor pre-hooks."""
    cdef TensorHook th
    cdef Tensor var
    cdef NodeExtra x = node.extra
    if isinstance(node, AccumulateGrad):
        var = (<AccumulateGrad>node).var
        if var is not None and tensor_hooks(var) is not None:
            for h in list(tensor_hooks(var)):
                buf[0] = _run_tensor_hook(h, buf[0])
    elif x is not None and x.pre_hooks is not None:
        for h in list(x.pre_hooks):
            if isinstance(h, TensorHook):
                th = <TensorHook>h
                buf[th.output_nr] = _run_tensor_hook(th.fn, buf[th.output_nr])
    if x is not None and x.retained is not None:
        for nr, ref in list(x.retained.items()):
            t = ref()
            g = buf[nr]
            if t is None or g is None:
                continue
            if (<Tensor>t)._grad is None:
                (<Tensor>t)._grad = OPS.clone(g, None)
            else:
                (<Tensor>t)._grad = OPS.add((<Tensor>t)._grad, g, 1)


cdef void _call_node_pre_hooks(Node node, list buf) except *:
    for h in list(node.extra.pre_hooks):
        if isinstance(h, TensorHook):
            continue
        prev = tuple(buf)
        r = _batched_impl.run_node_hook(h, (prev,)) if _batched else h(prev)
        if r is not None:
            buf[:] = list(_checked_hook_result(prev, r, h))


cdef inline bint _has_tensor_pre_hooks(Node node):
    if node.extra is not None and node.extra.retained is not None:
        return True
    if isinstance(node, AccumulateGrad):
        var = (<AccumulateGrad>node).var
        return var is not None and tensor_hooks(<Tensor>var) is not None
    return _has_pre_hooks(node)


cdef inline bint _has_pre_hooks(Node node):
    return node.extra is not None and node.extra.pre_hooks is not None


cdef inline bint _no_node_hooks(Node node):
    """Neither node hooks nor tensor hooks nor retain_grad on node (a leaf's tensor
    hooks are on its AccumulateGrad, which takes the general path anyway: Note
    [Single-gradient entry])."""
    cdef NodeExtra x = node.extra
    return x is None or (x.pre_hooks is None and x.post_hooks is None
                         and x.retained is None)


cdef inline bint _has_post_hooks(Node node):
    return node.extra is not None and node.extra.post_hooks is not None


cdef tuple _call_post_hooks(Node node, tuple grads_in, tuple grads_out):
    for h in list(node.extra.post_hooks):
        r = (_batched_impl.run_node_hook(h, (grads_in, grads_out)) if _batched
             else h(grads_in, grads_out))
        if r is not None:
            grads_in = _checked_hook_result(grads_in, r, h)
    return grads_in


cdef tuple _checked_hook_result(tuple prev, object r, object hook):
    """What a node hook returned in place of prev, checked as PyTorch checks it: a
    tuple of as many values, each None or a Tensor of the replaced value's dtype and
    size (and none where the gradient was None)."""
    name = getattr(hook, "__name__", None)
    name = name if isinstance(name, str) else "<unknown>"
    if not isinstance(r, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(r).__name__}'")
    if len(r) != len(prev):
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values "
                           f"(got {len(r)}, but expected {len(prev)})")
    for old, new in zip(prev, r):
        if new is None:
            continue
        if old is None:
            raise RuntimeError("can't replace a None gradient with a non-None value")
        if not isinstance(new, Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
        if cnp.PyArray_TYPE((<Tensor>new)._data) != cnp.PyArray_TYPE((<Tensor>old)._data):
            raise RuntimeError(
                f"hook '{name}' has changed the type of value (was "
                f"CPU{dtype_of((<Tensor>old)._data).scalar_name}Type got "
                f"CPU{dtype_of((<Tensor>new)._data).scalar_name}Type)")
        if not same_shape((<Tensor>new)._data, (<Tensor>old)._data):
            raise RuntimeError(f"hook '{name}' has changed the size of value")
    return r


cdef inline int _push(agc_intvec *v, int32_t x) noexcept nogil:
    """agc_intvec_push, its common case (room left) inline: discovery pushes a few
    entries per node."""
    if v.len < v.cap:
        v.data[v.len] = x
        v.len += 1
        return 0
    return agc_intvec_push(v, x)


# Note [Child indices]
# Discovery looks every edge's node up in the pointer map (to give it an index); the
# pass then needs the same index again for every edge it follows. A pointer-map
# lookup in a large graph is a cache miss (the hash scatters the nodes over the map:
# the engine's largest cost per node on a long chain), so discovery keeps what it found
# per node, in edge order: child_idx[edge_start[idx] + i] is the index of edge i of
# the node at idx (-1 for no edge). The pass reads it there, and checks that the node
# at that index is still the edge's node -- falling back to the map otherwise -- so a
# stale entry can cost a lookup but never misroute a gradient.
#
# Note [Nodes reached once]
# Most nodes of a graph are reached by exactly one edge (a chain: every node; a sum of
# products: all but the leaves' AccumulateGrads), and such a node needs no entry in the
# pointer map -- discovery can never meet it again, and the pass finds it through
# child_idx. A node's reference count says so: every edge holds a counted reference to
# its node (one owner, _set_edges in _node.pxi; an edge tuple is made per node and never
# shared), so a node whose only reference is the edge discovery is following (and its
# own local) has no other edge to it, and is not yet among the pass's nodes (that list
# holds one too). Discovery gives it the next index without touching the map: on a long
# chain the map stays at the roots' size instead of one scattered slot (a cache miss,
# and the rehashes as it doubles) per node. Any other reference (a second edge, a tensor
# whose grad_fn it is, a user's handle) only sends the node through the map as before.
# The map then lacks those nodes: index_of, the one lookup by pointer after discovery,
# completes it from the node list the first time a node is not found (a lookup that
# child_idx cannot answer, _will_engine_execute_node, `inputs`), so every answer is as
# the full map's. Discovery calls no Python code (a thread switch or a finalizer in it
# could change a count between the check and the append).
@cython.final  # (its methods are called directly, not through a vtable)
cdef class _GraphTask:
    """The state of one backward pass (C structures freed with it)."""
    cdef agc_ptrmap index       # node pointer -> dense index
    cdef agc_intvec deps        # per index: edges still to arrive
    cdef agc_heap ready
    cdef agc_intvec edge_start  # per index: where its edges' indices start in child_idx
    cdef agc_intvec child_idx   # per edge of each discovered node: the edge's index, or -1
                                # (Note [Child indices])
    cdef list nodes             # per index: the Node (keeps the pointers valid)
    cdef list buffers           # per index: None, the gradient itself (a node with one
                                # output), or a list of gradients per output slot
    cdef bint ok
    cdef bint unmapped          # some nodes have no map entry (Note [Nodes reached once])
    cdef list callbacks         # queue_callback's, run in order once the pass is done
    cdef Node sole_root         # the root's node when the pass has one root, else None
                                # (what _will_engine_execute_node answers False for)

    def __cinit__(self):
        self.ok = (agc_ptrmap_init(&self.index, 64) == 0
                   and agc_intvec_init(&self.deps, 64) == 0
                   and agc_intvec_init(&self.edge_start, 64) == 0
                   and agc_intvec_init(&self.child_idx, 64) == 0
                   and agc_heap_init(&self.ready, 64) == 0)
        # (untracked by the cycle collector, as the nodes and tensors they hold: a pass
        # that allocates triggers young collections, which would walk both lists -- one
        # entry per node of the graph -- each time; Note [Untracked by the cycle
        # collector] in _node.pxi)
        self.nodes = []
        self.buffers = []
        gc_untrack(self.nodes)
        gc_untrack(self.buffers)

    def __dealloc__(self):
        agc_ptrmap_free(&self.index)
        agc_intvec_free(&self.deps)
        agc_intvec_free(&self.edge_start)
        agc_intvec_free(&self.child_idx)
        agc_heap_free(&self.ready)

    cdef int32_t add(self, Node node) except -2:
        """The node's index, adding it if new (a new node's index is the number of
        nodes before it)."""
        cdef int32_t new = <int32_t>len(self.nodes)
        cdef int32_t idx = agc_ptrmap_get_or_put(&self.index, <void *>node, new)
        if idx != new:
            if idx < 0:
                raise MemoryError()
            return idx
        if (_push(&self.deps, 0) != 0
                or _push(&self.edge_start, -1) != 0):
            raise MemoryError()
        self.nodes.append(node)
        self.buffers.append(None)
        return idx

    cdef int32_t add_unmapped(self, Node node) except -2:
        """A node no other edge reaches: the next index, no map entry (Note [Nodes
        reached once])."""
        cdef int32_t idx = <int32_t>len(self.nodes)
        if (_push(&self.deps, 0) != 0
                or _push(&self.edge_start, -1) != 0):
            raise MemoryError()
        self.nodes.append(node)
        self.buffers.append(None)
        self.unmapped = True
        return idx

    cdef int32_t index_of(self, object node) except -2:
        """The index of node (a Node), or -1 when the pass does not reach it."""
        cdef int32_t idx = agc_ptrmap_get(&self.index, <void *>node)
        cdef Py_ssize_t i
        if idx >= 0 or not self.unmapped:
            return idx
        # Note [Nodes reached once]: enter the nodes discovery left out, once
        for i in range(len(self.nodes)):
            if agc_ptrmap_get_or_put(&self.index, <void *>PyList_GET_ITEM(self.nodes, i),
                                     <int32_t>i) < 0:
                raise MemoryError()
        self.unmapped = False
        return agc_ptrmap_get(&self.index, <void *>node)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef int add_grad(self, int32_t idx, int nr, Tensor g) except -1:
        """Note [Input buffers]."""
        if g is None:
            return 0
        cur = self.buffers[idx]
        # (every entry is a Node: no type test)
        cdef Node node = <Node>PyList_GET_ITEM(self.nodes, idx)
        cdef list buf
        if node.num_outputs() == 1:  # most nodes: the slot is the list entry itself
            self.buffers[idx] = g if cur is None else _buffer_sum(<Tensor>cur, g)
            return 0
        if cur is None:
            buf = [None] * node.num_outputs()
            self.buffers[idx] = buf
        else:
            buf = <list>cur
        old = buf[nr]
        buf[nr] = g if old is None else _buffer_sum(<Tensor>old, g)

    cdef inline int32_t child(self, int32_t idx, Py_ssize_t i, object c) except -2:
        """The index of edge i (the node c, not None) of the node at idx (Note [Child
        indices])."""
        cdef int32_t start = self.edge_start.data[idx]
        cdef int32_t cidx
        if start >= 0:
            cidx = self.child_idx.data[start + i]
            if cidx >= 0 and <void *>PyList_GET_ITEM(self.nodes, cidx) == <void *>c:
                return cidx
        return self.index_of(c)

    cdef int arrive(self, int32_t idx) except -1:
        self.deps.data[idx] -= 1
        if self.deps.data[idx] == 0:
            if agc_heap_push(&self.ready, node_seq(<Node>PyList_GET_ITEM(self.nodes, idx)),
                             idx) != 0:
                raise MemoryError()


cdef Tensor _buffer_sum(Tensor a, Tensor b):
    """Two gradients for one slot: their sum; two ZeroTensors sum to one (PyTorch's
    add of ZeroTensors, Note [ZeroTensor] in _node.pxi)."""
    if type(a) is not Tensor or type(b) is not Tensor:
        # a sparse gradient: the sparse type's own sum (Note [Sparse gradients], _node.pxi)
        f = getattr(type(b), "_agc_buffer_sum", None) or getattr(type(a), "_agc_buffer_sum", None)
        if f is not None:
            return f(a, b)
    if (not cnp.PyArray_ISWRITEABLE(a._data) and same_shape(a._data, b._data)
            and a._is_zerotensor() and b._is_zerotensor()):
        return a
    return OPS.add(a, b, 1)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int _discover(_GraphTask task, list root_nodes, bint count) except -1:
    """Index every node reachable from the roots; with count, count edges too."""
    # the stack holds indices in a C vector: a Python list's append/pop would resize
    # (realloc) on every node of a chain
    cdef agc_intvec stack
    cdef Node node
    cdef Py_ssize_t i
    cdef int32_t before, idx
    if agc_intvec_init(&stack, 64) != 0:
        raise MemoryError()
    try:
        for node in root_nodes:
            before = len(task.nodes)
            idx = task.add(node)
            if count:
                task.deps.data[idx] += 1
            if idx == before and _push(&stack, idx) != 0:
                raise MemoryError()
        while stack.len:
            stack.len -= 1
            node = <Node>task.nodes[stack.data[stack.len]]
            # (Note [Child indices]: each edge's index, found here once)
            task.edge_start.data[stack.data[stack.len]] = <int32_t>task.child_idx.len
            for i in range(n_edges(node)):
                c = next_edge(node, i)
                if c is None:
                    if _push(&task.child_idx, -1) != 0:
                        raise MemoryError()
                    continue
                before = len(task.nodes)
                # Note [Nodes reached once]: the edge's reference and c's are all
                if Py_REFCNT(c) == 2:
                    idx = task.add_unmapped(<Node>c)
                else:
                    idx = task.add(<Node>c)
                if _push(&task.child_idx, idx) != 0:
                    raise MemoryError()
                if count:
                    task.deps.data[idx] += 1
                if idx == before and _push(&stack, idx) != 0:
                    raise MemoryError()
    finally:
        agc_intvec_free(&stack)


cdef enum:
    # Note [Needed nodes]: what a node does in a pass with `inputs`
    SKIP = 0        # no path to an input's edge: never runs
    CAPTURE = 1     # an input's edge, with no path to another: tensor pre-hooks, capture
    RUN = 2         # runs (its children that are not SKIP get its gradients)


cdef object _children_first_key(_GraphTask task, Py_ssize_t j, dict memo):
    """A key that orders every node after its children: its sequence number (a node is
    made after its inputs' nodes), 0 for AccumulateGrad; a node that runs when ready
    (Error, NotImplemented: the largest number) goes right after its last child."""
    cdef Node node = task.nodes[j]
    if isinstance(node, AccumulateGrad):
        return 0
    if not runs_when_ready(node):
        return node_seq(node)
    if j in memo:
        return memo[j]
    best = 0
    for k in range(n_edges(node)):
        c = next_edge(node, k)
        if c is not None:
            best = max(best, _children_first_key(task, task.child(<int32_t>j, k, c),
                                                 memo))
    memo[j] = best + 0.5
    return memo[j]


cdef bytearray _exec_states(_GraphTask task, set run_nodes, set capture_nodes):
    """Note [Needed nodes]: RUN for nodes with a path to an input's edge (and for
    run_nodes), CAPTURE for the other captured ones, SKIP for the rest."""
    cdef Py_ssize_t n = len(task.nodes), i, k
    cdef bytearray states = bytearray(n)
    cdef Node node
    cdef unsigned char st
    cdef dict memo = {}
    order = sorted(range(n), key=lambda j: _children_first_key(task, j, memo))
    for i in order:
        node = task.nodes[i]
        st = SKIP
        if run_nodes is not None and node in run_nodes:
            st = RUN
        else:
            for k in range(n_edges(node)):
                c = next_edge(node, k)
                if c is not None and states[task.child(<int32_t>i, k, c)] != SKIP:
                    st = RUN
                    break
        if st == SKIP and capture_nodes is not None and node in capture_nodes:
            st = CAPTURE
        states[i] = st
    return states


# Note [Reentrant backward]
# A backward called from inside a backward (a custom Function's backward, a hook)
# nests: every level costs Python and C stack. As PyTorch hands a deep reentrant pass to
# a worker thread, every _LEVELS_PER_THREAD nested levels continue on a new thread (a
# fresh stack and recursion count) while the caller waits, so thousands of nested
# passes do not raise RecursionError.
cdef int _LEVELS_PER_THREAD = 50
_reentrancy = threading.local()

# The passes running on this thread, innermost last: (id, task, states) each. Hooks
# ask which pass calls them and whether it will run a node (register_multi_grad_hook).
_running = threading.local()
_task_ids = iter(range(1 << 62))  # next() on it is atomic under the GIL


def _current_graph_task_id():
    """The id of the backward pass running on this thread (the innermost), or -1."""
    stack = getattr(_running, "stack", None)
    return stack[-1][0] if stack else -1


def _queue_callback(callback):
    """Variable._execution_engine.queue_callback: callback() runs once the backward pass
    running on this thread (the innermost) has finished, after the callbacks queued
    before it (one it queues itself runs in the same pass)."""
    stack = getattr(_running, "stack", None)
    if not stack:
        raise RuntimeError("Final callbacks can only be installed during backward pass.")
    cdef _GraphTask task = stack[-1][1]
    if task.callbacks is None:
        task.callbacks = []
    task.callbacks.append(callback)


def _is_checkpoint_valid():
    """Whether every backward pass running on this thread reaches all the graph (no
    autograd.grad, no backward(inputs=...)): what reentrant checkpointing needs."""
    stack = getattr(_running, "stack", None)
    if not stack:
        return True
    for entry in stack:
        if entry[2] is not None:
            return False
    return True


def _will_engine_execute_node(node):
    """Whether the backward pass running on this thread will run node (its hooks too)."""
    stack = getattr(_running, "stack", None)
    if not stack:
        raise RuntimeError("_will_engine_execute_node should only be called during the "
                           "backward pass")
    if not isinstance(node, Node):
        raise TypeError("_will_engine_execute_node expects an grad_fn, got "
                        + type(node).__name__)
    cdef _GraphTask task = stack[-1][1]
    states = stack[-1][2]
    # PyTorch's pass with a single root starts at that root's node instead of a
    # GraphRoot before it: the node is no edge's end, and so not among the nodes it
    # will execute (even while its own hooks run)
    if node is task.sole_root:
        return False
    cdef int32_t idx = task.index_of(node)
    if idx < 0:
        return False
    return states is None or (<bytearray>states)[idx] != SKIP


cdef object _flag(object x, bint none_ok):
    """A bool argument of backward()/grad(): PyTorch's C++ binding takes a bool or an
    int (retain_graph=None means "as create_graph"); anything else is Python's
    TypeError for a non-integer, not silently truthy."""
    if x is None and none_ok:
        return None
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    return operator.index(x) != 0


def run_backward(tuple tensors, tuple grad_tensors, retain_graph, create_graph,
                 inputs, allow_unused, bint accumulate):
    """Run one backward pass (_run_backward), on a new thread past a depth of
    reentrant passes (Note [Reentrant backward])."""
    retain_graph = _flag(retain_graph, True)
    create_graph = _flag(create_graph, False)
    allow_unused = _flag(allow_unused, False)
    cdef int depth = getattr(_reentrancy, "depth", 0)
    if depth >= _LEVELS_PER_THREAD:
        return _on_new_thread(tensors, grad_tensors, retain_graph, create_graph, inputs,
                              allow_unused, accumulate)
    _reentrancy.depth = depth + 1
    try:
        return _run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs,
                             allow_unused, accumulate)
    finally:
        _reentrancy.depth = depth


def _on_new_thread(*args):
    outcome = [None, None]

    def target():
        try:
            outcome[0] = _run_backward(*args)
        except BaseException as e:  # handed to the waiting caller
            outcome[1] = e

    worker = threading.Thread(target=target, name="autograd_core reentrant backward")
    worker.start()
    worker.join()
    if outcome[1] is not None:
        raise outcome[1]
    return outcome[0]


def _run_backward(tuple tensors, tuple grad_tensors, retain_graph, bint create_graph,
                  inputs, bint allow_unused, bint accumulate):
    """Run one backward pass.

    accumulate=True is backward(): gradients go into leaves' .grad (only the listed
    inputs' when inputs is given: a non-leaf input retains its grad, as PyTorch).
    accumulate=False is autograd.grad(): the gradients for `inputs` are returned and
    nothing is accumulated.
    """
    cdef Py_ssize_t i, k
    cdef Tensor t
    cdef Node node
    cdef bint keep_graph = create_graph if retain_graph is None else bool(retain_graph)
    global _create_graph_warned
    if create_graph and accumulate and (not _create_graph_warned or _warn_always()):
        # once per process, as PyTorch's TORCH_WARN_ONCE, which warns every time under
        # set_warn_always(True)
        _create_graph_warned = True
        warnings.warn(MSG_CREATE_GRAPH_CYCLE, UserWarning, stacklevel=3)
    if isinstance(inputs, Tensor):
        inputs = (inputs,)
    if inputs is not None and accumulate and len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")

    cdef list root_nodes = []
    cdef list root_nrs = []
    for i in range(len(tensors)):
        x = tensors[i]
        if not isinstance(x, Tensor):
            # a GradientEdge (Note [GradientEdge roots])
            edge = getattr(x, "node", None)
            if not isinstance(edge, Node):
                raise AssertionError("Expected output to be a autograd_core.Tensor")
            root_nodes.append(edge)
            root_nrs.append(x.output_nr)
            continue
        t = x
        if edge_node(t) is None:  # (a view made under no_grad has no edge of its own)
            raise _no_grad_fn_error(i)
        root_nodes.append(edge_node(t))
        root_nrs.append(t._output_nr)
    cdef tuple root_grads = _make_root_grads(tensors, grad_tensors)

    # The input edges: (node, output_nr) per input.
    cdef list capture = None
    cdef set edge_nodes = None
    cdef list captured = None
    if inputs is not None:
        capture = []
        for x in inputs:
            if not isinstance(x, Tensor):
                # a GradientEdge (autograd.graph): the gradient flowing into that edge
                edge = getattr(x, "node", None)
                if not isinstance(edge, Node):
                    raise RuntimeError("all inputs have to be Tensors or GradientEdges, but "
                                       "got " + type(x).__name__)
                capture.append((edge, x.output_nr))
                continue
            t = x
            if accumulate:
                t.retain_grad()
            if not requires_grad_of(t):
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            node = grad_fn_of(t)
            if node is not None:
                capture.append((node, t._output_nr))
            elif t._requires_grad:
                capture.append((grad_accumulator(t), 0))
            else:  # a view made under no_grad: it has no edge of its own
                capture.append((None, 0))
        edge_nodes = set([c[0] for c in capture])
        if not accumulate:
            captured = [None] * len(capture)

    cdef _GraphTask task = _GraphTask()
    if not task.ok:
        raise MemoryError()
    cdef bytearray states = None
    cdef int32_t idx, cidx
    # A single root is PyTorch's graph root itself: it is always reached, and runs its
    # tensor pre-hooks even when it leads to no input.
    cdef bint single_root = len(root_nodes) == 1
    if single_root:
        task.sole_root = root_nodes[0]
    if capture is None:
        _discover(task, root_nodes, True)
    else:
        _discover(task, root_nodes, False)
        states = _exec_states(task, edge_nodes if accumulate else None,
                              None if accumulate else edge_nodes)
        for i in range(len(task.nodes)):
            if states[i] != RUN:
                continue
            node = task.nodes[i]
            for k in range(n_edges(node)):
                c = next_edge(node, k)
                if c is not None:
                    cidx = task.child(<int32_t>i, k, c)
                    if states[cidx] != SKIP:
                        task.deps.data[cidx] += 1
        for node in root_nodes:
            idx = task.index_of(node)
            if single_root or states[idx] != SKIP:
                task.deps.data[idx] += 1

    cdef int prev_grad_mode = grad_enabled()
    cdef list hooks_state = saved_hooks_state()
    set_grad_enabled(create_graph)
    running = getattr(_running, "stack", None)
    if running is None:
        running = _running.stack = []
    running.append((next(_task_ids), task, states))
    try:
        # GraphRoot: the root gradients arrive first.
        for i in range(len(root_nodes)):
            idx = task.index_of(root_nodes[i])
            if states is None or single_root or states[idx] != SKIP:
                task.add_grad(idx, root_nrs[i], root_grads[i])
                task.arrive(idx)
        _execute(task, states, capture, None if accumulate else edge_nodes, captured,
                 keep_graph)
        if task.callbacks is not None:
            # (a callback may queue another: the list grows while it is walked)
            i = 0
            while i < len(task.callbacks):
                task.callbacks[i]()
                i += 1
    finally:
        running.pop()
        set_grad_enabled(prev_grad_mode)
        restore_saved_hooks(hooks_state)

    if accumulate:
        return None
    if not allow_unused:
        for k in range(len(captured)):
            if captured[k] is None:
                raise RuntimeError(
                    f"The differentiated Tensor at index {k} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(captured)


cdef inline list _as_buffer(Node node, object cur):
    if cur is None:
        return [None] * node.num_outputs()
    if type(cur) is list:
        return <list>cur
    return [cur]


cdef int _capture(Node node, list capture, list captured, list buf) except -1:
    cdef Py_ssize_t k
    for k in range(len(capture)):
        if capture[k][0] is node:
            captured[k] = buf[capture[k][1]]


# Note [Single-gradient entry]
# Most nodes run with one output and one gradient, and nothing around them: no hook,
# no capture, no profiler, no anomaly check, no batched pass, no graph kept or built.
# For such a node the engine calls Node.apply1(grad) with the gradient itself instead
# of apply((grad,)): no tuple is made for it (or freed). The generated nodes of
# ops/_codegen.py with one output hold their derivative in apply1 (their apply unpacks
# the tuple into it); every other node (AccumulateGrad, custom Functions, the
# hand-written nodes) answers None from Node's apply1, and the engine goes on with the
# general path, which is also the one for everything listed above. The reference count
# formulas read (Note [Stealing the gradient] in _node.pxi) is the same on both paths:
# the engine's buffer slot and its local here (cleared after apply1 returns), the
# tuple and the argument temporary in apply; apply1's own argument is borrowed.
#
# (indices come from the pointer map and the heap, and grads_in is checked to have
# one entry per edge: the loops index without bounds checks)
@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _execute(_GraphTask task, bytearray states, list capture, set capture_nodes,
                   list captured, bint keep_graph) except *:
    cdef int32_t idx
    cdef Py_ssize_t i, n_next
    cdef Node node
    cdef Tensor g
    cdef list buf
    cdef tuple grads_out, grads_in
    cdef bint any_grad, is_captured, prof
    # Note [Single-gradient entry]: no graph kept, none built
    cdef bint single_ok = not keep_graph and not grad_enabled()
    prof_step = prof_node = None
    cur = None
    while True:
        # Note [Stealing the gradient]: no stale reference to a gradient survives
        # from one step to the next, so AccumulateGrad knows who else holds it.
        grads_in = None
        grads_out = None
        held = None
        g = None
        idx = agc_heap_pop(&task.ready)
        if idx < 0:
            break
        node = <Node>PyList_GET_ITEM(task.nodes, idx)
        cur = task.buffers[idx]
        # Note [Op hook]: a flag check per node run (no object touched when off)
        prof = profiler_enabled
        is_captured = capture_nodes is not None and node in capture_nodes
        if (single_ok and cur is not None and type(cur) is not list and not prof
                and not is_captured and (states is None or states[idx] == RUN)
                and not _batched and not anomaly_enabled and _no_node_hooks(node)):
            # Note [Single-gradient entry]: the buffer slot and cur hold the gradient
            if is_released(node):
                raise RuntimeError(MSG_BACKWARD_TWICE)
            grads_in = node.apply1(cur)
        task.buffers[idx] = None
        if grads_in is not None:
            cur = None
            n_next = n_edges(node)
            if len(grads_in) != n_next:
                raise RuntimeError(
                    f"function {type(node).__name__} returned an incorrect number of gradients "
                    f"(expected {n_next}, got {len(grads_in)})")
            node.release_saved()  # (single_ok: not keep_graph)
            _pass_on(task, idx, node, grads_in, n_next, states)
            continue
        if states is not None and states[idx] != RUN:
            # Captured but needed by nothing else (or a single root that leads to no
            # input): its tensor pre-hooks see the gradient, and it does not run.
            buf = _as_buffer(node, cur)
            if _has_tensor_pre_hooks(node):
                _call_tensor_pre_hooks(node, buf)
            if is_captured:
                _capture(node, capture, captured, buf)
            continue
        if prof:
            prof_step = profiler_enter_node(node, None, True)
        if is_captured:
            # A node that also runs: its gradient is taken before any hook (PyTorch).
            _capture(node, capture, captured, _as_buffer(node, cur))
        if _has_tensor_pre_hooks(node) or _has_pre_hooks(node):
            buf = list(_as_buffer(node, cur))
            _call_tensor_pre_hooks(node, buf)
            if _has_pre_hooks(node):
                _call_node_pre_hooks(node, buf)
            grads_out = tuple(buf)
            buf = None
        elif cur is None:
            grads_out = (None,) * node.num_outputs()
        elif type(cur) is list:
            grads_out = tuple(<list>cur)
        else:
            grads_out = (cur,)
        cur = None

        any_grad = False
        for i in range(len(grads_out)):
            if grads_out[i] is not None:
                any_grad = True
                break
        if is_released(node) and any_grad:
            raise RuntimeError(MSG_BACKWARD_TWICE)

        n_next = n_edges(node)
        if any_grad:
            # Note [Stealing the gradient]: post hooks see the incoming gradients after
            # apply, so a derivative may not write into them (AccumulateGrad's stealing
            # stays: a post hook sees .grad's tensor, as in PyTorch)
            held = (list(grads_out) if _has_post_hooks(node)
                    and not isinstance(node, AccumulateGrad) else None)
            if prof:
                prof_node = profiler_enter_node(node, grads_out, False)
            if _batched:  # Note [Batched backward]: a node may run once per entry
                grads_in = _batched_impl.apply_node(node, grads_out)
            elif anomaly_enabled:
                grads_in = _apply_with_anomaly(node, grads_out)
            else:
                grads_in = node.apply(grads_out)
            if prof:
                profiler_exit(prof_node)
            if len(grads_in) != n_next:
                raise RuntimeError(
                    f"function {type(node).__name__} returned an incorrect number of gradients "
                    f"(expected {n_next}, got {len(grads_in)})")
        else:
            grads_in = (None,) * n_next
            if (isinstance(node, AccumulateGrad) and (<AccumulateGrad>node).var is not None
                    and post_acc_hooks_of((<AccumulateGrad>node).var) is not None):
                node.apply(grads_out)  # its post-accumulate hooks run without a gradient
        if _has_post_hooks(node):
            if states is not None and any_grad and not isinstance(node, FunctionNode):
                grads_in = _unneeded_as_none(task, idx, node, grads_in, states)
            grads_in = _call_post_hooks(node, grads_in, grads_out)
        if not keep_graph:
            node.release_saved()
        _pass_on(task, idx, node, grads_in, n_next, states)
        if prof:
            profiler_exit(prof_step)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef inline int _pass_on(_GraphTask task, int32_t idx, Node node, tuple grads_in,
                         Py_ssize_t n_next, bytearray states) except -1:
    """Hand the gradients a node computed (one per edge) to its edges' nodes."""
    cdef Py_ssize_t i
    cdef int32_t cidx
    cdef Tensor g
    cdef tuple next_nrs = next_nrs_of(node)
    cdef tuple input_meta = input_meta_of(node)
    for i in range(n_next):
        c = next_edge(node, i)
        if c is None:
            continue
        cidx = task.child(idx, i, c)
        if states is not None and states[cidx] == SKIP:
            continue
        g = grads_in[i]
        if g is not None and input_meta is not None:
            g = _validate_grad(node, i, g)
        task.add_grad(cidx, 0 if next_nrs is None else next_nrs[i], g)
        task.arrive(cidx)
    return 0


cdef tuple _unneeded_as_none(_GraphTask task, int32_t idx, Node node, tuple grads_in,
                             object states):
    """Note [Needed nodes]: a node's post hooks see None for an input whose edge leads to
    no needed node, as PyTorch's generated nodes give none (their
    task_should_compute_output); a custom Function's backward computes every gradient
    it returns, and its hooks see them all (PyTorch's PyNode)."""
    cdef list out = list(grads_in)
    for i in range(len(out)):
        c = next_edge(node, i)
        if c is not None and (<bytearray>states)[task.child(idx, i, c)] == SKIP:
            out[i] = None
    return tuple(out)


cdef tuple _apply_with_anomaly(Node node, tuple grads_out):
    prev = _set_anomaly_current(node)
    try:
        grads_in = node.apply(grads_out)
    except Exception:
        _warn_anomaly(node)
        raise
    finally:
        _set_anomaly_current(prev)
    for i, g in enumerate(grads_in):
        if anomaly_check_nan and g is not None and np.isnan((<Tensor>g)._data).any():
            _warn_anomaly(node)
            raise RuntimeError(f"Function '{type(node).__name__}' returned nan values in its {i}th output.")
    return grads_in


cdef void _anomaly_warning(str msg):
    """Warn; a warning that the filters turn into an error goes to stderr, so that the
    error being reported is the one that propagates (as PyTorch)."""
    try:
        warnings.warn(msg, UserWarning, stacklevel=3)
    except Exception:
        sys.stderr.write("Warning: " + msg + "\n")


cdef void _warn_anomaly(Node node):
    """PyTorch's AnomalyMetadata::print_stack: the failing node's forward trace, then its
    parents' (the nodes whose backward created it)."""
    cdef bint parent = False
    name = node.name()
    while True:
        meta = node.extra.meta if node.extra is not None and node.extra.meta is not None else {}
        trace = meta.get("traceback_")
        if not trace:
            _anomaly_warning(f"Error detected in {name}. No forward pass information "
                             "available. Enable detect anomaly during forward pass for more "
                             "information.")
        elif not parent:
            _anomaly_warning(f"Error detected in {name}. Traceback of forward call that "
                             "caused the error:\n" + "".join(trace))
        else:
            _anomaly_warning(f"\n\nPrevious calculation was induced by {name}. Traceback of "
                             "forward call that induced the previous calculation:\n"
                             + "".join(trace))
        nxt = meta.get("parent_")
        if nxt is None:
            break
        node = nxt
        name = node.name()
        parent = True


def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute the gradient of this tensor w.r.t. the graph leaves.

    >>> import autograd_core as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> (x * x).sum().backward()
    >>> x.grad
    tensor([2., 4.])
    """
    grads = (gradient,) if gradient is None or isinstance(gradient, Tensor) else \
        iterated(gradient)
    run_backward((self,), grads, retain_graph, create_graph, inputs,
                 allow_unused=True, accumulate=True)


def iterated(x):
    """tuple(x), as PyTorch's autograd.backward/grad read their tensor and gradient
    arguments (y.backward(5) is Python's TypeError for iterating an int, a list of
    numbers the engine's TypeError for a gradient that is no Tensor)."""
    try:
        return tuple(x)
    except TypeError:
        raise TypeError(f"'{type(x).__name__}' object is not iterable") from None


_backward.__name__ = _backward.__qualname__ = "backward"
install_methods({"backward": _backward})
