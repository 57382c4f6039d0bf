"""torch.func.functionalize in eager mode.

PyTorch's functionalize runs func on functional wrappers of its inputs: every
in-place op on them becomes its out-of-place twin, and at the end the inputs that
"should have" been mutated get the new values copied back. Without a tracer the only
observable effects are the values: func's outputs, and its inputs mutated as func
mutates them, with the copy back recorded by autograd (PyTorch's CopyBackwards on a
non-leaf input; a leaf that requires grad refuses the write, as it does in PyTorch).
Here func runs on clones of its tensor inputs (so nothing func does touches the
caller's tensors while it runs, and the outputs never alias an input); an input whose
clone's version counter moved, through the clone or any view of it, gets the clone's
value copied back once func has returned.
"""
import functools

import autograd_core as _ag
from autograd_core.utils._pytree import tree_flatten, tree_map, tree_unflatten

_REMOVE_ERROR = (
    "functionalize(f, remove='mutations'): received invalid argument for remove={}."
    " Valid options are:\n"
    "     remove='mutations': all inplace and out= operators will be removed from the "
    "program, and replaced with their out-of-place equivalents.\n"
    "     remove='mutations_and_views': In addition to the above, all aliasing operators "
    "{{view}} will be replaced with their non-aliasing counterparts, {{view}}_copy.\n")


def functionalize(func, *, remove="mutations"):
    """A function computing what func computes, with the mutations of its inputs
    applied to them once func has returned (torch.func.functionalize). Intermediate
    mutations and aliasing are not observable in eager mode; with
    ``remove="mutations_and_views"`` no output is a view either. Composes with grad,
    vmap, jacrev (e.g. ``jacrev(functionalize(f))``).

    >>> import autograd_core as torch
    >>> from autograd_core.func import functionalize
    >>> def f(a):
    ...     b = a.view(-1)
    ...     b.add_(1)
    ...     return a * 2
    >>> x = torch.zeros(2, 2)
    >>> functionalize(f)(x)
    tensor([[2., 2.],
            [2., 2.]])
    >>> x
    tensor([[1., 1.],
            [1., 1.]])
    """
    if remove == "mutations":
        reapply_views = True
    elif remove == "mutations_and_views":
        reapply_views = False
    else:
        raise RuntimeError(_REMOVE_ERROR.format(remove))

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        flat, spec = tree_flatten((args, kwargs))
        copies = [a.clone() if isinstance(a, _ag.Tensor) else a for a in flat]
        versions = [c._version if isinstance(c, _ag.Tensor) else None for c in copies]
        f_args, f_kwargs = tree_unflatten(copies, spec)
        outputs = func(*f_args, **f_kwargs)
        if not reapply_views:
            # PyTorch's view_copy ops: an output owns its memory
            outputs = tree_map(lambda o: o.clone() if isinstance(o, _ag.Tensor)
                               and o._base is not None else o, outputs)
        for orig, copy, version in zip(flat, copies, versions):
            if version is not None and copy._version != version:
                orig.copy_(copy)
        return outputs

    return wrapped
