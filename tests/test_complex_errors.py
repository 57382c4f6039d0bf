"""Complex values where PyTorch refuses or converts them (issue 27), differentially against
PyTorch 2.13: the error for recording an op PyTorch does not differentiate on complex
values (Note [Complex outputs PyTorch does not differentiate]), complex Python numbers
(and 0-d complex tensors) as the Scalar arguments of the ops that read them in a real
type (Note [Complex Scalar arguments]: the value when the imaginary part is zero,
PyTorch's exception type and message otherwise), and linspace / logspace / arange with
complex endpoints (values, dtypes, errors)."""
import numpy as np
import pytest

from _diff import Raised, catch, same, same_error

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402


def _z(m, *shape, seed=0, dtype="complex128", requires_grad=False):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return m.tensor(v, dtype=getattr(m, dtype), requires_grad=requires_grad)


# ------------------------------------------------------------------ complex outputs PyTorch
# does not differentiate: its RuntimeError at the call, naming the op as ATen does

def _embedding(m):
    return m.nn.functional.embedding(m.tensor([0, 2]), _z(m, 3, 2, requires_grad=True))


_REFUSED = {
    "select_copy": lambda m: m.select_copy(_z(m, 3, 2, requires_grad=True), 0, 1),
    "select_scatter": lambda m: m.select_scatter(_z(m, 3, 2, requires_grad=True),
                                                 _z(m, 2, seed=1), 0, 1),
    "slice_scatter": lambda m: m.slice_scatter(_z(m, 4, requires_grad=True),
                                               _z(m, 2, seed=1), 0, 0, 2),
    "embedding": _embedding,
    "silu": lambda m: m.nn.functional.silu(_z(m, 3, requires_grad=True)),
    "conv_tbc": lambda m: m.conv_tbc(_z(m, 4, 1, 2, requires_grad=True), _z(m, 3, 2, 2, seed=1),
                                     _z(m, 2, seed=2), 1),
    "affine_grid_generator": lambda m: m.affine_grid_generator(
        _z(m, 1, 2, 3, requires_grad=True), [1, 1, 2, 2], False),
}


@pytest.mark.parametrize("name", sorted(_REFUSED))
def test_recording_an_op_pytorch_does_not_differentiate_raises_its_error(name):
    want, got = same_error(_REFUSED[name])
    assert "does not support automatic differentiation for outputs with complex dtype" \
        in got.message


def test_the_refusal_is_at_the_call_and_leaves_no_complex_grad_flag_needed():
    """The error comes from the forward call (not backward), also under a real input whose
    gradient path meets the op later, as PyTorch's."""
    def prog(m):
        x = m.randn(3, 2, dtype=m.float64, requires_grad=True)
        return m.select_scatter(x.to(m.complex128), _z(m, 2), 0, 1)
    same_error(prog)


def test_silu_inplace_refused_with_silus_exception_type():
    """PyTorch computes silu_ on complex values requiring grad but its gradient lacks the
    conjugation (a finite difference confirms the conjugated one): refused here, with the
    RuntimeError PyTorch's out-of-place silu raises."""
    z = _z(autograd_core, 3, requires_grad=True)
    got = catch(lambda: autograd_core.nn.functional.silu(z * 1, inplace=True))
    want = catch(lambda: torch.nn.functional.silu(_z(torch, 3, requires_grad=True)))
    assert isinstance(got, Raised) and isinstance(want, Raised)
    assert got.type == want.type == "RuntimeError"
    # (the in-place form records silu's node, which names the op)
    assert got.message == want.message


def test_complex_without_grad_still_computes():
    same(lambda m: (m.select_scatter(_z(m, 3, 2), _z(m, 2, seed=1), 0, 1),
                    m.nn.functional.silu(_z(m, 4))))


# ------------------------------------------------------------------ complex Scalar arguments

