"""DistributedDataParallel over ``autograd_core.distributed`` (MPI).

Note [DDP buckets]
~~~~~~~~~~~~~~~~~~
The parameters that require gradients are packed, in reverse registration order (about
the order backward produces their gradients), into buckets of at most ``bucket_cap_mb``
megabytes of one dtype. A post-accumulate-grad hook on each parameter marks it ready;
when every parameter of a bucket is ready its gradients are copied into the bucket's
flat buffer and a non-blocking all_reduce starts on it, while backward goes on with
the rest of the graph. Buckets are launched strictly in index order (a ready bucket
waits for the ones before it), so that every rank issues the same MPI calls in the same
order. A callback queued on the engine at the first hook runs after the backward pass:
it launches what is left (parameters no rank used, with ``find_unused_parameters``),
waits for every bucket and writes the averaged gradients (sum / world size) back into
``.grad``. Under ``no_sync()`` the hooks do nothing and gradients accumulate locally;
the next synchronised backward averages the accumulated gradients.
"""
import contextlib

import numpy as np

import autograd_core.futures  # noqa: F401  (torch.futures, what comm hooks return)
from autograd_core._core.tensor import array_of as _array_of
from autograd_core.nn.modules.module import Module

__all__ = ["DistributedDataParallel"]


class _Bucket:
    def __init__(self, params):
        self.params = params
        self.offsets = np.cumsum([0] + [p.numel() for p in params]).tolist()
        self.buffer = None
        self.work = None
        self.future = None
        self.view_buffer = None   # gradient_as_bucket_view: the grads' storage
        self.ready = set()


