"""torch.func's forward-mode transforms: jvp, jacfwd, linearize, on
autograd.forward_ad's dual tensors (Note [Forward AD] in _core/_tensor.pxi).

>>> import autograd_core as torch
>>> from autograd_core.func import jvp
>>> jvp(torch.sin, (torch.tensor([0., 1.]),), (torch.tensor([1., 1.]),))[1]
tensor([1.0000, 0.5403])
"""
from __future__ import annotations
from collections.abc import Callable
from typing import Any

import autograd_core as _ag
from autograd_core._core import tensor as _core
from autograd_core.autograd import forward_ad as _fwad
from autograd_core.func._transforms import (_aux_tensors_only, _error_if_complex,
                                            _slice_argnums, _vmap_module)
from autograd_core.utils._pytree import tree_flatten, tree_unflatten

_JVP = "jvp(f, primals, tangents)"


def _tensors_only(leaves, api, argname):
    if len(leaves) == 0:
        raise RuntimeError(f"{api}: Expected {argname} to contain at least one Tensor.")
    vm = _vmap_module()
    for x in leaves:
        if not (isinstance(x, _ag.Tensor) or vm.is_batched(x)):
            raise RuntimeError(f"{api}: Expected {argname} to only contain Tensors, got {type(x)}")


def _unpack_output(dual, strict):
    vm = _vmap_module()
    if not (isinstance(dual, _ag.Tensor) or vm.is_batched(dual)):
        raise RuntimeError(f"{_JVP}: expected f(*args) to return only tensors, got "
                           f"unsupported type {type(dual)}")
    primal, tangent = _fwad._unpack(dual, alias=True)  # (AliasBackward0, as functorch's)
    if tangent is None:
        if strict:
            raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is "
                               "independent of the inputs. This is not allowed with "
                               "strict=True.")
        tangent = _ag.zeros_like(primal)
    return primal, tangent


def _jvp_with_argnums(func, primals, tangents, argnums, strict, has_aux):
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid "
                           "to call f(*primals).")
    diff_args = primals if argnums is None else _slice_argnums(primals, argnums)
    flat_primals, primals_spec = tree_flatten(diff_args)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {primals_spec} and tangents with structure {tangents_spec}")
    vm = _vmap_module()
    _tensors_only(flat_primals, _JVP, "primals")
    _tensors_only(flat_tangents, _JVP, "tangents")
    # under vmap every dual is batched at every active level (Note [jvp under vmap])
    want = [e[0] for e in vm.active_levels()]
    # a jvp inside a jvp shares the one dual level (PyTorch's JVP_NESTING)
    outer = _fwad._current_level >= 0
    level = None if outer else _fwad.dual_level()
    if level is not None:
        level.__enter__()
    # a Python number's zero tangent is a 0-d tensor here, as under PyTorch's functorch
    # (Note [Zero tangents of numbers] in _core/_fw.pxi)
    numbers_were = _core._fw_numbers_as_tensors(True)
    try:
        with _fwad._set_fwd_grad_enabled(True):
            if want:
                lv = _fwad._current_level
                flat_duals = tuple(vm.make_dual_batched(
                    p, t, lambda p, t: _fwad._make_dual(p, t, lv, True), want)
                    for p, t in zip(flat_primals, flat_tangents))
            else:
                # (aliases: a gradient through them is not a view, seed 19014016)
                flat_duals = tuple(_fwad._make_dual(p, t, None, True)
                                   for p, t in zip(flat_primals, flat_tangents))
            duals = tree_unflatten(flat_duals, primals_spec)
            if argnums is not None:
                args = list(primals)
                positions = [argnums] if isinstance(argnums, int) else list(argnums)
                positions = [p % len(primals) for p in positions]
                for pos, d in zip(positions, duals):
                    args[pos] = d
                duals = tuple(args)
            result = func(*duals)
            aux = None
            if has_aux:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"{_JVP}: output of function f should be a tuple: "
                                       "(output, aux) if has_aux is True")
                result, aux = result
                _aux_tensors_only(aux)
            flat_out, spec = tree_flatten(result)
            if (len(flat_out) == 1 and flat_out[0] is None) or len(flat_out) < 1:
                raise RuntimeError(f"{_JVP}: Expected f to be a function that has non-empty "
                                   f"output (got output = {flat_out})")
            for o in flat_out:
                if not (isinstance(o, _ag.Tensor) or vm.is_batched(o)):
                    raise RuntimeError(f"{_JVP}: expected f(*primals) to return only tensors, "
                                       f"got unsupported type {type(o)}")
            # (the level's exit drops the tangents: the results leave it as plain tensors,
            # with their reverse-mode history, as PyTorch's)
            pairs = [_unpack_output(d, strict) for d in flat_out]
            primals_out = [p for p, _ in pairs]
            tangents_out = [t for _, t in pairs]
    finally:
        _core._fw_numbers_as_tensors(numbers_were)
        if level is not None:
            level.__exit__(None, None, None)
    out = (tree_unflatten(primals_out, spec), tree_unflatten(tangents_out, spec))
    return out + (aux,) if has_aux else out


