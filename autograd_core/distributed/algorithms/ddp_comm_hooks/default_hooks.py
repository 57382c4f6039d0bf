"""PyTorch's default DDP communication hooks. Each takes the process group (``None``: the
world) as its state and a ``GradBucket``, and returns a future of the averaged bucket.

>>> from autograd_core.distributed.algorithms.ddp_comm_hooks import default_hooks
>>> ddp.register_comm_hook(None, default_hooks.fp16_compress_hook)  # doctest: +SKIP
"""
import autograd_core as torch
from autograd_core.distributed import distributed_c10d as dist

__all__ = ["allreduce_hook", "fp16_compress_hook", "bf16_compress_hook",
           "fp16_compress_wrapper", "bf16_compress_wrapper"]


def _group(process_group):
    return dist._world() if process_group is None else process_group


def _allreduce_fut(process_group, tensor):
    group = _group(process_group)
    tensor.div_(dist.get_world_size(group))
    return dist.all_reduce(tensor, group=group, async_op=True).get_future().then(
        lambda fut: fut.value()[0])


def allreduce_hook(process_group, bucket):
    """Average the bucket over the ranks (divide by the world size, then all_reduce):
    the same gradients as DDP without a hook."""
    return _allreduce_fut(process_group, bucket.buffer())


def _compress_hook(dtype, process_group, bucket):
    group = _group(process_group)
    buffer = bucket[0] if isinstance(bucket, tuple) else bucket.buffer()
    # rounded to ``dtype`` before the division, divided and summed in ``dtype``
    compressed = buffer.to(dtype).div_(dist.get_world_size(group))

    def decompress(fut):
        value = fut if isinstance(fut, torch.Tensor) else fut.value()[0]
        buffer.copy_(value)
        return buffer

    return dist.all_reduce(compressed, group=group, async_op=True).get_future().then(
        decompress)


def fp16_compress_hook(process_group, bucket):
    """Cast the bucket to float16, divide it by the world size, all_reduce it in float16
    and cast the sum back into the bucket's dtype."""
    return _compress_hook(torch.float16, process_group, bucket)


def bf16_compress_hook(process_group, bucket):
    """As ``fp16_compress_hook`` in bfloat16. PyTorch's DDP accepts it only with CUDA and
    NCCL (or XPU and XCCL): ``register_comm_hook`` refuses it here, as PyTorch's CPU
    build does."""
    return _compress_hook(torch.bfloat16, process_group, bucket)


def _compress_wrapper(dtype, hook):
    def wrapper_hook(hook_state, bucket):
        bucket.set_buffer(bucket.buffer().to(dtype))
        fut = hook(hook_state, bucket)

        def decompress(fut):
            decompressed = bucket.buffer()
            decompressed.copy_(fut.value())
            return decompressed

        return fut.then(decompress)

    return wrapper_hook


def fp16_compress_wrapper(hook):
    """Wrap ``hook`` so that it runs on the bucket cast to float16 and its result is cast
    back: ``fp16_compress_wrapper(allreduce_hook)`` is ``fp16_compress_hook``."""
    w = _compress_wrapper(torch.float16, hook)
    w.__name__ = w.__qualname__ = "fp16_compress_wrapper_hook"
    return w


def bf16_compress_wrapper(hook):
    """As ``fp16_compress_wrapper`` in bfloat16 (refused by ``register_comm_hook`` here, as
    in PyTorch's CPU build)."""
    w = _compress_wrapper(torch.bfloat16, hook)
    w.__name__ = w.__qualname__ = "bf16_compress_wrapper_hook"
    return w
