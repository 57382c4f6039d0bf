"""gradcheck / gradgradcheck: compare analytical Jacobians with central differences,
with PyTorch's checks around them (inputs, perturbed outputs, non-differentiable
outputs, reentrant backward, backward multiplied by grad_output, undefined output
gradients). fast_mode is accepted and runs the full (slow-mode) check.

Complex values (as PyTorch's gradcheck): a complex input is perturbed along its real and
its imaginary part, a complex output is seen as its real and imaginary parts. The
numerical Jacobian of each direction holds d(output)/d(direction) as complex numbers;
the analytical one is read from backward passes seeded with 1 (the real part of an
output) and 1j (its imaginary part), whose gradients are, by PyTorch's convention,
d/dRe(x) + 1j d/dIm(x) of that part; forward mode's from tangents 1 and 1j. Comparing
them checks PyTorch's Wirtinger and conjugate Wirtinger derivatives; a mismatch names
the part, as PyTorch's message does.
"""
import warnings

import numpy as np

from autograd_core._core import tensor as _core


class GradcheckError(RuntimeError):
    """Raised by gradcheck when an analytical and a numerical Jacobian disagree."""


_FAILED_NONDET_MSG = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _is_tensor(x):
    return isinstance(x, _core.Tensor)


def _differentiable_outputs(out):
    return tuple(o for o in _as_tuple(out) if _is_tensor(o) and o.requires_grad)


def _grad(outputs, inputs, grad_outputs, create_graph=False):
    from autograd_core import autograd
    return autograd.grad(outputs, inputs, grad_outputs, retain_graph=True,
                         create_graph=create_graph, allow_unused=True)


def _check_inputs(inputs):
    any_requires_grad = False
    for i, x in enumerate(inputs):
        if not (_is_tensor(x) and x.requires_grad):
            continue
        if x.dtype.name not in ("float64", "complex128"):
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating "
                          "point or complex. This check will likely fail if all the inputs are "
                          "not of double precision floating point or complex. ",
                          UserWarning, stacklevel=3)
        # (an empty tensor has no memory to overlap, whatever numpy's strides say)
        if x.numel() and not all(st > 0 or sz <= 1 for st, sz in zip(x.stride(), x.size())):
            raise RuntimeError(
                f"The {i}th input has a dimension with stride 0. gradcheck only supports inputs "
                "that are non-overlapping to be able to compute the numerical gradients "
                "correctly. You should call .contiguous on the input before passing it to "
                "gradcheck.")
        any_requires_grad = True
    if not any_requires_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")


def _check_same_dtype_and_shape(a, b, eps, idx):
    on_index = f"on index {idx} " if idx is not None else ""
    assert a.shape == b.shape, (
        f"Expected `func` to return outputs with the same shape when inputs are perturbed "
        f"{on_index}by {eps}, but got: shapes {a.shape} and {b.shape}.")
    assert a.dtype == b.dtype, (
        f"Expected `func` to return outputs with the same dtype when inputs are perturbed "
        f"{on_index}by {eps}, but got: dtypes {a.dtype} and {b.dtype}.")


class _Meta:
    def __init__(self, t):
        self.shape, self.dtype = t.shape, t.dtype


def _as_values(a):
    """An output's values for differencing: float64, or complex128 for a complex one."""
    return a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)


def _snapshot(out):
    """The tensor outputs' metadata and values now (an output may be the very input
    being perturbed: PyTorch clones them)."""
    return [(_Meta(o), _as_values(o.detach().numpy(force=True)).reshape(-1).copy())
            for o in _as_tuple(out) if _is_tensor(o)]


def _numerical_jacobian(func, inputs, i, out_numels, eps, fast_mode=False, step=1):
    """d outputs / d inputs[i] by central differences along step (1: the real part of
    each element; 1j: the imaginary part of a complex input), per tensor output: an
    array (numel of the input, numel of the output), complex for a complex output."""
    x = inputs[i]
    arr = x.detach().numpy(force=True)  # shares x's memory, whatever its strides
    cols = [None] * len(out_numels)
    # Perturbing the input's memory directly: the function may itself need autograd
    # (gradgradcheck differentiates a vjp), so grad mode stays as it is.
    for k, idx in enumerate(np.ndindex(*arr.shape)):
        orig = arr[idx]
        arr[idx] = orig - eps * step
        minus = _snapshot(func(*inputs))
        arr[idx] = orig + eps * step
        plus = _snapshot(func(*inputs))
        arr[idx] = orig
        for j, (a, b) in enumerate(zip(minus, plus)):
            # (fast mode perturbs along a random vector: its message names no index)
            _check_same_dtype_and_shape(a[0], b[0], eps, None if fast_mode else idx)
            if cols[j] is None:
                cols[j] = np.zeros((arr.size, out_numels[j]), dtype=b[1].dtype)
            cols[j][k] = (b[1] - a[1]) / (2 * eps)
    return [c if c is not None else np.zeros((arr.size, n)) for c, n in zip(cols, out_numels)]


