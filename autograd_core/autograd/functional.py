"""Higher-level derivatives built on autograd.grad: vjp, jvp, jacobian, hessian, hvp, vhp.

Signatures, argument checks (types and messages), strict mode and return conventions
follow torch.autograd.functional. jvp and hvp use the double-backward trick (the
backward of a backward is linear in its grad_outputs), as PyTorch does.

>>> import autograd_core as torch
>>> torch.autograd.functional.jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
tensor([[2., 0.],
        [0., 4.]])
"""
import autograd_core

from autograd_core.grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

_OUTPUTS = "outputs of the user-provided function"


def _vmap_module():
    from autograd_core.func import _vmap
    return _vmap


def _under_vmap():
    """Whether a vmap runs: the vectorized forward-mode jacobian runs func, and the
    forward-over-reverse hessian the inner reverse-mode jacobian, under vmap (Note [jvp
    under vmap] in func/_vmap.py), where the inputs are BatchedTensors."""
    return bool(autograd_core._vmap_state.LEVELS)


def _is_tensor(x):
    return isinstance(x, autograd_core.Tensor) or (_under_vmap() and
                                                   _vmap_module().is_batched(x))


def _as_tuple(x, what, fname):
    """(whether x was a tuple, x as a tuple of Tensors), with PyTorch's TypeError."""
    was_tuple = isinstance(x, tuple)
    xs = x if was_tuple else (x,)
    for i, el in enumerate(xs):
        if not _is_tensor(el):
            where = f"value at index {i}" if was_tuple else f"given {what}"
            raise TypeError(f"The {what} given to {fname} must be either a Tensor or a tuple of "
                            f"Tensors but the {where} has type {type(el)}.")
    return was_tuple, xs


def _unpack(res, was_tuple):
    """Undo _as_tuple; was_tuple may be a pair (outer, inner) for nested results."""
    if isinstance(was_tuple, tuple):
        outer, inner = was_tuple
        if not inner:
            res = tuple(r[0] for r in res)
        return res if outer else res[0]
    return res if was_tuple else res[0]


def _prepare(xs, create_graph, need_graph):
    """New tensor objects for the user's function (so that tensors it captures are told
    apart from the inputs): differentiable aliases under create_graph, else new leaves."""
    def alias(x):
        return x.view_as(x) if create_graph and x.requires_grad \
            else x.detach().requires_grad_(need_graph)
    if _under_vmap():
        # on the physical tensors, batched at every vmap level (Note [grad under vmap])
        return tuple(_vmap_module().differentiable_batched(x, alias) for x in xs)
    return tuple(alias(x) for x in xs)


def _finish(xs, create_graph):
    if _is_tensor(xs[0]):
        if create_graph:
            return xs
        if _under_vmap():
            return tuple(_vmap_module().detach_any(x) for x in xs)
        return tuple(x.detach() for x in xs)
    return tuple(_finish(x, create_graph) for x in xs)


def _check_v(v, other, other_was_tuple):
    if len(v) != len(other):
        if other_was_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got "
                               f"{len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, other)):
        if a.size() != b.size():
            where = f"Entry {i} in " if other_was_tuple else ""
            raise RuntimeError(f"{where}v has invalid size: should be {b.size()} but got "
                               f"{a.size()}.")


_STRICT_MESSAGES = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
               "outputs must be computed in a differentiable manner from the input when "
               "running in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of "
                   "the user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
               "independent of the input. This is not allowed in strict mode. You should "
               "ensure that your function is thrice differentiable and that the hessian "
               "depends on the inputs.",
}


