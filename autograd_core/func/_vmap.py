"""vmap: batching rules over BatchedTensor.

Note [BatchedTensor]: inside ``vmap`` each mapped input is a ``BatchedTensor``: a
``value`` (a Tensor, or under nested vmap the BatchedTensor of the enclosing level)
whose dim 0 is the batch dimension of ``level``, and whose other dims are the logical
tensor the function sees. Physical layout: under nested vmaps the batch dims sit in
front in level order (outermost vmap first). BatchedTensor is not a Tensor: it reaches
the library through PyTorch's ``__torch_function__`` protocol (Note [__torch_function__
in the wrappers], ops/_prelude.pxi), its methods and its operators. Each call is
handled once per level: the arguments batched at the innermost level present are
unwrapped, a batching rule computes on the values (batch dim in front; the rule
shifts dim arguments, broadcasts, folds the batch into a matrix product's batch or a
convolution's N) and wraps the result; values of enclosing levels dispatch again, one
level down. An op without a rule runs once per sample (PyTorch's performance warning)
and stacks the results: slower, never wrong.
"""
from __future__ import annotations
from collections.abc import Callable
from typing import Any

import functools
import inspect
import operator
import warnings

import autograd_core as _ag
from autograd_core import _vmap_state
from autograd_core._core import tensor as _core_tensor
from autograd_core._core.function import function_apply as _function_apply
from autograd_core.func import _vmapfast
from autograd_core.ops import nn as _nn_ops
from autograd_core.utils._pytree import tree_flatten, tree_unflatten

Tensor = _ag.Tensor

# active vmap levels, innermost last: [level, batch_size, randomness] (kept in
# _vmap_state, where the random creation functions see them)
_LEVELS = _vmap_state.LEVELS


def active_levels():
    return _LEVELS


def _level_info(level):
    for entry in _LEVELS:
        if entry[0] == level:
            return entry
    raise RuntimeError("vmap: a BatchedTensor was used outside of the vmap that made it")


def _fname(func):
    return getattr(func, "__name__", type(func).__name__)


class BatchedTensor:
    """A tensor with a hidden batch dimension (Note [BatchedTensor])."""

    __slots__ = ("_value", "_level")

    def __init__(self, value, level):
        self._value = value
        self._level = level

    # -- what the function sees: the logical tensor
    @property
    def shape(self):
        return _ag.Size(tuple(self._value.shape)[1:])

    def size(self, dim=None):
        s = self.shape
        if dim is None:
            return s
        return s[_wrap_dim(dim, len(s))]

    def dim(self):
        return self._value.dim() - 1

    ndim = property(dim)

    def ndimension(self):
        return self.dim()

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __len__(self):
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    dtype = property(lambda self: self._value.dtype)
    device = property(lambda self: self._value.device)
    layout = property(lambda self: self._value.layout)
    is_cuda = False
    is_sparse = False
    is_quantized = False
    is_meta = False

    def is_floating_point(self):
        return self._value.is_floating_point()

    def is_complex(self):
        return self._value.is_complex()

    @property
    def requires_grad(self):
        return self._value.requires_grad

    def requires_grad_(self, requires_grad=True):
        physical(self).requires_grad_(requires_grad)
        return self

    @property
    def grad_fn(self):
        return physical(self).grad_fn

    def __repr__(self):
        return f"BatchedTensor(lvl={self._level}, bdim=0, value=\n{self._value!r}\n)"

    def item(self):
        raise RuntimeError(
            "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap "
            "over calling .item() on a Tensor, please try to rewrite what you're doing with "
            "other operations. If error is occurring somewhere inside PyTorch internals, "
            "please file a bug report.")

    tolist = item

    def __bool__(self):
        raise RuntimeError(
            "vmap: It looks like you're attempting to use a Tensor in some data-dependent "
            "control flow. We don't support that yet, please file an issue at "
            "https://github.com/pytorch/pytorch/issues .")

    __float__ = __int__ = __index__ = item

    def __hash__(self):
        return id(self)

    def __iter__(self):
        return iter(self.unbind(0))

    # -- the protocol
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return _dispatch(func, _fname(func), args, kwargs or {})

    def __getattr__(self, name):
        try:
            method = getattr(Tensor, name)
        except AttributeError:
            raise AttributeError(f"'Tensor' object has no attribute '{name}'") from None
        if isinstance(method, property) or not callable(method):
            # a Tensor property (T, mT, real, ...): through its method spelling
            return _property(self, name)
        if not name.startswith("__"):
            # the Tensor method, dispatching, becomes a method of the class: the next
            # lookup of the name is an ordinary attribute lookup (vmap's per-op path)
            setattr(BatchedTensor, name, _dispatching_method(method, name))
            return getattr(self, name)

        def bound(*args, **kwargs):
            return _dispatch(method, name, (self,) + args, kwargs)
        return bound

    # -- operators (Tensor's return NotImplemented for a BatchedTensor operand)
    def __getitem__(self, idx):
        return _dispatch(Tensor.__getitem__, "__getitem__", (self, idx), {})

    def __setitem__(self, idx, value):
        return _dispatch(Tensor.__setitem__, "__setitem__", (self, idx, value), {})


def _dispatching_method(method, name):
    # (Tensor is an immutable type: its method stays the one found)
    def dispatching(self, *args, **kwargs):
        return _dispatch(method, name, (self,) + args, kwargs)
    dispatching.__name__ = dispatching.__qualname__ = name
    return dispatching


def _property(bt, name):
    if name == "T":
        return bt.permute(*reversed(range(bt.dim())))
    if name == "mT":
        return bt.transpose(-2, -1)
    if name in ("data",):
        return rewrap(physical(bt).detach(), levels_of(bt))
    if name == "grad":
        return None
    if name == "is_leaf":
        return physical(bt).is_leaf
    raise RuntimeError(f"vmap: Tensor.{name} is not supported on a batched tensor")


def _binop(op, name):
    def forward(self, other):
        return _dispatch(op, name, (self, other), {})

    def reflected(self, other):
        return _dispatch(op, name, (other, self), {})
    return forward, reflected


for _name, _op in [("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("floordiv", operator.floordiv),
                   ("mod", operator.mod), ("pow", operator.pow), ("matmul", operator.matmul),
                   ("and", operator.and_), ("or", operator.or_), ("xor", operator.xor),
                   ("lshift", operator.lshift), ("rshift", operator.rshift)]:
    _f, _r = _binop(_op, "__" + _name + "__")
    setattr(BatchedTensor, "__" + _name + "__", _f)
    setattr(BatchedTensor, "__r" + _name + "__", _r)
for _name, _op in [("lt", operator.lt), ("le", operator.le), ("gt", operator.gt),
                   ("ge", operator.ge), ("eq", operator.eq), ("ne", operator.ne)]:
    setattr(BatchedTensor, "__" + _name + "__", _binop(_op, "__" + _name + "__")[0])
for _name, _op in [("neg", operator.neg), ("pos", operator.pos), ("abs", operator.abs),
                   ("invert", operator.invert)]:
    setattr(BatchedTensor, "__" + _name + "__",
            (lambda op, n: lambda self: _dispatch(op, n, (self,), {}))(_op, "__" + _name + "__"))
for _name, _op in [("iadd", operator.iadd), ("isub", operator.isub), ("imul", operator.imul),
                   ("itruediv", operator.itruediv), ("ipow", operator.ipow)]:
    setattr(BatchedTensor, "__" + _name + "__",
            (lambda op, n: lambda self, other: _dispatch(op, n, (self, other), {}))(
                _op, "__" + _name + "__"))
del _name, _op, _f, _r


# ---------------------------------------------------------------- levels and physical values

def debug_unwrap(tensor, *, recurse=True):
    """The tensor inside vmap's BatchedTensor (its batch dims in front), for debugging;
    with recurse, through every level. A plain tensor is returned as it is.

    >>> import autograd_core as torch
    >>> from autograd_core.func import vmap, debug_unwrap
    >>> seen = []
    >>> _ = vmap(lambda x: seen.append(debug_unwrap(x).shape) or x)(torch.zeros(3, 2))
    >>> seen
    [autograd_core.Size([3, 2])]
    """
    if type(tensor) is not BatchedTensor:
        return tensor
    return physical(tensor) if recurse else tensor._value


def is_batched(x):
    return type(x) is BatchedTensor


def levels_of(x):
    """The levels x is batched at, innermost (outermost wrapper) first."""
    out = []
    while type(x) is BatchedTensor:
        out.append(x._level)
        x = x._value
    return out


def physical(x):
    while type(x) is BatchedTensor:
        x = x._value
    return x


def rewrap(p, levels):
    """p's leading dims as the batch dims of levels (innermost first, as levels_of)."""
    for lv in reversed(levels):
        p = BatchedTensor(p, lv)
    return p


def flat_batch_size(levels):
    """The batch sizes of levels (ascending) and their product: the one batch dim that
    autograd.grad's is_grads_batched runs over for vmap levels flattened together."""
    sizes = tuple(_level_info(lv)[1] for lv in levels)
    n = 1
    for size in sizes:
        n *= size
    return sizes, n


def unflatten_batch(r, levels):
    """r's leading dim, levels' batch dims flattened (flat_batch_size), batched again at
    levels (ascending)."""
    sizes, _ = flat_batch_size(levels)
    return rewrap(r.reshape(sizes + tuple(r.shape[1:])), levels[::-1])


def _batch_at_levels(x, want):
    """x batched (expanded where it is not) at every level of want (ascending): the
    physical tensor, its leading dims the levels of want in order."""
    have = sorted(levels_of(x))
    p = physical(x)
    for i, lv in enumerate(want):
        if lv not in have:
            size = _level_info(lv)[1]
            p = p.unsqueeze(i)
            shape = list(p.shape)
            shape[i] = size
            p = p.expand(*shape)
    return p


def differentiable_batched(x, alias):
    """grad's differentiable alias of x under vmap (Note [grad under vmap])."""
    if len(_LEVELS) == 1:        # one vmap: x is a tensor, or batched at that level
        level, size = _LEVELS[0][0], _LEVELS[0][1]
        if type(x) is BatchedTensor and x._level == level and isinstance(x._value, Tensor):
            return BatchedTensor(alias(x._value), level)
        if isinstance(x, Tensor):
            return BatchedTensor(alias(x.expand(size, *x.shape)), level)
    want = [e[0] for e in _LEVELS]
    p = alias(_batch_at_levels(x, want))
    return rewrap(p, list(reversed(want)))


def physical_like(g, o):
    """A cotangent g for output o, as o's physical tensor."""
    want = sorted(levels_of(o))
    return _batch_at_levels(g, want) if want else physical(g)


def rewrap_like(r, i):
    return rewrap(r, levels_of(i)) if is_batched(i) else r


def detach_any(x):
    if is_batched(x):
        return rewrap(physical(x).detach(), levels_of(x))
    return x.detach()


# Note [jvp under vmap]: a dual tensor made under vmap from a BatchedTensor primal or
# tangent (vmap(jvp), jacfwd's vmap over the basis of tangents, autograd.functional's
# vectorized forward-mode jacobian, gradcheck's batched forward check) is made on the
# physical tensors, primal and tangent each batched at the levels of either (the
# unbatched one expanded, then copied, since a dual's tangent takes its primal's layout
# and an expanded layout has one memory location for every sample), and handed back as
# a BatchedTensor. The function's ops dispatch through the batching rules down to the
# physical duals, whose forward formulas then run once over the whole batch (samples
# never mix, as in Note [grad under vmap]); unpacking a batched dual unpacks its
# physical dual and rewraps primal and tangent at its levels. PyTorch keeps an
# unbatched primal unbatched; the values are the same.

def make_dual_batched(tensor, tangent, make, want=None):
    """make(primal, tangent) on physical tensors batched at the levels of want
    (ascending; by default those of tensor and tangent), as a BatchedTensor (Note [jvp
    under vmap])."""
    if tuple(tensor.shape) != tuple(tangent.shape):
        # (the logical shapes: make_dual's own check sees the physical ones)
        raise _core_tensor.forward_grad_size_error(tensor.shape, tangent.shape)
    if want is None:
        want = sorted(set(levels_of(tensor)) | set(levels_of(tangent)))

    def at_levels(x):
        p = _batch_at_levels(x, want)
        return p.clone() if len(levels_of(x)) != len(want) else p
    return rewrap(make(at_levels(tensor), at_levels(tangent)), list(reversed(want)))


def unpack_dual_batched(tensor, unpack):
    """unpack(physical dual) -> (primal, tangent or None), each rewrapped at tensor's
    levels (Note [jvp under vmap])."""
    levels = levels_of(tensor)
    primal, tangent = unpack(physical(tensor))
    return rewrap(primal, levels), None if tangent is None else rewrap(tangent, levels)


# Note [grad under vmap]: grad run inside vmap (per-sample gradients) makes its inputs
# batched at every active vmap level, expanding an unbatched one (a shared weight) to
# one copy per sample, and takes its aliases on the physical tensors. The function's
# ops then record the autograd graph on the physical tensors, where samples never mix,
# so one autograd.grad of the physical output (ones as cotangent) w.r.t. the physical
# inputs is every sample's gradient at once.


# ---------------------------------------------------------------- dispatch

def _wrap_dim(d, n):
    if not isinstance(d, int):
        return d
    if n == 0:
        lo, hi = -1, 0
    else:
        lo, hi = -n, n - 1
    if d < lo or d > hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], "
                         f"but got {d})")
    return d + n if d < 0 else d


