"""autograd_core.utils.checkpoint: activation checkpointing, trading compute for memory.

A checkpointed function keeps only its inputs; what its ops save for backward is
recomputed, by running the function again, when backward needs it. Two variants, as
PyTorch's:

- ``use_reentrant=True``: an autograd.Function (CheckpointFunction) runs the function
  under no_grad, and its backward reruns it with grad and calls backward inside
  backward (a reentrant pass); it refuses autograd.grad / backward(inputs=...).
- ``use_reentrant=False``: the function runs with grad under saved-tensor hooks
  (Note [Non-reentrant checkpoint]): every tensor an op saves is replaced by a small
  holder, and the first unpack in a backward pass reruns the function under other hooks
  that fill the holders. Nested checkpoints, autograd.grad, early stop and the
  determinism check work as PyTorch's.

Selective checkpointing (``create_selective_checkpoint_contexts``, Note [Selective
checkpointing]) sees every op of the checkpointed function through the op hook (Note
[Op hook]) and keeps the outputs its policy saves. ``debug=True`` reports the saved
tensors' Python stacks (PyTorch's log of dispatched operators is not provided).
"""
import contextlib
import enum
import threading
import traceback
import uuid
import warnings
import weakref
from collections import defaultdict

from autograd_core import _ops
from autograd_core import amp as _amp
from autograd_core import grad_mode as _grad_mode
from autograd_core import random as _random
from autograd_core._core import engine as _engine
from autograd_core._core import tensor as _core
from autograd_core.autograd.function import Function
from autograd_core.autograd.graph import saved_tensors_hooks

__all__ = [
    "checkpoint",
    "checkpoint_sequential",
    "CheckpointError",
    "CheckpointFunction",
    "check_backward_validity",
    "detach_variable",
    "get_device_states",
    "set_device_states",
    "noop_context_fn",
    "set_checkpoint_early_stop",
    "DefaultDeviceType",
    "set_checkpoint_debug_enabled",
    "CheckpointPolicy",
    "SelectiveCheckpointContext",
    "GraphExecGroup",
    "create_selective_checkpoint_contexts",
    "SAC_IGNORED_OPS",
]

_DEFAULT_DETERMINISM_MODE = "default"
_checkpoint_debug_enabled = None
_enable_checkpoint_early_stop = None


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled):
    """Inside it, every non-reentrant checkpoint runs as if passed ``debug=enabled``
    (None: each checkpoint's own ``debug`` argument decides).

    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import checkpoint, set_checkpoint_debug_enabled
    >>> x = torch.ones(2, requires_grad=True)
    >>> with set_checkpoint_debug_enabled(True):
    ...     y = checkpoint(torch.sin, x, use_reentrant=False)
    >>> y.sum().backward()
    """
    global _checkpoint_debug_enabled
    prev = _checkpoint_debug_enabled
    try:
        _checkpoint_debug_enabled = enabled
        yield
    finally:
        _checkpoint_debug_enabled = prev


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Whether non-reentrant checkpoints made inside it stop recomputing as soon as
    every tensor backward needs is back (the default), overriding their ``early_stop``
    argument. Only the forward needs to run inside it.

    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import checkpoint, set_checkpoint_early_stop
    >>> x = torch.ones(2, requires_grad=True)
    >>> with set_checkpoint_early_stop(False):
    ...     y = checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)
    >>> y.sum().backward()
    """
    global _enable_checkpoint_early_stop
    prev = _enable_checkpoint_early_stop
    try:
        _enable_checkpoint_early_stop = enable
        yield
    finally:
        _enable_checkpoint_early_stop = prev


def detach_variable(inputs):
    """A tuple of inputs with every tensor detached (keeping its requires_grad); other
    objects as they are. Only a tuple is accepted.

    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import detach_variable
    >>> a = torch.ones(2, requires_grad=True) * 2
    >>> d, n = detach_variable((a, 3))
    >>> d.grad_fn is None, d.requires_grad, n
    (True, True, 3)
    """
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if not isinstance(inp, _core.Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs):
    """Warn when no tensor among inputs requires grad (a reentrant checkpoint of them
    would give no gradients).

    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import check_backward_validity
    >>> check_backward_validity([torch.ones(1, requires_grad=True)])
    """
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, _core.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)


class DefaultDeviceType:
    """The device type whose random state checkpointing saves when no input is on a
    non-CPU device: ``"cpu"`` here until set (the only device of this tree).

    >>> from autograd_core.utils.checkpoint import DefaultDeviceType
    >>> DefaultDeviceType.get_device_type()
    'cpu'
    """

    _default_device_type = None

    @staticmethod
    def set_device_type(device="cuda"):
        """Set the default device type for checkpointing."""
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type():
        """The default device type for checkpointing."""
        if not DefaultDeviceType._default_device_type:
            DefaultDeviceType._default_device_type = "cpu"
        return DefaultDeviceType._default_device_type


def _infer_device_type(*args):
    # every tensor here is a CPU tensor: the default device type
    return DefaultDeviceType.get_device_type()


def get_device_states(*args):
    """(device ids, random states) of the non-CPU devices of the tensors among args:
    ``([], [])`` here, where every tensor is on the CPU (whose state checkpoint saves
    with get_rng_state).

    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import get_device_states
    >>> get_device_states(torch.ones(1))
    ([], [])
    """
    return [], []


def set_device_states(devices, states, *, device_type=None):
    """Set the random states of non-CPU devices (from get_device_states): there are
    none here, so the lists are empty and nothing changes.

    >>> from autograd_core.utils.checkpoint import set_device_states
    >>> set_device_states([], [])
    """
    if device_type is None:
        device_type = DefaultDeviceType.get_device_type()
    if device_type == "meta":
        return
    for device, state in zip(devices, states):
        # (get_device_states never returns a device here)
        raise RuntimeError(f"set_device_states: no {device_type} device {device} in this build "
                           "(CPU only)")


def _cpu_autocast_state():
    return (_amp.is_autocast_enabled("cpu"), _amp.get_autocast_dtype("cpu"),
            _amp.is_autocast_cache_enabled())


def _autocast_as(state):
    """Re-enter the forward's CPU autocast state for a recomputation."""
    enabled, dtype, cache = state
    if not enabled:
        return contextlib.nullcontext()
    return _amp.autocast("cpu", dtype=dtype, enabled=True, cache_enabled=cache)