def _check_requires_grad(xs, kind, strict):
    if not strict:
        return
    for i, x in enumerate(xs):
        if x is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if not x.requires_grad:
            raise RuntimeError(_STRICT_MESSAGES[kind].format(i=i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """autograd.grad over the outputs that require grad (None for unused inputs)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    if _under_vmap():
        return _grad_physical(pairs, inputs, create_graph, retain_graph)
    return autograd_core.autograd.grad(tuple(p[0] for p in pairs), inputs,
                                       tuple(p[1] for p in pairs), allow_unused=True,
                                       create_graph=create_graph, retain_graph=retain_graph)


def _grad_physical(pairs, inputs, create_graph, retain_graph):
    """_grad under vmap: one autograd.grad over the physical tensors, whose samples never
    mix (Note [grad under vmap]); a missing cotangent is ones (each sample's output is a
    scalar then), the gradients rewrapped at their inputs' levels."""
    vm = _vmap_module()
    outs = tuple(vm.physical(o) for o, _ in pairs)
    gos = tuple(autograd_core.ones_like(p) if g is None else vm.physical_like(g, o)
                for p, (o, g) in zip(outs, pairs))
    res = autograd_core.autograd.grad(outs, tuple(vm.physical(x) for x in inputs), gos,
                                      allow_unused=True, create_graph=create_graph,
                                      retain_graph=retain_graph)
    return tuple(None if r is None else vm.rewrap_like(r, x) for r, x in zip(res, inputs))


_ZERO_MESSAGES = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward "
                         "mode AD.",
}


def _fill_zeros(grads, refs, strict, create_graph, stage):
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_MESSAGES[stage].format(i=i))
            g = autograd_core.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        out.append(g)
    return tuple(out)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product.

    >>> import autograd_core as torch
    >>> torch.autograd.functional.vjp(lambda x: x * 3, torch.tensor([1., 2.]),
    ...                               torch.tensor([1., 1.]))[1]
    tensor([3., 3.])
    """
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, True)
        outputs_tuple, outputs = _as_tuple(func(*inputs), _OUTPUTS, "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _prepare(v, create_graph, False)
            _check_v(v, outputs, outputs_tuple)
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element.")
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grads = _fill_zeros(_grad(outputs, inputs, v, create_graph), inputs, strict,
                            create_graph, "back")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(grads, create_graph), inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick.

    >>> import autograd_core as torch
    >>> torch.autograd.functional.jvp(lambda x: x * 3, torch.tensor([1., 2.]),
    ...                               torch.tensor([1., 0.]))[1]
    tensor([3., 0.])
    """
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, True)
        if v is not None:
            _, v = _as_tuple(v, "v", "jvp")
            v = _prepare(v, create_graph, False)
            _check_v(v, inputs, inputs_tuple)
        elif len(inputs) != 1 or inputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the input to the "
                               "user-provided function is a single Tensor with a single "
                               "element.")
        outputs_tuple, outputs = _as_tuple(func(*inputs), _OUTPUTS, "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        # the backward is linear in these, so any finite values do
        grad_outputs = tuple(autograd_core.zeros_like(o, requires_grad=True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        jv = _fill_zeros(_grad(grad_inputs, grad_outputs, v, create_graph), outputs, strict,
                         create_graph, "back_trick")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(jv, create_graph), outputs_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of func at inputs, one backward pass per output element (nested as
    torch.autograd.functional.jacobian: outputs outside, inputs inside).

    >>> import autograd_core as torch
    >>> torch.autograd.functional.jacobian(lambda x: x.sum(), torch.tensor([1., 2.]))
    tensor([1., 1.])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                             'Hint: If your function has more outputs than inputs, '
                             '"forward-mode" tends to be more performant. Otherwise, prefer '
                             'to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` "
                'and `strategy="forward-mode"` are not supported together (yet). '
                "Please either set `create_graph=False` or "
                '`strategy="reverse-mode"`.')
        return _jacfwd(func, inputs, strict, vectorize)
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, True)
        outputs_tuple, outputs = _as_tuple(func(*inputs), _OUTPUTS, "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                               "`vectorized=True` are not supported together. Please either "
                               "set `strict=False` or `vectorize=False`.")
        if vectorize:
            jac = _jacrev_vectorized(outputs, inputs, create_graph)
            jac = _finish(jac, create_graph)
            return _unpack(jac, (outputs_tuple, inputs_tuple))
        jac = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(out.nelement()):
                vj = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (g, x) in enumerate(zip(vj, inputs)):
                    if g is not None:
                        if strict and create_graph and not g.requires_grad:
                            raise RuntimeError(
                                f"The jacobian of the user-provided function is independent "
                                f"of input {i}. This is not allowed in strict mode when "
                                "create_graph=True.")
                        rows[k].append(g)
                    else:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of "
                                f"input {k}. This is not allowed in strict mode.")
                        rows[k].append(autograd_core.zeros_like(x))
            jac.append(tuple(autograd_core.stack(r, 0).view(tuple(out.size()) + tuple(x.size()))
                             for r, x in zip(rows, inputs)))
        jac = _finish(tuple(jac), create_graph)
        return _unpack(jac, (outputs_tuple, inputs_tuple))