def _current_level(args, kwargs):
    """The innermost level among the arguments (those in lists too: cat's tensors)."""
    lv = 0
    for group in (args, kwargs.values()):
        for a in group:
            if type(a) is BatchedTensor:
                if a._level > lv:
                    lv = a._level
            elif type(a) is list or type(a) is tuple:
                for b in a:
                    if type(b) is BatchedTensor and b._level > lv:
                        lv = b._level
    return lv


class _Ctx:
    """One call at one level: which arguments are batched, the batch size."""
    __slots__ = ("level", "size")

    def __init__(self, level):
        self.level = level
        self.size = _level_info(level)[1]

    def batched(self, x):
        return type(x) is BatchedTensor and x._level == self.level

    def wrap(self, out):
        lv = self.level
        if type(out) is Tensor:
            return BatchedTensor(out, lv)
        return _tree_map_tensors(lambda t: BatchedTensor(t, lv), out)

    def value(self, x):
        """x's value with the batch dim in front, or x (unbatched)."""
        return x._value if self.batched(x) else x

    def moved(self, x):
        """x's value with a batch dim in front, expanded when x is unbatched."""
        if self.batched(x):
            return x._value
        if isinstance(x, Tensor) or type(x) is BatchedTensor:
            return x.unsqueeze(0).expand(self.size, *x.shape)
        return x


def _tree_map_tensors(fn, out):
    if isinstance(out, Tensor) or type(out) is BatchedTensor:
        return fn(out)
    if isinstance(out, tuple) and hasattr(type(out), "_fields"):
        return type(out)(*[_tree_map_tensors(fn, o) for o in out])
    if isinstance(out, (tuple, list)):
        return type(out)(_tree_map_tensors(fn, o) for o in out)
    return out


_RULES = {}
_fast_dispatch = _vmapfast.dispatch


def _rule(*names):
    def deco(fn):
        for n in names:
            _RULES[n] = fn
        return fn
    return deco


def _dispatch(func, name, args, kwargs):
    res = _fast_dispatch(func, args, kwargs)     # Note [Compiled vmap dispatch]
    if res is not NotImplemented:
        return res
    lv = _current_level(args, kwargs)
    ctx = _Ctx(lv)
    if "out" in kwargs:
        if kwargs["out"] is not None:
            return _fallback(ctx, func, name, args, kwargs)
        kwargs = {k: v for k, v in kwargs.items() if k != "out"}
    rule = _RULES.get(name)
    if rule is None and name.endswith("_") and not name.endswith("__"):
        rule = _RULES.get(name[:-1])
        if rule is _pointwise:
            rule = _inplace_pointwise
        elif rule is not None and rule is not _random:
            rule = None
    if rule is not None:
        res = rule(ctx, func, name, args, kwargs)
        if res is not NotImplemented:
            return res
    return _fallback(ctx, func, name, args, kwargs)


# ---------------------------------------------------------------- fallback

# the kernel PyTorch's CPU dispatch reaches (and names in the fallback's warning)
_ATEN_NAMES = {"scaled_dot_product_attention": "_scaled_dot_product_flash_attention_for_cpu"}


def _fallback(ctx, func, name, args, kwargs):
    """Runs func once per sample and stacks the results (PyTorch's BatchedFallback)."""
    inplace = name.endswith("_") and not name.endswith("__")
    if inplace and not ctx.batched(args[0]) or kwargs.get("out") is not None:
        raise RuntimeError(f"vmap: {name}(self, *extra_args) is not possible because there "
                           f"exists a Tensor `other` in extra_args that has more elements than "
                           f"`self`. This happened due to `other` being vmapped over but "
                           f"`self` not being vmapped over in a vmap. Please try to use "
                           f"out-of-place operators instead of {name}. If said operator is "
                           f"being called inside the PyTorch framework, please file a bug "
                           f"report instead.")
    warnings.warn(f"There is a performance drop because we have not yet implemented the "
                  f"batching rule for aten::{_ATEN_NAMES.get(name, name)}. Please file us an "
                  f"issue on GitHub so "
                  f"that we can prioritize its implementation.", UserWarning, stacklevel=3)
    if inplace:
        per_sample(ctx, func, args, kwargs)
        return args[0]        # each sample was written through its view of the batch
    return per_sample(ctx, func, args, kwargs)


def per_sample(ctx, func, args, kwargs):
    """func run once per sample of ctx's level and its results stacked back into that
    level (the loop of the fallback, and of transforms without a batched form)."""
    flat, spec = tree_flatten((args, kwargs))
    results = []
    # the samples are plain tensors: the level and those inside it are not active while
    # func runs on them (a transform inside would batch them again)
    saved = list(_LEVELS)
    _LEVELS[:] = [e for e in saved if e[0] < ctx.level]
    try:
        for b in range(ctx.size):
            sample = [x._value[b] if ctx.batched(x) else x for x in flat]
            a, k = tree_unflatten(sample, spec)
            results.append(func(*a, **k))
    finally:
        _LEVELS[:] = saved
    first = results[0]
    flat_first, out_spec = tree_flatten(first)
    outs = []
    for i, o in enumerate(flat_first):
        if isinstance(o, Tensor) or type(o) is BatchedTensor:
            outs.append(BatchedTensor(_ag.stack([tree_flatten(r)[0][i] for r in results]),
                                      ctx.level))
        else:
            outs.append(o)
    return tree_unflatten(outs, out_spec)


# ---------------------------------------------------------------- pointwise

def _logical_dim(x):
    return x.dim() if isinstance(x, Tensor) or type(x) is BatchedTensor else 0


def _arrange(ctx, operands):
    """The operands' values for a broadcasting op: batched ones with their logical dims
    padded to the widest logical rank (so the batch dim stays in front)."""
    rank = max([_logical_dim(x) for x in operands] + [0])
    out = []
    for x in operands:
        if ctx.batched(x):
            v = x._value
            pad = rank - (v.dim() - 1)
            if pad:
                v = v.reshape((v.shape[0],) + (1,) * pad + tuple(v.shape)[1:])
            out.append(v)
        else:
            out.append(x)
    return out, rank


def _is_tensorish(x):
    return isinstance(x, Tensor) or type(x) is BatchedTensor


# Note [Empty batch of scalars]: PyTorch's batching rule of a binary op whose one
# operand is batched and logically 0-d while the other is not batched (a tensor, or a
# number add/sub/mul/div take as a tensor) promotes types on the first sample, so an
# empty batch raises select()'s IndexError (fuzzer seed 19001403). rsub's number
# overload (1.0 - u) and pow's (u ** 2) take another path.
_BINARY_NUMBER = frozenset("""add sub mul div true_divide divide multiply subtract __add__
__sub__ __mul__ __truediv__""".split())
_BINARY_TENSOR = _BINARY_NUMBER | frozenset("""atan2 arctan2 maximum minimum hypot pow
__pow__ copysign fmax fmin fmod remainder xlogy logaddexp logaddexp2 nextafter""".split())


def _check_empty_batch_of_scalars(ctx, name, args):
    if name not in _BINARY_TENSOR or len(args) < 2:
        return
    a, b = args[0], args[1]
    for x, y, number_first in ((a, b, False), (b, a, True)):
        if not (ctx.batched(x) and not ctx.batched(y) and _logical_dim(x) == 0
                and x._value.shape[0] == 0):
            continue
        if isinstance(y, Tensor) or (name in _BINARY_NUMBER and isinstance(y, (int, float))
                                     and not (number_first and name == "__sub__")):
            raise IndexError("select(): index 0 out of range for tensor of size [0] at "
                             "dimension 0")


def _pointwise(ctx, func, name, args, kwargs):
    _check_empty_batch_of_scalars(ctx, name, args)  # Note [Empty batch of scalars]
    for v in kwargs.values():
        if ctx.batched(v):
            return NotImplemented
    # _arrange inlined (the per-op hot path of vmap): batched operands' values padded
    # to the widest logical rank
    lv = ctx.level
    rank = 0
    for a in args:
        if type(a) is BatchedTensor:
            n = a._value.dim() - 1
        elif isinstance(a, Tensor):
            n = a.dim()
        else:
            continue
        if n > rank:
            rank = n
    new = list(args)
    for i, a in enumerate(args):
        if type(a) is BatchedTensor and a._level == lv:
            v = a._value
            pad = rank - (v.dim() - 1)
            if pad:
                v = v.reshape((v.shape[0],) + (1,) * pad + tuple(v.shape)[1:])
            new[i] = v
    if name in _PROMOTING_BINARY and len(args) >= 2:
        _promote_logical_scalar(args, new, lv)     # Note [Promotion of logically 0-d samples]
    out = func(*new, **kwargs)
    if type(out) is Tensor:
        return BatchedTensor(out, lv)
    return ctx.wrap(out)


