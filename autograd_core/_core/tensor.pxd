# The core types: Tensor, Node, SavedTensor, AccumulateGrad, VersionCounter, and the
# vocabulary every op module uses to build them (making tensors, checking arguments,
# saving, recording, in-place writes, the op table). Every field is documented here;
# the code is in tensor.pyx.
cimport cython
cimport numpy as cnp
from libc.stdint cimport uint32_t, uint64_t

from autograd_core._core.csrc cimport agc_parallel_for_fn, agc_range_fn

from autograd_core._core.dtype cimport (
    dtype, CAT_BOOL, CAT_FLOAT, is_float_array, is_grad_array, is_guarded_array,
)
from cpython.complex cimport PyComplex_Check


cdef class VersionCounter:
    # Shared by a tensor, its views and detach()ed aliases; bumped by every in-place
    # op on any of them (Note [Saved tensor versions] in _node.pxi).
    cdef public long version


cdef class FwGrad:
    # A tensor's tangent (Note [Forward AD] in _core/_fw.pxi): valid while the level it
    # was set at (generation) is the active one.
    cdef object tangent          # the tangent Tensor; None: decided to have none
    cdef long generation


cdef class NodeExtra:
    # What few nodes carry (Note [Node layout] in _node.pxi): created on first need.
    cdef tuple next_nrs          # per forward input: its edge node's output index; None = all 0
    cdef tuple input_meta        # per forward input: (shape, dtype) when the op broadcast or
                                 # promoted it (the engine sums/casts the gradient back), else
                                 # None; None for the whole tuple when no input needs it
    cdef list pre_hooks          # callables run on the incoming gradients
    cdef list post_hooks         # callables run on (grad_inputs, grad_outputs)
    cdef dict retained           # output_nr -> weakref of a non-leaf output with retain_grad()
    cdef dict meta               # Node.metadata; under detect_anomaly also 'traceback_'
    cdef object view_history     # a node a CopySlices wraps: a weakref to the written
                                 # view's history rebuilt after the write, which a saved
                                 # output's version error names (Note [CopySlices wraps
                                 # the op])


# (trashcan: freeing a chain of a million nodes must not recurse a million deep; set
# here, so that every subclass, in any module, inherits it)
@cython.trashcan(True)
cdef class Node:
    # One recorded op: the grad_fn of its outputs (Note [Node layout] in _node.pxi).
    # Its edges, one per forward input (the Node the input's gradient flows to, or None):
    # up to two inline, more as one tuple in edge0; read them with next_edge().
    cdef object edge0            # input 0's edge; with more than two inputs, the tuple of all
    cdef Node edge1              # input 1's edge
    cdef uint64_t bits           # one word (Note [Node layout]): the creation order
                                 # (sequence_nr; the engine runs the newest first), the
                                 # number of forward inputs, and `released` (saved state
                                 # freed by a backward without retain_graph); read and set
                                 # through node_seq, n_edges, is_released, ... below
    cdef NodeExtra extra         # None until the node needs one (node_extra())
    cdef object __weakref__

    # The derivative: gradients of the outputs in, gradients of the inputs out (one
    # per next_nodes entry, None where not needed).
    cdef tuple apply(self, tuple grads)
    # The same for a node with one output, its one gradient (not None) borrowed: what
    # apply returns, or None for a node that has no such entry (Note [Single-gradient
    # entry] in engine.pyx)
    cdef tuple apply1(self, object grad)
    # Drop saved state (Note [Releasing saved state]).
    cdef void release_saved(self) noexcept
    cdef int num_outputs(self) noexcept
    # An in-place op made t hold output output_nr: a node that saved that output
    # repoints its SavedTensor to t (Note [In-place ops]).
    cdef void repoint_output(self, int output_nr, Tensor t) noexcept
    # The version counter of output output_nr, whose array is data, when this node
    # saved that output inline and so shares its counter (made here on first need), else
    # None (Note [Counters made by the node] in _node.pxi)
    cdef VersionCounter output_counter(self, int output_nr, cnp.ndarray data)


