"""``torch.nn.utils.skip_init``: build a module without initialising its parameters."""
import inspect

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """Instantiate ``module_cls(*args, **kwargs)`` with its parameters and buffers left
    uninitialised (as ``torch.empty`` leaves memory), for code that initialises them
    itself.  The class must take a ``device`` argument, as PyTorch requires.

    PyTorch builds the module on the meta device, where initialisation draws no random
    numbers; here there is no meta device, so the module is built on the CPU with the
    generator's state restored afterwards: the default generator is left as PyTorch
    leaves it, and the parameters are then replaced by uninitialised ones.

    >>> import autograd_core as torch
    >>> m = torch.nn.utils.skip_init(torch.nn.Linear, 5, 1)
    >>> m.weight.shape, m.weight.requires_grad
    (autograd_core.Size([1, 5]), True)
    """
    from autograd_core import nn, random
    if not issubclass(module_cls, nn.Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    with random.fork_rng():
        module = module_cls(*args, **kwargs)
    return module.to_empty(device=final_device)