# Note [Promotion of logically 0-d samples]: a batched sample that is logically 0-d is
# physically 1-d (its batch dim), so the physical op would promote it as a dimensioned
# tensor: maximum(float64 sample, float32 [4]) float64 where the program (a 0-d tensor
# does not widen a dimensioned tensor of its category) gives float32. PyTorch's binary
# batching rule (do_type_promotion) handles exactly one logically-0-d batched operand:
# result_type(its 0-d sample, the other operand as it is) and both operands cast to it
# (so two 0-d operands promote as equals, and float64 sample - bool [4] computes in
# float64 rather than raising sub's bool error). where, clamp with tensor bounds,
# addcmul, addcdiv, lerp have other rules in PyTorch, promoting the physical operands:
# they are left out, as PyTorch 2.13 gives.
_PROMOTING_BINARY = _BINARY_TENSOR | frozenset("""eq ne lt le gt ge greater greater_equal less
less_equal not_equal max min __eq__ __ne__ __lt__ __le__ __gt__ __ge__ floor_divide __floordiv__
__mod__ bitwise_and bitwise_or bitwise_xor __and__ __or__ __xor__ logical_and logical_or
logical_xor""".split())


def _promote_logical_scalar(args, new, lv):
    a, b = args[0], args[1]
    a_scalar = type(a) is BatchedTensor and a._level == lv and a._value.dim() == 1
    b_scalar = type(b) is BatchedTensor and b._level == lv and b._value.dim() == 1
    if a_scalar == b_scalar:
        return
    scalar, other = (a, b) if a_scalar else (b, a)
    if not _is_tensorish(other) or other.dtype == scalar.dtype:
        return
    o_rank = (other._value.dim() if type(other) is BatchedTensor and other._level == lv
              else other.dim())
    want = _ag.result_type(_ag.empty((), dtype=scalar.dtype),
                           _ag.empty((0,) * o_rank, dtype=other.dtype))
    for i in (0, 1):
        if new[i].dtype != want:
            new[i] = new[i].to(want)


def _inplace_pointwise(ctx, func, name, args, kwargs):
    self = args[0]
    if not ctx.batched(self):
        others = [a for a in args[1:] if ctx.batched(a)]
        shape = list(_ag.broadcast_shapes(*[tuple(a.shape) for a in args if _is_tensorish(a)]))
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {[ctx.size] + shape}" if others else "vmap: in-place op")
    _pointwise(ctx, func, name, args, kwargs)
    return self


_POINTWISE = """abs absolute acos arccos acosh arccosh add addcdiv addcmul angle asin arcsin
asinh arcsinh atan arctan atan2 arctan2 atanh arctanh bitwise_and bitwise_not bitwise_or
bitwise_xor ceil clamp clamp_max clamp_min clip copysign cos cosh deg2rad digamma div divide
eq erf erfc erfinv exp exp2 expm1 float_power floor floor_divide fmax fmin fmod frac ge
greater greater_equal gt heaviside hypot i0 igamma igammac isfinite isinf isnan isneginf
isposinf isreal ldexp le lerp less less_equal lgamma log log10 log1p log2 logaddexp
logaddexp2 logical_and logical_not logical_or logical_xor logit lt maximum minimum mul
multiply nan_to_num ne neg negative nextafter not_equal polygamma positive pow rad2deg
reciprocal remainder round rsqrt sgn sigmoid sign signbit sin sinc sinh sqrt square sub
subtract tan tanh true_divide trunc fix where xlogy relu relu6 elu selu celu gelu silu mish
hardtanh hardsigmoid hardswish hardshrink softshrink tanhshrink leaky_relu softplus mvlgamma
logsigmoid threshold sigmoid_ rsub clone contiguous detach float double half int long bool
to type_as zeros_like ones_like full_like empty_like masked_fill __add__ __sub__ __mul__
__truediv__ __floordiv__ __mod__ __pow__ __and__ __or__ __xor__ __lshift__ __rshift__
__lt__ __le__ __gt__ __ge__ __eq__ __ne__ __neg__ __pos__ __abs__ __invert__""".split()
# torch.special's own functions (its aliases reach the rules above through the torch.*
# function they call), named as their wrappers are: special_<name>. PyTorch has no
# batching rule for the polynomials (_special_polynomial below), airy_ai and log_ndtr
# (its per-sample fallback then).
_SPECIAL_BINARY = ["special_xlog1py", "special_zeta"]
_POINTWISE += _SPECIAL_BINARY + ["special_" + n for n in """bessel_j0 bessel_j1
bessel_y0 bessel_y1 modified_bessel_i0 modified_bessel_i1 modified_bessel_k0
modified_bessel_k1 scaled_modified_bessel_k0 scaled_modified_bessel_k1 spherical_bessel_j0
i0e i1 i1e erfcx ndtr ndtri entr""".split()]
_PROMOTING_BINARY = _PROMOTING_BINARY | frozenset(_SPECIAL_BINARY)
for _n in _POINTWISE:
    _RULES[_n] = _pointwise


@_rule(*["special_" + n for n in """chebyshev_polynomial_t chebyshev_polynomial_u
chebyshev_polynomial_v chebyshev_polynomial_w shifted_chebyshev_polynomial_t
shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v shifted_chebyshev_polynomial_w
hermite_polynomial_h hermite_polynomial_he laguerre_polynomial_l
legendre_polynomial_p""".split()])
def _special_polynomial(ctx, func, name, args, kwargs):
    # PyTorch's per-sample fallback, whose warning names the overload (x_scalar, n_scalar)
    x = args[0] if args else kwargs.get("x")
    n = args[1] if len(args) > 1 else kwargs.get("n")
    overload = ".x_scalar" if not _is_tensorish(x) else "" if _is_tensorish(n) else ".n_scalar"
    return _fallback(ctx, func, name + overload, args, kwargs)


@_rule("__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__")
def _inplace_operator(ctx, func, name, args, kwargs):
    return _inplace_pointwise(ctx, func, name, args, kwargs)


@_rule("masked_fill")
def _masked_fill(ctx, func, name, args, kwargs):
    if ctx.batched(args[2] if len(args) > 2 else kwargs.get("value")):
        return NotImplemented
    return _pointwise(ctx, func, name, args, kwargs)


# ---------------------------------------------------------------- random ops

_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either "
                 "use the 'same' or 'different' randomness flags on vmap or perform the "
                 "randomness operation out of vmap")


@_rule("rand_like", "randn_like", "randint_like", "bernoulli", "dropout", "alpha_dropout",
       "feature_alpha_dropout", "dropout1d", "dropout2d", "dropout3d", "normal", "uniform",
       "exponential", "geometric", "log_normal", "cauchy", "random", "multinomial", "rrelu",
       "poisson")
def _random(ctx, func, name, args, kwargs):
    mode = _level_info(ctx.level)[2]
    training = kwargs.get("training", True)
    if name in ("dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d",
                "dropout3d") and (len(args) > 2 and args[2] is False or training is False):
        return ctx.wrap(func(*[ctx.value(a) for a in args], **kwargs))
    if name in ("dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d",
                "dropout3d", "rrelu") and (len(args) > 1 and args[1] == 0 or
                                          kwargs.get("p", None) == 0):
        return ctx.wrap(func(*[ctx.value(a) for a in args], **kwargs))
    if mode == "error":
        raise RuntimeError(_RANDOM_ERROR)
    if mode == _LEGACY:
        raise RuntimeError(_LEGACY_RANDOM_ERROR)
    inplace = name.endswith("_")
    self = args[0]
    if mode == "different":
        # one draw of the whole batch, as PyTorch's batched random kernels
        if inplace and not ctx.batched(self):
            raise RuntimeError("vmap: Cannot ask for different inplace randomness on an "
                               "unbatched tensor. This will appear like same randomness. If "
                               "this is necessary for your usage, please file an issue with "
                               "functorch.")
        if name in ("dropout2d", "dropout3d", "feature_alpha_dropout", "dropout1d"):
            return NotImplemented
        vals = [ctx.moved(a) if i == 0 else ctx.value(a) for i, a in enumerate(args)]
        out = func(*vals, **kwargs)
        return self if inplace else ctx.wrap(out)
    # same: one draw for the logical shape, shared by every sample
    if any(ctx.batched(a) for a in args[1:]):
        return NotImplemented
    if name in ("rand_like", "randn_like", "randint_like"):
        logical = func(_ag.empty(tuple(self.shape), dtype=self.dtype), *args[1:], **kwargs)
        return logical
    if name in ("dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d",
                "dropout2d", "dropout3d", "bernoulli") and ctx.batched(self):
        if name == "bernoulli" and len(args) == 1 and "p" not in kwargs:
            return NotImplemented
        mask_src = _ag.ones(tuple(self.shape), dtype=self.dtype)
        mask = func(mask_src, *args[1:], **kwargs)
        if name == "bernoulli":
            return ctx.wrap(mask.unsqueeze(0).expand(ctx.size, *mask.shape).clone())
        return ctx.wrap(self._value * mask)
    if inplace:
        if ctx.batched(self):
            logical = func(_ag.empty(tuple(self.shape), dtype=self.dtype), *args[1:], **kwargs)
            self._value.copy_(logical.unsqueeze(0).expand_as(self._value))
            return self
        return func(*args, **kwargs)
    return NotImplemented


def _random_creation(draw, size, per_sample=False):
    """rand/randn/randint/randperm called under vmap (they take no tensor to dispatch
    on; _creation.py hands them here): "error" raises, "same" draws once, "different"
    draws one sample per batch entry of every "different" level in one call (PyTorch's
    stream order: the batch dims in front), or, per_sample, one call per entry."""
    if any(e[2] == "error" for e in _LEVELS):
        raise RuntimeError(_RANDOM_ERROR)
    levels = [e for e in _LEVELS if e[2] == "different"]
    saved = list(_LEVELS)
    del _LEVELS[:]                  # the draw itself runs outside vmap
    try:
        prefix = tuple(e[1] for e in levels)
        if not levels:
            return draw(size)
        if per_sample:
            n = 1
            for b in prefix:
                n *= b
            draws = [draw(size) for _ in range(n)]
            val = _ag.stack(draws).reshape(prefix + tuple(draws[0].shape))
        else:
            val = draw(prefix + tuple(size))
    finally:
        _LEVELS[:] = saved
    return rewrap(val, [e[0] for e in reversed(levels)])


_vmap_state.RANDOM_HOOK[0] = _random_creation


# ---------------------------------------------------------------- reductions

_FULL_REDUCE_DEFAULT = {"sum", "mean", "prod", "amax", "amin", "std", "var", "logsumexp",
                        "norm", "all", "any", "nansum", "nanmean", "count_nonzero",
                        "argmax", "argmin", "max", "min", "median", "nanmedian", "std_mean",
                        "var_mean", "aminmax"}