cdef class SavedTensor:
    # A tensor a node keeps for its backward (Note [Saved tensor versions]).
    cdef object obj              # a saved input (or any tensor that is not the owner's
                                 # output): the Tensor; a saved output of the owner: its
                                 # values, an ndarray (never the Tensor, whose grad_fn is the
                                 # owner: a cycle); with hooks: a SavedHooks
    cdef VersionCounter vc       # a saved output: its counter
    cdef long version            # the counter's value when saved
    cdef int output_nr           # a saved output: which output of the owner it is
    cdef unsigned char is_output  # 2: an output saved with its tangent, kept in _FW_SAVED
                                  # (Note [Forward AD]: saved outputs)
    cdef unsigned char leaf      # the saved tensor was a leaf
    cdef unsigned char freed     # holds nothing because backward freed it (an empty one
                                 # that is not freed stands for a saved None: raw_saved)
    # (no cdef methods: no vtable pointer in every saved tensor; unpack_saved reads it)


cdef class SavedHooks:
    # With saved-tensor hooks (autograd.graph.saved_tensors_hooks, register_hooks) a
    # SavedTensor does not keep the tensor: this does, pack_hook's result in its place,
    # and what unpack_hook's rebuilt tensor needs of the original's place in the graph.
    cdef object packed           # what pack_hook returned
    cdef object unpack_hook
    cdef Node grad_fn            # a saved non-leaf input: its history
    cdef object accumulator      # a saved leaf that requires grad: its AccumulateGrad
    cdef bint requires_grad      # the saved tensor required grad


cdef class AccumulateGrad(Node):
    # The node through which gradients reach a leaf's .grad.
    cdef Tensor var              # the leaf; it holds this node only weakly


cdef class TensorHook:
    # A non-leaf tensor's hook, kept among its grad_fn's pre-hooks for one output.
    cdef int output_nr
    cdef object fn


# Note [Tensor layout]
# Every op makes a tensor and every backward step frees one, and each object field
# costs its creation (set to None) and its freeing (cleared): fields only some tensors
# ever use live in one TensorExtra, created on first need (tensor_extra()) and read
# through the accessors below (None / False / 0 when there is none). Like the tensor it
# is untracked by the cycle collector until it holds something the user gave
# (tensor hooks: a hook may refer to its tensor; gc_track both then). The view fields
# stay in Tensor: every view sets them (make_view).
@cython.final
cdef class TensorExtra:
    cdef list hooks              # its tensor hooks (Note [Tensor hooks live on the tensor])
    cdef list post_acc_hooks     # register_post_accumulate_grad_hook callables (leaves)
    cdef object grad_dtype       # Tensor.grad_dtype of a leaf: None for its own dtype (the
                                 #   default), False for any dtype (set to None), or a dtype
    cdef tuple view_steps        # a view of a conj/neg view (or one itself): how to replay it
                                 #   from its base, ((kind, array), ...) (Note [View replay
                                 #   steps] in _conj.pxi); None for every other tensor
    cdef bint retains_grad       # retain_grad() was called on this non-leaf


cdef class Tensor:
    cdef cnp.ndarray _data       # the values; always one of the supported dtypes
    cdef bint _requires_grad     # for a non-leaf always True (it has a grad_fn)
    cdef Node _grad_fn           # the node that produced it; None exactly for leaves
    cdef int _output_nr          # which output of _grad_fn it is
    cdef Tensor _grad            # accumulated gradient (leaves, or retain_grad())
    cdef VersionCounter _vc      # created lazily; shared with views (see VersionCounter)
    cdef object _accumulator     # weakref to this leaf's AccumulateGrad node, or None
    cdef Tensor _base            # the tensor this is a view of (never itself a view), or None
    cdef long _view_version      # a view: the version its grad_fn was made for (Note [View
                                 #   + in-place]); a read at another version regenerates it
    cdef int _creation_meta      # a view: how it was made (CM_* below)
    cdef bint _inference         # created inside inference_mode()
    cdef FwGrad _fw              # its forward-AD tangent and level, or None (Note [Forward AD])
    cdef TensorExtra _x          # what few tensors carry, or None (Note [Tensor layout])
    cdef object __weakref__

    cdef _set_requires_grad(self, bint value, str msg)


# How a view was made (PyTorch's CreationMeta): which in-place ops on it, or on its
# base, autograd refuses (Note [View + in-place] in _inplace.pxi).
cdef enum:
    CM_DEFAULT = 0
    CM_IN_CUSTOM_FUNCTION = 1
    CM_MULTI_OUTPUT_NODE = 2
    CM_NO_GRAD_MODE = 3
    CM_INFERENCE_MODE = 4


