"""``torch.nn.utils.memory_format``: lay out the weights of the convolutions in a model
as ``memory_format`` asks (channels last: the channel dim has stride 1), recursively.
Values and shapes do not change; strides are PyTorch's.

>>> import autograd_core as torch
>>> m = torch.nn.Sequential(torch.nn.Conv2d(2, 4, 3))
>>> _ = torch.nn.utils.convert_conv2d_weight_memory_format(m, torch.channels_last)
>>> m[0].weight.stride()
(18, 1, 6, 2)
"""
__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _laid_out(w, memory_format):
    """A copy of w laid out as memory_format with PyTorch's strides, also for dims of
    size 1 (a fresh array in the format's dim order, permuted back to w's dims)."""
    import autograd_core as _ag
    order = {_ag.channels_last: (0, 2, 3, 1), _ag.channels_last_3d: (0, 2, 3, 4, 1),
             _ag.contiguous_format: tuple(range(w.dim()))}.get(memory_format)
    if order is None or len(order) != w.dim():
        # other formats and ranks: PyTorch's own route (and its errors)
        data = w.clone(memory_format=memory_format)
        return data.resize_(data.size(), memory_format=memory_format)
    inverse = sorted(range(len(order)), key=order.__getitem__)
    out = _ag.empty([w.shape[d] for d in order], dtype=w.dtype).permute(inverse)
    return out.copy_(w)


def _convert(module, memory_format, kinds):
    if isinstance(module, kinds):
        module.weight.data = _laid_out(module.weight.detach(), memory_format)
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    """Give the weight of every ``nn.Conv2d`` and ``nn.ConvTranspose2d`` in ``module``
    (itself included) the layout ``memory_format`` (``torch.channels_last`` or
    ``torch.contiguous_format``); returns ``module``.

    >>> import autograd_core as torch
    >>> c = torch.nn.utils.convert_conv2d_weight_memory_format(torch.nn.Conv2d(2, 4, 3),
    ...                                                         torch.channels_last)
    >>> c.weight.is_contiguous(memory_format=torch.channels_last)
    True
    """
    from autograd_core import nn
    return _convert(module, memory_format, (nn.Conv2d, nn.ConvTranspose2d))


def convert_conv3d_weight_memory_format(module, memory_format):
    """Give the weight of every ``nn.Conv3d`` and ``nn.ConvTranspose3d`` in ``module``
    (itself included) the layout ``memory_format`` (``torch.channels_last_3d`` or
    ``torch.contiguous_format``); returns ``module``.

    >>> import autograd_core as torch
    >>> c = torch.nn.utils.convert_conv3d_weight_memory_format(torch.nn.Conv3d(2, 4, 1),
    ...                                                         torch.channels_last_3d)
    >>> c.weight.stride()
    (2, 1, 2, 2, 2)
    """
    from autograd_core import nn
    return _convert(module, memory_format, (nn.Conv3d, nn.ConvTranspose3d))