_EMPTY_DIM_REDUCES_ALL = {"sum", "mean", "nansum", "nanmean", "amax", "amin", "std", "var",
                          "count_nonzero"}


def _is_default(value, default):
    # the wrappers' "not given" sentinel (sum's dim) has no Python name: matched by type
    if type(value).__name__ == "_NotGiven":
        return True
    if default is inspect.Parameter.empty:
        return False
    if value is None or default is None or isinstance(value, bool) or isinstance(default, bool):
        return value is default
    return type(value) is type(default) and isinstance(value, (int, str)) and value == default


@functools.lru_cache(maxsize=None)
def _signature(func):
    try:
        return inspect.signature(func)
    except (TypeError, ValueError):
        return None


def _canonical_call(func, args, kwargs):
    """args, kwargs of a reduction as the user spelled them, whatever the spelling.

    Note [Function form of reductions]: torch.sum(x) reaches __torch_function__ with every
    parameter of the wrapper filled in (sum(x, <not given>, False, dtype=None, out=None,
    axis=None, keepdims=None)) while x.sum() passes only what the user wrote. The
    reduction rule reads dim/keepdim/unbiased by position, so both spellings are brought
    to one: the input positional, every argument the caller gave (not equal to its
    default) by keyword, numpy's axis/keepdims aliases renamed to dim/keepdim."""
    sig = _signature(func)
    if sig is None:
        return args, kwargs
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return args, kwargs        # the op itself raises PyTorch's error
    params = sig.parameters
    names = list(bound.arguments)
    first = names[0]
    out = {}
    for n in names[1:]:
        v = bound.arguments[n]
        if params[n].kind is inspect.Parameter.VAR_POSITIONAL:
            return args, kwargs
        if params[n].kind is inspect.Parameter.VAR_KEYWORD:
            out.update(v)
            continue
        if _is_default(v, params[n].default):
            continue
        out[{"axis": "dim", "keepdims": "keepdim"}.get(n, n)] = v
    return (bound.arguments[first],), out


def _dim_arg(name, args, kwargs, pos):
    if "dim" in kwargs:
        return kwargs["dim"], "kw"
    if len(args) > pos and not (name in ("std", "var") and isinstance(args[pos], bool)):
        return args[pos], "pos"
    return None, None


def _shift(d, n):
    if isinstance(d, (tuple, list)):
        return tuple(_wrap_dim(x, n) + 1 for x in d)
    return _wrap_dim(d, n) + 1


@_rule("sum", "mean", "prod", "amax", "amin", "std", "var", "logsumexp", "norm", "all", "any",
       "nansum", "nanmean", "count_nonzero", "argmax", "argmin", "max", "min", "median",
       "nanmedian", "softmax", "log_softmax", "cumsum", "cumprod", "logcumsumexp", "cummax",
       "cummin", "std_mean", "var_mean", "mode", "kthvalue", "topk", "sort", "argsort",
       "flip", "roll", "aminmax")
def _reduction(ctx, func, name, args, kwargs):
    self = args[0]
    if name in ("max", "min"):
        other = args[1] if len(args) > 1 else kwargs.get("other", kwargs.get("dim"))
        if _is_tensorish(other):       # the binary overload: max(input, other)
            return _pointwise(ctx, func, name, (self, other), {})
    if not ctx.batched(self) or any(ctx.batched(a) for a in args[1:]):
        return NotImplemented
    args, kwargs = _canonical_call(func, args, kwargs)   # Note [Function form of reductions]
    if name in ("std", "var", "std_mean", "var_mean") and isinstance(kwargs.get("dim"), bool):
        kwargs["unbiased"] = kwargs.pop("dim")           # the std(input, unbiased) overload
    v = self._value
    n = v.dim() - 1
    pos = {"norm": 2, "kthvalue": 2, "topk": 2}.get(name, 1)
    if name == "flip":
        dims = args[1] if len(args) > 1 else kwargs["dims"]
        if isinstance(dims, int):
            dims = (dims,)
        return ctx.wrap(func(v, _shift(tuple(dims), n)))
    if name == "roll":
        shifts = args[1] if len(args) > 1 else kwargs["shifts"]
        dims = args[2] if len(args) > 2 else kwargs.get("dims")
        if dims is None:
            return ctx.wrap(func(v.flatten(1), shifts, 1).reshape(v.shape))
        return ctx.wrap(func(v, shifts, _shift(dims, n)))
    d, where = _dim_arg(name, args, kwargs, pos)
    if (isinstance(d, (tuple, list)) and len(d) == 0 and name in _EMPTY_DIM_REDUCES_ALL):
        d = None                      # sum(x, dim=()) reduces every dim, as dim=None
        kwargs = {k: a for k, a in kwargs.items() if k != "dim"}
    new_args, new_kwargs = list(args), dict(kwargs)
    new_args[0] = v
    if d is None:
        if name not in _FULL_REDUCE_DEFAULT:
            return NotImplemented
        if name in ("argmax", "argmin", "max", "min", "median", "nanmedian", "all", "any",
                    "count_nonzero", "norm", "prod", "aminmax") or n == 0:
            if name == "norm":
                p = new_kwargs.pop("p", "fro")
                if len(args) > 1 or new_kwargs:
                    return NotImplemented
                return ctx.wrap(func(v.reshape(v.shape[0], -1), p, 1))
            if len(args) > 1 or new_kwargs.get("keepdim"):
                return NotImplemented
            flat = v.reshape(v.shape[0], -1)
            new_kwargs["dim"] = 1
            out = func(flat, **new_kwargs)
            if name in ("max", "min", "median", "nanmedian"):
                out = out[0]          # the full reduction gives values only
            return ctx.wrap(out)
        dims = tuple(range(1, n + 1))
        if name in ("std", "var", "std_mean", "var_mean") and len(args) > 1:
            # std(input, unbiased)
            new_kwargs["unbiased"] = args[1]
            new_args = [v]
        new_kwargs["dim"] = dims
        return ctx.wrap(func(*new_args, **new_kwargs))
    shifted = _shift(d, n) if n > 0 or not isinstance(d, (tuple, list)) or d else d
    if n == 0 and isinstance(d, (tuple, list)) and len(d) == 0:
        shifted = ()
    if where == "kw":
        new_kwargs["dim"] = shifted
    else:
        new_args[pos] = shifted
    return ctx.wrap(func(*new_args, **new_kwargs))


# ---------------------------------------------------------------- views and shapes

def _sizes(args, start=1):
    s = args[start:]
    if len(s) == 1 and isinstance(s[0], (tuple, list, _ag.Size)):
        return tuple(s[0])
    return tuple(s)


@_rule("view", "reshape")
def _view(ctx, func, name, args, kwargs):
    self = args[0]
    if not ctx.batched(self) or kwargs:
        return NotImplemented
    shape = _sizes(args)
    if len(shape) == 1 and not isinstance(shape[0], int):
        return NotImplemented            # view(dtype)
    v = self._value
    return ctx.wrap(getattr(v, name)(v.shape[0], *shape))


@_rule("view_as", "reshape_as", "expand_as")
def _as(ctx, func, name, args, kwargs):
    base = {"view_as": "view", "reshape_as": "reshape", "expand_as": "expand"}[name]
    return _dispatch(getattr(Tensor, base), base, (args[0], tuple(args[1].shape)), {})


@_rule("expand")
def _expand(ctx, func, name, args, kwargs):
    self = args[0]
    if not ctx.batched(self):
        return NotImplemented
    shape = _sizes(args)
    v = self._value
    n = v.dim() - 1
    lead = len(shape) - n
    if lead < 0:
        return NotImplemented
    if lead:
        v = v.reshape((v.shape[0],) + (1,) * lead + tuple(v.shape)[1:])
    return ctx.wrap(v.expand(v.shape[0], *shape))


@_rule("permute")
def _permute(ctx, func, name, args, kwargs):
    self = args[0]
    if not ctx.batched(self):
        return NotImplemented
    dims = _sizes(args) if "dims" not in kwargs else tuple(kwargs["dims"])
    n = self.dim()
    return ctx.wrap(self._value.permute(0, *[_wrap_dim(d, n) + 1 for d in dims]))


@_rule("transpose", "swapaxes", "swapdims", "movedim", "moveaxis", "unsqueeze", "squeeze",
       "select", "narrow", "unbind", "split", "chunk", "tensor_split", "unflatten", "diagonal",
       "t", "flatten", "unfold", "repeat_interleave", "diff", "tril", "triu", "trace",
       "split_with_sizes", "index_select", "gather", "take_along_dim", "squeeze_",
       "unsqueeze_", "t_", "transpose_", "adjoint", "matrix_power")
