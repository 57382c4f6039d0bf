"""The batched backward of autograd.grad(is_grads_batched=True).

Note [Batched backward]
PyTorch runs the backward of a batch of cotangents once, under vmap. Here one backward
pass carries cotangents with a physical leading batch dim, and an op hook (Note [Op
hook], _core/_profiler.pxi), pushed for that pass only, sees every op the derivative
formulas and the engine call through OPS. An op call with a batched tensor among its
arguments (the pass's cotangents and every result of a batched op, tracked by identity
for the pass) is replaced by a batching rule run on the physical tensors (OpResult):
- pointwise ops broadcast as they are, the batch dim leading: a batched operand whose
  per-sample rank is below the widest operand's gets size-1 dims after its batch dim;
  under create_graph an unbatched operand that requires grad is expanded to the batch
  (a formula's node need not reduce a broadcast: tanh_backward's does not);
- ops with dim arguments shift the (normalised) dims by one; a reduction over all dims
  reduces over every dim but the batch;
- size arguments (view, reshape, expand, sum_to, the *_backward ops' input sizes) get
  the batch size in front (sum_to summing, expand adding, the per-sample dims that the
  right alignment would confuse with the batch); permute/transpose/t shift their dims;
- a matrix product with one batched operand folds the batch into one matrix product,
  with two it is matmul's batch (a 1-d batched operand as a row or a column);
- any other op runs once per batch entry (its batched arguments indexed, the others as
  they are) and its results are stacked: slower, never wrong.
A node runs batched only when the op table's cases check it (_BATCHED_NODES, kept by
tests/test_batched_backward.py); any other node, and one whose formula writes a batched
value into an unbatched tensor in place, runs once per batch entry as a whole
(apply_node): the hand-written nodes call their family's kernels, which no hook sees,
some helpers work on the arrays, and a formula's zeros_like(grad) makes an unbatched
tensor in the batched gradient's shape (the engine takes a gradient in exactly that
shape as batched). A custom Function's backward so runs once per entry, seeing
per-sample gradients (PyTorch runs it once under vmap with a batched tensor of the
per-sample shape: the same shapes and values, a different number of calls).
The classification of the table's ops reuses vmap's (func/_vmap.py: its pointwise
names, its reduction and dim rules, its reductions over all dims), keyed by the names
the op table gives (OP_SCHEMAS, generated with the op caller in _core/opcall.pyx).
The engine is told that a pass is batched (engine._set_batched_pass; Note [Batched
backward] there): it checks and reduces a batched gradient against (batch,) + its
input's shape, runs each node through apply_node, and user tensor and node hooks see
per-sample gradients as vmap BatchedTensors (PyTorch's hooks see a batched tensor of
the per-sample shape too). User code the pass runs (hooks, nodes run per entry) runs
with the hook and the engine's flag off: a backward it starts is an ordinary one, as is
another thread's. Anomaly mode's per-node checks do not run in a batched pass.
Ops run inside a rule are not hooked (Note [Op hook]); under create_graph they record
the graph of the physical computation, which a later backward differentiates as any
other (hessian(vectorize=True) differentiates a batched pass by another).
"""
import threading
from weakref import ref as _weakref

import autograd_core as _ag
from autograd_core._core import tensor as _core
from autograd_core._core import engine as _engine
from autograd_core._core.opcall import INPLACE_OPS, OP_SCHEMAS, op_call
from autograd_core import _vmap_state

Tensor = _core.Tensor
_OpResult = _core.OpResult

# ATen name (what the op hook sees) -> the table names that carry it
_BY_ATEN = {}
for _n, _s in OP_SCHEMAS.items():
    _BY_ATEN.setdefault(_s[0], []).append(_n)

_state = threading.local()   # .current: the pass running on this thread


def current():
    """The batched pass running on this thread, None when there is none."""
    return getattr(_state, "current", None)


class _PerEntry(Exception):
    """Raised inside a node's formula: the node has to run once per batch entry."""


