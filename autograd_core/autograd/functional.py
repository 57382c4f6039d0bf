"""Higher-level derivatives built on autograd.grad: vjp, jvp, jacobian, hessian, hvp, vhp.

Signatures and return conventions follow torch.autograd.functional."""
import numpy as np

import autograd_core

from autograd_core._core import tensor as _core
from autograd_core._core import engine as _core_engine
from autograd_core.grad_mode import enable_grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _tuple(x):
    return (x, False) if isinstance(x, tuple) else ((x,), True)


def _grad(outputs, inputs, grad_outputs, create_graph, allow_unused=True):
    outputs = tuple(o for o in outputs)
    grads = tuple(g for g in grad_outputs)
    diff = [(o, g) for o, g in zip(outputs, grads) if o.requires_grad]
    if not diff:
        return (None,) * len(inputs)
    return _core_engine.run_backward(tuple(o for o, _ in diff), tuple(g for _, g in diff), True,
                            create_graph, tuple(inputs), allow_unused=True, accumulate=False)


def _prepare(inputs, create_graph):
    out = []
    for x in inputs:
        if not isinstance(x, _core.Tensor):
            raise TypeError(f"The inputs given to the function must be Tensors, got {type(x).__name__}")
        y = x.detach() if not create_graph else x
        if not create_graph or not x.requires_grad:
            y = x.detach().requires_grad_(True) if x.is_floating_point() else x.detach()
        out.append(y)
    return tuple(out)


def _check_outputs(outs, strict, fname):
    """torch.autograd.functional's checks on what the user's function returned."""
    for i, o in enumerate(outs):
        if not isinstance(o, _core.Tensor):
            raise TypeError(f"The outputs of the user-provided function given to {fname} must be "
                            "either a Tensor or a tuple of Tensors but the given outputs of the "
                            f"user-provided function has type {type(o)}.")
        if strict and not o.requires_grad:
            raise RuntimeError(f"Output {i} of the user-provided function does not require "
                               "gradients. The outputs must be computed in a differentiable "
                               "manner from the input when running in strict mode.")


def _fill_none(grads, refs, strict, what):
    out = []
    for i, (g, r) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(f"The output of the user-provided function is independent of "
                                   f"input {i}. This is not allowed in strict mode.")
            g = _core.from_array(np.zeros(r.shape, dtype=r.dtype.np_dtype))
        out.append(g)
    return tuple(out)