def _dim_ops(ctx, func, name, args, kwargs):
    self = args[0]
    if name == "unsqueeze" and len(args) == 2 and not kwargs and type(args[1]) is int and \
            ctx.batched(self):
        # the common case first (a per-sample loss's x.unsqueeze(0))
        v = self._value
        return BatchedTensor(v.unsqueeze(_wrap_dim(args[1], v.dim()) + 1), ctx.level)
    if not ctx.batched(self) or any(ctx.batched(a) for a in args[1:] if name not in (
            "gather", "take_along_dim", "index_select")) or kwargs.get("dim") is not None and \
            name not in ("unbind", "split", "chunk", "tensor_split", "squeeze", "unflatten",
                         "select", "narrow", "diff", "repeat_interleave", "index_select",
                         "gather", "take_along_dim"):
        return NotImplemented
    v = self._value
    n = v.dim() - 1
    rest = list(args[1:])
    kw = dict(kwargs)
    if name in ("t", "t_", "adjoint"):
        if n < 2:
            return ctx.wrap(v) if name != "adjoint" else NotImplemented
        return ctx.wrap(getattr(v, "transpose" if name != "t_" else "transpose_")(1, 2)
                        if name != "adjoint" else v.transpose(-2, -1)) if name != "t_" \
            else _transpose_inplace(self, v)
    if name in ("trace", "matrix_power"):
        if name == "trace":
            return ctx.wrap(v.diagonal(0, 1, 2).sum(-1))
        return ctx.wrap(func(v, *rest))
    if name in ("tril", "triu"):
        return ctx.wrap(func(v, *rest, **kw))
    if name in ("transpose", "swapaxes", "swapdims", "transpose_"):
        d0, d1 = (rest + [kw.pop("dim0", None), kw.pop("dim1", None)])[:2] \
            if len(rest) >= 2 else (kw["dim0"], kw["dim1"])
        out = getattr(v, name)(_shift(d0, n), _shift(d1, n))
        return self if name.endswith("_") else ctx.wrap(out)
    if name in ("movedim", "moveaxis"):
        src, dst = rest[0] if rest else kw["source"], rest[1] if len(rest) > 1 else \
            kw["destination"]
        return ctx.wrap(v.movedim(_shift(src, n), _shift(dst, n)))
    if name in ("unsqueeze", "unsqueeze_"):
        d = rest[0] if rest else kw["dim"]
        out = getattr(v, name)(_wrap_dim(d, n + 1) + 1)
        return self if name.endswith("_") else ctx.wrap(out)
    if name in ("squeeze", "squeeze_"):
        d = rest[0] if rest else kw.get("dim")
        if d is None:
            dims = tuple(i + 1 for i, s in enumerate(tuple(v.shape)[1:]) if s == 1)
            out = getattr(v, name)(dims) if dims else (v if name.endswith("_") else v.view_as(v))
        else:
            out = getattr(v, name)(_shift(d, n) if n else ())
        return self if name.endswith("_") else ctx.wrap(out)
    if name == "flatten":
        start = rest[0] if rest else kw.get("start_dim", 0)
        end = rest[1] if len(rest) > 1 else kw.get("end_dim", -1)
        if n == 0:
            return ctx.wrap(v.reshape(v.shape[0], 1))
        return ctx.wrap(v.flatten(_shift(start, n), _shift(end, n)))
    if name == "unflatten":
        d = rest[0] if rest else kw["dim"]
        sizes = rest[1] if len(rest) > 1 else kw["sizes"]
        return ctx.wrap(v.unflatten(_shift(d, n), sizes))
    if name == "diagonal":
        offset = rest[0] if rest else kw.get("offset", 0)
        d1 = rest[1] if len(rest) > 1 else kw.get("dim1", 0)
        d2 = rest[2] if len(rest) > 2 else kw.get("dim2", 1)
        return ctx.wrap(v.diagonal(offset, _shift(d1, n), _shift(d2, n)))
    if name == "unfold":
        return ctx.wrap(v.unfold(_shift(rest[0], n), rest[1], rest[2]))
    if name in ("index_select", "gather", "take_along_dim"):
        d = rest[0] if rest else kw.pop("dim")
        idx = rest[1] if len(rest) > 1 else kw.pop("index", kw.pop("indices", None))
        if name == "index_select":
            if ctx.batched(idx):
                return NotImplemented
            return ctx.wrap(v.index_select(_shift(d, n), idx))
        if name == "take_along_dim":
            return NotImplemented
        iv = ctx.moved(idx)
        return ctx.wrap(_ag.gather(v, _shift(d, n), iv))
    # ops whose dim argument has a fixed position or is keyword dim=
    dim_pos = {"select": 0, "narrow": 0, "unbind": 0, "split": 1, "chunk": 1,
               "tensor_split": 1, "diff": 1, "repeat_interleave": 1,
               "split_with_sizes": 1}[name]
    default = 0 if name in ("unbind", "split", "chunk", "tensor_split", "split_with_sizes") \
        else (-1 if name == "diff" else None)
    if "dim" in kw:
        d = kw["dim"]
        kw["dim"] = _shift(d, n) if d is not None else None
        if name == "repeat_interleave" and d is None:
            return NotImplemented
    elif len(rest) > dim_pos:
        if name == "repeat_interleave" and rest[dim_pos] is None:
            return NotImplemented
        rest[dim_pos] = _shift(rest[dim_pos], n)
    else:
        if default is None:
            return NotImplemented
        kw["dim"] = _shift(default, n)
    if name == "repeat_interleave" and _is_tensorish(rest[0]):
        return NotImplemented
    if name == "diff" and any(_is_tensorish(a) for a in rest + list(kw.values())):
        return NotImplemented
    return ctx.wrap(func(v, *rest, **kw))


def _transpose_inplace(self, v):
    v.transpose_(1, 2)
    return self


@_rule("index_fill", "index_fill_")
def _index_fill(ctx, func, name, args, kwargs):
    self = args[0]
    if not ctx.batched(self) or kwargs or any(ctx.batched(a) for a in args[1:]):
        return NotImplemented
    out = func(self._value, _shift(args[1], self.dim()), *args[2:])
    return self if name.endswith("_") else ctx.wrap(out)


def _basic_batched_key(idx):
    """The key into a batched value (batch dim in front) for a basic index ``idx`` of the
    logical tensor: ints, slices, None and Ellipsis. None for any other index (the
    __getitem__/__setitem__ rules then decline it)."""
    items = idx if isinstance(idx, tuple) else (idx,)
    for it in items:
        if not (it is None or it is Ellipsis or isinstance(it, (int, slice))):
            return None
    return (slice(None),) + items


@_rule("__getitem__")
def _getitem(ctx, func, name, args, kwargs):
    self, idx = args[0], args[1]
    if not ctx.batched(self):
        return NotImplemented
    key = _basic_batched_key(idx)
    if key is None:
        return NotImplemented
    return ctx.wrap(self._value[key])


@_rule("__setitem__")
def _setitem(ctx, func, name, args, kwargs):
    self, idx, value = args
    if not ctx.batched(self):
        return NotImplemented
    key = _basic_batched_key(idx)
    if key is None:
        return NotImplemented
    if ctx.batched(value):
        target = self._value[key]
        v = value._value
        pad = target.dim() - v.dim()
        if pad > 0:
            v = v.reshape((v.shape[0],) + (1,) * pad + tuple(v.shape)[1:])
        self._value[key] = v
    else:
        self._value[key] = value
    return None


@_rule("cat", "concat", "concatenate", "stack", "hstack", "vstack")
def _cat(ctx, func, name, args, kwargs):
    tensors = args[0] if args else kwargs["tensors"]
    d = args[1] if len(args) > 1 else kwargs.get("dim", 0)
    if name in ("hstack", "vstack"):
        return NotImplemented
    logical = [t for t in tensors]
    n = max(t.dim() for t in logical)
    if name == "stack":
        shifted = _wrap_dim(d, n + 1) + 1
    else:
        shifted = _wrap_dim(d, n) + 1 if n else 1
    vals = []
    for t in logical:
        if name != "stack" and t.dim() == 1 and t.shape[0] == 0 and not ctx.batched(t):
            continue        # cat's legacy empty tensor
        vals.append(ctx.moved(t))
    return ctx.wrap(func(vals, shifted))


# ---------------------------------------------------------------- products

def _as_matrix_operands(ctx, a, b):
    """matmul's operands' values, 1-D operands made matrices and batch dims aligned;
    returns (va, vb, squeeze dims of the result)."""
    ra, rb = a.dim(), b.dim()
    squeeze = []
    va, vb = ctx.value(a), ctx.value(b)
    ba, bb = ctx.batched(a), ctx.batched(b)
    if ra == 1:
        va = va.unsqueeze(-2)
        ra = 2
        squeeze.append(-2)
    if rb == 1:
        vb = vb.unsqueeze(-1)
        rb = 2
        squeeze.append(-1)
    r = max(ra, rb)
    if ba:
        va = va.reshape((va.shape[0],) + (1,) * (r - ra) + tuple(va.shape)[1:])
    if bb:
        vb = vb.reshape((vb.shape[0],) + (1,) * (r - rb) + tuple(vb.shape)[1:])
    if ba and not bb and vb.dim() > 2:
        vb = vb.unsqueeze(0)
    if bb and not ba and va.dim() > 2:
        va = va.unsqueeze(0)
    return va, vb, squeeze


@_rule("matmul", "mm", "bmm", "mv", "dot", "inner", "vdot", "__matmul__")
def _matmul(ctx, func, name, args, kwargs):
    a = args[0]
    b = args[1] if len(args) > 1 else kwargs.get("other", kwargs.get("mat2", kwargs.get("vec")))
    if not (_is_tensorish(a) and _is_tensorish(b)):
        return NotImplemented
    if name == "inner" and (a.dim() > 1 or b.dim() > 1):
        return NotImplemented
    va, vb, squeeze = _as_matrix_operands(ctx, a, b)
    out = _ag.matmul(va, vb)
    if len(squeeze) == 2:
        out = out.squeeze(-1).squeeze(-1)
    elif squeeze:
        out = out.squeeze(squeeze[0])
    return ctx.wrap(out)


_linear_op = _nn_ops.NN_FUNCTIONAL["linear"]     # F.linear's compiled op (plain tensors)


class _SharedWeightLinear(_ag.autograd.Function):
    """x @ w.T + b for a batch of samples whose weights w (B, out, in) are one matrix
    expanded (stride 0 along the batch): grad's per-sample copies of a shared weight
    (Note [grad under vmap]). b is None, unbatched (out,), or batched (B, out) (grad's
    per-sample copies of a shared bias, or a vmapped bias). The forward is one matrix
    product with the shared matrix, the bias added in place; the backward gives each
    sample's weight gradient as an outer product (one pass in C for one row per sample,
    not B matrix products of inner size 1), the input gradient by one product and the
    bias gradient by a sum over each sample's rows, per sample exact under create_graph
    (the formulas are then the library's differentiable ops)."""

    @staticmethod
    def forward(ctx, x, w, b, b_batched):
        ctx.save_for_backward(x, w)
        ctx.b_batched = b_batched
        w0 = w[0]
        if b is None or not b_batched:
            return _linear_op(x, w0, b)
        if b.stride(0) == 0:
            return _linear_op(x, w0, b[0])
        out = _linear_op(x, w0)
        out.view(x.shape[0], -1, out.shape[-1]).add_(b.unsqueeze(1))
        return out

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return _shared_weight_linear_grads(x, w, g, ctx.needs_input_grad[:3], ctx.b_batched,
                                           _ag.is_grad_enabled()) + (None,)


def _shared_weight_linear_grads(x, w, g, needs, b_batched, graph):
    """(gx, gw, gb) of the shared-weight linear (None where needs is false); graph
    (create_graph): in the library's differentiable ops, each sample's second
    derivatives going through the expanded w. Also the compiled node's create_graph
    formulas (func/_vmapfast.pyx)."""
    gx = gw = gb = None
    B = x.shape[0]
    if needs[0]:
        if graph:        # through the expanded w: each sample's second derivatives
            gx = _ag.matmul(g.reshape(B, -1, g.shape[-1]), w).view(tuple(x.shape))
        else:
            gx = _ag.matmul(g, w[0])
    shape = tuple(g.shape)
    O, I = shape[-1], x.shape[-1]
    rows = 1                              # rows per sample (explicit: sizes may be 0)
    for n in shape[1:-1]:
        rows *= n
    if needs[1]:
        if rows == 1 and not graph:       # an outer product per sample, in one pass
            gw = _nn_ops._per_sample_outer(g.reshape(B, O), x.reshape(B, I))
        else:
            gf = g.reshape(B, rows, O)
            xf = x.reshape(B, rows, I)
            gt = gf.transpose(1, 2)
            gw = gt * xf if rows == 1 else _ag.matmul(gt, xf)
    if needs[2]:
        if not b_batched:
            gb = g.reshape(B * rows, O).sum(0)
        elif rows == 1:
            gb = g.reshape(B, O)
        else:
            gb = g.reshape(B, rows, O).sum(1)
    return gx, gw, gb


def _shared_weight_linear(x, w, b, b_batched):
    # Function.apply without its vmap check (the arguments are physical tensors); the
    # compiled recorder's path for forward AD and dtypes other than float32/float64
    return _function_apply(_SharedWeightLinear, (x, w, b, b_batched), {})