def _numerical_parts(func, inputs, i, out_numels, eps, fast_mode=False):
    """The numerical Jacobians of input i: along the real part, and (a complex input)
    along the imaginary part."""
    parts = [_numerical_jacobian(func, inputs, i, out_numels, eps, fast_mode)]
    if inputs[i].is_complex():
        parts.append(_numerical_jacobian(func, inputs, i, out_numels, eps, fast_mode, 1j))
    return parts


def _analytical_jacobians(output, diff_inputs):
    """Per differentiable input: the Jacobians along its real part and (a complex input)
    its imaginary part, laid out as _numerical_parts' (complex for a complex output),
    from backward passes seeded with one-hot 1 and (a complex output) 1j."""
    dt = output.detach().numpy(force=True).dtype
    seeds = (1, 1j) if np.iscomplexobj(np.zeros(0, dt)) else (1,)
    jt = np.complex128 if len(seeds) == 2 else np.float64
    jacs = [[np.zeros((x.numel(), output.numel()), dtype=jt)
             for _ in range(2 if x.is_complex() else 1)] for x in diff_inputs]
    for k in range(output.numel()):
        for seed in seeds:
            g = np.zeros(output.numel(), dtype=dt)
            g[k] = seed
            grads = _grad((output,), diff_inputs, (_core.from_array(g.reshape(output.shape)),))
            for parts, gx in zip(jacs, grads):
                if gx is None:
                    continue
                v = gx.detach().numpy(force=True).reshape(-1).astype(np.complex128)
                # the gradient of the seeded part is d/dRe(x) + 1j d/dIm(x) of that part
                for part, d in zip(parts, (v.real, v.imag)):
                    part[:, k] += d if seed == 1 else 1j * d
    return jacs


def _complex_prefix(part, element):
    """PyTorch's prefix of a mismatch on complex values: backward mode names the part of
    a complex output, forward mode the part of a complex input."""
    return f"While considering the {part} part of complex {element} only, "


def _check_no_differentiable_outputs(func, inputs, eps, fast_mode):
    numels = [o.numel() for o in _as_tuple(func(*inputs)) if _is_tensor(o)]
    for i, x in enumerate(inputs):
        if not (_is_tensor(x) and x.requires_grad):
            continue
        for part in _numerical_parts(func, inputs, i, numels, eps, fast_mode):
            for jac in part:
                if np.any(jac != 0):
                    raise GradcheckError("Numerical gradient for function expected to be zero")
    return True