_SCALAR_OPS = {
    "elu_alpha": lambda m, x, c: m.nn.functional.elu(x, alpha=c),
    "elu_inplace_alpha": lambda m, x, c: m.nn.functional.elu_(x.clone(), alpha=c),
    "celu_alpha": lambda m, x, c: m.nn.functional.celu(x, alpha=c),
    "softplus_beta": lambda m, x, c: m.nn.functional.softplus(x, beta=c),
    "softplus_threshold": lambda m, x, c: m.nn.functional.softplus(x, threshold=c),
    "leaky_relu_slope": lambda m, x, c: m.nn.functional.leaky_relu(x, negative_slope=c),
    "leaky_relu_inplace_slope": lambda m, x, c: m.nn.functional.leaky_relu_(
        x.clone(), negative_slope=c),
    "threshold_threshold": lambda m, x, c: m.nn.functional.threshold(x, c, 0.5),
    "threshold_value": lambda m, x, c: m.threshold(x, 0.1, c),
    "threshold_inplace_value": lambda m, x, c: m.threshold_(x.clone(), 0.1, c),
    "hardtanh_min": lambda m, x, c: m.nn.functional.hardtanh(x, min_val=c - 3),
    "hardtanh_inplace_max": lambda m, x, c: m.nn.functional.hardtanh_(x.clone(), max_val=c),
    "hardshrink_lambd": lambda m, x, c: m.nn.functional.hardshrink(x, c * 0.25),
    "softshrink_lambd": lambda m, x, c: m.nn.functional.softshrink(x, c * 0.25),
    "index_add_alpha": lambda m, x, c: m.index_add(x, 0, m.tensor([0, 2]), x[:2], alpha=c),
    "index_add_inplace_alpha": lambda m, x, c: x.clone().index_add_(0, m.tensor([0, 2]),
                                                                    x[:2], alpha=c),
    "constant_pad_nd_value": lambda m, x, c: m.constant_pad_nd(x, [1, 1], c),
    "F_pad_value": lambda m, x, c: m.nn.functional.pad(x, (1, 2), value=c),
    "F_pad_reflect_value": lambda m, x, c: m.nn.functional.pad(x[None], (1, 1), mode="reflect",
                                                               value=c),
    "norm_p": lambda m, x, c: m.norm(x, p=c),
    "norm_p_dim": lambda m, x, c: m.norm(x, p=c, dim=0),
    "vector_norm_ord": lambda m, x, c: m.linalg.vector_norm(x, c),
    "dist_p": lambda m, x, c: m.dist(x, x * 2, c),
    "renorm_p": lambda m, x, c: m.renorm(x[None], c, 0, 1.0),
    "renorm_maxnorm": lambda m, x, c: m.renorm(x[None], 2, 0, c),
    "histc_min": lambda m, x, c: m.histc(x, 4, min=c - 3, max=3),
}
_INPUTS = {
    "float64": lambda m: m.tensor([0.5, -1.5, 2.0, -0.25], dtype=m.float64),
    "float32": lambda m: m.tensor([0.5, -1.5, 2.0, -0.25], dtype=m.float32),
    "int64": lambda m: m.tensor([1, -2, 3, 0]),
    "complex128": lambda m: m.tensor([0.5 + 1j, -1.5, 2.0 - 0.5j, -0.25j], dtype=m.complex128),
}
_NUMBERS = [1 + 2j, 2 + 0j, -0.5 + 0j, "tensor(1+2j)", "tensor(2+0j)"]


# PyTorch checks a norm's input dtype before its order, autograd_core the order first:
# the same RuntimeError, another message
_TYPE_ONLY = {("vector_norm_ord", "int64"), ("dist_p", "int64"), ("norm_p", "int64"),
              ("norm_p_dim", "int64")}


def _number(m, c):
    # a 0-d complex tensor is read as its value, as PyTorch's argument parser reads it
    return m.tensor(complex(c[7:-1])) if isinstance(c, str) else c


@pytest.mark.parametrize("dtype", sorted(_INPUTS))
@pytest.mark.parametrize("name", sorted(_SCALAR_OPS))
def test_complex_scalar_argument_as_pytorch(name, dtype):
    """Each (op, argument) on real and complex tensors with complex numbers (and 0-d
    complex tensors), with and without an imaginary part: PyTorch's values and dtypes, or
    its exception type and message."""
    for c in _NUMBERS:
        if name.startswith(("norm_p", "F_pad")) and isinstance(c, str):
            # (not yet: torch.norm's p and F.pad's value as a 0-d complex tensor)
            continue

        def prog(m):
            return _SCALAR_OPS[name](m, _INPUTS[dtype](m), _number(m, c))
        if (name, dtype) in _TYPE_ONLY:
            want, got = catch(prog, torch, quiet=True), catch(prog, autograd_core, quiet=True)
            assert isinstance(want, Raised) and isinstance(got, Raised), (want, got)
            assert got.type == want.type, (want, got)
            continue
        same(prog, may_raise=True, quiet=True)


