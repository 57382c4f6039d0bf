"""The reverse-mode function transforms: grad, grad_and_value, vjp, jacrev, hessian.

Note [Transforms over the tape]: a transform runs ``func`` on fresh differentiable
aliases of its inputs with grad mode on, and takes ``autograd.grad`` of the outputs
with ``create_graph=True`` when its results may be differentiated again (an enclosing
transform, or an input that already requires grad): so grad(grad(f)), jacrev(jacrev(f))
and plain ``backward()`` through a transform compose on the one tape. An input that
requires grad is aliased by a view (``view_as``), so the alias's graph still reaches
it; any other input becomes a fresh leaf. Results are detached when nothing outside
can differentiate them, as functorch's unwrapping at the outermost level does.
Under vmap (autograd_core/func/_vmap.py) the aliases are made on the physical tensors,
batched at every active vmap level (an unbatched input is expanded first), so one
backward pass over the physical graph yields every sample's gradient (Note [grad under
vmap]).
"""
from __future__ import annotations
from collections.abc import Callable
from typing import Any

import functools
import weakref

import autograd_core as _ag
from autograd_core._core import engine as _engine
from autograd_core.autograd import forward_ad as _fwad
from autograd_core.utils._pytree import tree_flatten, tree_unflatten

_GRAD_LEVEL = [0]            # how many grad/vjp/jacrev transforms are running


def _func_name(func):
    return getattr(func, "__name__", type(func).__name__)


# ---------------------------------------------------------------- argnums

def _validate_argnum(argnum, num_args):
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _slice_argnums(args, argnums, as_tuple=True):
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if isinstance(argnums, int):
        i = _validate_argnum(argnums, len(args))
        return (args[i],) if as_tuple else args[i]
    argnums = tuple(_validate_argnum(a, len(args)) for a in argnums)
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return tuple(args[i] for i in argnums)


def _argnum_positions(args, argnums):
    if isinstance(argnums, int):
        return [_validate_argnum(argnums, len(args))]
    return [_validate_argnum(a, len(args)) for a in argnums]


# ---------------------------------------------------------------- differentiable aliases

_VMAP = []                   # autograd_core.func._vmap, imported on first use


def _vmap_module():
    if not _VMAP:
        from autograd_core.func import _vmap
        _VMAP.append(_vmap)
    return _VMAP[0]


def _make_differentiable(x):
    """A differentiable alias of x (Note [Transforms over the tape]); under vmap, of x
    batched at every active level, made on the physical tensor."""
    if not isinstance(x, _ag.Tensor) and not _vmap_module().is_batched(x):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    vm = _vmap_module()
    if vm.active_levels():
        return vm.differentiable_batched(x, _alias)
    return _alias(x)


def _make_all_differentiable(flat):
    """[_make_differentiable(x) for x in flat], the vmap check made once."""
    vm = _vmap_module()
    for x in flat:
        if not isinstance(x, _ag.Tensor) and not vm.is_batched(x):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if vm.active_levels():
        return [vm.differentiable_batched(x, _alias) for x in flat]
    return [_alias(x) for x in flat]


def _tangent(t):
    """t's forward-mode tangent at the current dual level, or None."""
    if _fwad._current_level < 0:
        return None
    return _fwad.unpack_dual(t).tangent


# the fresh leaves transforms made (id -> leaf): not closures (_reaches_outer_leaf)
_FRESH = weakref.WeakValueDictionary()


def _alias(t):
    if t.requires_grad:
        return t.view_as(t)
    tangent = _tangent(t)
    if tangent is None:
        leaf = t.detach().requires_grad_()
    else:
        # a dual input (jacfwd/jvp around this transform) keeps its tangent, so the
        # gradient's tangent is computed through the backward formulas (forward-over-reverse)
        leaf = _fwad.make_dual(t.detach(), tangent).requires_grad_()
    _FRESH[id(leaf)] = leaf
    return leaf