def _standard_basis(tensors):
    """The standard basis over the tensors' elements taken together, split per tensor:
    (one (total, numel) matrix per tensor, the numels); row k is 1 at element k of the
    concatenation (the cotangents of a vectorized reverse Jacobian, the tangents of a
    forward one)."""
    numels = [t.numel() for t in tensors]
    total = sum(numels)
    basis = []
    start = 0
    for t, n in zip(tensors, numels):
        e = autograd_core.zeros(total, n, dtype=t.dtype)
        if n:
            e[start:start + n] = autograd_core.eye(n, dtype=t.dtype)
        basis.append(e)
        start += n
    return basis, numels


def _jacrev_vectorized(outputs, inputs, create_graph):
    """The reverse-mode Jacobian in one batched backward pass (PyTorch's vectorize=True:
    autograd.grad with is_grads_batched over the standard basis of the outputs' flattened
    elements; Note [Batched backward])."""
    basis, sizes = _standard_basis(outputs)
    flat = [o.reshape(-1) for o in outputs]
    pairs = [(f, e) for f, e in zip(flat, basis) if f.requires_grad]
    if pairs and sum(sizes):
        vj = autograd_core.autograd.grad(tuple(p[0] for p in pairs), inputs,
                                         tuple(p[1] for p in pairs), retain_graph=True,
                                         create_graph=create_graph, allow_unused=True,
                                         is_grads_batched=True)
    else:
        vj = (None,) * len(inputs)
    jac = []
    start = 0
    for o, n in zip(outputs, sizes):
        row = []
        for g, x in zip(vj, inputs):
            if g is None:
                row.append(autograd_core.zeros(tuple(o.size()) + tuple(x.size()), dtype=x.dtype))
            else:
                row.append(g[start:start + n].view(tuple(o.size()) + tuple(x.size())))
        jac.append(tuple(row))
        start += n
    return tuple(jac)


def _batched_jvp(jvp, tangents):
    """jvp mapped over dim 0 of each tensor of tangents, the results stacked along a new
    dim 0: one jvp over the whole batch, under torch._vmap_internals' vmap (as PyTorch's
    _jacfwd; the dual tensors made of a BatchedTensor tangent: Note [jvp under vmap] in
    func/_vmap.py)."""
    from autograd_core._vmap_internals import _vmap
    if not tangents or tangents[0].shape[0] == 0:
        return ()
    return _vmap(jvp)(tangents)