@_rule("linear")
def _linear(ctx, func, name, args, kwargs):
    x = args[0] if args else kwargs["input"]
    w = args[1] if len(args) > 1 else kwargs["weight"]
    b = args[2] if len(args) > 2 else kwargs.get("bias")
    if not ctx.batched(w) and not ctx.batched(b):
        return ctx.wrap(func(x._value, w, b))       # the batch is one more leading dim
    # (with a dual level active the product below, whose ops carry tangents)
    if ctx.batched(w) and ctx.batched(x) and type(w._value) is Tensor and \
            type(x._value) is Tensor and w._value.stride(0) == 0 and x.dim() >= 1 and \
            not _vmapfast.forward_ad_active():
        if b is None or type(b) is Tensor and b.dim() == 1:
            return BatchedTensor(_vmapfast.shared_weight_linear(x._value, w._value, b, False),
                                 ctx.level)
        if ctx.batched(b) and type(b._value) is Tensor and b.dim() == 1:
            return BatchedTensor(
                _vmapfast.shared_weight_linear(x._value, w._value, b._value, True), ctx.level)
        out = ctx.wrap(_vmapfast.shared_weight_linear(x._value, w._value, None, False))
        return out + b
    out = _dispatch(_ag.matmul, "matmul", (x, _dispatch(Tensor.transpose, "transpose",
                                                         (w, -1, -2), {})), {})
    if b is not None:
        out = out + b
    return out


@_rule("addmm", "addmv", "baddbmm", "addbmm", "outer", "ger", "einsum", "bilinear",
       "tensordot", "kron", "cross", "cdist")
def _decomposed(ctx, func, name, args, kwargs):
    if name == "addmm" or name == "addmv":
        inp, m1, m2 = args[:3]
        beta, alpha = kwargs.get("beta", 1), kwargs.get("alpha", 1)
        prod = _dispatch(_ag.matmul, "matmul", (m1, m2), {})
        return (inp * beta if beta != 1 else inp) + (prod * alpha if alpha != 1 else prod)
    if name == "einsum":
        return _einsum(ctx, func, args)
    if name in ("outer", "ger"):
        a, b = args[:2]
        return a.unsqueeze(-1) * b.unsqueeze(-2) if a.dim() == 1 else NotImplemented
    return NotImplemented


def _einsum(ctx, func, args):
    """einsum with the batch as one more label, in front of each batched operand and of
    the result (explicit equations without an ellipsis; others loop per sample)."""
    eq = args[0]
    ops = list(args[1]) if len(args) == 2 and isinstance(args[1], (list, tuple)) \
        else list(args[1:])
    if not isinstance(eq, str) or "->" not in eq or "..." in eq:
        return NotImplemented
    lhs, rhs = eq.replace(" ", "").split("->")
    terms = lhs.split(",")
    if len(terms) != len(ops):
        return NotImplemented
    free = next(c for c in "ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba"
                if c not in eq)
    new_terms = [free + t if ctx.batched(o) else t for t, o in zip(terms, ops)]
    vals = [ctx.value(o) for o in ops]
    return ctx.wrap(func(",".join(new_terms) + "->" + free + rhs, *vals))


@_rule("fill_", "zero_")
def _fill(ctx, func, name, args, kwargs):
    self = args[0]
    if name == "zero_":
        if not ctx.batched(self):
            return NotImplemented
        func(self._value)
        return self
    value = args[1] if len(args) > 1 else kwargs["value"]
    if not ctx.batched(value):
        if not ctx.batched(self):
            return NotImplemented
        func(self._value, value)
        return self
    if not ctx.batched(self):
        return NotImplemented                  # the fallback raises PyTorch's in-place error
    v = self._value
    v.copy_(value._value.reshape(-1, *[1] * (v.dim() - 1)).expand_as(v))
    return self


@_rule("new_zeros", "new_ones", "new_empty", "new_full")
def _new_filled(ctx, func, name, args, kwargs):
    """A batch of new tensors, one per sample (as functorch's rule: in-place writes of
    batched values into them work)."""
    self, rest = args[0], list(args[1:])
    if not ctx.batched(self):
        return NotImplemented
    size = rest.pop(0) if rest else kwargs.pop("size")
    if name != "new_full" and rest:           # new_zeros(2, 3): sizes as varargs
        size, rest = (size, *rest), []
    size = (size,) if isinstance(size, int) else tuple(size)
    return ctx.wrap(func(self._value, (ctx.size, *size), *rest, **kwargs))


@_rule("conv1d", "conv2d", "conv3d")
def _conv(ctx, func, name, args, kwargs):
    names = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")
    call = dict(zip(names, args))
    call.update(kwargs)
    x, w, b = call["input"], call["weight"], call.get("bias")
    spatial = {"conv1d": 1, "conv2d": 2, "conv3d": 3}[name]
    if not ctx.batched(w) and not ctx.batched(b):
        if not ctx.batched(x):
            return NotImplemented
        v = x._value
        if v.dim() - 1 == spatial + 1:           # unbatched conv input: the batch is N
            return ctx.wrap(func(v, *args[1:], **kwargs))
        B, N = v.shape[0], v.shape[1]
        out = func(v.reshape(B * N, *tuple(v.shape)[2:]), *args[1:], **kwargs)
        return ctx.wrap(out.reshape(B, N, *tuple(out.shape)[1:]))
    # A batched weight (per-sample gradients, ensembles, the weight gradient of a
    # batched backward): the B convolutions are one grouped convolution whose groups are
    # the samples' (as functorch's conv batching rule).
    B, groups = ctx.size, call.get("groups", 1)
    xv, wv = ctx.moved(x), ctx.moved(w)
    unbatched_input = xv.dim() - 1 == spatial + 1
    if unbatched_input:
        xv = xv.unsqueeze(1)
    N = xv.shape[1]
    xv = xv.movedim(0, 1).reshape(N, B * xv.shape[2], *tuple(xv.shape)[3:])
    O = wv.shape[1]
    call.update(input=xv, weight=wv.reshape(B * O, *tuple(wv.shape)[2:]), groups=B * groups)
    if b is not None:
        call["bias"] = ctx.moved(b).reshape(B * O)
    out = func(**call)
    out = out.reshape(N, B, O, *tuple(out.shape)[2:]).movedim(1, 0)
    return ctx.wrap(out.squeeze(1) if unbatched_input else out)


@_rule("constant_pad_nd")
def _constant_pad(ctx, func, name, args, kwargs):
    x, pad = args[0], args[1] if len(args) > 1 else kwargs.get("pad")
    if not ctx.batched(x) or pad is None or len(pad) // 2 > x.dim() or \
            any(ctx.batched(a) for a in list(args[2:]) + list(kwargs.values())):
        return NotImplemented
    return ctx.wrap(func(x._value, *args[1:], **kwargs))   # the pad only reaches the last dims


@_rule("batch_norm")
def _batch_norm(ctx, func, name, args, kwargs):
    """The samples' channels side by side as one batch norm's channels (functorch's rule);
    batch statistics written into running stats that are not batched would mix the
    samples, which PyTorch refuses."""
    names = ("input", "running_mean", "running_var", "weight", "bias", "training",
             "momentum", "eps")
    call = dict(zip(names, args))
    call.update(kwargs)
    x, rm, rv = call["input"], call.get("running_mean"), call.get("running_var")
    if call.get("training", False) and (rm is not None or rv is not None) and \
            ctx.batched(x) and not (ctx.batched(rm) and ctx.batched(rv)):
        raise RuntimeError(
            "Batch norm got a batched tensor as input while the running_mean or running_var, "
            "which will be updated in place, were not batched.\nIf you are using a module and "
            "do not need eval mode, please set `track_running_stats` to be False.If you are "
            "using a prebuilt module and do not need eval mode, please see the functorch "
            "website for resources on how to patch your module to work with vmap")
    xv = ctx.moved(x)
    if xv.dim() < 3:
        return NotImplemented
    B, N, C = xv.shape[0], xv.shape[1], xv.shape[2]
    spatial = tuple(xv.shape)[3:]
    call["input"] = xv.movedim(0, 1).reshape(N, B * C, *spatial)
    for k in ("running_mean", "running_var", "weight", "bias"):
        t = call.get(k)
        if t is not None:
            if ctx.batched(t) and call.get("training", False) and k.startswith("running") \
                    and not t._value.is_contiguous():
                return NotImplemented      # the in-place update must reach the batch
            call[k] = ctx.moved(t).reshape(B * C)
    out = func(**call)
    return ctx.wrap(out.reshape(N, B, C, *spatial).movedim(1, 0))


@_rule("max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
       "adaptive_avg_pool2d", "adaptive_max_pool2d", "max_pool3d", "avg_pool3d")
def _pool(ctx, func, name, args, kwargs):
    x = args[0] if args else kwargs["input"]
    if not ctx.batched(x):
        return NotImplemented
    v = x._value
    B = v.shape[0]
    lead = tuple(v.shape)[1:-int(name[-2])] if name[-2].isdigit() else None
    if lead is None:
        return NotImplemented
    k = int(name[-2])
    flat = v.reshape(-1, *tuple(v.shape)[-k:]).unsqueeze(1)
    out = func(flat, *args[1:], **kwargs)
    fix = (lambda o: o.squeeze(1).reshape(B, *lead[0:], *tuple(o.shape)[-k:]))
    if isinstance(out, tuple):
        return ctx.wrap(tuple(fix(o) for o in out))
    return ctx.wrap(fix(out))


# ---------------------------------------------------------------- losses and nn reductions

_REDUCTIONS = {"mean": lambda t: t.mean(tuple(range(1, t.dim()))) if t.dim() > 1 else t,
               "sum": lambda t: t.sum(tuple(range(1, t.dim()))) if t.dim() > 1 else t,
               "none": lambda t: t}


def _reduction_arg(args, pos, kwargs):
    r = kwargs.pop("reduction", None)
    if r is None and len(args) > pos and isinstance(args[pos], str):
        r = args[pos]
        args = args[:pos]
    return args, kwargs, r or "mean"


@_rule("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
       "binary_cross_entropy_with_logits", "soft_margin_loss", "kl_div")
def _pointwise_loss(ctx, func, name, args, kwargs):
    kwargs = dict(kwargs)
    for k in ("size_average", "reduce"):
        if kwargs.get(k) is not None:
            return NotImplemented
    args, kwargs, red = _reduction_arg(list(args), {"binary_cross_entropy": 3,
                                                    "binary_cross_entropy_with_logits": 3,
                                                    "kl_div": 4}.get(name, 4), kwargs)
    if red not in _REDUCTIONS:
        return NotImplemented
    if name in ("binary_cross_entropy", "binary_cross_entropy_with_logits") and \
            (len(args) > 2 or kwargs.get("weight") is not None or
             kwargs.get("pos_weight") is not None):
        return NotImplemented
    if name == "kl_div" and kwargs.get("log_target") is not None and len(args) > 2:
        return NotImplemented
    a, t = args[0], args[1]
    if tuple(a.shape) != tuple(t.shape):
        return NotImplemented
    va, vt = ctx.moved(a), ctx.moved(t)
    kwargs["reduction"] = "none"
    out = func(va, vt, *args[2:], **kwargs)
    if red == "batchmean":
        return NotImplemented
    return ctx.wrap(_REDUCTIONS[red](out))


