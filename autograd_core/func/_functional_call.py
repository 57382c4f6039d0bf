"""functional_call, stack_module_state and replace_all_batch_norm_modules_: running a
module with parameters and buffers given as dicts, so the function transforms can
differentiate (and vmap over) them.
"""
import contextlib
from collections.abc import Sequence

import autograd_core as _ag


def _names_by_tensor(module, prefix, out):
    """out[id(tensor)]: the names of each parameter and buffer of module's tree, every
    path included (named_parameters and named_buffers with remove_duplicate=False, in one
    walk without their generators: functional_call runs it on every call)."""
    for store in (module._parameters, module._buffers):
        for k, v in store.items():
            if v is not None:
                names = out.get(id(v))
                if names is None:
                    out[id(v)] = {prefix + k}
                else:
                    names.add(prefix + k)
    for k, sub in module._modules.items():
        if sub is not None:
            _names_by_tensor(sub, prefix + k + ".", out)


def _untie(module, tensors):
    """tensors with the names tied to a given name (one Parameter registered under
    several names) filled in; PyTorch's ValueError when tied names get different values."""
    by_tensor = {}
    _names_by_tensor(module, "", by_tensor)
    tied = {}
    for names in by_tensor.values():
        if len(names) > 1:
            for n in names:
                tied[n] = names
    if not tied:
        return dict(tensors)
    given = set(tensors)
    given_tied = {n for n in given if n in tied}
    for n in given_tied:
        names = tied[n]
        if len(names & given_tied) > 1 and len({id(tensors[m]) for m in names
                                                   if m in tensors}) != 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(names)}, "
                             f"which are tied. Consider using tie_weights=False")
    out = dict(tensors)
    for n in given_tied:
        for m in tied[n]:
            out[m] = tensors[n]
    return out


def _owner(module, name):
    path = _PATHS.get(name)
    if path is None:
        if len(_PATHS) > 4096:
            _PATHS.clear()
        path = _PATHS[name] = tuple(name.split("."))
    attr = path[-1]
    for p in path[:-1]:
        # a submodule straight from _modules (getattr would go through Module.__getattr__)
        sub = module.__dict__.get("_modules", _NO_MODULES).get(p)
        module = sub if sub is not None else getattr(module, p)
    return module, attr


_NO_MODULES = {}
_PATHS = {}                  # name -> its dotted path split (names recur on every call)


def _swap(module, name, value):
    """Puts value in place of module's tensor called name; returns the old one
    (or a missing marker)."""
    owner, attr = _owner(module, name)
    for store in (owner.__dict__.get("_parameters"), owner.__dict__.get("_buffers")):
        if store is not None and attr in store:
            old = store[attr]
            if value is _MISSING:
                del store[attr]
            else:
                store[attr] = value
            return old
    old = owner.__dict__.get(attr, _MISSING)
    if value is _MISSING:
        owner.__dict__.pop(attr, None)
    else:
        # a name the module does not have: held as a plain attribute for the call
        object.__setattr__(owner, attr, value)
    return old


_MISSING = object()


@contextlib.contextmanager
def _reparametrize_module(module, tensors, tie_weights=False, strict=False):
    originals = _reparametrize(module, tensors, tie_weights, strict)
    try:
        yield
    finally:
        _restore(module, originals)


def _reparametrize(module, tensors, tie_weights, strict):
    """Puts tensors in place of module's (checked as strict and tie_weights ask); returns
    what _restore puts back."""
    if tie_weights:
        tensors = _untie(module, tensors)
    if strict:
        expected = {n for n, _ in module.named_parameters(remove_duplicate=False)}
        expected |= {n for n, _ in module.named_buffers(remove_duplicate=False)}
        missing = sorted(expected - set(tensors))
        unexpected = sorted(set(tensors) - expected)
        msgs = []
        if unexpected:
            msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if msgs:
            raise RuntimeError("Error(s) in reparametrizing for {}:\n\t{}".format(
                module._get_name(), "\n\t".join(msgs)))
    originals = []
    try:
        for name, value in tensors.items():
            originals.append((name, _swap(module, name, value)))
    except BaseException:
        _restore(module, originals)
        raise
    return originals


def _restore(module, originals):
    for name, old in reversed(originals):
        _swap(module, name, old)


def _functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                     tie_weights=True, strict=False):
    if isinstance(module, _ag.nn.DataParallel):
        raise RuntimeError("The stateless API can't be used with nn.DataParallel module")
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    # (_reparametrize_module's work without its generator: functional_call runs per call
    # of a transformed function)
    originals = _reparametrize(module, parameters_and_buffers, tie_weights, strict)
    try:
        return module(*args, **kwargs)
    finally:
        _restore(module, originals)


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """Calls ``module(*args, **kwargs)`` with its parameters and buffers replaced by the
    tensors of ``parameter_and_buffer_dicts`` (a dict name -> tensor, or a tuple of
    such dicts) for the call; the module is unchanged afterwards. ``tie_weights``:
    a value given for one of several tied names is used for all of them. ``strict``:
    missing or unexpected names are an error.

    >>> import autograd_core as torch
    >>> from autograd_core.func import functional_call
    >>> lin = torch.nn.Linear(2, 1)
    >>> params = {"weight": torch.ones(1, 2), "bias": torch.zeros(1)}
    >>> functional_call(lin, params, (torch.tensor([[1., 2.]]),))
    tensor([[3.]])
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        tensors = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be "
                             "dictionaries")
        counts = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                             f"functional call is ambiguous")
        tensors = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple "
                         f"of dicts, but got {type(parameter_and_buffer_dicts)}")
    return _functional_call(module, tensors, args, kwargs, tie_weights=tie_weights,
                            strict=strict)


def _stacked_leaf(tensors, name):
    all_rg = all(t.requires_grad for t in tensors)
    if not all_rg and any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = _ag.stack(tensors)
    if all_rg:
        result = result.detach().requires_grad_()
    return result


def stack_module_state(models):
    """The parameters and buffers of several modules of one class, each stacked along a
    new first dimension: ``(params, buffers)``, two dicts by name, for running an
    ensemble with ``vmap(functional_call)``.

    >>> import autograd_core as torch
    >>> from autograd_core.func import stack_module_state
    >>> models = [torch.nn.Linear(3, 2) for _ in range(4)]
    >>> params, buffers = stack_module_state(models)
    >>> params["weight"].shape
    autograd_core.Size([4, 2, 3])
    """
    models = list(models)
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    t0 = type(models[0])
    if not all(type(m) is t0 for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    params = {k: _stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {k: _stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers


def _batch_norm_without_running_stats(module):
    if isinstance(module, _ag.nn.modules.batchnorm._BatchNorm) and module.track_running_stats:
        module.running_mean = None
        module.running_var = None
        module.num_batches_tracked = None
        module.track_running_stats = False


def replace_all_batch_norm_modules_(root):
    """Sets, in place, every batch norm module of root to use batch statistics only
    (running_mean and running_var None, track_running_stats False); returns root.

    >>> import autograd_core as torch
    >>> from autograd_core.func import replace_all_batch_norm_modules_
    >>> net = replace_all_batch_norm_modules_(torch.nn.Sequential(torch.nn.BatchNorm1d(3)))
    >>> net[0].running_mean is None, net[0].track_running_stats
    (True, False)
    """
    _batch_norm_without_running_stats(root)
    for m in root.modules():
        _batch_norm_without_running_stats(m)
    return root
