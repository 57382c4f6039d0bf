"""Compiled mode: ``torch.compile`` as capture and replay (``torch._dynamo``'s public names).

Note [Compiled mode]
A compiled function's first call runs eagerly while it is RECORDED; later calls whose
GUARDS hold REPLAY the recording; whatever the recorder cannot prove the replay would
repeat is a GRAPH BREAK and runs eagerly. Eager mode stays the one source of truth: a
compiled call gives the value, gradients, printed output, side effects and random stream
the eager call would, or it runs eagerly.

Recording (``_record.py``): the call runs eagerly with three observers on, on its thread:
- the op hook (Note [Op hook], ``_core/_profiler.pxi``) sees each op called through the op
  table with its table arguments (tensors and non-tensor arguments alike) and its result.
  Ops nested inside an op (a composite's parts) are not steps: the outer op is. Each step
  is the op's table name and its arguments with every tensor replaced by a slot: an
  argument tensor, a constant (a parameter, buffer, or tensor reached through a guarded
  global or closure cell) or an earlier step's output. A tensor made any other way (a
  factory, ``.detach()``, ``.data``) used by an op is a graph break.
- ``sys.setprofile`` sees every Python function and builtin the call runs. User code (any
  code outside autograd_core and the standard library / site-packages) is checked once per
  code object by bytecode inspection: a store to a global, an attribute, a subscript or a
  nonlocal cell, an import or a generator is a graph break (the replay could not repeat
  it); the globals it reads (and module attributes read off a global module) and its
  closure cells become guards. Builtins user code calls must be pure ones (len,
  isinstance, min, math functions, ...): print, list.append and any other builtin are
  graph breaks. Library code that makes tensors or random numbers outside the op table
  (``_creation.py``'s factories, ``random.py``), prints, or keeps Python state (optimizers,
  data loading, communication) is a graph break, as is a ``torch.compiler.disable``d
  function.
- the core's value-read hook (``_set_value_read_hook``, ``_core/_tensor.pxi``) sees Python
  reading a tensor's values: ``bool(t)`` (``if t > 0:``), ``item()``, ``tolist()``,
  ``float()``/``int()``/``index``, ``numpy()``, printing. Data-dependent control flow or
  output is a graph break.
Between ops, each tensor's autograd state (requires_grad, grad_fn, .grad, hooks, retains
grad, forward tangent) must be what the last op left: a change made outside the op table
(``requires_grad_()``, ``retain_grad()``, ``backward()`` filling ``.grad``) is a graph
break. So is a change of grad mode inside the call.

Guards: the arguments' key (``_replay.pyx``, ``arguments_key``): per tensor its type,
dtype, shape, strides, requires_grad, leaf-ness, whether it has a ``.grad``, hooks,
retains grad, a tangent, inference-ness; Python numbers, strings and None by type and
value; containers by type and length; other objects by identity; and the grad mode. Then
the recording's guards (``check_guards``): globals and closure cells the code read (numbers
by value, anything else by identity; lists and dicts also by their items' identities), the
modules reached (every ``__dict__`` entry: ``training``, the parameter / buffer /
submodule / hook dicts by their items' identities, numbers by value, recursively) and
the global module hooks. A call under another op observer (profiler, autocast,
checkpointing, a transform), forward AD or inference mode runs eagerly.

Replay (``_replay.pyx``): each step calls the op's implementation through the op table by
its table name (``_core/opcall.pyx``), with no Python wrapper, ``__torch_function__``
check or argument parsing; ops build the autograd graph exactly as eager does (backward is
eager's), random ops draw from the generator exactly as eager would, in-place ops and
views act on the same tensors. The output is rebuilt from its template (tensors by slot,
other values as recorded).

Note [Fused blocks]
At its first replay an entry's steps are split into maximal runs (two steps or more) of
fusible elementwise steps: add/sub (alpha 1), mul, div (no rounding mode), neg, exp,
tanh, sigmoid, relu, whose tensor operands all have the result's dtype (float32 or
float64) and C-contiguous layout, and the result's shape, or, for one operand of a
binary op, a BROADCAST shape: one that, leading 1s dropped, is a suffix of the result's
(a row-vector bias ``x @ W + b``, a scalar tensor), whose values repeat along the block;
the other operand may also be a Python int/float. Each run becomes a FusedBlock
(``_fuse.pxi``): one program of ``csrc/agc_fuse.c``'s interpreter, run in tiles of 512
elements so its intermediates stay in a few cache-resident registers (a tile of an input
is read in place, not copied, as is a broadcast input's in tiles dividing its period:
Note [Tiles of a broadcast block]); only the run's outputs read later (by a step or by
the function's output) are materialized, each made in place by the instruction that
computes it. With grad on and an input requiring grad, the block
is ONE node, ``CompiledFunctionBackward`` (PyTorch's grad_fn of aot/inductor-compiled
graphs), whose backward is a fused program too (each instruction's derivative, in reverse,
reading a (rows, n) buffer of the forward values it needs, stored as they are made). A
broadcast input's gradient leaves the block unreduced (the block's shape) and the engine
sums it to the input's shape (Node.input_meta), the very reduction it applies to eager's
AddBackward0/MulBackward0/... gradient, so the sum is eager's, bit for bit. An input read
by several steps (or twice by one: x * x) gets one edge per use, each use's gradient apart
and in the order eager's nodes deliver them (later steps first, self before other), so
the engine adds them (and reduces the broadcast ones) as it adds eager's: summed in the
block they would associate otherwise whenever the input has gradients from outside the
block too. Its
gradients under create_graph=True carry ``CompiledFunctionBackwardBackward``, which raises
PyTorch's "does not currently support double backward" on a second backward.
Bitwise equality with eager: the interpreter's expressions are agc_kernels.c's (the same
libm calls in the same type and order; a number rounded to the element type first, as
eager rounds a wrapped number; the backward formulas as derivatives.yaml computes them),
and eager runs those kernels on arrays up to 128 elements for the libm ops. Above that
eager hands exp/tanh/sigmoid to numpy's vectorised loops, and a block calls those very
loops on its tiles (Note [numpy's loops in a block], ``_fuse.pxi``; a block whose loop
fails its check runs unfused there); such a program runs in longer tiles (_CALL_TILE,
4096 elements: numpy's loops cost less per element on them than on 512, and each saved
row is written and read back in longer stretches), one pass over memory for the whole
run, forward and backward, however many steps it holds. Arithmetic fuses at any size
(values equal within rounding: gradients summed over several uses may add in another
order). Saved rows of 64 KiB or more are arrays of their own, each reused from malloc's
heap as eager's saved tensors are (one (rows, n) array of chain100k's 200 rows, 80 MB,
is above malloc's mmap threshold: mapped and page-faulted afresh at every replay). A block
whose rows would total 10 MB or more saves none: its backward recomputes the forward tile
by tile from a copy of the block's inputs (Note [Recomputed in backward], ``_fuse.pxi``).
Not fused (the steps run as recorded): backend="eager" (PyTorch's eager backend keeps
per-op nodes), recordings holding an in-place op, views/non-contiguous operands,
broadcasting other than one suffix-shaped operand (a column (n, 1), both operands),
integer/complex/bool dtypes, any other op; a block whose inputs at a replay
differ from its plan (layout, requires_grad) runs its steps unfused. Hooks, retain_grad,
forward AD and grad-mode changes are graph breaks or eager calls already. The backward
reads the block's input and output tensors' own arrays (what eager's nodes save), with
their version counters, so an in-place change of one before the backward raises eager's
"modified by an inplace operation" error; it reads copies of the intermediates (saved
rows, stored as they are made). Inputs with one gradient register (add's two operands)
share its array, as eager's AddBackward0 returns one tensor twice.

Recompiles: a call matching no recording records again; a code object keeps at most
``config.recompile_limit`` recordings (PyTorch's count and warning text, logged once),
beyond which non-matching calls run eagerly, as PyTorch's.

Where it differs from PyTorch's dynamo: no bytecode is rewritten and nothing is traced
symbolically, so a graph break makes the WHOLE function eager, on every later call
(remembered per code object until ``reset()``), where dynamo would compile the pieces
around it; recordings are specialized to shapes (``dynamic=`` is accepted and ignored);
``fullgraph=True`` raises ``Unsupported`` when the break is met, during the first call (what
ran before it has run); ``backend=`` and ``mode=`` are checked as PyTorch checks them but
every backend replays the same recording.
"""
from autograd_core._dynamo import config, exc  # noqa: F401
from autograd_core._dynamo.eval_frame import disable, reset  # noqa: F401
from autograd_core._dynamo import eval_frame  # noqa: F401

