"""The Optimizer base class: parameter groups, per-parameter state, hooks and the
state_dict layout of PyTorch 2.13's ``torch.optim.Optimizer``.

Every algorithm follows PyTorch's single-tensor (``foreach=False``) implementation, written
with autograd_core's public tensor ops; ``foreach``/``fused`` are accepted and recorded in the
param groups (so state_dicts have PyTorch's keys) but always run the single-tensor path.
"""
from __future__ import annotations
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autograd_core._core.tensor import Tensor

    # what an optimizer takes as params (PyTorch's ParamsT): tensors, (name, tensor) pairs
    # or param-group dicts
    ParamsT = Iterable[Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, Tensor]]

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain

import autograd_core as _ag
from autograd_core.nn.modules.module import _zero_grads
from autograd_core.utils.hooks import RemovableHandle, _add_hook  # noqa: F401
from autograd_core._legacy import LEGACY_NAMES as _LEGACY_NAMES

_LEGACY_CLASS_OF = {d: n for n, d in _LEGACY_NAMES.items()}   # "float32": "FloatTensor"

__all__ = ["Optimizer", "register_optimizer_step_pre_hook",
           "register_optimizer_step_post_hook"]

_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj):
    if isinstance(obj, _ag.Tensor):
        return "autograd_core." + _LEGACY_CLASS_OF.get(obj.dtype.name, "Tensor")
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("builtins", "__builtin__", None) else module + "." + name


def _use_grad_for_differentiable(func):
    """Run ``step`` with grad mode set to the optimizer's ``differentiable`` flag."""

    @functools.wraps(func)
    def _use_grad(self, *args, **kwargs):
        prev = _ag.is_grad_enabled()
        try:
            _ag.set_grad_enabled(bool(self.defaults.get("differentiable", False)))
            return func(self, *args, **kwargs)
        finally:
            _ag.set_grad_enabled(prev)

    return _use_grad


def _get_value(x):
    return x.item() if isinstance(x, _ag.Tensor) else x


def _real_views(param, *tensors):
    """param and its state tensors as real views when param is complex.

    Note [complex parameters in optimizers]: PyTorch's optimizers treat a complex
    parameter as two real parameters (its real and imaginary parts): every
    element-wise state update (squared gradients, maxima, signs, square roots) runs
    on view_as_real of the parameter, its gradient and its state, so Adam's second
    moment holds re(g)**2 and im(g)**2, not g*g.  The views write through to the
    complex tensors.  SGD needs none of this (its update is linear).  None stays
    None (an absent optional state)."""
    if not param.is_complex():
        return (param,) + tensors
    return tuple(None if t is None else _ag.view_as_real(t) for t in (param,) + tensors)


def _get_scalar_dtype(is_fused=None):
    if is_fused:
        return _ag.float32
    return _ag.float64 if _ag.get_default_dtype() == _ag.float64 else _ag.float32