def _physical(x):
    return _vmap_module().physical(x)       # (x itself when not batched)


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=True, retain_graph=None):
    """autograd.grad on the physical tensors, zeros for inputs outputs do not reach
    (as functorch's _autograd_grad)."""
    vm = _vmap_module()
    outs = [vm.physical(o) for o in outputs]
    ins = [vm.physical(i) for i in inputs]
    if grad_outputs is not None and _batched_cotangents(outputs, grad_outputs):
        return _vmapped_vjp(outs, ins, inputs, grad_outputs, create_graph, retain_graph)
    if grad_outputs is None:
        gos = [_ag.ones_like(o) for o in outs]
    else:
        gos = [vm.physical_like(g, o) if g is not None else _ag.ones_like(o)
               for g, o in zip(grad_outputs, outputs)]
    keep = [(o, g) for o, g in zip(outs, gos) if o.requires_grad]
    if not keep:
        res = [_ag.zeros_like(i) for i in ins]
    elif grad_outputs is None:
        # (grad's ones: the engine straight away, the outputs, cotangents and inputs
        # being plain tensors, all autograd.grad's argument handling would conclude)
        res = _engine.run_backward(tuple([o for o, _ in keep]), tuple([g for _, g in keep]),
                                   retain_graph, create_graph, tuple(ins), True, False)
        res = [_ag.zeros_like(i) if r is None else r for r, i in zip(res, ins)]
    else:
        res = _ag.autograd.grad([o for o, _ in keep], ins, [g for _, g in keep],
                                retain_graph=retain_graph, create_graph=create_graph,
                                allow_unused=True)
        res = [_ag.zeros_like(i) if r is None else r for r, i in zip(res, ins)]
    return [vm.rewrap_like(r, i) for r, i in zip(res, inputs)]


def _batched_cotangents(outputs, grad_outputs):
    """Whether cotangents carry vmap levels their outputs lack (vmap over a vjp_fn)."""
    vm = _vmap_module()
    return any(vm.is_batched(g) and set(vm.levels_of(g)) - set(vm.levels_of(o))
               for o, g in zip(outputs, grad_outputs))


def _vmapped_vjp(outs, ins, inputs, grad_outputs, create_graph, retain_graph):
    """vmap(vjp_fn)(cotangents) over unbatched outputs: one backward pass per batch
    entry of the cotangents over the retained graph (autograd.grad's is_grads_batched),
    the gradients batched at the cotangents' levels."""
    vm = _vmap_module()
    levels = next(vm.levels_of(g) for g in grad_outputs if vm.is_batched(g))
    if any(vm.is_batched(o) for o in outs) or any(
            vm.is_batched(g) and vm.levels_of(g) != levels for g in grad_outputs):
        raise RuntimeError("vjp: a vjp_fn vmapped over cotangents batched differently from "
                           "each other or from its outputs is not supported")
    levels = sorted(levels)
    _, n = vm.flat_batch_size(levels)
    cots = []
    for o, g in zip(outs, grad_outputs):
        cots.append(vm._batch_at_levels(g, levels).reshape((n,) + tuple(o.shape))
                    if g is not None else _ag.zeros((n,) + tuple(o.shape), dtype=o.dtype))
    keep = [(o, c) for o, c in zip(outs, cots) if o.requires_grad]
    if not keep:
        res = [_ag.zeros((n,) + tuple(i.shape), dtype=i.dtype) for i in ins]
    else:
        res = _ag.autograd.grad([o for o, _ in keep], ins, [c for _, c in keep],
                                retain_graph=True if retain_graph is None else retain_graph,
                                create_graph=create_graph, allow_unused=True,
                                is_grads_batched=True)
        res = [_ag.zeros((n,) + tuple(i.shape), dtype=i.dtype) if r is None else r
               for r, i in zip(res, ins)]
    return [vm.unflatten_batch(r, levels) for r in res]


# _differentiable_outside's answer when only a forward-mode transform encloses this one:
# the results keep their tangents, not their reverse-mode history
TANGENTS_ONLY = "tangents only"


def _differentiable_outside(diff_inputs, outputs=()):
    """Whether a transform's results may be differentiated by what encloses it: True
    (reverse mode), TANGENTS_ONLY (a dual level: jvp/jacfwd around it), or False."""
    if _GRAD_LEVEL[0] > 1:
        return True
    physical = _vmap_module().physical
    for x in diff_inputs:
        p = physical(x)
        if p.requires_grad and p.grad_fn is not None:
            return True
    if _reaches_outer_leaf([physical(o) for o in outputs], [physical(x) for x in diff_inputs]):
        return True
    # inside a dual level, tangents may reach the results through any input or closure
    if _fwad._current_level >= 0:
        return TANGENTS_ONLY
    return False