cdef inline bint requires_grad_of(Tensor t) noexcept:
    """PyTorch's requires_grad(): a view also requires grad when its base does (unless
    it is an inference tensor)."""
    return t._requires_grad or (t._base is not None and t._base._requires_grad
                                and not t._inference)


# ---------------------------------------------------------------- intra-op threads
# The pool of csrc/agc_parallel.c, linked into this module only (one pool and one thread
# count per process): the family modules hand parallel_for_entry() to their C files, or
# call parallel_for with a range function of their own.

cdef agc_parallel_for_fn parallel_for_entry() noexcept
cdef void parallel_for(Py_ssize_t n, Py_ssize_t grain, agc_range_fn fn, void *ctx) noexcept nogil
# an op has just called numpy's BLAS for a product of that many multiply-adds:
# Note [Sharing the cores with BLAS] (agc_parallel.h)
cdef void blas_called(double multiply_adds) noexcept nogil
# torch.get_num_threads() as the pool holds it (the ops' one reading of the count)
cdef int intra_op_threads() noexcept


# ---------------------------------------------------------------- grad modes
# Thread-local (csrc/agc_mode.c, linked into this module only).

cdef bint grad_enabled() noexcept
cdef void set_grad_enabled(bint mode) noexcept
cdef bint inference_mode_enabled() noexcept
cdef bint recording() noexcept


# ---------------------------------------------------------------- forward AD
# Note [Forward AD] (in _fw.pxi). fw_active() is the one check an op makes.

cdef bint fw_active() noexcept
cdef const int *fw_level_flag() noexcept
cdef object fw_grad_of(Tensor t)
cdef int set_fw_grad(Tensor t, object tangent) except -1
cdef int fw_prepare(tuple outputs, tuple inputs) except -1
cdef int fw_finish(Tensor result, object tangent) except -1
cdef int fw_inplace(Tensor self, Tensor result) except -1
cdef Tensor fw_tangent_for_write(Tensor self)
cdef object fw_not_implemented(str op)
cdef int check_complex_fw(str op) except -1
cdef object fw_not_supported(str op)
cdef int fw_refuse(str op, tuple tensors) except -1
cdef int fw_refuse_fallback(str op, tuple tensors) except -1
cdef object fw_zeros(object primal)
cdef Tensor fw_seed(Tensor like)
cdef object fw_transpose(object g, Tensor u, object t, str op, bint create_graph)


cdef class FwSuspend:
    # `with FwSuspend():` computes a tangent with forward AD off (C level)
    cdef bint prev


cdef class NoGradGuard:
    # `with NoGradGuard():` runs a block with grad mode off (C level, no Python import)
    cdef bint prev               # the grad mode to restore


# Note [Untracked by the cycle collector] (in _node.pxi)
cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *op)
    void PyObject_GC_Track(void *op)
    int PyObject_GC_IsTracked(object op)


cdef inline void gc_untrack(object o) noexcept:
    PyObject_GC_UnTrack(<void *>o)


cdef inline void gc_track(object o) noexcept:
    if not PyObject_GC_IsTracked(o):
        PyObject_GC_Track(<void *>o)


cdef inline TensorExtra tensor_extra(Tensor t):
    """t's TensorExtra, created on first use (Note [Tensor layout])."""
    if t._x is None:
        t._x = TensorExtra.__new__(TensorExtra)
        gc_untrack(t._x)
    return t._x


# Note [Tensor layout]: the rare fields, read
cdef inline list tensor_hooks(Tensor t):
    return None if t._x is None else t._x.hooks


cdef inline list post_acc_hooks_of(Tensor t):
    return None if t._x is None else t._x.post_acc_hooks


cdef inline object grad_dtype_field(Tensor t):
    return None if t._x is None else t._x.grad_dtype


cdef inline tuple view_steps_of(Tensor t):
    return None if t._x is None else t._x.view_steps


cdef inline bint retains_grad_of(Tensor t) noexcept:
    return t._x is not None and t._x.retains_grad


cdef inline void set_view_steps(Tensor t, tuple steps):
    if steps is not None or t._x is not None:
        tensor_extra(t).view_steps = steps


# ---------------------------------------------------------------- making tensors