def test_complex_scalar_with_zero_imaginary_part_gives_a_real_gradient():
    """A complex number with a zero imaginary part is the real number the node saves: the
    gradients are real, as PyTorch's."""
    def prog(m):
        x = m.tensor([0.5, -1.5, 2.0, -0.25], dtype=m.float64, requires_grad=True)
        y = (m.nn.functional.elu(x, alpha=2 + 0j) + m.nn.functional.leaky_relu(x, 0.5 + 0j)
             + m.nn.functional.celu(x, 1.5 + 0j))
        (g,) = m.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = m.autograd.grad(g.sum(), x)
        # (softplus once: PyTorch's second derivative keeps the complex beta and fails)
        (gs,) = m.autograd.grad(m.nn.functional.softplus(x, beta=2 + 0j).sum(), x)
        return y, g, gg, gs
    same(prog)


def test_other_scalar_arguments_still_refuse_complex_with_the_argument_error():
    """A Scalar PyTorch declares as float keeps its TypeError (nan_to_num's nan)."""
    same_error(lambda m: m.nan_to_num(m.tensor([1.0]), nan=1 + 2j), message=False)


# ------------------------------------------------------------------ linspace / logspace / arange

_SPACES = {
    "linspace_complex_end": lambda m: m.linspace(0, 1 + 1j, 3),
    "linspace_complex_start": lambda m: m.linspace(1j, 2, 4),
    "linspace_zero_imag": lambda m: m.linspace(1 + 0j, 2, 3),
    "linspace_both": lambda m: m.linspace(1 + 2j, -3j, 6),
    "linspace_complex64": lambda m: m.linspace(1 + 2j, -3j, 5, dtype=m.complex64),
    "linspace_complex128": lambda m: m.linspace(0.3 - 1j, 2.5j, 7, dtype=m.complex128),
    "linspace_real_ends_complex_dtype": lambda m: m.linspace(0, 2, 3, dtype=m.complex64),
    "linspace_one_step": lambda m: m.linspace(0, 1 + 1j, 1),
    "linspace_no_step": lambda m: m.linspace(0, 1 + 1j, 0),
    "linspace_tensor_start": lambda m: m.linspace(m.tensor(1 + 1j), 2, 3),
    "linspace_tensor_c128": lambda m: m.linspace(m.tensor(1 + 1j, dtype=m.complex128), 2, 3),
    "linspace_tensors": lambda m: m.linspace(m.tensor(0.), m.tensor(2j), 3),
    "linspace_many": lambda m: m.linspace(-1 - 1j, 3 + 0.5j, 101),
    "linspace_real_dtype": lambda m: m.linspace(0, 1 + 1j, 3, dtype=m.float64),
    "linspace_real_dtype_zero_imag": lambda m: m.linspace(0, 1 + 0j, 3, dtype=m.float32),
    "linspace_int_dtype": lambda m: m.linspace(0, 1 + 1j, 3, dtype=m.int64),
    "linspace_half_dtype": lambda m: m.linspace(0, 1 + 1j, 5, dtype=m.float16),
    "linspace_tensor_real_dtype": lambda m: m.linspace(m.tensor(1 + 1j), 2, 3,
                                                       dtype=m.float32),
    "logspace_complex_end": lambda m: m.logspace(0, 1 + 1j, 3),
    "logspace_complex_start": lambda m: m.logspace(1j, 2, 4),
    "logspace_zero_imag": lambda m: m.logspace(0, 1 + 0j, 3),
    "logspace_complex128": lambda m: m.logspace(0, 1 + 1j, 3, dtype=m.complex128),
    "logspace_base2": lambda m: m.logspace(0, 1 + 1j, 3, base=2),
    "logspace_real_ends_complex_dtype": lambda m: m.logspace(0, 2, 3, dtype=m.complex64),
    "logspace_tensor": lambda m: m.logspace(m.tensor(1j), 2, 3),
    "logspace_real_dtype": lambda m: m.logspace(0, 1 + 1j, 3, dtype=m.float64),
    "logspace_int_dtype": lambda m: m.logspace(0, 1 + 1j, 3, dtype=m.int64),
    "arange_complex_end": lambda m: m.arange(1 + 1j),
    "arange_zero_imag_end": lambda m: m.arange(3 + 0j),
    "arange_zero_imag_bounds": lambda m: m.arange(0, 3 + 0j),
    "arange_zero_imag_step": lambda m: m.arange(0, 3, 1 + 0j),
    "arange_complex_step": lambda m: m.arange(0, 3, 1 + 1j),
    "arange_zero_imag_start": lambda m: m.arange(0.5 + 0j, 3),
    "arange_complex_dtype": lambda m: m.arange(3 + 0j, dtype=m.complex64),
    "arange_real_complex_dtype": lambda m: m.arange(3, dtype=m.complex64),
    "arange_int_dtype": lambda m: m.arange(3 + 0j, dtype=m.int64),
    "arange_imag_complex_dtype": lambda m: m.arange(3 + 1j, dtype=m.complex64),
    "arange_tensor": lambda m: m.arange(m.tensor(3 + 0j)),
    "arange_tensor_imag": lambda m: m.arange(m.tensor(3 + 1j)),
    "arange_tensor_end_float_step": lambda m: m.arange(0, m.tensor(2 + 0j), 0.5),
}