_BACKENDS = ("cudagraphs", "inductor", "openxla", "tvm")
_DEBUG_BACKENDS = ("eager", "aot_eager", "aot_eager_default_partitioner",
                   "aot_eager_decomp_partition", "aot_ts", "inductor", "cudagraphs",
                   "onnxrt", "openxla", "tvm")
_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


def list_backends(exclude_tags=("debug", "experimental")):
    """The backend names ``torch.compile`` accepts (PyTorch's list; every backend replays
    the same recording here).

    >>> import autograd_core as torch
    >>> torch._dynamo.list_backends()
    ['cudagraphs', 'inductor', 'openxla', 'tvm']
    """
    if exclude_tags:
        return list(_BACKENDS)
    return sorted(set(_DEBUG_BACKENDS))


def is_compiling():
    """True while compiled mode records a call on this thread.

    >>> import autograd_core as torch
    >>> torch._dynamo.is_compiling()
    False
    """
    return eval_frame._recording()


def optimize(backend="inductor", *, nopython=False, dynamic=None, disable=False, **kwargs):
    """PyTorch's older entry point: a decorator compiling its function."""
    from autograd_core import compile as _compile
    return lambda fn: _compile(fn, fullgraph=nopython, dynamic=dynamic,
                               backend=backend if isinstance(backend, str) else backend,
                               disable=disable)