def _detach(xs, create_graph):
    return tuple(x if create_graph else x.detach() for x in xs)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product."""
    inputs, single_in = _tuple(inputs)
    with enable_grad():
        ins = _prepare(inputs, create_graph)
        outs, single_out = _tuple(func(*ins))
        _check_outputs(outs, strict, "vjp")
        if v is None:
            if len(outs) != 1 or outs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided function "
                                   "returns a single Tensor with a single element.")
            v = (_core.from_array(np.ones(outs[0].shape, dtype=outs[0].dtype.np_dtype)),)
        else:
            v, _ = _tuple(v)
            for o, vi in zip(outs, v):
                if tuple(vi.shape) != tuple(o.shape):
                    raise RuntimeError(f"v has invalid size: should be {o.shape!r} but got "
                                       f"{vi.shape!r}.")
        grads = _grad(outs, ins, v, create_graph)
    grads = _detach(_fill_none(grads, ins, strict, "vjp"), create_graph)
    outs = _detach(outs, create_graph)
    return (outs[0] if single_out else outs), (grads[0] if single_in else grads)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-vjp trick."""
    inputs, single_in = _tuple(inputs)
    with enable_grad():
        ins = _prepare(inputs, create_graph)
        if v is None:
            if len(ins) != 1 or ins[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the input to the "
                                   "user-provided function is a single Tensor with a single element.")
            v = (_core.from_array(np.ones(ins[0].shape, dtype=ins[0].dtype.np_dtype)),)
        else:
            v, _ = _tuple(v)
        outs, single_out = _tuple(func(*ins))
        _check_outputs(outs, strict, "jvp")
        us = tuple(_core.from_array(np.zeros(o.shape, dtype=o.dtype.np_dtype)).requires_grad_(True)
                   for o in outs)
        g = _grad(outs, ins, us, True)
        g = tuple(x for x in g)
        pairs = [(gi, vi) for gi, vi in zip(g, v) if gi is not None and gi.requires_grad]
        if pairs:
            jv = _core_engine.run_backward(tuple(p[0] for p in pairs), tuple(p[1] for p in pairs), True,
                                  create_graph, us, allow_unused=True, accumulate=False)
        else:
            jv = (None,) * len(outs)
    jv = _detach(_fill_none(jv, outs, strict, "jvp"), create_graph)
    outs = _detach(outs, create_graph)
    return (outs[0] if single_out else outs), (jv[0] if single_out else jv)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of func at inputs (nested as torch.autograd.functional.jacobian)."""
    inputs, single_in = _tuple(inputs)
    with enable_grad():
        ins = _prepare(inputs, create_graph)
        outs, single_out = _tuple(func(*ins))
        _check_outputs(outs, strict, "jacobian")
        result = []
        for o in outs:
            per_input = [np.zeros(tuple(o.shape) + tuple(x.shape), dtype=o.dtype.np_dtype) for x in ins]
            rows = [[None] * o.numel() for _ in ins]
            for k in range(o.numel()):
                e = np.zeros(o.numel(), dtype=o.dtype.np_dtype)
                e[k] = 1
                if o.requires_grad:
                    gs = _core_engine.run_backward((o,), (_core.from_array(e.reshape(tuple(o.shape))),), True,
                                          create_graph, ins, allow_unused=True, accumulate=False)
                else:
                    gs = (None,) * len(ins)
                for j, g in enumerate(gs):
                    if g is None and strict:
                        raise RuntimeError(f"Output {len(result)} of the user-provided function is "
                                           f"independent of input {j}. This is not allowed in strict mode.")
                    rows[j][k] = g
            entry = []
            for j, x in enumerate(ins):
                if create_graph and any(r is not None for r in rows[j]):
                    parts = [r if r is not None else _core.from_array(np.zeros(tuple(x.shape), dtype=x.dtype.np_dtype))
                             for r in rows[j]]
                    entry.append(autograd_core.stack(parts).reshape(tuple(o.shape) + tuple(x.shape)))
                else:
                    arr = per_input[j].reshape((o.numel(),) + tuple(x.shape))
                    for k, r in enumerate(rows[j]):
                        if r is not None:
                            arr[k] = r.detach().numpy()
                    entry.append(_core.from_array(arr.reshape(tuple(o.shape) + tuple(x.shape))))
            result.append(tuple(entry))
    if single_out and single_in:
        return result[0][0]
    if single_out:
        return result[0]
    if single_in:
        return tuple(r[0] for r in result)
    return tuple(result)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar func at inputs."""
    inputs_t, single_in = _tuple(inputs)

    def grad_fn(*xs):
        with enable_grad():
            out = func(*xs)
            if not isinstance(out, _core.Tensor) or out.numel() != 1:
                raise RuntimeError("The function given to hessian should return a single Tensor "
                                   "with a single element.")
            gs = _grad((out,), xs, (_core.from_array(np.ones(tuple(out.shape), dtype=out.dtype.np_dtype)),), True)
            gs = _fill_none(gs, xs, strict, "hessian")
            for i, g in enumerate(gs):
                if strict and not g.requires_grad:
                    raise RuntimeError(
                        "While computing the hessian, found that the jacobian of the user-provided "
                        f"function with respect to input {i} is independent of the input. This is "
                        "not allowed in strict mode. You should ensure that your function is twice "
                        "differentiable and that the jacobian depends on the inputs (this would be "
                        "violated by a linear function for example).")
        return gs[0] if single_in else gs

    return jacobian(grad_fn, inputs, create_graph=create_graph, strict=strict)


def vhp(func, inputs, v=None, create_graph=False, strict=False, _name="vhp"):
    """(func(inputs), v^T H)."""
    inputs, single_in = _tuple(inputs)
    with enable_grad():
        ins = _prepare(inputs, create_graph)
        out = func(*ins)
        if not isinstance(out, _core.Tensor):
            raise TypeError(f"The outputs of the user-provided function given to {_name} must "
                            "be either a Tensor or a tuple of Tensors but the given outputs of "
                            f"the user-provided function has type {type(out)}.")
        if out.numel() != 1:
            raise RuntimeError(f"The Tensor returned by the function given to {_name} should "
                               "contain a single element")
        v, _ = _tuple(v) if v is not None else ((_core.from_array(np.ones(ins[0].shape, dtype=ins[0].dtype.np_dtype)),), True)
        ones = (_core.from_array(np.ones(tuple(out.shape), dtype=out.dtype.np_dtype)),)
        g = _fill_none(_grad((out,), ins, ones, True), ins, strict, "vhp")
        pairs = [(gi, vi) for gi, vi in zip(g, v) if gi.requires_grad]
        if pairs:
            h = _core_engine.run_backward(tuple(p[0] for p in pairs), tuple(p[1] for p in pairs), True,
                                 create_graph, ins, allow_unused=True, accumulate=False)
        else:
            h = (None,) * len(ins)
    h = _detach(_fill_none(h, ins, strict, "vhp"), create_graph)
    out = out if create_graph else out.detach()
    return out, (h[0] if single_in else h)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v); equal to vhp for the symmetric Hessian of a smooth func."""
    return vhp(func, inputs, v, create_graph, strict, _name="hvp")