# Note [Strides of empty tensors]
# numpy gives every new empty array all-zero strides; PyTorch allocates an empty tensor
# with the dense strides of its shape (a size-0 dim counted as 1), and its views carry
# them (a transpose swaps them). make() turns a fresh empty array into a view with the
# dense strides (numpy keeps the strides of such a view and of views of it), so that
# stride() and the layout rules that read strides see PyTorch's.
cdef cnp.ndarray dense_empty(cnp.ndarray arr)


cdef inline Tensor make(cnp.ndarray arr):
    """A new tensor over arr (no copy), without history."""
    cdef Tensor t = Tensor.__new__(Tensor)
    gc_untrack(t)  # Note [Untracked by the cycle collector]
    if (cnp.PyArray_NDIM(arr) and cnp.PyArray_STRIDES(arr)[cnp.PyArray_NDIM(arr) - 1] == 0
            and cnp.PyArray_SIZE(arr) == 0):
        arr = dense_empty(arr)   # Note [Strides of empty tensors]
    t._data = arr
    if inference_mode_enabled():
        t._inference = True
    return t


cdef inline void keep_counter(Tensor t):
    """Before t's grad_fn changes (an in-place op, detach_()): give t the counter its
    grad_fn holds for it, if that node saved t inline, while the link still exists."""
    if t._vc is None and t._grad_fn is not None:
        t._vc = t._grad_fn.output_counter(t._output_nr, t._data)


cdef inline VersionCounter version_counter(Tensor t):
    """t's version counter, created on first use: the one its grad_fn holds for it when
    that node saved t inline (Note [Counters made by the node] in _node.pxi)."""
    if t._vc is None:
        keep_counter(t)
        if t._vc is None:
            t._vc = VersionCounter.__new__(VersionCounter)
    return t._vc


cdef Tensor make_view(Tensor base, cnp.ndarray arr)
cdef Tensor make_alias(Tensor t, cnp.ndarray arr)
cdef void set_creation_meta(Tensor view, Tensor base, int meta) noexcept
cdef Tensor make_scalar(object value, dtype d)
cdef Tensor zeros(tuple shape, dtype d)
cdef Tensor zeros_like(Tensor t)
cdef cnp.ndarray as_array(object r)
cdef cnp.ndarray cast_array(cnp.ndarray x, dtype d)
cdef object quiet()
cdef dtype result_type(tuple operands)
cdef dtype result_type_of_tensors(object tensors)
cdef tuple broadcast_shapes(tuple a, tuple b)
cdef bint broadcasts_to(tuple shape, tuple target)
cdef Py_ssize_t shape_numel(tuple shape) except? -1
cdef tuple inverse_permutation(tuple perm)


cdef cnp.ndarray pointwise_output(cnp.ndarray values, tuple operands, int common,
                                  int first_cast)


cdef inline cnp.ndarray empty_like_array(cnp.ndarray x):
    """An uninitialised C-contiguous array of x's shape and dtype, with PyTorch's
    contiguous strides (numpy gives an array without elements zero strides)."""
    cdef cnp.ndarray out = <cnp.ndarray>cnp.PyArray_EMPTY(
        cnp.PyArray_NDIM(x), cnp.PyArray_DIMS(x), cnp.PyArray_TYPE(x), 0)
    if cnp.PyArray_SIZE(out) == 0:
        return pointwise_output(out, (), -1, 0)
    return out


cdef inline tuple shape_of(cnp.ndarray arr):
    """An array's shape as a Python tuple."""
    return (<object>arr).shape


cdef inline bint same_shape(cnp.ndarray a, cnp.ndarray b) noexcept:
    cdef int nd = cnp.PyArray_NDIM(a), i
    if nd != cnp.PyArray_NDIM(b):
        return False
    cdef cnp.npy_intp *da = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp *db = cnp.PyArray_DIMS(b)
    for i in range(nd):
        if da[i] != db[i]:
            return False
    return True


# ---------------------------------------------------------------- argument checks
# One place for checking what a user passed (the generated Python wrappers and the
# hand-written ones call these), with PyTorch's exception types and messages.