def _reaches_outer_leaf(outputs, inner_leaves):
    """Whether the outputs' graph reaches a leaf that requires grad other than the
    transform's own fresh inputs: a closure (a module's parameters) that PyTorch's outer
    autograd level differentiates the results with respect to (grad(f)(x) with f using
    a parameter carries a grad_fn), so the results keep their history."""
    inner = {id(x) for x in inner_leaves}
    stack = [o.grad_fn for o in outputs if isinstance(o, _ag.Tensor) and o.grad_fn is not None]
    seen = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        var = getattr(node, "variable", None)
        if var is not None:
            if id(var) not in inner and _FRESH.get(id(var)) is not var:
                return True
            continue
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return False


def _without_history(x):
    tangent = _tangent(x)
    if tangent is None:
        return x.detach()
    return _fwad.make_dual(x.detach(), tangent.detach())


def _finish(tree, keep):
    """Detaches a result's tensors when nothing outside can differentiate them (keeping
    the tangents a forward-mode transform outside reads)."""
    if keep is True or tree is None:
        return tree
    vm = _vmap_module()
    if keep is False and (type(tree) is _ag.Tensor or vm.is_batched(tree)):
        return vm.detach_any(tree)          # (one tensor: no tree to walk)
    leaves, spec = tree_flatten(tree)
    if keep == TANGENTS_ONLY:
        # (under vmap, on the physical dual: Note [jvp under vmap] in _forward.py)
        return tree_unflatten([_without_history(x) if isinstance(x, _ag.Tensor) else
                               vm.rewrap(_without_history(vm.physical(x)), vm.levels_of(x))
                               if vm.is_batched(x) else x for x in leaves], spec)
    return tree_unflatten([vm.detach_any(x) if isinstance(x, _ag.Tensor) or vm.is_batched(x)
                           else x for x in leaves], spec)


class _grad_level:
    def __enter__(self):
        _GRAD_LEVEL[0] += 1
        self._mode = _ag.enable_grad()
        self._mode.__enter__()

    def __exit__(self, *exc):
        self._mode.__exit__(*exc)
        _GRAD_LEVEL[0] -= 1


def _is_tensor(x):
    return isinstance(x, _ag.Tensor) or _vmap_module().is_batched(x)


def _aux_tensors_only(aux):
    """The aux of has_aux=True leaves its transform's level as the outputs do, so every
    leaf must be a tensor (PyTorch unwraps it leaf by leaf; jvp, vjp, grad, jacrev and
    jacfwd all raise on the first other leaf, None included)."""
    for leaf in tree_flatten(aux)[0]:
        if not _is_tensor(leaf):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")


# ---------------------------------------------------------------- grad

def _differentiable_inputs(args, argnums, none_is_all=False):
    """grad's and vjp's inputs at this level: the arguments ``argnums`` picks (with
    ``none_is_all``, vjp's None: all of them), their tensors made differentiable. Returns
    (flat, spec, call_args): those tensors flattened, their tree spec, and ``args`` with the
    picked arguments rebuilt from them (for the call of the function)."""
    if none_is_all and argnums is None:
        diff, positions = args, range(len(args))
    else:
        diff = _slice_argnums(args, argnums, as_tuple=False)
        positions = _argnum_positions(args, argnums)
    flat, spec = tree_flatten(diff)
    flat = _make_all_differentiable(flat)
    diff = tree_unflatten(flat, spec)
    call_args = list(args)
    for p, a in zip(positions, (diff,) if isinstance(argnums, int) else diff):
        call_args[p] = a
    return flat, spec, call_args