def _check_backward_mul_by_grad_output(outputs, diff_inputs):
    zeros = tuple(_core.from_array(np.zeros(tuple(o.shape), dtype=o.detach().numpy(force=True).dtype))
                  for o in outputs)
    for g, x in zip(_grad(outputs, diff_inputs, zeros), diff_inputs):
        if g is None:
            continue
        if not np.all(g.detach().numpy(force=True) == 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype != x.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.size() != x.size():
            raise GradcheckError("grad is incorrect size")


def _undefined_grad(t):
    """An alias of t whose backward passes on no gradient (PyTorch's UndefinedGrad)."""
    from autograd_core.autograd.function import Function

    class UndefinedGrad(Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return None

    return UndefinedGrad.apply(t)


def _check_undefined_grads(func, inputs, diff_inputs):
    def warn_bc_breaking():
        warnings.warn("Backwards compatibility: New undefined gradient support checking "
                      "feature is enabled by default, but it may break existing callers of "
                      "this function. If this is true for you, you can call this function "
                      'with "check_undefined_grad=False" to disable the feature',
                      UserWarning, stacklevel=4)

    def check(outputs):
        zeros = [_core.from_array(np.zeros(tuple(o.shape), dtype=o.detach().numpy(force=True).dtype))
                 for o in outputs]
        try:
            grads = _grad(tuple(outputs), diff_inputs, tuple(zeros))
        except RuntimeError as e:
            warn_bc_breaking()
            raise GradcheckError('Expected backward function to handle undefined output grads. '
                                 'Please look at "Notes about undefined output gradients" in '
                                 '"tools/autograd/derivatives.yaml"') from e
        for g in grads:
            if g is not None and not np.all(g.detach().numpy(force=True) == 0):
                warn_bc_breaking()
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads "
                    'are undefined or zero. Please look at "Notes about undefined output '
                    'gradients" in "tools/autograd/derivatives.yaml"')

    first = [_undefined_grad(o) for o in _differentiable_outputs(func(*inputs))]
    to_check = [first]
    if len(first) > 1:  # one undefined gradient at a time too
        for k in range(len(first)):
            outs = _differentiable_outputs(func(*inputs))
            to_check.append([_undefined_grad(o) if j == k else o for j, o in enumerate(outs)])
    for outputs in to_check:
        check(outputs)


def _forward_jacobians(func, inputs, diff_idx, out_numels):
    """Per differentiable input, its Jacobians by forward AD along its real part and (a
    complex input) its imaginary part, laid out as _numerical_parts'."""
    return {i: [_forward_jacobian(func, inputs, diff_idx, out_numels, i, step)
                for step in ((1, 1j) if inputs[i].is_complex() else (1,))]
            for i in diff_idx}


def _forward_jacobian(func, inputs, diff_idx, out_numels, i, step):
    """Per tensor output, J's columns for input i by forward AD (one dual level per
    input element, its tangent one-hot step): an array (numel of the input, numel of
    the output), complex for a complex output."""
    from autograd_core.autograd import forward_ad as fwAD
    x = inputs[i]
    cols = [None] * len(out_numels)
    for k in range(x.numel()):
        with fwAD.dual_level():
            duals = []
            for m, y in enumerate(inputs):
                if not _is_tensor(y) or m not in diff_idx:
                    duals.append(y)
                    continue
                d = y.detach()
                if y.requires_grad:
                    d.requires_grad_()
                t = np.zeros(tuple(y.shape), dtype=y.dtype.np_dtype)
                if m == i:
                    t.reshape(-1)[k] = step
                duals.append(fwAD.make_dual(d, _core.from_array(t)))
            outs = [o for o in _as_tuple(func(*duals)) if _is_tensor(o)]
            for j, o in enumerate(outs):
                tangent = fwAD.unpack_dual(o).tangent
                if cols[j] is None:
                    cols[j] = np.zeros((x.numel(), out_numels[j]),
                                       dtype=np.complex128 if o.is_complex() else np.float64)
                if tangent is not None:
                    cols[j][k] = _as_values(tangent.detach().numpy(force=True)).reshape(-1)
    return [c if c is not None else np.zeros((x.numel(), n)) for c, n in zip(cols, out_numels)]


_FAILED_BATCHED_GRAD_MSG = """
gradcheck or gradgradcheck failed while testing batched gradient computation.
This could have been invoked in a number of ways (via a test that calls
gradcheck/gradgradcheck directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_grad=False` and/or `check_batched_gradgrad=False`.

If you're modifying an existing operator that supports batched grad computation,
or wish to make a new operator work with batched grad computation, please read
the following.

To compute batched grads (e.g., jacobians, hessians), we vmap over the backward
computation. The most common failure case is if there is a 'vmap-incompatible
operation' in the backward pass. Please see
NOTE: [How to write vmap-compatible backward formulas]
in the codebase for an explanation of how to fix this.
""".strip()

_FAILED_BATCHED_GRAD_MSG_FWD_AD = """
gradcheck failed while testing batched gradient computation with forward-mode AD.
This test is enabled automatically when both `check_batched_grad=True`
and `check_forward_ad=True`, but can be disabled in the following ways
dependong on how the test was invoked (via a test that calls gradcheck
directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_forward_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_forward_grad=False`
"""


def _batched_mismatch(output_idx, input_idx, res, exp, forward_ad=False):
    what = _FAILED_BATCHED_GRAD_MSG_FWD_AD if forward_ad else _FAILED_BATCHED_GRAD_MSG
    return (f"For output {output_idx} and input {input_idx}:\n\n{what}\n\nGot:\n{res!r}\n\n"
            f"Expected:\n{exp!r}").strip()


def _zeros_as(t):
    import autograd_core
    return autograd_core.zeros([], dtype=t.dtype).expand(t.shape)


def _vmapped(fn, stacked, forward_ad):
    """vmap(fn)(stacked) (torch._vmap_internals' vmap, as PyTorch's gradcheck), a
    RuntimeError in it reported as gradcheck does."""
    from autograd_core._vmap_internals import _vmap as vmap
    with warnings.catch_warnings():
        # ops without a batching rule run per sample: expected here
        warnings.filterwarnings("ignore", message="There is a performance drop")
        try:
            return vmap(fn)(stacked)
        except RuntimeError as ex:
            what = _FAILED_BATCHED_GRAD_MSG_FWD_AD if forward_ad else _FAILED_BATCHED_GRAD_MSG
            raise GradcheckError(f"While computing batched gradients, got: {ex}\n\n{what}") \
                from ex


def _check_batched_grad(inputs, output, output_idx):
    """vmap of the vector-Jacobian product over two random cotangents against the two
    products one at a time (PyTorch's _test_batched_grad; Note [grad under vmap])."""
    import autograd_core
    diff_inputs = [x for x in inputs if _is_tensor(x) and x.requires_grad]

    def vjp(v):
        res = autograd_core.autograd.grad(output, diff_inputs, v, retain_graph=True,
                                          allow_unused=True)
        return tuple(_zeros_as(x) if g is None else g for g, x in zip(res, diff_inputs))

    cotangents = [autograd_core.randn_like(output) for _ in range(2)]
    expected = [autograd_core.stack(s) for s in zip(*[vjp(v) for v in cotangents])]
    result = _vmapped(vjp, autograd_core.stack(cotangents), False)
    for input_idx, (res, exp) in enumerate(zip(result, expected)):
        if not autograd_core.allclose(res, exp):
            raise GradcheckError(_batched_mismatch(output_idx, input_idx, res, exp))


def _check_batched_forward_grad(func, inputs):
    """Per differentiable floating input: vmap of the Jacobian-vector product over two
    random tangents against the two products one at a time (PyTorch's
    _test_batched_grad_forward_ad; Note [jvp under vmap])."""
    import autograd_core
    from autograd_core.autograd import forward_ad as fwAD
    for input_idx, current in enumerate(inputs):
        if not (_is_tensor(current) and current.requires_grad):
            continue

        def jvp(tangent):
            with fwAD.dual_level():
                dual = fwAD.make_dual(current.detach(), tangent)
                args = tuple(dual if idx == input_idx else
                             (x.detach() if _is_tensor(x) else x)
                             for idx, x in enumerate(inputs))
                ret = []
                for out in _as_tuple(func(*args)):
                    if out is None:
                        continue
                    primal, tangent_out = fwAD.unpack_dual(out)
                    ret.append(_zeros_as(primal) if tangent_out is None else tangent_out)
                return tuple(ret)

        if not (current.is_floating_point() or current.is_complex()):
            continue
        tangents = [autograd_core.randn_like(current) for _ in range(2)]
        expected = [autograd_core.stack(s) for s in zip(*[jvp(t) for t in tangents])]
        result = _vmapped(jvp, autograd_core.stack(tangents), True)
        # (PyTorch labels both indices with the position of the output)
        for idx, (res, exp) in enumerate(zip(result, expected)):
            if not autograd_core.allclose(res, exp):
                raise GradcheckError(_batched_mismatch(idx, idx, res, exp, forward_ad=True))


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, fast_mode,
               check_forward_ad=False, check_backward_ad=True, check_batched_grad=False,
               check_batched_forward_grad=False):
    _check_inputs(inputs)
    func_out = _as_tuple(func(*inputs))
    outputs = _differentiable_outputs(func_out)
    if not outputs:
        return _check_no_differentiable_outputs(func, inputs, eps, fast_mode)
    tensor_outs = [o for o in func_out if _is_tensor(o)]
    diff_idx = [i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    diff_inputs = tuple(inputs[i] for i in diff_idx)
    numerical = {i: _numerical_parts(func, inputs, i, [o.numel() for o in tensor_outs], eps,
                                     fast_mode)
                 for i in diff_idx}
    if check_forward_ad:
        forward = _forward_jacobians(func, inputs, diff_idx, [o.numel() for o in tensor_outs])
        for j, o in enumerate(tensor_outs):
            if not (o.dtype.is_floating_point or o.dtype.is_complex):
                continue
            for i in diff_idx:
                # (a complex input: its imaginary part first, as PyTorch's)
                for p in reversed(range(len(forward[i]))):
                    a, n = forward[i][p][j], numerical[i][p][j]
                    if not np.allclose(a, n, rtol=rtol, atol=atol):
                        raise GradcheckError(
                            (_complex_prefix(("real", "imaginary")[p], "inputs")
                             if inputs[i].is_complex() else "")
                            + f"Jacobian computed with forward mode mismatch for output {j} "
                            f"with respect to input {i},\nnumerical:{_core.from_array(n)!r}\n"
                            f"analytical:{_core.from_array(a)!r}\n")
    if check_backward_ad:
        _check_backward_jacobians(func, inputs, outputs, tensor_outs, diff_idx, diff_inputs,
                                  numerical, rtol, atol, nondet_tol)
    if check_batched_forward_grad:
        _check_batched_forward_grad(func, inputs)
    if not check_backward_ad:
        return True
    if check_batched_grad:
        for i, o in enumerate(outputs):
            _check_batched_grad(inputs, o, i)
    _check_backward_mul_by_grad_output(outputs, diff_inputs)
    if check_undefined_grad:
        _check_undefined_grads(func, inputs, diff_inputs)
    return True


def _check_backward_jacobians(func, inputs, outputs, tensor_outs, diff_idx, diff_inputs,
                              numerical, rtol, atol, nondet_tol):
    out_pos = [k for k, o in enumerate(tensor_outs) if o.requires_grad]
    for j, o in enumerate(outputs):
        analytical = _analytical_jacobians(o, diff_inputs)
        again = _analytical_jacobians(o, diff_inputs)
        for a, b in zip([p for ps in analytical for p in ps], [p for ps in again for p in ps]):
            if a.shape != b.shape or (a.size and np.max(np.abs(a - b)) > nondet_tol):
                raise GradcheckError(
                    "Backward is not reentrant, i.e., running backward with same input and "
                    "grad_output multiple times gives different values, although analytical "
                    "gradient matches numerical gradient.The tolerance for nondeterminism "
                    f"was {nondet_tol}." + _FAILED_NONDET_MSG)
        # (a complex output: its imaginary part first, then its real part, as PyTorch's)
        for part in (np.imag, np.real) if o.is_complex() else (np.real,):
            for i, a_parts in zip(diff_idx, analytical):
                for a, n_part in zip(a_parts, numerical[i]):
                    n = n_part[out_pos[j]]
                    if np.allclose(part(a), part(n), rtol=rtol, atol=atol):
                        continue
                    raise GradcheckError(
                        (_complex_prefix("real" if part is np.real else "imaginary", "outputs")
                         if o.is_complex() else "")
                        + f"Jacobian mismatch for output {j} with respect to input {i},\n"
                        f"numerical:{_core.from_array(n)!r}\n"
                        f"analytical:{_core.from_array(a)!r}\n")


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
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    inputs = _as_tuple(inputs)
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
                          fast_mode, check_forward_ad, check_backward_ad, check_batched_grad,
                          check_batched_forward_grad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _random_like(rng, o):
    """A random grad_output for o (complex for a complex o)."""
    dt = o.detach().numpy(force=True).dtype
    v = rng.standard_normal(tuple(o.shape))
    if np.iscomplexobj(np.zeros(0, dt)):
        v = v + 1j * rng.standard_normal(tuple(o.shape))
    return np.asarray(v).astype(dt)   # (an array for a 0-d o too, not a numpy scalar)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Check second derivatives: gradcheck of the map (inputs, v) -> vjp(func, inputs, v).

    >>> import autograd_core as torch
    >>> x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradgradcheck(torch.tanh, (x,))
    True
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    outputs = _differentiable_outputs(func(*inputs))
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(_core.from_array(_random_like(rng, o), requires_grad=True)
                             for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    diff_idx = [i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    n_in = len(inputs)

    def vjp(*args):
        ins, gos = args[:n_in], args[n_in:]
        outs = _differentiable_outputs(func(*ins))
        grads = _grad(outs, tuple(ins[i] for i in diff_idx), gos, create_graph=True)
        # Keep every position (None -> zeros) so outputs line up across evaluations.
        return tuple(g if g is not None else _core.from_array(
            np.zeros(tuple(ins[i].shape), dtype=ins[i].dtype.np_dtype))
            for g, i in zip(grads, diff_idx))

    return gradcheck(vjp, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, fast_mode=fast_mode,
                     check_batched_grad=check_batched_grad,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev)
