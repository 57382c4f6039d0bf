"""torch.amp: automatic mixed precision.

``autocast("cpu")`` (bfloat16 by default, or ``dtype=torch.float16``) casts the
inputs of the ops PyTorch's CPU autocast lists, as its dispatcher does: the
lower-precision ops (matrix products, linear, convolutions, prelu,
scaled_dot_product_attention) compute in the autocast dtype, the float32 ops (losses,
most linear algebra, some pools and pads) in float32; other ops run in their inputs'
dtypes. Only floating tensors that are not float64 are cast (Note [Autocast]).

>>> import autograd_core as torch
>>> with torch.autocast("cpu"):
...     (torch.ones(2, 2) @ torch.ones(2, 2)).dtype
autograd_core.bfloat16
"""
import collections.abc
import functools
import warnings

from autograd_core._core import tensor as _core
from autograd_core._settings import _cpu_only, _DEVICE_TYPES
from autograd_core._autocast import _DTYPES, _autocast_dtype, _cast, _state

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]

_cache = {"enabled": True, "nesting": 0}


def _device_state(device_type):
    if not isinstance(device_type, str):
        raise TypeError(f"is_autocast_enabled(): argument 'device_type' must be str, not "
                        f"{type(device_type).__name__}")
    if device_type.split(":")[0] not in _DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start "
                           f"of device string: {device_type}")
    return _state.setdefault(device_type, [False, "bfloat16" if device_type == "cpu"
                                           else "float16"])


def is_autocast_available(device_type):
    """Whether autocast can run on device_type: the CPU only here."""
    return device_type == "cpu"


def is_autocast_enabled(device_type=None):
    """Whether an autocast region is active on device_type (cuda when not given, as
    PyTorch's; CUDA autocast is never on here)."""
    return _device_state("cuda" if device_type is None else device_type)[0]


def set_autocast_enabled(device_type, enabled=None):
    """Turn autocast on device_type on or off (the CPU's casts follow it)."""
    if enabled is None:  # the deprecated one-argument form: cuda
        device_type, enabled = "cuda", device_type
    _device_state(device_type)[0] = bool(enabled)
    _sync_hook()


# Note [Autocast]
# CPU autocast is a Python op hook (Note [Op hook] in _core/_profiler.pxi), pushed while
# CPU autocast is enabled on the thread that enabled it, so that ops cost nothing more
# while it is off. Its op_enter looks the ATen op up in PyTorch's CPU autocast lists
# (aten/src/ATen/autocast_mode.cpp, AutocastCPU): for a listed op it casts the eligible
# tensor arguments (floating, not float64; inside lists too) to the autocast dtype or
# to float32, runs the op on them (ops run inside a hook's callback are not hooked, as
# PyTorch's autocast kernels redispatch below the autocast key) and supplies the result.
# The casts are ordinary to() calls, recorded as PyTorch records them (ToCopyBackward0).
# Not followed: PyTorch's cache of casts of leaf weights within a region (values are
# the same; each use records its own cast node here).


def _cross_entropy(input, target, weight, reduction, ignore_index, label_smoothing):
    from autograd_core.nn import functional
    return functional.cross_entropy(input, target, weight, ignore_index=ignore_index,
                                    reduction=("none", "mean", "sum")[reduction],
                                    label_smoothing=label_smoothing)


# the listed ops the op hook reports with arguments no torch.ops entry takes: how to run
# them again (cross_entropy: its reduction comes as PyTorch's Reduction enum)
_CALLERS = {"cross_entropy": _cross_entropy}


@functools.lru_cache(maxsize=None)
def _schema_order(overload):
    """overload as a callable of the op hook's arguments: the hook reports every
    argument in schema order, positionally, and the keyword-only ones (addmm's beta
    and alpha) go to the wrapper by name."""
    import inspect
    try:
        params = list(inspect.signature(getattr(overload, "op", overload)).parameters.values())
    except (TypeError, ValueError):
        return overload
    n_pos = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    names = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    if not names:
        return overload

    def call(*args):
        return overload(*args[:n_pos], **dict(zip(names, args[n_pos:])))
    return call