# every "must be Tensor, not ..." TypeError (pos 0: a keyword-only argument, out=)
cpdef object not_tensor_error(str fname, str argname, int pos, object x)
cdef Tensor arg_tensor(object x, str fname, str argname, int pos)
# Note [Complex guard] (_messages.pxi). complex_arg is true for a Tensor of any guarded
# dtype (complex, and the wide unsigned ints: Note [Dtype guard]); check_complex_op and
# check_complex_args then judge the op for that dtype's family.
cdef inline bint complex_arg(object x) noexcept:
    return isinstance(x, Tensor) and is_guarded_array((<Tensor>x)._data)
cdef inline bint complex_scalar_arg(object x) noexcept:
    return PyComplex_Check(x) or complex_arg(x)
cdef inline bint any_complex_arg(list xs) noexcept:
    if xs is None:
        return False
    for x in xs:
        if complex_arg(x):
            return True
    return False
cdef int check_complex_op(str name, object x) except -1
cdef int check_complex_args(str name, tuple args) except -1
cdef int refuse_complex(str name, object x) except -1
cdef object arg_operand(object x)
cdef object arg_number(object x)
cdef bint is_number(object x)
cdef Py_ssize_t wrap_dim(object dim, Py_ssize_t ndim) except? -1
cdef tuple wrap_dims(object dims, Py_ssize_t ndim)
cdef tuple reduction_dims(object dim, Py_ssize_t ndim)
cdef tuple parse_shape(tuple args, str fname, str argname=*)
cdef list arg_tensor_list(object tensors, str fname)
cdef bint arg_bool(object x, str fname, str argname, int pos) except -1
cdef object arg_scalar(object x, str fname, str argname, int pos)
cdef object arg_tensor_or_scalar(object x, str fname, str argname, int pos)
cdef object checked_int64(object i)
cdef object arg_int(object x, str fname, str argname, int pos)
cdef tuple arg_int_list(object x, str fname, str argname, int pos)
cdef tuple arg_int_sequence(object x, str fname, str argname, int pos)
cdef double arg_float(object x, str fname, str argname, int pos) except? -1.0
cdef str arg_str(object x, str fname, str argname, int pos)


cdef inline bint is_all_dims(object dim):
    """A reduction's dim argument that means every dim: None or an empty sequence."""
    return dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0)


# ---------------------------------------------------------------- messages

cdef str MSG_BACKWARD_TWICE
cdef str MSG_LEAF_INPLACE
cdef str MSG_LEAF_VIEW_INPLACE
cdef str MSG_VIEW_NOT_COMPATIBLE
cdef str MSG_OVERLAPPING_WRITE
cdef str MSG_PARTIAL_OVERLAP
cdef str MSG_ZEROTENSOR_COPY
cdef str shape_str(tuple shape)
cdef str legacy_type_name(Tensor t)
cdef object dim_error(Py_ssize_t dim, Py_ssize_t ndim)
cdef object broadcast_error(tuple sa, tuple sb)
cdef object not_implemented_for(str kernel, dtype d)
# Note [Scalar conversion overflow] (_messages.pxi): "value cannot be converted to type
# <type_name> without overflow", the one constructor of that error
cpdef object value_overflow_error(str type_name)
# PyTorch's error for a tangent whose size differs from its tensor's (make_dual, jvps)
cdef object fw_grad_size_error(tuple shape, tuple grad_shape)
cdef object type_error_combination(str fname, tuple args, str signatures)
cdef str op_name(Node node)


cdef inline int check_float_kernel(dtype d, str kernel) except -1:
    """A kernel PyTorch has for floating dtypes only: its error for any other d."""
    if d.category != CAT_FLOAT:
        raise not_implemented_for(kernel, d)
    return 0


cdef inline int check_not_bool_kernel(dtype d, str kernel) except -1:
    """A kernel PyTorch has no bool version of: its error for bool."""
    if d.category == CAT_BOOL:
        raise not_implemented_for(kernel, d)
    return 0


# ---------------------------------------------------------------- saving and recording

cdef void bump_version(Tensor t)
cdef SavedTensor save(Tensor t)
cdef SavedTensor save_output(Tensor out, int output_nr)
cdef Tensor unpack_saved(SavedTensor saved, Node owner, bint for_function=*)
# Note [Saved outputs inline] (in _node.pxi): a node's own saved output in its fields
cdef object save_output_inline(Tensor out, int output_nr)
cdef Tensor unpack_output(Node owner, object obj, VersionCounter vc, int output_nr,
                          bint formula)