@pytest.mark.parametrize("name", sorted(_SPACES))
def test_spaces_with_complex_endpoints(name):
    same(_SPACES[name], may_raise=True, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_linspace_infers_the_default_complex_dtype(default):
    def prog(m):
        old = m.get_default_dtype()
        m.set_default_dtype(getattr(m, default))
        try:
            return (m.linspace(0, 1 + 1j, 4), m.logspace(1j, 1, 3),
                    catch(m.linspace, 0, 1 + 1j, 3, dtype=m.float32))
        finally:
            m.set_default_dtype(old)
    same(prog, rtol=1e-6, atol=1e-6)


# ------------------------------------------------------------------ histogram's checks

def _hist_args(m):
    x = m.tensor(np.random.default_rng(3).standard_normal((3, 4)), dtype=m.float32)
    return x, x.to(m.complex128), m.linspace(-1, 1, 5), m.ones(3, 4, dtype=m.float64)


_HISTOGRAM = {
    "complex_counts": lambda m, x, c, e, w: m.histogram(c, 4),
    "complex_edges": lambda m, x, c, e, w: m.histogram(c, e.to(m.complex128)),
    "complex_real_edges": lambda m, x, c, e, w: m.histogram(c, e),
    "complex_counts_weight": lambda m, x, c, e, w: m.histogram(c, 4, weight=w),
    "complex_edges_weight": lambda m, x, c, e, w: m.histogram(c, e.to(m.complex128), weight=w),
    "complex_edges_complex_weight": lambda m, x, c, e, w: m.histogram(
        c, e.to(m.complex128), weight=w.to(m.complex128)),
    "edges_of_another_dtype": lambda m, x, c, e, w: m.histogram(x, e.double()),
    "weight_of_another_dtype": lambda m, x, c, e, w: m.histogram(x, 4, weight=w),
    "weight_of_another_dtype_and_shape": lambda m, x, c, e, w: m.histogram(x, 4, weight=w[:2]),
    "edges_weight_of_another_dtype_and_shape": lambda m, x, c, e, w: m.histogram(
        x, e, weight=w[:2]),
    "weight_of_another_shape": lambda m, x, c, e, w: m.histogram(x, 4, weight=w[:2].float()),
    "dd_complex_counts_weight": lambda m, x, c, e, w: m.histogramdd(c, 2, weight=w[:, 0]),
    "dd_complex_edges_weight": lambda m, x, c, e, w: m.histogramdd(
        c, [e.to(m.complex128)] * 4, weight=w[:, 0]),
    "dd_weight_of_another_dtype": lambda m, x, c, e, w: m.histogramdd(x, 2, weight=w[:, 0]),
    "dd_weight_of_another_dtype_and_shape": lambda m, x, c, e, w: m.histogramdd(
        x, 2, weight=w[:2, 0]),
    "dd_edges_weight_of_another_dtype": lambda m, x, c, e, w: m.histogramdd(
        x, [e] * 4, weight=w[:, 0]),
    "dd_edges_of_another_dtype": lambda m, x, c, e, w: m.histogramdd(x, [e.double()] * 4),
    "dd_matching": lambda m, x, c, e, w: m.histogramdd(x, [e] * 4, weight=w[:, 0].float()),
    "weight_of_another_shape_same_numel": lambda m, x, c, e, w: m.histogram(
        x, 4, weight=w.float().reshape(4, 3)),
    "flat_weight": lambda m, x, c, e, w: m.histogram(x, e, weight=w.float().reshape(-1)),
    "dd_0d_weight": lambda m, x, c, e, w: m.histogramdd(x[:1, :2], 2, weight=w[0, 0].float()),
    "dd_weight_of_another_shape": lambda m, x, c, e, w: m.histogramdd(
        x, 2, weight=w[:2, 0].float()),
}


@pytest.mark.parametrize("name", sorted(_HISTOGRAM))
def test_histogram_checks_in_pytorchs_order(name):
    """histogram/histogramdd check the bin edges' and the weight's dtypes against the
    input's (given edges, before the kernel's complex refusal; given bin counts, after
    it), with PyTorch's exception types and messages; a mismatch never computes."""
    same(lambda m: _HISTOGRAM[name](m, *_hist_args(m)), may_raise=True)
