"""The hook form of weight normalization (https://arxiv.org/abs/1602.07868), deprecated
in favour of :func:`autograd_core.nn.utils.parametrizations.weight_norm`: the parameter
``<name>`` is replaced by ``<name>_g`` (magnitude) and ``<name>_v`` (direction), and a
forward pre-hook recomputes ``<name>`` from them before every forward.

>>> import warnings
>>> import autograd_core as torch
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     m = torch.nn.utils.weight_norm(torch.nn.Linear(20, 40), name="weight")
>>> m.weight_g.size(), m.weight_v.size()
(autograd_core.Size([40, 1]), autograd_core.Size([40, 20]))
"""
import warnings

import autograd_core as _ag
from autograd_core.nn.parameter import Parameter, UninitializedParameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


class WeightNorm:
    """The forward pre-hook of :func:`weight_norm` (one per normalized parameter)."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _ag._weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        warnings.warn("`autograd_core.nn.utils.weight_norm` is deprecated in favor of "
                      "`autograd_core.nn.utils.parametrizations.weight_norm`.", FutureWarning,
                      stacklevel=2)  # (shown once per process, at weight_norm's call of apply)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError(
                "The module passed to `WeightNorm` can't have uninitialized parameters. Make "
                "sure to run the dummy forward before applying weight normalization")
        # the weight becomes an ordinary attribute, recomputed from g and v by the hook
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(_ag.norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Replace ``module.<name>`` by ``<name>_g`` and ``<name>_v`` with
    ``<name> = g * v / ||v||`` (norms over all dims but dim; ``dim=None``: the whole
    tensor), recomputed by a forward pre-hook.  Deprecated (a FutureWarning): use
    :func:`autograd_core.nn.utils.parametrizations.weight_norm`, which loads these state
    dicts.  Returns module.

    >>> import warnings
    >>> import autograd_core as torch
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    >>> sorted(m.state_dict())
    ['bias', 'weight_g', 'weight_v']
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    """Undo :func:`weight_norm`: ``module.<name>`` is a parameter again, with its current
    value.  Returns module.

    >>> import warnings
    >>> import autograd_core as torch
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    >>> sorted(torch.nn.utils.remove_weight_norm(m).state_dict())
    ['bias', 'weight']
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
