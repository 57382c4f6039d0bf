"""autograd_core.nn.parallel: PyTorch's torch.nn.parallel as it behaves on a machine without
accelerators — ``DataParallel`` wraps the module and calls it on the whole batch (PyTorch's own
path when no device is available), so that scripts written for GPUs run unchanged.

>>> import autograd_core as torch
>>> net = torch.nn.DataParallel(torch.nn.Linear(2, 1))
>>> net(torch.ones(3, 2)).shape
autograd_core.Size([3, 1])
>>> list(net.state_dict())
['module.weight', 'module.bias']
"""
from autograd_core.nn.modules.module import Module

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]


class DataParallel(Module):
    """Data parallelism at the module level; without accelerators, the module itself on the
    whole batch, under the name ``module`` (state_dict keys ``module.*`` as in PyTorch)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    """The functional DataParallel; like PyTorch's, it needs an accelerator to choose one."""
    raise RuntimeError("device type could not be determined")


from autograd_core.nn.parallel.distributed import DistributedDataParallel  # noqa: E402