class CheckpointFunction(Function):
    """The autograd.Function of ``checkpoint(..., use_reentrant=True)``: forward runs
    the function under no_grad and keeps its inputs; backward runs it again with grad
    (the forward's random state restored) and backpropagates through it."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        ctx.device_type = _infer_device_type(*args)
        ctx.cpu_autocast_state = _cpu_autocast_state()
        if preserve_rng_state:
            ctx.fwd_cpu_state = _random.get_rng_state()
        # non-tensor inputs kept on ctx, tensors saved (None in their place)
        ctx.inputs = []
        ctx.tensor_indices = []
        tensor_inputs = []
        for i, arg in enumerate(args):
            if isinstance(arg, _core.Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with _grad_mode.no_grad():
            outputs = run_function(*args)
        return outputs

    @staticmethod
    def backward(ctx, *args):
        if not _engine._is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, autograd_core.utils.checkpoint is incompatible"
                " with .grad() or passing an `inputs` parameter to .backward()."
                " To resolve this error, you can either set use_reentrant=False,"
                " or call .backward() without passing the `inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _random.fork_rng(enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                _random.set_rng_state(ctx.fwd_cpu_state)
            detached_inputs = detach_variable(tuple(inputs))
            with _grad_mode.enable_grad(), _autocast_as(ctx.cpu_autocast_state):
                outputs = ctx.run_function(*detached_inputs)
        if isinstance(outputs, _core.Tensor):
            outputs = (outputs,)
        outputs_with_grad = []
        args_with_grad = []
        for out, grad in zip(outputs, args):
            if isinstance(out, _core.Tensor) and out.requires_grad:
                outputs_with_grad.append(out)
                args_with_grad.append(grad)
        if not outputs_with_grad:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        from autograd_core import autograd  # (autograd imports graph, which imports this)
        autograd.backward(outputs_with_grad, args_with_grad)
        grads = tuple(inp.grad if isinstance(inp, _core.Tensor) else None
                      for inp in detached_inputs)
        return (None, None) + grads


def noop_context_fn():
    """The default ``context_fn`` of checkpoint: two contexts that do nothing.

    >>> from autograd_core.utils.checkpoint import noop_context_fn
    >>> fwd, recompute = noop_context_fn()
    >>> with fwd, recompute:
    ...     pass
    """
    return contextlib.nullcontext(), contextlib.nullcontext()


_MSG_CONTEXT_SUPPRESSED = (
    "autograd_core.utils.checkpoint: the forward context provided by context_fn suppressed an "
    "exception raised during the checkpointed forward. This is not supported because "
    "checkpoint cannot return a value for a failed forward.")


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check=_DEFAULT_DETERMINISM_MODE, debug=False, early_stop=True,
               **kwargs):
    """Run ``function(*args, **kwargs)`` keeping only its inputs for backward: what its
    ops would save is recomputed by running it again during backward.

    Keyword arguments (PyTorch's): ``use_reentrant`` (pass it explicitly: without it
    PyTorch's warning, and the reentrant variant), ``preserve_rng_state=True`` (the
    recomputation draws the same random numbers), ``context_fn`` (two context managers,
    for the forward and the recomputation; non-reentrant only), ``determinism_check``
    ("default": recomputed tensors must have the forward's shapes, dtypes and devices;
    "none"), ``debug``, ``early_stop``.

    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import checkpoint
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> y = checkpoint(lambda t: (t * t).sin(), x, use_reentrant=False)
    >>> y.sum().backward()
    >>> x.grad
    tensor([ 1.0806, -2.6146])
    """
    if use_reentrant is None:
        warnings.warn(
            "autograd_core.utils.checkpoint: the use_reentrant parameter should be "
            "passed explicitly. Starting in PyTorch 2.9, calling checkpoint "
            "without use_reentrant will raise an exception. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    gen = _checkpoint_without_reentrant_generator(
        function, preserve, context_fn, determinism_check, debug, early_stop, *args, **kwargs)
    next(gen)  # before the forward: the hooks are in place
    try:
        ret = function(*args, **kwargs)
    except BaseException as e:
        try:
            gen.throw(e)
        except StopIteration as stop:
            raise RuntimeError(_MSG_CONTEXT_SUPPRESSED) from stop
        raise
    try:
        next(gen)  # after it
    except StopIteration:
        return ret
    raise AssertionError("autograd_core.utils.checkpoint: expected context_fn generator to yield "
                         "exactly twice, but it yielded more than twice.")


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (an nn.Sequential or a list of modules/functions) one after
    the other on ``input``, in ``segments`` chunks, each chunk but the last under
    checkpoint.

    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import checkpoint_sequential
    >>> model = torch.nn.Sequential(torch.nn.Tanh(), torch.nn.Sigmoid(), torch.nn.Tanh())
    >>> x = torch.ones(2, requires_grad=True)
    >>> out = checkpoint_sequential(model, 2, x, use_reentrant=False)
    >>> out.sum().backward()
    >>> x.grad.shape
    autograd_core.Size([2])
    """
    if use_reentrant is None:
        warnings.warn(
            "autograd_core.utils.checkpoint.checkpoint_sequential: the use_reentrant "
            "parameter should be passed explicitly. "
            "In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input
        return forward

    from autograd_core import nn  # (nn sits above utils)
    if isinstance(functions, nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input,
                           use_reentrant=use_reentrant, preserve_rng_state=preserve)
    # the last chunk runs normally
    return run_function(end + 1, len(functions) - 1, functions)(input)


# Note [Non-reentrant checkpoint]
# checkpoint(use_reentrant=False) runs the function with grad, under saved-tensor hooks
# (_checkpoint_hook) whose pack replaces every tensor an op saves by a _Holder and
# records the tensor's metadata; the frame keeps the function's inputs as SavedTensors
# (so that, inside an outer checkpoint, they are saved tensors of the outer one and
# recomputed by it: nested checkpoints). The first unpack of a holder in a backward
# pass (keyed by that pass's graph task id, or a GraphExecGroup) reruns the function
# under _recomputation_hook, whose pack hands the i-th saved tensor to the i-th holder
# (a holder backward already freed takes nothing) and, with early stop, raises
# _StopRecomputation once every holder has its tensor; the recomputed tensors are then
# checked against the forward's metadata. Each holder gives its tensor once per pass.

def _internal_assert(cond):
    if not cond:
        raise AssertionError("Something went unexpectedly wrong in activation checkpoint. "
                             "Please report this bug by filing an issue to PyTorch.")


_debug_tip_msg = """
Tip: To see a more detailed error message, either pass `debug=True` to
`autograd_core.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with autograd_core.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under autograd_core.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use autograd_core._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call autograd_core._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""

_checkpoint_error_template = """ \
An error happened while unpacking tensors; dumping logs of latest computation
because you passed `debug=True` to `autograd_core.utils.checkpoint.checkpoint()`.
Scroll all the way down for guidance on how to navigate these logs.

+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|        1. Stack traces of the tensors saved in the original forward          |
+------------------------------------------------------------------------------+

{forward_traces}
+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|        2. Stack traces of the tensors saved during recomputation             |
+------------------------------------------------------------------------------+

{recompute_traces}
+~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
|       3. Log of tensors saved in the original forward and recomputation      |
+------------------------------------------------------------------------------+
(Scroll up to correlate stack traces with each tensor listed below. This
 helps identify their source in the code.)

Tensors saved during the original forward:
{forward_ops}

Tensors saved during recomputation:
{recompute_ops}

+------------------------------------------------------------------------------+
 ERROR: Detected non-determinism while running activation checkpointing

 You are seeing this error because you passed `debug=True` to checkpoint and
 tensors to be saved during the original forward and differ between those saved
 during recomputation. This can happen if different operators were ran in the
 original forward and in the recomputation.

 To identify where the mismatch may be coming from, you can do the following:

 1) Compare the tensors saved during original forward and recomputation to
    see where they differ. They are printed above in the order they were saved.
 2) Review the stack trace of each save to locate the op that made it.

 Note that the logs can be quite long. Here's how they are structured:
 (Tip: you can Ctrl-f for these headers)

 1. Stack traces of the tensors saved in the original forward
 2. Stack traces of the tensors saved during recomputation
 3. Log of tensors saved in the original forward and recomputation
 4. Error message                                             <--- You are here