cdef SavedTensor saved_output_object(Node owner, object obj, VersionCounter vc,
                                     int output_nr)
cdef list saved_hooks_state()
cdef int restore_saved_hooks(list state) except -1
cdef void repoint_saved(SavedTensor saved, Tensor t) noexcept
cdef object save_operand(object x)
cdef object unpack_operand(Node owner, object saved)
cdef object raw_saved(Node owner, object saved)
cdef Node edge_node(Tensor t)
cdef int record(Node node, Tensor out, tuple inputs) except -1
cdef int record_broadcast(Node node, Tensor out, tuple inputs) except -1
cdef int record_outputs(Node node, tuple outputs, tuple inputs) except -1
cdef int record1(Node node, Tensor out, object a) except -1
cdef int record2(Node node, Tensor out, object a, object b, bint broadcast) except -1
cdef bint any_requires_grad(tuple inputs) noexcept
cdef object check_hook_result(object r, Tensor g, object hook)
cdef int accumulate_into(Tensor var, Tensor g) except -1
cdef void run_when_ready(Node node) noexcept
# whether node has the largest sequence number (AccumulateGrad, Error, NotImplemented)
cdef inline bint runs_when_ready(Node node) noexcept:
    return node_seq(node) == (<uint64_t>1 << (64 - SEQ_SHIFT)) - 1
# Note [Stealing the gradient]: a backward kernel may write its result into g (held
# by expected_refs references of the engine and the calling node only)
cdef bint grad_is_owned(Tensor g, int expected_refs) noexcept
cdef AccumulateGrad grad_accumulator(Tensor leaf)


# Note [Complex autograd] (_messages.pxi)
cdef int check_complex_grad(str op) except -1
cdef const int *complex_grad_flag() noexcept
cdef void note_complex_grad() noexcept
# Note [Complex outputs PyTorch does not differentiate], Note [Complex Scalar arguments]
cdef object complex_output_autograd_error(str op)
cdef object scalar_in(object value, dtype d, bint opmath=*)


cdef inline bint recordable_array(cnp.ndarray out, str op) except -1:
    """Whether an op's result out, with an input that requires grad under grad mode,
    gets a history: floating point does; a complex result does when op differentiates
    complex values and raises otherwise (Note [Complex autograd]); other dtypes do not."""
    if is_float_array(out):
        return True
    if cnp.PyArray_ISCOMPLEX(out):
        check_complex_grad(op)
        return True
    return False


cdef inline bint should_record(tuple inputs, cnp.ndarray out, str op) except -1:
    """Whether an op (named op) with these inputs records a node for an output of out's
    dtype: grad mode on, an input requires grad, the output is floating point (or
    complex, recordable_array), and not every input is an inference tensor (Note
    [Inference tensors outside inference mode])."""
    return (recording() and any_requires_grad(inputs) and not all_inference(inputs)
            and recordable_array(out, op))


cdef inline bint _input_requires_grad(object x) noexcept:
    return isinstance(x, Tensor) and requires_grad_of(<Tensor>x)


cdef inline bint _input_has_edge(object x) except -1:
    # Whether x's gradient goes anywhere (edge_node): a view made under no_grad of a
    # tensor that requires grad requires grad but has none, so what only x's gradient
    # would read is not saved (PyTorch saves per should_compute_output of the edge)
    return (isinstance(x, Tensor) and requires_grad_of(<Tensor>x)
            and edge_node(<Tensor>x) is not None)


# Note [Inference tensors outside inference mode]
# PyTorch's inference tensors carry no autograd dispatch keys, so an op whose tensor
# inputs are all inference tensors runs below autograd even with grad mode on: it
# records nothing, and its result is a normal tensor that does not require grad
# (a view's result is an inference tensor, and not a view: make_view). One normal
# tensor among the inputs brings autograd back: the op records as usual, and saving an
# inference tensor for backward then raises (version_for_save). A Python number passed
# for a tensor argument is a normal tensor to PyTorch (a wrapped number); an absent
# optional tensor (None) does not count. Recording wiring (the generated record_<Node>
# and should_record) asks inference_input of every tensor argument, once it knows that
# something would record.

cdef inline bint inference_input(object x) noexcept:
    """Whether tensor argument x leaves an op below autograd (see the Note)."""
    return x is None or (isinstance(x, Tensor) and (<Tensor>x)._inference)