def _check_backend(backend):
    if callable(backend):
        return
    if not isinstance(backend, str) or backend not in _DEBUG_BACKENDS:
        raise exc.InvalidBackend(backend)


def _check_mode(mode):
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, disable=False):
    """The implementation of ``torch.compile`` (see ``autograd_core.compile``)."""
    if model is None:
        def fn(model):
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, disable=disable)
        return fn
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    _check_mode(mode)
    _check_backend(backend)
    if disable:
        return model
    from autograd_core.nn.modules.module import Module
    if isinstance(model, Module):
        return eval_frame.optimized_module_class()(model, fullgraph, backend != "eager")
    if not callable(model):
        raise RuntimeError("torch.compile() expected a callable, got "
                           f"{type(model).__name__}")
    return eval_frame.compiled_function(model, fullgraph, backend != "eager")


def explain(f, *extra_args, **extra_kwargs):
    """Run f once in compiled mode and describe its recording: ``explain(f)(*args)`` gives
    an ExplainOutput (graph_count, graph_break_count, break_reasons, op_count).

    >>> import autograd_core as torch
    >>> out = torch._dynamo.explain(lambda x: x.sin().cos())(torch.ones(2))
    >>> out.graph_count, out.graph_break_count, out.op_count
    (1, 0, 2)
    """
    def inner(*args, **kwargs):
        from autograd_core._dynamo._record import Recorder
        rec = Recorder(f, False)
        eval_frame._tls.recording = True
        try:
            rec.run(None, args, kwargs, f)
        finally:
            eval_frame._tls.recording = False
        return ExplainOutput(rec)

    if extra_args or extra_kwargs:
        return inner(*extra_args, **extra_kwargs)
    return inner


class ExplainOutput:
    """What ``explain`` found: one graph of op_count ops, or a whole-function break."""

    def __init__(self, rec):
        broken = rec.reason is not None
        self.graph_count = 0 if broken else 1
        self.graph_break_count = 1 if broken else 0
        self.break_reasons = [rec.reason] if broken else []
        self.op_count = 0 if broken else len(rec.steps)
        self.ops_per_graph = [] if broken else [[s[0] for s in rec.steps]]

    def __str__(self):
        s = (f"Graph Count: {self.graph_count}\nGraph Break Count: {self.graph_break_count}\n"
             f"Op Count: {self.op_count}\n")
        if self.break_reasons:
            s += "Break Reasons:\n" + "".join(f"  {r}\n" for r in self.break_reasons)
        return s
