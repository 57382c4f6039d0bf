"""The hook form of spectral normalization (https://arxiv.org/abs/1802.05957): the
parameter ``<name>`` moves to ``<name>_orig``, the singular vector estimates are the
buffers ``<name>_u`` and ``<name>_v``, and a forward pre-hook sets ``<name>`` to
``<name>_orig / sigma`` before every forward (one power iteration each in training mode).

>>> import autograd_core as torch
>>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(20, 40))
>>> m
Linear(in_features=20, out_features=40, bias=True)
>>> m.weight_u.size()
autograd_core.Size([40])
"""
import autograd_core as _ag
import autograd_core.nn.functional as F

__all__ = ["SpectralNorm", "SpectralNormLoadStateDictPreHook", "SpectralNormStateDictHook",
           "spectral_norm", "remove_spectral_norm"]


class SpectralNorm:
    """The forward pre-hook of :func:`spectral_norm` (one per normalized parameter).

    Version 1 state dicts hold ``<name>_orig``, ``<name>_u`` and ``<name>_v``; version
    0 held ``<name>`` (the normalized weight) instead of ``<name>_v``, from which v is
    solved on loading."""

    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(self.dim,
                                            *[d for d in range(weight_mat.dim()) if d != self.dim])
        height = weight_mat.size(0)
        return weight_mat.reshape(height, -1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with _ag.no_grad():
                # in place (out=): the buffers themselves advance
                for _ in range(self.n_power_iterations):
                    v = F.normalize(_ag.mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(_ag.mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                if self.n_power_iterations > 0:
                    # copies, so that the backward does not see the next iteration's
                    # in-place update
                    u = u.clone(memory_format=_ag.contiguous_format)
                    v = v.clone(memory_format=_ag.contiguous_format)
        sigma = _ag.dot(u, _ag.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module):
        with _ag.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, _ag.nn.Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name,
                self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        # v with u^T W v = target_sigma, from W^T W v = W^T u (a version 0 state dict)
        v = _ag.linalg.multi_dot([weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(),
                                  u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / _ag.dot(u, _ag.mv(weight_mat, v)))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, _ag.nn.parameter.UninitializedParameter):
            raise ValueError(
                "The module passed to `SpectralNorm` can't have uninitialized parameters. Make "
                "sure to run the dummy forward before applying spectral normalization")
        with _ag.no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            # random starting vectors (u then v, from the default generator)
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # a plain attribute until the first forward's hook sets it: weight.data keeps
        # module.<name> readable (and not a second parameter)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Loads version 0 state dicts (with ``<name>``, without ``<name>_v``) into version 1."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs):
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is None or version < 1:
            weight_key = prefix + fn.name
            if version is None and all(weight_key + s in state_dict
                                       for s in ("_orig", "_u", "_v")) \
                    and weight_key not in state_dict:
                # a version 1 state dict whose metadata was lost
                return
            has_missing_keys = False
            for suffix in ("_orig", "", "_u"):
                key = weight_key + suffix
                if key not in state_dict:
                    has_missing_keys = True
                    if strict:
                        missing_keys.append(key)
            if has_missing_keys:
                return
            with _ag.no_grad():
                weight_orig = state_dict[weight_key + "_orig"]
                weight = state_dict.pop(weight_key)
                sigma = (weight_orig / weight).mean()
                weight_mat = fn.reshape_weight_to_matrix(weight_orig)
                u = state_dict[weight_key + "_u"]
                v = fn._solve_v_and_rescale(weight_mat, u, sigma)
                state_dict[weight_key + "_v"] = v


class SpectralNormStateDictHook:
    """Records ``spectral_norm: {"<name>.version": 1}`` in the module's state_dict
    metadata."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata):
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Spectral normalization through a forward pre-hook: before each forward
    ``module.<name>`` is set to ``<name>_orig / sigma``, sigma the largest singular value
    of ``<name>_orig`` (reshaped to a matrix with ``dim`` as rows: 0, or 1 for
    ConvTranspose) estimated by ``n_power_iterations`` power-iteration steps in training
    mode.  The newer :func:`autograd_core.nn.utils.parametrizations.spectral_norm` is the
    parametrization form.  Returns module.

    >>> import autograd_core as torch
    >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2))
    >>> sorted(m.state_dict())
    ['bias', 'weight_orig', 'weight_u', 'weight_v']
    """
    if dim is None:
        dim = 1 if isinstance(module, (_ag.nn.ConvTranspose1d, _ag.nn.ConvTranspose2d,
                                       _ag.nn.ConvTranspose3d)) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    """Undo :func:`spectral_norm`: ``module.<name>`` becomes a parameter holding the
    current normalized weight (no further power iteration).  Returns module.

    >>> import autograd_core as torch
    >>> m = torch.nn.utils.remove_spectral_norm(torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2)))
    >>> sorted(m.state_dict())
    ['bias', 'weight']
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for k, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
            break
    # the load pre-hook is stored wrapped (_WrappedHook), so this finds nothing and it
    # stays registered: PyTorch's behaviour, kept
    for k, hook in module._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del module._load_state_dict_pre_hooks[k]
            break
    return module