def _to_scalar(x):
    """A 1-element hyperparameter tensor squeezed to 0-d; anything else unchanged."""
    if isinstance(x, _ag.Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _check_capturable(capturable, supports_xla=True):
    """PyTorch's capturable path needs an accelerator; on CPU it raises this."""
    if capturable:
        devices = ["cuda", "xpu", "hpu", "privateuseone"] + (["xla"] if supports_xla else [])
        raise AssertionError(
            "If capturable=True, params and state_steps must be on supported devices: "
            f"{devices}.")


def _check_fused(p):
    """``fused=True`` runs the single-tensor algorithm here (same results up to rounding);
    PyTorch's requirement on the parameters is kept."""
    if not p.is_floating_point():
        raise RuntimeError(
            "`fused=True` requires all the params to be floating point Tensors of supported "
            "devices: ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone'] but "
            f"{p.dtype} and cpu".replace("autograd_core.", "torch."))


def _check_lr(lr):
    """PyTorch's learning-rate checks: a Tensor lr has one element, and lr >= 0."""
    if isinstance(lr, _ag.Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_nonnegative(**options):
    """PyTorch's 'Invalid <option> value' checks (each option >= 0), in the order given."""
    for name, value in options.items():
        if not 0.0 <= value:
            raise ValueError(f"Invalid {'epsilon' if name == 'eps' else name} value: {value}")


def _check_adam_args(lr, betas, eps, weight_decay):
    """The constructor checks of Adam, Adamax, NAdam and RAdam, in PyTorch's order."""
    _check_lr(lr)
    _check_nonnegative(eps=eps)
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    _check_nonnegative(weight_decay=weight_decay)


def _check_fused_options(fused, differentiable, foreach):
    """What ``fused=True`` excludes (checked after the param groups are built)."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _closure_loss(closure):
    """The loss ``closure`` re-evaluates, with grad mode on (None without a closure)."""
    if closure is None:
        return None
    with _ag.enable_grad():
        return closure()


def register_optimizer_step_pre_hook(hook):
    """Register a pre hook common to all optimizers: ``hook(optimizer, args, kwargs)``
    returning None or modified ``(args, kwargs)``."""
    return _add_hook(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    """Register a post hook common to all optimizers: ``hook(optimizer, args, kwargs)``."""
    return _add_hook(_global_optimizer_post_hooks, hook)


class Optimizer:
    r"""Base class for all optimizers.

    Args:
        params (iterable): an iterable of Tensors, of ``(name, Tensor)`` pairs, or of dicts
            (parameter groups). Specifies what Tensors should be optimized.
        defaults (dict): default values of the optimization options (used when a parameter
            group doesn't specify them).
    """

    # Filled in by the algorithms: the options a param group from an older state dict may
    # lack, with their defaults (set in this order), and the per-parameter state entries
    # such a state may hold as Python numbers (made scalar tensors of _step_dtype).
    _group_defaults = {}
    _scalar_state = ()

    def __init__(self, params: ParamsT, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        self._patch_step_function()

        if isinstance(params, _ag.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + _typename(params))

        self.state = defaultdict(dict)
        self.param_groups = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)
        self._warned_capturable_if_run_uncaptured = True

    # ------------------------------------------------------------------ pickling / repr
    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                     "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:
            for key, value in self._group_defaults.items():
                group.setdefault(key, value)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) == 0:
                    continue
                for key in self._scalar_state:
                    if not _ag.is_tensor(p_state[key]):
                        p_state[key] = _ag.tensor(float(p_state[key]),
                                                  dtype=self._step_dtype(group))

    @staticmethod
    def _step_dtype(group):
        """The dtype of the scalar state (step and the like) of a param of ``group``."""
        return _get_scalar_dtype()

    # PyTorch's error for a sparse gradient, in the algorithms that refuse one (None: the
    # algorithm takes sparse gradients, or has its own check)
    _sparse_grad_message = None

    def _check_dense_grad(self, p):
        if self._sparse_grad_message is not None and p.grad.is_sparse:
            raise RuntimeError(self._sparse_grad_message)

    def _params_and_state(self, group, *keys):
        """PyTorch's ``_init_group`` of the algorithms whose state is a fixed set of entries:
        the params of ``group`` that have a gradient, their gradients, and for each of
        ``keys`` the list of that state entry (an empty list for a key None: an entry the
        group does not use); a param's state is ``_new_state(param, group)`` (a dict, in
        PyTorch's order) at its first step."""
        params, grads = [], []
        entries = [[] for _ in keys]
        for p in group["params"]:
            if p.grad is None:
                continue
            self._check_dense_grad(p)
            params.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state.update(self._new_state(p, group))
            for entry, key in zip(entries, keys):
                if key is not None:
                    entry.append(state[key])
        return (params, grads, *entries)

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    # ------------------------------------------------------------------ step hooks
    @staticmethod
    def profile_hook_step(func):
        """Wrap ``step`` so the global and per-instance step pre/post hooks run around it."""

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self = args[0]
            for pre_hook in chain(_global_optimizer_pre_hooks.values(),
                                  self._optimizer_step_pre_hooks.values()):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(f"{func} must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {result}.")
            out = func(*args, **kwargs)
            self._optimizer_step_code()
            for post_hook in chain(self._optimizer_step_post_hooks.values(),
                                   _global_optimizer_post_hooks.values()):
                post_hook(self, args, kwargs)
            return out

        return wrapper

    def _optimizer_step_code(self):
        """Called after every ``step`` (PyTorch's profiler entry point); does nothing."""

    def _patch_step_function(self):
        self._zero_grad_profile_name = (
            f"Optimizer.zero_grad#{self.__class__.__name__}.zero_grad")
        hooked = getattr(self.__class__.step, "hooked", None)
        if not hooked:
            self.__class__.step = self.profile_hook_step(self.__class__.step)
            self.__class__.step.hooked = True

    def _accelerator_graph_capture_health_check(self):
        """No accelerators here: nothing to check."""

    def register_step_pre_hook(self, hook):
        """``hook(optimizer, args, kwargs) -> None or (new_args, new_kwargs)``, run before
        each ``step``."""
        return _add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """``hook(optimizer, args, kwargs) -> None``, run after each ``step``."""
        return _add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        """``hook(optimizer) -> None``, run before ``state_dict``."""
        return _add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        """``hook(optimizer, state_dict) -> state_dict or None``, run after ``state_dict``."""
        return _add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        """``hook(optimizer, state_dict) -> state_dict or None``, run before
        ``load_state_dict``."""
        return _add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        """``hook(optimizer) -> None``, run after ``load_state_dict``."""
        return _add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ------------------------------------------------------------------ state dicts
    def state_dict(self) -> dict[str, Any]:
        """The optimizer's state as a dict with ``state`` (per-parameter state keyed by the
        parameter's index) and ``param_groups`` (each group's options with ``params`` as
        indices), PyTorch's layout."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)

        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, _ag.Tensor) else k): v
                        for k, v in self.state.items()}
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups,
                                                 key=None):
        if key == "step":
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype)
        return value

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load the optimizer state (a dict returned by :meth:`state_dict`)."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result

        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")

        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            if isinstance(value, _ag.Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, param_groups, key)
            if isinstance(value, dict):
                return {k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                        for k, v in value.items()}
            if isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
                return type(value)(_cast(param, v, param_id=param_id,
                                         param_groups=param_groups) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k,
                                     param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # ------------------------------------------------------------------ grads and groups
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors (to None by default, else to
        zeros detached from any graph)."""
        if not hasattr(self, "_zero_grad_profile_name"):
            self._patch_step_function()
        _zero_grads(chain.from_iterable(g["params"] for g in self.param_groups), set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Perform a single optimization step (to be overridden)."""
        raise NotImplementedError

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a param group to the optimizer's ``param_groups`` (e.g. layers unfrozen during
        fine-tuning), with this optimizer's defaults for the options it leaves out."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, _ag.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)

        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueError("all optimizer params should be with/without names. Some param "
                                 "names are missing")

        for param in param_group["params"]:
            if not isinstance(param, _ag.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)

        param_set = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                current = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {current} to the optimizer")
        if not param_set.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)