class DistributedDataParallel(Module):
    """Data parallelism across the ranks of a process group: each rank runs ``module`` on
    its shard of the batch; backward averages the gradients over the ranks (in buckets,
    overlapping communication with the rest of backward, Note [DDP buckets]), so every
    rank takes the same optimizer step. The parameters and buffers are broadcast from
    rank 0 at construction; ``broadcast_buffers`` does so again before every forward.
    ``state_dict`` keys carry the ``module.`` prefix, as in PyTorch.

    With ``gradient_as_bucket_view=True`` each parameter's ``.grad`` is, after the first
    synchronised backward, a view into its bucket's flat buffer (kept from one iteration
    to the next, as in PyTorch), so no second copy of the gradients is kept.
    ``static_graph`` is accepted and changes nothing: buckets are launched from the
    gradient hooks whatever the graph, so it enables no graph-specific optimisation.

    >>> import autograd_core as torch
    >>> import autograd_core.distributed as dist
    >>> dist.init_process_group("mpi")  # doctest: +SKIP
    >>> ddp = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 1))  # doctest: +SKIP
    >>> ddp(torch.ones(3, 2)).sum().backward()  # doctest: +SKIP
    >>> list(ddp.state_dict())  # doctest: +SKIP
    ['module.weight', 'module.bias']
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0,
                 broadcast_buffers=True, init_sync=True, process_group=None,
                 bucket_cap_mb=None, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False, **kwargs):
        super().__init__()
        from autograd_core import distributed as dist
        from autograd_core.distributed.distributed_c10d import _world
        self.process_group = _world() if process_group is None else process_group
        self.module = module
        self.device_ids = None
        self.output_device = None
        self.dim = dim
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.static_graph = static_graph
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self.bucket_bytes_cap = int((25 if bucket_cap_mb is None else bucket_cap_mb)
                                    * 1024 * 1024)
        self._dist = dist
        self._src = dist.get_global_rank(self.process_group, 0)
        if init_sync:
            self._sync_module_states(list(module.parameters()) + list(module.buffers()))
        params = [p for p in module.parameters() if p.requires_grad]
        self._buckets = self._make_buckets(params)
        self._bucket_of = {}
        for i, b in enumerate(self._buckets):
            for p in b.params:
                self._bucket_of[id(p)] = i
        self._handles = [p.register_post_accumulate_grad_hook(self._on_grad_ready)
                         for p in params]
        self._reset()
        self._unfinished = False
        self._comm_hook = None

    # ---------------------------------------------------------------- setup

    def _sync_module_states(self, tensors):
        from autograd_core import no_grad
        with no_grad():
            for t in tensors:
                self._dist.broadcast(t.data if t.requires_grad else t, src=self._src,
                                     group=self.process_group)

    def _make_buckets(self, params):
        buckets, current, size, dtype = [], [], 0, None
        for p in reversed(params):
            nbytes = p.numel() * p.element_size()
            if current and (p.dtype != dtype or size + nbytes > self.bucket_bytes_cap):
                buckets.append(_Bucket(current))
                current, size = [], 0
            current.insert(0, p)   # registration order inside a bucket, as PyTorch's
            size += nbytes
            dtype = p.dtype
        if current:
            buckets.append(_Bucket(current))
        return buckets

    def _reset(self):
        self._next = 0
        self._unused = set()
        self._callback_queued = False
        for b in self._buckets:
            b.ready = set()
            b.work = None
            b.future = None
            b.buffer = None

    # ---------------------------------------------------------------- backward

    def _on_grad_ready(self, param):
        if not self.require_backward_grad_sync:
            return
        if not self._callback_queued:
            from autograd_core.autograd.variable import Variable
            self._callback_queued = True
            Variable._execution_engine.queue_callback(self._finish)
        bucket = self._buckets[self._bucket_of[id(param)]]
        bucket.ready.add(id(param))
        self._launch_ready()

    def _launch(self, bucket, used=None):
        import autograd_core as ag
        first = bucket.params[0]
        if self.gradient_as_bucket_view and bucket.view_buffer is not None:
            # the grads may already be views of it: the copy below is then onto itself
            bucket.buffer = bucket.view_buffer
            flat = _array_of(bucket.buffer)
        else:
            flat = np.zeros(bucket.offsets[-1], dtype=_array_of(first).dtype)
        for p, lo, hi in zip(bucket.params, bucket.offsets, bucket.offsets[1:]):
            if p.grad is not None:
                flat[lo:hi] = _array_of(p.grad).reshape(-1)
            elif self.gradient_as_bucket_view:
                flat[lo:hi] = 0
        if bucket.buffer is None:
            bucket.buffer = ag.from_numpy(flat) if flat.dtype.name != "bfloat16" \
                else ag.tensor(flat.astype(np.float32)).to(first.dtype)
        if self.gradient_as_bucket_view and bucket.view_buffer is None:
            bucket.view_buffer = bucket.buffer
        if self._comm_hook is not None:
            state, hook = self._comm_hook
            index = self._buckets.index(bucket)
            grad_bucket = self._dist.GradBucket(index, bucket.buffer, bucket.offsets,
                                                bucket.params,
                                                index == len(self._buckets) - 1)
            bucket.future = hook(state, grad_bucket)
            return
        bucket.work = self._dist.all_reduce(bucket.buffer, group=self.process_group,
                                            async_op=True)

    def _launch_ready(self):
        while self._next < len(self._buckets):
            b = self._buckets[self._next]
            if len(b.ready) < len(b.params):
                return
            self._launch(b)
            self._next += 1

    def register_comm_hook(self, state, hook):
        """Replace the bucket all_reduce by ``hook(state, bucket)``: it receives a
        ``torch.distributed.GradBucket`` and returns a ``torch.futures.Future`` whose
        value is the bucket's flat tensor of averaged gradients, which DDP writes into
        ``.grad`` (no further division). Can be called once. PyTorch's default hooks are
        in ``torch.distributed.algorithms.ddp_comm_hooks.default_hooks``.

        >>> from autograd_core.distributed.algorithms.ddp_comm_hooks import default_hooks
        >>> ddp.register_comm_hook(None, default_hooks.allreduce_hook)  # doctest: +SKIP
        """
        if not callable(hook):
            raise TypeError("Communication hook must be callable.")
        import inspect
        from autograd_core.futures import Future
        try:
            sig = inspect.signature(hook)
        except (TypeError, ValueError):
            sig = None
        if sig is not None:
            ann = sig.parameters["bucket"].annotation if "bucket" in sig.parameters \
                else inspect.Parameter.empty
            if ann is not inspect.Parameter.empty and ann is not self._dist.GradBucket:
                raise ValueError(
                    "Communication hook: bucket annotation should be dist.GradBucket.")
            if sig.return_annotation is not inspect.Signature.empty and \
                    sig.return_annotation is not Future:
                raise ValueError("Communication hook: return annotation should be "
                                 "torch.futures.Future[torch.Tensor].")
        if getattr(hook, "__name__", None) in ("bf16_compress_hook",
                                               "bf16_compress_wrapper_hook"):
            # PyTorch's DDP runs the bfloat16 hooks only over NCCL or XCCL
            raise TypeError("BF16 all reduce communication hook required CUDA 11+ and "
                            "NCCL 2.10+ or XPU and XCCL")
        if self._comm_hook is not None:
            raise RuntimeError(
                "register_comm_hook or register_builtin_comm_hook can only be called once.")
        self._comm_hook = (state, hook)

    def _finish(self):
        missing = [p for b in self._buckets[self._next:] for p in b.params
                   if id(p) not in b.ready]
        if missing:
            # the other ranks wait for these buckets: PyTorch's error at the next forward
            self._unfinished = True
            return
        import autograd_core as ag
        while self._next < len(self._buckets):
            self._launch(self._buckets[self._next])
            self._next += 1
        used = None
        if self.find_unused_parameters:
            # after every bucket, so that all ranks issue the same calls in the same order
            flags = ag.tensor([0 if id(p) in self._unused else 1 for b in self._buckets
                               for p in b.params], dtype=ag.int32)
            self._dist.all_reduce(flags, op=self._dist.ReduceOp.MAX, group=self.process_group)
            used = flags.tolist()
        world = self._dist.get_world_size(self.process_group)
        k = 0
        for b in self._buckets:
            if b.future is not None:
                # the hook's value is the averaged bucket (its dtype may differ)
                avg = _array_of(b.future.wait()).reshape(-1).astype(
                    _array_of(b.buffer).dtype)
                scale = 1
            else:
                b.work.wait()
                avg = _array_of(b.buffer).reshape(-1)
                scale = world
            for p, lo, hi in zip(b.params, b.offsets, b.offsets[1:]):
                globally_used = used is None or used[k]
                k += 1
                if not globally_used:
                    continue
                values = (avg[lo:hi] / scale).reshape(tuple(p.shape)).astype(avg.dtype)
                if b.view_buffer is not None:
                    view = b.view_buffer[lo:hi].view(tuple(p.shape))
                    np.copyto(_array_of(view), values)
                    if p.grad is None or p.grad.data_ptr() != view.data_ptr():
                        p.grad = view
                    continue
                if p.grad is None:
                    p.grad = ag.from_numpy(values.copy())
                else:
                    np.copyto(_array_of(p.grad), values)
        self._reset()

    # ---------------------------------------------------------------- forward

    def forward(self, *inputs, **kwargs):
        if self._unfinished:
            raise RuntimeError(
                "Expected to have finished reduction in the prior iteration before starting "
                "a new one. This error indicates that your module has parameters that were "
                "not used in producing loss. You can enable unused parameter detection by "
                "passing the keyword argument `find_unused_parameters=True` to "
                "`torch.nn.parallel.DistributedDataParallel`.")
        self._reset()
        if self.broadcast_buffers and self.require_forward_param_sync:
            buffers = list(self.module.buffers())
            if buffers:
                self._sync_module_states(buffers)
        out = self.module(*inputs, **kwargs)
        if self.find_unused_parameters and self.require_backward_grad_sync:
            self._mark_unused(out)
        return out

    def _mark_unused(self, out):
        # Parameters the output's graph does not reach get no gradient this iteration:
        # ready from the start (they contribute zeros), so their buckets are not held up.
        from autograd_core.utils._pytree import tree_leaves
        from autograd_core._core.tensor import Tensor
        seen, reached = set(), set()
        stack = [t.grad_fn for t in tree_leaves(out) if isinstance(t, Tensor) and
                 t.grad_fn is not None]
        while stack:
            node = stack.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            var = getattr(node, "variable", None)
            if var is not None:
                reached.add(id(var))
            stack.extend(fn for fn, _ in node.next_functions)
        for b in self._buckets:
            for p in b.params:
                if id(p) not in reached:
                    self._unused.add(id(p))
                    b.ready.add(id(p))

    @contextlib.contextmanager
    def no_sync(self):
        """Within it, backward accumulates gradients locally without averaging them; the
        first synchronised backward afterwards averages the accumulated gradients."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old