class _AutocastHook:
    """The op hook of CPU autocast (Note [Autocast])."""

    def op_enter(self, name, args):
        op = name.partition("::")[2]
        dtype = _autocast_dtype(op)
        if dtype is None:
            return None
        cast = tuple(_cast(a, dtype) for a in args)
        if all(c is a for c, a in zip(cast, args)):
            return None
        caller = _CALLERS.get(op)
        if caller is None:
            from autograd_core._ops import _public_callable, overload_for
            caller = overload_for(name, args)
            if caller.overloadpacket._impl is None:
                # an op torch.ops does not list (polar, linalg_inv, ...): its public
                # function (Note [Op hook])
                caller = _public_callable(op)()
            caller = _schema_order(caller)
        result = caller(*cast)
        if isinstance(result, tuple) and type(result) is not tuple:
            result = tuple(result)      # (a return_types tuple: the op gives a plain one)
        return _core.OpResult(result)

    def op_exit(self, state, result):
        pass


_HOOK = _AutocastHook()
_hook_pushed = [False]


def _sync_hook():
    """Push the hook while CPU autocast is enabled, pop it when not (Note [Autocast])."""
    want = _state["cpu"][0]
    if want and not _hook_pushed[0]:
        _core._push_op_hook(_HOOK)
        _hook_pushed[0] = True
    elif not want and _hook_pushed[0]:
        _core._pop_op_hook(_HOOK)
        _hook_pushed[0] = False


def get_autocast_dtype(device_type):
    """The dtype autocast would compute in on device_type."""
    return _DTYPES[_device_state(device_type)[1]]


def set_autocast_dtype(device_type, dtype):
    """Set the dtype autocast would compute in on device_type."""
    _device_state(device_type)[1] = dtype.name


def _deprecated(old, new):
    warnings.warn(f"autograd_core.{old}() is deprecated. Please use autograd_core.{new} "
                  f"instead.", DeprecationWarning, stacklevel=3)


def get_autocast_cpu_dtype():
    """Deprecated: get_autocast_dtype('cpu')."""
    _deprecated("get_autocast_cpu_dtype", "get_autocast_dtype('cpu')")
    return get_autocast_dtype("cpu")


def set_autocast_cpu_dtype(dtype):
    """Deprecated: set_autocast_dtype('cpu', dtype)."""
    _deprecated("set_autocast_cpu_dtype", "set_autocast_dtype('cpu', dtype)")
    set_autocast_dtype("cpu", dtype)


def is_autocast_cpu_enabled():
    """Deprecated: is_autocast_enabled('cpu')."""
    _deprecated("is_autocast_cpu_enabled", "is_autocast_enabled('cpu')")
    return is_autocast_enabled("cpu")


def set_autocast_cpu_enabled(enabled):
    """Deprecated: set_autocast_enabled('cpu', enabled)."""
    _deprecated("set_autocast_cpu_enabled", "set_autocast_enabled('cpu', enabled)")
    set_autocast_enabled("cpu", enabled)


def is_autocast_cache_enabled():
    """Whether autocast caches its casts of leaf weights."""
    return _cache["enabled"]


def set_autocast_cache_enabled(enabled):
    """Turn autocast's cast cache on or off."""
    _cache["enabled"] = bool(enabled)


def clear_autocast_cache():
    """Drop autocast's cached casts (there are none)."""


def autocast_increment_nesting():
    """Count one more autocast region entered; returns the new depth."""
    _cache["nesting"] += 1
    return _cache["nesting"]


def autocast_decrement_nesting():
    """Count one autocast region left; returns the new depth."""
    _cache["nesting"] -= 1
    return _cache["nesting"]