--------------------------------------------------------------------------------
"""


class CheckpointError(RuntimeError):
    """What non-reentrant checkpointing raises when the recomputation does not match
    the forward (or a saved tensor is unpacked twice in one backward)."""


class _SaveLog:
    """What debug mode records of one run (forward or recomputation): per saved tensor
    a line and the Python stack that saved it (this tree has no log of dispatched ops,
    which PyTorch's debug mode prints instead)."""

    def __init__(self):
        self.logs = None
        self.tbs = None

    @contextlib.contextmanager
    def recording(self):
        self.logs, self.tbs = [], []
        _SaveLog.active.append(self)
        try:
            yield
        finally:
            _SaveLog.active.remove(self)

    def note(self, x):
        self.logs.append(f"saved tensor of shape {tuple(x.shape)}, dtype {x.dtype}")
        self.tbs.append(traceback.extract_stack()[:-2])  # (without note and the pack hook)


_SaveLog.active = []


def _get_debug_context_and_cb():
    fwd = _SaveLog()
    recompute = _SaveLog()

    def unpack_error_cb(e):
        def traces(label, log):
            out = ""
            n = len(log.logs)
            for i, (line, tb) in enumerate(zip(log.logs, log.tbs)):
                out += f"{line}   ({i + 1} of {n} in {label})\n\n"
                for frame in tb:
                    out += f"{frame.filename}:{frame.lineno}:{frame.name}\n"
                out += "\n\n"
            return out
        raise CheckpointError(_checkpoint_error_template.format(
            forward_traces=traces("original", fwd),
            recompute_traces=traces("recompute", recompute),
            forward_ops="\n".join(fwd.logs or ()),
            recompute_ops="\n".join(recompute.logs or ()))) from e

    def context_fn():
        return fwd.recording(), recompute.recording()
    return context_fn, unpack_error_cb


def _default_meta_extractor(x):
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_allowed_determinism_checks_to_fns = {
    _DEFAULT_DETERMINISM_MODE: _default_meta_extractor,
    "none": lambda _: None,
}


class _Handle:
    pass


class _Holder:
    """What the forward's pack hook keeps in place of a saved tensor: per backward pass
    (id) the handle under which the recomputation stores the tensor (None once
    unpacked)."""

    def __init__(self):
        self.handles = {}


class _StopRecomputation(Exception):
    pass


class _CheckpointFrame:
    """One non-reentrant checkpoint call (Note [Non-reentrant checkpoint])."""

    def __init__(self, recompute_fn, early_stop, unpack_error_cb, metadata_fn):
        self.recompute_fn = recompute_fn
        self.saved_args = []
        self.weak_holders = []
        self.recomputed = defaultdict(weakref.WeakKeyDictionary)  # gid -> handle -> tensor
        self.recomp_counter = defaultdict(int)
        self.is_recomputed = defaultdict(bool)
        self.early_stop = early_stop
        self.metadata_fn = metadata_fn
        self.unpack_error_cb = unpack_error_cb
        self.x_metadatas = []
        self.forward_completed = False
        self.ignore_saved_mismatch = False

    def save_inputs(self, *args):
        # through the hooks in force: an outer checkpoint's (nested checkpoints)
        self.saved_args = [_core._make_saved_tensor(a, False) if isinstance(a, _core.Tensor)
                           else a for a in args]

    def get_inputs(self):
        return [a.unpack() if isinstance(a, _core.SavedTensor) else a
                for a in self.saved_args]

    def check_recomputed_tensors_match(self, gid):
        if self.ignore_saved_mismatch:
            # (a backward inside the checkpointed forward without early stop)
            return
        if len(self.weak_holders) != self.recomp_counter[gid]:
            raise CheckpointError(
                "autograd_core.utils.checkpoint: A different number of tensors was saved "
                "during the original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.weak_holders)}\n"
                f"Number of tensors saved during recomputation: {self.recomp_counter[gid]}.\n"
                f"{_debug_tip_msg}")
        different = []
        for idx, weak_holder in enumerate(self.weak_holders):
            holder = weak_holder()
            if holder is None:
                continue
            _internal_assert(gid in holder.handles)
            _internal_assert(holder.handles[gid] is not None)
            _internal_assert(holder.handles[gid] in self.recomputed[gid])
            x_meta = self.x_metadatas[idx]
            recomputed_meta = self.metadata_fn(self.recomputed[gid][holder.handles[gid]])
            if x_meta != recomputed_meta:
                different.append((idx, x_meta, recomputed_meta))
        if different:
            mismatched = ""
            for idx, x_meta, recomputed_meta in different:
                mismatched += (f"tensor at position {idx}:\n"
                               f"saved metadata: {x_meta}\n"
                               f"recomputed metadata: {recomputed_meta}\n")
            raise CheckpointError(
                "autograd_core.utils.checkpoint: Recomputed values for the following tensors "
                "have different metadata than during the forward pass.\n"
                f"{mismatched}.\n"
                f"{_debug_tip_msg}")


class _recomputation_hook(saved_tensors_hooks):
    """The hooks of a recomputation: the i-th tensor saved goes to the i-th holder."""

    def __init__(self, target_frame_ref, gid):
        def pack_hook(x):
            x = x.detach() if x.requires_grad else x
            frame = target_frame_ref()
            _internal_assert(frame is not None)
            idx = frame.recomp_counter[gid]
            frame.recomp_counter[gid] += 1
            if idx >= len(frame.weak_holders):
                _internal_assert(not frame.early_stop)
                if not frame.forward_completed:
                    # a backward inside the checkpointed forward, without early stop:
                    # the forward is still saving, the counts cannot match yet
                    frame.ignore_saved_mismatch = True
                    return x
                raise CheckpointError(
                    "autograd_core.utils.checkpoint: trying to save more tensors during "
                    "recomputation than during the original forward pass.\n"
                    f"{_debug_tip_msg}")
            holder = frame.weak_holders[idx]()
            # (a holder freed by a backward during the forward needs nothing)
            if holder is not None:
                _internal_assert(holder.handles.get(gid, None) is None)
                holder.handles[gid] = _Handle()
                frame.recomputed[gid][holder.handles[gid]] = x
            if _SaveLog.active:
                _SaveLog.active[-1].note(x)
            if frame.early_stop and frame.recomp_counter[gid] == len(frame.weak_holders):
                raise _StopRecomputation
            return x

        def unpack_hook(x):
            # (the graph the recomputation records is backwarded only with
            # retain_graph inside the checkpoint: its tensors are kept as they are)
            return x

        super().__init__(pack_hook, unpack_hook)


_graph_exec_group = threading.local()


def _current_group():
    return getattr(_graph_exec_group, "group", None)


class _checkpoint_hook(saved_tensors_hooks):
    """The hooks of a checkpointed forward: saved tensors become holders."""

    def __init__(self, frame):
        def pack_hook(x):
            holder = _Holder()
            frame.weak_holders.append(weakref.ref(holder))
            caching = getattr(_sac_state, "caching", None)
            if caching:
                # (selective checkpointing notes what the running op saves)
                caching[-1].note_pack(x)
            if frame.metadata_fn is not None:
                with _grad_mode.no_grad():
                    frame.x_metadatas.append(frame.metadata_fn(x))
            if _SaveLog.active:
                _SaveLog.active[-1].note(x)
            return holder

        def unpack_hook(holder):
            gid = _current_group()
            if gid is None:
                gid = _engine._current_graph_task_id()
                if gid == -1:
                    # unpacked outside backward (grad_fn._saved_x): a pass of its own
                    gid = int(uuid.uuid4())
            if not frame.is_recomputed[gid]:
                args = frame.get_inputs()
                try:
                    with _recomputation_hook(weakref.ref(frame), gid), \
                            _grad_mode.enable_grad():
                        frame.recompute_fn(*args)
                except _StopRecomputation:
                    pass
                frame.is_recomputed[gid] = True
                frame.check_recomputed_tensors_match(gid)
            _internal_assert(gid in holder.handles)
            if holder.handles[gid] is None:
                extra = ""
                if _current_group() is not None:
                    extra = ("Performing two backward calls that overlap (i.e. require the "
                             "same saved activation in order to compute gradients) is not "
                             "allowed while under the "
                             "autograd_core.utils.checkpoint.GraphExecGroup context. ")
                raise CheckpointError(
                    "autograd_core.utils.checkpoint: Unpack is being triggered for a tensor "
                    f"that was already unpacked once. {extra}If you are calling "
                    "ctx.saved_tensors in "
                    "backward, make sure to do so only once. Otherwise please open an issue "
                    "with details on your use case.")
            _internal_assert(holder.handles[gid] in frame.recomputed[gid])
            ret = frame.recomputed[gid][holder.handles[gid]]
            holder.handles[gid] = None
            return ret

        if frame.unpack_error_cb is not None:
            def unpack_hook_with_error_cb(holder):
                try:
                    return unpack_hook(holder)
                except CheckpointError as e:
                    frame.unpack_error_cb(e)
            super().__init__(pack_hook, unpack_hook_with_error_cb)
        else:
            super().__init__(pack_hook, unpack_hook)


def _checkpoint_without_reentrant_generator(fn, preserve_rng_state=True,
                                            context_fn=noop_context_fn,
                                            determinism_check=_DEFAULT_DETERMINISM_MODE,
                                            debug=False, early_stop=True, *args, **kwargs):
    """checkpoint(use_reentrant=False): yields once before the forward runs and once
    after (Note [Non-reentrant checkpoint])."""
    unpack_error_cb = None
    if _checkpoint_debug_enabled if _checkpoint_debug_enabled is not None else debug:
        if context_fn is not noop_context_fn:
            raise ValueError("debug=True is incompatible with non-default context_fn")
        context_fn, unpack_error_cb = _get_debug_context_and_cb()
    if determinism_check in _allowed_determinism_checks_to_fns:
        metadata_fn = _allowed_determinism_checks_to_fns[determinism_check]
    else:
        raise ValueError(
            "determinism_check should be one of "
            f"{list(_allowed_determinism_checks_to_fns.keys())}, but got {determinism_check}")
    forward_context, recompute_context = context_fn()
    autocast_state = _cpu_autocast_state()
    if preserve_rng_state:
        fwd_cpu_state = _random.get_rng_state()

    def recompute_fn(*inputs):
        with _random.fork_rng(enabled=preserve_rng_state):
            if preserve_rng_state:
                _random.set_rng_state(fwd_cpu_state)
            with _autocast_as(autocast_state), recompute_context:
                fn(*inputs, **kwargs)

    frame = _CheckpointFrame(
        recompute_fn,
        _enable_checkpoint_early_stop if _enable_checkpoint_early_stop is not None
        else early_stop,
        unpack_error_cb, metadata_fn)
    if not _grad_mode.is_grad_enabled():
        # nothing is saved without grad: the function just runs
        yield
        return
    frame.save_inputs(*args)
    suppressed = False
    with _checkpoint_hook(frame), forward_context:
        try:
            yield
        except BaseException:
            suppressed = True
            raise
    if suppressed:
        # (the forward context swallowed the function's exception)
        raise RuntimeError(_MSG_CONTEXT_SUPPRESSED)
    frame.forward_completed = True


class GraphExecGroup:
    """Checkpointed regions reached by several backward calls made under one instance
    of it are recomputed at most once (the calls must use disjoint saved activations);
    non-reentrant checkpoint only.

    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import checkpoint, GraphExecGroup
    >>> a = torch.ones(2, requires_grad=True)
    >>> b = torch.ones(2, requires_grad=True)
    >>> y1, y2 = checkpoint(lambda p, q: (p.sin(), q.cos()), a, b, use_reentrant=False)
    >>> with GraphExecGroup():
    ...     y1.sum().backward()
    ...     y2.sum().backward()
    """

    def __enter__(self):
        if _current_group() is not None:
            raise RuntimeError("GraphExecGroup contexts cannot be nested. "
                               f"Already inside group {_current_group()}")
        _graph_exec_group.group = self
        return self

    def __exit__(self, *args):
        _graph_exec_group.group = None

    @classmethod
    def _get_current_group(cls):
        return _current_group()


class SelectiveCheckpointContext:
    """What a selective-checkpointing policy function is given: ``op_output`` (the op's
    result) and ``is_recompute`` (always False: the policy is called during the forward
    only, the recomputation replays its decisions by index).

    >>> from autograd_core.utils.checkpoint import SelectiveCheckpointContext
    >>> SelectiveCheckpointContext(is_recompute=False).is_recompute
    False
    """

    def __init__(self, *, is_recompute, op_output=None):
        self.is_recompute = is_recompute
        self.op_output = op_output


class CheckpointPolicy(enum.Enum):
    """What a selective-checkpointing policy decides per op: save its output
    (``MUST_SAVE``/``PREFER_SAVE``), recompute it (``MUST_RECOMPUTE``/
    ``PREFER_RECOMPUTE``) or offload it (``*_CPU_OFFLOAD``).

    >>> from autograd_core.utils.checkpoint import CheckpointPolicy
    >>> CheckpointPolicy.MUST_SAVE.value
    0
    """

    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


# ---------------------------------------------------------------- selective checkpointing

# Note [Selective checkpointing]
# create_selective_checkpoint_contexts returns checkpoint's two contexts: each pushes an
# op hook (Note [Op hook]) that sees every op the checkpointed function runs, by the
# OpOverload PyTorch's dispatch would name it (autograd_core._ops.overload_for).
# - Forward (_CachingTorchDispatchMode): each op gets an index per OpOverload (its
#   count so far); after it runs, the policy decides from its output; a saved output
#   is kept detached (with its version, to detect a later in-place write) in the
#   storage shared with the other context, under (op, index). An op that ran other
#   hooked ops is a composite here (matmul calling mm): the policy sees only the ops
#   inside it, as PyTorch's dispatch sees only the ops a composite decomposes into.
#   Only ops PyTorch composes (_ops.COMPOSITE_IMPLICIT) are looked into: what a leaf
#   op of PyTorch's calls here (gelu calling erf) is hidden, in both passes.
# - Recomputation (_CachedTorchDispatchMode): the same program reaches the same
#   (op, index) pairs; a saved op does not run: its hook supplies the kept output
#   (OpResult). An op records its node as it runs (this tree has no separate autograd
#   layer above the kernels), so the skipped op's node is replaced by two things: the
#   tensors that node saved in the forward are saved again, in the same order (the
#   recomputation hook hands the i-th saved tensor to the i-th holder), named by where
#   they came from (an argument or an output of the op), which the forward notes from
#   checkpoint's pack hook; and an output that required grad is handed back as the
#   output of a node (_SuppliedOutput) over the op's inputs, so that the ops after it
#   record and save as they did in the forward. A saved op whose node saved something
#   other than its arguments or outputs cannot be replayed so: it is recomputed; so is
#   a kept in-place op (handing back its output would not write into its input).
# The recomputed graph only feeds saved tensors to the forward's graph and is never
# differentiated; _SuppliedOutput's backward says so if it ever is.

class _VersionWrapper:
    """A kept output and its version when kept: a later in-place write is an error
    unless allow_cache_entry_mutation."""

    def __init__(self, val):
        self.val = val
        self.version = val._version if isinstance(val, _core.Tensor) else None

    def get_val(self, allow_cache_entry_mutation):
        if self.version is not None and not allow_cache_entry_mutation:
            if self.val._version != self.version:
                raise RuntimeError(
                    "Tensor cached during selective activation checkpoint has been mutated")
        return self.val


def _detach_helper(x):
    # (detached: no reference from the storage back to the graph, which holds the
    # storage through the recomputation's closure)
    return x.detach() if isinstance(x, _core.Tensor) else x


def _policy_from_bool(b):
    # (a policy may return a bool, as PyTorch's older API)
    return CheckpointPolicy.MUST_SAVE if b else CheckpointPolicy.PREFER_RECOMPUTE


_aten = _ops.aten
SAC_IGNORED_OPS = {
    # checkpoint detaches a different number of times during forward and recompute
    _aten.detach.default,
    # the determinism check's metadata reads
    _ops.prim.device.default,
    _aten.size.default, _aten.sym_size.default, _aten.stride.default,
    _aten.sym_stride.default, _aten.storage_offset.default,
    _aten.sym_storage_offset.default, _aten.numel.default, _aten.sym_numel.default,
    _aten.dim.default, _aten.is_contiguous.default, _aten.is_contiguous.memory_format,
    _aten.is_strides_like_format.default, _aten.is_non_overlapping_and_dense.default,
}

_RECOMPUTE = object()
_CONSUMED = object()
_COMPOSITE = object()  # (an op that ran other ops: they have entries of their own)
_RUNNING = object()
_SAC_MISMATCH_MSG = (
    "This can happen if the operations in the checkpointed region are "
    "nondeterministic or depend on global state that changed between "
    "forward and backward.")
_SAVE_POLICIES = (CheckpointPolicy.MUST_SAVE, CheckpointPolicy.PREFER_SAVE)

_sac_state = threading.local()  # .caching: the forward contexts entered on this thread


def _tensors_of(out):
    if isinstance(out, _core.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [o for o in out if isinstance(o, _core.Tensor)]
    return []


class _SACCall:
    __slots__ = ("op", "idx", "args", "nested", "packs", "composite")

    def __init__(self, op, idx, args):
        self.op = op
        self.idx = idx
        self.args = args
        self.nested = False
        self.packs = []
        self.composite = op.overloadpacket.__name__ in _ops.COMPOSITE_IMPLICIT


class _Replay:
    """How to stand in for a kept op's node in the recomputation: where each tensor it
    saved came from (("arg", i) or ("out", j)) and which outputs required grad."""

    __slots__ = ("saved", "requires_grad")

    def __init__(self, saved, requires_grad):
        self.saved = saved
        self.requires_grad = requires_grad


def _source_of(x, args, outs):
    for kind, seq in (("out", outs), ("arg", args)):
        for i, t in enumerate(seq):
            if isinstance(t, _core.Tensor) and (t is x or (
                    t.data_ptr() == x.data_ptr() and t.shape == x.shape
                    and t.stride() == x.stride() and t.dtype == x.dtype)):
                return kind, i
    return None


class _CachingTorchDispatchMode:
    """The forward context of selective checkpointing (Note [Selective checkpointing]):
    asks the policy about each op and keeps the outputs it saves."""

    def __init__(self, policy_fn, storage):
        self.policy_fn = policy_fn
        self.storage = storage
        self.func_counter = defaultdict(int)
        self._calls = []

    def __enter__(self):
        if not hasattr(_sac_state, "caching"):
            _sac_state.caching = []
        _sac_state.caching.append(self)
        _core._push_op_hook(self)
        return self

    def __exit__(self, *exc):
        _core._pop_op_hook(self)
        _sac_state.caching.remove(self)
        self._calls = []
        return False

    def note_pack(self, x):
        if self._calls:
            self._calls[-1].packs.append(x)

    def op_enter(self, name, args):
        if self._calls and not self._calls[-1].composite:
            return None  # (inside a leaf op: its kernel's business)
        op = _ops.overload_for(name, args)
        if op in SAC_IGNORED_OPS:
            return None
        if self._calls:
            self._calls[-1].nested = True
        idx = self.func_counter[op]
        self.func_counter[op] += 1
        call = _SACCall(op, idx, args)
        self._calls.append(call)
        return call

    def op_exit(self, call, out):
        if call is None:
            return
        popped = self._calls.pop()
        _internal_assert(popped is call)
        replay = self.storage.replay
        if out is None:  # (the op raised)
            return
        if call.nested:
            # (a composite: the ops inside it were asked about)
            self.storage[call.op][call.idx] = _COMPOSITE
            return
        policy = self.policy_fn(SelectiveCheckpointContext(is_recompute=False, op_output=out),
                                call.op, *call.args)
        if isinstance(policy, bool):
            policy = _policy_from_bool(policy)
        entry = _RECOMPUTE
        if policy in _SAVE_POLICIES and not call.op.overloadpacket.__name__.endswith("_"):
            outs = _tensors_of(out)
            saved = [_source_of(x, call.args, outs) for x in call.packs]
            if None not in saved:
                replay[(call.op, call.idx)] = _Replay(
                    saved, [t.requires_grad for t in outs])
                if isinstance(out, (tuple, list)):
                    entry = type(out)(_VersionWrapper(_detach_helper(o)) for o in out)
                else:
                    entry = _VersionWrapper(_detach_helper(out))
        self.storage[call.op][call.idx] = entry


class _SuppliedOutput(Function):
    """Stands in, in the recomputation, for the node of an op whose output was kept
    (Note [Selective checkpointing]): its outputs are the kept tensors, its inputs the
    op's inputs that require grad."""

    @staticmethod
    def forward(ctx, kept, *inputs):
        return tuple(kept) if len(kept) > 1 else kept[0]

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(
            "autograd_core.utils.checkpoint: the graph recorded while recomputing a "
            "selectively checkpointed region holds kept outputs and cannot be "
            "differentiated")


class _CachedTorchDispatchMode:
    """The recomputation context of selective checkpointing (Note [Selective
    checkpointing]): hands back the kept outputs, lets the other ops run."""

    def __init__(self, policy_fn, storage, allow_cache_entry_mutation=False):
        self.storage = storage
        self.allow_cache_entry_mutation = allow_cache_entry_mutation
        self.func_counter = defaultdict(int)

    def __enter__(self):
        self.func_counter.clear()
        self._leaf_depth = 0
        _core._push_op_hook(self)
        return self

    def __exit__(self, *exc):
        _core._pop_op_hook(self)
        return False

    def op_enter(self, name, args):
        if self._leaf_depth:
            return None  # (inside a leaf op that runs again: its kernel's business)
        op = _ops.overload_for(name, args)
        if op in SAC_IGNORED_OPS:
            return None
        idx = self.func_counter[op]
        self.func_counter[op] += 1
        func_storage = self.storage.get(op)
        if func_storage is None:
            raise RuntimeError(f"{op} encountered during backward but not found in "
                               f"storage. {_SAC_MISMATCH_MSG}")
        entry = func_storage.get(idx)
        if entry is None:
            raise RuntimeError(f"{op} invocation index {idx} encountered during backward "
                               f"but not found in storage. {_SAC_MISMATCH_MSG}")
        if entry is _CONSUMED:
            raise RuntimeError(
                "Trying to backward an extra time. You are only allowed to backward once "
                "on any region computed under selective activation checkpoint.")
        if entry is _RECOMPUTE or entry is _COMPOSITE:
            if entry is _RECOMPUTE:
                self._leaf_depth += 1
                return _RUNNING
            return None
        func_storage[idx] = _CONSUMED
        replay = self.storage.replay.pop((op, idx))
        if isinstance(entry, (tuple, list)):
            value = type(entry)(e.get_val(self.allow_cache_entry_mutation) for e in entry)
        else:
            value = entry.get_val(self.allow_cache_entry_mutation)
        outs = _tensors_of(value)
        # outputs that required grad come out of a node over the op's inputs
        need = [i for i, rg in enumerate(replay.requires_grad) if rg]
        inputs = [a for a in args if isinstance(a, _core.Tensor) and a.requires_grad]
        if need and inputs and _grad_mode.is_grad_enabled():
            kept = [outs[i].detach() for i in need]
            made = _SuppliedOutput.apply(kept, *inputs)
            made = made if isinstance(made, tuple) else (made,)
            swap = {id(outs[i]): m for i, m in zip(need, made)}
            outs = [swap.get(id(t), t) for t in outs]
            if isinstance(value, (tuple, list)):
                it = iter(outs)
                value = type(value)(next(it) if isinstance(v, _core.Tensor) else v
                                    for v in value)
            else:
                value = outs[0]
        # the tensors the op's node saved in the forward, saved again in order
        for kind, i in replay.saved:
            t = outs[i] if kind == "out" else args[i]
            _core._make_saved_tensor(t, False)  # (through the hooks in force)
        return _core.OpResult(value)

    def op_exit(self, state, out):
        if state is _RUNNING:
            self._leaf_depth -= 1


class _SACStorage(defaultdict):
    """op -> {index: kept output, _RECOMPUTE or _CONSUMED}, shared by the two contexts;
    .replay: (op, index) -> _Replay."""

    def __init__(self):
        super().__init__(dict)
        self.replay = {}


def create_selective_checkpoint_contexts(policy_fn_or_list, allow_cache_entry_mutation=False):
    """The ``context_fn`` of selective activation checkpointing: the outputs of the ops
    the policy saves are kept during the forward and not recomputed during backward
    (Note [Selective checkpointing]).

    ``policy_fn_or_list`` is a function ``policy(ctx, op, *args, **kwargs)`` returning a
    ``CheckpointPolicy`` (or a bool: True is ``MUST_SAVE``), called once per op of the
    forward with ``ctx.op_output`` its result and ``op`` an ``OpOverload`` of
    ``torch.ops.aten``; or a list of OpOverloads to save (``MUST_SAVE``; every other op
    ``PREFER_RECOMPUTE``). A kept output written in place afterwards makes backward
    raise unless ``allow_cache_entry_mutation=True``.

    >>> import functools
    >>> import autograd_core as torch
    >>> from autograd_core.utils.checkpoint import (checkpoint,
    ...     create_selective_checkpoint_contexts)
    >>> x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    >>> context_fn = functools.partial(create_selective_checkpoint_contexts,
    ...                                [torch.ops.aten.mm.default])
    >>> out = checkpoint(lambda t: torch.mm(t, t).sin().sum(), x, use_reentrant=False,
    ...                  context_fn=context_fn)
    >>> out.backward()
    >>> x.grad
    tensor([[ -2.4494,  -4.9335],
            [ -4.2906, -11.9569]])
    """
    if isinstance(policy_fn_or_list, list):
        for op in policy_fn_or_list:
            if not isinstance(op, _ops.OpOverload):
                extra = ("Please update the OpOverloadPacket to a specific OpOverload."
                         "For example, if you have `torch.ops.aten.mm`, change it to "
                         "`torch.ops.aten.mm.default`.") \
                    if isinstance(op, _ops.OpOverloadPacket) else ""
                raise ValueError(f"Expected op in `op_list` to be an OpOverload but got: "
                                 f"{op} of type {type(op)}. {extra}")

        def policy_fn(ctx, op, *args, **kwargs):
            if op in policy_fn_or_list:
                return CheckpointPolicy.MUST_SAVE
            return CheckpointPolicy.PREFER_RECOMPUTE
    elif callable(policy_fn_or_list):
        policy_fn = policy_fn_or_list
    else:
        raise TypeError("policy_fn_or_list must be either a function or a list of ops.")
    storage = _SACStorage()
    return (_CachingTorchDispatchMode(policy_fn, storage),
            _CachedTorchDispatchMode(None, storage, allow_cache_entry_mutation))