def jvp(func: Callable[..., Any], primals: Any, tangents: Any, *, strict: bool = False,
        has_aux: bool = False) -> Any:
    """The value of func at primals and its Jacobian-vector product with tangents
    (forward mode), as torch.func.jvp.

    >>> import autograd_core as torch
    >>> from autograd_core.func import jvp
    >>> x = torch.tensor([1., 2.])
    >>> jvp(lambda x: x ** 2, (x,), (torch.ones(2),))
    (tensor([1., 4.]), tensor([2., 4.]))
    """
    return _jvp_with_argnums(func, primals, tangents, None, strict, has_aux)


def _basis(flat_primals, numels):
    """The standard basis over all the inputs' elements, split by input: for each input,
    a (total, *input.shape) tensor whose row k is 1 at element k when k falls in that
    input (PyTorch's _construct_standard_basis_for)."""
    total = sum(numels)
    parts, start = [], 0
    for p, n in zip(flat_primals, numels):
        part = _ag.zeros(total, n, dtype=p.dtype)
        if n:
            part[start:start + n] = _ag.eye(n, dtype=p.dtype)
        parts.append(part.view((total,) + tuple(p.shape)))
        start += n
    return parts


def jacfwd(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False,
           *, randomness: str = "error") -> Callable[..., Any]:
    """The Jacobian of func with respect to the argument(s) argnums, by forward mode, as
    torch.func.jacfwd: one jvp over the whole standard basis of tangents, vmapped
    (Note [jvp under vmap]); ``randomness`` is that vmap's ("error": a random op in func
    raises).

    >>> import autograd_core as torch
    >>> from autograd_core.func import jacfwd
    >>> jacfwd(lambda x: x ** 2)(torch.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")

    def wrapper_fn(*args):
        _error_if_complex("jacfwd", args, True)
        primals = args if argnums is None else _slice_argnums(args, argnums)
        flat_primals, primals_spec = tree_flatten(primals)
        numels = tuple(p.numel() for p in flat_primals)
        basis = tree_unflatten(_basis(flat_primals, numels), primals_spec)

        def push_jvp(basis):
            out = _jvp_with_argnums(func, args, basis, argnums, False, has_aux)
            _error_if_complex("jacfwd", out[0], False)
            if not has_aux:
                return out[1]
            return out[1], out[2]      # (jvp checked the aux leaves are tensors)

        aux = None
        if sum(numels) == 0:
            # every input is empty: one jvp (zero tangents) gives the shapes; the
            # Jacobians have a trailing dim of size 0
            out = _jvp_with_argnums(func, args, tree_unflatten(
                [_ag.zeros_like(p) for p in flat_primals], primals_spec), argnums, False,
                has_aux)
            aux = out[2] if has_aux else None
            flat, spec = tree_flatten(out[1])
            jac_outs = [_ag.zeros((0,) + tuple(o.shape), dtype=o.dtype) for o in flat]
        else:
            results = _vmap_module().vmap(push_jvp, randomness=randomness)(basis)
            if has_aux:
                results, aux = results
                # aux came out once per basis row; the function's own is any row
                flat_aux, aux_spec = tree_flatten(aux)
                aux = tree_unflatten([a[0] for a in flat_aux], aux_spec)
            jac_outs, spec = tree_flatten(results)
        result = []
        for jac in jac_outs:
            jac = jac.movedim(0, -1)            # (out..., total)
            pieces = _ag.split(jac, list(numels), dim=-1)
            per_input = [piece.reshape(tuple(jac.shape[:-1]) + tuple(p.shape))
                         for piece, p in zip(pieces, flat_primals)]
            per_input = tree_unflatten(per_input, primals_spec)
            result.append(per_input[0] if isinstance(argnums, int) else per_input)
        result = tree_unflatten(result, spec)
        return (result, aux) if has_aux else result

    wrapper_fn.__name__ = getattr(func, "__name__", "jacfwd")
    return wrapper_fn


def linearize(func, *primals):
    """func's value at primals and a function computing its Jacobian-vector product there,
    as torch.func.linearize (which, like this, evaluates func again per call of jvp_fn's
    trace; here per call).

    >>> import autograd_core as torch
    >>> from autograd_core.func import linearize
    >>> out, jvp_fn = linearize(torch.sin, torch.zeros(2))
    >>> jvp_fn(torch.ones(2))
    tensor([1., 1.])
    """
    output = func(*primals)
    _, output_spec = tree_flatten(output)
    flat_primals, primals_spec = tree_flatten(primals)
    shapes = [p.shape for p in flat_primals]
    dtypes = [p.dtype for p in flat_primals]

    def jvp_fn(*tangents):
        flat_tangents, tangent_spec = tree_flatten(tangents)
        if tangent_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {tangent_spec} to have the same argspec "
                               f"as the primals {primals_spec}")
        for i, t in enumerate(flat_tangents):
            if t.shape != shapes[i]:
                raise RuntimeError(f"tangent:{i} with shape {t.shape} in flattened pytree "
                                   f"doesn't match the shape {shapes[i]} of the corresponding "
                                   "primal.")
            if t.dtype != dtypes[i]:
                raise RuntimeError(f"tangent:{i} with dtype {t.dtype} in flattened pytree "
                                   f"doesn't match the dtype {dtypes[i]} of the corresponding "
                                   "primal.")
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn
