"""gradcheck / gradgradcheck: compare analytical Jacobians with central differences."""
import numpy as np

from autograd_core._core import tensor as _core
from autograd_core._core import engine as _core_engine


class GradcheckError(RuntimeError):
    """Raised by gradcheck when an analytical and a numerical Jacobian disagree."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _differentiable_outputs(out):
    return tuple(o for o in _as_tuple(out) if isinstance(o, _core.Tensor) and o.requires_grad)


def _differentiable_indices(out):
    """Positions of the outputs that carry a graph (the ones the Jacobians are taken of)."""
    return [k for k, o in enumerate(_as_tuple(out)) if isinstance(o, _core.Tensor) and o.requires_grad]


def _numerical_jacobian(func, inputs, i, outputs, eps, indices):
    """d outputs / d inputs[i] by central differences, one column per input element."""
    x = inputs[i]
    flat = x.detach().numpy().reshape(-1)  # shares x's memory
    cols = [np.zeros((flat.size, o.numel())) for o in outputs]
    # Perturbing the input's memory directly: the function may itself need autograd
    # (gradgradcheck differentiates a vjp), so grad mode stays as it is.
    for k in range(flat.size):
        orig = flat[k]
        flat[k] = orig + eps
        plus = _values_at(func(*inputs), indices)
        flat[k] = orig - eps
        minus = _values_at(func(*inputs), indices)
        flat[k] = orig
        for j in range(len(outputs)):
            cols[j][k] = (plus[j] - minus[j]) / (2 * eps)
    return cols


def _values_at(out, indices):
    out = _as_tuple(out)
    return [out[k].detach().numpy().astype(np.float64).reshape(-1).copy() for k in indices]


def _analytical_jacobian(outputs, inputs, i, create_graph=False):
    """Rows by backward passes with one-hot output gradients."""
    x = inputs[i]
    jacs = []
    for o in outputs:
        jac = np.zeros((x.numel(), o.numel()))
        for k in range(o.numel()):
            g = np.zeros(o.numel(), dtype=o.detach().numpy().dtype)
            g[k] = 1
            grad_out = _core.from_array(g.reshape(o.shape))
            (gx,) = _core_engine.run_backward((o,), (grad_out,), True, create_graph, (x,),
                                     allow_unused=True, accumulate=False)
            if gx is not None:
                jac[:, k] = gx.detach().numpy().astype(np.float64).reshape(-1)
        jacs.append(jac)
    return jacs


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """Check func's gradients against central finite differences (use float64 inputs).

    >>> import autograd_core as torch
    >>> x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradcheck(torch.tanh, (x,))
    True
    """
    inputs = _as_tuple(inputs)
    if not any(isinstance(x, _core.Tensor) and x.requires_grad for x in inputs):
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")
    first = func(*inputs)
    outputs = _differentiable_outputs(first)
    indices = _differentiable_indices(first)
    for i, x in enumerate(inputs):
        if not (isinstance(x, _core.Tensor) and x.requires_grad):
            continue
        if x.dtype.name != "float64":
            import warnings
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating "
                          "point. This check will likely fail if all the inputs are not of "
                          "double precision floating point. ", UserWarning, stacklevel=2)
        numerical = _numerical_jacobian(func, inputs, i, outputs, eps, indices)
        analytical = _analytical_jacobian(outputs, inputs, i)
        for j, (n, a) in enumerate(zip(numerical, analytical)):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{_core.from_array(n)!r}\nanalytical:{_core.from_array(a)!r}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Check second derivatives: gradcheck of the map (inputs, v) -> vjp(func, inputs, v)."""
    inputs = _as_tuple(inputs)
    outputs = _differentiable_outputs(func(*inputs))
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            _core.from_array(rng.standard_normal(o.shape).astype(o.detach().numpy().dtype),
                           requires_grad=True) for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    diff_idx = [i for i, x in enumerate(inputs) if isinstance(x, _core.Tensor) and x.requires_grad]
    n_in = len(inputs)

    def vjp(*args):
        ins, gos = args[:n_in], args[n_in:]
        outs = _differentiable_outputs(func(*ins))
        grads = _core_engine.run_backward(outs, gos, True, True, tuple(ins[i] for i in diff_idx),
                                 allow_unused=True, accumulate=False)
        # Keep every position (None -> zeros) so outputs line up across evaluations.
        return tuple(g if g is not None else _core.from_array(
            np.zeros(tuple(ins[i].shape), dtype=ins[i].dtype.np_dtype))
            for g, i in zip(grads, diff_idx))

    return gradcheck(vjp, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