def _fits(typ, a):
    if typ == "Tensor":
        return isinstance(a, Tensor)
    if typ == "Tensor?":
        return a is None or isinstance(a, Tensor)
    if typ in ("Scalar", "Scalar?", "int", "float", "bool"):
        return not isinstance(a, Tensor)
    if typ in ("int[]", "int[*]"):
        return isinstance(a, (list, tuple))
    return True


def _resolve(aten, args):
    """The table op behind a hooked call: the ATen name and, where several ops share
    it (add and add_scalar), the arguments' number and kinds."""
    cands = _BY_ATEN.get(aten)
    if not cands:
        return None
    if len(cands) == 1:
        return cands[0]
    for c in cands:
        params = OP_SCHEMAS[c][3]
        if len(params) == len(args) and all(_fits(p[1], a) for p, a in zip(params, args)):
            return c
    return None


def _vm():
    from autograd_core.func import _vmap
    return _vmap


_CLASSES = None


def _classes():
    """Which table ops are pointwise, reductions, dim ops: vmap's classification of
    the public names (func/_vmap.py), plus the table's internal pointwise derivatives
    (an internal op is pointwise when its formula's node is; listed by name here)."""
    global _CLASSES
    if _CLASSES is None:
        vm = _vm()
        pointwise = set(vm._POINTWISE.split()) if isinstance(vm._POINTWISE, str) \
            else set(vm._POINTWISE)
        pointwise |= {"add_scalar", "mul_scalar", "div_scalar", "_div_mode",
                      "_clamp_tensor", "_lerp_tensor", "_to_copy"}
        pointwise |= {n for n, s in OP_SCHEMAS.items()
                      if s[1] == ("internal",) and n.endswith("_backward")
                      and n[:-len("_backward")] in pointwise
                      and all(p[1] in ("Tensor", "Scalar", "Scalar?", "bool", "float", "int",
                                       "TensorOrScalar", "str?", "str")
                              for p in s[3])
                      and not any(p[0] in ("dim", "input_sizes", "size") for p in s[3])}
        pointwise -= {"to", "type_as", "zeros_like", "ones_like", "full_like",
                      "empty_like", "masked_fill", "where", "float", "double", "half",
                      "int", "long", "bool", "detach", "rsub"}
        reductions = {n for n, r in vm._RULES.items() if r is vm._reduction}
        dim_ops = {n for n, r in vm._RULES.items() if r is vm._dim_ops}
        _CLASSES = (frozenset(pointwise), frozenset(reductions), frozenset(dim_ops),
                    frozenset(vm._FULL_REDUCE_DEFAULT), frozenset(vm._EMPTY_DIM_REDUCES_ALL))
    return _CLASSES


