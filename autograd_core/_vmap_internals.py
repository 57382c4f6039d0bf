"""torch._vmap_internals: the first vmap API, which gradcheck's batched checks use
(func/_vmap.py's legacy_vmap). Use autograd_core.vmap instead.

>>> import autograd_core as torch
>>> from autograd_core._vmap_internals import _vmap
>>> _vmap(lambda x: x.sum())(torch.ones(2, 3))
tensor([3., 3.])
"""
import warnings

__all__ = ["vmap"]


def vmap(func, in_dims=0, out_dims=0):
    """Deprecated: autograd_core.vmap.

    >>> import autograd_core as torch
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch._vmap_internals.vmap(torch.neg)(torch.ones(2))
    tensor([-1., -1.])
    """
    warnings.warn("Please use `torch.vmap` instead of `torch._vmap_internals.vmap`.",
                  FutureWarning, stacklevel=2)
    return _vmap(func, in_dims, out_dims)


def _vmap(func, in_dims=0, out_dims=0, allow_none_pass_through=False):
    """vmap without the deprecation warning; allow_none_pass_through lets func return
    None among its outputs (an unused input's autograd.grad)."""
    from autograd_core.func._vmap import legacy_vmap
    return legacy_vmap(func, in_dims, out_dims, allow_none_pass_through)
