# The C-level layout of autograd_core's core types. Every field is documented here;
# the implementations live in _C.pyx and the .pxi files it includes.
cimport numpy as cnp
from libc.stdint cimport uint64_t


cdef class dtype:
    cdef readonly str name           # PyTorch's name without the module: "float32"
    cdef readonly object np_dtype    # the numpy dtype that stores it
    cdef readonly bint is_floating_point
    cdef readonly bint is_signed
    cdef readonly int itemsize
    cdef int rank                    # position in the promotion lattice (see _promote)
    cdef int category                # 0 bool, 1 integer, 2 floating point


cdef class VersionCounter:
    # Shared by a tensor, its views and detach()ed aliases; bumped by every in-place
    # op on any of them. A saved tensor records it and is checked against it when
    # backward unpacks it (Note [Saved tensor versions] in _node.pxi).
    cdef public long version


cdef class Node:
    # One recorded op: the grad_fn of its outputs.
    cdef tuple next_nodes        # per forward input: the Node its gradient flows to, or None
    cdef tuple next_nrs          # per forward input: that node's output index; None = all 0
    cdef tuple input_shapes      # per forward input: its shape when the op broadcast it
                                 # (the engine sums the gradient back to it), else None
    cdef uint64_t seq            # creation order (sequence_nr); the engine runs the newest first
    cdef bint released           # saved state freed by a backward without retain_graph
    cdef list pre_hooks          # callables run on the incoming gradients (issue: hooks)
    cdef list post_hooks         # callables run on (grad_inputs, grad_outputs)
    cdef dict retained           # output_nr -> weakref of a non-leaf output with retain_grad()
    cdef dict meta               # Node.metadata; under detect_anomaly also 'traceback_'
    cdef object __weakref__

    cdef tuple apply(self, tuple grads)
    cdef void release_saved(self)
    cdef int num_outputs(self)


cdef class Tensor:
    cdef cnp.ndarray _data       # the values; dtype is always one of the supported dtypes
    cdef bint _requires_grad     # for a non-leaf always True (it has a grad_fn)
    cdef Node _grad_fn           # the node that produced it; None exactly for leaves
    cdef int _output_nr          # which output of _grad_fn it is
    cdef Tensor _grad            # accumulated gradient (leaves, or retain_grad())
    cdef VersionCounter _vc      # created lazily; shared with views (see VersionCounter)
    cdef object _accumulator     # weakref to this leaf's AccumulateGrad node, or None
    cdef bint _retains_grad      # retain_grad() was called on this non-leaf
    cdef Tensor _base            # the tensor this is a view of, or None
    cdef list _hooks             # gradient hooks registered on a leaf
    cdef list _post_acc_hooks    # register_post_accumulate_grad_hook callables (leaves)
    cdef bint _inference         # created inside inference_mode()
    cdef object __weakref__

    cdef _set_requires_grad(self, bint value, str msg)