class BatchedBackward:
    """The op hook and engine helper of one batched backward pass (Note [Batched
    backward])."""

    def __init__(self, size):
        self.size = size
        self._ids = {}
        self.level = None

    # -- which tensors are batched
    # (by identity, weakly: a gradient the pass has done with is freed as in an
    # ordinary pass; a dead entry's id may be reused, so the reference is compared)
    def mark(self, t):
        if isinstance(t, Tensor):
            self._ids[id(t)] = _weakref(t)
        return t

    def is_batched(self, t):
        r = self._ids.get(id(t))
        return r is not None and r() is t

    def _any_batched(self, args):
        ids = self._ids
        for a in args:
            if type(a) is list or type(a) is tuple:
                for b in a:
                    r = ids.get(id(b))
                    if r is not None and r() is b:
                        return True
            elif a is not None:
                r = ids.get(id(a))
                if r is not None and r() is a:
                    return True
        return False

    # -- the op hook
    def op_enter(self, name, args):
        if not self._any_batched(args):
            return None
        op = _resolve(name[6:], args)
        if op is None:
            raise RuntimeError(f"autograd_core: batched backward: no table op for {name}")
        return _OpResult(self._run(op, args))

    def op_exit(self, state, result):
        pass

    def _run(self, op, args):
        pointwise, reductions, dim_ops, full_reduce, empty_all = _classes()
        res = NotImplemented
        if op in pointwise or (op in INPLACE_OPS and op[:-1] in pointwise):
            res = self._pointwise(op, args)
        elif op in _SIZE_FIRST:
            res = self._sized(op, args)
        elif op in _MATMUL:
            res = self._matmul(op, args)
        elif op in ("t", "permute", "transpose"):
            res = self._reorder(op, args)
        elif op in reductions or op in dim_ops or op in _DIM_EXTRA:
            res = self._dims(op, args, op in reductions, op in full_reduce, op in empty_all)
        if res is NotImplemented:
            res = self._loop(op, args)
        return res

    def _mark_out(self, out):
        if isinstance(out, Tensor):
            return self.mark(out)
        if isinstance(out, (tuple, list)):
            for o in out:
                if isinstance(o, Tensor):
                    self.mark(o)
        return out

    def _logical_dim(self, a):
        return a.dim() - 1 if self.is_batched(a) else a.dim()

    # -- rules
    def _pointwise(self, op, args):
        if op in INPLACE_OPS and not self.is_batched(args[0]):
            raise _PerEntry(op)
        rank = 0
        for a in args:
            if isinstance(a, Tensor):
                rank = max(rank, self._logical_dim(a))
        new = list(args)
        for i, a in enumerate(args):
            if isinstance(a, Tensor) and self.is_batched(a):
                pad = rank - (a.dim() - 1)
                if pad:
                    new[i] = op_call("reshape", (a, [a.shape[0]] + [1] * pad
                                                 + list(a.shape)[1:]))
        if _ag.is_grad_enabled():
            # recording (create_graph): an unbatched operand that requires grad is
            # expanded to the batch, so that the op's node (whose formula may not reduce
            # a broadcast: tanh_backward) sees operands of one shape and its gradient is
            # summed over the batch by expand's
            shapes = [tuple(x.shape) for x in new if isinstance(x, Tensor)]
            target = None
            for i, x in enumerate(new):
                if isinstance(x, Tensor) and x.requires_grad and not self.is_batched(args[i]):
                    if target is None:
                        target = list(_ag.broadcast_shapes(*shapes))
                    if list(x.shape) != target:
                        new[i] = op_call("expand", (x, target))
        out = op_call(op, tuple(new))
        if op in INPLACE_OPS:
            return out
        return self._mark_out(out)

    def _sized(self, op, args):
        # view/reshape/expand/sum_to/*_backward(grad, input_sizes, dim...): the batch
        # size in front of the size argument, dims shifted; the first argument batched
        # (the other arguments unbatched)
        params = OP_SCHEMAS[op][3]
        if not self.is_batched(args[0]) or self._any_batched(args[1:]):
            return NotImplemented
        new = list(args)
        rank = None
        for i, p in enumerate(params):
            if p[0] in ("size", "shape", "input_sizes", "sizes") and isinstance(args[i], (list, tuple)):
                new[i] = [self.size] + list(args[i])
                rank = len(args[i])
        g = args[0]
        extra = (g.dim() - 1) - (rank if rank is not None else 0)
        if op == "sum_to" and extra > 0:
            # (sum_to aligns on the right: the leading per-sample dims it drops are
            # summed first, so that the batch dim is not taken for one of them)
            new[0] = op_call("sum", (g, list(range(1, extra + 1)), False, None))
        elif op == "expand" and extra < 0:
            # (expand adds leading dims: they go after the batch dim)
            new[0] = op_call("reshape", (g, [g.shape[0]] + [1] * -extra + list(g.shape)[1:]))
        for i, p in enumerate(params):
            if p[0] == "dim" and isinstance(args[i], int):
                new[i] = _shift(args[i], rank if rank is not None else args[0].dim() - 1)
        out = op_call(op, tuple(new))
        return self._mark_out(out)

    def _dims(self, op, args, reduction, full_reduce, empty_all):
        params = OP_SCHEMAS[op][3]
        if not self.is_batched(args[0]) or self._any_batched(args[1:]):
            return NotImplemented
        n = args[0].dim() - 1
        new = list(args)
        seen = False
        # (unsqueeze's dim ranges over the result's dims)
        nd = n + 1 if op in ("unsqueeze", "unsqueeze_") else n
        for i, p in enumerate(params):
            if p[0] not in ("dim", "dims", "dim0", "dim1", "source", "destination"):
                continue
            d = args[i]
            seen = True
            if d is None:
                if not (reduction and full_reduce):
                    return NotImplemented
                if n == 0:
                    return NotImplemented
                new[i] = list(range(1, n + 1))
            elif isinstance(d, int) and not isinstance(d, bool):
                new[i] = _shift(d, nd)
            elif isinstance(d, (list, tuple)):
                if len(d) == 0:
                    if not (reduction and empty_all) or n == 0:
                        return NotImplemented
                    new[i] = list(range(1, n + 1))
                else:
                    new[i] = [_shift(x, nd) for x in d]
            else:
                return NotImplemented
        if not seen:
            return NotImplemented
        return self._mark_out(op_call(op, tuple(new)))

    def _reorder(self, op, args):
        a = args[0]
        if not self.is_batched(a):
            return NotImplemented
        n = a.dim() - 1
        if op == "t":
            if n < 2:
                # (t of a 0-d or 1-d sample is the sample itself, as a new view)
                return self.mark(op_call("alias", (a,)))
            return self.mark(op_call("transpose", (a, 1, 2)))
        if op == "transpose":
            return self.mark(op_call("transpose", (a, _shift(args[1], n), _shift(args[2], n))))
        if op == "permute":
            dims = [0] + [_shift(d, n) for d in args[1]]
            return self.mark(op_call("permute", (a, dims)))
        return NotImplemented

    def _matmul(self, op, args):
        a, b = args[0], args[1]
        if not (isinstance(a, Tensor) and isinstance(b, Tensor)) or len(args) != 2:
            return NotImplemented
        ba, bb = self.is_batched(a), self.is_batched(b)
        la = a.dim() - ba
        lb = b.dim() - bb
        if op == "mm" and (la != 2 or lb != 2):
            return NotImplemented
        if op == "mv" and (la != 2 or lb != 1):
            return NotImplemented
        if op == "dot" and (la != 1 or lb != 1):
            return NotImplemented
        if la == 0 or lb == 0:
            return NotImplemented
        if ba != bb:
            out = self._fold(a, b, ba, la, lb)
            if out is not None:
                return self.mark(out)
        squeeze = []
        if ba and la == 1:
            a = op_call("unsqueeze", (a, 1))        # a row: (B, 1, k)
            squeeze.append(-2)
        if bb and lb == 1:
            b = op_call("unsqueeze", (b, -1))       # a column: (B, k, 1)
            squeeze.append(-1)
        out = op_call("matmul", (a, b))
        for d in sorted(squeeze):
            out = op_call("squeeze", (out, [d]))
        return self.mark(out)

    def _fold(self, a, b, ba, la, lb):
        """A product with one batched operand as one matrix product: the batch folded
        into the batched operand's rows (or columns), so that one BLAS call does the
        whole batch (numpy's matmul over a stack of small matrices does not)."""
        B = self.size
        bb = not ba
        if ba and lb in (1, 2) and la in (1, 2):
            k = a.shape[-1]
            flat = op_call("reshape", (a, [-1, k]))
            r = op_call("matmul", (flat, b))
            return op_call("reshape", (r, [B] + list(a.shape)[1:-1] + list(b.shape)[1:]))
        if bb and la == 2 and lb == 1:
            # (n, k) @ (B, k) per entry: (B, k) @ (k, n)
            return op_call("matmul", (b, op_call("transpose", (a, 0, 1))))
        if bb and la == 2 and lb == 2:
            n, k = a.shape
            m = b.shape[-1]
            cols = op_call("reshape", (op_call("transpose", (b, 0, 1)), [k, B * m]))
            r = op_call("reshape", (op_call("matmul", (a, cols)), [n, B, m]))
            return op_call("transpose", (r, 0, 1))
        if bb and la == 1 and lb == 2:
            # (k,) @ (B, k, m) per entry: (B, m, k) @ (k,)
            k = a.shape[0]
            m = b.shape[-1]
            rows = op_call("reshape", (op_call("transpose", (b, 1, 2)), [-1, k]))
            return op_call("reshape", (op_call("matmul", (rows, a)), [B, m]))
        return None

    def _loop(self, op, args):
        """The op once per batch entry, the results stacked (the fallback)."""
        # (an in-place op writes each entry into its batched first argument: the table's
        # in-place ops, INPLACE_OPS)
        inplace = op in INPLACE_OPS
        if inplace and not self.is_batched(args[0]):
            raise _PerEntry(op)
        results = []
        for b in range(self.size):
            sample = []
            for a in args:
                if type(a) is list or type(a) is tuple:
                    sample.append(type(a)(op_call("select", (x, 0, b)) if
                                          x is not None and self.is_batched(x) else x for x in a))
                elif a is not None and self.is_batched(a):
                    sample.append(op_call("select", (a, 0, b)))
                else:
                    sample.append(a)
            results.append(op_call(op, tuple(sample)))
        if inplace:
            return args[0]
        return self._stack(results)

    def _stack(self, results):
        first = results[0] if results else None
        if isinstance(first, Tensor):
            return self.mark(op_call("stack", (list(results), 0)))
        if isinstance(first, (tuple, list)):
            out = []
            for i, o in enumerate(first):
                if isinstance(o, Tensor):
                    out.append(self.mark(op_call("stack", ([r[i] for r in results], 0))))
                else:
                    out.append(o)
            return type(first)(out) if not hasattr(type(first), "_fields") \
                else type(first)(*out)
        return first

    # -- the engine's questions (Note [Batched backward] in engine.pyx)
    def validate_grad(self, node, i, g, shape, dt):
        """A batched gradient for forward input i of node (shape, dtype dt): checked and
        reduced to (batch,) + shape, cast to dt."""
        shape = tuple(shape)
        if not self.is_batched(g):
            if tuple(g.shape) != (self.size,) + shape or current() is not self:
                return self._validate_unbatched(node, i, g, shape, dt)
            # a tensor made in the batched gradient's shape by a creation function the
            # hook does not see (a formula's zeros_like(grad)): batched
            self.mark(g)
        have = tuple(g.shape)[1:]
        if have != shape:
            if not _engine.expandable_to(shape, have):
                raise _invalid_gradient(node, i, have, shape)
            # (through the hook: the rule of sum_to puts the batch in front)
            g = op_call("sum_to", (g, list(shape)))
        if g.dtype != dt:
            nxt = node.next_functions[i][0] if i < len(node.next_functions) else None
            var = getattr(nxt, "variable", None)
            if var is None or getattr(var, "grad_dtype", None) is None:
                g = op_call("_to_copy", (g, dt))
        return g

    def _validate_unbatched(self, node, i, g, shape, dt):
        """An unbatched gradient (the same for every entry), reduced as the engine does."""
        if not _engine.expandable_to(shape, tuple(g.shape)):
            raise _invalid_gradient(node, i, g.shape, shape)
        g = op_call("sum_to", (g, list(shape)))
        if g.dtype != dt:
            g = op_call("_to_copy", (g, dt))
        return g

    def _logical(self, g):
        vm = _vm()
        return vm.BatchedTensor(g, self.level) if self.is_batched(g) else g

    def _physical(self, r):
        vm = _vm()
        if type(r) is vm.BatchedTensor:
            if r._level != self.level:
                raise RuntimeError("vmap: a BatchedTensor escaped the level that made it")
            return self.mark(r._value)
        return r

    def _outside(self, fn, *args):
        """fn run on per-sample (logical) gradients, with vmap's level of this pass
        active and this hook off (the user's ops dispatch through vmap's rules)."""
        lv = (_vmap_state.LEVELS[-1][0] + 1) if _vmap_state.LEVELS else 1
        self.level = lv
        _vmap_state.LEVELS.append([lv, self.size, "error"])
        self._suspend()
        try:
            return fn(*args)
        finally:
            self._resume()
            _vmap_state.LEVELS.pop()

    def _suspend(self):
        """While user code (a hook, a node run per entry) runs: this hook off, and the
        engine's flag too, so that a backward pass the code runs is an ordinary one."""
        _core._pop_op_hook(self)
        _engine._set_batched_pass(None)
        _state.current = None

    def _resume(self):
        _state.current = self
        _engine._set_batched_pass(self)
        _core._push_op_hook(self)

    def run_tensor_hook(self, fn, g):
        if current() is not self:
            return _plain_tensor_hook(fn, g)
        def call(g):
            r = fn(self._logical(g))
            return None if r is None else self._physical(r)
        r = self._outside(call, g)
        if r is None:
            return g
        if not isinstance(r, Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
        if not self.is_batched(r):
            # the same gradient for every entry
            r = self.mark(r.unsqueeze(0).expand(self.size, *r.shape).contiguous())
        if tuple(r.shape) != tuple(g.shape):
            raise RuntimeError(f"hook '{getattr(fn, '__name__', '<unknown>')}' has changed "
                               "the size of value")
        return r

    def run_node_hook(self, h, grads):
        if current() is not self:
            return h(*grads)
        def call(*tuples):
            r = h(*[tuple(self._logical(g) if isinstance(g, Tensor) else g for g in t)
                    for t in tuples])
            if r is None:
                return None
            if not isinstance(r, tuple):
                return r
            return tuple(self._physical(x) for x in r)
        return self._outside(call, *grads)

    def apply_node(self, node, grads):
        """The node's derivative over the batch, or once per entry when its formula
        cannot run batched (Note [Batched backward])."""
        if current() is not self:   # (another thread's ordinary pass)
            out = node(*grads)
            return (out,) if len(node.next_functions) == 1 else tuple(out)
        if _RECORD is not None:
            _RECORD.add(type(node).__name__)
        if type(node).__name__ in _BATCHED_NODES or _RECORD is not None:
            try:
                out = node(*grads)
            except _PerEntry:
                pass
            else:
                return (out,) if len(node.next_functions) == 1 else tuple(out)
        return self._node_per_entry(node, grads)

    def _node_per_entry(self, node, grads):
        n_next = len(node.next_functions)
        per = []
        self._suspend()
        try:
            for b in range(self.size):
                gb = tuple(g.select(0, b) if isinstance(g, Tensor) and self.is_batched(g)
                           else g for g in grads)
                out = node(*gb)
                per.append((out,) if n_next == 1 else tuple(out))
            res = []
            for j in range(n_next):
                col = [p[j] for p in per]
                res.append(None if col[0] is None else self.mark(_ag.stack(col)))
        finally:
            self._resume()
        return tuple(res)


# ops whose size argument gets the batch size in front
_SIZE_FIRST = frozenset("""view reshape expand sum_to _reshape_alias select_backward
slice_backward narrow_backward diagonal_backward unfold_backward""".split()) & frozenset(OP_SCHEMAS)
_MATMUL = frozenset(["mm", "matmul", "mv", "dot"])
# table ops with dim arguments beyond vmap's reduction and dim rules' public names
_DIM_EXTRA = frozenset("""_softmax _log_softmax _softmax_backward_data
_log_softmax_backward_data cumsum cumprod flip narrow select unbind split chunk""".split()) \
    & frozenset(OP_SCHEMAS)


_RECORD = None   # a set: the node types a pass runs (tests/test_batched_backward.py)

# The nodes whose formulas run batched: those the op table's cases check against
# PyTorch's batched gradients (tests/test_batched_backward.py, which fails for a node
# listed here that goes wrong). Every other node (a hand-written one calling its
# family's kernels, a formula whose helper works on the arrays, a formula making a
# tensor of the gradient's shape with a creation function, a custom Function's backward)
# runs once per batch entry: slower, never wrong.
_BATCHED_NODES = frozenset("""
AbsBackward0 AcosBackward0 AcoshBackward0 AdaptiveAvgPool2DBackward0
AdaptiveMaxPool2DBackward0 AddBackward0 AddcdivBackward0 AddcmulBackward0 AddmmBackward0
AddmvBackward0 AddrBackward0 AffineGridGeneratorBackward0 AliasBackward0
AliasBackward0_copy AmaxBackward0 AminBackward0 AminmaxBackward0
AsStridedScatterBackward0 AsinBackward0 AsinhBackward0 Atan2Backward0 AtanBackward0
AtanhBackward0 AvgPool2DBackward0 BaddbmmBackward0 BinaryCrossEntropyBackward0
BinaryCrossEntropyWithLogitsBackward0 BmmBackward0 CdistBackward0 CeluBackward0
CeluBackward1 ClampBackward0 ClampBackward1 ClampMaxBackward0 ClampMaxBackward1
ClampMinBackward0 ClampMinBackward1 CloneBackward0 Col2ImBackward0 CopyBackwards
CopysignBackward1 CosBackward0 CoshBackward0 CummaxBackward0 CumminBackward0
Deg2RadBackward0 DigammaBackward0 DivBackward0 DivBackward1 DotBackward0 EluBackward0
EluBackward1 EmbeddingBackward0 EqBackward0 EqBackward1 ErfBackward0 ErfcBackward0
ErfinvBackward0 Exp2Backward0 ExpBackward0 ExpandBackward0 ExpandBackward0_copy
Expm1Backward0     FmaxBackward0
FminBackward0 FmodBackward0 FmodBackward1 FracBackward0 FrexpBackward0 GatherBackward0
GeBackward0 GeBackward1 GeluBackward0 GridSampler2DBackward0 GridSampler3DBackward0
GtBackward0 GtBackward1 HardshrinkBackward0 HardsigmoidBackward0 HardswishBackward0
HardtanhBackward0 HuberLossBackward0 HypotBackward0 I0Backward0 IgammaBackward0
IgammacBackward0 Im2ColBackward0 IndexCopyBackward0 IndexFillBackward0
IndexFillBackward1 IndexSelectBackward0 KthvalueBackward0 LdexpBackward0 LeBackward0
LeBackward1 LeakyReluBackward0 LeakyReluBackward1 LerpBackward0 LerpBackward1
LgammaBackward0 LinalgCrossBackward0 LinalgInvExBackward0 Log10Backward0 Log1PBackward0
Log2Backward0 LogBackward0 LogSigmoidBackward0 Logaddexp2Backward0 LogaddexpBackward0
LogitBackward0 LogsumexpBackward0 LtBackward0 LtBackward1 MaskedFillBackward0
MaskedFillBackward1 MaskedSelectBackward0 MaxBackward0 MaxBackward1
MaxPool2DWithIndicesBackward0 MaxPool3DWithIndicesBackward0 MaximumBackward0
MeanBackward0 MeanBackward1 MedianBackward0 MedianBackward1 MinBackward0 MinBackward1
MinimumBackward0 MmBackward0 ModeBackward0 MseLossBackward0 MulBackward0 MulBackward1
MvBackward0 MvlgammaBackward0 NanToNumBackward0 NanmedianBackward0 NanmedianBackward1
NansumBackward0 NativeBatchNormBackward0 NativeLayerNormBackward0 NeBackward0
NeBackward1 NegBackward0 NextafterBackward0 NllLoss2DBackward0 NllLossBackward0
NormBackward0 PdistBackward0 PixelShuffleBackward0 PixelUnshuffleBackward0
PolygammaBackward0 PolygammaBackward1 PowBackward0 PowBackward1 PowBackward2
PreluKernelBackward0 ProdBackward0 ProdBackward1 PutBackward0 Rad2DegBackward0
ReciprocalBackward0 ReflectionPad1DBackward0 ReflectionPad2DBackward0
ReflectionPad3DBackward0 ReluBackward0 RemainderBackward0 RemainderBackward1
ReplicationPad1DBackward0 ReplicationPad2DBackward0 ReplicationPad3DBackward0
ReshapeAliasBackward0 Rot90Backward0 RoundBackward1 RreluWithNoiseBackward0
RsqrtBackward0 RsubBackward0 RsubBackward1 ScaledDotProductFlashAttentionForCpuBackward0
ScatterBackward1 SelectBackward0 SelectBackward0_copy SelectScatterBackward0
SgnBackward0 SigmoidBackward0 SinBackward0 SincBackward0 SinhBackward0 SliceBackward0
SliceScatterBackward0 SmoothL1LossBackward0 SoftplusBackward0 SoftshrinkBackward0
SortBackward0 SortBackward1 SpecialI1Backward0 SqrtBackward0 SqueezeBackward0
SqueezeBackward1 SqueezeBackward2 SqueezeBackward3 SqueezeBackward4 SqueezeBackward5
StdBackward0 StdMeanBackward0 SubBackward0 SumBackward0 SumBackward1 TBackward0
TBackward0_copy TBackward1 TakeBackward0 TanBackward0 TanhBackward0 ThresholdBackward0
ThresholdBackward1 ToCopyBackward0 TopkBackward0 TraceBackward0 TransposeBackward0
TransposeBackward0_copy TransposeBackward1 TrilBackward0 TriuBackward0
UnsafeViewBackward0 UnsqueezeBackward0 UnsqueezeBackward0_copy UnsqueezeBackward1
VarBackward0 VarMeanBackward0 VdotBackward0 ViewBackward0 ViewBackward0_copy
WhereBackward0 XlogyBackward0 XlogyBackward1 XlogyBackward2 ZeroBackward0
""".split())


def _invalid_gradient(node, i, got, shape):
    """The engine's error (engine.pyx's validate_outputs) for a gradient of shape ``got``
    that does not reduce to input ``i``'s ``shape`` (``got`` without the batch dim)."""
    return RuntimeError(f"Function {type(node).__name__} returned an invalid gradient at "
                        f"index {i} - got {list(got)} but expected shape compatible with "
                        f"{list(shape)}")


def _plain_tensor_hook(fn, g):
    # (another thread's ordinary pass: the engine's own checks of the result)
    r = fn(g)
    if r is None:
        return g
    if not isinstance(r, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
    return r


def _shift(d, n):
    """A dim of an n-d per-sample tensor as a dim of its batch (wrapped, then + 1)."""
    lo, hi = (-1, 0) if n == 0 else (-n, n - 1)
    if d < lo or d > hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], "
                         f"but got {d})")
    return (d + n if d < 0 else d) + 1 if n else 1


