"""DDP communication hooks (``DistributedDataParallel.register_comm_hook``):
``default_hooks`` holds PyTorch's ``allreduce_hook``, ``fp16_compress_hook`` and
``bf16_compress_hook``."""
from autograd_core.distributed.algorithms.ddp_comm_hooks import default_hooks  # noqa: F401