class autocast:
    """A region (or decorated function) in which the ops PyTorch's CPU autocast lists
    compute in a lower precision (bfloat16 by default) or in float32 (Note [Autocast]).

    >>> import autograd_core as torch
    >>> with torch.autocast("cpu", dtype=torch.bfloat16):
    ...     torch.nn.functional.linear(torch.ones(1, 2), torch.ones(3, 2)).dtype
    autograd_core.bfloat16
    >>> with torch.autocast("cpu", enabled=False):
    ...     (torch.ones(2, 2) @ torch.ones(2, 2)).dtype
    autograd_core.float32
    """

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: "
                             f"`{type(device_type)}`")
        self.device = device_type
        _device_state(device_type)
        self.fast_dtype = dtype if dtype is not None else get_autocast_dtype(device_type)
        self._enabled = bool(enabled)
        self._cache_enabled = cache_enabled
        if self._enabled:
            if device_type == "cuda":
                warnings.warn("CUDA is not available or torch_xla is imported. Disabling "
                              "autocast.", UserWarning, stacklevel=2)
                self._enabled = False
            elif device_type != "cpu":
                _cpu_only(device_type)
            elif self.fast_dtype not in (_DTYPES["bfloat16"], _DTYPES["float16"]):
                warnings.warn("In CPU autocast, but the target dtype is not supported. "
                              "Disabling autocast.\nCPU Autocast only supports dtypes of "
                              "autograd_core.bfloat16, autograd_core.float16 currently.",
                              UserWarning, stacklevel=2)
                self._enabled = False

    def __enter__(self):
        st = _state[self.device]
        self._prev = list(st)
        self._prev_cache = _cache["enabled"]
        st[0] = self._enabled
        st[1] = self.fast_dtype.name
        if self._cache_enabled is not None:
            _cache["enabled"] = bool(self._cache_enabled)
        autocast_increment_nesting()
        _sync_hook()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        _state[self.device][:] = self._prev
        _cache["enabled"] = self._prev_cache
        _sync_hook()
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast


_READY, _UNSCALED, _STEPPED = 0, 1, 2