cdef inline bint all_inference(tuple inputs) noexcept:
    for x in inputs:
        if not inference_input(x):
            return False
    return True


# Node.bits: sequence_nr << SEQ_SHIFT | min(n_edges, EDGES_MANY) << 1 | released. 48 bits
# of sequence number (2.8e14 recorded ops); a node with EDGES_MANY inputs or more keeps
# its edges in a tuple (edge0), whose length is the count.
cdef enum:
    SEQ_SHIFT = 16
    EDGES_MANY = 0x7FFF

cdef inline uint64_t node_seq(Node node) noexcept:
    """node's sequence_nr (creation order)."""
    return node.bits >> SEQ_SHIFT


cdef inline void set_node_seq(Node node, uint64_t seq) noexcept:
    node.bits = (seq << SEQ_SHIFT) | (node.bits & ((<uint64_t>1 << SEQ_SHIFT) - 1))


cdef inline Py_ssize_t n_edges(Node node) noexcept:
    """The number of node's forward inputs (edges)."""
    cdef Py_ssize_t n = <Py_ssize_t>((node.bits >> 1) & EDGES_MANY)
    if n == EDGES_MANY:
        return len(<tuple>node.edge0)
    return n


cdef inline void set_n_edges(Node node, Py_ssize_t n) noexcept:
    cdef uint64_t code = <uint64_t>(n if n < EDGES_MANY else EDGES_MANY)
    node.bits = (node.bits & ~(<uint64_t>EDGES_MANY << 1)) | (code << 1)


cdef inline bint is_released(Node node) noexcept:
    """Whether a backward without retain_graph freed node's saved state."""
    return node.bits & 1


cdef inline void set_released(Node node) noexcept:
    node.bits |= 1


cdef inline object next_edge(Node node, Py_ssize_t i):
    """The node forward input i's gradient flows to, or None (i < n_edges(node))."""
    if n_edges(node) > 2:
        return (<tuple>node.edge0)[i]
    return node.edge0 if i == 0 else node.edge1


cdef inline bint needs_input_grad(Node node, Py_ssize_t i):
    """Whether forward input i of node wants a gradient (should_compute_output)."""
    return next_edge(node, i) is not None


cdef inline tuple next_nrs_of(Node node):
    """Per forward input, its edge node's output index; None when all are 0."""
    return None if node.extra is None else node.extra.next_nrs


cdef inline tuple input_meta_of(Node node):
    """Node.input_meta (NodeExtra): None when no input was broadcast or promoted."""
    return None if node.extra is None else node.extra.input_meta


cdef NodeExtra node_extra(Node node)
cdef void set_input_meta(Node node, tuple meta)


# ---------------------------------------------------------------- in derivative formulas

cdef object any_add(object a, object b, object alpha=*)
cdef object any_sub(object a, object b)
cdef object any_mul(object a, object b)
cdef object any_div(object a, object b)
cdef object any_pow(object a, object b)
cdef object any_neg(object a)
cdef Tensor not_implemented(str what)
cdef Tensor unsqueeze_dims(Tensor t, tuple dims)


# ---------------------------------------------------------------- in-place ops

cdef Tensor inplace_source(Tensor self, tuple others, bint allow_overlap=*)
cdef Tensor inplace_commit(Tensor self, Tensor result, bint allow_overlap=*)
cdef bint inplace_in_order(Tensor self, tuple others) except -1
cdef Tensor inplace_commit_in_order(Tensor self, Tensor result, object fn, tuple args)
cdef Tensor inplace_commit_expanded(Tensor self, Tensor source, Tensor result, str op,
                                    str example)