def _grad_and_value_impl(func, argnums, has_aux, args, kwargs, value_used=True):
    with _grad_level():
        flat, spec, args = _differentiable_inputs(args, argnums)
        output = func(*args, **kwargs)
        aux = None
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise RuntimeError(
                    "grad_and_value(f)(*args): output of function f should be a tuple: "
                    "(output, aux) if has_aux is True")
            output, aux = output
        if not _is_tensor(output):
            raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) "
                               f"to return a Tensor, got {type(output)}")
        if output.dim() != 0:
            raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) "
                               "to return a scalar Tensor, got tensor with "
                               f"{output.dim()} dims. Maybe you wanted to "
                               "use the vjp or jacrev APIs instead?")
        keep = _differentiable_outside(flat, [output])
        # the gradient's own graph only when something outside may differentiate it
        grads = _autograd_grad([output], flat, create_graph=bool(keep))
        grad_input = tree_unflatten(grads, spec)
        if has_aux:
            _aux_tensors_only(aux)     # (after the output's checks, as PyTorch's order)
        if has_aux:
            value = (output, aux)
        else:      # (grad drops the output: nothing to finish)
            value = output if value_used else None
        if keep is False and not any([_physical(g).requires_grad for g in grads]):
            # fresh gradients without history (no create_graph): nothing to detach
            return grad_input, _finish(value, keep)
        return _finish(grad_input, keep), _finish(value, keep)


