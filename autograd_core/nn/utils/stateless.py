"""``torch.nn.utils.stateless``: the deprecated spelling of torch.func.functional_call."""
import warnings

__all__ = ["functional_call"]


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """Deprecated: :func:`autograd_core.func.functional_call` (same arguments, one dict).

    >>> import warnings
    >>> import autograd_core as torch
    >>> lin = torch.nn.Linear(1, 1)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.nn.utils.stateless.functional_call(
    ...         lin, {"weight": torch.ones(1, 1), "bias": torch.ones(1)}, torch.ones(1, 1))
    tensor([[2.]])
    """
    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
        "and will be removed in a future version of PyTorch. "
        "Please use `torch.func.functional_call` instead which is a drop-in replacement.",
        FutureWarning, stacklevel=2)
    from autograd_core.func._functional_call import _functional_call
    return _functional_call(module, parameters_and_buffers, args, kwargs,
                            tie_weights=tie_weights, strict=strict)