@_rule("cross_entropy", "nll_loss")
def _class_loss(ctx, func, name, args, kwargs):
    kwargs = dict(kwargs)
    inp, target = args[0], args[1]
    if any(kwargs.get(k) is not None for k in ("weight", "size_average", "reduce")) or \
            len(args) > 2 or kwargs.get("label_smoothing", 0.0) != 0.0 and name == "nll_loss":
        return NotImplemented
    red = kwargs.pop("reduction", "mean")
    if red not in ("mean", "sum", "none"):
        return NotImplemented
    ignore = kwargs.get("ignore_index", -100)
    if inp.dim() == 1 and not target.is_floating_point():
        # one sample, class scores of one dim: the batch is the N of a batched call
        vi, vt = ctx.moved(inp), ctx.moved(target)
        kwargs["reduction"] = "none"
        return ctx.wrap(func(vi, vt, **kwargs))
    if inp.dim() >= 2 and not target.is_floating_point():
        vi, vt = ctx.moved(inp), ctx.moved(target)
        B = vi.shape[0]
        kwargs["reduction"] = "none"
        # classes as dim 1 of the folded batch
        flat_i = vi.reshape(B * vi.shape[1], *tuple(vi.shape)[2:])
        flat_t = vt.reshape(B * vt.shape[1], *tuple(vt.shape)[2:])
        per = func(flat_i, flat_t, **kwargs)
        if red != "none" and vt.dim() == 2 and vt.shape[1] == 1:
            # one row per sample: its sum is itself, and so is its mean unless its
            # target is ignored (then 0 / 0, as PyTorch's mean over no target)
            if red == "sum" or not (flat_t == ignore).any():
                return ctx.wrap(per)
            return ctx.wrap(per / (flat_t != ignore).to(per.dtype))
        per = per.reshape(tuple(vt.shape))
        if red == "none":
            return ctx.wrap(per)
        dims = tuple(range(1, per.dim()))
        if red == "sum":
            return ctx.wrap(per.sum(dims))
        valid = (vt != ignore).to(per.dtype)
        return ctx.wrap(per.sum(dims) / valid.sum(dims))
    return NotImplemented


@_rule("layer_norm")
def _layer_norm(ctx, func, name, args, kwargs):
    x = args[0]
    if not ctx.batched(x) or any(ctx.batched(a) for a in list(args[1:]) +
                                 list(kwargs.values())):
        return NotImplemented
    return ctx.wrap(func(x._value, *args[1:], **kwargs))


@_rule("embedding")
def _embedding(ctx, func, name, args, kwargs):
    idx, w = args[0], args[1]
    if ctx.batched(w) or not ctx.batched(idx):
        return NotImplemented
    return ctx.wrap(func(idx._value, w, *args[2:], **kwargs))


# ---------------------------------------------------------------- vmap itself

def _check_randomness(randomness):
    if randomness not in ("error", "different", "same"):
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")


def _broadcast_in_dims(func, in_dims, args):
    if not isinstance(in_dims, int) and not isinstance(in_dims, tuple):
        raise ValueError(f"vmap({_fname(func)}, in_dims={in_dims}, ...)(<inputs>): expected "
                         f"`in_dims` to be int or a (potentially nested) tuple matching the "
                         f"structure of inputs, got: {type(in_dims)}.")
    if len(args) == 0:
        raise ValueError(f"vmap({_fname(func)})(<inputs>): got no inputs. Maybe you forgot to "
                         f"add inputs, or you are trying to vmap over a function with no "
                         f"inputs. The latter is unsupported.")
    flat_args, spec = tree_flatten(args)
    if isinstance(in_dims, int):
        flat_dims = [in_dims] * len(flat_args)
    elif type(in_dims) is tuple and len(in_dims) == len(args) and all(
            d is None or type(d) is int for d in in_dims):
        # one dim per argument (the usual spelling): each applies to its argument's leaves
        flat_dims = []
        for d, child in zip(in_dims, spec.children_specs):
            flat_dims += [d] * child.num_leaves
    else:
        flat_dims = _broadcast_prefix(in_dims, args)
        if flat_dims is None:
            raise ValueError(
                f"vmap({_fname(func)}, in_dims={in_dims}, ...)(<inputs>): in_dims is not "
                f"compatible with the structure of `inputs`. in_dims has structure "
                f"{tree_flatten(in_dims)[1]} but inputs has structure {spec}.")
    return flat_args, flat_dims, spec


def _broadcast_prefix(prefix, tree):
    """The leaves of prefix broadcast over tree (a prefix tree), or None."""
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(tree_flatten(tree)[0])
    t_ch = tree_flatten(tree)[1]
    if t_ch.is_leaf() or type(prefix) is not t_ch.type:
        if isinstance(prefix, (tuple, list, dict)):
            return None
        return [prefix] * t_ch.num_leaves
    if isinstance(prefix, dict):
        if set(prefix) != set(tree):
            return None
        out = []
        for k in tree:
            sub = _broadcast_prefix(prefix[k], tree[k])
            if sub is None:
                return None
            out += sub
        return out
    if len(prefix) != len(tree):
        return None
    out = []
    for p, t in zip(prefix, tree):
        sub = _broadcast_prefix(p, t)
        if sub is None:
            return None
        out += sub
    return out


def _batch_size(func, in_dims, flat_args, flat_dims):
    sizes = []
    for a, d in zip(flat_args, flat_dims):
        if d is None:
            continue
        if not isinstance(d, int):
            raise ValueError(f"vmap({_fname(func)}, in_dims={in_dims}, ...)(<inputs>): Got "
                             f"in_dim={d} for an input but in_dim must be either an integer "
                             f"dimension or None.")
        if not _is_tensorish(a):
            raise ValueError(f"vmap({_fname(func)}, in_dims={in_dims}, ...)(<inputs>): Got "
                             f"in_dim={d} for an input but the input is of type {type(a)}. We "
                             f"cannot vmap over non-Tensor arguments, please use None as the "
                             f"respective in_dim")
        n = a.dim()
        if not -n <= d < n:
            raise ValueError(f"vmap({_fname(func)}, in_dims={in_dims}, ...)(<inputs>): Got "
                             f"in_dim={d} for some input, but that input is a Tensor of "
                             f"dimensionality {n} so expected in_dim to satisfy -{n} <= in_dim "
                             f"< {n}.")
        sizes.append(a.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0]


def _unwrap_output(func, level, size, out, out_dim):
    if type(out) is BatchedTensor and out._level == level and out_dim == 0:
        return out._value                   # (the usual result)
    name = _fname(func)
    if out_dim is None:
        if type(out) is BatchedTensor and out._level == level:
            raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when "
                             f"out_dim is None")
        return out
    if not _is_tensorish(out):
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                         f"{type(out)}. Did you mean to set out_dims= to None for output?")
    if type(out) is BatchedTensor and out._level == level:
        v = out._value
    else:
        v = out.unsqueeze(0).expand(size, *out.shape)
    return v.movedim(0, out_dim) if out_dim != 0 else v


def _flat_out_dims(func, out_dims, out):
    flat_out, spec = tree_flatten(out)
    if isinstance(out_dims, int) or out_dims is None:
        return flat_out, [out_dims] * len(flat_out), spec
    if isinstance(out_dims, tuple) and len(out_dims) == 1 and not isinstance(out, tuple):
        return flat_out, [out_dims[0]] * len(flat_out), spec
    dims = _broadcast_prefix(out_dims, out) if isinstance(out_dims, (tuple, list, dict)) \
        else None
    if not isinstance(out_dims, (tuple, list, dict)):
        raise ValueError(f"vmap({_fname(func)}, ..., out_dims={out_dims}): `out_dims` must be "
                         f"an int, None or a python collection of ints representing where in "
                         f"the outputs the vmapped dimension should appear.")
    if dims is None:
        raise ValueError(f"vmap({_fname(func)}, ..., out_dims={out_dims})(<inputs>): out_dims "
                         f"is not compatible with the structure of `outputs`. out_dims has "
                         f"structure {tree_flatten(out_dims)[1]} but outputs has structure "
                         f"{spec}.")
    return flat_out, dims, spec


def _run(func, flat_args, flat_dims, spec, size, out_dims, randomness, kwargs):
    level = (_LEVELS[-1][0] + 1) if _LEVELS else 1
    _LEVELS.append([level, size, randomness])
    try:
        batched = [BatchedTensor(a.movedim(d, 0) if d != 0 else a, level) if d is not None
                   else a for a, d in zip(flat_args, flat_dims)]
        out = func(*tree_unflatten(batched, spec), **kwargs)
        flat_out, dims, out_spec = _flat_out_dims(func, out_dims, out)
        for o, d in zip(flat_out, dims):
            if d is not None and _is_tensorish(o):
                n = o.dim() + 1
                if not -n <= d < n:
                    raise IndexError(f"Dimension out of range (expected to be in range of "
                                     f"[{-n}, {n - 1}], but got {d})")
        res = [_unwrap_output(func, level, size, o, d) for o, d in zip(flat_out, dims)]
        return res, dims, out_spec
    finally:
        _LEVELS.pop()


def vmap(func: Callable[..., Any], in_dims: Any = 0, out_dims: Any = 0,
         randomness: str = "error", *, chunk_size: int | None = None) -> Callable[..., Any]:
    """The vectorizing map: ``vmap(func)(*inputs)`` is ``func`` applied to every slice of
    the inputs along ``in_dims`` (an int, None for an input not mapped, or a pytree
    matching the inputs), results stacked along ``out_dims``. func sees tensors without
    the mapped dimension; the work runs batched, through batching rules (Note
    [BatchedTensor]). ``randomness``: "error" (random ops raise), "different" (one draw
    per sample) or "same" (one draw shared by the samples). ``chunk_size``: run that
    many samples at a time. Composes with itself and with grad: ``vmap(grad(f))`` is
    per-sample gradients.

    >>> import autograd_core as torch
    >>> from autograd_core.func import vmap
    >>> x, y = torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([1., 10.])
    >>> vmap(torch.dot)(x, torch.ones(2, 2))
    tensor([3., 7.])
    >>> vmap(torch.mul, in_dims=(0, None))(x, y)
    tensor([[ 1., 20.],
            [ 3., 40.]])
    """
    _check_randomness(randomness)
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got "
                         f"{chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        flat_args, flat_dims, spec = _broadcast_in_dims(func, in_dims, args)
        size = _batch_size(func, in_dims, flat_args, flat_dims)
        if chunk_size is None or chunk_size >= size:
            res, dims, out_spec = _run(func, flat_args, flat_dims, spec, size, out_dims,
                                       randomness, kwargs)
            return tree_unflatten(res, out_spec)
        chunks = []
        # "same" randomness is the same for every chunk: each starts from one state
        state = _ag.get_rng_state() if randomness == "same" else None
        for start in range(0, size, chunk_size):
            if state is not None:
                _ag.set_rng_state(state)
            n = min(chunk_size, size - start)
            part = [a.narrow(d, start, n) if d is not None else a
                    for a, d in zip(flat_args, flat_dims)]
            chunks.append(_run(func, part, flat_dims, spec, n, out_dims, randomness, kwargs))
        _, dims, out_spec = chunks[0]
        res = []
        for i, d in enumerate(dims):
            pieces = [c[0][i] for c in chunks]
            res.append(_ag.cat(pieces, d) if d is not None else pieces[0])
        return tree_unflatten(res, out_spec)
    return wrapped