def grad_and_value(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """Like :func:`grad`, returning ``(gradient, value)``: ``value`` is func's output
    (with ``has_aux``, ``(output, aux)``).

    >>> import autograd_core as torch
    >>> from autograd_core.func import grad_and_value
    >>> g, v = grad_and_value(lambda x: (x ** 2).sum())(torch.tensor([1., 2.]))
    >>> g, v
    (tensor([2., 4.]), tensor(5.))
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return _grad_and_value_impl(func, argnums, has_aux, args, kwargs)
    return wrapper


def grad(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0,
         has_aux: bool = False) -> Callable[..., Any]:
    """The gradient transform: ``grad(f)(*args)`` is the gradient of f's scalar output
    w.r.t. ``args[argnums]`` (an int or a tuple of ints; each argument may be a pytree
    of tensors). ``has_aux``: f returns ``(output, aux)`` and the result is
    ``(gradient, aux)``. Transforms compose: ``grad(grad(f))`` is the second derivative.

    >>> import autograd_core as torch
    >>> from autograd_core.func import grad
    >>> x = torch.tensor(0.5)
    >>> grad(torch.sin)(x)
    tensor(0.8776)
    >>> grad(grad(torch.sin))(x)
    tensor(-0.4794)
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, v = _grad_and_value_impl(func, argnums, has_aux, args, kwargs, value_used=False)
        if has_aux:
            return g, v[1]
        return g
    return wrapper


# ---------------------------------------------------------------- vjp

def _vjp_with_argnums(func, *primals, argnums=None, has_aux=False):
    with _grad_level():
        flat, spec, args = _differentiable_inputs(primals, argnums, none_is_all=True)
        out = func(*args)
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError("vjp(f, *primals): output of function f should be a tuple: "
                                   "(output, aux) if has_aux is True")
            out, aux = out
            _aux_tensors_only(aux)
        flat_out, out_spec = tree_flatten(out)
        if (len(flat_out) == 1 and flat_out[0] is None) or len(flat_out) < 1:
            raise RuntimeError("vjp(f, *primals): Expected f to be a function that has non-empty "
                               f"output (got output = {flat_out})")
        for o in flat_out:
            if not _is_tensor(o):
                raise RuntimeError("vjp(f, *primals): expected f(*primals) to return only "
                                   f"tensors, got unsupported type {type(o)}")
            if not o.is_floating_point():
                raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or "
                                   f"complex Tensors, got Tensor with dtype {o.dtype}")
        keep = _differentiable_outside(flat, flat_out)
    level_keep = keep

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        if create_graph is None:
            create_graph = _ag.is_grad_enabled()
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as "
                               "pytree structure of outputs to the function. "
                               f"cotangents: {cot_spec}, primal output: {out_spec}")
        with _ag.enable_grad():
            grads = _autograd_grad(flat_out, flat, flat_cot, retain_graph=retain_graph,
                                   create_graph=create_graph)
        keep_grads = level_keep or (create_graph and _GRAD_LEVEL[0] > 0)
        return _finish(tree_unflatten(grads, spec), keep_grads)

    result = _finish(out, keep)
    if has_aux:
        return result, vjp_fn, _finish(aux, keep)
    return result, vjp_fn


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` is the vector-Jacobian
    product, a tuple with one gradient per primal (each a pytree like its primal).
    ``cotangents`` has the structure of func's output. ``has_aux``: func returns
    ``(output, aux)`` and vjp returns ``(output, vjp_fn, aux)``.

    >>> import autograd_core as torch
    >>> from autograd_core.func import vjp
    >>> out, vjp_fn = vjp(torch.sin, torch.tensor([0., 1.]))
    >>> vjp_fn(torch.ones(2))
    (tensor([1.0000, 0.5403]),)
    """
    out = _vjp_with_argnums(func, *primals, argnums=None, has_aux=has_aux)
    return out


# ---------------------------------------------------------------- jacrev / hessian

def _error_if_complex(name, args, is_input):
    for idx, a in enumerate(tree_flatten(args)[0]):
        if isinstance(a, _ag.Tensor) and a.dtype.is_complex:
            kind = "inputs" if is_input else "outputs"
            raise RuntimeError(f"{name}: Expected all {kind} to be real but received complex "
                               f"tensor at flattened input idx: {idx}")


def jacrev(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, *, has_aux: bool = False,
           chunk_size: int | None = None,
           _preallocate_and_copy: bool = False) -> Callable[..., Any]:
    """The Jacobian of func w.r.t. ``args[argnums]`` by reverse mode: one vector-Jacobian
    product per output element, taken ``chunk_size`` rows at a time (all at once by
    default). The result has shape ``output.shape + input.shape``, nested as
    ``output pytree -> argnums``.

    >>> import autograd_core as torch
    >>> from autograd_core.func import jacrev
    >>> jacrev(torch.sin)(torch.tensor([0., 1.]))
    tensor([[1.0000, 0.0000],
            [0.0000, 0.5403]])
    """
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper_fn(*args):
        _error_if_complex("jacrev", args, True)
        res = _vjp_with_argnums(func, *args, argnums=argnums, has_aux=has_aux)
        if has_aux:
            output, vjp_fn, aux = res
        else:
            output, vjp_fn = res
        flat_out, out_spec = tree_flatten(output)
        _error_if_complex("jacrev", flat_out, False)
        diff = _slice_argnums(args, argnums, as_tuple=False)
        flat_diff, diff_spec = tree_flatten(diff)
        # rows[i][j]: d flat_out[i] / d flat_diff[j], shape out_i.shape + in_j.shape
        rows = []
        for i, o in enumerate(flat_out):
            n = o.numel()
            per_input = [[] for _ in flat_diff]
            step = n if chunk_size is None else chunk_size
            basis = _ag.eye(n, dtype=o.dtype) if n else None
            for start in range(0, n, step) if n else []:
                for k in range(start, min(n, start + step)):
                    cots = [_ag.zeros(tuple(q.shape), dtype=q.dtype) for q in flat_out]
                    cots[i] = basis[k].view(o.shape)
                    g = vjp_fn(tree_unflatten(cots, out_spec))
                    g = tree_flatten(g)[0]
                    for j, gj in enumerate(g):
                        per_input[j].append(gj)
            row = []
            for j, d in enumerate(flat_diff):
                if per_input[j]:
                    jac = _ag.stack(per_input[j]).view(tuple(o.shape) + tuple(d.shape))
                else:
                    jac = _ag.zeros(tuple(o.shape) + tuple(d.shape), dtype=o.dtype)
                row.append(jac)
            rows.append(tree_unflatten(row, diff_spec))
        result = tree_unflatten(rows, out_spec)
        if has_aux:
            return result, aux
        return result
    return wrapper_fn


def hessian(func: Callable[..., Any],
            argnums: int | tuple[int, ...] = 0) -> Callable[..., Any]:
    """The Hessian of func w.r.t. ``args[argnums]``: ``jacfwd(jacrev(func))``, as
    PyTorch's (forward-over-reverse, the jvp batched over the basis: Note [jvp under
    vmap] in func/_vmap.py).

    >>> import autograd_core as torch
    >>> from autograd_core.func import hessian
    >>> hessian(lambda x: (x ** 3).sum())(torch.tensor([1., 2.]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    from autograd_core.func._forward import jacfwd
    return jacfwd(jacrev(func, argnums), argnums)