cdef void warn_expanded_write(str op, str example) except *
cdef bint is_zerotensor(Tensor t) except -1
cdef int check_inplace(Tensor self, tuple others) except -1
cdef int check_inference_inplace(Tensor self) except -1
cdef Node grad_fn_of(Tensor t)
cdef void move_retained_grad(Tensor t, Node old) noexcept
cdef bint has_internal_overlap(cnp.ndarray a) noexcept
cdef bint same_elements(cnp.ndarray a, cnp.ndarray b) noexcept
cdef bint is_non_overlapping_and_dense(cnp.ndarray x)
cpdef cnp.ndarray empty_preserving(cnp.ndarray x, object np_dtype)
cdef cnp.ndarray as_preserved(cnp.ndarray values, cnp.ndarray like)
cpdef Tensor relayout_result(Tensor result, Tensor like, bint suggested=*)
cdef cnp.ndarray as_contiguous(cnp.ndarray values)
cdef int suggested_format(cnp.ndarray x) noexcept
cdef cnp.ndarray in_suggested_format(cnp.ndarray values, cnp.ndarray like)
# PyTorch's layouts of new results (Note [Pointwise output layout], in _inplace.pxi)
cdef bint has_contiguous_strides(cnp.ndarray x) noexcept
cdef void iter_sort_dims(int nd, const cnp.npy_intp *shape, int nops, const cnp.npy_intp *st,
                         int *perm) noexcept
cdef bint dense_in_order(int nd, const cnp.npy_intp *shape, const int *perm,
                         bint empty_as_one, cnp.npy_intp *out) noexcept
cdef void dense_order(cnp.ndarray x, cnp.npy_intp *out) noexcept
cdef object iter_output_strides(tuple shape, list operand_strides)
cdef cnp.ndarray empty_strided(int nd, cnp.npy_intp *dims, const cnp.npy_intp *elem_strides,
                               object np_dtype)
# PyTorch's MemOverlapStatus of two arrays (overlap_status, in _inplace.pxi)
cdef enum:
    OVERLAP_NO = 0
    OVERLAP_FULL = 1
    OVERLAP_PARTIAL = 2
    OVERLAP_TOO_HARD = 3
cdef int overlap_status(cnp.ndarray a, cnp.ndarray b) except -1
cdef bint shares_memory(cnp.ndarray a, cnp.ndarray b) noexcept
cdef int write_values(Tensor t, cnp.ndarray values) except -1
cdef int write_region(Tensor target, cnp.ndarray region, Tensor values, bint advanced,
                      bint accumulate=*) except -1
cdef int rebase_history_through(Tensor view, Node fn, tuple inputs) except -1
cdef cnp.ndarray region_of(Tensor t)
cdef cnp.ndarray region_within(cnp.ndarray view, Tensor within)
cdef int record_as_strided(Tensor result, Tensor input, cnp.ndarray region, tuple size,
                           tuple stride, Py_ssize_t storage_offset, bint inplace) except -1


# ---------------------------------------------------------------- anomaly mode

# autograd.detect_anomaly: nodes record their forward stack, and the engine checks
# every derivative's outputs for NaN (when anomaly_check_nan).
cdef bint anomaly_enabled
cdef bint anomaly_check_nan


# ---------------------------------------------------------------- Tensor methods

cdef int install_methods(dict methods) except -1



cdef inline object fw_sum(object a, object b):
    """auto_element_wise's sum of the inputs' terms (Note [Forward AD])."""
    if b is None:
        return a
    return b if a is None else any_add(a, b)


include "_op_table.pxi"


cdef inline object cj(object x):
    """The conjugate a derivative formula takes (Note [Complex autograd]): x itself for
    a real tensor or a real number (no op, no copy), conj() of a complex tensor (an op:
    recorded under create_graph: the lazy conj view PyTorch's formulas take), else
    computed (conj_physical: no twin per backward, Note [Conjugate and negative views]),
    the conjugate of a Python complex."""
    if isinstance(x, Tensor):
        if cnp.PyArray_ISCOMPLEX((<Tensor>x)._data):
            if recording() and requires_grad_of(<Tensor>x):
                return OPS.conj(<Tensor>x)
            return OPS.conj_physical(<Tensor>x)
        return x
    if PyComplex_Check(x):
        return x.conjugate()
    return x


# ---------------------------------------------------------------- op hook, profiler

# Note [Op hook] (_profiler.pxi): each family fills OPS_HOOKED with its ops' hooked
# twins; the core swaps OPS for it while the profiler or a Python op hook is on. The
# engine checks profiler_enabled once per node.
cdef OpTable OPS_HOOKED
cdef bint profiler_enabled
cdef object op_hook_enter(str name, tuple inputs)
cdef object op_hook_supplied(object event)
cdef int op_hook_exit(object event, object result) except -1
cdef object profiler_enter(str name, tuple inputs)
cdef object profiler_enter_node(Node node, tuple grads, bint evaluate)
cdef int profiler_exit(object record, object result=*) except -1