def run(outputs, grads, retain_graph, create_graph, inputs, allow_unused, size):
    """One backward pass of the batch of cotangents grads (dim 0 of size entries) ->
    one gradient per input with the batch in front (Note [Batched backward])."""
    impl = BatchedBackward(size)
    grads = list(grads)
    for k, (o, g) in enumerate(zip(outputs, grads)):
        if g is None:
            continue
        if isinstance(o, Tensor) and g.dtype != o.dtype:
            # (cast here, as the engine casts a root gradient, so that the cast one is
            # the batched one)
            g = grads[k] = g.to(o.dtype)
        impl.mark(g)
    prev = current()
    _state.current = impl
    _engine._set_batched_pass(impl)
    _core._push_op_hook(impl)
    try:
        res = _engine.run_backward(outputs, tuple(grads), retain_graph, create_graph, inputs,
                                   allow_unused=allow_unused, accumulate=False)
    finally:
        _core._pop_op_hook(impl)
        _engine._set_batched_pass(prev)
        _state.current = prev
    out = []
    for r, x in zip(res, inputs):
        if r is None:
            out.append(None)
        elif impl.is_batched(r) or tuple(r.shape) == (size,) + tuple(x.shape):
            # (the latter: made in the batched gradient's shape by a creation function
            # the hook does not see, a formula's zeros_like(grad))
            out.append(r)
        else:
            # a gradient that does not depend on the cotangent: the same for every entry
            out.append(r.unsqueeze(0).expand(size, *r.shape).contiguous())
    return tuple(out)