def _jacfwd(func, inputs, strict=False, vectorize=False):
    """jacobian(strategy="forward-mode"): one forward-AD pass per input element."""
    from autograd_core.autograd import forward_ad as fwAD
    if strict:
        raise RuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` "
            'and `strategy="forward-mode"` are not supported together (yet). '
            "Please either set `strict=False` or "
            '`strategy="reverse-mode"`.')
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
            "only implemented for `vectorize=True`.")
    tangents, numels = _standard_basis(inputs)
    info = []

    def jvp(column):
        with fwAD.dual_level():
            duals = tuple(fwAD.make_dual(x, t.view_as(x)) for x, t in zip(inputs, column))
            out_tuple, outs = _as_tuple(func(*duals), _OUTPUTS, "jacobian")
            jv = []
            primals = []
            for o in outs:
                p, t = fwAD.unpack_dual(o)
                primals.append(p)
                jv.append(t if t is not None else autograd_core.zeros_like(p))
            if not info:
                info.extend([out_tuple, primals])
            return tuple(jv)

    stacked = _batched_jvp(jvp, tuple(tangents))
    outputs_tuple, outputs = info
    jac = []   # lists, as PyTorch's _jacfwd returns them (tuples only where unpacked)
    for jac_i, out in zip(stacked, outputs):
        row = []
        for j, x in zip(jac_i.split(numels, dim=0), inputs):
            row.append(j.permute(*range(1, j.ndim), 0).reshape(
                tuple(out.shape) + tuple(x.shape)))
        jac.append(row)
    return _unpack(jac, (outputs_tuple, inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar func at inputs: the jacobian of its jacobian.

    >>> import autograd_core as torch
    >>> torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*xs):
        out = func(*xs)
        out_tuple, outs = _as_tuple(out, _OUTPUTS, "hessian")
        _check_requires_grad(outs, "outputs", strict)
        if out_tuple or not _is_tensor(out):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def jac_func(*xs):
        if outer_jacobian_strategy == "forward-mode":
            # the inner reverse-mode jacobian needs inputs that require grad
            xs = tuple(x.requires_grad_(True) for x in xs)
        jac = jacobian(single_output, xs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _unpack(res, (inputs_tuple, inputs_tuple))


def _scalar_output(fname, outputs_tuple, outputs):
    if outputs_tuple or not _is_tensor(outputs[0]):
        raise RuntimeError(f"The function given to {fname} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fname} should "
                           "contain a single element")


def _v_for_inputs(fname, v, inputs, inputs_tuple, create_graph):
    if v is not None:
        _, v = _as_tuple(v, "v", fname)
        v = _prepare(v, create_graph, False)
        _check_v(v, inputs, inputs_tuple)
    elif len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided "
                           "function is a single Tensor with a single element.")
    return v


def _scalar_jacobian(fname, func, inputs, v, create_graph, strict):
    """vhp's and hvp's first steps (under enable_grad): the checked inputs and v, the
    scalar output and its gradient with create_graph, the jacobian the second
    differentiation reads."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", fname)
    inputs = _prepare(inputs, create_graph, True)
    v = _v_for_inputs(fname, v, inputs, inputs_tuple, create_graph)
    outputs_tuple, outputs = _as_tuple(func(*inputs), _OUTPUTS, fname)
    _check_requires_grad(outputs, "outputs", strict)
    _scalar_output(fname, outputs_tuple, outputs)
    jac = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return inputs_tuple, inputs, v, outputs_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a scalar func.

    >>> import autograd_core as torch
    >>> torch.autograd.functional.vhp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]),
    ...                               torch.tensor([1., 1.]))[1]
    tensor([ 6., 12.])
    """
    with enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, jac = _scalar_jacobian(
            "vhp", func, inputs, v, create_graph, strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        res = _fill_zeros(_grad(jac, inputs, v, create_graph), inputs, strict, create_graph,
                          "double_back")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(res, create_graph), inputs_tuple))


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a scalar func, by the double-backward trick.

    >>> import autograd_core as torch
    >>> torch.autograd.functional.hvp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]),
    ...                               torch.tensor([1., 0.]))[1]
    tensor([6., 0.])
    """
    with enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, jac = _scalar_jacobian(
            "hvp", func, inputs, v, create_graph, strict)
        grad_jac = tuple(autograd_core.zeros_like(x, requires_grad=True) for x in inputs)
        double_back = _grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        res = _fill_zeros(_grad(double_back, grad_jac, v, create_graph), inputs, strict,
                          create_graph, "double_back_trick")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(res, create_graph), inputs_tuple))