@_rule("register_hook")
def _register_hook(ctx, func, name, args, kwargs):
    # A hook on a batched tensor (inside grad under vmap) goes on its physical tensor,
    # the one in the graph, and sees the gradient batched as the tensor is (functorch
    # calls it with a BatchedTensor); what it returns is taken back to physical form.
    # (A hook per sample would sit on views the graph never reaches.)
    self = args[0]
    hook = args[1] if len(args) > 1 else kwargs.get("hook")
    if not ctx.batched(self) or hook is None or len(args) + len(kwargs) != 2:
        return NotImplemented
    levels = levels_of(self)

    def physical_hook(g):
        r = hook(rewrap(g, levels))
        return None if r is None else physical_like(r, self)
    return physical(self).register_hook(physical_hook)


@_rule("nelement")
def _nelement(ctx, func, name, args, kwargs):
    # metadata: the logical tensor's element count (autograd.functional asks for it)
    return args[0].numel()


# ---------------------------------------------------------------- the legacy vmap

# torch._vmap_internals' vmap (what gradcheck's batched checks run): the same batching,
# a random op on a batched tensor raising its own message (a random creation call with
# no tensor to dispatch on is left unbatched, as there)
_LEGACY = "legacy"
_LEGACY_RANDOM_ERROR = ("vmap: We do not yet support calling random operations inside of "
                        "vmap. Please perform random operations outside of vmap as a "
                        "workaround")


def _legacy_validate(func, out):
    name = _fname(func)
    if _is_tensorish(out):
        return
    if not isinstance(out, tuple):
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                         f"{type(out)} as the return.")
    for idx, o in enumerate(out):
        if not _is_tensorish(o):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got "
                             f"type {type(o)} for return {idx}.")


def legacy_vmap(func, in_dims=0, out_dims=0, allow_none_pass_through=False):
    """torch._vmap_internals._vmap: vmap whose func returns a Tensor or a tuple of
    Tensors (None too, where allow_none_pass_through: it comes out as None)."""
    @functools.wraps(func)
    def wrapped(*args):
        if not (isinstance(out_dims, int) or (isinstance(out_dims, tuple) and
                                              all(isinstance(d, int) for d in out_dims))):
            raise ValueError(f"vmap({_fname(func)}, ..., out_dims={out_dims}): `out_dims` "
                             f"must be an int or a tuple of int representing where in the "
                             f"outputs the vmapped dimension should appear.")
        flat_args, flat_dims, spec = _broadcast_in_dims(func, in_dims, args)
        size = _batch_size(func, in_dims, flat_args, flat_dims)
        nones = []

        def checked(*a):
            out = func(*a)
            if allow_none_pass_through and isinstance(out, tuple):
                nones.extend(i for i, o in enumerate(out) if o is None)
                out = tuple(_ag.zeros(()) if o is None else o for o in out)
            else:
                _legacy_validate(func, out)
            return out
        checked.__name__ = _fname(func)
        res, _, out_spec = _run(checked, flat_args, flat_dims, spec, size, out_dims, _LEGACY,
                                {})
        out = tree_unflatten(res, out_spec)
        if nones:
            out = tuple(None if i in nones else o for i, o in enumerate(out))
        return out
    return wrapped


# ---------------------------------------------------------------- custom Functions

class VmapInfo(tuple):
    """What a Function's vmap staticmethod is told: batch_size, randomness."""
    __slots__ = ()

    def __new__(cls, batch_size, randomness):
        return tuple.__new__(cls, (batch_size, randomness))

    batch_size = property(operator.itemgetter(0))
    randomness = property(operator.itemgetter(1))


_EXTENDING = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


def custom_function_apply(cls, args, kwargs):
    """cls.apply with BatchedTensor arguments (Note [Function under vmap] in
    autograd/function.py)."""
    from autograd_core.autograd.function import Function
    ctx = _Ctx(_current_level(args, kwargs))
    mode = _level_info(ctx.level)[2]
    if mode == _LEGACY:
        return per_sample(ctx, cls.apply, args, kwargs)
    if not cls._new_style:
        raise RuntimeError("In order to use an autograd.Function with functorch transforms "
                           "(vmap, grad, jvp, jacrev, ...), it must override the setup_context "
                           f"staticmethod. {_EXTENDING}")
    if any(is_batched(v) for v in kwargs.values()):
        raise NotImplementedError(f"Run vmap on autograd.Function with kwarg-only Tensor args. "
                                  f"Please do not pass kwarg-only Tensors to autograd.Function. "
                                  f"Got: {kwargs}")
    overridden = cls.vmap is not Function.vmap
    if cls.generate_vmap_rule:
        if overridden:
            raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it has both "
                               f"generate_vmap_rule=True and an overridden vmap staticmethod. "
                               f"Please set generate_vmap_rule=False or delete the overridden "
                               f"vmap staticmethod to avoid ambiguity. {_EXTENDING}")
        return per_sample(ctx, cls.apply, args, kwargs)
    if not overridden:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have vmap "
                           f"support. Please override and implement the vmap staticmethod or "
                           f"set generate_vmap_rule=True. {_EXTENDING}")
    in_dims = tuple(0 if ctx.batched(a) else None for a in args)
    values = [ctx.value(a) for a in args]
    result = cls.vmap(VmapInfo(ctx.size, mode), in_dims, *values, **kwargs)
    base = ("Expected the vmap staticmethod to have two returns, an output and out_dims with "
            "pytree structure compatible with the output. ")
    if not isinstance(result, tuple):
        raise RuntimeError(base + f"Got a {type(result)} instead")
    if len(result) != 2:
        raise RuntimeError(base + f"Got {len(result)} returns instead")
    output, out_dims = result
    flat, spec = tree_flatten(output)
    dims = [out_dims] * len(flat) if out_dims is None or isinstance(out_dims, int) \
        else _broadcast_prefix(out_dims, output)
    if dims is None:
        raise RuntimeError(
            f"The autograd.Function's vmap staticmethod returned an incompatible (output, "
            f"out_dims) tuple. Expected out_dims={out_dims} to be compatible with the "
            f"structure of `output`. out_dims has structure {tree_flatten(out_dims)[1]} but "
            f"output has structure {spec}. {_EXTENDING}")
    originals = {id(v): a for v, a in zip(values, args)}
    wrapped = []
    for o, d in zip(flat, dims):
        if not isinstance(o, Tensor):
            wrapped.append(o)
        elif id(o) in originals:           # an input returned as is keeps its identity
            wrapped.append(originals[id(o)])
        else:
            wrapped.append(o if d is None else
                           BatchedTensor(o.movedim(d, 0) if d != 0 else o, ctx.level))
    return tree_unflatten(wrapped, spec)


# ---------------------------------------------------------------- torch.special's aliases

# special.<name> functions that alias a torch.* op batch as that op (and name it in the
# fallback's warning: special.multigammaln warns about aten::mvlgamma, as PyTorch's).
# Written out: these aliases are special.py's Python wrappers, not table rows (the
# table's `aliases:` are torch.* names), so no table says which op each one calls;
# tests/test_vmap.py checks that the keys are exactly special.py's wrappers.
_SPECIAL_ALIASES = {
    "special_digamma": "digamma", "special_psi": "digamma", "special_gammaln": "lgamma",
    "special_multigammaln": "mvlgamma", "special_polygamma": "polygamma",
    "special_erf": "erf", "special_erfc": "erfc", "special_erfinv": "erfinv",
    "special_exp2": "exp2", "special_expm1": "expm1", "special_log1p": "log1p",
    "special_i0": "i0", "special_sinc": "sinc", "special_round": "round",
    "special_expit": "sigmoid", "special_logit": "logit", "special_xlogy": "xlogy",
    "special_gammainc": "igamma", "special_gammaincc": "igammac",
    "special_logsumexp": "logsumexp", "special_softmax": "softmax",
    "special_log_softmax": "log_softmax",
}


@_rule(*_SPECIAL_ALIASES)
def _special_alias(ctx, func, name, args, kwargs):
    target = _SPECIAL_ALIASES[name]
    rule = _RULES.get(target)
    if rule is not None:
        res = rule(ctx, func, target, args, kwargs)
        if res is not NotImplemented:
            return res
    return _fallback(ctx, func, target, args, kwargs)


# ---------------------------------------------------------------- the compiled rules

def _fast_rules():
    """{function: fast rule} (Note [Compiled vmap dispatch], func/_vmapfast.pyx): each
    function below has a generic rule above (the pointwise, view, reduction, class-loss
    and linear rules) that the compiled one repeats for its common arguments."""
    F = _ag.nn.functional     # (through the package: called once vmap is first used)
    rules = {F.linear: "linear", F.cross_entropy: "class_loss", F.nll_loss: "class_loss"}
    for n in ("relu", "tanh", "sigmoid", "exp", "log", "sin", "cos", "neg", "abs", "sqrt",
              "square", "rsqrt", "reciprocal", "log1p", "expm1"):
        rules[getattr(_ag, n)] = rules[getattr(Tensor, n)] = "unary"
    for n in ("relu", "tanh", "sigmoid", "silu", "gelu", "softplus", "elu"):
        rules[getattr(F, n)] = "unary"
    rules[operator.neg] = rules[operator.abs] = "unary"
    rules[_ag.unsqueeze] = rules[Tensor.unsqueeze] = "unsqueeze"
    rules[Tensor.view] = "view"
    rules[Tensor.reshape] = rules[_ag.reshape] = "reshape"
    for n in ("sum", "mean"):
        rules[getattr(_ag, n)] = rules[getattr(Tensor, n)] = "reduce"
    for n in ("add", "sub", "mul", "div"):
        rules[getattr(_ag, n)] = rules[getattr(Tensor, n)] = "binary"
    for op in (operator.add, operator.sub, operator.mul, operator.truediv):
        rules[op] = "binary"
    for f, kind in rules.items():      # (each repeats a generic rule: checked here)
        generic = {"unary": _pointwise, "binary": _pointwise, "reduce": _reduction,
                   "view": _view, "reshape": _view, "unsqueeze": _dim_ops,
                   "class_loss": _class_loss, "linear": _linear}[kind]
        assert _RULES.get(_fname(f)) is generic or \
            _RULES.get("__" + _fname(f) + "__") is generic, f
    return rules


_vmapfast.init(BatchedTensor, _LEVELS, _ag.overrides._disabled_torch_function_impl,
               _shared_weight_linear, _shared_weight_linear_grads, _nn_ops._per_sample_outer,
               _fast_rules())
_ag.overrides._fast_dispatch = _vmapfast.dispatch