class GradScaler:
    """Loss scaling against float16 underflow, as ``torch.amp.GradScaler``: scale()
    multiplies the loss by the scale, step() unscales the gradients and skips the
    optimizer step when one is inf or NaN, update() halves the scale after such a step
    and doubles it after growth_interval good ones. On "cuda" (absent here) it warns
    and is disabled, as PyTorch's without CUDA: scale() then returns its input and
    step() just steps.

    >>> import autograd_core as torch
    >>> w = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> opt = torch.optim.SGD([w], lr=0.1)
    >>> scaler = torch.amp.GradScaler("cpu", init_scale=4.0)
    >>> scaler.scale((w * w).sum()).backward()
    >>> scaler.step(opt); scaler.update()
    >>> w.data, scaler.get_scale()
    (tensor([0.8000, 1.6000]), 4.0)
    """

    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0,
                 backoff_factor=0.5, growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            warnings.warn("autograd_core.cuda.amp.GradScaler is enabled, but CUDA is not "
                          "available.  "
                          "Disabling.", UserWarning, stacklevel=2)
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = {}

    def _lazy_init(self):
        import autograd_core as torch
        self._scale = torch.full((), self._init_scale, dtype=torch.float32)
        self._growth_tracker = torch.full((), self._init_growth_tracker, dtype=torch.int32)

    def _check_scale(self, funcname):
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) " \
              "earlier in the iteration."
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + fix)
        return self._scale

    def _state(self, optimizer):
        return self._per_optimizer_states.setdefault(
            id(optimizer), {"stage": _READY, "found_inf": None})

    def scale(self, outputs):
        """outputs (a tensor or nested sequences of tensors) times the current scale."""
        import autograd_core as torch
        if not self._enabled:
            return outputs
        if isinstance(outputs, torch.Tensor):
            if self._scale is None:
                self._lazy_init()
            return outputs * self._scale.to(outputs.dtype)

        def apply(val):
            if isinstance(val, torch.Tensor):
                if self._scale is None:
                    self._lazy_init()
                return val * self._scale.to(val.dtype)
            if isinstance(val, (list, tuple)):
                return type(val)(apply(v) for v in val)
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")
        return apply(outputs)

    def unscale_(self, optimizer):
        """Divide optimizer's gradients by the scale (in place), noting inf or NaN."""
        import autograd_core as torch
        if not self._enabled:
            return
        self._check_scale("unscale_")
        state = self._state(optimizer)
        if state["stage"] is _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since "
                               "the last update().")
        if state["stage"] is _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = torch.full((), 1.0 / self._scale.double().item(), dtype=torch.float32)
        found = torch.zeros(())
        with torch.no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    p.grad.mul_(inv_scale.to(p.grad.dtype))
                    if not bool(torch.isfinite(p.grad).all()):
                        found.fill_(1.0)
        state["found_inf"] = found
        state["stage"] = _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """optimizer.step(), after unscale_ unless done, skipped if a gradient is inf
        or NaN; returns what optimizer.step returns (None when skipped)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        self._check_scale("step")
        state = self._state(optimizer)
        if state["stage"] is _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is _READY:
            self.unscale_(optimizer)
        retval = None
        if not state["found_inf"].item():
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = _STEPPED
        return retval

    def update(self, new_scale=None):
        """Set the scale for the next iteration: new_scale if given, else backed off
        after a skipped step or grown after growth_interval good ones."""
        import autograd_core as torch
        if not self._enabled:
            return
        scale = self._check_scale("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                scale.fill_(new_scale)
            else:
                if not (isinstance(new_scale, torch.Tensor) and new_scale.numel() == 1
                        and new_scale.dtype is torch.float32 and not new_scale.requires_grad):
                    raise AssertionError("new_scale should be a float or a 1-element "
                                         "torch.FloatTensor with requires_grad=False.")
                scale.copy_(new_scale.reshape(()))
        else:
            found = [s["found_inf"] for s in self._per_optimizer_states.values()
                     if s["found_inf"] is not None]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(f.item() for f in found):
                scale.mul_(self._backoff_factor)
                self._growth_tracker.fill_(0)
            else:
                self._growth_tracker.add_(1)
                if self._growth_tracker.item() == self._growth_interval:
                    scale.mul_(self._growth_factor)
                    self._growth_tracker.fill_(0)
        self._per_optimizer_states = {}

    def get_scale(self):
        """The current scale as a float (1.0 when disabled)."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        if not self._enabled:
            return 0
        return (self._init_growth_tracker if self._growth_tracker is None
                else self._growth_tracker.item())

    def is_enabled(self):
        """Whether the scaler scales (False on an absent device)."""
        return self._enabled

    def state_dict(self):
        """The scale and its schedule ({} when disabled)."""
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict):
        """Restore state_dict()'s values."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])


# ---------------------------------------------------------------- custom autograd Functions

def _cast_nested(value, dtype):
    """value with its eligible tensors (floating, not float64) cast to dtype, inside
    mappings (keys too), lists and tuples, as PyTorch's custom_fwd casts its arguments."""
    if isinstance(value, (str, bytes)) or not isinstance(
            value, (collections.abc.Mapping, list, tuple)):
        return _cast(value, dtype)
    if isinstance(value, collections.abc.Mapping):
        return {_cast_nested(k, dtype): _cast_nested(v, dtype) for k, v in value.items()}
    return type(value)(_cast_nested(v, dtype) for v in value)


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorate the ``forward`` of an ``autograd.Function`` so that it sees autocast as
    its caller did, and ``custom_bwd`` runs its ``backward`` in the same state.  With
    ``cast_inputs`` (a dtype), inside an autocast region of ``device_type`` the floating
    (not float64) tensor arguments are cast to it and forward runs with autocast off;
    outside a region ``cast_inputs`` has no effect.

    >>> import autograd_core as torch
    >>> class Mul(torch.autograd.Function):
    ...     @staticmethod
    ...     @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    ...     def forward(ctx, a, b):
    ...         ctx.save_for_backward(a, b)
    ...         return a @ b
    ...     @staticmethod
    ...     @torch.amp.custom_bwd(device_type="cpu")
    ...     def backward(ctx, g):
    ...         a, b = ctx.saved_tensors
    ...         return g @ b.t(), a.t() @ g
    >>> x = torch.ones(2, 2, dtype=torch.bfloat16, requires_grad=True)
    >>> with torch.autocast("cpu"):
    ...     y = Mul.apply(x, torch.ones(2, 2))
    >>> y.dtype
    autograd_core.float32
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        # args[0] is the ctx: custom_bwd reads the state forward ran under from it
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast_nested(args, cast_inputs),
                           **_cast_nested(kwargs, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    """Decorate the ``backward`` of an ``autograd.Function`` whose forward has
    ``custom_fwd``: backward runs with the autocast state (enabled, dtype) forward ran
    under (see ``custom_fwd`` for an example).

    >>> import autograd_core as torch
    >>> callable(torch.amp.custom_bwd(lambda ctx, g: g, device_type="cpu"))
    True
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast,
                      dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd
